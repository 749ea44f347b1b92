//! A pilot's evidence, gathered once: the plan in force and its history, the load tests, the
//! combined demand profile, the quality report and precision decision, the limit alarms of the
//! scrapes, and what each file says about its model.
//!
//! Why one module: the verdict, the plan page, the report and the production recommendation all
//! read the same evidence, and each used to be one step away from reading it differently. They
//! call [`gather`] here and grade, render or size what it returns.

use crate::ServiceError;
use crate::Services;
use crate::load_tests::{LoadTestRun, PointRow, Stat3};
use crate::quality::RunView;
use crate::quality::service::eval_run_check;
use engine::demand::DemandProfile;
use engine::plan::PlanVersion;
use engine::verdict::EvidenceStatistic;
use engine::verdict::collect::{
    LatencyPercentiles, LoadPoint, QualityFigures, gateway_figures_checked, load_test_figures,
    quality_figures,
};
use engine::verdict::comparability::{FileCheck, FileKind, PilotIdentity, check_file};

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
        concurrency_basis: point.concurrency_basis,
        request_rate: point.request_rate,
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

use crate::load_tests::check::{StoredPoints, models_of};

/// The models a load-test file states and any speculative-decoding setting in it.
async fn load_test_models(
    services: &Services,
    pilot_id: i64,
    runs: &[LoadTestRun],
) -> Result<Vec<(Vec<String>, Option<String>)>, ServiceError> {
    let stored: Vec<(crate::model::EvidenceFile, String)> = crate::readable::in_force(
        &services.store,
        pilot_id,
        Some(crate::model::EvidenceKind::LoadTest),
    )
    .await?;
    Ok(runs
        .iter()
        .map(|run| {
            let points: StoredPoints = stored
                .iter()
                .find(|(f, _)| f.id == run.evidence.id)
                .and_then(|(_, s)| serde_json::from_str(s).ok())
                .unwrap_or_default();
            let context = run.run_context.clone().unwrap_or_default();
            let models = models_of(&points, &context);
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

/// One load-test run with what its file states about the model, and the file's check against
/// the pilot: kept together so no reader can pair a run with another run's models or check.
#[derive(Clone, Debug)]
pub struct CheckedRun {
    pub run: LoadTestRun,
    /// The models the file states (the first is the one its points are graded as).
    pub models: Vec<String>,
    pub check: FileCheck,
}

/// Everything the verdict reads, gathered once (the report reuses it).
pub struct PilotEvidence {
    pub plan: Option<PlanVersion>,
    pub versions: Vec<PlanVersion>,
    /// The same versions as the store keeps them (who wrote and approved them).
    pub records: Vec<crate::plans::PlanVersionRecord>,
    /// The load-test runs, each with its file's models and check.
    pub runs: Vec<CheckedRun>,
    pub profile: Option<(DemandProfile, i64)>,
    pub quality: Option<crate::quality::QualityReport>,
    /// Which precisions passed the quality gate and which one was decided.
    pub decision: Option<engine::quality::PrecisionDecision>,
    /// The evaluation run that grades quality marks (the decided precision's).
    pub graded_run: Option<RunView>,
    /// Preemptions and lasting queues of the comparable scrapes: the pilot hit its limit.
    pub alarms: Vec<engine::metrics::vllm::LimitAlarm>,
    /// Requests waiting at single scrapes: notes, not alarms.
    pub limit_notes: Vec<engine::metrics::vllm::WaitingNote>,
    /// The pilot's model and GPU, which every file is checked against.
    pub identity: PilotIdentity,
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

    pub fn load_points(&self) -> Vec<LoadPoint> {
        self.runs
            .iter()
            .flat_map(|checked| {
                let model = checked.models.first().cloned().unwrap_or_default();
                checked
                    .run
                    .points
                    .iter()
                    .map(move |p| load_point(&checked.run, p, &model, &checked.check))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The load-test runs whose figures are the pilot's (its model and GPU, or unstated).
    pub fn comparable_runs(&self) -> Vec<&LoadTestRun> {
        self.runs
            .iter()
            .filter(|checked| checked.check.is_comparable())
            .map(|checked| &checked.run)
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

impl PilotEvidence {
    /// One of [`PilotEvidence::in_flight`]'s checks as a sentence in `lang`. The log's check on
    /// itself names Little's law's own figures, which only the profile can phrase again in
    /// another language; the server-side check words itself.
    pub fn in_flight_sentence(
        &self,
        check: &engine::verdict::cross_check::InFlightCheck,
        lang: engine::locale::Lang,
    ) -> String {
        use engine::verdict::cross_check::{log_in_flight_check, log_in_flight_check_in};
        match &self.profile {
            Some((profile, _))
                if lang != engine::locale::Lang::En && log_in_flight_check(profile) == *check =>
            {
                log_in_flight_check_in(profile, lang).sentence
            }
            _ => check.sentence_in(lang),
        }
    }
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
    let mut checked_runs = Vec::with_capacity(runs.len());
    let mut speculative = Vec::new();
    for (run, (models, spec)) in runs.into_iter().zip(stated) {
        let context = run.run_context.clone().unwrap_or_default();
        let check = check_file(
            &identity,
            FileKind::LoadTest,
            &run.evidence.file_name,
            &models,
            context.gpu.as_deref(),
            true,
        );
        if let Some(spec) = spec {
            speculative.push(format!("the load test {}: {spec}", run.evidence.file_name));
        }
        checked_runs.push(CheckedRun { run, models, check });
    }
    let profile = store.traffic_profile(pilot_id).await?.and_then(|stored| {
        crate::readable::profile(pilot_id, &stored.profile_json).map(|p| (p, stored.computed_ms))
    });
    let profile_check = profile
        .as_ref()
        .map(|(p, _)| crate::traffic::service::gateway_check(&identity, "", p))
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
    let mut alarms = limits.alarms.clone();
    alarms.sort_by(|a, b| a.message.cmp(&b.message));
    alarms.dedup_by(|a, b| a.message == b.message);
    let in_flight = match &profile {
        Some((p, _)) => {
            crate::traffic::service::in_flight_cross_check(services, pilot_id, p, &scrapes).await?
        }
        None => Default::default(),
    };
    let all_files = crate::readable::in_force(store, pilot_id, None).await?;
    let first_evidence = all_files
        .iter()
        .map(|(f, _)| (f.uploaded_ms, f.file_name.clone()))
        .min();
    let mut startup_logs = Vec::new();
    for (file, summary) in all_files
        .iter()
        .filter(|(f, _)| f.kind == crate::model::EvidenceKind::VllmStartupLog)
    {
        let Ok(summary) = serde_json::from_str::<crate::model::StartupLogSummary>(summary) else {
            continue;
        };
        let check =
            crate::evidence::comparable::startup_log_check(&identity, &file.file_name, &summary);
        startup_logs.push((file.clone(), check));
    }
    Ok(PilotEvidence {
        plan,
        versions,
        records,
        runs: checked_runs,
        profile,
        quality,
        decision,
        graded_run,
        alarms,
        limit_notes: limits.waiting,
        identity,
        profile_check,
        scrapes,
        startup_logs,
        in_flight,
        first_evidence,
        speculative,
    })
}
