//! One card's memory as a stacked horizontal bar: weights, overhead, KV cache, free.

use super::{ChartError, chart_error, palette};
use crate::locale::Lang;
use crate::sizing::CardMemory;
use plotters::prelude::*;

const WIDTH: u32 = 640;
const HEIGHT: u32 = 118;
const LEFT: i32 = 12;
const RIGHT: i32 = 12;
const BAR_TOP: i32 = 30;
const BAR_HEIGHT: i32 = 34;

/// The stacked bar of `card` as an SVG document. `title` names the card and the memory model.
pub fn memory_bar_chart(card: &CardMemory, title: &str) -> Result<String, ChartError> {
    memory_bar_chart_in(card, title, Lang::En)
}

/// [`memory_bar_chart`] with its legend and decimal points in `lang` (`Gewichte 67,7 GiB`);
/// `title` as given.
pub fn memory_bar_chart_in(
    card: &CardMemory,
    title: &str,
    lang: Lang,
) -> Result<String, ChartError> {
    let gib = |value: f64| format!("{} GiB", lang.separators(&format!("{value:.1}")));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let caption = TextStyle::from(("sans-serif", 13).into_font()).color(&palette::INK);
        root.draw(&Text::new(
            format!("{title}: {}", gib(card.total_gib)),
            (LEFT, 8),
            caption,
        ))
        .map_err(chart_error)?;
        let usable = (WIDTH as i32 - LEFT - RIGHT) as f64;
        let total = card.total_gib.max(f64::EPSILON);
        let parts = [
            (
                lang.pick("Weights", "Gewichte"),
                card.weights_gib,
                palette::WEIGHTS,
            ),
            ("Overhead", card.overhead_gib, palette::OVERHEAD),
            (lang.pick("KV cache", "KV-Cache"), card.kv_gib, palette::KV),
            (lang.pick("Free", "Frei"), card.free_gib, palette::FREE),
        ];
        let mut x = LEFT as f64;
        for (_, gib, colour) in parts {
            let width = usable * (gib / total).clamp(0.0, 1.0);
            if width >= 0.5 {
                root.draw(&Rectangle::new(
                    [
                        (x.round() as i32, BAR_TOP),
                        ((x + width).round() as i32, BAR_TOP + BAR_HEIGHT),
                    ],
                    colour.filled(),
                ))
                .map_err(chart_error)?;
            }
            x += width;
        }
        root.draw(&Rectangle::new(
            [
                (LEFT, BAR_TOP),
                (WIDTH as i32 - RIGHT, BAR_TOP + BAR_HEIGHT),
            ],
            palette::LINE.stroke_width(1),
        ))
        .map_err(chart_error)?;
        let legend = TextStyle::from(("sans-serif", 12).into_font()).color(&palette::INK_SOFT);
        let mut lx = LEFT;
        for (label, part_gib, colour) in parts {
            root.draw(&Rectangle::new([(lx, 84), (lx + 11, 95)], colour.filled()))
                .map_err(chart_error)?;
            root.draw(&Rectangle::new(
                [(lx, 84), (lx + 11, 95)],
                palette::LINE.stroke_width(1),
            ))
            .map_err(chart_error)?;
            let text = format!("{label} {}", gib(part_gib));
            root.draw(&Text::new(text.clone(), (lx + 16, 84), legend.clone()))
                .map_err(chart_error)?;
            lx += 22 + 7 * text.chars().count() as i32;
        }
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_names_every_part_with_its_size() {
        let card = CardMemory {
            total_gib: 95.6,
            weights_gib: 67.7,
            overhead_gib: 12.56,
            kv_gib: 15.34,
            free_gib: 0.0,
        };
        let svg = memory_bar_chart(&card, "RTX PRO 6000 <Server>").unwrap();
        assert!(svg.starts_with("<svg"));
        for text in [
            "Weights 67.7 GiB",
            "KV cache 15.3 GiB",
            "Free 0.0 GiB",
            "95.6 GiB",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        assert!(svg.contains("&lt;Server&gt;"), "labels are escaped");
        assert_eq!(
            svg,
            memory_bar_chart_in(&card, "RTX PRO 6000 <Server>", Lang::En).unwrap()
        );
        assert_eq!(
            svg.matches("<rect").count(),
            1 + 3 + 1 + 8,
            "background, 3 non-empty parts, frame, legend"
        );
    }

    #[test]
    fn the_german_bar_has_german_words_and_decimal_commas() {
        let card = CardMemory {
            total_gib: 95.6,
            weights_gib: 67.7,
            overhead_gib: 12.56,
            kv_gib: 15.34,
            free_gib: 0.0,
        };
        let svg = memory_bar_chart_in(&card, "Eine RTX PRO 6000 (vLLM)", Lang::De).unwrap();
        for text in [
            "Eine RTX PRO 6000 (vLLM): 95,6 GiB",
            "Gewichte 67,7 GiB",
            "Overhead 12,6 GiB",
            "KV-Cache 15,3 GiB",
            "Frei 0,0 GiB",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        for english in ["Weights", "KV cache", "Free", "67.7", "95.6"] {
            assert!(!svg.contains(english), "{english} left in German");
        }
    }
}
