//! From the pilot's demand to production's: scale the arrival rate, carry the token lengths.
//!
//! What carries over from a pilot to production is demand: the arrival rate at the busiest hour
//! and the prompt and answer lengths. What does not is the pilot's concurrency: the number of
//! requests in flight depends on how long each one takes, which belongs to the pilot's GPU,
//! engine and settings. A slower pilot shows more requests in flight for the same traffic. So
//! [`ProductionDemand`] deliberately has no concurrency of the pilot in it; the concurrency a
//! candidate will see is its own request time × the production rate (Little's law), computed per
//! candidate with [`ProductionDemand::in_flight_on`].
//!
//! **Whole sessions.** The context a session is sized for is also vLLM's `--max-model-len`, and
//! vLLM refuses a request longer than that outright. Sized at the p95 of prompt + answer, the
//! longest 5 % of the pilot's requests would be refused in production, not queued. So production
//! sizes whole sessions ([`ContextBasis::WholeSession`]): the longest request measured in the
//! gateway log or the plan's context per request, whichever is larger. Any lower figure shown
//! beside it (the p95) says how many measured requests are longer ([`MeasuredContext`]).

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

/// Which measured context length sizes a session's KV cache (and vLLM's `--max-model-len`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextBasis {
    /// The 95th percentile of prompt + answer: as `--max-model-len`, vLLM refuses the longest
    /// 5 % (see [`MeasuredContext::longer_than_p95`]).
    P95,
    /// The longest request seen: every measured session fits.
    Max,
    /// The longest request seen or the plan's context per request, whichever is larger: every
    /// measured session and every planned one fits. The production default.
    WholeSession,
}

/// The measured context per request (prompt + answer) behind the sized figure, so a lower figure
/// shown beside it can say how many requests it leaves out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasuredContext {
    /// Successful requests measured.
    pub requests: u64,
    pub p95_tokens: f64,
    pub max_tokens: u32,
    /// Requests longer than the p95, exact (`None` for profiles stored before it was counted).
    pub longer_than_p95: Option<u64>,
    /// The plan's context per request, when it states one.
    pub plan_tokens: Option<u32>,
}

impl MeasuredContext {
    /// `p95 1,910 tokens; 5.0 % of requests (300) are longer; the longest 5,845`.
    pub fn tail_sentence(&self) -> String {
        let longer = match self.longer_than_p95 {
            Some(n) if self.requests > 0 => format!(
                "{:.1} % of requests ({}) are longer",
                n as f64 / self.requests as f64 * 100.0,
                crate::format::thousands(n)
            ),
            _ => "about 5 % of requests are longer".to_string(),
        };
        format!(
            "p95 {} tokens; {longer}; the longest {}",
            crate::format::thousands(self.p95_tokens.ceil() as u64),
            crate::format::thousands(u64::from(self.max_tokens))
        )
    }
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
    /// What was measured behind it (absent when built by hand).
    #[serde(default)]
    pub measured_context: Option<MeasuredContext>,
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

/// Production demand from a pilot profile, a scaling basis and a context statistic (no plan
/// context: [`ContextBasis::WholeSession`] then sizes the longest measured request).
pub fn production_demand(
    profile: &DemandProfile,
    scaling: DemandScaling,
    context_basis: ContextBasis,
) -> Result<ProductionDemand, ProductionError> {
    production_demand_for(profile, scaling, context_basis, None)
}

/// [`production_demand`] with the plan's context per request, which
/// [`ContextBasis::WholeSession`] takes when it is larger than the longest measured request.
pub fn production_demand_for(
    profile: &DemandProfile,
    scaling: DemandScaling,
    context_basis: ContextBasis,
    plan_context_tokens: Option<u32>,
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
    let plan_tokens = plan_context_tokens.filter(|t| *t > 0);
    let context_tokens_per_session = match context_basis {
        ContextBasis::P95 => context.p95.ceil() as u32,
        ContextBasis::Max => context.max,
        ContextBasis::WholeSession => context.max.max(plan_tokens.unwrap_or(0)),
    };
    let measured_context = MeasuredContext {
        requests: context.count,
        p95_tokens: context.p95,
        max_tokens: context.max,
        longer_than_p95: context.above_p95,
        plan_tokens,
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
        measured_context: Some(measured_context),
    })
}

/// Mean request time on a candidate, seconds: TTFT + (answer tokens − 1) × TPOT, from a load
/// test's TTFT and TPOT (ms) on that candidate and the production answer length.
pub fn request_time_s(ttft_ms: f64, tpot_ms: f64, completion_tokens: f64) -> f64 {
    (ttft_ms + (completion_tokens - 1.0).max(0.0) * tpot_ms) / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demand::{DemandOptions, profile_gateway_log};
    use crate::traffic::ReadOptions;

    /// 100 requests of 100, 200, …, 10,000 context tokens (prompt + 50-token answer).
    fn profile() -> DemandProfile {
        let mut log = String::new();
        for i in 1..=100u32 {
            let start = 1_700_000_000.0 + f64::from(i) * 10.0;
            log.push_str(&format!(
                r#"{{"request_id":"r{i}","start_time":{start},"first_token_time":{},"end_time":{},"model":"m","prompt_tokens":{},"completion_tokens":50,"status":"ok","finish_reason":"stop"}}"#,
                start + 0.2,
                start + 2.0,
                i * 100 - 50
            ));
            log.push('\n');
        }
        profile_gateway_log(
            log.as_bytes(),
            &ReadOptions::new("ladder.jsonl"),
            DemandOptions::default(),
            |_| {},
        )
        .unwrap()
        .0
    }

    const SCALE: DemandScaling = DemandScaling::UserRatio {
        pilot_users: 10,
        production_users: 100,
    };

    #[test]
    fn whole_sessions_take_the_longest_request_or_the_plan_whichever_is_larger() {
        let p = profile();
        let whole = production_demand_for(&p, SCALE, ContextBasis::WholeSession, None).unwrap();
        assert_eq!(whole.context_tokens_per_session, 10_000);
        let planned =
            production_demand_for(&p, SCALE, ContextBasis::WholeSession, Some(16_384)).unwrap();
        assert_eq!(planned.context_tokens_per_session, 16_384);
        let below =
            production_demand_for(&p, SCALE, ContextBasis::WholeSession, Some(4_096)).unwrap();
        assert_eq!(below.context_tokens_per_session, 10_000);
        // p95 of 100 … 10,000 by 100 is 9,505: 5 requests (9,600 … 10,000) are longer.
        let p95 = production_demand(&p, SCALE, ContextBasis::P95).unwrap();
        assert_eq!(p95.context_tokens_per_session, 9_505);
        let measured = p95.measured_context.unwrap();
        assert_eq!(measured.longer_than_p95, Some(5));
        assert_eq!(
            measured.tail_sentence(),
            "p95 9,505 tokens; 5.0 % of requests (5) are longer; the longest 10,000"
        );
    }
}
