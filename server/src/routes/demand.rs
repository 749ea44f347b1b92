//! `GET /api/v1/pilots/{id}/demand`: the pilot's demand profile, measured at the gateway.
//!
//! The profile combines every gateway log of the pilot (see [`desk::traffic`]): request
//! counts by outcome (`requests`, `ok`, `failed`, `timed_out`, `cancelled`, `truncated` and their
//! rates), the busiest hour (`busiest_hour_start`, `busiest_hour_arrivals`,
//! `busiest_hour_arrivals_per_s`), concurrency (`peak_in_flight`, `peak_in_flight_at`,
//! `mean_in_flight`, `mean_in_flight_busiest_hour`), token lengths (`prompt_tokens`,
//! `completion_tokens`, `context_tokens`, each `count`, `mean`, `p50`, `p95`, `p99`, `max`,
//! `histogram`), gateway latencies, Little's law check, arrivals per minute, the in-flight curve
//! and per-model figures; plus `evidence_ids` (the files covered), `skipped_lines` and
//! `computed_at`. A pilot without a gateway log yet answers **404** with an `error` saying so
//! (the same status as a pilot the caller may not see, with a different message).

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use desk::ServiceError;
use desk::auth::visible_pilot;
use engine::demand::DemandProfile;
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> axum::Router<AppState> {
    axum::Router::new().route("/api/v1/pilots/{id}/demand", get(demand))
}

/// The pilot's demand profile, with the files it covers.
#[derive(Serialize, ToSchema)]
pub struct DemandAnswer {
    #[serde(flatten)]
    pub profile: DemandProfile,
    /// The gateway logs combined into the profile.
    pub evidence_ids: Vec<i64>,
    /// Malformed lines skipped (uploads with `skip_bad_lines=true`).
    pub skipped_lines: i64,
    /// When the profile was computed, RFC 3339 (UTC, milliseconds).
    pub computed_at: String,
}

/// The pilot's demand profile, measured at the gateway from all its gateway logs.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/demand",
    tag = "evidence",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The combined demand profile.", body = DemandAnswer),
        (status = 400, description = "The path id is not an integer.", body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, the caller may not see it, or it has no \
            gateway log yet (the message says which).", body = ErrorBody),
    )
)]
pub async fn demand(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
) -> Result<Response, ApiError> {
    let store = &state.services.store;
    visible_pilot(store, &user, pilot_id).await?;
    let stored = store
        .traffic_profile(pilot_id)
        .await
        .map_err(ServiceError::from)?;
    let not_found = |message: String| {
        Ok((StatusCode::NOT_FOUND, Json(ErrorBody::not_found(message))).into_response())
    };
    let Some(stored) = stored else {
        return not_found(format!(
            "pilot {pilot_id} has no gateway log yet: upload one to POST /api/v1/pilots/{pilot_id}/evidence"
        ));
    };
    let Some(profile) = desk::readable::profile(pilot_id, &stored.profile_json) else {
        return not_found(format!(
            "pilot {pilot_id}'s stored demand profile no longer reads: upload a gateway log to \
             rebuild it"
        ));
    };
    Ok(Json(DemandAnswer {
        profile,
        evidence_ids: stored.evidence_ids,
        skipped_lines: stored.skipped_lines,
        computed_at: engine::traffic::timestamp::format_rfc3339_ms(stored.computed_ms),
    })
    .into_response())
}
