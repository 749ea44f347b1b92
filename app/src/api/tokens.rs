//! The signed-in user's personal API tokens (for scripts and CI pipelines). Each expires (default
//! 90 days, at most 365) and all are revoked when the password changes or is reset.

use crate::error::AppError;
use crate::model::{ApiToken, IssuedToken};
use leptos::prelude::*;

/// The signed-in user's live tokens.
#[server(endpoint = "list_api_tokens")]
pub async fn list_api_tokens() -> Result<Vec<ApiToken>, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            Ok(crate::server::services()?
                .store
                .list_api_tokens(user.id)
                .await?)
        }
        .await,
    )
}

/// Creates a token for the signed-in user, valid `days` days (empty: 90, at most 365); the
/// secret is in the answer, once.
#[server(endpoint = "create_api_token")]
pub async fn create_api_token(
    name: String,
    #[server(default)] days: String,
) -> Result<IssuedToken, AppError> {
    use crate::server::auth::{Need, issue_api_token, require, token_days};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let store = crate::server::services()?.store;
            Ok(issue_api_token(&store, user.id, &name, token_days(&days)?).await?)
        }
        .await,
    )
}

/// Revokes one of the signed-in user's tokens (404 for anyone else's).
#[server(endpoint = "revoke_api_token")]
pub async fn revoke_api_token(id: i64) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let store = crate::server::services()?.store;
            if store.revoke_api_token(user.id, id).await? {
                Ok(())
            } else {
                Err(AppError::NotFound)
            }
        }
        .await,
    )
}
