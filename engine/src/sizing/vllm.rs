//! The vLLM memory model: what vLLM will print at start-up, and whether it starts at all.
//!
//! For each pipeline stage (all TP ranks of a stage are alike) the budget follows vLLM's own
//! profile: `CUDA total × utilisation − weights − activation − non-torch − CUDA graphs (≥ 0.21)`,
//! where the engine (V0 or V1, by release and card) decides the profile's batched tokens and
//! sampled sequences, and whether the CUDA context counts. The model is checked against real
//! start-up logs in `testdata/vllm-startup-logs` (`startup_corpus.rs`).
//! The KV pool is cut into blocks of 16 tokens; layers of different kinds (full and sliding)
//! form equally sized KV-cache groups that share the blocks; every rank uses the smallest block
//! count of any rank. Concurrency is blocks ÷ blocks one `max_model_len` request needs, and
//! vLLM refuses to start below one. The assumptions and their sources are listed in
//! [`super::memory_model`].

use super::kv_cache::kv_bytes_per_token_per_layer;
use super::memory_model::{
    CUDA_CONTEXT_GIB, VLLM_BLOCK_SIZE_TOKENS, VllmEngine, VllmVersion, activation_gib,
    cuda_context_in_budget, cuda_graph_gib, cuda_graphs_in_budget, default_gpu_memory_utilization,
    hybrid_kv_manager, kv_tokens_from_concurrency, non_torch_gib, sampler_bytes_per_logit,
    scheduler_defaults, vllm_engine,
};
use super::memory_terms::{
    CardMemory, MemoryOutcome, SizingInput, Step, VllmDetails, gib2, gib2_in, num, num_in, plain_in,
};
use super::model::{LayerKind, ModelSpec};
use super::planning::kv_per_token_formula;
use super::topology::pipeline_stages;
use super::weights::{
    computed_checkpoint_bytes, measured_resident_gib, published_checkpoint_gib, rank_weight_bytes,
};
use super::{GIB, KIB, round2};
use crate::locale::Lang;
use std::ops::Range;

/// The KV-cache layout of one rank.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RankLayout {
    /// Layers per KV-cache group (each group's layers share one block table).
    pub group_size: u32,
    /// Number of groups (including padded ones).
    pub groups: u32,
    /// Blocks one request of `max_model_len` needs across all groups.
    pub blocks_per_request: u64,
}

fn cdiv(a: u64, b: u64) -> u64 {
    a.div_ceil(b.max(1))
}

/// vLLM's grouping of a rank's layers and the blocks one request needs.
pub fn rank_layout(
    kinds: &[LayerKind],
    context_tokens: u64,
    window_tokens: Option<u64>,
    max_num_batched_tokens: u64,
    hybrid_manager: bool,
) -> RankLayout {
    let block = VLLM_BLOCK_SIZE_TOKENS;
    let full_blocks = cdiv(context_tokens, block);
    let mut full = kinds.iter().filter(|k| **k == LayerKind::Full).count() as u32;
    let mut sliding = kinds.iter().filter(|k| **k == LayerKind::Sliding).count() as u32;
    if !hybrid_manager {
        full += sliding;
        sliding = 0;
    }
    let sliding_blocks = window_tokens
        .map(|w| cdiv((w - 1 + max_num_batched_tokens).min(context_tokens), block) + 1)
        .unwrap_or(full_blocks);
    match (full, sliding) {
        (0, 0) => RankLayout {
            group_size: 1,
            groups: 1,
            blocks_per_request: full_blocks,
        },
        (f, 0) => RankLayout {
            group_size: f,
            groups: 1,
            blocks_per_request: full_blocks,
        },
        (0, s) => RankLayout {
            group_size: s,
            groups: 1,
            blocks_per_request: sliding_blocks,
        },
        (f, s) => {
            let (small, large) = (f.min(s), f.max(s));
            let group_size = if (large as f64) < small as f64 * 1.25 {
                large
            } else {
                small
            };
            let full_groups = f.div_ceil(group_size);
            let sliding_groups = s.div_ceil(group_size);
            RankLayout {
                group_size,
                groups: full_groups + sliding_groups,
                blocks_per_request: full_groups as u64 * full_blocks
                    + sliding_groups as u64 * sliding_blocks,
            }
        }
    }
}

