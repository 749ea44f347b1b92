//! What a measured load level says about the engine, in the quantities the twin needs.
//!
//! From each [`OperatingPoint`] the twin takes the load generator's arrival process (closed loop
//! at a concurrency, Poisson at a rate, or a burst when the rate was unlimited), the token shape,
//! the request throughput X and the latency percentiles, and derives by Little's law:
//!
//! * **mean decoding batch** B̄ = X × (output − 1) × TPOT ÷ 1000: how many sequences were
//!   decoding at an average instant (each request spends (output − 1) × TPOT decoding);
//! * **mean in flight** L = X × mean E2E ÷ 1000 (E2E ≈ TTFT + (output − 1) × TPOT when the file
//!   has no E2E). L well above B̄ means requests were queueing.
//!
//! [`configurations`] splits an upload holding several serving configurations (a `framework`
//! or `deployment` metadata key, a swept `max_num_seqs`) so each gets its own model: one timing
//! model per engine and settings.

use super::arrivals::{ArrivalProcess, TimedRequest};
use super::workload::{TokenLengths, Workload};
use crate::ingest::{MetricKey, MetricStats, OperatingPoint};
use crate::locale::Lang;
use crate::plan::Statistic;
use serde::{Deserialize, Serialize};

/// Prompt length assumed, on average, when no file states one (tokens).
pub const ASSUMED_PROMPT_TOKENS: u32 = 512;

/// Percentiles as a file reports them (`None`: not reported).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportedPercentiles {
    pub mean: Option<f64>,
    pub min: Option<f64>,
    pub p50: Option<f64>,
    pub p90: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
}

impl ReportedPercentiles {
    fn of(stats: Option<&MetricStats>) -> Self {
        match stats {
            Some(s) => ReportedPercentiles {
                mean: s.mean,
                min: s.min,
                p50: s.p50,
                p90: s.p90,
                p95: s.p95,
                p99: s.p99,
            },
            None => ReportedPercentiles::default(),
        }
    }

    /// The value reported at percentile `statistic`; `None` for mean, max and rate.
    pub fn get(&self, statistic: Statistic) -> Option<f64> {
        match statistic {
            Statistic::P50 => self.p50,
            Statistic::P90 => self.p90,
            Statistic::P95 => self.p95,
            Statistic::P99 => self.p99,
            Statistic::Mean | Statistic::Max | Statistic::Rate => None,
        }
    }
}

/// One measured load level, as the twin reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredPoint {
    /// Index into the points the model was fitted from.
    pub index: usize,
    /// Where the point came from (`results.json line 3`).
    pub source: String,
    pub scenario: String,
    /// How the load generator sent requests.
    pub arrivals: ArrivalProcess,
    /// Requests the run sent (a closed loop stopped at a duration: requests completed).
    pub requests: usize,
    /// True for a closed loop that ran for a duration (AIPerf `--benchmark-duration`): only
    /// requests completed by then count. False when a fixed number was sent and the run drained
    /// (`vllm bench serve --num-prompts`).
    pub stops_at_duration: bool,
    /// Mean prompt tokens, when the file states them.
    pub prompt_tokens_mean: Option<f64>,
    pub output_tokens_mean: f64,
    /// When the file has per-request records with lengths (and start times, or a burst at
    /// t = 0): the run's own requests, replayed instead of drawing from the distributions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_arrivals: Option<Vec<TimedRequest>>,
    /// Lengths to replay the run with (prompt lengths assumed when the file has none; see
    /// [`super::fit`]).
    pub workload: Workload,
    pub ttft_ms: ReportedPercentiles,
    pub tpot_ms: ReportedPercentiles,
    pub itl_ms: ReportedPercentiles,
    pub e2e_ms: ReportedPercentiles,
    pub request_throughput_per_s: f64,
    pub output_tokens_per_s: Option<f64>,
    /// Mean TPOT used for the fit (the mean, else the median), ms.
    pub tpot_fit_ms: f64,
    /// B̄ (module docs).
    pub mean_decoding: f64,
    /// L (module docs).
    pub mean_in_flight: f64,
}

impl MeasuredPoint {
    /// The concurrency of a closed-loop point.
    pub fn concurrency(&self) -> Option<u32> {
        match self.arrivals {
            ArrivalProcess::ClosedLoop { concurrency } => Some(concurrency),
            _ => None,
        }
    }

    /// The rate of a Poisson point, req/s.
    pub fn rate_per_s(&self) -> Option<f64> {
        match self.arrivals {
            ArrivalProcess::Poisson { rate_per_s } => Some(rate_per_s),
            _ => None,
        }
    }

    /// `concurrency 16`, `rate 10 req/s`, `burst of 900`.
    pub fn load_label(&self) -> String {
        match &self.arrivals {
            ArrivalProcess::ClosedLoop { concurrency } => format!("concurrency {concurrency}"),
            ArrivalProcess::Poisson { rate_per_s } => format!("rate {rate_per_s} req/s"),
            ArrivalProcess::Burst => format!("burst of {}", self.requests),
            ArrivalProcess::Replay { requests } => format!("replay of {}", requests.len()),
        }
    }
}

