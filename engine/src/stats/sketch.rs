//! Quantiles of many values in bounded memory, with a stated relative error.
//!
//! [`QuantileSketch`] is a log-bucket sketch (the DDSketch idea): a positive value x goes into
//! bucket i = ⌈ln x ÷ ln γ⌉ with γ = (1 + α) ÷ (1 − α), i.e. the bucket (γ^(i−1), γ^i], and a
//! bucket stands for 2γ^i ÷ (γ + 1), which is within a relative α of every value in it. Only
//! the bucket counts are kept: all of `u32` fits in about 2,200 buckets (≈ 18 KiB) at α = 0.5 %,
//! however many values are added. The value at each rank is therefore known to within ±α
//! (relative), and so is every quantile interpolated between two ranks (the interpolation of
//! [`super::quantile`] is a convex combination of two values, each within ±α). Zeros are counted
//! apart and are exact; the minimum and maximum are kept exactly and bound every estimate. The
//! counts depend only on the multiset of values, never on their order, and two sketches merge
//! exactly by adding counts.
//!
//! [`BoundedValues`] keeps values exactly (and its quantiles are exact) while it holds at most a
//! limit of them, then moves them into a sketch and continues there; its
//! [`relative_error`](BoundedValues::relative_error) says which of the two its quantiles are.

use super::quantile::Percentiles;

/// Relative error bound of the sketches the engine keeps: ±0.5 %.
pub const SKETCH_RELATIVE_ERROR: f64 = 0.005;

/// Values a [`BoundedValues`] keeps exactly before it switches to a sketch (256 KiB of `u32`).
pub const EXACT_VALUES_LIMIT: usize = 65_536;

/// A log-bucket quantile sketch of non-negative values (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct QuantileSketch {
    relative_error: f64,
    ln_gamma: f64,
    /// Count of values ≤ 0 (only zeros for unsigned inputs).
    zeros: u64,
    /// Bucket index of `counts[0]`.
    offset: i32,
    counts: Vec<u64>,
    count: u64,
    min: f64,
    max: f64,
}

impl QuantileSketch {
    /// A sketch whose estimates are within `relative_error` (0 < α < 1, clamped to 10⁻⁶ … 0.5) of
    /// the true values.
    pub fn new(relative_error: f64) -> Self {
        let alpha = if relative_error.is_finite() {
            relative_error.clamp(1e-6, 0.5)
        } else {
            SKETCH_RELATIVE_ERROR
        };
        let gamma = (1.0 + alpha) / (1.0 - alpha);
        QuantileSketch {
            relative_error: alpha,
            ln_gamma: gamma.ln(),
            zeros: 0,
            offset: 0,
            counts: Vec::new(),
            count: 0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }

    /// The relative error bound of its estimates.
    pub fn relative_error(&self) -> f64 {
        self.relative_error
    }

    /// Values added.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Bytes held by the bucket counters.
    pub fn heap_bytes(&self) -> usize {
        self.counts.capacity() * 8
    }

    fn index(&self, value: f64) -> i32 {
        (value.ln() / self.ln_gamma).ceil() as i32
    }

    fn bucket_value(&self, index: i32) -> f64 {
        let gamma = self.ln_gamma.exp();
        2.0 * (f64::from(index) * self.ln_gamma).exp() / (gamma + 1.0)
    }

    /// Adds `n` occurrences of `value` (NaN is ignored; values ≤ 0 count as zeros).
    pub fn add_n(&mut self, value: f64, n: u64) {
        if value.is_nan() || n == 0 {
            return;
        }
        self.count += n;
        self.min = self.min.min(value);
        self.max = self.max.max(value);
        if value <= 0.0 {
            self.zeros += n;
            return;
        }
        self.add_to_bucket(self.index(value), n);
    }

    /// Adds one value.
    pub fn add(&mut self, value: f64) {
        self.add_n(value, 1);
    }

    fn add_to_bucket(&mut self, index: i32, n: u64) {
        if self.counts.is_empty() {
            self.offset = index;
            self.counts.push(0);
        } else if index < self.offset {
            let grow = (self.offset - index) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.offset = index;
        } else if (index - self.offset) as usize >= self.counts.len() {
            self.counts.resize((index - self.offset) as usize + 1, 0);
        }
        self.counts[(index - self.offset) as usize] += n;
    }

    /// Adds every value counted in `other` (exact when both have the same relative error;
    /// otherwise `other`'s buckets are re-bucketed at their representative values).
    pub fn merge(&mut self, other: &QuantileSketch) {
        if other.count == 0 {
            return;
        }
        self.count += other.count;
        self.zeros += other.zeros;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        let same = self.ln_gamma == other.ln_gamma;
        for (i, &n) in other.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let index = other.offset + i as i32;
            let index = if same {
                index
            } else {
                self.index(other.bucket_value(index))
            };
            self.add_to_bucket(index, n);
        }
    }

