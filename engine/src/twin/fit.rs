//! Fitting the timing model to the pilot's own load tests.
//!
//! **1. Mean-value equations, solved by non-negative least squares.** Over a run, each decoding
//! sequence gets one token per step, so a request's mean TPOT is the mean step time it lived
//! through. With the Little's-law quantities of [`super::evidence`] every measured point gives
//!
//! ```text
//! TPOT = base + per_sequence·B̄ + per_context·B̄·context + per_prefill·(prompt·X·TPOT/1000)
//! ```
//!
//! (B̄ decoding sequences holding `context` tokens each on average; X·TPOT/1000 prompts arrive
//! per step and their tokens share the steps). The lightest point of each scenario adds a TTFT
//! equation: TTFT ≈ overhead + one step carrying its prompt (plus half a step of waiting for the
//! step in progress). Per-request records (vLLM `--save-detailed`, AIPerf JSONL, guidellm) add one
//! TPOT equation per request, with B̄, context and prefill reconstructed from the other requests'
//! start, first-token and end times — a request that lived through a crowd shows the crowd's
//! cost. Equations are relative (divided by the measured value) so a 9 ms and a 120 ms TPOT
//! count alike.
//!
//! **2. Limits.** `max_num_seqs`, `max_num_batched_tokens`, chunked prefill and the KV-cache
//! size come from the evidence when stated ([`ServingLimits`], including the load test's own
//! settings). Otherwise the running limit is **inferred** from a saturated point — one whose mean
//! in flight far exceeds its mean decoding batch while its TTFT is several times the lightest
//! point's: the engine was holding about B̄ sequences and queueing the rest — or **assumed** to be
//! vLLM's default of 256 (raised to what the data shows running, if more).
//!
//! **3. Calibration by simulation.** Each measured run is re-simulated (its own arrival
//! process, request count and token shape) under each candidate way of scheduling prefill that
//! the evidence leaves open — chunked with 2,048 or 8,192 tokens per step (vLLM V1's defaults
//! below and above 70 GiB cards), or separate prefill steps (V0) — and the fixed request overhead
//! is set to the median difference between measured and simulated TTFT p50 at the light points.
//! The candidate that reproduces the measured TTFT and TPOT p50/p95/p99 best is kept, and its
//! median error is the model's [`TimingModel::fit_error_pct`].
//!
//! **Prompt lengths not stated.** Some files (AIPerf with an `inputs_json` dataset, the demo's
//! benchmark report) give no prompt lengths. The prefill work of such a scenario is fitted as a
//! time per request, and its prompts are given the *effective* length that costs that time at
//! the fitted cost per token (or [`ASSUMED_PROMPT_TOKENS`] on average when no scenario states its
//! lengths). Predictions at the measured shape are unaffected; predictions at a stated prompt
//! length are then Estimated (see [`super::predict`]).

use super::TwinError;
use super::arrivals::ArrivalProcess;
use super::evidence::{MeasuredPoint, configurations, measure, recorded_arrivals};
use super::least_squares::{Row, nonnegative_least_squares};
use super::serving_limits::ServingLimits;
use super::simulate::{SimulationOptions, StepTerms, simulate};
use super::statistics::{RunStatistics, Window};
use super::timing::{
    EngineLimits, FittedRange, LimitSource, PrefillScheduling, ScenarioShape, StepCost,
    TimingModel, experts_touched,
};
use super::workload::TokenLengths;
use crate::ingest::{OperatingPoint, RequestRecord};
use crate::plan::Statistic;
use serde::{Deserialize, Serialize};

pub use super::evidence::ASSUMED_PROMPT_TOKENS;
/// vLLM's default `max_num_seqs` (V1, cards under 70 GiB; 1,024 above).
pub const DEFAULT_MAX_NUM_SEQS: u32 = 256;
/// vLLM V1's default `max_num_batched_tokens` for `vllm serve` on cards under 70 GiB.
pub const DEFAULT_BATCHED_TOKENS_SMALL: u32 = 2048;
/// The same on cards of 70 GiB and more (A100 excepted).
pub const DEFAULT_BATCHED_TOKENS_LARGE: u32 = 8192;
/// Most requests simulated for one measured run, whatever the run sent.
pub const MAX_RUN_REQUESTS: usize = 20_000;

/// How the fit runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitOptions {
    /// Re-simulate the measured runs to set the request overhead and choose the prefill
    /// scheduling (step 3 of the module docs). Off: overhead from the least-squares fit, chunked
    /// prefill of 2,048 tokens assumed.
    pub calibrate: bool,
    /// Most requests simulated per measured run while calibrating (runs beyond saturation are
    /// simulated whole, up to [`MAX_RUN_REQUESTS`]: their queue grows with their length).
    pub calibration_requests: usize,
    /// Seed of the calibration simulations.
    pub seed: u64,
    /// MoE only: the share of the routed experts one token reads (top-k ÷ experts,
    /// [`super::step_model::expert_share`]). With it the fit adds the saturating expert-read
    /// term (module docs of [`super::timing`], "Expert reads") and fits its time beside the
    /// others; `None` (dense models, or a caller that does not know the model): no such term.
    #[serde(default)]
    pub expert_share: Option<f64>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            calibrate: true,
            calibration_requests: 2000,
            seed: 1,
            expert_share: None,
        }
    }
}

