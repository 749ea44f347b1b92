//! The demand profile: what a pilot's real traffic asked of the system, ready to serialise.

use crate::stats::{HistogramBin, InFlightCurve, LittleCheck, Percentiles};
use crate::traffic::timestamp::format_rfc3339_ms;
use serde::{Deserialize, Serialize};

/// An instant, both as Unix milliseconds (for computing) and RFC 3339 UTC (for reading).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Timestamp {
    pub unix_ms: i64,
    pub rfc3339: String,
}

impl Timestamp {
    pub fn from_unix_ms(unix_ms: i64) -> Self {
        Timestamp {
            unix_ms,
            rfc3339: format_rfc3339_ms(unix_ms),
        }
    }
}

/// A token-length distribution, exact (see [`crate::stats::ValueCounts`]); percentiles
/// interpolate between closest ranks, so they may be fractional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenDistribution {
    /// Requests counted.
    pub count: u64,
    pub mean: f64,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: u32,
    /// Requests longer than the p95 (strictly), counted exactly: how many a limit set at the
    /// p95 would turn away. Absent in profiles stored before it existed.
    #[serde(default)]
    pub above_p95: Option<u64>,
    /// Equal-width bins from 0 to the maximum (round widths), for charts.
    pub histogram: Vec<HistogramBin>,
}

/// Latency percentiles measured at the gateway (client-side network excluded, gateway and
/// engine queueing included), over successful requests.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GatewayLatency {
    /// Start → first token, ms; `None` when the log has no first-token times.
    pub ttft_ms: Option<Percentiles>,
    /// (E2E − TTFT) ÷ (completion tokens − 1), ms/token, over answers of ≥ 2 tokens.
    pub tpot_ms: Option<Percentiles>,
    /// Start → end, ms.
    pub e2e_ms: Option<Percentiles>,
    /// Mean over requests of each request's output speed, 1000 ÷ its TPOT, tok/s (what a
    /// "mean output speed per user" mark is on; `1000 ÷ mean TPOT` is not that mean). Absent
    /// in profiles stored before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_speed_mean_tokens_per_s: Option<f64>,
    /// How exact the percentiles above are (absent in profiles stored before it existed, which
    /// were all exact).
    #[serde(default)]
    pub relative_error: LatencyRelativeError,
}

/// Relative error bound of the percentiles (p50 … p99) of each gateway latency: 0 when exact
/// (the distribution held at most [`crate::stats::EXACT_VALUES_LIMIT`] values, all kept), 0.005
/// (±0.5 %) when it was summarised in a log-bucket sketch ([`crate::stats::sketch`]). Count,
/// mean, minimum and maximum are exact either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LatencyRelativeError {
    pub ttft_ms: f64,
    pub tpot_ms: f64,
    pub e2e_ms: f64,
}

/// Arrivals per step: `counts[i]` requests started in `[start_ms + i × step_ms, … + step_ms)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArrivalSeries {
    pub start_ms: i64,
    pub step_ms: i64,
    pub counts: Vec<u32>,
}

/// Outcome counts and rates, for the whole log or one model.
///
/// `failed` counts `error` only; timeouts and cancellations have their own counts. Rates are
/// fractions (0–1) of `requests`, except `truncation_rate`, which is the share of delivered
/// answers (`ok`) cut at the token limit (`finish_reason = length`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Outcomes {
    pub requests: u64,
    pub ok: u64,
    pub failed: u64,
    pub timed_out: u64,
    pub cancelled: u64,
    pub truncated: u64,
    pub failure_rate: f64,
    pub timeout_rate: f64,
    pub cancellation_rate: f64,
    pub truncation_rate: f64,
}

/// The demand of one model (the name clients asked for).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModelDemand {
    pub model: String,
    /// Share of all requests in the log (0–1).
    pub share_of_requests: f64,
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Mean start → end over all of this model's requests, seconds.
    pub mean_duration_s: f64,
    pub prompt_tokens: Option<TokenDistribution>,
    pub completion_tokens: Option<TokenDistribution>,
    pub context_tokens: Option<TokenDistribution>,
    pub gateway_latency: GatewayLatency,
}

/// What a pilot's real traffic asked of the system (see [`crate::demand`] for definitions).
///
/// Token distributions and latencies cover successful requests (`status = ok`, truncated
/// answers included); arrivals, concurrency and durations cover every request, since failed and
/// cancelled ones arrived and occupied the system too.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DemandProfile {
    #[serde(flatten)]
    pub outcomes: Outcomes,
    pub first_start: Timestamp,
    pub last_end: Timestamp,
    /// `last_end − first_start`, seconds.
    pub observed_span_s: f64,
    /// Start of the 60-minute window holding the most arrivals (the earliest such window).
    pub busiest_hour_start: Timestamp,
    pub busiest_hour_arrivals: u64,
    /// Arrivals in the busiest hour ÷ 3,600 s (also when the log spans less than an hour).
    pub busiest_hour_arrivals_per_s: f64,
    /// Most requests in flight at once (exact, from the sweep).
    pub peak_in_flight: u64,
    /// First instant the peak was reached.
    pub peak_in_flight_at: Timestamp,
    /// Time-weighted mean in flight from the first start to the last end (idle nights included).
    pub mean_in_flight: f64,
    /// Time-weighted mean in flight over the busiest hour.
    pub mean_in_flight_busiest_hour: f64,
    /// Seconds spent with exactly `i` requests in flight, `i` = index (0 ..= peak), over the span.
    pub in_flight_seconds_by_level: Vec<f64>,
    /// Mean start → end over all requests, seconds.
    pub mean_duration_s: f64,
    pub prompt_tokens: Option<TokenDistribution>,
    pub completion_tokens: Option<TokenDistribution>,
    /// Prompt + answer per request: the KV cache a request holds at its end.
    pub context_tokens: Option<TokenDistribution>,
    pub gateway_latency: GatewayLatency,
    /// Busiest hour: arrival rate × mean duration of its arrivals against the sweep's mean.
    pub littles_law: LittleCheck,
    pub arrivals_per_minute: ArrivalSeries,
    pub in_flight_curve: InFlightCurve,
    /// One entry per model, most requests first.
    pub models: Vec<ModelDemand>,
    /// Requests that came after the sweep had passed their start: the log was further out of
    /// time order than the reorder buffer absorbs (see [`super::DemandOptions`]). 0 means the
    /// arrival, busiest-hour, concurrency and Little's-law figures are exact; otherwise each such
    /// request is counted as starting where the sweep stood (its end unchanged), so those
    /// figures are approximate. Counts, durations, token lengths and latencies are exact either
    /// way. Absent (0) in profiles stored before it existed, which were all exact.
    #[serde(default)]
    pub late_records: u64,
}
