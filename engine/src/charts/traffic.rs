//! Charts of a pilot's real traffic (the demand profile of its gateway logs): arrivals per
//! minute with the busiest hour shaded, requests in flight over time with the peak marked, and
//! token-length histograms with the median and 95th percentile marked. Times are UTC.

use super::{ChartError, chart_error, palette};
use crate::demand::ArrivalSeries;
use crate::locale::Lang;
use crate::stats::{HistogramBin, InFlightCurve};
use crate::traffic::timestamp::format_rfc3339_ms;
use plotters::coord::Shift;
use plotters::prelude::*;

const WIDTH: u32 = 760;
const HEIGHT: u32 = 250;
const LEFT: i32 = 52;
const RIGHT: i32 = 18;
const TOP: i32 = 34;
const BOTTOM: i32 = 40;

/// Light fill of the busiest hour.
const SHADE: RGBColor = RGBColor(0xfd, 0xe9, 0xc4);
const SHADE_EDGE: RGBColor = RGBColor(0xd9, 0x8a, 0x1c);
const SERIES: RGBColor = palette::WEIGHTS;
const SERIES_FILL: RGBColor = RGBColor(0xc9, 0xdc, 0xeb);

/// A round step giving about `ticks` steps up to `max` (1, 2 or 5 × 10ⁿ).
fn nice_step(max: f64, ticks: f64) -> f64 {
    let raw = (max / ticks).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    (nice * magnitude).max(1.0)
}

fn fmt_tick(value: f64) -> String {
    if value >= 10_000.0 {
        format!("{:.0}k", value / 1000.0)
    } else {
        format!("{value:.0}")
    }
}

struct Frame {
    x0: i32,
    x1: i32,
    y0: i32,
    y1: i32,
    y_max: f64,
}

impl Frame {
    fn new(y_max: f64) -> Frame {
        Frame {
            x0: LEFT,
            x1: WIDTH as i32 - RIGHT,
            y0: TOP,
            y1: HEIGHT as i32 - BOTTOM,
            y_max: y_max.max(1.0),
        }
    }

    fn width(&self) -> f64 {
        f64::from(self.x1 - self.x0)
    }

    fn y(&self, value: f64) -> i32 {
        let share = (value / self.y_max).clamp(0.0, 1.0);
        self.y1 - (share * f64::from(self.y1 - self.y0)).round() as i32
    }

    fn x(&self, share: f64) -> i32 {
        self.x0 + (share.clamp(0.0, 1.0) * self.width()).round() as i32
    }
}

fn text_style(size: u32, colour: &RGBColor) -> TextStyle<'static> {
    let mut style = TextStyle::from(("sans-serif", size).into_font());
    style.color = colour.to_backend_color();
    style
}

/// Title, y grid with labels, and the axis label.
fn draw_axes(
    root: &DrawingArea<SVGBackend, Shift>,
    frame: &Frame,
    title: &str,
    y_label: &str,
    step: f64,
) -> Result<(), ChartError> {
    root.draw(&Text::new(
        title.to_string(),
        (LEFT, 8),
        text_style(13, &palette::INK),
    ))
    .map_err(chart_error)?;
    root.draw(&Text::new(
        y_label.to_string(),
        (frame.x1 - 7 * y_label.chars().count() as i32, 10),
        text_style(11, &palette::INK_SOFT),
    ))
    .map_err(chart_error)?;
    let mut value = 0.0;
    while value <= frame.y_max + 1e-9 {
        let y = frame.y(value);
        root.draw(&PathElement::new(
            vec![(frame.x0, y), (frame.x1, y)],
            palette::LINE.stroke_width(1),
        ))
        .map_err(chart_error)?;
        let label = fmt_tick(value);
        root.draw(&Text::new(
            label.clone(),
            (frame.x0 - 8 - 7 * label.chars().count() as i32, y - 6),
            text_style(11, &palette::INK_SOFT),
        ))
        .map_err(chart_error)?;
        value += step;
    }
    Ok(())
}

