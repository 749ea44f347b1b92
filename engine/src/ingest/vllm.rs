//! `vllm bench serve` (formerly `benchmarks/benchmark_serving.py`) result files.
//!
//! One result object = one operating point. The same object shape arrives four ways: a single
//! JSON file (`--save-result`), JSON Lines (`--append-result` writes a newline and another
//! object), a sweep folder's `run=k.json` files, and a sweep's `summary.json` list; all go
//! through [`run_to_point`].
//!
//! Decisions:
//! * Statistics are read from the `{mean,median,std,pN}_{metric}_ms` keys, whatever the
//!   percentile list was (`p99.9_itl_ms` → `p99.9`); `median` is p50. The 2024 key
//!   `*_latency_ms` is end-to-end latency (later `*_e2el_ms`). `std` is numpy's population std.
//! * Old and new key names are both accepted: `request_goodput:` (with the colon, late 2024 to
//!   mid 2025) and `request_goodput`; `request_rate` as a number or the string `"inf"` (stored
//!   as `None`: unlimited).
//! * vLLM writes 0.0 for every statistic of an empty sample. A run with no completed request
//!   therefore has no latency data, not 0 ms latency: its metrics are dropped with a warning, and
//!   so is any single metric whose statistics are all exactly 0.0.
//! * `--save-detailed` arrays (seconds) become [`RequestRecord`]s in milliseconds. Failed
//!   requests (non-empty `errors[i]`) keep their error text and no latencies (vLLM writes 0.0).
//!   When the summary lacks a metric the arrays have (`latencies` without `--percentile-metrics
//!   e2el`), its statistics are computed from the records.
//! * Older or trimmed `benchmark_serving.py` results may carry only the latency statistics,
//!   without `completed`, `duration` or the throughputs. They are read, not refused: what the
//!   file's other keys give is computed (`completed` from `--save-detailed` arrays with an
//!   `errors` list, throughputs from completed, duration and token totals), the rest stays
//!   absent, and an import note names the missing keys.
//! * Everything else scalar (backend, date, `--metadata` keys, sweep parameters) is kept in
//!   `settings` under vLLM's own key names.

use super::ImportOptions;
use super::across::{Fields, PointRules, check_point, check_request};
use super::common::{VLLM_DEFS, fill_from_records, finish_point, stated_scenario};
use super::error::{Ctx, ErrorKind};
use super::json::{Obj, Result, checked, index, join, number, scalar_text};
use super::model::{
    Format, Import, MetricKey, MetricStats, OperatingPoint, RequestRecord, StdKind,
};
use super::words;
use crate::plausible::Quantity;
use serde_json::Value;
use std::io::BufRead;

/// Keys whose presence marks an object as a vLLM bench result.
const SIGNATURE: [&str; 6] = [
    "mean_ttft_ms",
    "median_ttft_ms",
    "request_throughput",
    "output_throughput",
    "completed",
    "num_prompts",
];

/// True when `value` looks like one vLLM bench result object (two or more signature keys).
pub(crate) fn looks_like_run(value: &Value) -> bool {
    match value {
        Value::Object(map) => SIGNATURE.iter().filter(|k| map.contains_key(**k)).count() >= 2,
        _ => false,
    }
}

/// Keys read into typed fields of the point (not repeated in `settings`).
const CONSUMED: [&str; 11] = [
    "duration",
    "completed",
    "failed",
    "total_input_tokens",
    "total_output_tokens",
    "request_throughput",
    "output_throughput",
    "total_token_throughput",
    "request_goodput",
    "request_goodput:",
    "model_id",
];

/// The run totals every current result has; older or trimmed `benchmark_serving.py` results
/// may carry only the latency statistics. A missing one is named in an import note.
const RUN_TOTALS: [&str; 4] = [
    "completed",
    "duration",
    "request_throughput",
    "output_throughput",
];

/// The per-request arrays of `--save-detailed` (and `latencies`/`queue_times` in newer files).
const DETAILED: [&str; 9] = [
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "latencies",
    "start_times",
    "errors",
    "generated_texts",
    "queue_times",
];

enum Stat {
    Mean,
    Median,
    Std,
    Percentile(f64),
}

