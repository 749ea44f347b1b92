//! The same load on another configuration: what `server predict … --gpu ID [--cards N]
//! [--tp N] [--weights P] [--kv-dtype D]` answers from the configuration the pilot measured.
//!
//! The cards are split into copies of `tp × pp` cards behind a load balancer; the asked load is
//! shared between them (a rate divided, a closed loop's users spread, a replay dealt out in
//! turn), one copy is sized for its KV cache ([`crate::sizing::size`]) and the twin transferred
//! to it ([`super::transfer`](mod@super::transfer)) with that KV cache and the target card's own
//! vLLM scheduler limits ([`super::candidate_engine`]). Every percentile of the answer carries `low` and `high` beside
//! its value, and its basis is Estimated unless the configuration is the measured one.

use super::Twin;
use super::arrivals::ArrivalProcess;
use super::candidate_engine::{MeasuredTwin, candidate_twin};
use super::predict::Question;
use super::transfer::{ServingSetup, TransferError, TransferredPrediction, predict_transferred};
use crate::sizing::{MemoryModel, ModelSpec, SizingInput, Topology, size};
use serde::{Deserialize, Serialize};

/// The answer for another configuration: one copy's prediction under its share of the load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigurationPrediction {
    pub cards: u32,
    pub copies: u32,
    /// KV-cache capacity of one copy, tokens (from its sizing).
    pub kv_cache_tokens: u64,
    /// The load one copy is asked, for people.
    pub load_per_copy: String,
    pub prediction: TransferredPrediction,
}

/// `question` shared by `copies` copies (module docs).
pub fn per_copy(question: &Question, copies: u32) -> Question {
    let n = copies.max(1);
    let arrivals = match &question.arrivals {
        ArrivalProcess::Poisson { rate_per_s } => ArrivalProcess::Poisson {
            rate_per_s: rate_per_s / f64::from(n),
        },
        ArrivalProcess::ClosedLoop { concurrency } => ArrivalProcess::ClosedLoop {
            concurrency: concurrency.div_ceil(n).max(1),
        },
        ArrivalProcess::Replay { requests } => ArrivalProcess::Replay {
            requests: requests.iter().step_by(n as usize).copied().collect(),
        },
        ArrivalProcess::Burst => ArrivalProcess::Burst,
    };
    let requests = match question.arrivals {
        ArrivalProcess::Burst => question.requests.map(|r| r.div_ceil(n as usize)),
        _ => question.requests,
    };
    Question {
        arrivals,
        requests,
        ..question.clone()
    }
}

/// The configuration asked about, and the one the twin was fitted on.
#[derive(Clone, Copy, Debug)]
pub struct OtherConfiguration<'a> {
    /// The model both run.
    pub model: &'a ModelSpec,
    /// The configuration the twin was fitted on.
    pub measured: &'a ServingSetup,
    /// The configuration asked about.
    pub target: &'a ServingSetup,
    /// All cards of `target` together (a multiple of its `tp × pp`).
    pub cards: u32,
    pub memory_model: MemoryModel,
    /// The session length each copy is sized for, tokens.
    pub context_tokens: u64,
}

