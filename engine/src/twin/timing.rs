//! The timing model of the serving engine: what one scheduler step costs, what limits the batch,
//! and the arrival rate beyond which the queue grows without bound.
//!
//! **One step = one forward pass** over everything scheduled together: one new token for every
//! sequence that is decoding, plus a slice of prompt tokens being prefilled. Its duration is
//! linear in what it carries:
//!
//! ```text
//! step_ms = base_ms                                   weights read once per step, launches
//!         + per_sequence_ms      × decoding sequences sampling, per-sequence work
//!         + per_context_token_us × context tokens / 1000   KV cache read by attention
//!         + per_prefill_token_us × prefill tokens / 1000   prompt compute
//! ```
//!
//! **Expert reads (MoE).** A mixture-of-experts model's single stream reads its top-k routed
//! experts, which the base holds. A step decoding `b` sequences routes each to `k` of `E`
//! experts, so it reads `E·(1 − (1 − k/E)^b)` of them (independent, uniform routing): the read
//! grows with the batch and saturates once every expert is read. A per-sequence cost, linear in
//! the batch, cannot saturate: fitted at 256 sequences it overshoots at 1,024. The step
//! therefore adds
//!
//! ```text
//!         + expert_fill_ms × (1 − (1 − k/E)^(b − 1))   routed experts beyond one sequence's
//! ```
//!
//! `k/E` comes from the model's shapes ([`super::step_model::expert_share`]); `expert_fill_ms`
//! (the time to read what one sequence leaves unread) is fitted beside the other terms, and a
//! transfer moves it by the unread expert bytes over the bandwidth of each configuration
//! ([`super::step_model::StepPhysics::expert_fill_ms`]). Prompt tokens are not counted: a
//! prefill step is compute-bound, and its expert reads are inside the fitted cost per prompt
//! token (counting them made the back-test's TTFT worse). Dense models, and fits without the
//! term (a caller that does not pass the share), have `expert_fill_ms = 0`.
//!
//! Decode is memory-bound: the weights are read once per step however many sequences share it,
//! which is why batching is nearly free for streaming speed while the KV read grows with the
//! context held. Prefill is compute-bound: its cost is per prompt token. A request's TTFT adds a
//! fixed `request_overhead_ms` outside the engine (network, tokenisation, the load generator),
//! which is added to TTFT and E2E but not to the gaps between tokens.
//!
//! **Limits.** At most `max_running` sequences run at once (vLLM `max_num_seqs`, or fewer when
//! the KV cache holds fewer: `kv_cache_tokens`); a step carries at most `max_batched_tokens`
//! tokens (`max_num_batched_tokens`). With chunked prefill (vLLM V1) a long prompt is split over
//! several steps and shares them with decoding; with separate prefill (vLLM V0 without chunked
//! prefill) a step either prefills whole prompts or decodes.
//!
//! Every parameter is fitted from the pilot's own load tests ([`super::fit`]); each limit says
//! where it came from (stated by a start-up log, `/metrics` or the run context, inferred from a
//! saturated load level, or assumed from vLLM's defaults).

use super::evidence::MeasuredPoint;
use super::workload::Workload;
use serde::{Deserialize, Serialize};

/// The cost of one scheduler step (see the module docs for the formula).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StepCost {
    /// Fixed time of one forward pass, ms.
    pub base_ms: f64,
    /// Added per decoding sequence in the step, ms.
    pub per_sequence_ms: f64,
    /// Added per token of context held by the decoding sequences, µs.
    pub per_context_token_us: f64,
    /// Added per prompt token prefilled in the step, µs.
    pub per_prefill_token_us: f64,
    /// MoE only: reading the routed experts one token leaves unread, ms, as fitted (module
    /// docs, "Expert reads"). 0 for dense models and for fits without the term.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub expert_fill_ms: f64,
    /// MoE only: share of the routed experts one token reads (top-k ÷ experts), which sets how
    /// fast the read saturates; 0 without the term.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub expert_share: f64,
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

impl StepCost {
    /// Duration of a step decoding `decoding` sequences holding `context_tokens` in total and
    /// prefilling `prefill_tokens`, ms.
    #[inline]
    pub fn step_ms(&self, decoding: usize, context_tokens: f64, prefill_tokens: f64) -> f64 {
        self.base_ms
            + self.per_sequence_ms * decoding as f64
            + (self.per_context_token_us * context_tokens
                + self.per_prefill_token_us * prefill_tokens)
                / 1000.0
            + self.expert_fill_ms * self.experts_touched(decoding as f64)
    }

