//! guidellm `benchmarks.json` (the `GenerativeBenchmarksReport`), and the same report saved as
//! `benchmarks.yaml`: the YAML is parsed to the value its JSON twin has (`yaml.rs`) and read by
//! the same code.
//!
//! One benchmark object per load level (a `sweep` profile writes synchronous, throughput and
//! N constant-rate benchmarks; `--rate-type concurrent --rate 1,4,16` one per stream count),
//! so each becomes one operating point.
//!
//! Layouts:
//! * v0.2/v0.3: strategy under `args.strategy`, model under `worker.backend_model`, workload
//!   under `request_loader.data`, totals in `request_totals`.
//! * current (report `metadata.version` 2): strategy under `config.strategy`, totals in
//!   `metrics.request_totals`, requests possibly sampled. No real file of this layout was at
//!   hand; it is read from guidellm's published schema, tolerantly.
//!
//! Decisions:
//! * Statistics are the `successful` distribution of each metric (errored and incomplete
//!   requests are not latency samples). `median` is p50; guidellm's percentile keys
//!   `p001 … p999` are 0.1 … 99.9. Empty distributions (count 0) are left out.
//! * `request_latency` is in **seconds** in guidellm while the others are milliseconds; it is
//!   converted.
//! * guidellm has two per-token figures. `inter_token_latency_ms` divides by n − 1 and is the
//!   TPOT everyone else means, so it is stored as `tpot_ms`. `time_per_output_token_ms` divides
//!   by n (and in the current layout also counts from the request start, i.e. includes TTFT);
//!   it is kept under `tpot_over_all_tokens_ms` with that definition, never mixed with TPOT.
//! * guidellm streams no per-chunk gaps, so there is no `itl_ms`.
//! * `failed` = errored + incomplete (requests cut off when the benchmark ended); both counts
//!   are also in `settings`.
//! * Across fields (`across.rs`): `start_time`, `end_time` and every request's start are
//!   instants in 2000–2099; when `duration`, `start_time` and `end_time` are all given, the
//!   duration is their difference; each request's TTFT is at most its latency. The
//!   throughputs are means over time windows, not count ÷ duration, and are not checked so.

use super::ImportOptions;
use super::across::{Fields, PointRules, check_point, check_request};
use super::common::{finish_point, stated_scenario};
use super::error::Ctx;
use super::json::{Obj, Result, checked, count, fmt_num, index, scalar_text};
use super::model::{Format, Import, MetricKey, MetricStats, OperatingPoint, RequestRecord};
use crate::plausible::{self, Quantity, across};
use serde_json::Value;

struct Spec {
    name: &'static str,
    key: MetricKey,
    /// Multiplier to the key's unit (seconds → ms for `request_latency`).
    factor: f64,
    text_old: &'static str,
    text_current: &'static str,
}

const TTFT_TEXT: &str = "Client-side time from request start to the first token, successful requests (guidellm `time_to_first_token_ms`).";
const TPOT_TEXT: &str = "Per request (last token time − first token time) ÷ (output tokens − 1), successful requests (guidellm `inter_token_latency_ms`; the same quantity as vLLM bench `tpot`).";
const E2E_TEXT: &str = "Client-side time from request start to request end, successful requests; converted from seconds (guidellm `request_latency`).";
const IN_TEXT: &str = "Prompt tokens per successful request (guidellm `prompt_token_count`).";
const OUT_TEXT: &str = "Output tokens per successful request (guidellm `output_token_count`).";

const SPECS: [Spec; 6] = [
    Spec {
        name: "time_to_first_token_ms",
        key: MetricKey::TtftMs,
        factor: 1.0,
        text_old: TTFT_TEXT,
        text_current: TTFT_TEXT,
    },
    Spec {
        name: "inter_token_latency_ms",
        key: MetricKey::TpotMs,
        factor: 1.0,
        text_old: TPOT_TEXT,
        text_current: TPOT_TEXT,
    },
    Spec {
        name: "time_per_output_token_ms",
        key: MetricKey::TpotOverAllTokensMs,
        factor: 1.0,
        text_old: "Per request (last token time − first token time) ÷ output tokens: divides by n, not n − 1, so it is slightly below TPOT (guidellm v0.2/0.3 `time_per_output_token_ms`).",
        text_current: "Per request (last token time − request start) ÷ output tokens: includes the time to first token and divides by n, not n − 1 (current guidellm `time_per_output_token_ms`).",
    },
    Spec {
        name: "request_latency",
        key: MetricKey::E2eMs,
        factor: 1000.0,
        text_old: E2E_TEXT,
        text_current: E2E_TEXT,
    },
    Spec {
        name: "prompt_token_count",
        key: MetricKey::InputTokens,
        factor: 1.0,
        text_old: IN_TEXT,
        text_current: IN_TEXT,
    },
    Spec {
        name: "output_token_count",
        key: MetricKey::OutputTokens,
        factor: 1.0,
        text_old: OUT_TEXT,
        text_current: OUT_TEXT,
    },
];

