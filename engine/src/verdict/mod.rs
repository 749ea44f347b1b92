//! Grading pass marks against evidence.
//!
//! The verdict is pure arithmetic over two fully described numbers: a [`PassMark`] of the plan
//! and an [`EvidenceStatistic`] from the pilot's evidence. It answers `pass`, `fail`,
//! `not_measured` or `not_comparable`, always with the value used (in the mark's unit) and a
//! one-line explanation a customer can read. It never guesses: a figure measured at another point,
//! with another statistic, scope, definition or an inexact unit is not comparable, and says why.
//!
//! * [`evidence`]: [`EvidenceStatistic`], one figure with everything that makes it that figure.
//! * [`grade`](mod@grade): one mark against one figure ([`grade()`]).
//! * [`collect`]: which figure of the pilot's evidence (gateway log, load tests at the planned
//!   peak, evaluation runs) grades which mark.
//! * [`plan_grade`]: a whole plan against a list of figures ([`grade_plan`]).
//! * [`comparability`]: whether an evidence file is the pilot's at all (model, GPU).
//! * [`samples`]: how many requests a percentile or rate needs before it grades a mark.
//! * [`cross_check`]: the warnings that change the reading: the in-flight cross-check (Little's
//!   law on the log, the server's Δ latency sum ÷ Δt), pass marks first approved after the
//!   data, small evaluation sets.
//!
//! [`PassMark`]: crate::plan::PassMark

pub mod brief;
pub mod collect;
pub mod comparability;
pub mod cross_check;
pub mod evidence;
pub(crate) mod german;
pub mod grade;
mod mismatch;
pub mod plan_grade;
pub mod samples;

pub use evidence::{EvidenceStatistic, ValueBounds};
pub use german::source_in;
pub use grade::{MarkGrade, Verdict, grade, grade_in};
pub use plan_grade::{GradedMark, PlanGrade, PlanOutcome, Tally, grade_plan, grade_plan_in};
