//! Content-Security-Policy: what each kind of response may load and run.
//!
//! Pages are the Leptos shell: the one inline script Leptos writes (the hydration bootstrap, and
//! serialised resources) carries a per-response nonce, which [`send_page_policy`] puts into the
//! page's header while the shell renders, so the header and the scripts always agree. Everything
//! else the page loads comes from this site (`/pkg/…`); WebAssembly needs `'wasm-unsafe-eval'`.
//! No inline style is allowed on pages, and no `<object>`, `<base>` or framing by other sites.
//! The server's `security_headers` layer adds a policy to every response that has none.

/// The policy of a page whose inline scripts carry `nonce`.
pub fn page_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
         frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'"
    )
}

/// The self-contained report (inline CSS and SVG, no script, no URL); the signed-in report
/// page previews it in a frame of this site.
pub const REPORT_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
     object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/// The same report behind a share link: nobody frames it.
pub const SHARED_REPORT_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
     object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Any other HTML this server writes (a dead share link's page, error pages): inline style only.
pub const PLAIN_HTML_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// JSON, files and everything that is not a document: nothing at all.
pub const NON_DOCUMENT_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// Called by the shell while it renders: sets the page policy with this response's nonce.
pub fn send_page_policy() {
    use leptos::prelude::use_context;
    let Some(options) = use_context::<leptos_axum::ResponseOptions>() else {
        return;
    };
    let policy = match leptos::nonce::use_nonce() {
        Some(nonce) => page_policy(&nonce),
        // Without a nonce no inline script may run: the page stays readable, unhydrated.
        None => page_policy("none-issued"),
    };
    if let Ok(value) = http::HeaderValue::from_str(&policy) {
        options.insert_header(http::header::CONTENT_SECURITY_POLICY, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_run_only_this_sites_scripts_and_the_nonced_inline_one() {
        let policy = page_policy("abc123");
        assert!(policy.contains("script-src 'self' 'nonce-abc123' 'wasm-unsafe-eval'"));
        assert!(!policy.contains("unsafe-inline"));
        assert!(policy.contains("object-src 'none'"));
        assert!(policy.contains("base-uri 'none'"));
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(!REPORT_POLICY.contains("script"));
        assert!(REPORT_POLICY.contains("frame-ancestors 'self'"));
    }
}
