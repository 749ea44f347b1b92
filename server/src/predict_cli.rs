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

use anyhow::{Context, bail};
use clap::Args;
use engine::ingest::{Import, ImportOptions, OperatingPoint, RequestRecord};
use engine::twin::{
    ArrivalProcess, Basis, FitOptions, LimitSource, Percentiles, Prediction, PrefillScheduling,
    Question, ServingLimits, TimedRequest, Twin, configurations, mooncake_trace,
    replay_from_gateway,
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

/// Every point and record of every input, record indices moved to the combined list.
fn read_all(files: &[PathBuf]) -> anyhow::Result<(Vec<OperatingPoint>, Vec<RequestRecord>)> {
    let mut points = Vec::new();
    let mut requests = Vec::new();
    for path in files {
        let import = read_load_test(path)?;
        let offset = points.len();
        for warning in &import.warnings {
            eprintln!("{}: {warning}", path.display());
        }
        points.extend(import.points);
        requests.extend(import.requests.into_iter().map(|mut r| {
            r.point += offset;
            r
        }));
    }
    Ok((points, requests))
}

fn read_text(path: &Path, flag: &str) -> anyhow::Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("{flag} {}: could not read", path.display()))
}

/// What the optional evidence states about the engine's limits.
fn stated_limits(args: &PredictArgs) -> anyhow::Result<ServingLimits> {
    let mut limits = ServingLimits::default();
    if let Some(path) = &args.run_context {
        let context = engine::run_context::parse(&read_text(path, "--run-context")?)
            .map_err(|e| anyhow::anyhow!("--run-context {}: {}", path.display(), e.0))?;
        limits = limits.or(ServingLimits::from_run_context(&context));
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
        limits = limits.or(ServingLimits::from_startup_log(&log));
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
        limits = limits.or(ServingLimits::from_cache_config(&config));
    }
    Ok(limits)
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

/// Picks the points of one serving configuration.
fn select_configuration(
    points: Vec<OperatingPoint>,
    requests: Vec<RequestRecord>,
    asked: Option<&str>,
) -> anyhow::Result<(String, Vec<OperatingPoint>, Vec<RequestRecord>)> {
    let groups = configurations(&points);
    let chosen = match asked {
        Some(label) => groups
            .iter()
            .find(|g| g.label == label)
            .or_else(|| groups.iter().find(|g| g.label.contains(label)))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--configuration {label}: no such configuration; the files hold: {}",
                    describe_groups(&groups)
                )
            })?,
        None if groups.len() > 1 => bail!(
            "the files hold {} serving configurations; choose one with --configuration: {}",
            groups.len(),
            describe_groups(&groups)
        ),
        None => &groups[0],
    };
    let mine: Vec<OperatingPoint> = chosen.points.iter().map(|&i| points[i].clone()).collect();
    let records = requests
        .into_iter()
        .filter_map(|mut r| {
            let at = chosen.points.iter().position(|&i| i == r.point)?;
            r.point = at;
            Some(r)
        })
        .collect();
    Ok((chosen.label.clone(), mine, records))
}

fn describe_groups(groups: &[engine::twin::Configuration]) -> String {
    groups
        .iter()
        .map(|g| format!("{} ({} points)", g.label, g.points.len()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `server predict`.
pub fn run(args: &PredictArgs) -> anyhow::Result<()> {
    let (points, requests) = read_all(&args.files)?;
    if points.is_empty() {
        bail!("the files hold no load-test operating points");
    }
    let (label, points, requests) =
        select_configuration(points, requests, args.configuration.as_deref())?;
    let limits = stated_limits(args)?;
    let arrivals = match (&args.gateway_log, args.concurrency, args.rate) {
        (Some(path), _, _) => ArrivalProcess::Replay {
            requests: gateway_replay(args, path)?,
        },
        (None, Some(concurrency), _) => ArrivalProcess::ClosedLoop { concurrency },
        (None, None, Some(rate_per_s)) => ArrivalProcess::Poisson { rate_per_s },
        (None, None, None) => bail!("give --rate or --concurrency"),
    };
    let options = FitOptions::default();
    let twin = if args.no_backtest {
        let model = engine::twin::fit_with(&points, &requests, &limits, &options)?;
        Twin {
            model,
            backtest: engine::twin::Backtest::not_run("not run (--no-backtest)"),
        }
    } else {
        Twin::build_with(&points, &requests, &limits, &options)?
    };
    let question = Question {
        arrivals,
        prompt_tokens: args.prompt_tokens,
        output_tokens: args.output_tokens,
        scenario: args.scenario.clone(),
        requests: args.requests.map(|n| n as usize),
        seed: args.seed,
    };
    let prediction = twin.predict(&question);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&prediction)?);
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
    println!(
        "Capacity twin · configuration {label} · {} measured point(s){}",
        m.measured.len(),
        m.fit_error_pct
            .map(|e| format!(" · reproduces them within {e:.1} % (median, in sample)"))
            .unwrap_or_default()
    );
    println!(
        "  step time = {:.2} ms + {:.3} ms × decoding sequences + {:.3} µs × context tokens + {:.2} µs × prefill tokens; request overhead {:.1} ms",
        m.step.base_ms,
        m.step.per_sequence_ms,
        m.step.per_context_token_us,
        m.step.per_prefill_token_us,
        m.request_overhead_ms
    );
    let l = &m.limits;
    println!(
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
    println!();
    println!(
        "Asked: {} · prompts {} · answers {}{}",
        p.arrivals,
        p.prompt_tokens,
        p.output_tokens,
        p.scenario
            .as_ref()
            .map(|s| format!(" · lengths of scenario \"{s}\""))
            .unwrap_or_default()
    );
    println!(
        "Prediction: {}{}   (M = Measured, S = Simulated, E = Estimated)",
        p.basis.label(),
        p.measured_source
            .as_ref()
            .map(|s| format!(" — read from {s}"))
            .unwrap_or_default()
    );
    println!("{}", line("TTFT", "ms", "ttft_ms", &p.ttft_ms, p));
    println!("{}", line("TPOT", "ms/token", "tpot_ms", &p.tpot_ms, p));
    println!("{}", line("ITL", "ms", "itl_ms", &p.itl_ms, p));
    println!("{}", line("E2E", "ms", "e2e_ms", &p.e2e_ms, p));
    println!(
        "  request throughput {:.3} req/s ({}) · output {:.0} tokens/s ({})",
        p.request_throughput_per_s,
        p.basis.label(),
        p.output_tokens_per_s,
        p.basis.label()
    );
    println!(
        "  saturation rate {:.2} req/s (Estimated: closed form of the fitted model) · {:.1} requests in flight, {:.1} decoding on average (Simulated, {} requests)",
        p.saturation_rate_per_s, p.mean_in_flight, p.mean_decoding_batch, p.requests_simulated
    );
    println!();
    let b = &p.backtest;
    match (b.median_abs_error_pct, b.max_abs_error_pct) {
        (Some(median), Some(max)) => {
            println!(
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
                println!(
                    "  {} · {}: {}",
                    point.scenario,
                    point.load,
                    errors.join(", ")
                );
            }
            for skipped in &b.skipped {
                println!("  skipped: {skipped}");
            }
        }
        _ => println!("Back-test: {}", b.method),
    }
    for warning in &p.warnings {
        println!("warning: {warning}");
    }
}
