//! The normalised vocabulary every importer produces.
//!
//! Whatever tool wrote the file, the result is an [`Import`]: one or more [`OperatingPoint`]s
//! (one load level each), optional per-request [`RequestRecord`]s, and warnings. Latencies are
//! always milliseconds and always stored under the same [`MetricKey`], with the tool's own name
//! and the exact definition kept beside the numbers in [`MetricStats`], because the same word
//! means different things in different tools (vLLM's "ITL" is AIPerf's `inter_chunk_latency`;
//! vLLM's "TPOT" is AIPerf's `inter_token_latency`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The file format an import was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// `vllm bench serve --save-result` / `benchmark_serving.py`: one JSON object (with or
    /// without the `--save-detailed` per-request arrays).
    VllmBench,
    /// The same results appended with `--append-result`: one JSON object per line.
    VllmBenchJsonLines,
    /// A `vllm bench sweep serve` output folder (`SERVE--…-BENCH--…/run=k.json`).
    VllmSweep,
    /// A sweep's `summary.json` on its own: a JSON list of run objects.
    VllmSweepSummary,
    /// AIPerf `profile_export_aiperf.json` (early `records` layout or flat schema 1.x).
    AiperfJson,
    /// AIPerf `profile_export_aiperf.csv` summary.
    AiperfCsv,
    /// AIPerf per-request `profile_export.jsonl`.
    AiperfJsonl,
    /// A folder of AIPerf runs (`concurrency_16/profile_export_aiperf.json`, …).
    AiperfSweep,
    /// GenAI-Perf `*_genai_perf.json`.
    GenaiPerfJson,
    /// GenAI-Perf `*_genai_perf.csv`.
    GenaiPerfCsv,
    /// guidellm `benchmarks.json` (v0.2/0.3 layout or the current report layout).
    GuidellmJson,
}

impl Format {
    /// Every format, in the order the UI lists them.
    pub const ALL: [Format; 11] = [
        Format::VllmBench,
        Format::VllmBenchJsonLines,
        Format::VllmSweep,
        Format::VllmSweepSummary,
        Format::AiperfJson,
        Format::AiperfCsv,
        Format::AiperfJsonl,
        Format::AiperfSweep,
        Format::GenaiPerfJson,
        Format::GenaiPerfCsv,
        Format::GuidellmJson,
    ];

