//! AIPerf per-request `profile_export.jsonl`, streamed.
//!
//! One JSON object per request: `{"metadata": {…}, "metrics": {tag: {"value", "unit"}},
//! "error": null | {code, type, message}}`. The file has no summary, so the operating point's
//! statistics are computed here (exact percentiles, see [`super::stats`]).
//!
//! Decisions:
//! * Streaming: lines are read one at a time into a reused buffer and parsed into borrowed,
//!   typed structs (unknown tags are skipped without allocation). Memory is the kept records
//!   plus 8 bytes per value per metric (see [`super::ImportOptions`]). Only when a line fails the
//!   typed parse is it re-read as a generic JSON value, to name the offending field.
//! * Both metadata generations are read: current (`request_start_ns`, `request_end_ns`,
//!   `benchmark_phase`) and early (`timestamp_ns`, `credit_phase`, tags `ttft`/`ttst`).
//!   Warm-up records are skipped (and counted in a warning).
//! * Errored records count as failed and keep their error text; they add no latency values.
//! * Duration is AIPerf's own definition: latest response end − earliest request start over
//!   successful records; throughputs are derived from it.
//! * Plausible records only ([`crate::plausible`]): every instant (`timestamp_ns`,
//!   `request_start_ns`, `request_end_ns`, `min_request_timestamp`, `max_response_timestamp`)
//!   lies in 2000–2099 (`timestamp_ns: 0` would make a 55-year run) and a record ends after it
//!   starts; token counts are whole (`550.5` is refused, not cut); TTFT ≤ E2E and TTFT plus the
//!   chunk gaps ≤ E2E.
//! * Output length is `output_sequence_length` (including reasoning), else
//!   `output_token_count + reasoning_token_count`. TPOT is the record's
//!   `inter_token_latency`, else (E2E − TTFT) ÷ (output − 1).

use super::ImportOptions;
use super::across::check_request;
use super::aiperf::ms_per_unit;
use super::common::{AIPERF_DEFS, def_for, finish_point};
use super::error::{Ctx, ErrorKind, IngestError, describe};
use super::json::{Result, checked, replace_non_finite};
use super::model::{Format, Import, MetricKey, OperatingPoint, RequestRecord};
use super::stats::Series;
use crate::plausible::{self, Quantity, across};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::io::BufRead;

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(default, borrow)]
    metadata: Option<Meta<'a>>,
    #[serde(default, borrow)]
    metrics: Option<Metrics<'a>>,
    #[serde(default, borrow)]
    error: Option<ErrorInfo<'a>>,
}

#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(default, borrow)]
    x_request_id: Option<Cow<'a, str>>,
    #[serde(default)]
    request_start_ns: Option<serde_json::Number>,
    #[serde(default)]
    request_end_ns: Option<serde_json::Number>,
    #[serde(default)]
    timestamp_ns: Option<serde_json::Number>,
    #[serde(default, borrow)]
    benchmark_phase: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    credit_phase: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Metrics<'a> {
    #[serde(default, borrow)]
    time_to_first_token: Option<Scalar<'a>>,
    /// The early layout's tag for the same metric (kept apart so errors name the file's tag).
    #[serde(default, borrow)]
    ttft: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    time_to_second_token: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    ttst: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    request_latency: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    inter_token_latency: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    inter_chunk_latency: Option<List<'a>>,
    #[serde(default, borrow)]
    input_sequence_length: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    output_sequence_length: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    output_token_count: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    reasoning_token_count: Option<Scalar<'a>>,
    #[serde(default, borrow)]
    output_token_throughput_per_user: Option<Scalar<'a>>,
    #[serde(default)]
    min_request_timestamp: Option<Ns>,
    #[serde(default)]
    max_response_timestamp: Option<Ns>,
}

#[derive(Deserialize)]
struct Scalar<'a> {
    value: Option<f64>,
    #[serde(default, borrow)]
    unit: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct List<'a> {
    value: Option<Vec<f64>>,
    #[serde(default, borrow)]
    unit: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Ns {
    value: Option<serde_json::Number>,
}

#[derive(Deserialize)]
struct ErrorInfo<'a> {
    #[serde(default)]
    code: Option<Value>,
    #[serde(default, rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    message: Option<Cow<'a, str>>,
}

