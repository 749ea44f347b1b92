//! Which figure of the pilot's evidence grades which pass mark.
//!
//! Importers keep what the files say; grading needs each figure described as completely as a
//! mark ([`EvidenceStatistic`]). This module is the one place that decides how evidence turns
//! into figures, so the pilot page, the plan page, the verdict API and the report agree:
//!
//! * **Gateway log** → figures at the **gateway** over **all traffic**: TTFT, TPOT and E2E
//!   percentiles (p50, p90, p95, p99, mean, max), the median per-stream speed (1000 ÷ median
//!   TPOT: a monotone transform, so the median carries over exactly; a mean would not), and the
//!   error, timeout, cancellation and truncation rates in %.
//! * **Load tests** → figures at the **client**, graded only at the plan's **planned peak
//!   concurrency**. A load test sweeps concurrency, so "the p99 TTFT of the load test" is not one
//!   number; the plan names the load it must hold. Per scenario the point at the lowest tested
//!   concurrency at or above the planned peak is taken (never a lighter one: that would flatter
//!   the result). Its figures are the scenario's; the worst value across scenarios is the
//!   planned-peak figure and also the client's view of all traffic (a load test replaying the
//!   pilot's scenarios at the planned load is the best client-side evidence there is; the
//!   figure's source says that it is the worst scenario). Without a planned peak, or when no
//!   test reached it, load tests grade nothing, and [`load_test_gaps`] says why.
//! * **Evaluation runs** → figures at the **evaluation set**: answer accuracy (% of items right,
//!   a rate), mean score when the run scores fractionally, retrieval hit rate@k and truncation
//!   rate, for the run the caller chose (the decided precision's run).
//!
//! Every figure carries the number of requests (or questions) it rests on, so a percentile of
//! too few samples is not graded ([`super::samples`]), and the outcome of its file's
//! comparability check ([`super::comparability`]): a file of another model or GPU grades
//! nothing, a file that does not say is graded and flagged. A load-test point without a
//! request count is graded, flagged "sample count not stated in the file".

use super::evidence::EvidenceStatistic;
use crate::demand::DemandProfile;
use crate::locale::Lang;
use crate::plan::{MeasurementPoint, Metric, Scope, Statistic, Unit};
use crate::stats::Percentiles;
use serde::{Deserialize, Serialize};

/// p50 / p95 / p99 of one latency metric at one load-test point, in ms, as the file reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencyPercentiles {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
}

impl LatencyPercentiles {
    fn each(&self) -> [(Statistic, Option<f64>); 3] {
        [
            (Statistic::P50, self.p50),
            (Statistic::P95, self.p95),
            (Statistic::P99, self.p99),
        ]
    }
}

/// One load-test operating point as grading sees it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadPoint {
    pub scenario: String,
    /// Requests in flight: the concurrency the tool held, else the run's mean by Little's law
    /// (`concurrency_basis` says which; see [`crate::loadtest::in_flight`]).
    pub concurrency: Option<f64>,
    #[serde(default)]
    pub concurrency_basis: crate::loadtest::ConcurrencyBasis,
    /// The arrival rate the tool was set to, requests/s (`None`: a closed loop or all at once).
    #[serde(default)]
    pub request_rate: Option<f64>,
    pub ttft_ms: LatencyPercentiles,
    pub tpot_ms: LatencyPercentiles,
    pub itl_ms: LatencyPercentiles,
    pub e2e_ms: LatencyPercentiles,
    /// Output tokens/s of the whole system over the run.
    pub output_tokens_per_s: Option<f64>,
    pub completed: Option<u64>,
    pub failed: Option<u64>,
    /// `vllm bench serve, results.json`: where the point comes from, for people.
    pub source: String,
    pub recorded_at_ms: Option<i64>,
    pub gpu: String,
    pub engine_version: String,
    /// The model the point was measured with; empty when the file does not say.
    #[serde(default)]
    pub model: String,
    /// The file's comparability check against the pilot.
    #[serde(default)]
    pub check: super::comparability::FileCheck,
}