    /// The stable identifier used in JSON (`vllm_bench`, `aiperf_jsonl`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::VllmBench => "vllm_bench",
            Format::VllmBenchJsonLines => "vllm_bench_json_lines",
            Format::VllmSweep => "vllm_sweep",
            Format::VllmSweepSummary => "vllm_sweep_summary",
            Format::AiperfJson => "aiperf_json",
            Format::AiperfCsv => "aiperf_csv",
            Format::AiperfJsonl => "aiperf_jsonl",
            Format::AiperfSweep => "aiperf_sweep",
            Format::GenaiPerfJson => "genai_perf_json",
            Format::GenaiPerfCsv => "genai_perf_csv",
            Format::GuidellmJson => "guidellm_json",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Format::VllmBench => "vllm bench serve result (JSON)",
            Format::VllmBenchJsonLines => "vllm bench serve results (JSON Lines, --append-result)",
            Format::VllmSweep => "vllm bench sweep folder",
            Format::VllmSweepSummary => "vllm bench sweep summary.json",
            Format::AiperfJson => "AIPerf profile_export_aiperf.json",
            Format::AiperfCsv => "AIPerf profile_export_aiperf.csv",
            Format::AiperfJsonl => "AIPerf per-request profile_export.jsonl",
            Format::AiperfSweep => "AIPerf sweep folder",
            Format::GenaiPerfJson => "GenAI-Perf profile_export_genai_perf.json",
            Format::GenaiPerfCsv => "GenAI-Perf profile_export_genai_perf.csv",
            Format::GuidellmJson => "guidellm benchmarks.json",
        }
    }

    /// The tool that writes this format, as stored in [`Import::tool`].
    pub fn tool(self) -> &'static str {
        match self {
            Format::VllmBench
            | Format::VllmBenchJsonLines
            | Format::VllmSweep
            | Format::VllmSweepSummary => TOOL_VLLM,
            Format::AiperfJson | Format::AiperfCsv | Format::AiperfJsonl | Format::AiperfSweep => {
                TOOL_AIPERF
            }
            Format::GenaiPerfJson | Format::GenaiPerfCsv => TOOL_GENAI_PERF,
            Format::GuidellmJson => TOOL_GUIDELLM,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub(crate) const TOOL_VLLM: &str = "vllm bench serve";
pub(crate) const TOOL_AIPERF: &str = "aiperf";
pub(crate) const TOOL_GENAI_PERF: &str = "genai-perf";
pub(crate) const TOOL_GUIDELLM: &str = "guidellm";

/// A normalised metric. Latencies are milliseconds; the serialised names carry the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum MetricKey {
    /// Time to first token: request sent → first streamed output.
    #[serde(rename = "ttft_ms")]
    TtftMs,
    /// Time per output token, per request: (E2E − TTFT) ÷ (output tokens − 1).
    #[serde(rename = "tpot_ms")]
    TpotMs,
    /// Inter-token/chunk latency: every gap between consecutive streamed chunks, pooled.
    #[serde(rename = "itl_ms")]
    ItlMs,
    /// End-to-end request latency: request sent → last output.
    #[serde(rename = "e2e_ms")]
    E2eMs,
    /// Time to second token: first → second streamed output (AIPerf, GenAI-Perf).
    #[serde(rename = "ttst_ms")]
    TtstMs,
    /// A TPOT variant that divides by all n output tokens instead of n − 1 (guidellm's
    /// `time_per_output_token_ms`); the definition says what the numerator is.
    #[serde(rename = "tpot_over_all_tokens_ms")]
    TpotOverAllTokensMs,
    /// Client-side wait for a concurrency slot before sending (vLLM `client_queue_time`).
    #[serde(rename = "client_queue_ms")]
    ClientQueueMs,
    /// E2E including that client-side wait (vLLM `e2el_including_client_queue`).
    #[serde(rename = "e2e_incl_client_queue_ms")]
    E2eInclClientQueueMs,
    /// Prompt length per request, tokens.
    #[serde(rename = "input_tokens")]
    InputTokens,
    /// Answer length per request, tokens.
    #[serde(rename = "output_tokens")]
    OutputTokens,
    /// Decode speed one user sees, tokens per second per request.
    #[serde(rename = "output_tokens_per_s_per_user")]
    OutputTokensPerSPerUser,
}

impl MetricKey {
    /// Every key, in display order.
    pub const ALL: [MetricKey; 11] = [
        MetricKey::TtftMs,
        MetricKey::TpotMs,
        MetricKey::ItlMs,
        MetricKey::E2eMs,
        MetricKey::TtstMs,
        MetricKey::TpotOverAllTokensMs,
        MetricKey::ClientQueueMs,
        MetricKey::E2eInclClientQueueMs,
        MetricKey::InputTokens,
        MetricKey::OutputTokens,
        MetricKey::OutputTokensPerSPerUser,
    ];

    /// The serialised name (`ttft_ms`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            MetricKey::TtftMs => "ttft_ms",
            MetricKey::TpotMs => "tpot_ms",
            MetricKey::ItlMs => "itl_ms",
            MetricKey::E2eMs => "e2e_ms",
            MetricKey::TtstMs => "ttst_ms",
            MetricKey::TpotOverAllTokensMs => "tpot_over_all_tokens_ms",
            MetricKey::ClientQueueMs => "client_queue_ms",
            MetricKey::E2eInclClientQueueMs => "e2e_incl_client_queue_ms",
            MetricKey::InputTokens => "input_tokens",
            MetricKey::OutputTokens => "output_tokens",
            MetricKey::OutputTokensPerSPerUser => "output_tokens_per_s_per_user",
        }
    }

    /// The unit every value under this key is in.
    pub fn unit(self) -> &'static str {
        match self {
            MetricKey::InputTokens | MetricKey::OutputTokens => "tokens",
            MetricKey::OutputTokensPerSPerUser => "tokens/s",
            _ => "ms",
        }
    }

    /// True for the time metrics (all in milliseconds).
    pub fn is_latency(self) -> bool {
        self.unit() == "ms"
    }
}

