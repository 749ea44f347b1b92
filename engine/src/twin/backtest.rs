//! The twin's stated error: leave-one-out over the pilot's measured points.
//!
//! For every measured point in turn, the model is refitted without it (and without its
//! per-request records), the held-out run is re-simulated exactly as it was sent (arrival
//! process, request count, token shape), and the predicted TTFT and TPOT p50, p95 and p99 are
//! compared with the measured ones. The absolute percentage errors, per point and over all
//! comparisons (median and maximum), are the number a page or report states next to a
//! prediction: how far the twin was off on load levels it had not seen.
//!
//! A held-out point whose scenario has no other point and states no prompt lengths cannot be
//! predicted (its prefill work is only known from itself) and is listed as skipped.

use super::evidence::measure;
use super::fit::{FitOptions, fit_with, median, point_errors, rerun};
use super::serving_limits::ServingLimits;
use super::workload::TokenLengths;
use crate::ingest::{OperatingPoint, RequestRecord};
use crate::locale::Lang;
use serde::{Deserialize, Serialize};

/// One comparison of a predicted with a measured percentile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BacktestComparison {
    /// `ttft_ms` or `tpot_ms`.
    pub metric: String,
    /// `p50`, `p95` or `p99`.
    pub percentile: String,
    pub measured: f64,
    pub predicted: f64,
    /// (predicted − measured) ÷ measured × 100.
    pub error_pct: f64,
}

/// The back-test of one held-out point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BacktestPoint {
    pub source: String,
    pub scenario: String,
    /// `concurrency 16`, `rate 10 req/s`, `burst of 900`.
    pub load: String,
    pub comparisons: Vec<BacktestComparison>,
    pub median_abs_error_pct: Option<f64>,
    pub max_abs_error_pct: Option<f64>,
}

/// Leave-one-out errors of the twin.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Backtest {
    /// What was done, in a sentence.
    pub method: String,
    pub points: Vec<BacktestPoint>,
    /// Comparisons made (points × metrics × percentiles reported).
    pub compared: usize,
    /// Median absolute error over every comparison, %.
    pub median_abs_error_pct: Option<f64>,
    /// Largest absolute error, %.
    pub max_abs_error_pct: Option<f64>,
    pub ttft_median_abs_error_pct: Option<f64>,
    pub tpot_median_abs_error_pct: Option<f64>,
    /// Points that could not be held out, and why.
    pub skipped: Vec<String>,
}

/// What the leave-one-out back-test over `usable` measured points does, in `lang`.
fn leave_one_out_method(usable: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "leave-one-out over {usable} measured points: each refitted without it and its run \
             re-simulated; TTFT and TPOT p50/p95/p99 compared"
        ),
        Lang::De => format!(
            "Leave-one-out über {} gemessene Punkte: jeder Punkt ohne sich selbst neu angepasst \
             und sein Lauf neu simuliert; verglichen wurden TTFT- und TPOT-p50/p95/p99",
            Lang::De.number(usable as f64, 0)
        ),
    }
}

impl Backtest {
    /// [`Backtest::method`] in `lang`: the leave-one-out sentence is rebuilt from the points
    /// it held out (each became a point or a skipped one); a reason the back-test did not run
    /// stays as recorded.
    pub fn method_in(&self, lang: Lang) -> String {
        let usable = self.points.len() + self.skipped.len();
        if lang != Lang::En && self.method == leave_one_out_method(usable, Lang::En) {
            return leave_one_out_method(usable, lang);
        }
        self.method.clone()
    }

    /// A back-test that could not run, saying why.
    pub fn not_run(why: impl Into<String>) -> Self {
        Backtest {
            method: why.into(),
            ..Default::default()
        }
    }
}

