//! Pilot plans: every version of a pilot's plan (the SQL of issue #4).
//!
//! A version is one row of `plan_versions`; its content is the JSON of the engine's
//! [`PlanContent`]. The life-cycle rules (who may approve, what an amendment needs, what is valid)
//! are the engine's ([`engine::plan::version`]); the store makes them stick:
//!
//! * a draft changes only through [`Store::update_plan_draft`], whose `UPDATE` touches the row
//!   only `WHERE status = 'draft' AND revision = <the revision the editor loaded>`, so an approved
//!   version is never rewritten and a stale form never overwrites someone else's save;
//! * approval is the same guarded `UPDATE` setting who and when;
//! * on top of that the migration's trigger refuses any change to an approved row's content,
//!   number, status, reason or approval time, whatever statement tries it;
//! * versions are numbered per pilot (`UNIQUE (pilot_id, number)`) and at most one draft is open
//!   per pilot (a partial unique index), so two amendments racing each other cannot both land.
//!
//! Each write is a single statement, hence its own transaction.

use super::{Store, StoreError, StoreResult, now_ms, parse_column};
use crate::plans::PlanVersionRecord;
use engine::plan::{PlanContent, PlanStatus, PlanVersion};
use sqlx::Row;
use sqlx::any::AnyRow;

/// What became of a guarded write to a draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraftWrite {
    /// Written; the draft's new revision.
    Done(i64),
    /// The version is approved and frozen.
    Frozen,
    /// Someone saved the draft since the caller loaded it (its revision moved on).
    Stale,
    /// No such version.
    Missing,
}

const VERSION_COLUMNS: &str = "v.pilot_id, v.number, v.status, v.content, v.revision, \
     v.created_by, v.created_ms, v.updated_ms, v.amendment_reason, v.approved_by, v.approved_ms, \
     v.submitted_by, v.submitted_ms, \
     cu.name AS created_by_name, cu.email AS created_by_email, \
     au.name AS approved_by_name, au.email AS approved_by_email, \
     su.name AS submitted_by_name, su.email AS submitted_by_email";

/// The joins [`VERSION_COLUMNS`] reads its names through.
const VERSION_JOINS: &str = "LEFT JOIN users cu ON cu.id = v.created_by \
     LEFT JOIN users au ON au.id = v.approved_by \
     LEFT JOIN users su ON su.id = v.submitted_by";

/// A person's name as pages show it: the name, else the e-mail address.
fn person(name: Option<String>, email: Option<String>) -> Option<String> {
    match (name, email) {
        (Some(name), _) if !name.trim().is_empty() => Some(name),
        (_, Some(email)) => Some(email),
        _ => None,
    }
}

/// The person of a version's `{role}_name` / `{role}_email` columns ([`person`]), or "a former
/// user" when the account is gone.
fn person_of(row: &AnyRow, role: &str) -> String {
    person(
        row.try_get(format!("{role}_name").as_str()).ok().flatten(),
        row.try_get(format!("{role}_email").as_str()).ok().flatten(),
    )
    .unwrap_or_else(|| "a former user".into())
}

fn version_from_row(row: &AnyRow) -> StoreResult<PlanVersionRecord> {
    let number: i64 = row.try_get("number")?;
    let content: String = row.try_get("content")?;
    let content: PlanContent = serde_json::from_str(&content)
        .map_err(|e| StoreError::Corrupt(format!("plan_versions.content: {e}")))?;
    let status: String = row.try_get("status")?;
    let status = match status.as_str() {
        "draft" => PlanStatus::Draft,
        "approved" => PlanStatus::Approved,
        other => {
            return Err(StoreError::Corrupt(format!(
                "plan_versions.status = `{other}`"
            )));
        }
    };
    let approved_ms: Option<i64> = row.try_get("approved_ms")?;
    let submitted_ms: Option<i64> = row.try_get("submitted_ms")?;
    Ok(PlanVersionRecord {
        pilot_id: row.try_get("pilot_id")?,
        number: parse_column(number.to_string(), "plan_versions.number")?,
        status,
        content,
        revision: row.try_get("revision")?,
        created_by: row.try_get("created_by")?,
        created_by_name: person(
            row.try_get("created_by_name")?,
            row.try_get("created_by_email")?,
        )
        .unwrap_or_else(|| "a former user".into()),
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        amendment_reason: row.try_get("amendment_reason")?,
        approved_by: row.try_get("approved_by")?,
        approved_by_name: approved_ms.map(|_| person_of(row, "approved_by")),
        approved_ms,
        submitted_by: row.try_get("submitted_by")?,
        submitted_by_name: submitted_ms.map(|_| person_of(row, "submitted_by")),
        submitted_ms,
    })
}

