//! The interface's language for one request: what the person chose with the language switch
//! (a cookie, so it holds before they sign in), else what their browser asks for
//! (`Accept-Language`), else English.
//!
//! A signed-in user's choice is also kept with their account ([`remember_choice`]), and signing
//! in sets the browser's cookie from it ([`sign_in_cookie`]): the setting follows the person to
//! another browser without a database read on every page.
//!
//! Pages, their server functions and the switch's route all read it from the request's headers
//! with [`request_language`], so a page rendered on the server and the fragments its script
//! fetches later speak the same language.

use engine::locale::Lang;
use http::{HeaderMap, header};

tokio::task_local! {
    /// The language of the request this task serves (set by the session guard).
    static REQUEST_LANGUAGE: Lang;
}

/// Runs `serve` (a request's handling) knowing its language, so code that renders after an
/// `.await` without its reactive context (a server function's fragment) still finds it with
/// [`current_language`].
pub async fn with_language<F: std::future::Future>(lang: Lang, serve: F) -> F::Output {
    REQUEST_LANGUAGE.scope(lang, serve).await
}

/// The language of the request this task serves, when the session guard set one.
pub fn current_language() -> Option<Lang> {
    REQUEST_LANGUAGE.try_with(|lang| *lang).ok()
}

/// Name of the cookie that remembers the chosen language.
pub const LANGUAGE_COOKIE: &str = "pilotdesk_lang";

/// How long the choice is remembered: a year, renewed by every switch.
const REMEMBERED_S: u64 = 365 * 24 * 3600;

/// The request's language: the chosen one, else the browser's, else English.
pub fn request_language(headers: &HeaderMap) -> Lang {
    chosen_language(headers)
        .or_else(|| {
            headers
                .get_all(header::ACCEPT_LANGUAGE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find_map(Lang::from_accept_language)
        })
        .unwrap_or_default()
}

/// The language the cookie names, when it names one the product speaks.
fn chosen_language(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == LANGUAGE_COOKIE)
        .find_map(|(_, value)| match value.trim() {
            "" => None,
            code => Lang::parse(code),
        })
}

/// The `Set-Cookie` value that remembers `lang` (HttpOnly: nothing in the page reads it; the
/// server renders `<html lang>` from it).
pub fn language_cookie(lang: Lang, secure: bool) -> String {
    format!(
        "{LANGUAGE_COOKIE}={}; Path=/; Max-Age={REMEMBERED_S}; SameSite=Lax; HttpOnly{}",
        lang.code(),
        if secure { "; Secure" } else { "" }
    )
}

/// Remembers a switch to `lang`: with the account of a signed-in `user`, and in this browser
/// (the answer is the `Set-Cookie` value for the switch's response).
pub async fn remember_choice(
    store: &crate::store::Store,
    user: Option<i64>,
    lang: Lang,
    secure: bool,
) -> Result<String, crate::ServiceError> {
    if let Some(user) = user {
        store.set_user_language(user, lang).await?;
    }
    Ok(language_cookie(lang, secure))
}

/// The `Set-Cookie` value that carries a user's saved language into the browser they sign in
/// with; `None` when they never chose one (their browser's language keeps deciding).
pub fn sign_in_cookie(saved: Option<Lang>, secure: bool) -> Option<String> {
    saved.map(|lang| language_cookie(lang, secure))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn the_choice_wins_over_the_browser_and_english_is_the_default() {
        assert_eq!(request_language(&HeaderMap::new()), Lang::En);
        let german_browser = (header::ACCEPT_LANGUAGE, "de-DE,de;q=0.9,en;q=0.5");
        assert_eq!(
            request_language(&headers(std::slice::from_ref(&german_browser))),
            Lang::De
        );
        let chose_english = (header::COOKIE, "pilotdesk_session=abc; pilotdesk_lang=en");
        assert_eq!(
            request_language(&headers(&[german_browser.clone(), chose_english])),
            Lang::En
        );
        // A cookie naming no language of the product is ignored, not an error.
        let odd = (header::COOKIE, "pilotdesk_lang=fr; other=1");
        assert_eq!(request_language(&headers(&[german_browser, odd])), Lang::De);
        let french_browser = (header::ACCEPT_LANGUAGE, "fr-FR");
        assert_eq!(request_language(&headers(&[french_browser])), Lang::En);
    }

    #[test]
    fn the_cookie_is_site_wide_http_only_and_lax() {
        let cookie = language_cookie(Lang::De, false);
        assert!(cookie.starts_with("pilotdesk_lang=de; Path=/;"), "{cookie}");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
        assert!(!cookie.contains("Secure"));
        assert!(language_cookie(Lang::En, true).ends_with("; Secure"));
    }
}
