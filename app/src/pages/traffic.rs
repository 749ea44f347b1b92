//! A pilot's real traffic: the demand profile measured at the gateway (arrivals, concurrency,
//! token lengths), production demand derived from it, and what vLLM's `/metrics` scrapes saw.
//!
//! The query string holds the page's choices, so a view can be linked: `users`,
//! `production_users`, `rate` (entered production rate, req/s), `basis` (`whole`, the default:
//! the longest request or the plan's context, whichever is larger; `max`; `p95`) for production
//! demand; `before`, `after` (evidence ids) and `dt` (seconds) for the `/metrics` window.
//!
//! Requests in flight are cross-checked on the page (Little's law on the log, and vLLM's own
//! figure when two scrapes span the busiest hour), scrapes of another model are marked not
//! comparable, and a queue at a single scrape is a note, not the alarm.
//!
//! The page is a server-rendered fragment (see [`crate::components::fragment`]): its choices
//! are GET forms, so the query string is all the browser sends.

use super::params::pilot_id_param;
use crate::components::{Fragment, fragment_view};
use crate::error::AppError;
use engine::locale::Lang;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

/// The page's choices, from its query string (each empty when not given).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Choices {
    pub users: String,
    pub production_users: String,
    pub rate: String,
    pub basis: String,
    pub before: String,
    pub after: String,
    pub dt: String,
}

#[component]
pub fn TrafficPage() -> impl IntoView {
    let id = pilot_id_param();
    let map = use_query_map();
    let choices = move || {
        let q = map.read();
        let get = |name: &str| q.get(name).unwrap_or_default();
        Choices {
            users: get("users"),
            production_users: get("production_users"),
            rate: get("rate"),
            basis: get("basis"),
            before: get("before"),
            after: get("after"),
            dt: get("dt"),
        }
    };
    view! {
        {fragment_view(
            crate::components::tr("Loading…", "Wird geladen…"),
            move || (id(), choices()),
            |(id, choices)| traffic_page(id, choices),
        )}
        {move || view! { <LiveTokens pilot_id=id()/> }}
        {move || view! { <MetricsSourceCard pilot_id=id()/> }}
    }
}

