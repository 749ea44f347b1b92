//! Quality evidence of a pilot: the evaluation set, runs of a model over it (one per serving
//! precision), and lm-evaluation-harness results.
//!
//! * `eval_set` evidence keeps the parsed [`EvalSet`] as its summary; `eval_run` evidence keeps
//!   the parsed [`EvalRun`] with its serving configuration and the id of the set it was read
//!   against ([`StoredEvalRun`]); `lm_eval_results` keeps [`LmEvalResults`].
//! * Scores are computed when shown ([`engine::quality::score_run`]), so an improved engine
//!   improves every stored run. Retrieval hit rate@k uses the plan's `hit_k` when the plan in
//!   force has one, else the run's own depth (the most passages retrieved for one question).
//! * The comparison of two runs (default: the latest two) is
//!   [`engine::quality::compare_runs`]: paired difference, McNemar's exact test, flips.
//! * **Set versions** ([`EvalSetVersion`], table `eval_set_versions`): versioned like the plan.
//!   An uploaded set file becomes the open draft (a new version after the latest, or replacing
//!   the draft already open); staff edit the draft row by row on `/pilots/{id}/quality/set` and
//!   approve it, after which it is frozen (the database refuses changes); a change is a new
//!   draft version starting from the latest. **A run is read against the latest approved
//!   version; when none is approved yet, against the open draft, which is approved (frozen) by
//!   that first run**, so every run refers to an exact, unchangeable version (its number is
//!   stored with the run). Customers see approved versions only.
//! * The **precision decision** ([`engine::quality::decide_precision`], exposed as
//!   [`ssr::precision_decision`]): the runs of the current set version graded against the
//!   quality marks of the plan in force; only passing precisions are sizing candidates; the
//!   decided one is the cheapest in memory among them.

use crate::error::AppError;
use crate::model::EvidenceFile;
use engine::quality::{EvalRun, EvalSet, LmEvalResults, RunComparison, RunScores};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

pub use engine::quality::PrecisionDecision;

/// The evidence kind of an evaluation set.
pub const EVAL_SET: &str = "eval_set";
/// The evidence kind of one run of a model over the evaluation set.
pub const EVAL_RUN: &str = "eval_run";
/// The evidence kind of an lm-evaluation-harness result file.
pub const LM_EVAL_RESULTS: &str = "lm_eval_results";

/// The summary of `eval_run` evidence: the run and the set evidence it was read against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredEvalRun {
    /// The uploaded set file the run's set version came from (0 when it was edited on the page).
    pub set_evidence_id: i64,
    /// The set version the run was read against (`None` for runs stored before versions).
    #[serde(default)]
    pub set_version: Option<u32>,
    #[serde(flatten)]
    pub run: EvalRun,
}

/// One version of a pilot's evaluation set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSetVersion {
    pub pilot_id: i64,
    /// 1, 2, … per pilot.
    pub number: u32,
    /// Approved versions are frozen.
    pub approved: bool,
    pub set: EvalSet,
    /// Saves of the draft; edits name the revision they started from.
    pub revision: i64,
    /// Where the items came from: `upload of set.csv (evidence #3)`, `edited on the page`.
    pub source: String,
    pub evidence_id: Option<i64>,
    pub created_by_name: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub approved_by_name: Option<String>,
    pub approved_ms: Option<i64>,
}

/// The evaluation set the page shows: the version runs are read against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetView {
    /// `None` for a set stored before versions existed.
    pub version: Option<u32>,
    pub approved: bool,
    /// The uploaded file the version came from, if any.
    pub evidence: Option<EvidenceFile>,
    pub source: String,
    pub questions: usize,
}

/// One run with its scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    pub evidence: EvidenceFile,
    pub set_evidence_id: i64,
    /// The set version the run was read against.
    pub set_version: Option<u32>,
    pub model: String,
    pub weights_precision: String,
    pub kv_precision: String,
    pub engine: String,
    pub engine_version: String,
    pub gpu: String,
    /// k of retrieval hit rate@k used for this run.
    pub k: usize,
    pub scores: RunScores,
}

impl RunView {
    /// `#12 FP8 (KV fp8)`.
    pub fn label(&self) -> String {
        format!(
            "#{} {} (KV {})",
            self.evidence.id, self.weights_precision, self.kv_precision
        )
    }
}

/// Two runs of the same set compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonView {
    pub a: i64,
    pub a_label: String,
    pub b: i64,
    pub b_label: String,
    /// Whether both runs were read against the same set version.
    pub same_set: bool,
    pub comparison: RunComparison,
}

