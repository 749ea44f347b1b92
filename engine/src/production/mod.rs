//! The production hardware recommendation of the pilot report: the pilot's demand scaled to
//! production, the precisions that passed the quality gate and the plan's latency targets, run
//! through the sizing engine, with the arithmetic spelled out and the load test to run next.
//!
//! # Why it works this way
//!
//! * **Concurrency does not carry across hardware.** What carries over from the pilot is demand:
//!   the busiest-hour arrival rate and the token lengths. The number of requests in flight is
//!   that rate × the time each request takes (Little's law), and the time belongs to the GPU,
//!   engine and settings. A slower pilot shows more requests in flight for the same traffic. So
//!   the sessions production must hold are computed here from the production rate, never taken
//!   from the pilot's measured concurrency.
//! * **Sessions are derived once, conservatively, from the plan's limits** (see
//!   [`concurrency`]). The request time is the plan's TTFT limit + (mean answer tokens − 1) × the
//!   plan's TPOT limit: the slowest a request may be on any configuration that passes the plan.
//!   The alternative, each candidate's own decode ceiling, is an upper bound on speed that no
//!   batch reaches, so it understates request time and with it the sessions to hold: the
//!   dangerous direction for memory. Every configuration that is recommended must meet the same
//!   limits (the sizing engine checks the ceiling against the TPOT limit and the prefill estimate
//!   against the TTFT limit), so one bound serves them all. The chosen configuration's
//!   arithmetic also shows the count at its ceiling, as the lower bound.
//! * **Only precisions that passed the quality gate are candidates** (see [`precision`]), and
//!   only with the KV-cache dtype they passed with: an FP8 KV cache needs an evaluation run with
//!   an FP8 KV cache that passed ([`ProductionInput::passing_combinations`]). When the gate has
//!   decided nothing, the recommendation says so and sizes the pilot's serving precision (or the
//!   model's published BF16) instead, flagged in its warnings.
//! * **Whole sessions.** The context per session is also the `--max-model-len` vLLM starts with,
//!   and vLLM refuses longer requests: production sizes the longest measured request or the
//!   plan's context per request, whichever is larger, and says how many measured requests a
//!   lower figure (the p95) would leave out ([`crate::demand::ContextBasis::WholeSession`]).
//! * **Speed is calibrated** on the pilot's own load tests ([`calibration`]): a candidate's
//!   per-stream speed is its ceiling × the measured efficiency (Estimated, with the factor and
//!   its run); without a load test it is *not established: ceiling only*.
//! * **Ranked by fit to demand and cost**, and only in formats the card computes natively
//!   (see [`crate::sizing::recommend()`]).
//! * **Ceilings are upper bounds, so the last step is always a load test** on the candidate (see
//!   [`load_test`]): exact `vllm bench serve` and `aiperf profile` command lines at a sweep of
//!   concurrency around the computed peak, with the plan's targets as goodput; the caveats say
//!   to run it on the production stack before go-live.
//!
//! # The capacity plan (issue #19)
//!
//! [`capacity_plan`] replaces the stacked session bound and the carried efficiency ratio with
//! one model of production for every candidate: demand as an arrival process
//! ([`demand_process`]), the pilot's twin transferred to each candidate by the physics of the
//! work ([`crate::twin::transfer`](mod@crate::twin::transfer)), each candidate simulated with one copy down, one ranking
//! that prices never change, and the uncertainty of the headline. [`recommend_production`]
//! stays for the pages that still call it.
//!
//! Every line of [`ProductionRecommendation::arithmetic`] names where its number came from
//! ([`Source`]): the gateway log, the plan, the assessor, the catalogs, an assumption, or
//! arithmetic on the lines above. Pure functions: no IO, no clock; the same input gives the same
//! output, byte for byte.

pub mod arithmetic;
pub mod calibration;
pub mod capacity_plan;
pub mod concurrency;
pub mod demand_process;
pub mod load_test;
pub mod operating_cost;
pub mod precision;
pub mod twin_check;

#[cfg(test)]
mod tests;

