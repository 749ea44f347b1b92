//! Scheduled `/metrics` pulls (see `migrations/*/0019_metrics_sources.sql`): the source of each
//! pilot, the lease that gives one instance one scrape, and how the attempts went.

use super::{Store, StoreResult, now_ms};
use sqlx::Row;

/// A pilot's source as stored (the bearer token included: the scheduler sends it).
#[derive(Clone, Debug, PartialEq)]
pub struct SourceRow {
    pub pilot_id: i64,
    pub url: String,
    pub selector: Option<String>,
    pub interval_s: i64,
    pub bearer_token: Option<String>,
    pub created_by: Option<i64>,
    pub next_due_ms: i64,
    pub last_attempt_ms: Option<i64>,
    pub last_success_ms: Option<i64>,
    pub last_error: Option<String>,
    pub last_evidence_id: Option<i64>,
    pub scrapes: i64,
    pub failures: i64,
}

/// How one attempt went.
#[derive(Clone, Debug, PartialEq)]
pub enum Attempt {
    /// Stored as this evidence (`None`: the same bytes as a scrape already kept).
    Stored(Option<i64>),
    Failed(String),
}

const COLUMNS: &str = "pilot_id, url, selector, interval_s, bearer_token, created_by, next_due_ms, \
     last_attempt_ms, last_success_ms, last_error, last_evidence_id, scrapes, failures";

fn from_row(row: &sqlx::any::AnyRow) -> StoreResult<SourceRow> {
    Ok(SourceRow {
        pilot_id: row.try_get("pilot_id")?,
        url: row.try_get("url")?,
        selector: row.try_get("selector")?,
        interval_s: row.try_get("interval_s")?,
        bearer_token: row.try_get("bearer_token")?,
        created_by: row.try_get("created_by")?,
        next_due_ms: row.try_get("next_due_ms")?,
        last_attempt_ms: row.try_get("last_attempt_ms")?,
        last_success_ms: row.try_get("last_success_ms")?,
        last_error: row.try_get("last_error")?,
        last_evidence_id: row.try_get("last_evidence_id")?,
        scrapes: row.try_get("scrapes")?,
        failures: row.try_get("failures")?,
    })
}

