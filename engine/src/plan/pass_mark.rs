//! The pass mark: one figure, the limit it must meet, and everything that makes it that figure.
//!
//! A pass mark is only gradable if it says exactly which number it is about: metric, statistic,
//! measurement point, definition and scope, besides comparator and threshold with its unit.
//! [`PassMark::validate`] holds the rules of [`Metric`] (which statistics, units,
//! directions and points a metric admits) and keeps thresholds meaningful: positive, shares within
//! 0–100 %, and no mark that can never fail (error rate ≤ 100 %) or never pass (hit rate > 100 %).
//!
//! Within a plan a mark is identified by its [`MarkKey`] (metric, statistic, point, scope): two
//! marks on the same figure would be redundant or contradictory, and the key gives plan versions a
//! stable identity for diffs without ids.

use super::comparator::Comparator;
use super::error::FormFieldError;
use super::metric::{Direction, Metric, MetricFamily};
use super::point::MeasurementPoint;
use super::scope::Scope;
use super::statistic::Statistic;
use super::unit::{Quantity, Unit, format_quantity};
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest custom metric name.
pub const MAX_CUSTOM_NAME_CHARS: usize = 80;
/// Longest definition text.
pub const MAX_DEFINITION_CHARS: usize = 300;
/// Longest rationale text.
pub const MAX_RATIONALE_CHARS: usize = 1_000;

/// One pass mark of a pilot plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassMark {
    pub metric: Metric,
    pub statistic: Statistic,
    pub comparator: Comparator,
    /// The limit, in [`PassMark::unit`].
    pub threshold: f64,
    pub unit: Unit,
    pub point: MeasurementPoint,
    /// How the figure is computed; empty means the metric's default
    /// ([`Metric::default_definition`]).
    #[serde(default)]
    pub definition: String,
    #[serde(default)]
    pub scope: Scope,
    /// Why this limit: the use case, the source of the number.
    #[serde(default)]
    pub rationale: String,
}

/// What identifies a pass mark within a plan: one mark per metric, statistic, point and scope.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MarkKey {
    pub metric: Metric,
    pub statistic: Statistic,
    pub point: MeasurementPoint,
    pub scope: Scope,
}

impl MarkKey {
    /// Whether two keys name the same figure (custom names and scenario names compare loosely).
    pub fn same_as(&self, other: &MarkKey) -> bool {
        self.metric.same_as(&other.metric)
            && self.statistic == other.statistic
            && self.point == other.point
            && self.scope.same_as(&other.scope)
    }

    /// [`MarkKey::label`] in `lang`: `p99 TTFT am Client`,
    /// `Fehlerrate am Gateway (Szenario „RAG“)`.
    pub fn label_in(&self, lang: crate::locale::Lang) -> String {
        if lang == crate::locale::Lang::En {
            return self.label();
        }
        let statistic = match self.statistic {
            Statistic::Rate => String::new(),
            Statistic::Max if self.metric.family() == MetricFamily::Throughput => "Spitzen-".into(),
            Statistic::P50 if self.metric.family() != MetricFamily::Latency => "Median ".into(),
            statistic => format!("{statistic} "),
        };
        let scope = match &self.scope {
            Scope::AllTraffic => String::new(),
            Scope::Scenario(name) => format!(" (Szenario „{}“)", name.trim()),
            Scope::PlannedPeak => " (bei der geplanten Spitzen-Parallelität)".into(),
        };
        format!(
            "{statistic}{} {}{scope}",
            self.metric.short_label_in(lang),
            self.point.german_at()
        )
    }

    /// `p95 TTFT at the gateway`, `error rate at the gateway (scenario “RAG”)`.
    pub fn label(&self) -> String {
        let statistic = match self.statistic {
            Statistic::Rate => String::new(),
            Statistic::Max if self.metric.family() == MetricFamily::Throughput => "peak ".into(),
            Statistic::P50 if self.metric.family() != MetricFamily::Latency => "median ".into(),
            statistic => format!("{statistic} "),
        };
        let scope = match self.scope {
            Scope::AllTraffic => String::new(),
            ref scope => format!(" ({scope})"),
        };
        format!(
            "{statistic}{} at {}{scope}",
            self.metric.short_label(),
            self.point.noun()
        )
    }
}

