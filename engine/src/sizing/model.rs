//! Models: the architecture facts sizing needs, and the reviewed catalog in
//! `engine/data/models.json`.
//!
//! What matters for memory and speed is the shape, not the name:
//! * **GQA**: the KV cache scales with the KV heads, not the attention heads (Llama 3 70B caches
//!   8 heads for 64 queries). Multi-head attention is GQA with as many KV heads as heads.
//! * **MLA** (DeepSeek-V3): each layer caches one compressed latent (`kv_lora_rank` +
//!   `qk_rope_head_dim` values per token) instead of per-head keys and values.
//! * **Sliding window** (gpt-oss, Gemma 3): some layers only ever attend to the last
//!   `window_tokens`, so their cache stops growing there. The catalog names the full-attention
//!   layers by index; every other layer slides.
//! * **Hybrid** (linear attention or Mamba layers beside attention): only the attention layers
//!   keep a per-token cache; the others keep a fixed state per request.
//! * **MoE**: all experts are resident, but a single stream reads only the routed `top_k` of
//!   them per token.
//!
//! Checkpoint sizes are computed from these shapes ([`super::weights`]) unless the row lists a
//! published size, which wins.

use super::SizingError;
use super::precision::WeightPrecision;
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// How a model's layers attend, which decides the shape of its KV cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttentionKind {
    /// Grouped-query (or multi-head) attention in every layer.
    #[default]
    Gqa,
    /// Multi-head latent attention: one latent of `kv_lora_rank + qk_rope_head_dim` per token
    /// and layer, the same on every tensor-parallel rank.
    Mla {
        #[serde(default)]
        q_lora_rank: Option<u64>,
        kv_lora_rank: u64,
        qk_nope_head_dim: u64,
        qk_rope_head_dim: u64,
        v_head_dim: u64,
    },
    /// GQA where every layer not listed in `full_attention_layers` attends to the last
    /// `window_tokens` only.
    SlidingWindow {
        window_tokens: u64,
        full_attention_layers: Vec<u32>,
    },
    /// Attention layers (listed) beside linear-attention or Mamba layers, which keep a fixed
    /// per-request state instead of a per-token cache.
    Hybrid { full_attention_layers: Vec<u32> },
}

/// What one layer caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LayerKind {
    /// Keys and values (or an MLA latent) for every token of the context.
    Full,
    /// Keys and values for the last `window_tokens` only.
    Sliding,
    /// A fixed per-request state (linear attention, Mamba): no per-token cache.
    Linear,
}

/// Mixture-of-experts facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoeSpec {
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Routed experts each token uses (top-k).
    pub experts_per_token: u32,
    /// Intermediate size of one routed expert.
    pub expert_intermediate_size: u64,
    /// Always-active shared experts per MoE layer (DeepSeek: 1).
    #[serde(default)]
    pub shared_experts: u32,
    /// Intermediate size of the shared expert block, when it differs from
    /// `shared_experts × expert_intermediate_size` (Qwen2-MoE style).
    #[serde(default)]
    pub shared_expert_intermediate_size: Option<u64>,
    /// Leading layers with a dense MLP of `intermediate_size` instead of experts (DeepSeek: 3).
    #[serde(default)]
    pub dense_layers: u32,
}

/// A checkpoint size that was published or measured, which beats the computed one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublishedCheckpoint {
    pub precision: WeightPrecision,
    /// Whole-model size, GiB.
    pub gib: f64,
    pub source: String,
}

/// Weights a real vLLM start-up reported as loaded ("Model loading took N GiB"), scaled to the
/// whole model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResidentMeasurement {
    pub precision: WeightPrecision,
    /// Whole-model resident weights, GiB (per-rank figure × tensor-parallel size).
    pub gib: f64,
    pub tensor_parallel: u32,
    #[serde(default)]
    pub vllm_version: Option<String>,
    #[serde(default)]
    pub gpu: Option<String>,
    pub source: String,
}

/// The overhead class vLLM's memory profile falls into (see [`super::memory_model`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelClass {
    /// Dense, fewer than 20 B parameters.
    DenseSmall,
    /// Dense, 20 B parameters or more.
    DenseLarge,
    /// Mixture of experts.
    Moe,
    /// Linear-attention or Mamba layers beside attention.
    Hybrid,
}

