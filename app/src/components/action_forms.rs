//! What every editing page does around its `ActionForm`s: fetch again after a saved change, show
//! a refused change next to its form, and show the error a plain form post (before hydration)
//! came back with.
//!
//! Without JavaScript a refused form returns to its page with the error in the address. That
//! error reaches every action of its kind, so pages show it once, above the editor
//! ([`returned_errors`]), and next to a form only the errors of runs dispatched on the page
//! ([`action_error`]).

use crate::error::AppError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

/// Bumps `refresh` (which the page's resource tracks) once `action` succeeded.
pub fn refresh_after<S>(action: ServerAction<S>, refresh: RwSignal<u32>)
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(_))) {
            refresh.update(|n| *n += 1);
        }
    });
}

/// Empties `form` once `action` succeeded, so a created link or account is not offered again
/// with the same entries (a second click would create a duplicate). Fields with a default
/// (`value="14"`) return to it; the outcome stays shown above the form.
pub fn reset_after<S>(action: ServerAction<S>, form: NodeRef<leptos::html::Form>)
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(_)))
            && let Some(form) = form.get_untracked()
        {
            form.reset();
        }
    });
}

/// The error of the action's last run dispatched on this page, for beside its form.
pub fn action_error<S>(action: ServerAction<S>) -> impl IntoView
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    move || match action.value().get() {
        Some(Err(error)) if action.version().get() > 0 => Some(view! {
            <div class="notice notice-error form-error" role="alert">{error.to_string()}</div>
        }),
        _ => None,
    }
}

/// The error a plain form post of kind `S` came back with, if any (it travels in the address).
pub fn returned_error<S>() -> Option<String>
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    ServerAction::<S>::new()
        .value()
        .get_untracked()
        .and_then(Result::err)
        .map(|error| error.to_string())
}

/// The notice of the errors plain form posts came back with (`returned_error` of each action
/// kind of the page); nothing once a change was saved since (`refresh` > 0: old news).
pub fn returned_errors(refresh: RwSignal<u32>, errors: Vec<Option<String>>) -> Option<AnyView> {
    if refresh.get_untracked() > 0 {
        return None;
    }
    let errors: Vec<String> = errors.into_iter().flatten().collect();
    (!errors.is_empty()).then(|| {
        view! {
            <div class="notice notice-error" role="alert" id="returned-error">
                <strong>{crate::components::i18n::tr(
                    "The change was not saved",
                    "Die Änderung wurde nicht gespeichert",
                )}</strong>
                {errors.into_iter().map(|e| view! { <p>{e}</p> }).collect_view()}
            </div>
        }
        .into_any()
    })
}