/// Fits the timing model of one serving configuration from its load-test points (and, when the
/// files have them, per-request records whose `point` indexes `points`), with default options.
pub fn fit(
    points: &[OperatingPoint],
    requests: &[RequestRecord],
    limits: &ServingLimits,
) -> Result<TimingModel, TwinError> {
    fit_with(points, requests, limits, &FitOptions::default())
}

struct Scenario {
    name: String,
    members: Vec<usize>,
    prompt_stated: bool,
    /// Stated mean, or the effective length.
    prompt_mean: f64,
    /// Index among the unknowns (after the five shared parameters) when not stated.
    unknown: Option<usize>,
}

/// Per-request TPOT equation inputs.
struct RequestRow {
    decoding: f64,
    context: f64,
    prefill_tokens_per_step: f64,
    tpot_ms: f64,
    weight: f64,
}

const BASE: usize = 0;
const PER_SEQUENCE: usize = 1;
const PER_CONTEXT: usize = 2;
const PER_PREFILL: usize = 3;
const OVERHEAD: usize = 4;
/// The routed-expert read (MoE; a zero column, so 0, for dense models).
const EXPERT: usize = 5;
const SHARED: usize = 6;

/// [`fit`] with options.
pub fn fit_with(
    points: &[OperatingPoint],
    requests: &[RequestRecord],
    limits: &ServingLimits,
    options: &FitOptions,
) -> Result<TimingModel, TwinError> {
    let groups = configurations(points);
    if groups.len() > 1 {
        return Err(TwinError::SeveralConfigurations {
            labels: groups.into_iter().map(|g| g.label).collect(),
        });
    }
    let mut unusable = Vec::new();
    let mut measured = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match measure(i, p) {
            Ok(m) => measured.push(m),
            Err(why) => unusable.push(why),
        }
    }
    if measured.is_empty() {
        return Err(TwinError::NoUsablePoints { reasons: unusable });
    }
    let mut notes: Vec<String> = unusable.iter().map(ToString::to_string).collect();
    for m in &mut measured {
        m.recorded_arrivals = recorded_arrivals(m, requests);
    }
    let stated = limits.clone().or(ServingLimits::from_settings(
        &points[measured[0].index].settings,
    ));

    let mut scenarios: Vec<Scenario> = Vec::new();
    for (k, m) in measured.iter().enumerate() {
        match scenarios.iter_mut().find(|s| s.name == m.scenario) {
            Some(s) => s.members.push(k),
            None => scenarios.push(Scenario {
                name: m.scenario.clone(),
                members: vec![k],
                prompt_stated: true,
                prompt_mean: 0.0,
                unknown: None,
            }),
        }
    }
    let mut unknowns = 0;
    for s in &mut scenarios {
        let stated_means: Vec<f64> = s
            .members
            .iter()
            .filter_map(|&k| measured[k].prompt_tokens_mean)
            .collect();
        if stated_means.len() == s.members.len() {
            s.prompt_mean = stated_means.iter().sum::<f64>() / stated_means.len() as f64;
        } else {
            s.prompt_stated = false;
            s.prompt_mean = f64::from(ASSUMED_PROMPT_TOKENS);
            s.unknown = Some(unknowns);
            unknowns += 1;
        }
    }
    let scenario_of: Vec<usize> = (0..measured.len())
        .map(|k| {
            scenarios
                .iter()
                .position(|s| s.members.contains(&k))
                .expect("every point has a scenario")
        })
        .collect();
    let request_rows = request_rows(requests, &measured);

    // Step 1: least squares, re-solved while the effective prompt lengths settle.
    let mut theta = vec![0.0; SHARED + unknowns];
    for _ in 0..4 {
        let rows = equations(
            &measured,
            &scenarios,
            &scenario_of,
            &request_rows,
            options.expert_share,
        );
        theta = nonnegative_least_squares(&rows, SHARED + unknowns, 1e-6);
        settle_effective_prompts(&mut scenarios, &mut theta);
    }
    for (k, m) in measured.iter_mut().enumerate() {
        let s = &scenarios[scenario_of[k]];
        if !s.prompt_stated {
            m.workload.prompt_tokens = TokenLengths::fixed(s.prompt_mean.round().max(1.0) as u32);
        }
    }
    let step = StepCost {
        base_ms: theta[BASE],
        per_sequence_ms: theta[PER_SEQUENCE],
        per_context_token_us: theta[PER_CONTEXT] * 1000.0,
        per_prefill_token_us: theta[PER_PREFILL] * 1000.0,
        expert_fill_ms: theta[EXPERT],
        expert_share: options.expert_share.unwrap_or(0.0),
    };

    // Step 2: limits.
    let (max_running, max_running_source, running_note) = running_limit(&measured, &stated);
    notes.push(running_note);
    let fitted_range = fitted_range(&measured, &scenarios, &request_rows);
    let shapes: Vec<ScenarioShape> = scenarios
        .iter()
        .map(|s| {
            let first = &measured[s.members[0]];
            ScenarioShape {
                name: s.name.clone(),
                workload: first.workload.clone(),
                prompt_tokens_mean: s.prompt_mean,
                output_tokens_mean: s
                    .members
                    .iter()
                    .map(|&k| measured[k].output_tokens_mean)
                    .sum::<f64>()
                    / s.members.len() as f64,
                prompt_tokens_stated: s.prompt_stated,
                prompt_spread: None,
                points: s.members.len(),
            }
        })
        .collect();
    let base_model = TimingModel {
        step,
        request_overhead_ms: theta[OVERHEAD],
        limits: EngineLimits {
            max_running,
            max_running_source,
            kv_cache_tokens: stated.kv_cache_tokens,
            max_batched_tokens: stated
                .max_num_batched_tokens
                .map(|n| n.min(u64::from(u32::MAX)) as u32)
                .unwrap_or(DEFAULT_BATCHED_TOKENS_SMALL),
            max_batched_tokens_source: if stated.max_num_batched_tokens.is_some() {
                LimitSource::Stated
            } else {
                LimitSource::Assumed
            },
            prefill: match stated.chunked_prefill {
                Some(false) => PrefillScheduling::Separate,
                _ => PrefillScheduling::Chunked,
            },
            prefill_source: if stated.chunked_prefill.is_some() {
                LimitSource::Stated
            } else {
                LimitSource::Assumed
            },
        },
        scenarios: shapes,
        measured,
        fitted_range,
        fit_error_pct: None,
        notes,
    };
    let mut model = base_model;
    infer_prompt_spreads(&mut model, theta[OVERHEAD] + theta[BASE]);
    for s in &stated.sources {
        model.notes.push(format!("stated: {s}"));
    }
    Ok(finish(model, &stated, &request_rows, options))
}

