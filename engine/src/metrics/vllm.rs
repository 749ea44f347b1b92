//! vLLM's `/metrics`: what one scrape tells, and what two scrapes tell about the time between.
//!
//! **One scrape** ([`VllmSnapshot::report`]) gives totals since the server started (requests by
//! `finished_reason`, prompt and generation tokens, preemptions, prefix-cache queries and hits),
//! the gauges at that instant (requests running and waiting, KV-cache usage), the cache
//! configuration (`vllm:cache_config_info`: block size, blocks, KV-cache tokens, maximum
//! concurrency) and latency and token histograms since start. It says what needs a second scrape:
//! anything about a period (rates, the mean in flight, whether preemptions happened during the
//! pilot).
//!
//! **Two scrapes** of the same server run ([`vllm_window`]) give the period between them: counts
//! by finish reason, token totals, rates, the prefix-cache hit rate, histogram quantiles of the
//! period, and the **mean number of requests in flight = Δ`vllm:e2e_request_latency_seconds_sum`
//! ÷ Δt** (Little's law on the server's own clock: queued requests included, cancelled ones not).
//! Δt is the caller's (the times the scrapes were taken) or, if both scrapes carry sample
//! timestamps, their difference. A counter that went down means the server restarted in between:
//! that is an error, not a negative count.
//!
//! **Quantiles** come from the histograms the way Prometheus's `histogram_quantile` computes them
//! and carry their bucket's edges as the error bound (see [`crate::stats::histogram`]).
//! Latencies are reported in milliseconds. vLLM's step buckets start at 10 ms, so an
//! inter-token quantile in the first bucket only says "below 10 ms"; the bound shows that.
//!
//! **Alarms**: any preemption (`vllm:num_preemptions_total` rising) or a **lasting** queue means
//! the pilot hit its own limit: demand was higher than the card let through, so the measured
//! latencies understate what production needs. The waiting gauge is a point sample: one scrape
//! with requests waiting is a burst caught at that instant, worth a note
//! ([`SnapshotReport::limit_notes`]) but not the alarm. A queue is lasting when requests wait in
//! two or more consecutive scrapes ([`lasting_queue`]), or when over a window the mean number
//! waiting (Δ`vllm:request_queue_time_seconds_sum` ÷ Δt, Little's law on the queue) reaches
//! [`LASTING_QUEUE_MEAN_WAITING`]: half a request on average, so that for at least half the
//! window someone was waiting, far above the few milliseconds a request waits for the next
//! scheduler step on an engine with room.
//!
//! **Names across versions**: `vllm:inter_token_latency_seconds` (0.11+) or its old name
//! `vllm:time_per_output_token_seconds`; `vllm:kv_cache_usage_perc` (0.9+) or
//! `vllm:gpu_cache_usage_perc`; `vllm:prefix_cache_*` (tokens) or `vllm:gpu_prefix_cache_*`
//! (blocks, 0.8). The new name wins when both are exposed. Series of several engines (data
//! parallel ranks) and models are summed; KV-cache usage takes the highest engine.
//!
//! **Plausibility** ([`crate::plausible`]): counters and histogram series must be counts (finite,
//! ≥ 0, ≤ 2⁵³) one by one (the parser) and summed over their series (here, naming the family);
//! prefix-cache hits are at most the queries; `cache_config_info`'s block size and block count
//! are at least 1;
//! KV-cache usage, `gpu_memory_utilization` and the prefix-cache hit rate are fractions (0–1);
//! sample timestamps lie in 2000–2099; the time between two scrapes lies between 1 ms and 10⁸ s.
//! Anything else is [`MetricsError::Implausible`] (or an exposition error naming the line).

use super::exposition::{ExpositionError, Scrape, parse_exposition_with};
use crate::plausible::{self, Quantity, Rule, Slack};
use crate::stats::{BucketQuantile, CumulativeBucket, histogram_quantile};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

/// What the pilot's measurements mean when an alarm fires.
pub const LIMIT_MESSAGE: &str = "the pilot hit its own limit: measured latencies understate demand";

/// [`LIMIT_MESSAGE`] in German, for the report.
pub const LIMIT_MESSAGE_DE: &str =
    "der Pilot stieß an seine eigene Grenze: die gemessenen Latenzen unterschätzen die Nachfrage";

/// Mean requests waiting over a window (Δ queue-time sum ÷ Δt) from which the queue counts as
/// lasting (see the module docs).
pub const LASTING_QUEUE_MEAN_WAITING: f64 = 0.5;

/// The histograms this importer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VllmHistogram {
    /// Arrival (tokenisation start) → first token.
    Ttft,
    /// Every gap between token batches of a request (vLLM bench "ITL").
    InterTokenLatency,
    /// Per request: decode time ÷ (generated tokens − 1).
    RequestTpot,
    /// Arrival → last token.
    E2e,
    Queue,
    Prefill,
    Decode,
    Inference,
    PromptTokens,
    GenerationTokens,
}

impl VllmHistogram {
    pub const ALL: [VllmHistogram; 10] = [
        VllmHistogram::Ttft,
        VllmHistogram::InterTokenLatency,
        VllmHistogram::RequestTpot,
        VllmHistogram::E2e,
        VllmHistogram::Queue,
        VllmHistogram::Prefill,
        VllmHistogram::Decode,
        VllmHistogram::Inference,
        VllmHistogram::PromptTokens,
        VllmHistogram::GenerationTokens,
    ];

