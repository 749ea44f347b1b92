//! Streaming gateway-log reader: format detection, JSON and CSV framing, bad-line handling.
//!
//! A log of several gigabytes passes through in constant memory: the reader holds one record's
//! bytes at a time (plus the `BufRead`'s and the CSV parser's buffers) and hands out
//! [`GatewayRecord`]s one by one, as an [`Iterator`] ([`GatewayReader`]) or through callbacks
//! with progress reports ([`read_gateway_log`]). The caller opens the file; this module only
//! reads a [`BufRead`].
//!
//! **Detection** looks at the first non-blank byte (a UTF-8 byte-order mark is skipped):
//! * `{` or `[` → JSON. The first object's keys decide the schema: `start_time` → generic;
//!   `startTime` with `request_id` → LiteLLM SpendLogs row; `startTime` with `id` → LiteLLM
//!   StandardLoggingPayload. The framing is found from the first object too: one object per line
//!   (JSON Lines), or objects spread over several lines, one after another or as the elements of
//!   top-level arrays: one (`GET /spend/logs`, a pretty-printed payload) or several in a row
//!   (what a sink keeping every body LiteLLM's `generic_api` callback posts holds: one array per
//!   post, each on its own line).
//! * anything else → CSV with a header line: a `start_time` column → generic; a `startTime`
//!   column (any case) → LiteLLM SpendLogs.
//!
//! **Not demand.** LiteLLM records that are no text generation for a client (its health
//! probes, embeddings, refused routes; see [`super::litellm`]) are read, left out of the
//! records and counted in [`ImportSummary::left_out`], with a note.
//!
//! **Bad records.** A record that cannot be read yields a [`LineError`] naming the source, the
//! line where the record starts and, when one is at fault, the field. By default the first one
//! ends the import with that error (the caller discards what it received: an import is all or
//! nothing). With `skip_bad_lines` such records are skipped and counted in [`SkippedLines`]
//! (the first few kept, for the message). In JSON Lines and CSV every line stands alone, so a
//! broken line never harms its neighbours; in multi-line JSON a record with unbalanced braces
//! swallows what follows it, and an unclosed one at the end of the file is one bad record. The
//! first record must be readable in any case: it is what the format is recognised by.
//!
//! **Truncated files.** A file cut off mid-record (an upload that stopped, a disk that filled)
//! never passes for a shorter log: a last JSON line that does not parse, an object or top-level
//! list not closed at the end, a CSV quoted field still open at the end, or a last CSV row
//! without its line end is a bad record whose message says `the file ends mid-record`. The
//! last rule refuses a hand-written CSV whose final line end was left out too: its last field
//! cannot be told from a cut one (`stop` cut to `st`), and database and gateway exports always
//! end every row.

use super::error::{GatewayError, LineError, SkippedLines};
use super::fields::{KeyList, Scalar, cell};
use super::generic::{self, GenericFields};
use super::litellm::{self, CSV_NULLS, PayloadFields, SpendLogFields};
use super::record::{GatewayRecord, LeftOut};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, BufRead};

/// The formats the reader recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GatewayFormat {
    /// The generic schema as JSON (one object per line, or multi-line objects).
    GenericJsonl,
    /// The generic schema as CSV.
    GenericCsv,
    /// `LiteLLM_SpendLogs` rows as JSON (the `/spend/logs` array, or one row per line).
    LitellmSpendLogsJson,
    /// `LiteLLM_SpendLogs` rows as CSV (a database or UI export).
    LitellmSpendLogsCsv,
    /// LiteLLM `StandardLoggingPayload` objects (logging callbacks), one per line or pretty-printed.
    LitellmStandardPayload,
}

impl GatewayFormat {
    /// A name for people: `generic JSON Lines`, `LiteLLM SpendLogs (CSV)`, …
    pub fn label(self) -> &'static str {
        match self {
            GatewayFormat::GenericJsonl => "generic JSON Lines",
            GatewayFormat::GenericCsv => "generic CSV",
            GatewayFormat::LitellmSpendLogsJson => "LiteLLM SpendLogs (JSON)",
            GatewayFormat::LitellmSpendLogsCsv => "LiteLLM SpendLogs (CSV)",
            GatewayFormat::LitellmStandardPayload => "LiteLLM StandardLoggingPayload",
        }
    }

    const ALL: [GatewayFormat; 5] = [
        GatewayFormat::GenericJsonl,
        GatewayFormat::GenericCsv,
        GatewayFormat::LitellmSpendLogsJson,
        GatewayFormat::LitellmSpendLogsCsv,
        GatewayFormat::LitellmStandardPayload,
    ];

    /// The name for people in `lang` (LiteLLM's own schema names read the same in both).
    pub fn label_in(self, lang: crate::locale::Lang) -> &'static str {
        match (self, lang) {
            (GatewayFormat::GenericJsonl, crate::locale::Lang::De) => "generisches JSON Lines",
            (GatewayFormat::GenericCsv, crate::locale::Lang::De) => "generisches CSV",
            _ => self.label(),
        }
    }

    /// A stored [`GatewayFormat::label`] in `lang`; text that names no format (a summary
    /// written by a later version) as it is.
    pub fn stored_label_in(stored: &str, lang: crate::locale::Lang) -> String {
        Self::ALL
            .into_iter()
            .find(|format| format.label() == stored)
            .map_or_else(
                || stored.to_string(),
                |format| format.label_in(lang).to_string(),
            )
    }
}

