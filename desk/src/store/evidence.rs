//! Evidence rows: one per uploaded or pasted file of a pilot.

use super::traffic::{TrafficProfileWrite, write_traffic_profile};
use super::{Store, StoreResult, conflict, now_ms};
use crate::model::{EvidenceFile, EvidenceKind};
use sqlx::Row;
use sqlx::any::AnyRow;

/// The row as an [`EvidenceFile`], or `None` (with a warning in the log) when its kind is none
/// this release knows: such a row is left out of every answer rather than failing the page,
/// and [`Store::evidence_of_unknown_kind`] names it.
fn evidence_from_row(row: &AnyRow) -> StoreResult<Option<EvidenceFile>> {
    let id: i64 = row.try_get("id")?;
    let kind: String = row.try_get("kind")?;
    let kind = match kind.parse::<EvidenceKind>() {
        Ok(kind) => kind,
        Err(why) => {
            tracing::warn!(evidence_id = id, %why, "evidence row of an unknown kind; left out");
            return Ok(None);
        }
    };
    Ok(Some(EvidenceFile {
        id,
        pilot_id: row.try_get("pilot_id")?,
        kind,
        file_name: row.try_get("file_name")?,
        sha256: row.try_get("sha256")?,
        size_bytes: row.try_get("size_bytes")?,
        uploaded_by: row
            .try_get::<Option<String>, _>("uploaded_by_email")?
            .unwrap_or_default(),
        uploaded_ms: row.try_get("uploaded_ms")?,
        withdrawn_ms: row.try_get("withdrawn_ms")?,
    }))
}

/// Rows with their summaries, those of an unknown kind left out.
fn evidence_with_summaries(rows: &[AnyRow]) -> StoreResult<Vec<(EvidenceFile, String)>> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        if let Some(file) = evidence_from_row(row)? {
            out.push((file, row.try_get::<String, _>("summary")?));
        }
    }
    Ok(out)
}

/// An evidence row in force whose kind this release does not know (see
/// [`Store::evidence_of_unknown_kind`]).
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownKindEvidence {
    pub id: i64,
    pub file_name: String,
    /// The kind as stored.
    pub kind: String,
}

const EVIDENCE_COLUMNS: &str = "e.id, e.pilot_id, e.kind, e.file_name, e.sha256, e.size_bytes, \
     u.email AS uploaded_by_email, e.uploaded_ms, e.summary, e.withdrawn_ms";

/// An evidence row to record.
#[derive(Clone, Copy, Debug)]
pub struct NewEvidence<'a> {
    pub pilot_id: i64,
    pub kind: EvidenceKind,
    pub file_name: &'a str,
    pub sha256: &'a str,
    pub size_bytes: i64,
    pub summary_json: &'a str,
    pub uploaded_by: i64,
}

/// What is written with an evidence row, in the same transaction.
#[derive(Clone, Debug, Default)]
pub struct DerivedWrites {
    /// `evidence_derived` rows: (name, data).
    pub rows: Vec<(String, Vec<u8>)>,
    /// The pilot's combined traffic profile including this file (its id is added to the
    /// profile's evidence ids).
    pub traffic_profile: Option<TrafficProfileWrite>,
}

