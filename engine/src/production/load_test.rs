//! The next step: the load test to run on the chosen configuration before buying.
//!
//! Ceilings are upper bounds no system reaches, so the recommendation ends with a concurrency
//! sweep on the candidate: ½×, 1×, 1.5× and 2× the sessions one copy must hold, each point graded
//! against the plan's targets as goodput. The configuration's capacity is the highest
//! concurrency at which every target holds; it must reach the computed peak.
//!
//! Both tools get the same workload: random prompts of the pilot's median prompt length and
//! answers forced to its median answer length (`ignore_eos`), streamed over the OpenAI chat API.
//! Flags, checked against `docs/formats.md`, the fixtures' recorded command lines and the tools'
//! documentation:
//!
//! * `vllm bench serve`: `--backend openai-chat` needs `--endpoint /v1/chat/completions` (the
//!   default endpoint is `/v1/completions`); `--dataset-name random --random-input-len
//!   --random-output-len --ignore-eos`; `--max-concurrency`; `--num-prompts`;
//!   `--percentile-metrics ttft,tpot,itl,e2el` (E2E statistics are absent unless selected);
//!   `--metric-percentiles` (50, 95, 99 and the plan's own); `--goodput ttft:<ms> tpot:<ms>` as
//!   separate arguments; `--metadata KEY=VALUE …` so the result carries its GPU and settings;
//!   `--save-result --result-filename`.
//! * `aiperf profile`: `--model`, `--url`, `--endpoint-type chat`, `--streaming`,
//!   `--synthetic-input-tokens-mean/-stddev`, `--output-tokens-mean/-stddev`,
//!   `--extra-inputs ignore_eos:true`, `--concurrency`, `--request-count`, `--goodput` as one
//!   argument (`time_to_first_token`, and `inter_token_latency`, which is AIPerf's per-request
//!   TPOT), `--output-artifact-dir` (the spelling AIPerf records in its own `cli_command`).
//!   Newer AIPerf releases also accept a comma list in `--concurrency` for a sweep; one command
//!   per point is used here because every release accepts it.
//!
//! Concurrency is per copy: copies multiply capacity, not speed, so one copy is tested at its
//! share of the sessions. Requests per point: at least 200 (so p99 rests on two requests above
//! it) and 10 per concurrency slot (so the steady state outweighs the ramp).

use super::ProductionInput;
use super::concurrency::{SessionsToHold, ceil_tolerant, sessions_to_hold};
use crate::format::thousands;
use crate::plan::goodput::{RequestTarget, aiperf_goodput, vllm_bench_goodput};
use crate::plan::{Metric, format_number};
use crate::sizing::{Candidate, KvDtype};
use serde::{Deserialize, Serialize};

/// Multiples of the computed peak the sweep runs at.
pub const SWEEP_FACTORS: [f64; 4] = [0.5, 1.0, 1.5, 2.0];
/// Fewest requests per operating point.
pub const MIN_REQUESTS_PER_POINT: u32 = 200;
/// Requests per concurrency slot.
pub const REQUESTS_PER_SLOT: u32 = 10;

/// Where the load test runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadTestSettings {
    /// The server's base URL (without `/v1`).
    #[serde(default = "default_base_url")]
    pub base_url: String,
    /// The model name the server serves (`--served-model-name`), when it is not the model's
    /// Hugging Face id (e.g. a quantised checkpoint under its own id).
    #[serde(default)]
    pub served_model_name: Option<String>,
    /// The tokenizer to count tokens with, when not the model's Hugging Face id.
    #[serde(default)]
    pub tokenizer: Option<String>,
}

fn default_base_url() -> String {
    "http://localhost:8000".to_string()
}

impl Default for LoadTestSettings {
    fn default() -> Self {
        LoadTestSettings {
            base_url: default_base_url(),
            served_model_name: None,
            tokenizer: None,
        }
    }
}

/// A command as arguments and as one shell line (arguments with spaces or shell characters in
/// single quotes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommandLine {
    pub argv: Vec<String>,
    pub line: String,
}

