//! Load-test curves: a latency or throughput statistic against concurrency, one line per series
//! (scenario, percentile, run), with the plan's targets as dashed threshold lines.
//!
//! Every chart states its unit and what was measured where: the caller passes the title (metric
//! and percentile), the unit and a footnote (definition and measurement point, e.g. "client:
//! as the load generator measured it"). The x axis is logarithmic (base 2) when every x is
//! positive, since load tests double the concurrency; ticks sit on the tested levels.

use super::{ChartError, chart_error, palette};
use crate::locale::Lang;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveSeries {
    pub name: String,
    /// (x, y), any order; drawn in ascending x.
    pub points: Vec<(f64, f64)>,
    /// Dashed (e.g. the baseline of a comparison).
    pub dashed: bool,
    /// Colour slot; series sharing a slot share a colour.
    pub colour: usize,
}

/// A horizontal target line.
#[derive(Clone, Debug, PartialEq)]
pub struct Threshold {
    pub label: String,
    pub value: f64,
    /// A mark graded at another percentile than the chart draws: a thin grey line for
    /// reference, not the red target.
    pub reference: bool,
}

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveChart {
    /// Metric and percentile, e.g. `TTFT p95 vs concurrency`.
    pub title: String,
    /// Unit of the y axis (`ms`, `tokens/s`).
    pub y_unit: String,
    /// e.g. `concurrency (requests in flight)`.
    pub x_label: String,
    /// Definition and measurement point.
    pub footnote: String,
    pub series: Vec<CurveSeries>,
    pub thresholds: Vec<Threshold>,
    /// The language of the words the chart adds itself (the axis scale, its footnote) and of
    /// the tick numbers; the caller words the title, labels and footnote.
    pub lang: Lang,
}

/// Series colours (colour-blind friendly, distinct on white).
pub const SERIES_COLOURS: [RGBColor; 6] = [
    RGBColor(0x1f, 0x5f, 0x8b),
    RGBColor(0xd9, 0x7a, 0x00),
    RGBColor(0x3b, 0xa7, 0x6a),
    RGBColor(0x8e, 0x44, 0xad),
    RGBColor(0xb4, 0x23, 0x18),
    RGBColor(0x4a, 0x55, 0x63),
];

const WIDTH: i32 = 680;
const PLOT_HEIGHT: i32 = 230;
const LEFT: i32 = 64;
const RIGHT: i32 = 24;
/// Room above the plot for the title (y 8–26) and the unit (y 28–42), clear of the top tick.
const TOP: i32 = 50;
const LEGEND_ROW: i32 = 20;
/// Legend names (characters) that fit half the width, and the whole width.
const LEGEND_HALF: usize = 38;
const LEGEND_FULL: usize = 80;

