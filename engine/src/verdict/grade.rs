//! Grading one pass mark against one figure.
//!
//! A figure is graded only if it is the very number the mark is about. The checks run in this
//! order, and the first that fails becomes the reason the figure is *not comparable*:
//!
//! 1. **metric**: TPOT and ITL are different numbers (per-request average vs pooled chunk gaps);
//!    so are TPOT and per-user speed (1000 ÷ mean TPOT is not the mean speed);
//! 2. **measurement point**: client TTFT includes network and gateway, engine TTFT does not;
//! 3. **statistic**: p95 is not p99, and a mean is not a percentile;
//! 4. **scope**: a scenario's figure is not all traffic's;
//! 5. **definition**: built-in metrics carry their definition in the metric itself (importers map
//!    only figures of that definition to it), so the texts are informational; when the mark's
//!    definition differs from the metric's default (or the metric is custom) the figure must state
//!    the same definition;
//! 6. **unit**: only exact conversions (s ↔ ms);
//! 7. **serving** (when grading a plan): latency and throughput measured on another GPU or engine
//!    version than the plan's pilot serving are not the pilot's (GPU names compared as the same
//!    card, [`crate::sizing::gpu::same_gpu_name`]);
//! 8. **sample size**: a percentile or rate needs enough requests to be that figure at all
//!    ([`super::samples`]: p99 needs 100, a 1 % rate 100).
//!
//! Before all of these, a figure whose file is not the pilot's (another model or GPU,
//! [`super::comparability`]) is not comparable, with the file's reason.
//!
//! A comparable figure then passes or fails by the comparator, with equality at one part in a
//! billion (see [`crate::plan::comparator`]): ≤ and ≥ pass at the limit, < and > fail. A figure
//! known only within bounds (a histogram bucket) that straddle the limit is not comparable either:
//! the interpolated value would decide a verdict the data cannot. A missing or non-finite value is
//! *not measured*.

use super::evidence::EvidenceStatistic;
use super::german;
use crate::locale::Lang;
use crate::plan::{
    Metric, MetricFamily, PassMark, PilotServing, Quantity, Statistic, same_definition,
};
use serde::{Deserialize, Serialize};

/// The outcome of grading one mark.
///
/// Serde: `{"outcome": "pass"}`, `"fail"`, `"not_measured"`,
/// `{"outcome": "not_comparable", "reason": "…"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Fail,
    /// No figure of the mark's metric exists (or it has no value).
    NotMeasured,
    /// Figures exist, but none is the number the mark is about.
    NotComparable {
        reason: String,
    },
}

impl Verdict {
    /// The serde name of the outcome.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::NotMeasured => "not_measured",
            Verdict::NotComparable { .. } => "not_comparable",
        }
    }

    /// A label for pages.
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Pass => "Pass",
            Verdict::Fail => "Fail",
            Verdict::NotMeasured => "Not measured",
            Verdict::NotComparable { .. } => "Not comparable",
        }
    }

    /// [`Verdict::label`] in `lang` (the report's words in German).
    pub fn label_in(&self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, _) => self.label(),
            (Lang::De, Verdict::Pass) => "Erreicht",
            (Lang::De, Verdict::Fail) => "Verfehlt",
            (Lang::De, Verdict::NotMeasured) => "Nicht gemessen",
            (Lang::De, Verdict::NotComparable { .. }) => "Nicht vergleichbar",
        }
    }
}

/// A verdict with the value it rests on and a one-line explanation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarkGrade {
    pub verdict: Verdict,
    /// The figure in the mark's unit, when one was compared.
    pub value_used: Option<Quantity>,
    pub explanation: String,
}

pub(crate) use super::mismatch::Mismatch;

fn mismatch(aspect: &'static str, reason: String) -> Mismatch {
    Mismatch { aspect, reason }
}

/// Why a figure of another metric cannot grade the mark.
/// Phrased in `lang`.
pub(crate) fn metric_reason_in(mark: &Metric, figure: &Metric, lang: Lang) -> String {
    let (tpot, itl) = match lang {
        Lang::En => (
            "TPOT, each request's average (E2E − TTFT) ÷ (output tokens − 1)",
            "ITL, every gap between streamed chunks pooled over requests",
        ),
        Lang::De => (
            "TPOT, dem Durchschnitt jeder Anfrage (E2E − TTFT) ÷ (Ausgabe-Token − 1)",
            "ITL, jeder Lücke zwischen gestreamten Chunks, über alle Anfragen zusammengefasst",
        ),
    };
    let (a, b) = (mark.short_label_in(lang), figure.short_label_in(lang));
    let pair = |first: &str, second: &str| match lang {
        Lang::En => format!(
            "the mark is on {first}; this figure is {second}. They differ whenever a chunk \
             carries several tokens, so one cannot stand in for the other"
        ),
        Lang::De => format!(
            "der Zielwert gilt {first}; dieser Wert ist {second}. Beide unterscheiden sich, \
             sobald ein Chunk mehrere Token trägt, daher kann keiner für den anderen stehen"
        ),
    };
    match (mark, figure, lang) {
        (Metric::Tpot, Metric::Itl, _) => pair(tpot, itl),
        (Metric::Itl, Metric::Tpot, _) => pair(itl, tpot),
        (Metric::Tpot, Metric::OutputSpeedPerUser, Lang::En)
        | (Metric::OutputSpeedPerUser, Metric::Tpot, Lang::En) => format!(
            "the mark is on {a}, this figure is {b}: speed is 1000 ÷ TPOT request by request, \
             but a mean or percentile of one is not 1000 ÷ the same statistic of the other"
        ),
        (Metric::Tpot, Metric::OutputSpeedPerUser, Lang::De)
        | (Metric::OutputSpeedPerUser, Metric::Tpot, Lang::De) => format!(
            "der Zielwert gilt {a}, dieser Wert ist {b}: Die Geschwindigkeit ist 1000 ÷ TPOT \
             Anfrage für Anfrage, doch ein Mittelwert oder Perzentil des einen ist nicht \
             1000 ÷ dieselbe Kennzahl des anderen"
        ),
        (_, _, Lang::En) => format!("the mark is on {a}, this figure is {b}: a different metric"),
        (_, _, Lang::De) => {
            format!("der Zielwert gilt {a}, dieser Wert ist {b}: eine andere Metrik")
        }
    }
}