/// A Unix instant in nanoseconds as AIPerf writes it (`field` names it), refused outside
/// 2000–2099 ([`plausible::instant_ns`]): `timestamp_ns: 0` is no request start.
fn instant(n: Option<&serde_json::Number>, field: &str, ctx: &Ctx) -> Result<Option<u64>> {
    let Some(n) = n else {
        return Ok(None);
    };
    let v = n.as_f64().unwrap_or(f64::NAN);
    plausible::instant_ns(v).map_err(|why| ctx.invalid(field, why))?;
    Ok(Some(n.as_u64().unwrap_or(v as u64)))
}

/// A token count of one record: a whole number within [`Quantity::Count`].
fn whole(v: Option<f64>, field: &str, ctx: &Ctx) -> Result<Option<u64>> {
    v.map(|v| plausible::whole_count(v).map_err(|e| ctx.invalid(field, e.message)))
        .transpose()
}

/// Tags whose values the importer reads, and what each must hold (for error diagnosis).
const SCALAR_TAGS: [&str; 11] = [
    "time_to_first_token",
    "ttft",
    "time_to_second_token",
    "ttst",
    "request_latency",
    "inter_token_latency",
    "input_sequence_length",
    "output_sequence_length",
    "output_token_count",
    "reasoning_token_count",
    "output_token_throughput_per_user",
];

/// Accumulates the run while lines stream by.
struct Acc {
    opts: ImportOptions,
    ttft: Series,
    ttst: Series,
    tpot: Series,
    itl: Series,
    e2e: Series,
    isl: Series,
    osl: Series,
    per_user: Series,
    completed: u64,
    failed: u64,
    warmup_skipped: u64,
    isl_total: u64,
    isl_seen: u64,
    osl_total: u64,
    osl_seen: u64,
    min_start_ns: Option<u64>,
    max_end_ns: Option<u64>,
    records: Vec<RequestRecord>,
    /// Absolute start (ns) per kept record, to turn into offsets at the end.
    record_starts: Vec<Option<u64>>,
    early_layout: bool,
    /// Lines that needed NaN/Infinity read as missing.
    non_finite_lines: u64,
}

impl Acc {
    fn new(opts: ImportOptions) -> Self {
        Acc {
            opts,
            ttft: Series::new(true),
            ttst: Series::new(true),
            tpot: Series::new(true),
            itl: Series::new(opts.exact_itl_percentiles),
            e2e: Series::new(true),
            isl: Series::new(true),
            osl: Series::new(true),
            per_user: Series::new(true),
            completed: 0,
            failed: 0,
            warmup_skipped: 0,
            isl_total: 0,
            isl_seen: 0,
            osl_total: 0,
            osl_seen: 0,
            min_start_ns: None,
            max_end_ns: None,
            records: Vec::new(),
            record_starts: Vec::new(),
            early_layout: false,
            non_finite_lines: 0,
        }
    }