impl fmt::Display for MarkKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// An error of `field`, worded in English (`en`) and German (`de`).
fn error(field: &'static str, en: impl Into<String>, de: impl Into<String>) -> FormFieldError {
    FormFieldError::new_in(field, en, de)
}

fn or_list<T: fmt::Display>(items: &[T]) -> String {
    let names: Vec<String> = items.iter().map(ToString::to_string).collect();
    list_with(&names, "or")
}

/// `a, b oder c`: the German [`or_list`] of names already worded for the reader.
pub(crate) fn or_list_de(names: &[String]) -> String {
    list_with(names, "oder")
}

fn list_with(names: &[String], or: &str) -> String {
    match names {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} {or} {last}", init.join(", ")),
    }
}

/// A unit as German writes it after a number or in a list: `ms`, `Token/s`, `%`.
fn unit_de(unit: Unit) -> &'static str {
    match unit {
        Unit::TokensPerS => "Token/s",
        unit => unit.symbol(),
    }
}

/// A whole number with German thousands separators: `1.000`.
pub(crate) fn count_de(value: impl Into<f64>) -> String {
    Lang::De.number(value.into(), 0)
}

/// Checks free text: length and no control characters other than line breaks and tabs.
pub(crate) fn check_text(
    field: &'static str,
    value: &str,
    max: usize,
) -> Result<(), FormFieldError> {
    if value.chars().count() > max {
        return Err(error(
            field,
            format!("must be at most {max} characters"),
            format!("darf höchstens {} Zeichen lang sein", count_de(max as f64)),
        ));
    }
    if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err(error(
            field,
            "must not contain control characters",
            "darf keine Steuerzeichen enthalten",
        ));
    }
    Ok(())
}

impl PassMark {
    /// The mark's identity within a plan.
    pub fn key(&self) -> MarkKey {
        MarkKey {
            metric: self.metric.clone(),
            statistic: self.statistic,
            point: self.point,
            scope: self.scope.clone(),
        }
    }

    /// The definition in force: the stated one, or the metric's default when none is stated.
    pub fn effective_definition(&self) -> &str {
        effective_definition(&self.metric, &self.definition)
    }

    /// The threshold with its unit, e.g. `500 ms`.
    pub fn threshold_text(&self) -> String {
        format_quantity(self.threshold, self.unit)
    }

    /// Compact notation, e.g. `TTFT p95 ≤ 500 ms @ gateway`.
    pub fn notation(&self) -> String {
        // `error rate ≤ 1 %`, not `error rate rate ≤ 1 %`: a statistic the label already names
        // is said once.
        let label = self.metric.short_label();
        let statistic = self.statistic.to_string();
        let subject = if label.ends_with(statistic.as_str()) {
            label
        } else {
            format!("{label} {statistic}")
        };
        format!(
            "{subject} {} {} @ {}",
            self.comparator.symbol(),
            self.threshold_text(),
            self.point
        )
    }

    /// [`PassMark::notation`] for a reader of `lang`: `TTFT p95 ≤ 0,5 s @ Gateway`,
    /// `Fehlerrate ≤ 1 % @ Gateway`.
    pub fn notation_in(&self, lang: crate::locale::Lang) -> String {
        if lang == crate::locale::Lang::En {
            return self.notation();
        }
        let label = self.metric.short_label_in(lang);
        let statistic = self.statistic.to_string();
        let subject = if self.metric.short_label().ends_with(statistic.as_str()) {
            label
        } else {
            format!("{label} {statistic}")
        };
        let point = match self.point {
            MeasurementPoint::Client => "Client",
            MeasurementPoint::Gateway => "Gateway",
            MeasurementPoint::Engine => "Engine",
            MeasurementPoint::EvaluationSet => "Evaluationsdatensatz",
        };
        let threshold = super::unit::Quantity {
            value: self.threshold,
            unit: self.unit,
        };
        format!(
            "{subject} {} {} @ {point}",
            self.comparator.symbol(),
            threshold.text_in(lang)
        )
    }

