//! `server predict <load-test files or folders>… (--rate R | --concurrency N) [--prompt-tokens N
//! --output-tokens N] [--json]`: the capacity twin from the command line, without a database.
//!
//! The load tests are read like `server inspect` reads them (a folder is one sweep), with their
//! per-request records kept so files that have them (AIPerf JSONL, vLLM `--save-detailed`,
//! guidellm) feed the fit. Optional evidence states the engine's limits: `--startup-log` (KV-cache
//! size), `--metrics` (a `/metrics` scrape's cache configuration) and `--run-context` (a `vllm
//! serve` command line or ServingRuntime YAML: `max_num_seqs`, `max_num_batched_tokens`).
//! `--gateway-log` replays the pilot's own traffic, its busiest stretch compressed to `--rate`
//! (`--write-trace` also writes it as a Mooncake trace for `aiperf --custom-dataset-type
//! mooncake_trace --fixed-schedule`).
//!
//! The text output labels every number with its unit, percentile and basis (Measured, Simulated
//! or Estimated) and states the back-test; `--json` prints the prediction object
//! (`engine::twin::Prediction`). Bad arguments stop with a message naming the flag.

use crate::outln;
use anyhow::{Context, bail};
use clap::Args;
use desk::predict::service::{LoadTestInput, TwinEvidence, TwinInputError};
use engine::ingest::{Import, ImportOptions};
use engine::twin::{
    ArrivalProcess, Basis, LimitSource, Percentiles, Prediction, PrefillScheduling, Question,
    TimedRequest, Twin, mooncake_trace, replay_from_gateway,
};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
pub struct PredictArgs {
    /// Load-test result files or sweep folders (vllm bench serve, AIPerf, GenAI-Perf, guidellm)
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Poisson arrivals at this rate, requests per second (with --gateway-log: the replay's rate)
    #[arg(long, value_name = "R", value_parser = positive_rate,
          required_unless_present_any = ["concurrency", "gateway_log"])]
    pub rate: Option<f64>,
    /// A closed loop of this many users, each sending again when answered
    #[arg(long, value_name = "N", conflicts_with_all = ["rate", "gateway_log"],
          value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: Option<u32>,
    /// Every prompt this many tokens (default: the measured lengths)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub prompt_tokens: Option<u32>,
    /// Every answer this many tokens (default: the measured lengths)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub output_tokens: Option<u32>,
    /// Print the prediction as JSON
    #[arg(long)]
    pub json: bool,
    /// A vLLM start-up log: the KV-cache size it prints
    #[arg(long, value_name = "FILE")]
    pub startup_log: Option<PathBuf>,
    /// A vLLM /metrics scrape: the KV-cache size of cache_config_info
    #[arg(long, value_name = "FILE")]
    pub metrics: Option<PathBuf>,
    /// A `vllm serve …` command line or KServe ServingRuntime YAML: max_num_seqs,
    /// max_num_batched_tokens
    #[arg(long, value_name = "FILE")]
    pub run_context: Option<PathBuf>,
    /// Replay this gateway log (its busiest stretch of --requests requests) at --rate
    #[arg(long, value_name = "FILE")]
    pub gateway_log: Option<PathBuf>,
    /// With --gateway-log: also write the replay as a Mooncake trace (JSON Lines) to this file
    #[arg(long, value_name = "FILE", requires = "gateway_log")]
    pub write_trace: Option<PathBuf>,
    /// Which serving configuration, when the files hold several (e.g. `framework=vllm`)
    #[arg(long, value_name = "LABEL")]
    pub configuration: Option<String>,
    /// Which measured scenario's token lengths to use (name or part of it)
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
    /// Requests to simulate (default 5000; a gateway replay: its length)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub requests: Option<u64>,
    /// Seed of the simulated arrivals and lengths
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the leave-one-out back-test (faster; the prediction then states no error)
    #[arg(long)]
    pub no_backtest: bool,
    #[command(flatten)]
    pub elsewhere: Elsewhere,
}

