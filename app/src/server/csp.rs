//! Content-Security-Policy: what each kind of response may load and run.
//!
//! Pages are the Leptos shell: the one inline script Leptos writes (the hydration bootstrap, and
//! serialised resources) carries a per-response nonce. The nonce is made *before* rendering, by
//! the server layer that owns page responses: it puts a [`PageNonce`] into the request, the
//! render context takes it from there ([`provide_page_nonce`]) for the scripts, and the same
//! layer writes [`page_policy`] with it onto the response. The header therefore never depends on
//! when (or whether) the shell ran before the headers left: an earlier design set the header
//! from inside the shell, and some documents of impatient navigations left with the fallback's
//! plain policy, which blocks the stylesheet and the wasm (issue #38).
//!
//! Everything else the page loads comes from this site (`/pkg/…`); WebAssembly needs
//! `'wasm-unsafe-eval'`. No inline style is allowed on pages, and no `<object>`, `<base>` or
//! framing by other sites. The server's `security_headers` layer adds a policy to every other
//! response that has none.

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

/// The script nonce of one page response, made by the server's page layer before rendering and
/// carried in the request's extensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageNonce(pub String);

impl PageNonce {
    /// A fresh nonce: 128 random bits, base64url without padding (as Leptos makes them).
    pub fn new() -> PageNonce {
        PageNonce(leptos::nonce::Nonce::new().to_string())
    }
}

impl Default for PageNonce {
    fn default() -> Self {
        PageNonce::new()
    }
}

/// Part of every page render's context: the scripts Leptos writes carry the nonce the page
/// layer made for this request (it replaces the one `leptos_axum` provides). Without a
/// [`PageNonce`] (a render outside the page layer) the render keeps Leptos' own, and its policy
/// is whatever that caller sets.
pub fn provide_page_nonce() {
    use leptos::prelude::{provide_context, use_context};
    let nonce = use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<PageNonce>().cloned());
    if let Some(PageNonce(nonce)) = nonce {
        provide_context(leptos::nonce::Nonce::from_value(nonce));
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
