//! The list of pilots the signed-in user may see.

use crate::api::pilots::list_pilots;
use crate::components::{CurrentUser, EmptyState, ErrorNotice, PageHeader, StatusBadge};
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn PilotsPage() -> impl IntoView {
    let pilots = crate::components::page_resource(|| (), |_| list_pilots());
    let user = expect_context::<CurrentUser>().0;
    view! {
        <Title text="Pilots"/>
        <Suspense fallback=|| view! { <p class="loading">"Loading pilots…"</p> }>
            {move || Suspend::new(async move {
                let user = user.await.ok().flatten();
                let staff = user.as_ref().is_some_and(|u| u.role.is_staff());
                let can_create = user.as_ref().is_some_and(|u| u.role.can_edit_pilots());
                let subtitle = if staff {
                    "Every customer's pilots, most recently updated first."
                } else {
                    "Your organisation's pilots."
                };
                let list = match pilots.await {
                    Ok(list) => list,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                let count = list.len();
                view! {
                    <PageHeader title="Pilots" subtitle=subtitle>
                        {can_create.then(|| view! { <a class="button button-primary" href="/pilots/new">"New pilot"</a> })}
                    </PageHeader>
                    {if list.is_empty() {
                        view! {
                            <EmptyState title="No pilots yet">
                                {if staff {
                                    view! { <p>"A pilot holds the plan, the evidence and the report for one customer's trial of a private LLM. "<a href="/pilots/new">"Create the first one"</a>"."</p> }.into_any()
                                } else {
                                    view! { <p>"When your vendor's assessment team sets up a pilot for your organisation, it appears here."</p> }.into_any()
                                }}
                            </EmptyState>
                        }.into_any()
                    } else {
                        view! {
                            <div class="card table-card">
                                <table class="table" id="pilots">
                                    <caption class="visually-hidden">{format!("{count} pilot(s)")}</caption>
                                    <thead>
                                        <tr>
                                            <th scope="col">"Pilot"</th>
                                            <th scope="col">"Customer"</th>
                                            <th scope="col">"Status"</th>
                                            <th scope="col">"Model"</th>
                                            <th scope="col">"Pilot hardware"</th>
                                            <th scope="col">"Serving engine"</th>
                                            <th scope="col">"Updated"</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {list.into_iter().map(|pilot| {
                                            let hardware = pilot.hardware();
                                            let serving = pilot.serving();
                                            view! {
                                                <tr>
                                                    <td><a class="strong" href=format!("/pilots/{}", pilot.id)>{pilot.name.clone()}</a></td>
                                                    <td>{pilot.organisation_name.clone()}</td>
                                                    <td><StatusBadge status=pilot.status/></td>
                                                    <td class="mono">{or_dash(&pilot.model)}</td>
                                                    <td>{or_dash(&hardware)}</td>
                                                    <td>{or_dash(&serving)}</td>
                                                    <td class="nowrap">{engine::clock::utc_date(pilot.updated_ms)}</td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any()
                    }}
                }.into_any()
            })}
        </Suspense>
    }
}

/// The text, or an en dash for "not noted".
pub fn or_dash(text: &str) -> String {
    if text.trim().is_empty() {
        "–".to_string()
    } else {
        text.to_string()
    }
}
