//! Server metrics: the Prometheus `/metrics` exposition of vLLM, read from one or two scrapes.
//!
//! * [`exposition`]: a parser for the Prometheus text format (any exporter).
//! * [`vllm`]: vLLM's metrics across versions: a single scrape's totals, gauges, cache
//!   configuration and histograms ([`VllmSnapshot`]), the window between two scrapes with
//!   deltas, rates, the mean in flight and quantiles with error bounds ([`vllm_window`]), and
//!   the alarms that say the pilot hit its own limit.
//!
//! Gauges are point samples and histogram quantiles are coarse; exact per-request numbers come
//! from the gateway log ([`crate::demand`]). The two are meant to be cross-checked: the window's
//! mean in flight against the log's, by Little's law.

pub mod exposition;
pub mod vllm;

pub use exposition::{ExpositionError, MetricFamily, MetricType, Sample, Scrape, parse_exposition};
pub use vllm::{
    AlarmKind, CacheConfig, CumulativeHistogram, Distributions, ElapsedSource, HistogramSummary,
    LIMIT_MESSAGE, LimitAlarm, MetricsError, SnapshotReport, VllmGauges, VllmHistogram,
    VllmSnapshot, VllmTotals, VllmWindow, vllm_window,
};

#[cfg(test)]
mod tests;
