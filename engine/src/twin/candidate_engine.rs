//! The engine a candidate configuration runs: the scheduler limits vLLM gives it on its own card
//! (its engine generation's defaults, or the flags the deployment states) and the KV cache of
//! its own sizing.
//!
//! # Why the candidate's limits, not the measured card's
//!
//! A transferred twin ([`super::transfer`](mod@super::transfer)) carries the step cost by the
//! physics of the work; the engine limits are no physics of the work but vLLM's configuration.
//! vLLM V1 runs up to 1,024 sequences with 8,192 tokens a step on a card of 70 GiB or more (A100
//! excepted), 256 and 2,048 on the others ([`scheduler_defaults`]); a twin of an A100 moved to an
//! H100 with the A100's 256 sequences predicts a queue the H100 does not have. The back-test on
//! public runs of two GPUs (`VALIDATION.md`) measured it: TPOT p50 median error 56 % with the
//! measured card's limits, 35 % with the target card's own.
//!
//! The same code serves the back-test ([`super::validation`]), `server predict --gpu`
//! ([`super::other_configuration`]) and the capacity plan's candidates ([`candidate_twin`]).
//!
//! # Flags the pilot stated
//!
//! A limit the pilot's evidence states (start-up log, run context, `/metrics`) is a flag only
//! where it differs from vLLM's default on the pilot's own card: a start-up log states
//! `max_num_seqs=1024` on an H100 whether or not anyone set it. Such a flag is carried to the
//! candidate (the same `vllm serve` line would set it there); a default is not.

use super::Twin;
pub use super::scheduler_limits::{SchedulerFlags, SchedulerLimits};
use super::transfer::{
    ServingSetup, TransferBasis, TransferError, TransferredTwin, prior_twin, transfer,
};
use super::validation::calibration;
use crate::sizing::ModelSpec;

/// The pilot's fitted twin and the configuration it was measured on.
#[derive(Clone, Copy, Debug)]
pub struct MeasuredTwin<'a> {
    pub twin: &'a Twin,
    pub setup: &'a ServingSetup,
}

/// The twin of one candidate copy: the pilot's twin transferred to `target` (or, without a
/// load test, the prior of [`prior_twin`]), with the candidate's KV cache (`kv_cache_tokens`,
/// from its sizing) and its own scheduler limits (module docs). The measured configuration
/// itself is the identity and keeps the limits its evidence showed.
pub fn candidate_twin(
    measured: Option<MeasuredTwin<'_>>,
    model: &ModelSpec,
    target: &ServingSetup,
    kv_cache_tokens: Option<u64>,
    context_tokens: u64,
) -> Result<TransferredTwin, TransferError> {
    let (mut twin, flags) = match measured {
        Some(m) => (
            transfer(
                m.twin,
                model,
                m.setup,
                target,
                kv_cache_tokens,
                context_tokens,
            )?,
            SchedulerFlags::stated_by(&m.twin.model, &m.setup.gpu, context_tokens),
        ),
        None => (
            prior_twin(model, target, kv_cache_tokens, context_tokens)?,
            SchedulerFlags::default(),
        ),
    };
    if twin.basis != TransferBasis::Identity {
        SchedulerLimits::for_generation(&target.gpu, context_tokens, &flags).apply(&mut twin);
        // Every transferred range reaches at least what held 80 % of the back-tested transfers
        // to another GPU (`VALIDATION.md`); the measured configuration keeps its own ranges.
        twin.calibration = Some(calibration());
    }
    Ok(twin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::{WeightPrecision, gpu_by_id, model_by_id};
    use crate::twin::timing::{LimitSource, PrefillScheduling};
    use crate::twin::transfer::Execution;
    use crate::twin::transfer::tests::{demo_twin, setup};

    #[test]
    fn each_card_gets_its_own_vllm_defaults() {
        let h100 = SchedulerLimits::defaults(&gpu_by_id("h100-sxm").unwrap(), 8192);
        assert_eq!(
            (h100.max_num_seqs, h100.max_num_batched_tokens),
            (1024, 8192)
        );
        assert!(h100.chunked_prefill && !h100.stated);
        let a100 = SchedulerLimits::defaults(&gpu_by_id("a100-sxm4-80gb").unwrap(), 8192);
        assert_eq!(
            (a100.max_num_seqs, a100.max_num_batched_tokens),
            (256, 2048)
        );
        // Volta runs V0: whole prompts per step below 32,768 tokens of context.
        let v100 = SchedulerLimits::defaults(&gpu_by_id("v100-sxm2-16gb").unwrap(), 8192);
        assert_eq!((v100.max_num_seqs, v100.chunked_prefill), (256, false));
    }

    #[test]
    fn a_stated_limit_is_a_flag_only_where_it_differs_from_the_measured_cards_default() {
        let mut twin = demo_twin();
        let v100 = gpu_by_id("v100-sxm2-16gb").unwrap();
        let limits = &mut twin.model.limits;
        limits.max_running = 256;
        limits.max_running_source = LimitSource::Stated;
        limits.max_batched_tokens = 4096;
        limits.max_batched_tokens_source = LimitSource::Stated;
        let flags = SchedulerFlags::stated_by(&twin.model, &v100, 8192);
        assert_eq!(flags.max_num_seqs, None, "256 is V0's default");
        assert_eq!(flags.max_num_batched_tokens, Some(4096));
        let h100 = SchedulerLimits::for_generation(&gpu_by_id("h100-sxm").unwrap(), 8192, &flags);
        assert_eq!(
            (h100.max_num_seqs, h100.max_num_batched_tokens),
            (1024, 4096)
        );
        assert!(h100.stated);
    }

    #[test]
    fn a_candidate_runs_its_own_limits_and_the_measured_configuration_keeps_its_own() {
        let twin = demo_twin();
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let pilot = setup("v100-sxm2-16gb", 4, WeightPrecision::Fp16, Execution::Eager);
        let measured = MeasuredTwin {
            twin: &twin,
            setup: &pilot,
        };
        let h100 = setup("h100-sxm", 1, WeightPrecision::Bf16, Execution::CudaGraphs);
        let moved = candidate_twin(Some(measured), &qwen, &h100, Some(400_000), 8192).unwrap();
        for model in [&moved.low, &moved.central, &moved.high] {
            assert_eq!(model.limits.max_running, 1024);
            assert_eq!(model.limits.max_batched_tokens, 8192);
            assert_eq!(model.limits.prefill, PrefillScheduling::Chunked);
            assert_eq!(model.limits.kv_cache_tokens, Some(400_000));
            assert_eq!(model.limits.max_running_source, LimitSource::Assumed);
        }
        let same = candidate_twin(Some(measured), &qwen, &pilot, None, 8192).unwrap();
        assert_eq!(same.basis, TransferBasis::Identity);
        assert_eq!(same.central.limits, twin.model.limits);
        let prior = candidate_twin(None, &qwen, &h100, Some(400_000), 8192).unwrap();
        assert_eq!(prior.central.limits.max_running, 1024);
    }
}
