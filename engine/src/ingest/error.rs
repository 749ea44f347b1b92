//! The one error type of the importers.
//!
//! An import error always names the file, and where it can, the line (line-based formats and
//! JSON syntax errors) and the field, so a person can open the file and find the problem:
//! `results.jsonl line 3: field "mean_ttft_ms": expected a number, found "abc"`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What kind of problem stopped an import.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The file has no content (or only whitespace).
    Empty,
    /// The content is readable but is none of the supported load-test formats.
    UnknownFormat,
    /// The content is not well-formed JSON or CSV (truncated file, stray characters).
    Syntax,
    /// A field holds a value of the wrong type (a string where a number belongs).
    WrongType,
    /// A field the format requires is absent.
    MissingField,
    /// A field has the right type but an impossible value (negative count, mismatched lengths).
    InvalidValue,
    /// The reader handed to a streaming import failed, or the bytes are not UTF-8.
    Read,
}

/// Why a file could not be imported, and where in it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{file}{}: {}{message}", line_part(.line), field_part(.field))]
pub struct IngestError {
    /// The file name as the caller gave it (for a folder import: the path inside the folder).
    pub file: String,
    /// 1-based line number, when the problem is on a known line.
    pub line: Option<u64>,
    /// The field, as a path (`metrics.time_to_first_token.value`, `benchmarks[0].duration`).
    pub field: Option<String>,
    pub kind: ErrorKind,
    /// What is wrong, in one sentence.
    pub message: String,
}

fn line_part(line: &Option<u64>) -> String {
    line.map(|l| format!(" line {l}")).unwrap_or_default()
}

fn field_part(field: &Option<String>) -> String {
    field
        .as_ref()
        .map(|f| format!("field \"{f}\": "))
        .unwrap_or_default()
}

/// Where the importer currently is: the file and (for line-based formats) the line.
#[derive(Clone, Debug)]
pub(crate) struct Ctx {
    pub file: String,
    pub line: Option<u64>,
}

impl Ctx {
    pub fn new(file: &str) -> Self {
        Ctx {
            file: file.to_string(),
            line: None,
        }
    }

    pub fn at_line(&self, line: u64) -> Self {
        Ctx {
            file: self.file.clone(),
            line: Some(line),
        }
    }

    pub fn err(
        &self,
        kind: ErrorKind,
        field: Option<&str>,
        message: impl Into<String>,
    ) -> IngestError {
        IngestError {
            file: self.file.clone(),
            line: self.line,
            field: field.map(str::to_string),
            kind,
            message: message.into(),
        }
    }

    pub fn wrong_type(&self, field: &str, expected: &str, found: &Value) -> IngestError {
        self.err(
            ErrorKind::WrongType,
            Some(field),
            format!("expected {expected}, found {}", describe(found)),
        )
    }

    pub fn missing(&self, field: &str) -> IngestError {
        self.err(
            ErrorKind::MissingField,
            Some(field),
            "required field is missing",
        )
    }

    pub fn invalid(&self, field: &str, message: impl Into<String>) -> IngestError {
        self.err(ErrorKind::InvalidValue, Some(field), message)
    }

    /// A JSON syntax error from serde_json, with the line taken from the parser when the
    /// context has none (for line-based formats the context's line wins: serde_json counts lines
    /// within the single line it was given).
    pub fn syntax(&self, error: &serde_json::Error) -> IngestError {
        let full = error.to_string();
        // serde_json appends " at line L column C"; keep the reason and re-place the position.
        let reason = match full.rfind(" at line ") {
            Some(cut) => full[..cut].to_string(),
            None => full,
        };
        // Input that ends inside a value is a cut-off file (or, in JSON Lines, a record broken
        // over two lines): say so, since "EOF while parsing" alone reads like a parser bug.
        let cut = match (error.is_eof(), self.line) {
            (false, _) => "",
            (true, None) => "the file ends mid-document (cut off?): ",
            (true, Some(_)) => {
                "the line ends mid-record (a file cut off, or a record broken over lines?): "
            }
        };
        let message = format!("{cut}invalid JSON at column {}: {reason}", error.column());
        let line = self.line.unwrap_or(error.line() as u64);
        let (line, message) = (Some(line), message);
        IngestError {
            file: self.file.clone(),
            line,
            field: None,
            kind: ErrorKind::Syntax,
            message,
        }
    }
}

/// A short description of a JSON value for error messages: strings quoted (and cut at 40
/// characters), numbers and literals as written, containers by kind.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("\"{cut}…\"")
            } else {
                format!("\"{cut}\"")
            }
        }
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_and_field() {
        let ctx = Ctx::new("results.jsonl").at_line(3);
        let err = ctx.wrong_type("ttft_ms", "a number", &Value::String("abc".into()));
        assert_eq!(
            err.to_string(),
            "results.jsonl line 3: field \"ttft_ms\": expected a number, found \"abc\""
        );
        let err = Ctx::new("x.json").err(ErrorKind::Empty, None, "the file is empty");
        assert_eq!(err.to_string(), "x.json: the file is empty");
    }
}
