//! A discrete-event simulation of continuous batching, the way vLLM schedules.
//!
//! The event is the scheduler step (one forward pass). Before each step the scheduler:
//!
//! 1. gives every running sequence that is decoding one token, and every running sequence
//!    still prefilling its next prompt chunk, within `max_batched_tokens`;
//! 2. when the KV cache cannot hold one more token per decoding sequence, preempts the most
//!    recently admitted sequences (their cache is dropped and recomputed later: vLLM V1's
//!    recompute preemption) and puts them back at the head of the queue;
//! 3. admits waiting requests in arrival order while fewer than `max_running` run, the token
//!    budget has room and the KV cache can hold their chunk.
//!
//! The step lasts [`super::timing::StepCost::step_ms`] of what it carries. At its end every
//! decoding sequence has one more token; a sequence whose prompt is fully prefilled emits its
//! first token (that instant is its TTFT). With [`PrefillScheduling::Separate`] a step either
//! prefills whole waiting prompts (they go first) or decodes, never both.
//!
//! Recorded per request: TTFT and E2E (both with the model's request overhead), TPOT =
//! (E2E − TTFT) ÷ (output − 1). The gaps between tokens (ITL) are pooled as (gap, count) pairs,
//! one or two per step, because every sequence decoding in a step sees the same gap: exact
//! percentiles without a value per token.
//!
//! Cost: two passes over the running sequences per step, so time grows with the tokens
//! generated, not with the requests squared; 10,000 requests of a few hundred tokens take a few
//! milliseconds in release builds (`benches/twin.rs`). Deterministic: the only randomness is the
//! arrival process and the lengths, both drawn from the seeded [`Rng`].

use super::arrivals::{ArrivalProcess, TimedRequest, open_arrivals};
use super::rng::Rng;
use super::timing::{PrefillScheduling, TimingModel};
use super::workload::Workload;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// How much to simulate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulationOptions {
    /// Requests to send (a replay sends at most its own length).
    pub requests: usize,
    /// Seed of the arrival times and token lengths.
    pub seed: u64,
}

/// The step-model terms a duration is the sum of: steps, sequence-steps (decoding sequences
/// summed over the steps), context-token-steps, prefill-token-steps and expert fills (the
/// share of the routed experts beyond one token's that each step read, summed; 0 for dense
/// models). A duration equals `base_ms·t[0] + per_sequence_ms·t[1] + (per_context_token_us·t[2]
/// + per_prefill_token_us·t[3]) ÷ 1000 + expert_fill_ms·t[4]` exactly (a step in progress at
/// arrival counts by the fraction still to run), which lets the fit treat the simulator's
/// dynamics as a linear regression ([`super::fit`]).
pub type StepTerms = [f64; TERMS];

/// Number of [`StepTerms`].
pub const TERMS: usize = 5;

/// What happened to one request.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestOutcome {
    pub arrival_ms: f64,
    /// Arrival to first token, plus the request overhead.
    pub ttft_ms: f64,
    /// Arrival to last token, plus the request overhead.
    pub e2e_ms: f64,
    /// (E2E − TTFT) ÷ (output − 1); `None` for one-token answers.
    pub tpot_ms: Option<f64>,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    /// Times the request was preempted and recomputed.
    pub preemptions: u32,
    /// When its last token was produced (without the overhead), ms from the start.
    pub completed_ms: f64,
    /// The step terms of its TTFT (without the overhead).
    pub ttft_terms: StepTerms,
    /// The step terms of its TPOT (per token after the first).
    pub tpot_terms: StepTerms,
}

/// `count` gaps of `gap_ms` between consecutive tokens, all ending at the step ending `at_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenGaps {
    pub at_ms: f64,
    pub gap_ms: f64,
    pub count: u32,
}

/// The result of a simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Simulation {
    /// Completed requests in completion order (`completed_ms` ascending).
    pub requests: Vec<RequestOutcome>,
    /// Requests refused because prompt and answer cannot fit the KV cache at all.
    pub rejected: usize,
    /// Every gap between consecutive tokens of a request, pooled per step, in step order.
    pub itl_gaps: Vec<TokenGaps>,
    /// From the first arrival to the last completion, ms.
    pub elapsed_ms: f64,
    pub steps: u64,
    pub preemptions: u64,
    /// Requests in the system (waiting or running), averaged over time.
    pub mean_in_system: f64,
    /// Sequences running, averaged over time.
    pub mean_running: f64,
    /// Sequences decoding in a step, averaged over time.
    pub mean_decoding: f64,
    /// Most sequences running at once.
    pub max_running: usize,
}

