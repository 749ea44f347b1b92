//! Predicted compliance: whether the plan's latency pass marks hold at the production arrival
//! rate on a candidate, as the pilot's capacity twin ([`crate::twin`]) predicts it.
//!
//! # Why only the pilot's own configuration
//!
//! The twin is a timing model fitted on the pilot's load tests: step costs of one GPU type, one
//! tensor/pipeline split and one weight precision. It says nothing about a card it never
//! measured (another GPU's step costs are not a scaled copy of these), so it is applied only to
//! candidates of the measured configuration ([`MeasuredConfiguration::describes`]); every other
//! candidate is left as the sizing engine ranked it and the report says the twin cannot speak
//! for it.
//!
//! # Copies share the load
//!
//! A candidate of `n` copies of the measured configuration serves the production arrival rate
//! spread over its copies (a load balancer in front of independent vLLM instances), so each
//! copy is asked at rate ÷ `n` with Poisson arrivals, the production traffic's shape.
//!
//! # Ranking
//!
//! A candidate predicted to miss a mark is moved below every candidate not predicted to miss
//! (predicted to pass, or not predictable); the order is otherwise kept (a stable partition). A
//! mark the twin does not predict (a maximum, a mean, a scenario-scoped mark) is listed with no
//! verdict and does not decide the ranking.

use crate::ingest::MetricKey;
use crate::loadtest::LatencyTarget;
use crate::sizing::{Candidate, WeightPrecision};
use crate::twin::{Basis, Prediction, Question, Twin};
use serde::{Deserialize, Serialize};

/// The serving configuration the pilot's load tests measured, as candidates describe theirs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredConfiguration {
    /// Catalog id of the GPU.
    pub gpu_id: String,
    /// Tensor-parallel size of one copy.
    pub tp: u32,
    /// Pipeline stages of one copy.
    pub pp: u32,
    pub precision: WeightPrecision,
}

impl MeasuredConfiguration {
    /// Whether `candidate` is one or more copies of this configuration (same GPU, split and
    /// weight precision): the only candidates the twin's prediction applies to.
    pub fn describes(&self, candidate: &Candidate) -> bool {
        candidate.gpu_id.eq_ignore_ascii_case(&self.gpu_id)
            && candidate.topology.tp == self.tp
            && candidate.topology.pp == self.pp
            && candidate.precision == self.precision
    }
}

/// The pilot's fitted twin and what it must be checked against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotTwin {
    pub configuration: MeasuredConfiguration,
    pub twin: Twin,
    /// The plan's latency pass marks (all of them; scenario marks are listed without verdict).
    pub marks: Vec<LatencyTarget>,
}

/// One pass mark against its prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarkPrediction {
    /// `TTFT p99 ≤ 450 ms`.
    pub mark: String,
    /// The predicted value, ms; `None` when the twin does not predict this statistic.
    pub predicted_ms: Option<f64>,
    pub basis: Option<Basis>,
    /// `Some(true)`: predicted to hold; `Some(false)`: predicted to miss; `None`: not predicted.
    pub holds: Option<bool>,
    /// Why there is no verdict, when there is none.
    pub note: Option<String>,
}

/// What the twin predicts for one candidate at the production arrival rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictedCompliance {
    pub copies: u32,
    /// Production arrival rate, req/s (all copies).
    pub rate_per_s: f64,
    /// The rate one copy is asked at: rate ÷ copies, req/s.
    pub rate_per_copy_per_s: f64,
    /// The prediction's basis (a percentile filled by simulation is Simulated per mark).
    pub basis: Basis,
    pub marks: Vec<MarkPrediction>,
    /// `Some(false)` when any mark is predicted to miss, `Some(true)` when every predicted mark
    /// holds, `None` when no mark could be predicted.
    pub holds: Option<bool>,
    /// Prompt tokens processed per second, all copies (throughput × mean prompt length).
    pub input_tokens_per_s: f64,
    /// Answer tokens generated per second, all copies.
    pub output_tokens_per_s: f64,
    /// The back-test's median and worst absolute error, %.
    pub backtest_median_pct: Option<f64>,
    pub backtest_worst_pct: Option<f64>,
    pub warnings: Vec<String>,
}

