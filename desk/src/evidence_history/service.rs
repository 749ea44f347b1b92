//! Withdrawing and restoring evidence, and the register with each file's history.

use super::*;
use crate::ServiceError;
use crate::Services;
use crate::model::EvidenceKind;
use crate::model::{EvidenceFile, Pilot, SessionUser};
use crate::store::StoreError;
use crate::store::evidence::{EvidenceEvent, ProfileChange, StatusChange};

/// Who changes a file's status: a signed-in account or a front door without one.
#[derive(Clone, Debug)]
pub struct Actor {
    pub user_id: Option<i64>,
    /// Kept with the event (shown when the account is deleted or there is none).
    pub label: String,
}

impl Actor {
    pub fn user(user: &SessionUser) -> Actor {
        Actor {
            user_id: Some(user.id),
            label: user.email.clone(),
        }
    }

    /// `server evidence withdraw|restore`: whoever holds the database.
    pub fn command_line() -> Actor {
        Actor {
            user_id: None,
            label: "command line".into(),
        }
    }
}

/// The pilot's register: every file with its status and history (oldest upload first).
pub async fn register(
    services: &Services,
    pilot: &Pilot,
    can_change: bool,
) -> Result<EvidenceRegister, ServiceError> {
    let files = services.store.evidence_register(pilot.id).await?;
    let events = services.store.evidence_events(pilot.id).await?;
    Ok(EvidenceRegister {
        pilot_id: pilot.id,
        files: files.iter().map(|(f, _)| entry(f, &events)).collect(),
        can_change: can_change && pilot.archived_ms.is_none(),
    })
}

/// A file's register entry: its upload, then its withdrawals and restorations.
pub fn entry(file: &EvidenceFile, events: &[EvidenceEvent]) -> EvidenceEntry {
    let mut history = vec![HistoryEntry {
        action: HistoryAction::Uploaded,
        by: file.uploaded_by.clone(),
        at_ms: file.uploaded_ms,
        reason: None,
    }];
    history.extend(
        events
            .iter()
            .filter(|e| e.evidence_id == file.id)
            .map(|e| HistoryEntry {
                action: if e.action == "withdrawn" {
                    HistoryAction::Withdrawn
                } else {
                    HistoryAction::Restored
                },
                by: e.by.clone(),
                at_ms: e.at_ms,
                reason: Some(e.reason.clone()),
            }),
    );
    EvidenceEntry {
        id: file.id,
        kind: file.kind,
        file_name: file.file_name.clone(),
        sha256: file.sha256.clone(),
        size_bytes: file.size_bytes,
        status: if file.withdrawn_ms.is_some() {
            EvidenceStatus::Withdrawn
        } else {
            EvidenceStatus::InForce
        },
        history,
    }
}

/// A change of a file's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusStep {
    /// In force → withdrawn: it grades nothing from now on.
    Withdraw,
    /// Withdrawn → in force: it grades again.
    Restore,
}

