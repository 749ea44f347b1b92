//! The capacity plan: one model of production, evaluated the same way for every candidate,
//! one ranking and one answer, with its uncertainty (issue #19).
//!
//! # Why one model
//!
//! The recommendation used to be three stories: a verdict on the pilot, a sizing that stacked
//! worst cases into a session count and carried the pilot's efficiency ratio to every card, and
//! a twin that only spoke for the pilot's own hardware. They disagreed (four V100s on one page,
//! one H100 on another). Here every candidate goes through the same three steps:
//!
//! 1. **Demand** is an arrival process ([`super::demand_process`]): the pilot's busiest hour
//!    superposed to the production rate (Poisson without a log), with its own lengths.
//! 2. **Timing** is the pilot's fitted twin transferred to the candidate by the physics of the
//!    work ([`crate::twin::transfer`](mod@crate::twin::transfer)); without a load test, the documented prior.
//! 3. **Simulation** of one copy under its share of the arrivals ([`forecast`]), all copies up
//!    and **one copy down** (N+1), against every latency mark of the plan and against memory
//!    (the whole sessions a copy holds must cover the p99 of what is in flight on it).
//!
//! A mark the plan measures at the gateway gets the gateway's own time added to TTFT and E2E
//! ([`gateway_budget`]: 100 ms, 73–134 ms, from the benchmark report), since the twin
//! is fitted on load tests sent straight to the engine.
//!
//! A candidate is recommended only if it holds every mark with one copy down, so a single copy
//! never is. Cards sold only as boards (SXM, OAM) are offered in their board sizes, the spare
//! cards serving as further copies ([`crate::sizing::form_factor`](mod@crate::sizing::form_factor)).
//!
//! # One ranking, the same in every edition
//!
//! Among the candidates that hold with one copy down: lowest monthly cost when the catalog
//! prices the cards (priced GPUs before unpriced ones, with a warning), otherwise fewest cards,
//! then lowest board power, then least headroom above the need. The plan is always computed
//! with every price the catalog holds, whoever asks; the money is taken out afterwards for
//! callers who may not see it. So the customer's and the internal edition, the pilot page, the
//! API and the CLI name the same configuration; the internal edition only adds the money.
//!
//! # Uncertainty
//!
//! Every transferred figure carries the range of the transfer's fast and slow priors, widened by
//! the twin's back-test error ([`crate::twin::Ranged`]). The recommended configuration also gets
//! the cards the fast and slow ends would need, and what half and twice the growth factor would
//! need ([`Sensitivity`]). A mark whose range crosses its limit is named, with the load test that
//! settles it ([`NextStep::LoadTest`]).
//!
//! Pure and deterministic (seeded); the same input gives the same plan.

mod alternatives;
mod availability;
mod candidate;
pub mod forecast;
pub mod start_command;
mod story;

#[cfg(test)]
mod tests;

use super::demand_process::{ArrivalBasis, DemandProcess, ServiceTimes, SessionsInFlight};
use super::operating_cost::{GpuHourPrice, OperatingCost};
use super::twin_check::PilotTwin;
use crate::ingest::MetricKey;
use crate::loadtest::LatencyTarget;
use crate::locale::Lang;
use crate::plan::Statistic;
use crate::sizing::{GpuAvailability, GpuSpec, KvDtype, MemoryModel, ModelSpec, WeightPrecision};
use crate::twin::transfer::{Execution, ServingSetup, TransferBasis};
use crate::twin::validation::ValidationSummary;
use crate::twin::{Basis, Ranged, Twin};
use crate::verdict::{PlanOutcome, Tally};
use serde::{Deserialize, Serialize};

pub use candidate::{GATEWAY_BUDGET_MS, gateway_budget};
pub use story::{LoadTestCommand, NextStep, PRODUCTION_URL, nothing_holds_in};

/// Requests one copy is simulated with unless asked otherwise.
pub const DEFAULT_SIMULATED_REQUESTS: usize = 1500;

/// The pilot's fitted twin and the configuration it was fitted on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredTwin {
    pub twin: Twin,
    pub setup: ServingSetup,
}