/// Which column of the regression a point's prefill terms go to: the shared cost per token
/// (scenarios with stated prompts) or the scenario's own (effective prompts).
fn prefill_column(model: &TimingModel, m: &MeasuredPoint) -> usize {
    let mut unknown = 0;
    for s in &model.scenarios {
        if s.name == m.scenario {
            return if s.prompt_tokens_stated {
                PER_PREFILL
            } else {
                SHARED + unknown
            };
        }
        if !s.prompt_tokens_stated {
            unknown += 1;
        }
    }
    PER_PREFILL
}

/// Re-simulates every measured run of `model`.
fn rerun_all(model: &TimingModel, options: &FitOptions) -> Vec<RunStatistics> {
    model
        .measured
        .iter()
        .map(|m| rerun(model, m, options.calibration_requests, options.seed))
        .collect()
}

/// Mean absolute log-ratio of simulated to measured TTFT and TPOT p50/p95/p99: symmetric in
/// over- and under-prediction and blind to scale, so a 9 ms and a 9 s point weigh alike.
fn score(measured: &[MeasuredPoint], runs: &[RunStatistics]) -> f64 {
    let ratios: Vec<f64> = measured
        .iter()
        .zip(runs)
        .flat_map(|(m, r)| point_errors(m, r))
        .map(|(_, _, e)| (1.0 + e / 100.0).max(1e-3).ln().abs())
        .collect();
    if ratios.is_empty() {
        f64::INFINITY
    } else {
        ratios.iter().sum::<f64>() / ratios.len() as f64
    }
}

/// The regression rows of the simulated runs (module docs, step 3).
fn term_rows(
    model: &TimingModel,
    runs: &[RunStatistics],
    request_rows: &[RequestRow],
    width: usize,
) -> Vec<Row> {
    let mut rows = Vec::new();
    for (m, run) in model.measured.iter().zip(runs) {
        let prefill = prefill_column(model, m);
        let mut add = |terms: &StepTerms, overhead: f64, y: f64| {
            if !(y.is_finite() && y > 0.0) {
                return;
            }
            let weight = 1.0 / y;
            let mut x = vec![0.0; width];
            x[EXPERT] = terms[4];
            x[BASE] = terms[0];
            x[PER_SEQUENCE] = terms[1];
            x[PER_CONTEXT] = terms[2];
            x[prefill] = terms[3];
            x[OVERHEAD] = overhead;
            rows.push(Row { x, y, weight });
        };
        let as_mean = |mean: Option<f64>, p50: Option<f64>, sim_mean: f64, sim_p50: f64| {
            mean.or_else(|| {
                let p = p50?;
                Some(if sim_p50 > 0.0 {
                    p * sim_mean / sim_p50
                } else {
                    p
                })
            })
        };
        if let Some(y) = as_mean(
            m.tpot_ms.mean,
            m.tpot_ms.p50,
            run.tpot_mean_ms,
            run.tpot_ms.p50,
        ) {
            add(&run.tpot_terms_mean, 0.0, y);
        }
        if let Some(y) = as_mean(
            m.ttft_ms.mean,
            m.ttft_ms.p50,
            run.ttft_mean_ms,
            run.ttft_ms.p50,
        ) {
            add(&run.ttft_terms_mean, 1.0, y);
        }
    }
    let expert = Some(model.step.expert_share);
    for r in request_rows {
        rows.push(request_row(r, width, expert));
    }
    rows
}