/// The figures of a gateway log's demand profile (without a comparability check: see
/// [`gateway_figures_checked`]).
pub fn gateway_figures(
    profile: &DemandProfile,
    source: &str,
    recorded_at_ms: i64,
) -> Vec<EvidenceStatistic> {
    gateway_figures_checked(
        profile,
        source,
        recorded_at_ms,
        &super::comparability::FileCheck::default(),
    )
}

/// The figures of a gateway log's demand profile, each with its sample count and the log's
/// comparability check.
pub fn gateway_figures_checked(
    profile: &DemandProfile,
    source: &str,
    recorded_at_ms: i64,
    check: &super::comparability::FileCheck,
) -> Vec<EvidenceStatistic> {
    let mut figures = Vec::new();
    let latency = &profile.gateway_latency;
    for (metric, percentiles) in [
        (Metric::Ttft, &latency.ttft_ms),
        (Metric::Tpot, &latency.tpot_ms),
        (Metric::E2e, &latency.e2e_ms),
    ] {
        if let Some(p) = percentiles {
            figures.extend(
                percentile_figures(metric, p)
                    .into_iter()
                    .map(|f| f.with_samples(p.count)),
            );
        }
    }
    if let Some(tpot) = &latency.tpot_ms
        && tpot.p50 > 0.0
    {
        figures.push(
            gateway(
                Metric::OutputSpeedPerUser,
                Statistic::P50,
                1000.0 / tpot.p50,
                Unit::TokensPerS,
            )
            .with_samples(tpot.count),
        );
    }
    // The mean of each request's own speed, for marks on the mean (a reading floor).
    if let (Some(mean), Some(tpot)) = (latency.output_speed_mean_tokens_per_s, &latency.tpot_ms) {
        figures.push(
            gateway(
                Metric::OutputSpeedPerUser,
                Statistic::Mean,
                mean,
                Unit::TokensPerS,
            )
            .with_samples(tpot.count),
        );
    }
    let outcomes = &profile.outcomes;
    if outcomes.requests > 0 {
        for (metric, rate, of) in [
            (Metric::ErrorRate, outcomes.failure_rate, outcomes.requests),
            (
                Metric::TimeoutRate,
                outcomes.timeout_rate,
                outcomes.requests,
            ),
            (
                Metric::CancellationRate,
                outcomes.cancellation_rate,
                outcomes.requests,
            ),
            (
                Metric::TruncationRate,
                outcomes.truncation_rate,
                outcomes.ok,
            ),
        ] {
            figures.push(
                gateway(metric, Statistic::Rate, rate * 100.0, Unit::Percent).with_samples(of),
            );
        }
    }
    figures
        .into_iter()
        .map(|f| f.recorded(source, recorded_at_ms).checked(check))
        .collect()
}

fn gateway(metric: Metric, statistic: Statistic, value: f64, unit: Unit) -> EvidenceStatistic {
    EvidenceStatistic::new(metric, statistic, value, unit, MeasurementPoint::Gateway)
}

fn percentile_figures(metric: Metric, p: &Percentiles) -> Vec<EvidenceStatistic> {
    [
        (Statistic::P50, p.p50),
        (Statistic::P90, p.p90),
        (Statistic::P95, p.p95),
        (Statistic::P99, p.p99),
        (Statistic::Mean, p.mean),
        (Statistic::Max, p.max),
    ]
    .into_iter()
    .map(|(statistic, value)| gateway(metric.clone(), statistic, value, Unit::Ms))
    .collect()
}

/// The point of each scenario graded at the planned peak: the lowest tested concurrency at or
/// above it. Scenarios in first-seen order; scenarios that never reached the peak are left out.
pub fn points_at_planned_peak(points: &[LoadPoint], planned_peak: u32) -> Vec<&LoadPoint> {
    planned_peak_indices(points, planned_peak)
        .into_iter()
        .map(|i| &points[i])
        .collect()
}