/// `p001` → 0.1, `p01` → 1, `p25` → 25, `p999` → 99.9, `p50` → 50.
fn percentile_of(label: &str) -> Option<f64> {
    let digits = label.strip_prefix('p')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse().ok();
    }
    let n: f64 = digits.parse().ok()?;
    Some(if digits.len() == 3 { n / 10.0 } else { n })
}

/// The `successful` distribution of a StatusDistributionSummary.
fn successful<'a>(metrics: &Obj<'a>, name: &str) -> Result<Option<Obj<'a>>> {
    let Some(status) = metrics.obj(name)? else {
        return Ok(None);
    };
    status.obj("successful")
}

fn stats_from(
    dist: &Obj,
    spec: &Spec,
    current: bool,
    fields: &mut Fields,
) -> Result<Option<MetricStats>> {
    let n = dist.u64("count")?;
    if n == Some(0) {
        return Ok(None);
    }
    let text = if current {
        spec.text_current
    } else {
        spec.text_old
    };
    let mut s = MetricStats::new(spec.key, text, spec.name);
    // Latencies are checked in milliseconds (request_latency is seconds in the file).
    let quantity = if spec.key.is_latency() {
        Quantity::Latency
    } else {
        Quantity::Count
    };
    let stat = |key: &str| -> Result<Option<f64>> {
        match dist.f64(key)? {
            None => Ok(None),
            Some(v) => {
                checked(v * spec.factor, quantity, &dist.field(key), dist.ctx).map(|_| Some(v))
            }
        }
    };
    s.count = n;
    s.mean = stat("mean")?;
    s.p50 = stat("median")?;
    s.std = stat("std_dev")?;
    s.min = stat("min")?;
    s.max = stat("max")?;
    for (id, key) in [
        ("mean", "mean"),
        ("p50", "median"),
        ("min", "min"),
        ("max", "max"),
    ] {
        fields.note_stat(spec.key, id, dist.field(key), None);
    }
    if let Some(pcts) = dist.obj("percentiles")? {
        for (label, v) in pcts.map {
            if v.is_null() {
                continue;
            }
            let value = super::json::number(v, &pcts.field(label), dist.ctx)?;
            checked(value * spec.factor, quantity, &pcts.field(label), dist.ctx)?;
            if let Some(p) = percentile_of(label) {
                s.set_percentile(p, value);
                let id = super::model::percentile_label(p);
                fields.note_stat(spec.key, &id, pcts.field(label), None);
            }
        }
    }
    s.scale(spec.factor);
    Ok((!s.is_empty()).then_some(s))
}

