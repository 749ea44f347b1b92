//! The server side of the UI (compiled with the `ssr` feature, never into the browser's wasm):
//! what server functions need from the request they run in. The services themselves live in the
//! `desk` crate; this module re-exports them under the names server functions use, and adds the
//! Leptos-context glue: [`services`], [`respond`], [`auth::require`] and [`csp`].

pub mod auth;
pub mod csp;
pub mod status;

pub use desk::catalog::service as catalog;
pub use desk::{Services, accounts, bootstrap, evidence, store, throttle};

use crate::error::AppError;

/// The services from the Leptos context (provided per request by the server's router).
pub fn services() -> Result<Services, AppError> {
    leptos::prelude::use_context::<Services>().ok_or_else(|| {
        tracing::error!("Services missing from the Leptos context");
        AppError::Internal
    })
}

/// Passes a server function's result through, setting the HTTP status of an error on the
/// response (see [`status::set_error_status`]) so a browser's script, a CLI or a test sees
/// 401/404/422 rather than a generic 500.
pub fn respond<T>(result: Result<T, AppError>) -> Result<T, AppError> {
    if let Err(error) = &result {
        status::set_error_status(error.status_code(), error.retry_after_s());
    }
    result
}
