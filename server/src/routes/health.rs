//! `GET /health`: for load balancers and start-up scripts. Public, says nothing private.

use crate::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use desk::store::Backend;
use serde_json::{Value, json};

pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let store = &state.services.store;
    let database = match store.backend() {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    match store.ping().await {
        Ok(()) => (
            StatusCode::OK,
            Json(json!({ "status": "ok", "database": database })),
        ),
        Err(error) => {
            tracing::error!(%error, "health check: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "database": database })),
            )
        }
    }
}
