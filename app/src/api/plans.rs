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
//! scenario by number and the field: `pass mark 2, threshold: must be greater than zero`, or for
//! a German reader (the page's language) `Zielwert 2, Grenze: muss größer als null sein`.

use crate::error::AppError;

#[cfg(feature = "ssr")]
use crate::model::Pilot;
pub use desk::plans::*;
#[cfg(feature = "ssr")]
use engine::plan::{PlanContent, PlanVersion};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
mod editing {
    use super::*;
    use crate::model::SessionUser;
    use crate::server::store::Store;
    use crate::server::store::plans::DraftWrite;
    use engine::locale::Lang;
    use engine::plan::{LifecycleError, PlanErrors, PlanForm};

    /// `pass mark` / `scenario` as the plan editor names them in German.
    fn item_de(what: &str) -> &str {
        match what {
            "pass mark" => "Zielwert",
            "scenario" => "Szenario",
            other => other,
        }
    }

    /// The signed-in user and the pilot, if the user may edit its plan: customers get 404 (as
    /// for anything they may not change), sales engineers 403.
    pub async fn plan_editor(pilot_id: i64) -> Result<(SessionUser, Store, Pilot), AppError> {
        use crate::server::auth::{Need, require};
        let user = require(Need::SignedIn)?;
        let store = crate::server::services()?.store;
        let pilot = desk::plans::service::plan_editor(&store, &user, pilot_id).await?;
        Ok((user, store, pilot))
    }

    /// Every error of a plan, each naming its item and field: English as the engine's
    /// `Display` writes it (the wire's `error`), German as the plan editor labels them.
    pub fn plan_errors(errors: &PlanErrors) -> AppError {
        AppError::invalid_in(errors.joined_in(Lang::En), errors.joined_in(Lang::De))
    }

    /// A life-cycle refusal with the status it deserves, in English and German
    /// ([`LifecycleError::message_in`]).
    pub fn lifecycle(error: LifecycleError) -> AppError {
        let (en, de) = (error.message_in(Lang::En), error.message_in(Lang::De));
        match error {
            LifecycleError::Invalid(errors) => plan_errors(&errors),
            LifecycleError::NotAllowedToApprove { .. } => AppError::Forbidden,
            LifecycleError::MissingReason | LifecycleError::BadReason(..) => {
                AppError::invalid_in(format!("reason: {en}"), format!("Grund: {de}"))
            }
            LifecycleError::NoPassMarks => {
                AppError::invalid_in(format!("pass marks: {en}"), format!("Zielwerte: {de}"))
            }
            _ => AppError::conflict_in(en, de),
        }
    }

    pub fn stale() -> AppError {
        AppError::conflict_in(
            "The draft was saved by someone else since this page was loaded; reload the page \
             and make the change again.",
            "Der Entwurf wurde seit dem Laden dieser Seite von jemand anderem gespeichert; laden \
             Sie die Seite neu und nehmen Sie die Änderung noch einmal vor.",
        )
    }

    pub fn frozen(version: u32) -> AppError {
        lifecycle(LifecycleError::Frozen { version })
    }

    fn draft_write(result: DraftWrite, version: u32) -> Result<(), AppError> {
        match result {
            DraftWrite::Done(_) => Ok(()),
            DraftWrite::Frozen => Err(frozen(version)),
            DraftWrite::Stale => Err(stale()),
            DraftWrite::Missing => Err(AppError::NotFound),
        }
    }

    /// Changes draft `version` of pilot `pilot_id`'s plan through its form: `change` edits the
    /// form of the current content, the engine parses and validates the result, and the store
    /// writes it if the draft is still at `revision`.
    pub async fn edit_draft<T>(
        pilot_id: i64,
        version: u32,
        revision: i64,
        change: impl FnOnce(&mut PlanForm, &PlanContent) -> Result<T, AppError>,
    ) -> Result<T, AppError> {
        let (_, store, _) = plan_editor(pilot_id).await?;
        let versions = store.plan_versions(pilot_id).await?;
        let record = versions
            .iter()
            .find(|v| v.number == version)
            .ok_or(AppError::NotFound)?;
        if !record.is_draft() {
            return Err(frozen(version));
        }
        if record.revision != revision {
            return Err(stale());
        }
        let mut form = PlanForm::from(&record.content);
        let outcome = change(&mut form, &record.content)?;
        let content = PlanContent::parse(&form).map_err(|e| plan_errors(&e))?;
        let mut draft = record.to_engine();
        draft.edit(content).map_err(lifecycle)?;
        draft_write(
            store
                .update_plan_draft(pilot_id, version, revision, &draft.content)
                .await?,
            version,
        )?;
        Ok(outcome)
    }

