//! The metrics a pass mark can be written on, and what each one admits.
//!
//! The list follows the metrics table of the domain notes. Each metric belongs to a
//! [`MetricFamily`], and the family decides the rules a pass mark must respect:
//!
//! * **latency** (TTFT, TPOT, ITL, E2E): any percentile, mean or max; ms or s; an upper limit.
//! * **per-stream speed** (output tokens/s per user): mean or median only. A high percentile of a
//!   speed counts the *fastest* requests, the opposite of what a tail limit means; a tail limit on
//!   speed is a TPOT percentile (X tokens/s = 1000 ÷ X ms).
//! * **throughput** (aggregate output tokens/s): mean over the run or peak; a lower limit.
//! * **goodput**: requests per second meeting every latency mark (mean over the run, req/s), or
//!   the share of requests doing so (rate, %); a lower limit.
//! * **failure rates** (error, timeout, cancellation, truncation): rate in %; an upper limit.
//! * **quality** (retrieval hit rate@k, answer score): scored on the evaluation set; a lower limit.
//! * **custom**: a named metric with its own unit; anything consistent goes, the assessor states
//!   the definition.
//!
//! Every metric carries a default definition, taken from the domain notes, so a figure and a mark
//! that do not state one still say which number they mean.

use super::point::MeasurementPoint;
use super::statistic::Statistic;
use super::unit::Unit;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A measured quantity a pass mark can be written on.
///
/// Serde names are stable snake_case: `ttft`, `tpot`, `itl`, `e2e`, `output_speed_per_user`,
/// `aggregate_output_throughput`, `goodput`, `error_rate`, `timeout_rate`, `cancellation_rate`,
/// `truncation_rate`, `retrieval_hit_rate`, `answer_score`, and
/// `{"custom": {"name": …, "unit": …}}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Time to first token: submission → first content token.
    Ttft,
    /// Time per output token, per request: (E2E − TTFT) ÷ (output tokens − 1).
    Tpot,
    /// Inter-token latency: every gap between consecutive streamed outputs, pooled.
    Itl,
    /// End-to-end latency: submission → last token.
    E2e,
    /// Output tokens per second seen by one user (one stream): 1000 ÷ TPOT.
    OutputSpeedPerUser,
    /// Output tokens per second of the whole system, all streams together.
    AggregateOutputThroughput,
    /// Requests per second (or share of requests) meeting every latency mark of the plan.
    Goodput,
    /// Share of requests that failed, counted at the gateway.
    ErrorRate,
    /// Share of requests that timed out, counted at the gateway.
    TimeoutRate,
    /// Share of requests the client cancelled, counted at the gateway.
    CancellationRate,
    /// Share of answers cut off at their token or context limit (`finish_reason = length`).
    TruncationRate,
    /// Share of evaluation questions whose accepted passage is among the k retrieved (hit@k).
    RetrievalHitRate,
    /// Score (or accuracy) of answers against the accepted answers on the evaluation set.
    AnswerScore,
    /// A metric the built-in list lacks, with the unit its figures come in.
    Custom { name: String, unit: Unit },
}

/// The families that decide which statistics, units, directions and points a metric admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricFamily {
    Latency,
    PerStreamSpeed,
    Throughput,
    Goodput,
    FailureRate,
    Quality,
    Custom,
}

/// Which way a metric gets better, and so which comparators a pass mark on it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Smaller is better: the mark is an upper limit (≤ or <).
    LowerIsBetter,
    /// Larger is better: the mark is a floor (≥ or >).
    HigherIsBetter,
    /// Unknown (custom metrics): either kind of limit.
    Either,
}

const LATENCY_STATISTICS: &[Statistic] = &[
    Statistic::P50,
    Statistic::P90,
    Statistic::P95,
    Statistic::P99,
    Statistic::Mean,
    Statistic::Max,
];
const ALL_POINTS: &[MeasurementPoint] = &[
    MeasurementPoint::Client,
    MeasurementPoint::Gateway,
    MeasurementPoint::Engine,
    MeasurementPoint::EvaluationSet,
];
const SERVING_POINTS: &[MeasurementPoint] = &[
    MeasurementPoint::Client,
    MeasurementPoint::Gateway,
    MeasurementPoint::Engine,
];

impl Metric {
    /// The built-in metrics (everything but [`Metric::Custom`]), in the order forms list them.
    pub const BUILT_IN: [Metric; 13] = [
        Metric::Ttft,
        Metric::Tpot,
        Metric::Itl,
        Metric::E2e,
        Metric::OutputSpeedPerUser,
        Metric::AggregateOutputThroughput,
        Metric::Goodput,
        Metric::ErrorRate,
        Metric::TimeoutRate,
        Metric::CancellationRate,
        Metric::TruncationRate,
        Metric::RetrievalHitRate,
        Metric::AnswerScore,
    ];

