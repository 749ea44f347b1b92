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

/// One row of the set editor as typed: passages separated by `|`, `,` or spaces.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvalItemForm {
    pub id: String,
    pub question: String,
    pub accepted_answer: String,
    pub accepted_passages: String,
}

impl EvalSet {
    /// The set with row `index` (0-based; `None` appends a row) replaced by `form`. Errors name
    /// the row (1-based, as the editor numbers them) and the field: `row 3, id: "a" is already
    /// the id of row 1`.
    pub fn with_item(&self, index: Option<usize>, form: &EvalItemForm) -> Result<EvalSet, String> {
        let row = index.unwrap_or(self.items.len()) + 1;
        if let Some(i) = index
            && i >= self.items.len()
        {
            return Err(format!("row {row}: there is no such row; reload the page"));
        }
        let id = form.id.trim();
        let fail = |field: &str, message: &str| Err(format!("row {row}, {field}: {message}"));
        if id.is_empty() {
            return fail("id", "the value is blank");
        }
        if id.chars().any(|c| c.is_control() || c == '|') || id.chars().count() > 100 {
            return fail(
                "id",
                "at most 100 characters, without | or control characters",
            );
        }
        if let Some(other) = self
            .items
            .iter()
            .enumerate()
            .find(|(i, item)| Some(*i) != index && item.id == id)
        {
            return fail(
                "id",
                &format!("\"{id}\" is already the id of row {}", other.0 + 1),
            );
        }
        if form.question.trim().is_empty() {
            return fail("question", "the value is blank");
        }
        if form.accepted_answer.trim().is_empty() {
            return fail("accepted answer", "the value is blank");
        }
        let item = EvalItem {
            id: id.to_string(),
            question: form.question.trim().to_string(),
            accepted_answer: form.accepted_answer.trim().to_string(),
            accepted_passages: form
                .accepted_passages
                .split(|c: char| c == '|' || c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        };
        let mut set = self.clone();
        match index {
            Some(i) => set.items[i] = item,
            None => set.items.push(item),
        }
        Ok(set)
    }
}

#[cfg(test)]
mod editing_tests {
    use super::*;

    fn form(id: &str, passages: &str) -> EvalItemForm {
        EvalItemForm {
            id: id.into(),
            question: "Q?".into(),
            accepted_answer: "A".into(),
            accepted_passages: passages.into(),
        }
    }

    #[test]
    fn rows_are_added_and_replaced_and_errors_name_row_and_field() {
        let set = EvalSet::default()
            .with_item(None, &form("a", "p1 | p2"))
            .unwrap()
            .with_item(None, &form("b", "p3,p4 p5"))
            .unwrap();
        assert_eq!(set.items[0].accepted_passages, vec!["p1", "p2"]);
        assert_eq!(set.items[1].accepted_passages, vec!["p3", "p4", "p5"]);
        let edited = set.with_item(Some(1), &form("b2", "")).unwrap();
        assert_eq!(edited.items[1].id, "b2");
        assert!(edited.items[1].accepted_passages.is_empty());
        assert_eq!(
            set.with_item(Some(1), &form("a", "")).unwrap_err(),
            "row 2, id: \"a\" is already the id of row 1"
        );
        assert_eq!(
            set.with_item(None, &form(" ", "")).unwrap_err(),
            "row 3, id: the value is blank"
        );
        let blank_answer = EvalItemForm {
            accepted_answer: " ".into(),
            ..form("c", "")
        };
        assert_eq!(
            set.with_item(None, &blank_answer).unwrap_err(),
            "row 3, accepted answer: the value is blank"
        );
        assert!(set.with_item(Some(5), &form("z", "")).is_err());
    }
}
