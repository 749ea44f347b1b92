//! The terms both memory models work in ([`super::planning`], [`super::vllm`]): the sizing
//! question, a step of the arithmetic, one card's memory, what a memory model answers.
//!
//! Why a module of their own: [`super::estimate`] runs a memory model and the memory models use
//! these terms; kept in `estimate`, the two would import each other.

use super::gpu::GpuSpec;
use super::memory_model::{MemoryModel, VllmVersion};
use super::model::{ModelClass, ModelSpec};
use super::precision::{KvDtype, WeightPrecision};
use super::topology::Topology;
use super::{SizingError, num_de, round2};
use crate::locale::Lang;
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
            return Err(SizingError::input_in(
                "context_tokens",
                "must be at least 1 token",
                "muss mindestens 1 Token betragen",
            ));
        }
        if let Some(util) = self.gpu_memory_utilization
            && !(util > 0.0 && util <= 1.0)
        {
            return Err(SizingError::input_in(
                "gpu_memory_utilization",
                format!("must be in (0, 1], got {util}"),
                format!("muss in (0; 1] liegen, erhalten: {}", num_de(util)),
            ));
        }
        if let Some(gib) = self.weights_gib_override
            && !(gib.is_finite() && gib > 0.0)
        {
            return Err(SizingError::input_in(
                "weights_gib_override",
                format!("must be a positive number of GiB, got {gib}"),
                format!(
                    "muss eine positive Anzahl GiB sein, erhalten: {}",
                    num_de(gib)
                ),
            ));
        }
        if let Some(gib) = self.planning_overhead_gib
            && !(gib.is_finite() && gib >= 0.0)
        {
            return Err(SizingError::input_in(
                "planning_overhead_gib",
                format!("must be zero or more GiB, got {gib}"),
                format!(
                    "muss null oder mehr GiB betragen, erhalten: {}",
                    num_de(gib)
                ),
            ));
        }
        if self.max_num_batched_tokens == Some(0) {
            return Err(SizingError::input_in(
                "max_num_batched_tokens",
                "must be at least 1",
                "muss mindestens 1 sein",
            ));
        }
        if self.max_num_seqs == Some(0) {
            return Err(SizingError::input_in(
                "max_num_seqs",
                "must be at least 1",
                "muss mindestens 1 sein",
            ));
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

pub use crate::format::{num, num_in};

/// GiB shown with two decimals (budget arithmetic in steps).
pub(crate) fn gib2(value: f64) -> String {
    num(round2(value), 2)
}

/// [`gib2`] in `lang`: `83.04` / `83,04`.
pub(crate) fn gib2_in(value: f64, lang: Lang) -> String {
    num_in(round2(value), 2, lang)
}

/// A value as Rust writes it (`0.9`, shortest form) in `lang` (`0,9`): for factors a person
/// typed or a constant, whose decimals are their own.
pub(crate) fn plain_in(value: f64, lang: Lang) -> String {
    lang.separators(&value.to_string())
}
