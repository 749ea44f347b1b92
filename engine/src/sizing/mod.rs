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

use crate::locale::Lang;
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
///
/// `Display` is the English message (the REST API and the CLI); [`SizingError::message_in`]
/// words it in either language. Messages built from the input carry their German beside the
/// English (`message_de`, or the second field of a tuple variant), written whole at the site
/// that builds the message, like the engine's other `_in(lang)` wording.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum SizingError {
    /// A GPU id that is not in the catalog.
    #[error("unknown GPU `{0}` (see the GPU catalog for the ids, e.g. `h200-nvl`)")]
    UnknownGpu(String),
    /// A model id that is not in the catalog.
    #[error("unknown model `{0}` (see the model catalog for the ids, e.g. `llama-3.3-70b`)")]
    UnknownModel(String),
    /// A value outside its allowed range, named by field; `message_de` is `message` in German.
    #[error("{field}: {message}")]
    InvalidInput {
        field: String,
        message: String,
        #[serde(default)]
        message_de: String,
    },
    /// A topology the model cannot be split into (English, German).
    #[error("topology: {0}")]
    InvalidTopology(String, String),
    /// A pasted config.json that cannot describe a model (English, German).
    #[error("config.json: {0}")]
    HfConfig(String, String),
    /// A name that is not a known precision, dtype or memory model (English, German).
    #[error("{0}")]
    UnknownName(String, String),
    /// A text that is not a vLLM start-up log (English, German).
    #[error("start-up log: {0}")]
    StartupLog(String, String),
}

impl SizingError {
    /// An [`SizingError::InvalidInput`] with its message in English and German (the field is
    /// named in German by [`SizingError::message_in`]).
    pub(crate) fn input_in(field: &str, en: impl Into<String>, de: impl Into<String>) -> Self {
        SizingError::InvalidInput {
            field: field.to_string(),
            message: en.into(),
            message_de: de.into(),
        }
    }

    /// The message in `lang`; English is the `Display` text exactly.
    pub fn message_in(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            SizingError::UnknownGpu(id) => {
                format!("unbekannte GPU `{id}` (die IDs stehen im GPU-Katalog, z. B. `h200-nvl`)")
            }
            SizingError::UnknownModel(id) => format!(
                "unbekanntes Modell `{id}` (die IDs stehen im Modellkatalog, z. B. `llama-3.3-70b`)"
            ),
            SizingError::InvalidInput {
                field,
                message,
                message_de,
            } => {
                let text = if message_de.is_empty() {
                    message
                } else {
                    message_de
                };
                format!("{}: {text}", field_de(field))
            }
            SizingError::InvalidTopology(_, de) => format!("Topologie: {de}"),
            SizingError::HfConfig(_, de) => format!("config.json: {de}"),
            SizingError::UnknownName(_, de) => de.clone(),
            SizingError::StartupLog(_, de) => format!("vLLM-Start-Log: {de}"),
        }
    }
}

/// A number as the engine writes it in an English message (`{value}`), with a decimal comma:
/// `1.2` → `1,2`.
pub(crate) fn num_de(value: f64) -> String {
    Lang::De.separators(&value.to_string())
}

