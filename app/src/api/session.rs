//! Signing in and out, and the signed-in user's own account.

use crate::error::AppError;
use crate::model::SessionUser;
use leptos::prelude::*;

/// The signed-in user, or `None`.
#[server(endpoint = "whoami")]
pub async fn whoami() -> Result<Option<SessionUser>, AppError> {
    Ok(crate::server::auth::viewer().user)
}

/// Signs in with e-mail address and password, sets the session cookie and redirects to `next`
/// (a path on this site, else `/`). Failures back off (429 with `Retry-After`) and password
/// checks are bounded (503 when all are busy): see `crate::server::throttle`.
#[server(endpoint = "login")]
pub async fn login(email: String, password: String, next: Option<String>) -> Result<(), AppError> {
    use crate::server::auth::{safe_next, start_session, viewer};
    use crate::server::throttle::begin_attempt;
    crate::server::respond(
        async move {
            let services = crate::server::services()?;
            let store = &services.store;
            let email =
                engine::account::normalise_email(&email).map_err(|_| AppError::BadCredentials)?;
            let attempt = begin_attempt(
                store,
                &services.auth.login_backoff,
                &email,
                &viewer().client,
            )
            .await?;
            let credentials = store.credentials(&email).await?;
            let hash = credentials.as_ref().map(|c| c.password_hash.clone());
            let matches = match services.auth.passwords.verify(password, hash).await {
                Ok(matches) => matches,
                Err(busy) => {
                    attempt.abandon(store).await?;
                    return Err(busy.into());
                }
            };
            let Some(credentials) = credentials.filter(|_| matches) else {
                attempt.failed();
                return Err(AppError::BadCredentials);
            };
            attempt.succeeded(store, &email).await?;
            if credentials.user.disabled {
                return Err(AppError::invalid_in(
                    "This account is disabled. Ask an administrator to enable it.",
                    "Dieses Konto ist deaktiviert. Bitten Sie die Administration, es zu \
                     aktivieren.",
                ));
            }
            let (cookie, _) = start_session(&services, credentials.user.id).await?;
            set_cookie(&cookie);
            let secure = services.auth.secure_cookies;
            if let Some(cookie) = desk::ui_language::sign_in_cookie(credentials.language, secure) {
                set_cookie(&cookie);
            }
            leptos_axum::redirect(&safe_next(next.as_deref()));
            Ok(())
        }
        .await,
    )
}

/// Ends the current session and returns to the sign-in page.
#[server(endpoint = "logout")]
pub async fn logout() -> Result<(), AppError> {
    use crate::server::auth::{expired_cookie, viewer};
    crate::server::respond(
        async move {
            let services = crate::server::services()?;
            if let Some(hash) = viewer().session_hash {
                services.store.delete_session(&hash).await?;
            }
            set_cookie(&expired_cookie(&services.auth));
            leptos_axum::redirect("/login");
            Ok(())
        }
        .await,
    )
}

/// Changes the signed-in user's password. Every other session of the user ends (this one stays)
/// and every API token of the user is revoked.
#[server(endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
    confirm_password: String,
) -> Result<String, AppError> {
    use crate::server::auth::{Need, require, start_session};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let stored = services.store.password_hash(user.id).await?;
            if !services.auth.passwords.verify(current_password, stored).await? {
                return Err(AppError::invalid_in(
                    "current_password: the current password is wrong",
                    "current_password: Das aktuelle Passwort ist falsch",
                ));
            }
            if new_password != confirm_password {
                return Err(AppError::invalid_in(
                    "confirm_password: the two new passwords differ",
                    "confirm_password: Die beiden neuen Passwörter unterscheiden sich",
                ));
            }
            engine::account::check_new_password(&new_password, &user.email)
                .map_err(|e| {
                    // The policy's sentence in both languages, named by this form's field.
                    let said = desk::accounts::password_refused(&e).said();
                    AppError::invalid_in(
                        said.en.replacen("password: ", "new_password: ", 1),
                        said.in_lang(engine::locale::Lang::De)
                            .replacen("password: ", "new_password: ", 1),
                    )
                })?;
            let hash = services.auth.passwords.hash(new_password).await?;
            services.store.set_password_hash(user.id, &hash).await?;
            let (cookie, _) = start_session(&services, user.id).await?;
            set_cookie(&cookie);
            Ok("Password changed. Other sessions of this account have been signed out and its API tokens revoked.".into())
        }
        .await,
    )
}

#[cfg(feature = "ssr")]
fn set_cookie(cookie: &str) {
    if let (Some(options), Ok(value)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::HeaderValue::from_str(cookie),
    ) {
        options.append_header(http::header::SET_COOKIE, value);
    }
}
