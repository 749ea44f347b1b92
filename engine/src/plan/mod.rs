//! The pilot plan: what the pilot measures and the pass mark for each figure, written down and
//! approved before the first pilot user logs in.
//!
//! A pilot is a measurement, not a demo. Its plan names every figure exactly (metric, statistic,
//! measurement point, definition, scope) and the limit it must meet, so that grading later is
//! arithmetic rather than interpretation. The plan is a versioned document: an approved version is
//! frozen, an amendment is a new version with a reason, and evidence is graded against the version
//! that was in force when it was recorded.
//!
//! * [`metric`], [`statistic`], [`comparator`], [`unit`](mod@unit), [`point`], [`scope`]: the vocabulary
//!   of a pass mark, with stable snake_case serde names.
//! * [`pass_mark`]: [`PassMark`], its rules and its identity ([`MarkKey`]); [`sentence`] puts it
//!   in plain words.
//! * [`content`]: scenarios, demand assumptions, quality set and serving configuration, and the
//!   checks across a whole [`PlanContent`]; [`error`] names what failed.
//! * [`form`]: raw form strings → validated plan content.
//! * [`templates`]: reference targets to start a plan from, each with its source.
//! * [`version`]: draft → approved → amended, and which version was in force when.
//! * [`diff`](mod@diff): readable changes between versions and marks changed after evidence arrived.
//! * [`goodput`]: the plan's per-request latency targets, as goodput and load-test tools need them.
//!
//! Grading evidence against a plan lives in [`crate::verdict`].

pub mod comparator;
pub mod content;
pub mod diff;
pub mod error;
pub mod form;
pub mod goodput;
pub mod metric;
pub mod pass_mark;
pub mod point;
pub mod scope;
pub mod sentence;
pub mod statistic;
pub mod templates;
mod templates_de;
pub mod unit;
pub mod version;

pub use comparator::Comparator;
pub use content::{DemandAssumptions, PilotServing, PlanContent, QualitySet, Scenario, TokenRange};
pub use diff::{
    Change, ChangeKind, LateChange, changed_after, changed_after_in, diff, marks_changed_after,
};
pub use error::{FormFieldError, PlanErrors, PlanFieldError, PlanSection, PlanWarning};
pub use form::{DemandForm, PassMarkForm, PlanForm, QualityForm, ScenarioForm, ServingForm};
pub use metric::{Direction, Metric, MetricFamily};
pub use pass_mark::{MarkKey, PassMark, same_definition};
pub use point::MeasurementPoint;
pub use scope::Scope;
pub use statistic::Statistic;
pub use unit::{Quantity, Unit, format_number, format_number_in, format_quantity};
pub use version::{
    Approval, Approver, LifecycleError, PlanStatus, PlanVersion, can_approve_plans, can_edit_plans,
    current_approved, in_force_at, latest,
};
