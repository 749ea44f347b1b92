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
use crate::components::{ErrorNotice, PageHeader, lang};
use engine::locale::Lang;
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
    let lang = lang();
    view! {
        <Transition fallback=move || view! { <p class="loading">{lang.pick("Loading the evaluation set…", "Evaluationsdatensatz wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(page) => set_page(page, refresh, lang),
                    Err(error) => view! { <Title text=lang.pick("Not found", "Nicht gefunden")/><ErrorNotice error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

fn status_badge(version: &EvalSetVersion, lang: Lang) -> AnyView {
    if version.approved {
        view! { <span class="badge badge-pass">{lang.pick("Approved", "Freigegeben")}</span> }
            .into_any()
    } else {
        view! { <span class="badge badge-warn">{lang.pick("Draft", "Entwurf")}</span> }.into_any()
    }
}

/// Where a version came from, in `lang`: desk words it in English (`upload of set.csv
/// (evidence #3)`, `started from version 2`, `…, edited on the page`); anything else stays.
fn source_in(source: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return source.to_string();
    }
    const EDITED: &str = "edited on the page";
    let (origin, edited) = match source.strip_suffix(EDITED) {
        Some(rest) => (rest.strip_suffix(", ").unwrap_or(rest), true),
        None => (source, false),
    };
    let origin = if origin == "started on the page" {
        "auf der Seite begonnen".to_string()
    } else if let Some(n) = origin.strip_prefix("started from version ") {
        format!("aus Version {n} begonnen")
    } else if let Some(rest) = origin.strip_prefix("upload of ") {
        match rest
            .strip_suffix(')')
            .and_then(|r| r.rsplit_once(" (evidence #"))
        {
            Some((file, id)) => format!("Upload von {file} (Nachweis #{id})"),
            None => format!("Upload von {rest}"),
        }
    } else {
        origin.to_string()
    };
    match (origin.is_empty(), edited) {
        (_, false) => origin,
        (true, true) => "auf der Seite bearbeitet".to_string(),
        (false, true) => format!("{origin}, auf der Seite bearbeitet"),
    }
}

fn set_page(page: EvalSetPage, refresh: RwSignal<u32>, lang: Lang) -> AnyView {
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
                if v.approved {
                    ""
                } else {
                    lang.pick(" (draft)", " (Entwurf)")
                },
                if Some(v.number) == page.runs_against {
                    lang.pick(" · runs", " · Läufe")
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
                <h3>{lang.pick("No evaluation set yet", "Noch kein Evaluationsdatensatz")}</h3>
                <p>{lang.pick(
                    "Upload the set (CSV or JSON Lines: id, question, accepted_answer, accepted_passages) on the evidence page, or start one here and type the questions in.",
                    "Laden Sie den Datensatz (CSV oder JSON Lines: id, question, accepted_answer, accepted_passages) auf der Nachweisseite hoch, oder beginnen Sie hier einen und tippen Sie die Fragen ein.",
                )}</p>
            </section>
        }
        .into_any(),
        Some(version) if !version.approved && page.can_edit => {
            view! { <DraftEditor version refresh lang/> }.into_any()
        }
        Some(version) => view! {
            {version_head(&version, page.runs_against, lang)}
            {items_table(&version, lang)}
        }
        .into_any(),
    };
    let set = lang.pick("Evaluation set", "Evaluationsdatensatz");
    view! {
        <Title text=format!("{set} · {}", pilot.name)/>
        <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
            <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "
            <a href=format!("/pilots/{}", pilot.id)>{pilot.name.clone()}</a>" / "
            <a href=format!("/pilots/{}/quality", pilot.id)>{lang.pick("Quality", "Qualität")}</a>" / "
            <span>{set}</span>
        </nav>
        <PageHeader
            title=set
            subtitle=lang.pick(
                "The questions, accepted answers and accepted passages every run is scored against. Versioned like the plan: approved versions are frozen, and each run records the version it was read against.",
                "Die Fragen, anerkannten Antworten und anerkannten Passagen, an denen jeder Lauf gemessen wird. Versioniert wie der Plan: Freigegebene Versionen sind eingefroren, und jeder Lauf hält die Version fest, gegen die er gelesen wurde.",
            )
        />
        {returned_errors(refresh)}
        {(!page.versions.is_empty()).then(|| view! { <nav class="plan-tabs version-tabs" aria-label=lang.pick("Versions", "Versionen")>{tabs}</nav> })}
        {(!page.can_edit && !page.versions.is_empty()).then(|| view! {
            <p class="notice notice-info">{lang.pick(
                "You see the approved versions of the evaluation set; drafts stay with the assessment team.",
                "Sie sehen die freigegebenen Versionen des Evaluationsdatensatzes; Entwürfe bleiben beim Bewertungsteam.",
            )}</p>
        })}
        {(page.can_edit && !has_draft).then(|| view! { <NewVersionForm pilot_id=pilot.id latest refresh lang/> })}
        {body}
    }
    .into_any()
}

fn version_head(version: &EvalSetVersion, runs_against: Option<u32>, lang: Lang) -> AnyView {
    let approved = version.approved_ms.map(|at| {
        let who = version.approved_by_name.clone().unwrap_or_default();
        match lang {
            Lang::En => format!("Approved by {who} on {}.", lang.date_time(at)),
            Lang::De => format!("Freigegeben von {who} am {}.", lang.date_time(at)),
        }
    });
    let runs = if runs_against == Some(version.number) {
        if version.approved {
            lang.pick(
                "Runs uploaded now are read against this version.",
                "Jetzt hochgeladene Läufe werden gegen diese Version gelesen.",
            )
        } else {
            lang.pick(
                "No version is approved yet: the next run uploaded is read against this draft and approves it.",
                "Noch ist keine Version freigegeben: Der nächste hochgeladene Lauf wird gegen diesen Entwurf gelesen und gibt ihn frei.",
            )
        }
    } else {
        ""
    };
    let source = if version.source.is_empty() {
        lang.pick("typed in", "eingetippt").to_string()
    } else {
        source_in(&version.source, lang)
    };
    let questions = version.set.items.len();
    view! {
        <section class="card" id="set-version">
            <div class="card-head">
                <h2>{match lang {
                    Lang::En => format!("Version {} · {questions} questions", version.number),
                    Lang::De => format!("Version {} · {questions} Fragen", version.number),
                }}</h2>
                {status_badge(version, lang)}
            </div>
            <p class="small muted">{match lang {
                Lang::En => format!(
                    "{source} · started by {} on {} · last saved {}",
                    version.created_by_name,
                    lang.date_time(version.created_ms),
                    lang.date_time(version.updated_ms)
                ),
                Lang::De => format!(
                    "{source} · begonnen von {} am {} · zuletzt gespeichert {}",
                    version.created_by_name,
                    lang.date_time(version.created_ms),
                    lang.date_time(version.updated_ms)
                ),
            }}</p>
            {approved.map(|a| view! { <p class="small">{a}</p> })}
            {(!runs.is_empty()).then(|| view! { <p class="small">{runs}</p> })}
        </section>
    }
    .into_any()
}

fn items_table(version: &EvalSetVersion, lang: Lang) -> AnyView {
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
                    <th scope="col" class="num">{lang.pick("Row", "Zeile")}</th>
                    <th scope="col">{lang.pick("Item id", "Frage-ID")}</th>
                    <th scope="col">{lang.pick("Question", "Frage")}</th>
                    <th scope="col">{lang.pick("Accepted answer", "Anerkannte Antwort")}</th>
                    <th scope="col">{lang.pick("Accepted passage ids", "Anerkannte Passagen-IDs")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
    .into_any()
}

#[component]
fn NewVersionForm(
    pilot_id: i64,
    latest: Option<u32>,
    refresh: RwSignal<u32>,
    lang: Lang,
) -> impl IntoView {
    let start = ServerAction::<NewEvalSetVersion>::new();
    refresh_after(start, refresh);
    let label = match (latest, lang) {
        (Some(n), Lang::En) => format!("Start version {} from version {n}", n + 1),
        (Some(n), Lang::De) => format!("Version {} aus Version {n} beginnen", n + 1),
        (None, _) => lang
            .pick("Start version 1 (empty)", "Version 1 beginnen (leer)")
            .into(),
    };
    view! {
        <section class="card form-card">
            <p class="small">{lang.pick(
                "Approved versions cannot change. A change is a new draft version, copied from the latest, that needs approval again; runs keep the version they were read against.",
                "Freigegebene Versionen lassen sich nicht ändern. Eine Änderung ist eine neue Entwurfsversion, kopiert von der neuesten, die erneut freigegeben werden muss; Läufe behalten die Version, gegen die sie gelesen wurden.",
            )}</p>
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
fn DraftEditor(version: EvalSetVersion, refresh: RwSignal<u32>, lang: Lang) -> impl IntoView {
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
            let row_label = |en: &str, de: &str| match lang {
                Lang::En => format!("Row {row} {en}"),
                Lang::De => format!("Zeile {row} {de}"),
            };
            let (save_label, remove_label) = match lang {
                Lang::En => (format!("Save row {row}"), format!("Remove row {row}")),
                Lang::De => (format!("Zeile {row} speichern"), format!("Zeile {row} entfernen")),
            };
            view! {
                <tr>
                    <td class="num">{row}</td>
                    <td>{cell(form.clone(), "item_id", row_label("item id", "Frage-ID"), item.id.clone(), true)}</td>
                    <td>{cell(form.clone(), "question", row_label("question", "Frage"), item.question.clone(), false)}</td>
                    <td>{cell(form.clone(), "accepted_answer", row_label("accepted answer", "anerkannte Antwort"), item.accepted_answer.clone(), false)}</td>
                    <td>{cell(form.clone(), "accepted_passages", row_label("accepted passage ids", "anerkannte Passagen-IDs"), item.accepted_passages.join(" | "), true)}</td>
                    <td class="row-actions">
                        <ActionForm action=save attr:id=form.clone() attr:class="inline-form">
                            {hidden()}
                            <input type="hidden" name="index" value=i.to_string()/>
                            <button type="submit" class="button button-small" aria-label=save_label>{lang.pick("Save", "Speichern")}</button>
                        </ActionForm>
                        <ActionForm action=remove attr:class="inline-form">
                            {hidden()}
                            <input type="hidden" name="index" value=i.to_string()/>
                            <button type="submit" class="button button-small button-quiet" aria-label=remove_label>{lang.pick("Remove", "Entfernen")}</button>
                        </ActionForm>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let next = version.set.items.len() + 1;
    let empty = version.set.items.is_empty();
    let new_label = |en: &str, de: &str| lang.pick(en, de).to_string();
    let approve_label = match lang {
        Lang::En => format!("Approve version {number}"),
        Lang::De => format!("Version {number} freigeben"),
    };
    view! {
        {version_head(&version, None, lang)}
        <section class="card" id="set-draft">
            <h2>{match lang {
                Lang::En => format!("Questions of draft version {number}"),
                Lang::De => format!("Fragen der Entwurfsversion {number}"),
            }}</h2>
            <p class="small muted">{lang.pick(
                "Edit a row and press Enter or Save. Accepted passage ids: separated by |, commas or spaces; leave empty when the question has none (its retrieval is not scored).",
                "Bearbeiten Sie eine Zeile und drücken Sie Enter oder „Speichern“. Anerkannte Passagen-IDs: durch |, Kommas oder Leerzeichen getrennt; leer lassen, wenn die Frage keine hat (ihre Suche wird dann nicht bewertet).",
            )}</p>
            {action_error(save)}
            {action_error(remove)}
            <table class="table eval-set-table eval-set-edit">
                <thead><tr>
                    <th scope="col" class="num">{lang.pick("Row", "Zeile")}</th>
                    <th scope="col">{lang.pick("Item id", "Frage-ID")}</th>
                    <th scope="col">{lang.pick("Question", "Frage")}</th>
                    <th scope="col">{lang.pick("Accepted answer", "Anerkannte Antwort")}</th>
                    <th scope="col">{lang.pick("Accepted passage ids", "Anerkannte Passagen-IDs")}</th>
                    <th scope="col"><span class="visually-hidden">{lang.pick("Actions", "Aktionen")}</span></th>
                </tr></thead>
                <tbody>
                    {rows}
                    <tr class="new-row">
                        <td class="num">{next}</td>
                        <td>{cell("row-new".into(), "item_id", new_label("New row item id", "Neue Zeile Frage-ID"), String::new(), true)}</td>
                        <td>{cell("row-new".into(), "question", new_label("New row question", "Neue Zeile Frage"), String::new(), false)}</td>
                        <td>{cell("row-new".into(), "accepted_answer", new_label("New row accepted answer", "Neue Zeile anerkannte Antwort"), String::new(), false)}</td>
                        <td>{cell("row-new".into(), "accepted_passages", new_label("New row accepted passage ids", "Neue Zeile anerkannte Passagen-IDs"), String::new(), true)}</td>
                        <td class="row-actions">
                            <ActionForm action=save attr:id="row-new" attr:class="inline-form">
                                {hidden()}
                                <input type="hidden" name="index" value=""/>
                                <button type="submit" class="button button-small button-primary">{lang.pick("Add row", "Zeile hinzufügen")}</button>
                            </ActionForm>
                        </td>
                    </tr>
                </tbody>
            </table>
        </section>
        <section class="card form-card" id="approve-set">
            <h2>{approve_label.clone()}</h2>
            <p class="small">{lang.pick(
                "Once approved the version is frozen: runs are read against it and record its number. A later change is a new version.",
                "Nach der Freigabe ist die Version eingefroren: Läufe werden gegen sie gelesen und halten ihre Nummer fest. Eine spätere Änderung ist eine neue Version.",
            )}</p>
            {action_error(approve)}
            <ActionForm action=approve attr:class="form-inline">
                {hidden()}
                <button type="submit" class="button button-primary" disabled=empty>{approve_label}</button>
            </ActionForm>
        </section>
    }
}
