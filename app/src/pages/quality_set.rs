//! The evaluation set of a pilot, version by version: view any version the viewer may see,
//! edit the open draft row by row (staff), approve it, start the next version.
//!
//! Every form is an `ActionForm` posting to a server function, so the page works without the
//! wasm bundle (each post returns here; a refused one brings its error back in the address) and,
//! hydrated, without reloading. The row forms live in the table: each row's inputs belong to the
//! row's form through the `form` attribute, so Enter in any cell saves that row. Errors name the
//! row and the field.

use super::params::pilot_id_param;
use crate::api::quality::{
    ApproveEvalSet, EvalSetPage, EvalSetVersion, NewEvalSetVersion, RemoveEvalItem, SaveEvalItem,
    get_eval_set,
};
use crate::components::action_forms::{self, action_error, refresh_after, returned_error};
use crate::components::{ErrorNotice, PageHeader};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// Without JavaScript a refused form returns with its error in the address; shown once here.
fn returned_errors(refresh: RwSignal<u32>) -> Option<AnyView> {
    action_forms::returned_errors(
        refresh,
        vec![
            returned_error::<SaveEvalItem>(),
            returned_error::<RemoveEvalItem>(),
            returned_error::<ApproveEvalSet>(),
            returned_error::<NewEvalSetVersion>(),
        ],
    )
}