/// One question of the drill-down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    pub id: String,
    pub question: String,
    pub accepted_answer: String,
    pub accepted_passages: Vec<String>,
    /// `None` when the run has no row for the question.
    pub answer: Option<String>,
    pub retrieved: Vec<String>,
    /// The grade: `correct` as 1/0, or the score (0–1).
    pub value: Option<f64>,
    pub right: Option<bool>,
    /// Whether an accepted passage is in the first k retrieved (`None`: nothing to score).
    pub hit: Option<bool>,
    pub truncated: bool,
}

/// lm-evaluation-harness results of one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LmEvalView {
    pub evidence: EvidenceFile,
    pub results: LmEvalResults,
}

/// Everything the quality page and the REST API show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityReport {
    /// The latest evaluation set.
    pub set: Option<SetView>,
    /// Score at or above which a graded answer counts as right (for right/wrong statistics).
    pub pass_score: f64,
    /// Where k comes from: the plan or the runs.
    pub k_source: String,
    /// Newest first.
    pub runs: Vec<RunView>,
    pub comparison: Option<ComparisonView>,
    /// The run of the drill-down (the comparison's second run, else the newest).
    pub drill_down_run: Option<i64>,
    pub items: Vec<ItemRow>,
    pub lm_eval: Vec<LmEvalView>,
    /// Which precisions pass the plan's quality marks and which one is decided.
    pub decision: PrecisionDecision,
    /// An open draft version of the set (staff only).
    pub draft_version: Option<u32>,
    /// May upload and edit the set (staff).
    pub can_edit: bool,
}

/// What the set page shows: the versions the viewer may see and which one is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSetPage {
    pub pilot: crate::model::Pilot,
    /// Oldest first; customers see approved versions only.
    pub versions: Vec<EvalSetVersion>,
    /// The version shown (the one asked for, else the open draft for staff, else the latest).
    pub shown: Option<u32>,
    /// The version runs are read against now.
    pub runs_against: Option<u32>,
    pub can_edit: bool,
}

impl EvalSetPage {
    pub fn version(&self, number: u32) -> Option<&EvalSetVersion> {
        self.versions.iter().find(|v| v.number == number)
    }
}

/// The pilot's quality evidence, scored; `a` and `b` choose the runs compared (evidence ids,
/// empty = the latest two, the older as `a`).
#[server(endpoint = "quality_overview")]
pub async fn quality_overview(
    pilot_id: i64,
    a: String,
    b: String,
) -> Result<QualityReport, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            let a = ssr::parse_run_choice("a", &a)?;
            let b = ssr::parse_run_choice("b", &b)?;
            let mut report = ssr::overview(&services, pilot_id, a, b).await?;
            report.can_edit = user.role.can_edit_pilots();
            if !user.role.is_staff() {
                report.draft_version = None;
                if report
                    .set
                    .as_ref()
                    .is_some_and(|s| !s.approved && s.version.is_some())
                {
                    report.set = None;
                }
            }
            Ok(report)
        }
        .await,
    )
}

/// The precision decision of the pilot (for the pilot page's sizing link).
#[server(endpoint = "quality_decision")]
pub async fn quality_decision(pilot_id: i64) -> Result<PrecisionDecision, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            ssr::precision_decision(&services, pilot_id).await
        }
        .await,
    )
}

/// The evaluation set's versions as the viewer may see them; `version` picks the one shown
/// (empty: the open draft for staff, else the latest).
#[server(endpoint = "get_eval_set")]
pub async fn get_eval_set(pilot_id: i64, version: String) -> Result<EvalSetPage, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let mut versions = services.store.eval_set_versions(pilot_id).await?;
            if !user.role.is_staff() {
                versions.retain(|v| v.approved);
            }
            let asked = match version.trim() {
                "" => None,
                text => Some(text.parse::<u32>().map_err(|_| {
                    AppError::invalid(format!("version: `{text}` is not a version number"))
                })?),
            };
            let shown = match asked {
                Some(n) if versions.iter().any(|v| v.number == n) => Some(n),
                Some(_) => return Err(AppError::NotFound),
                None => versions
                    .iter()
                    .rev()
                    .find(|v| !v.approved)
                    .or(versions.last())
                    .map(|v| v.number),
            };
            let runs_against = ssr::run_set_version(&versions);
            Ok(EvalSetPage {
                pilot,
                versions,
                shown,
                runs_against,
                can_edit: user.role.can_edit_pilots(),
            })
        }
        .await,
    )
}

