//! Recommendation: every configuration up to a card limit, marked feasible or not and why, the
//! feasible ones ranked.
//!
//! For each candidate GPU, allowed precision and KV dtype (or each allowed pair, when the quality
//! gate passed precisions together with their KV cache, [`RecommendOptions::combinations`]),
//! every pipeline depth (when allowed) and tensor-parallel size with `tp × pp ≤ max_cards` is
//! sized once per copy with [`size`]; copies are then added until the peak concurrent sessions
//! fit or the card limit is reached. More copies than the fewest that meet the demand only add
//! cards, so they are not listed; a copy that fails on memory per session, speed, format support
//! or the split itself fails the same way with more copies, so it is listed once.
//!
//! A configuration is feasible when vLLM would start ([`SizingResult::fits`]), the card computes
//! the weight format and KV-cache dtype natively ([`GpuSpec::is_native`]: NVFP4 on an H200 NVL is
//! emulated, not a candidate, unless [`RecommendOptions::allow_emulated`] says the format was
//! chosen explicitly), the sessions of all copies reach the peak, the **expected** per-stream
//! speed reaches the target (TPOT ≤ 40 ms means ≥ 25 tok/s; expected = the decode ceiling × the
//! efficiency the pilot's load tests measured, see [`super::decode`]; without a load test the
//! ceiling, marked *not established*) and, when asked, the TTFT estimate meets its target.
//!
//! **Ranking: fit to demand and cost.** Feasible rows come first. When every feasible row has a
//! price they are ranked by cost, then cards, then headroom; otherwise by fewest cards, then the
//! headroom closest above 1 (sessions ÷ peak: a 25× flagship is not a better fit than a card
//! that holds the demand with 1.2×), then the faster expected speed. Each row carries its
//! arithmetic; the last step is always the load test, because ceilings are upper bounds.
//!
//! Size: one row per GPU × precision × KV dtype × (tp, pp) pair. The whole catalog with every
//! precision, both dtypes and 8 cards is about 6,000 rows (about 1 s unoptimised, 19 MB of
//! JSON), so pages should pass the shortlist the assessor chose, not the catalog.

use super::decode::{ExpectedSpeed, SpeedBasis, SpeedCalibration};
use super::estimate::{SizingInput, SizingResult, Step, num, size_in};
use super::gpu::GpuSpec;
use super::memory_model::MemoryModel;
use super::memory_terms::num_in;
use super::model::ModelSpec;
use super::precision::{KvDtype, WeightPrecision};
use super::topology::Topology;
use crate::locale::Lang;
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
    /// Precision and KV-dtype pairs to size instead of every precision × every dtype (the
    /// pairs whose evaluation run passed); empty: the cross product.
    #[serde(default)]
    pub combinations: Vec<(WeightPrecision, KvDtype)>,
    /// The formats were chosen explicitly: size formats a card only emulates too, with a
    /// warning, instead of leaving them out.
    #[serde(default)]
    pub allow_emulated: bool,
    /// Efficiency factors from the pilot's load tests; empty: speed rests on the ceiling only.
    #[serde(default)]
    pub speed: SpeedCalibration,
}

