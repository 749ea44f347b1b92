//! A [`ModelSpec`] from a pasted Hugging Face `config.json`.
//!
//! Reads the keys of the Llama, Qwen2/2.5, Qwen3, Qwen3-MoE, Mistral, Mixtral, DeepSeek-V3,
//! gpt-oss and Gemma 3 configs (and the families that copy them):
//! * multimodal wrappers (Gemma 3) nest the language model in `text_config`, whose keys win;
//! * MoE: `num_local_experts` / `num_experts` / `n_routed_experts`, `num_experts_per_tok` /
//!   `experts_per_token`, `moe_intermediate_size` (else `intermediate_size`),
//!   `n_shared_experts`, `shared_expert_intermediate_size`, `first_k_dense_replace`;
//! * MLA: `kv_lora_rank`, `q_lora_rank`, `qk_nope_head_dim`, `qk_rope_head_dim`, `v_head_dim`;
//! * sliding windows: `layer_types` when present, else `sliding_window` with
//!   `sliding_window_pattern` (every n-th layer global) or on every layer, unless
//!   `use_sliding_window` is false (Qwen2 ships a window it does not use);
//! * hybrids: `layer_types` with `linear_attention`, or `full_attention_interval`.
//!
//! Missing keys that have no safe default are errors naming the key. `tie_word_embeddings`
//! defaults to true for Gemma (as its config class does) and false otherwise; Qwen2 models
//! always have Q/K/V biases.

use super::SizingError;
use super::model::{AttentionKind, ModelSpec, MoeSpec};
use crate::locale::Lang;
use serde_json::{Map, Value};

struct Config {
    top: Map<String, Value>,
    text: Option<Map<String, Value>>,
}

impl Config {
    fn get(&self, key: &str) -> Option<&Value> {
        self.text
            .as_ref()
            .and_then(|t| t.get(key))
            .filter(|v| !v.is_null())
            .or_else(|| self.top.get(key).filter(|v| !v.is_null()))
    }

