//! The report's capacity-twin section: the twin's prediction at the plan's production load.
//!
//! The load-tests page shows the twin at any load; the report states it once, at the load the
//! page asks by default ([`crate::predict::service::default_load`]: the plan's peak arrival
//! rate, else its planned peak concurrency), through the very same
//! [`crate::predict::service::twin_view`], so the report and the page never disagree on the
//! same evidence. Every figure carries its unit, its percentile and its basis (Measured,
//! Simulated, Estimated), and the back-test's median and worst error stand next to it: a
//! prediction without its error would read as a measurement.
//!
//! The section's own words (caption, figure labels and notes, the basis words, the back-test
//! sentence, the empty-state sentences) come from the report language's
//! [`super::locale::Labels`]; the back-test method and the twin's own notes are the engine's,
//! in the report's language ([`engine::twin::Backtest::method_in`],
//! [`engine::twin::Prediction::warnings_in`]), and so are the load line's parts: the arrival
//! process and token shapes ([`engine::twin::Prediction::arrivals_in`],
//! [`engine::twin::Prediction::token_shapes_in`]) and where the load comes from
//! ([`crate::predict::LoadSource::describe_in`]). The reason it gives for making no
//! prediction is data ([`crate::predict::refusal::FitRefusal`]) worded in the report's
//! language; warnings the twin words from free text stay as the engine recorded them.

use super::blocks::{Cell, Fact, Table};
use super::locale::{Labels, Lang, LangLabels};
use crate::ServiceError;
use crate::Services;
use crate::model::Pilot;
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
) -> Result<TwinSection, ServiceError> {
    let view = crate::predict::service::twin_view(
        services,
        pilot.clone(),
        String::new(),
        String::new(),
        None,
    )
    .await?;
    let t = lang.labels();
    if !view.has_load_tests {
        return Ok(TwinSection {
            empty: Some(t.twin_no_load_test.into()),
            ..TwinSection::default()
        });
    }
    let Some(prediction) = &view.prediction else {
        return Ok(TwinSection {
            empty: Some(match (&view.refusal, view.problem) {
                (Some(why), _) => {
                    format!("{}: {}", t.twin_no_prediction_short, why.reason_in(lang))
                }
                (None, Some(problem)) => problem,
                (None, None) => t.twin_no_prediction.into(),
            }),
            ..TwinSection::default()
        });
    };
    let (prompts, answers) = prediction.token_shapes_in(lang);
    let load = format!(
        "{}, {} · {} {} · {} {}{} · {} {}{}.",
        prediction.arrivals_in(lang),
        view.default_load.chosen_by.describe_in(lang),
        t.twin_prompts,
        prompts,
        t.twin_answers,
        answers,
        view.configuration
            .as_ref()
            .filter(|c| *c != "all points")
            .map(|c| format!(" · {} {c}", t.twin_configuration))
            .unwrap_or_default(),
        t.twin_overall_basis,
        basis_label(prediction.basis, t),
        prediction
            .measured_source
            .as_ref()
            .map(|s| {
                format!(
                    " ({} {})",
                    t.twin_read_from,
                    engine::ingest::point_source_in(s, lang)
                )
            })
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

/// The basis word in the report's language.
pub(super) fn basis_label(basis: Basis, t: &Labels) -> &'static str {
    match basis {
        Basis::Measured => t.basis_measured,
        Basis::Simulated => t.basis_simulated,
        Basis::Estimated => t.basis_estimated,
    }
}

/// `figure (Basis)`.
fn labelled(value: String, basis: Basis, t: &Labels) -> String {
    format!("{value} ({})", basis_label(basis, t))
}

/// The section's tables and sentences from a prediction.
pub fn render(prediction: &Prediction, load: String, lang: Lang) -> TwinSection {
    let t = lang.labels();
    let p = prediction;
    let rows = [
        ("TTFT", "ms", "ttft_ms", &p.ttft_ms),
        (
            "TPOT",
            lang.pick("ms/token", "ms/Token"),
            "tpot_ms",
            &p.tpot_ms,
        ),
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
                labelled(lang.figure(v), p.figure_basis(field, pct), t),
                true,
            ));
        }
        row
    })
    .collect();
    let table = Table {
        caption: t.twin_caption.into(),
        headers: vec![
            cell(t.figure, false),
            cell("p50", true),
            cell("p90", true),
            cell("p95", true),
            cell("p99", true),
        ],
        rows,
    };
    let figures = vec![
        Fact {
            label: t.twin_request_throughput.into(),
            value: labelled(
                format!("{} req/s", lang.figure(p.request_throughput_per_s)),
                p.basis,
                t,
            ),
            note: t.twin_request_throughput_note.into(),
        },
        Fact {
            label: t.twin_output.into(),
            value: labelled(
                format!(
                    "{} {}",
                    lang.figure(p.output_tokens_per_s),
                    lang.pick("tokens/s", "Token/s")
                ),
                p.basis,
                t,
            ),
            note: t.twin_output_note.into(),
        },
        Fact {
            label: t.twin_saturation_rate.into(),
            value: labelled(
                format!("{} req/s", lang.figure(p.saturation_rate_per_s)),
                Basis::Estimated,
                t,
            ),
            note: t.twin_saturation_rate_note.into(),
        },
    ];
    let b = &p.backtest;
    let method = b.method_in(lang);
    let backtest = match (b.median_abs_error_pct, b.max_abs_error_pct) {
        // The method (the engine's words) goes in last, so nothing in it is taken for a
        // placeholder.
        (Some(median), Some(worst)) => t
            .twin_backtest
            .replace("{median}", &lang.number(median, 1))
            .replace("{worst}", &lang.number(worst, 1))
            .replace("{compared}", &lang.number(b.compared as f64, 0))
            .replace("{method}", &method),
        _ => t.twin_backtest_without_error.replace("{method}", &method),
    };
    TwinSection {
        empty: None,
        load,
        table,
        figures,
        backtest,
        warnings: p.warnings_in(lang),
    }
}
