//! Plain axum routes beside the Leptos pages and server functions.

pub mod api_v1;
pub mod api_v1_evidence;
pub mod api_v1_plan;
pub mod api_v1_predict;
pub mod api_v1_recommendation;
pub mod demand;
pub mod evidence;
pub mod evidence_form;
pub mod health;
pub mod language;
pub mod live;
pub mod metrics_source;
pub mod openapi;
pub mod quality;
pub mod report;
pub mod traffic_trace;

use crate::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{MethodRouter, get, post};

/// The plain routes; `max_upload_bytes` bounds evidence uploads (`MAX_UPLOAD_MB`).
pub fn router(max_upload_bytes: u64) -> Router<AppState> {
    // Every route that receives an evidence file: the upload, its check and the plain form.
    let bounded = |route: MethodRouter<AppState>| {
        let upload_limit = usize::try_from(max_upload_bytes + 1024 * 1024).unwrap_or(usize::MAX);
        route.layer(DefaultBodyLimit::max(upload_limit)).layer(
            axum::middleware::from_fn_with_state(max_upload_bytes, refuse_declared_over_limit),
        )
    };
    Router::new()
        .route("/health", get(health::health))
        .route("/language", post(language::choose_language))
        // Here rather than in `api_v1`: the document names every route module, `api_v1` too.
        .route("/api/v1/openapi.json", get(openapi::openapi))
        .route(
            "/api/v1/pilots/{id}/evidence",
            bounded(post(evidence::upload_evidence)).get(api_v1_evidence::list),
        )
        .route(
            "/api/v1/pilots/{id}/evidence/preview",
            bounded(post(evidence::preview_evidence)),
        )
        .route(
            "/pilots/{id}/evidence",
            bounded(post(evidence_form::upload_evidence_form)),
        )
        .route(
            "/pilots/{id}/evidence/staged/{token}",
            post(evidence_form::store_staged_form),
        )
        .route(
            "/pilots/{id}/evidence/staged/{token}/discard",
            post(evidence_form::discard_staged_form),
        )
        .route("/pilots/{id}/archive", post(evidence_form::archive_form))
        .route("/pilots/{id}/delete", post(evidence_form::delete_form))
        .route(
            "/pilots/{id}/evidence/{evidence_id}/withdraw",
            post(evidence_form::withdraw_form),
        )
        .route(
            "/pilots/{id}/evidence/{evidence_id}/restore",
            post(evidence_form::restore_form),
        )
        .route(
            "/api/v1/pilots/{id}/operating-points",
            get(evidence::operating_points),
        )
        .merge(api_v1::router())
        .merge(api_v1_evidence::router())
        .merge(api_v1_plan::router())
        .merge(api_v1_predict::router())
        .merge(api_v1_recommendation::router())
        .merge(demand::router())
        .merge(live::router())
        .merge(metrics_source::router())
        .merge(quality::router())
        .merge(report::router())
        .merge(traffic_trace::router())
}

/// Refuses an upload whose declared `Content-Length` is already over the limit (plus 1 MiB for
/// the form's other fields) with 413 before a byte of its body is read; a body without a length
/// is still stopped once it passes the limit (see [`crate::upload`]).
async fn refuse_declared_over_limit(
    axum::extract::State(max_upload_bytes): axum::extract::State<u64>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let declared = request
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match declared {
        Some(length) if length > max_upload_bytes + 1024 * 1024 => api_v1::ApiError(
            desk::ServiceError::TooLarge(max_upload_bytes / (1024 * 1024)),
        )
        .into_response(),
        _ => next.run(request).await,
    }
}
