//! The sign-in page.

use crate::api::session::Login;
use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[component]
pub fn LoginPage() -> impl IntoView {
    let login = ServerAction::<Login>::new();
    let query = use_query_map();
    let next = move || query.read().get("next").unwrap_or_default();
    let error = move || {
        login
            .value()
            .get()
            .and_then(|result| result.err())
            .map(|error: AppError| view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> })
    };
    view! {
        <Title text="Sign in"/>
        <main class="login">
            <div class="login-card">
                <div class="login-brand">
                    <span class="brand-mark" aria-hidden="true">"PD"</span>
                    <span>"Pilot Desk"</span>
                </div>
                <h1>"Sign in"</h1>
                <p class="muted">"Plans, evidence and reports for private LLM pilots."</p>
                {error}
                <ActionForm action=login attr:class="form">
                    <input type="hidden" name="next" value=next/>
                    <label for="email">"E-mail address"</label>
                    <input id="email" type="email" name="email" autocomplete="username" required autofocus/>
                    <label for="password">"Password"</label>
                    <input id="password" type="password" name="password" autocomplete="current-password" required/>
                    <button type="submit" class="button button-primary" disabled=move || login.pending().get()>
                        {move || if login.pending().get() { "Signing in…" } else { "Sign in" }}
                    </button>
                </ActionForm>
                <p class="muted small">
                    "No account? Your assessment team or administrator creates one for you."
                </p>
            </div>
        </main>
    }
}
