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

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use desk::ServiceError;
use desk::auth::visible_pilot;
use serde_json::{Value, json};

pub fn router() -> axum::Router<AppState> {
    axum::Router::new().route("/api/v1/pilots/{id}/demand", get(demand))
}

pub async fn demand(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
) -> Result<Response, ApiError> {
    let store = &state.services.store;
    visible_pilot(store, &user, pilot_id).await?;
    let Some(stored) = store
        .traffic_profile(pilot_id)
        .await
        .map_err(ServiceError::from)?
    else {
        return Ok((
            StatusCode::NOT_FOUND,
            Json(json!({
                "error": format!(
                    "pilot {pilot_id} has no gateway log yet: upload one to POST /api/v1/pilots/{pilot_id}/evidence"
                )
            })),
        )
            .into_response());
    };
    let mut profile: Value = serde_json::from_str(&stored.profile_json).map_err(|error| {
        tracing::error!(%error, pilot = pilot_id, "stored demand profile unreadable");
        ServiceError::Internal
    })?;
    if let Some(object) = profile.as_object_mut() {
        object.insert("evidence_ids".into(), json!(stored.evidence_ids));
        object.insert("skipped_lines".into(), json!(stored.skipped_lines));
        object.insert(
            "computed_at".into(),
            json!(engine::traffic::timestamp::format_rfc3339_ms(
                stored.computed_ms
            )),
        );
    }
    Ok(Json(profile).into_response())
}
