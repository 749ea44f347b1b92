//! The planning convention of the pilot guide, with its rounding rules.
//!
//! ```text
//! budget per card = utilisation (0.9) × driver-reported GiB − overhead (3 GiB)
//! KV pool of a copy = cards of the copy × budget per card − the checkpoint (GiB, to 0.1)
//! sessions = floor(pool ÷ session) × copies,   session = context × KV per token
//! ```
//!
//! Decisions: the checkpoint is subtracted once per copy however it is split (the guide sums
//! per-card budgets for TP and PP), so replicated norms and the uneven stages of a pipeline are
//! ignored: that is the convention, and the vLLM model is the place for such detail. Sliding
//! layers hold at most their window. KV tokens are the pool divided by the per-token bytes of one
//! copy (the session's average for sliding-window models).

use super::kv_cache::{
    kv_bytes_per_token_per_card, kv_bytes_per_token_per_layer, session_bytes_per_copy,
};
use super::memory_model::{PLANNING_OVERHEAD_GIB, PLANNING_UTILIZATION};
use super::memory_terms::{
    CardMemory, MemoryOutcome, SizingInput, Step, gib2, gib2_in, num, num_in, plain_in,
};
use super::model::{AttentionKind, ModelSpec};
use super::precision::KvDtype;
use super::topology::kv_heads_per_rank;
use super::weights::checkpoint_gib;
use super::{GIB, KIB, floor_tolerant, round1};
use crate::locale::Lang;

/// Budget per card, GiB: `utilisation × driver-reported GiB − overhead`.
pub fn budget_gib_per_card(driver_gib: f64, utilization: f64, overhead_gib: f64) -> f64 {
    utilization * driver_gib - overhead_gib
}

/// KV pool of one copy, GiB: the per-card budgets of its cards summed, the checkpoint
/// subtracted once.
pub fn kv_pool_gib_per_copy(
    budget_gib_per_card: f64,
    cards_per_copy: u32,
    checkpoint_gib: f64,
) -> f64 {
    cards_per_copy as f64 * budget_gib_per_card - checkpoint_gib
}

/// Whole sessions of `session_gib` that fit in `pool_gib` (0 for an empty or negative pool).
pub fn sessions_that_fit(pool_gib: f64, session_gib: f64) -> u64 {
    if pool_gib > 0.0 && session_gib > 0.0 {
        floor_tolerant(pool_gib / session_gib) as u64
    } else {
        0
    }
}

