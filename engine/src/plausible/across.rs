//! Plausibility across fields: rules that relate two or more numbers of one file.
//!
//! Why: every number of a file can pass its own rule ([`super::check`]) while the file as a
//! whole is impossible. A TTFT p50 of 5,000 ms is a possible latency and so is a p99 of 10 ms,
//! but not in one distribution; 89 completed requests are a possible count and 0 s a possible
//! duration, but not in one run. Such a file used to be stored, and every figure derived from it
//! (rates, percentile charts, verdicts) was then wrong without anything saying so.
//!
//! Each rule is a [`Rule`] with its words written once ([`Rule::words`]); a broken rule is a
//! [`Broken`]: the field at fault as the file names it, and a message that gives the values and
//! the rule in parentheses, which the importer puts into its own error type:
//!
//! `field "p50_ttft_ms": 5000 ms is above p99_ttft_ms = 10 ms (percentiles must not decrease: …)`
//!
//! **Slack.** Tools round what they write (AIPerf's CSV to two decimals) and compute means as
//! floating-point sums (guidellm writes a mean of 128.00000000000006 tokens over values that are
//! all 128). Rounding to fixed digits is monotone, so it never turns `a ≤ b` into `a > b`, but
//! summation and unit conversion can, by a few units in the last place. So ordered pairs of
//! measured values compare with [`Slack::MEASURED`] (relative 1e-6, plus an absolute 1e-3 in
//! the unit, i.e. one microsecond for milliseconds); whole counts compare exactly
//! ([`Slack::EXACT`]); figures a tool derived by division and printed rounded (throughputs,
//! vLLM's "requested memory") get the wider tolerance their rule states.
//!
//! The table of rules, which formats apply them and why they must hold is in
//! `engine/PLAUSIBILITY.md` ("Across fields").

use super::fmt_value;
use std::fmt;

/// How far an ordered pair may appear out of order before it counts as broken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slack {
    /// Times the larger magnitude of the two values.
    pub relative: f64,
    /// In the values' own unit.
    pub absolute: f64,
}

impl Slack {
    /// Measured values that a tool summed, converted or rounded (see the module docs).
    pub const MEASURED: Slack = Slack {
        relative: 1e-6,
        absolute: 1e-3,
    };
    /// Whole counts: compared exactly.
    pub const EXACT: Slack = Slack {
        relative: 0.0,
        absolute: 0.0,
    };

    /// The allowed excess of `a` over `b`.
    pub fn of(self, a: f64, b: f64) -> f64 {
        self.relative * a.abs().max(b.abs()) + self.absolute
    }
}

/// How far a throughput may be from count ÷ duration (2 %, or one unit of the count): both
/// figures may be printed to three significant digits.
pub const RATE_TOLERANCE: f64 = 0.02;

/// A rule across fields (or, for a few, one field whose bound comes from a definition rather
/// than from its kind of quantity). [`Rule::words`] is what every message says in parentheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    PercentilesOrdered,
    MeanWithinRange,
    TtftWithinE2e,
    ChunksWithinE2e,
    OutcomesWithinTotal,
    DurationWhenCompleted,
    ThroughputMatchesDuration,
    EndAfterStart,
    DurationMatchesClock,
    HistogramCumulative,
    HistogramInfIsCount,
    HistogramSumWithinBuckets,
    SeriesUnique,
    HitsWithinQueries,
    AtLeastOne,
    Perplexity,
    BitsPerByte,
    FractionStderr,
    SamplesWithinOriginal,
    BatchHoldsSequences,
    RequestedMemory,
    WeightsWithinGpu,
}

