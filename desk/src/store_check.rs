//! `server check`: does the store hold what its rows promise?
//!
//! Why: evidence is the product's record of a pilot, and its raw files are what a reviewer goes
//! back to. Uploads, staging, withdrawals and deleted pilots all write rows and files; a bug, a
//! crash or a hand-edited database can leave a row whose raw file is gone (issue #38 found one
//! after two identical uploads raced), a file nothing names, or a summary a newer release no
//! longer reads. The check answers all of these in one pass, without changing anything, so an
//! operator (and the race tests) can tell a healthy store from a damaged one.
//!
//! What counts as a fault:
//!
//! * an evidence row or staged upload whose raw file is missing, or stored with other than its
//!   recorded size or with chunks missing;
//! * a raw file no evidence row or staged upload names (an orphan; files being written at the
//!   moment, `*.part`, are not counted);
//! * an evidence row whose kind this release does not know, or whose summary does not read as
//!   that kind's summary (pages leave such rows out, see [`crate::readable`]).

use crate::ServiceError;
use crate::Services;
use crate::model::EvidenceKind;
use crate::store::blobs::FileReference;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What kind of fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// A row names a raw file that is not stored.
    MissingFile,
    /// The raw file is stored, but not whole (chunks missing) or not of the recorded size.
    IncompleteFile,
    /// A stored raw file no row names.
    OrphanFile,
    /// An evidence row of a kind this release does not know.
    UnknownKind,
    /// An evidence row whose summary does not read as its kind's.
    UnreadableSummary,
}

/// One fault: what, about what, and the details.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fault {
    pub kind: FaultKind,
    /// `evidence #12`, `staged upload 3f…`, or `file <sha256>`.
    pub subject: String,
    pub detail: String,
}

/// The check's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoreCheck {
    /// `true` when there is no fault.
    pub ok: bool,
    /// Where raw files live: `database` (PostgreSQL) or `data_dir` (SQLite).
    pub files_in: &'static str,
    pub evidence_rows: usize,
    pub staged_uploads: usize,
    /// Raw files stored.
    pub files: usize,
    pub faults: Vec<Fault>,
}

/// Summaries are read this many rows at a time.
const SUMMARY_PAGE: i64 = 200;

/// Checks the whole store (see the module docs); changes nothing.
pub async fn check(services: &Services) -> Result<StoreCheck, ServiceError> {
    let references = services.store.file_references().await?;
    let mut faults = Vec::new();
    let in_database = services.blobs.in_database();
    let stored = if in_database {
        database_files(services).await?
    } else {
        local_files(services).await?
    };
    for reference in &references {
        file_fault(reference, stored.get(&reference.sha256), &mut faults);
    }
    let named: BTreeSet<&str> = references.iter().map(|r| r.sha256.as_str()).collect();
    for sha256 in stored.keys().filter(|sha| !named.contains(sha.as_str())) {
        faults.push(Fault {
            kind: FaultKind::OrphanFile,
            subject: format!("file {sha256}"),
            detail: "no evidence row or staged upload names it".into(),
        });
    }
    summary_faults(services, &mut faults).await?;
    let evidence_rows = references
        .iter()
        .filter(|r| r.named_by.starts_with("evidence"))
        .count();
    Ok(StoreCheck {
        ok: faults.is_empty(),
        files_in: if in_database { "database" } else { "data_dir" },
        evidence_rows,
        staged_uploads: references.len() - evidence_rows,
        files: stored.len(),
        faults,
    })
}

/// A stored file: its size, whole or not.
struct StoredFile {
    size_bytes: i64,
    /// Why it is not whole (chunks missing), if it is not.
    broken: Option<String>,
}

