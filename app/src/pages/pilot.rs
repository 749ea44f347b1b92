//! One pilot: what is being tried, on what, and where it stands (a server-rendered fragment,
//! see [`crate::components::fragment`]).

use super::params::pilot_id_param;
use crate::components::{Fragment, refreshing_fragment_view};
use crate::error::AppError;
use leptos::prelude::*;

/// How often an open pilot page loads its content again, so a running pilot's marks fill in
/// as its gateway's records arrive (the overview is kept per evidence revision: an unchanged
/// pilot costs one query).
pub const REFRESH_SECONDS: u64 = 30;

/// How often it loads again while its recommendation is being computed (an element marked
/// `data-computing` on the page), so the plan appears without a reload.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub const COMPUTING_REFRESH_SECONDS: u64 = 5;

#[component]
pub fn PilotPage() -> impl IntoView {
    let id = pilot_id_param();
    let tick = RwSignal::new(0_u32);
    #[cfg(feature = "hydrate")]
    {
        let waited = std::cell::Cell::new(0_u64);
        let handle = set_interval_with_handle(
            move || {
                waited.set(waited.get() + COMPUTING_REFRESH_SECONDS);
                let computing = document()
                    .query_selector("[data-computing]")
                    .ok()
                    .flatten()
                    .is_some();
                if !document().hidden() && (computing || waited.get() >= REFRESH_SECONDS) {
                    waited.set(0);
                    tick.update(|t| *t = t.wrapping_add(1));
                }
            },
            std::time::Duration::from_secs(COMPUTING_REFRESH_SECONDS),
        )
        .ok();
        on_cleanup(move || {
            if let Some(handle) = handle {
                handle.clear();
            }
        });
    }
    refreshing_fragment_view(
        crate::components::tr("Loading pilot…", "Pilot wird geladen…"),
        move || (id(), tick.get()),
        |(id, _)| pilot_page(id),
    )
}

/// The pilot page's content. One gathering of the evidence and one grading give the pilot, its
/// verdict, its plan card and the decided precision ([`crate::api::verdict::pilot_overview`]).
#[server(endpoint = "page_pilot")]
pub async fn pilot_page(pilot_id: i64) -> Result<Fragment, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    let page = crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            Ok(
                desk::pilot_page::pilot_page(&services, &user, pilot, crate::components::lang())
                    .await?,
            )
        }
        .await,
    )?;
    let title = page.overview.pilot.pilot.name.clone();
    Ok(Fragment::render(
        title,
        render::pilot(page.overview, page.feed, page.source),
    ))
}

#[cfg(feature = "ssr")]
mod render {
    use super::super::pilots::or_dash;
    use crate::api::verdict::PilotPageData;
    use crate::components::{PageHeader, StatusBadge, lang};
    use desk::live::{LiveFeed, ago};
    use desk::metrics_pull::MetricsSourceView;
    use desk::verdict::RecommendationHeadline;
    use engine::locale::Lang;
    use engine::pilot::PilotStatus;
    use leptos::prelude::*;