fn content_json(content: &PlanContent) -> StoreResult<String> {
    serde_json::to_string(content)
        .map_err(|e| StoreError::Corrupt(format!("plan content does not serialise: {e}")))
}

/// Maps a unique-constraint violation of a new version to a message for the user.
fn version_conflict(error: sqlx::Error) -> StoreError {
    super::conflict(error, || {
        crate::error::Said::new(
            "the plan changed meanwhile (someone else created or amended a version); reload the \
             page",
            "der Plan hat sich inzwischen geändert (jemand anderes hat eine Version angelegt \
             oder geändert); laden Sie die Seite neu",
        )
    })
}

impl Store {
    /// Every version of pilot `pilot_id`'s plan, oldest first.
    pub async fn plan_versions(&self, pilot_id: i64) -> StoreResult<Vec<PlanVersionRecord>> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS} FROM plan_versions v {VERSION_JOINS} \
             WHERE v.pilot_id = $1 ORDER BY v.number"
        );
        let rows = sqlx::query(&sql)
            .bind(pilot_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(version_from_row).collect()
    }

    /// The approved version with the highest number: the plan in force.
    pub async fn plan_in_force(&self, pilot_id: i64) -> StoreResult<Option<PlanVersionRecord>> {
        Ok(self
            .plan_versions(pilot_id)
            .await?
            .into_iter()
            .filter(|v| v.status == PlanStatus::Approved)
            .max_by_key(|v| v.number))
    }

    /// Stores a new draft version: version 1 of a new plan, or an amendment (its number is the
    /// latest plus one and it carries its reason). A version number already taken or a draft
    /// already open is a [`StoreError::Conflict`].
    pub async fn insert_plan_version(
        &self,
        pilot_id: i64,
        version: &PlanVersion,
        created_by: Option<i64>,
    ) -> StoreResult<()> {
        if version.approval.is_some() {
            return Err(StoreError::Corrupt(
                "a new plan version starts as a draft".into(),
            ));
        }
        let content = content_json(&version.content)?;
        let now = now_ms();
        sqlx::query(
            "INSERT INTO plan_versions (pilot_id, number, status, content, revision, created_by, \
                                        created_ms, updated_ms, amendment_reason) \
             VALUES ($1, $2, 'draft', $3, 1, $4, $5, $5, $6)",
        )
        .bind(pilot_id)
        .bind(i64::from(version.number))
        .bind(content)
        .bind(created_by)
        .bind(now)
        .bind(version.amendment_reason.as_deref())
        .execute(&self.pool)
        .await
        .map_err(version_conflict)?;
        Ok(())
    }

    /// Classifies why a guarded write to version `number` of a versioned table
    /// (`plan_versions`, `eval_set_versions`: a `status` of `draft` or `approved` per pilot and
    /// number) touched no row.
    pub(super) async fn version_write_refusal(
        &self,
        table: &'static str,
        pilot_id: i64,
        number: u32,
    ) -> StoreResult<DraftWrite> {
        let sql = format!("SELECT status FROM {table} WHERE pilot_id = $1 AND number = $2");
        let row = sqlx::query(&sql)
            .bind(pilot_id)
            .bind(i64::from(number))
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            None => DraftWrite::Missing,
            Some(row) if row.try_get::<String, _>("status")? == "approved" => DraftWrite::Frozen,
            Some(_) => DraftWrite::Stale,
        })
    }

    /// Replaces the content of draft version `number`, if it is still a draft at revision
    /// `revision`; an approved version is never touched.
    pub async fn update_plan_draft(
        &self,
        pilot_id: i64,
        number: u32,
        revision: i64,
        content: &PlanContent,
    ) -> StoreResult<DraftWrite> {
        let content = content_json(content)?;
        let done = sqlx::query(
            "UPDATE plan_versions SET content = $1, revision = revision + 1, updated_ms = $2, \
                                      submitted_ms = NULL, submitted_by = NULL \
             WHERE pilot_id = $3 AND number = $4 AND status = 'draft' AND revision = $5",
        )
        .bind(content)
        .bind(now_ms())
        .bind(pilot_id)
        .bind(i64::from(number))
        .bind(revision)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if done > 0 {
            Ok(DraftWrite::Done(revision + 1))
        } else {
            self.version_write_refusal("plan_versions", pilot_id, number)
                .await
        }
    }

    /// Approves draft version `number` at revision `revision`: records who and when, and from
    /// then on the version is frozen.
    pub async fn approve_plan_version(
        &self,
        pilot_id: i64,
        number: u32,
        revision: i64,
        approved_by: i64,
        approved_ms: i64,
    ) -> StoreResult<DraftWrite> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE plan_versions SET status = 'approved', approved_by = $1, approved_ms = $2, \
                                      updated_ms = $2 \
             WHERE pilot_id = $3 AND number = $4 AND status = 'draft' AND revision = $5",
        )
        .bind(approved_by)
        .bind(approved_ms)
        .bind(pilot_id)
        .bind(i64::from(number))
        .bind(revision)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if done > 0 {
            // The plan is frozen before the first pilot user logs in: the pilot runs now (a
            // status set further on by hand stays).
            sqlx::query(
                "UPDATE pilots SET status = 'running' WHERE id = $1 AND status = 'planning'",
            )
            .bind(pilot_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(DraftWrite::Done(revision))
        } else {
            drop(tx);
            self.version_write_refusal("plan_versions", pilot_id, number)
                .await
        }
    }

    /// Submits draft version `number` at revision `revision` for approval (who, when); a later
    /// save of the draft takes the submission back ([`Store::update_plan_draft`]).
    pub async fn submit_plan_draft(
        &self,
        pilot_id: i64,
        number: u32,
        revision: i64,
        submitted_by: i64,
        at_ms: i64,
    ) -> StoreResult<DraftWrite> {
        let done = sqlx::query(
            "UPDATE plan_versions SET submitted_ms = $1, submitted_by = $2 \
             WHERE pilot_id = $3 AND number = $4 AND status = 'draft' AND revision = $5",
        )
        .bind(at_ms)
        .bind(submitted_by)
        .bind(pilot_id)
        .bind(i64::from(number))
        .bind(revision)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if done > 0 {
            Ok(DraftWrite::Done(revision))
        } else {
            self.version_write_refusal("plan_versions", pilot_id, number)
                .await
        }
    }

    /// Every draft submitted for approval on a pilot that is not archived, oldest submission
    /// first, with its pilot's name and organisation: the approval inbox.
    pub async fn submitted_plan_drafts(
        &self,
    ) -> StoreResult<Vec<(PlanVersionRecord, String, String)>> {
        let sql = format!(
            "SELECT {VERSION_COLUMNS}, p.name AS pilot_name, o.name AS organisation_name \
             FROM plan_versions v {VERSION_JOINS} \
             JOIN pilots p ON p.id = v.pilot_id \
             JOIN organisations o ON o.id = p.organisation_id \
             WHERE v.status = 'draft' AND v.submitted_ms IS NOT NULL AND p.archived_ms IS NULL \
             ORDER BY v.submitted_ms, v.id"
        );
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                Ok((
                    version_from_row(row)?,
                    row.try_get("pilot_name")?,
                    row.try_get("organisation_name")?,
                ))
            })
            .collect()
    }

    /// Deletes draft version `number` (never an approved one); false when there is no such
    /// draft.
    pub async fn discard_plan_draft(&self, pilot_id: i64, number: u32) -> StoreResult<bool> {
        let done = sqlx::query(
            "DELETE FROM plan_versions WHERE pilot_id = $1 AND number = $2 AND status = 'draft'",
        )
        .bind(pilot_id)
        .bind(i64::from(number))
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(done > 0)
    }
}
