//! Share links: a random token handed out once, only its SHA-256 stored.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// Longest a share link may live, in days.
pub const MAX_DAYS: u32 = 90;
/// How long a new link lives unless told otherwise, in days.
pub const DEFAULT_DAYS: u32 = 14;

/// A new token (256 random bits, hex) and its hash.
pub fn new_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let hash = token_hash(&token);
    (token, hash)
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.trim().as_bytes()))
}

/// Whether `text` looks like a token at all (64 hex digits), before any database lookup.
pub fn looks_like_token(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let (a, hash_a) = new_token();
        let (b, _) = new_token();
        assert_ne!(a, b);
        assert!(looks_like_token(&a));
        assert_eq!(token_hash(&a), hash_a);
        assert_ne!(hash_a, a);
        assert!(!looks_like_token("../etc/passwd"));
    }
}
