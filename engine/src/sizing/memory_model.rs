//! The two memory models, their constants, and every assumption the vLLM model makes.
//!
//! # Planning (the guide's convention)
//!
//! Per card: `0.9 × driver-reported GiB − 3 GiB`; for TP/PP the per-card budgets are summed and
//! the one checkpoint subtracted; copies multiply. The 3 GiB is a *planning overhead measured
//! against smi totals*, not a vLLM quantity. Both the 0.9 and the 3 GiB can be changed per
//! input (the V100 benchmark report, for instance, ran at 0.92 and counted no overhead).
//!
//! # vLLM (what vLLM will print)
//!
//! Per rank, following `vllm/v1/worker/gpu_worker.py` (`determine_available_memory`) and
//! `vllm/v1/core/kv_cache_utils.py` as read in `sizing.md` §4:
//!
//! ```text
//! requested   = CUDA total × gpu_memory_utilization     (default 0.9; 0.92 from v0.21)
//! activation  = max(forward pass over max_num_batched_tokens, sampler pass over the profile's
//!                   sequences × vocabulary)              (scheduler defaults by engine and card)
//! available   = requested − weights − activation − non-torch (+ CUDA context before V0 0.6.5 /
//!               V1 0.9) − CUDA-graph estimate (≥ 0.21, unless --enforce-eager)
//! num_blocks  = floor(available ÷ page_size ÷ layers per KV-cache group),  page = 16 tokens
//! KV tokens   = num_blocks ÷ groups × 16          (or concurrency × max_model_len, ≥ 0.21)
//! concurrency = num_blocks ÷ blocks one max_model_len request needs
//! ```
//!
//! and the engine takes the minimum over ranks. The assumptions, each with its source, are
//! returned by [`vllm_assumptions`] so a report or a closing note can list them verbatim:
#![doc = include_str!("vllm_assumptions.md")]

use super::SizingError;
use super::model::ModelClass;
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// Which budget to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MemoryModel {
    /// The pilot guide's convention (0.9 × driver GiB − 3 GiB per card − weights).
    #[default]
    Planning,
    /// A prediction of vLLM's own start-up arithmetic.
    Vllm,
}

impl MemoryModel {
    pub const ALL: [MemoryModel; 2] = [MemoryModel::Planning, MemoryModel::Vllm];

    pub fn as_str(self) -> &'static str {
        match self {
            MemoryModel::Planning => "planning",
            MemoryModel::Vllm => "vllm",
        }
    }

    /// The label pages show next to every figure computed under this model.
    pub fn label(self) -> &'static str {
        match self {
            MemoryModel::Planning => "Planning convention (0.9 × driver memory − 3 GiB per card)",
            MemoryModel::Vllm => "vLLM prediction (CUDA total × utilisation − profiled overheads)",
        }
    }

    /// [`MemoryModel::label`] in `lang`.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (model, Lang::En) => model.label(),
            (MemoryModel::Planning, Lang::De) => {
                "Planungskonvention (0,9 × Treiberspeicher − 3 GiB je Karte)"
            }
            (MemoryModel::Vllm, Lang::De) => {
                "vLLM-Vorhersage (CUDA gesamt × Auslastung − profilierter Mehrbedarf)"
            }
        }
    }
}

impl fmt::Display for MemoryModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MemoryModel {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "planning" | "plan" | "guide" => Ok(MemoryModel::Planning),
            "vllm" => Ok(MemoryModel::Vllm),
            _ => Err(SizingError::UnknownName(
                format!(
                    "unknown memory model `{}` (expected planning or vllm)",
                    s.trim()
                ),
                format!(
                    "unbekanntes Speichermodell `{}` (erwartet: planning oder vllm)",
                    s.trim()
                ),
            )),
        }
    }
}

/// Utilisation of the planning convention.
pub const PLANNING_UTILIZATION: f64 = 0.9;
/// Overhead per card of the planning convention, GiB.
pub const PLANNING_OVERHEAD_GIB: f64 = 3.0;

/// vLLM's KV block size (tokens per page) for attention models.
pub const VLLM_BLOCK_SIZE_TOKENS: u64 = 16;