    /// Checks the mark on its own (the plan adds checks across marks and scenarios). The error
    /// names the form field: `custom_name`, `statistic`, `unit`, `comparator`, `point`,
    /// `threshold`, `definition`, `scope` or `rationale`, and words its message in English and
    /// German ([`FormFieldError::text_in`]).
    pub fn validate(&self) -> Result<(), FormFieldError> {
        if let Metric::Custom { name, .. } = &self.metric {
            if name.trim().is_empty() {
                return Err(error(
                    "custom_name",
                    "a custom metric needs a name",
                    "eine eigene Metrik braucht einen Namen",
                ));
            }
            check_text("custom_name", name, MAX_CUSTOM_NAME_CHARS)?;
        }
        self.check_statistic()?;
        self.check_unit()?;
        self.check_comparator()?;
        self.check_point()?;
        self.check_threshold()?;
        check_text("definition", &self.definition, MAX_DEFINITION_CHARS)?;
        if matches!(self.metric, Metric::Custom { .. }) && self.definition.trim().is_empty() {
            return Err(error(
                "definition",
                "a custom metric needs its definition: how the figure is computed",
                "eine eigene Metrik braucht ihre Definition: wie die Zahl berechnet wird",
            ));
        }
        if let Scope::Scenario(name) = &self.scope
            && name.trim().is_empty()
        {
            return Err(error(
                "scope",
                "name the scenario this mark applies to",
                "nennen Sie das Szenario, für das dieser Zielwert gilt",
            ));
        }
        check_text("rationale", &self.rationale, MAX_RATIONALE_CHARS)
    }

    fn check_statistic(&self) -> Result<(), FormFieldError> {
        let label = self.metric.short_label();
        let label_de = self.metric.short_label_in(Lang::De);
        let allowed = self.metric.allowed_statistics();
        if allowed.contains(&self.statistic) {
            return Ok(());
        }
        // The statistics keep the names the form lists them by (`p95`, `mean`, `rate`).
        let allowed_de = or_list_de(&allowed.iter().map(ToString::to_string).collect::<Vec<_>>());
        let (en, de) = match (self.metric.family(), self.statistic) {
            (MetricFamily::PerStreamSpeed, statistic) if statistic.is_percentile() => (
                format!(
                    "a {statistic} of per-user speed describes the fastest requests, not the slow \
                     tail; write a tail limit as a TPOT percentile instead (X tokens/s = 1000 ÷ X \
                     ms), or use {}",
                    or_list(allowed)
                ),
                format!(
                    "ein {statistic} der Geschwindigkeit je Nutzer beschreibt die schnellsten \
                     Anfragen statt der langsamen; schreiben Sie eine Grenze für die langsamen \
                     Anfragen stattdessen als TPOT-Perzentil (X Token/s = 1000 ÷ X ms) oder \
                     verwenden Sie {allowed_de}"
                ),
            ),
            (_, Statistic::Rate) => (
                format!(
                    "`rate` is for shares of requests; {label} takes {}",
                    or_list(allowed)
                ),
                format!("`rate` gilt für Anteile von Anfragen; {label_de} erlaubt {allowed_de}"),
            ),
            (_, statistic) if statistic.is_percentile() => (
                format!(
                    "percentiles are for latency (TTFT, TPOT, ITL, E2E); {label} takes {}",
                    or_list(allowed)
                ),
                format!(
                    "Perzentile gelten für Latenzen (TTFT, TPOT, ITL, E2E); {label_de} erlaubt \
                     {allowed_de}"
                ),
            ),
            (_, statistic) => (
                format!("{label} cannot be graded on its {statistic}; use {}", {
                    or_list(allowed)
                }),
                format!(
                    "{label_de} lässt sich nicht nach {statistic} bewerten; verwenden Sie \
                     {allowed_de}"
                ),
            ),
        };
        Err(error("statistic", en, de))
    }

