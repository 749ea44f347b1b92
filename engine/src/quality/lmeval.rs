//! lm-evaluation-harness `results_<timestamp>.json`: task-level metrics.
//!
//! `results` maps each task to `"<metric>,<filter>": value` and `"<metric>_stderr,<filter>":
//! stderr` (plus `alias`, `name`, `sample_len`). One [`TaskMetric`] is made per metric and
//! filter; its stderr is paired by name. Decisions:
//! * A stderr of `"N/A"` (what the harness writes when it has none) is `None`.
//! * Tasks and metrics come out sorted by task, then metric, then filter, so output is stable.
//! * `n-samples.<task>.effective` (falling back to `sample_len`) gives the sample count, and
//!   `higher_is_better.<task>.<metric>` the direction, when present.
//! * Plausibility ([`crate::plausible`]): metrics that are fractions by definition (`acc`,
//!   `acc_norm`, `exact_match`, `pass@k`, `mc1`/`mc2`, IFEval's `*_acc`; see
//!   [`is_fraction_metric`]) must lie in 0–1, and every stderr must be finite and ≥ 0. Other
//!   metrics (BLEU 0–100, Matthews correlation −1…1) are only required to be numbers.
//! * Bounds by definition and across fields ([`crate::plausible::across`]): a perplexity
//!   (`perplexity`, `word_perplexity`, `byte_perplexity`) is at least 1 and `bits_per_byte` at
//!   least 0; the stderr of a 0–1 metric is at most 0.5/√(n − 1); sample counts are whole numbers
//!   from 1 to 2⁵³, the effective ones at most the original ones.

use super::error::{Ctx, QualityError, QualityErrorKind as K};
use crate::plausible::{self, Broken, Quantity, Rule, Slack, across};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One task metric of an lm-eval result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TaskMetric {
    pub task: String,
    /// `exact_match`, `acc`, `prompt_level_strict_acc`, …
    pub metric: String,
    /// `strict-match`, `flexible-extract`, `none`, …
    pub filter: String,
    pub value: f64,
    pub stderr: Option<f64>,
    pub samples: Option<u64>,
    pub higher_is_better: Option<bool>,
}

/// The parts of an lm-eval result Pilot Desk uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LmEvalResults {
    pub model_name: Option<String>,
    pub lm_eval_version: Option<String>,
    pub metrics: Vec<TaskMetric>,
}

/// Reads an lm-evaluation-harness results JSON.
pub fn parse_lm_eval_results(file: &str, text: &str) -> Result<LmEvalResults, QualityError> {
    let ctx = Ctx::new(file);
    if text.trim().is_empty() {
        return Err(ctx.err(K::Empty, None, "the file is empty"));
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        let cut = if e.is_eof() {
            "the file ends mid-document (cut off?): "
        } else {
            ""
        };
        ctx.at(e.line() as u64).err(
            K::Syntax,
            None,
            format!("{cut}invalid JSON at column {}: {e}", e.column()),
        )
    })?;
    let Some(results) = doc.get("results").and_then(Value::as_object) else {
        return Err(ctx.err(
            K::MissingField,
            Some("results"),
            "not an lm-evaluation-harness result: no \"results\" object",
        ));
    };
    let text_of = |key: &str| doc.get(key).and_then(Value::as_str).map(str::to_string);
    let mut metrics = Vec::new();
    for (task, fields) in results {
        let Some(fields) = fields.as_object() else {
            return Err(ctx.err(
                K::WrongType,
                Some(&format!("results.{task}")),
                "expected an object of metrics",
            ));
        };
        let samples = samples_of(&ctx, &doc, task, fields)?;
        for (key, value) in fields {
            let Some((metric, filter)) = key.split_once(',') else {
                continue;
            };
            if metric.ends_with("_stderr") {
                continue;
            }
            let field = format!("results.{task}.{key}");
            let Some(value) = value.as_f64() else {
                return Err(ctx.err(
                    K::WrongType,
                    Some(&field),
                    format!("expected a number, found {value}"),
                ));
            };
            if is_fraction_metric(metric) {
                plausible::check(Quantity::Fraction, value)
                    .map_err(|e| ctx.err(K::InvalidValue, Some(&field), e.message))?;
            }
            check_by_definition(metric, &field, value)
                .map_err(|b| ctx.err(K::InvalidValue, Some(&b.field), b.message))?;
            let stderr_key = format!("{metric}_stderr,{filter}");
            let stderr = match fields.get(&stderr_key) {
                None | Some(Value::Null) => None,
                Some(Value::Number(n)) => n.as_f64(),
                Some(Value::String(s)) if s.trim().eq_ignore_ascii_case("n/a") => None,
                Some(other) => {
                    return Err(ctx.err(
                        K::WrongType,
                        Some(&format!("results.{task}.{stderr_key}")),
                        format!("expected a number or \"N/A\", found {other}"),
                    ));
                }
            };
            if let Some(se) = stderr {
                let se_field = format!("results.{task}.{stderr_key}");
                plausible::check(Quantity::StdError, se)
                    .map_err(|e| ctx.err(K::InvalidValue, Some(&se_field), e.message))?;
                if is_fraction_metric(metric) {
                    fraction_stderr(&se_field, se, samples)
                        .map_err(|b| ctx.err(K::InvalidValue, Some(&b.field), b.message))?;
                }
            }
            let higher_is_better = doc
                .pointer(&format!(
                    "/higher_is_better/{}/{}",
                    escape(task),
                    escape(metric)
                ))
                .and_then(Value::as_bool);
            metrics.push(TaskMetric {
                task: task.clone(),
                metric: metric.to_string(),
                filter: filter.to_string(),
                value,
                stderr,
                samples,
                higher_is_better,
            });
        }
    }
    metrics.sort_by(|x, y| (&x.task, &x.metric, &x.filter).cmp(&(&y.task, &y.metric, &y.filter)));
    Ok(LmEvalResults {
        model_name: text_of("model_name"),
        lm_eval_version: text_of("lm_eval_version"),
        metrics,
    })
}

