//! The report's capacity-twin section: the twin's prediction at the plan's production load.
//!
//! The load-tests page shows the twin at any load; the report states it once, at the load the
//! page asks by default ([`crate::api::predict::ssr::default_load`]: the plan's peak arrival
//! rate, else its planned peak concurrency), through the very same
//! [`crate::api::predict::ssr::twin_view`], so the report and the page never disagree on the
//! same evidence. Every figure carries its unit, its percentile and its basis (Measured,
//! Simulated, Estimated), and the back-test's median and worst error stand next to it: a
//! prediction without its error would read as a measurement.

use super::locale::Lang;
use super::model::{Cell, Fact, Table};
use crate::error::AppError;
use crate::model::Pilot;
use crate::server::Services;
use engine::twin::{Basis, Prediction};

/// What the report prints about the capacity twin.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TwinSection {
    /// Set when there is no prediction: the one sentence that says why.
    pub empty: Option<String>,
    /// The load asked and where it comes from, the configuration and the token shape.
    pub load: String,
    /// TTFT, TPOT, ITL, E2E × p50, p90, p95, p99, each cell labelled with its basis.
    pub table: Table,
    /// Throughput, output rate and saturation rate, each with its basis.
    pub figures: Vec<Fact>,
    /// The back-test: median and worst error, and over how many comparisons.
    pub backtest: String,
    pub warnings: Vec<String>,
}

/// The section for `pilot` (visibility already checked).
pub async fn section(
    services: &Services,
    pilot: &Pilot,
    lang: Lang,
) -> Result<TwinSection, AppError> {
    let view =
        crate::api::predict::ssr::twin_view(services, pilot.clone(), String::new(), String::new())
            .await?;
    if !view.has_load_tests {
        return Ok(TwinSection {
            empty: Some(
                "No load test yet: the capacity twin is fitted on the pilot's own load tests, so it makes no prediction."
                    .into(),
            ),
            ..TwinSection::default()
        });
    }
    let Some(prediction) = &view.prediction else {
        return Ok(TwinSection {
            empty: Some(
                view.problem
                    .unwrap_or_else(|| "The capacity twin makes no prediction.".into()),
            ),
            ..TwinSection::default()
        });
    };
    let load = format!(
        "{}, {} · prompts {} · answers {}{} · overall basis {}{}.",
        prediction.arrivals,
        view.default_load.source,
        prediction.prompt_tokens,
        prediction.output_tokens,
        view.configuration
            .as_ref()
            .filter(|c| *c != "all points")
            .map(|c| format!(" · configuration {c}"))
            .unwrap_or_default(),
        prediction.basis.label(),
        prediction
            .measured_source
            .as_ref()
            .map(|s| format!(" (read from {s})"))
            .unwrap_or_default(),
    );
    Ok(render(prediction, load, lang))
}

fn cell(text: impl Into<String>, numeric: bool) -> Cell {
    Cell {
        text: text.into(),
        numeric,
    }
}

/// `figure (Basis)`.
fn labelled(value: String, basis: Basis) -> String {
    format!("{value} ({})", basis.label())
}

/// The section's tables and sentences from a prediction.
pub fn render(prediction: &Prediction, load: String, lang: Lang) -> TwinSection {
    let p = prediction;
    let rows = [
        ("TTFT", "ms", "ttft_ms", &p.ttft_ms),
        ("TPOT", "ms/token", "tpot_ms", &p.tpot_ms),
        ("ITL", "ms", "itl_ms", &p.itl_ms),
        ("E2E", "ms", "e2e_ms", &p.e2e_ms),
    ]
    .into_iter()
    .map(|(name, unit, field, values)| {
        let mut row = vec![cell(format!("{name} ({unit})"), false)];
        for (pct, v) in [
            ("p50", values.p50),
            ("p90", values.p90),
            ("p95", values.p95),
            ("p99", values.p99),
        ] {
            row.push(cell(
                labelled(lang.figure(v), p.figure_basis(field, pct)),
                true,
            ));
        }
        row
    })
    .collect();
    let table = Table {
        caption: "Predicted latency percentiles (client side, per request)".into(),
        headers: vec![
            cell("Figure", false),
            cell("p50", true),
            cell("p90", true),
            cell("p95", true),
            cell("p99", true),
        ],
        rows,
    };
    let figures = vec![
        Fact {
            label: "Request throughput".into(),
            value: labelled(
                format!("{} req/s", lang.figure(p.request_throughput_per_s)),
                p.basis,
            ),
            note: "completed requests per second at this load".into(),
        },
        Fact {
            label: "Output".into(),
            value: labelled(
                format!("{} tokens/s", lang.figure(p.output_tokens_per_s)),
                p.basis,
            ),
            note: "generated tokens per second, all streams together".into(),
        },
        Fact {
            label: "Saturation rate".into(),
            value: labelled(
                format!("{} req/s", lang.figure(p.saturation_rate_per_s)),
                Basis::Estimated,
            ),
            note: "closed form of the fitted model: beyond it the queue grows without bound".into(),
        },
    ];
    let b = &p.backtest;
    let backtest = match (b.median_abs_error_pct, b.max_abs_error_pct) {
        (Some(median), Some(worst)) => format!(
            "Back-test ({}): median error {} %, worst {} % over {} comparisons of measured TTFT and TPOT percentiles.",
            b.method,
            lang.number(median, 1),
            lang.number(worst, 1),
            lang.number(b.compared as f64, 0)
        ),
        _ => format!("Back-test: {}. The prediction states no error.", b.method),
    };
    TwinSection {
        empty: None,
        load,
        table,
        figures,
        backtest,
        warnings: p.warnings.clone(),
    }
}
