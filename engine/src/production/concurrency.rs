//! The sessions production must hold: production arrival rate × request time (Little's law).
//!
//! Decision: the count is derived **once, conservatively, from the plan's limits**, not per
//! candidate from its decode ceiling.
//!
//! * Request time = TTFT limit + (mean answer tokens − 1) × TPOT limit
//!   ([`crate::demand::request_time_s`]). A configuration that meets the plan serves the typical
//!   request at least this fast (the limits sit at p95/p99, the mean request is faster), so the
//!   bound overstates the mean request time of every configuration the recommendation may choose.
//! * A candidate's ceiling (1000 ÷ decode tok/s) is an upper bound on speed no batch reaches;
//!   request times from it are too short and the sessions too few, which fails in the dangerous
//!   direction (too little KV cache). It is shown for the chosen configuration as a lower bound.
//! * Without a TPOT limit the bound assumes the reading-speed floor of
//!   [`READING_FLOOR_TOKENS_PER_S`] (≈167 ms per token); without a TTFT limit it counts the answer
//!   only. Both are flagged as assumptions.
//! * Little's law gives the mean in flight over the busiest hour; the busiest instant holds more.
//!   [`crate::production::ProductionInput::peak_to_mean`] scales the mean to the peak (none = 1).

use super::ProductionInput;
use crate::demand::{ProductionDemand, request_time_s};
use crate::loadtest::LatencyTarget;
use crate::sizing::estimate::num;
use serde::{Deserialize, Serialize};

/// The slowest stream a person still reads comfortably, tok/s: the plan template "reading speed
/// floor" (≥ 6 tok/s per stream). Used as the TPOT bound when the plan sets no TPOT limit.
pub const READING_FLOOR_TOKENS_PER_S: f64 = 6.0;

/// Where a bound of the request time came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundBasis {
    /// The plan's pass mark.
    PlanTarget,
    /// No pass mark: an assumption, flagged in the warnings.
    Assumed,
}

/// The sessions every candidate must hold and how they were reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionsToHold {
    /// Production's busiest-hour arrival rate, req/s.
    pub arrival_rate_per_s: f64,
    /// TTFT bound, ms: the plan's TTFT limit, or 0 when there is none.
    pub ttft_ms: f64,
    pub ttft_basis: BoundBasis,
    /// The TTFT mark in words ("TTFT p99 ≤ 450 ms"), when there is one.
    pub ttft_label: Option<String>,
    /// TPOT bound, ms/token: the plan's TPOT limit, or 1000 ÷ the reading floor.
    pub tpot_ms: f64,
    pub tpot_basis: BoundBasis,
    pub tpot_label: Option<String>,
    /// Mean answer length, tokens (from the gateway log).
    pub answer_tokens_mean: f64,
    /// TTFT + (answer − 1) × TPOT, s.
    pub request_time_s: f64,
    /// Rate × request time: mean requests in flight (Little's law).
    pub mean_in_flight: f64,
    /// Peak ÷ mean applied (1 when not given).
    pub peak_to_mean: f64,
    /// ceil(mean in flight × peak ÷ mean), at least 1: the sessions to hold.
    pub peak_sessions: u64,
}

impl SessionsToHold {
    /// What the reader must know about the assumptions behind the count.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.ttft_basis == BoundBasis::Assumed {
            out.push(
                "The plan sets no TTFT limit: the request time counts the answer only, so prefill and queueing add sessions the count does not hold."
                    .to_string(),
            );
        }
        if self.tpot_basis == BoundBasis::Assumed {
            out.push(format!(
                "The plan sets no TPOT limit: the request time assumes the reading-speed floor of {} tok/s ({} ms per token), and configurations slower than that are not recommended.",
                num(READING_FLOOR_TOKENS_PER_S, 0),
                num(self.tpot_ms, 1)
            ));
        }
        out
    }
}

/// `ceil` that forgives floating-point noise just above an integer (30.000000001 → 30).
pub(crate) fn ceil_tolerant(value: f64) -> f64 {
    (value - 1e-9).ceil()
}

fn bound(target: Option<&LatencyTarget>, assumed_ms: f64) -> (f64, BoundBasis, Option<String>) {
    match target {
        Some(t) if t.limit_ms.is_finite() && t.limit_ms >= 0.0 => {
            (t.limit_ms, BoundBasis::PlanTarget, Some(t.label.clone()))
        }
        _ => (assumed_ms, BoundBasis::Assumed, None),
    }
}

fn finite_or_zero(value: f64) -> f64 {
    if value.is_finite() && value > 0.0 {
        value
    } else {
        0.0
    }
}

/// The sessions to hold for `input`'s demand under its plan limits (see the module docs).
pub fn sessions_to_hold(input: &ProductionInput) -> SessionsToHold {
    let demand: &ProductionDemand = &input.demand;
    let (ttft_ms, ttft_basis, ttft_label) = bound(input.targets.ttft.as_ref(), 0.0);
    let (tpot_ms, tpot_basis, tpot_label) = bound(
        input.targets.tpot.as_ref(),
        1000.0 / READING_FLOOR_TOKENS_PER_S,
    );
    let rate = finite_or_zero(demand.arrival_rate_per_s);
    let answer = finite_or_zero(demand.completion_tokens_mean);
    let time_s = request_time_s(ttft_ms, tpot_ms, answer);
    let mean_in_flight = ProductionDemand {
        arrival_rate_per_s: rate,
        ..demand.clone()
    }
    .in_flight_on(time_s);
    let peak_to_mean = input
        .peak_to_mean
        .filter(|f| f.is_finite() && *f >= 1.0)
        .unwrap_or(1.0);
    let peak_sessions = ceil_tolerant(mean_in_flight * peak_to_mean).max(1.0) as u64;
    SessionsToHold {
        arrival_rate_per_s: rate,
        ttft_ms,
        ttft_basis,
        ttft_label,
        tpot_ms,
        tpot_basis,
        tpot_label,
        answer_tokens_mean: answer,
        request_time_s: time_s,
        mean_in_flight,
        peak_to_mean,
        peak_sessions,
    }
}
