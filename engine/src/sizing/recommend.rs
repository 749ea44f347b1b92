//! Recommendation: every configuration up to a card limit, marked feasible or not and why, the
//! feasible ones ranked.
//!
//! For each candidate GPU, allowed precision and KV dtype, every pipeline depth (when allowed)
//! and tensor-parallel size with `tp × pp ≤ max_cards` is sized once per copy with [`size`];
//! copies are then added until the peak concurrent sessions fit or the card limit is reached.
//! More copies than the fewest that meet the demand only add cards, so they are not listed; a
//! copy that fails on memory per session, speed, format support or the split itself fails the
//! same way with more copies, so it is listed once.
//!
//! A configuration is feasible when vLLM would start ([`SizingResult::fits`]), the sessions of
//! all copies reach the peak, the single-stream decode ceiling reaches the per-stream target
//! (TPOT ≤ 40 ms means ≥ 25 tok/s) and, when asked, the TTFT estimate meets its target.
//! Feasible rows are ranked by fewest cards, then lowest cost, then most headroom (sessions ÷
//! peak). Each row carries its arithmetic; the last step is always the load test, because
//! ceilings are upper bounds.
//!
//! Size: one row per GPU × precision × KV dtype × (tp, pp) pair. The whole catalog with every
//! precision, both dtypes and 8 cards is about 6,000 rows (about 1 s unoptimised, 19 MB of
//! JSON), so pages should pass the shortlist the assessor chose, not the catalog.

use super::estimate::{SizingInput, SizingResult, Step, num, size};
use super::gpu::GpuSpec;
use super::memory_model::MemoryModel;
use super::model::ModelSpec;
use super::precision::{KvDtype, WeightPrecision};
use super::topology::Topology;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// What production must carry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Demand {
    /// Requests in flight at the busiest instant.
    pub peak_concurrent_sessions: u64,
    /// Context per session (prompt + answer), tokens.
    pub context_tokens: u64,
    /// Per-stream decode target, tok/s (a TPOT ≤ 40 ms target is 25 tok/s).
    #[serde(default)]
    pub min_decode_tokens_per_s: Option<f64>,
    /// Engine TTFT target, ms; needs `prompt_tokens`.
    #[serde(default)]
    pub max_ttft_ms: Option<f64>,
    #[serde(default)]
    pub prompt_tokens: Option<u64>,
}

impl Demand {
    /// A per-stream target given as TPOT in ms (40 ms → 25 tok/s).
    pub fn with_tpot_ms(mut self, tpot_ms: f64) -> Demand {
        self.min_decode_tokens_per_s = (tpot_ms > 0.0).then(|| 1000.0 / tpot_ms);
        self
    }
}

/// A candidate card with an optional price per card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuOffer {
    pub gpu: GpuSpec,
    #[serde(default)]
    pub unit_price: Option<f64>,
}

/// What may be chosen from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendOptions {
    pub model: ModelSpec,
    /// Precisions that passed the evaluation set (only those are candidates).
    pub precisions: Vec<WeightPrecision>,
    pub kv_dtypes: Vec<KvDtype>,
    pub gpus: Vec<GpuOffer>,
    /// Most cards a configuration may use.
    pub max_cards: u32,
    pub memory_model: MemoryModel,
    /// Consider pipeline parallelism (it adds memory, never speed).
    #[serde(default = "yes")]
    pub allow_pipeline: bool,
    #[serde(default)]
    pub gpu_memory_utilization: Option<f64>,
    #[serde(default)]
    pub vllm_version: Option<String>,
    #[serde(default)]
    pub max_num_batched_tokens: Option<u64>,
}

fn yes() -> bool {
    true
}

/// One configuration, feasible or not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub gpu_id: String,
    pub gpu_name: String,
    pub precision: WeightPrecision,
    pub kv_dtype: KvDtype,
    pub topology: Topology,
    pub cards: u32,
    pub feasible: bool,
    /// Why it is not feasible (empty when feasible).
    pub reasons: Vec<String>,
    /// 1 for the best feasible configuration; `None` when infeasible.
    pub rank: Option<u32>,
    /// Whole sessions of the demanded context that fit, all copies.
    pub sessions: u64,
    /// Sessions ÷ peak (1.0 = exactly enough).
    pub headroom: f64,
    pub decode_tokens_per_s: f64,
    pub ttft_ms: Option<f64>,
    /// Unit price × cards, when a price was given.
    pub cost: Option<f64>,
    /// The arithmetic; the last step is the load test.
    pub steps: Vec<Step>,
    /// The sizing of the configuration (its steps moved to `steps`), when it could be sized.
    pub result: Option<SizingResult>,
}