fn statistic_reason(mark: Statistic, figure: Statistic, lang: Lang) -> String {
    match (mark.is_percentile(), figure, lang) {
        (true, figure, Lang::En) if figure.is_percentile() => {
            format!("the mark is on {mark}; this figure is {figure}, a different percentile")
        }
        (true, figure, Lang::De) if figure.is_percentile() => {
            format!(
                "der Zielwert gilt dem {mark}; dieser Wert ist das {figure}, ein anderes Perzentil"
            )
        }
        (true, Statistic::Mean, Lang::En) => {
            format!("the mark is on {mark}; this figure is a mean, which hides the tail")
        }
        (true, Statistic::Mean, Lang::De) => format!(
            "der Zielwert gilt dem {mark}; dieser Wert ist ein Mittelwert, der die langsamen \
             Anfragen verdeckt"
        ),
        (_, _, Lang::En) => format!("the mark is on the {mark}; this figure is the {figure}"),
        (_, _, Lang::De) => format!(
            "der Zielwert gilt der Kennzahl {}; dieser Wert ist {}",
            german::statistic(mark),
            german::statistic(figure)
        ),
    }
}

/// Every way `figure` differs from the number `mark` is about (the metric is assumed equal),
/// each reason phrased in `lang`. `serving` adds the GPU and engine-version checks of plan
/// grading. A file's own reason ([`EvidenceStatistic::not_comparable`]) is worded in `lang`
/// from its [`EvidenceStatistic::mismatch`] where the figure carries one.
pub(crate) fn mismatches_in(
    mark: &PassMark,
    figure: &EvidenceStatistic,
    serving: Option<&PilotServing>,
    lang: Lang,
) -> Vec<Mismatch> {
    let de = lang == Lang::De;
    let mut found = Vec::new();
    if let Some(reason) =
        super::comparability::reason_in(&figure.not_comparable, &figure.mismatch, lang)
    {
        found.push(mismatch("evidence", reason));
    }
    if mark.point != figure.point {
        let latency = mark.metric.family() == MetricFamily::Latency;
        let reason = match (latency, lang) {
            (true, Lang::En) => format!(
                "the mark is measured at {}, which {}; this figure was measured at {}, which {}",
                mark.point.noun(),
                mark.point.includes(),
                figure.point.noun(),
                figure.point.includes()
            ),
            (true, Lang::De) => format!(
                "der Zielwert wird {} gemessen, was {}; dieser Wert wurde {} gemessen, was {}",
                german::at(mark.point),
                german::includes(mark.point),
                german::at(figure.point),
                german::includes(figure.point)
            ),
            (false, Lang::En) => format!(
                "the mark is measured at {}; this figure comes from {}",
                mark.point.noun(),
                figure.point.noun()
            ),
            (false, Lang::De) => format!(
                "der Zielwert wird {} gemessen; dieser Wert wurde {} erhoben",
                german::at(mark.point),
                german::at(figure.point)
            ),
        };
        found.push(mismatch("measurement point", reason));
    }
    if mark.statistic != figure.statistic {
        found.push(mismatch(
            "statistic",
            statistic_reason(mark.statistic, figure.statistic, lang),
        ));
    }
    if !mark.scope.same_as(&figure.scope) {
        found.push(mismatch(
            "scope",
            if de {
                format!(
                    "der Zielwert gilt für {}; dieser Wert gilt für {}",
                    german::scope(&mark.scope),
                    german::scope(&figure.scope)
                )
            } else {
                format!(
                    "the mark covers {}; this figure covers {}",
                    mark.scope, figure.scope
                )
            },
        ));
    }
    let mark_definition = mark.effective_definition();
    let customised = matches!(mark.metric, Metric::Custom { .. })
        || !same_definition(mark_definition, mark.metric.default_definition());
    if customised
        && !figure.definition.trim().is_empty()
        && !same_definition(mark_definition, &figure.definition)
    {
        let (metric, theirs) = (mark.metric.short_label_in(lang), figure.definition.trim());
        found.push(mismatch(
            "definition",
            if de {
                format!(
                    "der Zielwert definiert {metric} als „{mark_definition}“; dieser Wert ist \
                     als „{theirs}“ definiert"
                )
            } else {
                format!(
                    "the mark defines {metric} as “{mark_definition}”; this figure is defined \
                     as “{theirs}”"
                )
            },
        ));
    }
    if figure.unit.convert(1.0, mark.unit).is_none() {
        found.push(mismatch("unit", unit_reason(figure.unit, mark.unit, lang)));
    }
    if let Some(serving) = serving
        && mark.metric.depends_on_serving()
    {
        let differs = |a: &str, b: &str| {
            !a.trim().is_empty() && !b.trim().is_empty() && !a.trim().eq_ignore_ascii_case(b.trim())
        };
        let other_gpu = crate::sizing::gpu::same_gpu_name(&figure.gpu, &serving.gpu) == Some(false);
        if other_gpu {
            let (theirs, ours) = (figure.gpu.trim(), serving.gpu.trim());
            found.push(mismatch(
                "GPU",
                if de {
                    format!(
                        "dieser Wert wurde auf {theirs} gemessen, der Pilot läuft aber auf \
                         {ours}: Latenz und Durchsatz gehören zu der GPU, auf der sie gemessen \
                         wurden"
                    )
                } else {
                    format!(
                        "this figure was measured on {theirs}, but the pilot serves on {ours}: \
                         latency and throughput belong to the GPU they were measured on"
                    )
                },
            ));
        }
        if differs(&figure.engine_version, &serving.engine_version) {
            let (theirs, ours) = (figure.engine_version.trim(), serving.engine_version.trim());
            found.push(mismatch(
                "engine version",
                if de {
                    format!(
                        "dieser Wert wurde mit der Engine-Version {theirs} gemessen, der Pilot \
                         läuft aber mit {ours}"
                    )
                } else {
                    format!(
                        "this figure was measured with engine version {theirs}, but the pilot \
                         serves with {ours}"
                    )
                },
            ));
        }
    }
    if mark.statistic == figure.statistic
        && let Some(m) = super::samples::insufficient_in(mark, figure, lang)
    {
        found.push(m);
    }
    found
}

