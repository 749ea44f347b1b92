//! An exact distribution of non-negative integers whose memory does not grow with the count.
//!
//! Token lengths repeat: a million requests have at most a few thousand distinct prompt lengths.
//! So instead of keeping every value, [`ValueCounts`] counts how often each value occurred: a
//! dense array of `u32` counters for values below [`DENSE_LIMIT`] (grown lazily up to the largest
//! value seen, so at most 128 KiB), and an ordered map for the rare larger values. Quantiles,
//! the mean and the maximum are exact (same interpolation as [`super::quantile`]) and a histogram
//! for charts is derived on demand.
//!
//! The dense array grows only as far as the values counted so far justify: to at most
//! [`DENSE_SLOTS_PER_VALUE`] counters per value added (at least [`DENSE_MIN_SLOTS`]). A few
//! large values therefore sit in the map (32 bytes each) instead of reserving up to 128 KiB, so
//! memory stays proportional to what was added: a hostile log with a thousand models of one
//! 30,000-token request each needs a thousand map entries, not a thousand 128 KiB arrays.
//! When the array grows, the map's values it now covers move into it (every value in the map
//! is at least the array's length, so the two together stay in order).
//!
//! A dense counter saturates at `u32::MAX` (4.29 billion requests of one exact length), far
//! beyond any pilot.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Values below this are counted in the dense array; larger ones in the ordered map.
pub const DENSE_LIMIT: u32 = 32_768;

/// The dense array may always cover values below this (4 KiB of counters).
pub const DENSE_MIN_SLOTS: usize = 1_024;

/// …and beyond that, this many counters per value added.
pub const DENSE_SLOTS_PER_VALUE: u64 = 16;

/// One bar of a histogram: values in `[lower, upper)` and how many there were.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistogramBin {
    /// Smallest value in the bin (inclusive).
    pub lower: u32,
    /// First value past the bin (exclusive).
    pub upper: u32,
    pub count: u64,
}

/// Exact counts of non-negative integers (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueCounts {
    dense: Vec<u32>,
    sparse: BTreeMap<u32, u64>,
    count: u64,
    sum: u64,
}

impl ValueCounts {
    pub fn new() -> Self {
        Self::default()
    }

    /// How far the dense array may reach with `count` values added (see the module docs).
    fn dense_allowance(count: u64) -> usize {
        let per_value = count.saturating_mul(DENSE_SLOTS_PER_VALUE);
        (usize::try_from(per_value).unwrap_or(usize::MAX))
            .max(DENSE_MIN_SLOTS)
            .min(DENSE_LIMIT as usize)
    }

    /// Grows the dense array to `len` counters and moves the map's values below it there.
    fn grow_dense(&mut self, len: usize) {
        if len <= self.dense.len() {
            return;
        }
        self.dense.resize(len, 0);
        let covered = u32::try_from(len).unwrap_or(u32::MAX);
        let rest = self.sparse.split_off(&covered);
        for (value, n) in std::mem::replace(&mut self.sparse, rest) {
            let slot = &mut self.dense[value as usize];
            *slot = u32::try_from(u64::from(*slot) + n).unwrap_or(u32::MAX);
        }
    }

    /// Counts `n` occurrences of `value` (the counts are already in `count` and `sum`).
    fn place(&mut self, value: u32, n: u64) {
        let i = value as usize;
        if i >= self.dense.len() && i < Self::dense_allowance(self.count) {
            self.grow_dense(i + 1);
        }
        match self.dense.get_mut(i) {
            Some(slot) => *slot = u32::try_from(u64::from(*slot) + n).unwrap_or(u32::MAX),
            None => *self.sparse.entry(value).or_insert(0) += n,
        }
    }

    /// Counts one occurrence of `value`.
    pub fn add(&mut self, value: u32) {
        self.count += 1;
        self.sum = self.sum.saturating_add(u64::from(value));
        self.place(value, 1);
    }