    fn check_unit(&self) -> Result<(), FormFieldError> {
        let label = self.metric.short_label();
        let label_de = self.metric.short_label_in(Lang::De);
        let allowed = self.metric.allowed_units();
        if !allowed.contains(&self.unit) {
            let symbols: Vec<&str> = allowed.iter().map(|u| u.symbol()).collect();
            let symbols_de: Vec<String> = allowed.iter().map(|u| unit_de(*u).into()).collect();
            return Err(error(
                "unit",
                format!(
                    "{label} is measured in {}, not {}",
                    or_list(&symbols),
                    self.unit.symbol()
                ),
                format!(
                    "{label_de} wird in {} gemessen, nicht in {}",
                    or_list_de(&symbols_de),
                    unit_de(self.unit)
                ),
            ));
        }
        match (self.statistic, self.unit) {
            (Statistic::Rate, Unit::Percent) => Ok(()),
            (Statistic::Rate, unit) => Err(error(
                "unit",
                format!("a rate is a share of requests, written in %, not {unit}"),
                format!(
                    "eine Rate ist ein Anteil der Anfragen und wird in % angegeben, nicht in {}",
                    unit_de(unit)
                ),
            )),
            (statistic, Unit::Percent) => Err(error(
                "statistic",
                format!("{label} in % is a share of requests: use `rate`, not {statistic}"),
                format!(
                    "{label_de} in % ist ein Anteil der Anfragen: verwenden Sie `rate` statt \
                     {statistic}"
                ),
            )),
            _ => Ok(()),
        }
    }

    fn check_comparator(&self) -> Result<(), FormFieldError> {
        let label = self.metric.short_label();
        let label_de = self.metric.short_label_in(Lang::De);
        match (self.metric.direction(), self.comparator.is_upper_limit()) {
            (Direction::LowerIsBetter, false) => Err(error(
                "comparator",
                format!("less {label} is better, so its mark is an upper limit (≤ or <)"),
                format!(
                    "bei {label_de} ist weniger besser, der Zielwert ist daher eine Obergrenze \
                     (≤ oder <)"
                ),
            )),
            (Direction::HigherIsBetter, true) => Err(error(
                "comparator",
                format!("more {label} is better, so its mark is a floor (≥ or >)"),
                format!(
                    "bei {label_de} ist mehr besser, der Zielwert ist daher eine Untergrenze \
                     (≥ oder >)"
                ),
            )),
            _ => Ok(()),
        }
    }

    fn check_point(&self) -> Result<(), FormFieldError> {
        let allowed = self.metric.allowed_points();
        if allowed.contains(&self.point) {
            return Ok(());
        }
        let label_de = self.metric.short_label_in(Lang::De);
        let (en, de) = if self.point == MeasurementPoint::EvaluationSet {
            let places: Vec<String> = allowed.iter().map(|p| p.german_at().into()).collect();
            (
                format!(
                    "{} is measured on live traffic or a load test: at the {}",
                    self.metric.short_label(),
                    or_list(allowed)
                ),
                format!(
                    "{label_de} wird im laufenden Verkehr oder in einem Lasttest gemessen: {}",
                    or_list_de(&places)
                ),
            )
        } else {
            (
                format!(
                    "{} is scored on the evaluation set, not at the {}",
                    self.metric.short_label(),
                    self.point
                ),
                format!(
                    "{label_de} wird auf dem Evaluationsdatensatz bewertet, nicht {}",
                    self.point.german_at()
                ),
            )
        };
        Err(error("point", en, de))
    }