    /// `""`/`new` → `None` (append); a number → that 0-based position, if it exists.
    pub fn position(index: &str, len: usize, what: &str) -> Result<Option<usize>, AppError> {
        match index.trim() {
            "" | "new" => Ok(None),
            text => match text.parse::<usize>() {
                Ok(i) if i < len => Ok(Some(i)),
                _ => Err(AppError::invalid_in(
                    format!("index: there is no {what} {text}; reload the page"),
                    format!(
                        "index: {} {text} gibt es nicht; laden Sie die Seite neu",
                        item_de(what)
                    ),
                )),
            },
        }
    }

    pub fn existing(index: usize, len: usize, what: &str) -> Result<usize, AppError> {
        if index < len {
            Ok(index)
        } else {
            Err(AppError::invalid_in(
                format!("index: there is no {what} {}; reload the page", index + 1),
                format!(
                    "index: {} {} gibt es nicht; laden Sie die Seite neu",
                    item_de(what),
                    index + 1
                ),
            ))
        }
    }

    /// Template `id` in the language of the person asking: a plan started (or marks added) in
    /// German gets German rationales.
    pub fn template(id: &str) -> Result<engine::plan::templates::Template, AppError> {
        engine::plan::templates::by_id(id)
            .map(|template| template.in_lang(crate::components::lang()))
            .ok_or_else(|| {
                AppError::invalid_in(
                    format!("template: no template `{}`", id.trim()),
                    format!("template: keine Vorlage `{}`", id.trim()),
                )
            })
    }
}

/// The plan of pilot `pilot_id` as the signed-in user may see it, with every pass mark of the
/// plan in force graded against the evidence recorded so far.
#[server(endpoint = "get_plan")]
pub async fn get_plan(pilot_id: i64) -> Result<PlanView, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let evidence = desk::pilot_evidence::gather(&services, pilot_id).await?;
            let figures = evidence.figures();
            Ok(plan_view(
                user.role,
                pilot,
                evidence.records,
                &figures,
                None,
                crate::components::lang(),
            )
            .for_viewer(user.id, user.role))
        }
        .await,
    )
}

/// Starts pilot `pilot_id`'s plan: version 1, a draft, from template `template` (empty: an empty
/// plan). The pilot's serving engine, version and GPU fill the plan's serving section.
#[server(endpoint = "create_plan")]
pub async fn create_plan(pilot_id: i64, template: String) -> Result<u32, AppError> {
    use crate::server::store::now_ms;
    crate::server::respond(
        async move {
            let (user, store, pilot) = editing::plan_editor(pilot_id).await?;
            if !store.plan_versions(pilot_id).await?.is_empty() {
                return Err(AppError::conflict_in(
                    "This pilot already has a plan: edit its draft or amend it.",
                    "Dieser Pilot hat bereits einen Plan: Bearbeiten Sie seinen Entwurf oder \
                     legen Sie eine Änderung an.",
                ));
            }
            let mut content = match template.trim() {
                "" | "empty" => PlanContent::default(),
                id => editing::template(id)?.content(),
            };
            let serving = &mut content.serving;
            for (field, value) in [
                (&mut serving.engine, &pilot.engine),
                (&mut serving.engine_version, &pilot.engine_version),
                (&mut serving.gpu, &pilot.gpu_type),
            ] {
                if field.trim().is_empty() {
                    *field = value.trim().to_string();
                }
            }
            let first = PlanVersion::first_draft(content, now_ms());
            first
                .content
                .validate()
                .map_err(|e| editing::plan_errors(&e))?;
            store
                .insert_plan_version(pilot_id, &first, Some(user.id))
                .await?;
            Ok(first.number)
        }
        .await,
    )
}

