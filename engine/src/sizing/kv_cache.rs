//! The KV cache: bytes per token, per layer and per card, and the bytes one session holds.
//!
//! * **GQA**: 2 (K and V) × KV heads × head_dim × bytes per element, per layer. Under tensor
//!   parallelism each rank holds `ceil(kv_heads / tp)` heads, so the cache is sharded while
//!   `tp ≤ kv_heads` and replicated beyond (TP=8 on 4 KV heads stores each head twice).
//! * **MLA**: one latent of `kv_lora_rank + qk_rope_head_dim` elements per layer (no factor 2),
//!   held whole on every TP rank: TP adds memory for weights but not for tokens.
//! * **Sliding window**: a sliding layer holds at most `window_tokens` of a session (the
//!   planning model; vLLM's own, more generous bound is in [`super::vllm`]).
//! * **Hybrid**: linear-attention and Mamba layers keep a fixed state per request, not a
//!   per-token cache; they count 0 here and are noted as a warning by the estimate.
//! * FP8 halves every figure ([`KvDtype::Fp8`]), which is the one lever that doubles capacity
//!   without touching the weights.

use super::model::{AttentionKind, LayerKind, ModelSpec};
use super::precision::KvDtype;
use super::topology::{Topology, kv_heads_per_rank, pipeline_stages};
use std::ops::Range;

/// KV bytes one token adds to one attention layer on one tensor-parallel rank.
pub fn kv_bytes_per_token_per_layer(model: &ModelSpec, kv: KvDtype, tp: u32) -> f64 {
    let bytes = kv.bytes_per_element();
    match &model.attention {
        AttentionKind::Mla {
            kv_lora_rank,
            qk_rope_head_dim,
            ..
        } => (*kv_lora_rank + *qk_rope_head_dim) as f64 * bytes,
        _ => 2.0 * kv_heads_per_rank(model.kv_heads, tp) as f64 * model.head_dim as f64 * bytes,
    }
}

/// Attention layers of the model (full and sliding; linear/Mamba layers excluded).
pub fn attention_layers(model: &ModelSpec) -> u32 {
    model
        .layer_kinds()
        .iter()
        .filter(|k| **k != LayerKind::Linear)
        .count() as u32
}

/// KV bytes per token of the whole model on one card (TP=1), every attention layer counted in
/// full: the textbook "2 × layers × KV heads × head_dim × bytes". 56 KiB for Qwen2.5-7B at
/// 16 bits, 160 KiB for Llama 3.3 70B in FP8.
pub fn kv_bytes_per_token_whole_model(model: &ModelSpec, kv: KvDtype) -> f64 {
    attention_layers(model) as f64 * kv_bytes_per_token_per_layer(model, kv, 1)
}

/// Tokens of a `context_tokens` session that a layer of this kind holds, with sliding layers
/// bounded by `window_bound_tokens`.
pub fn tokens_held(kind: LayerKind, context_tokens: u64, window_bound_tokens: u64) -> u64 {
    match kind {
        LayerKind::Full => context_tokens,
        LayerKind::Sliding => context_tokens.min(window_bound_tokens),
        LayerKind::Linear => 0,
    }
}

/// Bytes one session of `context_tokens` holds on one TP rank of the stage owning `layers`,
/// sliding layers bounded by their window.
pub fn session_bytes_per_rank(
    model: &ModelSpec,
    kv: KvDtype,
    tp: u32,
    layers: Range<u32>,
    context_tokens: u64,
) -> f64 {
    let per_layer = kv_bytes_per_token_per_layer(model, kv, tp);
    let window = model.window_tokens().unwrap_or(u64::MAX);
    let kinds = model.layer_kinds();
    layers
        .map(|i| tokens_held(kinds[i as usize], context_tokens, window) as f64 * per_layer)
        .sum()
}

