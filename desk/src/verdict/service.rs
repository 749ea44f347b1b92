use super::*;
use crate::ServiceError;
use crate::Services;
use engine::loadtest::SpreadState;
use engine::locale::Lang;
use engine::plan::{MeasurementPoint, PlanContent};
use engine::verdict::collect::{load_test_gaps_in, planned_peak_indices};
use engine::verdict::comparability::FileCheck;
use engine::verdict::{EvidenceStatistic, grade_plan_in};

use crate::pilot_evidence::{PilotEvidence, gather};
use crate::quality::service::eval_run_check;

/// The evidence page of a figure.
fn link(pilot_id: i64, point: MeasurementPoint) -> String {
    match point {
        MeasurementPoint::Client => format!("/pilots/{pilot_id}/load-tests"),
        MeasurementPoint::Gateway | MeasurementPoint::Engine => {
            format!("/pilots/{pilot_id}/traffic")
        }
        MeasurementPoint::EvaluationSet => format!("/pilots/{pilot_id}/quality"),
    }
}

/// The verdict of `pilot` (visibility already checked).
pub async fn verdict(services: &Services, pilot: Pilot) -> Result<VerdictView, ServiceError> {
    let evidence = gather(services, pilot.id).await?;
    Ok(build(pilot, &evidence))
}

/// Grades the evidence against the plan in force and collects the warnings.
pub fn build(pilot: Pilot, evidence: &PilotEvidence) -> VerdictView {
    build_in(pilot, evidence, Lang::En)
}

/// [`build`] worded in `lang` (the report's language): the same grades, values and figures,
/// with every sentence, reason, source and warning written in `lang`.
pub fn build_in(pilot: Pilot, evidence: &PilotEvidence, lang: Lang) -> VerdictView {
    build_graded_in(pilot, evidence, &evidence.figures(), lang).0
}

/// [`build`] on figures already drawn from `evidence`, also giving the plan grade it made
/// (with the graded version's number) so a page showing the plan too grades once.
pub fn build_graded(
    pilot: Pilot,
    evidence: &PilotEvidence,
    figures: &[EvidenceStatistic],
) -> (VerdictView, Option<(u32, engine::verdict::PlanGrade)>) {
    build_graded_in(pilot, evidence, figures, Lang::En)
}

/// [`build_graded`] worded in `lang`.
pub fn build_graded_in(
    pilot: Pilot,
    evidence: &PilotEvidence,
    figures: &[EvidenceStatistic],
    lang: Lang,
) -> (VerdictView, Option<(u32, engine::verdict::PlanGrade)>) {
    let Some(plan) = &evidence.plan else {
        let view = VerdictView {
            pilot,
            plan_version: None,
            plan_approved_ms: None,
            outcome: None,
            tally: Tally::default(),
            rows: Vec::new(),
            warnings: warnings(evidence, None, lang),
            caveats: caveats(evidence, lang),
            figures: figures.len(),
            can_edit: false,
        };
        return (view, None);
    };
    let grade = grade_plan_in(&plan.content, figures, lang);
    let rows = grade
        .marks
        .iter()
        .map(|mark| row(mark, figures, pilot.id, lang))
        .collect();
    let view = VerdictView {
        plan_version: Some(plan.number),
        plan_approved_ms: plan.in_force_since_ms(),
        outcome: Some(grade.outcome),
        tally: grade.tally,
        rows,
        warnings: warnings(evidence, Some(&plan.content), lang),
        caveats: caveats(evidence, lang),
        figures: figures.len(),
        can_edit: false,
        pilot,
    };
    (view, Some((plan.number, grade)))
}