pub use arithmetic::{ArithmeticLine, Source};
pub use calibration::{Calibration, MeasuredPoint, calibrate};
pub use capacity_plan::{
    CandidateForecast, CapacityPlan, CapacityPlanInput, Configuration, MeasuredTwin, NextStep,
    plan_capacity,
};
pub use concurrency::{BoundBasis, READING_FLOOR_TOKENS_PER_S, SessionsToHold, sessions_to_hold};
pub use demand_process::{
    ArrivalBasis, BusiestHour, DemandProcess, LoggedRequest, ServiceTimes, SessionsInFlight,
    lengths_from_distribution, sessions_in_flight,
};
pub use load_test::{CommandLine, LoadTestPoint, LoadTestSettings, NextLoadTest, next_load_test};
pub use operating_cost::{GpuHourPrice, OperatingCost, cost_at, operating_cost};
pub use precision::{
    PrecisionBasis, PrecisionChoice, choose_combinations, choose_kv_dtypes, choose_precisions,
};
pub use twin_check::{
    MarkPrediction, MeasuredConfiguration, PilotTwin, PredictedCompliance, rank_by_compliance,
};

use crate::demand::{ContextBasis, MeasuredContext, ProductionDemand};
use crate::ingest::MetricKey;
use crate::loadtest::{LatencyTarget, latency_targets};
use crate::plan::{PilotServing, PlanContent};
use crate::sizing::decode::{SpeedBasis, SpeedCalibration};
use crate::sizing::estimate::num;
use crate::sizing::{
    Candidate, Demand, GpuOffer, KvDtype, MemoryModel, ModelSpec, RecommendOptions, Topology,
    WeightPrecision, recommend,
};
use serde::{Deserialize, Serialize};

/// Feasible configurations listed when [`ProductionInput::top`] is not given.
pub const DEFAULT_TOP: usize = 5;

/// The plan's latency limits that size production: the tightest all-traffic TTFT and TPOT marks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProductionTargets {
    /// TTFT limit ("TTFT p99 ≤ 450 ms"); `None` when the plan has none.
    #[serde(default)]
    pub ttft: Option<LatencyTarget>,
    /// TPOT limit ("TPOT p99 ≤ 40 ms"); `None` when the plan has none.
    #[serde(default)]
    pub tpot: Option<LatencyTarget>,
}

impl ProductionTargets {
    /// The tightest TTFT and TPOT upper limits of the plan that apply to all traffic (scenario
    /// marks size their scenario's load test, not production as a whole). Marks on output speed
    /// per user or ITL are not converted.
    pub fn from_plan(content: &PlanContent) -> ProductionTargets {
        let all_traffic: Vec<LatencyTarget> = latency_targets(content)
            .into_iter()
            .filter(|t| t.scenario.is_none())
            .collect();
        let tightest = |key: MetricKey| {
            all_traffic
                .iter()
                .filter(|t| t.metric == key)
                .min_by(|a, b| {
                    a.limit_ms
                        .total_cmp(&b.limit_ms)
                        .then_with(|| a.inclusive.cmp(&b.inclusive))
                })
                .cloned()
        };
        ProductionTargets {
            ttft: tightest(MetricKey::TtftMs),
            tpot: tightest(MetricKey::TpotMs),
        }
    }
}