    /// Share of the routed experts one token leaves unread that a step decoding `sequences`
    /// reads ([`experts_touched`]); 0 without the term.
    #[inline]
    pub fn experts_touched(&self, sequences: f64) -> f64 {
        experts_touched(self.expert_share, sequences)
    }
}

/// Share of the routed experts one token leaves unread that `sequences` tokens routed to
/// top-k of E experts read (`share` = k ÷ E): `1 − (1 − share)^(sequences − 1)`, 0 for one
/// (its top-k are in the base), towards 1 once every expert is read; 0 for a `share` outside
/// (0, 1) (dense models).
#[inline]
pub fn experts_touched(share: f64, sequences: f64) -> f64 {
    if !(share > 0.0 && share < 1.0) {
        return 0.0;
    }
    1.0 - (1.0 - share).powf((sequences - 1.0).max(0.0))
}

/// How prompts are scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PrefillScheduling {
    /// Prompts are cut into chunks that share steps with decoding (vLLM V1, chunked prefill).
    Chunked,
    /// A step prefills whole prompts and decodes nothing (vLLM V0 without chunked prefill);
    /// waiting prompts go first.
    Separate,
}

/// Where a limit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum LimitSource {
    /// Stated by a start-up log, a `/metrics` scrape, the run context or the load test's settings.
    Stated,
    /// Read from the load tests themselves (a saturated level, the best-fitting choice).
    Inferred,
    /// vLLM's default, not confirmed by any evidence.
    Assumed,
}

/// The engine's limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EngineLimits {
    /// Most sequences running at once (`max_num_seqs`).
    pub max_running: u32,
    pub max_running_source: LimitSource,
    /// KV-cache capacity in tokens, when known; admission and preemption follow it.
    pub kv_cache_tokens: Option<u64>,
    /// Most tokens one step carries (`max_num_batched_tokens`).
    pub max_batched_tokens: u32,
    pub max_batched_tokens_source: LimitSource,
    pub prefill: PrefillScheduling,
    pub prefill_source: LimitSource,
}

/// A token shape measured in the load tests (one per scenario).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioShape {
    pub name: String,
    /// Lengths as measured; prompts `fixed` at the effective length when the files state none.
    pub workload: Workload,
    pub prompt_tokens_mean: f64,
    pub output_tokens_mean: f64,
    /// False when the files state no prompt lengths: `prompt_tokens_mean` is then the effective
    /// length that reproduces the measured prefill time at the fitted cost per token.
    pub prompt_tokens_stated: bool,
    /// Without stated prompt lengths: their spread relative to the median, `(probability,
    /// length ÷ median)`, read from the TTFT percentiles of the scenario's nearly idle point
    /// (there TTFT = fixed time + prefill, so its spread is the prompts' spread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_spread: Option<Vec<(f64, f64)>>,
    /// Measured points of this scenario.
    pub points: usize,
}

/// The span of the evidence: predictions inside it interpolate, outside it extrapolate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FittedRange {
    /// Mean decoding batch over the measured points (Little's law), smallest and largest.
    pub decoding_min: f64,
    pub decoding_max: f64,
    /// Largest mean number in flight measured.
    pub in_flight_max: f64,
    pub concurrency_max: Option<u32>,
    pub rate_max_per_s: Option<f64>,
    pub prompt_tokens_min: f64,
    pub prompt_tokens_max: f64,
    pub output_tokens_min: f64,
    pub output_tokens_max: f64,
}

/// A fitted timing model of one serving configuration, with the evidence it rests on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimingModel {
    pub step: StepCost,
    /// Fixed time outside the engine added to TTFT and E2E, ms.
    pub request_overhead_ms: f64,
    pub limits: EngineLimits,
    /// Token shapes measured, one per scenario, in first-seen order.
    pub scenarios: Vec<ScenarioShape>,
    /// The measured points, as the twin read them.
    pub measured: Vec<MeasuredPoint>,
    pub fitted_range: FittedRange,
    /// Median absolute error (%) of the model re-simulating its own measured points (TTFT and
    /// TPOT p50/p95/p99): how well it fits, not how well it predicts (that is the back-test).
    pub fit_error_pct: Option<f64>,
    /// Assumptions and skipped evidence, one sentence each.
    pub notes: Vec<String>,
}