/// The expert-read column of a step decoding `sequences` (0 without the term).
fn touched(share: Option<f64>, sequences: f64) -> f64 {
    share.map_or(0.0, |share| experts_touched(share, sequences))
}

/// One per-request TPOT equation.
fn request_row(r: &RequestRow, width: usize, expert: Option<f64>) -> Row {
    let mut x = vec![0.0; width];
    x[BASE] = 1.0;
    x[PER_SEQUENCE] = r.decoding;
    x[PER_CONTEXT] = r.context;
    x[PER_PREFILL] = r.prefill_tokens_per_step;
    x[EXPERT] = touched(expert, r.decoding);
    Row {
        x,
        y: r.tpot_ms,
        weight: r.weight,
    }
}

/// A model with the regression's parameters; effective prompt lengths re-derived so each
/// scenario keeps the prefill work per request the regression found.
fn apply(model: &TimingModel, theta: &[f64]) -> TimingModel {
    let mut next = model.clone();
    let stated_any = model.scenarios.iter().any(|s| s.prompt_tokens_stated);
    let mut work: Vec<(usize, f64)> = Vec::new();
    let mut unknown = 0;
    for (i, s) in model.scenarios.iter().enumerate() {
        if !s.prompt_tokens_stated {
            work.push((i, theta[SHARED + unknown] * s.prompt_tokens_mean));
            unknown += 1;
        }
    }
    let mut per_token = theta[PER_PREFILL];
    let shared_cost_known = stated_any && per_token > 0.0;
    if !(work.is_empty() || shared_cost_known) {
        per_token = work.iter().map(|(_, w)| w).sum::<f64>()
            / work.len() as f64
            / f64::from(ASSUMED_PROMPT_TOKENS);
    }
    next.step = StepCost {
        base_ms: theta[BASE],
        per_sequence_ms: theta[PER_SEQUENCE],
        per_context_token_us: theta[PER_CONTEXT] * 1000.0,
        per_prefill_token_us: per_token * 1000.0,
        expert_fill_ms: theta[EXPERT],
        ..model.step
    };
    next.request_overhead_ms = theta[OVERHEAD].min(overhead_ceiling(&model.measured));
    for (i, w) in work {
        let tokens = if per_token > 0.0 {
            (w / per_token).clamp(1.0, 1e6)
        } else {
            f64::from(ASSUMED_PROMPT_TOKENS)
        };
        set_effective_prompt(&mut next, i, tokens);
    }
    next
}

fn set_effective_prompt(model: &mut TimingModel, scenario: usize, tokens: f64) {
    let lengths = match &model.scenarios[scenario].prompt_spread {
        Some(spread) => TokenLengths::Quantiles {
            knots: spread
                .iter()
                .map(|&(q, r)| (q, (r * tokens).max(1.0)))
                .collect(),
        },
        None => TokenLengths::fixed(tokens.round().max(1.0) as u32),
    };
    let name = model.scenarios[scenario].name.clone();
    model.scenarios[scenario].prompt_tokens_mean = tokens;
    model.scenarios[scenario].workload.prompt_tokens = lengths.clone();
    for m in model.measured.iter_mut().filter(|m| m.scenario == name) {
        m.workload.prompt_tokens = lengths.clone();
    }
}

/// Prompt-length spread of scenarios without stated lengths, from their nearly idle point's
/// TTFT percentiles (see [`ScenarioShape::prompt_spread`]); `fixed_ms` is the time every TTFT
/// pays besides the prefill (overhead and a step's base).
fn infer_prompt_spreads(model: &mut TimingModel, fixed_ms: f64) {
    for i in 0..model.scenarios.len() {
        if model.scenarios[i].prompt_tokens_stated {
            continue;
        }
        let name = model.scenarios[i].name.clone();
        let idle = model
            .measured
            .iter()
            .filter(|m| m.scenario == name && m.mean_decoding <= 1.5)
            .min_by(|a, b| a.mean_decoding.total_cmp(&b.mean_decoding));
        let Some(m) = idle else { continue };
        let Some(p50) = m.ttft_ms.p50 else { continue };
        if p50 <= fixed_ms * 1.1 {
            continue;
        }
        let ratio = |v: f64| ((v - fixed_ms) / (p50 - fixed_ms)).max(0.05);
        let mut upper: Vec<(f64, f64)> = [
            (0.90, m.ttft_ms.p90),
            (0.95, m.ttft_ms.p95),
            (0.99, m.ttft_ms.p99),
        ]
        .into_iter()
        .filter_map(|(q, v)| v.map(|v| (q, ratio(v).max(1.0))))
        .collect();
        if upper.is_empty() {
            continue;
        }
        for k in 1..upper.len() {
            upper[k].1 = upper[k].1.max(upper[k - 1].1);
        }
        let top = upper[upper.len() - 1];
        let below = (2.0 - upper[0].1).max(0.05);
        let mut knots = vec![(0.0, below), (0.5, 1.0)];
        knots.extend(upper.iter().copied());
        knots.push((1.0, top.1 + (top.1 - 1.0) * 0.25));
        model.scenarios[i].prompt_spread = Some(knots);
        let tokens = model.scenarios[i].prompt_tokens_mean;
        set_effective_prompt(model, i, tokens);
    }
}