/// [`points_at_planned_peak`] as indices into `points`, for callers that keep more per point.
pub fn planned_peak_indices(points: &[LoadPoint], planned_peak: u32) -> Vec<usize> {
    let peak = f64::from(planned_peak);
    let mut chosen: Vec<usize> = Vec::new();
    for (index, point) in points.iter().enumerate() {
        let Some(concurrency) = point.concurrency.filter(|c| *c >= peak) else {
            continue;
        };
        match chosen
            .iter_mut()
            .find(|i| points[**i].scenario == point.scenario)
        {
            Some(best) => {
                let current = &points[*best];
                let current_concurrency = current.concurrency.unwrap_or(f64::INFINITY);
                let better = concurrency < current_concurrency
                    || (concurrency == current_concurrency
                        && point.recorded_at_ms > current.recorded_at_ms);
                if better {
                    *best = index;
                }
            }
            None => chosen.push(index),
        }
    }
    chosen
}

/// The figures of the load tests at the planned peak (none without one; see the module docs).
/// Points of files that are not the pilot's (another model or GPU) give figures marked not
/// comparable and never stand in for the planned peak when the pilot's own points do.
pub fn load_test_figures(
    points: &[LoadPoint],
    planned_peak: Option<u32>,
) -> Vec<EvidenceStatistic> {
    let Some(peak) = planned_peak else {
        return Vec::new();
    };
    let (comparable, others): (Vec<LoadPoint>, Vec<LoadPoint>) = points
        .iter()
        .cloned()
        .partition(|p| p.check.is_comparable());
    let mut figures = peak_figures(&comparable, peak, true);
    let comparable_at_peak = !points_at_planned_peak(&comparable, peak).is_empty();
    figures.extend(peak_figures(&others, peak, !comparable_at_peak));
    figures
}

/// The scenario figures of the points at the planned peak and, when `summarise`, the worst of
/// them as the planned-peak and all-traffic figures.
fn peak_figures(points: &[LoadPoint], peak: u32, summarise: bool) -> Vec<EvidenceStatistic> {
    let chosen = points_at_planned_peak(points, peak);
    let mut figures = Vec::new();
    for point in &chosen {
        let scope = Scope::Scenario(point.scenario.clone());
        figures.extend(
            point_figures(point)
                .into_iter()
                .map(|f| with_point_source(f, point, scope.clone(), "")),
        );
    }
    if !summarise {
        return figures;
    }
    let scenarios = chosen.len();
    // The worst scenario of each figure is the planned peak's and the client's all-traffic one.
    let mut worst: Vec<(EvidenceStatistic, &LoadPoint)> = Vec::new();
    for point in &chosen {
        for figure in point_figures(point) {
            let same = |w: &&mut (EvidenceStatistic, &LoadPoint)| {
                w.0.metric == figure.metric && w.0.statistic == figure.statistic
            };
            match worst.iter_mut().find(same) {
                Some(slot) => {
                    if is_worse(&figure, &slot.0) {
                        *slot = (figure, point);
                    }
                }
                None => worst.push((figure, point)),
            }
        }
    }
    let note = if scenarios > 1 {
        format!(" (worst of {scenarios} scenarios)")
    } else {
        String::new()
    };
    for (figure, point) in worst {
        figures.push(with_point_source(
            figure.clone(),
            point,
            Scope::PlannedPeak,
            &note,
        ));
        figures.push(with_point_source(figure, point, Scope::AllTraffic, &note));
    }
    figures
}

/// Why load tests grade nothing, in plain words; `None` when they grade something.
pub fn load_test_gaps(points: &[LoadPoint], planned_peak: Option<u32>) -> Option<String> {
    load_test_gaps_in(points, planned_peak, Lang::En)
}