impl MeasuredTwin {
    /// The pilot's twin ([`PilotTwin`]) on `gpu` (its catalog card), with the KV-cache dtype and
    /// the CUDA-graph setting of the run context (`Some(false)` with `--enforce-eager`).
    pub fn from_pilot(
        pilot: &PilotTwin,
        gpu: GpuSpec,
        kv_dtype: KvDtype,
        cuda_graphs: Option<bool>,
    ) -> MeasuredTwin {
        let c = &pilot.configuration;
        MeasuredTwin {
            twin: pilot.twin.clone(),
            setup: ServingSetup {
                gpu,
                tp: c.tp.max(1),
                pp: c.pp.max(1),
                weights: c.precision,
                kv_dtype,
                execution: Execution::from_cuda_graphs(cuda_graphs),
            },
        }
    }
}

/// The pilot's verdict, for the story.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotVerdict {
    pub outcome: PlanOutcome,
    pub tally: Tally,
}

/// Everything the capacity plan needs. Role-independent: the same input for every edition,
/// except `prices`, which only adds money.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityPlanInput {
    pub model: ModelSpec,
    /// Production arrivals: the busiest hour grown, or Poisson.
    pub demand: DemandProcess,
    /// How long the pilot's requests stayed in flight (the demand's sessions, before any
    /// candidate): [`ServiceTimes::AsLogged`] with a log.
    pub pilot_service: ServiceTimes,
    /// Context one whole session holds, tokens (also vLLM's `--max-model-len`).
    pub context_tokens_per_session: u32,
    /// The pilot's twin; `None`: every candidate rests on the prior.
    #[serde(default)]
    pub twin: Option<MeasuredTwin>,
    /// The plan's latency marks ([`crate::loadtest::latency_targets`]); empty: memory only.
    #[serde(default)]
    pub marks: Vec<LatencyTarget>,
    /// Weight precision and KV-cache dtype pairs that passed the evaluation.
    pub formats: Vec<(WeightPrecision, KvDtype)>,
    pub gpus: Vec<GpuSpec>,
    /// Most cards one configuration may use.
    pub max_cards: u32,
    /// How production runs the engine (CUDA graphs unless said otherwise).
    #[serde(default = "cuda_graphs")]
    pub execution: Execution,
    #[serde(default = "planning")]
    pub memory_model: MemoryModel,
    /// Prices per GPU-hour: each candidate's cost, and the first key of the ranking.
    #[serde(default)]
    pub prices: Vec<GpuHourPrice>,
    #[serde(default)]
    pub verdict: Option<PilotVerdict>,
    #[serde(default = "default_requests")]
    pub simulated_requests: usize,
    /// The model name the engine serves (`--served-model-name`, the pilot's model), for the
    /// next load test's commands; `None`: the catalog id.
    #[serde(default)]
    pub served_model: Option<String>,
    /// The file name the pilot's Mooncake trace downloads as, for the same commands.
    #[serde(default)]
    pub trace_file: Option<String>,
    #[serde(default)]
    pub seed: u64,
    /// Production's requests pass through an API gateway (the pilot's do: it has a gateway
    /// log): a client TTFT or E2E mark then carries the gateway's own time as a gateway mark
    /// does ([`candidate::gateway_budget`]). `false`: straight to the engine.
    #[serde(default)]
    pub through_gateway: bool,
    /// Weigh cards that can no longer be ordered (end of sale, end of life) too; by default
    /// only current cards are candidates and the others are named in [`CapacityPlan::left_out`]
    /// ([`crate::sizing::availability`]).
    #[serde(default)]
    pub include_unorderable: bool,
}

fn cuda_graphs() -> Execution {
    Execution::CudaGraphs
}

fn planning() -> MemoryModel {
    MemoryModel::Planning
}

fn default_requests() -> usize {
    DEFAULT_SIMULATED_REQUESTS
}

/// A configuration one can order and start: the same value in every edition.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = CapacityConfiguration))]
pub struct Configuration {
    pub gpu_id: String,
    pub gpu_name: String,
    /// Cards to buy (whole boards for SXM/OAM).
    pub cards: u32,
    pub tp: u32,
    pub pp: u32,
    /// Independent copies behind a load balancer: cards ÷ (tp × pp).
    pub copies: u32,
    pub weights: WeightPrecision,
    pub kv_dtype: KvDtype,
    pub execution: Execution,
    /// `8 × NVIDIA H100 SXM 80GB: 8 copies of 1 card, BF16 weights, 16-bit KV cache`.
    pub label: String,
}