struct StageBudget {
    layers: Range<u32>,
    weights_gib: f64,
    available_gib: f64,
    page_bytes: f64,
    layout: RankLayout,
    num_blocks: u64,
}

/// Whole-model weights vLLM will hold, GiB, and where the figure comes from.
fn resident_whole_gib(input: &SizingInput, lang: Lang) -> (f64, String) {
    let model = &input.model;
    let computed = computed_checkpoint_bytes(model, input.weights) / GIB;
    let n = |value: f64| num_in(value, 2, lang);
    if let Some(gib) = input.weights_gib_override {
        return (
            gib,
            format!("{} GiB {}", n(gib), lang.pick("as given", "wie angegeben")),
        );
    }
    let published = published_checkpoint_gib(model, input.weights);
    let measured = measured_resident_gib(model, input.weights);
    let base = published.unwrap_or(computed);
    match measured {
        Some(m) if m > base => (
            m,
            match lang {
                Lang::En => format!(
                    "{} GiB measured in a vLLM log for {} (above the {} GiB checkpoint)",
                    num(m, 2),
                    input.weights.label(),
                    num(base, 2)
                ),
                Lang::De => format!(
                    "{} GiB in einem vLLM-Log für {} gemessen (über dem Checkpoint von {} GiB)",
                    n(m),
                    input.weights.label(),
                    n(base)
                ),
            },
        ),
        _ => (
            base,
            match lang {
                Lang::En => format!(
                    "{} checkpoint {} GiB{}",
                    input.weights.label(),
                    num(base, 2),
                    if published.is_some() {
                        " (published)"
                    } else {
                        " (computed from the shapes)"
                    }
                ),
                Lang::De => format!(
                    "Checkpoint in {}: {} GiB{}",
                    input.weights.label(),
                    n(base),
                    if published.is_some() {
                        " (veröffentlicht)"
                    } else {
                        " (aus den Formen berechnet)"
                    }
                ),
            },
        ),
    }
}