/// How to read a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Name used in every message (`gateway.jsonl`); usually the uploaded file's name.
    pub source_name: String,
    /// Skip malformed records and count them instead of failing on the first.
    pub skip_bad_lines: bool,
    /// [`read_gateway_log`] reports progress each time this many more bytes have been read.
    pub progress_every_bytes: u64,
}

impl ReadOptions {
    /// Strict reading (fail on the first bad record), progress every MiB.
    pub fn new(source_name: impl Into<String>) -> Self {
        ReadOptions {
            source_name: source_name.into(),
            skip_bad_lines: false,
            progress_every_bytes: 1 << 20,
        }
    }

    pub fn skip_bad_lines(mut self, skip: bool) -> Self {
        self.skip_bad_lines = skip;
        self
    }
}

/// What an import read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportSummary {
    pub format: GatewayFormat,
    /// Records delivered.
    pub records: u64,
    /// Records skipped as malformed (only with `skip_bad_lines`).
    pub skipped: SkippedLines,
    pub bytes_read: u64,
    /// Records read but left out of the demand (LiteLLM health probes, calls that generate no
    /// text), counted here instead of delivered.
    #[serde(default, skip_serializing_if = "LeftOutCounts::is_empty")]
    pub left_out: LeftOutCounts,
    /// Things a person should know about the records (first-token times set aside, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Records left out of the demand, by reason ([`LeftOut`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOutCounts {
    /// Health probes of the gateway.
    pub health_probes: u64,
    /// Calls that generate no text (embeddings, files, refused routes, …).
    pub not_generation: u64,
    /// Those calls by `call_type`: the first [`LeftOutCounts::NAMED`] call types by name (cut
    /// to 40 characters), any further ones together under `other`.
    pub call_types: BTreeMap<String, u64>,
}

impl LeftOutCounts {
    /// Call types counted by name.
    pub const NAMED: usize = 16;

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Records left out.
    pub fn total(&self) -> u64 {
        self.health_probes + self.not_generation
    }

    fn add(&mut self, reason: LeftOut) {
        match reason {
            LeftOut::HealthProbe => self.health_probes += 1,
            LeftOut::NotGeneration(call_type) => {
                self.not_generation += 1;
                let name: String = call_type.chars().take(40).collect();
                let key =
                    if self.call_types.contains_key(&name) || self.call_types.len() < Self::NAMED {
                        name
                    } else {
                        "other".to_owned()
                    };
                *self.call_types.entry(key).or_default() += 1;
            }
        }
    }

    /// The sentence the import notes carry, `None` when nothing was left out.
    fn note(&self, delivered: u64) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut parts = Vec::new();
        if self.health_probes > 0 {
            parts.push(format!(
                "{} health probe{} of the gateway",
                self.health_probes,
                plural(self.health_probes)
            ));
        }
        if self.not_generation > 0 {
            let types: Vec<String> = self
                .call_types
                .iter()
                .map(|(name, n)| format!("{name} ×{n}"))
                .collect();
            parts.push(format!(
                "{} call{} that generate{} no text ({})",
                self.not_generation,
                plural(self.not_generation),
                if self.not_generation == 1 { "s" } else { "" },
                types.join(", ")
            ));
        }
        Some(format!(
            "{} of {} records are not the model's demand and were left out of the profile: {}",
            self.total(),
            self.total() + delivered,
            parts.join("; ")
        ))
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Reads a whole log, handing each record to `on_record` and the number of bytes read so far to
/// `on_progress` (every [`ReadOptions::progress_every_bytes`] and once at the end). On an error
/// the records already handed over belong to a failed import and must be discarded.
pub fn read_gateway_log<R: BufRead>(
    reader: R,
    options: &ReadOptions,
    on_record: impl FnMut(GatewayRecord),
    on_progress: impl FnMut(u64),
) -> Result<ImportSummary, GatewayError> {
    let log = GatewayReader::new(reader, options)?;
    read_serially(log, options, on_record, on_progress)
}

/// The rest of `log`, record by record on this thread.
pub(crate) fn read_serially<R: BufRead>(
    mut log: GatewayReader<R>,
    options: &ReadOptions,
    mut on_record: impl FnMut(GatewayRecord),
    mut on_progress: impl FnMut(u64),
) -> Result<ImportSummary, GatewayError> {
    let step = options.progress_every_bytes.max(1);
    let mut next_report = step;
    while let Some(item) = log.next() {
        on_record(item?);
        let bytes = log.bytes_read();
        if bytes >= next_report {
            on_progress(bytes);
            next_report = bytes + step;
        }
    }
    on_progress(log.bytes_read());
    Ok(log.summary())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Schema {
    Generic,
    SpendLogs,
    Payload,
}

/// Why the next record could not be produced.
enum Failure {
    /// This record is bad; the next one may be fine.
    Line(LineError),
    /// Reading cannot go on.
    Fatal(GatewayError),
}

/// A streaming reader of one gateway log: an iterator of records (see the module docs).
///
/// After an error (with `skip_bad_lines` off) the iterator ends.
pub struct GatewayReader<R: BufRead> {
    source: Source<R>,
    format: GatewayFormat,
    source_name: String,
    tally: Tally,
}

/// What became of the records so far: delivered, skipped, or the end of the import. One piece
/// of logic for the iterator and for batches converted elsewhere ([`RawBatch`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    skip_bad_lines: bool,
    skipped: SkippedLines,
    records: u64,
    finished: bool,
    /// Records whose logged first-token time was set aside ([`super::record::LogDetail::first_token_unknown`]).
    first_token_unknown: u64,
    /// Records left out of the demand.
    left_out: LeftOutCounts,
}

impl Tally {
    /// What the import should tell a person.
    fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self.left_out.note(self.records).into_iter().collect();
        if self.first_token_unknown > 0 {
            notes.push(format!(
                "{} of {} requests are streamed calls whose completionStartTime equals endTime: their first-token time is unknown, so they give no TTFT and no TPOT (not the whole request, not 0 ms)",
                self.first_token_unknown, self.records
            ));
        }
        notes
    }

