//! The list of pilots the signed-in user may see (a server-rendered fragment, see
//! [`crate::components::fragment`]).

use crate::components::{Fragment, fragment_view};
use crate::error::AppError;
use leptos::prelude::*;

#[component]
pub fn PilotsPage() -> impl IntoView {
    fragment_view("Loading pilots…", || (), |_| pilots_page())
}

/// The pilots page's content: the pilots the signed-in user may see, newest update first.
#[server(endpoint = "page_pilots")]
pub async fn pilots_page() -> Result<Fragment, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let filter = (!user.role.is_staff()).then_some(user.organisation_id);
            let list = services.store.list_pilots(filter).await?;
            let waiting = desk::plans::service::waiting_for(&services, &user).await?;
            let verdicts = desk::overview::kept_verdicts(&services, &list).await?;
            Ok(Fragment::render(
                "Pilots",
                view! {
                    {render::approval_inbox(waiting)}
                    {render::pilots(list, verdicts, user.role.is_staff(), user.role.can_edit_pilots())}
                },
            ))
        }
        .await,
    )
}

#[cfg(feature = "ssr")]
mod render {
    use super::or_dash;
    use crate::components::{EmptyState, PageHeader, StatusBadge};
    use crate::model::Pilot;
    use desk::plans::service::WaitingApproval;
    use leptos::prelude::*;

    /// Plans submitted for the viewer's approval (not their own drafts), oldest first: the
    /// approvers' inbox. Nothing when none waits.
    pub fn approval_inbox(waiting: Vec<WaitingApproval>) -> impl IntoView + use<> {
        (!waiting.is_empty()).then(|| {
            let count = waiting.len();
            view! {
                <section class="card approval-inbox" id="approvals" aria-label="Plans waiting for your approval">
                    <h2>{format!("Plans waiting for your approval ({count})")}</h2>
                    <ul class="inbox">
                        {waiting.into_iter().map(|w| view! {
                            <li>
                                <a class="strong" href=format!("/pilots/{}/plan?version={}", w.pilot_id, w.version)>
                                    {format!("{} · version {}", w.pilot_name, w.version)}
                                </a>
                                <span class="muted">{format!(
                                    " for {} · submitted by {} on {} (UTC)",
                                    w.organisation_name,
                                    w.submitted_by_name,
                                    engine::clock::utc_minute(w.submitted_ms)
                                )}</span>
                                {w.amendment_reason.map(|r| view! { <p class="small">{format!("Amendment: {r}")}</p> })}
                            </li>
                        }).collect_view()}
                    </ul>
                </section>
            }
        })
    }

    /// A pilot's verdict in the list: the outcome as a badge and the tally; "being graded" when
    /// this instance has not graded its current state yet (it does so in the background).
    fn verdict_cell(line: Option<&desk::overview::VerdictLine>) -> AnyView {
        use engine::verdict::PlanOutcome;
        let Some(line) = line else {
            return view! { <span class="muted small">"being graded…"</span> }.into_any();
        };
        let (class, label) = match line.outcome {
            None => {
                return view! { <span class="muted small">"no approved plan"</span> }.into_any();
            }
            Some(PlanOutcome::Passed) => ("badge badge-pass", "Passed"),
            Some(PlanOutcome::Failed) => ("badge badge-fail", "Missed"),
            Some(PlanOutcome::Incomplete) => ("badge", "Incomplete"),
        };
        view! {
            <span class=class>{label}</span>
            <span class="small muted verdict-tally">{format!(" {}", line.tally)}</span>
        }
        .into_any()
    }

    pub fn pilots(
        list: Vec<Pilot>,
        verdicts: std::collections::HashMap<i64, desk::overview::VerdictLine>,
        staff: bool,
        can_create: bool,
    ) -> impl IntoView + use<> {
        let subtitle = if staff {
            "Every customer's pilots, most recently updated first."
        } else {
            "Your organisation's pilots."
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
                                    <th scope="col">"Verdict"</th>
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
                                            <td class="verdict-cell">{verdict_cell(verdicts.get(&pilot.id))}</td>
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
        }
    }
}

/// The text, or an en dash for "not noted".
#[cfg(feature = "ssr")]
pub fn or_dash(text: &str) -> String {
    if text.trim().is_empty() {
        "–".to_string()
    } else {
        text.to_string()
    }
}
