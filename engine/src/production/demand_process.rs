//! Production demand as an arrival process: the pilot's busiest hour, grown to production, and
//! the sessions that process puts in flight.
//!
//! # Why a process, not a stacked bound
//!
//! The sessions to hold were once the pilot's peak ÷ mean in flight × the growth factor × the
//! slowest request a plan allows × the longest request: every factor a worst case, and the
//! product a worst case of worst cases (59 sessions on the demo, where the production rate puts
//! about 14 in flight at its p99). Bursts do not grow with the traffic: ten times the users are
//! ten independent streams of requests, and their sum is smoother than any one of them. So
//! production demand is simulated:
//!
//! * **With a gateway log**, the pilot's busiest hour ([`BusiestHour::from_gateway`]: the
//!   sliding 60 minutes holding the most starts) is **superposed**: ⌊growth⌋ copies of it, each
//!   shifted in time by its own random offset (wrapping around the hour), plus one copy
//!   **thinned** to the fractional rest (each request kept with that probability); growth below
//!   one thins a single copy. Every request keeps its own prompt and answer lengths and its own
//!   measured duration, so the pilot's length distribution and its bursts within a user's
//!   work survive, and only the coincidence of independent streams is new.
//! * **Without a log**, Poisson arrivals at the production rate, lengths drawn from the
//!   measured distribution ([`Workload`]), durations from the given service times.
//!
//! The hour is treated as periodic (a request running past its end continues at its start), so
//! there is no empty warm-up, and [`DEFAULT_HOURS`] independent hours are simulated. The
//! in-flight count is swept over each hour (time-weighted); its p50 and p99 are the sessions.
//!
//! # Cross-checks shown beside it
//!
//! * **Little's law**: mean in flight = rate × mean duration. The simulation's time-weighted mean
//!   must agree (it does exactly, up to the sampling of durations).
//! * **Poisson**: with Poisson arrivals and any durations the count in flight is Poisson
//!   distributed with Little's mean (M/G/∞), so its p99 is a closed-form figure. A replayed log
//!   well above it says the pilot's traffic is burstier than independent users.
//!
//! Deterministic: the seeded [`Rng`] of the twin; the same input gives the same sessions.

use crate::demand::{DemandProfile, TokenDistribution};
use crate::traffic::{GatewayRecord, RequestStatus};
use crate::twin::rng::Rng;
use crate::twin::{TimedRequest, TokenLengths, Workload};
use serde::{Deserialize, Serialize};

/// The length of the simulated period, ms: one hour, as the busiest hour is taken.
pub const HOUR_MS: f64 = 3_600_000.0;

/// Independent production hours simulated for the sessions in flight.
pub const DEFAULT_HOURS: u32 = 20;

/// One successful request of the pilot's busiest hour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedRequest {
    /// Start, ms after the hour began.
    pub offset_ms: f64,
    /// Start to last token as the gateway measured it, ms.
    pub duration_ms: f64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
}

/// The pilot's busiest hour, as logged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BusiestHour {
    /// Start of the hour, ms since the Unix epoch.
    pub start_ms: i64,
    /// Successful requests that started in it, in start order.
    pub requests: Vec<LoggedRequest>,
}

impl BusiestHour {
    /// The 60 minutes (sliding, not clock hours) holding the most successful request starts;
    /// `None` when the log has no successful request with token counts.
    pub fn from_gateway(records: &[GatewayRecord]) -> Option<BusiestHour> {
        let mut ok: Vec<&GatewayRecord> = records
            .iter()
            .filter(|r| r.status == RequestStatus::Ok && r.prompt_tokens > 0)
            .collect();
        ok.sort_by_key(|r| r.start_ms);
        let first = *ok.first()?;
        let hour = HOUR_MS as i64;
        let (mut best_start, mut best_count, mut tail) = (first.start_ms, 0, 0);
        for head in 0..ok.len() {
            while ok[head].start_ms - ok[tail].start_ms >= hour {
                tail += 1;
            }
            if head + 1 - tail > best_count {
                best_count = head + 1 - tail;
                best_start = ok[tail].start_ms;
            }
        }
        Some(BusiestHour::starting_at(ok.iter().copied(), best_start))
    }

