//! A seeded, deterministic generator of pilot gateway traffic (for the demo pilot and benchmarks).
//!
//! It produces what a real pilot's gateway would log over a working week: a few dozen users who
//! work office hours (a morning peak, a lunch dip, an afternoon peak, a trickle at night and at
//! weekends), asking a chat model questions whose lengths are shaped like the ShareGPT-driven
//! benchmark in the seed report (V100 × 4, Qwen2.5-7B), which runs three prompt shapes:
//!
//! | share | shape | prompt tokens (median) | answer tokens (median) |
//! |---|---|---|---|
//! | 60 % | balanced chat | 558 | 256 |
//! | 25 % | long prompt, short answer (RAG, document Q&A) | 1,019 | 64 |
//! | 15 % | short prompt, long answer (drafting, code) | 127 | 512 |
//!
//! Lengths are log-normal around those medians (ShareGPT's lengths have long right tails),
//! prompts are capped so prompt + `max_tokens` fits the context limit, and answers that would
//! run past `max_tokens` stop there with `finish_reason = length`. Latencies follow the report's
//! gateway numbers: TTFT ≈ 100 ms gateway overhead + ≈ 40 ms + 0.05 ms per prompt token + a
//! queueing tail; TPOT ≈ 29 ms/token. About 0.4 % of requests fail, 0.2 % time out after 60 s
//! and 1.5 % are cancelled by their user part-way through the stream.
//!
//! Arrivals are a non-homogeneous Poisson process sampled by thinning, so records come out in
//! start order and the generator holds no state per request: any number of records streams in
//! constant memory. Randomness is a SplitMix64 stream from the seed (no `rand` dependency): the
//! same configuration always writes the same bytes. Hours are taken as UTC.

use super::generic::write_jsonl_line;
use super::record::{GatewayRecord, RequestStatus};
use std::io::{self, Write};

/// What traffic to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticConfig {
    pub seed: u64,
    /// Pilot users (each equally active on average).
    pub users: u32,
    /// Midnight (UTC) of the first day; day 0 is a Monday by convention.
    pub start_ms: i64,
    /// Days to generate; days 5 and 6 of each week are a weekend with almost no traffic.
    pub days: u32,
    /// Requests per user on a working day.
    pub requests_per_user_per_day: f64,
    pub model: String,
    /// Answers stop at this many tokens (`finish_reason = length`).
    pub max_tokens: u32,
    /// Prompt + answer never exceed this.
    pub context_limit: u32,
    /// Stop after this many records, even before the last day ends.
    pub max_requests: Option<u64>,
}

/// Midnight UTC of Monday 2 March 2026.
pub const DEFAULT_START_MS: i64 = 1_772_409_600_000;

impl SyntheticConfig {
    /// A working week (Monday to Friday) of 40 users making 30 requests each per day on
    /// `qwen2.5-7b-instruct` with an 8,192-token context and 1,024-token answers: about
    /// 6,000 requests.
    pub fn pilot_week(seed: u64) -> Self {
        SyntheticConfig {
            seed,
            users: 40,
            start_ms: DEFAULT_START_MS,
            days: 5,
            requests_per_user_per_day: 30.0,
            model: "qwen2.5-7b-instruct".to_owned(),
            max_tokens: 1_024,
            context_limit: 8_192,
            max_requests: None,
        }
    }

    /// A working week scaled to exactly `requests` records: the per-user rate is set so the
    /// week would hold about 2 % more, and generation stops at `requests`.
    pub fn with_requests(seed: u64, requests: u64) -> Self {
        let mut config = Self::pilot_week(seed);
        config.requests_per_user_per_day =
            requests as f64 * 1.02 / (f64::from(config.users) * f64::from(config.days));
        config.max_requests = Some(requests);
        config
    }

    /// Records of this configuration, in start order.
    pub fn records(&self) -> SyntheticTraffic {
        SyntheticTraffic::new(self.clone())
    }
}

/// Writes the configuration's records as generic JSON Lines; returns how many were written.
pub fn write_synthetic_jsonl<W: Write>(config: &SyntheticConfig, out: W) -> io::Result<u64> {
    let mut out = io::BufWriter::new(out);
    let mut written = 0;
    for record in config.records() {
        write_jsonl_line(&record, &mut out)?;
        written += 1;
    }
    out.flush()?;
    Ok(written)
}

/// Relative activity per hour of a working day (UTC), at the middle of each hour.
const HOURLY_WEIGHT: [f64; 24] = [
    0.01, 0.01, 0.01, 0.01, 0.01, 0.02, 0.05, 0.20, 0.60, 1.00, 1.00, 0.90, 0.50, 0.70, 1.00, 0.95,
    0.75, 0.45, 0.20, 0.10, 0.06, 0.04, 0.02, 0.01,
];
/// Weekend activity relative to a working day.
const WEEKEND_FACTOR: f64 = 0.03;
const DAY_MS: f64 = 86_400_000.0;
const HOUR_MS: f64 = 3_600_000.0;

