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
}

/// One tiding: which pilot changed, and whether by its running feed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub pilot_id: i64,
    /// A roll of the live feed (not an upload, a withdrawal or a plan change).
    pub live: bool,
}

impl Default for Changes {
    fn default() -> Self {
        let (tell, listen) = mpsc::channel(QUEUED);
        Changes {
            tell,
            listen: Arc::new(Mutex::new(Some(listen))),
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
        let _ = self.tell.try_send(Change {
            pilot_id,
            live: false,
        });
    }

    /// Tells the listener that pilot `pilot_id`'s live feed rolled new records in.
    pub fn tell_live(&self, pilot_id: i64) {
        let _ = self.tell.try_send(Change {
            pilot_id,
            live: true,
        });
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
}