/// Every configuration up to `options.max_cards`, feasible ones first and ranked.
pub fn recommend(demand: &Demand, options: &RecommendOptions) -> Vec<Candidate> {
    let max_cards = options.max_cards.max(1);
    let mut out = Vec::new();
    for offer in &options.gpus {
        for &precision in &options.precisions {
            for &kv in &options.kv_dtypes {
                let max_pp = if options.allow_pipeline { max_cards } else { 1 };
                for pp in 1..=max_pp {
                    for tp in 1..=max_cards / pp {
                        candidates_for(
                            demand,
                            options,
                            offer,
                            precision,
                            kv,
                            Topology::new(tp, pp, 1),
                            &mut out,
                        );
                    }
                }
            }
        }
    }
    rank(&mut out);
    out
}

fn candidates_for(
    demand: &Demand,
    options: &RecommendOptions,
    offer: &GpuOffer,
    precision: WeightPrecision,
    kv: KvDtype,
    one_copy: Topology,
    out: &mut Vec<Candidate>,
) {
    let mut input = SizingInput::new(
        options.model.clone(),
        precision,
        kv,
        offer.gpu.clone(),
        one_copy,
        demand.context_tokens,
        options.memory_model,
    );
    input.gpu_memory_utilization = options.gpu_memory_utilization;
    input.vllm_version = options.vllm_version.clone();
    input.max_num_batched_tokens = options.max_num_batched_tokens;
    input.prompt_tokens = demand.prompt_tokens;
    let base = match size(&input) {
        Ok(result) => result,
        Err(err) => {
            out.push(Candidate {
                gpu_id: offer.gpu.id.clone(),
                gpu_name: offer.gpu.name.clone(),
                precision,
                kv_dtype: kv,
                topology: one_copy,
                cards: one_copy.cards(),
                feasible: false,
                reasons: vec![err.to_string()],
                rank: None,
                sessions: 0,
                headroom: 0.0,
                decode_tokens_per_s: 0.0,
                ttft_ms: None,
                cost: None,
                steps: vec![Step::new("Split", err.to_string(), 0.0, "")],
                result: None,
            });
            return;
        }
    };
    let per_copy = base.sessions;
    let max_copies = options.max_cards.max(1) / one_copy.cards_per_copy();
    let needed_copies = if per_copy == 0 {
        1
    } else {
        demand.peak_concurrent_sessions.div_ceil(per_copy).max(1)
    };
    let copies = needed_copies.min(max_copies.max(1) as u64) as u32;
    let topology = Topology::new(one_copy.tp, one_copy.pp, copies);
    out.push(candidate(demand, offer, precision, kv, topology, &base));
}

