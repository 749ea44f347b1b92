//! What a plain form's answer says on the page it redirects to (see
//! `migrations/*/0017_notices.sql` and [`crate::notices`]).

use super::{Store, StoreResult};
use sqlx::Row;

/// A notice as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NoticeRow {
    pub token: String,
    pub user_id: i64,
    pub pilot_id: i64,
    /// `error` or `done`.
    pub kind: String,
    pub message: String,
    pub created_ms: i64,
}

impl Store {
    /// Keeps a notice, removing those created before `expired_before_ms`.
    pub async fn put_notice(&self, row: &NoticeRow, expired_before_ms: i64) -> StoreResult<()> {
        sqlx::query("DELETE FROM notices WHERE created_ms < $1")
            .bind(expired_before_ms)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO notices (token, user_id, pilot_id, kind, message, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&row.token)
        .bind(row.user_id)
        .bind(row.pilot_id)
        .bind(&row.kind)
        .bind(&row.message)
        .bind(row.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The notice `token` if it was written for `user_id` on `pilot_id` at or after
    /// `created_after_ms`.
    pub async fn notice(
        &self,
        token: &str,
        user_id: i64,
        pilot_id: i64,
        created_after_ms: i64,
    ) -> StoreResult<Option<NoticeRow>> {
        let row = sqlx::query(
            "SELECT token, user_id, pilot_id, kind, message, created_ms FROM notices \
             WHERE token = $1 AND user_id = $2 AND pilot_id = $3 AND created_ms >= $4",
        )
        .bind(token)
        .bind(user_id)
        .bind(pilot_id)
        .bind(created_after_ms)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(NoticeRow {
                token: row.try_get("token")?,
                user_id: row.try_get("user_id")?,
                pilot_id: row.try_get("pilot_id")?,
                kind: row.try_get("kind")?,
                message: row.try_get("message")?,
                created_ms: row.try_get("created_ms")?,
            })
        })
        .transpose()
    }
}