/// One graded mark as the verdict shows it, worded in `lang`.
fn row(
    mark: &engine::verdict::GradedMark,
    figures: &[EvidenceStatistic],
    pilot_id: i64,
    lang: Lang,
) -> VerdictRow {
    let figure = mark.evidence_index.and_then(|i| figures.get(i));
    let graded = matches!(mark.grade.verdict, Verdict::Pass | Verdict::Fail);
    let pass_mark = &mark.pass_mark;
    // A definition the assessor stated stays as written; the domain's default is translated.
    let definition = match pass_mark.effective_definition() {
        stated if stated.trim() == pass_mark.metric.default_definition() => {
            pass_mark.metric.default_definition_in(lang).to_string()
        }
        stated => stated.to_string(),
    };
    VerdictRow {
        sentence: mark.sentence.clone(),
        notation: pass_mark.notation_in(lang),
        verdict: mark.grade.verdict.clone(),
        measured: mark
            .grade
            .value_used
            .as_ref()
            .filter(|_| graded)
            .map(|q| q.text_in(lang))
            .unwrap_or_else(|| "—".into()),
        definition,
        point: match pass_mark.point {
            MeasurementPoint::EvaluationSet => lang.pick("Evaluation set", "Evaluationsdatensatz"),
            point => point.label(),
        }
        .to_string(),
        source: figure
            .map(|f| engine::verdict::source_in(&f.source, lang))
            .unwrap_or_default(),
        evidence_link: figure.map(|f| link(pilot_id, f.point)),
        explanation: mark.grade.explanation.clone(),
        samples: figure.and_then(|f| f.samples),
        gradable_since_ms: None,
    }
}

/// What must still be done or known before trusting the results in production, worded in
/// `lang`: always first the re-run on the production stack (the report puts the
/// recommendation's exact commands in its place); speculative decoding where a run used it.
pub fn caveats(evidence: &PilotEvidence, lang: Lang) -> Vec<String> {
    let mut out = vec![
        lang.pick(
            "Re-run the load test on the production stack before go-live: latency and throughput belong to the GPU, engine version and settings they were measured on, so the pilot's figures do not carry over (the report's recommendation gives the exact vllm bench serve and aiperf profile commands).",
            "Den Lasttest auf der Produktionsumgebung wiederholen: Latenz und Durchsatz gehören zu der GPU, der Engine-Version und den Einstellungen, mit denen sie gemessen wurden; die Zahlen des Piloten lassen sich nicht übertragen (die Empfehlung des Berichts nennt die genauen Befehle für vllm bench serve und aiperf profile).",
        )
        .to_string(),
    ];
    if !evidence.speculative.is_empty() {
        let runs = evidence.speculative.join("; ");
        out.push(match lang {
            Lang::En => format!(
                "Speculative decoding was on ({runs}): per-stream speed then depends on how many draft tokens the model accepts, which varies with the prompts and the load; it shrinks as the batch grows. Re-measure with production prompts at the production concurrency before relying on its speed."
            ),
            Lang::De => format!(
                "Spekulatives Dekodieren war aktiv ({runs}): Die Geschwindigkeit je Stream hängt dann davon ab, wie viele Entwurfs-Token das Modell annimmt; das schwankt mit den Prompts und der Last und sinkt, je größer der Batch wird. Vor dem Verlass auf diese Geschwindigkeit mit Produktions-Prompts bei der Produktions-Parallelität neu messen."
            ),
        });
    }
    out
}

/// A warning titled in `lang`.
fn warning(lang: Lang, title: (&str, &str), detail: String, page: &str) -> VerdictWarning {
    VerdictWarning {
        title: lang.pick(title.0, title.1).to_string(),
        detail,
        link: Some(page.to_string()),
    }
}

