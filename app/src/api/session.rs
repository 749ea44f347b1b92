//! Signing in and out, and the signed-in user's own account.

use crate::error::AppError;
use crate::model::SessionUser;
use leptos::prelude::*;

/// The signed-in user, or `None`.
#[server(endpoint = "whoami")]
pub async fn whoami() -> Result<Option<SessionUser>, AppError> {
    Ok(crate::server::auth::viewer().user)
}

/// Signs in with e-mail address and password, sets the session cookie and redirects to `next`.
#[server(endpoint = "login")]
pub async fn login(email: String, password: String, next: Option<String>) -> Result<(), AppError> {
    use crate::server::auth::{
        FAILED_LOGIN_WINDOW_MS, MAX_FAILED_LOGINS, safe_next, start_session,
        verify_password_off_thread,
    };
    use crate::server::store::now_ms;
    crate::server::respond(
        async move {
            let services = crate::server::services()?;
            let store = &services.store;
            let email =
                engine::account::normalise_email(&email).map_err(|_| AppError::BadCredentials)?;
            let window_start = now_ms() - FAILED_LOGIN_WINDOW_MS;
            let (failures, oldest) = store.login_failures_since(&email, window_start).await?;
            if failures >= MAX_FAILED_LOGINS {
                let unlock_ms = oldest.unwrap_or(window_start) + FAILED_LOGIN_WINDOW_MS - now_ms();
                return Err(AppError::TooManyAttempts(
                    (unlock_ms.max(0) + 59_999) / 60_000,
                ));
            }
            let credentials = store.credentials(&email).await?;
            let hash = credentials.as_ref().map(|c| c.password_hash.clone());
            if !verify_password_off_thread(password, hash).await {
                store.record_login_failure(&email).await?;
                return Err(AppError::BadCredentials);
            }
            let Some(credentials) = credentials else {
                return Err(AppError::BadCredentials);
            };
            if credentials.user.disabled {
                return Err(AppError::invalid(
                    "This account is disabled. Ask an administrator to enable it.",
                ));
            }
            store.clear_login_failures(&email).await?;
            let (cookie, _) = start_session(&services, credentials.user.id).await?;
            set_cookie(&cookie);
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

/// Changes the signed-in user's password. Every other session of the user ends; this one stays.
#[server(endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
    confirm_password: String,
) -> Result<String, AppError> {
    use crate::server::auth::{
        Need, hash_password_off_thread, require, start_session, verify_password_off_thread,
    };
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let stored = services.store.password_hash(user.id).await?;
            if !verify_password_off_thread(current_password, stored).await {
                return Err(AppError::invalid(
                    "current_password: the current password is wrong",
                ));
            }
            if new_password != confirm_password {
                return Err(AppError::invalid(
                    "confirm_password: the two new passwords differ",
                ));
            }
            engine::account::check_new_password(&new_password, &user.email)
                .map_err(|e| AppError::invalid(format!("new_password: {e}")))?;
            let hash = hash_password_off_thread(new_password).await?;
            services.store.set_password_hash(user.id, &hash).await?;
            let (cookie, _) = start_session(&services, user.id).await?;
            set_cookie(&cookie);
            Ok("Password changed. Other sessions of this account have been signed out.".into())
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