/// A guidellm report (either layout).
pub(crate) fn import(value: &Value, ctx: &Ctx, opts: &ImportOptions) -> Result<Import> {
    let root = Obj::new(value, "", ctx)?;
    let Some(benchmarks) = root.arr("benchmarks")? else {
        return Err(ctx.missing("benchmarks"));
    };
    if benchmarks.is_empty() {
        return Err(ctx.invalid("benchmarks", "the report has no benchmarks"));
    }
    let meta = root.obj("metadata")?;
    let current = meta.as_ref().is_some_and(|m| m.has("version"))
        || benchmarks
            .first()
            .and_then(Value::as_object)
            .is_some_and(|b| b.contains_key("config") && !b.contains_key("args"));
    let layout = if current {
        match meta
            .as_ref()
            .map(|m| m.get("version").and_then(scalar_text))
        {
            Some(Some(v)) => super::words::current_report_layout_version(&v),
            _ => super::words::GUIDELLM_CURRENT.to_string(),
        }
    } else {
        super::words::GUIDELLM_OLD.to_string()
    };
    let mut import = Import::new(Format::GuidellmJson, layout);
    if let Some(m) = &meta {
        import.tool_version = m.str("guidellm_version")?.map(str::to_string);
    }
    let report_config = root.obj("config")?;

    for (i, b) in benchmarks.iter().enumerate() {
        let path = index("benchmarks", i);
        let bench = Obj::new(b, &path, ctx)?;
        if let Some(t) = bench.str("type_")?
            && t != "generative_benchmark"
        {
            import.warnings.push(super::words::not_generative(
                &format!("{} {path}", ctx.file),
                t,
            ));
            continue;
        }
        let point_index = import.points.len();
        let mut point = OperatingPoint::new(format!("{} {path}", ctx.file));
        let mut fields = Fields::default();

        // Strategy: concurrency or rate.
        let (strategy, config) = if current {
            let cfg = bench.obj("config")?;
            (
                match &cfg {
                    Some(c) => c.obj("strategy")?,
                    None => None,
                },
                cfg,
            )
        } else {
            let args = bench.obj("args")?;
            (
                match &args {
                    Some(a) => a.obj("strategy")?,
                    None => None,
                },
                args,
            )
        };
        if let Some(s) = &strategy {
            let kind = s.str("type_")?;
            if let Some(k) = kind {
                point.settings.insert("strategy".to_string(), k.to_string());
            }
            fields.note("concurrency", s.field("streams"), None);
            point.concurrency = match (kind, s.num("streams", Quantity::Rate)?) {
                (_, Some(n)) => Some(n),
                (Some("synchronous"), None) => Some(1.0),
                _ => None,
            };
            point.request_rate = s.num("rate", Quantity::Rate)?;
            for (key, value) in s.map {
                if key != "type_"
                    && let Some(text) = scalar_text(value)
                {
                    point.settings.insert(format!("strategy.{key}"), text);
                }
            }
        }
        if let Some(cfg) = &config {
            if let Some(profile) = cfg.obj("profile")? {
                if let Some(kind) = profile.str("type_")? {
                    point
                        .settings
                        .insert("profile".to_string(), kind.to_string());
                }
                let idx = cfg.u64("strategy_index")?.or(cfg.u64("run_index")?);
                if let (Some(idx), Some(list)) = (idx, profile.arr("measured_concurrencies")?)
                    && let Some(v) = list.get(idx as usize).and_then(Value::as_f64)
                {
                    point
                        .settings
                        .insert("measured_concurrency_mean".to_string(), v.to_string());
                }
            }
            for key in [
                "max_number",
                "max_duration",
                "warmup_number",
                "warmup_duration",
                "cooldown_number",
                "cooldown_duration",
            ] {
                if let Some(text) = cfg.get(key).and_then(scalar_text) {
                    point.settings.insert(key.to_string(), text);
                }
            }
        }

        // Model, target and workload.
        let mut scenario_text: Option<String> = None;
        if let Some(worker) = bench.obj("worker")? {
            point.model = worker.str("backend_model")?.map(str::to_string);
            for key in ["backend_type", "backend_target"] {
                if let Some(text) = worker.str(key)? {
                    point.settings.insert(key.to_string(), text.to_string());
                }
            }
        }
        if let Some(loader) = bench.obj("request_loader")? {
            scenario_text = loader.get("data").and_then(data_text);
            if let Some(p) = loader.str("processor")? {
                point
                    .settings
                    .insert("processor".to_string(), p.to_string());
            }
        }
        if let Some(cfg) = &config {
            if let Some(backend) = cfg.obj("backend")? {
                if point.model.is_none() {
                    point.model = backend.str("model")?.map(str::to_string);
                }
                if let Some(t) = backend.str("target")? {
                    point
                        .settings
                        .insert("backend_target".to_string(), t.to_string());
                }
            }
            if let Some(req) = cfg.obj("requests")?
                && scenario_text.is_none()
            {
                scenario_text = req.get("data").and_then(data_text);
            }
        }
        if let Some(rc) = &report_config {
            if point.model.is_none() {
                point.model = rc.str("model")?.map(str::to_string);
            }
            if scenario_text.is_none() {
                scenario_text = rc.get("data").and_then(data_text);
            }
            if !point.settings.contains_key("backend_target")
                && let Some(t) = rc.str("target")?
            {
                point
                    .settings
                    .insert("backend_target".to_string(), t.to_string());
            }
        }
        if let Some(s) = scenario_text {
            point.scenario = s;
        }

        // Duration.
        point.duration_s = read_duration(&bench, &mut fields)?;

        // Metrics and totals.
        let metrics = bench
            .obj("metrics")?
            .ok_or_else(|| ctx.missing(&bench.field("metrics")))?;
        let totals = match bench.obj("request_totals")? {
            Some(t) => Some(t),
            None => metrics.obj("request_totals")?,
        };
        let mut total = None;
        if let Some(t) = &totals {
            total = t.u64("total")?;
            fields.note("total", t.field("total"), None);
            fields.note("completed", t.field("successful"), None);
            let failed_key = if t.has("errored") {
                "errored"
            } else {
                "incomplete"
            };
            fields.note("failed", t.field(failed_key), None);
            let ok = t.u64("successful")?;
            let errored = t.u64("errored")?;
            let incomplete = t.u64("incomplete")?;
            point.completed = ok;
            point.failed = match (errored, incomplete) {
                (None, None) => None,
                (e, i) => Some(e.unwrap_or(0) + i.unwrap_or(0)),
            };
            for (key, v) in [("errored", errored), ("incomplete", incomplete)] {
                if let Some(v) = v {
                    point
                        .settings
                        .insert(format!("requests_{key}"), v.to_string());
                }
            }
        }
        for spec in &SPECS {
            if let Some(dist) = successful(&metrics, spec.name)?
                && let Some(stats) = stats_from(&dist, spec, current, &mut fields)?
            {
                point.metrics.insert(spec.key, stats);
            }
        }
        if let Some(d) = successful(&metrics, "requests_per_second")? {
            point.request_throughput = d.num("mean", Quantity::Rate)?;
        }
        if let Some(d) = successful(&metrics, "output_tokens_per_second")? {
            point.output_tokens_per_s = d.num("mean", Quantity::Rate)?;
        }
        if let Some(d) = successful(&metrics, "tokens_per_second")? {
            point.total_tokens_per_s = d.num("mean", Quantity::Rate)?;
        }
        if let Some(d) = successful(&metrics, "request_concurrency")?
            && let Some(m) = d.num("mean", Quantity::Rate)?
        {
            point
                .settings
                .insert("measured_concurrency_mean".to_string(), m.to_string());
        }
        if let Some(d) = successful(&metrics, "prompt_token_count")? {
            point.input_tokens_total = d
                .num("total_sum", Quantity::Count)?
                .map(|v| v.round() as u64);
        }
        if let Some(d) = successful(&metrics, "output_token_count")? {
            point.output_tokens_total = d
                .num("total_sum", Quantity::Count)?
                .map(|v| v.round() as u64);
        }
        if point.completed.is_none() {
            point.completed = point.metric(MetricKey::E2eMs).and_then(|m| m.count);
        }

        // Per-request records.
        if let Some(reqs) = bench.obj("requests")? {
            let mut starts: Vec<Option<f64>> = Vec::new();
            let first = import.requests.len();
            for (status, failure) in [
                ("successful", None),
                ("errored", Some("errored")),
                (
                    "incomplete",
                    Some("incomplete: still running when the benchmark ended"),
                ),
            ] {
                let Some(list) = reqs.arr(status)? else {
                    continue;
                };
                let list_path = reqs.field(status);
                for (j, item) in list.iter().enumerate() {
                    let rp = index(&list_path, j);
                    let r = Obj::new(item, &rp, ctx)?;
                    let (record, start) = read_request(&r, point_index, failure)?;
                    if opts.keep_requests {
                        import.requests.push(record);
                        starts.push(start);
                    }
                }
            }
            let earliest = starts
                .iter()
                .flatten()
                .copied()
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
            if let Some(e) = earliest {
                for (r, s) in import.requests[first..].iter_mut().zip(&starts) {
                    r.start_s = s.map(|s| s - e);
                }
            }
            let total = point.completed.unwrap_or(0) + point.failed.unwrap_or(0);
            let kept = (import.requests.len() - first) as u64;
            if current && opts.keep_requests && kept < total {
                import.warnings.push(super::words::samples_kept(
                    &format!("{} {path}", ctx.file),
                    kept,
                    total,
                ));
            }
        }
        for key in ["id_", "run_id"] {
            if let Some(text) = bench.get(key).and_then(scalar_text) {
                point.settings.insert(key.to_string(), text);
            }
        }
        let rules = PointRules {
            total,
            rates_are_count_over_duration: false,
        };
        check_point(&point, &fields, rules, ctx)?;
        finish_point(&mut point);
        import.points.push(point);
    }
    if import.points.is_empty() {
        return Err(ctx.invalid("benchmarks", "the report has no generative benchmarks"));
    }
    Ok(import)
}