impl Configuration {
    fn new(setup: &ServingSetup, copies: u32) -> Self {
        let per_copy = setup.tp.max(1) * setup.pp.max(1);
        let mut configuration = Configuration {
            gpu_id: setup.gpu.id.clone(),
            gpu_name: setup.gpu.name.clone(),
            cards: per_copy * copies,
            tp: setup.tp.max(1),
            pp: setup.pp.max(1),
            copies,
            weights: setup.weights,
            kv_dtype: setup.kv_dtype,
            execution: setup.execution,
            label: String::new(),
        };
        configuration.label = configuration.label_in(Lang::En);
        configuration
    }

    /// The label in `lang`: `8 × NVIDIA H100 SXM 80GB: 8 copies of 1 card, BF16 weights, 16-bit
    /// KV cache` / `8 × NVIDIA H100 SXM 80GB: 8 Kopien zu 1 Karte, Gewichte BF16, KV-Cache
    /// 16-Bit`.
    pub fn label_in(&self, lang: Lang) -> String {
        let split = match (self.tp, self.pp) {
            (1, 1) => lang.pick("1 card", "1 Karte").to_string(),
            (tp, 1) => format!("TP={tp}"),
            (1, pp) => format!("PP={pp}"),
            (tp, pp) => format!("TP={tp} × PP={pp}"),
        };
        let (weights, kv) = (self.weights.label(), self.kv_dtype.label());
        match lang {
            Lang::En => format!(
                "{} × {}: {} {} of {split}, {weights} weights, {kv} KV cache",
                self.cards,
                self.gpu_name,
                self.copies,
                if self.copies == 1 { "copy" } else { "copies" },
            ),
            Lang::De => format!(
                "{} × {}: {} {} zu {split}, Gewichte {weights}, KV-Cache {}",
                self.cards,
                self.gpu_name,
                self.copies,
                if self.copies == 1 { "Kopie" } else { "Kopien" },
                kv.replace("-bit", "-Bit"),
            ),
        }
    }
}

/// The production demand of the plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DemandForecast {
    /// Production arrival rate, req/s.
    pub rate: f64,
    pub pilot_rate: f64,
    pub growth: f64,
    pub arrivals: ArrivalBasis,
    /// What the process puts in flight with the pilot's request times.
    pub sessions: SessionsInFlight,
    pub context_tokens_per_session: u32,
    pub prompt_tokens_mean: f64,
    pub output_tokens_mean: f64,
}

/// Where a candidate stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "kind", content = "reason")]
pub enum CandidateStatus {
    /// Simulated under the production load.
    Evaluated,
    /// Not one whole session fits next to the weights.
    MemoryShort(String),
    /// The evidence cannot speak for it (no kernel, an emulated format, no compute figure).
    NoEvidence(String),
    /// Not sold for servers (GeForce, a desktop system).
    NotForProduction(String),
    /// More cards than the plan allows would be needed.
    BeyondCardLimit(String),
}

/// One mark against a candidate's prediction. `p50`, `p99`, `low`, `high` are with **one copy
/// down** (the state a recommendation must hold in): the metric's p50 and p99, and the range of
/// the mark's own statistic. `all_copies_up` is the same statistic with every copy running.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MarkForecast {
    /// `TTFT p99 ≤ 450 ms`.
    pub mark: String,
    pub metric: MetricKey,
    pub statistic: Statistic,
    pub limit_ms: f64,
    pub p50: Option<f64>,
    pub p99: Option<f64>,
    /// The mark's statistic, one copy down.
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub all_copies_up: Option<Ranged>,
    pub basis: Option<Basis>,
    pub holds: Option<bool>,
    pub holds_n_plus_1: Option<bool>,
    /// The range (one copy down) reaches across the limit: the load test decides.
    pub range_crosses: bool,
    /// Why there is no figure, when there is none.
    pub note: Option<String>,
    /// The gateway's own time, ms, included in every figure above for a TTFT or E2E mark the
    /// plan measures at the gateway, or at the client when production goes through a gateway
    /// ([`gateway_budget`]); `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway_budget_ms: Option<Ranged>,
    /// For an Estimated figure whose metric and percentile the GPU back-test covers (TTFT and
    /// TPOT/ITL at p50 and p99): its back-tested error; `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backtested_error: Option<BacktestedError>,
}

