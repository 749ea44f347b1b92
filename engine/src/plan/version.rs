//! The plan's life cycle: drafts, approval, frozen versions and amendments.
//!
//! Pass marks are written down before the first pilot user logs in, so a plan is a versioned,
//! approvable document:
//!
//! * version 1 starts as a draft; a draft is editable;
//! * an assessor or an administrator approves it, which records who and when (the time is passed
//!   in: the engine has no clock) and freezes it for good;
//! * changing an approved plan means an amendment: a new draft version copied from the approved
//!   one, with a mandatory reason; it in turn needs approval;
//! * evidence is graded against the version in force when it was recorded: the approved version
//!   with the latest approval at or before that time ([`in_force_at`]).
//!
//! These rules are pure functions over [`PlanVersion`] values; the store persists the versions and
//! calls them inside its transaction. [`PlanVersion::status`] is derived from the approval record,
//! so an "approved" version without an approver cannot exist.

use super::content::PlanContent;
use super::pass_mark::check_text;
use crate::account::Role;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest amendment reason accepted.
pub const MAX_REASON_CHARS: usize = 2_000;

/// Where a plan version is in its life. Serde names: `draft`, `approved`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    Draft,
    Approved,
}

impl PlanStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanStatus::Draft => "draft",
            PlanStatus::Approved => "approved",
        }
    }

    /// A label for pages.
    pub fn label(self) -> &'static str {
        match self {
            PlanStatus::Draft => "Draft",
            PlanStatus::Approved => "Approved",
        }
    }
}

impl fmt::Display for PlanStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// May draft and edit plans (assessment team and administrators).
pub fn can_edit_plans(role: Role) -> bool {
    matches!(role, Role::Admin | Role::Assessor)
}

/// May approve a plan version (assessment team and administrators).
pub fn can_approve_plans(role: Role) -> bool {
    matches!(role, Role::Admin | Role::Assessor)
}

/// The person approving a version, as the server knows them from the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approver {
    pub user_id: i64,
    pub name: String,
    pub role: Role,
}

/// Who approved a version and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    pub approver_user_id: i64,
    pub approver_name: String,
    /// Unix milliseconds; from this instant the version is in force.
    pub approved_at_ms: i64,
}

/// One version of a pilot plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanVersion {
    /// 1 for the first version, one more for each amendment.
    pub number: u32,
    pub content: PlanContent,
    /// Unix milliseconds.
    pub created_at_ms: i64,
    /// Why the previous version was amended; `None` for version 1.
    pub amendment_reason: Option<String>,
    /// Present once the version is approved.
    pub approval: Option<Approval>,
}

/// A life-cycle rule that refused an action.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LifecycleError {
    #[error("only assessors and administrators approve plans (a {} may not)", role.label())]
    NotAllowedToApprove { role: Role },
    #[error("version {version} is approved and frozen; amend it to change the plan")]
    Frozen { version: u32 },
    #[error("version {version} is already approved")]
    AlreadyApproved { version: u32 },
    #[error("version {version} is still a draft; edit it instead of amending it")]
    NotApproved { version: u32 },
    #[error("version {version} is not the latest; only version {latest} can be amended")]
    NotLatest { version: u32, latest: u32 },
    #[error("the plan has no versions yet")]
    NoVersions,
    #[error("an amendment needs a reason")]
    MissingReason,
    /// The reason's problem: the English message, then the same in German.
    #[error("the amendment reason {0}")]
    BadReason(String, String),
    #[error("a plan needs at least one pass mark before it can be approved")]
    NoPassMarks,
    #[error(
        "you wrote this draft, so another assessor or an administrator approves it (four eyes)"
    )]
    OwnDraft,
    #[error("the plan has errors: {0}")]
    Invalid(#[from] super::error::PlanErrors),
}

