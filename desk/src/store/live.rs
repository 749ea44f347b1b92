//! The live gateway feed's rows (see `migrations/*/0018_live_gateway.sql`): ingest tokens, the
//! records received, and the day files rolled from them.
//!
//! **Why counters and not ids decide what is rolled.** On PostgreSQL, ids are drawn when a
//! record is inserted but become visible when its transaction commits, in any order; "roll
//! everything up to id N" would miss a record whose smaller id committed late. Instead the
//! transaction that inserts records raises its day's `received` count in the same
//! transaction, and a roll reads a day's count and records in one snapshot: every record
//! counted in `received` is visible in it, and no record it cannot see is counted. The day file
//! records how many it holds (`rolled`); received > rolled means roll again, and a roll that
//! holds fewer records than the file already does changes nothing.
//!
//! The snapshot takes no lock: a roll reads tens of thousands of records, and under the write
//! lock (SQLite) or the day row's lock (PostgreSQL) every post waited for it (ingest bench at
//! 2,000 records/s: post p99 420 ms).

use super::evidence::{DerivedWrites, NewEvidence, insert_evidence_in};
use super::traffic::{TrafficProfileWrite, write_traffic_profile};
use super::{Backend, Store, StoreResult, now_ms};
use crate::live::{IngestTokenRow, LiveDay};
use crate::model::EvidenceKind;
use sqlx::Row;

/// The token a gateway authenticated with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IngestCaller {
    pub token_id: i64,
    pub pilot_id: i64,
    /// Who created the token (the day files are recorded as theirs); `None` when deleted.
    pub created_by: Option<i64>,
}

/// One accepted record to insert.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveRecordRow {
    /// The request's id (or a hash of the record): unique per pilot.
    pub request_key: String,
    /// UTC date of the request's start, `2026-12-05`.
    pub day: String,
    /// The record's format (`litellm_standard_payload`, `generic_jsonl`, …).
    pub stream: String,
    pub start_ms: i64,
    /// The record as one line of JSON.
    pub line: String,
}

/// A pilot's day and stream waiting to be rolled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingDay {
    pub pilot_id: i64,
    pub day: String,
    pub stream: String,
}

/// A day's records as a roll reads them.
#[derive(Clone, Debug, PartialEq)]
pub struct DayRecords {
    /// How many records the day counts (= `lines.len()`).
    pub received: i64,
    /// How many its file holds now.
    pub rolled: i64,
    /// Its evidence row and that row's raw file, once rolled.
    pub evidence: Option<(i64, String)>,
    /// The creator of the token that sent the day's first record (`None`: made on the command
    /// line, or that account deleted).
    pub uploaded_by: Option<i64>,
    /// In order of start, then arrival.
    pub lines: Vec<String>,
}

/// A day file to write: the evidence row (inserted the first time, replaced in place after)
/// and the pilot's combined profile including it.
#[derive(Debug)]
pub struct LiveDayWrite<'a> {
    pub day: &'a str,
    pub stream: &'a str,
    /// How many records the file holds.
    pub rolled: i64,
    pub evidence: NewEvidence<'a>,
    /// The combined profile over the pilot's other logs and this file.
    pub traffic_profile: Option<TrafficProfileWrite>,
}

/// Records per insert statement: 8 parameters each, well under SQLite's 32,766 and
/// PostgreSQL's 65,535 bound parameters.
pub const INSERT_CHUNK: usize = 500;

/// Whether a day row is locked for the transaction's remainder (`FOR UPDATE` on PostgreSQL;
/// SQLite's write transaction already holds the whole database).
fn lock_clause(backend: Backend) -> &'static str {
    match backend {
        Backend::Postgres => " FOR UPDATE OF d",
        Backend::Sqlite => "",
    }
}