    fn check_threshold(&self) -> Result<(), FormFieldError> {
        let value = self.threshold;
        if !value.is_finite() {
            return Err(error(
                "threshold",
                "must be a number",
                "muss eine Zahl sein",
            ));
        }
        if self.unit == Unit::Percent {
            if !(0.0..=100.0).contains(&value) {
                return Err(error(
                    "threshold",
                    "a share must lie between 0 and 100 %",
                    "ein Anteil muss zwischen 0 und 100 % liegen",
                ));
            }
            let never_fails = matches!(
                (self.comparator, value),
                (Comparator::Le, v) if v >= 100.0
            ) || matches!((self.comparator, value), (Comparator::Ge, v) if v <= 0.0);
            let never_passes = matches!(
                (self.comparator, value),
                (Comparator::Lt, v) if v <= 0.0
            ) || matches!((self.comparator, value), (Comparator::Gt, v) if v >= 100.0);
            let limit_de = format!(
                "{} {}",
                self.comparator.symbol(),
                Quantity {
                    value,
                    unit: self.unit
                }
                .text_in(Lang::De)
            );
            if never_fails {
                return Err(error(
                    "threshold",
                    format!(
                        "{} {} can never fail; choose a tighter limit",
                        self.comparator.symbol(),
                        self.threshold_text()
                    ),
                    format!("{limit_de} wird immer erreicht; wählen Sie eine strengere Grenze"),
                ));
            }
            if never_passes {
                return Err(error(
                    "threshold",
                    format!(
                        "{} {} can never pass; choose a reachable limit",
                        self.comparator.symbol(),
                        self.threshold_text()
                    ),
                    format!("{limit_de} wird nie erreicht; wählen Sie eine erreichbare Grenze"),
                ));
            }
            return Ok(());
        }
        if value <= 0.0 {
            return Err(error(
                "threshold",
                "must be greater than zero",
                "muss größer als null sein",
            ));
        }
        Ok(())
    }
}

/// `definition` if it is stated, else the metric's default.
pub(crate) fn effective_definition<'a>(metric: &'a Metric, definition: &'a str) -> &'a str {
    match definition.trim() {
        "" => metric.default_definition(),
        stated => stated,
    }
}