impl LifecycleError {
    /// The refusal for a reader of `lang`: English is the `Display` text exactly; German is
    /// written whole, in the plan editor's words (`Zielwert`, `Entwurf`, `freigeben`).
    pub fn message_in(&self, lang: crate::locale::Lang) -> String {
        use crate::locale::Lang;
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            LifecycleError::NotAllowedToApprove { role } => format!(
                "nur das Bewertungsteam und die Administration geben Pläne frei (die Rolle \
                 „{}“ darf das nicht)",
                role.label_in(lang)
            ),
            LifecycleError::Frozen { version } => format!(
                "Version {version} ist freigegeben und eingefroren; legen Sie eine Änderung an, \
                 um den Plan zu ändern"
            ),
            LifecycleError::AlreadyApproved { version } => {
                format!("Version {version} ist bereits freigegeben")
            }
            LifecycleError::NotApproved { version } => format!(
                "Version {version} ist noch ein Entwurf; bearbeiten Sie ihn, statt ihn zu ändern"
            ),
            LifecycleError::NotLatest { version, latest } => format!(
                "Version {version} ist nicht die neueste; nur Version {latest} kann geändert \
                 werden"
            ),
            LifecycleError::NoVersions => "der Plan hat noch keine Versionen".into(),
            LifecycleError::MissingReason => "eine Änderung braucht einen Grund".into(),
            LifecycleError::BadReason(en, de) => {
                format!(
                    "der Grund der Änderung {}",
                    if de.is_empty() { en } else { de }
                )
            }
            LifecycleError::NoPassMarks => {
                "ein Plan braucht mindestens einen Zielwert, bevor er freigegeben werden kann"
                    .into()
            }
            LifecycleError::OwnDraft => "Sie haben diesen Entwurf geschrieben, daher gibt ihn \
                                         jemand anderes aus dem Bewertungsteam oder die \
                                         Administration frei (Vier-Augen-Prinzip)"
                .into(),
            LifecycleError::Invalid(errors) => {
                format!("der Plan hat Fehler: {}", errors.text_in(lang))
            }
        }
    }
}

impl PlanVersion {
    /// Version 1 as a draft.
    pub fn first_draft(content: PlanContent, created_at_ms: i64) -> PlanVersion {
        PlanVersion {
            number: 1,
            content,
            created_at_ms,
            amendment_reason: None,
            approval: None,
        }
    }

    /// Draft or approved, derived from the approval record.
    pub fn status(&self) -> PlanStatus {
        if self.approval.is_some() {
            PlanStatus::Approved
        } else {
            PlanStatus::Draft
        }
    }

    /// Whether the content may still change.
    pub fn is_editable(&self) -> bool {
        self.status() == PlanStatus::Draft
    }

    /// The instant from which this version is in force, if approved.
    pub fn in_force_since_ms(&self) -> Option<i64> {
        self.approval.as_ref().map(|a| a.approved_at_ms)
    }

    /// Replaces a draft's content with validated content. An approved version is frozen.
    pub fn edit(&mut self, content: PlanContent) -> Result<(), LifecycleError> {
        if !self.is_editable() {
            return Err(LifecycleError::Frozen {
                version: self.number,
            });
        }
        content.validate()?;
        self.content = content;
        Ok(())
    }

    /// Approves a draft: the approver must be an assessor or an administrator, and the content
    /// must be valid with at least one pass mark. Records who approved and when.
    pub fn approve(&mut self, approver: &Approver, at_ms: i64) -> Result<(), LifecycleError> {
        if !can_approve_plans(approver.role) {
            return Err(LifecycleError::NotAllowedToApprove {
                role: approver.role,
            });
        }
        if !self.is_editable() {
            return Err(LifecycleError::AlreadyApproved {
                version: self.number,
            });
        }
        if self.content.pass_marks.is_empty() {
            return Err(LifecycleError::NoPassMarks);
        }
        self.content.validate()?;
        self.approval = Some(Approval {
            approver_user_id: approver.user_id,
            approver_name: approver.name.trim().to_string(),
            approved_at_ms: at_ms,
        });
        Ok(())
    }

    /// [`PlanVersion::approve`] with the four-eyes rule: the draft's author (`author_user_id`,
    /// who created the version) may not approve it, so the pass marks a pilot is judged by have
    /// been read by a second person before they freeze. An administrator may approve their own
    /// draft (a small team, an urgent pilot); the approval then names the same person as
    /// author and approver, which the plan history shows as an override.
    pub fn approve_drafted_by(
        &mut self,
        approver: &Approver,
        author_user_id: Option<i64>,
        at_ms: i64,
    ) -> Result<(), LifecycleError> {
        if author_user_id == Some(approver.user_id) && approver.role != Role::Admin {
            return Err(LifecycleError::OwnDraft);
        }
        self.approve(approver, at_ms)
    }