/// A vLLM release, compared by (major, minor, patch). Pre-release and build suffixes
/// (`0.15.2rc1.dev93+g11a4c9d30`) are ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VllmVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl VllmVersion {
    pub const fn new(major: u32, minor: u32, patch: u32) -> VllmVersion {
        VllmVersion {
            major,
            minor,
            patch,
        }
    }

    /// Parses `0.10.1`, `v0.24.0`, `0.15.2rc1.dev93+g11a4c9d30`, `0.9`.
    pub fn parse(text: &str) -> Result<VllmVersion, SizingError> {
        let trimmed = text.trim().trim_start_matches(['v', 'V']);
        let mut numbers = trimmed.split('.').map(|part| {
            let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse::<u32>().ok()
        });
        let bad = || {
            SizingError::input_in(
                "vllm_version",
                format!(
                    "`{}` is not a vLLM version (expected e.g. 0.10.1)",
                    text.trim()
                ),
                format!(
                    "`{}` ist keine vLLM-Version (erwartet z. B. 0.10.1)",
                    text.trim()
                ),
            )
        };
        let major = numbers.next().flatten().ok_or_else(bad)?;
        let minor = numbers.next().flatten().ok_or_else(bad)?;
        let patch = numbers.next().flatten().unwrap_or(0);
        Ok(VllmVersion::new(major, minor, patch))
    }

    fn at_least(&self, other: VllmVersion) -> bool {
        self.cmp(&other) != Ordering::Less
    }
}

impl PartialOrd for VllmVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VllmVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch))
    }
}

impl fmt::Display for VllmVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// First release that defaults `gpu_memory_utilization` to 0.92 (it was 0.9 before). vLLM PR
/// #38284 ("Enable CUDAGraph memory profiling by default") raised the default together with
/// switching the CUDA-graph estimate on, "slated for default enablement in v0.21"; the engine
/// itself logs "CUDA graph memory profiling is enabled (default since v0.21.0)".
pub const UTILIZATION_092_SINCE: VllmVersion = VllmVersion::new(0, 21, 0);
/// First release that subtracts estimated CUDA-graph memory from the KV budget (same PR #38284).
pub const CUDA_GRAPHS_IN_BUDGET_SINCE: VllmVersion = VllmVersion::new(0, 21, 0);
/// First release with the hybrid KV-cache manager (sliding layers hold only their window).
pub const HYBRID_KV_MANAGER_SINCE: VllmVersion = VllmVersion::new(0, 10, 0);
/// First release assumed to log "GPU KV cache size" as concurrency × max_model_len.
pub const KV_TOKENS_FROM_CONCURRENCY_SINCE: VllmVersion = VllmVersion::new(0, 21, 0);
/// First release whose default engine is V1 (`VLLM_USE_V1` on by default). Before it V1 was
/// opt-in; cards below compute capability 8.0 fell back to V0 until V0 was removed.
pub const V1_DEFAULT_SINCE: VllmVersion = VllmVersion::new(0, 8, 0);
/// First release without the V0 engine.
pub const V0_REMOVED_SINCE: VllmVersion = VllmVersion::new(0, 11, 0);
/// First V0 release whose profile measures non-torch memory against a snapshot taken after
/// the CUDA context exists (PR #10511, "overhaul memory profiling"): the context stays
/// outside the budget.
pub const V0_BASELINE_PROFILE_SINCE: VllmVersion = VllmVersion::new(0, 6, 5);
/// First V1 release assumed to profile against that baseline too (`memory_profiling` with the
/// init snapshot in `gpu_worker.py`); earlier V1 counted everything the device had in use
/// beyond torch's allocations, the CUDA context included.
pub const V1_BASELINE_PROFILE_SINCE: VllmVersion = VllmVersion::new(0, 9, 0);
/// First release with the ≥ 160 GiB tier of scheduler defaults (16,384 batched tokens).
pub const LARGEST_BATCH_DEFAULTS_SINCE: VllmVersion = VllmVersion::new(0, 28, 0);

/// The default `gpu_memory_utilization`: 0.9 up to 0.20, 0.92 from 0.21 on; 0.9 when the
/// version is unknown (the lower, conservative choice).
pub fn default_gpu_memory_utilization(version: Option<VllmVersion>) -> f64 {
    match version {
        Some(v) if v.at_least(UTILIZATION_092_SINCE) => 0.92,
        _ => 0.9,
    }
}

