//! Goodput per operating point: whether every latency target holds, and how many requests met
//! them all.
//!
//! Two methods, and every result says which one it used:
//! * [`GoodputMethod::PerRequest`] — exact: each successful request is good when its own TTFT,
//!   TPOT and E2E meet every per-request limit (ITL is pooled over gaps, so it is not a
//!   per-request limit); the share is good ÷ (completed + failed), the rate good ÷ duration.
//! * [`GoodputMethod::Percentiles`] — the file has only summary statistics: each target is held
//!   against the reported percentile it limits. The share of good requests is then only bounded:
//!   when every target holds, at least 100 − Σ(100 − pᵢ) % of requests met all of them (union
//!   bound); when a p-th percentile target fails, fewer than p % met it.

use super::samples::RequestSample;
use super::targets::LatencyTarget;
use crate::ingest::{MetricKey, OperatingPoint};
use serde::{Deserialize, Serialize};

/// How a point's goodput was established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoodputMethod {
    /// Exact, from the file's per-request records.
    PerRequest,
    /// From the reported percentiles only (bounds, not counts).
    Percentiles,
}

impl GoodputMethod {
    pub fn label(self) -> &'static str {
        match self {
            GoodputMethod::PerRequest => "exact, per request",
            GoodputMethod::Percentiles => "graded on reported percentiles",
        }
    }
}

/// One target held against one point's statistic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetCheck {
    pub label: String,
    /// The point's value of the statistic the target limits (ms); `None`: the file lacks it.
    pub value_ms: Option<f64>,
    /// `None` when the value is missing.
    pub met: Option<bool>,
}

/// Goodput of one operating point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointGoodput {
    pub method: GoodputMethod,
    pub checks: Vec<TargetCheck>,
    /// Every applicable target holds (`None`: no target, or a statistic is missing).
    pub all_met: Option<bool>,
    /// Exact method: requests meeting every target.
    pub good_requests: Option<u64>,
    /// Exact method: good ÷ (completed + failed), %.
    pub share_pct: Option<f64>,
    /// Exact method: good requests per second of the run.
    pub goodput_rps: Option<f64>,
    /// Percentiles method: what the percentiles say about the share, e.g. `≥ 98 %`, `< 99 %`.
    pub share_bound: Option<String>,
}

fn checks(point: &OperatingPoint, targets: &[&LatencyTarget]) -> Vec<TargetCheck> {
    targets
        .iter()
        .map(|t| {
            let value_ms = point.metric(t.metric).and_then(|s| t.value_in(s));
            TargetCheck {
                label: t.label.clone(),
                value_ms,
                met: value_ms.map(|v| t.admits(v)),
            }
        })
        .collect()
}

fn all_met(checks: &[TargetCheck]) -> Option<bool> {
    if checks.is_empty() {
        return None;
    }
    if checks.iter().any(|c| c.met == Some(false)) {
        return Some(false);
    }
    if checks.iter().all(|c| c.met == Some(true)) {
        Some(true)
    } else {
        None
    }
}

fn applicable<'a>(point: &OperatingPoint, targets: &'a [LatencyTarget]) -> Vec<&'a LatencyTarget> {
    targets
        .iter()
        .filter(|t| t.applies_to(&point.scenario))
        .collect()
}

fn fmt_pct(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0} %")
    } else {
        format!("{value:.1} %")
    }
}

/// Grades a point on its reported percentiles.
pub fn grade_on_percentiles(point: &OperatingPoint, targets: &[LatencyTarget]) -> PointGoodput {
    let applicable = applicable(point, targets);
    let checks = checks(point, &applicable);
    let all = all_met(&checks);
    let share_bound = match all {
        Some(true) => {
            let missing: f64 = applicable.iter().map(|t| 100.0 - t.percentile()).sum();
            Some(format!("≥ {}", fmt_pct((100.0 - missing).max(0.0))))
        }
        Some(false) => applicable
            .iter()
            .zip(&checks)
            .filter(|(_, c)| c.met == Some(false))
            .map(|(t, _)| t.percentile())
            .min_by(f64::total_cmp)
            .map(|p| format!("< {}", fmt_pct(p))),
        None => None,
    };
    PointGoodput {
        method: GoodputMethod::Percentiles,
        checks,
        all_met: all,
        good_requests: None,
        share_pct: None,
        goodput_rps: None,
        share_bound,
    }
}

