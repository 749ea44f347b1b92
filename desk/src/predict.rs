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
    /// "the peak arrival rate of plan version 1 (production)", … in English, written from
    /// `chosen_by` (whose [`LoadSource::describe_in`] words it in another language); kept
    /// for the API's clients.
    pub source: String,
    /// Which of the four sources chose the load.
    pub chosen_by: LoadSource,
}

/// Where the default load comes from, in the order [`service::default_load`] tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LoadSource {
    /// The plan's production peak arrival rate (plan version `plan`).
    PlanPeakRate { plan: u32 },
    /// The plan's planned peak concurrency (plan version `plan`).
    PlanPeakConcurrency { plan: u32 },
    /// The heaviest concurrency a load test measured.
    HeaviestMeasured,
    /// Nothing states a load: one request per second.
    Fallback,
}

impl LoadSource {
    /// The source in `lang`.
    pub fn describe_in(self, lang: engine::locale::Lang) -> String {
        use engine::locale::Lang;
        match (self, lang) {
            (LoadSource::PlanPeakRate { plan }, Lang::En) => {
                format!("the peak arrival rate of plan version {plan} (production)")
            }
            (LoadSource::PlanPeakRate { plan }, Lang::De) => {
                format!("die Spitzen-Ankunftsrate der Planversion {plan} (Produktion)")
            }
            (LoadSource::PlanPeakConcurrency { plan }, Lang::En) => {
                format!("the planned peak concurrency of plan version {plan}")
            }
            (LoadSource::PlanPeakConcurrency { plan }, Lang::De) => {
                format!("die geplante Spitzen-Parallelität der Planversion {plan}")
            }
            (LoadSource::HeaviestMeasured, Lang::En) => {
                "the heaviest concurrency the load tests measured (the plan states no peak load)"
                    .into()
            }
            (LoadSource::HeaviestMeasured, Lang::De) => {
                "die höchste in den Lasttests gemessene Parallelität (der Plan nennt keine \
                 Spitzenlast)"
                    .into()
            }
            (LoadSource::Fallback, Lang::En) => {
                "1 request per second (neither the plan nor the load tests state a load)".into()
            }
            (LoadSource::Fallback, Lang::De) => {
                "1 Anfrage pro Sekunde (weder der Plan noch die Lasttests nennen eine Last)".into()
            }
        }
    }
}

impl DefaultLoad {
    /// A default load chosen by `chosen_by`, its English source written from it.
    pub fn new(rate_per_s: Option<f64>, concurrency: Option<u32>, chosen_by: LoadSource) -> Self {
        DefaultLoad {
            rate_per_s,
            concurrency,
            source: chosen_by.describe_in(engine::locale::Lang::En),
            chosen_by,
        }
    }
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
    /// The serving configuration the twin was fitted on (or asked for).
    pub configuration: Option<String>,
    /// Every serving configuration of the load tests when there are several (the card lets
    /// the reader choose one); empty when there is one.
    #[serde(default)]
    pub configurations: Vec<String>,
    pub prediction: Option<Prediction>,
    /// Why there is no prediction (bad form input, nothing to fit), for people.
    pub problem: Option<String>,
    /// Why the evidence gives no twin, as data: the report words it in its language (server
    /// side only; the pages show [`TwinView::problem`]).
    #[cfg(feature = "server")]
    #[serde(skip)]
    pub refusal: Option<refusal::FitRefusal>,
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
pub mod refusal;
#[cfg(feature = "server")]
pub mod service;