    fn add(&mut self, line: Line, ctx: &Ctx) -> Result<()> {
        let meta = line.metadata;
        if let Some(m) = &meta {
            let phase = m.benchmark_phase.as_deref().or(m.credit_phase.as_deref());
            if m.credit_phase.is_some() || m.timestamp_ns.is_some() {
                self.early_layout = true;
            }
            if phase.is_some_and(|p| p.eq_ignore_ascii_case("warmup")) {
                self.warmup_skipped += 1;
                return Ok(());
            }
        }
        let id = meta
            .as_ref()
            .and_then(|m| m.x_request_id.as_deref())
            .map(str::to_string);
        let (meta_start, meta_end) = match &meta {
            Some(m) => meta_instants(m, ctx)?,
            None => (None, None),
        };

        if let Some(err) = line.error {
            self.failed += 1;
            if self.opts.keep_requests {
                let mut r = RequestRecord::new(0);
                r.id = id;
                let mut text = String::new();
                if let Some(code) = err.code.as_ref().and_then(super::json::scalar_text) {
                    text.push_str(&code);
                    text.push(' ');
                }
                text.push_str(err.kind.as_deref().unwrap_or("error"));
                if let Some(msg) = err.message.as_deref() {
                    text.push_str(": ");
                    text.push_str(msg);
                }
                r.error = Some(text);
                self.records.push(r);
                self.record_starts.push(meta_start);
            }
            return Ok(());
        }
        let Some(m) = line.metrics else {
            return Err(ctx.err(
                ErrorKind::MissingField,
                Some("metrics"),
                "a record needs \"metrics\" (or an \"error\")",
            ));
        };
        self.completed += 1;
        let ms = |s: &Option<Scalar>, tag: &str| -> Result<Option<f64>> {
            match s {
                Some(Scalar {
                    value: Some(v),
                    unit,
                }) => checked(
                    v * factor(unit, tag, ctx)?,
                    Quantity::Latency,
                    &format!("metrics.{tag}.value"),
                    ctx,
                )
                .map(Some),
                _ => Ok(None),
            }
        };
        // Token counts and rates: checked against their rule, naming the tag.
        let plain = |s: &Option<Scalar>, tag: &str, quantity: Quantity| -> Result<Option<f64>> {
            match s.as_ref().and_then(|s| s.value) {
                None => Ok(None),
                Some(v) => checked(v, quantity, &format!("metrics.{tag}.value"), ctx).map(Some),
            }
        };
        let ttft = match &m.time_to_first_token {
            Some(_) => ms(&m.time_to_first_token, "time_to_first_token")?,
            None => ms(&m.ttft, "ttft")?,
        };
        let ttst = match &m.time_to_second_token {
            Some(_) => ms(&m.time_to_second_token, "time_to_second_token")?,
            None => ms(&m.ttst, "ttst")?,
        };
        let e2e = ms(&m.request_latency, "request_latency")?;
        let isl_tag = "input_sequence_length";
        let isl = plain(&m.input_sequence_length, isl_tag, Quantity::Count)?;
        let isl = whole(isl, &format!("metrics.{isl_tag}.value"), ctx)?;
        // Every token count of the record is whole and ≥ 0, also those the length is not
        // taken from (AIPerf's output_sequence_length = output_token_count + reasoning).
        let token_count = |s: &Option<Scalar>, tag: &str| -> Result<Option<u64>> {
            let v = plain(s, tag, Quantity::Count)?;
            whole(v, &format!("metrics.{tag}.value"), ctx)
        };
        let answer = token_count(&m.output_token_count, "output_token_count")?;
        let reasoning = token_count(&m.reasoning_token_count, "reasoning_token_count")?;
        let osl = match token_count(&m.output_sequence_length, "output_sequence_length")? {
            Some(v) => Some(v),
            None => match answer {
                Some(o) => Some(
                    plausible::add_counts("output_token_count", o, reasoning.unwrap_or(0))
                        .map_err(|why| ctx.invalid("metrics.output_token_count.value", why))?,
                ),
                None => None,
            },
        };
        let tpot = match ms(&m.inter_token_latency, "inter_token_latency")? {
            Some(t) => Some(t),
            None => match (e2e, ttft, osl) {
                (Some(e), Some(t), Some(o)) if o > 1 => Some((e - t) / (o - 1) as f64),
                _ => None,
            },
        };
        let per_user = plain(
            &m.output_token_throughput_per_user,
            "output_token_throughput_per_user",
            Quantity::Rate,
        )?;
        let (icl, icl_factor) = match &m.inter_chunk_latency {
            Some(List {
                value: Some(v),
                unit,
            }) => (v.as_slice(), factor(unit, "inter_chunk_latency", ctx)?),
            _ => (&[][..], 1.0),
        };
        for (i, gap) in icl.iter().enumerate() {
            checked(
                gap * icl_factor,
                Quantity::Latency,
                &format!("metrics.inter_chunk_latency.value[{i}]"),
                ctx,
            )?;
        }
        let gaps_ms: Vec<f64> = icl.iter().map(|g| g * icl_factor).collect();
        let ttft_tag = if m.time_to_first_token.is_some() {
            "time_to_first_token"
        } else {
            "ttft"
        };
        let (ttft_f, e2e_f) = (
            format!("metrics.{ttft_tag}.value"),
            "metrics.request_latency.value",
        );
        check_request(
            ttft.map(|v| (ttft_f.as_str(), v)),
            ("metrics.inter_chunk_latency.value", &gaps_ms),
            e2e.map(|v| (e2e_f, v)),
            ctx,
        )?;

        if let Some(v) = ttft {
            self.ttft.push(v);
        }
        if let Some(v) = ttst {
            self.ttst.push(v);
        }
        if let Some(v) = e2e {
            self.e2e.push(v);
        }
        if let Some(v) = tpot {
            self.tpot.push(v);
        }
        if let Some(v) = per_user {
            self.per_user.push(v);
        }
        let total = |what: &str, a: u64, b: u64| {
            plausible::add_counts(what, a, b).map_err(|why| {
                ctx.invalid(
                    &format!("metrics.{what}.value"),
                    format!("summed over the records, {why}"),
                )
            })
        };
        if let Some(v) = isl {
            self.isl.push(v as f64);
            self.isl_total = total("input_sequence_length", self.isl_total, v)?;
            self.isl_seen += 1;
        }
        if let Some(v) = osl {
            self.osl.push(v as f64);
            self.osl_total = total("output_sequence_length", self.osl_total, v)?;
            self.osl_seen += 1;
        }
        for &gap in icl {
            self.itl.push(gap * icl_factor);
        }

        let first = instant(
            ns_value(&m.min_request_timestamp),
            "metrics.min_request_timestamp.value",
            ctx,
        )?;
        let last = instant(
            ns_value(&m.max_response_timestamp),
            "metrics.max_response_timestamp.value",
            ctx,
        )?;
        let start = meta_start.or(first);
        let given_end = meta_end.or(last);
        if let (Some(s), Some(e)) = (start, given_end) {
            let start_f = match (&meta, meta_start) {
                (Some(m), Some(_)) if m.request_start_ns.is_some() => "metadata.request_start_ns",
                (Some(_), Some(_)) => "metadata.timestamp_ns",
                _ => "metrics.min_request_timestamp.value",
            };
            let end_f = if meta_end.is_some() {
                "metadata.request_end_ns"
            } else {
                "metrics.max_response_timestamp.value"
            };
            across::end_after_start((start_f, s as f64), (end_f, e as f64), " ns")
                .map_err(|b| ctx.invalid(&b.field, b.message))?;
        }
        let end = given_end.or_else(|| match (start, e2e) {
            (Some(s), Some(e)) => Some(s.saturating_add((e * 1e6) as u64)),
            _ => None,
        });
        if let Some(s) = start {
            self.min_start_ns = Some(self.min_start_ns.map_or(s, |m| m.min(s)));
        }
        if let Some(e) = end {
            self.max_end_ns = Some(self.max_end_ns.map_or(e, |m| m.max(e)));
        }

        if self.opts.keep_requests {
            let mut r = RequestRecord::new(0);
            r.id = id;
            r.ttft_ms = ttft;
            r.e2e_ms = e2e;
            r.tpot_ms = tpot;
            r.input_tokens = isl;
            r.output_tokens = osl;
            if self.opts.keep_itl_lists {
                r.itl_ms = icl.iter().map(|g| g * icl_factor).collect();
            }
            self.records.push(r);
            self.record_starts.push(start);
        }
        Ok(())
    }

