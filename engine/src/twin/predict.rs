//! The prediction: latency percentiles and throughput at an asked operating point, each number
//! labelled with how it was obtained.
//!
//! **Basis rules** (one label per prediction, [`Basis`]):
//!
//! * **measured** — the asked point was measured: the same arrival process (same concurrency;
//!   a rate within 5 %; a burst of the same size) and the same token shape (the scenario's own
//!   lengths, or asked lengths within 10 % of the point's means). The file's percentiles and
//!   throughput are returned; a percentile the file does not report (vLLM writes no p90/p95 by
//!   default) is filled from re-simulating that run and listed in
//!   [`Prediction::filled_by_simulation`].
//! * **simulated** — inside the fitted range: the simulated mean decoding batch lies between half
//!   the lightest and 1.25 × the heaviest measured one, the token shape within a factor of two of
//!   the measured ones, the rate below saturation, and at least two load levels were measured.
//! * **estimated** — anything else, with a warning per reason: a rate at or above the
//!   saturation rate (the queue grows without bound; the percentiles then depend on how long the
//!   overload lasts), a batch beyond or far below the measured ones, token shapes far outside,
//!   prompt lengths asked of a model whose files stated none, a single measured load level, or a
//!   running limit that is only assumed and that the simulation reached.
//!
//! **Steady state.** A Poisson or closed-loop prediction simulates [`DEFAULT_REQUESTS`] requests
//! (at least 10 per user) and leaves out the first tenth of the run (the start-up transient:
//! a closed loop's users all start at once). Bursts and replays are reported whole.

use super::arrivals::{ArrivalProcess, ArrivalSummary};
use super::backtest::Backtest;
use super::fit::rerun;
use super::simulate::{SimulationOptions, simulate};
use super::statistics::{Percentiles, RunStatistics, Window};
use super::timing::{EngineLimits, LimitSource, StepCost, TimingModel};
use super::workload::{LengthSummary, TokenLengths, Workload};
use crate::locale::Lang;
use crate::plan::Statistic;
use serde::{Deserialize, Serialize};

/// Requests simulated for a prediction unless asked otherwise.
pub const DEFAULT_REQUESTS: usize = 5000;

/// How a prediction's numbers were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Read from a load test at this very operating point.
    Measured,
    /// Simulated inside the range the load tests cover.
    Simulated,
    /// Simulated beyond the evidence (extrapolated); see the warnings.
    Estimated,
}

impl Basis {
    /// `Measured`, `Simulated`, `Estimated`.
    pub fn label(self) -> &'static str {
        match self {
            Basis::Measured => "Measured",
            Basis::Simulated => "Simulated",
            Basis::Estimated => "Estimated",
        }
    }
}

/// What is asked of the twin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub arrivals: ArrivalProcess,
    /// Every prompt this long; `None`: the measured scenario's lengths.
    pub prompt_tokens: Option<u32>,
    /// Every answer this long; `None`: the measured scenario's lengths.
    pub output_tokens: Option<u32>,
    /// Which measured scenario's lengths to use (name, or a part of it); `None`: the one with
    /// the most points.
    pub scenario: Option<String>,
    /// Requests to simulate; `None`: [`DEFAULT_REQUESTS`] (a replay: all of it).
    pub requests: Option<usize>,
    pub seed: u64,
}

impl Question {
    /// Closed loop at `concurrency` with the measured lengths.
    pub fn concurrency(concurrency: u32) -> Self {
        Question::new(ArrivalProcess::ClosedLoop { concurrency })
    }

    /// Poisson arrivals at `rate_per_s` with the measured lengths.
    pub fn rate(rate_per_s: f64) -> Self {
        Question::new(ArrivalProcess::Poisson { rate_per_s })
    }

    /// `arrivals` with the measured lengths, default size and seed 1.
    pub fn new(arrivals: ArrivalProcess) -> Self {
        Question {
            arrivals,
            prompt_tokens: None,
            output_tokens: None,
            scenario: None,
            requests: None,
            seed: 1,
        }
    }
}

