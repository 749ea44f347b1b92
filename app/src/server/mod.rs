//! The server side of the UI (compiled with the `ssr` feature, never into the browser's wasm):
//! what server functions need from the request they run in. The services themselves live in the
//! `desk` crate; this module re-exports them under the names server functions use, and adds the
//! Leptos-context glue: [`services`], [`respond`], [`auth::require`] and [`csp`].

pub mod auth;
pub mod csp;

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
