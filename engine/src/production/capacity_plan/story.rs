//! The plan in words: one paragraph from the verdict to the recommendation, and the next steps.
//!
//! Every number in the paragraph is a field of the plan, so the story and the tables cannot
//! disagree: the verdict's tally, the demand's rate and sessions, the twin on the pilot's
//! hardware at production load, and the recommended configuration with its p99s and ranges.

use super::{
    CandidateForecast, CapacityPlan, CapacityPlanInput, DemandForecast, MarkForecast,
    PilotAtProduction, PilotVerdict, PlanBasis, Recommendation, Sensitivity,
};
use crate::format::num_in;
use crate::locale::Lang;
use crate::production::demand_process::ArrivalBasis;
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
    let german = crate::twin::trace::replay_commands_in(&settings, crate::locale::Lang::De);
    crate::twin::trace::replay_commands(&settings)
        .into_iter()
        .zip(german)
        .enumerate()
        .filter(|(i, _)| replay || *i > 0)
        .map(|(_, ((label, command), (label_de, _)))| LoadTestCommand {
            label,
            label_de,
            command,
        })
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
    /// The label in German, for the German report; empty on plans made before it existed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label_de: String,
    pub command: String,
}

impl LoadTestCommand {
    /// The label in `lang` (English when no German one was kept).
    pub fn label_in(&self, lang: crate::locale::Lang) -> &str {
        match lang {
            crate::locale::Lang::De if !self.label_de.is_empty() => &self.label_de,
            _ => &self.label,
        }
    }
}

