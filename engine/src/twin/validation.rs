//! Back-test of the capacity twin against public runs it did not make (issue #39, item 4): the
//! same model and workload measured on two GPU types, a twin fitted on one, transferred to the
//! other ([`transfer`](mod@super::transfer)), its prediction compared with what was measured.
//!
//! # Why this exists
//!
//! The leave-one-out back-test of [`super::backtest`] says how well a twin predicts *its own*
//! configuration at another load. A candidate GPU is another configuration: its figures are
//! Estimated, moved there by the step model's physics. Only runs on both GPUs can say how far
//! such a move is off, so the error every Estimated figure carries ([`summary`]) comes from
//! here, not from the fitted GPU's own back-test.
//!
//! # Method
//!
//! The input is `testdata/gpu-validation/runs.json` (public result files; where each came from:
//! `SOURCES.md` there). This module reads no file: [`back_test`] takes the JSON text.
//!
//! * **Which runs.** vLLM runs whose model is in the catalog and whose GPU is a catalog card
//!   (`h200`, form factor unstated, is read as `h200-sxm`: its 143,771 MiB fit the SXM and the
//!   NVL part alike, which share memory and bandwidth; the NVL part's lower power limit gives it
//!   less dense compute, 835 against 989 TFLOPS, which matters for prefill only).
//!   gpu_conc's closed loops from concurrency 32 up are left out: the client itself capped the
//!   requests in flight there (the data set's README), so the stated concurrency is not the load.
//! * **One fit per GPU and engine configuration.** A configuration is `pair_key` without its
//!   workload and load: engine, model, TP and the server flags the source tells apart. All of a
//!   GPU's runs of one configuration are fitted together (every workload): one workload alone is
//!   one or two points, too few to separate the per-step terms, while the different prompt and
//!   answer lengths of the others pin the prefill and KV terms the transfer carries separately.
//!   Fitting each workload alone was tried and was worse on both p50 metrics (TTFT 47 %, TPOT
//!   40 % median error, against 40 % and 35 %, when this was written).
//! * **Runs left out**: anything but vLLM; models or GPUs outside the catalog; gpu_conc from
//!   concurrency 32 (below); and runs whose TTFT, TPOT and throughput equal another GPU's run of
//!   the same `pair_key` to the last digit (GPUStack's GLM-4.5-Air pages carry the same four
//!   random-workload blocks for the A100 and the H100: one page's block copied, not a second
//!   measurement, and nothing says which).
//! * **Both directions.** For every two GPUs of a configuration, the twin of each is transferred
//!   to the other (sized there for its KV cache by vLLM's memory model, with that card's own
//!   scheduler defaults or stated flags: another card runs vLLM with other defaults, which the
//!   measured card's limits do not show) and asked each run both GPUs share a `pair_key` for:
//!   its arrival process (a burst, a closed loop, a rate), request count and mean lengths. The
//!   fitted GPU's engine is sized the same way and its limits handed to the fit as stated.
//! * **Setups.** TP as run; weights FP8 when the model name says so, MXFP4 for gpt-oss, FP8 for
//!   DeepSeek-R1 (its published checkpoint), else BF16; 16-bit KV cache; CUDA graphs unless the
//!   server command says `--enforce-eager` (none does).
//! * **Figures compared.** TTFT p50/p99 and TPOT p50/p99 as the files state them. gpu_conc's
//!   files have no TPOT: there the measured TPOT p50 is 1000 ÷ the median per-request decode
//!   speed (tokens after the first ÷ their time), the same quantity per request, and its p99 is
//!   absent. Error = |predicted − measured| ÷ measured; "inside" = the stated range (low..high)
//!   holds the measured value.
//!
//! [`ValidationReport::markdown`] writes `VALIDATION.md` next to this module and
//! [`ValidationReport::figures_source`] the constants [`summary`] serves; a test in
//! `engine/tests/gpu_validation.rs` fails when either differs from what the harness computes.

use super::Twin;
use super::arrivals::ArrivalProcess;
use super::fit::FitOptions;
use super::predict::Question;
use super::scheduler_limits::{SchedulerFlags, SchedulerLimits};
use super::serving_limits::ServingLimits;
use super::step_model::{Execution, ServingSetup, expert_share};
use super::timing::StepCost;
use super::transfer::{
    RangeCalibration, Ranged, TransferCalibration, TransferredPrediction, TransferredTwin,
    predict_transferred, transfer,
};
use crate::ingest::{MetricKey, MetricStats, OperatingPoint};
use crate::plan::Statistic;
use crate::sizing::{
    KvDtype, MemoryModel, ModelSpec, SizingInput, Topology, VllmVersion, WeightPrecision,
    gpu_by_id, model_by_id, size,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

#[path = "validation_figures.rs"]
mod figures;
#[path = "validation_markdown.rs"]
mod markdown;

/// The document the figures come from, for readers of the API.
pub const DOCUMENT: &str = "engine/src/twin/VALIDATION.md";

/// Issue #39's aims: median error of TPOT p50 and TTFT p50, %, and the share of measured values
/// the stated range should hold, %.
pub const AIM_TPOT_P50_PCT: f64 = 25.0;
pub const AIM_TTFT_P50_PCT: f64 = 40.0;
pub const AIM_RANGE_CONTAINS_PCT: f64 = 80.0;

/// The figures compared per point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ValidatedMetric {
    TtftP50,
    TtftP99,
    TpotP50,
    TpotP99,
}

impl ValidatedMetric {
    pub const ALL: [ValidatedMetric; 4] = [
        ValidatedMetric::TtftP50,
        ValidatedMetric::TtftP99,
        ValidatedMetric::TpotP50,
        ValidatedMetric::TpotP99,
    ];

    /// `TTFT p50`.
    pub fn label(self) -> &'static str {
        match self {
            ValidatedMetric::TtftP50 => "TTFT p50",
            ValidatedMetric::TtftP99 => "TTFT p99",
            ValidatedMetric::TpotP50 => "TPOT p50",
            ValidatedMetric::TpotP99 => "TPOT p99",
        }
    }

    /// The metric the figure is a percentile of.
    pub fn key(self) -> MetricKey {
        match self {
            ValidatedMetric::TtftP50 | ValidatedMetric::TtftP99 => MetricKey::TtftMs,
            ValidatedMetric::TpotP50 | ValidatedMetric::TpotP99 => MetricKey::TpotMs,
        }
    }

    /// The prediction field the metric belongs to (`ttft_ms`, `tpot_ms`).
    pub fn field(self) -> &'static str {
        match self {
            ValidatedMetric::TtftP50 | ValidatedMetric::TtftP99 => "ttft_ms",
            ValidatedMetric::TpotP50 | ValidatedMetric::TpotP99 => "tpot_ms",
        }
    }

    pub fn statistic(self) -> Statistic {
        match self {
            ValidatedMetric::TtftP50 | ValidatedMetric::TpotP50 => Statistic::P50,
            ValidatedMetric::TtftP99 | ValidatedMetric::TpotP99 => Statistic::P99,
        }
    }

    /// The aim for the median error, when it sets one.
    pub fn aim_median_error_pct(self) -> Option<f64> {
        match self {
            ValidatedMetric::TtftP50 => Some(AIM_TTFT_P50_PCT),
            ValidatedMetric::TpotP50 => Some(AIM_TPOT_P50_PCT),
            _ => None,
        }
    }
}

