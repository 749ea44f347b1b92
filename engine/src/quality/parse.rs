//! Parsers of evaluation sets and runs from CSV and JSON Lines text.
//!
//! Formats (headers and keys are matched case-insensitively, surrounding blanks ignored):
//!
//! * **Set CSV**: `id, question, accepted_answer[, accepted_passages]`; passages are separated
//!   by `|` inside the cell. **Set JSONL**: one object per line with the same keys;
//!   `accepted_passages` is an array of strings (a `|`-separated string is accepted too).
//! * **Run CSV**: `id[, answer], score | correct[, retrieved][, finish_reason]`; `retrieved` is
//!   `|`-separated in rank order. **Run JSONL**: the same keys; `score` a number, `correct` a
//!   boolean, `retrieved` an array of strings.
//!
//! Decisions:
//! * Ids are text; a JSON number id is read as its decimal text (`7` → `"7"`).
//! * A run row is graded by **exactly one** of `score` (0–1) or `correct` (true/false, 1/0,
//!   yes/no), and every row of a run the same way: a mix cannot be summarised by one interval.
//! * Errors, each with file, line and field: an empty file, a missing or blank id, a repeated id,
//!   a run id that is not in the set, a score that is not a number or is outside 0–1.
//! * A set question with no run row is **not** an error here (a run may be partial); the scores
//!   count what was answered and say how many questions that was.
//! * **A cut-off file is refused** with `the file ends mid-record`: a CSV that ends inside a
//!   quoted field or whose last row lacks its line end (a cut answer or score could not be told
//!   from a whole one, so a hand-written file must end its last row too), and a JSON Lines file
//!   whose last line lacks its line end and is not a whole JSON object.

use super::error::{Ctx, QualityError, QualityErrorKind as K};
use super::model::{EvalItem, EvalRun, EvalSet, RunItem};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Reads an evaluation set from CSV text.
pub fn parse_set_csv(file: &str, text: &str) -> Result<EvalSet, QualityError> {
    let ctx = Ctx::new(file);
    let table = read_csv(&ctx, text)?;
    let id = table.require(&ctx, "id")?;
    let question = table.require(&ctx, "question")?;
    let answer = table.require(&ctx, "accepted_answer")?;
    let passages = table.column("accepted_passages");
    let mut items = Vec::new();
    for (line, row) in &table.rows {
        let ctx = ctx.at(*line);
        items.push((
            *line,
            EvalItem {
                id: required(&ctx, "id", cell(row, Some(id)))?,
                question: cell(row, Some(question)).to_string(),
                accepted_answer: cell(row, Some(answer)).to_string(),
                accepted_passages: split_list(cell(row, passages)),
            },
        ));
    }
    finish_set(&ctx, items)
}

/// Reads an evaluation set from JSON Lines text (blank lines skipped).
pub fn parse_set_jsonl(file: &str, text: &str) -> Result<EvalSet, QualityError> {
    let ctx = Ctx::new(file);
    let mut items = Vec::new();
    for (line, obj) in read_jsonl(&ctx, text)? {
        let ctx = ctx.at(line);
        items.push((
            line,
            EvalItem {
                id: json_id(&ctx, &obj)?,
                question: json_text(&ctx, &obj, "question")?.unwrap_or_default(),
                accepted_answer: json_text(&ctx, &obj, "accepted_answer")?.unwrap_or_default(),
                accepted_passages: json_list(&ctx, &obj, "accepted_passages")?,
            },
        ));
    }
    finish_set(&ctx, items)
}