impl RecommendOptions {
    /// The (precision, KV dtype) pairs sized, duplicates dropped, in order.
    pub fn pairs(&self) -> Vec<(WeightPrecision, KvDtype)> {
        let all: Vec<(WeightPrecision, KvDtype)> = if self.combinations.is_empty() {
            self.precisions
                .iter()
                .flat_map(|&p| self.kv_dtypes.iter().map(move |&kv| (p, kv)))
                .collect()
        } else {
            self.combinations.clone()
        };
        let mut out: Vec<(WeightPrecision, KvDtype)> = Vec::new();
        for pair in all {
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
        out
    }
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
    /// Single-stream decode ceiling, tok/s: an upper bound.
    pub decode_tokens_per_s: f64,
    /// The per-stream speed expected (ceiling × the measured efficiency), how it was reached
    /// and from which run; `None` when the configuration could not be sized.
    #[serde(default)]
    pub expected_speed: Option<ExpectedSpeed>,
    /// Set when the card only emulates the format and the format was chosen explicitly.
    #[serde(default)]
    pub format_note: Option<String>,
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
    recommend_in(demand, options, Lang::En)
}

/// [`recommend`] with every step, note and reason worded in `lang` (numbers in its format);
/// the candidates and their ranking are the same in every language.
pub fn recommend_in(demand: &Demand, options: &RecommendOptions, lang: Lang) -> Vec<Candidate> {
    let max_cards = options.max_cards.max(1);
    let pairs = options.pairs();
    let question = Question {
        demand,
        options,
        lang,
    };
    let mut out = Vec::new();
    for offer in &options.gpus {
        for &(precision, kv) in &pairs {
            let max_pp = if options.allow_pipeline { max_cards } else { 1 };
            for pp in 1..=max_pp {
                for tp in 1..=max_cards / pp {
                    candidates_for(
                        question,
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
    rank(&mut out);
    out
}

/// What every row of one recommendation shares: the demand, the options and the language the
/// rows are worded in.
#[derive(Clone, Copy)]
struct Question<'a> {
    demand: &'a Demand,
    options: &'a RecommendOptions,
    lang: Lang,
}

fn candidates_for(
    question: Question<'_>,
    offer: &GpuOffer,
    precision: WeightPrecision,
    kv: KvDtype,
    one_copy: Topology,
    out: &mut Vec<Candidate>,
) {
    let Question {
        demand,
        options,
        lang,
    } = question;
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
    let base = match size_in(&input, lang) {
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
                reasons: vec![err.message_in(lang)],
                rank: None,
                sessions: 0,
                headroom: 0.0,
                decode_tokens_per_s: 0.0,
                expected_speed: None,
                format_note: None,
                ttft_ms: None,
                cost: None,
                steps: vec![Step::new(
                    lang.pick("Split", "Aufteilung"),
                    err.message_in(lang),
                    0.0,
                    "",
                )],
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
    out.push(candidate(question, offer, precision, kv, topology, &base));
}

fn candidate(
    question: Question<'_>,
    offer: &GpuOffer,
    precision: WeightPrecision,
    kv: KvDtype,
    topology: Topology,
    base: &SizingResult,
) -> Candidate {
    let Question {
        demand,
        options,
        lang,
    } = question;
    let n = |value: f64, decimals: usize| num_in(value, decimals, lang);
    let cards = topology.cards();
    let sessions = base.sessions * topology.copies as u64;
    let peak = demand.peak_concurrent_sessions.max(1);
    let headroom = sessions as f64 / peak as f64;
    let mut reasons = Vec::new();
    let mut steps = base.steps.clone();

    let mut format_note = None;
    if !offer.gpu.support_for(precision).is_usable() {
        reasons.push(match lang {
            Lang::En => format!(
                "format: vLLM has no {} kernel on {}",
                precision.label(),
                offer.gpu.name
            ),
            Lang::De => format!(
                "Format: vLLM hat keinen Kernel für {} auf {}",
                precision.label(),
                offer.gpu.name
            ),
        });
    } else if let Some(why) = offer.gpu.emulation_reason_in(precision, kv, lang) {
        if options.allow_emulated {
            format_note = Some(match lang {
                Lang::En => format!(
                    "Emulated format, sized because it was chosen: {why}; memory is the format's, speed is not."
                ),
                Lang::De => format!(
                    "Emuliertes Format, dimensioniert, weil es gewählt wurde: {why}; der Speicher entspricht dem Format, die Geschwindigkeit nicht."
                ),
            });
        } else {
            reasons.push(match lang {
                Lang::En => {
                    format!("format: {why}; not a candidate unless the format is chosen explicitly")
                }
                Lang::De => format!(
                    "Format: {why}; kein Kandidat, außer das Format wird ausdrücklich gewählt"
                ),
            });
        }
    }
    if !base.memory_fits {
        let why = base
            .vllm
            .as_ref()
            .and_then(|v| v.refusal.clone())
            .unwrap_or_else(|| match lang {
                Lang::En => format!(
                    "not one {}-token session fits on {}",
                    num(demand.context_tokens as f64, 0),
                    topology.label()
                ),
                Lang::De => format!(
                    "keine einzige Sitzung mit {} Token passt auf {}",
                    n(demand.context_tokens as f64, 0),
                    topology.label_in(lang)
                ),
            });
        reasons.push(format!("{}: {why}", lang.pick("memory", "Speicher")));
    } else if base.fits {
        steps.push(Step::new(
            lang.pick(
                "Sessions against the peak",
                "Sitzungen gegen die Spitzenlast",
            ),
            match lang {
                Lang::En => format!(
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
                Lang::De => format!(
                    "{} je Kopie × {} {} = {} für eine Spitze von {}",
                    n(base.sessions as f64, 0),
                    topology.copies,
                    if topology.copies == 1 {
                        "Kopie"
                    } else {
                        "Kopien"
                    },
                    n(sessions as f64, 0),
                    n(demand.peak_concurrent_sessions as f64, 0)
                ),
            },
            sessions as f64,
            lang.pick("sessions", "Sitzungen"),
        ));
        if sessions < demand.peak_concurrent_sessions {
            reasons.push(match lang {
                Lang::En => format!(
                    "memory: {sessions} sessions fit in {cards} cards, {} are needed",
                    demand.peak_concurrent_sessions
                ),
                Lang::De => format!(
                    "Speicher: {} Sitzungen passen auf {cards} Karten, {} werden gebraucht",
                    n(sessions as f64, 0),
                    n(demand.peak_concurrent_sessions as f64, 0)
                ),
            });
        }
    }
    let expected = options.speed.expected(
        &offer.gpu.id,
        &topology,
        precision,
        base.decode_tokens_per_s,
    );
    if expected.basis != SpeedBasis::CeilingOnly {
        steps.push(Step::new(
            lang.pick(
                "Expected speed per stream (estimate)",
                "Erwartete Geschwindigkeit je Stream (Schätzung)",
            ),
            expected.describe_in(lang),
            expected.tokens_per_s,
            lang.pick("tok/s (estimated)", "tok/s (geschätzt)"),
        ));
    }
    if let Some(target) = demand.min_decode_tokens_per_s {
        let graded = expected.graded_tokens_per_s();
        let factor = expected.factor.as_ref().map_or(1.0, |f| f.factor);
        let against = match (expected.basis == SpeedBasis::CeilingOnly, lang) {
            (true, Lang::En) => format!(
                "ceiling {} tok/s against ≥ {} tok/s (TPOT ≤ {} ms); not established: ceiling only, an upper bound no load test has calibrated",
                num(base.decode_tokens_per_s, 1),
                num(target, 1),
                num(1000.0 / target, 0)
            ),
            (true, Lang::De) => format!(
                "Obergrenze {} tok/s gegen ≥ {} tok/s (TPOT ≤ {} ms); nicht belegt: nur Obergrenze, eine obere Schranke, die kein Lasttest kalibriert hat",
                n(base.decode_tokens_per_s, 1),
                n(target, 1),
                n(1000.0 / target, 0)
            ),
            (false, Lang::En) => format!(
                "expected {} tok/s (ceiling {} tok/s × efficiency {}) against ≥ {} tok/s (TPOT ≤ {} ms)",
                num(graded, 1),
                num(base.decode_tokens_per_s, 1),
                num(factor, 3),
                num(target, 1),
                num(1000.0 / target, 0)
            ),
            (false, Lang::De) => format!(
                "erwartet {} tok/s (Obergrenze {} tok/s × Effizienz {}) gegen ≥ {} tok/s (TPOT ≤ {} ms)",
                n(graded, 1),
                n(base.decode_tokens_per_s, 1),
                n(factor, 3),
                n(target, 1),
                n(1000.0 / target, 0)
            ),
        };
        steps.push(Step::new(
            lang.pick("Decode target per stream", "Decode-Zielwert je Stream"),
            against,
            graded,
            "tok/s",
        ));
        if graded < target {
            let why = match (expected.basis == SpeedBasis::CeilingOnly, lang) {
                (true, Lang::En) => {
                    format!("the ceiling of {} tok/s", num(base.decode_tokens_per_s, 1))
                }
                (true, Lang::De) => {
                    format!(
                        "die Obergrenze von {} tok/s",
                        n(base.decode_tokens_per_s, 1)
                    )
                }
                (false, Lang::En) => format!(
                    "the expected {} tok/s (ceiling {} × efficiency {})",
                    num(graded, 1),
                    num(base.decode_tokens_per_s, 1),
                    num(factor, 3)
                ),
                (false, Lang::De) => format!(
                    "die erwartete Geschwindigkeit von {} tok/s (Obergrenze {} × Effizienz {})",
                    n(graded, 1),
                    n(base.decode_tokens_per_s, 1),
                    n(factor, 3)
                ),
            };
            let more = topology.pp > 1 || topology.copies > 1;
            reasons.push(match lang {
                Lang::En => format!(
                    "decode speed: {why} is below the {} tok/s target{}",
                    num(target, 1),
                    if more {
                        " (copies and pipeline stages do not raise it)"
                    } else {
                        ""
                    }
                ),
                Lang::De => format!(
                    "Decode-Geschwindigkeit: {why} liegt unter dem Zielwert von {} tok/s{}",
                    n(target, 1),
                    if more {
                        " (Kopien und Pipeline-Stufen heben sie nicht an)"
                    } else {
                        ""
                    }
                ),
            });
        }
    }
    if let (Some(target), Some(ttft)) = (demand.max_ttft_ms, base.ttft_ms) {
        steps.push(Step::new(
            lang.pick("TTFT target", "TTFT-Zielwert"),
            match lang {
                Lang::En => format!(
                    "engine prefill estimate {} ms against ≤ {} ms",
                    num(ttft, 0),
                    num(target, 0)
                ),
                Lang::De => format!(
                    "Schätzung des Prefills der Engine {} ms gegen ≤ {} ms",
                    n(ttft, 0),
                    n(target, 0)
                ),
            },
            ttft,
            "ms",
        ));
        if ttft > target {
            reasons.push(match lang {
                Lang::En => format!(
                    "TTFT: the prefill estimate of {} ms exceeds the {} ms target",
                    num(ttft, 0),
                    num(target, 0)
                ),
                Lang::De => format!(
                    "TTFT: Die Prefill-Schätzung von {} ms überschreitet den Zielwert von {} ms",
                    n(ttft, 0),
                    n(target, 0)
                ),
            });
        }
    }
    let cost = offer.unit_price.map(|price| price * cards as f64);
    if let (Some(price), Some(total)) = (offer.unit_price, cost) {
        steps.push(Step::new(
            lang.pick("Cost", "Kosten"),
            format!("{cards} {} × {}", lang.pick("cards", "Karten"), n(price, 2)),
            total,
            "",
        ));
    }
    steps.push(Step::new(
        lang.pick("Load test", "Lasttest"),
        match lang {
            Lang::En => format!(
                "ceilings are upper bounds: confirm {} concurrent sessions of {} tokens on {} × {} before buying",
                demand.peak_concurrent_sessions,
                num(demand.context_tokens as f64, 0),
                cards,
                offer.gpu.name
            ),
            Lang::De => format!(
                "Obergrenzen sind obere Schranken: {} gleichzeitige Sitzungen mit je {} Token auf {} × {} vor dem Kauf bestätigen",
                n(demand.peak_concurrent_sessions as f64, 0),
                n(demand.context_tokens as f64, 0),
                cards,
                offer.gpu.name
            ),
        },
        base.decode_tokens_per_s,
        lang.pick("tok/s (upper bound)", "tok/s (obere Schranke)"),
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
        expected_speed: Some(expected),
        format_note,
        ttft_ms: base.ttft_ms,
        cost,
        steps,
        result: Some(result),
    }
}

fn expected_or_ceiling(c: &Candidate) -> f64 {
    c.expected_speed
        .as_ref()
        .map_or(c.decode_tokens_per_s, |e| e.tokens_per_s)
}

/// Fit to demand: fewest cards, then the headroom closest above 1, then the faster stream.
fn by_fit(a: &Candidate, b: &Candidate) -> Ordering {
    a.cards
        .cmp(&b.cards)
        .then_with(|| a.headroom.total_cmp(&b.headroom))
        .then_with(|| expected_or_ceiling(b).total_cmp(&expected_or_ceiling(a)))
}

fn rank(candidates: &mut [Candidate]) {
    let priced = candidates
        .iter()
        .filter(|c| c.feasible)
        .all(|c| c.cost.is_some());
    candidates.sort_by(|a, b| match (a.feasible, b.feasible) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
        (true, true) if priced => {
            let (x, y) = (a.cost.unwrap_or(0.0), b.cost.unwrap_or(0.0));
            x.total_cmp(&y).then_with(|| by_fit(a, b))
        }
        (true, true) => by_fit(a, b),
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
            combinations: Vec::new(),
            allow_emulated: false,
            speed: SpeedCalibration::default(),
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
    fn priced_rows_rank_by_cost_then_fit_and_emulated_formats_are_left_out() {
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
        // One RTX PRO 6000 at 9,000 in FP8 (12 sessions, 1.2×) before the same card in NVFP4
        // (34 sessions, 3.4×): same cost, the closer fit first.
        assert_eq!(
            (
                feasible[0].gpu_id.as_str(),
                feasible[0].precision,
                feasible[0].sessions
            ),
            ("rtx-pro-6000-server", WeightPrecision::Fp8, 12)
        );
        assert_eq!(feasible[1].precision, WeightPrecision::Nvfp4);
        for pair in feasible.windows(2) {
            assert!(pair[0].cost.unwrap() <= pair[1].cost.unwrap());
        }
        assert!(rows.iter().skip_while(|c| c.feasible).all(|c| !c.feasible));
        // The H200 NVL has no FP4 arithmetic: NVFP4 on it is emulated, not a candidate.
        let h200_fp4: Vec<&Candidate> = rows
            .iter()
            .filter(|c| {
                c.gpu_id == "h200-nvl"
                    && c.precision == WeightPrecision::Nvfp4
                    && c.result.is_some()
            })
            .collect();
        assert!(!h200_fp4.is_empty());
        for c in h200_fp4 {
            assert!(!c.feasible);
            assert!(
                c.reasons[0].starts_with("format: NVIDIA H200 NVL has no native NVFP4 weights (FP4 tensor cores are Blackwell-only"),
                "{:?}",
                c.reasons
            );
        }
    }

    #[test]
    fn a_flagship_with_wasted_headroom_does_not_rank_first() {
        let mut options = options(
            &[
                ("h200-nvl", None),
                ("l4", None),
                ("rtx-pro-6000-server", None),
            ],
            vec![WeightPrecision::Fp16],
        );
        options.model = model_by_id("qwen2.5-7b").unwrap();
        options.kv_dtypes = vec![KvDtype::Bits16];
        let rows = recommend(
            &Demand {
                peak_concurrent_sessions: 4,
                context_tokens: 8_192,
                min_decode_tokens_per_s: None,
                max_ttft_ms: None,
                prompt_tokens: None,
            },
            &options,
        );
        let feasible: Vec<&Candidate> = rows.iter().filter(|c| c.feasible).collect();
        let first = feasible[0];
        assert_eq!((first.gpu_id.as_str(), first.cards), ("l4", 1));
        assert!(
            first.headroom >= 1.0 && first.headroom < 3.0,
            "{}",
            first.headroom
        );
        let h200 = feasible.iter().find(|c| c.gpu_id == "h200-nvl").unwrap();
        assert!(h200.headroom > 25.0, "{}", h200.headroom);
        assert!(h200.rank.unwrap() > first.rank.unwrap());
        let one_card: Vec<f64> = feasible
            .iter()
            .filter(|c| c.cards == 1)
            .map(|c| c.headroom)
            .collect();
        assert!(one_card.windows(2).all(|w| w[0] <= w[1]), "{one_card:?}");
    }

    #[test]
    fn an_emulated_format_is_sized_only_when_chosen_and_then_says_so() {
        let mut chosen = options(&[("h200-nvl", None)], vec![WeightPrecision::Nvfp4]);
        chosen.allow_emulated = true;
        let rows = recommend(&demand(), &chosen);
        let one = rows
            .iter()
            .find(|c| c.topology == Topology::new(1, 1, 1))
            .unwrap();
        assert!(one.feasible, "{:?}", one.reasons);
        assert!(
            one.format_note
                .as_deref()
                .unwrap()
                .starts_with("Emulated format, sized because it was chosen: NVIDIA H200 NVL has no native NVFP4 weights")
        );
        // An FP8 KV cache on an A100 is emulated too.
        let mut a100 = options(&[("a100-sxm4-80gb", None)], vec![WeightPrecision::Int4]);
        a100.allow_emulated = false;
        let rows = recommend(&demand(), &a100);
        let sized: Vec<&Candidate> = rows.iter().filter(|c| c.result.is_some()).collect();
        assert!(!sized.is_empty());
        for c in sized {
            assert!(
                c.reasons[0].starts_with(&format!("format: {} has no native FP8 KV cache (FP8 arithmetic needs compute capability 8.9", c.gpu_name)),
                "{:?}",
                c.reasons
            );
        }
    }

    #[test]
    fn only_the_passing_pairs_are_sized() {
        let mut options = options(
            &[("rtx-pro-6000-server", None)],
            vec![WeightPrecision::Fp8, WeightPrecision::Nvfp4],
        );
        options.kv_dtypes = vec![KvDtype::Bits16, KvDtype::Fp8];
        options.combinations = vec![
            (WeightPrecision::Fp8, KvDtype::Bits16),
            (WeightPrecision::Fp8, KvDtype::Bits16),
        ];
        let rows = recommend(&demand(), &options);
        assert!(
            rows.iter()
                .all(|c| c.precision == WeightPrecision::Fp8 && c.kv_dtype == KvDtype::Bits16)
        );
        assert_eq!(options.pairs().len(), 1);
        options.combinations.clear();
        assert_eq!(options.pairs().len(), 4);
    }

    #[test]
    fn a_60_tok_s_mark_no_longer_passes_on_the_ceiling_alone() {
        use crate::sizing::decode::{EfficiencyFactor, SpeedCalibration};
        let mut options = options(&[("v100-sxm2-16gb", None)], vec![WeightPrecision::Fp16]);
        options.model = model_by_id("qwen2.5-7b").unwrap();
        options.kv_dtypes = vec![KvDtype::Bits16];
        let demand = Demand {
            peak_concurrent_sessions: 8,
            context_tokens: 8_192,
            min_decode_tokens_per_s: Some(60.0),
            max_ttft_ms: None,
            prompt_tokens: None,
        };
        let tp4 = |rows: &[Candidate]| {
            rows.iter()
                .find(|c| c.topology.tp == 4 && c.topology.pp == 1)
                .cloned()
                .unwrap()
        };
        // Ceiling only: 4 × 900 ÷ 14.1 = 255.3 tok/s clears 60 tok/s, marked not established.
        let ceiling_only = tp4(&recommend(&demand, &options));
        assert!(ceiling_only.feasible, "{:?}", ceiling_only.reasons);
        assert_eq!(ceiling_only.decode_tokens_per_s, 255.3);
        let step = ceiling_only
            .steps
            .iter()
            .find(|s| s.label == "Decode target per stream")
            .unwrap();
        assert!(
            step.formula.contains("not established: ceiling only"),
            "{}",
            step.formula
        );
        // Calibrated on the pilot's own load test: 34.5 tok/s at concurrency 1 = 0.135 of it.
        options.speed = SpeedCalibration {
            factors: vec![
                EfficiencyFactor::new(crate::sizing::decode::MeasuredSpeed {
                    gpu_id: "v100-sxm2-16gb",
                    gpu_name: "Tesla V100-SXM2-16GB",
                    tp: 4,
                    pp: 1,
                    precision: WeightPrecision::Fp16,
                    measured_tokens_per_s: 34.5,
                    ceiling_tokens_per_s: 255.3,
                    concurrency: 1.0,
                    source: "vllm bench serve, demo.jsonl, concurrency 1",
                })
                .unwrap(),
            ],
        };
        let calibrated = tp4(&recommend(&demand, &options));
        assert!(!calibrated.feasible);
        let expected = calibrated.expected_speed.as_ref().unwrap();
        assert_eq!(expected.tokens_per_s, 34.5);
        assert!(calibrated.reasons.iter().any(|r| r
            .starts_with("decode speed: the expected 34.5 tok/s (ceiling 255.3 × efficiency 0.135) is below the 60.0 tok/s target")));
    }

    #[test]
    fn german_rows_are_the_same_rows_worded_in_german() {
        let options = options(
            &[("rtx-pro-6000-server", Some(9_000.0)), ("h200-nvl", None)],
            vec![WeightPrecision::Fp8, WeightPrecision::Nvfp4],
        );
        let english = recommend(&demand(), &options);
        let german = recommend_in(&demand(), &options, Lang::De);
        let key = |c: &Candidate| {
            (
                c.gpu_id.clone(),
                c.precision,
                c.topology,
                c.feasible,
                c.rank,
                c.sessions,
                c.reasons.len(),
                c.steps.len(),
            )
        };
        assert_eq!(
            english.iter().map(key).collect::<Vec<_>>(),
            german.iter().map(key).collect::<Vec<_>>()
        );
        let first = german.iter().find(|c| c.feasible).unwrap();
        let last = first.steps.last().unwrap();
        assert_eq!(last.label, "Lasttest");
        assert_eq!(last.unit, "tok/s (obere Schranke)");
        assert!(
            last.formula
                .starts_with("Obergrenzen sind obere Schranken: 30 gleichzeitige Sitzungen mit je 8.192 Token auf "),
            "{}",
            last.formula
        );
        let emulated = german
            .iter()
            .find(|c| {
                c.gpu_id == "h200-nvl"
                    && c.precision == WeightPrecision::Nvfp4
                    && c.result.is_some()
            })
            .unwrap();
        assert!(
            emulated.reasons[0]
                .starts_with("Format: NVIDIA H200 NVL unterstützt Gewichte in NVFP4 nicht nativ"),
            "{:?}",
            emulated.reasons
        );
        let slow = german
            .iter()
            .find(|c| c.gpu_id == "rtx-pro-6000-server" && c.topology == Topology::new(1, 1, 3))
            .unwrap();
        assert!(
            slow.reasons
                .iter()
                .any(|r| r.starts_with("Decode-Geschwindigkeit: die Obergrenze von 22,6 tok/s liegt unter dem Zielwert von 25,0 tok/s")),
            "{:?}",
            slow.reasons
        );
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