/// The regression parameters of a model (inverse of [`apply`]).
fn parameters(model: &TimingModel) -> Vec<f64> {
    let unknown = model
        .scenarios
        .iter()
        .filter(|s| !s.prompt_tokens_stated)
        .count();
    let mut theta = vec![0.0; SHARED + unknown];
    theta[BASE] = model.step.base_ms;
    theta[PER_SEQUENCE] = model.step.per_sequence_ms;
    theta[PER_CONTEXT] = model.step.per_context_token_us / 1000.0;
    theta[PER_PREFILL] = model.step.per_prefill_token_us / 1000.0;
    theta[OVERHEAD] = model.request_overhead_ms;
    theta[EXPERT] = model.step.expert_fill_ms;
    for u in 0..unknown {
        theta[SHARED + u] = theta[PER_PREFILL];
    }
    theta
}

/// Rounds of simulate → regress in the calibration.
const REFINE_ROUNDS: usize = 4;
/// Ways of scheduling prefill refined after the first comparison.
const REFINED_CANDIDATES: usize = 2;

/// Step 3 of the module docs (or the assumptions when calibration is off).
fn finish(
    model: TimingModel,
    stated: &ServingLimits,
    request_rows: &[RequestRow],
    options: &FitOptions,
) -> TimingModel {
    if !options.calibrate {
        let mut model = model;
        model.notes.push(format!(
            "prefill scheduling assumed: chunked, {} tokens per step (vLLM V1 default)",
            model.limits.max_batched_tokens
        ));
        note_effective_prompts(&mut model);
        return model;
    }
    let mut candidates: Vec<(PrefillScheduling, u32, LimitSource)> = Vec::new();
    let batched: Vec<(u32, LimitSource)> = match stated.max_num_batched_tokens {
        Some(n) => vec![(n.min(u64::from(u32::MAX)) as u32, LimitSource::Stated)],
        None => vec![
            (DEFAULT_BATCHED_TOKENS_SMALL, LimitSource::Inferred),
            (DEFAULT_BATCHED_TOKENS_LARGE, LimitSource::Inferred),
        ],
    };
    if stated.chunked_prefill != Some(false) {
        for &(n, source) in &batched {
            candidates.push((PrefillScheduling::Chunked, n, source));
        }
    }
    if stated.chunked_prefill != Some(true) {
        let n = stated
            .max_num_batched_tokens
            .map(|n| n.min(u64::from(u32::MAX)) as u32)
            .unwrap_or(DEFAULT_BATCHED_TOKENS_LARGE);
        candidates.push((PrefillScheduling::Separate, n, batched[0].1));
    }
    let width = parameters(&model).len();
    // Each way of scheduling prefill, with the analytic parameters and the overhead set from
    // the simulation of the light points.
    let mut starts: Vec<(f64, TimingModel, Vec<RunStatistics>)> = Vec::new();
    for (prefill, tokens, tokens_source) in candidates {
        let mut current = model.clone();
        current.limits.prefill = prefill;
        current.limits.max_batched_tokens = tokens;
        current.limits.max_batched_tokens_source = tokens_source;
        current.limits.prefill_source = if stated.chunked_prefill.is_some() {
            LimitSource::Stated
        } else {
            LimitSource::Inferred
        };
        current.request_overhead_ms = 0.0;
        let mut runs = rerun_all(&current, options);
        let overhead = overhead_from(&current.measured, &runs);
        current.request_overhead_ms = overhead;
        for run in &mut runs {
            run.add_overhead(overhead);
        }
        let value = score(&current.measured, &runs);
        starts.push((value, current, runs));
    }
    starts.sort_by(|a, b| a.0.total_cmp(&b.0));
    // The two most promising are refined: simulate, regress on the simulated step terms, and
    // walk towards the regression's answer as far as the simulation agrees.
    let mut best: Option<(f64, TimingModel, Vec<RunStatistics>)> = None;
    for (mut value, mut current, mut runs) in starts.into_iter().take(REFINED_CANDIDATES) {
        for _ in 0..REFINE_ROUNDS {
            let rows = term_rows(&current, &runs, request_rows, width);
            let proposed = nonnegative_least_squares(&rows, width, 1e-6);
            let here = parameters(&current);
            let mut improved = false;
            for step in [1.0, 0.5, 0.25] {
                let theta: Vec<f64> = here
                    .iter()
                    .zip(&proposed)
                    .map(|(h, p)| h + step * (p - h))
                    .collect();
                let trial = apply(&current, &theta);
                let trial_runs = rerun_all(&trial, options);
                let trial_value = score(&trial.measured, &trial_runs);
                if trial_value < value - 1e-4 {
                    current = trial;
                    runs = trial_runs;
                    value = trial_value;
                    improved = true;
                    break;
                }
            }
            if !improved {
                break;
            }
        }
        if best.as_ref().is_none_or(|(s, _, _)| value < *s) {
            best = Some((value, current, runs));
        }
    }
    let (_, mut chosen, runs) = best.expect("at least one candidate");
    chosen.fit_error_pct = median(
        chosen
            .measured
            .iter()
            .zip(&runs)
            .flat_map(|(m, r)| point_errors(m, r))
            .map(|(_, _, e)| e.abs())
            .collect(),
    );
    let how = match chosen.limits.prefill {
        PrefillScheduling::Chunked => format!(
            "chunked prefill, {} tokens per step",
            chosen.limits.max_batched_tokens
        ),
        PrefillScheduling::Separate => "separate prefill steps (vLLM V0)".to_string(),
    };
    chosen.notes.push(match chosen.limits.prefill_source {
        LimitSource::Stated => format!("prefill scheduling stated: {how}"),
        _ => format!("prefill scheduling inferred: {how} reproduces the measured points best"),
    });
    note_effective_prompts(&mut chosen);
    let prompts: Vec<f64> = chosen
        .scenarios
        .iter()
        .map(|s| s.prompt_tokens_mean)
        .collect();
    chosen.fitted_range.prompt_tokens_min = prompts.iter().copied().fold(f64::INFINITY, f64::min);
    chosen.fitted_range.prompt_tokens_max = prompts.iter().copied().fold(0.0, f64::max);
    chosen
}

