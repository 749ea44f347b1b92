//! Plausibility at the boundary: what every importer checks a number against before accepting it.
//!
//! Why: an importer that accepts any number that parses lets impossible values in (a TTFT of
//! −12.5 ms, an lm-eval accuracy of 7.5, a counter of 1e308 that overflows to infinity when two
//! series are summed). Such a value then poisons every figure derived from it, and a non-finite
//! one cannot even be stored: `serde_json` writes `inf`/`NaN` as `null`, the stored row no longer
//! reads back into its type, and the page that shows it fails. So every importer asks this module,
//! one rule per kind of quantity, and refuses the file with its own error type naming the file,
//! the line (where the format has lines) and the field, with the one message written here:
//!
//! `results.json: field "mean_ttft_ms": -12.5 ms is not a possible latency (must be finite and ≥ 0)`
//!
//! The rules and their bounds (the table per format is in `engine/PLAUSIBILITY.md`):
//!
//! | quantity | rule | why this bound |
//! |---|---|---|
//! | [`Quantity::Latency`] (one request, ms) | finite, 0 ≤ v ≤ 10⁹ ms (≈ 11.6 days) | no HTTP request to a model server stays open for days; vLLM's own latency histograms end at 7,680 s, and gateways time out after minutes. A larger figure is a unit mistake (ns read as ms) or garbage |
//! | [`Quantity::Duration`] (a run, a window, s) | finite, 0 ≤ v ≤ 10⁸ s (≈ 3.2 years) | longer than any load test, log or scrape pair a pilot imports; keeps rates = count ÷ duration meaningful |
//! | [`Quantity::Count`] (requests, tokens, Prometheus counters and `_count`/`_sum`/`_bucket`) | finite, 0 ≤ v ≤ 2⁵³ = 9,007,199,254,740,992 | the largest whole number an `f64` holds exactly; beyond it `n + 1 == n`, and a handful of such values summed reach infinity. Sums across series are checked too ([`checked_sum`]) |
//! | [`Quantity::Fraction`] (accuracy, `acc_norm`, `exact_match`, pass rates, cache hit rates, goodput fractions, KV-cache usage) | finite, 0 ≤ v ≤ 1 | a fraction of a whole |
//! | [`Quantity::StdError`] | finite, 0 ≤ v ≤ 2⁵³ | a spread is never negative |
//! | [`Quantity::Rate`] (throughput, request rate, concurrency, tokens/s) | finite, 0 ≤ v ≤ 2⁵³ | never negative; the counter bound keeps sums and products finite |
//! | [`Quantity::MemoryGib`] (per device, GiB) | finite, 0 ≤ v ≤ 2,048 GiB (2 TiB) | the largest GPUs today have 288 GB of HBM (NVIDIA B300, AMD MI355X) and GH200's unified CPU+GPU memory is 624 GB; 2 TiB is over three times that. `1e308 GiB` is not a GPU |
//! | [`Quantity::SignedMemoryGib`] (vLLM's "available KV cache memory", which goes negative when the weights do not fit) | finite, −2,048 ≤ v ≤ 2,048 GiB | as above, both ways |
//! | [`Quantity::ClockSeconds`] (a clock reading: `perf_counter` or Unix seconds) | finite, 0 ≤ v < 4.1 × 10⁹ s (2100-01-01 as Unix seconds) | the end of the instant window below |
//! | instants ([`instant_ms`]) | 2000-01-01 ≤ t < 2100-01-01 | [`crate::traffic::timestamp::check_plausible`]: anything else is a unit mistake or a placeholder |
//!
//! Unit inference for numeric instants ([`crate::traffic::timestamp::unix_number_to_plausible_ms`]):
//! a number is Unix seconds, milliseconds, microseconds or nanoseconds only if, read in that unit,
//! it lands in the window above (the four windows do not overlap, so at most one unit fits); a
//! number that fits none is refused with what it would be in each unit, and the gateway readers
//! refuse a record whose numeric instants fit different units (`start_time: 1e18` beside an
//! `end_time` in seconds) instead of silently reading one of them as nanoseconds.
//!
//! Rules that relate several numbers of one file (percentiles in order, TTFT ≤ E2E, histogram
//! buckets cumulative, …) are in [`across`], re-exported here.

pub mod across;

pub use across::{Broken, Rule, Slack};

use std::fmt;

