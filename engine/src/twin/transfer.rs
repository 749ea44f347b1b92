//! Transfer of the fitted step cost from the configuration the pilot measured to a candidate
//! it did not: another GPU, split, weight precision, KV-cache dtype or execution mode.
//!
//! # Why a model of the work, not a ratio of speeds
//!
//! A measured speed belongs to the engine it was measured on. The pilot's 34.5 tok/s on four
//! V100s at TP=4 in eager mode is 0.135 of that configuration's ceiling, and most of what is
//! missing is not memory bandwidth but host time: kernel launches without CUDA graphs and the
//! four-way synchronisation of a tensor-parallel engine. Multiplying another card's ceiling by
//! 0.135 carries that host time over *as if it scaled with bandwidth*, which makes an H100 look
//! slower than four V100s. What carries over is the work one step does:
//!
//! * **weights read per decode step** (bytes of the precision, shared over the TP group), against
//!   the card's memory bandwidth;
//! * **KV cache read per context token**, in the KV dtype, against the bandwidth;
//! * **compute per token** (2 FLOPs per active parameter) in the precision the card's tensor
//!   cores run ([`GpuSpec::dense_tflops_for`]), for prefill and for each decoding sequence;
//! * **communication**: two all-reduces per layer with tensor parallelism, one hand-off per
//!   stage boundary with pipeline parallelism;
//! * **host time** per step (launches, scheduling, Python): whatever of the fitted fixed step
//!   cost the physics above does not explain. It does not scale with the GPU's bandwidth or
//!   compute; CUDA graphs remove some of it, and vLLM's V1 engine (which Volta cannot run)
//!   much more ([`EngineGeneration`]).
//!
//! Each fitted coefficient of [`StepCost`] is split into its physics part at the measured
//! configuration and a residual (host time). The candidate's coefficient is the candidate's
//! physics (priced by [`super::step_model`], whose docs give every prior with its figure and
//! source) plus its host time:
//!
//! * **same execution mode and engine generation** (software unchanged): the residual is
//!   carried, within another host's ± 10 %;
//! * **another execution mode, same engine generation**: the launches are re-derived: the
//!   residual less the measured mode's launches (layers × [`launch_us_per_layer`]) is the
//!   engine's own time and is carried; the candidate's mode adds its own launches. Eager host
//!   overhead therefore never reaches a CUDA-graph candidate;
//! * **another engine generation** (vLLM V0 on Volta and Turing, V1 from Ampere): another
//!   engine; its host time is the prior of the candidate ([`host_prior_ms`]).
//!
//! Every coefficient is then held at or above the candidate's [`StepFloor`] (the work at 100 %
//! of the data sheet): a fit faster than its own card (a per-chunk ITL read as per-token, say)
//! is not carried into an impossible figure. Transferring to the measured configuration itself
//! is the identity, at every end of the range.
//!
//! | factor | low (fast) / central / high (slow) | source |
//! |---|---|---|
//! | bytes read per step | exact | [`crate::sizing::weights::decode_read_gb_per_token`], the model's shapes |
//! | KV bytes per token | exact | [`crate::sizing::kv_cache::kv_bytes_per_token_per_card`] (GQA, TP replication) |
//! | FLOPs per token | exact | 2 × active parameters ([`crate::sizing::prefill`]) |
//! | bandwidth and compute reached, launches, engine time, all-reduces, hand-offs | see [`super::step_model`] | measured on an H200 where marked, priors otherwise |
//! | host time, same engine and mode | × 0.9 / 1.0 / 1.1 | another host CPU and driver |
//!
//! The range of a transferred figure is the simulation at the fast and the slow ends, widened by
//! the measured twin's back-test error ([`TransferredTwin::error_pct`]). Every transferred
//! figure is Estimated ([`Basis::Estimated`]); the identity keeps the twin's own basis.
//!
//! # Without a load test: a prior per GPU family
//!
//! [`prior_twin`] transfers a documented reference engine instead of a fitted one: the fit of the
//! benchmark report's 4 × V100-SXM2-16GB, TP=4, eager, FP16, Qwen2.5-7B engine
//! ([`REFERENCE_STEP`]), whose physics is taken out and the candidate's put in, as above. Its
//! range is wider ([`PRIOR_ERROR_PCT`]): the reference is another pilot's engine.
//!
//! Not modelled (and therefore inside the stated range, not beside it): attention FLOPs growing
//! with the prompt, prefix caching, speculative decoding, MoE expert reads above a single stream
//! (the decode read counts top-k experts only: flagged for MoE models).

use super::backtest::Backtest;
use super::predict::{Basis, Prediction, Question, predict_with};
use super::statistics::Percentiles;
pub use super::step_model::{
    EngineGeneration, Execution, GpuFamily, RangeEnd, ServingSetup, TransferError,
};
use super::step_model::{
    StepFloor, StepPhysics, expert_share, host_prior_ms, launch_us_per_layer, step_physics,
};
use super::timing::{StepCost, TimingModel};
use super::{EngineLimits, LimitSource, PrefillScheduling, Twin};
use crate::ingest::MetricKey;
use crate::plan::Statistic;
use crate::sizing::{KvDtype, ModelSpec, WeightPrecision};
use serde::{Deserialize, Serialize};

