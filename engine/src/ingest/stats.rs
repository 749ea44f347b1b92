//! Statistics computed from per-request data.
//!
//! Used when a file has per-request values but no summary for a metric (AIPerf's per-request
//! JSONL, vLLM `--save-detailed` arrays when a metric was not selected), and available to any
//! code that needs the same numbers from kept [`super::RequestRecord`]s.
//!
//! **Percentile method.** Exact: every value is kept and sorted (no sketch, no histogram).
//! Between ranks the value is interpolated linearly, the method numpy uses by default and the
//! tools themselves use (vLLM bench, AIPerf), Hyndman & Fan type 7: for n sorted values
//! x₀ ≤ … ≤ xₙ₋₁ and a percentile p in [0, 100], let h = (n − 1) · p / 100; the result is
//! x⌊h⌋ + (h − ⌊h⌋) · (x⌊h⌋+1 − x⌊h⌋). So p0 is the minimum, p100 the maximum, the median of an
//! even count is the mean of the middle two, and a file's own percentiles are reproduced when
//! recomputed from its per-request data.
//!
//! **Standard deviation** computed here is the population one (divides by n), like numpy's
//! `std` and vLLM bench.

use super::model::{MetricKey, MetricStats, StdKind};

/// Percentiles filled in when statistics are computed here.
pub const COMPUTED_PERCENTILES: [f64; 10] =
    [1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9];

/// Percentile `p` (0–100) of values sorted ascending, by linear interpolation between closest
/// ranks (see the module docs). `None` for an empty slice or a `p` outside 0–100.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=100.0).contains(&p) {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * p / 100.0;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = h - lo as f64;
    Some(sorted[lo] + frac * (sorted[hi] - sorted[lo]))
}

/// Count, mean, population standard deviation, extremes and percentiles of a set of values.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub count: u64,
    pub mean: f64,
    /// Population standard deviation (divides by n).
    pub std: f64,
    pub min: f64,
    pub max: f64,
    sorted: Vec<f64>,
}

impl Summary {
    /// Percentile `p` (0–100), see [`percentile_sorted`].
    pub fn percentile(&self, p: f64) -> Option<f64> {
        percentile_sorted(&self.sorted, p)
    }
}

/// Summarises `values` (any order; non-finite values are ignored). `None` when no finite value
/// is left.
pub fn summarize(values: &[f64]) -> Option<Summary> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    summarize_owned(&mut sorted).map(|(count, mean, std)| Summary {
        count,
        mean,
        std,
        min: sorted[0],
        max: sorted[sorted.len() - 1],
        sorted,
    })
}

/// Sorts in place and returns (count, mean, population std).
fn summarize_owned(values: &mut [f64]) -> Option<(u64, f64, f64)> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable_by(f64::total_cmp);
    let n = values.len() as f64;
    let mean = compensated_sum(values.iter().copied()) / n;
    let var = compensated_sum(values.iter().map(|v| (v - mean) * (v - mean))) / n;
    Some((values.len() as u64, mean, var.sqrt()))
}

/// Neumaier's compensated sum: keeps means of millions of values exact to the last few bits.
fn compensated_sum(values: impl Iterator<Item = f64>) -> f64 {
    let mut sum = 0.0f64;
    let mut carry = 0.0f64;
    for v in values {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            carry += (sum - t) + v;
        } else {
            carry += (v - t) + sum;
        }
        sum = t;
    }
    sum + carry
}

/// Collects one metric's values while a file streams by.
///
/// With `exact` it keeps every value (8 bytes each) and yields exact percentiles; without, it
/// keeps only running count, mean, M2 (Welford), min and max — constant memory, no percentiles.
#[derive(Clone, Debug)]
pub(crate) struct Series {
    exact: bool,
    values: Vec<f64>,
    n: u64,
    mean: f64,
    m2: f64,
    min: f64,
    max: f64,
}

