//! The scheduler limits a copy of a configuration runs with: vLLM's defaults for its card and
//! engine generation, or the flags a deployment states. Shared by the production paths
//! ([`super::candidate_engine`](mod@super::candidate_engine)) and the back-test
//! ([`super::validation`]), and kept apart from both so neither imports the other.

use super::timing::{LimitSource, PrefillScheduling, TimingModel};
use super::transfer::{EngineGeneration, TransferredTwin};
use crate::sizing::GpuSpec;
use crate::sizing::memory_model::{VllmEngine, VllmVersion, scheduler_defaults, vllm_engine};
use serde::{Deserialize, Serialize};

/// Scheduler flags a deployment sets; `None` leaves vLLM's default for the card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchedulerFlags {
    /// `--max-num-seqs`.
    pub max_num_seqs: Option<u64>,
    /// `--max-num-batched-tokens`.
    pub max_num_batched_tokens: Option<u64>,
    /// `--enable-chunked-prefill`.
    pub chunked_prefill: Option<bool>,
}

impl SchedulerFlags {
    /// Whether any flag is set.
    pub fn any(&self) -> bool {
        self.max_num_seqs.is_some()
            || self.max_num_batched_tokens.is_some()
            || self.chunked_prefill.is_some()
    }

    /// The flags a fitted model's stated limits show (module docs): a stated limit that
    /// differs from vLLM's default on `measured` (the pilot's card) at `context_tokens`.
    pub fn stated_by(model: &TimingModel, measured: &GpuSpec, context_tokens: u64) -> Self {
        let defaults = SchedulerLimits::defaults(measured, context_tokens);
        let limits = &model.limits;
        let stated = |source: LimitSource| source == LimitSource::Stated;
        let chunked = limits.prefill == PrefillScheduling::Chunked;
        SchedulerFlags {
            max_num_seqs: (stated(limits.max_running_source)
                && u64::from(limits.max_running) != defaults.max_num_seqs)
                .then_some(u64::from(limits.max_running)),
            max_num_batched_tokens: (stated(limits.max_batched_tokens_source)
                && u64::from(limits.max_batched_tokens) != defaults.max_num_batched_tokens)
                .then_some(u64::from(limits.max_batched_tokens)),
            chunked_prefill: (stated(limits.prefill_source) && chunked != defaults.chunked_prefill)
                .then_some(chunked),
        }
    }
}

/// The scheduler limits one copy of a configuration runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchedulerLimits {
    pub max_num_seqs: u64,
    pub max_num_batched_tokens: u64,
    pub chunked_prefill: bool,
    /// Whether a flag set any of them (else all are vLLM's defaults).
    pub stated: bool,
}

impl SchedulerLimits {
    /// vLLM `engine`'s defaults on `gpu` (at `version`, `None` for current) at
    /// `max_model_len` = `context_tokens`, overridden by `flags`.
    pub fn of(
        engine: VllmEngine,
        version: Option<VllmVersion>,
        gpu: &GpuSpec,
        context_tokens: u64,
        flags: &SchedulerFlags,
    ) -> Self {
        let defaults = scheduler_defaults(
            engine,
            version,
            gpu.memory_driver_gib,
            gpu.unified_memory,
            &gpu.name,
            context_tokens,
        );
        SchedulerLimits {
            max_num_seqs: flags.max_num_seqs.unwrap_or(defaults.max_num_seqs),
            max_num_batched_tokens: flags
                .max_num_batched_tokens
                .unwrap_or(defaults.max_num_batched_tokens),
            chunked_prefill: flags.chunked_prefill.unwrap_or(defaults.chunked_prefill),
            stated: flags.any(),
        }
    }

    /// The engine a vLLM `version` runs on `gpu` ([`vllm_engine`]), its defaults and `flags`.
    pub fn of_version(
        version: Option<VllmVersion>,
        gpu: &GpuSpec,
        context_tokens: u64,
        flags: &SchedulerFlags,
    ) -> Self {
        let engine = vllm_engine(version, gpu.compute_capability.as_deref(), None);
        SchedulerLimits::of(engine, version, gpu, context_tokens, flags)
    }

    /// Current vLLM's defaults on `gpu` for the engine generation the step model prices there
    /// ([`EngineGeneration`]: V0 on Volta and Turing, V1 from Ampere).
    pub fn defaults(gpu: &GpuSpec, context_tokens: u64) -> Self {
        SchedulerLimits::for_generation(gpu, context_tokens, &SchedulerFlags::default())
    }

    /// [`SchedulerLimits::defaults`] overridden by `flags`.
    pub fn for_generation(gpu: &GpuSpec, context_tokens: u64, flags: &SchedulerFlags) -> Self {
        let engine = match EngineGeneration::of(gpu) {
            EngineGeneration::V0 => VllmEngine::V0,
            EngineGeneration::V1 => VllmEngine::V1,
        };
        SchedulerLimits::of(engine, None, gpu, context_tokens, flags)
    }

    /// Gives every end of `twin` these limits, marked stated where a flag set them and assumed
    /// (vLLM's defaults) otherwise. The KV cache is the transfer's (the candidate's sizing).
    pub fn apply(&self, twin: &mut TransferredTwin) {
        let source = if self.stated {
            LimitSource::Stated
        } else {
            LimitSource::Assumed
        };
        for model in [&mut twin.low, &mut twin.central, &mut twin.high] {
            let limits = &mut model.limits;
            limits.max_running = u32::try_from(self.max_num_seqs).unwrap_or(u32::MAX);
            limits.max_running_source = source;
            limits.max_batched_tokens =
                u32::try_from(self.max_num_batched_tokens).unwrap_or(u32::MAX);
            limits.max_batched_tokens_source = source;
            limits.prefill = if self.chunked_prefill {
                PrefillScheduling::Chunked
            } else {
                PrefillScheduling::Separate
            };
            limits.prefill_source = source;
        }
    }
}
