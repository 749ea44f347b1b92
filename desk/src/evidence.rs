//! Keeping evidence: raw files (see [`crate::blobs`]), a row per file, and the
//! vLLM start-up logs that calibrate the sizing engine's vLLM memory model.
//!
//! A start-up log says what vLLM actually did ("GPU KV cache size: N tokens", "Maximum concurrency
//! … x", weights loaded, available KV memory). Stored with the settings it ran with (model,
//! precision, GPU, TP — the log names some of them itself, and those win), it is predicted again
//! every time it is shown, so an improved engine immediately shows how far it now lands from
//! reality.

use super::Services;
use super::store::blobs::FileRow;
use super::store::evidence::{DerivedWrites, NewEvidence};
use crate::ServiceError;
use crate::model::{
    Calibration, CalibrationSettings, EvidenceFile, EvidenceKind, Pilot, StartupLogSummary,
};
use engine::sizing::{
    GpuSpec, KvDtype, MemoryModel, ModelSpec, SizingInput, StartupLog, Topology, WeightPrecision,
    compare, gpu_by_id, model_by_id, size,
};
use sha2::{Digest, Sha256};
use std::str::FromStr;

pub mod bounds;
pub mod comparable;
pub mod staged;

/// Largest start-up log accepted when pasted (they are a few hundred KiB at most).
pub const MAX_STARTUP_LOG_BYTES: usize = 4 * 1024 * 1024;

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "evidence storage failed");
    ServiceError::Internal
}

/// SHA-256 of `bytes`, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// An evidence file to keep: its bytes, what it is and the summary its row records.
#[derive(Clone, Copy, Debug)]
pub struct EvidenceBytes<'a> {
    pub pilot_id: i64,
    pub kind: EvidenceKind,
    pub file_name: &'a str,
    pub bytes: &'a [u8],
    pub summary_json: &'a str,
    pub uploaded_by: i64,
}

/// Keeps `file.bytes` as an evidence file (unless already kept) and records the row, in one
/// transaction (see [`crate::blobs::Blobs::record`]).
pub async fn keep_bytes(services: &Services, file: EvidenceBytes<'_>) -> Result<i64, ServiceError> {
    keep_bytes_with(services, file, DerivedWrites::default()).await
}

/// [`keep_bytes`] with what was derived from the file, written in the same transaction as
/// its row.
pub async fn keep_bytes_with(
    services: &Services,
    file: EvidenceBytes<'_>,
    derived: DerivedWrites,
) -> Result<i64, ServiceError> {
    let EvidenceBytes {
        pilot_id,
        kind,
        file_name,
        bytes,
        summary_json,
        uploaded_by,
    } = file;
    bounds::check_summary_text(file_name, summary_json)?;
    let sha = sha256_hex(bytes);
    if let Some(existing) = services.store.evidence_by_hash(pilot_id, &sha).await? {
        return Err(duplicate(file_name, &existing));
    }
    let temp = temp_file(services, "kept", bytes).await?;
    let new = NewEvidence {
        pilot_id,
        kind,
        file_name,
        sha256: &sha,
        size_bytes: bytes.len() as i64,
        summary_json,
        uploaded_by,
    };
    let id = services
        .blobs
        .record(&temp, &sha, FileRow::Evidence(new, derived))
        .await?;
    services.changes.tell(pilot_id);
    Ok(id)
}

/// Writes `bytes` to a fresh temporary file under `DATA_DIR/uploads` (`{prefix}-….part`), where
/// an upload arrives, so bytes the server made or fetched are kept the way an upload is;
/// nothing is left behind when the write fails.
pub(crate) async fn temp_file(
    services: &Services,
    prefix: &str,
    bytes: &[u8],
) -> Result<std::path::PathBuf, ServiceError> {
    let uploads = services.data_dir.join("uploads");
    tokio::fs::create_dir_all(&uploads)
        .await
        .map_err(internal)?;
    let temp = uploads.join(format!("{prefix}-{:016x}.part", rand::random::<u64>()));
    if let Err(error) = tokio::fs::write(&temp, bytes).await {
        let _ = tokio::fs::remove_file(&temp).await;
        return Err(internal(error));
    }
    Ok(temp)
}

/// The refusal of a file already stored on this pilot.
pub fn duplicate(file_name: &str, existing: &EvidenceFile) -> ServiceError {
    ServiceError::duplicate_said(crate::error::Said::new(
        format!(
            "{file_name}: the same file is already evidence #{} of this pilot (“{}”, uploaded {})",
            existing.id,
            existing.file_name,
            engine::clock::utc_minute(existing.uploaded_ms)
        ),
        format!(
            "{file_name}: dieselbe Datei ist bereits Nachweis #{} dieses Piloten („{}“, \
             hochgeladen {})",
            existing.id,
            existing.file_name,
            engine::clock::utc_minute(existing.uploaded_ms)
        ),
    ))
}

/// The raw form fields of a start-up log's settings (empty = take from the log or the pilot).
#[derive(Clone, Debug, Default)]
pub struct CalibrationForm {
    pub model: String,
    pub weights: String,
    pub kv_dtype: String,
    pub gpu: String,
    pub tp: String,
    pub context: String,
}