#[derive(Clone, Copy)]
struct Seq {
    arrival_ms: f64,
    prompt: u32,
    output: u32,
    /// Tokens to compute before the next token can be sampled (prompt, or prompt + generated
    /// after a preemption).
    target: u32,
    prefilled: u32,
    generated: u32,
    /// KV-cache tokens held.
    kv: u32,
    /// Prompt tokens scheduled in the current step.
    chunk: u32,
    first_token_ms: f64,
    last_token_ms: f64,
    preemptions: u32,
    /// Cumulative step terms at arrival (minus the part of the step in progress already run).
    terms_at_arrival: StepTerms,
    /// Cumulative step terms at the first token.
    terms_at_first: StepTerms,
}

impl Seq {
    fn new(r: &TimedRequest) -> Self {
        Seq {
            arrival_ms: r.at_ms,
            prompt: r.prompt_tokens.max(1),
            output: r.output_tokens.max(1),
            target: r.prompt_tokens.max(1),
            prefilled: 0,
            generated: 0,
            kv: 0,
            chunk: 0,
            first_token_ms: f64::NAN,
            last_token_ms: f64::NAN,
            preemptions: 0,
            terms_at_arrival: [0.0; TERMS],
            terms_at_first: [0.0; TERMS],
        }
    }

    #[inline]
    fn decoding(&self) -> bool {
        self.prefilled >= self.target
    }
}

/// Where requests come from: a list made in advance (open processes) or users who send again
/// when answered (closed loop).
struct Source {
    planned: Vec<TimedRequest>,
    next: usize,
    closed: Option<ClosedLoop>,
}

struct ClosedLoop {
    pending: VecDeque<TimedRequest>,
    issued: usize,
    total: usize,
    workload: Workload,
    rng: Rng,
}

impl Source {
    fn peek(&self) -> Option<&TimedRequest> {
        match &self.closed {
            Some(c) => c.pending.front(),
            None => self.planned.get(self.next),
        }
    }

    fn pop(&mut self) -> Option<TimedRequest> {
        match &mut self.closed {
            Some(c) => c.pending.pop_front(),
            None => {
                let r = self.planned.get(self.next).copied();
                self.next += 1;
                r
            }
        }
    }

    /// A user whose answer ended at `at_ms` sends the next request.
    fn answered(&mut self, at_ms: f64) {
        if let Some(c) = &mut self.closed
            && c.issued < c.total
        {
            c.issued += 1;
            let r = TimedRequest {
                at_ms,
                prompt_tokens: c.workload.prompt_tokens.sample(&mut c.rng),
                output_tokens: c.workload.output_tokens.sample(&mut c.rng),
            };
            c.pending.push_back(r);
        }
    }
}

fn source(process: &ArrivalProcess, workload: &Workload, options: &SimulationOptions) -> Source {
    let mut rng = Rng::seeded(options.seed);
    match open_arrivals(process, workload, options.requests, &mut rng) {
        Some(planned) => Source {
            planned,
            next: 0,
            closed: None,
        },
        None => {
            let users = match process {
                ArrivalProcess::ClosedLoop { concurrency } => (*concurrency as usize).max(1),
                _ => 1,
            };
            let first = users.min(options.requests);
            let pending = (0..first)
                .map(|_| TimedRequest {
                    at_ms: 0.0,
                    prompt_tokens: workload.prompt_tokens.sample(&mut rng),
                    output_tokens: workload.output_tokens.sample(&mut rng),
                })
                .collect();
            Source {
                planned: Vec::new(),
                next: 0,
                closed: Some(ClosedLoop {
                    pending,
                    issued: first,
                    total: options.requests,
                    workload: workload.clone(),
                    rng,
                }),
            }
        }
    }
}

/// Adds `count` gaps of `gap` to a step's few distinct gaps.
#[inline]
fn add_gap(gaps: &mut Vec<(f64, u32)>, gap: f64) {
    match gaps.iter_mut().find(|(g, _)| g.to_bits() == gap.to_bits()) {
        Some((_, n)) => *n += 1,
        None => gaps.push((gap, 1)),
    }
}