/// Labels along a time axis from `start_ms` to `end_ms`: days when the span is over two days,
/// else hours.
fn draw_time_axis(
    root: &DrawingArea<SVGBackend, Shift>,
    frame: &Frame,
    start_ms: i64,
    end_ms: i64,
) -> Result<(), ChartError> {
    let span = (end_ms - start_ms).max(1);
    const HOUR: i64 = 3_600_000;
    const DAY: i64 = 24 * HOUR;
    let (step, day_labels) = if span > 2 * DAY {
        (DAY, true)
    } else if span > 12 * HOUR {
        (3 * HOUR, false)
    } else if span > 3 * HOUR {
        (HOUR, false)
    } else {
        (HOUR / 4, false)
    };
    let mut tick = (start_ms.div_euclid(step) + 1) * step;
    if start_ms.rem_euclid(step) == 0 {
        tick = start_ms;
    }
    let style = text_style(11, &palette::INK_SOFT);
    while tick <= end_ms {
        let x = frame.x((tick - start_ms) as f64 / span as f64);
        root.draw(&PathElement::new(
            vec![(x, frame.y1), (x, frame.y1 + 4)],
            palette::INK_SOFT.stroke_width(1),
        ))
        .map_err(chart_error)?;
        let stamp = format_rfc3339_ms(tick);
        let label = if day_labels {
            stamp[5..10].to_string()
        } else {
            stamp[11..16].to_string()
        };
        root.draw(&Text::new(label, (x - 16, frame.y1 + 8), style.clone()))
            .map_err(chart_error)?;
        tick += step;
    }
    root.draw(&Text::new(
        "UTC".to_string(),
        (frame.x1 - 22, frame.y1 + 24),
        style,
    ))
    .map_err(chart_error)?;
    root.draw(&PathElement::new(
        vec![(frame.x0, frame.y1), (frame.x1, frame.y1)],
        palette::INK_SOFT.stroke_width(1),
    ))
    .map_err(chart_error)?;
    Ok(())
}

/// Reduces `values` to at most `columns` columns, each the highest value it covers.
fn column_max<T: Copy + Into<f64>>(values: &[T], columns: usize) -> Vec<f64> {
    if values.is_empty() {
        return Vec::new();
    }
    let columns = columns.clamp(1, values.len());
    (0..columns)
        .map(|c| {
            let from = c * values.len() / columns;
            let to = ((c + 1) * values.len() / columns).max(from + 1);
            values[from..to]
                .iter()
                .map(|&v| v.into())
                .fold(0.0, f64::max)
        })
        .collect()
}

/// A filled area under `columns` (equal widths across the frame).
fn draw_area(
    root: &DrawingArea<SVGBackend, Shift>,
    frame: &Frame,
    columns: &[f64],
) -> Result<(), ChartError> {
    if columns.is_empty() {
        return Ok(());
    }
    let n = columns.len() as f64;
    let mut outline = Vec::with_capacity(columns.len() * 2 + 2);
    for (i, &v) in columns.iter().enumerate() {
        let y = frame.y(v);
        outline.push((frame.x(i as f64 / n), y));
        outline.push((frame.x((i + 1) as f64 / n), y));
    }
    let mut polygon = outline.clone();
    polygon.push((frame.x1, frame.y1));
    polygon.push((frame.x0, frame.y1));
    root.draw(&Polygon::new(polygon, SERIES_FILL.filled()))
        .map_err(chart_error)?;
    root.draw(&PathElement::new(outline, SERIES.stroke_width(1)))
        .map_err(chart_error)?;
    Ok(())
}

