//! A pilot's load tests: curves against concurrency, goodput per operating point against the
//! plan in force, capacity per scenario, the capacity twin's prediction at a load the tests did
//! not try (the plan's peak by default), and comparisons of runs.
//!
//! Both pages are server-rendered fragments (see [`crate::components::fragment`]): everything on
//! them is driven by links and GET forms (percentile tabs, the twin's load, the runs to compare).

use super::params::pilot_id_param;
use crate::components::{Fragment, fragment_view};
use crate::error::AppError;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn LoadTestsPage() -> impl IntoView {
    let id = pilot_id_param();
    let query = use_query_map();
    // `p`: the percentile tab; `x`: the curves' axis (`concurrency` or `rate`); the twin's load from the card's form, `twin=rate|concurrency&
    // load=N` (none: the default load), and `price` (staff: the operating-point cost).
    let args = move || {
        let q = query.read();
        (
            q.get("p").unwrap_or_default(),
            q.get("twin").unwrap_or_default(),
            q.get("load").unwrap_or_default(),
            q.get("price").unwrap_or_default(),
            q.get("config").unwrap_or_default(),
            q.get("x").unwrap_or_default(),
        )
    };
    fragment_view(
        "Loading…",
        move || (id(), args()),
        |(id, (percentile, twin, load, price, config, axis))| {
            load_tests_page(id, percentile, twin, load, price, config, axis)
        },
    )
}

/// The load-tests page's content: curves, capacity, goodput per point and the capacity twin's
/// card at the asked load (`twin` = `rate` or `concurrency` with `load`; else the default).
#[server(endpoint = "page_load_tests")]
pub async fn load_tests_page(
    pilot_id: i64,
    #[server(default)] percentile: String,
    #[server(default)] twin: String,
    #[server(default)] load: String,
    #[server(default)] price: String,
    #[server(default)] config: String,
    #[server(default)] axis: String,
) -> Result<Fragment, AppError> {
    let view = crate::api::load_tests::get_load_tests(pilot_id, percentile, axis).await?;
    let (rate, concurrency) = match twin.as_str() {
        "rate" => (load, String::new()),
        "concurrency" => (String::new(), load),
        _ => (String::new(), String::new()),
    };
    let twin =
        crate::api::predict::get_capacity_twin(pilot_id, rate, concurrency, price, config).await;
    let title = format!("Load tests · {}", view.pilot.name);
    Ok(Fragment::render(title, render::load_tests(view, twin)))
}

#[component]
pub fn CompareLoadTestsPage() -> impl IntoView {
    let id = pilot_id_param();
    let query = use_query_map();
    let args = move || {
        let q = query.read();
        (
            q.get("baseline").unwrap_or_default(),
            q.get_all("run").unwrap_or_default().join(","),
            q.get("p").unwrap_or_default(),
        )
    };
    fragment_view(
        "Loading…",
        move || (id(), args()),
        |(id, (baseline, runs, percentile))| compare_page(id, baseline, runs, percentile),
    )
}

/// The compare page's content: the picker, and with a baseline and runs (comma-separated
/// `id` or `id:point`) the comparison.
#[server(endpoint = "page_compare_load_tests")]
pub async fn compare_page(
    pilot_id: i64,
    #[server(default)] baseline: String,
    #[server(default)] runs: String,
    #[server(default)] percentile: String,
) -> Result<Fragment, AppError> {
    let view =
        crate::api::load_tests::get_load_tests(pilot_id, percentile.clone(), String::new()).await?;
    let compared = if baseline.is_empty() || runs.is_empty() {
        None
    } else {
        Some(
            crate::api::load_tests::compare_load_tests(
                pilot_id,
                baseline.clone(),
                runs.clone(),
                percentile,
            )
            .await,
        )
    };
    let selected = runs
        .split(',')
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect();
    let title = format!("Compare load tests · {}", view.pilot.name);
    Ok(Fragment::render(
        title,
        render::compare(view, compared, baseline, selected),
    ))
}

#[cfg(feature = "ssr")]
mod render {
    use crate::api::load_tests::{
        Chart, Comparison, CurveAxis, LoadTestRun, LoadTestView, PointRow, Stat3,
    };
    use crate::api::predict::TwinView;
    use crate::components::PageHeader;
    use crate::error::AppError;
    use engine::loadtest::{ConcurrencyBasis, GoodputMethod, SpreadState};
    use leptos::prelude::*;