fn note_effective_prompts(model: &mut TimingModel) {
    for s in model.scenarios.iter().filter(|s| !s.prompt_tokens_stated) {
        model.notes.push(format!(
            "{}: the files state no prompt lengths; prefill is fitted per request and its \
             prompts are taken as {:.0} effective tokens",
            s.name, s.prompt_tokens_mean
        ));
    }
}

/// The request overhead cannot exceed the fastest TTFT measured: it is paid by every request.
fn overhead_ceiling(measured: &[MeasuredPoint]) -> f64 {
    measured
        .iter()
        .filter_map(|m| m.ttft_ms.min.or(m.ttft_ms.p50).or(m.ttft_ms.mean))
        .fold(f64::INFINITY, f64::min)
}

/// The overhead that makes the light points' simulated TTFT p50 meet the measured one.
fn overhead_from(measured: &[MeasuredPoint], runs: &[RunStatistics]) -> f64 {
    let lightest = measured
        .iter()
        .filter_map(|m| m.ttft_ms.p50)
        .fold(f64::INFINITY, f64::min);
    let residuals: Vec<f64> = measured
        .iter()
        .zip(runs)
        .filter_map(|(m, r)| {
            let p50 = m.ttft_ms.p50?;
            (p50 <= 2.0 * lightest).then_some(p50 - r.ttft_ms.p50)
        })
        .collect();
    median(residuals).unwrap_or(0.0).max(0.0)
}

/// The median, or `None` for no values.
pub(crate) fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return None;
    }
    values.sort_unstable_by(f64::total_cmp);
    crate::stats::quantile_sorted(&values, 0.5)
}

/// Signed percentage errors of a simulated run against a measured point: (metric, percentile,
/// error %) for TTFT and TPOT at p50, p95 and p99 where the file reports them.
pub(crate) fn point_errors(
    m: &MeasuredPoint,
    run: &RunStatistics,
) -> Vec<(&'static str, Statistic, f64)> {
    let mut out = Vec::new();
    for (metric, measured, simulated) in [
        ("ttft_ms", &m.ttft_ms, &run.ttft_ms),
        ("tpot_ms", &m.tpot_ms, &run.tpot_ms),
    ] {
        for statistic in [Statistic::P50, Statistic::P95, Statistic::P99] {
            if let (Some(meas), Some(sim)) = (measured.get(statistic), simulated.get(statistic))
                && meas > 0.0
            {
                out.push((metric, statistic, (sim - meas) / meas * 100.0));
            }
        }
    }
    out
}

/// Re-simulates a measured run with `model`: its arrival process, its number of requests
/// (at most `cap` when below saturation; runs beyond it whole, up to [`MAX_RUN_REQUESTS`]) and
/// its token shape, counted the way its load generator counted.
pub fn rerun(model: &TimingModel, m: &MeasuredPoint, cap: usize, seed: u64) -> RunStatistics {
    let (requests, window) = match m.arrivals {
        ArrivalProcess::ClosedLoop { concurrency } => {
            let n = concurrency as usize;
            if m.stops_at_duration {
                let counted = m.requests.clamp(1, MAX_RUN_REQUESTS);
                (counted + n, Window::FirstCompleted(counted))
            } else {
                (m.requests.min(cap.max(3 * n)).max(1), Window::All)
            }
        }
        ArrivalProcess::Poisson { rate_per_s } => {
            let saturation = model.saturation_rate_for(&m.workload);
            let n = if rate_per_s < 0.9 * saturation {
                m.requests.min(cap)
            } else {
                m.requests.min(MAX_RUN_REQUESTS)
            };
            (n.max(1), Window::All)
        }
        _ => (m.requests.clamp(1, MAX_RUN_REQUESTS), Window::All),
    };
    if let Some(recorded) = &m.recorded_arrivals {
        let replay = ArrivalProcess::Replay {
            requests: recorded.clone(),
        };
        let simulation = simulate(
            model,
            &replay,
            &m.workload,
            &SimulationOptions {
                requests: recorded.len(),
                seed,
            },
        );
        return RunStatistics::of(&simulation, Window::All);
    }
    let simulation = simulate(
        model,
        &m.arrivals,
        &m.workload,
        &SimulationOptions { requests, seed },
    );
    RunStatistics::of(&simulation, window)
}