/// Splits `p99.9_itl_ms` into (percentile 99.9, `itl`); `None` for non-statistic keys.
fn parse_stat_key(key: &str) -> Option<(Stat, &str)> {
    let body = key.strip_suffix("_ms")?;
    let (stat, metric) = body.split_once('_')?;
    let stat = match stat {
        "mean" => Stat::Mean,
        "median" => Stat::Median,
        "std" => Stat::Std,
        p => {
            let n: f64 = p.strip_prefix('p')?.parse().ok()?;
            if !(0.0..=100.0).contains(&n) {
                return None;
            }
            Stat::Percentile(n)
        }
    };
    Some((stat, metric))
}

fn metric_key(name: &str) -> Option<MetricKey> {
    Some(match name {
        "ttft" => MetricKey::TtftMs,
        "tpot" => MetricKey::TpotMs,
        "itl" => MetricKey::ItlMs,
        "e2el" | "latency" => MetricKey::E2eMs,
        "client_queue_time" => MetricKey::ClientQueueMs,
        "e2el_including_client_queue" => MetricKey::E2eInclClientQueueMs,
        _ => return None,
    })
}

/// Reads one result object into an operating point (index `point_index` in the import),
/// appending its per-request records (if any) and warnings.
pub(crate) fn run_to_point(
    obj: &Obj,
    source: String,
    point_index: usize,
    opts: &ImportOptions,
    records: &mut Vec<RequestRecord>,
    warnings: &mut Vec<String>,
) -> Result<OperatingPoint> {
    let ctx = obj.ctx;
    let mut point = OperatingPoint::new(source.clone());
    let mut fields = point_fields(obj);
    let mut completed = obj.u64("completed")?;
    point.completed = completed;
    point.duration_s = obj.num("duration", Quantity::Duration)?;
    point.failed = obj.u64("failed")?;
    point.input_tokens_total = obj.u64("total_input_tokens")?;
    point.output_tokens_total = obj.u64("total_output_tokens")?;
    point.request_throughput = obj.num("request_throughput", Quantity::Rate)?;
    point.output_tokens_per_s = obj.num("output_throughput", Quantity::Rate)?;
    point.total_tokens_per_s = obj.num("total_token_throughput", Quantity::Rate)?;
    point.request_goodput = match obj.num("request_goodput", Quantity::Rate)? {
        Some(g) => Some(g),
        None => obj.num("request_goodput:", Quantity::Rate)?,
    };
    point.model = obj.str("model_id")?.map(str::to_string);
    point.request_rate = match obj.get("request_rate") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if is_infinite(s) => None,
        Some(Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(r) if r.is_finite() => {
                Some(checked(r, Quantity::Rate, &obj.field("request_rate"), ctx)?)
            }
            _ => {
                return Err(ctx.wrong_type(
                    &obj.field("request_rate"),
                    "a number or \"inf\"",
                    &Value::String(s.clone()),
                ));
            }
        },
        Some(v) => Some(checked(
            number(v, &obj.field("request_rate"), ctx)?,
            Quantity::Rate,
            &obj.field("request_rate"),
            ctx,
        )?),
    };
    point.concurrency = obj.u64("max_concurrency")?.map(|c| c as f64);
    let missing: Vec<&str> = RUN_TOTALS.iter().copied().filter(|k| !obj.has(k)).collect();

    // Statistics and settings.
    for (key, value) in obj.map {
        if key.starts_with("probe_")
            || CONSUMED.contains(&key.as_str())
            || DETAILED.contains(&key.as_str())
        {
            if key.starts_with("probe_")
                && let Some(text) = scalar_text(value)
            {
                point.settings.insert(key.clone(), text);
            }
            continue;
        }
        if let Some((stat, name)) = parse_stat_key(key)
            && let Some(mkey) = metric_key(name)
        {
            let v = match value {
                Value::Null => continue,
                v => checked(
                    number(v, &obj.field(key), ctx)?,
                    Quantity::Latency,
                    &obj.field(key),
                    ctx,
                )?,
            };
            let def = super::common::def_for(VLLM_DEFS, mkey)
                .expect("every vLLM metric key has a definition");
            let source_name = if name == "latency" {
                "latency"
            } else {
                def.source
            };
            let stats = point.metrics.entry(mkey).or_insert_with(|| {
                let mut s = MetricStats::new(mkey, def.text, source_name);
                s.std_kind = Some(StdKind::Population);
                s
            });
            let label = match stat {
                Stat::Mean => {
                    stats.mean = Some(v);
                    "mean".to_string()
                }
                Stat::Median => {
                    stats.p50 = Some(v);
                    "p50".to_string()
                }
                Stat::Std => {
                    stats.std = Some(v);
                    "std".to_string()
                }
                Stat::Percentile(p) => {
                    stats.set_percentile(p, v);
                    super::model::percentile_label(p)
                }
            };
            fields.note_stat(mkey, &label, obj.field(key), None);
            continue;
        }
        if let Some(text) = scalar_text(value) {
            point.settings.insert(key.clone(), text);
        }
    }

    // Scenario as the run states it (dataset and --metadata / newer length keys).
    let setting_num = |keys: &[&str]| -> Option<f64> {
        keys.iter().find_map(|k| {
            point
                .settings
                .get(*k)
                .and_then(|s| s.trim().parse::<f64>().ok())
        })
    };
    let input = setting_num(&["input_len", "random_input_len", "input_length", "isl"]);
    let output = setting_num(&["output_len", "random_output_len", "output_length", "osl"]);
    let dataset = point
        .settings
        .get("dataset_name")
        .or_else(|| point.settings.get("dataset"))
        .cloned();
    if let Some(s) = stated_scenario(input, output, dataset.as_deref()) {
        point.scenario = s;
    }

    // Per-request arrays.
    let first = records.len();
    let detailed = DETAILED.iter().any(|k| obj.has(k));
    let mut from_arrays = false;
    if detailed {
        read_detailed(obj, point_index, records)?;
        if completed.is_none() && obj.has("errors") {
            // The arrays list every request with its error text: the successful ones are known.
            let ok = records[first..].iter().filter(|r| !r.is_error()).count() as u64;
            completed = Some(ok);
            point.completed = completed;
            from_arrays = true;
        }
    }
    // TTFT and E2E statistics cover every successful request; TPOT (only answers longer than one
    // token) and ITL (chunks) have counts the summary does not state.
    if let Some(done) = completed {
        for key in [
            MetricKey::TtftMs,
            MetricKey::E2eMs,
            MetricKey::ClientQueueMs,
        ] {
            if let Some(stats) = point.metrics.get_mut(&key)
                && stats.count.is_none()
            {
                stats.count = Some(done);
            }
        }
    }
    // Older or trimmed results: what the totals give is computed, the rest stays absent.
    let mut computed = Vec::new();
    if let (Some(done), Some(secs)) = (completed, point.duration_s.filter(|d| *d > 0.0)) {
        if point.request_throughput.is_none() {
            point.request_throughput = Some(done as f64 / secs);
            computed.push("request_throughput");
        }
        if point.output_tokens_per_s.is_none()
            && let Some(out) = point.output_tokens_total
        {
            point.output_tokens_per_s = Some(out as f64 / secs);
            computed.push("output_throughput");
        }
        if point.total_tokens_per_s.is_none()
            && let (Some(inp), Some(out)) = (point.input_tokens_total, point.output_tokens_total)
        {
            point.total_tokens_per_s = Some((inp + out) as f64 / secs);
            computed.push("total_token_throughput");
        }
    }
    if !missing.is_empty() {
        let list = missing
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        warnings.push(words::missing_keys(&source, &list, from_arrays, &computed));
    }

    // Placeholder zeros: no data is not zero latency.
    if completed == Some(0) {
        if !point.metrics.is_empty() {
            warnings.push(words::placeholders_dropped(&source, point.failed));
        }
        point.metrics.clear();
    } else {
        let zeros: Vec<MetricKey> = point
            .metrics
            .iter()
            .filter(|(_, s)| all_zero(s))
            .map(|(k, _)| *k)
            .collect();
        for key in zeros {
            point.metrics.remove(&key);
            warnings.push(words::zero_statistic(&source, key.as_str()));
        }
    }

    if detailed {
        fill_from_records(&mut point, &records[first..], VLLM_DEFS, opts);
        if !opts.keep_requests {
            records.truncate(first);
        } else if !opts.keep_itl_lists {
            for r in &mut records[first..] {
                r.itl_ms = Vec::new();
            }
        }
    }
    let rules = PointRules {
        total: obj.u64("num_prompts")?,
        rates_are_count_over_duration: true,
    };
    check_point(&point, &fields, rules, ctx)?;
    finish_point(&mut point);
    Ok(point)
}