/// Settings for a log: the form where filled in, else what the log says, else the pilot's notes.
pub fn calibration_settings(
    form: &CalibrationForm,
    log: &StartupLog,
    pilot: &Pilot,
) -> Result<CalibrationSettings, ServiceError> {
    use crate::catalog::{guess_gpu_id, guess_model_id};
    let pick = |value: &str| (!value.trim().is_empty()).then(|| value.trim().to_string());
    let model_id = pick(&form.model)
        .or_else(|| log.model.as_deref().and_then(guess_model_id))
        .or_else(|| guess_model_id(&pilot.model))
        .ok_or_else(|| {
            ServiceError::invalid_in(
                "model: the log names no catalog model; choose one",
                "model: Das Log nennt kein Modell des Katalogs; wählen Sie eines",
            )
        })?;
    if model_by_id(&model_id).is_none() {
        return Err(ServiceError::invalid_in(
            format!("model: no catalog model `{model_id}`"),
            format!("model: kein Modell `{model_id}` im Katalog"),
        ));
    }
    let gpu_id = pick(&form.gpu)
        .or_else(|| guess_gpu_id(&pilot.gpu_type))
        .ok_or_else(|| {
            ServiceError::invalid_in(
                "gpu: the pilot's GPU is not in the catalog; choose one",
                "gpu: Die GPU des Piloten steht nicht im Katalog; wählen Sie eine",
            )
        })?;
    if gpu_by_id(&gpu_id).is_none() {
        return Err(ServiceError::invalid_in(
            format!("gpu: no catalog GPU `{gpu_id}`"),
            format!("gpu: keine GPU `{gpu_id}` im Katalog"),
        ));
    }
    let weights = pick(&form.weights).unwrap_or_else(|| "bf16".into());
    WeightPrecision::from_str(&weights).map_err(|e| {
        ServiceError::invalid_in(
            format!("weights: {e}"),
            format!("weights: {}", e.message_in(engine::locale::Lang::De)),
        )
    })?;
    let kv_dtype = pick(&form.kv_dtype)
        .or_else(|| log.kv_cache_dtype.clone())
        .unwrap_or_else(|| "16bit".into());
    KvDtype::from_str(&kv_dtype).map_err(|e| {
        ServiceError::invalid_in(
            format!("kv_dtype: {e}"),
            format!("kv_dtype: {}", e.message_in(engine::locale::Lang::De)),
        )
    })?;
    let tp = match pick(&form.tp) {
        Some(text) => text.parse().map_err(|_| {
            ServiceError::invalid_in(
                format!("tp: `{text}` is not a whole number"),
                format!("tp: `{text}` ist keine ganze Zahl"),
            )
        })?,
        None => log
            .tensor_parallel_size
            .unwrap_or_else(|| u32::try_from(pilot.gpu_count.max(1)).unwrap_or(1)),
    };
    let context_tokens = match pick(&form.context) {
        Some(text) => text.parse().map_err(|_| {
            ServiceError::invalid_in(
                format!("context: `{text}` is not a whole number"),
                format!("context: `{text}` ist keine ganze Zahl"),
            )
        })?,
        None => log
            .max_model_len
            .or(log.max_concurrency_context_tokens)
            .ok_or_else(|| {
                ServiceError::invalid_in(
                    "context: the log does not say max_model_len; give the context",
                    "context: Das Log nennt max_model_len nicht; geben Sie den Kontext an",
                )
            })?,
    };
    Ok(CalibrationSettings {
        model_id,
        weights,
        kv_dtype,
        gpu_id,
        tp,
        pp: log.pipeline_parallel_size.unwrap_or(1),
        context_tokens,
        vllm_version: log.vllm_version.clone(),
        gpu_memory_utilization: log.gpu_memory_utilization,
    })
}

/// Reads a pasted or uploaded start-up log; the error says which lines were expected.
pub fn read_startup_log(file_name: &str, text: &str) -> Result<StartupLog, ServiceError> {
    engine::sizing::startup_log::parse(text).map_err(|e| {
        ServiceError::invalid_in(
            format!("{file_name}: {e}"),
            format!("{file_name}: {}", e.message_in(engine::locale::Lang::De)),
        )
    })
}

/// The question the vLLM memory model answers for a stored log.
pub fn prediction_input(settings: &CalibrationSettings) -> Result<SizingInput, String> {
    let model: ModelSpec =
        model_by_id(&settings.model_id).ok_or("model no longer in the catalog")?;
    let gpu: GpuSpec = gpu_by_id(&settings.gpu_id).ok_or("GPU no longer in the catalog")?;
    let mut input = SizingInput::new(
        model,
        WeightPrecision::from_str(&settings.weights).map_err(|e| e.to_string())?,
        KvDtype::from_str(&settings.kv_dtype).map_err(|e| e.to_string())?,
        gpu,
        Topology::new(settings.tp, settings.pp, 1),
        settings.context_tokens,
        MemoryModel::Vllm,
    );
    input.vllm_version = settings.vllm_version.clone();
    input.gpu_memory_utilization = settings.gpu_memory_utilization;
    Ok(input)
}

/// A stored log with today's prediction against it.
pub fn calibrate(evidence: EvidenceFile, summary: StartupLogSummary) -> Calibration {
    let comparison = prediction_input(&summary.settings)
        .and_then(|input| size(&input).map_err(|e| e.to_string()))
        .map(|predicted| compare(&predicted, &summary.log));
    Calibration {
        evidence,
        summary,
        comparison,
    }
}

/// Every start-up log of a pilot, newest first, each calibrated.
pub async fn calibrations(
    services: &Services,
    pilot_id: i64,
) -> Result<Vec<Calibration>, ServiceError> {
    crate::readable::in_force(
        &services.store,
        pilot_id,
        Some(EvidenceKind::VllmStartupLog),
    )
    .await?
    .into_iter()
    .map(|(file, summary)| {
        let summary: StartupLogSummary = serde_json::from_str(&summary).map_err(internal)?;
        Ok(calibrate(file, summary))
    })
    .collect()
}
