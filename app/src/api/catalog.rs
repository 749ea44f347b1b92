//! The sizing catalog: reading it (everyone signed in; unit prices only for staff), GPUs and
//! prices (admins), models from a pasted Hugging Face config.json (assessors and admins).

use crate::error::AppError;

use crate::model::SizingCatalog;
pub use desk::catalog::*;
use leptos::prelude::*;

/// The reviewed catalogs with this installation's GPUs and models; prices (per card and per
/// GPU-hour) are staff-only, so a customer's answer carries none (and their sizing page shows
/// no cost).
#[server(endpoint = "sizing_catalog")]
pub async fn load_sizing_catalog() -> Result<SizingCatalog, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let mut catalog =
                crate::server::catalog::effective_catalog(&crate::server::services()?.store)
                    .await?;
            if !user.role.is_staff() {
                for gpu in &mut catalog.gpus {
                    gpu.unit_price = None;
                    gpu.hour_price = None;
                }
            }
            Ok(catalog)
        }
        .await,
    )
}

/// The catalog for its administration page (admins only: others get 403, customers 404, so the
/// page does not render for them).
#[server(endpoint = "admin_gpu_catalog")]
pub async fn admin_gpu_catalog() -> Result<SizingCatalog, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            Ok(
                crate::server::catalog::effective_catalog(&crate::server::services()?.store)
                    .await?,
            )
        }
        .await,
    )
}

/// The GPU form's fields, as posted (parsed by [`save_gpu`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GpuForm {
    pub id: String,
    pub name: String,
    pub memory_driver_gib: String,
    pub memory_cuda_gib: String,
    pub bandwidth_gb_s: String,
    pub bf16_dense_tflops: String,
    pub fp8: String,
    pub fp4: String,
    pub unit_price: String,
}

/// Adds a GPU, or edits one (a reviewed GPU keeps its id and is marked edited). Memory in GiB as
/// the driver reports it; CUDA memory defaults to 0.6 GiB less (marked as an estimate); formats:
/// `fp8` is `native`/`weight_only`/`unsupported`, `fp4` is `nvfp4`, `mxfp4`, `both` or `none`.
/// `hour_price` (per GPU-hour) left out keeps the GPU's current one; empty clears it.
#[server(endpoint = "save_gpu")]
pub async fn save_gpu(
    #[server(flatten)] gpu: GpuForm,
    #[server(default)] hour_price: FormField,
) -> Result<String, AppError> {
    let GpuForm {
        id,
        name,
        memory_driver_gib,
        memory_cuda_gib,
        bandwidth_gb_s,
        bf16_dense_tflops,
        fp8,
        fp4,
        unit_price,
    } = gpu;
    use crate::server::auth::{Need, require};
    use crate::server::catalog::slug;
    use crate::server::store::catalog::GpuPrices;
    use engine::sizing::{FormatSupport, GpuSpec};
    crate::server::respond(
        async move {
            let admin = require(Need::Admin)?;
            let store = crate::server::services()?.store;
            let name = name.trim().to_string();
            if name.is_empty() || name.chars().count() > 100 {
                return Err(AppError::invalid_in(
                    "name: 1–100 characters",
                    "name: 1–100 Zeichen",
                ));
            }
            let id = if id.trim().is_empty() {
                slug(&name)
            } else {
                slug(&id)
            };
            if id.is_empty() || id == "custom" {
                return Err(AppError::invalid_in(
                    "id: give the GPU an id of letters and digits",
                    "id: Geben Sie der GPU eine ID aus Buchstaben und Ziffern",
                ));
            }
            let driver =
                optional_number("memory_driver_gib", &memory_driver_gib)?.ok_or_else(|| {
                    AppError::invalid_in(
                        "memory_driver_gib: the memory the driver reports, GiB",
                        "memory_driver_gib: der Speicher, den der Treiber meldet, in GiB",
                    )
                })?;
            let cuda = optional_number("memory_cuda_gib", &memory_cuda_gib)?;
            let bandwidth =
                optional_number("bandwidth_gb_s", &bandwidth_gb_s)?.ok_or_else(|| {
                    AppError::invalid_in(
                        "bandwidth_gb_s: the memory bandwidth, GB/s",
                        "bandwidth_gb_s: die Speicherbandbreite in GB/s",
                    )
                })?;
            let tflops = optional_number("bf16_dense_tflops", &bf16_dense_tflops)?;
            let unit_price = optional_number("unit_price", &unit_price)?;
            let catalog = crate::server::catalog::effective_catalog(&store).await?;
            let hour_price = hour_price_or_kept(&catalog, &id, &hour_price)?;
            let mut spec = GpuSpec::custom(&name, driver, cuda, bandwidth, tflops);
            spec.id = id.clone();
            spec.sources = vec![format!("entered by {}", admin.email)];
            spec.fp8 = match fp8.trim() {
                "" | "native" => FormatSupport::Native,
                "weight_only" => FormatSupport::WeightOnly,
                "unsupported" => FormatSupport::Unsupported,
                other => {
                    return Err(AppError::invalid_in(
                        format!("fp8: unknown support `{other}`"),
                        format!("fp8: unbekannte Unterstützung `{other}`"),
                    ));
                }
            };
            let (nvfp4, mxfp4) = match fp4.trim() {
                "" | "none" => (FormatSupport::WeightOnly, FormatSupport::WeightOnly),
                "nvfp4" => (FormatSupport::Native, FormatSupport::WeightOnly),
                "mxfp4" => (FormatSupport::WeightOnly, FormatSupport::Native),
                "both" => (FormatSupport::Native, FormatSupport::Native),
                other => {
                    return Err(AppError::invalid_in(
                        format!("fp4: unknown support `{other}`"),
                        format!("fp4: unbekannte Unterstützung `{other}`"),
                    ));
                }
            };
            spec.nvfp4 = nvfp4;
            spec.mxfp4 = mxfp4;
            if spec.fp8 == FormatSupport::Native && spec.fp8_dense_tflops.is_none() {
                spec.fp8_dense_tflops = tflops.map(|t| 2.0 * t);
            }
            spec.validate().map_err(|e| {
                AppError::invalid_in(e.to_string(), e.message_in(engine::locale::Lang::De))
            })?;
            let json = serde_json::to_string(&spec).map_err(|_| AppError::Internal)?;
            store
                .upsert_catalog_gpu(
                    &id,
                    Some(&json),
                    GpuPrices {
                        unit_price,
                        hour_price,
                    },
                    admin.id,
                )
                .await?;
            Ok(id)
        }
        .await,
    )
}