fn context_per_sequence(m: &MeasuredPoint, prompt_mean: f64) -> f64 {
    let out = &m.workload.output_tokens;
    let mean = out.mean().max(1.0);
    prompt_mean + out.second_moment() / (2.0 * mean)
}

fn equations(
    measured: &[MeasuredPoint],
    scenarios: &[Scenario],
    scenario_of: &[usize],
    request_rows: &[RequestRow],
    expert: Option<f64>,
) -> Vec<Row> {
    let unknowns = scenarios.iter().filter(|s| s.unknown.is_some()).count();
    let width = SHARED + unknowns;
    let mut rows = Vec::new();
    for (k, m) in measured.iter().enumerate() {
        let s = &scenarios[scenario_of[k]];
        let decoding = m.mean_decoding;
        let context = decoding * context_per_sequence(m, s.prompt_mean);
        let prompts_per_step = m.request_throughput_per_s * m.tpot_fit_ms / 1000.0;
        let mut x = vec![0.0; width];
        x[BASE] = 1.0;
        x[PER_SEQUENCE] = decoding;
        x[PER_CONTEXT] = context;
        match s.unknown {
            None => x[PER_PREFILL] = s.prompt_mean * prompts_per_step,
            Some(u) => x[SHARED + u] = prompts_per_step,
        }
        x[EXPERT] = touched(expert, decoding);
        rows.push(Row {
            x,
            y: m.tpot_fit_ms,
            weight: 1.0 / m.tpot_fit_ms,
        });
    }
    for (si, s) in scenarios.iter().enumerate() {
        let lightest = s
            .members
            .iter()
            .copied()
            .filter(|&k| {
                measured[k]
                    .ttft_ms
                    .p50
                    .or(measured[k].ttft_ms.mean)
                    .is_some()
            })
            .min_by(|&a, &b| {
                measured[a]
                    .mean_decoding
                    .total_cmp(&measured[b].mean_decoding)
            });
        let Some(k) = lightest else { continue };
        debug_assert_eq!(scenario_of[k], si);
        let m = &measured[k];
        let ttft = m.ttft_ms.p50.or(m.ttft_ms.mean).expect("filtered");
        let (others, prompts) = match m.arrivals {
            ArrivalProcess::ClosedLoop { concurrency } => {
                let n = f64::from(concurrency.max(1));
                (m.mean_decoding * (n - 1.0) / n, 1.0)
            }
            ArrivalProcess::Burst => (0.0, m.requests as f64),
            _ => (m.mean_decoding, 1.0),
        };
        if prompts * s.prompt_mean > f64::from(DEFAULT_BATCHED_TOKENS_LARGE) * 2.0 {
            continue;
        }
        let waiting = 0.5 * m.tpot_fit_ms * others.min(1.0);
        let mut x = vec![0.0; width];
        x[BASE] = 1.0;
        x[PER_SEQUENCE] = others;
        x[PER_CONTEXT] = others * context_per_sequence(m, s.prompt_mean);
        x[OVERHEAD] = 1.0;
        match s.unknown {
            None => x[PER_PREFILL] = s.prompt_mean * prompts,
            Some(u) => x[SHARED + u] = prompts,
        }
        x[EXPERT] = touched(expert, others);
        rows.push(Row {
            x,
            y: (ttft - waiting).max(0.0),
            weight: 1.0 / ttft.max(1e-3),
        });
    }
    for r in request_rows {
        rows.push(request_row(r, width, expert));
    }
    rows
}

/// Effective prompt lengths of scenarios without stated ones (module docs).
fn settle_effective_prompts(scenarios: &mut [Scenario], theta: &mut [f64]) {
    let unknown: Vec<(usize, f64)> = scenarios
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.unknown.map(|u| (i, theta[SHARED + u])))
        .collect();
    if unknown.is_empty() {
        return;
    }
    let stated_any = scenarios.iter().any(|s| s.prompt_stated);
    let mut per_token = theta[PER_PREFILL];
    if !(stated_any && per_token > 0.0) {
        let mean_work = unknown.iter().map(|(_, w)| w).sum::<f64>() / unknown.len() as f64;
        per_token = mean_work / f64::from(ASSUMED_PROMPT_TOKENS);
        theta[PER_PREFILL] = per_token;
    }
    for (i, work) in unknown {
        scenarios[i].prompt_mean = if per_token > 0.0 {
            (work / per_token).clamp(1.0, 1e6)
        } else {
            f64::from(ASSUMED_PROMPT_TOKENS)
        };
    }
}

