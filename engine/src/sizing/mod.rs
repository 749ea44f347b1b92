//! The sizing engine: from a model, a precision and a GPU to memory per card, sessions that fit,
//! a decode ceiling and a recommendation.
//!
//! Physics first: decode at low batch is bound by memory bandwidth, prefill by compute, and the
//! memory of a card holds the weights, some runtime overhead and the KV cache. Every number the
//! engine produces is a small pure function with its unit in its name, and every result carries
//! its arithmetic as [`Step`]s so a page can show the working, not just the answer.
//!
//! # Two memory models
//!
//! * [`MemoryModel::Planning`] is the convention of the pilot measurement guide: 0.9 × the memory
//!   the driver reports, less 3 GiB per card, less the weights; for tensor and pipeline
//!   parallelism the per-card budgets are summed and the one checkpoint subtracted once; copies
//!   multiply. It reproduces the guide's worked example number for number, with the rounding
//!   rules of `sizing.md` §1.2 (driver GiB and checkpoint GiB to 0.1, decimal GB read per token
//!   to 0.1, tok/s to 0.1). It is the number to put in a proposal.
//! * [`MemoryModel::Vllm`] predicts what vLLM itself will print at start-up ("GPU KV cache size:
//!   N tokens", "Maximum concurrency for X tokens per request: Y x"): CUDA-visible totals,
//!   version-aware default utilisation, activation and non-torch memory by model class, CUDA-graph
//!   memory, the minimum over ranks, block rounding, and vLLM's rules for sliding windows and
//!   MLA. Every assumption is listed, with its source, in [`memory_model`] and returned by
//!   [`vllm_assumptions`]. Where evidence is thin the model errs towards "does not fit": saying
//!   "fits" where vLLM refuses to start is the one mistake it must not make.
//!
//! # Map of the module
//!
//! * [`gpu`] and [`model`]: the catalogs (reviewed data in `engine/data/*.json`) and their types;
//!   [`hf_config`] builds a [`ModelSpec`] from a pasted Hugging Face `config.json`.
//! * [`precision`]: weight precisions and KV-cache dtypes.
//! * [`weights`], [`kv_cache`], [`decode`], [`prefill`], [`topology`]: the calculations.
//! * [`memory_model`], [`planning`], [`vllm`]: the two budgets.
//! * [`estimate`]: [`size`], the one entry point for a single configuration.
//! * [`recommend`]: every configuration up to a card limit, marked feasible or not, ranked.
//! * [`form_factor`]: how a card is sold (singly, on SXM/OAM boards, not for servers).
//! * [`startup_log`]: reads a real vLLM start-up log and compares it with a prediction.
//!
//! Units: GiB = 2^30 bytes, KiB = 2^10 bytes; GB = 10^9 bytes (vendor bandwidths and "GB read per
//! token" are decimal). Names carry their unit (`weights_gib`, `bandwidth_gb_s`).

pub mod availability;
pub mod decode;
pub mod estimate;
pub mod form_factor;
pub mod gpu;
pub mod hf_config;
pub mod kv_cache;
pub mod memory_model;
pub mod memory_terms;
pub mod model;
pub mod planning;
pub mod precision;
pub mod prefill;
pub mod recommend;
pub mod startup_log;
pub mod topology;
pub mod vllm;
pub mod weights;

#[cfg(test)]
mod properties;
#[cfg(test)]
mod startup_corpus;
#[cfg(test)]
mod worked_examples;

pub use availability::{AvailabilityStatus, GpuAvailability, availability_of};
pub use estimate::{CardMemory, SizingInput, SizingResult, Step, size, size_in};
pub use form_factor::{FormFactor, FormFactorKind, form_factor};
pub use gpu::{FormatSupport, GpuSpec, gpu_by_id, gpus};
pub use memory_model::{MemoryModel, VllmVersion, vllm_assumptions};
pub use model::{AttentionKind, ModelClass, ModelSpec, MoeSpec, model_by_id, models};
pub use precision::{KvDtype, WeightPrecision};
pub use recommend::{Candidate, Demand, GpuOffer, RecommendOptions, recommend, recommend_in};
pub use startup_log::{Comparison, StartupLog, compare};
pub use topology::Topology;

use serde::{Deserialize, Serialize};

/// Bytes in a GiB (2^30).
pub const GIB: f64 = 1_073_741_824.0;
/// Bytes in a MiB (2^20).
pub const MIB: f64 = 1_048_576.0;
/// Bytes in a KiB (2^10).
pub const KIB: f64 = 1_024.0;
/// Bytes in a (decimal) GB.
pub const GB: f64 = 1e9;

/// Why a sizing question could not be answered. Every message names the input at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum SizingError {
    /// A GPU id that is not in the catalog.
    #[error("unknown GPU `{0}` (see the GPU catalog for the ids, e.g. `h200-nvl`)")]
    UnknownGpu(String),
    /// A model id that is not in the catalog.
    #[error("unknown model `{0}` (see the model catalog for the ids, e.g. `llama-3.3-70b`)")]
    UnknownModel(String),
    /// A value outside its allowed range, named by field.
    #[error("{field}: {message}")]
    InvalidInput { field: String, message: String },
    /// A topology the model cannot be split into.
    #[error("topology: {0}")]
    InvalidTopology(String),
    /// A pasted config.json that cannot describe a model.
    #[error("config.json: {0}")]
    HfConfig(String),
    /// A name that is not a known precision, dtype or memory model.
    #[error("{0}")]
    UnknownName(String),
    /// A text that is not a vLLM start-up log.
    #[error("start-up log: {0}")]
    StartupLog(String),
}

impl SizingError {
    pub(crate) fn input(field: &str, message: impl Into<String>) -> Self {
        SizingError::InvalidInput {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// Rounds to one decimal place (the guide's rule for GiB, GB and tok/s).
pub fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// Rounds to two decimal places (for display of GiB in steps and warnings).
pub fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// `floor` that forgives floating-point noise just below an integer (12.999999999 → 13), so that
/// budgets computed from decimal inputs land on the whole number a person would write.
pub fn floor_tolerant(value: f64) -> f64 {
    (value + 1e-9).floor()
}
