//! The accumulator that turns a stream of records into a [`DemandProfile`] in memory that does
//! not grow with the log's length.
//!
//! Nothing is kept per request for the whole log. What is kept, and why:
//!
//! | kept | bytes | bounded by | for |
//! |---|---|---|---|
//! | reorder buffer (start, end) | 16 per request | `reorder_buffer_records` (65,536) or the requests started within `reorder_window_ms` (1 h) of the latest, whichever is more | putting starts in order for the sweep |
//! | pending ends (min-heap) | 8 per request | requests in flight at once | the exact in-flight sweep |
//! | last hour's arrivals (start, duration, cumulative in-flight area) | 24 per request | the arrivals of one hour (the busiest hour's volume) | busiest hour, its exact mean in flight and Little's law |
//! | arrivals per minute, in-flight curve buckets, time at each level | 264 per 64 minutes holding an arrival; ≤ 2 × `in_flight_curve_points` buckets; 8 per level | the arrivals and the log's duration, the curve's points, the peak | the charts and the level table |
//! | TTFT, TPOT, E2E of successful requests (u32 µs) | 4 per value up to 65,536 values per distribution, then ≈ 18 KiB | 256 KiB per distribution (per model and, at the end, for all models) | exact percentiles up to 65,536 values, then ±0.5 % ([`crate::stats::sketch`]) |
//! | token lengths ([`ValueCounts`]) | ≤ 128 KiB per distribution | the largest length and 64 bytes per value counted | exact token distributions (three per model) |
//!
//! Measured on the synthetic pilot traffic streamed from a file (`examples/gateway_profile.rs`,
//! release build, `/usr/bin/time -v`, three runs each), peak resident memory of the whole
//! process: 5.4–5.6 MB at one million requests (one week); 5.4–5.6 MB at two million over twice
//! the time (two weeks at the same rate: flat); 5.9–6.1 MB (+9 %) at two million in the same
//! week, whose busiest hour holds twice the requests (48,006 instead of 23,999: the last hour's
//! arrivals are the one part that grows with the load). The accumulator's own buffers peak at
//! 2.0, 2.1 and 2.8 MB in those runs (`heap_bytes`, also printed by `benches/traffic.rs`). Before
//! streaming, when every interval and latency was kept (28 bytes per request), the same runs
//! peaked at 34, 65 and 65 MB. Throughput is unchanged within the noise of a shared machine
//! (0.7–0.95 million records/s either way); every figure but the sketched latency percentiles
//! is identical to before on those logs.
//!
//! **Hostile logs.** Nothing above is sized by the log's time span alone: a log of two requests
//! eight millennia apart (which the readers refuse anyway, see [`crate::traffic::timestamp`])
//! profiles in a few tens of KB. The arrivals series keeps one point per minute up to 16 points
//! per request (at least a day's worth, at most 65,536 points) and is coarsened beyond that to
//! 5, 15 or 30 minutes, hours, days or weeks; [`ArrivalSeries::step_ms`] states the step.
//!
//! **Order.** Records may come in any order while the whole log fits the reorder buffer, and
//! beyond that roughly in time order: a gateway writes each record at the request's start or
//! end, so a start is late by at most one request's duration, well inside the one-hour window.
//! A record whose start is older than what the sweep has already passed is counted in
//! [`DemandProfile::late_records`] and swept from where the sweep stands: the profile then says
//! its time figures are approximate (see [`crate::stats::stream`]). Several files feed one
//! accumulator best oldest first. Outcomes, durations, token lengths and latencies never depend
//! on the order.

use super::profile::{
    ArrivalSeries, DemandProfile, GatewayLatency, LatencyRelativeError, ModelDemand, Outcomes,
    Timestamp, TokenDistribution,
};
use crate::stats::{
    BoundedValues, EXACT_VALUES_LIMIT, InFlightStream, Interval, LittleCheck, Percentiles,
    StreamOptions, ValueCounts,
};
use crate::traffic::{
    GatewayError, GatewayRecord, ImportSummary, ReadOptions, RequestStatus, default_workers,
    read_gateway_log_parallel,
};
use std::collections::HashMap;
use std::io::BufRead;
use thiserror::Error;

/// Length of the busiest window: one hour.
pub const BUSIEST_WINDOW_MS: i64 = 3_600_000;

/// Presentation choices for the profile, and how much disorder in the log is absorbed exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DemandOptions {
    /// About how many bars each token histogram should have.
    pub token_histogram_bins: usize,
    /// At most this many points in the in-flight curve.
    pub in_flight_curve_points: usize,
    /// Reorder window: a request is swept once its start is this much older than the latest
    /// start seen (and the buffer is full, below). Gateway logs written in end order put a start
    /// late by one request's duration; the default, one hour, is above any timeout.
    pub reorder_window_ms: i64,
    /// Requests the reorder buffer holds before it releases any: a log of up to this many
    /// requests is profiled exactly in any order (16 bytes each).
    pub reorder_buffer_records: usize,
    /// Latency values kept per distribution before it switches to a ±0.5 % sketch.
    pub exact_latency_values: usize,
}

