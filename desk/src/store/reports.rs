//! Report exports and share links (see `migrations/*/0009_reports.sql`).

use super::{Store, StoreResult, now_ms};
use crate::model::{ReportExport, ShareLink};
use sqlx::Row;

/// What an export is recorded with.
#[derive(Clone, Debug)]
pub struct NewExport<'a> {
    pub pilot_id: i64,
    pub exported_by: Option<i64>,
    /// `web`, `cli`, `share`.
    pub via: &'a str,
    /// `pdf` or `html`.
    pub format: &'a str,
    pub lang: &'a str,
    /// `customer` or `internal` (see [`crate::report::Edition`]).
    pub edition: &'a str,
    pub plan_version: Option<u32>,
    pub sha256: &'a str,
    pub size_bytes: i64,
}

/// A share link found by its token, with whether it may still be used.
#[derive(Clone, Debug)]
pub struct SharedReport {
    pub link: ShareLink,
}

impl Store {
    /// Records one export.
    pub async fn record_export(&self, export: &NewExport<'_>) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO report_exports (pilot_id, exported_by, via, format, lang, edition, plan_version, sha256, size_bytes, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(export.pilot_id)
        .bind(export.exported_by)
        .bind(export.via)
        .bind(export.format)
        .bind(export.lang)
        .bind(export.edition)
        .bind(export.plan_version.map(i64::from))
        .bind(export.sha256)
        .bind(export.size_bytes)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A pilot's exports, newest first.
    pub async fn report_exports(&self, pilot_id: i64) -> StoreResult<Vec<ReportExport>> {
        let rows = sqlx::query(
            "SELECT x.id, x.via, x.format, x.lang, x.edition, x.plan_version, x.sha256, x.size_bytes, x.created_ms, u.email \
             FROM report_exports x LEFT JOIN users u ON u.id = x.exported_by \
             WHERE x.pilot_id = $1 ORDER BY x.created_ms DESC, x.id DESC",
        )
        .bind(pilot_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ReportExport {
                    id: row.try_get("id")?,
                    via: row.try_get("via")?,
                    format: row.try_get("format")?,
                    lang: row.try_get("lang")?,
                    edition: row.try_get("edition")?,
                    plan_version: row.try_get::<Option<i64>, _>("plan_version")?,
                    sha256: row.try_get("sha256")?,
                    size_bytes: row.try_get("size_bytes")?,
                    created_ms: row.try_get("created_ms")?,
                    exported_by: row
                        .try_get::<Option<String>, _>("email")?
                        .unwrap_or_default(),
                })
            })
            .collect()
    }

    /// Creates a share link; `token_hash` is the SHA-256 of the token handed out.
    pub async fn create_share_link(
        &self,
        pilot_id: i64,
        token_hash: &str,
        contact: &str,
        lang: &str,
        created_by: i64,
        expires_ms: i64,
    ) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO share_links (pilot_id, token_hash, contact, lang, created_by, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(pilot_id)
        .bind(token_hash)
        .bind(contact)
        .bind(lang)
        .bind(created_by)
        .bind(now_ms())
        .bind(expires_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    fn share_link(row: &sqlx::any::AnyRow) -> StoreResult<ShareLink> {
        Ok(ShareLink {
            id: row.try_get("id")?,
            pilot_id: row.try_get("pilot_id")?,
            contact: row.try_get("contact")?,
            lang: row.try_get("lang")?,
            created_by: row
                .try_get::<Option<String>, _>("email")?
                .unwrap_or_default(),
            created_ms: row.try_get("created_ms")?,
            expires_ms: row.try_get("expires_ms")?,
            revoked_ms: row.try_get("revoked_ms")?,
        })
    }

    /// A pilot's share links, newest first.
    pub async fn share_links(&self, pilot_id: i64) -> StoreResult<Vec<ShareLink>> {
        let rows = sqlx::query(
            "SELECT s.id, s.pilot_id, s.contact, s.lang, s.created_ms, s.expires_ms, s.revoked_ms, u.email \
             FROM share_links s LEFT JOIN users u ON u.id = s.created_by \
             WHERE s.pilot_id = $1 ORDER BY s.created_ms DESC, s.id DESC",
        )
        .bind(pilot_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(Self::share_link).collect()
    }

    /// The share link with token hash `token_hash`, usable or not.
    pub async fn share_link_by_hash(&self, token_hash: &str) -> StoreResult<Option<ShareLink>> {
        let row = sqlx::query(
            "SELECT s.id, s.pilot_id, s.contact, s.lang, s.created_ms, s.expires_ms, s.revoked_ms, u.email \
             FROM share_links s LEFT JOIN users u ON u.id = s.created_by WHERE s.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(Self::share_link).transpose()
    }

    /// Revokes link `id` of pilot `pilot_id`; false when there is no such link.
    pub async fn revoke_share_link(&self, pilot_id: i64, id: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE share_links SET revoked_ms = $1 WHERE id = $2 AND pilot_id = $3 AND revoked_ms IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .bind(pilot_id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(done > 0)
    }
}
