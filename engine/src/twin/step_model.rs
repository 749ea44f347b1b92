//! The step model: what one vLLM scheduler step costs on one serving configuration (GPU × model
//! × precision × KV dtype × TP/PP × execution mode × engine generation), term by term, and the
//! physical floor no prediction may go below.
//!
//! # Why term by term
//!
//! A fitted step cost ([`StepCost`]) mixes what belongs to the hardware (bytes streamed, FLOPs,
//! interconnect, kernel launches in an execution mode) with what belongs to the software (the
//! engine's scheduling and sampling per step). Carried to another card as one number it carries
//! the wrong part: an eager V100 engine's host time made a CUDA-graph H200 look 2.5× slower
//! than it is, and a fit faster than its own card's bandwidth made an H200 look three times
//! faster than it can read its weights (issue #39). So each term is priced from the work and
//! the card, the pilot's fit calibrates them ([`super::transfer`]), and every transferred
//! coefficient is held at or above the [`StepFloor`]: the same work at 100 % of the card's
//! published bandwidth and dense compute, with no host time at all.
//!
//! # The terms of one step (decoding `b` sequences holding `c` context tokens, prefilling `p`)
//!
//! | term | formula | per |
//! |---|---|---|
//! | weights | bytes read per step ÷ (TP × bandwidth × η_bw) | step |
//! | KV cache | KV bytes per context token ÷ (TP × bandwidth × η_bw) | context token held |
//! | decode compute | 2 × active parameters ÷ (TP × dense FLOP/s × η_fl) | decoding sequence |
//! | prefill compute | 2 × active parameters ÷ (TP × dense FLOP/s × η_fl) | prompt token |
//! | communication | 2 all-reduces per layer (TP > 1) + one hand-off per stage boundary | step |
//! | kernel launches | layers × launch time per layer in the execution mode | step |
//! | engine | scheduling, input preparation, sampling of the engine generation | step |
//!
//! Dense FLOP/s is the card's rate in the precision the matmuls run in: the weights' own where
//! the card has tensor cores for it, 16-bit where vLLM runs it weight-only, and 16-bit for MXFP4
//! everywhere (gpt-oss's experts are multiplied with 16-bit activations and its attention is
//! BF16, so a B200's FP4 peak, four times its BF16 rate, is never reached).
//!
//! # Priors, with their figures and sources
//!
//! Every η and overhead is a prior, given at the fast, central and slow ends of a range; a load
//! test of the pilot calibrates them on its own configuration, and a load test on the
//! candidate replaces them.
//!
//! | prior | fast / central / slow | source |
//! |---|---|---|
//! | η_bw, NVIDIA HBM | 0.92 / 0.87 / 0.75 | measured by the project on an H200 (`bench/gpu/step_cost.py`, `engine/data/step_measurements/h200-sxm.json`): a 4 GiB device copy moved 4,192 GB/s of the 4,800 published (0.873); a BF16 Llama-3.3-70B decode step (40 of 80 layers built, 70.6 GB) read at 3,940 GB/s including its launches; the slow end allows older HBM2 parts |
//! | η_bw, NVIDIA GDDR | 0.85 / 0.78 / 0.65 | prior: GDDR streams reach a little less of the data-sheet figure than HBM |
//! | η_bw, unified LPDDR (DGX Spark) | 0.85 / 0.70 / 0.55 | prior: memory shared with the CPU |
//! | η_bw, AMD Instinct (ROCm) | 0.80 / 0.65 / 0.45 | prior: less mature decode kernels than CUDA's |
//! | η_fl, NVIDIA (dense tensor peak) | 0.65 / 0.57 / 0.45 | measured on the H200: prefill of 8,192 tokens of Qwen2.5-7B in 214.5 ms (≈ 560 TFLOP/s of 990, 0.57) and of the Llama-3.3-70B layers in 1,008 ms (≈ 600, 0.61); an 8192³ BF16 product ran at 747 (0.75), the ceiling of any real prefill |
//! | η_fl, AMD | 0.50 / 0.40 / 0.30 | prior |
//! | launch per layer, CUDA graphs | 25 / 40 / 55 µs | measured on the H200: a decode step replayed as a CUDA graph took 27 µs (70B layers), 41 µs (Llama-3.1-8B) and 49 µs (Qwen2.5-7B) per layer beyond its bytes at the copy bandwidth (small matrices use the memory less well, and each layer's ~10 kernels leave gaps) |
//! | launch per layer, eager | 40 / 100 / 250 µs | measured on the H200: the same step dispatched kernel by kernel from Python took 37 µs (Llama-3.1-8B) to 126 µs (Qwen2.5-7B) per layer more than its graph; vLLM's eager path dispatches more kernels per layer (rotary, cache write, norms), so the central figure sits above the measurement |
//! | engine per step, vLLM V1 | 0.2 / 0.5 / 1.0 ms | prior: scheduling and sampling of V1 run largely off the GPU's critical path; the measured Qwen2.5-7B graph step (4.74 ms) against a real vLLM's ≈ 5 ms (issue #39) leaves well under a millisecond |
//! | engine per step, vLLM V0 | 1 / 3 / 8 ms | prior: V0 schedules, prepares inputs and (with TP) broadcasts them to every worker on the critical path; the benchmark report's V100 engine (V0, TP=4, eager) spends ≈ 21 ms a step outside the work |
//! | all-reduce, NVLink / PCIe | 4 / 8 / 12 µs, 6 / 12 / 19 µs | prior; 160 small PCIe all-reduces ≈ 1–3 ms per token |
//! | pipeline hand-off | 10 / 20 / 40 µs per stage boundary | prior |
//!
//! The floor uses η = 1 and no launches, engine or communication: a figure below it would need
//! a card faster than its data sheet.