impl fmt::Display for MetricKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which standard deviation a file reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StdKind {
    /// Divides by n (numpy's default; vLLM bench; our own computations).
    Population,
    /// Divides by n − 1 (AIPerf).
    Sample,
}

/// The statistics of one metric at one operating point, as the file reports them (or as
/// computed from the file's per-request data when it has no summary for that metric).
///
/// Fixed fields hold the statistics a report uses; any other percentile the file has is in
/// [`MetricStats::percentiles`] under its label (`p25`, `p99.9`, `p0.1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MetricStats {
    /// Unit of every number here: `ms`, `tokens` or `tokens/s` (see [`MetricKey::unit`]).
    pub unit: String,
    /// The exact definition the tool uses, in one or two sentences.
    pub definition: String,
    /// The tool's own name for the metric (`tpot`, `inter_token_latency`, `time_to_first_token_ms`).
    pub source: String,
    /// How many values the statistics cover (requests, or chunks for ITL), when known.
    pub count: Option<u64>,
    pub mean: Option<f64>,
    pub p50: Option<f64>,
    pub p90: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub std: Option<f64>,
    /// Which standard deviation `std` is, when the tool documents it.
    pub std_kind: Option<StdKind>,
    /// Further percentiles by label (`p1`, `p25`, `p75`, `p99.9`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub percentiles: BTreeMap<String, f64>,
    /// True when these statistics were computed here from per-request records rather than
    /// read from the file's summary (percentile method: see [`super::stats`]).
    #[serde(default)]
    pub computed_from_requests: bool,
}

impl MetricStats {
    /// Empty statistics for `key` with the given definition and source name.
    pub fn new(key: MetricKey, definition: impl Into<String>, source: impl Into<String>) -> Self {
        MetricStats {
            unit: key.unit().to_string(),
            definition: definition.into(),
            source: source.into(),
            count: None,
            mean: None,
            p50: None,
            p90: None,
            p95: None,
            p99: None,
            min: None,
            max: None,
            std: None,
            std_kind: None,
            percentiles: BTreeMap::new(),
            computed_from_requests: false,
        }
    }

    /// Stores percentile `p` (0–100): p50/p90/p95/p99 in their fields, any other in the map.
    pub fn set_percentile(&mut self, p: f64, value: f64) {
        match percentile_label(p).as_str() {
            "p50" => self.p50 = Some(value),
            "p90" => self.p90 = Some(value),
            "p95" => self.p95 = Some(value),
            "p99" => self.p99 = Some(value),
            label => {
                self.percentiles.insert(label.to_string(), value);
            }
        }
    }

    /// Percentile `p` (0–100) if the statistics have it.
    pub fn percentile(&self, p: f64) -> Option<f64> {
        match percentile_label(p).as_str() {
            "p50" => self.p50,
            "p90" => self.p90,
            "p95" => self.p95,
            "p99" => self.p99,
            label => self.percentiles.get(label).copied(),
        }
    }

