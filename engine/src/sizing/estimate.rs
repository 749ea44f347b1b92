//! [`size`]: one configuration in, every number and its arithmetic out.
//!
//! The input names the model, precision, KV dtype, GPU, topology, context and memory model; the
//! result carries the per-card memory (for a stacked bar), the KV pool, the sessions that fit,
//! the decode ceiling, a prefill rate, warnings, and the [`Step`]s that produced them. The two
//! memory models share everything except the budget ([`super::planning`], [`super::vllm`]).
//!
//! "Fits" means what a person deploying it means: the weights load and at least one session of
//! `context_tokens` fits, i.e. vLLM would start. A format the card has no kernel for, a context
//! beyond the model's maximum (vLLM mode) or a utilisation above what a unified-memory card
//! starts with (vLLM mode) also make it `false`, with the reason in `warnings`.

use super::decode::topology_decode_ceiling_tokens_per_s;
use super::gpu::{FormatSupport, GpuSpec};
use super::kv_cache::kv_bytes_per_token_whole_model;
use super::memory_model::{MemoryModel, VllmVersion};
use super::model::{AttentionKind, ModelClass, ModelSpec};
use super::precision::{KvDtype, WeightPrecision};
use super::prefill::{PREFILL_EFFICIENCY, prefill_tokens_per_s, ttft_estimate_ms};
use super::topology::Topology;
use super::weights::{checkpoint_gib, decode_read_gb_per_token, param_breakdown};
use super::{GB, SizingError, planning, round1, round2, vllm};
use serde::{Deserialize, Serialize};

/// One sizing question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizingInput {
    pub model: ModelSpec,
    pub weights: WeightPrecision,
    /// Whole-model weights, GiB, instead of the catalog or computed checkpoint (e.g. the
    /// "Model loading took" figure × TP).
    #[serde(default)]
    pub weights_gib_override: Option<f64>,
    pub kv_dtype: KvDtype,
    /// From the catalog or custom: memory_driver_gib, memory_cuda_gib, bandwidth_gb_s, TFLOPS,
    /// FP8/FP4 support.
    pub gpu: GpuSpec,
    /// tp, pp, copies; cards = tp × pp × copies.
    pub topology: Topology,
    /// Context per session (vLLM's `max_model_len`), tokens.
    pub context_tokens: u64,
    pub memory_model: MemoryModel,
    /// Overrides the model's utilisation (planning: 0.9; vLLM: the version's default).
    #[serde(default)]
    pub gpu_memory_utilization: Option<f64>,
    /// The vLLM release, e.g. `0.10.1`; decides defaults in the vLLM model.
    #[serde(default)]
    pub vllm_version: Option<String>,
    /// vLLM's `--max-num-batched-tokens`; the default depends on the engine, the card and
    /// the context.
    #[serde(default)]
    pub max_num_batched_tokens: Option<u64>,
    /// vLLM's `--max-num-seqs`; the default depends on the engine and the card.
    #[serde(default)]
    pub max_num_seqs: Option<u64>,
    /// vLLM's `--enforce-eager`: no CUDA graphs, so none are estimated into the budget (≥ 0.21).
    #[serde(default)]
    pub enforce_eager: bool,
    /// The vLLM engine when chosen by hand (`VLLM_USE_V1`); by default the version and card
    /// decide.
    #[serde(default)]
    pub vllm_engine: Option<super::memory_model::VllmEngine>,
    /// Whether vLLM samples with FlashInfer's top-k/top-p kernel (a start-up log says "Using
    /// FlashInfer for top-p & top-k sampling" or "Falling back to the PyTorch-native
    /// implementation"); unknown counts the PyTorch sampler, which holds more memory.
    #[serde(default)]
    pub flashinfer_sampler: Option<bool>,
    /// `Some(false)` when vLLM runs without custom all-reduce (no GPU P2P, TP across nodes,
    /// `--disable-custom-all-reduce`): NVLink cards then hold no all-reduce buffers.
    #[serde(default)]
    pub custom_all_reduce: Option<bool>,
    /// Overrides the planning overhead per card (3 GiB).
    #[serde(default)]
    pub planning_overhead_gib: Option<f64>,
    /// A prompt length for the TTFT estimate.
    #[serde(default)]
    pub prompt_tokens: Option<u64>,
}