    /// The live gateway feed: how many requests arrived, how long ago the latest, the day
    /// files they roll into. Only for a pilot with a feed (records, or a token waiting).
    fn live_card(
        pilot: i64,
        feed: LiveFeed,
        source: Option<MetricsSourceView>,
    ) -> impl IntoView + use<> {
        let now = desk::store::now_ms();
        let lang = lang();
        let (days, older_days) = feed.latest_days();
        let (days, older_days) = (days.to_vec(), older_days);
        let status = match feed.last_record_ms {
            None if !feed.is_set_up() => ().into_any(),
            None => view! {
                <p>{format!(
                    "Waiting for the gateway's first record ({} ingest token{} ready).",
                    feed.active_tokens,
                    if feed.active_tokens == 1 { "" } else { "s" }
                )}</p>
            }
            .into_any(),
            Some(at) => view! {
                <p class="live-line">
                    <strong>{format!(
                        "{} request{} received",
                        super::super::sizing::fmt_int(feed.records.max(0) as u64),
                        if feed.records == 1 { "" } else { "s" }
                    )}</strong>
                    {format!(" · last record {} ({})", ago(at, now), engine::clock::utc_minute(at))}
                    {(feed.rolled < feed.records).then(|| format!(" · {} still rolling into the day files", feed.records - feed.rolled))}
                </p>
            }
            .into_any(),
        };
        view! {
            <section class="card" id="live-feed">
                <h2>{lang.pick("Live feed", "Live-Zufluss")}</h2>
                {status}
                <p class="muted small">{format!(
                    "The gateway posts every finished request; they roll into one gateway-log file per day within seconds, and the verdict below grades them as they arrive. This page loads again every {} s.",
                    super::REFRESH_SECONDS
                )}</p>
                {(older_days > 0).then(|| view! {
                    <p class="muted small">{format!(
                        "The latest {} days; {older_days} older day{} are on ",
                        desk::live::FEED_DAYS_SHOWN,
                        if older_days == 1 { "" } else { "s" }
                    )}<a href=format!("/pilots/{pilot}/evidence")>"the evidence page"</a>"."</p>
                })}
                {(!days.is_empty()).then(|| view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">{lang.pick("Day (UTC)", "Tag (UTC)")}</th><th scope="col">"Format"</th>
                            <th scope="col" class="num">{lang.pick("Requests", "Anfragen")}</th><th scope="col">{lang.pick("Evidence file", "Nachweisdatei")}</th>
                        </tr></thead>
                        <tbody>
                            {days.into_iter().map(|d| view! {
                                <tr>
                                    <td class="nowrap">{d.day}</td>
                                    <td>{d.stream}</td>
                                    <td class="num">{super::super::sizing::fmt_int(d.received.max(0) as u64)}</td>
                                    <td>{match d.evidence_id {
                                        Some(id) => view! { <a href=format!("/pilots/{pilot}/evidence#evidence-{id}")>{format!("#{id}")}</a> }.into_any(),
                                        None => view! { <span class="muted">"rolling…"</span> }.into_any(),
                                    }}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                })}
                {source.map(|s| metrics_status(s, now))}
                <p><a href=format!("/pilots/{pilot}/traffic#live-tokens")>{lang.pick("Demand profile, scrapes and ingest tokens", "Lastprofil, Scrapes und Ingest-Tokens")}</a></p>
            </section>
        }
    }

    /// Admins: archive (read-only) or make active again, and delete outright. Plain forms
    /// posting to `/pilots/{id}/archive` and `/pilots/{id}/delete` (the page is server-rendered).
    fn administration(p: &crate::model::Pilot) -> impl IntoView + use<> {
        let archived = p.archived_ms.is_some();
        let lang = lang();
        let (value, button, help) = if archived {
            (
                "false",
                lang.pick("Make active again", "Wieder aktivieren"),
                lang.pick(
                    "Plan, evidence and uploads can be changed again.",
                    "Plan, Nachweise und Uploads lassen sich wieder ändern.",
                ),
            )
        } else {
            (
                "true",
                lang.pick("Archive (read-only)", "Archivieren (nur lesen)"),
                lang.pick(
                    "Everything stays readable, for the customer too; nothing can be changed until an admin makes it active again.",
                    "Alles bleibt lesbar, auch für den Kunden; nichts lässt sich ändern, bis die Administration den Piloten wieder aktiviert.",
                ),
            )
        };
        let confirm = match lang {
            Lang::En => format!(
                " Delete “{}” with its plans, every evidence file and every report, for good. Withdrawing a file or archiving keeps the record; this does not.",
                p.name
            ),
            Lang::De => format!(
                " „{}“ mit seinen Plänen, allen Nachweisdateien und allen Berichten endgültig löschen. Zurückziehen oder Archivieren behält alles; dies nicht.",
                p.name
            ),
        };
        view! {
            <section class="card" id="administration">
                <h2>{lang.pick("Administration", "Verwaltung")}</h2>
                <form method="post" action=format!("/pilots/{}/archive", p.id) class="inline-form">
                    <input type="hidden" name="archived" value=value/>
                    <button type="submit" class="button">{button}</button>
                    <span class="muted small">{help}</span>
                </form>
                <details class="danger-zone">
                    <summary>{lang.pick("Delete this pilot…", "Diesen Piloten löschen…")}</summary>
                    <form method="post" action=format!("/pilots/{}/delete", p.id)>
                        <label>
                            <input type="checkbox" name="confirm" value="yes" required/>
                            {confirm}
                        </label>
                        <button type="submit" class="button button-danger">{lang.pick("Delete for good", "Endgültig löschen")}</button>
                    </form>
                </details>
            </section>
        }
    }

    /// How the scheduled `/metrics` pulls go: where from, the last success, the latest failure.
    fn metrics_status(s: MetricsSourceView, now: i64) -> impl IntoView + use<> {
        let success = match s.last_success_ms {
            Some(at) => format!(
                "last scrape {} ({})",
                ago(at, now),
                engine::clock::utc_minute(at)
            ),
            None => "no successful scrape yet".to_string(),
        };
        view! {
            <div id="metrics-source">
                <p>
                    <strong>"vLLM /metrics"</strong>
                    {format!(" pulled every {} s from ", s.interval_s)}<code>{s.url.clone()}</code>
                    {format!(" · {success} · {} kept", s.scrapes)}
                </p>
                {s.last_error.map(|error| view! {
                    <p class="notice notice-warn" role="status">{format!(
                        "The latest scrape failed{}: {error}",
                        s.last_scrape_ms.map(|at| format!(" {}", ago(at, now))).unwrap_or_default()
                    )}</p>
                })}
            </div>
        }
    }

    /// Says that the plan shown was made for an earlier state of the evidence.
    fn as_of_note(at: i64) -> impl IntoView {
        view! {
            <p class="small muted as-of" data-computing="">{match lang() {
                Lang::En => format!(
                    "From the evidence as it stood at {} UTC; newer evidence has arrived since and is being simulated (a running feed's recommendation follows at most once a minute).",
                    engine::clock::utc_minute(at)
                ),
                Lang::De => format!(
                    "Nach dem Stand der Nachweise vom {}; neuere sind seither eingegangen und werden simuliert (bei laufendem Zufluss folgt die Empfehlung höchstens einmal pro Minute).",
                    Lang::De.date_time(at)
                ),
            }}</p>
        }
    }

    /// The production recommendation every edition names (no money: the report's internal
    /// edition adds it), with a link to its arithmetic.
    fn recommendation_card(pilot: i64, headline: RecommendationHeadline) -> impl IntoView + use<> {
        let lang = lang();
        let body = match headline {
            RecommendationHeadline::Recommended {
                label,
                why,
                cards,
                unsettled,
                sizing_query,
                demand,
                as_of_ms,
            } => view! {
                <p class="recommended" id="pilot-recommended"><strong>{label}</strong></p>
                {as_of_ms.map(as_of_note)}
                <p>{why}</p>
                <p class="small muted">{match lang {
                    Lang::En => format!("Cards across the range of the estimate: {cards}. Estimated from the pilot's load tests transferred to this card, at production load with one copy down."),
                    Lang::De => format!("Karten über die Spanne der Schätzung: {cards}. Geschätzt aus den auf diese Karte übertragenen Lasttests des Piloten, bei Produktionslast mit einer ausgefallenen Kopie."),
                }}</p>
                <p class="small"><a id="recommended-sizing" href=format!("/sizing?{sizing_query}")>{lang.pick("Open this configuration in sizing", "Diese Konfiguration in der Dimensionierung öffnen")}</a>
                    {match lang {
                        Lang::En => format!(" (its memory arithmetic at {} sessions of {} tokens: the p99 of sessions in flight at production load)", demand.sessions, engine::format::thousands(u64::from(demand.context_tokens_per_session))),
                        Lang::De => format!(" (ihre Speicherrechnung bei {} Sitzungen zu {} Token: das p99 der gleichzeitigen Sitzungen bei Produktionslast)", demand.sessions, Lang::De.separators(&engine::format::thousands(u64::from(demand.context_tokens_per_session)))),
                    }}</p>
                {(!unsettled.is_empty()).then(|| view! {
                    <div class="notice notice-warn" role="note">
                        <p>{lang.pick("Not settled by the evidence yet: the load test named in the report decides.", "Von den Nachweisen noch nicht entschieden: Der im Bericht genannte Lasttest entscheidet.")}</p>
                        <ul>{unsettled.into_iter().map(|u| view! { <li>{u}</li> }).collect_view()}</ul>
                    </div>
                })}
            }
            .into_any(),
            RecommendationHeadline::NothingHolds {
                reason, as_of_ms, ..
            } => view! {
                <p id="pilot-recommended">{lang.pick("No configuration holds every mark with one copy down.", "Keine Konfiguration hält jeden Zielwert, wenn eine Kopie ausfällt.")}</p>
                {as_of_ms.map(as_of_note)}
                <p class="small">{reason}</p>
            }
            .into_any(),
            RecommendationHeadline::Computing => view! {
                <p id="pilot-recommended" class="muted" data-computing="">
                    <span class="spinner" aria-hidden="true"></span>
                    {lang.pick("Being computed: every catalog configuration is simulated under the production load, which takes a few seconds. It appears here when done.", "Wird berechnet: Jede Konfiguration des Katalogs wird unter der Produktionslast simuliert, das dauert einige Sekunden. Das Ergebnis erscheint hier.")}
                </p>
            }
            .into_any(),
            RecommendationHeadline::Unavailable { reason } => view! {
                <p id="pilot-recommended" class="muted">{reason}</p>
            }
            .into_any(),
        };
        view! {
            <section class="card" id="recommendation">
                <h2>{lang.pick("Production recommendation", "Hardware-Empfehlung für die Produktion")}</h2>
                {body}
                <p class="small"><a href=format!("/pilots/{pilot}/report.html#recommendation") rel="external">{lang.pick("The arithmetic, the candidates and the next steps (report, section 6)", "Die Rechnung, die Kandidaten und die nächsten Schritte (Bericht, Abschnitt 6)")}</a></p>
            </section>
        }
    }

    pub fn pilot(
        overview: PilotPageData,
        feed: LiveFeed,
        source: Option<MetricsSourceView>,
    ) -> impl IntoView + use<> {
        let view = overview.pilot;
        let p = view.pilot;
        let decision = overview.decision;
        let (mut sizing_href, catalog_gaps) =
            super::super::sizing::pilot_sizing_link(&p, decision.as_ref());
        // With a capacity plan, the link carries the production demand too.
        if let RecommendationHeadline::Recommended { demand, .. }
        | RecommendationHeadline::NothingHolds { demand, .. } = &overview.recommendation
        {
            let separator = if sizing_href.contains('?') { '&' } else { '?' };
            sizing_href = format!("{sizing_href}{separator}{}", demand.query());
        }
        let hardware = p.hardware();
        let serving = p.serving();
        let lang = lang();
        let subtitle = format!(
            "{} {}",
            lang.pick("Pilot for", "Pilot für"),
            p.organisation_name
        );
        view! {
            <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")><a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<span>{p.name.clone()}</span></nav>
            <PageHeader title=p.name.clone() subtitle=subtitle>
                <StatusBadge status=p.status/>
                {p.archived_ms.map(|at| view! {
                    <span class="badge" title=format!("{} {}: {}", lang.pick("Archived", "Archiviert"), lang.date_time(at), lang.pick("read-only", "nur lesen"))>{lang.pick("Archived", "Archiviert")}</span>
                })}
                {view.can_edit.then(|| view! {
                    <a class="button" href=format!("/pilots/{}/edit", p.id)>{lang.pick("Edit pilot", "Pilot bearbeiten")}</a>
                })}
            </PageHeader>
            <nav class="subnav" aria-label=lang.pick("This pilot", "Dieser Pilot")>
                <a href=format!("/pilots/{}/plan", p.id) title=lang.pick("Pass marks, versions and their status", "Zielwerte, Versionen und ihr Stand")>"Plan"</a>
                <a href=format!("/pilots/{}/load-tests", p.id) title=lang.pick("TTFT, TPOT and E2E curves, goodput and capacity", "TTFT-, TPOT- und E2E-Kurven, Goodput und Kapazität")>{lang.pick("Load tests", "Lasttests")}</a>
                <a href=format!("/pilots/{}/traffic", p.id) title=lang.pick("Demand measured from the gateway log and vLLM /metrics", "Last, gemessen aus dem Gateway-Log und vLLM /metrics")>{lang.pick("Traffic", "Verkehr")}</a>
                <a href=format!("/pilots/{}/quality", p.id) title=lang.pick("Evaluation runs per precision: accuracy, retrieval hit rate, flips", "Evaluationsläufe je Präzision: Genauigkeit, Trefferquote der Suche, Wechsel")>{lang.pick("Quality", "Qualität")}</a>
                <a href=format!("/pilots/{}/evidence", p.id) title=lang.pick("Uploaded evidence files", "Hochgeladene Nachweisdateien")>{lang.pick("Evidence", "Nachweise")}</a>
                <a href=format!("/pilots/{}/calibration", p.id) title=lang.pick("vLLM start-up logs against the sizing engine", "vLLM-Startprotokolle gegen die Dimensionierung")>{lang.pick("Calibration", "Kalibrierung")}</a>
                <a href=format!("/pilots/{}/report", p.id) title=lang.pick("The PDF-ready report: verdict, demand, load tests, quality, recommendation", "Der druckfertige Bericht: Ergebnis, Last, Lasttests, Qualität, Empfehlung")>{lang.pick("Report", "Bericht")}</a>
                <a href=sizing_href title=lang.pick("The sizing what-if with this pilot's model and hardware", "Die Dimensionierung mit Modell und Hardware dieses Piloten")>{lang.pick("Size this pilot", "Diesen Piloten dimensionieren")}</a>
            </nav>
            {p.archived_ms.map(|at| view! {
                <div class="notice" role="note" id="archived">{match lang {
                    Lang::En => format!(
                        "This pilot was archived on {} and is read-only: its plan, evidence and report stay as they are.",
                        lang.date_time(at)
                    ),
                    Lang::De => format!(
                        "Dieser Pilot wurde am {} archiviert und ist nur lesbar: Plan, Nachweise und Bericht bleiben, wie sie sind.",
                        lang.date_time(at)
                    ),
                }}</div>
            })}
            {view.warnings.into_iter().map(|w| view! {
                <div class="notice notice-warn" role="alert">{w}</div>
            }).collect_view()}
            {(!catalog_gaps.is_empty()).then(|| view! {
                <div class="notice notice-warn" role="note" id="sizing-gaps">
                    {catalog_gaps.into_iter().map(|g| view! { <p>{g}</p> }).collect_view()}
                </div>
            })}
            <div class="grid-2">
                <section class="card">
                    <h2>{lang.pick("What is being tried", "Was getestet wird")}</h2>
                    <dl class="facts">
                        <dt>{lang.pick("Customer", "Kunde")}</dt><dd>{p.organisation_name.clone()}</dd>
                        <dt>{lang.pick("Model", "Modell")}</dt><dd class="mono">{or_dash(&p.model)}</dd>
                        <dt>{lang.pick("Pilot hardware", "Pilot-Hardware")}</dt><dd>{or_dash(&hardware)}</dd>
                        <dt>{lang.pick("Serving engine", "Serving-Engine")}</dt><dd>{or_dash(&serving)}</dd>
                        <dt>{lang.pick("Created", "Angelegt")}</dt><dd>{lang.date_time(p.created_ms)}</dd>
                        <dt>{lang.pick("Last updated", "Zuletzt geändert")}</dt><dd>{lang.date_time(p.updated_ms)}</dd>
                    </dl>
                </section>
                <section class="card">
                    <h2>{lang.pick("Where it stands", "Wo er steht")}</h2>
                    <ol class="lifecycle">
                        {PilotStatus::ALL.into_iter().map(|s| {
                            let class = if s == p.status { "current" } else if (s as u8) < (p.status as u8) { "done" } else { "" };
                            view! {
                                <li class=class>
                                    <strong>{s.label_in(lang)}</strong>
                                    <span>{s.meaning_in(lang)}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ol>
                </section>
            </div>
            {(feed.is_set_up() || source.is_some()).then(|| live_card(p.id, feed, source))}
            {super::super::verdict::verdict_card(overview.verdict)}
            {recommendation_card(p.id, overview.recommendation)}
            {super::super::plan::summary_card(overview.plan)}
            {view.can_administer.then(|| administration(&p))}
            <section class="card">
                <h2>{lang.pick("About this pilot", "Über diesen Piloten")}</h2>
                {if p.description.trim().is_empty() {
                    view! { <p class="muted">{lang.pick("No description yet.", "Noch keine Beschreibung.")}</p> }.into_any()
                } else {
                    view! { <p class="prose">{p.description.clone()}</p> }.into_any()
                }}
            </section>
        }
    }
}
