//! Single-stream decode ceilings as horizontal bars against a per-stream target.
//!
//! Each bar is one configuration (usually one GPU of the catalog with the chosen model and
//! precision); the dashed line is the target (e.g. TPOT ≤ 40 ms = 25 tok/s). Bars short of the
//! line are drawn red: that configuration fails on speed before any load.

use super::{ChartError, chart_error, palette};
use crate::locale::Lang;
use plotters::prelude::*;
use plotters::style::ShapeStyle;

/// One bar.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeBar {
    pub label: String,
    pub tokens_per_s: f64,
    /// Drawn in the highlight colour (the configuration being looked at).
    pub highlighted: bool,
}

const WIDTH: u32 = 640;
const LABEL_WIDTH: i32 = 230;
const ROW: i32 = 22;
const TOP: i32 = 30;
const RIGHT: i32 = 64;

/// The chart as an SVG document; `target_tokens_per_s` draws the target line when given.
pub fn decode_ceiling_chart(
    bars: &[DecodeBar],
    target_tokens_per_s: Option<f64>,
) -> Result<String, ChartError> {
    decode_ceiling_chart_in(bars, target_tokens_per_s, Lang::En)
}

/// [`decode_ceiling_chart`] with its words and decimal points in `lang` (`22,6`, `Ziel …`);
/// the bars' labels as given.
pub fn decode_ceiling_chart_in(
    bars: &[DecodeBar],
    target_tokens_per_s: Option<f64>,
    lang: Lang,
) -> Result<String, ChartError> {
    let one_decimal = |value: f64| lang.separators(&format!("{value:.1}"));
    let height = (TOP + ROW * bars.len().max(1) as i32 + 30) as u32;
    let max = bars
        .iter()
        .map(|b| b.tokens_per_s)
        .chain(target_tokens_per_s)
        .fold(1.0_f64, f64::max)
        * 1.08;
    let plot_width = (WIDTH as i32 - LABEL_WIDTH - RIGHT) as f64;
    let x_of =
        |value: f64| LABEL_WIDTH + (plot_width * (value / max).clamp(0.0, 1.0)).round() as i32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let caption = TextStyle::from(("sans-serif", 13).into_font()).color(&palette::INK);
        root.draw(&Text::new(
            lang.pick(
                "Single-stream decode ceiling, tokens/s (upper bound)",
                "Decode-Obergrenze eines Streams, Token/s (obere Schranke)",
            ),
            (8, 8),
            caption,
        ))
        .map_err(chart_error)?;
        let label_style = TextStyle::from(("sans-serif", 12).into_font()).color(&palette::INK_SOFT);
        let value_style = TextStyle::from(("sans-serif", 12).into_font()).color(&palette::INK);
        for (i, bar) in bars.iter().enumerate() {
            let y = TOP + ROW * i as i32;
            let colour = match target_tokens_per_s {
                Some(target) if bar.tokens_per_s < target => palette::FAIL,
                _ if bar.highlighted => palette::HIGHLIGHT,
                Some(_) => palette::PASS,
                None => palette::MUTED_BAR,
            };
            let style: ShapeStyle = if bar.highlighted || target_tokens_per_s.is_some() {
                colour.filled()
            } else {
                colour.mix(0.8).filled()
            };
            let label: String = bar.label.chars().take(34).collect();
            root.draw(&Text::new(label, (8, y + 4), label_style.clone()))
                .map_err(chart_error)?;
            root.draw(&Rectangle::new(
                [(LABEL_WIDTH, y + 3), (x_of(bar.tokens_per_s), y + ROW - 5)],
                style,
            ))
            .map_err(chart_error)?;
            if bar.highlighted {
                root.draw(&Rectangle::new(
                    [
                        (LABEL_WIDTH - 1, y + 2),
                        (x_of(bar.tokens_per_s) + 1, y + ROW - 4),
                    ],
                    palette::INK.stroke_width(1),
                ))
                .map_err(chart_error)?;
            }
            root.draw(&Text::new(
                one_decimal(bar.tokens_per_s),
                (x_of(bar.tokens_per_s) + 5, y + 4),
                value_style.clone(),
            ))
            .map_err(chart_error)?;
        }
        let bottom = TOP + ROW * bars.len().max(1) as i32;
        root.draw(&PathElement::new(
            vec![(LABEL_WIDTH, TOP - 2), (LABEL_WIDTH, bottom)],
            palette::LINE.stroke_width(1),
        ))
        .map_err(chart_error)?;
        if let Some(target) = target_tokens_per_s {
            let x = x_of(target);
            let mut y = TOP - 4;
            while y < bottom + 2 {
                root.draw(&PathElement::new(
                    vec![(x, y), (x, (y + 5).min(bottom + 2))],
                    palette::INK.stroke_width(2),
                ))
                .map_err(chart_error)?;
                y += 9;
            }
            root.draw(&Text::new(
                format!(
                    "{} {} tok/s (TPOT {:.0} ms)",
                    lang.pick("target", "Ziel"),
                    one_decimal(target),
                    1000.0 / target
                ),
                (x.min(WIDTH as i32 - 220), bottom + 8),
                value_style,
            ))
            .map_err(chart_error)?;
        }
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(label: &str, tokens_per_s: f64, highlighted: bool) -> DecodeBar {
        DecodeBar {
            label: label.into(),
            tokens_per_s,
            highlighted,
        }
    }

    #[test]
    fn bars_below_the_target_are_red_and_values_are_printed() {
        let svg = decode_ceiling_chart(
            &[
                bar("DGX Spark", 3.9, false),
                bar("RTX PRO 6000 Server", 22.6, true),
                bar("H200 NVL", 68.0, false),
            ],
            Some(25.0),
        )
        .unwrap();
        for text in ["3.9", "22.6", "68.0", "target 25.0 tok/s (TPOT 40 ms)"] {
            assert!(svg.contains(text), "{text} missing");
        }
        assert_eq!(
            svg.matches("#B42318").count() + svg.matches("#b42318").count(),
            2,
            "two bars fail the target"
        );
    }

    #[test]
    fn the_german_chart_has_german_words_and_decimal_commas() {
        let bars = [
            bar("RTX PRO 6000 Server", 22.6, true),
            bar("H200 NVL", 68.0, false),
        ];
        let svg = decode_ceiling_chart_in(&bars, Some(25.0), Lang::De).unwrap();
        for text in [
            "Decode-Obergrenze eines Streams, Token/s (obere Schranke)",
            "22,6",
            "68,0",
            "Ziel 25,0 tok/s (TPOT 40 ms)",
            "RTX PRO 6000 Server",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        for english in [
            "Single-stream",
            "upper bound",
            "target",
            "22.6",
            "68.0",
            "25.0",
        ] {
            assert!(!svg.contains(english), "{english} left in German");
        }
        assert_eq!(
            decode_ceiling_chart_in(&bars, Some(25.0), Lang::En).unwrap(),
            decode_ceiling_chart(&bars, Some(25.0)).unwrap()
        );
    }

    #[test]
    fn no_bars_still_draws_a_chart() {
        assert!(decode_ceiling_chart(&[], None).unwrap().contains("<svg"));
    }
}