/// Whether two definitions are the same text once spacing, case and the usual typographic
/// variants (− – for -, ÷ for /, × for *, → for ->) are set aside.
pub fn same_definition(a: &str, b: &str) -> bool {
    fn normalise(text: &str) -> String {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(|c| match c {
                '−' | '–' | '—' => vec!['-'],
                '÷' => vec!['/'],
                '×' => vec!['*'],
                '→' => vec!['-', '>'],
                c => c.to_lowercase().collect(),
            })
            .collect()
    }
    normalise(a) == normalise(b)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// TTFT p95 ≤ 500 ms at the gateway: the workhorse of these tests.
    pub(crate) fn ttft_p95() -> PassMark {
        PassMark {
            metric: Metric::Ttft,
            statistic: Statistic::P95,
            comparator: Comparator::Le,
            threshold: 500.0,
            unit: Unit::Ms,
            point: MeasurementPoint::Gateway,
            definition: Metric::Ttft.default_definition().into(),
            scope: Scope::AllTraffic,
            rationale: "Chat users notice a wait beyond half a second.".into(),
        }
    }

    fn field_of(mark: PassMark) -> &'static str {
        mark.validate().unwrap_err().field
    }

    #[test]
    fn a_sound_mark_validates_and_serialises_with_stable_names() {
        let mark = ttft_p95();
        mark.validate().unwrap();
        let json = serde_json::to_value(&mark).unwrap();
        assert_eq!(json["metric"], "ttft");
        assert_eq!(json["statistic"], "p95");
        assert_eq!(json["comparator"], "le");
        assert_eq!(json["unit"], "ms");
        assert_eq!(json["point"], "gateway");
        assert_eq!(json["scope"], "all_traffic");
        let back: PassMark = serde_json::from_value(json).unwrap();
        assert_eq!(back, mark);
        assert_eq!(mark.notation(), "TTFT p95 ≤ 500 ms @ gateway");
        assert_eq!(
            mark.notation_in(crate::locale::Lang::De),
            "TTFT p95 ≤ 500 ms @ Gateway"
        );
        let errors = PassMark {
            metric: Metric::ErrorRate,
            statistic: Statistic::Rate,
            unit: Unit::Percent,
            threshold: 0.5,
            ..mark.clone()
        };
        assert_eq!(
            errors.notation_in(crate::locale::Lang::De),
            "Fehlerrate ≤ 0,5 % @ Gateway"
        );
        assert_eq!(
            mark.effective_definition(),
            "submission → first content token"
        );
    }

    #[test]
    fn thresholds_must_be_positive_and_finite() {
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            let mark = PassMark {
                threshold: bad,
                ..ttft_p95()
            };
            assert_eq!(field_of(mark), "threshold", "{bad}");
        }
    }

    fn error_rate(comparator: Comparator, threshold: f64) -> PassMark {
        PassMark {
            metric: Metric::ErrorRate,
            statistic: Statistic::Rate,
            comparator,
            threshold,
            unit: Unit::Percent,
            ..ttft_p95()
        }
    }

    #[test]
    fn shares_stay_within_0_to_100_and_must_be_able_to_fail_and_pass() {
        error_rate(Comparator::Le, 1.0).validate().unwrap();
        error_rate(Comparator::Le, 0.0).validate().unwrap();
        error_rate(Comparator::Lt, 100.0).validate().unwrap();
        assert_eq!(field_of(error_rate(Comparator::Le, 101.0)), "threshold");
        assert_eq!(field_of(error_rate(Comparator::Le, 100.0)), "threshold");
        assert_eq!(field_of(error_rate(Comparator::Lt, 0.0)), "threshold");
        let hit = |comparator, threshold| PassMark {
            metric: Metric::RetrievalHitRate,
            point: MeasurementPoint::EvaluationSet,
            ..error_rate(comparator, threshold)
        };
        hit(Comparator::Ge, 100.0).validate().unwrap();
        hit(Comparator::Gt, 0.0).validate().unwrap();
        assert_eq!(field_of(hit(Comparator::Ge, 0.0)), "threshold");
        assert_eq!(field_of(hit(Comparator::Gt, 100.0)), "threshold");
        assert_eq!(field_of(hit(Comparator::Ge, -1.0)), "threshold");
    }

    #[test]
    fn percentiles_only_for_latency_and_rate_only_for_rates() {
        let speed_p95 = PassMark {
            metric: Metric::OutputSpeedPerUser,
            statistic: Statistic::P95,
            comparator: Comparator::Ge,
            threshold: 25.0,
            unit: Unit::TokensPerS,
            ..ttft_p95()
        };
        let error = speed_p95.validate().unwrap_err();
        assert_eq!(error.field, "statistic");
        assert!(error.message.contains("TPOT"), "{}", error.message);

        let throughput_p99 = PassMark {
            metric: Metric::AggregateOutputThroughput,
            statistic: Statistic::P99,
            ..speed_p95.clone()
        };
        assert!(
            throughput_p99
                .validate()
                .unwrap_err()
                .message
                .contains("percentiles are for latency")
        );
        let ttft_rate = PassMark {
            statistic: Statistic::Rate,
            ..ttft_p95()
        };
        assert_eq!(field_of(ttft_rate), "statistic");
        let error_rate_p95 = PassMark {
            statistic: Statistic::P95,
            ..error_rate(Comparator::Le, 1.0)
        };
        assert_eq!(field_of(error_rate_p95), "statistic");
        for statistic in Metric::Ttft.allowed_statistics() {
            PassMark {
                statistic: *statistic,
                ..ttft_p95()
            }
            .validate()
            .unwrap();
        }
    }

    #[test]
    fn units_must_fit_the_metric() {
        let ttft_in_tokens = PassMark {
            unit: Unit::TokensPerS,
            ..ttft_p95()
        };
        let error = ttft_in_tokens.validate().unwrap_err();
        assert_eq!(error.field, "unit");
        assert_eq!(error.message, "TTFT is measured in ms or s, not tokens/s");
        PassMark {
            threshold: 2.0,
            unit: Unit::S,
            ..ttft_p95()
        }
        .validate()
        .unwrap();
        let answer_score_in_percent_as_mean = PassMark {
            metric: Metric::AnswerScore,
            statistic: Statistic::Mean,
            comparator: Comparator::Ge,
            threshold: 80.0,
            unit: Unit::Percent,
            point: MeasurementPoint::EvaluationSet,
            ..ttft_p95()
        };
        assert_eq!(field_of(answer_score_in_percent_as_mean), "statistic");
    }

    #[test]
    fn direction_follows_the_metric() {
        let ttft_floor = PassMark {
            comparator: Comparator::Ge,
            ..ttft_p95()
        };
        assert_eq!(field_of(ttft_floor), "comparator");
        let speed_ceiling = PassMark {
            metric: Metric::OutputSpeedPerUser,
            statistic: Statistic::Mean,
            comparator: Comparator::Le,
            threshold: 25.0,
            unit: Unit::TokensPerS,
            ..ttft_p95()
        };
        assert_eq!(field_of(speed_ceiling), "comparator");
    }

    #[test]
    fn points_follow_the_metric() {
        let ttft_on_eval = PassMark {
            point: MeasurementPoint::EvaluationSet,
            ..ttft_p95()
        };
        assert_eq!(field_of(ttft_on_eval), "point");
        let hit_at_gateway = PassMark {
            metric: Metric::RetrievalHitRate,
            comparator: Comparator::Ge,
            threshold: 80.0,
            ..error_rate(Comparator::Le, 1.0)
        };
        assert_eq!(field_of(hit_at_gateway), "point");
    }

    #[test]
    fn custom_metrics_need_a_name_a_definition_and_a_matching_unit() {
        let custom = |name: &str, unit| PassMark {
            metric: Metric::Custom {
                name: name.into(),
                unit,
            },
            statistic: Statistic::Mean,
            comparator: Comparator::Ge,
            threshold: 2.0,
            unit: Unit::Score,
            definition: "citations counted in each answer".into(),
            ..ttft_p95()
        };
        custom("Citations per answer", Unit::Score)
            .validate()
            .unwrap();
        assert_eq!(field_of(custom("  ", Unit::Score)), "custom_name");
        assert_eq!(field_of(custom("Citations", Unit::Ms)), "unit");
        let undefined = PassMark {
            definition: " ".into(),
            ..custom("Citations", Unit::Score)
        };
        assert_eq!(field_of(undefined), "definition");
    }

    #[test]
    fn keys_identify_the_figure_and_read_well() {
        assert_eq!(ttft_p95().key().label(), "p95 TTFT at the gateway");
        let scoped = PassMark {
            scope: Scope::Scenario("RAG".into()),
            ..error_rate(Comparator::Le, 1.0)
        };
        assert_eq!(
            scoped.key().label(),
            "error rate at the gateway (scenario “RAG”)"
        );
        let tighter = PassMark {
            threshold: 400.0,
            ..ttft_p95()
        };
        assert!(ttft_p95().key().same_as(&tighter.key()));
    }

    #[test]
    fn definitions_compare_without_typography() {
        assert!(same_definition(
            "per request: (E2E − TTFT) ÷ (output tokens − 1)",
            "Per request: (E2E - TTFT)/(output tokens - 1)"
        ));
        assert!(!same_definition(
            "(E2E − TTFT) ÷ (output tokens − 1)",
            "(last − first) ÷ output tokens"
        ));
    }
}
