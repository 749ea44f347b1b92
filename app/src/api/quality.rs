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
#[cfg(feature = "ssr")]
use crate::server::auth::{Need, require};
#[cfg(feature = "ssr")]
use desk::ServiceError;

#[cfg(feature = "ssr")]
pub use desk::quality::service as ssr;
pub use desk::quality::*;
use leptos::prelude::*;

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
            Ok(ssr::precision_decision(&services, pilot_id).await?)
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
                    AppError::invalid_in(
                        format!("version: `{text}` is not a version number"),
                        format!("version: `{text}` ist keine Versionsnummer"),
                    )
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
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            ssr::set_editor(&services, &user, pilot_id).await?;
            let versions = services.store.eval_set_versions(pilot_id).await?;
            if let Some(draft) = versions.iter().find(|v| !v.approved) {
                return Err(AppError::conflict_in(
                    format!(
                        "Version {} is already an open draft: edit it, or approve it first.",
                        draft.number
                    ),
                    format!(
                        "Version {} ist bereits ein offener Entwurf: Bearbeiten Sie ihn oder \
                         geben Sie ihn zuerst frei.",
                        draft.number
                    ),
                ));
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

/// The fields of one evaluation-set row, as the row form posts them.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvalItemFields {
    pub item_id: String,
    pub question: String,
    pub accepted_answer: String,
    pub accepted_passages: String,
}

/// Saves one row of draft `version` (at `revision`): `index` is the 0-based row, empty to add a
/// row. Errors name the row and the field.
#[server(endpoint = "save_eval_item")]
pub async fn save_eval_item(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: String,
    #[server(flatten)] item: EvalItemFields,
) -> Result<(), AppError> {
    let EvalItemFields {
        item_id,
        question,
        accepted_answer,
        accepted_passages,
    } = item;
    crate::server::respond(
        async move {
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            let draft = (pilot_id, version, revision);
            Ok(ssr::edit_set_draft(&services, &user, draft, |set| {
                let index = ssr::row_index(&index, set.items.len(), true)?;
                let form = engine::quality::EvalItemForm {
                    id: item_id,
                    question,
                    accepted_answer,
                    accepted_passages,
                };
                set.with_item(index, &form)
                    .map_err(desk::quality::service::row_refused)
            })
            .await?)
        }
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
        async move {
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            let draft = (pilot_id, version, revision);
            Ok(ssr::edit_set_draft(&services, &user, draft, |set| {
                let index = ssr::row_index(&index, set.items.len(), false)?.ok_or_else(|| {
                    ServiceError::invalid_in(
                        "index: name the row to remove",
                        "index: Nennen Sie die Zeile, die entfernt werden soll",
                    )
                })?;
                let mut set = set.clone();
                set.items.remove(index);
                Ok(set)
            })
            .await?)
        }
        .await,
    )
}

/// Approves draft `version` (at `revision`): from then on it is frozen and runs are read
/// against it.
#[server(endpoint = "approve_eval_set")]
pub async fn approve_eval_set(pilot_id: i64, version: u32, revision: i64) -> Result<(), AppError> {
    crate::server::respond(
        async move {
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            ssr::set_editor(&services, &user, pilot_id).await?;
            let versions = services.store.eval_set_versions(pilot_id).await?;
            let record = versions
                .iter()
                .find(|v| v.number == version)
                .ok_or(AppError::NotFound)?;
            if record.approved {
                return Err(ssr::frozen(version).into());
            }
            if record.set.items.is_empty() {
                return Err(AppError::invalid_in(
                    "items: an evaluation set needs at least one question before approval",
                    "items: Ein Evaluationsdatensatz braucht vor der Freigabe mindestens eine Frage",
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
