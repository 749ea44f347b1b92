//! What an upload records, line by line, for the person about to store it.
//!
//! The upload page checks each file before anything is written (`POST
//! /api/v1/pilots/{id}/evidence/preview`) and lists what will be recorded: what the file was
//! read as, what it holds, and for a load test every run-context value with where it came from
//! (the file, typed, the pasted command, the pilot's notes) and what was not stated. The same
//! lines come back with the stored file, so what was shown is what was kept. They are worded in
//! the language of the person uploading (they are shown, never stored).

use crate::load_tests::service::RecordedRunContext;
use crate::model::CalibrationSettings;
use crate::traffic::{GatewayLogSummary, MetricsScrapeSummary};
use engine::ingest::Import;
use engine::locale::Lang;
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

fn or_unstated(value: &str, lang: Lang) -> String {
    if value.trim().is_empty() {
        lang.pick("not stated", "nicht angegeben").into()
    } else {
        value.trim().to_string()
    }
}

/// `16, 128, 768`: the distinct levels in ascending order (at most eight, then `…`).
fn levels(values: impl Iterator<Item = f64>, lang: Lang) -> String {
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
    match lang {
        Lang::En => shown,
        // `1,536` → `1.536`, `0.5` → `0,5`; the list's own commas stay (", " is not a digit's).
        Lang::De => shown
            .split(", ")
            .map(|level| lang.separators(level))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// A load test: tool, operating points, models, and the run context with its sources.
pub fn load_test(import: &Import, recorded: &RecordedRunContext, lang: Lang) -> Vec<RecordedLine> {
    let layout = engine::ingest::layout_in(&import.layout, lang);
    let tool = match &import.tool_version {
        Some(v) => format!("{} {v} ({layout})", import.tool),
        None => format!("{} ({layout})", import.tool),
    };
    let mut lines = vec![line(read_as(lang), tool)];
    let points = &import.points;
    let concurrency: Vec<f64> = points.iter().filter_map(|p| p.concurrency).collect();
    let rates: Vec<f64> = points.iter().filter_map(|p| p.request_rate).collect();
    let mut held = format!("{}", points.len());
    if !concurrency.is_empty() {
        held.push_str(&format!(
            " · {} {}",
            lang.pick("concurrency", "Parallelität"),
            levels(concurrency.into_iter(), lang)
        ));
    } else if !rates.is_empty() {
        held.push_str(&format!(" · {} req/s", levels(rates.into_iter(), lang)));
    }
    lines.push(line(lang.pick("Operating points", "Betriebspunkte"), held));
    let mut models: Vec<&str> = points.iter().filter_map(|p| p.model.as_deref()).collect();
    models.sort_unstable();
    models.dedup();
    lines.push(line(
        lang.pick(
            "Model (as the tool reports it)",
            "Modell (wie das Werkzeug es meldet)",
        ),
        or_unstated(&models.join(", "), lang),
    ));
    if let Some(provenance) = &recorded.provenance {
        lines.extend(provenance.fields.iter().map(|f| RecordedLine {
            label: match lang {
                Lang::En => f.label.clone(),
                _ => engine::run_context::provenance::field_label_in(&f.field, lang).to_string(),
            },
            value: f.value.clone(),
            source: Some(f.source),
        }));
        let unstated = provenance.unstated_in(lang);
        if !unstated.is_empty() {
            lines.push(line(
                lang.pick("Not stated", "Nicht angegeben"),
                unstated.join(", "),
            ));
        }
    }
    lines
}

fn read_as(lang: Lang) -> &'static str {
    lang.pick("Read as", "Gelesen als")
}

pub fn gateway_log(log: &GatewayLogSummary, lang: Lang) -> Vec<RecordedLine> {
    let format = engine::traffic::reader::GatewayFormat::stored_label_in(&log.format, lang);
    let count = |n: u64| lang.separators(&engine::format::thousands(n));
    let mut lines = vec![
        line(
            read_as(lang),
            format!("{} ({format})", lang.pick("gateway log", "Gateway-Log")),
        ),
        line(lang.pick("Requests", "Anfragen"), count(log.records)),
    ];
    if log.skipped.count > 0 {
        lines.push(line(
            lang.pick("Malformed lines skipped", "Fehlerhafte Zeilen übersprungen"),
            count(log.skipped.count),
        ));
    }
    lines
}

pub fn metrics_scrape(scrape: &MetricsScrapeSummary, lang: Lang) -> Vec<RecordedLine> {
    let at = match (scrape.scraped_at_ms, lang) {
        (Some(ms), Lang::En) => engine::clock::utc_minute(ms),
        (Some(ms), _) => lang.date_time(ms),
        (None, _) => or_unstated("", lang),
    };
    vec![
        line(
            read_as(lang),
            lang.pick("vLLM /metrics scrape", "vLLM-/metrics-Scrape"),
        ),
        line(lang.pick("Scraped at", "Abgerufen am"), at),
    ]
}

pub fn eval_set(set: &EvalSet, lang: Lang) -> Vec<RecordedLine> {
    vec![
        line(
            read_as(lang),
            lang.pick("evaluation set", "Evaluationsdatensatz"),
        ),
        line(lang.pick("Items", "Fragen"), set.items.len().to_string()),
    ]
}

pub fn eval_run(run: &EvalRun, lang: Lang) -> Vec<RecordedLine> {
    vec![
        line(
            read_as(lang),
            lang.pick("evaluation run", "Evaluationslauf"),
        ),
        line(
            lang.pick("Answers", "Antworten"),
            run.items.len().to_string(),
        ),
        line(lang.pick("Model", "Modell"), or_unstated(&run.model, lang)),
        line(
            lang.pick("Weights precision", "Präzision der Gewichte"),
            or_unstated(&run.weights_precision, lang),
        ),
        line(
            lang.pick("KV-cache precision", "Präzision des KV-Cache"),
            or_unstated(&run.kv_precision, lang),
        ),
        line(
            lang.pick("Served by", "Bedient von"),
            or_unstated(
                &format!("{} {} {}", run.engine, run.engine_version, run.gpu),
                lang,
            ),
        ),
    ]
}

pub fn lm_eval(results: &LmEvalResults, lang: Lang) -> Vec<RecordedLine> {
    let mut tasks: Vec<&str> = results.metrics.iter().map(|m| m.task.as_str()).collect();
    tasks.dedup();
    vec![
        line(
            read_as(lang),
            lang.pick(
                "lm-evaluation-harness results",
                "Ergebnisse von lm-evaluation-harness",
            ),
        ),
        line(
            lang.pick("Model", "Modell"),
            or_unstated(results.model_name.as_deref().unwrap_or(""), lang),
        ),
        line(
            lang.pick("Tasks", "Aufgaben"),
            or_unstated(&tasks.join(", "), lang),
        ),
    ]
}

pub fn startup_log(settings: &CalibrationSettings, lang: Lang) -> Vec<RecordedLine> {
    vec![
        line(
            read_as(lang),
            lang.pick("vLLM start-up log", "vLLM-Start-Log"),
        ),
        line(
            lang.pick("Model", "Modell"),
            or_unstated(&settings.model_id, lang),
        ),
        line("GPU", or_unstated(&settings.gpu_id, lang)),
        line(
            lang.pick("Tensor parallel", "Tensorparallelität"),
            settings.tp.to_string(),
        ),
        line(
            lang.pick("Weights", "Gewichte"),
            or_unstated(&settings.weights, lang),
        ),
        line(
            lang.pick("Context", "Kontext"),
            match lang {
                Lang::En => format!("{} tokens", settings.context_tokens),
                _ => format!("{} Token", settings.context_tokens),
            },
        ),
    ]
}

#[cfg(test)]
mod tests {
    use engine::locale::Lang;

    #[test]
    fn levels_are_distinct_and_ascending() {
        let rates = [10.0, 30.0, 10.0, 30.0, 1.5];
        assert_eq!(super::levels(rates.into_iter(), Lang::En), "1.5, 10, 30");
        // German: decimal commas, so the list is separated by semicolons.
        let many = [1536.0, 0.5, 2.0];
        assert_eq!(super::levels(many.into_iter(), Lang::De), "0,5; 2; 1.536");
    }
}
