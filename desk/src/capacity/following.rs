//! How the pilot page's recommendation follows a pilot whose evidence keeps changing.
//!
//! Why: a running gateway feed rolls new records into the pilot about once a second, each roll
//! is a new state of the evidence and so a new capacity-plan input, and simulating every
//! catalog candidate takes seconds of both cores. Recomputed for every state while someone had
//! the page open, the plans took the CPU the feed needed: at 2,000 records/s the posts' p99
//! was 368–901 ms with `engine::twin::simulate` the busiest function of the server.
//!
//! So the page starts at most one plan per pilot at a time, and while it has a plan to show,
//! at most one per [`FOLLOW_EVERY`]; between, it shows the latest plan made for the pilot and
//! says from when. The report, the REST API and the command line still compute the plan of the
//! exact current state. Kept per [`crate::Services`] (two databases in one process never share
//! a pilot's plan).

use engine::production::capacity_plan::CapacityPlan;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The least time between two plans the pilot page starts for one pilot while it has one to
/// show.
pub const FOLLOW_EVERY: Duration = Duration::from_secs(60);

/// Pilots followed at most (the oldest idle one is forgotten first).
const FOLLOWED_PILOTS: usize = 64;

/// The latest plan made for a pilot, and when (ms since the epoch).
pub struct Latest<P = CapacityPlan> {
    pub plan: Arc<P>,
    pub made_ms: i64,
}

impl<P> Clone for Latest<P> {
    fn clone(&self) -> Self {
        Latest {
            plan: self.plan.clone(),
            made_ms: self.made_ms,
        }
    }
}

struct Pilot<P> {
    started: Option<Instant>,
    running: bool,
    latest: Option<Latest<P>>,
}

impl<P> Default for Pilot<P> {
    fn default() -> Self {
        Pilot {
            started: None,
            running: false,
            latest: None,
        }
    }
}

/// Per pilot: whether a plan is being made for the page, when the last one started, and the
/// latest one made.
pub struct Following<P = CapacityPlan>(Mutex<HashMap<i64, Pilot<P>>>);

impl<P> Default for Following<P> {
    fn default() -> Self {
        Following(Mutex::new(HashMap::new()))
    }
}

/// A plan started for a pilot's page: [`Started::finished`] ends it; dropped unfinished (the
/// task computing it cancelled), it ends as failed, so the pilot never stays "running" for good.
pub struct Started<P = CapacityPlan> {
    following: Arc<Following<P>>,
    pilot_id: i64,
    done: bool,
}

impl<P> Started<P> {
    /// The plan ended (`None`: it failed or another caller makes the same plan).
    pub fn finished(mut self, plan: Option<Arc<P>>) {
        self.done = true;
        self.following.finished(self.pilot_id, plan);
    }
}

impl<P> Drop for Started<P> {
    fn drop(&mut self) {
        if !self.done {
            self.following.finished(self.pilot_id, None);
        }
    }
}

impl<P> Following<P> {
    /// Starts a plan for `pilot_id` when the page may now (none running, and none started
    /// within [`FOLLOW_EVERY`] when there is one to show).
    pub fn may_start(self: &Arc<Self>, pilot_id: i64) -> Option<Started<P>> {
        self.may_start_at(pilot_id, Instant::now())
            .then(|| Started {
                following: self.clone(),
                pilot_id,
                done: false,
            })
    }

    fn may_start_at(&self, pilot_id: i64, now: Instant) -> bool {
        let Ok(mut pilots) = self.0.lock() else {
            return false;
        };
        if !pilots.contains_key(&pilot_id) && pilots.len() >= FOLLOWED_PILOTS {
            let idle = pilots
                .iter()
                .filter(|(_, p)| !p.running)
                .min_by_key(|(_, p)| p.started)
                .map(|(id, _)| *id);
            if let Some(id) = idle {
                pilots.remove(&id);
            }
        }
        let pilot = pilots.entry(pilot_id).or_default();
        let recent = pilot
            .started
            .is_some_and(|s| now.saturating_duration_since(s) < FOLLOW_EVERY);
        if pilot.running || (recent && pilot.latest.is_some()) {
            return false;
        }
        pilot.running = true;
        pilot.started = Some(now);
        true
    }