/// Opens a new draft version of the evaluation set, starting from the latest version (an empty
/// set when there is none). Staff only.
#[server(endpoint = "new_eval_set_version")]
pub async fn new_eval_set_version(pilot_id: i64) -> Result<u32, AppError> {
    crate::server::respond(
        async move {
            let (user, services) = ssr::set_editor(pilot_id).await?;
            let versions = services.store.eval_set_versions(pilot_id).await?;
            if let Some(draft) = versions.iter().find(|v| !v.approved) {
                return Err(AppError::Conflict(format!(
                    "Version {} is already an open draft: edit it, or approve it first.",
                    draft.number
                )));
            }
            let latest = versions.last();
            let number = latest.map_or(1, |v| v.number + 1);
            let set = latest.map(|v| v.set.clone()).unwrap_or_default();
            let source = latest
                .map(|v| format!("started from version {}", v.number))
                .unwrap_or_else(|| "started on the page".into());
            services
                .store
                .insert_eval_set_version(pilot_id, number, &set, &source, None, Some(user.id))
                .await?;
            Ok(number)
        }
        .await,
    )
}

/// Saves one row of draft `version` (at `revision`): `index` is the 0-based row, empty to add a
/// row. Errors name the row and the field.
#[server(endpoint = "save_eval_item")]
#[allow(clippy::too_many_arguments)]
pub async fn save_eval_item(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: String,
    item_id: String,
    question: String,
    accepted_answer: String,
    accepted_passages: String,
) -> Result<(), AppError> {
    crate::server::respond(
        ssr::edit_set_draft(pilot_id, version, revision, |set| {
            let index = ssr::row_index(&index, set.items.len(), true)?;
            let form = engine::quality::EvalItemForm {
                id: item_id,
                question,
                accepted_answer,
                accepted_passages,
            };
            set.with_item(index, &form).map_err(AppError::Invalid)
        })
        .await,
    )
}

/// Removes row `index` (0-based) of draft `version` (at `revision`).
#[server(endpoint = "remove_eval_item")]
pub async fn remove_eval_item(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: String,
) -> Result<(), AppError> {
    crate::server::respond(
        ssr::edit_set_draft(pilot_id, version, revision, |set| {
            let index = ssr::row_index(&index, set.items.len(), false)?
                .ok_or_else(|| AppError::invalid("index: name the row to remove"))?;
            let mut set = set.clone();
            set.items.remove(index);
            Ok(set)
        })
        .await,
    )
}

/// Approves draft `version` (at `revision`): from then on it is frozen and runs are read
/// against it.
#[server(endpoint = "approve_eval_set")]
pub async fn approve_eval_set(pilot_id: i64, version: u32, revision: i64) -> Result<(), AppError> {
    crate::server::respond(
        async move {
            let (user, services) = ssr::set_editor(pilot_id).await?;
            let versions = services.store.eval_set_versions(pilot_id).await?;
            let record = versions
                .iter()
                .find(|v| v.number == version)
                .ok_or(AppError::NotFound)?;
            if record.approved {
                return Err(ssr::frozen(version));
            }
            if record.set.items.is_empty() {
                return Err(AppError::invalid(
                    "items: an evaluation set needs at least one question before approval",
                ));
            }
            ssr::draft_write(
                services
                    .store
                    .approve_eval_set_version(pilot_id, version, Some(revision), user.id)
                    .await?,
                version,
            )?;
            leptos_axum::redirect(&format!("/pilots/{pilot_id}/quality/set?version={version}"));
            Ok(())
        }
        .await,
    )
}

/// Server-side quality evidence, shared by the upload route, the REST API and the demo.
#[cfg(feature = "ssr")]
pub mod ssr {
    use super::*;
    use crate::model::Pilot;
    use crate::server::Services;
    use engine::plan::PassMark;
    use engine::quality::{
        DEFAULT_PASS_SCORE, DecisionInput, QualityError, compare_runs, decide_precision,
        grade_quality, hit_at_k, parse_run_csv, parse_run_jsonl, parse_set_csv, parse_set_jsonl,
        score_run,
    };
    use engine::verdict::MarkGrade;

    fn internal(error: impl std::fmt::Display) -> AppError {
        tracing::error!(%error, "quality evidence failed");
        AppError::Internal
    }

    fn invalid(error: QualityError) -> AppError {
        AppError::invalid(error.to_string())
    }