use crate::sizing::kv_cache::kv_bytes_per_token_per_card;
use crate::sizing::weights::{
    ParamBreakdown, bytes_of, decode_read_gb_per_token, param_breakdown, published_checkpoint_gib,
};
use crate::sizing::{GIB, GpuSpec, KvDtype, ModelSpec, Topology, WeightPrecision};
use serde::{Deserialize, Serialize};

/// Whether the engine replays CUDA graphs or dispatches every kernel (`--enforce-eager`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Execution {
    Eager,
    CudaGraphs,
}

impl Execution {
    /// `Eager` when the run context says CUDA graphs were off, else `CudaGraphs` (vLLM's default).
    pub fn from_cuda_graphs(cuda_graphs: Option<bool>) -> Self {
        match cuda_graphs {
            Some(false) => Execution::Eager,
            _ => Execution::CudaGraphs,
        }
    }
}

/// One copy of a serving configuration: the card, the split, the formats and the execution mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServingSetup {
    pub gpu: GpuSpec,
    /// Tensor-parallel size.
    pub tp: u32,
    /// Pipeline stages.
    pub pp: u32,
    pub weights: WeightPrecision,
    pub kv_dtype: KvDtype,
    pub execution: Execution,
}

impl ServingSetup {
    pub(crate) fn topology(&self) -> Topology {
        Topology::new(self.tp.max(1), self.pp.max(1), 1)
    }

    /// `4 × Tesla V100-SXM2-16GB (TP=4), FP16 weights, 16-bit KV cache, eager`.
    pub fn label(&self) -> String {
        format!(
            "{} × {} ({}), {} weights, {} KV cache, {}",
            self.tp.max(1) * self.pp.max(1),
            self.gpu.name,
            self.topology().label(),
            self.weights.label(),
            self.kv_dtype.label(),
            match self.execution {
                Execution::Eager => "eager",
                Execution::CudaGraphs => "CUDA graphs",
            }
        )
    }

    pub(crate) fn same_as(&self, other: &ServingSetup) -> bool {
        self.gpu.id.eq_ignore_ascii_case(&other.gpu.id)
            && self.tp.max(1) == other.tp.max(1)
            && self.pp.max(1) == other.pp.max(1)
            && self.weights == other.weights
            && self.kv_dtype == other.kv_dtype
            && self.execution == other.execution
    }
}

/// Card families whose kernels reach similar shares of their peak figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuFamily {
    /// NVIDIA data-centre cards with HBM (V100, A100, H100, H200, B200).
    NvidiaHbm,
    /// NVIDIA cards with GDDR (L4, L40S, A10, RTX).
    NvidiaGddr,
    /// NVIDIA with memory shared with the CPU (DGX Spark).
    NvidiaUnified,
    /// AMD Instinct on ROCm (MI300X).
    AmdInstinct,
}