/// Everything that changes how the verdict reads, worded in `lang`.
fn warnings(
    evidence: &PilotEvidence,
    plan: Option<&PlanContent>,
    lang: Lang,
) -> Vec<VerdictWarning> {
    let mut warnings = Vec::new();
    for alarm in &evidence.alarms {
        warnings.push(warning(
            lang,
            (
                "The pilot hit its own limit",
                "Der Pilot stieß an seine eigene Grenze",
            ),
            alarm.message_in(lang).to_string(),
            "traffic",
        ));
    }
    for note in &evidence.limit_notes {
        warnings.push(warning(
            lang,
            (
                "Requests waited at one scrape (a note, not the alarm)",
                "Anfragen warteten bei einem Scrape (ein Hinweis, kein Alarm)",
            ),
            note.text_in(lang),
            "traffic",
        ));
    }
    file_warnings(evidence, lang, &mut warnings);
    for check in evidence.in_flight.checks.iter().filter(|c| !c.agrees) {
        let sentence = evidence.in_flight_sentence(check, lang);
        warnings.push(warning(
            lang,
            (
                "Requests in flight do not add up",
                "Die gleichzeitigen Anfragen gehen nicht auf",
            ),
            format!(
                "{sentence} {}",
                lang.pick(
                    "The measurements may not describe the same traffic (clocks, missing requests, another server or period).",
                    "Die Messungen beschreiben womöglich nicht denselben Verkehr (Uhren, fehlende Anfragen, ein anderer Server oder Zeitraum).",
                )
            ),
            "traffic",
        ));
    }
    if let Some(first) = engine::verdict::cross_check::first_approval_after_evidence_in(
        &evidence.versions,
        evidence
            .first_evidence
            .as_ref()
            .map(|(at, name)| (*at, name.as_str())),
        lang,
    ) {
        warnings.push(warning(
            lang,
            (
                "Pass marks written after the data",
                "Zielwerte nach den Daten geschrieben",
            ),
            first,
            "plan/history",
        ));
    }
    if let Some(set) = evidence.quality.as_ref().and_then(|q| q.set.as_ref())
        && let Some(small) = engine::verdict::cross_check::small_eval_set_in(set.questions, lang)
    {
        warnings.push(warning(
            lang,
            ("A small evaluation set", "Ein kleiner Evaluationsdatensatz"),
            small,
            "quality",
        ));
    }
    cut_off_warnings(evidence, lang, &mut warnings);
    load_test_warnings(evidence, plan, lang, &mut warnings);
    amendment_warnings(evidence, lang, &mut warnings);
    warnings
}

/// Files of one kind measured with the same other model or GPU: one warning for all of them
/// (a metrics pull aimed at the wrong server makes one file a minute).
struct NotComparable {
    kind: engine::verdict::comparability::FileKind,
    other: Option<engine::verdict::comparability::Other>,
    files: Vec<String>,
    /// The reason of a file without a worded mismatch (stored before it existed).
    reason: String,
    page: &'static str,
}

impl NotComparable {
    fn add(
        groups: &mut Vec<NotComparable>,
        kind: engine::verdict::comparability::FileKind,
        file: &str,
        check: &FileCheck,
        reason: String,
        page: &'static str,
    ) {
        let other = check.mismatch.as_ref().map(|m| m.other.clone());
        if let Some(group) = groups
            .iter_mut()
            .find(|g| other.is_some() && g.kind == kind && g.other == other)
        {
            group.files.push(file.to_string());
            return;
        }
        groups.push(NotComparable {
            kind,
            other,
            files: vec![file.to_string()],
            reason,
            page,
        });
    }

    /// The reason in `lang`, and whether it speaks of several files.
    fn reason(&self, lang: Lang) -> (String, bool) {
        match &self.other {
            Some(other) if self.files.len() > 1 => {
                let files: Vec<&str> = self.files.iter().map(String::as_str).collect();
                let reason = engine::verdict::comparability::Mismatch::reason_for_files_in(
                    self.kind, &files, other, lang,
                );
                (reason, true)
            }
            _ => (self.reason.clone(), false),
        }
    }
}

