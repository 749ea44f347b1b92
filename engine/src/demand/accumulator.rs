//! The accumulator that turns a stream of records into a [`DemandProfile`] in bounded memory.
//!
//! What is kept per request, and why:
//!
//! | kept | bytes | for |
//! |---|---|---|
//! | start and end (`Interval`, 2 × i64) | 16 | busiest hour, in-flight sweep, arrivals per minute, Little's law |
//! | E2E of a successful request (u32 ms) | 4 | exact E2E percentiles |
//! | TTFT (u32 ms) and TPOT (u32 µs/token) when the log has first-token times | 8 | exact TTFT / TPOT percentiles (TPOT to the microsecond) |
//!
//! So at most 28 bytes per request (vectors grow by doubling, so up to twice that in capacity,
//! and the global latency percentiles briefly copy the 12 latency bytes at the end). Measured
//! on the synthetic pilot traffic streamed from a file (`examples/gateway_profile.rs`, release
//! build): 34 MB peak resident memory for the whole process at one million requests, 65 MB at
//! two million. Everything else is bounded independently of the count:
//! token lengths go into exact [`ValueCounts`] (≤ 128 KiB per distribution, three per model),
//! outcome counters per model, and the sweep's heap holds only the requests in flight at once.

use super::profile::{
    ArrivalSeries, DemandProfile, GatewayLatency, ModelDemand, Outcomes, Timestamp,
    TokenDistribution,
};
use crate::stats::{
    Interval, LittleCheck, Percentiles, SweepOptions, ValueCounts, busiest_window, sweep_in_flight,
};
use crate::traffic::{
    GatewayError, GatewayRecord, ImportSummary, ReadOptions, RequestStatus, read_gateway_log,
};
use std::collections::HashMap;
use std::io::BufRead;
use thiserror::Error;

/// Length of the busiest window: one hour.
pub const BUSIEST_WINDOW_MS: i64 = 3_600_000;

/// Presentation choices for the profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DemandOptions {
    /// About how many bars each token histogram should have.
    pub token_histogram_bins: usize,
    /// At most this many points in the in-flight curve.
    pub in_flight_curve_points: usize,
}

impl Default for DemandOptions {
    fn default() -> Self {
        DemandOptions {
            token_histogram_bins: 40,
            in_flight_curve_points: 720,
        }
    }
}

/// Why no profile could be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DemandError {
    #[error("the log holds no requests")]
    NoRequests,
}

/// Collects records (in any order) and builds the profile at the end; see the module docs for
/// the memory it needs.
#[derive(Clone, Debug, Default)]
pub struct DemandAccumulator {
    options: DemandOptions,
    intervals: Vec<Interval>,
    models: Vec<ModelAccumulator>,
    model_index: HashMap<String, usize>,
}

#[derive(Clone, Debug, Default)]
struct ModelAccumulator {
    name: String,
    outcomes: Counts,
    duration_sum_ms: i128,
    prompt: ValueCounts,
    completion: ValueCounts,
    context: ValueCounts,
    ttft_ms: Vec<u32>,
    tpot_us: Vec<u32>,
    e2e_ms: Vec<u32>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    requests: u64,
    ok: u64,
    failed: u64,
    timed_out: u64,
    cancelled: u64,
    truncated: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.requests += other.requests;
        self.ok += other.ok;
        self.failed += other.failed;
        self.timed_out += other.timed_out;
        self.cancelled += other.cancelled;
        self.truncated += other.truncated;
    }

    fn outcomes(&self) -> Outcomes {
        let share = |n: u64, of: u64| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        Outcomes {
            requests: self.requests,
            ok: self.ok,
            failed: self.failed,
            timed_out: self.timed_out,
            cancelled: self.cancelled,
            truncated: self.truncated,
            failure_rate: share(self.failed, self.requests),
            timeout_rate: share(self.timed_out, self.requests),
            cancellation_rate: share(self.cancelled, self.requests),
            truncation_rate: share(self.truncated, self.ok),
        }
    }
}

fn clamp_ms(ms: i64) -> u32 {
    ms.clamp(0, i64::from(u32::MAX)) as u32
}

impl DemandAccumulator {
    pub fn new(options: DemandOptions) -> Self {
        DemandAccumulator {
            options,
            ..Default::default()
        }
    }

