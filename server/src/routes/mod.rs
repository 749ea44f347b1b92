//! Plain axum routes beside the Leptos pages and server functions.

pub mod api_v1;
pub mod api_v1_plan;
pub mod api_v1_predict;
pub mod demand;
pub mod evidence;
pub mod evidence_form;
pub mod health;
pub mod quality;
pub mod report;
pub mod traffic_trace;

use crate::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

/// The plain routes; `max_upload_bytes` bounds evidence uploads (`MAX_UPLOAD_MB`).
pub fn router(max_upload_bytes: u64) -> Router<AppState> {
    let upload_limit = usize::try_from(max_upload_bytes + 1024 * 1024).unwrap_or(usize::MAX);
    Router::new()
        .route("/health", get(health::health))
        .route(
            "/api/v1/pilots/{id}/evidence",
            post(evidence::upload_evidence).layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route(
            "/pilots/{id}/evidence",
            post(evidence_form::upload_evidence_form).layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route(
            "/api/v1/pilots/{id}/operating-points",
            get(evidence::operating_points),
        )
        .merge(api_v1::router())
        .merge(api_v1_plan::router())
        .merge(api_v1_predict::router())
        .merge(demand::router())
        .merge(quality::router())
        .merge(report::router())
        .merge(traffic_trace::router())
}