impl Store {
    /// Records a new ingest token (its SHA-256 only) and answers its id.
    pub async fn create_ingest_token(
        &self,
        pilot_id: i64,
        name: &str,
        token_hash: &str,
        prefix: &str,
        created_by: Option<i64>,
    ) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO ingest_tokens (pilot_id, name, token_hash, prefix, created_by, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(pilot_id)
        .bind(name)
        .bind(token_hash)
        .bind(prefix)
        .bind(created_by)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    /// The unrevoked token with this hash, marked used now (to the minute).
    pub async fn ingest_caller(&self, token_hash: &str) -> StoreResult<Option<IngestCaller>> {
        let row = sqlx::query(
            "SELECT id, pilot_id, created_by, last_used_ms FROM ingest_tokens \
             WHERE token_hash = $1 AND revoked_ms IS NULL",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let caller = IngestCaller {
            token_id: row.try_get("id")?,
            pilot_id: row.try_get("pilot_id")?,
            created_by: row.try_get("created_by")?,
        };
        // Marked used at most once a minute: a gateway posts many batches a second, and each
        // mark is a write (SQLite's one writer) on the ingest path.
        let now = now_ms();
        let last_used: Option<i64> = row.try_get("last_used_ms")?;
        if last_used.is_none_or(|at| now - at >= 60_000) {
            sqlx::query("UPDATE ingest_tokens SET last_used_ms = $1 WHERE id = $2")
                .bind(now)
                .bind(caller.token_id)
                .execute(&self.pool)
                .await?;
        }
        Ok(Some(caller))
    }

    /// The tokens of one pilot, or of every pilot; newest first.
    pub async fn ingest_tokens(&self, pilot_id: Option<i64>) -> StoreResult<Vec<IngestTokenRow>> {
        let rows = sqlx::query(
            "SELECT t.id, t.pilot_id, t.name, t.prefix, u.email AS created_by_email, t.created_ms, \
             t.last_used_ms, t.revoked_ms FROM ingest_tokens t \
             LEFT JOIN users u ON u.id = t.created_by \
             WHERE (CAST($1 AS BIGINT) IS NULL OR t.pilot_id = $1) ORDER BY t.id DESC",
        )
        .bind(pilot_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(IngestTokenRow {
                    id: row.try_get("id")?,
                    pilot_id: row.try_get("pilot_id")?,
                    name: row.try_get("name")?,
                    prefix: row.try_get("prefix")?,
                    created_by: row
                        .try_get::<Option<String>, _>("created_by_email")?
                        .unwrap_or_default(),
                    created_ms: row.try_get("created_ms")?,
                    last_used_ms: row.try_get("last_used_ms")?,
                    revoked_ms: row.try_get("revoked_ms")?,
                })
            })
            .collect()
    }

    /// Revokes token `id` (of `pilot_id` when given); answers whether a working token was
    /// revoked.
    pub async fn revoke_ingest_token(&self, id: i64, pilot_id: Option<i64>) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE ingest_tokens SET revoked_ms = $1 \
             WHERE id = $2 AND (CAST($3 AS BIGINT) IS NULL OR pilot_id = $3) AND revoked_ms IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .bind(pilot_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Inserts the records not received before (by request key) and counts them into their
    /// days, in one transaction; answers for each record whether it was new (of two records with
    /// one key in a batch, the first).
    ///
    /// Rows go in [`INSERT_CHUNK`] at a time, each statement answering the keys it inserted:
    /// one statement per record cost a round trip to the database each, a third of a post's
    /// time.
    pub async fn insert_live_records(
        &self,
        pilot_id: i64,
        token_id: Option<i64>,
        records: &[LiveRecordRow],
    ) -> StoreResult<Vec<bool>> {
        let now = now_ms();
        let mut tx = self.begin_write().await?;
        let mut inserted: std::collections::HashSet<String> = Default::default();
        for chunk in records.chunks(INSERT_CHUNK) {
            let mut sql = String::from(
                "INSERT INTO live_gateway_records \
                 (pilot_id, request_key, day, stream, start_ms, line, token_id, received_ms) VALUES ",
            );
            for n in 0..chunk.len() {
                let p = n * 8;
                if n > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    p + 1,
                    p + 2,
                    p + 3,
                    p + 4,
                    p + 5,
                    p + 6,
                    p + 7,
                    p + 8
                ));
            }
            sql.push_str(" ON CONFLICT (pilot_id, request_key) DO NOTHING RETURNING request_key");
            let mut query = sqlx::query(&sql);
            for record in chunk {
                query = query
                    .bind(pilot_id)
                    .bind(&record.request_key)
                    .bind(&record.day)
                    .bind(&record.stream)
                    .bind(record.start_ms)
                    .bind(&record.line)
                    .bind(token_id)
                    .bind(now);
            }
            for row in query.fetch_all(&mut *tx).await? {
                inserted.insert(row.try_get("request_key")?);
            }
        }
        let mut fresh = Vec::with_capacity(records.len());
        let mut per_day: std::collections::BTreeMap<(&str, &str), i64> = Default::default();
        for record in records {
            // `remove`: a second record of the same key in this batch is a duplicate.
            let new = inserted.remove(&record.request_key);
            if new {
                *per_day
                    .entry((record.day.as_str(), record.stream.as_str()))
                    .or_default() += 1;
            }
            fresh.push(new);
        }
        for ((day, stream), count) in per_day {
            sqlx::query(
                "INSERT INTO live_gateway_days (pilot_id, day, stream, received, rolled, last_received_ms) \
                 VALUES ($1, $2, $3, $4, 0, $5) \
                 ON CONFLICT (pilot_id, day, stream) DO UPDATE SET \
                 received = live_gateway_days.received + excluded.received, \
                 last_received_ms = excluded.last_received_ms",
            )
            .bind(pilot_id)
            .bind(day)
            .bind(stream)
            .bind(count)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(fresh)
    }

    /// Days with records their file does not hold yet (at most `limit`), oldest arrival first.
    pub async fn pending_live_days(&self, limit: i64) -> StoreResult<Vec<PendingDay>> {
        let rows = sqlx::query(
            "SELECT pilot_id, day, stream FROM live_gateway_days WHERE received > rolled \
             ORDER BY last_received_ms LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(PendingDay {
                    pilot_id: row.try_get("pilot_id")?,
                    day: row.try_get("day")?,
                    stream: row.try_get("stream")?,
                })
            })
            .collect()
    }

    /// A day's records and counts, read in one snapshot (see the module docs).
    pub async fn live_day_records(&self, day: &PendingDay) -> StoreResult<Option<DayRecords>> {
        let mut tx = self.begin_snapshot().await?;
        let sql = "SELECT d.received, d.rolled, d.evidence_id, e.sha256, \
               (SELECT t.created_by FROM live_gateway_records r JOIN ingest_tokens t ON t.id = r.token_id \
                WHERE r.pilot_id = d.pilot_id AND r.day = d.day AND r.stream = d.stream \
                AND t.created_by IS NOT NULL ORDER BY r.id LIMIT 1) AS uploader \
             FROM live_gateway_days d \
             LEFT JOIN evidence e ON e.id = d.evidence_id \
             WHERE d.pilot_id = $1 AND d.day = $2 AND d.stream = $3";
        let Some(row) = sqlx::query(sql)
            .bind(day.pilot_id)
            .bind(&day.day)
            .bind(&day.stream)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let evidence_id: Option<i64> = row.try_get("evidence_id")?;
        let sha256: Option<String> = row.try_get("sha256")?;
        let received: i64 = row.try_get("received")?;
        let rolled: i64 = row.try_get("rolled")?;
        let uploaded_by: Option<i64> = row.try_get("uploader")?;
        let lines = sqlx::query(
            "SELECT line FROM live_gateway_records WHERE pilot_id = $1 AND day = $2 AND stream = $3 \
             ORDER BY start_ms, id",
        )
        .bind(day.pilot_id)
        .bind(&day.day)
        .bind(&day.stream)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|row| row.try_get::<String, _>("line"))
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        Ok(Some(DayRecords {
            received,
            rolled,
            evidence: evidence_id.zip(sha256),
            uploaded_by,
            lines,
        }))
    }

    /// The days of a pilot's feed, newest first.
    pub async fn live_days(&self, pilot_id: i64) -> StoreResult<Vec<LiveDay>> {
        let rows = sqlx::query(
            "SELECT day, stream, received, rolled, evidence_id, last_received_ms \
             FROM live_gateway_days WHERE pilot_id = $1 ORDER BY day DESC, stream",
        )
        .bind(pilot_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(LiveDay {
                    day: row.try_get("day")?,
                    stream: row.try_get("stream")?,
                    received: row.try_get("received")?,
                    rolled: row.try_get("rolled")?,
                    evidence_id: row.try_get("evidence_id")?,
                    last_received_ms: row.try_get("last_received_ms")?,
                })
            })
            .collect()
    }
}

