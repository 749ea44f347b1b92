//! The pilot plan: pass marks and the rest of the plan, drafted, approved, amended (issue #4).
//!
//! Who may do what:
//!
//! * assessors and administrators draft, edit, approve and amend
//!   ([`engine::plan::can_edit_plans`], [`engine::plan::can_approve_plans`]);
//! * sales engineers see every version, drafts included, and change nothing (403);
//! * customers see the **approved** versions of their own organisation's pilots only; drafts
//!   stay with the assessment team until approved. Anything else is 404, like everywhere.
//!
//! Every edit names the draft it changes by version number and the `revision` the editor loaded:
//! a draft saved by someone else in between is refused (409) instead of silently overwritten, and
//! an approved version is refused (409) by the server function and, again, by the store, whose
//! `UPDATE` only touches rows `WHERE status = 'draft'`. Edits go through the engine's plan forms
//! ([`PlanForm`](engine::plan::PlanForm) → [`PlanContent::parse`]), so an error names the mark or
//! scenario by number and the field: `pass mark 2, threshold: must be greater than zero`.

#[cfg(feature = "server")]
pub mod service;

use crate::model::Pilot;
use engine::account::Role;
use engine::plan::{Approval, PlanContent, PlanStatus, PlanVersion};
use engine::verdict::PlanGrade;
use serde::{Deserialize, Serialize};

// Form-posted server functions take one argument per form field.

/// One stored version of a pilot's plan, with who created and approved it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanVersionRecord {
    pub pilot_id: i64,
    /// 1 for the first version, one more per amendment.
    pub number: u32,
    pub status: PlanStatus,
    pub content: PlanContent,
    /// How many times the draft was saved; edits must name the revision they started from.
    pub revision: i64,
    pub created_by: Option<i64>,
    pub created_by_name: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Why the previous version was amended; `None` for version 1.
    pub amendment_reason: Option<String>,
    pub approved_by: Option<i64>,
    pub approved_by_name: Option<String>,
    /// From this instant the version is in force.
    pub approved_ms: Option<i64>,
    /// Who submitted the draft for approval, and when; `None` while it is a plain draft (a save
    /// takes a submission back).
    #[serde(default)]
    pub submitted_by: Option<i64>,
    #[serde(default)]
    pub submitted_by_name: Option<String>,
    #[serde(default)]
    pub submitted_ms: Option<i64>,
}

impl PlanVersionRecord {
    /// The engine's view of this version (for the life-cycle rules, diffs and grading).
    pub fn to_engine(&self) -> PlanVersion {
        PlanVersion {
            number: self.number,
            content: self.content.clone(),
            created_at_ms: self.created_ms,
            amendment_reason: self.amendment_reason.clone(),
            approval: self.approved_ms.map(|at| Approval {
                approver_user_id: self.approved_by.unwrap_or_default(),
                approver_name: self.approved_by_name.clone().unwrap_or_default(),
                approved_at_ms: at,
            }),
        }
    }

    pub fn is_draft(&self) -> bool {
        self.status == PlanStatus::Draft
    }

    /// Where a draft stands in the approval workflow, for the plan page and the editor.
    pub fn approval_stage(&self) -> String {
        self.approval_stage_in(engine::locale::Lang::En)
    }

    /// [`PlanVersionRecord::approval_stage`] in `lang`.
    pub fn approval_stage_in(&self, lang: engine::locale::Lang) -> String {
        use engine::locale::Lang;
        match (&self.submitted_by_name, self.submitted_ms, lang) {
            (Some(by), Some(at), Lang::En) => format!(
                "Submitted for approval by {by} on {}. A save of the draft takes the submission \
                 back.",
                lang.date_time(at)
            ),
            (Some(by), Some(at), Lang::De) => format!(
                "Zur Freigabe eingereicht von {by} am {}. Ein Speichern des Entwurfs zieht die \
                 Einreichung zurück.",
                lang.date_time(at)
            ),
            (_, _, Lang::En) => "Not yet submitted for approval: submitting puts it in the \
                                 approvers' inbox on the pilots list."
                .to_string(),
            (_, _, Lang::De) => "Noch nicht zur Freigabe eingereicht: Das Einreichen legt ihn \
                                 den Freigebenden auf der Pilotenliste vor."
                .to_string(),
        }
    }

    /// Approved by the person who wrote it: an administrator's override of the four-eyes rule
    /// ([`engine::plan::PlanVersion::approve_drafted_by`]), shown as such wherever the approval is.
    pub fn approved_by_its_author(&self) -> bool {
        self.approved_ms.is_some()
            && self.approved_by.is_some()
            && self.approved_by == self.created_by
    }

