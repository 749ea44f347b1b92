//! What the p50/p95/p99 spread says, read as the V100 benchmark report reads it:
//!
//! * **idle** — p50 ≈ p99, low: no queue, the work is deterministic ("a 26 ms spread between the
//!   typical user and the worst one in a hundred is the signature of an idle engine").
//! * **queueing** — the gap between p50 and p99 widens (or the median itself climbs): some
//!   requests wait behind others. A capacity warning.
//! * **saturated** — p95 and p99 converge at a high value: every request waits in the same queue,
//!   so the unlucky ones stop being distinguishable. A capacity limit.
//!
//! Rules, relative to the series' lowest-concurrency point (the baseline): saturated when the
//! median has at least doubled and p99 − p95 is at most 10 % of p99 − p50 (or 2 % of p99);
//! queueing when p99 − p50 exceeds 1.5 × the baseline's, or the median has grown by half; idle
//! otherwise. The baseline itself is idle unless its own spread exceeds half its median.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpreadState {
    Idle,
    Queueing,
    Saturated,
}

impl SpreadState {
    pub fn label(self) -> &'static str {
        match self {
            SpreadState::Idle => "idle",
            SpreadState::Queueing => "queueing",
            SpreadState::Saturated => "saturated",
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            SpreadState::Idle => "p50 ≈ p99 and low: no queue, the work is deterministic",
            SpreadState::Queueing => {
                "the p50–p99 gap widens: some requests wait behind others (a capacity warning)"
            }
            SpreadState::Saturated => {
                "p95 and p99 converge high: every request waits in the same queue (a capacity limit)"
            }
        }
    }
}

/// `series`: (p50, p95, p99) in ascending concurrency. One state per entry.
pub fn classify_spread(series: &[(f64, f64, f64)]) -> Vec<SpreadState> {
    let Some(&(b50, _, b99)) = series.first() else {
        return Vec::new();
    };
    let base_gap = (b99 - b50).max(0.0);
    series
        .iter()
        .enumerate()
        .map(|(i, &(p50, p95, p99))| {
            let gap = (p99 - p50).max(0.0);
            if i == 0 {
                return if b50 > 0.0 && gap > 0.5 * b50 {
                    SpreadState::Queueing
                } else {
                    SpreadState::Idle
                };
            }
            let tail = (p99 - p95).abs();
            if p50 >= 2.0 * b50 && (tail <= 0.1 * gap || tail <= 0.02 * p99) {
                SpreadState::Saturated
            } else if gap > 1.5 * base_gap.max(f64::EPSILON) || p50 >= 1.5 * b50 {
                SpreadState::Queueing
            } else {
                SpreadState::Idle
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_reports_long_prompt_ttft_reads_idle_queueing_saturated() {
        // TTFT p50/p95/p99 of the long-prompt bucket: C=1 95/116/121, C=4 240/281/309,
        // C=8 507/572/572 (the report's numbers).
        let states = classify_spread(&[
            (95.0, 116.0, 121.0),
            (240.0, 281.0, 309.0),
            (507.0, 572.0, 572.0),
        ]);
        assert_eq!(
            states,
            vec![
                SpreadState::Idle,
                SpreadState::Queueing,
                SpreadState::Saturated
            ]
        );
    }

    #[test]
    fn a_flat_series_stays_idle() {
        let states = classify_spread(&[(26.0, 27.0, 27.5), (26.5, 27.5, 28.0)]);
        assert_eq!(states, vec![SpreadState::Idle, SpreadState::Idle]);
        assert!(classify_spread(&[]).is_empty());
    }
}
