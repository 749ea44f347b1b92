//! Roles and what they may do.
//!
//! Every user has exactly one role. The three staff roles belong to the vendor's own organisation;
//! `customer` users belong to a customer organisation and only ever see that organisation's pilots.
//! The capability methods below are the single source of truth the server's authorisation uses, so
//! a change of policy is one edit here and shows up in every route and server function at once.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A user's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Manages organisations, users and catalogs; can do everything staff can.
    Admin,
    /// The assessment team: writes and approves pilot plans, uploads evidence.
    Assessor,
    /// Sales engineers: read every pilot, export reports, hand out share links; change nothing.
    Sales,
    /// A customer contact: reads their own organisation's pilots.
    Customer,
}

impl Role {
    /// All roles, in the order forms list them.
    pub const ALL: [Role; 4] = [Role::Admin, Role::Assessor, Role::Sales, Role::Customer];

    /// The stored and typed name (`admin`, `assessor`, `sales`, `customer`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Assessor => "assessor",
            Role::Sales => "sales",
            Role::Customer => "customer",
        }
    }

    /// A human label for pages.
    pub fn label(self) -> &'static str {
        match self {
            Role::Admin => "Administrator",
            Role::Assessor => "Assessor",
            Role::Sales => "Sales engineer",
            Role::Customer => "Customer",
        }
    }

    /// [`Role::label`] in `lang`.
    pub fn label_in(self, lang: crate::locale::Lang) -> &'static str {
        match self {
            Role::Admin => lang.pick("Administrator", "Administrator"),
            Role::Assessor => lang.pick("Assessor", "Bewertungsteam"),
            Role::Sales => lang.pick("Sales engineer", "Vertriebsingenieur"),
            Role::Customer => lang.pick("Customer", "Kunde"),
        }
    }

    /// Staff roles belong to the vendor's organisation and see every pilot.
    pub fn is_staff(self) -> bool {
        !matches!(self, Role::Customer)
    }

    /// May create and edit pilots and change what belongs to them (evidence, evaluation sets,
    /// models added to the catalog): the assessment team and administrators. Sales engineers read
    /// everything, export reports and hand out share links, nothing more.
    pub fn can_edit_pilots(self) -> bool {
        matches!(self, Role::Admin | Role::Assessor)
    }

    /// May manage organisations and user accounts.
    pub fn can_manage_accounts(self) -> bool {
        matches!(self, Role::Admin)
    }

    /// The kind of organisation a user of this role must belong to.
    pub fn organisation_kind(self) -> OrganisationKind {
        if self.is_staff() {
            OrganisationKind::Staff
        } else {
            OrganisationKind::Customer
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A role name that is not one of the four roles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown role `{0}` (expected admin, assessor, sales or customer)")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "admin" => Ok(Role::Admin),
            "assessor" => Ok(Role::Assessor),
            "sales" => Ok(Role::Sales),
            "customer" => Ok(Role::Customer),
            _ => Err(UnknownRole(s.to_string())),
        }
    }
}

/// Whether an organisation is the vendor's own staff or a customer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrganisationKind {
    Staff,
    Customer,
}

impl OrganisationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            OrganisationKind::Staff => "staff",
            OrganisationKind::Customer => "customer",
        }
    }
}

impl FromStr for OrganisationKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "staff" => Ok(OrganisationKind::Staff),
            "customer" => Ok(OrganisationKind::Customer),
            other => Err(format!("unknown organisation kind `{other}`")),
        }
    }
}

/// Why an e-mail address was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmailError {
    #[error("e-mail address is empty")]
    Empty,
    #[error("`{0}` is not an e-mail address (expected name@domain)")]
    Malformed(String),
}

/// Normalises an e-mail address for use as a login name: trimmed and lower-cased, with one `@`
/// between a non-empty local part and a domain containing a dot.
pub fn normalise_email(input: &str) -> Result<String, EmailError> {
    let email = input.trim().to_lowercase();
    if email.is_empty() {
        return Err(EmailError::Empty);
    }
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !email.chars().any(char::is_whitespace)
        }
        None => false,
    };
    if valid {
        Ok(email)
    } else {
        Err(EmailError::Malformed(input.trim().to_string()))
    }
}

/// Shortest password the product accepts for a new or changed password.
pub const MIN_PASSWORD_CHARS: usize = 10;

/// Checks a new password against the policy: at least [`MIN_PASSWORD_CHARS`] characters and not
/// the same as the e-mail address.
pub fn check_new_password(password: &str, email: &str) -> Result<(), String> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(format!(
            "the password must be at least {MIN_PASSWORD_CHARS} characters long"
        ));
    }
    if password.trim().eq_ignore_ascii_case(email.trim()) {
        return Err("the password must not be the e-mail address".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_through_their_names() {
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>().unwrap(), role);
        }
        assert_eq!(" Admin ".parse::<Role>().unwrap(), Role::Admin);
        assert!("root".parse::<Role>().is_err());
    }

    #[test]
    fn only_admins_manage_accounts_and_customers_never_edit() {
        assert!(Role::Admin.can_manage_accounts());
        assert!(!Role::Assessor.can_manage_accounts());
        assert!(!Role::Sales.can_manage_accounts());
        assert!(!Role::Customer.can_edit_pilots());
        assert!(!Role::Sales.can_edit_pilots());
        assert!(Role::Assessor.can_edit_pilots());
        assert!(Role::Admin.can_edit_pilots());
        assert_eq!(
            Role::Customer.organisation_kind(),
            OrganisationKind::Customer
        );
        assert_eq!(Role::Assessor.organisation_kind(), OrganisationKind::Staff);
    }

    #[test]
    fn emails_are_normalised_and_malformed_ones_refused() {
        assert_eq!(
            normalise_email("  Ada@Example.COM ").unwrap(),
            "ada@example.com"
        );
        assert_eq!(normalise_email(" "), Err(EmailError::Empty));
        for bad in [
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a b@x.io",
            "a@b@c.io",
        ] {
            assert!(normalise_email(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn short_passwords_and_the_email_as_password_are_refused() {
        assert!(check_new_password("short", "a@b.io").is_err());
        assert!(check_new_password("ada@example.com", "ada@example.com").is_err());
        assert!(check_new_password("correct horse battery", "a@b.io").is_ok());
    }
}
