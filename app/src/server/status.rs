//! The HTTP status of a server function's error, set on the response it runs in.
//!
//! A leaf module (it knows statuses, not errors), so both the server functions' [`respond`] and
//! the argument decoder's error conversion in [`crate::error`] can use it.
//!
//! [`respond`]: super::respond

/// Sets `status` (and `Retry-After` when `retry_after_s` is known) on the current response.
///
/// A plain HTML form posted before the page's JavaScript has loaded is the exception: Leptos
/// answers it with a redirect back to the form (carrying the error), and an error status on that
/// redirect would make the browser show raw JSON instead of the page.
pub fn set_error_status(status: u16, retry_after_s: Option<u64>) {
    if !is_plain_form_post()
        && let Some(options) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>()
        && let Ok(status) = http::StatusCode::from_u16(status)
    {
        options.set_status(status);
        if let Some(seconds) = retry_after_s
            && let Ok(value) = http::HeaderValue::from_str(&seconds.to_string())
        {
            options.insert_header(http::header::RETRY_AFTER, value);
        }
    }
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