impl Rule {
    /// Every rule, in the order `PLAUSIBILITY.md` lists them.
    pub const ALL: [Rule; 22] = [
        Rule::PercentilesOrdered,
        Rule::MeanWithinRange,
        Rule::TtftWithinE2e,
        Rule::ChunksWithinE2e,
        Rule::OutcomesWithinTotal,
        Rule::DurationWhenCompleted,
        Rule::ThroughputMatchesDuration,
        Rule::EndAfterStart,
        Rule::DurationMatchesClock,
        Rule::HistogramCumulative,
        Rule::HistogramInfIsCount,
        Rule::HistogramSumWithinBuckets,
        Rule::SeriesUnique,
        Rule::HitsWithinQueries,
        Rule::AtLeastOne,
        Rule::Perplexity,
        Rule::BitsPerByte,
        Rule::FractionStderr,
        Rule::SamplesWithinOriginal,
        Rule::BatchHoldsSequences,
        Rule::RequestedMemory,
        Rule::WeightsWithinGpu,
    ];

    /// The rule's words, as every message about it ends (in parentheses).
    pub fn words(self) -> &'static str {
        match self {
            Rule::PercentilesOrdered => {
                "percentiles must not decrease: min ≤ p50 ≤ p90 ≤ p95 ≤ p99 ≤ max"
            }
            Rule::MeanWithinRange => "a mean lies between the minimum and the maximum",
            Rule::TtftWithinE2e => "the first token cannot come after the last: TTFT ≤ E2E",
            Rule::ChunksWithinE2e => {
                "the first token and the gaps between chunks fit in the request: TTFT + ΣITL ≤ E2E"
            }
            Rule::OutcomesWithinTotal => "completed + failed ≤ the requests sent",
            Rule::DurationWhenCompleted => "a run that completed requests took time: duration > 0",
            Rule::ThroughputMatchesDuration => {
                "throughput = count ÷ duration, within 2 % or the rounding of its digits"
            }
            Rule::EndAfterStart => "an end cannot come before its start",
            Rule::DurationMatchesClock => "the duration is end − start, within 10 ms",
            Rule::HistogramCumulative => {
                "histogram buckets are cumulative: a bucket with a larger le counts at least as many"
            }
            Rule::HistogramInfIsCount => {
                "the le=\"+Inf\" bucket counts every observation: it equals _count"
            }
            Rule::HistogramSumWithinBuckets => {
                "_sum lies between the observations' bucket edges: Σ count × lower edge ≤ _sum ≤ Σ count × upper edge"
            }
            Rule::SeriesUnique => "a series (name and label set) appears once per scrape",
            Rule::HitsWithinQueries => "a cache hit is a query that hit: hits ≤ queries",
            Rule::AtLeastOne => "must be a whole number ≥ 1",
            Rule::Perplexity => {
                "a perplexity is exp(mean negative log-likelihood) and a likelihood is at most 1: ≥ 1"
            }
            Rule::BitsPerByte => "bits per byte is −log₂ of a likelihood per byte: ≥ 0",
            Rule::FractionStderr => {
                "the standard error of a mean of 0–1 values is at most 0.5/√(n−1) ≤ 0.5"
            }
            Rule::SamplesWithinOriginal => "the effective samples are at most the original ones",
            Rule::BatchHoldsSequences => {
                "vLLM refuses max_num_batched_tokens < max_num_seqs: every scheduled sequence needs a token"
            }
            Rule::RequestedMemory => {
                "vLLM's requested memory is total_gpu_memory × gpu_memory_utilization, within the printed digits"
            }
            Rule::WeightsWithinGpu => {
                "the weights of one worker fit in its GPU: weights ≤ total GPU memory"
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// A broken rule: the field at fault (as the file names it) and the message, which ends with
/// the rule's words in parentheses.
#[derive(Clone, Debug, PartialEq)]
pub struct Broken {
    pub rule: Rule,
    pub field: String,
    pub message: String,
}

impl Broken {
    /// `what (rule words)`, about `field`.
    pub fn new(rule: Rule, field: &str, what: impl fmt::Display) -> Self {
        Broken {
            rule,
            field: field.to_string(),
            message: format!("{what} ({})", rule.words()),
        }
    }
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field \"{}\": {}", self.field, self.message)
    }
}

/// A value and the field that holds it, as the file names it.
pub type Named<'a> = (&'a str, f64);

/// `12.5 ms`, `3`, `1e308 s`: a value and its unit (`unit` with its leading space, or `""`).
fn shown(v: f64, unit: &str) -> String {
    format!("{}{unit}", fmt_value(v))
}