/// Leave-one-out over `points` (one serving configuration) — see the module docs. Fits use
/// `options`; each held-out run is simulated with at most `options.calibration_requests`
/// requests below saturation.
pub fn backtest(
    points: &[OperatingPoint],
    requests: &[RequestRecord],
    limits: &ServingLimits,
    options: &FitOptions,
) -> Backtest {
    let usable: Vec<usize> = (0..points.len())
        .filter(|&i| measure(i, &points[i]).is_ok())
        .collect();
    if usable.len() < 2 {
        return Backtest::not_run(format!(
            "not run: leave-one-out needs at least two measured points, {} usable",
            usable.len()
        ));
    }
    let mut out = Backtest {
        method: leave_one_out_method(usable.len(), Lang::En),
        ..Default::default()
    };
    for &held in &usable {
        let rest: Vec<OperatingPoint> = points
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != held)
            .map(|(_, p)| p.clone())
            .collect();
        let rest_requests: Vec<RequestRecord> = requests
            .iter()
            .filter(|r| r.point != held)
            .map(|r| {
                let mut r = r.clone();
                if r.point > held {
                    r.point -= 1;
                }
                r
            })
            .collect();
        let source = points[held].source.clone();
        let model = match fit_with(&rest, &rest_requests, limits, options) {
            Ok(model) => model,
            Err(e) => {
                out.skipped
                    .push(format!("{source}: the others could not be fitted: {e}"));
                continue;
            }
        };
        let mut m = measure(held, &points[held]).expect("usable");
        m.recorded_arrivals = super::evidence::recorded_arrivals(&m, requests);
        if m.prompt_tokens_mean.is_none() {
            match model.scenarios.iter().find(|s| s.name == m.scenario) {
                Some(shape) => {
                    m.workload.prompt_tokens =
                        TokenLengths::fixed(shape.prompt_tokens_mean.round().max(1.0) as u32);
                }
                None => {
                    out.skipped.push(format!(
                        "{source}: the only point of its scenario, which states no prompt lengths"
                    ));
                    continue;
                }
            }
        }
        let run = rerun(&model, &m, options.calibration_requests, options.seed);
        let comparisons: Vec<BacktestComparison> = point_errors(&m, &run)
            .into_iter()
            .map(|(metric, statistic, error_pct)| {
                let measured = match metric {
                    "ttft_ms" => m.ttft_ms.get(statistic),
                    _ => m.tpot_ms.get(statistic),
                }
                .unwrap_or(0.0);
                let predicted = match metric {
                    "ttft_ms" => run.ttft_ms.get(statistic),
                    _ => run.tpot_ms.get(statistic),
                }
                .unwrap_or(0.0);
                BacktestComparison {
                    metric: metric.to_string(),
                    percentile: statistic.as_str().to_string(),
                    measured,
                    predicted,
                    error_pct,
                }
            })
            .collect();
        let abs: Vec<f64> = comparisons.iter().map(|c| c.error_pct.abs()).collect();
        out.points.push(BacktestPoint {
            source,
            scenario: m.scenario.clone(),
            load: m.load_label(),
            median_abs_error_pct: median(abs.clone()),
            max_abs_error_pct: abs.iter().copied().reduce(f64::max),
            comparisons,
        });
    }
    let all: Vec<&BacktestComparison> = out
        .points
        .iter()
        .flat_map(|p| p.comparisons.iter())
        .collect();
    let abs_of = |metric: Option<&str>| -> Vec<f64> {
        all.iter()
            .filter(|c| metric.is_none_or(|m| c.metric == m))
            .map(|c| c.error_pct.abs())
            .collect()
    };
    out.compared = all.len();
    out.median_abs_error_pct = median(abs_of(None));
    out.max_abs_error_pct = abs_of(None).into_iter().reduce(f64::max);
    out.ttft_median_abs_error_pct = median(abs_of(Some("ttft_ms")));
    out.tpot_median_abs_error_pct = median(abs_of(Some("tpot_ms")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held_out(points: usize, skipped: usize) -> Backtest {
        Backtest {
            method: leave_one_out_method(points + skipped, Lang::En),
            points: vec![
                BacktestPoint {
                    source: "run.json".into(),
                    scenario: "chat".into(),
                    load: "concurrency 16".into(),
                    comparisons: Vec::new(),
                    median_abs_error_pct: None,
                    max_abs_error_pct: None,
                };
                points
            ],
            skipped: vec!["run.json: the only point of its scenario".into(); skipped],
            ..Backtest::default()
        }
    }

    #[test]
    fn the_method_reads_german_and_english_stays_as_stored() {
        let twelve = held_out(11, 1);
        assert_eq!(
            twelve.method,
            "leave-one-out over 12 measured points: each refitted without it and its run \
             re-simulated; TTFT and TPOT p50/p95/p99 compared"
        );
        assert_eq!(twelve.method_in(Lang::En), twelve.method);
        assert_eq!(
            twelve.method_in(Lang::De),
            "Leave-one-out über 12 gemessene Punkte: jeder Punkt ohne sich selbst neu angepasst \
             und sein Lauf neu simuliert; verglichen wurden TTFT- und TPOT-p50/p95/p99"
        );
        assert!(
            held_out(1_000, 200)
                .method_in(Lang::De)
                .starts_with("Leave-one-out über 1.200 gemessene Punkte:")
        );
        let not_run = Backtest::not_run("not run");
        assert_eq!(not_run.method_in(Lang::De), "not run");
    }
}
