//! `GET /api/v1/pilots/{id}/recommendation`: the pilot's production recommendation, the same
//! object as `server recommend --pilot N --json` and the report's section
//! ([`engine::production::CapacityPlan`]: `demand`, `candidates` with `configuration`, `holds`,
//! `holds_n_plus_1`, `predicted` per plan mark with `p50`, `p99`, `low`, `high`, `basis`, and
//! `cards`; `recommended`, `story`, `next_steps`, `warnings`).
//!
//! The `recommended` configuration is the same for every caller; staff also get each
//! candidate's `cost` at the GPU catalog's prices per GPU-hour, customers never. A pilot the
//! caller may not see is 404; a pilot the recommendation cannot be made for yet (no approved
//! plan, no gateway log, a model outside the catalog) is 422 saying why.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::visible_pilot;
use engine::production::CapacityPlan;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/pilots/{id}/recommendation", get(recommendation))
}

/// The production recommendation: the capacity plan.
///
/// Demand as an arrival process, every catalog candidate simulated under it with all copies up
/// and one copy down, the `recommended` configuration (the same for every caller) with its
/// ranges, the `story`, `next_steps` and `warnings`. Staff also get each candidate's `cost`;
/// customers never. The same object as `server recommend --pilot N --json`.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/recommendation",
    tag = "capacity",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The capacity plan.", body = CapacityPlan),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 422, description = "It cannot be made yet (no approved plan, no gateway log, \
            a model outside the catalog); the message says why.", body = ErrorBody),
    )
)]
pub async fn recommendation(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<String>,
) -> Result<Json<CapacityPlan>, ApiError> {
    let id: i64 = id.parse().map_err(|_| ServiceError::NotFound)?;
    let services = &state.services;
    let pilot = visible_pilot(&services.store, &user, id).await?;
    let priced = user.role.is_staff();
    match desk::capacity::for_pilot(services, &pilot, priced).await? {
        Ok(plan) => Ok(Json(plan)),
        Err(why) => Err(ServiceError::Invalid(why.to_string()).into()),
    }
}
