//! `POST /pilots/{id}/evidence`: the evidence upload form without JavaScript.
//!
//! The evidence page's form posts here as plain `multipart/form-data` (one file and the
//! run-context fields); the file goes through exactly the same path as the REST upload
//! ([`super::evidence::upload_evidence`]) and the browser is redirected back to the evidence page
//! with the outcome: `?stored=<id>` or `?error=<message>` (the importer's error naming file, line
//! and field; a duplicate names the earlier upload).
//!
//! `POST /pilots/{id}/evidence/{evidence_id}/withdraw` and `…/restore` (form field `reason`)
//! are the evidence list's withdraw and restore forms: the same service as the REST API
//! ([`super::api_v1_evidence`]), answered with a redirect to `?withdrawn=<id>`,
//! `?restored=<id>` or `?error=<message>`.

use super::api_v1::ApiCaller;
use super::evidence::upload_evidence;
use crate::AppState;
use axum::extract::{Form, Multipart, Path, State};
use axum::response::Redirect;
use desk::auth::editable_pilot;
use desk::evidence_history::service::{self as history, Actor, StatusStep};

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

pub async fn upload_evidence_form(
    state: State<AppState>,
    caller: ApiCaller,
    Path(pilot_id): Path<i64>,
    multipart: Multipart,
) -> Redirect {
    let outcome = upload_evidence(state, caller, Path(pilot_id), multipart).await;
    let query = match outcome {
        Ok((_, axum::Json(body))) => format!("stored={}", body.id),
        Err(error) => format!("error={}", encode_query_value(&error.0.to_string())),
    };
    Redirect::to(&format!("/pilots/{pilot_id}/evidence?{query}"))
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
    Form(form): Form<ReasonForm>,
) -> Redirect {
    change_form(
        state,
        caller,
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
    Form(form): Form<ReasonForm>,
) -> Redirect {
    change_form(
        state,
        caller,
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
    let query = match outcome {
        Ok(entry) if step == StatusStep::Withdraw => format!("withdrawn={}", entry.id),
        Ok(entry) => format!("restored={}", entry.id),
        Err(error) => format!("error={}", encode_query_value(&error.to_string())),
    };
    Redirect::to(&format!("/pilots/{pilot_id}/evidence?{query}"))
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
