//! Quantiles from cumulative histogram buckets, with the error bound the buckets impose.
//!
//! Servers such as vLLM export latencies and token counts only as Prometheus histograms:
//! cumulative counts of observations ≤ each bucket's upper edge (`le`), ending with `+Inf`.
//! [`histogram_quantile`] estimates a quantile exactly as Prometheus's `histogram_quantile` does:
//!
//! 1. buckets are sorted by `le`, buckets with the same `le` merged, and the counts forced to be
//!    monotonic (a running maximum, as Prometheus does for float noise in deltas);
//! 2. the rank is q × (count of the `+Inf` bucket) and the bucket is the first whose cumulative
//!    count reaches the rank;
//! 3. inside that bucket the value is interpolated linearly between its lower edge (the previous
//!    bucket's `le`, or 0 for the first bucket) and its upper edge;
//! 4. a rank that falls in the `+Inf` bucket returns the highest finite edge, and a first bucket
//!    whose edge is ≤ 0 returns that edge.
//!
//! Linear interpolation assumes observations spread evenly inside a bucket; they rarely do. What
//! the buckets do guarantee is that the observation at that rank lies inside the bucket, so every
//! [`BucketQuantile`] carries the bucket's edges as the bound of its error. With vLLM's 1-2-5
//! token buckets a "p95 = 1,430 tokens" is really "between 1,000 and 2,000"; in the `+Inf`
//! bucket the quantile is only known to be at least the last edge.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use thiserror::Error;

/// One cumulative bucket: `count` observations were ≤ `le` (`le` may be `f64::INFINITY`, which
/// JSON cannot hold as a number: it is written `"+Inf"`, as in the exposition format).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CumulativeBucket {
    #[serde(with = "edge")]
    pub le: f64,
    pub count: f64,
}

/// Bucket edges in JSON: finite numbers as numbers, infinities as `"+Inf"` / `"-Inf"`.
mod edge {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        if value.is_infinite() {
            serializer.serialize_str(if *value > 0.0 { "+Inf" } else { "-Inf" })
        } else {
            serializer.serialize_f64(*value)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Edge {
            Number(f64),
            Text(String),
        }
        match Edge::deserialize(deserializer)? {
            Edge::Number(n) => Ok(n),
            Edge::Text(text) => match text.as_str() {
                "+Inf" | "Inf" => Ok(f64::INFINITY),
                "-Inf" => Ok(f64::NEG_INFINITY),
                other => other.parse().map_err(D::Error::custom),
            },
        }
    }
}

/// A quantile estimated from buckets, with the edges of the bucket it fell in.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BucketQuantile {
    /// The quantile asked for (0–1).
    pub q: f64,
    /// Prometheus's estimate (linear interpolation inside the bucket).
    pub value: f64,
    /// The true value is at least this; `None` when unbounded below (a first bucket whose edge
    /// is ≤ 0 and may hold negative observations).
    pub lower_bound: Option<f64>,
    /// The true value is at most this; `None` when the rank fell in the `+Inf` bucket.
    pub upper_bound: Option<f64>,
}

impl BucketQuantile {
    /// Width of the bucket bounding the estimate; `None` when one side is unbounded.
    pub fn error_bound(&self) -> Option<f64> {
        Some(self.upper_bound? - self.lower_bound?)
    }

    /// The same quantile with value and bounds multiplied by `factor` (seconds → ms: 1000).
    pub fn scaled(self, factor: f64) -> Self {
        BucketQuantile {
            q: self.q,
            value: self.value * factor,
            lower_bound: self.lower_bound.map(|v| v * factor),
            upper_bound: self.upper_bound.map(|v| v * factor),
        }
    }
}

/// Why no quantile could be estimated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum HistogramError {
    #[error("quantile must be between 0 and 1")]
    QuantileOutOfRange,
    #[error("the histogram has no +Inf bucket")]
    NoInfBucket,
    #[error("the histogram needs at least one finite bucket besides +Inf")]
    TooFewBuckets,
    #[error("the histogram holds no observations")]
    NoObservations,
}

/// Quantile `q` (0–1) of cumulative `buckets` (any order), computed like Prometheus's
/// `histogram_quantile`, with the bucket edges as error bounds (see the module docs).
pub fn histogram_quantile(
    q: f64,
    buckets: &[CumulativeBucket],
) -> Result<BucketQuantile, HistogramError> {
    if !(0.0..=1.0).contains(&q) {
        return Err(HistogramError::QuantileOutOfRange);
    }
    let buckets = normalise(buckets);
    match buckets.last() {
        Some(last) if last.le == f64::INFINITY => {}
        _ => return Err(HistogramError::NoInfBucket),
    }
    if buckets.len() < 2 {
        return Err(HistogramError::TooFewBuckets);
    }
    let observations = buckets[buckets.len() - 1].count;
    if observations <= 0.0 {
        return Err(HistogramError::NoObservations);
    }
    let mut rank = q * observations;
    let finite = buckets.len() - 1;
    let b = buckets[..finite].partition_point(|bucket| bucket.count < rank);
    if b == finite {
        let last_edge = buckets[finite - 1].le;
        return Ok(BucketQuantile {
            q,
            value: last_edge,
            lower_bound: Some(last_edge),
            upper_bound: None,
        });
    }
    if b == 0 && buckets[0].le <= 0.0 {
        return Ok(BucketQuantile {
            q,
            value: buckets[0].le,
            lower_bound: None,
            upper_bound: Some(buckets[0].le),
        });
    }
    let end = buckets[b].le;
    let (start, mut count) = (
        if b == 0 { 0.0 } else { buckets[b - 1].le },
        buckets[b].count,
    );
    if b > 0 {
        count -= buckets[b - 1].count;
        rank -= buckets[b - 1].count;
    }
    Ok(BucketQuantile {
        q,
        value: start + (end - start) * (rank / count),
        lower_bound: Some(start),
        upper_bound: Some(end),
    })
}

