//! Errors of the gateway-log importers: always the file, and where known the line and field.
//!
//! `gateway.jsonl line 1234: field "end_time": expected RFC 3339 or Unix seconds, found "soon"`.

use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// A problem with one record of a log, located by line (the line where the record starts).
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error("{source_name} line {line}: {}{message}", field_part(.field))]
pub struct LineError {
    /// The file name as the caller gave it.
    pub source_name: String,
    /// 1-based line number.
    pub line: u64,
    /// The field at fault, when one is.
    pub field: Option<String>,
    pub message: String,
}

fn field_part(field: &Option<String>) -> String {
    field
        .as_ref()
        .map(|f| format!("field \"{f}\": "))
        .unwrap_or_default()
}

/// Why a log could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GatewayError {
    /// A record is malformed (and bad lines are not being skipped).
    #[error(transparent)]
    Line(#[from] LineError),
    /// The content is none of the supported gateway-log formats.
    #[error("{source_name}: {message}")]
    UnknownFormat {
        source_name: String,
        message: String,
    },
    /// The file holds no records at all.
    #[error("{source_name}: the file is empty")]
    Empty { source_name: String },
    /// The reader failed (the file could not be read to the end).
    #[error("{source_name}: read failed: {message}")]
    Read {
        source_name: String,
        message: String,
    },
}

/// How many malformed records were skipped, with the first few kept for the message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedLines {
    pub count: u64,
    /// The first [`SkippedLines::KEPT`] errors, in file order.
    pub first: Vec<LineError>,
}

impl SkippedLines {
    /// How many errors are kept in full.
    pub const KEPT: usize = 5;

    pub(crate) fn record(&mut self, error: LineError) {
        self.count += 1;
        if self.first.len() < Self::KEPT {
            self.first.push(error);
        }
    }

    /// Line numbers of the kept errors.
    pub fn first_lines(&self) -> Vec<u64> {
        self.first.iter().map(|e| e.line).collect()
    }
}

impl fmt::Display for SkippedLines {
    /// `skipped 3 malformed records (lines 12, 40, 41)`; `no malformed records` when none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return f.write_str("no malformed records");
        }
        let lines: Vec<String> = self.first_lines().iter().map(u64::to_string).collect();
        let more = if self.count > self.first.len() as u64 {
            ", …"
        } else {
            ""
        };
        let noun = if self.count == 1 { "record" } else { "records" };
        write!(
            f,
            "skipped {} malformed {noun} (line{} {}{more})",
            self.count,
            if lines.len() == 1 { "" } else { "s" },
            lines.join(", ")
        )
    }
}