    fn u64_opt(&self, key: &str) -> Result<Option<u64>, SizingError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                let shown = if v.is_number() {
                    Lang::De.separators(&v.to_string())
                } else {
                    v.to_string()
                };
                SizingError::HfConfig(
                    format!("field `{key}` must be a whole number, got {v}"),
                    format!("Feld `{key}` muss eine ganze Zahl sein, erhalten: {shown}"),
                )
            }),
        }
    }

    fn u64_req(&self, key: &str) -> Result<u64, SizingError> {
        self.u64_opt(key)?.ok_or_else(|| missing(key))
    }

    fn first_u64(&self, keys: &[&str]) -> Result<Option<u64>, SizingError> {
        for key in keys {
            if let Some(v) = self.u64_opt(key)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    fn bool_opt(&self, key: &str) -> Option<bool> {
        self.get(key).and_then(Value::as_bool)
    }

    fn str_opt(&self, key: &str) -> Option<String> {
        self.get(key).and_then(Value::as_str).map(str::to_string)
    }
}

/// A required field found neither at the top level nor in `text_config`.
fn missing(key: &str) -> SizingError {
    SizingError::HfConfig(
        format!("missing field `{key}` (looked in the top level and in text_config)"),
        format!("Feld `{key}` fehlt (gesucht auf der obersten Ebene und in text_config)"),
    )
}

/// A required field of a MoE model, with the other name it may have.
fn missing_moe(key: &str, other: &str) -> SizingError {
    SizingError::HfConfig(
        format!("missing field `{key}` (or `{other}`) for a MoE model"),
        format!("Feld `{key}` (oder `{other}`) fehlt für ein MoE-Modell"),
    )
}

fn to_u32(key: &str, value: u64) -> Result<u32, SizingError> {
    u32::try_from(value).map_err(|_| {
        SizingError::HfConfig(
            format!("field `{key}` is too large ({value})"),
            format!("Feld `{key}` ist zu groß ({value})"),
        )
    })
}

/// Why a text is not JSON, in German: the kind of fault and where (serde_json words it in
/// English only).
fn json_fault_de(e: &serde_json::Error) -> String {
    let kind = match e.classify() {
        serde_json::error::Category::Eof => "unerwartetes Ende",
        serde_json::error::Category::Syntax => "Syntaxfehler",
        serde_json::error::Category::Data => "unpassender Wert",
        serde_json::error::Category::Io => "Lesefehler",
    };
    format!(
        "kein gültiges JSON: {kind} in Zeile {}, Spalte {}",
        e.line(),
        e.column()
    )
}

impl ModelSpec {
    /// Builds a model from the text of a Hugging Face `config.json`. The result has id
    /// `custom` and its name from `_name_or_path` (or the model type); check it with
    /// [`ModelSpec::validate`] before sizing (done by `size`).
    pub fn from_hf_config(json: &str) -> Result<ModelSpec, SizingError> {
        let value: Value = serde_json::from_str(json).map_err(|e| {
            SizingError::HfConfig(format!("not valid JSON: {e}"), json_fault_de(&e))
        })?;
        let Value::Object(top) = value else {
            return Err(SizingError::HfConfig(
                "expected a JSON object".into(),
                "erwartet wird ein JSON-Objekt".into(),
            ));
        };
        let text = top.get("text_config").and_then(Value::as_object).cloned();
        let config = Config { top, text };

        let model_type = config.str_opt("model_type").unwrap_or_default();
        let architecture = config
            .top
            .get("architectures")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .unwrap_or(&model_type)
            .to_string();
        let family = format!("{model_type} {architecture}").to_ascii_lowercase();

        let layers = to_u32("num_hidden_layers", config.u64_req("num_hidden_layers")?)?;
        let heads = to_u32(
            "num_attention_heads",
            config.u64_req("num_attention_heads")?,
        )?;
        let hidden = config.u64_req("hidden_size")?;
        let vocab = config.u64_req("vocab_size")?;
        let max_context = config.u64_req("max_position_embeddings")?;
        let kv_heads = match config.u64_opt("num_key_value_heads")? {
            Some(kv) => to_u32("num_key_value_heads", kv)?,
            None => heads,
        };

        let mla = match config.u64_opt("kv_lora_rank")? {
            Some(kv_lora_rank) => Some(AttentionKind::Mla {
                q_lora_rank: config.u64_opt("q_lora_rank")?,
                kv_lora_rank,
                qk_nope_head_dim: config.u64_req("qk_nope_head_dim")?,
                qk_rope_head_dim: config.u64_req("qk_rope_head_dim")?,
                v_head_dim: config.u64_req("v_head_dim")?,
            }),
            None => None,
        };
        let head_dim = match (&mla, config.u64_opt("head_dim")?) {
            (
                Some(AttentionKind::Mla {
                    qk_nope_head_dim,
                    qk_rope_head_dim,
                    ..
                }),
                _,
            ) => qk_nope_head_dim + qk_rope_head_dim,
            (_, Some(d)) => d,
            (_, None) => hidden / heads.max(1) as u64,
        };

        let experts =
            config.first_u64(&["num_local_experts", "num_experts", "n_routed_experts"])?;
        let moe = match experts.filter(|&e| e > 1) {
            Some(experts) => {
                let top_k = config
                    .first_u64(&["num_experts_per_tok", "experts_per_token", "moe_topk"])?
                    .ok_or_else(|| missing_moe("num_experts_per_tok", "experts_per_token"))?;
                let expert_inter = config
                    .first_u64(&["moe_intermediate_size", "intermediate_size"])?
                    .ok_or_else(|| missing_moe("moe_intermediate_size", "intermediate_size"))?;
                Some(MoeSpec {
                    experts: to_u32("num_experts", experts)?,
                    experts_per_token: to_u32("num_experts_per_tok", top_k)?,
                    expert_intermediate_size: expert_inter,
                    shared_experts: to_u32(
                        "n_shared_experts",
                        config.u64_opt("n_shared_experts")?.unwrap_or(0),
                    )?,
                    shared_expert_intermediate_size: config
                        .u64_opt("shared_expert_intermediate_size")?,
                    dense_layers: to_u32(
                        "first_k_dense_replace",
                        config.u64_opt("first_k_dense_replace")?.unwrap_or(0),
                    )?,
                })
            }
            None => None,
        };
        let intermediate = match (&moe, config.u64_opt("intermediate_size")?) {
            (_, Some(i)) => i,
            (Some(m), None) => m.expert_intermediate_size,
            (None, None) => return Err(missing("intermediate_size")),
        };

        let attention = match mla {
            Some(mla) => mla,
            None => window_attention(&config, layers, max_context)?,
        };

        let tied = config
            .bool_opt("tie_word_embeddings")
            .unwrap_or(family.contains("gemma"));
        let attention_bias = config
            .bool_opt("attention_bias")
            .unwrap_or(family.contains("qwen2"));
        let name = config
            .str_opt("_name_or_path")
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| {
                if model_type.is_empty() {
                    "Model from config.json".to_string()
                } else {
                    model_type.clone()
                }
            });

        Ok(ModelSpec {
            id: "custom".into(),
            hf_repo: config.str_opt("_name_or_path"),
            name,
            architecture,
            layers,
            attention_heads: heads,
            kv_heads,
            head_dim: to_u32("head_dim", head_dim)?,
            hidden_size: hidden,
            intermediate_size: intermediate,
            vocab_size: vocab,
            tied_embeddings: tied,
            attention_bias,
            total_params_b: None,
            active_params_b: None,
            attention,
            moe,
            max_context_tokens: max_context,
            published_checkpoints: Vec::new(),
            vllm_resident: Vec::new(),
            sources: vec!["pasted config.json".into()],
            notes: None,
        })
    }
}