/// How the host time of a step moves to the candidate (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
enum HostMove {
    /// The measured configuration itself.
    Identity,
    /// Same mode and engine: the residual carried, times another host's spread.
    Carried(f64),
    /// Another mode, same engine: the measured mode's launches (ms) taken out of the residual,
    /// the candidate's (ms) put in.
    Relaunched { measured_ms: f64, candidate_ms: f64 },
    /// Another engine: the candidate's prior host time, ms.
    Prior(f64),
}

impl HostMove {
    fn between(
        source: &TransferSource<'_>,
        target: &TransferTarget<'_>,
        end: RangeEnd,
    ) -> HostMove {
        let (from, to) = (source.setup, target.setup);
        if EngineGeneration::of(&from.gpu) != EngineGeneration::of(&to.gpu) {
            return HostMove::Prior(host_prior_ms(target.model, to, end));
        }
        if from.execution == to.execution {
            return HostMove::Carried(end.pick(0.9, 1.0, 1.1));
        }
        let launches = |model: &ModelSpec, setup: &ServingSetup| {
            f64::from(model.layers) * launch_us_per_layer(setup.execution, end) / 1e3
        };
        HostMove::Relaunched {
            measured_ms: launches(source.model, from),
            candidate_ms: launches(target.model, to),
        }
    }

    /// The candidate's host time of a step from the measured `residual`, ms.
    fn base_ms(self, residual: f64) -> f64 {
        match self {
            HostMove::Identity => residual,
            HostMove::Carried(spread) => residual * spread,
            HostMove::Relaunched {
                measured_ms,
                candidate_ms,
            } => (residual - measured_ms).max(0.0) + candidate_ms,
            HostMove::Prior(ms) => ms,
        }
    }

    /// The candidate's host time per decoding sequence from the measured `residual`, ms: the
    /// engine's sampling and bookkeeping, carried unless the engine changes (then V1's lighter
    /// per-sequence path keeps 40 % of it, within 15–90 %).
    fn per_sequence_ms(self, residual: f64, end: RangeEnd) -> f64 {
        match self {
            HostMove::Identity | HostMove::Relaunched { .. } => residual,
            HostMove::Carried(spread) => residual * spread,
            HostMove::Prior(_) => residual * end.pick(0.15, 0.40, 0.90),
        }
    }
}

/// A term of the step cost, as the transfer reports its factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepTerm {
    Base,
    PerSequence,
    PerContextToken,
    PerPrefillToken,
}

/// Candidate coefficient ÷ measured coefficient of one term, at each end of the range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TransferFactor {
    pub term: StepTerm,
    pub low: f64,
    pub central: f64,
    pub high: f64,
}

/// How a transferred twin was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TransferBasis {
    /// The candidate is the measured configuration: the fitted model itself.
    Identity,
    /// The fitted model, transferred by the physics of the work.
    Transferred,
    /// No load test: the reference engine's prior, transferred ([`prior_twin`]).
    Prior,
}

/// A timing model for a candidate at the fast, central and slow ends of its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TransferredTwin {
    pub basis: TransferBasis,
    /// The measured (or reference) configuration, in words.
    pub from: String,
    /// The candidate, in words.
    pub to: String,
    pub low: TimingModel,
    pub central: TimingModel,
    pub high: TimingModel,
    pub factors: Vec<TransferFactor>,
    /// The measured twin's back-test (empty for a prior).
    pub backtest: Backtest,
    /// Error added on both sides of the range, % (the back-test's median, or
    /// [`PRIOR_ERROR_PCT`] / [`UNTESTED_ERROR_PCT`]).
    pub error_pct: f64,
    /// Load levels the source model was fitted on (the candidate's models keep none: they are
    /// no measurement of the candidate).
    pub measured_points: usize,
    pub notes: Vec<String>,
    /// The candidate's physical floor (what no figure of it may go below).
    #[serde(default)]
    pub floor: Option<StepFloor>,
    /// The back-tested error of a transfer to another GPU ([`TransferCalibration`]): every
    /// range of an Estimated figure reaches at least as far. `None` for the identity (the
    /// measured configuration keeps its own back-test's ranges).
    #[serde(default)]
    pub calibration: Option<TransferCalibration>,
}

/// How far a transferred figure's range must reach on each side of its value to hold what the
/// back-test on public runs of two GPUs measured there in 80 % of cases
/// ([`super::validation`], `VALIDATION.md`). Percentages of the measured value, as the
/// back-test's errors are: a prediction `over_pct` above the truth is `value ÷ (1 + over)`
/// away from it, one `under_pct` below it `value ÷ (1 − under)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RangeCalibration {
    /// 80th percentile of (predicted − measured) ÷ measured over the transfers that predicted
    /// too high, %.
    pub over_pct: f64,
    /// 80th percentile of (measured − predicted) ÷ measured over the transfers that predicted
    /// too low, %.
    pub under_pct: f64,
}

/// Largest `under_pct` applied: a range reaching up to 1,000 × its value says nothing more.
const MOST_UNDER_PCT: f64 = 99.9;

impl RangeCalibration {
    /// Each side the larger of the two.
    pub fn wider(self, other: RangeCalibration) -> RangeCalibration {
        RangeCalibration {
            over_pct: self.over_pct.max(other.over_pct),
            under_pct: self.under_pct.max(other.under_pct),
        }
    }

