//! Weights: parameters by kind, checkpoint bytes per precision, the share each card holds, and
//! the bytes a decode step reads.
//!
//! Decisions (checked against `sizing.md` §1.2 and §3.3):
//! * Linear layers (attention projections, MLP, experts) take the precision's bytes per
//!   parameter; embeddings, `lm_head`, norms, biases and routers stay BF16. This gives the
//!   worked example's 67.67 GiB (FP8) and 39.78 GiB (NVFP4) for Llama 3.3 70B.
//! * MXFP4 on a MoE model quantises the routed and shared experts only (how gpt-oss ships);
//!   attention stays BF16.
//! * A published checkpoint size for the precision beats the computed one.
//! * **Bytes read per decode step** = the checkpoint less the input-embedding table (a step reads
//!   one row of it, not the table), unless the embeddings are tied, because then `lm_head` *is*
//!   that table and the logits read all of it. For MoE, a single stream reads the routed experts
//!   at `top_k / experts` of their bytes; everything else is read whole. This gives 70.56 GB for
//!   the FP8 70B, not the 72.7 GB of the whole file.
//! * Per card: tensor parallelism shards every linear layer and the vocabulary-parallel
//!   embeddings and `lm_head` by TP; norms, biases and routers are replicated; MLA's down
//!   projections (`q_a`, `kv_a`) are replicated (vLLM loads them as `ReplicatedLinear`).
//!   Pipeline stages hold their layers; the first also holds the embeddings, the last `lm_head`
//!   (both when tied, as vLLM loads the tied table on each end).

use super::model::{AttentionKind, ModelSpec};
use super::precision::WeightPrecision;
use super::{GB, GIB};
use serde::{Deserialize, Serialize};

/// Parameter counts of a model by kind, for one layer range or the whole model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct ParamBreakdown {
    /// Input-embedding table.
    pub embedding: f64,
    /// Output projection (0 when tied to the embeddings).
    pub lm_head: f64,
    /// Attention projections that tensor parallelism shards.
    pub attention_sharded: f64,
    /// Attention projections every rank holds whole (MLA `q_a`, `kv_a`).
    pub attention_replicated: f64,
    /// Dense MLP matrices.
    pub dense_mlp: f64,
    /// Routed experts, all of them.
    pub routed_experts: f64,
    /// Shared experts.
    pub shared_experts: f64,
    /// Norms, biases, routers: kept 16-bit and replicated.
    pub small: f64,
    /// Routed-expert fraction a single token reads (top-k ÷ experts); 1 without MoE.
    pub routed_fraction_read: f64,
}

impl ParamBreakdown {
    /// All parameters.
    pub fn total(&self) -> f64 {
        self.embedding + self.lm_head + self.linear() + self.small
    }

    /// Parameters of linear layers (the ones a precision quantises).
    pub fn linear(&self) -> f64 {
        self.attention_sharded
            + self.attention_replicated
            + self.dense_mlp
            + self.routed_experts
            + self.shared_experts
    }

    /// Parameters one token uses: routed experts at top-k, everything else whole (embeddings
    /// included, as published "active" counts usually do).
    pub fn active_per_token(&self) -> f64 {
        self.total() - self.routed_experts * (1.0 - self.routed_fraction_read)
    }
}

fn attention_params_per_layer(model: &ModelSpec) -> (f64, f64) {
    let h = model.hidden_size as f64;
    let heads = model.attention_heads as f64;
    match &model.attention {
        AttentionKind::Mla {
            q_lora_rank,
            kv_lora_rank,
            qk_nope_head_dim,
            qk_rope_head_dim,
            v_head_dim,
        } => {
            let (kvl, nope, rope, v) = (
                *kv_lora_rank as f64,
                *qk_nope_head_dim as f64,
                *qk_rope_head_dim as f64,
                *v_head_dim as f64,
            );
            let (q_replicated, q_sharded) = match q_lora_rank {
                Some(ql) => (h * *ql as f64, *ql as f64 * heads * (nope + rope)),
                None => (0.0, h * heads * (nope + rope)),
            };
            let replicated = q_replicated + h * (kvl + rope);
            let sharded = q_sharded + kvl * heads * (nope + v) + heads * v * h;
            (sharded, replicated)
        }
        _ => {
            let hd = model.head_dim as f64;
            let kv = model.kv_heads as f64;
            (h * heads * hd * 2.0 + 2.0 * h * kv * hd, 0.0)
        }
    }
}