    /// Metric names, newest first.
    pub fn metric_names(self) -> &'static [&'static str] {
        match self {
            VllmHistogram::Ttft => &["vllm:time_to_first_token_seconds"],
            VllmHistogram::InterTokenLatency => &[
                "vllm:inter_token_latency_seconds",
                "vllm:time_per_output_token_seconds",
            ],
            VllmHistogram::RequestTpot => &["vllm:request_time_per_output_token_seconds"],
            VllmHistogram::E2e => &["vllm:e2e_request_latency_seconds"],
            VllmHistogram::Queue => &["vllm:request_queue_time_seconds"],
            VllmHistogram::Prefill => &["vllm:request_prefill_time_seconds"],
            VllmHistogram::Decode => &["vllm:request_decode_time_seconds"],
            VllmHistogram::Inference => &["vllm:request_inference_time_seconds"],
            VllmHistogram::PromptTokens => &["vllm:request_prompt_tokens"],
            VllmHistogram::GenerationTokens => &["vllm:request_generation_tokens"],
        }
    }

    fn in_seconds(self) -> bool {
        !matches!(
            self,
            VllmHistogram::PromptTokens | VllmHistogram::GenerationTokens
        )
    }
}

/// A histogram summed over its series: cumulative buckets, count and sum, in the metric's unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CumulativeHistogram {
    pub kind: VllmHistogram,
    /// The metric name found (tells old from new names).
    pub metric: String,
    pub buckets: Vec<CumulativeBucket>,
    pub count: f64,
    pub sum: f64,
}

/// Counter totals since the server started (or over a window, in [`VllmWindow`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VllmTotals {
    /// `vllm:request_success_total` by `finished_reason` (`stop`, `length`, `abort`, …).
    pub requests_by_finished_reason: BTreeMap<String, f64>,
    /// Sum over all finish reasons.
    pub requests_finished: f64,
    pub prompt_tokens: Option<f64>,
    pub generation_tokens: Option<f64>,
    pub preemptions: Option<f64>,
    pub prefix_cache_queries: Option<f64>,
    pub prefix_cache_hits: Option<f64>,
    /// The prefix-cache metric read (`vllm:prefix_cache_queries` counts tokens,
    /// `vllm:gpu_prefix_cache_queries` blocks).
    pub prefix_cache_metric: Option<String>,
}

/// Gauges at the instant of a scrape.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VllmGauges {
    pub requests_running: Option<f64>,
    pub requests_waiting: Option<f64>,
    /// KV-cache usage as a fraction (0–1), highest engine.
    pub kv_cache_usage: Option<f64>,
    pub kv_cache_usage_metric: Option<String>,
}

/// `vllm:cache_config_info`: the KV-cache configuration the engine started with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheConfig {
    pub block_size: Option<u32>,
    pub num_gpu_blocks: Option<u64>,
    pub cache_dtype: Option<String>,
    pub gpu_memory_utilization: Option<f64>,
    pub enable_prefix_caching: Option<bool>,
    /// KV-cache capacity in tokens (0.25+).
    pub kv_cache_size_tokens: Option<u64>,
    /// Requests of full model length that fit at once (0.25+).
    pub kv_cache_max_concurrency: Option<f64>,
    /// Every label as exposed.
    pub labels: BTreeMap<String, String>,
}

/// What one scrape holds, as numbers (the basis for reports and windows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VllmSnapshot {
    /// Distinct `model_name` labels (the served model names).
    pub model_names: Vec<String>,
    /// Distinct `engine` labels (data-parallel ranks); empty for older versions.
    pub engines: Vec<String>,
    /// Latest sample timestamp, when the scrape carries timestamps.
    pub timestamp_ms: Option<i64>,
    /// `process_start_time_seconds`, when exposed (tells a restart between scrapes).
    pub process_start_time_s: Option<f64>,
    pub totals: VllmTotals,
    pub gauges: VllmGauges,
    pub cache_config: Option<CacheConfig>,
    pub histograms: Vec<CumulativeHistogram>,
}

/// A histogram summarised: mean and quantiles (p50, p90, p95, p99) with their bucket bounds.
/// Latencies in ms, token counts in tokens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistogramSummary {
    pub metric: String,
    /// `ms` or `tokens`.
    pub unit: String,
    pub count: f64,
    /// `sum ÷ count` (exact, unlike the quantiles); `None` without observations.
    pub mean: Option<f64>,
    pub p50: Option<BucketQuantile>,
    pub p90: Option<BucketQuantile>,
    pub p95: Option<BucketQuantile>,
    pub p99: Option<BucketQuantile>,
}

/// The summaries of every histogram found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Distributions {
    pub ttft_ms: Option<HistogramSummary>,
    pub inter_token_latency_ms: Option<HistogramSummary>,
    pub request_tpot_ms: Option<HistogramSummary>,
    pub e2e_ms: Option<HistogramSummary>,
    pub queue_ms: Option<HistogramSummary>,
    pub prefill_ms: Option<HistogramSummary>,
    pub decode_ms: Option<HistogramSummary>,
    pub inference_ms: Option<HistogramSummary>,
    pub prompt_tokens: Option<HistogramSummary>,
    pub generation_tokens: Option<HistogramSummary>,
}

/// Which limit the pilot hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlarmKind {
    /// Requests were preempted (their KV cache evicted and recomputed).
    Preemptions,
    /// Requests were waiting in vLLM's queue.
    WaitingQueue,
}

/// An alarm: the pilot hit its own limit, so measured latencies understate demand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitAlarm {
    pub kind: AlarmKind,
    /// Preemptions counted, or requests waiting.
    pub value: f64,
    /// One sentence for the report, starting with [`LIMIT_MESSAGE`].
    pub message: String,
    /// The same sentence in German, starting with [`LIMIT_MESSAGE_DE`]; empty on alarms
    /// stored before it existed ([`LimitAlarm::message_in`] then gives the English one).
    #[serde(default)]
    pub message_de: String,
}

