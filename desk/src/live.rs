//! A pilot watched while it runs: the gateway posts every finished request to
//! `POST /api/v1/pilots/{id}/gateway/records` with a per-pilot ingest token, and the pass marks
//! fill in as the records arrive (issue #36).
//!
//! Why records, days and files: a record is kept exactly as the gateway sent it (one JSON line,
//! the raw evidence), unique per pilot by its request id so a retry or a replay never counts
//! twice. Records roll into **one gateway-log evidence file per day and format**
//! (`live-gateway-2026-12-05-litellm.jsonl`), which every page, the verdict, the demand profile,
//! the trace export and the report read exactly as they read an uploaded log; the file is
//! listed and can be withdrawn like any other. A roll runs after each accepted batch (in the
//! background, so the gateway's post returns at once) and on a timer for anything left over.
//!
//! The token is write-only and names one pilot: it authenticates nothing else (the user-token
//! check refuses its `pdi_` prefix), and a wrong, revoked or other pilot's token is the same 401.

use serde::{Deserialize, Serialize};

/// The prefix of every ingest token (user tokens start `pd_`).
pub const INGEST_TOKEN_PREFIX: &str = "pdi_";

/// The answer to a posted batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IngestAnswer {
    /// Records new to the pilot, kept (health probes and other calls that are not the model's
    /// demand included: they are kept and counted apart in the day file).
    pub accepted: u64,
    /// Records whose request id the pilot already had (a retry or a replay): not counted again.
    pub duplicates: u64,
    /// Of the accepted, those left out of the demand (health probes, embeddings, …).
    pub left_out: u64,
    /// Records refused, by their position in the batch; the rest of the batch is kept.
    pub rejected: Vec<RejectedRecord>,
}

/// A record of a batch that was refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RejectedRecord {
    /// 0-based position in the batch (array element, or JSON line).
    pub index: usize,
    /// The field at fault, when one is.
    pub field: Option<String>,
    pub error: String,
}

/// A new ingest token: the secret is in this answer only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IssuedIngestToken {
    pub id: i64,
    pub pilot_id: i64,
    pub name: String,
    /// `pdi_` and 64 hex characters; shown once, only its SHA-256 is kept.
    pub token: String,
}

/// An ingest token as listed (never its secret).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IngestTokenRow {
    pub id: i64,
    pub pilot_id: i64,
    pub name: String,
    /// The first characters of the token, to tell tokens apart (`pdi_3f9a1c`).
    pub prefix: String,
    /// E-mail address of who created it (empty when that account was deleted).
    pub created_by: String,
    pub created_ms: i64,
    pub last_used_ms: Option<i64>,
    /// When it was revoked; `None`: it still works.
    pub revoked_ms: Option<i64>,
}

/// A day of a pilot's feed, for the live page.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveDay {
    /// UTC date, `2026-12-05`.
    pub day: String,
    /// The records' format.
    pub stream: String,
    /// Records received for the day.
    pub received: i64,
    /// Records its evidence file holds (fewer while a roll is due).
    pub rolled: i64,
    /// The day's gateway-log evidence, once rolled.
    pub evidence_id: Option<i64>,
    /// When its latest record arrived (Unix ms).
    pub last_received_ms: i64,
}

/// A pass mark as it stands now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveMark {
    /// `TTFT p99 ≤ 450 ms @ client`.
    pub notation: String,
    /// `pass`, `fail`, `not_measured` or `not_comparable`.
    pub grade: String,
    /// The figure graded now, with its unit (`412 ms`), or `—`.
    pub measured: String,
    /// Requests (or questions) that figure rests on, when known.
    pub samples: Option<u64>,
    /// Where the mark is measured (`Client`, `Gateway`, …).
    pub point: String,
    /// Where the figure comes from; empty when not measured.
    pub source: String,
    /// Why it grades as it does (what was compared, or what keeps the evidence out).
    pub explanation: String,
    /// When the mark first graded under this plan version (Unix ms); `None` while it does not.
    pub gradable_since_ms: Option<i64>,
}

