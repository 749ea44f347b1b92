//! The live pilot over REST (see `desk::live`):
//!
//! * `POST /api/v1/pilots/{id}/gateway/records`: a gateway's records, with
//!   `Authorization: Bearer <ingest token>`; answers `{accepted, duplicates, left_out,
//!   rejected: [{index, field, error}]}`.
//! * `POST|GET /api/v1/pilots/{id}/ingest-tokens`, `DELETE …/ingest-tokens/{token_id}`: the
//!   pilot's ingest tokens (assessors and admins).
//! * `GET /api/v1/pilots/{id}/live`: the feed and every pass mark as it stands (anyone who
//!   may see the pilot, customers included).
//!
//! The routes only move bytes and map errors; everything else is `desk::live::service`.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use desk::ServiceError;
use desk::live::service as live;
use desk::live::{IngestAnswer, IngestTokenRow, IssuedIngestToken, LiveView};
use serde::Deserialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/pilots/{id}/gateway/records", post(post_records))
        .route(
            "/api/v1/pilots/{id}/ingest-tokens",
            post(create_token).get(list_tokens),
        )
        .route(
            "/api/v1/pilots/{id}/ingest-tokens/{token_id}",
            delete(revoke_token),
        )
        .route("/api/v1/pilots/{id}/live", get(live_view))
}

/// A path id: anything but an integer names nothing.
fn id(text: &str, missing: ServiceError) -> Result<i64, ServiceError> {
    text.parse().map_err(|_| missing)
}

/// A gateway's records (what LiteLLM's `generic_api` callback posts).
///
/// The body is a JSON array of records (LiteLLM `StandardLoggingPayload` objects, or generic
/// records with `request_id`, `start_time`, … as in the upload's generic JSON Lines), a single
/// object, or JSON Lines; gzip with `Content-Encoding: gzip` or without. Each record is read
/// as an uploaded log's record would be; a malformed one is rejected by its index and field
/// while the rest of the batch is kept. Records are unique per pilot by request id: a retry
/// or a replay counts once (`duplicates`). Kept records roll into the pilot's gateway-log
/// evidence of their day within seconds.
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/gateway/records",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id (the one the token was made for).")),
    request_body(content = Object, content_type = "application/json",
        description = "A JSON array of records, one record, or JSON Lines (gzip optional)."),
    responses(
        (status = 200, description = "Read; `accepted` new records kept.", body = IngestAnswer),
        (status = 400, description = "The body is not valid gzip.", body = ErrorBody),
        (status = 401, description = "No ingest token, or a wrong, revoked or other pilot's \
            token (it never says whether the pilot exists).", body = ErrorBody),
        (status = 409, description = "The pilot is archived.", body = ErrorBody),
        (status = 413, description = "More than 8 MiB as sent, 64 MiB decompressed, or 20,000 \
            records.", body = ErrorBody),
        (status = 422, description = "The body is not UTF-8 or holds no records.", body = ErrorBody),
        (status = 429, description = "More than 100 batches a second with this token \
            (`Retry-After`).", body = ErrorBody),
    ),
    security(("ingest_token" = []))
)]
pub async fn post_records(
    State(state): State<AppState>,
    Path(pilot): Path<String>,
    request: Request,
) -> Result<Json<IngestAnswer>, ApiError> {
    let services = &state.services;
    let (parts, body) = request.into_parts();
    let header = |name: axum::http::HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let authorization = header(axum::http::header::AUTHORIZATION);
    let encoding = header(axum::http::header::CONTENT_ENCODING);
    let declared = header(axum::http::header::CONTENT_LENGTH).and_then(|v| v.parse::<u64>().ok());
    let caller = live::caller(services, authorization.as_deref()).await?;
    let pilot_id = id(&pilot, ServiceError::Unauthenticated)?;
    live::throttle(caller.token_id)?;
    if declared.is_some_and(|length| length > live::MAX_BATCH_BYTES as u64) {
        return Err(too_large().into());
    }
    let body = axum::body::to_bytes(body, live::MAX_BATCH_BYTES)
        .await
        .map_err(|_| too_large())?;
    let answer = live::ingest(services, caller, pilot_id, &body, encoding.as_deref()).await?;
    Ok(Json(answer))
}