/// Predicting the same load on another configuration than the one the files measured.
#[derive(clap::Args, Clone, Debug)]
pub struct Elsewhere {
    /// Predict on this catalog GPU instead (Estimated: the fitted step cost transferred by the
    /// physics of the work; every percentile with `low` and `high`); needs --model and
    /// --measured-gpu
    #[arg(long, value_name = "ID", requires_all = ["model", "measured_gpu"])]
    pub gpu: Option<String>,
    /// Cards of --gpu, split into copies of --tp × --pp (default: one copy)
    #[arg(long, value_name = "N", requires = "gpu", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub cards: Option<u32>,
    /// Tensor-parallel size on --gpu
    #[arg(long, value_name = "N", requires = "gpu", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub tp: u32,
    /// Pipeline stages on --gpu
    #[arg(long, value_name = "N", requires = "gpu", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub pp: u32,
    /// Weight precision on --gpu (default: the measured one)
    #[arg(long, value_name = "P", requires = "gpu")]
    pub weights: Option<engine::sizing::WeightPrecision>,
    /// KV-cache dtype on --gpu: 16bit or fp8
    #[arg(long, value_name = "D", requires = "gpu", default_value = "16bit")]
    pub kv_dtype: engine::sizing::KvDtype,
    /// Run --gpu eager (CUDA graphs off), as `--enforce-eager`
    #[arg(long, requires = "gpu")]
    pub eager: bool,
    /// The served model (catalog id): the weights and KV bytes and FLOPs the transfer weighs
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
    /// The GPU the files were measured on (catalog id)
    #[arg(long, value_name = "ID")]
    pub measured_gpu: Option<String>,
    /// Its tensor-parallel size (default: --run-context's, else 1)
    #[arg(long, value_name = "N")]
    pub measured_tp: Option<u32>,
    /// Its weight precision (default: --run-context's, else fp16)
    #[arg(long, value_name = "P")]
    pub measured_weights: Option<engine::sizing::WeightPrecision>,
    /// Context one session holds on --gpu, tokens (sizes its KV cache)
    #[arg(long, value_name = "N", requires = "gpu", default_value_t = 8192)]
    pub context: u64,
}

fn positive_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err("the rate must be a positive number of requests per second".into()),
        Err(_) => Err(format!("`{text}` is not a number of requests per second")),
    }
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| path.display().to_string())
}

fn options() -> ImportOptions {
    ImportOptions {
        keep_requests: true,
        keep_itl_lists: false,
        exact_itl_percentiles: true,
    }
}

/// One file or folder as load-test results.
fn read_load_test(path: &Path) -> anyhow::Result<Import> {
    if path.is_dir() {
        let files = crate::inspect_cli::folder_files(path)
            .with_context(|| format!("{}: could not read the folder", path.display()))?;
        return engine::ingest::import_sweep_with(&files, &options())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()));
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("{}: could not read", path.display()))?;
    engine::ingest::import_reader(&name_of(path), BufReader::new(file), &options())
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// Every input as a load test of the twin's evidence (warnings to stderr).
fn read_all(files: &[PathBuf]) -> anyhow::Result<Vec<LoadTestInput>> {
    let mut load_tests = Vec::new();
    for path in files {
        let import = read_load_test(path)?;
        for warning in &import.warnings {
            eprintln!("{}: {warning}", path.display());
        }
        load_tests.push(LoadTestInput {
            points: import.points,
            requests: import.requests,
        });
    }
    Ok(load_tests)
}

fn read_text(path: &Path, flag: &str) -> anyhow::Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("{flag} {}: could not read", path.display()))
}

/// Reads the optional evidence that states the engine's limits into `evidence` (combined
/// by [`TwinEvidence::stated_limits`], as for a pilot's stored evidence).
fn read_limit_evidence(args: &PredictArgs, evidence: &mut TwinEvidence) -> anyhow::Result<()> {
    if let Some(path) = &args.run_context {
        let context = engine::run_context::parse(&read_text(path, "--run-context")?)
            .map_err(|e| anyhow::anyhow!("--run-context {}: {}", path.display(), e.0))?;
        evidence.run_contexts.push(context);
    }
    if let Some(path) = &args.startup_log {
        let log = engine::sizing::startup_log::parse(&read_text(path, "--startup-log")?)
            .map_err(|e| anyhow::anyhow!("--startup-log {}: {e}", path.display()))?;
        if log.kv_tokens().is_none() {
            bail!(
                "--startup-log {}: the log does not print the KV-cache size",
                path.display()
            );
        }
        evidence.startup_logs.push(log);
    }
    if let Some(path) = &args.metrics {
        let snapshot = engine::metrics::VllmSnapshot::parse(&read_text(path, "--metrics")?)
            .map_err(|e| anyhow::anyhow!("--metrics {}: {e}", path.display()))?;
        let Some(config) = snapshot.cache_config else {
            bail!(
                "--metrics {}: the scrape has no vllm:cache_config_info",
                path.display()
            );
        };
        evidence.cache_configs.push(config);
    }
    Ok(())
}

