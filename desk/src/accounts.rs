//! Creating accounts and organisations, the same rules for the admin pages and the command line.

use super::auth::{generate_password, hash_password_off_thread};
use super::store::Store;
use crate::ServiceError;
use crate::model::IssuedPassword;
use engine::account::{OrganisationKind, Role, check_new_password, normalise_email};

/// Name of the vendor's own staff organisation, created on first start.
pub const STAFF_ORGANISATION: &str = "Pilot Desk staff";

/// Longest organisation name accepted.
pub const MAX_ORGANISATION_CHARS: usize = 120;

/// Validates an organisation name: trimmed, not empty, at most [`MAX_ORGANISATION_CHARS`].
pub fn organisation_name(input: &str) -> Result<String, ServiceError> {
    let name = input.trim();
    if name.is_empty() {
        return Err(ServiceError::invalid("name: an organisation needs a name"));
    }
    if name.chars().count() > MAX_ORGANISATION_CHARS {
        return Err(ServiceError::invalid(format!(
            "name: must be at most {MAX_ORGANISATION_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            "name: must not contain control characters",
        ));
    }
    Ok(name.to_string())
}

/// The staff organisation's id, created if missing.
pub async fn staff_organisation(store: &Store) -> Result<i64, ServiceError> {
    match store.organisation_by_name(STAFF_ORGANISATION).await? {
        Some((id, _)) => Ok(id),
        None => Ok(store
            .create_organisation(STAFF_ORGANISATION, OrganisationKind::Staff)
            .await?),
    }
}

/// Creates an account in organisation `organisation_id`.
///
/// The e-mail address is normalised; the role must fit the organisation (staff roles in the
/// staff organisation, customers in a customer organisation); a given password must meet the
/// policy, and without one a random password is generated and returned once.
pub async fn create_account(
    store: &Store,
    email: &str,
    name: &str,
    role: Role,
    organisation_id: i64,
    password: Option<String>,
) -> Result<IssuedPassword, ServiceError> {
    let email = normalise_email(email).map_err(|e| ServiceError::invalid(format!("email: {e}")))?;
    let name = name.trim().to_string();
    if name.chars().count() > 120 || name.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            "name: at most 120 characters, no control characters",
        ));
    }
    let kind = store
        .organisation_kind(organisation_id)
        .await?
        .ok_or_else(|| ServiceError::invalid("organisation: no such organisation"))?;
    if kind != role.organisation_kind() {
        return Err(ServiceError::invalid(match role {
            Role::Customer => "role: a customer account must belong to a customer organisation",
            _ => "role: staff roles (admin, assessor, sales) belong to the staff organisation",
        }));
    }
    let (password, generated) = match password.filter(|p| !p.is_empty()) {
        Some(password) => {
            check_new_password(&password, &email)
                .map_err(|e| ServiceError::invalid(format!("password: {e}")))?;
            (password, None)
        }
        None => {
            let password = generate_password();
            (password.clone(), Some(password))
        }
    };
    let hash = hash_password_off_thread(password).await?;
    let user = store
        .create_user(&email, &name, role, organisation_id, &hash)
        .await?;
    Ok(IssuedPassword {
        user,
        generated_password: generated,
    })
}

/// Creates an account in the organisation named `organisation`, creating that organisation (of the
/// kind the role needs) when it does not exist. This is `server user add`.
pub async fn create_account_in_named_organisation(
    store: &Store,
    email: &str,
    name: &str,
    role: Role,
    organisation: &str,
    password: Option<String>,
) -> Result<IssuedPassword, ServiceError> {
    let organisation = organisation_name(organisation)?;
    let organisation_id = match store.organisation_by_name(&organisation).await? {
        Some((id, _)) => id,
        None => {
            store
                .create_organisation(&organisation, role.organisation_kind())
                .await?
        }
    };
    create_account(store, email, name, role, organisation_id, password).await
}
