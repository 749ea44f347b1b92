//! When each pass mark first became gradable (see `migrations/*/0020_gradable_marks.sql` and
//! [`crate::overview`]).

use super::{Store, StoreResult};
use sqlx::Row;
use std::collections::HashMap;

impl Store {
    /// Notes `now_ms` as the moment each of `notations` (marks of plan `plan_version` that grade
    /// now) became gradable, keeping any moment noted before, and answers the moment of every
    /// mark of that version noted so far, by notation.
    pub async fn note_gradable(
        &self,
        pilot_id: i64,
        plan_version: u32,
        notations: &[&str],
        now_ms: i64,
    ) -> StoreResult<HashMap<String, i64>> {
        let version = i64::from(plan_version);
        let known = self.gradable_since(pilot_id, plan_version).await?;
        let new: Vec<&&str> = notations
            .iter()
            .filter(|n| !known.contains_key(**n))
            .collect();
        if new.is_empty() {
            return Ok(known);
        }
        // Only marks not noted yet: a view of an unchanged pilot writes nothing.
        let mut tx = self.begin_write().await?;
        for notation in new {
            sqlx::query(
                "INSERT INTO gradable_marks (pilot_id, plan_version, notation, first_ms) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (pilot_id, plan_version, notation) DO NOTHING",
            )
            .bind(pilot_id)
            .bind(version)
            .bind(*notation)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        self.gradable_since(pilot_id, plan_version).await
    }

    /// The moment each mark of plan `plan_version` first became gradable, by notation.
    pub async fn gradable_since(
        &self,
        pilot_id: i64,
        plan_version: u32,
    ) -> StoreResult<HashMap<String, i64>> {
        let rows = sqlx::query(
            "SELECT notation, first_ms FROM gradable_marks \
             WHERE pilot_id = $1 AND plan_version = $2",
        )
        .bind(pilot_id)
        .bind(i64::from(plan_version))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("notation")?, row.try_get("first_ms")?)))
            .collect()
    }
}