impl Default for DemandOptions {
    fn default() -> Self {
        DemandOptions {
            token_histogram_bins: 40,
            in_flight_curve_points: 720,
            reorder_window_ms: 3_600_000,
            reorder_buffer_records: 65_536,
            exact_latency_values: EXACT_VALUES_LIMIT,
        }
    }
}

/// Why no profile could be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DemandError {
    #[error("the log holds no requests")]
    NoRequests,
}

/// Collects records and builds the profile at the end; see the module docs for the memory it
/// needs and for the order records should come in.
#[derive(Clone, Debug)]
pub struct DemandAccumulator {
    options: DemandOptions,
    requests: u64,
    in_flight: InFlightStream,
    models: Vec<ModelAccumulator>,
    model_index: HashMap<String, usize>,
}

impl Default for DemandAccumulator {
    fn default() -> Self {
        Self::new(DemandOptions::default())
    }
}

#[derive(Clone, Debug, Default)]
struct ModelAccumulator {
    name: String,
    outcomes: Counts,
    duration_sum_ms: i128,
    prompt: ValueCounts,
    completion: ValueCounts,
    context: ValueCounts,
    ttft_us: BoundedValues,
    tpot_us: BoundedValues,
    e2e_us: BoundedValues,
    speed: SpeedSum,
}

/// The running sum of per-request output speeds (1000 ÷ TPOT, tok/s), for their mean. Kept in
/// whole micro-tokens per second, so the sum is exact and the same in any order the records
/// arrive (the parallel reader, several files, a shuffled log all give the same profile).
#[derive(Clone, Copy, Debug, Default)]
struct SpeedSum {
    micro_tokens_per_s: u128,
    count: u64,
}

impl SpeedSum {
    fn add(&mut self, tpot_us: u32) {
        if tpot_us > 0 {
            self.micro_tokens_per_s += 1_000_000_000_000 / u128::from(tpot_us);
            self.count += 1;
        }
    }

    fn merged(self, other: SpeedSum) -> SpeedSum {
        SpeedSum {
            micro_tokens_per_s: self.micro_tokens_per_s + other.micro_tokens_per_s,
            count: self.count + other.count,
        }
    }

    fn mean(self) -> Option<f64> {
        (self.count > 0).then(|| self.micro_tokens_per_s as f64 / 1e6 / self.count as f64)
    }
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

/// A latency in ms (at the log's own precision) as whole microseconds, never negative.
fn micros(ms: f64) -> u64 {
    (ms * 1000.0).round().max(0.0) as u64
}

impl DemandAccumulator {
    pub fn new(options: DemandOptions) -> Self {
        DemandAccumulator {
            options,
            requests: 0,
            in_flight: InFlightStream::new(StreamOptions {
                reorder_window_ms: options.reorder_window_ms,
                reorder_buffer_records: options.reorder_buffer_records,
                busiest_window_ms: BUSIEST_WINDOW_MS,
                curve_max_points: options.in_flight_curve_points,
                arrival_step_ms: MINUTE_MS,
            }),
            models: Vec::new(),
            model_index: HashMap::new(),
        }
    }

    /// Requests added so far.
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// Requests so far that came too late to be placed exactly (see
    /// [`DemandProfile::late_records`]).
    pub fn late_records(&self) -> u64 {
        self.in_flight.late_records()
    }

    /// Bytes held by the accumulator's buffers, counters and kept latencies (capacity; the
    /// model names and the map are left out). For memory accounting in docs and tests.
    pub fn heap_bytes(&self) -> usize {
        self.in_flight.heap_bytes()
            + self
                .models
                .iter()
                .map(|m| {
                    m.prompt.heap_bytes()
                        + m.completion.heap_bytes()
                        + m.context.heap_bytes()
                        + m.ttft_us.heap_bytes()
                        + m.tpot_us.heap_bytes()
                        + m.e2e_us.heap_bytes()
                })
                .sum::<usize>()
    }