impl SizingInput {
    /// A question with the defaults of everything optional.
    pub fn new(
        model: ModelSpec,
        weights: WeightPrecision,
        kv_dtype: KvDtype,
        gpu: GpuSpec,
        topology: Topology,
        context_tokens: u64,
        memory_model: MemoryModel,
    ) -> SizingInput {
        SizingInput {
            model,
            weights,
            weights_gib_override: None,
            kv_dtype,
            gpu,
            topology,
            context_tokens,
            memory_model,
            gpu_memory_utilization: None,
            vllm_version: None,
            max_num_batched_tokens: None,
            max_num_seqs: None,
            enforce_eager: false,
            vllm_engine: None,
            flashinfer_sampler: None,
            custom_all_reduce: None,
            planning_overhead_gib: None,
            prompt_tokens: None,
        }
    }

    /// Like [`SizingInput::new`] with catalog ids; unknown ids are errors.
    pub fn from_ids(
        model_id: &str,
        weights: WeightPrecision,
        kv_dtype: KvDtype,
        gpu_id: &str,
        topology: Topology,
        context_tokens: u64,
        memory_model: MemoryModel,
    ) -> Result<SizingInput, SizingError> {
        Ok(SizingInput::new(
            super::model::require_model(model_id)?,
            weights,
            kv_dtype,
            super::gpu::require_gpu(gpu_id)?,
            topology,
            context_tokens,
            memory_model,
        ))
    }

    /// Checks every field, naming the first one at fault.
    pub fn validate(&self) -> Result<Option<VllmVersion>, SizingError> {
        self.model.validate()?;
        self.gpu.validate()?;
        self.topology.validate(&self.model)?;
        if self.context_tokens == 0 {
            return Err(SizingError::input(
                "context_tokens",
                "must be at least 1 token",
            ));
        }
        if let Some(util) = self.gpu_memory_utilization
            && !(util > 0.0 && util <= 1.0)
        {
            return Err(SizingError::input(
                "gpu_memory_utilization",
                format!("must be in (0, 1], got {util}"),
            ));
        }
        if let Some(gib) = self.weights_gib_override
            && !(gib.is_finite() && gib > 0.0)
        {
            return Err(SizingError::input(
                "weights_gib_override",
                format!("must be a positive number of GiB, got {gib}"),
            ));
        }
        if let Some(gib) = self.planning_overhead_gib
            && !(gib.is_finite() && gib >= 0.0)
        {
            return Err(SizingError::input(
                "planning_overhead_gib",
                format!("must be zero or more GiB, got {gib}"),
            ));
        }
        if self.max_num_batched_tokens == Some(0) {
            return Err(SizingError::input(
                "max_num_batched_tokens",
                "must be at least 1",
            ));
        }
        if self.max_num_seqs == Some(0) {
            return Err(SizingError::input("max_num_seqs", "must be at least 1"));
        }
        self.vllm_version
            .as_deref()
            .filter(|v| !v.trim().is_empty())
            .map(VllmVersion::parse)
            .transpose()
    }
}

/// One line of arithmetic: what was computed, how (in words and numbers), the value and unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub label: String,
    pub formula: String,
    pub value: f64,
    pub unit: String,
}

impl Step {
    /// A step; the value is kept to four decimals (the formula carries the exact working).
    pub fn new(label: &str, formula: impl Into<String>, value: f64, unit: &str) -> Step {
        Step {
            label: label.into(),
            formula: formula.into(),
            value: (value * 1e4).round() / 1e4,
            unit: unit.into(),
        }
    }
}

/// One card's memory for a stacked bar: the parts add up to `total_gib`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct CardMemory {
    /// The memory the model budgets against: driver-reported (planning) or CUDA total (vLLM).
    pub total_gib: f64,
    pub weights_gib: f64,
    /// Planning overhead, or activation + non-torch + CUDA graphs (vLLM).
    pub overhead_gib: f64,
    /// KV cache.
    pub kv_gib: f64,
    /// Headroom left unused (1 − utilisation, block rounding).
    pub free_gib: f64,
}

