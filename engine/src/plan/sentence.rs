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
use super::scope::Scope;
use super::statistic::Statistic;
use super::unit::Unit;
use crate::locale::Lang;

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

/// The German sentences: the same cases as the English ones, phrased as a German sentence
/// rather than translated word by word.
impl PassMark {
    /// The mark as one sentence in `lang`; English is [`PassMark::sentence`].
    pub fn sentence_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.sentence(),
            Lang::De => {
                let body = self
                    .german_body()
                    .unwrap_or_else(|| self.german_generic_body());
                let point = match (self.point, self.metric.family()) {
                    (MeasurementPoint::EvaluationSet, _) => {
                        ", auf dem Evaluationsdatensatz".to_string()
                    }
                    (point, MetricFamily::FailureRate) => format!(", gezählt {}", german_at(point)),
                    (point, _) => format!(", gemessen {}", german_at(point)),
                };
                let scope = match &self.scope {
                    Scope::AllTraffic => String::new(),
                    Scope::Scenario(name) => format!(", im Szenario „{}“", name.trim()),
                    Scope::PlannedPeak => ", bei der geplanten Spitzen-Parallelität".into(),
                };
                format!("{body}{point}{scope}")
            }
        }
    }

    /// The threshold with a decimal comma and German unit words.
    fn german_limit(&self) -> String {
        self.threshold_text()
            .replace('.', ",")
            .replace("tokens/s", "Token/s")
    }

    fn german_generic_body(&self) -> String {
        let statistic = match self.statistic {
            Statistic::Rate => String::new(),
            statistic => format!(" ({statistic})"),
        };
        format!(
            "{}{statistic} beträgt {} {}",
            capitalised(&self.metric.short_label_in(Lang::De)),
            german_words(self.comparator),
            self.german_limit()
        )
    }

    fn german_body(&self) -> Option<String> {
        let limit = self.german_limit();
        let upper = self.comparator.is_upper_limit();
        let words = german_words(self.comparator);
        match self.metric {
            Metric::Ttft | Metric::Tpot | Metric::Itl | Metric::E2e if upper => {
                self.german_latency_body(&limit)
            }
            Metric::OutputSpeedPerUser if !upper => match self.statistic {
                Statistic::Mean => Some(format!(
                    "Die mittlere Ausgabegeschwindigkeit je Nutzer beträgt {words} {limit}"
                )),
                Statistic::P50 => Some(format!(
                    "Die mediane Ausgabegeschwindigkeit je Nutzer beträgt {words} {limit}"
                )),
                _ => None,
            },
            Metric::AggregateOutputThroughput if !upper => match self.statistic {
                Statistic::Mean => Some(format!(
                    "Der gesamte Ausgabedurchsatz beträgt über den Lauf im Mittel {words} {limit}"
                )),
                Statistic::Max => Some(format!(
                    "Der gesamte Ausgabedurchsatz erreicht in der Spitze {words} {limit}"
                )),
                _ => None,
            },
            Metric::Goodput if !upper => match (self.statistic, self.unit) {
                (Statistic::Mean, Unit::ReqPerS) => Some(format!(
                    "Der Goodput (Anfragen pro Sekunde, die jeden Latenz-Zielwert erfüllen) beträgt {words} {limit}"
                )),
                (Statistic::Rate, Unit::Percent) => Some(format!(
                    "{} {limit} der Anfragen erfüllen jeden Latenz-Zielwert (Goodput)",
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
                    Metric::ErrorRate => "Die Fehlerquote",
                    Metric::TimeoutRate => "Die Quote der Zeitüberschreitungen",
                    Metric::CancellationRate => "Die Abbruchquote",
                    _ => "Die Quote abgeschnittener Antworten (an ihrer Längengrenze abgebrochen)",
                };
                let stays = match self.comparator {
                    Comparator::Le => "bleibt bei höchstens",
                    _ => "bleibt unter",
                };
                Some(format!("{name} {stays} {limit}"))
            }
            Metric::RetrievalHitRate if !upper && self.statistic == Statistic::Rate => {
                Some(format!(
                    "Die Trefferquote der Suche @k (akzeptierte Passage unter den gefundenen) beträgt {words} {limit}"
                ))
            }
            Metric::AnswerScore if !upper => match (self.statistic, self.unit) {
                (Statistic::Mean, Unit::Score) => Some(format!(
                    "Die mittlere Antwortbewertung beträgt {words} {limit}"
                )),
                (Statistic::Rate, Unit::Percent) => Some(format!(
                    "Die Antwortgenauigkeit (Anteil akzeptierter Antworten) beträgt {words} {limit}"
                )),
                _ => None,
            },
            _ => None,
        }
    }

    fn german_latency_body(&self, limit: &str) -> Option<String> {
        let within = if self.comparator == Comparator::Lt {
            format!("in unter {limit}")
        } else {
            format!("innerhalb von {limit}")
        };
        let at_most = format!("{} {limit}", german_words(self.comparator));
        if self.statistic == Statistic::Mean {
            let name = match self.metric {
                Metric::Ttft => "Die mittlere Zeit bis zum ersten Token",
                Metric::Tpot => "Die mittlere Zeit je Ausgabe-Token (TPOT)",
                Metric::Itl => "Der mittlere Abstand zwischen gestreamten Chunks (ITL)",
                _ => "Die mittlere Gesamtdauer",
            };
            return Some(format!("{name} beträgt {at_most}"));
        }
        let itl = self.metric == Metric::Itl;
        let subject = match (self.statistic, itl) {
            (Statistic::P50, false) => "Die Hälfte der Anfragen".to_string(),
            (Statistic::P50, true) => {
                "Die Hälfte der Abstände zwischen gestreamten Chunks".to_string()
            }
            (Statistic::P90 | Statistic::P95 | Statistic::P99, false) => {
                format!("{} % der Anfragen", self.statistic.percentile()?)
            }
            (Statistic::P90 | Statistic::P95 | Statistic::P99, true) => format!(
                "{} % der Abstände zwischen gestreamten Chunks",
                self.statistic.percentile()?
            ),
            (Statistic::Max, false) => "Jede Anfrage".to_string(),
            (Statistic::Max, true) => "Jeder Abstand zwischen gestreamten Chunks".to_string(),
            _ => return None,
        };
        let singular = self.statistic == Statistic::Max;
        let verb = match (&self.metric, singular) {
            (&Metric::Ttft, false) => format!("erhalten ihr erstes Token {within}"),
            (&Metric::Ttft, true) => format!("erhält ihr erstes Token {within}"),
            (&Metric::Tpot, false) => {
                format!("brauchen im Mittel {at_most} je Ausgabe-Token nach dem ersten")
            }
            (&Metric::Tpot, true) => {
                format!("braucht im Mittel {at_most} je Ausgabe-Token nach dem ersten")
            }
            (&Metric::Itl, false) => format!("betragen {at_most}"),
            (&Metric::Itl, true) => format!("beträgt {at_most}"),
            (_, false) => format!("sind {within} vollständig"),
            (_, true) => format!("ist {within} vollständig"),
        };
        Some(format!("{subject} {verb}"))
    }
}