impl LimitAlarm {
    /// The alarm's sentence in `lang`.
    pub fn message_in(&self, lang: crate::locale::Lang) -> &str {
        match lang {
            crate::locale::Lang::De if !self.message_de.is_empty() => &self.message_de,
            _ => &self.message,
        }
    }
}

/// What a single scrape can tell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnapshotReport {
    pub model_names: Vec<String>,
    pub engines: Vec<String>,
    /// Cumulative since the server started.
    pub totals_since_start: VllmTotals,
    pub gauges: VllmGauges,
    pub cache_config: Option<CacheConfig>,
    /// Histograms since the server started.
    pub distributions_since_start: Distributions,
    pub alarms: Vec<LimitAlarm>,
    /// Signs of a limit that are not an alarm on their own (requests waiting at this one
    /// scrape: a burst, until a second scrape shows it lasting).
    #[serde(default)]
    pub limit_notes: Vec<String>,
    /// What a second scrape would add, in words.
    pub needs_second_scrape: Vec<String>,
}

/// Where Δt came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElapsedSource {
    Caller,
    Timestamps,
    Unknown,
}

/// The period between two scrapes of one server run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VllmWindow {
    pub model_names: Vec<String>,
    /// Δt, seconds.
    pub elapsed_s: Option<f64>,
    pub elapsed_from: ElapsedSource,
    /// Counter increases over the window.
    pub totals: VllmTotals,
    pub request_rate_per_s: Option<f64>,
    pub prompt_tokens_per_s: Option<f64>,
    pub generation_tokens_per_s: Option<f64>,
    /// Δ hits ÷ Δ queries.
    pub prefix_cache_hit_rate: Option<f64>,
    /// Δ`vllm:e2e_request_latency_seconds_sum` ÷ Δt.
    pub mean_in_flight: Option<f64>,
    /// Histograms of the window (Δ buckets).
    pub distributions: Distributions,
    pub gauges_at_start: VllmGauges,
    pub gauges_at_end: VllmGauges,
    pub alarms: Vec<LimitAlarm>,
    /// Mean requests waiting over the window: Δ`vllm:request_queue_time_seconds_sum` ÷ Δt.
    #[serde(default)]
    pub mean_waiting: Option<f64>,
    /// Signs of a limit that are not an alarm on their own (requests waiting at one end only).
    #[serde(default)]
    pub limit_notes: Vec<String>,
    /// What could not be computed, and why.
    pub notes: Vec<String>,
}

/// Why a scrape or a pair of scrapes could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MetricsError {
    #[error(transparent)]
    Exposition(#[from] ExpositionError),
    #[error("no vllm: metrics in the scrape (is this vLLM's /metrics?)")]
    NotVllm,
    #[error(
        "{metric} went down between the scrapes: the server restarted in between; take both \
         scrapes from one server run"
    )]
    CounterReset { metric: String },
    #[error("the buckets of {metric} differ between the scrapes")]
    BucketsChanged { metric: String },
    #[error("the time between the scrapes must be a positive number of seconds")]
    InvalidElapsed,
    /// A value, sum or derived figure that cannot be real ([`crate::plausible`]): a counter
    /// summed over its series beyond 2⁵³, KV-cache usage above 1, scrapes years apart.
    #[error("{0}")]
    Implausible(String),
}

impl VllmSnapshot {
    /// Parses a `/metrics` text and reads it as a vLLM snapshot. Sample timestamps must lie in
    /// 2000–2099 (an error naming the line otherwise; see [`crate::plausible`]).
    pub fn parse(text: &str) -> Result<Self, MetricsError> {
        Self::from_scrape(&parse_exposition_with(text, true)?)
    }