pub(crate) fn estimate(
    input: &SizingInput,
    version: Option<VllmVersion>,
    lang: Lang,
) -> MemoryOutcome {
    let gpu = &input.gpu;
    let model = &input.model;
    let topology = &input.topology;
    let context = input.context_tokens;
    let mut steps = Vec::new();
    let mut warnings = Vec::new();
    let mut refusal: Option<String> = None;
    let n = |value: f64, decimals: usize| num_in(value, decimals, lang);
    let g2 = |value: f64| gib2_in(value, lang);

    let util = input
        .gpu_memory_utilization
        .unwrap_or_else(|| default_gpu_memory_utilization(version));
    let version_text = version.map(|v| v.to_string());
    if version.is_none() {
        warnings.push(
            lang.pick(
                "vLLM version not given: the conservative choice of each version-dependent rule was taken (utilisation 0.9 unless set, CUDA-graph estimate subtracted).",
                "vLLM-Version nicht angegeben: Bei jeder versionsabhängigen Regel gilt die vorsichtige Wahl (Auslastung 0,9, sofern nicht gesetzt; CUDA-Graph-Schätzung abgezogen).",
            )
            .into(),
        );
    }
    let total = gpu.memory_cuda_gib;
    if gpu.memory_cuda_estimated {
        warnings.push(match lang {
            Lang::En => format!(
                "The CUDA-visible total of {} is an estimate ({} GiB); vLLM's real denominator may differ.",
                gpu.name,
                num(total, 2)
            ),
            Lang::De => format!(
                "Der für CUDA sichtbare Gesamtspeicher von {} ist geschätzt ({} GiB); der tatsächliche Nenner von vLLM kann abweichen.",
                gpu.name,
                n(total, 2)
            ),
        });
    }
    let engine = vllm_engine(
        version,
        gpu.compute_capability.as_deref(),
        input.vllm_engine,
    );
    let defaults = scheduler_defaults(
        engine,
        version,
        gpu.memory_driver_gib,
        gpu.unified_memory,
        &gpu.name,
        context,
    );
    let mnbt = input
        .max_num_batched_tokens
        .unwrap_or(defaults.max_num_batched_tokens);
    let max_num_seqs = input.max_num_seqs.unwrap_or(defaults.max_num_seqs);
    // V0 profiles max_num_seqs dummy sequences; V1 samples min(max_num_seqs, batched tokens).
    let sampler_sequences = match engine {
        VllmEngine::V0 => max_num_seqs,
        VllmEngine::V1 => max_num_seqs.min(mnbt),
    };
    let bytes_per_logit = sampler_bytes_per_logit(engine, version, input.flashinfer_sampler);
    let class = model.class();
    let activation = activation_gib(model, topology.tp, mnbt, sampler_sequences, bytes_per_logit);
    let context_counted = cuda_context_in_budget(version, engine);
    let all_reduce_buffers = gpu.nvlink && input.custom_all_reduce != Some(false);
    let non_torch = non_torch_gib(
        topology.tp,
        topology.pp,
        all_reduce_buffers,
        context_counted,
    );
    let graphs = if input.enforce_eager {
        0.0
    } else {
        cuda_graph_gib(class)
    };
    let graphs_in_budget = cuda_graphs_in_budget(version) && !input.enforce_eager;
    let graphs_subtracted = if graphs_in_budget { graphs } else { 0.0 };
    let hybrid = hybrid_kv_manager(version);

    let requested = total * util;
    steps.push(Step::new(
        lang.pick(
            "Memory vLLM may use per card",
            "Speicher, den vLLM je Karte nutzen darf",
        ),
        format!(
            "{} {} GiB{} × gpu_memory_utilization {}{}",
            lang.pick("CUDA total", "CUDA gesamt"),
            n(total, 2),
            if gpu.memory_cuda_estimated {
                lang.pick(" (estimated)", " (geschätzt)")
            } else {
                ""
            },
            plain_in(util, lang),
            if input.gpu_memory_utilization.is_none() {
                format!(
                    " ({} {})",
                    lang.pick("default of vLLM", "Standard von vLLM"),
                    version_text.clone().unwrap_or_else(|| lang
                        .pick("unknown version", "unbekannte Version")
                        .into())
                )
            } else {
                String::new()
            }
        ),
        requested,
        "GiB",
    ));

    let (resident, resident_note) = resident_whole_gib(input, lang);
    let computed_whole = computed_checkpoint_bytes(model, input.weights);
    let scale = resident * GIB / computed_whole;
    steps.push(Step::new(
        lang.pick(
            "Weights vLLM loads (whole model)",
            "Gewichte, die vLLM lädt (ganzes Modell)",
        ),
        resident_note,
        resident,
        "GiB",
    ));

    let kinds = model.layer_kinds();
    let per_layer = kv_bytes_per_token_per_layer(model, input.kv_dtype, topology.tp);
    let page_bytes = VLLM_BLOCK_SIZE_TOKENS as f64 * per_layer;
    let stages = pipeline_stages(model.layers, topology.pp);
    let last = stages.len() - 1;
    let budgets: Vec<StageBudget> = stages
        .into_iter()
        .enumerate()
        .map(|(i, layers)| {
            let weights_gib = rank_weight_bytes(
                model,
                input.weights,
                topology.tp,
                layers.clone(),
                i == 0,
                i == last,
            ) * scale
                / GIB;
            let available_gib =
                requested - weights_gib - activation - non_torch - graphs_subtracted;
            let stage_kinds = &kinds[layers.start as usize..layers.end as usize];
            let layout = rank_layout(stage_kinds, context, model.window_tokens(), mnbt, hybrid);
            let num_blocks = if available_gib > 0.0 && page_bytes > 0.0 {
                (available_gib * GIB / page_bytes / layout.group_size as f64).floor() as u64
            } else {
                0
            };
            StageBudget {
                layers,
                weights_gib,
                available_gib,
                page_bytes,
                layout,
                num_blocks,
            }
        })
        .collect();
    let (bottleneck_index, bottleneck) = budgets
        .iter()
        .enumerate()
        .min_by(|a, b| {
            a.1.num_blocks
                .cmp(&b.1.num_blocks)
                .then(a.1.available_gib.total_cmp(&b.1.available_gib))
        })
        .expect("at least one stage");
    let num_blocks = bottleneck.num_blocks;
    let blocks_per_request = budgets
        .iter()
        .map(|b| b.layout.blocks_per_request)
        .max()
        .unwrap_or(1)
        .max(1);

    steps.push(Step::new(
        lang.pick(
            "Weights on the bottleneck card",
            "Gewichte auf der Engpass-Karte",
        ),
        format!(
            "{}{}",
            match (topology.tp > 1, lang) {
                (true, Lang::En) => format!(
                    "linear layers and vocabulary ÷ TP {}, norms and routers whole",
                    topology.tp
                ),
                (true, Lang::De) => format!(
                    "lineare Schichten und Vokabular ÷ TP {}, Normen und Router ganz",
                    topology.tp
                ),
                (false, _) => lang.pick("the whole model", "das ganze Modell").to_string(),
            },
            match (topology.pp > 1, lang) {
                (true, Lang::En) => format!(
                    "; pipeline stage {} of {} (layers {}–{})",
                    bottleneck_index + 1,
                    topology.pp,
                    bottleneck.layers.start,
                    bottleneck.layers.end - 1
                ),
                (true, Lang::De) => format!(
                    "; Pipeline-Stufe {} von {} (Schichten {}–{})",
                    bottleneck_index + 1,
                    topology.pp,
                    bottleneck.layers.start,
                    bottleneck.layers.end - 1
                ),
                (false, _) => String::new(),
            }
        ),
        bottleneck.weights_gib,
        "GiB",
    ));
    let logit_bytes = format!(
        "{} {}{}",
        n(bytes_per_logit, 1),
        lang.pick("B a logit", "B je Logit"),
        match (engine, input.flashinfer_sampler) {
            (VllmEngine::V1, Some(true)) =>
                lang.pick(", FlashInfer sampler", ", FlashInfer-Sampler"),
            (VllmEngine::V1, _) => lang.pick(", PyTorch sampler", ", PyTorch-Sampler"),
            _ => "",
        }
    );
    let non_torch_parts = match (topology.tp * topology.pp > 1, all_reduce_buffers) {
        (false, _) => lang.pick("single card", "einzelne Karte"),
        (true, true) => lang.pick(
            "NCCL and custom all-reduce buffers",
            "NCCL- und Custom-All-Reduce-Puffer",
        ),
        (true, false) => lang.pick("NCCL, no custom all-reduce", "NCCL, kein Custom-All-Reduce"),
    };
    let context_note = if context_counted {
        lang.pick(
            "; this release counts the CUDA context inside the budget",
            "; diese Version zählt den CUDA-Kontext zum Budget",
        )
    } else {
        ""
    };
    steps.push(Step::new(
        lang.pick(
            "Activation + non-torch memory",
            "Aktivierungs- + Nicht-Torch-Speicher",
        ),
        match lang {
            Lang::En => format!(
                "{} GiB peak activation ({} profile: {} batched tokens, {} sampled sequences × {} vocabulary at {logit_bytes}) + {} GiB non-torch ({non_torch_parts}{context_note})",
                num(activation, 2),
                engine.as_str(),
                num(mnbt as f64, 0),
                num(sampler_sequences as f64, 0),
                num(model.vocab_size as f64, 0),
                num(non_torch, 2),
            ),
            Lang::De => format!(
                "{} GiB Spitzenaktivierung (Profil {}: {} Batch-Token, {} gesampelte Sequenzen × {} Vokabular mit {logit_bytes}) + {} GiB Nicht-Torch ({non_torch_parts}{context_note})",
                n(activation, 2),
                engine.as_str(),
                n(mnbt as f64, 0),
                n(sampler_sequences as f64, 0),
                n(model.vocab_size as f64, 0),
                n(non_torch, 2),
            ),
        },
        activation + non_torch,
        "GiB",
    ));
    steps.push(Step::new(
        lang.pick("CUDA graphs", "CUDA-Graphen"),
        match (input.enforce_eager, graphs_in_budget, lang) {
            (true, _, _) => lang
                .pick(
                    "none: --enforce-eager captures no CUDA graphs",
                    "keine: --enforce-eager erfasst keine CUDA-Graphen",
                )
                .to_string(),
            (false, true, Lang::En) => format!(
                "vLLM's estimate for a {} model, subtracted from the KV budget (vLLM ≥ 0.21 or version unknown)",
                class.label()
            ),
            (false, true, Lang::De) => format!(
                "Schätzung von vLLM für ein Modell der Klasse „{}“, vom KV-Budget abgezogen (vLLM ≥ 0.21 oder Version unbekannt)",
                class.label_in(lang)
            ),
            (false, false, Lang::En) => format!(
                "about {} GiB captured after the KV cache, out of the {} GiB headroom (vLLM < 0.21)",
                num(graphs, 1),
                gib2(total * (1.0 - util))
            ),
            (false, false, Lang::De) => format!(
                "etwa {} GiB, nach dem KV-Cache erfasst, aus der Reserve von {} GiB (vLLM < 0.21)",
                n(graphs, 1),
                g2(total * (1.0 - util))
            ),
        },
        graphs_subtracted,
        "GiB",
    ));
    steps.push(Step::new(
        lang.pick("Available KV cache memory", "Verfügbarer KV-Cache-Speicher"),
        format!(
            "{} − {} − {} − {}{}",
            g2(requested),
            g2(bottleneck.weights_gib),
            g2(activation + non_torch),
            g2(graphs_subtracted),
            if budgets.len() > 1 {
                lang.pick(
                    "; the most loaded stage sets every rank's pool",
                    "; die am stärksten belegte Stufe bestimmt den Pool jedes Ranks",
                )
            } else {
                ""
            }
        ),
        bottleneck.available_gib,
        "GiB",
    ));
    let (per_token_text, _) = kv_per_token_formula(model, input.kv_dtype, lang);
    steps.push(Step::new(
        lang.pick(
            "KV per token and layer on one card",
            "KV je Token und Schicht auf einer Karte",
        ),
        match (topology.tp > 1, lang) {
            (true, Lang::En) => format!(
                "{per_token_text}; per layer on one of {} TP ranks: {} B",
                topology.tp,
                num(per_layer, 0)
            ),
            (true, Lang::De) => format!(
                "{per_token_text}; je Schicht auf einem von {} TP-Ranks: {} B",
                topology.tp,
                n(per_layer, 0)
            ),
            (false, _) => format!(
                "{per_token_text}; {}: {} B",
                lang.pick("per layer", "je Schicht"),
                n(per_layer, 0)
            ),
        },
        per_layer / KIB,
        "KiB",
    ));
    steps.push(Step::new(
        lang.pick("GPU blocks", "GPU-Blöcke"),
        match lang {
            Lang::En => format!(
                "floor({} GiB ÷ ({} tokens × {} B page) ÷ {} layers per group)",
                gib2(bottleneck.available_gib.max(0.0)),
                VLLM_BLOCK_SIZE_TOKENS,
                num(bottleneck.page_bytes / VLLM_BLOCK_SIZE_TOKENS as f64, 0),
                bottleneck.layout.group_size
            ),
            Lang::De => format!(
                "abrunden({} GiB ÷ ({} Token × {} B Seite) ÷ {} Schichten je Gruppe)",
                g2(bottleneck.available_gib.max(0.0)),
                VLLM_BLOCK_SIZE_TOKENS,
                n(bottleneck.page_bytes / VLLM_BLOCK_SIZE_TOKENS as f64, 0),
                bottleneck.layout.group_size
            ),
        },
        num_blocks as f64,
        lang.pick("blocks", "Blöcke"),
    ));

    let concurrency_raw = num_blocks as f64 / blocks_per_request as f64;
    let kv_cache_tokens = if kv_tokens_from_concurrency(version) {
        (concurrency_raw * context as f64).floor() as u64
    } else {
        num_blocks / bottleneck.layout.groups.max(1) as u64 * VLLM_BLOCK_SIZE_TOKENS
    };
    let max_concurrency = round2(concurrency_raw);
    let groups_note = match (bottleneck.layout.groups > 1, lang) {
        (true, Lang::En) => format!(
            " ({} KV-cache groups of {} layers; sliding groups hold window − 1 + {} batched tokens)",
            bottleneck.layout.groups,
            bottleneck.layout.group_size,
            num(mnbt as f64, 0)
        ),
        (true, Lang::De) => format!(
            " ({} KV-Cache-Gruppen mit je {} Schichten; gleitende Gruppen halten Fenster − 1 + {} Batch-Token)",
            bottleneck.layout.groups,
            bottleneck.layout.group_size,
            n(mnbt as f64, 0)
        ),
        (false, _) => String::new(),
    };
    steps.push(Step::new(
        lang.pick("Maximum concurrency", "Maximale Parallelität"),
        match lang {
            Lang::En => format!(
                "{} blocks ÷ {} blocks per {}-token request{groups_note}",
                num(num_blocks as f64, 0),
                num(blocks_per_request as f64, 0),
                num(context as f64, 0),
            ),
            Lang::De => format!(
                "{} Blöcke ÷ {} Blöcke je Anfrage mit {} Token{groups_note}",
                n(num_blocks as f64, 0),
                n(blocks_per_request as f64, 0),
                n(context as f64, 0),
            ),
        },
        max_concurrency,
        "x",
    ));
    steps.push(Step::new(
        lang.pick("GPU KV cache size", "GPU-KV-Cache-Größe"),
        match (kv_tokens_from_concurrency(version), lang) {
            (true, Lang::En) => format!(
                "{} × {} tokens (as vLLM ≥ 0.21 logs it)",
                num(concurrency_raw, 4),
                num(context as f64, 0)
            ),
            (true, Lang::De) => format!(
                "{} × {} Token (wie vLLM ≥ 0.21 es protokolliert)",
                n(concurrency_raw, 4),
                n(context as f64, 0)
            ),
            (false, Lang::En) => format!(
                "{} blocks ÷ {} groups × {} tokens",
                num(num_blocks as f64, 0),
                bottleneck.layout.groups,
                VLLM_BLOCK_SIZE_TOKENS
            ),
            (false, Lang::De) => format!(
                "{} Blöcke ÷ {} Gruppen × {} Token",
                n(num_blocks as f64, 0),
                bottleneck.layout.groups,
                VLLM_BLOCK_SIZE_TOKENS
            ),
        },
        kv_cache_tokens as f64,
        lang.pick("tokens", "Token"),
    ));

    if bottleneck.available_gib <= 0.0 {
        refusal = Some(match lang {
            Lang::En => format!(
                "No available memory for the cache blocks: the weights and overheads exceed {} GiB by {} GiB.",
                gib2(requested),
                gib2(-bottleneck.available_gib)
            ),
            Lang::De => format!(
                "Kein Speicher für die Cache-Blöcke verfügbar: Gewichte und Mehrbedarf überschreiten {} GiB um {} GiB.",
                g2(requested),
                g2(-bottleneck.available_gib)
            ),
        });
    } else if num_blocks < blocks_per_request {
        refusal = Some(match lang {
            Lang::En => format!(
                "One {}-token request needs {} blocks, the pool has {}: vLLM refuses to start (lower max_model_len or add memory).",
                num(context as f64, 0),
                num(blocks_per_request as f64, 0),
                num(num_blocks as f64, 0)
            ),
            Lang::De => format!(
                "Eine Anfrage mit {} Token braucht {} Blöcke, der Pool hat {}: vLLM startet nicht (max_model_len senken oder Speicher hinzufügen).",
                n(context as f64, 0),
                n(blocks_per_request as f64, 0),
                n(num_blocks as f64, 0)
            ),
        });
    }
    if context > model.max_context_tokens && refusal.is_none() {
        refusal = Some(match lang {
            Lang::En => format!(
                "max_model_len {} exceeds the model's {} positions: vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN is set.",
                num(context as f64, 0),
                num(model.max_context_tokens as f64, 0)
            ),
            Lang::De => format!(
                "max_model_len {} überschreitet die {} Positionen des Modells: vLLM lehnt das ab, außer VLLM_ALLOW_LONG_MAX_MODEL_LEN ist gesetzt.",
                n(context as f64, 0),
                n(model.max_context_tokens as f64, 0)
            ),
        });
    }
    if let Some(max) = gpu.max_startup_utilization
        && util > max
        && refusal.is_none()
    {
        refusal = Some(match lang {
            Lang::En => format!(
                "{} shares its memory with the OS: free memory at start-up is about {max} of the total, below the requested {util}; vLLM refuses to start. Set gpu_memory_utilization ≤ {max}.",
                gpu.name
            ),
            Lang::De => format!(
                "{} teilt den Speicher mit dem Betriebssystem: Beim Start ist etwa {} des Gesamtspeichers frei, weniger als die angeforderten {}; vLLM startet nicht. gpu_memory_utilization ≤ {} setzen.",
                gpu.name,
                plain_in(max, lang),
                plain_in(util, lang),
                plain_in(max, lang)
            ),
        });
    }
    let headroom = total * (1.0 - util);
    let needed_headroom = CUDA_CONTEXT_GIB + if graphs_in_budget { 0.0 } else { graphs / 2.0 };
    if headroom < needed_headroom {
        warnings.push(match lang {
            Lang::En => format!(
                "Only {} GiB is left outside vLLM's budget for the CUDA context{}; start-up or graph capture may run out of memory (lower gpu_memory_utilization or use --enforce-eager).",
                gib2(headroom),
                if graphs_in_budget { "" } else { " and CUDA graphs" }
            ),
            Lang::De => format!(
                "Außerhalb des vLLM-Budgets bleiben nur {} GiB für den CUDA-Kontext{}; beim Start oder beim Erfassen der Graphen kann der Speicher ausgehen (gpu_memory_utilization senken oder --enforce-eager verwenden).",
                g2(headroom),
                if graphs_in_budget { "" } else { " und die CUDA-Graphen" }
            ),
        });
    }
    if matches!(class, super::model::ModelClass::Hybrid) {
        warnings.push(
            lang.pick(
                "vLLM pads attention blocks to the Mamba state size for hybrid models; its token count can differ severalfold from this one.",
                "vLLM füllt bei Hybridmodellen die Attention-Blöcke auf die Größe des Mamba-Zustands auf; seine Token-Zahl kann um ein Mehrfaches von dieser abweichen.",
            )
            .into(),
        );
    }
    if let Some(reason) = &refusal {
        warnings.push(reason.clone());
    }
    let fits = refusal.is_none();

    let kv_allocated_gib =
        num_blocks as f64 * bottleneck.page_bytes * bottleneck.layout.group_size as f64 / GIB;
    let overhead = activation + non_torch + graphs;
    let session_bytes_rank: f64 = session_bytes_vllm(
        model,
        &kinds,
        &bottleneck.layers,
        per_layer,
        context,
        mnbt,
        hybrid,
    );
    let cards = topology.cards_per_copy() as f64;
    MemoryOutcome {
        checkpoint_gib: resident,
        weights_gib_per_card: bottleneck.weights_gib,
        kv_bytes_per_token_per_card: session_bytes_rank / context as f64,
        session_gib: budgets
            .iter()
            .map(|b| session_bytes_vllm(model, &kinds, &b.layers, per_layer, context, mnbt, hybrid))
            .sum::<f64>()
            * topology.tp as f64
            / GIB,
        kv_pool_gib_per_card: bottleneck.available_gib,
        kv_pool_gib_per_copy: bottleneck.available_gib.max(0.0) * cards,
        kv_cache_tokens,
        max_concurrency,
        sessions_per_copy: if fits {
            concurrency_raw.floor() as u64
        } else {
            0
        },
        fits,
        utilization: util,
        per_card: CardMemory::stacked(total, bottleneck.weights_gib, overhead, kv_allocated_gib),
        steps,
        warnings,
        vllm: Some(VllmDetails {
            version: version_text,
            max_num_batched_tokens: mnbt,
            max_num_seqs,
            engine,
            model_class: class,
            block_size_tokens: VLLM_BLOCK_SIZE_TOKENS,
            num_blocks,
            kv_cache_groups: bottleneck.layout.groups,
            activation_gib: activation,
            non_torch_gib: non_torch,
            cuda_graph_gib: graphs,
            cuda_graphs_in_budget: graphs_in_budget,
            bottleneck_stage: bottleneck_index as u32,
            refusal,
        }),
    }
}