/// Writes a rolled day file inside `tx` (which holds its raw file, see
/// [`Store::write_with_file`]): replaces the day's evidence row in place (its file, size and
/// summary; what was derived from the old file is dropped) or inserts it the first time, and
/// records how many records it holds. A roll older than the one already written (fewer
/// records) changes nothing. Answers the evidence id.
pub(crate) async fn write_live_day_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    backend: Backend,
    write: LiveDayWrite<'_>,
) -> StoreResult<i64> {
    let new = write.evidence;
    let sql = format!(
        "SELECT d.rolled, d.evidence_id, e.id AS present FROM live_gateway_days d \
         LEFT JOIN evidence e ON e.id = d.evidence_id \
         WHERE d.pilot_id = $1 AND d.day = $2 AND d.stream = $3{}",
        lock_clause(backend)
    );
    let row = sqlx::query(&sql)
        .bind(new.pilot_id)
        .bind(write.day)
        .bind(write.stream)
        .fetch_one(&mut **tx)
        .await?;
    let rolled: i64 = row.try_get("rolled")?;
    let present: Option<i64> = row.try_get("present")?;
    if let Some(id) = present
        && rolled >= write.rolled
    {
        return Ok(id);
    }
    let id = match present {
        Some(id) => {
            sqlx::query("DELETE FROM evidence_derived WHERE evidence_id = $1")
                .bind(id)
                .execute(&mut **tx)
                .await?;
            sqlx::query(
                "UPDATE evidence SET sha256 = $1, size_bytes = $2, summary = $3 WHERE id = $4",
            )
            .bind(new.sha256)
            .bind(new.size_bytes)
            .bind(new.summary_json)
            .bind(id)
            .execute(&mut **tx)
            .await
            .map_err(|e| {
                super::conflict(e, || {
                    crate::error::Said::new(
                        format!(
                            "{}: the same bytes are already evidence of this pilot",
                            new.file_name
                        ),
                        format!(
                            "{}: dieselben Bytes sind bereits ein Nachweis dieses Piloten",
                            new.file_name
                        ),
                    )
                })
            })?;
            if let Some(mut profile) = write.traffic_profile {
                if !profile.evidence_ids.contains(&id) {
                    profile.evidence_ids.push(id);
                }
                write_traffic_profile(tx, new.pilot_id, &profile).await?;
            }
            id
        }
        None => {
            let derived = DerivedWrites {
                rows: Vec::new(),
                traffic_profile: write.traffic_profile,
            };
            insert_evidence_in(tx, new, derived).await?
        }
    };
    sqlx::query(
        "UPDATE live_gateway_days SET rolled = $1, evidence_id = $2 \
         WHERE pilot_id = $3 AND day = $4 AND stream = $5",
    )
    .bind(write.rolled)
    .bind(id)
    .bind(new.pilot_id)
    .bind(write.day)
    .bind(write.stream)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// The kind every day file has.
pub const LIVE_DAY_KIND: EvidenceKind = EvidenceKind::GatewayLog;
