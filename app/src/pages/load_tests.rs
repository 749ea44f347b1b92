//! A pilot's load tests: curves against concurrency, goodput per operating point against the
//! plan in force, capacity per scenario, the capacity twin's prediction at a load the tests did
//! not try (the plan's peak by default), and comparisons of runs.
//!
//! Both pages are server-rendered fragments (see [`crate::components::fragment`]): everything on
//! them is driven by links and GET forms (percentile tabs, the twin's load, the runs to compare).
//! Their fixed words follow the reader's language ([`crate::components::lang`]); the curves are
//! drawn in it too.

use super::params::pilot_id_param;
use crate::components::{Fragment, fragment_view, tr};
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
        tr("Loading…", "Wird geladen…"),
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
    use engine::locale::Lang;
    let lang = crate::components::lang();
    let mut view = crate::api::load_tests::get_load_tests(pilot_id, percentile, axis).await?;
    if lang != Lang::En {
        // The curves in the reader's language (the API draws them in English).
        let drawn = crate::api::load_tests::normalise_percentile(&view.percentile, &view.plan);
        view.charts = crate::api::load_tests::ssr::charts(
            &view.runs,
            &[],
            &view.plan,
            drawn,
            view.axis,
            lang,
        );
    }
    let (rate, concurrency) = match twin.as_str() {
        "rate" => (load, String::new()),
        "concurrency" => (String::new(), load),
        _ => (String::new(), String::new()),
    };
    let twin =
        crate::api::predict::get_capacity_twin(pilot_id, rate, concurrency, price, config).await;
    let title = match lang {
        Lang::En => format!("Load tests · {}", view.pilot.name),
        Lang::De => format!("Lasttests · {}", view.pilot.name),
    };
    Ok(Fragment::render(
        title,
        render::load_tests(view, twin, lang),
    ))
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
        tr("Loading…", "Wird geladen…"),
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
    use engine::locale::Lang;
    let lang = crate::components::lang();
    let view =
        crate::api::load_tests::get_load_tests(pilot_id, percentile.clone(), String::new()).await?;
    let compared = if baseline.is_empty() || runs.is_empty() {
        None
    } else {
        let compared = crate::api::load_tests::compare_load_tests(
            pilot_id,
            baseline.clone(),
            runs.clone(),
            percentile.clone(),
        )
        .await;
        Some(match (compared, lang) {
            (Ok(comparison), Lang::De) => Ok(render::comparison_in(
                comparison,
                &view,
                &baseline,
                &runs,
                &percentile,
                lang,
            )),
            (compared, _) => compared,
        })
    };
    let selected = runs
        .split(',')
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect();
    let title = match lang {
        Lang::En => format!("Compare load tests · {}", view.pilot.name),
        Lang::De => format!("Lasttests vergleichen · {}", view.pilot.name),
    };
    Ok(Fragment::render(
        title,
        render::compare(view, compared, baseline, selected, lang),
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
    use engine::loadtest::{ConcurrencyBasis, GoodputMethod, LatencyTarget, SpreadState};
    use engine::locale::Lang;
    use engine::twin::Basis;
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

    /// [`fmt_num`] in `lang`: `1,234.57` / `1.234,57`.
    fn num(value: Option<f64>, lang: Lang) -> String {
        lang.separators(&fmt_num(value))
    }

    /// A scenario as the page names it (`dataset ` dropped; the importers' own words in `lang`).
    fn scenario_name(scenario: &str, lang: Lang) -> String {
        match lang {
            Lang::En => scenario
                .strip_prefix("dataset ")
                .unwrap_or(scenario)
                .to_string(),
            lang => crate::api::load_tests::curves::scenario_label_in(scenario, lang),
        }
    }

    fn spread_label(state: SpreadState, lang: Lang) -> &'static str {
        match state {
            SpreadState::Idle => lang.pick(state.label(), "ruhig"),
            SpreadState::Queueing => lang.pick(state.label(), "Warteschlange"),
            SpreadState::Saturated => lang.pick(state.label(), "gesättigt"),
        }
    }

    fn spread_meaning(state: SpreadState, lang: Lang) -> &'static str {
        match state {
            SpreadState::Idle => lang.pick(
                state.meaning(),
                "p50 ≈ p99 und niedrig: keine Warteschlange, die Arbeit ist deterministisch",
            ),
            SpreadState::Queueing => lang.pick(
                state.meaning(),
                "die Lücke zwischen p50 und p99 wächst: manche Anfragen warten hinter anderen (eine Kapazitätswarnung)",
            ),
            SpreadState::Saturated => lang.pick(
                state.meaning(),
                "p95 und p99 laufen hoch zusammen: jede Anfrage wartet in derselben Warteschlange (eine Kapazitätsgrenze)",
            ),
        }
    }

    fn spread_badge(state: Option<SpreadState>, lang: Lang) -> impl IntoView {
        state.map(|s| {
            let class = match s {
                SpreadState::Idle => "badge badge-pass",
                SpreadState::Queueing => "badge badge-warn",
                SpreadState::Saturated => "badge badge-fail",
            };
            view! { <span class=class title=spread_meaning(s, lang)>{spread_label(s, lang)}</span> }
        })
    }

    fn stat_cells(stat: Stat3, lang: Lang) -> impl IntoView {
        view! {
            <td class="num">{num(stat.p50, lang)}</td>
            <td class="num">{num(stat.p95, lang)}</td>
            <td class="num">{num(stat.p99, lang)}</td>
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

    /// A target's label (`TTFT p99 ≤ 450 ms`) in `lang`, found among the plan's targets.
    fn target_label(label: &str, targets: &[LatencyTarget], lang: Lang) -> String {
        match lang {
            Lang::En => label.to_string(),
            lang => targets
                .iter()
                .find(|t| t.label == label)
                .map(|t| t.label_in(lang))
                .unwrap_or_else(|| label.to_string()),
        }
    }

    fn goodput_method_label(method: GoodputMethod, lang: Lang) -> &'static str {
        match method {
            GoodputMethod::PerRequest => lang.pick(method.label(), "exakt, je Anfrage"),
            GoodputMethod::Percentiles => {
                lang.pick(method.label(), "an den gemeldeten Perzentilen bewertet")
            }
        }
    }

    fn goodput_cells(point: &PointRow, targets: &[LatencyTarget], lang: Lang) -> AnyView {
        match &point.goodput {
            None => view! { <td class="muted">{lang.pick("no targets", "keine Zielwerte")}</td><td class="num">"–"</td><td class="num">"–"</td> }.into_any(),
            Some(g) => {
                let (class, text) = match g.all_met {
                    Some(true) => ("badge badge-pass", lang.pick("all met", "alle erreicht")),
                    Some(false) => ("badge badge-fail", lang.pick("missed", "verfehlt")),
                    None => ("badge", lang.pick("not measured", "nicht gemessen")),
                };
                let detail = g
                    .checks
                    .iter()
                    .map(|c| {
                        format!(
                            "{}: {}",
                            target_label(&c.label, targets, lang),
                            c.value_ms
                                .map(|v| format!("{} ms", num(Some(v), lang)))
                                .unwrap_or_else(|| {
                                    lang.pick("not in the file", "nicht in der Datei").into()
                                })
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                let share = match g.method {
                    GoodputMethod::PerRequest => g
                        .share_pct
                        .map(|s| format!("{} %", num(Some(s), lang)))
                        .unwrap_or_else(|| "–".into()),
                    GoodputMethod::Percentiles => format!(
                        "{} *",
                        g.share_bound
                            .clone()
                            .map(|b| lang.separators(&b))
                            .unwrap_or_else(|| "–".into())
                    ),
                };
                let rps = match g.method {
                    GoodputMethod::PerRequest => num(g.goodput_rps, lang),
                    GoodputMethod::Percentiles => "–".into(),
                };
                view! {
                    <td><span class=class title=detail>{text}</span></td>
                    <td class="num" title=goodput_method_label(g.method, lang)>{share}</td>
                    <td class="num">{rps}</td>
                }
                .into_any()
            }
        }
    }

    #[component]
    fn RunCard(
        run: LoadTestRun,
        pilot_id: i64,
        lang: Lang,
        targets: Vec<LatencyTarget>,
    ) -> impl IntoView {
        let e = run.evidence.clone();
        let tool = match &run.tool_version {
            Some(v) => format!("{} {v}", run.tool),
            None => run.tool.clone(),
        };
        let context = run
            .run_context
            .as_ref()
            .map(|c| match lang {
                Lang::En => c.summary(),
                lang => c.summary_in(lang),
            })
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| {
                lang.pick("Run context not recorded", "Laufkontext nicht erfasst")
                    .into()
            });
        let method = if run.per_request {
            lang.pick(
                "Goodput: exact, from the per-request records of the kept raw file.",
                "Goodput: exakt, aus den Datensätzen je Anfrage der aufbewahrten Rohdatei.",
            )
        } else {
            lang.pick(
                "Goodput: * graded on the reported percentiles (the file has no per-request data): the share of good requests is a bound, not a count.",
                "Goodput: * an den gemeldeten Perzentilen bewertet (die Datei enthält keine Daten je Anfrage): Der Anteil guter Anfragen ist eine Schranke, keine Zählung.",
            )
        };
        let has_itl = run.points.iter().any(|p| !p.itl.is_empty());
        let derived_load = run
            .points
            .iter()
            .any(|p| p.concurrency_basis == ConcurrencyBasis::LittlesLaw);
        // A file mixing serving frameworks (vLLM and SGLang rows) names each row's.
        let has_framework = run.points.iter().any(|p| p.framework.is_some());
        let uploaded_by = if e.uploaded_by.is_empty() {
            lang.pick("a deleted account", "einem gelöschten Konto")
                .to_string()
        } else {
            e.uploaded_by.clone()
        };
        let sha = crate::pages::evidence::sha256_prefix(&e.sha256);
        // The layout the importer read, stored in English: in the reader's language.
        let layout = engine::ingest::layout_in(&run.layout, lang);
        let evidence_line = match lang {
            Lang::En => format!(
                "Evidence #{} · {} · {} · uploaded {} by {} · SHA-256 {}…",
                e.id,
                tool,
                layout,
                engine::clock::utc_minute(e.uploaded_ms),
                uploaded_by,
                sha
            ),
            Lang::De => format!(
                "Nachweis #{} · {} · {} · hochgeladen {} von {} · SHA-256 {}…",
                e.id,
                tool,
                layout,
                lang.date_time(e.uploaded_ms),
                uploaded_by,
                sha
            ),
        };
        let conc = lang.pick("Conc.", "Par.");
        let in_flight = lang.pick("requests in flight", "gleichzeitige Anfragen");
        let scenario = lang.pick("Scenario", "Szenario");
        view! {
            <section class="card run-card" id=format!("run-{}", e.id)>
                <div class="card-head">
                    <div>
                        <h2>{e.file_name.clone()}</h2>
                        <p class="muted small">{evidence_line}</p>
                        <p class="small run-context-line">{context}</p>
                        {run.not_comparable.clone().map(|why| view! {
                            <p class="notice notice-warn small not-comparable" role="note">
                                {match lang {
                                    Lang::En => format!("Not comparable: {why}. Its figures grade no pass mark and its points are drawn apart, marked “not comparable”."),
                                    Lang::De => format!("Nicht vergleichbar: {why}. Seine Zahlen bewerten keinen Zielwert, und seine Punkte werden abgesetzt gezeichnet, markiert mit „nicht vergleichbar“."),
                                }}
                            </p>
                        })}
                    </div>
                    <a class="button" href=format!("/pilots/{pilot_id}/load-tests/compare?baseline={}", e.id)>{lang.pick("Compare…", "Vergleichen…")}</a>
                </div>
                <div class="table-scroll">
                    <table class="table points-table goodput-table">
                        <caption>{lang.pick("Goodput and throughput", "Goodput und Durchsatz")}</caption>
                        <thead>
                            <tr>
                                <th scope="col" rowspan="2">{scenario}</th>
                                {has_framework.then(|| view! { <th scope="col" rowspan="2">"Framework"</th> })}
                                <th scope="col" rowspan="2" class="num" title=in_flight>{conc}</th>
                                <th scope="colgroup" colspan="3" class="group">{lang.pick("Goodput vs plan", "Goodput gegenüber dem Plan")}</th>
                                <th scope="col" rowspan="2" class="num">{lang.pick("OK / failed", "OK / fehlgeschlagen")}</th>
                                <th scope="col" rowspan="2" class="num">{lang.pick("req/s", "Anfragen/s")}</th>
                                <th scope="col" rowspan="2" class="num" title=lang.pick("aggregate output tokens per second", "Ausgabe-Token pro Sekunde, alle Streams zusammen")>{lang.pick("out tok/s", "Ausgabe-Token/s")}</th>
                                <th scope="col" rowspan="2" class="num" title=lang.pick("per stream: the file's figure, else 1000 ÷ TPOT p50", "je Stream: der Wert der Datei, sonst 1000 ÷ TPOT p50")>{lang.pick("tok/s per stream", "Token/s je Stream")}</th>
                                <th scope="col" rowspan="2" title=lang.pick("TTFT p50/p95/p99 spread", "Streuung von TTFT p50/p95/p99")>{lang.pick("Spread", "Streuung")}</th>
                            </tr>
                            <tr>
                                <th>{lang.pick("targets", "Zielwerte")}</th><th class="num">{lang.pick("share good", "Anteil gut")}</th><th class="num">{lang.pick("good req/s", "gute Anfragen/s")}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {run.points.clone().into_iter().map(|p| view! {
                                <tr data-point=p.key.clone()>
                                    {scenario_cell(&p, lang)}
                                    {has_framework.then(|| view! { <td>{p.framework.clone().unwrap_or_default()}</td> })}
                                    {in_flight_cell(&p, lang)}
                                    {goodput_cells(&p, &targets, lang)}
                                    <td class="num">{format!("{} / {}", p.completed.map(|c| c.to_string()).unwrap_or_else(|| "–".into()), p.failed.map(|c| c.to_string()).unwrap_or_else(|| "–".into()))}</td>
                                    <td class="num">{num(p.request_throughput, lang)}</td>
                                    <td class="num">{num(p.output_tokens_per_s, lang)}</td>
                                    <td class="num">{num(p.per_stream_tokens_per_s, lang)}{p.per_stream_derived.then_some("†")}</td>
                                    <td>{spread_badge(p.spread, lang)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <div class="table-scroll">
                    <table class="table points-table latency-table">
                        <caption>{lang.pick("Latency at the client, ms", "Latenz am Client, ms")}</caption>
                        <thead>
                            <tr>
                                <th scope="col" rowspan="2">{scenario}</th>
                                <th scope="col" rowspan="2" class="num" title=in_flight>{conc}</th>
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
                                    {scenario_cell(&p, lang)}
                                    {in_flight_cell(&p, lang)}
                                    {stat_cells(p.ttft, lang)}
                                    {stat_cells(p.tpot, lang)}
                                    {has_itl.then(|| stat_cells(p.itl, lang))}
                                    {stat_cells(p.e2e, lang)}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="hint">{method} {lang.pick(
                    " † per-stream tokens/s = 1000 ÷ TPOT p50 (the file does not report it). All latencies are measured at the client (the load generator).",
                    " † Token/s je Stream = 1000 ÷ TPOT p50 (die Datei nennt den Wert nicht). Alle Latenzen sind am Client gemessen (dem Lastgenerator).",
                )}</p>
                {derived_load.then(|| view! {
                    <p class="hint little-law-note">{lang.pick(
                        "≈ The file states a request rate, not a concurrency: requests in flight are the run's mean by Little's law (request throughput × mean E2E latency, the mean rebuilt as TTFT + TPOT × (output tokens − 1) where the file gives none). Curves, capacity and grading place such a point there; grading takes the lowest point at or above the planned peak.",
                        "≈ Die Datei nennt eine Anfragerate, keine Parallelität: Die gleichzeitigen Anfragen sind der Mittelwert des Laufs nach Littles Gesetz (Anfragedurchsatz × mittlere E2E-Latenz, der Mittelwert als TTFT + TPOT × (Ausgabe-Token − 1) nachgebildet, wo die Datei keinen nennt). Kurven, Kapazität und Bewertung setzen einen solchen Punkt dorthin; die Bewertung nimmt den niedrigsten Punkt auf oder über der geplanten Spitze.",
                    )}</p>
                })}
                // The importer's warnings, stored in English: in the reader's language.
                {(!run.warnings.is_empty()).then(|| view! {
                    <ul class="warnings">{run.warnings.iter().map(|w| view! { <li>{engine::ingest::warning_in(w, lang)}</li> }).collect_view()}</ul>
                })}
            </section>
        }
    }

    /// The scenario of a point, its source in the tooltip (`dataset ` dropped).
    fn scenario_cell(p: &PointRow, lang: Lang) -> impl IntoView + use<> {
        let scenario = scenario_name(&p.scenario, lang);
        view! { <td title=engine::ingest::point_source_in(&p.source, lang)>{scenario}</td> }
    }

    /// A point's requests in flight: the stated concurrency, or "≈ mean" by Little's law with
    /// the rate the file states, or the rate alone when nothing gives a concurrency.
    fn in_flight_cell(p: &PointRow, lang: Lang) -> impl IntoView + use<> {
        let per_s = lang.pick("req/s", "Anfragen/s");
        let rate = p
            .request_rate
            .map(|r| format!("{} {per_s}", num(Some(r), lang)))
            .unwrap_or_else(|| lang.pick("all at once", "alle auf einmal").into());
        match (p.concurrency, p.concurrency_basis) {
            (Some(mean), ConcurrencyBasis::LittlesLaw) => {
                let title = match lang {
                    Lang::En => format!("Mean requests in flight by Little's law: {} req/s × mean E2E. The file states {rate}, not a concurrency.", fmt_num(p.request_throughput)),
                    Lang::De => format!("Mittlere gleichzeitige Anfragen nach Littles Gesetz: {} Anfragen/s × mittlere E2E. Die Datei nennt {rate}, keine Parallelität.", num(p.request_throughput, lang)),
                };
                let at = match lang {
                    Lang::En => format!(" at {rate}"),
                    Lang::De => format!(" bei {rate}"),
                };
                view! {
                    <td class="num derived-load" title=title>
                        {format!("≈{}", num(Some(mean.round()), lang))}
                        <span class="muted small">{at}</span>
                    </td>
                }
                .into_any()
            }
            (Some(c), _) => view! { <td class="num">{num(Some(c), lang)}</td> }.into_any(),
            (None, _) => view! {
                <td class="num">{p.request_rate.map(|r| format!("{} {per_s}", num(Some(r), lang))).unwrap_or_else(|| "–".into())}</td>
            }
            .into_any(),
        }
    }

    /// The percentile tabs and, beside them, what the curves are drawn against; each link keeps
    /// the other choice.
    fn percentile_tabs(
        base: String,
        current: String,
        axis: CurveAxis,
        lang: Lang,
    ) -> impl IntoView {
        let (p_base, x_base) = (
            format!("{base}x={}&", axis.as_str()),
            format!("{base}p={current}&"),
        );
        view! {
            <div class="curve-tabs">
                <nav class="plan-tabs percentile-tabs" aria-label=lang.pick("Percentile drawn", "Gezeichnetes Perzentil")>
                    {["p50", "p95", "p99"].into_iter().map(|p| {
                        let href = format!("{p_base}p={p}");
                        let words = match lang {
                            Lang::En => format!("{p} curves"),
                            Lang::De => format!("{p}-Kurven"),
                        };
                        view! { <a href=href aria-current=(current == p).then_some("page")>{words}</a> }
                    }).collect_view()}
                </nav>
                <nav class="plan-tabs axis-tabs" aria-label=lang.pick("Curves drawn against", "Kurven aufgetragen über")>
                    {[
                        (CurveAxis::Concurrency, lang.pick("vs requests in flight", "über gleichzeitigen Anfragen")),
                        (CurveAxis::Rate, lang.pick("vs request rate", "über der Anfragerate")),
                    ].into_iter().map(|(x, words)| {
                        let href = format!("{x_base}x={}", x.as_str());
                        view! { <a href=href aria-current=(axis == x).then_some("page")>{words}</a> }
                    }).collect_view()}
                </nav>
            </div>
        }
    }

    #[component]
    fn CompareForm(
        view: LoadTestView,
        baseline: String,
        selected: Vec<String>,
        lang: Lang,
    ) -> impl IntoView {
        let options: Vec<(String, String)> = view
            .runs
            .iter()
            .flat_map(|r| {
                let whole = (
                    r.evidence.id.to_string(),
                    match lang {
                        Lang::En => format!(
                            "#{} {} (all {} points)",
                            r.evidence.id,
                            r.evidence.file_name,
                            r.points.len()
                        ),
                        Lang::De => format!(
                            "#{} {} (alle {} Punkte)",
                            r.evidence.id,
                            r.evidence.file_name,
                            r.points.len()
                        ),
                    },
                );
                std::iter::once(whole).chain(r.points.iter().map(move |p| {
                    (
                        p.key.clone(),
                        match lang {
                            Lang::En => format!(
                                "#{} · {} · concurrency {}",
                                r.evidence.id,
                                p.scenario.strip_prefix("dataset ").unwrap_or(&p.scenario),
                                fmt_num(p.concurrency)
                            ),
                            Lang::De => format!(
                                "#{} · {} · Parallelität {}",
                                r.evidence.id,
                                scenario_name(&p.scenario, lang),
                                num(p.concurrency, lang)
                            ),
                        },
                    )
                }))
            })
            .collect();
        let pilot_id = view.pilot.id;
        view! {
            <form class="form compare-form" method="get" action=format!("/pilots/{pilot_id}/load-tests/compare")>
                <div class="field-row">
                    <div class="grow">
                        <label for="compare-baseline">{lang.pick("Baseline", "Referenz")}</label>
                        <select id="compare-baseline" name="baseline">
                            {options.iter().map(|(value, label)| view! {
                                <option value=value.clone() selected=*value == baseline>{label.clone()}</option>
                            }).collect_view()}
                        </select>
                    </div>
                    <div>
                        <label for="compare-p">{lang.pick("Percentile", "Perzentil")}</label>
                        <select id="compare-p" name="p">
                            {["p50", "p95", "p99"].into_iter().map(|p| view! { <option value=p selected=p == view.percentile>{p}</option> }).collect_view()}
                        </select>
                    </div>
                </div>
                <fieldset class="compare-runs">
                    <legend>{lang.pick("Compare with", "Vergleichen mit")}</legend>
                    {options.iter().map(|(value, label)| view! {
                        <label class="check"><input type="checkbox" name="run" value=value.clone() checked=selected.contains(value)/>" "{label.clone()}</label>
                    }).collect_view()}
                </fieldset>
                <div class="form-actions"><button type="submit" class="button button-primary">{lang.pick("Compare", "Vergleichen")}</button></div>
            </form>
        }
    }

    /// A basis word (Measured, Simulated, Estimated) in `lang`.
    fn basis_label(basis: Basis, lang: Lang) -> &'static str {
        match basis {
            Basis::Measured => lang.pick(basis.label(), "Gemessen"),
            Basis::Simulated => lang.pick(basis.label(), "Simuliert"),
            Basis::Estimated => lang.pick(basis.label(), "Geschätzt"),
        }
    }

    fn basis_class(basis: Basis) -> &'static str {
        match basis {
            Basis::Measured => "badge badge-pass",
            Basis::Simulated => "badge",
            Basis::Estimated => "badge badge-warn",
        }
    }

    /// A basis badge: `<span class="badge badge-pass">Measured</span>`.
    fn basis_badge(basis: Basis, lang: Lang) -> impl IntoView + use<> {
        view! { <span class=basis_class(basis)>{basis_label(basis, lang)}</span> }
    }

    /// The capacity twin: a GET form (rate or concurrency) and the predicted percentiles, each with
    /// its basis, the throughput, the saturation rate and the back-test that states the error.
    #[component]
    fn CapacityTwinCard(twin: TwinView, percentile: String, lang: Lang) -> impl IntoView {
        let pilot_id = twin.pilot.id;
        let heading = lang.pick("Capacity twin", "Kapazitäts-Zwilling");
        if !twin.has_load_tests {
            return view! {
                <section class="card twin-card" id="capacity-twin">
                    <h2>{heading}</h2>
                    <div class="empty-state">
                        <h3>{lang.pick("No load test to fit the twin on", "Kein Lasttest, an den sich der Zwilling anpassen ließe")}</h3>
                        <p>{lang.pick(
                            "Once a load test is uploaded, the twin predicts TTFT, TPOT, ITL and E2E percentiles at any rate or concurrency from it, with a back-tested error.",
                            "Sobald ein Lasttest hochgeladen ist, sagt der Zwilling daraus TTFT-, TPOT-, ITL- und E2E-Perzentile bei jeder Rate oder Parallelität vorher, mit einem im Backtest ermittelten Fehler.",
                        )}</p>
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
        let default_load = match lang {
            Lang::En => format!("Default: {}.", twin.default_load.source),
            lang => format!(
                "Vorgabe: {}.",
                twin.default_load.chosen_by.describe_in(lang)
            ),
        };
        let form = view! {
            <form class="form twin-form" method="get" action=format!("/pilots/{pilot_id}/load-tests#capacity-twin")>
                <input type="hidden" name="p" value=percentile/>
                <div class="field-row">
                    <div>
                        <label for="twin-kind">{lang.pick("Load", "Last")}</label>
                        <select id="twin-kind" name="twin">
                            <option value="rate" selected=by_rate>{lang.pick("Arrival rate (req/s)", "Ankunftsrate (Anfragen/s)")}</option>
                            <option value="concurrency" selected=!by_rate>{lang.pick("Concurrency (users)", "Parallelität (Nutzer)")}</option>
                        </select>
                    </div>
                    <div>
                        <label for="twin-load">{lang.pick("Value", "Wert")}</label>
                        <input id="twin-load" name="load" type="number" min="0" step="any" required=true value=value/>
                    </div>
                    {(!twin.configurations.is_empty()).then(|| {
                        let chosen = twin.configuration.clone().unwrap_or_default();
                        view! {
                            <div>
                                <label for="twin-config">{lang.pick("Serving configuration", "Serving-Konfiguration")}</label>
                                <select id="twin-config" name="config" required=true>
                                    <option value="" selected=chosen.is_empty() disabled=true>{lang.pick("Choose one…", "Bitte wählen…")}</option>
                                    {twin.configurations.clone().into_iter().map(|c| {
                                        let selected = c == chosen;
                                        view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
                                    }).collect_view()}
                                </select>
                            </div>
                        }
                    })}
                    <div class="form-actions"><button type="submit" class="button">{lang.pick("Predict", "Vorhersagen")}</button></div>
                </div>
                {twin.staff.then(|| view! {
                    <div class="field-row">
                        <div>
                            <label for="twin-price">{match lang {
                                Lang::En => format!("{} (staff only)", crate::model::with_currency("Price per GPU-hour", twin.currency.as_deref())),
                                Lang::De => format!("{} (nur Mitarbeiter)", crate::model::with_currency("Preis je GPU-Stunde", twin.currency.as_deref())),
                            }}</label>
                            <input id="twin-price" name="price" type="number" min="0" step="any" value=twin.price.clone()/>
                        </div>
                    </div>
                    {twin.price_source.clone().map(|source| view! { <p class="hint small" id="twin-price-source">{match lang {
                        Lang::En => format!("Price: {source} (enter another to compare)."),
                        Lang::De => format!("Preis: {source} (zum Vergleich einen anderen eingeben)."),
                    }}</p> })}
                })}
                <p class="hint small">{default_load}</p>
            </form>
        };
        let cost = twin.operating_cost.clone().map(|c| {
            let unit = c.currency.as_deref().map(|c| format!(" {c}")).unwrap_or_default();
            let (output, input) = match lang {
                Lang::En => (
                    format!("{}{unit} per 1M output tokens: {}", fmt_num(Some(c.per_million_output_tokens)), c.output_working),
                    format!("{}{unit} per 1M input tokens: {}", fmt_num(Some(c.per_million_input_tokens)), c.input_working),
                ),
                Lang::De => (
                    format!("{}{unit} je 1 Mio. Ausgabe-Token: {}", num(Some(c.per_million_output_tokens), lang), c.output_working),
                    format!("{}{unit} je 1 Mio. Eingabe-Token: {}", num(Some(c.per_million_input_tokens), lang), c.input_working),
                ),
            };
            view! {
            <div class="twin-cost" id="operating-cost">
                <h3>{lang.pick("Operating-point cost (staff only) ", "Kosten am Betriebspunkt (nur Mitarbeiter) ")}{basis_badge(Basis::Estimated, lang)}</h3>
                <ul>
                    <li>{output}</li>
                    <li>{input}</li>
                </ul>
                <p class="hint small">{lang.pick(
                    "On the pilot's own GPUs, the hardware the twin measured, at the predicted throughput. Each figure charges the whole GPU-hour to one token stream; they do not add up. The twin cannot speak for hardware it never measured.",
                    "Auf den eigenen GPUs des Piloten, der Hardware, die der Zwilling gemessen hat, beim vorhergesagten Durchsatz. Jede Zahl rechnet die ganze GPU-Stunde einem einzigen Token-Strom zu; die Zahlen addieren sich nicht. Für Hardware, die er nie gemessen hat, kann der Zwilling nicht sprechen.",
                )}</p>
            </div>
            }
        });
        let problem = match (&twin.refusal, lang) {
            (Some(why), Lang::De) => Some(format!("Keine Vorhersage: {}", why.text_in(lang))),
            _ => twin.problem.clone(),
        }
        .map(|p| view! { <p class="notice notice-warn">{p}</p> });
        let body = twin.prediction.clone().map(|p| {
            let rows = [
                ("TTFT", "ms", "ttft_ms", p.ttft_ms),
                ("TPOT", lang.pick("ms/token", "ms/Token"), "tpot_ms", p.tpot_ms),
                ("ITL", "ms", "itl_ms", p.itl_ms),
                ("E2E", "ms", "e2e_ms", p.e2e_ms),
            ];
            let basis = p.basis;
            let b = &p.backtest;
            let backtest = match (b.median_abs_error_pct, b.max_abs_error_pct, lang) {
                (Some(median), Some(worst), Lang::En) => format!(
                    "Back-test ({}): median error {:.1} %, worst {:.1} % over {} comparisons of measured TTFT and TPOT percentiles.",
                    b.method, median, worst, b.compared
                ),
                (Some(median), Some(worst), lang) => format!(
                    "Backtest ({}): Fehler im Median {} %, höchstens {} % über {} Vergleiche gemessener TTFT- und TPOT-Perzentile.",
                    b.method_in(lang), lang.number(median, 1), lang.number(worst, 1), b.compared
                ),
                (_, _, Lang::En) => format!("Back-test: {}. The prediction states no error.", b.method),
                (_, _, lang) => format!("Backtest: {}. Die Vorhersage nennt keinen Fehler.", b.method_in(lang)),
            };
            let cells = rows
                .into_iter()
                .map(|(name, unit, field, values)| {
                    let cell = |pct: &'static str, v: f64| {
                        let figure = p.figure_basis(field, pct);
                        view! {
                            <td class="num">{num(Some(v), lang)}" "{basis_badge(figure, lang)}</td>
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
            let configuration = twin.configuration.as_ref().filter(|c| *c != "all points");
            let load = match lang {
                Lang::En => format!("{} · prompts {} · answers {}{}", p.arrivals, p.prompt_tokens, p.output_tokens,
                    configuration.map(|c| format!(" · configuration {c}")).unwrap_or_default()),
                lang => {
                    let (prompts, answers) = p.token_shapes_in(lang);
                    format!("{} · Prompts {} · Antworten {}{}", p.arrivals_in(lang), prompts, answers,
                        configuration.map(|c| format!(" · Konfiguration {c}")).unwrap_or_default())
                }
            };
            let read_from = p.measured_source.clone().map(|s| match lang {
                Lang::En => format!(" (read from {s})"),
                lang => format!(" (gelesen aus {})", engine::ingest::point_source_in(&s, lang)),
            });
            let per_s = lang.pick("req/s", "Anfragen/s");
            let throughput = match lang {
                Lang::En => format!("Request throughput: {} req/s ", fmt_num(Some(p.request_throughput_per_s))),
                Lang::De => format!("Anfragedurchsatz: {} {per_s} ", num(Some(p.request_throughput_per_s), lang)),
            };
            let output = match lang {
                Lang::En => format!("Output: {} tokens/s ", fmt_num(Some(p.output_tokens_per_s))),
                Lang::De => format!("Ausgabe: {} Token/s ", num(Some(p.output_tokens_per_s), lang)),
            };
            let saturation = match lang {
                Lang::En => format!("Saturation rate: {} req/s ", fmt_num(Some(p.saturation_rate_per_s))),
                Lang::De => format!("Sättigungsrate: {} {per_s} ", num(Some(p.saturation_rate_per_s), lang)),
            };
            let warnings = match lang {
                Lang::En => p.warnings.clone(),
                lang => p.warnings_in(lang),
            };
            view! {
                <p class="small">{load}
                    " · "{basis_badge(basis, lang)}
                    {read_from}</p>
                <div class="table-scroll">
                    <table class="table twin-table">
                        <thead><tr>
                            <th scope="col">{lang.pick("Figure", "Kennzahl")}</th>
                            <th scope="col" class="num">"p50"</th>
                            <th scope="col" class="num">"p90"</th>
                            <th scope="col" class="num">"p95"</th>
                            <th scope="col" class="num">"p99"</th>
                        </tr></thead>
                        <tbody>{cells}</tbody>
                    </table>
                </div>
                <ul class="twin-figures">
                    <li>{throughput}{basis_badge(basis, lang)}</li>
                    <li>{output}{basis_badge(basis, lang)}</li>
                    <li>{saturation}{basis_badge(Basis::Estimated, lang)}{lang.pick(
                        " (closed form of the fitted model: beyond it the queue grows without bound)",
                        " (geschlossene Form des angepassten Modells: darüber wächst die Warteschlange ohne Grenze)",
                    )}</li>
                </ul>
                <p class="twin-backtest">{backtest}</p>
                {cost}
                {(!warnings.is_empty()).then(|| view! {
                    <ul class="notice notice-warn twin-warnings">
                        {warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}
                    </ul>
                })}
            }
        });
        view! {
            <section class="card twin-card" id="capacity-twin">
                <h2>{heading}</h2>
                <p class="hint">{lang.pick(
                    "Latency percentiles at a load the tests did not try, from a model of vLLM's continuous batching fitted on this pilot's load tests. Measured: read from a load test at that very point; Simulated: inside the range the tests cover; Estimated: beyond it.",
                    "Latenz-Perzentile bei einer Last, die die Tests nicht ausprobiert haben, aus einem Modell des Continuous Batching von vLLM, angepasst an die Lasttests dieses Pilots. Gemessen: aus einem Lasttest an genau diesem Punkt gelesen; Simuliert: innerhalb des Bereichs, den die Tests abdecken; Geschätzt: darüber hinaus.",
                )}</p>
                {form}
                {problem}
                {body}
            </section>
        }
        .into_any()
    }

    /// The plan note above the capacity (`Targets: the latency marks of plan version 2
    /// (approved): …`) in `lang`.
    fn plan_note(view: &LoadTestView, lang: Lang) -> String {
        let plan = &view.plan;
        match (lang, plan.version) {
            (Lang::En, _) => plan.note.clone(),
            (lang, None) => lang
                .pick(
                    &plan.note,
                    "Noch kein freigegebener Plan: Die Kurven werden ohne Zielwerte gezeichnet, und nichts wird bewertet.",
                )
                .to_string(),
            (_, Some(version)) if plan.targets.is_empty() => format!(
                "Planversion {version} (freigegeben) hat keine Zielwerte für Latenz-Perzentile oder -Maxima, daher wird nichts bewertet."
            ),
            (lang, Some(version)) => format!(
                "Zielwerte: die Latenz-Zielwerte der Planversion {version} (freigegeben): {}.",
                plan.targets
                    .iter()
                    .map(|t| t.label_in(lang))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// A concurrency as the capacity sentence writes it: whole, else to one decimal.
    fn concurrency_words(c: f64, lang: Lang) -> String {
        if c.fract() == 0.0 {
            lang.number(c, 0)
        } else {
            lang.number(c, 1)
        }
    }

    /// The capacity's reading (one sentence) in `lang`.
    fn capacity_reading(c: &engine::loadtest::Capacity, lang: Lang) -> String {
        if lang == Lang::En {
            return c.reading.clone();
        }
        let at = |v: f64| concurrency_words(v, lang);
        match (c.concurrency, c.first_failure, c.tested_up_to) {
            (None, Some(f), _) => format!("Zielwerte schon bei Parallelität {} verfehlt", at(f)),
            (Some(c), None, Some(top)) if c >= top => format!(
                "jeder Zielwert hält bis zur höchsten getesteten Parallelität ({}); die Grenze liegt darüber",
                at(c)
            ),
            (Some(c), Some(f), _) => format!(
                "jeder Zielwert hält bis Parallelität {}; verfehlt bei {}",
                at(c),
                at(f)
            ),
            (Some(c), None, _) => format!("jeder Zielwert hält bis Parallelität {}", at(c)),
            (None, None, _) if c.reading.starts_with("not graded: no target") => {
                "nicht bewertet: Kein Zielwert des Plans trifft zu, oder die Statistiken fehlen"
                    .into()
            }
            (None, None, _) => "nicht bewertet: Statistiken fehlen".into(),
        }
    }

    pub fn load_tests(
        view: LoadTestView,
        twin: Result<TwinView, AppError>,
        lang: Lang,
    ) -> impl IntoView + use<> {
        let twin_card = match twin {
            Ok(twin) => view! { <CapacityTwinCard twin percentile=view.percentile.clone() lang/> }
                .into_any(),
            Err(error) => inline_error(error),
        };
        let p = view.pilot.clone();
        let base = format!("/pilots/{}/load-tests?", p.id);
        let note = plan_note(&view, lang);
        let targets = view.plan.targets.clone();
        view! {
            <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>{lang.pick(" / Load tests", " / Lasttests")}
            </nav>
            <PageHeader
                title=lang.pick("Load tests", "Lasttests")
                subtitle=lang.pick(
                    "Latency and throughput against concurrency, one line per scenario; goodput per operating point against the plan in force. Every figure is measured at the client (the load generator).",
                    "Latenz und Durchsatz über der Parallelität, eine Linie je Szenario; Goodput je Betriebspunkt gegenüber dem gültigen Plan. Jede Zahl ist am Client gemessen (dem Lastgenerator).",
                )
            >
                <a class="button" href=format!("/pilots/{}/evidence", p.id)>{if view.can_edit { lang.pick("Upload evidence", "Nachweise hochladen") } else { lang.pick("Evidence files", "Nachweisdateien") }}</a>
                <a class="button" href=format!("/pilots/{}/load-tests/compare", p.id)>{lang.pick("Compare runs", "Läufe vergleichen")}</a>
            </PageHeader>
            {if view.runs.is_empty() {
                view! {
                    <div class="empty-state">
                        <h3>{lang.pick("No load test yet", "Noch kein Lasttest")}</h3>
                        <p>{lang.pick(
                            "Upload vllm bench serve, AIPerf, GenAI-Perf or guidellm results on the evidence page, or send them from CI with the REST API.",
                            "Laden Sie Ergebnisse von vllm bench serve, AIPerf, GenAI-Perf oder guidellm auf der Nachweisseite hoch, oder senden Sie sie mit der REST-API aus der CI.",
                        )}</p>
                    </div>
                    {twin_card}
                }.into_any()
            } else {
                view! {
                    <p class="notice notice-info plan-targets-note">{note}</p>
                    <section class="card capacity-card">
                        <h2>{lang.pick("Capacity", "Kapazität")}</h2>
                        <p class="hint">{lang.pick(
                            "Highest tested concurrency at which every latency target of the plan holds, per scenario.",
                            "Höchste getestete Parallelität, bei der jeder Latenz-Zielwert des Plans hält, je Szenario.",
                        )}</p>
                        <table class="table capacity-table">
                            <thead><tr>
                                <th scope="col">{lang.pick("Scenario", "Szenario")}</th>
                                <th scope="col" class="num">{lang.pick("Capacity (requests in flight)", "Kapazität (gleichzeitige Anfragen)")}</th>
                                <th scope="col" class="num" title=lang.pick("completed requests per second measured at the capacity point", "abgeschlossene Anfragen pro Sekunde, gemessen am Kapazitätspunkt")>{lang.pick("At capacity (req/s)", "Bei Kapazität (Anfragen/s)")}</th>
                                <th scope="col" class="num">{lang.pick("Tested up to", "Getestet bis")}</th>
                                <th scope="col">{lang.pick("Reading", "Befund")}</th>
                            </tr></thead>
                            <tbody>
                                {view.capacity.iter().map(|c| view! {
                                    <tr>
                                        <td>{scenario_name(&c.scenario, lang)}</td>
                                        <td class="num"><strong>{c.concurrency.map(|v| num(Some(v), lang)).unwrap_or_else(|| "–".into())}</strong></td>
                                        <td class="num">{c.requests_per_s.map(|r| num(Some(r), lang)).unwrap_or_else(|| "–".into())}</td>
                                        <td class="num">{num(c.tested_up_to, lang)}</td>
                                        <td>{capacity_reading(c, lang)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </section>
                    {twin_card}
                    {percentile_tabs(base, view.percentile.clone(), view.axis, lang)}
                    <div class="chart-grid">
                        {view.charts.iter().cloned().map(|chart| view! { <ChartCard chart/> }).collect_view()}
                    </div>
                    <section class="card spread-legend">
                        <h2>{lang.pick("Reading the p50 / p95 / p99 spread (TTFT)", "Die Streuung p50 / p95 / p99 lesen (TTFT)")}</h2>
                        <ul class="spread-list">
                            {[SpreadState::Idle, SpreadState::Queueing, SpreadState::Saturated].into_iter().map(|s| view! {
                                <li>{spread_badge(Some(s), lang)}" "{spread_meaning(s, lang)}</li>
                            }).collect_view()}
                        </ul>
                    </section>
                    {view.runs.iter().cloned().map(|run| view! { <RunCard run pilot_id=p.id lang targets=targets.clone()/> }).collect_view()}
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

    /// A figure's name and unit as the comparison writes them (`E2E latency p95`, `tokens/s`),
    /// in `lang`.
    fn figure_words(figure: &str, unit: &str, lang: Lang) -> (String, String) {
        if lang == Lang::En {
            return (figure.to_string(), unit.to_string());
        }
        let names = [
            ("E2E latency", "E2E-Latenz"),
            ("Output tokens/s per stream", "Ausgabe-Token/s je Stream"),
            ("Output tokens/s, aggregate", "Ausgabe-Token/s, gesamt"),
        ];
        let figure = names
            .iter()
            .find_map(|(en, de)| figure.strip_prefix(en).map(|rest| format!("{de}{rest}")))
            .unwrap_or_else(|| figure.to_string());
        let unit = match unit {
            "tokens/s" => "Token/s".to_string(),
            other => other.to_string(),
        };
        (figure, unit)
    }

    /// One picked run of a comparison (`12` whole, `12:3` its point 3 alone), as the comparison
    /// picked it.
    fn picked(all: &[LoadTestRun], token: &str) -> Option<LoadTestRun> {
        let token = token.trim();
        let (id, point) = match token.split_once(':') {
            Some((id, p)) => (id, Some(p)),
            None => (token, None),
        };
        let id: i64 = id.parse().ok()?;
        let mut run = all.iter().find(|r| r.evidence.id == id)?.clone();
        if let Some(p) = point {
            let key = format!("{id}:{p}");
            run.points.retain(|row| row.key == key);
        }
        Some(run)
    }

    /// A picked run's label in `lang`: `#12 file.json · chat at concurrency 8`.
    fn run_label(run: &LoadTestRun, lang: Lang) -> String {
        match run.points.as_slice() {
            [one] => format!(
                "#{} {} · {} bei Parallelität {}",
                run.evidence.id,
                run.evidence.file_name,
                scenario_name(&one.scenario, lang),
                one.concurrency
                    .map(|c| lang.separators(&format!("{c}")))
                    .unwrap_or_else(|| "–".into())
            ),
            _ => format!("#{} {}", run.evidence.id, run.evidence.file_name),
        }
    }

    /// A comparison the API made in English, for a reader of `lang`: the runs' labels, the
    /// figures' names and the curves in `lang` (the same runs, the same numbers).
    pub fn comparison_in(
        mut comparison: Comparison,
        view: &LoadTestView,
        baseline: &str,
        runs: &str,
        percentile: &str,
        lang: Lang,
    ) -> Comparison {
        let base = picked(&view.runs, baseline);
        let chosen: Vec<LoadTestRun> = runs
            .split(',')
            .filter(|t| !t.trim().is_empty())
            .filter_map(|t| picked(&view.runs, t))
            .collect();
        let Some(base) = base else {
            return comparison;
        };
        if chosen.len() != comparison.runs.len() {
            return comparison;
        }
        comparison.baseline_label = run_label(&base, lang);
        for ((label, rows), run) in comparison.runs.iter_mut().zip(&chosen) {
            *label = run_label(run, lang);
            for row in rows {
                let (figure, unit) = figure_words(&row.figure, &row.unit, lang);
                row.figure = figure;
                row.unit = unit;
                row.scenario = scenario_name(&row.scenario, lang);
            }
        }
        let drawn = crate::api::load_tests::normalise_percentile(percentile, &view.plan);
        comparison.charts = crate::api::load_tests::ssr::charts(
            &chosen,
            std::slice::from_ref(&base),
            &view.plan,
            drawn,
            CurveAxis::chosen("", &chosen),
            lang,
        );
        comparison
    }

    #[component]
    fn ComparisonView(comparison: Comparison, lang: Lang) -> impl IntoView {
        let heading = match lang {
            Lang::En => format!(
                "Baseline: {} · percentile {}",
                comparison.baseline_label, comparison.percentile
            ),
            Lang::De => format!(
                "Referenz: {} · Perzentil {}",
                comparison.baseline_label, comparison.percentile
            ),
        };
        view! {
            <p class="notice notice-info">{heading}</p>
            {comparison.runs.into_iter().map(|(label, rows)| view! {
                <section class="card compare-card">
                    <h2>{label}</h2>
                    {if rows.is_empty() {
                        view! { <p class="muted">{lang.pick(
                            "No operating point matches the baseline (same scenario and concurrency).",
                            "Kein Betriebspunkt passt zur Referenz (gleiches Szenario und gleiche Parallelität).",
                        )}</p> }.into_any()
                    } else {
                        view! {
                            <div class="table-scroll">
                                <table class="table compare-table">
                                    <thead><tr>
                                        <th scope="col">{lang.pick("Scenario", "Szenario")}</th>
                                        <th scope="col" class="num">{lang.pick("Conc.", "Par.")}</th>
                                        <th scope="col">{lang.pick("Figure", "Kennzahl")}</th>
                                        <th scope="col" class="num">{lang.pick("Baseline", "Referenz")}</th>
                                        <th scope="col" class="num">{lang.pick("This run", "Dieser Lauf")}</th>
                                        <th scope="col" class="num">{lang.pick("Difference", "Differenz")}</th>
                                    </tr></thead>
                                    <tbody>
                                        {rows.into_iter().map(|row| {
                                            let class = diff_class(&row);
                                            view! {
                                                <tr>
                                                    <td>{row.scenario.clone()}</td>
                                                    <td class="num">{num(row.concurrency, lang)}</td>
                                                    <td>{format!("{} ({})", row.figure, row.unit)}</td>
                                                    <td class="num">{num(row.baseline, lang)}</td>
                                                    <td class="num">{num(row.value, lang)}</td>
                                                    <td class="num"><span class=class>{row.difference_pct.map(|d| lang.separators(&format!("{d:+.1} %"))).unwrap_or_else(|| "–".into())}</span></td>
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
        lang: Lang,
    ) -> impl IntoView + use<> {
        let p = view.pilot.clone();
        view! {
            <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / "
                <a href=format!("/pilots/{}/load-tests", p.id)>{lang.pick("Load tests", "Lasttests")}</a>{lang.pick(" / Compare", " / Vergleich")}
            </nav>
            <PageHeader
                title=lang.pick("Compare load tests", "Lasttests vergleichen")
                subtitle=lang.pick(
                    "Pick a baseline and the runs (whole files or single operating points) to set against it: side-by-side numbers with the difference in %, and the curves overlaid (baseline dashed).",
                    "Wählen Sie eine Referenz und die Läufe (ganze Dateien oder einzelne Betriebspunkte), die ihr gegenübergestellt werden: die Zahlen nebeneinander mit der Differenz in %, und die Kurven übereinander (Referenz gestrichelt).",
                )
            />
            {if view.runs.is_empty() {
                view! { <div class="empty-state"><h3>{lang.pick("Nothing to compare", "Nichts zu vergleichen")}</h3><p>{lang.pick("This pilot has no load test yet.", "Dieser Pilot hat noch keinen Lasttest.")}</p></div> }.into_any()
            } else {
                view! {
                    <section class="card form-card"><CompareForm view baseline selected lang/></section>
                    {match compared {
                        None => ().into_any(),
                        Some(Err(error)) => inline_error(error),
                        Some(Ok(comparison)) => view! { <ComparisonView comparison lang/> }.into_any(),
                    }}
                }.into_any()
            }}
        }
    }
}
