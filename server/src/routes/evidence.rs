//! `POST /api/v1/pilots/{id}/evidence`: evidence files for CI pipelines and scripts.
//!
//! Multipart form: `file` (required), `kind` (optional; detected from the content when absent)
//! and settings fields. The file is streamed to disk with its SHA-256 (see [`crate::upload`]),
//! read, and only then kept and recorded; a file that cannot be read is deleted and nothing is
//! written. The same content twice on one pilot answers 409 naming the earlier upload.
//!
//! Kinds read today (see [`crate::evidence_import`]): `load_test` (vllm bench serve, AIPerf,
//! GenAI-Perf, guidellm results; their operating points are stored, the raw file kept) and
//! `vllm_startup_log` (for calibrating the sizing engine; settings fields `model`, `weights`,
//! `kv_dtype`, `gpu`, `tp`, `context` as on the calibration page), `gateway_log` (a gateway's
//! per-request log; field `skip_bad_lines` = `true` skips and counts malformed lines, default
//! `false` rejects the file naming the line; the pilot's combined demand profile is rebuilt) and
//! `metrics_scrape` (vLLM `/metrics`; optional field `scraped_at`, RFC 3339 or Unix seconds).
//! Quality evidence: `eval_set` and `eval_run` (CSV or JSON Lines, only with an explicit `kind`;
//! a set becomes the open draft version of the evaluation set; a run is read against the latest
//! approved set version, else the open draft, which it approves; 422 when there is none; `note`
//! in the answer says which version; fields
//! `weights_precision` (required), `model`, `kv_precision`, `engine`, `engine_version`, `gpu`,
//! blank ones taken from the pilot) and `lm_eval_results` (also detected).

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use crate::evidence_import::{ReadSettings, Recognised, recognise_with};
use crate::upload::receive_evidence;
use axum::Json;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use desk::ServiceError;
use desk::auth::{Need, authorise, editable_pilot, visible_pilot};
use desk::evidence::{CalibrationForm, calibration_settings, duplicate};
use desk::load_tests::service as load_tests;
use desk::model::StartupLogSummary;
use desk::quality;
use desk::store::evidence::{DerivedWrites, NewEvidence};
use serde_json::{Value, json};