/// `am Client`, `am Gateway`, `an der Engine`, `auf dem Evaluationsdatensatz`.
pub(crate) fn german_at(point: MeasurementPoint) -> &'static str {
    point.german_at()
}

/// The comparator in German: `höchstens`, `unter`, `mindestens`, `mehr als`.
fn german_words(comparator: Comparator) -> &'static str {
    match comparator {
        Comparator::Le => "höchstens",
        Comparator::Lt => "unter",
        Comparator::Ge => "mindestens",
        Comparator::Gt => "mehr als",
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

    #[test]
    fn german_sentences_are_german_with_a_decimal_comma() {
        let mut mark = ttft_p95();
        assert_eq!(mark.sentence_in(Lang::En), mark.sentence());
        mark.statistic = Statistic::P99;
        mark.threshold = 0.45;
        mark.unit = Unit::S;
        mark.point = MeasurementPoint::Client;
        assert_eq!(
            mark.sentence_in(Lang::De),
            "99 % der Anfragen erhalten ihr erstes Token innerhalb von 0,45 s, gemessen am Client"
        );
        mark.metric = Metric::Tpot;
        mark.scope = Scope::PlannedPeak;
        assert!(
            mark.sentence_in(Lang::De).starts_with(
                "99 % der Anfragen brauchen im Mittel höchstens 0,45 s je Ausgabe-Token"
            ),
            "{}",
            mark.sentence_in(Lang::De)
        );
    }
    use crate::plan::pass_mark::tests::ttft_p95;

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
