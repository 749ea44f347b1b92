//! Exact quantiles of kept values.
//!
//! **Method.** Linear interpolation between closest ranks (Hyndman & Fan type 7, numpy's
//! default, and what vLLM bench and AIPerf report): for n values sorted ascending
//! x₀ ≤ … ≤ xₙ₋₁ and a quantile q in [0, 1], let h = (n − 1) · q; the quantile is
//! x⌊h⌋ + (h − ⌊h⌋) · (x⌊h⌋+1 − x⌊h⌋). So q = 0 is the minimum, q = 1 the maximum and the median
//! of an even count is the mean of the middle two. The engine's other percentile code
//! (`ingest::stats`) uses the same definition, so a number recomputed here matches a tool's own.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Quantile `q` (0–1) of values sorted ascending, by linear interpolation between closest ranks.
/// `None` for an empty slice or a `q` outside 0–1 (or NaN).
pub fn quantile_sorted<T: Copy + Into<f64>>(sorted: &[T], q: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=1.0).contains(&q) {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = h - lo as f64;
    let (x_lo, x_hi): (f64, f64) = (sorted[lo].into(), sorted[hi].into());
    Some(x_lo + frac * (x_hi - x_lo))
}

/// The fixed summary of a latency or size distribution shown on pages and reports: count, mean
/// and the percentiles a plan's pass marks use. Values are in the unit of the field holding the
/// summary (`ttft_ms`, `e2e_ms`, …).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = QuantileSummary))]
pub struct Percentiles {
    pub count: u64,
    pub mean: f64,
    pub min: f64,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    /// Summary of values already sorted ascending; `None` when there are none.
    pub fn from_sorted<T: Copy + Into<f64>>(sorted: &[T]) -> Option<Self> {
        let first = *sorted.first()?;
        let last = *sorted.last()?;
        let sum: f64 = sorted.iter().map(|&v| v.into()).sum();
        let at = |q: f64| quantile_sorted(sorted, q).unwrap_or(f64::NAN);
        Some(Percentiles {
            count: sorted.len() as u64,
            mean: sum / sorted.len() as f64,
            min: first.into(),
            p50: at(0.50),
            p90: at(0.90),
            p95: at(0.95),
            p99: at(0.99),
            max: last.into(),
        })
    }

    /// The same summary in another unit: every value multiplied by `factor` (µs → ms: 0.001).
    pub fn scaled(self, factor: f64) -> Self {
        Percentiles {
            count: self.count,
            mean: self.mean * factor,
            min: self.min * factor,
            p50: self.p50 * factor,
            p90: self.p90 * factor,
            p95: self.p95 * factor,
            p99: self.p99 * factor,
            max: self.max * factor,
        }
    }

    /// Summary of values in any order (sorts them in place); `None` when there are none.
    /// Values that do not compare (NaN) sort as equal to their neighbours; callers keep them out.
    pub fn from_unsorted<T: Copy + Into<f64> + PartialOrd>(values: &mut [T]) -> Option<Self> {
        values.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
        Self::from_sorted(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_between_closest_ranks() {
        let v = [1u32, 2, 3, 4];
        assert_eq!(quantile_sorted(&v, 0.0), Some(1.0));
        assert_eq!(quantile_sorted(&v, 1.0), Some(4.0));
        // h = 3 × 0.5 = 1.5 → 2 + 0.5 × (3 − 2)
        assert_eq!(quantile_sorted(&v, 0.5), Some(2.5));
        // h = 3 × 0.95 = 2.85 → 3 + 0.85 × (4 − 3)
        assert!((quantile_sorted(&v, 0.95).unwrap() - 3.85).abs() < 1e-12);
    }

    #[test]
    fn rejects_empty_input_and_out_of_range_quantiles() {
        assert_eq!(quantile_sorted::<f64>(&[], 0.5), None);
        assert_eq!(quantile_sorted(&[1.0f64], 1.5), None);
        assert_eq!(quantile_sorted(&[1.0f64], f64::NAN), None);
        assert_eq!(quantile_sorted(&[7.0f64], 0.3), Some(7.0));
    }

    #[test]
    fn summarises_unsorted_values() {
        let mut v = vec![400.0f32, 100.0, 300.0, 200.0, 1000.0];
        let p = Percentiles::from_unsorted(&mut v).unwrap();
        assert_eq!(p.count, 5);
        assert_eq!(p.mean, 400.0);
        assert_eq!((p.min, p.p50, p.max), (100.0, 300.0, 1000.0));
        // h = 4 × 0.9 = 3.6 → 400 + 0.6 × 600
        assert!((p.p90 - 760.0).abs() < 1e-9);
        assert!(Percentiles::from_unsorted::<f32>(&mut []).is_none());
    }
}