/// Files of another model or GPU (their figures grade nothing) and files that do not say what
/// they measured (graded, but flagged).
fn file_warnings(evidence: &PilotEvidence, lang: Lang, warnings: &mut Vec<VerdictWarning>) {
    use engine::verdict::comparability::{FileKind, caveat_in};
    let mut not_comparable: Vec<NotComparable> = Vec::new();
    let mut unstated: Vec<String> = Vec::new();
    let mut note_file = |kind: FileKind, file: &str, check: &FileCheck, page: &'static str| {
        if let Some(reason) = check.reason_in(lang) {
            NotComparable::add(&mut not_comparable, kind, file, check, reason, page);
        } else if !check.caveats.is_empty() {
            let caveats: Vec<String> = check.caveats.iter().map(|c| caveat_in(c, lang)).collect();
            let name = match file {
                "" => kind.label_in(lang).to_string(),
                file => format!("{} {file}", kind.label_in(lang)),
            };
            unstated.push(format!("{name}: {}", caveats.join(", ")));
        }
    };
    for checked in &evidence.runs {
        let file = &checked.run.evidence.file_name;
        note_file(FileKind::LoadTest, file, &checked.check, "load-tests");
    }
    if evidence.profile.is_some() {
        note_file(FileKind::GatewayLog, "", &evidence.profile_check, "traffic");
    }
    for scrape in &evidence.scrapes {
        let file = &scrape.evidence.file_name;
        note_file(FileKind::Scrape, file, &scrape.check, "traffic");
    }
    for (file, check) in &evidence.startup_logs {
        note_file(FileKind::StartupLog, &file.file_name, check, "calibration");
    }
    if let Some(report) = &evidence.quality {
        for run in &report.runs {
            let check = eval_run_check(&evidence.identity, run);
            note_file(
                FileKind::EvaluationRun,
                &run.evidence.file_name,
                &check,
                "quality",
            );
        }
    }
    for group in not_comparable {
        let (reason, several) = group.reason(lang);
        let grades_nothing = if several {
            lang.pick(
                "Their figures grade no pass mark.",
                "Ihre Zahlen bewerten keinen Zielwert.",
            )
        } else {
            lang.pick(
                "Its figures grade no pass mark.",
                "Seine Zahlen bewerten keinen Zielwert.",
            )
        };
        warnings.push(warning(
            lang,
            ("Evidence not comparable", "Nachweise nicht vergleichbar"),
            format!("{reason}. {grades_nothing}"),
            group.page,
        ));
    }
    if !unstated.is_empty() {
        warnings.push(warning(
            lang,
            (
                "Evidence that does not say what it measured",
                "Nachweise, die nicht sagen, was sie gemessen haben",
            ),
            format!(
                "{}: {}.",
                lang.pick(
                    "Graded as the pilot's, but flagged",
                    "Als Nachweis des Piloten bewertet, aber markiert"
                ),
                unstated.join("; ")
            ),
            "evidence",
        ));
    }
}

/// Answers cut off at their token limit, at the gateway and in the graded evaluation run.
fn cut_off_warnings(evidence: &PilotEvidence, lang: Lang, warnings: &mut Vec<VerdictWarning>) {
    if let Some((profile, _)) = &evidence.profile
        && profile.outcomes.truncated > 0
    {
        let truncated = lang.number(profile.outcomes.truncated as f64, 0);
        let ok = lang.number(profile.outcomes.ok as f64, 0);
        let rate = lang.percent(profile.outcomes.truncation_rate);
        let detail = match lang {
            Lang::En => format!(
                "{truncated} of {ok} successful requests at the gateway ended at their token limit (finish_reason = length, {rate}): users saw incomplete answers, and their length understates demand."
            ),
            Lang::De => format!(
                "{truncated} von {ok} erfolgreichen Anfragen am Gateway endeten an ihrer Token-Grenze (finish_reason = length, {rate}): Die Nutzer sahen unvollständige Antworten, und ihre Länge unterschätzt die Nachfrage."
            ),
        };
        warnings.push(warning(
            lang,
            ("Answers were cut off", "Antworten wurden abgeschnitten"),
            detail,
            "traffic",
        ));
    }
    if let Some(run) = &evidence.graded_run
        && let Some(truncation) = &run.scores.truncation
        && truncation.successes.unwrap_or(0) > 0
    {
        let (cut, n) = (truncation.successes.unwrap_or(0), truncation.n);
        let (file, precision) = (&run.evidence.file_name, &run.weights_precision);
        let detail = match lang {
            Lang::En => format!(
                "{cut} of {n} answers of the evaluation run {file} ({precision}) ended at their token limit."
            ),
            Lang::De => format!(
                "{cut} von {n} Antworten des Evaluationslaufs {file} ({precision}) endeten an ihrer Token-Grenze."
            ),
        };
        warnings.push(warning(
            lang,
            (
                "Evaluation answers were cut off",
                "Antworten der Evaluation wurden abgeschnitten",
            ),
            detail,
            "quality",
        ));
    }
}

