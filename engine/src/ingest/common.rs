//! Pieces every importer shares: the metric definitions per tool, scenario texts, and the
//! step that fills statistics from per-request records when a file's summary lacks them.

use super::ImportOptions;
use super::json::fmt_num;
use super::model::{MetricKey, MetricStats, OperatingPoint, RequestRecord};
use super::stats::Series;

/// A tool's metric: its own name, the normalised key and the exact definition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Def {
    pub key: MetricKey,
    pub source: &'static str,
    pub text: &'static str,
}

pub(crate) fn def_for(defs: &[Def], key: MetricKey) -> Option<&Def> {
    defs.iter().find(|d| d.key == key)
}

pub(crate) const VLLM_DEFS: &[Def] = &[
    Def {
        key: MetricKey::TtftMs,
        source: "ttft",
        text: "Client-side time from sending the request to the first streamed chunk carrying output, successful requests (vllm bench serve `ttft`).",
    },
    Def {
        key: MetricKey::TpotMs,
        source: "tpot",
        text: "Per request (E2E − TTFT) ÷ (output tokens − 1), over successful requests with more than one output token (vllm bench serve `tpot`; the same quantity as AIPerf/GenAI-Perf `inter_token_latency`).",
    },
    Def {
        key: MetricKey::ItlMs,
        source: "itl",
        text: "Every gap between consecutive streamed chunks, pooled over all successful requests so long answers weigh more; a chunk may carry several tokens (vllm bench serve `itl`; the same as AIPerf `inter_chunk_latency`).",
    },
    Def {
        key: MetricKey::E2eMs,
        source: "e2el",
        text: "Client-side time from sending the request to the last streamed chunk, successful requests (vllm bench serve `e2el`, `latency` in 2024 files).",
    },
    Def {
        key: MetricKey::ClientQueueMs,
        source: "client_queue_time",
        text: "Time a request waited on the client for a --max-concurrency slot before it was sent (vllm bench serve `client_queue_time`).",
    },
    Def {
        key: MetricKey::E2eInclClientQueueMs,
        source: "e2el_including_client_queue",
        text: "E2E plus the client-side wait for a concurrency slot (vllm bench serve `e2el_including_client_queue`).",
    },
    Def {
        key: MetricKey::InputTokens,
        source: "input_lens",
        text: "Prompt tokens per request (vllm bench serve `input_lens`; the server's usage count when it streams usage).",
    },
    Def {
        key: MetricKey::OutputTokens,
        source: "output_lens",
        text: "Output tokens per successful request (vllm bench serve `output_lens`).",
    },
];

/// AIPerf and GenAI-Perf share metric tags and definitions (AIPerf was built to mimic
/// GenAI-Perf's export); the tool name in the text is filled per importer.
pub(crate) const AIPERF_DEFS: &[Def] = &[
    Def {
        key: MetricKey::TtftMs,
        source: "time_to_first_token",
        text: "Client-side time from sending the request to the first response chunk (AIPerf `time_to_first_token`, `ttft` in early files).",
    },
    Def {
        key: MetricKey::TtstMs,
        source: "time_to_second_token",
        text: "Time from the first to the second response chunk (AIPerf `time_to_second_token`, `ttst` in early files).",
    },
    Def {
        key: MetricKey::TpotMs,
        source: "inter_token_latency",
        text: "Per request (request_latency − TTFT) ÷ (output sequence length − 1), requests with at least two output tokens (AIPerf `inter_token_latency`; the same quantity as vLLM bench `tpot`).",
    },
    Def {
        key: MetricKey::ItlMs,
        source: "inter_chunk_latency",
        text: "Every gap between consecutive response chunks, pooled over all requests (AIPerf `inter_chunk_latency`; the same as vLLM bench `itl`).",
    },
    Def {
        key: MetricKey::E2eMs,
        source: "request_latency",
        text: "Client-side time from sending the request to the last response chunk (AIPerf `request_latency`).",
    },
    Def {
        key: MetricKey::OutputTokensPerSPerUser,
        source: "output_token_throughput_per_user",
        text: "Per request 1 ÷ inter_token_latency (in seconds): the decode speed one user sees (AIPerf `output_token_throughput_per_user`).",
    },
    Def {
        key: MetricKey::InputTokens,
        source: "input_sequence_length",
        text: "Prompt tokens per request, client tokenizer unless the server's count was used (AIPerf `input_sequence_length`).",
    },
    Def {
        key: MetricKey::OutputTokens,
        source: "output_sequence_length",
        text: "Output tokens per request including reasoning tokens (AIPerf `output_sequence_length`).",
    },
];

