//! [`size`]: one configuration in, every number and its arithmetic out.
//!
//! The input names the model, precision, KV dtype, GPU, topology, context and memory model; the
//! result carries the per-card memory (for a stacked bar), the KV pool, the sessions that fit,
//! the decode ceiling, a prefill rate, warnings, and the [`Step`]s that produced them. The two
//! memory models share everything except the budget ([`super::planning`], [`super::vllm`]).
//!
//! "Fits" means what a person deploying it means: the weights load and at least one session of
//! `context_tokens` fits, i.e. vLLM would start. A format the card has no kernel for, a context
//! beyond the model's maximum (vLLM mode) or a utilisation above what a unified-memory card
//! starts with (vLLM mode) also make it `false`, with the reason in `warnings`.

use super::decode::topology_decode_ceiling_tokens_per_s;
use super::gpu::FormatSupport;
use super::kv_cache::kv_bytes_per_token_whole_model;
use super::memory_model::MemoryModel;
use super::model::AttentionKind;
use super::precision::WeightPrecision;
use super::prefill::{PREFILL_EFFICIENCY, prefill_tokens_per_s, ttft_estimate_ms};
use super::weights::{checkpoint_gib, decode_read_gb_per_token, param_breakdown};
use super::{GB, SizingError, planning, round1, vllm};
use serde::{Deserialize, Serialize};

pub use super::memory_terms::{CardMemory, SizingInput, Step, VllmDetails, num};
use super::memory_terms::{num_in, plain_in};
use crate::locale::Lang;

/// Everything [`size`] computes.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SizingResult {
    pub memory_model: MemoryModel,
    pub cards: u32,
    /// Whole-model weights as budgeted, GiB.
    pub checkpoint_gib: f64,
    /// Weights one card holds, GiB (planning: the checkpoint ÷ cards of a copy; vLLM: the
    /// bottleneck rank).
    pub weights_gib_per_card: f64,
    /// KV bytes per token on one card (for sliding-window models, averaged over the context).
    pub kv_bytes_per_token_per_card: f64,
    /// KV bytes per token of the whole model on one card, every attention layer in full.
    pub kv_bytes_per_token_model: f64,
    /// KV one session of `context_tokens` holds across one copy, GiB.
    pub session_gib: f64,
    /// KV pool on one card, GiB (vLLM: "Available KV cache memory").
    pub kv_pool_gib_per_card: f64,
    /// KV pool of one copy, GiB.
    pub kv_pool_gib_per_copy: f64,
    /// What vLLM would print as "GPU KV cache size: N tokens", counting one copy.
    pub kv_cache_tokens: u64,
    /// Sessions of `context_tokens` one copy holds (vLLM's "Maximum concurrency ... x").
    pub max_concurrency: f64,
    /// Whole sessions of `context_tokens` that fit, floor, counting every copy.
    pub sessions: u64,
    /// Weights load and at least one full session fits, i.e. vLLM would start.
    pub fits: bool,
    /// The memory alone would fit (ignoring whether the card has a kernel for the format).
    pub memory_fits: bool,
    /// Decimal GB a decode step reads for the whole model.
    pub decode_read_gb_per_token: f64,
    /// Single-stream decode ceiling, tok/s (an upper bound).
    pub decode_tokens_per_s: f64,
    /// Prompt tokens per second one copy prefills (estimate).
    pub prefill_tokens_per_s: f64,
    /// Engine TTFT estimate for `prompt_tokens`, ms, when a prompt length was given.
    pub ttft_ms: Option<f64>,
    /// Utilisation applied.
    pub gpu_memory_utilization: f64,
    pub warnings: Vec<String>,
    /// The arithmetic, in order.
    pub steps: Vec<Step>,
    /// Memory of one card (the bottleneck card in vLLM mode), for a stacked bar.
    pub per_card: CardMemory,
    pub vllm: Option<VllmDetails>,
}

/// Sizes one configuration. Errors name the input at fault (zero cards, TP not dividing the
/// heads, negative memory, ...); a configuration that is merely too small is not an error but
/// `fits == false`.
pub fn size(input: &SizingInput) -> Result<SizingResult, SizingError> {
    size_in(input, Lang::En)
}

