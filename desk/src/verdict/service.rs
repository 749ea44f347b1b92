use super::*;
use crate::ServiceError;
use crate::Services;
use crate::load_tests::{LoadTestRun, PointRow, Stat3};
use crate::quality::RunView;
use engine::demand::DemandProfile;
use engine::loadtest::SpreadState;
use engine::plan::{MeasurementPoint, PlanContent, PlanVersion};
use engine::verdict::collect::{
    LatencyPercentiles, LoadPoint, QualityFigures, gateway_figures_checked, load_test_figures,
    load_test_gaps, planned_peak_indices, quality_figures,
};
use engine::verdict::comparability::{FileCheck, PilotIdentity, check_file};
use engine::verdict::{EvidenceStatistic, grade_plan};

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "verdict failed");
    ServiceError::Internal
}

fn percentiles(stat: &Stat3) -> LatencyPercentiles {
    LatencyPercentiles {
        p50: stat.p50,
        p95: stat.p95,
        p99: stat.p99,
    }
}

/// A load-test point as grading sees it, with its file's stated model and check.
pub fn load_point(
    run: &LoadTestRun,
    point: &PointRow,
    model: &str,
    check: &FileCheck,
) -> LoadPoint {
    let context = run.run_context.clone().unwrap_or_default();
    LoadPoint {
        scenario: point.scenario.clone(),
        concurrency: point.concurrency,
        ttft_ms: percentiles(&point.ttft),
        tpot_ms: percentiles(&point.tpot),
        itl_ms: percentiles(&point.itl),
        e2e_ms: percentiles(&point.e2e),
        output_tokens_per_s: point.output_tokens_per_s,
        completed: point.completed,
        failed: point.failed,
        source: format!("{}, {}", run.tool, run.evidence.file_name),
        recorded_at_ms: Some(run.evidence.uploaded_ms),
        gpu: context.gpu.unwrap_or_default(),
        engine_version: context.engine_version.unwrap_or_default(),
        model: model.to_string(),
        check: check.clone(),
    }
}

/// What a load-test file says about its model: the points' models (read from the stored
/// import), else the run context's served model name or model argument.
#[derive(serde::Deserialize, Default)]
struct StoredPoints {
    #[serde(default)]
    points: Vec<StoredPoint>,
}

#[derive(serde::Deserialize, Default)]
struct StoredPoint {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    settings: std::collections::BTreeMap<String, String>,
}

/// The models a load-test file states and any speculative-decoding setting in it.
async fn load_test_models(
    services: &Services,
    pilot_id: i64,
    runs: &[LoadTestRun],
) -> Result<Vec<(Vec<String>, Option<String>)>, ServiceError> {
    let stored: Vec<(crate::model::EvidenceFile, String)> = services
        .store
        .list_evidence(pilot_id, Some(crate::load_tests::service::LOAD_TEST))
        .await?;
    Ok(runs
        .iter()
        .map(|run| {
            let points: StoredPoints = stored
                .iter()
                .find(|(f, _)| f.id == run.evidence.id)
                .and_then(|(_, s)| serde_json::from_str(s).ok())
                .unwrap_or_default();
            let mut models: Vec<String> = Vec::new();
            for m in points.points.iter().filter_map(|p| p.model.clone()) {
                if !models.contains(&m) {
                    models.push(m);
                }
            }
            let context = run.run_context.clone().unwrap_or_default();
            if models.is_empty() {
                models.extend(context.served_model_name.clone());
                models.extend(context.model.clone());
            }
            let speculative = context.speculative_decoding.clone().or_else(|| {
                points.points.iter().find_map(|p| {
                    p.settings
                        .iter()
                        .find(|(k, v)| {
                            k.contains("speculative") || v.contains("num_speculative_tokens")
                        })
                        .map(|(k, v)| format!("{k}={v}"))
                })
            });
            (models, speculative)
        })
        .collect())
}

