//! Which precisions and KV-cache dtypes are sized.
//!
//! The guide asks for the evaluation set to be run "in the production precision of weights and
//! KV cache": an FP8 KV cache changes answers as surely as FP8 weights do. So the quality gate
//! passes **pairs** (weights, KV cache), and when the caller has them
//! ([`super::ProductionInput::passing_combinations`]) only those pairs are sized: FP8 weights
//! that passed with a 16-bit cache are not a candidate with an FP8 cache. A run that does not
//! state its KV cache counts as 16-bit (vLLM's `auto` for a 16-bit model).
//!
//! Precision moves the hardware most, and only the evaluation set, run in the production
//! precision, shows whether a cheaper one is acceptable: a precision is a candidate only if it
//! passed. When the quality gate has decided nothing yet, the recommendation cannot wait for it,
//! so it sizes the precision the pilot served (the plan's serving configuration), or failing
//! that BF16, the precision models are published in, and says so in its warnings.
//!
//! The plan stores precisions as typed text ("FP8", "AWQ-INT4", "FP16"); [`parse_precision_name`]
//! reads the whole name first and then each of its parts, so "AWQ-INT4" is INT4.

use crate::plan::PilotServing;
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
use serde::{Deserialize, Serialize};

/// Why these precisions were sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrecisionBasis {
    /// The precisions that passed the quality gate.
    QualityGate,
    /// The gate decided nothing: the pilot's serving precision, from the plan.
    PilotServing,
    /// The gate decided nothing and the plan names no precision: BF16.
    ModelNative,
}

/// The precisions sized, their basis and a sentence for the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrecisionChoice {
    pub basis: PrecisionBasis,
    pub precisions: Vec<WeightPrecision>,
    pub note: String,
}

/// A precision from a typed name: "FP8", "fp8", "AWQ-INT4", "GPTQ int4", "BF16".
pub fn parse_precision_name(name: &str) -> Option<WeightPrecision> {
    name.parse().ok().or_else(|| {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|part| !part.is_empty())
            .find_map(|part| part.parse().ok())
    })
}

fn labels(precisions: &[WeightPrecision]) -> String {
    precisions
        .iter()
        .map(|p| p.label())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The passing precisions (duplicates removed, order kept), or the flagged fallback.
pub fn choose_precisions(
    passing: &[WeightPrecision],
    serving: Option<&PilotServing>,
) -> PrecisionChoice {
    let mut precisions: Vec<WeightPrecision> = Vec::new();
    for p in passing {
        if !precisions.contains(p) {
            precisions.push(*p);
        }
    }
    if !precisions.is_empty() {
        return PrecisionChoice {
            basis: PrecisionBasis::QualityGate,
            note: format!(
                "Sized only in the precisions that passed the quality gate: {}.",
                labels(&precisions)
            ),
            precisions,
        };
    }
    let served = serving.and_then(|s| parse_precision_name(&s.precision));
    match served {
        Some(p) => PrecisionChoice {
            basis: PrecisionBasis::PilotServing,
            precisions: vec![p],
            note: format!(
                "The quality gate has not decided on any precision yet: sized in the pilot's serving precision, {}, which the evaluation set has not confirmed.",
                p.label()
            ),
        },
        None => PrecisionChoice {
            basis: PrecisionBasis::ModelNative,
            precisions: vec![WeightPrecision::Bf16],
            note: "The quality gate has not decided on any precision yet and the plan names no serving precision: sized in BF16, the precision the model is published in. A cheaper precision becomes a candidate only after it passes."
                .to_string(),
        },
    }
}

/// What [`choose_combinations`] returns: the precisions, the KV dtypes, the pairs (empty: the
/// cross product) and a note when the KV dtypes are a fallback.
pub type ChosenFormats = (
    PrecisionChoice,
    Vec<KvDtype>,
    Vec<(WeightPrecision, KvDtype)>,
    Option<String>,
);

/// The precisions, KV dtypes and pairs to size for `input`, and a note when the KV dtypes are a
/// fallback: the passing pairs when there are any, else [`choose_precisions`] ×
/// [`choose_kv_dtypes`] (pairs empty: the cross product).
pub fn choose_combinations(input: &super::ProductionInput) -> ChosenFormats {
    let mut pairs: Vec<(WeightPrecision, KvDtype)> = Vec::new();
    for pair in &input.passing_combinations {
        if !pairs.contains(pair) {
            pairs.push(*pair);
        }
    }
    if pairs.is_empty() {
        let precision = choose_precisions(&input.passing_precisions, input.pilot_serving.as_ref());
        let (kv, note) = choose_kv_dtypes(&input.kv_dtypes, input.pilot_serving.as_ref());
        return (precision, kv, Vec::new(), note);
    }
    let mut precisions: Vec<WeightPrecision> = Vec::new();
    let mut kv: Vec<KvDtype> = Vec::new();
    for (p, k) in &pairs {
        if !precisions.contains(p) {
            precisions.push(*p);
        }
        if !kv.contains(k) {
            kv.push(*k);
        }
    }
    let words = pairs
        .iter()
        .map(|(p, k)| format!("{} weights with a {} KV cache", p.label(), k.label()))
        .collect::<Vec<_>>()
        .join(", ");
    let choice = PrecisionChoice {
        basis: PrecisionBasis::QualityGate,
        precisions,
        note: format!(
            "Sized only in the precisions that passed the quality gate, each with the KV cache its evaluation run used: {words}."
        ),
    };
    (choice, kv, pairs, None)
}

/// The KV dtypes to size (duplicates removed), and a note when they are a fallback: the pilot's
/// `kv_cache_dtype` when it parses, else 16-bit (the model's own cache, which needs no quality
/// evidence).
pub fn choose_kv_dtypes(
    allowed: &[KvDtype],
    serving: Option<&PilotServing>,
) -> (Vec<KvDtype>, Option<String>) {
    let mut dtypes: Vec<KvDtype> = Vec::new();
    for d in allowed {
        if !dtypes.contains(d) {
            dtypes.push(*d);
        }
    }
    if !dtypes.is_empty() {
        return (dtypes, None);
    }
    match serving.and_then(|s| s.kv_cache_dtype.parse::<KvDtype>().ok()) {
        Some(d) => (
            vec![d],
            Some(format!(
                "No KV-cache dtype was chosen: sized with the pilot's {} cache.",
                d.label()
            )),
        ),
        None => (
            vec![KvDtype::Bits16],
            Some("No KV-cache dtype was chosen: sized with a 16-bit cache.".to_string()),
        ),
    }
}