    /// Reads a parsed scrape as a vLLM snapshot; `NotVllm` when it has no `vllm:` metric.
    pub fn from_scrape(scrape: &Scrape) -> Result<Self, MetricsError> {
        let vllm_samples = || {
            scrape
                .families()
                .filter(|f| f.name.starts_with("vllm:"))
                .flat_map(|f| f.samples.iter())
        };
        if vllm_samples().next().is_none() {
            return Err(MetricsError::NotVllm);
        }
        let distinct = |label: &str| -> Vec<String> {
            vllm_samples()
                .filter_map(|s| s.label(label))
                .map(str::to_owned)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        let mut by_reason: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        if let Some(family) = scrape.family("vllm:request_success") {
            for sample in family.value_samples() {
                let reason = sample.label("finished_reason").unwrap_or("unknown");
                by_reason
                    .entry(reason.to_owned())
                    .or_default()
                    .push(sample.value);
            }
        }
        let mut requests_by_finished_reason = BTreeMap::new();
        for (reason, values) in by_reason {
            let what = format!("vllm:request_success_total{{finished_reason=\"{reason}\"}}");
            let sum = plausible::checked_sum(&what, values).map_err(MetricsError::Implausible)?;
            requests_by_finished_reason.insert(reason, sum);
        }
        let (prefix_queries, prefix_hits, prefix_metric) = match sum_first(
            scrape,
            &["vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries"],
        )? {
            Some((name, queries)) => {
                let hits_name = name.replace("queries", "hits");
                let hits = sum_first(scrape, &[hits_name.as_str()])?.map(|(_, v)| v);
                if let Some(h) = hits {
                    // A hit is a query that hit: since the start, hits ≤ queries.
                    let pair = [(hits_name.as_str(), h), (name.as_str(), queries)];
                    plausible::across::non_decreasing(
                        Rule::HitsWithinQueries,
                        &pair,
                        "",
                        Slack::EXACT,
                    )
                    .map_err(|b| MetricsError::Implausible(b.to_string()))?;
                }
                (Some(queries), hits, Some(name))
            }
            None => (None, None, None),
        };
        let requests_finished = plausible::checked_sum(
            "vllm:request_success_total (all finish reasons)",
            requests_by_finished_reason.values().copied(),
        )
        .map_err(MetricsError::Implausible)?;
        let totals = VllmTotals {
            requests_finished,
            requests_by_finished_reason,
            prompt_tokens: sum_first(scrape, &["vllm:prompt_tokens"])?.map(|(_, v)| v),
            generation_tokens: sum_first(scrape, &["vllm:generation_tokens"])?.map(|(_, v)| v),
            preemptions: sum_first(scrape, &["vllm:num_preemptions"])?.map(|(_, v)| v),
            prefix_cache_queries: prefix_queries,
            prefix_cache_hits: prefix_hits,
            prefix_cache_metric: prefix_metric,
        };
        let kv = ["vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"]
            .into_iter()
            .find_map(|name| {
                let family = scrape.family(name)?;
                let max = family
                    .value_samples()
                    .map(|s| s.value)
                    .filter(|v| !v.is_nan())
                    .reduce(f64::max)?;
                Some((name.to_owned(), max))
            });
        if let Some((name, usage)) = &kv {
            plausible::check(Quantity::Fraction, *usage)
                .map_err(|e| MetricsError::Implausible(format!("{name}: {e}")))?;
        }
        let gauges = VllmGauges {
            requests_running: sum_first(scrape, &["vllm:num_requests_running"])?.map(|(_, v)| v),
            requests_waiting: sum_first(scrape, &["vllm:num_requests_waiting"])?.map(|(_, v)| v),
            kv_cache_usage: kv.as_ref().map(|(_, v)| *v),
            kv_cache_usage_metric: kv.map(|(name, _)| name),
        };
        let mut histograms = Vec::new();
        for kind in VllmHistogram::ALL {
            if let Some(h) = read_histogram(scrape, kind)? {
                histograms.push(h);
            }
        }
        let cache_config = read_cache_config(scrape);
        if let Some(u) = cache_config.as_ref().and_then(|c| c.gpu_memory_utilization) {
            plausible::check(Quantity::Fraction, u).map_err(|e| {
                MetricsError::Implausible(format!(
                    "vllm:cache_config_info{{gpu_memory_utilization}}: {e}"
                ))
            })?;
        }
        if let Some(config) = &cache_config {
            check_cache_sizes(config)?;
        }
        let process_start_time_s = sum_first(scrape, &["process_start_time_seconds"])?
            .map(|(_, v)| v)
            .filter(|v| v.is_finite());
        Ok(VllmSnapshot {
            model_names: distinct("model_name"),
            engines: distinct("engine"),
            timestamp_ms: scrape.latest_timestamp_ms(),
            process_start_time_s,
            totals,
            gauges,
            cache_config,
            histograms,
        })
    }

    /// The histogram of `kind`, if the scrape has it.
    pub fn histogram(&self, kind: VllmHistogram) -> Option<&CumulativeHistogram> {
        self.histograms.iter().find(|h| h.kind == kind)
    }

    /// What this scrape alone tells (see the module docs).
    pub fn report(&self) -> SnapshotReport {
        let mut alarms = Vec::new();
        if let Some(preemptions) = self.totals.preemptions.filter(|&p| p > 0.0) {
            alarms.push(LimitAlarm {
                kind: AlarmKind::Preemptions,
                value: preemptions,
                message: format!(
                    "{LIMIT_MESSAGE} ({preemptions} preemptions since the server started; a \
                     second scrape tells whether they happened during the pilot)"
                ),
                message_de: format!(
                    "{LIMIT_MESSAGE_DE} ({preemptions} Verdrängungen seit dem Start des Servers; \
                     ein zweiter Scrape zeigt, ob sie während des Piloten geschahen)"
                ),
            });
        }
        let limit_notes = waiting_note(self.gauges.requests_waiting, "at this scrape")
            .into_iter()
            .collect();
        SnapshotReport {
            model_names: self.model_names.clone(),
            engines: self.engines.clone(),
            totals_since_start: self.totals.clone(),
            gauges: self.gauges.clone(),
            cache_config: self.cache_config.clone(),
            distributions_since_start: distributions(&self.histograms),
            alarms,
            limit_notes,
            needs_second_scrape: vec![
                "counts of requests and tokens for the pilot period (the totals run since the \
                 server started)"
                    .to_owned(),
                "request and token rates (per second)".to_owned(),
                "mean requests in flight (Δ vllm:e2e_request_latency_seconds_sum ÷ Δt)".to_owned(),
                "latency and token quantiles of the pilot period (the histograms cover \
                 everything since start)"
                    .to_owned(),
                "whether preemptions happened during the pilot".to_owned(),
            ],
        }
    }
}

/// The period between two scrapes of one server run; `elapsed_s` is the time between them
/// (if `None`, taken from sample timestamps when both scrapes have them).
pub fn vllm_window(
    before: &VllmSnapshot,
    after: &VllmSnapshot,
    elapsed_s: Option<f64>,
) -> Result<VllmWindow, MetricsError> {
    if let (Some(a), Some(b)) = (before.process_start_time_s, after.process_start_time_s)
        && a != b
    {
        return Err(MetricsError::CounterReset {
            metric: "process_start_time_seconds".to_owned(),
        });
    }
    let (elapsed_s, elapsed_from) = match elapsed_s {
        Some(s) if s.is_finite() && s > 0.0 => (Some(s), ElapsedSource::Caller),
        Some(_) => return Err(MetricsError::InvalidElapsed),
        None => match (before.timestamp_ms, after.timestamp_ms) {
            (Some(a), Some(b)) if b > a => {
                (Some((b - a) as f64 / 1000.0), ElapsedSource::Timestamps)
            }
            _ => (None, ElapsedSource::Unknown),
        },
    };
    // Rates divide by Δt: a Δt of years is a wrong date (a scrape "taken" in 1970 or 5138), one
    // below a millisecond would make every rate enormous (see crate::plausible).
    if let Some(s) = elapsed_s
        && !(1e-3..=plausible::DURATION_MAX_S).contains(&s)
    {
        return Err(MetricsError::Implausible(format!(
            "the time between the scrapes: {} s is not a possible window (must be between \
                 1 ms and 1e8 s ≈ 3.2 years; is a scrape time in the wrong unit or year?)",
            plausible::fmt_value(s)
        )));
    }
    let delta =
        |metric: &str, a: Option<f64>, b: Option<f64>| -> Result<Option<f64>, MetricsError> {
            match (a, b) {
                (Some(a), Some(b)) if b < a => Err(MetricsError::CounterReset {
                    metric: metric.to_owned(),
                }),
                (Some(a), Some(b)) => Ok(Some(b - a)),
                _ => Ok(None),
            }
        };
    let mut by_reason = BTreeMap::new();
    for (reason, &after_count) in &after.totals.requests_by_finished_reason {
        let before_count = before
            .totals
            .requests_by_finished_reason
            .get(reason)
            .copied()
            .unwrap_or(0.0);
        let d = delta(
            "vllm:request_success_total",
            Some(before_count),
            Some(after_count),
        )?;
        by_reason.insert(reason.clone(), d.unwrap_or(0.0));
    }
    let prefix_metric = after.totals.prefix_cache_metric.clone();
    let same_prefix_metric = before.totals.prefix_cache_metric == prefix_metric;
    let totals = VllmTotals {
        requests_finished: by_reason.values().sum(),
        requests_by_finished_reason: by_reason,
        prompt_tokens: delta(
            "vllm:prompt_tokens_total",
            before.totals.prompt_tokens,
            after.totals.prompt_tokens,
        )?,
        generation_tokens: delta(
            "vllm:generation_tokens_total",
            before.totals.generation_tokens,
            after.totals.generation_tokens,
        )?,
        preemptions: delta(
            "vllm:num_preemptions_total",
            before.totals.preemptions,
            after.totals.preemptions,
        )?,
        prefix_cache_queries: if same_prefix_metric {
            delta(
                "vllm:prefix_cache_queries_total",
                before.totals.prefix_cache_queries,
                after.totals.prefix_cache_queries,
            )?
        } else {
            None
        },
        prefix_cache_hits: if same_prefix_metric {
            delta(
                "vllm:prefix_cache_hits_total",
                before.totals.prefix_cache_hits,
                after.totals.prefix_cache_hits,
            )?
        } else {
            None
        },
        prefix_cache_metric: prefix_metric,
    };
    let mut histograms = Vec::new();
    for kind in VllmHistogram::ALL {
        if let (Some(a), Some(b)) = (before.histogram(kind), after.histogram(kind)) {
            histograms.push(histogram_delta(a, b)?);
        }
    }
    let mut notes = Vec::new();
    let rate = |value: Option<f64>| Some(value? / elapsed_s?);
    let e2e_sum = histograms
        .iter()
        .find(|h| h.kind == VllmHistogram::E2e)
        .map(|h| h.sum);
    if elapsed_s.is_none() {
        notes.push(
            "no time between the scrapes was given and they carry no timestamps: rates and the \
             mean in flight need it"
                .to_owned(),
        );
    }
    if e2e_sum.is_none() {
        notes.push("vllm:e2e_request_latency_seconds is missing: no mean in flight".to_owned());
    }
    let mut alarms = Vec::new();
    if let Some(preemptions) = totals.preemptions.filter(|&p| p > 0.0) {
        alarms.push(LimitAlarm {
            kind: AlarmKind::Preemptions,
            value: preemptions,
            message: format!("{LIMIT_MESSAGE} ({preemptions} preemptions between the scrapes)"),
            message_de: format!(
                "{LIMIT_MESSAGE_DE} ({preemptions} Verdrängungen zwischen den Scrapes)"
            ),
        });
    }
    let queue_sum = histograms
        .iter()
        .find(|h| h.kind == VllmHistogram::Queue)
        .map(|h| h.sum);
    let mean_waiting = rate(queue_sum);
    let mut limit_notes = Vec::new();
    let (queued_before, queued_after) = (
        before.gauges.requests_waiting.filter(|w| *w > 0.0),
        after.gauges.requests_waiting.filter(|w| *w > 0.0),
    );
    if let (Some(a), Some(b)) = (queued_before, queued_after) {
        alarms.push(LimitAlarm {
            kind: AlarmKind::WaitingQueue,
            value: a.max(b),
            message: format!(
                "{LIMIT_MESSAGE} (requests waiting in vLLM's queue at both scrapes, {a} and {b}: a lasting queue)"
            ),
            message_de: format!(
                "{LIMIT_MESSAGE_DE} (wartende Anfragen in vLLMs Warteschlange bei beiden Scrapes, {a} und {b}: eine anhaltende Warteschlange)"
            ),
        });
    } else if let Some(mean) = mean_waiting.filter(|m| *m >= LASTING_QUEUE_MEAN_WAITING) {
        alarms.push(LimitAlarm {
            kind: AlarmKind::WaitingQueue,
            value: mean,
            message: format!(
                "{LIMIT_MESSAGE} ({:.2} requests waiting on average between the scrapes, Δ queue time ÷ Δt: a lasting queue)",
                mean
            ),
            message_de: format!(
                "{LIMIT_MESSAGE_DE} ({} wartende Anfragen im Mittel zwischen den Scrapes, Δ Wartezeit ÷ Δt: eine anhaltende Warteschlange)",
                crate::locale::Lang::De.number(mean, 2)
            ),
        });
    } else {
        limit_notes.extend(waiting_note(queued_before, "at the first scrape"));
        limit_notes.extend(waiting_note(queued_after, "at the second scrape"));
        if let Some(mean) = mean_waiting.filter(|m| *m > 0.0)
            && !limit_notes.is_empty()
        {
            limit_notes.push(format!(
                "Between the scrapes {:.2} requests waited on average (Δ queue time ÷ Δt), below the {LASTING_QUEUE_MEAN_WAITING} of a lasting queue.",
                mean
            ));
        }
    }
    Ok(VllmWindow {
        model_names: after.model_names.clone(),
        elapsed_s,
        elapsed_from,
        request_rate_per_s: rate(Some(totals.requests_finished)),
        prompt_tokens_per_s: rate(totals.prompt_tokens),
        generation_tokens_per_s: rate(totals.generation_tokens),
        prefix_cache_hit_rate: match (totals.prefix_cache_hits, totals.prefix_cache_queries) {
            (Some(hits), Some(queries)) if queries > 0.0 => Some(
                plausible::check(Quantity::Fraction, hits / queries).map_err(|e| {
                    MetricsError::Implausible(format!(
                        "the prefix-cache hit rate (Δ hits ÷ Δ queries): {e}"
                    ))
                })?,
            ),
            _ => None,
        },
        mean_in_flight: rate(e2e_sum),
        totals,
        distributions: distributions(&histograms),
        gauges_at_start: before.gauges.clone(),
        gauges_at_end: after.gauges.clone(),
        alarms,
        mean_waiting,
        limit_notes,
        notes,
    })
}

fn waiting_note(waiting: Option<f64>, when: &str) -> Option<String> {
    let waiting = waiting.filter(|&w| w > 0.0)?;
    Some(format!(
        "{waiting} requests were waiting in vLLM's queue {when}: one scrape catches a burst, not a lasting queue; a second scrape with requests waiting would mean the pilot hit its own limit."
    ))
}

/// Requests waiting at one of a pilot's scrapes only: a note, not the alarm.
#[derive(Clone, Debug, PartialEq)]
pub struct WaitingNote {
    pub waiting: f64,
    /// The scrape, for people (`#12 metrics-0900.txt`).
    pub scrape: String,
}

impl WaitingNote {
    /// The note in `lang`.
    pub fn text_in(&self, lang: crate::locale::Lang) -> String {
        match lang {
            crate::locale::Lang::En => {
                waiting_note(Some(self.waiting), &format!("at {}", self.scrape)).unwrap_or_default()
            }
            crate::locale::Lang::De => format!(
                "{} Anfragen warteten bei {} in vLLMs Warteschlange: Ein Scrape erfasst einen Schub, keine anhaltende Warteschlange; ein zweiter Scrape mit wartenden Anfragen hieße, dass der Pilot an seine eigene Grenze stieß.",
                lang.number(self.waiting, 0),
                self.scrape
            ),
        }
    }
}

/// The waiting gauge of one scrape, in time order, for [`lasting_queue`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitingSample {
    /// The scrape, for people (`#12 metrics-0900.txt`).
    pub label: String,
    pub at_ms: Option<i64>,
    pub requests_waiting: Option<f64>,
}