/// [`load_test_gaps`] in `lang`.
pub fn load_test_gaps_in(
    points: &[LoadPoint],
    planned_peak: Option<u32>,
    lang: Lang,
) -> Option<String> {
    if points.is_empty() {
        return None;
    }
    let Some(peak) = planned_peak else {
        return Some(lang.pick(
            "The plan states no planned peak concurrency, so load-test figures grade no pass mark \
             (set it in the plan's demand assumptions).",
            "Der Plan nennt keine geplante Spitzen-Parallelität, daher bewerten die Lasttests keinen \
             Zielwert (in den Annahmen zur Nachfrage des Plans eintragen).",
        )
        .into());
    };
    let highest = points
        .iter()
        .filter_map(|p| p.concurrency)
        .fold(f64::NEG_INFINITY, f64::max);
    if points_at_planned_peak(points, peak).is_empty() {
        let peak = lang.number(f64::from(peak), 0);
        return Some(match (highest.is_finite(), lang) {
            (true, Lang::En) => format!(
                "No load test reached the planned peak of {peak} requests in flight (highest tested: {}).",
                lang.number(highest.round(), 0)
            ),
            (true, Lang::De) => format!(
                "Kein Lasttest erreichte die geplante Spitze von {peak} gleichzeitigen Anfragen (höchste getestete: {}).",
                lang.number(highest.round(), 0)
            ),
            (false, _) => lang
                .pick(
                    "The load tests state neither a concurrency nor the throughput and mean latency to derive one (Little's law), so none can be placed at the planned peak.",
                    "Die Lasttests nennen weder ihre Parallelität noch Durchsatz und mittlere Latenz, aus denen sie sich ableiten ließe (Littles Gesetz), daher lässt sich keiner der geplanten Spitze zuordnen.",
                )
                .into(),
        });
    }
    None
}

fn is_worse(candidate: &EvidenceStatistic, current: &EvidenceStatistic) -> bool {
    let (Some(a), Some(b)) = (candidate.finite_value(), current.finite_value()) else {
        return current.finite_value().is_none() && candidate.finite_value().is_some();
    };
    match candidate.metric {
        Metric::OutputSpeedPerUser | Metric::AggregateOutputThroughput | Metric::Goodput => a < b,
        _ => a > b,
    }
}

fn point_figures(point: &LoadPoint) -> Vec<EvidenceStatistic> {
    let client = |metric: Metric, statistic: Statistic, value: f64, unit: Unit| {
        EvidenceStatistic::new(metric, statistic, value, unit, MeasurementPoint::Client)
    };
    let mut figures = Vec::new();
    for (metric, percentiles) in [
        (Metric::Ttft, point.ttft_ms),
        (Metric::Tpot, point.tpot_ms),
        (Metric::Itl, point.itl_ms),
        (Metric::E2e, point.e2e_ms),
    ] {
        for (statistic, value) in percentiles.each() {
            if let Some(value) = value.filter(|v| v.is_finite()) {
                figures.push(client(metric.clone(), statistic, value, Unit::Ms));
            }
        }
    }
    if let Some(tpot) = point.tpot_ms.p50.filter(|t| *t > 0.0) {
        figures.push(client(
            Metric::OutputSpeedPerUser,
            Statistic::P50,
            1000.0 / tpot,
            Unit::TokensPerS,
        ));
    }
    if let Some(throughput) = point.output_tokens_per_s.filter(|t| t.is_finite()) {
        figures.push(client(
            Metric::AggregateOutputThroughput,
            Statistic::Mean,
            throughput,
            Unit::TokensPerS,
        ));
    }
    if let (Some(completed), Some(failed)) = (point.completed, point.failed)
        && completed + failed > 0
    {
        let rate = failed as f64 / (completed + failed) as f64 * 100.0;
        figures.push(client(
            Metric::ErrorRate,
            Statistic::Rate,
            rate,
            Unit::Percent,
        ));
    }
    figures
}

