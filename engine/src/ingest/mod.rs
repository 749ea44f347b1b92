//! Load-test importers: turn the result files of `vllm bench serve`, AIPerf, GenAI-Perf and
//! guidellm into one vocabulary of operating points.
//!
//! A load test says what one GPU and serving configuration does at a chosen load. Each tool
//! writes its own file, with its own names for the same quantities and, worse, the same names
//! for different quantities. This module reads them all into an [`Import`]: one
//! [`OperatingPoint`] per load level (concurrency or request rate), with the statistics the file
//! has for TTFT, TPOT, ITL and E2E in milliseconds under [`MetricKey`]s, each carrying the tool's
//! own name and exact definition ([`MetricStats::definition`]):
//!
//! | normalised | vllm bench serve | AIPerf / GenAI-Perf | guidellm |
//! |---|---|---|---|
//! | `ttft_ms` | `ttft` | `time_to_first_token` (`ttft`) | `time_to_first_token_ms` |
//! | `tpot_ms` = (E2E − TTFT) ÷ (n − 1) | `tpot` | `inter_token_latency` | `inter_token_latency_ms` |
//! | `itl_ms` = every chunk gap, pooled | `itl` | `inter_chunk_latency` | – |
//! | `e2e_ms` | `e2el` (`latency` in 2024) | `request_latency` | `request_latency` (seconds) |
//! | `tpot_over_all_tokens_ms` (÷ n) | – | – | `time_per_output_token_ms` |
//!
//! Decisions:
//! * **Detection is by content**, not file name: a JSON object's keys, a JSON Lines file's first
//!   record, a CSV's header order. Anything unrecognised is an [`ErrorKind::UnknownFormat`] error
//!   that says what the file looks like instead (an lm-eval result, a `/metrics` scrape, …).
//! * **The file's own numbers win.** Statistics are computed here only when the file has
//!   per-request data and no summary for that metric (AIPerf's per-request JSONL, vLLM
//!   `--save-detailed` arrays); such statistics say so (`computed_from_requests`) and use the
//!   exact, documented percentile method of [`stats`].
//! * **No data is not zero.** vLLM writes 0.0 for the statistics of an empty sample; those are
//!   dropped with a warning. `None` everywhere means "the file does not say".
//! * **No IO here.** Callers hand over bytes (or a [`BufRead`] for streaming); the engine never
//!   opens files, reads clocks or touches the network, so the same code runs in the browser.
//! * **Streaming.** [`import_reader`] reads AIPerf's per-request JSONL (the one format that gets
//!   large) line by line in constant memory apart from the kept records and the values needed
//!   for exact percentiles; [`ImportOptions`] turns off the records and the per-chunk values.
//!   The other formats are summaries of kilobytes to a few megabytes and are read whole.
//!
//! * **Plausible numbers only.** Every number is checked against what is physically possible for
//!   its field ([`crate::plausible`]; the table per format is `engine/PLAUSIBILITY.md`), and
//!   every imported or derived figure must be finite; an impossible one is an
//!   [`ErrorKind::InvalidValue`] naming file, line and field. Numbers that are possible one by
//!   one must also be possible together (`across.rs`: percentiles in order, TTFT ≤ E2E,
//!   completed + failed ≤ sent, a duration when anything completed, throughput = count ÷
//!   duration), or the file is refused the same way.
//!
//! Format notes and per-format decisions are in the module docs of `vllm.rs`, `aiperf.rs`
//! (AIPerf and GenAI-Perf JSON), `csv.rs`, `aiperf_jsonl.rs`, `guidellm.rs` and `sweep.rs`.

mod across;
mod aiperf;
mod aiperf_jsonl;
mod common;
mod csv;
mod error;
mod guidellm;
mod json;
mod model;
pub mod stats;
mod sweep;
#[cfg(test)]
pub(crate) mod tests;
mod vllm;
pub(crate) mod words;
mod yaml;

pub use error::{ErrorKind, IngestError};
pub use model::{
    Format, Import, ImportOptions, MetricKey, MetricStats, OperatingPoint, RequestRecord, StdKind,
    percentile_label,
};
pub use words::{layout_in, point_source_in, warning_in};

use error::Ctx;
use serde_json::Value;
use std::io::{BufRead, Read};

/// What a first look at the bytes found.
enum Sniffed {
    /// One JSON document (object or list).
    Json(Value),
    /// Several JSON values, one per line; the first one parsed.
    JsonLines(Value),
    /// A summary CSV of the given format.
    Csv(Format),
    /// A YAML report (guidellm `benchmarks.yaml`), parsed to the value its JSON twin has.
    Yaml(Value),
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
}