/// The back-tested error of one metric over every predicted point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MetricValidation {
    pub metric: ValidatedMetric,
    /// Median of |predicted − measured| ÷ measured, %.
    pub median_error_pct: f64,
    /// The largest such error, %.
    pub worst_error_pct: f64,
    /// GPU pairs (unordered) with at least one point of this metric.
    pub pairs: u32,
    /// Points compared (each direction counts).
    pub points: u32,
    /// Share of points whose measured value lies inside the stated range, %: the range every
    /// Estimated figure states, calibrated with [`MetricValidation::over_p80_pct`] and
    /// [`MetricValidation::under_p80_pct`] of these same points (in-sample).
    pub range_contains_pct: f64,
    /// Issue #39's aim for the median error, % (TTFT p50 40, TPOT p50 25).
    pub aim_median_error_pct: Option<f64>,
    /// Share inside the range before the calibration (the priors' fast and slow ends, widened
    /// by the fitted twin's own back-test), %.
    #[serde(default)]
    pub spread_contains_pct: f64,
    /// Of the predictions above the measured value, 80 % were at most this far above it:
    /// the 80th percentile of (predicted − measured) ÷ measured over them, %, rounded up to a
    /// tenth. A transferred range reaches down to value ÷ (1 + this).
    #[serde(default)]
    pub over_p80_pct: f64,
    /// Of the predictions below the measured value, 80 % were at most this far below it: the
    /// 80th percentile of (measured − predicted) ÷ measured over them, %, rounded up to a
    /// tenth. A transferred range reaches up to value ÷ (1 − this).
    #[serde(default)]
    pub under_p80_pct: f64,
    /// Share inside the calibrated range when the calibration is taken from the other half of
    /// the GPU pairs only (out-of-sample; module docs), %.
    #[serde(default)]
    pub held_out_range_contains_pct: f64,
}

impl MetricValidation {
    /// The calibration this metric's figures give a transferred range.
    pub fn range_calibration(&self) -> RangeCalibration {
        RangeCalibration {
            over_pct: self.over_p80_pct,
            under_pct: self.under_p80_pct,
        }
    }
}

/// What the API carries as top-level `validation`: how far the transfer to another GPU was off
/// on public runs, per metric.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ValidationSummary {
    /// What was back-tested, in one sentence.
    pub method: String,
    /// Where the per-pair figures and caveats are.
    pub document: String,
    /// Issue #39's aim for the share of measured values inside the stated range, %.
    pub aim_range_contains_pct: f64,
    pub metrics: Vec<MetricValidation>,
}

impl ValidationSummary {
    /// The back-tested error of figure `field` (`ttft_ms`, `tpot_ms`) at `statistic` (p50,
    /// p99), when it was back-tested.
    pub fn metric(&self, field: &str, statistic: Statistic) -> Option<&MetricValidation> {
        self.metrics
            .iter()
            .find(|m| m.metric.field() == field && m.metric.statistic() == statistic)
    }
}

/// The back-test's figures as generated into `validation_figures.rs` (module docs).
pub fn summary() -> ValidationSummary {
    summary_of(figures::FIGURES.to_vec())
}

/// The calibration every transferred (Estimated) range is widened to: [`summary`]'s 80 %
/// intervals per back-tested figure.
pub fn calibration() -> TransferCalibration {
    calibration_of(&figures::FIGURES)
}

/// The calibration of `metrics` (a metric without figures: none).
fn calibration_of(metrics: &[MetricValidation]) -> TransferCalibration {
    let of = |metric: ValidatedMetric| {
        metrics
            .iter()
            .find(|m| m.metric == metric)
            .map(MetricValidation::range_calibration)
            .unwrap_or_default()
    };
    TransferCalibration {
        ttft_p50: of(ValidatedMetric::TtftP50),
        ttft_p99: of(ValidatedMetric::TtftP99),
        tpot_p50: of(ValidatedMetric::TpotP50),
        tpot_p99: of(ValidatedMetric::TpotP99),
    }
}

fn summary_of(metrics: Vec<MetricValidation>) -> ValidationSummary {
    ValidationSummary {
        method: METHOD.to_string(),
        document: DOCUMENT.to_string(),
        aim_range_contains_pct: AIM_RANGE_CONTAINS_PCT,
        metrics,
    }
}

/// `value` to one decimal, as the generated constants hold it.
fn tenth(value: f64) -> f64 {
    format!("{value:.1}").parse().unwrap_or(value)
}

/// `value` rounded up to one decimal (a calibration never narrower than measured).
fn tenth_up(value: f64) -> f64 {
    let up = (value * 10.0 - 1e-9).ceil() / 10.0;
    tenth(up.max(0.0))
}

const METHOD: &str = "A twin fitted on one GPU's public vLLM runs, transferred to another GPU by \
                      the step model and compared with the same workloads measured there, in \
                      both directions.";

/// Mean, median and p99 as a result file states them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
pub struct RunStats {
    pub mean: Option<f64>,
    pub p50: Option<f64>,
    pub p99: Option<f64>,
}

/// One row of `runs.json` (the fields the back-test reads; the data set's README defines them).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PublicRun {
    pub file: String,
    pub source: String,
    pub gpu: String,
    pub tp: u32,
    pub model: String,
    pub engine: String,
    pub engine_version: Option<String>,
    pub server_command: Option<String>,
    pub input_tokens: Option<f64>,
    pub output_tokens: Option<f64>,
    pub input_tokens_measured_mean: Option<f64>,
    pub output_tokens_measured_mean: Option<f64>,
    pub concurrency: Option<f64>,
    /// Requests per second, or `"inf"` (all at once).
    pub request_rate: Option<serde_json::Value>,
    pub num_prompts: Option<u64>,
    pub completed: Option<u64>,
    pub ttft_ms: Option<RunStats>,
    pub tpot_ms: Option<RunStats>,
    pub e2e_ms: Option<RunStats>,
    pub request_throughput_rps: Option<f64>,
    pub output_throughput_tok_s: Option<f64>,
    pub decode_speed_tok_s: Option<RunStats>,
    pub pair_key: String,
    #[serde(default)]
    pub notes: Option<String>,
}

/// gpu_conc's client ran each level for a fixed time and had no TPOT (module docs).
const GPU_CONC: &str = "sariekr-gpu_conc";
/// From this concurrency up gpu_conc's client limited the load itself.
const GPU_CONC_UNRELIABLE_FROM: f64 = 32.0;

impl PublicRun {
    /// The finite arrival rate, req/s; `None` for a closed loop or a burst.
    fn rate_per_s(&self) -> Option<f64> {
        self.request_rate
            .as_ref()
            .and_then(serde_json::Value::as_f64)
            .filter(|r| r.is_finite() && *r > 0.0)
    }

    fn arrivals(&self) -> ArrivalProcess {
        if let Some(c) = self.concurrency.filter(|c| *c >= 1.0) {
            ArrivalProcess::ClosedLoop {
                concurrency: c.round() as u32,
            }
        } else if let Some(rate_per_s) = self.rate_per_s() {
            ArrivalProcess::Poisson { rate_per_s }
        } else {
            ArrivalProcess::Burst
        }
    }