impl GpuFamily {
    /// The family of a catalog card: AMD by vendor, unified memory by flag, HBM by its
    /// marketed memory.
    pub fn of(gpu: &GpuSpec) -> GpuFamily {
        if gpu.vendor.eq_ignore_ascii_case("amd") {
            GpuFamily::AmdInstinct
        } else if gpu.unified_memory {
            GpuFamily::NvidiaUnified
        } else if gpu.memory_marketed.to_ascii_uppercase().contains("HBM") {
            GpuFamily::NvidiaHbm
        } else {
            GpuFamily::NvidiaGddr
        }
    }

    /// Share of peak bandwidth decode reaches, at `end` (module docs).
    pub fn bandwidth_efficiency(self, end: RangeEnd) -> f64 {
        bandwidth_efficiency(self, end)
    }

    /// Share of dense peak compute prefill reaches, at `end` (module docs).
    pub fn compute_efficiency(self, end: RangeEnd) -> f64 {
        compute_efficiency(self, end)
    }
}

/// An end of a transferred figure's range: the fast (low latency), central or slow prior.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangeEnd {
    Low,
    Central,
    High,
}

impl RangeEnd {
    pub const ALL: [RangeEnd; 3] = [RangeEnd::Low, RangeEnd::Central, RangeEnd::High];

    pub(crate) fn pick(self, low: f64, central: f64, high: f64) -> f64 {
        match self {
            RangeEnd::Low => low,
            RangeEnd::Central => central,
            RangeEnd::High => high,
        }
    }
}

/// The vLLM engine a card runs: V1 needs compute capability 8.0 (Ampere) or newer; Volta and
/// Turing stay on V0 (benchmark report, seed). AMD cards run V1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineGeneration {
    V0,
    V1,
}

impl EngineGeneration {
    pub fn of(gpu: &GpuSpec) -> EngineGeneration {
        let major = gpu
            .compute_capability
            .as_deref()
            .and_then(|c| c.split('.').next()?.trim().parse::<u32>().ok());
        match major {
            Some(m) if m < 8 => EngineGeneration::V0,
            _ => EngineGeneration::V1,
        }
    }
}

/// Why a candidate cannot be priced from the evidence.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TransferError {
    #[error("{gpu} has no {precision} kernel in vLLM, so nothing can be said about its speed")]
    FormatUnsupported { gpu: String, precision: String },
    #[error("{0} states no dense compute figure, so its prefill cannot be priced")]
    NoComputeFigure(String),
    #[error("{0} states no memory bandwidth, so its decode cannot be priced")]
    NoBandwidth(String),
    #[error("{0}")]
    Split(String),
    #[error("memory: {0}")]
    Memory(String),
}

/// The work of one step on one copy, as the card prices it (no launches or engine time).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepPhysics {
    /// Weights read once per step, ms.
    pub weights_ms: f64,
    /// All-reduces and stage hand-offs per step, ms.
    pub communication_ms: f64,
    /// Matmul compute of one decoding sequence's token, ms.
    pub compute_per_sequence_ms: f64,
    /// KV read per context token held, µs.
    pub kv_per_context_token_us: f64,
    /// Prefill compute per prompt token, µs.
    pub prefill_per_token_us: f64,
    /// MoE only: reading the routed experts one token leaves unread, ms (what a batch that
    /// touches every expert adds to `weights_ms`); 0 for dense models.
    #[serde(default)]
    pub expert_fill_ms: f64,
}

/// Share of peak bandwidth decode reaches, at `end` (module docs).
pub fn bandwidth_efficiency(family: GpuFamily, end: RangeEnd) -> f64 {
    let [fast, central, slow] = match family {
        GpuFamily::NvidiaHbm => [0.92, 0.87, 0.75],
        GpuFamily::NvidiaGddr => [0.85, 0.78, 0.65],
        GpuFamily::NvidiaUnified => [0.85, 0.70, 0.55],
        GpuFamily::AmdInstinct => [0.80, 0.65, 0.45],
    };
    end.pick(fast, central, slow)
}