/// Reads a run's rows from CSV text and checks them against `set`. The configuration fields
/// of the returned [`EvalRun`] are empty: the caller fills them from the pilot's form.
pub fn parse_run_csv(file: &str, text: &str, set: &EvalSet) -> Result<EvalRun, QualityError> {
    let ctx = Ctx::new(file);
    let table = read_csv(&ctx, text)?;
    let id = table.require(&ctx, "id")?;
    let answer = table.column("answer");
    let score = table.column("score");
    let correct = table.column("correct");
    if score.is_none() && correct.is_none() {
        return Err(ctx.err(
            K::MissingField,
            Some("score"),
            "the header needs a \"score\" (0–1) or a \"correct\" (true/false) column",
        ));
    }
    let retrieved = table.column("retrieved");
    let finish = table.column("finish_reason");
    let mut items = Vec::new();
    for (line, row) in &table.rows {
        let ctx = ctx.at(*line);
        let score = match cell(row, score) {
            "" => None,
            s => Some(s.parse::<f64>().map_err(|_| {
                ctx.err(
                    K::WrongType,
                    Some("score"),
                    format!("expected a number, found \"{s}\""),
                )
            })?),
        };
        let correct = match cell(row, correct) {
            "" => None,
            c => Some(parse_bool(c).ok_or_else(|| {
                ctx.err(
                    K::WrongType,
                    Some("correct"),
                    format!("expected true/false, 1/0 or yes/no, found \"{c}\""),
                )
            })?),
        };
        let finish_reason = Some(cell(row, finish).to_string()).filter(|s| !s.is_empty());
        items.push((
            *line,
            RunItem {
                id: required(&ctx, "id", cell(row, Some(id)))?,
                answer: cell(row, answer).to_string(),
                score,
                correct,
                retrieved: split_list(cell(row, retrieved)),
                finish_reason,
            },
        ));
    }
    finish_run(&ctx, items, set)
}

/// Reads a run's rows from JSON Lines text and checks them against `set`; see
/// [`parse_run_csv`] for the configuration fields.
pub fn parse_run_jsonl(file: &str, text: &str, set: &EvalSet) -> Result<EvalRun, QualityError> {
    let ctx = Ctx::new(file);
    let mut items = Vec::new();
    for (line, obj) in read_jsonl(&ctx, text)? {
        let ctx = ctx.at(line);
        let score = match field(&obj, "score") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => n.as_f64(),
            Some(other) => {
                return Err(ctx.err(
                    K::WrongType,
                    Some("score"),
                    format!("expected a number, found {other}"),
                ));
            }
        };
        let correct = match field(&obj, "correct") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                return Err(ctx.err(
                    K::WrongType,
                    Some("correct"),
                    format!("expected true or false, found {other}"),
                ));
            }
        };
        items.push((
            line,
            RunItem {
                id: json_id(&ctx, &obj)?,
                answer: json_text(&ctx, &obj, "answer")?.unwrap_or_default(),
                score,
                correct,
                retrieved: json_list(&ctx, &obj, "retrieved")?,
                finish_reason: json_text(&ctx, &obj, "finish_reason")?.filter(|s| !s.is_empty()),
            },
        ));
    }
    finish_run(&ctx, items, set)
}

fn finish_set(ctx: &Ctx, items: Vec<(u64, EvalItem)>) -> Result<EvalSet, QualityError> {
    if items.is_empty() {
        return Err(ctx.err(K::Empty, None, "the evaluation set has no questions"));
    }
    let mut seen = std::collections::HashMap::new();
    for (line, item) in &items {
        if let Some(first) = seen.insert(item.id.as_str(), *line) {
            return Err(ctx.at(*line).err(
                K::DuplicateId,
                Some("id"),
                format!("id \"{}\" already appears on line {first}", item.id),
            ));
        }
    }
    Ok(EvalSet {
        items: items.into_iter().map(|(_, item)| item).collect(),
    })
}