    /// Takes one conversion's outcome: a record to deliver, nothing (a bad line skipped or a
    /// record left out of the demand), or the error that ends the import. After an error
    /// `finished` is set.
    fn accept(&mut self, outcome: Outcome) -> Option<Result<GatewayRecord, GatewayError>> {
        match outcome {
            Ok(Err(reason)) => {
                self.left_out.add(reason);
                None
            }
            Ok(Ok(record)) => {
                self.records += 1;
                if record.detail.first_token_unknown {
                    self.first_token_unknown += 1;
                }
                Some(Ok(record))
            }
            Err(Failure::Line(error)) if self.skip_bad_lines => {
                self.skipped.record(error);
                None
            }
            Err(Failure::Line(error)) => {
                self.finished = true;
                Some(Err(error.into()))
            }
            Err(Failure::Fatal(error)) => {
                self.finished = true;
                Some(Err(error))
            }
        }
    }
}

/// One record's conversion: the record, a record left out of the demand, or a failure.
type Outcome = Result<Result<GatewayRecord, LeftOut>, Failure>;

enum Source<R: BufRead> {
    Json(JsonValues<R>, Schema),
    Csv(CsvRows<R>),
}

impl<R: BufRead> GatewayReader<R> {
    /// Recognises the format (reading the first record or the header) and prepares to stream.
    pub fn new(mut reader: R, options: &ReadOptions) -> Result<Self, GatewayError> {
        let name = options.source_name.clone();
        let read_error = |e: io::Error| GatewayError::Read {
            source_name: name.clone(),
            message: e.to_string(),
        };
        let (first, skipped_lines, skipped_bytes) =
            skip_leading_blanks(&mut reader).map_err(read_error)?;
        let (source, format) = match first {
            None => return Err(GatewayError::Empty { source_name: name }),
            Some(b'{' | b'[') => {
                let mut json = JsonValues::new(reader, 1 + skipped_lines, skipped_bytes);
                let line = match json.next_value() {
                    Ok(Some(line)) => line,
                    Ok(None) => return Err(GatewayError::Empty { source_name: name }),
                    Err(ScanError::Read(e)) => return Err(read_error(e)),
                    Err(ScanError::Record { line, message }) => {
                        return Err(line_error(&name, line, None, message).into());
                    }
                };
                json.decide_framing(line);
                let keys = serde_json::from_slice::<KeyList>(json.value())
                    .map_err(|e| json_syntax_error(&name, line, &e))?
                    .0;
                let has = |key: &str| keys.iter().any(|k| k == key);
                let (schema, format) = if has("start_time") {
                    (Schema::Generic, GatewayFormat::GenericJsonl)
                } else if has("startTime") && has("request_id") {
                    (Schema::SpendLogs, GatewayFormat::LitellmSpendLogsJson)
                } else if has("startTime") && has("id") {
                    (Schema::Payload, GatewayFormat::LitellmStandardPayload)
                } else {
                    return Err(GatewayError::UnknownFormat {
                        source_name: name,
                        message: format!(
                            "line {line}: the first JSON object has neither `start_time` (generic \
                             schema) nor `startTime` with `request_id` or `id` (LiteLLM); its keys \
                             are {}",
                            keys.iter().take(12).cloned().collect::<Vec<_>>().join(", ")
                        ),
                    });
                };
                json.pending_first = true;
                (Source::Json(json, schema), format)
            }
            Some(_) => {
                let rows = CsvRows::new(reader, skipped_lines, skipped_bytes, &name)?;
                let format = match rows.schema {
                    Schema::Generic => GatewayFormat::GenericCsv,
                    _ => GatewayFormat::LitellmSpendLogsCsv,
                };
                (Source::Csv(rows), format)
            }
        };
        Ok(GatewayReader {
            source,
            format,
            source_name: options.source_name.clone(),
            tally: Tally {
                skip_bad_lines: options.skip_bad_lines,
                ..Tally::default()
            },
        })
    }