/// Everything the production recommendation needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProductionInput {
    /// Production demand scaled from the pilot's gateway log: arrival rate, token lengths and
    /// the context one session holds.
    pub demand: ProductionDemand,
    pub model: ModelSpec,
    /// Weight precisions and KV-cache dtypes whose evaluation run passed the quality gate
    /// together; when given, only these pairs are sized (see [`choose_combinations`]).
    #[serde(default)]
    pub passing_combinations: Vec<(WeightPrecision, KvDtype)>,
    /// Weight precisions chosen without their KV cache (by hand, or older callers): sized with
    /// every dtype of `kv_dtypes`. Empty with no combinations means the gate has decided
    /// nothing (see [`choose_precisions`]).
    #[serde(default)]
    pub passing_precisions: Vec<WeightPrecision>,
    /// KV-cache dtypes allowed; empty means the pilot's, else 16-bit (see [`choose_kv_dtypes`]).
    #[serde(default)]
    pub kv_dtypes: Vec<KvDtype>,
    /// Efficiency factors from the pilot's load tests ([`calibrate`]); empty: speed rests on
    /// the ceiling only.
    #[serde(default)]
    pub speed: SpeedCalibration,
    /// Formats were chosen explicitly: size formats a card only emulates too (flagged).
    #[serde(default)]
    pub allow_emulated: bool,
    /// Candidate cards, each with an optional price per card.
    pub gpus: Vec<GpuOffer>,
    /// Most cards one configuration may use.
    pub max_cards: u32,
    pub memory_model: MemoryModel,
    /// The plan's latency limits ([`ProductionTargets::from_plan`]).
    #[serde(default)]
    pub targets: ProductionTargets,
    /// The plan's serving configuration: its precision and KV dtype are the fallbacks when the
    /// quality gate has decided nothing.
    #[serde(default)]
    pub pilot_serving: Option<PilotServing>,
    /// Peak ÷ mean requests in flight (e.g. the pilot's peak in flight ÷ its busiest-hour mean).
    /// Little's law gives the mean; `None` sizes for the mean (factor 1).
    #[serde(default)]
    pub peak_to_mean: Option<f64>,
    /// Feasible configurations to list (default [`DEFAULT_TOP`]).
    #[serde(default = "default_top")]
    pub top: usize,
    /// Consider pipeline parallelism (it adds memory, never speed).
    #[serde(default = "yes")]
    pub allow_pipeline: bool,
    #[serde(default)]
    pub gpu_memory_utilization: Option<f64>,
    #[serde(default)]
    pub vllm_version: Option<String>,
    #[serde(default)]
    pub max_num_batched_tokens: Option<u64>,
    /// Where and how the next load test runs.
    #[serde(default)]
    pub load_test: LoadTestSettings,
    /// The pilot's capacity twin: candidates of the measured configuration are checked against
    /// the plan's marks at the production rate and ranked by it ([`twin_check`]).
    #[serde(default)]
    pub twin: Option<PilotTwin>,
    /// Prices per GPU-hour (staff-only; the customer's report passes none): options the twin
    /// predicts for get their operating-point cost ([`operating_cost`]).
    #[serde(default)]
    pub gpu_hour_prices: Vec<GpuHourPrice>,
}

fn default_top() -> usize {
    DEFAULT_TOP
}

fn yes() -> bool {
    true
}

/// One feasible configuration, ranked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProductionOption {
    /// 1 for the recommended configuration.
    pub rank: u32,
    pub gpu_id: String,
    pub gpu_name: String,
    pub precision: WeightPrecision,
    pub kv_dtype: KvDtype,
    pub topology: Topology,
    /// "TP=2", "3 copies", "1 card".
    pub topology_label: String,
    pub cards: u32,
    /// Whole sessions of the demanded context that fit, all copies.
    pub sessions: u64,
    /// Sessions ÷ sessions to hold (1.0 = exactly enough).
    pub headroom: f64,
    /// Single-stream decode ceiling, tok/s (an upper bound).
    pub decode_tokens_per_s: f64,
    /// Expected per-stream speed (ceiling × measured efficiency), tok/s; the ceiling when no
    /// load test calibrates it.
    #[serde(default)]
    pub expected_tokens_per_s: f64,
    /// How the expected speed was reached.
    #[serde(default = "ceiling_only")]
    pub speed_basis: SpeedBasis,
    /// Engine prefill estimate for the p95 prompt, ms.
    pub ttft_ms: Option<f64>,
    /// Cards × unit price, when a price was set.
    pub cost: Option<f64>,
    /// Set when the card only emulates the format (sized because it was chosen).
    #[serde(default)]
    pub format_note: Option<String>,
    /// The capacity twin's predicted compliance at the production rate; `None` when the twin
    /// does not apply (hardware it never measured, or no twin).
    #[serde(default)]
    pub predicted: Option<PredictedCompliance>,
    /// Cost per 1M output and input tokens at the predicted operating point (Estimated); only
    /// with a prediction and a price per GPU-hour for this GPU.
    #[serde(default)]
    pub operating_cost: Option<OperatingCost>,
    /// The pilot's own configuration (the one its capacity twin was fitted on), listed beside
    /// the best ones although it ranks below them: "buy more of what we piloted" is the first
    /// question, and the only one the twin answers with a prediction.
    #[serde(default)]
    pub pilot_configuration: bool,
}

fn ceiling_only() -> SpeedBasis {
    SpeedBasis::CeilingOnly
}

