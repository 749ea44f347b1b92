//! Units of thresholds and figures, exact conversions between them, and how numbers are written.
//!
//! Only exact conversions exist: milliseconds ↔ seconds (× 1000). Tokens/s converts only to
//! itself; in particular there is no conversion between TPOT in ms and tokens/s per user, because
//! 1000 ÷ (mean TPOT) is not the mean speed, and a percentile of one is not the same percentile of
//! the other.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The unit of a threshold or a figure.
///
/// Serde names: `ms`, `s`, `tokens_per_s`, `req_per_s`, `percent`, `score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Ms,
    S,
    TokensPerS,
    ReqPerS,
    Percent,
    /// A score on the evaluation's own scale (e.g. 1–5 or 0–1).
    Score,
}

/// What a unit measures; units of one dimension convert into each other exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dimension {
    Time,
    TokenRate,
    RequestRate,
    Share,
    Score,
}

impl Unit {
    /// All units, in the order forms list them.
    pub const ALL: [Unit; 6] = [
        Unit::Ms,
        Unit::S,
        Unit::TokensPerS,
        Unit::ReqPerS,
        Unit::Percent,
        Unit::Score,
    ];

    /// The serde and form name.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::TokensPerS => "tokens_per_s",
            Unit::ReqPerS => "req_per_s",
            Unit::Percent => "percent",
            Unit::Score => "score",
        }
    }

    /// The symbol written after a number: `ms`, `s`, `tokens/s`, `req/s`, `%`, `score`.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::TokensPerS => "tokens/s",
            Unit::ReqPerS => "req/s",
            Unit::Percent => "%",
            Unit::Score => "score",
        }
    }

    /// What the unit measures.
    pub fn dimension(self) -> Dimension {
        match self {
            Unit::Ms | Unit::S => Dimension::Time,
            Unit::TokensPerS => Dimension::TokenRate,
            Unit::ReqPerS => Dimension::RequestRate,
            Unit::Percent => Dimension::Share,
            Unit::Score => Dimension::Score,
        }
    }

    /// Parses a serde name or a symbol (`tokens/s`, `tok/s`, `%`, `sec`, …).
    pub fn parse(text: &str) -> Option<Unit> {
        let text = text.trim().to_ascii_lowercase();
        let unit = match text.as_str() {
            "ms" | "millisecond" | "milliseconds" => Unit::Ms,
            "s" | "sec" | "second" | "seconds" => Unit::S,
            "tokens_per_s" | "tokens/s" | "tok/s" | "tokens/sec" | "tokens per second" => {
                Unit::TokensPerS
            }
            "req_per_s" | "req/s" | "requests/s" | "requests per second" => Unit::ReqPerS,
            "percent" | "%" | "pct" => Unit::Percent,
            "score" | "points" => Unit::Score,
            _ => return None,
        };
        Some(unit)
    }

    /// `value` in `self` converted to `to`, when an exact conversion exists.
    pub fn convert(self, value: f64, to: Unit) -> Option<f64> {
        match (self, to) {
            (from, to) if from == to => Some(value),
            (Unit::S, Unit::Ms) => Some(value * 1000.0),
            (Unit::Ms, Unit::S) => Some(value / 1000.0),
            _ => None,
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// A number for people: at most three decimals, trailing zeros dropped, thousands grouped with
/// commas (`1,597`, `0.45`, `22.6`).
pub fn format_number(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value != 0.0 && value.abs() < 0.001 {
        return format!("{value:e}");
    }
    let text = format!("{:.3}", value.abs());
    let text = text.trim_end_matches('0').trim_end_matches('.');
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if value < 0.0 && text != "0" { "-" } else { "" };
    match fraction {
        Some(fraction) => format!("{sign}{grouped}.{fraction}"),
        None => format!("{sign}{grouped}"),
    }
}

/// [`format_number`] with `lang`'s separators: `1,500.5` / `1.500,5`.
pub fn format_number_in(value: f64, lang: crate::locale::Lang) -> String {
    lang.separators(&format_number(value))
}

/// A number with its unit: `500 ms`, `1 %`, `25 tokens/s`; a score is written bare (`4.2`).
pub fn format_quantity(value: f64, unit: Unit) -> String {
    match unit {
        Unit::Score => format_number(value),
        unit => format!("{} {}", format_number(value), unit.symbol()),
    }
}

/// A value together with its unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quantity {
    pub value: f64,
    pub unit: Unit,
}

impl Quantity {
    /// The quantity for a reader of `lang`: `380.533 ms` / `380,533 ms`, `25 Token/s`.
    pub fn text_in(&self, lang: crate::locale::Lang) -> String {
        let number = format_number_in(self.value, lang);
        match (self.unit, lang) {
            (Unit::Score, _) => number,
            (Unit::TokensPerS, crate::locale::Lang::De) => format!("{number} Token/s"),
            (unit, _) => format!("{number} {}", unit.symbol()),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_quantity(self.value, self.unit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_milliseconds_convert_exactly_and_nothing_else_does() {
        assert_eq!(Unit::S.convert(2.0, Unit::Ms), Some(2000.0));
        assert_eq!(Unit::Ms.convert(450.0, Unit::S), Some(0.45));
        assert_eq!(Unit::TokensPerS.convert(25.0, Unit::TokensPerS), Some(25.0));
        assert_eq!(Unit::TokensPerS.convert(25.0, Unit::Ms), None);
        assert_eq!(Unit::Percent.convert(1.0, Unit::Score), None);
    }

    #[test]
    fn names_and_symbols_parse() {
        for unit in Unit::ALL {
            assert_eq!(Unit::parse(unit.as_str()), Some(unit));
            assert_eq!(Unit::parse(unit.symbol()), Some(unit));
            assert_eq!(
                serde_json::to_string(&unit).unwrap(),
                format!("\"{}\"", unit.as_str())
            );
        }
        assert_eq!(Unit::parse("tok/s"), Some(Unit::TokensPerS));
        assert_eq!(Unit::parse("furlongs"), None);
    }

    #[test]
    fn numbers_are_written_for_people() {
        assert_eq!(format_number(500.0), "500");
        assert_eq!(format_number(0.45), "0.45");
        assert_eq!(format_number(1597.0), "1,597");
        assert_eq!(format_number(1234567.5), "1,234,567.5");
        assert_eq!(format_number(22.6), "22.6");
        assert_eq!(format_number(-120.0), "-120");
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_quantity(1.0, Unit::Percent), "1 %");
        assert_eq!(format_quantity(25.0, Unit::TokensPerS), "25 tokens/s");
        assert_eq!(format_quantity(4.2, Unit::Score), "4.2");
    }
}