/// Withdraws or restores file `evidence_id` of `pilot` and answers its register entry. The
/// caller has checked that the actor may change the pilot.
pub async fn change(
    services: &Services,
    pilot: &Pilot,
    evidence_id: i64,
    reason: &str,
    actor: &Actor,
    step: StatusStep,
) -> Result<EvidenceEntry, ServiceError> {
    let withdraw = step == StatusStep::Withdraw;
    let reason = checked_reason(reason)?;
    refuse_archived(pilot)?;
    let store = &services.store;
    let (file, summary) = store
        .evidence_file(pilot.id, evidence_id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    if file.kind == crate::model::EvidenceKind::EvalSet {
        return Err(ServiceError::conflict_in(
            format!(
                "evidence #{evidence_id} is an evaluation set: sets are versioned; start a new \
                 version of the set instead"
            ),
            format!(
                "Nachweis #{evidence_id} ist ein Evaluationsdatensatz: Datensätze sind \
                 versioniert; beginnen Sie stattdessen eine neue Version des Datensatzes"
            ),
        ));
    }
    match (withdraw, file.withdrawn_ms.is_some()) {
        (true, true) => {
            return Err(ServiceError::conflict_in(
                format!(
                    "evidence #{evidence_id} ({}) is already withdrawn",
                    file.file_name
                ),
                format!(
                    "Nachweis #{evidence_id} ({}) ist bereits zurückgezogen",
                    file.file_name
                ),
            ));
        }
        (false, false) => {
            return Err(ServiceError::conflict_in(
                format!(
                    "evidence #{evidence_id} ({}) is in force: only a withdrawn file can be \
                     restored",
                    file.file_name
                ),
                format!(
                    "Nachweis #{evidence_id} ({}) gilt: Nur eine zurückgezogene Datei kann \
                     wiederhergestellt werden",
                    file.file_name
                ),
            ));
        }
        _ => {}
    }
    let profile = if file.kind == EvidenceKind::GatewayLog {
        profile_afterwards(services, pilot.id, &file, summary, withdraw).await?
    } else {
        ProfileChange::Keep
    };
    let status = StatusChange {
        pilot_id: pilot.id,
        evidence_id,
        withdraw,
        reason: &reason,
        by_user: actor.user_id,
        by_label: &actor.label,
    };
    store
        .change_evidence_status(status, profile)
        .await
        .map_err(|e| match e {
            StoreError::Conflict(said) => ServiceError::conflict_said(said),
            other => other.into(),
        })?;
    tracing::info!(pilot = pilot.id, evidence_id, withdraw, by = %actor.label, "evidence status changed");
    let files = store.evidence_register(pilot.id).await?;
    let events = store.evidence_events(pilot.id).await?;
    files
        .iter()
        .find(|(f, _)| f.id == evidence_id)
        .map(|(f, _)| entry(f, &events))
        .ok_or(ServiceError::NotFound)
}

/// The demand profile over the gateway logs in force once `file` is withdrawn or restored.
async fn profile_afterwards(
    services: &Services,
    pilot_id: i64,
    file: &EvidenceFile,
    summary: String,
    withdraw: bool,
) -> Result<ProfileChange, ServiceError> {
    let mut logs =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::GatewayLog))
            .await?;
    logs.retain(|(f, _)| f.id != file.id);
    if !withdraw {
        logs.push((file.clone(), summary));
    }
    Ok(
        match crate::traffic::service::profile_over(services, logs, None).await? {
            Some(write) => ProfileChange::Replace(write),
            None => ProfileChange::Remove,
        },
    )
}

/// An archived pilot is read-only.
pub fn refuse_archived(pilot: &Pilot) -> Result<(), ServiceError> {
    match pilot.archived_ms {
        Some(at) => Err(ServiceError::conflict_in(
            format!(
                "pilot {} is archived (since {}) and read-only; an admin can make it active again",
                pilot.id,
                engine::clock::utc_minute(at)
            ),
            format!(
                "Pilot {} ist archiviert (seit {}) und schreibgeschützt; die Administration kann \
                 ihn wieder aktivieren",
                pilot.id,
                engine::clock::utc_minute(at)
            ),
        )),
        None => Ok(()),
    }
}

/// Archives a pilot (read-only) or makes it active again; admins only (checked by the
/// caller).
pub async fn set_archived(
    services: &Services,
    pilot: &Pilot,
    archived: bool,
) -> Result<Pilot, ServiceError> {
    services
        .store
        .set_pilot_archived(pilot.id, archived)
        .await?;
    tracing::info!(pilot = pilot.id, archived, "pilot archive state changed");
    services
        .store
        .pilot(pilot.id)
        .await?
        .ok_or(ServiceError::NotFound)
}

/// Deletes a pilot outright with everything recorded for it, and the raw files no other
/// pilot's evidence names; admins only (checked by the caller). Answers how many raw files
/// were removed.
pub async fn delete_pilot(services: &Services, pilot: &Pilot) -> Result<usize, ServiceError> {
    let orphans = services
        .store
        .delete_pilot(pilot.id)
        .await?
        .ok_or(ServiceError::NotFound)?;
    for sha256 in &orphans {
        services.blobs.release(sha256).await;
    }
    tracing::warn!(pilot = pilot.id, files = orphans.len(), "pilot deleted");
    Ok(orphans.len())
}