/// A prediction (field names as the issue states them; additions after `warnings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Prediction {
    pub ttft_ms: Percentiles,
    pub tpot_ms: Percentiles,
    pub itl_ms: Percentiles,
    pub e2e_ms: Percentiles,
    pub request_throughput_per_s: f64,
    pub output_tokens_per_s: f64,
    /// Arrival rate beyond which the queue grows without bound, at the asked token shape.
    pub saturation_rate_per_s: f64,
    pub basis: Basis,
    pub backtest: Backtest,
    pub warnings: Vec<String>,
    /// The asked arrival process, for people.
    pub arrivals: String,
    pub concurrency: Option<u32>,
    pub rate_per_s: Option<f64>,
    /// The scenario whose lengths were used (when any were).
    pub scenario: Option<String>,
    pub prompt_tokens: String,
    pub output_tokens: String,
    pub prompt_tokens_mean: f64,
    pub output_tokens_mean: f64,
    /// Mean requests in the system (waiting or running) in the simulation.
    pub mean_in_flight: f64,
    /// Mean sequences decoding per step in the simulation.
    pub mean_decoding_batch: f64,
    pub requests_simulated: usize,
    /// With basis `measured`: the point read.
    pub measured_source: Option<String>,
    /// With basis `measured`: fields the file does not report, filled from the simulation
    /// (`ttft_ms.p90`).
    pub filled_by_simulation: Vec<String>,
    /// The fitted model behind the numbers.
    pub step: StepCost,
    pub request_overhead_ms: f64,
    pub limits: EngineLimits,
    /// The asked arrival process, as [`Prediction::arrivals`] words it, kept to word it again
    /// in another language ([`Prediction::arrivals_in`]).
    #[serde(default)]
    pub arrival_process: ArrivalSummary,
    /// The prompt and answer shapes behind [`Prediction::prompt_tokens`] and
    /// [`Prediction::output_tokens`] ([`Prediction::token_shapes_in`]).
    #[serde(default)]
    pub prompt_shape: LengthSummary,
    #[serde(default)]
    pub output_shape: LengthSummary,
}

impl Prediction {
    /// [`Prediction::arrivals`] in `lang`.
    pub fn arrivals_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.arrivals.clone(),
            lang => self.arrival_process.describe_in(lang),
        }
    }

    /// [`Prediction::prompt_tokens`] and [`Prediction::output_tokens`] in `lang`.
    pub fn token_shapes_in(&self, lang: Lang) -> (String, String) {
        match lang {
            Lang::En => (self.prompt_tokens.clone(), self.output_tokens.clone()),
            lang => (
                self.prompt_shape.describe_in(lang),
                self.output_shape.describe_in(lang),
            ),
        }
    }

    /// The basis of one figure (`field` as `ttft_ms`, `percentile` as `p90`): the prediction's,
    /// except a percentile a Measured point's file does not report, which the simulation
    /// filled in and which is therefore Simulated.
    pub fn figure_basis(&self, field: &str, percentile: &str) -> Basis {
        if self.basis == Basis::Measured
            && self
                .filled_by_simulation
                .iter()
                .any(|f| f.as_str() == format!("{field}.{percentile}"))
        {
            Basis::Simulated
        } else {
            self.basis
        }
    }

    /// [`Prediction::warnings`] in `lang`. The notes the twin words itself (percentiles the
    /// file does not report, the scenario whose lengths are used, prompt lengths inferred from
    /// TTFT) are rebuilt in `lang` from their parts, each only when the stored note is exactly
    /// that note's English; any other warning stays as recorded.
    pub fn warnings_in(&self, lang: Lang) -> Vec<String> {
        self.warnings
            .iter()
            .map(|warning| match lang {
                Lang::En => warning.clone(),
                lang => self
                    .note_in(warning, lang)
                    .unwrap_or_else(|| warning.clone()),
            })
            .collect()
    }

    fn note_in(&self, warning: &str, lang: Lang) -> Option<String> {
        if *warning == not_reported_note(&self.filled_by_simulation, Lang::En) {
            return Some(not_reported_note(&self.filled_by_simulation, lang));
        }
        if let Some(rest) = warning.strip_prefix("the load tests hold ")
            && let Some((count, rest)) = rest.split_once(" scenarios; the lengths of \"")
            && let Some(name) = rest.strip_suffix("\" are used")
            && let Ok(count) = count.parse::<usize>()
            && *warning == scenario_note(count, name, Lang::En)
        {
            return Some(scenario_note(count, name, lang));
        }
        if let Some(rest) = warning.strip_prefix("the load tests state no prompt lengths for \"")
            && let Some((name, rest)) = rest.split_once("\": its prompts are ")
            && let Some((tokens, _)) = rest.split_once(' ')
            && let Ok(tokens) = tokens.parse::<f64>()
            && *warning == inferred_prompts_note(name, tokens, Lang::En)
        {
            return Some(inferred_prompts_note(name, tokens, lang));
        }
        None
    }
}

