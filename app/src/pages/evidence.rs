//! A pilot's evidence files: the upload form (staff) and the list of everything stored (a
//! server-rendered fragment, see [`crate::components::fragment`], reloaded after an upload).
//!
//! Without JavaScript the upload form's "Check before storing" stages the file on the server
//! and comes back with `?check=<token>`: the page then shows that upload's check (what will be
//! recorded, each value's source, the warnings) with plain "Store" and "Discard" forms (see
//! `server::routes::evidence_form`), so a file is never stored with a run context nobody saw.

use super::params::pilot_id_param;
#[cfg(feature = "ssr")]
use crate::api::load_tests::EvidenceListRow;
use crate::api::pilots::get_pilot;
use crate::components::upload::EvidenceUpload;
use crate::components::{ErrorNotice, Fragment, PageHeader, fragment_or_error};
use crate::error::AppError;
use engine::locale::Lang;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// The first 12 hex digits of a SHA-256, as the pages show a file's hash (the whole one in a
/// title or on the file's own record).
#[cfg(feature = "ssr")]
pub fn sha256_prefix(sha256: &str) -> &str {
    sha256.get(..12).unwrap_or(sha256)
}

/// An evidence kind in words: `load test`, `metrics scrape`, … / `Lasttest`, `/metrics-Scrape`, ….
#[cfg(feature = "ssr")]
fn kind_words(kind: crate::model::EvidenceKind, lang: Lang) -> String {
    use crate::model::EvidenceKind as K;
    match lang {
        Lang::En => kind.as_str().replace('_', " "),
        Lang::De => match kind {
            K::LoadTest => "Lasttest",
            K::GatewayLog => "Gateway-Log",
            K::MetricsScrape => "/metrics-Scrape",
            K::VllmStartupLog => "vLLM-Start-Log",
            K::EvalSet => "Evaluationsdatensatz",
            K::EvalRun => "Evaluationslauf",
            K::LmEvalResults => "lm-eval-Ergebnisse",
        }
        .into(),
    }
}

/// `12.3 KiB` / `12,3 KiB`.
#[cfg(feature = "ssr")]
pub fn fmt_bytes(bytes: i64, lang: Lang) -> String {
    let b = bytes as f64;
    let text = if b < 1024.0 {
        format!("{bytes} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / 1024.0 / 1024.0)
    } else {
        format!("{:.2} GiB", b / 1024.0 / 1024.0 / 1024.0)
    };
    match lang {
        Lang::En => text,
        Lang::De => text.replace('.', ","),
    }
}

/// Who uploaded or changed a file: their address, `command line`, else `a deleted account`.
#[cfg(feature = "ssr")]
fn person(name: String, lang: Lang) -> String {
    match (name.as_str(), lang) {
        ("", _) => lang
            .pick("a deleted account", "ein gelöschtes Konto")
            .to_string(),
        // `server evidence withdraw|restore` (see `desk::evidence_history`).
        ("command line", Lang::De) => "der Befehlszeile".into(),
        _ => name,
    }
}

/// Where a recorded run-context value came from: `from the file` / `aus der Datei`.
#[cfg(feature = "ssr")]
fn source_words(
    source: engine::run_context::provenance::ContextSource,
    lang: Lang,
) -> &'static str {
    use engine::run_context::provenance::ContextSource as S;
    match (source, lang) {
        (_, Lang::En) => source.label(),
        (S::File, Lang::De) => "aus der Datei",
        (S::Form, Lang::De) => "eingegeben",
        (S::ServeCommand, Lang::De) => "aus dem eingefügten Befehl",
        (S::PilotNotes, Lang::De) => "aus den Notizen des Piloten",
    }
}

/// A step of a file's history: `Uploaded`, `Withdrawn`, `Restored` / `Hochgeladen`, ….
#[cfg(feature = "ssr")]
fn action_words(action: desk::evidence_history::HistoryAction, lang: Lang) -> &'static str {
    use desk::evidence_history::HistoryAction as A;
    match (action, lang) {
        (_, Lang::En) => action.label(),
        (A::Uploaded, Lang::De) => "Hochgeladen",
        (A::Withdrawn, Lang::De) => "Zurückgezogen",
        (A::Restored, Lang::De) => "Wiederhergestellt",
    }
}