/// Parameters of the layers in `layers` (a range of layer indices), plus the embeddings and
/// `lm_head` when `with_embedding` / `with_lm_head`.
pub fn param_breakdown_for(
    model: &ModelSpec,
    layers: std::ops::Range<u32>,
    with_embedding: bool,
    with_lm_head: bool,
) -> ParamBreakdown {
    let h = model.hidden_size as f64;
    let (attn_sharded, attn_replicated) = attention_params_per_layer(model);
    let bias = if model.attention_bias {
        (model.attention_heads as f64 + 2.0 * model.kv_heads as f64) * model.head_dim as f64
    } else {
        0.0
    };
    let mut out = ParamBreakdown {
        routed_fraction_read: 1.0,
        ..ParamBreakdown::default()
    };
    for layer in layers.clone() {
        out.attention_sharded += attn_sharded;
        out.attention_replicated += attn_replicated;
        out.small += 2.0 * h + bias;
        match &model.moe {
            Some(moe) if layer >= moe.dense_layers => {
                let per_expert = 3.0 * h * moe.expert_intermediate_size as f64;
                out.routed_experts += moe.experts as f64 * per_expert;
                let shared_inter = moe
                    .shared_expert_intermediate_size
                    .unwrap_or(moe.shared_experts as u64 * moe.expert_intermediate_size)
                    as f64;
                out.shared_experts += 3.0 * h * shared_inter;
                out.small += h * moe.experts as f64;
            }
            _ => out.dense_mlp += 3.0 * h * model.intermediate_size as f64,
        }
    }
    if let Some(moe) = &model.moe {
        out.routed_fraction_read = moe.experts_per_token as f64 / moe.experts as f64;
    }
    let table = model.vocab_size as f64 * h;
    if with_embedding {
        out.embedding = table;
    }
    if with_lm_head && (!model.tied_embeddings || !with_embedding) {
        out.lm_head = table;
    }
    if with_lm_head && layers.end == model.layers {
        out.small += h;
    }
    out
}

/// Parameters of the whole model.
pub fn param_breakdown(model: &ModelSpec) -> ParamBreakdown {
    param_breakdown_for(model, 0..model.layers, true, true)
}

fn expert_only_quantisation(model: &ModelSpec, precision: WeightPrecision) -> bool {
    precision == WeightPrecision::Mxfp4 && model.is_moe()
}

/// Bytes of the parameters in `params` stored at `precision`.
pub fn bytes_of(model: &ModelSpec, params: &ParamBreakdown, precision: WeightPrecision) -> f64 {
    let q = precision.linear_bytes_per_param();
    let sixteen = 2.0;
    let experts = params.routed_experts + params.shared_experts;
    let attention_and_mlp =
        params.attention_sharded + params.attention_replicated + params.dense_mlp;
    let linear_bytes = if expert_only_quantisation(model, precision) {
        experts * q + attention_and_mlp * sixteen
    } else {
        (experts + attention_and_mlp) * q
    };
    linear_bytes + (params.embedding + params.lm_head + params.small) * sixteen
}

/// Checkpoint size computed from the shapes, bytes.
pub fn computed_checkpoint_bytes(model: &ModelSpec, precision: WeightPrecision) -> f64 {
    bytes_of(model, &param_breakdown(model), precision)
}

/// Whole-model checkpoint, GiB: a published size for the precision if the model lists one,
/// otherwise computed from the shapes. Not rounded.
pub fn checkpoint_gib(model: &ModelSpec, precision: WeightPrecision) -> f64 {
    published_checkpoint_gib(model, precision)
        .unwrap_or_else(|| computed_checkpoint_bytes(model, precision) / GIB)
}

/// The published checkpoint size for `precision`, GiB, if the model lists one (16-bit sizes
/// are interchangeable between BF16 and FP16).
pub fn published_checkpoint_gib(model: &ModelSpec, precision: WeightPrecision) -> Option<f64> {
    model
        .published_checkpoints
        .iter()
        .find(|p| p.precision == precision || (p.precision.is_16bit() && precision.is_16bit()))
        .map(|p| p.gib)
}

