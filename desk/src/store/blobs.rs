//! Raw evidence files as rows of 1 MiB chunks (see `migrations/*/0014_evidence_blobs.sql`),
//! for installations where several instances share one PostgreSQL database.
//!
//! Files can be gigabytes, so nothing here holds a whole file: writing reads the file chunk by
//! chunk into one transaction (the file is there whole or not at all), reading fetches one chunk
//! per query and hands it to the caller.
//!
//! **Files are shared and counted by their rows.** A file is named by its SHA-256, so two
//! uploads of the same bytes (the same file twice at once, or one file on two pilots) name one
//! file. A file is written together with the row that names it, in one transaction that first
//! *holds* the file ([`Store::write_with_file`]), and it is removed only by
//! [`Store::release_file`], which holds it too and removes it only when no evidence row and no
//! staged upload names it. Holding is an advisory lock on the hash on PostgreSQL (every
//! instance takes the same one) and the database's write lock on SQLite, so a file being
//! recorded and the same file being released never interleave: no request removes a file
//! another row names (issue #38: the loser of a race deleted the winner's file).

use super::evidence::{DerivedWrites, NewEvidence, insert_evidence_in};
use super::staged::{StagedRow, insert_staged_in};
use super::{Backend, Store, StoreResult};
use sqlx::Row;
use std::path::Path;
use tokio::io::AsyncReadExt;

/// A row that names a raw file: an evidence row or a staged upload.
#[derive(Clone, Debug, PartialEq)]
pub struct FileReference {
    pub sha256: String,
    pub size_bytes: i64,
    /// `evidence #12` or `staged upload 3f9a…`.
    pub named_by: String,
}

/// A raw file stored in the database (PostgreSQL): how many chunks and bytes it has.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredBlob {
    pub sha256: String,
    pub chunks: i64,
    /// The highest chunk number (chunks are numbered from 0 without gaps).
    pub last_chunk: i64,
    pub size_bytes: i64,
}

/// An evidence row's kind and summary as stored (for the store check).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSummary {
    pub id: i64,
    pub kind: String,
    pub summary: String,
}