    /// The recognised format.
    pub fn format(&self) -> GatewayFormat {
        self.format
    }

    /// Bytes consumed from the reader so far.
    pub fn bytes_read(&self) -> u64 {
        match &self.source {
            Source::Json(json, _) => json.bytes,
            Source::Csv(rows) => rows.bytes_read(),
        }
    }

    /// Records skipped so far (only with `skip_bad_lines`).
    pub fn skipped(&self) -> &SkippedLines {
        &self.tally.skipped
    }

    /// Format, counts and bytes so far (complete once the iterator has ended).
    pub fn summary(&self) -> ImportSummary {
        ImportSummary {
            format: self.format,
            records: self.tally.records,
            skipped: self.tally.skipped.clone(),
            bytes_read: self.bytes_read(),
            left_out: self.tally.left_out.clone(),
            notes: self.tally.notes(),
        }
    }

    fn next_record(&mut self) -> Result<Option<Result<GatewayRecord, LeftOut>>, Failure> {
        let name = &self.source_name;
        match &mut self.source {
            Source::Json(json, schema) => match next_json_value(json, name)? {
                None => Ok(None),
                Some(line) => {
                    convert_json(*schema, name, line, json.value(), json.at_unterminated_end)
                        .map(Some)
                }
            },
            Source::Csv(rows) => rows.next_record(name),
        }
    }

    /// The next JSON records as raw bytes, about `max_bytes` of them, for conversion on another
    /// thread ([`RawBatch::convert`]); `None` for CSV, which is read record by record. A batch
    /// with [`RawBatch::last`] set ends the source. Framing errors travel in the batch, in order.
    pub(crate) fn next_raw_batch(&mut self, max_bytes: usize) -> Option<RawBatch> {
        let name = self.source_name.clone();
        let Source::Json(json, schema) = &mut self.source else {
            return None;
        };
        let mut batch = RawBatch {
            schema: *schema,
            source_name: name.clone(),
            buf: Vec::with_capacity(max_bytes + 4096),
            items: Vec::new(),
            bytes_read: 0,
            last: false,
        };
        while batch.buf.len() < max_bytes {
            match next_json_value(json, &name) {
                Ok(Some(line)) => {
                    let from = batch.buf.len();
                    batch.buf.extend_from_slice(json.value());
                    batch.items.push(RawItem::Value {
                        line,
                        range: (from, batch.buf.len()),
                        unterminated_end: json.at_unterminated_end,
                    });
                }
                Ok(None) => {
                    batch.last = true;
                    break;
                }
                Err(failure) => {
                    let fatal = matches!(failure, Failure::Fatal(_));
                    batch.items.push(RawItem::Failed(failure));
                    if fatal {
                        batch.last = true;
                        break;
                    }
                }
            }
        }
        batch.bytes_read = json.bytes;
        Some(batch)
    }

    /// Whether records come as JSON values (which [`Self::next_raw_batch`] batches).
    pub(crate) fn is_json(&self) -> bool {
        matches!(self.source, Source::Json(..))
    }

    /// Takes the tally out, for a caller that converts batches elsewhere and accepts them
    /// itself ([`Tally::accept_batch`]); this reader's own tally starts over.
    pub(crate) fn take_tally(&mut self) -> Tally {
        std::mem::take(&mut self.tally)
    }
}

/// Reads the next JSON value's framing; a scan error becomes the record's failure.
fn next_json_value<R: BufRead>(
    json: &mut JsonValues<R>,
    name: &str,
) -> Result<Option<u64>, Failure> {
    match json.next_value() {
        Ok(line) => Ok(line),
        Err(ScanError::Read(e)) => Err(Failure::Fatal(GatewayError::Read {
            source_name: name.to_string(),
            message: e.to_string(),
        })),
        Err(ScanError::Record { line, message }) => {
            Err(Failure::Line(line_error(name, line, None, message)))
        }
    }
}

/// One JSON value (starting on `line`) into a record of `schema`.
fn convert_json(
    schema: Schema,
    name: &str,
    line: u64,
    bytes: &[u8],
    unterminated_end: bool,
) -> Outcome {
    if bytes.first() != Some(&b'{') {
        let found = String::from_utf8_lossy(&bytes[..bytes.len().min(20)]).into_owned();
        return Err(Failure::Line(line_error(
            name,
            line,
            None,
            format!("expected a JSON object, found {found:?}"),
        )));
    }
    let converted = match schema {
        Schema::Generic => serde_json::from_slice::<GenericFields>(bytes)
            .map(|fields| fields.into_record().map(Ok)),
        Schema::SpendLogs => {
            serde_json::from_slice::<SpendLogFields>(bytes).map(SpendLogFields::into_outcome)
        }
        Schema::Payload => {
            serde_json::from_slice::<PayloadFields>(bytes).map(PayloadFields::into_outcome)
        }
    };
    match converted {
        Ok(Ok(record)) => Ok(record),
        Ok(Err(field)) => Err(Failure::Line(line_error(
            name,
            line,
            Some(field.field),
            field.message,
        ))),
        Err(e) if e.is_eof() && unterminated_end => {
            let mut error = json_syntax_error(name, line, &e);
            error.message = format!("{MID_RECORD}: {}", error.message);
            Err(Failure::Line(error))
        }
        Err(e) => Err(Failure::Line(json_syntax_error(name, line, &e))),
    }
}

