//! The pilot plan, read-only: the pass marks in plain words with their current status, and the
//! rest of the plan (scenarios, demand, quality set, serving). Also the plan card of the pilot
//! page and the helpers the editor and history pages share.
//!
//! Customers see approved versions only; the page says so. `?version=N` shows an older version.

use super::params::pilot_id_param;
use crate::api::plans::{PlanVersionRecord, PlanView};
#[cfg(feature = "ssr")]
use crate::components::{EmptyState, PageHeader};
use engine::locale::Lang;
#[cfg(feature = "ssr")]
use engine::plan::{DemandAssumptions, PilotServing, QualitySet, format_number};
use engine::plan::{PassMark, PlanContent, PlanStatus};
use engine::verdict::{GradedMark, PlanGrade, Verdict};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

// ---- shared helpers ------------------------------------------------------------------------------

/// A verdict as a badge: pass, fail, not measured (plain), not comparable (warning).
pub(crate) fn verdict_badge(verdict: &Verdict) -> AnyView {
    let class = match verdict {
        Verdict::Pass => "badge badge-pass",
        Verdict::Fail => "badge badge-fail",
        Verdict::NotMeasured => "badge",
        Verdict::NotComparable { .. } => "badge badge-warn",
    };
    let label = verdict.label_in(crate::components::lang());
    view! { <span class=class data-verdict=verdict.as_str()>{label}</span> }.into_any()
}

/// `Draft` / `Approved` as a badge.
pub(super) fn plan_status_badge(status: PlanStatus) -> AnyView {
    let class = match status {
        PlanStatus::Draft => "badge badge-staff",
        PlanStatus::Approved => "badge badge-pass",
    };
    let label = match status {
        PlanStatus::Draft => crate::components::tr(status.label(), "Entwurf"),
        PlanStatus::Approved => crate::components::tr(status.label(), "Freigegeben"),
    };
    view! { <span class=class>{label}</span> }.into_any()
}

/// `Version 2 · approved by Ann on 2026-11-30 09:18 UTC`, or `Draft version 3 · not approved`.
pub(super) fn version_line(version: &PlanVersionRecord) -> String {
    let lang = crate::components::lang();
    match (&version.approved_by_name, version.approved_ms, lang) {
        (Some(who), Some(at), Lang::En) => format!(
            "Version {} · approved by {who} on {}{}",
            version.number,
            lang.date_time(at),
            version.override_note_in(lang)
        ),
        (Some(who), Some(at), Lang::De) => format!(
            "Version {} · freigegeben von {who} am {}{}",
            version.number,
            lang.date_time(at),
            version.override_note_in(lang)
        ),
        (_, _, Lang::En) => format!(
            "Draft version {} · not approved, not in force",
            version.number
        ),
        (_, _, Lang::De) => format!(
            "Entwurf Version {} · nicht freigegeben, nicht in Kraft",
            version.number
        ),
    }
}

#[cfg(feature = "ssr")]
fn or_not_stated(value: Option<String>) -> String {
    value.unwrap_or_else(|| not_stated().into())
}

/// `not stated` / `nicht angegeben`.
#[cfg(feature = "ssr")]
fn not_stated() -> &'static str {
    crate::components::tr("not stated", "nicht angegeben")
}

#[cfg(feature = "ssr")]
fn text_or_not_stated(value: &str) -> String {
    match value.trim() {
        "" => not_stated().into(),
        value => value.to_string(),
    }
}

#[cfg(feature = "ssr")]
fn switch(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => crate::components::tr("on", "an"),
        Some(false) => crate::components::tr("off", "aus"),
        None => not_stated(),
    }
}