/// A "nice" step for about `n` ticks over `0..max`.
fn nice_step(max: f64, n: f64) -> f64 {
    let raw = (max / n).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let unit = raw / magnitude;
    let nice = if unit <= 1.0 {
        1.0
    } else if unit <= 2.0 {
        2.0
    } else if unit <= 2.5 {
        2.5
    } else if unit <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// A tick label: grouped from 10,000 up (`12,500` / `12.500`), one decimal below 10 when the
/// tick is not whole (`2.5` / `2,5`).
fn fmt_tick(v: f64, lang: Lang) -> String {
    if v.abs() >= 10_000.0 {
        lang.number(v, 0)
    } else if v.fract() == 0.0 || v.abs() >= 10.0 {
        format!("{v:.0}")
    } else {
        lang.number(v, 1)
    }
}

fn dashed_path(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    points: &[(i32, i32)],
    style: ShapeStyle,
    dash: f64,
    gap: f64,
) -> Result<(), ChartError> {
    for pair in points.windows(2) {
        let (x0, y0) = (f64::from(pair[0].0), f64::from(pair[0].1));
        let (x1, y1) = (f64::from(pair[1].0), f64::from(pair[1].1));
        let length = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        if length == 0.0 {
            continue;
        }
        let mut t = 0.0;
        while t < length {
            let end = (t + dash).min(length);
            let a = (x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length);
            let b = (x0 + (x1 - x0) * end / length, y0 + (y1 - y0) * end / length);
            root.draw(&PathElement::new(
                vec![
                    (a.0.round() as i32, a.1.round() as i32),
                    (b.0.round() as i32, b.1.round() as i32),
                ],
                style,
            ))
            .map_err(chart_error)?;
            t += dash + gap;
        }
    }
    Ok(())
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The y axis: linear from 0, or logarithmic when the measured values run so far above the
/// targets that a linear axis would press the targets and the curve's knee against its floor
/// (a sweep into overload reaches tens of seconds against a mark of a few hundred ms).
#[derive(Clone, Copy, Debug, PartialEq)]
enum YAxis {
    Linear {
        max: f64,
        step: f64,
    },
    /// Decades from `low` to `high` (both powers of ten).
    Log {
        low: f64,
        high: f64,
    },
}

impl YAxis {
    fn for_chart(chart: &CurveChart) -> YAxis {
        let values: Vec<f64> = chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .filter(|y| y.is_finite())
            .collect();
        let targets: Vec<f64> = chart
            .thresholds
            .iter()
            .map(|t| t.value)
            .filter(|v| v.is_finite() && *v > 0.0)
            .collect();
        let top = values
            .iter()
            .chain(&targets)
            .copied()
            .fold(0.0_f64, f64::max);
        let lowest = values
            .iter()
            .chain(&targets)
            .copied()
            .fold(f64::INFINITY, f64::min);
        let highest_target = targets.iter().copied().fold(0.0_f64, f64::max);
        if highest_target > 0.0 && lowest > 0.0 && top > 5.0 * highest_target {
            return YAxis::Log {
                low: 10f64.powf(lowest.log10().floor()),
                high: 10f64.powf(top.log10().ceil()),
            };
        }
        let span = if top > 0.0 { top * 1.08 } else { 1.0 };
        let step = nice_step(span, 5.0);
        YAxis::Linear {
            max: (span / step).ceil() * step,
            step,
        }
    }

    /// Where `y` lies, 0 (bottom) to 1 (top).
    fn fraction(self, y: f64) -> f64 {
        match self {
            YAxis::Linear { max, .. } => y / max,
            YAxis::Log { low, high } => {
                (y.max(low).log10() - low.log10()) / (high.log10() - low.log10())
            }
        }
    }

    /// Grid lines: every step from 0, or 1, 2 and 5 of every decade.
    fn ticks(self) -> Vec<f64> {
        match self {
            YAxis::Linear { max, step } => {
                let n = (max / step + 0.01).floor() as usize;
                (0..=n).map(|i| i as f64 * step).collect()
            }
            YAxis::Log { low, high } => {
                let mut ticks = Vec::new();
                let mut decade = low;
                while decade <= high * 1.0001 {
                    for m in [1.0, 2.0, 5.0] {
                        let v = decade * m;
                        if v <= high * 1.0001 {
                            ticks.push(v);
                        }
                    }
                    decade *= 10.0;
                }
                ticks
            }
        }
    }
}

/// The chart as an SVG document.
pub fn load_curve_chart(chart: &CurveChart) -> Result<String, ChartError> {
    // Two legend columns while every name fits half the width, else one name per row.
    let columns = if chart
        .series
        .iter()
        .all(|s| s.name.chars().count() <= LEGEND_HALF)
    {
        2
    } else {
        1
    };
    let legend_rows = chart.series.len().div_ceil(columns) as i32;
    let height = TOP + PLOT_HEIGHT + 38 + legend_rows * LEGEND_ROW + 68;
    let xs: Vec<f64> = {
        let mut xs: Vec<f64> = chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .filter(|x| x.is_finite())
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        xs
    };
    let log_x = !xs.is_empty() && xs.iter().all(|x| *x > 0.0);
    let tx = |x: f64| if log_x { x.log2() } else { x };
    let (x_min, x_max) = match (xs.first(), xs.last()) {
        (Some(a), Some(b)) if tx(*b) > tx(*a) => (tx(*a), tx(*b)),
        (Some(a), _) => (tx(*a) - 1.0, tx(*a) + 1.0),
        _ => (0.0, 1.0),
    };
    let y_axis = YAxis::for_chart(chart);
    let plot_w = f64::from(WIDTH - LEFT - RIGHT);
    let pad = 0.04 * plot_w;
    let x_of = |x: f64| {
        LEFT + (pad + (plot_w - 2.0 * pad) * (tx(x) - x_min) / (x_max - x_min)).round() as i32
    };
    let y_of =
        |y: f64| TOP + PLOT_HEIGHT - (f64::from(PLOT_HEIGHT) * y_axis.fraction(y)).round() as i32;

    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (WIDTH as u32, height as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let title = TextStyle::from(("sans-serif", 18).into_font()).color(&palette::INK);
        let small = TextStyle::from(("sans-serif", 14).into_font()).color(&palette::INK_SOFT);
        let ink = TextStyle::from(("sans-serif", 14).into_font()).color(&palette::INK);
        let scale = match y_axis {
            YAxis::Log { .. } => chart.lang.pick(", log scale", ", logarithmisch"),
            YAxis::Linear { .. } => "",
        };
        root.draw(&Text::new(
            format!("{} ({}{scale})", chart.title, chart.y_unit),
            (8, 8),
            title,
        ))
        .map_err(chart_error)?;
        // Grid and y ticks.
        for y in y_axis.ticks() {
            let py = y_of(y);
            root.draw(&PathElement::new(
                vec![(LEFT, py), (WIDTH - RIGHT, py)],
                palette::LINE.stroke_width(1),
            ))
            .map_err(chart_error)?;
            let label = fmt_tick(y, chart.lang);
            let w = label.chars().count() as i32 * 7;
            root.draw(&Text::new(label, (LEFT - 6 - w, py - 6), small.clone()))
                .map_err(chart_error)?;
        }
        root.draw(&Text::new(
            chart.y_unit.clone(),
            (8, TOP - 22),
            small.clone(),
        ))
        .map_err(chart_error)?;
        // X ticks on the tested levels.
        let base = TOP + PLOT_HEIGHT;
        root.draw(&PathElement::new(
            vec![(LEFT, base), (WIDTH - RIGHT, base)],
            palette::INK_SOFT.stroke_width(1),
        ))
        .map_err(chart_error)?;
        for x in &xs {
            let px = x_of(*x);
            root.draw(&PathElement::new(
                vec![(px, base), (px, base + 4)],
                palette::INK_SOFT.stroke_width(1),
            ))
            .map_err(chart_error)?;
            let label = fmt_tick(*x, chart.lang);
            let w = label.chars().count() as i32 * 4;
            root.draw(&Text::new(label, (px - w, base + 7), small.clone()))
                .map_err(chart_error)?;
        }
        root.draw(&Text::new(
            format!(
                "{}{}",
                chart.x_label,
                if log_x {
                    chart.lang.pick(" — log scale", " — logarithmisch")
                } else {
                    ""
                }
            ),
            (LEFT + (plot_w as i32) / 2 - 130, base + 22),
            small.clone(),
        ))
        .map_err(chart_error)?;
        // Thresholds.
        for t in &chart.thresholds {
            if !t.value.is_finite() || t.value < 0.0 {
                continue;
            }
            let py = y_of(t.value);
            let (colour, width) = if t.reference {
                (palette::INK_SOFT, 1)
            } else {
                (palette::FAIL, 2)
            };
            dashed_path(
                &root,
                &[(LEFT, py), (WIDTH - RIGHT, py)],
                colour.stroke_width(width),
                8.0,
                5.0,
            )?;
            let label = t.label.clone();
            let w = label.chars().count() as i32 * 7;
            root.draw(&Text::new(
                label,
                (WIDTH - RIGHT - w - 2, py - 17),
                TextStyle::from(("sans-serif", 14).into_font()).color(&colour),
            ))
            .map_err(chart_error)?;
        }
        // Series.
        for s in &chart.series {
            let colour = SERIES_COLOURS[s.colour % SERIES_COLOURS.len()];
            let mut pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let pixels: Vec<(i32, i32)> = pts.iter().map(|(x, y)| (x_of(*x), y_of(*y))).collect();
            if s.dashed {
                dashed_path(&root, &pixels, colour.stroke_width(2), 6.0, 4.0)?;
            } else if pixels.len() > 1 {
                root.draw(&PathElement::new(pixels.clone(), colour.stroke_width(2)))
                    .map_err(chart_error)?;
            }
            for p in &pixels {
                if s.dashed {
                    root.draw(&Rectangle::new(
                        [(p.0 - 3, p.1 - 3), (p.0 + 3, p.1 + 3)],
                        WHITE.filled(),
                    ))
                    .map_err(chart_error)?;
                    root.draw(&Rectangle::new(
                        [(p.0 - 3, p.1 - 3), (p.0 + 3, p.1 + 3)],
                        colour.stroke_width(2),
                    ))
                    .map_err(chart_error)?;
                } else {
                    root.draw(&Circle::new(*p, 3, colour.filled()))
                        .map_err(chart_error)?;
                }
            }
        }
        // Legend.
        let legend_top = base + 42;
        for (i, s) in chart.series.iter().enumerate() {
            let colour = SERIES_COLOURS[s.colour % SERIES_COLOURS.len()];
            let col = (i % columns) as i32;
            let row = (i / columns) as i32;
            let x = LEFT + col * ((WIDTH - LEFT) / 2);
            let y = legend_top + row * LEGEND_ROW;
            if s.dashed {
                dashed_path(
                    &root,
                    &[(x, y + 6), (x + 24, y + 6)],
                    colour.stroke_width(2),
                    5.0,
                    3.0,
                )?;
            } else {
                root.draw(&PathElement::new(
                    vec![(x, y + 6), (x + 24, y + 6)],
                    colour.stroke_width(2),
                ))
                .map_err(chart_error)?;
            }
            let name: String = if s.name.chars().count() > LEGEND_FULL {
                let mut cut: String = s.name.chars().take(LEGEND_FULL - 1).collect();
                cut.push('…');
                cut
            } else {
                s.name.clone()
            };
            root.draw(&Text::new(name, (x + 30, y), ink.clone()))
                .map_err(chart_error)?;
        }
        let foot_y = legend_top + legend_rows * LEGEND_ROW + 4;
        let footnote = match y_axis {
            YAxis::Log { .. } => format!(
                "{} {}",
                chart.footnote,
                chart.lang.pick(
                    "The y axis is logarithmic: the measured values reach more than five times \
                     the highest target, and a linear axis would flatten the curve near it.",
                    "Die y-Achse ist logarithmisch: Die Messwerte erreichen mehr als das \
                     Fünffache des höchsten Zielwerts, eine lineare Achse würde die Kurve dort \
                     flach drücken."
                )
            ),
            YAxis::Linear { .. } => chart.footnote.clone(),
        };
        for (i, line) in wrap(&footnote, 96).into_iter().take(4).enumerate() {
            root.draw(&Text::new(line, (8, foot_y + 16 * i as i32), small.clone()))
                .map_err(chart_error)?;
        }
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart() -> CurveChart {
        CurveChart {
            title: "TTFT p95 vs concurrency".into(),
            y_unit: "ms".into(),
            x_label: "concurrency (requests in flight)".into(),
            footnote:
                "TTFT: request sent → first content token; measured at the client (load generator)."
                    .into(),
            lang: Lang::En,
            series: vec![
                CurveSeries {
                    name: "long prompt → short answer".into(),
                    points: vec![(8.0, 572.0), (1.0, 116.0), (4.0, 281.0), (2.0, 170.0)],
                    dashed: false,
                    colour: 0,
                },
                CurveSeries {
                    name: "baseline".into(),
                    points: vec![(1.0, 73.0), (8.0, 165.0)],
                    dashed: true,
                    colour: 1,
                },
            ],
            thresholds: vec![Threshold {
                label: "target TTFT p99 ≤ 450 ms".into(),
                value: 450.0,
                reference: false,
            }],
        }
    }

    #[test]
    fn a_curve_chart_carries_title_unit_ticks_legend_threshold_and_footnote() {
        let svg = load_curve_chart(&chart()).unwrap();
        for text in [
            "TTFT p95 vs concurrency (ms)",
            "target TTFT p99 ≤ 450 ms",
            "long prompt → short answer",
            "measured at the client",
            "concurrency (requests in flight) — log scale",
            "\n8\n</text>",
            "\n800\n</text>",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        assert!(svg.contains("#1F5F8B") || svg.contains("#1f5f8b"));
    }

    #[test]
    fn the_threshold_line_lies_at_its_value() {
        // 572 × 1.08 rounds up to a 0–800 axis (step 200); 450 on 230 px from y = 50:
        // 50 + 230 − 129 = 151.
        let svg = load_curve_chart(&chart()).unwrap();
        assert!(svg.contains("stroke=\"#B42318\" stroke-width=\"2\" points=\"64,151 "));
    }

    #[test]
    fn a_mark_of_another_percentile_is_a_thin_grey_reference_not_the_red_target() {
        let mut c = chart();
        c.thresholds[0].reference = true;
        let svg = load_curve_chart(&c).unwrap();
        assert!(svg.contains("stroke=\"#4A5563\" stroke-width=\"1\" points=\"64,151 "));
        assert!(!svg.contains("stroke=\"#B42318\""), "no red target line");
    }

    #[test]
    fn values_far_above_the_target_switch_to_a_log_axis_that_keeps_the_target_in_view() {
        let mut c = chart();
        c.series[0].points = vec![(16.0, 120.0), (128.0, 900.0), (768.0, 40_000.0)];
        c.series.truncate(1);
        c.thresholds[0].value = 600.0;
        let axis = YAxis::for_chart(&c);
        assert_eq!(
            axis,
            YAxis::Log {
                low: 100.0,
                high: 100_000.0
            }
        );
        // The target sits well inside the plot, not pressed to its floor.
        let target = axis.fraction(600.0);
        assert!((0.2..0.4).contains(&target), "{target}");
        let svg = load_curve_chart(&c).unwrap();
        assert!(svg.contains("TTFT p95 vs concurrency (ms, log scale)"));
        assert!(svg.contains("logarithmic"), "the footnote says so");
        assert!(svg.contains("\n50,000\n</text>") || svg.contains("\n50000\n</text>"));
        // Near the target, a linear axis stays.
        c.series[0].points = vec![(16.0, 120.0), (128.0, 900.0)];
        assert!(matches!(YAxis::for_chart(&c), YAxis::Linear { .. }));
    }

    #[test]
    fn a_german_chart_words_its_own_additions_in_german_with_german_numbers() {
        let mut c = chart();
        c.series[0].points = vec![(16.0, 120.0), (128.0, 900.0), (768.0, 40_000.0)];
        c.series.truncate(1);
        c.thresholds[0].value = 600.0;
        c.lang = Lang::De;
        let svg = load_curve_chart(&c).unwrap();
        assert!(svg.contains("(ms, logarithmisch)"), "the title's scale");
        assert!(svg.contains("y-Achse"), "the footnote");
        assert!(
            svg.contains("\n50.000\n</text>"),
            "a German thousands separator"
        );
        assert!(!svg.contains("log scale") && !svg.contains("The y axis"));
    }

    #[test]
    fn empty_and_single_point_charts_still_draw() {
        let mut c = chart();
        c.series.clear();
        c.thresholds.clear();
        assert!(load_curve_chart(&c).unwrap().contains("<svg"));
        c.series.push(CurveSeries {
            name: "one".into(),
            points: vec![(4.0, 10.0)],
            dashed: false,
            colour: 2,
        });
        assert!(load_curve_chart(&c).unwrap().contains("one"));
    }
}