/// The benchmark's duration: `duration`, else `end_time − start_time`; when all three are
/// given, `duration` must be their difference ([`crate::plausible::Rule::DurationMatchesClock`]).
fn read_duration(bench: &Obj, fields: &mut Fields) -> Result<Option<f64>> {
    let ctx = bench.ctx;
    fields.note("duration_s", bench.field("duration"), None);
    let given = bench.num("duration", Quantity::Duration)?;
    let (start, end) = (
        bench.num("start_time", Quantity::ClockSeconds)?,
        bench.num("end_time", Quantity::ClockSeconds)?,
    );
    for (key, v) in [("start_time", start), ("end_time", end)] {
        if let Some(v) = v {
            plausible::instant_s(v).map_err(|why| ctx.invalid(&bench.field(key), why))?;
        }
    }
    let (Some(s), Some(e)) = (start, end) else {
        return Ok(given);
    };
    let (start_f, end_f) = (bench.field("start_time"), bench.field("end_time"));
    let broken = |b: crate::plausible::Broken| ctx.invalid(&b.field, b.message);
    across::end_after_start((&start_f, s), (&end_f, e), " s").map_err(broken)?;
    match given {
        Some(d) => {
            let duration_f = bench.field("duration");
            across::duration_matches_clock((&duration_f, d), (&start_f, s), (&end_f, e))
                .map_err(broken)?;
            Ok(Some(d))
        }
        None => {
            fields.note("duration_s", end_f.clone(), None);
            checked(e - s, Quantity::Duration, &end_f, ctx).map(Some)
        }
    }
}

