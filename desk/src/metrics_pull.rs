//! vLLM's `/metrics` pulled on a schedule while a pilot runs (issue #36), instead of scrapes
//! uploaded by hand.
//!
//! * One **source** per pilot: a vLLM `/metrics` URL, or a Prometheus base URL with a series
//!   selector (pulled from its `/federate` endpoint, which answers the same exposition format),
//!   an interval (15 s to 1 h, default 60 s) and an optional bearer token, which is sent to the
//!   target and never shown again.
//! * **One scrape per due time across instances**: every instance runs the scheduler, and a due
//!   source is taken by one conditional UPDATE of its lease (see
//!   [`crate::store::metrics_sources`]); the loser does nothing.
//! * Each scrape is stored as `metrics_scrape` evidence (`pulled-scrape-<UTC time>.prom`) and
//!   read by everything that reads an uploaded scrape: the window, the alarms, the in-flight
//!   cross-check. **Compacted as it ages**: every pulled scrape of the last two hours is kept,
//!   before that the first of each hour (what the busiest-hour window needs).
//! * **Failures never break a page**: a time-out, a refused connection, an HTTP error or a body
//!   that is not vLLM's metrics is recorded on the source (`last_error`, with the last success)
//!   and shown; the next attempt follows at the interval.
//! * **Only where a scrape may go**: link-local addresses and the clouds' metadata services are
//!   refused (at set-up and again at each scrape, on the addresses the name resolves to, which
//!   are the ones connected to) unless the server's `METRICS_ALLOW_HOSTS` names the host.

use serde::{Deserialize, Serialize};

/// Shortest interval between scrapes, seconds.
pub const MIN_INTERVAL_S: i64 = 15;
/// Longest interval, seconds.
pub const MAX_INTERVAL_S: i64 = 3_600;
/// The interval when none is given, seconds.
pub const DEFAULT_INTERVAL_S: i64 = 60;
/// File names of pulled scrapes start with this (compaction thins out only these).
pub const PULLED_PREFIX: &str = "pulled-scrape-";

/// A pilot's metrics source as set (`PUT /api/v1/pilots/{id}/metrics-source`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MetricsSourceInput {
    /// `http(s)://host:port/metrics` of a vLLM server, or a Prometheus base URL with `selector`.
    pub url: String,
    /// Seconds between scrapes, 15 to 3,600 (default 60).
    #[serde(default)]
    pub interval_s: Option<i64>,
    /// Sent as `Authorization: Bearer …` to the target; never shown again.
    #[serde(default)]
    pub bearer_token: Option<String>,
    /// With a Prometheus base URL: the series to pull through its `/federate` endpoint
    /// (`{job="vllm"}`).
    #[serde(default)]
    pub selector: Option<String>,
}

/// A pilot's metrics source and how its scrapes went (`GET …/metrics-source`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MetricsSourceView {
    pub pilot_id: i64,
    pub url: String,
    pub selector: Option<String>,
    pub interval_s: i64,
    /// Whether a bearer token is set (it is never shown).
    pub has_bearer_token: bool,
    /// When the latest attempt was made, RFC 3339; `null` before the first.
    pub last_scrape_at: Option<String>,
    /// When a scrape last succeeded, RFC 3339.
    pub last_success_at: Option<String>,
    /// Why the latest attempt failed; `null` when it succeeded.
    pub last_error: Option<String>,
    /// The evidence the latest successful scrape was stored as.
    pub last_evidence_id: Option<i64>,
    /// Successful scrapes and failed attempts since the source was set.
    pub scrapes: i64,
    pub failures: i64,
    /// When the next scrape is due, RFC 3339.
    pub next_scrape_at: String,
    /// The same instants in Unix ms, for pages.
    pub last_scrape_ms: Option<i64>,
    pub last_success_ms: Option<i64>,
}

/// The traffic page's form for the source: what is set now (`None`: nothing yet).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsSourceForm {
    pub source: Option<MetricsSourceView>,
}

#[cfg(feature = "server")]
pub mod service;
