//! Reading load-test results against a plan: goodput per operating point, capacity per
//! scenario, and what the p50/p95/p99 spread says about queueing.
//!
//! * [`targets`]: the plan's latency pass marks as limits on a load test's statistics.
//! * [`goodput`]: per operating point, whether every target holds and what share of requests (or
//!   requests per second) met them all — exact from per-request records when the file has them,
//!   else graded on the reported percentiles and marked so.
//! * [`samples`]: the per-request figures goodput needs, taken once at import and stored, so a
//!   page never re-reads a raw file.
//! * [`capacity`]: the highest concurrency at which every target holds, per scenario.
//! * [`in_flight`]: requests in flight per point: the stated concurrency, else Little's law
//!   over the run (request-rate sweeps state none).
//! * [`spread`]: idle, queueing or saturated, read from p50/p95/p99 across concurrency the way the
//!   V100 benchmark report in `shared/seeds` reads it.
//! * [`demo`]: the benchmark report's published percentiles as a vLLM-bench-style JSON Lines
//!   file, the demo pilot's load-test evidence.
//!
//! Pure functions: no IO, no clock.

pub mod capacity;
pub mod demo;
pub mod goodput;
pub mod in_flight;
pub mod samples;
pub mod spread;
pub mod targets;

pub use capacity::{Capacity, capacity_by_scenario};
pub use goodput::{
    GoodputMethod, PointGoodput, TargetCheck, grade_on_percentiles, grade_on_requests,
};
pub use in_flight::{ConcurrencyBasis, InFlight, in_flight};
pub use samples::{RequestSample, RequestSamples, SamplesError};
pub use spread::{SpreadState, classify_spread};
pub use targets::{LatencyTarget, latency_targets};

/// A scenario as a line names it: the importers' `dataset /a/b/inputs-qwen3-4b.json` becomes
/// `inputs-qwen3-4b`; other scenarios stay as they are.
pub fn scenario_label(scenario: &str) -> String {
    let s = scenario.strip_prefix("dataset ").unwrap_or(scenario).trim();
    let path_like = (s.contains('/') || s.contains('\\')) && !s.contains(char::is_whitespace);
    if path_like {
        let file = s.rsplit(['/', '\\']).next().unwrap_or(s);
        let stem = file
            .rsplit_once('.')
            .filter(|(stem, ext)| !stem.is_empty() && ext.len() <= 5)
            .map_or(file, |(stem, _)| stem);
        if !stem.is_empty() {
            return stem.to_string();
        }
    }
    s.to_string()
}
