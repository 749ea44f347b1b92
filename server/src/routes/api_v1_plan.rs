//! The plan in the REST API, for CI pipelines that gate on a pilot:
//!
//! * `GET /api/v1/pilots/{id}/plan`: the plan in force (the approved version with the highest
//!   number): version, status, who approved it and when, and every pass mark with metric,
//!   statistic, comparator, threshold, unit, measurement point, definition and scope;
//! * `GET /api/v1/pilots/{id}/verdict`: each pass mark of that version with its current status
//!   (`pass`, `fail`, `not_measured`, `not_comparable`) and the value it was graded on, plus the
//!   overall outcome (`passed`, `failed`, `incomplete`).
//!
//! Same bearer tokens and policy as the rest of `/api/v1` ([`super::api_v1::ApiCaller`]): a pilot
//! the caller may not see is 404, no token 401. A pilot without an approved plan answers 404 with
//! an error saying so: drafts are not in force, and customers never see them.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::visible_pilot;
use desk::model::SessionUser;
use desk::plans::PlanVersionRecord;
use engine::plan::PassMark;
use engine::verdict::{GradedMark, Verdict};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/pilots/{id}/plan", get(plan))
        .route("/api/v1/pilots/{id}/verdict", get(verdict))
}

/// One pass mark as the API describes it.
#[derive(Serialize, ToSchema)]
pub struct ApiPassMark {
    /// Position in the plan, from 1.
    pub number: usize,
    /// `ttft`, `tpot`, … or `custom`.
    pub metric: String,
    /// The metric's name for people (`TTFT`, a custom metric's name).
    pub metric_label: String,
    /// `p50`, `p90`, `p95`, `p99`, `mean`, `max`, `rate`.
    pub statistic: String,
    /// `le`, `lt`, `ge`, `gt`.
    pub comparator: String,
    /// `≤`, `<`, `≥`, `>`.
    pub comparator_symbol: String,
    pub threshold: f64,
    /// `ms`, `s`, `tokens_per_s`, `req_per_s`, `percent`, `score`.
    pub unit: String,
    /// `client`, `gateway`, `engine`, `evaluation_set`.
    pub measurement_point: String,
    /// How the figure is computed.
    pub definition: String,
    /// `all_traffic`, `planned_peak` or `scenario:<name>`.
    pub scope: String,
    /// The mark in plain words.
    pub sentence: String,
    /// Compact notation, e.g. `TTFT p99 ≤ 450 ms @ client`.
    pub notation: String,
}

impl ApiPassMark {
    fn new(number: usize, mark: &PassMark) -> Self {
        ApiPassMark {
            number,
            metric: mark.metric.as_str().to_string(),
            metric_label: mark.metric.short_label(),
            statistic: mark.statistic.as_str().to_string(),
            comparator: mark.comparator.as_str().to_string(),
            comparator_symbol: mark.comparator.symbol().to_string(),
            threshold: mark.threshold,
            unit: mark.unit.as_str().to_string(),
            measurement_point: mark.point.as_str().to_string(),
            definition: mark.effective_definition().to_string(),
            scope: mark.scope.form_value(),
            sentence: mark.sentence(),
            notation: mark.notation(),
        }
    }
}

/// `GET /api/v1/pilots/{id}/plan`.
#[derive(Serialize, ToSchema)]
pub struct ApiPlan {
    pub pilot_id: i64,
    pub version: u32,
    /// Always `approved`: only an approved version is in force.
    pub status: String,
    pub approved_by: Option<String>,
    /// RFC 3339, UTC.
    pub approved_at: Option<String>,
    pub approved_at_ms: Option<i64>,
    /// Why this version amended the one before; `null` for version 1.
    pub amendment_reason: Option<String>,
    pub pass_marks: Vec<ApiPassMark>,
}

/// A value with its unit.
#[derive(Serialize, ToSchema)]
pub struct ApiValue {
    pub value: f64,
    pub unit: String,
}

/// One pass mark with its status.
#[derive(Serialize, ToSchema)]
pub struct ApiMarkVerdict {
    #[serde(flatten)]
    pub pass_mark: ApiPassMark,
    /// `pass`, `fail`, `not_measured`, `not_comparable`.
    #[schema(pattern = "^(pass|fail|not_measured|not_comparable)$")]
    pub status: String,
    /// The figure it was graded on, in the mark's unit; `null` when none was.
    pub value: Option<ApiValue>,
    /// One line a person can read: why this status.
    pub explanation: String,
    /// When the evidence first gave this mark a figure to pass or fail on, under this plan
    /// version (Unix ms); `null` while it is not measured or not comparable.
    pub gradable_since_ms: Option<i64>,
}

/// How many marks ended in each status.
#[derive(Serialize, ToSchema)]
pub struct ApiTally {
    pub pass: usize,
    pub fail: usize,
    pub not_measured: usize,
    pub not_comparable: usize,
}

/// `GET /api/v1/pilots/{id}/verdict`.
#[derive(Serialize, ToSchema)]
pub struct ApiVerdict {
    pub pilot_id: i64,
    /// The plan version graded against (the one in force).
    pub plan_version: u32,
    /// `passed` (every mark passed), `failed` (at least one failed) or `incomplete`.
    #[schema(pattern = "^(passed|failed|incomplete)$")]
    pub outcome: String,
    pub tally: ApiTally,
    pub pass_marks: Vec<ApiMarkVerdict>,
}

