//! The plan's latency pass marks as limits a load test's statistics can be held against.

use crate::ingest::{MetricKey, MetricStats};
use crate::locale::Lang;
use crate::plan::{
    MeasurementPoint, Metric, PlanContent, Scope, Statistic, Unit, format_number_in,
};
use serde::{Deserialize, Serialize};

/// One latency limit from the plan: "TTFT p99 ≤ 450 ms".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyTarget {
    /// `ttft_ms`, `tpot_ms`, `itl_ms` or `e2e_ms`.
    pub metric: MetricKey,
    /// The statistic the mark limits: `p50`, `p90`, `p95`, `p99` or `max`.
    pub statistic: Statistic,
    pub limit_ms: f64,
    /// Whether a value exactly at the limit passes (≤) or not (<).
    pub inclusive: bool,
    /// The scenario the mark is scoped to; `None` for all traffic.
    pub scenario: Option<String>,
    /// `TTFT p99 ≤ 450 ms`.
    pub label: String,
    /// Where the plan measures it (a gateway mark includes the gateway's own time; targets
    /// kept before the field existed read as client).
    #[serde(default)]
    pub point: MeasurementPoint,
}

impl LatencyTarget {
    /// Whether the mark applies to a point of scenario `scenario` (scenario marks match when the
    /// point's scenario text contains the plan's scenario name, ignoring case).
    pub fn applies_to(&self, scenario: &str) -> bool {
        match &self.scenario {
            None => true,
            Some(name) => scenario
                .to_ascii_lowercase()
                .contains(&name.trim().to_ascii_lowercase()),
        }
    }

    /// Whether a value (ms) meets the limit.
    pub fn admits(&self, value_ms: f64) -> bool {
        if self.inclusive {
            value_ms <= self.limit_ms
        } else {
            value_ms < self.limit_ms
        }
    }

    /// The statistic this target limits, read from `stats`.
    pub fn value_in(&self, stats: &MetricStats) -> Option<f64> {
        match self.statistic {
            Statistic::Max => stats.max,
            statistic => statistic
                .percentile()
                .and_then(|p| stats.percentile(f64::from(p))),
        }
    }

    /// [`LatencyTarget::label`] with `lang`'s number separators (`E2E p99 ≤ 1.500 ms`).
    pub fn label_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.label.clone(),
            lang => label(
                self.metric,
                self.statistic,
                self.inclusive,
                self.limit_ms,
                self.scenario.as_deref(),
                lang,
            ),
        }
    }

    /// The percentile (0–100) the target limits; 100 for max.
    pub fn percentile(&self) -> f64 {
        self.statistic.percentile().map_or(100.0, f64::from)
    }
}

fn metric_key(metric: &Metric) -> Option<MetricKey> {
    Some(match metric {
        Metric::Ttft => MetricKey::TtftMs,
        Metric::Tpot => MetricKey::TpotMs,
        Metric::Itl => MetricKey::ItlMs,
        Metric::E2e => MetricKey::E2eMs,
        _ => return None,
    })
}

/// `TTFT p99 ≤ 450 ms (RAG)`: an upper limit's label, its number in `lang`.
fn label(
    metric: MetricKey,
    statistic: Statistic,
    inclusive: bool,
    limit_ms: f64,
    scenario: Option<&str>,
    lang: Lang,
) -> String {
    format!(
        "{} {} {} {} ms{}",
        match metric {
            MetricKey::TtftMs => "TTFT",
            MetricKey::TpotMs => "TPOT",
            MetricKey::ItlMs => "ITL",
            _ => "E2E",
        },
        statistic.as_str(),
        if inclusive { "≤" } else { "<" },
        format_number_in(limit_ms, lang),
        scenario.map(|s| format!(" ({s})")).unwrap_or_default()
    )
}

/// Every latency pass mark of the plan that limits a percentile or the maximum from above, as a
/// [`LatencyTarget`], in plan order.
pub fn latency_targets(content: &PlanContent) -> Vec<LatencyTarget> {
    content
        .pass_marks
        .iter()
        .filter(|m| m.comparator.is_upper_limit())
        .filter(|m| m.statistic.is_percentile() || m.statistic == Statistic::Max)
        .filter_map(|m| {
            let key = metric_key(&m.metric)?;
            let limit_ms = m.unit.convert(m.threshold, Unit::Ms)?;
            let scenario = match &m.scope {
                Scope::Scenario(name) => Some(name.clone()),
                _ => None,
            };
            let inclusive = m.comparator.is_inclusive();
            let label = label(
                key,
                m.statistic,
                inclusive,
                limit_ms,
                scenario.as_deref(),
                Lang::En,
            );
            Some(LatencyTarget {
                metric: key,
                statistic: m.statistic,
                limit_ms,
                inclusive,
                scenario,
                label,
                point: m.point,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::templates;

    #[test]
    fn the_mlperf_interactive_plan_becomes_two_client_latency_targets() {
        let content = templates::by_id("mlperf-v6-llama2-70b-interactive")
            .unwrap()
            .content();
        let targets = latency_targets(&content);
        let labels: Vec<&str> = targets.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, vec!["TTFT p99 ≤ 450 ms", "TPOT p99 ≤ 40 ms"]);
        assert!(targets[0].admits(450.0));
        assert!(!targets[0].admits(450.1));
        assert_eq!(targets[0].percentile(), 99.0);
    }

    #[test]
    fn a_label_in_german_writes_its_limit_with_german_separators() {
        let mut target = latency_targets(
            &templates::by_id("mlperf-v6-llama2-70b-interactive")
                .unwrap()
                .content(),
        )
        .remove(0);
        assert_eq!(target.label_in(Lang::En), target.label);
        target.limit_ms = 1500.5;
        target.inclusive = false;
        target.scenario = Some("RAG".into());
        assert_eq!(target.label_in(Lang::De), "TTFT p99 < 1.500,5 ms (RAG)");
    }
}
