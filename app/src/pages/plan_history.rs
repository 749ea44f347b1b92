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
    fragment_view(
        crate::components::tr("Loading history…", "Verlauf wird geladen…"),
        pilot_id_param(),
        plan_history_page,
    )
}

/// The plan history page's content.
#[server(endpoint = "page_plan_history")]
pub async fn plan_history_page(pilot_id: i64) -> Result<Fragment, AppError> {
    let view = crate::api::plans::get_plan(pilot_id).await?;
    let title = format!(
        "{} · {}",
        crate::components::tr("Plan history", "Planverlauf"),
        view.pilot.name
    );
    Ok(Fragment::render(title, render::history(view)))
}

#[cfg(feature = "ssr")]
mod render {
    use super::super::plan::{approved_only_notice, breadcrumbs, plan_status_badge, plan_tabs};
    use crate::api::plans::{PlanVersionRecord, PlanView};
    use crate::components::{EmptyState, PageHeader, lang};
    use engine::locale::Lang;
    use engine::plan::{Change, ChangeKind, PlanSection, diff};
    use leptos::prelude::*;

    pub fn history(view: PlanView) -> AnyView {
        let pilot = view.pilot.clone();
        let lang = lang();
        let subtitle = format!(
            "{} · {}",
            pilot.name,
            lang.pick(
                "every version, who changed what, when and why",
                "jede Version: wer was wann und warum geändert hat"
            )
        );
        let top = view! {
            {breadcrumbs(&view, lang.pick("History", "Verlauf"))}
            <PageHeader title=lang.pick("Plan history", "Planverlauf") subtitle=subtitle/>
            {plan_tabs(&view, "history")}
            {view.approved_only.then(approved_only_notice)}
        };
        if view.versions.is_empty() {
            return view! {
                {top}
                <EmptyState title=lang.pick("No versions yet", "Noch keine Versionen")><p>{lang.pick("The plan's versions appear here once it is written.", "Die Versionen des Plans erscheinen hier, sobald er geschrieben ist.")}</p></EmptyState>
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
        let lang = lang();
        let in_force = view.in_force == Some(version.number);
        let changes = match previous {
            Some(previous) => {
                let changes = diff(&previous.content, &version.content);
                let heading = match lang {
                    Lang::En => format!("Changes from version {}", previous.number),
                    Lang::De => format!("Änderungen gegenüber Version {}", previous.number),
                };
                let body = if changes.is_empty() {
                    view! { <p class="muted">{lang.pick("No changes yet: the same content as the version before.", "Noch keine Änderungen: derselbe Inhalt wie die Version davor.")}</p> }
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
                                <span class="badge badge-pass">{lang.pick("Added", "Neu")}</span>
                                <div><p>{format!("{}.", m.sentence_in(lang))}</p><p class="mono small muted">{m.notation_in(lang)}</p></div>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <h3>{lang.pick("First version", "Erste Version")}</h3>
                    <ul class="change-list">{marks}</ul>
                }
                .into_any()
            }
        };
        let on = lang.pick("on", "am");
        let created = format!(
            "{} {on} {}",
            version.created_by_name,
            lang.date_time(version.created_ms)
        );
        let approved = match (&version.approved_by_name, version.approved_ms) {
            (Some(who), Some(at)) => format!(
                "{who} {on} {}{}",
                lang.date_time(at),
                version.override_note_in(lang)
            ),
            _ => lang
                .pick(
                    "not yet: a draft, not in force",
                    "noch nicht: ein Entwurf, nicht in Kraft",
                )
                .into(),
        };
        let reason = version.amendment_reason.clone();
        view! {
            <li class="card version-card" id=format!("version-{}", version.number)>
                <div class="card-head">
                    <h2>{format!("Version {}", version.number)}</h2>
                    <div class="card-head-badges">
                        {plan_status_badge(version.status)}
                        {in_force.then(|| view! { <span class="badge badge-pass">{lang.pick("In force", "In Kraft")}</span> })}
                        <a class="button button-small" href=format!("/pilots/{pilot_id}/plan?version={}", version.number)>{lang.pick("View this version", "Diese Version zeigen")}</a>
                    </div>
                </div>
                <dl class="facts">
                    <dt>{if version.number == 1 { lang.pick("Written by", "Geschrieben von") } else { lang.pick("Amended by", "Geändert von") }}</dt><dd>{created}</dd>
                    {reason.map(|r| view! { <dt>{lang.pick("Why", "Warum")}</dt><dd class="amendment-reason">{r}</dd> })}
                    <dt>{lang.pick("Approved by", "Freigegeben von")}</dt><dd>{approved}</dd>
                </dl>
                {changes}
            </li>
        }
        .into_any()
    }

    fn change_item(change: &Change) -> AnyView {
        let lang = lang();
        let (class, badge, label) = match change.kind {
            ChangeKind::Added => (
                "change change-added",
                "badge badge-pass",
                lang.pick("Added", "Neu"),
            ),
            ChangeKind::Removed => (
                "change change-removed",
                "badge badge-fail",
                lang.pick("Removed", "Entfernt"),
            ),
            ChangeKind::Changed => (
                "change change-changed",
                "badge badge-warn",
                lang.pick("Changed", "Geändert"),
            ),
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
                <p class="before"><span class="muted small">{lang.pick("was ", "vorher ")}</span><del>{before}</del></p>
                <p class="after"><span class="muted small">{lang.pick("now ", "jetzt ")}</span>{after}</p>
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
