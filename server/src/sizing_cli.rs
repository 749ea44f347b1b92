//! `server size`: the sizing engine on the command line, for scripts and checks.
//!
//! Needs no database. The JSON printed with `--json` is the engine's
//! [`engine::sizing::SizingResult`] as is, so its top-level fields (`weights_gib_per_card`,
//! `kv_bytes_per_token_per_card`, `kv_pool_gib_per_card`, `kv_cache_tokens`, `max_concurrency`,
//! `sessions`, `fits`, `decode_tokens_per_s`, `warnings`, …) are the same names the browser and
//! the report use.

use crate::outln;
use anyhow::{Context, bail};
use clap::Args;
use engine::sizing::{
    GpuSpec, KvDtype, MemoryModel, ModelSpec, SizingInput, SizingResult, Topology, WeightPrecision,
    gpu_by_id, model_by_id, size,
};
use engine::twin::step_model::{Execution, ServingSetup, explain};
use std::path::PathBuf;

/// Arguments of `server size`.
#[derive(Args, Debug, Clone)]
pub struct SizeArgs {
    /// Catalog model id (e.g. llama-3.3-70b, qwen2.5-7b); see --list-models
    #[arg(long, conflicts_with = "model_config", required_unless_present_any = ["model_config", "list_models", "list_gpus"])]
    pub model: Option<String>,
    /// A Hugging Face config.json instead of a catalog model
    #[arg(long, value_name = "config.json")]
    pub model_config: Option<PathBuf>,
    /// Weight precision: bf16, fp16, fp8, nvfp4, mxfp4, int4, int8
    #[arg(long, required_unless_present_any = ["list_models", "list_gpus"])]
    pub weights: Option<WeightPrecision>,
    /// Whole-model weights in GiB, instead of the catalog or computed checkpoint size
    #[arg(long)]
    pub weights_gib: Option<f64>,
    /// KV-cache dtype: 16bit or fp8
    #[arg(long, default_value = "16bit")]
    pub kv_dtype: KvDtype,
    /// Catalog GPU id (e.g. rtx-pro-6000-server, h200-nvl); see --list-gpus
    #[arg(long, conflicts_with = "gpu_memory_gib")]
    pub gpu: Option<String>,
    /// A GPU not in the catalog: its memory in GiB as CUDA sees it
    #[arg(long, requires = "gpu_bandwidth_gb_s")]
    pub gpu_memory_gib: Option<f64>,
    /// A GPU not in the catalog: its memory bandwidth in GB/s
    #[arg(long)]
    pub gpu_bandwidth_gb_s: Option<f64>,
    /// Total cards (default: tp × pp × copies; with --cards alone, the rest become copies)
    #[arg(long)]
    pub cards: Option<u32>,
    /// Tensor-parallel size of one copy
    #[arg(long)]
    pub tp: Option<u32>,
    /// Pipeline stages of one copy
    #[arg(long)]
    pub pp: Option<u32>,
    /// Independent copies
    #[arg(long)]
    pub copies: Option<u32>,
    /// Context per session in tokens (vLLM's max_model_len)
    #[arg(long, required_unless_present_any = ["list_models", "list_gpus"])]
    pub context: Option<u64>,
    /// planning (the guide's convention) or vllm (what vLLM will do)
    #[arg(long, default_value = "planning")]
    pub memory_model: MemoryModel,
    /// Override the memory utilisation (planning 0.9; vLLM: its version's default)
    #[arg(long)]
    pub gpu_memory_utilization: Option<f64>,
    /// vLLM version (decides defaults of the vllm memory model), e.g. 0.11.0
    #[arg(long)]
    pub vllm_version: Option<String>,
    /// vLLM's --max-num-batched-tokens
    #[arg(long)]
    pub max_num_batched_tokens: Option<u64>,
    /// Prompt length for a TTFT estimate
    #[arg(long)]
    pub prompt_tokens: Option<u64>,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
    /// Print the step model of this configuration term by term (weights and KV read, compute,
    /// communication, launches; fast / central / slow priors) and its physical floor, instead
    /// of the sizing (with --json: as JSON)
    #[arg(long)]
    pub explain_step: bool,
    /// With --explain-step: the engine runs eagerly (no CUDA graphs)
    #[arg(long, requires = "explain_step")]
    pub eager: bool,
    /// List the catalog's models and exit
    #[arg(long)]
    pub list_models: bool,
    /// List the catalog's GPUs with their availability and exit (with --json: as JSON)
    #[arg(long)]
    pub list_gpus: bool,
}

/// Resolves `--cards/--tp/--pp/--copies` into a topology, refusing inconsistent combinations.
pub fn topology(args: &SizeArgs) -> anyhow::Result<Topology> {
    let tp = args.tp.unwrap_or(1);
    let pp = args.pp.unwrap_or(1);
    if tp == 0 || pp == 0 || args.copies == Some(0) || args.cards == Some(0) {
        bail!("--cards, --tp, --pp and --copies must be at least 1");
    }
    let per_copy = tp * pp;
    let copies = match (args.cards, args.copies) {
        (None, copies) => copies.unwrap_or(1),
        (Some(cards), None) => {
            if cards % per_copy != 0 {
                bail!("--cards {cards} is not a multiple of --tp × --pp = {per_copy}");
            }
            cards / per_copy
        }
        (Some(cards), Some(copies)) => {
            if cards != per_copy * copies {
                bail!("--cards {cards} ≠ --tp {tp} × --pp {pp} × --copies {copies}");
            }
            copies
        }
    };
    Ok(Topology::new(tp, pp, copies))
}

