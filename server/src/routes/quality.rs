//! `GET /api/v1/pilots/{id}/quality`: the pilot's evaluation runs, scored, each graded against
//! the quality pass marks of the plan in force.
//!
//! Per run: `evidence_id`, `file_name`, `model`, `precision` (weights), `kv_precision`, `items`
//! (questions answered) and `of_set`, `accuracy` (share of right answers, or the mean score of
//! graded answers, 0–1, with its 95 % interval `low`/`high` and `method`), `retrieval_hit_rate`
//! (share of scorable questions with an accepted passage in the first `k` retrieved, 0–1, with
//! its interval), `k`, `truncated` (answers stopped at the token limit) and `truncation_rate`
//! (0–1), and `passed`: whether every quality mark of the plan (answer score, retrieval hit rate,
//! truncation rate) passes, `null` when the plan has none; `marks` gives each verdict;
//! `set_version`: the evaluation set version the run was read against. Also `set` (the version
//! runs are read against), `decision` (which precisions passed, which one is decided and why),
//! the comparison of the latest two runs and the lm-evaluation-harness task metrics.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::routing::get;
use desk::ServiceError;
use desk::auth::visible_pilot;
use desk::quality::{RunView, service as quality};
use engine::quality::{Estimate, PrecisionDecision, TaskMetric};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> axum::Router<AppState> {
    axum::Router::new().route("/api/v1/pilots/{id}/quality", get(quality_api))
}

/// The pilot's answer quality: its evaluation set, runs, precision decision and lm-eval
/// results.
#[derive(Serialize, ToSchema)]
pub struct QualityAnswer {
    /// The evaluation set version runs are read against; `null` before one is uploaded.
    pub set: Option<SetAnswer>,
    /// Which precisions passed the quality gate and which one is decided, and why.
    pub decision: PrecisionDecision,
    /// Every evaluation run, newest first.
    pub runs: Vec<RunAnswer>,
    /// The latest two runs compared question by question.
    pub comparison: Option<ComparisonAnswer>,
    /// lm-evaluation-harness results files.
    pub lm_eval: Vec<LmEvalAnswer>,
}

/// The evaluation set.
#[derive(Serialize, ToSchema)]
pub struct SetAnswer {
    /// `null` for a set stored before versions existed.
    pub version: Option<u32>,
    pub approved: bool,
    pub evidence_id: Option<i64>,
    pub file_name: Option<String>,
    pub source: String,
    /// Number of questions.
    pub questions: usize,
}

/// One evaluation run, scored and graded.
#[derive(Serialize, ToSchema)]
pub struct RunAnswer {
    pub evidence_id: i64,
    pub file_name: String,
    pub model: String,
    /// Weights precision, e.g. `FP16`, `AWQ-INT4`.
    pub precision: String,
    /// The evaluation set version the run was read against.
    pub set_version: Option<u32>,
    pub kv_precision: String,
    pub engine: String,
    pub engine_version: String,
    pub gpu: String,
    /// Questions answered.
    pub items: usize,
    /// Questions in the set.
    pub of_set: usize,
    /// Share of right answers (or the mean score of graded answers), 0–1, with its 95 %
    /// interval.
    pub accuracy: Option<Estimate>,
    /// Share of scorable questions with an accepted passage in the first `k` retrieved, 0–1.
    pub retrieval_hit_rate: Option<Estimate>,
    /// k of the retrieval hit rate.
    pub k: usize,
    /// Answers stopped at the token limit.
    pub truncated: Option<usize>,
    /// Truncated answers ÷ answers, 0–1.
    pub truncation_rate: Option<f64>,
    /// Wrong answers although an accepted passage was retrieved (a model problem).
    pub wrong_with_passage: Vec<String>,
    /// Wrong answers without an accepted passage retrieved (a search problem).
    pub wrong_without_passage: Vec<String>,
    /// Whether every quality mark of the plan in force passes; `null` when the plan has none.
    pub passed: Option<bool>,
    pub marks: Vec<MarkAnswer>,
}

/// One quality mark's verdict on a run.
#[derive(Serialize, ToSchema)]
pub struct MarkAnswer {
    /// `answer_score`, `retrieval_hit_rate` or `truncation_rate`.
    pub metric: String,
    /// `pass`, `fail`, `not_measured`, `not_comparable`.
    pub verdict: String,
    pub explanation: String,
}