    /// The plan started for `pilot_id` ended (`None`: it failed or another caller makes the
    /// same plan).
    fn finished(&self, pilot_id: i64, plan: Option<Arc<P>>) {
        if let Ok(mut pilots) = self.0.lock() {
            let pilot = pilots.entry(pilot_id).or_default();
            pilot.running = false;
            if let Some(plan) = plan {
                pilot.latest = Some(Latest {
                    plan,
                    made_ms: crate::store::now_ms(),
                });
            }
        }
    }

    /// The plan of the pilot's current state was found kept (made by the report, the API or
    /// an earlier view): it is the latest.
    pub fn shown(&self, pilot_id: i64, plan: &Arc<P>) {
        if let Ok(mut pilots) = self.0.lock() {
            let pilot = pilots.entry(pilot_id).or_default();
            if !pilot
                .latest
                .as_ref()
                .is_some_and(|l| Arc::ptr_eq(&l.plan, plan))
            {
                pilot.latest = Some(Latest {
                    plan: plan.clone(),
                    made_ms: crate::store::now_ms(),
                });
            }
        }
    }

    /// The latest plan made for `pilot_id`, if any.
    pub fn latest(&self, pilot_id: i64) -> Option<Latest<P>> {
        self.0
            .lock()
            .ok()
            .and_then(|pilots| pilots.get(&pilot_id).and_then(|p| p.latest.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_plan_at_a_time_and_one_a_minute_once_there_is_one_to_show() {
        let following = Following::<u32>::default();
        let t0 = Instant::now();
        assert!(following.may_start_at(1, t0));
        // Running: no second one, whatever the time.
        assert!(!following.may_start_at(1, t0 + Duration::from_secs(120)));
        // Failed (nothing to show): the next state may start at once.
        following.finished(1, None);
        assert!(following.may_start_at(1, t0 + Duration::from_secs(1)));
        following.finished(1, Some(Arc::new(7)));
        assert_eq!(following.latest(1).map(|l| *l.plan), Some(7));
        // With a plan to show: not again within a minute of the last start.
        assert!(!following.may_start_at(1, t0 + Duration::from_secs(30)));
        assert!(following.may_start_at(1, t0 + Duration::from_secs(62)));
        // A plan found kept becomes the latest.
        following.shown(1, &Arc::new(8));
        assert_eq!(following.latest(1).map(|l| *l.plan), Some(8));
        // Pilots are followed apart.
        assert!(following.may_start_at(2, t0));
        assert!(following.latest(2).is_none());
    }

    #[test]
    fn a_plan_dropped_unfinished_ends_as_failed() {
        let following = Arc::new(Following::<u32>::default());
        let started = following.may_start(1).expect("nothing runs yet");
        assert!(following.may_start(1).is_none(), "one at a time");
        drop(started);
        let again = following
            .may_start(1)
            .expect("the dropped plan no longer runs");
        again.finished(Some(Arc::new(3)));
        assert_eq!(following.latest(1).map(|l| *l.plan), Some(3));
    }

    #[test]
    fn the_oldest_idle_pilot_is_forgotten_past_the_bound() {
        let following = Following::<u32>::default();
        let t0 = Instant::now();
        for id in 0..FOLLOWED_PILOTS as i64 {
            assert!(following.may_start_at(id, t0 + Duration::from_secs(id as u64)));
            following.finished(id, Some(Arc::new(id as u32)));
        }
        assert!(following.may_start_at(1_000, t0));
        assert!(following.latest(0).is_none(), "pilot 0 started first");
        assert!(following.latest(1).is_some());
    }
}