#[component]
pub fn EvalSetPage() -> impl IntoView {
    let id = pilot_id_param();
    let query = use_query_map();
    let version = move || query.read().get("version").unwrap_or_default();
    let refresh = RwSignal::new(0u32);
    let page = crate::components::page_resource(
        move || (id(), version(), refresh.get()),
        |(id, version, _)| get_eval_set(id, version),
    );
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading the evaluation set…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(page) => set_page(page, refresh),
                    Err(error) => view! { <Title text="Not found"/><ErrorNotice error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

fn status_badge(version: &EvalSetVersion) -> AnyView {
    if version.approved {
        view! { <span class="badge badge-pass">"Approved"</span> }.into_any()
    } else {
        view! { <span class="badge badge-warn">"Draft"</span> }.into_any()
    }
}

fn set_page(page: EvalSetPage, refresh: RwSignal<u32>) -> AnyView {
    let pilot = page.pilot.clone();
    let shown = page.shown.and_then(|n| page.version(n)).cloned();
    let tabs = page
        .versions
        .iter()
        .map(|v| {
            let current = Some(v.number) == page.shown;
            let label = format!(
                "Version {}{}{}",
                v.number,
                if v.approved { "" } else { " (draft)" },
                if Some(v.number) == page.runs_against {
                    " · runs"
                } else {
                    ""
                }
            );
            view! {
                <a href=format!("/pilots/{}/quality/set?version={}", v.pilot_id, v.number)
                    aria-current=if current { Some("page") } else { None }>{label}</a>
            }
        })
        .collect_view();
    let has_draft = page.versions.iter().any(|v| !v.approved);
    let latest = page.versions.last().map(|v| v.number);
    let body = match shown {
        None => view! {
            <section class="card empty-state">
                <h3>"No evaluation set yet"</h3>
                <p>"Upload the set (CSV or JSON Lines: id, question, accepted_answer, accepted_passages) on the evidence page, or start one here and type the questions in."</p>
            </section>
        }
        .into_any(),
        Some(version) if !version.approved && page.can_edit => {
            view! { <DraftEditor version refresh/> }.into_any()
        }
        Some(version) => view! {
            {version_head(&version, page.runs_against)}
            {items_table(&version)}
        }
        .into_any(),
    };
    view! {
        <Title text=format!("Evaluation set · {}", pilot.name)/>
        <nav class="breadcrumbs" aria-label="Breadcrumb">
            <a href="/">"Pilots"</a>" / "
            <a href=format!("/pilots/{}", pilot.id)>{pilot.name.clone()}</a>" / "
            <a href=format!("/pilots/{}/quality", pilot.id)>"Quality"</a>" / "
            <span>"Evaluation set"</span>
        </nav>
        <PageHeader title="Evaluation set" subtitle="The questions, accepted answers and accepted passages every run is scored against. Versioned like the plan: approved versions are frozen, and each run records the version it was read against."/>
        {returned_errors(refresh)}
        {(!page.versions.is_empty()).then(|| view! { <nav class="plan-tabs version-tabs" aria-label="Versions">{tabs}</nav> })}
        {(!page.can_edit && !page.versions.is_empty()).then(|| view! {
            <p class="notice notice-info">"You see the approved versions of the evaluation set; drafts stay with the assessment team."</p>
        })}
        {(page.can_edit && !has_draft).then(|| view! { <NewVersionForm pilot_id=pilot.id latest refresh/> })}
        {body}
    }
    .into_any()
}

fn version_head(version: &EvalSetVersion, runs_against: Option<u32>) -> AnyView {
    let approved = version.approved_ms.map(|at| {
        format!(
            "Approved by {} on {}.",
            version.approved_by_name.clone().unwrap_or_default(),
            engine::clock::utc_minute(at)
        )
    });
    let runs = if runs_against == Some(version.number) {
        if version.approved {
            "Runs uploaded now are read against this version."
        } else {
            "No version is approved yet: the next run uploaded is read against this draft and approves it."
        }
    } else {
        ""
    };
    view! {
        <section class="card" id="set-version">
            <div class="card-head">
                <h2>{format!("Version {} · {} questions", version.number, version.set.items.len())}</h2>
                {status_badge(version)}
            </div>
            <p class="small muted">{format!(
                "{} · started by {} on {} · last saved {}",
                if version.source.is_empty() { "typed in".to_string() } else { version.source.clone() },
                version.created_by_name,
                engine::clock::utc_minute(version.created_ms),
                engine::clock::utc_minute(version.updated_ms)
            )}</p>
            {approved.map(|a| view! { <p class="small">{a}</p> })}
            {(!runs.is_empty()).then(|| view! { <p class="small">{runs}</p> })}
        </section>
    }
    .into_any()
}

fn items_table(version: &EvalSetVersion) -> AnyView {
    let rows = version
        .set
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            view! {
                <tr>
                    <td class="num">{i + 1}</td>
                    <td class="mono">{item.id.clone()}</td>
                    <td>{item.question.clone()}</td>
                    <td>{item.accepted_answer.clone()}</td>
                    <td class="mono small">{item.accepted_passages.join(" | ")}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="card">
            <table class="table eval-set-table">
                <thead><tr>
                    <th scope="col" class="num">"Row"</th>
                    <th scope="col">"Item id"</th>
                    <th scope="col">"Question"</th>
                    <th scope="col">"Accepted answer"</th>
                    <th scope="col">"Accepted passage ids"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
    .into_any()
}

#[component]
fn NewVersionForm(pilot_id: i64, latest: Option<u32>, refresh: RwSignal<u32>) -> impl IntoView {
    let start = ServerAction::<NewEvalSetVersion>::new();
    refresh_after(start, refresh);
    let label = match latest {
        Some(n) => format!("Start version {} from version {n}", n + 1),
        None => "Start version 1 (empty)".into(),
    };
    view! {
        <section class="card form-card">
            <p class="small">"Approved versions cannot change. A change is a new draft version, copied from the latest, that needs approval again; runs keep the version they were read against."</p>
            {action_error(start)}
            <ActionForm action=start attr:class="form-inline">
                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                <button type="submit" class="button">{label}</button>
            </ActionForm>
        </section>
    }
}

/// The open draft: every row editable in place, a row to add, and approval.
#[component]
fn DraftEditor(version: EvalSetVersion, refresh: RwSignal<u32>) -> impl IntoView {
    let save = ServerAction::<SaveEvalItem>::new();
    let remove = ServerAction::<RemoveEvalItem>::new();
    let approve = ServerAction::<ApproveEvalSet>::new();
    refresh_after(save, refresh);
    refresh_after(remove, refresh);
    refresh_after(approve, refresh);
    let (pilot_id, number, revision) = (version.pilot_id, version.number, version.revision);
    let hidden = move || {
        view! {
            <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
            <input type="hidden" name="version" value=number.to_string()/>
            <input type="hidden" name="revision" value=revision.to_string()/>
        }
    };
    let cell = |form: String, name: &'static str, label: String, value: String, mono: bool| {
        view! {
            <input form=form name=name value=value aria-label=label class:mono=mono autocomplete="off"/>
        }
    };
    let rows = version
        .set
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let form = format!("row-{i}");
            let row = i + 1;
            view! {
                <tr>
                    <td class="num">{row}</td>
                    <td>{cell(form.clone(), "item_id", format!("Row {row} item id"), item.id.clone(), true)}</td>
                    <td>{cell(form.clone(), "question", format!("Row {row} question"), item.question.clone(), false)}</td>
                    <td>{cell(form.clone(), "accepted_answer", format!("Row {row} accepted answer"), item.accepted_answer.clone(), false)}</td>
                    <td>{cell(form.clone(), "accepted_passages", format!("Row {row} accepted passage ids"), item.accepted_passages.join(" | "), true)}</td>
                    <td class="row-actions">
                        <ActionForm action=save attr:id=form.clone() attr:class="inline-form">
                            {hidden()}
                            <input type="hidden" name="index" value=i.to_string()/>
                            <button type="submit" class="button button-small" aria-label=format!("Save row {row}")>"Save"</button>
                        </ActionForm>
                        <ActionForm action=remove attr:class="inline-form">
                            {hidden()}
                            <input type="hidden" name="index" value=i.to_string()/>
                            <button type="submit" class="button button-small button-quiet" aria-label=format!("Remove row {row}")>"Remove"</button>
                        </ActionForm>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let next = version.set.items.len() + 1;
    let empty = version.set.items.is_empty();
    view! {
        {version_head(&version, None)}
        <section class="card" id="set-draft">
            <h2>{format!("Questions of draft version {number}")}</h2>
            <p class="small muted">"Edit a row and press Enter or Save. Accepted passage ids: separated by |, commas or spaces; leave empty when the question has none (its retrieval is not scored)."</p>
            {action_error(save)}
            {action_error(remove)}
            <table class="table eval-set-table eval-set-edit">
                <thead><tr>
                    <th scope="col" class="num">"Row"</th>
                    <th scope="col">"Item id"</th>
                    <th scope="col">"Question"</th>
                    <th scope="col">"Accepted answer"</th>
                    <th scope="col">"Accepted passage ids"</th>
                    <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                </tr></thead>
                <tbody>
                    {rows}
                    <tr class="new-row">
                        <td class="num">{next}</td>
                        <td>{cell("row-new".into(), "item_id", "New row item id".into(), String::new(), true)}</td>
                        <td>{cell("row-new".into(), "question", "New row question".into(), String::new(), false)}</td>
                        <td>{cell("row-new".into(), "accepted_answer", "New row accepted answer".into(), String::new(), false)}</td>
                        <td>{cell("row-new".into(), "accepted_passages", "New row accepted passage ids".into(), String::new(), true)}</td>
                        <td class="row-actions">
                            <ActionForm action=save attr:id="row-new" attr:class="inline-form">
                                {hidden()}
                                <input type="hidden" name="index" value=""/>
                                <button type="submit" class="button button-small button-primary">"Add row"</button>
                            </ActionForm>
                        </td>
                    </tr>
                </tbody>
            </table>
        </section>
        <section class="card form-card" id="approve-set">
            <h2>{format!("Approve version {number}")}</h2>
            <p class="small">"Once approved the version is frozen: runs are read against it and record its number. A later change is a new version."</p>
            {action_error(approve)}
            <ActionForm action=approve attr:class="form-inline">
                {hidden()}
                <button type="submit" class="button button-primary" disabled=empty>{format!("Approve version {number}")}</button>
            </ActionForm>
        </section>
    }
}