/// Grades a point exactly from its per-request samples (`requests`: the samples of this point).
pub fn grade_on_requests(
    point: &OperatingPoint,
    requests: &[RequestSample],
    targets: &[LatencyTarget],
) -> PointGoodput {
    let applicable = applicable(point, targets);
    let per_request: Vec<&&LatencyTarget> = applicable
        .iter()
        .filter(|t| t.metric != MetricKey::ItlMs)
        .collect();
    let good = requests
        .iter()
        .filter(|r| !r.failed)
        .filter(|r| {
            per_request.iter().all(|t| {
                let value = match t.metric {
                    MetricKey::TtftMs => r.ttft_ms,
                    MetricKey::TpotMs => match r.tpot_ms {
                        // A one-token answer has no TPOT; it cannot miss a TPOT limit.
                        None => return true,
                        v => v,
                    },
                    _ => r.e2e_ms,
                };
                value.is_some_and(|v| t.admits(v))
            })
        })
        .count() as u64;
    let total = requests.len() as u64;
    let checks = checks(point, &applicable);
    let all = all_met(&checks);
    PointGoodput {
        method: GoodputMethod::PerRequest,
        all_met: all,
        checks,
        good_requests: Some(good),
        share_pct: (total > 0).then(|| good as f64 * 100.0 / total as f64),
        goodput_rps: point
            .duration_s
            .filter(|d| *d > 0.0)
            .map(|d| good as f64 / d),
        share_bound: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{MetricStats, RequestRecord};
    use crate::loadtest::samples::RequestSample;

    fn target(metric: MetricKey, statistic: &str, limit_ms: f64) -> LatencyTarget {
        LatencyTarget {
            metric,
            statistic: crate::plan::Statistic::parse(statistic).expect("a statistic"),
            limit_ms,
            inclusive: true,
            scenario: None,
            label: format!("{metric} {statistic} ≤ {limit_ms}"),
            point: crate::plan::MeasurementPoint::Client,
        }
    }

    fn point(ttft_p99: f64, tpot_p99: f64) -> OperatingPoint {
        let mut p = OperatingPoint::new("test");
        let mut ttft = MetricStats::new(MetricKey::TtftMs, "d", "ttft");
        ttft.p99 = Some(ttft_p99);
        let mut tpot = MetricStats::new(MetricKey::TpotMs, "d", "tpot");
        tpot.p99 = Some(tpot_p99);
        p.metrics.insert(MetricKey::TtftMs, ttft);
        p.metrics.insert(MetricKey::TpotMs, tpot);
        p.duration_s = Some(10.0);
        p
    }

    fn targets() -> Vec<LatencyTarget> {
        vec![
            target(MetricKey::TtftMs, "p99", 450.0),
            target(MetricKey::TpotMs, "p99", 40.0),
        ]
    }

    #[test]
    fn percentiles_give_bounds_not_counts() {
        let met = grade_on_percentiles(&point(309.0, 31.0), &targets());
        assert_eq!(met.all_met, Some(true));
        assert_eq!(met.share_bound.as_deref(), Some("≥ 98 %"));
        assert_eq!(met.method, GoodputMethod::Percentiles);
        let missed = grade_on_percentiles(&point(572.0, 31.0), &targets());
        assert_eq!(missed.all_met, Some(false));
        assert_eq!(missed.share_bound.as_deref(), Some("< 99 %"));
        assert_eq!(missed.checks[0].value_ms, Some(572.0));
        let none = grade_on_percentiles(&point(100.0, 10.0), &[]);
        assert_eq!(none.all_met, None);
    }

    #[test]
    fn per_request_grading_counts_requests_meeting_every_limit() {
        let p = point(500.0, 30.0);
        let mk = |ttft: f64, tpot: Option<f64>, error: bool| {
            let mut r = RequestRecord::new(0);
            r.ttft_ms = Some(ttft);
            r.tpot_ms = tpot;
            r.e2e_ms = Some(1000.0);
            r.error = error.then(|| "boom".to_string());
            r
        };
        let records = [
            mk(100.0, Some(20.0), false),
            mk(500.0, Some(20.0), false),
            mk(100.0, Some(41.0), false),
            mk(100.0, None, false),
            mk(0.0, None, true),
        ];
        let samples: Vec<RequestSample> = records.iter().map(RequestSample::from).collect();
        let g = grade_on_requests(&p, &samples, &targets());
        assert_eq!(g.good_requests, Some(2));
        assert_eq!(g.share_pct, Some(40.0));
        assert_eq!(g.goodput_rps, Some(0.2));
        assert_eq!(g.all_met, Some(false), "TTFT p99 500 > 450");
    }
}
