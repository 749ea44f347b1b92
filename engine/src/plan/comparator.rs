//! How a figure is held against a threshold: ≤, <, ≥ or >.
//!
//! Equality is decided at one part in a billion, so a figure that is the threshold up to the
//! rounding of a unit conversion (0.2 s against 200 ms) counts as equal: it passes `≤` and `≥`
//! and fails `<` and `>`. A conversion can never tip a boundary either way.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A comparator. Serde names: `le` (≤), `lt` (<), `ge` (≥), `gt` (>).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparator {
    Le,
    Lt,
    Ge,
    Gt,
}

/// Relative tolerance under which two numbers are the same number.
pub const EQUALITY_TOLERANCE: f64 = 1e-9;

/// Whether `a` and `b` are equal up to [`EQUALITY_TOLERANCE`] (relative).
pub fn nearly_equal(a: f64, b: f64) -> bool {
    (a - b).abs() <= EQUALITY_TOLERANCE * a.abs().max(b.abs())
}

impl Comparator {
    /// All comparators, in the order forms list them.
    pub const ALL: [Comparator; 4] = [
        Comparator::Le,
        Comparator::Lt,
        Comparator::Ge,
        Comparator::Gt,
    ];

    /// The serde and form name.
    pub fn as_str(self) -> &'static str {
        match self {
            Comparator::Le => "le",
            Comparator::Lt => "lt",
            Comparator::Ge => "ge",
            Comparator::Gt => "gt",
        }
    }

    /// `≤`, `<`, `≥`, `>`.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparator::Le => "≤",
            Comparator::Lt => "<",
            Comparator::Ge => "≥",
            Comparator::Gt => ">",
        }
    }

    /// `at most`, `under`, `at least`, `more than`.
    pub fn words(self) -> &'static str {
        match self {
            Comparator::Le => "at most",
            Comparator::Lt => "under",
            Comparator::Ge => "at least",
            Comparator::Gt => "more than",
        }
    }

    /// Whether the mark is an upper limit (≤, <).
    pub fn is_upper_limit(self) -> bool {
        matches!(self, Comparator::Le | Comparator::Lt)
    }

    /// Whether the threshold itself passes (≤, ≥).
    pub fn is_inclusive(self) -> bool {
        matches!(self, Comparator::Le | Comparator::Ge)
    }

    /// Whether `value` meets `threshold` under this comparator (see the module notes on equality).
    pub fn admits(self, value: f64, threshold: f64) -> bool {
        let equal = nearly_equal(value, threshold);
        match self {
            Comparator::Le => equal || value < threshold,
            Comparator::Lt => !equal && value < threshold,
            Comparator::Ge => equal || value > threshold,
            Comparator::Gt => !equal && value > threshold,
        }
    }

    /// Parses a serde name or a symbol (`≤`, `<=`, `<`, …).
    pub fn parse(text: &str) -> Option<Comparator> {
        let comparator = match text.trim().to_ascii_lowercase().as_str() {
            "le" | "≤" | "<=" => Comparator::Le,
            "lt" | "<" => Comparator::Lt,
            "ge" | "≥" | ">=" => Comparator::Ge,
            "gt" | ">" => Comparator::Gt,
            _ => return None,
        };
        Some(comparator)
    }
}

impl fmt::Display for Comparator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_pass_only_inclusive_comparators() {
        assert!(Comparator::Le.admits(500.0, 500.0));
        assert!(!Comparator::Lt.admits(500.0, 500.0));
        assert!(Comparator::Ge.admits(6.0, 6.0));
        assert!(!Comparator::Gt.admits(6.0, 6.0));
    }

    #[test]
    fn each_comparator_on_both_sides_of_the_threshold() {
        assert!(Comparator::Le.admits(499.0, 500.0) && !Comparator::Le.admits(501.0, 500.0));
        assert!(Comparator::Lt.admits(499.0, 500.0) && !Comparator::Lt.admits(501.0, 500.0));
        assert!(Comparator::Ge.admits(7.0, 6.0) && !Comparator::Ge.admits(5.0, 6.0));
        assert!(Comparator::Gt.admits(7.0, 6.0) && !Comparator::Gt.admits(5.0, 6.0));
    }

    #[test]
    fn conversion_rounding_does_not_tip_a_boundary() {
        let converted = 0.1 * 3.0 * 1000.0; // 300.00000000000006
        assert_ne!(converted, 300.0);
        assert!(Comparator::Le.admits(converted, 300.0));
        assert!(!Comparator::Lt.admits(converted, 300.0));
        assert!(Comparator::Le.admits(0.0, 0.0));
    }

    #[test]
    fn names_and_symbols_parse() {
        for comparator in Comparator::ALL {
            assert_eq!(Comparator::parse(comparator.as_str()), Some(comparator));
            assert_eq!(Comparator::parse(comparator.symbol()), Some(comparator));
            assert_eq!(
                serde_json::to_string(&comparator).unwrap(),
                format!("\"{}\"", comparator.as_str())
            );
        }
        assert_eq!(Comparator::parse("<="), Some(Comparator::Le));
        assert_eq!(Comparator::parse("=="), None);
    }
}