/// The pilot's scheduled `/metrics` pull, for those who may set it (assessors, admins): the
/// address, interval, Prometheus selector and bearer token, how the scrapes went, and a way to
/// stop. Nothing for anyone else (the form's server function answers `None` for them).
#[component]
fn MetricsSourceCard(pilot_id: i64) -> impl IntoView {
    use crate::api::live::{RemoveMetricsSource, SetMetricsSource, metrics_source_form};
    let lang = crate::components::lang();
    let set = ServerAction::<SetMetricsSource>::new();
    let remove = ServerAction::<RemoveMetricsSource>::new();
    let source = crate::components::page_resource(
        move || (set.version().get(), remove.version().get()),
        move |_| metrics_source_form(pilot_id),
    );
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let Ok(Some(form)) = source.await else { return ().into_any() };
                let current = form.source;
                let has_token = current.as_ref().is_some_and(|s| s.has_bearer_token);
                let (url, interval, selector) = current
                    .as_ref()
                    .map(|s| (s.url.clone(), s.interval_s.to_string(), s.selector.clone().unwrap_or_default()))
                    .unwrap_or_default();
                let status = current.as_ref().map(|s| {
                    let last = s
                        .last_success_ms
                        .map(|ms| match lang {
                            Lang::En => format!("last success {} UTC", engine::clock::utc_minute(ms)),
                            Lang::De => format!("letzter Erfolg {}", lang.date_time(ms)),
                        })
                        .unwrap_or_else(|| lang.pick("no success yet", "noch kein Erfolg").into());
                    let line = match lang {
                        Lang::En => format!(
                            "Every {} s · {} scrape{} kept, {} failed attempt{} · {last}",
                            s.interval_s,
                            s.scrapes,
                            if s.scrapes == 1 { "" } else { "s" },
                            s.failures,
                            if s.failures == 1 { "" } else { "s" },
                        ),
                        Lang::De => format!(
                            "Alle {} s · {} {} behalten, {} {} · {last}",
                            s.interval_s,
                            s.scrapes,
                            if s.scrapes == 1 { "Scrape" } else { "Scrapes" },
                            s.failures,
                            if s.failures == 1 { "fehlgeschlagener Versuch" } else { "fehlgeschlagene Versuche" },
                        ),
                    };
                    view! {
                        <p class="small" id="metrics-source-status">{line}</p>
                        {s.last_error.clone().map(|e| view! {
                            <p class="notice notice-warn" role="status">{match lang {
                                Lang::En => format!("The latest attempt failed: {e}"),
                                Lang::De => format!("Der letzte Versuch ist fehlgeschlagen: {e}"),
                            }}</p>
                        })}
                    }
                });
                let button = if current.is_some() { lang.pick("Save", "Speichern") } else { lang.pick("Start pulling", "Abruf starten") };
                view! {
                    <section class="card" id="metrics-source">
                        <h2>{lang.pick("vLLM /metrics, pulled on a schedule", "vLLM /metrics, planmäßig abgerufen")}</h2>
                        <p class="muted">{lang.pick(
                            "The server scrapes this address at the interval and keeps each scrape as evidence (one an hour once it is two hours old). Link-local and cloud-metadata addresses are refused unless the server's METRICS_ALLOW_HOSTS names them.",
                            "Der Server ruft diese Adresse im angegebenen Intervall ab und bewahrt jeden Scrape als Nachweis auf (einen je Stunde, sobald er zwei Stunden alt ist). Link-lokale Adressen und Adressen von Cloud-Metadatendiensten werden abgelehnt, sofern METRICS_ALLOW_HOSTS des Servers sie nicht nennt.",
                        )}</p>
                        {status}
                        {move || set.value().get().map(|result| match result {
                            Ok(_) => view! { <p class="notice notice-ok" role="status">{lang.pick("Saved: the first scrape is due now.", "Gespeichert: Der erste Scrape ist jetzt fällig.")}</p> }.into_any(),
                            Err(error) => view! { <p class="notice notice-error" role="alert">{error.to_string()}</p> }.into_any(),
                        })}
                        {move || remove.value().get().and_then(Result::err).map(|error| view! {
                            <p class="notice notice-error" role="alert">{error.to_string()}</p>
                        })}
                        <ActionForm action=set attr:class="form metrics-source-form">
                            <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                            <label for="ms-url">{lang.pick("Address", "Adresse")}</label>
                            <input id="ms-url" name="url" type="url" required maxlength="2000" value=url placeholder="http://vllm:8000/metrics"/>
                            <div class="field-row">
                                <div>
                                    <label for="ms-interval">{lang.pick("Every (seconds, 15–3,600)", "Intervall (Sekunden, 15–3.600)")}</label>
                                    <input id="ms-interval" name="interval_s" type="number" min="15" max="3600" step="1" value=interval placeholder="60"/>
                                </div>
                                <div>
                                    <label for="ms-selector">{lang.pick("Prometheus selector (optional)", "Prometheus-Selektor (optional)")}</label>
                                    <input id="ms-selector" name="selector" maxlength="1000" value=selector placeholder="{job=\"vllm\"}"/>
                                </div>
                            </div>
                            <label for="ms-token">{lang.pick("Bearer token (optional)", "Bearer-Token (optional)")}</label>
                            <input id="ms-token" name="bearer_token" type="password" autocomplete="off" maxlength="4096"
                                placeholder=if has_token { lang.pick("kept: type a new one to replace it", "gespeichert: zum Ersetzen ein neues eingeben") } else { "" }/>
                            {has_token.then(|| view! {
                                <label class="check"><input type="checkbox" name="clear_token" value="on"/>{lang.pick(" Remove the bearer token", " Bearer-Token entfernen")}</label>
                            })}
                            <div class="form-actions">
                                <button type="submit" class="button button-primary">{button}</button>
                            </div>
                        </ActionForm>
                        {current.is_some().then(|| view! {
                            <ActionForm action=remove>
                                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                                <button type="submit" class="button button-quiet button-small">{lang.pick("Stop pulling", "Abruf beenden")}</button>
                            </ActionForm>
                        })}
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}

/// The pilot's ingest tokens, for those who may add evidence (assessors, admins): create one
/// (its secret and the gateway's configuration shown once), list, revoke. Nothing for anyone
/// else (the list's server function refuses them).
#[component]
fn LiveTokens(pilot_id: i64) -> impl IntoView {
    use crate::api::live::{CreateIngestToken, RevokeIngestToken, list_ingest_tokens};
    let lang = crate::components::lang();
    let create = ServerAction::<CreateIngestToken>::new();
    let revoke = ServerAction::<RevokeIngestToken>::new();
    let tokens = crate::components::page_resource(
        move || (create.version().get(), revoke.version().get()),
        move |_| list_ingest_tokens(pilot_id),
    );
    let endpoint = format!("/api/v1/pilots/{pilot_id}/gateway/records");
    view! {
        <Suspense fallback=|| ()>
            {move || {
                let endpoint = endpoint.clone();
                Suspend::new(async move {
                    let Ok(Some(list)) = tokens.await else { return ().into_any() };
                    view! {
                        <section class="card" id="live-tokens">
                            <h2>{lang.pick("Live gateway feed: ingest tokens", "Live-Zufluss vom Gateway: Ingest-Token")}</h2>
                            <p class="muted">
                                {lang.pick("A gateway posts every finished request to ", "Ein Gateway sendet jede abgeschlossene Anfrage an ")}<code>{endpoint.clone()}</code>
                                {lang.pick(
                                    " with a token made here: it writes this pilot's records and reads nothing. LiteLLM: ",
                                    " mit einem hier angelegten Token: Es schreibt die Datensätze dieses Piloten und liest nichts. LiteLLM: ",
                                )}
                                <code>"callbacks: [\"generic_api\"]"</code>{lang.pick(" with ", " mit ")}<code>"GENERIC_LOGGER_ENDPOINT"</code>
                                {lang.pick(
                                    " set to this server's address followed by that path, and ",
                                    " auf die Adresse dieses Servers gefolgt von diesem Pfad gesetzt und ",
                                )}<code>"GENERIC_LOGGER_HEADERS"</code>
                                {lang.pick(" to ", " auf ")}<code>"Authorization=Bearer <token>"</code>"."
                            </p>
                            {move || create.value().get().map(|result| match result {
                                Ok(issued) => view! {
                                    <div class="notice notice-ok" role="status">
                                        <strong>{match lang {
                                            Lang::En => format!("Ingest token “{}” created. Copy it now; it is not shown again.", issued.name),
                                            Lang::De => format!("Ingest-Token „{}“ angelegt. Kopieren Sie es jetzt; es wird nicht noch einmal angezeigt.", issued.name),
                                        }}</strong>
                                        <code class="secret" id="new-ingest-token">{issued.token}</code>
                                    </div>
                                }.into_any(),
                                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
                            })}
                            {if list.is_empty() {
                                view! { <p class="muted">{lang.pick(
                                    "No ingest tokens yet: the pilot takes uploaded gateway logs only.",
                                    "Noch keine Ingest-Token: Der Pilot nimmt nur hochgeladene Gateway-Logs an.",
                                )}</p> }.into_any()
                            } else {
                                view! {
                                    <div class="table-scroll">
                                    <table class="table" id="ingest-tokens">
                                        <thead><tr>
                                            <th scope="col">"Name"</th><th scope="col">{lang.pick("Starts with", "Beginnt mit")}</th>
                                            <th scope="col">{lang.pick("Created", "Angelegt")}</th><th scope="col">{lang.pick("Last used", "Zuletzt benutzt")}</th><th scope="col">{lang.pick("State", "Zustand")}</th>
                                            <th scope="col"><span class="visually-hidden">{lang.pick("Actions", "Aktionen")}</span></th>
                                        </tr></thead>
                                        <tbody>
                                            {list.into_iter().map(|t| {
                                                let by = if t.created_by.is_empty() { lang.pick("command line", "Kommandozeile").to_string() } else { t.created_by.clone() };
                                                view! {
                                                    <tr>
                                                        <td class="strong">{t.name.clone()}</td>
                                                        <td class="mono">{format!("{}…", t.prefix)}</td>
                                                        <td class="nowrap">{format!("{} · {by}", lang.date_time(t.created_ms))}</td>
                                                        <td class="nowrap">{t.last_used_ms.map(|at| lang.date_time(at)).unwrap_or_else(|| lang.pick("never", "nie").into())}</td>
                                                        <td>{match t.revoked_ms {
                                                            Some(at) => match lang {
                                                                Lang::En => format!("revoked {}", engine::clock::utc_minute(at)),
                                                                Lang::De => format!("widerrufen {}", lang.date_time(at)),
                                                            },
                                                            None => lang.pick("active", "aktiv").to_string(),
                                                        }}</td>
                                                        <td class="row-actions">
                                                            {t.revoked_ms.is_none().then(|| view! {
                                                                <ActionForm action=revoke>
                                                                    <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                                                                    <input type="hidden" name="id" value=t.id.to_string()/>
                                                                    <button type="submit" class="button button-small button-quiet">{lang.pick("Revoke", "Widerrufen")}</button>
                                                                </ActionForm>
                                                            })}
                                                        </td>
                                                    </tr>
                                                }
                                            }).collect_view()}
                                        </tbody>
                                    </table>
                                    </div>
                                }.into_any()
                            }}
                            <ActionForm action=create attr:class="form form-inline">
                                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                                <label for="ingest-token-name">{lang.pick("New ingest token", "Neues Ingest-Token")}</label>
                                <div class="inline-row">
                                    <input id="ingest-token-name" name="name" maxlength="80" placeholder=lang.pick("The gateway, e.g. “litellm-prod”", "Das Gateway, z. B. „litellm-prod“")/>
                                    <button type="submit" class="button button-primary">{lang.pick("Create token", "Token anlegen")}</button>
                                </div>
                            </ActionForm>
                        </section>
                    }.into_any()
                })
            }}
        </Suspense>
    }
}

/// The traffic page's content for its choices.
#[server(endpoint = "page_traffic")]
pub async fn traffic_page(
    pilot_id: i64,
    #[server(default)] choices: Choices,
) -> Result<Fragment, AppError> {
    let data = crate::api::traffic::traffic_overview(pilot_id).await?;
    // "Size for production" opens sizing on the pilot's own model, precision and GPU.
    let pilot = crate::api::pilots::get_pilot(pilot_id).await?.pilot;
    let decision = crate::api::quality::quality_decision(pilot_id).await.ok();
    let (sizing, _) = crate::pages::sizing::pilot_sizing_link(&pilot, decision.as_ref());
    let window = crate::api::traffic::metrics_window(
        pilot_id,
        choices.before.clone(),
        choices.after.clone(),
        choices.dt.clone(),
    )
    .await;
    let title = match crate::components::lang() {
        Lang::En => format!("Traffic · {}", data.pilot_name),
        Lang::De => format!("Verkehr · {}", data.pilot_name),
    };
    Ok(Fragment::render(
        title,
        view! { <render::TrafficView data window choices sizing/> },
    ))
}

#[cfg(feature = "ssr")]
mod render {
    use super::super::sizing::fmt_int as fmt_int_en;
    use super::Choices;
    use crate::api::traffic::{
        GatewayFile, InFlightCrossCheck, LimitSignals, MetricsWindowView, ScrapeFile, TrafficData,
    };
    use crate::components::{PageHeader, lang};
    use engine::demand::{
        ContextBasis, DemandProfile, DemandScaling, TokenDistribution, production_demand_for,
    };
    use engine::locale::Lang;
    use engine::metrics::{Distributions, HistogramSummary, LimitAlarm, VllmGauges};
    use engine::stats::{BucketQuantile, Percentiles};
    use leptos::prelude::*;

    /// A whole number: `12,345` / `12.345`.
    fn fmt_int(value: u64) -> String {
        match lang() {
            Lang::En => fmt_int_en(value),
            Lang::De => Lang::De.number(value as f64, 0),
        }
    }

    fn fmt_f(value: f64, digits: usize) -> String {
        if value.abs() >= 1000.0 {
            fmt_int(value.round().max(0.0) as u64)
        } else {
            dec(value, digits)
        }
    }

    /// `value` with `digits` decimals: `0.125` / `0,125`.
    fn dec(value: f64, digits: usize) -> String {
        match lang() {
            Lang::En => format!("{value:.digits$}"),
            Lang::De => Lang::De.number(value, digits),
        }
    }

    fn fmt_pct(share: f64) -> String {
        format!("{} %", dec(share * 100.0, 1))
    }

    fn minute(ts_ms: i64) -> String {
        lang().date_time(ts_ms)
    }

    /// [`engine::demand::MeasuredContext::tail_sentence`] in `lang`.
    fn tail_sentence(m: &engine::demand::MeasuredContext, lang: Lang) -> String {
        match lang {
            Lang::En => m.tail_sentence(),
            Lang::De => {
                let longer = match m.longer_than_p95 {
                    Some(n) if m.requests > 0 => format!(
                        "{} % der Anfragen ({}) sind länger",
                        lang.number(n as f64 / m.requests as f64 * 100.0, 1),
                        lang.number(n as f64, 0)
                    ),
                    _ => "etwa 5 % der Anfragen sind länger".to_string(),
                };
                format!(
                    "p95 {} Token; {longer}; die längste {}",
                    lang.number(m.p95_tokens.ceil(), 0),
                    lang.number(f64::from(m.max_tokens), 0)
                )
            }
        }
    }

    #[component]
    pub fn TrafficView(
        data: TrafficData,
        window: Result<Option<MetricsWindowView>, crate::error::AppError>,
        choices: Choices,
        sizing: String,
    ) -> impl IntoView {
        let pilot = data.pilot_id;
        let lang = lang();
        let not_comparable = data
            .gateway_check
            .not_comparable
            .clone()
            .map(|reason| match lang {
                Lang::En => format!("Not comparable: {reason}. Its figures grade no pass mark."),
                Lang::De => format!(
                    "Nicht vergleichbar: {}. Seine Werte bewerten keinen Zielwert.",
                    data.gateway_check.reason_in(lang).unwrap_or(reason)
                ),
            });
        view! {
            <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{pilot}")>{data.pilot_name.clone()}</a>{lang.pick(" / Traffic", " / Verkehr")}
            </nav>
            <PageHeader
                title=lang.pick("Real traffic", "Realer Verkehr")
                subtitle=lang.pick(
                    "What the pilot's users asked for, measured exactly at the gateway from its per-request log, and what vLLM's /metrics saw. Times are UTC.",
                    "Was die Nutzer des Piloten angefragt haben, exakt am Gateway aus seinem Log je Anfrage gemessen, und was vLLMs /metrics sah. Zeiten in UTC.",
                )
            />
            <div class="traffic">
                {match data.profile.clone() {
                    None => view! { <NoGatewayLog pilot/> }.into_any(),
                    Some(profile) => view! {
                        {not_comparable.clone().map(|text| view! {
                            <p class="notice notice-warn" role="alert" id="gateway-not-comparable">{text}</p>
                        })}
                        <ProfileSummary profile=profile.clone() files=data.files.len() skipped=data.skipped_lines/>
                        <TrafficCharts profile=profile.clone()/>
                        <ProfileTable profile=profile.clone()/>
                        <InFlightChecks checks=data.in_flight.clone() profile=profile.clone()/>
                        <TraceExport pilot profile=profile.clone()/>
                        <Production profile data=data.clone() choices=choices.clone() sizing=sizing.clone()/>
                    }.into_any(),
                }}
                <GatewayFiles files=data.files.clone()/>
                <Scrapes pilot scrapes=data.scrapes.clone() total=data.scrapes_total limits=data.limits.clone() window choices/>
            </div>
        }
    }

    /// The gateway traffic as a Mooncake trace to download, with the commands that replay it on
    /// another stack ([`engine::twin::trace`]): AIPerf at the trace's own timestamps, and a
    /// `vllm bench serve` concurrency sweep from 1 to the peak in flight at its median lengths.
    #[component]
    fn TraceExport(pilot: i64, profile: DemandProfile) -> impl IntoView {
        let file = desk::traffic::trace_file_name(pilot);
        let p50 =
            |d: &Option<TokenDistribution>| d.as_ref().map_or(1, |d| d.p50.round().max(1.0) as u32);
        let lang = lang();
        let settings = engine::twin::trace::ReplaySettings {
            model: profile
                .models
                .first()
                .map(|m| m.model.clone())
                .unwrap_or_else(|| "MODEL".into()),
            base_url: "http://localhost:8000".into(),
            trace_file: file.clone(),
            prompt_tokens_p50: p50(&profile.prompt_tokens),
            output_tokens_p50: p50(&profile.completion_tokens),
            peak_in_flight: profile.peak_in_flight,
        };
        let commands = engine::twin::trace::replay_commands_in(&settings, lang);
        view! {
            <section class="card" id="trace-export">
                <h2>{lang.pick("Replay this traffic", "Diesen Verkehr nachspielen")}</h2>
                <p class="hint">{lang.pick(
                    "Production's busiest hour as a Mooncake trace (JSON Lines: arrival in ms from the hour's start, prompt and answer tokens): the pilot's busiest hour grown to the plan's production rate, the hour the recommendation was sized for, to replay on the stack to be bought. Add ?copies=N to the address for the share of one of N copies behind a load balancer. Without an approved plan it is the busiest hour as logged; the whole log keeps every successful request at the time it arrived.",
                    "Die Spitzenstunde der Produktion als Mooncake-Trace (JSON Lines: Ankunft in ms ab Beginn der Stunde, Prompt- und Antwort-Token): die Spitzenstunde des Piloten, hochgerechnet auf die Produktionsrate des Plans, also die Stunde, für die die Empfehlung dimensioniert wurde, zum Nachspielen auf dem zu kaufenden Stack. Hängen Sie ?copies=N an die Adresse an, um den Anteil einer von N Kopien hinter einem Load Balancer zu erhalten. Ohne freigegebenen Plan ist es die Spitzenstunde wie protokolliert; das ganze Log enthält jede erfolgreiche Anfrage zu ihrer Ankunftszeit.",
                )}</p>
                <p class="trace-downloads">
                    <a class="button" id="trace-download" href=format!("/pilots/{pilot}/traffic/trace.jsonl") download=file.clone() rel="external">{lang.pick("Production's busiest hour (.jsonl)", "Spitzenstunde der Produktion (.jsonl)")}</a>
                    " "
                    <a class="button button-quiet" id="trace-download-logged" href=format!("/pilots/{pilot}/traffic/trace.jsonl?scope=logged") download=file rel="external">{lang.pick("Whole log as logged (.jsonl)", "Ganzes Log wie protokolliert (.jsonl)")}</a>
                </p>
                {commands.into_iter().map(|(label, command)| view! {
                    <p class="small">{label}</p>
                    <pre class="mono small">{command}</pre>
                }).collect_view()}
            </section>
        }
    }

    #[component]
    fn NoGatewayLog(pilot: i64) -> impl IntoView {
        let lang = lang();
        view! {
            <div class="empty-state">
                <h3>{lang.pick("No gateway log yet", "Noch kein Gateway-Log")}</h3>
                <p>{lang.pick(
                    "Upload the gateway's per-request log (LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload JSONL, or the generic JSONL/CSV schema) as evidence; several files combine into one profile.",
                    "Laden Sie das Log des Gateways je Anfrage (LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload JSONL oder das generische JSONL/CSV-Schema) als Nachweis hoch; mehrere Dateien ergeben zusammen ein Profil.",
                )}</p>
                <pre class="mono small">{format!("curl -H \"Authorization: Bearer $TOKEN\" -F file=@gateway.jsonl \\\n     /api/v1/pilots/{pilot}/evidence")}</pre>
            </div>
        }
    }

    #[component]
    fn ProfileSummary(profile: DemandProfile, files: usize, skipped: u64) -> impl IntoView {
        let context_p95 = profile
            .context_tokens
            .as_ref()
            .map(|c| fmt_int(c.p95.ceil() as u64))
            .unwrap_or_else(|| "–".into());
        let lang = lang();
        let (files_line, rate_line, peak_line) = match lang {
            Lang::En => (
                format!(
                    "{} gateway log{} · {:.1} days{}",
                    files,
                    if files == 1 { "" } else { "s" },
                    profile.observed_span_s / 86_400.0,
                    if skipped > 0 {
                        format!(" · {skipped} malformed lines skipped")
                    } else {
                        String::new()
                    }
                ),
                format!(
                    "req/s · {} arrivals from {}",
                    fmt_int(profile.busiest_hour_arrivals),
                    minute(profile.busiest_hour_start.unix_ms)
                ),
                format!(
                    "requests, at {} · mean {:.2} in the busiest hour",
                    minute(profile.peak_in_flight_at.unix_ms),
                    profile.mean_in_flight_busiest_hour
                ),
            ),
            Lang::De => (
                format!(
                    "{} {} · {} Tage{}",
                    files,
                    if files == 1 {
                        "Gateway-Log"
                    } else {
                        "Gateway-Logs"
                    },
                    dec(profile.observed_span_s / 86_400.0, 1),
                    if skipped > 0 {
                        format!(" · {} fehlerhafte Zeilen übersprungen", fmt_int(skipped))
                    } else {
                        String::new()
                    }
                ),
                format!(
                    "req/s · {} Ankünfte ab {}",
                    fmt_int(profile.busiest_hour_arrivals),
                    minute(profile.busiest_hour_start.unix_ms)
                ),
                format!(
                    "Anfragen, am {} · im Mittel {} in der Spitzenstunde",
                    minute(profile.peak_in_flight_at.unix_ms),
                    dec(profile.mean_in_flight_busiest_hour, 2)
                ),
            ),
        };
        view! {
            <dl class="figures" id="traffic-figures">
                <div>
                    <dt>{lang.pick("Requests", "Anfragen")}</dt>
                    <dd id="traffic-requests">{fmt_int(profile.outcomes.requests)}</dd>
                    <p>{files_line}</p>
                </div>
                <div>
                    <dt>{lang.pick("Busiest-hour rate", "Ankunftsrate der Spitzenstunde")}</dt>
                    <dd id="traffic-rate">{dec(profile.busiest_hour_arrivals_per_s, 3)}</dd>
                    <p>{rate_line}</p>
                </div>
                <div>
                    <dt>{lang.pick("Peak in flight", "Gleichzeitige Anfragen in der Spitze")}</dt>
                    <dd id="traffic-peak">{match lang {
                        Lang::En => profile.peak_in_flight.to_string(),
                        Lang::De => fmt_int(profile.peak_in_flight),
                    }}</dd>
                    <p>{peak_line}</p>
                </div>
                <div>
                    <dt>{lang.pick("Context p95", "Kontext p95")}</dt>
                    <dd>{context_p95}</dd>
                    <p>{lang.pick("tokens per request (prompt + answer)", "Token je Anfrage (Prompt + Antwort)")}</p>
                </div>
            </dl>
        }
    }

    #[component]
    fn TrafficCharts(profile: DemandProfile) -> impl IntoView {
        use engine::charts::{arrivals_chart, in_flight_chart, token_histogram_chart};
        let lang = lang();
        let chart = |result: Result<String, engine::charts::ChartError>| result.unwrap_or_default();
        let arrivals = chart(arrivals_chart(
            &profile.arrivals_per_minute,
            profile.busiest_hour_start.unix_ms,
            lang,
        ));
        let in_flight = chart(in_flight_chart(
            &profile.in_flight_curve,
            profile.peak_in_flight,
            profile.peak_in_flight_at.unix_ms,
            lang,
        ));
        let histogram = |title: &str, d: &Option<TokenDistribution>| {
            d.as_ref()
                .map(|d| {
                    chart(token_histogram_chart(
                        title,
                        &d.histogram,
                        d.p50,
                        d.p95,
                        lang,
                    ))
                })
                .unwrap_or_default()
        };
        let prompt = histogram(
            lang.pick("Prompt tokens", "Prompt-Token"),
            &profile.prompt_tokens,
        );
        let answer = histogram(
            lang.pick("Answer tokens", "Antwort-Token"),
            &profile.completion_tokens,
        );
        let context = histogram(
            lang.pick(
                "Context tokens (prompt + answer)",
                "Kontext-Token (Prompt + Antwort)",
            ),
            &profile.context_tokens,
        );
        view! {
            <section class="card traffic-charts">
                <h2>{lang.pick("Arrivals and concurrency", "Ankünfte und Parallelität")}</h2>
                <figure class="chart" id="chart-arrivals" inner_html=arrivals></figure>
                <figure class="chart" id="chart-in-flight" inner_html=in_flight></figure>
                <h2>{lang.pick("Token lengths (successful requests)", "Token-Längen (erfolgreiche Anfragen)")}</h2>
                <div class="histograms">
                    <figure class="chart" id="chart-prompt" inner_html=prompt></figure>
                    <figure class="chart" id="chart-answer" inner_html=answer></figure>
                    <figure class="chart" id="chart-context" inner_html=context></figure>
                </div>
            </section>
        }
    }

    fn token_row(
        label: &'static str,
        d: &Option<TokenDistribution>,
        definition: &'static str,
    ) -> impl IntoView + use<> {
        let cells = match d {
            Some(d) => [
                fmt_f(d.p50, 0),
                fmt_f(d.p95, 0),
                fmt_f(d.p99, 0),
                fmt_int(u64::from(d.max)),
                fmt_f(d.mean, 1),
            ],
            None => std::array::from_fn(|_| "–".to_string()),
        };
        view! {
            <tr>
                <th scope="row">{label}</th>
                {cells.into_iter().map(|c| view! { <td class="num">{c}</td> }).collect_view()}
                <td class="definition">{definition}</td>
            </tr>
        }
    }

    fn latency_row(
        label: &'static str,
        p: &Option<Percentiles>,
        definition: &'static str,
    ) -> impl IntoView + use<> {
        let cells = match p {
            Some(p) => [
                fmt_f(p.p50, 1),
                fmt_f(p.p95, 1),
                fmt_f(p.p99, 1),
                fmt_f(p.max, 1),
                fmt_f(p.mean, 1),
            ],
            None => std::array::from_fn(|_| "–".to_string()),
        };
        view! {
            <tr>
                <th scope="row">{label}</th>
                {cells.into_iter().map(|c| view! { <td class="num">{c}</td> }).collect_view()}
                <td class="definition">{definition}</td>
            </tr>
        }
    }

    #[component]
    fn ProfileTable(profile: DemandProfile) -> impl IntoView {
        let o = profile.outcomes.clone();
        let little = profile.littles_law.clone();
        let lang = lang();
        let t = |en: &'static str, de: &'static str| lang.pick(en, de);
        let requests = t("requests", "Anfragen");
        let rows: Vec<(&str, String, &str, &str)> = vec![
            (
                t("Requests", "Anfragen"),
                fmt_int(o.requests),
                requests,
                t(
                    "Every request in the log, whatever its outcome.",
                    "Jede Anfrage im Log, gleich mit welchem Ausgang.",
                ),
            ),
            (
                t("Successful", "Erfolgreich"),
                fmt_int(o.ok),
                requests,
                t(
                    "Status ok (truncated answers included); token lengths and latencies cover these.",
                    "Status ok (abgeschnittene Antworten eingeschlossen); Token-Längen und Latenzen beziehen sich auf diese.",
                ),
            ),
            (
                t("Failed", "Fehlgeschlagen"),
                format!("{} ({})", fmt_int(o.failed), fmt_pct(o.failure_rate)),
                requests,
                t(
                    "Status error; share of all requests.",
                    "Status error; Anteil an allen Anfragen.",
                ),
            ),
            (
                t("Timed out", "Zeitüberschreitung"),
                format!("{} ({})", fmt_int(o.timed_out), fmt_pct(o.timeout_rate)),
                requests,
                t(
                    "The gateway gave up waiting.",
                    "Das Gateway hat das Warten aufgegeben.",
                ),
            ),
            (
                t("Cancelled", "Abgebrochen"),
                format!(
                    "{} ({})",
                    fmt_int(o.cancelled),
                    fmt_pct(o.cancellation_rate)
                ),
                requests,
                t(
                    "The client went away; vLLM's success counter never sees these.",
                    "Der Client hat die Verbindung beendet; vLLMs Erfolgszähler sieht diese nie.",
                ),
            ),
            (
                t("Truncated", "Abgeschnitten"),
                format!("{} ({})", fmt_int(o.truncated), fmt_pct(o.truncation_rate)),
                requests,
                t(
                    "finish_reason = length: cut at the token limit; share of successful requests.",
                    "finish_reason = length: am Token-Limit abgeschnitten; Anteil an erfolgreichen Anfragen.",
                ),
            ),
            (
                t("Observed", "Beobachtet"),
                format!(
                    "{} → {}",
                    minute(profile.first_start.unix_ms),
                    minute(profile.last_end.unix_ms)
                ),
                "UTC",
                t(
                    "First request start to last request end.",
                    "Vom Start der ersten bis zum Ende der letzten Anfrage.",
                ),
            ),
            (
                t("Busiest hour", "Spitzenstunde"),
                minute(profile.busiest_hour_start.unix_ms),
                "UTC",
                t(
                    "Start of the sliding 60-minute window with the most request starts (the earliest such).",
                    "Beginn des gleitenden 60-Minuten-Fensters mit den meisten Anfragestarts (das früheste davon).",
                ),
            ),
            (
                t(
                    "Busiest-hour arrival rate",
                    "Ankunftsrate der Spitzenstunde",
                ),
                dec(profile.busiest_hour_arrivals_per_s, 4),
                "req/s",
                t(
                    "Arrivals in the busiest hour ÷ 3,600 s.",
                    "Ankünfte in der Spitzenstunde ÷ 3.600 s.",
                ),
            ),
            (
                t("Peak in flight", "Gleichzeitige Anfragen in der Spitze"),
                match lang {
                    Lang::En => format!(
                        "{} at {}",
                        profile.peak_in_flight,
                        minute(profile.peak_in_flight_at.unix_ms)
                    ),
                    Lang::De => format!(
                        "{} am {}",
                        fmt_int(profile.peak_in_flight),
                        minute(profile.peak_in_flight_at.unix_ms)
                    ),
                },
                requests,
                t(
                    "Most requests between start and end at one instant (exact sweep over the log).",
                    "Höchste Zahl von Anfragen zwischen Start und Ende zu einem Zeitpunkt (exakter Durchlauf über das Log).",
                ),
            ),
            (
                t("Mean in flight", "Gleichzeitige Anfragen im Mittel"),
                dec(profile.mean_in_flight, 3),
                requests,
                t(
                    "Time-weighted over the whole log, idle nights included.",
                    "Zeitgewichtet über das ganze Log, ruhige Nächte eingeschlossen.",
                ),
            ),
            (
                t(
                    "Mean in flight, busiest hour",
                    "Gleichzeitige Anfragen im Mittel, Spitzenstunde",
                ),
                dec(profile.mean_in_flight_busiest_hour, 3),
                requests,
                t(
                    "Time-weighted over the busiest hour.",
                    "Zeitgewichtet über die Spitzenstunde.",
                ),
            ),
            (
                t("Mean request duration", "Mittlere Anfragedauer"),
                dec(profile.mean_duration_s, 2),
                "s",
                t(
                    "Start → end at the gateway, all requests.",
                    "Start → Ende am Gateway, alle Anfragen.",
                ),
            ),
            (
                t("Little's law check", "Prüfung nach Littles Gesetz"),
                match lang {
                    Lang::En => format!(
                        "{:.3} vs {:.3}{}",
                        little.predicted_in_flight,
                        little.measured_in_flight,
                        little
                            .relative_difference
                            .map(|d| format!(" ({:+.1} %)", d * 100.0))
                            .unwrap_or_default()
                    ),
                    Lang::De => format!(
                        "{} ggü. {}{}",
                        dec(little.predicted_in_flight, 3),
                        dec(little.measured_in_flight, 3),
                        little
                            .relative_difference
                            .map(|d| format!(
                                " ({}{} %)",
                                if d >= 0.0 { "+" } else { "" },
                                dec(d * 100.0, 1)
                            ))
                            .unwrap_or_default()
                    ),
                },
                requests,
                t(
                    "Busiest hour: arrival rate × mean duration of its arrivals against the sweep's mean in flight; they differ only by requests straddling the hour's edges.",
                    "Spitzenstunde: Ankunftsrate × mittlere Dauer ihrer Ankünfte gegenüber dem Mittel gleichzeitiger Anfragen aus dem Durchlauf; sie unterscheiden sich nur durch Anfragen, die über die Grenzen der Stunde reichen.",
                ),
            ),
        ];
        let lat = profile.gateway_latency.clone();
        view! {
            <section class="card table-card">
                <h2>{lang.pick("Demand profile", "Nachfrageprofil")}</h2>
                <p class="muted small">{lang.pick(
                    "Measured at the gateway: every request of every gateway log of this pilot, exact (no sampling).",
                    "Am Gateway gemessen: jede Anfrage jedes Gateway-Logs dieses Piloten, exakt (ohne Stichprobe).",
                )}</p>
                <div class="table-scroll">
                <table class="table profile-table" id="profile-table">
                    <thead><tr><th scope="col">{lang.pick("Quantity", "Größe")}</th><th scope="col" class="num">{lang.pick("Value", "Wert")}</th><th scope="col">{lang.pick("Unit", "Einheit")}</th><th scope="col">"Definition"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(q, v, u, d)| view! {
                            <tr><th scope="row">{q}</th><td class="num">{v}</td><td>{u}</td><td class="definition">{d}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
                <div class="table-scroll">
                <table class="table profile-table" id="token-table">
                    <thead><tr>
                        <th scope="col">{lang.pick("Tokens per request", "Token je Anfrage")}</th><th scope="col" class="num">"p50"</th><th scope="col" class="num">"p95"</th>
                        <th scope="col" class="num">"p99"</th><th scope="col" class="num">"max"</th><th scope="col" class="num">{lang.pick("mean", "Mittel")}</th><th scope="col">"Definition"</th>
                    </tr></thead>
                    <tbody>
                        {token_row("Prompt", &profile.prompt_tokens, lang.pick("Input tokens in the model's own tokenizer, as the gateway logged them.", "Eingabe-Token im eigenen Tokenizer des Modells, wie das Gateway sie protokolliert hat."))}
                        {token_row(lang.pick("Answer", "Antwort"), &profile.completion_tokens, lang.pick("Generated tokens.", "Erzeugte Token."))}
                        {token_row(lang.pick("Context", "Kontext"), &profile.context_tokens, lang.pick("Prompt + answer: what one request holds in the KV cache at its end.", "Prompt + Antwort: was eine Anfrage an ihrem Ende im KV-Cache belegt."))}
                    </tbody>
                </table>
                </div>
                <div class="table-scroll">
                <table class="table profile-table" id="latency-table">
                    <thead><tr>
                        <th scope="col">{lang.pick("Gateway latency (ms)", "Gateway-Latenz (ms)")}</th><th scope="col" class="num">"p50"</th><th scope="col" class="num">"p95"</th>
                        <th scope="col" class="num">"p99"</th><th scope="col" class="num">"max"</th><th scope="col" class="num">{lang.pick("mean", "Mittel")}</th><th scope="col">"Definition"</th>
                    </tr></thead>
                    <tbody>
                        {latency_row("TTFT", &lat.ttft_ms, lang.pick("Start → first token, when the log has first-token times; gateway and engine queueing included.", "Start → erstes Token, wenn das Log Zeiten des ersten Tokens enthält; Wartezeit in Gateway und Engine eingeschlossen."))}
                        {latency_row("TPOT", &lat.tpot_ms, lang.pick("(E2E − TTFT) ÷ (answer tokens − 1), ms per token, answers of ≥ 2 tokens.", "(E2E − TTFT) ÷ (Antwort-Token − 1), ms je Token, Antworten mit ≥ 2 Token."))}
                        {latency_row("E2E", &lat.e2e_ms, lang.pick("Start → end at the gateway.", "Start → Ende am Gateway."))}
                    </tbody>
                </table>
                </div>
            </section>
        }
    }

    /// Requests in flight measured two or three ways: each comparison with its tolerance.
    #[component]
    fn InFlightChecks(checks: InFlightCrossCheck, profile: DemandProfile) -> impl IntoView {
        use engine::verdict::cross_check::{log_in_flight_check, log_in_flight_check_in};
        let lang = lang();
        // The log's own check names Little's law's figures, which only the profile has.
        let sentence = |c: &engine::verdict::cross_check::InFlightCheck| match lang {
            Lang::En => c.sentence.clone(),
            Lang::De if log_in_flight_check(&profile) == *c => {
                log_in_flight_check_in(&profile, lang).sentence
            }
            Lang::De => c.sentence_in(lang),
        };
        let gap = checks.gap_in(lang).cloned();
        view! {
            <section class="card" id="in-flight-check">
                <h2>{lang.pick("Requests in flight, cross-checked", "Gleichzeitige Anfragen, gegengeprüft")}</h2>
                <p class="muted small">{lang.pick(
                    "Little's law: the mean number in flight = arrival rate × mean time in the system. The gateway log's exact sweep is the reference; Little's law on the log may differ from it by ±10 % (requests straddling the hour's edges), vLLM's Δ vllm:e2e_request_latency_seconds_sum ÷ Δt by ±20 % (it leaves out the gateway's own time and cancelled requests).",
                    "Littles Gesetz: mittlere Zahl gleichzeitiger Anfragen = Ankunftsrate × mittlere Verweildauer im System. Der exakte Durchlauf über das Gateway-Log ist die Referenz; Littles Gesetz auf dem Log darf davon um ±10 % abweichen (Anfragen, die über die Grenzen der Stunde reichen), vLLMs Δ vllm:e2e_request_latency_seconds_sum ÷ Δt um ±20 % (es lässt die eigene Zeit des Gateways und abgebrochene Anfragen aus).",
                )}</p>
                <ul class="checks">
                    {checks.checks.iter().map(|c| {
                        let class = if c.agrees { "notice notice-ok" } else { "notice notice-error" };
                        view! { <li class=class data-agrees=c.agrees.to_string()>{sentence(c)}</li> }
                    }).collect_view()}
                </ul>
                {gap.map(|gap| view! { <p class="hint" id="in-flight-gap">{gap}</p> })}
            </section>
        }
    }

    #[component]
    fn Production(
        profile: DemandProfile,
        data: TrafficData,
        choices: Choices,
        sizing: String,
    ) -> impl IntoView {
        let Choices {
            users,
            production_users,
            rate,
            basis,
            ..
        } = choices;
        let plan = data.plan_demand.clone().unwrap_or_default();
        let users = if users.is_empty() {
            plan.pilot_users.map(|u| u.to_string()).unwrap_or_default()
        } else {
            users
        };
        let production_users = if production_users.is_empty() {
            plan.production_users
                .map(|u| u.to_string())
                .unwrap_or_default()
        } else {
            production_users
        };
        let rate = if rate.is_empty() && production_users.is_empty() {
            plan.peak_arrival_rate_req_s
                .map(|r| r.to_string())
                .unwrap_or_default()
        } else {
            rate
        };
        let lang = lang();
        let basis_max = basis == "max";
        let basis_p95 = basis == "p95";
        let scaling: Result<Option<DemandScaling>, String> = if !rate.trim().is_empty() {
            rate.trim()
                .parse::<f64>()
                .map(|r| {
                    Some(DemandScaling::EnteredRate {
                        arrival_rate_per_s: r,
                    })
                })
                .map_err(|_| match lang {
                    Lang::En => format!("rate: `{rate}` is not a number of requests per second"),
                    Lang::De => format!("rate: `{rate}` ist keine Zahl von Anfragen pro Sekunde"),
                })
        } else if !users.trim().is_empty() && !production_users.trim().is_empty() {
            match (
                users.trim().parse::<u32>(),
                production_users.trim().parse::<u32>(),
            ) {
                (Ok(pilot_users), Ok(production_users)) => Ok(Some(DemandScaling::UserRatio {
                    pilot_users,
                    production_users,
                })),
                _ => Err(lang
                    .pick(
                        "users, production_users: whole numbers of people",
                        "users, production_users: ganze Zahlen von Personen",
                    )
                    .to_string()),
            }
        } else {
            Ok(None)
        };
        let basis_value = if basis_max {
            ContextBasis::Max
        } else if basis_p95 {
            ContextBasis::P95
        } else {
            ContextBasis::WholeSession
        };
        let plan_context = plan.context_tokens_per_request;
        let result = scaling.and_then(|s| {
            s.map(|s| {
                production_demand_for(&profile, s, basis_value, plan_context)
                    .map_err(|e| e.to_string())
            })
            .transpose()
        });
        let from_plan = data.plan_demand.is_some();
        view! {
            <section class="card" id="production">
                <h2>{lang.pick("Production demand", "Nachfrage in der Produktion")}</h2>
                <p class="muted small">{if from_plan {
                    lang.pick(
                        "Production carries over the pilot's demand, not its concurrency: the busiest-hour rate scaled by production ÷ pilot users (or a rate you enter), and the measured token lengths. Defaults come from the plan's demand assumptions.",
                        "In die Produktion übertragen wird die Nachfrage des Piloten, nicht seine Parallelität: die Ankunftsrate der Spitzenstunde, skaliert mit Nutzern in Produktion ÷ Pilotnutzern (oder eine von Ihnen eingegebene Rate), und die gemessenen Token-Längen. Die Vorgaben stammen aus den Annahmen zur Nachfrage im Plan.",
                    )
                } else {
                    lang.pick(
                        "Production carries over the pilot's demand, not its concurrency: the busiest-hour rate scaled by production ÷ pilot users (or a rate you enter), and the measured token lengths. The pilot has no plan with demand assumptions yet, so enter them here.",
                        "In die Produktion übertragen wird die Nachfrage des Piloten, nicht seine Parallelität: die Ankunftsrate der Spitzenstunde, skaliert mit Nutzern in Produktion ÷ Pilotnutzern (oder eine von Ihnen eingegebene Rate), und die gemessenen Token-Längen. Der Pilot hat noch keinen Plan mit Annahmen zur Nachfrage; geben Sie sie daher hier ein.",
                    )
                }}</p>
                <form method="get" class="form production-form">
                    <div class="field-row">
                        <div><label for="tr-users">{lang.pick("Pilot users", "Pilotnutzer")}</label><input id="tr-users" name="users" type="number" min="1" value=users.clone()/></div>
                        <div><label for="tr-prod-users">{lang.pick("Production users", "Nutzer in Produktion")}</label><input id="tr-prod-users" name="production_users" type="number" min="0" value=production_users.clone()/></div>
                        <div><label for="tr-rate">{lang.pick("or production rate (req/s)", "oder Produktionsrate (req/s)")}</label><input id="tr-rate" name="rate" type="number" min="0" step="any" value=rate.clone()/></div>
                        <div><label for="tr-basis">{lang.pick("Context per session", "Kontext je Sitzung")}</label>
                            <select id="tr-basis" name="basis">
                                <option value="whole" selected=!basis_max && !basis_p95>{lang.pick("whole sessions: longest seen or the plan's, the larger", "ganze Sitzungen: längste gesehene oder die des Plans, die größere")}</option>
                                <option value="max" selected=basis_max>{lang.pick("longest seen", "längste gesehene")}</option>
                                <option value="p95" selected=basis_p95>{lang.pick("p95 (vLLM refuses the longest 5 %)", "p95 (vLLM lehnt die längsten 5 % ab)")}</option>
                            </select>
                        </div>
                    </div>
                    <button type="submit" class="button">{lang.pick("Compute", "Berechnen")}</button>
                </form>
                {match result {
                    Err(message) => view! { <p class="notice notice-error" role="alert">{message}</p> }.into_any(),
                    Ok(None) => view! { <p class="hint">{lang.pick("Give pilot and production users, or a production rate.", "Geben Sie Pilotnutzer und Nutzer in Produktion oder eine Produktionsrate an.")}</p> }.into_any(),
                    Ok(Some(p)) => {
                        let href = production_sizing_href(&sizing, &profile, &p);
                        let (rate_note, prompt_note, answer_note) = match lang {
                            Lang::En => (
                                format!("req/s at the busiest hour{}", p.scale_factor.map(|f| format!(" · ×{f:.2} the pilot's {:.3}", p.pilot_arrival_rate_per_s)).unwrap_or_default()),
                                format!("tokens p50 · p95 {}", fmt_f(p.prompt_tokens_p95, 0)),
                                format!("tokens p50 · p95 {} · mean {:.0}", fmt_f(p.completion_tokens_p95, 0), p.completion_tokens_mean),
                            ),
                            Lang::De => (
                                format!("req/s in der Spitzenstunde{}", p.scale_factor.map(|f| format!(" · ×{} gegenüber {} des Piloten", dec(f, 2), dec(p.pilot_arrival_rate_per_s, 3))).unwrap_or_default()),
                                format!("Token p50 · p95 {}", fmt_f(p.prompt_tokens_p95, 0)),
                                format!("Token p50 · p95 {} · Mittel {}", fmt_f(p.completion_tokens_p95, 0), dec(p.completion_tokens_mean, 0)),
                            ),
                        };
                        let context_note = match (lang, p.context_basis) {
                            (Lang::En, ContextBasis::Max) => "tokens: the longest request seen; also vLLM's --max-model-len".to_string(),
                            (Lang::En, ContextBasis::P95) => "tokens: p95 of prompt + answer; as --max-model-len vLLM refuses every longer request".to_string(),
                            (Lang::En, ContextBasis::WholeSession) => match plan_context {
                                Some(plan) => format!("tokens: whole sessions, the longest request seen or the plan's {} per request, whichever is larger; also vLLM's --max-model-len", fmt_int(u64::from(plan))),
                                None => "tokens: whole sessions, the longest request seen (the plan states no context per request); also vLLM's --max-model-len".to_string(),
                            },
                            (Lang::De, ContextBasis::Max) => "Token: die längste gesehene Anfrage; auch vLLMs --max-model-len".to_string(),
                            (Lang::De, ContextBasis::P95) => "Token: p95 von Prompt + Antwort; als --max-model-len lehnt vLLM jede längere Anfrage ab".to_string(),
                            (Lang::De, ContextBasis::WholeSession) => match plan_context {
                                Some(plan) => format!("Token: ganze Sitzungen, die längste gesehene Anfrage oder die {} je Anfrage des Plans, je nachdem, was größer ist; auch vLLMs --max-model-len", fmt_int(u64::from(plan))),
                                None => "Token: ganze Sitzungen, die längste gesehene Anfrage (der Plan nennt keinen Kontext je Anfrage); auch vLLMs --max-model-len".to_string(),
                            },
                        };
                        view! {
                            <dl class="figures production-figures">
                                <div><dt>{lang.pick("Production rate", "Produktionsrate")}</dt><dd id="production-rate">{dec(p.arrival_rate_per_s, 3)}</dd>
                                    <p>{rate_note}</p></div>
                                <div><dt>"Prompt"</dt><dd>{fmt_f(p.prompt_tokens_p50, 0)}</dd><p>{prompt_note}</p></div>
                                <div><dt>{lang.pick("Answer", "Antwort")}</dt><dd>{fmt_f(p.completion_tokens_p50, 0)}</dd><p>{answer_note}</p></div>
                                <div><dt>{lang.pick("Context per session", "Kontext je Sitzung")}</dt><dd id="production-context">{fmt_int(u64::from(p.context_tokens_per_session))}</dd>
                                    <p>{context_note}</p></div>
                            </dl>
                            {p.measured_context.as_ref().map(|m| view! {
                                <p class="hint" id="production-context-tail">{match lang {
                                    Lang::En => format!("Measured: {}.", m.tail_sentence()),
                                    Lang::De => format!("Gemessen: {}.", tail_sentence(m, lang)),
                                }}</p>
                            })}
                            <p>{lang.pick(
                                "Concurrency on a candidate = production rate × its own request time (Little's law); size the candidate with this context: ",
                                "Parallelität auf einem Kandidaten = Produktionsrate × dessen eigene Anfragedauer (Littles Gesetz); dimensionieren Sie den Kandidaten mit diesem Kontext: ",
                            )}
                                <a class="button" id="size-production" href=href>{lang.pick("Size for production", "Für die Produktion dimensionieren")}</a></p>
                        }.into_any()
                    }
                }}
            </section>
        }
    }

    /// The pilot's sizing link with the production demand: the context per session, and the
    /// sessions to hold as the Poisson p99 of Little's mean (production rate × the pilot's mean
    /// request time; the recommendation simulates the arrivals, this is its cross-check).
    fn production_sizing_href(
        sizing: &str,
        profile: &DemandProfile,
        p: &engine::demand::ProductionDemand,
    ) -> String {
        let duration_s = if profile.busiest_hour_arrivals_per_s > 0.0 {
            profile.mean_in_flight_busiest_hour / profile.busiest_hour_arrivals_per_s
        } else {
            profile.mean_duration_s
        };
        let sessions = engine::production::demand_process::poisson_quantile(
            p.arrival_rate_per_s * duration_s,
            0.99,
        )
        .max(1);
        let separator = if sizing.contains('?') { '&' } else { '?' };
        format!(
            "{sizing}{separator}context={}&sessions={sessions}",
            p.context_tokens_per_session
        )
    }

    #[component]
    fn GatewayFiles(files: Vec<GatewayFile>) -> impl IntoView {
        let lang = lang();
        (!files.is_empty()).then(|| view! {
            <section class="card table-card">
                <h2>{lang.pick("Gateway logs", "Gateway-Logs")}</h2>
                <table class="table">
                    <thead><tr><th scope="col">{lang.pick("File", "Datei")}</th><th scope="col">"Format"</th><th scope="col" class="num">{lang.pick("Requests", "Anfragen")}</th><th scope="col" class="num">{lang.pick("Skipped lines", "Übersprungene Zeilen")}</th><th scope="col">{lang.pick("Uploaded", "Hochgeladen")}</th></tr></thead>
                    <tbody>
                        {files.into_iter().map(|f| view! {
                            <tr>
                                <td>
                                    {format!("#{} {}", f.evidence.id, f.evidence.file_name)}
                                    {f.notes.into_iter().map(|n| view! { <p class="small muted">{n}</p> }).collect_view()}
                                </td>
                                <td>{engine::traffic::reader::GatewayFormat::stored_label_in(&f.format, lang)}</td>
                                <td class="num">{fmt_int(f.records)}</td>
                                <td class="num">{fmt_int(f.skipped_lines)}</td>
                                <td>{format!("{} · {}", minute(f.evidence.uploaded_ms), f.evidence.uploaded_by)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
        })
    }

    fn alarms_view(alarms: &[LimitAlarm]) -> impl IntoView + use<> {
        alarms
            .iter()
            .map(
                |a| view! { <p class="notice notice-error alarm" role="alert">{a.message_in(lang()).to_string()}</p> },
            )
            .collect_view()
    }

    fn gauges_text(g: &VllmGauges) -> String {
        let n = |v: Option<f64>| v.map(|v| dec(v, 0)).unwrap_or_else(|| "–".into());
        let kv = g
            .kv_cache_usage
            .map(|u| format!("{} %", dec(u * 100.0, 1)))
            .unwrap_or_else(|| "–".into());
        match lang() {
            Lang::En => format!(
                "running {} · waiting {} · KV cache {}",
                n(g.requests_running),
                n(g.requests_waiting),
                kv
            ),
            Lang::De => format!(
                "laufend {} · wartend {} · KV-Cache {}",
                n(g.requests_running),
                n(g.requests_waiting),
                kv
            ),
        }
    }

    #[component]
    fn Scrapes(
        pilot: i64,
        scrapes: Vec<ScrapeFile>,
        total: usize,
        limits: LimitSignals,
        window: Result<Option<MetricsWindowView>, crate::error::AppError>,
        choices: Choices,
    ) -> impl IntoView {
        let lang = lang();
        if scrapes.is_empty() {
            return view! {
                <section class="card">
                    <h2>"vLLM /metrics"</h2>
                    <p class="muted">{lang.pick(
                        "No /metrics scrape yet. Upload one before and one after the pilot period (field scraped_at, or give Δt here) to get the period's rates, mean in flight, quantiles and alarms.",
                        "Noch kein /metrics-Scrape. Laden Sie einen vor und einen nach dem Pilotzeitraum hoch (Feld scraped_at, oder geben Sie Δt hier an), um die Raten, die mittlere Zahl gleichzeitiger Anfragen, die Quantile und die Alarme des Zeitraums zu erhalten.",
                    )}</p>
                </section>
            }
            .into_any();
        }
        let Choices {
            before: before_q,
            after: after_q,
            dt: dt_q,
            ..
        } = choices;
        let options = |selected: &str, default_index: usize| {
            scrapes
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let id = s.evidence.id.to_string();
                    let chosen = if selected.is_empty() { scrapes.len() >= 2 && i == default_index } else { selected == id };
                    view! { <option value=id.clone() selected=chosen>{format!("#{} {}", s.evidence.id, s.evidence.file_name)}</option> }
                })
                .collect_view()
        };
        let n = scrapes.len();
        let before_options = options(&before_q, n.saturating_sub(2));
        let after_options = options(&after_q, n.saturating_sub(1));
        // The single-scrape queue notes: worded in `lang` from their data when it is at hand.
        let limit_notes = match lang {
            Lang::De if limits.waiting.len() == limits.notes.len() => {
                limits.waiting.iter().map(|w| w.text_in(lang)).collect()
            }
            _ => limits.notes.clone(),
        };
        let not_comparable = |s: &ScrapeFile| {
            s.check.not_comparable.clone().map(|reason| match lang {
                Lang::En => {
                    format!("Not comparable: {reason}. It raises no alarm and grades nothing.")
                }
                Lang::De => format!(
                    "Nicht vergleichbar: {}. Er löst keinen Alarm aus und bewertet nichts.",
                    s.check.reason_in(lang).unwrap_or(reason)
                ),
            })
        };
        view! {
            <section class="card table-card" id="scrapes">
                <h2>{lang.pick("vLLM /metrics scrapes", "vLLM-/metrics-Scrapes")}</h2>
                <p class="muted small">{lang.pick(
                    "One scrape: totals since the server started and the gauges at that instant. Server histograms are coarse; the gateway log above is exact. The pilot hit its own limit when vLLM preempted requests or a queue lasted: requests waiting in two consecutive scrapes, or half a request waiting on average between two (Δ queue time ÷ Δt); one scrape with requests waiting is a note.",
                    "Ein Scrape: Summen seit dem Start des Servers und die Momentanwerte zu diesem Zeitpunkt. Die Histogramme des Servers sind grob; das Gateway-Log oben ist exakt. Der Pilot stieß an seine eigene Grenze, wenn vLLM Anfragen verdrängte (Preemption) oder eine Warteschlange anhielt: wartende Anfragen in zwei aufeinanderfolgenden Scrapes oder im Mittel eine halbe wartende Anfrage zwischen zweien (Δ Wartezeit ÷ Δt); ein einzelner Scrape mit wartenden Anfragen ist ein Hinweis.",
                )}</p>
                <div id="limit-signals">
                    {alarms_view(&limits.alarms)}
                    {limit_notes.into_iter().map(|n: String| view! { <p class="notice notice-info limit-note">{n}</p> }).collect_view()}
                </div>
                {(total > scrapes.len()).then(|| view! {
                    <p class="muted small scrapes-shown">
                        {match lang {
                            Lang::En => format!("The latest {} of {total} scrapes; ", scrapes.len()),
                            Lang::De => format!("Die neuesten {} von {} Scrapes; ", scrapes.len(), fmt_int(total as u64)),
                        }}
                        <a href=format!("/pilots/{pilot}/evidence")>{lang.pick("the evidence page", "die Nachweisseite")}</a>
                        {lang.pick(" lists every one. Alarms and notes above read them all.", " führt jeden auf. Alarme und Hinweise oben berücksichtigen sie alle.")}
                    </p>
                })}
                <table class="table">
                    <thead><tr><th scope="col">"Scrape"</th><th scope="col">{lang.pick("Taken", "Aufgenommen")}</th><th scope="col" class="num">{lang.pick("Finished since start", "Abgeschlossen seit Start")}</th><th scope="col">{lang.pick("Gauges", "Momentanwerte")}</th><th scope="col">{lang.pick("KV cache", "KV-Cache")}</th></tr></thead>
                    <tbody>
                        {scrapes.iter().map(|s| {
                            let r = &s.summary.report;
                            let cache = r.cache_config.as_ref().map(|c| {
                                let size = c.kv_cache_size_tokens.map(fmt_int).unwrap_or_else(|| "–".into());
                                let concurrency = c.kv_cache_max_concurrency.map(|m| dec(m, 1)).unwrap_or_else(|| "–".into());
                                match lang {
                                    Lang::En => format!("{size} tokens · max concurrency {concurrency}"),
                                    Lang::De => format!("{size} Token · max. Parallelität {concurrency}"),
                                }
                            }).unwrap_or_else(|| "–".into());
                            let models = if r.model_names.is_empty() { lang.pick("not stated", "nicht angegeben").to_string() } else { r.model_names.join(", ") };
                            view! {
                                <tr>
                                    <td>{format!("#{} {}", s.evidence.id, s.evidence.file_name)}<span class="small muted">{match lang {
                                        Lang::En => format!(" · model {models}"),
                                        Lang::De => format!(" · Modell {models}"),
                                    }}</span></td>
                                    <td>{s.summary.scraped_at_ms.map(minute).unwrap_or_else(|| lang.pick("not given", "nicht angegeben").into())}</td>
                                    <td class="num">{fmt_int(r.totals_since_start.requests_finished.round() as u64)}</td>
                                    <td>{gauges_text(&r.gauges)}</td>
                                    <td>{cache}</td>
                                </tr>
                                {not_comparable(s).map(|text| view! { <tr class="not-comparable"><td colspan="5"><p class="notice notice-warn">{text}</p></td></tr> })}
                                {(s.check.is_comparable() && !r.alarms.is_empty()).then(|| view! { <tr><td colspan="5">{alarms_view(&r.alarms)}</td></tr> })}
                                {(s.check.is_comparable() && !r.limit_notes.is_empty()).then(|| view! { <tr><td colspan="5">{r.limit_notes.iter().map(|n| view! { <p class="small muted">{n.clone()}</p> }).collect_view()}</td></tr> })}
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                <h3>{lang.pick("Between two scrapes", "Zwischen zwei Scrapes")}</h3>
                <form method="get" class="form window-form">
                    <div class="field-row">
                        <div><label for="tr-before">{lang.pick("Before", "Vorher")}</label><select id="tr-before" name="before">{before_options}</select></div>
                        <div><label for="tr-after">{lang.pick("After", "Nachher")}</label><select id="tr-after" name="after">{after_options}</select></div>
                        <div><label for="tr-dt">{lang.pick("Δt (seconds)", "Δt (Sekunden)")}</label><input id="tr-dt" name="dt" type="number" min="0" step="any" value=dt_q placeholder=lang.pick("from the scrape times", "aus den Scrape-Zeiten")/></div>
                    </div>
                    <button type="submit" class="button">{lang.pick("Compare", "Vergleichen")}</button>
                </form>
                {match window {
                    Err(error) => view! { <p class="notice notice-error" role="alert">{error.to_string()}</p> }.into_any(),
                    Ok(None) => view! { <p class="hint">{lang.pick("Upload a second scrape of the same server run to compare.", "Laden Sie zum Vergleich einen zweiten Scrape desselben Serverlaufs hoch.")}</p> }.into_any(),
                    Ok(Some(w)) => view! { <WindowView view=w/> }.into_any(),
                }}
            </section>
        }
        .into_any()
    }

    fn quantile_cell(q: &Option<BucketQuantile>) -> String {
        match q {
            None => "–".into(),
            Some(q) => {
                let bound = |b: Option<f64>| b.map(|b| fmt_f(b, 1)).unwrap_or_else(|| "∞".into());
                // German numbers carry a decimal comma: the bounds are parted by a semicolon.
                let separator = lang().pick(", ", "; ");
                format!(
                    "{} [{}{separator}{}]",
                    fmt_f(q.value, 1),
                    bound(q.lower_bound),
                    bound(q.upper_bound)
                )
            }
        }
    }

    fn distribution_rows(d: &Distributions) -> Vec<(&'static str, HistogramSummary)> {
        let lang = lang();
        [
            ("TTFT", &d.ttft_ms),
            (
                lang.pick("Inter-token latency", "Inter-Token-Latenz"),
                &d.inter_token_latency_ms,
            ),
            (
                lang.pick("TPOT (per request)", "TPOT (je Anfrage)"),
                &d.request_tpot_ms,
            ),
            ("E2E", &d.e2e_ms),
            (lang.pick("Queue", "Warteschlange"), &d.queue_ms),
            ("Prefill", &d.prefill_ms),
            ("Decode", &d.decode_ms),
            (lang.pick("Prompt tokens", "Prompt-Token"), &d.prompt_tokens),
            (
                lang.pick("Generation tokens", "Erzeugte Token"),
                &d.generation_tokens,
            ),
        ]
        .into_iter()
        .filter_map(|(name, h)| h.clone().map(|h| (name, h)))
        .collect()
    }

    #[component]
    fn WindowView(view: MetricsWindowView) -> impl IntoView {
        let w = view.window;
        let lang = lang();
        let opt = |v: Option<f64>, digits: usize| {
            v.map(|v| fmt_f(v, digits)).unwrap_or_else(|| "–".into())
        };
        let reasons = w
            .totals
            .requests_by_finished_reason
            .iter()
            .map(|(r, n)| format!("{r} {}", dec(*n, 0)))
            .collect::<Vec<_>>()
            .join(" · ");
        let rows = distribution_rows(&w.distributions);
        view! {
            <div class="window" id="metrics-window">
                <p class="small">{format!("#{} {} → #{} {} · Δt {}", view.before.id, view.before.file_name, view.after.id, view.after.file_name,
                    w.elapsed_s.map(|s| format!("{} s ({})", dec(s, 1), match w.elapsed_from {
                        engine::metrics::ElapsedSource::Caller => lang.pick("given", "angegeben"),
                        engine::metrics::ElapsedSource::Timestamps => lang.pick("from the scrape times", "aus den Scrape-Zeiten"),
                        engine::metrics::ElapsedSource::Unknown => lang.pick("unknown", "unbekannt"),
                    })).unwrap_or_else(|| lang.pick("unknown", "unbekannt").into()))}</p>
                {alarms_view(&w.alarms)}
                {w.limit_notes.iter().map(|n| view! { <p class="notice notice-info limit-note">{n.clone()}</p> }).collect_view()}
                <dl class="figures">
                    <div><dt>{lang.pick("Requests finished", "Abgeschlossene Anfragen")}</dt><dd id="window-requests">{fmt_int(w.totals.requests_finished.round() as u64)}</dd><p>{reasons}</p></div>
                    <div><dt>{lang.pick("Request rate", "Anfragerate")}</dt><dd>{opt(w.request_rate_per_s, 3)}</dd><p>{lang.pick("req/s over the window", "req/s über das Fenster")}</p></div>
                    <div><dt>{lang.pick("Mean in flight", "Gleichzeitige Anfragen im Mittel")}</dt><dd id="window-in-flight">{opt(w.mean_in_flight, 2)}</dd><p>{lang.pick("Δ e2e latency sum ÷ Δt (server side)", "Δ Summe der E2E-Latenz ÷ Δt (Serverseite)")}</p></div>
                    <div><dt>{lang.pick("Tokens", "Token")}</dt><dd>{opt(w.generation_tokens_per_s, 0)}</dd><p>{format!(
                        "{} {}/s · {} {}",
                        lang.pick("generated/s · prompt", "erzeugt/s · Prompt"),
                        opt(w.prompt_tokens_per_s, 0),
                        lang.pick("prefix-cache hits", "Prefix-Cache-Treffer"),
                        w.prefix_cache_hit_rate.map(fmt_pct).unwrap_or_else(|| "–".into())
                    )}</p></div>
                </dl>
                <div class="table-scroll">
                <table class="table" id="window-quantiles">
                    <thead><tr><th scope="col">{lang.pick("Histogram (window)", "Histogramm (Fenster)")}</th><th scope="col" class="num">{lang.pick("count", "Anzahl")}</th><th scope="col" class="num">{lang.pick("mean", "Mittel")}</th>
                        <th scope="col" class="num">{lang.pick("p50 [bounds]", "p50 [Grenzen]")}</th><th scope="col" class="num">{lang.pick("p95 [bounds]", "p95 [Grenzen]")}</th><th scope="col" class="num">{lang.pick("p99 [bounds]", "p99 [Grenzen]")}</th><th scope="col">{lang.pick("unit", "Einheit")}</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(name, h)| view! {
                            <tr><th scope="row">{name}</th><td class="num">{fmt_int(h.count.round() as u64)}</td><td class="num">{opt(h.mean, 1)}</td>
                                <td class="num">{quantile_cell(&h.p50)}</td><td class="num">{quantile_cell(&h.p95)}</td><td class="num">{quantile_cell(&h.p99)}</td><td>{match (lang, h.unit.as_str()) {
                                (Lang::De, "tokens") => "Token".to_string(),
                                _ => h.unit.clone(),
                            }}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
                <p class="hint">{lang.pick(
                    "Quantiles are estimated from the histogram buckets as Prometheus's histogram_quantile does; the true value lies within the bracketed bucket edges.",
                    "Quantile werden aus den Histogramm-Buckets geschätzt, wie es histogram_quantile von Prometheus tut; der wahre Wert liegt innerhalb der eingeklammerten Bucket-Grenzen.",
                )}</p>
                <ul class="warnings">{w.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        }
    }
}
