//! The report's production recommendation: the pilot's capacity plan ([`crate::capacity`], the
//! same object the REST API and `server recommend` answer), laid out for print.
//!
//! One plan for both editions: the customer edition shows it without money, the internal
//! edition adds each listed configuration's cost at the GPU catalog's prices per GPU-hour. The
//! recommended configuration is the same in both, by construction (prices never rank).
//!
//! The section reads top-down: the one-paragraph story (verdict, demand, the pilot's hardware at
//! production load, the recommendation and why), the recommended configuration with its ranges
//! and sensitivity, the candidates under the production load (one copy down), the demand's
//! arithmetic with its cross-checks, and the next steps that settle what the ranges leave open.

use super::Edition;
use super::blocks::{Cell, Fact, Table};
use super::locale::Lang;
use crate::ServiceError;
use crate::Services;
use crate::model::Pilot;
use crate::pilot_evidence::PilotEvidence;
use engine::production::CapacityPlan;
use engine::production::capacity_plan::{CandidateForecast, Configuration, MarkForecast, NextStep};
use engine::production::demand_process::ArrivalBasis;

/// The production recommendation section (filled from the capacity plan).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RecommendationSection {
    /// One sentence: the chosen configuration, or why there is none.
    pub headline: String,
    pub ranked: Table,
    pub arithmetic: Table,
    pub commands: Vec<Fact>,
    pub notes: Vec<String>,
    /// The context per session and what the measured distribution says about it.
    pub context_note: String,
    /// How per-stream speed was reached (Estimated from the pilot's load test, or ceiling only).
    pub speed_note: String,
    /// What must happen before go-live (re-run the load test on the production stack, with the
    /// command).
    pub caveats: Vec<String>,
    /// The capacity twin's predicted compliance per mark, for candidates it applies to.
    pub compliance: Table,
    /// Internal edition only (empty otherwise): the listed configurations' costs.
    pub costs: Table,
    /// Which candidates the twin speaks for, and its back-tested error.
    pub twin_note: String,
}

/// Candidates listed besides the recommended one and the pilot's own configuration.
const LISTED: usize = 12;

fn cell(text: impl Into<String>, numeric: bool) -> Cell {
    Cell {
        text: text.into(),
        numeric,
    }
}

/// The report section of `pilot`'s recommendation.
pub async fn section(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    lang: Lang,
    edition: Edition,
) -> Result<RecommendationSection, ServiceError> {
    let catalog = crate::catalog::service::effective_catalog(&services.store).await?;
    let priced = edition.priced();
    Ok(
        match crate::capacity::capacity_plan(services, pilot, evidence, &catalog, priced).await? {
            Ok(plan) => render(&plan, lang, priced, catalog.currency.as_deref()),
            Err(why) => RecommendationSection {
                headline: format!("{}: {why}", lang.labels().no_recommendation),
                ..RecommendationSection::default()
            },
        },
    )
}

fn render(
    plan: &CapacityPlan,
    lang: Lang,
    priced: bool,
    currency: Option<&str>,
) -> RecommendationSection {
    let listed = listed(plan);
    RecommendationSection {
        headline: headline(plan),
        context_note: plan.story.clone(),
        speed_note: uncertainty(plan, lang),
        ranked: candidates_table(plan, &listed, lang),
        costs: if priced {
            costs_table(&listed, lang, currency)
        } else {
            Table::default()
        },
        compliance: compliance_table(plan, lang),
        twin_note: pilot_hardware_note(plan, lang),
        arithmetic: demand_table(plan, lang),
        commands: plan.next_steps.iter().map(next_step).collect(),
        notes: plan.warnings.clone(),
        caveats: Vec::new(),
    }
}

fn headline(plan: &CapacityPlan) -> String {
    match &plan.recommended {
        Some(r) => format!("Recommended: {}. {}", r.configuration.label, r.why),
        None => "No configuration within the card limit holds every mark with one copy down; see the warnings.".into(),
    }
}