/// A pilot's feed in numbers (the pilot page's live card).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveFeed {
    /// Records received, all days.
    pub records: i64,
    /// Of those, the ones the day files hold now.
    pub rolled: i64,
    /// When the latest record arrived (Unix ms).
    pub last_record_ms: Option<i64>,
    /// Ingest tokens that still work.
    pub active_tokens: usize,
    /// Newest first.
    pub days: Vec<LiveDay>,
}

/// Days of the feed the pilot page lists: a week; a pilot that runs for months keeps its page
/// short (every day file stays on the evidence page).
pub const FEED_DAYS_SHOWN: usize = 7;

impl LiveFeed {
    /// The rows of the latest [`FEED_DAYS_SHOWN`] days (every stream of each), and how many
    /// older days are left out.
    pub fn latest_days(&self) -> (&[LiveDay], usize) {
        let mut seen: Vec<&str> = Vec::new();
        let mut shown = self.days.len();
        for (i, day) in self.days.iter().enumerate() {
            if !seen.contains(&day.day.as_str()) {
                if seen.len() == FEED_DAYS_SHOWN {
                    shown = i;
                    break;
                }
                seen.push(&day.day);
            }
        }
        let mut older: Vec<&str> = self.days[shown..].iter().map(|d| d.day.as_str()).collect();
        older.dedup();
        (&self.days[..shown], older.len())
    }

    /// Whether there is anything to show: records, or a token waiting for its first one.
    pub fn is_set_up(&self) -> bool {
        self.records > 0 || self.active_tokens > 0
    }
}

/// `12 s ago`, `4 min ago`, `3 h ago`, `2 days ago`: how long before `now_ms` an instant was.
pub fn ago(at_ms: i64, now_ms: i64) -> String {
    let s = (now_ms - at_ms).max(0) / 1000;
    match s {
        0..=89 => format!("{s} s ago"),
        90..=5_399 => format!("{} min ago", (s + 30) / 60),
        5_400..=172_799 => format!("{} h ago", (s + 1_800) / 3_600),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// The pilot as it runs: the feed and every pass mark's standing (`GET /api/v1/pilots/{id}/live`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveView {
    pub pilot_id: i64,
    /// Records received over the feed, all days.
    pub records: i64,
    /// Of those, the ones the day files hold now (the rest roll within seconds).
    pub rolled: i64,
    /// When the latest record arrived (Unix ms); `None` before the first.
    pub last_record_ms: Option<i64>,
    /// Seconds since then, at `now_ms`.
    pub last_record_age_s: Option<i64>,
    /// When this answer was made (Unix ms).
    pub now_ms: i64,
    /// Ingest tokens that still work.
    pub active_tokens: usize,
    /// The feed's days, newest first.
    pub days: Vec<LiveDay>,
    /// `3 of 4 pass marks met; 1 not measured`, or why nothing is graded yet.
    pub headline: String,
    /// `passed`, `failed`, `incomplete`; `None` before an approved plan.
    pub outcome: Option<String>,
    pub marks: Vec<LiveMark>,
}

#[cfg(feature = "server")]
pub mod service;

#[cfg(test)]
mod tests {
    use super::*;

    fn day(day: &str, stream: &str) -> LiveDay {
        LiveDay {
            day: day.to_string(),
            stream: stream.to_string(),
            received: 1,
            rolled: 1,
            evidence_id: None,
            last_received_ms: 0,
        }
    }

    #[test]
    fn the_pilot_page_lists_the_latest_week_of_the_feed_with_every_stream() {
        let mut days = vec![day("2026-12-10", "litellm"), day("2026-12-10", "generic")];
        days.extend(
            (1..=9)
                .rev()
                .map(|d| day(&format!("2026-12-0{d}"), "litellm")),
        );
        let feed = LiveFeed {
            days,
            ..LiveFeed::default()
        };
        let (shown, older) = feed.latest_days();
        assert_eq!(shown.len(), 8, "two streams on the 10th, then six days");
        assert_eq!(shown.last().unwrap().day, "2026-12-04");
        assert_eq!(older, 3);
        let short = LiveFeed {
            days: vec![day("2026-12-10", "litellm")],
            ..LiveFeed::default()
        };
        assert_eq!(short.latest_days(), (&short.days[..], 0));
    }
}