/// Sorted by edge, equal edges merged, counts forced monotonic.
fn normalise(buckets: &[CumulativeBucket]) -> Vec<CumulativeBucket> {
    let mut sorted: Vec<CumulativeBucket> =
        buckets.iter().filter(|b| !b.le.is_nan()).copied().collect();
    sorted.sort_by(|a, b| a.le.partial_cmp(&b.le).unwrap_or(Ordering::Equal));
    let mut merged: Vec<CumulativeBucket> = Vec::with_capacity(sorted.len());
    for bucket in sorted {
        match merged.last_mut() {
            Some(last) if last.le == bucket.le => last.count += bucket.count,
            _ => merged.push(bucket),
        }
    }
    let mut running = f64::NEG_INFINITY;
    for bucket in &mut merged {
        running = running.max(bucket.count);
        bucket.count = running;
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buckets(pairs: &[(f64, f64)]) -> Vec<CumulativeBucket> {
        pairs
            .iter()
            .map(|&(le, count)| CumulativeBucket { le, count })
            .collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn interpolates_inside_the_bucket_and_reports_its_edges() {
        // 10 observations ≤ 1, 30 ≤ 2, 40 in total.
        let h = buckets(&[(1.0, 10.0), (2.0, 30.0), (4.0, 40.0), (f64::INFINITY, 40.0)]);
        let p50 = histogram_quantile(0.5, &h).unwrap();
        // rank 20 → bucket (1, 2], 10 of its 20 → 1.5
        assert!(close(p50.value, 1.5));
        assert_eq!((p50.lower_bound, p50.upper_bound), (Some(1.0), Some(2.0)));
        assert_eq!(p50.error_bound(), Some(1.0));
        // rank 4 → first bucket, lower edge 0 → 0.4
        let p10 = histogram_quantile(0.1, &h).unwrap();
        assert!(close(p10.value, 0.4));
        assert_eq!(p10.lower_bound, Some(0.0));
        // rank 38 → bucket (2, 4], 8 of 10 → 3.6
        assert!(close(histogram_quantile(0.95, &h).unwrap().value, 3.6));
    }

    #[test]
    fn a_rank_in_the_inf_bucket_returns_the_last_finite_edge_unbounded_above() {
        let h = buckets(&[(f64::INFINITY, 10.0), (1.0, 5.0)]);
        let p90 = histogram_quantile(0.9, &h).unwrap();
        assert_eq!(p90.value, 1.0);
        assert_eq!((p90.lower_bound, p90.upper_bound), (Some(1.0), None));
        assert_eq!(p90.error_bound(), None);
    }

    #[test]
    fn merges_equal_edges_and_forces_monotonic_counts() {
        // two engines with the same buckets, and a bucket slightly below its predecessor
        let h = buckets(&[
            (1.0, 2.0),
            (1.0, 2.0),
            (2.0, 3.9),
            (3.0, 3.8),
            (f64::INFINITY, 4.0),
        ]);
        // after normalising: (1, 4), (2, 3.9 → 4), (3, 4), (+Inf, 4); rank 2 → first bucket
        let p50 = histogram_quantile(0.5, &h).unwrap();
        assert!(close(p50.value, 0.5));
    }

    #[test]
    fn refuses_what_prometheus_would_return_nan_for() {
        assert_eq!(
            histogram_quantile(0.5, &buckets(&[(1.0, 3.0)])),
            Err(HistogramError::NoInfBucket)
        );
        assert_eq!(
            histogram_quantile(0.5, &buckets(&[(1.0, 0.0), (f64::INFINITY, 0.0)])),
            Err(HistogramError::NoObservations)
        );
        assert_eq!(
            histogram_quantile(1.5, &buckets(&[(1.0, 1.0), (f64::INFINITY, 1.0)])),
            Err(HistogramError::QuantileOutOfRange)
        );
    }

    #[test]
    fn infinite_edges_survive_json() {
        let h = buckets(&[(0.5, 1.0), (f64::INFINITY, 2.0)]);
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(
            json,
            r#"[{"le":0.5,"count":1.0},{"le":"+Inf","count":2.0}]"#
        );
        let back: Vec<CumulativeBucket> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, h);
    }

    #[test]
    fn a_first_bucket_at_or_below_zero_returns_its_edge() {
        let h = buckets(&[(-1.0, 5.0), (0.0, 6.0), (f64::INFINITY, 10.0)]);
        let q = histogram_quantile(0.2, &h).unwrap();
        assert_eq!(
            (q.value, q.lower_bound, q.upper_bound),
            (-1.0, None, Some(-1.0))
        );
    }
}
