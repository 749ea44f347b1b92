//! The plan in words: one paragraph from the verdict to the recommendation, and the next steps.
//!
//! Every number in the paragraph is a field of the plan, so the story and the tables cannot
//! disagree: the verdict's tally, the demand's rate and sessions, the twin on the pilot's
//! hardware at production load, and the recommended configuration with its p99s and ranges.

use super::{
    CandidateForecast, CapacityPlanInput, DemandForecast, MarkForecast, PilotAtProduction,
    PlanBasis, Recommendation,
};
use crate::production::demand_process::ArrivalBasis;
use crate::sizing::estimate::num;
use crate::twin::TokenLengths;
use crate::verdict::PlanOutcome;
use serde::{Deserialize, Serialize};

/// What must happen before go-live.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum NextStep {
    /// A load test on the recommended configuration: the pilot's own traffic replayed (its
    /// trace), swept over concurrency from 1 through the predicted peak to twice it.
    LoadTest {
        configuration: String,
        /// Replay the pilot's gateway trace (a Mooncake trace of its busiest hour) rather than
        /// synthetic prompts.
        replay_pilot_trace: bool,
        /// Concurrency levels per copy.
        concurrency: Vec<u32>,
        /// Marks whose range this load test settles.
        settles: Vec<String>,
        sentence: String,
        /// The command lines to run it: AIPerf replaying the pilot's trace (with a gateway log)
        /// and the `vllm bench serve` sweep at the pilot's median lengths.
        #[serde(default)]
        commands: Vec<LoadTestCommand>,
    },
    /// The evaluation set re-run on the production stack, in the production formats.
    Evaluation {
        configuration: String,
        sentence: String,
    },
}

/// 1, doubling, the predicted peak, then twice it ([`crate::twin::trace::sweep_levels`]).
pub fn concurrency_sweep(peak: u32) -> Vec<u32> {
    crate::twin::trace::sweep_levels(u64::from(peak))
}

/// The median of a length distribution, whole tokens (at least 1).
fn median_tokens(lengths: &TokenLengths) -> u32 {
    let median = lengths.median();
    if median.is_finite() {
        median.round().max(1.0) as u32
    } else {
        1
    }
}

/// The command lines of the load test ([`crate::twin::trace::replay_commands`]): the AIPerf
/// replay of the pilot's trace (with a gateway log) and the `vllm bench serve` sweep over
/// `peak`, against a placeholder production URL.
fn load_test_commands(input: &CapacityPlanInput, peak: u32) -> Vec<LoadTestCommand> {
    let workload = &input.demand.workload;
    let settings = crate::twin::trace::ReplaySettings {
        model: input
            .served_model
            .clone()
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| input.model.id.clone()),
        base_url: PRODUCTION_URL.to_string(),
        trace_file: input
            .trace_file
            .clone()
            .unwrap_or_else(|| "pilot-trace.jsonl".to_string()),
        prompt_tokens_p50: median_tokens(&workload.prompt_tokens),
        output_tokens_p50: median_tokens(&workload.output_tokens),
        peak_in_flight: u64::from(peak),
    };
    let replay = input.demand.basis() == ArrivalBasis::Replayed;
    crate::twin::trace::replay_commands(&settings)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| replay || *i > 0)
        .map(|(_, (label, command))| LoadTestCommand { label, command })
        .collect()
}

/// Where the commands send their requests: a placeholder to replace with the production
/// engine's address.
pub const PRODUCTION_URL: &str = "http://PRODUCTION-HOST:8000";

/// One command line of the next load test, with what it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LoadTestCommand {
    pub label: String,
    pub command: String,
}