impl CardMemory {
    pub(crate) fn stacked(
        total_gib: f64,
        weights_gib: f64,
        overhead_gib: f64,
        kv_gib: f64,
    ) -> Self {
        let weights = weights_gib.max(0.0);
        let overhead = overhead_gib.max(0.0);
        let kv = kv_gib.max(0.0);
        CardMemory {
            total_gib,
            weights_gib: weights,
            overhead_gib: overhead,
            kv_gib: kv,
            free_gib: (total_gib - weights - overhead - kv).max(0.0),
        }
    }
}

/// Details only the vLLM memory model has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VllmDetails {
    /// The version the rules were chosen for, or `None` when unknown (conservative choices).
    pub version: Option<String>,
    pub max_num_batched_tokens: u64,
    /// Sequences of the profile's sampler pass (`max_num_seqs`).
    #[serde(default)]
    pub max_num_seqs: u64,
    /// The engine whose profile the prediction follows.
    #[serde(default = "default_engine")]
    pub engine: super::memory_model::VllmEngine,
    pub model_class: ModelClass,
    pub block_size_tokens: u64,
    /// Blocks every rank allocates (the minimum over ranks).
    pub num_blocks: u64,
    /// KV-cache groups of the bottleneck rank (1 unless layers of different kinds).
    pub kv_cache_groups: u32,
    pub activation_gib: f64,
    pub non_torch_gib: f64,
    /// vLLM's CUDA-graph estimate per rank.
    pub cuda_graph_gib: f64,
    /// Whether the graph estimate was subtracted from the KV budget (≥ 0.21).
    pub cuda_graphs_in_budget: bool,
    /// The pipeline stage whose rank sets the pool.
    pub bottleneck_stage: u32,
    /// Why vLLM would refuse to start, if it would.
    pub refusal: Option<String>,
}

fn default_engine() -> super::memory_model::VllmEngine {
    super::memory_model::VllmEngine::V1
}

/// Everything [`size`] computes.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SizingResult {
    pub memory_model: MemoryModel,
    pub cards: u32,
    /// Whole-model weights as budgeted, GiB.
    pub checkpoint_gib: f64,
    /// Weights one card holds, GiB (planning: the checkpoint ÷ cards of a copy; vLLM: the
    /// bottleneck rank).
    pub weights_gib_per_card: f64,
    /// KV bytes per token on one card (for sliding-window models, averaged over the context).
    pub kv_bytes_per_token_per_card: f64,
    /// KV bytes per token of the whole model on one card, every attention layer in full.
    pub kv_bytes_per_token_model: f64,
    /// KV one session of `context_tokens` holds across one copy, GiB.
    pub session_gib: f64,
    /// KV pool on one card, GiB (vLLM: "Available KV cache memory").
    pub kv_pool_gib_per_card: f64,
    /// KV pool of one copy, GiB.
    pub kv_pool_gib_per_copy: f64,
    /// What vLLM would print as "GPU KV cache size: N tokens", counting one copy.
    pub kv_cache_tokens: u64,
    /// Sessions of `context_tokens` one copy holds (vLLM's "Maximum concurrency ... x").
    pub max_concurrency: f64,
    /// Whole sessions of `context_tokens` that fit, floor, counting every copy.
    pub sessions: u64,
    /// Weights load and at least one full session fits, i.e. vLLM would start.
    pub fits: bool,
    /// The memory alone would fit (ignoring whether the card has a kernel for the format).
    pub memory_fits: bool,
    /// Decimal GB a decode step reads for the whole model.
    pub decode_read_gb_per_token: f64,
    /// Single-stream decode ceiling, tok/s (an upper bound).
    pub decode_tokens_per_s: f64,
    /// Prompt tokens per second one copy prefills (estimate).
    pub prefill_tokens_per_s: f64,
    /// Engine TTFT estimate for `prompt_tokens`, ms, when a prompt length was given.
    pub ttft_ms: Option<f64>,
    /// Utilisation applied.
    pub gpu_memory_utilization: f64,
    pub warnings: Vec<String>,
    /// The arithmetic, in order.
    pub steps: Vec<Step>,
    /// Memory of one card (the bottleneck card in vLLM mode), for a stacked bar.
    pub per_card: CardMemory,
    pub vllm: Option<VllmDetails>,
}