/// Whether estimated CUDA-graph memory is subtracted from the KV budget (≥ 0.21, and when the
/// version is unknown, the conservative choice); before 0.21 graphs come out of the headroom.
pub fn cuda_graphs_in_budget(version: Option<VllmVersion>) -> bool {
    version.is_none_or(|v| v.at_least(CUDA_GRAPHS_IN_BUDGET_SINCE))
}

/// Whether sliding-window layers hold only their window (hybrid KV-cache manager, ≥ 0.10, and
/// assumed when the version is unknown: it has been the default for every current release).
pub fn hybrid_kv_manager(version: Option<VllmVersion>) -> bool {
    version.is_none_or(|v| v.at_least(HYBRID_KV_MANAGER_SINCE))
}

/// Whether "GPU KV cache size" is logged as `int(concurrency × max_model_len)` (newer) rather
/// than `num_blocks ÷ groups × block_size` (older).
pub fn kv_tokens_from_concurrency(version: Option<VllmVersion>) -> bool {
    version.is_none_or(|v| v.at_least(KV_TOKENS_FROM_CONCURRENCY_SINCE))
}

/// vLLM's two engines; they profile memory and size the scheduler differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VllmEngine {
    V0,
    V1,
}

impl VllmEngine {
    pub fn as_str(self) -> &'static str {
        match self {
            VllmEngine::V0 => "V0",
            VllmEngine::V1 => "V1",
        }
    }
}

impl FromStr for VllmEngine {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "v0" | "0" => Ok(VllmEngine::V0),
            "v1" | "1" => Ok(VllmEngine::V1),
            _ => Err(SizingError::UnknownName(
                format!("unknown vLLM engine `{}` (expected v0 or v1)", s.trim()),
                format!(
                    "unbekannte vLLM-Engine `{}` (erwartet: v0 oder v1)",
                    s.trim()
                ),
            )),
        }
    }
}

/// The engine a release runs on a card: V0 before 0.8 (V1 was opt-in), V1 from 0.8 unless the
/// card is below compute capability 8.0 ("Compute Capability < 8.0 is not supported by the V1
/// Engine. Falling back to V0"), V1 only from 0.11; an unknown version is taken as current (V1).
/// `chosen` (VLLM_USE_V1 set by hand) wins where that engine exists.
pub fn vllm_engine(
    version: Option<VllmVersion>,
    compute_capability: Option<&str>,
    chosen: Option<VllmEngine>,
) -> VllmEngine {
    let Some(v) = version else {
        return VllmEngine::V1;
    };
    if v.at_least(V0_REMOVED_SINCE) {
        return VllmEngine::V1;
    }
    if let Some(engine) = chosen {
        return engine;
    }
    let pre_ampere = compute_capability
        .and_then(|c| c.split('.').next()?.trim().parse::<u32>().ok())
        .is_some_and(|major| major < 8);
    if v.at_least(V1_DEFAULT_SINCE) && !pre_ampere {
        VllmEngine::V1
    } else {
        VllmEngine::V0
    }
}

/// Whether the profile counts the CUDA context (and anything else outside torch that exists
/// before the model loads) as non-torch memory inside the budget: V0 before 0.6.5 and V1
/// before 0.9.
pub fn cuda_context_in_budget(version: Option<VllmVersion>, engine: VllmEngine) -> bool {
    version.is_some_and(|v| match engine {
        VllmEngine::V0 => !v.at_least(V0_BASELINE_PROFILE_SINCE),
        VllmEngine::V1 => !v.at_least(V1_BASELINE_PROFILE_SINCE),
    })
}

/// The scheduler limits the profile run uses when the user set none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchedulerDefaults {
    /// Tokens of the profile's dummy forward pass.
    pub max_num_batched_tokens: u64,
    /// Sequences of the profile's dummy sampler pass.
    pub max_num_seqs: u64,
    pub chunked_prefill: bool,
}

