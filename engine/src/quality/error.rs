//! The one error type of the quality-evidence parsers.
//!
//! Like the load-test importers' error, it names the file and, where it can, the line and the
//! field, so a person can open the upload and fix it:
//! `run.csv line 4: field "score": 1.5 is outside 0–1`.

use serde::{Deserialize, Serialize};

/// What kind of problem stopped a parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QualityErrorKind {
    /// The file has no rows (or only a header, or only whitespace).
    Empty,
    /// The content is not well-formed CSV or JSON.
    Syntax,
    /// A required column or field is absent or blank.
    MissingField,
    /// A field holds a value of the wrong type (text where a number belongs).
    WrongType,
    /// A field has the right type but an impossible value (a score of 1.5).
    InvalidValue,
    /// The same id appears on two rows.
    DuplicateId,
    /// A run row names an id the evaluation set does not have.
    UnknownId,
}

/// Why an evaluation set, run or lm-eval result could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{file}{}: {}{message}", line_part(.line), field_part(.field))]
pub struct QualityError {
    /// The file name as the caller gave it.
    pub file: String,
    /// 1-based line number, when the problem is on a known line.
    pub line: Option<u64>,
    /// The column or field (`score`, `results.gsm8k.exact_match,strict-match`).
    pub field: Option<String>,
    pub kind: QualityErrorKind,
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

/// Where a parser is: file and line.
#[derive(Clone, Debug)]
pub(crate) struct Ctx<'a> {
    pub file: &'a str,
    pub line: Option<u64>,
}

impl<'a> Ctx<'a> {
    pub fn new(file: &'a str) -> Self {
        Ctx { file, line: None }
    }

    pub fn at(&self, line: u64) -> Self {
        Ctx {
            file: self.file,
            line: Some(line),
        }
    }

    pub fn err(
        &self,
        kind: QualityErrorKind,
        field: Option<&str>,
        message: impl Into<String>,
    ) -> QualityError {
        QualityError {
            file: self.file.to_string(),
            line: self.line,
            field: field.map(str::to_string),
            kind,
            message: message.into(),
        }
    }
}
