//! The chosen configuration's arithmetic, line by line, like the guide's worked example: from the
//! pilot's busiest-hour rate to the sessions to hold, then the sizing engine's own steps (KV per
//! token, one session, weights, budget, pool, sessions that fit, decode ceiling against the
//! target), the cards, the ceiling as a lower bound on sessions, and the load test last.
//!
//! The sizing steps are the candidate's [`crate::sizing::Step`]s, reused as they are, so the
//! report and the sizing page show the same working; this module only adds where each number
//! came from.

use super::ProductionInput;
use super::concurrency::{BoundBasis, SessionsToHold};
use crate::demand::{ContextBasis, DemandScaling, request_time_s};
use crate::plan::format_number;
use crate::sizing::{Candidate, Step};
use serde::{Deserialize, Serialize};

/// Where a number came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Measured: the pilot's gateway log.
    GatewayLog,
    /// Estimated from the pilot's load test (a measured efficiency × a ceiling).
    LoadTest,
    /// The approved plan (pass marks, demand assumptions).
    Plan,
    /// Entered by the assessor (an arrival rate, a price, a weights figure).
    Assessor,
    /// The GPU or model catalog (vendor figures, model configuration, checkpoint sizes).
    Catalog,
    /// A planning convention or estimate (memory budget rule, prefill efficiency, a default).
    Assumption,
    /// Arithmetic on the lines above.
    Derived,
}

impl Source {
    /// Words for the report.
    pub fn label(self) -> &'static str {
        match self {
            Source::GatewayLog => "measured: gateway log",
            Source::LoadTest => "estimated: pilot load test × ceiling",
            Source::Plan => "plan",
            Source::Assessor => "assessor",
            Source::Catalog => "catalog",
            Source::Assumption => "assumption",
            Source::Derived => "arithmetic",
        }
    }
}

/// One line of the working: what, how (in words and numbers), the value with its unit, and
/// where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArithmeticLine {
    pub label: String,
    pub formula: String,
    pub value: f64,
    pub unit: String,
    pub source: Source,
}

impl ArithmeticLine {
    fn new(label: &str, formula: String, value: f64, unit: &str, source: Source) -> Self {
        ArithmeticLine {
            label: label.to_string(),
            formula,
            value: (value * 1e4).round() / 1e4,
            unit: unit.to_string(),
            source,
        }
    }

    fn from_step(step: &Step, source: Source) -> Self {
        ArithmeticLine {
            label: step.label.clone(),
            formula: step.formula.clone(),
            value: step.value,
            unit: step.unit.clone(),
            source,
        }
    }
}

fn n(value: f64) -> String {
    format_number(value)
}

fn source_of_step(label: &str, sessions: &SessionsToHold) -> Source {
    match label {
        "Memory the driver reports"
        | "Weights (checkpoint)"
        | "Weights vLLM loads (whole model)"
        | "KV cache per token"
        | "KV per token and layer on one card"
        | "Bytes read per decode step" => Source::Catalog,
        "Weights (given)" | "Cost" => Source::Assessor,
        "Budget per card"
        | "Memory vLLM may use per card"
        | "Activation + non-torch memory"
        | "CUDA graphs"
        | "Prefill rate (estimate)"
        | "TTFT, engine prefill only (estimate)" => Source::Assumption,
        "TTFT target" => Source::Plan,
        "Expected speed per stream (estimate)" => Source::LoadTest,
        "Decode target per stream" => match sessions.tpot_basis {
            BoundBasis::PlanTarget => Source::Plan,
            BoundBasis::Assumed => Source::Assumption,
        },
        _ => Source::Derived,
    }
}

