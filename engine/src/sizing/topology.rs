//! Topologies: how many cards and how one model is spread over them.
//!
//! * **Copies**: independent replicas, each with its own weights; capacity multiplies, the
//!   single-stream speed does not change.
//! * **Tensor parallelism (TP)**: every layer split over `tp` cards; weights divided, each card
//!   streams its share per token, so the decode ceiling can approach `tp ×` one card's before
//!   the all-reduces are paid. vLLM requires `tp` to divide the attention heads; KV heads are
//!   split as `ceil(kv_heads / tp)` per rank, i.e. replicated when `tp` exceeds them, so `tp`
//!   must divide the KV heads or be a multiple of them.
//! * **Pipeline parallelism (PP)**: layers split into `pp` consecutive stages. It adds memory,
//!   not speed: a token still passes every stage in turn. Layers are partitioned as vLLM does
//!   (`get_pp_indices`): an equal share each, the remainder added from the second-to-last
//!   stage backwards, because the last stage also holds `lm_head`.

use super::SizingError;
use super::model::{AttentionKind, ModelSpec};
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Copies × (tensor parallel × pipeline parallel). Cards = `tp × pp × copies`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Topology {
    /// Tensor-parallel size of one copy.
    pub tp: u32,
    /// Pipeline stages of one copy.
    pub pp: u32,
    /// Independent copies.
    pub copies: u32,
}

impl Default for Topology {
    fn default() -> Self {
        Topology::single()
    }
}

impl Topology {
    /// One card.
    pub fn single() -> Topology {
        Topology {
            tp: 1,
            pp: 1,
            copies: 1,
        }
    }

    pub fn new(tp: u32, pp: u32, copies: u32) -> Topology {
        Topology { tp, pp, copies }
    }

    /// All cards.
    pub fn cards(&self) -> u32 {
        self.tp.saturating_mul(self.pp).saturating_mul(self.copies)
    }

    /// Cards of one copy.
    pub fn cards_per_copy(&self) -> u32 {
        self.tp.saturating_mul(self.pp)
    }

    /// A human label: "1 card", "2 copies", "TP=2", "2 copies × TP=2 × PP=2".
    pub fn label(&self) -> String {
        self.label_in(Lang::En)
    }

    /// [`Topology::label`] in `lang`: "1 Karte", "2 Kopien × TP=2".
    pub fn label_in(&self, lang: Lang) -> String {
        let mut parts = Vec::new();
        if self.copies > 1 {
            parts.push(match lang {
                Lang::En => format!("{} copies", self.copies),
                Lang::De => format!("{} Kopien", self.copies),
            });
        }
        if self.tp > 1 {
            parts.push(format!("TP={}", self.tp));
        }
        if self.pp > 1 {
            parts.push(format!("PP={}", self.pp));
        }
        if parts.is_empty() {
            lang.pick("1 card", "1 Karte").into()
        } else {
            parts.join(" × ")
        }
    }

