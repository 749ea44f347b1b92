//! The plan's history: every version with who created and approved it, when and why, and what
//! changed against the version before it, in plain words (the engine's readable diff).
//!
//! Customers see the approved versions only, and the differences between them.
//! A server-rendered fragment (see [`crate::components::fragment`]).

use super::params::pilot_id_param;
use crate::components::{Fragment, fragment_view};
use crate::error::AppError;
use leptos::prelude::*;

#[component]
pub fn PlanHistoryPage() -> impl IntoView {
    fragment_view("Loading history…", pilot_id_param(), plan_history_page)
}

/// The plan history page's content.
#[server(endpoint = "page_plan_history")]
pub async fn plan_history_page(pilot_id: i64) -> Result<Fragment, AppError> {
    let view = crate::api::plans::get_plan(pilot_id).await?;
    let title = format!("Plan history · {}", view.pilot.name);
    Ok(Fragment::render(title, render::history(view)))
}

#[cfg(feature = "ssr")]
mod render {
    use super::super::plan::{approved_only_notice, breadcrumbs, plan_status_badge, plan_tabs};
    use crate::api::plans::{PlanVersionRecord, PlanView};
    use crate::components::{EmptyState, PageHeader};
    use engine::plan::{Change, ChangeKind, PlanSection, diff};
    use leptos::prelude::*;

    pub fn history(view: PlanView) -> AnyView {
        let pilot = view.pilot.clone();
        let top = view! {
            {breadcrumbs(&view, "History")}
            <PageHeader title="Plan history" subtitle=format!("{} · every version, who changed what, when and why", pilot.name)/>
            {plan_tabs(&view, "history")}
            {view.approved_only.then(approved_only_notice)}
        };
        if view.versions.is_empty() {
            return view! {
                {top}
                <EmptyState title="No versions yet"><p>"The plan's versions appear here once it is written."</p></EmptyState>
            }
            .into_any();
        }
        let items = view
            .versions
            .iter()
            .enumerate()
            .rev()
            .map(|(i, version)| {
                let previous = i.checked_sub(1).map(|p| &view.versions[p]);
                version_item(&view, version, previous)
            })
            .collect_view();
        view! {
            {top}
            <ol class="version-list">{items}</ol>
        }
        .into_any()
    }

    fn version_item(
        view: &PlanView,
        version: &PlanVersionRecord,
        previous: Option<&PlanVersionRecord>,
    ) -> AnyView {
        let pilot_id = view.pilot.id;
        let in_force = view.in_force == Some(version.number);
        let changes = match previous {
            Some(previous) => {
                let changes = diff(&previous.content, &version.content);
                let heading = format!("Changes from version {}", previous.number);
                let body = if changes.is_empty() {
                    view! { <p class="muted">"No changes yet: the same content as the version before."</p> }
                        .into_any()
                } else {
                    view! { <ul class="change-list">{changes.iter().map(change_item).collect_view()}</ul> }
                        .into_any()
                };
                view! { <h3>{heading}</h3>{body} }.into_any()
            }
            None => {
                let marks = version
                    .content
                    .pass_marks
                    .iter()
                    .map(|m| {
                        view! {
                            <li class="change change-added">
                                <span class="badge badge-pass">"Added"</span>
                                <div><p>{format!("{}.", m.sentence())}</p><p class="mono small muted">{m.notation()}</p></div>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <h3>"First version"</h3>
                    <ul class="change-list">{marks}</ul>
                }
                .into_any()
            }
        };
        let created = format!(
            "{} on {}",
            version.created_by_name,
            engine::clock::utc_minute(version.created_ms)
        );
        let approved = match (&version.approved_by_name, version.approved_ms) {
            (Some(who), Some(at)) => format!(
                "{who} on {}{}",
                engine::clock::utc_minute(at),
                version.override_note()
            ),
            _ => "not yet: a draft, not in force".into(),
        };
        let reason = version.amendment_reason.clone();
        view! {
            <li class="card version-card" id=format!("version-{}", version.number)>
                <div class="card-head">
                    <h2>{format!("Version {}", version.number)}</h2>
                    <div class="card-head-badges">
                        {plan_status_badge(version.status)}
                        {in_force.then(|| view! { <span class="badge badge-pass">"In force"</span> })}
                        <a class="button button-small" href=format!("/pilots/{pilot_id}/plan?version={}", version.number)>"View this version"</a>
                    </div>
                </div>
                <dl class="facts">
                    <dt>{if version.number == 1 { "Written by" } else { "Amended by" }}</dt><dd>{created}</dd>
                    {reason.map(|r| view! { <dt>"Why"</dt><dd class="amendment-reason">{r}</dd> })}
                    <dt>"Approved by"</dt><dd>{approved}</dd>
                </dl>
                {changes}
            </li>
        }
        .into_any()
    }

    fn change_item(change: &Change) -> AnyView {
        let (class, badge, label) = match change.kind {
            ChangeKind::Added => ("change change-added", "badge badge-pass", "Added"),
            ChangeKind::Removed => ("change change-removed", "badge badge-fail", "Removed"),
            ChangeKind::Changed => ("change change-changed", "badge badge-warn", "Changed"),
        };
        let section = {
            let label = change.section.label();
            let mut chars = label.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        };
        // Pass marks read as sentences; give them their full stop.
        let stop = |text: &Option<String>| {
            text.clone().map(|t| match change.section {
                PlanSection::PassMark => format!("{t}."),
                _ => t,
            })
        };
        let before = stop(&change.before);
        let after = stop(&change.after);
        let body = match change.kind {
            ChangeKind::Added => view! { <p class="after">{after}</p> }.into_any(),
            ChangeKind::Removed => view! { <p class="before"><del>{before}</del></p> }.into_any(),
            ChangeKind::Changed => view! {
                <p class="before"><span class="muted small">"was "</span><del>{before}</del></p>
                <p class="after"><span class="muted small">"now "</span>{after}</p>
            }
            .into_any(),
        };
        view! {
            <li class=class title=change.describe()>
                <span class=badge>{label}</span>
                <div>
                    <p class="change-subject"><strong>{section}</strong>{format!(" · {}", change.subject)}</p>
                    {body}
                    {(!change.details.is_empty()).then(|| view! {
                        <ul class="change-details">
                            {change.details.iter().map(|d| view! { <li>{d.clone()}</li> }).collect_view()}
                        </ul>
                    })}
                </div>
            </li>
        }
        .into_any()
    }
}