impl Series {
    pub fn new(exact: bool) -> Self {
        Series {
            exact,
            values: Vec::new(),
            n: 0,
            mean: 0.0,
            m2: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }

    /// Adds one value; non-finite values are ignored.
    pub fn push(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        if self.exact {
            self.values.push(v);
            return;
        }
        self.n += 1;
        let delta = v - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (v - self.mean);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// The statistics, marked as computed from requests; `None` when nothing was pushed.
    pub fn into_stats(
        mut self,
        key: MetricKey,
        definition: &str,
        source: &str,
    ) -> Option<MetricStats> {
        let mut stats = MetricStats::new(key, definition, source);
        stats.computed_from_requests = true;
        stats.std_kind = Some(StdKind::Population);
        if self.exact {
            let (count, mean, std) = summarize_owned(&mut self.values)?;
            stats.count = Some(count);
            stats.mean = Some(mean);
            stats.std = Some(std);
            stats.min = self.values.first().copied();
            stats.max = self.values.last().copied();
            for p in COMPUTED_PERCENTILES {
                if let Some(v) = percentile_sorted(&self.values, p) {
                    stats.set_percentile(p, v);
                }
            }
        } else {
            if self.n == 0 {
                return None;
            }
            stats.count = Some(self.n);
            stats.mean = Some(self.mean);
            stats.std = Some((self.m2 / self.n as f64).sqrt());
            stats.min = Some(self.min);
            stats.max = Some(self.max);
        }
        Some(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_interpolates_linearly_between_closest_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile_sorted(&v, 0.0), Some(1.0));
        assert_eq!(percentile_sorted(&v, 100.0), Some(4.0));
        assert_eq!(percentile_sorted(&v, 50.0), Some(2.5));
        // h = 3 · 0.9 = 2.7 → 3 + 0.7 · (4 − 3)
        assert!((percentile_sorted(&v, 90.0).unwrap() - 3.7).abs() < 1e-12);
        // h = 3 · 0.25 = 0.75 → 1.75
        assert!((percentile_sorted(&v, 25.0).unwrap() - 1.75).abs() < 1e-12);
        assert_eq!(percentile_sorted(&[], 50.0), None);
        assert_eq!(percentile_sorted(&v, 101.0), None);
        assert_eq!(percentile_sorted(&[7.0], 99.0), Some(7.0));
    }

    #[test]
    fn percentile_of_one_to_hundred_matches_the_rank_formula() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        // h = 99 · 0.99 = 98.01 → x[98] + 0.01 · (x[99] − x[98]) = 99.01
        assert!((percentile_sorted(&v, 99.0).unwrap() - 99.01).abs() < 1e-9);
        assert!((percentile_sorted(&v, 50.0).unwrap() - 50.5).abs() < 1e-12);
    }

    #[test]
    fn summary_uses_population_std_and_ignores_non_finite() {
        let s = summarize(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0, f64::NAN]).unwrap();
        assert_eq!(s.count, 8);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.std, 2.0);
        assert_eq!((s.min, s.max), (2.0, 9.0));
        assert_eq!(s.percentile(50.0), Some(4.5));
        assert!(summarize(&[]).is_none());
    }

    #[test]
    fn streaming_series_agrees_with_exact_on_moments() {
        let values: Vec<f64> = (0..1000).map(|i| ((i * 37) % 101) as f64 * 0.5).collect();
        let mut exact = Series::new(true);
        let mut running = Series::new(false);
        for &v in &values {
            exact.push(v);
            running.push(v);
        }
        let a = exact.into_stats(MetricKey::TtftMs, "d", "s").unwrap();
        let b = running.into_stats(MetricKey::TtftMs, "d", "s").unwrap();
        assert_eq!(a.count, b.count);
        assert!((a.mean.unwrap() - b.mean.unwrap()).abs() < 1e-9);
        assert!((a.std.unwrap() - b.std.unwrap()).abs() < 1e-9);
        assert_eq!(a.min, b.min);
        assert_eq!(a.max, b.max);
        assert!(a.p99.is_some() && b.p99.is_none());
        assert!(a.computed_from_requests);
    }
}