/// Share of dense peak compute prefill reaches, at `end` (module docs).
pub fn compute_efficiency(family: GpuFamily, end: RangeEnd) -> f64 {
    match family {
        GpuFamily::AmdInstinct => end.pick(0.50, 0.40, 0.30),
        _ => end.pick(0.65, 0.57, 0.45),
    }
}

/// Kernel launch time per decoder layer in an execution mode, µs (module docs).
pub fn launch_us_per_layer(execution: Execution, end: RangeEnd) -> f64 {
    match execution {
        Execution::CudaGraphs => end.pick(25.0, 40.0, 55.0),
        Execution::Eager => end.pick(40.0, 100.0, 250.0),
    }
}

/// The engine's own time per step (scheduling, inputs, sampling), ms (module docs).
pub fn engine_step_ms(generation: EngineGeneration, end: RangeEnd) -> f64 {
    match generation {
        EngineGeneration::V1 => end.pick(0.2, 0.5, 1.0),
        EngineGeneration::V0 => end.pick(1.0, 3.0, 8.0),
    }
}

/// Host time of one step of `model` on `setup` by the priors alone: launches in its execution
/// mode plus its engine generation's time per step, ms.
pub fn host_prior_ms(model: &ModelSpec, setup: &ServingSetup, end: RangeEnd) -> f64 {
    let generation = EngineGeneration::of(&setup.gpu);
    f64::from(model.layers) * launch_us_per_layer(setup.execution, end) / 1e3
        + engine_step_ms(generation, end)
}

/// All-reduce latency per call, µs: NVLink or PCIe (module docs).
fn all_reduce_us(gpu: &GpuSpec, end: RangeEnd) -> f64 {
    if gpu.nvlink {
        end.pick(4.0, 8.0, 12.0)
    } else {
        end.pick(6.0, 12.0, 19.0)
    }
}

/// Pipeline hand-off per stage boundary, µs (module docs).
fn stage_handoff_us(end: RangeEnd) -> f64 {
    end.pick(10.0, 20.0, 40.0)
}

/// The precision the matmuls of a step run in for `weights`. MXFP4 checkpoints (gpt-oss) quantise
/// the routed experts only, and vLLM's MXFP4 MoE kernels multiply them with 16-bit activations
/// (W4A16: dequantised in Marlin or Triton kernels, and on Blackwell by FlashInfer with BF16
/// activations by default), while attention and the dense layers stay BF16: the step computes
/// at the card's 16-bit rate, not its FP4 peak (four times higher on a B200). Every other format
/// computes in its own precision where the card runs it natively.
fn compute_precision(weights: WeightPrecision) -> WeightPrecision {
    match weights {
        WeightPrecision::Mxfp4 => WeightPrecision::Bf16,
        other => other,
    }
}

/// The card's usable figures for `setup`: bandwidth (GB/s) and dense FLOP/s in the precision.
fn card_figures(setup: &ServingSetup) -> Result<(f64, f64), TransferError> {
    let gpu = &setup.gpu;
    if !gpu.support_for(setup.weights).is_usable() {
        return Err(TransferError::FormatUnsupported {
            gpu: gpu.name.clone(),
            precision: setup.weights.label().to_string(),
        });
    }
    if !(gpu.bandwidth_gb_s.is_finite() && gpu.bandwidth_gb_s > 0.0) {
        return Err(TransferError::NoBandwidth(gpu.name.clone()));
    }
    let tflops = gpu
        .dense_tflops_for(compute_precision(setup.weights))
        .filter(|t| t.is_finite() && *t > 0.0)
        .ok_or_else(|| TransferError::NoComputeFigure(gpu.name.clone()))?;
    Ok((gpu.bandwidth_gb_s, tflops))
}

/// The physics of one step of `model` on `setup`, at `end` of the priors.
pub fn step_physics(
    model: &ModelSpec,
    setup: &ServingSetup,
    context_tokens: u64,
    end: RangeEnd,
) -> Result<StepPhysics, TransferError> {
    let family = GpuFamily::of(&setup.gpu);
    let mut physics = physics_at(
        model,
        setup,
        context_tokens,
        bandwidth_efficiency(family, end),
        compute_efficiency(family, end),
    )?;
    let topology = setup.topology();
    let all_reduces = if topology.tp > 1 {
        2.0 * f64::from(model.layers) * all_reduce_us(&setup.gpu, end)
    } else {
        0.0
    };
    let handoffs = f64::from(topology.pp - 1) * stage_handoff_us(end);
    physics.communication_ms = (all_reduces + handoffs) / 1e3;
    Ok(physics)
}

