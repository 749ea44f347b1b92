//! What an upload records, line by line, for the person about to store it.
//!
//! The upload page checks each file before anything is written (`POST
//! /api/v1/pilots/{id}/evidence/preview`) and lists what will be recorded: what the file was
//! read as, what it holds, and for a load test every run-context value with where it came from
//! (the file, typed, the pasted command, the pilot's notes) and what was not stated. The same
//! lines come back with the stored file, so what was shown is what was kept.

use crate::load_tests::service::RecordedRunContext;
use crate::model::CalibrationSettings;
use crate::traffic::{GatewayLogSummary, MetricsScrapeSummary};
use engine::ingest::Import;
use engine::quality::{EvalRun, EvalSet, LmEvalResults};
use engine::run_context::ContextSource;
use serde::{Deserialize, Serialize};

/// One line of what will be recorded: `Tensor parallel: 2 (from the pasted command)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordedLine {
    pub label: String,
    pub value: String,
    /// For run-context values: where the value came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<ContextSource>,
}

fn line(label: &str, value: impl Into<String>) -> RecordedLine {
    RecordedLine {
        label: label.into(),
        value: value.into(),
        source: None,
    }
}

fn or_unstated(value: &str) -> String {
    if value.trim().is_empty() {
        "not stated".into()
    } else {
        value.trim().to_string()
    }
}

/// `16, 128, 768`: the distinct levels in ascending order (at most eight, then `…`).
fn levels(values: impl Iterator<Item = f64>) -> String {
    let mut values: Vec<f64> = values.filter(|v| v.is_finite()).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let all: Vec<String> = values
        .into_iter()
        .map(|v| {
            if v.fract() == 0.0 {
                engine::format::thousands_rounded(v)
            } else {
                let text = engine::format::num(v, 2);
                text.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        })
        .collect();
    let mut shown = all.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
    if all.len() > 8 {
        shown.push_str(", …");
    }
    shown
}

/// A load test: tool, operating points, models, and the run context with its sources.
pub fn load_test(import: &Import, recorded: &RecordedRunContext) -> Vec<RecordedLine> {
    let tool = match &import.tool_version {
        Some(v) => format!("{} {v} ({})", import.tool, import.layout),
        None => format!("{} ({})", import.tool, import.layout),
    };
    let mut lines = vec![line("Read as", tool)];
    let points = &import.points;
    let concurrency: Vec<f64> = points.iter().filter_map(|p| p.concurrency).collect();
    let rates: Vec<f64> = points.iter().filter_map(|p| p.request_rate).collect();
    let mut held = format!("{}", points.len());
    if !concurrency.is_empty() {
        held.push_str(&format!(
            " · concurrency {}",
            levels(concurrency.into_iter())
        ));
    } else if !rates.is_empty() {
        held.push_str(&format!(" · {} req/s", levels(rates.into_iter())));
    }
    lines.push(line("Operating points", held));
    let mut models: Vec<&str> = points.iter().filter_map(|p| p.model.as_deref()).collect();
    models.sort_unstable();
    models.dedup();
    lines.push(line(
        "Model (as the tool reports it)",
        or_unstated(&models.join(", ")),
    ));
    if let Some(provenance) = &recorded.provenance {
        lines.extend(provenance.fields.iter().map(|f| RecordedLine {
            label: f.label.clone(),
            value: f.value.clone(),
            source: Some(f.source),
        }));
        let unstated = provenance.unstated();
        if !unstated.is_empty() {
            lines.push(line("Not stated", unstated.join(", ")));
        }
    }
    lines
}

pub fn gateway_log(log: &GatewayLogSummary) -> Vec<RecordedLine> {
    let mut lines = vec![
        line("Read as", format!("gateway log ({})", log.format)),
        line("Requests", engine::format::thousands(log.records)),
    ];
    if log.skipped.count > 0 {
        lines.push(line(
            "Malformed lines skipped",
            engine::format::thousands(log.skipped.count),
        ));
    }
    lines
}

pub fn metrics_scrape(scrape: &MetricsScrapeSummary) -> Vec<RecordedLine> {
    let at = scrape
        .scraped_at_ms
        .map(engine::clock::utc_minute)
        .unwrap_or_else(|| "not stated".into());
    vec![
        line("Read as", "vLLM /metrics scrape"),
        line("Scraped at", at),
    ]
}

pub fn eval_set(set: &EvalSet) -> Vec<RecordedLine> {
    vec![
        line("Read as", "evaluation set"),
        line("Items", set.items.len().to_string()),
    ]
}

pub fn eval_run(run: &EvalRun) -> Vec<RecordedLine> {
    vec![
        line("Read as", "evaluation run"),
        line("Answers", run.items.len().to_string()),
        line("Model", or_unstated(&run.model)),
        line("Weights precision", or_unstated(&run.weights_precision)),
        line("KV-cache precision", or_unstated(&run.kv_precision)),
        line(
            "Served by",
            or_unstated(&format!(
                "{} {} {}",
                run.engine, run.engine_version, run.gpu
            )),
        ),
    ]
}

pub fn lm_eval(results: &LmEvalResults) -> Vec<RecordedLine> {
    let mut tasks: Vec<&str> = results.metrics.iter().map(|m| m.task.as_str()).collect();
    tasks.dedup();
    vec![
        line("Read as", "lm-evaluation-harness results"),
        line(
            "Model",
            or_unstated(results.model_name.as_deref().unwrap_or("")),
        ),
        line("Tasks", or_unstated(&tasks.join(", "))),
    ]
}

pub fn startup_log(settings: &CalibrationSettings) -> Vec<RecordedLine> {
    vec![
        line("Read as", "vLLM start-up log"),
        line("Model", or_unstated(&settings.model_id)),
        line("GPU", or_unstated(&settings.gpu_id)),
        line("Tensor parallel", settings.tp.to_string()),
        line("Weights", or_unstated(&settings.weights)),
        line("Context", format!("{} tokens", settings.context_tokens)),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn levels_are_distinct_and_ascending() {
        let rates = [10.0, 30.0, 10.0, 30.0, 1.5];
        assert_eq!(super::levels(rates.into_iter()), "1.5, 10, 30");
    }
}
