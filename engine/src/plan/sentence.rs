//! Pass marks in plain words, for customers who do not read `TTFT p95 ≤ 500 ms`.
//!
//! Each metric family has its own phrasing: latency percentiles speak of the share of requests
//! (or, for ITL, of gaps between streamed chunks, since ITL pools gaps rather than requests),
//! speeds and throughputs of floors, failure rates of staying at or below a share. Every sentence
//! ends with where the figure is measured and, when the mark is scoped, which traffic it covers.
//! A combination validation would refuse still gets a plain, generic sentence, so pages never
//! fail to render a stored mark.

use super::comparator::Comparator;
use super::metric::{Metric, MetricFamily};
use super::pass_mark::PassMark;
use super::point::MeasurementPoint;
use super::statistic::Statistic;
use super::unit::Unit;

/// Who a latency percentile speaks about, and whether the verb is singular.
struct Subject {
    text: String,
    singular: bool,
}

fn latency_subject(statistic: Statistic, things: &str, thing: &str) -> Option<Subject> {
    let subject = match statistic {
        Statistic::P50 => Subject {
            text: format!("Half of {things}"),
            singular: false,
        },
        Statistic::P90 | Statistic::P95 | Statistic::P99 => Subject {
            text: format!("{} % of {things}", statistic.percentile()?),
            singular: false,
        },
        Statistic::Max => Subject {
            text: format!("Every {thing}"),
            singular: true,
        },
        Statistic::Mean | Statistic::Rate => return None,
    };
    Some(subject)
}

impl PassMark {
    /// The mark as one sentence without a final full stop, e.g. "95 % of requests see their
    /// first token within 500 ms, measured at the gateway".
    pub fn sentence(&self) -> String {
        let body = self.canonical_body().unwrap_or_else(|| self.generic_body());
        format!(
            "{body}{}{}",
            self.point_suffix(),
            self.scope.sentence_suffix()
        )
    }

    fn point_suffix(&self) -> String {
        match (self.point, self.metric.family()) {
            (MeasurementPoint::EvaluationSet, _) => ", on the evaluation set".into(),
            (point, MetricFamily::FailureRate) => format!(", counted at {}", point.noun()),
            (point, _) => format!(", measured at {}", point.noun()),
        }
    }

    fn generic_body(&self) -> String {
        let statistic = match self.statistic {
            Statistic::Rate => String::new(),
            statistic => format!(" ({statistic})"),
        };
        let name = capitalised(&self.metric.short_label());
        format!(
            "{name}{statistic} is {} {}",
            self.comparator.words(),
            self.threshold_text()
        )
    }

    /// The tailored sentence for the combinations validation admits.
    fn canonical_body(&self) -> Option<String> {
        let limit = self.threshold_text();
        let upper = self.comparator.is_upper_limit();
        let words = self.comparator.words();
        match self.metric {
            Metric::Ttft | Metric::Tpot | Metric::Itl | Metric::E2e if upper => {
                self.latency_body(&limit)
            }
            Metric::OutputSpeedPerUser if !upper => match self.statistic {
                Statistic::Mean => Some(format!("Mean output speed per user is {words} {limit}")),
                Statistic::P50 => Some(format!("Median output speed per user is {words} {limit}")),
                _ => None,
            },
            Metric::AggregateOutputThroughput if !upper => match self.statistic {
                Statistic::Mean => Some(format!(
                    "Aggregate output throughput averages {words} {limit} over the run"
                )),
                Statistic::Max => Some(format!(
                    "Peak aggregate output throughput reaches {words} {limit}"
                )),
                _ => None,
            },
            Metric::Goodput if !upper => match (self.statistic, self.unit) {
                (Statistic::Mean, Unit::ReqPerS) => Some(format!(
                    "Goodput (requests per second meeting every latency mark) is {words} {limit}"
                )),
                (Statistic::Rate, Unit::Percent) => Some(format!(
                    "{} {limit} of requests meet every latency mark (goodput)",
                    capitalised(words)
                )),
                _ => None,
            },
            Metric::ErrorRate
            | Metric::TimeoutRate
            | Metric::CancellationRate
            | Metric::TruncationRate
                if upper && self.statistic == Statistic::Rate =>
            {
                let name = match self.metric {
                    Metric::ErrorRate => "Error rate",
                    Metric::TimeoutRate => "Timeout rate",
                    Metric::CancellationRate => "Cancellation rate",
                    _ => "Truncation rate (answers cut off at their length limit)",
                };
                let stays = match self.comparator {
                    Comparator::Le => "stays at or below",
                    _ => "stays below",
                };
                Some(format!("{name} {stays} {limit}"))
            }
            Metric::RetrievalHitRate if !upper && self.statistic == Statistic::Rate => {
                Some(format!(
                    "Retrieval hit rate@k (accepted passage among those retrieved) is {words} {limit}"
                ))
            }
            Metric::AnswerScore if !upper => match (self.statistic, self.unit) {
                (Statistic::Mean, Unit::Score) => {
                    Some(format!("Mean answer score is {words} {limit}"))
                }
                (Statistic::Rate, Unit::Percent) => Some(format!(
                    "Answer accuracy (share of answers accepted) is {words} {limit}"
                )),
                _ => None,
            },
            _ => None,
        }
    }

