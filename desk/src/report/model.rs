//! What the report shows, gathered from the pilot's evidence and pre-formatted for one language.

use super::locale::{Lang, LangLabels};
use crate::ServiceError;
use crate::Services;
use crate::evidence_history::{EvidenceEntry, EvidenceStatus, HistoryAction};
use crate::load_tests::{LoadTestRun, PointRow};
use crate::model::{EvidenceFile, Pilot};
use crate::pilot_evidence::{PilotEvidence, gather};
use crate::verdict::service::build_in;
use crate::verdict::{VerdictRow, VerdictView, VerdictWarning};
use engine::demand::{DemandProfile, TokenDistribution};

pub use super::blocks::{Cell, Fact, ReportChart, Table};
use super::blocks::{num, text};
pub use super::recommendation::RecommendationSection;

/// A verdict row ready to print.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkLine {
    pub sentence: String,
    pub notation: String,
    pub status: String,
    /// `pass`, `fail`, `not_measured`, `not_comparable`: the CSS class.
    pub status_class: String,
    pub measured: String,
    pub point: String,
    pub definition: String,
    pub source: String,
    pub explanation: String,
    /// `n = 30 requests`, or empty when the figure does not say.
    pub samples: String,
}

/// Everything the report template needs.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportModel {
    pub lang: Lang,
    pub pilot_name: String,
    pub customer: String,
    pub model: String,
    pub hardware: String,
    pub serving: String,
    pub pilot_status: String,
    pub description: String,
    pub plan_version: String,
    /// The plan version graded against, as a number (for the export record).
    pub plan_version_number: Option<u32>,
    pub created: String,
    pub report_date: String,
    pub verdict_headline: String,
    /// `passed`, `failed` or `incomplete`.
    pub verdict_class: String,
    pub summary: Vec<String>,
    pub warnings: Vec<Fact>,
    pub marks: Vec<MarkLine>,
    pub scenarios: Vec<String>,
    pub plan_facts: Vec<Fact>,
    pub demand_facts: Vec<Fact>,
    pub demand_charts: Vec<ReportChart>,
    pub load_charts: Vec<ReportChart>,
    pub load_tables: Vec<Table>,
    pub quality_table: Option<Table>,
    pub precision_decision: String,
    pub flips: Vec<String>,
    pub recommendation: Option<RecommendationSection>,
    /// The capacity twin at the plan's production load ([`super::twin`]).
    pub twin: super::twin::TwinSection,
    pub caveats: Vec<String>,
    pub evidence: Table,
    /// Set in the internal edition (prices shown): the sentence its title page carries.
    pub internal_note: Option<String>,
    /// On a shared page: the link to the same report as PDF (never printed).
    pub pdf_link: Option<String>,
}

/// Builds the report of `pilot` (visibility already checked, and the caller's right to
/// `edition`) in `lang`, at `now_ms`.
pub async fn build_report(
    services: &Services,
    pilot: Pilot,
    lang: Lang,
    edition: super::Edition,
    reader: super::Reader,
    now_ms: i64,
) -> Result<ReportModel, ServiceError> {
    let evidence = gather(services, pilot.id).await?;
    let verdict = build_in(pilot.clone(), &evidence, lang);
    let files = services.store.evidence_register(pilot.id).await?;
    let events = services.store.evidence_events(pilot.id).await?;
    let files: Vec<_> = files
        .into_iter()
        .map(|(file, _)| {
            let mut entry = crate::evidence_history::service::entry(&file, &events);
            if reader == super::Reader::ShareLink {
                // Who withdrew a file and why is the team's working record: a share link
                // shows when, never a staff member's address or an internal reason.
                for step in &mut entry.history {
                    step.by.clear();
                    step.reason = None;
                }
            }
            (file, entry)
        })
        .collect();
    let recommendation =
        Some(super::recommendation::section(services, &pilot, &evidence, lang, edition).await?);
    let twin = super::twin::section(services, &pilot, lang).await?;
    let mut report = assemble(
        &pilot,
        &evidence,
        &verdict,
        &files,
        recommendation,
        lang,
        now_ms,
    );
    report.twin = twin;
    report.internal_note = edition
        .priced()
        .then(|| lang.labels().internal_edition_note.to_string());
    Ok(report)
}

/// The verdict's headline in the report's language: `3 of 4 pass marks met, 1 not measured`.
fn headline(verdict: &VerdictView, lang: Lang) -> String {
    let t = lang.labels();
    let Some(outcome) = verdict.outcome else {
        return t.nothing_to_grade.into();
    };
    let label = match outcome {
        engine::verdict::PlanOutcome::Passed => t.outcome_passed,
        engine::verdict::PlanOutcome::Failed => t.outcome_failed,
        engine::verdict::PlanOutcome::Incomplete => t.outcome_incomplete,
    };
    format!(
        "{label}: {}.",
        verdict.tally.summary_in(verdict.rows.len(), lang)
    )
}

