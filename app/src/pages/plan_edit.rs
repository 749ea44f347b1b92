//! The plan editor (assessors and administrators): start a plan from a template, edit the
//! draft's pass marks (add, edit, reorder, remove), scenarios and settings, approve it, amend an
//! approved plan.
//!
//! Every form is an `ActionForm` posting to a server function, so the editor works before the
//! wasm bundle loads (each post returns to this page) and, after hydration, without reloading:
//! the plan is fetched again after each successful change. Hydration adds to the pass-mark form
//! only: choices a metric does not admit are greyed out and the mark is read back in plain words
//! as it is typed. The engine validates every save; its errors name the mark and the field and
//! appear next to the form that sent them.

use super::params::pilot_id_param;
use super::plan::{
    approved_only_notice, breadcrumbs, mark_details, plan_status_badge, plan_tabs, version_line,
};
use crate::api::plans::{
    AmendPlan, ApplyPlanTemplate, ApprovePlan, CreatePlan, DiscardPlanDraft, MovePassMark,
    PlanVersionRecord, PlanView, RemovePassMark, RemoveScenario, SavePassMark, SavePlanSettings,
    SaveScenario, SubmitPlan, get_plan,
};
use crate::components::action_forms::{self, action_error, refresh_after, returned_error};
use crate::components::{ErrorNotice, PageHeader, lang, textarea_text};
use crate::error::AppError;
use engine::locale::Lang;
use engine::plan::templates::{Provenance, all as all_templates};
use engine::plan::{
    Comparator, DemandForm, Direction, MeasurementPoint, Metric, PassMark, PassMarkForm,
    PlanSection, QualityForm, ScenarioForm, Scope, ServingForm, Statistic, TokenRange, Unit,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// What every form of the draft needs: which draft, at which revision, and how to refresh.
#[derive(Clone, Copy)]
struct Draft {
    pilot_id: i64,
    version: u32,
    revision: i64,
    refresh: RwSignal<u32>,
}

impl Draft {
    fn hidden(self) -> impl IntoView {
        view! {
            <input type="hidden" name="pilot_id" value=self.pilot_id.to_string()/>
            <input type="hidden" name="version" value=self.version.to_string()/>
            <input type="hidden" name="revision" value=self.revision.to_string()/>
        }
    }
}

/// Without JavaScript a refused form returns to this page with its error in the address; the
/// error is shown here, once, above the editor.
fn returned_errors(refresh: RwSignal<u32>) -> Option<AnyView> {
    action_forms::returned_errors(
        refresh,
        vec![
            returned_error::<CreatePlan>(),
            returned_error::<AmendPlan>(),
            returned_error::<ApprovePlan>(),
            returned_error::<SubmitPlan>(),
            returned_error::<DiscardPlanDraft>(),
            returned_error::<ApplyPlanTemplate>(),
            returned_error::<SavePassMark>(),
            returned_error::<MovePassMark>(),
            returned_error::<RemovePassMark>(),
            returned_error::<SaveScenario>(),
            returned_error::<RemoveScenario>(),
            returned_error::<SavePlanSettings>(),
        ],
    )
}

#[component]
pub fn PlanEditPage() -> impl IntoView {
    let id = pilot_id_param();
    let lang = lang();
    let refresh = RwSignal::new(0u32);
    let plan =
        crate::components::page_resource(move || (id(), refresh.get()), |(id, _)| get_plan(id));
    view! {
        <Transition fallback=move || view! { <p class="loading">{lang.pick("Loading plan…", "Plan wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                match plan.await {
                    Ok(view) if view.can_edit => {
                        // Keyed by the draft's revision: after each save the forms are built
                        // afresh (cleared, closed) instead of patched with stale typed values.
                        let key = (view.versions.len(), view.latest().map(|v| (v.number, v.revision, v.is_draft())));
                        view! {
                            <For each=move || [key] key=|key| *key children=move |_| editor(view.clone(), refresh)/>
                        }.into_any()
                    }
                    Ok(view) if view.approved_only => view! { <Title text=lang.pick("Not found", "Nicht gefunden")/><ErrorNotice error=AppError::NotFound/> }.into_any(),
                    Ok(view) => view! {
                        <Title text=lang.pick("Not allowed", "Nicht erlaubt")/>
                        {plan_tabs(&view, "edit")}
                        <ErrorNotice error=AppError::Forbidden/>
                        <p class="muted">{lang.pick(
                            "Assessors and administrators write and approve plans. ",
                            "Das Bewertungsteam und die Administration schreiben Pläne und geben sie frei. ",
                        )}
                            <a href=format!("/pilots/{}/plan", view.pilot.id)>{lang.pick("See the plan", "Plan ansehen")}</a></p>
                    }.into_any(),
                    Err(error) => view! { <Title text=lang.pick("Not found", "Nicht gefunden")/><ErrorNotice error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

fn editor(view: PlanView, refresh: RwSignal<u32>) -> AnyView {
    let pilot = view.pilot.clone();
    let lang = lang();
    let title = match lang {
        Lang::En => format!("Edit plan · {}", pilot.name),
        Lang::De => format!("Plan bearbeiten · {}", pilot.name),
    };
    let subtitle = match lang {
        Lang::En => format!("{} · for {}", pilot.name, pilot.organisation_name),
        Lang::De => format!("{} · für {}", pilot.name, pilot.organisation_name),
    };
    let top = view! {
        <Title text=title/>
        {breadcrumbs(&view, lang.pick("Edit", "Bearbeiten"))}
        <PageHeader title=lang.pick("Edit the plan", "Plan bearbeiten") subtitle/>
        {plan_tabs(&view, "edit")}
        {view.approved_only.then(approved_only_notice)}
        {returned_errors(refresh)}
    };
    let body = match (view.draft().cloned(), view.latest().cloned()) {
        (Some(draft), _) => draft_editor(&view, draft, refresh),
        (None, Some(latest)) => view! { <AmendPlanCard latest refresh/> }.into_any(),
        (None, None) => view! { <StartPlan pilot_id=pilot.id refresh/> }.into_any(),
    };
    view! { {top}{body} }.into_any()
}

// ---- starting a plan -----------------------------------------------------------------------------

#[component]
fn StartPlan(pilot_id: i64, refresh: RwSignal<u32>) -> impl IntoView {
    let create = ServerAction::<CreatePlan>::new();
    refresh_after(create, refresh);
    let lang = lang();
    let templates = all_templates()
        .into_iter()
        .map(|t| t.in_lang(lang))
        .map(|t| {
            let marks = t
                .marks
                .iter()
                .map(|m| {
                    let default = m.provenance == Provenance::PilotDeskDefault;
                    view! {
                        <li>
                            <span class="mono">{m.pass_mark.notation_in(lang)}</span>
                            {default.then(|| view! {
                                <span class="badge badge-warn" title=lang.pick(
                                    "The source gives no number; Pilot Desk's starting point, to be revisited",
                                    "Die Quelle nennt keine Zahl; Ausgangspunkt von Pilot Desk, noch zu überprüfen",
                                )>{lang.pick("Pilot Desk default", "Vorgabe von Pilot Desk")}</span>
                            })}
                        </li>
                    }
                })
                .collect_view();
            let id = t.id.clone();
            let data_id = t.id.clone();
            let start_label = match lang {
                Lang::En => format!("Start from {}", t.title),
                Lang::De => format!("Mit der Vorlage {} beginnen", t.title),
            };
            view! {
                <article class="card template-card" data-template=data_id>
                    <h3>{t.title.clone()}</h3>
                    <p class="small">{t.description.clone()}</p>
                    <ul class="template-marks">{marks}</ul>
                    <p class="template-source small"><strong>{lang.pick("Source: ", "Quelle: ")}</strong>{t.source.clone()}</p>
                    <ActionForm action=create attr:class="template-form">
                        <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                        <input type="hidden" name="template" value=id/>
                        <button type="submit" class="button button-primary" aria-label=start_label>{lang.pick("Start from this template", "Mit dieser Vorlage beginnen")}</button>
                    </ActionForm>
                </article>
            }
        })
        .collect_view();
    view! {
        <section class="card">
            <h2>{lang.pick("Start the plan", "Plan beginnen")}</h2>
            <p>{lang.pick(
                "Pick the reference targets closest to the pilot's use case; every mark stays editable until the plan is approved. Each template cites where its numbers come from; a mark marked “Pilot Desk default” has no published number behind it.",
                "Wählen Sie die Referenzziele, die dem Anwendungsfall des Piloten am nächsten kommen; jeder Zielwert bleibt bearbeitbar, bis der Plan freigegeben ist. Jede Vorlage nennt die Herkunft ihrer Zahlen; hinter einem Zielwert mit der Markierung „Vorgabe von Pilot Desk“ steht keine veröffentlichte Zahl.",
            )}</p>
            {action_error(create)}
            <ActionForm action=create attr:class="form-inline">
                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                <input type="hidden" name="template" value="empty"/>
                <button type="submit" class="button">{lang.pick("Start from an empty plan", "Mit einem leeren Plan beginnen")}</button>
            </ActionForm>
        </section>
        <div class="template-grid">{templates}</div>
    }
}

// ---- amending an approved plan ---------------------------------------------------------------------

#[component]
fn AmendPlanCard(latest: PlanVersionRecord, refresh: RwSignal<u32>) -> impl IntoView {
    let amend = ServerAction::<AmendPlan>::new();
    refresh_after(amend, refresh);
    let next = latest.number + 1;
    let lang = lang();
    let frozen = match lang {
        Lang::En => format!("Version {} is approved and frozen", latest.number),
        Lang::De => format!("Version {} ist freigegeben und eingefroren", latest.number),
    };
    let amend_label = match lang {
        Lang::En => format!("Amend: start version {next}"),
        Lang::De => format!("Ändern: Version {next} beginnen"),
    };
    let marks_heading = match lang {
        Lang::En => format!("Pass marks of version {}", latest.number),
        Lang::De => format!("Zielwerte der Version {}", latest.number),
    };
    view! {
        <section class="card form-card" id="amend">
            <div class="card-head">
                <h2>{frozen}</h2>
                {plan_status_badge(latest.status)}
            </div>
            <p class="small muted">{version_line(&latest)}</p>
            <p>{lang.pick(
                "Its pass marks cannot change any more. To change the plan, amend it: a new draft version, copied from this one, that records why it changes and needs approval again. Every version stays in the history.",
                "Ihre Zielwerte können sich nicht mehr ändern. Um den Plan zu ändern, legen Sie eine Änderung an: eine neue Entwurfsversion, aus dieser kopiert, die festhält, warum sie sich ändert, und erneut freigegeben werden muss. Jede Version bleibt im Verlauf.",
            )}</p>
            {action_error(amend)}
            <ActionForm action=amend attr:class="form">
                <input type="hidden" name="pilot_id" value=latest.pilot_id.to_string()/>
                <label for="reason">{lang.pick("Reason for the amendment", "Grund der Änderung")} <span class="req" title=lang.pick("required", "Pflichtfeld")>"*"</span></label>
                <textarea id="reason" name="reason" rows="3" required maxlength="2000"
                    placeholder=lang.pick(
                        "e.g. The customer moved the chat target from 450 ms to 400 ms p99 after the kick-off.",
                        "z. B. Der Kunde hat das Chat-Ziel nach dem Kick-off von 450 ms auf 400 ms p99 gesenkt.",
                    )></textarea>
                <div class="form-actions">
                    <button type="submit" class="button button-primary">{amend_label}</button>
                </div>
            </ActionForm>
        </section>
        <section class="card">
            <h2>{marks_heading}</h2>
            {super::plan::marks_table(&latest.content, None)}
        </section>
    }
}

// ---- the draft ---------------------------------------------------------------------------------------

fn draft_editor(view: &PlanView, draft: PlanVersionRecord, refresh: RwSignal<u32>) -> AnyView {
    let ctx = Draft {
        pilot_id: draft.pilot_id,
        version: draft.number,
        revision: draft.revision,
        refresh,
    };
    let content = draft.content.clone();
    let warnings = content.warnings();
    let scenario_names: Vec<String> = content.scenarios.iter().map(|s| s.name.clone()).collect();
    let marks = content
        .pass_marks
        .iter()
        .enumerate()
        .map(|(index, mark)| {
            let count = content.pass_marks.len();
            let mark = mark.clone();
            let names = scenario_names.clone();
            view! { <MarkItem ctx index count mark scenarios=names/> }
        })
        .collect_view();
    let lang = lang();
    let mark_warnings = warnings
        .iter()
        .filter(|w| w.section == PlanSection::PassMark)
        .map(|w| w.text_in(lang))
        .collect::<Vec<_>>();
    let other_warnings = warnings
        .iter()
        .filter(|w| w.section != PlanSection::PassMark)
        .map(|w| w.text_in(lang))
        .collect::<Vec<_>>();
    let empty = content.pass_marks.is_empty();
    let reason = draft.amendment_reason.clone();
    let stage = draft.approval_stage_in(lang);
    let heading = match lang {
        Lang::En => format!("Draft version {}", draft.number),
        Lang::De => format!("Entwurf Version {}", draft.number),
    };
    let started = match lang {
        Lang::En => format!(
            "Started by {} on {} · last saved {}",
            draft.created_by_name,
            lang.date_time(draft.created_ms),
            lang.date_time(draft.updated_ms)
        ),
        Lang::De => format!(
            "Begonnen von {} am {} · zuletzt gespeichert {}",
            draft.created_by_name,
            lang.date_time(draft.created_ms),
            lang.date_time(draft.updated_ms)
        ),
    };
    view! {
        <section class="card draft-head" id="draft">
            <div class="card-head">
                <div>
                    <h2>{heading}</h2>
                    <p class="small muted">{started}</p>
                </div>
                {plan_status_badge(draft.status)}
            </div>
            {reason.map(|r| view! { <p class="amendment-reason"><strong>{lang.pick("Reason for this amendment: ", "Grund dieser Änderung: ")}</strong>{r}</p> })}
            {view.in_force.map(|n| view! {
                <p class="small">{match lang {
                    Lang::En => format!("Version {n} stays in force until this draft is approved."),
                    Lang::De => format!("Version {n} bleibt in Kraft, bis dieser Entwurf freigegeben ist."),
                }}</p>
            })}
            <ApproveDraft ctx
                approve=approve_offer(view)
                submit=view.may_submit()
                stage/>
        </section>

        <section class="card" id="pass-marks">
            <div class="card-head">
                <h2>{lang.pick("Pass marks", "Zielwerte")}</h2>
                <span class="small muted">{lang.pick(
                    "Each mark names one figure exactly: metric, statistic, where it is measured, its definition and scope.",
                    "Jeder Zielwert benennt genau eine Zahl: Metrik, Statistik, Messpunkt, Definition und Geltungsbereich.",
                )}</span>
            </div>
            {(!mark_warnings.is_empty()).then(|| view! { <Warnings items=mark_warnings/> })}
            <ol class="plan-marks">{marks}</ol>
            <details class="add-mark" open=empty>
                <summary class="button">{lang.pick("Add a pass mark", "Zielwert hinzufügen")}</summary>
                <MarkForm ctx index=None initial=new_mark_form() scenarios=scenario_names.clone()/>
            </details>
            <TemplateMerge ctx/>
        </section>

        <section class="card" id="scenarios">
            <h2>{lang.pick("Scenarios", "Szenarien")}</h2>
            <p class="small muted">{lang.pick(
                "Kinds of traffic by prompt and answer length; a pass mark can be scoped to one.",
                "Arten von Verkehr nach Prompt- und Antwortlänge; ein Zielwert kann auf eines davon beschränkt werden.",
            )}</p>
            <ScenarioList ctx scenarios=content.scenarios.clone()/>
        </section>

        <section class="card" id="settings">
            <h2>{lang.pick("Demand, quality set and pilot serving", "Lastannahmen, Qualitätsdatensatz und Pilot-Serving")}</h2>
            {(!other_warnings.is_empty()).then(|| view! { <Warnings items=other_warnings/> })}
            <SettingsForm ctx
                demand=DemandForm::from(&content.demand)
                quality=QualityForm::from(&content.quality)
                serving=ServingForm::from(&content.serving)/>
        </section>
    }
    .into_any()
}

#[component]
fn Warnings(items: Vec<String>) -> impl IntoView {
    let lang = lang();
    view! {
        <div class="notice notice-warn plan-warnings">
            <strong>{lang.pick(
                "Worth a second look (does not block saving or approval)",
                "Einen zweiten Blick wert (verhindert weder Speichern noch Freigabe)",
            )}</strong>
            <ul>{items.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
        </div>
    }
}

/// Which Approve button the viewer is offered on the open draft.
#[derive(Clone, Copy)]
enum ApproveOffer {
    /// Someone else's draft.
    Approve,
    /// An administrator's own draft: the override of the four-eyes rule, labelled as such.
    Override,
}

impl ApproveOffer {
    /// The button's words for `version`.
    fn label(self, version: u32, lang: Lang) -> String {
        match (self, lang) {
            (ApproveOffer::Approve, Lang::En) => format!("Approve version {version}"),
            (ApproveOffer::Approve, Lang::De) => format!("Version {version} freigeben"),
            (ApproveOffer::Override, Lang::En) => {
                format!("Approve my own draft (administrator's override) · version {version}")
            }
            (ApproveOffer::Override, Lang::De) => format!(
                "Eigenen Entwurf freigeben (Ausnahme der Administration) · Version {version}"
            ),
        }
    }
}

/// The Approve button the viewer is offered on the open draft: none on their own draft (four
/// eyes), except an administrator's override, labelled as such.
fn approve_offer(view: &PlanView) -> Option<ApproveOffer> {
    if view.may_approve_draft() {
        Some(ApproveOffer::Approve)
    } else if view.draft_is_own() && view.viewer_is_admin {
        Some(ApproveOffer::Override)
    } else {
        None
    }
}

#[component]
fn ApproveDraft(
    ctx: Draft,
    approve: Option<ApproveOffer>,
    submit: bool,
    stage: String,
) -> impl IntoView {
    let approve_action = ServerAction::<ApprovePlan>::new();
    let submit_action = ServerAction::<SubmitPlan>::new();
    let discard = ServerAction::<DiscardPlanDraft>::new();
    refresh_after(approve_action, ctx.refresh);
    refresh_after(submit_action, ctx.refresh);
    refresh_after(discard, ctx.refresh);
    let lang = lang();
    let discard_label = if ctx.version == 1 {
        lang.pick("Discard draft", "Entwurf verwerfen")
    } else {
        lang.pick("Discard amendment", "Änderung verwerfen")
    };
    let submit_label = match lang {
        Lang::En => format!("Submit version {} for approval", ctx.version),
        Lang::De => format!("Version {} zur Freigabe einreichen", ctx.version),
    };
    view! {
        {action_error(approve_action)}
        {action_error(submit_action)}
        {action_error(discard)}
        <p class="approval-stage small"><strong>{lang.pick("Approval: ", "Freigabe: ")}</strong>{stage}</p>
        <div class="approve-row">
            {submit.then(|| view! {
                <ActionForm action=submit_action>
                    {ctx.hidden()}
                    <button type="submit" class="button button-primary">{submit_label}</button>
                </ActionForm>
            })}
            {approve.map(|offer| view! {
                <ActionForm action=approve_action>
                    {ctx.hidden()}
                    <button type="submit" class="button button-primary">{offer.label(ctx.version, lang)}</button>
                </ActionForm>
            })}
            <p class="small muted grow">{lang.pick(
                "Submitting puts the draft in the approvers' inbox; approving records who and when, puts the version in force and freezes its pass marks: later changes need an amendment with a reason.",
                "Das Einreichen legt den Entwurf den Freigebenden vor; die Freigabe hält fest, wer wann freigegeben hat, setzt die Version in Kraft und friert ihre Zielwerte ein: Spätere Anpassungen brauchen eine Änderung mit Grund.",
            )}</p>
            <ActionForm action=discard>
                <input type="hidden" name="pilot_id" value=ctx.pilot_id.to_string()/>
                <input type="hidden" name="version" value=ctx.version.to_string()/>
                <button type="submit" class="button button-quiet button-small">{discard_label}</button>
            </ActionForm>
        </div>
    }
}

#[component]
fn TemplateMerge(ctx: Draft) -> impl IntoView {
    let apply = ServerAction::<ApplyPlanTemplate>::new();
    refresh_after(apply, ctx.refresh);
    let lang = lang();
    view! {
        <details class="merge-template">
            <summary class="button button-quiet">{lang.pick("Add marks from a template", "Zielwerte aus einer Vorlage hinzufügen")}</summary>
            {action_error(apply)}
            <ActionForm action=apply attr:class="form form-inline">
                {ctx.hidden()}
                <label for="merge-template">{lang.pick("Template", "Vorlage")}</label>
                <div class="inline-row">
                    <select id="merge-template" name="template">
                        {all_templates().into_iter().map(|t| t.in_lang(lang)).map(|t| view! { <option value=t.id.clone()>{t.title.clone()}</option> }).collect_view()}
                    </select>
                    <button type="submit" class="button">{lang.pick("Add its missing marks", "Fehlende Zielwerte hinzufügen")}</button>
                </div>
                <p class="hint">{lang.pick(
                    "Marks the plan already has (same metric, statistic, point and scope) stay as they are.",
                    "Zielwerte, die der Plan schon hat (gleiche Metrik, Statistik, gleicher Messpunkt und Geltungsbereich), bleiben, wie sie sind.",
                )}</p>
            </ActionForm>
        </details>
    }
}

// ---- one pass mark -------------------------------------------------------------------------------

#[component]
fn MarkItem(
    ctx: Draft,
    index: usize,
    count: usize,
    mark: PassMark,
    scenarios: Vec<String>,
) -> impl IntoView {
    let move_mark = ServerAction::<MovePassMark>::new();
    let remove = ServerAction::<RemovePassMark>::new();
    refresh_after(move_mark, ctx.refresh);
    refresh_after(remove, ctx.refresh);
    let number = index + 1;
    let lang = lang();
    let arrow = move |direction: &'static str, label: &'static str, disabled: bool| {
        let aria = match (lang, direction) {
            (Lang::En, _) => format!("Move mark {number} {direction}"),
            (Lang::De, "up") => format!("Zielwert {number} nach oben verschieben"),
            (Lang::De, _) => format!("Zielwert {number} nach unten verschieben"),
        };
        view! {
            <ActionForm action=move_mark>
                {ctx.hidden()}
                <input type="hidden" name="index" value=index.to_string()/>
                <input type="hidden" name="direction" value=direction/>
                <button type="submit" class="button button-small button-quiet" disabled=disabled
                    aria-label=aria>{label}</button>
            </ActionForm>
        }
    };
    view! {
        <li class="plan-mark" data-mark=number>
            <div class="plan-mark-head">
                <span class="mark-number" aria-hidden="true">{number}</span>
                <div class="grow">
                    <p class="mark-sentence">{format!("{}.", mark.sentence_in(lang))}</p>
                    <p class="mono small mark-notation">{mark.notation_in(lang)}</p>
                </div>
                <div class="row-actions">
                    {arrow("up", "↑", index == 0)}
                    {arrow("down", "↓", index + 1 == count)}
                    <ActionForm action=remove>
                        {ctx.hidden()}
                        <input type="hidden" name="index" value=index.to_string()/>
                        <button type="submit" class="button button-small button-quiet"
                            aria-label=match lang {
                                Lang::En => format!("Remove mark {number}"),
                                Lang::De => format!("Zielwert {number} entfernen"),
                            }>{lang.pick("Remove", "Entfernen")}</button>
                    </ActionForm>
                </div>
            </div>
            {mark_details(&mark)}
            {action_error(move_mark)}
            {action_error(remove)}
            <details class="edit-mark">
                <summary>{match lang {
                    Lang::En => format!("Edit mark {number}"),
                    Lang::De => format!("Zielwert {number} bearbeiten"),
                }}</summary>
                <MarkForm ctx index=Some(index) initial=PassMarkForm::from(&mark) scenarios/>
            </details>
        </li>
    }
}

fn new_mark_form() -> PassMarkForm {
    PassMarkForm {
        metric: "ttft".into(),
        statistic: "p95".into(),
        comparator: "le".into(),
        unit: "ms".into(),
        point: "gateway".into(),
        scope: "all_traffic".into(),
        ..PassMarkForm::default()
    }
}

/// The metric a form value names (`None` for a custom metric or nothing chosen).
fn built_in(metric: &str) -> Option<Metric> {
    Metric::parse_built_in(metric)
}

/// A select whose options are `(value, label, allowed)`; after hydration the options the
/// metric does not admit are disabled and the selection follows the signal.
#[component]
fn Choice(
    id: String,
    name: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    options: Vec<(String, String)>,
    #[prop(into)] allowed: Signal<Vec<String>>,
) -> impl IntoView {
    let initial = value.get_untracked();
    view! {
        <div>
            <label for=id.clone()>{label}</label>
            <select id=id name=name prop:value=move || value.get()
                on:change=move |ev| value.set(event_target_value(&ev))>
                {options.into_iter().map(|(option, text)| {
                    let selected = option == initial;
                    let this = option.clone();
                    view! {
                        <option value=option selected=selected
                            disabled=move || !allowed.get().is_empty() && !allowed.get().contains(&this)>{text}</option>
                    }
                }).collect_view()}
            </select>
        </div>
    }
}

#[component]
fn MarkForm(
    ctx: Draft,
    index: Option<usize>,
    initial: PassMarkForm,
    scenarios: Vec<String>,
) -> impl IntoView {
    let save = ServerAction::<SavePassMark>::new();
    refresh_after(save, ctx.refresh);
    let prefix = index
        .map(|i| format!("mark-{i}"))
        .unwrap_or_else(|| "mark-new".into());
    let field = move |name: &str| format!("{prefix}-{name}");
    let lang = lang();
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let metric = RwSignal::new(initial.metric.clone());
    let custom_name = RwSignal::new(initial.custom_name.clone());
    let statistic = RwSignal::new(initial.statistic.clone());
    let comparator = RwSignal::new(initial.comparator.clone());
    let threshold = RwSignal::new(initial.threshold.clone());
    let unit = RwSignal::new(initial.unit.clone());
    let point = RwSignal::new(initial.point.clone());
    let definition = RwSignal::new(initial.definition.clone());
    let scope = RwSignal::new(initial.scope.clone());
    let rationale = RwSignal::new(initial.rationale.clone());

    // A new metric picks the first statistic, unit, point and direction it admits when the
    // current ones do not fit.
    Effect::watch(
        move || metric.get(),
        move |metric_value, _, _| {
            let Some(m) = built_in(metric_value) else {
                return;
            };
            let stats = m.allowed_statistics();
            if !stats
                .iter()
                .any(|s| s.as_str() == statistic.get_untracked())
            {
                let preferred = if stats.contains(&Statistic::P95) {
                    Statistic::P95
                } else {
                    stats[0]
                };
                statistic.set(preferred.as_str().into());
            }
            let units = m.allowed_units();
            if !units.iter().any(|u| u.as_str() == unit.get_untracked()) {
                unit.set(units[0].as_str().into());
            }
            let points = m.allowed_points();
            if !points.iter().any(|p| p.as_str() == point.get_untracked()) {
                point.set(points[0].as_str().into());
            }
            let upper = Comparator::parse(&comparator.get_untracked()).map(|c| c.is_upper_limit());
            match (m.direction(), upper) {
                (Direction::LowerIsBetter, Some(false) | None) => comparator.set("le".into()),
                (Direction::HigherIsBetter, Some(true) | None) => comparator.set("ge".into()),
                _ => {}
            }
        },
        false,
    );

    let allowed = move |list: fn(&Metric) -> Vec<String>| {
        Signal::derive(move || {
            if !hydrated.get() {
                return Vec::new();
            }
            built_in(&metric.get())
                .map(|m| list(&m))
                .unwrap_or_default()
        })
    };
    let metric_options: Vec<(String, String)> = Metric::BUILT_IN
        .iter()
        .map(|m| (m.as_str().to_string(), m.label()))
        .chain([(
            "custom".to_string(),
            lang.pick("Custom metric…", "Eigene Metrik…").to_string(),
        )])
        .collect();
    let statistic_options = Statistic::ALL
        .iter()
        .map(|s| (s.as_str().to_string(), s.label().to_string()))
        .collect::<Vec<_>>();
    let comparator_options = Comparator::ALL
        .iter()
        .map(|c| {
            (
                c.as_str().to_string(),
                format!("{} ({})", c.symbol(), c.words()),
            )
        })
        .collect::<Vec<_>>();
    let unit_options = Unit::ALL
        .iter()
        .map(|u| (u.as_str().to_string(), u.symbol().to_string()))
        .collect::<Vec<_>>();
    let point_options = MeasurementPoint::ALL
        .iter()
        .map(|p| (p.as_str().to_string(), p.label().to_string()))
        .collect::<Vec<_>>();
    let scope_options = [
        (
            "all_traffic".to_string(),
            lang.pick("All traffic", "Alle Anfragen").to_string(),
        ),
        (
            "planned_peak".to_string(),
            lang.pick(
                "Load test at the planned peak",
                "Lasttest bei der geplanten Spitzen-Parallelität",
            )
            .to_string(),
        ),
    ]
    .into_iter()
    .chain(scenarios.iter().map(|name| {
        (
            Scope::Scenario(name.clone()).form_value(),
            match lang {
                Lang::En => format!("Scenario “{name}”"),
                Lang::De => format!("Szenario „{name}“"),
            },
        )
    }))
    .collect::<Vec<_>>();

    let preview = move || {
        let form = PassMarkForm {
            metric: metric.get(),
            custom_name: custom_name.get(),
            statistic: statistic.get(),
            comparator: comparator.get(),
            threshold: threshold.get(),
            unit: unit.get(),
            point: point.get(),
            definition: definition.get(),
            scope: scope.get(),
            rationale: rationale.get(),
        };
        match PassMark::parse(&form) {
            Ok(mark) => view! {
                <p class="mark-preview"><span class="muted">{lang.pick("Reads: ", "In Worten: ")}</span>{format!("{}.", mark.sentence_in(lang))}
                    " "<span class="mono small muted">{mark.notation_in(lang)}</span></p>
            }
            .into_any(),
            Err(e) => view! {
                <p class="mark-preview muted">{match lang {
                    Lang::En => format!("Not a valid mark yet — {}: {}", e.field, e.message),
                    Lang::De => format!("Noch kein gültiger Zielwert — {}", e.text_in(lang)),
                }}</p>
            }
            .into_any(),
        }
    };
    let default_definition = move || {
        built_in(&metric.get())
            .map(|m| m.default_definition_in(lang).to_string())
            .unwrap_or_else(|| {
                lang.pick(
                    "how the figure is computed (required for a custom metric)",
                    "wie die Zahl berechnet wird (Pflicht bei einer eigenen Metrik)",
                )
                .into()
            })
    };
    let label = match (index, lang) {
        (Some(i), Lang::En) => format!("Save mark {}", i + 1),
        (Some(i), Lang::De) => format!("Zielwert {} speichern", i + 1),
        (None, _) => lang.pick("Add pass mark", "Zielwert hinzufügen").into(),
    };
    view! {
        <ActionForm action=save attr:class="form mark-form">
            {ctx.hidden()}
            <input type="hidden" name="index" value=index.map(|i| i.to_string()).unwrap_or_default()/>
            <div class="field-row">
                <Choice id=field("metric") name="metric" label=lang.pick("Metric", "Metrik") value=metric options=metric_options allowed=Signal::derive(Vec::new)/>
                <div class="grow" hidden=move || hydrated.get() && metric.get() != "custom">
                    <label for=field("custom_name")>{lang.pick("Custom metric name", "Name der eigenen Metrik")}</label>
                    <input id=field("custom_name") name="custom_name" value=initial.custom_name.clone() maxlength="80"
                        placeholder=lang.pick("only for a custom metric, e.g. Citations per answer", "nur bei einer eigenen Metrik, z. B. Quellenangaben je Antwort")
                        on:input=move |ev| custom_name.set(event_target_value(&ev))/>
                </div>
            </div>
            <div class="field-row">
                <Choice id=field("statistic") name="statistic" label=lang.pick("Statistic", "Statistik") value=statistic options=statistic_options
                    allowed=allowed(|m| m.allowed_statistics().iter().map(|s| s.as_str().to_string()).collect())/>
                <Choice id=field("comparator") name="comparator" label=lang.pick("Comparator", "Vergleich") value=comparator options=comparator_options
                    allowed=allowed(|m| Comparator::ALL.iter().filter(|c| match m.direction() {
                        Direction::LowerIsBetter => c.is_upper_limit(),
                        Direction::HigherIsBetter => !c.is_upper_limit(),
                        Direction::Either => true,
                    }).map(|c| c.as_str().to_string()).collect())/>
                <div class="grow">
                    <label for=field("threshold")>{lang.pick("Threshold", "Grenze")}</label>
                    <input id=field("threshold") name="threshold" value=initial.threshold.clone() inputmode="decimal"
                        autocomplete="off" placeholder=lang.pick("e.g. 450", "z. B. 450")
                        on:input=move |ev| threshold.set(event_target_value(&ev))/>
                </div>
                <Choice id=field("unit") name="unit" label=lang.pick("Unit", "Einheit") value=unit options=unit_options
                    allowed=allowed(|m| m.allowed_units().iter().map(|u| u.as_str().to_string()).collect())/>
            </div>
            <div class="field-row">
                <Choice id=field("point") name="point" label=lang.pick("Measured at", "Messpunkt") value=point options=point_options
                    allowed=allowed(|m| m.allowed_points().iter().map(|p| p.as_str().to_string()).collect())/>
                <Choice id=field("scope") name="scope" label=lang.pick("Scope", "Geltungsbereich") value=scope options=scope_options allowed=Signal::derive(Vec::new)/>
            </div>
            <label for=field("definition")>"Definition"</label>
            <input id=field("definition") name="definition" value=initial.definition.clone() maxlength="300"
                placeholder=default_definition
                on:input=move |ev| definition.set(event_target_value(&ev))/>
            <p class="hint">{lang.pick(
                "Empty: the metric's standard definition. Grading compares figures of this exact definition only.",
                "Leer: die Standarddefinition der Metrik. Bewertet werden nur Zahlen genau dieser Definition.",
            )}</p>
            <label for=field("rationale")>{lang.pick("Rationale", "Warum")}</label>
            <textarea id=field("rationale") name="rationale" rows="2" maxlength="1000"
                placeholder=lang.pick("Why this limit: the use case, where the number comes from.", "Warum diese Grenze: der Anwendungsfall, woher die Zahl kommt.")
                on:input=move |ev| rationale.set(event_target_value(&ev))>{textarea_text(initial.rationale.clone())}</textarea>
            {preview}
            {action_error(save)}
            <div class="form-actions">
                <button type="submit" class="button button-primary">{label}</button>
            </div>
        </ActionForm>
    }
}

// ---- scenarios ---------------------------------------------------------------------------------------

#[component]
fn ScenarioList(ctx: Draft, scenarios: Vec<engine::plan::Scenario>) -> impl IntoView {
    let remove = ServerAction::<RemoveScenario>::new();
    refresh_after(remove, ctx.refresh);
    let empty = scenarios.is_empty();
    let lang = lang();
    let rows = scenarios
        .into_iter()
        .enumerate()
        .map(|(index, s)| {
            let summary = match lang {
                Lang::En => format!(": {} in, {} out", s.input_tokens, s.output_tokens),
                Lang::De => format!(
                    ": Prompt {}, Antwort {}",
                    tokens_de(s.input_tokens),
                    tokens_de(s.output_tokens)
                ),
            };
            let remove_label = match lang {
                Lang::En => format!("Remove scenario {}", s.name),
                Lang::De => format!("Szenario {} entfernen", s.name),
            };
            let form = ScenarioForm::from(&s);
            view! {
                <li class="plan-scenario">
                    <div class="plan-mark-head">
                        <p class="grow"><strong>{s.name}</strong>{summary}</p>
                        <ActionForm action=remove>
                            {ctx.hidden()}
                            <input type="hidden" name="index" value=index.to_string()/>
                            <button type="submit" class="button button-small button-quiet"
                                aria-label=remove_label>{lang.pick("Remove", "Entfernen")}</button>
                        </ActionForm>
                    </div>
                    <details class="edit-mark">
                        <summary>{match lang {
                            Lang::En => format!("Edit scenario {}", index + 1),
                            Lang::De => format!("Szenario {} bearbeiten", index + 1),
                        }}</summary>
                        <ScenarioFields ctx index=Some(index) initial=form/>
                    </details>
                </li>
            }
        })
        .collect_view();
    view! {
        {action_error(remove)}
        {empty.then(|| view! { <p class="muted">{lang.pick(
            "No scenarios: every mark covers all traffic.",
            "Keine Szenarien: Jeder Zielwert gilt für den gesamten Verkehr.",
        )}</p> })}
        <ul class="plan-marks">{rows}</ul>
        <details class="add-mark">
            <summary class="button">{lang.pick("Add a scenario", "Szenario hinzufügen")}</summary>
            <ScenarioFields ctx index=None initial=ScenarioForm::default()/>
        </details>
    }
}

/// A token range as German writes it: `100–200 Token`, `2.000 Token`.
fn tokens_de(range: TokenRange) -> String {
    let n = |v: u32| Lang::De.number(v.into(), 0);
    if range.low_tokens == range.high_tokens {
        format!("{} Token", n(range.low_tokens))
    } else {
        format!("{}–{} Token", n(range.low_tokens), n(range.high_tokens))
    }
}

#[component]
fn ScenarioFields(ctx: Draft, index: Option<usize>, initial: ScenarioForm) -> impl IntoView {
    let save = ServerAction::<SaveScenario>::new();
    refresh_after(save, ctx.refresh);
    let prefix = index
        .map(|i| format!("scenario-{i}"))
        .unwrap_or_else(|| "scenario-new".into());
    let field = move |name: &str| format!("{prefix}-{name}");
    let lang = lang();
    let number = |id: String, name: &'static str, label: &'static str, value: String| {
        view! {
            <div>
                <label for=id.clone()>{label}</label>
                <input id=id name=name value=value type="number" min="1" step="1" inputmode="numeric"/>
            </div>
        }
    };
    view! {
        <ActionForm action=save attr:class="form mark-form">
            {ctx.hidden()}
            <input type="hidden" name="index" value=index.map(|i| i.to_string()).unwrap_or_default()/>
            <label for=field("name")>"Name"</label>
            <input id=field("name") name="name" value=initial.name required maxlength="80" placeholder=lang.pick("e.g. RAG lookups", "z. B. RAG-Abfragen")/>
            <div class="field-row">
                {number(field("input_tokens_low"), "input_tokens_low", lang.pick("Prompt from (tokens)", "Prompt von (Token)"), initial.input_tokens_low)}
                {number(field("input_tokens_high"), "input_tokens_high", lang.pick("Prompt to (tokens)", "Prompt bis (Token)"), initial.input_tokens_high)}
                {number(field("output_tokens_low"), "output_tokens_low", lang.pick("Answer from (tokens)", "Antwort von (Token)"), initial.output_tokens_low)}
                {number(field("output_tokens_high"), "output_tokens_high", lang.pick("Answer to (tokens)", "Antwort bis (Token)"), initial.output_tokens_high)}
            </div>
            {action_error(save)}
            <div class="form-actions">
                <button type="submit" class="button button-primary">
                    {if index.is_some() {
                        lang.pick("Save scenario", "Szenario speichern")
                    } else {
                        lang.pick("Add scenario", "Szenario hinzufügen")
                    }}
                </button>
            </div>
        </ActionForm>
    }
}

// ---- demand, quality set, serving ------------------------------------------------------------------

#[component]
fn SettingsForm(
    ctx: Draft,
    demand: DemandForm,
    quality: QualityForm,
    serving: ServingForm,
) -> impl IntoView {
    let save = ServerAction::<SavePlanSettings>::new();
    refresh_after(save, ctx.refresh);
    let lang = lang();
    let text = |name: &'static str,
                label: &'static str,
                value: String,
                placeholder: &'static str| {
        view! {
            <div class="grow">
                <label for=format!("settings-{name}")>{label}</label>
                <input id=format!("settings-{name}") name=name value=value placeholder=placeholder/>
            </div>
        }
    };
    let number = |name: &'static str,
                  label: &'static str,
                  value: String,
                  placeholder: &'static str| {
        view! {
            <div class="grow">
                <label for=format!("settings-{name}")>{label}</label>
                <input id=format!("settings-{name}") name=name value=value placeholder=placeholder inputmode="decimal"/>
            </div>
        }
    };
    let switch = move |name: &'static str, label: &'static str, value: String| {
        view! {
            <div class="grow">
                <label for=format!("settings-{name}")>{label}</label>
                <select id=format!("settings-{name}") name=name>
                    <option value="" selected=value.is_empty()>{lang.pick("not stated", "nicht angegeben")}</option>
                    <option value="on" selected=value == "on">{lang.pick("on", "an")}</option>
                    <option value="off" selected=value == "off">{lang.pick("off", "aus")}</option>
                </select>
            </div>
        }
    };
    view! {
        <ActionForm action=save attr:class="form settings-form">
            {ctx.hidden()}
            <fieldset>
                <legend>{lang.pick("Demand assumptions", "Lastannahmen")}</legend>
                <div class="field-row">
                    {number("pilot_users", lang.pick("Pilot users", "Pilotnutzer"), demand.pilot_users, lang.pick("e.g. 20", "z. B. 20"))}
                    {number("production_users", lang.pick("Production users", "Nutzer in Produktion"), demand.production_users, lang.pick("e.g. 400", "z. B. 400"))}
                    {number("peak_arrival_rate_req_s", lang.pick("Peak arrival rate (req/s)", "Spitzen-Ankunftsrate (Anfragen/s)"), demand.peak_arrival_rate_req_s, lang.pick("e.g. 2.5", "z. B. 2.5"))}
                    {number("context_tokens_per_request", lang.pick("Context per request (tokens)", "Kontext je Anfrage (Token)"), demand.context_tokens_per_request, lang.pick("e.g. 8192", "z. B. 8192"))}
                    {number("planned_peak_concurrency", lang.pick("Planned peak concurrency (requests in flight)", "Geplante Spitzen-Parallelität (gleichzeitige Anfragen)"), demand.planned_peak_concurrency, lang.pick("e.g. 16", "z. B. 16"))}
                </div>
            </fieldset>
            <fieldset>
                <legend>{lang.pick("Quality set", "Qualitätsdatensatz")}</legend>
                <div class="field-row">
                    {number("questions", lang.pick("Evaluation questions", "Evaluationsfragen"), quality.questions, lang.pick("50–100 recommended", "50–100 empfohlen"))}
                    {number("hit_k", lang.pick("k of hit rate@k", "k der Trefferquote@k"), quality.hit_k, lang.pick("e.g. 5", "z. B. 5"))}
                </div>
            </fieldset>
            <fieldset>
                <legend>{lang.pick("Pilot hardware and serving", "Pilot-Hardware und Serving")}</legend>
                <div class="field-row">
                    {text("engine", lang.pick("Serving engine", "Serving-Engine"), serving.engine, "vLLM")}
                    {text("engine_version", lang.pick("Engine version", "Engine-Version"), serving.engine_version, lang.pick("e.g. 0.8.5", "z. B. 0.8.5"))}
                    {text("gpu", "GPU", serving.gpu, lang.pick("e.g. Tesla V100-SXM2-16GB", "z. B. Tesla V100-SXM2-16GB"))}
                </div>
                <div class="field-row">
                    {text("precision", lang.pick("Weights precision", "Präzision der Gewichte"), serving.precision, lang.pick("e.g. FP16", "z. B. FP16"))}
                    {text("kv_cache_dtype", lang.pick("KV cache dtype", "Datentyp des KV-Cache"), serving.kv_cache_dtype, lang.pick("e.g. auto", "z. B. auto"))}
                    {number("tensor_parallel", lang.pick("Tensor parallel", "Tensorparallelität"), serving.tensor_parallel, lang.pick("e.g. 4", "z. B. 4"))}
                    {number("max_num_batched_tokens", "max_num_batched_tokens", serving.max_num_batched_tokens, lang.pick("engine default", "Vorgabe der Engine"))}
                </div>
                <div class="field-row">
                    {switch("prefix_caching", lang.pick("Prefix caching", "Prefix-Caching"), serving.prefix_caching)}
                    {switch("cuda_graphs", lang.pick("CUDA graphs", "CUDA-Graphen"), serving.cuda_graphs)}
                </div>
            </fieldset>
            {action_error(save)}
            <div class="form-actions">
                <button type="submit" class="button button-primary">{lang.pick("Save settings", "Einstellungen speichern")}</button>
            </div>
        </ActionForm>
    }
}