/// The headline's ranges and its sensitivity to the growth factor.
fn uncertainty(plan: &CapacityPlan, lang: Lang) -> String {
    let Some(r) = &plan.recommended else {
        return String::new();
    };
    let n = |v: f64| lang.number(v, 0);
    let mut text = format!(
        "Sessions in flight at the production rate (p99 over all copies): {} (range {}–{}); cards: {} (range {}–{}), Estimated. {}",
        n(r.sessions.value),
        n(r.sessions.low),
        n(r.sessions.high),
        n(r.cards.value),
        n(r.cards.low),
        n(r.cards.high),
        r.sensitivity.sentence
    );
    if !r.unsettled.is_empty() {
        text.push_str(&format!(
            " Ranges that cross their mark: {}; the load test below settles them.",
            r.unsettled.join(", ")
        ));
    }
    text
}

/// The recommended configuration, the pilot's own, then the rest of the ranking.
fn listed(plan: &CapacityPlan) -> Vec<&CandidateForecast> {
    let own = plan.pilot_at_production.as_ref().map(|p| &p.configuration);
    let mut listed: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.rank.is_some())
        .take(LISTED)
        .collect();
    if let Some(own) = own
        && let Some(c) = plan
            .candidates
            .iter()
            .find(|c| same_hardware(&c.configuration, own))
        && !listed.iter().any(|l| std::ptr::eq(*l, c))
    {
        listed.push(c);
    }
    listed
}

/// The same cards, split and formats (production may run them with CUDA graphs where the pilot
/// ran eager).
fn same_hardware(a: &Configuration, b: &Configuration) -> bool {
    (&a.gpu_id, a.cards, a.tp, a.pp, a.weights, a.kv_dtype)
        == (&b.gpu_id, b.cards, b.tp, b.pp, b.weights, b.kv_dtype)
}

fn yes_no(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "yes",
        Some(false) => "no",
        None => "not evaluated",
    }
}

fn ranged_ms(value: Option<f64>, low: Option<f64>, high: Option<f64>, lang: Lang) -> String {
    match (value, low, high) {
        (Some(v), Some(l), Some(h)) => format!(
            "{} ms ({}–{})",
            lang.number(v, 0),
            lang.number(l, 0),
            lang.number(h, 0)
        ),
        (Some(v), _, _) => format!("{} ms", lang.number(v, 0)),
        _ => "not predicted".into(),
    }
}