    /// `r` reaching at least down to `value ÷ (1 + over)` and up to `value ÷ (1 − under)`,
    /// held at or above `floor` (the physics: no end may be faster than the card can be).
    pub fn widen(self, r: Ranged, floor: f64) -> Ranged {
        let over = self.over_pct.max(0.0) / 100.0;
        let under = self.under_pct.clamp(0.0, MOST_UNDER_PCT) / 100.0;
        let floor = if floor.is_finite() {
            floor.max(0.0)
        } else {
            0.0
        };
        Ranged {
            value: r.value.max(floor),
            low: r.low.min(r.value / (1.0 + over)).max(floor),
            high: r.high.max(r.value / (1.0 - under)).max(floor),
        }
    }
}

/// [`RangeCalibration`] of each back-tested figure; the others borrow (module docs of
/// [`super::validation`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TransferCalibration {
    pub ttft_p50: RangeCalibration,
    pub ttft_p99: RangeCalibration,
    pub tpot_p50: RangeCalibration,
    pub tpot_p99: RangeCalibration,
}

impl TransferCalibration {
    /// The calibration of `metric` at `statistic`: TTFT's and TPOT's own at p50 and p99; ITL
    /// borrows TPOT's, E2E the wider of TTFT's and TPOT's (it is one plus the other times the
    /// answer); p90 and p95 take the wider of p50's and p99's. `None` for other metrics and
    /// statistics.
    pub fn for_metric(&self, metric: MetricKey, statistic: Statistic) -> Option<RangeCalibration> {
        let (p50, p99) = match metric {
            MetricKey::TtftMs => (self.ttft_p50, self.ttft_p99),
            MetricKey::TpotMs | MetricKey::ItlMs => (self.tpot_p50, self.tpot_p99),
            MetricKey::E2eMs => (
                self.ttft_p50.wider(self.tpot_p50),
                self.ttft_p99.wider(self.tpot_p99),
            ),
            _ => return None,
        };
        match statistic {
            Statistic::P50 => Some(p50),
            Statistic::P99 => Some(p99),
            Statistic::P90 | Statistic::P95 => Some(p50.wider(p99)),
            Statistic::Mean | Statistic::Max | Statistic::Rate => None,
        }
    }
}

impl TransferredTwin {
    /// `r`, a range of `metric` at `statistic` for this twin, widened to the back-tested
    /// calibration where the twin has one ([`TransferredTwin::calibration`]) and held at or
    /// above `floor`; unchanged otherwise.
    pub fn calibrated(
        &self,
        metric: MetricKey,
        statistic: Statistic,
        r: Ranged,
        floor: f64,
    ) -> Ranged {
        match self
            .calibration
            .and_then(|c| c.for_metric(metric, statistic))
        {
            Some(c) => c.widen(r, floor),
            None => r,
        }
    }
}

/// Error stated for a prior twin, %: the reference is another pilot's engine.
pub const PRIOR_ERROR_PCT: f64 = 50.0;

/// Error stated for a fitted twin whose back-test could not run, %.
pub const UNTESTED_ERROR_PCT: f64 = 25.0;

/// The fitted step cost of the reference engine: the benchmark report's (seed) 4 ×
/// Tesla V100-SXM2-16GB, TP=4, `--enforce-eager`, FP16 Qwen2.5-7B-Instruct on vLLM 0.8.5, as the
/// twin fits the report's published percentiles (`loadtest::demo`; back-test median error 6 %).
pub const REFERENCE_STEP: StepCost = StepCost {
    base_ms: 26.9,
    per_sequence_ms: 0.150,
    per_context_token_us: 0.62,
    per_prefill_token_us: 62.4,
    expert_fill_ms: 0.0,
    expert_share: 0.0,
};

/// The reference engine's time outside the engine (client, network, tokenisation), ms.
pub const REFERENCE_REQUEST_OVERHEAD_MS: f64 = 16.8;

/// Context length at which KV reads are priced when none is given, tokens.
pub const DEFAULT_CONTEXT_TOKENS: u64 = 4096;

/// What a transfer starts from: a fitted model on the configuration and model it was fitted on.
#[derive(Clone, Copy, Debug)]
pub struct TransferSource<'a> {
    pub model: &'a ModelSpec,
    pub setup: &'a ServingSetup,
    pub timing: &'a TimingModel,
}

/// What a transfer goes to. `kv_cache_tokens`: the candidate copy's KV-cache capacity (from its
/// sizing), which admission and preemption follow; `None` keeps the measured figure.
#[derive(Clone, Copy, Debug)]
pub struct TransferTarget<'a> {
    pub model: &'a ModelSpec,
    pub setup: &'a ServingSetup,
    pub kv_cache_tokens: Option<u64>,
    pub context_tokens: u64,
}

/// The pilot's fitted twin transferred to `target` (module docs). `model` is the pilot's model,
/// `measured` the configuration its load tests ran on.
pub fn transfer(
    twin: &Twin,
    model: &ModelSpec,
    measured: &ServingSetup,
    target: &ServingSetup,
    kv_cache_tokens: Option<u64>,
    context_tokens: u64,
) -> Result<TransferredTwin, TransferError> {
    let source = TransferSource {
        model,
        setup: measured,
        timing: &twin.model,
    };
    let to = TransferTarget {
        model,
        setup: target,
        kv_cache_tokens,
        context_tokens,
    };
    let identity = measured.same_as(target);
    let mut out = transfer_between(&source, &to)?;
    out.basis = if identity {
        TransferBasis::Identity
    } else {
        TransferBasis::Transferred
    };
    out.backtest = twin.backtest.clone();
    out.error_pct = twin
        .backtest
        .median_abs_error_pct
        .unwrap_or(UNTESTED_ERROR_PCT);
    Ok(out)
}