fn mean_of(point: &OperatingPoint, key: MetricKey) -> Option<f64> {
    point.metric(key).and_then(|s| s.mean.or(s.p50))
}

fn setting_number(point: &OperatingPoint, key: &str) -> Option<f64> {
    point
        .settings
        .get(key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

/// What a load level lacks for the capacity twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lacking {
    OutputTokens,
    Throughput,
    Tpot,
    Ttft,
    CompletedRequests,
}

/// A load level the twin cannot use: where it comes from and what it lacks.
#[derive(Clone, Debug, PartialEq)]
pub struct UnusablePoint {
    /// The point's source, as recorded (`vllm bench serve, run.json`).
    pub source: String,
    pub lacking: Lacking,
}

impl UnusablePoint {
    /// The sentence in `lang`: `run.json: not used by the capacity twin: no TTFT statistics`.
    pub fn text_in(&self, lang: Lang) -> String {
        let what = match (self.lacking, lang) {
            (Lacking::OutputTokens, Lang::En) => "the file states no output token counts",
            (Lacking::Throughput, Lang::En) => "no request throughput or duration",
            (Lacking::Tpot, Lang::En) => "no TPOT (and no E2E and TTFT to derive it from)",
            (Lacking::Ttft, Lang::En) => "no TTFT statistics",
            (Lacking::CompletedRequests, Lang::En) => "no completed requests",
            (Lacking::OutputTokens, Lang::De) => "die Datei nennt keine Zahl der Ausgabe-Token",
            (Lacking::Throughput, Lang::De) => "kein Anfragedurchsatz und keine Dauer",
            (Lacking::Tpot, Lang::De) => "kein TPOT (und weder E2E noch TTFT, um ihn abzuleiten)",
            (Lacking::Ttft, Lang::De) => "keine TTFT-Statistik",
            (Lacking::CompletedRequests, Lang::De) => "keine abgeschlossenen Anfragen",
        };
        let source = crate::verdict::source_in(&self.source, lang);
        match lang {
            Lang::En => format!("{source}: not used by the capacity twin: {what}"),
            Lang::De => format!("{source}: vom Kapazitäts-Zwilling nicht verwendet: {what}"),
        }
    }
}

impl std::fmt::Display for UnusablePoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text_in(Lang::En))
    }
}

/// Reads one point; `Err` says what it lacks for the twin.
pub fn measure(index: usize, point: &OperatingPoint) -> Result<MeasuredPoint, UnusablePoint> {
    let why = |lacking: Lacking| UnusablePoint {
        source: point.source.clone(),
        lacking,
    };
    let output_tokens_mean = point
        .output_tokens_mean
        .or_else(|| mean_of(point, MetricKey::OutputTokens))
        .filter(|o| *o >= 1.0)
        .ok_or_else(|| why(Lacking::OutputTokens))?;
    let completed = point.completed.unwrap_or(0);
    let throughput = point
        .request_throughput
        .or_else(|| {
            point
                .duration_s
                .filter(|d| *d > 0.0)
                .map(|d| completed as f64 / d)
        })
        .filter(|x| *x > 0.0)
        .ok_or_else(|| why(Lacking::Throughput))?;
    let ttft = ReportedPercentiles::of(point.metric(MetricKey::TtftMs));
    let tpot = ReportedPercentiles::of(point.metric(MetricKey::TpotMs));
    let e2e = ReportedPercentiles::of(point.metric(MetricKey::E2eMs));
    let itl = ReportedPercentiles::of(point.metric(MetricKey::ItlMs));
    let ttft_mean = ttft.mean.or(ttft.p50);
    let tpot_fit_ms = tpot
        .mean
        .or(tpot.p50)
        .or_else(|| {
            let e = e2e.mean?;
            let t = ttft_mean?;
            (output_tokens_mean > 1.0).then(|| (e - t) / (output_tokens_mean - 1.0))
        })
        .filter(|t| *t > 0.0)
        .ok_or_else(|| why(Lacking::Tpot))?;
    if ttft.p50.is_none() && ttft.mean.is_none() {
        return Err(why(Lacking::Ttft));
    }
    let prompt_tokens_mean = point
        .input_tokens_mean
        .or_else(|| mean_of(point, MetricKey::InputTokens))
        .filter(|p| *p >= 1.0);
    let arrivals = if let Some(c) = point.concurrency.filter(|c| *c >= 1.0) {
        ArrivalProcess::ClosedLoop {
            concurrency: c.round() as u32,
        }
    } else if let Some(r) = point.request_rate.filter(|r| r.is_finite() && *r > 0.0) {
        ArrivalProcess::Poisson { rate_per_s: r }
    } else {
        ArrivalProcess::Burst
    };
    let num_prompts = setting_number(point, "num_prompts").map(|n| n as usize);
    let stops_at_duration =
        matches!(arrivals, ArrivalProcess::ClosedLoop { .. }) && num_prompts.is_none();
    let sent = match arrivals {
        ArrivalProcess::Poisson { .. } => {
            num_prompts.unwrap_or((completed + point.failed.unwrap_or(0)) as usize)
        }
        ArrivalProcess::ClosedLoop { .. } if !stops_at_duration => {
            (completed + point.failed.unwrap_or(0)) as usize
        }
        _ => completed as usize,
    };
    if sent == 0 {
        return Err(why(Lacking::CompletedRequests));
    }
    let output = point
        .metric(MetricKey::OutputTokens)
        .and_then(TokenLengths::from_stats)
        .unwrap_or_else(|| TokenLengths::fixed(output_tokens_mean.round() as u32));
    let prompt = point
        .metric(MetricKey::InputTokens)
        .and_then(TokenLengths::from_stats)
        .or_else(|| prompt_tokens_mean.map(|p| TokenLengths::fixed(p.round() as u32)))
        .unwrap_or_else(|| TokenLengths::fixed(ASSUMED_PROMPT_TOKENS));
    let mut mean_decoding = throughput * (output_tokens_mean - 1.0) * tpot_fit_ms / 1000.0;
    if let ArrivalProcess::ClosedLoop { concurrency } = arrivals {
        mean_decoding = mean_decoding.min(f64::from(concurrency));
    }
    let e2e_mean = e2e
        .mean
        .or_else(|| Some(ttft_mean? + (output_tokens_mean - 1.0) * tpot_fit_ms));
    let mean_in_flight = e2e_mean
        .map(|e| throughput * e / 1000.0)
        .unwrap_or(mean_decoding);
    Ok(MeasuredPoint {
        index,
        source: point.source.clone(),
        scenario: point.scenario.clone(),
        arrivals,
        requests: sent,
        stops_at_duration,
        recorded_arrivals: None,
        prompt_tokens_mean,
        output_tokens_mean,
        workload: Workload {
            prompt_tokens: prompt,
            output_tokens: output,
        },
        ttft_ms: ttft,
        tpot_ms: tpot,
        itl_ms: itl,
        e2e_ms: e2e,
        request_throughput_per_s: throughput,
        output_tokens_per_s: point.output_tokens_per_s,
        tpot_fit_ms,
        mean_decoding,
        mean_in_flight,
    })
}

