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
//! requested   = CUDA total × gpu_memory_utilization
//! available   = requested − weights − activation peak − non-torch − CUDA graphs (≥ 0.21 only)
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
            _ => Err(SizingError::UnknownName(format!(
                "unknown memory model `{}` (expected planning or vllm)",
                s.trim()
            ))),
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
            SizingError::input(
                "vllm_version",
                format!(
                    "`{}` is not a vLLM version (expected e.g. 0.10.1)",
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

/// First release assumed to default `gpu_memory_utilization` to 0.92 (unverified cut-over).
pub const UTILIZATION_092_SINCE: VllmVersion = VllmVersion::new(0, 12, 0);
/// First release that subtracts estimated CUDA-graph memory from the KV budget.
pub const CUDA_GRAPHS_IN_BUDGET_SINCE: VllmVersion = VllmVersion::new(0, 21, 0);
/// First release with the hybrid KV-cache manager (sliding layers hold only their window).
pub const HYBRID_KV_MANAGER_SINCE: VllmVersion = VllmVersion::new(0, 10, 0);
/// First release assumed to log "GPU KV cache size" as concurrency × max_model_len.
pub const KV_TOKENS_FROM_CONCURRENCY_SINCE: VllmVersion = VllmVersion::new(0, 21, 0);

/// The default `gpu_memory_utilization`: 0.9 up to 0.11, 0.92 from 0.12 on; 0.9 when the
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

/// vLLM's default `max_num_batched_tokens` for `vllm serve`: 8,192 on cards with at least
/// 70 GiB (A100 excepted), 2,048 otherwise.
pub fn default_max_num_batched_tokens(cuda_total_gib: f64, gpu_name: &str) -> u64 {
    let a100 = gpu_name.to_ascii_lowercase().contains("a100");
    if cuda_total_gib >= 70.0 && !a100 {
        8_192
    } else {
        2_048
    }
}

/// Peak activation memory of the profile run, GiB per rank, by model class. Dense models scale
/// with `max_num_batched_tokens` above 8,192 (never below the class figure); MoE and hybrid
/// models showed the same peak regardless of it.
pub fn activation_gib(class: ModelClass, total_params_b: f64, max_num_batched_tokens: u64) -> f64 {
    let token_scale = (max_num_batched_tokens as f64 / 8_192.0).max(1.0);
    match class {
        ModelClass::DenseSmall => 1.5 * token_scale,
        ModelClass::DenseLarge => 1.75 * token_scale,
        ModelClass::Moe => 2.5 + 5.0 * (total_params_b / 100.0).min(1.0),
        ModelClass::Hybrid => 6.0,
    }
}

/// Non-torch memory (NCCL, cuBLAS workspaces, custom all-reduce buffers) per rank, GiB:
/// 0.35 on a single card; 0.7 once tensor or pipeline parallelism brings NCCL in (0.6, plus
/// 0.1 for the spread between ranks, because the smallest rank sets everyone's pool).
pub fn non_torch_gib(tp: u32, pp: u32) -> f64 {
    if tp * pp > 1 { 0.7 } else { 0.35 }
}

/// CUDA-graph memory per rank, GiB, as vLLM estimates it (the estimate runs above the real
/// pool): 0.7 for dense models, 3.0 for MoE and hybrid models.
pub fn cuda_graph_gib(class: ModelClass) -> f64 {
    match class {
        ModelClass::DenseSmall | ModelClass::DenseLarge => 0.7,
        ModelClass::Moe | ModelClass::Hybrid => 3.0,
    }
}

/// Memory the CUDA context and allocator keep outside vLLM's budget (in the `1 − util`
/// headroom), GiB.
pub const CUDA_CONTEXT_GIB: f64 = 0.5;

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
    fn the_assumption_list_is_complete_and_sourced() {
        let list = vllm_assumptions();
        assert!(list.len() >= 12, "{}", list.len());
        for item in &list {
            assert!(!item.topic.is_empty() && !item.assumption.is_empty());
            assert!(!item.source.is_empty(), "{} has no source", item.topic);
        }
    }
}
