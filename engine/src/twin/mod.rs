//! The capacity twin: predicted TTFT, TPOT, ITL and E2E percentiles for a production load,
//! from the pilot's own measurements, with a stated, back-tested error.
//!
//! A load test answers "what does this engine do at the loads we tried"; production asks about
//! another load (a rate from the demand profile, a concurrency, the pilot's traffic scaled up).
//! The twin bridges the two with a small model of how vLLM serves:
//!
//! * [`timing`]: what one scheduler step costs (base + per sequence + per context token + per
//!   prefill token) and the engine's limits (running sequences, KV cache, tokens per step,
//!   chunked or separate prefill); the closed-form saturation rate.
//! * [`fit`]: fitting that model by non-negative least squares to the load tests' operating
//!   points and per-request records, then calibrating it by re-simulating each measured run.
//! * [`simulate`]: a discrete-event simulation of continuous batching, step by step, with
//!   admission, chunked prefill and recompute preemption.
//! * [`arrivals`]: Poisson at a rate, closed loop at a concurrency, a burst, or a gateway log
//!   replayed at production speed (also written as a Mooncake trace for AIPerf).
//! * [`workload`]: prompt and answer lengths drawn from what the load tests report.
//! * [`predict`]: the [`Prediction`] and its basis: Measured, Simulated or Estimated.
//! * [`trace`]: the pilot's gateway traffic as a Mooncake trace and the commands replaying it.
//! * [`transfer`](mod@transfer): the fitted step cost carried to another GPU, split, precision or
//!   execution mode by the physics of the work, with a stated range; a prior per GPU family
//!   without a load test.
//! * [`candidate_engine`]: the engine a candidate runs — its own vLLM scheduler defaults (or
//!   the pilot's stated flags) and its own KV cache — shared by every transfer to a candidate.
//! * [`other_configuration`]: the same load on another GPU, card count, split or format,
//!   every percentile with its range (`server predict --gpu`).
//! * [`backtest`]: leave-one-out over the measured points — the error the twin states.
//! * [`scheduler_limits`]: vLLM's scheduler defaults per card, or a deployment's flags.
//! * [`evidence`], [`serving_limits`], [`statistics`], [`least_squares`], [`rng`]: reading
//!   points, stated limits, summaries, the solver and the seeded random numbers.
//!
//! Pure and deterministic: no IO, no clock, no global state; the same inputs and seed give the
//! same numbers on every platform (the engine also runs in the browser).
//!
//! Typical use: group the imported points by serving configuration ([`configurations`]), then
//! [`Twin::build`] one configuration (fit + back-test) and ask it [`Twin::predict`] questions.

pub mod arrivals;
pub mod backtest;
pub mod candidate_engine;
pub mod evidence;
pub mod fit;
pub mod least_squares;
pub mod other_configuration;
pub mod predict;
pub mod rng;
pub mod scheduler_limits;
pub mod serving_limits;
pub mod simulate;
pub mod statistics;
pub mod step_model;
pub mod timing;
pub mod trace;
pub mod transfer;
pub mod validation;
pub mod workload;

#[cfg(test)]
mod tests;

pub use arrivals::{
    ArrivalProcess, ArrivalSummary, GatewayReplay, TimedRequest, mooncake_trace,
    replay_from_gateway,
};
pub use backtest::{Backtest, BacktestComparison, BacktestPoint, backtest};
pub use evidence::{
    Configuration, Lacking, MeasuredPoint, ReportedPercentiles, UnusablePoint, configurations,
};
pub use fit::{FitOptions, fit, fit_with};
pub use other_configuration::{ConfigurationPrediction, OtherConfiguration, predict_configuration};
pub use predict::{Basis, Prediction, Question, predict, predict_with};
pub use serving_limits::ServingLimits;
pub use simulate::{RequestOutcome, Simulation, SimulationOptions, simulate};
pub use statistics::{Percentiles, RunStatistics, Window};
pub use timing::{
    EngineLimits, FittedRange, LimitSource, PrefillScheduling, ScenarioShape, StepCost, TimingModel,
};
pub use transfer::{
    EngineGeneration, Execution, GpuFamily, Ranged, RangedPercentiles, ServingSetup, TransferError,
    TransferredPrediction, TransferredTwin, predict_transferred, prior_twin, transfer,
};
pub use workload::{LengthSummary, TokenLengths, Workload};

use crate::ingest::{OperatingPoint, RequestRecord};
use crate::locale::Lang;

/// Why no model could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TwinError {
    /// No point has the numbers the fit needs (throughput, output lengths, TTFT, TPOT).
    #[error(
        "no load level can be used by the capacity twin: {}",
        list(reasons, Lang::En)
    )]
    NoUsablePoints { reasons: Vec<UnusablePoint> },
    /// The points come from more than one serving configuration; fit one at a time.
    #[error(
        "the load tests hold {} serving configurations ({}); fit one at a time",
        labels.len(),
        labels.join("; ")
    )]
    SeveralConfigurations { labels: Vec<String> },
}

impl TwinError {
    /// Why no model could be fitted, in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        match (self, lang) {
            (TwinError::NoUsablePoints { .. }, Lang::En)
            | (TwinError::SeveralConfigurations { .. }, Lang::En) => self.to_string(),
            (TwinError::NoUsablePoints { reasons }, Lang::De) => format!(
                "keine Laststufe ist für den Kapazitäts-Zwilling verwendbar: {}",
                list(reasons, lang)
            ),
            (TwinError::SeveralConfigurations { labels }, Lang::De) => format!(
                "die Lasttests enthalten {} Serving-Konfigurationen ({}); jeweils eine anpassen",
                labels.len(),
                labels.join("; ")
            ),
        }
    }
}

fn list(reasons: &[UnusablePoint], lang: Lang) -> String {
    reasons
        .iter()
        .map(|r| r.text_in(lang))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A fitted model of one serving configuration and its back-test.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Twin {
    pub model: TimingModel,
    pub backtest: Backtest,
}

impl Twin {
    /// Fits the model and back-tests it (leave-one-out), with default options.
    pub fn build(
        points: &[OperatingPoint],
        requests: &[RequestRecord],
        limits: &ServingLimits,
    ) -> Result<Twin, TwinError> {
        Twin::build_with(points, requests, limits, &FitOptions::default())
    }

    /// [`Twin::build`] with fit options.
    pub fn build_with(
        points: &[OperatingPoint],
        requests: &[RequestRecord],
        limits: &ServingLimits,
        options: &FitOptions,
    ) -> Result<Twin, TwinError> {
        let model = fit_with(points, requests, limits, options)?;
        let backtest = backtest(points, requests, limits, options);
        Ok(Twin { model, backtest })
    }

    /// The prediction for `question`, carrying the back-test.
    pub fn predict(&self, question: &Question) -> Prediction {
        predict_with(&self.model, &self.backtest, question)
    }
}
