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
use super::locale::{Lang, LangLabels};
use crate::ServiceError;
use crate::Services;
use crate::model::Pilot;
use crate::pilot_evidence::PilotEvidence;
use engine::production::CapacityPlan;
use engine::production::capacity_plan::{
    CandidateForecast, Configuration, MarkForecast, NextStep, PilotVerdict,
};
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
    /// The `vllm serve` line of each copy as sized (`recommended.start_command`), and what it is.
    pub start_command: String,
    pub start_label: String,
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
    let verdict = crate::verdict::service::build(pilot.clone(), evidence);
    let verdict = verdict.outcome.map(|outcome| PilotVerdict {
        outcome,
        tally: verdict.tally,
    });
    Ok(
        match crate::capacity::capacity_plan(services, pilot, evidence, &catalog, priced).await? {
            Ok(plan) => render(
                &plan,
                verdict.as_ref(),
                lang,
                priced,
                catalog.currency.as_deref(),
            ),
            Err(why) => RecommendationSection {
                headline: format!("{}: {}", lang.labels().no_recommendation, why.text_in(lang)),
                ..RecommendationSection::default()
            },
        },
    )
}

fn render(
    plan: &CapacityPlan,
    verdict: Option<&PilotVerdict>,
    lang: Lang,
    priced: bool,
    currency: Option<&str>,
) -> RecommendationSection {
    let listed = listed(plan);
    RecommendationSection {
        headline: headline(plan, lang),
        context_note: plan.story_in(verdict, crate::capacity::MAX_CARDS, lang),
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
        commands: plan
            .next_steps
            .iter()
            .map(|s| next_step(s, plan, lang))
            .collect(),
        notes: notes(plan, lang),
        caveats: Vec::new(),
        start_command: plan
            .recommended
            .as_ref()
            .map(|r| r.start_command.clone())
            .unwrap_or_default(),
        start_label: start_label(plan, lang),
    }
}

/// What the start line is, in `lang`: one command per copy, on its own cards.
fn start_label(plan: &CapacityPlan, lang: Lang) -> String {
    let Some(r) = &plan.recommended else {
        return String::new();
    };
    let c = &r.configuration;
    let (copies, cards) = (c.copies, c.tp * c.pp);
    match lang {
        Lang::En => format!(
            "Production start command: run it on each of the {copies} {} ({cards} {} each),              as sized above",
            if copies == 1 { "copy" } else { "copies" },
            if cards == 1 { "card" } else { "cards" },
        ),
        Lang::De => format!(
            "Startbefehl der Produktion: auf {} ({cards} {} je Kopie) auszuführen, wie oben              bemessen",
            if copies == 1 {
                "der einen Kopie".to_string()
            } else {
                format!("jeder der {copies} Kopien")
            },
            if cards == 1 { "Karte" } else { "Karten" },
        ),
    }
}

fn headline(plan: &CapacityPlan, lang: Lang) -> String {
    match &plan.recommended {
        Some(r) => format!(
            "{}: {}. {}",
            lang.pick("Recommended", "Empfohlen"),
            r.configuration.label_in(lang),
            match lang {
                Lang::En => r.why.clone(),
                Lang::De => plan.why_in(lang).unwrap_or_else(|| r.why.clone()),
            }
        ),
        None => lang.pick(
            "No configuration within the card limit holds every mark with one copy down; see the warnings.",
            "Keine Konfiguration innerhalb der Kartengrenze hält jeden Zielwert mit einer ausgefallenen Kopie; siehe die Hinweise.",
        )
        .into(),
    }
}

