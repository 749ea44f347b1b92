//! From the pilot's demand to production's: scale the arrival rate, carry the token lengths.
//!
//! What carries over from a pilot to production is demand: the arrival rate at the busiest hour
//! and the prompt and answer lengths. What does not is the pilot's concurrency: the number of
//! requests in flight depends on how long each one takes, which belongs to the pilot's GPU,
//! engine and settings. A slower pilot shows more requests in flight for the same traffic. So
//! [`ProductionDemand`] deliberately has no concurrency of the pilot in it; the concurrency a
//! candidate will see is its own request time × the production rate (Little's law), computed per
//! candidate with [`ProductionDemand::in_flight_on`].

use super::profile::DemandProfile;
use crate::stats::little;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How the production arrival rate is obtained.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "basis", rename_all = "snake_case")]
pub enum DemandScaling {
    /// Pilot busiest-hour rate × production users ÷ pilot users.
    UserRatio {
        pilot_users: u32,
        production_users: u32,
    },
    /// A busiest-hour rate the assessor enters (from another source, e.g. a helpdesk's volumes).
    EnteredRate { arrival_rate_per_s: f64 },
}

/// Which measured context length sizes a session's KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextBasis {
    /// The 95th percentile of prompt + answer: most sessions fit, the longest 5 % may queue.
    P95,
    /// The longest request seen: every session fits.
    Max,
}

/// Production demand derived from a pilot's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProductionDemand {
    pub scaling: DemandScaling,
    /// The pilot's busiest-hour arrival rate.
    pub pilot_arrival_rate_per_s: f64,
    /// Production's busiest-hour arrival rate.
    pub arrival_rate_per_s: f64,
    /// `arrival_rate_per_s ÷ pilot_arrival_rate_per_s` (`None` when the pilot rate is 0).
    pub scale_factor: Option<f64>,
    pub prompt_tokens_p50: f64,
    pub prompt_tokens_p95: f64,
    pub completion_tokens_p50: f64,
    pub completion_tokens_p95: f64,
    /// Mean answer length: with a candidate's TPOT it gives the mean request time.
    pub completion_tokens_mean: f64,
    pub context_basis: ContextBasis,
    /// Context tokens one session needs in the KV cache (the chosen statistic, rounded up).
    pub context_tokens_per_session: u32,
}

impl ProductionDemand {
    /// Mean requests in flight on a candidate whose mean request time (start → last token) is
    /// `request_time_s`: production rate × request time (Little's law).
    pub fn in_flight_on(&self, request_time_s: f64) -> f64 {
        little::mean_in_flight(self.arrival_rate_per_s, request_time_s)
    }
}

/// Why production demand could not be derived.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProductionError {
    #[error("the number of pilot users must be at least 1")]
    NoPilotUsers,
    #[error("the entered arrival rate must be a positive number of requests per second")]
    InvalidRate,
    #[error("the pilot log has no successful requests, so no token lengths to carry over")]
    NoTokenLengths,
}

/// Production demand from a pilot profile, a scaling basis and a context statistic.
pub fn production_demand(
    profile: &DemandProfile,
    scaling: DemandScaling,
    context_basis: ContextBasis,
) -> Result<ProductionDemand, ProductionError> {
    let pilot_rate = profile.busiest_hour_arrivals_per_s;
    let arrival_rate_per_s = match scaling {
        DemandScaling::UserRatio {
            pilot_users,
            production_users,
        } => {
            if pilot_users == 0 {
                return Err(ProductionError::NoPilotUsers);
            }
            pilot_rate * f64::from(production_users) / f64::from(pilot_users)
        }
        DemandScaling::EnteredRate { arrival_rate_per_s } => {
            if !(arrival_rate_per_s.is_finite() && arrival_rate_per_s > 0.0) {
                return Err(ProductionError::InvalidRate);
            }
            arrival_rate_per_s
        }
    };
    let (Some(prompt), Some(completion), Some(context)) = (
        &profile.prompt_tokens,
        &profile.completion_tokens,
        &profile.context_tokens,
    ) else {
        return Err(ProductionError::NoTokenLengths);
    };
    let context_tokens_per_session = match context_basis {
        ContextBasis::P95 => context.p95.ceil() as u32,
        ContextBasis::Max => context.max,
    };
    Ok(ProductionDemand {
        scaling,
        pilot_arrival_rate_per_s: pilot_rate,
        arrival_rate_per_s,
        scale_factor: (pilot_rate > 0.0).then(|| arrival_rate_per_s / pilot_rate),
        prompt_tokens_p50: prompt.p50,
        prompt_tokens_p95: prompt.p95,
        completion_tokens_p50: completion.p50,
        completion_tokens_p95: completion.p95,
        completion_tokens_mean: completion.mean,
        context_basis,
        context_tokens_per_session,
    })
}

/// Mean request time on a candidate, seconds: TTFT + (answer tokens − 1) × TPOT, from a load
/// test's TTFT and TPOT (ms) on that candidate and the production answer length.
pub fn request_time_s(ttft_ms: f64, tpot_ms: f64, completion_tokens: f64) -> f64 {
    (ttft_ms + (completion_tokens - 1.0).max(0.0) * tpot_ms) / 1000.0
}