/// The largest whole-model resident size a real vLLM log reported for `precision`, GiB.
pub fn measured_resident_gib(model: &ModelSpec, precision: WeightPrecision) -> Option<f64> {
    model
        .vllm_resident
        .iter()
        .filter(|m| m.precision == precision || (m.precision.is_16bit() && precision.is_16bit()))
        .map(|m| m.gib)
        .reduce(f64::max)
}

/// Weights one card holds, bytes, at tensor-parallel size `tp` on the pipeline stage that owns
/// `layers` (`first_stage` holds the embeddings, `last_stage` the `lm_head`).
pub fn rank_weight_bytes(
    model: &ModelSpec,
    precision: WeightPrecision,
    tp: u32,
    layers: std::ops::Range<u32>,
    first_stage: bool,
    last_stage: bool,
) -> f64 {
    let params = param_breakdown_for(model, layers, first_stage, last_stage);
    let tp = tp as f64;
    let sharded = ParamBreakdown {
        embedding: params.embedding / tp,
        lm_head: params.lm_head / tp,
        attention_sharded: params.attention_sharded / tp,
        attention_replicated: params.attention_replicated,
        dense_mlp: params.dense_mlp / tp,
        routed_experts: params.routed_experts / tp,
        shared_experts: params.shared_experts / tp,
        small: params.small,
        routed_fraction_read: params.routed_fraction_read,
    };
    bytes_of(model, &sharded, precision)
}

/// Weights one card holds, GiB, for a topology: the most loaded pipeline stage's share at its
/// tensor-parallel size (copies do not change it), computed from the shapes.
pub fn weights_gib_per_card(
    model: &ModelSpec,
    precision: WeightPrecision,
    topology: &super::topology::Topology,
) -> f64 {
    let stages = super::topology::pipeline_stages(model.layers, topology.pp);
    let last = stages.len() - 1;
    stages
        .into_iter()
        .enumerate()
        .map(|(i, layers)| {
            rank_weight_bytes(model, precision, topology.tp, layers, i == 0, i == last)
        })
        .fold(0.0, f64::max)
        / GIB
}

/// Bytes a single-stream decode step reads from memory for the whole model (all cards
/// together), in decimal GB: the checkpoint less the input-embedding table unless tied, with
/// routed experts at top-k.
pub fn decode_read_gb_per_token(model: &ModelSpec, precision: WeightPrecision) -> f64 {
    let params = param_breakdown(model);
    let mut read = params.clone();
    if !model.tied_embeddings {
        read.embedding = 0.0;
    }
    read.routed_experts *= params.routed_fraction_read;
    let computed_whole = bytes_of(model, &params, precision);
    let computed_read = bytes_of(model, &read, precision);
    // A published checkpoint that differs from the shapes (Meta's FP8 405B keeps attention in
    // BF16) scales the read by the same factor.
    let scale = published_checkpoint_gib(model, precision)
        .map(|gib| gib * GIB / computed_whole)
        .unwrap_or(1.0);
    computed_read * scale / GB
}

/// The parameter counts and checkpoint size of a model, from its shapes where the catalog row
/// does not publish them (here, beside the arithmetic they use, so the model's description
/// does not depend on this module).
impl ModelSpec {
    /// Total parameters, billions: the published figure, or the count from the shapes.
    pub fn total_params_b(&self) -> f64 {
        self.total_params_b
            .unwrap_or_else(|| param_breakdown(self).total() / 1e9)
    }

    /// Parameters active per token, billions: the published figure, or the count from the
    /// shapes (routed experts counted at top-k).
    pub fn active_params_b(&self) -> f64 {
        self.active_params_b
            .unwrap_or_else(|| param_breakdown(self).active_per_token() / 1e9)
    }