    /// Adds every occurrence counted in `other`.
    pub fn merge(&mut self, other: &ValueCounts) {
        self.count += other.count;
        self.sum = self.sum.saturating_add(other.sum);
        self.grow_dense(other.dense.len());
        for (value, &n) in other.dense.iter().enumerate() {
            if n > 0 {
                self.place(value as u32, u64::from(n));
            }
        }
        for (&value, &n) in &other.sparse {
            self.place(value, n);
        }
    }

    /// How many values were added.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Sum of all values added.
    pub fn sum(&self) -> u64 {
        self.sum
    }

    /// Arithmetic mean; `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// Largest value added; `None` when empty.
    pub fn max(&self) -> Option<u32> {
        if let Some((&v, _)) = self.sparse.iter().next_back() {
            return Some(v);
        }
        self.dense.iter().rposition(|&n| n > 0).map(|i| i as u32)
    }

    /// How many values added are strictly greater than `threshold`.
    pub fn count_above(&self, threshold: f64) -> u64 {
        self.occurrences()
            .filter(|(value, _)| f64::from(*value) > threshold)
            .map(|(_, n)| n)
            .sum()
    }

    /// Smallest value added; `None` when empty.
    pub fn min(&self) -> Option<u32> {
        if let Some(i) = self.dense.iter().position(|&n| n > 0) {
            return Some(i as u32);
        }
        self.sparse.keys().next().copied()
    }

    /// Bytes held by the counters (for memory accounting in docs and tests).
    pub fn heap_bytes(&self) -> usize {
        self.dense.capacity() * 4 + self.sparse.len() * 32
    }

    /// Value and multiplicity pairs in ascending order.
    fn occurrences(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(v, n)| (v as u32, u64::from(*n)))
            .chain(self.sparse.iter().map(|(v, n)| (*v, *n)))
    }

    /// The value at 0-based rank `rank` of the sorted multiset (`rank < count`).
    fn value_at_rank(&self, rank: u64) -> Option<u32> {
        let mut seen = 0u64;
        for (value, n) in self.occurrences() {
            seen += n;
            if rank < seen {
                return Some(value);
            }
        }
        None
    }

    /// Quantile `q` (0–1), interpolated between closest ranks exactly as
    /// [`super::quantile_sorted`] would on the sorted list of every value added.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 || !(0.0..=1.0).contains(&q) {
            return None;
        }
        let h = (self.count - 1) as f64 * q;
        let lo = h.floor() as u64;
        let hi = (lo + 1).min(self.count - 1);
        let x_lo = f64::from(self.value_at_rank(lo)?);
        let x_hi = f64::from(self.value_at_rank(hi)?);
        Some(x_lo + (h - lo as f64) * (x_hi - x_lo))
    }

    /// A histogram of about `target_bins` equal-width bins from 0 to the maximum, the width
    /// rounded up to 1, 2 or 5 × a power of ten so the axis reads well. Empty when no values.
    pub fn histogram(&self, target_bins: usize) -> Vec<HistogramBin> {
        let Some(max) = self.max() else {
            return Vec::new();
        };
        let width = nice_width(u64::from(max) + 1, target_bins.max(1) as u64);
        let n_bins = u64::from(max) / width + 1;
        let mut bins: Vec<HistogramBin> = (0..n_bins)
            .map(|i| HistogramBin {
                lower: (i * width).min(u64::from(u32::MAX)) as u32,
                upper: ((i + 1) * width).min(u64::from(u32::MAX)) as u32,
                count: 0,
            })
            .collect();
        for (value, n) in self.occurrences() {
            bins[(u64::from(value) / width) as usize].count += n;
        }
        bins
    }
}

