use super::*;
use crate::ServiceError;
use crate::Services;
use engine::loadtest::SpreadState;
use engine::plan::{MeasurementPoint, PlanContent};
use engine::verdict::collect::{load_test_gaps, planned_peak_indices};
use engine::verdict::comparability::FileCheck;
use engine::verdict::{EvidenceStatistic, grade_plan};

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
    build_graded(pilot, evidence, &evidence.figures()).0
}

/// [`build`] on figures already drawn from `evidence`, also giving the plan grade it made
/// (with the graded version's number) so a page showing the plan too grades once.
pub fn build_graded(
    pilot: Pilot,
    evidence: &PilotEvidence,
    figures: &[EvidenceStatistic],
) -> (VerdictView, Option<(u32, engine::verdict::PlanGrade)>) {
    let Some(plan) = &evidence.plan else {
        let view = VerdictView {
            pilot,
            plan_version: None,
            plan_approved_ms: None,
            outcome: None,
            tally: Tally::default(),
            rows: Vec::new(),
            warnings: warnings(evidence, None),
            caveats: caveats(evidence),
            figures: figures.len(),
            can_edit: false,
        };
        return (view, None);
    };
    let grade = grade_plan(&plan.content, figures);
    let rows = grade
        .marks
        .iter()
        .map(|mark| {
            let figure = mark.evidence_index.and_then(|i| figures.get(i));
            let graded = matches!(mark.grade.verdict, Verdict::Pass | Verdict::Fail);
            VerdictRow {
                sentence: mark.sentence.clone(),
                notation: mark.pass_mark.notation(),
                verdict: mark.grade.verdict.clone(),
                measured: mark
                    .grade
                    .value_used
                    .as_ref()
                    .filter(|_| graded)
                    .map(|q| q.to_string())
                    .unwrap_or_else(|| "—".into()),
                definition: mark.pass_mark.effective_definition().to_string(),
                point: mark.pass_mark.point.label().to_string(),
                source: figure.map(|f| f.source.clone()).unwrap_or_default(),
                evidence_link: figure.map(|f| link(pilot.id, f.point)),
                explanation: mark.grade.explanation.clone(),
                samples: figure.and_then(|f| f.samples),
            }
        })
        .collect();
    let view = VerdictView {
        plan_version: Some(plan.number),
        plan_approved_ms: plan.in_force_since_ms(),
        outcome: Some(grade.outcome),
        tally: grade.tally,
        rows,
        warnings: warnings(evidence, Some(&plan.content)),
        caveats: caveats(evidence),
        figures: figures.len(),
        can_edit: false,
        pilot,
    };
    (view, Some((plan.number, grade)))
}

/// What must still be done or known before trusting the results in production: always the
/// re-run on the production stack; speculative decoding where a run used it.
pub fn caveats(evidence: &PilotEvidence) -> Vec<String> {
    let mut out = vec![
        "Re-run the load test on the production stack before go-live: latency and throughput belong to the GPU, engine version and settings they were measured on, so the pilot's figures do not carry over (the report's recommendation gives the exact vllm bench serve and aiperf profile commands)."
            .to_string(),
    ];
    if !evidence.speculative.is_empty() {
        out.push(format!(
            "Speculative decoding was on ({}): per-stream speed then depends on how many draft tokens the model accepts, which varies with the prompts and the load; it shrinks as the batch grows. Re-measure with production prompts at the production concurrency before relying on its speed.",
            evidence.speculative.join("; ")
        ));
    }
    out
}