/// Money, when a price per GPU-hour is known (internal edition).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CandidateCost {
    pub price_per_gpu_hour: f64,
    pub cards: u32,
    /// Cards × hourly price × 730 hours.
    pub per_month: f64,
    /// Per 1M tokens at the production rate (Estimated).
    pub per_million_tokens: Option<OperatingCost>,
    pub currency: Option<String>,
}

/// Memory against what is in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionFit {
    /// Whole sessions one copy holds.
    pub per_copy: u64,
    /// p99 in flight on one copy, one copy down.
    pub in_flight_p99_n_plus_1: u32,
    /// p99 in flight on one copy, all copies up.
    pub in_flight_p99: u32,
    /// p99 in flight over all copies, all up (copies × the one simulated).
    pub total_in_flight_p99: u32,
}

/// One configuration, evaluated under the production load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CandidateForecast {
    pub configuration: Configuration,
    pub status: CandidateStatus,
    /// Every mark (and memory) holds with all copies up; `None` when not evaluated.
    pub holds: Option<bool>,
    /// Every mark (and memory) holds with one copy down.
    pub holds_n_plus_1: Option<bool>,
    pub predicted: Vec<MarkForecast>,
    pub cards: u32,
    /// Cards × board power, W.
    pub board_power_w: Option<f64>,
    pub sessions: SessionFit,
    /// Saturation rate with one copy down ÷ the production rate.
    pub headroom: Option<f64>,
    /// Per-stream output speed at p50, one copy down, tok/s.
    pub tokens_per_s_per_stream: Option<Ranged>,
    pub transfer: Option<TransferBasis>,
    /// Position in the one ranking (1 = recommended); `None` unless it holds with one copy
    /// down.
    pub rank: Option<u32>,
    /// Only when priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CandidateCost>,
    /// What the card physically allows one copy (`None` when not evaluated): every figure above
    /// respects it.
    #[serde(default)]
    pub physics: Option<CandidatePhysics>,
}

/// The physical limits of one copy of a configuration on its card, at 100 % of the published
/// memory bandwidth and dense compute and with nothing else in the step
/// ([`crate::twin::step_model::StepFloor`]): no prediction of it goes beyond them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CandidatePhysics {
    /// The weights read once per step, ms: no TPOT or ITL is shorter.
    pub tpot_floor_ms: f64,
    /// The prefill of a `prompt_tokens` prompt at the dense peak, ms: no TTFT is shorter.
    pub ttft_floor_ms: f64,
    /// The prompt of `ttft_floor_ms`: the production demand's median, tokens.
    pub prompt_tokens: f64,
    /// The most tokens per second one stream can get (1000 ÷ `tpot_floor_ms`).
    pub decode_ceiling_tok_s: f64,
}

/// The back-tested error of one Estimated figure ([`crate::twin::validation`]): how far
/// transfers to another GPU missed the measured value on public runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BacktestedError {
    /// Median of |predicted − measured| ÷ measured, %.
    pub median_error_pct: f64,
    /// Worst, %.
    pub worst_error_pct: f64,
    /// GPU pairs back-tested.
    pub pairs: u32,
    /// Predicted runs compared.
    pub points: u32,
}

/// What the recommended configuration needs at other demand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Sensitivity {
    pub half_growth: f64,
    /// Cards at half the growth factor; `None` when no count within the card limit holds.
    pub cards_at_half: Option<u32>,
    pub twice_growth: f64,
    pub cards_at_twice: Option<u32>,
    /// One line for people.
    pub sentence: String,
}

/// The recommended configuration, with its uncertainty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Recommendation {
    pub configuration: Configuration,
    /// Its marks (one copy down), with ranges.
    pub predicted: Vec<MarkForecast>,
    /// Sessions in flight over all copies (p99), with the range of the fast and slow ends.
    pub sessions: Ranged,
    /// Cards the central (`value`), fast (`low`) and slow (`high`) ends need; `high` is the card
    /// limit when the slow end holds at no count within it.
    pub cards: Ranged,
    pub sensitivity: Sensitivity,
    /// Marks whose range crosses their limit.
    pub unsettled: Vec<String>,
    /// Why this one, in a sentence.
    pub why: String,
    /// The `vllm serve` line each copy starts with, as sized (module `start_command`): model,
    /// weights and KV formats, `--max-model-len`, `--gpu-memory-utilization`, the split,
    /// `--max-num-seqs`.
    #[serde(default)]
    pub start_command: String,
    /// Whether the card can be ordered, and whether the guide's supplier offers it; absent for
    /// a card the catalog does not describe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub availability: Option<GpuAvailability>,
}

