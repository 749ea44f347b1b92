//! The in-flight sweep and the busiest window in one pass over a stream of intervals, in memory
//! that does not grow with the stream's length.
//!
//! [`super::sweep_in_flight`] and [`super::busiest_window`] need every interval sorted by start.
//! [`InFlightStream`] computes the same numbers (peak and when, time-weighted means, time at
//! each level, the down-sampled curve, the busiest window with its mean in flight and the mean
//! duration of its arrivals, arrivals per step) while the intervals are pushed one by one:
//!
//! * **Reorder buffer.** Logs are written roughly in time order (by start, or by end, which puts
//!   a start late by at most one request's duration). Pushed intervals wait in a buffer ordered
//!   by start (a FIFO for those already in order, a min-heap for the others) and are released,
//!   in start order, once the buffer holds more than
//!   `reorder_buffer_records` *and* their start is at least `reorder_window_ms` older than the
//!   latest start seen. A stream of up to `reorder_buffer_records` intervals is therefore exact
//!   in any order, and a longer one whose starts are out of order by less than the window.
//! * **Late intervals.** An interval whose start is older than the last one released can no
//!   longer be placed: it is counted in `late_records` and swept as if it had started at the
//!   last released start (same end). The figures are then approximate (in-flight slightly low
//!   before that instant, the arrival counted a little later); with no late interval they are
//!   exactly those of the batch functions on the sorted intervals.
//! * **Sweep.** Released starts are processed in order; pending ends wait in a min-heap and are
//!   processed first when not after the next start (the tie rule of [`super::sweep`]: a request
//!   ending at the instant another starts has left).
//! * **Busiest window.** A deque of the arrivals of the last window (start, duration and the
//!   cumulative in-flight area at the start). A window `[a, a + width)` closes as soon as the
//!   sweep reaches `a + width`: its arrivals are the deque, its area is the cumulative area there
//!   minus the one at `a`, exact. Windows start at arrivals and close in start order, so the
//!   first strictly better one is kept (ties go to the earliest, as in [`super::window`]).
//! * **Curve.** The chart's step depends on the final span, unknown until the end. Buckets are
//!   kept at the greatest common divisor of every round step still possible for the span seen so
//!   far (merged as the span grows), so the final step is always a whole number of buckets:
//!   at most about twice as many buckets as curve points. Beyond a week per point (a log longer
//!   than `curve_max_points` weeks), the step is a power-of-two number of weeks, where the batch
//!   sweep uses an arbitrary step; that keeps the buckets within twice the points for any span.
//! * **Arrivals per step.** Counted in blocks of [`ARRIVAL_BLOCK`] steps, a block kept only when
//!   an arrival falls in it, so quiet stretches cost nothing. At the end the series is laid out
//!   densely at `arrival_step_ms`, or, when that would take more than [`arrival_max_points`]
//!   points for the arrivals seen (at most 16 per arrival, at least a day of minutes, never more
//!   than [`ARRIVAL_MAX_POINTS`]), at the first coarser step of [`ARRIVAL_STEP_FACTORS`] that fits;
//!   [`StreamSummary::arrival_step_ms`] says which. Two requests eight millennia apart therefore
//!   make a 1,440-point series, not billions of minutes.
//!
//! Instants are clamped to ±[`INSTANT_LIMIT_MS`] (±285,000 years) so that no difference of two
//! of them overflows; the importers refuse anything outside 2000–2100 long before.
//!
//! Memory: the reorder buffer (16 bytes per interval: the larger of `reorder_buffer_records` and
//! the starts within the window), the ends in flight (8 bytes each), the busiest-window deque
//! (24 bytes per arrival of the last window), arrival blocks (264 bytes per block holding an
//! arrival: bounded by the arrivals and by the stream's duration), curve buckets (at most about
//! twice the curve's points), and the time at each level (bounded by the peak). None of it grows
//! with the time span alone.

use super::sweep::{CURVE_STEPS_MS, InFlight, InFlightCurve, Interval, curve_step_ms};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