/// The SplitMix64 generator: tiny, fast, and good enough for synthetic workloads.
#[derive(Clone, Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in (0, 1].
    fn uniform_open(&mut self) -> f64 {
        1.0 - self.uniform()
    }

    fn standard_normal(&mut self) -> f64 {
        let radius = (-2.0 * self.uniform_open().ln()).sqrt();
        radius * (std::f64::consts::TAU * self.uniform()).cos()
    }

    fn log_normal(&mut self, median: f64, sigma: f64) -> f64 {
        median * (sigma * self.standard_normal()).exp()
    }

    fn exponential(&mut self, rate: f64) -> f64 {
        -self.uniform_open().ln() / rate
    }
}

/// The generator as an iterator of records in start order (see the module docs).
#[derive(Clone, Debug)]
pub struct SyntheticTraffic {
    config: SyntheticConfig,
    rng: SplitMix64,
    /// Current time, ms since `start_ms` (fractional).
    t_ms: f64,
    end_ms: f64,
    /// Arrival rate at the busiest instant, per ms.
    peak_rate_per_ms: f64,
    /// Arrival rate per unit of hourly weight, per ms.
    rate_per_weight_per_ms: f64,
    emitted: u64,
}

impl SyntheticTraffic {
    pub fn new(config: SyntheticConfig) -> Self {
        let mean_weight = HOURLY_WEIGHT.iter().sum::<f64>() / 24.0;
        let per_day = f64::from(config.users) * config.requests_per_user_per_day.max(0.0);
        let rate_per_weight_per_ms = per_day / (mean_weight * DAY_MS);
        let peak_weight = HOURLY_WEIGHT.iter().copied().fold(0.0, f64::max);
        SyntheticTraffic {
            rng: SplitMix64(config.seed ^ 0x5EED_0F7A_FF1C),
            t_ms: 0.0,
            end_ms: f64::from(config.days) * DAY_MS,
            peak_rate_per_ms: rate_per_weight_per_ms * peak_weight,
            rate_per_weight_per_ms,
            emitted: 0,
            config,
        }
    }

    /// Activity weight at `t_ms` after the start: hourly weights interpolated linearly between
    /// hour middles, scaled down at weekends.
    fn weight_at(t_ms: f64) -> f64 {
        let day = (t_ms / DAY_MS).floor();
        let hour = (t_ms - day * DAY_MS) / HOUR_MS - 0.5;
        let lower = hour.floor();
        let frac = hour - lower;
        let at = |h: f64| HOURLY_WEIGHT[(h.rem_euclid(24.0)) as usize];
        let weight = at(lower) * (1.0 - frac) + at(lower + 1.0) * frac;
        if (day as i64).rem_euclid(7) >= 5 {
            weight * WEEKEND_FACTOR
        } else {
            weight
        }
    }

    fn next_arrival_ms(&mut self) -> Option<f64> {
        if self.peak_rate_per_ms <= 0.0 {
            return None;
        }
        loop {
            self.t_ms += self.rng.exponential(self.peak_rate_per_ms);
            if self.t_ms >= self.end_ms {
                return None;
            }
            let rate = Self::weight_at(self.t_ms) * self.rate_per_weight_per_ms;
            if self.rng.uniform() * self.peak_rate_per_ms < rate {
                return Some(self.t_ms);
            }
        }
    }

    fn request_at(&mut self, offset_ms: f64) -> GatewayRecord {
        let rng = &mut self.rng;
        let config = &self.config;
        let user = (rng.uniform() * f64::from(config.users.max(1))) as u32;
        let shape = rng.uniform();
        let (prompt_median, prompt_sigma, answer_median, answer_sigma) = if shape < 0.60 {
            (558.0, 0.6, 256.0, 0.5)
        } else if shape < 0.85 {
            (1_019.0, 0.5, 64.0, 0.6)
        } else {
            (127.0, 0.7, 512.0, 0.4)
        };
        let max_tokens = config.max_tokens.max(1);
        let prompt_cap = config.context_limit.saturating_sub(max_tokens).max(4);
        let prompt_tokens =
            (rng.log_normal(prompt_median, prompt_sigma).round() as u32).clamp(4, prompt_cap);
        let wanted_answer = (rng.log_normal(answer_median, answer_sigma).round() as u32).max(1);
        let (mut completion_tokens, mut finish_reason) = if wanted_answer >= max_tokens {
            (max_tokens, Some("length"))
        } else {
            (wanted_answer, Some("stop"))
        };

        let queueing_ms = rng.log_normal(8.0, 1.2);
        let ttft_ms = 100.0 + 40.0 + 0.05 * f64::from(prompt_tokens) + queueing_ms;
        let tpot_ms = (29.0 + 2.0 * rng.standard_normal()).max(20.0);
        let start_ms = config.start_ms + offset_ms.round() as i64;
        let mut first_token_ms = Some(start_ms + ttft_ms.round() as i64);
        let mut end_ms =
            start_ms + (ttft_ms + f64::from(completion_tokens - 1) * tpot_ms).round() as i64;
        let mut status = RequestStatus::Ok;
        let outcome = rng.uniform();
        if outcome < 0.004 {
            status = RequestStatus::Error;
            first_token_ms = None;
            end_ms = start_ms + rng.log_normal(300.0, 0.8).round() as i64;
            completion_tokens = 0;
            finish_reason = None;
        } else if outcome < 0.006 {
            status = RequestStatus::Timeout;
            first_token_ms = None;
            end_ms = start_ms + 60_000;
            completion_tokens = 0;
            finish_reason = None;
        } else if outcome < 0.021 {
            status = RequestStatus::Cancelled;
            completion_tokens = ((f64::from(completion_tokens) * rng.uniform()) as u32).max(1);
            end_ms =
                start_ms + (ttft_ms + f64::from(completion_tokens - 1) * tpot_ms).round() as i64;
            finish_reason = None;
        }
        self.emitted += 1;
        GatewayRecord {
            request_id: format!("req-{:08}-u{:03}", self.emitted, user),
            start_ms,
            first_token_ms,
            end_ms,
            model: config.model.clone(),
            prompt_tokens,
            completion_tokens,
            status,
            finish_reason: finish_reason.map(str::to_owned),
            detail: crate::traffic::LogDetail::default(),
        }
    }
}

