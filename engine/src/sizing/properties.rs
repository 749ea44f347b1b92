//! Property tests: the monotonic facts every sizing must respect, for both memory models.
//!
//! * more memory never fits fewer sessions;
//! * a longer context never fits more;
//! * an FP8 cache never needs more memory than a 16-bit one (it fits at least as many);
//! * TP=2 never has a lower decode ceiling than TP=1.

use super::estimate::{SizingInput, size};
use super::gpu::gpus;
use super::memory_model::MemoryModel;
use super::model::models;
use super::precision::{KvDtype, WeightPrecision};
use super::topology::Topology;
use proptest::prelude::*;

fn memory_models() -> impl Strategy<Value = MemoryModel> {
    prop_oneof![Just(MemoryModel::Planning), Just(MemoryModel::Vllm)]
}

fn precisions() -> impl Strategy<Value = WeightPrecision> {
    prop::sample::select(WeightPrecision::ALL.to_vec())
}

fn input(
    model_index: usize,
    gpu_index: usize,
    weights: WeightPrecision,
    kv: KvDtype,
    tp: u32,
    context: u64,
    memory_model: MemoryModel,
) -> SizingInput {
    let all_models = models();
    let all_gpus = gpus();
    SizingInput::new(
        all_models[model_index % all_models.len()].clone(),
        weights,
        kv,
        all_gpus[gpu_index % all_gpus.len()].clone(),
        Topology::new(tp, 1, 1),
        context,
        memory_model,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn more_memory_never_fits_fewer_sessions(
        m in 0usize..64, g in 0usize..64, weights in precisions(),
        context in 512u64..65_536, extra_gib in 0.1f64..200.0, model in memory_models(),
    ) {
        let mut base = input(m, g, weights, KvDtype::Fp8, 1, context, model);
        // Same settings on both cards: vLLM's default batch size depends on the card's memory.
        base.max_num_batched_tokens = Some(8_192);
        let mut bigger = base.clone();
        bigger.gpu.memory_driver_gib += extra_gib;
        bigger.gpu.memory_cuda_gib += extra_gib;
        let (a, b) = (size(&base).unwrap(), size(&bigger).unwrap());
        prop_assert!(b.sessions >= a.sessions, "{} -> {}", a.sessions, b.sessions);
        prop_assert!(b.kv_cache_tokens >= a.kv_cache_tokens);
        prop_assert!(!a.fits || b.fits);
    }

    #[test]
    fn a_longer_context_never_fits_more(
        m in 0usize..64, g in 0usize..64, weights in precisions(),
        context in 512u64..65_536, longer in 1u64..65_536, model in memory_models(),
    ) {
        let short = input(m, g, weights, KvDtype::Bits16, 1, context, model);
        let mut long = short.clone();
        long.context_tokens = context + longer;
        let (a, b) = (size(&short).unwrap(), size(&long).unwrap());
        prop_assert!(b.sessions <= a.sessions, "{} -> {}", a.sessions, b.sessions);
        prop_assert!(!b.fits || a.fits);
    }

    #[test]
    fn an_fp8_cache_never_needs_more_than_16_bit(
        m in 0usize..64, g in 0usize..64, weights in precisions(),
        context in 512u64..131_072, model in memory_models(),
    ) {
        let sixteen = input(m, g, weights, KvDtype::Bits16, 1, context, model);
        let mut fp8 = sixteen.clone();
        fp8.kv_dtype = KvDtype::Fp8;
        let (a, b) = (size(&sixteen).unwrap(), size(&fp8).unwrap());
        prop_assert!(b.session_gib <= a.session_gib);
        prop_assert!(b.sessions >= a.sessions);
        prop_assert!(b.kv_cache_tokens >= a.kv_cache_tokens);
    }

    #[test]
    fn tp2_never_has_a_lower_ceiling_than_tp1(
        m in 0usize..64, g in 0usize..64, weights in precisions(),
        kv in prop::sample::select(KvDtype::ALL.to_vec()), model in memory_models(),
    ) {
        let one = input(m, g, weights, kv, 1, 8_192, model);
        let mut two = one.clone();
        two.topology = Topology::new(2, 1, 1);
        let a = size(&one).unwrap();
        if let Ok(b) = size(&two) {
            prop_assert!(b.decode_tokens_per_s >= a.decode_tokens_per_s);
        }
    }
}
