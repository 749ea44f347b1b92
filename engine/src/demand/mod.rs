//! Demand from real traffic: what the pilot's users asked for, measured exactly from the gateway
//! log, and carried over to production.
//!
//! Definitions (the domain's, see `docs/domain.md`):
//! * **Arrival rate** is taken at the busiest hour: the 60-minute window (sliding, not clock
//!   hours) holding the most request starts, ÷ 3,600 s.
//! * **Token lengths** are distributions in the model's own tokens: prompt, answer and context
//!   (prompt + answer, what one request holds in the KV cache at its end), each with median,
//!   p95, p99, maximum and a histogram, over successful requests.
//! * **Concurrency** is the exact number of requests in flight, from a sweep over start and end
//!   times: its peak (and when), its time-weighted mean over the whole log and over the busiest
//!   hour, the time spent at each level, and a down-sampled curve.
//! * **Little's law** is checked over the busiest hour: its arrival rate × the mean duration of
//!   its arrivals against the sweep's mean in flight. The two differ only by requests straddling
//!   the hour's edges; a large relative difference points at the data.
//! * **Failures, timeouts, cancellations and truncations** (`finish_reason = length`) are counted
//!   with rates, overall and per model. Cancelled requests never reach vLLM's success counter,
//!   which is why they are counted here.
//! * **Gateway latencies** (TTFT, TPOT = (E2E − TTFT) ÷ (n − 1), E2E) are percentiles when the
//!   log has the timestamps, exact up to 65,536 values per distribution and within ±0.5 %
//!   beyond (the profile says which, per distribution); they include gateway and engine
//!   queueing.
//!
//! [`DemandAccumulator`] builds a [`DemandProfile`] in one pass, in memory that does not grow
//! with the log's length (its docs give what is kept and the measured peak); records come in
//! rough time order, and a log too far out of order is flagged in the profile
//! ([`DemandProfile::late_records`]). [`profile_gateway_log`] streams a log into it.
//! [`production`] scales the profile to production demand.

pub mod accumulator;
pub mod production;
pub mod profile;

pub use accumulator::{DemandAccumulator, DemandError, DemandOptions};
pub use production::{
    ContextBasis, DemandScaling, MeasuredContext, ProductionDemand, ProductionError,
    production_demand, production_demand_for, request_time_s,
};
pub use profile::{
    ArrivalSeries, DemandProfile, GatewayLatency, LatencyRelativeError, ModelDemand, Outcomes,
    Timestamp, TokenDistribution,
};

use crate::stats::little::relative_difference;
use crate::traffic::{GatewayError, ImportSummary, ReadOptions};
use serde::{Deserialize, Serialize};
use std::io::BufRead;
use thiserror::Error;

/// Why a log could not be turned into a profile.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProfileError {
    #[error(transparent)]
    Log(#[from] GatewayError),
    #[error("{source_name}: {error}")]
    Demand {
        source_name: String,
        error: DemandError,
    },
}

/// The gateway log's mean in flight set against the server's over the same window (vLLM:
/// Δ`e2e_request_latency_seconds_sum` ÷ Δt between two scrapes, see [`crate::metrics`]).
///
/// Expect the gateway's figure to be somewhat higher: its time in system includes the gateway's
/// own overhead and the hop to the engine, and it counts cancelled requests, which vLLM's
/// latency histogram leaves out. A server figure well above the gateway's means the server saw
/// traffic that did not pass this gateway (or the scrapes do not bracket the window).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InFlightCrossCheck {
    pub window_start: Timestamp,
    pub window_end: Timestamp,
    pub gateway_mean_in_flight: f64,
    /// True when the gateway figure is exact (the window is the busiest hour); otherwise it is
    /// taken from the in-flight curve, exact on the curve's step boundaries.
    pub gateway_exact: bool,
    pub server_mean_in_flight: f64,
    /// (server − gateway) ÷ gateway; `None` when the gateway saw nothing in flight.
    pub relative_difference: Option<f64>,
}

/// Cross-checks the server's mean in flight over `[from_ms, to_ms)` against the profile.
/// `None` for an empty window.
pub fn cross_check_in_flight(
    profile: &DemandProfile,
    from_ms: i64,
    to_ms: i64,
    server_mean_in_flight: f64,
) -> Option<InFlightCrossCheck> {
    let busiest_from = profile.busiest_hour_start.unix_ms;
    let gateway_exact =
        from_ms == busiest_from && to_ms == busiest_from + accumulator::BUSIEST_WINDOW_MS;
    let gateway_mean_in_flight = if gateway_exact {
        profile.mean_in_flight_busiest_hour
    } else {
        profile.in_flight_curve.mean_between(from_ms, to_ms)?
    };
    Some(InFlightCrossCheck {
        window_start: Timestamp::from_unix_ms(from_ms),
        window_end: Timestamp::from_unix_ms(to_ms),
        gateway_mean_in_flight,
        gateway_exact,
        server_mean_in_flight,
        relative_difference: relative_difference(server_mean_in_flight, gateway_mean_in_flight),
    })
}

/// Streams a gateway log into a demand profile, reporting bytes read to `on_progress`. Nothing
/// is returned when the log has a bad record (unless `skip_bad_lines`) or no records.
pub fn profile_gateway_log<R: BufRead + Send>(
    reader: R,
    read_options: &ReadOptions,
    demand_options: DemandOptions,
    on_progress: impl FnMut(u64),
) -> Result<(DemandProfile, ImportSummary), ProfileError> {
    let mut accumulator = DemandAccumulator::new(demand_options);
    let summary = accumulator.add_log(reader, read_options, on_progress)?;
    let profile = accumulator.finish().map_err(|error| ProfileError::Demand {
        source_name: read_options.source_name.clone(),
        error,
    })?;
    Ok((profile, summary))
}

#[cfg(test)]
mod tests;