fn unit_reason(figure: crate::plan::Unit, mark: crate::plan::Unit, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "this figure is in {figure} and the mark in {mark}, with no exact conversion between \
             them"
        ),
        Lang::De => format!(
            "dieser Wert ist in {} angegeben und der Zielwert in {}, ohne exakte Umrechnung \
             zwischen beiden",
            german::unit_symbol(figure),
            german::unit_symbol(mark)
        ),
    }
}

/// One reason, naming the other aspects that differ too.
/// Phrased in `lang`.
pub(crate) fn combined_reason_in(found: &[Mismatch], lang: Lang) -> String {
    match found {
        [] => String::new(),
        [only] => only.reason.clone(),
        [first, rest @ ..] => match lang {
            Lang::En => {
                let aspects: Vec<&str> = rest.iter().map(|m| m.aspect).collect();
                format!("{} (its {} differ too)", first.reason, aspects.join(", "))
            }
            Lang::De => {
                let aspects: Vec<&str> = rest.iter().map(|m| german::aspect(m.aspect)).collect();
                format!("{} (auch {} weichen ab)", first.reason, aspects.join(", "))
            }
        },
    }
}

/// A not-comparable grade whose explanation is phrased in `lang` (the reason already is).
pub(crate) fn not_comparable_in(reason: String, lang: Lang) -> MarkGrade {
    MarkGrade {
        explanation: match lang {
            Lang::En => format!("Not comparable: {reason}."),
            Lang::De => format!("Nicht vergleichbar: {reason}."),
        },
        verdict: Verdict::NotComparable { reason },
        value_used: None,
    }
}

pub(crate) fn not_measured(explanation: String) -> MarkGrade {
    MarkGrade {
        verdict: Verdict::NotMeasured,
        value_used: None,
        explanation,
    }
}

fn source_suffix(figure: &EvidenceStatistic) -> String {
    match figure.source.trim() {
        "" => String::new(),
        source => format!(" ({source})"),
    }
}

/// The figure's label in `lang`, with its source in English (the German report prints the
/// source in a column of its own, in the importer's words, so its sentences leave it out).
fn figure_label(figure: &EvidenceStatistic, lang: Lang) -> String {
    match lang {
        Lang::En => format!("The {} figure{}", figure.label(), source_suffix(figure)),
        Lang::De => format!(
            "Der Wert {}",
            german::key_label(&crate::plan::MarkKey {
                metric: figure.metric.clone(),
                statistic: figure.statistic,
                point: figure.point,
                scope: figure.scope.clone(),
            })
        ),
    }
}

fn no_value(figure: &EvidenceStatistic, lang: Lang) -> MarkGrade {
    not_measured(match lang {
        Lang::En => format!("{} has no value.", figure_label(figure, lang)),
        Lang::De => format!("{} hat keinen Zahlenwert.", figure_label(figure, lang)),
    })
}

