//! Uploads that wait for their uploader's confirmation before they become evidence.
//!
//! Why: a run context stamped on the wrong file is a mislabelled measurement, so nothing is
//! stored until the person has seen what will be recorded. With JavaScript the upload page
//! checks each file through the preview route and keeps it in the browser until "Store". A plain
//! form cannot keep a file between two requests, so without JavaScript the server keeps it:
//! [`stage`] keeps the checked file as a blob (the database on PostgreSQL, so any instance can
//! finish the upload) with the form's fields and what the check listed, under a random token;
//! the evidence page shows that list with "Store" and "Discard"; [`take`] hands the file back
//! for the one real upload (read again, so a plan or a duplicate that changed in between is
//! seen), [`discard`] drops it.
//!
//! A staged upload belongs to the user who staged it on that pilot: anyone else, or another
//! pilot's page, is told it is gone, as is a token past [`STAGED_FOR_MINUTES`]. Expired ones
//! are removed whenever another upload is staged, with their blob unless evidence (or another
//! staged upload) names the same bytes.

use crate::ServiceError;
use crate::Services;
use crate::model::{EvidenceKind, SessionUser};
use crate::recorded::RecordedLine;
use crate::store::blobs::FileRow;
use crate::store::now_ms;
use crate::store::staged::StagedRow;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How long a checked upload waits for "Store".
pub const STAGED_FOR_MINUTES: i64 = 30;

const STAGED_FOR_MS: i64 = STAGED_FOR_MINUTES * 60 * 1000;

/// What the check said the upload would record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StagedPreview {
    pub kind: EvidenceKind,
    pub recorded: Vec<RecordedLine>,
    /// The importer's warnings, and typed values the file contradicts.
    pub warnings: Vec<String>,
    /// The language `recorded` is worded in: storing reads the file again in it and compares
    /// (a switch of language between check and store is no change). Absent in rows staged
    /// before there was a choice: English.
    #[serde(default)]
    pub lang: engine::locale::Lang,
}

/// A checked upload waiting for confirmation.
#[derive(Clone, Debug, PartialEq)]
pub struct StagedUpload {
    pub token: String,
    pub pilot_id: i64,
    pub file_name: String,
    pub sha256: String,
    pub size_bytes: u64,
    /// The form's fields it was checked with (run context, kind, …).
    pub fields: BTreeMap<String, String>,
    pub preview: StagedPreview,
    pub staged_ms: i64,
}

impl StagedUpload {
    /// When "Store" stops working.
    pub fn expires_ms(&self) -> i64 {
        self.staged_ms + STAGED_FOR_MS
    }
}

/// A file to stage: checked, on disk at `path` (moved away by [`stage`]).
#[derive(Debug)]
pub struct NewStaged<'a> {
    pub pilot_id: i64,
    pub user_id: i64,
    pub file_name: &'a str,
    pub sha256: &'a str,
    pub size_bytes: u64,
    pub path: &'a Path,
    pub fields: &'a BTreeMap<String, String>,
    pub preview: &'a StagedPreview,
}

/// The answer for a token that is not (or no longer) the caller's to use.
fn gone() -> ServiceError {
    ServiceError::conflict_in(
        format!(
            "This upload is no longer waiting: it was stored or discarded, or its \
             {STAGED_FOR_MINUTES} minutes passed. Choose the file again."
        ),
        format!(
            "Dieser Upload wartet nicht mehr: Er wurde gespeichert oder verworfen, oder seine \
             {STAGED_FOR_MINUTES} Minuten sind abgelaufen. Wählen Sie die Datei erneut."
        ),
    )
}

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "staged upload unreadable");
    ServiceError::Internal
}