/// JSON records read but not yet converted: their bytes back to back, in file order.
pub(crate) struct RawBatch {
    schema: Schema,
    source_name: String,
    buf: Vec<u8>,
    items: Vec<RawItem>,
    /// Bytes of the source consumed once this batch was read.
    pub(crate) bytes_read: u64,
    /// The source ends with this batch.
    pub(crate) last: bool,
}

enum RawItem {
    Value {
        line: u64,
        range: (usize, usize),
        unterminated_end: bool,
    },
    Failed(Failure),
}

/// A converted batch: each record or its failure, in file order.
pub(crate) struct ConvertedBatch {
    outcomes: Vec<Outcome>,
    pub(crate) bytes_read: u64,
    pub(crate) last: bool,
}

impl RawBatch {
    /// Converts every record (the costly part: JSON and timestamps); needs no reader.
    pub(crate) fn convert(self) -> ConvertedBatch {
        let RawBatch {
            schema,
            source_name,
            buf,
            items,
            bytes_read,
            last,
        } = self;
        let outcomes = items
            .into_iter()
            .map(|item| match item {
                RawItem::Value {
                    line,
                    range,
                    unterminated_end,
                } => convert_json(
                    schema,
                    &source_name,
                    line,
                    &buf[range.0..range.1],
                    unterminated_end,
                ),
                RawItem::Failed(failure) => Err(failure),
            })
            .collect();
        ConvertedBatch {
            outcomes,
            bytes_read,
            last,
        }
    }
}

impl Tally {
    /// Hands the batch's records to `on_record` in order; the first error that ends the import
    /// is returned (the records before it were delivered, as with the iterator).
    pub(crate) fn accept_batch(
        &mut self,
        batch: ConvertedBatch,
        on_record: &mut impl FnMut(GatewayRecord),
    ) -> Result<(), GatewayError> {
        for outcome in batch.outcomes {
            match self.accept(outcome) {
                Some(Ok(record)) => on_record(record),
                Some(Err(error)) => return Err(error),
                None => {}
            }
        }
        if batch.last {
            self.finished = true;
        }
        Ok(())
    }

    /// The summary of an import read in batches.
    pub(crate) fn summary(&self, format: GatewayFormat, bytes_read: u64) -> ImportSummary {
        ImportSummary {
            format,
            records: self.records,
            skipped: self.skipped.clone(),
            bytes_read,
            left_out: self.left_out.clone(),
            notes: self.notes(),
        }
    }
}

impl<R: BufRead> Iterator for GatewayReader<R> {
    type Item = Result<GatewayRecord, GatewayError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.tally.finished {
            match self.next_record() {
                Ok(Some(outcome)) => {
                    if let Some(item) = self.tally.accept(Ok(outcome)) {
                        return Some(item);
                    }
                }
                Ok(None) => self.tally.finished = true,
                Err(failure) => {
                    if let Some(item) = self.tally.accept(Err(failure)) {
                        return Some(item);
                    }
                }
            }
        }
        None
    }
}

fn line_error(
    name: &str,
    line: u64,
    field: Option<String>,
    message: impl Into<String>,
) -> LineError {
    LineError {
        source_name: name.to_owned(),
        line,
        field,
        message: message.into(),
    }
}

/// How every message about a file cut off mid-record begins.
pub const MID_RECORD: &str = "the file ends mid-record (cut off?)";

/// A serde_json error inside a record starting at `first_line`, located in the file.
fn json_syntax_error(name: &str, first_line: u64, error: &serde_json::Error) -> LineError {
    let text = error.to_string();
    let message = match text.rfind(" at line ") {
        Some(cut) if error.line() > 0 => &text[..cut],
        _ => &text,
    };
    let line = first_line + error.line().saturating_sub(1) as u64;
    line_error(name, line, None, format!("invalid JSON: {message}"))
}

/// Skips a byte-order mark and whitespace; returns the first other byte (not consumed), the
/// number of newlines and of bytes skipped.
fn skip_leading_blanks<R: BufRead>(reader: &mut R) -> io::Result<(Option<u8>, u64, u64)> {
    let mut lines = 0;
    let mut bytes = 0;
    let mut at_start = true;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((None, lines, bytes));
        }
        if at_start && chunk.starts_with(&[0xEF, 0xBB, 0xBF]) {
            reader.consume(3);
            bytes += 3;
            at_start = false;
            continue;
        }
        at_start = false;
        let blanks = chunk.iter().take_while(|b| b.is_ascii_whitespace()).count();
        lines += chunk[..blanks].iter().filter(|&&b| b == b'\n').count() as u64;
        let first = chunk.get(blanks).copied();
        reader.consume(blanks);
        bytes += blanks as u64;
        if first.is_some() {
            return Ok((first, lines, bytes));
        }
    }
}

