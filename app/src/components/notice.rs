//! Notices: errors, the outcome of a form, empty states and status badges.

use crate::components::i18n::{lang, tr};
use crate::error::AppError;
use engine::pilot::PilotStatus;
use leptos::prelude::*;

/// A pilot status as a coloured badge with its meaning as a tooltip.
#[component]
pub fn StatusBadge(status: PilotStatus) -> impl IntoView {
    view! {
        <span class=format!("badge status-{}", status.as_str()) title=status.meaning_in(lang())>
            {status.label_in(lang())}
        </span>
    }
}

/// An error as a page-level notice; on the server it also sets the page's HTTP status.
/// "Not found" reads like a missing page on purpose.
#[component]
pub fn ErrorNotice(error: AppError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let (Some(options), Ok(status)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::StatusCode::from_u16(error.status_code()),
    ) {
        options.set_status(status);
    }
    let (title, hint) = match &error {
        AppError::NotFound => (
            tr("Not found", "Nicht gefunden"),
            tr(
                "It does not exist, or your account cannot see it.",
                "Es gibt es nicht, oder Ihr Konto darf es nicht sehen.",
            ),
        ),
        AppError::Unauthenticated => (
            tr("Signed out", "Abgemeldet"),
            tr("Your session has ended.", "Ihre Sitzung ist beendet."),
        ),
        AppError::Forbidden => (
            tr("Not allowed", "Nicht erlaubt"),
            tr(
                "Ask an administrator if you need this.",
                "Wenden Sie sich an die Administration, wenn Sie das brauchen.",
            ),
        ),
        _ => (tr("Something went wrong", "Etwas ist schiefgegangen"), ""),
    };
    let unauthenticated = matches!(error, AppError::Unauthenticated);
    view! {
        <div class="notice notice-error" role="alert">
            <strong>{title}</strong>
            <p>{error.to_string()} " " {hint}</p>
            {unauthenticated.then(|| view! { <a class="button" href="/login">{tr("Sign in", "Anmelden")}</a> })}
        </div>
    }
}

/// The outcome of the last submission of a form: nothing, a success message, or the error
/// (field errors read `field: message`).
#[component]
pub fn ActionResult<T, V>(
    /// The action's value (`action.value()`).
    value: V,
    #[prop(into)] success: Callback<T, String>,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: Get<Value = Option<Result<T, AppError>>> + Send + Sync + 'static,
{
    move || {
        value.get().map(|result| match result {
            Ok(v) => view! { <div class="notice notice-ok" role="status">{success.run(v)}</div> }
                .into_any(),
            Err(e) => view! { <div class="notice notice-error" role="alert">{e.to_string()}</div> }
                .into_any(),
        })
    }
}

/// What a list shows when it has nothing in it: what would be here and how to get it.
#[component]
pub fn EmptyState(title: &'static str, children: Children) -> impl IntoView {
    view! {
        <div class="empty-state">
            <h3>{title}</h3>
            {children()}
        </div>
    }
}

/// A grade's explanation: its reason, with the details behind it (the sample-size argument, the
/// closest figure that did not qualify) one click away.
#[component]
pub fn Explanation(text: String) -> impl IntoView {
    let (reason, details) = engine::verdict::brief::brief(&text);
    view! {
        <span class="small muted verdict-why">{reason}</span>
        {details.map(|details| view! {
            <details class="why-details small muted">
                <summary>{tr("Details", "Einzelheiten")}</summary>
                {details}
            </details>
        })}
    }
}
