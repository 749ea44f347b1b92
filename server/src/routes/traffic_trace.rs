//! `GET /pilots/{id}/traffic/trace.jsonl`: the pilot's gateway traffic as a Mooncake trace
//! ([`engine::twin::trace`]), for `aiperf profile --custom-dataset-type mooncake_trace
//! --fixed-schedule` on the stack to be bought: the pilot's own users' requests, replayed at
//! the times they arrived.
//!
//! Signed-in users who may see the pilot (a session or an API token; customers only their
//! organisation's pilots, 404 otherwise, as for every pilot route). The trace is rebuilt from
//! the kept raw gateway logs on each request, off the async runtime; only three numbers per
//! request are held (start, prompt and answer tokens), so a log of a million requests needs
//! some 16 MB, not the records. They are sorted by start (the trace is in arrival order), then
//! the body is streamed: a blocking task writes the lines into chunks of [`CHUNK_BYTES`] and
//! hands them over a bounded channel of [`CHUNKS_IN_FLIGHT`], so the server holds at most a few
//! chunks of the text, never all of it, and stops writing when the client goes away. Status,
//! headers and the 404s are decided before the first byte is sent.

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use desk::ServiceError;
use engine::traffic::{ReadOptions, read_gateway_log};
use engine::twin::TimedRequest;
use engine::twin::trace::{as_logged, trace_entry};
use std::io::BufReader;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// The body is sent in chunks of about this many bytes (a chunk ends at a line end).
pub const CHUNK_BYTES: usize = 64 * 1024;
/// Chunks written ahead of the client at most.
pub const CHUNKS_IN_FLIGHT: usize = 4;

pub fn router() -> Router<AppState> {
    Router::new().route("/pilots/{id}/traffic/trace.jsonl", get(trace))
}

/// The trace's download name.
pub fn file_name(pilot_id: i64) -> String {
    desk::traffic::trace_file_name(pilot_id)
}

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "gateway trace export failed");
    ServiceError::Internal
}

async fn trace(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let services = &state.services;
    let pilot = desk::auth::visible_pilot(&services.store, &user, id).await?;
    let sources: Vec<(String, std::path::PathBuf, bool)> =
        desk::traffic::service::gateway_sources(services, pilot.id)
            .await?
            .into_iter()
            .map(|(file, path, skip)| (file.file_name, path, skip))
            .collect();
    if sources.is_empty() {
        return Ok((
            StatusCode::NOT_FOUND,
            format!("Pilot {id} has no gateway log yet: upload one as evidence first.\n"),
        )
            .into_response());
    }
    let entries = tokio::task::spawn_blocking(move || {
        let mut entries = Vec::new();
        for (name, path, skip) in sources {
            let file = std::fs::File::open(&path).map_err(|e| format!("{name}: {e}"))?;
            read_gateway_log(
                BufReader::with_capacity(1 << 16, file),
                &ReadOptions::new(name.clone()).skip_bad_lines(skip),
                |r| entries.extend(trace_entry(&r)),
                |_| {},
            )
            .map_err(|e| format!("{name}: {e}"))?;
        }
        Ok::<_, String>(entries)
    })
    .await
    .map_err(internal)?
    .map_err(internal)?;
    let requests = as_logged(entries);
    let mut response = Body::from_stream(stream_lines(requests)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/jsonl"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file_name(id)))
    {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The trace's lines (each ended by `\n`), in chunks of about [`CHUNK_BYTES`], written by a
/// blocking task at most [`CHUNKS_IN_FLIGHT`] chunks ahead of the reader; it stops as soon as
/// the receiver (the response body) is dropped.
fn stream_lines(requests: Vec<TimedRequest>) -> ReceiverStream<Result<Bytes, std::io::Error>> {
    let (sender, receiver) = mpsc::channel(CHUNKS_IN_FLIGHT);
    tokio::task::spawn_blocking(move || {
        let mut chunk = Vec::with_capacity(CHUNK_BYTES + 256);
        for line in engine::twin::mooncake_trace(&requests) {
            chunk.extend_from_slice(line.as_bytes());
            chunk.push(b'\n');
            if chunk.len() >= CHUNK_BYTES {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK_BYTES + 256));
                if sender.blocking_send(Ok(Bytes::from(full))).is_err() {
                    return; // the client went away
                }
            }
        }
        if !chunk.is_empty() {
            let _ = sender.blocking_send(Ok(Bytes::from(chunk)));
        }
    });
    ReceiverStream::new(receiver)
}
