//! The evidence register over REST: `GET /api/v1/pilots/{id}/evidence` lists every file of the
//! pilot (`id`, `kind`, `file_name`, `sha256`, `size_bytes`, `status` `in_force`|`withdrawn`,
//! `history` of `{action, by, at_ms, reason}`); `POST …/evidence/{evidence_id}/withdraw` and
//! `…/restore` with `{"reason": "…"}` change one file's status (assessors and admins; 409 on
//! an archived pilot or a file already in that state) and answer its entry. An admin archives
//! a pilot (`POST /api/v1/pilots/{id}/archive` with `{"archived": true|false}`) or deletes it
//! (`DELETE /api/v1/pilots/{id}`). A pilot or file the caller may not see is 404.

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::routing::{delete, post};
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::{Need, authorise, editable_pilot, visible_pilot};
use desk::evidence_history::service::{self as history, Actor, StatusStep};
use desk::evidence_history::{EvidenceEntry, EvidenceRegister};
use desk::model::Pilot;
use serde::Deserialize;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/pilots/{id}/evidence/{evidence_id}/withdraw",
            post(withdraw),
        )
        .route(
            "/api/v1/pilots/{id}/evidence/{evidence_id}/restore",
            post(restore),
        )
        .route("/api/v1/pilots/{id}/archive", post(archive))
        .route("/api/v1/pilots/{id}", delete(delete_pilot))
}

/// A path id: anything but an integer names nothing (404, like a missing pilot).
fn id(text: &str) -> Result<i64, ServiceError> {
    text.parse().map_err(|_| ServiceError::NotFound)
}

fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ServiceError> {
    body.map(|Json(b)| b).map_err(|rejection| {
        ServiceError::invalid(format!("request body: {}", rejection.body_text()))
    })
}

/// `GET /api/v1/pilots/{id}/evidence`.
pub async fn list(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<String>,
) -> Result<Json<EvidenceRegister>, ApiError> {
    let services = &state.services;
    let pilot = visible_pilot(&services.store, &user, id(&pilot_id)?).await?;
    let can_change = user.role.can_edit_pilots();
    Ok(Json(history::register(services, &pilot, can_change).await?))
}

#[derive(Deserialize)]
struct Reason {
    reason: String,
}

async fn withdraw(
    state: State<AppState>,
    caller: ApiCaller,
    path: Path<(String, String)>,
    reason: Result<Json<Reason>, JsonRejection>,
) -> Result<Json<EvidenceEntry>, ApiError> {
    change(state, caller, path, reason, StatusStep::Withdraw).await
}

async fn restore(
    state: State<AppState>,
    caller: ApiCaller,
    path: Path<(String, String)>,
    reason: Result<Json<Reason>, JsonRejection>,
) -> Result<Json<EvidenceEntry>, ApiError> {
    change(state, caller, path, reason, StatusStep::Restore).await
}

async fn change(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path((pilot_id, evidence_id)): Path<(String, String)>,
    reason: Result<Json<Reason>, JsonRejection>,
    step: StatusStep,
) -> Result<Json<EvidenceEntry>, ApiError> {
    let services = &state.services;
    let pilot = editable_pilot(&services.store, &user, id(&pilot_id)?).await?;
    let reason = body(reason)?.reason;
    let actor = Actor::user(&user);
    let entry = history::change(services, &pilot, id(&evidence_id)?, &reason, &actor, step).await?;
    Ok(Json(entry))
}

#[derive(Deserialize)]
struct Archived {
    archived: bool,
}

/// Pilot `id` if the caller is an admin who may see it (others: 404 or 403 as everywhere).
pub(super) async fn admins_pilot(
    state: &AppState,
    user: &desk::model::SessionUser,
    id: i64,
) -> Result<Pilot, ServiceError> {
    let pilot = visible_pilot(&state.services.store, user, id).await?;
    authorise(Some(user), Need::Admin)?;
    Ok(pilot)
}

async fn archive(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<String>,
    archived: Result<Json<Archived>, JsonRejection>,
) -> Result<Json<Pilot>, ApiError> {
    let pilot = admins_pilot(&state, &user, id(&pilot_id)?).await?;
    let archived = body(archived)?.archived;
    Ok(Json(
        history::set_archived(&state.services, &pilot, archived).await?,
    ))
}

async fn delete_pilot(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pilot = admins_pilot(&state, &user, id(&pilot_id)?).await?;
    let files = history::delete_pilot(&state.services, &pilot).await?;
    Ok(Json(
        serde_json::json!({ "deleted": pilot.id, "raw_files_removed": files }),
    ))
}
