//! The production start line: the `vllm serve` command of one copy of the recommended
//! configuration, with every flag the plan sized, for a sales engineer to hand to the
//! customer's operators.
//!
//! Each flag comes from what the plan already knows:
//! * the **model**: the catalog model's Hugging Face repository (`ModelSpec::hf_repo`), else the
//!   pilot's served model, else the catalog id; the pilot's model name stays the served name
//!   (`--served-model-name`), so clients and the next load test's commands address it as before.
//!   Formats vLLM cannot make at load time (INT4, INT8, NVFP4, MXFP4) need a checkpoint that
//!   already is in them: the pilot's served model when the pilot ran that format, else a
//!   placeholder to replace (`INT4-CHECKPOINT-OF-<repo>`, like the load test's
//!   `PRODUCTION-HOST`); vLLM reads the method from that checkpoint's config, so no flag;
//! * **weights**: FP8 is `--quantization fp8` (vLLM quantises a 16-bit checkpoint while it
//!   loads; an FP8 checkpoint is read as it is), FP16 is `--dtype float16` (current checkpoints
//!   ship BF16), BF16 needs nothing;
//! * **KV cache**: `--kv-cache-dtype fp8` for an FP8 cache, nothing for 16 bits;
//! * `--max-model-len`: the context of one whole session the plan sized ([`super::CapacityPlanInput::context_tokens_per_session`]:
//!   the longest measured request or the plan's context, whichever is larger, so never below
//!   the plan's);
//! * `--gpu-memory-utilization`: the planning convention's 0.9 ([`crate::sizing::memory_model::PLANNING_UTILIZATION`],
//!   the share of the card the memory model sized with), lower where the card starts only
//!   below it (DGX Spark, [`crate::sizing::GpuSpec::max_startup_utilization`]);
//! * `--tensor-parallel-size` always, `--pipeline-parallel-size` when the copy has stages;
//! * `--max-num-seqs`: the sessions one copy must hold (the p99 in flight on one copy with one
//!   copy down), rounded up to a multiple of 8 (vLLM captures CUDA graphs for batch sizes 1, 2,
//!   4 and then in steps of 8) but not above the whole sessions the copy's KV cache holds;
//! * `--enforce-eager` where the plan ran the engine without CUDA graphs.

use super::Configuration;
use crate::sizing::memory_model::PLANNING_UTILIZATION;
use crate::sizing::{KvDtype, ModelSpec, WeightPrecision};
use crate::twin::transfer::Execution;

/// Batch sizes vLLM captures CUDA graphs for grow in steps of this beyond 4.
pub const BATCH_STEP: u32 = 8;

/// What the start line is made from.
#[derive(Clone, Debug)]
pub struct StartLine<'a> {
    pub model: &'a ModelSpec,
    /// The pilot's model name as the engine serves it (`--served-model-name`).
    pub served_model: Option<&'a str>,
    /// The weights the pilot served in: its served model is a checkpoint in them.
    pub pilot_weights: Option<WeightPrecision>,
    pub configuration: &'a Configuration,
    /// Tokens of one whole session (`--max-model-len`).
    pub context_tokens: u32,
    /// Sessions one copy must hold: the p99 in flight on it with one copy down.
    pub sessions_to_hold: u32,
    /// Whole sessions one copy's KV cache holds.
    pub whole_sessions: u64,
    /// The card's highest utilisation that starts, when below the convention's.
    pub max_startup_utilization: Option<f64>,
}

/// `--max-num-seqs`: the sessions to hold rounded up to a multiple of [`BATCH_STEP`], not above
/// the whole sessions the cache holds (but never below the sessions to hold), at least 1.
pub fn max_num_seqs(sessions_to_hold: u32, whole_sessions: u64) -> u32 {
    let need = sessions_to_hold.max(1);
    let rounded = need.div_ceil(BATCH_STEP) * BATCH_STEP;
    let cap = u32::try_from(whole_sessions).unwrap_or(u32::MAX).max(need);
    rounded.min(cap)
}

/// `--gpu-memory-utilization`: the planning convention's, or the card's start-up ceiling when
/// lower.
pub fn gpu_memory_utilization(max_startup_utilization: Option<f64>) -> f64 {
    match max_startup_utilization {
        Some(max) if max > 0.0 && max < PLANNING_UTILIZATION => max,
        _ => PLANNING_UTILIZATION,
    }
}