/// Two runs compared.
#[derive(Serialize, ToSchema)]
pub struct ComparisonAnswer {
    /// Evidence ids of the runs.
    pub a: i64,
    pub b: i64,
    /// b − a in accuracy, with its 95 % interval.
    pub difference: Option<Estimate>,
    /// McNemar's exact test on the questions that flipped.
    pub mcnemar_p: Option<f64>,
    /// Question ids right in a and wrong in b.
    pub right_to_wrong: Vec<String>,
    pub wrong_to_right: Vec<String>,
}

/// One lm-evaluation-harness results file.
#[derive(Serialize, ToSchema)]
pub struct LmEvalAnswer {
    pub evidence_id: i64,
    pub file_name: String,
    /// The model the file names (`model_name`).
    pub model_name: Option<String>,
    /// Why these are not the pilot's figures (another model); `null` when they are.
    pub not_comparable: Option<String>,
    pub metrics: Vec<TaskMetric>,
}

fn run_answer(run: &RunView, marks: &[engine::plan::PassMark]) -> RunAnswer {
    let graded = quality::grade_run(marks, run);
    let passed = (!graded.is_empty()).then(|| {
        graded
            .iter()
            .all(|(_, g)| g.verdict == engine::verdict::Verdict::Pass)
    });
    let scores = &run.scores;
    RunAnswer {
        evidence_id: run.evidence.id,
        file_name: run.evidence.file_name.clone(),
        model: run.model.clone(),
        precision: run.weights_precision.clone(),
        set_version: run.set_version,
        kv_precision: run.kv_precision.clone(),
        engine: run.engine.clone(),
        engine_version: run.engine_version.clone(),
        gpu: run.gpu.clone(),
        items: scores.answered,
        of_set: scores.of_set,
        accuracy: scores.answer_quality,
        retrieval_hit_rate: scores.hit_rate,
        k: run.k,
        truncated: scores.truncation.as_ref().and_then(|t| t.successes),
        truncation_rate: scores.truncation.as_ref().map(|t| t.value),
        wrong_with_passage: scores.crosstab.wrong_with_passage.clone(),
        wrong_without_passage: scores.crosstab.wrong_without_passage.clone(),
        passed,
        marks: graded
            .iter()
            .map(|(mark, g)| MarkAnswer {
                metric: mark.metric.as_str().to_string(),
                verdict: g.verdict.as_str().to_string(),
                explanation: g.explanation.clone(),
            })
            .collect(),
    }
}

/// The pilot's evaluation runs, scored and graded against the plan's quality marks.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/quality",
    tag = "evidence",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The quality overview.", body = QualityAnswer),
        (status = 400, description = "The path id is not an integer.", body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
    )
)]
pub async fn quality_api(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
) -> Result<Json<QualityAnswer>, ApiError> {
    let services = &state.services;
    visible_pilot(&services.store, &user, pilot_id).await?;
    let overview = quality::overview(services, pilot_id, None, None).await?;
    let marks = services
        .store
        .plan_in_force(pilot_id)
        .await
        .map_err(ServiceError::from)?
        .map(|plan| plan.content.pass_marks)
        .unwrap_or_default();
    Ok(Json(QualityAnswer {
        set: overview.set.as_ref().map(|s| SetAnswer {
            version: s.version,
            approved: s.approved,
            evidence_id: s.evidence.as_ref().map(|e| e.id),
            file_name: s.evidence.as_ref().map(|e| e.file_name.clone()),
            source: s.source.clone(),
            questions: s.questions,
        }),
        decision: overview.decision.clone(),
        runs: overview
            .runs
            .iter()
            .map(|r| run_answer(r, &marks))
            .collect(),
        comparison: overview.comparison.as_ref().map(|c| ComparisonAnswer {
            a: c.a,
            b: c.b,
            difference: c.comparison.difference,
            mcnemar_p: c.comparison.mcnemar_p,
            right_to_wrong: c.comparison.right_to_wrong.clone(),
            wrong_to_right: c.comparison.wrong_to_right.clone(),
        }),
        lm_eval: overview
            .lm_eval
            .iter()
            .map(|l| LmEvalAnswer {
                evidence_id: l.evidence.id,
                file_name: l.evidence.file_name.clone(),
                model_name: l.results.model_name.clone(),
                not_comparable: l.check.not_comparable.clone(),
                metrics: l.results.metrics.clone(),
            })
            .collect(),
    }))
}