pub(super) fn next_steps(
    input: &CapacityPlanInput,
    _demand: &DemandForecast,
    recommended: Option<&Recommendation>,
) -> Vec<NextStep> {
    let Some(r) = recommended else {
        return Vec::new();
    };
    let replay = input.demand.basis() == ArrivalBasis::Replayed;
    let concurrency = concurrency_sweep(r.peak_per_copy());
    vec![
        NextStep::LoadTest {
            configuration: r.configuration.label.clone(),
            replay_pilot_trace: replay,
            sentence: r.load_test_sentence_in(replay, Lang::En),
            commands: load_test_commands(input, r.peak_per_copy()),
            concurrency,
            settles: r.unsettled.clone(),
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

impl Recommendation {
    /// The predicted peak in flight on one copy: what the next load test sweeps through.
    fn peak_per_copy(&self) -> u32 {
        (self.sessions.value / f64::from(self.configuration.copies.max(1))).ceil() as u32
    }

    /// The next load test in a sentence, in `lang`: what to replay, at which concurrencies,
    /// and which ranges it settles.
    pub fn load_test_sentence_in(&self, replay: bool, lang: Lang) -> String {
        let peak = self.peak_per_copy();
        let levels = concurrency_sweep(peak)
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let unsettled = self.unsettled_in(lang);
        let label = label_in(&self.configuration, lang);
        let copies = self.configuration.copies.max(1);
        let share = |one: &str| {
            if copies > 1 {
                format!("; {one}: trace.jsonl?copies={copies}")
            } else {
                String::new()
            }
        };
        match lang {
            Lang::En => {
                let traffic = if replay {
                    format!(
                        "replaying production's busiest hour (the pilot's busiest hour grown to \
                         the production rate, as a Mooncake trace{})",
                        share("one copy's share")
                    )
                } else {
                    "at the pilot's measured prompt and answer lengths".to_string()
                };
                let settles = if unsettled.is_empty() {
                    String::new()
                } else {
                    format!(" It settles {}.", unsettled.join("; "))
                };
                format!(
                    "Load-test one copy of {label} {traffic}, at concurrency {levels} (1 through \
                     the predicted peak of {peak} per copy to twice it), graded against the \
                     plan's marks.{settles}"
                )
            }
            Lang::De => {
                let traffic = if replay {
                    format!(
                        "mit der Spitzenstunde der Produktion (der Spitzenstunde des Piloten, auf \
                         die Produktionsrate hochgerechnet, als Mooncake-Trace{})",
                        share("Anteil einer Kopie")
                    )
                } else {
                    "mit den gemessenen Prompt- und Antwortlängen des Piloten".to_string()
                };
                let settles = if unsettled.is_empty() {
                    String::new()
                } else {
                    format!(" Er klärt {}.", unsettled.join("; "))
                };
                format!(
                    "Lasttest einer Kopie von {label} {traffic}, bei Parallelität {levels} (von 1 \
                     über die vorhergesagte Spitze von {peak} je Kopie bis zum Doppelten), \
                     bewertet gegen die Zielwerte des Plans.{settles}"
                )
            }
        }
    }

    /// The marks whose range crosses their limit, each with its prediction, in `lang`:
    /// `TPOT p99 ≤ 40 ms (predicted 38 ms, range 31–45 ms with one copy down)`.
    pub fn unsettled_in(&self, lang: Lang) -> Vec<String> {
        self.predicted
            .iter()
            .filter(|m| m.range_crosses)
            .map(|m| {
                let n = |v: Option<f64>| num_in(v.unwrap_or(0.0), 0, lang);
                let (value, low, high) = (n(m.value), n(m.low), n(m.high));
                match lang {
                    Lang::En => format!(
                        "{} (predicted {value} ms, range {low}–{high} ms with one copy down)",
                        m.mark
                    ),
                    Lang::De => format!(
                        "{} (vorhergesagt {value} ms, Spanne {low}–{high} ms mit einer \
                         ausgefallenen Kopie)",
                        m.mark
                    ),
                }
            })
            .collect()
    }

    /// One warning per unsettled mark, in `lang`: its range crosses the mark, and the load test
    /// on the recommended configuration settles it.
    pub fn unsettled_warnings_in(&self, lang: Lang) -> Vec<String> {
        let label = label_in(&self.configuration, lang);
        self.unsettled_in(lang)
            .into_iter()
            .map(|m| match lang {
                Lang::En => {
                    format!("{m}: its range crosses the mark; the load test on {label} settles it.")
                }
                Lang::De => format!(
                    "{m}: Die Spanne reicht über den Zielwert hinaus; der Lasttest auf {label} \
                     klärt es."
                ),
            })
            .collect()
    }
}

/// The configuration's label as the plan keeps it (English), or phrased in `lang`.
fn label_in(configuration: &super::Configuration, lang: Lang) -> String {
    match lang {
        Lang::En => configuration.label.clone(),
        Lang::De => configuration.label_in(lang),
    }
}

fn mark_clause(m: &MarkForecast, lang: Lang) -> Option<String> {
    Some(format!(
        "{}: {} ms ({}–{})",
        m.mark,
        num_in(m.value?, 0, lang),
        num_in(m.low?, 0, lang),
        num_in(m.high?, 0, lang)
    ))
}

/// The words of [`why`] that say the ranking went by cost.
const RANKED_BY_COST: &str = "at the lowest monthly cost of the priced candidates";

/// Why the recommended configuration, in a sentence.
pub(super) fn why(chosen: &CandidateForecast, basis: PlanBasis) -> String {
    why_in(chosen, basis, chosen.cost.is_some(), Lang::En)
}

fn why_in(chosen: &CandidateForecast, basis: PlanBasis, by_cost: bool, lang: Lang) -> String {
    let power = chosen.board_power_w.map(|w| num_in(w, 0, lang));
    let (per_copy, in_flight) = (
        chosen.sessions.per_copy,
        chosen.sessions.in_flight_p99_n_plus_1,
    );
    let cards = chosen.cards;
    match lang {
        Lang::En => {
            let holds = match basis {
                PlanBasis::LatencyAndMemory => {
                    "holds every latency mark and its sessions with one copy down"
                }
                PlanBasis::MemoryOnly => {
                    "holds its sessions with one copy down (memory only: the plan has no latency \
                     mark)"
                }
            };
            let ranked = if by_cost {
                RANKED_BY_COST
            } else {
                "on the fewest cards"
            };
            let power = power
                .map(|w| format!(", {w} W of board power"))
                .unwrap_or_default();
            format!(
                "It {holds} {ranked} ({cards} cards{power}), with {per_copy} whole sessions per \
                 copy against {in_flight} in flight per copy at the p99."
            )
        }
        Lang::De => {
            let holds = match basis {
                PlanBasis::LatencyAndMemory => {
                    "hält jeden Latenz-Zielwert und ihre Sitzungen mit einer ausgefallenen Kopie"
                }
                PlanBasis::MemoryOnly => {
                    "hält ihre Sitzungen mit einer ausgefallenen Kopie (nur Speicher: Der Plan hat \
                     keinen Latenz-Zielwert)"
                }
            };
            let ranked = if by_cost {
                "zu den niedrigsten Monatskosten der Kandidaten mit Preis"
            } else {
                "auf den wenigsten Karten"
            };
            let power = power
                .map(|w| format!(", {w} W Leistungsaufnahme der Boards"))
                .unwrap_or_default();
            format!(
                "Sie {holds}, {ranked} ({cards} Karten{power}), mit {per_copy} ganzen Sitzungen \
                 je Kopie gegenüber {in_flight} gleichzeitigen je Kopie beim p99."
            )
        }
    }
}

impl CapacityPlan {
    /// The recommended configuration's [`Recommendation::why`] in `lang`; `None` without one.
    pub fn why_in(&self, lang: Lang) -> Option<String> {
        let r = self.recommended.as_ref()?;
        let chosen = self.candidates.iter().find(|c| c.rank == Some(1))?;
        // The plan is ranked with prices; a caller who may not see them gets the costs taken
        // out afterwards, so the English sentence says how it was ranked.
        let by_cost = r.why.contains(RANKED_BY_COST);
        Some(why_in(chosen, self.basis, by_cost, lang))
    }

    /// The plan's [`CapacityPlan::story`] in `lang`, from the pilot's `verdict` (which the plan
    /// does not keep).
    pub fn story_in(&self, verdict: Option<&PilotVerdict>, max_cards: u32, lang: Lang) -> String {
        match lang {
            Lang::En => self.story.clone(),
            Lang::De => {
                let why = self.why_in(lang).unwrap_or_default();
                let mut story = story_of(
                    verdict,
                    &self.demand,
                    self.pilot_at_production.as_ref(),
                    self.recommended
                        .as_ref()
                        .map(|r| (r, why.as_str(), max_cards)),
                    self.basis,
                    lang,
                );
                if let Some(sentence) = super::alternatives::sentence_in(&self.candidates, lang) {
                    story.push(' ');
                    story.push_str(&sentence);
                }
                if let Some(sentence) = self.availability_sentence_in(lang) {
                    story.push(' ');
                    story.push_str(&sentence);
                }
                story
            }
        }
    }
}

impl Sensitivity {
    /// The sentence in `lang` for `gpu_name`, with `max_cards` the plan's card limit:
    /// `At half the growth (×0.75) … would need 4 cards; at twice it (×3.00) 8 cards.`
    pub fn sentence_in(&self, gpu_name: &str, max_cards: u32, lang: Lang) -> String {
        let (half, twice) = (
            num_in(self.half_growth, 2, lang),
            num_in(self.twice_growth, 2, lang),
        );
        match lang {
            Lang::En => {
                let words = |c: Option<u32>| {
                    c.map_or(format!("more than {max_cards} cards"), |n| {
                        format!("{n} cards")
                    })
                };
                format!(
                    "At half the growth (×{half}) {gpu_name} would need {}; at twice it (×{twice}) \
                     {}.",
                    words(self.cards_at_half),
                    words(self.cards_at_twice)
                )
            }
            Lang::De => {
                let words = |c: Option<u32>| match c {
                    None => format!("mehr als {max_cards} Karten"),
                    Some(1) => "1 Karte".to_string(),
                    Some(n) => format!("{n} Karten"),
                };
                format!(
                    "Bei halbem Wachstum (×{half}) bräuchte {gpu_name} {}, bei doppeltem \
                     (×{twice}) {}.",
                    words(self.cards_at_half),
                    words(self.cards_at_twice)
                )
            }
        }
    }
}

/// Why nothing is recommended.
pub(super) fn nothing_holds(input: &CapacityPlanInput, candidates: &[CandidateForecast]) -> String {
    nothing_holds_in(input, candidates, Lang::En)
}

/// Why the plan recommends nothing (the plan's last warning when it recommends nothing), in
/// `lang`.
pub fn nothing_holds_in(
    input: &CapacityPlanInput,
    candidates: &[CandidateForecast],
    lang: Lang,
) -> String {
    let evaluated = candidates
        .iter()
        .filter(|c| c.status == super::CandidateStatus::Evaluated)
        .count();
    let (cards, all) = (input.max_cards, candidates.len());
    match lang {
        Lang::En => format!(
            "No configuration of up to {cards} cards holds every mark with one copy down \
             ({evaluated} of {all} candidates could be simulated): allow more cards, faster \
             cards, or a cheaper precision once it passes the evaluation."
        ),
        Lang::De => format!(
            "Keine Konfiguration mit bis zu {cards} Karten hält jeden Zielwert, wenn eine Kopie \
             ausfällt ({evaluated} von {all} Kandidaten ließen sich simulieren): mehr Karten, \
             schnellere Karten oder eine günstigere Präzision zulassen, sobald sie die \
             Evaluation besteht."
        ),
    }
}

fn verdict_sentence(verdict: Option<&PilotVerdict>, lang: Lang) -> String {
    let Some(v) = verdict else {
        return lang
            .pick("Verdict: not graded yet.", "Ergebnis: noch nicht bewertet.")
            .to_string();
    };
    let t = v.tally;
    let total = t.passed + t.failed + t.not_measured + t.not_comparable;
    // The words of the pilot page's verdict headline, so page, API, report and story agree.
    let tally = t.summary_in(total, lang);
    match lang {
        Lang::En => {
            let outcome = match v.outcome {
                PlanOutcome::Passed => "the pilot met every pass mark",
                PlanOutcome::Failed => "the pilot missed pass marks",
                PlanOutcome::Incomplete => "the pilot's verdict is incomplete",
            };
            format!("Verdict: {outcome} ({tally}).")
        }
        Lang::De => {
            let outcome = match v.outcome {
                PlanOutcome::Passed => "Der Pilot hat alle Zielwerte erreicht",
                PlanOutcome::Failed => "Der Pilot hat Zielwerte verfehlt",
                PlanOutcome::Incomplete => "Die Bewertung des Piloten ist unvollständig",
            };
            format!("Ergebnis: {outcome} ({tally}).")
        }
    }
}

/// When the verdict and the twin's line on the pilot's own configuration disagree (a missed
/// mark that production would hold, or the reverse), the one sentence that says why: they
/// speak of different loads.
fn load_difference_sentence(
    verdict: Option<&PilotVerdict>,
    demand: &DemandForecast,
    pilot: Option<&PilotAtProduction>,
    lang: Lang,
) -> String {
    let (Some(v), Some(p)) = (verdict, pilot) else {
        return String::new();
    };
    let differ = matches!(
        (v.outcome, p.holds, p.overloaded),
        (PlanOutcome::Failed, Some(true), false) | (PlanOutcome::Passed, Some(false), _)
    );
    if !differ {
        return String::new();
    }
    let (p50, p99) = (
        num_in(f64::from(demand.sessions.p50), 0, lang),
        num_in(f64::from(demand.sessions.p99), 0, lang),
    );
    match lang {
        Lang::En => format!(
            " The two differ in load: the verdict grades the pilot's load tests at the load they \
             were run at (the plan's planned peak), the twin the production arrivals, which keep \
             {p50} requests in flight at the median and {p99} at the p99."
        ),
        Lang::De => format!(
            " Beide beziehen sich auf eine andere Last: Das Ergebnis bewertet die Lasttests des \
             Piloten bei der Last, mit der sie liefen (der geplanten Spitze des Plans), der \
             Zwilling die Ankünfte der Produktion mit {p50} gleichzeitigen Anfragen im Median \
             und {p99} im p99."
        ),
    }
}

fn demand_sentence(demand: &DemandForecast, lang: Lang) -> String {
    let s = &demand.sessions;
    let (pilot_rate, growth, rate, little) = (
        num_in(demand.pilot_rate, 3, lang),
        num_in(demand.growth, 2, lang),
        num_in(demand.rate, 2, lang),
        num_in(s.little_mean, 1, lang),
    );
    let context = num_in(f64::from(demand.context_tokens_per_session), 0, lang);
    let (p50, p99, poisson) = (s.p50, s.p99, s.poisson_p99);
    match lang {
        Lang::En => {
            let source = match demand.arrivals {
                ArrivalBasis::Replayed => "the pilot's busiest hour superposed",
                ArrivalBasis::Poisson => "Poisson arrivals",
            };
            format!(
                "Demand: {pilot_rate} req/s at the pilot's busiest hour × {growth} growth = {rate} \
                 req/s ({source}), which puts {p50} sessions in flight at the median and {p99} at \
                 the p99 (Little's law {little}, Poisson p99 {poisson}), each of up to {context} \
                 tokens."
            )
        }
        Lang::De => {
            let source = match demand.arrivals {
                ArrivalBasis::Replayed => "die Spitzenstunde des Piloten überlagert",
                ArrivalBasis::Poisson => "Poisson-Ankünfte",
            };
            format!(
                "Nachfrage: {pilot_rate} req/s in der Spitzenstunde des Piloten × Wachstum \
                 {growth} = {rate} req/s ({source}); das ergibt {p50} gleichzeitige Sitzungen im \
                 Median und {p99} beim p99 (Littles Gesetz {little}, Poisson-p99 {poisson}), jede \
                 mit bis zu {context} Token."
            )
        }
    }
}

fn pilot_sentence(pilot: Option<&PilotAtProduction>, lang: Lang) -> String {
    let Some(p) = pilot else {
        return lang
            .pick(
                "Twin: no load test of the pilot, so every candidate rests on the prior.",
                "Zwilling: kein Lasttest des Piloten; jeder Kandidat beruht daher auf der \
                 Vorannahme.",
            )
            .to_string();
    };
    let marks: Vec<String> = p
        .predicted
        .iter()
        .filter_map(|m| {
            let r = m.all_copies_up?;
            Some(format!("{}: {} ms", m.mark, num_in(r.value, 0, lang)))
        })
        .collect();
    let marks = if marks.is_empty() {
        String::new()
    } else {
        format!(" ({})", marks.join(", "))
    };
    let label = label_in(&p.configuration, lang);
    match lang {
        Lang::En => {
            let verdict = match (p.overloaded, p.holds) {
                (true, _) => "cannot keep up (its queue grows without bound)",
                (_, Some(true)) => "would hold every mark",
                (_, Some(false)) => "would miss a mark",
                _ => "has no mark to be checked against",
            };
            format!("Twin: the pilot's {label} at production load {verdict}{marks}.")
        }
        Lang::De => {
            let verdict = match (p.overloaded, p.holds) {
                (true, _) => {
                    "kommt bei Produktionslast nicht nach (ihre Warteschlange wächst ohne Grenze)"
                }
                (_, Some(true)) => "würde bei Produktionslast jeden Zielwert halten",
                (_, Some(false)) => "würde bei Produktionslast einen Zielwert verfehlen",
                _ => "hat bei Produktionslast keinen Zielwert, an dem sie sich messen lässt",
            };
            format!("Zwilling: Die Konfiguration des Piloten ({label}) {verdict}{marks}.")
        }
    }
}

pub(super) fn story(
    input: &CapacityPlanInput,
    demand: &DemandForecast,
    pilot: Option<&PilotAtProduction>,
    recommended: Option<&Recommendation>,
    basis: PlanBasis,
) -> String {
    story_of(
        input.verdict.as_ref(),
        demand,
        pilot,
        recommended.map(|r| (r, r.why.as_str(), input.max_cards)),
        basis,
        Lang::En,
    )
}

/// The story; `recommended` with its why and the plan's card limit, both in `lang`.
fn story_of(
    verdict: Option<&PilotVerdict>,
    demand: &DemandForecast,
    pilot: Option<&PilotAtProduction>,
    recommended: Option<(&Recommendation, &str, u32)>,
    basis: PlanBasis,
    lang: Lang,
) -> String {
    let recommendation = match recommended {
        Some((r, why, max_cards)) => recommendation_sentence(r, why, max_cards, lang),
        None => lang
            .pick(
                "Recommended: nothing yet — no configuration holds with one copy down.",
                "Empfohlen: noch nichts — keine Konfiguration hält mit einer ausgefallenen Kopie.",
            )
            .to_string(),
    };
    let basis_clause = match basis {
        PlanBasis::MemoryOnly => lang.pick(
            " (memory only: the plan sets no latency mark)",
            " (nur Speicher: Der Plan setzt keinen Latenz-Zielwert)",
        ),
        PlanBasis::LatencyAndMemory => "",
    };
    format!(
        "{} {} {}{} {recommendation}{basis_clause}",
        verdict_sentence(verdict, lang),
        demand_sentence(demand, lang),
        pilot_sentence(pilot, lang),
        load_difference_sentence(verdict, demand, pilot, lang)
    )
}

fn recommendation_sentence(r: &Recommendation, why: &str, max_cards: u32, lang: Lang) -> String {
    let marks: Vec<String> = r
        .predicted
        .iter()
        .filter_map(|m| mark_clause(m, lang))
        .collect();
    let n = |v: f64| num_in(v, 0, lang);
    let (sessions, sessions_low, sessions_high) =
        (n(r.sessions.value), n(r.sessions.low), n(r.sessions.high));
    let (cards, cards_low, cards_high) = (n(r.cards.value), n(r.cards.low), n(r.cards.high));
    let sensitivity = match lang {
        Lang::En => r.sensitivity.sentence.clone(),
        Lang::De => r
            .sensitivity
            .sentence_in(&r.configuration.gpu_name, max_cards, lang),
    };
    let label = label_in(&r.configuration, lang);
    match lang {
        Lang::En => {
            let predicted = if marks.is_empty() {
                String::new()
            } else {
                format!(" Predicted with one copy down: {}.", marks.join(", "))
            };
            format!(
                "Recommended: {label}. {why}{predicted} Sessions in flight p99 {sessions} \
                 ({sessions_low}–{sessions_high}); cards {cards} ({cards_low}–{cards_high} across \
                 the range). {sensitivity}"
            )
        }
        Lang::De => {
            let predicted = if marks.is_empty() {
                String::new()
            } else {
                format!(
                    " Vorhergesagt mit einer ausgefallenen Kopie: {}.",
                    marks.join(", ")
                )
            };
            format!(
                "Empfohlen: {label}. {why}{predicted} Gleichzeitige Sitzungen p99 {sessions} \
                 ({sessions_low}–{sessions_high}); Karten {cards} ({cards_low}–{cards_high} über \
                 die Spanne). {sensitivity}"
            )
        }
    }
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
