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

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::routing::get;
use desk::ServiceError;
use desk::auth::visible_pilot;
use desk::quality::{RunView, service as quality};
use engine::quality::Estimate;
use serde_json::{Value, json};

pub fn router() -> axum::Router<AppState> {
    axum::Router::new().route("/api/v1/pilots/{id}/quality", get(quality_api))
}

fn estimate(estimate: Option<&Estimate>) -> Value {
    match estimate {
        Some(e) => json!({
            "value": e.value,
            "low": e.low,
            "high": e.high,
            "n": e.n,
            "successes": e.successes,
            "method": e.method,
        }),
        None => Value::Null,
    }
}

fn run_json(run: &RunView, marks: &[engine::plan::PassMark]) -> Value {
    let graded = quality::grade_run(marks, run);
    let passed = (!graded.is_empty()).then(|| {
        graded
            .iter()
            .all(|(_, g)| g.verdict == engine::verdict::Verdict::Pass)
    });
    let scores = &run.scores;
    json!({
        "evidence_id": run.evidence.id,
        "file_name": run.evidence.file_name,
        "model": run.model,
        "precision": run.weights_precision,
        "set_version": run.set_version,
        "kv_precision": run.kv_precision,
        "engine": run.engine,
        "engine_version": run.engine_version,
        "gpu": run.gpu,
        "items": scores.answered,
        "of_set": scores.of_set,
        "accuracy": estimate(scores.answer_quality.as_ref()),
        "retrieval_hit_rate": estimate(scores.hit_rate.as_ref()),
        "k": run.k,
        "truncated": scores.truncation.as_ref().and_then(|t| t.successes),
        "truncation_rate": scores.truncation.as_ref().map(|t| t.value),
        "wrong_with_passage": scores.crosstab.wrong_with_passage,
        "wrong_without_passage": scores.crosstab.wrong_without_passage,
        "passed": passed,
        "marks": graded.iter().map(|(mark, g)| json!({
            "metric": mark.metric,
            "verdict": g.verdict.as_str(),
            "explanation": g.explanation,
        })).collect::<Vec<_>>(),
    })
}

pub async fn quality_api(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
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
    let runs: Vec<Value> = overview.runs.iter().map(|r| run_json(r, &marks)).collect();
    let comparison = overview.comparison.as_ref().map(|c| {
        json!({
            "a": c.a,
            "b": c.b,
            "difference": estimate(c.comparison.difference.as_ref()),
            "mcnemar_p": c.comparison.mcnemar_p,
            "right_to_wrong": c.comparison.right_to_wrong,
            "wrong_to_right": c.comparison.wrong_to_right,
        })
    });
    let lm_eval: Vec<Value> = overview
        .lm_eval
        .iter()
        .map(|l| {
            json!({
                "evidence_id": l.evidence.id,
                "file_name": l.evidence.file_name,
                "model_name": l.results.model_name,
                "not_comparable": l.check.not_comparable,
                "metrics": l.results.metrics,
            })
        })
        .collect();
    Ok(Json(json!({
        "set": overview.set.as_ref().map(|s| json!({
            "version": s.version,
            "approved": s.approved,
            "evidence_id": s.evidence.as_ref().map(|e| e.id),
            "file_name": s.evidence.as_ref().map(|e| e.file_name.clone()),
            "source": s.source,
            "questions": s.questions,
        })),
        "decision": overview.decision,
        "runs": runs,
        "comparison": comparison,
        "lm_eval": lm_eval,
    })))
}
