//! AIPerf `profile_export_aiperf.json` and GenAI-Perf `*_genai_perf.json` summaries.
//!
//! Both tools export one block per metric tag, `{unit, avg, min, max, p1…p99, std[, count,
//! sum]}` (AIPerf copied GenAI-Perf's shape), so both go through the same [`Block`] step,
//! and so do their CSV exports (see `csv.rs`).
//!
//! AIPerf layouts:
//! * early (Oct 2025): the blocks sit in a top-level `records` map and carry `tag`/`header`;
//!   TTFT and TTST are tagged `ttft` / `ttst`; aggregate metrics have `null` percentiles.
//! * flat (schema 1.0–1.5): every top-level object with a `unit` is a metric block; provenance
//!   in `schema_version`, `aiperf_version`, `input_config`, `run_info`, `error_summary`.
//!
//! Decisions:
//! * The block's `unit` is authoritative: latencies in `sec`/`s`, `us` or `ns` are converted to
//!   milliseconds; a latency with an unknown unit is skipped with a warning, never guessed.
//! * `request_count` is the successful count (AIPerf counts errors separately in
//!   `error_request_count`); when that tag is absent, failures are the sum of `error_summary`.
//! * Output tokens are `total_osl` (output sequence length, which includes reasoning tokens),
//!   the same total AIPerf divides by the duration for its output token throughput.
//! * AIPerf's `std` is the sample standard deviation; GenAI-Perf does not document it.
//! * A run whose config says `streaming: false` (GenAI-Perf `input_config.streaming`, AIPerf
//!   `input_config.endpoint.streaming`) is flagged: setting `streaming` = `false`, and its
//!   `time_to_first_token` (there the whole request), TTST, TPOT and ITL are moved to
//!   `settings` (`non_streaming.<tag>`) with a note, so they never grade a TTFT or TPOT mark.
//! * Metric tags with no normalised key (HTTP phase timings, goodput fractions, telemetry) are
//!   kept in `settings` as `avg unit`.

use super::across::{Fields, PointRules, check_point};
use super::common::{
    AIPERF_DEFS, Def, GENAI_PERF_DEFS, def_for, finish_point, flag_non_streaming,
    says_not_streaming, stated_scenario,
};
use super::error::{Ctx, ErrorKind};
use super::json::{Obj, Result, checked, count, join, number, scalar_text};
use super::model::{Format, Import, MetricKey, MetricStats, OperatingPoint, StdKind};
use super::words;
use crate::plausible::{Quantity, across};
use serde_json::Value;
use std::collections::BTreeMap;

/// Which of the two tools a block set came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tool {
    Aiperf,
    GenaiPerf,
}

impl Tool {
    fn defs(self) -> &'static [Def] {
        match self {
            Tool::Aiperf => AIPERF_DEFS,
            Tool::GenaiPerf => GENAI_PERF_DEFS,
        }
    }
}

/// One metric's summary as either tool exports it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Block {
    /// The tag as written in the file (`ttft`, `time_to_first_token`, or derived from a CSV
    /// header like `Time to First Token (ms)`).
    pub tag: String,
    pub unit: Option<String>,
    /// Statistic name (`avg`, `min`, `p99`, `std`, `count`, `sum`) → value. Nulls are left out.
    pub stats: BTreeMap<String, f64>,
    /// Where the block is, for error messages (`records.ttft`, `Time to First Token (ms)`).
    pub field: String,
    /// The line of a CSV row (JSON blocks have none).
    pub line: Option<u64>,
}

impl Block {
    fn avg(&self) -> Option<f64> {
        self.stats
            .get("avg")
            .or_else(|| self.stats.get("mean"))
            .copied()
    }
}

/// The tag AIPerf uses today for a tag or CSV header name of any era.
pub(crate) fn canonical_tag(tag: &str) -> &str {
    match tag {
        "ttft" => "time_to_first_token",
        "ttst" => "time_to_second_token",
        "total_input_sequence_length" => "total_isl",
        "total_output_sequence_length" => "total_osl",
        "minimum_request_timestamp" => "min_request_timestamp",
        "maximum_response_timestamp" => "max_response_timestamp",
        other => other,
    }
}