/// [`size`] with its steps, units and warnings worded in `lang` (numbers in its format); the
/// figures are the same in every language, and English is [`size`]'s wording exactly.
pub fn size_in(input: &SizingInput, lang: Lang) -> Result<SizingResult, SizingError> {
    let version = input.validate()?;
    let mut warnings = format_warnings(input, lang);
    let usable = input.gpu.support_for(input.weights).is_usable();
    let mut memory = match input.memory_model {
        MemoryModel::Planning => planning::estimate(input, lang),
        MemoryModel::Vllm => vllm::estimate(input, version, lang),
    };
    warnings.append(&mut memory.warnings);
    let mut steps = std::mem::take(&mut memory.steps);

    let (read_gb, mut decode_steps) = decode_read(input, lang);
    steps.append(&mut decode_steps);
    let decode =
        topology_decode_ceiling_tokens_per_s(input.gpu.bandwidth_gb_s, read_gb, &input.topology);
    steps.push(decode_step(input, read_gb, decode, lang));

    let active_b = input.model.active_params_b();
    let tflops = input.gpu.dense_tflops_for(input.weights).unwrap_or(0.0);
    let prefill = prefill_tokens_per_s(active_b, tflops, input.topology.tp);
    let ttft_ms = input
        .prompt_tokens
        .filter(|_| prefill > 0.0)
        .map(|p| ttft_estimate_ms(p, active_b, tflops, input.topology.tp));
    if prefill > 0.0 {
        steps.push(Step::new(
            lang.pick("Prefill rate (estimate)", "Prefill-Rate (Schätzung)"),
            match lang {
                Lang::En => format!(
                    "{}{} TFLOPS × {PREFILL_EFFICIENCY} efficiency ÷ (2 × {} B active parameters)",
                    tp_prefix(input.topology.tp),
                    num(tflops, 0),
                    num(active_b, 2)
                ),
                Lang::De => format!(
                    "{}{} TFLOPS × {} Effizienz ÷ (2 × {} Mrd. aktive Parameter)",
                    tp_prefix(input.topology.tp),
                    num_in(tflops, 0, lang),
                    plain_in(PREFILL_EFFICIENCY, lang),
                    num_in(active_b, 2, lang)
                ),
            },
            prefill.round(),
            lang.pick("prompt tokens/s", "Prompt-Token/s"),
        ));
    }
    if let (Some(ms), Some(prompt)) = (ttft_ms, input.prompt_tokens) {
        steps.push(Step::new(
            lang.pick(
                "TTFT, engine prefill only (estimate)",
                "TTFT, nur Prefill der Engine (Schätzung)",
            ),
            match lang {
                Lang::En => format!(
                    "{} prompt tokens ÷ {} tokens/s; queueing, network and gateway come on top",
                    num(prompt as f64, 0),
                    num(prefill, 0)
                ),
                Lang::De => format!(
                    "{} Prompt-Token ÷ {} Token/s; Warteschlange, Netzwerk und Gateway kommen hinzu",
                    num_in(prompt as f64, 0, lang),
                    num_in(prefill, 0, lang)
                ),
            },
            ms.round(),
            "ms",
        ));
    }

    let fits = memory.fits && usable;
    let sessions = if fits {
        memory.sessions_per_copy * input.topology.copies as u64
    } else {
        0
    };
    if input.topology.copies > 1 && fits {
        steps.push(Step::new(
            lang.pick("Sessions, all copies", "Sitzungen, alle Kopien"),
            match lang {
                Lang::En => format!(
                    "{} per copy × {} copies",
                    memory.sessions_per_copy, input.topology.copies
                ),
                Lang::De => format!(
                    "{} je Kopie × {} Kopien",
                    num_in(memory.sessions_per_copy as f64, 0, lang),
                    input.topology.copies
                ),
            },
            sessions as f64,
            lang.pick("sessions", "Sitzungen"),
        ));
    }
    warnings.push(
        lang.pick(
            "Ceilings are upper bounds no system reaches; the last step is always a load test on the candidate.",
            "Obergrenzen sind obere Schranken, die kein System erreicht; der letzte Schritt ist immer ein Lasttest auf dem Kandidaten.",
        )
        .into(),
    );

    Ok(SizingResult {
        memory_model: input.memory_model,
        cards: input.topology.cards(),
        checkpoint_gib: memory.checkpoint_gib,
        weights_gib_per_card: memory.weights_gib_per_card,
        kv_bytes_per_token_per_card: memory.kv_bytes_per_token_per_card,
        kv_bytes_per_token_model: kv_bytes_per_token_whole_model(&input.model, input.kv_dtype),
        session_gib: memory.session_gib,
        kv_pool_gib_per_card: memory.kv_pool_gib_per_card,
        kv_pool_gib_per_copy: memory.kv_pool_gib_per_copy,
        kv_cache_tokens: memory.kv_cache_tokens,
        max_concurrency: memory.max_concurrency,
        sessions,
        fits,
        memory_fits: memory.fits,
        decode_read_gb_per_token: round1(read_gb),
        decode_tokens_per_s: decode,
        prefill_tokens_per_s: prefill,
        ttft_ms,
        gpu_memory_utilization: memory.utilization,
        warnings,
        steps,
        per_card: memory.per_card,
        vllm: memory.vllm,
    })
}