/// Where a result object's totals are ([`Fields`]); statistics are noted as they are read.
fn point_fields(obj: &Obj) -> Fields {
    let mut fields = Fields::default();
    for (id, key) in [
        ("completed", "completed"),
        ("failed", "failed"),
        ("total", "num_prompts"),
        ("duration_s", "duration"),
        ("input_tokens_total", "total_input_tokens"),
        ("output_tokens_total", "total_output_tokens"),
        ("request_throughput", "request_throughput"),
        ("output_tokens_per_s", "output_throughput"),
        ("total_tokens_per_s", "total_token_throughput"),
        ("concurrency", "max_concurrency"),
    ] {
        fields.note(id, obj.field(key), None);
    }
    fields
}

fn is_infinite(s: &str) -> bool {
    matches!(
        s.trim().to_ascii_lowercase().as_str(),
        "inf" | "infinity" | "+inf"
    )
}

fn all_zero(s: &MetricStats) -> bool {
    let fixed = [s.mean, s.p50, s.p90, s.p95, s.p99, s.min, s.max, s.std];
    fixed.iter().flatten().all(|v| *v == 0.0) && s.percentiles.values().all(|v| *v == 0.0)
}

/// One numeric per-request array; absent → `None`.
fn num_array(obj: &Obj, key: &str) -> Result<Option<Vec<f64>>> {
    let Some(items) = obj.arr(key)? else {
        return Ok(None);
    };
    let path = obj.field(key);
    items
        .iter()
        .enumerate()
        .map(|(i, v)| number(v, &index(&path, i), obj.ctx))
        .collect::<Result<Vec<f64>>>()
        .map(Some)
}