    /// The successful requests with token counts that start in the hour from `start_ms` (the
    /// demand profile's busiest hour, whose start the profile keeps while the records are not).
    pub fn starting_at<'a>(
        records: impl IntoIterator<Item = &'a GatewayRecord>,
        start_ms: i64,
    ) -> BusiestHour {
        let hour = HOUR_MS as i64;
        let mut requests: Vec<LoggedRequest> = records
            .into_iter()
            .filter(|r| r.status == RequestStatus::Ok && r.prompt_tokens > 0)
            .filter(|r| r.start_ms >= start_ms && r.start_ms - start_ms < hour)
            .map(|r| LoggedRequest {
                offset_ms: (r.start_ms - start_ms) as f64,
                duration_ms: r.e2e_ms().max(0) as f64,
                prompt_tokens: r.prompt_tokens,
                output_tokens: r.completion_tokens.max(1),
            })
            .collect();
        requests.sort_by(|a, b| a.offset_ms.total_cmp(&b.offset_ms));
        BusiestHour { start_ms, requests }
    }

    /// Arrivals per second over the hour.
    pub fn rate_per_s(&self) -> f64 {
        self.requests.len() as f64 / (HOUR_MS / 1000.0)
    }

    /// Mean measured duration, s.
    pub fn mean_duration_s(&self) -> f64 {
        mean(self.requests.iter().map(|r| r.duration_ms / 1000.0))
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// How long each production request stays in flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ServiceTimes {
    /// Each replayed request as long as it took in the pilot (Poisson arrivals without a log
    /// cannot use this and take the mean of nothing: zero).
    AsLogged,
    /// Every request this long, s.
    Fixed { seconds: f64 },
    /// Drawn uniformly from these, s.
    Observed { seconds: Vec<f64> },
}

impl ServiceTimes {
    /// The busiest hour's mean request time by Little's law (mean in flight ÷ arrival rate), the
    /// profile's mean duration when the hour has none.
    pub fn from_profile(profile: &DemandProfile) -> ServiceTimes {
        let rate = profile.busiest_hour_arrivals_per_s;
        let seconds = if rate > 0.0 && profile.mean_in_flight_busiest_hour > 0.0 {
            profile.mean_in_flight_busiest_hour / rate
        } else {
            profile.mean_duration_s
        };
        ServiceTimes::Fixed {
            seconds: positive(seconds),
        }
    }

    fn draw(&self, logged_ms: f64, rng: &mut Rng) -> f64 {
        match self {
            ServiceTimes::AsLogged => logged_ms,
            ServiceTimes::Fixed { seconds } => seconds * 1000.0,
            ServiceTimes::Observed { seconds } if !seconds.is_empty() => {
                let i = (rng.unit() * seconds.len() as f64) as usize;
                seconds[i.min(seconds.len() - 1)] * 1000.0
            }
            ServiceTimes::Observed { .. } => 0.0,
        }
    }
}

/// A measured token distribution as one to draw from: a piecewise-linear quantile function
/// through 1 token at probability 0, the p50, p95 and p99, and the maximum at 1.
pub fn lengths_from_distribution(d: &TokenDistribution) -> TokenLengths {
    let mut knots = vec![(0.0, 1.0), (0.5, d.p50), (0.95, d.p95), (0.99, d.p99)];
    knots.push((1.0, f64::from(d.max)));
    for i in 1..knots.len() {
        if !(knots[i].1.is_finite()) || knots[i].1 < knots[i - 1].1 {
            knots[i].1 = knots[i - 1].1;
        }
    }
    TokenLengths::Quantiles { knots }
}

/// Where the production arrivals come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ArrivalBasis {
    /// The pilot's busiest hour, superposed and thinned to the production rate.
    Replayed,
    /// Poisson arrivals at the production rate (no gateway log).
    Poisson,
}

/// Production demand as an arrival process (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DemandProcess {
    /// The pilot's busiest-hour arrival rate, req/s.
    pub pilot_rate_per_s: f64,
    /// Production rate ÷ pilot rate (the plan's growth).
    pub growth: f64,
    /// The pilot's busiest hour; `None`: Poisson.
    pub busiest_hour: Option<BusiestHour>,
    /// Prompt and answer lengths for Poisson arrivals (a replay keeps each request's own).
    pub workload: Workload,
    pub seed: u64,
}

