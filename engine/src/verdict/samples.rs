//! How many samples a figure needs before it can grade a mark.
//!
//! A percentile of a handful of requests is not that percentile: with fewer than 1 ÷ (1 − p)
//! requests not even one request is expected above the p-th percentile, so the interpolated
//! "p99" of 30 requests lies between the two slowest requests seen. It describes the worst
//! request of a small sample, not the worst in a hundred. So a percentile mark needs at least
//! ⌈1 ÷ (1 − p)⌉ samples: **p50 2, p90 10, p95 20, p99 100** (the definition of a sample quantile
//! as an order statistic; Hyndman & Fan, "Sample quantiles in statistical packages", The
//! American Statistician 50(4), 1996, define them by rank (n − 1)·p, which at smaller n falls
//! into the last gap below the maximum).
//!
//! Rates likewise: a limit of r % can only be told from zero once one event is smaller than r,
//! i.e. after ⌈100 ÷ r⌉ requests (1 % → 100): a one-request gateway log with no error shows
//! nothing about an error rate ≤ 1 %. For a lower bound (≥ r %) the same holds for the misses,
//! ⌈100 ÷ (100 − r)⌉. A limit of exactly 0 % or 100 % needs 100 requests, the size at which an
//! event rate of 1 % would likely show. Evaluation-set rates are exempt: the set's size is the
//! plan's choice and is warned about separately (fewer than 50 questions, see
//! [`EVAL_SET_MINIMUM`]).
//!
//! Too few samples settle one side, though: a small sample's interpolated percentile sits at
//! or below its slowest request, and the slowest of n requests is itself only about the
//! n ÷ (n + 1) quantile, below p. So the sample understates a high percentile: a figure that
//! already **misses** an upper limit (≤, <) on a percentile fails with the sample size stated
//! ("30 requests: too few to show a p99 is met, enough to show it is missed"); one that meets it
//! shows nothing and is not graded. (The demo's V100 load test, 30 requests a point, so fails
//! its TTFT p99 ≤ 450 ms mark and leaves its TPOT p99 ≤ 40 ms mark open.)
//!
//! Means and maxima need one sample. A figure whose sample count is not stated is graded and
//! flagged.

use super::evidence::EvidenceStatistic;
use super::german;
use super::mismatch::Mismatch;
use crate::locale::Lang;
use crate::plan::{Comparator, MeasurementPoint, PassMark, Statistic, Unit};

/// The fewest questions an evaluation set should have: the guide's RAG advice is fifty to a
/// hundred real questions.
pub const EVAL_SET_MINIMUM: usize = 50;

/// `⌈x⌉` forgiving float noise just above an integer (1 ÷ (1 − 0.95) = 20.000000000000004).
fn ceil_tolerant(x: f64) -> u64 {
    (x - 1e-9).ceil().max(1.0) as u64
}

/// The fewest samples `mark` needs, and why; `None` when one is enough.
pub fn minimum_samples(mark: &PassMark) -> Option<(u64, String)> {
    minimum_samples_in(mark, Lang::En)
}

/// [`minimum_samples`] with the reason phrased in `lang`.
pub fn minimum_samples_in(mark: &PassMark, lang: Lang) -> Option<(u64, String)> {
    let percentile = match mark.statistic {
        Statistic::P50 => Some(0.50),
        Statistic::P90 => Some(0.90),
        Statistic::P95 => Some(0.95),
        Statistic::P99 => Some(0.99),
        _ => None,
    };
    if let Some(p) = percentile {
        let needed = ceil_tolerant(1.0 / (1.0 - p));
        let statistic = mark.statistic;
        return Some((
            needed,
            match lang {
                Lang::En => format!(
                    "a {statistic} needs at least {needed} requests: with fewer than 1 ÷ (1 − {p}) not even one request is expected above it, so the figure is just the slowest of the sample"
                ),
                Lang::De => format!(
                    "ein {statistic} braucht mindestens {}: bei weniger als 1 ÷ (1 − {}) ist nicht einmal eine Anfrage darüber zu erwarten, der Wert ist also nur die langsamste der Stichprobe",
                    german::requests(needed),
                    german::number(p)
                ),
            },
        ));
    }
    if mark.statistic != Statistic::Rate
        || mark.unit != Unit::Percent
        || mark.point == MeasurementPoint::EvaluationSet
    {
        return None;
    }
    let r = mark.threshold;
    if !r.is_finite() {
        return None;
    }
    let limit = match lang {
        Lang::En => crate::plan::format_number(r),
        Lang::De => german::number(r),
    };
    let smaller = r.min(100.0 - r);
    if smaller <= 0.0 {
        return Some((
            100,
            match lang {
                Lang::En => format!(
                    "a rate limit of {limit} % needs at least 100 requests, the size at which a 1 % event rate would likely show"
                ),
                Lang::De => format!(
                    "eine Grenze von {limit} % für eine Rate braucht mindestens 100 Anfragen, die Größe, ab der sich eine Rate von 1 % wahrscheinlich zeigt"
                ),
            },
        ));
    }
    let needed = ceil_tolerant(100.0 / smaller);
    Some((
        needed,
        match lang {
            Lang::En => format!(
                "a rate limit of {limit} % needs at least {needed} requests: below that one single request already moves the rate past the limit, so the sample cannot tell it from zero"
            ),
            Lang::De => format!(
                "eine Grenze von {limit} % für eine Rate braucht mindestens {}: darunter schiebt schon eine einzige Anfrage die Rate über die Grenze, die Stichprobe kann sie also nicht von null unterscheiden",
                german::requests(needed)
            ),
        },
    ))
}