/// A prior twin for `target` without any load test: the reference engine ([`REFERENCE_STEP`])
/// transferred to it (module docs). The engine limits are vLLM's defaults, marked assumed.
pub fn prior_twin(
    model: &ModelSpec,
    target: &ServingSetup,
    kv_cache_tokens: Option<u64>,
    context_tokens: u64,
) -> Result<TransferredTwin, TransferError> {
    let reference_model = crate::sizing::model_by_id("qwen2.5-7b")
        .ok_or_else(|| TransferError::Split("the reference model is not in the catalog".into()))?;
    let reference_gpu = crate::sizing::gpu_by_id("v100-sxm2-16gb")
        .ok_or_else(|| TransferError::Split("the reference GPU is not in the catalog".into()))?;
    let reference_setup = ServingSetup {
        gpu: reference_gpu,
        tp: 4,
        pp: 1,
        weights: WeightPrecision::Fp16,
        kv_dtype: KvDtype::Bits16,
        execution: Execution::Eager,
    };
    let reference = TimingModel::new(
        REFERENCE_STEP,
        REFERENCE_REQUEST_OVERHEAD_MS,
        EngineLimits {
            max_running: 256,
            max_running_source: LimitSource::Assumed,
            kv_cache_tokens: None,
            max_batched_tokens: 8192,
            max_batched_tokens_source: LimitSource::Assumed,
            prefill: PrefillScheduling::Chunked,
            prefill_source: LimitSource::Assumed,
        },
    );
    let source = TransferSource {
        model: &reference_model,
        setup: &reference_setup,
        timing: &reference,
    };
    let to = TransferTarget {
        model,
        setup: target,
        kv_cache_tokens,
        context_tokens,
    };
    let mut out = transfer_between(&source, &to)?;
    out.basis = TransferBasis::Prior;
    out.backtest = Backtest::not_run("no load test: a prior from the reference engine");
    out.error_pct = PRIOR_ERROR_PCT;
    out.notes.push(format!(
        "No load test of this pilot: the step cost is the reference engine's ({}) transferred by \
         the physics of the work, with a ±{PRIOR_ERROR_PCT:.0} % range on top of the priors.",
        reference_setup.label()
    ));
    Ok(out)
}

/// The general transfer: any fitted model on any model and configuration to another.
pub fn transfer_between(
    source: &TransferSource<'_>,
    target: &TransferTarget<'_>,
) -> Result<TransferredTwin, TransferError> {
    let context = if target.context_tokens > 0 {
        target.context_tokens
    } else {
        DEFAULT_CONTEXT_TOKENS
    };
    let identity = source.setup.same_as(target.setup) && source.model.id == target.model.id;
    let floor = StepFloor::of(target.model, target.setup)?;
    let mut models = Vec::with_capacity(3);
    let mut steps = Vec::with_capacity(3);
    for end in RangeEnd::ALL {
        let from = step_physics(source.model, source.setup, context, end)?;
        let to = step_physics(target.model, target.setup, context, end)?;
        let host = if identity {
            HostMove::Identity
        } else {
            HostMove::between(source, target, end)
        };
        let target_share = expert_share(target.model).unwrap_or(0.0);
        let step = floor.hold(transferred_step(
            &source.timing.step,
            &from,
            &to,
            host,
            end,
            target_share,
        ));
        steps.push(step);
        let mut model = transferred_model(source.timing, step, target.kv_cache_tokens);
        if !identity {
            // The measured points are no measurement of the candidate.
            model.measured.clear();
        }
        models.push(model);
    }
    let factor = |term: StepTerm, pick: fn(&StepCost) -> f64| {
        let measured = pick(&source.timing.step);
        let ratio = |s: &StepCost| {
            if measured > 0.0 {
                pick(s) / measured
            } else {
                1.0
            }
        };
        TransferFactor {
            term,
            low: ratio(&steps[0]),
            central: ratio(&steps[1]),
            high: ratio(&steps[2]),
        }
    };
    let factors = vec![
        factor(StepTerm::Base, |s| s.base_ms),
        factor(StepTerm::PerSequence, |s| s.per_sequence_ms),
        factor(StepTerm::PerContextToken, |s| s.per_context_token_us),
        factor(StepTerm::PerPrefillToken, |s| s.per_prefill_token_us),
    ];
    let mut notes = Vec::new();
    if target.model.is_moe() && steps[1].expert_share > 0.0 {
        notes.push(
            "MoE model: the routed experts a batch reads beyond one token's are priced for this \
             configuration and saturate once every expert is read."
                .to_string(),
        );
    } else if target.model.is_moe() {
        notes.push(
            "MoE model: the decode read counts the routed experts at top-k, which holds for a \
             single stream; a batch touches more experts, so the slow end is optimistic."
                .to_string(),
        );
    }
    let source_floor = StepFloor::of(source.model, source.setup)?;
    if source.timing.step.base_ms < source_floor.weights_ms {
        notes.push(format!(
            "The measured step ({:.2} ms) is shorter than {} needs to read the weights once at \
             its published bandwidth ({:.2} ms): the load test's times are not per token (a \
             per-chunk ITL, say) or not of this card. The candidate is held at its own floor.",
            source.timing.step.base_ms,
            source.setup.label(),
            source_floor.weights_ms
        ));
    }
    let [low, central, high]: [TimingModel; 3] =
        models.try_into().expect("one model per end of the range");
    Ok(TransferredTwin {
        basis: TransferBasis::Transferred,
        from: source.setup.label(),
        to: target.setup.label(),
        low,
        central,
        high,
        factors,
        backtest: Backtest::not_run("transferred"),
        error_pct: UNTESTED_ERROR_PCT,
        measured_points: source.timing.measured.len(),
        notes,
        floor: Some(floor),
        calibration: None,
    })
}