impl DemandProcess {
    /// Replays the pilot's busiest hour grown by `growth`.
    pub fn replayed(hour: BusiestHour, growth: f64, seed: u64) -> Self {
        let lengths = |pick: fn(&LoggedRequest) -> u32| {
            TokenLengths::observed(hour.requests.iter().map(pick).collect())
                .unwrap_or(TokenLengths::fixed(1))
        };
        let workload = Workload {
            prompt_tokens: lengths(|r| r.prompt_tokens),
            output_tokens: lengths(|r| r.output_tokens),
        };
        DemandProcess {
            pilot_rate_per_s: hour.rate_per_s(),
            growth,
            busiest_hour: Some(hour),
            workload,
            seed,
        }
    }

    /// Poisson at `pilot_rate_per_s × growth`, lengths from `workload`.
    pub fn poisson(pilot_rate_per_s: f64, growth: f64, workload: Workload, seed: u64) -> Self {
        DemandProcess {
            pilot_rate_per_s,
            growth,
            busiest_hour: None,
            workload,
            seed,
        }
    }

    /// Poisson at the profile's busiest-hour rate × `growth`, lengths from its prompt and answer
    /// distributions ([`lengths_from_distribution`]): the process when the gateway records are no
    /// longer at hand. `None` without token lengths.
    pub fn from_profile(profile: &DemandProfile, growth: f64, seed: u64) -> Option<Self> {
        let workload = Workload {
            prompt_tokens: lengths_from_distribution(profile.prompt_tokens.as_ref()?),
            output_tokens: lengths_from_distribution(profile.completion_tokens.as_ref()?),
        };
        Some(DemandProcess::poisson(
            profile.busiest_hour_arrivals_per_s,
            growth,
            workload,
            seed,
        ))
    }

    /// The production arrival rate, req/s.
    pub fn rate_per_s(&self) -> f64 {
        positive(self.pilot_rate_per_s) * positive(self.growth)
    }

    pub fn basis(&self) -> ArrivalBasis {
        match &self.busiest_hour {
            Some(h) if !h.requests.is_empty() => ArrivalBasis::Replayed,
            _ => ArrivalBasis::Poisson,
        }
    }

    /// The same process at another growth factor.
    pub fn with_growth(&self, growth: f64) -> Self {
        DemandProcess {
            growth,
            ..self.clone()
        }
    }

    /// Production hour number `hour` (0, 1, …): its requests in start order, each with the
    /// duration it keeps in flight under `service`, ms.
    pub fn hour(&self, hour: u32, service: &ServiceTimes) -> Vec<(TimedRequest, f64)> {
        let mut rng = Rng::seeded(self.seed ^ (u64::from(hour) + 1).wrapping_mul(0x9E37_79B9));
        let mut out = match (&self.busiest_hour, self.basis()) {
            (Some(logged), ArrivalBasis::Replayed) => {
                superposed(logged, positive(self.growth), service, &mut rng)
            }
            _ => self.poisson_hour(service, &mut rng),
        };
        out.sort_by(|a, b| a.0.at_ms.total_cmp(&b.0.at_ms));
        out
    }

    /// Requests of the first `hours` production hours laid end to end, ms from the first hour's
    /// start: the arrivals a candidate is simulated under (no durations: the candidate decides).
    pub fn arrivals(&self, hours: u32, limit: usize) -> Vec<TimedRequest> {
        let mut out = Vec::new();
        for h in 0..hours.max(1) {
            let offset = f64::from(h) * HOUR_MS;
            for (r, _) in self.hour(h, &ServiceTimes::AsLogged) {
                if out.len() >= limit {
                    return out;
                }
                out.push(TimedRequest {
                    at_ms: r.at_ms + offset,
                    ..r
                });
            }
        }
        out
    }

    fn poisson_hour(&self, service: &ServiceTimes, rng: &mut Rng) -> Vec<(TimedRequest, f64)> {
        let rate = self.rate_per_s();
        let mut out = Vec::new();
        if rate <= 0.0 {
            return out;
        }
        let mean_gap_ms = 1000.0 / rate;
        let mut t = rng.exponential(mean_gap_ms);
        while t < HOUR_MS {
            let request = TimedRequest {
                at_ms: t,
                prompt_tokens: self.workload.prompt_tokens.sample(rng),
                output_tokens: self.workload.output_tokens.sample(rng),
            };
            out.push((request, service.draw(0.0, rng)));
            t += rng.exponential(mean_gap_ms);
        }
        out
    }
}

fn positive(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 { v } else { 0.0 }
}

