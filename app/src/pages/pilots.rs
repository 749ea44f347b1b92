//! The list of pilots the signed-in user may see (a server-rendered fragment, see
//! [`crate::components::fragment`]).

use crate::components::{Fragment, fragment_view};
use crate::error::AppError;
use leptos::prelude::*;

#[component]
pub fn PilotsPage() -> impl IntoView {
    fragment_view(
        crate::components::tr("Loading pilots…", "Piloten werden geladen…"),
        || (),
        |_| pilots_page(),
    )
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
                crate::components::tr("Pilots", "Piloten"),
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
    use crate::components::{EmptyState, PageHeader, StatusBadge, lang, tr};
    use crate::model::Pilot;
    use desk::plans::service::WaitingApproval;
    use leptos::prelude::*;

    /// Plans submitted for the viewer's approval (not their own drafts), oldest first: the
    /// approvers' inbox. Nothing when none waits.
    pub fn approval_inbox(waiting: Vec<WaitingApproval>) -> impl IntoView + use<> {
        (!waiting.is_empty()).then(|| {
            let count = waiting.len();
            let lang = lang();
            let heading = lang.pick("Plans waiting for your approval", "Pläne, die auf Ihre Freigabe warten");
            view! {
                <section class="card approval-inbox" id="approvals" aria-label=heading>
                    <h2>{format!("{heading} ({count})")}</h2>
                    <ul class="inbox">
                        {waiting.into_iter().map(|w| view! {
                            <li>
                                <a class="strong" href=format!("/pilots/{}/plan?version={}", w.pilot_id, w.version)>
                                    {format!("{} · {} {}", w.pilot_name, lang.pick("version", "Version"), w.version)}
                                </a>
                                <span class="muted">{match lang {
                                    engine::locale::Lang::En => format!(
                                        " for {} · submitted by {} on {}",
                                        w.organisation_name,
                                        w.submitted_by_name,
                                        lang.date_time(w.submitted_ms)
                                    ),
                                    engine::locale::Lang::De => format!(
                                        " für {} · eingereicht von {} am {}",
                                        w.organisation_name,
                                        w.submitted_by_name,
                                        lang.date_time(w.submitted_ms)
                                    ),
                                }}</span>
                                {w.amendment_reason.map(|r| view! { <p class="small">{format!("{}: {r}", lang.pick("Amendment", "Änderung"))}</p> })}
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
            return view! { <span class="muted small">{tr("being graded…", "wird bewertet…")}</span> }.into_any();
        };
        let (class, label) = match line.outcome {
            None => {
                return view! { <span class="muted small">{tr("no approved plan", "kein freigegebener Plan")}</span> }.into_any();
            }
            Some(PlanOutcome::Passed) => ("badge badge-pass", tr("Passed", "Erreicht")),
            Some(PlanOutcome::Failed) => ("badge badge-fail", tr("Missed", "Verfehlt")),
            Some(PlanOutcome::Incomplete) => ("badge", tr("Incomplete", "Unvollständig")),
        };
        view! {
            <span class=class>{label}</span>
            <span class="small muted verdict-tally">{format!(" {}", line.tally_in(lang()))}</span>
        }
        .into_any()
    }

    pub fn pilots(
        list: Vec<Pilot>,
        verdicts: std::collections::HashMap<i64, desk::overview::VerdictLine>,
        staff: bool,
        can_create: bool,
    ) -> impl IntoView + use<> {
        let lang = lang();
        let subtitle = if staff {
            lang.pick(
                "Every customer's pilots, most recently updated first.",
                "Die Piloten aller Kunden, zuletzt geänderte zuerst.",
            )
        } else {
            lang.pick(
                "Your organisation's pilots.",
                "Die Piloten Ihrer Organisation.",
            )
        };
        let count = list.len();
        view! {
            <PageHeader title=lang.pick("Pilots", "Piloten") subtitle=subtitle>
                {can_create.then(|| view! { <a class="button button-primary" href="/pilots/new">{lang.pick("New pilot", "Neuer Pilot")}</a> })}
            </PageHeader>
            {if list.is_empty() {
                view! {
                    <EmptyState title=lang.pick("No pilots yet", "Noch keine Piloten")>
                        {if staff {
                            view! { <p>{lang.pick("A pilot holds the plan, the evidence and the report for one customer's trial of a private LLM. ", "Ein Pilot enthält den Plan, die Nachweise und den Bericht zum Test eines privaten LLMs bei einem Kunden. ")}<a href="/pilots/new">{lang.pick("Create the first one", "Legen Sie den ersten an")}</a>"."</p> }.into_any()
                        } else {
                            view! { <p>{lang.pick("When your vendor's assessment team sets up a pilot for your organisation, it appears here.", "Sobald das Bewertungsteam Ihres Anbieters einen Piloten für Ihre Organisation anlegt, erscheint er hier.")}</p> }.into_any()
                        }}
                    </EmptyState>
                }.into_any()
            } else {
                view! {
                    <div class="card table-card">
                        <table class="table" id="pilots">
                            <caption class="visually-hidden">{match lang {
                                engine::locale::Lang::En => format!("{count} pilot(s)"),
                                engine::locale::Lang::De => format!("{count} Pilot(en)"),
                            }}</caption>
                            <thead>
                                <tr>
                                    <th scope="col">"Pilot"</th>
                                    <th scope="col">{lang.pick("Customer", "Kunde")}</th>
                                    <th scope="col">"Status"</th>
                                    <th scope="col">{lang.pick("Verdict", "Ergebnis")}</th>
                                    <th scope="col">{lang.pick("Model", "Modell")}</th>
                                    <th scope="col">{lang.pick("Pilot hardware", "Pilot-Hardware")}</th>
                                    <th scope="col">{lang.pick("Serving engine", "Serving-Engine")}</th>
                                    <th scope="col">{lang.pick("Updated", "Geändert")}</th>
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
                                            <td class="nowrap">{lang.date(pilot.updated_ms)}</td>
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