fn metric_of(tag: &str) -> Option<MetricKey> {
    Some(match tag {
        "time_to_first_token" => MetricKey::TtftMs,
        "time_to_second_token" => MetricKey::TtstMs,
        "inter_token_latency" => MetricKey::TpotMs,
        "inter_chunk_latency" => MetricKey::ItlMs,
        "request_latency" => MetricKey::E2eMs,
        "output_token_throughput_per_user" => MetricKey::OutputTokensPerSPerUser,
        "input_sequence_length" => MetricKey::InputTokens,
        "output_sequence_length" => MetricKey::OutputTokens,
        _ => return None,
    })
}

/// Milliseconds per one `unit` for time units; `None` for anything else.
pub(crate) fn ms_per_unit(unit: &str) -> Option<f64> {
    Some(match unit.trim().to_ascii_lowercase().as_str() {
        "ms" | "msec" | "millisecond" | "milliseconds" => 1.0,
        "s" | "sec" | "secs" | "second" | "seconds" => 1000.0,
        "us" | "µs" | "μs" | "usec" | "microseconds" => 1e-3,
        "ns" | "nsec" | "nanoseconds" => 1e-6,
        _ => return None,
    })
}

/// The percentile a statistic's name stands for: `p99` → 99, `p99.9` → 99.9; `None` for any
/// other name, and for numbers outside 0–100 (`p1e300` is no percentile).
pub(crate) fn percentile_of(name: &str) -> Option<f64> {
    let n = name.strip_prefix('p')?.parse::<f64>().ok()?;
    (0.0..=100.0).contains(&n).then_some(n)
}

/// A block read from a JSON object (`{unit, avg, …}`), numbers checked.
pub(crate) fn block_from_json(tag: &str, obj: &Obj) -> Result<Block> {
    let mut block = Block {
        tag: tag.to_string(),
        unit: obj.str("unit")?.map(str::to_string),
        stats: BTreeMap::new(),
        field: obj.path().to_string(),
        line: None,
    };
    for (key, value) in obj.map {
        let is_stat = matches!(
            key.as_str(),
            "avg" | "mean" | "min" | "max" | "std" | "sum" | "count"
        ) || percentile_of(key).is_some();
        if !is_stat || value.is_null() {
            continue;
        }
        let v = if key == "count" {
            count(value, &obj.field(key), obj.ctx)? as f64
        } else {
            number(value, &obj.field(key), obj.ctx)?
        };
        block.stats.insert(key.clone(), v);
    }
    Ok(block)
}

/// What a block's values are ([`crate::plausible`]) and the factor to that rule's unit (time
/// to ms for latencies, to s for durations and clock readings); `None`: only finiteness is
/// checked (units such as `W` or `°C` the importer does not interpret).
fn block_quantity(tag: &str, unit: Option<&str>) -> Option<(Quantity, f64)> {
    let unit = unit.map(|u| u.trim().to_ascii_lowercase());
    let unit = unit.as_deref();
    let time = unit.and_then(ms_per_unit);
    if let Some(key) = metric_of(tag) {
        return Some(match key {
            MetricKey::OutputTokensPerSPerUser => (Quantity::Rate, 1.0),
            k if k.is_latency() => (Quantity::Latency, time.unwrap_or(1.0)),
            _ => (Quantity::Count, 1.0),
        });
    }
    if tag.contains("timestamp") {
        return Some((Quantity::ClockSeconds, time.map_or(1e-9, |ms| ms / 1000.0)));
    }
    if matches!(
        tag,
        "request_count" | "error_request_count" | "good_request_count" | "total_isl" | "total_osl"
    ) {
        // Counts whatever the unit says (the CSV's `Request Count` has none).
        return Some((Quantity::Count, 1.0));
    }
    if tag == "benchmark_duration" {
        return Some((Quantity::Duration, time.map_or(1.0, |ms| ms / 1000.0)));
    }
    if tag.ends_with("_fraction") || unit == Some("ratio") {
        return Some((Quantity::Fraction, 1.0));
    }
    match unit {
        Some(u) if u.contains("/sec") || u.contains("/s") || u.contains("per sec") => {
            Some((Quantity::Rate, 1.0))
        }
        Some(_) if time.is_some() => Some((Quantity::Latency, time.unwrap_or(1.0))),
        Some("requests" | "tokens" | "count" | "kb" | "bytes" | "mb") => {
            Some((Quantity::Count, 1.0))
        }
        _ => None,
    }
}