fn sniff(ctx: &Ctx, bytes: &[u8]) -> Result<Sniffed, IngestError> {
    let body = strip_bom(bytes);
    let Some(first) = body.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Err(ctx.err(ErrorKind::Empty, None, words::FILE_EMPTY.text()));
    };
    match body[first] {
        b'{' | b'[' => {
            let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
            match stream.next() {
                Some(Ok(value)) => {
                    let rest = &body[stream.byte_offset()..];
                    if rest.iter().all(u8::is_ascii_whitespace) {
                        Ok(Sniffed::Json(value))
                    } else if value.is_object() {
                        Ok(Sniffed::JsonLines(value))
                    } else {
                        // A list followed by more text: let the parser name the spot.
                        let err = serde_json::from_slice::<Value>(body)
                            .expect_err("trailing characters after a JSON list");
                        Err(ctx.syntax(&err))
                    }
                }
                Some(Err(e)) => Err(ctx.syntax(&e)),
                None => Err(ctx.err(ErrorKind::Empty, None, words::FILE_EMPTY.text())),
            }
        }
        _ => {
            let text = String::from_utf8_lossy(&body[first..body.len().min(first + 4096)]);
            let first_line = text.lines().next().unwrap_or("");
            if let Some(format) = csv::classify_header(first_line) {
                return Ok(Sniffed::Csv(format));
            }
            if let Ok(all) = std::str::from_utf8(&body[first..])
                && yaml::looks_like_yaml(all)
            {
                match yaml::parse(all) {
                    Ok(value) if value.get("benchmarks").is_some_and(Value::is_array) => {
                        return Ok(Sniffed::Yaml(value));
                    }
                    Ok(_) => {}
                    Err(e) if all.starts_with("---") || all.starts_with("benchmarks:") => {
                        return Err(ctx.at_line(e.line).err(
                            ErrorKind::Syntax,
                            None,
                            format!("YAML syntax error: {}", e.message),
                        ));
                    }
                    Err(_) => {}
                }
            }
            let hint = if std::str::from_utf8(body).is_err() {
                words::NOT_TEXT.text().to_string()
            } else if text.contains("# HELP") || text.contains("# TYPE") {
                words::PROMETHEUS.text().to_string()
            } else if first_line.starts_with("Run Info,") && first_line.contains("Benchmark,") {
                // Three header rows and eleven percentiles a cell without their labels: the
                // JSON of the same run states each one by name.
                words::GUIDELLM_CSV.text().to_string()
            } else if first_line.starts_with("Metric,") {
                words::csv_header_hint(first_line.trim())
            } else {
                words::NOT_JSON.text().to_string()
            };
            Err(unknown(ctx, &hint))
        }
    }
}

fn unknown(ctx: &Ctx, hint: &str) -> IngestError {
    ctx.err(ErrorKind::UnknownFormat, None, words::unrecognised(hint))
}

/// Which format a parsed JSON document is.
fn classify_json(value: &Value, ctx: &Ctx) -> Result<Format, IngestError> {
    match value {
        Value::Object(map) => {
            if map.get("benchmarks").is_some_and(Value::is_array) {
                return Ok(Format::GuidellmJson);
            }
            if map.get("records").is_some_and(Value::is_object)
                || (aiperf::has_aiperf_markers(map) && aiperf::has_metric_blocks(map))
            {
                return Ok(Format::AiperfJson);
            }
            if aiperf::has_metric_blocks(map) {
                let lower = ctx.file.to_ascii_lowercase();
                return Ok(if lower.contains("aiperf") {
                    Format::AiperfJson
                } else {
                    Format::GenaiPerfJson
                });
            }
            if vllm::looks_like_run(value) {
                return Ok(Format::VllmBench);
            }
            if aiperf_jsonl::looks_like_record(value) {
                return Ok(Format::AiperfJsonl);
            }
            let has = |k: &str| map.contains_key(k);
            let hint = if has("lm_eval_version") || (has("results") && has("configs")) {
                &words::LM_EVAL
            } else if has("call_type") && (has("response_cost") || has("model_group")) {
                &words::LITELLM_LOG
            } else if aiperf_jsonl::is_aggregate(value) {
                &words::AIPERF_AGGREGATE
            } else if has("experiments") {
                &words::PERF_ANALYZER
            } else {
                &words::OTHER_OBJECT
            };
            Err(unknown(ctx, hint.text()))
        }
        Value::Array(items) => {
            if items.is_empty() {
                Err(unknown(ctx, words::EMPTY_LIST.text()))
            } else if items.iter().all(vllm::looks_like_run) {
                Ok(Format::VllmSweepSummary)
            } else {
                Err(unknown(ctx, words::OTHER_LIST.text()))
            }
        }
        _ => Err(unknown(ctx, words::BARE_VALUE.text())),
    }
}