/// The note on percentiles a measured point's file does not report (`ttft_ms.p90`).
fn not_reported_note(filled: &[String], lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "the file does not report {}; those are simulated",
            filled.join(", ")
        ),
        Lang::De => format!(
            "die Datei nennt {} nicht; diese Werte sind simuliert",
            filled.join(", ")
        ),
    }
}

/// The note on which of several scenarios lends its token lengths.
fn scenario_note(count: usize, name: &str, lang: Lang) -> String {
    match lang {
        Lang::En => {
            format!("the load tests hold {count} scenarios; the lengths of \"{name}\" are used")
        }
        Lang::De => format!(
            "die Lasttests enthalten {} Szenarien; verwendet werden die Längen von „{name}“",
            Lang::De.number(count as f64, 0)
        ),
    }
}

/// The note on prompt lengths inferred from the measured TTFT.
fn inferred_prompts_note(name: &str, tokens: f64, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "the load tests state no prompt lengths for \"{name}\": its prompts are {tokens:.0} \
             effective tokens (the length whose prefill cost matches the measured TTFT)"
        ),
        Lang::De => format!(
            "die Lasttests nennen für „{name}“ keine Prompt-Längen: Seine Prompts zählen {} \
             effektive Token (die Länge, deren Prefill-Kosten zur gemessenen TTFT passen)",
            Lang::De.number(tokens, 0)
        ),
    }
}

/// Predicts with the model alone (the back-test is left empty: see [`super::Twin`] for both).
pub fn predict(model: &TimingModel, question: &Question) -> Prediction {
    predict_with(model, &Backtest::not_run("not run"), question)
}

fn pick_scenario<'a>(
    model: &'a TimingModel,
    asked: Option<&str>,
    warnings: &mut Vec<String>,
) -> Option<&'a super::timing::ScenarioShape> {
    if let Some(name) = asked {
        let lower = name.to_lowercase();
        if let Some(s) = model.scenarios.iter().find(|s| s.name == name).or_else(|| {
            model
                .scenarios
                .iter()
                .find(|s| s.name.to_lowercase().contains(&lower))
        }) {
            return Some(s);
        }
        warnings.push(format!(
            "no measured scenario matches \"{name}\"; using the one with the most points"
        ));
    }
    let chosen = model
        .scenarios
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.points.cmp(&b.points).then(j.cmp(i)))
        .map(|(_, s)| s);
    if model.scenarios.len() > 1
        && let Some(s) = chosen
    {
        warnings.push(scenario_note(model.scenarios.len(), &s.name, Lang::En));
    }
    chosen
}

