//! Exact requests in flight over time, from start and end times.
//!
//! A sweep walks the start and end events in time order and keeps the count of requests in
//! flight; between two consecutive event times the count is constant, so peak, time-weighted
//! means and the curve are exact, not sampled. A gauge scraped every 15 s misses a peak that
//! lasts two; the sweep does not.
//!
//! Decisions:
//! * A request occupies `[start_ms, end_ms)`: at an instant where one request ends and another
//!   starts, the ending one has already left. A request with `end_ms == start_ms` is never in
//!   flight for a measurable time and never raises the peak.
//! * Intervals arrive sorted by start (the caller sorts once and reuses the order for the busiest
//!   window); pending ends wait in a min-heap, so the sweep needs memory for the peak number of
//!   requests in flight only, besides the caller's intervals.
//! * Means are time-weighted over a stated span: the whole log (first start to last end, nights
//!   and weekends included) or a window the caller names (the busiest hour).
//! * The curve for charts is down-sampled to at most a requested number of points on a round
//!   step (1 s … 1 week); each point holds the maximum and the time-weighted mean of its step, so
//!   a short peak survives down-sampling in the `max` line.

use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One request's time in the system, in Unix milliseconds: `[start_ms, end_ms)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Interval {
    pub start_ms: i64,
    pub end_ms: i64,
}

impl Interval {
    /// Duration in milliseconds (0 when the end is not after the start).
    pub fn duration_ms(&self) -> i64 {
        (self.end_ms - self.start_ms).max(0)
    }
}

/// What the sweep should compute besides the peak and the overall mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepOptions {
    /// `[from_ms, to_ms)` over which to report a separate time-weighted mean (the busiest hour).
    pub window: Option<(i64, i64)>,
    /// Upper limit on the number of points of [`InFlightCurve`] (at least 1).
    pub curve_max_points: usize,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions {
            window: None,
            curve_max_points: 720,
        }
    }
}

/// Requests in flight over time, down-sampled for a chart: point `i` covers
/// `[start_ms + i × step_ms, start_ms + (i + 1) × step_ms)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InFlightCurve {
    pub start_ms: i64,
    pub step_ms: i64,
    /// Highest number in flight at any instant of the step.
    pub max: Vec<u32>,
    /// Time-weighted mean number in flight over the step.
    pub mean: Vec<f64>,
}

impl InFlightCurve {
    /// Time-weighted mean in flight over `[from_ms, to_ms)` from the curve's step means: exact
    /// when both ends fall on step boundaries, otherwise the partly covered steps count in
    /// proportion to their overlap (as if load were even within a step). Time outside the curve
    /// counts as idle. `None` for an empty window.
    pub fn mean_between(&self, from_ms: i64, to_ms: i64) -> Option<f64> {
        if to_ms <= from_ms || self.step_ms <= 0 {
            return None;
        }
        let mut area = 0.0;
        for (i, mean) in self.mean.iter().enumerate() {
            let step_from = self.start_ms + i as i64 * self.step_ms;
            let overlap = (step_from + self.step_ms).min(to_ms) - step_from.max(from_ms);
            if overlap > 0 {
                area += mean * overlap as f64;
            }
        }
        Some(area / (to_ms - from_ms) as f64)
    }
}

/// The result of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlight {
    /// First start and last end of all intervals.
    pub span_start_ms: i64,
    pub span_end_ms: i64,
    /// Highest number of requests in flight at once.
    pub peak: u64,
    /// First instant at which `peak` was reached.
    pub peak_at_ms: i64,
    /// Time-weighted mean in flight over `[span_start_ms, span_end_ms)`.
    pub mean: f64,
    /// Time-weighted mean in flight over the requested window, if one was given (and non-empty).
    pub window_mean: Option<f64>,
    /// Milliseconds spent at each level of in-flight requests, index = level (0 ..= peak), over
    /// the span.
    pub time_at_level_ms: Vec<i64>,
    pub curve: InFlightCurve,
}

/// Round steps for the chart curve, in milliseconds.
pub(crate) const CURVE_STEPS_MS: [i64; 20] = [
    1_000,
    2_000,
    5_000,
    10_000,
    15_000,
    30_000,
    60_000,
    120_000,
    300_000,
    600_000,
    900_000,
    1_800_000,
    3_600_000,
    7_200_000,
    10_800_000,
    21_600_000,
    43_200_000,
    86_400_000,
    172_800_000,
    604_800_000,
];