impl Iterator for SyntheticTraffic {
    type Item = GatewayRecord;

    fn next(&mut self) -> Option<GatewayRecord> {
        if self
            .config
            .max_requests
            .is_some_and(|max| self.emitted >= max)
        {
            return None;
        }
        let offset_ms = self.next_arrival_ms()?;
        Some(self.request_at(offset_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::timestamp::{OffsetRule, format_rfc3339_ms, parse_rfc3339};

    #[test]
    fn default_start_is_monday_midnight() {
        assert_eq!(
            parse_rfc3339("2026-03-02T00:00:00Z", OffsetRule::Required),
            Ok(DEFAULT_START_MS)
        );
    }

    #[test]
    fn same_seed_same_traffic_and_starts_in_order() {
        let a: Vec<_> = SyntheticConfig::pilot_week(7).records().take(500).collect();
        let b: Vec<_> = SyntheticConfig::pilot_week(7).records().take(500).collect();
        assert_eq!(a, b);
        assert!(a.windows(2).all(|w| w[0].start_ms <= w[1].start_ms));
        let c: Vec<_> = SyntheticConfig::pilot_week(8).records().take(500).collect();
        assert_ne!(a, c);
    }

    #[test]
    fn a_pilot_week_looks_like_a_pilot_week() {
        let config = SyntheticConfig::pilot_week(42);
        let records: Vec<_> = config.records().collect();
        // 40 users × 30 requests × 5 days = 6,000 expected
        assert!((5_500..6_500).contains(&records.len()), "{}", records.len());
        let last_end = records.iter().map(|r| r.end_ms).max().unwrap();
        assert!(last_end < DEFAULT_START_MS + 5 * 86_400_000 + 120_000);
        let office_hours = records
            .iter()
            .filter(|r| {
                let hour = (r.start_ms - DEFAULT_START_MS).rem_euclid(86_400_000) / 3_600_000;
                (8..18).contains(&hour)
            })
            .count();
        assert!(office_hours as f64 > 0.8 * records.len() as f64);
        let truncated = records.iter().filter(|r| r.is_truncated()).count();
        assert!(
            truncated > 0 && truncated < records.len() / 10,
            "{truncated}"
        );
        for r in &records {
            assert!(r.prompt_tokens + r.completion_tokens <= config.context_limit);
            assert!(r.end_ms >= r.start_ms);
            if let Some(first) = r.first_token_ms {
                assert!(r.start_ms <= first && first <= r.end_ms, "{r:?}");
            }
        }
        let statuses = |s| records.iter().filter(|r| r.status == s).count();
        assert!(statuses(RequestStatus::Cancelled) > 30);
        assert!(statuses(RequestStatus::Error) > 5);
        assert!(statuses(RequestStatus::Timeout) > 2);
    }

    #[test]
    fn with_requests_stops_at_the_count() {
        assert_eq!(
            SyntheticConfig::with_requests(1, 2_345).records().count(),
            2_345
        );
    }

    #[test]
    fn writes_generic_json_lines() {
        let mut config = SyntheticConfig::pilot_week(3);
        config.max_requests = Some(3);
        let mut out = Vec::new();
        assert_eq!(write_synthetic_jsonl(&config, &mut out).unwrap(), 3);
        let text = String::from_utf8(out).unwrap();
        let first = text.lines().next().unwrap();
        let record = config.records().next().unwrap();
        assert!(first.starts_with(&format!(
            "{{\"request_id\":\"{}\",\"start_time\":\"{}\"",
            record.request_id,
            format_rfc3339_ms(record.start_ms)
        )));
        assert_eq!(text.lines().count(), 3);
    }
}