    /// Every percentile present, as (p, value) in ascending p (the map's keys sort as text).
    pub fn all_percentiles(&self) -> Vec<(f64, f64)> {
        let mut out: Vec<(f64, f64)> = [
            (50.0, self.p50),
            (90.0, self.p90),
            (95.0, self.p95),
            (99.0, self.p99),
        ]
        .into_iter()
        .filter_map(|(p, v)| v.map(|v| (p, v)))
        .collect();
        out.extend(self.percentiles.iter().filter_map(|(label, v)| {
            label
                .strip_prefix('p')?
                .parse::<f64>()
                .ok()
                .map(|p| (p, *v))
        }));
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    /// True when no statistic at all is present.
    pub fn is_empty(&self) -> bool {
        self.mean.is_none()
            && self.p50.is_none()
            && self.p90.is_none()
            && self.p95.is_none()
            && self.p99.is_none()
            && self.min.is_none()
            && self.max.is_none()
            && self.std.is_none()
            && self.percentiles.is_empty()
    }

    /// Multiplies every statistic by `factor` (unit conversion); `count` is untouched.
    pub(crate) fn scale(&mut self, factor: f64) {
        for v in [
            &mut self.mean,
            &mut self.p50,
            &mut self.p90,
            &mut self.p95,
            &mut self.p99,
            &mut self.min,
            &mut self.max,
            &mut self.std,
        ]
        .into_iter()
        .flatten()
        {
            *v *= factor;
        }
        for v in self.percentiles.values_mut() {
            *v *= factor;
        }
    }
}

/// The label of percentile `p`: `p99`, `p99.9`, `p0.1`.
pub fn percentile_label(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("p{}", p as i64)
    } else {
        format!("p{p}")
    }
}

/// One load level of one run: what was offered, what came back, and the latency statistics.
///
/// `None` always means "the file does not say", never zero.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatingPoint {
    /// The workload as the file states it: `input 1000 / output 500 tokens`,
    /// `dataset sharegpt`, guidellm's `prompt_tokens=512,output_tokens=128`. When the file
    /// states nothing, the observed means (`observed mean input 32 / output 16 tokens`) or
    /// `unspecified`.
    pub scenario: String,
    /// Where in the upload this point came from: `results.json line 3`,
    /// `concurrency_16/profile_export_aiperf.json`, `benchmarks[0]`.
    pub source: String,
    /// The model the tool reports it sent requests to.
    pub model: Option<String>,
    /// Configured number of requests in flight (vLLM `max_concurrency`, AIPerf concurrency,
    /// guidellm streams). `None` when the run was rate-driven or unlimited.
    pub concurrency: Option<f64>,
    /// Configured arrival rate, requests per second. `None` when unlimited (`inf`) or not a
    /// rate-driven run.
    pub request_rate: Option<f64>,
    /// Measured duration of the run, seconds.
    pub duration_s: Option<f64>,
    /// Successful requests.
    pub completed: Option<u64>,
    /// Failed requests (errors, cancellations; for guidellm also requests left incomplete).
    pub failed: Option<u64>,
    /// Prompt tokens of successful requests.
    pub input_tokens_total: Option<u64>,
    /// Output tokens of successful requests (AIPerf: including reasoning tokens).
    pub output_tokens_total: Option<u64>,
    /// Mean prompt tokens per successful request.
    pub input_tokens_mean: Option<f64>,
    /// Mean output tokens per successful request.
    pub output_tokens_mean: Option<f64>,
    /// Successful requests per second over the run.
    pub request_throughput: Option<f64>,
    /// Requests per second that met the run's own SLOs (`--goodput`), when configured.
    pub request_goodput: Option<f64>,
    /// Aggregate output tokens per second (the machine's, not one user's).
    pub output_tokens_per_s: Option<f64>,
    /// Aggregate input + output tokens per second.
    pub total_tokens_per_s: Option<f64>,
    /// Mean per-user decode speed, tokens per second, as the tool reports it (or computed from
    /// per-request data). Not derived from TPOT here; see the metric of the same name.
    pub output_tokens_per_s_per_user: Option<f64>,
    /// Latency (and length) statistics by normalised key.
    pub metrics: BTreeMap<MetricKey, MetricStats>,
    /// Whatever else the file says about the run (backend, date, metadata, SLOs, sweep
    /// parameters), as strings under the tool's own key names.
    pub settings: BTreeMap<String, String>,
}

impl OperatingPoint {
    /// An empty point from `source`.
    pub fn new(source: impl Into<String>) -> Self {
        OperatingPoint {
            scenario: String::new(),
            source: source.into(),
            model: None,
            concurrency: None,
            request_rate: None,
            duration_s: None,
            completed: None,
            failed: None,
            input_tokens_total: None,
            output_tokens_total: None,
            input_tokens_mean: None,
            output_tokens_mean: None,
            request_throughput: None,
            request_goodput: None,
            output_tokens_per_s: None,
            total_tokens_per_s: None,
            output_tokens_per_s_per_user: None,
            metrics: BTreeMap::new(),
            settings: BTreeMap::new(),
        }
    }

