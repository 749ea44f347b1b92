//! Evidence rows that still read: no stored row can break a page.
//!
//! Every evidence row keeps its importer's summary as JSON, and every service reads it back
//! into its type. Importers refuse impossible numbers, but a row written by an older release
//! (a sum that overflowed to `null`, a field renamed since) could still fail to read, and one
//! such row used to turn every page of its pilot into a 500, for the customer too. So the
//! services take their rows through [`in_force`], which leaves a row that does not read out
//! (logged as a warning), and the pilot's pages name such files through [`unreadable`] with
//! the remedy: withdraw the file and upload it again.

use crate::ServiceError;
use crate::model::{EvidenceFile, StartupLogSummary};
use crate::store::Store;
use serde::de::DeserializeOwned;

/// Whether `summary` reads as the summary type of evidence `kind`; the error says why not.
pub fn reads(kind: &str, summary: &str) -> Result<(), String> {
    fn check<T: DeserializeOwned>(summary: &str) -> Result<(), String> {
        serde_json::from_str::<T>(summary)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    match kind {
        "load_test" => check::<crate::load_tests::LoadTestSummary>(summary),
        "vllm_startup_log" => check::<StartupLogSummary>(summary),
        crate::traffic::GATEWAY_LOG => check::<crate::traffic::GatewayLogSummary>(summary),
        crate::traffic::METRICS_SCRAPE => check::<crate::traffic::MetricsScrapeSummary>(summary),
        crate::quality::EVAL_SET => check::<engine::quality::EvalSet>(summary),
        crate::quality::EVAL_RUN => check::<crate::quality::StoredEvalRun>(summary),
        crate::quality::LM_EVAL_RESULTS => check::<engine::quality::LmEvalResults>(summary),
        _ => check::<serde_json::Value>(summary),
    }
}

/// The pilot's evidence in force of `kind` (every kind when `None`) whose summaries read,
/// newest first, as [`Store::list_evidence`] answers it; a row that does not read is left out
/// with a warning in the log.
pub async fn in_force(
    store: &Store,
    pilot_id: i64,
    kind: Option<&str>,
) -> Result<Vec<(EvidenceFile, String)>, ServiceError> {
    let mut rows = store.list_evidence(pilot_id, kind).await?;
    rows.retain(|(file, summary)| match reads(&file.kind, summary) {
        Ok(()) => true,
        Err(why) => {
            tracing::warn!(pilot_id, evidence_id = file.id, %why, "evidence row does not read; left out");
            false
        }
    });
    Ok(rows)
}

/// The pilot's files in force whose stored summaries do not read (each with why): they
/// grade nothing, and the pages say so.
pub async fn unreadable(
    store: &Store,
    pilot_id: i64,
) -> Result<Vec<(EvidenceFile, String)>, ServiceError> {
    Ok(store
        .list_evidence(pilot_id, None)
        .await?
        .into_iter()
        .filter_map(|(file, summary)| reads(&file.kind, &summary).err().map(|why| (file, why)))
        .collect())
}

/// The warning a page shows for unreadable files, or `None`.
pub fn warning(files: &[(EvidenceFile, String)]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let names: Vec<String> = files
        .iter()
        .map(|(f, _)| format!("#{} {}", f.id, f.file_name))
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