impl ProductionOption {
    fn from_candidate(candidate: &Candidate) -> ProductionOption {
        ProductionOption {
            rank: candidate.rank.unwrap_or(0),
            gpu_id: candidate.gpu_id.clone(),
            gpu_name: candidate.gpu_name.clone(),
            precision: candidate.precision,
            kv_dtype: candidate.kv_dtype,
            topology: candidate.topology,
            topology_label: candidate.topology.label(),
            cards: candidate.cards,
            sessions: candidate.sessions,
            headroom: candidate.headroom,
            decode_tokens_per_s: candidate.decode_tokens_per_s,
            expected_tokens_per_s: candidate
                .expected_speed
                .as_ref()
                .map_or(candidate.decode_tokens_per_s, |e| e.tokens_per_s),
            speed_basis: candidate
                .expected_speed
                .as_ref()
                .map_or(SpeedBasis::CeilingOnly, |e| e.basis),
            ttft_ms: candidate.ttft_ms,
            cost: candidate.cost,
            format_note: candidate.format_note.clone(),
            predicted: None,
            operating_cost: None,
            pilot_configuration: false,
        }
    }
}

/// Why configurations fell short, by kind: "memory", "decode speed", "TTFT", "format".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InfeasibleReason {
    /// The reason's kind, as the sizing engine prefixes it.
    pub kind: String,
    /// Sized configurations that fail for this reason (one may fail for several).
    pub configurations: usize,
    /// One full reason of this kind, from the configuration with the most sessions.
    pub example: String,
}

/// The production hardware recommendation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProductionRecommendation {
    /// The precisions sized and why those.
    pub precision: PrecisionChoice,
    /// The KV-cache dtypes sized.
    pub kv_dtypes: Vec<KvDtype>,
    /// The precision and KV-cache pairs sized (empty: every precision × every dtype).
    #[serde(default)]
    pub combinations: Vec<(WeightPrecision, KvDtype)>,
    /// The measured context behind the context per session, when known: p95, longest, how
    /// many requests are longer than the p95.
    #[serde(default)]
    pub context: Option<MeasuredContext>,
    /// The efficiency factors applied to the ceilings (empty: ceiling only).
    #[serde(default)]
    pub speed: SpeedCalibration,
    /// Production rate × request time: the sessions every configuration must hold.
    pub sessions: SessionsToHold,
    /// The demand handed to [`crate::sizing::recommend()`].
    pub demand: Demand,
    /// The best feasible configurations, at most [`ProductionInput::top`], ranked.
    pub options: Vec<ProductionOption>,
    /// Feasible configurations in all.
    pub feasible_count: usize,
    /// Configurations the sizing engine could size (splits the model cannot take are left out).
    pub configurations_sized: usize,
    /// Why the others fell short, most frequent first.
    pub infeasible: Vec<InfeasibleReason>,
    /// The recommended configuration (rank 1) with its sizing and steps; `None` when nothing fits.
    pub chosen: Option<Candidate>,
    /// Cards × unit price of the chosen configuration, when its price was set.
    pub cost: Option<f64>,
    /// The chosen configuration's arithmetic, from the pilot's rate to the cards; empty when
    /// nothing fits.
    pub arithmetic: Vec<ArithmeticLine>,
    /// The load test to run on the chosen configuration before buying.
    pub next_load_test: Option<NextLoadTest>,
    /// One paragraph for the report.
    pub summary: String,
    /// Everything the reader must know before trusting the numbers (fallback precision, missing
    /// targets, the chosen configuration's sizing warnings).
    pub warnings: Vec<String>,
    /// What must still happen before go-live (always: re-run the load test on the production
    /// stack, with the command to run).
    #[serde(default)]
    pub caveats: Vec<String>,
    /// The configuration the pilot's capacity twin was fitted on, when one was given: the only
    /// candidates with a [`ProductionOption::predicted`].
    #[serde(default)]
    pub twin_configuration: Option<MeasuredConfiguration>,
}

