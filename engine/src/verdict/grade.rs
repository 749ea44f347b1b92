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
use crate::plan::{
    Metric, MetricFamily, PassMark, PilotServing, Quantity, Statistic, format_quantity,
    same_definition,
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
pub(crate) fn metric_reason(mark: &Metric, figure: &Metric) -> String {
    let tpot = "TPOT, each request's average (E2E − TTFT) ÷ (output tokens − 1)";
    let itl = "ITL, every gap between streamed chunks pooled over requests";
    match (mark, figure) {
        (Metric::Tpot, Metric::Itl) => format!(
            "the mark is on {tpot}; this figure is {itl}. They differ whenever a chunk carries \
             several tokens, so one cannot stand in for the other"
        ),
        (Metric::Itl, Metric::Tpot) => format!(
            "the mark is on {itl}; this figure is {tpot}. They differ whenever a chunk carries \
             several tokens, so one cannot stand in for the other"
        ),
        (Metric::Tpot, Metric::OutputSpeedPerUser) | (Metric::OutputSpeedPerUser, Metric::Tpot) => {
            format!(
                "the mark is on {}, this figure is {}: speed is 1000 ÷ TPOT request by request, \
                 but a mean or percentile of one is not 1000 ÷ the same statistic of the other",
                mark.short_label(),
                figure.short_label()
            )
        }
        _ => format!(
            "the mark is on {}, this figure is {}: a different metric",
            mark.short_label(),
            figure.short_label()
        ),
    }
}

fn statistic_reason(mark: Statistic, figure: Statistic) -> String {
    match (mark.is_percentile(), figure) {
        (true, figure) if figure.is_percentile() => {
            format!("the mark is on {mark}; this figure is {figure}, a different percentile")
        }
        (true, Statistic::Mean) => {
            format!("the mark is on {mark}; this figure is a mean, which hides the tail")
        }
        _ => format!("the mark is on the {mark}; this figure is the {figure}"),
    }
}

/// Every way `figure` differs from the number `mark` is about (the metric is assumed equal).
/// `serving` adds the GPU and engine-version checks of plan grading.
pub(crate) fn mismatches(
    mark: &PassMark,
    figure: &EvidenceStatistic,
    serving: Option<&PilotServing>,
) -> Vec<Mismatch> {
    let mut found = Vec::new();
    if let Some(reason) = &figure.not_comparable {
        found.push(mismatch("evidence", reason.clone()));
    }
    if mark.point != figure.point {
        let reason = if mark.metric.family() == MetricFamily::Latency {
            format!(
                "the mark is measured at {}, which {}; this figure was measured at {}, which {}",
                mark.point.noun(),
                mark.point.includes(),
                figure.point.noun(),
                figure.point.includes()
            )
        } else {
            format!(
                "the mark is measured at {}; this figure comes from {}",
                mark.point.noun(),
                figure.point.noun()
            )
        };
        found.push(mismatch("measurement point", reason));
    }
    if mark.statistic != figure.statistic {
        found.push(mismatch(
            "statistic",
            statistic_reason(mark.statistic, figure.statistic),
        ));
    }
    if !mark.scope.same_as(&figure.scope) {
        found.push(mismatch(
            "scope",
            format!(
                "the mark covers {}; this figure covers {}",
                mark.scope, figure.scope
            ),
        ));
    }
    let mark_definition = mark.effective_definition();
    let customised = matches!(mark.metric, Metric::Custom { .. })
        || !same_definition(mark_definition, mark.metric.default_definition());
    if customised
        && !figure.definition.trim().is_empty()
        && !same_definition(mark_definition, &figure.definition)
    {
        found.push(mismatch(
            "definition",
            format!(
                "the mark defines {} as “{}”; this figure is defined as “{}”",
                mark.metric.short_label(),
                mark_definition,
                figure.definition.trim()
            ),
        ));
    }
    if figure.unit.convert(1.0, mark.unit).is_none() {
        found.push(mismatch(
            "unit",
            format!(
                "this figure is in {} and the mark in {}, with no exact conversion between them",
                figure.unit, mark.unit
            ),
        ));
    }
    if let Some(serving) = serving
        && mark.metric.depends_on_serving()
    {
        let differs = |a: &str, b: &str| {
            !a.trim().is_empty() && !b.trim().is_empty() && !a.trim().eq_ignore_ascii_case(b.trim())
        };
        let other_gpu = crate::sizing::gpu::same_gpu_name(&figure.gpu, &serving.gpu) == Some(false);
        if other_gpu {
            found.push(mismatch(
                "GPU",
                format!(
                    "this figure was measured on {}, but the pilot serves on {}: latency and \
                     throughput belong to the GPU they were measured on",
                    figure.gpu.trim(),
                    serving.gpu.trim()
                ),
            ));
        }
        if differs(&figure.engine_version, &serving.engine_version) {
            found.push(mismatch(
                "engine version",
                format!(
                    "this figure was measured with engine version {}, but the pilot serves with \
                     {}",
                    figure.engine_version.trim(),
                    serving.engine_version.trim()
                ),
            ));
        }
    }
    if mark.statistic == figure.statistic
        && let Some(m) = super::samples::insufficient(mark, figure)
    {
        found.push(m);
    }
    found
}

/// One reason, naming the other aspects that differ too.
pub(crate) fn combined_reason(found: &[Mismatch]) -> String {
    match found {
        [] => String::new(),
        [only] => only.reason.clone(),
        [first, rest @ ..] => {
            let aspects: Vec<&str> = rest.iter().map(|m| m.aspect).collect();
            format!("{} (its {} differ too)", first.reason, aspects.join(", "))
        }
    }
}

pub(crate) fn not_comparable(reason: String) -> MarkGrade {
    MarkGrade {
        explanation: format!("Not comparable: {reason}."),
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

/// Grades a comparable figure: converts it to the mark's unit, respects bounds, compares.
pub(crate) fn evaluate(mark: &PassMark, figure: &EvidenceStatistic) -> MarkGrade {
    let label = mark.key().label();
    let limit = format!("{} {}", mark.comparator.symbol(), mark.threshold_text());
    let Some(raw) = figure.finite_value() else {
        return not_measured(format!(
            "The {} figure{} has no value.",
            figure.label(),
            source_suffix(figure)
        ));
    };
    let Some(value) = figure.unit.convert(raw, mark.unit) else {
        return not_comparable(format!(
            "this figure is in {} and the mark in {}, with no exact conversion between them",
            figure.unit, mark.unit
        ));
    };
    let shown = if figure.unit == mark.unit {
        format_quantity(value, mark.unit)
    } else {
        format!(
            "{} (= {})",
            figure.value_text(),
            format_quantity(value, mark.unit)
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
            return not_comparable(format!(
                "this figure ({shown}) is only known to lie between {} and {}, which straddles \
                 the {limit} mark; exact per-request numbers (the gateway log) decide it",
                format_quantity(low, mark.unit),
                format_quantity(high, mark.unit)
            ));
        }
    }
    let used = Some(Quantity {
        value,
        unit: mark.unit,
    });
    let mut caveats = figure.caveats.clone();
    caveats.extend(super::samples::small_sample_note(mark, figure));
    let source = format!(
        "{}{}",
        source_suffix(figure),
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
            explanation: format!("{label}: {shown} meets {limit}{source}."),
        };
    }
    let explanation = if crate::plan::comparator::nearly_equal(value, mark.threshold) {
        format!("{label}: {shown} is exactly the limit, which {limit} excludes{source}.")
    } else {
        let by = format_quantity((value - mark.threshold).abs(), mark.unit);
        format!("{label}: {shown} misses {limit} by {by}{source}.")
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
    let Some(figure) = figure else {
        return not_measured(format!(
            "No figure for {} has been recorded.",
            mark.key().label()
        ));
    };
    if !mark.metric.same_as(&figure.metric) {
        return not_comparable(metric_reason(&mark.metric, &figure.metric));
    }
    if figure.finite_value().is_none() {
        return not_measured(format!(
            "The {} figure{} has no value.",
            figure.label(),
            source_suffix(figure)
        ));
    }
    let found = mismatches(mark, figure, None);
    if !found.is_empty() {
        return not_comparable(combined_reason(&found));
    }
    evaluate(mark, figure)
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