    /// Whether a file is JSON Lines rather than CSV: by its extension, else by its first
    /// character.
    fn is_jsonl(file_name: &str, text: &str) -> bool {
        let lower = file_name.to_ascii_lowercase();
        if lower.ends_with(".csv") {
            return false;
        }
        if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") || lower.ends_with(".json") {
            return true;
        }
        text.trim_start().starts_with('{')
    }

    /// Reads an evaluation set (CSV or JSON Lines).
    pub fn parse_set(file_name: &str, text: &str) -> Result<EvalSet, AppError> {
        if is_jsonl(file_name, text) {
            parse_set_jsonl(file_name, text)
        } else {
            parse_set_csv(file_name, text)
        }
        .map_err(invalid)
    }

    /// Reads a run's rows (CSV or JSON Lines) against `set`; the configuration is left empty.
    pub fn parse_run(file_name: &str, text: &str, set: &EvalSet) -> Result<EvalRun, AppError> {
        if is_jsonl(file_name, text) {
            parse_run_jsonl(file_name, text, set)
        } else {
            parse_run_csv(file_name, text, set)
        }
        .map_err(invalid)
    }

    /// Reads an lm-evaluation-harness result file.
    pub fn parse_lm_eval(file_name: &str, text: &str) -> Result<LmEvalResults, AppError> {
        engine::quality::parse_lm_eval_results(file_name, text).map_err(invalid)
    }

    /// Whether a JSON text looks like an lm-evaluation-harness result file: an object with
    /// `results` and `config` or `versions`.
    pub fn looks_like_lm_eval(text: &str) -> bool {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(map)) => {
                map.get("results").is_some_and(|r| r.is_object())
                    && (map.contains_key("config") || map.contains_key("versions"))
            }
            _ => false,
        }
    }

    /// A run's serving configuration from the upload's form fields; blank fields are taken
    /// from the pilot (`kv_precision`: `auto`); `weights_precision` is required.
    pub fn run_config(
        field: impl Fn(&str) -> String,
        pilot: &Pilot,
        mut run: EvalRun,
    ) -> Result<EvalRun, AppError> {
        let pick = |name: &str, default: &str| {
            let value = field(name).trim().to_string();
            if value.is_empty() {
                default.trim().to_string()
            } else {
                value
            }
        };
        run.weights_precision = pick("weights_precision", "");
        if run.weights_precision.is_empty() {
            return Err(AppError::invalid(
                "weights_precision: say which precision the run served in (BF16, FP16, FP8, AWQ-INT4, …)",
            ));
        }
        run.model = pick("model", &pilot.model);
        if run.model.is_empty() {
            return Err(AppError::invalid("model: name the model the run used"));
        }
        run.kv_precision = pick("kv_precision", "auto");
        run.engine = pick("engine", &pilot.engine);
        run.engine_version = pick("engine_version", &pilot.engine_version);
        run.gpu = pick("gpu", &pilot.gpu_type);
        Ok(run)
    }

    /// The set a run uploaded now is read against (see [`run_set_version`]).
    #[derive(Clone, Debug)]
    pub struct RunSet {
        /// `None`: a set stored before versions existed.
        pub version: Option<u32>,
        pub approved: bool,
        pub evidence_id: Option<i64>,
        pub set: EvalSet,
    }

    /// The version runs are read against: the latest approved one, else the open draft.
    pub fn run_set_version(versions: &[EvalSetVersion]) -> Option<u32> {
        versions
            .iter()
            .filter(|v| v.approved)
            .map(|v| v.number)
            .max()
            .or_else(|| versions.iter().find(|v| !v.approved).map(|v| v.number))
    }

    /// The set a run uploaded now is read against: the latest approved version, else the open
    /// draft (which the run's upload then approves), else a set file stored before versions.
    pub async fn set_for_runs(
        services: &Services,
        pilot_id: i64,
    ) -> Result<Option<RunSet>, AppError> {
        let versions = services.store.eval_set_versions(pilot_id).await?;
        if let Some(number) = run_set_version(&versions) {
            let v = versions
                .into_iter()
                .find(|v| v.number == number)
                .ok_or(AppError::Internal)?;
            return Ok(Some(RunSet {
                version: Some(v.number),
                approved: v.approved,
                evidence_id: v.evidence_id,
                set: v.set,
            }));
        }
        Ok(latest_set(services, pilot_id)
            .await?
            .map(|(file, set)| RunSet {
                version: None,
                approved: true,
                evidence_id: Some(file.id),
                set,
            }))
    }

    /// The pilot's latest uploaded set file (sets stored before versions).
    pub async fn latest_set(
        services: &Services,
        pilot_id: i64,
    ) -> Result<Option<(EvidenceFile, EvalSet)>, AppError> {
        let Some((file, summary)) = services
            .store
            .list_evidence(pilot_id, Some(EVAL_SET))
            .await?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let set = serde_json::from_str(&summary).map_err(internal)?;
        Ok(Some((file, set)))
    }

    /// The stored form of a run read against `set`.
    pub fn stored_run(set: Option<&RunSet>, run: EvalRun) -> StoredEvalRun {
        StoredEvalRun {
            set_evidence_id: set.and_then(|s| s.evidence_id).unwrap_or(0),
            set_version: set.and_then(|s| s.version),
            run,
        }
    }

    /// What an uploaded quality file does besides being evidence: a set file becomes the open
    /// draft version (a new version, or replacing the open draft); a run read against a draft
    /// approves (freezes) it. Returns a note for the uploader.
    #[allow(clippy::too_many_arguments)]
    pub async fn after_upload(
        services: &Services,
        pilot_id: i64,
        kind: &str,
        evidence_id: i64,
        file_name: &str,
        summary_json: &str,
        run_set: Option<&RunSet>,
        user_id: i64,
    ) -> Result<Option<String>, AppError> {
        match kind {
            EVAL_SET => {
                let set: EvalSet = serde_json::from_str(summary_json).map_err(internal)?;
                let number =
                    record_set_upload(services, pilot_id, evidence_id, file_name, &set, user_id)
                        .await?;
                Ok(Some(format!(
                    "stored as draft version {number} of the evaluation set: runs are read against it once it is approved, or right away if no version is approved yet"
                )))
            }
            EVAL_RUN => {
                let Some(RunSet {
                    version: Some(number),
                    approved,
                    ..
                }) = run_set
                else {
                    return Ok(None);
                };
                if !approved {
                    services
                        .store
                        .approve_eval_set_version(pilot_id, *number, None, user_id)
                        .await?;
                    return Ok(Some(format!(
                        "read against evaluation set version {number}, which is now approved and frozen"
                    )));
                }
                Ok(Some(format!(
                    "read against evaluation set version {number}"
                )))
            }
            _ => Ok(None),
        }
    }

    /// Makes an uploaded set the open draft: replaces the open draft's items, or starts the next
    /// version. Returns the version number.
    pub async fn record_set_upload(
        services: &Services,
        pilot_id: i64,
        evidence_id: i64,
        file_name: &str,
        set: &EvalSet,
        user_id: i64,
    ) -> Result<u32, AppError> {
        use crate::server::store::plans::DraftWrite;
        let source = format!("upload of {file_name} (evidence #{evidence_id})");
        let versions = services.store.eval_set_versions(pilot_id).await?;
        if let Some(draft) = versions.iter().find(|v| !v.approved) {
            match services
                .store
                .update_eval_set_draft(
                    pilot_id,
                    draft.number,
                    None,
                    set,
                    &source,
                    Some(evidence_id),
                )
                .await?
            {
                DraftWrite::Done(_) => return Ok(draft.number),
                _ => {
                    return Err(AppError::Conflict(
                        "the evaluation set changed meanwhile; upload again".into(),
                    ));
                }
            }
        }
        let number = versions.last().map_or(1, |v| v.number + 1);
        services
            .store
            .insert_eval_set_version(
                pilot_id,
                number,
                set,
                &source,
                Some(evidence_id),
                Some(user_id),
            )
            .await?;
        Ok(number)
    }

    /// The signed-in user and the services, if the user may edit the pilot's evaluation set
    /// (staff who may edit the pilot; customers get 404).
    pub async fn set_editor(
        pilot_id: i64,
    ) -> Result<(crate::model::SessionUser, Services), AppError> {
        use crate::server::auth::{Need, editable_pilot, require};
        let user = require(Need::Editor)?;
        let services = crate::server::services()?;
        editable_pilot(&services.store, &user, pilot_id).await?;
        Ok((user, services))
    }

    pub fn frozen(version: u32) -> AppError {
        AppError::Conflict(format!(
            "Version {version} of the evaluation set is approved and frozen: start a new version to change it."
        ))
    }

    pub fn draft_write(
        result: crate::server::store::plans::DraftWrite,
        version: u32,
    ) -> Result<(), AppError> {
        use crate::server::store::plans::DraftWrite;
        match result {
            DraftWrite::Done(_) => Ok(()),
            DraftWrite::Frozen => Err(frozen(version)),
            DraftWrite::Stale => Err(AppError::Conflict(
                "The draft was saved by someone else since this page was loaded; reload the page and make the change again.".into(),
            )),
            DraftWrite::Missing => Err(AppError::NotFound),
        }
    }

    /// `""` → `None` (append, when `allow_new`); a number → that 0-based row, if it exists.
    pub fn row_index(text: &str, len: usize, allow_new: bool) -> Result<Option<usize>, AppError> {
        match text.trim() {
            "" | "new" if allow_new => Ok(None),
            text => match text.parse::<usize>() {
                Ok(i) if i < len => Ok(Some(i)),
                _ => Err(AppError::invalid(format!(
                    "index: there is no row {text}; reload the page"
                ))),
            },
        }
    }

    /// Changes draft `version` at `revision` through `change`.
    pub async fn edit_set_draft(
        pilot_id: i64,
        version: u32,
        revision: i64,
        change: impl FnOnce(&EvalSet) -> Result<EvalSet, AppError>,
    ) -> Result<(), AppError> {
        let (_, services) = set_editor(pilot_id).await?;
        let versions = services.store.eval_set_versions(pilot_id).await?;
        let record = versions
            .iter()
            .find(|v| v.number == version)
            .ok_or(AppError::NotFound)?;
        if record.approved {
            return Err(frozen(version));
        }
        if record.revision != revision {
            return draft_write(crate::server::store::plans::DraftWrite::Stale, version);
        }
        let set = change(&record.set)?;
        let source = if record.source.ends_with("edited on the page") {
            record.source.clone()
        } else if record.source.is_empty() {
            "edited on the page".to_string()
        } else {
            format!("{}, edited on the page", record.source)
        };
        draft_write(
            services
                .store
                .update_eval_set_draft(
                    pilot_id,
                    version,
                    Some(revision),
                    &set,
                    &source,
                    record.evidence_id,
                )
                .await?,
            version,
        )
    }

    /// Parses an empty or numeric run choice.
    pub fn parse_run_choice(field: &str, text: &str) -> Result<Option<i64>, AppError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        text.parse()
            .map(Some)
            .map_err(|_| AppError::invalid(format!("{field}: `{text}` is not an evidence number")))
    }

    /// The pilot's quality evidence, scored.
    pub async fn overview(
        services: &Services,
        pilot_id: i64,
        a: Option<i64>,
        b: Option<i64>,
    ) -> Result<QualityReport, AppError> {
        let sets: Vec<(EvidenceFile, EvalSet)> = services
            .store
            .list_evidence(pilot_id, Some(EVAL_SET))
            .await?
            .into_iter()
            .map(|(file, summary)| Ok((file, serde_json::from_str(&summary).map_err(internal)?)))
            .collect::<Result<_, AppError>>()?;
        let stored: Vec<(EvidenceFile, StoredEvalRun)> = services
            .store
            .list_evidence(pilot_id, Some(EVAL_RUN))
            .await?
            .into_iter()
            .map(|(file, summary)| Ok((file, serde_json::from_str(&summary).map_err(internal)?)))
            .collect::<Result<_, AppError>>()?;
        let lm_eval = services
            .store
            .list_evidence(pilot_id, Some(LM_EVAL_RESULTS))
            .await?
            .into_iter()
            .map(|(evidence, summary)| {
                Ok(LmEvalView {
                    evidence,
                    results: serde_json::from_str(&summary).map_err(internal)?,
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        let plan = services.store.plan_in_force(pilot_id).await?;
        let plan_k = plan
            .as_ref()
            .and_then(|plan| plan.content.quality.hit_k)
            .filter(|k| *k > 0)
            .map(|k| k as usize);
        let marks = plan.map(|plan| plan.content.pass_marks).unwrap_or_default();
        let versions = services.store.eval_set_versions(pilot_id).await?;
        let current = run_set_version(&versions);
        let version_set = |n: u32| versions.iter().find(|v| v.number == n).map(|v| &v.set);
        let set_of = |run: &StoredEvalRun| {
            run.set_version
                .and_then(version_set)
                .or_else(|| {
                    sets.iter()
                        .find(|(file, _)| file.id == run.set_evidence_id)
                        .map(|(_, set)| set)
                })
                .or_else(|| current.and_then(version_set))
                .or(sets.first().map(|(_, set)| set))
        };
        let empty = EvalSet::default();
        let pass_score = DEFAULT_PASS_SCORE;
        let runs: Vec<RunView> = stored
            .iter()
            .map(|(file, s)| {
                let set = set_of(s).unwrap_or(&empty);
                let k = plan_k.unwrap_or_else(|| run_depth(&s.run));
                RunView {
                    evidence: file.clone(),
                    set_evidence_id: s.set_evidence_id,
                    set_version: s.set_version,
                    model: s.run.model.clone(),
                    weights_precision: s.run.weights_precision.clone(),
                    kv_precision: s.run.kv_precision.clone(),
                    engine: s.run.engine.clone(),
                    engine_version: s.run.engine_version.clone(),
                    gpu: s.run.gpu.clone(),
                    k,
                    scores: score_run(set, &s.run, k, pass_score),
                }
            })
            .collect();
        let find = |field: &str, id: i64| {
            stored
                .iter()
                .position(|(file, _)| file.id == id)
                .ok_or_else(|| {
                    AppError::invalid(format!("{field}: no evaluation run #{id} on this pilot"))
                })
        };
        let chosen = match (a, b) {
            (Some(a), Some(b)) => Some((find("a", a)?, find("b", b)?)),
            (Some(a), None) => {
                let a = find("a", a)?;
                (0..stored.len()).find(|i| *i != a).map(|b| (a, b))
            }
            (None, Some(b)) => {
                let b = find("b", b)?;
                (0..stored.len()).find(|i| *i != b).map(|a| (a, b))
            }
            (None, None) if stored.len() >= 2 => Some((1, 0)),
            (None, None) => None,
        };
        let comparison = chosen.map(|(ia, ib)| {
            let (ra, rb) = (&stored[ia], &stored[ib]);
            ComparisonView {
                a: ra.0.id,
                a_label: runs[ia].label(),
                b: rb.0.id,
                b_label: runs[ib].label(),
                same_set: ra.1.set_version == rb.1.set_version
                    && (ra.1.set_version.is_some() || ra.1.set_evidence_id == rb.1.set_evidence_id),
                comparison: compare_runs(&ra.1.run, &rb.1.run, pass_score),
            }
        });
        let drill = chosen
            .map(|(_, ib)| ib)
            .or((!stored.is_empty()).then_some(0));
        let items = drill
            .map(|i| {
                let (_, s) = &stored[i];
                let set = set_of(s).unwrap_or(&empty);
                item_rows(set, &s.run, runs[i].k, pass_score)
            })
            .unwrap_or_default();
        let set = match current.and_then(|n| versions.iter().find(|v| v.number == n)) {
            Some(v) => Some(SetView {
                version: Some(v.number),
                approved: v.approved,
                evidence: sets
                    .iter()
                    .find(|(file, _)| Some(file.id) == v.evidence_id)
                    .map(|(file, _)| file.clone()),
                source: v.source.clone(),
                questions: v.set.items.len(),
            }),
            None => sets.first().map(|(evidence, set)| SetView {
                version: None,
                approved: true,
                evidence: Some(evidence.clone()),
                source: format!("upload of {}", evidence.file_name),
                questions: set.items.len(),
            }),
        };
        // Runs of another model than the pilot's are shown, never graded.
        let identity = match services.store.pilot(pilot_id).await? {
            Some(pilot) => crate::api::traffic::ssr::identity(&pilot),
            None => Default::default(),
        };
        let decision_runs: Vec<DecisionInput> = runs
            .iter()
            .filter(|r| current.is_none() || r.set_version == current)
            .map(|r| DecisionInput {
                id: r.evidence.id,
                model: r.model.clone(),
                precision: r.weights_precision.clone(),
                kv_precision: r.kv_precision.clone(),
                scores: r.scores.clone(),
                not_comparable: crate::api::verdict::ssr::eval_run_check(&identity, r)
                    .not_comparable,
            })
            .collect();
        let decision = decide_precision(&decision_runs, &marks);
        Ok(QualityReport {
            set,
            decision,
            draft_version: versions.iter().find(|v| !v.approved).map(|v| v.number),
            can_edit: false,
            pass_score,
            k_source: if plan_k.is_some() {
                "the plan's hit_k".into()
            } else {
                "the run's depth: the most passages retrieved for one question".into()
            },
            runs,
            comparison,
            drill_down_run: drill.map(|i| stored[i].0.id),
            items,
            lm_eval,
        })
    }

    /// The most passages the run retrieved for one question (at least 1).
    fn run_depth(run: &EvalRun) -> usize {
        run.items
            .iter()
            .map(|item| item.retrieved.len())
            .max()
            .unwrap_or(0)
            .max(1)
    }

    /// The drill-down rows of a run, in the set's order.
    pub fn item_rows(set: &EvalSet, run: &EvalRun, k: usize, pass_score: f64) -> Vec<ItemRow> {
        set.items
            .iter()
            .map(|item| {
                let row = run.get(&item.id);
                ItemRow {
                    id: item.id.clone(),
                    question: item.question.clone(),
                    accepted_answer: item.accepted_answer.clone(),
                    accepted_passages: item.accepted_passages.clone(),
                    answer: row.map(|r| r.answer.clone()),
                    retrieved: row.map(|r| r.retrieved.clone()).unwrap_or_default(),
                    value: row.and_then(|r| r.value()),
                    right: row.and_then(|r| r.is_right(pass_score)),
                    hit: row.and_then(|r| {
                        (!item.accepted_passages.is_empty())
                            .then(|| hit_at_k(&item.accepted_passages, &r.retrieved, k))
                    }),
                    truncated: row.is_some_and(|r| r.truncated()),
                }
            })
            .collect()
    }

    /// The quality marks of `marks` (answer score, retrieval hit rate, truncation rate) graded
    /// against a run; empty when there are none.
    pub fn grade_run(marks: &[PassMark], run: &RunView) -> Vec<(PassMark, MarkGrade)> {
        grade_quality(marks, &run.scores)
    }

    /// The pilot's precision decision: the runs of the set version runs are read against,
    /// graded against the quality marks of the plan in force (see
    /// [`engine::quality::decide_precision`] for the rule).
    pub async fn precision_decision(
        services: &Services,
        pilot_id: i64,
    ) -> Result<PrecisionDecision, AppError> {
        Ok(overview(services, pilot_id, None, None).await?.decision)
    }

    /// Parses and stores an evaluation set as evidence (the demo; uploads go through the REST
    /// route).
    pub async fn store_set(
        services: &Services,
        pilot_id: i64,
        file_name: &str,
        text: &str,
        uploaded_by: i64,
    ) -> Result<i64, AppError> {
        let set = parse_set(file_name, text)?;
        let summary = serde_json::to_string(&set).map_err(internal)?;
        let id = crate::server::evidence::keep_bytes(
            services,
            pilot_id,
            EVAL_SET,
            file_name,
            text.as_bytes(),
            &summary,
            uploaded_by,
        )
        .await?;
        after_upload(
            services,
            pilot_id,
            EVAL_SET,
            id,
            file_name,
            &summary,
            None,
            uploaded_by,
        )
        .await?;
        Ok(id)
    }

    /// Parses a run against the set runs are read against and stores it as evidence.
    pub async fn store_run(
        services: &Services,
        pilot_id: i64,
        file_name: &str,
        text: &str,
        config: EvalRun,
        uploaded_by: i64,
    ) -> Result<i64, AppError> {
        let run_set = set_for_runs(services, pilot_id)
            .await?
            .ok_or_else(|| AppError::invalid(NO_SET))?;
        let parsed = parse_run(file_name, text, &run_set.set)?;
        let stored = stored_run(
            Some(&run_set),
            EvalRun {
                items: parsed.items,
                ..config
            },
        );
        let summary = serde_json::to_string(&stored).map_err(internal)?;
        let id = crate::server::evidence::keep_bytes(
            services,
            pilot_id,
            EVAL_RUN,
            file_name,
            text.as_bytes(),
            &summary,
            uploaded_by,
        )
        .await?;
        after_upload(
            services,
            pilot_id,
            EVAL_RUN,
            id,
            file_name,
            &summary,
            Some(&run_set),
            uploaded_by,
        )
        .await?;
        Ok(id)
    }

    /// The refusal of a run on a pilot without an evaluation set.
    pub const NO_SET: &str = "eval_run: this pilot has no evaluation set yet; upload it first (kind=eval_set), then its runs";

    const DEMO_SET: &str = include_str!("quality_demo/set.csv");
    const DEMO_FP16: &str = include_str!("quality_demo/run-fp16.csv");
    const DEMO_AWQ: &str = include_str!("quality_demo/run-awq-int4.csv");

    /// The demo pilot's evaluation set and two runs (FP16 and AWQ-INT4), written for the demo.
    pub async fn seed_demo_quality(
        services: &Services,
        pilot_id: i64,
        admin_id: i64,
    ) -> Result<(), AppError> {
        store_set(
            services,
            pilot_id,
            "support-eval-set.csv",
            DEMO_SET,
            admin_id,
        )
        .await?;
        let config = |precision: &str, kv: &str| EvalRun {
            model: "RedHatAI/Qwen2.5-7B-Instruct".into(),
            weights_precision: precision.into(),
            kv_precision: kv.into(),
            engine: "vLLM".into(),
            engine_version: "0.8.5".into(),
            gpu: "Tesla V100-SXM2-16GB".into(),
            items: Vec::new(),
        };
        store_run(
            services,
            pilot_id,
            "support-eval-run-fp16.csv",
            DEMO_FP16,
            config("FP16", "auto"),
            admin_id,
        )
        .await?;
        store_run(
            services,
            pilot_id,
            "support-eval-run-awq-int4.csv",
            DEMO_AWQ,
            config("AWQ-INT4", "auto"),
            admin_id,
        )
        .await?;
        Ok(())
    }
}
