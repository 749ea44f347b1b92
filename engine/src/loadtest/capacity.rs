//! Capacity: the highest concurrency at which every latency target holds, per scenario.

use serde::{Deserialize, Serialize};

/// The capacity of one scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capacity {
    pub scenario: String,
    /// Highest tested concurrency at which every target held; `None` when none did (or no
    /// target applies).
    pub concurrency: Option<f64>,
    /// The highest concurrency tested.
    pub tested_up_to: Option<f64>,
    /// The lowest tested concurrency at which a target failed, if any.
    pub first_failure: Option<f64>,
    /// One sentence for pages.
    pub reading: String,
    /// Completed requests per second at the capacity point (the run's measured throughput),
    /// when the caller knows it: capacity in the unit a rate-driven plan thinks in.
    #[serde(default)]
    pub requests_per_s: Option<f64>,
}

/// A concurrency as the reading says it: whole numbers as they are, a mean in flight (Little's
/// law gives 31.298…) to one decimal.
fn fmt(c: f64) -> String {
    if c.fract() == 0.0 {
        format!("{c:.0}")
    } else {
        format!("{c:.1}")
    }
}

/// `points`: (scenario, concurrency, every target held?) for every point with a concurrency.
/// Scenarios come out in first-seen order.
pub fn capacity_by_scenario(points: &[(String, f64, Option<bool>)]) -> Vec<Capacity> {
    let mut scenarios: Vec<&str> = Vec::new();
    for (s, _, _) in points {
        if !scenarios.contains(&s.as_str()) {
            scenarios.push(s);
        }
    }
    scenarios
        .into_iter()
        .map(|scenario| {
            let mine: Vec<(f64, Option<bool>)> = points
                .iter()
                .filter(|(s, _, _)| s == scenario)
                .map(|(_, c, ok)| (*c, *ok))
                .collect();
            let tested_up_to = mine.iter().map(|(c, _)| *c).max_by(f64::total_cmp);
            let concurrency = mine
                .iter()
                .filter(|(_, ok)| *ok == Some(true))
                .map(|(c, _)| *c)
                .max_by(f64::total_cmp);
            let first_failure = mine
                .iter()
                .filter(|(_, ok)| *ok == Some(false))
                .map(|(c, _)| *c)
                .min_by(f64::total_cmp);
            let graded = mine.iter().any(|(_, ok)| ok.is_some());
            let reading = match (graded, concurrency, first_failure, tested_up_to) {
                (false, _, _, _) => "not graded: no target of the plan applies, or the statistics are missing".to_string(),
                (true, None, Some(f), _) => format!("targets missed already at concurrency {}", fmt(f)),
                (true, Some(c), None, Some(top)) if c >= top => format!(
                    "every target holds up to the highest concurrency tested ({}); the limit lies beyond",
                    fmt(c)
                ),
                (true, Some(c), Some(f), _) => format!(
                    "every target holds up to concurrency {}; missed at {}",
                    fmt(c),
                    fmt(f)
                ),
                (true, Some(c), None, _) => format!("every target holds up to concurrency {}", fmt(c)),
                (true, None, None, _) => "not graded: statistics missing".to_string(),
            };
            Capacity {
                scenario: scenario.to_string(),
                concurrency,
                tested_up_to,
                first_failure,
                reading,
                requests_per_s: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_the_highest_concurrency_where_every_target_holds() {
        let s = |name: &str, c: f64, ok: Option<bool>| (name.to_string(), c, ok);
        let caps = capacity_by_scenario(&[
            s("long", 1.0, Some(true)),
            s("long", 2.0, Some(true)),
            s("long", 4.0, Some(true)),
            s("long", 8.0, Some(false)),
            s("short", 1.0, Some(true)),
            s("short", 8.0, Some(true)),
            s("none", 1.0, None),
        ]);
        assert_eq!(caps[0].concurrency, Some(4.0));
        assert_eq!(caps[0].first_failure, Some(8.0));
        assert_eq!(
            caps[0].reading,
            "every target holds up to concurrency 4; missed at 8"
        );
        assert_eq!(caps[1].concurrency, Some(8.0));
        assert!(caps[1].reading.contains("beyond"));
        assert_eq!(caps[2].concurrency, None);
        assert!(caps[2].reading.starts_with("not graded"));
    }
}