/// Bytes one session of `context_tokens` holds across all cards of one copy.
pub fn session_bytes_per_copy(
    model: &ModelSpec,
    kv: KvDtype,
    topology: &Topology,
    context_tokens: u64,
) -> f64 {
    pipeline_stages(model.layers, topology.pp)
        .into_iter()
        .map(|stage| session_bytes_per_rank(model, kv, topology.tp, stage, context_tokens))
        .sum::<f64>()
        * topology.tp as f64
}

/// Average KV bytes per token on one card of a copy for sessions of `context_tokens` (for
/// sliding-window models: the session's bytes divided by its tokens).
pub fn kv_bytes_per_token_per_card(
    model: &ModelSpec,
    kv: KvDtype,
    topology: &Topology,
    context_tokens: u64,
) -> f64 {
    let context = context_tokens.max(1);
    session_bytes_per_copy(model, kv, topology, context)
        / context as f64
        / topology.cards_per_copy().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::model::model_by_id;
    use crate::sizing::{GIB, KIB};

    #[test]
    fn gqa_counts_kv_heads_not_query_heads() {
        let llama = model_by_id("llama-3.3-70b").unwrap();
        assert_eq!(
            kv_bytes_per_token_whole_model(&llama, KvDtype::Fp8),
            163_840.0
        );
        assert_eq!(
            kv_bytes_per_token_whole_model(&llama, KvDtype::Fp8) / KIB,
            160.0
        );
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        assert_eq!(
            kv_bytes_per_token_whole_model(&qwen, KvDtype::Bits16) / KIB,
            56.0
        );
    }

    #[test]
    fn tp_shards_gqa_until_heads_run_out() {
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let tp1 = kv_bytes_per_token_per_card(&qwen, KvDtype::Bits16, &Topology::single(), 1);
        let tp4 = kv_bytes_per_token_per_card(&qwen, KvDtype::Bits16, &Topology::new(4, 1, 1), 1);
        assert_eq!(tp4 * 4.0, tp1);
        let llama = model_by_id("llama-3.1-8b").unwrap();
        let tp8 = kv_bytes_per_token_per_layer(&llama, KvDtype::Bits16, 8);
        let tp16 = kv_bytes_per_token_per_layer(&llama, KvDtype::Bits16, 16);
        assert_eq!(tp8, tp16, "past 8 KV heads each rank still holds one head");
    }

    #[test]
    fn mla_latent_is_replicated_on_every_rank() {
        let deepseek = model_by_id("deepseek-v3").unwrap();
        let per_layer_tp1 = kv_bytes_per_token_per_layer(&deepseek, KvDtype::Bits16, 1);
        let per_layer_tp8 = kv_bytes_per_token_per_layer(&deepseek, KvDtype::Bits16, 8);
        assert_eq!(per_layer_tp1, 1152.0);
        assert_eq!(per_layer_tp1, per_layer_tp8);
        let whole = kv_bytes_per_token_whole_model(&deepseek, KvDtype::Bits16) / KIB;
        assert!((whole - 68.625).abs() < 1e-9, "{whole}");
    }

    #[test]
    fn sliding_layers_stop_at_their_window() {
        let gemma = model_by_id("gemma-3-27b").unwrap();
        let short = session_bytes_per_copy(&gemma, KvDtype::Bits16, &Topology::single(), 1_024);
        let long = session_bytes_per_copy(&gemma, KvDtype::Bits16, &Topology::single(), 2_048);
        let per_layer = kv_bytes_per_token_per_layer(&gemma, KvDtype::Bits16, 1);
        // Past the window only the 10 global layers grow.
        assert_eq!(long - short, 1_024.0 * 10.0 * per_layer);
        let session_8k =
            session_bytes_per_copy(&gemma, KvDtype::Bits16, &Topology::single(), 8_192);
        let ignoring_window = 8_192.0 * kv_bytes_per_token_whole_model(&gemma, KvDtype::Bits16);
        assert!(session_8k < ignoring_window / 3.0);
        assert!(session_8k / GIB > 0.0);
    }
}