impl CommandLine {
    fn new(argv: Vec<String>) -> CommandLine {
        let line = argv
            .iter()
            .map(|a| shell_word(a))
            .collect::<Vec<_>>()
            .join(" ");
        CommandLine { argv, line }
    }
}

fn shell_word(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,@+%".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// One operating point of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadTestPoint {
    /// The multiple of the peak this point stands for (0.5, 1, 1.5, 2).
    pub share_of_peak: f64,
    /// Requests in flight the tool holds.
    pub concurrency: u32,
    /// Requests sent.
    pub num_prompts: u32,
    pub vllm_bench: CommandLine,
    pub aiperf: CommandLine,
}

/// The load test for one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NextLoadTest {
    /// "2 × RTX PRO 6000 Blackwell Server Edition (TP=2), FP8 weights, FP8 KV cache".
    pub configuration: String,
    /// The `--model` both tools send.
    pub model: String,
    /// Prompt tokens per request: the pilot's median prompt.
    pub prompt_tokens: u32,
    /// Answer tokens per request: the pilot's median answer.
    pub answer_tokens: u32,
    /// Sessions to hold, all copies.
    pub peak_sessions: u64,
    /// Sessions one copy must hold: the 1× point.
    pub peak_concurrency_per_copy: u32,
    /// The plan's targets as goodput (empty when the plan has none).
    pub goodput: Vec<RequestTarget>,
    /// The sweep, lowest concurrency first.
    pub points: Vec<LoadTestPoint>,
    /// How to run and read it.
    pub notes: Vec<String>,
}

fn goodput_targets(input: &ProductionInput) -> Vec<RequestTarget> {
    let ttft = input.targets.ttft.as_ref().map(|t| RequestTarget {
        metric: Metric::Ttft,
        limit_ms: t.limit_ms,
        inclusive: t.inclusive,
    });
    let tpot = input.targets.tpot.as_ref().map(|t| RequestTarget {
        metric: Metric::Tpot,
        limit_ms: t.limit_ms,
        inclusive: t.inclusive,
    });
    ttft.into_iter().chain(tpot).collect()
}

/// 50, 95, 99 and the plan's percentiles, ascending.
fn metric_percentiles(input: &ProductionInput) -> String {
    let mut list: Vec<f64> = vec![50.0, 95.0, 99.0];
    for t in [&input.targets.ttft, &input.targets.tpot]
        .into_iter()
        .flatten()
    {
        let p = t.percentile();
        if p < 100.0 && !list.contains(&p) {
            list.push(p);
        }
    }
    list.sort_by(f64::total_cmp);
    list.iter()
        .map(|p| format_number(*p))
        .collect::<Vec<_>>()
        .join(",")
}

fn tokens(value: f64) -> u32 {
    if value.is_finite() && value >= 1.0 {
        value.round() as u32
    } else {
        1
    }
}

/// The sweep's concurrencies: ceil(factor × peak), at least 1, duplicates dropped.
fn sweep(peak_per_copy: u32) -> Vec<(f64, u32)> {
    let mut out: Vec<(f64, u32)> = Vec::new();
    for factor in SWEEP_FACTORS {
        let c = (ceil_tolerant(factor * f64::from(peak_per_copy)).max(1.0)) as u32;
        if !out.iter().any(|(_, seen)| *seen == c) {
            out.push((factor, c));
        }
    }
    out
}

struct Workload<'a> {
    model: &'a str,
    tokenizer: Option<&'a str>,
    base_url: &'a str,
    prompt_tokens: u32,
    answer_tokens: u32,
    percentiles: String,
    goodput: &'a [RequestTarget],
    candidate: &'a Candidate,
}

fn kv_flag(kv: KvDtype) -> &'static str {
    match kv {
        KvDtype::Fp8 => "fp8",
        KvDtype::Bits16 => "auto",
    }
}