pub(crate) const GENAI_PERF_DEFS: &[Def] = &[
    Def {
        key: MetricKey::TtftMs,
        source: "time_to_first_token",
        text: "Client-side time from sending the request to the first response (GenAI-Perf `time_to_first_token`).",
    },
    Def {
        key: MetricKey::TtstMs,
        source: "time_to_second_token",
        text: "Time from the first to the second response (GenAI-Perf `time_to_second_token`).",
    },
    Def {
        key: MetricKey::TpotMs,
        source: "inter_token_latency",
        text: "Per request (request_latency − TTFT) ÷ (output sequence length − 1) (GenAI-Perf `inter_token_latency`; the same quantity as vLLM bench `tpot`).",
    },
    Def {
        key: MetricKey::E2eMs,
        source: "request_latency",
        text: "Client-side time from sending the request to the last response (GenAI-Perf `request_latency`).",
    },
    Def {
        key: MetricKey::OutputTokensPerSPerUser,
        source: "output_token_throughput_per_user",
        text: "Per request 1 ÷ inter_token_latency (in seconds): the decode speed one user sees (GenAI-Perf `output_token_throughput_per_user`).",
    },
    Def {
        key: MetricKey::InputTokens,
        source: "input_sequence_length",
        text: "Prompt tokens per request (GenAI-Perf `input_sequence_length`).",
    },
    Def {
        key: MetricKey::OutputTokens,
        source: "output_sequence_length",
        text: "Output tokens per request (GenAI-Perf `output_sequence_length`).",
    },
];

/// Builds the scenario text from what the file states: `input 512 / output 128 tokens`,
/// optionally prefixed by the dataset. `None` when nothing is stated.
pub(crate) fn stated_scenario(
    input: Option<f64>,
    output: Option<f64>,
    dataset: Option<&str>,
) -> Option<String> {
    let lengths = match (input, output) {
        (Some(i), Some(o)) => Some(format!(
            "input {} / output {} tokens",
            fmt_num(i),
            fmt_num(o)
        )),
        (Some(i), None) => Some(format!("input {} tokens", fmt_num(i))),
        (None, Some(o)) => Some(format!("output {} tokens", fmt_num(o))),
        (None, None) => None,
    };
    match (dataset.filter(|d| !d.trim().is_empty()), lengths) {
        (Some(d), Some(l)) => Some(format!("dataset {d}, {l}")),
        (Some(d), None) => Some(format!("dataset {d}")),
        (None, l) => l,
    }
}

/// Fills the derived fields every importer wants: mean token counts from totals, and a
/// scenario text from observed means when the file stated none.
pub(crate) fn finish_point(point: &mut OperatingPoint) {
    if let Some(done) = point.completed.filter(|&c| c > 0) {
        if point.input_tokens_mean.is_none() {
            point.input_tokens_mean = point.input_tokens_total.map(|t| t as f64 / done as f64);
        }
        if point.output_tokens_mean.is_none() {
            point.output_tokens_mean = point.output_tokens_total.map(|t| t as f64 / done as f64);
        }
    }
    if point.input_tokens_mean.is_none() {
        point.input_tokens_mean = point
            .metrics
            .get(&MetricKey::InputTokens)
            .and_then(|m| m.mean);
    }
    if point.output_tokens_mean.is_none() {
        point.output_tokens_mean = point
            .metrics
            .get(&MetricKey::OutputTokens)
            .and_then(|m| m.mean);
    }
    if point.scenario.is_empty() {
        point.scenario = match (point.input_tokens_mean, point.output_tokens_mean) {
            (Some(i), Some(o)) => format!(
                "observed mean input {} / output {} tokens",
                fmt_num(i.round()),
                fmt_num(o.round())
            ),
            _ => "unspecified".to_string(),
        };
    }
}