/// The fault of one row's file, if any.
fn file_fault(reference: &FileReference, stored: Option<&StoredFile>, faults: &mut Vec<Fault>) {
    let subject = reference.named_by.clone();
    match stored {
        None => faults.push(Fault {
            kind: FaultKind::MissingFile,
            subject,
            detail: format!("its raw file {} is not stored", reference.sha256),
        }),
        Some(StoredFile {
            broken: Some(why), ..
        }) => faults.push(Fault {
            kind: FaultKind::IncompleteFile,
            subject,
            detail: format!("its raw file {}: {why}", reference.sha256),
        }),
        Some(file) if file.size_bytes != reference.size_bytes => faults.push(Fault {
            kind: FaultKind::IncompleteFile,
            subject,
            detail: format!(
                "its raw file {} has {} bytes, the row records {}",
                reference.sha256, file.size_bytes, reference.size_bytes
            ),
        }),
        Some(_) => {}
    }
}

/// The files stored in the database, by hash (PostgreSQL).
async fn database_files(services: &Services) -> Result<BTreeMap<String, StoredFile>, ServiceError> {
    Ok(services
        .store
        .stored_blobs()
        .await?
        .into_iter()
        .map(|blob| {
            let broken = (blob.last_chunk + 1 != blob.chunks).then(|| {
                format!(
                    "{} chunks stored, numbered up to {}",
                    blob.chunks, blob.last_chunk
                )
            });
            (
                blob.sha256,
                StoredFile {
                    size_bytes: blob.size_bytes,
                    broken,
                },
            )
        })
        .collect())
}

/// The files under `DATA_DIR/evidence`, by hash (SQLite), leaving out files being written.
async fn local_files(services: &Services) -> Result<BTreeMap<String, StoredFile>, ServiceError> {
    let mut files = BTreeMap::new();
    let mut entries = match tokio::fs::read_dir(services.data_dir.join("evidence")).await {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(error) => return Err(internal(error)),
    };
    while let Some(entry) = entries.next_entry().await.map_err(internal)? {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.ends_with(".part") {
            continue;
        }
        let size_bytes = entry.metadata().await.map_err(internal)?.len() as i64;
        files.insert(
            name,
            StoredFile {
                size_bytes,
                broken: None,
            },
        );
    }
    Ok(files)
}

/// Rows of unknown kinds and summaries that do not read.
async fn summary_faults(services: &Services, faults: &mut Vec<Fault>) -> Result<(), ServiceError> {
    let mut after = 0;
    loop {
        let page = services.store.summaries_after(after, SUMMARY_PAGE).await?;
        let Some(last) = page.last() else {
            return Ok(());
        };
        after = last.id;
        for row in &page {
            let subject = format!("evidence #{}", row.id);
            match row.kind.parse::<EvidenceKind>() {
                Err(_) => faults.push(Fault {
                    kind: FaultKind::UnknownKind,
                    subject,
                    detail: format!("kind `{}` is none this release knows", row.kind),
                }),
                Ok(kind) => {
                    if let Err(why) = crate::readable::reads(kind, &row.summary) {
                        faults.push(Fault {
                            kind: FaultKind::UnreadableSummary,
                            subject,
                            detail: format!("its {kind} summary does not read: {why}"),
                        });
                    }
                }
            }
        }
    }
}

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "store check failed");
    ServiceError::Internal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(size: i64) -> FileReference {
        FileReference {
            sha256: "ab".repeat(32),
            size_bytes: size,
            named_by: "evidence #3".into(),
        }
    }

    #[test]
    fn a_row_is_faulted_for_a_missing_a_broken_or_a_resized_file() {
        let mut faults = Vec::new();
        file_fault(&reference(10), None, &mut faults);
        let broken = StoredFile {
            size_bytes: 10,
            broken: Some("2 chunks stored, numbered up to 2".into()),
        };
        file_fault(&reference(10), Some(&broken), &mut faults);
        let resized = StoredFile {
            size_bytes: 9,
            broken: None,
        };
        file_fault(&reference(10), Some(&resized), &mut faults);
        let whole = StoredFile {
            size_bytes: 10,
            broken: None,
        };
        file_fault(&reference(10), Some(&whole), &mut faults);
        let kinds: Vec<FaultKind> = faults.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            [
                FaultKind::MissingFile,
                FaultKind::IncompleteFile,
                FaultKind::IncompleteFile
            ]
        );
        assert!(faults[2].detail.contains("has 9 bytes, the row records 10"));
        assert!(faults.iter().all(|f| f.subject == "evidence #3"));
    }
}
