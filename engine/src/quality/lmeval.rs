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
//!   metrics (perplexity, BLEU 0–100, Matthews correlation −1…1) are only required to be numbers.

use super::error::{Ctx, QualityError, QualityErrorKind as K};
use crate::plausible::{self, Quantity};
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
        let samples = doc
            .pointer(&format!("/n-samples/{}/effective", escape(task)))
            .and_then(Value::as_u64)
            .or_else(|| fields.get("sample_len").and_then(Value::as_u64));
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
                plausible::check(Quantity::StdError, se).map_err(|e| {
                    ctx.err(
                        K::InvalidValue,
                        Some(&format!("results.{task}.{stderr_key}")),
                        e.message,
                    )
                })?;
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

/// JSON pointer escaping of one path segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