    /// Whole-model checkpoint at `precision`, GiB: published if listed, else computed from the
    /// shapes.
    pub fn checkpoint_gib(&self, precision: WeightPrecision) -> f64 {
        checkpoint_gib(self, precision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::model::model_by_id;

    #[test]
    fn the_worked_example_checkpoints_come_from_the_shapes() {
        let llama = model_by_id("llama-3.3-70b").unwrap();
        let fp8 = checkpoint_gib(&llama, WeightPrecision::Fp8);
        let nvfp4 = checkpoint_gib(&llama, WeightPrecision::Nvfp4);
        assert!((fp8 - 67.67).abs() < 0.01, "{fp8}");
        assert!((nvfp4 - 39.78).abs() < 0.01, "{nvfp4}");
        let read_fp8 = decode_read_gb_per_token(&llama, WeightPrecision::Fp8);
        let read_nvfp4 = decode_read_gb_per_token(&llama, WeightPrecision::Nvfp4);
        assert!((read_fp8 - 70.56).abs() < 0.01, "{read_fp8}");
        assert!((read_nvfp4 - 40.61).abs() < 0.01, "{read_nvfp4}");
    }

    #[test]
    fn qwen_7b_at_16_bit_is_the_reports_15_2_gb() {
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let bytes = computed_checkpoint_bytes(&qwen, WeightPrecision::Fp16);
        assert!((bytes / GB - 15.2).abs() < 0.05, "{}", bytes / GB);
    }

    #[test]
    fn moe_reads_only_the_routed_experts() {
        let mixtral = model_by_id("mixtral-8x7b").unwrap();
        let whole = computed_checkpoint_bytes(&mixtral, WeightPrecision::Bf16) / GB;
        let read = decode_read_gb_per_token(&mixtral, WeightPrecision::Bf16);
        assert!(read < whole * 0.35, "{read} of {whole}");
        let oss = model_by_id("gpt-oss-120b").unwrap();
        let mxfp4 = checkpoint_gib(&oss, WeightPrecision::Mxfp4);
        // Experts in MXFP4, attention and embeddings BF16: the ~65 GB file.
        assert!((mxfp4 - 60.7).abs() < 0.3, "{mxfp4}");
    }

    #[test]
    fn tied_embeddings_are_read_whole() {
        let gemma = model_by_id("gemma-3-27b").unwrap();
        let whole = computed_checkpoint_bytes(&gemma, WeightPrecision::Bf16) / GB;
        let read = decode_read_gb_per_token(&gemma, WeightPrecision::Bf16);
        assert!((whole - read).abs() < 1e-6);
    }

    #[test]
    fn tensor_parallel_shards_add_up_to_the_model() {
        let llama = model_by_id("llama-3.3-70b").unwrap();
        let whole = computed_checkpoint_bytes(&llama, WeightPrecision::Fp8);
        let rank = rank_weight_bytes(&llama, WeightPrecision::Fp8, 4, 0..80, true, true);
        let replicated_norms = param_breakdown(&llama).small * 2.0;
        assert!((rank * 4.0 - whole - 3.0 * replicated_norms).abs() < 1.0);
        let stage0 = rank_weight_bytes(&llama, WeightPrecision::Fp8, 1, 0..40, true, false);
        let stage1 = rank_weight_bytes(&llama, WeightPrecision::Fp8, 1, 40..80, false, true);
        assert!((stage0 + stage1 - whole).abs() < 1.0);
    }

    #[test]
    fn every_precision_has_its_per_card_weights() {
        use crate::sizing::topology::Topology;
        let llama = model_by_id("llama-3.3-70b").unwrap();
        let one = Topology::single();
        let sizes: Vec<f64> = WeightPrecision::ALL
            .iter()
            .map(|&p| weights_gib_per_card(&llama, p, &one))
            .collect();
        // bf16, fp16, fp8, int8, nvfp4, mxfp4, int4
        assert_eq!(sizes[0], sizes[1]);
        assert_eq!(sizes[2], sizes[3]);
        assert!(
            sizes[0] > sizes[2]
                && sizes[2] > sizes[4]
                && sizes[4] > sizes[5]
                && sizes[5] > sizes[6]
        );
        let tp4 = weights_gib_per_card(&llama, WeightPrecision::Fp8, &Topology::new(4, 1, 2));
        assert!((tp4 - sizes[2] / 4.0).abs() < 0.01, "{tp4}");
    }

    #[test]
    fn mla_projections_stay_whole_on_every_rank() {
        let deepseek = model_by_id("deepseek-v3").unwrap();
        let params = param_breakdown(&deepseek);
        assert!(params.attention_replicated > 0.0);
        let total_b = params.total() / 1e9;
        assert!((total_b - 671.0).abs() < 5.0, "{total_b}");
        let active_b = params.active_per_token() / 1e9;
        assert!((active_b - 37.5).abs() < 1.0, "{active_b}");
    }
}