enum ScanError {
    Read(io::Error),
    Record { line: u64, message: String },
}

impl From<io::Error> for ScanError {
    fn from(e: io::Error) -> Self {
        ScanError::Read(e)
    }
}

/// Splits a byte stream into top-level JSON values (see the module docs for the framings).
struct JsonValues<R> {
    reader: R,
    /// Line of the next unread byte (1-based).
    line: u64,
    bytes: u64,
    /// One value per line: frame by newlines, so a broken line never affects the next.
    lines_mode: bool,
    in_array: bool,
    skip_rest_of_line: bool,
    /// The first value (read for detection) is still in `buf` and not yet delivered.
    pending_first: bool,
    buf: Vec<u8>,
    range: (usize, usize),
    /// Line on which the value in `buf` starts.
    value_line: u64,
    /// The value last returned is on the file's last line, which has no line end.
    at_unterminated_end: bool,
}

impl<R: BufRead> JsonValues<R> {
    fn new(reader: R, line: u64, bytes: u64) -> Self {
        JsonValues {
            reader,
            line,
            bytes,
            lines_mode: false,
            in_array: false,
            skip_rest_of_line: false,
            pending_first: false,
            buf: Vec::with_capacity(4096),
            range: (0, 0),
            value_line: line,
            at_unterminated_end: false,
        }
    }

    /// The bytes of the value last returned by [`Self::next_value`].
    fn value(&self) -> &[u8] {
        &self.buf[self.range.0..self.range.1]
    }

    /// After the first value: one object that began and ended on one line, outside an array,
    /// means JSON Lines.
    fn decide_framing(&mut self, first_line: u64) {
        self.lines_mode = !self.in_array && first_line == self.line;
    }

    /// Reads the next value into the buffer; returns the line it starts on, `None` at the end.
    fn next_value(&mut self) -> Result<Option<u64>, ScanError> {
        if self.pending_first {
            self.pending_first = false;
            return Ok(Some(self.value_line));
        }
        if self.lines_mode {
            self.next_line()
        } else {
            self.scan_value()
        }
    }

    fn next_line(&mut self) -> Result<Option<u64>, ScanError> {
        loop {
            self.buf.clear();
            let n = self.reader.read_until(b'\n', &mut self.buf)?;
            if n == 0 {
                return Ok(None);
            }
            self.bytes += n as u64;
            let line = self.line;
            if self.buf.last() == Some(&b'\n') {
                self.line += 1;
            }
            self.at_unterminated_end = self.buf.last() != Some(&b'\n');
            let start = self
                .buf
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            let end = self.buf.len()
                - self.buf[start..]
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
            if start < end {
                self.range = (start, end);
                self.value_line = line;
                return Ok(Some(line));
            }
        }
    }

    fn scan_value(&mut self) -> Result<Option<u64>, ScanError> {
        self.buf.clear();
        if self.skip_rest_of_line {
            self.skip_rest_of_line = false;
            let n = self.reader.read_until(b'\n', &mut self.buf)?;
            self.bytes += n as u64;
            if self.buf.last() == Some(&b'\n') {
                self.line += 1;
            }
            self.buf.clear();
        }
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escape = false;
        let mut start_line = self.line;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ScanError::Read(e)),
            };
            if chunk.is_empty() {
                if depth > 0 {
                    // The list around it is cut off with it: one bad record, not two.
                    self.in_array = false;
                    return Err(ScanError::Record {
                        line: start_line,
                        message: format!(
                            "{MID_RECORD}: the JSON object is not closed before the end of the file"
                        ),
                    });
                }
                if self.in_array {
                    self.in_array = false;
                    return Err(ScanError::Record {
                        line: self.line,
                        message: format!(
                            "{MID_RECORD}: the top-level JSON list is not closed with `]`"
                        ),
                    });
                }
                return Ok(None);
            }
            let mut value_from = (depth > 0).then_some(0);
            let mut complete = false;
            let mut stray = None;
            let mut i = 0;
            while i < chunk.len() {
                let b = chunk[i];
                i += 1;
                if depth == 0 {
                    match b {
                        b'\n' => self.line += 1,
                        b' ' | b'\t' | b'\r' => {}
                        // Another list after the first: a sink that appends each posted body
                        // (LiteLLM's `generic_api` posts one JSON array per batch).
                        b'[' if !self.in_array => self.in_array = true,
                        b',' if self.in_array => {}
                        b']' if self.in_array => self.in_array = false,
                        b'{' => {
                            depth = 1;
                            start_line = self.line;
                            value_from = Some(i - 1);
                        }
                        other => {
                            stray = Some(other);
                            break;
                        }
                    }
                } else if in_string {
                    if escape {
                        escape = false;
                    } else if b == b'\\' {
                        escape = true;
                    } else if b == b'"' {
                        in_string = false;
                    } else if b == b'\n' {
                        self.line += 1;
                    }
                } else {
                    match b {
                        b'"' => in_string = true,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                complete = true;
                                break;
                            }
                        }
                        b'\n' => self.line += 1,
                        _ => {}
                    }
                }
            }
            if let Some(from) = value_from {
                self.buf.extend_from_slice(&chunk[from..i]);
            }
            self.reader.consume(i);
            self.bytes += i as u64;
            if let Some(byte) = stray {
                self.skip_rest_of_line = true;
                return Err(ScanError::Record {
                    line: self.line,
                    message: format!("expected a JSON object, found {:?}", char::from(byte)),
                });
            }
            if complete {
                self.range = (0, self.buf.len());
                self.value_line = start_line;
                return Ok(Some(start_line));
            }
        }
    }
}