/// Everything the verdict reads, gathered once (the report reuses it).
pub struct PilotEvidence {
    pub plan: Option<PlanVersion>,
    pub versions: Vec<PlanVersion>,
    /// The same versions as the store keeps them (who wrote and approved them).
    pub records: Vec<crate::plans::PlanVersionRecord>,
    pub runs: Vec<LoadTestRun>,
    pub profile: Option<(DemandProfile, i64)>,
    pub quality: Option<crate::quality::QualityReport>,
    /// Which precisions passed the quality gate and which one was decided.
    pub decision: Option<engine::quality::PrecisionDecision>,
    /// The evaluation run that grades quality marks (the decided precision's).
    pub graded_run: Option<RunView>,
    /// Preemptions and lasting queues of the comparable scrapes: the pilot hit its limit.
    pub alarms: Vec<String>,
    /// Requests waiting at single scrapes: notes, not alarms.
    pub limit_notes: Vec<String>,
    /// The pilot's model and GPU, which every file is checked against.
    pub identity: PilotIdentity,
    /// Each load-test run's models as the file states them, and its check (parallel to
    /// `runs`).
    pub run_models: Vec<Vec<String>>,
    pub run_checks: Vec<FileCheck>,
    /// The gateway log's check.
    pub profile_check: FileCheck,
    /// The scrapes with their checks, in the order taken.
    pub scrapes: Vec<crate::traffic::ScrapeFile>,
    /// Start-up logs that are not the pilot's, or do not say, with their checks.
    pub startup_logs: Vec<(crate::model::EvidenceFile, FileCheck)>,
    /// Requests in flight, cross-checked.
    pub in_flight: crate::traffic::InFlightCrossCheck,
    /// The first evidence file uploaded: when and which.
    pub first_evidence: Option<(i64, String)>,
    /// Where speculative decoding was seen (`the load test run.json: {…}`).
    pub speculative: Vec<String>,
}

impl PilotEvidence {
    pub fn planned_peak(&self) -> Option<u32> {
        self.plan
            .as_ref()
            .and_then(|p| p.content.demand.planned_peak_concurrency)
    }