/// ⌊growth⌋ randomly shifted copies of the hour plus one thinned to the rest (module docs).
fn superposed(
    hour: &BusiestHour,
    growth: f64,
    service: &ServiceTimes,
    rng: &mut Rng,
) -> Vec<(TimedRequest, f64)> {
    let whole = growth.floor() as u32;
    let rest = growth - f64::from(whole);
    let mut out = Vec::with_capacity(hour.requests.len() * (whole as usize + 1));
    for copy in 0..=whole {
        let keep = if copy < whole { 1.0 } else { rest };
        if keep <= 0.0 {
            continue;
        }
        let shift = rng.unit() * HOUR_MS;
        for r in &hour.requests {
            if keep < 1.0 && rng.unit() >= keep {
                continue;
            }
            let request = TimedRequest {
                at_ms: (r.offset_ms + shift) % HOUR_MS,
                prompt_tokens: r.prompt_tokens,
                output_tokens: r.output_tokens,
            };
            out.push((request, service.draw(r.duration_ms, rng)));
        }
    }
    out
}

/// Time-weighted in-flight counts of one periodic hour: `time[n]` = ms spent with `n` in flight.
fn in_flight_histogram(requests: &[(TimedRequest, f64)]) -> Vec<f64> {
    let mut base = 0usize;
    let mut events: Vec<(f64, i32)> = Vec::with_capacity(requests.len() * 4);
    for (r, duration) in requests {
        let d = duration.max(0.0);
        let wraps = (d / HOUR_MS).floor();
        base += wraps as usize;
        let rest = d - wraps * HOUR_MS;
        let (start, end) = (r.at_ms, r.at_ms + rest);
        if end <= HOUR_MS {
            events.extend([(start, 1), (end, -1)]);
        } else {
            events.extend([(start, 1), (HOUR_MS, -1), (0.0, 1), (end - HOUR_MS, -1)]);
        }
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut time = vec![0.0; base + 1];
    let (mut level, mut at) = (base as i64, 0.0);
    for (t, delta) in events {
        let n = level.max(0) as usize;
        if n >= time.len() {
            time.resize(n + 1, 0.0);
        }
        time[n] += t - at;
        at = t;
        level += i64::from(delta);
    }
    let n = level.max(0) as usize;
    if n >= time.len() {
        time.resize(n + 1, 0.0);
    }
    time[n] += HOUR_MS - at;
    time
}

/// The smallest count whose cumulative time share reaches `q`.
fn histogram_quantile(time: &[f64], q: f64) -> u32 {
    let total: f64 = time.iter().sum();
    let mut seen = 0.0;
    for (n, t) in time.iter().enumerate() {
        seen += t;
        if seen >= q * total - 1e-9 {
            return n as u32;
        }
    }
    time.len().saturating_sub(1) as u32
}

/// The `q` quantile of a Poisson distribution with `mean`: the pmf summed from 10 standard
/// deviations below the mean (the mass below is negligible), the first term from Stirling's
/// series so large means do not underflow.
pub fn poisson_quantile(mean: f64, q: f64) -> u32 {
    if !(mean.is_finite() && mean > 0.0) {
        return 0;
    }
    let start = (mean - 10.0 * mean.sqrt()).floor().max(0.0) as u32;
    let k0 = f64::from(start);
    let ln_factorial = if start < 2 {
        0.0
    } else {
        k0 * k0.ln() - k0 + 0.5 * (std::f64::consts::TAU * k0).ln() + 1.0 / (12.0 * k0)
    };
    let mut p = (k0 * mean.ln() - mean - ln_factorial).exp();
    let mut cumulative = p;
    let mut k = start;
    while cumulative < q && k < start + 1_000_000 {
        k += 1;
        p *= mean / f64::from(k);
        cumulative += p;
    }
    k
}

/// The sessions production puts in flight, with the cross-checks (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionsInFlight {
    /// Median of the simulated in-flight count (time-weighted).
    pub p50: u32,
    /// 99th percentile of the simulated in-flight count: the sessions to hold.
    pub p99: u32,
    /// Most in flight at any instant of the simulated hours.
    pub peak: u32,
    /// Time-weighted mean of the simulation.
    pub mean: f64,
    pub basis: ArrivalBasis,
    /// Little's law: rate × mean duration.
    pub little_mean: f64,
    /// p99 of Poisson(Little's mean): what independent users would put in flight.
    pub poisson_p99: u32,
    /// Mean duration of a request, s.
    pub mean_duration_s: f64,
    pub hours_simulated: u32,
}