/// Grades a comparable figure: converts it to the mark's unit, respects bounds, compares.
/// Phrased in `lang`.
pub(crate) fn evaluate_in(mark: &PassMark, figure: &EvidenceStatistic, lang: Lang) -> MarkGrade {
    let de = lang == Lang::De;
    let label = match lang {
        Lang::En => mark.key().label(),
        Lang::De => german::key_label(&mark.key()),
    };
    let quantity = |value: f64| german::quantity(value, mark.unit, lang);
    let limit = format!("{} {}", mark.comparator.symbol(), quantity(mark.threshold));
    let Some(raw) = figure.finite_value() else {
        return no_value(figure, lang);
    };
    let Some(value) = figure.unit.convert(raw, mark.unit) else {
        return not_comparable_in(unit_reason(figure.unit, mark.unit, lang), lang);
    };
    let shown = if figure.unit == mark.unit {
        quantity(value)
    } else {
        format!(
            "{} (= {})",
            german::quantity(raw, figure.unit, lang),
            quantity(value)
        )
    };
    if let Some(bounds) = figure.bounds {
        let low = figure.unit.convert(bounds.low, mark.unit).unwrap_or(value);
        let high = figure.unit.convert(bounds.high, mark.unit).unwrap_or(value);
        let (low_passes, high_passes) = (
            mark.comparator.admits(low, mark.threshold),
            mark.comparator.admits(high, mark.threshold),
        );
        if low_passes != high_passes {
            let (low, high) = (quantity(low), quantity(high));
            return not_comparable_in(
                if de {
                    format!(
                        "von diesem Wert ({shown}) ist nur bekannt, dass er zwischen {low} und \
                         {high} liegt, also auf beiden Seiten des Zielwerts {limit}; erst \
                         genaue Werte je Anfrage (das Gateway-Log) entscheiden es"
                    )
                } else {
                    format!(
                        "this figure ({shown}) is only known to lie between {low} and {high}, \
                         which straddles the {limit} mark; exact per-request numbers (the \
                         gateway log) decide it"
                    )
                },
                lang,
            );
        }
    }
    let used = Some(Quantity {
        value,
        unit: mark.unit,
    });
    let mut caveats: Vec<String> = figure
        .caveats
        .iter()
        .map(|c| super::comparability::caveat_in(c, lang))
        .collect();
    caveats.extend(super::samples::small_sample_note_in(mark, figure, lang));
    let source = format!(
        "{}{}",
        if de {
            String::new()
        } else {
            source_suffix(figure)
        },
        if caveats.is_empty() {
            String::new()
        } else {
            format!(" [{}]", caveats.join("; "))
        }
    );
    if mark.comparator.admits(value, mark.threshold) {
        return MarkGrade {
            verdict: Verdict::Pass,
            value_used: used,
            explanation: match lang {
                Lang::En => format!("{label}: {shown} meets {limit}{source}."),
                Lang::De => format!("{label}: {shown} erreicht {limit}{source}."),
            },
        };
    }
    let explanation = if crate::plan::comparator::nearly_equal(value, mark.threshold) {
        match lang {
            Lang::En => {
                format!("{label}: {shown} is exactly the limit, which {limit} excludes{source}.")
            }
            Lang::De => format!(
                "{label}: {shown} liegt genau auf der Grenze, die {limit} ausschließt{source}."
            ),
        }
    } else {
        let by = quantity((value - mark.threshold).abs());
        match lang {
            Lang::En => format!("{label}: {shown} misses {limit} by {by}{source}."),
            Lang::De => format!("{label}: {shown} verfehlt {limit} um {by}{source}."),
        }
    };
    MarkGrade {
        verdict: Verdict::Fail,
        value_used: used,
        explanation,
    }
}

/// Grades `mark` against one figure (or none). Checks that the figure is the mark's number (see
/// the module notes), then compares; never guesses across metrics, points, statistics, scopes,
/// definitions or inexact units.
pub fn grade(mark: &PassMark, figure: Option<&EvidenceStatistic>) -> MarkGrade {
    grade_in(mark, figure, Lang::En)
}