/// The work of one step at the given shares of bandwidth and compute, without communication.
fn physics_at(
    model: &ModelSpec,
    setup: &ServingSetup,
    context_tokens: u64,
    bandwidth_share: f64,
    compute_share: f64,
) -> Result<StepPhysics, TransferError> {
    let (bandwidth_gb_s, tflops) = card_figures(setup)?;
    let topology = setup.topology();
    topology
        .validate(model)
        .map_err(|e| TransferError::Split(e.to_string()))?;
    let tp = f64::from(topology.tp);
    // Bytes per second one TP group streams; stages run one after the other for one token.
    let group_bytes_per_s = tp * bandwidth_gb_s * 1e9 * bandwidth_share;
    let flops_per_s = tp * tflops * 1e12 * compute_share;
    let kv_copy_bytes =
        kv_bytes_per_token_per_card(model, setup.kv_dtype, &topology, context_tokens)
            * f64::from(topology.cards_per_copy());
    let flops_per_token = 2.0 * model.active_params_b() * 1e9;
    let unread_gb = routed_experts_unread_gb(model, setup.weights);
    Ok(StepPhysics {
        weights_ms: decode_read_gb_per_token(model, setup.weights) * 1e9 / group_bytes_per_s * 1e3,
        communication_ms: 0.0,
        compute_per_sequence_ms: flops_per_token / flops_per_s * 1e3,
        kv_per_context_token_us: kv_copy_bytes / group_bytes_per_s * 1e6,
        prefill_per_token_us: flops_per_token / flops_per_s * 1e6,
        expert_fill_ms: unread_gb * 1e9 / group_bytes_per_s * 1e3,
    })
}

/// The routed experts a single token leaves unread, decimal GB for the whole model (scaled
/// like [`decode_read_gb_per_token`] where a published checkpoint differs from the shapes); 0
/// for dense models.
fn routed_experts_unread_gb(model: &ModelSpec, weights: WeightPrecision) -> f64 {
    let params = param_breakdown(model);
    let share = params.routed_fraction_read;
    if !model.is_moe() || params.routed_experts <= 0.0 || !(share > 0.0 && share < 1.0) {
        return 0.0;
    }
    let routed = ParamBreakdown {
        routed_experts: params.routed_experts,
        routed_fraction_read: share,
        ..ParamBreakdown::default()
    };
    let scale = published_checkpoint_gib(model, weights)
        .map(|gib| gib * GIB / bytes_of(model, &params, weights))
        .unwrap_or(1.0);
    bytes_of(model, &routed, weights) * (1.0 - share) * scale / 1e9
}

/// The share of the routed experts one token of `model` reads (top-k ÷ experts), which sets how
/// fast a batch's expert read saturates (module docs of [`super::timing`], "Expert reads");
/// `None` for dense models.
pub fn expert_share(model: &ModelSpec) -> Option<f64> {
    let moe = model.moe.as_ref()?;
    let share = f64::from(moe.experts_per_token) / f64::from(moe.experts.max(1));
    (share > 0.0 && share < 1.0).then_some(share)
}

/// What the card cannot beat: the step's work at 100 % of its published bandwidth and dense
/// compute, without launches, engine time or communication (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StepFloor {
    /// Weights read per step at the published bandwidth, ms: no TPOT or ITL is shorter.
    pub weights_ms: f64,
    /// KV read per context token at the published bandwidth, µs.
    pub kv_per_context_token_us: f64,
    /// Compute of one decoding sequence's token at the dense peak, ms.
    pub compute_per_sequence_ms: f64,
    /// Compute of one prompt token at the dense peak, µs: no TTFT is shorter than the prompt
    /// times this.
    pub prefill_per_token_us: f64,
}