/// The gateway log's busiest stretch as a replay at the asked rate.
fn gateway_replay(args: &PredictArgs, path: &Path) -> anyhow::Result<Vec<TimedRequest>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("--gateway-log {}: could not read", path.display()))?;
    let mut records = Vec::new();
    engine::traffic::read_gateway_log(
        BufReader::with_capacity(1 << 16, file),
        &engine::traffic::ReadOptions::new(name_of(path)),
        |r| records.push(r),
        |_| {},
    )
    .map_err(|e| anyhow::anyhow!("--gateway-log {}: {e}", path.display()))?;
    let count = args.requests.map(|n| n as usize).unwrap_or(5000);
    let replay = replay_from_gateway(&records, count, args.rate).ok_or_else(|| {
        anyhow::anyhow!(
            "--gateway-log {}: fewer than two successful requests with token counts at distinct times",
            path.display()
        )
    })?;
    eprintln!(
        "{}: replaying {} requests logged at {:.4} req/s, {:.1}× faster ({:.3} req/s)",
        path.display(),
        replay.requests.len(),
        replay.logged_rate_per_s,
        replay.speed_up,
        replay.replay_rate_per_s
    );
    let mut requests = replay.requests;
    for r in &mut requests {
        if let Some(p) = args.prompt_tokens {
            r.prompt_tokens = p;
        }
        if let Some(o) = args.output_tokens {
            r.output_tokens = o;
        }
    }
    if let Some(out) = &args.write_trace {
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(out)
                .with_context(|| format!("--write-trace {}: could not create", out.display()))?,
        );
        for line in mooncake_trace(&requests) {
            writeln!(file, "{line}")?;
        }
        file.flush()?;
        eprintln!(
            "{}: Mooncake trace of {} requests",
            out.display(),
            requests.len()
        );
    }
    Ok(requests)
}

/// Runs `server predict`.
pub fn run(args: &PredictArgs) -> anyhow::Result<()> {
    let mut evidence = TwinEvidence {
        load_tests: read_all(&args.files)?,
        ..TwinEvidence::default()
    };
    read_limit_evidence(args, &mut evidence)?;
    let arrivals = match (&args.gateway_log, args.concurrency, args.rate) {
        (Some(path), _, _) => ArrivalProcess::Replay {
            requests: gateway_replay(args, path)?,
        },
        (None, Some(concurrency), _) => ArrivalProcess::ClosedLoop { concurrency },
        (None, None, Some(rate_per_s)) => ArrivalProcess::Poisson { rate_per_s },
        (None, None, None) => bail!("give --rate or --concurrency"),
    };
    let (label, twin) = evidence
        .build(args.configuration.as_deref(), !args.no_backtest)
        .map_err(|e| match e {
            TwinInputError::NoPoints => {
                anyhow::anyhow!("the files hold no load-test operating points")
            }
            TwinInputError::NoSuchConfiguration { asked, available } => anyhow::anyhow!(
                "--configuration {asked}: no such configuration; the files hold: {available}"
            ),
            TwinInputError::SeveralConfigurations { count, available } => anyhow::anyhow!(
                "the files hold {count} serving configurations; choose one with --configuration: {available}"
            ),
            TwinInputError::Fit(e) => e.into(),
        })?;
    let question = Question {
        arrivals,
        prompt_tokens: args.prompt_tokens,
        output_tokens: args.output_tokens,
        scenario: args.scenario.clone(),
        requests: args.requests.map(|n| n as usize),
        seed: args.seed,
    };
    if let Some(gpu) = &args.elsewhere.gpu {
        return predict_elsewhere(args, gpu, &evidence, &twin, &question);
    }
    let prediction = twin.predict(&question);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&prediction)?);
    } else {
        print_text(&label, &twin, &prediction);
    }
    Ok(())
}

fn source_label(source: LimitSource) -> &'static str {
    match source {
        LimitSource::Stated => "stated",
        LimitSource::Inferred => "inferred",
        LimitSource::Assumed => "assumed",
    }
}

fn line(
    name: &str,
    unit: &str,
    field: &str,
    values: &Percentiles,
    prediction: &Prediction,
) -> String {
    let cell = |label: &str, v: f64| {
        let basis = if prediction.basis == Basis::Measured
            && prediction
                .filled_by_simulation
                .contains(&format!("{field}.{label}"))
        {
            "S"
        } else {
            &prediction.basis.label()[..1]
        };
        format!("{label} {v:>9.1} {basis}")
    };
    format!(
        "  {name:<5} {unit:<9} {}   {}   {}   {}",
        cell("p50", values.p50),
        cell("p90", values.p90),
        cell("p95", values.p95),
        cell("p99", values.p99)
    )
}