/// True for lm-eval metrics that are a fraction of the samples by definition, so must lie in
/// 0–1: accuracies (`acc`, `acc_norm`, `acc_mutual_info`, IFEval's `prompt_level_strict_acc`
/// and the like), `exact_match`, `pass@k`, TruthfulQA's `mc1`/`mc2`. Not `f1` or `exact`
/// (SQuAD reports those in per cent), nor `mcc`, `bleu`, perplexities.
pub fn is_fraction_metric(metric: &str) -> bool {
    metric == "acc"
        || metric.starts_with("acc_")
        || metric.ends_with("_acc")
        || metric == "accuracy"
        || metric.starts_with("exact_match")
        || metric.starts_with("pass@")
        || metric == "mc1"
        || metric == "mc2"
}

/// A metric bounded by its definition ([`crate::plausible::Rule::Perplexity`],
/// [`crate::plausible::Rule::BitsPerByte`]): `perplexity`, `word_perplexity` and
/// `byte_perplexity` are exp(mean negative log-likelihood) ≥ 1, `bits_per_byte` ≥ 0.
fn check_by_definition(metric: &str, field: &str, value: f64) -> Result<(), Broken> {
    if metric == "perplexity" || metric.ends_with("_perplexity") {
        across::at_least(Rule::Perplexity, field, "perplexity", value, 1.0)?;
    } else if metric == "bits_per_byte" {
        across::at_least(Rule::BitsPerByte, field, "bits per byte", value, 0.0)?;
    }
    Ok(())
}

/// The standard error of a 0–1 metric over `n` samples: lm-eval's `mean_stderr` is the sample
/// standard deviation ÷ √n, and values in 0–1 have a sample variance of at most n/(4(n − 1)), so
/// it is at most 0.5/√(n − 1) (0.5 without a sample count) ([`Rule::FractionStderr`]).
fn fraction_stderr(field: &str, se: f64, samples: Option<u64>) -> Result<(), Broken> {
    let bound = match samples {
        Some(n) if n >= 2 => 0.5 / ((n - 1) as f64).sqrt(),
        _ => 0.5,
    };
    if se - bound <= Slack::MEASURED.relative * bound {
        return Ok(());
    }
    let over = samples.map_or_else(String::new, |n| format!(" over {n} samples"));
    let what = format!(
        "{} is above {}, the largest standard error of a 0–1 metric{over}",
        plausible::fmt_value(se),
        plausible::fmt_value(bound)
    );
    Err(Broken::new(Rule::FractionStderr, field, what))
}

/// The samples a task's metrics cover: `n-samples.<task>.effective`, else `sample_len`. Each
/// given count must be a whole number from 1 to 2⁵³ (a metric over no samples is no
/// measurement), and the effective samples at most the original ones.
fn samples_of(
    ctx: &Ctx,
    doc: &Value,
    task: &str,
    fields: &serde_json::Map<String, Value>,
) -> Result<Option<u64>, QualityError> {
    let count = |field: String, value: Option<&Value>| -> Result<Option<u64>, QualityError> {
        let Some(value) = value.filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let n = value.as_f64().ok_or_else(|| {
            ctx.err(
                K::WrongType,
                Some(&field),
                format!("expected a number, found {value}"),
            )
        })?;
        let n = across::at_least_one(&field, "number of samples", n)
            .map_err(|b| ctx.err(K::InvalidValue, Some(&b.field), b.message))?;
        Ok(Some(n))
    };
    let pointer = |key: &str| format!("/n-samples/{}/{key}", escape(task));
    let effective = count(
        format!("n-samples.{task}.effective"),
        doc.pointer(&pointer("effective")),
    )?;
    let original = count(
        format!("n-samples.{task}.original"),
        doc.pointer(&pointer("original")),
    )?;
    if let (Some(e), Some(o)) = (effective, original) {
        let (e_field, o_field) = (
            format!("n-samples.{task}.effective"),
            format!("n-samples.{task}.original"),
        );
        let pair = [(e_field.as_str(), e as f64), (o_field.as_str(), o as f64)];
        across::non_decreasing(Rule::SamplesWithinOriginal, &pair, "", Slack::EXACT)
            .map_err(|b| ctx.err(K::InvalidValue, Some(&b.field), b.message))?;
    }
    let sample_len = count(
        format!("results.{task}.sample_len"),
        fields.get("sample_len"),
    )?;
    Ok(effective.or(sample_len))
}

/// JSON pointer escaping of one path segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