pub(super) fn next_steps(
    input: &CapacityPlanInput,
    _demand: &DemandForecast,
    recommended: Option<&Recommendation>,
) -> Vec<NextStep> {
    let Some(r) = recommended else {
        return Vec::new();
    };
    let peak = (r.sessions.value / f64::from(r.configuration.copies.max(1))).ceil() as u32;
    let concurrency = concurrency_sweep(peak);
    let replay = input.demand.basis() == ArrivalBasis::Replayed;
    let traffic = if replay {
        "replaying the pilot's own traffic (its busiest hour as a Mooncake trace)"
    } else {
        "at the pilot's measured prompt and answer lengths"
    };
    let settles = r.unsettled.clone();
    let settle_clause = if settles.is_empty() {
        String::new()
    } else {
        format!(" It settles {}.", settles.join("; "))
    };
    vec![
        NextStep::LoadTest {
            configuration: r.configuration.label.clone(),
            replay_pilot_trace: replay,
            sentence: format!(
                "Load-test one copy of {} {traffic}, at concurrency {} (1 through the predicted \
                 peak of {peak} per copy to twice it), graded against the plan's marks.{settle_clause}",
                r.configuration.label,
                concurrency
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            commands: load_test_commands(input, peak),
            concurrency,
            settles,
        },
        NextStep::Evaluation {
            configuration: r.configuration.label.clone(),
            sentence: format!(
                "Re-run the evaluation set on the production stack ({} weights, {} KV cache) \
                 before go-live: quality carries over only in the precision it was measured in.",
                r.configuration.weights.label(),
                r.configuration.kv_dtype.label()
            ),
        },
    ]
}

fn mark_clause(m: &MarkForecast) -> Option<String> {
    Some(format!(
        "{}: {} ms ({}–{})",
        m.mark,
        num(m.value?, 0),
        num(m.low?, 0),
        num(m.high?, 0)
    ))
}

/// Why the recommended configuration, in a sentence.
pub(super) fn why(chosen: &CandidateForecast, basis: PlanBasis) -> String {
    let holds = match basis {
        PlanBasis::LatencyAndMemory => {
            "holds every latency mark and its sessions with one copy down"
        }
        PlanBasis::MemoryOnly => {
            "holds its sessions with one copy down (memory only: the plan has no latency mark)"
        }
    };
    let ranked = if chosen.cost.is_some() {
        "at the lowest monthly cost of the priced candidates"
    } else {
        "on the fewest cards"
    };
    format!(
        "It {holds} {ranked} ({} cards{}), with {} whole sessions per copy against {} in flight per copy at the p99.",
        chosen.cards,
        chosen
            .board_power_w
            .map(|w| format!(", {} W of board power", num(w, 0)))
            .unwrap_or_default(),
        chosen.sessions.per_copy,
        chosen.sessions.in_flight_p99_n_plus_1
    )
}

/// Why nothing is recommended.
pub(super) fn nothing_holds(input: &CapacityPlanInput, candidates: &[CandidateForecast]) -> String {
    let evaluated = candidates
        .iter()
        .filter(|c| c.status == super::CandidateStatus::Evaluated)
        .count();
    format!(
        "No configuration of up to {} cards holds every mark with one copy down ({} of {} \
         candidates could be simulated): allow more cards, faster cards, or a cheaper precision \
         once it passes the evaluation.",
        input.max_cards,
        evaluated,
        candidates.len()
    )
}

fn verdict_sentence(input: &CapacityPlanInput) -> String {
    match &input.verdict {
        Some(v) => {
            let t = v.tally;
            let total = t.passed + t.failed + t.not_measured + t.not_comparable;
            let outcome = match v.outcome {
                PlanOutcome::Passed => "the pilot met every pass mark",
                PlanOutcome::Failed => "the pilot missed pass marks",
                PlanOutcome::Incomplete => "the pilot's verdict is incomplete",
            };
            format!(
                "Verdict: {outcome} ({} of {total} passed, {} failed, {} not measured).",
                t.passed,
                t.failed,
                t.not_measured + t.not_comparable
            )
        }
        None => "Verdict: not graded yet.".to_string(),
    }
}

fn demand_sentence(demand: &DemandForecast) -> String {
    let source = match demand.arrivals {
        ArrivalBasis::Replayed => "the pilot's busiest hour superposed",
        ArrivalBasis::Poisson => "Poisson arrivals",
    };
    let s = &demand.sessions;
    format!(
        "Demand: {} req/s at the pilot's busiest hour × {} growth = {} req/s ({source}), which \
         puts {} sessions in flight at the median and {} at the p99 (Little's law {}, Poisson \
         p99 {}), each of up to {} tokens.",
        num(demand.pilot_rate, 3),
        num(demand.growth, 2),
        num(demand.rate, 2),
        s.p50,
        s.p99,
        num(s.little_mean, 1),
        s.poisson_p99,
        crate::format::thousands(u64::from(demand.context_tokens_per_session))
    )
}

fn pilot_sentence(pilot: Option<&PilotAtProduction>) -> String {
    let Some(p) = pilot else {
        return "Twin: no load test of the pilot, so every candidate rests on the prior."
            .to_string();
    };
    let marks: Vec<String> = p
        .predicted
        .iter()
        .filter_map(|m| {
            let r = m.all_copies_up?;
            Some(format!("{}: {} ms", m.mark, num(r.value, 0)))
        })
        .collect();
    let verdict = match (p.overloaded, p.holds) {
        (true, _) => "cannot keep up (its queue grows without bound)",
        (_, Some(true)) => "would hold every mark",
        (_, Some(false)) => "would miss a mark",
        _ => "has no mark to be checked against",
    };
    format!(
        "Twin: the pilot's {} at production load {verdict}{}.",
        p.configuration.label,
        if marks.is_empty() {
            String::new()
        } else {
            format!(" ({})", marks.join(", "))
        }
    )
}

pub(super) fn story(
    input: &CapacityPlanInput,
    demand: &DemandForecast,
    pilot: Option<&PilotAtProduction>,
    recommended: Option<&Recommendation>,
    basis: PlanBasis,
) -> String {
    let recommendation = match recommended {
        Some(r) => {
            let marks: Vec<String> = r.predicted.iter().filter_map(mark_clause).collect();
            let predicted = if marks.is_empty() {
                String::new()
            } else {
                format!(" Predicted with one copy down: {}.", marks.join(", "))
            };
            format!(
                "Recommended: {}. {}{predicted} Sessions in flight p99 {} ({}–{}); cards {} \
                 ({}–{} across the range). {}",
                r.configuration.label,
                r.why,
                num(r.sessions.value, 0),
                num(r.sessions.low, 0),
                num(r.sessions.high, 0),
                num(r.cards.value, 0),
                num(r.cards.low, 0),
                num(r.cards.high, 0),
                r.sensitivity.sentence
            )
        }
        None => "Recommended: nothing yet — no configuration holds with one copy down.".to_string(),
    };
    let basis_clause = match basis {
        PlanBasis::MemoryOnly => " (memory only: the plan sets no latency mark)",
        PlanBasis::LatencyAndMemory => "",
    };
    format!(
        "{} {} {} {recommendation}{basis_clause}",
        verdict_sentence(input),
        demand_sentence(demand),
        pilot_sentence(pilot)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_runs_from_one_through_the_peak_to_twice_it() {
        assert_eq!(concurrency_sweep(7), vec![1, 2, 4, 7, 14]);
        assert_eq!(concurrency_sweep(1), vec![1, 2]);
        assert_eq!(concurrency_sweep(8), vec![1, 2, 4, 8, 16]);
    }
}
