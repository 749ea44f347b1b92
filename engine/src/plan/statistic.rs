//! Which statistic of a metric's distribution a pass mark or a figure is.
//!
//! Percentiles, never means, summarise latency: p50 is the typical user, p95 the tail most users
//! occasionally hit, p99 the worst one in a hundred. `rate` is the statistic of counted shares
//! (error rate, hit rate): the figure is already one number over all requests or questions.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A statistic of a distribution. Serde names: `p50`, `p90`, `p95`, `p99`, `mean`, `max`, `rate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    P50,
    P90,
    P95,
    P99,
    Mean,
    Max,
    /// A share of all requests or questions, in %.
    Rate,
}

impl Statistic {
    /// All statistics, in the order forms list them.
    pub const ALL: [Statistic; 7] = [
        Statistic::P50,
        Statistic::P90,
        Statistic::P95,
        Statistic::P99,
        Statistic::Mean,
        Statistic::Max,
        Statistic::Rate,
    ];

    /// The serde and form name.
    pub fn as_str(self) -> &'static str {
        match self {
            Statistic::P50 => "p50",
            Statistic::P90 => "p90",
            Statistic::P95 => "p95",
            Statistic::P99 => "p99",
            Statistic::Mean => "mean",
            Statistic::Max => "max",
            Statistic::Rate => "rate",
        }
    }

    /// A label for form options.
    pub fn label(self) -> &'static str {
        match self {
            Statistic::P50 => "p50 (median)",
            Statistic::P90 => "p90",
            Statistic::P95 => "p95",
            Statistic::P99 => "p99",
            Statistic::Mean => "mean",
            Statistic::Max => "max",
            Statistic::Rate => "rate (share, %)",
        }
    }

    /// The percentile as a number (95 for p95), or `None` for mean, max and rate.
    pub fn percentile(self) -> Option<u8> {
        match self {
            Statistic::P50 => Some(50),
            Statistic::P90 => Some(90),
            Statistic::P95 => Some(95),
            Statistic::P99 => Some(99),
            Statistic::Mean | Statistic::Max | Statistic::Rate => None,
        }
    }

    /// Whether this is a percentile (p50 … p99).
    pub fn is_percentile(self) -> bool {
        self.percentile().is_some()
    }

    /// Parses a form or API name; accepts `median` for p50 and `avg`/`average` for mean.
    pub fn parse(text: &str) -> Option<Statistic> {
        let text = text.trim().to_ascii_lowercase();
        let alias = match text.as_str() {
            "median" => "p50",
            "avg" | "average" => "mean",
            "maximum" => "max",
            other => other,
        };
        Statistic::ALL.into_iter().find(|s| s.as_str() == alias)
    }
}

impl fmt::Display for Statistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases_parse() {
        for statistic in Statistic::ALL {
            assert_eq!(Statistic::parse(statistic.as_str()), Some(statistic));
            assert_eq!(
                serde_json::to_string(&statistic).unwrap(),
                format!("\"{}\"", statistic.as_str())
            );
        }
        assert_eq!(Statistic::parse(" Median "), Some(Statistic::P50));
        assert_eq!(Statistic::parse("avg"), Some(Statistic::Mean));
        assert_eq!(Statistic::parse("p42"), None);
        assert_eq!(Statistic::P95.percentile(), Some(95));
        assert!(!Statistic::Mean.is_percentile());
    }
}
