//! The rules across fields ([`crate::plausible::across`]) applied to an operating point, with
//! the file's own field names in every message.
//!
//! Each importer reads a file into the normalised [`OperatingPoint`]; the same checks then run
//! on it whatever the tool, so a rule is written once and no format escapes it. What differs per
//! format is only where a value came from: while reading, an importer notes for each normalised
//! value the field (and line) it was read from in a [`Fields`], and the messages name that field
//! (`p99_ttft_ms`, `time_to_first_token.p99`, `Time to First Token (ms).p99` on line 12,
//! `benchmarks[0].metrics.time_to_first_token_ms.successful.percentiles.p99`). A value the file
//! did not give (statistics computed from per-request data) is named by its normalised id.
//!
//! Per point ([`check_point`]): every distribution's percentiles are ordered and its mean lies
//! within its minimum and maximum; TTFT is at most E2E statistic by statistic (all statistics when
//! both cover the same requests, only the maximum when their counts differ); completed + failed
//! are at most the requests sent; a run that completed requests has a positive duration; where
//! the tool defines its throughputs as count ÷ duration (vLLM, AIPerf, GenAI-Perf), they are; and
//! a configured concurrency is at least 1. Per request ([`check_request`]): TTFT ≤ E2E and TTFT
//! plus the chunk gaps ≤ E2E.

use super::error::Ctx;
use super::json::Result;
use super::model::{MetricKey, MetricStats, OperatingPoint};
use crate::plausible::across::{self, Broken, Named};
use std::collections::BTreeMap;

/// Where each normalised value of a point was read: id → (field as the file names it, line).
///
/// Ids: `<metric key>.<stat>` for statistics (`ttft_ms.p99`, `e2e_ms.mean`, `itl_ms.min`), the
/// [`OperatingPoint`] field name for totals (`completed`, `duration_s`, `request_throughput`),
/// and `total` for the requests sent.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fields {
    names: BTreeMap<String, (String, Option<u64>)>,
}

impl Fields {
    /// Notes that `id` was read from `field` (on `line`, for line-based formats).
    pub fn note(&mut self, id: impl Into<String>, field: impl Into<String>, line: Option<u64>) {
        self.names.insert(id.into(), (field.into(), line));
    }

    /// Notes a statistic of `key` (`stat`: `mean`, `min`, `max` or a percentile label).
    pub fn note_stat(&mut self, key: MetricKey, stat: &str, field: String, line: Option<u64>) {
        self.note(stat_id(key, stat), field, line);
    }

    /// The field `id` was read from, or `id` itself for a value the file did not give.
    fn name(&self, id: &str) -> String {
        self.names
            .get(id)
            .map_or_else(|| id.to_string(), |(field, _)| field.clone())
    }

    /// The context of the error about `field`: its line when the format has lines.
    fn ctx_for(&self, field: &str, ctx: &Ctx) -> Ctx {
        let line = self
            .names
            .values()
            .find(|(f, _)| f == field)
            .and_then(|(_, line)| *line);
        match line {
            Some(line) => ctx.at_line(line),
            None => ctx.clone(),
        }
    }

    /// `broken` as the importer's error, at the line of its field.
    fn error(&self, broken: Broken, ctx: &Ctx) -> super::IngestError {
        self.ctx_for(&broken.field, ctx)
            .invalid(&broken.field, broken.message)
    }
}

fn stat_id(key: MetricKey, stat: &str) -> String {
    format!("{}.{stat}", key.as_str())
}

/// What differs per tool in [`check_point`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointRules {
    /// Requests sent (vLLM `num_prompts`, guidellm `request_totals.total`), when the file says.
    pub total: Option<u64>,
    /// The tool defines its throughputs as count ÷ duration (vLLM, AIPerf, GenAI-Perf; not
    /// guidellm, whose rates are means over time windows).
    pub rates_are_count_over_duration: bool,
}

/// Every rule across the fields of one point (see the module docs).
pub(crate) fn check_point(
    point: &OperatingPoint,
    fields: &Fields,
    rules: PointRules,
    ctx: &Ctx,
) -> Result<()> {
    let to_error = |broken: Broken| fields.error(broken, ctx);
    for (&key, stats) in &point.metrics {
        check_distribution(key, stats, fields).map_err(to_error)?;
    }
    if let (Some(ttft), Some(e2e)) = (
        point.metric(MetricKey::TtftMs),
        point.metric(MetricKey::E2eMs),
    ) {
        check_ttft_e2e(ttft, e2e, fields).map_err(to_error)?;
    }
    check_totals(point, fields, rules).map_err(to_error)?;
    if let Some(c) = point.concurrency {
        across::at_least_one(&fields.name("concurrency"), "concurrency", c).map_err(to_error)?;
    }
    Ok(())
}

