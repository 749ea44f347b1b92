//! The pilot's combined demand profile (see `migrations/*/0006_traffic.sql`).

use super::{Store, StoreResult, now_ms};
use sqlx::Row;

/// The cached demand profile of a pilot, combined over its gateway logs.
#[derive(Clone, Debug)]
pub struct StoredProfile {
    /// The `DemandProfile` JSON.
    pub profile_json: String,
    /// Evidence ids of the gateway logs it covers.
    pub evidence_ids: Vec<i64>,
    pub requests: i64,
    pub skipped_lines: i64,
    pub computed_ms: i64,
}

/// A combined profile to store (see [`write_traffic_profile`]).
#[derive(Clone, Debug)]
pub struct TrafficProfileWrite {
    pub profile_json: String,
    /// The gateway logs it covers.
    pub evidence_ids: Vec<i64>,
    pub requests: i64,
    pub skipped_lines: i64,
}

/// Replaces the pilot's combined profile inside `tx` (so an upload writes its evidence row and
/// the profile that includes it together, or neither).
pub(crate) async fn write_traffic_profile(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    pilot_id: i64,
    profile: &TrafficProfileWrite,
) -> StoreResult<()> {
    let ids = serde_json::to_string(&profile.evidence_ids).unwrap_or_else(|_| "[]".into());
    sqlx::query("DELETE FROM traffic_profiles WHERE pilot_id = $1")
        .bind(pilot_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO traffic_profiles (pilot_id, profile, evidence_ids, requests, skipped_lines, computed_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(pilot_id)
    .bind(&profile.profile_json)
    .bind(ids)
    .bind(profile.requests)
    .bind(profile.skipped_lines)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Stores (replaces) the pilot's combined profile.
    pub async fn put_traffic_profile(
        &self,
        pilot_id: i64,
        profile_json: &str,
        evidence_ids: &[i64],
        requests: i64,
        skipped_lines: i64,
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        write_traffic_profile(
            &mut tx,
            pilot_id,
            &TrafficProfileWrite {
                profile_json: profile_json.to_string(),
                evidence_ids: evidence_ids.to_vec(),
                requests,
                skipped_lines,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The pilot's combined profile, if it has a gateway log.
    pub async fn traffic_profile(&self, pilot_id: i64) -> StoreResult<Option<StoredProfile>> {
        let row = sqlx::query(
            "SELECT profile, evidence_ids, requests, skipped_lines, computed_ms \
             FROM traffic_profiles WHERE pilot_id = $1",
        )
        .bind(pilot_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let ids: String = row.try_get("evidence_ids")?;
            Ok(StoredProfile {
                profile_json: row.try_get("profile")?,
                evidence_ids: serde_json::from_str(&ids)
                    .map_err(|_| super::StoreError::Corrupt(format!("evidence_ids = `{ids}`")))?,
                requests: row.try_get("requests")?,
                skipped_lines: row.try_get("skipped_lines")?,
                computed_ms: row.try_get("computed_ms")?,
            })
        })
        .transpose()
    }
}