/// The headline's ranges and its sensitivity to the growth factor.
fn uncertainty(plan: &CapacityPlan, lang: Lang) -> String {
    let Some(r) = &plan.recommended else {
        return String::new();
    };
    let n = |v: f64| lang.number(v, 0);
    let template = lang.pick(
        "Sessions in flight at the production rate (p99 over all copies): {sessions} (range {sessions_low}–{sessions_high}); cards: {cards} (range {cards_low}–{cards_high}), Estimated. ",
        "Gleichzeitige Sitzungen bei der Produktionsrate (p99 über alle Kopien): {sessions} (Spanne {sessions_low}–{sessions_high}); Karten: {cards} (Spanne {cards_low}–{cards_high}), geschätzt. ",
    );
    let mut text = template
        .replace("{sessions}", &n(r.sessions.value))
        .replace("{sessions_low}", &n(r.sessions.low))
        .replace("{sessions_high}", &n(r.sessions.high))
        .replace("{cards}", &n(r.cards.value))
        .replace("{cards_low}", &n(r.cards.low))
        .replace("{cards_high}", &n(r.cards.high));
    text.push_str(&match lang {
        Lang::En => r.sensitivity.sentence.clone(),
        Lang::De => {
            r.sensitivity
                .sentence_in(&r.configuration.gpu_name, crate::capacity::MAX_CARDS, lang)
        }
    });
    if !r.unsettled.is_empty() {
        text.push_str(&format!(
            " {}: {}; {}",
            lang.pick(
                "Ranges that cross their mark",
                "Spannen, die ihren Zielwert überschreiten"
            ),
            r.unsettled_in(lang).join(", "),
            lang.pick(
                "the load test below settles them.",
                "der Lasttest unten klärt sie."
            )
        ));
    }
    text
}

