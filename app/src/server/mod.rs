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
pub mod catalog;
pub mod csp;
pub mod evidence;
pub mod store;
pub mod throttle;

use crate::error::AppError;
use store::{Store, StoreError};

/// What server functions and plain routes share: the store and the session settings.
#[derive(Clone, Debug)]
pub struct Services {
    pub store: Store,
    pub auth: auth::AuthSettings,
    /// `DATA_DIR`: evidence files are kept under `evidence/`, uploads in progress under `uploads/`.
    pub data_dir: std::path::PathBuf,
    /// Headless Chromium that prints reports to PDF (`CHROMIUM_PATH`, else found on the
    /// system); `None`: PDF export is off and the report page says how to enable it.
    pub chromium: Option<std::path::PathBuf>,
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
/// response so a browser's script, a CLI or a test sees 401/404/422 rather than a generic 500
/// (and `Retry-After` when the error knows when to retry).
///
/// A plain HTML form posted before the page's JavaScript has loaded is the exception: Leptos
/// answers it with a redirect back to the form (carrying the error), and an error status on that
/// redirect would make the browser show raw JSON instead of the page.
pub fn respond<T>(result: Result<T, AppError>) -> Result<T, AppError> {
    if let Err(error) = &result
        && !is_plain_form_post()
        && let Some(options) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>()
        && let Ok(status) = http::StatusCode::from_u16(error.status_code())
    {
        options.set_status(status);
        if let Some(seconds) = error.retry_after_s()
            && let Ok(value) = http::HeaderValue::from_str(&seconds.to_string())
        {
            options.insert_header(http::header::RETRY_AFTER, value);
        }
    }
    result
}

/// True for a POST from a browser without the app's JavaScript (it asks for HTML back).
fn is_plain_form_post() -> bool {
    leptos::prelude::use_context::<http::request::Parts>().is_some_and(|parts| {
        parts.method == http::Method::POST
            && parts
                .headers
                .get(http::header::ACCEPT)
                .and_then(|accept| accept.to_str().ok())
                .is_some_and(|accept| accept.contains("text/html"))
    })
}