    /// An error in a part of the page (the rest of it stands).
    fn inline_error(error: AppError) -> AnyView {
        view! { <div class="notice notice-error" role="alert"><p>{error.to_string()}</p></div> }
            .into_any()
    }

    /// A figure with up to two decimals, trailing zeros dropped, thousands separated: `1,234.57`,
    /// `572`, `26.04`; `–` when missing.
    pub fn fmt_num(value: Option<f64>) -> String {
        let Some(v) = value else {
            return "–".into();
        };
        let text = format!("{:.2}", v.abs());
        let text = text.trim_end_matches('0').trim_end_matches('.').to_string();
        let (int, frac) = match text.split_once('.') {
            Some((i, f)) => (i.to_string(), Some(f.to_string())),
            None => (text.clone(), None),
        };
        let grouped = engine::format::thousands(int.parse().unwrap_or(0));
        let sign = if v < 0.0 && text != "0" { "-" } else { "" };
        match frac {
            Some(f) => format!("{sign}{grouped}.{f}"),
            None => format!("{sign}{grouped}"),
        }
    }

    fn spread_badge(state: Option<SpreadState>) -> impl IntoView {
        state.map(|s| {
            let class = match s {
                SpreadState::Idle => "badge badge-pass",
                SpreadState::Queueing => "badge badge-warn",
                SpreadState::Saturated => "badge badge-fail",
            };
            view! { <span class=class title=s.meaning()>{s.label()}</span> }
        })
    }

    fn stat_cells(stat: Stat3) -> impl IntoView {
        view! {
            <td class="num">{fmt_num(stat.p50)}</td>
            <td class="num">{fmt_num(stat.p95)}</td>
            <td class="num">{fmt_num(stat.p99)}</td>
        }
    }

    #[component]
    fn ChartCard(chart: Chart) -> impl IntoView {
        view! {
            <figure class="card chart-card" id=format!("chart-{}", chart.id)>
                <div class="chart" role="img" aria-label=chart.title.clone() inner_html=chart.svg></div>
            </figure>
        }
    }