fn tp_prefix(tp: u32) -> String {
    if tp > 1 {
        format!("TP {tp} × ")
    } else {
        String::new()
    }
}

fn format_warnings(input: &SizingInput, lang: Lang) -> Vec<String> {
    let gpu = &input.gpu;
    let precision = input.weights;
    let mut out = Vec::new();
    match (gpu.support_for(precision), lang) {
        (FormatSupport::Unsupported, Lang::En) => out.push(format!(
            "{} cannot serve {} weights: vLLM has no kernel for the format on this card, so it does not fit.",
            gpu.name,
            precision.label()
        )),
        (FormatSupport::Unsupported, Lang::De) => out.push(format!(
            "{} kann Gewichte in {} nicht ausführen: vLLM hat auf dieser Karte keinen Kernel für das Format, die Konfiguration passt also nicht.",
            gpu.name,
            precision.label()
        )),
        (FormatSupport::WeightOnly, Lang::En) => out.push(format!(
            "{} has no {} tensor cores: vLLM runs the weights through a weight-only (Marlin-class) kernel; memory and decode read are unchanged, prefill computes at the 16-bit rate.",
            gpu.name,
            precision.label()
        )),
        (FormatSupport::WeightOnly, Lang::De) => out.push(format!(
            "{} hat keine Tensor-Cores für {}: vLLM führt die Gewichte über einen Weight-only-Kernel (Marlin-Klasse) aus; Speicher und Lesemenge im Decode bleiben gleich, der Prefill rechnet mit der 16-Bit-Rate.",
            gpu.name,
            precision.label()
        )),
        (FormatSupport::Native, _) => {}
    }
    if precision == WeightPrecision::Bf16 && !gpu.bf16 {
        out.push(match lang {
            Lang::En => format!(
                "{} has no BF16: the checkpoint runs as FP16 (same size).",
                gpu.name
            ),
            Lang::De => format!(
                "{} hat kein BF16: Der Checkpoint läuft als FP16 (gleiche Größe).",
                gpu.name
            ),
        });
    }
    if input.topology.tp > 1 && !gpu.nvlink {
        out.push(match lang {
            Lang::En => format!(
                "TP={} over PCIe without NVLink pays two all-reduces per layer per token; the TP decode ceiling is optimistic.",
                input.topology.tp
            ),
            Lang::De => format!(
                "TP={} über PCIe ohne NVLink kostet zwei All-Reduce-Schritte je Schicht und Token; die Decode-Obergrenze mit TP ist optimistisch.",
                input.topology.tp
            ),
        });
    }
    if input.model.is_moe() {
        out.push(
            lang.pick(
                "MoE decode ceiling assumes a single stream reading only its top-k experts; at moderate batch nearly every expert is read each step.",
                "Die Decode-Obergrenze eines MoE-Modells nimmt einen einzelnen Stream an, der nur seine Top-k-Experten liest; bei mittlerer Batchgröße wird in jedem Schritt fast jeder Experte gelesen.",
            )
            .into(),
        );
    }
    if matches!(input.model.attention, AttentionKind::Hybrid { .. }) {
        out.push(
            lang.pick(
                "Hybrid model: only attention layers are counted; the per-request linear-attention/Mamba state is not, and parameter counts from shapes are approximate (give weights_gib_override).",
                "Hybridmodell: Nur Attention-Schichten werden gezählt, der Linear-Attention-/Mamba-Zustand je Anfrage nicht, und aus den Formen berechnete Parameterzahlen sind ungefähr (weights_gib_override angeben).",
            )
            .into(),
        );
    }
    if input.context_tokens > input.model.max_context_tokens {
        out.push(match lang {
            Lang::En => format!(
                "{} context tokens exceed the model's maximum of {}.",
                num(input.context_tokens as f64, 0),
                num(input.model.max_context_tokens as f64, 0)
            ),
            Lang::De => format!(
                "{} Token Kontext überschreiten das Maximum des Modells von {}.",
                num_in(input.context_tokens as f64, 0, lang),
                num_in(input.model.max_context_tokens as f64, 0, lang)
            ),
        });
    }
    out
}

