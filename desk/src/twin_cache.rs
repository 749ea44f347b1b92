//! Fitted capacity twins and their answers, kept while the evidence they come from is unchanged.
//!
//! # Why
//!
//! A fit re-simulates every measured run several times, and the back-test refits once per
//! measured point: seconds of work for a page view. The same pilot's twin is asked for by the
//! load-tests page, `GET /api/v1/pilots/{id}/predict`, the report's twin section and the
//! report's recommendation (twice in one report before this cache), and the evidence changes
//! rarely. So each fit is made once and shared, and so is each answer (a prediction simulates
//! thousands of requests).
//!
//! # When an entry applies
//!
//! An entry is keyed by content, not by ids: the SHA-256 of, for every file the twin reads (load
//! tests, vLLM start-up logs, `/metrics` scrapes) in order, its kind, its own SHA-256 and its
//! stored summary, plus the configuration asked for. New evidence, a removed file, a re-derived
//! summary or another run context is another key, so a stale fit is never served; the same ids
//! in another database (tests run many in one process) never meet. The twin is deterministic
//! ([`engine::twin`]: seeded simulation), so a kept answer is the answer a fresh fit would give.
//!
//! # Bounds
//!
//! [`FITS_KEPT`] fits, each with up to [`ANSWERS_KEPT`] answers, the least recently used
//! dropped first; a fit is a timing model and its back-test (kilobytes), an answer a handful of
//! percentiles. Concurrent requests for the same fit wait for the one fit in progress.

use crate::ServiceError;
use engine::twin::{Prediction, Question, Twin};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

/// Fits kept.
pub const FITS_KEPT: usize = 32;
/// Answers kept per fit.
pub const ANSWERS_KEPT: usize = 32;

/// What a fit is keyed by (see the module docs).
pub type FitKey = [u8; 32];

/// A fitted twin: the configuration it was fitted on (its label) and the model.
pub type Fit = Result<(String, Arc<Twin>), FitFailure>;

/// Why a fit failed.
#[derive(Clone, Debug)]
pub enum FitFailure {
    /// The evidence itself refuses it (nothing to fit, several configurations): kept, since
    /// the same evidence fails the same way.
    Refused(crate::predict::refusal::FitRefusal),
    /// The store or a task failed: not kept, the next caller tries again.
    Service(ServiceError),
}

struct Entry {
    key: FitKey,
    fit: tokio::sync::OnceCell<Fit>,
    answers: Mutex<VecDeque<(String, Prediction)>>,
}

fn entries() -> &'static Mutex<VecDeque<Arc<Entry>>> {
    static ENTRIES: OnceLock<Mutex<VecDeque<Arc<Entry>>>> = OnceLock::new();
    ENTRIES.get_or_init(|| Mutex::new(VecDeque::new()))
}

/// The key of the twin fitted on `files` (each: kind, file SHA-256, stored summary, in the
/// order the twin reads them) for `configuration`.
pub fn key_of<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
    configuration: Option<&str>,
) -> FitKey {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    for (kind, sha256, summary) in files {
        field(kind.as_bytes());
        field(sha256.as_bytes());
        field(summary.as_bytes());
    }
    field(configuration.unwrap_or("").as_bytes());
    hash.finalize().into()
}

/// A fit in the cache, made or being made.
#[derive(Clone)]
pub struct Fitted {
    entry: Arc<Entry>,
}

/// The first item of `list` that `hit` accepts, moved to the front (most recently used).
fn promote<T: Clone>(list: &mut VecDeque<T>, hit: impl Fn(&T) -> bool) -> Option<T> {
    let found = list.remove(list.iter().position(hit)?)?;
    list.push_front(found.clone());
    Some(found)
}

/// The entry for `key`, made most recently used (a new, empty one when there is none).
fn entry(key: FitKey) -> Arc<Entry> {
    let mut list = entries().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = promote(&mut list, |e| e.key == key) {
        return found;
    }
    let fresh = Arc::new(Entry {
        key,
        fit: tokio::sync::OnceCell::new(),
        answers: Mutex::new(VecDeque::new()),
    });
    list.push_front(fresh.clone());
    list.truncate(FITS_KEPT);
    fresh
}

