//! Statistics for per-request data and for the coarse histograms servers export.
//!
//! The pieces are small and independent so that the demand profile, the `/metrics` importer and
//! anything else that needs the same number share one definition of it:
//!
//! * [`quantile`]: exact quantiles of kept values (linear interpolation between closest ranks,
//!   the method numpy, vLLM bench and AIPerf use) and a fixed percentile summary.
//! * [`counts`]: an exact distribution of non-negative integers (token counts) whose memory
//!   depends on the largest value seen, never on how many values were added.
//! * [`histogram`]: quantiles from cumulative buckets the way Prometheus's `histogram_quantile`
//!   computes them, each with the bucket edges that bound its error.
//! * [`sweep`]: the exact number of requests in flight over time, from start and end times.
//! * [`window`]: the fixed-width window (the busiest hour) holding the most arrivals.
//! * [`stream`]: the sweep and the busiest window in one pass over intervals pushed roughly in
//!   time order (a reorder buffer puts them in order), in memory that does not grow with their
//!   number.
//! * [`sketch`]: quantiles of many values within a stated relative error in bounded memory, and
//!   values kept exactly up to a limit before switching to the sketch.
//! * [`little`]: Little's law, L = λ × W, as a cross-check between two ways of measuring load.
//!
//! Times are Unix milliseconds (`i64`) throughout; a request occupies the half-open interval
//! `[start_ms, end_ms)`, so a request ending at the instant another starts never overlaps it.

pub mod counts;
pub mod histogram;
pub mod little;
pub mod quantile;
pub mod sketch;
pub mod stream;
pub mod sweep;
pub mod window;

pub use counts::{HistogramBin, ValueCounts};
pub use histogram::{BucketQuantile, CumulativeBucket, HistogramError, histogram_quantile};
pub use little::LittleCheck;
pub use quantile::{Percentiles, quantile_sorted};
pub use sketch::{BoundedValues, EXACT_VALUES_LIMIT, QuantileSketch, SKETCH_RELATIVE_ERROR};
pub use stream::{InFlightStream, StreamOptions, StreamSummary, StreamedWindow};
pub use sweep::{InFlight, InFlightCurve, Interval, SweepOptions, sweep_in_flight};
pub use window::{BusiestWindow, busiest_window};