fn decode_read(input: &SizingInput, lang: Lang) -> (f64, Vec<Step>) {
    let model = &input.model;
    let precision = input.weights;
    let mut read_gb = decode_read_gb_per_token(model, precision);
    let mut steps = Vec::new();
    let params = param_breakdown(model);
    let embedding_gb = params.embedding * 2.0 / GB;
    let n = |value: f64, decimals: usize| num_in(value, decimals, lang);
    let mut formula = match (model.tied_embeddings, lang) {
        (true, Lang::En) => format!(
            "{} checkpoint read whole: the embeddings are tied, so lm_head is the {} GB table",
            precision.label(),
            num(embedding_gb, 2)
        ),
        (true, Lang::De) => format!(
            "Checkpoint in {} ganz gelesen: Die Embeddings sind gekoppelt, lm_head ist also die Tabelle von {} GB",
            precision.label(),
            n(embedding_gb, 2)
        ),
        (false, Lang::En) => format!(
            "{} checkpoint less the {} GB input-embedding table (a step reads one row of it)",
            precision.label(),
            num(embedding_gb, 2)
        ),
        (false, Lang::De) => format!(
            "Checkpoint in {} abzüglich der Eingabe-Embedding-Tabelle von {} GB (ein Schritt liest eine Zeile daraus)",
            precision.label(),
            n(embedding_gb, 2)
        ),
    };
    if let Some(moe) = &model.moe {
        formula.push_str(&match lang {
            Lang::En => format!(
                "; routed experts at {}/{} (one stream reads its top-k only)",
                moe.experts_per_token, moe.experts
            ),
            Lang::De => format!(
                "; geroutete Experten zu {}/{} (ein Stream liest nur seine Top-k)",
                moe.experts_per_token, moe.experts
            ),
        });
    }
    if let Some(override_gib) = input.weights_gib_override {
        let scale = override_gib / checkpoint_gib(model, precision);
        read_gb *= scale;
        formula.push_str(&match lang {
            Lang::En => format!(
                "; scaled by the given {} GiB of weights",
                num(override_gib, 1)
            ),
            Lang::De => format!(
                "; skaliert auf die angegebenen {} GiB Gewichte",
                n(override_gib, 1)
            ),
        });
    }
    formula.push_str(&format!(
        " = {} → {} GB",
        n(read_gb, 2),
        n(round1(read_gb), 1)
    ));
    steps.push(Step::new(
        lang.pick(
            "Bytes read per decode step",
            "Je Decode-Schritt gelesene Bytes",
        ),
        formula,
        round1(read_gb),
        "GB",
    ));
    (read_gb, steps)
}