    fn goodput_cells(point: &PointRow) -> AnyView {
        match &point.goodput {
            None => view! { <td class="muted">"no targets"</td><td class="num">"–"</td><td class="num">"–"</td> }.into_any(),
            Some(g) => {
                let (class, text) = match g.all_met {
                    Some(true) => ("badge badge-pass", "all met"),
                    Some(false) => ("badge badge-fail", "missed"),
                    None => ("badge", "not measured"),
                };
                let detail = g
                    .checks
                    .iter()
                    .map(|c| {
                        format!(
                            "{}: {}",
                            c.label,
                            c.value_ms
                                .map(|v| format!("{} ms", fmt_num(Some(v))))
                                .unwrap_or_else(|| "not in the file".into())
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                let share = match g.method {
                    GoodputMethod::PerRequest => g
                        .share_pct
                        .map(|s| format!("{} %", fmt_num(Some(s))))
                        .unwrap_or_else(|| "–".into()),
                    GoodputMethod::Percentiles => {
                        format!("{} *", g.share_bound.clone().unwrap_or_else(|| "–".into()))
                    }
                };
                let rps = match g.method {
                    GoodputMethod::PerRequest => fmt_num(g.goodput_rps),
                    GoodputMethod::Percentiles => "–".into(),
                };
                view! {
                    <td><span class=class title=detail>{text}</span></td>
                    <td class="num" title=g.method.label()>{share}</td>
                    <td class="num">{rps}</td>
                }
                .into_any()
            }
        }
    }

    #[component]
    fn RunCard(run: LoadTestRun, pilot_id: i64) -> impl IntoView {
        let e = run.evidence.clone();
        let tool = match &run.tool_version {
            Some(v) => format!("{} {v}", run.tool),
            None => run.tool.clone(),
        };
        let context = run
            .run_context
            .as_ref()
            .map(|c| c.summary())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "Run context not recorded".into());
        let method = if run.per_request {
            "Goodput: exact, from the per-request records of the kept raw file."
        } else {
            "Goodput: * graded on the reported percentiles (the file has no per-request data): the share of good requests is a bound, not a count."
        };
        let has_itl = run.points.iter().any(|p| !p.itl.is_empty());
        let derived_load = run
            .points
            .iter()
            .any(|p| p.concurrency_basis == ConcurrencyBasis::LittlesLaw);
        // A file mixing serving frameworks (vLLM and SGLang rows) names each row's.
        let has_framework = run.points.iter().any(|p| p.framework.is_some());
        view! {
            <section class="card run-card" id=format!("run-{}", e.id)>
                <div class="card-head">
                    <div>
                        <h2>{e.file_name.clone()}</h2>
                        <p class="muted small">{format!("Evidence #{} · {} · {} · uploaded {} by {} · SHA-256 {}…",
                            e.id, tool, run.layout, engine::clock::utc_minute(e.uploaded_ms),
                            if e.uploaded_by.is_empty() { "a deleted account".to_string() } else { e.uploaded_by.clone() },
                            crate::pages::evidence::sha256_prefix(&e.sha256))}</p>
                        <p class="small run-context-line">{context}</p>
                        {run.not_comparable.clone().map(|why| view! {
                            <p class="notice notice-warn small not-comparable" role="note">
                                {format!("Not comparable: {why}. Its figures grade no pass mark and its points are drawn apart, marked “not comparable”.")}
                            </p>
                        })}
                    </div>
                    <a class="button" href=format!("/pilots/{pilot_id}/load-tests/compare?baseline={}", e.id)>"Compare…"</a>
                </div>
                <div class="table-scroll">
                    <table class="table points-table goodput-table">
                        <caption>"Goodput and throughput"</caption>
                        <thead>
                            <tr>
                                <th scope="col" rowspan="2">"Scenario"</th>
                                {has_framework.then(|| view! { <th scope="col" rowspan="2">"Framework"</th> })}
                                <th scope="col" rowspan="2" class="num" title="requests in flight">"Conc."</th>
                                <th scope="colgroup" colspan="3" class="group">"Goodput vs plan"</th>
                                <th scope="col" rowspan="2" class="num">"OK / failed"</th>
                                <th scope="col" rowspan="2" class="num">"req/s"</th>
                                <th scope="col" rowspan="2" class="num" title="aggregate output tokens per second">"out tok/s"</th>
                                <th scope="col" rowspan="2" class="num" title="per stream: the file's figure, else 1000 ÷ TPOT p50">"tok/s per stream"</th>
                                <th scope="col" rowspan="2" title="TTFT p50/p95/p99 spread">"Spread"</th>
                            </tr>
                            <tr>
                                <th>"targets"</th><th class="num">"share good"</th><th class="num">"good req/s"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {run.points.clone().into_iter().map(|p| view! {
                                <tr data-point=p.key.clone()>
                                    {scenario_cell(&p)}
                                    {has_framework.then(|| view! { <td>{p.framework.clone().unwrap_or_default()}</td> })}
                                    {in_flight_cell(&p)}
                                    {goodput_cells(&p)}
                                    <td class="num">{format!("{} / {}", p.completed.map(|c| c.to_string()).unwrap_or_else(|| "–".into()), p.failed.map(|c| c.to_string()).unwrap_or_else(|| "–".into()))}</td>
                                    <td class="num">{fmt_num(p.request_throughput)}</td>
                                    <td class="num">{fmt_num(p.output_tokens_per_s)}</td>
                                    <td class="num">{fmt_num(p.per_stream_tokens_per_s)}{p.per_stream_derived.then_some("†")}</td>
                                    <td>{spread_badge(p.spread)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <div class="table-scroll">
                    <table class="table points-table latency-table">
                        <caption>"Latency at the client, ms"</caption>
                        <thead>
                            <tr>
                                <th scope="col" rowspan="2">"Scenario"</th>
                                <th scope="col" rowspan="2" class="num" title="requests in flight">"Conc."</th>
                                <th scope="colgroup" colspan="3" class="group">"TTFT, ms"</th>
                                <th scope="colgroup" colspan="3" class="group">"TPOT, ms"</th>
                                {has_itl.then(|| view! { <th scope="colgroup" colspan="3" class="group">"ITL, ms"</th> })}
                                <th scope="colgroup" colspan="3" class="group">"E2E, ms"</th>
                            </tr>
                            <tr>
                                <th class="num">"p50"</th><th class="num">"p95"</th><th class="num">"p99"</th>
                                <th class="num">"p50"</th><th class="num">"p95"</th><th class="num">"p99"</th>
                                {has_itl.then(|| view! { <th class="num">"p50"</th><th class="num">"p95"</th><th class="num">"p99"</th> })}
                                <th class="num">"p50"</th><th class="num">"p95"</th><th class="num">"p99"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {run.points.clone().into_iter().map(|p| view! {
                                <tr data-point=p.key.clone()>
                                    {scenario_cell(&p)}
                                    {in_flight_cell(&p)}
                                    {stat_cells(p.ttft)}
                                    {stat_cells(p.tpot)}
                                    {has_itl.then(|| stat_cells(p.itl))}
                                    {stat_cells(p.e2e)}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="hint">{method} " † per-stream tokens/s = 1000 ÷ TPOT p50 (the file does not report it). All latencies are measured at the client (the load generator)."</p>
                {derived_load.then(|| view! {
                    <p class="hint little-law-note">"≈ The file states a request rate, not a concurrency: requests in flight are the run's mean by Little's law (request throughput × mean E2E latency, the mean rebuilt as TTFT + TPOT × (output tokens − 1) where the file gives none). Curves, capacity and grading place such a point there; grading takes the lowest point at or above the planned peak."</p>
                })}
                {(!run.warnings.is_empty()).then(|| view! {
                    <ul class="warnings">{run.warnings.clone().into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
                })}
            </section>
        }
    }

    /// A point's requests in flight: the stated concurrency, or "≈ mean" by Little's law with
    /// the rate the file states, or the rate alone when nothing gives a concurrency.
    /// The scenario of a point, its source in the tooltip (`dataset ` dropped).
    fn scenario_cell(p: &PointRow) -> impl IntoView + use<> {
        let scenario = p
            .scenario
            .strip_prefix("dataset ")
            .unwrap_or(&p.scenario)
            .to_string();
        view! { <td title=p.source.clone()>{scenario}</td> }
    }

    fn in_flight_cell(p: &PointRow) -> impl IntoView + use<> {
        let rate = p
            .request_rate
            .map(|r| format!("{} req/s", fmt_num(Some(r))))
            .unwrap_or_else(|| "all at once".into());
        match (p.concurrency, p.concurrency_basis) {
            (Some(mean), ConcurrencyBasis::LittlesLaw) => view! {
                <td class="num derived-load" title=format!("Mean requests in flight by Little's law: {} req/s × mean E2E. The file states {rate}, not a concurrency.", fmt_num(p.request_throughput))>
                    {format!("≈{}", fmt_num(Some(mean.round())))}
                    <span class="muted small">{format!(" at {rate}")}</span>
                </td>
            }
            .into_any(),
            (Some(c), _) => view! { <td class="num">{fmt_num(Some(c))}</td> }.into_any(),
            (None, _) => view! {
                <td class="num">{p.request_rate.map(|r| format!("{} req/s", fmt_num(Some(r)))).unwrap_or_else(|| "–".into())}</td>
            }
            .into_any(),
        }
    }

    /// The percentile tabs and, beside them, what the curves are drawn against; each link keeps
    /// the other choice.
    fn percentile_tabs(base: String, current: String, axis: CurveAxis) -> impl IntoView {
        let (p_base, x_base) = (
            format!("{base}x={}&", axis.as_str()),
            format!("{base}p={current}&"),
        );
        view! {
            <div class="curve-tabs">
                <nav class="plan-tabs percentile-tabs" aria-label="Percentile drawn">
                    {["p50", "p95", "p99"].into_iter().map(|p| {
                        let href = format!("{p_base}p={p}");
                        view! { <a href=href aria-current=(current == p).then_some("page")>{format!("{p} curves")}</a> }
                    }).collect_view()}
                </nav>
                <nav class="plan-tabs axis-tabs" aria-label="Curves drawn against">
                    {[(CurveAxis::Concurrency, "vs requests in flight"), (CurveAxis::Rate, "vs request rate")].into_iter().map(|(x, words)| {
                        let href = format!("{x_base}x={}", x.as_str());
                        view! { <a href=href aria-current=(axis == x).then_some("page")>{words}</a> }
                    }).collect_view()}
                </nav>
            </div>
        }
    }

    #[component]
    fn CompareForm(view: LoadTestView, baseline: String, selected: Vec<String>) -> impl IntoView {
        let options: Vec<(String, String)> = view
            .runs
            .iter()
            .flat_map(|r| {
                let whole = (
                    r.evidence.id.to_string(),
                    format!(
                        "#{} {} (all {} points)",
                        r.evidence.id,
                        r.evidence.file_name,
                        r.points.len()
                    ),
                );
                std::iter::once(whole).chain(r.points.iter().map(move |p| {
                    (
                        p.key.clone(),
                        format!(
                            "#{} · {} · concurrency {}",
                            r.evidence.id,
                            p.scenario.strip_prefix("dataset ").unwrap_or(&p.scenario),
                            fmt_num(p.concurrency)
                        ),
                    )
                }))
            })
            .collect();
        let pilot_id = view.pilot.id;
        view! {
            <form class="form compare-form" method="get" action=format!("/pilots/{pilot_id}/load-tests/compare")>
                <div class="field-row">
                    <div class="grow">
                        <label for="compare-baseline">"Baseline"</label>
                        <select id="compare-baseline" name="baseline">
                            {options.iter().map(|(value, label)| view! {
                                <option value=value.clone() selected=*value == baseline>{label.clone()}</option>
                            }).collect_view()}
                        </select>
                    </div>
                    <div>
                        <label for="compare-p">"Percentile"</label>
                        <select id="compare-p" name="p">
                            {["p50", "p95", "p99"].into_iter().map(|p| view! { <option value=p selected=p == view.percentile>{p}</option> }).collect_view()}
                        </select>
                    </div>
                </div>
                <fieldset class="compare-runs">
                    <legend>"Compare with"</legend>
                    {options.iter().map(|(value, label)| view! {
                        <label class="check"><input type="checkbox" name="run" value=value.clone() checked=selected.contains(value)/>" "{label.clone()}</label>
                    }).collect_view()}
                </fieldset>
                <div class="form-actions"><button type="submit" class="button button-primary">"Compare"</button></div>
            </form>
        }
    }

    /// The label of one predicted figure: the prediction's basis, except a figure a Measured point
    /// does not report, which was filled in by simulation.
    fn figure_basis(
        prediction: &engine::twin::Prediction,
        field: &str,
        percentile: &str,
    ) -> &'static str {
        prediction.figure_basis(field, percentile).label()
    }

    fn basis_class(label: &str) -> &'static str {
        match label {
            "Measured" => "badge badge-pass",
            "Simulated" => "badge",
            _ => "badge badge-warn",
        }
    }

    /// The capacity twin: a GET form (rate or concurrency) and the predicted percentiles, each with
    /// its basis, the throughput, the saturation rate and the back-test that states the error.
    #[component]
    fn CapacityTwinCard(twin: TwinView, percentile: String) -> impl IntoView {
        let pilot_id = twin.pilot.id;
        if !twin.has_load_tests {
            return view! {
                <section class="card twin-card" id="capacity-twin">
                    <h2>"Capacity twin"</h2>
                    <div class="empty-state">
                        <h3>"No load test to fit the twin on"</h3>
                        <p>"Once a load test is uploaded, the twin predicts TTFT, TPOT, ITL and E2E percentiles at any rate or concurrency from it, with a back-tested error."</p>
                    </div>
                </section>
            }
            .into_any();
        }
        let by_rate = !twin.rate.is_empty();
        let value = if by_rate {
            twin.rate.clone()
        } else {
            twin.concurrency.clone()
        };
        let form = view! {
            <form class="form twin-form" method="get" action=format!("/pilots/{pilot_id}/load-tests#capacity-twin")>
                <input type="hidden" name="p" value=percentile/>
                <div class="field-row">
                    <div>
                        <label for="twin-kind">"Load"</label>
                        <select id="twin-kind" name="twin">
                            <option value="rate" selected=by_rate>"Arrival rate (req/s)"</option>
                            <option value="concurrency" selected=!by_rate>"Concurrency (users)"</option>
                        </select>
                    </div>
                    <div>
                        <label for="twin-load">"Value"</label>
                        <input id="twin-load" name="load" type="number" min="0" step="any" required=true value=value/>
                    </div>
                    {(!twin.configurations.is_empty()).then(|| {
                        let chosen = twin.configuration.clone().unwrap_or_default();
                        view! {
                            <div>
                                <label for="twin-config">"Serving configuration"</label>
                                <select id="twin-config" name="config" required=true>
                                    <option value="" selected=chosen.is_empty() disabled=true>"Choose one…"</option>
                                    {twin.configurations.clone().into_iter().map(|c| {
                                        let selected = c == chosen;
                                        view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
                                    }).collect_view()}
                                </select>
                            </div>
                        }
                    })}
                    <div class="form-actions"><button type="submit" class="button">"Predict"</button></div>
                </div>
                {twin.staff.then(|| view! {
                    <div class="field-row">
                        <div>
                            <label for="twin-price">{format!("{} (staff only)", crate::model::with_currency("Price per GPU-hour", twin.currency.as_deref()))}</label>
                            <input id="twin-price" name="price" type="number" min="0" step="any" value=twin.price.clone()/>
                        </div>
                    </div>
                    {twin.price_source.clone().map(|source| view! { <p class="hint small" id="twin-price-source">{format!("Price: {source} (enter another to compare).")}</p> })}
                })}
                <p class="hint small">{format!("Default: {}.", twin.default_load.source)}</p>
            </form>
        };
        let cost = twin.operating_cost.clone().map(|c| {
            let unit = c.currency.as_deref().map(|c| format!(" {c}")).unwrap_or_default();
            view! {
            <div class="twin-cost" id="operating-cost">
                <h3>"Operating-point cost (staff only) "<span class=basis_class("Estimated")>"Estimated"</span></h3>
                <ul>
                    <li>{format!("{}{unit} per 1M output tokens: {}", fmt_num(Some(c.per_million_output_tokens)), c.output_working)}</li>
                    <li>{format!("{}{unit} per 1M input tokens: {}", fmt_num(Some(c.per_million_input_tokens)), c.input_working)}</li>
                </ul>
                <p class="hint small">"On the pilot's own GPUs, the hardware the twin measured, at the predicted throughput. Each figure charges the whole GPU-hour to one token stream; they do not add up. The twin cannot speak for hardware it never measured."</p>
            </div>
            }
        });
        let problem = twin
            .problem
            .clone()
            .map(|p| view! { <p class="notice notice-warn">{p}</p> });
        let body = twin.prediction.clone().map(|p| {
            let rows = [
                ("TTFT", "ms", "ttft_ms", p.ttft_ms),
                ("TPOT", "ms/token", "tpot_ms", p.tpot_ms),
                ("ITL", "ms", "itl_ms", p.itl_ms),
                ("E2E", "ms", "e2e_ms", p.e2e_ms),
            ];
            let basis = p.basis.label();
            let b = &p.backtest;
            let backtest = match (b.median_abs_error_pct, b.max_abs_error_pct) {
                (Some(median), Some(worst)) => format!(
                    "Back-test ({}): median error {:.1} %, worst {:.1} % over {} comparisons of measured TTFT and TPOT percentiles.",
                    b.method, median, worst, b.compared
                ),
                _ => format!("Back-test: {}. The prediction states no error.", b.method),
            };
            let cells = rows
                .into_iter()
                .map(|(name, unit, field, values)| {
                    let cell = |pct: &'static str, v: f64| {
                        let label = figure_basis(&p, field, pct);
                        view! {
                            <td class="num">{fmt_num(Some(v))}" "<span class=basis_class(label)>{label}</span></td>
                        }
                    };
                    view! {
                        <tr>
                            <th scope="row">{format!("{name} ({unit})")}</th>
                            {cell("p50", values.p50)}
                            {cell("p90", values.p90)}
                            {cell("p95", values.p95)}
                            {cell("p99", values.p99)}
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <p class="small">{format!("{} · prompts {} · answers {}{}", p.arrivals, p.prompt_tokens, p.output_tokens,
                    twin.configuration.as_ref().filter(|c| *c != "all points").map(|c| format!(" · configuration {c}")).unwrap_or_default())}
                    " · "<span class=basis_class(basis)>{basis}</span>
                    {p.measured_source.clone().map(|s| format!(" (read from {s})"))}</p>
                <div class="table-scroll">
                    <table class="table twin-table">
                        <thead><tr>
                            <th scope="col">"Figure"</th>
                            <th scope="col" class="num">"p50"</th>
                            <th scope="col" class="num">"p90"</th>
                            <th scope="col" class="num">"p95"</th>
                            <th scope="col" class="num">"p99"</th>
                        </tr></thead>
                        <tbody>{cells}</tbody>
                    </table>
                </div>
                <ul class="twin-figures">
                    <li>{format!("Request throughput: {} req/s ", fmt_num(Some(p.request_throughput_per_s)))}<span class=basis_class(basis)>{basis}</span></li>
                    <li>{format!("Output: {} tokens/s ", fmt_num(Some(p.output_tokens_per_s)))}<span class=basis_class(basis)>{basis}</span></li>
                    <li>{format!("Saturation rate: {} req/s ", fmt_num(Some(p.saturation_rate_per_s)))}<span class=basis_class("Estimated")>"Estimated"</span>" (closed form of the fitted model: beyond it the queue grows without bound)"</li>
                </ul>
                <p class="twin-backtest">{backtest}</p>
                {cost}
                {(!p.warnings.is_empty()).then(|| view! {
                    <ul class="notice notice-warn twin-warnings">
                        {p.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}
                    </ul>
                })}
            }
        });
        view! {
            <section class="card twin-card" id="capacity-twin">
                <h2>"Capacity twin"</h2>
                <p class="hint">"Latency percentiles at a load the tests did not try, from a model of vLLM's continuous batching fitted on this pilot's load tests. Measured: read from a load test at that very point; Simulated: inside the range the tests cover; Estimated: beyond it."</p>
                {form}
                {problem}
                {body}
            </section>
        }
        .into_any()
    }

    pub fn load_tests(
        view: LoadTestView,
        twin: Result<TwinView, AppError>,
    ) -> impl IntoView + use<> {
        let twin_card = match twin {
            Ok(twin) => {
                view! { <CapacityTwinCard twin percentile=view.percentile.clone()/> }.into_any()
            }
            Err(error) => inline_error(error),
        };
        let p = view.pilot.clone();
        let base = format!("/pilots/{}/load-tests?", p.id);
        view! {
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / Load tests"
            </nav>
            <PageHeader title="Load tests" subtitle="Latency and throughput against concurrency, one line per scenario; goodput per operating point against the plan in force. Every figure is measured at the client (the load generator).">
                <a class="button" href=format!("/pilots/{}/evidence", p.id)>{if view.can_edit { "Upload evidence" } else { "Evidence files" }}</a>
                <a class="button" href=format!("/pilots/{}/load-tests/compare", p.id)>"Compare runs"</a>
            </PageHeader>
            {if view.runs.is_empty() {
                view! {
                    <div class="empty-state">
                        <h3>"No load test yet"</h3>
                        <p>"Upload vllm bench serve, AIPerf, GenAI-Perf or guidellm results on the evidence page, or send them from CI with the REST API."</p>
                    </div>
                    {twin_card}
                }.into_any()
            } else {
                view! {
                    <p class="notice notice-info plan-targets-note">{view.plan.note.clone()}</p>
                    <section class="card capacity-card">
                        <h2>"Capacity"</h2>
                        <p class="hint">"Highest tested concurrency at which every latency target of the plan holds, per scenario."</p>
                        <table class="table capacity-table">
                            <thead><tr>
                                <th scope="col">"Scenario"</th>
                                <th scope="col" class="num">"Capacity (requests in flight)"</th>
                                <th scope="col" class="num" title="completed requests per second measured at the capacity point">"At capacity (req/s)"</th>
                                <th scope="col" class="num">"Tested up to"</th>
                                <th scope="col">"Reading"</th>
                            </tr></thead>
                            <tbody>
                                {view.capacity.iter().map(|c| view! {
                                    <tr>
                                        <td>{c.scenario.strip_prefix("dataset ").unwrap_or(&c.scenario).to_string()}</td>
                                        <td class="num"><strong>{c.concurrency.map(|v| fmt_num(Some(v))).unwrap_or_else(|| "–".into())}</strong></td>
                                        <td class="num">{c.requests_per_s.map(|r| fmt_num(Some(r))).unwrap_or_else(|| "–".into())}</td>
                                        <td class="num">{fmt_num(c.tested_up_to)}</td>
                                        <td>{c.reading.clone()}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </section>
                    {twin_card}
                    {percentile_tabs(base, view.percentile.clone(), view.axis)}
                    <div class="chart-grid">
                        {view.charts.iter().cloned().map(|chart| view! { <ChartCard chart/> }).collect_view()}
                    </div>
                    <section class="card spread-legend">
                        <h2>"Reading the p50 / p95 / p99 spread (TTFT)"</h2>
                        <ul class="spread-list">
                            {[SpreadState::Idle, SpreadState::Queueing, SpreadState::Saturated].into_iter().map(|s| view! {
                                <li>{spread_badge(Some(s))}" "{s.meaning()}</li>
                            }).collect_view()}
                        </ul>
                    </section>
                    {view.runs.iter().cloned().map(|run| view! { <RunCard run pilot_id=p.id/> }).collect_view()}
                }.into_any()
            }}
        }
    }

    fn diff_class(row: &crate::api::load_tests::CompareRow) -> &'static str {
        match row.difference_pct {
            Some(d) if d.abs() < 2.0 => "badge",
            Some(d) if (d > 0.0) == row.higher_is_better => "badge badge-pass",
            Some(_) => "badge badge-fail",
            None => "badge",
        }
    }

    #[component]
    fn ComparisonView(comparison: Comparison) -> impl IntoView {
        view! {
            <p class="notice notice-info">{format!("Baseline: {} · percentile {}", comparison.baseline_label, comparison.percentile)}</p>
            {comparison.runs.into_iter().map(|(label, rows)| view! {
                <section class="card compare-card">
                    <h2>{label}</h2>
                    {if rows.is_empty() {
                        view! { <p class="muted">"No operating point matches the baseline (same scenario and concurrency)."</p> }.into_any()
                    } else {
                        view! {
                            <div class="table-scroll">
                                <table class="table compare-table">
                                    <thead><tr>
                                        <th scope="col">"Scenario"</th>
                                        <th scope="col" class="num">"Conc."</th>
                                        <th scope="col">"Figure"</th>
                                        <th scope="col" class="num">"Baseline"</th>
                                        <th scope="col" class="num">"This run"</th>
                                        <th scope="col" class="num">"Difference"</th>
                                    </tr></thead>
                                    <tbody>
                                        {rows.into_iter().map(|row| {
                                            let class = diff_class(&row);
                                            view! {
                                                <tr>
                                                    <td>{row.scenario.clone()}</td>
                                                    <td class="num">{fmt_num(row.concurrency)}</td>
                                                    <td>{format!("{} ({})", row.figure, row.unit)}</td>
                                                    <td class="num">{fmt_num(row.baseline)}</td>
                                                    <td class="num">{fmt_num(row.value)}</td>
                                                    <td class="num"><span class=class>{row.difference_pct.map(|d| format!("{d:+.1} %")).unwrap_or_else(|| "–".into())}</span></td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any()
                    }}
                </section>
            }).collect_view()}
            <div class="chart-grid">
                {comparison.charts.into_iter().map(|chart| view! { <ChartCard chart/> }).collect_view()}
            </div>
        }
    }

    pub fn compare(
        view: LoadTestView,
        compared: Option<Result<Comparison, AppError>>,
        baseline: String,
        selected: Vec<String>,
    ) -> impl IntoView + use<> {
        let p = view.pilot.clone();
        view! {
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / "
                <a href=format!("/pilots/{}/load-tests", p.id)>"Load tests"</a>" / Compare"
            </nav>
            <PageHeader title="Compare load tests" subtitle="Pick a baseline and the runs (whole files or single operating points) to set against it: side-by-side numbers with the difference in %, and the curves overlaid (baseline dashed)."/>
            {if view.runs.is_empty() {
                view! { <div class="empty-state"><h3>"Nothing to compare"</h3><p>"This pilot has no load test yet."</p></div> }.into_any()
            } else {
                view! {
                    <section class="card form-card"><CompareForm view baseline selected/></section>
                    {match compared {
                        None => ().into_any(),
                        Some(Err(error)) => inline_error(error),
                        Some(Ok(comparison)) => view! { <ComparisonView comparison/> }.into_any(),
                    }}
                }.into_any()
            }}
        }
    }
}