fn print_text(label: &str, twin: &Twin, p: &Prediction) {
    let m = &twin.model;
    outln!(
        "Capacity twin · configuration {label} · {} measured point(s){}",
        m.measured.len(),
        m.fit_error_pct
            .map(|e| format!(" · reproduces them within {e:.1} % (median, in sample)"))
            .unwrap_or_default()
    );
    outln!(
        "  step time = {:.2} ms + {:.3} ms × decoding sequences + {:.3} µs × context tokens + {:.2} µs × prefill tokens; request overhead {:.1} ms",
        m.step.base_ms,
        m.step.per_sequence_ms,
        m.step.per_context_token_us,
        m.step.per_prefill_token_us,
        m.request_overhead_ms
    );
    let l = &m.limits;
    outln!(
        "  limits: {} running sequences ({}) · KV cache {} · {} tokens per step, {} ({})",
        l.max_running,
        source_label(l.max_running_source),
        l.kv_cache_tokens
            .map(|t| format!("{t} tokens (stated)"))
            .unwrap_or_else(|| "not stated".into()),
        l.max_batched_tokens,
        match l.prefill {
            PrefillScheduling::Chunked => "chunked prefill",
            PrefillScheduling::Separate => "separate prefill steps",
        },
        source_label(l.prefill_source)
    );
    outln!();
    outln!(
        "Asked: {} · prompts {} · answers {}{}",
        p.arrivals,
        p.prompt_tokens,
        p.output_tokens,
        p.scenario
            .as_ref()
            .map(|s| format!(" · lengths of scenario \"{s}\""))
            .unwrap_or_default()
    );
    outln!(
        "Prediction: {}{}   (M = Measured, S = Simulated, E = Estimated)",
        p.basis.label(),
        p.measured_source
            .as_ref()
            .map(|s| format!(" — read from {s}"))
            .unwrap_or_default()
    );
    outln!("{}", line("TTFT", "ms", "ttft_ms", &p.ttft_ms, p));
    outln!("{}", line("TPOT", "ms/token", "tpot_ms", &p.tpot_ms, p));
    outln!("{}", line("ITL", "ms", "itl_ms", &p.itl_ms, p));
    outln!("{}", line("E2E", "ms", "e2e_ms", &p.e2e_ms, p));
    outln!(
        "  request throughput {:.3} req/s ({}) · output {:.0} tokens/s ({})",
        p.request_throughput_per_s,
        p.basis.label(),
        p.output_tokens_per_s,
        p.basis.label()
    );
    outln!(
        "  saturation rate {:.2} req/s (Estimated: closed form of the fitted model) · {:.1} requests in flight, {:.1} decoding on average (Simulated, {} requests)",
        p.saturation_rate_per_s,
        p.mean_in_flight,
        p.mean_decoding_batch,
        p.requests_simulated
    );
    outln!();
    let b = &p.backtest;
    match (b.median_abs_error_pct, b.max_abs_error_pct) {
        (Some(median), Some(max)) => {
            outln!(
                "Back-test, {}: median |error| {median:.1} %, max {max:.1} % over {} comparisons (TTFT {:.1} %, TPOT {:.1} %)",
                b.method,
                b.compared,
                b.ttft_median_abs_error_pct.unwrap_or(f64::NAN),
                b.tpot_median_abs_error_pct.unwrap_or(f64::NAN)
            );
            for point in &b.points {
                let errors: Vec<String> = point
                    .comparisons
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {} {:+.0} %",
                            if c.metric == "ttft_ms" {
                                "TTFT"
                            } else {
                                "TPOT"
                            },
                            c.percentile,
                            c.error_pct
                        )
                    })
                    .collect();
                outln!(
                    "  {} · {}: {}",
                    point.scenario,
                    point.load,
                    errors.join(", ")
                );
            }
            for skipped in &b.skipped {
                outln!("  skipped: {skipped}");
            }
        }
        _ => outln!("Back-test: {}", b.method),
    }
    for warning in &p.warnings {
        outln!("warning: {warning}");
    }
}