/// vLLM's defaults for `vllm serve`.
///
/// * V1 (`arg_utils.py`, `get_batch_defaults`): 8,192 batched tokens and 1,024 sequences when
///   the device reports at least 70 GiB and is not an A100 (16,384 tokens from 0.28 on cards
///   of at least 160 GiB), else 2,048 and 256. The device memory comes from NVML, which fails
///   on unified-memory parts (DGX Spark): those get the small defaults.
/// * V0: chunked prefill only for `max_model_len` above 32,768 (then 2,048 batched tokens,
///   512 before 0.6), otherwise one whole `max_model_len` prompt per step:
///   `max(max_model_len, 2048)` batched tokens; 256 sequences.
pub fn scheduler_defaults(
    engine: VllmEngine,
    version: Option<VllmVersion>,
    driver_gib: f64,
    unified_memory: bool,
    gpu_name: &str,
    max_model_len: u64,
) -> SchedulerDefaults {
    match engine {
        VllmEngine::V1 => {
            let memory = if unified_memory { 0.0 } else { driver_gib };
            let a100 = gpu_name.to_ascii_lowercase().contains("a100");
            let largest =
                memory >= 160.0 && version.is_none_or(|v| v.at_least(LARGEST_BATCH_DEFAULTS_SINCE));
            let (tokens, seqs) = if memory >= 70.0 && !a100 {
                (if largest { 16_384 } else { 8_192 }, 1_024)
            } else {
                (2_048, 256)
            };
            SchedulerDefaults {
                max_num_batched_tokens: tokens,
                max_num_seqs: seqs,
                chunked_prefill: true,
            }
        }
        VllmEngine::V0 => {
            let chunked = max_model_len > 32_768;
            let chunk = if version.is_some_and(|v| !v.at_least(VllmVersion::new(0, 6, 0))) {
                512
            } else {
                2_048
            };
            SchedulerDefaults {
                max_num_batched_tokens: if chunked {
                    chunk
                } else {
                    max_model_len.max(2_048)
                },
                max_num_seqs: 256,
                chunked_prefill: chunked,
            }
        }
    }
}

/// vLLM's default `max_num_batched_tokens` for `vllm serve` on V1: 8,192 on cards with at
/// least 70 GiB (A100 excepted), 2,048 otherwise.
pub fn default_max_num_batched_tokens(cuda_total_gib: f64, gpu_name: &str) -> u64 {
    scheduler_defaults(VllmEngine::V1, None, cuda_total_gib, false, gpu_name, 8_192)
        .max_num_batched_tokens
}

/// Bytes the profile's sampler pass holds per logit (one sequence × one vocabulary entry):
/// the float32 logits and the softmax, log-softmax, sort and index copies the dummy sampler
/// run makes, for the V0 sampler. Fitted on V0 logs where the sampler sets the peak
/// (TinyLlama, Llama 3.2 3B, Phi-4): 38–43 bytes.
pub const SAMPLER_BYTES_PER_LOGIT: f64 = 43.0;

/// The V1 sampler with PyTorch's own top-k/top-p (sort, softmax, exponential draw) before
/// v0.10: 44 bytes per logit (Qwen3-235B on 4 × H100 at v0.9.2, vllm#21348).
pub const V1_NATIVE_SAMPLER_BYTES_PER_LOGIT_BEFORE_0_10: f64 = 44.0;

/// The same from v0.10: 38 bytes per logit (gpt-oss-120b on H100 at v0.10.1, vllm#23278;
/// Llama 3 8B on H200 at v0.11.2, 38.8; Qwen3-235B on L40S at v0.10, 38.6).
pub const V1_NATIVE_SAMPLER_BYTES_PER_LOGIT: f64 = 38.0;

/// The V1 sampler when FlashInfer's fused top-k/top-p kernel runs it ("Using FlashInfer for
/// top-p & top-k sampling"): no sorted copy of the logits, 10.5 bytes per logit (A100 logs
/// of Qwen2-7B at TP 1 and 2 and gpt-oss-120b at TP 4, v0.10.1: 8.9–10.6 bytes).
pub const FLASHINFER_SAMPLER_BYTES_PER_LOGIT: f64 = 10.5;

/// First release whose V1 sampler holds [`V1_NATIVE_SAMPLER_BYTES_PER_LOGIT`] per logit.
pub const LEANER_V1_SAMPLER_SINCE: VllmVersion = VllmVersion::new(0, 10, 0);

