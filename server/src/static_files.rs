//! The browser bundle and the site's static files: content-addressed, precompressed, cached.
//!
//! The build (`scripts/common.sh`) puts the bundle — the wasm module, its JavaScript, the
//! stylesheet — into `<site>/pkg/<hash>/`, where `<hash>` is taken from their content, writes
//! Brotli and gzip copies beside each file, and names the folder in `<site>/pkg/current`.
//! [`bundle_dir`] reads that name at start-up so the page links the folder of this build; a
//! browser may therefore keep everything under `/pkg/<hash>/` for a year (`immutable`): a new
//! build is a new URL. Requests are answered with the precompressed copy the browser accepts
//! (`Accept-Encoding`), so nothing is compressed per request. Other static files (the favicon)
//! are revalidated on every use (`no-cache`, answered 304 when unchanged).
//!
//! Without a `current` file (a `cargo leptos` development build, or no site at all) the bundle
//! is served from `<site>/pkg/` as before, revalidated too.

use axum::Router;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, header};
use std::path::Path;
use tower_http::services::ServeDir;

/// Browsers may keep a content-addressed file forever: its URL changes with its content.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Anything else is revalidated on every use.
const REVALIDATE: &str = "no-cache";

/// The folder (relative to the site root) of the current build's bundle, `pkg/<hash>`, when
/// the build wrote one; `None` for an unhashed bundle in `pkg/`.
pub fn bundle_dir(site_root: &Path) -> Option<String> {
    let hash = std::fs::read_to_string(site_root.join("pkg").join("current")).ok()?;
    let hash = hash.trim();
    let valid = !hash.is_empty()
        && hash.len() <= 64
        && hash.bytes().all(|b| b.is_ascii_hexdigit())
        && site_root.join("pkg").join(hash).is_dir();
    valid.then(|| format!("pkg/{hash}"))
}

/// Whether `path` names a file inside a content-addressed bundle folder (`/pkg/<hex>/…`).
fn is_content_addressed(path: &str) -> bool {
    let mut parts = path.trim_start_matches('/').split('/');
    parts.next() == Some("pkg")
        && parts
            .next()
            .is_some_and(|dir| dir.len() >= 8 && dir.bytes().all(|b| b.is_ascii_hexdigit()))
        && parts.next().is_some()
}

async fn cache_control(request: Request, next: Next) -> Response {
    let immutable = is_content_addressed(request.uri().path());
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status() == http::StatusCode::NOT_MODIFIED {
        let value = if immutable { IMMUTABLE } else { REVALIDATE };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    response
}

/// `/pkg/…`: the bundle, precompressed copies preferred, with its cache policy.
pub fn router<S: Clone + Send + Sync + 'static>(site_root: &Path) -> Router<S> {
    let pkg = ServeDir::new(site_root.join("pkg"))
        .precompressed_br()
        .precompressed_gzip();
    Router::new()
        .nest_service("/pkg", pkg)
        .layer(axum::middleware::from_fn(cache_control))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_a_hashed_folder_are_immutable() {
        assert!(is_content_addressed(
            "/pkg/3fa2c9d01b7e4a55/pilot-desk.wasm"
        ));
        assert!(is_content_addressed(
            "/pkg/3fa2c9d01b7e4a55/snippets/app/inline0.js"
        ));
        assert!(!is_content_addressed("/pkg/pilot-desk.wasm"));
        assert!(!is_content_addressed("/pkg/3fa2c9d01b7e4a55"));
        assert!(!is_content_addressed("/pkg/not-a-hash/pilot-desk.js"));
        assert!(!is_content_addressed("/favicon.svg"));
    }

    #[test]
    fn the_bundle_folder_is_read_from_current_and_must_exist() {
        let site = tempfile::tempdir().unwrap();
        assert_eq!(bundle_dir(site.path()), None);
        std::fs::create_dir_all(site.path().join("pkg/0123abcd")).unwrap();
        std::fs::write(site.path().join("pkg/current"), "0123abcd\n").unwrap();
        assert_eq!(bundle_dir(site.path()).as_deref(), Some("pkg/0123abcd"));
        std::fs::write(site.path().join("pkg/current"), "../../etc\n").unwrap();
        assert_eq!(bundle_dir(site.path()), None);
        std::fs::write(site.path().join("pkg/current"), "deadbeef\n").unwrap();
        assert_eq!(bundle_dir(site.path()), None, "the folder is missing");
    }
}