    /// Estimate of the value at 0-based `rank` of the sorted values (exact at the two ends).
    pub fn value_at_rank(&self, rank: u64) -> Option<f64> {
        if rank >= self.count {
            return None;
        }
        if rank == 0 {
            return Some(self.min);
        }
        if rank == self.count - 1 {
            return Some(self.max);
        }
        if rank < self.zeros {
            return Some(self.min.min(0.0));
        }
        let mut seen = self.zeros;
        for (i, &n) in self.counts.iter().enumerate() {
            seen += n;
            if rank < seen {
                let estimate = self.bucket_value(self.offset + i as i32);
                return Some(estimate.clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }

    /// Quantile `q` (0–1) interpolated between closest ranks as [`super::quantile_sorted`]
    /// does, each rank's value within the relative error. `None` when empty or `q` is outside
    /// 0–1.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 || !(0.0..=1.0).contains(&q) {
            return None;
        }
        let h = (self.count - 1) as f64 * q;
        let lo = h.floor() as u64;
        let hi = (lo + 1).min(self.count - 1);
        let x_lo = self.value_at_rank(lo)?;
        let x_hi = self.value_at_rank(hi)?;
        Some(x_lo + (h - lo as f64) * (x_hi - x_lo))
    }
}

/// Non-negative integer values (latencies in ms or µs) kept exactly up to a limit, then in a
/// [`QuantileSketch`] (see the module docs). Count, sum, mean, minimum and maximum stay exact
/// either way. Values are kept as `u32` (4 bytes each); a value beyond `u32::MAX` (a request of
/// over 71 minutes in µs) switches to the sketch at once, so the kept values never overflow.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundedValues {
    exact: Vec<u32>,
    sketch: Option<QuantileSketch>,
    exact_limit: usize,
    count: u64,
    sum: u128,
    min: u64,
    max: u64,
}

impl Default for BoundedValues {
    fn default() -> Self {
        Self::new(EXACT_VALUES_LIMIT)
    }
}