/// The queue alarm over a pilot's scrapes in time order: requests waiting in two or more
/// consecutive scrapes is a lasting queue (the alarm); waiting at single scrapes only gives a
/// note each.
pub fn lasting_queue(samples: &[WaitingSample]) -> (Option<LimitAlarm>, Vec<WaitingNote>) {
    let waiting = |s: &WaitingSample| s.requests_waiting.filter(|w| *w > 0.0);
    for pair in samples.windows(2) {
        if let (Some(a), Some(b)) = (waiting(&pair[0]), waiting(&pair[1])) {
            return (
                Some(LimitAlarm {
                    kind: AlarmKind::WaitingQueue,
                    value: a.max(b),
                    message: format!(
                        "{LIMIT_MESSAGE} (requests waiting in vLLM's queue in consecutive scrapes: {a} at {}, {b} at {}; a lasting queue)",
                        pair[0].label, pair[1].label
                    ),
                    message_de: format!(
                        "{LIMIT_MESSAGE_DE} (wartende Anfragen in vLLMs Warteschlange in aufeinanderfolgenden Scrapes: {a} bei {}, {b} bei {}; eine anhaltende Warteschlange)",
                        pair[0].label, pair[1].label
                    ),
                }),
                Vec::new(),
            );
        }
    }
    let notes = samples
        .iter()
        .filter_map(|s| {
            waiting(s).map(|waiting| WaitingNote {
                waiting,
                scrape: s.label.clone(),
            })
        })
        .collect();
    (None, notes)
}

