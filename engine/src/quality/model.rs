//! The data of quality evidence: the evaluation set and one run of a model over it.

use serde::{Deserialize, Serialize};

/// One question of the evaluation set, with what counts as a right answer and which passages
/// a search should find for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalItem {
    /// Unique within the set; run rows refer to it.
    pub id: String,
    pub question: String,
    pub accepted_answer: String,
    /// Ids of the passages that answer the question; empty when the question has none (its
    /// retrieval cannot be scored).
    #[serde(default)]
    pub accepted_passages: Vec<String>,
}

/// The evaluation set: 50–100 real questions, in file order, ids unique.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvalSet {
    pub items: Vec<EvalItem>,
}

impl EvalSet {
    /// The item with this id.
    pub fn get(&self, id: &str) -> Option<&EvalItem> {
        self.items.iter().find(|item| item.id == id)
    }
}

/// One answer of a run, graded either as a fraction (`score`, 0–1) or right/wrong (`correct`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunItem {
    /// The [`EvalItem::id`] answered.
    pub id: String,
    #[serde(default)]
    pub answer: String,
    /// A graded score in 0–1 (judge or similarity); `None` when the row is graded by `correct`.
    #[serde(default)]
    pub score: Option<f64>,
    /// Right or wrong; `None` when the row is graded by `score`.
    #[serde(default)]
    pub correct: Option<bool>,
    /// Passage ids the search returned, best first; empty when nothing was retrieved.
    #[serde(default)]
    pub retrieved: Vec<String>,
    /// The engine's finish reason (`stop`, `length`, …) when recorded.
    #[serde(default)]
    pub finish_reason: Option<String>,
}

impl RunItem {
    /// The item's grade as a number: `correct` as 1 or 0, else `score`.
    pub fn value(&self) -> Option<f64> {
        match (self.correct, self.score) {
            (Some(c), _) => Some(if c { 1.0 } else { 0.0 }),
            (None, s) => s,
        }
    }

    /// Whether the answer counts as right: `correct`, or `score >= pass_score`.
    pub fn is_right(&self, pass_score: f64) -> Option<bool> {
        match (self.correct, self.score) {
            (Some(c), _) => Some(c),
            (None, Some(s)) => Some(s >= pass_score),
            (None, None) => None,
        }
    }

    /// Whether the engine stopped the answer at its token limit (`finish_reason = length`).
    pub fn truncated(&self) -> bool {
        self.finish_reason
            .as_deref()
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("length"))
    }
}

/// One run of a model over the evaluation set, with the serving configuration it ran in.
/// The run's per-item rows come from [`crate::quality::parse_run_csv`] or
/// [`crate::quality::parse_run_jsonl`]; the configuration comes from the pilot's form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvalRun {
    pub model: String,
    /// `BF16`, `FP8`, `AWQ-INT4`, …
    pub weights_precision: String,
    /// KV-cache precision (`auto`, `fp8`, …).
    pub kv_precision: String,
    pub engine: String,
    pub engine_version: String,
    pub gpu: String,
    pub items: Vec<RunItem>,
}

impl EvalRun {
    /// The row for this id.
    pub fn get(&self, id: &str) -> Option<&RunItem> {
        self.items.iter().find(|item| item.id == id)
    }
}
