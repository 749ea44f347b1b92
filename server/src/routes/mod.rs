//! Plain axum routes beside the Leptos pages and server functions.

pub mod api_v1;
pub mod health;

use crate::AppState;
use axum::Router;
use axum::routing::get;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health::health))
        .merge(api_v1::router())
}