    /// Checks the topology is non-empty and the model can be split this way.
    pub fn validate(&self, model: &ModelSpec) -> Result<(), SizingError> {
        if self.tp == 0 || self.pp == 0 || self.copies == 0 {
            return Err(SizingError::InvalidTopology(
                format!(
                    "tp, pp and copies must each be at least 1 (got tp={}, pp={}, copies={}, i.e. {} cards)",
                    self.tp,
                    self.pp,
                    self.copies,
                    self.cards()
                ),
                format!(
                    "TP, PP und Kopien müssen je mindestens 1 sein (erhalten: TP={}, PP={}, Kopien={}, also {} Karten)",
                    self.tp,
                    self.pp,
                    self.copies,
                    self.cards()
                ),
            ));
        }
        if !model.attention_heads.is_multiple_of(self.tp) {
            return Err(SizingError::InvalidTopology(
                format!(
                    "TP={} does not divide the {} attention heads of `{}` (vLLM requires it)",
                    self.tp, model.attention_heads, model.id
                ),
                format!(
                    "TP={} teilt die {} Attention-Heads von `{}` nicht (vLLM verlangt das)",
                    self.tp, model.attention_heads, model.id
                ),
            ));
        }
        let gqa = !matches!(model.attention, AttentionKind::Mla { .. });
        if gqa && !model.kv_heads.is_multiple_of(self.tp) && !self.tp.is_multiple_of(model.kv_heads)
        {
            return Err(SizingError::InvalidTopology(
                format!(
                    "TP={} neither divides nor is a multiple of the {} KV heads of `{}`",
                    self.tp, model.kv_heads, model.id
                ),
                format!(
                    "TP={} ist weder Teiler noch Vielfaches der {} KV-Heads von `{}`",
                    self.tp, model.kv_heads, model.id
                ),
            ));
        }
        if self.pp > model.layers {
            return Err(SizingError::InvalidTopology(
                format!(
                    "PP={} exceeds the {} layers of `{}`",
                    self.pp, model.layers, model.id
                ),
                format!(
                    "PP={} übersteigt die {} Schichten von `{}`",
                    self.pp, model.layers, model.id
                ),
            ));
        }
        Ok(())
    }
}

/// The layers of each pipeline stage, as vLLM partitions them.
pub fn pipeline_stages(layers: u32, pp: u32) -> Vec<Range<u32>> {
    let pp = pp.max(1) as usize;
    let mut sizes = vec![layers / pp as u32; pp];
    let remainder = (layers % pp as u32) as usize;
    for i in 2..remainder + 2 {
        sizes[pp - i] += 1;
    }
    let mut start = 0;
    sizes
        .into_iter()
        .map(|n| {
            let range = start..start + n;
            start += n;
            range
        })
        .collect()
}

/// KV heads one tensor-parallel rank caches: `ceil(kv_heads / tp)`, so heads are replicated
/// when `tp` exceeds them.
pub fn kv_heads_per_rank(kv_heads: u32, tp: u32) -> u32 {
    kv_heads.div_ceil(tp.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::model::model_by_id;

    #[test]
    fn cards_and_labels() {
        assert_eq!(Topology::new(2, 2, 3).cards(), 12);
        assert_eq!(Topology::single().label(), "1 card");
        assert_eq!(Topology::new(2, 1, 2).label(), "2 copies × TP=2");
    }

    #[test]
    fn zero_cards_and_bad_splits_are_refused_with_reasons() {
        let qwen = model_by_id("qwen2.5-7b").unwrap();
        let zero = Topology::new(1, 1, 0)
            .validate(&qwen)
            .unwrap_err()
            .to_string();
        assert!(
            zero.contains("at least 1") && zero.contains("0 cards"),
            "{zero}"
        );
        let tp8 = Topology::new(8, 1, 1)
            .validate(&qwen)
            .unwrap_err()
            .to_string();
        assert_eq!(
            tp8,
            "topology: TP=8 does not divide the 28 attention heads of `qwen2.5-7b` (vLLM requires it)"
        );
        Topology::new(4, 1, 1).validate(&qwen).unwrap();
        let llama = model_by_id("llama-3.1-8b").unwrap();
        Topology::new(16, 1, 1).validate(&llama).unwrap();
        assert!(Topology::new(1, 40, 1).validate(&llama).is_err());
    }

    #[test]
    fn stages_follow_vllm_partitioning() {
        assert_eq!(pipeline_stages(80, 2), vec![0..40, 40..80]);
        assert_eq!(pipeline_stages(61, 4), vec![0..15, 15..30, 30..46, 46..61]);
        assert_eq!(pipeline_stages(62, 4), vec![0..15, 15..31, 31..47, 47..62]);
    }

    #[test]
    fn kv_heads_are_replicated_past_their_count() {
        assert_eq!(kv_heads_per_rank(8, 2), 4);
        assert_eq!(kv_heads_per_rank(4, 8), 1);
        assert_eq!(kv_heads_per_rank(8, 1), 8);
    }
}