    fn duration_bound(&self) -> bool {
        self.source == GPU_CONC
    }

    fn prompt_tokens(&self) -> Option<f64> {
        self.input_tokens_measured_mean.or(self.input_tokens)
    }

    /// Mean answer length: measured, else output ÷ request throughput, else the configured one.
    fn output_tokens(&self) -> Option<f64> {
        self.output_tokens_measured_mean
            .or_else(|| {
                let (out, req) = (self.output_throughput_tok_s?, self.request_throughput_rps?);
                (req > 0.0).then(|| out / req)
            })
            .or(self.output_tokens)
    }

    /// TPOT as compared: the file's, or 1000 ÷ gpu_conc's decode speed (module docs).
    fn tpot(&self) -> Option<RunStats> {
        self.tpot_ms.or_else(|| {
            let speed = self.decode_speed_tok_s?;
            let inverse = |s: Option<f64>| s.filter(|s| *s > 0.0).map(|s| 1000.0 / s);
            Some(RunStats {
                mean: inverse(speed.mean),
                p50: inverse(speed.p50),
                p99: None,
            })
        })
    }

    /// `--name value`, `--name=value`, or the dstack CSV's `name=value` in `notes`.
    fn stated(&self, name: &str) -> Option<String> {
        let command = self.server_command.as_deref().unwrap_or("");
        let words: Vec<&str> = command.split_whitespace().collect();
        let flag = format!("--{name}");
        for (i, word) in words.iter().enumerate() {
            if let Some(value) = word.strip_prefix(&format!("{flag}=")) {
                return Some(value.to_string());
            }
            if *word == flag {
                let next = words.get(i + 1).filter(|w| !w.starts_with("--"));
                return Some(next.map_or("true", |w| w).to_string());
            }
        }
        let csv = self
            .notes
            .as_deref()?
            .split("server as CSV states it:")
            .nth(1)?;
        csv.split(';')
            .next()?
            .split(',')
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.trim().to_string())
            .filter(|v| v != "default")
    }

    fn stated_number(&self, name: &str) -> Option<f64> {
        self.stated(name)?
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
    }

    fn stated_bool(&self, name: &str) -> Option<bool> {
        match self.stated(name)?.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }
}

/// How a run loaded the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadKind {
    /// All requests at once (`request_rate inf`): TTFT is mostly queueing.
    Burst,
    ClosedLoop,
    Rate,
}

impl LoadKind {
    fn of(arrivals: &ArrivalProcess) -> LoadKind {
        match arrivals {
            ArrivalProcess::ClosedLoop { .. } => LoadKind::ClosedLoop,
            ArrivalProcess::Poisson { .. } => LoadKind::Rate,
            _ => LoadKind::Burst,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            LoadKind::Burst => "burst (all requests at once)",
            LoadKind::ClosedLoop => "closed loop (fixed concurrency)",
            LoadKind::Rate => "Poisson rate",
        }
    }
}

/// What the back-test's data leaves of a metric's error ([`ValidationReport::ratio_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioBound {
    pub metric: ValidatedMetric,
    pub points: usize,
    /// The transfer's own median error over the same points, %.
    pub model_median_error_pct: f64,
    /// Median error with one measured factor per GPU pair and direction, %.
    pub per_pair_median_error_pct: f64,
    /// Median error with one measured factor per configuration and direction, %.
    pub per_configuration_median_error_pct: f64,
}

/// A run's figure measured on the fitted GPU and on the target.
type SourceAndTarget = (f64, f64);

/// The median error over `groups` of (measured on the fitted GPU, measured on the target) when
/// each group's target is its source times the group's median measured ratio.
fn known_ratio_error<'a>(groups: impl Iterator<Item = &'a Vec<SourceAndTarget>>) -> f64 {
    let mut errors = Vec::new();
    for group in groups {
        let mut ratios: Vec<f64> = group.iter().map(|(s, m)| m / s).collect();
        let ratio = median(&mut ratios);
        errors.extend(group.iter().map(|(s, m)| (s * ratio - m).abs() / m * 100.0));
    }
    median(&mut errors)
}

/// One measured figure against the prediction for it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointFigure {
    pub metric: ValidatedMetric,
    pub measured: f64,
    /// The prediction with its stated range: the spread, calibrated with every point's 80 %
    /// intervals ([`ValidationReport::calibrate`]).
    pub predicted: Ranged,
    /// The range before the calibration: the priors' ends widened by the twin's back-test.
    pub spread: Ranged,
    /// The range calibrated with the other half of the GPU pairs only (out-of-sample).
    pub held_out: Ranged,
    /// The physical floor the ranges are held at, ms.
    pub floor: f64,
    /// The same run's figure as measured on the GPU the twin was fitted on (for
    /// [`ValidationReport::ratio_bounds`]; `None` where that run lacks it).
    #[serde(default)]
    pub on_source: Option<f64>,
}

impl PointFigure {
    /// |predicted − measured| ÷ measured, %.
    pub fn error_pct(&self) -> f64 {
        (self.predicted.value - self.measured).abs() / self.measured * 100.0
    }

    /// Whether the stated range holds the measured value.
    pub fn contained(&self) -> bool {
        holds(&self.predicted, self.measured)
    }

    /// (predicted − measured) ÷ measured, %: positive when the prediction was too high.
    fn signed_error_pct(&self) -> f64 {
        (self.predicted.value - self.measured) / self.measured * 100.0
    }
}

fn holds(r: &Ranged, value: f64) -> bool {
    r.low <= value && value <= r.high
}

/// One run of GPU B predicted from the twin fitted on GPU A.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    /// `qwen3-32b TP1 BF16 (flags:default)`.
    pub configuration: String,
    pub from_gpu: String,
    pub to_gpu: String,
    /// `random-4000x200`, `sharegpt`.
    pub workload: String,
    /// `burst of 500`, `concurrency 16`, `rate 16 req/s`.
    pub load: String,
    pub kind: LoadKind,
    /// True when TPOT is 1000 ÷ gpu_conc's decode speed (module docs).
    pub tpot_from_decode_speed: bool,
    pub figures: Vec<PointFigure>,
}

impl PointResult {
    pub fn figure(&self, metric: ValidatedMetric) -> Option<&PointFigure> {
        self.figures.iter().find(|f| f.metric == metric)
    }

    /// The two GPUs, in a fixed order (an unordered pair).
    fn gpu_pair(&self) -> (String, String) {
        let (a, b) = (self.from_gpu.clone(), self.to_gpu.clone());
        if a <= b { (a, b) } else { (b, a) }
    }
}

/// Runs or points the back-test did not use, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeftOut {
    pub reason: String,
    /// What was left out (`SGLang`, `zai-org/GLM-4.6-FP8`, `gpt-oss-20b on MI300X`).
    pub what: String,
    pub count: usize,
}

/// Everything the back-test computed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ValidationReport {
    /// Runs read from the file.
    pub runs: usize,
    /// Every twin fitted, with the engine its GPU was sized for.
    pub engines: Vec<FittedEngine>,
    pub points: Vec<PointResult>,
    pub left_out: Vec<LeftOut>,
}