fn finish_run(
    ctx: &Ctx,
    items: Vec<(u64, RunItem)>,
    set: &EvalSet,
) -> Result<EvalRun, QualityError> {
    if items.is_empty() {
        return Err(ctx.err(K::Empty, None, "the run has no answers"));
    }
    let known: HashSet<&str> = set.items.iter().map(|i| i.id.as_str()).collect();
    let mut seen = std::collections::HashMap::new();
    let mut graded_by: Option<(&'static str, u64)> = None;
    for (line, item) in &items {
        let ctx = ctx.at(*line);
        if let Some(first) = seen.insert(item.id.as_str(), *line) {
            return Err(ctx.err(
                K::DuplicateId,
                Some("id"),
                format!("id \"{}\" already appears on line {first}", item.id),
            ));
        }
        if !known.contains(item.id.as_str()) {
            return Err(ctx.err(
                K::UnknownId,
                Some("id"),
                format!("id \"{}\" is not in the evaluation set", item.id),
            ));
        }
        let kind = match (item.score, item.correct) {
            (None, None) => {
                return Err(ctx.err(
                    K::MissingField,
                    Some("score"),
                    "the row has neither a score nor a correct value",
                ));
            }
            (Some(_), Some(_)) => {
                return Err(ctx.err(
                    K::InvalidValue,
                    Some("correct"),
                    "the row has both a score and a correct value; give one",
                ));
            }
            (Some(s), None) => {
                if !s.is_finite() {
                    // `NaN`/`inf` in a CSV cell parse as numbers: the shared message.
                    let why = crate::plausible::check(crate::plausible::Quantity::Fraction, s)
                        .err()
                        .map(|e| e.message)
                        .unwrap_or_default();
                    return Err(ctx.err(K::InvalidValue, Some("score"), why));
                }
                if !(0.0..=1.0).contains(&s) {
                    return Err(ctx.err(
                        K::InvalidValue,
                        Some("score"),
                        format!("{} is outside 0–1", crate::plausible::fmt_value(s)),
                    ));
                }
                "score"
            }
            (None, Some(_)) => "correct",
        };
        match graded_by {
            None => graded_by = Some((kind, *line)),
            Some((first, first_line)) if first != kind => {
                return Err(ctx.err(
                    K::InvalidValue,
                    Some(kind),
                    format!(
                        "the row is graded by {kind} but line {first_line} by {first}; \
                         a run is graded one way"
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(EvalRun {
        items: items.into_iter().map(|(_, item)| item).collect(),
        ..EvalRun::default()
    })
}

/// A CSV file read whole: lower-cased headers and (line, cells) rows.
struct Table {
    headers: Vec<String>,
    rows: Vec<(u64, Vec<String>)>,
}

impl Table {
    fn column(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == name)
    }

    fn require(&self, ctx: &Ctx, name: &str) -> Result<usize, QualityError> {
        self.column(name).ok_or_else(|| {
            ctx.at(1).err(
                K::MissingField,
                Some(name),
                format!(
                    "the header has no \"{name}\" column (it has: {})",
                    self.headers.join(", ")
                ),
            )
        })
    }
}

fn read_csv(ctx: &Ctx, text: &str) -> Result<Table, QualityError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(ctx.err(K::Empty, None, "the file is empty"));
    }
    if let Some(line) = crate::traffic::reader::open_quote_at_end(text.as_bytes()) {
        return Err(ctx.at(line).err(
            K::Syntax,
            None,
            format!("{MID_RECORD}: the quoted field opened on this line is not closed"),
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let unterminated = !text.ends_with(['\n', '\r']);
    let syntax = |e: csv::Error, at_end: bool| {
        let line = e.position().map(|p| p.line());
        let message = match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => {
                let cut = if at_end && unterminated && len < expected_len {
                    format!("{MID_RECORD}: ")
                } else {
                    String::new()
                };
                format!("{cut}expected {expected_len} fields like the header, found {len}")
            }
            _ => format!("invalid CSV: {e}"),
        };
        QualityError {
            file: ctx.file.to_string(),
            line,
            field: None,
            kind: K::Syntax,
            message,
        }
    };
    let headers = reader
        .headers()
        .map_err(|e| syntax(e, false))?
        .iter()
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let at_end = reader.position().byte() as usize >= text.len();
                return Err(syntax(e, at_end));
            }
        }
        if record.iter().all(str::is_empty) {
            continue;
        }
        let line = record.position().map_or(0, |p| p.line());
        if unterminated && reader.position().byte() as usize >= text.len() {
            return Err(ctx.at(line).err(
                K::Syntax,
                None,
                format!(
                    "{MID_RECORD}: the last row has no line end, so its last field may be \
                     incomplete (end the file with a line break)"
                ),
            ));
        }
        rows.push((line, record.iter().map(str::to_string).collect()));
    }
    Ok(Table { headers, rows })
}

/// How every message about a cut-off file begins.
const MID_RECORD: &str = "the file ends mid-record (cut off?)";

fn cell(row: &[String], column: Option<usize>) -> &str {
    column.and_then(|c| row.get(c)).map_or("", |s| s.as_str())
}

fn required(ctx: &Ctx, name: &str, value: &str) -> Result<String, QualityError> {
    if value.is_empty() {
        Err(ctx.err(K::MissingField, Some(name), "the value is blank"))
    } else {
        Ok(value.to_string())
    }
}

fn split_list(cell: &str) -> Vec<String> {
    cell.split('|')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "y" => Some(true),
        "false" | "0" | "no" | "n" => Some(false),
        _ => None,
    }
}

/// A JSON Lines object with its 1-based line number.
type Record = (u64, Map<String, Value>);

fn read_jsonl(ctx: &Ctx, text: &str) -> Result<Vec<Record>, QualityError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let last_line = text.lines().count();
    let unterminated = !text.ends_with('\n');
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index as u64 + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let ctx = ctx.at(line);
        match serde_json::from_str::<Value>(raw) {
            Ok(Value::Object(obj)) => out.push((
                line,
                obj.into_iter()
                    .map(|(k, v)| (k.trim().to_ascii_lowercase(), v))
                    .collect(),
            )),
            Ok(other) => {
                return Err(ctx.err(
                    K::WrongType,
                    None,
                    format!("expected a JSON object, found {other}"),
                ));
            }
            Err(e) => {
                let cut = if e.is_eof() && unterminated && index + 1 == last_line {
                    format!("{MID_RECORD}: ")
                } else {
                    String::new()
                };
                return Err(ctx.err(
                    K::Syntax,
                    None,
                    format!("{cut}invalid JSON at column {}: {e}", e.column()),
                ));
            }
        }
    }
    if out.is_empty() {
        return Err(ctx.err(K::Empty, None, "the file is empty"));
    }
    Ok(out)
}