    fn load_points(&self) -> Vec<LoadPoint> {
        self.runs
            .iter()
            .enumerate()
            .flat_map(|(i, run)| {
                let model = self
                    .run_models
                    .get(i)
                    .and_then(|m| m.first())
                    .cloned()
                    .unwrap_or_default();
                let check = self.run_checks.get(i).cloned().unwrap_or_default();
                run.points
                    .iter()
                    .map(move |p| load_point(run, p, &model, &check))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The load-test runs whose figures are the pilot's (its model and GPU, or unstated).
    pub fn comparable_runs(&self) -> Vec<&LoadTestRun> {
        self.runs
            .iter()
            .zip(&self.run_checks)
            .filter(|(_, c)| c.is_comparable())
            .map(|(r, _)| r)
            .collect()
    }

    /// Every figure of the evidence, as grading sees it.
    pub fn figures(&self) -> Vec<EvidenceStatistic> {
        let mut figures = Vec::new();
        if let Some((profile, at)) = &self.profile {
            figures.extend(gateway_figures_checked(
                profile,
                "gateway log",
                *at,
                &self.profile_check,
            ));
        }
        figures.extend(load_test_figures(&self.load_points(), self.planned_peak()));
        if let Some(run) = &self.graded_run {
            figures.extend(quality_figures(&quality_of(run, &self.identity)));
        }
        figures
    }
}

fn quality_of(run: &RunView, identity: &PilotIdentity) -> QualityFigures {
    let scores = &run.scores;
    let fractional = scores
        .answer_quality
        .as_ref()
        .is_some_and(|e| e.successes.is_none());
    QualityFigures {
        accuracy: scores
            .answer_quality
            .as_ref()
            .filter(|_| !fractional)
            .map(|e| e.value),
        mean_score: scores
            .answer_quality
            .as_ref()
            .filter(|_| fractional)
            .map(|e| e.value),
        retrieval_hit_rate: scores.hit_rate.as_ref().map(|e| e.value),
        truncation_rate: scores.truncation.as_ref().map(|e| e.value),
        source: format!(
            "evaluation run {} ({}, {})",
            run.evidence.file_name, run.model, run.weights_precision
        ),
        recorded_at_ms: Some(run.evidence.uploaded_ms),
        questions: Some(scores.answered as u64),
        check: eval_run_check(identity, run),
    }
}

/// An evaluation run's model against the pilot's (its GPU does not matter for answers).
pub fn eval_run_check(identity: &PilotIdentity, run: &RunView) -> FileCheck {
    check_file(
        identity,
        &format!("the evaluation run {}", run.evidence.file_name),
        std::slice::from_ref(&run.model),
        None,
        false,
    )
}

/// The run that grades the plan's quality marks: the newest run of the decided precision,
/// else of the plan's serving precision, else the newest run.
fn graded_run(
    report: &crate::quality::QualityReport,
    decided: Option<&str>,
    serving: &str,
) -> Option<RunView> {
    let of = |wanted: &str| {
        let wanted = wanted.trim();
        report
            .runs
            .iter()
            .find(|r| !wanted.is_empty() && r.weights_precision.trim().eq_ignore_ascii_case(wanted))
    };
    decided
        .and_then(of)
        .or_else(|| of(serving))
        .or_else(|| report.runs.first())
        .cloned()
}

/// Gathers the pilot's evidence.
pub async fn gather(services: &Services, pilot_id: i64) -> Result<PilotEvidence, ServiceError> {
    let store = &services.store;
    let identity = match store.pilot(pilot_id).await? {
        Some(pilot) => crate::traffic::service::identity(&pilot),
        None => PilotIdentity::default(),
    };
    let records = store.plan_versions(pilot_id).await?;
    let versions: Vec<PlanVersion> = records.iter().map(|record| record.to_engine()).collect();
    let plan = store.plan_in_force(pilot_id).await?.map(|r| r.to_engine());
    // Graded against the plan in force: the goodput stored at import (or once per plan
    // version), so the report's tables carry it without any raw file being read.
    let targets = crate::load_tests::service::plan_targets(services, pilot_id).await?;
    let runs = crate::load_tests::service::load_runs(services, pilot_id, &targets).await?;
    let stated = load_test_models(services, pilot_id, &runs).await?;
    let mut run_models = Vec::new();
    let mut run_checks = Vec::new();
    let mut speculative = Vec::new();
    for (run, (models, spec)) in runs.iter().zip(stated) {
        let context = run.run_context.clone().unwrap_or_default();
        run_checks.push(check_file(
            &identity,
            &format!("the load test {}", run.evidence.file_name),
            &models,
            context.gpu.as_deref(),
            true,
        ));
        run_models.push(models);
        if let Some(spec) = spec {
            speculative.push(format!("the load test {}: {spec}", run.evidence.file_name));
        }
    }
    let profile = match store.traffic_profile(pilot_id).await? {
        Some(stored) => Some((
            serde_json::from_str::<DemandProfile>(&stored.profile_json).map_err(internal)?,
            stored.computed_ms,
        )),
        None => None,
    };
    let profile_check = profile
        .as_ref()
        .map(|(p, _)| crate::traffic::service::gateway_check(&identity, p))
        .unwrap_or_default();
    let quality = crate::quality::service::overview(services, pilot_id, None, None).await?;
    let precision = plan
        .as_ref()
        .map(|p| p.content.serving.precision.clone())
        .unwrap_or_default();
    let decision = if quality.runs.is_empty() {
        None
    } else {
        Some(quality.decision.clone())
    };
    let graded_run = graded_run(
        &quality,
        decision.as_ref().and_then(|d| d.decided.as_deref()),
        &precision,
    );
    let quality = (!quality.runs.is_empty() || quality.set.is_some()).then_some(quality);
    let scrapes = crate::traffic::service::checked_scrapes(services, pilot_id, &identity).await?;
    let window = crate::traffic::service::window(services, pilot_id, "", "", "")
        .await
        .ok()
        .flatten()
        .filter(|w| {
            [w.before.id, w.after.id].iter().all(|id| {
                scrapes
                    .iter()
                    .any(|s| s.evidence.id == *id && s.check.is_comparable())
            })
        });
    let limits =
        crate::traffic::service::limit_signals(&scrapes, window.as_ref().map(|w| &w.window));
    let mut alarms: Vec<String> = limits.alarms.iter().map(|a| a.message.clone()).collect();
    alarms.sort();
    alarms.dedup();
    let in_flight = match &profile {
        Some((p, _)) => {
            crate::traffic::service::in_flight_cross_check(services, pilot_id, p, &scrapes).await?
        }
        None => Default::default(),
    };
    let all_files = store.list_evidence(pilot_id, None).await?;
    let first_evidence = all_files
        .iter()
        .map(|(f, _)| (f.uploaded_ms, f.file_name.clone()))
        .min();
    let mut startup_logs = Vec::new();
    for (file, summary) in all_files
        .iter()
        .filter(|(f, _)| f.kind == crate::evidence::STARTUP_LOG)
    {
        let Ok(summary) = serde_json::from_str::<crate::model::StartupLogSummary>(summary) else {
            continue;
        };
        let models: Vec<String> = summary.log.model.iter().cloned().collect();
        let gpu = engine::sizing::gpu_by_id(&summary.settings.gpu_id)
            .map(|g| g.name)
            .unwrap_or_else(|| summary.settings.gpu_id.clone());
        let check = check_file(
            &identity,
            &format!("the start-up log {}", file.file_name),
            &models,
            Some(gpu.as_str()),
            true,
        );
        startup_logs.push((file.clone(), check));
    }
    Ok(PilotEvidence {
        plan,
        versions,
        records,
        runs,
        profile,
        quality,
        decision,
        graded_run,
        alarms,
        limit_notes: limits.notes,
        identity,
        run_models,
        run_checks,
        profile_check,
        scrapes,
        startup_logs,
        in_flight,
        first_evidence,
        speculative,
    })
}

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
    for (run, check) in evidence.runs.iter().zip(&evidence.run_checks) {
        note_file(
            format!("load test {}", run.evidence.file_name),
            check,
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
            .flat_map(|run| run.points.iter().map(|p| p.spread))
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
        .map(|r| r.evidence.uploaded_ms)
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