impl StepFloor {
    /// The floor of `model` on `setup` (errors as [`step_physics`]).
    pub fn of(model: &ModelSpec, setup: &ServingSetup) -> Result<StepFloor, TransferError> {
        let p = physics_at(model, setup, 0, 1.0, 1.0)?;
        Ok(StepFloor {
            weights_ms: p.weights_ms,
            kv_per_context_token_us: p.kv_per_context_token_us,
            compute_per_sequence_ms: p.compute_per_sequence_ms,
            prefill_per_token_us: p.prefill_per_token_us,
        })
    }

    /// The shortest possible time per output token, ms (one stream, no context).
    pub fn tpot_ms(&self) -> f64 {
        self.weights_ms
    }

    /// The most tokens per second one stream can get: 1000 ÷ [`StepFloor::tpot_ms`].
    pub fn decode_ceiling_tok_s(&self) -> f64 {
        if self.weights_ms > 0.0 {
            1000.0 / self.weights_ms
        } else {
            f64::INFINITY
        }
    }

    /// The shortest possible time to first token of a `prompt_tokens` prompt, ms.
    pub fn ttft_ms(&self, prompt_tokens: f64) -> f64 {
        prompt_tokens.max(0.0) * self.prefill_per_token_us / 1e3
    }

    /// `step` with every coefficient raised to at least the floor's (nothing else changed).
    pub fn hold(&self, step: super::timing::StepCost) -> super::timing::StepCost {
        super::timing::StepCost {
            base_ms: step.base_ms.max(self.weights_ms),
            per_sequence_ms: step.per_sequence_ms.max(self.compute_per_sequence_ms),
            per_context_token_us: step.per_context_token_us.max(self.kv_per_context_token_us),
            per_prefill_token_us: step.per_prefill_token_us.max(self.prefill_per_token_us),
            ..step
        }
    }
}

/// One configuration's step terms at the three ends of the priors, for `server size
/// --explain-step`: each term in ms per step (or per unit), and the floor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepExplanation {
    pub configuration: String,
    pub context_tokens: u64,
    pub floor: StepFloor,
    /// Fast, central and slow ends, in that order.
    pub ends: Vec<(RangeEnd, StepPhysics, f64)>,
}

/// The step terms of `model` on `setup` at `context_tokens` (see [`StepExplanation`]).
pub fn explain(
    model: &ModelSpec,
    setup: &ServingSetup,
    context_tokens: u64,
) -> Result<StepExplanation, TransferError> {
    let floor = StepFloor::of(model, setup)?;
    let mut ends = Vec::with_capacity(3);
    for end in RangeEnd::ALL {
        let physics = step_physics(model, setup, context_tokens, end)?;
        ends.push((end, physics, host_prior_ms(model, setup, end)));
    }
    Ok(StepExplanation {
        configuration: setup.label(),
        context_tokens,
        floor,
        ends,
    })
}

