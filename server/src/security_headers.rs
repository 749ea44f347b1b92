//! Security headers on every response, and the one route whose body may be larger.
//!
//! * `Content-Security-Policy`: the app's pages get theirs from [`page_policy`], the layer
//!   around the page routes, which makes the script nonce before rendering and writes the
//!   policy with it (see `app::server::csp`); the report routes set theirs; every other
//!   response gets one here that fits its type: HTML this server writes by hand may use inline
//!   style and nothing else, and everything that is not a document may load nothing.
//! * `Cross-Origin-Opener-Policy: same-origin`, so a page opened from another site cannot script
//!   this one through `window.opener`.
//! * Server-function bodies are limited to axum's default 2 MiB, except the calibration page's
//!   pasted vLLM start-up log ([`STARTUP_LOG_BODY_LIMIT`]): the log may be 4 MiB and a form
//!   encodes each of its special characters as three bytes.

use app::server::csp::{NON_DOCUMENT_POLICY, PLAIN_HTML_POLICY, PageNonce};
use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, header};
use tower::{Layer, ServiceExt};

/// The server function that accepts a pasted start-up log.
pub const STARTUP_LOG_ENDPOINT: &str = "/api/add_startup_log";

/// Largest body of [`STARTUP_LOG_ENDPOINT`]: three times the 4 MiB log (percent-encoding at
/// worst) plus 1 MiB for the other fields.
pub const STARTUP_LOG_BODY_LIMIT: usize = 3 * desk::evidence::MAX_STARTUP_LOG_BYTES + (1 << 20);

/// Axum middleware around the app's page routes (and their not-found fallback): makes this
/// request's script nonce, hands it to the render through the request's extensions, and puts
/// the page policy with that nonce on the HTML that comes back, replacing any other. Set here,
/// after the handler answered, the header cannot miss the page nor disagree with its scripts.
pub async fn page_policy(mut request: Request, next: Next) -> Response {
    let nonce = PageNonce::new();
    let policy = app::server::csp::page_policy(&nonce.0);
    request.extensions_mut().insert(nonce);
    let mut response = next.run(request).await;
    if is_html(&response)
        && let Ok(value) = HeaderValue::from_str(&policy)
    {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// Whether a response is an HTML document.
fn is_html(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/html"))
}

/// Axum middleware for the whole router (see the module documentation).
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = if request.uri().path() == STARTUP_LOG_ENDPOINT {
        match DefaultBodyLimit::max(STARTUP_LOG_BODY_LIMIT)
            .layer(next)
            .oneshot(request)
            .await
        {
            Ok(response) => response,
            Err(never) => match never {},
        }
    } else {
        next.run(request).await
    };
    if !response
        .headers()
        .contains_key(header::CONTENT_SECURITY_POLICY)
    {
        let policy = if is_html(&response) {
            PLAIN_HTML_POLICY
        } else {
            NON_DOCUMENT_POLICY
        };
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(policy),
        );
    }
    response
        .headers_mut()
        .entry("cross-origin-opener-policy")
        .or_insert(HeaderValue::from_static("same-origin"));
    response
}
