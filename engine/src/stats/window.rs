//! The fixed-width window holding the most arrivals (the busiest hour).
//!
//! Exact: with arrivals sorted, the best window can always be slid right until its start meets
//! an arrival without losing any, so only windows starting at an arrival need checking; two
//! pointers do that in one pass. Ties go to the earliest window. The window is half-open,
//! `[start_ms, start_ms + width_ms)`.

use super::sweep::Interval;

/// The busiest window found by [`busiest_window`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusiestWindow {
    pub start_ms: i64,
    /// `start_ms + width_ms` (exclusive).
    pub end_ms: i64,
    /// Requests that started inside the window.
    pub arrivals: u64,
    /// Index range (into the sorted slice) of those requests: `first..last_exclusive`.
    pub first: usize,
    pub last_exclusive: usize,
}

/// The window of `width_ms` that holds the most request starts. `intervals` must be sorted by
/// start (as for [`super::sweep_in_flight`]). `None` when empty or `width_ms` ≤ 0.
pub fn busiest_window(intervals: &[Interval], width_ms: i64) -> Option<BusiestWindow> {
    if intervals.is_empty() || width_ms <= 0 {
        return None;
    }
    debug_assert!(intervals.is_sorted_by_key(|i| i.start_ms));
    let mut best: Option<BusiestWindow> = None;
    let mut j = 0;
    for (i, interval) in intervals.iter().enumerate() {
        if i > 0 && intervals[i - 1].start_ms == interval.start_ms {
            continue;
        }
        let end_ms = interval.start_ms + width_ms;
        j = j.max(i);
        while j < intervals.len() && intervals[j].start_ms < end_ms {
            j += 1;
        }
        let arrivals = (j - i) as u64;
        if best.is_none_or(|b| arrivals > b.arrivals) {
            best = Some(BusiestWindow {
                start_ms: interval.start_ms,
                end_ms,
                arrivals,
                first: i,
                last_exclusive: j,
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(ms: &[i64]) -> Vec<Interval> {
        ms.iter()
            .map(|&s| Interval {
                start_ms: s,
                end_ms: s + 1,
            })
            .collect()
    }

    #[test]
    fn finds_the_window_with_most_arrivals() {
        // width 10: windows starting at 0 → {0,5}, 5 → {5,12,13}, 12 → {12,13,20}, ...
        let w = busiest_window(&starts(&[0, 5, 12, 13, 20, 40]), 10).unwrap();
        assert_eq!((w.start_ms, w.end_ms, w.arrivals), (5, 15, 3));
        assert_eq!((w.first, w.last_exclusive), (1, 4));
    }

    #[test]
    fn ties_go_to_the_earliest_window_and_the_end_is_exclusive() {
        let w = busiest_window(&starts(&[0, 10, 20]), 10).unwrap();
        assert_eq!((w.start_ms, w.arrivals), (0, 1));
        let same = busiest_window(&starts(&[7, 7, 7, 30]), 60).unwrap();
        assert_eq!((same.start_ms, same.arrivals), (7, 4));
        assert_eq!(busiest_window(&[], 10), None);
    }
}
