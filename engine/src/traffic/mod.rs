//! Real traffic: gateway per-request logs, read into one record type.
//!
//! A pilot's gateway (LiteLLM, or anything that can write the generic schema) logs every request
//! with its start, first-token and end times, token counts and outcome. That log is the exact
//! source of demand (arrival rate, token lengths, concurrency; see [`crate::demand`]), where
//! server gauges are sampled and histograms coarse.
//!
//! * [`record`]: [`GatewayRecord`], the normalised request (instants in Unix ms, tokens, status).
//! * [`reader`]: the streaming reader with format detection, progress and bad-line handling.
//! * [`parallel`]: the same reading with the records converted on several cores.
//! * [`generic`] and [`litellm`]: the field mappings of each schema, documented there.
//! * [`timestamp`]: RFC 3339 and Unix-number instants.
//! * [`synthetic`]: a seeded generator of a realistic week of pilot traffic (demo and benchmark).
//!
//! The engine does no IO beyond `BufRead`/`Write`: callers open files and pass readers.

pub mod error;
mod fields;
pub mod generic;
pub mod litellm;
pub mod parallel;
pub mod reader;
pub mod record;
pub mod synthetic;
pub mod timestamp;

pub use error::{GatewayError, LineError, SkippedLines};
pub use parallel::{default_workers, read_gateway_log_parallel};
pub use reader::{
    GatewayFormat, GatewayReader, ImportSummary, LeftOutCounts, ReadOptions, read_gateway_log,
};
pub use record::{GatewayRecord, LeftOut, LogDetail, RequestStatus};
pub use synthetic::{SyntheticConfig, SyntheticTraffic, write_synthetic_jsonl};

#[cfg(test)]
mod tests;