/// The first of `names` present, with its value samples summed; the sum (and every value) must
/// be a count ([`crate::plausible::checked_sum`]): two series of 1e308 are refused, naming the
/// family, rather than summed to infinity.
fn sum_first(scrape: &Scrape, names: &[&str]) -> Result<Option<(String, f64)>, MetricsError> {
    let found = names.iter().find_map(|&name| {
        let family = scrape.family(name)?;
        let mut samples = family.value_samples().peekable();
        samples.peek()?;
        Some((name, samples.map(|s| s.value).collect::<Vec<f64>>()))
    });
    match found {
        None => Ok(None),
        Some((name, values)) => plausible::checked_sum(name, values)
            .map(|sum| Some((name.to_owned(), sum)))
            .map_err(MetricsError::Implausible),
    }
}

fn read_histogram(
    scrape: &Scrape,
    kind: VllmHistogram,
) -> Result<Option<CumulativeHistogram>, MetricsError> {
    let Some(h) = read_histogram_unchecked(scrape, kind) else {
        return Ok(None);
    };
    // Sums across series: each bucket, the count and the sum stay counts.
    let implausible = MetricsError::Implausible;
    let bad = |what: &str, v: f64| {
        plausible::check(Quantity::Count, v).map_err(|e| {
            implausible(format!(
                "{}{what} summed over its series: {e}; the values are not real counts",
                h.metric
            ))
        })
    };
    for b in &h.buckets {
        bad(
            &format!("_bucket{{le=\"{}\"}}", plausible::fmt_value(b.le)),
            b.count,
        )?;
    }
    bad("_count", h.count)?;
    bad("_sum", h.sum)?;
    Ok(Some(h))
}

