//! Every refusal of the REST API is the documented `{"error": "…", "kind": "…"}` JSON.
//!
//! The routes answer their own errors that way ([`crate::routes::api_v1::ApiError`]), but some
//! refusals happen before a handler runs: axum's extractors reject a path id that is not an
//! integer, a malformed multipart body or JSON with a wrong content type in plain text, a
//! method the path does not take with an empty 405, and a path no route has falls through to
//! the HTML not-found page. A script reading the API should not need to know which layer
//! refused it, so this middleware rewrites any such answer under `/api/v1/` into the JSON form,
//! keeping its status, its headers (`Allow`, `Retry-After`) and its message.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// Longer plain-text bodies are not error messages; they are cut.
const MESSAGE_LIMIT: usize = 16 * 1024;

pub async fn json_errors(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/v1/");
    let response = next.run(request).await;
    let status = response.status();
    if !api || !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    let (mut parts, body) = response.into_parts();
    let text = to_bytes(body, MESSAGE_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if html || text.is_empty() {
        default_message(status)
    } else {
        text
    };
    let body = serde_json::json!({ "error": message, "kind": kind(status) }).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// The `kind` of a status, as [`desk::ServiceError::kind`] names it where one exists.
fn kind(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_argument",
        401 => "unauthenticated",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        413 => "too_large",
        415 => "unsupported_media_type",
        422 => "invalid",
        429 => "too_many_attempts",
        503 => "unavailable",
        s if s >= 500 => "internal",
        _ => "bad_request",
    }
}

fn default_message(status: StatusCode) -> String {
    match status.as_u16() {
        404 => "No such API path or object (see /api/v1/openapi.json).".into(),
        405 => "This API path does not take that method (see the Allow header).".into(),
        _ => status
            .canonical_reason()
            .unwrap_or("The request was refused.")
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_a_kind_and_a_message() {
        for code in [
            400, 401, 403, 404, 405, 409, 413, 415, 418, 422, 429, 500, 503,
        ] {
            let status = StatusCode::from_u16(code).unwrap();
            assert!(!kind(status).is_empty());
            assert!(!default_message(status).is_empty());
        }
        assert_eq!(kind(StatusCode::BAD_REQUEST), "bad_argument");
    }
}