/// One GPU's twin of a configuration and the engine it was sized for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedEngine {
    pub configuration: String,
    pub gpu: String,
    /// Runs the twin was fitted on.
    pub runs: usize,
    pub kv_cache_tokens: u64,
    pub max_num_seqs: u64,
    pub max_num_batched_tokens: u64,
    pub chunked_prefill: bool,
    /// The twin's own leave-one-out error (median, %), which widens every transferred range.
    pub backtest_error_pct: Option<f64>,
    pub step: StepCost,
}

/// The catalog model and weight format of a model as the sources name it (module docs).
fn catalog_model(name: &str) -> Option<(&'static str, WeightPrecision)> {
    let id = match name {
        "Qwen/Qwen3-14B" => "qwen3-14b",
        "Qwen/Qwen3-32B" => "qwen3-32b",
        "Qwen/Qwen3-235B-A22B-Instruct-2507" | "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8" => {
            "qwen3-235b-a22b"
        }
        "zai-org/GLM-4.5-Air" => "glm-4.5-air",
        "openai/gpt-oss-20b" => "gpt-oss-20b",
        "openai/gpt-oss-120b" => "gpt-oss-120b",
        // R1 has V3's architecture; its published checkpoint is FP8.
        "deepseek-ai/DeepSeek-R1" => return Some(("deepseek-v3", WeightPrecision::Fp8)),
        "meta-llama/Llama-3.1-405B-FP8" => "llama-3.1-405b",
        // Llama 3 8B has Llama 3.1 8B's shapes (only RoPE scaling and context differ).
        "meta-llama/Meta-Llama-3-8B-Instruct" => "llama-3.1-8b",
        _ => return None,
    };
    let weights = if id.starts_with("gpt-oss") {
        WeightPrecision::Mxfp4
    } else if name.to_ascii_uppercase().contains("FP8") {
        WeightPrecision::Fp8
    } else {
        WeightPrecision::Bf16
    };
    Some((id, weights))
}

/// The catalog card of a run's `gpu` (module docs on `h200`).
fn catalog_gpu(id: &str) -> Option<crate::sizing::GpuSpec> {
    gpu_by_id(if id == "h200" { "h200-sxm" } else { id })
}

/// The KV-cache pool vLLM's memory model predicts for `input`, at least one `max_model_len`
/// request (vLLM refuses to start otherwise, and the run did start). Where that model predicts
/// a refusal (Qwen3-32B's 40,960 tokens not fitting its pool, gpt-oss-120b on an H100 left
/// without cache: it is pessimistic there) its pool is used all the same, raised to that
/// request, or, when it predicts none, the planning convention's.
fn kv_cache_tokens(
    sized: &crate::sizing::SizingResult,
    input: &SizingInput,
) -> Result<u64, String> {
    // vLLM starts only when one request of `max_model_len` fits its pool, and the run started.
    let started = input.context_tokens;
    if sized.kv_cache_tokens > 0 {
        return Ok(sized.kv_cache_tokens.max(started));
    }
    let mut planning = input.clone();
    planning.memory_model = MemoryModel::Planning;
    let sized = size(&planning).map_err(|e| e.to_string())?;
    if sized.kv_cache_tokens > 0 {
        Ok(sized.kv_cache_tokens.max(started))
    } else {
        Err("no KV cache fits next to the weights by either memory model".to_string())
    }
}

/// The engine as one GPU of a configuration runs it: its KV cache and scheduler limits.
#[derive(Clone, Debug, PartialEq)]
struct EngineSide {
    kv_cache_tokens: u64,
    /// `max_model_len`: stated, else the model's maximum (vLLM's default).
    context_tokens: u64,
    /// vLLM's defaults for the card and version, or the source's flags
    /// ([`SchedulerLimits`], shared with the production paths).
    scheduler: SchedulerLimits,
}

impl EngineSide {
    /// Sizes `setup` with vLLM's memory model and the run's stated flags.
    fn of(run: &PublicRun, model: &ModelSpec, setup: &ServingSetup) -> Result<Self, String> {
        let context = run
            .stated_number("max-model-len")
            .map_or(model.max_context_tokens, |c| c as u64);
        let flags = SchedulerFlags {
            max_num_seqs: run.stated_number("max-num-seqs").map(|n| n as u64),
            max_num_batched_tokens: run
                .stated_number("max-num-batched-tokens")
                .map(|n| n as u64),
            chunked_prefill: run.stated_bool("enable-chunked-prefill"),
        };
        let mut input = SizingInput::new(
            model.clone(),
            setup.weights,
            setup.kv_dtype,
            setup.gpu.clone(),
            Topology::new(setup.tp, 1, 1),
            context,
            MemoryModel::Vllm,
        );
        input.vllm_version = run.engine_version.clone();
        input.gpu_memory_utilization = run.stated_number("gpu-memory-utilization");
        input.max_num_seqs = flags.max_num_seqs;
        input.max_num_batched_tokens = flags.max_num_batched_tokens;
        input.enforce_eager = setup.execution == Execution::Eager;
        let sized = size(&input).map_err(|e| e.to_string())?;
        let details = sized.vllm.as_ref().ok_or("no vLLM sizing")?;
        let kv_cache_tokens = kv_cache_tokens(&sized, &input)?;
        let version = run
            .engine_version
            .as_deref()
            .and_then(|v| VllmVersion::parse(v).ok());
        let scheduler = SchedulerLimits::of(details.engine, version, &setup.gpu, context, &flags);
        debug_assert_eq!(
            (scheduler.max_num_seqs, scheduler.max_num_batched_tokens),
            (details.max_num_seqs, details.max_num_batched_tokens)
        );
        Ok(EngineSide {
            kv_cache_tokens,
            context_tokens: context,
            scheduler,
        })
    }

    /// What the fit on this side may take as stated: the KV cache, `max_num_seqs`,
    /// `max_num_batched_tokens` and chunked prefill of this card's engine.
    fn serving_limits(&self) -> ServingLimits {
        ServingLimits {
            kv_cache_tokens: Some(self.kv_cache_tokens),
            max_num_seqs: Some(self.scheduler.max_num_seqs),
            max_num_batched_tokens: Some(self.scheduler.max_num_batched_tokens),
            chunked_prefill: Some(self.scheduler.chunked_prefill),
            sources: vec![
                "KV cache and scheduler limits of vLLM's memory model for this card (back-test)"
                    .to_string(),
            ],
        }
    }

    /// Gives the transferred twin this card's scheduler limits (the KV cache came with the
    /// transfer): another card runs vLLM with its own defaults (1,024 sequences on an H100,
    /// 256 on an A100), which the measured card's limits would not show.
    fn apply(&self, moved: &mut TransferredTwin) {
        self.scheduler.apply(moved);
    }
}

/// A run the back-test can use: its catalog model, setup and engine.
#[derive(Clone, Debug)]
struct Case<'a> {
    run: &'a PublicRun,
    model: ModelSpec,
    setup: ServingSetup,
    engine: EngineSide,
    /// `pair_key` without workload and load.
    configuration: String,
    workload: String,
    load: String,
}