/// What a memory model contributes to the result.
pub(crate) struct MemoryOutcome {
    pub checkpoint_gib: f64,
    pub weights_gib_per_card: f64,
    pub kv_bytes_per_token_per_card: f64,
    pub session_gib: f64,
    pub kv_pool_gib_per_card: f64,
    pub kv_pool_gib_per_copy: f64,
    pub kv_cache_tokens: u64,
    pub max_concurrency: f64,
    pub sessions_per_copy: u64,
    pub fits: bool,
    pub utilization: f64,
    pub per_card: CardMemory,
    pub steps: Vec<Step>,
    pub warnings: Vec<String>,
    pub vllm: Option<VllmDetails>,
}

/// Sizes one configuration. Errors name the input at fault (zero cards, TP not dividing the
/// heads, negative memory, ...); a configuration that is merely too small is not an error but
/// `fits == false`.
pub fn size(input: &SizingInput) -> Result<SizingResult, SizingError> {
    let version = input.validate()?;
    let mut warnings = format_warnings(input);
    let usable = input.gpu.support_for(input.weights).is_usable();
    let mut memory = match input.memory_model {
        MemoryModel::Planning => planning::estimate(input),
        MemoryModel::Vllm => vllm::estimate(input, version),
    };
    warnings.append(&mut memory.warnings);
    let mut steps = std::mem::take(&mut memory.steps);

    let (read_gb, mut decode_steps) = decode_read(input);
    steps.append(&mut decode_steps);
    let decode =
        topology_decode_ceiling_tokens_per_s(input.gpu.bandwidth_gb_s, read_gb, &input.topology);
    steps.push(decode_step(input, read_gb, decode));

    let active_b = input.model.active_params_b();
    let tflops = input.gpu.dense_tflops_for(input.weights).unwrap_or(0.0);
    let prefill = prefill_tokens_per_s(active_b, tflops, input.topology.tp);
    let ttft_ms = input
        .prompt_tokens
        .filter(|_| prefill > 0.0)
        .map(|p| ttft_estimate_ms(p, active_b, tflops, input.topology.tp));
    if prefill > 0.0 {
        steps.push(Step::new(
            "Prefill rate (estimate)",
            format!(
                "{}{} TFLOPS × {PREFILL_EFFICIENCY} efficiency ÷ (2 × {} B active parameters)",
                tp_prefix(input.topology.tp),
                num(tflops, 0),
                num(active_b, 2)
            ),
            prefill.round(),
            "prompt tokens/s",
        ));
    }
    if let (Some(ms), Some(prompt)) = (ttft_ms, input.prompt_tokens) {
        steps.push(Step::new(
            "TTFT, engine prefill only (estimate)",
            format!(
                "{} prompt tokens ÷ {} tokens/s; queueing, network and gateway come on top",
                num(prompt as f64, 0),
                num(prefill, 0)
            ),
            ms.round(),
            "ms",
        ));
    }

    let fits = memory.fits && usable;
    let sessions = if fits {
        memory.sessions_per_copy * input.topology.copies as u64
    } else {
        0
    };
    if input.topology.copies > 1 && fits {
        steps.push(Step::new(
            "Sessions, all copies",
            format!(
                "{} per copy × {} copies",
                memory.sessions_per_copy, input.topology.copies
            ),
            sessions as f64,
            "sessions",
        ));
    }
    warnings.push(
        "Ceilings are upper bounds no system reaches; the last step is always a load test on the candidate."
            .into(),
    );

    Ok(SizingResult {
        memory_model: input.memory_model,
        cards: input.topology.cards(),
        checkpoint_gib: memory.checkpoint_gib,
        weights_gib_per_card: memory.weights_gib_per_card,
        kv_bytes_per_token_per_card: memory.kv_bytes_per_token_per_card,
        kv_bytes_per_token_model: kv_bytes_per_token_whole_model(&input.model, input.kv_dtype),
        session_gib: memory.session_gib,
        kv_pool_gib_per_card: memory.kv_pool_gib_per_card,
        kv_pool_gib_per_copy: memory.kv_pool_gib_per_copy,
        kv_cache_tokens: memory.kv_cache_tokens,
        max_concurrency: memory.max_concurrency,
        sessions,
        fits,
        memory_fits: memory.fits,
        decode_read_gb_per_token: round1(read_gb),
        decode_tokens_per_s: decode,
        prefill_tokens_per_s: prefill,
        ttft_ms,
        gpu_memory_utilization: memory.utilization,
        warnings,
        steps,
        per_card: memory.per_card,
        vllm: memory.vllm,
    })
}

