//! A prefill estimate for time to first token, from FLOPs.
//!
//! Prefill is compute-bound: a forward pass costs about 2 FLOPs per active parameter per token,
//! so a prompt of P tokens costs `2 × active params × P` FLOPs. Divided by the card's dense
//! TFLOPS at the precision the matmuls run in (FP8 or FP4 only where the format is native;
//! weight-only kernels compute in 16-bit) times an efficiency, it gives the prefill time.
//!
//! [`PREFILL_EFFICIENCY`] is 0.5: well-tuned prefill reaches 40–60 % of dense peak on large
//! batches; less on short prompts and small models, which is why this is an estimate of the
//! *engine's* part of TTFT only. Queueing, tokenisation, the attention term (quadratic in P,
//! ignored here) and any gateway (≈100 ms) come on top. Tensor parallelism divides the work
//! over `tp` cards; pipeline stages do not shorten one prompt.

/// Fraction of dense peak TFLOPS a prefill is assumed to reach.
pub const PREFILL_EFFICIENCY: f64 = 0.5;

/// Prompt tokens per second one copy can prefill: `tp × TFLOPS × efficiency ÷ (2 × active)`.
pub fn prefill_tokens_per_s(active_params_b: f64, dense_tflops: f64, tp: u32) -> f64 {
    if active_params_b <= 0.0 || dense_tflops <= 0.0 {
        return 0.0;
    }
    tp.max(1) as f64 * dense_tflops * 1e12 * PREFILL_EFFICIENCY / (2.0 * active_params_b * 1e9)
}

/// Engine prefill time for a prompt, ms: `2 × active params × prompt ÷ (TFLOPS × efficiency)`.
pub fn ttft_estimate_ms(
    prompt_tokens: u64,
    active_params_b: f64,
    dense_tflops: f64,
    tp: u32,
) -> f64 {
    let rate = prefill_tokens_per_s(active_params_b, dense_tflops, tp);
    if rate > 0.0 {
        prompt_tokens as f64 / rate * 1000.0
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_70b_prompt_on_an_h100() {
        // 2 × 70.55e9 × 2,000 tokens = 282 TFLOP; at 1,979 × 0.5 = 989.5 TFLOPS → 285 ms.
        let ms = ttft_estimate_ms(2_000, 70.55, 1979.0, 1);
        assert!((ms - 285.2).abs() < 0.5, "{ms}");
        assert!((ttft_estimate_ms(2_000, 70.55, 1979.0, 2) - ms / 2.0).abs() < 1e-9);
        assert!(ttft_estimate_ms(2_000, 70.55, 0.0, 1).is_infinite());
    }
}