fn read_histogram_unchecked(scrape: &Scrape, kind: VllmHistogram) -> Option<CumulativeHistogram> {
    kind.metric_names().iter().find_map(|&name| {
        let family = scrape.family(name)?;
        let mut by_edge: Vec<CumulativeBucket> = Vec::new();
        for sample in family.samples_with_suffix("_bucket") {
            let le = match sample.label("le")? {
                "+Inf" | "Inf" | "inf" => f64::INFINITY,
                text => text.parse::<f64>().ok()?,
            };
            match by_edge.iter_mut().find(|b| b.le == le) {
                Some(bucket) => bucket.count += sample.value,
                None => by_edge.push(CumulativeBucket {
                    le,
                    count: sample.value,
                }),
            }
        }
        if by_edge.is_empty() {
            return None;
        }
        by_edge.sort_by(|a, b| a.le.total_cmp(&b.le));
        Some(CumulativeHistogram {
            kind,
            metric: name.to_owned(),
            buckets: by_edge,
            count: family.samples_with_suffix("_count").map(|s| s.value).sum(),
            sum: family.samples_with_suffix("_sum").map(|s| s.value).sum(),
        })
    })
}

fn histogram_delta(
    before: &CumulativeHistogram,
    after: &CumulativeHistogram,
) -> Result<CumulativeHistogram, MetricsError> {
    let changed = || MetricsError::BucketsChanged {
        metric: after.metric.clone(),
    };
    if before.metric != after.metric || before.buckets.len() != after.buckets.len() {
        return Err(changed());
    }
    let reset = || MetricsError::CounterReset {
        metric: after.metric.clone(),
    };
    let mut buckets = Vec::with_capacity(after.buckets.len());
    for (a, b) in before.buckets.iter().zip(&after.buckets) {
        if a.le != b.le {
            return Err(changed());
        }
        if b.count < a.count {
            return Err(reset());
        }
        buckets.push(CumulativeBucket {
            le: b.le,
            count: b.count - a.count,
        });
    }
    if after.count < before.count || after.sum < before.sum {
        return Err(reset());
    }
    Ok(CumulativeHistogram {
        kind: after.kind,
        metric: after.metric.clone(),
        buckets,
        count: after.count - before.count,
        sum: after.sum - before.sum,
    })
}

fn summarise(histogram: &CumulativeHistogram) -> HistogramSummary {
    let factor = if histogram.kind.in_seconds() {
        1000.0
    } else {
        1.0
    };
    let quantile = |q: f64| {
        histogram_quantile(q, &histogram.buckets)
            .ok()
            .map(|estimate| estimate.scaled(factor))
    };
    HistogramSummary {
        metric: histogram.metric.clone(),
        unit: if histogram.kind.in_seconds() {
            "ms"
        } else {
            "tokens"
        }
        .to_owned(),
        count: histogram.count,
        mean: (histogram.count > 0.0).then(|| histogram.sum / histogram.count * factor),
        p50: quantile(0.50),
        p90: quantile(0.90),
        p95: quantile(0.95),
        p99: quantile(0.99),
    }
}

fn distributions(histograms: &[CumulativeHistogram]) -> Distributions {
    let find = |kind: VllmHistogram| histograms.iter().find(|h| h.kind == kind).map(summarise);
    Distributions {
        ttft_ms: find(VllmHistogram::Ttft),
        inter_token_latency_ms: find(VllmHistogram::InterTokenLatency),
        request_tpot_ms: find(VllmHistogram::RequestTpot),
        e2e_ms: find(VllmHistogram::E2e),
        queue_ms: find(VllmHistogram::Queue),
        prefill_ms: find(VllmHistogram::Prefill),
        decode_ms: find(VllmHistogram::Decode),
        inference_ms: find(VllmHistogram::Inference),
        prompt_tokens: find(VllmHistogram::PromptTokens),
        generation_tokens: find(VllmHistogram::GenerationTokens),
    }
}