/// Sizes production from the pilot: see the module docs for the reasoning.
pub fn recommend_production(input: &ProductionInput) -> ProductionRecommendation {
    let (precision, kv_dtypes, combinations, kv_note) = choose_combinations(input);
    let sessions = sessions_to_hold(input);
    let demand = sizing_demand(input, &sessions);
    let candidates = recommend(
        &demand,
        &recommend_options(input, &precision, &kv_dtypes, &combinations),
    );

    let feasible: Vec<&Candidate> = candidates.iter().filter(|c| c.feasible).collect();
    let sized: Vec<&Candidate> = candidates.iter().filter(|c| c.result.is_some()).collect();
    let sizing_first: Option<&Candidate> = feasible.first().copied();
    let ranked: Vec<(&Candidate, Option<PredictedCompliance>)> = match &input.twin {
        Some(pilot) => rank_by_compliance(feasible, pilot, input.demand.arrival_rate_per_s),
        None => feasible.into_iter().map(|c| (c, None)).collect(),
    };
    let option =
        |i: usize, (c, predicted): &(&Candidate, Option<PredictedCompliance>)| ProductionOption {
            rank: i as u32 + 1,
            predicted: predicted.clone(),
            operating_cost: predicted.as_ref().and_then(|p| {
                let price = input
                    .gpu_hour_prices
                    .iter()
                    .find(|g| g.gpu_id.eq_ignore_ascii_case(&c.gpu_id))?;
                operating_cost(price, c.cards, p)
            }),
            pilot_configuration: predicted.is_some(),
            ..ProductionOption::from_candidate(c)
        };
    let mut options: Vec<ProductionOption> = ranked
        .iter()
        .take(input.top)
        .enumerate()
        .map(|(i, ranked)| option(i, ranked))
        .collect();
    // The pilot's own configuration is always shown, with its rank among all feasible ones.
    if !options.iter().any(|o| o.pilot_configuration)
        && let Some((i, own)) = ranked
            .iter()
            .enumerate()
            .skip(input.top)
            .find(|(_, (_, predicted))| predicted.is_some())
    {
        options.push(option(i, own));
    }
    let feasible: Vec<&Candidate> = ranked.iter().map(|(c, _)| *c).collect();
    let infeasible = summarise_infeasible(&sized);
    let chosen = feasible.first().map(|c| Candidate {
        rank: Some(1),
        ..(*c).clone()
    });

    let mut warnings = Vec::new();
    if precision.basis != PrecisionBasis::QualityGate {
        warnings.push(precision.note.clone());
    }
    warnings.extend(kv_note);
    warnings.extend(context_warning(&input.demand));
    warnings.extend(sessions.warnings());
    if input.speed.is_empty() && demand.min_decode_tokens_per_s.is_some() {
        warnings.push(
            "Per-stream speed is not established: no load test of the pilot calibrates the ceilings, so candidates pass the speed target on their ceiling alone, an upper bound no system reaches."
                .to_string(),
        );
    }
    if let Some(first) = sizing_first
        && !feasible.first().is_some_and(|c| std::ptr::eq(*c, first))
    {
        warnings.push(format!(
            "The capacity twin predicts that {} {} ({}) misses a latency pass mark at the production rate of {} req/s, so it is ranked below the configurations not predicted to miss.",
            first.gpu_name,
            first.precision.label(),
            first.topology.label(),
            num(input.demand.arrival_rate_per_s, 2)
        ));
    }
    if let Some(candidate) = &chosen {
        warnings.extend(candidate.format_note.iter().cloned());
        if let Some(result) = &candidate.result {
            warnings.extend(result.warnings.iter().cloned());
        }
    }

    let arithmetic = chosen
        .as_ref()
        .map(|c| arithmetic::for_chosen(input, &sessions, c))
        .unwrap_or_default();
    let next = chosen.as_ref().map(|c| next_load_test(input, c));
    let summary = match &chosen {
        Some(c) => chosen_summary(c, &sessions, &demand),
        None => nothing_fits_summary(input, &sessions, &demand, &precision, &infeasible),
    };
    let caveats = caveats(next.as_ref());
    ProductionRecommendation {
        precision,
        kv_dtypes,
        combinations,
        context: input.demand.measured_context.clone(),
        speed: input.speed.clone(),
        caveats,
        demand,
        options,
        feasible_count: feasible.len(),
        configurations_sized: sized.len(),
        infeasible,
        cost: chosen.as_ref().and_then(|c| c.cost),
        chosen,
        arithmetic,
        next_load_test: next,
        summary,
        warnings,
        sessions,
        twin_configuration: input.twin.as_ref().map(|t| t.configuration.clone()),
    }
}