fn read_detailed(obj: &Obj, point: usize, records: &mut Vec<RequestRecord>) -> Result<()> {
    let ctx = obj.ctx;
    let input_lens = num_array(obj, "input_lens")?;
    let output_lens = num_array(obj, "output_lens")?;
    let ttfts = num_array(obj, "ttfts")?;
    let latencies = num_array(obj, "latencies")?;
    let start_times = num_array(obj, "start_times")?;
    let itls: Option<Vec<Vec<f64>>> = match obj.arr("itls")? {
        None => None,
        Some(items) => {
            let path = obj.field("itls");
            let mut all = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let row_path = index(&path, i);
                let Value::Array(row) = item else {
                    return Err(ctx.wrong_type(&row_path, "a list of numbers", item));
                };
                all.push(
                    row.iter()
                        .enumerate()
                        .map(|(j, v)| number(v, &index(&row_path, j), ctx))
                        .collect::<Result<Vec<f64>>>()?,
                );
            }
            Some(all)
        }
    };
    // Per-request times are seconds: each must be a possible latency once in milliseconds.
    for (key, values) in [("ttfts", &ttfts), ("latencies", &latencies)] {
        for (i, v) in values.iter().flatten().enumerate() {
            checked(
                v * 1000.0,
                Quantity::Latency,
                &index(&obj.field(key), i),
                ctx,
            )?;
        }
    }
    for (i, row) in itls.iter().flatten().enumerate() {
        for (j, v) in row.iter().enumerate() {
            let path = index(&index(&obj.field("itls"), i), j);
            checked(v * 1000.0, Quantity::Latency, &path, ctx)?;
        }
    }
    for (i, v) in start_times.iter().flatten().enumerate() {
        checked(
            *v,
            Quantity::ClockSeconds,
            &index(&obj.field("start_times"), i),
            ctx,
        )?;
    }
    let errors: Option<Vec<String>> = match obj.arr("errors")? {
        None => None,
        Some(items) => {
            let path = obj.field("errors");
            let mut all = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => all.push(s.clone()),
                    Value::Null => all.push(String::new()),
                    other => return Err(ctx.wrong_type(&index(&path, i), "a string", other)),
                }
            }
            Some(all)
        }
    };

    // All present arrays describe the same requests, in the same order.
    let lengths: Vec<(&str, usize)> = [
        ("input_lens", input_lens.as_ref().map(Vec::len)),
        ("output_lens", output_lens.as_ref().map(Vec::len)),
        ("ttfts", ttfts.as_ref().map(Vec::len)),
        ("itls", itls.as_ref().map(Vec::len)),
        ("latencies", latencies.as_ref().map(Vec::len)),
        ("start_times", start_times.as_ref().map(Vec::len)),
        ("errors", errors.as_ref().map(Vec::len)),
    ]
    .into_iter()
    .filter_map(|(k, n)| n.map(|n| (k, n)))
    .collect();
    let Some(&(first_key, n)) = lengths.first() else {
        return Ok(());
    };
    if let Some(&(key, len)) = lengths.iter().find(|(_, len)| *len != n) {
        return Err(ctx.err(
            ErrorKind::InvalidValue,
            Some(&obj.field(key)),
            format!("has {len} entries but \"{first_key}\" has {n}; per-request arrays must be the same length"),
        ));
    }
    let earliest = start_times.as_ref().and_then(|s| {
        s.iter()
            .copied()
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))))
    });
    let count = |v: f64, key: &str, i: usize| -> Result<u64> {
        // An integer beyond 2⁵³ rounds as an f64 (2⁵³ + 1 reads as 2⁵³): judge it as written.
        if let Some(n) = obj.arr(key)?.and_then(|a| a.get(i)).and_then(Value::as_u64) {
            return crate::plausible::count_u64(n)
                .map_err(|e| ctx.invalid(&index(&join(obj.path(), key), i), e.message));
        }
        if v >= 0.0 && v.fract() == 0.0 {
            crate::plausible::whole_count(v)
                .map_err(|e| ctx.invalid(&index(&join(obj.path(), key), i), e.message))
        } else {
            Err(ctx.invalid(
                &index(&join(obj.path(), key), i),
                format!("expected a token count, found {v}"),
            ))
        }
    };
    for i in 0..n {
        let mut r = RequestRecord::new(point);
        r.error = errors
            .as_ref()
            .map(|e| e[i].trim())
            .filter(|e| !e.is_empty())
            .map(|e| e.chars().take(2000).collect());
        r.input_tokens = input_lens
            .as_ref()
            .map(|v| count(v[i], "input_lens", i))
            .transpose()?;
        r.output_tokens = output_lens
            .as_ref()
            .map(|v| count(v[i], "output_lens", i))
            .transpose()?;
        r.start_s = match (&start_times, earliest) {
            (Some(s), Some(e)) => Some(s[i] - e),
            _ => None,
        };
        if r.error.is_none() {
            r.ttft_ms = ttfts.as_ref().map(|v| v[i] * 1000.0);
            r.e2e_ms = latencies.as_ref().map(|v| v[i] * 1000.0);
            if let Some(row) = itls.as_ref().map(|v| &v[i]) {
                r.itl_ms = row.iter().map(|s| s * 1000.0).collect();
            }
            let field = |key: &str| index(&obj.field(key), i);
            let (ttft_f, itls_f, e2e_f) = (field("ttfts"), field("itls"), field("latencies"));
            check_request(
                r.ttft_ms.map(|v| (ttft_f.as_str(), v)),
                (&itls_f, &r.itl_ms),
                r.e2e_ms.map(|v| (e2e_f.as_str(), v)),
                ctx,
            )?;
            r.tpot_ms = match (r.e2e_ms, r.ttft_ms, r.output_tokens) {
                (Some(e2e), Some(ttft), Some(out)) if out > 1 => {
                    Some((e2e - ttft) / (out - 1) as f64)
                }
                _ => None,
            };
        }
        records.push(r);
    }
    Ok(())
}