/// The plan's warnings; those the plan phrases itself from the recommendation (the ranges that
/// cross their mark) in `lang`.
fn notes(plan: &CapacityPlan, lang: Lang) -> Vec<String> {
    let Some(r) = plan.recommended.as_ref().filter(|_| lang != Lang::En) else {
        return plan.warnings.clone();
    };
    let english = r.unsettled_warnings_in(Lang::En);
    let phrased = r.unsettled_warnings_in(lang);
    plan.warnings
        .iter()
        .map(|w| match english.iter().position(|e| e == w) {
            Some(i) => phrased[i].clone(),
            None => w.clone(),
        })
        .collect()
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

fn yes_no(value: Option<bool>, lang: Lang) -> &'static str {
    let t = lang.labels();
    match value {
        Some(true) => t.yes,
        Some(false) => t.no,
        None => lang.pick("not evaluated", "nicht bewertet"),
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
        _ => lang.labels().cost_no_prediction.into(),
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
    let tr = |en, de| lang.pick(en, de);
    Table {
        caption: tr(
            "Candidates under the production arrivals, simulated ({holding} of {all} hold every mark with one copy down; marks are predicted with one copy down, Estimated, with their range)",
            "Kandidaten unter den Ankünften der Produktion, simuliert ({holding} von {all} halten jeden Zielwert mit einer ausgefallenen Kopie; die Zielwerte sind mit einer ausgefallenen Kopie vorhergesagt, geschätzt, mit ihrer Spanne)",
        )
        .replace("{holding}", &lang.number(holding as f64, 0))
        .replace("{all}", &lang.number(plan.candidates.len() as f64, 0)),
        headers: vec![
            cell("#", true),
            cell(t.configuration, false),
            cell(t.cards, true),
            cell(tr("Holds, all copies up", "Hält, alle Kopien aktiv"), false),
            cell(
                tr("Holds, one copy down", "Hält, eine Kopie ausgefallen"),
                false,
            ),
            cell(
                tr(
                    "Plan's latency marks, one copy down (range)",
                    "Latenzkriterien des Plans, eine Kopie ausgefallen (Spanne)",
                ),
                false,
            ),
            cell(
                tr(
                    "Sessions per copy / p99 in flight per copy",
                    "Sitzungen je Kopie / p99 gleichzeitig je Kopie",
                ),
                true,
            ),
            cell(tr("Headroom ×", "Reserve ×"), true),
            cell(
                tr(
                    "Output tok/s per stream, p50 (range)",
                    "Ausgabe-Token/s je Stream, p50 (Spanne)",
                ),
                true,
            ),
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
                    cell(c.configuration.label_in(lang), false),
                    cell(c.cards.to_string(), true),
                    cell(yes_no(c.holds, lang), false),
                    cell(yes_no(c.holds_n_plus_1, lang), false),
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
                cell(c.configuration.label_in(lang), false),
                cell(c.cards.to_string(), true),
            ];
            match &c.cost {
                Some(cost) => row.extend([
                    cell(lang.number(cost.price_per_gpu_hour, 2), true),
                    cell(lang.number(cost.per_month, 0), true),
                    cell(
                        cost.per_million_tokens.as_ref().map_or_else(
                            || lang.labels().cost_no_prediction.into(),
                            |o| lang.number(o.per_million_output_tokens, 2),
                        ),
                        true,
                    ),
                ]),
                None => row.extend([
                    cell(lang.labels().cost_not_priced, false),
                    cell("—", true),
                    cell("—", true),
                ]),
            }
            row
        })
        .collect();
    let money = |label: &str| crate::model::with_currency(label, currency);
    Table {
        caption: lang
            .pick(
                "Costs at the GPU catalog's prices per GPU-hour (internal edition; they never change the ranking)",
                "Kosten zu den Preisen je GPU-Stunde aus dem GPU-Katalog (interne Ausgabe; sie ändern die Rangfolge nie)",
            )
            .into(),
        headers: vec![
            cell(lang.labels().configuration, false),
            cell(lang.labels().cards, true),
            cell(
                money(lang.pick("Price per GPU-hour", "Preis je GPU-Stunde")),
                true,
            ),
            cell(
                money(lang.pick("Per month (730 h)", "Pro Monat (730 h)")),
                true,
            ),
            cell(
                money(lang.pick(
                    "Per 1M output tokens at the production rate, Estimated",
                    "Je 1 Mio. Ausgabe-Token bei der Produktionsrate, geschätzt",
                )),
                true,
            ),
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
    let tr = |en, de| lang.pick(en, de);
    Table {
        caption: format!(
            "{} {}",
            r.configuration.label_in(lang),
            tr(
                "at the production arrivals: each mark predicted with one copy down (p50, p99, the mark's statistic and its range), Estimated",
                "bei den Ankünften der Produktion: jeder Zielwert mit einer ausgefallenen Kopie vorhergesagt (p50, p99, die Statistik des Zielwerts und ihre Spanne), geschätzt",
            )
        ),
        headers: vec![
            cell(tr("Mark", "Zielwert"), false),
            cell("p50, ms", true),
            cell("p99, ms", true),
            cell(
                tr("Mark's statistic, ms", "Statistik des Zielwerts, ms"),
                true,
            ),
            cell(tr("Range, ms", "Spanne, ms"), true),
            cell(tr("All copies up, ms", "Alle Kopien aktiv, ms"), true),
            cell(tr("Basis", "Grundlage"), false),
            cell(
                tr(
                    "Back-tested error on other GPUs",
                    "Rückgetesteter Fehler auf anderen GPUs",
                ),
                true,
            ),
            cell(
                tr("Holds, one copy down", "Hält, eine Kopie ausgefallen"),
                false,
            ),
        ],
        rows: r
            .predicted
            .iter()
            .map(|m| {
                vec![
                    cell(mark_with_gateway(m, lang), false),
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
                    cell(
                        m.basis
                            .map_or("—", |b| super::twin::basis_label(b, lang.labels())),
                        false,
                    ),
                    cell(backtested_error(m, lang), true),
                    cell(yes_no(m.holds_n_plus_1, lang), false),
                ]
            })
            .collect(),
    }
}

/// The mark, and when its figures include the gateway's own time, how much: `TTFT p99 ≤ 450 ms
/// @ client (includes the gateway's 100 ms, 73–134 ms)`.
fn mark_with_gateway(m: &MarkForecast, lang: Lang) -> String {
    let Some(budget) = m.gateway_budget_ms else {
        return m.mark.clone();
    };
    let n = |v: f64| lang.number(v, 0);
    match lang {
        Lang::De => format!(
            "{} (einschließlich Gateway: {} ms, {}–{} ms)",
            m.mark,
            n(budget.value),
            n(budget.low),
            n(budget.high)
        ),
        Lang::En => format!(
            "{} (includes the gateway's {} ms, {}–{} ms)",
            m.mark,
            n(budget.value),
            n(budget.low),
            n(budget.high)
        ),
    }
}

/// `40 % median, 131 % worst (6 GPU pairs)`: the GPU back-test's error of an Estimated mark's
/// metric (`engine/src/twin/VALIDATION.md`); `—` for a figure it does not cover.
fn backtested_error(m: &MarkForecast, lang: Lang) -> String {
    let Some(e) = m.backtested_error else {
        return "—".into();
    };
    format!(
        "{} % {}, {} % {} ({} {})",
        lang.number(e.median_error_pct, 0),
        lang.pick("median", "Median"),
        lang.number(e.worst_error_pct, 0),
        lang.pick("worst", "höchstens"),
        e.pairs,
        lang.pick("GPU pairs", "GPU-Paare"),
    )
}

fn pilot_hardware_note(plan: &CapacityPlan, lang: Lang) -> String {
    let tr = |en, de| lang.pick(en, de);
    let Some(p) = &plan.pilot_at_production else {
        return tr(
            "The capacity twin has no fit of the pilot's own configuration (no load test of one configuration in the catalog), so every candidate rests on the documented prior per GPU family.",
            "Der Kapazitäts-Zwilling hat keine Anpassung an die eigene Konfiguration des Piloten (kein Lasttest einer Konfiguration aus dem Katalog); jeder Kandidat beruht daher auf der dokumentierten Vorannahme je GPU-Familie.",
        )
        .into();
    };
    format!(
        "{} ({}) {}: {} ({} {}{}); {}.",
        tr(
            "The pilot's own hardware",
            "Die eigene Hardware des Piloten"
        ),
        p.configuration.label_in(lang),
        tr(
            "at the production arrivals",
            "bei den Ankünften der Produktion"
        ),
        match p.holds {
            Some(true) => tr("holds every mark", "hält jeden Zielwert"),
            Some(false) => tr("misses a mark", "verfehlt einen Zielwert"),
            None => tr("not evaluated", "nicht bewertet"),
        },
        lang.number(p.in_flight_p99 as f64, 0),
        tr("in flight at p99", "gleichzeitig bei p99"),
        if p.overloaded {
            tr(", overloaded", ", überlastet")
        } else {
            ""
        },
        marks_text(&p.predicted, lang)
    )
}

fn demand_table(plan: &CapacityPlan, lang: Lang) -> Table {
    let d = &plan.demand;
    let s = &d.sessions;
    let tr = |en, de| lang.pick(en, de);
    let row = |what: &str, value: String, how: &str| {
        vec![cell(what, false), cell(value, true), cell(how, false)]
    };
    let measured = tr("gateway log (measured)", "Gateway-Log (gemessen)");
    Table {
        caption: tr(
            "Production demand, as an arrival process",
            "Nachfrage der Produktion als Ankunftsprozess",
        )
        .into(),
        headers: vec![
            cell("", false),
            cell(lang.labels().value, true),
            cell(tr("How", "Herkunft"), false),
        ],
        rows: vec![
            row(
                tr(
                    "Pilot arrival rate, busiest hour",
                    "Ankunftsrate des Piloten, Spitzenstunde",
                ),
                format!("{} req/s", lang.number(d.pilot_rate, 3)),
                measured,
            ),
            row(
                tr("Growth", "Wachstum"),
                format!("{}×", lang.number(d.growth, 2)),
                tr(
                    "the plan's demand assumptions",
                    "die Annahmen des Plans zur Nachfrage",
                ),
            ),
            row(
                tr("Production arrival rate", "Ankunftsrate der Produktion"),
                format!("{} req/s", lang.number(d.rate, 3)),
                tr("pilot rate × growth", "Rate des Piloten × Wachstum"),
            ),
            row(
                tr(
                    "Sessions in flight, p50 / p99",
                    "Gleichzeitige Sitzungen, p50 / p99",
                ),
                format!("{} / {}", s.p50, s.p99),
                match d.arrivals {
                    ArrivalBasis::Replayed => tr(
                        "simulated: the pilot's busiest hour replayed, superposed and thinned to the production rate, each request with its own lengths and measured duration (the p99 is what production must hold)",
                        "simuliert: die Spitzenstunde des Piloten wiedergegeben, überlagert und auf die Produktionsrate ausgedünnt, jede Anfrage mit ihren eigenen Längen und ihrer gemessenen Dauer (das p99 muss die Produktion halten)",
                    ),
                    ArrivalBasis::Poisson => tr(
                        "simulated: Poisson arrivals at the production rate with the log's lengths, each held as long as the pilot's requests (the p99 is what production must hold)",
                        "simuliert: Poisson-Ankünfte bei der Produktionsrate mit den Längen aus dem Log, jede so lange gehalten wie die Anfragen des Piloten (das p99 muss die Produktion halten)",
                    ),
                },
            ),
            row(
                tr(
                    "Cross-check: Little's law (mean)",
                    "Gegenprobe: Littles Gesetz (Mittelwert)",
                ),
                lang.number(s.little_mean, 1),
                tr(
                    "production rate × mean request time",
                    "Produktionsrate × mittlere Anfragedauer",
                ),
            ),
            row(
                tr("Cross-check: Poisson p99", "Gegenprobe: Poisson-p99"),
                s.poisson_p99.to_string(),
                tr(
                    "p99 of Poisson(Little's mean): independent users",
                    "p99 von Poisson(Mittelwert nach Little): unabhängige Nutzer",
                ),
            ),
            row(
                tr("Mean request time", "Mittlere Anfragedauer"),
                format!("{} s", lang.number(s.mean_duration_s, 2)),
                measured,
            ),
            row(
                tr("Context per session", "Kontext je Sitzung"),
                format!(
                    "{} {}",
                    lang.number(d.context_tokens_per_session as f64, 0),
                    tr("tokens", "Token")
                ),
                tr(
                    "whole sessions: the longest measured request or the plan's context, whichever is larger (vLLM's --max-model-len)",
                    "ganze Sitzungen: die längste gemessene Anfrage oder der Kontext des Plans, je nachdem, was größer ist (--max-model-len von vLLM)",
                ),
            ),
            row(
                tr(
                    "Prompt / answer tokens, mean",
                    "Prompt- / Antwort-Token, Mittelwert",
                ),
                format!(
                    "{} / {}",
                    lang.number(d.prompt_tokens_mean, 0),
                    lang.number(d.output_tokens_mean, 0)
                ),
                measured,
            ),
        ],
    }
}

/// The configuration a next step names, in `lang` when it is the recommended one.
fn step_configuration(configuration: &str, plan: &CapacityPlan, lang: Lang) -> String {
    match &plan.recommended {
        Some(r) if r.configuration.label == configuration => r.configuration.label_in(lang),
        _ => configuration.to_string(),
    }
}

fn next_step(step: &NextStep, plan: &CapacityPlan, lang: Lang) -> Fact {
    match step {
        NextStep::LoadTest {
            configuration,
            concurrency,
            sentence,
            commands,
            replay_pilot_trace,
            ..
        } => Fact {
            label: format!(
                "{} {}",
                lang.pick("Load test on", "Lasttest auf"),
                step_configuration(configuration, plan, lang)
            ),
            value: format!(
                "{}\n{}: {}{}",
                match &plan.recommended {
                    Some(r) if lang != Lang::En && &r.configuration.label == configuration => {
                        r.load_test_sentence_in(*replay_pilot_trace, lang)
                    }
                    _ => sentence.clone(),
                },
                lang.pick("Concurrency per copy", "Parallelität je Kopie"),
                concurrency
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                commands
                    .iter()
                    .map(|c| format!("\n\n# {}\n{}", c.label_in(lang), c.command))
                    .collect::<String>()
            ),
            note: String::new(),
        },
        NextStep::Evaluation {
            configuration,
            sentence,
        } => Fact {
            value: match (&plan.recommended, lang) {
                (Some(r), Lang::De) => format!(
                    "Vor dem Go-live den Evaluationsdatensatz auf dem Produktions-Stack wiederholen \
                     (Gewichte {}, KV-Cache {}): Qualität gilt nur in der Präzision, in der sie \
                     gemessen wurde.",
                    r.configuration.weights.label(),
                    r.configuration.kv_dtype.label().replace("-bit", "-Bit")
                ),
                _ => sentence.clone(),
            },
            label: format!(
                "{} {}",
                lang.pick("Evaluation set on", "Evaluationsdatensatz auf"),
                step_configuration(configuration, plan, lang)
            ),
            note: String::new(),
        },
    }
}