fn candidate(
    demand: &Demand,
    offer: &GpuOffer,
    precision: WeightPrecision,
    kv: KvDtype,
    topology: Topology,
    base: &SizingResult,
) -> Candidate {
    let cards = topology.cards();
    let sessions = base.sessions * topology.copies as u64;
    let peak = demand.peak_concurrent_sessions.max(1);
    let headroom = sessions as f64 / peak as f64;
    let mut reasons = Vec::new();
    let mut steps = base.steps.clone();

    if !offer.gpu.support_for(precision).is_usable() {
        reasons.push(format!(
            "format: vLLM has no {} kernel on {}",
            precision.label(),
            offer.gpu.name
        ));
    }
    if !base.memory_fits {
        let why = base
            .vllm
            .as_ref()
            .and_then(|v| v.refusal.clone())
            .unwrap_or_else(|| {
                format!(
                    "not one {}-token session fits on {}",
                    num(demand.context_tokens as f64, 0),
                    topology.label()
                )
            });
        reasons.push(format!("memory: {why}"));
    } else if base.fits {
        steps.push(Step::new(
            "Sessions against the peak",
            format!(
                "{} per copy × {} {} = {} for a peak of {}",
                base.sessions,
                topology.copies,
                if topology.copies == 1 {
                    "copy"
                } else {
                    "copies"
                },
                sessions,
                demand.peak_concurrent_sessions
            ),
            sessions as f64,
            "sessions",
        ));
        if sessions < demand.peak_concurrent_sessions {
            reasons.push(format!(
                "memory: {sessions} sessions fit in {cards} cards, {} are needed",
                demand.peak_concurrent_sessions
            ));
        }
    }
    if let Some(target) = demand.min_decode_tokens_per_s {
        steps.push(Step::new(
            "Decode target per stream",
            format!(
                "ceiling {} tok/s against ≥ {} tok/s (TPOT ≤ {} ms)",
                num(base.decode_tokens_per_s, 1),
                num(target, 1),
                num(1000.0 / target, 0)
            ),
            base.decode_tokens_per_s,
            "tok/s",
        ));
        if base.decode_tokens_per_s < target {
            reasons.push(format!(
                "decode speed: the ceiling of {} tok/s is below the {} tok/s target{}",
                num(base.decode_tokens_per_s, 1),
                num(target, 1),
                if topology.pp > 1 || topology.copies > 1 {
                    " (copies and pipeline stages do not raise it)"
                } else {
                    ""
                }
            ));
        }
    }
    if let (Some(target), Some(ttft)) = (demand.max_ttft_ms, base.ttft_ms) {
        steps.push(Step::new(
            "TTFT target",
            format!(
                "engine prefill estimate {} ms against ≤ {} ms",
                num(ttft, 0),
                num(target, 0)
            ),
            ttft,
            "ms",
        ));
        if ttft > target {
            reasons.push(format!(
                "TTFT: the prefill estimate of {} ms exceeds the {} ms target",
                num(ttft, 0),
                num(target, 0)
            ));
        }
    }
    let cost = offer.unit_price.map(|price| price * cards as f64);
    if let (Some(price), Some(total)) = (offer.unit_price, cost) {
        steps.push(Step::new(
            "Cost",
            format!("{cards} cards × {}", num(price, 2)),
            total,
            "",
        ));
    }
    steps.push(Step::new(
        "Load test",
        format!(
            "ceilings are upper bounds: confirm {} concurrent sessions of {} tokens on {} × {} before buying",
            demand.peak_concurrent_sessions,
            num(demand.context_tokens as f64, 0),
            cards,
            offer.gpu.name
        ),
        base.decode_tokens_per_s,
        "tok/s (upper bound)",
    ));

    let mut result = base.clone();
    result.sessions = sessions;
    result.cards = cards;
    // The steps live once, on the candidate (with the demand checks added).
    result.steps.clear();
    Candidate {
        gpu_id: offer.gpu.id.clone(),
        gpu_name: offer.gpu.name.clone(),
        precision,
        kv_dtype: kv,
        topology,
        cards,
        feasible: reasons.is_empty(),
        reasons,
        rank: None,
        sessions,
        headroom,
        decode_tokens_per_s: base.decode_tokens_per_s,
        ttft_ms: base.ttft_ms,
        cost,
        steps,
        result: Some(result),
    }
}