/// [`predict`] carrying a back-test into the prediction.
pub fn predict_with(model: &TimingModel, backtest: &Backtest, question: &Question) -> Prediction {
    let mut warnings = Vec::new();
    let needs_shape = question.prompt_tokens.is_none() || question.output_tokens.is_none();
    let shape = if needs_shape {
        pick_scenario(model, question.scenario.as_deref(), &mut warnings)
    } else {
        None
    };
    let measured_workload = shape
        .map(|s| s.workload.clone())
        .unwrap_or_else(|| Workload::fixed(super::fit::ASSUMED_PROMPT_TOKENS, 256));
    let workload = Workload {
        prompt_tokens: question
            .prompt_tokens
            .map(TokenLengths::fixed)
            .unwrap_or(measured_workload.prompt_tokens),
        output_tokens: question
            .output_tokens
            .map(TokenLengths::fixed)
            .unwrap_or(measured_workload.output_tokens),
    };
    let prompt_mean = match &question.arrivals {
        ArrivalProcess::Replay { requests } if !requests.is_empty() => {
            requests
                .iter()
                .map(|r| f64::from(r.prompt_tokens))
                .sum::<f64>()
                / requests.len() as f64
        }
        _ => workload.prompt_tokens.mean(),
    };
    let output_mean = match &question.arrivals {
        ArrivalProcess::Replay { requests } if !requests.is_empty() => {
            requests
                .iter()
                .map(|r| f64::from(r.output_tokens))
                .sum::<f64>()
                / requests.len() as f64
        }
        _ => workload.output_tokens.mean(),
    };
    let saturation = model.saturation_rate_per_s(prompt_mean, output_mean);

    let (requests, steady) = match &question.arrivals {
        ArrivalProcess::Replay { requests } => (question.requests.unwrap_or(requests.len()), false),
        ArrivalProcess::Burst => (question.requests.unwrap_or(DEFAULT_REQUESTS), false),
        ArrivalProcess::ClosedLoop { concurrency } => (
            question
                .requests
                .unwrap_or(DEFAULT_REQUESTS.max(10 * *concurrency as usize)),
            true,
        ),
        ArrivalProcess::Poisson { .. } => (question.requests.unwrap_or(DEFAULT_REQUESTS), true),
    };
    let simulation = simulate(
        model,
        &question.arrivals,
        &workload,
        &SimulationOptions {
            requests: requests.max(1),
            seed: question.seed,
        },
    );
    let window = if steady && simulation.requests.len() >= 20 {
        let mut arrivals: Vec<f64> = simulation.requests.iter().map(|r| r.arrival_ms).collect();
        arrivals.sort_unstable_by(f64::total_cmp);
        Window::ArrivedFrom(arrivals[arrivals.len() / 10])
    } else {
        Window::All
    };
    let stats = RunStatistics::of(&simulation, window);
    if simulation.rejected > 0 {
        warnings.push(format!(
            "{} requests cannot fit the KV cache at all (prompt + answer above {} tokens) and were left out",
            simulation.rejected,
            model.limits.kv_cache_tokens.unwrap_or(0)
        ));
    }
    if simulation.preemptions > 0 {
        warnings.push(format!(
            "the KV cache ran full: {} preemptions (recomputed) in the simulation",
            simulation.preemptions
        ));
    }

    let (prompt_shape, output_shape) = match &question.arrivals {
        ArrivalProcess::Replay { .. } => (
            LengthSummary::AsLogged { mean: prompt_mean },
            LengthSummary::AsLogged { mean: output_mean },
        ),
        _ => (
            workload.prompt_tokens.summary(),
            workload.output_tokens.summary(),
        ),
    };
    let mut prediction = Prediction {
        ttft_ms: stats.ttft_ms,
        tpot_ms: stats.tpot_ms,
        itl_ms: stats.itl_ms,
        e2e_ms: stats.e2e_ms,
        request_throughput_per_s: stats.request_throughput_per_s,
        output_tokens_per_s: stats.output_tokens_per_s,
        saturation_rate_per_s: saturation,
        basis: Basis::Simulated,
        backtest: backtest.clone(),
        warnings: Vec::new(),
        arrivals: question.arrivals.describe(),
        arrival_process: question.arrivals.summary(),
        prompt_shape,
        output_shape,
        concurrency: match question.arrivals {
            ArrivalProcess::ClosedLoop { concurrency } => Some(concurrency),
            _ => None,
        },
        rate_per_s: match question.arrivals {
            ArrivalProcess::Poisson { rate_per_s } => Some(rate_per_s),
            _ => None,
        },
        scenario: shape.map(|s| s.name.clone()),
        prompt_tokens: prompt_shape.describe_in(Lang::En),
        output_tokens: output_shape.describe_in(Lang::En),
        prompt_tokens_mean: prompt_mean,
        output_tokens_mean: output_mean,
        mean_in_flight: simulation.mean_in_system,
        mean_decoding_batch: simulation.mean_decoding,
        requests_simulated: simulation.requests.len(),
        measured_source: None,
        filled_by_simulation: Vec::new(),
        step: model.step,
        request_overhead_ms: model.request_overhead_ms,
        limits: model.limits.clone(),
    };

    if let Some(m) = measured_match(model, question, shape.map(|s| s.name.as_str())) {
        use_measured(model, m, &mut prediction);
    } else {
        let reasons = extrapolation(
            model,
            question,
            &simulation,
            prompt_mean,
            output_mean,
            saturation,
        );
        if !reasons.is_empty() {
            prediction.basis = Basis::Estimated;
            warnings.extend(reasons);
        }
    }
    if let Some(s) = shape.filter(|s| !s.prompt_tokens_stated && question.prompt_tokens.is_none()) {
        warnings.push(inferred_prompts_note(
            &s.name,
            s.prompt_tokens_mean,
            Lang::En,
        ));
    }
    warnings.append(&mut prediction.warnings);
    prediction.warnings = warnings;
    prediction
}