/// A grade's label in the report's language.
fn grade_label(verdict: &engine::verdict::Verdict, lang: Lang) -> String {
    let t = lang.labels();
    use engine::verdict::Verdict;
    let label = match verdict {
        Verdict::Pass => t.grade_pass,
        Verdict::Fail => t.grade_fail,
        Verdict::NotMeasured => t.not_measured,
        Verdict::NotComparable { .. } => t.not_comparable,
    };
    let mut chars = label.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A verdict row (already worded in the report's language) as the report prints it.
fn mark_line(row: &VerdictRow, lang: Lang) -> MarkLine {
    MarkLine {
        sentence: row.sentence.clone(),
        notation: match lang {
            Lang::En => row.notation.clone(),
            Lang::De => german_notation(&row.notation),
        },
        status: match lang {
            Lang::En => row.verdict.label().to_string(),
            Lang::De => grade_label(&row.verdict, lang),
        },
        status_class: row.verdict.as_str().to_string(),
        measured: row.measured.clone(),
        point: row.point.clone(),
        definition: row.definition.clone(),
        source: row.source.clone(),
        explanation: row.explanation.clone(),
        samples: row
            .samples
            .map(|n| format!("n = {}", lang.number(n as f64, 0)))
            .unwrap_or_default(),
    }
}

/// The notation's measurement point in German: `TTFT p99 ≤ 450 ms @ Client`.
fn german_notation(notation: &str) -> String {
    match notation.rsplit_once(" @ ") {
        Some((mark, point)) => {
            let point = match point {
                "client" => "Client",
                "gateway" => "Gateway",
                "engine" => "Engine",
                "evaluation set" => "Evaluationsdatensatz",
                other => other,
            };
            format!("{mark} @ {point}")
        }
        None => notation.to_string(),
    }
}

/// A verdict warning (already worded in the report's language) as a fact of the report.
fn warning_fact(w: &VerdictWarning) -> Fact {
    Fact {
        label: w.title.clone(),
        value: w.detail.clone(),
        note: String::new(),
    }
}

fn assemble(
    pilot: &Pilot,
    evidence: &PilotEvidence,
    verdict: &VerdictView,
    files: &[(EvidenceFile, EvidenceEntry)],
    recommendation: Option<RecommendationSection>,
    lang: Lang,
    now_ms: i64,
) -> ReportModel {
    let t = lang.labels();
    let plan_version = match (verdict.plan_version, verdict.plan_approved_ms) {
        (Some(n), Some(at)) => format!("{n} ({})", lang.date_time(at)),
        (Some(n), None) => n.to_string(),
        _ => t.not_approved.to_string(),
    };
    let verdict_class = match verdict.outcome {
        Some(engine::verdict::PlanOutcome::Passed) => "passed",
        Some(engine::verdict::PlanOutcome::Failed) => "failed",
        _ => "incomplete",
    };
    let (quality_table, precision_decision, flips) = quality_section(evidence, lang);
    let mut summary = vec![headline(verdict, lang)];
    if let Some(rec) = &recommendation {
        summary.push(rec.headline.clone());
    }
    if !precision_decision.is_empty() {
        summary.push(precision_decision.clone());
    }
    if let Some((profile, _)) = &evidence.profile {
        let (arrivals, in_flight) = (profile.busiest_hour_arrivals, profile.peak_in_flight);
        let one = |n: u64, singular: &'static str, plural: &'static str| match n {
            1 => singular,
            _ => plural,
        };
        let (arrivals_words, in_flight_words) = match lang {
            Lang::En => (
                one(
                    arrivals,
                    "request in the busiest hour",
                    "requests in the busiest hour",
                ),
                one(
                    in_flight,
                    "request in flight at the peak (gateway)",
                    "requests in flight at the peak (gateway)",
                ),
            ),
            Lang::De => (
                one(
                    arrivals,
                    "Anfrage in der Spitzenstunde",
                    "Anfragen in der Spitzenstunde",
                ),
                one(
                    in_flight,
                    "gleichzeitige Anfrage in der Spitze (Gateway)",
                    "gleichzeitige Anfragen in der Spitze (Gateway)",
                ),
            ),
        };
        summary.push(format!(
            "{}: {} req/s ({} {arrivals_words}), {} {in_flight_words}.",
            t.demand,
            lang.figure(profile.busiest_hour_arrivals_per_s),
            lang.number(arrivals as f64, 0),
            lang.number(in_flight as f64, 0),
        ));
    }
    if !verdict.warnings.is_empty() {
        let n = verdict.warnings.len();
        summary.push(match (lang, n) {
            (Lang::En, 1) => {
                "1 thing to keep in mind when reading the verdict (listed below).".into()
            }
            (Lang::En, n) => {
                format!("{n} things to keep in mind when reading the verdict (listed below).")
            }
            (Lang::De, 1) => "1 Hinweis zum Lesen des Ergebnisses (unten aufgeführt).".into(),
            (Lang::De, n) => format!("{n} Hinweise zum Lesen des Ergebnisses (unten aufgeführt)."),
        });
    }
    let plan = evidence.plan.as_ref();
    let mut caveats: Vec<String> = vec![
        t.caveat_latency.into(),
        t.caveat_ceiling.into(),
        t.caveat_pilot_concurrency.into(),
        t.caveat_small_set.into(),
    ];
    // The recommendation's re-run caveat carries the exact command; the verdict's generic one
    // stands in when there is no recommendation.
    let rec_caveats = recommendation
        .as_ref()
        .map(|r| r.caveats.clone())
        .unwrap_or_default();
    caveats.extend(rec_caveats.iter().cloned());
    // The verdict's caveats come worded in `lang`; the first is always its generic re-run.
    let generic_rerun = usize::from(!rec_caveats.is_empty());
    caveats.extend(verdict.caveats.iter().skip(generic_rerun).cloned());
    let mut demand_facts = evidence
        .profile
        .as_ref()
        .map(|(p, _)| demand_facts(p, lang))
        .unwrap_or_default();
    for check in &evidence.in_flight.checks {
        demand_facts.push(Fact {
            label: if check.agrees {
                lang.pick("In flight, cross-checked", "Gleichzeitige Anfragen, gegengeprüft")
                    .into()
            } else {
                lang.pick(
                    "In flight, cross-checked: disagree",
                    "Gleichzeitige Anfragen, gegengeprüft: Abweichung",
                )
                .into()
            },
            value: evidence.in_flight_sentence(check, lang),
            note: format!(
                "{} ±{} %",
                lang.pick(
                    "Little's law: mean in flight = arrival rate × mean time in system; tolerance",
                    "Littles Gesetz: mittlere gleichzeitige Anfragen = Ankunftsrate × mittlere Verweildauer; Toleranz",
                ),
                lang.number(check.tolerance * 100.0, 0)
            ),
        });
    }
    if let Some(gap) = evidence.in_flight.gap_in(lang) {
        demand_facts.push(Fact {
            label: lang
                .pick(
                    "In flight, server side",
                    "Gleichzeitige Anfragen, Serverseite",
                )
                .into(),
            value: gap.clone(),
            note: String::new(),
        });
    }
    ReportModel {
        lang,
        pilot_name: pilot.name.clone(),
        customer: pilot.organisation_name.clone(),
        model: pilot.model.clone(),
        hardware: pilot.hardware(),
        serving: pilot.serving(),
        pilot_status: t.statuses[pilot.status as usize].to_string(),
        description: pilot.description.clone(),
        plan_version,
        plan_version_number: verdict.plan_version,
        created: lang.date_time(pilot.created_ms),
        report_date: lang.date_time(now_ms),
        verdict_headline: headline(verdict, lang),
        verdict_class: verdict_class.into(),
        summary,
        warnings: verdict.warnings.iter().map(warning_fact).collect(),
        marks: verdict.rows.iter().map(|r| mark_line(r, lang)).collect(),
        scenarios: plan
            .map(|p| p.content.scenarios.iter().map(|s| s.summary()).collect())
            .unwrap_or_default(),
        plan_facts: plan
            .map(|p| plan_facts(&p.content, lang))
            .unwrap_or_default(),
        demand_facts,
        demand_charts: evidence
            .profile
            .as_ref()
            .map(|(p, _)| demand_charts(p, lang))
            .unwrap_or_default(),
        load_charts: load_charts(evidence, lang),
        load_tables: evidence
            .runs
            .iter()
            .map(|checked| load_table(&checked.run, &checked.check, lang))
            .collect(),
        quality_table,
        precision_decision,
        flips,
        recommendation,
        twin: Default::default(),
        caveats,
        evidence: evidence_table(files, evidence, lang),
        internal_note: None,
        pdf_link: None,
    }
}

/// An in-flight cross-check's sentence in `lang`: the log's check phrased again from the
/// profile it was made on, the server's from its own figures.
fn plan_facts(content: &engine::plan::PlanContent, lang: Lang) -> Vec<Fact> {
    let d = &content.demand;
    let s = &content.serving;
    let count = |v: Option<u32>| v.map(|v| lang.number(f64::from(v), 0));
    let mut facts = Vec::new();
    let mut push = |label: &str, value: Option<String>, note: &str| {
        if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
            facts.push(Fact {
                label: label.into(),
                value,
                note: note.into(),
            });
        }
    };
    let tr = |en, de| lang.pick(en, de);
    push(tr("Pilot users", "Pilotnutzer"), count(d.pilot_users), "");
    push(
        tr("Production users", "Nutzer in der Produktion"),
        count(d.production_users),
        "",
    );
    push(
        tr("Peak arrival rate", "Spitzen-Ankunftsrate"),
        d.peak_arrival_rate_req_s
            .map(|r| format!("{} req/s", lang.figure(r))),
        tr("production, busiest hour", "Produktion, Spitzenstunde"),
    );
    push(
        tr("Context per request", "Kontext je Anfrage"),
        count(d.context_tokens_per_request).map(|c| format!("{c} {}", tr("tokens", "Token"))),
        tr("prompt + answer", "Prompt + Antwort"),
    );
    push(
        tr("Planned peak concurrency", "Geplante Spitzen-Parallelität"),
        count(d.planned_peak_concurrency)
            .map(|c| format!("{c} {}", tr("requests in flight", "gleichzeitige Anfragen"))),
        tr(
            "load-test marks are graded at this concurrency",
            "Lasttest-Zielwerte werden bei dieser Parallelität bewertet",
        ),
    );
    // Only what the plan states: a part left blank is no "·  ·" gap, and a plan that states
    // nothing beyond the engine leaves the line to the pilot's own hardware and engine above.
    let kv =
        (!s.kv_cache_dtype.trim().is_empty()).then(|| format!("KV {}", s.kv_cache_dtype.trim()));
    let stated: Vec<String> = [
        format!("{} {}", s.engine.trim(), s.engine_version.trim()),
        s.gpu.trim().to_string(),
        s.precision.trim().to_string(),
    ]
    .into_iter()
    .map(|part| part.trim().to_string())
    .chain(kv)
    .filter(|part| !part.is_empty())
    .collect();
    if stated.len() > 1 || !s.engine_version.trim().is_empty() {
        push(
            tr("Pilot serving", "Serving des Piloten"),
            Some(stated.join(" · ")),
            tr(
                "latency figures belong to it",
                "die Latenzwerte gelten für diese Konfiguration",
            ),
        );
    }
    if let Some(q) = content.quality.questions {
        push(
            tr("Evaluation set", "Evaluationsdatensatz"),
            Some(format!(
                "{} {}",
                lang.number(f64::from(q), 0),
                tr("questions", "Fragen")
            )),
            "",
        );
    }
    facts
}

fn distribution(d: &Option<TokenDistribution>, lang: Lang) -> String {
    match d {
        Some(d) => format!(
            "p50 {} · p95 {} · max {} {}",
            lang.number(d.p50, 0),
            lang.number(d.p95, 0),
            lang.number(f64::from(d.max), 0),
            lang.pick("tokens", "Token")
        ),
        None => "—".into(),
    }
}

fn demand_facts(p: &DemandProfile, lang: Lang) -> Vec<Fact> {
    let tr = |en, de| lang.pick(en, de);
    let fact = |label: &str, value: String, note: &str| Fact {
        label: label.into(),
        value,
        note: note.into(),
    };
    let successful = tr("successful requests", "erfolgreiche Anfragen");
    let mut facts = vec![
        fact(
            tr("Requests", "Anfragen"),
            lang.number(p.outcomes.requests as f64, 0),
            &format!(
                "{} → {}",
                lang.date_time(p.first_start.unix_ms),
                lang.date_time(p.last_end.unix_ms)
            ),
        ),
        fact(
            tr("Busiest hour", "Spitzenstunde"),
            format!(
                "{} req/s ({} {})",
                lang.figure(p.busiest_hour_arrivals_per_s),
                lang.number(p.busiest_hour_arrivals as f64, 0),
                tr("requests", "Anfragen")
            ),
            &format!(
                "{} {}",
                tr(
                    "sliding 60-minute window on arrivals, from",
                    "gleitendes 60-Minuten-Fenster über die Ankünfte, ab"
                ),
                lang.date_time(p.busiest_hour_start.unix_ms)
            ),
        ),
        fact(
            tr("Peak in flight", "Gleichzeitige Anfragen in der Spitze"),
            lang.number(p.peak_in_flight as f64, 0),
            &format!(
                "{} {}",
                tr(
                    "exact sweep over start and end times, at",
                    "exakter Durchlauf über Start- und Endzeiten, am"
                ),
                lang.date_time(p.peak_in_flight_at.unix_ms)
            ),
        ),
        fact(
            tr("Mean in flight", "Gleichzeitige Anfragen im Mittel"),
            format!(
                "{} {} · {} {}",
                lang.figure(p.mean_in_flight),
                tr("overall", "insgesamt"),
                lang.figure(p.mean_in_flight_busiest_hour),
                tr("in the busiest hour", "in der Spitzenstunde")
            ),
            tr("time-weighted", "zeitgewichtet"),
        ),
        fact(
            tr("Prompt tokens", "Prompt-Token"),
            distribution(&p.prompt_tokens, lang),
            successful,
        ),
        fact(
            tr("Answer tokens", "Antwort-Token"),
            distribution(&p.completion_tokens, lang),
            successful,
        ),
        fact(
            tr("Context tokens", "Kontext-Token"),
            distribution(&p.context_tokens, lang),
            tr(
                "prompt + answer: what one request holds in the KV cache",
                "Prompt + Antwort: was eine Anfrage im KV-Cache belegt",
            ),
        ),
        fact(
            tr("Failures", "Fehler"),
            format!(
                "{} {} ({}), {} {} ({}), {} {} ({})",
                lang.number(p.outcomes.failed as f64, 0),
                tr("failed", "fehlgeschlagen"),
                lang.percent(p.outcomes.failure_rate),
                lang.number(p.outcomes.timed_out as f64, 0),
                tr("timed out", "mit Zeitüberschreitung"),
                lang.percent(p.outcomes.timeout_rate),
                lang.number(p.outcomes.cancelled as f64, 0),
                tr("cancelled", "abgebrochen"),
                lang.percent(p.outcomes.cancellation_rate),
            ),
            tr("counted at the gateway", "am Gateway gezählt"),
        ),
        fact(
            tr("Truncated answers", "Abgeschnittene Antworten"),
            format!(
                "{} ({})",
                lang.number(p.outcomes.truncated as f64, 0),
                lang.percent(p.outcomes.truncation_rate)
            ),
            tr(
                "finish_reason = length, of successful requests",
                "finish_reason = length, bezogen auf erfolgreiche Anfragen",
            ),
        ),
    ];
    let latency = &p.gateway_latency;
    for (label, value) in [
        (
            tr("TTFT at the gateway", "TTFT am Gateway"),
            &latency.ttft_ms,
        ),
        (
            tr("TPOT at the gateway", "TPOT am Gateway"),
            &latency.tpot_ms,
        ),
        (tr("E2E at the gateway", "E2E am Gateway"), &latency.e2e_ms),
    ] {
        if let Some(v) = value {
            facts.push(fact(
                label,
                format!(
                    "p50 {} · p95 {} · p99 {} ms",
                    lang.figure(v.p50),
                    lang.figure(v.p95),
                    lang.figure(v.p99)
                ),
                tr(
                    "includes gateway and engine queueing",
                    "einschließlich der Wartezeit in Gateway und Engine",
                ),
            ));
        }
    }
    facts
}

fn demand_charts(p: &DemandProfile, lang: Lang) -> Vec<ReportChart> {
    use engine::charts::{arrivals_chart, in_flight_chart, token_histogram_chart};
    let tr = |en, de| lang.pick(en, de);
    let mut charts = Vec::new();
    if let Ok(svg) = arrivals_chart(&p.arrivals_per_minute, p.busiest_hour_start.unix_ms, lang) {
        charts.push(ReportChart {
            title: tr(
                "Arrivals per minute (busiest hour shaded)",
                "Ankünfte pro Minute (Spitzenstunde schattiert)",
            )
            .into(),
            svg,
        });
    }
    if let Ok(svg) = in_flight_chart(
        &p.in_flight_curve,
        p.peak_in_flight,
        p.peak_in_flight_at.unix_ms,
        lang,
    ) {
        charts.push(ReportChart {
            title: tr(
                "Requests in flight (peak marked)",
                "Gleichzeitige Anfragen (Spitze markiert)",
            )
            .into(),
            svg,
        });
    }
    if let Some(d) = &p.context_tokens
        && let Ok(svg) = token_histogram_chart(
            tr(
                "Context tokens (prompt + answer)",
                "Kontext-Token (Prompt + Antwort)",
            ),
            &d.histogram,
            d.p50,
            d.p95,
            lang,
        )
    {
        charts.push(ReportChart {
            title: tr("Context tokens per request", "Kontext-Token je Anfrage").into(),
            svg,
        });
    }
    charts
}

fn load_charts(evidence: &PilotEvidence, lang: Lang) -> Vec<ReportChart> {
    if evidence.runs.is_empty() {
        return Vec::new();
    }
    let targets = evidence
        .plan
        .as_ref()
        .map(|p| engine::loadtest::latency_targets(&p.content))
        .unwrap_or_default();
    let plan = crate::load_tests::PlanTargets {
        version: evidence.plan.as_ref().map(|p| p.number),
        targets,
        note: String::new(),
    };
    let runs: Vec<LoadTestRun> = evidence.runs.iter().map(|c| c.run.clone()).collect();
    let axis = crate::load_tests::CurveAxis::chosen("", &runs);
    crate::load_tests::service::charts(&runs, &[], &plan, engine::plan::Statistic::P99, axis, lang)
        .into_iter()
        .map(|c| ReportChart {
            title: c.title,
            svg: c.svg,
        })
        .collect()
}

fn ms(value: Option<f64>, lang: Lang) -> String {
    value.map(|v| lang.figure(v)).unwrap_or_else(|| "—".into())
}

/// Requests in flight: a whole number as one (`16`, not `16.0`), a mean as a figure.
fn in_flight(value: Option<f64>, lang: Lang) -> String {
    match value {
        Some(v) if v.fract() == 0.0 => lang.number(v, 0),
        other => ms(other, lang),
    }
}

/// A point's requests in flight as the report prints it: a figure derived by Little's law is
/// marked "≈" and says the rate the file states (one row per rate of a rate sweep).
fn point_load(point: &PointRow, lang: Lang) -> String {
    use engine::loadtest::ConcurrencyBasis;
    match (point.concurrency_basis, point.concurrency) {
        (ConcurrencyBasis::LittlesLaw, Some(mean)) => {
            let rate = match point.request_rate {
                Some(r) => format!(
                    "{} {}",
                    lang.number(r, 2)
                        .trim_end_matches('0')
                        .trim_end_matches([',', '.']),
                    lang.pick("req/s", "Anfr./s")
                ),
                None => lang.pick("all at once", "alle zugleich").into(),
            };
            format!("≈{} ({rate})", lang.number(mean.round(), 0))
        }
        _ => in_flight(point.concurrency, lang),
    }
}

fn goodput_text(point: &PointRow, lang: Lang) -> String {
    let Some(g) = &point.goodput else {
        return "—".into();
    };
    if let (Some(share), Some(rps)) = (g.share_pct, g.goodput_rps) {
        return format!("{} % · {} req/s", lang.number(share, 1), lang.figure(rps));
    }
    match (&g.share_bound, g.all_met) {
        (Some(bound), _) => bound.clone(),
        (None, Some(true)) => lang
            .pick("all targets met", "alle Zielwerte erreicht")
            .into(),
        (None, Some(false)) => lang.pick("targets missed", "Zielwerte verfehlt").into(),
        (None, None) => "—".into(),
    }
}

fn load_table(
    run: &LoadTestRun,
    check: &engine::verdict::comparability::FileCheck,
    lang: Lang,
) -> Table {
    let context = run.run_context.clone().unwrap_or_default();
    let on = [
        context.gpu.clone(),
        context.engine.clone(),
        context.engine_version.clone(),
    ]
    .into_iter()
    .flatten()
    .filter(|s| !s.trim().is_empty())
    .collect::<Vec<_>>()
    .join(" · ");
    // Another model's or GPU's run says so where it is shown, as on the load-tests page.
    let not_comparable = check
        .reason_in(lang)
        .map(|why| {
            format!(
                " — {}: {why}",
                lang.pick("not comparable", "nicht vergleichbar")
            )
        })
        .unwrap_or_default();
    let derived = if run
        .points
        .iter()
        .any(|p| p.concurrency_basis == engine::loadtest::ConcurrencyBasis::LittlesLaw)
    {
        lang.pick(
            " — ≈: mean requests in flight by Little's law (throughput × mean E2E); the file states a request rate, not a concurrency",
            " — ≈: mittlere gleichzeitige Anfragen nach Littles Gesetz (Durchsatz × mittlere E2E); die Datei nennt eine Anfragerate, keine Parallelität",
        )
    } else {
        ""
    };
    let caption = format!(
        "{}{} — {}{}{not_comparable}{derived}",
        run.tool,
        run.tool_version
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default(),
        run.evidence.file_name,
        if on.is_empty() {
            String::new()
        } else {
            format!(" ({on})")
        }
    );
    let headers = [
        (lang.pick("Scenario", "Szenario"), false),
        (lang.labels().concurrency, true),
        ("TTFT p50 / p99 (ms)", true),
        ("TPOT p50 / p99 (ms)", true),
        ("E2E p99 (ms)", true),
        (
            lang.pick("Output tok/s (system)", "Ausgabe-Token/s (System)"),
            true,
        ),
        (
            lang.pick("Goodput (plan targets)", "Goodput (Zielwerte des Plans)"),
            false,
        ),
    ]
    .into_iter()
    .map(|(h, n)| if n { num(h) } else { text(h) })
    .collect();
    let mut points: Vec<&PointRow> = run.points.iter().collect();
    points.sort_by(|a, b| {
        a.scenario.cmp(&b.scenario).then(
            a.concurrency
                .unwrap_or_default()
                .total_cmp(&b.concurrency.unwrap_or_default()),
        )
    });
    let rows = points
        .into_iter()
        .map(|p| {
            vec![
                text(crate::load_tests::curves::scenario_label_in(
                    &p.scenario,
                    lang,
                )),
                num(point_load(p, lang)),
                num(format!(
                    "{} / {}",
                    ms(p.ttft.p50, lang),
                    ms(p.ttft.p99, lang)
                )),
                num(format!(
                    "{} / {}",
                    ms(p.tpot.p50, lang),
                    ms(p.tpot.p99, lang)
                )),
                num(ms(p.e2e.p99, lang)),
                num(ms(p.output_tokens_per_s, lang)),
                text(goodput_text(p, lang)),
            ]
        })
        .collect();
    Table {
        caption,
        headers,
        rows,
    }
}

fn quality_section(evidence: &PilotEvidence, lang: Lang) -> (Option<Table>, String, Vec<String>) {
    let t = lang.labels();
    let Some(report) = &evidence.quality else {
        return (None, String::new(), Vec::new());
    };
    if report.runs.is_empty() {
        return (None, String::new(), Vec::new());
    }
    let estimate = |e: &Option<engine::quality::Estimate>| match e {
        Some(e) => match (e.low, e.high) {
            (Some(low), Some(high)) => format!(
                "{} ({}–{})",
                lang.percent(e.value),
                lang.number(low * 100.0, 1),
                lang.percent(high)
            ),
            _ => lang.percent(e.value),
        },
        None => "—".into(),
    };
    let rows = report
        .runs
        .iter()
        .map(|run| {
            vec![
                text(run.evidence.file_name.clone()),
                text(run.model.clone()),
                text(format!(
                    "{} (KV {})",
                    run.weights_precision, run.kv_precision
                )),
                num(estimate(&run.scores.answer_quality)),
                num(estimate(&run.scores.hit_rate)),
                num(run
                    .scores
                    .truncation
                    .as_ref()
                    .map(|e| format!("{} / {}", e.successes.unwrap_or(0), e.n))
                    .unwrap_or_else(|| "—".into())),
            ]
        })
        .collect();
    let table = Table {
        caption: format!(
            "{} · {}",
            t.quality,
            lang.pick("95 % intervals (Wilson)", "95-%-Intervalle (Wilson)")
        ),
        headers: vec![
            text(t.run),
            text(t.model),
            text(t.precision),
            num(t.accuracy),
            num(t.hit_rate),
            num(t.truncated),
        ],
        rows,
    };
    let decision = evidence
        .decision
        .as_ref()
        .map(|d| match lang {
            Lang::En => d.reason.clone(),
            Lang::De => d.reason_in(lang),
        })
        .unwrap_or_default();
    let flips = report
        .comparison
        .as_ref()
        .map(|c| {
            let mut lines = Vec::new();
            let cmp = &c.comparison;
            if !cmp.right_to_wrong.is_empty() {
                lines.push(format!(
                    "{} {}, {} {}: {}",
                    lang.pick("Right with", "Richtig mit"),
                    c.a_label,
                    lang.pick("wrong with", "falsch mit"),
                    c.b_label,
                    cmp.right_to_wrong.join(", ")
                ));
            }
            if !cmp.wrong_to_right.is_empty() {
                lines.push(format!(
                    "{} {}, {} {}: {}",
                    lang.pick("Wrong with", "Falsch mit"),
                    c.a_label,
                    lang.pick("right with", "richtig mit"),
                    c.b_label,
                    cmp.wrong_to_right.join(", ")
                ));
            }
            if let Some(d) = &cmp.difference {
                lines.push(format!(
                    "{} {} − {}: {} {}{}{}",
                    lang.pick("Difference", "Differenz"),
                    c.b_label,
                    c.a_label,
                    lang.number(d.value * 100.0, 1),
                    lang.pick("percentage points", "Prozentpunkte"),
                    match (d.low, d.high) {
                        (Some(l), Some(h)) => format!(
                            " ({} {} {} {})",
                            lang.pick("95 % interval", "95-%-Intervall"),
                            lang.number(l * 100.0, 1),
                            lang.pick("to", "bis"),
                            lang.number(h * 100.0, 1)
                        ),
                        _ => String::new(),
                    },
                    cmp.mcnemar_p
                        .map(|p| format!(", McNemar p = {}", lang.number(p, 3)))
                        .unwrap_or_default()
                ));
            }
            lines
        })
        .unwrap_or_default();
    (Some(table), decision, flips)
}

/// A file's status in the report: in force, or withdrawn, with every withdrawal and
/// restoration (when, by whom, why).
fn evidence_status(entry: &EvidenceEntry, lang: Lang) -> String {
    let t = lang.labels();
    let mut status = match entry.status {
        EvidenceStatus::InForce => t.in_force.to_string(),
        EvidenceStatus::Withdrawn => t.withdrawn.to_string(),
    };
    for step in entry.history.iter().skip(1) {
        let action = match step.action {
            HistoryAction::Withdrawn => t.withdrawn,
            _ => t.restored,
        };
        status.push_str(&format!("; {action} {}", lang.date_time(step.at_ms)));
        if !step.by.is_empty() {
            status.push_str(&format!(" {} {}", t.by, step.by));
        }
        if let Some(reason) = step.reason.as_deref().filter(|r| !r.is_empty()) {
            status.push_str(&format!(": {reason}"));
        }
    }
    status
}

/// A scrape the scheduled pull took that nothing happened to since (in force, never withdrawn):
/// a long pilot has thousands, and the appendix names them in one row.
fn routine_scrape(file: &EvidenceFile, entry: &EvidenceEntry) -> bool {
    file.kind == crate::model::EvidenceKind::MetricsScrape
        && file
            .file_name
            .starts_with(crate::metrics_pull::PULLED_PREFIX)
        && entry.status == EvidenceStatus::InForce
        && entry.history.len() <= 1
}

/// The one appendix row that stands for `scrapes` routine pulled scrapes (two or more).
fn pulled_scrapes_row(scrapes: &[&EvidenceFile], lang: Lang) -> Vec<Cell> {
    let t = lang.labels();
    let first = scrapes.iter().map(|f| f.uploaded_ms).min().unwrap_or(0);
    let last = scrapes.iter().map(|f| f.uploaded_ms).max().unwrap_or(0);
    let bytes: i64 = scrapes.iter().map(|f| f.size_bytes).sum();
    let (name, when) = match lang {
        Lang::De => (
            format!("{} automatisch abgerufene /metrics-Abzüge", scrapes.len()),
            format!("{} bis {}", lang.date_time(first), lang.date_time(last)),
        ),
        Lang::En => (
            format!("{} scrapes pulled from /metrics on schedule", scrapes.len()),
            format!("{} to {}", lang.date_time(first), lang.date_time(last)),
        ),
    };
    let hashes = match lang {
        Lang::De => "je Datei auf der Evidenzseite",
        Lang::En => "each on the evidence page",
    };
    vec![
        text(name),
        text(kind_label("metrics_scrape", lang)),
        text(String::new()),
        text(String::new()),
        num(format!("{} KB", lang.number(bytes as f64 / 1000.0, 1))),
        text(when),
        text(t.in_force.to_string()),
        text(hashes.to_string()),
    ]
}

fn evidence_table(
    files: &[(EvidenceFile, EvidenceEntry)],
    evidence: &PilotEvidence,
    lang: Lang,
) -> Table {
    let t = lang.labels();
    let routine: Vec<&EvidenceFile> = files
        .iter()
        .filter(|(file, entry)| routine_scrape(file, entry))
        .map(|(file, _)| file)
        .collect();
    let grouped = routine.len() >= 2;
    let mut rows = Vec::with_capacity(files.len());
    let mut group_placed = false;
    for (file, entry) in files {
        if grouped && routine_scrape(file, entry) {
            if !group_placed {
                rows.push(pulled_scrapes_row(&routine, lang));
                group_placed = true;
            }
            continue;
        }
        rows.push(file_row(file, entry, evidence, lang));
    }
    Table {
        caption: t.appendix.into(),
        headers: vec![
            text(t.file),
            text(t.kind),
            text(t.tool),
            text(t.settings),
            num(t.size),
            text(t.uploaded),
            text(t.evidence_status),
            text("SHA-256"),
        ],
        rows,
    }
}

/// One evidence file's appendix row.
fn file_row(
    file: &EvidenceFile,
    entry: &EvidenceEntry,
    evidence: &PilotEvidence,
    lang: Lang,
) -> Vec<Cell> {
    let run = evidence
        .runs
        .iter()
        .map(|checked| &checked.run)
        .find(|r| r.evidence.id == file.id);
    let tool = run
        .map(|r| {
            format!(
                "{}{}",
                r.tool,
                r.tool_version
                    .as_deref()
                    .map(|v| format!(" {v}"))
                    .unwrap_or_default()
            )
        })
        .unwrap_or_default();
    let settings = run
        .and_then(|r| r.run_context.as_ref())
        .map(|c| c.summary_in(lang))
        .unwrap_or_default();
    vec![
        text(file.file_name.clone()),
        text(kind_label(file.kind.as_str(), lang)),
        text(tool),
        text(settings),
        num(format!(
            "{} KB",
            lang.number(file.size_bytes as f64 / 1000.0, 1)
        )),
        text(lang.date_time(file.uploaded_ms)),
        text(evidence_status(entry, lang)),
        text(file.sha256.clone()),
    ]
}

/// An evidence file's kind in the report's language (`gateway log`, `Lasttest`, …).
fn kind_label(kind: &str, lang: Lang) -> String {
    let german = match kind {
        "gateway_log" => "Gateway-Log",
        "load_test" => "Lasttest",
        "eval_set" => "Evaluationsdatensatz",
        "eval_run" => "Evaluationslauf",
        "metrics_scrape" => "Metrik-Abzug",
        "vllm_startup_log" => "vLLM-Startprotokoll",
        "lm_eval_results" => "lm-eval-Ergebnisse",
        _ => "",
    };
    match lang {
        Lang::De if !german.is_empty() => german.into(),
        _ => kind.replace('_', " "),
    }
}