fn layout(obj: &Obj) -> String {
    let mut parts = Vec::new();
    if obj.has("ttfts") || obj.has("itls") {
        parts.push(words::SAVE_DETAILED);
    } else {
        parts.push(words::SUMMARY);
    }
    if obj.has("mean_latency_ms") || obj.has("best_of") {
        parts.push(words::KEYS_2024);
    }
    if obj.has("request_goodput:") {
        parts.push(words::GOODPUT_COLON);
    }
    parts.join(words::PIECES)
}

/// A single result object.
pub(crate) fn import_single(value: &Value, ctx: &Ctx, opts: &ImportOptions) -> Result<Import> {
    let obj = Obj::new(value, "", ctx)?;
    let mut import = Import::new(Format::VllmBench, layout(&obj));
    let point = run_to_point(
        &obj,
        ctx.file.clone(),
        0,
        opts,
        &mut import.requests,
        &mut import.warnings,
    )?;
    import.points.push(point);
    Ok(import)
}

/// A `summary.json`: a list of result objects.
pub(crate) fn import_summary(items: &[Value], ctx: &Ctx, opts: &ImportOptions) -> Result<Import> {
    let mut import = Import::new(Format::VllmSweepSummary, words::SWEEP_SUMMARY);
    append_summary(&mut import, items, ctx, opts)?;
    Ok(import)
}