impl TimingModel {
    /// A model with these parameters and no evidence (for tests and what-if questions).
    pub fn new(step: StepCost, request_overhead_ms: f64, limits: EngineLimits) -> Self {
        TimingModel {
            step,
            request_overhead_ms,
            limits,
            scenarios: Vec::new(),
            measured: Vec::new(),
            fitted_range: FittedRange::default(),
            fit_error_pct: None,
            notes: Vec::new(),
        }
    }

    /// Sequences that can run at once for a workload: `max_running`, or fewer when the KV cache
    /// cannot hold that many sequences of the workload's mean context (prompt + half the answer).
    pub fn running_capacity(&self, prompt_mean: f64, output_mean: f64) -> f64 {
        let cap = f64::from(self.limits.max_running);
        match self.limits.kv_cache_tokens {
            Some(kv) => cap.min(kv as f64 / (prompt_mean + output_mean / 2.0).max(1.0)),
            None => cap,
        }
    }

    /// The arrival rate (req/s) beyond which the queue grows without bound, for requests of
    /// `prompt_mean` tokens in and `output_mean` out.
    ///
    /// At saturation `M` sequences (the running capacity) decode in every step. A step then
    /// takes `A + d·P` with `A` the decode cost of `M` sequences and `P` the prefill tokens per
    /// step; each request needs `output − 1` decode steps and `prompt` prefill tokens, which
    /// gives `λ = 1000·M ÷ ((output − 1)·A + d·prompt·M)` (d in ms per token). With separate
    /// prefill every prompt also pays a step's fixed cost.
    pub fn saturation_rate_per_s(&self, prompt_mean: f64, output_mean: f64) -> f64 {
        let m = self.running_capacity(prompt_mean, output_mean).max(1.0);
        let s = &self.step;
        let decode_steps = (output_mean - 1.0).max(0.5);
        let context = prompt_mean + output_mean / 2.0;
        let a = s.step_ms(0, 0.0, 0.0)
            + s.per_sequence_ms * m
            + s.per_context_token_us * m * context / 1000.0
            + s.expert_fill_ms * s.experts_touched(m);
        let mut per_request_prefill_ms = s.per_prefill_token_us * prompt_mean / 1000.0;
        if self.limits.prefill == PrefillScheduling::Separate {
            per_request_prefill_ms += s.base_ms;
        }
        1000.0 * m / (decode_steps * a + per_request_prefill_ms * m)
    }

    /// [`Self::saturation_rate_per_s`] at a workload's mean lengths.
    pub fn saturation_rate_for(&self, workload: &Workload) -> f64 {
        self.saturation_rate_per_s(workload.prompt_tokens.mean(), workload.output_tokens.mean())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> TimingModel {
        TimingModel::new(
            StepCost {
                base_ms: 8.0,
                per_sequence_ms: 0.0,
                per_context_token_us: 0.0,
                per_prefill_token_us: 33.0,
                expert_fill_ms: 0.0,
                expert_share: 0.0,
            },
            30.0,
            EngineLimits {
                max_running: 1024,
                max_running_source: LimitSource::Assumed,
                kv_cache_tokens: None,
                max_batched_tokens: 8192,
                max_batched_tokens_source: LimitSource::Assumed,
                prefill: PrefillScheduling::Chunked,
                prefill_source: LimitSource::Assumed,
            },
        )
    }

    #[test]
    fn a_step_costs_its_base_plus_its_prefill_tokens() {
        assert_eq!(model().step.step_ms(10, 10_000.0, 1000.0), 8.0 + 33.0);
    }

    #[test]
    fn saturation_follows_the_closed_form() {
        // M = 1024, A = 8 ms, d = 0.033 ms/token, 1000 in / 100 out:
        // λ = 1000·1024 / (99·8 + 33·1024) = 29.6 req/s.
        let rate = model().saturation_rate_per_s(1000.0, 100.0);
        assert!((rate - 29.60).abs() < 0.01, "{rate}");
        // A KV cache of 100,000 tokens holds 95.2 sequences of 1,050 tokens:
        // λ = 1000·95.2 / (99·8 + 33·95.2) = 24.2 req/s.
        let mut small = model();
        small.limits.kv_cache_tokens = Some(100_000);
        let capped = small.saturation_rate_per_s(1000.0, 100.0);
        assert!((capped - 24.20).abs() < 0.01, "{capped}");
    }
}