/// A catalog card the plan did not consider because it can no longer be ordered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeftOutGpu {
    pub gpu_id: String,
    pub gpu_name: String,
    /// Why, in words: `end of life since 2025-10-31`, `end of sale, no date published`.
    pub reason: String,
    /// The catalog's record, with its sources.
    pub availability: GpuAvailability,
}

/// On what the plan rests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PlanBasis {
    /// Latency marks and memory.
    LatencyAndMemory,
    /// The plan has no latency mark: memory only.
    MemoryOnly,
}

/// The twin on the pilot's own hardware at the production load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PilotAtProduction {
    pub configuration: Configuration,
    pub predicted: Vec<MarkForecast>,
    pub holds: Option<bool>,
    pub in_flight_p99: u32,
    pub overloaded: bool,
}

/// The capacity plan (field names as issue #19 states them; additions after `warnings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CapacityPlan {
    pub demand: DemandForecast,
    pub candidates: Vec<CandidateForecast>,
    pub recommended: Option<Recommendation>,
    pub story: String,
    pub next_steps: Vec<NextStep>,
    pub warnings: Vec<String>,
    pub basis: PlanBasis,
    pub pilot_at_production: Option<PilotAtProduction>,
    /// Cards left out as no longer orderable (empty when the input included them).
    #[serde(default)]
    pub left_out: Vec<LeftOutGpu>,
    /// How the transfer to another GPU behind every Estimated figure did on public runs of two
    /// GPUs: per back-tested metric, the median and worst error and the GPU pairs
    /// (`engine/src/twin/VALIDATION.md`).
    #[serde(default)]
    pub validation: ValidationSummary,
}

/// The capacity plan for `input` (module docs).
pub fn plan_capacity(input: &CapacityPlanInput) -> CapacityPlan {
    let demand = demand_forecast(input);
    let (offered, left_out) = availability::split(&input.gpus, input.include_unorderable);
    let context = candidate::Context::new(input, offered);
    let mut warnings = context.warnings();
    let pilot_at_production = context.pilot_at_production();
    let mut candidates = context.evaluate_all();
    warnings.extend(candidate::rank(&mut candidates));
    let recommended = candidates
        .iter()
        .find(|c| c.rank == Some(1))
        .map(|c| context.recommendation(c));
    if recommended.is_none() {
        warnings.push(story::nothing_holds(input, &candidates));
    }
    if let Some(r) = &recommended {
        warnings.extend(r.unsettled_warnings_in(Lang::En));
    }
    let basis = context.basis();
    let mut story = story::story(
        input,
        &demand,
        pilot_at_production.as_ref(),
        recommended.as_ref(),
        basis,
    );
    if let Some(sentence) = alternatives::sentence_in(&candidates, Lang::En) {
        story.push(' ');
        story.push_str(&sentence);
    }
    if let Some(sentence) = availability::sentence_in(&left_out, recommended.as_ref(), Lang::En) {
        story.push(' ');
        story.push_str(&sentence);
    }
    let next_steps = story::next_steps(input, &demand, recommended.as_ref());
    CapacityPlan {
        demand,
        candidates,
        recommended,
        story,
        next_steps,
        warnings,
        basis,
        pilot_at_production,
        left_out,
        validation: context.validation().clone(),
    }
}

fn demand_forecast(input: &CapacityPlanInput) -> DemandForecast {
    let sessions = super::demand_process::sessions_in_flight(
        &input.demand,
        &input.pilot_service,
        super::demand_process::DEFAULT_HOURS,
    );
    DemandForecast {
        rate: input.demand.rate_per_s(),
        pilot_rate: input.demand.pilot_rate_per_s,
        growth: input.demand.growth,
        arrivals: input.demand.basis(),
        sessions,
        context_tokens_per_session: input.context_tokens_per_session,
        prompt_tokens_mean: input.demand.workload.prompt_tokens.mean(),
        output_tokens_mean: input.demand.workload.output_tokens.mean(),
    }
}
