//! `POST /api/v1/pilots/{id}/evidence`: evidence files for CI pipelines and scripts.
//!
//! Multipart form: `file` (required), `kind` (optional; detected from the content when absent)
//! and settings fields. The file is streamed to disk with its SHA-256 (see [`crate::upload`]),
//! read, and only then kept and recorded; a file that cannot be read is deleted and nothing is
//! written. The same content twice on one pilot answers 409 naming the earlier upload.
//!
//! Kinds read today (see [`desk::intake::recognise`]): `load_test` (vllm bench serve, AIPerf,
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

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use crate::upload::{self, ReceivedFile, receive_evidence};
use axum::Json;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode};
use desk::ServiceError;
use desk::auth::{Need, authorise, editable_pilot, visible_pilot};
use desk::intake::{Prepared, Received};
use desk::model::{EvidenceKind, Pilot, SessionUser};
use desk::recorded::RecordedLine;
use engine::ingest::OperatingPoint;
use engine::locale::Lang;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The multipart form of an upload (described for the document; the handler streams it).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct EvidenceUpload {
    /// The evidence file.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// `load_test`, `vllm_startup_log`, `gateway_log`, `metrics_scrape`, `eval_set`,
    /// `eval_run` or `lm_eval_results`; detected from the content when absent (`eval_set` and
    /// `eval_run` only with this field).
    kind: Option<EvidenceKind>,
    /// `vllm_startup_log`: catalog model id (default: from the log, then the pilot).
    /// `eval_run`: the model the run used (default: the pilot's).
    model: Option<String>,
    /// `vllm_startup_log`: weights precision (`bf16`, `fp16`, `fp8`, `nvfp4`, `mxfp4`, `int4`,
    /// `int8`).
    weights: Option<String>,
    /// `vllm_startup_log`: `16bit` or `fp8`. `load_test`: the KV-cache dtype as vLLM names it.
    kv_dtype: Option<String>,
    /// `vllm_startup_log`: catalog GPU id. `load_test`: the GPU model as written.
    gpu: Option<String>,
    /// Tensor parallelism (`vllm_startup_log`, `load_test`).
    tp: Option<String>,
    /// `vllm_startup_log`: context length in tokens.
    context: Option<String>,
    /// `gateway_log`: `true` skips malformed lines and counts them; `false` (default) refuses
    /// the file naming the line and field.
    skip_bad_lines: Option<String>,
    /// `metrics_scrape`: when the scrape was taken, RFC 3339 or Unix seconds.
    scraped_at: Option<String>,
    /// `load_test` run context: serving engine.
    engine: Option<String>,
    /// `load_test` run context: engine version.
    engine_version: Option<String>,
    /// `load_test` run context: number of GPUs.
    gpu_count: Option<String>,
    /// `load_test` run context: weights precision (`fp16`, `bf16`, `fp8`, `awq`, …).
    precision: Option<String>,
    /// `load_test` run context.
    max_num_batched_tokens: Option<String>,
    /// `load_test` run context.
    max_num_seqs: Option<String>,
    /// `load_test` run context: `on` or `off`.
    prefix_caching: Option<String>,
    /// `load_test` run context: `on` or `off`.
    cuda_graphs: Option<String>,
    /// `load_test`: a `vllm serve …` line or ServingRuntime YAML filling the fields left empty.
    serve_command: Option<String>,
    /// `eval_run`: weights precision of the run (required for `eval_run`).
    weights_precision: Option<String>,
    /// `eval_run`: KV-cache precision of the run.
    kv_precision: Option<String>,
}

/// An evidence file as stored, with what was read from it.
#[derive(Serialize, ToSchema)]
pub struct StoredEvidence {
    pub id: i64,
    /// The kind it was read as.
    pub kind: EvidenceKind,
    pub file_name: String,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    pub size_bytes: u64,
    /// What the importer read; its shape depends on `kind` (a load test's `points` and
    /// `run_context`, a gateway log's summary, a scrape's samples, …).
    #[schema(value_type = Object)]
    pub summary: serde_json::Value,
    /// What happened beside the upload (quality evidence: which set version a run was read
    /// against); `null` otherwise.
    pub note: Option<String>,
    /// What was recorded, line by line (as the preview listed it).
    pub recorded: Vec<RecordedLine>,
    /// The importer's warnings, and typed or pasted values the file contradicted.
    pub warnings: Vec<String>,
}