/// Values that must not decrease in the order given. The first value above a later one is the
/// field at fault, compared with the smallest value after it: `5000 ms is above p99_ttft_ms =
/// 10 ms`.
pub fn non_decreasing(rule: Rule, items: &[Named], unit: &str, slack: Slack) -> Result<(), Broken> {
    for (i, &(field, v)) in items.iter().enumerate() {
        let later = items[i + 1..].iter().min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some(&(other, w)) = later
            && v - w > slack.of(v, w)
        {
            return Err(Broken::new(
                rule,
                field,
                format!("{} is above {other} = {}", shown(v, unit), shown(w, unit)),
            ));
        }
    }
    Ok(())
}

/// The statistics of one distribution in ascending order (min, percentiles by p, max) must not
/// decrease ([`Rule::PercentilesOrdered`]).
pub fn percentiles_ordered(items: &[Named], unit: &str) -> Result<(), Broken> {
    non_decreasing(Rule::PercentilesOrdered, items, unit, Slack::MEASURED)
}

/// A mean within its distribution's minimum and maximum ([`Rule::MeanWithinRange`]).
pub fn mean_within(
    mean: Named,
    min: Option<Named>,
    max: Option<Named>,
    unit: &str,
) -> Result<(), Broken> {
    let (field, v) = mean;
    let slack = Slack::MEASURED;
    if let Some((low_field, low)) = min
        && low - v > slack.of(v, low)
    {
        let what = format!(
            "{} is below {low_field} = {}",
            shown(v, unit),
            shown(low, unit)
        );
        return Err(Broken::new(Rule::MeanWithinRange, field, what));
    }
    if let Some((high_field, high)) = max
        && v - high > slack.of(v, high)
    {
        let what = format!(
            "{} is above {high_field} = {}",
            shown(v, unit),
            shown(high, unit)
        );
        return Err(Broken::new(Rule::MeanWithinRange, field, what));
    }
    Ok(())
}

/// A statistic of TTFT at most the same statistic of E2E, both in ms ([`Rule::TtftWithinE2e`]).
pub fn ttft_within_e2e(ttft: Named, e2e: Named) -> Result<(), Broken> {
    non_decreasing(Rule::TtftWithinE2e, &[ttft, e2e], " ms", Slack::MEASURED)
}

/// One request's TTFT plus its chunk gaps at most its E2E, all in ms
/// ([`Rule::ChunksWithinE2e`]); `gaps` names the list.
pub fn chunks_within_e2e(ttft: Named, gaps: (&str, &[f64]), e2e: Named) -> Result<(), Broken> {
    let (gaps_field, list) = gaps;
    if list.is_empty() {
        return Ok(());
    }
    let sum: f64 = list.iter().sum();
    let total = ttft.1 + sum;
    if total - e2e.1 > Slack::MEASURED.of(total, e2e.1) {
        let what = format!(
            "{} = {} + the {} gaps summing to {} is above {} = {}",
            shown(total, " ms"),
            ttft.0,
            list.len(),
            shown(sum, " ms"),
            e2e.0,
            shown(e2e.1, " ms")
        );
        return Err(Broken::new(Rule::ChunksWithinE2e, gaps_field, what));
    }
    Ok(())
}

/// Completed plus failed requests at most the requests sent ([`Rule::OutcomesWithinTotal`]);
/// the field at fault is `failed` when given.
pub fn outcomes_within_total(
    completed: (&str, u64),
    failed: Option<(&str, u64)>,
    total: (&str, u64),
) -> Result<(), Broken> {
    let failed_n = failed.map_or(0, |f| f.1);
    let sum = completed.1.saturating_add(failed_n);
    if sum <= total.1 {
        return Ok(());
    }
    let (field, what) = match failed {
        Some((failed_field, f)) => (
            failed_field,
            format!(
                "{} completed + {f} failed = {sum} is more than {} = {}",
                completed.1, total.0, total.1
            ),
        ),
        None => (
            completed.0,
            format!("{sum} is more than {} = {}", total.0, total.1),
        ),
    };
    Err(Broken::new(Rule::OutcomesWithinTotal, field, what))
}

