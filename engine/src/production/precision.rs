//! Which precisions and KV-cache dtypes are sized.
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