const WEEK_MS: i64 = 604_800_000;

/// Instants are clamped to ± this (2^53 ms, about 285,000 years): differences never overflow.
pub const INSTANT_LIMIT_MS: i64 = 1 << 53;

/// Arrival counts are kept in blocks of this many steps.
pub const ARRIVAL_BLOCK: usize = 64;

/// The arrival series never has more points than this (45 days of minutes).
pub const ARRIVAL_MAX_POINTS: usize = 65_536;

/// Coarser arrival steps, as multiples of `arrival_step_ms`, each a multiple of the one before
/// (with minutes: 5, 15 and 30 minutes, 1, 3, 6 and 12 hours, a day, a week); beyond the last,
/// the step doubles.
pub const ARRIVAL_STEP_FACTORS: [i64; 10] = [1, 5, 15, 30, 60, 180, 360, 720, 1_440, 10_080];

/// Most points the arrival series may have for `arrivals` arrivals: 16 per arrival, at least
/// 1,440 (a day of minutes), at most [`ARRIVAL_MAX_POINTS`].
pub fn arrival_max_points(arrivals: u64) -> usize {
    usize::try_from(arrivals.saturating_mul(16))
        .unwrap_or(usize::MAX)
        .clamp(1_440, ARRIVAL_MAX_POINTS)
}

/// What the stream computes and how much disorder it absorbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamOptions {
    /// An interval is released once its start is this much older than the latest start seen…
    pub reorder_window_ms: i64,
    /// …and the buffer holds more than this many intervals.
    pub reorder_buffer_records: usize,
    /// Width of the busiest window (at least 1 ms).
    pub busiest_window_ms: i64,
    /// Upper limit on the points of the in-flight curve (at least 1).
    pub curve_max_points: usize,
    /// Step of the arrival counts (at least 1 ms).
    pub arrival_step_ms: i64,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions {
            reorder_window_ms: 3_600_000,
            reorder_buffer_records: 65_536,
            busiest_window_ms: 3_600_000,
            curve_max_points: 720,
            arrival_step_ms: 60_000,
        }
    }
}

/// The busiest window of a stream (see [`super::BusiestWindow`] for the definition).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamedWindow {
    pub start_ms: i64,
    /// `start_ms + width` (exclusive).
    pub end_ms: i64,
    /// Intervals that started inside the window.
    pub arrivals: u64,
    /// Sum of those intervals' durations, ms.
    pub duration_sum_ms: i128,
    /// In-flight area over the window, request·ms (÷ width = its time-weighted mean in flight).
    pub area: i128,
}

/// Everything the stream computed.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamSummary {
    /// As [`super::sweep_in_flight`] returns it, with `window_mean` over the busiest window.
    pub in_flight: InFlight,
    pub busiest: StreamedWindow,
    /// `arrivals[i]` intervals started in `[arrivals_start_ms + i × arrival_step_ms, … +
    /// arrival_step_ms)`, from the first start's step to the last's.
    pub arrivals_start_ms: i64,
    /// The options' `arrival_step_ms`, or a coarser step when the series would otherwise be
    /// too long for the arrivals it counts (see the module docs).
    pub arrival_step_ms: i64,
    pub arrivals: Vec<u32>,
    /// Intervals that came after the sweep had passed their start (see the module docs); 0
    /// means every figure is exact.
    pub late_records: u64,
}

#[derive(Clone, Copy, Debug)]
struct Arrival {
    start_ms: i64,
    duration_ms: i64,
    /// Cumulative in-flight area at the start, request·ms, wrapped to 64 bits (differences of
    /// a window's width are exact).
    area_at_start: i64,
}

/// Curve buckets at a resolution that divides every step still possible.
#[derive(Clone, Debug, Default)]
struct FineCurve {
    origin_ms: i64,
    resolution_ms: i64,
    max: Vec<u32>,
    area: Vec<i128>,
}