/// Writes an evidence row and what was derived from it inside `tx`; the same content twice on
/// one pilot is a [`super::StoreError::Duplicate`].
pub(crate) async fn insert_evidence_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    new: NewEvidence<'_>,
    derived: DerivedWrites,
) -> StoreResult<i64> {
    let NewEvidence {
        pilot_id,
        kind,
        file_name,
        sha256,
        size_bytes,
        summary_json,
        uploaded_by,
    } = new;
    let row = sqlx::query(
        "INSERT INTO evidence (pilot_id, kind, file_name, sha256, size_bytes, summary, uploaded_by, uploaded_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(pilot_id)
    .bind(kind.as_str())
    .bind(file_name)
    .bind(sha256)
    .bind(size_bytes)
    .bind(summary_json)
    .bind(uploaded_by)
    .bind(now_ms())
    .fetch_one(&mut **tx)
    .await
    .map_err(|e| match conflict(e, Default::default) {
        super::StoreError::Conflict(_) => super::StoreError::Duplicate(crate::error::Said::new(
            format!("{file_name}: this exact file is already evidence of this pilot"),
            format!("{file_name}: genau diese Datei ist bereits ein Nachweis dieses Piloten"),
        )),
        other => other,
    })?;
    let id: i64 = row.try_get("id")?;
    for (name, data) in &derived.rows {
        sqlx::query(
            "INSERT INTO evidence_derived (evidence_id, name, data, computed_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(name)
        .bind(data)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
    }
    if let Some(mut profile) = derived.traffic_profile {
        profile.evidence_ids.push(id);
        write_traffic_profile(tx, pilot_id, &profile).await?;
    }
    // Evidence under an approved plan: the pilot is running (a pilot approved before the
    // status followed the plan catches up here).
    sqlx::query(
        "UPDATE pilots SET status = 'running' WHERE id = $1 AND status = 'planning' \
         AND EXISTS (SELECT 1 FROM plan_versions WHERE pilot_id = $1 AND status = 'approved')",
    )
    .bind(pilot_id)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// A derived row computed after the import; one already there (written by a concurrent view or
/// an earlier backfill) is kept as it is.
const INSERT_DERIVED_IF_ABSENT: &str = "INSERT INTO evidence_derived (evidence_id, name, data, computed_ms) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (evidence_id, name) DO NOTHING";

/// A derived row re-derived from the raw file (a start-up backfill of a newer format): it
/// replaces the row there.
const REPLACE_DERIVED: &str = "INSERT INTO evidence_derived (evidence_id, name, data, computed_ms) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (evidence_id, name) \
     DO UPDATE SET data = excluded.data, computed_ms = excluded.computed_ms";

/// The columns of a pilot's revision stamp ([`Store::pilot_revision`]), in order.
const STAMP_COLUMNS: [&str; 22] = [
    "evidence_rows",
    "last_evidence",
    "evidence_events",
    "last_event",
    "derived_rows",
    "derived_ms",
    "profile_ms",
    "live_rolled",
    "plan_versions",
    "plan_updated",
    "plan_revisions",
    "plan_approvals",
    "set_versions",
    "set_updated",
    "set_revisions",
    "set_approvals",
    "gpus",
    "gpus_ms",
    "models",
    "models_ms",
    "settings",
    "settings_ms",
];

/// The columns a roll of the live gateway feed into a day file already listed changes: the
/// records rolled, the day file's derived rows and the pilot's demand profile.
const LIVE_ROLL_COLUMNS: [&str; 4] = ["derived_rows", "derived_ms", "profile_ms", "live_rolled"];

/// Whether revision stamp `new` differs from `old` only by a roll of the live feed into a day
/// file already listed (more records rolled, nothing else changed: no file added or withdrawn,
/// no plan, catalog or setting changed). The pilot page shows the overview of `old` meanwhile
/// rather than wait for the new one (issue #36).
pub fn live_roll_only(old: &str, new: &str) -> bool {
    let parts = |stamp: &str| -> Option<Vec<i64>> {
        let values: Vec<i64> = stamp
            .strip_suffix(':')?
            .split(':')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        (values.len() == STAMP_COLUMNS.len()).then_some(values)
    };
    let (Some(old), Some(new)) = (parts(old), parts(new)) else {
        return false;
    };
    let mut rolled = false;
    for ((column, before), after) in STAMP_COLUMNS.iter().zip(&old).zip(&new) {
        if before == after {
            continue;
        }
        if !LIVE_ROLL_COLUMNS.contains(column) {
            return false;
        }
        rolled |= *column == "live_rolled" && after > before;
    }
    rolled
}

impl Store {
    /// A stamp of everything a pilot's pages are computed from besides the pilot row: its
    /// evidence (rows, withdrawals and restorations, what was derived from each), its combined
    /// demand profile, its plan
    /// and evaluation-set versions, and the sizing catalog. Two equal stamps mean the same
    /// inputs, so what was computed for one holds for the other (see [`crate::overview`]).
    /// One query of counts and maxima, each over an index.
    pub async fn pilot_revision(&self, pilot_id: i64) -> StoreResult<String> {
        // Every column a BIGINT on both backends (PostgreSQL sums BIGINTs as NUMERIC).
        const STAMP: &str = "SELECT \
             CAST(COALESCE((SELECT COUNT(*) FROM evidence WHERE pilot_id = $1), 0) AS BIGINT) AS evidence_rows, \
             CAST(COALESCE((SELECT MAX(id) FROM evidence WHERE pilot_id = $1), 0) AS BIGINT) AS last_evidence, \
             CAST(COALESCE((SELECT COUNT(*) FROM evidence_events v JOIN evidence e ON e.id = v.evidence_id WHERE e.pilot_id = $1), 0) AS BIGINT) AS evidence_events, \
             CAST(COALESCE((SELECT MAX(v.id) FROM evidence_events v JOIN evidence e ON e.id = v.evidence_id WHERE e.pilot_id = $1), 0) AS BIGINT) AS last_event, \
             CAST(COALESCE((SELECT COUNT(*) FROM evidence_derived d JOIN evidence e ON e.id = d.evidence_id WHERE e.pilot_id = $1), 0) AS BIGINT) AS derived_rows, \
             CAST(COALESCE((SELECT MAX(d.computed_ms) FROM evidence_derived d JOIN evidence e ON e.id = d.evidence_id WHERE e.pilot_id = $1), 0) AS BIGINT) AS derived_ms, \
             CAST(COALESCE((SELECT MAX(computed_ms) FROM traffic_profiles WHERE pilot_id = $1), 0) AS BIGINT) AS profile_ms, \
             CAST(COALESCE((SELECT SUM(rolled) FROM live_gateway_days WHERE pilot_id = $1), 0) AS BIGINT) AS live_rolled, \
             CAST(COALESCE((SELECT COUNT(*) FROM plan_versions WHERE pilot_id = $1), 0) AS BIGINT) AS plan_versions, \
             CAST(COALESCE((SELECT MAX(updated_ms) FROM plan_versions WHERE pilot_id = $1), 0) AS BIGINT) AS plan_updated, \
             CAST(COALESCE((SELECT SUM(revision) FROM plan_versions WHERE pilot_id = $1), 0) AS BIGINT) AS plan_revisions, \
             CAST(COALESCE((SELECT SUM(approved_ms) FROM plan_versions WHERE pilot_id = $1), 0) AS BIGINT) AS plan_approvals, \
             CAST(COALESCE((SELECT COUNT(*) FROM eval_set_versions WHERE pilot_id = $1), 0) AS BIGINT) AS set_versions, \
             CAST(COALESCE((SELECT MAX(updated_ms) FROM eval_set_versions WHERE pilot_id = $1), 0) AS BIGINT) AS set_updated, \
             CAST(COALESCE((SELECT SUM(revision) FROM eval_set_versions WHERE pilot_id = $1), 0) AS BIGINT) AS set_revisions, \
             CAST(COALESCE((SELECT SUM(approved_ms) FROM eval_set_versions WHERE pilot_id = $1), 0) AS BIGINT) AS set_approvals, \
             CAST(COALESCE((SELECT COUNT(*) FROM catalog_gpus), 0) AS BIGINT) AS gpus, \
             CAST(COALESCE((SELECT MAX(updated_ms) FROM catalog_gpus), 0) AS BIGINT) AS gpus_ms, \
             CAST(COALESCE((SELECT COUNT(*) FROM catalog_models), 0) AS BIGINT) AS models, \
             CAST(COALESCE((SELECT MAX(created_ms) FROM catalog_models), 0) AS BIGINT) AS models_ms, \
             CAST(COALESCE((SELECT COUNT(*) FROM settings), 0) AS BIGINT) AS settings, \
             CAST(COALESCE((SELECT MAX(updated_ms) FROM settings), 0) AS BIGINT) AS settings_ms";
        let row = sqlx::query(STAMP)
            .bind(pilot_id)
            .fetch_one(&self.pool)
            .await?;
        let mut stamp = String::new();
        for column in STAMP_COLUMNS {
            let value: i64 = row.try_get(column)?;
            stamp.push_str(&value.to_string());
            stamp.push(':');
        }
        Ok(stamp)
    }

    /// Records an evidence file; the same content twice on one pilot is a conflict naming the
    /// earlier upload.
    pub async fn create_evidence(&self, new: NewEvidence<'_>) -> StoreResult<i64> {
        self.create_evidence_with(new, DerivedWrites::default())
            .await
    }

    /// Records an evidence file and what was derived from it in one transaction: both are
    /// written, or (on any error, or a crash before the commit) neither.
    pub async fn create_evidence_with(
        &self,
        new: NewEvidence<'_>,
        derived: DerivedWrites,
    ) -> StoreResult<i64> {
        let mut tx = self.begin_write().await?;
        let id = insert_evidence_in(&mut tx, new, derived).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// One derived row of an evidence file.
    pub async fn derived(&self, evidence_id: i64, name: &str) -> StoreResult<Option<Vec<u8>>> {
        let row =
            sqlx::query("SELECT data FROM evidence_derived WHERE evidence_id = $1 AND name = $2")
                .bind(evidence_id)
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|row| row.try_get("data")).transpose()?)
    }

    /// The derived rows named `name` of every evidence file of a pilot: (evidence id, data).
    pub async fn derived_of_pilot(
        &self,
        pilot_id: i64,
        name: &str,
    ) -> StoreResult<Vec<(i64, Vec<u8>)>> {
        let rows = sqlx::query(
            "SELECT d.evidence_id, d.data FROM evidence_derived d JOIN evidence e ON e.id = d.evidence_id \
             WHERE e.pilot_id = $1 AND d.name = $2 AND e.withdrawn_ms IS NULL",
        )
        .bind(pilot_id)
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("evidence_id")?, row.try_get("data")?)))
            .collect()
    }

    /// Keeps a derived row computed after the import (a plan version graded for the first
    /// time); a row already there (computed by a concurrent view) is left as it is.
    pub async fn put_derived(&self, evidence_id: i64, name: &str, data: &[u8]) -> StoreResult<()> {
        sqlx::query(INSERT_DERIVED_IF_ABSENT)
            .bind(evidence_id)
            .bind(name)
            .bind(data)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A pilot's evidence **in force** of one kind (all kinds when `None`), newest first, with
    /// each summary: what grades, sizes and reports (withdrawn files are left out; see
    /// [`Store::evidence_register`] for every file).
    pub async fn list_evidence(
        &self,
        pilot_id: i64,
        kind: Option<EvidenceKind>,
    ) -> StoreResult<Vec<(EvidenceFile, String)>> {
        let filter = if kind.is_some() {
            "AND e.kind = $2"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.pilot_id = $1 AND e.withdrawn_ms IS NULL {filter} ORDER BY e.uploaded_ms DESC, e.id DESC"
        );
        let mut query = sqlx::query(&sql).bind(pilot_id);
        if let Some(kind) = kind {
            query = query.bind(kind.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        evidence_with_summaries(&rows)
    }

    /// A pilot's evidence in force whose kind this release does not know (a row written by
    /// another release): it grades nothing, and the pages name it.
    pub async fn evidence_of_unknown_kind(
        &self,
        pilot_id: i64,
    ) -> StoreResult<Vec<UnknownKindEvidence>> {
        let rows = sqlx::query(
            "SELECT id, file_name, kind FROM evidence \
             WHERE pilot_id = $1 AND withdrawn_ms IS NULL ORDER BY uploaded_ms DESC, id DESC",
        )
        .bind(pilot_id)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for row in &rows {
            let kind: String = row.try_get("kind")?;
            if kind.parse::<EvidenceKind>().is_err() {
                out.push(UnknownKindEvidence {
                    id: row.try_get("id")?,
                    file_name: row.try_get("file_name")?,
                    kind,
                });
            }
        }
        Ok(out)
    }

    /// Every evidence row of one kind, over all pilots, with its summary (start-up backfills).
    pub async fn evidence_of_kind(
        &self,
        kind: EvidenceKind,
    ) -> StoreResult<Vec<(EvidenceFile, String)>> {
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.kind = $1 ORDER BY e.id"
        );
        let rows = sqlx::query(&sql)
            .bind(kind.as_str())
            .fetch_all(&self.pool)
            .await?;
        evidence_with_summaries(&rows)
    }

    /// Replaces an evidence row's summary and writes derived rows, replacing rows of the same
    /// names, in one transaction (a backfill of what imports now derive, or of a newer format
    /// of it: the summary and its rows never disagree).
    pub async fn set_evidence_summary(
        &self,
        evidence_id: i64,
        summary_json: &str,
        rows: &[(String, Vec<u8>)],
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE evidence SET summary = $1 WHERE id = $2")
            .bind(summary_json)
            .bind(evidence_id)
            .execute(&mut *tx)
            .await?;
        for (name, data) in rows {
            sqlx::query(REPLACE_DERIVED)
                .bind(evidence_id)
                .bind(name)
                .bind(data)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
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
        Ok(row.as_ref().map(evidence_from_row).transpose()?.flatten())
    }
}

/// One step in an evidence file's life after its upload.
#[derive(Clone, Debug, PartialEq)]
pub struct EvidenceEvent {
    pub evidence_id: i64,
    /// `withdrawn` or `restored`.
    pub action: String,
    pub reason: String,
    /// Who did it: the account's e-mail address, or the front door (`command line`).
    pub by: String,
    pub at_ms: i64,
}

/// A withdrawal or restoration to record (see [`Store::change_evidence_status`]).
#[derive(Clone, Debug)]
pub struct StatusChange<'a> {
    pub pilot_id: i64,
    pub evidence_id: i64,
    /// `true`: withdraw (the file must be in force); `false`: restore (it must be withdrawn).
    pub withdraw: bool,
    pub reason: &'a str,
    pub by_user: Option<i64>,
    pub by_label: &'a str,
}

/// What becomes of the pilot's combined demand profile with a status change.
#[derive(Clone, Debug)]
pub enum ProfileChange {
    /// The file is not a gateway log: the profile stays.
    Keep,
    /// The profile over the gateway logs in force afterwards.
    Replace(TrafficProfileWrite),
    /// No gateway log stays in force.
    Remove,
}

impl Store {
    /// Every evidence file of a pilot, in force or withdrawn, oldest first (the register the
    /// evidence page, the API and the report list).
    pub async fn evidence_register(
        &self,
        pilot_id: i64,
    ) -> StoreResult<Vec<(EvidenceFile, String)>> {
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.pilot_id = $1 ORDER BY e.uploaded_ms, e.id"
        );
        let rows = sqlx::query(&sql)
            .bind(pilot_id)
            .fetch_all(&self.pool)
            .await?;
        evidence_with_summaries(&rows)
    }

    /// How many evidence files the pilot has, in force or withdrawn.
    pub async fn evidence_count(&self, pilot_id: i64) -> StoreResult<u64> {
        let total: i64 =
            sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM evidence WHERE pilot_id = $1")
                .bind(pilot_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(total.max(0) as u64)
    }

    /// One page of the register, newest first (`limit` files after the newest `offset`): the
    /// evidence page reads only what it shows.
    pub async fn evidence_register_page(
        &self,
        pilot_id: i64,
        limit: u32,
        offset: u64,
    ) -> StoreResult<Vec<(EvidenceFile, String)>> {
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.pilot_id = $1 ORDER BY e.uploaded_ms DESC, e.id DESC LIMIT $2 OFFSET $3"
        );
        let rows = sqlx::query(&sql)
            .bind(pilot_id)
            .bind(i64::from(limit))
            .bind(i64::try_from(offset).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
        evidence_with_summaries(&rows)
    }

    /// One evidence file of a pilot with its summary, in force or withdrawn.
    pub async fn evidence_file(
        &self,
        pilot_id: i64,
        evidence_id: i64,
    ) -> StoreResult<Option<(EvidenceFile, String)>> {
        let sql = format!(
            "SELECT {EVIDENCE_COLUMNS} FROM evidence e LEFT JOIN users u ON u.id = e.uploaded_by \
             WHERE e.pilot_id = $1 AND e.id = $2"
        );
        let row = sqlx::query(&sql)
            .bind(pilot_id)
            .bind(evidence_id)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => Ok(evidence_with_summaries(std::slice::from_ref(&row))?.pop()),
            None => Ok(None),
        }
    }

    /// The withdrawals and restorations of a pilot's evidence, in the order they happened.
    pub async fn evidence_events(&self, pilot_id: i64) -> StoreResult<Vec<EvidenceEvent>> {
        let rows = sqlx::query(
            "SELECT v.evidence_id, v.action, v.reason, v.by_label, u.email AS by_email, v.at_ms \
             FROM evidence_events v JOIN evidence e ON e.id = v.evidence_id \
             LEFT JOIN users u ON u.id = v.by_user WHERE e.pilot_id = $1 ORDER BY v.id",
        )
        .bind(pilot_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let email: Option<String> = row.try_get("by_email")?;
                Ok(EvidenceEvent {
                    evidence_id: row.try_get("evidence_id")?,
                    action: row.try_get("action")?,
                    reason: row.try_get("reason")?,
                    by: email.unwrap_or(row.try_get("by_label")?),
                    at_ms: row.try_get("at_ms")?,
                })
            })
            .collect()
    }

    /// Withdraws or restores a file, records the event and writes the pilot's demand profile
    /// as it is afterwards, in one transaction. The status is changed only from the state the
    /// caller saw: a concurrent change of the same file is a conflict, and nothing is written.
    pub async fn change_evidence_status(
        &self,
        change: StatusChange<'_>,
        profile: ProfileChange,
    ) -> StoreResult<()> {
        let now = now_ms();
        let mut tx = self.begin_write().await?;
        let (update, action) = if change.withdraw {
            (
                sqlx::query(
                    "UPDATE evidence SET withdrawn_ms = $1 WHERE id = $2 AND pilot_id = $3 \
                     AND withdrawn_ms IS NULL",
                )
                .bind(now),
                "withdrawn",
            )
        } else {
            (
                sqlx::query(
                    "UPDATE evidence SET withdrawn_ms = NULL WHERE id = $1 AND pilot_id = $2 \
                     AND withdrawn_ms IS NOT NULL",
                ),
                "restored",
            )
        };
        let changed = update
            .bind(change.evidence_id)
            .bind(change.pilot_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed != 1 {
            return Err(super::StoreError::Conflict(crate::error::Said::new(
                format!(
                    "evidence #{} changed meanwhile; reload and try again",
                    change.evidence_id
                ),
                format!(
                    "Nachweis #{} hat sich inzwischen geändert; laden Sie neu und versuchen Sie \
                     es noch einmal",
                    change.evidence_id
                ),
            )));
        }
        sqlx::query(
            "INSERT INTO evidence_events (evidence_id, action, reason, by_user, by_label, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(change.evidence_id)
        .bind(action)
        .bind(change.reason)
        .bind(change.by_user)
        .bind(change.by_label)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        match profile {
            ProfileChange::Keep => {}
            ProfileChange::Replace(write) => {
                write_traffic_profile(&mut tx, change.pilot_id, &write).await?
            }
            ProfileChange::Remove => {
                sqlx::query("DELETE FROM traffic_profiles WHERE pilot_id = $1")
                    .bind(change.pilot_id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{STAMP_COLUMNS, live_roll_only};

    /// A stamp with every column 10, then `changes` applied.
    fn stamp(changes: &[(&str, i64)]) -> String {
        STAMP_COLUMNS
            .iter()
            .map(|column| {
                let value = changes
                    .iter()
                    .find(|(c, _)| c == column)
                    .map_or(10, |(_, v)| *v);
                format!("{value}:")
            })
            .collect()
    }

    #[test]
    fn more_records_rolled_into_a_listed_day_is_a_live_roll() {
        let before = stamp(&[]);
        let rolled = stamp(&[("live_rolled", 42), ("profile_ms", 99), ("derived_ms", 98)]);
        assert!(live_roll_only(&before, &rolled));
        // Nothing rolled, or fewer records (a day withdrawn): not a roll.
        assert!(!live_roll_only(&before, &before));
        assert!(!live_roll_only(&before, &stamp(&[("profile_ms", 99)])));
        assert!(!live_roll_only(&before, &stamp(&[("live_rolled", 3)])));
    }

    #[test]
    fn a_new_file_a_withdrawal_or_a_plan_change_is_not() {
        let before = stamp(&[]);
        for column in [
            "evidence_rows",
            "last_evidence",
            "evidence_events",
            "plan_revisions",
            "gpus_ms",
            "settings_ms",
        ] {
            let changed = stamp(&[("live_rolled", 42), (column, 11)]);
            assert!(!live_roll_only(&before, &changed), "{column}");
        }
        // A stamp of another shape never passes.
        assert!(!live_roll_only(&before, "1:2:3:"));
        assert!(!live_roll_only("", ""));
    }
}