/// Bytes per logit of the profile's sampler pass for this engine, release and sampler kernel.
/// `flashinfer` is what the log says ("Using FlashInfer for top-p & top-k sampling" or
/// "Falling back to the PyTorch-native implementation"); unknown counts the PyTorch sampler,
/// the larger figure. V0 always samples with PyTorch.
pub fn sampler_bytes_per_logit(
    engine: VllmEngine,
    version: Option<VllmVersion>,
    flashinfer: Option<bool>,
) -> f64 {
    match engine {
        VllmEngine::V0 => SAMPLER_BYTES_PER_LOGIT,
        VllmEngine::V1 if flashinfer == Some(true) => FLASHINFER_SAMPLER_BYTES_PER_LOGIT,
        VllmEngine::V1 if version.is_some_and(|v| !v.at_least(LEANER_V1_SAMPLER_SINCE)) => {
            V1_NATIVE_SAMPLER_BYTES_PER_LOGIT_BEFORE_0_10
        }
        VllmEngine::V1 => V1_NATIVE_SAMPLER_BYTES_PER_LOGIT,
    }
}

/// Peak activation of vLLM's profile run, GiB per rank: the larger of
/// * the forward pass over `max_num_batched_tokens` tokens — per token, the MLP's gate/up and
///   activation outputs (3 × intermediate ÷ TP) and three hidden-size buffers, in 16-bit; for
///   MoE the fused-experts caches over `top_k` copies of each token, and
/// * the sampler pass over the profile's sequences × the vocabulary at
///   `sampler_bytes_per_logit` ([`sampler_bytes_per_logit`]; every rank holds the whole
///   vocabulary's logits),
///
/// plus 6 GiB for hybrid (linear-attention / Mamba) models, whose state buffers are not
/// modelled. Dense Llama 3.1 8B at 20,000 and 29,000 batched tokens (v0.6.4 on an RTX 3090)
/// measured 2.07 and 2.99 GiB; the forward term gives 2.06 and 2.99.
pub fn activation_gib(
    model: &super::model::ModelSpec,
    tp: u32,
    max_num_batched_tokens: u64,
    sampler_sequences: u64,
    sampler_bytes_per_logit: f64,
) -> f64 {
    let tp = tp.max(1) as f64;
    let h = model.hidden_size as f64;
    let per_token = match &model.moe {
        Some(moe) => {
            let k = moe.experts_per_token as f64;
            let inter = moe.expert_intermediate_size as f64 / tp;
            let shared = moe
                .shared_expert_intermediate_size
                .unwrap_or(moe.shared_experts as u64 * moe.expert_intermediate_size)
                as f64
                / tp;
            2.0 * (k * (3.0 * inter + h) + 3.0 * shared + 3.0 * h)
        }
        None => 2.0 * (3.0 * model.intermediate_size as f64 / tp + 3.0 * h),
    };
    let forward = per_token * max_num_batched_tokens as f64;
    let sampler = sampler_bytes_per_logit * sampler_sequences as f64 * model.vocab_size as f64;
    let hybrid = if matches!(model.class(), ModelClass::Hybrid) {
        6.0
    } else {
        0.0
    };
    forward.max(sampler) / super::GIB + hybrid
}

/// Non-torch memory (cuBLAS workspaces; NCCL and custom all-reduce buffers once TP or PP
/// brings them in) per rank, GiB: 0.15 on a single card; with several ranks 0.35 over PCIe
/// (custom all-reduce off) and 1.4 over NVLink, where custom all-reduce registers its IPC
/// buffers (L40S TP logged 0.21, an H200 pair 1.38; both include 0.1 for the spread between
/// ranks, because the smallest rank sets everyone's pool); plus the CUDA context
/// ([`CUDA_CONTEXT_GIB`]) where the profile counts it ([`cuda_context_in_budget`]).
/// `custom_all_reduce_buffers` is false on PCIe cards and wherever vLLM turned custom
/// all-reduce off ("Custom allreduce is disabled because your platform lacks GPU P2P
/// capability" or "because this process group spans across nodes"): two A100 80GB without
/// P2P logged 0.67 GiB of overhead at TP 2, the PCIe figure, not the NVLink one.
pub fn non_torch_gib(
    tp: u32,
    pp: u32,
    custom_all_reduce_buffers: bool,
    context_in_budget: bool,
) -> f64 {
    let base = match (tp * pp > 1, custom_all_reduce_buffers) {
        (false, _) => 0.15,
        (true, false) => 0.35,
        (true, true) => 1.4,
    };
    base + if context_in_budget {
        CUDA_CONTEXT_GIB
    } else {
        0.0
    }
}