fn rank(candidates: &mut [Candidate]) {
    candidates.sort_by(|a, b| match (a.feasible, b.feasible) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
        (true, true) => a
            .cards
            .cmp(&b.cards)
            .then_with(|| match (a.cost, b.cost) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            })
            .then_with(|| b.headroom.total_cmp(&a.headroom)),
    });
    for (rank, candidate) in (1..).zip(candidates.iter_mut().filter(|c| c.feasible)) {
        candidate.rank = Some(rank);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::gpu::gpu_by_id;
    use crate::sizing::model::model_by_id;

    fn options(gpus: &[(&str, Option<f64>)], precisions: Vec<WeightPrecision>) -> RecommendOptions {
        RecommendOptions {
            model: model_by_id("llama-3.3-70b").unwrap(),
            precisions,
            kv_dtypes: vec![KvDtype::Fp8],
            gpus: gpus
                .iter()
                .map(|(id, price)| GpuOffer {
                    gpu: gpu_by_id(id).unwrap(),
                    unit_price: *price,
                })
                .collect(),
            max_cards: 4,
            memory_model: MemoryModel::Planning,
            allow_pipeline: true,
            gpu_memory_utilization: None,
            vllm_version: None,
            max_num_batched_tokens: None,
        }
    }

    fn demand() -> Demand {
        Demand {
            peak_concurrent_sessions: 30,
            context_tokens: 8_192,
            min_decode_tokens_per_s: None,
            max_ttft_ms: None,
            prompt_tokens: None,
        }
        .with_tpot_ms(40.0)
    }

    #[test]
    fn the_guides_case_one_card_two_copies_and_pipeline_fail_on_speed() {
        let rows = recommend(
            &demand(),
            &options(&[("rtx-pro-6000-server", None)], vec![WeightPrecision::Fp8]),
        );
        let find = |t: Topology| {
            rows.iter()
                .find(|c| c.topology.tp == t.tp && c.topology.pp == t.pp)
                .unwrap()
        };
        let single = find(Topology::new(1, 1, 1));
        assert!(!single.feasible);
        assert!(
            single
                .reasons
                .iter()
                .any(|r| r.starts_with("decode speed: the ceiling of 22.6"))
        );
        let pipeline = find(Topology::new(1, 2, 1));
        assert!(
            pipeline
                .reasons
                .iter()
                .any(|r| r.starts_with("decode speed"))
        );
        let tp2 = find(Topology::new(2, 1, 1));
        assert!(tp2.feasible, "{:?}", tp2.reasons);
        assert_eq!(tp2.sessions, 78);
        assert_eq!(tp2.rank, Some(1));
        assert_eq!(tp2.steps.last().unwrap().label, "Load test");
        let tp3 = find(Topology::new(3, 1, 1));
        assert!(tp3.reasons[0].contains("TP=3 does not divide"));
    }

    #[test]
    fn fewest_cards_then_cost_then_headroom() {
        let rows = recommend(
            &Demand {
                peak_concurrent_sessions: 10,
                context_tokens: 8_192,
                min_decode_tokens_per_s: None,
                max_ttft_ms: None,
                prompt_tokens: None,
            },
            &options(
                &[
                    ("h200-nvl", Some(30_000.0)),
                    ("rtx-pro-6000-server", Some(9_000.0)),
                ],
                vec![WeightPrecision::Fp8, WeightPrecision::Nvfp4],
            ),
        );
        let feasible: Vec<&Candidate> = rows.iter().filter(|c| c.feasible).collect();
        assert!(feasible.len() > 4);
        assert_eq!(feasible[0].cards, 1);
        assert_eq!(feasible[0].gpu_id, "rtx-pro-6000-server");
        for pair in feasible.windows(2) {
            assert!(pair[0].cards <= pair[1].cards);
        }
        assert!(rows.iter().skip_while(|c| c.feasible).all(|c| !c.feasible));
    }

    #[test]
    fn copies_are_added_until_the_peak_fits() {
        let rows = recommend(
            &Demand {
                peak_concurrent_sessions: 30,
                context_tokens: 8_192,
                min_decode_tokens_per_s: None,
                max_ttft_ms: None,
                prompt_tokens: None,
            },
            &options(&[("rtx-pro-6000-server", None)], vec![WeightPrecision::Fp8]),
        );
        let copies = rows
            .iter()
            .find(|c| c.topology.tp == 1 && c.topology.pp == 1)
            .unwrap();
        assert_eq!(copies.topology.copies, 3);
        assert_eq!(copies.sessions, 36);
        assert!(copies.feasible);
    }

    #[test]
    fn missing_formats_are_a_reason() {
        let rows = recommend(
            &demand(),
            &options(&[("v100-sxm2-32gb", None)], vec![WeightPrecision::Fp8]),
        );
        assert!(rows.iter().all(|c| !c.feasible));
        assert!(
            rows.iter()
                .filter(|c| c.result.is_some())
                .all(|c| c.reasons[0].starts_with("format: vLLM has no FP8 kernel"))
        );
    }
}