/// The sizing engine's demand: the sessions to hold, the session context, the TPOT limit as a
/// per-stream decode target (the reading floor when the plan has none, so the request-time bound
/// holds for every feasible configuration) and the TTFT limit against the p95 prompt.
fn sizing_demand(input: &ProductionInput, sessions: &SessionsToHold) -> Demand {
    let prompt_p95 = input.demand.prompt_tokens_p95;
    Demand {
        peak_concurrent_sessions: sessions.peak_sessions,
        context_tokens: u64::from(input.demand.context_tokens_per_session.max(1)),
        min_decode_tokens_per_s: None,
        max_ttft_ms: input.targets.ttft.as_ref().map(|t| t.limit_ms),
        prompt_tokens: (prompt_p95.is_finite() && prompt_p95 > 0.0)
            .then(|| prompt_p95.ceil() as u64),
    }
    .with_tpot_ms(sessions.tpot_ms)
}

/// What a context lower than the longest measured request leaves out: vLLM refuses requests
/// longer than `--max-model-len`.
fn context_warning(demand: &ProductionDemand) -> Option<String> {
    let measured = demand.measured_context.as_ref()?;
    if demand.context_tokens_per_session >= measured.max_tokens {
        return None;
    }
    let basis = match demand.context_basis {
        ContextBasis::P95 => "the p95",
        _ => "a figure below the longest request",
    };
    Some(format!(
        "Sessions are sized at {basis} ({} tokens), which is also vLLM's --max-model-len: it refuses longer requests outright ({}). Size whole sessions instead.",
        crate::format::thousands(u64::from(demand.context_tokens_per_session)),
        measured.tail_sentence()
    ))
}

/// Always: re-run the load test on the production stack before go-live, with the command.
fn caveats(next: Option<&NextLoadTest>) -> Vec<String> {
    let mut out = Vec::new();
    match next.and_then(|n| {
        n.points
            .iter()
            .find(|p| (p.share_of_peak - 1.0).abs() < 1e-9)
            .map(|p| (n, p))
    }) {
        Some((next, point)) => out.push(format!(
            "Re-run the load test on the production stack before go-live: latency and throughput belong to the GPU, engine version and settings they were measured on, so the pilot's figures do not carry over. On {} run the sweep below, e.g. at the peak: {}",
            next.configuration, point.vllm_bench.line
        )),
        None => out.push(
            "Re-run the load test on the production stack before go-live: latency and throughput belong to the GPU, engine version and settings they were measured on, so the pilot's figures do not carry over."
                .to_string(),
        ),
    }
    out
}

fn recommend_options(
    input: &ProductionInput,
    precision: &PrecisionChoice,
    kv_dtypes: &[KvDtype],
    combinations: &[(WeightPrecision, KvDtype)],
) -> RecommendOptions {
    RecommendOptions {
        model: input.model.clone(),
        precisions: precision.precisions.clone(),
        kv_dtypes: kv_dtypes.to_vec(),
        gpus: input.gpus.clone(),
        max_cards: input.max_cards,
        memory_model: input.memory_model,
        allow_pipeline: input.allow_pipeline,
        gpu_memory_utilization: input.gpu_memory_utilization,
        vllm_version: input.vllm_version.clone(),
        max_num_batched_tokens: input.max_num_batched_tokens,
        combinations: combinations.to_vec(),
        allow_emulated: input.allow_emulated,
        speed: input.speed.clone(),
    }
}