/// Whether a small sample's figure already misses `mark` where a small sample understates:
/// an upper limit on a percentile (see the module notes).
fn conclusive_miss(mark: &PassMark, figure: &EvidenceStatistic) -> bool {
    let upper_limit = matches!(mark.comparator, Comparator::Le | Comparator::Lt);
    let percentile = matches!(
        mark.statistic,
        Statistic::P50 | Statistic::P90 | Statistic::P95 | Statistic::P99
    );
    let value = figure
        .finite_value()
        .and_then(|v| figure.unit.convert(v, mark.unit));
    upper_limit && percentile && value.is_some_and(|v| !mark.comparator.admits(v, mark.threshold))
}

/// The note a conclusive miss on a small sample carries (see [`conclusive_miss`]); `None` when
/// the sample is large enough or its size unknown.
/// Phrased in `lang`.
pub(crate) fn small_sample_note_in(
    mark: &PassMark,
    figure: &EvidenceStatistic,
    lang: Lang,
) -> Option<String> {
    let samples = figure.samples?;
    let (needed, _) = minimum_samples(mark)?;
    let statistic = mark.statistic;
    (samples < needed).then(|| match lang {
        Lang::En => format!(
            "{} {}: too few to show a {statistic} is met (it needs {needed}), enough to show it is missed, since a small sample understates a high percentile",
            crate::format::thousands(samples),
            if samples == 1 { "request" } else { "requests" },
        ),
        Lang::De => format!(
            "{}: zu wenige, um zu zeigen, dass ein {statistic} erreicht ist (dafür braucht es {}), genug, um zu zeigen, dass es verfehlt ist, denn eine kleine Stichprobe unterschätzt ein hohes Perzentil",
            german::requests(samples),
            Lang::De.number(needed as f64, 0)
        ),
    })
}