/// Per-request TPOT equations from records with start, TTFT and E2E times (module docs).
fn request_rows(requests: &[RequestRecord], measured: &[MeasuredPoint]) -> Vec<RequestRow> {
    const MOST_PER_POINT: usize = 1500;
    let mut rows = Vec::new();
    for m in measured {
        let burst = matches!(m.arrivals, ArrivalProcess::Burst);
        // (start, first token, end, prompt, output, tpot) in ms.
        let mut spans: Vec<(f64, f64, f64, f64, f64, f64)> = requests
            .iter()
            .filter(|r| r.point == m.index && r.error.is_none())
            .filter_map(|r| {
                let start = r.start_s.map(|s| s * 1000.0).or(burst.then_some(0.0))?;
                let ttft = r.ttft_ms?;
                let e2e = r.e2e_ms?;
                let out = r.output_tokens? as f64;
                let prompt = r.input_tokens? as f64;
                (out >= 2.0 && e2e > ttft).then_some((
                    start,
                    start + ttft,
                    start + e2e,
                    prompt,
                    out,
                    (e2e - ttft) / (out - 1.0),
                ))
            })
            .collect();
        if spans.len() < 2 {
            continue;
        }
        if spans.len() > MOST_PER_POINT {
            let stride = spans.len() as f64 / MOST_PER_POINT as f64;
            spans = (0..MOST_PER_POINT)
                .map(|i| spans[(i as f64 * stride) as usize])
                .collect();
        }
        let weight_each = (3.0 / spans.len() as f64).sqrt() / m.tpot_fit_ms;
        for &(_, from, to, _, out, tpot) in &spans {
            let length = to - from;
            let mut decoding = 0.0;
            let mut context = 0.0;
            let mut prefill = 0.0;
            for &(_, f, e, p, o, _) in &spans {
                let overlap = (to.min(e) - from.max(f)).max(0.0) / length;
                decoding += overlap;
                context += overlap * (p + o / 2.0);
                if f > from && f <= to {
                    prefill += p;
                }
            }
            rows.push(RequestRow {
                decoding,
                context,
                prefill_tokens_per_step: prefill / (out - 1.0),
                tpot_ms: tpot,
                weight: weight_each,
            });
        }
    }
    rows
}

/// Step 2 of the module docs: the running limit and a sentence saying where it came from.
fn running_limit(measured: &[MeasuredPoint], stated: &ServingLimits) -> (u32, LimitSource, String) {
    if let Some(n) = stated.max_num_seqs {
        let n = n.clamp(1, u64::from(u32::MAX)) as u32;
        return (n, LimitSource::Stated, format!("max_num_seqs stated: {n}"));
    }
    let lightest_ttft = measured
        .iter()
        .filter_map(|m| m.ttft_ms.p50)
        .fold(f64::INFINITY, f64::min);
    let saturated = measured
        .iter()
        .filter(|m| {
            m.mean_in_flight > 1.3 * m.mean_decoding + 2.0
                && m.ttft_ms.p50.is_some_and(|t| t > 4.0 * lightest_ttft)
        })
        .max_by(|a, b| a.mean_decoding.total_cmp(&b.mean_decoding));
    if let Some(m) = saturated {
        let n = (m.mean_decoding * 1.05).ceil().max(1.0) as u32;
        return (
            n,
            LimitSource::Inferred,
            format!(
                "running limit inferred: about {n} sequences ({} held {:.0} decoding on average \
                 with {:.0} in flight)",
                m.load_label(),
                m.mean_decoding,
                m.mean_in_flight
            ),
        );
    }
    let seen = measured
        .iter()
        .map(|m| m.mean_decoding)
        .fold(0.0_f64, f64::max);
    let n = DEFAULT_MAX_NUM_SEQS.max((seen * 1.1).ceil() as u32);
    (
        n,
        LimitSource::Assumed,
        format!(
            "running limit assumed: {n} sequences (vLLM's default max_num_seqs; no measured point \
             saturated and no start-up log or run context states it)"
        ),
    )
}

fn fitted_range(
    measured: &[MeasuredPoint],
    scenarios: &[Scenario],
    request_rows: &[RequestRow],
) -> FittedRange {
    let decoding = measured
        .iter()
        .map(|m| m.mean_decoding)
        .chain(request_rows.iter().map(|r| r.decoding));
    let prompts = scenarios.iter().map(|s| s.prompt_mean);
    let outputs = measured.iter().map(|m| m.output_tokens_mean);
    let min = |it: &mut dyn Iterator<Item = f64>| it.fold(f64::INFINITY, f64::min);
    let max = |it: &mut dyn Iterator<Item = f64>| it.fold(f64::NEG_INFINITY, f64::max);
    FittedRange {
        decoding_min: min(&mut decoding.clone()),
        decoding_max: max(&mut decoding.clone()),
        in_flight_max: max(&mut measured.iter().map(|m| m.mean_in_flight)),
        concurrency_max: measured.iter().filter_map(|m| m.concurrency()).max(),
        rate_max_per_s: measured
            .iter()
            .filter_map(|m| m.rate_per_s())
            .max_by(f64::total_cmp),
        prompt_tokens_min: min(&mut prompts.clone()),
        prompt_tokens_max: max(&mut prompts.clone()),
        output_tokens_min: min(&mut outputs.clone()),
        output_tokens_max: max(&mut outputs.clone()),
    }
}
