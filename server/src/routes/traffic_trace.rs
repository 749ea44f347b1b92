//! `GET /pilots/{id}/traffic/trace.jsonl`: the pilot's traffic as a Mooncake trace
//! ([`engine::twin::trace`]), for `aiperf profile --custom-dataset-type mooncake_trace
//! --fixed-schedule` on the stack to be bought. By default production's busiest hour at the
//! plan's production rate (`?copies=N`: one of N copies' share), `?scope=logged` the whole log
//! as it arrived; what was given is named in the `x-trace-basis` header
//! ([`desk::traffic::trace`] decides; this route only checks access and streams).
//!
//! Signed-in users who may see the pilot (a session or an API token; customers only their
//! organisation's pilots, 404 otherwise, as for every pilot route); a bad `scope` or `copies`
//! is 422 naming it. The trace is rebuilt from the kept raw gateway logs on each request, off
//! the async runtime. The body is streamed: a blocking task writes the lines into chunks of
//! [`CHUNK_BYTES`] and hands them over a bounded channel of [`CHUNKS_IN_FLIGHT`], so the server
//! holds at most a few chunks of the text, never all of it, and stops writing when the client
//! goes away. Status, headers and the 404s are decided before the first byte is sent.

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use desk::traffic::trace::{self, TraceScope};
use engine::twin::TimedRequest;
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

/// The query: `scope` (`production-hour`, the default, or `logged`) and `copies` (1–1024).
#[derive(serde::Deserialize)]
struct TraceQuery {
    scope: Option<String>,
    copies: Option<String>,
}

async fn trace(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<i64>,
    Query(query): Query<TraceQuery>,
) -> Result<Response, ApiError> {
    let services = &state.services;
    let pilot = desk::auth::visible_pilot(&services.store, &user, id).await?;
    let scope = TraceScope::parse(query.scope.as_deref())?;
    let copies = trace::parse_copies(query.copies.as_deref())?;
    let Some(trace) = trace::trace(services, &pilot, scope, copies).await? else {
        return Ok((
            StatusCode::NOT_FOUND,
            format!("Pilot {id} has no gateway log yet: upload one as evidence first.\n"),
        )
            .into_response());
    };
    let basis = trace.basis.header();
    let mut response = Body::from_stream(stream_lines(trace.requests)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/jsonl"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(value) = HeaderValue::from_str(&basis) {
        headers.insert("x-trace-basis", value);
    }
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
