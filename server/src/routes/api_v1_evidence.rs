//! The evidence register over REST: `GET /api/v1/pilots/{id}/evidence` lists every file of the
//! pilot (`id`, `kind`, `file_name`, `sha256`, `size_bytes`, `status` `in_force`|`withdrawn`,
//! `history` of `{action, by, at_ms, reason}`); `POST …/evidence/{evidence_id}/withdraw` and
//! `…/restore` with `{"reason": "…"}` change one file's status (assessors and admins; 409 on
//! an archived pilot or a file already in that state) and answer its entry. An admin archives
//! a pilot (`POST /api/v1/pilots/{id}/archive` with `{"archived": true|false}`) or deletes it
//! (`DELETE /api/v1/pilots/{id}`). A pilot or file the caller may not see is 404.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
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
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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

/// The evidence register: every file of the pilot with its status and history.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/evidence",
    tag = "evidence",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "Every file, in force or withdrawn.", body = EvidenceRegister),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
    )
)]
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

/// Why a file's status changes.
#[derive(Deserialize, ToSchema)]
pub struct Reason {
    /// Why; kept in the file's history and shown in the report. Not blank, at most 500
    /// characters.
    #[schema(min_length = 1, max_length = 500, pattern = "[^\\s\\u0085]")]
    reason: String,
}

/// Withdraws an evidence file: it grades nothing until restored (assessors and admins).
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/evidence/{evidence_id}/withdraw",
    tag = "evidence",
    params(
        ("id" = i64, Path, description = "The pilot's id."),
        ("evidence_id" = i64, Path, description = "The file's id (`GET …/evidence`)."),
    ),
    request_body = Reason,
    responses(
        (status = 200, description = "The file's entry, withdrawn.", body = EvidenceEntry),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A role that may not change evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot or file, or the caller may not see it.", body = ErrorBody),
        (status = 409, description = "The pilot is archived, or the file is withdrawn already.", body = ErrorBody),
        (status = 422, description = "The body is not `{\"reason\": …}` or the reason is blank \
            or too long.", body = ErrorBody),
    )
)]
pub async fn withdraw(
    state: State<AppState>,
    caller: ApiCaller,
    path: Path<(String, String)>,
    reason: Result<Json<Reason>, JsonRejection>,
) -> Result<Json<EvidenceEntry>, ApiError> {
    change(state, caller, path, reason, StatusStep::Withdraw).await
}

/// Restores a withdrawn evidence file: it grades again (assessors and admins).
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/evidence/{evidence_id}/restore",
    tag = "evidence",
    params(
        ("id" = i64, Path, description = "The pilot's id."),
        ("evidence_id" = i64, Path, description = "The file's id (`GET …/evidence`)."),
    ),
    request_body = Reason,
    responses(
        (status = 200, description = "The file's entry, in force again.", body = EvidenceEntry),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A role that may not change evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot or file, or the caller may not see it.", body = ErrorBody),
        (status = 409, description = "The pilot is archived, or the file is in force already.", body = ErrorBody),
        (status = 422, description = "The body is not `{\"reason\": …}` or the reason is blank \
            or too long.", body = ErrorBody),
    )
)]
pub async fn restore(
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

/// Whether the pilot is to be archived (read-only) or active again.
#[derive(Deserialize, ToSchema)]
pub struct Archived {
    archived: bool,
}

/// What deleting a pilot removed.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    /// The deleted pilot's id.
    pub deleted: i64,
    /// Raw evidence files removed from storage (those no other pilot keeps).
    pub raw_files_removed: u64,
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

/// Archives a pilot (every write then answers 409) or makes it active again (admins).
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/archive",
    tag = "pilots",
    params(("id" = i64, Path, description = "The pilot's id.")),
    request_body = Archived,
    responses(
        (status = 200, description = "The pilot, with `archived_ms` set or cleared.", body = Pilot),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "Only admins archive pilots.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 422, description = "The body is not `{\"archived\": true|false}`.", body = ErrorBody),
    )
)]
pub async fn archive(
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

/// Deletes a pilot with its plan, evidence and reports (admins).
#[utoipa::path(
    delete,
    path = "/api/v1/pilots/{id}",
    tag = "pilots",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "Deleted.", body = Deleted),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "Only admins delete pilots.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
    )
)]
pub async fn delete_pilot(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<String>,
) -> Result<Json<Deleted>, ApiError> {
    let pilot = admins_pilot(&state, &user, id(&pilot_id)?).await?;
    let files = history::delete_pilot(&state.services, &pilot).await?;
    Ok(Json(Deleted {
        deleted: pilot.id,
        raw_files_removed: files as u64,
    }))
}