/// 2⁵³: the largest whole number an `f64` holds exactly (see the module docs).
pub const COUNT_MAX: f64 = 9_007_199_254_740_992.0;

/// The longest plausible single-request latency, ms (≈ 11.6 days; see the module docs).
pub const LATENCY_MAX_MS: f64 = 1e9;

/// The longest plausible run or window, seconds (≈ 3.2 years; see the module docs).
pub const DURATION_MAX_S: f64 = 1e8;

/// The most memory one device can plausibly have, GiB (2 TiB; see the module docs).
pub const MEMORY_MAX_GIB: f64 = 2048.0;

/// 2100-01-01T00:00:00Z as Unix seconds: the end of the instant window.
pub const CLOCK_MAX_S: f64 = 4_102_444_800.0;

/// What kind of quantity a number is, and so which rule it must meet (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// One request's latency (or part of it), milliseconds.
    Latency,
    /// The duration of a run or window, seconds.
    Duration,
    /// A count (requests, tokens, a Prometheus counter, a histogram's `_count`/`_sum`/`_bucket`).
    Count,
    /// A fraction of a whole: 0–1.
    Fraction,
    /// A standard error (or standard deviation of a score).
    StdError,
    /// A throughput or rate (per second), or a configured concurrency.
    Rate,
    /// A memory figure of one device, GiB.
    MemoryGib,
    /// A memory figure of one device that may be negative (a shortfall), GiB.
    SignedMemoryGib,
    /// A clock reading in seconds (`perf_counter` or Unix time).
    ClockSeconds,
}

impl Quantity {
    /// (lowest, highest) allowed value.
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Quantity::Latency => (0.0, LATENCY_MAX_MS),
            Quantity::Duration => (0.0, DURATION_MAX_S),
            Quantity::Count | Quantity::StdError | Quantity::Rate => (0.0, COUNT_MAX),
            Quantity::Fraction => (0.0, 1.0),
            Quantity::MemoryGib => (0.0, MEMORY_MAX_GIB),
            Quantity::SignedMemoryGib => (-MEMORY_MAX_GIB, MEMORY_MAX_GIB),
            Quantity::ClockSeconds => (0.0, CLOCK_MAX_S),
        }
    }

    /// The unit written after the value in messages (`""` for pure numbers).
    pub fn unit(self) -> &'static str {
        match self {
            Quantity::Latency => " ms",
            Quantity::Duration | Quantity::ClockSeconds => " s",
            Quantity::MemoryGib | Quantity::SignedMemoryGib => " GiB",
            _ => "",
        }
    }

    /// What the quantity is called in messages.
    pub fn noun(self) -> &'static str {
        match self {
            Quantity::Latency => "latency",
            Quantity::Duration => "duration",
            Quantity::Count => "count",
            Quantity::Fraction => "fraction",
            Quantity::StdError => "standard error",
            Quantity::Rate => "rate",
            Quantity::MemoryGib | Quantity::SignedMemoryGib => "memory figure for one GPU",
            Quantity::ClockSeconds => "clock reading",
        }
    }

    /// The lower rule in words (what a NaN, infinite or too-small value breaks).
    fn lower_rule(self) -> &'static str {
        match self {
            Quantity::Fraction => "must be between 0 and 1",
            Quantity::SignedMemoryGib => "must be finite and between −2048 and 2048 GiB",
            _ => "must be finite and ≥ 0",
        }
    }

    /// The upper rule in words (what a too-large value breaks).
    fn upper_rule(self) -> &'static str {
        match self {
            Quantity::Latency => "must be at most 1e9 ms ≈ 11.6 days",
            Quantity::Duration => "must be at most 1e8 s ≈ 3.2 years",
            Quantity::Count => "must be at most 2^53 = 9,007,199,254,740,992",
            Quantity::StdError | Quantity::Rate => "must be at most 2^53 = 9,007,199,254,740,992",
            Quantity::Fraction => "must be between 0 and 1",
            Quantity::MemoryGib => "must be at most 2048 GiB = 2 TiB per device",
            Quantity::SignedMemoryGib => "must be finite and between −2048 and 2048 GiB",
            Quantity::ClockSeconds => "must be before 2100-01-01 as Unix seconds (4.1e9 s)",
        }
    }
}