/// Sets (or, with an empty price, clears) the unit price of a GPU, and its price per GPU-hour
/// (`hour_price`; left out: kept as it is). Recommendations then show cost: cards × unit price,
/// and per 1M tokens at the operating point the capacity twin predicts.
#[server(endpoint = "set_gpu_price")]
pub async fn set_gpu_price(
    id: String,
    unit_price: String,
    #[server(default)] hour_price: FormField,
) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    use crate::server::store::catalog::GpuPrices;
    crate::server::respond(
        async move {
            let admin = require(Need::Admin)?;
            let store = crate::server::services()?.store;
            let catalog = crate::server::catalog::effective_catalog(&store).await?;
            if catalog.gpu(&id).is_none() {
                return Err(AppError::NotFound);
            }
            let unit_price = optional_number("unit_price", &unit_price)?;
            let hour_price = hour_price_or_kept(&catalog, &id, &hour_price)?;
            store
                .upsert_catalog_gpu(
                    &id,
                    None,
                    GpuPrices {
                        unit_price,
                        hour_price,
                    },
                    admin.id,
                )
                .await?;
            Ok(())
        }
        .await,
    )
}

/// Sets the currency the catalog's prices are entered in (admins; empty: none). Every price and
/// cost shown to staff (catalog, sizing, capacity twin, the report's internal edition) then
/// names it.
#[server(endpoint = "set_price_currency")]
pub async fn set_price_currency(currency: String) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let admin = require(Need::Admin)?;
            let currency = parse_currency(&currency)?;
            crate::server::services()?
                .store
                .set_price_currency(currency.as_deref(), admin.id)
                .await?;
            Ok(())
        }
        .await,
    )
}

/// Removes this installation's row of a GPU: an added GPU disappears, an edited one returns to
/// its reviewed figures; either loses its price.
#[server(endpoint = "reset_gpu")]
pub async fn reset_gpu(id: String) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            if crate::server::services()?
                .store
                .delete_catalog_gpu(&id)
                .await?
            {
                Ok(())
            } else {
                Err(AppError::NotFound)
            }
        }
        .await,
    )
}

/// Adds a model from a pasted Hugging Face `config.json` (assessors and admins). The id defaults to the
/// config's `_name_or_path`.
#[server(endpoint = "add_model")]
pub async fn add_model(id: String, name: String, config_json: String) -> Result<String, AppError> {
    use crate::server::auth::{Need, require};
    use crate::server::catalog::slug;
    use engine::locale::Lang;
    use engine::sizing::ModelSpec;
    crate::server::respond(
        async move {
            let user = require(Need::Editor)?;
            let store = crate::server::services()?.store;
            if config_json.len() > 256 * 1024 {
                return Err(AppError::invalid_in(
                    "config_json: at most 256 KiB",
                    "config_json: höchstens 256 KiB",
                ));
            }
            // English on the wire, German for a German reader.
            let refused = |e: engine::sizing::SizingError| {
                AppError::invalid_in(
                    format!("config_json: {}", e.message_in(Lang::En)),
                    format!("config_json: {}", e.message_in(Lang::De)),
                )
            };
            let mut spec = ModelSpec::from_hf_config(&config_json).map_err(refused)?;
            if !name.trim().is_empty() {
                spec.name = name.trim().chars().take(100).collect();
            }
            let id = if id.trim().is_empty() {
                slug(&spec.name)
            } else {
                slug(&id)
            };
            if id.is_empty() || id == "custom" {
                return Err(AppError::invalid_in(
                    "id: give the model an id",
                    "id: Geben Sie dem Modell eine ID",
                ));
            }
            if engine::sizing::model_by_id(&id).is_some() {
                return Err(AppError::invalid_in(
                    format!("id: `{id}` is a reviewed catalog model already"),
                    format!("id: `{id}` ist bereits ein geprüftes Modell des Katalogs"),
                ));
            }
            spec.id = id.clone();
            spec.validate().map_err(refused)?;
            let json = serde_json::to_string(&spec).map_err(|_| AppError::Internal)?;
            store
                .create_catalog_model(&id, &json, &config_json, user.id)
                .await?;
            Ok(id)
        }
        .await,
    )
}

/// Removes a pasted model (admins).
#[server(endpoint = "delete_model")]
pub async fn delete_model(id: String) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            if crate::server::services()?
                .store
                .delete_catalog_model(&id)
                .await?
            {
                Ok(())
            } else {
                Err(AppError::NotFound)
            }
        }
        .await,
    )
}