/// The measured point the question asks for, if one was measured (module docs).
fn measured_match<'a>(
    model: &'a TimingModel,
    question: &Question,
    scenario: Option<&str>,
) -> Option<&'a super::evidence::MeasuredPoint> {
    let close = |asked: f64, measured: f64, tolerance: f64| {
        measured > 0.0 && ((asked - measured) / measured).abs() <= tolerance
    };
    model.measured.iter().find(|m| {
        let same_load = match (&question.arrivals, &m.arrivals) {
            (
                ArrivalProcess::ClosedLoop { concurrency: a },
                ArrivalProcess::ClosedLoop { concurrency: b },
            ) => a == b,
            (
                ArrivalProcess::Poisson { rate_per_s: a },
                ArrivalProcess::Poisson { rate_per_s: b },
            ) => close(*a, *b, 0.05),
            (ArrivalProcess::Burst, ArrivalProcess::Burst) => {
                question.requests.is_none_or(|n| n == m.requests)
            }
            _ => false,
        };
        let same_prompt = match question.prompt_tokens {
            None => scenario.is_some_and(|s| s == m.scenario),
            Some(p) => m
                .prompt_tokens_mean
                .is_some_and(|mp| close(f64::from(p), mp, 0.10)),
        };
        let same_output = match question.output_tokens {
            None => scenario.is_some_and(|s| s == m.scenario),
            Some(o) => close(f64::from(o), m.output_tokens_mean, 0.10),
        };
        same_load && same_prompt && same_output
    })
}

fn use_measured(
    model: &TimingModel,
    m: &super::evidence::MeasuredPoint,
    prediction: &mut Prediction,
) {
    let run = rerun(model, m, super::fit::MAX_RUN_REQUESTS, 1);
    let mut filled = Vec::new();
    let mut take = |name: &str,
                    reported: &super::evidence::ReportedPercentiles,
                    simulated: &Percentiles|
     -> Percentiles {
        // Reported values as they are; a missing one from the simulation, kept between its
        // reported neighbours so the percentiles still rise.
        let labels = [
            Statistic::P50,
            Statistic::P90,
            Statistic::P95,
            Statistic::P99,
        ];
        let mut out = *simulated;
        for (i, &label) in labels.iter().enumerate() {
            match reported.get(label) {
                Some(v) => out.set(label, v),
                None => {
                    filled.push(format!("{name}.{label}"));
                    let below = labels[..i]
                        .iter()
                        .rev()
                        .find_map(|&l| reported.get(l))
                        .unwrap_or(f64::NEG_INFINITY);
                    let above = labels[i + 1..]
                        .iter()
                        .find_map(|&l| reported.get(l))
                        .unwrap_or(f64::INFINITY);
                    let v = out.get(label).unwrap_or(0.0);
                    out.set(label, v.clamp(below.min(above), above.max(below)));
                }
            }
        }
        for i in 1..labels.len() {
            let previous = out.get(labels[i - 1]).unwrap_or(0.0);
            if out.get(labels[i]).unwrap_or(0.0) < previous {
                out.set(labels[i], previous);
            }
        }
        out
    };
    prediction.ttft_ms = take("ttft_ms", &m.ttft_ms, &run.ttft_ms);
    prediction.tpot_ms = take("tpot_ms", &m.tpot_ms, &run.tpot_ms);
    prediction.itl_ms = take("itl_ms", &m.itl_ms, &run.itl_ms);
    prediction.e2e_ms = take("e2e_ms", &m.e2e_ms, &run.e2e_ms);
    prediction.request_throughput_per_s = m.request_throughput_per_s;
    prediction.output_tokens_per_s = m
        .output_tokens_per_s
        .unwrap_or(m.request_throughput_per_s * m.output_tokens_mean);
    prediction.basis = Basis::Measured;
    prediction.measured_source = Some(m.source.clone());
    if !filled.is_empty() {
        prediction
            .warnings
            .push(not_reported_note(&filled, Lang::En));
    }
    prediction.filled_by_simulation = filled;
}

