//! `PUT|GET|DELETE /api/v1/pilots/{id}/metrics-source`: the vLLM `/metrics` a pilot's scrapes
//! are pulled from on a schedule (see `desk::metrics_pull`). Setting and removing it is for
//! assessors and admins; reading it for anyone who may see the pilot.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::put;
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::{editable_pilot, visible_pilot};
use desk::metrics_pull::service as pull;
use desk::metrics_pull::{MetricsSourceInput, MetricsSourceView};

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/pilots/{id}/metrics-source",
        put(set_source).get(get_source).delete(delete_source),
    )
}

fn id(text: &str) -> Result<i64, ServiceError> {
    text.parse().map_err(|_| ServiceError::NotFound)
}

/// Sets (replaces) the pilot's metrics source: the first scrape is due at once, then one every
/// `interval_s` (assessors and admins).
#[utoipa::path(
    put,
    path = "/api/v1/pilots/{id}/metrics-source",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id.")),
    request_body = MetricsSourceInput,
    responses(
        (status = 200, description = "Set; scraped from now on.", body = MetricsSourceView),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 409, description = "The pilot is archived.", body = ErrorBody),
        (status = 422, description = "Not an http(s) URL, a host that does not resolve or that \
            scrapes may not reach (link-local, a cloud metadata service) unless \
            METRICS_ALLOW_HOSTS names it, an interval outside 15–3,600 s, or a body that is not \
            `{\"url\": …}`.", body = ErrorBody),
    )
)]
pub async fn set_source(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot): Path<String>,
    body: Result<Json<MetricsSourceInput>, JsonRejection>,
) -> Result<Json<MetricsSourceView>, ApiError> {
    let pilot_id = id(&pilot)?;
    editable_pilot(&state.services.store, &user, pilot_id).await?;
    let Json(input) = body.map_err(|rejection| {
        ServiceError::invalid(format!("request body: {}", rejection.body_text()))
    })?;
    let view = pull::set_source(
        &state.services,
        &user,
        pilot_id,
        &input,
        &state.config.metrics_allow_hosts,
    )
    .await?;
    Ok(Json(view))
}

/// The pilot's metrics source and how its scrapes went: `last_scrape_at`, `last_success_at`,
/// `last_error` (the bearer token is never shown).
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/metrics-source",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The source.", body = MetricsSourceView),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, the caller may not see it, or it has no \
            metrics source.", body = ErrorBody),
    )
)]
pub async fn get_source(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot): Path<String>,
) -> Result<Json<MetricsSourceView>, ApiError> {
    let pilot_id = id(&pilot)?;
    visible_pilot(&state.services.store, &user, pilot_id).await?;
    let view = pull::source_view(&state.services, pilot_id)
        .await?
        .ok_or_else(|| ServiceError::NoSuch(format!("pilot #{pilot_id} has no metrics source")))?;
    Ok(Json(view))
}

/// Stops the pulls (assessors and admins); the scrapes already kept stay evidence.
#[utoipa::path(
    delete,
    path = "/api/v1/pilots/{id}/metrics-source",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 204, description = "Removed."),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot, the caller may not see it, or it has no \
            metrics source.", body = ErrorBody),
    )
)]
pub async fn delete_source(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot): Path<String>,
) -> Result<StatusCode, ApiError> {
    let pilot_id = id(&pilot)?;
    editable_pilot(&state.services.store, &user, pilot_id).await?;
    if state
        .services
        .store
        .delete_metrics_source(pilot_id)
        .await
        .map_err(ServiceError::from)?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ServiceError::NoSuch(format!("pilot #{pilot_id} has no metrics source")).into())
    }
}
