//! vLLM start-up logs on a pilot, set against the sizing engine's vLLM memory model.

use crate::error::AppError;
use crate::model::Calibration;
use leptos::prelude::*;

/// Every start-up log of a pilot the caller may see, each with the prediction against it.
#[server(endpoint = "list_calibrations")]
pub async fn list_calibrations(pilot_id: i64) -> Result<Vec<Calibration>, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            Ok(crate::server::evidence::calibrations(&services, pilot_id).await?)
        }
        .await,
    )
}

/// The settings fields of the start-up log form, as posted (empty: taken from the log, then
/// from the pilot's notes).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StartupLogSettings {
    pub model: String,
    pub weights: String,
    pub kv_dtype: String,
    pub gpu: String,
    pub tp: String,
    pub context: String,
}

/// Stores a pasted vLLM start-up log as evidence of a pilot (staff only). Empty settings are
/// taken from the log, then from the pilot's notes.
#[server(endpoint = "add_startup_log")]
pub async fn add_startup_log(
    pilot_id: i64,
    log_text: String,
    #[server(flatten)] settings: StartupLogSettings,
) -> Result<i64, AppError> {
    let StartupLogSettings {
        model,
        weights,
        kv_dtype,
        gpu,
        tp,
        context,
    } = settings;
    use crate::model::{EvidenceKind, StartupLogSummary};
    use crate::server::auth::{Need, editable_pilot, require};
    use crate::server::evidence::{
        CalibrationForm, EvidenceBytes, MAX_STARTUP_LOG_BYTES, calibration_settings, keep_bytes,
        read_startup_log,
    };
    crate::server::respond(
        async move {
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            let pilot = editable_pilot(&services.store, &user, pilot_id).await?;
            if log_text.trim().is_empty() {
                return Err(AppError::invalid_in(
                    "log_text: paste the vLLM start-up log",
                    "log_text: Fügen Sie das Start-up-Log von vLLM ein",
                ));
            }
            if log_text.len() > MAX_STARTUP_LOG_BYTES {
                return Err(AppError::invalid_in(
                    "log_text: at most 4 MiB; paste the start-up part of the log",
                    "log_text: höchstens 4 MiB; fügen Sie den Start-up-Teil des Logs ein",
                ));
            }
            let log = read_startup_log("pasted log", &log_text)?;
            let form = CalibrationForm {
                model,
                weights,
                kv_dtype,
                gpu,
                tp,
                context,
            };
            let settings = calibration_settings(&form, &log, &pilot)?;
            let summary = serde_json::to_string(&StartupLogSummary { log, settings })
                .map_err(|_| AppError::Internal)?;
            let name = format!(
                "vllm-startup-{}.log",
                engine::clock::utc_date(crate::server::store::now_ms())
            );
            Ok(keep_bytes(
                &services,
                EvidenceBytes {
                    pilot_id,
                    kind: EvidenceKind::VllmStartupLog,
                    file_name: &name,
                    bytes: log_text.as_bytes(),
                    summary_json: &summary,
                    uploaded_by: user.id,
                },
            )
            .await?)
        }
        .await,
    )
}
