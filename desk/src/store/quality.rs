//! Evaluation set versions (issue #7): every version of a pilot's evaluation set.
//!
//! Kept like the plan's versions ([`super::plans`]): a draft changes only through a guarded
//! `UPDATE … WHERE status = 'draft' AND revision = <the revision the editor loaded>`, approval is
//! the same guarded `UPDATE`, and the migration's trigger refuses any change to an approved
//! version's items, number, status or approval time whatever statement tries it. At most one
//! draft is open per pilot (a partial unique index).

use super::plans::DraftWrite;
use super::{Store, StoreError, StoreResult, now_ms};
use crate::quality::EvalSetVersion;
use engine::quality::EvalSet;
use sqlx::Row;
use sqlx::any::AnyRow;

const COLUMNS: &str = "v.pilot_id, v.number, v.status, v.items, v.revision, v.source, \
     v.evidence_id, v.created_ms, v.updated_ms, v.approved_ms, \
     cu.name AS created_by_name, cu.email AS created_by_email, \
     au.name AS approved_by_name, au.email AS approved_by_email";

fn person(name: Option<String>, email: Option<String>) -> String {
    match (name, email) {
        (Some(name), _) if !name.trim().is_empty() => name,
        (_, Some(email)) => email,
        _ => "a former user".into(),
    }
}

fn version_from_row(row: &AnyRow) -> StoreResult<EvalSetVersion> {
    let items: String = row.try_get("items")?;
    let set: EvalSet = serde_json::from_str(&items)
        .map_err(|e| StoreError::Corrupt(format!("eval_set_versions.items: {e}")))?;
    let status: String = row.try_get("status")?;
    let approved = match status.as_str() {
        "draft" => false,
        "approved" => true,
        other => {
            return Err(StoreError::Corrupt(format!(
                "eval_set_versions.status = `{other}`"
            )));
        }
    };
    let number: i64 = row.try_get("number")?;
    let approved_ms: Option<i64> = row.try_get("approved_ms")?;
    Ok(EvalSetVersion {
        pilot_id: row.try_get("pilot_id")?,
        number: u32::try_from(number)
            .map_err(|_| StoreError::Corrupt(format!("eval_set_versions.number = {number}")))?,
        approved,
        set,
        revision: row.try_get("revision")?,
        source: row.try_get("source")?,
        evidence_id: row.try_get("evidence_id")?,
        created_by_name: person(
            row.try_get("created_by_name")?,
            row.try_get("created_by_email")?,
        ),
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        approved_by_name: approved_ms.map(|_| {
            person(
                row.try_get("approved_by_name").ok().flatten(),
                row.try_get("approved_by_email").ok().flatten(),
            )
        }),
        approved_ms,
    })
}

fn items_json(set: &EvalSet) -> StoreResult<String> {
    serde_json::to_string(set)
        .map_err(|e| StoreError::Corrupt(format!("evaluation set does not serialise: {e}")))
}

impl Store {
    /// Every version of pilot `pilot_id`'s evaluation set, oldest first.
    pub async fn eval_set_versions(&self, pilot_id: i64) -> StoreResult<Vec<EvalSetVersion>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM eval_set_versions v \
             LEFT JOIN users cu ON cu.id = v.created_by \
             LEFT JOIN users au ON au.id = v.approved_by \
             WHERE v.pilot_id = $1 ORDER BY v.number"
        );
        let rows = sqlx::query(&sql)
            .bind(pilot_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(version_from_row).collect()
    }

    /// Stores draft version `number`. A number already taken or a draft already open is a
    /// [`StoreError::Conflict`].
    pub async fn insert_eval_set_version(
        &self,
        pilot_id: i64,
        number: u32,
        set: &EvalSet,
        source: &str,
        evidence_id: Option<i64>,
        created_by: Option<i64>,
    ) -> StoreResult<()> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO eval_set_versions (pilot_id, number, status, items, revision, source, \
                                            evidence_id, created_by, created_ms, updated_ms) \
             VALUES ($1, $2, 'draft', $3, 1, $4, $5, $6, $7, $7)",
        )
        .bind(pilot_id)
        .bind(i64::from(number))
        .bind(items_json(set)?)
        .bind(source)
        .bind(evidence_id)
        .bind(created_by)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(|e| {
            super::conflict(e, || {
                crate::error::Said::new(
                    "the evaluation set changed meanwhile (someone else started a version); \
                     reload the page",
                    "der Evaluationsdatensatz hat sich inzwischen geändert (jemand anderes hat \
                     eine Version begonnen); laden Sie die Seite neu",
                )
            })
        })?;
        Ok(())
    }

    /// Replaces the items of draft version `number` if it is still a draft at `revision`
    /// (`None`: whatever its revision, for an upload replacing the draft); `source` and
    /// `evidence_id` say where the items came from.
    pub async fn update_eval_set_draft(
        &self,
        pilot_id: i64,
        number: u32,
        revision: Option<i64>,
        set: &EvalSet,
        source: &str,
        evidence_id: Option<i64>,
    ) -> StoreResult<DraftWrite> {
        let guard = if revision.is_some() {
            "AND revision = $7"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE eval_set_versions SET items = $1, source = $2, evidence_id = $3, \
                                          revision = revision + 1, updated_ms = $4 \
             WHERE pilot_id = $5 AND number = $6 AND status = 'draft' {guard}"
        );
        let mut query = sqlx::query(&sql)
            .bind(items_json(set)?)
            .bind(source)
            .bind(evidence_id)
            .bind(now_ms())
            .bind(pilot_id)
            .bind(i64::from(number));
        if let Some(revision) = revision {
            query = query.bind(revision);
        }
        let done = query.execute(&self.pool).await?.rows_affected();
        if done > 0 {
            Ok(DraftWrite::Done(revision.unwrap_or_default() + 1))
        } else {
            self.version_write_refusal("eval_set_versions", pilot_id, number)
                .await
        }
    }

    /// Approves draft version `number` (at `revision`, or any revision when `None`): records who
    /// and when; from then on the version is frozen.
    pub async fn approve_eval_set_version(
        &self,
        pilot_id: i64,
        number: u32,
        revision: Option<i64>,
        approved_by: i64,
    ) -> StoreResult<DraftWrite> {
        let guard = if revision.is_some() {
            "AND revision = $5"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE eval_set_versions SET status = 'approved', approved_by = $1, approved_ms = $2, \
                                          updated_ms = $2 \
             WHERE pilot_id = $3 AND number = $4 AND status = 'draft' {guard}"
        );
        let mut query = sqlx::query(&sql)
            .bind(approved_by)
            .bind(now_ms())
            .bind(pilot_id)
            .bind(i64::from(number));
        if let Some(revision) = revision {
            query = query.bind(revision);
        }
        let done = query.execute(&self.pool).await?.rows_affected();
        if done > 0 {
            Ok(DraftWrite::Done(revision.unwrap_or_default()))
        } else {
            self.version_write_refusal("eval_set_versions", pilot_id, number)
                .await
        }
    }
}