/// Approves draft `version` (assessors and administrators): records who and when; from then on
/// the version is frozen and in force. Opens the plan page.
#[server(endpoint = "approve_plan")]
pub async fn approve_plan(pilot_id: i64, version: u32, revision: i64) -> Result<(), AppError> {
    use crate::server::store::now_ms;
    use crate::server::store::plans::DraftWrite;
    use engine::plan::Approver;
    crate::server::respond(
        async move {
            let (user, store, _) = editing::plan_editor(pilot_id).await?;
            let versions = store.plan_versions(pilot_id).await?;
            let record = versions
                .iter()
                .find(|v| v.number == version)
                .ok_or(AppError::NotFound)?;
            if record.revision != revision && record.is_draft() {
                return Err(editing::stale());
            }
            let mut draft = record.to_engine();
            let at = now_ms();
            draft
                .approve_drafted_by(
                    &Approver {
                        user_id: user.id,
                        name: user.display_name().to_string(),
                        role: user.role,
                    },
                    record.created_by,
                    at,
                )
                .map_err(editing::lifecycle)?;
            match store
                .approve_plan_version(pilot_id, version, revision, user.id, at)
                .await?
            {
                // The marks that grade at once under the new version do so from now.
                DraftWrite::Done(_) => {
                    if let Ok(services) = crate::server::services() {
                        services.changes.tell(pilot_id);
                    }
                }
                DraftWrite::Frozen => {
                    return Err(editing::lifecycle(
                        engine::plan::LifecycleError::AlreadyApproved { version },
                    ));
                }
                DraftWrite::Stale => return Err(editing::stale()),
                DraftWrite::Missing => return Err(AppError::NotFound),
            }
            leptos_axum::redirect(&format!("/pilots/{pilot_id}/plan"));
            Ok(())
        }
        .await,
    )
}

/// Submits draft `version` (at `revision`) for approval: the approvers' inbox lists it until it
/// is approved, and a save of the draft takes the submission back. Opens the plan page.
#[server(endpoint = "submit_plan")]
pub async fn submit_plan(pilot_id: i64, version: u32, revision: i64) -> Result<(), AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            desk::plans::service::submit(&services, &user, pilot_id, version, revision).await?;
            leptos_axum::redirect(&format!("/pilots/{pilot_id}/plan"));
            Ok(())
        }
        .await,
    )
}

/// Amends the plan: a new draft version copied from the approved latest one, with the reason
/// for the change (required). The approved versions stay as they are.
#[server(endpoint = "amend_plan")]
pub async fn amend_plan(pilot_id: i64, reason: String) -> Result<u32, AppError> {
    use crate::server::store::now_ms;
    crate::server::respond(
        async move {
            let (user, store, _) = editing::plan_editor(pilot_id).await?;
            let versions: Vec<PlanVersion> = store
                .plan_versions(pilot_id)
                .await?
                .iter()
                .map(PlanVersionRecord::to_engine)
                .collect();
            let amendment = engine::plan::version::amend_latest(&versions, &reason, now_ms())
                .map_err(editing::lifecycle)?;
            store
                .insert_plan_version(pilot_id, &amendment, Some(user.id))
                .await?;
            Ok(amendment.number)
        }
        .await,
    )
}

/// Throws away the open draft `version` (never an approved version).
#[server(endpoint = "discard_plan_draft")]
pub async fn discard_plan_draft(pilot_id: i64, version: u32) -> Result<(), AppError> {
    crate::server::respond(
        async move {
            let (_, store, _) = editing::plan_editor(pilot_id).await?;
            let versions = store.plan_versions(pilot_id).await?;
            match versions.iter().find(|v| v.number == version) {
                None => return Err(AppError::NotFound),
                Some(v) if !v.is_draft() => return Err(editing::frozen(version)),
                Some(_) => {}
            }
            if store.discard_plan_draft(pilot_id, version).await? {
                Ok(())
            } else {
                Err(editing::frozen(version))
            }
        }
        .await,
    )
}

/// Adds the marks of template `template` the draft lacks (same metric, statistic, point and
/// scope); returns how many were added.
#[server(endpoint = "apply_plan_template")]
pub async fn apply_plan_template(
    pilot_id: i64,
    version: u32,
    revision: i64,
    template: String,
) -> Result<usize, AppError> {
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, content| {
            let template = editing::template(&template)?;
            let mut merged = content.clone();
            let added = template.merge_into(&mut merged);
            *form = engine::plan::PlanForm::from(&merged);
            Ok(added)
        })
        .await,
    )
}

