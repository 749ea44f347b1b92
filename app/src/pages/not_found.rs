use crate::components::{LanguageSwitch, tr};
use leptos::prelude::*;
use leptos_meta::Title;

/// The page for any path that leads nowhere (HTTP 404), with the main navigation.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    // Outside the signed-in frame (the router's fallback), so it carries a plain bar of its
    // own: someone who typed a wrong address still has the way to every part of the app.
    view! {
        <Title text=tr("Not found", "Nicht gefunden")/>
        <header class="topbar">
            <a class="brand" href="/">
                <span class="brand-mark" aria-hidden="true">"PD"</span>
                "Pilot Desk"
            </a>
            <nav class="mainnav" aria-label=tr("Main", "Hauptnavigation")>
                <a href="/">{tr("Pilots", "Piloten")}</a>
                <a href="/sizing">{tr("Sizing", "Dimensionierung")}</a>
                <a href="/account">{tr("Account", "Konto")}</a>
            </nav>
            <LanguageSwitch/>
        </header>
        <main class="page page-narrow" id="content">
            <div class="notice notice-error" role="alert">
                <strong>{tr("Not found", "Nicht gefunden")}</strong>
                <p>{tr("This page does not exist, or your account cannot see it.", "Diese Seite gibt es nicht, oder Ihr Konto darf sie nicht sehen.")}</p>
                <a class="button" href="/">{tr("Back to your pilots", "Zurück zu Ihren Piloten")}</a>
            </div>
        </main>
    }
}