/// Measured physics part and residual of a fitted coefficient: the physics is scaled down
/// when it alone exceeds the fitted value (the priors were pessimistic for this engine), so the
/// residual is never negative and the measured configuration maps onto itself.
fn split(fitted: f64, physics: f64) -> (f64, f64) {
    if physics <= 0.0 || fitted <= 0.0 {
        return (0.0, fitted.max(0.0));
    }
    let scale = (fitted / physics).min(1.0);
    (scale, fitted - physics * scale)
}

/// The candidate's step from the `fitted` one. `target_share`: the share of the routed experts
/// one token of the candidate's model reads (0 for dense models); the expert read moves with
/// the bytes and bandwidth like the KV read, and only where the fit had the term.
fn transferred_step(
    fitted: &StepCost,
    from: &StepPhysics,
    to: &StepPhysics,
    host: HostMove,
    end: RangeEnd,
    target_share: f64,
) -> StepCost {
    let (scale, residual) = split(fitted.base_ms, from.weights_ms + from.communication_ms);
    let base_ms = scale * (to.weights_ms + to.communication_ms) + host.base_ms(residual);
    let (seq_scale, seq_residual) = split(fitted.per_sequence_ms, from.compute_per_sequence_ms);
    let per_sequence_ms =
        seq_scale * to.compute_per_sequence_ms + host.per_sequence_ms(seq_residual, end);
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 1.0 };
    let expert_term = fitted.expert_share > 0.0 && target_share > 0.0;
    StepCost {
        base_ms,
        per_sequence_ms,
        per_context_token_us: fitted.per_context_token_us
            * ratio(to.kv_per_context_token_us, from.kv_per_context_token_us),
        per_prefill_token_us: fitted.per_prefill_token_us
            * ratio(to.prefill_per_token_us, from.prefill_per_token_us),
        expert_fill_ms: if expert_term {
            fitted.expert_fill_ms * ratio(to.expert_fill_ms, from.expert_fill_ms)
        } else {
            0.0
        },
        expert_share: if expert_term { target_share } else { 0.0 },
    }
}

fn transferred_model(
    source: &TimingModel,
    step: StepCost,
    kv_cache_tokens: Option<u64>,
) -> TimingModel {
    let mut limits = source.limits.clone();
    if kv_cache_tokens.is_some() {
        limits.kv_cache_tokens = kv_cache_tokens;
    }
    TimingModel {
        step,
        limits,
        notes: Vec::new(),
        fit_error_pct: None,
        ..source.clone()
    }
}

/// A figure with its range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Ranged {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Ranged {
    /// `value` between the smallest and largest of `ends`, widened by `error_pct` each way.
    pub fn spanning(value: f64, ends: &[f64], error_pct: f64) -> Ranged {
        let e = (error_pct / 100.0).max(0.0);
        let lo = ends.iter().copied().fold(value, f64::min);
        let hi = ends.iter().copied().fold(value, f64::max);
        Ranged {
            value,
            low: (lo * (1.0 - e)).max(0.0),
            high: hi * (1.0 + e),
        }
    }

    /// [`Ranged::spanning`] held at or above `floor` (a physical floor: no end of the range
    /// may be faster than the card can be).
    pub fn spanning_floored(value: f64, ends: &[f64], error_pct: f64, floor: f64) -> Ranged {
        let r = Ranged::spanning(value, ends, error_pct);
        let floor = if floor.is_finite() {
            floor.max(0.0)
        } else {
            0.0
        };
        Ranged {
            value: r.value.max(floor),
            low: r.low.max(floor),
            high: r.high.max(floor),
        }
    }

    /// True when `admits` accepts one end of the range and not the other.
    pub fn crosses(&self, admits: impl Fn(f64) -> bool) -> bool {
        admits(self.low) != admits(self.high)
    }
}

/// p50, p90, p95 and p99, each with its range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RangedPercentiles {
    pub p50: Ranged,
    pub p90: Ranged,
    pub p95: Ranged,
    pub p99: Ranged,
}

impl RangedPercentiles {
    /// The central percentiles with the range spanned by the others, widened by `error_pct`.
    pub fn spanning(central: &Percentiles, ends: &[Percentiles], error_pct: f64) -> Self {
        Self::spanning_floored(central, ends, error_pct, 0.0)
    }