impl BoundedValues {
    /// Exact while at most `exact_limit` values were added.
    pub fn new(exact_limit: usize) -> Self {
        BoundedValues {
            exact: Vec::new(),
            sketch: None,
            exact_limit,
            count: 0,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    pub fn add(&mut self, value: impl Into<u64>) {
        let value: u64 = value.into();
        self.count += 1;
        self.sum += u128::from(value);
        self.min = self.min.min(value);
        self.max = self.max.max(value);
        match &mut self.sketch {
            Some(sketch) => sketch.add(value as f64),
            None => match u32::try_from(value) {
                Ok(kept) if self.exact.len() < self.exact_limit => self.exact.push(kept),
                _ => {
                    let mut sketch = self.to_sketch();
                    sketch.add(value as f64);
                    self.sketch = Some(sketch);
                    self.exact = Vec::new();
                }
            },
        }
    }

    fn to_sketch(&self) -> QuantileSketch {
        let mut sketch = QuantileSketch::new(SKETCH_RELATIVE_ERROR);
        for &v in &self.exact {
            sketch.add(f64::from(v));
        }
        sketch
    }

    /// Values added.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// True while every value is kept (quantiles exact).
    pub fn is_exact(&self) -> bool {
        self.sketch.is_none()
    }

    /// Relative error bound of the quantiles: 0 when exact.
    pub fn relative_error(&self) -> f64 {
        self.sketch
            .as_ref()
            .map_or(0.0, QuantileSketch::relative_error)
    }

    /// Bytes held (kept values or sketch buckets).
    pub fn heap_bytes(&self) -> usize {
        self.exact.capacity() * 4 + self.sketch.as_ref().map_or(0, QuantileSketch::heap_bytes)
    }

    /// All values of `parts` together, exact when they are all exact and hold at most
    /// `exact_limit` values together (the kept values are copied once), otherwise sketched.
    pub fn combined<'a>(
        parts: impl Iterator<Item = &'a BoundedValues> + Clone,
        exact_limit: usize,
    ) -> BoundedValues {
        let mut all = BoundedValues::new(exact_limit);
        let total: u64 = parts.clone().map(|p| p.count).sum();
        let exact = total <= exact_limit as u64 && parts.clone().all(BoundedValues::is_exact);
        if exact {
            all.exact.reserve_exact(total as usize);
        } else {
            all.sketch = Some(QuantileSketch::new(SKETCH_RELATIVE_ERROR));
        }
        for part in parts {
            all.count += part.count;
            all.sum += part.sum;
            all.min = all.min.min(part.min);
            all.max = all.max.max(part.max);
            match (&mut all.sketch, &part.sketch) {
                (None, _) => all.exact.extend_from_slice(&part.exact),
                (Some(sketch), Some(theirs)) => sketch.merge(theirs),
                (Some(sketch), None) => part.exact.iter().for_each(|&v| sketch.add(f64::from(v))),
            }
        }
        all
    }

    /// The percentile summary: exact (sorting the kept values in place) or from the sketch,
    /// with exact count, mean, minimum and maximum. `None` when empty.
    pub fn percentiles(&mut self) -> Option<Percentiles> {
        match &self.sketch {
            None => Percentiles::from_unsorted(&mut self.exact),
            Some(sketch) => {
                if self.count == 0 {
                    return None;
                }
                let at = |q: f64| sketch.quantile(q).unwrap_or(f64::NAN);
                Some(Percentiles {
                    count: self.count,
                    mean: self.sum as f64 / self.count as f64,
                    min: self.min as f64,
                    p50: at(0.50),
                    p90: at(0.90),
                    p95: at(0.95),
                    p99: at(0.99),
                    max: self.max as f64,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::quantile_sorted;

    /// SplitMix64: a deterministic sample without a `rand` dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn uniform(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }

        /// Log-normal around `median` (a latency-like long right tail).
        fn log_normal(&mut self, median: f64, sigma: f64) -> f64 {
            let r = (-2.0 * (1.0 - self.uniform()).ln()).sqrt();
            median * (sigma * r * (std::f64::consts::TAU * self.uniform()).cos()).exp()
        }
    }

    fn relative(estimate: f64, exact: f64) -> f64 {
        if exact == 0.0 {
            estimate.abs()
        } else {
            (estimate - exact).abs() / exact
        }
    }

    #[test]
    fn sketch_quantiles_stay_within_the_relative_error() {
        let mut rng = Rng(7);
        // E2E-like milliseconds with a long tail, some zeros and the extremes of u32.
        let mut values: Vec<u32> = (0..200_000)
            .map(|_| rng.log_normal(4_000.0, 1.2).min(f64::from(u32::MAX)) as u32)
            .collect();
        values.extend([0, 0, 1, 2, 3, u32::MAX]);
        let mut sketch = QuantileSketch::new(SKETCH_RELATIVE_ERROR);
        values.iter().for_each(|&v| sketch.add(f64::from(v)));
        values.sort_unstable();
        let mut worst = 0.0f64;
        for i in 0..=1000 {
            let q = f64::from(i) / 1000.0;
            let exact = quantile_sorted(&values, q).unwrap();
            let estimate = sketch.quantile(q).unwrap();
            worst = worst.max(relative(estimate, exact));
        }
        assert!(worst <= SKETCH_RELATIVE_ERROR + 1e-12, "worst {worst}");
        // the bound is not vacuous: the sketch does lose precision
        assert!(worst > SKETCH_RELATIVE_ERROR / 10.0, "worst {worst}");
        // every rank, not only the quantiles above
        for (rank, &v) in values.iter().enumerate().step_by(97) {
            let estimate = sketch.value_at_rank(rank as u64).unwrap();
            assert!(
                relative(estimate, f64::from(v)) <= SKETCH_RELATIVE_ERROR + 1e-12,
                "rank {rank}: {estimate} vs {v}"
            );
        }
        assert_eq!(sketch.quantile(0.0), Some(0.0));
        assert_eq!(sketch.quantile(1.0), Some(f64::from(u32::MAX)));
        // all of u32 in a few thousand buckets
        assert!(
            sketch.heap_bytes() <= 2_300 * 8 * 2,
            "{}",
            sketch.heap_bytes()
        );
        assert_eq!(sketch.quantile(1.5), None);
    }

    #[test]
    fn sketches_merge_and_ignore_order() {
        let mut rng = Rng(11);
        let values: Vec<f64> = (0..10_000).map(|_| rng.log_normal(30.0, 0.8)).collect();
        let mut whole = QuantileSketch::new(0.01);
        values.iter().for_each(|&v| whole.add(v));
        let mut reversed = QuantileSketch::new(0.01);
        values.iter().rev().for_each(|&v| reversed.add(v));
        assert_eq!(whole, reversed);
        let (a, b) = values.split_at(3_333);
        let mut left = QuantileSketch::new(0.01);
        a.iter().for_each(|&v| left.add(v));
        let mut right = QuantileSketch::new(0.01);
        b.iter().for_each(|&v| right.add(v));
        right.merge(&left);
        for q in [0.0, 0.5, 0.9, 0.99, 1.0] {
            assert_eq!(right.quantile(q), whole.quantile(q));
        }
    }

    #[test]
    fn bounded_values_are_exact_up_to_the_limit_then_sketched() {
        let mut rng = Rng(3);
        let values: Vec<u32> = (0..5_000)
            .map(|_| rng.log_normal(200.0, 0.7) as u32)
            .collect();
        let mut bounded = BoundedValues::new(4_999);
        let mut exact = values.clone();
        for &v in &values[..4_999] {
            bounded.add(v);
        }
        assert!(bounded.is_exact());
        assert_eq!(bounded.relative_error(), 0.0);
        assert_eq!(
            bounded.clone().percentiles(),
            Percentiles::from_unsorted(&mut exact[..4_999].to_vec())
        );
        bounded.add(values[4_999]);
        assert!(!bounded.is_exact());
        assert_eq!(bounded.relative_error(), SKETCH_RELATIVE_ERROR);
        let sketched = bounded.percentiles().unwrap();
        let exact = Percentiles::from_unsorted(&mut exact).unwrap();
        assert_eq!(
            (sketched.count, sketched.min, sketched.max),
            (exact.count, exact.min, exact.max)
        );
        assert!((sketched.mean - exact.mean).abs() < 1e-9 * exact.mean);
        for (s, e) in [
            (sketched.p50, exact.p50),
            (sketched.p90, exact.p90),
            (sketched.p95, exact.p95),
            (sketched.p99, exact.p99),
        ] {
            assert!(
                relative(s, e) <= SKETCH_RELATIVE_ERROR + 1e-12,
                "{s} vs {e}"
            );
        }
    }

    #[test]
    fn combined_values_stay_exact_only_when_they_all_fit() {
        let mut a = BoundedValues::new(4);
        let mut b = BoundedValues::new(4);
        [5u32, 1, 3].iter().for_each(|&v| a.add(v));
        b.add(2u32);
        let mut both = BoundedValues::combined([&a, &b].into_iter(), 4);
        assert!(both.is_exact());
        assert_eq!(both.percentiles().unwrap().p50, 2.5);
        b.add(4u32);
        let mut over = BoundedValues::combined([&a, &b].into_iter(), 4);
        assert!(!over.is_exact());
        let p = over.percentiles().unwrap();
        assert_eq!((p.count, p.min, p.max, p.mean), (5, 1.0, 5.0, 3.0));
        assert!(relative(p.p50, 3.0) <= SKETCH_RELATIVE_ERROR + 1e-12);
    }

    #[test]
    fn a_value_beyond_u32_switches_to_the_sketch_with_exact_extremes() {
        // A request of two hours in µs: 7.2e9 does not fit the kept u32 values.
        let mut values = BoundedValues::new(100);
        values.add(1_000u32);
        values.add(7_200_000_000u64);
        assert!(!values.is_exact());
        let p = values.percentiles().unwrap();
        assert_eq!((p.count, p.min, p.max), (2, 1_000.0, 7.2e9));
        assert_eq!(p.mean, (1_000.0 + 7.2e9) / 2.0);
        // Between the two values, and above what 7.2e9 wrapped to u32 would be (2.905e9).
        assert!(
            p.p99 > 3.0e9 && p.p99 <= 7.2e9 * (1.0 + SKETCH_RELATIVE_ERROR),
            "{}",
            p.p99
        );
    }
}