impl ModelClass {
    pub fn label(self) -> &'static str {
        match self {
            ModelClass::DenseSmall => "dense < 20 B",
            ModelClass::DenseLarge => "dense ≥ 20 B",
            ModelClass::Moe => "mixture of experts",
            ModelClass::Hybrid => "hybrid (linear attention / Mamba)",
        }
    }

    /// [`ModelClass::label`] in `lang`.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (class, Lang::En) => class.label(),
            (ModelClass::DenseSmall, Lang::De) => "dicht, < 20 Mrd. Parameter",
            (ModelClass::DenseLarge, Lang::De) => "dicht, ≥ 20 Mrd. Parameter",
            (ModelClass::Moe, Lang::De) => "Mixture of Experts",
            (ModelClass::Hybrid, Lang::De) => "hybrid (Linear Attention / Mamba)",
        }
    }
}

/// One model as the sizing sees it. Catalog rows, pasted configs and hand-edited models share
/// this type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelSpec {
    /// Stable id, e.g. `llama-3.3-70b`, `qwen2.5-7b`.
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub hf_repo: Option<String>,
    #[serde(default)]
    pub architecture: String,
    pub layers: u32,
    pub attention_heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub hidden_size: u64,
    /// Dense MLP intermediate size (for MoE models: of the dense layers, if any).
    pub intermediate_size: u64,
    pub vocab_size: u64,
    /// `lm_head` shares the input-embedding matrix.
    #[serde(default)]
    pub tied_embeddings: bool,
    /// Q/K/V projections carry biases (Qwen2, gpt-oss).
    #[serde(default)]
    pub attention_bias: bool,
    /// Published total parameters, billions.
    #[serde(default)]
    pub total_params_b: Option<f64>,
    /// Published parameters active per token, billions (= total for dense models).
    #[serde(default)]
    pub active_params_b: Option<f64>,
    #[serde(default)]
    pub attention: AttentionKind,
    #[serde(default)]
    pub moe: Option<MoeSpec>,
    /// Longest context the model supports, tokens.
    pub max_context_tokens: u64,
    #[serde(default)]
    pub published_checkpoints: Vec<PublishedCheckpoint>,
    #[serde(default)]
    pub vllm_resident: Vec<ResidentMeasurement>,
    #[serde(default)]
    pub sources: Vec<String>,
    #[serde(default)]
    pub notes: Option<String>,
}

impl ModelSpec {
    /// What each layer caches, in layer order.
    pub fn layer_kinds(&self) -> Vec<LayerKind> {
        let n = self.layers as usize;
        match &self.attention {
            AttentionKind::Gqa | AttentionKind::Mla { .. } => vec![LayerKind::Full; n],
            AttentionKind::SlidingWindow {
                full_attention_layers,
                ..
            } => (0..n)
                .map(|i| {
                    if full_attention_layers.contains(&(i as u32)) {
                        LayerKind::Full
                    } else {
                        LayerKind::Sliding
                    }
                })
                .collect(),
            AttentionKind::Hybrid {
                full_attention_layers,
            } => (0..n)
                .map(|i| {
                    if full_attention_layers.contains(&(i as u32)) {
                        LayerKind::Full
                    } else {
                        LayerKind::Linear
                    }
                })
                .collect(),
        }
    }

    /// The sliding window, tokens, when the model has one.
    pub fn window_tokens(&self) -> Option<u64> {
        match self.attention {
            AttentionKind::SlidingWindow { window_tokens, .. } => Some(window_tokens),
            _ => None,
        }
    }

    /// True for mixture-of-experts models.
    pub fn is_moe(&self) -> bool {
        self.moe.is_some()
    }

    /// The overhead class of vLLM's memory profile.
    pub fn class(&self) -> ModelClass {
        if matches!(self.attention, AttentionKind::Hybrid { .. }) {
            ModelClass::Hybrid
        } else if self.is_moe() {
            ModelClass::Moe
        } else if self.total_params_b() < 20.0 {
            ModelClass::DenseSmall
        } else {
            ModelClass::DenseLarge
        }
    }

