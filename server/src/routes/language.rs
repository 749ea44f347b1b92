//! `POST /language`: the language switch. Remembers the chosen language in a cookie and, for a
//! signed-in user, with their account ([`desk::ui_language::remember_choice`]), and sends the browser back to the page it came from. Open to everyone
//! (the sign-in page has the switch too); the session guard's origin check covers it like every
//! other write.

use crate::AppState;
use axum::Extension;
use axum::Form;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use desk::auth::Viewer;
use engine::locale::Lang;
use http::{HeaderMap, header};

/// The switch's form: the language (`en`, `de`) and, optionally (scripts), the page to return
/// to; the switch itself sends none, and the browser's `Referer` names the page.
#[derive(serde::Deserialize)]
pub struct LanguageForm {
    #[serde(default)]
    lang: String,
    #[serde(default)]
    back: Option<String>,
}

/// Sets the language cookie (and the signed-in user's setting) and redirects (303) to `back`, else the page the switch was on,
/// when it is a path on this site, else to `/`. A language the product does not speak is a 422
/// naming the field.
pub async fn choose_language(
    State(state): State<AppState>,
    viewer: Option<Extension<Viewer>>,
    headers: HeaderMap,
    Form(form): Form<LanguageForm>,
) -> Result<Response, super::api_v1::ApiError> {
    let lang = match form.lang.trim() {
        "" => None,
        code => Lang::parse(code),
    }
    .ok_or_else(|| {
        desk::ServiceError::invalid(format!(
            "lang: `{}` is not a language of Pilot Desk (en or de)",
            form.lang.trim()
        ))
    })?;
    let back = match form.back.as_deref() {
        Some(back) => desk::auth::safe_next(Some(back)),
        None => desk::auth::return_path(headers.get(header::REFERER).and_then(|v| v.to_str().ok())),
    };
    let user = viewer.and_then(|Extension(viewer)| viewer.user.map(|user| user.id));
    let cookie = desk::ui_language::remember_choice(
        &state.services.store,
        user,
        lang,
        state.services.auth.secure_cookies,
    )
    .await?;
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to(&back)).into_response())
}