    fn finish(self, file: &str) -> Import {
        let layout = if self.early_layout {
            super::words::AIPERF_RECORDS_EARLY
        } else {
            super::words::AIPERF_RECORDS
        };
        let mut import = Import::new(Format::AiperfJsonl, layout);
        let mut point = OperatingPoint::new(file.to_string());
        point.completed = Some(self.completed);
        point.failed = Some(self.failed);
        if let (Some(s), Some(e)) = (self.min_start_ns, self.max_end_ns)
            && e > s
        {
            let d = (e - s) as f64 / 1e9;
            point.duration_s = Some(d);
            point.request_throughput = Some(self.completed as f64 / d);
            if self.osl_seen == self.completed {
                point.output_tokens_per_s = Some(self.osl_total as f64 / d);
                if self.isl_seen == self.completed {
                    point.total_tokens_per_s =
                        Some(self.osl_total.saturating_add(self.isl_total) as f64 / d);
                }
            }
        }
        if self.isl_seen == self.completed && self.completed > 0 {
            point.input_tokens_total = Some(self.isl_total);
        }
        if self.osl_seen == self.completed && self.completed > 0 {
            point.output_tokens_total = Some(self.osl_total);
        }
        let series = [
            (MetricKey::TtftMs, self.ttft),
            (MetricKey::TtstMs, self.ttst),
            (MetricKey::TpotMs, self.tpot),
            (MetricKey::ItlMs, self.itl),
            (MetricKey::E2eMs, self.e2e),
            (MetricKey::InputTokens, self.isl),
            (MetricKey::OutputTokens, self.osl),
            (MetricKey::OutputTokensPerSPerUser, self.per_user),
        ];
        for (key, s) in series {
            let def = def_for(AIPERF_DEFS, key).expect("every AIPerf key has a definition");
            if let Some(stats) = s.into_stats(key, def.text, def.source) {
                point.metrics.insert(key, stats);
            }
        }
        point.output_tokens_per_s_per_user = point
            .metrics
            .get(&MetricKey::OutputTokensPerSPerUser)
            .and_then(|m| m.mean);
        finish_point(&mut point);
        import.points.push(point);

        let earliest = self.record_starts.iter().flatten().min().copied();
        let mut records = self.records;
        if let Some(e) = earliest {
            for (r, s) in records.iter_mut().zip(&self.record_starts) {
                // Subtract as integers: Unix ns are beyond 2⁵³, where an f64 steps by 256 ns.
                r.start_s = s.map(|s| s.saturating_sub(e) as f64 / 1e9);
            }
        }
        import.requests = records;
        import.warnings.push(super::words::per_request_export(
            file,
            self.completed + self.failed,
        ));
        if self.non_finite_lines > 0 {
            import
                .warnings
                .push(super::words::non_finite_lines(file, self.non_finite_lines));
        }
        if self.warmup_skipped > 0 {
            import
                .warnings
                .push(super::words::warmup_skipped(file, self.warmup_skipped));
        }
        if self.opts.keep_requests && !self.opts.exact_itl_percentiles {
            import.warnings.push(super::words::itl_not_computed(file));
        }
        import
    }
}

