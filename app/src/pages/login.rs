//! The sign-in page.

use crate::api::session::Login;
use crate::components::{LanguageSwitch, tr};
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
        <Title text=tr("Sign in", "Anmelden")/>
        <main class="login">
            <div class="login-card">
                <div class="login-brand">
                    <span class="brand-mark" aria-hidden="true">"PD"</span>
                    <span>"Pilot Desk"</span>
                    <LanguageSwitch/>
                </div>
                <h1>{tr("Sign in", "Anmelden")}</h1>
                <p class="muted">{tr("Plans, evidence and reports for private LLM pilots.", "Pläne, Nachweise und Berichte für Piloten privater LLMs.")}</p>
                {error}
                <ActionForm action=login attr:class="form">
                    <input type="hidden" name="next" value=next/>
                    <label for="email">{tr("E-mail address", "E-Mail-Adresse")}</label>
                    <input id="email" type="email" name="email" autocomplete="username" required autofocus/>
                    <label for="password">{tr("Password", "Passwort")}</label>
                    <input id="password" type="password" name="password" autocomplete="current-password" required/>
                    <button type="submit" class="button button-primary" disabled=move || login.pending().get()>
                        {move || if login.pending().get() { tr("Signing in…", "Anmeldung läuft…") } else { tr("Sign in", "Anmelden") }}
                    </button>
                </ActionForm>
                <p class="muted small">
                    {tr("No account? Your assessment team or administrator creates one for you.", "Kein Konto? Ihr Bewertungsteam oder Ihre Administration legt eines für Sie an.")}
                </p>
            </div>
        </main>
    }
}