/// Why a run is not used, as (reason, what).
type Skip = (String, String);

impl<'a> Case<'a> {
    fn of(run: &'a PublicRun) -> Result<Case<'a>, Skip> {
        if run.engine != "vllm" {
            return Err((
                "not vLLM (the twin models vLLM's scheduler)".into(),
                run.engine.clone(),
            ));
        }
        if run.duration_bound()
            && run
                .concurrency
                .is_some_and(|c| c >= GPU_CONC_UNRELIABLE_FROM)
        {
            return Err((
                "gpu_conc at concurrency 32 and above: the client capped the load itself".into(),
                format!("{} on {}", run.model, run.gpu),
            ));
        }
        let (id, weights) = catalog_model(&run.model)
            .ok_or_else(|| ("model not in the catalog".to_string(), run.model.clone()))?;
        let model =
            model_by_id(id).ok_or_else(|| ("model not in the catalog".into(), id.into()))?;
        let gpu = catalog_gpu(&run.gpu)
            .ok_or_else(|| ("GPU not in the catalog".to_string(), run.gpu.clone()))?;
        let setup = ServingSetup {
            gpu,
            tp: run.tp.max(1),
            pp: 1,
            weights,
            kv_dtype: KvDtype::Bits16,
            execution: match run.stated("enforce-eager") {
                Some(_) => Execution::Eager,
                None => Execution::CudaGraphs,
            },
        };
        let engine = EngineSide::of(run, &model, &setup)
            .map_err(|why| (why, format!("{} on {}", run.model, run.gpu)))?;
        let parts: Vec<&str> = run.pair_key.split('|').collect();
        let part = |i: usize| parts.get(i).copied().unwrap_or("").to_string();
        let mut configuration: Vec<&str> = parts.iter().take(3).copied().collect();
        configuration.extend(parts.iter().skip(5));
        Ok(Case {
            run,
            model,
            setup,
            engine,
            configuration: configuration.join("|"),
            workload: part(3),
            load: part(4),
        })
    }

    /// `qwen3-32b TP1 BF16 (flags:default)`: the configuration in the document's words.
    fn configuration_label(&self) -> String {
        let extra = self
            .configuration
            .split('|')
            .skip(3)
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "{} TP{} {} ({extra})",
            self.model.id,
            self.setup.tp,
            self.setup.weights.label()
        )
    }

    /// What the document says of the twin fitted on this case's GPU.
    fn fitted_engine(&self, twin: &Twin, runs: usize) -> FittedEngine {
        FittedEngine {
            configuration: self.configuration_label(),
            gpu: self.run.gpu.clone(),
            runs,
            kv_cache_tokens: self.engine.kv_cache_tokens,
            max_num_seqs: self.engine.scheduler.max_num_seqs,
            max_num_batched_tokens: self.engine.scheduler.max_num_batched_tokens,
            chunked_prefill: self.engine.scheduler.chunked_prefill,
            backtest_error_pct: twin.backtest.median_abs_error_pct,
            step: twin.model.step,
        }
    }

    /// The run as the importers would hand it to the twin.
    fn operating_point(&self) -> OperatingPoint {
        let run = self.run;
        let mut point = OperatingPoint::new(format!("{} ({})", run.file, self.load));
        point.scenario = self.workload.clone();
        point.model = Some(run.model.clone());
        point.concurrency = run.concurrency;
        point.request_rate = run.rate_per_s();
        point.completed = run.completed;
        point.failed = run
            .num_prompts
            .zip(run.completed)
            .map(|(sent, done)| sent.saturating_sub(done));
        point.input_tokens_mean = run.prompt_tokens();
        point.output_tokens_mean = run.output_tokens();
        point.request_throughput = run.request_throughput_rps;
        point.output_tokens_per_s = run.output_throughput_tok_s;
        for (key, stats) in [
            (MetricKey::TtftMs, run.ttft_ms),
            (MetricKey::TpotMs, run.tpot()),
            (MetricKey::E2eMs, run.e2e_ms),
        ] {
            if let Some(stats) = stats {
                point.metrics.insert(key, metric(key, stats));
            }
        }
        if let (false, Some(sent)) = (run.duration_bound(), run.num_prompts) {
            point
                .settings
                .insert("num_prompts".into(), sent.to_string());
        }
        point
    }

    /// The question that asks the twin for this run.
    fn question(&self) -> Question {
        let run = self.run;
        let arrivals = run.arrivals();
        let sent = run.num_prompts.or(run.completed).unwrap_or(1) as usize;
        let requests = match arrivals {
            ArrivalProcess::ClosedLoop { concurrency } => sent.max(10 * concurrency as usize),
            _ => sent,
        };
        let mut question = Question::new(arrivals);
        question.prompt_tokens = run.prompt_tokens().map(|p| p.round().max(1.0) as u32);
        question.output_tokens = run.output_tokens().map(|o| o.round().max(1.0) as u32);
        question.requests = Some(requests.max(1));
        question
    }

    /// What was measured, per metric.
    fn measured(&self) -> Vec<(ValidatedMetric, f64)> {
        let (ttft, tpot) = (
            self.run.ttft_ms.unwrap_or_default(),
            self.run.tpot().unwrap_or_default(),
        );
        [
            (ValidatedMetric::TtftP50, ttft.p50),
            (ValidatedMetric::TtftP99, ttft.p99),
            (ValidatedMetric::TpotP50, tpot.p50),
            (ValidatedMetric::TpotP99, tpot.p99),
        ]
        .into_iter()
        .filter_map(|(m, v)| Some((m, v.filter(|v| v.is_finite() && *v > 0.0)?)))
        .collect()
    }
}

fn metric(key: MetricKey, stats: RunStats) -> MetricStats {
    let mut out = MetricStats::new(key, "as the public result file states it", "runs.json");
    out.mean = stats.mean;
    out.p50 = stats.p50;
    out.p99 = stats.p99;
    out
}

/// The back-test of every pair in `runs_json` (the text of `runs.json`; module docs).
pub fn back_test(runs_json: &str) -> Result<ValidationReport, String> {
    let runs: Vec<PublicRun> =
        serde_json::from_str(runs_json).map_err(|e| format!("runs.json: {e}"))?;
    let mut report = ValidationReport {
        runs: runs.len(),
        ..ValidationReport::default()
    };
    let mut skipped: Vec<Skip> = Vec::new();
    let mut configurations: BTreeMap<String, Vec<Case<'_>>> = BTreeMap::new();
    for run in &runs {
        let case = Case::of(run).and_then(|case| match copied(run, &runs) {
            true => Err((COPIED.to_string(), format!("{} on {}", run.model, run.gpu))),
            false => Ok(case),
        });
        match case {
            Ok(case) => configurations
                .entry(case.configuration.clone())
                .or_default()
                .push(case),
            Err(skip) => skipped.push(skip),
        }
    }
    for cases in configurations.values() {
        back_test_configuration(cases, &mut report, &mut skipped);
    }
    report.left_out = tally(skipped);
    report.calibrate();
    Ok(report)
}

const COPIED: &str = "the same figures on both GPUs (TTFT, TPOT and throughput to the last digit): \
                      a result block copied between the source's pages, not two measurements";