fn model(args: &SizeArgs) -> anyhow::Result<ModelSpec> {
    match (&args.model, &args.model_config) {
        (Some(id), _) => model_by_id(id).with_context(|| {
            format!("--model: no model `{id}` in the catalog (see `server size --list-models`)")
        }),
        (None, Some(path)) => {
            let json = std::fs::read_to_string(path)
                .with_context(|| format!("--model-config: cannot read {}", path.display()))?;
            ModelSpec::from_hf_config(&json)
                .map_err(|e| anyhow::anyhow!("--model-config {}: {e}", path.display()))
        }
        (None, None) => bail!("give --model <id> or --model-config <config.json>"),
    }
}

fn gpu(args: &SizeArgs) -> anyhow::Result<GpuSpec> {
    match (&args.gpu, args.gpu_memory_gib, args.gpu_bandwidth_gb_s) {
        (Some(id), _, _) => gpu_by_id(id).with_context(|| {
            format!("--gpu: no GPU `{id}` in the catalog (see `server size --list-gpus`)")
        }),
        (None, Some(memory), Some(bandwidth)) => {
            if !(memory.is_finite() && memory > 0.0 && bandwidth.is_finite() && bandwidth > 0.0) {
                bail!("--gpu-memory-gib and --gpu-bandwidth-gb-s must be positive numbers");
            }
            Ok(GpuSpec::custom(
                "custom GPU",
                memory,
                Some(memory),
                bandwidth,
                None,
            ))
        }
        _ => bail!("give --gpu <id>, or --gpu-memory-gib with --gpu-bandwidth-gb-s"),
    }
}

/// Builds the engine's question from the arguments.
pub fn input(args: &SizeArgs) -> anyhow::Result<SizingInput> {
    let weights = args.weights.context("--weights is required")?;
    let context = args.context.context("--context is required")?;
    let mut input = SizingInput::new(
        model(args)?,
        weights,
        args.kv_dtype,
        gpu(args)?,
        topology(args)?,
        context,
        args.memory_model,
    );
    input.weights_gib_override = args.weights_gib;
    input.gpu_memory_utilization = args.gpu_memory_utilization;
    input.vllm_version = args.vllm_version.clone();
    input.max_num_batched_tokens = args.max_num_batched_tokens;
    input.prompt_tokens = args.prompt_tokens;
    Ok(input)
}

/// Runs `server size`, printing JSON or a readable account of the arithmetic.
pub fn run(args: &SizeArgs) -> anyhow::Result<()> {
    if args.list_models {
        for m in engine::sizing::models() {
            outln!("{:<22} {}", m.id, m.name);
        }
        return Ok(());
    }
    if args.list_gpus {
        list_gpus(args.json)?;
        return Ok(());
    }
    let question = input(args)?;
    if args.explain_step {
        return explain_step(&question, args.eager, args.json);
    }
    let result = size(&question).map_err(|e| anyhow::anyhow!("{e}"))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&result)?);
    } else {
        print_readable(&question, &result);
    }
    Ok(())
}

/// `--explain-step`: the step model's terms for one copy of the question's configuration
/// ([`engine::twin::step_model::explain`]) at its context.
fn explain_step(question: &SizingInput, eager: bool, json: bool) -> anyhow::Result<()> {
    let setup = ServingSetup {
        gpu: question.gpu.clone(),
        tp: question.topology.tp,
        pp: question.topology.pp,
        weights: question.weights,
        kv_dtype: question.kv_dtype,
        execution: if eager {
            Execution::Eager
        } else {
            Execution::CudaGraphs
        },
    };
    let explanation = explain(&question.model, &setup, question.context_tokens)
        .map_err(|e| anyhow::anyhow!("--explain-step: {e}"))?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&explanation)?);
    } else {
        for line in explanation.lines() {
            outln!("{line}");
        }
    }
    Ok(())
}

/// The catalog's GPUs with whether they can still be ordered (status, date) and whether the
/// guide's supplier offers them; `json`: `[{"id", "name", "availability"}]` with the catalog's
/// records and their sources.
fn list_gpus(json: bool) -> anyhow::Result<()> {
    let gpus = engine::sizing::gpus();
    if json {
        let rows: Vec<serde_json::Value> = gpus
            .iter()
            .map(|g| {
                serde_json::json!({
                    "id": g.id,
                    "name": g.name,
                    "availability": g.availability,
                })
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    for g in &gpus {
        let availability = match &g.availability {
            Some(a) => format!(
                "{}{}",
                a.status_in(engine::locale::Lang::En),
                if a.supplier_offers {
                    " · offered by the guide's supplier"
                } else {
                    ""
                }
            ),
            None => "availability not stated".to_string(),
        };
        outln!("{:<26} {:<52} {}", g.id, g.name, availability);
    }
    Ok(())
}

fn print_readable(question: &SizingInput, result: &SizingResult) {
    outln!(
        "{} · {} weights · {} KV cache · {} × {} ({}) · {} tokens per session · {} memory model",
        question.model.name,
        question.weights.label(),
        question.kv_dtype.label(),
        result.cards,
        question.gpu.name,
        question.topology.label(),
        question.context_tokens,
        question.memory_model,
    );
    outln!();
    for step in &result.steps {
        outln!(
            "  {:<40} {:>12} {:<10} {}",
            step.label,
            format_value(step.value),
            step.unit,
            step.formula
        );
    }
    outln!();
    outln!(
        "  {} · {} whole sessions · single-stream decode ceiling {:.1} tok/s (an upper bound)",
        if result.fits { "fits" } else { "does NOT fit" },
        result.sessions,
        result.decode_tokens_per_s
    );
    for warning in &result.warnings {
        outln!("  warning: {warning}");
    }
}

fn format_value(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else if value.abs() >= 100.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.3}")
    }
}