    /// The serde and form name (`ttft`, `error_rate`, …; `custom` for a custom metric).
    pub fn as_str(&self) -> &'static str {
        match self {
            Metric::Ttft => "ttft",
            Metric::Tpot => "tpot",
            Metric::Itl => "itl",
            Metric::E2e => "e2e",
            Metric::OutputSpeedPerUser => "output_speed_per_user",
            Metric::AggregateOutputThroughput => "aggregate_output_throughput",
            Metric::Goodput => "goodput",
            Metric::ErrorRate => "error_rate",
            Metric::TimeoutRate => "timeout_rate",
            Metric::CancellationRate => "cancellation_rate",
            Metric::TruncationRate => "truncation_rate",
            Metric::RetrievalHitRate => "retrieval_hit_rate",
            Metric::AnswerScore => "answer_score",
            Metric::Custom { .. } => "custom",
        }
    }

    /// The short name used inside sentences and labels: `TTFT`, `error rate`, the custom name.
    pub fn short_label(&self) -> String {
        match self {
            Metric::Ttft => "TTFT".into(),
            Metric::Tpot => "TPOT".into(),
            Metric::Itl => "ITL".into(),
            Metric::E2e => "E2E latency".into(),
            Metric::OutputSpeedPerUser => "output speed per user".into(),
            Metric::AggregateOutputThroughput => "aggregate output throughput".into(),
            Metric::Goodput => "goodput".into(),
            Metric::ErrorRate => "error rate".into(),
            Metric::TimeoutRate => "timeout rate".into(),
            Metric::CancellationRate => "cancellation rate".into(),
            Metric::TruncationRate => "truncation rate".into(),
            Metric::RetrievalHitRate => "retrieval hit rate@k".into(),
            Metric::AnswerScore => "answer score".into(),
            Metric::Custom { name, .. } => name.trim().to_string(),
        }
    }

    /// [`Metric::short_label`] in `lang`: the abbreviations stay, the names are German nouns
    /// (`Ausgabedurchsatz gesamt`, `Fehlerrate`), so `Spitzen-` or `Median` can stand before
    /// them.
    pub fn short_label_in(&self, lang: crate::locale::Lang) -> String {
        if lang == crate::locale::Lang::En {
            return self.short_label();
        }
        match self {
            Metric::E2e => "E2E-Latenz".into(),
            Metric::OutputSpeedPerUser => "Ausgabegeschwindigkeit je Nutzer".into(),
            Metric::AggregateOutputThroughput => "Ausgabedurchsatz gesamt".into(),
            Metric::Goodput => "Goodput".into(),
            Metric::ErrorRate => "Fehlerrate".into(),
            Metric::TimeoutRate => "Timeout-Rate".into(),
            Metric::CancellationRate => "Abbruchrate".into(),
            Metric::TruncationRate => "Kürzungsrate".into(),
            Metric::RetrievalHitRate => "Retrieval-Trefferquote@k".into(),
            Metric::AnswerScore => "Antwortbewertung".into(),
            other => other.short_label(),
        }
    }

    /// The full name for form options and table headers.
    pub fn label(&self) -> String {
        match self {
            Metric::Ttft => "Time to first token (TTFT)".into(),
            Metric::Tpot => "Time per output token (TPOT)".into(),
            Metric::Itl => "Inter-token latency (ITL)".into(),
            Metric::E2e => "End-to-end latency (E2E)".into(),
            Metric::OutputSpeedPerUser => "Output tokens/s per user".into(),
            Metric::AggregateOutputThroughput => "Aggregate output tokens/s".into(),
            Metric::Goodput => "Goodput".into(),
            Metric::ErrorRate => "Error rate".into(),
            Metric::TimeoutRate => "Timeout rate".into(),
            Metric::CancellationRate => "Cancellation rate".into(),
            Metric::TruncationRate => "Truncation rate".into(),
            Metric::RetrievalHitRate => "Retrieval hit rate@k".into(),
            Metric::AnswerScore => "Answer score / accuracy".into(),
            Metric::Custom { name, .. } => name.trim().to_string(),
        }
    }

    /// The family whose rules this metric follows.
    pub fn family(&self) -> MetricFamily {
        match self {
            Metric::Ttft | Metric::Tpot | Metric::Itl | Metric::E2e => MetricFamily::Latency,
            Metric::OutputSpeedPerUser => MetricFamily::PerStreamSpeed,
            Metric::AggregateOutputThroughput => MetricFamily::Throughput,
            Metric::Goodput => MetricFamily::Goodput,
            Metric::ErrorRate
            | Metric::TimeoutRate
            | Metric::CancellationRate
            | Metric::TruncationRate => MetricFamily::FailureRate,
            Metric::RetrievalHitRate | Metric::AnswerScore => MetricFamily::Quality,
            Metric::Custom { .. } => MetricFamily::Custom,
        }
    }

    /// Whether smaller or larger values are better.
    pub fn direction(&self) -> Direction {
        match self.family() {
            MetricFamily::Latency | MetricFamily::FailureRate => Direction::LowerIsBetter,
            MetricFamily::PerStreamSpeed
            | MetricFamily::Throughput
            | MetricFamily::Goodput
            | MetricFamily::Quality => Direction::HigherIsBetter,
            MetricFamily::Custom => Direction::Either,
        }
    }

    /// Whether the figure belongs to the GPU, engine version and serving settings it was
    /// measured with (latency and throughput do; rates and quality carry over).
    pub fn depends_on_serving(&self) -> bool {
        matches!(
            self.family(),
            MetricFamily::Latency
                | MetricFamily::PerStreamSpeed
                | MetricFamily::Throughput
                | MetricFamily::Goodput
        )
    }

    /// The statistics a pass mark on this metric may use.
    pub fn allowed_statistics(&self) -> &'static [Statistic] {
        match self {
            Metric::Ttft | Metric::Tpot | Metric::Itl | Metric::E2e => LATENCY_STATISTICS,
            Metric::OutputSpeedPerUser => &[Statistic::Mean, Statistic::P50],
            Metric::AggregateOutputThroughput => &[Statistic::Mean, Statistic::Max],
            Metric::Goodput => &[Statistic::Mean, Statistic::Rate],
            Metric::ErrorRate
            | Metric::TimeoutRate
            | Metric::CancellationRate
            | Metric::TruncationRate
            | Metric::RetrievalHitRate => &[Statistic::Rate],
            Metric::AnswerScore => &[Statistic::Mean, Statistic::Rate],
            Metric::Custom { .. } => &Statistic::ALL,
        }
    }

    /// The units a threshold on this metric may be written in.
    pub fn allowed_units(&self) -> Vec<Unit> {
        match self {
            Metric::Ttft | Metric::Tpot | Metric::Itl | Metric::E2e => vec![Unit::Ms, Unit::S],
            Metric::OutputSpeedPerUser | Metric::AggregateOutputThroughput => {
                vec![Unit::TokensPerS]
            }
            Metric::Goodput => vec![Unit::ReqPerS, Unit::Percent],
            Metric::ErrorRate
            | Metric::TimeoutRate
            | Metric::CancellationRate
            | Metric::TruncationRate
            | Metric::RetrievalHitRate => vec![Unit::Percent],
            Metric::AnswerScore => vec![Unit::Score, Unit::Percent],
            Metric::Custom { unit, .. } => Unit::ALL
                .into_iter()
                .filter(|candidate| candidate.dimension() == unit.dimension())
                .collect(),
        }
    }

    /// Where a figure of this metric can be measured.
    pub fn allowed_points(&self) -> &'static [MeasurementPoint] {
        match self {
            Metric::RetrievalHitRate | Metric::AnswerScore => &[MeasurementPoint::EvaluationSet],
            Metric::TruncationRate | Metric::Custom { .. } => ALL_POINTS,
            _ => SERVING_POINTS,
        }
    }

    /// The definition the domain notes give for this metric; empty for custom metrics, whose
    /// definition the assessor must state.
    pub fn default_definition(&self) -> &'static str {
        match self {
            Metric::Ttft => "submission → first content token",
            Metric::Tpot => "per request: (E2E − TTFT) ÷ (output tokens − 1)",
            Metric::Itl => "every gap between consecutive streamed outputs, pooled over requests",
            Metric::E2e => "submission → last token",
            Metric::OutputSpeedPerUser => "per stream: 1000 ÷ TPOT (ms)",
            Metric::AggregateOutputThroughput => {
                "output tokens of all requests ÷ wall-clock duration"
            }
            Metric::Goodput => {
                "requests meeting every latency pass mark of the plan (errored requests count as \
                 failing), per second or as a share of all requests"
            }
            Metric::ErrorRate => "failed requests ÷ all requests",
            Metric::TimeoutRate => "timed-out requests ÷ all requests",
            Metric::CancellationRate => "requests cancelled by the client ÷ all requests",
            Metric::TruncationRate => "answers with finish_reason = length ÷ all answers",
            Metric::RetrievalHitRate => {
                "evaluation questions whose accepted passage is among the k retrieved ÷ all \
                 evaluation questions (hit@k)"
            }
            Metric::AnswerScore => {
                "score of answers against the accepted answers on the evaluation set, run in the \
                 production precision of weights and KV cache"
            }
            Metric::Custom { .. } => "",
        }
    }

    /// [`Metric::default_definition`] in `lang`.
    pub fn default_definition_in(&self, lang: crate::locale::Lang) -> &'static str {
        if lang == crate::locale::Lang::En {
            return self.default_definition();
        }
        match self {
            Metric::Ttft => "Absenden → erstes inhaltliches Token",
            Metric::Tpot => "je Anfrage: (E2E − TTFT) ÷ (Ausgabe-Token − 1)",
            Metric::Itl => {
                "jeder Abstand zwischen aufeinanderfolgenden gestreamten Ausgaben, über alle Anfragen zusammengefasst"
            }
            Metric::E2e => "Absenden → letztes Token",
            Metric::OutputSpeedPerUser => "je Stream: 1000 ÷ TPOT (ms)",
            Metric::AggregateOutputThroughput => "Ausgabe-Token aller Anfragen ÷ Laufzeit",
            Metric::Goodput => {
                "Anfragen, die jeden Latenz-Zielwert des Plans erfüllen (fehlgeschlagene Anfragen \
                 zählen als nicht erfüllt), pro Sekunde oder als Anteil aller Anfragen"
            }
            Metric::ErrorRate => "fehlgeschlagene Anfragen ÷ alle Anfragen",
            Metric::TimeoutRate => "Anfragen mit Zeitüberschreitung ÷ alle Anfragen",
            Metric::CancellationRate => "vom Client abgebrochene Anfragen ÷ alle Anfragen",
            Metric::TruncationRate => "Antworten mit finish_reason = length ÷ alle Antworten",
            Metric::RetrievalHitRate => {
                "Evaluationsfragen, deren akzeptierte Passage unter den k gefundenen ist ÷ alle \
                 Evaluationsfragen (hit@k)"
            }
            Metric::AnswerScore => {
                "Bewertung der Antworten gegen die akzeptierten Antworten des \
                 Evaluationsdatensatzes, gerechnet in der Produktionspräzision von Gewichten und \
                 KV-Cache"
            }
            Metric::Custom { .. } => "",
        }
    }

    /// Whether `other` names the same metric (custom metrics compare by name, ignoring case and
    /// surrounding spaces, and by unit dimension).
    pub fn same_as(&self, other: &Metric) -> bool {
        match (self, other) {
            (
                Metric::Custom { name, unit },
                Metric::Custom {
                    name: other_name,
                    unit: other_unit,
                },
            ) => {
                name.trim().eq_ignore_ascii_case(other_name.trim())
                    && unit.dimension() == other_unit.dimension()
            }
            _ => self == other,
        }
    }

    /// Parses a form or API name. `custom` needs the name and unit, so it is refused here; the
    /// pass mark form builds custom metrics from its extra fields.
    pub fn parse_built_in(text: &str) -> Option<Metric> {
        let text = text.trim().to_ascii_lowercase();
        let alias = match text.as_str() {
            "e2el" | "request_latency" => "e2e",
            "output_tokens_per_s_per_user" | "output_token_throughput_per_user" => {
                "output_speed_per_user"
            }
            "output_throughput" | "output_token_throughput" => "aggregate_output_throughput",
            "hit_rate" | "retrieval_hit_rate_at_k" => "retrieval_hit_rate",
            "accuracy" | "answer_accuracy" => "answer_score",
            other => other,
        };
        Metric::BUILT_IN
            .into_iter()
            .find(|metric| metric.as_str() == alias)
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short_label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_names_match_the_form_names() {
        for metric in Metric::BUILT_IN {
            let json = serde_json::to_string(&metric).unwrap();
            assert_eq!(json, format!("\"{}\"", metric.as_str()));
            assert_eq!(Metric::parse_built_in(metric.as_str()), Some(metric));
        }
        assert_eq!(Metric::parse_built_in(" E2EL "), Some(Metric::E2e));
        assert_eq!(Metric::parse_built_in("custom"), None);
        let custom = Metric::Custom {
            name: "Citations".into(),
            unit: Unit::Score,
        };
        assert_eq!(
            serde_json::to_string(&custom).unwrap(),
            r#"{"custom":{"name":"Citations","unit":"score"}}"#
        );
    }

    #[test]
    fn custom_metrics_match_by_name_and_dimension() {
        let a = Metric::Custom {
            name: "Citations per answer".into(),
            unit: Unit::Score,
        };
        let b = Metric::Custom {
            name: " citations PER answer".into(),
            unit: Unit::Score,
        };
        let c = Metric::Custom {
            name: "Citations per answer".into(),
            unit: Unit::Ms,
        };
        assert!(a.same_as(&b));
        assert!(!a.same_as(&c));
        assert!(!Metric::Tpot.same_as(&Metric::Itl));
    }
}