/// Why a prediction extrapolates (empty: it does not).
fn extrapolation(
    model: &TimingModel,
    question: &Question,
    simulation: &super::simulate::Simulation,
    prompt_mean: f64,
    output_mean: f64,
    saturation: f64,
) -> Vec<String> {
    let mut reasons = Vec::new();
    let range = &model.fitted_range;
    if let ArrivalProcess::Poisson { rate_per_s } = question.arrivals
        && rate_per_s >= saturation
    {
        reasons.push(format!(
            "the rate {rate_per_s} req/s is at or above the saturation rate {saturation:.2} req/s: \
             the queue grows without bound, and the percentiles grow with how long the overload \
             lasts ({} requests simulated)",
            simulation.requests.len()
        ));
    }
    if simulation.mean_in_system > 1.25 * range.in_flight_max + 1.0 {
        reasons.push(format!(
            "{:.0} requests are in flight on average, more than at any measured point ({:.0}): \
             the queue is beyond the evidence",
            simulation.mean_in_system, range.in_flight_max
        ));
    }
    let batch = simulation.mean_decoding;
    if batch > 1.25 * range.decoding_max + 1.0 {
        reasons.push(format!(
            "the simulated batch ({batch:.0} sequences decoding on average) is beyond the largest \
             measured ({:.0})",
            range.decoding_max
        ));
    }
    if range.decoding_min > 2.0 && batch < range.decoding_min / 2.0 {
        reasons.push(format!(
            "the simulated batch ({batch:.1} sequences decoding on average) is far below the \
             lightest measured ({:.0})",
            range.decoding_min
        ));
    }
    if prompt_mean < 0.5 * range.prompt_tokens_min || prompt_mean > 2.0 * range.prompt_tokens_max {
        reasons.push(format!(
            "prompts of {prompt_mean:.0} tokens lie outside the measured {:.0}–{:.0}",
            range.prompt_tokens_min, range.prompt_tokens_max
        ));
    }
    if output_mean < 0.5 * range.output_tokens_min || output_mean > 2.0 * range.output_tokens_max {
        reasons.push(format!(
            "answers of {output_mean:.0} tokens lie outside the measured {:.0}–{:.0}",
            range.output_tokens_min, range.output_tokens_max
        ));
    }
    let replay_lengths = matches!(question.arrivals, ArrivalProcess::Replay { .. });
    if (question.prompt_tokens.is_some() || replay_lengths)
        && !model.scenarios.iter().any(|s| s.prompt_tokens_stated)
    {
        reasons.push(
            "the load tests state no prompt lengths, so the cost per prompt token rests on an \
             assumed length"
                .to_string(),
        );
    }
    if model.measured.len() < 2 {
        reasons.push(
            "only one load level was measured: how step time grows with the batch is not \
             measured"
                .to_string(),
        );
    }
    if model.limits.max_running_source == LimitSource::Assumed
        && simulation.max_running >= model.limits.max_running as usize
    {
        reasons.push(format!(
            "the simulation reached the running limit of {} sequences, which is only assumed \
             (state max_num_seqs or give a start-up log)",
            model.limits.max_running
        ));
    }
    reasons
}