/// `block_size` and `num_gpu_blocks` of a running engine are at least 1
/// ([`crate::plausible::Rule::AtLeastOne`]): vLLM refuses to start without a cache block, and a
/// block holds at least one token. A label that does not parse is left unread, as before.
fn check_cache_sizes(config: &CacheConfig) -> Result<(), MetricsError> {
    let sizes = [
        (
            "block_size",
            "KV-cache block size",
            config.block_size.map(f64::from),
        ),
        (
            "num_gpu_blocks",
            "number of KV-cache blocks",
            config.num_gpu_blocks.map(|n| n as f64),
        ),
    ];
    for (label, noun, value) in sizes {
        if let Some(v) = value {
            let field = format!("vllm:cache_config_info{{{label}}}");
            plausible::across::at_least_one(&field, noun, v)
                .map_err(|b| MetricsError::Implausible(b.to_string()))?;
        }
    }
    Ok(())
}

fn read_cache_config(scrape: &Scrape) -> Option<CacheConfig> {
    let sample = scrape
        .family("vllm:cache_config_info")?
        .value_samples()
        .next()?;
    let labels: BTreeMap<String, String> = sample.labels.iter().cloned().collect();
    let get = |name: &str| {
        labels
            .get(name)
            .map(String::as_str)
            .filter(|v| *v != "None")
    };
    Some(CacheConfig {
        block_size: get("block_size").and_then(|v| v.parse().ok()),
        num_gpu_blocks: get("num_gpu_blocks").and_then(|v| v.parse().ok()),
        cache_dtype: get("cache_dtype").map(str::to_owned),
        gpu_memory_utilization: get("gpu_memory_utilization").and_then(|v| v.parse().ok()),
        enable_prefix_caching: get("enable_prefix_caching").map(|v| v.eq_ignore_ascii_case("true")),
        kv_cache_size_tokens: get("kv_cache_size_tokens").and_then(|v| v.parse().ok()),
        kv_cache_max_concurrency: get("kv_cache_max_concurrency").and_then(|v| v.parse().ok()),
        labels,
    })
}

#[cfg(test)]
mod alarm_tests {
    use super::*;

    fn scrape(waiting: u32, queue_sum_s: f64, preemptions: u32) -> VllmSnapshot {
        VllmSnapshot::parse(&format!(
            "# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{{model_name=\"m\"}} {waiting}.0
# TYPE vllm:num_preemptions_total counter
vllm:num_preemptions_total{{model_name=\"m\"}} {preemptions}.0
# TYPE vllm:request_queue_time_seconds histogram
vllm:request_queue_time_seconds_bucket{{le=\"+Inf\",model_name=\"m\"}} 10.0
vllm:request_queue_time_seconds_count{{model_name=\"m\"}} 10.0
vllm:request_queue_time_seconds_sum{{model_name=\"m\"}} {queue_sum_s}
"
        ))
        .unwrap()
    }

    #[test]
    fn one_scrape_with_a_queue_is_a_note_not_the_alarm() {
        let report = scrape(64, 0.0, 0).report();
        assert!(report.alarms.is_empty());
        assert_eq!(report.limit_notes.len(), 1);
        assert!(report.limit_notes[0].starts_with(
            "64 requests were waiting in vLLM's queue at this scrape: one scrape catches a burst"
        ));
        // Preemptions still alarm on one scrape.
        let report = scrape(0, 0.0, 3).report();
        assert_eq!(report.alarms[0].kind, AlarmKind::Preemptions);
    }

    #[test]
    fn a_queue_at_both_ends_or_on_average_is_lasting() {
        let both = vllm_window(&scrape(5, 0.0, 0), &scrape(7, 1.0, 0), Some(60.0)).unwrap();
        assert_eq!(both.alarms.len(), 1);
        assert_eq!(
            (both.alarms[0].kind, both.alarms[0].value),
            (AlarmKind::WaitingQueue, 7.0)
        );
        assert!(
            both.alarms[0]
                .message
                .contains("at both scrapes, 5 and 7: a lasting queue")
        );
        // 45 s of waiting over 60 s: 0.75 requests waiting on average.
        let average = vllm_window(&scrape(0, 0.0, 0), &scrape(0, 45.0, 0), Some(60.0)).unwrap();
        assert_eq!(average.mean_waiting, Some(0.75));
        assert_eq!(average.alarms.len(), 1);
        assert!(
            average.alarms[0]
                .message
                .contains("0.75 requests waiting on average")
        );
        // One end only, 0.1 waiting on average: a note.
        let burst = vllm_window(&scrape(0, 0.0, 0), &scrape(64, 6.0, 0), Some(60.0)).unwrap();
        assert!(burst.alarms.is_empty());
        assert_eq!(burst.limit_notes.len(), 2, "{:?}", burst.limit_notes);
        assert!(burst.limit_notes[0].contains("at the second scrape"));
    }

    #[test]
    fn consecutive_scrapes_with_waiting_requests_raise_the_alarm() {
        let sample = |label: &str, waiting: f64| WaitingSample {
            label: label.into(),
            at_ms: None,
            requests_waiting: Some(waiting),
        };
        let (alarm, notes) =
            lasting_queue(&[sample("#1", 3.0), sample("#2", 0.0), sample("#3", 2.0)]);
        assert!(alarm.is_none());
        assert_eq!(notes.len(), 2);
        let (alarm, notes) =
            lasting_queue(&[sample("#1", 0.0), sample("#2", 3.0), sample("#3", 2.0)]);
        let alarm = alarm.unwrap();
        assert_eq!((alarm.kind, alarm.value), (AlarmKind::WaitingQueue, 3.0));
        assert!(alarm.message.starts_with(LIMIT_MESSAGE));
        assert!(
            alarm.message.contains("3 at #2, 2 at #3"),
            "{}",
            alarm.message
        );
        assert!(notes.is_empty());
    }
}