fn ns_value(n: &Option<Ns>) -> Option<&serde_json::Number> {
    n.as_ref().and_then(|n| n.value.as_ref())
}

/// A record's start and end from its metadata (current `request_start_ns` / `request_end_ns`,
/// early `timestamp_ns`), each an instant in 2000–2099.
fn meta_instants(m: &Meta, ctx: &Ctx) -> Result<(Option<u64>, Option<u64>)> {
    let start = match (&m.request_start_ns, &m.timestamp_ns) {
        (Some(n), _) => instant(Some(n), "metadata.request_start_ns", ctx)?,
        (None, Some(n)) => instant(Some(n), "metadata.timestamp_ns", ctx)?,
        (None, None) => None,
    };
    let end = instant(m.request_end_ns.as_ref(), "metadata.request_end_ns", ctx)?;
    Ok((start, end))
}

fn factor(unit: &Option<Cow<str>>, tag: &str, ctx: &Ctx) -> Result<f64> {
    match unit.as_deref() {
        None | Some("ms") => Ok(1.0),
        Some(u) => ms_per_unit(u).ok_or_else(|| {
            ctx.invalid(
                &format!("metrics.{tag}.unit"),
                format!("\"{u}\" is not a time unit"),
            )
        }),
    }
}

/// True for a parsed line that is an AIPerf per-request record.
pub(crate) fn looks_like_record(value: &Value) -> bool {
    value.as_object().is_some_and(|m| {
        (m.contains_key("metrics") || m.contains_key("error"))
            && m.get("metadata").is_some_and(Value::is_object)
            && !is_aggregate(value)
    })
}

/// Whether `value` is one of AIPerf's aggregates over runs: `aggregate/<run>/
/// profile_export_aiperf_aggregate.json` (`metadata.aggregation_type`, next to `metrics`, so
/// shaped like a per-request record) or `sweep_aggregate/profile_export_aiperf_sweep.json`
/// (`aggregation_type` at the top). Aggregates repeat what the per-run summaries hold.
pub(crate) fn is_aggregate(value: &Value) -> bool {
    value.get("aggregation_type").is_some()
        || value
            .get("metadata")
            .and_then(|m| m.get("aggregation_type"))
            .is_some()
}

