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

/// A refused e-mail address (`email: …`), in English and German.
pub fn email_refused(error: &engine::account::EmailError) -> ServiceError {
    use engine::account::EmailError;
    let de = match error {
        EmailError::Empty => "E-Mail-Adresse ist leer".to_string(),
        EmailError::Malformed(text) => {
            format!("`{text}` ist keine E-Mail-Adresse (erwartet name@domain)")
        }
    };
    ServiceError::invalid_in(format!("email: {error}"), format!("email: {de}"))
}

/// A refused new password (`password: …`, the policy's English message), in English and
/// German.
pub fn password_refused(message: &str) -> ServiceError {
    let de = if message.contains("at least") {
        format!(
            "das Passwort muss mindestens {} Zeichen lang sein",
            engine::account::MIN_PASSWORD_CHARS
        )
    } else if message.contains("e-mail address") {
        "das Passwort darf nicht die E-Mail-Adresse sein".to_string()
    } else {
        message.to_string()
    };
    ServiceError::invalid_in(format!("password: {message}"), format!("password: {de}"))
}

/// Validates an organisation name: trimmed, not empty, at most [`MAX_ORGANISATION_CHARS`].
pub fn organisation_name(input: &str) -> Result<String, ServiceError> {
    let name = input.trim();
    if name.is_empty() {
        return Err(ServiceError::invalid_in(
            "name: an organisation needs a name",
            "name: Eine Organisation braucht einen Namen",
        ));
    }
    if name.chars().count() > MAX_ORGANISATION_CHARS {
        return Err(ServiceError::invalid_in(
            format!("name: must be at most {MAX_ORGANISATION_CHARS} characters"),
            format!("name: darf höchstens {MAX_ORGANISATION_CHARS} Zeichen lang sein"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(ServiceError::invalid_in(
            "name: must not contain control characters",
            "name: darf keine Steuerzeichen enthalten",
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
    let email = normalise_email(email).map_err(|e| email_refused(&e))?;
    let name = name.trim().to_string();
    if name.chars().count() > 120 || name.chars().any(char::is_control) {
        return Err(ServiceError::invalid_in(
            "name: at most 120 characters, no control characters",
            "name: höchstens 120 Zeichen, keine Steuerzeichen",
        ));
    }
    let kind = store
        .organisation_kind(organisation_id)
        .await?
        .ok_or_else(|| {
            ServiceError::invalid_in(
                "organisation: no such organisation",
                "organisation: Diese Organisation gibt es nicht",
            )
        })?;
    if kind != role.organisation_kind() {
        return Err(match role {
            Role::Customer => ServiceError::invalid_in(
                "role: a customer account must belong to a customer organisation",
                "role: Ein Kundenkonto muss zu einer Kundenorganisation gehören",
            ),
            _ => ServiceError::invalid_in(
                "role: staff roles (admin, assessor, sales) belong to the staff organisation",
                "role: Mitarbeiterrollen (admin, assessor, sales) gehören zur Organisation der \
                 Mitarbeiter",
            ),
        });
    }
    let (password, generated) = match password.filter(|p| !p.is_empty()) {
        Some(password) => {
            check_new_password(&password, &email).map_err(|e| password_refused(&e))?;
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
