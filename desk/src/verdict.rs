//! The pilot's verdict: every pass mark of the plan in force against the evidence, with what
//! changes the reading.
//!
//! Which figure grades which mark is decided once, in [`engine::verdict::collect`]; this module
//! gathers the pilot's evidence for it (gateway profile, load-test points, the decided
//! precision's evaluation run), grades the plan, and adds the warnings a reader needs before
//! trusting a pass: the pilot hit its own limit (vLLM preempted requests, or a queue lasted over
//! consecutive scrapes), answers were truncated, p95 and p99 converged at the graded load
//! (saturation), pass marks were first approved or amended after evidence arrived, load tests
//! could not be placed at the planned peak, evidence of another model or GPU (checked per file
//! against the pilot, [`engine::verdict::comparability`]), requests in flight that do not add
//! up (the cross-check of [`engine::verdict::cross_check`]), an evaluation set under 50
//! questions. Caveats close it: re-run the load test on the production stack before go-live,
//! and, when a run used speculative decoding, that per-stream speed depends on its acceptance
//! rate.

use crate::model::Pilot;
use engine::verdict::{PlanOutcome, Tally, Verdict};
use serde::{Deserialize, Serialize};

/// One pass mark with its grade, as pages and the report show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerdictRow {
    /// The mark in plain words.
    pub sentence: String,
    /// `TTFT p99 ≤ 450 ms @ client`.
    pub notation: String,
    pub verdict: Verdict,
    /// The figure graded, in the mark's unit (`412 ms`), or `—`.
    pub measured: String,
    /// The mark's definition of its metric.
    pub definition: String,
    /// Where the mark is measured: `Client`, `Gateway` …
    pub point: String,
    /// Where the figure comes from (file, concurrency, scenario), empty when not measured.
    pub source: String,
    /// The page that shows the evidence.
    pub evidence_link: Option<String>,
    /// The grade's explanation.
    pub explanation: String,
    /// Requests (or questions) the figure rests on, when known.
    #[serde(default)]
    pub samples: Option<u64>,
    /// When the mark first graded (pass or fail) under this plan version (Unix ms); `None`
    /// while it does not grade, or where the moment was not noted (a verdict made for a report).
    #[serde(default)]
    pub gradable_since_ms: Option<i64>,
}

/// Something that changes how the verdict reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerdictWarning {
    pub title: String,
    pub detail: String,
    pub link: Option<String>,
}

/// The verdict of a pilot against its plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerdictView {
    pub pilot: Pilot,
    /// The plan version graded against (the one in force), `None` before an approved plan.
    pub plan_version: Option<u32>,
    /// When that version was approved (Unix ms).
    pub plan_approved_ms: Option<i64>,
    pub outcome: Option<PlanOutcome>,
    pub tally: Tally,
    pub rows: Vec<VerdictRow>,
    pub warnings: Vec<VerdictWarning>,
    /// What must still be done or known before trusting the results in production.
    #[serde(default)]
    pub caveats: Vec<String>,
    /// Figures the evidence produced (graded or not).
    pub figures: usize,
    pub can_edit: bool,
}

impl VerdictView {
    /// One line for the head of the verdict: `3 of 4 pass marks met; 1 not measured`.
    pub fn headline(&self) -> String {
        self.headline_in(engine::locale::Lang::En)
    }

    /// [`VerdictView::headline`] in `lang`.
    pub fn headline_in(&self, lang: engine::locale::Lang) -> String {
        let Some(outcome) = self.outcome else {
            return lang
                .pick(
                    "No approved plan yet: nothing to grade.",
                    "Noch kein freigegebener Plan: nichts zu bewerten.",
                )
                .into();
        };
        let tally = self.tally.summary_in(self.rows.len(), lang);
        format!("{}: {tally}.", outcome.label_in(lang))
    }
}

/// Everything the pilot page shows, from one gathering of the evidence and one grading: the
/// pilot, the verdict card, the plan card and the precision the quality evidence decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotPageData {
    pub pilot: crate::model::PilotView,
    pub verdict: VerdictView,
    pub plan: crate::plans::PlanView,
    /// `None` before any evaluation run.
    pub decision: Option<engine::quality::PrecisionDecision>,
    /// The production recommendation, as every edition names it.
    pub recommendation: RecommendationHeadline,
}

/// The production recommendation as the pilot page names it ([`crate::capacity`]): the same
/// configuration as the report, the API and the CLI, without money.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RecommendationHeadline {
    /// The recommended configuration, why, and the marks whose range crosses the limit.
    Recommended {
        label: String,
        why: String,
        /// Cards, central (low–high across the range).
        cards: String,
        unsettled: Vec<String>,
        /// The sizing page's query for the recommended configuration at the production
        /// demand (`model=…&weights=…&gpu=…&tp=…&copies=…&context=…&sessions=…`).
        sizing_query: String,
        demand: SizingDemand,
        /// When the plan shown was made for an earlier state of the evidence (a running feed's
        /// pilot gets a new plan at most once a minute): ms since the epoch. `None`: the
        /// current state's.
        #[serde(default)]
        as_of_ms: Option<i64>,
    },
    /// Every candidate was simulated and none holds with one copy down.
    NothingHolds {
        reason: String,
        demand: SizingDemand,
        /// As for [`RecommendationHeadline::Recommended`].
        #[serde(default)]
        as_of_ms: Option<i64>,
    },
    /// Being computed in the background (every candidate is simulated; seconds).
    Computing,
    /// Why there is no recommendation yet (no approved plan, no gateway log, …).
    Unavailable { reason: String },
}

/// The production demand as the sizing page takes it, from the capacity plan.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizingDemand {
    /// Tokens of context each session holds (also vLLM's `--max-model-len`).
    pub context_tokens_per_session: u32,
    /// Sessions to hold: the p99 of the simulated sessions in flight at production load.
    pub sessions: u32,
}

impl SizingDemand {
    /// `context=…&sessions=…`, appended to a sizing link.
    pub fn query(&self) -> String {
        format!(
            "context={}&sessions={}",
            self.context_tokens_per_session, self.sessions
        )
    }
}

#[cfg(feature = "server")]
pub mod service;