/// Passes CSV bytes through while following the quoting the way the `csv` crate reads it (a
/// quote opens a quoted field only at the start of a field; `""` inside one is a quote), so that
/// the end of the file can be told apart from the end of a quoted field: the `csv` crate ends a
/// field silently at the end of the input, which would turn a cut-off file into a short record.
struct QuoteTracker<R> {
    inner: R,
    state: QuoteState,
    /// Line (1-based, counted in this stream) where the open quoted field began.
    quote_line: u64,
    line: u64,
    bytes: u64,
    last_byte: Option<u8>,
    at_eof: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QuoteState {
    /// At the start of a field.
    FieldStart,
    /// Inside an unquoted field (quotes here are plain characters).
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// A quote inside a quoted field: the field's end, or the first of `""`.
    QuoteInQuoted,
}

impl<R> QuoteTracker<R> {
    fn new(inner: R) -> Self {
        QuoteTracker {
            inner,
            state: QuoteState::FieldStart,
            quote_line: 0,
            line: 1,
            bytes: 0,
            last_byte: None,
            at_eof: false,
        }
    }

    fn follow(&mut self, bytes: &[u8]) {
        use QuoteState::*;
        for &b in bytes {
            self.state = match (self.state, b) {
                (Quoted, b'"') => QuoteInQuoted,
                (Quoted, _) => Quoted,
                (QuoteInQuoted, b'"') => Quoted,
                (FieldStart, b'"') => {
                    self.quote_line = self.line;
                    Quoted
                }
                (_, b',' | b'\n' | b'\r') => FieldStart,
                _ => Unquoted,
            };
            if b == b'\n' {
                self.line += 1;
            }
        }
        if let Some(&last) = bytes.last() {
            self.last_byte = Some(last);
        }
        self.bytes += bytes.len() as u64;
    }

    /// The whole input has been read and it ends inside a quoted field.
    fn ends_in_quotes(&self) -> bool {
        self.at_eof && self.state == QuoteState::Quoted
    }

    /// The whole input has been read and its last byte is not a line end.
    fn ends_without_line_end(&self) -> bool {
        self.at_eof && !matches!(self.last_byte, None | Some(b'\n' | b'\r'))
    }
}

impl<R: io::Read> io::Read for QuoteTracker<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.at_eof = true;
        }
        self.follow(&buf[..n]);
        Ok(n)
    }
}

/// Where a CSV text ends inside a quoted field: the line (1-based) the open field began on;
/// `None` when every quoted field is closed. For parsers that hold the whole text.
pub(crate) fn open_quote_at_end(text: &[u8]) -> Option<u64> {
    let mut tracker = QuoteTracker::new(());
    tracker.follow(text);
    (tracker.state == QuoteState::Quoted).then_some(tracker.quote_line)
}

/// CSV rows under a recognised header.
struct CsvRows<R> {
    reader: csv::Reader<QuoteTracker<R>>,
    schema: Schema,
    /// For each name of the schema's column list, its index in the header (if present).
    columns: Vec<Option<usize>>,
    names: &'static [&'static str],
    record: csv::ByteRecord,
    line_offset: u64,
    byte_offset: u64,
    /// Rows read after the header (good or bad).
    rows: u64,
}

