//! Real traffic of a pilot: gateway logs (the exact demand) and vLLM `/metrics` scrapes (what
//! the server saw), as evidence.
//!
//! * Each gateway-log evidence row keeps its own file's [`GatewayLogSummary`] (format, records,
//!   skipped lines and that file's `DemandProfile`) as its summary.
//! * A pilot's logs combine into **one** profile: whenever a gateway log is added, every kept raw
//!   file of the pilot (`DATA_DIR/evidence/<sha256>`) is streamed again through one
//!   `DemandAccumulator` (each with the `skip_bad_lines` choice it was uploaded with) and the
//!   result is cached in `traffic_profiles`. Re-reading costs about a second per million
//!   requests, only at upload time; accumulators are not stored because the exact concurrency
//!   sweep and latency percentiles need every request's interval, which is the file again.
//! * A `/metrics` scrape keeps its single-scrape report; two of them (chosen on the page, with
//!   Δt given or taken from their scrape times) give the window: deltas, rates, mean in flight,
//!   quantiles with error bounds and the limit alarms. The window is recomputed from the kept
//!   raw scrapes on request (they are tens of KiB).
//! * Every scrape is checked against the pilot's model (its `model_name` labels,
//!   [`engine::verdict::comparability`]); a scrape of another model raises no alarm and grades
//!   nothing. The queue alarm needs a **lasting** queue: requests waiting in two consecutive
//!   scrapes (or on average over a window); a single scrape with requests waiting is a note.
//! * **In flight, cross-checked** ([`service::in_flight_cross_check`]): Little's law on the log's
//!   busiest hour against its sweep, and, when two scrapes span the busiest hour, vLLM's
//!   Δ latency sum ÷ Δt against the log over the same window, each with its tolerance
//!   ([`engine::verdict::cross_check`]).

use crate::model::EvidenceFile;
use engine::demand::DemandProfile;
use engine::metrics::{LimitAlarm, SnapshotReport, VllmWindow};
use engine::plan::content::DemandAssumptions;
use engine::traffic::SkippedLines;
use engine::verdict::comparability::FileCheck;
use engine::verdict::cross_check::InFlightCheck;
use serde::{Deserialize, Serialize};

/// The name the pilot's Mooncake trace downloads as (`GET /pilots/{id}/traffic/trace.jsonl`),
/// also the file the recommended load test's AIPerf command reads.
pub fn trace_file_name(pilot_id: i64) -> String {
    format!("pilot-{pilot_id}-trace.jsonl")
}

/// What one gateway-log file held (the evidence summary of a `gateway_log`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GatewayLogSummary {
    /// The recognised format, for people (`generic JSON Lines`, `LiteLLM SpendLogs (CSV)`, …).
    pub format: String,
    pub records: u64,
    pub bytes_read: u64,
    /// Whether malformed lines were skipped (the upload's `skip_bad_lines`).
    pub skip_bad_lines: bool,
    pub skipped: SkippedLines,
    /// This file's demand profile.
    pub profile: DemandProfile,
    /// What the reader noted about the records (first-token times set aside, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What one `/metrics` scrape told (the evidence summary of a `metrics_scrape`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsScrapeSummary {
    /// When the scrape was taken (upload field `scraped_at`, else the samples' own timestamps).
    pub scraped_at_ms: Option<i64>,
    pub report: SnapshotReport,
}

/// A gateway-log file of the pilot, without its per-file profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GatewayFile {
    pub evidence: EvidenceFile,
    pub format: String,
    pub records: u64,
    pub skipped_lines: u64,
    /// The reader's notes on this file's records.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A `/metrics` scrape of the pilot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScrapeFile {
    pub evidence: EvidenceFile,
    pub summary: MetricsScrapeSummary,
    /// Its `model_name` labels against the pilot's model.
    #[serde(default)]
    pub check: FileCheck,
}

impl ScrapeFile {
    /// When the scrape was taken, else when it was uploaded (Unix ms).
    pub fn at_ms(&self) -> i64 {
        self.summary
            .scraped_at_ms
            .unwrap_or(self.evidence.uploaded_ms)
    }
}

/// Requests in flight measured two or three ways, and whether they agree.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InFlightCrossCheck {
    /// Little's law on the log; then vLLM's Δ latency sum ÷ Δt, when scrapes span the busiest
    /// hour.
    pub checks: Vec<InFlightCheck>,
    /// Why vLLM's figure could not be set against the log, when scrapes exist.
    pub gap: Option<String>,
    /// The same reason in German, for the report.
    #[serde(skip)]
    pub gap_de: Option<String>,
}

impl InFlightCrossCheck {
    /// [`InFlightCrossCheck::gap`] in `lang`.
    pub fn gap_in(&self, lang: engine::locale::Lang) -> Option<&String> {
        match lang {
            engine::locale::Lang::De => self.gap_de.as_ref().or(self.gap.as_ref()),
            engine::locale::Lang::En => self.gap.as_ref(),
        }
    }
}

/// What the pilot's scrapes say about its own limit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LimitSignals {
    /// Preemptions, or a lasting queue: the pilot hit its own limit.
    pub alarms: Vec<LimitAlarm>,
    /// Requests waiting at single scrapes: notes, not alarms.
    pub notes: Vec<String>,
    /// The same notes as data, for the report's language.
    #[serde(skip)]
    pub waiting: Vec<engine::metrics::vllm::WaitingNote>,
}

/// Everything the traffic page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrafficData {
    pub pilot_id: i64,
    pub pilot_name: String,
    /// The combined profile of every gateway log; `None` before the first.
    pub profile: Option<DemandProfile>,
    pub skipped_lines: u64,
    pub files: Vec<GatewayFile>,
    /// The latest [`service::SCRAPES_SHOWN`] scrapes at most, oldest first (alarms and notes
    /// are read from every one).
    pub scrapes: Vec<ScrapeFile>,
    /// How many scrapes the pilot has in force (more than `scrapes` holds on a long pilot).
    #[serde(default)]
    pub scrapes_total: usize,
    /// The plan's demand assumptions, when the pilot has a plan.
    pub plan_demand: Option<DemandAssumptions>,
    /// The gateway logs' models against the pilot's.
    #[serde(default)]
    pub gateway_check: FileCheck,
    /// Requests in flight, cross-checked.
    #[serde(default)]
    pub in_flight: InFlightCrossCheck,
    /// Alarms and notes of the comparable scrapes.
    #[serde(default)]
    pub limits: LimitSignals,
}

/// The window between two scrapes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsWindowView {
    pub before: EvidenceFile,
    pub after: EvidenceFile,
    pub window: VllmWindow,
}

#[cfg(feature = "server")]
pub mod service;
#[cfg(feature = "server")]
pub mod trace;
