//! Load-test evidence of a pilot: the evidence list, curves against concurrency, goodput per
//! operating point against the plan in force, capacity per scenario, and comparisons.
//!
//! Uploads themselves go through `POST /api/v1/pilots/{id}/evidence` (the page's drag-and-drop
//! posts each file there with the session cookie) or, without JavaScript, the plain form route
//! `POST /pilots/{id}/evidence`; both store the [`RunContext`] with the import in the evidence
//! row's summary ([`LoadTestSummary`]).

use crate::model::{EvidenceFile, Pilot};
use engine::loadtest::{Capacity, LatencyTarget, PointGoodput, SpreadState};
use engine::plan::Statistic;
use engine::run_context::RunContext;
use serde::{Deserialize, Serialize};

/// What is stored as the summary of a load-test evidence row: the importer's [`engine::ingest::Import`]
/// (flattened, so readers of the plain import keep working) plus the run context.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadTestSummary {
    #[serde(flatten)]
    pub import: engine::ingest::Import,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_context: Option<RunContext>,
    /// Where each value of `run_context` came from (the file, typed, the pasted command, the
    /// pilot's notes) and what was set aside; `None` on rows stored before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_context_provenance: Option<engine::run_context::Provenance>,
    /// How many per-request samples were taken at import and stored beside the row (0: the
    /// file has none, so goodput is graded on its percentiles). `None` only on rows stored
    /// before samples were taken; start-up fills them in (see `service::backfill_request_samples`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_samples: Option<u64>,
    /// The version of the stored samples blob ([`engine::loadtest::RequestSamples::VERSION`]):
    /// 2 for samples written now (with each request's start and token counts, which the
    /// capacity twin needs). `None` on older rows: version 1 (no starts or token counts) or no
    /// samples at all; start-up re-derives version-1 samples from the kept raw file once (see
    /// `service::backfill_request_samples`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_samples_format: Option<u8>,
}

/// p50/p95/p99 of one metric at one point (ms), as the file reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stat3 {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
}

impl Stat3 {
    /// The value at `percentile`; `None` for a statistic this does not hold (p90, mean, …).
    pub fn get(&self, percentile: Statistic) -> Option<f64> {
        match percentile {
            Statistic::P50 => self.p50,
            Statistic::P95 => self.p95,
            Statistic::P99 => self.p99,
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.p50.is_none() && self.p95.is_none() && self.p99.is_none()
    }
}

/// One operating point as the pages show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointRow {
    /// `<evidence id>:<index>`: how the compare form names a single point.
    pub key: String,
    pub evidence_id: i64,
    pub file_name: String,
    pub scenario: String,
    pub source: String,
    /// The serving framework the file names for this row (`vLLM`, `SGLang`), when it does.
    #[serde(default)]
    pub framework: Option<String>,
    /// Requests in flight: the tool's configured concurrency, else the run's mean by Little's
    /// law (see [`engine::loadtest::in_flight`]); `concurrency_basis` says which.
    pub concurrency: Option<f64>,
    #[serde(default)]
    pub concurrency_basis: engine::loadtest::ConcurrencyBasis,
    pub request_rate: Option<f64>,
    pub completed: Option<u64>,
    pub failed: Option<u64>,
    pub duration_s: Option<f64>,
    pub request_throughput: Option<f64>,
    /// Aggregate output tokens/s (the machine's).
    pub output_tokens_per_s: Option<f64>,
    /// Per-stream output tokens/s: the file's own figure, else 1000 ÷ TPOT p50.
    pub per_stream_tokens_per_s: Option<f64>,
    /// True when the per-stream figure is 1000 ÷ TPOT p50 rather than the file's.
    pub per_stream_derived: bool,
    pub ttft: Stat3,
    pub tpot: Stat3,
    pub itl: Stat3,
    pub e2e: Stat3,
    /// Goodput against the plan's targets (`None` when there is no approved plan).
    pub goodput: Option<PointGoodput>,
    /// What the TTFT spread says (needs p50, p95 and p99 and a concurrency).
    pub spread: Option<SpreadState>,
}

/// One load-test evidence file with its points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadTestRun {
    pub evidence: EvidenceFile,
    pub tool: String,
    pub tool_version: Option<String>,
    pub layout: String,
    pub run_context: Option<RunContext>,
    pub points: Vec<PointRow>,
    pub warnings: Vec<String>,
    /// Goodput is exact here: the kept raw file has per-request records.
    pub per_request: bool,
    /// Why the run is not the pilot's (another model or GPU), in English; its figures grade
    /// nothing. `None` when it is the pilot's or says nothing to tell.
    #[serde(default)]
    pub not_comparable: Option<String>,
}

/// A chart ready to inline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chart {
    pub id: String,
    pub title: String,
    pub svg: String,
}

/// The plan's targets as the load-test pages use them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanTargets {
    /// The approved plan version the targets come from.
    #[serde(default)]
    pub version: Option<u32>,
    pub targets: Vec<LatencyTarget>,
    /// Where the targets come from, or why there are none.
    pub note: String,
}

/// Everything the load-test page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadTestView {
    pub pilot: Pilot,
    pub can_edit: bool,
    pub runs: Vec<LoadTestRun>,
    pub plan: PlanTargets,
    pub percentile: String,
    /// What the curves are drawn against: `concurrency` or `rate` (see [`CurveAxis`]).
    #[serde(default)]
    pub axis: CurveAxis,
    pub charts: Vec<Chart>,
    pub capacity: Vec<Capacity>,
}