/// The twin for `key`: the kept one, or `fit()` run once (concurrent callers wait for it).
/// A fit the evidence itself refuses ([`FitFailure::Refused`]) is kept too; any other failure
/// is not.
pub async fn fitted<F, Fut>(key: FitKey, fit: F) -> (Fitted, Fit)
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Fit>,
{
    let entry = entry(key);
    let result = entry
        .fit
        .get_or_try_init(|| async {
            match fit().await {
                Err(FitFailure::Service(error)) => Err(FitFailure::Service(error)),
                kept => Ok(kept),
            }
        })
        .await
        .cloned()
        .unwrap_or_else(Err);
    (Fitted { entry }, result)
}

impl Fitted {
    /// `twin`'s answer to `question`: the kept one, or a simulation off the async runtime.
    pub async fn ask(
        &self,
        twin: Arc<Twin>,
        question: Question,
    ) -> Result<Prediction, ServiceError> {
        let asked = format!("{question:?}");
        if let Some(known) = self.answer(&asked) {
            return Ok(known);
        }
        let prediction = tokio::task::spawn_blocking(move || twin.predict(&question))
            .await
            .map_err(|error| {
                tracing::error!(%error, "capacity twin prediction failed");
                ServiceError::Internal
            })?;
        let mut answers = self.entry.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers.retain(|(q, _)| *q != asked);
        answers.push_front((asked, prediction.clone()));
        answers.truncate(ANSWERS_KEPT);
        Ok(prediction)
    }

    fn answer(&self, asked: &str) -> Option<Prediction> {
        let mut answers = self.entry.answers.lock().unwrap_or_else(|e| e.into_inner());
        promote(&mut answers, |(q, _)| q == asked).map(|(_, prediction)| prediction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_changes_with_any_file_summary_or_configuration() {
        let base = key_of(
            [("load_test", "aa", "{}"), ("vllm_startup_log", "bb", "{}")],
            None,
        );
        assert_eq!(
            base,
            key_of(
                [("load_test", "aa", "{}"), ("vllm_startup_log", "bb", "{}")],
                None
            )
        );
        for other in [
            key_of([("load_test", "aa", "{}")], None),
            key_of(
                [
                    ("load_test", "aa", "{\"x\":1}"),
                    ("vllm_startup_log", "bb", "{}"),
                ],
                None,
            ),
            key_of(
                [("vllm_startup_log", "bb", "{}"), ("load_test", "aa", "{}")],
                None,
            ),
            key_of(
                [("load_test", "aa", "{}"), ("vllm_startup_log", "bb", "{}")],
                Some("framework=vllm"),
            ),
            // Field boundaries count: "a" + "a{}" is not "aa" + "{}".
            key_of(
                [("load_test", "a", "a{}"), ("vllm_startup_log", "bb", "{}")],
                None,
            ),
        ] {
            assert_ne!(base, other);
        }
    }

    #[tokio::test]
    async fn a_fit_is_made_once_and_refusals_are_kept_but_not_transient_failures() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let key = key_of([("test", "fit-once", "")], None);
        let calls = AtomicUsize::new(0);
        for _ in 0..3 {
            let (_, fit) = fitted(key, || async {
                calls.fetch_add(1, Ordering::SeqCst);
                Err(FitFailure::Refused(
                    crate::predict::refusal::FitRefusal::NoLoadTest,
                ))
            })
            .await;
            assert!(matches!(
                fit.unwrap_err(),
                FitFailure::Refused(crate::predict::refusal::FitRefusal::NoLoadTest)
            ));
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1, "a refusal is kept");

        let key = key_of([("test", "transient", "")], None);
        let calls = AtomicUsize::new(0);
        for _ in 0..2 {
            let (_, fit) = fitted(key, || async {
                calls.fetch_add(1, Ordering::SeqCst);
                Err(FitFailure::Service(ServiceError::Internal))
            })
            .await;
            assert!(matches!(
                fit.unwrap_err(),
                FitFailure::Service(ServiceError::Internal)
            ));
        }
        assert_eq!(
            calls.load(Ordering::SeqCst),
            2,
            "a store failure is tried again"
        );
    }
}