pub(crate) fn estimate(input: &SizingInput, lang: Lang) -> MemoryOutcome {
    let gpu = &input.gpu;
    let model = &input.model;
    let topology = &input.topology;
    let context = input.context_tokens;
    let util = input.gpu_memory_utilization.unwrap_or(PLANNING_UTILIZATION);
    let overhead = input.planning_overhead_gib.unwrap_or(PLANNING_OVERHEAD_GIB);
    let driver = gpu.memory_driver_gib;
    let n = |value: f64, decimals: usize| num_in(value, decimals, lang);
    let mut steps = Vec::new();
    let mut warnings = Vec::new();
    if let Some(max) = gpu.max_startup_utilization
        && util > max
    {
        warnings.push(match lang {
            Lang::En => format!(
                "{} shares its memory with the OS: vLLM starts only up to about {max} utilisation, so this plan at {util} is optimistic.",
                gpu.name
            ),
            Lang::De => format!(
                "{} teilt den Speicher mit dem Betriebssystem: vLLM startet nur bis etwa {} Auslastung, dieser Plan mit {} ist also optimistisch.",
                gpu.name,
                plain_in(max, lang),
                plain_in(util, lang)
            ),
        });
    }

    let driver_formula = match (gpu.memory_driver_mib, lang) {
        (Some(mib), _) => format!(
            "nvidia-smi {} MiB ÷ 1024 = {} → {} GiB",
            n(mib, 0),
            n(mib / 1024.0, 2),
            n(driver, 1)
        ),
        (None, Lang::En) => format!("{} GiB as entered for {}", num(driver, 2), gpu.name),
        (None, Lang::De) => format!("{} GiB wie eingegeben für {}", n(driver, 2), gpu.name),
    };
    steps.push(Step::new(
        lang.pick(
            "Memory the driver reports",
            "Vom Treiber gemeldeter Speicher",
        ),
        driver_formula,
        driver,
        "GiB",
    ));

    let budget_per_card = budget_gib_per_card(driver, util, overhead);
    steps.push(Step::new(
        lang.pick("Budget per card", "Budget je Karte"),
        match lang {
            Lang::En => format!(
                "{util} × {} GiB − {} GiB planning overhead",
                num(driver, 2),
                num(overhead, 1)
            ),
            Lang::De => format!(
                "{} × {} GiB − {} GiB Planungsaufschlag",
                plain_in(util, lang),
                n(driver, 2),
                n(overhead, 1)
            ),
        },
        budget_per_card,
        "GiB",
    ));

    let checkpoint = match input.weights_gib_override {
        Some(gib) => {
            steps.push(Step::new(
                lang.pick("Weights (given)", "Gewichte (angegeben)"),
                match lang {
                    Lang::En => format!("{} GiB whole model, as entered", num(gib, 2)),
                    Lang::De => format!("{} GiB ganzes Modell, wie eingegeben", n(gib, 2)),
                },
                gib,
                "GiB",
            ));
            gib
        }
        None => {
            let exact = checkpoint_gib(model, input.weights);
            let rounded = round1(exact);
            steps.push(Step::new(
                lang.pick("Weights (checkpoint)", "Gewichte (Checkpoint)"),
                match lang {
                    Lang::En => format!(
                        "{} of {}: linear layers at {} B/parameter, embeddings, lm_head and norms at 2 B = {} → {} GiB",
                        input.weights.label(),
                        model.name,
                        num(input.weights.linear_bytes_per_param(), 4),
                        num(exact, 2),
                        num(rounded, 1)
                    ),
                    Lang::De => format!(
                        "{} von {}: lineare Schichten mit {} B/Parameter, Embeddings, lm_head und Normen mit 2 B = {} → {} GiB",
                        input.weights.label(),
                        model.name,
                        n(input.weights.linear_bytes_per_param(), 4),
                        n(exact, 2),
                        n(rounded, 1)
                    ),
                },
                rounded,
                "GiB",
            ));
            rounded
        }
    };

    let cards = topology.cards_per_copy() as f64;
    let pool_copy = kv_pool_gib_per_copy(budget_per_card, topology.cards_per_copy(), checkpoint);
    steps.push(Step::new(
        lang.pick("KV pool of one copy", "KV-Pool einer Kopie"),
        match (topology.cards_per_copy() > 1, lang) {
            (true, Lang::En) => format!(
                "{} cards × {} GiB − {} GiB (budgets summed, the checkpoint subtracted once)",
                topology.cards_per_copy(),
                gib2(budget_per_card),
                num(checkpoint, 1)
            ),
            (true, Lang::De) => format!(
                "{} Karten × {} GiB − {} GiB (Budgets summiert, der Checkpoint einmal abgezogen)",
                topology.cards_per_copy(),
                gib2_in(budget_per_card, lang),
                n(checkpoint, 1)
            ),
            (false, _) => format!(
                "{} GiB − {} GiB",
                gib2_in(budget_per_card, lang),
                n(checkpoint, 1)
            ),
        },
        pool_copy,
        "GiB",
    ));

    let per_token_model = kv_per_token_formula(model, input.kv_dtype, lang);
    steps.push(Step::new(
        lang.pick("KV cache per token", "KV-Cache je Token"),
        per_token_model.0,
        per_token_model.1 / KIB,
        "KiB",
    ));
    let session_bytes = session_bytes_per_copy(model, input.kv_dtype, topology, context);
    let session_gib = session_bytes / GIB;
    let replicated = topology.tp > model.kv_heads
        || (matches!(model.attention, AttentionKind::Mla { .. }) && topology.tp > 1);
    steps.push(Step::new(
        lang.pick("One session", "Eine Sitzung"),
        match lang {
            Lang::En => format!(
                "{} tokens × KV per token{}{}",
                num(context as f64, 0),
                if model.window_tokens().is_some() {
                    " (sliding layers up to their window)"
                } else {
                    ""
                },
                if replicated {
                    format!(", replicated on TP={} ranks", topology.tp)
                } else {
                    String::new()
                }
            ),
            Lang::De => format!(
                "{} Token × KV je Token{}{}",
                n(context as f64, 0),
                if model.window_tokens().is_some() {
                    " (gleitende Schichten bis zu ihrem Fenster)"
                } else {
                    ""
                },
                if replicated {
                    format!(", repliziert auf TP={} Ranks", topology.tp)
                } else {
                    String::new()
                }
            ),
        },
        session_gib,
        "GiB",
    ));

    let max_concurrency = if pool_copy > 0.0 {
        pool_copy / session_gib
    } else {
        0.0
    };
    let sessions_per_copy = sessions_that_fit(pool_copy, session_gib);
    steps.push(Step::new(
        lang.pick("Sessions per copy", "Sitzungen je Kopie"),
        format!(
            "{}({} GiB ÷ {} GiB) = {}({})",
            lang.pick("floor", "abrunden"),
            gib2_in(pool_copy, lang),
            n(session_gib, 4),
            lang.pick("floor", "abrunden"),
            n(max_concurrency, 2)
        ),
        sessions_per_copy as f64,
        lang.pick("sessions", "Sitzungen"),
    ));
    let tokens_per_token_bytes = session_bytes / context as f64;
    let kv_cache_tokens = if pool_copy > 0.0 {
        floor_tolerant(pool_copy * GIB / tokens_per_token_bytes) as u64
    } else {
        0
    };
    let fits = sessions_per_copy >= 1;
    if !fits {
        warnings.push(match (pool_copy <= 0.0, lang) {
            (true, Lang::En) => format!(
                "The weights ({} GiB) do not leave room for a KV cache on {} (budget {} GiB).",
                num(checkpoint, 1),
                topology.label(),
                gib2(cards * budget_per_card)
            ),
            (true, Lang::De) => format!(
                "Die Gewichte ({} GiB) lassen auf {} keinen Platz für einen KV-Cache (Budget {} GiB).",
                n(checkpoint, 1),
                topology.label_in(lang),
                gib2_in(cards * budget_per_card, lang)
            ),
            (false, Lang::En) => format!(
                "Not one {}-token session fits: the pool of {} GiB is below the {} GiB a session needs.",
                num(context as f64, 0),
                gib2(pool_copy),
                num(session_gib, 2)
            ),
            (false, Lang::De) => format!(
                "Keine einzige Sitzung mit {} Token passt: Der Pool von {} GiB liegt unter den {} GiB, die eine Sitzung braucht.",
                n(context as f64, 0),
                gib2_in(pool_copy, lang),
                n(session_gib, 2)
            ),
        });
    }

    let weights_per_card = checkpoint / cards;
    let pool_per_card = pool_copy / cards;
    MemoryOutcome {
        checkpoint_gib: checkpoint,
        weights_gib_per_card: weights_per_card,
        kv_bytes_per_token_per_card: kv_bytes_per_token_per_card(
            model,
            input.kv_dtype,
            topology,
            context,
        ),
        session_gib,
        kv_pool_gib_per_card: pool_per_card,
        kv_pool_gib_per_copy: pool_copy,
        kv_cache_tokens,
        max_concurrency: max_concurrency.max(0.0),
        sessions_per_copy,
        fits,
        utilization: util,
        per_card: CardMemory::stacked(driver, weights_per_card, overhead, pool_per_card),
        steps,
        warnings,
        vllm: None,
    }
}

