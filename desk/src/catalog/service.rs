//! The effective sizing catalog: the reviewed tables overlaid with this installation's rows.

use crate::ServiceError;
use crate::model::{CatalogGpu, CatalogModel, CatalogOrigin, SizingCatalog};
use crate::store::Store;
use engine::sizing::{GpuSpec, ModelSpec};

fn corrupt(what: &str, id: &str) -> ServiceError {
    tracing::error!(what, id, "stored catalog row is not readable");
    ServiceError::Internal
}

/// Reviewed GPUs and models, with edited GPUs replaced, added ones appended, prices (per card
/// and per GPU-hour) attached,
/// and pasted models appended.
pub async fn effective_catalog(store: &Store) -> Result<SizingCatalog, ServiceError> {
    let mut catalog = SizingCatalog::reviewed();
    for row in store.catalog_gpu_rows().await? {
        let spec: Option<GpuSpec> = row
            .spec_json
            .as_deref()
            .map(|json| serde_json::from_str(json).map_err(|_| corrupt("gpu", &row.id)))
            .transpose()?;
        match catalog.gpus.iter_mut().find(|g| g.spec.id == row.id) {
            Some(existing) => {
                if let Some(spec) = spec {
                    existing.spec = spec;
                    existing.origin = CatalogOrigin::Edited;
                }
                existing.unit_price = row.unit_price;
                existing.hour_price = row.hour_price;
            }
            None => {
                if let Some(spec) = spec {
                    catalog.gpus.push(CatalogGpu {
                        spec,
                        unit_price: row.unit_price,
                        hour_price: row.hour_price,
                        origin: CatalogOrigin::Added,
                    });
                }
            }
        }
    }
    catalog.currency = store.price_currency().await?;
    for (id, json) in store.catalog_model_rows().await? {
        let spec: ModelSpec = serde_json::from_str(&json).map_err(|_| corrupt("model", &id))?;
        catalog.models.push(CatalogModel {
            spec,
            origin: CatalogOrigin::Added,
        });
    }
    Ok(catalog)
}

/// A catalog id from a display name: lower case, letters, digits, dots and dashes.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().to_lowercase().chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_are_catalog_ids() {
        assert_eq!(
            slug("  Qwen/Qwen3-14B-Instruct "),
            "qwen-qwen3-14b-instruct"
        );
        assert_eq!(slug("NVIDIA H20 (96 GB)"), "nvidia-h20-96-gb");
        assert_eq!(slug("---"), "");
    }
}
