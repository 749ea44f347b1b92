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
            "Loading…",
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
                        .map(|ms| format!("last success {} UTC", engine::clock::utc_minute(ms)))
                        .unwrap_or_else(|| "no success yet".into());
                    view! {
                        <p class="small" id="metrics-source-status">{format!(
                            "Every {} s · {} scrape{} kept, {} failed attempt{} · {last}",
                            s.interval_s,
                            s.scrapes,
                            if s.scrapes == 1 { "" } else { "s" },
                            s.failures,
                            if s.failures == 1 { "" } else { "s" },
                        )}</p>
                        {s.last_error.clone().map(|e| view! {
                            <p class="notice notice-warn" role="status">{format!("The latest attempt failed: {e}")}</p>
                        })}
                    }
                });
                let button = if current.is_some() { "Save" } else { "Start pulling" };
                view! {
                    <section class="card" id="metrics-source">
                        <h2>"vLLM /metrics, pulled on a schedule"</h2>
                        <p class="muted">"The server scrapes this address at the interval and keeps each scrape as evidence (one an hour once it is two hours old). Link-local and cloud-metadata addresses are refused unless the server's METRICS_ALLOW_HOSTS names them."</p>
                        {status}
                        {move || set.value().get().map(|result| match result {
                            Ok(_) => view! { <p class="notice notice-ok" role="status">"Saved: the first scrape is due now."</p> }.into_any(),
                            Err(error) => view! { <p class="notice notice-error" role="alert">{error.to_string()}</p> }.into_any(),
                        })}
                        {move || remove.value().get().and_then(Result::err).map(|error| view! {
                            <p class="notice notice-error" role="alert">{error.to_string()}</p>
                        })}
                        <ActionForm action=set attr:class="form metrics-source-form">
                            <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                            <label for="ms-url">"Address"</label>
                            <input id="ms-url" name="url" type="url" required maxlength="2000" value=url placeholder="http://vllm:8000/metrics"/>
                            <div class="field-row">
                                <div>
                                    <label for="ms-interval">"Every (seconds, 15–3,600)"</label>
                                    <input id="ms-interval" name="interval_s" type="number" min="15" max="3600" step="1" value=interval placeholder="60"/>
                                </div>
                                <div>
                                    <label for="ms-selector">"Prometheus selector (optional)"</label>
                                    <input id="ms-selector" name="selector" maxlength="1000" value=selector placeholder="{job=\"vllm\"}"/>
                                </div>
                            </div>
                            <label for="ms-token">"Bearer token (optional)"</label>
                            <input id="ms-token" name="bearer_token" type="password" autocomplete="off" maxlength="4096"
                                placeholder=if has_token { "kept: type a new one to replace it" } else { "" }/>
                            {has_token.then(|| view! {
                                <label class="check"><input type="checkbox" name="clear_token" value="on"/>" Remove the bearer token"</label>
                            })}
                            <div class="form-actions">
                                <button type="submit" class="button button-primary">{button}</button>
                            </div>
                        </ActionForm>
                        {current.is_some().then(|| view! {
                            <ActionForm action=remove>
                                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                                <button type="submit" class="button button-quiet button-small">"Stop pulling"</button>
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
                            <h2>"Live gateway feed: ingest tokens"</h2>
                            <p class="muted">
                                "A gateway posts every finished request to "<code>{endpoint.clone()}</code>
                                " with a token made here: it writes this pilot's records and reads nothing. LiteLLM: "
                                <code>"callbacks: [\"generic_api\"]"</code>" with "<code>"GENERIC_LOGGER_ENDPOINT"</code>
                                " set to this server's address followed by that path, and "<code>"GENERIC_LOGGER_HEADERS"</code>
                                " to "<code>"Authorization=Bearer <token>"</code>"."
                            </p>
                            {move || create.value().get().map(|result| match result {
                                Ok(issued) => view! {
                                    <div class="notice notice-ok" role="status">
                                        <strong>{format!("Ingest token “{}” created. Copy it now; it is not shown again.", issued.name)}</strong>
                                        <code class="secret" id="new-ingest-token">{issued.token}</code>
                                    </div>
                                }.into_any(),
                                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
                            })}
                            {if list.is_empty() {
                                view! { <p class="muted">"No ingest tokens yet: the pilot takes uploaded gateway logs only."</p> }.into_any()
                            } else {
                                view! {
                                    <div class="table-scroll">
                                    <table class="table" id="ingest-tokens">
                                        <thead><tr>
                                            <th scope="col">"Name"</th><th scope="col">"Starts with"</th>
                                            <th scope="col">"Created"</th><th scope="col">"Last used"</th><th scope="col">"State"</th>
                                            <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                                        </tr></thead>
                                        <tbody>
                                            {list.into_iter().map(|t| {
                                                let by = if t.created_by.is_empty() { "command line".to_string() } else { t.created_by.clone() };
                                                view! {
                                                    <tr>
                                                        <td class="strong">{t.name.clone()}</td>
                                                        <td class="mono">{format!("{}…", t.prefix)}</td>
                                                        <td class="nowrap">{format!("{} · {by}", engine::clock::utc_minute(t.created_ms))}</td>
                                                        <td class="nowrap">{t.last_used_ms.map(engine::clock::utc_minute).unwrap_or_else(|| "never".into())}</td>
                                                        <td>{match t.revoked_ms {
                                                            Some(at) => format!("revoked {}", engine::clock::utc_minute(at)),
                                                            None => "active".to_string(),
                                                        }}</td>
                                                        <td class="row-actions">
                                                            {t.revoked_ms.is_none().then(|| view! {
                                                                <ActionForm action=revoke>
                                                                    <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                                                                    <input type="hidden" name="id" value=t.id.to_string()/>
                                                                    <button type="submit" class="button button-small button-quiet">"Revoke"</button>
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
                                <label for="ingest-token-name">"New ingest token"</label>
                                <div class="inline-row">
                                    <input id="ingest-token-name" name="name" maxlength="80" placeholder="The gateway, e.g. “litellm-prod”"/>
                                    <button type="submit" class="button button-primary">"Create token"</button>
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
    let title = format!("Traffic · {}", data.pilot_name);
    Ok(Fragment::render(
        title,
        view! { <render::TrafficView data window choices sizing/> },
    ))
}

#[cfg(feature = "ssr")]
mod render {
    use super::super::sizing::fmt_int;
    use super::Choices;
    use crate::api::traffic::{
        GatewayFile, InFlightCrossCheck, LimitSignals, MetricsWindowView, ScrapeFile, TrafficData,
    };
    use crate::components::PageHeader;
    use engine::demand::{
        ContextBasis, DemandProfile, DemandScaling, TokenDistribution, production_demand_for,
    };
    use engine::metrics::{Distributions, HistogramSummary, LimitAlarm, VllmGauges};
    use engine::stats::{BucketQuantile, Percentiles};
    use leptos::prelude::*;

    fn fmt_f(value: f64, digits: usize) -> String {
        if value.abs() >= 1000.0 {
            fmt_int(value.round().max(0.0) as u64)
        } else {
            format!("{value:.digits$}")
        }
    }

    fn fmt_pct(share: f64) -> String {
        format!("{:.1} %", share * 100.0)
    }

    fn minute(ts_ms: i64) -> String {
        engine::clock::utc_minute(ts_ms)
    }

    #[component]
    pub fn TrafficView(
        data: TrafficData,
        window: Result<Option<MetricsWindowView>, crate::error::AppError>,
        choices: Choices,
        sizing: String,
    ) -> impl IntoView {
        let pilot = data.pilot_id;
        view! {
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{pilot}")>{data.pilot_name.clone()}</a>" / Traffic"
            </nav>
            <PageHeader title="Real traffic" subtitle="What the pilot's users asked for, measured exactly at the gateway from its per-request log, and what vLLM's /metrics saw. Times are UTC."/>
            <div class="traffic">
                {match data.profile.clone() {
                    None => view! { <NoGatewayLog pilot/> }.into_any(),
                    Some(profile) => view! {
                        {data.gateway_check.not_comparable.clone().map(|reason| view! {
                            <p class="notice notice-warn" role="alert" id="gateway-not-comparable">{format!("Not comparable: {reason}. Its figures grade no pass mark.")}</p>
                        })}
                        <ProfileSummary profile=profile.clone() files=data.files.len() skipped=data.skipped_lines/>
                        <TrafficCharts profile=profile.clone()/>
                        <ProfileTable profile=profile.clone()/>
                        <InFlightChecks checks=data.in_flight.clone()/>
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
        let commands = engine::twin::trace::replay_commands(&engine::twin::trace::ReplaySettings {
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
        });
        view! {
            <section class="card" id="trace-export">
                <h2>"Replay this traffic"</h2>
                <p class="hint">"Production's busiest hour as a Mooncake trace (JSON Lines: arrival in ms from the hour's start, prompt and answer tokens): the pilot's busiest hour grown to the plan's production rate, the hour the recommendation was sized for, to replay on the stack to be bought. Add ?copies=N to the address for the share of one of N copies behind a load balancer. Without an approved plan it is the busiest hour as logged; the whole log keeps every successful request at the time it arrived."</p>
                <p class="trace-downloads">
                    <a class="button" id="trace-download" href=format!("/pilots/{pilot}/traffic/trace.jsonl") download=file.clone() rel="external">"Production's busiest hour (.jsonl)"</a>
                    " "
                    <a class="button button-quiet" id="trace-download-logged" href=format!("/pilots/{pilot}/traffic/trace.jsonl?scope=logged") download=file rel="external">"Whole log as logged (.jsonl)"</a>
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
        view! {
            <div class="empty-state">
                <h3>"No gateway log yet"</h3>
                <p>"Upload the gateway's per-request log (LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload JSONL, or the generic JSONL/CSV schema) as evidence; several files combine into one profile."</p>
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
        view! {
            <dl class="figures" id="traffic-figures">
                <div>
                    <dt>"Requests"</dt>
                    <dd id="traffic-requests">{fmt_int(profile.outcomes.requests)}</dd>
                    <p>{format!("{} gateway log{} · {:.1} days{}", files, if files == 1 { "" } else { "s" }, profile.observed_span_s / 86_400.0,
                        if skipped > 0 { format!(" · {skipped} malformed lines skipped") } else { String::new() })}</p>
                </div>
                <div>
                    <dt>"Busiest-hour rate"</dt>
                    <dd id="traffic-rate">{format!("{:.3}", profile.busiest_hour_arrivals_per_s)}</dd>
                    <p>{format!("req/s · {} arrivals from {}", fmt_int(profile.busiest_hour_arrivals), minute(profile.busiest_hour_start.unix_ms))}</p>
                </div>
                <div>
                    <dt>"Peak in flight"</dt>
                    <dd id="traffic-peak">{profile.peak_in_flight}</dd>
                    <p>{format!("requests, at {} · mean {:.2} in the busiest hour", minute(profile.peak_in_flight_at.unix_ms), profile.mean_in_flight_busiest_hour)}</p>
                </div>
                <div>
                    <dt>"Context p95"</dt>
                    <dd>{context_p95}</dd>
                    <p>"tokens per request (prompt + answer)"</p>
                </div>
            </dl>
        }
    }

    #[component]
    fn TrafficCharts(profile: DemandProfile) -> impl IntoView {
        use engine::charts::{arrivals_chart, in_flight_chart, token_histogram_chart};
        use engine::locale::Lang;
        let chart = |result: Result<String, engine::charts::ChartError>| result.unwrap_or_default();
        let arrivals = chart(arrivals_chart(
            &profile.arrivals_per_minute,
            profile.busiest_hour_start.unix_ms,
            Lang::En,
        ));
        let in_flight = chart(in_flight_chart(
            &profile.in_flight_curve,
            profile.peak_in_flight,
            profile.peak_in_flight_at.unix_ms,
            Lang::En,
        ));
        let histogram = |title: &str, d: &Option<TokenDistribution>| {
            d.as_ref()
                .map(|d| {
                    chart(token_histogram_chart(
                        title,
                        &d.histogram,
                        d.p50,
                        d.p95,
                        Lang::En,
                    ))
                })
                .unwrap_or_default()
        };
        let prompt = histogram("Prompt tokens", &profile.prompt_tokens);
        let answer = histogram("Answer tokens", &profile.completion_tokens);
        let context = histogram("Context tokens (prompt + answer)", &profile.context_tokens);
        view! {
            <section class="card traffic-charts">
                <h2>"Arrivals and concurrency"</h2>
                <figure class="chart" id="chart-arrivals" inner_html=arrivals></figure>
                <figure class="chart" id="chart-in-flight" inner_html=in_flight></figure>
                <h2>"Token lengths (successful requests)"</h2>
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
        let rows: Vec<(&str, String, &str, &str)> = vec![
            (
                "Requests",
                fmt_int(o.requests),
                "requests",
                "Every request in the log, whatever its outcome.",
            ),
            (
                "Successful",
                fmt_int(o.ok),
                "requests",
                "Status ok (truncated answers included); token lengths and latencies cover these.",
            ),
            (
                "Failed",
                format!("{} ({})", fmt_int(o.failed), fmt_pct(o.failure_rate)),
                "requests",
                "Status error; share of all requests.",
            ),
            (
                "Timed out",
                format!("{} ({})", fmt_int(o.timed_out), fmt_pct(o.timeout_rate)),
                "requests",
                "The gateway gave up waiting.",
            ),
            (
                "Cancelled",
                format!(
                    "{} ({})",
                    fmt_int(o.cancelled),
                    fmt_pct(o.cancellation_rate)
                ),
                "requests",
                "The client went away; vLLM's success counter never sees these.",
            ),
            (
                "Truncated",
                format!("{} ({})", fmt_int(o.truncated), fmt_pct(o.truncation_rate)),
                "requests",
                "finish_reason = length: cut at the token limit; share of successful requests.",
            ),
            (
                "Observed",
                format!(
                    "{} → {}",
                    minute(profile.first_start.unix_ms),
                    minute(profile.last_end.unix_ms)
                ),
                "UTC",
                "First request start to last request end.",
            ),
            (
                "Busiest hour",
                minute(profile.busiest_hour_start.unix_ms),
                "UTC",
                "Start of the sliding 60-minute window with the most request starts (the earliest such).",
            ),
            (
                "Busiest-hour arrival rate",
                format!("{:.4}", profile.busiest_hour_arrivals_per_s),
                "req/s",
                "Arrivals in the busiest hour ÷ 3,600 s.",
            ),
            (
                "Peak in flight",
                format!(
                    "{} at {}",
                    profile.peak_in_flight,
                    minute(profile.peak_in_flight_at.unix_ms)
                ),
                "requests",
                "Most requests between start and end at one instant (exact sweep over the log).",
            ),
            (
                "Mean in flight",
                format!("{:.3}", profile.mean_in_flight),
                "requests",
                "Time-weighted over the whole log, idle nights included.",
            ),
            (
                "Mean in flight, busiest hour",
                format!("{:.3}", profile.mean_in_flight_busiest_hour),
                "requests",
                "Time-weighted over the busiest hour.",
            ),
            (
                "Mean request duration",
                format!("{:.2}", profile.mean_duration_s),
                "s",
                "Start → end at the gateway, all requests.",
            ),
            (
                "Little's law check",
                format!(
                    "{:.3} vs {:.3}{}",
                    little.predicted_in_flight,
                    little.measured_in_flight,
                    little
                        .relative_difference
                        .map(|d| format!(" ({:+.1} %)", d * 100.0))
                        .unwrap_or_default()
                ),
                "requests",
                "Busiest hour: arrival rate × mean duration of its arrivals against the sweep's mean in flight; they differ only by requests straddling the hour's edges.",
            ),
        ];
        let lat = profile.gateway_latency.clone();
        view! {
            <section class="card table-card">
                <h2>"Demand profile"</h2>
                <p class="muted small">"Measured at the gateway: every request of every gateway log of this pilot, exact (no sampling)."</p>
                <div class="table-scroll">
                <table class="table profile-table" id="profile-table">
                    <thead><tr><th scope="col">"Quantity"</th><th scope="col" class="num">"Value"</th><th scope="col">"Unit"</th><th scope="col">"Definition"</th></tr></thead>
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
                        <th scope="col">"Tokens per request"</th><th scope="col" class="num">"p50"</th><th scope="col" class="num">"p95"</th>
                        <th scope="col" class="num">"p99"</th><th scope="col" class="num">"max"</th><th scope="col" class="num">"mean"</th><th scope="col">"Definition"</th>
                    </tr></thead>
                    <tbody>
                        {token_row("Prompt", &profile.prompt_tokens, "Input tokens in the model's own tokenizer, as the gateway logged them.")}
                        {token_row("Answer", &profile.completion_tokens, "Generated tokens.")}
                        {token_row("Context", &profile.context_tokens, "Prompt + answer: what one request holds in the KV cache at its end.")}
                    </tbody>
                </table>
                </div>
                <div class="table-scroll">
                <table class="table profile-table" id="latency-table">
                    <thead><tr>
                        <th scope="col">"Gateway latency (ms)"</th><th scope="col" class="num">"p50"</th><th scope="col" class="num">"p95"</th>
                        <th scope="col" class="num">"p99"</th><th scope="col" class="num">"max"</th><th scope="col" class="num">"mean"</th><th scope="col">"Definition"</th>
                    </tr></thead>
                    <tbody>
                        {latency_row("TTFT", &lat.ttft_ms, "Start → first token, when the log has first-token times; gateway and engine queueing included.")}
                        {latency_row("TPOT", &lat.tpot_ms, "(E2E − TTFT) ÷ (answer tokens − 1), ms per token, answers of ≥ 2 tokens.")}
                        {latency_row("E2E", &lat.e2e_ms, "Start → end at the gateway.")}
                    </tbody>
                </table>
                </div>
            </section>
        }
    }

    /// Requests in flight measured two or three ways: each comparison with its tolerance.
    #[component]
    fn InFlightChecks(checks: InFlightCrossCheck) -> impl IntoView {
        view! {
            <section class="card" id="in-flight-check">
                <h2>"Requests in flight, cross-checked"</h2>
                <p class="muted small">"Little's law: the mean number in flight = arrival rate × mean time in the system. The gateway log's exact sweep is the reference; Little's law on the log may differ from it by ±10 % (requests straddling the hour's edges), vLLM's Δ vllm:e2e_request_latency_seconds_sum ÷ Δt by ±20 % (it leaves out the gateway's own time and cancelled requests)."</p>
                <ul class="checks">
                    {checks.checks.into_iter().map(|c| {
                        let class = if c.agrees { "notice notice-ok" } else { "notice notice-error" };
                        view! { <li class=class data-agrees=c.agrees.to_string()>{c.sentence}</li> }
                    }).collect_view()}
                </ul>
                {checks.gap.map(|gap| view! { <p class="hint" id="in-flight-gap">{gap}</p> })}
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
                .map_err(|_| format!("rate: `{rate}` is not a number of requests per second"))
        } else if !users.trim().is_empty() && !production_users.trim().is_empty() {
            match (
                users.trim().parse::<u32>(),
                production_users.trim().parse::<u32>(),
            ) {
                (Ok(pilot_users), Ok(production_users)) => Ok(Some(DemandScaling::UserRatio {
                    pilot_users,
                    production_users,
                })),
                _ => Err("users, production_users: whole numbers of people".to_string()),
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
                <h2>"Production demand"</h2>
                <p class="muted small">{if from_plan {
                    "Production carries over the pilot's demand, not its concurrency: the busiest-hour rate scaled by production ÷ pilot users (or a rate you enter), and the measured token lengths. Defaults come from the plan's demand assumptions."
                } else {
                    "Production carries over the pilot's demand, not its concurrency: the busiest-hour rate scaled by production ÷ pilot users (or a rate you enter), and the measured token lengths. The pilot has no plan with demand assumptions yet, so enter them here."
                }}</p>
                <form method="get" class="form production-form">
                    <div class="field-row">
                        <div><label for="tr-users">"Pilot users"</label><input id="tr-users" name="users" type="number" min="1" value=users.clone()/></div>
                        <div><label for="tr-prod-users">"Production users"</label><input id="tr-prod-users" name="production_users" type="number" min="0" value=production_users.clone()/></div>
                        <div><label for="tr-rate">"or production rate (req/s)"</label><input id="tr-rate" name="rate" type="number" min="0" step="any" value=rate.clone()/></div>
                        <div><label for="tr-basis">"Context per session"</label>
                            <select id="tr-basis" name="basis">
                                <option value="whole" selected=!basis_max && !basis_p95>"whole sessions: longest seen or the plan's, the larger"</option>
                                <option value="max" selected=basis_max>"longest seen"</option>
                                <option value="p95" selected=basis_p95>"p95 (vLLM refuses the longest 5 %)"</option>
                            </select>
                        </div>
                    </div>
                    <button type="submit" class="button">"Compute"</button>
                </form>
                {match result {
                    Err(message) => view! { <p class="notice notice-error" role="alert">{message}</p> }.into_any(),
                    Ok(None) => view! { <p class="hint">"Give pilot and production users, or a production rate."</p> }.into_any(),
                    Ok(Some(p)) => {
                        let href = production_sizing_href(&sizing, &profile, &p);
                        view! {
                            <dl class="figures production-figures">
                                <div><dt>"Production rate"</dt><dd id="production-rate">{format!("{:.3}", p.arrival_rate_per_s)}</dd>
                                    <p>{format!("req/s at the busiest hour{}", p.scale_factor.map(|f| format!(" · ×{f:.2} the pilot's {:.3}", p.pilot_arrival_rate_per_s)).unwrap_or_default())}</p></div>
                                <div><dt>"Prompt"</dt><dd>{fmt_f(p.prompt_tokens_p50, 0)}</dd><p>{format!("tokens p50 · p95 {}", fmt_f(p.prompt_tokens_p95, 0))}</p></div>
                                <div><dt>"Answer"</dt><dd>{fmt_f(p.completion_tokens_p50, 0)}</dd><p>{format!("tokens p50 · p95 {} · mean {:.0}", fmt_f(p.completion_tokens_p95, 0), p.completion_tokens_mean)}</p></div>
                                <div><dt>"Context per session"</dt><dd id="production-context">{fmt_int(u64::from(p.context_tokens_per_session))}</dd>
                                    <p>{match p.context_basis {
                                        ContextBasis::Max => "tokens: the longest request seen; also vLLM's --max-model-len".to_string(),
                                        ContextBasis::P95 => "tokens: p95 of prompt + answer; as --max-model-len vLLM refuses every longer request".to_string(),
                                        ContextBasis::WholeSession => match plan_context {
                                            Some(plan) => format!("tokens: whole sessions, the longest request seen or the plan's {} per request, whichever is larger; also vLLM's --max-model-len", fmt_int(u64::from(plan))),
                                            None => "tokens: whole sessions, the longest request seen (the plan states no context per request); also vLLM's --max-model-len".to_string(),
                                        },
                                    }}</p></div>
                            </dl>
                            {p.measured_context.as_ref().map(|m| view! {
                                <p class="hint" id="production-context-tail">{format!("Measured: {}.", m.tail_sentence())}</p>
                            })}
                            <p>"Concurrency on a candidate = production rate × its own request time (Little's law); size the candidate with this context: "
                                <a class="button" id="size-production" href=href>"Size for production"</a></p>
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
        (!files.is_empty()).then(|| view! {
            <section class="card table-card">
                <h2>"Gateway logs"</h2>
                <table class="table">
                    <thead><tr><th scope="col">"File"</th><th scope="col">"Format"</th><th scope="col" class="num">"Requests"</th><th scope="col" class="num">"Skipped lines"</th><th scope="col">"Uploaded"</th></tr></thead>
                    <tbody>
                        {files.into_iter().map(|f| view! {
                            <tr>
                                <td>
                                    {format!("#{} {}", f.evidence.id, f.evidence.file_name)}
                                    {f.notes.into_iter().map(|n| view! { <p class="small muted">{n}</p> }).collect_view()}
                                </td>
                                <td>{f.format}</td>
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
                |a| view! { <p class="notice notice-error alarm" role="alert">{a.message.clone()}</p> },
            )
            .collect_view()
    }

    fn gauges_text(g: &VllmGauges) -> String {
        let n = |v: Option<f64>| v.map(|v| format!("{v:.0}")).unwrap_or_else(|| "–".into());
        format!(
            "running {} · waiting {} · KV cache {}",
            n(g.requests_running),
            n(g.requests_waiting),
            g.kv_cache_usage
                .map(|u| format!("{:.1} %", u * 100.0))
                .unwrap_or_else(|| "–".into())
        )
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
        if scrapes.is_empty() {
            return view! {
                <section class="card">
                    <h2>"vLLM /metrics"</h2>
                    <p class="muted">"No /metrics scrape yet. Upload one before and one after the pilot period (field scraped_at, or give Δt here) to get the period's rates, mean in flight, quantiles and alarms."</p>
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
        view! {
            <section class="card table-card" id="scrapes">
                <h2>"vLLM /metrics scrapes"</h2>
                <p class="muted small">"One scrape: totals since the server started and the gauges at that instant. Server histograms are coarse; the gateway log above is exact. The pilot hit its own limit when vLLM preempted requests or a queue lasted: requests waiting in two consecutive scrapes, or half a request waiting on average between two (Δ queue time ÷ Δt); one scrape with requests waiting is a note."</p>
                <div id="limit-signals">
                    {alarms_view(&limits.alarms)}
                    {limits.notes.into_iter().map(|n| view! { <p class="notice notice-info limit-note">{n}</p> }).collect_view()}
                </div>
                {(total > scrapes.len()).then(|| view! {
                    <p class="muted small scrapes-shown">
                        {format!("The latest {} of {total} scrapes; ", scrapes.len())}
                        <a href=format!("/pilots/{pilot}/evidence")>"the evidence page"</a>
                        " lists every one. Alarms and notes above read them all."
                    </p>
                })}
                <table class="table">
                    <thead><tr><th scope="col">"Scrape"</th><th scope="col">"Taken"</th><th scope="col" class="num">"Finished since start"</th><th scope="col">"Gauges"</th><th scope="col">"KV cache"</th></tr></thead>
                    <tbody>
                        {scrapes.iter().map(|s| {
                            let r = &s.summary.report;
                            let cache = r.cache_config.as_ref().map(|c| format!("{} tokens · max concurrency {}",
                                c.kv_cache_size_tokens.map(fmt_int).unwrap_or_else(|| "–".into()),
                                c.kv_cache_max_concurrency.map(|m| format!("{m:.1}")).unwrap_or_else(|| "–".into()))).unwrap_or_else(|| "–".into());
                            view! {
                                <tr>
                                    <td>{format!("#{} {}", s.evidence.id, s.evidence.file_name)}<span class="small muted">{format!(" · model {}", if r.model_names.is_empty() { "not stated".to_string() } else { r.model_names.join(", ") })}</span></td>
                                    <td>{s.summary.scraped_at_ms.map(minute).unwrap_or_else(|| "not given".into())}</td>
                                    <td class="num">{fmt_int(r.totals_since_start.requests_finished.round() as u64)}</td>
                                    <td>{gauges_text(&r.gauges)}</td>
                                    <td>{cache}</td>
                                </tr>
                                {s.check.not_comparable.clone().map(|reason| view! { <tr class="not-comparable"><td colspan="5"><p class="notice notice-warn">{format!("Not comparable: {reason}. It raises no alarm and grades nothing.")}</p></td></tr> })}
                                {(s.check.is_comparable() && !r.alarms.is_empty()).then(|| view! { <tr><td colspan="5">{alarms_view(&r.alarms)}</td></tr> })}
                                {(s.check.is_comparable() && !r.limit_notes.is_empty()).then(|| view! { <tr><td colspan="5">{r.limit_notes.iter().map(|n| view! { <p class="small muted">{n.clone()}</p> }).collect_view()}</td></tr> })}
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                <h3>"Between two scrapes"</h3>
                <form method="get" class="form window-form">
                    <div class="field-row">
                        <div><label for="tr-before">"Before"</label><select id="tr-before" name="before">{before_options}</select></div>
                        <div><label for="tr-after">"After"</label><select id="tr-after" name="after">{after_options}</select></div>
                        <div><label for="tr-dt">"Δt (seconds)"</label><input id="tr-dt" name="dt" type="number" min="0" step="any" value=dt_q placeholder="from the scrape times"/></div>
                    </div>
                    <button type="submit" class="button">"Compare"</button>
                </form>
                {match window {
                    Err(error) => view! { <p class="notice notice-error" role="alert">{error.to_string()}</p> }.into_any(),
                    Ok(None) => view! { <p class="hint">"Upload a second scrape of the same server run to compare."</p> }.into_any(),
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
                format!(
                    "{} [{}, {}]",
                    fmt_f(q.value, 1),
                    bound(q.lower_bound),
                    bound(q.upper_bound)
                )
            }
        }
    }

    fn distribution_rows(d: &Distributions) -> Vec<(&'static str, HistogramSummary)> {
        [
            ("TTFT", &d.ttft_ms),
            ("Inter-token latency", &d.inter_token_latency_ms),
            ("TPOT (per request)", &d.request_tpot_ms),
            ("E2E", &d.e2e_ms),
            ("Queue", &d.queue_ms),
            ("Prefill", &d.prefill_ms),
            ("Decode", &d.decode_ms),
            ("Prompt tokens", &d.prompt_tokens),
            ("Generation tokens", &d.generation_tokens),
        ]
        .into_iter()
        .filter_map(|(name, h)| h.clone().map(|h| (name, h)))
        .collect()
    }

    #[component]
    fn WindowView(view: MetricsWindowView) -> impl IntoView {
        let w = view.window;
        let opt = |v: Option<f64>, digits: usize| {
            v.map(|v| fmt_f(v, digits)).unwrap_or_else(|| "–".into())
        };
        let reasons = w
            .totals
            .requests_by_finished_reason
            .iter()
            .map(|(r, n)| format!("{r} {n:.0}"))
            .collect::<Vec<_>>()
            .join(" · ");
        let rows = distribution_rows(&w.distributions);
        view! {
            <div class="window" id="metrics-window">
                <p class="small">{format!("#{} {} → #{} {} · Δt {}", view.before.id, view.before.file_name, view.after.id, view.after.file_name,
                    w.elapsed_s.map(|s| format!("{s:.1} s ({})", match w.elapsed_from { engine::metrics::ElapsedSource::Caller => "given", engine::metrics::ElapsedSource::Timestamps => "from the scrape times", engine::metrics::ElapsedSource::Unknown => "unknown" })).unwrap_or_else(|| "unknown".into()))}</p>
                {alarms_view(&w.alarms)}
                {w.limit_notes.iter().map(|n| view! { <p class="notice notice-info limit-note">{n.clone()}</p> }).collect_view()}
                <dl class="figures">
                    <div><dt>"Requests finished"</dt><dd id="window-requests">{fmt_int(w.totals.requests_finished.round() as u64)}</dd><p>{reasons}</p></div>
                    <div><dt>"Request rate"</dt><dd>{opt(w.request_rate_per_s, 3)}</dd><p>"req/s over the window"</p></div>
                    <div><dt>"Mean in flight"</dt><dd id="window-in-flight">{opt(w.mean_in_flight, 2)}</dd><p>"Δ e2e latency sum ÷ Δt (server side)"</p></div>
                    <div><dt>"Tokens"</dt><dd>{opt(w.generation_tokens_per_s, 0)}</dd><p>{format!("generated/s · prompt {}/s · prefix-cache hits {}", opt(w.prompt_tokens_per_s, 0), w.prefix_cache_hit_rate.map(fmt_pct).unwrap_or_else(|| "–".into()))}</p></div>
                </dl>
                <div class="table-scroll">
                <table class="table" id="window-quantiles">
                    <thead><tr><th scope="col">"Histogram (window)"</th><th scope="col" class="num">"count"</th><th scope="col" class="num">"mean"</th>
                        <th scope="col" class="num">"p50 [bounds]"</th><th scope="col" class="num">"p95 [bounds]"</th><th scope="col" class="num">"p99 [bounds]"</th><th scope="col">"unit"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(name, h)| view! {
                            <tr><th scope="row">{name}</th><td class="num">{fmt_int(h.count.round() as u64)}</td><td class="num">{opt(h.mean, 1)}</td>
                                <td class="num">{quantile_cell(&h.p50)}</td><td class="num">{quantile_cell(&h.p95)}</td><td class="num">{quantile_cell(&h.p99)}</td><td>{h.unit.clone()}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
                <p class="hint">"Quantiles are estimated from the histogram buckets as Prometheus's histogram_quantile does; the true value lies within the bracketed bucket edges."</p>
                <ul class="warnings">{w.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        }
    }
}