/// The textbook per-token formula of a model in words (in `lang`), and its value in bytes
/// (TP=1, every attention layer in full).
pub(crate) fn kv_per_token_formula(model: &ModelSpec, kv: KvDtype, lang: Lang) -> (String, f64) {
    let bytes = plain_in(kv.bytes_per_element(), lang);
    let per_layer = kv_bytes_per_token_per_layer(model, kv, 1);
    let attention = super::kv_cache::attention_layers(model);
    let total = per_layer * attention as f64;
    let total_text = num_in(total, 0, lang);
    let layers = lang.pick("layers", "Schichten");
    let text = match &model.attention {
        AttentionKind::Mla {
            kv_lora_rank,
            qk_rope_head_dim,
            ..
        } => format!(
            "{attention} {layers} × ({kv_lora_rank} + {qk_rope_head_dim}) {} × {bytes} B = {total_text} B",
            lang.pick("latent values", "latente Werte"),
        ),
        AttentionKind::SlidingWindow { window_tokens, .. } => {
            let full = model
                .layer_kinds()
                .iter()
                .filter(|k| **k == super::model::LayerKind::Full)
                .count();
            match lang {
                Lang::En => format!(
                    "2 × {attention} layers × {} KV heads × {} head_dim × {bytes} B = {total_text} B if nothing slid; {} of them slide and stop at {} tokens",
                    model.kv_heads,
                    model.head_dim,
                    attention as usize - full,
                    num(*window_tokens as f64, 0)
                ),
                Lang::De => format!(
                    "2 × {attention} Schichten × {} KV-Heads × {} head_dim × {bytes} B = {total_text} B, wenn nichts gleitet; {} davon gleiten und enden bei {} Token",
                    model.kv_heads,
                    model.head_dim,
                    attention as usize - full,
                    num_in(*window_tokens as f64, 0, lang)
                ),
            }
        }
        _ => format!(
            "2 × {attention} {layers} × {} {} × {} head_dim × {bytes} B = {total_text} B",
            kv_heads_per_rank(model.kv_heads, 1),
            lang.pick("KV heads", "KV-Heads"),
            model.head_dim,
        ),
    };
    (text, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guides_budget_arithmetic() {
        let budget = budget_gib_per_card(95.6, 0.9, 3.0);
        assert!((budget - 83.04).abs() < 1e-9);
        let pool = kv_pool_gib_per_copy(budget, 2, 67.7);
        assert!((pool - 98.38).abs() < 1e-9);
        assert_eq!(sessions_that_fit(pool, 1.25), 78);
        assert_eq!(sessions_that_fit(-3.0, 1.25), 0);
        assert_eq!(sessions_that_fit(2.5, 1.25), 2);
    }
}