fn classify_lines(first: &Value, ctx: &Ctx) -> Result<Format, IngestError> {
    if aiperf_jsonl::looks_like_record(first) {
        Ok(Format::AiperfJsonl)
    } else if vllm::looks_like_run(first) {
        Ok(Format::VllmBenchJsonLines)
    } else {
        Err(unknown(ctx, words::OTHER_LINES.text()))
    }
}

/// The format of a file, from its content (the name is used only in messages and to break
/// the tie between an AIPerf and a GenAI-Perf summary that carries no provenance).
///
/// Errors: [`ErrorKind::Empty`], [`ErrorKind::Syntax`] (broken JSON: line and column named),
/// [`ErrorKind::UnknownFormat`] (with what the file looks like instead).
pub fn detect(file_name: &str, bytes: &[u8]) -> Result<Format, IngestError> {
    let ctx = Ctx::new(file_name);
    let sniffed = match sniff(&ctx, bytes) {
        Err(e) if e.kind == ErrorKind::Syntax => match json::replace_non_finite(bytes) {
            Some(clean) => sniff(&ctx, &clean).map_err(|_| e)?,
            None => return Err(e),
        },
        other => other?,
    };
    match sniffed {
        Sniffed::Json(v) => classify_json(&v, &ctx),
        Sniffed::JsonLines(first) => classify_lines(&first, &ctx),
        Sniffed::Csv(f) => Ok(f),
        Sniffed::Yaml(v) => classify_json(&v, &ctx),
    }
}

/// Detects the format and imports the file with default options (records kept, exact
/// statistics). See [`import_with`].
pub fn import(file_name: &str, bytes: &[u8]) -> Result<Import, IngestError> {
    import_with(file_name, bytes, &ImportOptions::default())
}

/// Detects the format and imports the file. `file_name` is what errors and point sources name.
///
/// Every point's latencies are in milliseconds under normalised keys; nothing is invented: a
/// statistic the file lacks is `None` (or computed from the file's per-request data, marked as
/// such). Errors name the file, line and field.
pub fn import_with(
    file_name: &str,
    bytes: &[u8],
    opts: &ImportOptions,
) -> Result<Import, IngestError> {
    let ctx = Ctx::new(file_name);
    let body = strip_bom(bytes);
    let import = match import_body(&ctx, body, opts) {
        Err(e) if e.kind == ErrorKind::Syntax => match json::replace_non_finite(body) {
            Some(clean) => {
                let mut import = import_body(&ctx, &clean, opts).map_err(|_| e)?;
                import
                    .warnings
                    .insert(0, json::non_finite_warning(file_name));
                Ok(import)
            }
            None => Err(e),
        },
        other => other,
    }?;
    check_finite(&ctx, import)
}

/// The last line of defence ([`crate::plausible`]): every number of an import, read or derived
/// (means, rates, unit conversions), is finite. serde_json writes a non-finite number as
/// `null`, and a stored import with one no longer reads back, so one is an error here, never a
/// stored value. Errors name the point's source and the normalised field.
fn check_finite(ctx: &Ctx, import: Import) -> Result<Import, IngestError> {
    let bad = |place: &str, field: String, v: f64| {
        ctx.err(
            ErrorKind::InvalidValue,
            Some(&field),
            format!(
                "{place}: the value {} is not finite (derived from impossible numbers in the file)",
                crate::plausible::fmt_value(v)
            ),
        )
    };
    for p in &import.points {
        let fields = [
            ("concurrency", p.concurrency),
            ("request_rate", p.request_rate),
            ("duration_s", p.duration_s),
            ("input_tokens_mean", p.input_tokens_mean),
            ("output_tokens_mean", p.output_tokens_mean),
            ("request_throughput", p.request_throughput),
            ("request_goodput", p.request_goodput),
            ("output_tokens_per_s", p.output_tokens_per_s),
            ("total_tokens_per_s", p.total_tokens_per_s),
            (
                "output_tokens_per_s_per_user",
                p.output_tokens_per_s_per_user,
            ),
        ];
        for (name, v) in fields {
            if let Some(v) = v.filter(|v| !v.is_finite()) {
                return Err(bad(&p.source, name.to_string(), v));
            }
        }
        for (key, m) in &p.metrics {
            let fixed = [
                ("mean", m.mean),
                ("p50", m.p50),
                ("p90", m.p90),
                ("p95", m.p95),
                ("p99", m.p99),
                ("min", m.min),
                ("max", m.max),
                ("std", m.std),
            ];
            let extra = m.percentiles.iter().map(|(k, v)| (k.as_str(), Some(*v)));
            for (stat, v) in fixed.into_iter().chain(extra) {
                if let Some(v) = v.filter(|v| !v.is_finite()) {
                    return Err(bad(&p.source, format!("{key}.{stat}"), v));
                }
            }
        }
    }
    for (i, r) in import.requests.iter().enumerate() {
        let fields = [
            ("start_s", r.start_s),
            ("ttft_ms", r.ttft_ms),
            ("e2e_ms", r.e2e_ms),
            ("tpot_ms", r.tpot_ms),
        ];
        let gaps = r.itl_ms.iter().map(|v| ("itl_ms", Some(*v)));
        for (name, v) in fields.into_iter().chain(gaps) {
            if let Some(v) = v.filter(|v| !v.is_finite()) {
                return Err(bad(&format!("request {}", i + 1), name.to_string(), v));
            }
        }
    }
    Ok(import)
}

