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
        <Title text="Not found"/>
        <header class="topbar">
            <a class="brand" href="/">
                <span class="brand-mark" aria-hidden="true">"PD"</span>
                "Pilot Desk"
            </a>
            <nav class="mainnav" aria-label="Main">
                <a href="/">"Pilots"</a>
                <a href="/sizing">"Sizing"</a>
                <a href="/account">"Account"</a>
            </nav>
        </header>
        <main class="page page-narrow" id="content">
            <div class="notice notice-error" role="alert">
                <strong>"Not found"</strong>
                <p>"This page does not exist, or your account cannot see it."</p>
                <a class="button" href="/">"Back to your pilots"</a>
            </div>
        </main>
    }
}