impl FineCurve {
    fn add(&mut self, from: i64, to: i64, level: u64) {
        let res = self.resolution_ms;
        let last = ((to - 1 - self.origin_ms) / res) as usize;
        if last >= self.max.len() {
            self.max.resize(last + 1, 0);
            self.area.resize(last + 1, 0);
        }
        let weight = i128::from(level);
        let level_u32 = u32::try_from(level).unwrap_or(u32::MAX);
        let mut i = ((from - self.origin_ms) / res) as usize;
        while i <= last {
            let bucket_from = self.origin_ms + i as i64 * res;
            let overlap = to.min(bucket_from + res) - from.max(bucket_from);
            if overlap > 0 {
                self.area[i] += weight * i128::from(overlap);
                self.max[i] = self.max[i].max(level_u32);
            }
            i += 1;
        }
    }

    /// Merges buckets into a coarser resolution (a multiple of the current one).
    fn coarsen(&mut self, resolution_ms: i64) {
        if resolution_ms <= self.resolution_ms {
            return;
        }
        let origin_ms = self.origin_ms.div_euclid(resolution_ms) * resolution_ms;
        let mut max = Vec::new();
        let mut area = Vec::new();
        for (i, (&m, &a)) in self.max.iter().zip(&self.area).enumerate() {
            let at = self.origin_ms + i as i64 * self.resolution_ms;
            let j = ((at - origin_ms) / resolution_ms) as usize;
            if j >= max.len() {
                max.resize(j + 1, 0);
                area.resize(j + 1, 0);
            }
            max[j] = max[j].max(m);
            area[j] += a;
        }
        *self = FineCurve {
            origin_ms,
            resolution_ms,
            max,
            area,
        };
    }

    fn into_curve(self, span_start_ms: i64, span_end_ms: i64, step_ms: i64) -> InFlightCurve {
        let start_ms = span_start_ms.div_euclid(step_ms) * step_ms;
        let points = ((span_end_ms - start_ms) / step_ms + 1) as usize;
        let mut max = vec![0u32; points];
        let mut area = vec![0i128; points];
        for (i, (&m, &a)) in self.max.iter().zip(&self.area).enumerate() {
            let at = self.origin_ms + i as i64 * self.resolution_ms;
            let j = ((at - start_ms) / step_ms) as usize;
            max[j] = max[j].max(m);
            area[j] += a;
        }
        InFlightCurve {
            start_ms,
            step_ms,
            max,
            mean: area.iter().map(|&a| a as f64 / step_ms as f64).collect(),
        }
    }
}

/// Greatest common divisor of every round step at least as coarse as the one for `span_ms`:
/// whatever the final span, its step is a multiple of this.
fn curve_resolution_ms(span_ms: i64, max_points: usize) -> i64 {
    let Some(step) = curve_step_ms(span_ms, max_points) else {
        return weeks_step_ms(span_ms, max_points);
    };
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    CURVE_STEPS_MS
        .iter()
        .filter(|&&s| s >= step)
        .fold(0, |g, &s| gcd(g, s))
}

/// The step beyond a week per point: the fewest weeks, a power of two, that fit `span_ms` in
/// `max_points` points.
fn weeks_step_ms(span_ms: i64, max_points: usize) -> i64 {
    let max_points = i64::try_from(max_points.max(1)).unwrap_or(i64::MAX);
    let mut step = WEEK_MS;
    while span_ms / step + 1 > max_points && step <= i64::MAX / 2 {
        step *= 2;
    }
    step
}

/// Arrival counts in blocks of [`ARRIVAL_BLOCK`] steps, only where there are arrivals; slots
/// are counted from the first arrival's step and come in non-decreasing order.
#[derive(Clone, Debug, Default)]
struct ArrivalBlocks {
    blocks: Vec<(u64, [u32; ARRIVAL_BLOCK])>,
    count: u64,
    last_slot: u64,
}