    /// The statistics for `key`, if the point has them.
    pub fn metric(&self, key: MetricKey) -> Option<&MetricStats> {
        self.metrics.get(&key)
    }
}

/// One request as the file records it. Latencies in milliseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestRecord {
    /// Index into [`Import::points`] of the point the request belongs to.
    pub point: usize,
    /// The tool's request id, when it writes one.
    pub id: Option<String>,
    /// Seconds from the earliest request start of the same point to this request's start.
    pub start_s: Option<f64>,
    pub ttft_ms: Option<f64>,
    pub e2e_ms: Option<f64>,
    /// (E2E − TTFT) ÷ (output tokens − 1), as the tool states it or computed from E2E and TTFT;
    /// `None` for one-token answers.
    pub tpot_ms: Option<f64>,
    /// Gaps between consecutive streamed chunks; empty when the file has none or when
    /// [`crate::ingest::ImportOptions::keep_itl_lists`] is off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub itl_ms: Vec<f64>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// The error text for a failed request; `None` on success.
    pub error: Option<String>,
}

impl RequestRecord {
    /// An empty record for point `point`.
    pub fn new(point: usize) -> Self {
        RequestRecord {
            point,
            id: None,
            start_s: None,
            ttft_ms: None,
            e2e_ms: None,
            tpot_ms: None,
            itl_ms: Vec::new(),
            input_tokens: None,
            output_tokens: None,
            error: None,
        }
    }

    /// True when the request failed.
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }
}

/// Everything read from one upload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Import {
    pub format: Format,
    /// `vllm bench serve`, `aiperf`, `genai-perf` or `guidellm`.
    pub tool: String,
    /// The tool's version when the file states it (AIPerf, current guidellm); vLLM result files
    /// do not record it.
    pub tool_version: Option<String>,
    /// Which layout/variant of the format was read, for people (`early records layout`,
    /// `per-request arrays (--save-detailed)`).
    pub layout: String,
    /// One entry per load level, in file order (folders: natural path order).
    pub points: Vec<OperatingPoint>,
    /// Per-request records when the file has them and they were kept; may be empty.
    pub requests: Vec<RequestRecord>,
    /// Things a person should know about the import (dropped placeholder zeros, cancelled
    /// runs, skipped files). Never silently changed numbers.
    pub warnings: Vec<String>,
}

impl Import {
    pub(crate) fn new(format: Format, layout: impl Into<String>) -> Self {
        Import {
            format,
            tool: format.tool().to_string(),
            tool_version: None,
            layout: layout.into(),
            points: Vec::new(),
            requests: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// How much of the per-request data to keep.
///
/// Statistics are exact either way (every value is sorted, no sketches), which costs 8 bytes
/// per value per metric while importing: about 64 bytes per request for the eight per-request
/// metrics, plus 8 bytes per streamed chunk for exact ITL percentiles. Turn
/// `exact_itl_percentiles` off to bound an import of a very large per-request file to the
/// per-request part; ITL then keeps count, mean, std, min and max.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportOptions {
    /// Keep one [`RequestRecord`] per request in [`Import::requests`].
    pub keep_requests: bool,
    /// Inside kept records, keep the list of chunk gaps ([`RequestRecord::itl_ms`]).
    pub keep_itl_lists: bool,
    /// Compute exact percentiles of pooled chunk gaps (ITL) from per-request data.
    pub exact_itl_percentiles: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            keep_requests: true,
            keep_itl_lists: true,
            exact_itl_percentiles: true,
        }
    }
}

impl ImportOptions {
    /// Statistics only: no records kept, exact percentiles for everything.
    pub fn stats_only() -> Self {
        ImportOptions {
            keep_requests: false,
            keep_itl_lists: false,
            exact_itl_percentiles: true,
        }
    }
}