/// The row written with a file, in the transaction that holds it.
#[derive(Debug)]
pub enum FileRow<'a> {
    /// An evidence row and what was derived from its file.
    Evidence(NewEvidence<'a>, DerivedWrites),
    /// An upload checked and waiting for its uploader's confirmation.
    Staged(&'a StagedRow),
    /// A day file of the live gateway feed, inserted or replaced in place.
    LiveDay(super::live::LiveDayWrite<'a>),
}

/// The size of one stored chunk.
pub const CHUNK_BYTES: usize = 1024 * 1024;

impl Store {
    /// Whether the blob `sha256` is stored.
    pub async fn has_blob(&self, sha256: &str) -> StoreResult<bool> {
        let row = sqlx::query("SELECT 1 FROM evidence_blobs WHERE sha256 = $1 AND chunk = 0")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// A write transaction that holds file `sha256` (see the module docs): taken before
    /// anything else in it, so it waits for any other holder of the same file.
    async fn begin_holding_file(
        &self,
        sha256: &str,
    ) -> StoreResult<sqlx::Transaction<'static, sqlx::Any>> {
        match self.backend {
            // IMMEDIATE takes SQLite's write lock at once (a deferred transaction would take it
            // at its first write, after the reads that decide what to write).
            Backend::Sqlite => Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?),
            Backend::Postgres => {
                let mut tx = self.pool.begin().await?;
                sqlx::query(
                    "SELECT 1 AS held FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS held_lock",
                )
                .bind(sha256)
                .fetch_one(&mut *tx)
                .await?;
                Ok(tx)
            }
        }
    }

    /// Writes `row`, which names file `sha256`, while holding that file; with `blob` (on
    /// PostgreSQL) the file's bytes are stored in the same transaction unless already there.
    /// Answers the new row's id (evidence) or 0 (a staged upload). Nothing is written when it
    /// fails: the same evidence twice on one pilot is a [`super::StoreError::Duplicate`].
    pub async fn write_with_file(
        &self,
        sha256: &str,
        blob: Option<&Path>,
        row: FileRow<'_>,
    ) -> StoreResult<i64> {
        let mut tx = self.begin_holding_file(sha256).await?;
        if let Some(path) = blob {
            put_blob_in(&mut tx, sha256, path).await?;
        }
        let id = match row {
            FileRow::Evidence(new, derived) => insert_evidence_in(&mut tx, new, derived).await?,
            FileRow::Staged(staged) => {
                insert_staged_in(&mut tx, staged).await?;
                0
            }
            FileRow::LiveDay(write) => {
                super::live::write_live_day_in(&mut tx, self.backend, write).await?
            }
        };
        tx.commit().await?;
        Ok(id)
    }

    /// Removes file `sha256` when no evidence row and no staged upload names it, holding it
    /// while it decides: its database copy (PostgreSQL) and `local`, this instance's copy,
    /// removed before the hold ends. Answers whether it was removed.
    pub async fn release_file(&self, sha256: &str, local: &Path) -> StoreResult<bool> {
        let mut tx = self.begin_holding_file(sha256).await?;
        let named = sqlx::query(
            "SELECT 1 AS used FROM evidence WHERE sha256 = $1 \
             UNION ALL SELECT 1 AS used FROM staged_uploads WHERE sha256 = $1",
        )
        .bind(sha256)
        .fetch_optional(&mut *tx)
        .await?
        .is_some();
        if named {
            return Ok(false);
        }
        if self.backend == Backend::Postgres {
            sqlx::query("DELETE FROM evidence_blobs WHERE sha256 = $1")
                .bind(sha256)
                .execute(&mut *tx)
                .await?;
        }
        match tokio::fs::remove_file(local).await {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                return Err(super::StoreError::Corrupt(format!(
                    "{}: {error}",
                    local.display()
                )));
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Every row that names a raw file (evidence rows, withdrawn ones too, and staged uploads).
    pub async fn file_references(&self) -> StoreResult<Vec<FileReference>> {
        let rows = sqlx::query(
            "SELECT sha256, size_bytes, 'evidence #' || CAST(id AS TEXT) AS named_by FROM evidence \
             UNION ALL SELECT sha256, size_bytes, 'staged upload ' || token AS named_by \
             FROM staged_uploads ORDER BY named_by",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(FileReference {
                    sha256: row.try_get("sha256")?,
                    size_bytes: row.try_get("size_bytes")?,
                    named_by: row.try_get("named_by")?,
                })
            })
            .collect()
    }

    /// Every raw file stored in the database, with its chunk count and size (PostgreSQL; empty
    /// on SQLite, whose files live in `DATA_DIR/evidence`).
    pub async fn stored_blobs(&self) -> StoreResult<Vec<StoredBlob>> {
        let rows = sqlx::query(
            "SELECT sha256, COUNT(*) AS chunks, CAST(MAX(chunk) AS BIGINT) AS last_chunk, \
             CAST(SUM(LENGTH(bytes)) AS BIGINT) AS size_bytes \
             FROM evidence_blobs GROUP BY sha256 ORDER BY sha256",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredBlob {
                    sha256: row.try_get("sha256")?,
                    chunks: row.try_get("chunks")?,
                    last_chunk: row.try_get("last_chunk")?,
                    size_bytes: row.try_get("size_bytes")?,
                })
            })
            .collect()
    }

    /// Up to `limit` evidence summaries with ids above `after_id`, by id (the store check reads
    /// them a page at a time: a summary can be large).
    pub async fn summaries_after(
        &self,
        after_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<StoredSummary>> {
        let rows = sqlx::query(
            "SELECT id, kind, summary FROM evidence WHERE id > $1 ORDER BY id LIMIT $2",
        )
        .bind(after_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredSummary {
                    id: row.try_get("id")?,
                    kind: row.try_get("kind")?,
                    summary: row.try_get("summary")?,
                })
            })
            .collect()
    }

    /// Chunk `index` of blob `sha256`, `None` past its end (or when it is not stored).
    pub async fn blob_chunk(&self, sha256: &str, index: i32) -> StoreResult<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT bytes FROM evidence_blobs WHERE sha256 = $1 AND chunk = $2")
            .bind(sha256)
            .bind(index)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get::<Vec<u8>, _>("bytes")?),
            None => None,
        })
    }
}

/// Stores the file at `path` as blob `sha256` inside `tx`, chunk by chunk, unless it is stored
/// already (the transaction holds the file, so nobody removes it meanwhile).
async fn put_blob_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    sha256: &str,
    path: &Path,
) -> StoreResult<()> {
    let exists =
        sqlx::query("SELECT 1 AS found FROM evidence_blobs WHERE sha256 = $1 AND chunk = 0")
            .bind(sha256)
            .fetch_optional(&mut **tx)
            .await?
            .is_some();
    if exists {
        return Ok(());
    }
    let mut file = tokio::fs::File::open(path)
        .await
        .map_err(|e| super::StoreError::Corrupt(format!("{}: {e}", path.display())))?;
    let mut chunk = 0i32;
    loop {
        let bytes = read_chunk(&mut file)
            .await
            .map_err(|e| super::StoreError::Corrupt(format!("{}: {e}", path.display())))?;
        if bytes.is_empty() && chunk > 0 {
            break;
        }
        let last = bytes.len() < CHUNK_BYTES;
        sqlx::query("INSERT INTO evidence_blobs (sha256, chunk, bytes) VALUES ($1, $2, $3)")
            .bind(sha256)
            .bind(chunk)
            .bind(bytes)
            .execute(&mut **tx)
            .await?;
        chunk += 1;
        if last {
            break;
        }
    }
    Ok(())
}

/// Up to [`CHUNK_BYTES`] from `file` (fewer only at its end).
async fn read_chunk(file: &mut tokio::fs::File) -> std::io::Result<Vec<u8>> {
    let mut bytes = vec![0u8; CHUNK_BYTES];
    let mut filled = 0;
    while filled < CHUNK_BYTES {
        let read = file.read(&mut bytes[filled..]).await?;
        if read == 0 {
            break;
        }
        filled += read;
    }
    bytes.truncate(filled);
    Ok(bytes)
}