/// Arrivals per step (a minute, or coarser for a long, sparse log: the series says) over the
/// log, the busiest hour (`busiest_start_ms`, 60 minutes) shaded. Where a pixel covers several
/// steps it shows the highest of them.
pub fn arrivals_chart(
    series: &ArrivalSeries,
    busiest_start_ms: i64,
    lang: Lang,
) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let start = series.start_ms;
        let step_ms = series.step_ms.max(1);
        let end = start + step_ms * series.counts.len().max(1) as i64;
        let peak = series.counts.iter().copied().max().unwrap_or(0);
        let step = nice_step(f64::from(peak), 4.0);
        let frame = Frame::new((f64::from(peak) / step).ceil().max(1.0) * step);
        let span = (end - start) as f64;
        let bx0 = frame.x((busiest_start_ms - start) as f64 / span);
        let bx1 = frame.x((busiest_start_ms + 3_600_000 - start) as f64 / span);
        root.draw(&Rectangle::new(
            [(bx0, frame.y0), (bx1.max(bx0 + 2), frame.y1)],
            SHADE.filled(),
        ))
        .map_err(chart_error)?;
        let per = step_words(step_ms);
        // The title says a whole minute in words, as the report's caption above it does.
        let step_name = match step_ms {
            60_000 => lang.pick("minute", "Minute").to_string(),
            _ => per.clone(),
        };
        draw_axes(
            &root,
            &frame,
            &match lang {
                Lang::En => format!("Arrivals per {step_name} (busiest hour shaded)"),
                Lang::De => format!("Ankünfte pro {step_name} (Spitzenstunde schattiert)"),
            },
            &format!("{} / {per}", lang.pick("requests", "Anfragen")),
            step,
        )?;
        let columns = column_max(&series.counts, frame.width() as usize);
        draw_area(&root, &frame, &columns)?;
        root.draw(&Rectangle::new(
            [(bx0, frame.y0), (bx1.max(bx0 + 2), frame.y1)],
            SHADE_EDGE.stroke_width(1),
        ))
        .map_err(chart_error)?;
        root.draw(&Text::new(
            format!(
                "{} {}",
                lang.pick("busiest hour from", "Spitzenstunde ab"),
                &format_rfc3339_ms(busiest_start_ms)[..16]
            ),
            (
                (bx1 + 6).min(frame.x1 - 230).max(frame.x0 + 4),
                frame.y0 + 2,
            ),
            text_style(11, &SHADE_EDGE),
        ))
        .map_err(chart_error)?;
        draw_time_axis(&root, &frame, start, end)?;
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

/// `min`, `5 min`, `3 h`, `1 d`, `2 w`: an arrival step in words.
fn step_words(step_ms: i64) -> String {
    const UNITS: [(i64, &str); 4] = [
        (604_800_000, "w"),
        (86_400_000, "d"),
        (3_600_000, "h"),
        (60_000, "min"),
    ];
    match UNITS.iter().find(|(unit, _)| step_ms % unit == 0) {
        Some((60_000, _)) if step_ms == 60_000 => "min".to_owned(),
        Some((unit, name)) => format!("{} {name}", step_ms / unit),
        None => format!("{} s", step_ms as f64 / 1000.0),
    }
}