fn stem(candidate: &Candidate, concurrency: u32) -> String {
    format!(
        "pilot-desk-{}-{}-kv-{}-tp{}-pp{}-c{concurrency}",
        candidate.gpu_id,
        candidate.precision.as_str(),
        candidate.kv_dtype.as_str(),
        candidate.topology.tp,
        candidate.topology.pp
    )
}

fn vllm_bench(w: &Workload, concurrency: u32, num_prompts: u32) -> CommandLine {
    let c = w.candidate;
    let mut argv: Vec<String> = [
        "vllm",
        "bench",
        "serve",
        "--backend",
        "openai-chat",
        "--base-url",
        w.base_url,
        "--endpoint",
        "/v1/chat/completions",
        "--model",
        w.model,
    ]
    .map(String::from)
    .to_vec();
    if let Some(tokenizer) = w.tokenizer {
        argv.extend(["--tokenizer".to_string(), tokenizer.to_string()]);
    }
    argv.extend(
        [
            "--dataset-name",
            "random",
            "--random-input-len",
            &w.prompt_tokens.to_string(),
            "--random-output-len",
            &w.answer_tokens.to_string(),
            "--ignore-eos",
            "--max-concurrency",
            &concurrency.to_string(),
            "--num-prompts",
            &num_prompts.to_string(),
            "--percentile-metrics",
            "ttft,tpot,itl,e2el",
            "--metric-percentiles",
            &w.percentiles,
        ]
        .map(String::from),
    );
    if !w.goodput.is_empty() {
        argv.push("--goodput".to_string());
        argv.extend(vllm_bench_goodput(w.goodput).split(' ').map(String::from));
    }
    argv.push("--metadata".to_string());
    argv.extend([
        format!("gpu={}", c.gpu_id),
        format!("weights={}", c.precision.as_str()),
        format!("kv_cache_dtype={}", kv_flag(c.kv_dtype)),
        format!("tensor_parallel={}", c.topology.tp),
        format!("pipeline_parallel={}", c.topology.pp),
    ]);
    argv.extend([
        "--save-result".to_string(),
        "--result-filename".to_string(),
        format!("{}.json", stem(c, concurrency)),
    ]);
    CommandLine::new(argv)
}

fn aiperf(w: &Workload, concurrency: u32, num_prompts: u32) -> CommandLine {
    let mut argv: Vec<String> = ["aiperf", "profile", "--model", w.model]
        .map(String::from)
        .to_vec();
    if let Some(tokenizer) = w.tokenizer {
        argv.extend(["--tokenizer".to_string(), tokenizer.to_string()]);
    }
    argv.extend(
        [
            "--url",
            w.base_url,
            "--endpoint-type",
            "chat",
            "--streaming",
            "--synthetic-input-tokens-mean",
            &w.prompt_tokens.to_string(),
            "--synthetic-input-tokens-stddev",
            "0",
            "--output-tokens-mean",
            &w.answer_tokens.to_string(),
            "--output-tokens-stddev",
            "0",
            "--extra-inputs",
            "ignore_eos:true",
            "--concurrency",
            &concurrency.to_string(),
            "--request-count",
            &num_prompts.to_string(),
        ]
        .map(String::from),
    );
    if !w.goodput.is_empty() {
        argv.extend(["--goodput".to_string(), aiperf_goodput(w.goodput)]);
    }
    argv.extend([
        "--output-artifact-dir".to_string(),
        format!("artifacts/{}", stem(w.candidate, concurrency)),
    ]);
    CommandLine::new(argv)
}