/// Adds a pass mark (`index` empty) or replaces mark `index` (0-based) of the draft.
#[server(endpoint = "save_pass_mark")]
pub async fn save_pass_mark(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: String,
    #[server(flatten)] mark: engine::plan::PassMarkForm,
) -> Result<(), AppError> {
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, _| {
            match editing::position(&index, form.pass_marks.len(), "pass mark")? {
                Some(i) => form.pass_marks[i] = mark,
                None => form.pass_marks.push(mark),
            }
            Ok(())
        })
        .await,
    )
}

/// Moves pass mark `index` one place `up` or `down`.
#[server(endpoint = "move_pass_mark")]
pub async fn move_pass_mark(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: usize,
    direction: String,
) -> Result<(), AppError> {
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, _| {
            let len = form.pass_marks.len();
            let from = editing::existing(index, len, "pass mark")?;
            let to = match direction.trim() {
                "up" => from.checked_sub(1),
                "down" => Some(from + 1).filter(|&to| to < len),
                other => {
                    return Err(AppError::invalid_in(
                        format!("direction: expected up or down, not `{other}`"),
                        format!("direction: erwartet up oder down, nicht `{other}`"),
                    ));
                }
            };
            if let Some(to) = to {
                form.pass_marks.swap(from, to);
            }
            Ok(())
        })
        .await,
    )
}

/// Removes pass mark `index` from the draft.
#[server(endpoint = "remove_pass_mark")]
pub async fn remove_pass_mark(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: usize,
) -> Result<(), AppError> {
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, _| {
            let index = editing::existing(index, form.pass_marks.len(), "pass mark")?;
            form.pass_marks.remove(index);
            Ok(())
        })
        .await,
    )
}

/// Adds a scenario (`index` empty) or replaces scenario `index`; pass marks scoped to a renamed
/// scenario follow the new name.
#[server(endpoint = "save_scenario")]
pub async fn save_scenario(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: String,
    #[server(flatten)] scenario: engine::plan::ScenarioForm,
) -> Result<(), AppError> {
    use engine::plan::{ScenarioForm, Scope};
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, content| {
            let scenario = ScenarioForm {
                name: scenario.name.trim().to_string(),
                ..scenario
            };
            match editing::position(&index, form.scenarios.len(), "scenario")? {
                Some(i) => {
                    let old = content.scenarios[i].name.clone();
                    if !old.trim().eq_ignore_ascii_case(scenario.name.trim()) {
                        let old_scope = Scope::Scenario(old).form_value();
                        let new_scope = Scope::Scenario(scenario.name.clone()).form_value();
                        for mark in &mut form.pass_marks {
                            if Scope::parse(&mark.scope) == Scope::parse(&old_scope) {
                                mark.scope = new_scope.clone();
                            }
                        }
                    }
                    form.scenarios[i] = scenario;
                }
                None => form.scenarios.push(scenario),
            }
            Ok(())
        })
        .await,
    )
}

/// Removes scenario `index` (refused while a pass mark is scoped to it).
#[server(endpoint = "remove_scenario")]
pub async fn remove_scenario(
    pilot_id: i64,
    version: u32,
    revision: i64,
    index: usize,
) -> Result<(), AppError> {
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, _| {
            let index = editing::existing(index, form.scenarios.len(), "scenario")?;
            form.scenarios.remove(index);
            Ok(())
        })
        .await,
    )
}

/// The plan settings form: demand assumptions, quality set and pilot serving settings, each
/// field under the name the form posts it (so a plain HTML form posts to
/// [`save_plan_settings`] before hydration).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlanSettingsForm {
    #[serde(flatten)]
    pub demand: engine::plan::DemandForm,
    #[serde(flatten)]
    pub quality: engine::plan::QualityForm,
    #[serde(flatten)]
    pub serving: engine::plan::ServingForm,
}

/// Saves the draft's demand assumptions, quality set and pilot serving settings. Empty fields
/// are "not known yet".
#[server(endpoint = "save_plan_settings")]
pub async fn save_plan_settings(
    pilot_id: i64,
    version: u32,
    revision: i64,
    #[server(flatten)] settings: PlanSettingsForm,
) -> Result<(), AppError> {
    crate::server::respond(
        editing::edit_draft(pilot_id, version, revision, |form, _| {
            form.demand = settings.demand;
            form.quality = settings.quality;
            form.serving = settings.serving;
            Ok(())
        })
        .await,
    )
}