    /// Checks that the shapes can describe a transformer, naming the first field at fault.
    pub fn validate(&self) -> Result<(), SizingError> {
        let who = &self.id;
        for (field, value) in [
            ("layers", self.layers as u64),
            ("attention_heads", self.attention_heads as u64),
            ("kv_heads", self.kv_heads as u64),
            ("head_dim", self.head_dim as u64),
            ("hidden_size", self.hidden_size),
            ("vocab_size", self.vocab_size),
            ("max_context_tokens", self.max_context_tokens),
        ] {
            if value == 0 {
                return Err(SizingError::input_in(
                    field,
                    format!("must be at least 1 (model `{who}`)"),
                    format!("muss mindestens 1 sein (Modell `{who}`)"),
                ));
            }
        }
        if self.moe.is_none() && self.intermediate_size == 0 {
            return Err(SizingError::input_in(
                "intermediate_size",
                format!("must be at least 1 for a dense model (model `{who}`)"),
                format!("muss für ein dichtes Modell mindestens 1 sein (Modell `{who}`)"),
            ));
        }
        if !self.attention_heads.is_multiple_of(self.kv_heads) {
            return Err(SizingError::input_in(
                "kv_heads",
                format!(
                    "{} attention heads cannot be grouped over {} KV heads (model `{who}`)",
                    self.attention_heads, self.kv_heads
                ),
                format!(
                    "{} Attention-Heads lassen sich nicht auf {} KV-Heads verteilen (Modell `{who}`)",
                    self.attention_heads, self.kv_heads
                ),
            ));
        }
        match &self.attention {
            AttentionKind::Mla { kv_lora_rank, .. } if *kv_lora_rank == 0 => {
                return Err(SizingError::input_in(
                    "kv_lora_rank",
                    format!("must be at least 1 (model `{who}`)"),
                    format!("muss mindestens 1 sein (Modell `{who}`)"),
                ));
            }
            AttentionKind::SlidingWindow {
                window_tokens,
                full_attention_layers,
            } => {
                if *window_tokens == 0 {
                    return Err(SizingError::input_in(
                        "window_tokens",
                        format!("must be at least 1 (model `{who}`)"),
                        format!("muss mindestens 1 sein (Modell `{who}`)"),
                    ));
                }
                self.check_layer_indices(full_attention_layers)?;
            }
            AttentionKind::Hybrid {
                full_attention_layers,
            } => self.check_layer_indices(full_attention_layers)?,
            _ => {}
        }
        if let Some(moe) = &self.moe {
            if moe.experts == 0 || moe.experts_per_token == 0 || moe.expert_intermediate_size == 0 {
                return Err(SizingError::input_in(
                    "moe",
                    format!(
                        "experts, experts_per_token and expert_intermediate_size must be at least 1 (model `{who}`)"
                    ),
                    format!(
                        "experts, experts_per_token und expert_intermediate_size müssen mindestens 1 sein (Modell `{who}`)"
                    ),
                ));
            }
            if moe.experts_per_token > moe.experts {
                return Err(SizingError::input_in(
                    "moe.experts_per_token",
                    format!(
                        "{} routed experts per token exceed the {} experts (model `{who}`)",
                        moe.experts_per_token, moe.experts
                    ),
                    format!(
                        "{} geroutete Experten je Token übersteigen die {} Experten (Modell `{who}`)",
                        moe.experts_per_token, moe.experts
                    ),
                ));
            }
            if moe.dense_layers > self.layers {
                return Err(SizingError::input_in(
                    "moe.dense_layers",
                    format!("exceeds the {} layers (model `{who}`)", self.layers),
                    format!("übersteigt die {} Schichten (Modell `{who}`)", self.layers),
                ));
            }
        }
        Ok(())
    }

    fn check_layer_indices(&self, layers: &[u32]) -> Result<(), SizingError> {
        if let Some(bad) = layers.iter().find(|&&i| i >= self.layers) {
            return Err(SizingError::input_in(
                "full_attention_layers",
                format!(
                    "layer index {bad} is outside the {} layers (model `{}`)",
                    self.layers, self.id
                ),
                format!(
                    "Schichtindex {bad} liegt außerhalb der {} Schichten (Modell `{}`)",
                    self.layers, self.id
                ),
            ));
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct ModelFile {
    models: Vec<ModelSpec>,
}

fn catalog() -> &'static [ModelSpec] {
    static CATALOG: OnceLock<Vec<ModelSpec>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        serde_json::from_str::<ModelFile>(include_str!("../../data/models.json"))
            .unwrap_or_else(|e| panic!("the bundled model catalog is invalid: {e}"))
            .models
    })
}