impl<R: BufRead> CsvRows<R> {
    fn new(
        reader: R,
        line_offset: u64,
        byte_offset: u64,
        name: &str,
    ) -> Result<Self, GatewayError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(QuoteTracker::new(reader));
        let headers = reader
            .byte_headers()
            .map_err(|e| GatewayError::Read {
                source_name: name.to_owned(),
                message: e.to_string(),
            })?
            .clone();
        let header: Vec<String> = headers
            .iter()
            .map(|h| String::from_utf8_lossy(h).trim().to_owned())
            .collect();
        let unknown = |message: String| GatewayError::UnknownFormat {
            source_name: name.to_owned(),
            message,
        };
        let (schema, names, columns): (Schema, &'static [&'static str], Vec<Option<usize>>) =
            if header.iter().any(|h| h == "start_time") {
                let columns = generic::COLUMNS
                    .iter()
                    .map(|c| header.iter().position(|h| h == c))
                    .collect();
                (Schema::Generic, &generic::COLUMNS, columns)
            } else if header.iter().any(|h| h.eq_ignore_ascii_case("startTime")) {
                let columns = litellm::SPEND_LOG_COLUMNS
                    .iter()
                    .map(|c| header.iter().position(|h| h.eq_ignore_ascii_case(c)))
                    .collect();
                (Schema::SpendLogs, &litellm::SPEND_LOG_COLUMNS, columns)
            } else {
                let shown: String = header.join(",").chars().take(120).collect();
                return Err(unknown(format!(
                    "line {}: a CSV header needs a `start_time` column (generic schema) or a \
                     `startTime` column (LiteLLM SpendLogs); found {shown:?}",
                    line_offset + 1
                )));
            };
        let required: &[&str] = match schema {
            Schema::Generic => &[
                "request_id",
                "start_time",
                "end_time",
                "model",
                "prompt_tokens",
                "completion_tokens",
                "status",
            ],
            _ => &["request_id", "startTime", "endTime"],
        };
        for column in required {
            let i = names.iter().position(|n| n == column).unwrap_or(0);
            if columns[i].is_none() {
                return Err(unknown(format!(
                    "line {}: the CSV header has no `{column}` column",
                    line_offset + 1
                )));
            }
        }
        Ok(CsvRows {
            reader,
            schema,
            columns,
            names,
            record: csv::ByteRecord::new(),
            line_offset,
            byte_offset,
            rows: 0,
        })
    }

    fn bytes_read(&self) -> u64 {
        self.byte_offset + self.reader.position().byte()
    }

    /// The parser has consumed the whole input: the record just read was the last.
    fn at_end(&self) -> bool {
        let tracker = self.reader.get_ref();
        tracker.at_eof && self.reader.position().byte() >= tracker.bytes
    }

    fn next_record(
        &mut self,
        name: &str,
    ) -> Result<Option<Result<GatewayRecord, LeftOut>>, Failure> {
        let read = self.reader.read_byte_record(&mut self.record);
        if matches!(read, Ok(false))
            && self.rows == 0
            && self.reader.get_ref().ends_without_line_end()
        {
            // Counted as a row, so that a reader skipping bad lines gets this error once.
            self.rows = 1;
            return Err(Failure::Line(line_error(
                name,
                self.line_offset + 1,
                None,
                format!("{MID_RECORD}: the header has no line end and no rows follow it"),
            )));
        }
        if !matches!(read, Ok(false)) {
            self.rows += 1;
        }
        let last_row = matches!(read, Ok(true) | Err(_)) && self.at_end();
        if last_row && self.reader.get_ref().ends_in_quotes() {
            let line = self.reader.get_ref().quote_line + self.line_offset;
            return Err(Failure::Line(line_error(
                name,
                line,
                None,
                format!("{MID_RECORD}: the quoted field opened on this line is not closed"),
            )));
        }
        if last_row && self.reader.get_ref().ends_without_line_end() {
            let line = match &read {
                Err(e) => e.position().map(csv::Position::line),
                Ok(_) => self.record.position().map(csv::Position::line),
            };
            let found = match read.as_ref().map_err(csv::Error::kind) {
                Err(csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                }) => format!("expected {expected_len} fields like the header, found {len}"),
                _ => "its last field may be incomplete".to_owned(),
            };
            return Err(Failure::Line(line_error(
                name,
                line.unwrap_or(0) + self.line_offset,
                None,
                format!("{MID_RECORD}: the last row has no line end; {found}"),
            )));
        }
        match read {
            Ok(false) => Ok(None),
            Ok(true) => {
                let line = self.record.position().map_or(0, |p| p.line()) + self.line_offset;
                let nulls: &[&str] = match self.schema {
                    Schema::Generic => &[],
                    _ => &CSV_NULLS,
                };
                let mut bad_utf8 = None;
                let record = &self.record;
                let columns = &self.columns;
                let column = |i: usize| -> Option<Scalar> {
                    let bytes = record.get(columns[i]?)?;
                    match std::str::from_utf8(bytes) {
                        Ok(text) => cell(Some(text.trim()), nulls),
                        Err(_) => {
                            bad_utf8.get_or_insert(i);
                            None
                        }
                    }
                };
                let converted = match self.schema {
                    Schema::Generic => GenericFields::from_columns(column).into_record().map(Ok),
                    _ => SpendLogFields::from_columns(column).into_outcome(),
                };
                if let Some(i) = bad_utf8 {
                    return Err(Failure::Line(line_error(
                        name,
                        line,
                        Some(self.names[i].to_owned()),
                        "not valid UTF-8 text",
                    )));
                }
                converted
                    .map(Some)
                    .map_err(|e| Failure::Line(line_error(name, line, Some(e.field), e.message)))
            }
            Err(error) => match error.kind() {
                csv::ErrorKind::UnequalLengths {
                    pos,
                    expected_len,
                    len,
                } => Err(Failure::Line(line_error(
                    name,
                    pos.as_ref().map_or(0, |p| p.line()) + self.line_offset,
                    None,
                    format!("expected {expected_len} columns like the header, found {len}"),
                ))),
                csv::ErrorKind::Io(e) => Err(Failure::Fatal(GatewayError::Read {
                    source_name: name.to_owned(),
                    message: e.to_string(),
                })),
                _ => Err(Failure::Line(line_error(
                    name,
                    self.reader.position().line() + self.line_offset,
                    None,
                    error.to_string(),
                ))),
            },
        }
    }
}
