//! The pilot's gateway traffic as a Mooncake trace, and the commands that replay it.
//!
//! A load test with synthetic prompts answers "what does the engine do at these lengths"; the
//! pilot's own traffic, replayed at the times it arrived, answers "what would these users have
//! seen on that stack". AIPerf replays a Mooncake trace (JSON Lines of
//! `{"timestamp", "input_length", "output_length"}`, [`super::mooncake_trace`]) at its own
//! timestamps with `--fixed-schedule`. `vllm bench serve` reads no such trace, so it gets the
//! trace's median lengths in a concurrency sweep from 1 through the peak to twice it: the curve the capacity twin is
//! fitted on, and a load level the trace itself never reached is then measured too.
//!
//! Only successful requests with token counts go into the trace: a failed request says nothing
//! about lengths (the same rule as [`super::replay_from_gateway`]). Timestamps are whole
//! milliseconds from the first such request, as logged (no time compression).

use super::arrivals::TimedRequest;
use crate::traffic::{GatewayRecord, RequestStatus};

/// One request of the trace, from a gateway record: `(start ms, prompt tokens, answer
/// tokens)`; `None` for a failed request or one without a prompt token count.
pub fn trace_entry(record: &GatewayRecord) -> Option<(i64, u32, u32)> {
    (record.status == RequestStatus::Ok && record.prompt_tokens > 0).then_some((
        record.start_ms,
        record.prompt_tokens,
        record.completion_tokens.max(1),
    ))
}

/// The entries in arrival order, timed from the first (ms).
pub fn as_logged(mut entries: Vec<(i64, u32, u32)>) -> Vec<TimedRequest> {
    entries.sort_by_key(|e| e.0);
    let t0 = entries.first().map_or(0, |e| e.0);
    entries
        .into_iter()
        .map(|(start, prompt, output)| TimedRequest {
            at_ms: (start - t0) as f64,
            prompt_tokens: prompt,
            output_tokens: output,
        })
        .collect()
}

/// Concurrency levels from 1, doubling, through `peak` (the most requests the traffic had, or
/// is predicted to have, in flight; at least 1, at most 1,024) to twice it: the curve below the
/// peak, the peak itself, and the load beyond it where the knee shows.
pub fn sweep_levels(peak: u64) -> Vec<u32> {
    let peak = peak.clamp(1, 1024) as u32;
    let mut levels = Vec::new();
    let mut c = 1;
    while c < peak {
        levels.push(c);
        c *= 2;
    }
    levels.extend([peak, 2 * peak]);
    levels.dedup();
    levels
}

/// What the commands need: the served model, the server, the trace's file name and the
/// traffic's median lengths and peak in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplaySettings {
    pub model: String,
    /// Base URL without `/v1`.
    pub base_url: String,
    pub trace_file: String,
    pub prompt_tokens_p50: u32,
    pub output_tokens_p50: u32,
    pub peak_in_flight: u64,
}

/// `(label, command)`: the AIPerf replay of the trace at its timestamps, then the
/// `vllm bench serve` concurrency sweep from 1 at the trace's median lengths (at least 200
/// requests per level, 10 per concurrency slot).
pub fn replay_commands(s: &ReplaySettings) -> Vec<(String, String)> {
    replay_commands_in(s, crate::locale::Lang::En)
}

/// [`replay_commands`] with each label in `lang` (the commands are the tools' own).
pub fn replay_commands_in(s: &ReplaySettings, lang: crate::locale::Lang) -> Vec<(String, String)> {
    use crate::locale::Lang;
    let quote = |v: &str| {
        if v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@".contains(c))
        {
            v.to_string()
        } else {
            format!("'{}'", v.replace('\'', r"'\''"))
        }
    };
    let (model, url, file) = (quote(&s.model), quote(&s.base_url), quote(&s.trace_file));
    let aiperf = format!(
        "aiperf profile --model {model} --url {url} --endpoint-type chat --streaming \
         --input-file {file} --custom-dataset-type mooncake_trace --fixed-schedule \
         --output-artifact-dir artifacts/trace-replay"
    );
    let levels = sweep_levels(s.peak_in_flight)
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let vllm = format!(
        "for c in {levels}; do vllm bench serve --backend openai-chat --endpoint /v1/chat/completions \
         --base-url {url} --model {model} --dataset-name random --random-input-len {} \
         --random-output-len {} --ignore-eos --max-concurrency $c \
         --num-prompts $(( c * 10 > 200 ? c * 10 : 200 )) --percentile-metrics ttft,tpot,itl,e2el \
         --metric-percentiles 50,90,95,99 --save-result --result-filename trace-c$c.json; done",
        s.prompt_tokens_p50.max(1),
        s.output_tokens_p50.max(1)
    );
    let (prompt, answer) = (s.prompt_tokens_p50.max(1), s.output_tokens_p50.max(1));
    let (replay_label, sweep_label) = match lang {
        Lang::En => (
            "aiperf profile — the trace (production's busiest hour) replayed at its own timestamps"
                .to_string(),
            format!(
                "vllm bench serve — concurrency {levels} at the trace's median lengths ({prompt} prompt, {answer} answer tokens)"
            ),
        ),
        Lang::De => (
            "aiperf profile — der Trace (die Spitzenstunde der Produktion), zu seinen eigenen Zeitstempeln abgespielt"
                .to_string(),
            format!(
                "vllm bench serve — Parallelität {levels} bei den Medianlängen des Trace ({} Prompt-, {} Antwort-Token)",
                lang.number(f64::from(prompt), 0),
                lang.number(f64::from(answer), 0)
            ),
        ),
    };
    vec![(replay_label, aiperf), (sweep_label, vllm)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_doubles_from_one_through_the_peak_to_twice_it() {
        assert_eq!(sweep_levels(0), vec![1, 2]);
        assert_eq!(sweep_levels(1), vec![1, 2]);
        assert_eq!(sweep_levels(8), vec![1, 2, 4, 8, 16]);
        assert_eq!(sweep_levels(12), vec![1, 2, 4, 8, 12, 24]);
    }

    #[test]
    fn requests_are_timed_from_the_first_in_arrival_order() {
        let trace = as_logged(vec![(5_000, 200, 100), (1_000, 100, 50)]);
        let lines: Vec<String> = super::super::mooncake_trace(&trace).collect();
        assert_eq!(
            lines,
            [
                r#"{"timestamp": 0, "input_length": 100, "output_length": 50}"#,
                r#"{"timestamp": 4000, "input_length": 200, "output_length": 100}"#,
            ]
        );
    }

    #[test]
    fn the_commands_replay_the_file_and_sweep_from_one() {
        let commands = replay_commands(&ReplaySettings {
            model: "qwen2.5-7b-instruct".into(),
            base_url: "http://localhost:8000".into(),
            trace_file: "pilot-3-trace.jsonl".into(),
            prompt_tokens_p50: 814,
            output_tokens_p50: 64,
            peak_in_flight: 8,
        });
        assert!(commands[0].1.contains(
            "--input-file pilot-3-trace.jsonl --custom-dataset-type mooncake_trace --fixed-schedule"
        ));
        assert!(
            commands[1]
                .1
                .starts_with("for c in 1 2 4 8 16; do vllm bench serve")
        );
        assert!(commands[1].1.contains(
            "--random-input-len 814 --random-output-len 64 --ignore-eos --max-concurrency $c"
        ));
    }
}