/// Groups the reasons of infeasible, sized configurations by kind (the text before the first
/// `:`), most frequent first, then by kind; each with the reason of the configuration holding
/// the most sessions (the nearest miss), first in catalog order on ties.
fn summarise_infeasible(sized: &[&Candidate]) -> Vec<InfeasibleReason> {
    let mut out: Vec<(InfeasibleReason, u64)> = Vec::new();
    for candidate in sized.iter().filter(|c| !c.feasible) {
        let mut kinds_seen: Vec<&str> = Vec::new();
        for reason in &candidate.reasons {
            let kind = reason.split_once(':').map_or(reason.as_str(), |(k, _)| k);
            if kinds_seen.contains(&kind) {
                continue;
            }
            kinds_seen.push(kind);
            match out.iter_mut().find(|(r, _)| r.kind == kind) {
                Some((entry, best_sessions)) => {
                    entry.configurations += 1;
                    if candidate.sessions > *best_sessions {
                        entry.example = reason.clone();
                        *best_sessions = candidate.sessions;
                    }
                }
                None => out.push((
                    InfeasibleReason {
                        kind: kind.to_string(),
                        configurations: 1,
                        example: reason.clone(),
                    },
                    candidate.sessions,
                )),
            }
        }
    }
    let mut reasons: Vec<InfeasibleReason> = out.into_iter().map(|(r, _)| r).collect();
    reasons.sort_by(|a, b| {
        b.configurations
            .cmp(&a.configurations)
            .then_with(|| a.kind.cmp(&b.kind))
    });
    reasons
}

/// "2 × RTX PRO 6000 Blackwell Server Edition (TP=2), FP8 weights, FP8 KV cache".
pub fn configuration_label(candidate: &Candidate) -> String {
    format!(
        "{} × {} ({}), {} weights, {} KV cache",
        candidate.cards,
        candidate.gpu_name,
        candidate.topology.label(),
        candidate.precision.label(),
        candidate.kv_dtype.label()
    )
}

fn speed_clause(demand: &Demand) -> String {
    demand
        .min_decode_tokens_per_s
        .map(|t| format!(" at ≥ {} tok/s per stream", num(t, 1)))
        .unwrap_or_default()
}

fn chosen_summary(candidate: &Candidate, sessions: &SessionsToHold, demand: &Demand) -> String {
    let cost = candidate
        .cost
        .map(|c| format!(" Cost: {}.", num(c, 2)))
        .unwrap_or_default();
    let speed = match &candidate.expected_speed {
        Some(e) if e.basis != SpeedBasis::CeilingOnly => format!(
            "an expected {} tok/s per stream (Estimated: ceiling {} tok/s, an upper bound, × the efficiency {} measured in the pilot's load test)",
            num(e.tokens_per_s, 1),
            num(candidate.decode_tokens_per_s, 1),
            num(e.factor.as_ref().map_or(1.0, |f| f.factor), 3)
        ),
        _ => format!(
            "a decode ceiling of {} tok/s (an upper bound; per-stream speed not established: ceiling only)",
            num(candidate.decode_tokens_per_s, 1)
        ),
    };
    format!(
        "Recommended: {}. It holds {} sessions of {} tokens against {} needed at the busiest hour \
         ({} req/s × {} s per request){}, with {speed}.{} Ceilings are upper \
         bounds: confirm with the load test before buying.",
        configuration_label(candidate),
        candidate.sessions,
        num(demand.context_tokens as f64, 0),
        sessions.peak_sessions,
        num(sessions.arrival_rate_per_s, 2),
        num(sessions.request_time_s, 2),
        speed_clause(demand),
        cost
    )
}

fn nothing_fits_summary(
    input: &ProductionInput,
    sessions: &SessionsToHold,
    demand: &Demand,
    precision: &PrecisionChoice,
    infeasible: &[InfeasibleReason],
) -> String {
    let needed = format!(
        "{} sessions of {} tokens{}",
        sessions.peak_sessions,
        num(demand.context_tokens as f64, 0),
        speed_clause(demand)
    );
    if input.gpus.is_empty() {
        return format!("No GPU was offered, so nothing can carry {needed}.");
    }
    if precision.precisions.is_empty() {
        return format!("No precision is available to size, so nothing can carry {needed}.");
    }
    if infeasible.is_empty() {
        return format!(
            "No configuration of up to {} cards could be sized for {} (the model cannot be split over these cards).",
            input.max_cards.max(1),
            input.model.name
        );
    }
    let reasons = infeasible
        .iter()
        .map(|r| {
            format!(
                "{} ({} configuration{}, e.g. {})",
                r.kind,
                r.configurations,
                if r.configurations == 1 { "" } else { "s" },
                r.example
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "No configuration of up to {} cards carries {needed}. Reasons: {reasons}. Allow more cards, \
         a faster or larger GPU, or a cheaper precision once it passes the quality gate.",
        input.max_cards.max(1)
    )
}
