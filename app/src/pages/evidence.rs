//! A pilot's evidence files: the upload form (staff) and the list of everything stored (a
//! server-rendered fragment, see [`crate::components::fragment`], reloaded after an upload).

use super::params::pilot_id_param;
#[cfg(feature = "ssr")]
use crate::api::load_tests::EvidenceListRow;
use crate::api::pilots::get_pilot;
use crate::components::upload::EvidenceUpload;
use crate::components::{ErrorNotice, Fragment, PageHeader, fragment_or_error};
use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// `12.3 KiB`.
#[cfg(feature = "ssr")]
pub fn fmt_bytes(bytes: i64) -> String {
    let b = bytes as f64;
    if b < 1024.0 {
        format!("{bytes} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / 1024.0 / 1024.0)
    } else {
        format!("{:.2} GiB", b / 1024.0 / 1024.0 / 1024.0)
    }
}

#[cfg(feature = "ssr")]
#[component]
fn EvidenceTable(rows: Vec<EvidenceListRow>, pilot_id: i64) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="table evidence-table">
                <thead><tr>
                    <th scope="col">"#"</th>
                    <th scope="col">"File"</th>
                    <th scope="col">"Kind"</th>
                    <th scope="col">"Tool / version"</th>
                    <th scope="col" class="num">"Points"</th>
                    <th scope="col">"Run context"</th>
                    <th scope="col">"SHA-256"</th>
                    <th scope="col" class="num">"Size"</th>
                    <th scope="col">"Uploaded"</th>
                </tr></thead>
                <tbody>
                    {rows.into_iter().map(|row| {
                        let f = row.file;
                        let is_load_test = f.kind == "load_test";
                        let context = row.run_context.map(|c| c.summary()).unwrap_or_default();
                        view! {
                            <tr>
                                <td class="muted">{f.id}</td>
                                <td>
                                    {if is_load_test {
                                        view! { <a href=format!("/pilots/{pilot_id}/load-tests#run-{}", f.id)>{f.file_name.clone()}</a> }.into_any()
                                    } else {
                                        view! { <span>{f.file_name.clone()}</span> }.into_any()
                                    }}
                                </td>
                                <td><span class="badge">{f.kind.replace('_', " ")}</span></td>
                                <td>{row.tool}</td>
                                <td class="num">{if is_load_test { row.points.to_string() } else { "–".into() }}</td>
                                <td class="small">{context}</td>
                                <td class="mono small" title=f.sha256.clone()>{format!("{}…", &f.sha256[..f.sha256.len().min(12)])}</td>
                                <td class="num">{fmt_bytes(f.size_bytes)}</td>
                                <td class="small">
                                    {engine::clock::utc_minute(f.uploaded_ms)}<br/>
                                    <span class="muted">{if f.uploaded_by.is_empty() { "a deleted account".to_string() } else { f.uploaded_by.clone() }}</span>
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
pub fn EvidencePage() -> impl IntoView {
    let id = pilot_id_param();
    let refresh = RwSignal::new(0_u32);
    let pilot = crate::components::page_resource(id, get_pilot);
    let list = crate::components::page_resource(
        move || (id(), refresh.get()),
        |(id, _)| evidence_list_page(id),
    );
    let query = use_query_map();
    let outcome = move || {
        let q = query.read();
        if let Some(error) = q.get("error") {
            Some(view! { <div class="notice notice-error" role="alert">{error}</div> }.into_any())
        } else {
            q.get("stored").map(|stored| {
                view! { <div class="notice notice-ok" role="status">{format!("Stored as evidence #{stored}.")}</div> }.into_any()
            })
        }
    };
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let data = match pilot.await {
                    Ok(data) => data,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                let p = data.pilot;
                view! {
                    <Title text=format!("Evidence · {}", p.name)/>
                    <nav class="breadcrumbs" aria-label="Breadcrumb">
                        <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / Evidence"
                    </nav>
                    <PageHeader title="Evidence" subtitle="Load-test results and start-up logs of this pilot. Raw files are kept under their SHA-256 for re-analysis and audit.">
                        <a class="button" href=format!("/pilots/{}/load-tests", p.id)>"Load-test curves"</a>
                    </PageHeader>
                    {outcome}
                    {data.can_edit.then(|| view! { <EvidenceUpload pilot_id=p.id on_uploaded=move |_| refresh.update(|n| *n += 1)/> })}
                    <section class="card evidence-list">
                        <h2>"Stored files"</h2>
                        <Transition fallback=|| view! { <p class="loading">"Loading…"</p> }>
                            {move || Suspend::new(async move { fragment_or_error(list.await) })}
                        </Transition>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}

/// The list of the pilot's stored evidence files, newest first (the page's fragment).
#[server(endpoint = "page_evidence_list")]
pub async fn evidence_list_page(pilot_id: i64) -> Result<Fragment, AppError> {
    let data = crate::api::load_tests::list_evidence_files(pilot_id).await?;
    let title = format!("Evidence · {}", data.pilot.name);
    Ok(Fragment::render(
        title,
        if data.files.is_empty() {
            view! {
                <div class="empty-state">
                    <h3>"No evidence yet"</h3>
                    <p>"Upload load-test results (or send them from CI with the REST API) to draw this pilot's curves."</p>
                </div>
            }
            .into_any()
        } else {
            view! { <EvidenceTable rows=data.files pilot_id=data.pilot.id/> }.into_any()
        },
    ))
}