fn import_body(ctx: &Ctx, body: &[u8], opts: &ImportOptions) -> Result<Import, IngestError> {
    let ctx = ctx.clone();
    match sniff(&ctx, body)? {
        Sniffed::Json(v) => match classify_json(&v, &ctx)? {
            Format::VllmBench => vllm::import_single(&v, &ctx, opts),
            Format::VllmSweepSummary => match &v {
                Value::Array(items) => vllm::import_summary(items, &ctx, opts),
                _ => unreachable!("a summary is a list"),
            },
            Format::AiperfJson => aiperf::import_aiperf_json(&v, &ctx),
            Format::GenaiPerfJson => aiperf::import_genai_perf_json(&v, &ctx),
            Format::GuidellmJson => guidellm::import(&v, &ctx, opts),
            Format::AiperfJsonl => aiperf_jsonl::import_stream(body, &ctx, opts),
            other => unreachable!("{other} is not a single JSON document"),
        },
        Sniffed::JsonLines(first) => match classify_lines(&first, &ctx)? {
            Format::AiperfJsonl => aiperf_jsonl::import_stream(body, &ctx, opts),
            _ => vllm::import_lines(body, &ctx, opts),
        },
        Sniffed::Csv(format) => csv::import_summary_csv(body, format, &ctx),
        Sniffed::Yaml(v) => match classify_json(&v, &ctx)? {
            Format::GuidellmJson => {
                let mut import = guidellm::import(&v, &ctx, opts)?;
                import.layout = format!("{}{}{}", import.layout, words::PIECES, words::YAML_REPORT);
                Ok(import)
            }
            other => Err(unknown(
                &ctx,
                &format!(
                    "a YAML file that reads as {}; only guidellm writes YAML reports",
                    other.label()
                ),
            )),
        },
    }
}

/// Imports from a reader. AIPerf per-request JSONL is streamed line by line (memory: the kept
/// records plus 8 bytes per value for exact statistics, see [`ImportOptions`]); any other format
/// is read whole and imported like [`import_with`].
pub fn import_reader(
    file_name: &str,
    mut reader: impl BufRead,
    opts: &ImportOptions,
) -> Result<Import, IngestError> {
    let ctx = Ctx::new(file_name);
    let read_err =
        |e: std::io::Error| ctx.err(ErrorKind::Read, None, format!("could not read: {e}"));
    // Read up to the first non-blank line to decide.
    let mut head: Vec<u8> = Vec::new();
    loop {
        let before = head.len();
        let n = reader.read_until(b'\n', &mut head).map_err(read_err)?;
        if n == 0 {
            break;
        }
        let line = strip_bom(&head[before..]);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let is_record = serde_json::from_slice::<Value>(line)
            .map(|v| aiperf_jsonl::looks_like_record(&v))
            .unwrap_or(false);
        if is_record {
            let chained = std::io::Cursor::new(head).chain(reader);
            return check_finite(&ctx, aiperf_jsonl::import_stream(chained, &ctx, opts)?);
        }
        break;
    }
    reader.read_to_end(&mut head).map_err(read_err)?;
    import_with(file_name, &head, opts)
}

/// Imports a folder upload: (path relative to the folder, bytes) pairs — a `vllm bench sweep`
/// output directory, an AIPerf sweep, or any set of result files from one tool. Files that are
/// not results are skipped with a warning; a summary that repeats run files in the same folder is
/// skipped to avoid counting a run twice. Default options.
pub fn import_sweep(files: &[(String, Vec<u8>)]) -> Result<Import, IngestError> {
    import_sweep_with(files, &ImportOptions::default())
}

/// [`import_sweep`] with options.
pub fn import_sweep_with(
    files: &[(String, Vec<u8>)],
    opts: &ImportOptions,
) -> Result<Import, IngestError> {
    check_finite(&Ctx::new("the folder"), sweep::import_folder(files, opts)?)
}