/// Requests in flight over time (the highest count within each step of the curve), the peak
/// `peak` (first reached at `peak_at_ms`) marked.
pub fn in_flight_chart(
    curve: &InFlightCurve,
    peak: u64,
    peak_at_ms: i64,
    lang: Lang,
) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let start = curve.start_ms;
        let end = start + curve.step_ms.max(1) * curve.max.len().max(1) as i64;
        let top = peak.max(u64::from(curve.max.iter().copied().max().unwrap_or(0))) as f64;
        let step = nice_step(top, 4.0);
        let frame = Frame::new(((top + 0.5) / step).ceil().max(1.0) * step);
        draw_axes(
            &root,
            &frame,
            lang.pick(
                "Requests in flight (highest per step; peak marked)",
                "Gleichzeitige Anfragen (Höchstwert je Schritt; Spitze markiert)",
            ),
            lang.pick("requests", "Anfragen"),
            step,
        )?;
        let columns = column_max(&curve.max, frame.width() as usize);
        draw_area(&root, &frame, &columns)?;
        let span = (end - start) as f64;
        let px = frame.x((peak_at_ms - start) as f64 / span);
        let py = frame.y(peak as f64);
        root.draw(&PathElement::new(
            vec![(px, frame.y0), (px, frame.y1)],
            palette::FAIL.stroke_width(1),
        ))
        .map_err(chart_error)?;
        root.draw(&Circle::new((px, py), 4, palette::FAIL.filled()))
            .map_err(chart_error)?;
        let label = format!(
            "{} {peak} {} {}",
            lang.pick("peak", "Spitze"),
            lang.pick("at", "um"),
            format_rfc3339_ms(peak_at_ms)[..16].replace('T', " ")
        );
        let lx = if px > frame.x1 - 200 {
            px - 200
        } else {
            px + 8
        };
        root.draw(&Text::new(
            label,
            (lx, frame.y0 + 2),
            text_style(11, &palette::FAIL),
        ))
        .map_err(chart_error)?;
        draw_time_axis(&root, &frame, start, end)?;
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

