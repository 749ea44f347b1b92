//! `POST /pilots/{id}/evidence`: the evidence upload form without JavaScript.
//!
//! The evidence page's form posts here as plain `multipart/form-data` (one file and the
//! run-context fields); the file is read exactly as the REST upload reads it
//! ([`super::evidence::read_received`]). Its button sends `step=check`: the file is not stored
//! but staged ([`desk::evidence::staged`]) and the browser goes back to the evidence page with
//! `?check=<token>`, where the page lists what would be recorded, each value with its source,
//! and the warnings. That page's "Store" posts to `POST /pilots/{id}/evidence/staged/{token}`,
//! which reads the kept file again and stores it (`?stored=<id>`); "Discard" posts to
//! `…/staged/{token}/discard` (a notice naming the file). Without `step` the form stores at
//! once, as it always did. Refusals come back as `?notice=<token>` (the importer's error naming
//! file, line and field; a duplicate names the earlier upload; a token that is not the caller's
//! or has expired says the upload is no longer waiting): the message itself is kept by
//! [`desk::notices`] for the caller, so no text travels in the address.
//!
//! `POST /pilots/{id}/evidence/{evidence_id}/withdraw` and `…/restore` (form field `reason`)
//! are the evidence list's withdraw and restore forms: the same service as the REST API
//! ([`super::api_v1_evidence`]), answered with a redirect to `?withdrawn=<id>`,
//! `?restored=<id>` or `?notice=<token>`.

use super::api_v1::{ApiCaller, ApiError};
use super::evidence::{ReadUpload, read_received, receive, store_read};
use crate::AppState;
use crate::upload::{EvidenceUpload, ReceivedFile};
use axum::extract::{Form, Multipart, Path, State};
use axum::http::HeaderMap;
use axum::response::Redirect;
use desk::ServiceError;
use desk::auth::{Need, authorise, editable_pilot};
use desk::evidence::staged::{self, NewStaged, StagedPreview};
use desk::evidence_history::service::{self as history, Actor, StatusStep};
use desk::model::{Pilot, SessionUser};
use engine::locale::Lang;

