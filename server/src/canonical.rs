//! Two rules every response follows, whatever route answers it.
//!
//! * **One address per page.** `/pilots/2/` is `/pilots/2`: a path with a trailing slash is
//!   redirected (308, method and body kept) to the same path without it, query included. Without
//!   this, the router matched no page, the Leptos fallback rendered one without its context and
//!   every signed-in role got a 500.
//! * **Nothing signed-in is cached by others.** A response that does not say how it may be
//!   cached gets `Cache-Control: no-store`, so neither a shared proxy nor the browser's back
//!   button after sign-out keeps a customer's page or JSON. Static assets say it themselves
//!   (long-lived, content-addressed; see [`crate::static_files`]) and keep theirs.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderValue, header};

/// The middleware: see the module docs.
pub async fn canonical(request: Request, next: Next) -> Response {
    if let Some(target) = without_trailing_slash(request.uri()) {
        return Redirect::permanent(&target).into_response();
    }
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The canonical address of a path ending in `/` (the root excepted), with its query.
fn without_trailing_slash(uri: &http::Uri) -> Option<String> {
    let path = uri.path();
    if path.len() <= 1 || !path.ends_with('/') {
        return None;
    }
    let trimmed = path.trim_end_matches('/');
    // `//evil.example` would be read by a browser as another host: keep one leading slash.
    let trimmed = format!("/{}", trimmed.trim_start_matches('/'));
    Some(match uri.query() {
        Some(query) => format!("{trimmed}?{query}"),
        None => trimmed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(uri: &str) -> Option<String> {
        without_trailing_slash(&uri.parse().unwrap())
    }

    #[test]
    fn trailing_slashes_go_and_nothing_else_changes() {
        assert_eq!(target("/pilots/2/").as_deref(), Some("/pilots/2"));
        assert_eq!(
            target("/sizing/?model=x").as_deref(),
            Some("/sizing?model=x")
        );
        assert_eq!(target("/account//").as_deref(), Some("/account"));
        assert_eq!(target("//evil.example/").as_deref(), Some("/evil.example"));
        assert_eq!(target("/"), None);
        assert_eq!(target("/pilots/2"), None);
        assert_eq!(target("/sizing?next=/a/"), None);
    }
}
