//! One request, followed through the log: a request id and a span per request.
//!
//! Why: a slow or failing request in production must be traceable from the client's report to
//! every line the server wrote for it, across instances behind a load balancer. So every request
//! gets an id (the caller's `X-Request-Id` when it sends a sensible one, as a proxy or a client
//! library does, else a new random one), the id is returned in the response's `X-Request-Id`,
//! and everything logged while the request runs is inside a `request` span carrying the id,
//! method and route; the span's closing line adds the status and the latency, at `warn` when the
//! request took longer than `SLOW_REQUEST_MS`.
//!
//! The route is the path with its variable parts replaced (`/pilots/{id}/report`,
//! `/share/{token}`), so log lines group by route and share tokens never reach the log.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderName, HeaderValue};
use std::time::{Duration, Instant};
use tracing::Instrument;

/// The header a request id travels in, both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// How long a request may take before its closing line is a warning.
#[derive(Clone, Copy, Debug)]
pub struct SlowRequest(pub Duration);

/// The middleware: see the module docs.
pub async fn trace_request(
    State(slow): State<SlowRequest>,
    mut request: Request,
    next: Next,
) -> Response {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|value| is_acceptable_id(value))
        .map(str::to_owned)
        .unwrap_or_else(new_request_id);
    let header = HeaderValue::from_str(&id).expect("request ids are visible ASCII");
    request.headers_mut().insert(REQUEST_ID, header.clone());
    let span = tracing::info_span!(
        "request",
        id = %id,
        method = %request.method(),
        route = %route_of(request.uri().path()),
    );
    let started = Instant::now();
    let mut response = next.run(request).instrument(span.clone()).await;
    let latency = started.elapsed();
    let status = response.status().as_u16();
    let latency_ms = latency.as_secs_f64() * 1000.0;
    span.in_scope(|| {
        if latency > slow.0 {
            tracing::warn!(
                status,
                latency_ms,
                slow_after_ms = slow.0.as_millis() as u64,
                "slow request"
            );
        } else {
            tracing::info!(status, latency_ms, "request");
        }
    });
    response.headers_mut().insert(REQUEST_ID, header);
    response
}

/// A caller's id is kept when it is 1–128 characters of letters, digits and `-_.:`; anything
/// else (empty, too long, spaces, quotes) could forge log lines or flood them, and is replaced.
fn is_acceptable_id(value: &str) -> bool {
    (1..=128).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// 128 random bits as 32 hex characters.
fn new_request_id() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The route of a path: numeric segments become `{id}`, long opaque ones (share tokens, file
/// digests) `{token}`.
pub fn route_of(path: &str) -> String {
    let segments: Vec<&str> = path
        .split('/')
        .map(|segment| {
            if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                "{id}"
            } else if segment.len() >= 24 && !segment.contains('.') {
                "{token}"
            } else {
                segment
            }
        })
        .collect();
    segments.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::routing::get;
    use std::sync::{Arc, Mutex};
    use tower::ServiceExt;

    /// Collects what the subscriber writes, to read back as text.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn app(slow: Duration) -> Router {
        Router::new()
            .route(
                "/pilots/{id}/report",
                get(|| async {
                    tracing::info!("inside the handler");
                    "ok"
                }),
            )
            .layer(axum::middleware::from_fn_with_state(
                SlowRequest(slow),
                trace_request,
            ))
    }

    /// Sends one request to `app` with the log captured as JSON lines.
    async fn send(app: Router, request_id: Option<&str>) -> (Response, String) {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .with_writer(move || writer.clone())
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let mut request = Request::builder().uri("/pilots/42/report");
        if let Some(id) = request_id {
            request = request.header("x-request-id", id);
        }
        let response = app
            .oneshot(request.body(axum::body::Body::empty()).unwrap())
            .await
            .unwrap();
        let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        (response, log)
    }

    #[tokio::test]
    async fn a_callers_request_id_comes_back_and_is_on_every_line_of_the_request() {
        let (response, log) = send(app(Duration::from_secs(60)), Some("lb-7f3a.91")).await;
        assert_eq!(response.headers()["x-request-id"], "lb-7f3a.91");
        let lines: Vec<serde_json::Value> = log
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{log}");
        for line in &lines {
            assert_eq!(line["span"]["id"], "lb-7f3a.91");
            assert_eq!(line["span"]["method"], "GET");
            assert_eq!(line["span"]["route"], "/pilots/{id}/report");
        }
        assert_eq!(lines[0]["fields"]["message"], "inside the handler");
        let last = &lines[1];
        assert_eq!(last["level"], "INFO");
        assert_eq!(last["fields"]["status"], 200);
        assert!(last["fields"]["latency_ms"].as_f64().unwrap() >= 0.0);
    }

    #[tokio::test]
    async fn a_request_without_a_usable_id_gets_a_new_one_and_slow_requests_warn() {
        let (response, log) = send(app(Duration::ZERO), Some("two words\"")).await;
        let id = response.headers()["x-request-id"]
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
        let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
        assert_eq!(last["level"], "WARN");
        assert_eq!(last["fields"]["message"], "slow request");
        assert_eq!(last["span"]["id"], id);
        let (other, _) = send(app(Duration::ZERO), None).await;
        assert_ne!(other.headers()["x-request-id"], id.as_str());
    }

    #[test]
    fn routes_hide_ids_and_tokens() {
        assert_eq!(route_of("/pilots/12/traffic"), "/pilots/{id}/traffic");
        assert_eq!(
            route_of("/share/3f9c2a7d0b1e4f5a6c7d8e9f0a1b2c3d/report.pdf"),
            "/share/{token}/report.pdf"
        );
        assert_eq!(route_of("/pkg/pilot-desk.wasm"), "/pkg/pilot-desk.wasm");
        assert_eq!(route_of("/"), "/");
    }
}