/// A token as [`stage`] makes them: 32 lowercase hex digits.
fn well_formed(token: &str) -> bool {
    token.len() == 32
        && token
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// Keeps the checked file and what its check listed; answers the token of its confirmation.
pub async fn stage(services: &Services, new: NewStaged<'_>) -> Result<String, ServiceError> {
    purge_expired(services).await;
    let token = hex::encode(rand::random::<[u8; 16]>());
    let row = StagedRow {
        token: token.clone(),
        pilot_id: new.pilot_id,
        user_id: new.user_id,
        file_name: new.file_name.to_string(),
        sha256: new.sha256.to_string(),
        size_bytes: new.size_bytes as i64,
        fields_json: serde_json::to_string(new.fields).map_err(internal)?,
        preview_json: serde_json::to_string(new.preview).map_err(internal)?,
        staged_ms: now_ms(),
    };
    services
        .blobs
        .record(new.path, new.sha256, FileRow::Staged(&row))
        .await?;
    Ok(token)
}

/// The caller's staged upload `token` on pilot `pilot_id`.
pub async fn find(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    token: &str,
) -> Result<StagedUpload, ServiceError> {
    if !well_formed(token) {
        return Err(gone());
    }
    let row = services
        .store
        .staged_upload(token)
        .await?
        .ok_or_else(gone)?;
    if row.user_id != user.id || row.pilot_id != pilot_id {
        return Err(gone());
    }
    if now_ms() >= row.staged_ms + STAGED_FOR_MS {
        remove(services, &row).await;
        return Err(gone());
    }
    Ok(StagedUpload {
        fields: serde_json::from_str(&row.fields_json).map_err(internal)?,
        preview: serde_json::from_str(&row.preview_json).map_err(internal)?,
        token: row.token,
        pilot_id: row.pilot_id,
        file_name: row.file_name,
        sha256: row.sha256,
        size_bytes: row.size_bytes.max(0) as u64,
        staged_ms: row.staged_ms,
    })
}

/// A staged upload taken for storing: it waits no more. The file is at `path`; when storing
/// fails, [`Taken::failed`] removes the blob staging kept.
#[derive(Debug)]
pub struct Taken {
    pub upload: StagedUpload,
    pub path: PathBuf,
}

impl Taken {
    /// Storing it was refused: drops what staging kept that nothing else uses.
    pub async fn failed(self, services: &Services) {
        release(services, &self.upload.sha256).await;
    }
}

/// Takes the caller's staged upload `token` for storing; of two concurrent calls one gets it.
pub async fn take(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    token: &str,
) -> Result<Taken, ServiceError> {
    let upload = claim(services, user, pilot_id, token).await?;
    match services.blobs.local_path(&upload.sha256).await {
        Ok(path) => Ok(Taken { upload, path }),
        Err(error) => {
            release(services, &upload.sha256).await;
            Err(error)
        }
    }
}

/// Drops the caller's staged upload `token`; answers it as it was.
pub async fn discard(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    token: &str,
) -> Result<StagedUpload, ServiceError> {
    let upload = claim(services, user, pilot_id, token).await?;
    release(services, &upload.sha256).await;
    Ok(upload)
}

/// Removes the caller's staged upload `token` from the waiting ones, so that nobody else can
/// take it; answers it as it was.
async fn claim(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    token: &str,
) -> Result<StagedUpload, ServiceError> {
    let upload = find(services, user, pilot_id, token).await?;
    if !services.store.unstage_upload(token).await? {
        return Err(gone());
    }
    Ok(upload)
}

/// Removes every staged upload older than [`STAGED_FOR_MINUTES`]; failures are logged only.
pub async fn purge_expired(services: &Services) {
    match services.store.staged_before(now_ms() - STAGED_FOR_MS).await {
        Ok(rows) => {
            for row in rows {
                remove(services, &row).await;
            }
        }
        Err(error) => tracing::warn!(%error, "expired staged uploads not purged"),
    }
}

async fn remove(services: &Services, row: &StagedRow) {
    if let Ok(true) = services.store.unstage_upload(&row.token).await {
        release(services, &row.sha256).await;
    }
}

/// Removes file `sha256` when nothing names it any more: no evidence row of any pilot, no
/// other staged upload (decided while holding the file, see [`crate::store::blobs`]).
async fn release(services: &Services, sha256: &str) {
    services.blobs.release(sha256).await;
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_tokens_as_staging_makes_them_are_looked_up() {
        let token = hex::encode([0xab_u8; 16]);
        assert!(super::well_formed(&token));
        assert!(!super::well_formed(&token.to_uppercase()));
        assert!(!super::well_formed("../../etc/passwd"));
        assert!(!super::well_formed(&token[..31]));
    }
}