/// Bytes one request of `context` holds on one rank of the stage owning `layers`, with vLLM's
/// sliding bound (window − 1 + batched tokens) when the hybrid manager is on.
fn session_bytes_vllm(
    model: &ModelSpec,
    kinds: &[LayerKind],
    layers: &Range<u32>,
    per_layer: f64,
    context: u64,
    mnbt: u64,
    hybrid: bool,
) -> f64 {
    let bound = match (model.window_tokens(), hybrid) {
        (Some(w), true) => (w - 1 + mnbt).min(context),
        _ => context,
    };
    layers
        .clone()
        .map(|i| super::kv_cache::tokens_held(kinds[i as usize], context, bound) as f64 * per_layer)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_attention_is_one_group() {
        let kinds = vec![LayerKind::Full; 80];
        let layout = rank_layout(&kinds, 8_192, None, 8_192, true);
        assert_eq!(
            layout,
            RankLayout {
                group_size: 80,
                groups: 1,
                blocks_per_request: 512
            }
        );
    }

    #[test]
    fn gemma_groups_ten_layers_and_pads_the_sliding_ones() {
        let model = crate::sizing::model::model_by_id("gemma-3-27b").unwrap();
        let layout = rank_layout(&model.layer_kinds(), 32_768, Some(1_024), 2_048, true);
        assert_eq!(layout.group_size, 10);
        assert_eq!(layout.groups, 7);
        // 1 full group × 2,048 blocks + 6 sliding groups × (cdiv(3,071, 16) + 1 = 193).
        assert_eq!(layout.blocks_per_request, 2_048 + 6 * 193);
        let old = rank_layout(&model.layer_kinds(), 32_768, Some(1_024), 2_048, false);
        assert_eq!(old.groups, 1);
        assert_eq!(old.group_size, 62);
    }

    #[test]
    fn nearly_equal_counts_use_the_larger_group() {
        let mut kinds = vec![LayerKind::Full; 8];
        kinds.extend(vec![LayerKind::Sliding; 9]);
        let layout = rank_layout(&kinds, 4_096, Some(128), 2_048, true);
        assert_eq!(layout.group_size, 9);
        assert_eq!(layout.groups, 2);
    }
}