/// RFC 3339 (UTC, seconds) for a Unix-millisecond instant.
fn rfc3339(unix_ms: i64) -> String {
    let seconds = unix_ms.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        engine::clock::utc_date(unix_ms),
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60
    )
}

/// An error of these routes: the API's usual errors, or a visible pilot without an approved plan
/// (404 with a message saying so).
pub enum PlanApiError {
    Api(ApiError),
    NoApprovedPlan(i64),
}

impl From<ServiceError> for PlanApiError {
    fn from(error: ServiceError) -> Self {
        PlanApiError::Api(ApiError(error))
    }
}

impl IntoResponse for PlanApiError {
    fn into_response(self) -> Response {
        match self {
            PlanApiError::Api(error) => error.into_response(),
            PlanApiError::NoApprovedPlan(id) => (
                StatusCode::NOT_FOUND,
                Json(ErrorBody::not_found(format!(
                    "pilot {id} has no approved plan yet: drafts are not in force"
                ))),
            )
                .into_response(),
        }
    }
}

fn parse_id(id: &str) -> Result<i64, PlanApiError> {
    id.parse().map_err(|_| ServiceError::NotFound.into())
}

/// The plan in force of pilot `id`, if the caller may see the pilot.
async fn in_force(
    state: &AppState,
    user: &SessionUser,
    id: i64,
) -> Result<PlanVersionRecord, PlanApiError> {
    let store = &state.services.store;
    visible_pilot(store, user, id).await?;
    store
        .plan_in_force(id)
        .await
        .map_err(ServiceError::from)?
        .ok_or(PlanApiError::NoApprovedPlan(id))
}

/// The plan in force of a pilot.
///
/// The approved version with the highest number: who approved it and when, and every pass
/// mark with metric, statistic, comparator, threshold, unit, measurement point, definition and
/// scope.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/plan",
    tag = "pilots",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The plan in force.", body = ApiPlan),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, the caller may not see it, or it has no \
            approved plan yet (drafts are not in force); the message says which.", body = ErrorBody),
    )
)]
pub async fn plan(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<String>,
) -> Result<Json<ApiPlan>, PlanApiError> {
    let id = parse_id(&id)?;
    let version = in_force(&state, &user, id).await?;
    Ok(Json(ApiPlan {
        pilot_id: id,
        version: version.number,
        status: version.status.as_str().to_string(),
        approved_by: version.approved_by_name.clone(),
        approved_at: version.approved_ms.map(rfc3339),
        approved_at_ms: version.approved_ms,
        amendment_reason: version.amendment_reason.clone(),
        pass_marks: version
            .content
            .pass_marks
            .iter()
            .enumerate()
            .map(|(i, mark)| ApiPassMark::new(i + 1, mark))
            .collect(),
    }))
}

fn mark_verdict(
    graded: &GradedMark,
    since: &std::collections::HashMap<String, i64>,
) -> ApiMarkVerdict {
    let grades = matches!(graded.grade.verdict, Verdict::Pass | Verdict::Fail);
    ApiMarkVerdict {
        gradable_since_ms: grades
            .then(|| since.get(&graded.pass_mark.notation()).copied())
            .flatten(),
        pass_mark: ApiPassMark::new(graded.mark_index + 1, &graded.pass_mark),
        status: graded.grade.verdict.as_str().to_string(),
        value: graded.grade.value_used.map(|q| ApiValue {
            value: q.value,
            unit: q.unit.as_str().to_string(),
        }),
        explanation: match &graded.grade.verdict {
            Verdict::NotComparable { reason } if graded.grade.explanation.is_empty() => {
                reason.clone()
            }
            _ => graded.grade.explanation.clone(),
        },
    }
}

/// The verdict: every pass mark of the plan in force with its status.
///
/// Each mark with the value it was graded on and why, the tally and the overall outcome; the
/// same grading as the pilot page and the report.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/verdict",
    tag = "pilots",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The verdict.", body = ApiVerdict),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, the caller may not see it, or it has no \
            approved plan yet (drafts are not in force); the message says which.", body = ErrorBody),
    )
)]
pub async fn verdict(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<String>,
) -> Result<Json<ApiVerdict>, PlanApiError> {
    let id = parse_id(&id)?;
    let version = in_force(&state, &user, id).await?;
    let evidence = desk::pilot_evidence::gather(&state.services, id)
        .await?
        .figures();
    let grade = engine::verdict::grade_plan(&version.content, &evidence);
    // Noted by the pilot's overview when its evidence changes (see `desk::overview`).
    let since = state
        .services
        .store
        .gradable_since(id, version.number)
        .await
        .map_err(ServiceError::from)?;
    Ok(Json(ApiVerdict {
        pilot_id: id,
        plan_version: version.number,
        outcome: serde_json::to_value(grade.outcome)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        tally: ApiTally {
            pass: grade.tally.passed,
            fail: grade.tally.failed,
            not_measured: grade.tally.not_measured,
            not_comparable: grade.tally.not_comparable,
        },
        pass_marks: grade
            .marks
            .iter()
            .map(|mark| mark_verdict(mark, &since))
            .collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn instants_are_written_in_rfc_3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_796_030_299_000), "2026-11-30T09:18:19Z");
    }
}