/// Whether another GPU's run of the same `pair_key` states exactly `run`'s figures.
fn copied(run: &PublicRun, runs: &[PublicRun]) -> bool {
    runs.iter().any(|other| {
        other.gpu != run.gpu
            && other.pair_key == run.pair_key
            && other.ttft_ms == run.ttft_ms
            && other.tpot_ms == run.tpot_ms
            && other.request_throughput_rps == run.request_throughput_rps
    })
}

/// Counts the skipped runs and points by reason and what.
fn tally(skipped: Vec<Skip>) -> Vec<LeftOut> {
    let mut counts: BTreeMap<Skip, usize> = BTreeMap::new();
    for skip in skipped {
        *counts.entry(skip).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((reason, what), count)| LeftOut {
            reason,
            what,
            count,
        })
        .collect()
}

/// Every ordered pair of GPUs within one configuration (module docs).
fn back_test_configuration(
    cases: &[Case<'_>],
    report: &mut ValidationReport,
    skipped: &mut Vec<Skip>,
) {
    let mut by_gpu: BTreeMap<&str, Vec<&Case<'_>>> = BTreeMap::new();
    for case in cases {
        by_gpu.entry(case.run.gpu.as_str()).or_default().push(case);
    }
    let paired = |gpu: &str, key: &str| by_gpu[gpu].iter().any(|c| c.run.pair_key == key);
    for (from, fitted_on) in &by_gpu {
        let shares =
            |to: &&str| to != from && by_gpu[*to].iter().any(|c| paired(from, &c.run.pair_key));
        let targets: Vec<&str> = by_gpu.keys().copied().filter(shares).collect();
        if targets.is_empty() {
            continue;
        }
        let twin = match fit(fitted_on) {
            Ok(twin) => twin,
            Err(why) => {
                skipped.push((why, fitted_on[0].configuration_label()));
                continue;
            }
        };
        report
            .engines
            .push(fitted_on[0].fitted_engine(&twin, fitted_on.len()));
        for to in targets {
            for case in by_gpu[to].iter().filter(|c| paired(from, &c.run.pair_key)) {
                let source = fitted_on
                    .iter()
                    .find(|c| c.run.pair_key == case.run.pair_key)
                    .map(|c| c.measured())
                    .unwrap_or_default();
                match predict_point(&twin, fitted_on[0], case, &source) {
                    Ok(point) => report.points.push(point),
                    Err(why) => skipped.push((why, format!("{} on {}", case.model.id, to))),
                }
            }
        }
    }
}

/// The twin of one GPU's runs of a configuration.
fn fit(cases: &[&Case<'_>]) -> Result<Twin, String> {
    let points: Vec<OperatingPoint> = cases.iter().map(|c| c.operating_point()).collect();
    let first = cases[0];
    let options = FitOptions {
        expert_share: expert_share(&first.model),
        ..FitOptions::default()
    };
    Twin::build_with(&points, &[], &first.engine.serving_limits(), &options)
        .map_err(|e| format!("no twin could be fitted: {e}"))
}

/// `to`'s run predicted from the twin fitted on `from`'s GPU.
/// `source`: the same run's figures as measured on `from`'s GPU.
fn predict_point(
    twin: &Twin,
    from: &Case<'_>,
    to: &Case<'_>,
    source: &[(ValidatedMetric, f64)],
) -> Result<PointResult, String> {
    let mut moved = transfer(
        twin,
        &from.model,
        &from.setup,
        &to.setup,
        Some(to.engine.kv_cache_tokens),
        to.engine.context_tokens,
    )
    .map_err(|e| format!("no transfer: {e}"))?;
    to.engine.apply(&mut moved);
    // The calibration is what this back-test computes: the points are predicted without it
    // and widened once all are in (`ValidationReport::calibrate`).
    moved.calibration = None;
    let question = to.question();
    let prediction = predict_transferred(&moved, &question);
    Ok(PointResult {
        configuration: to.configuration_label(),
        from_gpu: from.run.gpu.clone(),
        to_gpu: to.run.gpu.clone(),
        workload: to.workload.clone(),
        load: question_load(&question),
        kind: LoadKind::of(&question.arrivals),
        tpot_from_decode_speed: to.run.tpot_ms.is_none(),
        figures: compare(&to.measured(), &prediction, source),
    })
}

fn question_load(question: &Question) -> String {
    match question.arrivals {
        ArrivalProcess::Burst => format!("burst of {}", question.requests.unwrap_or(0)),
        ref arrivals => arrivals.describe(),
    }
}

/// Each measured figure against the uncalibrated prediction ([`ValidationReport::calibrate`]
/// widens the ranges once every point is in).
fn compare(
    measured: &[(ValidatedMetric, f64)],
    p: &TransferredPrediction,
    source: &[(ValidatedMetric, f64)],
) -> Vec<PointFigure> {
    measured
        .iter()
        .map(|&(metric, value)| {
            let (ranged, floor) = match metric {
                ValidatedMetric::TtftP50 => (p.ttft_ms.p50, p.floor_ms.ttft_ms),
                ValidatedMetric::TtftP99 => (p.ttft_ms.p99, p.floor_ms.ttft_ms),
                ValidatedMetric::TpotP50 => (p.tpot_ms.p50, p.floor_ms.tpot_ms),
                ValidatedMetric::TpotP99 => (p.tpot_ms.p99, p.floor_ms.tpot_ms),
            };
            PointFigure {
                metric,
                measured: value,
                predicted: ranged,
                spread: ranged,
                held_out: ranged,
                floor,
                on_source: source.iter().find(|s| s.0 == metric).map(|s| s.1),
            }
        })
        .collect()
}

/// The median of `values` (the mean of the middle two for an even count); 0 when empty.
fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    }
}

/// One metric over `points`; `None` when no point has it.
fn aggregate(points: &[&PointResult], metric: ValidatedMetric) -> Option<MetricValidation> {
    let figures: Vec<(&PointResult, &PointFigure)> = points
        .iter()
        .filter_map(|p| Some((*p, p.figure(metric)?)))
        .collect();
    if figures.is_empty() {
        return None;
    }
    let mut errors: Vec<f64> = figures.iter().map(|(_, f)| f.error_pct()).collect();
    let worst = errors.iter().copied().fold(0.0, f64::max);
    let share = |inside: &dyn Fn(&PointFigure) -> bool| {
        figures.iter().filter(|(_, f)| inside(f)).count() as f64 / figures.len() as f64 * 100.0
    };
    let pairs: std::collections::BTreeSet<(String, String)> =
        figures.iter().map(|(p, _)| p.gpu_pair()).collect();
    let signed: Vec<f64> = figures.iter().map(|(_, f)| f.signed_error_pct()).collect();
    let over: Vec<f64> = signed.iter().copied().filter(|e| *e > 0.0).collect();
    let under: Vec<f64> = signed.iter().filter(|e| **e < 0.0).map(|e| -e).collect();
    Some(MetricValidation {
        metric,
        median_error_pct: median(&mut errors),
        worst_error_pct: worst,
        pairs: pairs.len() as u32,
        points: figures.len() as u32,
        range_contains_pct: share(&|f| f.contained()),
        aim_median_error_pct: metric.aim_median_error_pct(),
        spread_contains_pct: share(&|f| holds(&f.spread, f.measured)),
        over_p80_pct: tenth_up(p80(over)),
        under_p80_pct: tenth_up(p80(under)),
        held_out_range_contains_pct: share(&|f| holds(&f.held_out, f.measured)),
    })
}