/// The German name of an input field of [`SizingError::InvalidInput`]; vLLM's own parameter
/// names (`max_num_seqs`) and unknown fields stay as they are.
fn field_de(field: &str) -> &str {
    match field {
        "context_tokens" => "Kontextlänge",
        "gpu_memory_utilization" => "GPU-Speicherauslastung",
        "weights_gib_override" => "Gewichte (GiB, vorgegeben)",
        "planning_overhead_gib" => "Planungszuschlag je Karte",
        "vllm_version" => "vLLM-Version",
        "memory_driver_gib" => "Speicher laut Treiber",
        "memory_cuda_gib" => "Speicher laut CUDA",
        "bandwidth_gb_s" => "Speicherbandbreite",
        "bf16_dense_tflops" => "BF16-Rechenleistung (dicht)",
        "fp8_dense_tflops" => "FP8-Rechenleistung (dicht)",
        "fp4_dense_tflops" => "FP4-Rechenleistung (dicht)",
        "max_startup_utilization" => "höchste Startauslastung",
        "layers" => "Schichten",
        "attention_heads" => "Attention-Heads",
        "kv_heads" => "KV-Heads",
        "head_dim" => "Head-Größe",
        "hidden_size" => "Hidden-Size",
        "vocab_size" => "Vokabulargröße",
        "max_context_tokens" => "maximale Kontextlänge",
        "intermediate_size" => "Intermediate-Size",
        "kv_lora_rank" => "KV-LoRA-Rang",
        "window_tokens" => "Fenstergröße",
        "full_attention_layers" => "Schichten mit voller Attention",
        "moe" => "MoE",
        "moe.experts_per_token" => "MoE-Experten je Token",
        "moe.dense_layers" => "dichte MoE-Schichten",
        other => other,
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

#[cfg(test)]
mod tests {
    use super::memory_model::VllmEngine;
    use super::*;
    use std::str::FromStr;

    /// Words that give an English sentence away.
    const ENGLISH: [&str; 9] = [
        " the ", " must ", " is ", " not ", " and ", " of ", " got ", " be ", "unknown",
    ];

    fn llama() -> SizingInput {
        SizingInput::from_ids(
            "llama-3.3-70b",
            WeightPrecision::Fp8,
            KvDtype::Fp8,
            "h200-nvl",
            Topology::single(),
            8_192,
            MemoryModel::Vllm,
        )
        .unwrap()
    }

    /// The error `size` gives after `change` to a good Llama input.
    fn sized(change: impl FnOnce(&mut SizingInput)) -> SizingError {
        let mut input = llama();
        change(&mut input);
        size_in(&input, Lang::De).unwrap_err()
    }

    fn hf(json: &str) -> SizingError {
        ModelSpec::from_hf_config(json).unwrap_err()
    }

    const DENSE: &str = r#""num_hidden_layers": 32, "num_attention_heads": 32, "hidden_size": 4096,
        "vocab_size": 128256, "max_position_embeddings": 8192"#;

    /// One error from every construction site a bad input reaches.
    fn every_bad_input() -> Vec<SizingError> {
        let mut errors = vec![
            SizingInput::from_ids(
                "llama-3.3-70b",
                WeightPrecision::Fp8,
                KvDtype::Fp8,
                "tpu-v5",
                Topology::single(),
                8_192,
                MemoryModel::Planning,
            )
            .unwrap_err(),
            model::require_model("gpt-9").unwrap_err(),
            sized(|i| i.topology = Topology::new(2, 1, 0)),
            sized(|i| i.topology = Topology::new(3, 1, 1)),
            sized(|i| {
                i.model.attention_heads = 24;
                i.topology = Topology::new(3, 1, 1);
            }),
            sized(|i| i.topology = Topology::new(1, 200, 1)),
            sized(|i| i.context_tokens = 0),
            sized(|i| i.gpu_memory_utilization = Some(1.2)),
            sized(|i| i.weights_gib_override = Some(-1.5)),
            sized(|i| i.planning_overhead_gib = Some(-0.5)),
            sized(|i| i.max_num_batched_tokens = Some(0)),
            sized(|i| i.max_num_seqs = Some(0)),
            sized(|i| i.vllm_version = Some("nightly".into())),
            sized(|i| i.gpu.memory_driver_gib = -1.5),
            sized(|i| i.gpu.max_startup_utilization = Some(1.5)),
            sized(|i| i.model.layers = 0),
            sized(|i| i.model.intermediate_size = 0),
            sized(|i| i.model.kv_heads = 7),
            sized(|i| {
                i.model.attention = AttentionKind::Mla {
                    q_lora_rank: None,
                    kv_lora_rank: 0,
                    qk_nope_head_dim: 128,
                    qk_rope_head_dim: 64,
                    v_head_dim: 128,
                }
            }),
            sized(|i| {
                i.model.attention = AttentionKind::SlidingWindow {
                    window_tokens: 0,
                    full_attention_layers: vec![],
                }
            }),
            sized(|i| {
                i.model.attention = AttentionKind::Hybrid {
                    full_attention_layers: vec![500],
                }
            }),
        ];
        let moe = |change: fn(&mut MoeSpec)| {
            sized(|i| {
                let mut spec = MoeSpec {
                    experts: 8,
                    experts_per_token: 2,
                    expert_intermediate_size: 14_336,
                    shared_experts: 0,
                    shared_expert_intermediate_size: None,
                    dense_layers: 0,
                };
                change(&mut spec);
                i.model.moe = Some(spec);
            })
        };
        errors.push(moe(|m| m.experts = 0));
        errors.push(moe(|m| m.experts_per_token = 9));
        errors.push(moe(|m| m.dense_layers = 500));
        errors.extend([
            hf("{ not json"),
            hf("[1, 2]"),
            hf(r#"{"num_hidden_layers": 32}"#),
            hf(r#"{"num_hidden_layers": 3.5}"#),
            hf(r#"{"num_hidden_layers": 10000000000}"#),
            hf(&format!("{{{DENSE}}}")),
            hf(&format!("{{{DENSE}, \"num_local_experts\": 8}}")),
            hf(&format!(
                "{{{DENSE}, \"num_local_experts\": 8, \"num_experts_per_tok\": 2}}"
            )),
            WeightPrecision::from_str("fp3").unwrap_err(),
            KvDtype::from_str("fp2").unwrap_err(),
            MemoryModel::from_str("magic").unwrap_err(),
            VllmEngine::from_str("v9").unwrap_err(),
            startup_log::parse("INFO: Application startup complete.\nhello").unwrap_err(),
            startup_log::parse("Model loading took 1e308 GiB\n").unwrap_err(),
            startup_log::parse("GPU KV cache size: -5 tokens\n").unwrap_err(),
            startup_log::parse("GPU KV cache size: 12.5 tokens\n").unwrap_err(),
            startup_log::parse("config: tensor_parallel_size=0\n# GPU blocks: 12\n").unwrap_err(),
            startup_log::parse(
                "total_gpu_memory (14.56GiB) x gpu_memory_utilization (0.50) = 12.28GiB\n",
            )
            .unwrap_err(),
            startup_log::parse("args: max_num_seqs=256, max_num_batched_tokens=128\n# GPU blocks: 12\n")
                .unwrap_err(),
            startup_log::parse(
                "Model loading took 95.5 GiB\ntotal_gpu_memory (79.25GiB) x gpu_memory_utilization (0.90) = 71.33GiB\n",
            )
            .unwrap_err(),
        ]);
        errors
    }

    #[test]
    fn every_bad_input_is_worded_in_german() {
        let errors = every_bad_input();
        for error in &errors {
            let en = error.to_string();
            let de = error.message_in(Lang::De);
            assert_ne!(de, en, "not translated: {en}");
            for word in ENGLISH {
                assert!(
                    !de.contains(word),
                    "{word:?} in German: {de} (English: {en})"
                );
            }
        }
        let variants: std::collections::HashSet<_> =
            errors.iter().map(std::mem::discriminant).collect();
        assert_eq!(variants.len(), 7, "every variant is exercised");
    }

    #[test]
    fn english_is_the_display_text() {
        for error in every_bad_input() {
            assert_eq!(error.message_in(Lang::En), error.to_string());
        }
        let error = SizingError::input_in(
            "context_tokens",
            "must be at least 1 token",
            "mindestens 1 Token",
        );
        assert_eq!(
            error.to_string(),
            "context_tokens: must be at least 1 token"
        );
        assert_eq!(
            error.message_in(Lang::De),
            "Kontextlänge: mindestens 1 Token"
        );
    }

    #[test]
    fn german_names_the_field_and_writes_decimal_commas() {
        let error = sized(|i| i.context_tokens = 0);
        assert_eq!(
            error.message_in(Lang::De),
            "Kontextlänge: muss mindestens 1 Token betragen"
        );
        let error = sized(|i| i.gpu_memory_utilization = Some(1.2));
        assert_eq!(
            error.to_string(),
            "gpu_memory_utilization: must be in (0, 1], got 1.2"
        );
        assert_eq!(
            error.message_in(Lang::De),
            "GPU-Speicherauslastung: muss in (0; 1] liegen, erhalten: 1,2"
        );
        let error = sized(|i| i.topology = Topology::new(3, 1, 1));
        assert_eq!(
            error.message_in(Lang::De),
            "Topologie: TP=3 teilt die 64 Attention-Heads von `llama-3.3-70b` nicht (vLLM verlangt das)"
        );
        let error = startup_log::parse(
            "total_gpu_memory (14.56GiB) x gpu_memory_utilization (0.50) = 12.28GiB\n",
        )
        .unwrap_err();
        assert!(
            error
                .message_in(Lang::De)
                .contains("Zeile 1: Feld „requested_memory_gib“: 12,28 GiB weicht ab von total_gpu_memory_gib × gpu_memory_utilization = 14,56 × 0,5 = 7,28 GiB"),
            "{}",
            error.message_in(Lang::De)
        );
    }
}