/// [`grade`] with the explanation (and a not-comparable reason) phrased in `lang`, for the
/// report; the verdict and the value are the same in every language.
pub fn grade_in(mark: &PassMark, figure: Option<&EvidenceStatistic>, lang: Lang) -> MarkGrade {
    let Some(figure) = figure else {
        return not_measured(match lang {
            Lang::En => format!("No figure for {} has been recorded.", mark.key().label()),
            Lang::De => format!(
                "Für {} wurde noch kein Wert erfasst.",
                german::key_label(&mark.key())
            ),
        });
    };
    if !mark.metric.same_as(&figure.metric) {
        return not_comparable_in(metric_reason_in(&mark.metric, &figure.metric, lang), lang);
    }
    if figure.finite_value().is_none() {
        return no_value(figure, lang);
    }
    let found = mismatches_in(mark, figure, None, lang);
    if !found.is_empty() {
        return not_comparable_in(combined_reason_in(&found, lang), lang);
    }
    evaluate_in(mark, figure, lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Comparator, MeasurementPoint, Scope, Unit};

    fn mark(
        metric: Metric,
        statistic: Statistic,
        comparator: Comparator,
        threshold: f64,
        unit: Unit,
    ) -> PassMark {
        PassMark {
            metric: metric.clone(),
            statistic,
            comparator,
            threshold,
            unit,
            point: MeasurementPoint::Gateway,
            definition: metric.default_definition().into(),
            scope: Scope::AllTraffic,
            rationale: String::new(),
        }
    }

    fn ttft_p95() -> PassMark {
        mark(
            Metric::Ttft,
            Statistic::P95,
            Comparator::Le,
            500.0,
            Unit::Ms,
        )
    }

    fn figure(metric: Metric, statistic: Statistic, value: f64, unit: Unit) -> EvidenceStatistic {
        EvidenceStatistic::new(metric, statistic, value, unit, MeasurementPoint::Gateway)
    }

    fn ttft(statistic: Statistic, value: f64) -> EvidenceStatistic {
        figure(Metric::Ttft, statistic, value, Unit::Ms)
    }

    fn reason(grade: &MarkGrade) -> &str {
        match &grade.verdict {
            Verdict::NotComparable { reason } => reason,
            other => panic!(
                "expected not comparable, got {other:?}: {}",
                grade.explanation
            ),
        }
    }

    #[test]
    fn a_matching_figure_passes_or_fails_with_the_value_and_a_reason() {
        let pass = grade(&ttft_p95(), Some(&ttft(Statistic::P95, 480.0)));
        assert_eq!(pass.verdict, Verdict::Pass);
        assert_eq!(
            pass.value_used,
            Some(Quantity {
                value: 480.0,
                unit: Unit::Ms
            })
        );
        assert_eq!(
            pass.explanation,
            "p95 TTFT at the gateway: 480 ms meets ≤ 500 ms."
        );
        let fail = grade(
            &ttft_p95(),
            Some(&ttft(Statistic::P95, 620.0).recorded("gateway log, week 2", 5)),
        );
        assert_eq!(fail.verdict, Verdict::Fail);
        assert_eq!(
            fail.explanation,
            "p95 TTFT at the gateway: 620 ms misses ≤ 500 ms by 120 ms (gateway log, week 2)."
        );
    }

    #[test]
    fn every_comparator_at_below_and_above_and_on_the_limit() {
        let upper = |comparator| mark(Metric::Ttft, Statistic::P95, comparator, 500.0, Unit::Ms);
        let floor = |comparator| {
            mark(
                Metric::OutputSpeedPerUser,
                Statistic::Mean,
                comparator,
                25.0,
                Unit::TokensPerS,
            )
        };
        let speed = |value| {
            figure(
                Metric::OutputSpeedPerUser,
                Statistic::Mean,
                value,
                Unit::TokensPerS,
            )
        };
        let cases = [
            (
                upper(Comparator::Le),
                ttft(Statistic::P95, 499.9),
                Verdict::Pass,
            ),
            (
                upper(Comparator::Le),
                ttft(Statistic::P95, 500.0),
                Verdict::Pass,
            ),
            (
                upper(Comparator::Le),
                ttft(Statistic::P95, 500.1),
                Verdict::Fail,
            ),
            (
                upper(Comparator::Lt),
                ttft(Statistic::P95, 499.9),
                Verdict::Pass,
            ),
            (
                upper(Comparator::Lt),
                ttft(Statistic::P95, 500.0),
                Verdict::Fail,
            ),
            (
                upper(Comparator::Lt),
                ttft(Statistic::P95, 500.1),
                Verdict::Fail,
            ),
            (floor(Comparator::Ge), speed(25.1), Verdict::Pass),
            (floor(Comparator::Ge), speed(25.0), Verdict::Pass),
            (floor(Comparator::Ge), speed(24.9), Verdict::Fail),
            (floor(Comparator::Gt), speed(25.1), Verdict::Pass),
            (floor(Comparator::Gt), speed(25.0), Verdict::Fail),
            (floor(Comparator::Gt), speed(24.9), Verdict::Fail),
        ];
        for (mark, figure, expected) in cases {
            let graded = grade(&mark, Some(&figure));
            assert_eq!(
                graded.verdict,
                expected,
                "{} vs {}",
                mark.notation(),
                figure.value_text()
            );
        }
        let on_limit = grade(&upper(Comparator::Lt), Some(&ttft(Statistic::P95, 500.0)));
        assert_eq!(
            on_limit.explanation,
            "p95 TTFT at the gateway: 500 ms is exactly the limit, which < 500 ms excludes."
        );
    }

    #[test]
    fn every_statistic_grades_against_the_same_statistic() {
        let latency = [
            Statistic::P50,
            Statistic::P90,
            Statistic::P95,
            Statistic::P99,
            Statistic::Mean,
            Statistic::Max,
        ];
        for statistic in latency {
            let mark = mark(Metric::Ttft, statistic, Comparator::Le, 500.0, Unit::Ms);
            assert_eq!(
                grade(&mark, Some(&ttft(statistic, 400.0))).verdict,
                Verdict::Pass,
                "{statistic}"
            );
            for other in latency.into_iter().filter(|s| *s != statistic) {
                let graded = grade(&mark, Some(&ttft(other, 400.0)));
                assert!(
                    matches!(graded.verdict, Verdict::NotComparable { .. }),
                    "{statistic} vs {other}"
                );
            }
        }
        let error_rate = mark(
            Metric::ErrorRate,
            Statistic::Rate,
            Comparator::Le,
            1.0,
            Unit::Percent,
        );
        let errors = |value| figure(Metric::ErrorRate, Statistic::Rate, value, Unit::Percent);
        assert_eq!(
            grade(&error_rate, Some(&errors(0.4))).verdict,
            Verdict::Pass
        );
        assert_eq!(
            grade(&error_rate, Some(&errors(1.0))).verdict,
            Verdict::Pass
        );
        assert_eq!(
            grade(&error_rate, Some(&errors(2.5))).verdict,
            Verdict::Fail
        );
    }

    #[test]
    fn a_different_percentile_or_a_mean_is_not_comparable() {
        let p99 = grade(&ttft_p95(), Some(&ttft(Statistic::P99, 400.0)));
        assert_eq!(
            reason(&p99),
            "the mark is on p95; this figure is p99, a different percentile"
        );
        let mean = grade(&ttft_p95(), Some(&ttft(Statistic::Mean, 400.0)));
        assert_eq!(
            reason(&mean),
            "the mark is on p95; this figure is a mean, which hides the tail"
        );
    }

    #[test]
    fn client_mark_with_only_engine_figure_is_not_comparable() {
        let client_mark = PassMark {
            point: MeasurementPoint::Client,
            ..ttft_p95()
        };
        let engine = EvidenceStatistic {
            point: MeasurementPoint::Engine,
            ..ttft(Statistic::P95, 300.0)
        };
        let graded = grade(&client_mark, Some(&engine));
        assert_eq!(
            reason(&graded),
            "the mark is measured at the client, which includes the network, any gateway and the \
             queue; this figure was measured at the engine, which starts inside the engine and \
             leaves out the network and any gateway"
        );
        assert_eq!(graded.value_used, None);
        assert!(
            graded
                .explanation
                .starts_with("Not comparable: the mark is measured at the client")
        );
        let error_mark = mark(
            Metric::ErrorRate,
            Statistic::Rate,
            Comparator::Le,
            1.0,
            Unit::Percent,
        );
        let client_errors = EvidenceStatistic {
            point: MeasurementPoint::Client,
            ..figure(Metric::ErrorRate, Statistic::Rate, 0.5, Unit::Percent)
        };
        assert_eq!(
            reason(&grade(&error_mark, Some(&client_errors))),
            "the mark is measured at the gateway; this figure comes from the client"
        );
    }

    #[test]
    fn tpot_is_not_graded_by_itl_or_per_user_speed() {
        let tpot = mark(Metric::Tpot, Statistic::P99, Comparator::Le, 40.0, Unit::Ms);
        let itl = figure(Metric::Itl, Statistic::P99, 35.0, Unit::Ms);
        let graded = grade(&tpot, Some(&itl));
        assert!(reason(&graded).starts_with("the mark is on TPOT, each request's average"));
        assert!(reason(&graded).contains("this figure is ITL"));
        let itl_mark = mark(Metric::Itl, Statistic::P99, Comparator::Le, 40.0, Unit::Ms);
        let tpot_figure = figure(Metric::Tpot, Statistic::P99, 35.0, Unit::Ms);
        assert!(reason(&grade(&itl_mark, Some(&tpot_figure))).starts_with("the mark is on ITL"));
        let speed = figure(
            Metric::OutputSpeedPerUser,
            Statistic::Mean,
            30.0,
            Unit::TokensPerS,
        );
        assert!(reason(&grade(&tpot, Some(&speed))).contains("1000 ÷ TPOT request by request"));
        let e2e = figure(Metric::E2e, Statistic::P95, 3.0, Unit::S);
        assert_eq!(
            reason(&grade(&ttft_p95(), Some(&e2e))),
            "the mark is on TTFT, this figure is E2E latency: a different metric"
        );
    }

    #[test]
    fn seconds_and_milliseconds_convert_and_the_boundary_holds() {
        let two_seconds = mark(Metric::Ttft, Statistic::P99, Comparator::Le, 2.0, Unit::S);
        let at_limit = ttft(Statistic::P99, 2000.0);
        let graded = grade(&two_seconds, Some(&at_limit));
        assert_eq!(graded.verdict, Verdict::Pass);
        assert_eq!(graded.value_used.unwrap().value, 2.0);
        assert_eq!(
            graded.explanation,
            "p99 TTFT at the gateway: 2,000 ms (= 2 s) meets ≤ 2 s."
        );
        let strict = mark(
            Metric::Ttft,
            Statistic::P95,
            Comparator::Lt,
            300.0,
            Unit::Ms,
        );
        let rounded = figure(Metric::Ttft, Statistic::P95, 0.1 * 3.0, Unit::S);
        assert_eq!(grade(&strict, Some(&rounded)).verdict, Verdict::Fail);
        let tokens = mark(
            Metric::AggregateOutputThroughput,
            Statistic::Mean,
            Comparator::Ge,
            1000.0,
            Unit::TokensPerS,
        );
        let throughput = figure(
            Metric::AggregateOutputThroughput,
            Statistic::Mean,
            1200.0,
            Unit::TokensPerS,
        );
        assert_eq!(grade(&tokens, Some(&throughput)).verdict, Verdict::Pass);
    }

    #[test]
    fn inexact_units_are_not_comparable() {
        let goodput_rate = mark(
            Metric::Goodput,
            Statistic::Mean,
            Comparator::Ge,
            2.0,
            Unit::ReqPerS,
        );
        let goodput_share = figure(Metric::Goodput, Statistic::Mean, 95.0, Unit::Percent);
        assert_eq!(
            reason(&grade(&goodput_rate, Some(&goodput_share))),
            "this figure is in % and the mark in req/s, with no exact conversion between them"
        );
    }

    #[test]
    fn scope_must_match() {
        let rag = PassMark {
            scope: Scope::Scenario("RAG".into()),
            ..ttft_p95()
        };
        let all = ttft(Statistic::P95, 400.0);
        assert_eq!(
            reason(&grade(&rag, Some(&all))),
            "the mark covers scenario “RAG”; this figure covers all traffic"
        );
        let scoped = ttft(Statistic::P95, 400.0).with_scope(Scope::Scenario("rag".into()));
        assert_eq!(grade(&rag, Some(&scoped)).verdict, Verdict::Pass);
        let peak = ttft(Statistic::P95, 400.0).with_scope(Scope::PlannedPeak);
        assert!(matches!(
            grade(&ttft_p95(), Some(&peak)).verdict,
            Verdict::NotComparable { .. }
        ));
    }

    #[test]
    fn definitions_matter_when_the_mark_states_its_own() {
        let tool_text =
            ttft(Statistic::P95, 400.0).with_definition("request sent → first streamed output");
        assert_eq!(grade(&ttft_p95(), Some(&tool_text)).verdict, Verdict::Pass);
        let over_all_tokens = PassMark {
            definition: "per request: (last token − first token) ÷ output tokens".into(),
            ..mark(Metric::Tpot, Statistic::P95, Comparator::Le, 50.0, Unit::Ms)
        };
        let standard = figure(Metric::Tpot, Statistic::P95, 40.0, Unit::Ms)
            .with_definition("per request: (E2E - TTFT) / (output tokens - 1)");
        let graded = grade(&over_all_tokens, Some(&standard));
        assert!(reason(&graded).starts_with("the mark defines TPOT as “per request: (last token"));
        let same = figure(Metric::Tpot, Statistic::P95, 40.0, Unit::Ms)
            .with_definition("Per request: (last token - first token) / output tokens");
        assert_eq!(grade(&over_all_tokens, Some(&same)).verdict, Verdict::Pass);
        let unstated = figure(Metric::Tpot, Statistic::P95, 40.0, Unit::Ms);
        assert_eq!(
            grade(&over_all_tokens, Some(&unstated)).verdict,
            Verdict::Pass
        );
    }

    #[test]
    fn custom_metrics_grade_by_name_and_definition() {
        let custom = Metric::Custom {
            name: "Citations per answer".into(),
            unit: Unit::Score,
        };
        let mark = PassMark {
            definition: "citations counted per answer".into(),
            point: MeasurementPoint::EvaluationSet,
            ..mark(custom, Statistic::Mean, Comparator::Ge, 2.0, Unit::Score)
        };
        let figure = |name: &str, definition: &str| EvidenceStatistic {
            definition: definition.into(),
            ..EvidenceStatistic::new(
                Metric::Custom {
                    name: name.into(),
                    unit: Unit::Score,
                },
                Statistic::Mean,
                2.4,
                Unit::Score,
                MeasurementPoint::EvaluationSet,
            )
        };
        assert_eq!(
            grade(
                &mark,
                Some(&figure(
                    "citations per answer",
                    "Citations counted per answer"
                ))
            )
            .verdict,
            Verdict::Pass
        );
        assert!(matches!(
            grade(
                &mark,
                Some(&figure("citations per answer", "links per answer"))
            )
            .verdict,
            Verdict::NotComparable { .. }
        ));
        assert!(matches!(
            grade(&mark, Some(&figure("sources", ""))).verdict,
            Verdict::NotComparable { .. }
        ));
    }

    #[test]
    fn bounds_that_straddle_the_limit_are_not_comparable() {
        let bucketed = ttft(Statistic::P95, 420.0).with_bounds(250.0, 500.0);
        assert_eq!(grade(&ttft_p95(), Some(&bucketed)).verdict, Verdict::Pass);
        let strict = PassMark {
            comparator: Comparator::Lt,
            ..ttft_p95()
        };
        let graded = grade(&strict, Some(&bucketed));
        assert_eq!(
            reason(&graded),
            "this figure (420 ms) is only known to lie between 250 ms and 500 ms, which \
             straddles the < 500 ms mark; exact per-request numbers (the gateway log) decide it"
        );
        let above = ttft(Statistic::P95, 600.0).with_bounds(500.001, 750.0);
        assert_eq!(grade(&ttft_p95(), Some(&above)).verdict, Verdict::Fail);
    }

    #[test]
    fn missing_figures_are_not_measured() {
        let none = grade(&ttft_p95(), None);
        assert_eq!(none.verdict, Verdict::NotMeasured);
        assert_eq!(
            none.explanation,
            "No figure for p95 TTFT at the gateway has been recorded."
        );
        let empty = grade(&ttft_p95(), Some(&ttft(Statistic::P95, f64::NAN)));
        assert_eq!(empty.verdict, Verdict::NotMeasured);
        let absent = EvidenceStatistic {
            value: None,
            ..ttft(Statistic::P95, 0.0).recorded("vllm bench serve", 1)
        };
        assert_eq!(
            grade(&ttft_p95(), Some(&absent)).explanation,
            "The p95 TTFT at the gateway figure (vllm bench serve) has no value."
        );
    }

    #[test]
    fn several_differences_are_all_named() {
        let figure = EvidenceStatistic {
            point: MeasurementPoint::Engine,
            ..ttft(Statistic::P99, 400.0).with_scope(Scope::PlannedPeak)
        };
        let graded = grade(&ttft_p95(), Some(&figure));
        assert!(
            reason(&graded).ends_with("(its statistic, scope differ too)"),
            "{}",
            reason(&graded)
        );
    }

    /// Every case of this module, graded in English through `grade_in(Lang::En)` and through
    /// `grade`: the same grade, byte for byte.
    #[test]
    fn grading_in_english_is_the_english_grade() {
        let tpot = mark(Metric::Tpot, Statistic::P99, Comparator::Le, 40.0, Unit::Ms);
        let strict = PassMark {
            comparator: Comparator::Lt,
            ..ttft_p95()
        };
        let cases: Vec<(PassMark, Option<EvidenceStatistic>)> = vec![
            (ttft_p95(), Some(ttft(Statistic::P95, 480.0))),
            (
                ttft_p95(),
                Some(ttft(Statistic::P95, 620.0).recorded("gateway log, week 2", 5)),
            ),
            (strict.clone(), Some(ttft(Statistic::P95, 500.0))),
            (
                strict,
                Some(ttft(Statistic::P95, 420.0).with_bounds(250.0, 500.0)),
            ),
            (ttft_p95(), Some(ttft(Statistic::P99, 400.0))),
            (ttft_p95(), Some(ttft(Statistic::Mean, 400.0))),
            (
                tpot.clone(),
                Some(figure(Metric::Itl, Statistic::P99, 35.0, Unit::Ms)),
            ),
            (
                ttft_p95(),
                Some(figure(Metric::E2e, Statistic::P95, 3.0, Unit::S)),
            ),
            (
                mark(Metric::Ttft, Statistic::P99, Comparator::Le, 2.0, Unit::S),
                Some(ttft(Statistic::P99, 2000.0)),
            ),
            (
                ttft_p95(),
                Some(EvidenceStatistic {
                    point: MeasurementPoint::Engine,
                    ..ttft(Statistic::P99, 400.0).with_scope(Scope::PlannedPeak)
                }),
            ),
            (ttft_p95(), None),
            (ttft_p95(), Some(ttft(Statistic::P95, f64::NAN))),
        ];
        for (mark, figure) in cases {
            assert_eq!(
                grade_in(&mark, figure.as_ref(), Lang::En),
                grade(&mark, figure.as_ref())
            );
        }
    }

    #[test]
    fn a_german_grade_reads_german_with_german_numbers() {
        let de = |mark: &PassMark, figure: &EvidenceStatistic| {
            grade_in(mark, Some(figure), Lang::De).explanation
        };
        let two_seconds = mark(Metric::Ttft, Statistic::P99, Comparator::Le, 2.0, Unit::S);
        assert_eq!(
            de(&two_seconds, &ttft(Statistic::P99, 2000.0)),
            "p99 TTFT am Gateway: 2.000 ms (= 2 s) erreicht ≤ 2 s."
        );
        let tpot = mark(Metric::Tpot, Statistic::P99, Comparator::Le, 40.0, Unit::Ms);
        // The source is left out: the report prints it in its own column.
        let slow = figure(Metric::Tpot, Statistic::P99, 43.5, Unit::Ms).recorded("run 3", 1);
        assert_eq!(
            de(&tpot, &slow),
            "p99 TPOT am Gateway: 43,5 ms verfehlt ≤ 40 ms um 3,5 ms."
        );
        let strict = PassMark {
            comparator: Comparator::Lt,
            ..ttft_p95()
        };
        assert_eq!(
            de(&strict, &ttft(Statistic::P95, 500.0)),
            "p95 TTFT am Gateway: 500 ms liegt genau auf der Grenze, die < 500 ms ausschließt."
        );
        let client_mark = PassMark {
            point: MeasurementPoint::Client,
            ..ttft_p95()
        };
        let engine = EvidenceStatistic {
            point: MeasurementPoint::Engine,
            ..ttft(Statistic::P95, 300.0)
        };
        let graded = grade_in(&client_mark, Some(&engine), Lang::De);
        assert!(matches!(graded.verdict, Verdict::NotComparable { .. }));
        assert_eq!(
            graded.explanation,
            "Nicht vergleichbar: der Zielwert wird am Client gemessen, was das Netz, ein \
             etwaiges Gateway und die Warteschlange einschließt; dieser Wert wurde an der Engine \
             gemessen, was erst in der Engine beginnt und Netz und Gateway auslässt."
        );
        let several = EvidenceStatistic {
            point: MeasurementPoint::Engine,
            ..ttft(Statistic::P99, 400.0).with_scope(Scope::PlannedPeak)
        };
        assert!(
            de(&ttft_p95(), &several).ends_with("(auch Statistik, Geltungsbereich weichen ab)."),
            "{}",
            de(&ttft_p95(), &several)
        );
        assert_eq!(
            de(
                &strict,
                &ttft(Statistic::P95, 420.5).with_bounds(250.0, 500.0)
            ),
            "Nicht vergleichbar: von diesem Wert (420,5 ms) ist nur bekannt, dass er zwischen \
             250 ms und 500 ms liegt, also auf beiden Seiten des Zielwerts < 500 ms; erst \
             genaue Werte je Anfrage (das Gateway-Log) entscheiden es."
        );
        assert_eq!(
            grade_in(&ttft_p95(), None, Lang::De).explanation,
            "Für p95 TTFT am Gateway wurde noch kein Wert erfasst."
        );
        let throughput = mark(
            Metric::AggregateOutputThroughput,
            Statistic::Mean,
            Comparator::Ge,
            1000.0,
            Unit::TokensPerS,
        );
        let measured = figure(
            Metric::AggregateOutputThroughput,
            Statistic::Mean,
            1234.5,
            Unit::TokensPerS,
        );
        assert!(
            de(&throughput, &measured).ends_with(": 1.234,5 Token/s erreicht ≥ 1.000 Token/s."),
            "{}",
            de(&throughput, &measured)
        );
    }

    #[test]
    fn verdicts_serialise_with_an_outcome_tag() {
        assert_eq!(
            serde_json::to_string(&Verdict::Pass).unwrap(),
            r#"{"outcome":"pass"}"#
        );
        assert_eq!(
            serde_json::to_string(&Verdict::NotComparable { reason: "x".into() }).unwrap(),
            r#"{"outcome":"not_comparable","reason":"x"}"#
        );
        for verdict in [
            Verdict::Pass,
            Verdict::Fail,
            Verdict::NotMeasured,
            Verdict::NotComparable { reason: "r".into() },
        ] {
            let json = serde_json::to_value(&verdict).unwrap();
            assert_eq!(json["outcome"], verdict.as_str());
        }
    }
}