/// A load test saturated at the planned peak, and load tests that grade nothing.
fn load_test_warnings(
    evidence: &PilotEvidence,
    plan: Option<&PlanContent>,
    lang: Lang,
    warnings: &mut Vec<VerdictWarning>,
) {
    let load_points = evidence.load_points();
    if let Some(peak) = evidence.planned_peak() {
        let spreads: Vec<Option<SpreadState>> = evidence
            .runs
            .iter()
            .flat_map(|checked| checked.run.points.iter().map(|p| p.spread))
            .collect();
        for index in planned_peak_indices(&load_points, peak) {
            let chosen = &load_points[index];
            if !matches!(spreads[index], Some(SpreadState::Saturated))
                || !chosen.check.is_comparable()
            {
                continue;
            }
            let source = engine::verdict::source_in(&chosen.source, lang);
            let concurrency = lang.number(chosen.concurrency.unwrap_or_default(), 0);
            let detail = match lang {
                Lang::En => format!(
                    "In {source} at concurrency {concurrency}, TTFT p95 and p99 have converged: every request queues, so the system is at its limit at the planned load."
                ),
                Lang::De => format!(
                    "In {source} bei Parallelität {concurrency} sind TTFT p95 und p99 zusammengelaufen: Jede Anfrage wartet in der Warteschlange; das System ist bei der geplanten Last an seiner Grenze."
                ),
            };
            warnings.push(warning(
                lang,
                (
                    "Saturated at the planned peak",
                    "Gesättigt bei der geplanten Spitze",
                ),
                detail,
                "load-tests",
            ));
        }
    }
    if plan.is_some()
        && let Some(gap) = load_test_gaps_in(&load_points, evidence.planned_peak(), lang)
    {
        warnings.push(warning(
            lang,
            (
                "Load tests grade no pass mark",
                "Die Lasttests bewerten keinen Zielwert",
            ),
            gap,
            "plan/edit",
        ));
    }
}

/// Plan versions whose pass marks changed after the first evidence arrived.
fn amendment_warnings(evidence: &PilotEvidence, lang: Lang, warnings: &mut Vec<VerdictWarning>) {
    let first_evidence = evidence
        .runs
        .iter()
        .map(|checked| checked.run.evidence.uploaded_ms)
        .chain(evidence.profile.as_ref().map(|(_, at)| *at))
        .min();
    let Some(at) = first_evidence else {
        return;
    };
    for change in engine::plan::changed_after_in(at, &evidence.versions, lang)
        .into_iter()
        .filter(|c| c.version > 1)
    {
        let reason = change
            .reason
            .as_deref()
            .map(|r| format!(" ({}: {r})", lang.pick("reason", "Begründung")))
            .unwrap_or_default();
        warnings.push(warning(
            lang,
            (
                "Pass marks amended after evidence arrived",
                "Zielwerte nach Eingang der Nachweise geändert",
            ),
            format!(
                "{} {}: {}{reason}",
                lang.pick("Version", "Version"),
                change.version,
                change.change.describe_in(lang)
            ),
            "plan/history",
        ));
    }
}