impl Store {
    /// Sets (replaces) a pilot's source, due at once; its history of attempts starts again.
    pub async fn put_metrics_source(
        &self,
        pilot_id: i64,
        url: &str,
        selector: Option<&str>,
        interval_s: i64,
        bearer_token: Option<&str>,
        created_by: Option<i64>,
    ) -> StoreResult<()> {
        let now = now_ms();
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM metrics_sources WHERE pilot_id = $1")
            .bind(pilot_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO metrics_sources (pilot_id, url, selector, interval_s, bearer_token, created_by, \
             updated_ms, next_due_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(pilot_id)
        .bind(url)
        .bind(selector)
        .bind(interval_s)
        .bind(bearer_token)
        .bind(created_by)
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The pilot's source, if it has one.
    pub async fn metrics_source(&self, pilot_id: i64) -> StoreResult<Option<SourceRow>> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM metrics_sources WHERE pilot_id = $1"
        ))
        .bind(pilot_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// Removes the pilot's source; answers whether it had one.
    pub async fn delete_metrics_source(&self, pilot_id: i64) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM metrics_sources WHERE pilot_id = $1")
            .bind(pilot_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sources due at `now` whose lease is free (candidates: [`Store::lease_metrics_source`]
    /// decides who takes each), of pilots that are not archived.
    pub async fn due_metrics_sources(&self, now: i64) -> StoreResult<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT s.pilot_id FROM metrics_sources s JOIN pilots p ON p.id = s.pilot_id \
             WHERE s.next_due_ms <= $1 AND (s.lease_until_ms IS NULL OR s.lease_until_ms < $1) \
             AND p.archived_ms IS NULL ORDER BY s.next_due_ms LIMIT 64",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok(row.try_get("pilot_id")?))
            .collect()
    }

    /// Takes the pilot's due source for `owner` until `until_ms`: one UPDATE that only one
    /// instance can win while the source is due and its lease free. Answers the source when
    /// this call took it.
    pub async fn lease_metrics_source(
        &self,
        pilot_id: i64,
        owner: &str,
        now: i64,
        until_ms: i64,
    ) -> StoreResult<Option<SourceRow>> {
        let done = sqlx::query(
            "UPDATE metrics_sources SET lease_owner = $1, lease_until_ms = $2 \
             WHERE pilot_id = $3 AND next_due_ms <= $4 \
             AND (lease_until_ms IS NULL OR lease_until_ms < $4)",
        )
        .bind(owner)
        .bind(until_ms)
        .bind(pilot_id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        self.metrics_source(pilot_id).await
    }

    /// Records how `owner`'s attempt went, frees the lease and sets the next one due
    /// `interval_s` after `started_ms`. A source replaced or removed meanwhile is left alone.
    pub async fn finish_metrics_attempt(
        &self,
        pilot_id: i64,
        owner: &str,
        started_ms: i64,
        attempt: &Attempt,
    ) -> StoreResult<()> {
        let (ok, evidence, error) = match attempt {
            Attempt::Stored(id) => (1_i64, *id, None),
            Attempt::Failed(why) => (0, None, Some(why.as_str())),
        };
        sqlx::query(
            "UPDATE metrics_sources SET lease_owner = NULL, lease_until_ms = NULL, \
             next_due_ms = $1 + interval_s * 1000, last_attempt_ms = $1, \
             last_success_ms = CASE WHEN $2 = 1 THEN $1 ELSE last_success_ms END, \
             last_error = $3, \
             last_evidence_id = CASE WHEN $2 = 1 THEN COALESCE($4, last_evidence_id) ELSE last_evidence_id END, \
             scrapes = scrapes + $2, failures = failures + 1 - $2 \
             WHERE pilot_id = $5 AND lease_owner = $6",
        )
        .bind(started_ms)
        .bind(ok)
        .bind(error)
        .bind(evidence)
        .bind(pilot_id)
        .bind(owner)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The pilot's pulled scrapes (evidence ids, raw files and when each was uploaded), oldest
    /// first: the ones compaction thins out.
    pub async fn pulled_scrapes(
        &self,
        pilot_id: i64,
        prefix: &str,
    ) -> StoreResult<Vec<(i64, String, i64)>> {
        let rows = sqlx::query(
            "SELECT id, sha256, uploaded_ms FROM evidence WHERE pilot_id = $1 \
             AND kind = 'metrics_scrape' AND file_name LIKE $2 ORDER BY uploaded_ms, id",
        )
        .bind(pilot_id)
        .bind(format!("{prefix}%"))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("id")?,
                    row.try_get("sha256")?,
                    row.try_get("uploaded_ms")?,
                ))
            })
            .collect()
    }

    /// Deletes evidence rows `ids` of `pilot_id` with their events and derived rows, in one
    /// transaction (compaction of pulled scrapes; the caller releases their files).
    pub async fn delete_evidence_rows(&self, pilot_id: i64, ids: &[i64]) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        for id in ids {
            for sql in [
                "DELETE FROM evidence_derived WHERE evidence_id = $1",
                "DELETE FROM evidence_events WHERE evidence_id = $1",
            ] {
                sqlx::query(sql).bind(id).execute(&mut *tx).await?;
            }
            sqlx::query("DELETE FROM evidence WHERE id = $1 AND pilot_id = $2")
                .bind(id)
                .bind(pilot_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

impl Store {
    /// The longest-standing active admin (who machine-made evidence is recorded as uploaded by
    /// when its source's creator is gone).
    pub async fn first_admin_id(&self) -> StoreResult<Option<i64>> {
        let row =
            sqlx::query("SELECT MIN(id) AS id FROM users WHERE role = 'admin' AND disabled = 0")
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get("id")?)
    }
}