    /// ` (by its own author: an administrator's override)` when [`Self::approved_by_its_author`].
    pub fn override_note(&self) -> &'static str {
        self.override_note_in(engine::locale::Lang::En)
    }

    /// [`PlanVersionRecord::override_note`] in `lang`.
    pub fn override_note_in(&self, lang: engine::locale::Lang) -> &'static str {
        if self.approved_by_its_author() {
            lang.pick(
                " (by its own author: an administrator's override of the four-eyes rule)",
                " (von der eigenen Autorin oder dem eigenen Autor: eine Ausnahme der Administration vom Vier-Augen-Prinzip)",
            )
        } else {
            ""
        }
    }
}

/// What the plan pages need: the pilot, the versions the viewer may see, the grade of the plan
/// in force and what the viewer may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanView {
    pub pilot: Pilot,
    /// The versions the viewer may see, oldest first (customers: approved ones only).
    pub versions: Vec<PlanVersionRecord>,
    /// The approved version with the highest number, if any.
    pub in_force: Option<u32>,
    /// Every pass mark of [`PlanView::graded_version`] with its status against the evidence.
    pub grade: Option<PlanGrade>,
    /// The version graded: the one in force, or (for staff, before any approval) the draft.
    pub graded_version: Option<u32>,
    /// May draft, edit and amend (assessors and administrators).
    pub can_edit: bool,
    /// May approve a draft (assessors and administrators).
    pub can_approve: bool,
    /// The viewer sees approved versions only (customers).
    pub approved_only: bool,
    /// The viewer's account: whether the open draft is their own (set per view).
    #[serde(default)]
    pub viewer_id: Option<i64>,
    /// The viewer is an administrator (who may approve their own draft, as an override).
    #[serde(default)]
    pub viewer_is_admin: bool,
}

impl PlanView {
    pub fn version(&self, number: u32) -> Option<&PlanVersionRecord> {
        self.versions.iter().find(|v| v.number == number)
    }

    /// The plan in force.
    pub fn in_force_version(&self) -> Option<&PlanVersionRecord> {
        self.in_force.and_then(|n| self.version(n))
    }

    /// The open draft, if the viewer may see it.
    pub fn draft(&self) -> Option<&PlanVersionRecord> {
        self.versions.iter().rev().find(|v| v.is_draft())
    }

    pub fn latest(&self) -> Option<&PlanVersionRecord> {
        self.versions.iter().max_by_key(|v| v.number)
    }

    /// The open draft is the viewer's own.
    pub fn draft_is_own(&self) -> bool {
        self.draft()
            .is_some_and(|d| d.created_by.is_some() && d.created_by == self.viewer_id)
    }

    /// The viewer may submit the open draft for approval (it is not submitted yet).
    pub fn may_submit(&self) -> bool {
        self.can_edit && self.draft().is_some_and(|d| d.submitted_ms.is_none())
    }

    /// The viewer is offered Approve on the open draft: they may approve and it is not their
    /// own (an administrator's own draft is offered as an override, in the editor only).
    pub fn may_approve_draft(&self) -> bool {
        self.can_approve && self.draft().is_some() && !self.draft_is_own()
    }

    /// Sets who looks at the plan (a plan card is made once per role and kept).
    pub fn for_viewer(mut self, user_id: i64, role: Role) -> Self {
        self.viewer_id = Some(user_id);
        self.viewer_is_admin = role == Role::Admin;
        self
    }
}

/// The versions someone of `role` may see: staff every one, customers the approved ones.
pub fn visible_versions(role: Role, versions: Vec<PlanVersionRecord>) -> Vec<PlanVersionRecord> {
    if role.is_staff() {
        versions
    } else {
        versions.into_iter().filter(|v| !v.is_draft()).collect()
    }
}

/// The plan as `role` may see it, its graded version graded against `figures` and worded in
/// `lang` — or, when `in_force_grade` is that version's grade already computed (the pilot
/// page's verdict), that.
#[cfg(feature = "server")]
pub fn plan_view(
    role: Role,
    pilot: Pilot,
    versions: Vec<PlanVersionRecord>,
    figures: &[engine::verdict::EvidenceStatistic],
    in_force_grade: Option<(u32, PlanGrade)>,
    lang: engine::locale::Lang,
) -> PlanView {
    use engine::plan::{can_approve_plans, can_edit_plans};
    let versions = visible_versions(role, versions);
    let in_force = versions
        .iter()
        .filter(|v| !v.is_draft())
        .map(|v| v.number)
        .max();
    let graded = in_force
        .and_then(|n| versions.iter().find(|v| v.number == n))
        .or_else(|| versions.last());
    let grade = graded.map(|v| match in_force_grade {
        Some((number, grade)) if number == v.number => grade,
        _ => engine::verdict::grade_plan_in(&v.content, figures, lang),
    });
    PlanView {
        pilot,
        in_force,
        graded_version: graded.map(|v| v.number),
        grade,
        versions,
        can_edit: can_edit_plans(role),
        can_approve: can_approve_plans(role),
        approved_only: !role.is_staff(),
        viewer_id: None,
        viewer_is_admin: role == Role::Admin,
    }
}