/// The round step of the curve for a span of `span_ms` in at most `max_points` points (at least
/// 1); `None` when even a week per point is too fine.
pub(crate) fn curve_step_ms(span_ms: i64, max_points: usize) -> Option<i64> {
    let max_points = max_points.max(1) as i64;
    CURVE_STEPS_MS
        .iter()
        .copied()
        .find(|step| (span_ms / step + 1) <= max_points)
}

/// Sweeps intervals (which should be sorted by start; an unsorted slice is sorted in a copy)
/// and returns peak, means and curve. `None` for no intervals.
pub fn sweep_in_flight(intervals: &[Interval], options: SweepOptions) -> Option<InFlight> {
    if !intervals.is_sorted_by_key(|i| i.start_ms) {
        let mut copy = intervals.to_vec();
        copy.sort_unstable_by_key(|i| i.start_ms);
        return sweep_in_flight(&copy, options);
    }
    let span_start_ms = intervals.first()?.start_ms;
    let span_end_ms = intervals
        .iter()
        .map(|i| i.end_ms.max(i.start_ms))
        .max()
        .unwrap_or(span_start_ms);
    let span_ms = span_end_ms - span_start_ms;
    let step_ms = curve_step_ms(span_ms, options.curve_max_points)
        .unwrap_or_else(|| (span_ms / options.curve_max_points.max(1) as i64 + 1).max(1));
    let curve_start_ms = span_start_ms.div_euclid(step_ms) * step_ms;
    let points = ((span_end_ms - curve_start_ms) / step_ms + 1) as usize;

    let mut sweeper = Sweeper {
        level: 0,
        prev_ms: span_start_ms,
        area: 0,
        window: options.window.filter(|(from, to)| to > from),
        window_area: 0,
        peak: 0,
        peak_at_ms: span_start_ms,
        time_at_level_ms: vec![0],
        curve_start_ms,
        step_ms,
        curve_max: vec![0; points],
        curve_area: vec![0; points],
    };
    let mut pending_ends: BinaryHeap<Reverse<i64>> = BinaryHeap::new();
    for interval in intervals {
        while let Some(&Reverse(end_ms)) = pending_ends.peek() {
            if end_ms > interval.start_ms {
                break;
            }
            sweeper.advance(end_ms);
            sweeper.level -= 1;
            pending_ends.pop();
        }
        sweeper.advance(interval.start_ms);
        sweeper.level += 1;
        pending_ends.push(Reverse(interval.end_ms.max(interval.start_ms)));
    }
    while let Some(Reverse(end_ms)) = pending_ends.pop() {
        sweeper.advance(end_ms);
        sweeper.level -= 1;
    }

    let mean = if span_ms > 0 {
        sweeper.area as f64 / span_ms as f64
    } else {
        0.0
    };
    let window_mean = sweeper
        .window
        .map(|(from, to)| sweeper.window_area as f64 / (to - from) as f64);
    let curve = InFlightCurve {
        start_ms: curve_start_ms,
        step_ms,
        mean: sweeper
            .curve_area
            .iter()
            .map(|&a| a as f64 / step_ms as f64)
            .collect(),
        max: sweeper.curve_max,
    };
    Some(InFlight {
        span_start_ms,
        span_end_ms,
        peak: sweeper.peak,
        peak_at_ms: sweeper.peak_at_ms,
        mean,
        window_mean,
        time_at_level_ms: sweeper.time_at_level_ms,
        curve,
    })
}

struct Sweeper {
    level: u64,
    prev_ms: i64,
    area: i128,
    window: Option<(i64, i64)>,
    window_area: i128,
    peak: u64,
    peak_at_ms: i64,
    time_at_level_ms: Vec<i64>,
    curve_start_ms: i64,
    step_ms: i64,
    curve_max: Vec<u32>,
    curve_area: Vec<i128>,
}