/// Simulates `hours` production hours of `process` with `service` durations and sweeps the
/// count in flight (module docs).
pub fn sessions_in_flight(
    process: &DemandProcess,
    service: &ServiceTimes,
    hours: u32,
) -> SessionsInFlight {
    let hours = hours.max(1);
    let mut time: Vec<f64> = Vec::new();
    let (mut duration_sum, mut requests) = (0.0, 0usize);
    for h in 0..hours {
        let hour = process.hour(h, service);
        duration_sum += hour.iter().map(|(_, d)| d).sum::<f64>();
        requests += hour.len();
        for (n, t) in in_flight_histogram(&hour).into_iter().enumerate() {
            if n >= time.len() {
                time.resize(n + 1, 0.0);
            }
            time[n] += t;
        }
    }
    let total: f64 = time.iter().sum();
    let mean = if total > 0.0 {
        time.iter()
            .enumerate()
            .map(|(n, t)| n as f64 * t)
            .sum::<f64>()
            / total
    } else {
        0.0
    };
    let mean_duration_s = if requests > 0 {
        duration_sum / requests as f64 / 1000.0
    } else {
        0.0
    };
    let little_mean = process.rate_per_s() * mean_duration_s;
    SessionsInFlight {
        p50: histogram_quantile(&time, 0.50),
        p99: histogram_quantile(&time, 0.99),
        peak: time.iter().rposition(|t| *t > 0.0).unwrap_or(0) as u32,
        mean,
        basis: process.basis(),
        little_mean,
        poisson_p99: poisson_quantile(little_mean, 0.99),
        mean_duration_s,
        hours_simulated: hours,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::SyntheticConfig;

    fn pilot_week() -> Vec<GatewayRecord> {
        SyntheticConfig::pilot_week(7).records().collect()
    }

    #[test]
    fn the_busiest_hour_is_the_sliding_hour_with_the_most_starts() {
        let records = pilot_week();
        let hour = BusiestHour::from_gateway(&records).unwrap();
        let starts: Vec<i64> = records
            .iter()
            .filter(|r| r.status == RequestStatus::Ok && r.prompt_tokens > 0)
            .map(|r| r.start_ms)
            .collect();
        let most = starts
            .iter()
            .map(|s| {
                starts
                    .iter()
                    .filter(|t| **t >= *s && **t < s + 3_600_000)
                    .count()
            })
            .max()
            .unwrap();
        assert_eq!(hour.requests.len(), most);
        assert!(hour.requests.iter().all(|r| r.offset_ms < HOUR_MS));
    }

    /// The demo-like case of issue #19: a bursty pilot (peak ÷ busiest-hour mean in flight far
    /// above 1) grown ten times. The stacked bound multiplies the burst by the growth; the
    /// superposed log stays near what independent users put in flight.
    #[test]
    fn ten_times_the_pilot_puts_about_the_poisson_figure_in_flight_not_the_stacked_bound() {
        let records = pilot_week();
        let mut log = Vec::new();
        crate::traffic::write_synthetic_jsonl(&SyntheticConfig::pilot_week(7), &mut log).unwrap();
        let (profile, _) = crate::demand::profile_gateway_log(
            log.as_slice(),
            &crate::traffic::ReadOptions::new("week.jsonl"),
            crate::demand::DemandOptions::default(),
            |_| {},
        )
        .unwrap();
        let peak_to_mean = profile.peak_in_flight as f64 / profile.mean_in_flight_busiest_hour;
        assert!(peak_to_mean > 4.0, "{peak_to_mean}");
        let hour = BusiestHour::from_gateway(&records).unwrap();
        let process = DemandProcess::replayed(hour.clone(), 10.0, 1);
        let sessions = sessions_in_flight(&process, &ServiceTimes::AsLogged, DEFAULT_HOURS);
        let stacked = (profile.mean_in_flight_busiest_hour * 10.0 * peak_to_mean).ceil() as u32;
        eprintln!(
            "pilot {:.3} req/s, {:.1} s per request, peak/mean {peak_to_mean:.2}; production \
             {:.2} req/s: sessions p50 {} p99 {} (peak {}), Little {:.1}, Poisson p99 {}, \
             stacked {stacked}",
            hour.rate_per_s(),
            hour.mean_duration_s(),
            process.rate_per_s(),
            sessions.p50,
            sessions.p99,
            sessions.peak,
            sessions.little_mean,
            sessions.poisson_p99
        );
        assert_eq!(sessions.basis, ArrivalBasis::Replayed);
        assert!((sessions.mean - sessions.little_mean).abs() < 0.02 * sessions.little_mean);
        let poisson = f64::from(sessions.poisson_p99);
        assert!(
            (f64::from(sessions.p99) - poisson).abs() <= 0.3 * poisson,
            "{sessions:?}"
        );
        assert!(
            f64::from(stacked) > 2.0 * f64::from(sessions.p99),
            "{stacked} {sessions:?}"
        );
    }

    #[test]
    fn a_profile_alone_gives_poisson_arrivals_near_the_replayed_figure() {
        let records = pilot_week();
        let mut log = Vec::new();
        crate::traffic::write_synthetic_jsonl(&SyntheticConfig::pilot_week(7), &mut log).unwrap();
        let (profile, _) = crate::demand::profile_gateway_log(
            log.as_slice(),
            &crate::traffic::ReadOptions::new("week.jsonl"),
            crate::demand::DemandOptions::default(),
            |_| {},
        )
        .unwrap();
        let poisson = DemandProcess::from_profile(&profile, 10.0, 1).unwrap();
        let from_profile = sessions_in_flight(
            &poisson,
            &ServiceTimes::from_profile(&profile),
            DEFAULT_HOURS,
        );
        let hour = BusiestHour::from_gateway(&records).unwrap();
        let replayed = sessions_in_flight(
            &DemandProcess::replayed(hour, 10.0, 1),
            &ServiceTimes::AsLogged,
            DEFAULT_HOURS,
        );
        assert_eq!(from_profile.basis, ArrivalBasis::Poisson);
        assert!(
            from_profile.p99.abs_diff(replayed.p99) <= 2,
            "{from_profile:?} {replayed:?}"
        );
        let prompts = poisson.workload.prompt_tokens.mean();
        let measured = profile.prompt_tokens.as_ref().unwrap().mean;
        assert!(
            (prompts - measured).abs() < 0.25 * measured,
            "{prompts} vs {measured}"
        );
    }

    #[test]
    fn demo_numbers_give_about_fourteen_sessions() {
        // Issue #19's demo: production 0.9 req/s (10 × the pilot's busiest hour), requests of
        // 7.7 s: Little 6.9 in flight; Poisson p99 14; the stacked bound said 59.
        let process = DemandProcess::poisson(0.09, 10.0, Workload::fixed(558, 256), 3);
        let sessions = sessions_in_flight(
            &process,
            &ServiceTimes::Fixed { seconds: 7.7 },
            DEFAULT_HOURS,
        );
        assert_eq!(sessions.basis, ArrivalBasis::Poisson);
        assert_eq!(sessions.poisson_p99, 14);
        assert!((13..=15).contains(&sessions.p99), "{sessions:?}");
        assert!((sessions.little_mean - 6.93).abs() < 0.01, "{sessions:?}");
    }

    #[test]
    fn growth_below_one_thins_and_the_same_seed_repeats() {
        let hour = BusiestHour::from_gateway(&pilot_week()).unwrap();
        let half = DemandProcess::replayed(hour.clone(), 0.5, 9);
        let n = half.hour(0, &ServiceTimes::AsLogged).len() as f64;
        let logged = hour.requests.len() as f64;
        assert!((n - logged / 2.0).abs() < 0.2 * logged, "{n} of {logged}");
        assert_eq!(
            sessions_in_flight(&half, &ServiceTimes::AsLogged, 3),
            sessions_in_flight(&half, &ServiceTimes::AsLogged, 3)
        );
    }

    #[test]
    fn the_poisson_quantile_matches_known_values() {
        assert_eq!(poisson_quantile(6.93, 0.99), 14);
        assert_eq!(poisson_quantile(1.0, 0.5), 1);
        assert_eq!(poisson_quantile(0.0, 0.99), 0);
        // About 1000 + 2.326 × √1000 = 1073.6.
        assert!((1072..=1076).contains(&poisson_quantile(1000.0, 0.99)));
    }

    #[test]
    fn a_request_longer_than_the_hour_wraps_around() {
        let r = TimedRequest {
            at_ms: 3_000_000.0,
            prompt_tokens: 1,
            output_tokens: 1,
        };
        let time = in_flight_histogram(&[(r, HOUR_MS + 1_200_000.0)]);
        // Always at least one; two during the 1,200 s the remainder overlaps.
        assert_eq!(time.len(), 3);
        assert!(
            (time[2] - 1_200_000.0).abs() < 1e-6 && time[0] == 0.0,
            "{time:?}"
        );
    }
}