fn with_point_source(
    figure: EvidenceStatistic,
    point: &LoadPoint,
    scope: Scope,
    note: &str,
) -> EvidenceStatistic {
    let concurrency = point
        .concurrency
        .map(|c| {
            let n = crate::format::thousands(c.round() as u64);
            match (point.concurrency_basis, point.request_rate) {
                (crate::loadtest::ConcurrencyBasis::Stated, _) => format!(", concurrency {n}"),
                (_, Some(rate)) => format!(
                    ", ≈{n} in flight by Little's law at {} req/s",
                    crate::format::num(rate, 2)
                        .trim_end_matches('0')
                        .trim_end_matches('.')
                ),
                (_, None) => format!(", ≈{n} in flight by Little's law, all sent at once"),
            }
        })
        .unwrap_or_default();
    // Named as the load-test charts and tables name it (`inputs-qwen3-4b`, not the dataset's
    // path), so a reader finds the figure's line.
    let scenario = match crate::loadtest::scenario_label(&point.scenario) {
        label if label.is_empty() => String::new(),
        label => format!(", scenario “{label}”"),
    };
    let source = format!("{}{concurrency}{scenario}{note}", point.source);
    let mut figure = figure
        .with_scope(scope)
        .measured_on(point.gpu.clone(), point.engine_version.clone())
        .checked(&point.check);
    figure.source = source;
    figure.recorded_at_ms = point.recorded_at_ms;
    figure.model = point.model.clone();
    match (point.completed, point.failed) {
        (Some(completed), failed) => {
            // Latency percentiles rest on the completed requests; an error rate on all.
            figure.samples = Some(if figure.metric == Metric::ErrorRate {
                completed + failed.unwrap_or(0)
            } else {
                completed
            });
        }
        (None, _) => {
            let caveat = "sample count not stated in the file".to_string();
            if !figure.caveats.contains(&caveat) {
                figure.caveats.push(caveat);
            }
        }
    }
    figure
}

/// What an evaluation run contributes to grading.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QualityFigures {
    /// Share of items answered right, 0–1.
    pub accuracy: Option<f64>,
    /// Mean score 0–1, when the run scores fractionally.
    pub mean_score: Option<f64>,
    /// Retrieval hit rate@k, 0–1.
    pub retrieval_hit_rate: Option<f64>,
    /// Share of answers cut off (`finish_reason = length`), 0–1.
    pub truncation_rate: Option<f64>,
    pub source: String,
    pub recorded_at_ms: Option<i64>,
    /// Questions answered.
    #[serde(default)]
    pub questions: Option<u64>,
    /// The run's comparability check (its model against the pilot's).
    #[serde(default)]
    pub check: super::comparability::FileCheck,
}

