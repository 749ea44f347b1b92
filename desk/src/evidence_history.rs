//! Evidence that can be corrected: the register of a pilot's files, each in force or
//! withdrawn, with its history.
//!
//! Why withdraw rather than delete: a pass mark graded on a file and then quietly losing it
//! would leave the report's reader unable to tell what changed. A withdrawn file stays listed
//! (who withdrew it, when, why) for everyone who can see the pilot and in the report's evidence
//! list, but grades, sizes and reports nothing until it is restored; the corrected file is
//! uploaded beside it as new evidence. Everything computed from the pilot's evidence in force
//! (verdict, demand profile, capacity twin, recommendation, report) reads only the files in
//! force, so one withdrawal changes all of them at once: the combined demand profile, the one
//! stored aggregate, is rewritten in the same transaction as the status.

use serde::{Deserialize, Serialize};

#[cfg(feature = "server")]
pub mod service;

/// Whether a file grades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EvidenceStatus {
    InForce,
    Withdrawn,
}

impl EvidenceStatus {
    pub fn label(self) -> &'static str {
        match self {
            EvidenceStatus::InForce => "In force",
            EvidenceStatus::Withdrawn => "Withdrawn",
        }
    }
}

/// What happened to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum HistoryAction {
    Uploaded,
    Withdrawn,
    Restored,
}

impl HistoryAction {
    pub fn label(self) -> &'static str {
        match self {
            HistoryAction::Uploaded => "Uploaded",
            HistoryAction::Withdrawn => "Withdrawn",
            HistoryAction::Restored => "Restored",
        }
    }
}

/// One step of a file's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryEntry {
    pub action: HistoryAction,
    /// The account's e-mail address, `command line`, or empty when the account was deleted.
    pub by: String,
    /// Unix milliseconds.
    pub at_ms: i64,
    /// Why (withdrawals and restorations); `None` for the upload.
    pub reason: Option<String>,
}

/// One evidence file of the register.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EvidenceEntry {
    pub id: i64,
    /// `load_test`, `gateway_log`, `metrics_scrape`, `vllm_startup_log`, `eval_set`,
    /// `eval_run`, `lm_eval_results`.
    pub kind: crate::model::EvidenceKind,
    pub file_name: String,
    pub sha256: String,
    pub size_bytes: i64,
    pub status: EvidenceStatus,
    /// Oldest first; the first entry is the upload.
    pub history: Vec<HistoryEntry>,
}

impl EvidenceEntry {
    /// The last withdrawal's reason while the file is withdrawn.
    pub fn withdrawal_reason(&self) -> Option<&str> {
        if self.status != EvidenceStatus::Withdrawn {
            return None;
        }
        self.history
            .iter()
            .rev()
            .find(|h| h.action == HistoryAction::Withdrawn)
            .and_then(|h| h.reason.as_deref())
    }
}

/// A pilot's evidence register, as the evidence page and `GET /api/v1/pilots/{id}/evidence`
/// answer it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EvidenceRegister {
    pub pilot_id: i64,
    /// Oldest upload first.
    pub files: Vec<EvidenceEntry>,
    /// Whether the caller may withdraw and restore (staff who edit pilots; not on an archived
    /// pilot).
    #[serde(default)]
    pub can_change: bool,
}

/// The longest reason kept, in characters.
pub const REASON_MAX_CHARS: usize = 500;

/// A reason as given, trimmed; refused when blank or longer than [`REASON_MAX_CHARS`].
pub fn checked_reason(reason: &str) -> Result<String, crate::ServiceError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(crate::ServiceError::invalid_in(
            "reason: say why (it is kept in the file's history and shown in the report)",
            "reason: Nennen Sie den Grund (er bleibt im Verlauf der Datei und steht im Bericht)",
        ));
    }
    if reason.chars().count() > REASON_MAX_CHARS {
        return Err(crate::ServiceError::invalid_in(
            format!("reason: at most {REASON_MAX_CHARS} characters"),
            format!(
                "reason: höchstens {} Zeichen",
                engine::locale::Lang::De.number(REASON_MAX_CHARS as f64, 0)
            ),
        ));
    }
    Ok(reason.to_string())
}
