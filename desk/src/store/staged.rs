//! Uploads checked and waiting for their uploader's confirmation (see
//! `migrations/*/0016_staged_uploads.sql` and [`crate::evidence::staged`]).

use super::{Store, StoreResult};
use sqlx::Row;
use sqlx::any::AnyRow;

/// A staged upload's row: the file (kept as a blob under `sha256`), the form's fields and what
/// the check said would be recorded, both as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct StagedRow {
    pub token: String,
    pub pilot_id: i64,
    pub user_id: i64,
    pub file_name: String,
    pub sha256: String,
    pub size_bytes: i64,
    pub fields_json: String,
    pub preview_json: String,
    pub staged_ms: i64,
}

const COLUMNS: &str = "token, pilot_id, user_id, file_name, sha256, size_bytes, fields_json, \
     preview_json, staged_ms";

fn staged_from_row(row: &AnyRow) -> StoreResult<StagedRow> {
    Ok(StagedRow {
        token: row.try_get("token")?,
        pilot_id: row.try_get("pilot_id")?,
        user_id: row.try_get("user_id")?,
        file_name: row.try_get("file_name")?,
        sha256: row.try_get("sha256")?,
        size_bytes: row.try_get("size_bytes")?,
        fields_json: row.try_get("fields_json")?,
        preview_json: row.try_get("preview_json")?,
        staged_ms: row.try_get("staged_ms")?,
    })
}

/// Writes a staged upload's row inside `tx`.
pub(crate) async fn insert_staged_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    row: &StagedRow,
) -> StoreResult<()> {
    sqlx::query(&format!(
        "INSERT INTO staged_uploads ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    ))
    .bind(&row.token)
    .bind(row.pilot_id)
    .bind(row.user_id)
    .bind(&row.file_name)
    .bind(&row.sha256)
    .bind(row.size_bytes)
    .bind(&row.fields_json)
    .bind(&row.preview_json)
    .bind(row.staged_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Records a staged upload.
    /// The staged upload `token`, if it is still there.
    pub async fn staged_upload(&self, token: &str) -> StoreResult<Option<StagedRow>> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM staged_uploads WHERE token = $1"
        ))
        .bind(token)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(staged_from_row).transpose()
    }

    /// Removes staged upload `token`; `false` when it was not there (already stored, discarded
    /// or expired), so of two concurrent confirmations exactly one goes on.
    pub async fn unstage_upload(&self, token: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM staged_uploads WHERE token = $1")
            .bind(token)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(done > 0)
    }

    /// Staged uploads staged before `before_ms`, oldest first.
    pub async fn staged_before(&self, before_ms: i64) -> StoreResult<Vec<StagedRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM staged_uploads WHERE staged_ms < $1 ORDER BY staged_ms"
        ))
        .bind(before_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(staged_from_row).collect()
    }

    /// Whether an evidence row or a staged upload names the file `sha256`.
    pub async fn file_in_use(&self, sha256: &str) -> StoreResult<bool> {
        let row = sqlx::query(
            "SELECT 1 AS used FROM evidence WHERE sha256 = $1 \
             UNION ALL SELECT 1 AS used FROM staged_uploads WHERE sha256 = $1",
        )
        .bind(sha256)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }
}