/// A positive duration when any request completed ([`Rule::DurationWhenCompleted`]).
pub fn duration_when_completed(duration_s: Named, completed: (&str, u64)) -> Result<(), Broken> {
    if completed.1 == 0 || duration_s.1 > 0.0 {
        return Ok(());
    }
    let what = format!(
        "{} with {} = {}",
        shown(duration_s.1, " s"),
        completed.0,
        completed.1
    );
    Err(Broken::new(Rule::DurationWhenCompleted, duration_s.0, what))
}

/// A throughput that is count ÷ duration ([`Rule::ThroughputMatchesDuration`]): within
/// [`RATE_TOLERANCE`] of count ÷ duration, of one unit of the count, or of half a unit in the
/// last digit the rate is written with (a report that gives 30 requests in 401.89 s as 0.07
/// requests/s rounded 0.0746 to two decimals). Nothing to check without a positive duration
/// ([`duration_when_completed`] covers that).
pub fn rate_matches(
    rate: Named,
    count: Named,
    duration_s: Named,
    unit: &str,
) -> Result<(), Broken> {
    let (d, n, r) = (duration_s.1, count.1, rate.1);
    if d <= 0.0 {
        return Ok(());
    }
    let expected = n / d;
    let tolerance = (RATE_TOLERANCE * expected)
        .max(1.0 / d)
        .max(half_last_digit(r));
    if (r - expected).abs() <= tolerance {
        return Ok(());
    }
    let what = format!(
        "{} is not {} ÷ {} = {} ÷ {} = {}",
        shown(r, unit),
        count.0,
        duration_s.0,
        fmt_value(n),
        shown(d, " s"),
        shown(n / d, unit)
    );
    Err(Broken::new(Rule::ThroughputMatchesDuration, rate.0, what))
}

/// Half a unit in the last decimal of `v` as written in its shortest form (`0.07` → 0.005,
/// `18.099050849929373` → 5e-16, `120` → 0.5).
fn half_last_digit(v: f64) -> f64 {
    let text = format!("{v}");
    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
    0.5 * 10f64.powi(-(decimals.min(300) as i32))
}

/// An end at or after its start, both in `unit` ([`Rule::EndAfterStart`]); the end is at fault.
pub fn end_after_start(start: Named, end: Named, unit: &str) -> Result<(), Broken> {
    if end.1 >= start.1 {
        return Ok(());
    }
    let what = format!(
        "{} is before {} = {}",
        shown(end.1, unit),
        start.0,
        shown(start.1, unit)
    );
    Err(Broken::new(Rule::EndAfterStart, end.0, what))
}

/// A duration that is end − start, all in seconds ([`Rule::DurationMatchesClock`]; slack: 10 ms,
/// as AIPerf's CSV prints the duration to two decimals, plus 1e-6 relative).
pub fn duration_matches_clock(
    duration_s: Named,
    start_s: Named,
    end_s: Named,
) -> Result<(), Broken> {
    let elapsed = end_s.1 - start_s.1;
    let slack = Slack {
        relative: 1e-6,
        absolute: 0.01,
    };
    if (duration_s.1 - elapsed).abs() <= slack.of(duration_s.1, elapsed) {
        return Ok(());
    }
    let what = format!(
        "{} is not {} − {} = {}",
        shown(duration_s.1, " s"),
        end_s.0,
        start_s.0,
        shown(elapsed, " s")
    );
    Err(Broken::new(Rule::DurationMatchesClock, duration_s.0, what))
}

/// A count that sizes something (GPUs, parallel ranks, sequences, tokens of a context, a block)
/// as a whole number ≥ 1 ([`Rule::AtLeastOne`]); `noun` names it in the message.
pub fn at_least_one(field: &str, noun: &str, value: f64) -> Result<u64, Broken> {
    if value >= 1.0 && value.fract() == 0.0 && value <= super::COUNT_MAX {
        return Ok(value as u64);
    }
    let what = format!("{} is not a possible {noun}", fmt_value(value));
    Err(Broken::new(Rule::AtLeastOne, field, what))
}