impl ArrivalBlocks {
    fn add(&mut self, slot: u64) {
        let block = slot / ARRIVAL_BLOCK as u64;
        if self.blocks.last().is_none_or(|(b, _)| *b != block) {
            self.blocks.push((block, [0; ARRIVAL_BLOCK]));
        }
        if let Some((_, counts)) = self.blocks.last_mut() {
            let i = (slot % ARRIVAL_BLOCK as u64) as usize;
            counts[i] = counts[i].saturating_add(1);
        }
        self.count += 1;
        self.last_slot = self.last_slot.max(slot);
    }

    fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<(u64, [u32; ARRIVAL_BLOCK])>()
    }

    /// The series from `first_slot_ms` (the first arrival's step) at the finest step of
    /// [`ARRIVAL_STEP_FACTORS`] that fits [`arrival_max_points`]: (start, step, counts).
    fn into_series(self, first_slot_ms: i64, base_step_ms: i64) -> (i64, i64, Vec<u32>) {
        let max_points = arrival_max_points(self.count) as i64;
        let last_ms = first_slot_ms.saturating_add(
            i64::try_from(self.last_slot)
                .unwrap_or(i64::MAX)
                .saturating_mul(base_step_ms),
        );
        let fits = |step: i64| {
            let start = first_slot_ms.div_euclid(step) * step;
            (last_ms - start) / step < max_points
        };
        let mut step = base_step_ms;
        for factor in ARRIVAL_STEP_FACTORS {
            step = base_step_ms.saturating_mul(factor);
            if fits(step) {
                break;
            }
        }
        while !fits(step) && step <= i64::MAX / 2 {
            step *= 2;
        }
        let start = first_slot_ms.div_euclid(step) * step;
        let points = ((last_ms - start) / step + 1) as usize;
        let mut counts = vec![0u32; points];
        for (block, block_counts) in &self.blocks {
            for (i, &n) in block_counts.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let slot = block * ARRIVAL_BLOCK as u64 + i as u64;
                let at = first_slot_ms + slot as i64 * base_step_ms;
                let j = ((at - start) / step) as usize;
                counts[j] = counts[j].saturating_add(n);
            }
        }
        (start, step, counts)
    }
}

/// Intervals waiting to be swept: those pushed in start order queue in a FIFO (O(1) each, the
/// usual case), the others in a min-heap; the oldest of the two fronts leaves first.
#[derive(Clone, Debug, Default)]
struct ReorderBuffer {
    in_order: VecDeque<Interval>,
    others: BinaryHeap<Reverse<Interval>>,
}

impl ReorderBuffer {
    fn len(&self) -> usize {
        self.in_order.len() + self.others.len()
    }

    fn capacity_bytes(&self) -> usize {
        (self.in_order.capacity() + self.others.capacity()) * size_of::<Interval>()
    }

    /// `limit`: the most intervals the buffer is meant to hold at once (its FIFO is then
    /// grown to one more than that, not to twice).
    fn push(&mut self, interval: Interval, limit: usize) {
        if self.in_order.back().is_none_or(|last| *last <= interval) {
            let len = self.in_order.len();
            if len == limit && self.in_order.capacity() == limit {
                self.in_order.reserve_exact(1);
            }
            self.in_order.push_back(interval);
        } else {
            self.others.push(Reverse(interval));
        }
    }

    fn oldest(&self) -> Option<Interval> {
        match (self.in_order.front(), self.others.peek()) {
            (Some(&a), Some(&Reverse(b))) => Some(a.min(b)),
            (a, b) => a.copied().or(b.map(|r| r.0)),
        }
    }

    fn pop(&mut self) -> Option<Interval> {
        let from_heap = match (self.in_order.front(), self.others.peek()) {
            (Some(a), Some(Reverse(b))) => b < a,
            (None, _) => true,
            (Some(_), None) => false,
        };
        if from_heap {
            self.others.pop().map(|r| r.0)
        } else {
            self.in_order.pop_front()
        }
    }
}