fn window_attention(
    config: &Config,
    layers: u32,
    max_context: u64,
) -> Result<AttentionKind, SizingError> {
    if let Some(types) = config.get("layer_types").and_then(Value::as_array) {
        let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
        let full: Vec<u32> = names
            .iter()
            .enumerate()
            .filter(|(_, t)| t.contains("full"))
            .map(|(i, _)| i as u32)
            .collect();
        if names
            .iter()
            .any(|t| t.contains("linear") || t.contains("mamba"))
        {
            return Ok(AttentionKind::Hybrid {
                full_attention_layers: full,
            });
        }
        if names.iter().any(|t| t.contains("sliding")) {
            let window = config.u64_req("sliding_window")?;
            return Ok(AttentionKind::SlidingWindow {
                window_tokens: window,
                full_attention_layers: full,
            });
        }
        return Ok(AttentionKind::Gqa);
    }
    if let Some(interval) = config
        .u64_opt("full_attention_interval")?
        .filter(|&n| n > 0)
    {
        return Ok(AttentionKind::Hybrid {
            full_attention_layers: (0..layers)
                .filter(|i| ((i + 1) as u64).is_multiple_of(interval))
                .collect(),
        });
    }
    let window = config.u64_opt("sliding_window")?;
    let used = config.bool_opt("use_sliding_window").unwrap_or(true);
    match window {
        Some(window) if used && window < max_context => {
            let pattern = config.u64_opt("sliding_window_pattern")?.unwrap_or(0);
            let full = if pattern > 0 {
                (0..layers)
                    .filter(|i| ((i + 1) as u64).is_multiple_of(pattern))
                    .collect()
            } else {
                Vec::new()
            };
            Ok(AttentionKind::SlidingWindow {
                window_tokens: window,
                full_attention_layers: full,
            })
        }
        _ => Ok(AttentionKind::Gqa),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::model::{ModelClass, model_by_id};
    use crate::sizing::weights::param_breakdown;

    const LLAMA_70B: &str = r#"{
      "_name_or_path": "meta-llama/Llama-3.3-70B-Instruct",
      "architectures": ["LlamaForCausalLM"], "model_type": "llama",
      "hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,
      "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 128256,
      "max_position_embeddings": 131072, "tie_word_embeddings": false,
      "attention_bias": false, "rope_scaling": {"factor": 8.0, "rope_type": "llama3"}
    }"#;

    #[test]
    fn a_llama_config_matches_the_catalog_row() {
        let model = ModelSpec::from_hf_config(LLAMA_70B).unwrap();
        let catalog = model_by_id("llama-3.3-70b").unwrap();
        assert_eq!(model.layers, catalog.layers);
        assert_eq!(model.head_dim, 128);
        assert_eq!(model.attention, AttentionKind::Gqa);
        assert_eq!(param_breakdown(&model), param_breakdown(&catalog));
        assert_eq!(model.name, "meta-llama/Llama-3.3-70B-Instruct");
        model.validate().unwrap();
    }

    #[test]
    fn qwen2_biases_and_an_unused_window() {
        let json = r#"{"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
          "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28,
          "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064,
          "max_position_embeddings": 32768, "sliding_window": 131072,
          "use_sliding_window": false, "tie_word_embeddings": false}"#;
        let model = ModelSpec::from_hf_config(json).unwrap();
        assert!(model.attention_bias);
        assert_eq!(model.attention, AttentionKind::Gqa);
        let catalog = model_by_id("qwen2.5-7b").unwrap();
        assert_eq!(param_breakdown(&model), param_breakdown(&catalog));
    }

    #[test]
    fn qwen3_moe_and_mixtral_keys() {
        let qwen = r#"{"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe",
          "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 768,
          "num_attention_heads": 32, "num_hidden_layers": 48, "num_key_value_heads": 4,
          "head_dim": 128, "num_experts": 128, "num_experts_per_tok": 8,
          "vocab_size": 151936, "max_position_embeddings": 40960, "tie_word_embeddings": false,
          "sliding_window": null, "use_sliding_window": false}"#;
        let model = ModelSpec::from_hf_config(qwen).unwrap();
        assert_eq!(model.class(), ModelClass::Moe);
        let catalog = model_by_id("qwen3-30b-a3b").unwrap();
        assert_eq!(param_breakdown(&model), param_breakdown(&catalog));
        let mixtral = r#"{"architectures": ["MixtralForCausalLM"], "model_type": "mixtral",
          "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
          "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8,
          "num_experts_per_tok": 2, "vocab_size": 32000, "max_position_embeddings": 32768,
          "sliding_window": null, "tie_word_embeddings": false}"#;
        let model = ModelSpec::from_hf_config(mixtral).unwrap();
        assert_eq!(model.moe.as_ref().unwrap().expert_intermediate_size, 14_336);
    }

    #[test]
    fn deepseek_v3_is_mla_with_dense_lead_layers() {
        let json = r#"{"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
          "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
          "num_attention_heads": 128, "num_hidden_layers": 61, "num_key_value_heads": 128,
          "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8,
          "first_k_dense_replace": 3, "kv_lora_rank": 512, "q_lora_rank": 1536,
          "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
          "vocab_size": 129280, "max_position_embeddings": 163840,
          "tie_word_embeddings": false, "num_nextn_predict_layers": 1}"#;
        let model = ModelSpec::from_hf_config(json).unwrap();
        let catalog = model_by_id("deepseek-v3").unwrap();
        assert_eq!(model.attention, catalog.attention);
        assert_eq!(param_breakdown(&model), param_breakdown(&catalog));
    }

    #[test]
    fn gpt_oss_layer_types_and_gemma_text_config() {
        let types: Vec<String> = (0..24)
            .map(|i| {
                if i % 2 == 0 {
                    "\"sliding_attention\"".to_string()
                } else {
                    "\"full_attention\"".to_string()
                }
            })
            .collect();
        let json = format!(
            r#"{{"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss",
              "hidden_size": 2880, "intermediate_size": 2880, "num_attention_heads": 64,
              "num_hidden_layers": 24, "num_key_value_heads": 8, "head_dim": 64,
              "num_local_experts": 32, "experts_per_token": 4, "sliding_window": 128,
              "layer_types": [{}], "vocab_size": 201088,
              "max_position_embeddings": 131072, "attention_bias": true,
              "tie_word_embeddings": false}}"#,
            types.join(",")
        );
        let model = ModelSpec::from_hf_config(&json).unwrap();
        assert_eq!(
            model.attention,
            model_by_id("gpt-oss-20b").unwrap().attention
        );

        let gemma = r#"{"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
          "text_config": {"model_type": "gemma3_text", "hidden_size": 5376,
            "intermediate_size": 21504, "num_attention_heads": 32, "num_hidden_layers": 62,
            "num_key_value_heads": 16, "head_dim": 128, "sliding_window": 1024,
            "sliding_window_pattern": 6, "vocab_size": 262208,
            "max_position_embeddings": 131072},
          "vision_config": {"hidden_size": 1152}}"#;
        let model = ModelSpec::from_hf_config(gemma).unwrap();
        let catalog = model_by_id("gemma-3-27b").unwrap();
        assert!(model.tied_embeddings);
        assert_eq!(model.attention, catalog.attention);
        assert_eq!(model.architecture, "Gemma3ForConditionalGeneration");
    }

    #[test]
    fn missing_and_malformed_fields_are_named() {
        let err = ModelSpec::from_hf_config(r#"{"hidden_size": 4096}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "config.json: missing field `num_hidden_layers` (looked in the top level and in text_config)"
        );
        let err = ModelSpec::from_hf_config("{not json")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("config.json: not valid JSON"), "{err}");
        let err =
            ModelSpec::from_hf_config(r#"{"num_hidden_layers": "32", "num_attention_heads": 32}"#)
                .unwrap_err()
                .to_string();
        assert!(
            err.contains("`num_hidden_layers` must be a whole number"),
            "{err}"
        );
        let moe_without_top_k = r#"{"num_hidden_layers": 2, "num_attention_heads": 2,
          "hidden_size": 8, "vocab_size": 10, "max_position_embeddings": 64,
          "num_local_experts": 4, "intermediate_size": 16}"#;
        let err = ModelSpec::from_hf_config(moe_without_top_k)
            .unwrap_err()
            .to_string();
        assert!(err.contains("num_experts_per_tok"), "{err}");
    }

    #[test]
    fn a_hybrid_config_is_recognised() {
        let json = r#"{"model_type": "qwen3_next", "hidden_size": 2048,
          "intermediate_size": 5120, "num_attention_heads": 16, "num_hidden_layers": 48,
          "num_key_value_heads": 2, "head_dim": 256, "full_attention_interval": 4,
          "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512,
          "vocab_size": 151936, "max_position_embeddings": 262144}"#;
        let model = ModelSpec::from_hf_config(json).unwrap();
        assert_eq!(model.class(), ModelClass::Hybrid);
        assert_eq!(
            model
                .layer_kinds()
                .iter()
                .filter(|k| **k == crate::sizing::model::LayerKind::Full)
                .count(),
            12
        );
    }
}