fn warnings(evidence: &PilotEvidence, plan: Option<&PlanContent>) -> Vec<VerdictWarning> {
    let pilot_link = |page: &str| Some(page.to_string());
    let mut warnings = Vec::new();
    for alarm in &evidence.alarms {
        warnings.push(VerdictWarning {
            title: "The pilot hit its own limit".into(),
            detail: alarm.clone(),
            link: pilot_link("traffic"),
        });
    }
    for note in &evidence.limit_notes {
        warnings.push(VerdictWarning {
            title: "Requests waited at one scrape (a note, not the alarm)".into(),
            detail: note.clone(),
            link: pilot_link("traffic"),
        });
    }
    // Files of another model or GPU: their figures grade nothing.
    let mut not_comparable: Vec<(String, &str)> = Vec::new();
    let mut unstated: Vec<String> = Vec::new();
    let mut note_file = |name: String, check: &FileCheck, page: &'static str| {
        if let Some(reason) = &check.not_comparable {
            not_comparable.push((reason.clone(), page));
        } else if !check.caveats.is_empty() {
            unstated.push(format!("{name}: {}", check.caveats.join(", ")));
        }
    };
    for checked in &evidence.runs {
        note_file(
            format!("load test {}", checked.run.evidence.file_name),
            &checked.check,
            "load-tests",
        );
    }
    if evidence.profile.is_some() {
        note_file("gateway log".into(), &evidence.profile_check, "traffic");
    }
    for scrape in &evidence.scrapes {
        note_file(
            format!("/metrics scrape {}", scrape.evidence.file_name),
            &scrape.check,
            "traffic",
        );
    }
    for (file, check) in &evidence.startup_logs {
        note_file(
            format!("start-up log {}", file.file_name),
            check,
            "calibration",
        );
    }
    if let Some(report) = &evidence.quality {
        for run in &report.runs {
            note_file(
                format!("evaluation run {}", run.evidence.file_name),
                &eval_run_check(&evidence.identity, run),
                "quality",
            );
        }
    }
    for (reason, page) in not_comparable {
        warnings.push(VerdictWarning {
            title: "Evidence not comparable".into(),
            detail: format!("{reason}. Its figures grade no pass mark."),
            link: pilot_link(page),
        });
    }
    if !unstated.is_empty() {
        warnings.push(VerdictWarning {
            title: "Evidence that does not say what it measured".into(),
            detail: format!(
                "Graded as the pilot's, but flagged: {}.",
                unstated.join("; ")
            ),
            link: pilot_link("evidence"),
        });
    }
    for check in evidence.in_flight.checks.iter().filter(|c| !c.agrees) {
        warnings.push(VerdictWarning {
            title: "Requests in flight do not add up".into(),
            detail: format!(
                "{} The measurements may not describe the same traffic (clocks, missing requests, another server or period).",
                check.sentence
            ),
            link: pilot_link("traffic"),
        });
    }
    if let Some(first) = engine::verdict::cross_check::first_approval_after_evidence(
        &evidence.versions,
        evidence
            .first_evidence
            .as_ref()
            .map(|(at, name)| (*at, name.as_str())),
    ) {
        warnings.push(VerdictWarning {
            title: "Pass marks written after the data".into(),
            detail: first,
            link: pilot_link("plan/history"),
        });
    }
    if let Some(set) = evidence.quality.as_ref().and_then(|q| q.set.as_ref())
        && let Some(small) = engine::verdict::cross_check::small_eval_set(set.questions)
    {
        warnings.push(VerdictWarning {
            title: "A small evaluation set".into(),
            detail: small,
            link: pilot_link("quality"),
        });
    }
    if let Some((profile, _)) = &evidence.profile
        && profile.outcomes.truncated > 0
    {
        warnings.push(VerdictWarning {
            title: "Answers were cut off".into(),
            detail: format!(
                "{} of {} successful requests at the gateway ended at their token limit (finish_reason = length, {:.1} %): users saw incomplete answers, and their length understates demand.",
                engine::format::thousands(profile.outcomes.truncated),
                engine::format::thousands(profile.outcomes.ok),
                profile.outcomes.truncation_rate * 100.0
            ),
            link: pilot_link("traffic"),
        });
    }
    if let Some(run) = &evidence.graded_run
        && let Some(truncation) = &run.scores.truncation
        && truncation.successes.unwrap_or(0) > 0
    {
        warnings.push(VerdictWarning {
            title: "Evaluation answers were cut off".into(),
            detail: format!(
                "{} of {} answers of the evaluation run {} ({}) ended at their token limit.",
                truncation.successes.unwrap_or(0),
                truncation.n,
                run.evidence.file_name,
                run.weights_precision
            ),
            link: pilot_link("quality"),
        });
    }
    let load_points = evidence.load_points();
    if let Some(peak) = evidence.planned_peak() {
        let spreads: Vec<Option<SpreadState>> = evidence
            .runs
            .iter()
            .flat_map(|checked| checked.run.points.iter().map(|p| p.spread))
            .collect();
        for index in planned_peak_indices(&load_points, peak) {
            if matches!(spreads[index], Some(SpreadState::Saturated))
                && load_points[index].check.is_comparable()
            {
                let chosen = &load_points[index];
                warnings.push(VerdictWarning {
                    title: "Saturated at the planned peak".into(),
                    detail: format!(
                        "In {} at concurrency {}, TTFT p95 and p99 have converged: every request queues, so the system is at its limit at the planned load.",
                        chosen.source,
                        chosen.concurrency.unwrap_or_default()
                    ),
                    link: pilot_link("load-tests"),
                });
            }
        }
    }
    if plan.is_some()
        && let Some(gap) = load_test_gaps(&load_points, evidence.planned_peak())
    {
        warnings.push(VerdictWarning {
            title: "Load tests grade no pass mark".into(),
            detail: gap,
            link: pilot_link("plan/edit"),
        });
    }
    let first_evidence = evidence
        .runs
        .iter()
        .map(|checked| checked.run.evidence.uploaded_ms)
        .chain(evidence.profile.as_ref().map(|(_, at)| *at))
        .min();
    if let Some(at) = first_evidence {
        for change in engine::plan::changed_after(at, &evidence.versions)
            .into_iter()
            .filter(|c| c.version > 1)
        {
            let reason = change
                .reason
                .as_deref()
                .map(|r| format!(" (reason: {r})"))
                .unwrap_or_default();
            warnings.push(VerdictWarning {
                title: "Pass marks amended after evidence arrived".into(),
                detail: format!(
                    "Version {}: {}{reason}",
                    change.version,
                    change.change.describe()
                ),
                link: pilot_link("plan/history"),
            });
        }
    }
    warnings
}