    /// [`RangedPercentiles::spanning`] held at or above a physical `floor`.
    pub fn spanning_floored(
        central: &Percentiles,
        ends: &[Percentiles],
        error_pct: f64,
        floor: f64,
    ) -> Self {
        let at = |pick: fn(&Percentiles) -> f64| {
            let values: Vec<f64> = ends.iter().map(pick).collect();
            Ranged::spanning_floored(pick(central), &values, error_pct, floor)
        };
        RangedPercentiles {
            p50: at(|p| p.p50),
            p90: at(|p| p.p90),
            p95: at(|p| p.p95),
            p99: at(|p| p.p99),
        }
    }

    /// Every percentile of `metric` widened by `twin`'s calibration and held at `floor`
    /// ([`TransferredTwin::calibrated`]).
    pub fn calibrated(self, twin: &TransferredTwin, metric: MetricKey, floor: f64) -> Self {
        let at = |statistic: Statistic, r: Ranged| twin.calibrated(metric, statistic, r, floor);
        RangedPercentiles {
            p50: at(Statistic::P50, self.p50),
            p90: at(Statistic::P90, self.p90),
            p95: at(Statistic::P95, self.p95),
            p99: at(Statistic::P99, self.p99),
        }
    }

    /// The range at percentile `statistic`; `None` for mean, max and rate.
    pub fn get(&self, statistic: Statistic) -> Option<Ranged> {
        match statistic {
            Statistic::P50 => Some(self.p50),
            Statistic::P90 => Some(self.p90),
            Statistic::P95 => Some(self.p95),
            Statistic::P99 => Some(self.p99),
            Statistic::Mean | Statistic::Max | Statistic::Rate => None,
        }
    }
}

/// What `server predict` answers for another configuration: every percentile with its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TransferredPrediction {
    pub configuration: String,
    pub from: String,
    pub transfer: TransferBasis,
    pub basis: Basis,
    pub ttft_ms: RangedPercentiles,
    pub tpot_ms: RangedPercentiles,
    pub itl_ms: RangedPercentiles,
    pub e2e_ms: RangedPercentiles,
    /// Per-stream output speed at p50 (1000 ÷ TPOT p50), tok/s.
    pub tokens_per_s_per_stream: Ranged,
    pub saturation_rate_per_s: Ranged,
    pub request_throughput_per_s: f64,
    pub output_tokens_per_s: f64,
    pub mean_in_flight: f64,
    pub factors: Vec<TransferFactor>,
    pub error_pct: f64,
    pub warnings: Vec<String>,
    /// The physical floors the ranges were held at, ms (TTFT of the shortest prompt, TPOT),
    /// for the back-test's calibration; not part of the answer.
    #[serde(skip)]
    pub floor_ms: FigureFloors,
}

/// The physical floors of a prediction's figures, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FigureFloors {
    pub ttft_ms: f64,
    pub tpot_ms: f64,
}

/// The start of the prediction's warning about a single load level, which a transferred model
/// (whose measured points are dropped) would raise although its source had several.
const ONE_LOAD_LEVEL: &str = "only one load level was measured";

/// The fewest prompt tokens a request of `shape` can have (one when only a distribution is
/// known: then only the first token's own prefill is certain).
fn shortest_prompt(shape: &super::workload::LengthSummary) -> f64 {
    match shape {
        super::workload::LengthSummary::Fixed { tokens } => f64::from(*tokens),
        _ => 1.0,
    }
}