/// Every catalog model, in catalog order.
pub fn models() -> Vec<ModelSpec> {
    catalog().to_vec()
}

/// The catalog model with this id (case-insensitive), if any.
pub fn model_by_id(id: &str) -> Option<ModelSpec> {
    let id = id.trim();
    catalog()
        .iter()
        .find(|model| model.id.eq_ignore_ascii_case(id))
        .cloned()
}

/// Like [`model_by_id`], with an error naming the unknown id.
pub fn require_model(id: &str) -> Result<ModelSpec, SizingError> {
    model_by_id(id).ok_or_else(|| SizingError::UnknownModel(id.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REQUIRED: [&str; 17] = [
        "llama-3.1-8b",
        "llama-3.3-70b",
        "llama-3.1-405b",
        "qwen2.5-7b",
        "qwen2.5-14b",
        "qwen2.5-32b",
        "qwen2.5-72b",
        "qwen3-8b",
        "qwen3-32b",
        "qwen3-30b-a3b",
        "qwen3-235b-a22b",
        "mistral-7b",
        "mixtral-8x7b",
        "deepseek-v3",
        "gpt-oss-20b",
        "gpt-oss-120b",
        "gemma-3-27b",
    ];

    #[test]
    fn every_catalog_row_parses_and_is_sane() {
        let all = models();
        let mut ids = std::collections::HashSet::new();
        for model in &all {
            assert!(ids.insert(model.id.clone()), "duplicate id {}", model.id);
            model.validate().unwrap();
            assert!(!model.sources.is_empty(), "{}", model.id);
            let computed_b = crate::sizing::weights::param_breakdown(model).total() / 1e9;
            let published_b = model.total_params_b.expect("published total");
            // The shapes must explain the published size (Gemma's vision tower is not counted).
            assert!(
                (computed_b / published_b - 1.0).abs() < 0.03,
                "{}: shapes give {computed_b:.2} B, published {published_b} B",
                model.id
            );
            assert!(model.active_params_b() <= model.total_params_b() + 1e-9);
            assert!(model.max_context_tokens >= 32_768, "{}", model.id);
        }
        for id in REQUIRED {
            assert!(model_by_id(id).is_some(), "missing {id}");
        }
    }

    #[test]
    fn layer_kinds_follow_the_attention_pattern() {
        let gemma = model_by_id("gemma-3-27b").unwrap();
        let kinds = gemma.layer_kinds();
        assert_eq!(kinds.iter().filter(|k| **k == LayerKind::Full).count(), 10);
        assert_eq!(kinds[5], LayerKind::Full);
        assert_eq!(kinds[0], LayerKind::Sliding);
        let oss = model_by_id("gpt-oss-120b").unwrap();
        assert_eq!(
            oss.layer_kinds()
                .iter()
                .filter(|k| **k == LayerKind::Sliding)
                .count(),
            18
        );
        assert_eq!(oss.window_tokens(), Some(128));
    }

    #[test]
    fn classes_split_dense_moe_and_size() {
        assert_eq!(
            model_by_id("qwen2.5-7b").unwrap().class(),
            ModelClass::DenseSmall
        );
        assert_eq!(
            model_by_id("llama-3.3-70b").unwrap().class(),
            ModelClass::DenseLarge
        );
        assert_eq!(
            model_by_id("mixtral-8x7b").unwrap().class(),
            ModelClass::Moe
        );
        assert_eq!(
            require_model("gpt-5").unwrap_err().to_string(),
            "unknown model `gpt-5` (see the model catalog for the ids, e.g. `llama-3.3-70b`)"
        );
    }

    #[test]
    fn impossible_shapes_are_refused_by_name() {
        let mut model = model_by_id("llama-3.1-8b").unwrap();
        model.kv_heads = 5;
        assert!(
            model
                .validate()
                .unwrap_err()
                .to_string()
                .starts_with("kv_heads:")
        );
        let mut model = model_by_id("llama-3.1-8b").unwrap();
        model.layers = 0;
        assert!(
            model
                .validate()
                .unwrap_err()
                .to_string()
                .starts_with("layers:")
        );
    }
}