    /// Requests added so far.
    pub fn requests(&self) -> u64 {
        self.intervals.len() as u64
    }

    /// Adds one request.
    pub fn add(&mut self, record: &GatewayRecord) {
        self.intervals.push(Interval {
            start_ms: record.start_ms,
            end_ms: record.end_ms.max(record.start_ms),
        });
        let index = match self.model_index.get(record.model.as_str()) {
            Some(&i) => i,
            None => {
                self.models.push(ModelAccumulator {
                    name: record.model.clone(),
                    ..Default::default()
                });
                self.model_index
                    .insert(record.model.clone(), self.models.len() - 1);
                self.models.len() - 1
            }
        };
        let model = &mut self.models[index];
        model.outcomes.requests += 1;
        model.duration_sum_ms += i128::from(record.e2e_ms().max(0));
        match record.status {
            RequestStatus::Ok => {}
            RequestStatus::Error => model.outcomes.failed += 1,
            RequestStatus::Timeout => model.outcomes.timed_out += 1,
            RequestStatus::Cancelled => model.outcomes.cancelled += 1,
        }
        if record.status != RequestStatus::Ok {
            return;
        }
        model.outcomes.ok += 1;
        if record.is_truncated() {
            model.outcomes.truncated += 1;
        }
        model.prompt.add(record.prompt_tokens);
        model.completion.add(record.completion_tokens);
        model.context.add(record.context_tokens());
        model.e2e_ms.push(clamp_ms(record.e2e_ms()));
        if let Some(ttft) = record.ttft_ms() {
            model.ttft_ms.push(clamp_ms(ttft));
        }
        if let Some(tpot) = record.tpot_ms() {
            model
                .tpot_us
                .push((tpot * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32);
        }
    }

    /// Streams a whole log into the accumulator (call once per file when a pilot's log is split
    /// over several). On an error the accumulator holds part of the file: discard it.
    pub fn add_log<R: BufRead>(
        &mut self,
        reader: R,
        options: &ReadOptions,
        on_progress: impl FnMut(u64),
    ) -> Result<ImportSummary, GatewayError> {
        read_gateway_log(reader, options, |record| self.add(&record), on_progress)
    }

    /// Builds the profile. `Err(NoRequests)` when nothing was added.
    pub fn finish(mut self) -> Result<DemandProfile, DemandError> {
        if self.intervals.is_empty() {
            return Err(DemandError::NoRequests);
        }
        let bins = self.options.token_histogram_bins;
        self.intervals.sort_unstable_by_key(|i| i.start_ms);
        let intervals = &self.intervals;

        let busiest =
            busiest_window(intervals, BUSIEST_WINDOW_MS).ok_or(DemandError::NoRequests)?;
        let in_flight = sweep_in_flight(
            intervals,
            SweepOptions {
                window: Some((busiest.start_ms, busiest.end_ms)),
                curve_max_points: self.options.in_flight_curve_points,
            },
        )
        .ok_or(DemandError::NoRequests)?;
        let busiest_rate = busiest.arrivals as f64 / (BUSIEST_WINDOW_MS as f64 / 1000.0);
        let busiest_duration_ms: i128 = intervals[busiest.first..busiest.last_exclusive]
            .iter()
            .map(|i| i128::from(i.duration_ms()))
            .sum();
        let busiest_mean_s = busiest_duration_ms as f64 / busiest.arrivals.max(1) as f64 / 1000.0;
        let mean_in_flight_busiest_hour = in_flight.window_mean.unwrap_or(0.0);

        let mut totals = Counts::default();
        let mut duration_sum_ms = 0i128;
        let (mut prompt, mut completion, mut context) =
            (ValueCounts::new(), ValueCounts::new(), ValueCounts::new());
        for model in &self.models {
            totals.add(&model.outcomes);
            duration_sum_ms += model.duration_sum_ms;
            prompt.merge(&model.prompt);
            completion.merge(&model.completion);
            context.merge(&model.context);
        }
        let requests = totals.requests;
        let gateway_latency = GatewayLatency {
            ttft_ms: percentiles_of(self.models.iter().map(|m| m.ttft_ms.as_slice())),
            tpot_ms: percentiles_of(self.models.iter().map(|m| m.tpot_us.as_slice()))
                .map(|p| p.scaled(0.001)),
            e2e_ms: percentiles_of(self.models.iter().map(|m| m.e2e_ms.as_slice())),
        };

        let mut models: Vec<ModelDemand> = self
            .models
            .iter_mut()
            .map(|m| ModelDemand {
                model: m.name.clone(),
                share_of_requests: m.outcomes.requests as f64 / requests as f64,
                outcomes: m.outcomes.outcomes(),
                mean_duration_s: m.duration_sum_ms as f64
                    / m.outcomes.requests.max(1) as f64
                    / 1000.0,
                prompt_tokens: distribution(&m.prompt, bins),
                completion_tokens: distribution(&m.completion, bins),
                context_tokens: distribution(&m.context, bins),
                gateway_latency: GatewayLatency {
                    ttft_ms: Percentiles::from_unsorted(&mut m.ttft_ms),
                    tpot_ms: Percentiles::from_unsorted(&mut m.tpot_us).map(|p| p.scaled(0.001)),
                    e2e_ms: Percentiles::from_unsorted(&mut m.e2e_ms),
                },
            })
            .collect();
        models.sort_by(|a, b| {
            b.outcomes
                .requests
                .cmp(&a.outcomes.requests)
                .then_with(|| a.model.cmp(&b.model))
        });

        Ok(DemandProfile {
            outcomes: totals.outcomes(),
            first_start: Timestamp::from_unix_ms(in_flight.span_start_ms),
            last_end: Timestamp::from_unix_ms(in_flight.span_end_ms),
            observed_span_s: (in_flight.span_end_ms - in_flight.span_start_ms) as f64 / 1000.0,
            busiest_hour_start: Timestamp::from_unix_ms(busiest.start_ms),
            busiest_hour_arrivals: busiest.arrivals,
            busiest_hour_arrivals_per_s: busiest_rate,
            peak_in_flight: in_flight.peak,
            peak_in_flight_at: Timestamp::from_unix_ms(in_flight.peak_at_ms),
            mean_in_flight: in_flight.mean,
            mean_in_flight_busiest_hour,
            in_flight_seconds_by_level: in_flight
                .time_at_level_ms
                .iter()
                .map(|&ms| ms as f64 / 1000.0)
                .collect(),
            mean_duration_s: duration_sum_ms as f64 / requests as f64 / 1000.0,
            prompt_tokens: distribution(&prompt, bins),
            completion_tokens: distribution(&completion, bins),
            context_tokens: distribution(&context, bins),
            gateway_latency,
            littles_law: LittleCheck::new(
                busiest_rate,
                busiest_mean_s,
                mean_in_flight_busiest_hour,
            ),
            arrivals_per_minute: arrivals_per_minute(intervals),
            in_flight_curve: in_flight.curve,
            models,
        })
    }
}

/// Percentiles over several models' values together (copied once into one sorted vector).
fn percentiles_of<'a, T>(parts: impl Iterator<Item = &'a [T]>) -> Option<Percentiles>
where
    T: Copy + Into<f64> + PartialOrd + 'a,
{
    let mut all: Vec<T> = Vec::new();
    for part in parts {
        all.extend_from_slice(part);
    }
    Percentiles::from_unsorted(&mut all)
}

fn distribution(counts: &ValueCounts, bins: usize) -> Option<TokenDistribution> {
    Some(TokenDistribution {
        count: counts.count(),
        mean: counts.mean()?,
        p50: counts.quantile(0.50)?,
        p95: counts.quantile(0.95)?,
        p99: counts.quantile(0.99)?,
        max: counts.max()?,
        histogram: counts.histogram(bins),
    })
}

/// Arrivals per UTC minute from the first arrival's minute to the last's.
fn arrivals_per_minute(sorted: &[Interval]) -> ArrivalSeries {
    const MINUTE_MS: i64 = 60_000;
    let start_ms = sorted
        .first()
        .map_or(0, |i| i.start_ms.div_euclid(MINUTE_MS) * MINUTE_MS);
    let last_ms = sorted.last().map_or(0, |i| i.start_ms);
    let mut counts = vec![0u32; ((last_ms - start_ms) / MINUTE_MS + 1) as usize];
    for interval in sorted {
        let slot = ((interval.start_ms - start_ms) / MINUTE_MS) as usize;
        counts[slot] = counts[slot].saturating_add(1);
    }
    ArrivalSeries {
        start_ms,
        step_ms: MINUTE_MS,
        counts,
    }
}
