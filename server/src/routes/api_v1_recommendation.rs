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

use super::api_v1::{ApiCaller, ApiError};
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

/// `GET /api/v1/pilots/{id}/recommendation`.
async fn recommendation(
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
        Err(why) => Err(ServiceError::Invalid(why).into()),
    }
}