/// The `vllm serve` line of one copy (module docs).
pub fn start_command(line: &StartLine) -> String {
    let c = line.configuration;
    let served = line
        .served_model
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.contains(char::is_whitespace));
    let repo = line
        .model
        .hf_repo
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .or(served)
        .unwrap_or(&line.model.id);
    let prequantised = matches!(
        c.weights,
        WeightPrecision::Int4
            | WeightPrecision::Int8
            | WeightPrecision::Nvfp4
            | WeightPrecision::Mxfp4
    );
    let model = match (prequantised, served) {
        (false, _) => repo.to_string(),
        (true, Some(s)) if line.pilot_weights == Some(c.weights) => s.to_string(),
        (true, _) => format!("{}-CHECKPOINT-OF-{repo}", c.weights.as_str().to_uppercase()),
    };
    let mut parts = vec!["vllm serve".to_string(), model.clone()];
    if let Some(s) = served.filter(|s| *s != model) {
        parts.push(format!("--served-model-name {s}"));
    }
    match c.weights {
        WeightPrecision::Fp8 => parts.push("--quantization fp8".into()),
        WeightPrecision::Fp16 => parts.push("--dtype float16".into()),
        _ => {}
    }
    if c.kv_dtype == KvDtype::Fp8 {
        parts.push("--kv-cache-dtype fp8".into());
    }
    parts.push(format!("--max-model-len {}", line.context_tokens.max(1)));
    parts.push(format!(
        "--gpu-memory-utilization {}",
        gpu_memory_utilization(line.max_startup_utilization)
    ));
    parts.push(format!("--tensor-parallel-size {}", c.tp.max(1)));
    if c.pp > 1 {
        parts.push(format!("--pipeline-parallel-size {}", c.pp));
    }
    parts.push(format!(
        "--max-num-seqs {}",
        max_num_seqs(line.sessions_to_hold, line.whole_sessions)
    ));
    if c.execution == Execution::Eager {
        parts.push("--enforce-eager".into());
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::model_by_id;

    fn configuration(
        gpu: &str,
        tp: u32,
        pp: u32,
        copies: u32,
        weights: WeightPrecision,
        kv_dtype: KvDtype,
    ) -> Configuration {
        Configuration {
            gpu_id: gpu.into(),
            gpu_name: gpu.into(),
            cards: tp * pp * copies,
            tp,
            pp,
            copies,
            weights,
            kv_dtype,
            execution: Execution::CudaGraphs,
            label: String::new(),
        }
    }

    /// The guide's 70B worked example: Llama 3.3 70B in FP8 with an FP8 KV cache, 30 sessions
    /// of 8,192 tokens in flight, one copy split over two RTX PRO 6000 Server Edition cards
    /// (78 whole sessions).
    #[test]
    fn the_guides_worked_example_starts_with_every_flag_it_sized() {
        let model = model_by_id("llama-3.3-70b").unwrap();
        let c = configuration(
            "rtx-pro-6000-server",
            2,
            1,
            1,
            WeightPrecision::Fp8,
            KvDtype::Fp8,
        );
        let line = StartLine {
            model: &model,
            served_model: None,
            pilot_weights: Some(WeightPrecision::Fp8),
            configuration: &c,
            context_tokens: 8192,
            sessions_to_hold: 30,
            whole_sessions: 78,
            max_startup_utilization: None,
        };
        assert_eq!(
            start_command(&line),
            "vllm serve meta-llama/Llama-3.3-70B-Instruct --quantization fp8 --kv-cache-dtype fp8 \
             --max-model-len 8192 --gpu-memory-utilization 0.9 --tensor-parallel-size 2 \
             --max-num-seqs 32"
        );
        // As two pipeline stages on the same cards.
        let staged = configuration(
            "rtx-pro-6000-server",
            1,
            2,
            1,
            WeightPrecision::Fp8,
            KvDtype::Fp8,
        );
        let command = start_command(&StartLine {
            configuration: &staged,
            ..line.clone()
        });
        assert!(
            command.contains("--tensor-parallel-size 1 --pipeline-parallel-size 2"),
            "{command}"
        );
        // On a DGX Spark the convention's 0.9 would not start: its ceiling is used.
        let spark = start_command(&StartLine {
            max_startup_utilization: Some(0.85),
            ..line
        });
        assert!(spark.contains("--gpu-memory-utilization 0.85"), "{spark}");
    }

    /// The demo pilot (RedHatAI/Qwen2.5-7B-Instruct in FP16, benchmark report) on two copies of
    /// one card: the catalog's repository, served under the pilot's name.
    #[test]
    fn the_demo_serves_the_repository_under_the_pilots_name() {
        let model = model_by_id("qwen2.5-7b").unwrap();
        let c = configuration("l40s", 1, 1, 2, WeightPrecision::Fp16, KvDtype::Bits16);
        let line = StartLine {
            model: &model,
            served_model: Some("RedHatAI/Qwen2.5-7B-Instruct"),
            pilot_weights: Some(WeightPrecision::Fp16),
            configuration: &c,
            context_tokens: 9000,
            sessions_to_hold: 9,
            whole_sessions: 12,
            max_startup_utilization: None,
        };
        assert_eq!(
            start_command(&line),
            "vllm serve Qwen/Qwen2.5-7B-Instruct --served-model-name RedHatAI/Qwen2.5-7B-Instruct \
             --dtype float16 --max-model-len 9000 --gpu-memory-utilization 0.9 \
             --tensor-parallel-size 1 --max-num-seqs 12"
        );
        // A pre-quantised format takes the pilot's checkpoint when it ran that format, and says
        // what to fill in otherwise.
        let int4 = configuration("l40s", 1, 1, 2, WeightPrecision::Int4, KvDtype::Bits16);
        let own = start_command(&StartLine {
            configuration: &int4,
            served_model: Some("Qwen/Qwen2.5-7B-Instruct-AWQ"),
            pilot_weights: Some(WeightPrecision::Int4),
            ..line.clone()
        });
        assert!(
            own.starts_with("vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ --max-model-len"),
            "{own}"
        );
        let other = start_command(&StartLine {
            configuration: &int4,
            ..line
        });
        assert!(
            other.starts_with(
                "vllm serve INT4-CHECKPOINT-OF-Qwen/Qwen2.5-7B-Instruct --served-model-name \
                 RedHatAI/Qwen2.5-7B-Instruct --max-model-len"
            ),
            "{other}"
        );
    }

    #[test]
    fn max_num_seqs_rounds_up_to_the_batch_step_within_the_whole_sessions() {
        assert_eq!(max_num_seqs(30, 78), 32);
        assert_eq!(max_num_seqs(9, 12), 12);
        assert_eq!(max_num_seqs(9, 9), 9);
        assert_eq!(max_num_seqs(16, 200), 16);
        assert_eq!(max_num_seqs(0, 0), 1);
        // Never below what must be held, even where the cache's count is lower.
        assert_eq!(max_num_seqs(14, 10), 14);
        assert_eq!(gpu_memory_utilization(None), 0.9);
        assert_eq!(gpu_memory_utilization(Some(0.95)), 0.9);
    }
}