/// The streaming sweep (see the module docs).
#[derive(Clone, Debug)]
pub struct InFlightStream {
    options: StreamOptions,
    buffer: ReorderBuffer,
    latest_start_ms: i64,
    /// Start of the last interval released to the sweep.
    frontier_ms: Option<i64>,
    late_records: u64,
    pending_ends: BinaryHeap<Reverse<i64>>,
    span_start_ms: i64,
    span_end_ms: i64,
    level: u64,
    prev_ms: i64,
    area: i128,
    peak: u64,
    peak_at_ms: i64,
    time_at_level_ms: Vec<i64>,
    curve: FineCurve,
    recent: VecDeque<Arrival>,
    recent_duration_ms: i128,
    best: Option<StreamedWindow>,
    arrivals_start_ms: i64,
    arrivals: ArrivalBlocks,
}

impl Default for InFlightStream {
    fn default() -> Self {
        Self::new(StreamOptions::default())
    }
}

impl InFlightStream {
    pub fn new(options: StreamOptions) -> Self {
        InFlightStream {
            options: StreamOptions {
                reorder_window_ms: options.reorder_window_ms.max(0),
                busiest_window_ms: options.busiest_window_ms.max(1),
                curve_max_points: options.curve_max_points.max(1),
                arrival_step_ms: options.arrival_step_ms.max(1),
                ..options
            },
            buffer: ReorderBuffer::default(),
            latest_start_ms: i64::MIN,
            frontier_ms: None,
            late_records: 0,
            pending_ends: BinaryHeap::new(),
            span_start_ms: 0,
            span_end_ms: 0,
            level: 0,
            prev_ms: 0,
            area: 0,
            peak: 0,
            peak_at_ms: 0,
            time_at_level_ms: vec![0],
            curve: FineCurve::default(),
            recent: VecDeque::new(),
            recent_duration_ms: 0,
            best: None,
            arrivals_start_ms: 0,
            arrivals: ArrivalBlocks::default(),
        }
    }

    /// Intervals that came too late to be placed exactly so far.
    pub fn late_records(&self) -> u64 {
        self.late_records
    }

    /// Intervals waiting in the reorder buffer.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Bytes held by the buffers (capacity, for memory accounting in docs and tests).
    pub fn heap_bytes(&self) -> usize {
        self.buffer.capacity_bytes()
            + self.pending_ends.capacity() * 8
            + self.recent.capacity() * size_of::<Arrival>()
            + self.arrivals.heap_bytes()
            + self.curve.max.capacity() * 4
            + self.curve.area.capacity() * 16
            + self.time_at_level_ms.capacity() * 8
    }

    /// Adds one interval (an end before the start counts as the start; instants beyond
    /// ±[`INSTANT_LIMIT_MS`] count as that limit).
    pub fn push(&mut self, interval: Interval) {
        let clamp = |ms: i64| ms.clamp(-INSTANT_LIMIT_MS, INSTANT_LIMIT_MS);
        let start_ms = clamp(interval.start_ms);
        let mut interval = Interval {
            start_ms,
            end_ms: clamp(interval.end_ms).max(start_ms),
        };
        if let Some(frontier) = self.frontier_ms
            && interval.start_ms < frontier
        {
            self.late_records += 1;
            interval.start_ms = frontier;
            interval.end_ms = interval.end_ms.max(frontier);
        }
        self.latest_start_ms = self.latest_start_ms.max(interval.start_ms);
        let cap = self.options.reorder_buffer_records;
        self.buffer.push(interval, cap);
        let watermark = self
            .latest_start_ms
            .saturating_sub(self.options.reorder_window_ms);
        while self.buffer.len() > cap {
            match self.buffer.oldest() {
                Some(oldest) if oldest.start_ms <= watermark => {
                    self.buffer.pop();
                    self.release(oldest);
                }
                _ => break,
            }
        }
    }

