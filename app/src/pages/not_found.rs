use leptos::prelude::*;
use leptos_meta::Title;

/// The page for any path that leads nowhere (HTTP 404).
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text="Not found"/>
        <main class="page page-narrow">
            <div class="notice notice-error" role="alert">
                <strong>"Not found"</strong>
                <p>"This page does not exist, or your account cannot see it."</p>
                <a class="button" href="/">"Back to your pilots"</a>
            </div>
        </main>
    }
}
