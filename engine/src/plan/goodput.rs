//! The plan's per-request latency targets, as goodput needs them.
//!
//! Goodput counts the requests per second that meet **every** latency target of the plan. A
//! percentile or max mark on a per-request latency (TTFT, TPOT, E2E) becomes a per-request limit:
//! "95 % of requests see their first token within 500 ms" makes a request good only if its own TTFT
//! is within 500 ms. ITL is pooled over gaps rather than requests and a mean is not a per-request
//! limit, so neither becomes a target. When several marks limit the same metric, the tightest
//! wins.
//!
//! The targets also render as the `--goodput` arguments of the two load-test tools, so an assessor
//! can paste the plan into a load test: `vllm bench serve --goodput ttft:500 tpot:40` (keys `ttft`,
//! `tpot`, `e2el`, values in ms, separate arguments) and AIPerf's single argument
//! `"time_to_first_token:500 inter_token_latency:40"` (AIPerf's `inter_token_latency` is the
//! per-request TPOT formula). Both tools count a request good when its value is at most the
//! limit; a strict `<` mark cannot be said to them, which [`RequestTarget::inclusive`] records.

use super::comparator::Comparator;
use super::content::PlanContent;
use super::metric::Metric;
use super::scope::Scope;
use super::unit::{Unit, format_number};
use serde::{Deserialize, Serialize};

/// A limit every single request must meet to count as good.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestTarget {
    /// TTFT, TPOT or E2E.
    pub metric: Metric,
    pub limit_ms: f64,
    /// Whether a request exactly at the limit is good (≤) or not (<).
    pub inclusive: bool,
}

impl RequestTarget {
    /// Whether one request's value (ms) meets the target.
    pub fn admits(&self, value_ms: f64) -> bool {
        let comparator = if self.inclusive {
            Comparator::Le
        } else {
            Comparator::Lt
        };
        comparator.admits(value_ms, self.limit_ms)
    }
}

/// The per-request targets of the plan's marks that apply to `scope` (marks for all traffic plus
/// marks for that scope), tightest per metric, in the order TTFT, TPOT, E2E.
pub fn request_targets(content: &PlanContent, scope: &Scope) -> Vec<RequestTarget> {
    let mut targets: Vec<RequestTarget> = Vec::new();
    for metric in [Metric::Ttft, Metric::Tpot, Metric::E2e] {
        let tightest = content
            .pass_marks
            .iter()
            .filter(|m| m.metric == metric && m.comparator.is_upper_limit())
            .filter(|m| m.statistic.is_percentile() || m.statistic == super::Statistic::Max)
            .filter(|m| m.scope == Scope::AllTraffic || m.scope.same_as(scope))
            .filter_map(|m| {
                m.unit
                    .convert(m.threshold, Unit::Ms)
                    .map(|limit_ms| (limit_ms, m.comparator.is_inclusive()))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        if let Some((limit_ms, inclusive)) = tightest {
            targets.push(RequestTarget {
                metric,
                limit_ms,
                inclusive,
            });
        }
    }
    targets
}

fn render(targets: &[RequestTarget], name: fn(&Metric) -> &'static str) -> String {
    targets
        .iter()
        .map(|t| {
            format!(
                "{}:{}",
                name(&t.metric),
                format_number(t.limit_ms).replace(',', "")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `--goodput` arguments of `vllm bench serve`, e.g. `ttft:500 tpot:40`.
pub fn vllm_bench_goodput(targets: &[RequestTarget]) -> String {
    render(targets, |metric| match metric {
        Metric::Ttft => "ttft",
        Metric::Tpot => "tpot",
        _ => "e2el",
    })
}

/// The `--goodput` argument of AIPerf, e.g. `time_to_first_token:500 inter_token_latency:40`.
pub fn aiperf_goodput(targets: &[RequestTarget]) -> String {
    render(targets, |metric| match metric {
        Metric::Ttft => "time_to_first_token",
        Metric::Tpot => "inter_token_latency",
        _ => "request_latency",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::pass_mark::PassMark;
    use crate::plan::pass_mark::tests::ttft_p95;
    use crate::plan::statistic::Statistic;
    use crate::plan::templates;

    #[test]
    fn mlperf_interactive_renders_as_load_test_arguments() {
        let content = templates::by_id("mlperf-v6-llama2-70b-interactive")
            .unwrap()
            .content();
        let targets = request_targets(&content, &Scope::AllTraffic);
        assert_eq!(vllm_bench_goodput(&targets), "ttft:450 tpot:40");
        assert_eq!(
            aiperf_goodput(&targets),
            "time_to_first_token:450 inter_token_latency:40"
        );
        let server = templates::by_id("mlperf-v6-llama2-70b-server")
            .unwrap()
            .content();
        assert_eq!(
            vllm_bench_goodput(&request_targets(&server, &Scope::AllTraffic)),
            "ttft:2000 tpot:200"
        );
    }

    #[test]
    fn the_tightest_applicable_mark_wins_and_means_and_itl_do_not_count() {
        let content = PlanContent {
            pass_marks: vec![
                ttft_p95(),
                PassMark {
                    statistic: Statistic::P99,
                    comparator: Comparator::Lt,
                    threshold: 0.4,
                    unit: Unit::S,
                    ..ttft_p95()
                },
                PassMark {
                    statistic: Statistic::Mean,
                    threshold: 100.0,
                    ..ttft_p95()
                },
                PassMark {
                    metric: Metric::Itl,
                    threshold: 50.0,
                    ..ttft_p95()
                },
                PassMark {
                    metric: Metric::E2e,
                    threshold: 5.0,
                    unit: Unit::S,
                    scope: Scope::Scenario("Batch".into()),
                    ..ttft_p95()
                },
            ],
            ..PlanContent::default()
        };
        let all = request_targets(&content, &Scope::AllTraffic);
        assert_eq!(
            all,
            vec![RequestTarget {
                metric: Metric::Ttft,
                limit_ms: 400.0,
                inclusive: false
            }]
        );
        assert!(all[0].admits(399.0) && !all[0].admits(400.0));
        let batch = request_targets(&content, &Scope::Scenario("batch".into()));
        assert_eq!(vllm_bench_goodput(&batch), "ttft:400 e2el:5000");
    }
}