/// What the load-test curves are drawn against.
///
/// Why two: a concurrency sweep fixes the requests in flight and a request-rate sweep (`vllm
/// bench serve`'s default) fixes the arrivals. Against requests in flight every run lines up
/// (a rate sweep's points placed by Little's law); against the completed request rate a
/// sweep reads as the latency–throughput curve capacity planners quote, its knee where more
/// offered load adds latency but no throughput.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveAxis {
    /// Requests in flight: the stated concurrency, else Little's law.
    #[default]
    Concurrency,
    /// Completed requests per second (the run's measured request throughput).
    Rate,
}

impl CurveAxis {
    /// The query value: `concurrency` or `rate`.
    pub fn as_str(self) -> &'static str {
        match self {
            CurveAxis::Concurrency => "concurrency",
            CurveAxis::Rate => "rate",
        }
    }

    /// The axis asked for (`x=concurrency|rate`); when not asked, the completed request rate
    /// if every point of `runs` is a request-rate sweep's (no stated concurrency), else
    /// requests in flight.
    pub fn chosen(text: &str, runs: &[LoadTestRun]) -> CurveAxis {
        match text.trim() {
            "rate" => CurveAxis::Rate,
            "concurrency" => CurveAxis::Concurrency,
            _ => {
                let mut points = runs.iter().flat_map(|r| &r.points).peekable();
                let rate_sweep = points.peek().is_some()
                    && points
                        .all(|p| p.concurrency_basis != engine::loadtest::ConcurrencyBasis::Stated);
                if rate_sweep {
                    CurveAxis::Rate
                } else {
                    CurveAxis::Concurrency
                }
            }
        }
    }

    /// The value of `point` on this axis.
    pub fn of(self, point: &PointRow) -> Option<f64> {
        match self {
            CurveAxis::Concurrency => point.concurrency,
            CurveAxis::Rate => point.request_throughput,
        }
    }
}

/// The evidence page: the pilot and one page of its evidence files, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceView {
    pub pilot: Pilot,
    pub can_edit: bool,
    pub files: Vec<EvidenceListRow>,
    /// Which page of the files this is (50 a page).
    #[serde(default)]
    pub page: crate::paging::ListPage,
}

/// One evidence file in the list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceListRow {
    pub file: EvidenceFile,
    /// Tool and version for load tests (`vllm bench serve`, `aiperf 0.3.0`), else the kind.
    pub tool: String,
    pub points: usize,
    pub run_context: Option<RunContext>,
    /// The upload, then any withdrawal and restoration (see [`crate::evidence_history`]).
    #[serde(default)]
    pub history: Vec<crate::evidence_history::HistoryEntry>,
}

/// One compared figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    pub scenario: String,
    pub concurrency: Option<f64>,
    pub figure: String,
    pub unit: String,
    pub baseline: Option<f64>,
    pub value: Option<f64>,
    /// (value − baseline) ÷ baseline, %.
    pub difference_pct: Option<f64>,
    /// Whether higher is better for this figure (throughput) or lower (latency).
    pub higher_is_better: bool,
}

/// A comparison of runs against a baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub baseline_label: String,
    /// One block of rows per compared run.
    pub runs: Vec<(String, Vec<CompareRow>)>,
    pub charts: Vec<Chart>,
    pub percentile: String,
}

/// The percentile a page draws: `p50`, `p95` or `p99` as asked; when not asked (or asked for
/// something else), the one the plan grades most of its marks at, so the page opens on the
/// tab where the marks are drawn and graded (a plan of p99 marks opened on p95 showed no
/// target at all); p95 when the plan has no mark at any of the three.
pub fn normalise_percentile(text: &str, plan: &PlanTargets) -> Statistic {
    let text = text.trim();
    let drawn = [Statistic::P50, Statistic::P95, Statistic::P99];
    if let Some(asked) = drawn.into_iter().find(|s| s.as_str() == text) {
        return asked;
    }
    drawn
        .into_iter()
        .map(|s| (plan.targets.iter().filter(|t| t.statistic == s).count(), s))
        .filter(|(marks, _)| *marks > 0)
        // The most marks; of equals, the higher percentile (the stricter reading).
        .max_by_key(|(marks, s)| (*marks, s.as_str()))
        .map_or(Statistic::P95, |(_, s)| s)
}

#[cfg(feature = "server")]
#[cfg(feature = "server")]
pub mod check;
pub mod curves;
#[cfg(feature = "server")]
pub mod service;

#[cfg(test)]
mod tests {
    use super::*;
    use engine::ingest::MetricKey;

    fn mark(statistic: Statistic) -> LatencyTarget {
        LatencyTarget {
            metric: MetricKey::TtftMs,
            statistic,
            limit_ms: 450.0,
            inclusive: true,
            scenario: None,
            label: format!("TTFT {statistic} ≤ 450 ms"),
            point: Default::default(),
        }
    }

    fn plan(marks: &[Statistic]) -> PlanTargets {
        PlanTargets {
            version: Some(1),
            targets: marks.iter().copied().map(mark).collect(),
            note: String::new(),
        }
    }

    #[test]
    fn a_page_opens_on_the_percentile_the_plan_grades_at() {
        use Statistic::*;
        // Asked: as asked, whatever the plan.
        assert_eq!(normalise_percentile("p50", &plan(&[P99])), P50);
        // Not asked: the plan's marks' percentile; the most marks; of equals the higher.
        assert_eq!(normalise_percentile("", &plan(&[P99, P99])), P99);
        assert_eq!(normalise_percentile("", &plan(&[P50, P50, P99])), P50);
        assert_eq!(normalise_percentile("", &plan(&[P50, P95])), P95);
        // Marks at percentiles no tab draws, or none: p95.
        assert_eq!(normalise_percentile("", &plan(&[P90, Max])), P95);
        assert_eq!(normalise_percentile("nonsense", &plan(&[])), P95);
    }
}