/// Definition, scope and rationale of a mark, in small print.
pub(super) fn mark_details(mark: &PassMark) -> AnyView {
    let lang = crate::components::lang();
    let rationale = mark.rationale.trim().to_string();
    // A definition the assessor stated stays as written; the domain's default is translated.
    let definition = match mark.effective_definition() {
        stated if stated.trim() == mark.metric.default_definition() => {
            mark.metric.default_definition_in(lang).to_string()
        }
        stated => stated.to_string(),
    };
    view! {
        <dl class="mark-details">
            <dt>"Definition"</dt><dd>{definition}</dd>
            <dt>{lang.pick("Scope", "Geltungsbereich")}</dt><dd>{mark.scope.text_in(lang)}</dd>
            {(!rationale.is_empty()).then(|| view! { <dt>{lang.pick("Why", "Warum")}</dt><dd>{rationale}</dd> })}
        </dl>
    }
    .into_any()
}

/// The status cell of a graded mark: badge, the value it was graded on, the explanation.
fn status_cell(graded: &GradedMark) -> AnyView {
    let value = graded.grade.value_used.map(|q| {
        let lang = crate::components::lang();
        format!(
            "{}: {}",
            graded.pass_mark.key().label_in(lang),
            q.text_in(lang)
        )
    });
    view! {
        <div class="mark-status">
            {verdict_badge(&graded.grade.verdict)}
            {value.map(|v| view! { <span class="mark-value">{v}</span> })}
            <crate::components::Explanation text=graded.grade.explanation.clone()/>
        </div>
    }
    .into_any()
}