fn decode_step(input: &SizingInput, read_gb: f64, decode: f64, lang: Lang) -> Step {
    let t = &input.topology;
    let mut formula = format!(
        "{}{} GB/s ÷ {} GB",
        tp_prefix(t.tp),
        num_in(input.gpu.bandwidth_gb_s, 0, lang),
        num_in(round1(read_gb), 1, lang)
    );
    if t.pp > 1 {
        formula.push_str(lang.pick(
            "; pipeline stages run in turn and do not raise it",
            "; Pipeline-Stufen rechnen nacheinander und heben sie nicht an",
        ));
    }
    formula.push_str(lang.pick(
        "; an upper bound, confirm with a load test",
        "; eine obere Schranke, mit einem Lasttest bestätigen",
    ));
    Step::new(
        lang.pick(
            "Decode ceiling, one stream",
            "Decode-Obergrenze, ein Stream",
        ),
        formula,
        decode,
        "tok/s",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::gpu::gpu_by_id;
    use crate::sizing::model::model_by_id;
    use crate::sizing::precision::KvDtype;
    use crate::sizing::topology::Topology;

    fn llama_on(gpu: &str, memory_model: MemoryModel) -> SizingInput {
        SizingInput::new(
            model_by_id("llama-3.3-70b").unwrap(),
            WeightPrecision::Fp8,
            KvDtype::Fp8,
            gpu_by_id(gpu).unwrap(),
            Topology::single(),
            8_192,
            memory_model,
        )
    }

    #[test]
    fn numbers_are_grouped_for_people() {
        assert_eq!(num(97_887.0, 0), "97,887");
        assert_eq!(num(1_234_567.891, 2), "1,234,567.89");
        assert_eq!(num(-2.14, 2), "-2.14");
        assert_eq!(num(0.0, 1), "0.0");
    }

    #[test]
    fn bad_inputs_are_named() {
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.topology = Topology::new(2, 1, 0);
        assert!(size(&input).unwrap_err().to_string().contains("at least 1"));
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.topology = Topology::new(3, 1, 1);
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .contains("TP=3 does not divide")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.gpu.memory_driver_gib = -1.0;
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("memory_driver_gib:")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Planning);
        input.context_tokens = 0;
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("context_tokens:")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Vllm);
        input.gpu_memory_utilization = Some(1.2);
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("gpu_memory_utilization:")
        );
        let mut input = llama_on("h200-nvl", MemoryModel::Vllm);
        input.vllm_version = Some("nightly".into());
        assert!(
            size(&input)
                .unwrap_err()
                .to_string()
                .starts_with("vllm_version:")
        );
        let err = SizingInput::from_ids(
            "llama-3.3-70b",
            WeightPrecision::Fp8,
            KvDtype::Fp8,
            "tpu-v5",
            Topology::single(),
            8_192,
            MemoryModel::Planning,
        )
        .unwrap_err();
        assert_eq!(err, SizingError::UnknownGpu("tpu-v5".into()));
    }

    #[test]
    fn a_format_without_kernels_does_not_fit() {
        let mut input = llama_on("v100-sxm2-32gb", MemoryModel::Planning);
        input.model = model_by_id("qwen2.5-7b").unwrap();
        let result = size(&input).unwrap();
        assert!(!result.fits);
        assert_eq!(result.sessions, 0);
        assert!(
            result.warnings[0].contains("no kernel"),
            "{:?}",
            result.warnings
        );
    }

    #[test]
    fn results_survive_json() {
        for model in [MemoryModel::Planning, MemoryModel::Vllm] {
            let mut input = llama_on("rtx-pro-6000-server", model);
            input.prompt_tokens = Some(2_000);
            let result = size(&input).unwrap();
            let json = serde_json::to_string(&result).unwrap();
            let back: SizingResult = serde_json::from_str(&json).unwrap();
            assert_eq!(back, result);
            let input_json = serde_json::to_string(&input).unwrap();
            let input_back: SizingInput = serde_json::from_str(&input_json).unwrap();
            assert_eq!(input_back, input);
        }
    }

    #[test]
    fn german_words_the_same_arithmetic() {
        for model in [MemoryModel::Planning, MemoryModel::Vllm] {
            let mut input = llama_on("rtx-pro-6000-server", model);
            input.prompt_tokens = Some(2_000);
            let english = size(&input).unwrap();
            let german = size_in(&input, Lang::De).unwrap();
            assert_eq!(english.steps.len(), german.steps.len());
            assert_eq!(english.warnings.len(), german.warnings.len());
            for (en, de) in english.steps.iter().zip(&german.steps) {
                assert_eq!(en.value, de.value, "{}", en.label);
                assert_ne!(en.label, de.label);
                assert_ne!(en.formula, de.formula, "{}", en.label);
            }
            let figures = |mut r: SizingResult| {
                r.steps.clear();
                r.warnings.clear();
                if let Some(v) = r.vllm.as_mut() {
                    v.refusal = None;
                }
                r
            };
            assert_eq!(figures(english), figures(german), "{model}");
        }
        let german = size_in(
            &llama_on("rtx-pro-6000-server", MemoryModel::Planning),
            Lang::De,
        )
        .unwrap();
        let step = |label: &str| {
            german
                .steps
                .iter()
                .find(|s| s.label == label)
                .unwrap_or_else(|| panic!("{label}: {:?}", german.steps))
                .formula
                .clone()
        };
        assert_eq!(
            step("Vom Treiber gemeldeter Speicher"),
            "nvidia-smi 97.887 MiB ÷ 1024 = 95,59 → 95,6 GiB"
        );
        assert_eq!(
            step("Budget je Karte"),
            "0,9 × 95,60 GiB − 3,0 GiB Planungsaufschlag"
        );
        assert_eq!(
            step("Sitzungen je Kopie"),
            "abrunden(15,34 GiB ÷ 1,2500 GiB) = abrunden(12,27)"
        );
        assert_eq!(
            step("Decode-Obergrenze, ein Stream"),
            "1.597 GB/s ÷ 70,6 GB; eine obere Schranke, mit einem Lasttest bestätigen"
        );
        assert!(
            german
                .warnings
                .last()
                .unwrap()
                .starts_with("Obergrenzen sind")
        );
    }

    #[test]
    fn the_stacked_bar_adds_up() {
        for model in [MemoryModel::Planning, MemoryModel::Vllm] {
            let result = size(&llama_on("h200-nvl", model)).unwrap();
            let bar = &result.per_card;
            let sum = bar.weights_gib + bar.overhead_gib + bar.kv_gib + bar.free_gib;
            assert!((sum - bar.total_gib).abs() < 1e-6, "{model}: {bar:?}");
        }
    }
}