/// A request's start (Unix seconds: `start_time`, `request_start_time`,
/// `scheduler_info.request_start` or `info.timings.request_start`), an instant in 2000–2099.
fn request_start(r: &Obj) -> Result<Option<f64>> {
    let mut found = None;
    for key in ["start_time", "request_start_time"] {
        if found.is_none() {
            found = r
                .num(key, Quantity::ClockSeconds)?
                .map(|v| (v, r.field(key)));
        }
    }
    if found.is_none()
        && let Some(info) = r.obj("scheduler_info")?
    {
        let key = "request_start";
        found = info
            .num(key, Quantity::ClockSeconds)?
            .map(|v| (v, info.field(key)));
    }
    if found.is_none()
        && let Some(info) = r.obj("info")?
        && let Some(t) = info.obj("timings")?
    {
        let key = "request_start";
        found = t
            .num(key, Quantity::ClockSeconds)?
            .map(|v| (v, t.field(key)));
    }
    found
        .map(|(v, field)| plausible::instant_s(v).map_err(|why| r.ctx.invalid(&field, why)))
        .transpose()
}

/// The workload as guidellm states it: a string as is; a list joined; an object as compact JSON.
fn data_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(data_text).collect();
            (!parts.is_empty()).then(|| parts.join("; "))
        }
        Value::Object(_) => Some(v.to_string()),
        Value::Number(n) => n
            .as_f64()
            .and_then(|f| stated_scenario(None, None, Some(&fmt_num(f)))),
        _ => None,
    }
}

/// One request of either layout; returns the record and its absolute start (epoch seconds).
fn read_request(
    r: &Obj,
    point: usize,
    failure: Option<&str>,
) -> Result<(RequestRecord, Option<f64>)> {
    let mut rec = RequestRecord::new(point);
    rec.id = r.str("request_id")?.map(str::to_string);
    let tokens = |key: &str| -> Result<Option<u64>> {
        match r.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => count(v, &r.field(key), r.ctx).map(Some),
        }
    };
    rec.input_tokens = tokens("prompt_tokens")?;
    rec.output_tokens = tokens("output_tokens")?;
    rec.ttft_ms = r.num("time_to_first_token_ms", Quantity::Latency)?;
    rec.tpot_ms = r.num("inter_token_latency_ms", Quantity::Latency)?;
    rec.e2e_ms = match r.f64("request_latency")? {
        None => None,
        Some(s) => Some(checked(
            s * 1000.0,
            Quantity::Latency,
            &r.field("request_latency"),
            r.ctx,
        )?),
    };
    let (ttft_f, e2e_f) = (
        r.field("time_to_first_token_ms"),
        r.field("request_latency"),
    );
    check_request(
        rec.ttft_ms.map(|v| (ttft_f.as_str(), v)),
        ("", &[]),
        rec.e2e_ms.map(|v| (e2e_f.as_str(), v)),
        r.ctx,
    )?;
    let start = request_start(r)?;
    if let Some(kind) = failure {
        let mut text = r.str("error")?.map(str::to_string);
        if text.is_none()
            && let Some(info) = r.obj("info")?
        {
            text = info.get("error").and_then(scalar_text);
        }
        rec.error = Some(text.unwrap_or_else(|| kind.to_string()));
    }
    Ok((rec, start))
}
