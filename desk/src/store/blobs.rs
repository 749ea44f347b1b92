//! Raw evidence files as rows of 1 MiB chunks (see `migrations/*/0014_evidence_blobs.sql`),
//! for installations where several instances share one PostgreSQL database.
//!
//! Files can be gigabytes, so nothing here holds a whole file: writing reads the file chunk by
//! chunk into one transaction (the file is there whole or not at all), reading fetches one chunk
//! per query and hands it to the caller.

use super::{Store, StoreResult};
use sqlx::Row;
use std::path::Path;
use tokio::io::AsyncReadExt;

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

    /// Stores the file at `path` as blob `sha256`, in one transaction; `false` when it was
    /// already stored (left as it is).
    pub async fn put_blob_from_file(&self, sha256: &str, path: &Path) -> StoreResult<bool> {
        let mut file = tokio::fs::File::open(path)
            .await
            .map_err(|e| super::StoreError::Corrupt(format!("{}: {e}", path.display())))?;
        let mut tx = self.pool.begin().await?;
        let exists = sqlx::query("SELECT 1 FROM evidence_blobs WHERE sha256 = $1 AND chunk = 0")
            .bind(sha256)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if exists {
            return Ok(false);
        }
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
                .execute(&mut *tx)
                .await?;
            chunk += 1;
            if last {
                break;
            }
        }
        tx.commit().await?;
        Ok(true)
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

    /// Removes blob `sha256` (a file whose evidence row could not be written).
    pub async fn delete_blob(&self, sha256: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM evidence_blobs WHERE sha256 = $1")
            .bind(sha256)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
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
