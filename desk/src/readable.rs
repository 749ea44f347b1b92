//! Evidence rows that still read: no stored row can break a page.
//!
//! Every evidence row keeps its importer's summary as JSON, and every service reads it back
//! into its type. Importers refuse impossible numbers, but a row written by an older release
//! (a sum that overflowed to `null`, a field renamed since) could still fail to read, and one
//! such row used to turn every page of its pilot into a 500, for the customer too. So the
//! services take their rows through [`in_force`], which leaves a row that does not read out
//! (logged as a warning), and the pilot's pages name such files through [`unreadable`] with
//! the remedy: withdraw the file and upload it again. A row whose kind this release does not
//! know (written by another release) is left out the same way, by the store.

use crate::ServiceError;
use crate::model::{EvidenceFile, EvidenceKind, StartupLogSummary};
use crate::store::Store;
use serde::de::DeserializeOwned;

/// Whether `summary` reads as the summary type of evidence `kind`; the error says why not.
pub fn reads(kind: EvidenceKind, summary: &str) -> Result<(), String> {
    fn check<T: DeserializeOwned>(summary: &str) -> Result<(), String> {
        serde_json::from_str::<T>(summary)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    match kind {
        EvidenceKind::LoadTest => check::<crate::load_tests::LoadTestSummary>(summary),
        EvidenceKind::VllmStartupLog => check::<StartupLogSummary>(summary),
        EvidenceKind::GatewayLog => check::<crate::traffic::GatewayLogSummary>(summary),
        EvidenceKind::MetricsScrape => check::<crate::traffic::MetricsScrapeSummary>(summary),
        EvidenceKind::EvalSet => check::<engine::quality::EvalSet>(summary),
        EvidenceKind::EvalRun => check::<crate::quality::StoredEvalRun>(summary),
        EvidenceKind::LmEvalResults => check::<engine::quality::LmEvalResults>(summary),
    }
}

/// The pilot's evidence in force of `kind` (every kind when `None`) whose summaries read,
/// newest first, as [`Store::list_evidence`] answers it; a row that does not read is left out
/// with a warning in the log.
pub async fn in_force(
    store: &Store,
    pilot_id: i64,
    kind: Option<EvidenceKind>,
) -> Result<Vec<(EvidenceFile, String)>, ServiceError> {
    let mut rows = store.list_evidence(pilot_id, kind).await?;
    rows.retain(|(file, summary)| match reads(file.kind, summary) {
        Ok(()) => true,
        Err(why) => {
            tracing::warn!(pilot_id, evidence_id = file.id, %why, "evidence row does not read; left out");
            false
        }
    });
    Ok(rows)
}

/// A file in force that grades nothing because its row does not read.
#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    pub id: i64,
    pub file_name: String,
    /// Why it does not read.
    pub why: String,
}

/// The pilot's files in force whose stored summaries do not read, or whose kind this release
/// does not know (each with why): they grade nothing, and the pages say so.
pub async fn unreadable(store: &Store, pilot_id: i64) -> Result<Vec<Unreadable>, ServiceError> {
    let mut out: Vec<Unreadable> = store
        .list_evidence(pilot_id, None)
        .await?
        .into_iter()
        .filter_map(|(file, summary)| {
            reads(file.kind, &summary).err().map(|why| Unreadable {
                id: file.id,
                file_name: file.file_name,
                why,
            })
        })
        .collect();
    out.extend(
        store
            .evidence_of_unknown_kind(pilot_id)
            .await?
            .into_iter()
            .map(|row| Unreadable {
                id: row.id,
                file_name: row.file_name,
                why: format!("unknown evidence kind `{}`", row.kind),
            }),
    );
    Ok(out)
}

/// The warning a page shows for unreadable files, or `None`.
pub fn warning(files: &[Unreadable]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let names: Vec<String> = files
        .iter()
        .map(|f| format!("#{} {}", f.id, f.file_name))
        .collect();
    Some(format!(
        "{} evidence file(s) could not be read and are left out of every figure: {}. Withdraw each and upload it again (the importers now check every number).",
        files.len(),
        names.join(", ")
    ))
}

/// The pilot's stored combined demand profile, or `None` (with a warning in the log) when it
/// does not read: the pages then show no profile rather than an error.
pub fn profile(pilot_id: i64, json: &str) -> Option<engine::demand::DemandProfile> {
    serde_json::from_str(json)
        .inspect_err(|e| tracing::warn!(pilot_id, error = %e, "stored demand profile does not read; left out"))
        .ok()
}

/// The pilot as its pages show it to `user`: whether they may change it (an editor's role on
/// a pilot that is not archived) and the warnings about its evidence.
pub async fn pilot_view(
    store: &Store,
    user: &crate::model::SessionUser,
    pilot: crate::model::Pilot,
) -> Result<crate::model::PilotView, ServiceError> {
    let warnings = warning(&unreadable(store, pilot.id).await?)
        .into_iter()
        .collect();
    Ok(crate::model::PilotView {
        can_edit: user.role.can_edit_pilots() && pilot.archived_ms.is_none(),
        can_administer: user.role.can_manage_accounts(),
        pilot,
        warnings,
    })
}