fn tp_prefix(tp: u32) -> String {
    if tp > 1 {
        format!("TP {tp} × ")
    } else {
        String::new()
    }
}

fn format_warnings(input: &SizingInput) -> Vec<String> {
    let gpu = &input.gpu;
    let precision = input.weights;
    let mut out = Vec::new();
    match gpu.support_for(precision) {
        FormatSupport::Unsupported => out.push(format!(
            "{} cannot serve {} weights: vLLM has no kernel for the format on this card, so it does not fit.",
            gpu.name,
            precision.label()
        )),
        FormatSupport::WeightOnly => out.push(format!(
            "{} has no {} tensor cores: vLLM runs the weights through a weight-only (Marlin-class) kernel; memory and decode read are unchanged, prefill computes at the 16-bit rate.",
            gpu.name,
            precision.label()
        )),
        FormatSupport::Native => {}
    }
    if precision == WeightPrecision::Bf16 && !gpu.bf16 {
        out.push(format!(
            "{} has no BF16: the checkpoint runs as FP16 (same size).",
            gpu.name
        ));
    }
    if input.topology.tp > 1 && !gpu.nvlink {
        out.push(format!(
            "TP={} over PCIe without NVLink pays two all-reduces per layer per token; the TP decode ceiling is optimistic.",
            input.topology.tp
        ));
    }
    if input.model.is_moe() {
        out.push(
            "MoE decode ceiling assumes a single stream reading only its top-k experts; at moderate batch nearly every expert is read each step."
                .into(),
        );
    }
    if matches!(input.model.attention, AttentionKind::Hybrid { .. }) {
        out.push(
            "Hybrid model: only attention layers are counted; the per-request linear-attention/Mamba state is not, and parameter counts from shapes are approximate (give weights_gib_override)."
                .into(),
        );
    }
    if input.context_tokens > input.model.max_context_tokens {
        out.push(format!(
            "{} context tokens exceed the model's maximum of {}.",
            num(input.context_tokens as f64, 0),
            num(input.model.max_context_tokens as f64, 0)
        ));
    }
    out
}

fn decode_read(input: &SizingInput) -> (f64, Vec<Step>) {
    let model = &input.model;
    let precision = input.weights;
    let mut read_gb = decode_read_gb_per_token(model, precision);
    let mut steps = Vec::new();
    let params = param_breakdown(model);
    let embedding_gb = params.embedding * 2.0 / GB;
    let mut formula = if model.tied_embeddings {
        format!(
            "{} checkpoint read whole: the embeddings are tied, so lm_head is the {} GB table",
            precision.label(),
            num(embedding_gb, 2)
        )
    } else {
        format!(
            "{} checkpoint less the {} GB input-embedding table (a step reads one row of it)",
            precision.label(),
            num(embedding_gb, 2)
        )
    };
    if let Some(moe) = &model.moe {
        formula.push_str(&format!(
            "; routed experts at {}/{} (one stream reads its top-k only)",
            moe.experts_per_token, moe.experts
        ));
    }
    if let Some(override_gib) = input.weights_gib_override {
        let scale = override_gib / checkpoint_gib(model, precision);
        read_gb *= scale;
        formula.push_str(&format!(
            "; scaled by the given {} GiB of weights",
            num(override_gib, 1)
        ));
    }
    formula.push_str(&format!(
        " = {} → {} GB",
        num(read_gb, 2),
        num(round1(read_gb), 1)
    ));
    steps.push(Step::new(
        "Bytes read per decode step",
        formula,
        round1(read_gb),
        "GB",
    ));
    (read_gb, steps)
}