/// Every statistic of a block checked against its rule (see [`block_quantity`]); `count` and
/// `sum` are counts whatever the metric.
fn check_block(block: &Block, ctx: &Ctx) -> Result<()> {
    let tag = canonical_tag(&block.tag);
    let rule = block_quantity(tag, block.unit.as_deref());
    for (name, &v) in &block.stats {
        let field = join(&block.field, name);
        match (name.as_str(), rule) {
            ("count" | "sum", _) => {
                checked(v, Quantity::Count, &field, ctx)?;
            }
            (_, Some((quantity, factor))) => {
                checked(v * factor, quantity, &field, ctx)?;
            }
            (_, None) if !v.is_finite() => {
                return Err(ctx.invalid(
                    &field,
                    format!(
                        "{} is not a possible value (must be finite)",
                        crate::plausible::fmt_value(v)
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Turns the blocks of one run into the point's fields, metrics and settings; returns where
/// each value was read ([`Fields`], for the rules across fields).
pub(crate) fn apply_blocks(
    blocks: &[Block],
    tool: Tool,
    point: &mut OperatingPoint,
    ctx: &Ctx,
    warnings: &mut Vec<String>,
) -> Result<Fields> {
    let mut fields = Fields::default();
    for block in blocks {
        let block_ctx = match block.line {
            Some(line) => ctx.at_line(line),
            None => ctx.clone(),
        };
        check_block(block, &block_ctx)?;
        let ctx = &block_ctx;
        let tag = canonical_tag(&block.tag);
        let avg = block.avg();
        let whole = |v: Option<f64>| -> Result<Option<u64>> {
            match v {
                None => Ok(None),
                Some(f) if f >= 0.0 && f.fract() == 0.0 => crate::plausible::whole_count(f)
                    .map(Some)
                    .map_err(|e| ctx.invalid(&join(&block.field, "avg"), e.message)),
                Some(f) => Err(ctx.invalid(
                    &join(&block.field, "avg"),
                    format!("expected a whole number, found {f}"),
                )),
            }
        };
        if let Some(key) = metric_of(tag) {
            let Some(def) = def_for(tool.defs(), key) else {
                continue;
            };
            let mut stats = MetricStats::new(key, def.text, block.tag.clone());
            let factor = if key.is_latency() {
                match block.unit.as_deref().map(ms_per_unit) {
                    Some(Some(f)) => f,
                    None => 1.0, // CSV headers without a unit; AIPerf/GenAI-Perf latencies are ms
                    Some(None) => {
                        warnings.push(words::not_time_unit(
                            &ctx.file,
                            &block.tag,
                            block.unit.as_deref().unwrap_or_default(),
                        ));
                        continue;
                    }
                }
            } else {
                1.0
            };
            for (name, &v) in &block.stats {
                let label = match name.as_str() {
                    "avg" | "mean" => {
                        stats.mean = Some(v);
                        "mean".to_string()
                    }
                    "min" => {
                        stats.min = Some(v);
                        "min".to_string()
                    }
                    "max" => {
                        stats.max = Some(v);
                        "max".to_string()
                    }
                    "std" => {
                        stats.std = Some(v);
                        continue;
                    }
                    "count" => {
                        stats.count = Some(v as u64);
                        continue;
                    }
                    "sum" => continue,
                    p => match percentile_of(p) {
                        Some(n) => {
                            stats.set_percentile(n, v);
                            super::model::percentile_label(n)
                        }
                        None => continue,
                    },
                };
                fields.note_stat(key, &label, join(&block.field, name), block.line);
            }
            stats.scale(factor);
            if tool == Tool::Aiperf && stats.std.is_some() {
                stats.std_kind = Some(StdKind::Sample);
            }
            if key == MetricKey::OutputTokensPerSPerUser {
                point.output_tokens_per_s_per_user = stats.mean;
            }
            if !stats.is_empty() {
                point.metrics.insert(key, stats);
            }
            continue;
        }
        if let Some(id) = total_id(tag) {
            fields.note(id, join(&block.field, "avg"), block.line);
        }
        match tag {
            "request_throughput" => point.request_throughput = avg,
            "output_token_throughput" => point.output_tokens_per_s = avg,
            "total_token_throughput" => point.total_tokens_per_s = avg,
            "goodput" | "request_goodput" => point.request_goodput = avg,
            "request_count" => point.completed = whole(avg)?,
            "error_request_count" => point.failed = whole(avg)?,
            "total_isl" => point.input_tokens_total = whole(avg)?,
            "total_osl" => point.output_tokens_total = whole(avg)?,
            "benchmark_duration" => {
                let factor = block
                    .unit
                    .as_deref()
                    .and_then(ms_per_unit)
                    .map(|ms| ms / 1000.0)
                    .unwrap_or(1.0);
                point.duration_s = avg.map(|d| d * factor);
            }
            _ => {
                if let Some(v) = avg {
                    let unit = block.unit.as_deref().unwrap_or("");
                    let text = if unit.is_empty() {
                        format!("{v}")
                    } else {
                        format!("{v} {unit}")
                    };
                    point.settings.insert(tag.to_string(), text);
                }
            }
        }
    }
    check_clock(blocks, point, ctx)?;
    Ok(fields)
}

/// The point field a scalar tag fills (see [`apply_blocks`]), as [`Fields`] names it.
fn total_id(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "request_throughput" => "request_throughput",
        "output_token_throughput" => "output_tokens_per_s",
        "total_token_throughput" => "total_tokens_per_s",
        "request_count" => "completed",
        "error_request_count" => "failed",
        "total_isl" => "input_tokens_total",
        "total_osl" => "output_tokens_total",
        "benchmark_duration" => "duration_s",
        _ => return None,
    })
}

/// AIPerf's `min_request_timestamp` and `max_response_timestamp` (Unix ns): instants in
/// 2000–2099, the response after the request, and `benchmark_duration` their difference (AIPerf
/// defines it so). `timestamp: 0` would otherwise give a duration of 55 years.
fn check_clock(blocks: &[Block], point: &OperatingPoint, ctx: &Ctx) -> Result<()> {
    let find = |tag: &str| {
        let block = blocks.iter().find(|b| canonical_tag(&b.tag) == tag)?;
        Some((block, block.avg()?))
    };
    let at = |b: &Block| b.line.map_or_else(|| ctx.clone(), |l| ctx.at_line(l));
    let avg_field = |b: &Block| join(&b.field, "avg");
    let mut instants: Vec<(&Block, f64)> = Vec::new();
    for tag in ["min_request_timestamp", "max_response_timestamp"] {
        if let Some((block, v)) = find(tag) {
            let per_ns = block
                .unit
                .as_deref()
                .and_then(ms_per_unit)
                .map_or(1.0, |ms| ms * 1e6);
            let ns = v * per_ns;
            crate::plausible::instant_ns(ns)
                .map_err(|why| at(block).invalid(&avg_field(block), why))?;
            instants.push((block, ns / 1e9));
        }
    }
    let [(first, start), (last, end)] = instants.as_slice() else {
        return Ok(());
    };
    let (start_f, end_f) = (avg_field(first), avg_field(last));
    across::end_after_start((&start_f, *start), (&end_f, *end), " s")
        .map_err(|b| at(last).invalid(&b.field, b.message))?;
    if let (Some(d), Some((block, _))) = (point.duration_s, find("benchmark_duration")) {
        across::duration_matches_clock((&avg_field(block), d), (&start_f, *start), (&end_f, *end))
            .map_err(|b| at(block).invalid(&b.field, b.message))?;
    }
    Ok(())
}

/// An AIPerf `profile_export_aiperf.json` (either layout).
pub(crate) fn import_aiperf_json(value: &Value, ctx: &Ctx) -> Result<Import> {
    let root = Obj::new(value, "", ctx)?;
    let mut blocks = Vec::new();
    let layout = if let Some(records) = root.obj("records")? {
        for (tag, v) in records.map {
            let obj = Obj::new(v, &records.field(tag), ctx)?;
            blocks.push(block_from_json(tag, &obj)?);
        }
        words::AIPERF_EARLY_RECORDS.to_string()
    } else {
        for (tag, v) in root.map {
            if let Value::Object(m) = v
                && m.contains_key("unit")
            {
                let obj = Obj::new(v, tag, ctx)?;
                blocks.push(block_from_json(tag, &obj)?);
            }
        }
        match root.str("schema_version")? {
            Some(v) => words::flat_layout_schema(v),
            None => words::AIPERF_FLAT.to_string(),
        }
    };
    if blocks.is_empty() {
        return Err(ctx.err(
            ErrorKind::MissingField,
            None,
            "no metric blocks found (expected objects with \"unit\" and \"avg\")",
        ));
    }
    let mut import = Import::new(Format::AiperfJson, layout);
    import.tool_version = root.str("aiperf_version")?.map(str::to_string);
    let mut point = OperatingPoint::new(ctx.file.clone());
    let mut fields = apply_blocks(&blocks, Tool::Aiperf, &mut point, ctx, &mut import.warnings)?;
    let total = read_aiperf_provenance(&root, &mut point, &mut fields, &mut import.warnings)?;
    if point.completed.is_none() {
        // AIPerf omits request_count when no request succeeded; only then is zero the answer.
        let latencies = point.metrics.keys().any(|k| k.is_latency());
        if point.failed.is_some_and(|f| f > 0) && !latencies {
            point.completed = Some(0);
            import
                .warnings
                .push(words::no_success(&ctx.file, point.failed.unwrap_or(0)));
        } else {
            return Err(ctx.missing("request_count"));
        }
    }
    if point
        .settings
        .get("endpoint.streaming")
        .is_some_and(|s| says_not_streaming(s))
    {
        flag_non_streaming(&mut point, &mut import.warnings);
    }
    let rules = PointRules {
        total,
        rates_are_count_over_duration: true,
    };
    check_point(&point, &fields, rules, ctx)?;
    finish_point(&mut point);
    import.points.push(point);
    Ok(import)
}

/// Configuration, run identity and errors of an AIPerf summary; returns the requests the run
/// was configured to send (the profiling phase's `requests`, early `loadgen.request_count`).
fn read_aiperf_provenance(
    root: &Obj,
    point: &mut OperatingPoint,
    fields: &mut Fields,
    warnings: &mut Vec<String>,
) -> Result<Option<u64>> {
    let ctx = root.ctx;
    for key in [
        "schema_version",
        "aiperf_version",
        "benchmark_id",
        "start_time",
        "end_time",
        "was_cancelled",
    ] {
        if let Some(text) = root.get(key).and_then(scalar_text) {
            point.settings.insert(key.to_string(), text);
        }
    }
    if root.bool("was_cancelled")? == Some(true) {
        warnings.push(words::cancelled(&ctx.file));
    }
    if let Some(run) = root.obj("run_info")? {
        for (key, value) in run.map {
            if let Some(text) = scalar_text(value) {
                point.settings.insert(format!("run_info.{key}"), text);
            }
        }
        if let Some(vars) = run.obj("variation_values")? {
            for (key, value) in vars.map {
                if let Some(text) = scalar_text(value) {
                    point
                        .settings
                        .insert(format!("run_info.variation.{key}"), text);
                }
            }
        }
    }

    // Errors: counted per type.
    let mut error_total = 0u64;
    let mut error_texts = Vec::new();
    if let Some(list) = root.arr("error_summary")? {
        for (i, entry) in list.iter().enumerate() {
            let path = format!("error_summary[{i}]");
            let e = Obj::new(entry, &path, ctx)?;
            let n = e.u64("count")?.unwrap_or(0);
            error_total += n;
            let kind = match e.obj("error_details")? {
                Some(d) => d
                    .str("type")?
                    .or(d.str("message")?)
                    .unwrap_or("error")
                    .to_string(),
                None => "error".to_string(),
            };
            error_texts.push(format!("{kind} ×{n}"));
        }
        if point.failed.is_none() {
            point.failed = Some(error_total);
        }
    }
    if !error_texts.is_empty() {
        point
            .settings
            .insert("errors".to_string(), error_texts.join(", "));
    }

    let Some(cfg) = root.obj("input_config")? else {
        return Ok(None);
    };
    let mut total = None;
    let mut input_len: Option<f64> = None;
    let mut output_len: Option<f64> = None;
    let mut dataset: Option<String> = None;

    // Current layout.
    if let Some(models) = cfg.obj("models")?
        && let Some(items) = models.arr("items")?
    {
        let names: Vec<String> = items
            .iter()
            .filter_map(|m| m.get("name").and_then(Value::as_str).map(str::to_string))
            .collect();
        if !names.is_empty() {
            point.model = Some(names.join(", "));
        }
    }
    if let Some(endpoint) = cfg.obj("endpoint")? {
        for key in ["type", "streaming", "url"] {
            if let Some(text) = endpoint.get(key).and_then(scalar_text) {
                point.settings.insert(format!("endpoint.{key}"), text);
            }
        }
        if let Some(urls) = endpoint.arr("urls")? {
            let urls: Vec<&str> = urls.iter().filter_map(Value::as_str).collect();
            point
                .settings
                .insert("endpoint.urls".to_string(), urls.join(", "));
        }
        if point.model.is_none()
            && let Some(names) = endpoint.arr("model_names")?
        {
            let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
            if !names.is_empty() {
                point.model = Some(names.join(", "));
            }
        }
    }
    if let Some(datasets) = cfg.arr("datasets")?
        && let Some(first) = datasets.first()
    {
        let d = Obj::new(first, "input_config.datasets[0]", ctx)?;
        if let Some(prompts) = d.obj("prompts")? {
            if let Some(isl) = prompts.obj("isl")? {
                input_len = isl.num("mean", Quantity::Count)?;
            }
            if let Some(osl) = prompts.obj("osl")? {
                output_len = osl.num("mean", Quantity::Count)?;
            }
        }
        if d.str("type")? == Some("file") || d.has("path") {
            dataset = d.str("path")?.or(d.str("name")?).map(str::to_string);
        }
        for key in ["name", "type", "path", "format", "sampling"] {
            if let Some(text) = d.get(key).and_then(scalar_text) {
                point.settings.insert(format!("dataset.{key}"), text);
            }
        }
    }
    if let Some(phases) = cfg.arr("phases")? {
        let profiling = phases
            .iter()
            .position(|p| p.get("name").and_then(Value::as_str) == Some("profiling"))
            .or(if phases.is_empty() {
                None
            } else {
                Some(phases.len() - 1)
            });
        if let Some(i) = profiling {
            let path = format!("input_config.phases[{i}]");
            let phase = Obj::new(&phases[i], &path, ctx)?;
            point.concurrency = phase.num("concurrency", Quantity::Rate)?;
            point.request_rate = phase.num("request_rate", Quantity::Rate)?;
            fields.note("concurrency", phase.field("concurrency"), None);
            total = phase.u64("requests")?;
            fields.note("total", phase.field("requests"), None);
            for (key, value) in phase.map {
                if let Some(text) = scalar_text(value) {
                    point.settings.insert(format!("phase.{key}"), text);
                }
            }
        }
    }
    if let Some(slos) = cfg.obj("slos")? {
        for (key, value) in slos.map {
            if let Some(text) = scalar_text(value) {
                point.settings.insert(format!("slo.{key}"), text);
            }
        }
    }
    if let Some(tok) = cfg.obj("tokenizer")?
        && let Some(name) = tok.str("name")?
    {
        point
            .settings
            .insert("tokenizer".to_string(), name.to_string());
    }

    // Early layout.
    if let Some(loadgen) = cfg.obj("loadgen")? {
        if point.concurrency.is_none() {
            point.concurrency = loadgen.num("concurrency", Quantity::Rate)?;
            fields.note("concurrency", loadgen.field("concurrency"), None);
        }
        if total.is_none() {
            total = loadgen.u64("request_count")?;
            fields.note("total", loadgen.field("request_count"), None);
        }
        if point.request_rate.is_none() {
            point.request_rate = loadgen.num("request_rate", Quantity::Rate)?;
        }
        for (key, value) in loadgen.map {
            if let Some(text) = scalar_text(value) {
                point.settings.insert(format!("loadgen.{key}"), text);
            }
        }
    }
    if let Some(input) = cfg.obj("input")? {
        if let Some(prompt) = input.obj("prompt")? {
            if let Some(it) = prompt.obj("input_tokens")? {
                input_len = input_len.or(it.num("mean", Quantity::Count)?);
            }
            if let Some(ot) = prompt.obj("output_tokens")? {
                output_len = output_len.or(ot.num("mean", Quantity::Count)?);
            }
        }
        if let Some(file) = input.str("file")? {
            dataset = dataset.or(Some(file.to_string()));
        }
    }
    if let Some(cli) = cfg.str("cli_command")? {
        point
            .settings
            .insert("cli_command".to_string(), cli.to_string());
    }
    if let Some(s) = stated_scenario(input_len, output_len, dataset.as_deref()) {
        point.scenario = s;
    }
    Ok(total)
}

/// True for an object that is an AIPerf summary rather than a GenAI-Perf one.
pub(crate) fn has_aiperf_markers(map: &serde_json::Map<String, Value>) -> bool {
    if [
        "aiperf_version",
        "schema_version",
        "run_info",
        "was_cancelled",
        "error_summary",
        "records",
    ]
    .iter()
    .any(|k| map.contains_key(*k))
    {
        return true;
    }
    match map.get("input_config") {
        Some(Value::Object(cfg)) => {
            ["phases", "loadgen", "models", "datasets"]
                .iter()
                .any(|k| cfg.contains_key(*k))
                || cfg
                    .get("endpoint")
                    .and_then(Value::as_object)
                    .is_some_and(|e| e.contains_key("model_names") || e.contains_key("urls"))
        }
        _ => false,
    }
}

/// True for an object with at least one metric block (`{"unit": …, "avg": …}`).
pub(crate) fn has_metric_blocks(map: &serde_json::Map<String, Value>) -> bool {
    map.values().any(|v| {
        v.as_object().is_some_and(|m| {
            m.contains_key("unit") && (m.contains_key("avg") || m.contains_key("mean"))
        })
    })
}

/// A GenAI-Perf `profile_export_genai_perf.json`: metric blocks plus `input_config` = the CLI
/// arguments.
pub(crate) fn import_genai_perf_json(value: &Value, ctx: &Ctx) -> Result<Import> {
    let root = Obj::new(value, "", ctx)?;
    let mut blocks = Vec::new();
    for (tag, v) in root.map {
        if tag == "input_config" || tag == "telemetry_stats" {
            continue;
        }
        if let Value::Object(m) = v
            && m.contains_key("unit")
        {
            let obj = Obj::new(v, tag, ctx)?;
            blocks.push(block_from_json(tag, &obj)?);
        }
    }
    if blocks.is_empty() {
        return Err(ctx.err(
            ErrorKind::MissingField,
            None,
            "no metric blocks found (expected objects with \"unit\" and \"avg\")",
        ));
    }
    let mut import = Import::new(Format::GenaiPerfJson, words::GENAI_PERF_SUMMARY);
    let mut point = OperatingPoint::new(ctx.file.clone());
    let mut fields = apply_blocks(
        &blocks,
        Tool::GenaiPerf,
        &mut point,
        ctx,
        &mut import.warnings,
    )?;
    if let Some(cfg) = root.obj("input_config")? {
        point.model = match cfg.get("model") {
            Some(Value::Array(names)) => {
                let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                (!names.is_empty()).then(|| names.join(", "))
            }
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        point.concurrency = cfg.num("concurrency", Quantity::Rate)?;
        point.request_rate = cfg.num("request_rate", Quantity::Rate)?;
        fields.note("concurrency", cfg.field("concurrency"), None);
        let input = cfg.num("synthetic_input_tokens_mean", Quantity::Count)?;
        let output = cfg.num("output_tokens_mean", Quantity::Count)?;
        let dataset = cfg
            .str("input_dataset")?
            .or(cfg.str("input_file")?)
            .map(str::to_string);
        if let Some(s) = stated_scenario(input, output, dataset.as_deref()) {
            point.scenario = s;
        }
        for (key, value) in cfg.map {
            if let Some(text) = scalar_text(value) {
                point.settings.insert(format!("input_config.{key}"), text);
            }
        }
    }
    if point.completed.is_none() && !blocks.iter().any(|b| b.tag == "request_count") {
        import.warnings.push(words::no_request_count(&ctx.file));
    }
    if point
        .settings
        .get("input_config.streaming")
        .is_some_and(|s| says_not_streaming(s))
    {
        flag_non_streaming(&mut point, &mut import.warnings);
    }
    let rules = PointRules {
        total: None,
        rates_are_count_over_duration: true,
    };
    check_point(&point, &fields, rules, ctx)?;
    finish_point(&mut point);
    import.points.push(point);
    Ok(import)
}