fn too_large() -> ServiceError {
    ServiceError::BodyTooLarge(format!(
        "body: more than {} MiB in one batch; send smaller batches",
        live::MAX_BATCH_BYTES >> 20
    ))
}

/// A new ingest token's name.
#[derive(Deserialize, ToSchema)]
pub struct NewIngestToken {
    /// What the token is for (`litellm-prod`); default `gateway`.
    #[serde(default)]
    #[schema(max_length = 80)]
    pub name: String,
}

/// Creates an ingest token for the pilot (assessors and admins); the token is in this answer
/// only.
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/ingest-tokens",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id.")),
    request_body = NewIngestToken,
    responses(
        (status = 201, description = "Created; `token` is shown only now.", body = IssuedIngestToken),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 409, description = "The pilot is archived.", body = ErrorBody),
        (status = 422, description = "The body is not `{\"name\": …}`, or the name is longer \
            than 80 characters.", body = ErrorBody),
    )
)]
pub async fn create_token(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot): Path<String>,
    body: Result<Json<NewIngestToken>, JsonRejection>,
) -> Result<(StatusCode, Json<IssuedIngestToken>), ApiError> {
    let pilot_id = id(&pilot, ServiceError::NotFound)?;
    let user = live::authorise_tokens(&state.services, Some(&user), pilot_id).await?;
    let Json(NewIngestToken { name }) = body.map_err(|rejection| {
        ServiceError::invalid(format!("request body: {}", rejection.body_text()))
    })?;
    let issued = live::create_token(&state.services.store, pilot_id, &name, Some(user.id)).await?;
    Ok((StatusCode::CREATED, Json(issued)))
}

/// The pilot's ingest tokens, newest first (never their secrets; assessors and admins).
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/ingest-tokens",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "Every token of the pilot, revoked ones too.", body = [IngestTokenRow]),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
    )
)]
pub async fn list_tokens(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot): Path<String>,
) -> Result<Json<Vec<IngestTokenRow>>, ApiError> {
    let pilot_id = id(&pilot, ServiceError::NotFound)?;
    live::authorise_tokens(&state.services, Some(&user), pilot_id).await?;
    Ok(Json(
        state
            .services
            .store
            .ingest_tokens(Some(pilot_id))
            .await
            .map_err(ServiceError::from)?,
    ))
}

/// Revokes one of the pilot's ingest tokens: its gateway's posts are refused from now on.
#[utoipa::path(
    delete,
    path = "/api/v1/pilots/{id}/ingest-tokens/{token_id}",
    tag = "live",
    params(
        ("id" = i64, Path, description = "The pilot's id."),
        ("token_id" = i64, Path, description = "The token's id."),
    ),
    responses(
        (status = 204, description = "Revoked."),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot or working token of it, or the caller may \
            not see the pilot.", body = ErrorBody),
    )
)]
pub async fn revoke_token(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path((pilot, token)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let pilot_id = id(&pilot, ServiceError::NotFound)?;
    let token_id = id(&token, ServiceError::NotFound)?;
    live::authorise_tokens(&state.services, Some(&user), pilot_id).await?;
    let revoked = state
        .services
        .store
        .revoke_ingest_token(token_id, Some(pilot_id))
        .await
        .map_err(ServiceError::from)?;
    if revoked {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ServiceError::NoSuch(format!(
            "no working ingest token #{token_id} on pilot #{pilot_id}"
        ))
        .into())
    }
}

/// The pilot as it runs: records received over the feed, when the latest arrived, and every
/// pass mark's grade, figure and sample size now (anyone who may see the pilot).
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/live",
    tag = "live",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "The feed and the marks now.", body = LiveView),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
    )
)]
pub async fn live_view(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot): Path<String>,
) -> Result<Json<LiveView>, ApiError> {
    let pilot_id = id(&pilot, ServiceError::NotFound)?;
    Ok(Json(
        live::live_view(&state.services, &user, pilot_id).await?,
    ))
}