/// The demand half: pilot rate → production rate → request time → sessions → context.
pub fn demand_lines(input: &ProductionInput, sessions: &SessionsToHold) -> Vec<ArithmeticLine> {
    let demand = &input.demand;
    let mut out = vec![ArithmeticLine::new(
        "Pilot arrival rate, busiest hour",
        "requests started in the busiest 60 minutes of the gateway log ÷ 3,600 s".to_string(),
        demand.pilot_arrival_rate_per_s,
        "req/s",
        Source::GatewayLog,
    )];
    match demand.scaling {
        DemandScaling::UserRatio {
            pilot_users,
            production_users,
        } => {
            let factor = f64::from(production_users) / f64::from(pilot_users.max(1));
            out.push(ArithmeticLine::new(
                "Scale to production",
                format!(
                    "{} production users ÷ {} pilot users",
                    n(f64::from(production_users)),
                    n(f64::from(pilot_users))
                ),
                factor,
                "×",
                Source::Plan,
            ));
            out.push(ArithmeticLine::new(
                "Production arrival rate",
                format!(
                    "{} req/s × {}",
                    n(demand.pilot_arrival_rate_per_s),
                    n(factor)
                ),
                sessions.arrival_rate_per_s,
                "req/s",
                Source::Derived,
            ));
        }
        DemandScaling::EnteredRate { .. } => out.push(ArithmeticLine::new(
            "Production arrival rate",
            "busiest-hour rate entered by the assessor".to_string(),
            sessions.arrival_rate_per_s,
            "req/s",
            Source::Assessor,
        )),
    }
    out.push(ArithmeticLine::new(
        "Answer length, mean",
        "mean answer tokens of the successful requests in the gateway log".to_string(),
        sessions.answer_tokens_mean,
        "tokens",
        Source::GatewayLog,
    ));
    out.push(bound_line(
        "TTFT bound",
        sessions.ttft_ms,
        sessions.ttft_basis,
        sessions.ttft_label.as_deref(),
        "no TTFT limit in the plan: 0 ms, the answer alone",
    ));
    out.push(bound_line(
        "TPOT bound",
        sessions.tpot_ms,
        sessions.tpot_basis,
        sessions.tpot_label.as_deref(),
        "no TPOT limit in the plan: 1000 ÷ the 6 tok/s reading floor",
    ));
    out.push(ArithmeticLine::new(
        "Request time",
        format!(
            "TTFT + (answer − 1) × TPOT = {} ms + ({} − 1) × {} ms; the slowest a request may be on a configuration that meets the plan",
            n(sessions.ttft_ms),
            n(sessions.answer_tokens_mean),
            n(sessions.tpot_ms)
        ),
        sessions.request_time_s,
        "s",
        Source::Derived,
    ));
    out.push(ArithmeticLine::new(
        "Requests in flight (Little's law)",
        format!(
            "arrival rate × request time = {} req/s × {} s; the pilot's own concurrency is not carried over, it belongs to the pilot's GPU",
            n(sessions.arrival_rate_per_s),
            n(sessions.request_time_s)
        ),
        sessions.mean_in_flight,
        "requests",
        Source::Derived,
    ));
    out.push(ArithmeticLine::new(
        "Sessions to hold",
        if sessions.peak_to_mean > 1.0 {
            format!(
                "ceil({} × {} peak ÷ mean)",
                n(sessions.mean_in_flight),
                n(sessions.peak_to_mean)
            )
        } else {
            format!(
                "ceil({}); Little's law gives the busiest hour's mean, bursts above it queue",
                n(sessions.mean_in_flight)
            )
        },
        sessions.peak_sessions as f64,
        "sessions",
        Source::Derived,
    ));
    let tail = demand
        .measured_context
        .as_ref()
        .map(|m| format!(" ({})", m.tail_sentence()))
        .unwrap_or_default();
    let (formula, source) = match demand.context_basis {
        ContextBasis::P95 => (
            format!(
                "p95 of prompt + answer in the gateway log, rounded up; as --max-model-len vLLM refuses every longer request{tail}"
            ),
            Source::GatewayLog,
        ),
        ContextBasis::Max => (
            format!("the longest prompt + answer in the gateway log{tail}"),
            Source::GatewayLog,
        ),
        ContextBasis::WholeSession => {
            let measured = demand.measured_context.as_ref();
            let longest = measured.map_or(0, |m| m.max_tokens);
            match measured.and_then(|m| m.plan_tokens) {
                Some(plan) if plan > longest => (
                    format!(
                        "whole sessions: the plan's {} tokens per request, above the longest measured {}{tail}; also vLLM's --max-model-len",
                        n(f64::from(plan)),
                        n(f64::from(longest))
                    ),
                    Source::Plan,
                ),
                Some(plan) => (
                    format!(
                        "whole sessions: the longest prompt + answer in the gateway log, above the plan's {} tokens per request{tail}; also vLLM's --max-model-len",
                        n(f64::from(plan))
                    ),
                    Source::GatewayLog,
                ),
                None => (
                    format!(
                        "whole sessions: the longest prompt + answer in the gateway log (the plan states no context per request){tail}; also vLLM's --max-model-len"
                    ),
                    Source::GatewayLog,
                ),
            }
        }
    };
    out.push(ArithmeticLine::new(
        "Context per session",
        formula,
        f64::from(demand.context_tokens_per_session),
        "tokens",
        source,
    ));
    out
}