/// The successful requests of point `m` as recorded, in start order, when every one has its
/// lengths and a start time (or the run was a burst at t = 0); `None` otherwise.
pub fn recorded_arrivals(
    m: &MeasuredPoint,
    requests: &[crate::ingest::RequestRecord],
) -> Option<Vec<TimedRequest>> {
    let burst = matches!(m.arrivals, ArrivalProcess::Burst);
    let mine: Vec<&crate::ingest::RequestRecord> = requests
        .iter()
        .filter(|r| r.point == m.index && r.error.is_none())
        .collect();
    if mine.len() < 2 {
        return None;
    }
    let mut out = Vec::with_capacity(mine.len());
    for r in mine {
        let at_ms = match r.start_s {
            Some(s) => s * 1000.0,
            None if burst => 0.0,
            None => return None,
        };
        out.push(TimedRequest {
            at_ms,
            prompt_tokens: u32::try_from(r.input_tokens?).ok()?.max(1),
            output_tokens: u32::try_from(r.output_tokens?).ok()?.max(1),
        });
    }
    out.sort_by(|a, b| a.at_ms.total_cmp(&b.at_ms));
    let first = out[0].at_ms;
    for r in &mut out {
        r.at_ms -= first;
    }
    Some(out)
}

/// One serving configuration within an upload: a label and the indices of its points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Configuration {
    /// `framework=sgl`, `deployment=base`, `max_num_seqs=8`; `all points` when there is one.
    pub label: String,
    pub points: Vec<usize>,
}

/// Settings that name the engine and its configuration rather than the load; points that
/// differ in one of them were served differently and get separate models.
const CONFIGURATION_KEYS: [&str; 12] = [
    "framework",
    "deployment",
    "engine",
    "gpu",
    "model",
    "tensor_parallel_size",
    "max_num_seqs",
    "max_num_batched_tokens",
    "enable_chunked_prefill",
    "decode_replicas",
    "prefill_replicas",
    "quantization",
];

/// Groups points by serving configuration (model and the [`CONFIGURATION_KEYS`] that differ
/// between points), in first-seen order.
pub fn configurations(points: &[OperatingPoint]) -> Vec<Configuration> {
    let key_of = |p: &OperatingPoint, k: &str| -> Option<String> {
        if k == "model" {
            p.settings.get("model").cloned().or_else(|| p.model.clone())
        } else {
            p.settings.get(k).cloned()
        }
    };
    let varying: Vec<&str> = CONFIGURATION_KEYS
        .iter()
        .copied()
        .filter(|k| {
            let first = points.first().and_then(|p| key_of(p, k));
            points.iter().any(|p| key_of(p, k) != first)
        })
        .collect();
    let mut groups: Vec<Configuration> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let label = if varying.is_empty() {
            "all points".to_string()
        } else {
            varying
                .iter()
                .map(|k| format!("{k}={}", key_of(p, k).unwrap_or_else(|| "-".into())))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match groups.iter_mut().find(|g| g.label == label) {
            Some(g) => g.points.push(i),
            None => groups.push(Configuration {
                label,
                points: vec![i],
            }),
        }
    }
    groups
}