    /// Sweeps one interval; starts arrive here in non-decreasing order.
    fn release(&mut self, interval: Interval) {
        let (start, end) = (interval.start_ms, interval.end_ms);
        if self.frontier_ms.is_none() {
            self.span_start_ms = start;
            self.span_end_ms = end;
            self.prev_ms = start;
            self.peak_at_ms = start;
            let resolution_ms = curve_resolution_ms(end - start, self.options.curve_max_points);
            self.curve = FineCurve {
                origin_ms: start.div_euclid(resolution_ms) * resolution_ms,
                resolution_ms,
                ..FineCurve::default()
            };
            let step = self.options.arrival_step_ms;
            self.arrivals_start_ms = start.div_euclid(step) * step;
        }
        self.frontier_ms = Some(start);
        if end > self.span_end_ms {
            self.span_end_ms = end;
            self.curve.coarsen(curve_resolution_ms(
                end - self.span_start_ms,
                self.options.curve_max_points,
            ));
        }
        while let Some(&Reverse(end_ms)) = self.pending_ends.peek() {
            if end_ms > start {
                break;
            }
            self.pending_ends.pop();
            self.reach(end_ms);
            self.level -= 1;
        }
        self.reach(start);
        self.level += 1;
        self.pending_ends.push(Reverse(end));
        self.recent.push_back(Arrival {
            start_ms: start,
            duration_ms: end - start,
            area_at_start: self.area as i64,
        });
        self.recent_duration_ms += i128::from(end - start);
        let slot = (start - self.arrivals_start_ms) / self.options.arrival_step_ms;
        self.arrivals.add(slot as u64);
    }

    /// Closes the windows that end by `t_ms`, then the segment `[prev_ms, t_ms)`.
    fn reach(&mut self, t_ms: i64) {
        self.close_windows(t_ms);
        self.advance(t_ms);
    }

    /// Closes every window ending at or before `t_ms`. Each open window ends after `prev_ms`
    /// (it would have been closed before), and the level is constant from `prev_ms` to `t_ms`.
    fn close_windows(&mut self, t_ms: i64) {
        let width = self.options.busiest_window_ms;
        while let Some(first) = self.recent.front().copied() {
            let end_ms = first.start_ms.saturating_add(width);
            if end_ms > t_ms {
                break;
            }
            let arrivals = self.recent.len() as u64;
            if self.best.is_none_or(|b| arrivals > b.arrivals) {
                let area_at_end =
                    self.area + i128::from(self.level) * i128::from(end_ms - self.prev_ms);
                let area = (area_at_end as i64).wrapping_sub(first.area_at_start);
                self.best = Some(StreamedWindow {
                    start_ms: first.start_ms,
                    end_ms,
                    arrivals,
                    duration_sum_ms: self.recent_duration_ms,
                    area: i128::from(area),
                });
            }
            while let Some(a) = self.recent.front() {
                if a.start_ms != first.start_ms {
                    break;
                }
                self.recent_duration_ms -= i128::from(a.duration_ms);
                self.recent.pop_front();
            }
        }
    }

    /// Closes the segment `[prev_ms, t_ms)` at the current level (as the batch sweep does).
    fn advance(&mut self, t_ms: i64) {
        if t_ms <= self.prev_ms {
            return;
        }
        let (from, to, level) = (self.prev_ms, t_ms, self.level);
        self.prev_ms = t_ms;
        let level_index = level as usize;
        if level_index >= self.time_at_level_ms.len() {
            self.time_at_level_ms.resize(level_index + 1, 0);
        }
        self.time_at_level_ms[level_index] += to - from;
        if level == 0 {
            return;
        }
        self.area += i128::from(level) * i128::from(to - from);
        if level > self.peak {
            self.peak = level;
            self.peak_at_ms = from;
        }
        self.curve.add(from, to, level);
    }

