//! The sizing catalog's additions: admin-edited GPUs with their prices, pasted models.

use super::{Store, StoreResult, conflict, now_ms};
use sqlx::Row;

/// A row of `catalog_gpus`: the GPU spec JSON when added/edited, the unit price and the price
/// per GPU-hour.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuRow {
    pub id: String,
    pub spec_json: Option<String>,
    pub unit_price: Option<f64>,
    pub hour_price: Option<f64>,
}

/// The two prices of a GPU (staff-only): per card bought, per GPU-hour run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GpuPrices {
    pub unit_price: Option<f64>,
    pub hour_price: Option<f64>,
}

impl Store {
    pub async fn catalog_gpu_rows(&self) -> StoreResult<Vec<GpuRow>> {
        let rows =
            sqlx::query("SELECT id, spec, unit_price, hour_price FROM catalog_gpus ORDER BY id")
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|row| {
                Ok(GpuRow {
                    id: row.try_get("id")?,
                    spec_json: row.try_get("spec")?,
                    unit_price: row.try_get("unit_price")?,
                    hour_price: row.try_get("hour_price")?,
                })
            })
            .collect()
    }

    /// Adds or replaces a GPU (spec JSON) keeping its spec when none is given, or sets only the
    /// prices (both are written: an empty one clears).
    pub async fn upsert_catalog_gpu(
        &self,
        id: &str,
        spec_json: Option<&str>,
        prices: GpuPrices,
        user_id: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO catalog_gpus (id, spec, unit_price, hour_price, updated_by, updated_ms) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (id) DO UPDATE SET spec = COALESCE(excluded.spec, catalog_gpus.spec), \
             unit_price = excluded.unit_price, hour_price = excluded.hour_price, \
             updated_by = excluded.updated_by, updated_ms = excluded.updated_ms",
        )
        .bind(id)
        .bind(spec_json)
        .bind(prices.unit_price)
        .bind(prices.hour_price)
        .bind(user_id)
        .bind(now_ms())
        // Prepared afresh each time, never cached: sqlx 0.8.6's `Any` driver sends a missing
        // price (a `None` f64) typed as a 4-byte float (its NULL float kinds are swapped, sqlx
        // issue #4284), and PostgreSQL keeps the parameter types of a connection's cached
        // statement, so a price set after one cleared on the same connection was refused
        // ("incorrect binary data format"). The only statement binding optional floats.
        .persistent(false)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes an installation's GPU row (an added GPU disappears; a built-in one returns to
    /// its reviewed figures and loses its price). False when there was none.
    pub async fn delete_catalog_gpu(&self, id: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM catalog_gpus WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(done > 0)
    }

    /// Pasted models: (id, spec JSON).
    pub async fn catalog_model_rows(&self) -> StoreResult<Vec<(String, String)>> {
        let rows = sqlx::query("SELECT id, spec FROM catalog_models ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("spec")?)))
            .collect()
    }

    pub async fn create_catalog_model(
        &self,
        id: &str,
        spec_json: &str,
        config: &str,
        user_id: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO catalog_models (id, spec, config, created_by, created_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(spec_json)
        .bind(config)
        .bind(user_id)
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(|e| {
            conflict(e, || {
                crate::error::Said::new(
                    format!("id: a model with the id `{id}` already exists"),
                    format!("id: ein Modell mit der ID `{id}` gibt es bereits"),
                )
            })
        })?;
        Ok(())
    }

    pub async fn delete_catalog_model(&self, id: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM catalog_models WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(done > 0)
    }
}

/// The setting that names the currency of the catalog's prices.
const PRICE_CURRENCY: &str = "price_currency";

impl Store {
    /// The currency the catalog's prices are entered in (ISO 4217), when an admin has set one.
    pub async fn price_currency(&self) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind(PRICE_CURRENCY)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.try_get("value")).transpose()?)
    }

    /// Sets the prices' currency, or with `None` removes it.
    pub async fn set_price_currency(
        &self,
        currency: Option<&str>,
        user_id: i64,
    ) -> StoreResult<()> {
        match currency {
            Some(code) => {
                sqlx::query(
                    "INSERT INTO settings (key, value, updated_by, updated_ms) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (key) DO UPDATE SET value = excluded.value, \
                     updated_by = excluded.updated_by, updated_ms = excluded.updated_ms",
                )
                .bind(PRICE_CURRENCY)
                .bind(code)
                .bind(user_id)
                .bind(now_ms())
                .execute(&self.pool)
                .await?;
            }
            None => {
                sqlx::query("DELETE FROM settings WHERE key = $1")
                    .bind(PRICE_CURRENCY)
                    .execute(&self.pool)
                    .await?;
            }
        }
        Ok(())
    }
}