/// A value at least `low`, by the definition `rule` states (a perplexity ≥ 1, bits per byte ≥
/// 0); `noun` names it in the message. NaN and infinities are refused too.
pub fn at_least(rule: Rule, field: &str, noun: &str, value: f64, low: f64) -> Result<f64, Broken> {
    if value.is_finite() && value >= low {
        return Ok(value);
    }
    let what = format!("{} is not a possible {noun}", fmt_value(value));
    Err(Broken::new(rule, field, what))
}

/// `product` is `a × b` within `tolerance` (in `unit`), e.g. vLLM's requested memory
/// ([`Rule::RequestedMemory`]).
pub fn product_matches(
    rule: Rule,
    product: Named,
    a: Named,
    b: Named,
    unit: &str,
    tolerance: f64,
) -> Result<(), Broken> {
    let expected = a.1 * b.1;
    if (product.1 - expected).abs() <= tolerance {
        return Ok(());
    }
    let what = format!(
        "{} is not {} × {} = {} × {} = {}",
        shown(product.1, unit),
        a.0,
        b.0,
        fmt_value(a.1),
        fmt_value(b.1),
        shown(expected, unit)
    );
    Err(Broken::new(rule, product.0, what))
}

/// One histogram series' buckets as (field, `le`, cumulative count), in ascending `le`: the
/// counts must not decrease ([`Rule::HistogramCumulative`]), and the `+Inf` bucket must equal
/// `_count` ([`Rule::HistogramInfIsCount`]). Counts are whole numbers, compared exactly.
pub fn histogram_cumulative(buckets: &[(&str, f64, f64)], count: Named) -> Result<(), Broken> {
    let counts: Vec<Named> = buckets.iter().map(|&(f, _, n)| (f, n)).collect();
    non_decreasing(Rule::HistogramCumulative, &counts, "", Slack::EXACT)?;
    if let Some(&(inf_field, le, n)) = buckets.last()
        && le == f64::INFINITY
        && n != count.1
    {
        let what = format!("{} but {inf_field} = {}", fmt_value(count.1), fmt_value(n));
        return Err(Broken::new(Rule::HistogramInfIsCount, count.0, what));
    }
    Ok(())
}

