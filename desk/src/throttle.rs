//! Sign-in back-off and the bound on concurrent password hashing.
//!
//! Why back-off and not a lock: a hard lock after five failures lets anyone lock anyone out by
//! typing five wrong passwords. Instead every sign-in attempt for an e-mail address (and, more
//! loosely, from a client address) that follows too many recent failures must wait, and the wait
//! doubles with each further failure up to a cap. The owner can always sign in once the current
//! wait has passed; an attacker gets a handful of guesses an hour.
//!
//! Why it holds under parallel requests: an attempt first *inserts* its failure row, then counts
//! the failures recorded *before* it (lower row id). Forty guesses sent at once each see the ones
//! inserted before them, so exactly the allowance is checked and the rest are refused without a
//! password check; a refused or successful attempt deletes its row again. Ids are handed out in
//! order by the database, so this also holds across several server instances on one PostgreSQL
//! (up to the microseconds between an id being drawn and its row becoming visible).
//!
//! Argon2 is deliberately expensive (19 MiB and two passes per check), so the checks run through
//! a [`PasswordGate`]: a few at a time, each on a blocking thread; a check that cannot start within
//! [`PasswordGate::wait`] is refused as [`ServiceError::Busy`] (503 with `Retry-After`) instead of
//! queueing without bound.

use super::store::{Store, now_ms};
use crate::ServiceError;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How a back-off grows: `free_failures` failures within `window_ms` cost nothing; from then
/// on the next attempt waits `base_delay_ms × 2^(failures − free_failures)` after the latest
/// failure, at most `max_delay_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackoffPolicy {
    pub free_failures: i64,
    pub base_delay_ms: i64,
    pub max_delay_ms: i64,
    pub window_ms: i64,
}

impl BackoffPolicy {
    /// Per e-mail address: 5 free failures within 24 hours, then 15 s, 30 s, 1 min, 2 min, 4 min,
    /// 8 min and from the 11th failure on 15 min between checks.
    pub const PER_ACCOUNT: BackoffPolicy = BackoffPolicy {
        free_failures: 5,
        base_delay_ms: 15_000,
        max_delay_ms: 15 * 60_000,
        window_ms: 24 * 3_600_000,
    };

    /// Per client address, across every e-mail address (password spraying): 20 free failures
    /// within an hour, then the same doubling from 15 s up to 15 min.
    pub const PER_CLIENT: BackoffPolicy = BackoffPolicy {
        free_failures: 20,
        base_delay_ms: 15_000,
        max_delay_ms: 15 * 60_000,
        window_ms: 3_600_000,
    };

    /// The wait after `failures` recent failures before the next check, in milliseconds.
    pub fn delay_ms(&self, failures: i64) -> i64 {
        if failures < self.free_failures {
            return 0;
        }
        let doublings = (failures - self.free_failures).min(30) as u32;
        self.base_delay_ms
            .saturating_mul(1_i64 << doublings)
            .min(self.max_delay_ms)
    }

    /// Milliseconds still to wait at `now_ms`, given `failures` with the latest at `latest_ms`.
    pub fn remaining_ms(&self, failures: i64, latest_ms: Option<i64>, now_ms: i64) -> i64 {
        let delay = self.delay_ms(failures);
        match latest_ms {
            // Parallel attempts may be stamped a millisecond after `now_ms`: no delay is no wait.
            Some(latest) if delay > 0 => (latest + delay - now_ms).max(0),
            _ => 0,
        }
    }
}

/// Both back-offs; tests shorten them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoginBackoff {
    pub per_account: BackoffPolicy,
    pub per_client: BackoffPolicy,
}

impl Default for LoginBackoff {
    fn default() -> Self {
        LoginBackoff {
            per_account: BackoffPolicy::PER_ACCOUNT,
            per_client: BackoffPolicy::PER_CLIENT,
        }
    }
}

impl LoginBackoff {
    /// The longest window, for purging old failures.
    pub fn longest_window_ms(&self) -> i64 {
        self.per_account.window_ms.max(self.per_client.window_ms)
    }
}

/// A sign-in attempt that may check its password: its failure row is already recorded.
#[must_use]
pub struct Attempt {
    id: i64,
}