    /// Adds one request.
    pub fn add(&mut self, record: &GatewayRecord) {
        self.requests += 1;
        self.in_flight.push(Interval {
            start_ms: record.start_ms,
            end_ms: record.end_ms.max(record.start_ms),
        });
        let index = match self.model_index.get(record.model.as_str()) {
            Some(&i) => i,
            None => {
                let limit = self.options.exact_latency_values;
                self.models.push(ModelAccumulator {
                    name: record.model.clone(),
                    ttft_us: BoundedValues::new(limit),
                    tpot_us: BoundedValues::new(limit),
                    e2e_us: BoundedValues::new(limit),
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
        // Microseconds, at the log's own precision (LiteLLM's float seconds), not the
        // difference of two instants each rounded to the millisecond.
        model.e2e_us.add(micros(record.e2e_ms_exact()));
        if let Some(ttft) = record.ttft_ms_exact() {
            model.ttft_us.add(micros(ttft));
        }
        if let Some(tpot) = record.tpot_ms() {
            let tpot_us = (tpot * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32;
            model.tpot_us.add(tpot_us);
            model.speed.add(tpot_us);
        }
    }

    /// Streams a whole log into the accumulator (call once per file when a pilot's log is split
    /// over several, preferably oldest file first). On an error the accumulator holds part of
    /// the file: discard it. JSON logs are converted on the machine's cores
    /// ([`crate::traffic::parallel`]); the records arrive here in file order all the same.
    pub fn add_log<R: BufRead + Send>(
        &mut self,
        reader: R,
        options: &ReadOptions,
        on_progress: impl FnMut(u64),
    ) -> Result<ImportSummary, GatewayError> {
        read_gateway_log_parallel(
            reader,
            options,
            default_workers(),
            |record| self.add(&record),
            on_progress,
        )
    }

    /// Builds the profile. `Err(NoRequests)` when nothing was added.
    pub fn finish(mut self) -> Result<DemandProfile, DemandError> {
        if self.requests == 0 {
            return Err(DemandError::NoRequests);
        }
        let bins = self.options.token_histogram_bins;
        let summary = self.in_flight.finish().ok_or(DemandError::NoRequests)?;
        let in_flight = summary.in_flight;
        let busiest = summary.busiest;
        let busiest_rate = busiest.arrivals as f64 / (BUSIEST_WINDOW_MS as f64 / 1000.0);
        let busiest_mean_s =
            busiest.duration_sum_ms as f64 / busiest.arrivals.max(1) as f64 / 1000.0;
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
        let limit = self.options.exact_latency_values;
        let speed = self
            .models
            .iter()
            .fold(SpeedSum::default(), |a, m| a.merged(m.speed));
        let gateway_latency = latency(
            &mut BoundedValues::combined(self.models.iter().map(|m| &m.ttft_us), limit),
            &mut BoundedValues::combined(self.models.iter().map(|m| &m.tpot_us), limit),
            &mut BoundedValues::combined(self.models.iter().map(|m| &m.e2e_us), limit),
            speed,
        );

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
                gateway_latency: latency(&mut m.ttft_us, &mut m.tpot_us, &mut m.e2e_us, m.speed),
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
            arrivals_per_minute: ArrivalSeries {
                start_ms: summary.arrivals_start_ms,
                step_ms: summary.arrival_step_ms,
                counts: summary.arrivals,
            },
            in_flight_curve: in_flight.curve,
            models,
            late_records: summary.late_records,
        })
    }
}

const MINUTE_MS: i64 = 60_000;

/// Percentile summaries of TTFT, TPOT and E2E (each kept in µs, shown in ms, so LiteLLM's
/// sub-millisecond latencies survive), with how exact each is.
fn latency(
    ttft_us: &mut BoundedValues,
    tpot_us: &mut BoundedValues,
    e2e_us: &mut BoundedValues,
    speed: SpeedSum,
) -> GatewayLatency {
    GatewayLatency {
        ttft_ms: ttft_us.percentiles().map(in_ms),
        tpot_ms: tpot_us.percentiles().map(|p| p.scaled(0.001)),
        e2e_ms: e2e_us.percentiles().map(in_ms),
        output_speed_mean_tokens_per_s: speed.mean(),
        relative_error: LatencyRelativeError {
            ttft_ms: ttft_us.relative_error(),
            tpot_ms: tpot_us.relative_error(),
            e2e_ms: e2e_us.relative_error(),
        },
    }
}

/// Percentiles of µs in ms, divided (not multiplied by 0.001), so 614454 µs reads 614.454 ms.
fn in_ms(us: Percentiles) -> Percentiles {
    let ms = |v: f64| v / 1000.0;
    Percentiles {
        count: us.count,
        mean: ms(us.mean),
        min: ms(us.min),
        p50: ms(us.p50),
        p90: ms(us.p90),
        p95: ms(us.p95),
        p99: ms(us.p99),
        max: ms(us.max),
    }
}

fn distribution(counts: &ValueCounts, bins: usize) -> Option<TokenDistribution> {
    let p95 = counts.quantile(0.95)?;
    Some(TokenDistribution {
        count: counts.count(),
        mean: counts.mean()?,
        p50: counts.quantile(0.50)?,
        p95,
        p99: counts.quantile(0.99)?,
        max: counts.max()?,
        above_p95: Some(counts.count_above(p95)),
        histogram: counts.histogram(bins),
    })
}