/// `_sum` between what the buckets allow for non-negative observations
/// ([`Rule::HistogramSumWithinBuckets`]): each observation of the bucket `(le₁, le₂]` lies in
/// it, the first bucket's lower edge is 0, and the upper bound exists only when the `+Inf`
/// bucket holds nothing beyond the last finite one. `buckets` = (`le`, cumulative count) in
/// ascending `le`.
pub fn histogram_sum_within(sum: Named, buckets: &[(f64, f64)]) -> Result<(), Broken> {
    let (mut lower, mut upper) = (0.0, 0.0);
    let (mut below, mut edge) = (0.0, 0.0);
    for &(le, cumulative) in buckets {
        let n = cumulative - below;
        if n > 0.0 {
            lower += n * edge;
            upper += n * le;
        }
        below = cumulative;
        edge = le;
    }
    let slack = Slack {
        relative: 1e-6,
        absolute: 1e-9,
    };
    let what = if lower - sum.1 > slack.of(lower, sum.1) {
        format!("{} is below {}", fmt_value(sum.1), fmt_value(lower))
    } else if upper.is_finite() && sum.1 - upper > slack.of(upper, sum.1) {
        format!("{} is above {}", fmt_value(sum.1), fmt_value(upper))
    } else {
        return Ok(());
    };
    Err(Broken::new(Rule::HistogramSumWithinBuckets, sum.0, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_values_and_the_rule() {
        let err = percentiles_ordered(
            &[
                ("p50_ttft_ms", 5000.0),
                ("p90_ttft_ms", 20.0),
                ("p99_ttft_ms", 10.0),
            ],
            " ms",
        )
        .unwrap_err();
        assert_eq!(err.field, "p50_ttft_ms");
        assert_eq!(
            err.message,
            "5000 ms is above p99_ttft_ms = 10 ms (percentiles must not decrease: min ≤ p50 ≤ \
             p90 ≤ p95 ≤ p99 ≤ max)"
        );
        let err =
            ttft_within_e2e(("mean_ttft_ms", 1_680_543.0), ("mean_e2el_ms", 7937.0)).unwrap_err();
        assert!(err.message.contains("TTFT ≤ E2E"), "{err}");
        let err = duration_when_completed(("duration", 0.0), ("completed", 89)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "field \"duration\": 0 s with completed = 89 (a run that completed requests took \
             time: duration > 0)"
        );
    }

    #[test]
    fn rounding_and_float_sums_are_not_errors() {
        // guidellm: a mean of 128-token answers summed to 128.00000000000006.
        assert!(
            mean_within(
                ("mean", 128.000_000_000_000_06),
                Some(("min", 128.0)),
                Some(("max", 128.0)),
                ""
            )
            .is_ok()
        );
        assert!(
            mean_within(
                ("mean", 127.999_999_999_999_99),
                Some(("min", 128.0)),
                None,
                ""
            )
            .is_ok()
        );
        assert!(mean_within(("mean", 127.9), Some(("min", 128.0)), None, "").is_err());
        // AIPerf: TTFT + Σ gaps = E2E up to 5e-12 ms.
        let gaps = [134.440792, 141.307763];
        let e2e = 1680.543782 + 134.440792 + 141.307763;
        assert!(chunks_within_e2e(("t", 1680.543782), ("g", &gaps), ("e", e2e - 4.5e-12)).is_ok());
        assert!(chunks_within_e2e(("t", 1680.543782), ("g", &gaps), ("e", e2e - 1.0)).is_err());
        // CSV figures to two decimals: 9.55 req/s × 9.32 s against 89 requests.
        assert!(rate_matches(("r", 9.55), ("n", 89.0), ("d", 9.32), " req/s").is_ok());
        assert!(rate_matches(("r", 19.1), ("n", 89.0), ("d", 9.32), " req/s").is_err());
        // vLLM: 14.74 GiB × 0.89 printed as 13.18 GiB (the utilisation had more digits).
        let tolerance = 0.006 * 14.74 + 0.01;
        let requested = ("r", 13.18);
        assert!(
            product_matches(
                Rule::RequestedMemory,
                requested,
                ("t", 14.74),
                ("u", 0.89),
                " GiB",
                tolerance
            )
            .is_ok()
        );
    }

    #[test]
    fn histograms_are_cumulative_and_their_sum_fits_the_buckets() {
        let ok = [
            ("a", 0.5, 0.0),
            ("b", 0.8, 23.0),
            ("c", f64::INFINITY, 24.0),
        ];
        assert!(histogram_cumulative(&ok, ("count", 24.0)).is_ok());
        let down = [
            ("a", 0.5, 30.0),
            ("b", 0.8, 23.0),
            ("c", f64::INFINITY, 30.0),
        ];
        assert_eq!(
            histogram_cumulative(&down, ("count", 30.0))
                .unwrap_err()
                .field,
            "a"
        );
        let err = histogram_cumulative(&ok, ("count", 25.0)).unwrap_err();
        assert_eq!(err.rule, Rule::HistogramInfIsCount);
        let buckets = [(0.5, 0.0), (0.8, 23.0), (1.0, 24.0), (f64::INFINITY, 24.0)];
        assert!(histogram_sum_within(("sum", 15.0), &buckets).is_ok());
        assert!(histogram_sum_within(("sum", 30.0), &buckets).is_err());
        assert!(histogram_sum_within(("sum", 1.0), &buckets).is_err());
        let open = [(0.5, 0.0), (f64::INFINITY, 2.0)];
        assert!(histogram_sum_within(("sum", 1e9), &open).is_ok());
    }

    #[test]
    fn every_rule_has_its_own_words() {
        let words: std::collections::BTreeSet<&str> = Rule::ALL.iter().map(|r| r.words()).collect();
        assert_eq!(words.len(), Rule::ALL.len());
    }
}