fn decode_step(input: &SizingInput, read_gb: f64, decode: f64) -> Step {
    let t = &input.topology;
    let mut formula = format!(
        "{}{} GB/s ÷ {} GB",
        tp_prefix(t.tp),
        num(input.gpu.bandwidth_gb_s, 0),
        num(round1(read_gb), 1)
    );
    if t.pp > 1 {
        formula.push_str("; pipeline stages run in turn and do not raise it");
    }
    formula.push_str("; an upper bound, confirm with a load test");
    Step::new("Decode ceiling, one stream", formula, decode, "tok/s")
}

pub use crate::format::num;

/// GiB shown with two decimals (budget arithmetic in steps).
pub(crate) fn gib2(value: f64) -> String {
    num(round2(value), 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::gpu::gpu_by_id;
    use crate::sizing::model::model_by_id;

    fn llama_on(gpu: &str, memory_model: MemoryModel) -> SizingInput {
        SizingInput::new(
            model_by_id("llama-3.3-70b").unwrap(),
            WeightPrecision::Fp8,
            KvDtype::Fp8,
            gpu_by_id(gpu).unwrap(),
            Topology::single(),
            8_192,
            memory_model,
        )
    }

    #[test]
    fn numbers_are_grouped_for_people() {
        assert_eq!(num(97_887.0, 0), "97,887");
        assert_eq!(num(1_234_567.891, 2), "1,234,567.89");
        assert_eq!(num(-2.14, 2), "-2.14");
        assert_eq!(num(0.0, 1), "0.0");
    }

    #[test]
    fn bad_inputs_are_named() {
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.topology = Topology::new(2, 1, 0);
        assert!(size(&input).unwrap_err().to_string().contains("at least 1"));
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.topology = Topology::new(3, 1, 1);
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .contains("TP=3 does not divide")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.gpu.memory_driver_gib = -1.0;
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("memory_driver_gib:")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.context_tokens = 0;
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("context_tokens:")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Vllm);
        input.gpu_memory_utilization = Some(1.2);
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("gpu_memory_utilization:")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Vllm);
        input.vllm_version = Some("nightly".into());
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("vllm_version:")
        );
        let err = SizingInput::from_ids(
            "llama-3.3-70b",
            WeightPrecision::Fp8,
            KvDtype::Fp8,
            "tpu-v5",
            Topology::single(),
            8_192,
            MemoryModel::Planning,
        )
        .unwrap_err();
        assert_eq!(err, SizingError::UnknownGpu("tpu-v5".into()));
    }

    #[test]
    fn a_format_without_kernels_does_not_fit() {
        let mut input = llama_on("v100-sxm2-32gb", MemoryModel::Planning);
        input.model = model_by_id("qwen2.5-7b").unwrap();
        let result = size(&input).unwrap();
        assert!(!result.fits);
        assert_eq!(result.sessions, 0);
        assert!(
            result.warnings[0].contains("no kernel"),
            "{:?}",
            result.warnings
        );
    }

    #[test]
    fn results_survive_json() {
        for model in [MemoryModel::Planning, MemoryModel::Vllm] {
            let mut input = llama_on("rtx-pro-6000-server", model);
            input.prompt_tokens = Some(2_000);
            let result = size(&input).unwrap();
            let json = serde_json::to_string(&result).unwrap();
            let back: SizingResult = serde_json::from_str(&json).unwrap();
            assert_eq!(back, result);
            let input_json = serde_json::to_string(&input).unwrap();
            let input_back: SizingInput = serde_json::from_str(&input_json).unwrap();
            assert_eq!(input_back, input);
        }
    }

    #[test]
    fn the_stacked_bar_adds_up() {
        for model in [MemoryModel::Planning, MemoryModel::Vllm] {
            let result = size(&llama_on("h200-nvl", model)).unwrap();
            let bar = &result.per_card;
            let sum = bar.weights_gib + bar.overhead_gib + bar.kv_gib + bar.free_gib;
            assert!((sum - bar.total_gib).abs() < 1e-6, "{model}: {bar:?}");
        }
    }
}
