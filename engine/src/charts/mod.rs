//! Charts as SVG strings, drawn with plotters' SVG backend.
//!
//! Pure functions from numbers to markup, so the server (pages, the printed report) and the
//! browser (the sizing what-if, recomputed in wasm on every keystroke) draw the same picture. No
//! font files are involved: text is written as SVG `<text>` and the browser renders it; plotters
//! escapes every label, so user-supplied names are safe to inline.

pub mod decode_bars;
pub mod load_curves;
pub mod memory_bar;
pub mod traffic;

pub use decode_bars::{DecodeBar, decode_ceiling_chart, decode_ceiling_chart_in};
pub use load_curves::{CurveChart, CurveSeries, Threshold, load_curve_chart};
pub use memory_bar::{memory_bar_chart, memory_bar_chart_in};
pub use traffic::{arrivals_chart, in_flight_chart, token_histogram_chart};

use plotters::style::RGBColor;

/// Palette shared by the charts (matches the stylesheet's tokens).
pub(crate) mod palette {
    use super::RGBColor;
    pub const INK: RGBColor = RGBColor(0x17, 0x20, 0x2b);
    pub const INK_SOFT: RGBColor = RGBColor(0x4a, 0x55, 0x63);
    pub const LINE: RGBColor = RGBColor(0xdd, 0xe2, 0xe8);
    pub const WEIGHTS: RGBColor = RGBColor(0x1f, 0x5f, 0x8b);
    pub const OVERHEAD: RGBColor = RGBColor(0x9a, 0xa5, 0xb1);
    pub const KV: RGBColor = RGBColor(0x3b, 0xa7, 0x6a);
    pub const FREE: RGBColor = RGBColor(0xee, 0xf1, 0xf4);
    pub const PASS: RGBColor = RGBColor(0x1d, 0x7a, 0x46);
    pub const FAIL: RGBColor = RGBColor(0xb4, 0x23, 0x18);
    pub const HIGHLIGHT: RGBColor = RGBColor(0x1f, 0x5f, 0x8b);
    pub const MUTED_BAR: RGBColor = RGBColor(0xb8, 0xc4, 0xd0);
}

/// A chart could not be drawn (only possible with degenerate sizes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("chart could not be drawn: {0}")]
pub struct ChartError(pub String);

pub(crate) fn chart_error<E: std::fmt::Debug>(error: E) -> ChartError {
    ChartError(format!("{error:?}"))
}