/// Uploads an evidence file to a pilot (assessors and admins).
///
/// The file is read before anything is written: a file that cannot be read is refused with
/// the file, line and field, and nothing is kept.
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/evidence",
    tag = "evidence",
    params(("id" = i64, Path, description = "The pilot's id.")),
    request_body(content = EvidenceUpload, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Read and stored.", body = StoredEvidence),
        (status = 400, description = "The path id is not an integer, or the body is not a \
            multipart form.", body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 409, description = "The same file is already stored on this pilot, or the \
            pilot is archived.", body = ErrorBody),
        (status = 413, description = "Larger than `MAX_UPLOAD_MB`.", body = ErrorBody),
        (status = 422, description = "The file cannot be read as the kind (the message names \
            the file, line and field), or a field is invalid; nothing was written.", body = ErrorBody),
    )
)]
pub async fn upload_evidence(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Result<(StatusCode, Json<StoredEvidence>), ApiError> {
    let user = authorise(Some(&user), Need::Editor)?;
    let lang = desk::ui_language::request_language(&headers);
    let read = read_upload(&state, &user, pilot_id, multipart, lang).await?;
    let stored = store_read(&state, &user, pilot_id, read).await?;
    Ok((StatusCode::CREATED, Json(stored)))
}

/// Stores an upload [`read_received`] made ready: keeps the file, writes its row with what was
/// derived from it, then what follows for quality evidence.
pub(super) async fn store_read(
    state: &AppState,
    user: &SessionUser,
    pilot_id: i64,
    read: ReadUpload,
) -> Result<StoredEvidence, ApiError> {
    let ReadUpload {
        mut file,
        kind,
        recorded,
        warnings,
        mut prepared,
        ..
    } = read;
    let size_bytes = file.size_bytes;
    let stored = desk::intake::store(
        &state.services,
        pilot_id,
        user.id,
        file.hand_over(),
        size_bytes,
        &mut prepared,
    )
    .await?;
    Ok(StoredEvidence {
        id: stored.id,
        kind,
        file_name: file.file_name.clone(),
        sha256: file.sha256.clone(),
        size_bytes,
        summary: prepared.summary,
        note: stored.note,
        recorded,
        warnings,
    })
}

/// What an upload would record, without recording it.
#[derive(Serialize, ToSchema)]
pub struct EvidencePreview {
    /// The kind it would be stored as.
    pub kind: EvidenceKind,
    pub file_name: String,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    pub size_bytes: u64,
    /// What would be recorded, line by line; a load test's run-context values carry their
    /// `source` (`file`, `form`, `serve_command`, `pilot_notes`).
    pub recorded: Vec<RecordedLine>,
    /// What the person should know before storing it: the importer's warnings, and typed or
    /// pasted values the file contradicts (the file's value is the one recorded).
    pub warnings: Vec<String>,
}

/// Reads an evidence file as an upload would and answers what it would record, writing
/// nothing (assessors and admins): the upload page's check before the person confirms.
///
/// The same multipart form as the upload; the same refusals (a duplicate is 409, an
/// unreadable file 422), so a file that previews is a file that stores. The recorded lines'
/// labels and words follow the request's language (the `pilotdesk_lang` cookie, else
/// `Accept-Language`): English unless German is asked for.
#[utoipa::path(
    post,
    path = "/api/v1/pilots/{id}/evidence/preview",
    tag = "evidence",
    params(("id" = i64, Path, description = "The pilot's id.")),
    request_body(content = EvidenceUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Read; nothing was written.", body = EvidencePreview),
        (status = 400, description = "The path id is not an integer, or the body is not a \
            multipart form.", body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not add evidence (sales).", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 409, description = "The same file is already stored on this pilot, or the \
            pilot is archived.", body = ErrorBody),
        (status = 413, description = "Larger than `MAX_UPLOAD_MB`.", body = ErrorBody),
        (status = 422, description = "The file cannot be read as the kind (the message names \
            the file, line and field), or a field is invalid.", body = ErrorBody),
    )
)]
pub async fn preview_evidence(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Result<Json<EvidencePreview>, ApiError> {
    let user = authorise(Some(&user), Need::Editor)?;
    // What would be recorded, in the uploader's language (a script gets English).
    let lang = desk::ui_language::request_language(&headers);
    let read = read_upload(&state, &user, pilot_id, multipart, lang).await?;
    // Dropping the received file deletes it: a preview keeps nothing.
    Ok(Json(EvidencePreview {
        kind: read.kind,
        file_name: read.file.file_name.clone(),
        sha256: read.file.sha256.clone(),
        size_bytes: read.file.size_bytes,
        recorded: read.recorded,
        warnings: read.warnings,
    }))
}

/// An upload read and made ready to store; nothing is written yet.
pub(super) struct ReadUpload {
    pub file: ReceivedFile,
    /// The form's fields it was read with.
    pub fields: BTreeMap<String, String>,
    pub kind: EvidenceKind,
    pub recorded: Vec<RecordedLine>,
    /// The language `recorded` is worded in.
    pub lang: Lang,
    pub warnings: Vec<String>,
    prepared: Prepared,
}

/// Receives the multipart upload to a pilot the caller may change, and reads it
/// ([`read_received`]).
async fn read_upload(
    state: &AppState,
    user: &SessionUser,
    pilot_id: i64,
    multipart: Multipart,
    lang: Lang,
) -> Result<ReadUpload, ApiError> {
    let pilot = editable_pilot(&state.services.store, user, pilot_id).await?;
    let upload = receive(state, multipart).await?;
    read_received(state, &pilot, upload, lang).await
}

/// Streams the multipart upload to `DATA_DIR/uploads`, bounded by `MAX_UPLOAD_MB`.
pub(super) async fn receive(
    state: &AppState,
    multipart: Multipart,
) -> Result<upload::EvidenceUpload, ApiError> {
    Ok(receive_evidence(
        multipart,
        &state.services.data_dir.join("uploads"),
        state.config.max_upload_bytes,
    )
    .await?)
}

/// Reads the received file as its kind and prepares what would be written with it
/// ([`desk::intake::prepare`]: the one intake every upload goes through).
pub(super) async fn read_received(
    state: &AppState,
    pilot: &Pilot,
    upload: upload::EvidenceUpload,
    lang: Lang,
) -> Result<ReadUpload, ApiError> {
    let file = upload.file;
    let prepared = desk::intake::prepare(
        &state.services,
        pilot,
        Received {
            file_name: &file.file_name,
            sha256: &file.sha256,
            temp_path: &file.temp_path,
        },
        &upload.fields,
        lang,
    )
    .await?;
    Ok(ReadUpload {
        file,
        fields: upload.fields,
        kind: prepared.kind,
        recorded: prepared.recorded.clone(),
        lang,
        warnings: prepared.warnings.clone(),
        prepared,
    })
}

/// `GET /api/v1/pilots/{id}/operating-points`: every operating point of the pilot's load-test
/// evidence, newest upload first, in the importers' vocabulary (`scenario`, `concurrency`,
/// `request_rate`, `completed`, `failed`, `output_tokens_per_s`, and `metrics` keyed `ttft_ms`,
/// `tpot_ms`, `itl_ms`, `e2e_ms` with the statistics the file has), each with its evidence id,
/// file, tool and version.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/operating-points",
    tag = "evidence",
    params(("id" = i64, Path, description = "The pilot's id.")),
    responses(
        (status = 200, description = "Every operating point, newest upload first.", body = Vec<ApiOperatingPoint>),
        (status = 400, description = "The path id is not an integer.", body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
    )
)]
pub async fn operating_points(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(pilot_id): Path<i64>,
) -> Result<Json<Vec<ApiOperatingPoint>>, ApiError> {
    visible_pilot(&state.services.store, &user, pilot_id).await?;
    let evidence = desk::readable::in_force(
        &state.services.store,
        pilot_id,
        Some(EvidenceKind::LoadTest),
    )
    .await?;
    let mut points = Vec::new();
    for (file, summary) in evidence {
        let import: engine::ingest::Import = serde_json::from_str(&summary).map_err(|error| {
            tracing::error!(%error, evidence = file.id, "stored load-test summary unreadable");
            ServiceError::Internal
        })?;
        for point in import.points {
            points.push(ApiOperatingPoint {
                point,
                evidence_id: file.id,
                file_name: file.file_name.clone(),
                tool: import.tool.clone(),
                tool_version: import.tool_version.clone(),
            });
        }
    }
    Ok(Json(points))
}

/// A load test's operating point, with the file it came from.
#[derive(Serialize, ToSchema)]
pub struct ApiOperatingPoint {
    #[serde(flatten)]
    pub point: OperatingPoint,
    pub evidence_id: i64,
    pub file_name: String,
    /// The tool that wrote the file (`vllm bench serve`, `aiperf`, `genai-perf`, `guidellm`).
    pub tool: String,
    pub tool_version: Option<String>,
}