/// Predicts `question` on a transferred twin: the central model's percentiles with the range
/// of the fast and slow ends, widened by the stated error. Basis Estimated unless the twin is
/// the identity (then the measured twin's own basis).
pub fn predict_transferred(twin: &TransferredTwin, question: &Question) -> TransferredPrediction {
    let central = predict_with(&twin.central, &twin.backtest, question);
    let ends: Vec<Prediction> = [&twin.low, &twin.high]
        .iter()
        .map(|m| predict_with(m, &twin.backtest, question))
        .collect();
    let e = twin.error_pct;
    // Physical floors of the candidate: no time per output token below one read of its weights
    // at the published bandwidth, no first token before its shortest prompt's prefill at the
    // dense peak (module docs of `step_model`).
    let (tpot_floor, ttft_floor) = match &twin.floor {
        Some(floor) => (
            floor.tpot_ms(),
            floor.ttft_ms(shortest_prompt(&central.prompt_shape)),
        ),
        None => (0.0, 0.0),
    };
    // The priors' spread widened by the twin's own back-test, then at least the interval that
    // held 80 % of the back-tested transfers to another GPU (identity: no calibration).
    let span = |pick: fn(&Prediction) -> Percentiles, floor: f64, metric: MetricKey| {
        let others: Vec<Percentiles> = ends.iter().map(pick).collect();
        RangedPercentiles::spanning_floored(&pick(&central), &others, e, floor)
            .calibrated(twin, metric, floor)
    };
    let tpot = span(|p| p.tpot_ms, tpot_floor, MetricKey::TpotMs);
    let speed = |ms: f64| if ms > 0.0 { 1000.0 / ms } else { 0.0 };
    let mut warnings: Vec<String> = central
        .warnings
        .iter()
        .filter(|w| twin.measured_points < 2 || !w.starts_with(ONE_LOAD_LEVEL))
        .cloned()
        .collect();
    if twin.basis != TransferBasis::Identity {
        let calibrated = if twin.calibration.is_some() {
            ", and at least the interval that held 80 % of the back-tested transfers to another \
             GPU on each side (engine/src/twin/VALIDATION.md)"
        } else {
            ""
        };
        warnings.push(format!(
            "Estimated: transferred from {} by the physics of the work (bytes per step ÷ \
             bandwidth, FLOPs ÷ compute, communication, execution mode); range ±{:.0} % beyond \
             the priors' spread{calibrated}.",
            twin.from, twin.error_pct
        ));
    }
    warnings.extend(twin.notes.iter().cloned());
    let basis = match twin.basis {
        TransferBasis::Identity => central.basis,
        _ => Basis::Estimated,
    };
    TransferredPrediction {
        configuration: twin.to.clone(),
        from: twin.from.clone(),
        transfer: twin.basis,
        basis,
        ttft_ms: span(|p| p.ttft_ms, ttft_floor, MetricKey::TtftMs),
        itl_ms: span(|p| p.itl_ms, tpot_floor, MetricKey::ItlMs),
        e2e_ms: span(|p| p.e2e_ms, ttft_floor, MetricKey::E2eMs),
        tokens_per_s_per_stream: Ranged {
            value: speed(tpot.p50.value),
            low: speed(tpot.p50.high),
            high: speed(tpot.p50.low),
        },
        tpot_ms: tpot,
        saturation_rate_per_s: {
            let values: Vec<f64> = ends.iter().map(|p| p.saturation_rate_per_s).collect();
            Ranged::spanning(central.saturation_rate_per_s, &values, e)
        },
        request_throughput_per_s: central.request_throughput_per_s,
        output_tokens_per_s: central.output_tokens_per_s,
        mean_in_flight: central.mean_in_flight,
        factors: twin.factors.clone(),
        error_pct: e,
        warnings,
        floor_ms: FigureFloors {
            ttft_ms: ttft_floor,
            tpot_ms: tpot_floor,
        },
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sizing::{gpu_by_id, model_by_id};
    use crate::twin::ServingLimits;

    /// The demo pilot's twin (4 × V100, eager), shared by the twin's tests.
    pub(crate) fn demo_twin() -> Twin {
        let demo = crate::ingest::import(
            crate::loadtest::demo::FILE_NAME,
            crate::loadtest::demo::v100_report_jsonl().as_bytes(),
        )
        .unwrap();
        Twin::build(&demo.points, &demo.requests, &ServingLimits::default()).unwrap()
    }

    /// One copy of `tp` cards of catalog GPU `gpu`, 16-bit KV cache, no pipeline.
    pub(crate) fn setup(
        gpu: &str,
        tp: u32,
        weights: WeightPrecision,
        execution: Execution,
    ) -> ServingSetup {
        ServingSetup {
            gpu: gpu_by_id(gpu).unwrap(),
            tp,
            pp: 1,
            weights,
            kv_dtype: KvDtype::Bits16,
            execution,
        }
    }

    fn pilot() -> ServingSetup {
        setup("v100-sxm2-16gb", 4, WeightPrecision::Fp16, Execution::Eager)
    }

    fn qwen() -> ModelSpec {
        model_by_id("qwen2.5-7b").unwrap()
    }

    #[test]
    fn the_v100_reference_physics_explains_most_of_the_fitted_prefill_cost() {
        // 2 × 7.6e9 FLOPs ÷ (4 × 125 TFLOPS × 0.57) = 53 µs per prompt token; the V100 engine's
        // fit is 62.4 (Volta's tensor cores reach less of their peak than Hopper's 0.57).
        let physics = step_physics(&qwen(), &pilot(), 4096, RangeEnd::Central).unwrap();
        assert!(
            (physics.prefill_per_token_us - 53.3).abs() < 2.0,
            "{physics:?}"
        );
        assert!(physics.prefill_per_token_us < REFERENCE_STEP.per_prefill_token_us);
        // 14.1 GB read (the input embeddings are not) ÷ (4 × 900 GB/s × 0.87) = 4.5 ms of the
        // fitted 26.9 ms step.
        assert!((physics.weights_ms - 4.5).abs() < 0.1, "{physics:?}");
    }

    #[test]
    fn transfer_to_the_measured_configuration_is_the_identity() {
        let twin = demo_twin();
        let same = transfer(&twin, &qwen(), &pilot(), &pilot(), None, 4096).unwrap();
        assert_eq!(same.basis, TransferBasis::Identity);
        for model in [&same.low, &same.central, &same.high] {
            let (a, b) = (model.step, twin.model.step);
            for (x, y) in [
                (a.base_ms, b.base_ms),
                (a.per_sequence_ms, b.per_sequence_ms),
                (a.per_context_token_us, b.per_context_token_us),
                (a.per_prefill_token_us, b.per_prefill_token_us),
            ] {
                assert!((x - y).abs() < 1e-9 * y.abs().max(1.0), "{x} vs {y}");
            }
        }
        let question = Question::rate(0.5);
        let direct = twin.predict(&question);
        let via = predict_transferred(&same, &question);
        assert_eq!(via.tpot_ms.p99.value, direct.tpot_ms.p99);
        assert_eq!(via.basis, direct.basis);
    }

    #[test]
    fn one_h100_sxm_streams_a_7b_model_faster_than_the_pilots_four_v100s() {
        let twin = demo_twin();
        let question = Question::concurrency(1);
        let pilot_speed = 1000.0 / twin.predict(&question).tpot_ms.p50;
        // The bandwidth of one H100 (3,350 GB/s) is about that of four V100s (3,600 GB/s); what
        // one card saves is the TP=4 engine's all-reduces and, on Hopper, vLLM's V1 engine
        // (Volta runs V0); CUDA graphs add a little.
        for (execution, at_least) in [(Execution::CudaGraphs, 1.5), (Execution::Eager, 1.0)] {
            let h100 = setup("h100-sxm", 1, WeightPrecision::Bf16, execution);
            let moved = transfer(&twin, &qwen(), &pilot(), &h100, None, 4096).unwrap();
            let p = predict_transferred(&moved, &question);
            assert_eq!(p.basis, Basis::Estimated);
            assert!(
                p.tokens_per_s_per_stream.value > at_least * pilot_speed,
                "{execution:?}: H100 {:?} vs V100×4 {pilot_speed}",
                p.tokens_per_s_per_stream
            );
            eprintln!(
                "{execution:?}: H100 {:?} tok/s vs V100×4 {pilot_speed:.1}",
                p.tokens_per_s_per_stream
            );
            assert!(p.tokens_per_s_per_stream.low <= p.tokens_per_s_per_stream.value);
            assert!(p.tokens_per_s_per_stream.high >= p.tokens_per_s_per_stream.value);
        }
    }

    #[test]
    fn cuda_graphs_on_the_pilots_own_v100s_gain_what_the_report_expects() {
        // Same card, same V0 engine: graphs save "single-digit to low-double-digit" percent.
        let twin = demo_twin();
        let graphs = setup(
            "v100-sxm2-16gb",
            4,
            WeightPrecision::Fp16,
            Execution::CudaGraphs,
        );
        let moved = transfer(&twin, &qwen(), &pilot(), &graphs, None, 4096).unwrap();
        assert_eq!(moved.basis, TransferBasis::Transferred);
        let base = moved
            .factors
            .iter()
            .find(|f| f.term == StepTerm::Base)
            .unwrap();
        assert!((0.85..0.95).contains(&base.central), "{base:?}");
        assert_eq!(EngineGeneration::of(&graphs.gpu), EngineGeneration::V0);
        assert_eq!(
            EngineGeneration::of(&gpu_by_id("h100-sxm").unwrap()),
            EngineGeneration::V1
        );
    }

    #[test]
    fn cuda_graphs_and_a_faster_card_shorten_the_fixed_step_but_not_the_host_overhead_outside() {
        let twin = demo_twin();
        let h100 = setup("h100-sxm", 1, WeightPrecision::Bf16, Execution::CudaGraphs);
        let moved = transfer(&twin, &qwen(), &pilot(), &h100, None, 4096).unwrap();
        let base = moved
            .factors
            .iter()
            .find(|f| f.term == StepTerm::Base)
            .unwrap();
        assert!(
            base.low < base.central && base.central < base.high,
            "{base:?}"
        );
        assert!(base.central < 0.6, "{base:?}");
        assert_eq!(
            moved.central.request_overhead_ms,
            twin.model.request_overhead_ms
        );
        // Prefill: 4 × 125 TFLOPS FP16 → 989 BF16 on one card: about half the time per token.
        let prefill = moved
            .factors
            .iter()
            .find(|f| f.term == StepTerm::PerPrefillToken)
            .unwrap();
        assert!(
            (prefill.central - 500.0 / 989.0).abs() < 0.01,
            "{prefill:?}"
        );
    }

    #[test]
    fn a_format_the_card_cannot_run_is_refused_not_guessed() {
        let twin = demo_twin();
        let v100_fp8 = setup("v100-sxm2-16gb", 4, WeightPrecision::Fp8, Execution::Eager);
        let err = transfer(&twin, &qwen(), &pilot(), &v100_fp8, None, 4096).unwrap_err();
        assert!(
            matches!(err, TransferError::FormatUnsupported { .. }),
            "{err}"
        );
    }

    #[test]
    fn a_prior_without_load_test_has_the_wider_stated_range() {
        let h100 = setup("h100-sxm", 1, WeightPrecision::Bf16, Execution::CudaGraphs);
        let prior = prior_twin(&qwen(), &h100, Some(500_000), 4096).unwrap();
        assert_eq!(prior.basis, TransferBasis::Prior);
        assert_eq!(prior.error_pct, PRIOR_ERROR_PCT);
        assert_eq!(prior.central.limits.kv_cache_tokens, Some(500_000));
        let p = predict_transferred(&prior, &Question::concurrency(1));
        assert!(
            p.tpot_ms.p50.high > 1.5 * p.tpot_ms.p50.value,
            "{:?}",
            p.tpot_ms.p50
        );
        assert_eq!(GpuFamily::of(&h100.gpu), GpuFamily::NvidiaHbm);
        assert_eq!(
            GpuFamily::of(&gpu_by_id("mi300x").unwrap()),
            GpuFamily::AmdInstinct
        );
        assert_eq!(
            GpuFamily::of(&gpu_by_id("l40s").unwrap()),
            GpuFamily::NvidiaGddr
        );
    }
}