    /// A new draft version copied from this approved one, with the reason for the change.
    pub fn amend(&self, reason: &str, created_at_ms: i64) -> Result<PlanVersion, LifecycleError> {
        if self.is_editable() {
            return Err(LifecycleError::NotApproved {
                version: self.number,
            });
        }
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(LifecycleError::MissingReason);
        }
        check_text("reason", reason, MAX_REASON_CHARS)
            .map_err(|e| LifecycleError::BadReason(e.message, e.message_de))?;
        Ok(PlanVersion {
            number: self.number + 1,
            content: self.content.clone(),
            created_at_ms,
            amendment_reason: Some(reason.to_string()),
            approval: None,
        })
    }
}

/// The version with the highest number.
pub fn latest(versions: &[PlanVersion]) -> Option<&PlanVersion> {
    versions.iter().max_by_key(|v| v.number)
}

/// The approved version with the highest number, the plan currently in force.
pub fn current_approved(versions: &[PlanVersion]) -> Option<&PlanVersion> {
    versions
        .iter()
        .filter(|v| v.approval.is_some())
        .max_by_key(|v| v.number)
}

/// The version in force at `at_ms`: the approved version with the latest approval at or before
/// that instant; `None` if nothing was approved yet.
pub fn in_force_at(versions: &[PlanVersion], at_ms: i64) -> Option<&PlanVersion> {
    versions
        .iter()
        .filter_map(|v| v.in_force_since_ms().map(|since| (since, v)))
        .filter(|(since, _)| *since <= at_ms)
        .max_by_key(|(since, v)| (*since, v.number))
        .map(|(_, v)| v)
}

/// Amends the latest version, which must be approved (an open draft is edited instead).
pub fn amend_latest(
    versions: &[PlanVersion],
    reason: &str,
    created_at_ms: i64,
) -> Result<PlanVersion, LifecycleError> {
    latest(versions)
        .ok_or(LifecycleError::NoVersions)?
        .amend(reason, created_at_ms)
}