impl StepExplanation {
    /// The explanation as lines of text, term by term, fast / central / slow.
    pub fn lines(&self) -> Vec<String> {
        let pick = |f: &dyn Fn(&StepPhysics, f64) -> f64| {
            self.ends
                .iter()
                .map(|(_, p, host)| format!("{:.3}", f(p, *host)))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let context = self.context_tokens as f64;
        vec![
            format!(
                "Step model of {} at {} context tokens (fast / central / slow priors):",
                self.configuration, self.context_tokens
            ),
            format!(
                "  weights read per step           {} ms",
                pick(&|p, _| p.weights_ms)
            ),
            format!(
                "  KV read per context token       {} µs",
                pick(&|p, _| p.kv_per_context_token_us)
            ),
            format!(
                "  compute per decoding sequence   {} ms",
                pick(&|p, _| p.compute_per_sequence_ms)
            ),
            format!(
                "  prefill compute per prompt token {} µs",
                pick(&|p, _| p.prefill_per_token_us)
            ),
            format!(
                "  communication per step          {} ms",
                pick(&|p, _| p.communication_ms)
            ),
            format!(
                "  launches + engine per step      {} ms",
                pick(&|_, host| host)
            ),
            format!(
                "  one stream's step at this context {} ms",
                pick(&|p, host| p.weights_ms
                    + p.communication_ms
                    + host
                    + p.compute_per_sequence_ms
                    + context * p.kv_per_context_token_us / 1e3)
            ),
            format!(
                "Floor (100 % of published bandwidth and compute, nothing else): TPOT ≥ {:.3} ms, decode ceiling {:.1} tok/s per stream, prefill ≥ {:.3} µs per prompt token.",
                self.floor.tpot_ms(),
                self.floor.decode_ceiling_tok_s(),
                self.floor.prefill_per_token_us
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! The invariants of issue #39 over the whole catalog × model list: no transferred
    //! coefficient and no end of a predicted range below the card's physical floor; a faster
    //! card never predicted slower. Both the pilot's demo twin and the no-load-test prior are
    //! carried to every (GPU, model, precision, TP, execution mode) that vLLM can run.
    use super::*;
    use crate::sizing::{KvDtype, WeightPrecision, gpus, model_by_id, models};
    use crate::twin::Question;
    use crate::twin::transfer::tests::demo_twin;
    use crate::twin::transfer::{TransferredTwin, predict_transferred, prior_twin, transfer};

    fn pilot() -> ServingSetup {
        ServingSetup {
            gpu: crate::sizing::gpu_by_id("v100-sxm2-16gb").unwrap(),
            tp: 4,
            pp: 1,
            weights: WeightPrecision::Fp16,
            kv_dtype: KvDtype::Bits16,
            execution: Execution::Eager,
        }
    }

    /// Every configuration vLLM can run: each catalog GPU and model, each usable precision,
    /// TP 1, 2, 4 and 8 where the split is valid, both execution modes.
    fn every_configuration() -> Vec<(ModelSpec, ServingSetup)> {
        let mut out = Vec::new();
        for model in models() {
            for gpu in gpus() {
                for weights in [
                    WeightPrecision::Bf16,
                    WeightPrecision::Fp8,
                    WeightPrecision::Nvfp4,
                ] {
                    if !gpu.support_for(weights).is_usable() {
                        continue;
                    }
                    for tp in [1, 2, 4, 8] {
                        for execution in [Execution::CudaGraphs, Execution::Eager] {
                            let setup = ServingSetup {
                                gpu: gpu.clone(),
                                tp,
                                pp: 1,
                                weights,
                                kv_dtype: KvDtype::Bits16,
                                execution,
                            };
                            if setup.topology().validate(&model).is_ok() {
                                out.push((model.clone(), setup));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn check_coefficients(twin: &TransferredTwin, floor: &StepFloor, what: &str) {
        for model in [&twin.low, &twin.central, &twin.high] {
            let s = model.step;
            assert!(
                s.base_ms >= floor.weights_ms,
                "{what}: base {s:?} < {floor:?}"
            );
            assert!(
                s.per_context_token_us >= floor.kv_per_context_token_us,
                "{what}"
            );
            assert!(s.per_sequence_ms >= floor.compute_per_sequence_ms, "{what}");
            assert!(
                s.per_prefill_token_us >= floor.prefill_per_token_us,
                "{what}"
            );
        }
    }

    #[test]
    fn no_transferred_step_of_any_catalog_configuration_is_below_its_floor() {
        let twin = demo_twin();
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let configurations = every_configuration();
        assert!(configurations.len() > 500, "{}", configurations.len());
        for (model, setup) in &configurations {
            let floor = StepFloor::of(model, setup).unwrap();
            let what = format!("{} on {}", model.id, setup.label());
            let prior = prior_twin(model, setup, None, 4096).unwrap();
            check_coefficients(&prior, &floor, &what);
            if model.id == qwen.id {
                let moved = transfer(&twin, &qwen, &pilot(), setup, None, 4096).unwrap();
                check_coefficients(&moved, &floor, &what);
            }
        }
    }

    #[test]
    fn no_end_of_a_predicted_range_passes_the_cards_physics() {
        // One stream and a loaded engine, on a sample of configurations (a simulation each).
        let configurations = every_configuration();
        for (model, setup) in configurations.iter().step_by(7) {
            let floor = StepFloor::of(model, setup).unwrap();
            let prior = prior_twin(model, setup, None, 4096).unwrap();
            for concurrency in [1, 16] {
                let mut question = Question::concurrency(concurrency);
                question.prompt_tokens = Some(512);
                question.output_tokens = Some(128);
                question.requests = Some(120);
                let p = predict_transferred(&prior, &question);
                let what = format!("{} on {} at {concurrency}", model.id, setup.label());
                for r in [p.tpot_ms.p50, p.tpot_ms.p99, p.itl_ms.p50, p.itl_ms.p99] {
                    assert!(
                        r.low >= floor.tpot_ms() - 1e-9,
                        "{what}: {r:?} vs {floor:?}"
                    );
                }
                for r in [p.ttft_ms.p50, p.ttft_ms.p99] {
                    assert!(r.low >= floor.ttft_ms(512.0) - 1e-9, "{what}: TTFT {r:?}");
                }
                let speed = p.tokens_per_s_per_stream;
                assert!(
                    speed.high <= floor.decode_ceiling_tok_s() + 1e-9,
                    "{what}: {speed:?} above the ceiling {}",
                    floor.decode_ceiling_tok_s()
                );
            }
        }
    }

    #[test]
    fn a_faster_card_is_never_predicted_slower() {
        // The same card with 25 % more bandwidth, everything else equal.
        let twin = demo_twin();
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        for gpu in gpus() {
            let setup = ServingSetup {
                gpu: gpu.clone(),
                tp: 1,
                pp: 1,
                weights: WeightPrecision::Bf16,
                kv_dtype: KvDtype::Bits16,
                execution: Execution::CudaGraphs,
            };
            if !gpu.support_for(WeightPrecision::Bf16).is_usable()
                || setup.topology().validate(&qwen).is_err()
                || gpu.dense_tflops_for(WeightPrecision::Bf16).is_none()
            {
                continue;
            }
            let mut faster = setup.clone();
            faster.gpu.bandwidth_gb_s *= 1.25;
            let mut question = Question::concurrency(4);
            question.requests = Some(200);
            let at = |s: &ServingSetup| {
                let moved = transfer(&twin, &qwen, &pilot(), s, None, 4096).unwrap();
                predict_transferred(&moved, &question).tpot_ms.p50
            };
            let (slow, fast) = (at(&setup), at(&faster));
            assert!(
                fast.value <= slow.value + 1e-9,
                "{}: {fast:?} vs {slow:?}",
                gpu.id
            );
            assert!(fast.low <= slow.low + 1e-9, "{}", gpu.id);
            assert!(fast.high <= slow.high + 1e-9, "{}", gpu.id);
        }
    }

    #[test]
    fn the_demo_carried_to_one_h200_decodes_near_the_measured_cuda_graph_step() {
        // Issue #39: 12.8 ms from the eager V100 engine; a CUDA-graph decode step of this shape
        // measured 4.74 ms on a real H200 (engine/data/step_measurements/h200-sxm.json), and
        // vLLM runs near that. The V100's eager host time must not reach the candidate.
        let twin = demo_twin();
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let h200 = ServingSetup {
            gpu: crate::sizing::gpu_by_id("h200-sxm").unwrap(),
            tp: 1,
            pp: 1,
            weights: WeightPrecision::Fp16,
            kv_dtype: KvDtype::Bits16,
            execution: Execution::CudaGraphs,
        };
        let moved = transfer(&twin, &qwen, &pilot(), &h200, None, 4096).unwrap();
        let mut question = Question::concurrency(1);
        question.requests = Some(200);
        let tpot = predict_transferred(&moved, &question).tpot_ms.p50;
        assert!((4.0..7.0).contains(&tpot.value), "{tpot:?}");
        assert!(tpot.low <= 4.74 && 4.74 <= tpot.high, "{tpot:?}");
        let floor = StepFloor::of(&qwen, &h200).unwrap();
        assert!(tpot.low >= floor.tpot_ms(), "{tpot:?} {floor:?}");
    }

    #[test]
    fn the_explanation_names_every_term_and_the_floor() {
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let lines = explain(&qwen, &pilot(), 4096).unwrap().lines();
        let text = lines.join("\n");
        for term in [
            "weights read per step",
            "KV read per context token",
            "communication",
            "launches + engine",
            "Floor",
        ] {
            assert!(text.contains(term), "{term}: {text}");
        }
    }
}
