//! The interface's language in the page, and the switch between English and German.
//!
//! The server decides the language of each request ([`desk::ui_language`]: the person's choice,
//! else their browser's) and renders `<html lang>` with it; the browser's hydration reads that
//! attribute back ([`provide_ui_lang`]), so both sides render the same words. Server functions
//! that render fragments read it from their own request's headers, which carry the same cookie
//! and `Accept-Language`.
//!
//! Strings are written whole in both languages where they are used ([`tr`], or
//! [`Lang::pick`](engine::locale::Lang::pick) for a `lang` in hand), like the report's: a
//! sentence is never assembled from translated words.

use engine::locale::Lang;
use leptos::prelude::*;

/// The page's language, in the Leptos context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UiLang(pub Lang);

/// The language of what is being rendered: the page's, else (a server function's fragment) the
/// request's, else English.
pub fn lang() -> Lang {
    if let Some(UiLang(lang)) = use_context::<UiLang>() {
        return lang;
    }
    #[cfg(feature = "ssr")]
    if let Some(parts) = use_context::<http::request::Parts>() {
        return desk::ui_language::request_language(&parts.headers);
    }
    // Rendering after an `.await` can run without the reactive context (seen once in a full
    // run: a staged check's fragment in English on a German page); the request's task knows.
    #[cfg(feature = "ssr")]
    if let Some(lang) = desk::ui_language::current_language() {
        return lang;
    }
    Lang::En
}

/// `en` or `de`, whichever the page speaks.
pub fn tr(en: &'static str, de: &'static str) -> &'static str {
    lang().pick(en, de)
}

/// Puts the page's language into the context: on the server the request's, in the browser the
/// one the server rendered the document in.
pub fn provide_ui_lang() {
    #[cfg(feature = "hydrate")]
    let lang = document()
        .document_element()
        .and_then(|root| root.get_attribute("lang"))
        .and_then(|code| Lang::parse(&code))
        .unwrap_or_default();
    #[cfg(not(feature = "hydrate"))]
    let lang = lang();
    provide_context(UiLang(lang));
}

/// The switch to the other language: a form that posts it to `/language`, which remembers the
/// choice and comes back to this page (named by the browser's `Referer`: the page holds no copy
/// of its own address). It works without JavaScript, and before signing in.
#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let current = lang();
    let other = current.other();
    let title = current.pick(
        "Show Pilot Desk in German (remembered in this browser)",
        "Pilot Desk auf Englisch anzeigen (in diesem Browser gemerkt)",
    );
    view! {
        <form method="post" action="/language" class="language-switch">
            <input type="hidden" name="lang" value=other.code()/>
            <button type="submit" class="button button-quiet" lang=other.code() title=title>
                {other.own_name()}
            </button>
        </form>
    }
}