/// CUDA-graph memory per rank, GiB, as vLLM estimates it (the estimate runs above the real
/// pool): 0.7 for dense models, 3.0 for MoE and hybrid models.
pub fn cuda_graph_gib(class: ModelClass) -> f64 {
    match class {
        ModelClass::DenseSmall | ModelClass::DenseLarge => 0.7,
        ModelClass::Moe | ModelClass::Hybrid => 3.0,
    }
}

/// Memory the CUDA context and allocator keep, GiB: outside vLLM's budget (in the `1 − util`
/// headroom) from V0 0.6.5 and V1 0.9 on, inside it before.
pub const CUDA_CONTEXT_GIB: f64 = 0.3;

/// One assumption of the vLLM memory model, with where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assumption {
    pub topic: String,
    pub assumption: String,
    pub source: String,
}

/// Every assumption of the vLLM memory model, for a report or a closing note.
pub fn vllm_assumptions() -> Vec<Assumption> {
    include_str!("vllm_assumptions.md")
        .lines()
        .filter_map(|line| line.strip_prefix("| "))
        .filter(|line| !line.starts_with("topic") && !line.starts_with("---"))
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim_end_matches('|').split(" | ").collect();
            (cells.len() == 3).then(|| Assumption {
                topic: cells[0].trim().to_string(),
                assumption: cells[1].trim().to_string(),
                source: cells[2].trim().to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_models_parse_by_name() {
        assert_eq!(
            "planning".parse::<MemoryModel>().unwrap(),
            MemoryModel::Planning
        );
        assert_eq!("vLLM".parse::<MemoryModel>().unwrap(), MemoryModel::Vllm);
        assert!("sglang".parse::<MemoryModel>().is_err());
    }

    #[test]
    fn versions_parse_and_order() {
        let dev = VllmVersion::parse("0.15.2rc1.dev93+g11a4c9d30").unwrap();
        assert_eq!(dev, VllmVersion::new(0, 15, 2));
        assert_eq!(
            VllmVersion::parse("v0.9").unwrap(),
            VllmVersion::new(0, 9, 0)
        );
        assert!(VllmVersion::parse("0.10.1").unwrap() < VllmVersion::parse("0.11.0").unwrap());
        let err = VllmVersion::parse("latest").unwrap_err().to_string();
        assert!(err.starts_with("vllm_version:"), "{err}");
    }

    #[test]
    fn version_rules() {
        let old = Some(VllmVersion::new(0, 10, 1));
        let new = Some(VllmVersion::new(0, 24, 0));
        assert_eq!(default_gpu_memory_utilization(old), 0.9);
        assert_eq!(default_gpu_memory_utilization(new), 0.92);
        assert_eq!(default_gpu_memory_utilization(None), 0.9);
        assert!(!cuda_graphs_in_budget(old));
        assert!(cuda_graphs_in_budget(new) && cuda_graphs_in_budget(None));
        assert!(!hybrid_kv_manager(Some(VllmVersion::new(0, 9, 2))));
        assert_eq!(
            default_max_num_batched_tokens(79.19, "NVIDIA H100 SXM 80GB"),
            8_192
        );
        assert_eq!(
            default_max_num_batched_tokens(79.25, "NVIDIA A100 SXM4 80GB"),
            2_048
        );
    }

    #[test]
    fn the_092_default_and_the_graph_estimate_arrive_together_in_0_21() {
        let v0_20 = Some(VllmVersion::new(0, 20, 2));
        let v0_21 = Some(VllmVersion::new(0, 21, 0));
        assert_eq!(default_gpu_memory_utilization(v0_20), 0.9);
        assert_eq!(default_gpu_memory_utilization(v0_21), 0.92);
        assert!(!cuda_graphs_in_budget(v0_20) && cuda_graphs_in_budget(v0_21));
    }

    #[test]
    fn the_engine_follows_the_release_and_the_card() {
        let v = |m| Some(VllmVersion::new(0, m, 0));
        assert_eq!(vllm_engine(v(7), Some("9.0"), None), VllmEngine::V0);
        assert_eq!(
            vllm_engine(v(7), Some("9.0"), Some(VllmEngine::V1)),
            VllmEngine::V1
        );
        assert_eq!(vllm_engine(v(8), Some("9.0"), None), VllmEngine::V1);
        assert_eq!(vllm_engine(v(8), Some("7.5"), None), VllmEngine::V0);
        assert_eq!(vllm_engine(v(11), Some("7.5"), None), VllmEngine::V1);
        assert_eq!(vllm_engine(None, None, None), VllmEngine::V1);
        assert!(cuda_context_in_budget(
            Some(VllmVersion::new(0, 6, 4)),
            VllmEngine::V0
        ));
        assert!(!cuda_context_in_budget(
            Some(VllmVersion::new(0, 6, 5)),
            VllmEngine::V0
        ));
        assert!(cuda_context_in_budget(v(8), VllmEngine::V1));
        assert!(!cuda_context_in_budget(v(9), VllmEngine::V1));
    }

    #[test]
    fn scheduler_defaults_follow_the_engine_the_card_and_the_context() {
        let v1 = |driver, unified, name| {
            scheduler_defaults(VllmEngine::V1, None, driver, unified, name, 32_768)
        };
        let h100 = v1(79.6, false, "NVIDIA H100 80GB HBM3");
        assert_eq!(
            (h100.max_num_batched_tokens, h100.max_num_seqs),
            (8_192, 1_024)
        );
        let a100 = v1(80.0, false, "NVIDIA A100-SXM4-80GB");
        assert_eq!(
            (a100.max_num_batched_tokens, a100.max_num_seqs),
            (2_048, 256)
        );
        let spark = v1(121.7, true, "NVIDIA GB10");
        assert_eq!(spark.max_num_batched_tokens, 2_048);
        let b200 = v1(179.0, false, "NVIDIA B200");
        assert_eq!(b200.max_num_batched_tokens, 16_384);
        let v0 = |len| {
            scheduler_defaults(
                VllmEngine::V0,
                Some(VllmVersion::new(0, 6, 4)),
                24.0,
                false,
                "NVIDIA GeForce RTX 3090",
                len,
            )
        };
        assert_eq!(v0(29_000).max_num_batched_tokens, 29_000);
        assert_eq!(v0(1_024).max_num_batched_tokens, 2_048);
        assert!(v0(35_000).chunked_prefill);
        assert_eq!(v0(35_000).max_num_batched_tokens, 2_048);
    }

    #[test]
    fn llama_8b_activation_grows_with_the_batched_tokens_as_logged() {
        // vllm#10517, v0.6.4 on an RTX 3090: peak torch − weights = 17.06 − 14.99 and 17.98 − 14.99.
        let model = crate::sizing::model::model_by_id("llama-3.1-8b").unwrap();
        let at_20k = activation_gib(&model, 1, 20_000, 256, SAMPLER_BYTES_PER_LOGIT);
        let at_29k = activation_gib(&model, 1, 29_000, 256, SAMPLER_BYTES_PER_LOGIT);
        assert!((at_20k - 2.07).abs() < 0.05, "{at_20k}");
        assert!((at_29k - 2.99).abs() < 0.05, "{at_29k}");
        // At 2,048 tokens the sampler pass over 256 × 128,256 logits sets the peak.
        let small = activation_gib(&model, 1, 2_048, 256, SAMPLER_BYTES_PER_LOGIT);
        assert!((small - 256.0 * 128_256.0 * 43.0 / crate::sizing::GIB).abs() < 1e-9);
    }

    #[test]
    fn the_assumption_list_is_complete_and_sourced() {
        let list = vllm_assumptions();
        assert!(list.len() >= 12, "{}", list.len());
        for item in &list {
            assert!(!item.topic.is_empty() && !item.assumption.is_empty());
            assert!(!item.source.is_empty(), "{} has no source", item.topic);
        }
    }
}