/// Percentiles ordered (min, by p, max) and the mean within min and max.
fn check_distribution(
    key: MetricKey,
    stats: &MetricStats,
    fields: &Fields,
) -> std::result::Result<(), Broken> {
    let unit = format!(" {}", stats.unit);
    let named = |stat: &str, v: f64| (fields.name(&stat_id(key, stat)), v);
    let mut ordered: Vec<(String, f64)> = Vec::new();
    ordered.extend(stats.min.map(|v| named("min", v)));
    for (p, v) in stats.all_percentiles() {
        ordered.push(named(&super::model::percentile_label(p), v));
    }
    ordered.extend(stats.max.map(|v| named("max", v)));
    let borrowed: Vec<Named> = ordered.iter().map(|(f, v)| (f.as_str(), *v)).collect();
    across::percentiles_ordered(&borrowed, &unit)?;
    if let Some(mean) = stats.mean {
        let (mean_field, min, max) = (
            named("mean", mean),
            stats.min.map(|v| named("min", v)),
            stats.max.map(|v| named("max", v)),
        );
        across::mean_within(
            (&mean_field.0, mean),
            min.as_ref().map(|(f, v)| (f.as_str(), *v)),
            max.as_ref().map(|(f, v)| (f.as_str(), *v)),
            &unit,
        )?;
    }
    Ok(())
}

/// TTFT ≤ E2E for every statistic both have; only the maximum when the two cover different
/// numbers of requests (a subset's maximum is still at most the whole's, its mean need not be).
fn check_ttft_e2e(
    ttft: &MetricStats,
    e2e: &MetricStats,
    fields: &Fields,
) -> std::result::Result<(), Broken> {
    let same_requests = match (ttft.count, e2e.count) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    let mut pairs: Vec<(String, Option<f64>, Option<f64>)> =
        vec![("max".into(), ttft.max, e2e.max)];
    if same_requests {
        pairs.push(("mean".into(), ttft.mean, e2e.mean));
        pairs.push(("min".into(), ttft.min, e2e.min));
        for (p, v) in ttft.all_percentiles() {
            pairs.push((
                super::model::percentile_label(p),
                Some(v),
                e2e.percentile(p),
            ));
        }
    }
    for (stat, t, e) in pairs {
        if let (Some(t), Some(e)) = (t, e) {
            let t_field = fields.name(&stat_id(MetricKey::TtftMs, &stat));
            let e_field = fields.name(&stat_id(MetricKey::E2eMs, &stat));
            across::ttft_within_e2e((&t_field, t), (&e_field, e))?;
        }
    }
    Ok(())
}

/// Outcomes within the requests sent, a duration when anything completed, throughputs that are
/// count ÷ duration.
fn check_totals(
    point: &OperatingPoint,
    fields: &Fields,
    rules: PointRules,
) -> std::result::Result<(), Broken> {
    let name = |id: &str| fields.name(id);
    let (completed_f, failed_f, total_f) = (name("completed"), name("failed"), name("total"));
    if let (Some(done), Some(total)) = (point.completed, rules.total) {
        across::outcomes_within_total(
            (&completed_f, done),
            point.failed.map(|f| (failed_f.as_str(), f)),
            (&total_f, total),
        )?;
    }
    let Some(duration) = point.duration_s else {
        return Ok(());
    };
    let duration_f = name("duration_s");
    if let Some(done) = point.completed {
        across::duration_when_completed((&duration_f, duration), (&completed_f, done))?;
    }
    if !rules.rates_are_count_over_duration {
        return Ok(());
    }
    let tokens = |a: Option<u64>, b: Option<u64>| Some(a? as f64 + b? as f64);
    let output = point.output_tokens_total.map(|n| n as f64);
    let checks = [
        (
            "request_throughput",
            point.request_throughput,
            point.completed.map(|n| n as f64),
            "completed",
            " requests/s",
        ),
        (
            "output_tokens_per_s",
            point.output_tokens_per_s,
            output,
            "output_tokens_total",
            " tokens/s",
        ),
        (
            "total_tokens_per_s",
            point.total_tokens_per_s,
            tokens(point.input_tokens_total, point.output_tokens_total),
            "input_tokens_total + output_tokens_total",
            " tokens/s",
        ),
    ];
    for (id, rate, count, count_id, unit) in checks {
        if let (Some(rate), Some(count)) = (rate, count) {
            let count_f = if count_id.contains('+') {
                format!(
                    "({} + {})",
                    name("input_tokens_total"),
                    name("output_tokens_total")
                )
            } else {
                name(count_id)
            };
            across::rate_matches(
                (&name(id), rate),
                (&count_f, count),
                (&duration_f, duration),
                unit,
            )?;
        }
    }
    Ok(())
}

/// One request's latencies, in ms, each with the field it was read from: TTFT ≤ E2E, and TTFT
/// plus the chunk gaps ≤ E2E.
pub(crate) fn check_request(
    ttft: Option<(&str, f64)>,
    gaps: (&str, &[f64]),
    e2e: Option<(&str, f64)>,
    ctx: &Ctx,
) -> Result<()> {
    let (Some(ttft), Some(e2e)) = (ttft, e2e) else {
        return Ok(());
    };
    let error = |b: Broken| ctx.invalid(&b.field, b.message);
    across::ttft_within_e2e(ttft, e2e).map_err(error)?;
    across::chunks_within_e2e(ttft, gaps, e2e).map_err(error)
}