/// Predicts `question` (all cards together) on `configuration.cards` cards of its target,
/// from `twin` fitted on its measured configuration.
pub fn predict_configuration(
    twin: &Twin,
    configuration: &OtherConfiguration<'_>,
    question: &Question,
) -> Result<ConfigurationPrediction, TransferError> {
    let OtherConfiguration {
        model,
        measured,
        target,
        cards,
        memory_model,
        context_tokens,
    } = *configuration;
    let per_copy_cards = target.tp.max(1) * target.pp.max(1);
    let cards = cards.max(per_copy_cards);
    if !cards.is_multiple_of(per_copy_cards) {
        return Err(TransferError::Split(format!(
            "{cards} cards do not split into copies of TP={} × PP={} ({per_copy_cards} cards)",
            target.tp, target.pp
        )));
    }
    let copies = cards / per_copy_cards;
    let topology = Topology::new(target.tp.max(1), target.pp.max(1), 1);
    let sized = size(&SizingInput::new(
        model.clone(),
        target.weights,
        target.kv_dtype,
        target.gpu.clone(),
        topology,
        context_tokens.max(1),
        memory_model,
    ))
    .map_err(|e| TransferError::Split(e.to_string()))?;
    if !sized.fits {
        return Err(TransferError::Memory(format!(
            "not one {context_tokens}-token session fits next to the weights on {} of {}",
            topology.label(),
            target.gpu.name
        )));
    }
    let moved = candidate_twin(
        Some(MeasuredTwin {
            twin,
            setup: measured,
        }),
        model,
        target,
        Some(sized.kv_cache_tokens),
        context_tokens,
    )?;
    let shared = per_copy(question, copies);
    Ok(ConfigurationPrediction {
        cards,
        copies,
        kv_cache_tokens: sized.kv_cache_tokens,
        load_per_copy: shared.arrivals.describe(),
        prediction: predict_transferred(&moved, &shared),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::{KvDtype, WeightPrecision, gpu_by_id, model_by_id};
    use crate::twin::Basis;
    use crate::twin::transfer::Execution;
    use crate::twin::transfer::tests::demo_twin;

    fn setup(gpu: &str, tp: u32) -> ServingSetup {
        ServingSetup {
            gpu: gpu_by_id(gpu).unwrap(),
            tp,
            pp: 1,
            weights: WeightPrecision::Fp16,
            kv_dtype: KvDtype::Bits16,
            execution: Execution::Eager,
        }
    }

    #[test]
    fn the_load_is_shared_between_the_copies() {
        let q = per_copy(&Question::rate(3.0), 4);
        assert_eq!(q.arrivals, ArrivalProcess::Poisson { rate_per_s: 0.75 });
        let q = per_copy(&Question::concurrency(9), 4);
        assert_eq!(q.arrivals, ArrivalProcess::ClosedLoop { concurrency: 3 });
    }

    #[test]
    fn two_h100_pcie_cards_answer_the_pilots_rate_with_ranges_and_estimated_basis() {
        let twin = demo_twin();
        let model = model_by_id("qwen2.5-7b").unwrap();
        let answer = predict_configuration(
            &twin,
            &OtherConfiguration {
                model: &model,
                measured: &setup("v100-sxm2-16gb", 4),
                target: &setup("h100-pcie", 1),
                cards: 2,
                memory_model: MemoryModel::Planning,
                context_tokens: 8192,
            },
            &Question::rate(0.9),
        )
        .unwrap();
        assert_eq!(answer.copies, 2);
        let p = &answer.prediction;
        assert_eq!(p.basis, Basis::Estimated);
        for r in [p.ttft_ms.p99, p.tpot_ms.p99, p.e2e_ms.p50] {
            assert!(r.low <= r.value && r.value <= r.high, "{r:?}");
        }
        let json = serde_json::to_value(&answer).unwrap();
        assert!(json.pointer("/prediction/ttft_ms/p99/low").is_some());
        assert_eq!(json.pointer("/prediction/basis"), Some(&"estimated".into()));
    }

    #[test]
    fn cards_that_do_not_split_into_copies_or_hold_no_session_are_refused() {
        let twin = demo_twin();
        let model = model_by_id("qwen2.5-7b").unwrap();
        let ask = |target: ServingSetup, cards: u32| {
            predict_configuration(
                &twin,
                &OtherConfiguration {
                    model: &model,
                    measured: &setup("v100-sxm2-16gb", 4),
                    target: &target,
                    cards,
                    memory_model: MemoryModel::Planning,
                    context_tokens: 8192,
                },
                &Question::rate(0.9),
            )
        };
        assert!(matches!(
            ask(setup("h100-pcie", 2), 3),
            Err(TransferError::Split(_))
        ));
        assert!(matches!(
            ask(setup("v100-sxm2-16gb", 1), 1),
            Err(TransferError::Memory(_))
        ));
    }
}
