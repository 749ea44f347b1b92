//! The pilot overview's verdict: every pass mark of the plan in force with its measured value,
//! definition, measurement point, evidence and status, and the warnings that change the reading.

use super::plan::verdict_badge;
use crate::api::verdict::VerdictView;
use crate::components::lang;
use leptos::prelude::*;

fn outcome_class(view: &VerdictView) -> &'static str {
    match view.outcome {
        Some(engine::verdict::PlanOutcome::Passed) => "verdict-head verdict-passed",
        Some(engine::verdict::PlanOutcome::Failed) => "verdict-head verdict-failed",
        _ => "verdict-head",
    }
}

/// The verdict card of the pilot page.
pub fn verdict_card(view: VerdictView) -> AnyView {
    let id = view.pilot.id;
    let lang = lang();
    let headline = view.headline_in(lang);
    let version = match (view.plan_version, view.plan_approved_ms) {
        (Some(n), Some(at)) => match lang {
            engine::locale::Lang::En => format!(
                "Graded against plan version {n}, approved {}.",
                lang.date_time(at)
            ),
            engine::locale::Lang::De => format!(
                "Bewertet nach Planversion {n}, freigegeben am {}.",
                lang.date_time(at)
            ),
        },
        _ => String::new(),
    };
    let rows = view
        .rows
        .iter()
        .map(|row| {
            let evidence = match &row.evidence_link {
                Some(href) => view! { <a href=href.clone()>{row.source.clone()}</a> }.into_any(),
                None => view! { <span class="muted">"—"</span> }.into_any(),
            };
            view! {
                <tr>
                    <td>
                        <span class="verdict-sentence">{row.sentence.clone()}</span>
                        <span class="mono small muted">{row.notation.clone()}</span>
                    </td>
                    <td class="num">{row.measured.clone()}{row.samples.map(|n| view! { <span class="small muted verdict-samples">{format!("n = {}", engine::format::thousands(n))}</span> })}
                        {row.gradable_since_ms.map(|at| view! { <span class="small muted verdict-since" title=lang.pick("When the evidence first gave this mark a figure to grade, under this plan version", "Seit wann die Nachweise diesem Zielwert unter dieser Planversion eine Zahl zum Bewerten geben")>{format!("{} {}", lang.pick("graded since", "bewertet seit"), lang.date_time(at))}</span> })}</td>
                    <td>{verdict_badge(&row.verdict)}<crate::components::Explanation text=row.explanation.clone()/></td>
                    <td data-label=lang.pick("Measured at", "Gemessen bei")>{row.point.clone()}</td>
                    <td class="small" data-label="Definition">{row.definition.clone()}</td>
                    <td class="small" data-label=lang.pick("Evidence", "Nachweis")>{evidence}</td>
                </tr>
            }
        })
        .collect_view();
    let warnings = view
        .warnings
        .iter()
        .map(|w| {
            let link = w.link.clone().map(|page| {
                view! { <a href=format!("/pilots/{id}/{page}")>{lang.pick("See the evidence", "Zu den Nachweisen")}</a> }
            });
            view! {
                <li><strong>{w.title.clone()}</strong>" "{w.detail.clone()}" "{link}</li>
            }
        })
        .collect_view();
    let has_rows = !view.rows.is_empty();
    let has_warnings = !view.warnings.is_empty();
    let caveats = view
        .caveats
        .iter()
        .map(|c| view! { <li>{c.clone()}</li> })
        .collect_view();
    let has_caveats = !view.caveats.is_empty();
    view! {
        <section class="card" id="verdict">
            <div class="card-head">
                <h2>{lang.pick("Verdict", "Ergebnis")}</h2>
                <div class="card-head-badges">
                    <a class="button button-small" href=format!("/pilots/{id}/report")>{lang.pick("Report", "Bericht")}</a>
                    <a class="button button-small" href=format!("/pilots/{id}/plan")>{lang.pick("Open plan", "Plan öffnen")}</a>
                </div>
            </div>
            <p class=outcome_class(&view) data-outcome=view.outcome.map(|o| format!("{o:?}").to_lowercase())>{headline}</p>
            <p class="small muted">{version}</p>
            {has_warnings.then(|| view! {
                <div class="notice notice-warn" role="note">
                    <p><strong>{lang.pick("Read the verdict with these in mind:", "Beim Lesen des Ergebnisses beachten:")}</strong></p>
                    <ul class="warning-list">{warnings}</ul>
                </div>
            })}
            {has_caveats.then(|| view! {
                <div class="notice notice-info" role="note" id="verdict-caveats">
                    <p><strong>{lang.pick("Before go-live:", "Vor dem Produktivstart:")}</strong></p>
                    <ul class="warning-list">{caveats}</ul>
                </div>
            })}
            {if has_rows {
                view! {
                    <div class="table-scroll">
                        <table class="table verdict-table">
                            <thead><tr>
                                <th scope="col">{lang.pick("Pass mark", "Zielwert")}</th>
                                <th scope="col" class="num">{lang.pick("Measured", "Gemessen")}</th>
                                <th scope="col">"Status"</th>
                                <th scope="col">{lang.pick("Measured at", "Gemessen bei")}</th>
                                <th scope="col">"Definition"</th>
                                <th scope="col">{lang.pick("Evidence", "Nachweis")}</th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }.into_any()
            } else if view.plan_version.is_none() {
                view! { <p class="muted">{lang.pick("The verdict appears once the plan is approved: its pass marks are what the evidence is graded against.", "Das Ergebnis erscheint, sobald der Plan freigegeben ist: Seine Zielwerte sind der Maßstab, an dem die Nachweise bewertet werden.")}</p> }.into_any()
            } else {
                view! { <p class="muted">{lang.pick("The plan in force has no pass marks.", "Der geltende Plan hat keine Zielwerte.")}</p> }.into_any()
            }}
        </section>
    }
    .into_any()
}