fn notes(
    input: &ProductionInput,
    candidate: &Candidate,
    sessions: &SessionsToHold,
    per_copy: u32,
    w: &Workload,
) -> Vec<String> {
    let t = candidate.topology;
    let mut out = Vec::new();
    if t.copies > 1 {
        out.push(format!(
            "Concurrency is per copy: {} copies share the {} sessions, so one copy (one endpoint) is tested at {per_copy}; copies multiply capacity, not speed.",
            t.copies, sessions.peak_sessions
        ));
    }
    out.push(format!(
        "Start the server as sized: vllm serve with --tensor-parallel-size {} --pipeline-parallel-size {} --kv-cache-dtype {} --max-model-len {}, {} weights; record the vLLM version and settings with every result.",
        t.tp,
        t.pp,
        kv_flag(candidate.kv_dtype),
        input.demand.context_tokens_per_session.max(1),
        candidate.precision.label()
    ));
    out.push(format!(
        "Random prompts of the pilot's median lengths ({} prompt tokens, {} answer tokens). To replay the pilot's own prompts instead, use --dataset-name custom (vllm bench serve) or --custom-dataset-type single_turn with output_length per line (AIPerf).",
        thousands(u64::from(w.prompt_tokens)),
        thousands(u64::from(w.answer_tokens))
    ));
    if w.goodput.is_empty() {
        out.push(
            "The plan has no TTFT or TPOT limit, so no goodput is counted: read the percentiles against the targets agreed with the customer."
                .to_string(),
        );
    } else {
        out.push(format!(
            "The configuration's capacity is the highest concurrency at which every target holds (goodput equal to throughput); it must reach {per_copy} per copy."
        ));
    }
    if w.goodput.iter().any(|g| !g.inclusive) {
        out.push(
            "A plan mark is strict (<) but both tools count a request at the limit as good (≤): grade the saved results in Pilot Desk for the exact rule."
                .to_string(),
        );
    }
    out.push(format!(
        "--model must match the server's served model name{}.",
        if input.load_test.served_model_name.is_none() {
            "; set served_model_name when the server serves a quantised checkpoint under its own id"
        } else {
            ""
        }
    ));
    out
}

/// The load test for `candidate` under `input`'s demand and targets: a concurrency sweep around
/// the sessions one copy must hold, with exact command lines for both tools. Deterministic.
pub fn next_load_test(input: &ProductionInput, candidate: &Candidate) -> NextLoadTest {
    let sessions = sessions_to_hold(input);
    let copies = u64::from(candidate.topology.copies.max(1));
    let per_copy =
        u32::try_from(sessions.peak_sessions.div_ceil(copies).max(1)).unwrap_or(u32::MAX);
    let hf_id = input
        .model
        .hf_repo
        .clone()
        .unwrap_or_else(|| input.model.id.clone());
    let model = input
        .load_test
        .served_model_name
        .clone()
        .unwrap_or_else(|| hf_id.clone());
    let tokenizer = input.load_test.tokenizer.clone().unwrap_or(hf_id);
    let goodput = goodput_targets(input);
    let workload = Workload {
        model: &model,
        tokenizer: (tokenizer != model).then_some(tokenizer.as_str()),
        base_url: &input.load_test.base_url,
        prompt_tokens: tokens(input.demand.prompt_tokens_p50),
        answer_tokens: tokens(input.demand.completion_tokens_p50),
        percentiles: metric_percentiles(input),
        goodput: &goodput,
        candidate,
    };
    let points = sweep(per_copy)
        .into_iter()
        .map(|(factor, concurrency)| {
            let num_prompts =
                MIN_REQUESTS_PER_POINT.max(REQUESTS_PER_SLOT.saturating_mul(concurrency));
            LoadTestPoint {
                share_of_peak: factor,
                concurrency,
                num_prompts,
                vllm_bench: vllm_bench(&workload, concurrency, num_prompts),
                aiperf: aiperf(&workload, concurrency, num_prompts),
            }
        })
        .collect();
    let notes = notes(input, candidate, &sessions, per_copy, &workload);
    NextLoadTest {
        configuration: super::configuration_label(candidate),
        prompt_tokens: workload.prompt_tokens,
        answer_tokens: workload.answer_tokens,
        model: model.clone(),
        peak_sessions: sessions.peak_sessions,
        peak_concurrency_per_copy: per_copy,
        points,
        notes,
        goodput,
    }
}
