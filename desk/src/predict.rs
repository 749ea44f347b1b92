//! The capacity twin of a pilot ([`engine::twin`]): predicted TTFT, TPOT, ITL and E2E
//! percentiles at a rate or a concurrency, fitted on the pilot's stored load tests, with the
//! leave-one-out back-test that states its error.
//!
//! Three callers ask the same question of the same evidence: the load-tests page (the server
//! function here), `GET /api/v1/pilots/{id}/predict` and `server predict` (files on disk). The
//! step from "load tests and limit evidence" to a fitted [`Twin`] is [`service::TwinEvidence`] and
//! [`service::TwinEvidence::build`], shared by all three, so a prediction on the page, from the API
//! and from the command line on the same files agree.
//!
//! A pilot's twin is fitted once per state of its evidence and shared by every caller, with its
//! answers ([`crate::twin_cache`]). It never re-reads raw files: the operating points come
//! from the stored import summaries, the per-request records from the stored `request_samples`
//! rows, the KV-cache size from the stored start-up logs and `/metrics` scrapes, `max_num_seqs`
//! and `max_num_batched_tokens` from the run context stored with each load test.

use crate::model::Pilot;
use engine::twin::Prediction;
use serde::{Deserialize, Serialize};

/// The load the card asks about by default, and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DefaultLoad {
    pub rate_per_s: Option<f64>,
    pub concurrency: Option<u32>,
    /// "the plan's peak arrival rate", "the plan's planned peak concurrency", …
    pub source: String,
}

/// What the capacity-twin card shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwinView {
    pub pilot: Pilot,
    /// False: the pilot has no load test, the card shows its empty state.
    pub has_load_tests: bool,
    /// The load asked (the form's values): exactly one is set when a prediction was made.
    pub rate: String,
    pub concurrency: String,
    pub default_load: DefaultLoad,
    /// The serving configuration the twin was fitted on.
    pub configuration: Option<String>,
    pub prediction: Option<Prediction>,
    /// Why there is no prediction (bad form input, nothing to fit), for people.
    pub problem: Option<String>,
    /// The caller is staff: the card offers the operating-point cost (prices are staff-only).
    #[serde(default)]
    pub staff: bool,
    /// The price per GPU-hour asked (staff only; the form's text), or the GPU catalog's price
    /// per GPU-hour of the pilot's GPU when none was asked.
    #[serde(default)]
    pub price: String,
    /// Where a price the form did not ask for came from: `the GPU catalog's price per GPU-hour
    /// of NVIDIA Tesla V100 SXM2 16GB`.
    #[serde(default)]
    pub price_source: Option<String>,
    /// The currency of the prices (ISO 4217), when the installation has set one (staff only).
    #[serde(default)]
    pub currency: Option<String>,
    /// Cost per 1M output and input tokens at the predicted operating point on the pilot's own
    /// GPUs, Estimated (staff only, with a price and a prediction).
    #[serde(default)]
    pub operating_cost: Option<engine::production::OperatingCost>,
}

#[cfg(feature = "server")]
pub mod service;