pub async fn upload_evidence(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
    multipart: Multipart,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let user = authorise(Some(&user), Need::Editor)?;
    let services = &state.services;
    let pilot = editable_pilot(&services.store, &user, pilot_id).await?;
    let upload = receive_evidence(
        multipart,
        &services.data_dir.join("uploads"),
        state.config.max_upload_bytes,
    )
    .await?;
    let file = upload.file;
    if let Some(existing) = services
        .store
        .evidence_by_hash(pilot_id, &file.sha256)
        .await
        .map_err(ServiceError::from)?
    {
        return Err(duplicate(&file.file_name, &existing).into());
    }
    let kind = upload.fields.get("kind").cloned().filter(|k| !k.is_empty());
    let eval_set = if kind.as_deref() == Some(quality::EVAL_RUN) {
        Some(
            quality::service::set_for_runs(services, pilot_id)
                .await?
                .ok_or_else(|| ServiceError::invalid(quality::service::NO_SET))?,
        )
    } else {
        None
    };
    let settings = ReadSettings {
        skip_bad_lines: desk::traffic::service::parse_skip_bad_lines(
            upload.fields.get("skip_bad_lines").map(String::as_str),
        )?,
        scraped_at_ms: desk::traffic::service::parse_scraped_at(
            upload
                .fields
                .get("scraped_at")
                .map(String::as_str)
                .unwrap_or(""),
        )?,
        eval_set: eval_set.as_ref().map(|run_set| run_set.set.clone()),
    };
    let (name, path) = (file.file_name.clone(), file.temp_path.clone());
    let recognised = tokio::task::spawn_blocking(move || {
        recognise_with(&name, &path, kind.as_deref(), &settings)
    })
    .await
    .map_err(|_| ServiceError::Internal)?
    .map_err(|e| ServiceError::invalid(e.0))?;
    let kind = recognised.kind();
    // What is derived from the file is computed now and written in the same transaction as its
    // row: a failure (or a crash) before the commit leaves the database as it was.
    let mut derived = DerivedWrites::default();
    let (summary, summary_json) = match recognised {
        Recognised::LoadTest(import) => {
            // The run context: form fields, else the pasted `serve_command`, else the pilot.
            let context = load_tests::run_context_from_fields(&upload.fields, &pilot)?;
            let (value, writes) = load_tests::prepare(services, pilot_id, import, context).await?;
            derived = writes;
            (value.clone(), value.to_string())
        }
        Recognised::GatewayLog(log) => {
            let value = serde_json::to_value(&log).map_err(|_| ServiceError::Internal)?;
            derived.traffic_profile = desk::traffic::service::combined_profile(
                services,
                pilot_id,
                Some((file.file_name.clone(), file.temp_path.clone(), *log)),
            )
            .await?;
            (value.clone(), value.to_string())
        }
        Recognised::MetricsScrape(scrape) => {
            let value = serde_json::to_value(&scrape).map_err(|_| ServiceError::Internal)?;
            (value.clone(), value.to_string())
        }
        Recognised::EvalSet(set) => {
            let value = serde_json::to_value(&set).map_err(|_| ServiceError::Internal)?;
            (value.clone(), value.to_string())
        }
        Recognised::EvalRun(run) => {
            let field = |name: &str| upload.fields.get(name).cloned().unwrap_or_default();
            let run = quality::service::run_config(field, &pilot, run)?;
            let stored = quality::service::stored_run(eval_set.as_ref(), run);
            let value = serde_json::to_value(&stored).map_err(|_| ServiceError::Internal)?;
            (value.clone(), value.to_string())
        }
        Recognised::LmEval(results) => {
            let value = serde_json::to_value(&results).map_err(|_| ServiceError::Internal)?;
            (value.clone(), value.to_string())
        }
        Recognised::StartupLog(log) => {
            let field = |name: &str| upload.fields.get(name).cloned().unwrap_or_default();
            let form = CalibrationForm {
                model: field("model"),
                weights: field("weights"),
                kv_dtype: field("kv_dtype"),
                gpu: field("gpu"),
                tp: field("tp"),
                context: field("context"),
            };
            let settings = calibration_settings(&form, &log, &pilot)?;
            let summary = StartupLogSummary {
                log: *log,
                settings,
            };
            let value = serde_json::to_value(&summary).map_err(|_| ServiceError::Internal)?;
            (value.clone(), value.to_string())
        }
    };
    let (file_name, sha256, size_bytes) =
        (file.file_name.clone(), file.sha256.clone(), file.size_bytes);
    let created = file.keep(&services.blobs).await?;
    let id = match services
        .store
        .create_evidence_with(
            NewEvidence {
                pilot_id,
                kind,
                file_name: &file_name,
                sha256: &sha256,
                size_bytes: size_bytes as i64,
                summary_json: &summary_json,
                uploaded_by: user.id,
            },
            derived,
        )
        .await
    {
        Ok(id) => id,
        Err(error) => {
            if created {
                services.blobs.forget(&sha256).await;
            }
            return Err(ServiceError::from(error).into());
        }
    };
    let note = quality::service::after_upload(
        services,
        pilot_id,
        kind,
        id,
        &file_name,
        &summary_json,
        eval_set.as_ref(),
        user.id,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "kind": kind,
            "file_name": file_name,
            "sha256": sha256,
            "size_bytes": size_bytes,
            "summary": summary,
            "note": note,
        })),
    ))
}

/// `GET /api/v1/pilots/{id}/operating-points`: every operating point of the pilot's load-test
/// evidence, newest upload first, in the importers' vocabulary (`scenario`, `concurrency`,
/// `request_rate`, `completed`, `failed`, `output_tokens_per_s`, and `metrics` keyed `ttft_ms`,
/// `tpot_ms`, `itl_ms`, `e2e_ms` with the statistics the file has), each with its evidence id,
/// file, tool and version.
pub async fn operating_points(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    visible_pilot(&state.services.store, &user, pilot_id).await?;
    let evidence = desk::readable::in_force(
        &state.services.store,
        pilot_id,
        Some(crate::evidence_import::LOAD_TEST),
    )
    .await?;
    let mut points = Vec::new();
    for (file, summary) in evidence {
        let import: engine::ingest::Import = serde_json::from_str(&summary).map_err(|error| {
            tracing::error!(%error, evidence = file.id, "stored load-test summary unreadable");
            ServiceError::Internal
        })?;
        for point in import.points {
            let mut value = serde_json::to_value(&point).map_err(|_| ServiceError::Internal)?;
            if let Some(object) = value.as_object_mut() {
                object.insert("evidence_id".into(), json!(file.id));
                object.insert("file_name".into(), json!(file.file_name));
                object.insert("tool".into(), json!(import.tool));
                object.insert("tool_version".into(), json!(import.tool_version));
            }
            points.push(value);
        }
    }
    Ok(Json(Value::Array(points)))
}
