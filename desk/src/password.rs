//! Passwords: Argon2id hashes in PHC string format (the `argon2` crate's default parameters:
//! 19 MiB, two passes), checked on a blocking thread so a sign-in never stalls the async runtime.
//!
//! A leaf module: the session code ([`crate::auth`]) and the sign-in gate that bounds password
//! checks ([`crate::throttle`]) both use it, and neither needs the other for it.

use crate::ServiceError;
use argon2::password_hash::{SaltString, rand_core::OsRng};
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use rand::Rng;

/// Argon2id hash in PHC string format.
pub fn hash_password(password: &str) -> Result<String, ServiceError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|error| {
            tracing::error!(%error, "password hashing failed");
            ServiceError::Internal
        })
}

/// True when `password` matches the PHC `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Hashes on a blocking thread (Argon2 is deliberately slow).
pub async fn hash_password_off_thread(password: String) -> Result<String, ServiceError> {
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|_| ServiceError::Internal)?
}

/// Verifies on a blocking thread. With no stored hash it still spends the time of a verification,
/// so response times do not tell which e-mail addresses have accounts.
pub async fn verify_password_off_thread(password: String, hash: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || match hash {
        Some(hash) => verify_password(&password, &hash),
        None => {
            let _ = hash_password(&password);
            false
        }
    })
    .await
    .unwrap_or(false)
}

/// A random 20-character password from an alphabet without look-alike characters (~115 bits).
pub fn generate_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    (0..20)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}
