//! The plan's approval workflow on the server: a draft is submitted for approval by the
//! assessment team, approvers find what waits for them in an inbox, and a save of the draft
//! takes a submission back (issue #37).
//!
//! Why a submission and not only the four-eyes refusal: a draft's author used to meet the rule
//! only as a red refusal after clicking Approve, and nothing told a second assessor that a
//! draft waited. Submitting says "read this"; the inbox on the pilots list is where the second
//! person finds it; the Approve button is offered only to someone who may approve it.

use crate::ServiceError;
use crate::Services;
use crate::model::SessionUser;
use crate::plans::PlanVersionRecord;
use crate::store::plans::DraftWrite;
use engine::plan::{can_approve_plans, can_edit_plans};
use serde::{Deserialize, Serialize};

/// A draft waiting for approval, as the inbox lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitingApproval {
    pub pilot_id: i64,
    pub pilot_name: String,
    pub organisation_name: String,
    pub version: u32,
    pub submitted_by_name: String,
    pub submitted_ms: i64,
    /// Why the plan is amended (version 2 on).
    pub amendment_reason: Option<String>,
}

/// The pilot, if `user` may change its plan: customers get 404 (as for anything they may not
/// change), sales engineers 403, an archived pilot 409.
pub async fn plan_editor(
    store: &crate::store::Store,
    user: &SessionUser,
    pilot_id: i64,
) -> Result<crate::model::Pilot, ServiceError> {
    let pilot = crate::auth::visible_pilot(store, user, pilot_id).await?;
    if !user.role.is_staff() {
        return Err(ServiceError::NotFound);
    }
    if !can_edit_plans(user.role) {
        return Err(ServiceError::Forbidden);
    }
    crate::evidence_history::service::refuse_archived(&pilot)?;
    Ok(pilot)
}

/// Submits draft `version` of pilot `pilot_id`'s plan at `revision` for approval. Staff who
/// may edit plans only; the draft must hold at least one pass mark and read as a valid plan,
/// since approval would refuse it otherwise. Refusals are worded in English and German
/// ([`ServiceError::message_in`]); the wire carries the English.
pub async fn submit(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    version: u32,
    revision: i64,
) -> Result<(), ServiceError> {
    plan_editor(&services.store, user, pilot_id).await?;
    let versions = services.store.plan_versions(pilot_id).await?;
    let record = versions
        .iter()
        .find(|v| v.number == version)
        .ok_or(ServiceError::NotFound)?;
    if !record.is_draft() {
        return Err(ServiceError::conflict_in(
            format!("Version {version} is approved already: amend the plan to change it."),
            format!(
                "Version {version} ist bereits freigegeben: Legen Sie eine Änderung an, um den \
                 Plan zu ändern."
            ),
        ));
    }
    if let (Some(by), Some(at)) = (&record.submitted_by_name, record.submitted_ms) {
        return Err(ServiceError::conflict_in(
            format!(
                "Version {version} was submitted for approval by {by} on {} already.",
                engine::clock::utc_minute(at)
            ),
            format!(
                "Version {version} wurde bereits am {} von {by} zur Freigabe eingereicht.",
                engine::clock::utc_minute(at)
            ),
        ));
    }
    if record.content.pass_marks.is_empty() {
        return Err(ServiceError::invalid_in(
            "pass marks: a plan needs at least one pass mark before it is submitted for approval",
            "Zielwerte: Ein Plan braucht mindestens einen Zielwert, bevor er zur Freigabe \
             eingereicht wird",
        ));
    }
    if let Err(errors) = record.content.validate() {
        return Err(ServiceError::invalid_in(
            errors.joined_in(engine::locale::Lang::En),
            errors.joined_in(engine::locale::Lang::De),
        ));
    }
    let at = crate::store::now_ms();
    match services
        .store
        .submit_plan_draft(pilot_id, version, revision, user.id, at)
        .await?
    {
        DraftWrite::Done(_) => Ok(()),
        DraftWrite::Stale => Err(ServiceError::conflict_in(
            "The draft was saved by someone else since this page was loaded; reload the page \
             and submit it again.",
            "Der Entwurf wurde seit dem Laden dieser Seite von jemand anderem gespeichert; laden \
             Sie die Seite neu und reichen Sie ihn erneut ein.",
        )),
        DraftWrite::Frozen => Err(ServiceError::conflict_in(
            format!("Version {version} is approved already."),
            format!("Version {version} ist bereits freigegeben."),
        )),
        DraftWrite::Missing => Err(ServiceError::NotFound),
    }
}

/// The drafts waiting for `user`'s approval: submitted, on pilots that are not archived, and
/// not written by `user` (four eyes). Empty for anyone who may not approve.
pub async fn waiting_for(
    services: &Services,
    user: &SessionUser,
) -> Result<Vec<WaitingApproval>, ServiceError> {
    if !can_approve_plans(user.role) {
        return Ok(Vec::new());
    }
    let drafts = services.store.submitted_plan_drafts().await?;
    Ok(drafts
        .into_iter()
        .filter(|(record, _, _)| record.created_by != Some(user.id))
        .map(|(record, pilot_name, organisation_name)| {
            waiting(record, pilot_name, organisation_name)
        })
        .collect())
}

fn waiting(
    record: PlanVersionRecord,
    pilot_name: String,
    organisation_name: String,
) -> WaitingApproval {
    WaitingApproval {
        pilot_id: record.pilot_id,
        pilot_name,
        organisation_name,
        version: record.number,
        submitted_by_name: record
            .submitted_by_name
            .unwrap_or_else(|| "a former user".into()),
        submitted_ms: record.submitted_ms.unwrap_or(record.updated_ms),
        amendment_reason: record.amendment_reason,
    }
}