/// Percent-encodes a query value.
pub fn encode_query_value(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// What a form's answer puts in the evidence page's address: a number-only outcome
/// (`stored=12`, `check=<token>`), or words kept as a notice.
enum Outcome {
    Query(String),
    Notice(String),
}

/// Back to the evidence page with the outcome; words (and every refusal) go through a notice
/// kept for `user` (see [`desk::notices`]).
async fn back_to_evidence(
    state: &AppState,
    user: &SessionUser,
    pilot_id: i64,
    lang: Lang,
    outcome: Result<Outcome, ApiError>,
) -> Redirect {
    use desk::notices::{NoticeKind, post};
    let notice = |kind, message: String| async move {
        match post(&state.services, user, pilot_id, kind, &message).await {
            Ok(token) => format!("notice={token}"),
            Err(error) => {
                tracing::warn!(%error, "a form's notice was not kept");
                String::new()
            }
        }
    };
    let query = match outcome {
        Ok(Outcome::Query(query)) => query,
        Ok(Outcome::Notice(message)) => notice(NoticeKind::Done, message).await,
        Err(error) => notice(NoticeKind::Error, error.0.message_in(lang)).await,
    };
    Redirect::to(&format!("/pilots/{pilot_id}/evidence?{query}"))
}

/// The caller as an editor of pilot `pilot_id` (which is not archived).
async fn editor_of(
    state: &AppState,
    user: &SessionUser,
    pilot_id: i64,
) -> Result<(SessionUser, Pilot), ApiError> {
    let user = authorise(Some(user), Need::Editor)?;
    let pilot = editable_pilot(&state.services.store, &user, pilot_id).await?;
    Ok((user, pilot))
}

/// `POST /pilots/{id}/evidence`: stages the file when the form says `step=check`, else
/// stores it.
pub async fn upload_evidence_form(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Redirect {
    let lang = desk::ui_language::request_language(&headers);
    let outcome = async {
        let (user, pilot) = editor_of(&state, &user, pilot_id).await?;
        let mut upload = receive(&state, multipart).await?;
        let check = upload
            .fields
            .remove("step")
            .is_some_and(|step| step == "check");
        upload.fields.retain(|_, value| !value.is_empty());
        let read = read_received(&state, &pilot, upload, lang).await?;
        if check {
            let token = stage_read(&state, &user, pilot_id, read).await?;
            Ok(Outcome::Query(format!("check={token}")))
        } else {
            let stored = store_read(&state, &user, pilot_id, read).await?;
            Ok(Outcome::Query(format!("stored={}", stored.id)))
        }
    }
    .await;
    back_to_evidence(&state, &user, pilot_id, lang, outcome).await
}

/// Keeps a read upload for confirmation; answers its token.
async fn stage_read(
    state: &AppState,
    user: &SessionUser,
    pilot_id: i64,
    read: ReadUpload,
) -> Result<String, ApiError> {
    let preview = StagedPreview {
        kind: read.kind,
        recorded: read.recorded,
        warnings: read.warnings,
        lang: read.lang,
    };
    let new = NewStaged {
        pilot_id,
        user_id: user.id,
        file_name: &read.file.file_name,
        sha256: &read.file.sha256,
        size_bytes: read.file.size_bytes,
        path: &read.file.temp_path,
        fields: &read.fields,
        preview: &preview,
    };
    Ok(staged::stage(&state.services, new).await?)
}

/// `POST /pilots/{id}/evidence/staged/{token}`: stores the caller's staged upload, read again
/// with the fields it was checked with. When what it would record has changed since the check
/// (the pilot's notes were edited, say), it is refused rather than stored unseen.
pub async fn store_staged_form(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path((pilot_id, token)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Redirect {
    let lang = desk::ui_language::request_language(&headers);
    let outcome = async {
        let (user, pilot) = editor_of(&state, &user, pilot_id).await?;
        let taken = staged::take(&state.services, &user, pilot_id, &token).await?;
        let stored = store_taken(&state, &user, &pilot, &taken).await;
        if stored.is_err() {
            taken.failed(&state.services).await;
        }
        Ok(Outcome::Query(format!("stored={}", stored?)))
    }
    .await;
    back_to_evidence(&state, &user, pilot_id, lang, outcome).await
}

async fn store_taken(
    state: &AppState,
    user: &SessionUser,
    pilot: &Pilot,
    taken: &staged::Taken,
) -> Result<i64, ApiError> {
    let staged = &taken.upload;
    let file = ReceivedFile::copy_of(
        &taken.path,
        &staged.file_name,
        &staged.sha256,
        staged.size_bytes,
        &state.services.data_dir.join("uploads"),
    )
    .await?;
    let upload = EvidenceUpload {
        file,
        fields: staged.fields.clone(),
    };
    // Read again in the words of the check, so a language switched meanwhile is no change.
    let read = read_received(state, pilot, upload, staged.preview.lang).await?;
    if read.recorded != staged.preview.recorded {
        return Err(ServiceError::conflict_in(
            format!(
                "{}: what it would record changed since it was checked (the pilot or the plan \
                 changed); nothing was stored. Choose the file again to check it.",
                staged.file_name
            ),
            format!(
                "{}: Was gespeichert würde, hat sich seit der Prüfung geändert (der Pilot oder \
                 der Plan wurde geändert); nichts wurde gespeichert. Wählen Sie die Datei erneut, \
                 um sie zu prüfen.",
                staged.file_name
            ),
        )
        .into());
    }
    Ok(store_read(state, user, pilot.id, read).await?.id)
}

/// `POST /pilots/{id}/evidence/staged/{token}/discard`: drops the caller's staged upload.
pub async fn discard_staged_form(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path((pilot_id, token)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Redirect {
    let lang = desk::ui_language::request_language(&headers);
    let outcome = async {
        let (user, _) = editor_of(&state, &user, pilot_id).await?;
        let dropped = staged::discard(&state.services, &user, pilot_id, &token).await?;
        Ok(Outcome::Notice(match lang {
            Lang::En => format!("{} was discarded: nothing was stored.", dropped.file_name),
            Lang::De => format!(
                "{} wurde verworfen: nichts wurde gespeichert.",
                dropped.file_name
            ),
        }))
    }
    .await;
    back_to_evidence(&state, &user, pilot_id, lang, outcome).await
}

/// The withdraw and restore forms' one field.
#[derive(serde::Deserialize)]
pub struct ReasonForm {
    #[serde(default)]
    reason: String,
}

/// `POST /pilots/{id}/evidence/{evidence_id}/withdraw`.
pub async fn withdraw_form(
    state: State<AppState>,
    caller: ApiCaller,
    Path((pilot_id, evidence_id)): Path<(i64, i64)>,
    headers: HeaderMap,
    Form(form): Form<ReasonForm>,
) -> Redirect {
    change_form(
        state,
        caller,
        desk::ui_language::request_language(&headers),
        pilot_id,
        evidence_id,
        form,
        StatusStep::Withdraw,
    )
    .await
}

/// `POST /pilots/{id}/evidence/{evidence_id}/restore`.
pub async fn restore_form(
    state: State<AppState>,
    caller: ApiCaller,
    Path((pilot_id, evidence_id)): Path<(i64, i64)>,
    headers: HeaderMap,
    Form(form): Form<ReasonForm>,
) -> Redirect {
    change_form(
        state,
        caller,
        desk::ui_language::request_language(&headers),
        pilot_id,
        evidence_id,
        form,
        StatusStep::Restore,
    )
    .await
}

async fn change_form(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    lang: Lang,
    pilot_id: i64,
    evidence_id: i64,
    form: ReasonForm,
    step: StatusStep,
) -> Redirect {
    let services = &state.services;
    let outcome = async {
        let pilot = editable_pilot(&services.store, &user, pilot_id).await?;
        let actor = Actor::user(&user);
        history::change(services, &pilot, evidence_id, &form.reason, &actor, step).await
    }
    .await;
    let outcome = match outcome {
        Ok(entry) if step == StatusStep::Withdraw => {
            Ok(Outcome::Query(format!("withdrawn={}", entry.id)))
        }
        Ok(entry) => Ok(Outcome::Query(format!("restored={}", entry.id))),
        Err(error) => Err(error.into()),
    };
    back_to_evidence(&state, &user, pilot_id, lang, outcome).await
}

/// The pilot page's archive form: `archived` = `true` or `false`.
#[derive(serde::Deserialize)]
pub struct ArchiveForm {
    #[serde(default)]
    archived: String,
}

/// `POST /pilots/{id}/archive` (admins): back to the pilot page.
pub async fn archive_form(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
    Form(form): Form<ArchiveForm>,
) -> Result<Redirect, super::api_v1::ApiError> {
    let pilot = super::api_v1_evidence::admins_pilot(&state, &user, pilot_id).await?;
    history::set_archived(&state.services, &pilot, form.archived == "true").await?;
    Ok(Redirect::to(&format!("/pilots/{pilot_id}")))
}

/// The pilot page's delete form: `confirm` = `yes` (a required checkbox).
#[derive(serde::Deserialize)]
pub struct DeleteForm {
    #[serde(default)]
    confirm: String,
}

/// `POST /pilots/{id}/delete` (admins): to the pilots list.
pub async fn delete_form(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
    Form(form): Form<DeleteForm>,
) -> Result<Redirect, super::api_v1::ApiError> {
    let pilot = super::api_v1_evidence::admins_pilot(&state, &user, pilot_id).await?;
    if form.confirm != "yes" {
        return Err(
            desk::ServiceError::invalid("confirm: tick the box to delete the pilot").into(),
        );
    }
    history::delete_pilot(&state.services, &pilot).await?;
    Ok(Redirect::to("/"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(
            super::encode_query_value("a b/é&x=1"),
            "a%20b%2F%C3%A9%26x%3D1"
        );
    }
}
