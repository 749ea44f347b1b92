//! Pilots whose evidence just changed, told to whoever keeps what is made from it.
//!
//! Why a channel: the modules that store evidence (uploads, the live feed's rolls, scrapes)
//! sit below the pilot overview, which grades the evidence and notes when each mark became
//! gradable ([`crate::overview`]). Calling the overview from them would make the module graph a
//! circle; instead each store tells [`Changes`] which pilot changed, and the server's listener
//! ([`crate::overview::refresh_on_changes`]) grades it. Telling never blocks and never fails:
//! with no listener (a command-line run) or a full queue the tiding is dropped, and the next
//! view of the pilot grades it instead.
//!
//! A tiding says whether the change came from a running feed (a roll of the live gateway feed):
//! then the pages may show the pilot's overview as it stood a roll ago until the new one is
//! made, rather than every view waiting for it (see [`crate::overview`]).

use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Tidings a full queue holds before dropping new ones.
pub const QUEUED: usize = 1024;

/// The changed pilots' queue; part of [`crate::Services`] (clones share one queue).
#[derive(Clone)]
pub struct Changes {
    tell: mpsc::Sender<Change>,
    /// The receiving end until a listener takes it.
    listen: Arc<Mutex<Option<mpsc::Receiver<Change>>>>,
    /// The number of the last tiding told, and of the last the listener has acted on.
    told: Arc<std::sync::atomic::AtomicU64>,
    done: Arc<tokio::sync::watch::Sender<u64>>,
}

/// One tiding: which pilot changed, and whether by its running feed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub pilot_id: i64,
    /// A roll of the live feed (not an upload, a withdrawal or a plan change).
    pub live: bool,
    /// Its number: tidings are numbered 1, 2, … as told.
    pub number: u64,
}

impl Default for Changes {
    fn default() -> Self {
        let (tell, listen) = mpsc::channel(QUEUED);
        Changes {
            tell,
            listen: Arc::new(Mutex::new(Some(listen))),
            told: Default::default(),
            done: Arc::new(tokio::sync::watch::Sender::new(0)),
        }
    }
}

impl std::fmt::Debug for Changes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Changes({} queued)", QUEUED - self.tell.capacity())
    }
}

impl Changes {
    /// Tells the listener that pilot `pilot_id`'s evidence changed.
    pub fn tell(&self, pilot_id: i64) {
        self.send(pilot_id, false);
    }

    /// Tells the listener that pilot `pilot_id`'s live feed rolled new records in; answers the
    /// tiding's number (see [`Changes::acted_on`]).
    pub fn tell_live(&self, pilot_id: i64) -> u64 {
        self.send(pilot_id, true)
    }

    fn send(&self, pilot_id: i64, live: bool) -> u64 {
        use std::sync::atomic::Ordering;
        let number = self.told.fetch_add(1, Ordering::AcqRel) + 1;
        if self
            .tell
            .try_send(Change {
                pilot_id,
                live,
                number,
            })
            .is_err()
        {
            // Dropped: nobody will act on it, so nobody waits for it.
            self.done_up_to(number);
        }
        number
    }

    /// The listener has acted on every tiding up to `number`.
    pub fn done_up_to(&self, number: u64) {
        self.done.send_if_modified(|done| {
            let moved = *done < number;
            *done = (*done).max(number);
            moved
        });
    }

    /// Waits until the listener has acted on tiding `number` (and those before it), or for
    /// `at_most`: the live roller paces itself by the grading its rolls cause.
    pub async fn acted_on(&self, number: u64, at_most: std::time::Duration) {
        let mut done = self.done.subscribe();
        let _ = tokio::time::timeout(at_most, done.wait_for(|done| *done >= number)).await;
    }

    /// The receiving end, for the one listener; `None` once taken.
    pub fn listen(&self) -> Option<mpsc::Receiver<Change>> {
        match self.listen.lock() {
            Ok(mut listen) => listen.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_tiding_reaches_the_one_listener_and_a_full_queue_drops_the_rest() {
        let changes = Changes::default();
        let mut listener = changes.listen().expect("the first listener");
        assert!(changes.listen().is_none(), "one listener only");
        for pilot in 0..(QUEUED as i64 + 10) {
            changes.clone().tell(pilot);
        }
        let mut heard = Vec::new();
        while let Ok(change) = listener.try_recv() {
            assert!(!change.live);
            heard.push(change.pilot_id);
        }
        assert_eq!(heard, (0..QUEUED as i64).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn a_roll_waits_for_the_grading_it_asked_for_and_never_for_a_dropped_one() {
        let changes = Changes::default();
        let mut listener = changes.listen().unwrap();
        let first = changes.tell_live(7);
        let second = changes.tell_live(8);
        assert_eq!((first, second), (1, 2));
        let waiting = {
            let changes = changes.clone();
            tokio::spawn(async move {
                changes.acted_on(second, Duration::from_secs(60)).await;
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "nothing acted on yet");
        let heard = [
            listener.recv().await.unwrap(),
            listener.recv().await.unwrap(),
        ];
        assert!(heard.iter().all(|c| c.live));
        changes.done_up_to(second);
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .unwrap()
            .unwrap();
        // A tiding a full queue drops is done at once: nobody will act on it.
        for pilot in 0..QUEUED as i64 {
            changes.tell(pilot);
        }
        let dropped = changes.tell_live(1);
        tokio::time::timeout(
            Duration::from_secs(5),
            changes.acted_on(dropped, Duration::from_secs(60)),
        )
        .await
        .expect("a dropped tiding is not waited for");
    }
}