/// The pass marks of `content` as a table; with `grade`, each mark's status.
pub(super) fn marks_table(content: &PlanContent, grade: Option<&PlanGrade>) -> AnyView {
    let lang = crate::components::lang();
    if content.pass_marks.is_empty() {
        return view! { <p class="muted">{lang.pick("No pass marks yet.", "Noch keine Zielwerte.")}</p> }.into_any();
    }
    let graded = grade.is_some();
    let rows = content
        .pass_marks
        .iter()
        .enumerate()
        .map(|(i, mark)| {
            let status = grade
                .and_then(|g| g.marks.iter().find(|m| m.mark_index == i))
                .map(status_cell);
            view! {
                <tr>
                    <td class="num mark-index">{i + 1}</td>
                    <td>
                        <p class="mark-sentence">{format!("{}.", mark.sentence_in(lang))}</p>
                        {mark_details(mark)}
                    </td>
                    <td class="mono nowrap mark-notation">{mark.notation_in(lang)}</td>
                    {graded.then(|| view! { <td>{status}</td> })}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="table plan-marks-table">
            <thead><tr>
                <th scope="col" class="num">"#"</th>
                <th scope="col">{lang.pick("Pass mark", "Zielwert")}</th>
                <th scope="col">{lang.pick("Limit", "Grenze")}</th>
                {graded.then(|| view! { <th scope="col">"Status"</th> })}
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

/// `Pass marks missed: 2 of 6 pass marks met, 1 missed, 3 not measured`: the verdict's own
/// words (the pilot page, the report and the API say the same).
#[cfg(feature = "ssr")]
pub(super) fn tally_line(grade: &PlanGrade) -> String {
    let lang = crate::components::lang();
    format!(
        "{}: {}",
        grade.outcome.label_in(lang),
        grade.tally.summary_in(grade.marks.len(), lang)
    )
}

#[cfg(feature = "ssr")]
fn demand_facts(demand: &DemandAssumptions) -> AnyView {
    let lang = crate::components::lang();
    let count = |v: Option<u32>, unit: &str| {
        or_not_stated(v.map(|v| {
            format!("{} {unit}", engine::plan::format_number_in(v.into(), lang))
                .trim()
                .to_string()
        }))
    };
    let scale = demand
        .user_scale_factor()
        .map(|f| match lang {
            Lang::En => format!(" (× {} of the pilot)", format_number(f)),
            Lang::De => format!(
                " (× {} des Piloten)",
                engine::plan::format_number_in(f, lang)
            ),
        })
        .unwrap_or_default();
    let rate = demand.peak_arrival_rate_req_s.map(|r| match lang {
        Lang::En => format!("{} req/s at the busiest hour", format_number(r)),
        Lang::De => format!(
            "{} Anfragen/s in der Spitzenstunde",
            engine::plan::format_number_in(r, lang)
        ),
    });
    view! {
        <dl class="facts">
            <dt>{lang.pick("Pilot users", "Pilotnutzer")}</dt><dd>{count(demand.pilot_users, "")}</dd>
            <dt>{lang.pick("Production users", "Nutzer in Produktion")}</dt><dd>{format!("{}{scale}", count(demand.production_users, ""))}</dd>
            <dt>{lang.pick("Peak arrival rate", "Spitzen-Ankunftsrate")}</dt>
            <dd>{or_not_stated(rate)}</dd>
            <dt>{lang.pick("Context per request", "Kontext je Anfrage")}</dt><dd>{count(demand.context_tokens_per_request, lang.pick("tokens (prompt + answer)", "Token (Prompt + Antwort)"))}</dd>
            <dt>{lang.pick("Planned peak concurrency", "Geplante Spitzen-Parallelität")}</dt><dd>{count(demand.planned_peak_concurrency, lang.pick("requests in flight (load-test marks are graded here)", "gleichzeitige Anfragen (hier werden die Lasttest-Zielwerte bewertet)"))}</dd>
        </dl>
    }
    .into_any()
}

#[cfg(feature = "ssr")]
fn quality_facts(quality: &QualitySet) -> AnyView {
    let lang = crate::components::lang();
    let questions = quality.questions.map(|q| match lang {
        Lang::En => format!("{q} real questions with accepted answers"),
        Lang::De => format!("{q} echte Fragen mit anerkannten Antworten"),
    });
    let passages = quality.hit_k.map(|k| match lang {
        Lang::En => format!("{k} passages retrieved per question"),
        Lang::De => format!("{k} abgerufene Passagen je Frage"),
    });
    view! {
        <dl class="facts">
            <dt>{lang.pick("Evaluation questions", "Evaluationsfragen")}</dt>
            <dd>{or_not_stated(questions)}</dd>
            <dt>{lang.pick("k of hit rate@k", "k der Trefferquote@k")}</dt>
            <dd>{or_not_stated(passages)}</dd>
        </dl>
    }
    .into_any()
}

#[cfg(feature = "ssr")]
fn serving_facts(serving: &PilotServing) -> AnyView {
    let lang = crate::components::lang();
    let count =
        |v: Option<u32>| or_not_stated(v.map(|v| engine::plan::format_number_in(v.into(), lang)));
    let batched = match serving.max_num_batched_tokens {
        Some(_) => count(serving.max_num_batched_tokens),
        None => lang
            .pick(
                "not stated (engine default)",
                "nicht angegeben (Vorgabe der Engine)",
            )
            .to_string(),
    };
    view! {
        <dl class="facts">
            <dt>{lang.pick("Serving engine", "Serving-Engine")}</dt>
            <dd>{text_or_not_stated(&format!("{} {}", serving.engine.trim(), serving.engine_version.trim()))}</dd>
            <dt>"GPU"</dt><dd>{text_or_not_stated(&serving.gpu)}</dd>
            <dt>{lang.pick("Weights precision", "Präzision der Gewichte")}</dt><dd>{text_or_not_stated(&serving.precision)}</dd>
            <dt>{lang.pick("KV cache dtype", "Datentyp des KV-Cache")}</dt><dd>{text_or_not_stated(&serving.kv_cache_dtype)}</dd>
            <dt>{lang.pick("Tensor parallel", "Tensorparallelität")}</dt><dd>{count(serving.tensor_parallel)}</dd>
            <dt>"max_num_batched_tokens"</dt><dd>{batched}</dd>
            <dt>{lang.pick("Prefix caching", "Prefix-Caching")}</dt><dd>{switch(serving.prefix_caching)}</dd>
            <dt>{lang.pick("CUDA graphs", "CUDA-Graphen")}</dt><dd>{switch(serving.cuda_graphs)}</dd>
        </dl>
    }
    .into_any()
}

/// Scenarios, demand, quality set and serving of a plan version.
#[cfg(feature = "ssr")]
pub(super) fn plan_sections(content: &PlanContent) -> AnyView {
    let lang = crate::components::lang();
    let scenarios = if content.scenarios.is_empty() {
        view! { <p class="muted">{lang.pick("No scenarios: the marks cover all traffic.", "Keine Szenarien: Die Zielwerte gelten für den gesamten Verkehr.")}</p> }.into_any()
    } else {
        view! {
            <table class="table">
                <thead><tr><th scope="col">{lang.pick("Scenario", "Szenario")}</th><th scope="col">"Prompt"</th><th scope="col">{lang.pick("Answer", "Antwort")}</th></tr></thead>
                <tbody>
                    {content.scenarios.iter().map(|s| view! {
                        <tr>
                            <td class="strong">{s.name.clone()}</td>
                            <td class="nowrap">{s.input_tokens.to_string()}</td>
                            <td class="nowrap">{s.output_tokens.to_string()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <div class="grid-2">
            <section class="card">
                <h2>{lang.pick("Scenarios", "Szenarien")}</h2>
                {scenarios}
            </section>
            <section class="card">
                <h2>{lang.pick("Demand assumptions", "Lastannahmen")}</h2>
                {demand_facts(&content.demand)}
            </section>
        </div>
        <div class="grid-2">
            <section class="card">
                <h2>{lang.pick("Pilot hardware and serving", "Pilot-Hardware und Serving")}</h2>
                <p class="small muted">{lang.pick("Latency and throughput belong to the configuration they are measured with.", "Latenz und Durchsatz gehören zu der Konfiguration, mit der sie gemessen werden.")}</p>
                {serving_facts(&content.serving)}
            </section>
            <section class="card">
                <h2>{lang.pick("Quality set", "Qualitätsdatensatz")}</h2>
                {quality_facts(&content.quality)}
            </section>
        </div>
    }
    .into_any()
}

/// The plan's sub-navigation: plan, history, editor.
pub(super) fn plan_tabs(view: &PlanView, current: &'static str) -> AnyView {
    let id = view.pilot.id;
    let lang = crate::components::lang();
    let tab = |href: String, label: &'static str, key: &'static str| {
        let aria = (key == current).then_some("page");
        view! { <a href=href aria-current=aria>{label}</a> }
    };
    view! {
        <nav class="plan-tabs" aria-label="Plan">
            {tab(format!("/pilots/{id}/plan"), "Plan", "plan")}
            {tab(format!("/pilots/{id}/plan/history"), lang.pick("History", "Verlauf"), "history")}
            {view.can_edit.then(|| tab(format!("/pilots/{id}/plan/edit"), lang.pick("Edit", "Bearbeiten"), "edit"))}
        </nav>
    }
    .into_any()
}

pub(super) fn breadcrumbs(view: &PlanView, last: &'static str) -> AnyView {
    let p = &view.pilot;
    view! {
        <nav class="breadcrumbs" aria-label=crate::components::tr("Breadcrumb", "Brotkrumen")>
            <a href="/">{crate::components::tr("Pilots", "Piloten")}</a>" / "
            <a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / "
            {if last == "Plan" {
                view! { <span>"Plan"</span> }.into_any()
            } else {
                view! { <a href=format!("/pilots/{}/plan", p.id)>"Plan"</a>" / "<span>{last}</span> }.into_any()
            }}
        </nav>
    }
    .into_any()
}

/// The notice customers see on plan pages.
pub(super) fn approved_only_notice() -> AnyView {
    view! {
        <p class="notice notice-info" id="approved-only">
            {crate::components::tr(
                "You see the approved versions of this plan. Drafts stay with the assessment team until they are approved; the plan is read-only for customers.",
                "Sie sehen die freigegebenen Versionen dieses Plans. Entwürfe bleiben beim Bewertungsteam, bis sie freigegeben sind; für Kunden ist der Plan nur lesbar.",
            )}
        </p>
    }
    .into_any()
}

// ---- the plan page -------------------------------------------------------------------------------

#[component]
pub fn PlanPage() -> impl IntoView {
    let id = pilot_id_param();
    let query = use_query_map();
    let requested = move || {
        query
            .read()
            .get("version")
            .and_then(|v| v.parse::<u32>().ok())
    };
    crate::components::fragment_view(
        crate::components::tr("Loading plan…", "Plan wird geladen…"),
        move || (id(), requested()),
        |(id, version)| plan_page_fragment(id, version),
    )
}

/// The plan page's content: the version asked for (`None`: the plan in force, else the draft),
/// 404 for a version the plan does not have or the caller may not see.
#[server(endpoint = "page_plan")]
pub async fn plan_page_fragment(
    pilot_id: i64,
    #[server(default)] version: Option<u32>,
) -> Result<crate::components::Fragment, crate::error::AppError> {
    let view = crate::api::plans::get_plan(pilot_id).await?;
    if let Some(n) = version
        && view.version(n).is_none()
    {
        return crate::server::respond(Err(crate::error::AppError::NotFound));
    }
    let title = format!("Plan · {}", view.pilot.name);
    Ok(crate::components::Fragment::render(
        title,
        plan_page(view, version),
    ))
}

#[cfg(feature = "ssr")]
fn plan_page(view: PlanView, requested: Option<u32>) -> AnyView {
    let pilot = view.pilot.clone();
    let lang = crate::components::lang();
    let header_actions = view.can_edit.then(|| {
        let (label, primary) = match (view.draft(), view.latest()) {
            (Some(_), _) => (lang.pick("Edit draft", "Entwurf bearbeiten"), true),
            (None, None) => (lang.pick("Start the plan", "Plan beginnen"), true),
            (None, Some(_)) => (lang.pick("Amend plan", "Plan ändern"), false),
        };
        let class = if primary {
            "button button-primary"
        } else {
            "button"
        };
        view! { <a class=class href=format!("/pilots/{}/plan/edit", pilot.id)>{label}</a> }
    });
    let shown = match requested {
        Some(n) => view.version(n),
        None => view.in_force_version().or_else(|| view.draft()),
    };
    let top = view! {
        {breadcrumbs(&view, "Plan")}
        <PageHeader title=lang.pick("Pilot plan", "Pilotplan") subtitle=format!("{} · {} {}", pilot.name, lang.pick("for", "für"), pilot.organisation_name)>
            {header_actions}
        </PageHeader>
        {plan_tabs(&view, "plan")}
        {view.approved_only.then(approved_only_notice)}
    };
    let Some(shown) = shown.cloned() else {
        // A version asked for that does not exist is a 404 before this renders.
        let body = if view.approved_only {
            lang.pick(
                "The assessment team has not approved a plan for this pilot yet. Its pass marks appear here once they are approved.",
                "Das Bewertungsteam hat für diesen Piloten noch keinen Plan freigegeben. Seine Zielwerte erscheinen hier, sobald sie freigegeben sind.",
            )
        } else {
            lang.pick(
                "No plan yet. A plan names every figure the pilot measures and the pass mark it must meet, approved before the pilot starts.",
                "Noch kein Plan. Ein Plan nennt jede Zahl, die der Pilot misst, und den Zielwert, den sie erreichen muss, freigegeben vor dem Start des Piloten.",
            )
        };
        return view! {
            {top}
            <EmptyState title=lang.pick("No approved plan yet", "Noch kein freigegebener Plan")><p>{body}</p></EmptyState>
        }
        .into_any();
    };
    let graded = (view.graded_version == Some(shown.number))
        .then(|| view.grade.clone())
        .flatten();
    let in_force = view.in_force == Some(shown.number);
    let superseded = !shown.is_draft() && !in_force;
    let draft_notice = view.draft().filter(|d| d.number != shown.number).map(|d| {
        view! {
            <div class="notice notice-warn">
                <strong>{match lang {
                    Lang::En => format!("Draft version {} is being prepared", d.number),
                    Lang::De => format!("Entwurf Version {} wird vorbereitet", d.number),
                }}</strong>
                <p>
                    {d.amendment_reason.clone().map(|r| format!("{}: {r}. ", lang.pick("Amendment", "Änderung"))).unwrap_or_default()}
                    {lang.pick("It is not in force until it is approved. ", "Er gilt erst, wenn er freigegeben ist. ")}
                    <a href=format!("/pilots/{}/plan?version={}", pilot.id, d.number)>{lang.pick("Show the draft", "Entwurf zeigen")}</a>
                    {view.can_edit.then(|| view! { " · "<a href=format!("/pilots/{}/plan/edit", pilot.id)>{lang.pick("Open the draft", "Entwurf öffnen")}</a> })}
                </p>
            </div>
            {approval_block(&view, d)}
        }
    });
    let state = if shown.is_draft() {
        view! {
            <div class="notice notice-warn">
                <strong>{match lang {
                    Lang::En => format!("Version {} is a draft", shown.number),
                    Lang::De => format!("Version {} ist ein Entwurf", shown.number),
                }}</strong>
                <p>{lang.pick(
                    "Its pass marks can still change and are not in force until an assessor or administrator approves them.",
                    "Seine Zielwerte können sich noch ändern und gelten erst, wenn das Bewertungsteam oder die Administration sie freigibt.",
                )}</p>
            </div>
            {approval_block(&view, &shown)}
        }
        .into_any()
    } else if superseded {
        view! {
            <div class="notice notice-warn">
                <strong>{match lang {
                    Lang::En => format!("Version {} is superseded", shown.number),
                    Lang::De => format!("Version {} ist abgelöst", shown.number),
                }}</strong>
                <p>
                    {view.in_force.map(|n| match lang {
                        Lang::En => format!("Version {n} is in force. "),
                        Lang::De => format!("Version {n} ist in Kraft. "),
                    }).unwrap_or_default()}
                    <a href=format!("/pilots/{}/plan", pilot.id)>{lang.pick("Show the plan in force", "Geltenden Plan zeigen")}</a>
                </p>
            </div>
        }
        .into_any()
    } else {
        ().into_any()
    };
    let reason = shown.amendment_reason.clone();
    let tally = graded.as_ref().map(tally_line);
    view! {
        {top}
        {draft_notice}
        {state}
        <section class="card plan-version-card" id="plan-in-force">
            <div class="card-head">
                <div>
                    <h2>{match lang {
                        Lang::En => format!("Pass marks · version {}", shown.number),
                        Lang::De => format!("Zielwerte · Version {}", shown.number),
                    }}</h2>
                    <p class="small muted version-line">{version_line(&shown)}</p>
                </div>
                <div class="card-head-badges">
                    {plan_status_badge(shown.status)}
                    {in_force.then(|| view! { <span class="badge badge-pass">{lang.pick("In force", "In Kraft")}</span> })}
                </div>
            </div>
            {reason.map(|r| view! { <p class="amendment-reason"><strong>{lang.pick("Why this version: ", "Warum diese Version: ")}</strong>{r}</p> })}
            {tally.map(|t| view! {
                <p class="plan-tally small">
                    {t}
                    <span class="muted">{match lang {
                        Lang::En => format!(" · graded against version {}", shown.number),
                        Lang::De => format!(" · bewertet nach Version {}", shown.number),
                    }}</span>
                </p>
            })}
            {marks_table(&shown.content, graded.as_ref())}
            {graded.as_ref().filter(|g| g.tally.not_measured == g.marks.len()).map(|_| view! {
                <p class="small muted">{lang.pick(
                    "Not measured: no evidence has been recorded for this pilot yet. Statuses appear as evidence arrives.",
                    "Nicht gemessen: Für diesen Piloten liegen noch keine Nachweise vor. Der Stand erscheint, sobald Nachweise eingehen.",
                )}</p>
            })}
        </section>
        {plan_sections(&shown.content)}
    }
    .into_any()
}

/// Where the draft stands in the approval workflow (draft → submitted for approval → approved),
/// with what this viewer may do about it: its author (or anyone on the assessment team)
/// submits it; someone else who may approve approves it here. Plain forms: they post to the
/// server functions and come back to this page.
#[cfg(feature = "ssr")]
pub(crate) fn approval_block(view: &PlanView, draft: &PlanVersionRecord) -> AnyView {
    if view.approved_only {
        return ().into_any();
    }
    let pilot_id = view.pilot.id;
    let hidden = move || {
        view! {
            <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
            <input type="hidden" name="version" value=draft.number.to_string()/>
            <input type="hidden" name="revision" value=draft.revision.to_string()/>
        }
    };
    let lang = crate::components::lang();
    let stage = draft.approval_stage_in(lang);
    let own = view.draft_is_own();
    let submit = view.may_submit().then(|| {
        view! {
            <form method="post" action="/api/submit_plan" class="inline-form">
                {hidden()}
                <button type="submit" class="button button-primary">{match lang {
                    Lang::En => format!("Submit version {} for approval", draft.number),
                    Lang::De => format!("Version {} zur Freigabe einreichen", draft.number),
                }}</button>
            </form>
        }
    });
    let approve = view.may_approve_draft().then(|| {
        view! {
            <form method="post" action="/api/approve_plan" class="inline-form">
                {hidden()}
                <button type="submit" class="button button-primary">{match lang {
                    Lang::En => format!("Approve version {}", draft.number),
                    Lang::De => format!("Version {} freigeben", draft.number),
                }}</button>
            </form>
        }
    });
    let four_eyes = (own && view.can_approve).then(|| {
        view! { <p class="small muted">{lang.pick("You wrote this draft: a second person approves it (four eyes).", "Sie haben diesen Entwurf geschrieben: Eine zweite Person gibt ihn frei (Vier-Augen-Prinzip).")}</p> }
    });
    view! {
        <section class="card approval" id="approval" aria-label=lang.pick("Approval", "Freigabe")>
            <p class="approval-stage"><strong>{lang.pick("Approval: ", "Freigabe: ")}</strong>{stage}</p>
            <div class="approve-row">{submit}{approve}</div>
            {four_eyes}
        </section>
    }
    .into_any()
}

// ---- the card on the pilot page ------------------------------------------------------------------

/// The pilot page's plan card: the plan in force (or, for staff, the draft) with each pass
/// mark's status, and a link to the plan.
#[cfg(feature = "ssr")]
pub fn summary_card(view: PlanView) -> AnyView {
    let id = view.pilot.id;
    let lang = crate::components::lang();
    let graded = view.graded_version.and_then(|n| view.version(n)).cloned();
    let body = match (&graded, &view.grade) {
        (Some(version), Some(grade)) => {
            let marks = grade
                .marks
                .iter()
                .map(|m| {
                    view! {
                        <li>
                            {verdict_badge(&m.grade.verdict)}
                            <span class="mark-summary">
                                <span>{format!("{}.", m.pass_mark.sentence_in(lang))}</span>
                                <span class="mono small muted">{m.pass_mark.notation_in(lang)}</span>
                            </span>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <p class="small muted version-line">{version_line(version)}</p>
                <ul class="mark-status-list">{marks}</ul>
                <p class="small muted">{tally_line(grade)}</p>
            }
            .into_any()
        }
        _ if view.approved_only => view! {
            <p class="muted">{lang.pick("The assessment team has not approved the plan yet.", "Das Bewertungsteam hat den Plan noch nicht freigegeben.")}</p>
        }
        .into_any(),
        _ => view! {
            <p class="muted">{lang.pick("No plan yet: the pass marks the pilot must meet, written down and approved before it starts.", "Noch kein Plan: die Zielwerte, die der Pilot erreichen muss, vor dem Start festgehalten und freigegeben.")}</p>
        }
        .into_any(),
    };
    let link = match (&graded, view.can_edit) {
        (None, true) => view! { <a class="button button-small button-primary" href=format!("/pilots/{id}/plan/edit")>{lang.pick("Start the plan", "Plan beginnen")}</a> }.into_any(),
        (None, false) => ().into_any(),
        (Some(_), _) => view! { <a class="button button-small" href=format!("/pilots/{id}/plan")>{lang.pick("Open plan", "Plan öffnen")}</a> }.into_any(),
    };
    view! {
        <section class="card" id="plan-summary">
            <div class="card-head">
                <h2>{lang.pick("Pilot plan", "Pilotplan")}</h2>
                {link}
            </div>
            {body}
        </section>
    }
    .into_any()
}