/// Smallest width of the form {1, 2, 5} × 10^k such that `span` values fit in `bins` bins.
fn nice_width(span: u64, bins: u64) -> u64 {
    let raw = span.div_ceil(bins).max(1);
    let mut decade = 1u64;
    loop {
        for step in [1, 2, 5] {
            if step * decade >= raw {
                return step * decade;
            }
        }
        decade *= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::quantile_sorted;

    #[test]
    fn quantiles_match_the_sorted_list() {
        let values = [5u32, 1, 1, 40_000, 7, 3, 100_000, 3, 3, 12];
        let mut counts = ValueCounts::new();
        values.iter().for_each(|&v| counts.add(v));
        let mut sorted = values.to_vec();
        sorted.sort();
        for q in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0] {
            assert_eq!(counts.quantile(q), quantile_sorted(&sorted, q), "q = {q}");
        }
        assert_eq!(counts.max(), Some(100_000));
        assert_eq!(counts.min(), Some(1));
        assert_eq!(counts.count(), 10);
        assert_eq!(counts.sum(), 140_035);
        // Above the p95 (interpolated between 40,000 and 100,000): the one 100,000.
        assert_eq!(counts.count_above(counts.quantile(0.95).unwrap()), 1);
        assert_eq!(counts.count_above(3.0), 5);
        assert_eq!(counts.count_above(100_000.0), 0);
    }

    #[test]
    fn empty_counts_have_no_statistics() {
        let counts = ValueCounts::new();
        assert_eq!(counts.quantile(0.5), None);
        assert_eq!(counts.max(), None);
        assert_eq!(counts.mean(), None);
        assert!(counts.histogram(10).is_empty());
    }

    #[test]
    fn histogram_uses_round_bin_widths() {
        let mut counts = ValueCounts::new();
        for v in [0u32, 9, 10, 95, 130] {
            counts.add(v);
        }
        // 131 values over 10 bins → raw width 14 → 20
        let bins = counts.histogram(10);
        assert_eq!(bins.len(), 7);
        assert_eq!((bins[0].lower, bins[0].upper, bins[0].count), (0, 20, 3));
        assert_eq!(bins[4].count, 1); // 95 in [80, 100)
        assert_eq!((bins[6].lower, bins[6].count), (120, 1));
        assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 5);
    }

    #[test]
    fn merge_adds_both_sides() {
        let mut a = ValueCounts::new();
        let mut b = ValueCounts::new();
        a.add(3);
        b.add(50_000);
        b.add(3);
        b.add(20);
        a.merge(&b);
        assert_eq!(a.count(), 4);
        assert_eq!(a.quantile(0.5), Some(11.5));
        assert_eq!(a.max(), Some(50_000));
    }

    #[test]
    fn a_few_large_values_stay_in_the_map_until_enough_values_justify_the_array() {
        let mut one = ValueCounts::new();
        one.add(30_000);
        assert_eq!(one.heap_bytes(), 32, "one map entry, no 120 KB array");
        assert_eq!(one.max(), Some(30_000));
        // 2,000 values allow the whole dense range: the map's entry below it moves over
        let mut many = ValueCounts::new();
        many.add(30_000);
        for v in 0..2_000u32 {
            many.add(v % 100);
        }
        many.add(31_000);
        assert_eq!(many.sparse.len(), 0);
        assert_eq!(many.max(), Some(31_000));
        assert_eq!(many.min(), Some(0));
        assert_eq!(many.count(), 2_002);
        let mut sorted: Vec<u32> = (0..2_000u32).map(|v| v % 100).collect();
        sorted.extend([30_000, 31_000]);
        sorted.sort();
        for q in [0.0, 0.5, 0.999, 1.0] {
            assert_eq!(many.quantile(q), quantile_sorted(&sorted, q), "q = {q}");
        }
        // merged into a small one: same answers, whichever side held what
        let mut merged = ValueCounts::new();
        merged.add(29_999);
        merged.merge(&many);
        sorted.push(29_999);
        sorted.sort();
        for q in [0.0, 0.5, 0.999, 1.0] {
            assert_eq!(merged.quantile(q), quantile_sorted(&sorted, q), "q = {q}");
        }
        assert_eq!(
            merged.histogram(4).iter().map(|b| b.count).sum::<u64>(),
            2_003
        );
    }
}
