//! Evidence rows: one per uploaded or pasted file of a pilot.

use super::{Store, StoreResult, conflict, now_ms};
use crate::model::EvidenceFile;
use sqlx::Row;
use sqlx::any::AnyRow;

fn evidence_from_row(row: &AnyRow) -> StoreResult<EvidenceFile> {
    Ok(EvidenceFile {
        id: row.try_get("id")?,
        pilot_id: row.try_get("pilot_id")?,
        kind: row.try_get("kind")?,
        file_name: row.try_get("file_name")?,
        sha256: row.try_get("sha256")?,
        size_bytes: row.try_get("size_bytes")?,
        uploaded_by: row
            .try_get::<Option<String>, _>("uploaded_by_email")?
            .unwrap_or_default(),
        uploaded_ms: row.try_get("uploaded_ms")?,
    })
}

const EVIDENCE_COLUMNS: &str = "e.id, e.pilot_id, e.kind, e.file_name, e.sha256, e.size_bytes, \
     u.email AS uploaded_by_email, e.uploaded_ms, e.summary";

impl Store {
    /// Records an evidence file; the same content twice on one pilot is a conflict naming the
    /// earlier upload.
    #[allow(clippy::too_many_arguments)]
    pub async fn create_evidence(
        &self,
        pilot_id: i64,
        kind: &str,
        file_name: &str,
        sha256: &str,
        size_bytes: i64,
        summary_json: &str,
        uploaded_by: i64,
    ) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO evidence (pilot_id, kind, file_name, sha256, size_bytes, summary, uploaded_by, uploaded_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(pilot_id)
        .bind(kind)
        .bind(file_name)
        .bind(sha256)
        .bind(size_bytes)
        .bind(summary_json)
        .bind(uploaded_by)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await
        .map_err(|e| conflict(e, || format!("{file_name}: this exact file is already evidence of this pilot")))?;
        Ok(row.try_get("id")?)
    }

    /// A pilot's evidence of one kind (all kinds when `None`), newest first, with each summary.
    pub async fn list_evidence(
        &self,
        pilot_id: i64,
        kind: Option<&str>,
    ) -> StoreResult<Vec<(EvidenceFile, String)>> {
        let filter = if kind.is_some() {
            "AND e.kind = $2"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.pilot_id = $1 {filter} ORDER BY e.uploaded_ms DESC, e.id DESC"
        );
        let mut query = sqlx::query(&sql).bind(pilot_id);
        if let Some(kind) = kind {
            query = query.bind(kind);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                Ok((
                    evidence_from_row(row)?,
                    row.try_get::<String, _>("summary")?,
                ))
            })
            .collect()
    }

    /// The evidence with this content on this pilot, if any.
    pub async fn evidence_by_hash(
        &self,
        pilot_id: i64,
        sha256: &str,
    ) -> StoreResult<Option<EvidenceFile>> {
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.pilot_id = $1 AND e.sha256 = $2"
        );
        let row = sqlx::query(&sql)
            .bind(pilot_id)
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(evidence_from_row).transpose()
    }
}
