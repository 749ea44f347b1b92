//! Reading precision names: the weight precision of the plan's typed text and the KV-cache
//! dtype of an evaluation run.
//!
//! The plan stores precisions as typed text ("FP8", "AWQ-INT4", "FP16"); [`parse_precision_name`]
//! reads the whole name first and then each of its parts, so "AWQ-INT4" is INT4. A run that does
//! not state its KV cache counts as 16-bit (vLLM's `auto` for a 16-bit model), see
//! [`kv_dtype_of_run`].

use crate::sizing::{KvDtype, WeightPrecision};

/// The KV-cache dtype an evaluation run's `kv_precision` stands for: blank, `auto`, `fp16`,
/// `bf16`, `16bit` → 16-bit; `fp8`, `fp8_e4m3`, `fp8_e5m2` → FP8; anything else `None`.
pub fn kv_dtype_of_run(kv_precision: &str) -> Option<KvDtype> {
    let text = kv_precision.trim();
    if text.is_empty() {
        return Some(KvDtype::Bits16);
    }
    text.parse::<KvDtype>().ok().or_else(|| {
        let lower = text.to_ascii_lowercase();
        if lower.contains("fp8") {
            Some(KvDtype::Fp8)
        } else if lower.contains("16") || lower == "half" {
            Some(KvDtype::Bits16)
        } else {
            None
        }
    })
}

/// A precision from a typed name: "FP8", "fp8", "AWQ-INT4", "GPTQ int4", "BF16".
pub fn parse_precision_name(name: &str) -> Option<WeightPrecision> {
    name.parse().ok().or_else(|| {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|part| !part.is_empty())
            .find_map(|part| part.parse().ok())
    })
}
