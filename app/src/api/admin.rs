//! Organisations and user accounts (admin only).

use crate::error::AppError;
use crate::model::{IssuedPassword, Organisation, UserSummary};
use leptos::prelude::*;

/// Every organisation with its user and pilot counts.
#[server(endpoint = "list_organisations")]
pub async fn list_organisations() -> Result<Vec<Organisation>, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            Ok(crate::server::services()?
                .store
                .list_organisations()
                .await?)
        }
        .await,
    )
}

/// Creates a customer organisation.
#[server(endpoint = "create_organisation")]
pub async fn create_organisation(name: String) -> Result<i64, AppError> {
    use crate::server::accounts::organisation_name;
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            let name = organisation_name(&name)?;
            Ok(crate::server::services()?
                .store
                .create_organisation(&name, engine::account::OrganisationKind::Customer)
                .await?)
        }
        .await,
    )
}

/// Every user account.
#[server(endpoint = "list_users")]
pub async fn list_users() -> Result<Vec<UserSummary>, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            Ok(crate::server::services()?.store.list_users().await?)
        }
        .await,
    )
}

/// Creates a user; with an empty password one is generated and returned once.
#[server(endpoint = "create_user")]
pub async fn create_user(
    email: String,
    name: String,
    role: String,
    organisation_id: i64,
    password: String,
) -> Result<IssuedPassword, AppError> {
    use crate::server::accounts::create_account;
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            let role: engine::account::Role =
                role.parse().map_err(|e: engine::account::UnknownRole| {
                    AppError::invalid_in(
                        format!("role: {e}"),
                        format!(
                            "role: unbekannte Rolle `{}` (erwartet admin, assessor, sales oder \
                             customer)",
                            e.0
                        ),
                    )
                })?;
            let store = crate::server::services()?.store;
            Ok(
                create_account(&store, &email, &name, role, organisation_id, Some(password))
                    .await?,
            )
        }
        .await,
    )
}

/// Disables (ending their sessions) or re-enables an account. The last enabled admin and the
/// caller's own account cannot be disabled.
#[server(endpoint = "set_user_disabled")]
pub async fn set_user_disabled(user_id: i64, disabled: bool) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let admin = require(Need::Admin)?;
            let store = crate::server::services()?.store;
            let target = store.user(user_id).await?.ok_or(AppError::NotFound)?;
            if disabled && target.id == admin.id {
                return Err(AppError::invalid_in(
                    "You cannot disable your own account.",
                    "Sie können Ihr eigenes Konto nicht deaktivieren.",
                ));
            }
            if disabled
                && target.role == engine::account::Role::Admin
                && !target.disabled
                && store.count_active_admins().await? <= 1
            {
                return Err(AppError::invalid_in(
                    "The last enabled administrator cannot be disabled.",
                    "Der letzte aktive Administrator kann nicht deaktiviert werden.",
                ));
            }
            store.set_disabled(user_id, disabled).await?;
            Ok(())
        }
        .await,
    )
}

/// Sets a new random password for a user (ending their sessions) and returns it once.
#[server(endpoint = "reset_password")]
pub async fn reset_password(user_id: i64) -> Result<IssuedPassword, AppError> {
    use crate::server::auth::{Need, generate_password, hash_password_off_thread, require};
    crate::server::respond(
        async move {
            require(Need::Admin)?;
            let store = crate::server::services()?.store;
            let user = store.user(user_id).await?.ok_or(AppError::NotFound)?;
            let password = generate_password();
            let hash = hash_password_off_thread(password.clone()).await?;
            store.set_password_hash(user_id, &hash).await?;
            Ok(IssuedPassword {
                user,
                generated_password: Some(password),
            })
        }
        .await,
    )
}