    /// Sweeps what is still buffered and in flight and returns the figures; `None` when nothing
    /// was pushed.
    pub fn finish(mut self) -> Option<StreamSummary> {
        while let Some(interval) = self.buffer.pop() {
            self.release(interval);
        }
        self.frontier_ms?;
        while let Some(Reverse(end_ms)) = self.pending_ends.pop() {
            self.reach(end_ms);
            self.level -= 1;
        }
        self.close_windows(i64::MAX);
        let busiest = self.best?;
        let (arrivals_start_ms, arrival_step_ms, arrivals) = std::mem::take(&mut self.arrivals)
            .into_series(self.arrivals_start_ms, self.options.arrival_step_ms);
        let span_ms = self.span_end_ms - self.span_start_ms;
        let max_points = self.options.curve_max_points;
        let step_ms = curve_step_ms(span_ms, max_points)
            .unwrap_or_else(|| weeks_step_ms(span_ms, max_points));
        let curve = self
            .curve
            .into_curve(self.span_start_ms, self.span_end_ms, step_ms);
        let mean = if span_ms > 0 {
            self.area as f64 / span_ms as f64
        } else {
            0.0
        };
        Some(StreamSummary {
            in_flight: InFlight {
                span_start_ms: self.span_start_ms,
                span_end_ms: self.span_end_ms,
                peak: self.peak,
                peak_at_ms: self.peak_at_ms,
                mean,
                window_mean: Some(busiest.area as f64 / self.options.busiest_window_ms as f64),
                time_at_level_ms: self.time_at_level_ms,
                curve,
            },
            busiest,
            arrivals_start_ms,
            arrival_step_ms,
            arrivals,
            late_records: self.late_records,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{SweepOptions, busiest_window, sweep_in_flight};

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> i64 {
            (self.next() % n.max(1)) as i64
        }
    }

    /// `n` intervals over about `span_ms`, sorted by start, with bursts, ties and zero lengths.
    fn intervals(rng: &mut Rng, n: usize, span_ms: u64, max_duration_ms: u64) -> Vec<Interval> {
        let base = 1_772_442_000_123;
        let mut v: Vec<Interval> = (0..n)
            .map(|i| {
                let start = if i % 7 == 0 {
                    base + rng.below(span_ms / 50) // a burst near the beginning
                } else {
                    base + rng.below(span_ms)
                };
                let duration = match i % 11 {
                    0 => 0,
                    1 => max_duration_ms as i64,
                    _ => rng.below(max_duration_ms),
                };
                Interval {
                    start_ms: start - start % 10, // ties
                    end_ms: start + duration,
                }
            })
            .collect();
        v.sort_by_key(|i| i.start_ms);
        v
    }

    fn stream(intervals: &[Interval], options: StreamOptions) -> StreamSummary {
        let mut s = InFlightStream::new(options);
        intervals.iter().for_each(|&i| s.push(i));
        s.finish().unwrap()
    }

    /// The batch functions' answers, as the demand profile computed them before streaming.
    fn batch(sorted: &[Interval], options: StreamOptions) -> StreamSummary {
        let w = busiest_window(sorted, options.busiest_window_ms).unwrap();
        let in_flight = sweep_in_flight(
            sorted,
            SweepOptions {
                window: Some((w.start_ms, w.end_ms)),
                curve_max_points: options.curve_max_points,
            },
        )
        .unwrap();
        let step = options.arrival_step_ms;
        let arrivals_start_ms = sorted[0].start_ms.div_euclid(step) * step;
        let mut arrivals =
            vec![0u32; ((sorted.last().unwrap().start_ms - arrivals_start_ms) / step + 1) as usize];
        for i in sorted {
            arrivals[((i.start_ms - arrivals_start_ms) / step) as usize] += 1;
        }
        let area = (in_flight.window_mean.unwrap() * options.busiest_window_ms as f64).round();
        StreamSummary {
            busiest: StreamedWindow {
                start_ms: w.start_ms,
                end_ms: w.end_ms,
                arrivals: w.arrivals,
                duration_sum_ms: sorted[w.first..w.last_exclusive]
                    .iter()
                    .map(|i| i128::from(i.duration_ms()))
                    .sum(),
                area: area as i128,
            },
            in_flight,
            arrivals_start_ms,
            arrival_step_ms: step,
            arrivals,
            late_records: 0,
        }
    }

    #[test]
    fn matches_the_batch_sweep_and_window_on_sorted_input() {
        let mut rng = Rng(1);
        // spans from a minute to three weeks: fine and coarse curve steps, merged buckets
        for (n, span_ms, max_duration_ms, points) in [
            (50, 60_000, 5_000, 720),
            (400, 3_600_000, 120_000, 720),
            (2_000, 6 * 3_600_000, 600_000, 720),
            (3_000, 7 * 86_400_000, 60_000, 720),
            (3_000, 21 * 86_400_000, 3_600_000, 100),
            (500, 5 * 3_600_000, 30_000, 3),
            (300, 86_400_000, 10_000, 1),
        ] {
            let sorted = intervals(&mut rng, n, span_ms, max_duration_ms);
            let options = StreamOptions {
                curve_max_points: points,
                ..StreamOptions::default()
            };
            let expected = batch(&sorted, options);
            let got = stream(&sorted, options);
            assert_eq!(got, expected, "n {n} span {span_ms}");
            // released as it goes (buffer of 16, 1 s window): same answer
            let tight = StreamOptions {
                reorder_buffer_records: 16,
                reorder_window_ms: 1_000,
                ..options
            };
            assert_eq!(stream(&sorted, tight), expected, "tight, n {n}");
        }
    }

    #[test]
    fn any_order_is_exact_within_the_buffer_and_near_order_within_the_window() {
        let mut rng = Rng(2);
        let sorted = intervals(&mut rng, 3_000, 2 * 86_400_000, 300_000);
        let expected = stream(&sorted, StreamOptions::default());
        // shuffled: the whole log fits the buffer
        let mut shuffled = sorted.clone();
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i as u64 + 1) as usize);
        }
        assert_eq!(stream(&shuffled, StreamOptions::default()), expected);
        // in end order with a small buffer: starts are late by less than the 1-hour window
        let mut by_end = sorted.clone();
        by_end.sort_by_key(|i| i.end_ms);
        let small = StreamOptions {
            reorder_buffer_records: 8,
            ..StreamOptions::default()
        };
        let mut s = InFlightStream::new(small);
        by_end.iter().for_each(|&i| s.push(i));
        assert!(s.buffered() < 3_000, "the buffer releases as it goes");
        assert_eq!(s.finish().unwrap(), expected);
    }

    #[test]
    fn a_start_older_than_the_sweep_is_counted_late_and_swept_from_there() {
        let iv = |s: i64, e: i64| Interval {
            start_ms: s,
            end_ms: e,
        };
        let options = StreamOptions {
            reorder_buffer_records: 1,
            reorder_window_ms: 0,
            busiest_window_ms: 10_000,
            ..StreamOptions::default()
        };
        let mut s = InFlightStream::new(options);
        // 0–4 s and 2–6 s are released when 5 s arrives; then 1–3 s comes too late
        for i in [
            iv(0, 4_000),
            iv(2_000, 6_000),
            iv(5_000, 7_000),
            iv(1_000, 3_000),
        ] {
            s.push(i);
        }
        assert_eq!(s.late_records(), 1);
        let got = s.finish().unwrap();
        assert_eq!(got.late_records, 1);
        // swept as 2–3 s: [0,2) 1, [2,3) 3, [3,4) 2, [4,5) 1, [5,6) 2, [6,7) 1
        assert_eq!(got.in_flight.peak, 3);
        assert_eq!(got.in_flight.peak_at_ms, 2_000);
        assert_eq!(got.in_flight.time_at_level_ms, vec![0, 4_000, 2_000, 1_000]);
        assert_eq!(got.busiest.arrivals, 4);
        // every arrival still counted
        assert_eq!(got.arrivals.iter().sum::<u32>(), 4);
    }
}