/// Runs `process` with lengths from `workload` through the engine `model` describes.
pub fn simulate(
    model: &TimingModel,
    process: &ArrivalProcess,
    workload: &Workload,
    options: &SimulationOptions,
) -> Simulation {
    let limits = &model.limits;
    let max_running = (limits.max_running.max(1)) as usize;
    let kv_cap = limits.kv_cache_tokens;
    let chunked = limits.prefill == PrefillScheduling::Chunked;
    let budget_limit = u64::from(limits.max_batched_tokens.max(limits.max_running).max(1));
    let overhead = model.request_overhead_ms;
    let step_cost = model.step;

    let mut src = source(process, workload, options);
    let mut seqs: Vec<Seq> = Vec::with_capacity(options.requests.min(1 << 20));
    let mut waiting: VecDeque<u32> = VecDeque::new();
    let mut running: Vec<u32> = Vec::new();
    let mut kv_used: u64 = 0;
    let mut out = Simulation {
        requests: Vec::with_capacity(options.requests.min(1 << 20)),
        rejected: 0,
        itl_gaps: Vec::new(),
        elapsed_ms: 0.0,
        steps: 0,
        preemptions: 0,
        mean_in_system: 0.0,
        mean_running: 0.0,
        mean_decoding: 0.0,
        max_running: 0,
    };
    let mut area_in_system = 0.0;
    let mut area_running = 0.0;
    let mut area_decoding = 0.0;
    let mut step_gaps: Vec<(f64, u32)> = Vec::with_capacity(4);
    let mut t = 0.0_f64;
    let mut first_arrival: Option<f64> = None;
    let mut terms: StepTerms = [0.0; TERMS];
    let mut last_step: (f64, StepTerms) = (0.0, [0.0; TERMS]);

    loop {
        while src.peek().is_some_and(|r| r.at_ms <= t) {
            let r = src.pop().expect("peeked");
            first_arrival.get_or_insert(r.at_ms);
            let mut seq = Seq::new(&r);
            seq.terms_at_arrival = terms;
            let (start, step) = last_step;
            if r.at_ms > start && t > start {
                let still_to_run = (t - r.at_ms) / (t - start);
                for (term, part) in seq.terms_at_arrival.iter_mut().zip(step) {
                    *term -= still_to_run * part;
                }
            }
            if kv_cap.is_some_and(|cap| u64::from(seq.prompt) + u64::from(seq.output) > cap) {
                out.rejected += 1;
                src.answered(t);
                continue;
            }
            seqs.push(seq);
            waiting.push_back((seqs.len() - 1) as u32);
        }
        if running.is_empty() && waiting.is_empty() {
            match src.peek() {
                Some(r) => {
                    t = t.max(r.at_ms);
                    continue;
                }
                None => break,
            }
        }

        // Schedule one step.
        let mut decoding = 0usize;
        let mut context = 0.0_f64;
        let mut prefill_tokens = 0u64;
        let mut budget = budget_limit;
        let separate_prefill = !chunked
            && waiting.front().is_some_and(|&id| {
                let s = &seqs[id as usize];
                running.len() < max_running
                    && kv_cap.is_none_or(|cap| kv_used + u64::from(s.target) <= cap)
            });
        if separate_prefill {
            // A prefill-only step: whole prompts, in order, while they fit.
            let budget_for_prompts = budget_limit.max(u64::from(
                seqs[*waiting.front().expect("checked") as usize].target,
            ));
            budget = budget_for_prompts;
            while let Some(&id) = waiting.front() {
                let s = &mut seqs[id as usize];
                let need = u64::from(s.target - s.prefilled);
                if running.len() >= max_running
                    || need > budget
                    || kv_cap.is_some_and(|cap| kv_used + need > cap)
                {
                    break;
                }
                s.chunk = need as u32;
                budget -= need;
                prefill_tokens += need;
                kv_used += need;
                s.kv += need as u32;
                waiting.pop_front();
                running.push(id);
            }
        } else {
            // Make room in the KV cache for one token per decoding sequence.
            if let Some(cap) = kv_cap {
                loop {
                    let need: u64 = running
                        .iter()
                        .filter(|&&id| seqs[id as usize].decoding())
                        .count() as u64;
                    if kv_used + need <= cap || running.len() <= 1 {
                        break;
                    }
                    let victim = running.pop().expect("more than one running");
                    let s = &mut seqs[victim as usize];
                    kv_used -= u64::from(s.kv);
                    s.kv = 0;
                    s.prefilled = 0;
                    s.target = s.prompt + s.generated;
                    s.preemptions += 1;
                    out.preemptions += 1;
                    waiting.push_front(victim);
                }
            }
            for &id in &running {
                let s = &mut seqs[id as usize];
                if s.decoding() {
                    decoding += 1;
                    context += f64::from(s.prompt + s.generated);
                    budget = budget.saturating_sub(1);
                    kv_used += 1;
                    s.kv += 1;
                } else if chunked && budget > 0 {
                    let room = kv_cap.map_or(u64::MAX, |cap| cap.saturating_sub(kv_used));
                    let chunk = u64::from(s.target - s.prefilled).min(budget).min(room);
                    s.chunk = chunk as u32;
                    budget -= chunk;
                    prefill_tokens += chunk;
                    kv_used += chunk;
                    s.kv += chunk as u32;
                }
            }
            if chunked {
                while budget > 0 && running.len() < max_running {
                    let Some(&id) = waiting.front() else { break };
                    let s = &mut seqs[id as usize];
                    let room = kv_cap.map_or(u64::MAX, |cap| cap.saturating_sub(kv_used));
                    let chunk = u64::from(s.target - s.prefilled).min(budget).min(room);
                    if chunk == 0 {
                        break;
                    }
                    s.chunk = chunk as u32;
                    budget -= chunk;
                    prefill_tokens += chunk;
                    kv_used += chunk;
                    s.kv += chunk as u32;
                    waiting.pop_front();
                    running.push(id);
                }
            }
        }

        if decoding == 0 && prefill_tokens == 0 {
            // The cache is full of half-prefilled prompts: free the newest to make progress.
            if let Some(victim) = running.pop() {
                let s = &mut seqs[victim as usize];
                kv_used -= u64::from(s.kv);
                s.kv = 0;
                s.prefilled = 0;
                s.chunk = 0;
                s.target = s.prompt + s.generated;
                s.preemptions += 1;
                out.preemptions += 1;
                waiting.push_front(victim);
            } else if waiting.pop_front().is_some() {
                out.rejected += 1;
                src.answered(t);
            }
            continue;
        }
        let in_system = running.len() + waiting.len();
        let step_ms = step_cost
            .step_ms(decoding, context, prefill_tokens as f64)
            .max(1e-6);
        area_in_system += in_system as f64 * step_ms;
        area_running += running.len() as f64 * step_ms;
        area_decoding += decoding as f64 * step_ms;
        out.max_running = out.max_running.max(running.len());
        out.steps += 1;
        let end = t + step_ms;
        let step_terms = [
            1.0,
            decoding as f64,
            context,
            prefill_tokens as f64,
            step_cost.experts_touched(decoding as f64),
        ];
        for k in 0..TERMS {
            terms[k] += step_terms[k];
        }
        last_step = (t, step_terms);

        // Apply the step.
        step_gaps.clear();
        let mut finished_any = false;
        for &id in &running {
            let s = &mut seqs[id as usize];
            let mut emitted = false;
            if s.chunk > 0 {
                s.prefilled += s.chunk;
                s.chunk = 0;
                if s.decoding() {
                    s.generated += 1;
                    if s.first_token_ms.is_nan() {
                        s.first_token_ms = end;
                        s.terms_at_first = terms;
                    } else {
                        add_gap(&mut step_gaps, end - s.last_token_ms);
                    }
                    emitted = true;
                }
            } else if s.decoding() && !separate_prefill {
                s.generated += 1;
                add_gap(&mut step_gaps, end - s.last_token_ms);
                emitted = true;
            }
            if emitted {
                s.last_token_ms = end;
                if s.generated >= s.output {
                    finished_any = true;
                }
            }
        }
        out.itl_gaps
            .extend(step_gaps.iter().map(|&(gap_ms, count)| TokenGaps {
                at_ms: end,
                gap_ms,
                count,
            }));
        if finished_any {
            let mut kept = 0;
            for i in 0..running.len() {
                let id = running[i];
                let s = seqs[id as usize];
                if s.decoding() && s.generated >= s.output {
                    kv_used -= u64::from(s.kv);
                    let ttft = s.first_token_ms - s.arrival_ms + overhead;
                    let e2e = end - s.arrival_ms + overhead;
                    out.requests.push(RequestOutcome {
                        arrival_ms: s.arrival_ms,
                        ttft_ms: ttft,
                        e2e_ms: e2e,
                        tpot_ms: (s.output > 1).then(|| (e2e - ttft) / f64::from(s.output - 1)),
                        prompt_tokens: s.prompt,
                        output_tokens: s.output,
                        preemptions: s.preemptions,
                        completed_ms: end,
                        ttft_terms: [0.0; TERMS],
                        tpot_terms: [0.0; TERMS],
                    });
                    let mut ttft_terms = [0.0; TERMS];
                    let mut tpot_terms = [0.0; TERMS];
                    let per_token = f64::from(s.output.max(2) - 1);
                    for k in 0..TERMS {
                        ttft_terms[k] = s.terms_at_first[k] - s.terms_at_arrival[k];
                        tpot_terms[k] = (terms[k] - s.terms_at_first[k]) / per_token;
                    }
                    let outcome = out.requests.last_mut().expect("just pushed");
                    outcome.ttft_terms = ttft_terms;
                    outcome.tpot_terms = tpot_terms;
                    src.answered(end);
                } else {
                    running[kept] = id;
                    kept += 1;
                }
            }
            running.truncate(kept);
        }
        t = end;
    }
    let start = first_arrival.unwrap_or(0.0);
    out.elapsed_ms = (t - start).max(0.0);
    if out.elapsed_ms > 0.0 {
        out.mean_in_system = area_in_system / out.elapsed_ms;
        out.mean_running = area_running / out.elapsed_ms;
        out.mean_decoding = area_decoding / out.elapsed_ms;
    }
    out
}