/// A token-length histogram (`bins` from the profile) with the median and 95th percentile
/// marked as dashed lines.
pub fn token_histogram_chart(
    title: &str,
    bins: &[HistogramBin],
    p50: f64,
    p95: f64,
    lang: Lang,
) -> Result<String, ChartError> {
    const W: u32 = 370;
    const H: u32 = 210;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let highest = bins.iter().map(|b| b.count).max().unwrap_or(0) as f64;
        let step = nice_step(highest, 3.0);
        let frame = Frame {
            x0: 48,
            x1: W as i32 - 12,
            y0: 30,
            y1: H as i32 - 36,
            y_max: (highest / step).ceil().max(1.0) * step,
        };
        draw_axes(
            &root,
            &frame,
            title,
            lang.pick("requests", "Anfragen"),
            step,
        )?;
        let lower = bins.first().map(|b| b.lower).unwrap_or(0);
        let upper = bins.last().map(|b| b.upper).unwrap_or(1).max(lower + 1);
        let range = f64::from(upper - lower);
        let x_of = |tokens: f64| frame.x((tokens - f64::from(lower)) / range);
        for bin in bins {
            let (x0, x1) = (x_of(f64::from(bin.lower)), x_of(f64::from(bin.upper)));
            if bin.count > 0 {
                root.draw(&Rectangle::new(
                    [
                        (x0, frame.y(bin.count as f64)),
                        ((x1 - 1).max(x0 + 1), frame.y1),
                    ],
                    SERIES.filled(),
                ))
                .map_err(chart_error)?;
            }
        }
        root.draw(&PathElement::new(
            vec![(frame.x0, frame.y1), (frame.x1, frame.y1)],
            palette::INK_SOFT.stroke_width(1),
        ))
        .map_err(chart_error)?;
        let style = text_style(11, &palette::INK_SOFT);
        for (value, anchor) in [(f64::from(lower), 0), (f64::from(upper), 1)] {
            let label = fmt_tick(value);
            let x = x_of(value) - anchor * 7 * label.chars().count() as i32;
            root.draw(&Text::new(label, (x, frame.y1 + 6), style.clone()))
                .map_err(chart_error)?;
        }
        root.draw(&Text::new(
            lang.pick("tokens", "Token").to_string(),
            ((frame.x0 + frame.x1) / 2 - 20, frame.y1 + 6),
            style,
        ))
        .map_err(chart_error)?;
        for (name, value, colour) in [("p50", p50, palette::PASS), ("p95", p95, palette::FAIL)] {
            let x = x_of(value);
            let mut y = frame.y0;
            while y < frame.y1 {
                root.draw(&PathElement::new(
                    vec![(x, y), (x, (y + 4).min(frame.y1))],
                    colour.stroke_width(2),
                ))
                .map_err(chart_error)?;
                y += 7;
            }
            let label = format!("{name} {value:.0}");
            let lx = if x > frame.x1 - 70 { x - 70 } else { x + 4 };
            let ly = if name == "p50" {
                frame.y0
            } else {
                frame.y0 + 14
            };
            root.draw(&Text::new(label, (lx, ly), text_style(11, &colour)))
                .map_err(chart_error)?;
        }
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_772_409_600_000; // 2026-03-02T00:00:00Z

    #[test]
    fn arrivals_shade_the_busiest_hour_and_label_days() {
        let counts: Vec<u32> = (0..3 * 24 * 60).map(|m| (m % 97) as u32).collect();
        let series = ArrivalSeries {
            start_ms: T0,
            step_ms: 60_000,
            counts,
        };
        let svg = arrivals_chart(&series, T0 + 30 * 3_600_000, Lang::En).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("busiest hour from 2026-03-03T06:00"));
        assert!(
            svg.contains("#FDE9C4") || svg.contains("#fde9c4"),
            "shade drawn"
        );
        assert!(svg.contains("03-03"), "day labels");
        assert!(svg.contains("<polygon"));
    }

    #[test]
    fn in_flight_marks_the_peak() {
        let curve = InFlightCurve {
            start_ms: T0,
            step_ms: 60_000,
            max: vec![0, 1, 3, 7, 2, 0],
            mean: vec![0.0, 0.5, 2.0, 4.0, 1.0, 0.0],
        };
        let svg = in_flight_chart(&curve, 7, T0 + 3 * 60_000 + 12_000, Lang::En).unwrap();
        assert!(svg.contains("peak 7 at 2026-03-02 00:03"));
        assert!(svg.contains("<circle"));
        assert!(svg.contains("00:00"), "hour labels on a short log");
        let german = in_flight_chart(&curve, 7, T0 + 3 * 60_000 + 12_000, Lang::De).unwrap();
        assert!(german.contains("Spitze 7 um 2026-03-02 00:03"));
        assert!(german.contains("Gleichzeitige Anfragen") && !german.contains("requests"));
    }

    #[test]
    fn token_histograms_draw_bars_and_percentiles() {
        let bins = vec![
            HistogramBin {
                lower: 0,
                upper: 100,
                count: 4,
            },
            HistogramBin {
                lower: 100,
                upper: 200,
                count: 10,
            },
            HistogramBin {
                lower: 200,
                upper: 300,
                count: 0,
            },
        ];
        let svg = token_histogram_chart("Prompt tokens", &bins, 120.0, 260.0, Lang::En).unwrap();
        assert!(svg.contains("Prompt tokens"));
        assert!(svg.contains("p50 120") && svg.contains("p95 260"));
        assert!(svg.matches("<rect").count() >= 3);
    }

    #[test]
    fn empty_inputs_still_draw() {
        let series = ArrivalSeries {
            start_ms: T0,
            step_ms: 60_000,
            counts: vec![],
        };
        assert!(arrivals_chart(&series, T0, Lang::En).is_ok());
        assert!(token_histogram_chart("Answer tokens", &[], 0.0, 0.0, Lang::En).is_ok());
        let curve = InFlightCurve {
            start_ms: T0,
            step_ms: 1,
            max: vec![],
            mean: vec![],
        };
        assert!(in_flight_chart(&curve, 0, T0, Lang::En).is_ok());
    }

    #[test]
    fn nice_steps_are_round() {
        assert_eq!(nice_step(37.0, 4.0), 10.0);
        assert_eq!(nice_step(7.0, 4.0), 2.0);
        assert_eq!(nice_step(1800.0, 4.0), 500.0);
        assert_eq!(nice_step(0.0, 4.0), 1.0);
    }
}