/// For every metric the point lacks, computes statistics from the successful records of the
/// point (exact percentiles, see [`super::stats`]), using the tool's definitions.
pub(crate) fn fill_from_records(
    point: &mut OperatingPoint,
    records: &[RequestRecord],
    defs: &[Def],
    opts: &ImportOptions,
) {
    let wanted = [
        MetricKey::TtftMs,
        MetricKey::TpotMs,
        MetricKey::ItlMs,
        MetricKey::E2eMs,
        MetricKey::InputTokens,
        MetricKey::OutputTokens,
    ];
    for key in wanted {
        if point.metrics.contains_key(&key) {
            continue;
        }
        let Some(def) = def_for(defs, key) else {
            continue;
        };
        let exact = key != MetricKey::ItlMs || opts.exact_itl_percentiles;
        let mut series = Series::new(exact);
        for r in records.iter().filter(|r| !r.is_error()) {
            match key {
                MetricKey::TtftMs => r.ttft_ms.into_iter().for_each(|v| series.push(v)),
                MetricKey::TpotMs => r.tpot_ms.into_iter().for_each(|v| series.push(v)),
                MetricKey::E2eMs => r.e2e_ms.into_iter().for_each(|v| series.push(v)),
                MetricKey::ItlMs => r.itl_ms.iter().for_each(|&v| series.push(v)),
                MetricKey::InputTokens => r
                    .input_tokens
                    .into_iter()
                    .for_each(|v| series.push(v as f64)),
                MetricKey::OutputTokens => r
                    .output_tokens
                    .into_iter()
                    .for_each(|v| series.push(v as f64)),
                _ => {}
            }
        }
        if let Some(stats) = series.into_stats(key, def.text, def.source) {
            point.metrics.insert(key, stats);
        }
    }
}

/// The metrics that only mean what their names say when the answer was streamed: without
/// streaming the first response is the whole answer, so "time to first token" is the request
/// latency, and the gaps after it (TTST, TPOT, ITL) are zero or undefined.
const STREAMING_ONLY: [MetricKey; 4] = [
    MetricKey::TtftMs,
    MetricKey::TtstMs,
    MetricKey::TpotMs,
    MetricKey::ItlMs,
];

/// True when a setting value says streaming was off (`false`, `False`, `0`, `no`).
pub(crate) fn says_not_streaming(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "false" | "0" | "no" | "off"
    )
}

/// Flags a non-streaming run (the file's config says `streaming: false`): sets the setting
/// `streaming` = `false` and moves the streaming-only statistics out of `metrics` into
/// `settings` (`non_streaming.<tool name>` = the tool's figures), so no TTFT or TPOT mark is
/// ever graded with them, and says so in a note. The whole request stays E2E.
pub(crate) fn flag_non_streaming(point: &mut OperatingPoint, warnings: &mut Vec<String>) {
    point
        .settings
        .insert("streaming".to_string(), "false".to_string());
    let mut moved = Vec::new();
    for key in STREAMING_ONLY {
        if let Some(stats) = point.metrics.remove(&key) {
            point.settings.insert(
                format!("non_streaming.{}", stats.source),
                stats_text(&stats),
            );
            moved.push(format!("`{}`", stats.source));
        }
    }
    warnings.push(super::words::non_streaming(&point.source, &moved));
}

/// `avg 1500 ms, p50 1490 ms, p99 1900 ms`: the statistics as the file gives them (every digit).
fn stats_text(stats: &MetricStats) -> String {
    let unit = &stats.unit;
    let mut parts = Vec::new();
    if let Some(v) = stats.mean {
        parts.push(format!("avg {v} {unit}"));
    }
    for (p, v) in stats.all_percentiles() {
        parts.push(format!(
            "{} {} {unit}",
            super::model::percentile_label(p),
            v
        ));
    }
    for (label, v) in [("min", stats.min), ("max", stats.max), ("std", stats.std)] {
        if let Some(v) = v {
            parts.push(format!("{label} {} {unit}", v));
        }
    }
    parts.join(", ")
}