/// The smallest value at least 80 % of `values` do not exceed (nearest rank); 0 when empty.
fn p80(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = (CALIBRATION_SHARE * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

/// The share of back-tested transfers on each side a calibrated range holds: issue #39's aim.
const CALIBRATION_SHARE: f64 = AIM_RANGE_CONTAINS_PCT / 100.0;

/// Every metric over `points` that has it.
fn aggregate_all(points: &[&PointResult]) -> Vec<MetricValidation> {
    ValidatedMetric::ALL
        .iter()
        .filter_map(|m| aggregate(points, *m))
        .collect()
}

/// Share of all figures of `points` inside their stated range, %.
fn range_share(points: &[&PointResult]) -> f64 {
    let figures: Vec<&PointFigure> = points.iter().flat_map(|p| &p.figures).collect();
    if figures.is_empty() {
        return 0.0;
    }
    figures.iter().filter(|f| f.contained()).count() as f64 / figures.len() as f64 * 100.0
}

impl ValidationReport {
    /// Widens every figure's range to the calibration of all points (`predicted`, in-sample)
    /// and to that of the other half of the GPU pairs (`held_out`; the pairs in name order,
    /// every other one in each half). The calibration is [`TransferredTwin`]'s: the production
    /// paths widen the same way with the generated figures ([`calibration`]).
    fn calibrate(&mut self) {
        let all = calibration_of(&self.overall());
        let mut pairs: Vec<(String, String)> = self.points.iter().map(|p| p.gpu_pair()).collect();
        pairs.sort();
        pairs.dedup();
        let half = |p: &PointResult| {
            pairs
                .iter()
                .position(|pair| *pair == p.gpu_pair())
                .unwrap_or(0)
                % 2
        };
        let from_other_half = |h: usize| {
            let others: Vec<&PointResult> = self.points.iter().filter(|p| half(p) != h).collect();
            calibration_of(&aggregate_all(&others))
        };
        let halves = [from_other_half(0), from_other_half(1)];
        let halves_of: Vec<usize> = self.points.iter().map(half).collect();
        for (point, h) in self.points.iter_mut().zip(halves_of) {
            for f in &mut point.figures {
                let (key, statistic) = (f.metric.key(), f.metric.statistic());
                let widen = |c: &TransferCalibration| match c.for_metric(key, statistic) {
                    Some(c) => c.widen(f.spread, f.floor),
                    None => f.spread,
                };
                f.predicted = widen(&all);
                f.held_out = widen(&halves[h]);
            }
        }
    }

    /// Every metric over every point.
    pub fn overall(&self) -> Vec<MetricValidation> {
        aggregate_all(&self.points.iter().collect::<Vec<_>>())
    }

    /// How far a transfer that moves every figure of a configuration by one factor could get on
    /// these runs: the median error if that factor were the measured one (the median of
    /// measured ÷ measured-on-the-fitted-GPU over the group's workloads), once per GPU pair and
    /// direction, once per configuration and direction. Not predictions (they read the target's
    /// measurements); they say how much of the model's error the data itself leaves.
    pub fn ratio_bounds(&self) -> Vec<RatioBound> {
        ValidatedMetric::ALL
            .iter()
            .filter_map(|&metric| {
                let mut model = Vec::new();
                let mut by_pair: BTreeMap<(&str, &str), Vec<SourceAndTarget>> = BTreeMap::new();
                let mut by_configuration: BTreeMap<(&str, &str, &str), Vec<SourceAndTarget>> =
                    BTreeMap::new();
                for p in &self.points {
                    let Some(f) = p.figure(metric) else { continue };
                    let Some(source) = f.on_source.filter(|s| *s > 0.0) else {
                        continue;
                    };
                    if f.measured <= 0.0 {
                        continue;
                    }
                    model.push(f.error_pct());
                    let pair = (p.from_gpu.as_str(), p.to_gpu.as_str());
                    by_pair.entry(pair).or_default().push((source, f.measured));
                    by_configuration
                        .entry((p.configuration.as_str(), pair.0, pair.1))
                        .or_default()
                        .push((source, f.measured));
                }
                if model.is_empty() {
                    return None;
                }
                Some(RatioBound {
                    metric,
                    points: model.len(),
                    model_median_error_pct: median(&mut model),
                    per_pair_median_error_pct: known_ratio_error(by_pair.values()),
                    per_configuration_median_error_pct: known_ratio_error(
                        by_configuration.values(),
                    ),
                })
            })
            .collect()
    }

    /// The points grouped by `key`, in key order.
    fn grouped<K: Ord>(&self, key: impl Fn(&PointResult) -> K) -> BTreeMap<K, Vec<&PointResult>> {
        let mut groups: BTreeMap<K, Vec<&PointResult>> = BTreeMap::new();
        for point in &self.points {
            groups.entry(key(point)).or_default().push(point);
        }
        groups
    }

    /// The overall figures to one decimal: what [`summary`] serves once they are generated.
    pub fn summary(&self) -> ValidationSummary {
        let rounded = self
            .overall()
            .into_iter()
            .map(|m| MetricValidation {
                median_error_pct: tenth(m.median_error_pct),
                worst_error_pct: tenth(m.worst_error_pct),
                range_contains_pct: tenth(m.range_contains_pct),
                spread_contains_pct: tenth(m.spread_contains_pct),
                held_out_range_contains_pct: tenth(m.held_out_range_contains_pct),
                ..m
            })
            .collect();
        summary_of(rounded)
    }

    /// `validation_figures.rs`: [`ValidationReport::summary`]'s figures as constants.
    pub fn figures_source(&self) -> String {
        let metrics = self.summary().metrics;
        let mut out = format!(
            "//! Generated by `UPDATE_VALIDATION=1 cargo test -p engine --test gpu_validation` from\n\
             //! the back-test of `validation.rs`; do not edit. The test fails when it is stale.\n\n\
             use super::{{MetricValidation, ValidatedMetric}};\n\n\
             pub(super) const FIGURES: [MetricValidation; {}] = [\n",
            metrics.len()
        );
        for m in &metrics {
            let aim = m
                .aim_median_error_pct
                .map_or("None".to_string(), |a| format!("Some({a:.1})"));
            let _ = write!(
                out,
                "    MetricValidation {{\n        metric: ValidatedMetric::{:?},\n        \
                 median_error_pct: {:.1},\n        worst_error_pct: {:.1},\n        pairs: {},\n        \
                 points: {},\n        range_contains_pct: {:.1},\n        aim_median_error_pct: {aim},\n        \
                 spread_contains_pct: {:.1},\n        over_p80_pct: {:.1},\n        \
                 under_p80_pct: {:.1},\n        held_out_range_contains_pct: {:.1},\n    }},\n",
                m.metric,
                m.median_error_pct,
                m.worst_error_pct,
                m.pairs,
                m.points,
                m.range_contains_pct,
                m.spread_contains_pct,
                m.over_p80_pct,
                m.under_p80_pct,
                m.held_out_range_contains_pct
            );
        }
        out.push_str("];\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_serves_every_metric_with_its_aim() {
        let s = summary();
        assert_eq!(s.metrics.len(), ValidatedMetric::ALL.len());
        let ttft = s.metric("ttft_ms", Statistic::P50).unwrap();
        assert_eq!(ttft.aim_median_error_pct, Some(AIM_TTFT_P50_PCT));
        assert!(ttft.points > 0 && ttft.pairs > 0);
        assert!(s.metric("itl_ms", Statistic::P50).is_none());
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json.pointer("/metrics/0/metric"), Some(&"ttft_p50".into()));
    }

    #[test]
    fn stated_flags_are_read_from_the_command_and_the_dstack_note() {
        let run: PublicRun = serde_json::from_value(serde_json::json!({
            "file": "f", "source": "s", "gpu": "h100-sxm", "tp": 8, "model": "m",
            "engine": "vllm", "engine_version": null,
            "server_command": "vllm serve m --max-model-len 91680 --enable-chunked-prefill=False --enforce-eager",
            "input_tokens": null, "output_tokens": null, "input_tokens_measured_mean": 215.0,
            "output_tokens_measured_mean": 120.0, "concurrency": null, "request_rate": "inf",
            "num_prompts": 10, "completed": 10, "ttft_ms": null, "tpot_ms": null, "e2e_ms": null,
            "request_throughput_rps": 1.0, "output_throughput_tok_s": 120.0,
            "decode_speed_tok_s": null, "pair_key": "vllm|m|tp8|w|rate-inf|x",
            "notes": "server as CSV states it: max-num-seqs=512, max-num-batched-tokens=default; raw"
        }))
        .unwrap();
        assert_eq!(run.stated_number("max-model-len"), Some(91680.0));
        assert_eq!(run.stated_bool("enable-chunked-prefill"), Some(false));
        assert_eq!(run.stated("enforce-eager").as_deref(), Some("true"));
        assert_eq!(run.stated_number("max-num-seqs"), Some(512.0));
        assert_eq!(run.stated("max-num-batched-tokens"), None);
        assert_eq!(run.arrivals(), ArrivalProcess::Burst);
    }

    /// A run of Qwen3-14B on `gpu` at concurrency `c` (a closed loop of 200 prompts), with
    /// figures that grow with the load and are `speed` times faster on a faster card.
    fn run(gpu: &str, c: u32, speed: f64) -> serde_json::Value {
        let tpot = (18.0 + 0.6 * f64::from(c)) / speed;
        let ttft = (90.0 + 12.0 * f64::from(c)) / speed;
        let e2e = ttft + 199.0 * tpot;
        serde_json::json!({
            "file": format!("{gpu}.json"), "source": "synthetic", "gpu": gpu, "tp": 1,
            "model": "Qwen/Qwen3-14B", "engine": "vllm", "engine_version": "0.11.0",
            "server_command": "vllm serve Qwen/Qwen3-14B --max-model-len 8192",
            "input_tokens": 1000, "output_tokens": 200, "input_tokens_measured_mean": 1000.0,
            "output_tokens_measured_mean": 200.0, "concurrency": c, "request_rate": null,
            "num_prompts": 200, "completed": 200,
            "ttft_ms": {"mean": ttft, "p50": ttft, "p99": 1.5 * ttft},
            "tpot_ms": {"mean": tpot, "p50": tpot, "p99": 1.2 * tpot},
            "e2e_ms": {"mean": e2e, "p50": e2e, "p99": 1.2 * e2e},
            "request_throughput_rps": f64::from(c) * 1000.0 / e2e,
            "output_throughput_tok_s": f64::from(c) * 200_000.0 / e2e,
            "decode_speed_tok_s": null,
            "pair_key": format!("vllm|Qwen/Qwen3-14B|tp1|random-1000x200|c{c}|flags:default"),
            "notes": null
        })
    }

    #[test]
    fn every_shared_run_is_predicted_in_both_directions_and_the_rest_is_accounted_for() {
        let mut runs = vec![
            run("a100-sxm4-80gb", 1, 1.0),
            run("a100-sxm4-80gb", 8, 1.0),
            run("h100-sxm", 1, 1.6),
            run("h100-sxm", 8, 1.6),
        ];
        let mut sglang = run("h100-sxm", 4, 1.6);
        sglang["engine"] = "sglang".into();
        let mut unknown = run("h100-sxm", 4, 1.6);
        unknown["model"] = "acme/unknown-7b".into();
        runs.extend([sglang, unknown]);
        let report = back_test(&serde_json::to_string(&runs).unwrap()).unwrap();
        assert_eq!(report.runs, 6);
        assert_eq!(report.points.len(), 4, "{report:#?}");
        assert_eq!(report.engines.len(), 2);
        for direction in [
            ("a100-sxm4-80gb", "h100-sxm"),
            ("h100-sxm", "a100-sxm4-80gb"),
        ] {
            let points: Vec<&PointResult> = report
                .points
                .iter()
                .filter(|p| (p.from_gpu.as_str(), p.to_gpu.as_str()) == direction)
                .collect();
            assert_eq!(points.len(), 2, "{direction:?}");
            assert!(
                points
                    .iter()
                    .all(|p| p.figures.len() == 4 && p.kind == LoadKind::ClosedLoop)
            );
        }
        let reasons: Vec<&str> = report.left_out.iter().map(|l| l.what.as_str()).collect();
        assert_eq!(reasons, ["acme/unknown-7b", "sglang"]);
        let overall = report.overall();
        assert!(
            overall.iter().all(|m| m.pairs == 1 && m.points == 4),
            "{overall:?}"
        );
        let markdown = report.markdown();
        assert!(
            markdown.contains("| a100-sxm4-80gb → h100-sxm | 2 |"),
            "{markdown}"
        );
        assert!(report.figures_source().contains("ValidatedMetric::TpotP99"));
    }

    #[test]
    fn errors_and_ranges_are_read_against_the_measured_value() {
        let predicted = Ranged {
            value: 12.5,
            low: 9.0,
            high: 14.0,
        };
        let figure = PointFigure {
            metric: ValidatedMetric::TpotP50,
            measured: 10.0,
            predicted,
            spread: predicted,
            held_out: predicted,
            floor: 0.0,
            on_source: None,
        };
        assert!((figure.error_pct() - 25.0).abs() < 1e-9);
        assert!(figure.contained());
        assert_eq!(median(&mut [3.0, 1.0, 2.0, 10.0]), 2.5);
    }

    #[test]
    fn a_known_ratio_leaves_the_spread_of_the_group() {
        // Ratios 2.0, 2.2 and 1.8: the median 2.0 misses the others by 1/11 and 1/9.
        let group = vec![(10.0, 20.0), (10.0, 22.0), (10.0, 18.0)];
        let error = known_ratio_error([&group].into_iter());
        assert!((error - 100.0 / 11.0).abs() < 1e-9, "{error}");
        // One run alone has no error by construction.
        assert_eq!(known_ratio_error([&vec![(3.0, 7.0)]].into_iter()), 0.0);
    }
}