/// Each mark with its figure: one copy down where that was simulated, else all copies up (the
/// pilot's own single copy).
fn marks_text(marks: &[MarkForecast], lang: Lang) -> String {
    marks
        .iter()
        .map(|m| {
            let figure = match (m.value, &m.all_copies_up) {
                (Some(v), _) => ranged_ms(Some(v), m.low, m.high, lang),
                (None, Some(a)) => ranged_ms(Some(a.value), Some(a.low), Some(a.high), lang),
                (None, None) => ranged_ms(None, None, None, lang),
            };
            format!("{}: {figure}", m.mark)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn candidates_table(plan: &CapacityPlan, listed: &[&CandidateForecast], lang: Lang) -> Table {
    let t = lang.labels();
    let own = plan.pilot_at_production.as_ref().map(|p| &p.configuration);
    let holding = plan.candidates.iter().filter(|c| c.rank.is_some()).count();
    Table {
        caption: format!(
            "Candidates under the production arrivals, simulated ({} of {} hold every mark with one copy down; marks are predicted with one copy down, Estimated, with their range)",
            lang.number(holding as f64, 0),
            lang.number(plan.candidates.len() as f64, 0)
        ),
        headers: vec![
            cell("#", true),
            cell(t.configuration, false),
            cell(t.cards, true),
            cell("Holds, all copies up", false),
            cell("Holds, one copy down", false),
            cell("Plan's latency marks, one copy down (range)", false),
            cell("Sessions per copy / p99 in flight per copy", true),
            cell("Headroom ×", true),
            cell("Output tok/s per stream, p50 (range)", true),
        ],
        rows: listed
            .iter()
            .map(|c| {
                let rank = c.rank.map_or_else(|| "—".to_string(), |r| r.to_string());
                let rank = if own.is_some_and(|o| same_hardware(&c.configuration, o)) {
                    format!("{rank} · {}", t.pilot_configuration)
                } else {
                    rank
                };
                vec![
                    cell(rank, true),
                    cell(c.configuration.label.clone(), false),
                    cell(c.cards.to_string(), true),
                    cell(yes_no(c.holds), false),
                    cell(yes_no(c.holds_n_plus_1), false),
                    cell(marks_text(&c.predicted, lang), false),
                    cell(
                        format!(
                            "{} / {}",
                            lang.number(c.sessions.per_copy as f64, 0),
                            lang.number(c.sessions.in_flight_p99_n_plus_1 as f64, 0)
                        ),
                        true,
                    ),
                    cell(
                        c.headroom.map_or_else(|| "—".into(), |h| lang.number(h, 2)),
                        true,
                    ),
                    cell(
                        c.tokens_per_s_per_stream.as_ref().map_or_else(
                            || "—".into(),
                            |r| {
                                format!(
                                    "{} ({}–{})",
                                    lang.number(r.value, 1),
                                    lang.number(r.low, 1),
                                    lang.number(r.high, 1)
                                )
                            },
                        ),
                        true,
                    ),
                ]
            })
            .collect(),
    }
}

/// Internal edition only: what the listed configurations cost; a card without a price per
/// GPU-hour in the catalog says so.
fn costs_table(listed: &[&CandidateForecast], lang: Lang, currency: Option<&str>) -> Table {
    let rows: Vec<Vec<Cell>> = listed
        .iter()
        .map(|c| {
            let mut row = vec![
                cell(c.configuration.label.clone(), false),
                cell(c.cards.to_string(), true),
            ];
            match &c.cost {
                Some(cost) => row.extend([
                    cell(lang.number(cost.price_per_gpu_hour, 2), true),
                    cell(lang.number(cost.per_month, 0), true),
                    cell(
                        cost.per_million_tokens.as_ref().map_or_else(
                            || "not predicted".into(),
                            |o| lang.number(o.per_million_output_tokens, 2),
                        ),
                        true,
                    ),
                ]),
                None => row.extend([
                    cell("no price set", false),
                    cell("—", true),
                    cell("—", true),
                ]),
            }
            row
        })
        .collect();
    let money = |label: &str| crate::model::with_currency(label, currency);
    Table {
        caption: "Costs at the GPU catalog's prices per GPU-hour (internal edition; they never change the ranking)".into(),
        headers: vec![
            cell(lang.labels().configuration, false),
            cell(lang.labels().cards, true),
            cell(money("Price per GPU-hour"), true),
            cell(money("Per month (730 h)"), true),
            cell(money("Per 1M output tokens at the production rate, Estimated"), true),
        ],
        rows,
    }
}

/// The recommended configuration's marks: one copy down, with ranges, and all copies up.
fn compliance_table(plan: &CapacityPlan, lang: Lang) -> Table {
    let Some(r) = &plan.recommended else {
        return Table::default();
    };
    let ms = |v: Option<f64>| v.map_or_else(|| "—".into(), |v| lang.number(v, 0));
    Table {
        caption: format!(
            "{} at the production arrivals: each mark predicted with one copy down (p50, p99, the mark's statistic and its range), Estimated",
            r.configuration.label
        ),
        headers: vec![
            cell("Mark", false),
            cell("p50, ms", true),
            cell("p99, ms", true),
            cell("Mark's statistic, ms", true),
            cell("Range, ms", true),
            cell("All copies up, ms", true),
            cell("Basis", false),
            cell("Holds, one copy down", false),
        ],
        rows: r
            .predicted
            .iter()
            .map(|m| {
                vec![
                    cell(m.mark.clone(), false),
                    cell(ms(m.p50), true),
                    cell(ms(m.p99), true),
                    cell(ms(m.value), true),
                    cell(format!("{}–{}", ms(m.low), ms(m.high)), true),
                    cell(
                        m.all_copies_up
                            .as_ref()
                            .map_or_else(|| "—".into(), |a| lang.number(a.value, 0)),
                        true,
                    ),
                    cell(m.basis.map_or("—", |b| b.label()), false),
                    cell(yes_no(m.holds_n_plus_1), false),
                ]
            })
            .collect(),
    }
}

fn pilot_hardware_note(plan: &CapacityPlan, lang: Lang) -> String {
    let Some(p) = &plan.pilot_at_production else {
        return "The capacity twin has no fit of the pilot's own configuration (no load test of one configuration in the catalog), so every candidate rests on the documented prior per GPU family.".into();
    };
    format!(
        "The pilot's own hardware ({}) at the production arrivals: {} ({} in flight at p99{}); {}.",
        p.configuration.label,
        match p.holds {
            Some(true) => "holds every mark",
            Some(false) => "misses a mark",
            None => "not evaluated",
        },
        lang.number(p.in_flight_p99 as f64, 0),
        if p.overloaded { ", overloaded" } else { "" },
        marks_text(&p.predicted, lang)
    )
}

fn demand_table(plan: &CapacityPlan, lang: Lang) -> Table {
    let d = &plan.demand;
    let s = &d.sessions;
    let row = |what: &str, value: String, how: &str| {
        vec![cell(what, false), cell(value, true), cell(how, false)]
    };
    Table {
        caption: "Production demand, as an arrival process".into(),
        headers: vec![cell("", false), cell("Value", true), cell("How", false)],
        rows: vec![
            row(
                "Pilot arrival rate, busiest hour",
                format!("{} req/s", lang.number(d.pilot_rate, 3)),
                "gateway log (measured)",
            ),
            row(
                "Growth",
                format!("{}×", lang.number(d.growth, 2)),
                "the plan's demand assumptions",
            ),
            row(
                "Production arrival rate",
                format!("{} req/s", lang.number(d.rate, 3)),
                "pilot rate × growth",
            ),
            row(
                "Sessions in flight, p50 / p99",
                format!("{} / {}", s.p50, s.p99),
                match d.arrivals {
                    ArrivalBasis::Replayed => {
                        "simulated: the pilot's busiest hour replayed, superposed and thinned to the production rate, each request with its own lengths and measured duration (the p99 is what production must hold)"
                    }
                    ArrivalBasis::Poisson => {
                        "simulated: Poisson arrivals at the production rate with the log's lengths, each held as long as the pilot's requests (the p99 is what production must hold)"
                    }
                },
            ),
            row(
                "Cross-check: Little's law (mean)",
                lang.number(s.little_mean, 1),
                "production rate × mean request time",
            ),
            row(
                "Cross-check: Poisson p99",
                s.poisson_p99.to_string(),
                "p99 of Poisson(Little's mean): independent users",
            ),
            row(
                "Mean request time",
                format!("{} s", lang.number(s.mean_duration_s, 2)),
                "gateway log (measured)",
            ),
            row(
                "Context per session",
                format!(
                    "{} tokens",
                    lang.number(d.context_tokens_per_session as f64, 0)
                ),
                "whole sessions: the longest measured request or the plan's context, whichever is larger (vLLM's --max-model-len)",
            ),
            row(
                "Prompt / answer tokens, mean",
                format!(
                    "{} / {}",
                    lang.number(d.prompt_tokens_mean, 0),
                    lang.number(d.output_tokens_mean, 0)
                ),
                "gateway log (measured)",
            ),
        ],
    }
}

fn next_step(step: &NextStep) -> Fact {
    match step {
        NextStep::LoadTest {
            configuration,
            concurrency,
            sentence,
            commands,
            ..
        } => Fact {
            label: format!("Load test on {configuration}"),
            value: format!(
                "{sentence}\nConcurrency per copy: {}{}",
                concurrency
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                commands
                    .iter()
                    .map(|c| format!("\n\n# {}\n{}", c.label, c.command))
                    .collect::<String>()
            ),
            note: String::new(),
        },
        NextStep::Evaluation {
            configuration,
            sentence,
        } => Fact {
            label: format!("Evaluation set on {configuration}"),
            value: sentence.clone(),
            note: String::new(),
        },
    }
}