#[cfg(feature = "ssr")]
#[component]
fn EvidenceTable(rows: Vec<EvidenceListRow>, pilot_id: i64, can_change: bool) -> impl IntoView {
    let lang = crate::components::lang();
    view! {
        <div class="table-scroll">
            <table class="table evidence-table">
                <thead><tr>
                    <th scope="col">"#"</th>
                    <th scope="col">{lang.pick("File", "Datei")}</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">{lang.pick("Kind", "Art")}</th>
                    <th scope="col">{lang.pick("Tool / version", "Werkzeug / Version")}</th>
                    <th scope="col" class="num">{lang.pick("Points", "Punkte")}</th>
                    <th scope="col">{lang.pick("Run context", "Laufkontext")}</th>
                    <th scope="col">"SHA-256"</th>
                    <th scope="col" class="num">{lang.pick("Size", "Größe")}</th>
                    <th scope="col">{lang.pick("Uploaded", "Hochgeladen")}</th>
                </tr></thead>
                <tbody>
                    {rows.into_iter().map(|row| {
                        let f = row.file;
                        let is_load_test = f.kind == crate::model::EvidenceKind::LoadTest;
                        let context = row.run_context.map(|c| c.summary_in(lang)).unwrap_or_default();
                        let withdrawn = f.withdrawn_ms.is_some();
                        // Evaluation sets are versioned, not withdrawn.
                        let can_change = can_change && f.kind != crate::model::EvidenceKind::EvalSet;
                        let status = view! { <EvidenceStatusCell pilot_id evidence_id=f.id withdrawn history=row.history can_change/> };
                        view! {
                            <tr class:withdrawn=withdrawn id=format!("evidence-{}", f.id)>
                                <td class="muted">{f.id}</td>
                                <td>
                                    {if is_load_test {
                                        view! { <a href=format!("/pilots/{pilot_id}/load-tests#run-{}", f.id)>{f.file_name.clone()}</a> }.into_any()
                                    } else {
                                        view! { <span>{f.file_name.clone()}</span> }.into_any()
                                    }}
                                </td>
                                {status}
                                <td><span class="badge">{kind_words(f.kind, lang)}</span></td>
                                // The kind's badge names what the file is; this column names
                                // the tool that wrote it, where one did.
                                <td>{match f.kind {
                                    _ if is_load_test => row.tool,
                                    crate::model::EvidenceKind::VllmStartupLog => "vLLM".to_string(),
                                    _ => "–".to_string(),
                                }}</td>
                                <td class="num">{if is_load_test { row.points.to_string() } else { "–".into() }}</td>
                                <td class="small">{context}</td>
                                <td class="mono small" title=f.sha256.clone()>{format!("{}…", sha256_prefix(&f.sha256))}</td>
                                <td class="num">{fmt_bytes(f.size_bytes, lang)}</td>
                                <td class="small">
                                    {lang.date_time(f.uploaded_ms)}<br/>
                                    <span class="muted">{person(f.uploaded_by.clone(), lang)}</span>
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// A file's status with its withdrawals and restorations, and (for editors) the form that
/// withdraws or restores it: a plain form posting to `/pilots/{id}/evidence/{eid}/withdraw`
/// or `…/restore`, so it works inside the server-rendered list.
#[cfg(feature = "ssr")]
#[component]
fn EvidenceStatusCell(
    pilot_id: i64,
    evidence_id: i64,
    withdrawn: bool,
    history: Vec<desk::evidence_history::HistoryEntry>,
    can_change: bool,
) -> impl IntoView {
    let lang = crate::components::lang();
    let steps: Vec<_> = history.into_iter().skip(1).collect();
    let (verb, label, help, button) = if withdrawn {
        (
            "restore",
            lang.pick("Restore…", "Wiederherstellen…"),
            lang.pick(
                "Why it is evidence again",
                "Warum die Datei wieder als Nachweis gilt",
            ),
            lang.pick("Restore", "Wiederherstellen"),
        )
    } else {
        (
            "withdraw",
            lang.pick("Withdraw…", "Zurückziehen…"),
            lang.pick(
                "Why it no longer counts (kept in its history and the report)",
                "Warum die Datei nicht mehr zählt (bleibt in ihrem Verlauf und im Bericht erhalten)",
            ),
            lang.pick("Withdraw", "Zurückziehen"),
        )
    };
    let field = format!("reason-{evidence_id}");
    view! {
        <td class="small evidence-status">
            {if withdrawn {
                view! { <span class="badge badge-warn">{lang.pick("Withdrawn", "Zurückgezogen")}</span> }.into_any()
            } else {
                view! { <span class="badge badge-pass">{lang.pick("In force", "Gültig")}</span> }.into_any()
            }}
            {(!steps.is_empty()).then(|| view! {
                <ul class="history">
                    {steps.into_iter().map(|step| view! {
                        <li>
                            <strong>{action_words(step.action, lang)}</strong>" "
                            {lang.date_time(step.at_ms)}{lang.pick(" by ", " von ")}
                            {person(step.by, lang)}
                            {step.reason.map(|r| format!(": {r}"))}
                        </li>
                    }).collect_view()}
                </ul>
            })}
            {can_change.then(|| view! {
                <details class="evidence-change">
                    <summary>{label}</summary>
                    <form method="post" action=format!("/pilots/{pilot_id}/evidence/{evidence_id}/{verb}")>
                        <label for=field.clone()>{help}</label>
                        <input id=field name="reason" type="text" required maxlength="500" autocomplete="off"/>
                        <button type="submit" class="button button-small">{button}</button>
                    </form>
                </details>
            })}
        </td>
    }
}

#[component]
pub fn EvidencePage() -> impl IntoView {
    let id = pilot_id_param();
    let refresh = RwSignal::new(0_u32);
    let pilot = crate::components::page_resource(id, get_pilot);
    let query = use_query_map();
    let lang = crate::components::lang();
    let page = move || query.read().get("page").and_then(|p| p.parse::<u32>().ok());
    let list = crate::components::page_resource(
        move || (id(), refresh.get(), page()),
        |(id, _, page)| evidence_list_page(id, page),
    );
    // Outcomes in the address are numbers only; words come as a notice kept for this user
    // (no text from the address reaches the page).
    let outcome = move || {
        let q = query.read();
        let number = |name: &str| q.get(name).and_then(|v| v.parse::<i64>().ok());
        let message = if let Some(stored) = number("stored") {
            match lang {
                Lang::En => format!("Stored as evidence #{stored}."),
                Lang::De => format!("Als Nachweis #{stored} gespeichert."),
            }
        } else if let Some(id) = number("withdrawn") {
            match lang {
                Lang::En => format!(
                    "Evidence #{id} is withdrawn: it grades nothing until it is restored. Upload the corrected file below."
                ),
                Lang::De => format!(
                    "Nachweis #{id} ist zurückgezogen: Er zählt für keine Bewertung, bis er wiederhergestellt ist. Laden Sie die korrigierte Datei unten hoch."
                ),
            }
        } else if let Some(id) = number("restored") {
            match lang {
                Lang::En => format!("Evidence #{id} is restored and grades again."),
                Lang::De => format!(
                    "Nachweis #{id} ist wiederhergestellt und zählt wieder für die Bewertung."
                ),
            }
        } else {
            return None;
        };
        Some(view! { <div class="notice notice-ok" role="status">{message}</div> })
    };
    let notice = move || query.read().get("notice");
    view! {
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading…", "Wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                let data = match pilot.await {
                    Ok(data) => data,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                let p = data.pilot;
                view! {
                    <Title text=format!("{} · {}", lang.pick("Evidence", "Nachweise"), p.name)/>
                    <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                        <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>{lang.pick(" / Evidence", " / Nachweise")}
                    </nav>
                    <PageHeader title=lang.pick("Evidence", "Nachweise") subtitle=lang.pick(
                        "Every file of this pilot. Raw files are kept under their SHA-256 for re-analysis and audit; a withdrawn file stays listed with its history but grades nothing.",
                        "Alle Dateien dieses Piloten. Rohdateien werden unter ihrem SHA-256 für erneute Auswertung und Prüfung aufbewahrt; eine zurückgezogene Datei bleibt mit ihrem Verlauf aufgeführt, zählt aber für keine Bewertung.",
                    )>
                        <a class="button" href=format!("/pilots/{}/load-tests", p.id)>{lang.pick("Load-test curves", "Lasttest-Kurven")}</a>
                    </PageHeader>
                    {outcome}
                    {notice_box(id, notice)}
                    {data.warnings.into_iter().map(|w| view! {
                        <div class="notice notice-warn" role="alert">{w}</div>
                    }).collect_view()}
                    {data.can_edit.then(|| staged_check(id, move || query.read().get("check")))}
                    {data.can_edit.then(|| view! { <EvidenceUpload pilot_id=p.id pilot=p.clone() on_uploaded=move |_| refresh.update(|n| *n += 1)/> })}
                    <section class="card evidence-list">
                        <h2>{lang.pick("Stored files", "Gespeicherte Dateien")}</h2>
                        <Transition fallback=move || view! { <p class="loading">{lang.pick("Loading…", "Wird geladen…")}</p> }>
                            {move || Suspend::new(async move { fragment_or_error(list.await) })}
                        </Transition>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}

/// The check of the upload `token()` names, when there is one: what it would record, with
/// "Store" and "Discard".
/// The notice `token` of the address, as its fragment (nothing for a token that is not the
/// viewer's).
fn notice_box(
    id: impl Fn() -> i64 + Copy + Send + Sync + 'static,
    token: impl Fn() -> Option<String> + Send + Sync + 'static,
) -> impl IntoView {
    let token = Memo::new(move |_| token());
    move || {
        token.get().map(|token| {
            crate::components::fragment_view(
                "",
                move || (id(), token.clone()),
                |(id, token)| notice_page(id, token),
            )
        })
    }
}

/// A form's notice for the viewer (see [`desk::notices`]); empty when the token is not theirs.
#[server(endpoint = "page_notice")]
pub async fn notice_page(pilot_id: i64, token: String) -> Result<Fragment, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    use desk::notices::NoticeKind;
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            let notice = desk::notices::find(&services, &user, pilot_id, &token).await?;
            let view = notice.map(|notice| match notice.kind {
                NoticeKind::Error => view! {
                    <div class="notice notice-error" role="alert">{notice.message}</div>
                }
                .into_any(),
                NoticeKind::Done => view! {
                    <div class="notice notice-ok" role="status">{notice.message}</div>
                }
                .into_any(),
            });
            Ok(Fragment::render("", view))
        }
        .await,
    )
}

fn staged_check(
    id: impl Fn() -> i64 + Copy + Send + Sync + 'static,
    token: impl Fn() -> Option<String> + Send + Sync + 'static,
) -> impl IntoView {
    let token = Memo::new(move |_| token());
    move || {
        token.get().map(|token| {
            crate::components::fragment_view(
                crate::components::tr("Loading the check…", "Prüfung wird geladen…"),
                move || (id(), token.clone()),
                |(id, token)| staged_upload_page(id, token),
            )
        })
    }
}

#[cfg(feature = "ssr")]
#[component]
fn StagedCheck(staged: desk::evidence::staged::StagedUpload, lang: Lang) -> impl IntoView {
    let action = format!(
        "/pilots/{}/evidence/staged/{}",
        staged.pilot_id, staged.token
    );
    let expires = lang.date_time(staged.expires_ms());
    let preview = staged.preview;
    let kind = kind_words(preview.kind, lang);
    let size = fmt_bytes(staged.size_bytes as i64, lang);
    let sha = sha256_prefix(&staged.sha256);
    let minutes = desk::evidence::staged::STAGED_FOR_MINUTES;
    let about = match lang {
        Lang::En => format!(
            "Nothing is stored yet. Read as {kind} · {size} · SHA-256 {sha}… · waits for your answer until {expires} ({minutes} minutes after the check)."
        ),
        Lang::De => format!(
            "Noch ist nichts gespeichert. Gelesen als {kind} · {size} · SHA-256 {sha}… · wartet bis {expires} auf Ihre Antwort ({minutes} Minuten nach der Prüfung)."
        ),
    };
    view! {
        <section class="card staged-upload" aria-labelledby="staged-title">
            <h2 id="staged-title">{lang.pick("Check before storing: ", "Vor dem Speichern prüfen: ")}{staged.file_name}</h2>
            <p class="hint">{about}</p>
            <div class="upload-recorded">
                <p class="upload-recorded-title">{lang.pick("Will be recorded", "Wird erfasst")}</p>
                <table class="upload-recorded-table">
                    {preview.recorded.into_iter().map(|line| view! {
                        <tr>
                            <th scope="row">{line.label}</th>
                            <td>
                                {line.value}
                                {line.source.map(|source| view! {
                                    " "<span class=format!("source source-{}", source.as_str())>{format!("({})", source_words(source, lang))}</span>
                                })}
                            </td>
                        </tr>
                    }).collect_view()}
                </table>
            </div>
            {(!preview.warnings.is_empty()).then(|| view! {
                <ul class="upload-warnings notice notice-warn" role="note">
                    // The importer's warnings (in English) in the reader's language; the other
                    // notes here are worded in it already and stay as they are.
                    {preview.warnings.iter().map(|w| view! { <li>{engine::ingest::warning_in(w, lang)}</li> }).collect_view()}
                </ul>
            })}
            <div class="form-actions staged-actions">
                <form method="post" action=action.clone()>
                    <button type="submit" class="button button-primary">{lang.pick("Store as evidence", "Als Nachweis speichern")}</button>
                </form>
                <form method="post" action=format!("{action}/discard")>
                    <button type="submit" class="button">{lang.pick("Discard", "Verwerfen")}</button>
                </form>
            </div>
        </section>
    }
}

/// The caller's upload `token` on pilot `pilot_id`, checked and waiting for "Store"; an upload
/// that no longer waits (stored, discarded, expired, someone else's) is said so, not an error
/// page.
#[server(endpoint = "page_staged_upload")]
pub async fn staged_upload_page(pilot_id: i64, token: String) -> Result<Fragment, AppError> {
    use crate::server::auth::{Need, editable_pilot, require};
    crate::server::respond(
        async move {
            // The language before any `.await`, while the request's context is surely here.
            let lang = crate::components::lang();
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            editable_pilot(&services.store, &user, pilot_id).await?;
            let found = desk::evidence::staged::find(&services, &user, pilot_id, &token).await;
            let view = match found {
                Ok(staged) => view! { <StagedCheck staged lang/> }.into_any(),
                Err(error) if matches!(error.plain(), desk::ServiceError::Conflict(_)) => {
                    let message = error.message_in(lang);
                    view! { <div class="notice notice-warn" role="status">{message}</div> }
                        .into_any()
                }
                Err(error) => return Err(error.into()),
            };
            let title = lang.pick("Check before storing", "Vor dem Speichern prüfen");
            Ok(Fragment::render(title, view))
        }
        .await,
    )
}

/// One page of the pilot's stored evidence files, newest first (the page's fragment).
#[server(endpoint = "page_evidence_list")]
pub async fn evidence_list_page(pilot_id: i64, page: Option<u32>) -> Result<Fragment, AppError> {
    let data = crate::api::load_tests::list_evidence_files(pilot_id, page).await?;
    let lang = crate::components::lang();
    let title = format!(
        "{} · {}",
        lang.pick("Evidence", "Nachweise"),
        data.pilot.name
    );
    Ok(Fragment::render(
        title,
        if data.files.is_empty() {
            view! {
                <div class="empty-state">
                    <h3>{lang.pick("No evidence yet", "Noch keine Nachweise")}</h3>
                    <p>{lang.pick(
                        "Upload load-test results (or send them from CI with the REST API) to draw this pilot's curves.",
                        "Laden Sie Lasttest-Ergebnisse hoch (oder senden Sie sie mit der REST-API aus der CI), um die Kurven dieses Piloten zu zeichnen.",
                    )}</p>
                </div>
            }
            .into_any()
        } else {
            let base = format!("/pilots/{}/evidence", data.pilot.id);
            view! {
                <crate::components::pager::Pager page=data.page base=base.clone() noun="files"/>
                <EvidenceTable rows=data.files pilot_id=data.pilot.id can_change=data.can_edit/>
                <crate::components::pager::Pager page=data.page base noun="files"/>
            }
            .into_any()
        },
    ))
}
