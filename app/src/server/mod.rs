//! Server-only code (compiled with the `ssr` feature, never into the browser's wasm).
//!
//! * [`store`]: all SQL.
//! * [`auth`]: passwords, sessions, the request guard and the one authorisation policy.
//! * [`accounts`]: creating accounts the same way from the admin pages and the command line.
//! * [`bootstrap`]: the first start (admin account, demo pilot).
//! * [`evidence`]: keeping evidence files and reading vLLM start-up logs for calibration.

pub mod accounts;
pub mod auth;
pub mod bootstrap;
pub mod evidence;
pub mod store;

use crate::error::AppError;
use store::{Store, StoreError};

/// What server functions and plain routes share: the store and the session settings.
#[derive(Clone, Debug)]
pub struct Services {
    pub store: Store,
    pub auth: auth::AuthSettings,
    /// `DATA_DIR`: evidence files are kept under `evidence/`, uploads in progress under `uploads/`.
    pub data_dir: std::path::PathBuf,
}

impl From<StoreError> for AppError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Conflict(message) => AppError::Invalid(message),
            other => {
                tracing::error!(error = %other, "store failure");
                AppError::Internal
            }
        }
    }
}

/// The services from the Leptos context (provided per request by the server's router).
pub fn services() -> Result<Services, AppError> {
    leptos::prelude::use_context::<Services>().ok_or_else(|| {
        tracing::error!("Services missing from the Leptos context");
        AppError::Internal
    })
}

/// Passes a server function's result through, setting the HTTP status of an error on the
/// response so a browser, a script or a test sees 401/404/422 rather than a generic 500.
pub fn respond<T>(result: Result<T, AppError>) -> Result<T, AppError> {
    if let Err(error) = &result
        && let Some(options) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>()
        && let Ok(status) = http::StatusCode::from_u16(error.status_code())
    {
        options.set_status(status);
    }
    result
}
