//! Quality evidence of a pilot: the evaluation set, runs of a model over it (one per serving
//! precision), and lm-evaluation-harness results.
//!
//! * `eval_set` evidence keeps the parsed [`EvalSet`] as its summary; `eval_run` evidence keeps
//!   the parsed [`EvalRun`] with its serving configuration and the id of the set it was read
//!   against ([`StoredEvalRun`]); `lm_eval_results` keeps [`LmEvalResults`].
//! * Scores are computed when shown ([`engine::quality::score_run`]), so an improved engine
//!   improves every stored run. Retrieval hit rate@k uses the plan's `hit_k` when the plan in
//!   force has one, else the run's own depth (the most passages retrieved for one question).
//! * The comparison of two runs (default: the latest two) is
//!   [`engine::quality::compare_runs`]: paired difference, McNemar's exact test, flips.
//! * **Set versions** ([`EvalSetVersion`], table `eval_set_versions`): versioned like the plan.
//!   An uploaded set file becomes the open draft (a new version after the latest, or replacing
//!   the draft already open); staff edit the draft row by row on `/pilots/{id}/quality/set` and
//!   approve it, after which it is frozen (the database refuses changes); a change is a new
//!   draft version starting from the latest. **A run is read against the latest approved
//!   version; when none is approved yet, against the open draft, which is approved (frozen) by
//!   that first run**, so every run refers to an exact, unchangeable version (its number is
//!   stored with the run). Customers see approved versions only.
//! * The **precision decision** ([`engine::quality::decide_precision`], exposed as
//!   [`service::precision_decision`]): the runs of the current set version graded against the
//!   quality marks of the plan in force; only passing precisions are sizing candidates; the
//!   decided one is the cheapest in memory among them.

use crate::model::EvidenceFile;
use engine::quality::{EvalRun, EvalSet, LmEvalResults, RunComparison, RunScores};
use serde::{Deserialize, Serialize};

pub use engine::quality::PrecisionDecision;

/// The summary of `eval_run` evidence: the run and the set evidence it was read against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredEvalRun {
    /// The uploaded set file the run's set version came from (0 when it was edited on the page).
    pub set_evidence_id: i64,
    /// The set version the run was read against (`None` for runs stored before versions).
    #[serde(default)]
    pub set_version: Option<u32>,
    #[serde(flatten)]
    pub run: EvalRun,
}

/// One version of a pilot's evaluation set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSetVersion {
    pub pilot_id: i64,
    /// 1, 2, … per pilot.
    pub number: u32,
    /// Approved versions are frozen.
    pub approved: bool,
    pub set: EvalSet,
    /// Saves of the draft; edits name the revision they started from.
    pub revision: i64,
    /// Where the items came from: `upload of set.csv (evidence #3)`, `edited on the page`.
    pub source: String,
    pub evidence_id: Option<i64>,
    pub created_by_name: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub approved_by_name: Option<String>,
    pub approved_ms: Option<i64>,
}

/// The evaluation set the page shows: the version runs are read against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetView {
    /// `None` for a set stored before versions existed.
    pub version: Option<u32>,
    pub approved: bool,
    /// The uploaded file the version came from, if any.
    pub evidence: Option<EvidenceFile>,
    pub source: String,
    pub questions: usize,
}

/// One run with its scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    pub evidence: EvidenceFile,
    pub set_evidence_id: i64,
    /// The set version the run was read against.
    pub set_version: Option<u32>,
    pub model: String,
    pub weights_precision: String,
    pub kv_precision: String,
    pub engine: String,
    pub engine_version: String,
    pub gpu: String,
    /// k of retrieval hit rate@k used for this run.
    pub k: usize,
    pub scores: RunScores,
}

impl RunView {
    /// `#12 FP8 (KV fp8)`.
    pub fn label(&self) -> String {
        format!(
            "#{} {} (KV {})",
            self.evidence.id, self.weights_precision, self.kv_precision
        )
    }
}

/// Two runs of the same set compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonView {
    pub a: i64,
    pub a_label: String,
    pub b: i64,
    pub b_label: String,
    /// Whether both runs were read against the same set version.
    pub same_set: bool,
    pub comparison: RunComparison,
}

/// One question of the drill-down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    pub id: String,
    pub question: String,
    pub accepted_answer: String,
    pub accepted_passages: Vec<String>,
    /// `None` when the run has no row for the question.
    pub answer: Option<String>,
    pub retrieved: Vec<String>,
    /// The grade: `correct` as 1/0, or the score (0–1).
    pub value: Option<f64>,
    pub right: Option<bool>,
    /// Whether an accepted passage is in the first k retrieved (`None`: nothing to score).
    pub hit: Option<bool>,
    pub truncated: bool,
}

/// lm-evaluation-harness results of one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LmEvalView {
    pub evidence: EvidenceFile,
    pub results: LmEvalResults,
    /// The file's model against the pilot's, as every kind of evidence is checked: another
    /// model's task scores are shown, marked not comparable.
    #[serde(default)]
    pub check: engine::verdict::comparability::FileCheck,
}

/// Everything the quality page and the REST API show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityReport {
    /// The latest evaluation set.
    pub set: Option<SetView>,
    /// Score at or above which a graded answer counts as right (for right/wrong statistics).
    pub pass_score: f64,
    /// Where k comes from: the plan or the runs.
    pub k_source: String,
    /// Newest first.
    pub runs: Vec<RunView>,
    pub comparison: Option<ComparisonView>,
    /// The run of the drill-down (the comparison's second run, else the newest).
    pub drill_down_run: Option<i64>,
    pub items: Vec<ItemRow>,
    pub lm_eval: Vec<LmEvalView>,
    /// Which precisions pass the plan's quality marks and which one is decided.
    pub decision: PrecisionDecision,
    /// An open draft version of the set (staff only).
    pub draft_version: Option<u32>,
    /// May upload and edit the set (staff).
    pub can_edit: bool,
}

/// What the set page shows: the versions the viewer may see and which one is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSetPage {
    pub pilot: crate::model::Pilot,
    /// Oldest first; customers see approved versions only.
    pub versions: Vec<EvalSetVersion>,
    /// The version shown (the one asked for, else the open draft for staff, else the latest).
    pub shown: Option<u32>,
    /// The version runs are read against now.
    pub runs_against: Option<u32>,
    pub can_edit: bool,
}

impl EvalSetPage {
    pub fn version(&self, number: u32) -> Option<&EvalSetVersion> {
        self.versions.iter().find(|v| v.number == number)
    }
}

#[cfg(feature = "server")]
pub mod service;