/// Why `figure` has too few samples for `mark`; `None` when it has enough, does not say, or
/// already misses an upper percentile limit (a conclusive fail, see the module notes).
/// Phrased in `lang`.
pub(crate) fn insufficient_in(
    mark: &PassMark,
    figure: &EvidenceStatistic,
    lang: Lang,
) -> Option<Mismatch> {
    let samples = figure.samples?;
    let (needed, why) = minimum_samples_in(mark, lang)?;
    (samples < needed && !conclusive_miss(mark, figure)).then(|| Mismatch {
        aspect: "sample size",
        reason: match lang {
            Lang::En => format!(
                "too few samples: this figure rests on {} {}, and {why}",
                crate::format::thousands(samples),
                if samples == 1 { "request" } else { "requests" }
            ),
            Lang::De => format!(
                "zu kleine Stichprobe: dieser Wert beruht auf {}, und {why}",
                german::requests(samples)
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Metric, Scope};
    use crate::verdict::{Verdict, grade};

    fn mark(metric: Metric, statistic: Statistic, threshold: f64, unit: Unit) -> PassMark {
        PassMark {
            metric: metric.clone(),
            statistic,
            comparator: Comparator::Le,
            threshold,
            unit,
            point: MeasurementPoint::Gateway,
            definition: metric.default_definition().into(),
            scope: Scope::AllTraffic,
            rationale: String::new(),
        }
    }

    #[test]
    fn each_percentile_needs_one_over_one_minus_p() {
        let needed = |s| {
            minimum_samples(&mark(Metric::Ttft, s, 500.0, Unit::Ms))
                .unwrap()
                .0
        };
        assert_eq!(needed(Statistic::P50), 2);
        assert_eq!(needed(Statistic::P90), 10);
        assert_eq!(needed(Statistic::P95), 20);
        assert_eq!(needed(Statistic::P99), 100);
        assert!(minimum_samples(&mark(Metric::Ttft, Statistic::Mean, 500.0, Unit::Ms)).is_none());
    }

    #[test]
    fn a_p99_of_30_requests_is_not_comparable_and_100_are_enough() {
        let p99 = mark(Metric::Ttft, Statistic::P99, 450.0, Unit::Ms);
        let mut figure = EvidenceStatistic::new(
            Metric::Ttft,
            Statistic::P99,
            400.0,
            Unit::Ms,
            MeasurementPoint::Gateway,
        );
        figure.samples = Some(30);
        let graded = grade(&p99, Some(&figure));
        let Verdict::NotComparable { reason } = &graded.verdict else {
            panic!("{graded:?}");
        };
        assert_eq!(
            reason,
            "too few samples: this figure rests on 30 requests, and a p99 needs at least 100 requests: with fewer than 1 ÷ (1 − 0.99) not even one request is expected above it, so the figure is just the slowest of the sample"
        );
        figure.samples = Some(100);
        assert_eq!(grade(&p99, Some(&figure)).verdict, Verdict::Pass);
    }

    #[test]
    fn a_small_sample_that_already_misses_an_upper_limit_fails_and_says_how_small() {
        // The demo's V100 point: 30 requests, TTFT p99 572 ms against ≤ 450 ms.
        let p99 = mark(Metric::Ttft, Statistic::P99, 450.0, Unit::Ms);
        let mut figure = EvidenceStatistic::new(
            Metric::Ttft,
            Statistic::P99,
            572.0,
            Unit::Ms,
            MeasurementPoint::Gateway,
        );
        figure.samples = Some(30);
        let graded = grade(&p99, Some(&figure));
        assert_eq!(graded.verdict, Verdict::Fail);
        assert!(
            graded.explanation.ends_with("[30 requests: too few to show a p99 is met (it needs 100), enough to show it is missed, since a small sample understates a high percentile]."),
            "{}",
            graded.explanation
        );
        // A lower limit is not settled by a small sample either way.
        let mut floor = mark(Metric::Ttft, Statistic::P99, 600.0, Unit::Ms);
        floor.comparator = Comparator::Ge;
        assert!(matches!(
            grade(&floor, Some(&figure)).verdict,
            Verdict::NotComparable { .. }
        ));
        // With enough requests the note goes.
        figure.samples = Some(100);
        assert!(!grade(&p99, Some(&figure)).explanation.contains("too few"));
    }

    #[test]
    fn the_sample_size_reasons_read_german_with_a_decimal_comma() {
        use crate::locale::Lang;
        use crate::verdict::grade_in;
        let p99 = mark(Metric::Ttft, Statistic::P99, 450.0, Unit::Ms);
        let mut figure = EvidenceStatistic::new(
            Metric::Ttft,
            Statistic::P99,
            400.0,
            Unit::Ms,
            MeasurementPoint::Gateway,
        );
        figure.samples = Some(30);
        assert_eq!(
            grade_in(&p99, Some(&figure), Lang::De).explanation,
            "Nicht vergleichbar: zu kleine Stichprobe: dieser Wert beruht auf 30 Anfragen, und \
             ein p99 braucht mindestens 100 Anfragen: bei weniger als 1 ÷ (1 − 0,99) ist nicht \
             einmal eine Anfrage darüber zu erwarten, der Wert ist also nur die langsamste der \
             Stichprobe."
        );
        assert_eq!(
            grade_in(&p99, Some(&figure), Lang::En),
            grade(&p99, Some(&figure))
        );
        // The demo's V100 point: a conclusive miss on 30 requests.
        figure.value = Some(572.0);
        assert_eq!(
            grade_in(&p99, Some(&figure), Lang::De).explanation,
            "p99 TTFT am Gateway: 572 ms verfehlt ≤ 450 ms um 122 ms [30 Anfragen: zu wenige, \
             um zu zeigen, dass ein p99 erreicht ist (dafür braucht es 100), genug, um zu \
             zeigen, dass es verfehlt ist, denn eine kleine Stichprobe unterschätzt ein hohes \
             Perzentil]."
        );
        assert_eq!(
            grade_in(&p99, Some(&figure), Lang::En),
            grade(&p99, Some(&figure))
        );
        let errors = mark(Metric::ErrorRate, Statistic::Rate, 0.5, Unit::Percent);
        assert_eq!(
            minimum_samples_in(&errors, Lang::De).unwrap().1,
            "eine Grenze von 0,5 % für eine Rate braucht mindestens 200 Anfragen: darunter \
             schiebt schon eine einzige Anfrage die Rate über die Grenze, die Stichprobe kann \
             sie also nicht von null unterscheiden"
        );
        for mark in [p99, errors] {
            assert_eq!(minimum_samples_in(&mark, Lang::En), minimum_samples(&mark));
        }
    }

    #[test]
    fn a_one_request_gateway_log_never_passes_a_rate() {
        let errors = mark(Metric::ErrorRate, Statistic::Rate, 1.0, Unit::Percent);
        let mut figure = EvidenceStatistic::new(
            Metric::ErrorRate,
            Statistic::Rate,
            0.0,
            Unit::Percent,
            MeasurementPoint::Gateway,
        );
        figure.samples = Some(1);
        assert!(matches!(
            grade(&errors, Some(&figure)).verdict,
            Verdict::NotComparable { .. }
        ));
        figure.samples = Some(100);
        assert_eq!(grade(&errors, Some(&figure)).verdict, Verdict::Pass);
        let none_at_all = mark(Metric::ErrorRate, Statistic::Rate, 0.0, Unit::Percent);
        assert_eq!(minimum_samples(&none_at_all).unwrap().0, 100);
        let truncation = mark(Metric::TruncationRate, Statistic::Rate, 5.0, Unit::Percent);
        assert_eq!(minimum_samples(&truncation).unwrap().0, 20);
        let eval = PassMark {
            point: MeasurementPoint::EvaluationSet,
            ..mark(Metric::AnswerScore, Statistic::Rate, 70.0, Unit::Percent)
        };
        assert!(minimum_samples(&eval).is_none());
    }
}