impl Sweeper {
    /// Closes the segment `[prev_ms, t_ms)` at the current level.
    fn advance(&mut self, t_ms: i64) {
        if t_ms <= self.prev_ms {
            return;
        }
        let (from, to, level) = (self.prev_ms, t_ms, self.level);
        self.prev_ms = t_ms;
        let level_index = level as usize;
        if level_index >= self.time_at_level_ms.len() {
            self.time_at_level_ms.resize(level_index + 1, 0);
        }
        self.time_at_level_ms[level_index] += to - from;
        if level == 0 {
            return;
        }
        let weight = i128::from(level);
        self.area += weight * i128::from(to - from);
        if let Some((w_from, w_to)) = self.window {
            let overlap = to.min(w_to) - from.max(w_from);
            if overlap > 0 {
                self.window_area += weight * i128::from(overlap);
            }
        }
        if level > self.peak {
            self.peak = level;
            self.peak_at_ms = from;
        }
        let level_u32 = u32::try_from(level).unwrap_or(u32::MAX);
        let mut i = ((from - self.curve_start_ms) / self.step_ms) as usize;
        while i < self.curve_max.len() {
            let bucket_from = self.curve_start_ms + i as i64 * self.step_ms;
            let bucket_to = bucket_from + self.step_ms;
            let overlap = to.min(bucket_to) - from.max(bucket_from);
            if overlap > 0 {
                self.curve_area[i] += weight * i128::from(overlap);
                self.curve_max[i] = self.curve_max[i].max(level_u32);
            }
            if bucket_to >= to {
                break;
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(start_ms: i64, end_ms: i64) -> Interval {
        Interval { start_ms, end_ms }
    }

    #[test]
    fn counts_overlaps_exactly() {
        // 0–10 s, 2–5 s, 4–8 s, 9–12 s (ms below).
        // In flight: [0,2) 1, [2,4) 2, [4,5) 3, [5,8) 2, [8,9) 1, [9,10) 2, [10,12) 1.
        let intervals = [
            iv(0, 10_000),
            iv(2_000, 5_000),
            iv(4_000, 8_000),
            iv(9_000, 12_000),
        ];
        let f = sweep_in_flight(&intervals, SweepOptions::default()).unwrap();
        assert_eq!(f.peak, 3);
        assert_eq!(f.peak_at_ms, 4_000);
        // area = 2 + 4 + 3 + 6 + 1 + 2 + 2 = 20 request·s over 12 s
        assert!((f.mean - 20.0 / 12.0).abs() < 1e-12);
        assert_eq!(f.time_at_level_ms, vec![0, 5_000, 6_000, 1_000]);
        assert_eq!((f.span_start_ms, f.span_end_ms), (0, 12_000));
    }

    #[test]
    fn a_request_ending_as_another_starts_does_not_overlap_it() {
        let f =
            sweep_in_flight(&[iv(0, 1_000), iv(1_000, 2_000)], SweepOptions::default()).unwrap();
        assert_eq!(f.peak, 1);
        assert_eq!(f.mean, 1.0);
        let zero = sweep_in_flight(&[iv(500, 500), iv(0, 1_000)], SweepOptions::default()).unwrap();
        assert_eq!(zero.peak, 1);
    }

    #[test]
    fn window_mean_covers_only_the_window() {
        let intervals = [
            iv(0, 10_000),
            iv(2_000, 5_000),
            iv(4_000, 8_000),
            iv(9_000, 12_000),
        ];
        let options = SweepOptions {
            window: Some((3_000, 6_000)),
            curve_max_points: 100,
        };
        let f = sweep_in_flight(&intervals, options).unwrap();
        // [3,4) 2, [4,5) 3, [5,6) 2 → 7 request·s over 3 s
        assert!((f.window_mean.unwrap() - 7.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn curve_keeps_the_peak_and_the_mean_of_each_step() {
        let intervals = [
            iv(0, 10_000),
            iv(2_000, 5_000),
            iv(4_000, 8_000),
            iv(9_000, 12_000),
        ];
        let options = SweepOptions {
            window: None,
            curve_max_points: 3,
        };
        let f = sweep_in_flight(&intervals, options).unwrap();
        // 12 s in ≤ 3 points → 5 s steps: [0,5) [5,10) [10,15)
        assert_eq!(f.curve.step_ms, 5_000);
        assert_eq!(f.curve.max, vec![3, 2, 1]);
        // [0,5): 2 + 4 + 3 = 9 → 1.8; [5,10): 6 + 1 + 2 = 9 → 1.8; [10,15): 2 → 0.4
        assert_eq!(f.curve.mean, vec![1.8, 1.8, 0.4]);
        // exact on step boundaries: (9 + 9) request·s over 10 s
        assert_eq!(f.curve.mean_between(0, 10_000), Some(1.8));
        // half of the last step: 2 request·s over 2.5 s → prorated 0.4 × 2.5 / 2.5
        assert_eq!(f.curve.mean_between(10_000, 12_500), Some(0.4));
        assert_eq!(f.curve.mean_between(5, 5), None);
    }

    #[test]
    fn unsorted_input_gives_the_same_answer() {
        let sorted = [iv(0, 10_000), iv(2_000, 5_000), iv(4_000, 8_000)];
        let unsorted = [iv(4_000, 8_000), iv(0, 10_000), iv(2_000, 5_000)];
        assert_eq!(
            sweep_in_flight(&sorted, SweepOptions::default()),
            sweep_in_flight(&unsorted, SweepOptions::default())
        );
        assert_eq!(sweep_in_flight(&[], SweepOptions::default()), None);
    }
}