/// A number that breaks its rule: the value, the rule, and the sentence for the error message.
#[derive(Clone, Debug, PartialEq)]
pub struct Implausible {
    pub value: f64,
    pub quantity: Quantity,
    pub message: String,
}

impl fmt::Display for Implausible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Implausible> for String {
    fn from(value: Implausible) -> Self {
        value.message
    }
}

/// A number as messages show it: `-12.5`, `1e308` (not 309 digits), `NaN`, `inf`.
pub fn fmt_value(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else if v != 0.0 && (v.abs() >= 1e15 || v.abs() < 1e-6) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `Ok(value)` when `value` meets the rule of `quantity`; otherwise the one message for it:
/// `-12.5 ms is not a possible latency (must be finite and ≥ 0)`.
pub fn check(quantity: Quantity, value: f64) -> Result<f64, Implausible> {
    let (low, high) = quantity.bounds();
    let rule = if value.is_nan() || value.is_infinite() || value < low {
        if value == f64::INFINITY && quantity != Quantity::Fraction {
            Some(quantity.upper_rule())
        } else {
            Some(quantity.lower_rule())
        }
    } else if value > high {
        Some(quantity.upper_rule())
    } else {
        None
    };
    match rule {
        None => Ok(value),
        Some(rule) => Err(Implausible {
            value,
            quantity,
            message: format!(
                "{}{} is not a possible {} ({rule})",
                fmt_value(value),
                quantity.unit(),
                quantity.noun()
            ),
        }),
    }
}

/// [`check`] on an optional value.
pub fn check_opt(quantity: Quantity, value: Option<f64>) -> Result<Option<f64>, Implausible> {
    value.map(|v| check(quantity, v)).transpose()
}

/// A whole count given as a number: [`Quantity::Count`] and no fraction.
pub fn whole_count(value: f64) -> Result<u64, Implausible> {
    let v = check(Quantity::Count, value)?;
    if v.fract() != 0.0 {
        return Err(Implausible {
            value,
            quantity: Quantity::Count,
            message: format!(
                "{} is not a possible count (must be a whole number)",
                fmt_value(value)
            ),
        });
    }
    Ok(v as u64)
}

/// A whole count given as an integer: at most 2⁵³ (compared as an integer: 2⁵³ + 1 rounds to
/// 2⁵³ as an `f64`).
pub fn count_u64(value: u64) -> Result<u64, Implausible> {
    if value > 1 << 53 {
        return Err(Implausible {
            value: value as f64,
            quantity: Quantity::Count,
            message: format!(
                "{value} is not a possible count ({})",
                Quantity::Count.upper_rule()
            ),
        });
    }
    Ok(value)
}

/// The sum of counter values across the series of one family (`what` names it: the family,
/// `vllm:prompt_tokens`), refused when any value or the sum breaks [`Quantity::Count`]: two
/// series of 1e308 must not become an infinite total.
pub fn checked_sum(what: &str, values: impl IntoIterator<Item = f64>) -> Result<f64, String> {
    let mut sum = 0.0;
    let mut n = 0usize;
    for v in values {
        check(Quantity::Count, v).map_err(|e| format!("{what}: {e}"))?;
        sum += v;
        n += 1;
    }
    if sum > COUNT_MAX || !sum.is_finite() {
        return Err(format!(
            "{what}: the sum over {n} series is {}, more than 2^53 = 9,007,199,254,740,992 (the \
             largest count a float holds exactly): the values are not real counts",
            fmt_value(sum)
        ));
    }
    Ok(sum)
}

/// `a + b` for whole counts, refused beyond 2⁵³ (`what` names the total for the message).
pub fn add_counts(what: &str, a: u64, b: u64) -> Result<u64, String> {
    match a.checked_add(b) {
        Some(s) if s as f64 <= COUNT_MAX => Ok(s),
        _ => Err(format!(
            "{what}: the total exceeds 2^53 = 9,007,199,254,740,992, the largest count a float \
             holds exactly: the values are not real counts"
        )),
    }
}

/// An instant in Unix ms, refused outside 2000-01-01 ≤ t < 2100-01-01 (see
/// [`crate::traffic::timestamp::check_plausible`]).
pub fn instant_ms(unix_ms: i64) -> Result<i64, String> {
    crate::traffic::timestamp::check_plausible(unix_ms)
}

/// A Unix instant in nanoseconds (AIPerf's `timestamp_ns`, `request_start_ns`), refused outside
/// 2000–2099 like [`instant_ms`]: `timestamp_ns: 0` is 1970, and a duration from it spans 55
/// years. The message gives the value as written.
pub fn instant_ns(unix_ns: f64) -> Result<f64, String> {
    instant_in(unix_ns, 1e-6, " ns")
}

/// A Unix instant in seconds (guidellm's `start_time` and `end_time`), refused outside
/// 2000–2099 like [`instant_ms`].
pub fn instant_s(unix_s: f64) -> Result<f64, String> {
    instant_in(unix_s, 1e3, " s")
}

/// `value` (× `to_ms` is Unix ms) as an instant in 2000–2099; messages give it in its `unit`.
fn instant_in(value: f64, to_ms: f64, unit: &str) -> Result<f64, String> {
    let ms = value * to_ms;
    if !ms.is_finite() || ms.abs() > 9.0e15 {
        return Err(format!(
            "{}{unit} is not a possible instant (must lie between 2000-01-01 and 2100-01-01)",
            fmt_value(value)
        ));
    }
    instant_ms(ms.floor() as i64)
        .map(|_| value)
        .map_err(|why| format!("{}{unit}: {why}", fmt_value(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_value_the_quantity_and_the_rule() {
        assert_eq!(
            check(Quantity::Latency, -12.5).unwrap_err().message,
            "-12.5 ms is not a possible latency (must be finite and ≥ 0)"
        );
        assert_eq!(
            check(Quantity::Latency, 1e308).unwrap_err().message,
            "1e308 ms is not a possible latency (must be at most 1e9 ms ≈ 11.6 days)"
        );
        assert_eq!(
            check(Quantity::Fraction, 7.5).unwrap_err().message,
            "7.5 is not a possible fraction (must be between 0 and 1)"
        );
        assert_eq!(
            check(Quantity::StdError, -1.0).unwrap_err().message,
            "-1 is not a possible standard error (must be finite and ≥ 0)"
        );
        assert_eq!(
            check(Quantity::MemoryGib, 1e308).unwrap_err().message,
            "1e308 GiB is not a possible memory figure for one GPU (must be at most 2048 GiB = 2 TiB per device)"
        );
        assert!(
            check(Quantity::Count, f64::INFINITY)
                .unwrap_err()
                .message
                .starts_with("inf is not a possible count (must be at most 2^53")
        );
        assert!(check(Quantity::Rate, f64::NAN).is_err());
        assert!(check(Quantity::Fraction, f64::NAN).is_err());
        assert_eq!(check(Quantity::Latency, 0.0), Ok(0.0));
        assert_eq!(check(Quantity::Fraction, 1.0), Ok(1.0));
        assert_eq!(check(Quantity::SignedMemoryGib, -2.14), Ok(-2.14));
        assert_eq!(check(Quantity::Count, COUNT_MAX), Ok(COUNT_MAX));
        assert!(check(Quantity::Count, COUNT_MAX * 2.0).is_err());
    }

    #[test]
    fn counts_and_sums_stay_exact_and_finite() {
        assert_eq!(whole_count(89.0), Ok(89));
        assert!(whole_count(1.5).is_err());
        assert!(count_u64(u64::MAX).is_err());
        assert!(count_u64((1 << 53) + 1).is_err());
        assert_eq!(count_u64(1 << 53), Ok(1 << 53));
        assert_eq!(checked_sum("x", [1.0, 2.0]), Ok(3.0));
        let err = checked_sum("vllm:prompt_tokens", [1e308, 1e308]).unwrap_err();
        assert!(
            err.starts_with("vllm:prompt_tokens: 1e308 is not a possible count"),
            "{err}"
        );
        let err = checked_sum("vllm:prompt_tokens", [COUNT_MAX, COUNT_MAX]).unwrap_err();
        assert!(
            err.contains("the sum over 2 series is 1.8014398509481984e16"),
            "{err}"
        );
        assert!(add_counts("total_osl", u64::MAX, 1).is_err());
        assert_eq!(add_counts("t", 2, 3), Ok(5));
    }

    #[test]
    fn values_print_compactly() {
        assert_eq!(fmt_value(1e308), "1e308");
        assert_eq!(fmt_value(-12.5), "-12.5");
        assert_eq!(fmt_value(f64::NEG_INFINITY), "-inf");
        assert_eq!(fmt_value(0.0), "0");
    }
}