fn bound_line(
    label: &str,
    value_ms: f64,
    basis: BoundBasis,
    mark: Option<&str>,
    assumed: &str,
) -> ArithmeticLine {
    match (basis, mark) {
        (BoundBasis::PlanTarget, Some(mark)) => ArithmeticLine::new(
            label,
            format!("the plan's limit {mark}"),
            value_ms,
            "ms",
            Source::Plan,
        ),
        _ => ArithmeticLine::new(
            label,
            assumed.to_string(),
            value_ms,
            "ms",
            Source::Assumption,
        ),
    }
}

/// The cards of a candidate in words.
fn cards_line(candidate: &Candidate) -> ArithmeticLine {
    let t = candidate.topology;
    ArithmeticLine::new(
        "Cards",
        format!(
            "TP {} × PP {} × {} {} of {}",
            t.tp,
            t.pp,
            t.copies,
            if t.copies == 1 { "copy" } else { "copies" },
            candidate.gpu_name
        ),
        f64::from(candidate.cards),
        "cards",
        Source::Derived,
    )
}

/// In flight at the candidate's own ceiling: a lower bound (ceilings are never reached).
fn ceiling_line(candidate: &Candidate, sessions: &SessionsToHold) -> Option<ArithmeticLine> {
    let ceiling = candidate.decode_tokens_per_s;
    if ceiling.is_nan() || ceiling <= 0.0 {
        return None;
    }
    let ttft = candidate.ttft_ms.unwrap_or(0.0);
    let tpot = 1000.0 / ceiling;
    let time_s = request_time_s(ttft, tpot, sessions.answer_tokens_mean);
    let in_flight = sessions.arrival_rate_per_s * time_s;
    Some(ArithmeticLine::new(
        "In flight at this configuration's ceiling",
        format!(
            "{} req/s × ({} ms prefill estimate + ({} − 1) × {} ms at {} tok/s) = {} req/s × {} s; a lower bound, since no batch reaches the ceiling: sized for {}",
            n(sessions.arrival_rate_per_s),
            n(ttft.round()),
            n(sessions.answer_tokens_mean),
            n(tpot),
            n(ceiling),
            n(sessions.arrival_rate_per_s),
            n(time_s),
            sessions.peak_sessions
        ),
        in_flight,
        "requests (lower bound)",
        Source::Derived,
    ))
}

/// Every line for the chosen configuration, the load test last.
pub fn for_chosen(
    input: &ProductionInput,
    sessions: &SessionsToHold,
    candidate: &Candidate,
) -> Vec<ArithmeticLine> {
    let mut out = demand_lines(input, sessions);
    let (load_test, steps): (Vec<&Step>, Vec<&Step>) =
        candidate.steps.iter().partition(|s| s.label == "Load test");
    out.extend(
        steps
            .into_iter()
            .map(|s| ArithmeticLine::from_step(s, source_of_step(&s.label, sessions))),
    );
    out.push(cards_line(candidate));
    out.extend(ceiling_line(candidate, sessions));
    out.extend(
        load_test
            .into_iter()
            .map(|s| ArithmeticLine::from_step(s, Source::Derived)),
    );
    out
}