/// The prediction's value for `metric` at `statistic`, as a field name and a value.
fn predicted(p: &Prediction, metric: MetricKey, statistic: &str) -> Option<(&'static str, f64)> {
    let (field, values) = match metric {
        MetricKey::TtftMs => ("ttft_ms", &p.ttft_ms),
        MetricKey::TpotMs => ("tpot_ms", &p.tpot_ms),
        MetricKey::ItlMs => ("itl_ms", &p.itl_ms),
        MetricKey::E2eMs => ("e2e_ms", &p.e2e_ms),
        _ => return None,
    };
    let value = match statistic {
        "p50" => values.p50,
        "p90" => values.p90,
        "p95" => values.p95,
        "p99" => values.p99,
        _ => return None,
    };
    Some((field, value))
}

/// Each mark against `prediction`.
pub fn check_marks(prediction: &Prediction, marks: &[LatencyTarget]) -> Vec<MarkPrediction> {
    marks
        .iter()
        .map(|mark| {
            let not_predicted = |note: &str| MarkPrediction {
                mark: mark.label.clone(),
                predicted_ms: None,
                basis: None,
                holds: None,
                note: Some(note.to_string()),
            };
            if mark.scenario.is_some() {
                return not_predicted("scoped to a scenario; the twin predicts all traffic");
            }
            match predicted(prediction, mark.metric, &mark.statistic) {
                Some((field, value)) if value.is_finite() => MarkPrediction {
                    mark: mark.label.clone(),
                    predicted_ms: Some(value),
                    basis: Some(prediction.figure_basis(field, &mark.statistic)),
                    holds: Some(mark.admits(value)),
                    note: None,
                },
                _ => not_predicted("the twin predicts TTFT, TPOT, ITL and E2E at p50–p99 only"),
            }
        })
        .collect()
}

/// The twin's prediction for `copies` copies at `rate_per_s` in all, against `marks`.
pub fn predict_compliance(
    twin: &Twin,
    marks: &[LatencyTarget],
    rate_per_s: f64,
    copies: u32,
) -> PredictedCompliance {
    let copies = copies.max(1);
    let rate_per_copy = rate_per_s / f64::from(copies);
    let prediction = twin.predict(&Question::rate(rate_per_copy));
    let marks = check_marks(&prediction, marks);
    let verdicts: Vec<bool> = marks.iter().filter_map(|m| m.holds).collect();
    let holds = (!verdicts.is_empty()).then(|| verdicts.iter().all(|h| *h));
    PredictedCompliance {
        copies,
        rate_per_s,
        rate_per_copy_per_s: rate_per_copy,
        basis: prediction.basis,
        marks,
        holds,
        input_tokens_per_s: prediction.request_throughput_per_s
            * prediction.prompt_tokens_mean
            * f64::from(copies),
        output_tokens_per_s: prediction.output_tokens_per_s * f64::from(copies),
        backtest_median_pct: prediction.backtest.median_abs_error_pct,
        backtest_worst_pct: prediction.backtest.max_abs_error_pct,
        warnings: prediction.warnings,
    }
}

/// `feasible` re-ranked by predicted compliance (see the module docs), with each candidate's
/// prediction (`None`: the twin does not apply). Candidates of the same copy count share one
/// prediction.
pub fn rank_by_compliance<'a>(
    feasible: Vec<&'a Candidate>,
    pilot: &PilotTwin,
    rate_per_s: f64,
) -> Vec<(&'a Candidate, Option<PredictedCompliance>)> {
    let mut by_copies: Vec<(u32, PredictedCompliance)> = Vec::new();
    let mut checked: Vec<(&Candidate, Option<PredictedCompliance>)> = feasible
        .into_iter()
        .map(|c| {
            if !(rate_per_s.is_finite() && rate_per_s > 0.0 && pilot.configuration.describes(c)) {
                return (c, None);
            }
            let copies = c.topology.copies.max(1);
            let compliance = match by_copies.iter().find(|(n, _)| *n == copies) {
                Some((_, known)) => known.clone(),
                None => {
                    let fresh = predict_compliance(&pilot.twin, &pilot.marks, rate_per_s, copies);
                    by_copies.push((copies, fresh.clone()));
                    fresh
                }
            };
            (c, Some(compliance))
        })
        .collect();
    // Stable: predicted misses after everything else, each group in the sizing engine's order.
    checked.sort_by_key(|(_, p)| p.as_ref().and_then(|p| p.holds) == Some(false));
    checked
}
