//! How many requests a load test held in flight, when the tool does not say: Little's law.
//!
//! `vllm bench serve` sweeps by `--request-rate` unless told `--max-concurrency`; guidellm's
//! `constant` and `poisson` profiles do the same. Such a file states an arrival rate and no
//! concurrency, yet the plan's pass marks are set at a planned peak of requests *in flight*:
//! without a concurrency no point could be placed on the curves or graded.
//!
//! Little's law (Little, "A proof for the queuing formula L = λW", Operations Research 9(3),
//! 1961) says that over any long run of a stable system the mean number inside equals the
//! rate at which requests finish times the mean time each spends inside: L = λ × W. Here λ is
//! the run's measured request throughput (completed ÷ duration) and W its mean end-to-end
//! latency. When the file gives no mean E2E, W is rebuilt from its parts: mean TTFT + mean
//! TPOT × (mean output tokens − 1), TPOT's own definition turned around (exact per request;
//! over a run it assumes TPOT and answer length are not correlated).
//!
//! The figure is the *mean* in flight over the run, ramp-up and drain included, so it is a
//! little below what the server held at its busiest; grading picks the lowest point at or
//! above the planned peak, so a run placed here is never credited with more load than it
//! carried. Every such figure is labelled as derived wherever it is shown.

use crate::ingest::{MetricKey, OperatingPoint};
use serde::{Deserialize, Serialize};

/// Where a point's requests-in-flight figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ConcurrencyBasis {
    /// The tool's configured concurrency (`--max-concurrency`, AIPerf `--concurrency`).
    #[default]
    Stated,
    /// Little's law over the run: throughput × mean E2E (see the module docs).
    LittlesLaw,
}

/// A point's requests in flight and where the figure comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InFlight {
    pub requests: f64,
    pub basis: ConcurrencyBasis,
}

/// The point's requests in flight: the stated concurrency, else Little's law when the file
/// gives a throughput and a mean E2E (or its parts); `None` when it gives neither.
pub fn in_flight(point: &OperatingPoint) -> Option<InFlight> {
    if let Some(c) = point.concurrency.filter(|c| c.is_finite() && *c > 0.0) {
        return Some(InFlight {
            requests: c,
            basis: ConcurrencyBasis::Stated,
        });
    }
    let throughput = point.request_throughput.or_else(|| {
        let completed = point.completed? as f64;
        let duration = point.duration_s.filter(|d| *d > 0.0)?;
        Some(completed / duration)
    })?;
    let requests = throughput * mean_e2e_ms(point)? / 1000.0;
    (requests.is_finite() && requests > 0.0).then_some(InFlight {
        requests,
        basis: ConcurrencyBasis::LittlesLaw,
    })
}

/// The run's mean end-to-end latency, ms: the file's own, else TTFT + TPOT × (output − 1).
fn mean_e2e_ms(point: &OperatingPoint) -> Option<f64> {
    let mean = |key| point.metric(key).and_then(|s| s.mean);
    if let Some(e2e) = mean(MetricKey::E2eMs).filter(|e| *e > 0.0) {
        return Some(e2e);
    }
    let output = point
        .output_tokens_mean
        .or_else(|| mean(MetricKey::OutputTokens))
        .or_else(|| {
            let total = point.output_tokens_total? as f64;
            let completed = point.completed.filter(|c| *c > 0)? as f64;
            Some(total / completed)
        })?;
    let ttft = mean(MetricKey::TtftMs)?;
    let tpot = mean(MetricKey::TpotMs).unwrap_or(0.0);
    let e2e = ttft + tpot * (output - 1.0).max(0.0);
    (e2e > 0.0).then_some(e2e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::import;

    /// The nerdalert sweep (`vllm bench serve`, Llama-3.2-3B on 4 × L40S, request rates 10, 30
    /// and inf): no point states a concurrency. Line 1 by hand: 8.3694 req/s × (54.596 ms +
    /// 13.711 ms × (80,945 ÷ 300 − 1)) = 8.3694 × 3.7396 s = 31.30 in flight.
    #[test]
    fn a_request_rate_sweep_gets_its_in_flight_figure_from_littles_law() {
        let text = include_str!("../../../testdata/nerdalert-vllm-bench-automation/results.json");
        let import = import("results.json", text.as_bytes()).expect("the sweep reads");
        let first = &import.points[0];
        assert_eq!(first.concurrency, None);
        assert_eq!(first.request_rate, Some(10.0));
        let got = in_flight(first).expect("derived");
        assert_eq!(got.basis, ConcurrencyBasis::LittlesLaw);
        let by_hand = 8.369432347779671
            * (54.59561144333596 + 13.710971568239172 * (80945.0 / 300.0 - 1.0))
            / 1000.0;
        assert!(
            (got.requests - by_hand).abs() < 1e-9,
            "{} vs {by_hand}",
            got.requests
        );
        assert!((got.requests - 31.30).abs() < 0.01);
        // The unlimited-rate point (all 900 at once) held far more on average.
        let burst = &import.points[2];
        assert_eq!(burst.request_rate, None);
        assert!(in_flight(burst).unwrap().requests > 500.0);
    }

    #[test]
    fn a_stated_concurrency_is_kept_and_a_point_without_timing_has_none() {
        let mut point = OperatingPoint::new("x");
        assert_eq!(in_flight(&point), None);
        point.concurrency = Some(16.0);
        assert_eq!(
            in_flight(&point),
            Some(InFlight {
                requests: 16.0,
                basis: ConcurrencyBasis::Stated
            })
        );
    }
}
