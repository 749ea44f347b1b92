//! What the evidence states about the engine's limits: KV-cache capacity, `max_num_seqs`,
//! `max_num_batched_tokens`, chunked prefill.
//!
//! Stated limits beat inferred ones, and inferred ones beat vLLM's defaults (see
//! [`super::fit`]). Each source only fills what it states; [`ServingLimits::or`] combines
//! several, the first stating a value winning. The parsing belongs to the modules that read the
//! files ([`crate::sizing::startup_log`], [`crate::metrics`], [`crate::run_context`]); this
//! module only reads their results.

use crate::metrics::CacheConfig;
use crate::run_context::RunContext;
use crate::sizing::StartupLog;
use serde::{Deserialize, Serialize};

/// Limits of the engine the load tests ran against, as stated by some evidence.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServingLimits {
    /// KV-cache capacity, tokens.
    pub kv_cache_tokens: Option<u64>,
    /// `max_num_seqs`.
    pub max_num_seqs: Option<u64>,
    /// `max_num_batched_tokens`.
    pub max_num_batched_tokens: Option<u64>,
    /// Whether prompts are prefilled in chunks that share steps with decoding.
    pub chunked_prefill: Option<bool>,
    /// Where each stated value came from, for people.
    pub sources: Vec<String>,
}

impl ServingLimits {
    /// The KV-cache size a vLLM start-up log prints ("GPU KV cache size", or V0's blocks × 16).
    pub fn from_startup_log(log: &StartupLog) -> Self {
        let kv = log.kv_tokens();
        ServingLimits {
            kv_cache_tokens: kv,
            sources: kv
                .map(|t| vec![format!("KV cache {t} tokens (vLLM start-up log)")])
                .unwrap_or_default(),
            ..Default::default()
        }
    }

    /// The KV-cache size of a `/metrics` scrape's `vllm:cache_config_info`
    /// (`kv_cache_size_tokens`, else `num_gpu_blocks × block_size`).
    pub fn from_cache_config(config: &CacheConfig) -> Self {
        let kv = config.kv_cache_size_tokens.or_else(|| {
            config
                .num_gpu_blocks
                .zip(config.block_size)
                .map(|(blocks, size)| blocks * u64::from(size))
        });
        ServingLimits {
            kv_cache_tokens: kv,
            sources: kv
                .map(|t| vec![format!("KV cache {t} tokens (/metrics cache_config_info)")])
                .unwrap_or_default(),
            ..Default::default()
        }
    }

    /// `max_num_seqs` and `max_num_batched_tokens` of the run context (command line or
    /// ServingRuntime).
    pub fn from_run_context(context: &RunContext) -> Self {
        let mut sources = Vec::new();
        if let Some(n) = context.max_num_seqs {
            sources.push(format!("max_num_seqs {n} (run context)"));
        }
        if let Some(n) = context.max_num_batched_tokens {
            sources.push(format!("max_num_batched_tokens {n} (run context)"));
        }
        ServingLimits {
            max_num_seqs: context.max_num_seqs,
            max_num_batched_tokens: context.max_num_batched_tokens,
            sources,
            ..Default::default()
        }
    }

    /// What a load test's own settings state (`max_num_seqs`, `max_num_batched_tokens`,
    /// `enable_chunked_prefill`: written by `vllm bench sweep serve` and some wrappers).
    pub fn from_settings(settings: &std::collections::BTreeMap<String, String>) -> Self {
        let number = |key: &str| settings.get(key).and_then(|v| v.trim().parse::<u64>().ok());
        let mut limits = ServingLimits {
            max_num_seqs: number("max_num_seqs"),
            max_num_batched_tokens: number("max_num_batched_tokens"),
            chunked_prefill: settings.get("enable_chunked_prefill").and_then(|v| {
                match v.trim().to_ascii_lowercase().as_str() {
                    "true" | "1" => Some(true),
                    "false" | "0" => Some(false),
                    _ => None,
                }
            }),
            ..Default::default()
        };
        if let Some(n) = limits.max_num_seqs {
            limits
                .sources
                .push(format!("max_num_seqs {n} (load-test settings)"));
        }
        if let Some(n) = limits.max_num_batched_tokens {
            limits
                .sources
                .push(format!("max_num_batched_tokens {n} (load-test settings)"));
        }
        limits
    }

    /// `self`, with what it does not state taken from `other`.
    pub fn or(mut self, other: ServingLimits) -> Self {
        let mut took = false;
        if self.kv_cache_tokens.is_none() && other.kv_cache_tokens.is_some() {
            self.kv_cache_tokens = other.kv_cache_tokens;
            took = true;
        }
        if self.max_num_seqs.is_none() && other.max_num_seqs.is_some() {
            self.max_num_seqs = other.max_num_seqs;
            took = true;
        }
        if self.max_num_batched_tokens.is_none() && other.max_num_batched_tokens.is_some() {
            self.max_num_batched_tokens = other.max_num_batched_tokens;
            took = true;
        }
        if self.chunked_prefill.is_none() && other.chunked_prefill.is_some() {
            self.chunked_prefill = other.chunked_prefill;
            took = true;
        }
        if took {
            for s in other.sources {
                if !self.sources.contains(&s) {
                    self.sources.push(s);
                }
            }
        }
        self
    }
}
