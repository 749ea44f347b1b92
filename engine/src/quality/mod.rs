//! Quality evidence: does the model, in the precision it will serve in, answer the pilot's
//! evaluation set well, and does the search find the passages it needs?
//!
//! Pure and IO-free like the rest of the engine: parsers take `&str`, scores take data.
//!
//! * [`EvalSet`] / [`EvalRun`]: the evaluation set (questions, accepted answers, accepted
//!   passages) and one run of a model over it, parsed from CSV or JSON Lines by
//!   [`parse_set_csv`], [`parse_set_jsonl`], [`parse_run_csv`], [`parse_run_jsonl`] with
//!   errors that name file, line and field ([`QualityError`]).
//! * [`score_run`]: answer quality (Wilson interval for right/wrong, Student t for fractional
//!   scores), retrieval hit@k **scored separately from answers**, truncation rate
//!   (`finish_reason = length`) and the cross-tab of wrong answers with and without the
//!   accepted passage retrieved (model problem vs search problem). Exact methods and
//!   denominators are in `score.rs`.
//! * [`compare_runs`]: two runs of the same set (BF16 vs FP8): paired difference with the
//!   paired Wald interval, McNemar's exact test, and the questions that flipped.
//! * [`decide_precision`]: which precisions pass the plan's quality marks (only those are
//!   sizing candidates) and which one is decided: the cheapest in memory (see `decision.rs`).
//! * [`parse_lm_eval_results`]: task-level metrics of an lm-evaluation-harness result file.

mod compare;
mod decision;
mod error;
mod lmeval;
mod model;
mod parse;
mod score;
#[cfg(test)]
mod tests;

pub use compare::{RunComparison, compare_runs, mcnemar_exact, paired_wald};
pub use decision::{
    DecisionInput, DecisionRow, MarkCheck, PrecisionDecision, decide_precision, estimate_words,
    grade_quality, is_quality_mark, mark_figure, precision_bytes_per_weight, run_passed,
    sizing_precision,
};
pub use error::{QualityError, QualityErrorKind};
pub use lmeval::{LmEvalResults, TaskMetric, parse_lm_eval_results};
pub use model::{EvalItem, EvalItemForm, EvalRun, EvalSet, RunItem};
pub use parse::{parse_run_csv, parse_run_jsonl, parse_set_csv, parse_set_jsonl};
pub use score::{
    DEFAULT_PASS_SCORE, Estimate, IntervalMethod, RunScores, WrongAnswerCrossTab, Z95,
    answer_quality, hit_at_k, retrieval_hit_rate, score_run, t975, truncation, wilson,
    wrong_answer_crosstab,
};