    fn latency_body(&self, limit: &str) -> Option<String> {
        let strict = self.comparator == Comparator::Lt;
        let within = if strict {
            format!("in under {limit}")
        } else {
            format!("within {limit}")
        };
        let at_most = format!("{} {limit}", self.comparator.words());
        if self.statistic == Statistic::Mean {
            let name = match self.metric {
                Metric::Ttft => "Mean time to first token",
                Metric::Tpot => "Mean time per output token (TPOT)",
                Metric::Itl => "Mean gap between streamed chunks (ITL)",
                _ => "Mean end-to-end time",
            };
            return Some(format!("{name} is {at_most}"));
        }
        let (things, thing) = match self.metric {
            Metric::Itl => (
                "gaps between streamed chunks",
                "gap between streamed chunks",
            ),
            _ => ("requests", "request"),
        };
        let subject = latency_subject(self.statistic, things, thing)?;
        let (plural, singular) = match self.metric {
            Metric::Ttft => (
                format!("see their first token {within}"),
                format!("sees its first token {within}"),
            ),
            Metric::Tpot => (
                format!("average {at_most} per output token after the first"),
                format!("averages {at_most} per output token after the first"),
            ),
            Metric::Itl => (format!("are {at_most}"), format!("is {at_most}")),
            _ => (
                format!("are complete {within}"),
                format!("is complete {within}"),
            ),
        };
        let verb = if subject.singular { singular } else { plural };
        Some(format!("{} {verb}", subject.text))
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::pass_mark::tests::ttft_p95;
    use crate::plan::scope::Scope;

    fn mark(
        metric: Metric,
        statistic: Statistic,
        comparator: Comparator,
        threshold: f64,
        unit: Unit,
        point: MeasurementPoint,
    ) -> PassMark {
        PassMark {
            metric,
            statistic,
            comparator,
            threshold,
            unit,
            point,
            ..ttft_p95()
        }
    }

    #[test]
    fn latency_marks_speak_of_requests() {
        assert_eq!(
            ttft_p95().sentence(),
            "95 % of requests see their first token within 500 ms, measured at the gateway"
        );
        assert_eq!(
            mark(
                Metric::Ttft,
                Statistic::P99,
                Comparator::Le,
                2.0,
                Unit::S,
                MeasurementPoint::Client
            )
            .sentence(),
            "99 % of requests see their first token within 2 s, measured at the client"
        );
        assert_eq!(
            mark(
                Metric::Ttft,
                Statistic::P95,
                Comparator::Lt,
                200.0,
                Unit::Ms,
                MeasurementPoint::Gateway
            )
            .sentence(),
            "95 % of requests see their first token in under 200 ms, measured at the gateway"
        );
        assert_eq!(
            mark(
                Metric::Tpot,
                Statistic::P99,
                Comparator::Le,
                40.0,
                Unit::Ms,
                MeasurementPoint::Client
            )
            .sentence(),
            "99 % of requests average at most 40 ms per output token after the first, measured \
             at the client"
        );
        assert_eq!(
            mark(
                Metric::E2e,
                Statistic::Max,
                Comparator::Le,
                30.0,
                Unit::S,
                MeasurementPoint::Gateway
            )
            .sentence(),
            "Every request is complete within 30 s, measured at the gateway"
        );
        assert_eq!(
            mark(
                Metric::Ttft,
                Statistic::P50,
                Comparator::Le,
                300.0,
                Unit::Ms,
                MeasurementPoint::Engine
            )
            .sentence(),
            "Half of requests see their first token within 300 ms, measured at the engine"
        );
        assert_eq!(
            mark(
                Metric::Ttft,
                Statistic::Mean,
                Comparator::Le,
                300.0,
                Unit::Ms,
                MeasurementPoint::Engine
            )
            .sentence(),
            "Mean time to first token is at most 300 ms, measured at the engine"
        );
    }

    #[test]
    fn itl_speaks_of_gaps_not_requests() {
        assert_eq!(
            mark(
                Metric::Itl,
                Statistic::P99,
                Comparator::Le,
                100.0,
                Unit::Ms,
                MeasurementPoint::Engine
            )
            .sentence(),
            "99 % of gaps between streamed chunks are at most 100 ms, measured at the engine"
        );
        assert_eq!(
            mark(
                Metric::Itl,
                Statistic::Max,
                Comparator::Lt,
                1.0,
                Unit::S,
                MeasurementPoint::Client
            )
            .sentence(),
            "Every gap between streamed chunks is under 1 s, measured at the client"
        );
    }

    #[test]
    fn speeds_and_throughput_are_floors() {
        assert_eq!(
            mark(
                Metric::OutputSpeedPerUser,
                Statistic::Mean,
                Comparator::Ge,
                25.0,
                Unit::TokensPerS,
                MeasurementPoint::Client
            )
            .sentence(),
            "Mean output speed per user is at least 25 tokens/s, measured at the client"
        );
        assert_eq!(
            mark(
                Metric::AggregateOutputThroughput,
                Statistic::Max,
                Comparator::Gt,
                1500.0,
                Unit::TokensPerS,
                MeasurementPoint::Client
            )
            .sentence(),
            "Peak aggregate output throughput reaches more than 1,500 tokens/s, measured at the \
             client"
        );
        assert_eq!(
            mark(
                Metric::Goodput,
                Statistic::Rate,
                Comparator::Ge,
                95.0,
                Unit::Percent,
                MeasurementPoint::Client
            )
            .sentence(),
            "At least 95 % of requests meet every latency mark (goodput), measured at the client"
        );
    }

    #[test]
    fn rates_stay_below_and_quality_is_on_the_evaluation_set() {
        assert_eq!(
            mark(
                Metric::ErrorRate,
                Statistic::Rate,
                Comparator::Le,
                1.0,
                Unit::Percent,
                MeasurementPoint::Gateway
            )
            .sentence(),
            "Error rate stays at or below 1 %, counted at the gateway"
        );
        assert_eq!(
            mark(
                Metric::TruncationRate,
                Statistic::Rate,
                Comparator::Lt,
                2.0,
                Unit::Percent,
                MeasurementPoint::Engine
            )
            .sentence(),
            "Truncation rate (answers cut off at their length limit) stays below 2 %, counted at \
             the engine"
        );
        assert_eq!(
            mark(
                Metric::RetrievalHitRate,
                Statistic::Rate,
                Comparator::Ge,
                80.0,
                Unit::Percent,
                MeasurementPoint::EvaluationSet
            )
            .sentence(),
            "Retrieval hit rate@k (accepted passage among those retrieved) is at least 80 %, on \
             the evaluation set"
        );
        assert_eq!(
            mark(
                Metric::AnswerScore,
                Statistic::Mean,
                Comparator::Ge,
                4.2,
                Unit::Score,
                MeasurementPoint::EvaluationSet
            )
            .sentence(),
            "Mean answer score is at least 4.2, on the evaluation set"
        );
    }

    #[test]
    fn scope_is_appended() {
        let scoped = PassMark {
            scope: Scope::Scenario("RAG lookups".into()),
            ..ttft_p95()
        };
        assert_eq!(
            scoped.sentence(),
            "95 % of requests see their first token within 500 ms, measured at the gateway, in \
             the “RAG lookups” scenario"
        );
        let peak = PassMark {
            scope: Scope::PlannedPeak,
            ..ttft_p95()
        };
        assert!(
            peak.sentence()
                .ends_with(", at the planned peak concurrency")
        );
    }

    #[test]
    fn custom_and_odd_marks_get_a_generic_sentence() {
        let custom = PassMark {
            metric: Metric::Custom {
                name: "citations per answer".into(),
                unit: Unit::Score,
            },
            statistic: Statistic::Mean,
            comparator: Comparator::Ge,
            threshold: 2.0,
            unit: Unit::Score,
            point: MeasurementPoint::EvaluationSet,
            ..ttft_p95()
        };
        assert_eq!(
            custom.sentence(),
            "Citations per answer (mean) is at least 2, on the evaluation set"
        );
        let invalid = PassMark {
            comparator: Comparator::Ge,
            ..ttft_p95()
        };
        assert_eq!(
            invalid.sentence(),
            "TTFT (p95) is at least 500 ms, measured at the gateway"
        );
    }
}