/// Checks that `number` is the latest version, before the store amends or approves it.
pub fn ensure_latest(versions: &[PlanVersion], number: u32) -> Result<(), LifecycleError> {
    let latest = latest(versions).ok_or(LifecycleError::NoVersions)?.number;
    if latest == number {
        Ok(())
    } else {
        Err(LifecycleError::NotLatest {
            version: number,
            latest,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::plan::content::tests::plan;

    pub(crate) fn assessor() -> Approver {
        Approver {
            user_id: 7,
            name: "Ada Assessor".into(),
            role: Role::Assessor,
        }
    }

    pub(crate) fn approved_v1(at_ms: i64) -> PlanVersion {
        let mut version = PlanVersion::first_draft(plan(), at_ms - 1_000);
        version.approve(&assessor(), at_ms).unwrap();
        version
    }

    #[test]
    fn a_draft_is_approved_by_someone_other_than_its_author_or_an_admin() {
        let who = |user_id, role| Approver {
            user_id,
            name: format!("user {user_id}"),
            role,
        };
        let mut own = PlanVersion::first_draft(plan(), 1);
        assert_eq!(
            own.approve_drafted_by(&who(7, Role::Assessor), Some(7), 2),
            Err(LifecycleError::OwnDraft)
        );
        assert!(own.is_editable());
        assert!(
            own.approve_drafted_by(&who(8, Role::Assessor), Some(7), 2)
                .is_ok()
        );
        let mut admins = PlanVersion::first_draft(plan(), 1);
        assert!(
            admins
                .approve_drafted_by(&who(7, Role::Admin), Some(7), 2)
                .is_ok()
        );
        assert_eq!(admins.approval.unwrap().approver_user_id, 7);
    }

    #[test]
    fn a_draft_is_editable_and_approval_records_who_and_when() {
        let mut version = PlanVersion::first_draft(PlanContent::default(), 1_000);
        assert_eq!(version.status(), PlanStatus::Draft);
        version.edit(plan()).unwrap();
        version.approve(&assessor(), 2_000).unwrap();
        assert_eq!(version.status(), PlanStatus::Approved);
        assert_eq!(
            version.approval,
            Some(Approval {
                approver_user_id: 7,
                approver_name: "Ada Assessor".into(),
                approved_at_ms: 2_000
            })
        );
        assert_eq!(version.in_force_since_ms(), Some(2_000));
    }

    #[test]
    fn an_approved_version_is_frozen() {
        let mut version = approved_v1(2_000);
        assert_eq!(
            version.edit(PlanContent::default()),
            Err(LifecycleError::Frozen { version: 1 })
        );
        assert_eq!(
            version.approve(&assessor(), 3_000),
            Err(LifecycleError::AlreadyApproved { version: 1 })
        );
        assert_eq!(version.approval.unwrap().approved_at_ms, 2_000);
    }

    #[test]
    fn only_assessors_and_admins_approve() {
        for (role, allowed) in [
            (Role::Admin, true),
            (Role::Assessor, true),
            (Role::Sales, false),
            (Role::Customer, false),
        ] {
            let mut version = PlanVersion::first_draft(plan(), 0);
            let approver = Approver { role, ..assessor() };
            assert_eq!(version.approve(&approver, 1).is_ok(), allowed, "{role}");
            assert_eq!(can_approve_plans(role), allowed);
            assert_eq!(can_edit_plans(role), allowed);
        }
        let mut version = PlanVersion::first_draft(plan(), 0);
        let error = version
            .approve(
                &Approver {
                    role: Role::Customer,
                    ..assessor()
                },
                1,
            )
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "only assessors and administrators approve plans (a Customer may not)"
        );
    }

    #[test]
    fn approval_needs_valid_content_with_a_pass_mark() {
        let mut empty = PlanVersion::first_draft(PlanContent::default(), 0);
        assert_eq!(
            empty.approve(&assessor(), 1),
            Err(LifecycleError::NoPassMarks)
        );
        let mut invalid = plan();
        invalid.pass_marks[0].threshold = -1.0;
        let mut version = PlanVersion::first_draft(invalid.clone(), 0);
        assert!(matches!(
            version.approve(&assessor(), 1),
            Err(LifecycleError::Invalid(_))
        ));
        let mut draft = PlanVersion::first_draft(plan(), 0);
        assert!(matches!(
            draft.edit(invalid),
            Err(LifecycleError::Invalid(_))
        ));
    }

    #[test]
    fn an_amendment_is_a_new_draft_with_a_reason() {
        let v1 = approved_v1(2_000);
        assert_eq!(v1.amend("  ", 3_000), Err(LifecycleError::MissingReason));
        let v2 = v1
            .amend(" Customer moved the chat target to 400 ms ", 3_000)
            .unwrap();
        assert_eq!(v2.number, 2);
        assert_eq!(v2.status(), PlanStatus::Draft);
        assert_eq!(v2.content, v1.content);
        assert_eq!(
            v2.amendment_reason.as_deref(),
            Some("Customer moved the chat target to 400 ms")
        );
        assert_eq!(
            v2.amend("again", 4_000),
            Err(LifecycleError::NotApproved { version: 2 })
        );
        let versions = vec![v1.clone(), v2];
        assert_eq!(
            amend_latest(&versions, "again", 4_000),
            Err(LifecycleError::NotApproved { version: 2 })
        );
        assert_eq!(
            ensure_latest(&versions, 1),
            Err(LifecycleError::NotLatest {
                version: 1,
                latest: 2
            })
        );
        assert_eq!(amend_latest(&[], "x", 0), Err(LifecycleError::NoVersions));
    }

    #[test]
    fn the_version_in_force_follows_approval_times() {
        let v1 = approved_v1(2_000);
        let mut v2 = v1.amend("tighter TTFT", 3_000).unwrap();
        v2.content.pass_marks[0].threshold = 400.0;
        v2.approve(&assessor(), 5_000).unwrap();
        let draft = v2.amend("later", 6_000).unwrap();
        let versions = vec![v1, v2, draft];
        assert_eq!(in_force_at(&versions, 1_999).map(|v| v.number), None);
        assert_eq!(in_force_at(&versions, 2_000).map(|v| v.number), Some(1));
        assert_eq!(in_force_at(&versions, 4_999).map(|v| v.number), Some(1));
        assert_eq!(in_force_at(&versions, 9_000).map(|v| v.number), Some(2));
        assert_eq!(current_approved(&versions).map(|v| v.number), Some(2));
        assert_eq!(latest(&versions).map(|v| v.number), Some(3));
    }

    #[test]
    fn versions_round_trip_through_json() {
        let v1 = approved_v1(2_000);
        let json = serde_json::to_value(&v1).unwrap();
        assert_eq!(json["approval"]["approved_at_ms"], 2_000);
        assert_eq!(serde_json::from_value::<PlanVersion>(json).unwrap(), v1);
        assert_eq!(
            serde_json::to_string(&PlanStatus::Approved).unwrap(),
            "\"approved\""
        );
    }

    /// Words that give an English sentence away.
    const ENGLISH: [&str; 13] = [
        " the ",
        " is ",
        " not ",
        " and ",
        " or ",
        " a ",
        " an ",
        " it ",
        "approve",
        "draft",
        "amend",
        "pass mark",
        "plan has",
    ];

    /// One of each refusal, so a new variant without German fails here.
    pub(crate) fn every_lifecycle_error() -> Vec<LifecycleError> {
        use crate::plan::error::{PlanErrors, PlanFieldError, PlanSection};
        let too_long = PlanVersion::first_draft(plan(), 1)
            .amend("x", 2)
            .err()
            .into_iter()
            .chain(
                approved_v1(2)
                    .amend(&"x".repeat(MAX_REASON_CHARS + 1), 3)
                    .err(),
            )
            .find(|e| matches!(e, LifecycleError::BadReason(..)))
            .expect("a reason too long");
        let errors = PlanErrors {
            errors: vec![PlanFieldError::new_in(
                PlanSection::PassMark,
                Some(0),
                "threshold",
                "must be greater than zero",
                "muss größer als null sein",
            )],
        };
        let all = vec![
            LifecycleError::NotAllowedToApprove {
                role: Role::Customer,
            },
            LifecycleError::Frozen { version: 2 },
            LifecycleError::AlreadyApproved { version: 2 },
            LifecycleError::NotApproved { version: 3 },
            LifecycleError::NotLatest {
                version: 1,
                latest: 2,
            },
            LifecycleError::NoVersions,
            LifecycleError::MissingReason,
            too_long,
            LifecycleError::NoPassMarks,
            LifecycleError::OwnDraft,
            LifecycleError::Invalid(errors),
        ];
        // Exhaustive on purpose: a new variant must be added above (and worded in German).
        for error in &all {
            match error {
                LifecycleError::NotAllowedToApprove { .. }
                | LifecycleError::Frozen { .. }
                | LifecycleError::AlreadyApproved { .. }
                | LifecycleError::NotApproved { .. }
                | LifecycleError::NotLatest { .. }
                | LifecycleError::NoVersions
                | LifecycleError::MissingReason
                | LifecycleError::BadReason(..)
                | LifecycleError::NoPassMarks
                | LifecycleError::OwnDraft
                | LifecycleError::Invalid(_) => {}
            }
        }
        all
    }

    #[test]
    fn every_refusal_reads_in_german_and_english_is_the_display_text() {
        for error in every_lifecycle_error() {
            let en = error.to_string();
            let de = error.message_in(crate::locale::Lang::De);
            assert_eq!(error.message_in(crate::locale::Lang::En), en);
            assert_ne!(de, en, "not translated: {en}");
            for word in ENGLISH {
                assert!(
                    !de.to_lowercase().contains(word),
                    "{word:?} in German: {de} (English: {en})"
                );
            }
        }
        assert_eq!(
            LifecycleError::OwnDraft.message_in(crate::locale::Lang::De),
            "Sie haben diesen Entwurf geschrieben, daher gibt ihn jemand anderes aus dem \
             Bewertungsteam oder die Administration frei (Vier-Augen-Prinzip)"
        );
        let too_long = every_lifecycle_error()
            .into_iter()
            .find(|e| matches!(e, LifecycleError::BadReason(..)))
            .unwrap();
        assert_eq!(
            too_long.message_in(crate::locale::Lang::De),
            "der Grund der Änderung darf höchstens 2.000 Zeichen lang sein"
        );
    }
}