/// Appends every run of a summary list to `import` (sources `file[i]`).
pub(crate) fn append_summary(
    import: &mut Import,
    items: &[Value],
    ctx: &Ctx,
    opts: &ImportOptions,
) -> Result<()> {
    for (i, item) in items.iter().enumerate() {
        let path = index("", i);
        let obj = Obj::new(item, &path, ctx)?;
        let idx = import.points.len();
        let point = run_to_point(
            &obj,
            format!("{}{}", ctx.file, path),
            idx,
            opts,
            &mut import.requests,
            &mut import.warnings,
        )?;
        import.points.push(point);
    }
    Ok(())
}

/// `--append-result` JSON Lines, read line by line (blank lines are skipped).
pub(crate) fn import_lines(
    reader: impl BufRead,
    ctx: &Ctx,
    opts: &ImportOptions,
) -> Result<Import> {
    let mut import = Import::new(Format::VllmBenchJsonLines, words::APPEND_RESULT);
    let mut layouts: Vec<String> = Vec::new();
    let mut non_finite = false;
    for_each_line(reader, ctx, |line_ctx, text| {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                let clean = super::json::replace_non_finite(text.as_bytes())
                    .ok_or_else(|| line_ctx.syntax(&e))?;
                non_finite = true;
                serde_json::from_slice(&clean).map_err(|_| line_ctx.syntax(&e))?
            }
        };
        let obj = Obj::new(&value, "", line_ctx)?;
        let l = layout(&obj);
        if !layouts.contains(&l) {
            layouts.push(l);
        }
        let idx = import.points.len();
        let point = run_to_point(
            &obj,
            words::at_line(&ctx.file, line_ctx.line.unwrap_or(0)),
            idx,
            opts,
            &mut import.requests,
            &mut import.warnings,
        )?;
        import.points.push(point);
        Ok(())
    })?;
    if import.points.is_empty() {
        return Err(ctx.err(ErrorKind::Empty, None, "the file has no result lines"));
    }
    if non_finite {
        import
            .warnings
            .insert(0, super::json::non_finite_warning(&ctx.file));
    }
    import.layout = format!(
        "{}{}{}",
        words::APPEND_RESULT,
        words::PIECES,
        layouts.join(words::VARIANTS)
    );
    Ok(import)
}

/// Calls `f` for every non-blank line with a context naming that line (1-based). Reads with a
/// reused buffer, so memory stays at one line.
pub(crate) fn for_each_line(
    mut reader: impl BufRead,
    ctx: &Ctx,
    mut f: impl FnMut(&Ctx, &str) -> Result<()>,
) -> Result<()> {
    let mut buf = String::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        let n = reader.read_line(&mut buf).map_err(|e| {
            ctx.at_line(line_no + 1)
                .err(ErrorKind::Read, None, format!("could not read: {e}"))
        })?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        let text = buf.trim();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        f(&ctx.at_line(line_no), text)?;
    }
}