/// The measured configuration: the flags, else the run context, else the defaults.
fn measured_setup(
    e: &Elsewhere,
    evidence: &TwinEvidence,
) -> anyhow::Result<engine::twin::transfer::ServingSetup> {
    use engine::sizing::WeightPrecision;
    let id = e.measured_gpu.as_deref().unwrap_or_default();
    let gpu = engine::sizing::gpu_by_id(id).with_context(|| {
        format!("--measured-gpu: no GPU `{id}` in the catalog (see `server size --list-gpus`)")
    })?;
    let context = evidence.run_contexts.first().cloned().unwrap_or_default();
    let weights = e
        .measured_weights
        .or_else(|| {
            context
                .precision
                .as_deref()
                .and_then(engine::production::precision::parse_precision_name)
        })
        .unwrap_or(WeightPrecision::Fp16);
    Ok(engine::twin::transfer::ServingSetup {
        gpu,
        tp: e.measured_tp.or(context.tensor_parallel).unwrap_or(1),
        pp: context.pipeline_parallel.unwrap_or(1),
        weights,
        kv_dtype: engine::sizing::KvDtype::Bits16,
        execution: engine::twin::transfer::Execution::from_cuda_graphs(context.cuda_graphs),
    })
}

/// Refuses `--model` when the load tests name another model: the transfer carries one
/// engine's step cost to other hardware for the same weights; another model's step cost is
/// no evidence about these (issue #39: a Qwen2.5-7B file was read as evidence for a 70B model,
/// 10.2 ms per token, below that model's floor). Files that name no model are taken as the
/// model asked about.
fn same_model_as_the_files(
    model: &engine::sizing::ModelSpec,
    evidence: &TwinEvidence,
) -> anyhow::Result<()> {
    let named: std::collections::BTreeSet<&str> = evidence
        .load_tests
        .iter()
        .flat_map(|file| file.points.iter())
        .filter_map(|point| point.model.as_deref())
        .filter(|name| !name.trim().is_empty())
        .collect();
    let matches = |name: &&str| desk::catalog::guess_model_id(name).as_deref() == Some(&model.id);
    match named.iter().find(|name| !matches(name)) {
        None => Ok(()),
        Some(other) => {
            let catalog = desk::catalog::guess_model_id(other)
                .map(|id| format!(" (catalog id `{id}`: give --model {id})"))
                .unwrap_or_else(|| " (not in the catalog)".into());
            bail!(
                "--model {}: the load tests are of {other}{catalog}; a load test of another model \
                 says nothing about this one's speed. Size {} without a load test with \
                 `server size`, or load-test it.",
                model.id,
                model.name
            )
        }
    }
}

/// `--gpu`: the same load on another configuration, from the measured one.
fn predict_elsewhere(
    args: &PredictArgs,
    gpu: &str,
    evidence: &TwinEvidence,
    twin: &Twin,
    question: &Question,
) -> anyhow::Result<()> {
    let e = &args.elsewhere;
    let model_id = e.model.as_deref().unwrap_or_default();
    let model = engine::sizing::model_by_id(model_id).with_context(|| {
        format!("--model: no model `{model_id}` in the catalog (see `server size --list-models`)")
    })?;
    same_model_as_the_files(&model, evidence)?;
    let measured = measured_setup(e, evidence)?;
    let target = engine::twin::transfer::ServingSetup {
        gpu: engine::sizing::gpu_by_id(gpu).with_context(|| {
            format!("--gpu: no GPU `{gpu}` in the catalog (see `server size --list-gpus`)")
        })?,
        tp: e.tp,
        pp: e.pp,
        weights: e.weights.unwrap_or(measured.weights),
        kv_dtype: e.kv_dtype,
        execution: engine::twin::transfer::Execution::from_cuda_graphs(Some(!e.eager)),
    };
    let cards = e.cards.unwrap_or(e.tp * e.pp);
    let predicted = engine::twin::predict_configuration(
        twin,
        &engine::twin::OtherConfiguration {
            model: &model,
            measured: &measured,
            target: &target,
            cards,
            memory_model: engine::sizing::MemoryModel::Planning,
            context_tokens: e.context,
        },
        question,
    )
    .map_err(|error| anyhow::anyhow!("--gpu {gpu}: {error}"))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&predicted)?);
    } else {
        outln!(
            "{} × {} ({} {} of TP={} × PP={}), {} weights, {} KV cache, from {} · {} · Estimated",
            predicted.cards,
            target.gpu.name,
            predicted.copies,
            if predicted.copies == 1 {
                "copy"
            } else {
                "copies"
            },
            target.tp,
            target.pp,
            target.weights.label(),
            target.kv_dtype.label(),
            measured.label(),
            predicted.load_per_copy
        );
        outln!("{}", serde_json::to_string_pretty(&predicted.prediction)?);
    }
    Ok(())
}