/// Records the attempt and decides whether it may check a password. Refused attempts leave no
/// trace and answer [`ServiceError::TooManyAttempts`] with the seconds to wait.
pub async fn begin_attempt(
    store: &Store,
    backoff: &LoginBackoff,
    email: &str,
    client: &str,
) -> Result<Attempt, ServiceError> {
    let now = now_ms();
    let id = store.insert_login_failure(email, client, now).await?;
    let before = store
        .login_failures_before(
            id,
            email,
            client,
            now - backoff.per_account.window_ms,
            now - backoff.per_client.window_ms,
        )
        .await?;
    let wait_ms = backoff
        .per_account
        .remaining_ms(before.account_failures, before.account_latest_ms, now)
        .max(
            backoff
                .per_client
                .remaining_ms(before.client_failures, before.client_latest_ms, now),
        );
    if wait_ms > 0 {
        store.delete_login_failure(id).await?;
        return Err(ServiceError::TooManyAttempts(
            ((wait_ms + 999) / 1000) as u64,
        ));
    }
    Ok(Attempt { id })
}

impl Attempt {
    /// The password was wrong: the row stays as the failure.
    pub fn failed(self) {}

    /// The attempt did not get to check (the server was busy): it does not count.
    pub async fn abandon(self, store: &Store) -> Result<(), ServiceError> {
        Ok(store.delete_login_failure(self.id).await?)
    }

    /// Signed in: the address's failures are forgotten (the client's stay).
    pub async fn succeeded(self, store: &Store, email: &str) -> Result<(), ServiceError> {
        store.delete_login_failure(self.id).await?;
        Ok(store.clear_login_failures(email).await?)
    }
}

/// A bound on concurrent Argon2 work (see the module documentation).
#[derive(Clone, Debug)]
pub struct PasswordGate {
    permits: Arc<Semaphore>,
    /// How long a check may wait for a free slot before it is refused as busy.
    pub wait: Duration,
}

impl Default for PasswordGate {
    /// One slot per core (at least 1, at most 4: 19 MiB each), waiting at most 5 s.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        PasswordGate::new(cores.clamp(1, 4), Duration::from_secs(5))
    }
}

impl PasswordGate {
    pub fn new(slots: usize, wait: Duration) -> Self {
        PasswordGate {
            permits: Arc::new(Semaphore::new(slots)),
            wait,
        }
    }

    /// Runs `work` (a hash or a verification) on a blocking thread once a slot is free.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let permit = tokio::time::timeout(self.wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| ServiceError::Busy(self.wait.as_secs().max(1)))?
            .map_err(|_| ServiceError::Internal)?;
        let result = tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        })
        .await
        .map_err(|_| ServiceError::Internal)?;
        Ok(result)
    }

    /// Verifies `password` against `hash`; with no hash it spends the time of a verification
    /// anyway, so response times do not tell which addresses have accounts.
    pub async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> Result<bool, ServiceError> {
        self.run(move || match hash {
            Some(hash) => crate::password::verify_password(&password, &hash),
            None => {
                let _ = crate::password::hash_password(&password);
                false
            }
        })
        .await
    }

    /// Hashes `password` (Argon2id, PHC string).
    pub async fn hash(&self, password: String) -> Result<String, ServiceError> {
        self.run(move || crate::password::hash_password(&password))
            .await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_15_seconds_after_five_failures_up_to_15_minutes() {
        let policy = BackoffPolicy::PER_ACCOUNT;
        let waits: Vec<i64> = (0..13).map(|n| policy.delay_ms(n) / 1000).collect();
        assert_eq!(waits, [0, 0, 0, 0, 0, 15, 30, 60, 120, 240, 480, 900, 900]);
        assert_eq!(policy.delay_ms(10_000), 900_000);
    }

    #[test]
    fn the_owner_may_try_again_once_the_wait_since_the_latest_failure_has_passed() {
        let policy = BackoffPolicy::PER_ACCOUNT;
        let latest = 1_000_000;
        assert_eq!(
            policy.remaining_ms(7, Some(latest), latest + 10_000),
            50_000
        );
        assert_eq!(policy.remaining_ms(7, Some(latest), latest + 60_000), 0);
        assert_eq!(policy.remaining_ms(4, Some(latest), latest), 0);
        assert_eq!(policy.remaining_ms(4, Some(latest + 5), latest), 0);
        assert_eq!(policy.remaining_ms(0, None, latest), 0);
    }

    #[tokio::test]
    async fn the_gate_refuses_as_busy_when_no_slot_frees_in_time() {
        let gate = PasswordGate::new(1, Duration::from_millis(50));
        let slow = gate.clone();
        let running = tokio::spawn(async move {
            slow.run(|| std::thread::sleep(Duration::from_millis(400)))
                .await
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(gate.run(|| ()).await, Err(ServiceError::Busy(1)));
        running.await.unwrap().unwrap();
        assert_eq!(gate.run(|| 7).await, Ok(7));
    }
}