fn field<'v>(obj: &'v Map<String, Value>, name: &str) -> Option<&'v Value> {
    obj.get(name)
}

fn json_id(ctx: &Ctx, obj: &Map<String, Value>) -> Result<String, QualityError> {
    match field(obj, "id") {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_string()),
        Some(Value::Number(n)) => Ok(n.to_string()),
        None | Some(Value::Null) | Some(Value::String(_)) => {
            Err(ctx.err(K::MissingField, Some("id"), "the id is missing or blank"))
        }
        Some(other) => Err(ctx.err(
            K::WrongType,
            Some("id"),
            format!("expected text or a number, found {other}"),
        )),
    }
}

fn json_text(
    ctx: &Ctx,
    obj: &Map<String, Value>,
    name: &str,
) -> Result<Option<String>, QualityError> {
    match field(obj, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
        Some(other) => Err(ctx.err(
            K::WrongType,
            Some(name),
            format!("expected text, found {other}"),
        )),
    }
}

fn json_list(ctx: &Ctx, obj: &Map<String, Value>, name: &str) -> Result<Vec<String>, QualityError> {
    match field(obj, name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(split_list(s)),
        Some(Value::Array(values)) => values
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.trim().to_string()),
                Value::Number(n) => Ok(n.to_string()),
                other => Err(ctx.err(
                    K::WrongType,
                    Some(&format!("{name}[{i}]")),
                    format!("expected a passage id, found {other}"),
                )),
            })
            .filter(|r| r.as_ref().map_or(true, |s| !s.is_empty()))
            .collect(),
        Some(other) => Err(ctx.err(
            K::WrongType,
            Some(name),
            format!("expected a list of passage ids, found {other}"),
        )),
    }
}