/// The figures of one evaluation run.
pub fn quality_figures(run: &QualityFigures) -> Vec<EvidenceStatistic> {
    let at = |metric: Metric, statistic: Statistic, value: f64, unit: Unit| {
        let mut figure = EvidenceStatistic::new(
            metric,
            statistic,
            value,
            unit,
            MeasurementPoint::EvaluationSet,
        );
        figure.source = run.source.clone();
        figure.recorded_at_ms = run.recorded_at_ms;
        figure.samples = run.questions;
        figure.checked(&run.check)
    };
    let mut figures = Vec::new();
    if let Some(accuracy) = run.accuracy {
        figures.push(at(
            Metric::AnswerScore,
            Statistic::Rate,
            accuracy * 100.0,
            Unit::Percent,
        ));
    }
    if let Some(score) = run.mean_score {
        figures.push(at(Metric::AnswerScore, Statistic::Mean, score, Unit::Score));
    }
    if let Some(hit) = run.retrieval_hit_rate {
        figures.push(at(
            Metric::RetrievalHitRate,
            Statistic::Rate,
            hit * 100.0,
            Unit::Percent,
        ));
    }
    if let Some(truncated) = run.truncation_rate {
        figures.push(at(
            Metric::TruncationRate,
            Statistic::Rate,
            truncated * 100.0,
            Unit::Percent,
        ));
    }
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(scenario: &str, concurrency: f64, ttft_p99: f64) -> LoadPoint {
        LoadPoint {
            scenario: scenario.into(),
            concurrency: Some(concurrency),
            ttft_ms: LatencyPercentiles {
                p50: Some(ttft_p99 / 2.0),
                p95: None,
                p99: Some(ttft_p99),
            },
            tpot_ms: LatencyPercentiles {
                p50: Some(40.0),
                p95: None,
                p99: Some(50.0),
            },
            completed: Some(99),
            failed: Some(1),
            source: "vllm bench serve, run.json".into(),
            recorded_at_ms: Some(1_000),
            gpu: "H100".into(),
            engine_version: "0.11.0".into(),
            ..LoadPoint::default()
        }
    }

    fn find<'a>(
        figures: &'a [EvidenceStatistic],
        metric: Metric,
        statistic: Statistic,
        scope: &Scope,
    ) -> Option<&'a EvidenceStatistic> {
        figures
            .iter()
            .find(|f| f.metric == metric && f.statistic == statistic && &f.scope == scope)
    }

    #[test]
    fn the_lowest_concurrency_at_or_above_the_peak_is_graded_never_a_lighter_one() {
        let points = vec![
            point("chat", 8.0, 200.0),
            point("chat", 32.0, 900.0),
            point("chat", 16.0, 400.0),
        ];
        let chosen = points_at_planned_peak(&points, 12);
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0].concurrency, Some(16.0));
        let chosen = points_at_planned_peak(&points, 16);
        assert_eq!(chosen[0].concurrency, Some(16.0));
        assert!(points_at_planned_peak(&points, 33).is_empty());
    }

    #[test]
    fn a_point_placed_by_littles_law_says_so_in_its_source() {
        let mut rate_point = point("chat", 31.3, 400.0);
        rate_point.concurrency_basis = crate::loadtest::ConcurrencyBasis::LittlesLaw;
        rate_point.request_rate = Some(10.0);
        let figures = load_test_figures(&[rate_point.clone()], Some(24));
        assert!(!figures.is_empty());
        for f in &figures {
            assert!(
                f.source
                    .contains(", ≈31 in flight by Little's law at 10 req/s"),
                "{}",
                f.source
            );
        }
        let german = crate::verdict::source_in(&figures[0].source, Lang::De);
        assert!(
            german.contains("≈31 gleichzeitig nach Littles Gesetz bei 10 Anfr./s"),
            "{german}"
        );
        rate_point.request_rate = None;
        let figures = load_test_figures(&[rate_point], Some(24));
        assert!(
            figures[0]
                .source
                .contains("by Little's law, all sent at once")
        );
    }

    #[test]
    fn the_worst_scenario_is_the_planned_peak_figure() {
        let points = vec![point("chat", 16.0, 400.0), point("rag", 16.0, 700.0)];
        let figures = load_test_figures(&points, Some(16));
        let chat = find(
            &figures,
            Metric::Ttft,
            Statistic::P99,
            &Scope::Scenario("chat".into()),
        )
        .unwrap();
        assert_eq!(chat.value, Some(400.0));
        for scope in [Scope::PlannedPeak, Scope::AllTraffic] {
            let worst = find(&figures, Metric::Ttft, Statistic::P99, &scope).unwrap();
            assert_eq!(worst.value, Some(700.0));
            assert_eq!(worst.point, MeasurementPoint::Client);
            assert_eq!(worst.gpu, "H100");
            assert!(worst.source.contains("scenario “rag”"), "{}", worst.source);
            assert!(worst.source.contains("worst of 2 scenarios"));
        }
        // Per-stream speed: the worst is the slowest, 1000 ÷ 40 ms = 25 tok/s in both.
        let speed = find(
            &figures,
            Metric::OutputSpeedPerUser,
            Statistic::P50,
            &Scope::PlannedPeak,
        )
        .unwrap();
        assert_eq!(speed.value, Some(25.0));
        let errors = find(
            &figures,
            Metric::ErrorRate,
            Statistic::Rate,
            &Scope::PlannedPeak,
        )
        .unwrap();
        assert_eq!(errors.value, Some(1.0));
    }

    /// A non-streaming GenAI-Perf run (`streaming: false`): its "time to first token" is the
    /// whole request. Built into a load point the way the desk builds one (TTFT, TPOT, ITL, E2E
    /// from the import's metrics), it grades no TTFT and no TPOT mark; its E2E still grades.
    #[test]
    fn a_non_streaming_run_grades_no_ttft_mark() {
        use crate::ingest::{MetricKey, import};
        let imp = import(
            "profile_export_genai_perf.json",
            crate::ingest::tests::GENAI_PERF_NON_STREAMING.as_bytes(),
        )
        .unwrap();
        let op = &imp.points[0];
        let pct = |key: MetricKey| {
            op.metric(key)
                .map(|s| LatencyPercentiles {
                    p50: s.p50,
                    p95: s.p95,
                    p99: s.p99,
                })
                .unwrap_or_default()
        };
        let load = LoadPoint {
            scenario: op.scenario.clone(),
            concurrency: op.concurrency,
            ttft_ms: pct(MetricKey::TtftMs),
            tpot_ms: pct(MetricKey::TpotMs),
            itl_ms: pct(MetricKey::ItlMs),
            e2e_ms: pct(MetricKey::E2eMs),
            completed: op.completed,
            source: "genai-perf, profile_export_genai_perf.json".into(),
            ..LoadPoint::default()
        };
        let figures = load_test_figures(&[load], Some(8));
        assert!(!figures.is_empty());
        for metric in [
            Metric::Ttft,
            Metric::Tpot,
            Metric::Itl,
            Metric::OutputSpeedPerUser,
        ] {
            assert!(
                figures.iter().all(|f| f.metric != metric),
                "a non-streaming run graded {metric:?}"
            );
        }
        let e2e = find(&figures, Metric::E2e, Statistic::P99, &Scope::PlannedPeak).unwrap();
        assert_eq!(e2e.value, Some(2710.75));
    }

    #[test]
    fn without_a_planned_peak_load_tests_grade_nothing_and_say_why() {
        let points = vec![point("chat", 16.0, 400.0)];
        assert!(load_test_figures(&points, None).is_empty());
        assert!(
            load_test_gaps(&points, None)
                .unwrap()
                .contains("no planned peak")
        );
        assert!(
            load_test_gaps(&points, Some(64))
                .unwrap()
                .contains("highest tested: 16")
        );
        assert_eq!(load_test_gaps(&points, Some(16)), None);
        assert_eq!(load_test_gaps(&[], None), None);
    }

    #[test]
    fn quality_figures_are_percent_rates_at_the_evaluation_set() {
        let figures = quality_figures(&QualityFigures {
            accuracy: Some(0.75),
            retrieval_hit_rate: Some(2.0 / 3.0),
            truncation_rate: Some(0.0),
            source: "run FP8".into(),
            ..QualityFigures::default()
        });
        assert_eq!(figures.len(), 3);
        assert_eq!(figures[0].metric, Metric::AnswerScore);
        assert_eq!(figures[0].value, Some(75.0));
        assert_eq!(figures[0].unit, Unit::Percent);
        assert_eq!(figures[0].point, MeasurementPoint::EvaluationSet);
        assert!((figures[1].value.unwrap() - 66.666_666_666).abs() < 1e-6);
    }

    #[test]
    fn gateway_figures_come_from_the_profile_at_the_gateway() {
        use crate::demand::{DemandOptions, profile_gateway_log};
        use crate::traffic::ReadOptions;
        let log = concat!(
            r#"{"request_id":"a","start_time":1772442000,"first_token_time":1772442000.2,"end_time":1772442001.2,"model":"m","prompt_tokens":100,"completion_tokens":11,"status":"ok","finish_reason":"stop"}"#,
            "\n",
            r#"{"request_id":"b","start_time":1772442001,"first_token_time":1772442001.4,"end_time":1772442003.4,"model":"m","prompt_tokens":100,"completion_tokens":21,"status":"ok","finish_reason":"length"}"#,
            "\n",
            r#"{"request_id":"c","start_time":1772442002,"end_time":1772442002.5,"model":"m","prompt_tokens":100,"completion_tokens":0,"status":"error"}"#,
            "\n",
        );
        let (profile, _) = profile_gateway_log(
            log.as_bytes(),
            &ReadOptions::new("gw.jsonl"),
            DemandOptions::default(),
            |_| {},
        )
        .unwrap();
        let figures = gateway_figures(&profile, "gateway log gw.jsonl", 5);
        let get = |metric: Metric, statistic: Statistic| {
            let what = format!("{metric:?} {statistic:?}");
            find(&figures, metric, statistic, &Scope::AllTraffic)
                .unwrap_or_else(|| panic!("no {what}"))
        };
        // TTFT 200 and 400 ms; TPOT (1000 ms ÷ 10) = 100 and (2000 ÷ 20) = 100 ms.
        assert_eq!(get(Metric::Ttft, Statistic::Max).value, Some(400.0));
        assert_eq!(get(Metric::Tpot, Statistic::P50).value, Some(100.0));
        assert_eq!(
            get(Metric::OutputSpeedPerUser, Statistic::P50).value,
            Some(10.0)
        );
        // A reading-floor mark is on the mean of each request's speed: graded, not "the mark
        // is on the mean; this figure is the p50".
        let mean = get(Metric::OutputSpeedPerUser, Statistic::Mean);
        assert_eq!(mean.value, Some(10.0));
        assert_eq!(mean.point, MeasurementPoint::Gateway);
        let errors = get(Metric::ErrorRate, Statistic::Rate);
        assert!((errors.value.unwrap() - 100.0 / 3.0).abs() < 1e-9);
        assert_eq!(errors.point, MeasurementPoint::Gateway);
        assert_eq!(errors.source, "gateway log gw.jsonl");
        // One of the two successful answers was cut off.
        assert_eq!(
            get(Metric::TruncationRate, Statistic::Rate).value,
            Some(50.0)
        );
    }

    #[test]
    fn another_models_point_never_stands_in_for_the_pilots_own() {
        use crate::verdict::comparability::FileCheck;
        let mut other = point("gpt-oss", 100.0, 900.0);
        other.check = FileCheck {
            not_comparable: Some("another model".into()),
            mismatch: None,
            caveats: Vec::new(),
        };
        let own = point("chat", 128.0, 300.0);
        let figures = load_test_figures(&[other.clone(), own], Some(100));
        let peak: Vec<&EvidenceStatistic> = figures
            .iter()
            .filter(|f| f.metric == Metric::Ttft && f.statistic == Statistic::P99)
            .filter(|f| f.scope == Scope::PlannedPeak)
            .collect();
        assert_eq!(peak.len(), 1);
        assert_eq!(peak[0].value, Some(300.0));
        assert!(peak[0].not_comparable.is_none());
        // Alone, its figures stand at the peak, marked not comparable.
        let figures = load_test_figures(&[other], Some(100));
        let peak = find(&figures, Metric::Ttft, Statistic::P99, &Scope::PlannedPeak).unwrap();
        assert_eq!(peak.not_comparable.as_deref(), Some("another model"));
        assert_eq!(peak.samples, Some(99));
    }
}