/// Streams an AIPerf per-request JSONL from `reader`.
pub(crate) fn import_stream(
    mut reader: impl BufRead,
    ctx: &Ctx,
    opts: &ImportOptions,
) -> Result<Import> {
    let mut acc = Acc::new(*opts);
    let mut buf: Vec<u8> = Vec::with_capacity(16 * 1024);
    let mut line_no = 0u64;
    let mut seen = 0u64;
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(|e| {
            ctx.at_line(line_no + 1)
                .err(ErrorKind::Read, None, format!("could not read: {e}"))
        })?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let mut text: &[u8] = &buf;
        if line_no == 1 {
            text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
        }
        if text.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let line_ctx = ctx.at_line(line_no);
        match serde_json::from_slice::<Line>(text) {
            Ok(line) => acc.add(line, &line_ctx)?,
            Err(e) => {
                let clean = replace_non_finite(text);
                match clean.as_deref().map(serde_json::from_slice::<Line>) {
                    Some(Ok(line)) => {
                        acc.non_finite_lines += 1;
                        acc.add(line, &line_ctx)?;
                    }
                    _ => return Err(diagnose(text, &e, &line_ctx)),
                }
            }
        }
        seen += 1;
    }
    if seen == 0 {
        return Err(ctx.err(ErrorKind::Empty, None, "the file has no records"));
    }
    Ok(acc.finish(&ctx.file))
}

/// Explains why a line failed the typed parse, naming the field when it is a wrong type.
fn diagnose(text: &[u8], typed_error: &serde_json::Error, ctx: &Ctx) -> IngestError {
    let value: Value = match serde_json::from_slice(text) {
        Ok(v) => v,
        Err(e) => return ctx.syntax(&e),
    };
    let Some(root) = value.as_object() else {
        return ctx.err(
            ErrorKind::WrongType,
            None,
            format!(
                "expected a JSON object per line, found {}",
                describe(&value)
            ),
        );
    };
    let is_number = |v: &Value| v.is_number() || v.is_null();
    if let Some(meta) = root.get("metadata") {
        let Some(meta) = meta.as_object() else {
            return ctx.wrong_type("metadata", "an object", meta);
        };
        for key in ["request_start_ns", "request_end_ns", "timestamp_ns"] {
            if let Some(v) = meta.get(key).filter(|v| !is_number(v)) {
                return ctx.wrong_type(&format!("metadata.{key}"), "a number", v);
            }
        }
        for key in ["x_request_id", "benchmark_phase", "credit_phase"] {
            if let Some(v) = meta.get(key).filter(|v| !(v.is_string() || v.is_null())) {
                return ctx.wrong_type(&format!("metadata.{key}"), "a string", v);
            }
        }
    }
    if let Some(metrics) = root.get("metrics") {
        let Some(metrics) = metrics.as_object() else {
            return ctx.wrong_type("metrics", "an object", metrics);
        };
        let mut tags: Vec<&str> = SCALAR_TAGS.to_vec();
        tags.extend([
            "inter_chunk_latency",
            "min_request_timestamp",
            "max_response_timestamp",
        ]);
        for tag in tags {
            let Some(entry) = metrics.get(tag) else {
                continue;
            };
            let Some(entry) = entry.as_object() else {
                return ctx.wrong_type(
                    &format!("metrics.{tag}"),
                    "an object with \"value\"",
                    entry,
                );
            };
            let field = format!("metrics.{tag}.value");
            match (tag, entry.get("value")) {
                (_, None) => return ctx.missing(&field),
                ("inter_chunk_latency", Some(Value::Array(items))) => {
                    if let Some((i, bad)) = items.iter().enumerate().find(|(_, v)| !v.is_number()) {
                        return ctx.wrong_type(&format!("{field}[{i}]"), "a number", bad);
                    }
                }
                ("inter_chunk_latency", Some(v)) if !v.is_null() => {
                    return ctx.wrong_type(&field, "a list of numbers", v);
                }
                (_, Some(v)) if !is_number(v) && tag != "inter_chunk_latency" => {
                    return ctx.wrong_type(&field, "a number", v);
                }
                _ => {}
            }
            if let Some(u) = entry
                .get("unit")
                .filter(|u| !(u.is_string() || u.is_null()))
            {
                return ctx.wrong_type(&format!("metrics.{tag}.unit"), "a string", u);
            }
        }
    }
    if let Some(err) = root
        .get("error")
        .filter(|e| !(e.is_null() || e.is_object()))
    {
        return ctx.wrong_type("error", "an object or null", err);
    }
    let msg = typed_error.to_string();
    let reason = msg
        .rfind(" at line ")
        .map_or(msg.as_str(), |cut| &msg[..cut]);
    ctx.err(
        ErrorKind::InvalidValue,
        None,
        format!("unexpected record shape: {reason}"),
    )
}
