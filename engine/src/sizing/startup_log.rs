//! Calibration from a real vLLM start-up log.
//!
//! vLLM prints the numbers the sizing predicts. [`parse`] reads them from a pasted log, whatever
//! prefixes the lines carry (`(EngineCore_DP0 pid=…) INFO 08-20 18:04:22 [gpu_worker.py:276]`,
//! Docker or journald prefixes, ANSI colour codes):
//!
//! * weights: `Model loading took N GiB` (V1; newer releases add "memory"), `Loading model
//!   weights took N GB` (V0 and early V1; the figure is GiB despite the label: vLLM divides by
//!   2^30), `model weights take NGiB` (V0 profile);
//! * `Available KV cache memory: N GiB` (V1, per worker: the minimum is kept), V0's "the
//!   rest of the memory reserved for KV Cache is NGiB", and V1's refusal "… larger than the
//!   available KV cache memory (N GiB)";
//! * `GPU KV cache size: N tokens`, `Maximum concurrency for X tokens per request: Y x`, V0's
//!   `# GPU blocks: N` (`# CUDA blocks` in some builds);
//! * the profile: `total_gpu_memory (T) x gpu_memory_utilization (u) = R`, activation and
//!   non-torch memory, the V1 `Free memory on device (f/t GiB) … Desired GPU memory utilization
//!   is (u, R GiB). Actual usage is W GiB for weight, A GiB for peak activation, N GiB for
//!   non-torch memory, and G GiB for CUDAGraph memory`, and graph-capture lines;
//! * settings when present: version, model, tensor/pipeline parallel size, utilisation,
//!   `max_model_len`, KV dtype (from the engine-config line, `non-default args`, or the command),
//!   batched tokens, sequences, eager mode, engine, the sampler kernel (FlashInfer or PyTorch)
//!   and whether custom all-reduce is off;
//! * the reason vLLM refused to start, if it did.
//!
//! Every memory figure read must be one a GPU can have ([`crate::plausible`]: finite and at most
//! 2 TiB per device; the available KV memory, activation, non-torch and graph figures may be
//! negative, since vLLM prints shortfalls that way), the utilisation a fraction and numbers keep
//! their exponent (`1e308 GiB` is 1e308, refused, not 1); an impossible figure is an error naming
//! the line and field. Counts of blocks and tokens are whole numbers from 0 to 2⁵³ and sizes
//! (tensor/pipeline-parallel size, `max_model_len`, `max_num_seqs`, `max_num_batched_tokens`,
//! the context of the concurrency line) whole numbers from 1: `-5` is refused, not cast to 0,
//! and 1e20 blocks are refused, not saturated. Across lines ([`crate::plausible::across`]): the
//! weights fit the GPU, the requested memory is total × utilisation, and `max_num_batched_tokens
//! ≥ max_num_seqs`.
//!
//! A text with none of the key lines is an error. [`compare`] then sets a prediction beside the
//! log: difference in tokens and in per cent, and a loud note when the prediction said "fits"
//! and vLLM refused (the one direction the engine must not err in).

use super::estimate::{SizingResult, num};
use super::{SizingError, round2};
use crate::locale::Lang;
use crate::plausible::{self, Quantity, Rule, Slack, across};
use serde::{Deserialize, Serialize};

/// What a start-up log says. Every field is optional: logs differ by version and by what was
/// pasted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct StartupLog {
    pub vllm_version: Option<String>,
    pub model: Option<String>,
    pub tensor_parallel_size: Option<u32>,
    pub pipeline_parallel_size: Option<u32>,
    pub gpu_memory_utilization: Option<f64>,
    pub max_model_len: Option<u64>,
    pub kv_cache_dtype: Option<String>,
    /// Weights loaded per worker, GiB (the largest worker when several report).
    pub weights_gib: Option<f64>,
    /// "Available KV cache memory" per worker, GiB (the smallest worker).
    pub available_kv_gib: Option<f64>,
    /// "GPU KV cache size", tokens.
    pub kv_cache_tokens: Option<u64>,
    /// "Maximum concurrency for X tokens per request": Y.
    pub max_concurrency: Option<f64>,
    /// The X of that line.
    pub max_concurrency_context_tokens: Option<u64>,
    /// V0 "# GPU blocks".
    pub gpu_blocks: Option<u64>,
    /// The CUDA total vLLM budgeted against, GiB.
    pub total_gpu_memory_gib: Option<f64>,
    /// total × utilisation, GiB.
    pub requested_memory_gib: Option<f64>,
    pub activation_gib: Option<f64>,
    pub non_torch_gib: Option<f64>,
    pub cuda_graph_gib: Option<f64>,
    /// The line that says why vLLM did not start, if one is present.
    pub refusal: Option<String>,
    /// `max_num_batched_tokens` from the settings or the "Chunked prefill is enabled with
    /// max_num_batched_tokens=N" line.
    #[serde(default)]
    pub max_num_batched_tokens: Option<u64>,
    #[serde(default)]
    pub max_num_seqs: Option<u64>,
    /// `enforce_eager` when the settings say it.
    #[serde(default)]
    pub enforce_eager: Option<bool>,
    /// "V0" or "V1" when the log names the engine ("Initializing a V1 LLM engine", "Falling
    /// back to V0").
    #[serde(default)]
    pub engine: Option<String>,
    /// Whether the sampler runs FlashInfer's top-k/top-p kernel ("Using FlashInfer for top-p &
    /// top-k sampling") or PyTorch's ("Falling back to the PyTorch-native implementation").
    #[serde(default)]
    pub flashinfer_sampler: Option<bool>,
    /// `Some(false)` when custom all-reduce is off ("Custom allreduce is disabled",
    /// `disable_custom_all_reduce=True`).
    #[serde(default)]
    pub custom_all_reduce: Option<bool>,
}

impl StartupLog {
    /// Activation + non-torch (+ graphs, ≥ 0.21) implied by the log: requested − weights −
    /// available KV, GiB. The calibration figure for [`super::memory_model`]'s class overheads.
    pub fn implied_overhead_gib(&self) -> Option<f64> {
        let requested = self.requested_memory_gib.or_else(|| {
            self.total_gpu_memory_gib
                .zip(self.gpu_memory_utilization)
                .map(|(t, u)| t * u)
        })?;
        Some(requested - self.weights_gib? - self.available_kv_gib?)
    }

    /// "GPU KV cache size" in tokens, or V0's blocks × 16 when only those were printed.
    pub fn kv_tokens(&self) -> Option<u64> {
        self.kv_cache_tokens.or_else(|| {
            self.gpu_blocks
                .map(|b| b.saturating_mul(super::memory_model::VLLM_BLOCK_SIZE_TOKENS))
        })
    }

    fn has_key_line(&self) -> bool {
        self.weights_gib.is_some()
            || self.available_kv_gib.is_some()
            || self.kv_cache_tokens.is_some()
            || self.max_concurrency.is_some()
            || self.gpu_blocks.is_some()
            || self.total_gpu_memory_gib.is_some()
    }
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let escape = c == '\u{1b}' || (c == '^' && chars.peek() == Some(&'['));
        if escape {
            if c == '^' {
                chars.next();
            }
            if chars.peek() == Some(&'[') {
                chars.next();
            }
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The number starting at the beginning of `text` (after spaces, `(`, `=`, `:`), commas
/// allowed as thousands separators.
fn leading_number(text: &str) -> Option<f64> {
    let text = text.trim_start_matches([' ', '(', '=', ':', '\'', '"']);
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let ok = c.is_ascii_digit() || c == '.' || c == ',' || (i == 0 && c == '-');
        if !ok {
            break;
        }
        end = i + c.len_utf8();
    }
    let mut cleaned: String = text[..end]
        .trim_end_matches(['.', ','])
        .chars()
        .filter(|c| *c != ',')
        .collect();
    // An exponent (`1e308 GiB`) belongs to the number: without it, 1e308 would read as 1.
    if !cleaned.is_empty() && end == text[..end].trim_end_matches(['.', ',']).len() {
        let rest = &text[end..];
        if let Some(exp) = rest.strip_prefix(['e', 'E']) {
            let sign = usize::from(exp.starts_with(['+', '-']));
            let digits = exp[sign..].bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                cleaned.push('e');
                cleaned.push_str(&exp[..sign + digits]);
            }
        }
    }
    // 400 digits parse as infinity: every consumer checks the figure and refuses it.
    cleaned.parse().ok()
}

fn after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    line.find(marker).map(|i| &line[i + marker.len()..])
}

fn number_after(line: &str, marker: &str) -> Option<f64> {
    after(line, marker).and_then(leading_number)
}

fn word_after(line: &str, marker: &str) -> Option<String> {
    let rest = after(line, marker)?.trim_start_matches([' ', '=', ':', '\'', '"']);
    let word: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '\'' | '"' | ',' | ')' | '}'))
        .collect();
    (!word.is_empty()).then_some(word)
}

fn keep_max(slot: &mut Option<f64>, value: f64) {
    *slot = Some(slot.map_or(value, |v| v.max(value)));
}

fn keep_min(slot: &mut Option<f64>, value: f64) {
    *slot = Some(slot.map_or(value, |v| v.min(value)));
}

fn first<T>(slot: &mut Option<T>, value: Option<T>) {
    if slot.is_none() {
        *slot = value;
    }
}

const REFUSALS: [&str; 7] = [
    "No available memory for the cache blocks",
    "To serve at least one request",
    "larger than the maximum number of tokens that can be stored in KV cache",
    "is less than desired GPU memory utilization",
    "CUDA out of memory",
    "OutOfMemoryError",
    "EngineCore failed to start",
];

/// Reads a vLLM start-up log. Errors when none of the key lines (weights, available KV memory,
/// KV tokens, maximum concurrency, GPU blocks, total GPU memory) is present.
pub fn parse(text: &str) -> Result<StartupLog, SizingError> {
    let mut log = StartupLog::default();
    let mut lines = Lines::default();
    for (index, raw) in text.lines().enumerate() {
        let before = log.clone();
        let line = strip_ansi(raw);
        let line = line.as_str();
        let refuse = |field: &str, message: String, message_de: String| {
            SizingError::StartupLog(
                format!("line {}: field \"{field}\": {message}", index + 1),
                format!("Zeile {}: Feld „{field}“: {message_de}", index + 1),
            )
        };
        // Every figure read is checked against what a GPU can have (crate::plausible).
        let check = |field: &str, quantity: Quantity, v: f64| -> Result<f64, SizingError> {
            plausible::check(quantity, v)
                .map_err(|e| refuse(field, e.message.clone(), implausible_de(&e)))
        };
        // Counts of blocks and tokens: whole, ≥ 0, at most 2⁵³ (never cast: -5 is not 0).
        let count = |field: &str, v: f64| -> Result<u64, SizingError> {
            plausible::whole_count(v)
                .map_err(|e| refuse(field, e.message.clone(), implausible_de(&e)))
        };
        // Sizes (parallel ranks, context length, sequences, token budget): whole, ≥ 1.
        let size = |field: &str, noun: &str, v: f64| -> Result<u64, SizingError> {
            across::at_least_one(field, noun, v).map_err(|b| {
                let de = format!(
                    "{} ist als {} unmöglich (muss eine ganze Zahl ≥ 1 sein)",
                    value_de(v),
                    size_noun_de(field)
                );
                refuse(field, b.message, de)
            })
        };
        let check_opt = |field: &str, quantity: Quantity, v: Option<f64>| {
            v.map(|v| check(field, quantity, v)).transpose()
        };
        const GIB: Quantity = Quantity::MemoryGib;
        const SIGNED_GIB: Quantity = Quantity::SignedMemoryGib;

        if let Some(v) = number_after(line, "Model loading took")
            .or_else(|| number_after(line, "Loading model weights took"))
            .or_else(|| number_after(line, "model weights take"))
        {
            keep_max(&mut log.weights_gib, check("weights_gib", GIB, v)?);
        }
        if let Some(v) = number_after(line, "Available KV cache memory:")
            .or_else(|| number_after(line, "the rest of the memory reserved for KV Cache is"))
            .or_else(|| number_after(line, "kv_cache_size="))
            // V1's refusal: "… is needed, which is larger than the available KV cache memory (N GiB)".
            .or_else(|| number_after(line, "larger than the available KV cache memory ("))
        {
            keep_min(
                &mut log.available_kv_gib,
                check("available_kv_gib", SIGNED_GIB, v)?,
            );
        }
        if let Some(v) = number_after(line, "GPU KV cache size:") {
            let tokens = count("kv_cache_tokens", v)?;
            log.kv_cache_tokens = Some(log.kv_cache_tokens.map_or(tokens, |t| t.min(tokens)));
        }
        if let Some(rest) = after(line, "Maximum concurrency for") {
            let context = leading_number(rest)
                .map(|v| size("max_concurrency_context_tokens", "context length", v))
                .transpose()?;
            first(&mut log.max_concurrency_context_tokens, context);
            if let Some(v) = number_after(rest, "per request:") {
                first(
                    &mut log.max_concurrency,
                    Some(check("max_concurrency", Quantity::Rate, v)?),
                );
            }
        }
        if let Some(v) = number_after(line, "GPU blocks:")
            .or_else(|| number_after(line, "CUDA blocks:"))
            .or_else(|| number_after(line, "cuda blocks:"))
        {
            first(&mut log.gpu_blocks, Some(count("gpu_blocks", v)?));
        }
        // V0's refusal names the capacity: "... stored in KV cache (23648)".
        if let Some(v) = number_after(line, "can be stored in KV cache (") {
            first(&mut log.kv_cache_tokens, Some(count("kv_cache_tokens", v)?));
        }
        // V0 sentence and V1 key=value profile.
        if let Some(v) = number_after(line, "total_gpu_memory (")
            .or_else(|| number_after(line, "total_gpu_memory="))
            .or_else(|| number_after(line, "total_gpu_memory:"))
        {
            first(
                &mut log.total_gpu_memory_gib,
                Some(check("total_gpu_memory_gib", GIB, v)?),
            );
        }
        if let Some(v) = number_after(line, "gpu_memory_utilization (")
            .or_else(|| number_after(line, "gpu_memory_utilization="))
            .or_else(|| number_after(line, "'gpu_memory_utilization':"))
            .or_else(|| number_after(line, "--gpu-memory-utilization"))
            .or_else(|| number_after(line, "--gpu_memory_utilization"))
            .or_else(|| number_after(line, "Desired GPU memory utilization is ("))
        {
            first(
                &mut log.gpu_memory_utilization,
                Some(check("gpu_memory_utilization", Quantity::Fraction, v)?),
            );
        }
        if line.contains("total_gpu_memory (")
            && let Some(v) = number_after(line, ") = ")
        {
            first(
                &mut log.requested_memory_gib,
                Some(check("requested_memory_gib", GIB, v)?),
            );
        }
        if let Some(rest) = after(line, "Desired GPU memory utilization is (") {
            first(
                &mut log.requested_memory_gib,
                check_opt("requested_memory_gib", GIB, number_after(rest, ","))?,
            );
        }
        if let Some(rest) = after(line, "Free memory on device (") {
            first(
                &mut log.total_gpu_memory_gib,
                check_opt("total_gpu_memory_gib", GIB, number_after(rest, "/"))?,
            );
        }
        if let Some(v) = number_after(line, "non_torch_memory takes")
            .or_else(|| number_after(line, "non_torch_memory="))
        {
            keep_max(
                &mut log.non_torch_gib,
                check("non_torch_gib", SIGNED_GIB, v)?,
            );
        }
        if let Some(v) = number_after(line, "PyTorch activation peak memory takes") {
            keep_max(
                &mut log.activation_gib,
                check("activation_gib", SIGNED_GIB, v)?,
            );
        }
        if let Some(rest) = after(line, "Actual usage is") {
            if let Some(w) = leading_number(rest) {
                keep_max(&mut log.weights_gib, check("weights_gib", GIB, w)?);
            }
            if let Some(a) = after(rest, "GiB for weight,").and_then(leading_number) {
                keep_max(
                    &mut log.activation_gib,
                    check("activation_gib", SIGNED_GIB, a)?,
                );
            }
            if let Some(n) = after(rest, "GiB for peak activation,").and_then(leading_number) {
                keep_max(
                    &mut log.non_torch_gib,
                    check("non_torch_gib", SIGNED_GIB, n)?,
                );
            }
            if let Some(g) = after(rest, "GiB for non-torch memory, and").and_then(leading_number) {
                keep_max(
                    &mut log.cuda_graph_gib,
                    check("cuda_graph_gib", SIGNED_GIB, g)?,
                );
            }
        }
        if line.contains("Graph capturing finished")
            && let Some(v) = number_after(line, ", took")
        {
            keep_max(
                &mut log.cuda_graph_gib,
                check("cuda_graph_gib", SIGNED_GIB, v)?,
            );
        }
        if let Some(v) = number_after(line, "CUDA graph pool memory:") {
            keep_max(
                &mut log.cuda_graph_gib,
                check("cuda_graph_gib", SIGNED_GIB, v)?,
            );
        }

        if log.vllm_version.is_none() {
            log.vllm_version = version_in(line);
        }
        first(
            &mut log.model,
            word_after(line, "model='")
                .or_else(|| word_after(line, "'model': '"))
                .or_else(|| word_after(line, "Starting to load model"))
                .map(|m| m.trim_end_matches("...").to_string()),
        );
        let sizes = [
            (
                "tensor_parallel_size",
                "tensor-parallel size",
                &["tensor_parallel_size", "tensor-parallel-size"][..],
            ),
            (
                "pipeline_parallel_size",
                "pipeline-parallel size",
                &["pipeline_parallel_size", "pipeline-parallel-size"][..],
            ),
            (
                "max_model_len",
                "context length",
                &["max_model_len", "max-model-len", "max_seq_len"][..],
            ),
            (
                "max_num_batched_tokens",
                "token budget per step",
                &["max_num_batched_tokens", "max-num-batched-tokens"][..],
            ),
            (
                "max_num_seqs",
                "number of sequences",
                &["max_num_seqs", "max-num-seqs"][..],
            ),
        ];
        for (field, noun, names) in sizes {
            let mut found = setting_number(line, names);
            if field == "max_model_len" {
                found = found.or_else(|| number_after(line, "Using max model len"));
            }
            if let Some(v) = found {
                set_size(&mut log, field, size(field, noun, v)?);
            }
        }
        if log.enforce_eager.is_none() {
            log.enforce_eager = if line.contains("enforce_eager=True")
                || line.contains("'enforce_eager': True")
                || line.contains("--enforce-eager")
            {
                Some(true)
            } else if line.contains("enforce_eager=False") {
                Some(false)
            } else {
                None
            };
        }
        if line.contains("Using FlashInfer for top-p & top-k sampling") {
            log.flashinfer_sampler = Some(true);
        } else if log.flashinfer_sampler.is_none()
            && (line.contains("PyTorch-native implementation of top-p")
                || line.contains("FlashInfer top-p/top-k sampling unavailable")
                || line.contains("FlashInfer top-p/top-k sampling disabled"))
        {
            log.flashinfer_sampler = Some(false);
        }
        if line.contains("Custom allreduce is disabled")
            || line.contains("disable_custom_all_reduce=True")
            || line.contains("'disable_custom_all_reduce': True")
            || line.contains("--disable-custom-all-reduce")
        {
            log.custom_all_reduce = Some(false);
        }
        if line.contains("V1 LLM engine") {
            log.engine = Some("V1".into());
        } else if line.contains("V0 LLM engine") || line.contains("Falling back to V0") {
            log.engine = Some("V0".into());
        }
        first(
            &mut log.kv_cache_dtype,
            word_after(line, "kv_cache_dtype=")
                .or_else(|| word_after(line, "'kv_cache_dtype': '"))
                .or_else(|| word_after(line, "--kv-cache-dtype")),
        );
        if log.refusal.is_none() && REFUSALS.iter().any(|r| line.contains(r)) {
            let message = ["ValueError:", "RuntimeError:", "] "]
                .iter()
                .find_map(|m| line.rfind(m).map(|i| line[i + m.len()..].trim()))
                .unwrap_or(line.trim());
            log.refusal = Some(message.to_string());
        }
        lines.note(&before, &log, index + 1);
    }
    check_across(&log, &lines)?;
    if log.max_model_len.is_none() {
        log.max_model_len = log.max_concurrency_context_tokens;
    }
    if log.has_key_line() {
        Ok(log)
    } else {
        Err(SizingError::StartupLog(
            "none of the key lines was found (\"Model loading took\", \"Available KV cache memory\", \"GPU KV cache size\", \"Maximum concurrency for\", \"# GPU blocks\", \"total_gpu_memory\"); paste the engine's start-up output"
                .into(),
            "keine der Schlüsselzeilen gefunden („Model loading took“, „Available KV cache memory“, „GPU KV cache size“, „Maximum concurrency for“, „# GPU blocks“, „total_gpu_memory“); fügen Sie die Startausgabe der Engine ein"
                .into(),
        ))
    }
}

/// A count after any spelling of `names` (`max_model_len=…`, `'max_model_len': …`,
/// `--max-model-len …`), read as vLLM reads it: `32K` is 32,768, not 32
/// ([`crate::run_context::human_readable_count`]). The number as written: the caller checks it
/// (a negative or 1e20 setting is refused, never cast to 0 or saturated).
fn setting_number(line: &str, names: &[&str]) -> Option<f64> {
    for name in names {
        for pattern in [
            format!("{name}="),
            format!("'{name}':"),
            format!("--{name} "),
            format!("--{name}="),
        ] {
            if let Some(v) = word_after(line, &pattern)
                .and_then(|word| crate::run_context::human_readable_count(&word))
                .map(|v| v as f64)
                .or_else(|| number_after(line, &pattern))
            {
                return Some(v);
            }
        }
    }
    None
}

/// Stores a setting read by [`setting_number`] unless an earlier line gave it.
fn set_size(log: &mut StartupLog, field: &str, v: u64) {
    match field {
        "tensor_parallel_size" => first(&mut log.tensor_parallel_size, u32::try_from(v).ok()),
        "pipeline_parallel_size" => first(&mut log.pipeline_parallel_size, u32::try_from(v).ok()),
        "max_model_len" => first(&mut log.max_model_len, Some(v)),
        "max_num_batched_tokens" => first(&mut log.max_num_batched_tokens, Some(v)),
        _ => first(&mut log.max_num_seqs, Some(v)),
    }
}

/// The lines each figure was read from, for the rules across fields ([`check_across`]).
#[derive(Default)]
struct Lines(std::collections::BTreeMap<&'static str, usize>);

impl Lines {
    /// Notes `line` for every figure that `after` has and `before` had not (or had otherwise).
    fn note(&mut self, before: &StartupLog, after: &StartupLog, line: usize) {
        let figures: [(&'static str, Option<f64>, Option<f64>); 6] = [
            ("weights_gib", before.weights_gib, after.weights_gib),
            (
                "total_gpu_memory_gib",
                before.total_gpu_memory_gib,
                after.total_gpu_memory_gib,
            ),
            (
                "gpu_memory_utilization",
                before.gpu_memory_utilization,
                after.gpu_memory_utilization,
            ),
            (
                "requested_memory_gib",
                before.requested_memory_gib,
                after.requested_memory_gib,
            ),
            (
                "max_num_seqs",
                before.max_num_seqs.map(|v| v as f64),
                after.max_num_seqs.map(|v| v as f64),
            ),
            (
                "max_num_batched_tokens",
                before.max_num_batched_tokens.map(|v| v as f64),
                after.max_num_batched_tokens.map(|v| v as f64),
            ),
        ];
        for (field, was, is) in figures {
            if is.is_some() && was != is {
                self.0.insert(field, line);
            }
        }
    }

    fn of(&self, field: &str) -> usize {
        self.0.get(field).copied().unwrap_or(0)
    }
}

/// The rules across a log's figures ([`crate::plausible::across`]): the weights of a worker fit
/// its GPU, vLLM's requested memory is total × utilisation (within the two printed decimals of
/// each: 0.6 % of the total plus 0.01 GiB), and `max_num_batched_tokens ≥ max_num_seqs` (vLLM
/// refuses to start otherwise). The error names the line of the field at fault.
fn check_across(log: &StartupLog, lines: &Lines) -> Result<(), SizingError> {
    // The rule broken, worded in German from the figures (crate::plausible words it in English).
    let fail = |b: plausible::Broken, de: String| {
        let line = lines.of(&b.field);
        SizingError::StartupLog(
            format!("line {line}: {b}"),
            format!("Zeile {line}: Feld „{}“: {de}", b.field),
        )
    };
    if let (Some(w), Some(t)) = (log.weights_gib, log.total_gpu_memory_gib) {
        let pair = [("weights_gib", w), ("total_gpu_memory_gib", t)];
        let de = || {
            format!(
                "{} GiB liegt über total_gpu_memory_gib = {} GiB (die Gewichte eines Workers passen in seine GPU: Gewichte ≤ gesamter GPU-Speicher)",
                value_de(w),
                value_de(t)
            )
        };
        across::non_decreasing(Rule::WeightsWithinGpu, &pair, " GiB", Slack::MEASURED)
            .map_err(|b| fail(b, de()))?;
    }
    if let (Some(r), Some(t), Some(u)) = (
        log.requested_memory_gib,
        log.total_gpu_memory_gib,
        log.gpu_memory_utilization,
    ) {
        let tolerance = 0.006 * t + 0.01;
        let de = || {
            format!(
                "{} GiB weicht ab von total_gpu_memory_gib × gpu_memory_utilization = {} × {} = {} GiB (der von vLLM angeforderte Speicher ist total_gpu_memory × gpu_memory_utilization, auf die gedruckten Stellen genau)",
                value_de(r),
                value_de(t),
                value_de(u),
                value_de(t * u)
            )
        };
        across::product_matches(
            Rule::RequestedMemory,
            ("requested_memory_gib", r),
            ("total_gpu_memory_gib", t),
            ("gpu_memory_utilization", u),
            " GiB",
            tolerance,
        )
        .map_err(|b| fail(b, de()))?;
    }
    if let (Some(seqs), Some(batched)) = (log.max_num_seqs, log.max_num_batched_tokens) {
        let pair = [
            ("max_num_seqs", seqs as f64),
            ("max_num_batched_tokens", batched as f64),
        ];
        let de = || {
            format!(
                "{seqs} liegt über max_num_batched_tokens = {batched} (vLLM verweigert max_num_batched_tokens < max_num_seqs: Jede eingeplante Sequenz braucht ein Token)"
            )
        };
        across::non_decreasing(Rule::BatchHoldsSequences, &pair, "", Slack::EXACT)
            .map_err(|b| fail(b, de()))?;
    }
    Ok(())
}

/// A figure as [`plausible::fmt_value`] writes it, with a decimal comma: `-12,5`, `1e308`.
fn value_de(v: f64) -> String {
    Lang::De.separators(&plausible::fmt_value(v))
}

/// What a size setting of the log is called in German (the English noun is given with it).
fn size_noun_de(field: &str) -> &'static str {
    match field {
        "tensor_parallel_size" => "Tensor-Parallel-Größe",
        "pipeline_parallel_size" => "Pipeline-Parallel-Größe",
        "max_num_batched_tokens" => "Token-Budget je Schritt",
        "max_num_seqs" => "Zahl der Sequenzen",
        _ => "Kontextlänge",
    }
}

/// [`plausible::check`]'s and [`plausible::whole_count`]'s message in German, from the value and
/// its quantity: `-12,5 GiB ist als Speicherangabe einer GPU unmöglich (muss endlich und ≥ 0 sein)`.
fn implausible_de(e: &plausible::Implausible) -> String {
    let (value, quantity) = (e.value, e.quantity);
    let noun = match quantity {
        Quantity::Latency => "Latenz",
        Quantity::Duration => "Dauer",
        Quantity::Count => "Anzahl",
        Quantity::Fraction => "Anteil",
        Quantity::StdError => "Standardfehler",
        Quantity::Rate => "Rate",
        Quantity::MemoryGib | Quantity::SignedMemoryGib => "Speicherangabe einer GPU",
        Quantity::ClockSeconds => "Uhrzeit",
    };
    let lower = match quantity {
        Quantity::Fraction => "muss zwischen 0 und 1 liegen",
        Quantity::SignedMemoryGib => "muss endlich sein und zwischen −2048 und 2048 GiB liegen",
        _ => "muss endlich und ≥ 0 sein",
    };
    let upper = match quantity {
        Quantity::Latency => "darf höchstens 1e9 ms ≈ 11,6 Tage betragen",
        Quantity::Duration => "darf höchstens 1e8 s ≈ 3,2 Jahre betragen",
        Quantity::Count | Quantity::StdError | Quantity::Rate => {
            "darf höchstens 2^53 = 9.007.199.254.740.992 betragen"
        }
        Quantity::Fraction => "muss zwischen 0 und 1 liegen",
        Quantity::MemoryGib => "darf höchstens 2048 GiB = 2 TiB je Gerät betragen",
        Quantity::SignedMemoryGib => "muss endlich sein und zwischen −2048 und 2048 GiB liegen",
        Quantity::ClockSeconds => "muss vor dem 01.01.2100 liegen, als Unix-Sekunden (4,1e9 s)",
    };
    // The rule plausible::check applied, told from the value; a value within the bounds was
    // refused by whole_count for its fraction.
    let (low, high) = quantity.bounds();
    let rule = if value == f64::INFINITY && quantity != Quantity::Fraction {
        upper
    } else if value.is_nan() || value.is_infinite() || value < low {
        lower
    } else if value > high {
        upper
    } else {
        "muss eine ganze Zahl sein"
    };
    format!(
        "{}{} ist als {noun} unmöglich ({rule})",
        value_de(value),
        quantity.unit()
    )
}

fn version_in(line: &str) -> Option<String> {
    for marker in [
        "vLLM API server version ",
        "LLM engine (v",
        "vLLM version ",
        " version ",
    ] {
        if let Some(rest) = after(line, marker) {
            let version: String = rest
                .trim_start_matches('v')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+'))
                .collect();
            if version.starts_with(|c: char| c.is_ascii_digit()) && version.contains('.') {
                return Some(version);
            }
        }
    }
    None
}

/// One quantity predicted and observed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRow {
    pub quantity: String,
    pub unit: String,
    pub predicted: f64,
    pub actual: f64,
    /// predicted − actual.
    pub difference: f64,
    /// (predicted − actual) ÷ actual × 100; 0 when the actual is 0.
    pub difference_pct: f64,
}

/// A prediction set against a real start-up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub rows: Vec<ComparisonRow>,
    pub predicted_fits: bool,
    /// `Some(false)` when the log shows vLLM refusing to start.
    pub actually_started: Option<bool>,
    /// Sentences for a page: the headline difference and any dangerous disagreement.
    pub notes: Vec<String>,
}

fn row(quantity: &str, unit: &str, predicted: f64, actual: f64) -> ComparisonRow {
    let difference = predicted - actual;
    ComparisonRow {
        quantity: quantity.into(),
        unit: unit.into(),
        predicted,
        actual,
        difference,
        difference_pct: if actual != 0.0 {
            round2(difference / actual.abs() * 100.0)
        } else {
            0.0
        },
    }
}

/// Sets a prediction beside a real log: KV tokens (difference in tokens and %), maximum
/// concurrency, available KV memory and weights per card, where the log has them.
pub fn compare(predicted: &SizingResult, log: &StartupLog) -> Comparison {
    let mut rows = Vec::new();
    if let Some(tokens) = log.kv_tokens() {
        rows.push(row(
            "GPU KV cache size",
            "tokens",
            predicted.kv_cache_tokens as f64,
            tokens as f64,
        ));
    }
    if let Some(x) = log.max_concurrency {
        rows.push(row(
            "Maximum concurrency",
            "x",
            predicted.max_concurrency,
            x,
        ));
    }
    if let Some(gib) = log.available_kv_gib {
        rows.push(row(
            "Available KV cache memory",
            "GiB",
            predicted.kv_pool_gib_per_card,
            gib,
        ));
    }
    if let Some(gib) = log.weights_gib {
        rows.push(row(
            "Weights per card",
            "GiB",
            predicted.weights_gib_per_card,
            gib,
        ));
    }
    let started = log.refusal.as_ref().map(|_| false).or_else(|| {
        log.available_kv_gib
            .map(|gib| gib > 0.0)
            .filter(|ok| !ok)
            .or(log.kv_tokens().map(|t| t > 0))
    });
    let mut notes = Vec::new();
    if let Some(first) = rows.first() {
        notes.push(format!(
            "{}: predicted {} vs {} in the log ({}{} %).",
            first.quantity,
            num(first.predicted, if first.unit == "tokens" { 0 } else { 2 }),
            num(first.actual, if first.unit == "tokens" { 0 } else { 2 }),
            if first.difference_pct > 0.0 { "+" } else { "" },
            num(first.difference_pct, 1)
        ));
    }
    match (predicted.fits, started) {
        (true, Some(false)) => notes.push(
            "The prediction said it fits but vLLM refused to start: the overhead for this model class is underestimated; calibrate from this log."
                .into(),
        ),
        (false, Some(true)) => notes.push(
            "The prediction said it does not fit but vLLM started: the estimate is conservative here."
                .into(),
        ),
        _ => {}
    }
    if let Some(kv_rows) = rows.iter().find(|r| r.quantity == "GPU KV cache size")
        && kv_rows.difference > 0.0
        && predicted.fits
    {
        notes.push(format!(
            "The prediction is {} tokens above vLLM's count: the optimistic direction.",
            num(kv_rows.difference, 0)
        ));
    }
    Comparison {
        rows,
        predicted_fits: predicted.fits,
        actually_started: started,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1_H100: &str = "\
\u{1b}[0;36m(EngineCore_DP0 pid=70073)\u{1b}[0;0m INFO 01-27 00:31:44 [gpu_model_runner.py:3808] Starting to load model openai/gpt-oss-120b...
(EngineCore_0 pid=5839) INFO 08-20 18:04:10 [gpu_model_runner.py:2007] Model loading took 65.9651 GiB and 12.799889 seconds
(EngineCore_0 pid=5839) INFO 08-20 18:04:22 [gpu_worker.py:276] Available KV cache memory: -2.14 GiB
(EngineCore_0 pid=5839) ERROR 08-20 18:04:22 [core.py:700] EngineCore failed to start.
";

    #[test]
    fn absurd_numbers_are_refused_not_saturated() {
        // found by fuzzing: blocks × 16 overflowed u64 in a debug build; such a count used to
        // be stored as u64::MAX (18446744073709551615), and a negative one as 0.
        let e = parse("INFO executor_base.py:110] # GPU blocks: 99999999999999999999999999\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "line 1: field \"gpu_blocks\": 1e26 is not a possible count (must be at most 2^53"
            ),
            "{e}"
        );
        let e = parse("INFO [kv_cache_utils.py:864] GPU KV cache size: -5 tokens\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("field \"kv_cache_tokens\": -5 is not a possible count"),
            "{e}"
        );
        let digits = "9".repeat(400);
        let e = parse(&format!(
            "Model loading took {digits} GiB\n# GPU blocks: 12\n"
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("line 1: field \"weights_gib\": inf GiB"), "{e}");
        let log = parse("INFO executor_base.py:110] # GPU blocks: 12\n").unwrap();
        assert_eq!(log.kv_tokens(), Some(192));
    }

    #[test]
    fn sizes_are_at_least_one_and_figures_agree_across_lines() {
        let e = parse("Initializing with config: tensor_parallel_size=0, max_seq_len=2048\n# GPU blocks: 12\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 1: field \"tensor_parallel_size\": 0 is not a possible tensor-parallel size (must be a whole number ≥ 1)"),
            "{e}"
        );
        let e = parse("INFO worker.py:267] the current vLLM instance can use total_gpu_memory (14.56GiB) x gpu_memory_utilization (0.50) = 12.28GiB\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 1: field \"requested_memory_gib\": 12.28 GiB is not total_gpu_memory_gib × gpu_memory_utilization = 14.56 × 0.5 = 7.28 GiB"),
            "{e}"
        );
        let text = "args: max_num_seqs=256, max_num_batched_tokens=128\n# GPU blocks: 12\n";
        let e = parse(text).unwrap_err().to_string();
        assert!(
            e.contains("line 1: field \"max_num_seqs\": 256 is above max_num_batched_tokens = 128"),
            "{e}"
        );
        let text = "Model loading took 95.5 GiB\ntotal_gpu_memory (79.25GiB) x gpu_memory_utilization (0.90) = 71.33GiB\n";
        let e = parse(text).unwrap_err().to_string();
        assert!(
            e.contains(
                "line 1: field \"weights_gib\": 95.5 GiB is above total_gpu_memory_gib = 79.25 GiB"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_memory_figure_no_gpu_has_is_refused_naming_line_and_field() {
        // "1e308 GiB" used to read as 1.0 GiB (the exponent was dropped).
        let text = V1_H100.replace("took 65.9651 GiB", "took 1e308 GiB");
        let e = parse(&text).unwrap_err().to_string();
        assert!(
            e.contains(
                "line 2: field \"weights_gib\": 1e308 GiB is not a possible memory figure for \
                 one GPU (must be at most 2048 GiB = 2 TiB per device)"
            ),
            "{e}"
        );
        let text = V1_H100.replace("memory: -2.14 GiB", "memory: -1e5 GiB");
        let e = parse(&text).unwrap_err().to_string();
        assert!(
            e.contains("line 3: field \"available_kv_gib\": -100000 GiB"),
            "{e}"
        );
        let e = parse("INFO worker.py:267] the current vLLM instance can use total_gpu_memory (14.56GiB) x gpu_memory_utilization (7.5) = 7.28GiB\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("field \"gpu_memory_utilization\": 7.5 is not a possible fraction"),
            "{e}"
        );
        // An exponent of a real size is read, not cut.
        let log = parse("Model loading took 6.5e1 GiB\n").unwrap();
        assert_eq!(log.weights_gib, Some(65.0));
    }

    #[test]
    fn reads_a_v1_refusal_with_prefixes_and_colours() {
        let log = parse(V1_H100).unwrap();
        assert_eq!(log.weights_gib, Some(65.9651));
        assert_eq!(log.available_kv_gib, Some(-2.14));
        assert_eq!(log.model.as_deref(), Some("openai/gpt-oss-120b"));
        assert_eq!(log.refusal.as_deref(), Some("EngineCore failed to start."));
    }

    #[test]
    fn a_human_readable_max_model_len_is_read_as_vllm_reads_it() {
        let text = "\
(APIServer pid=1) INFO 07-06 22:50:34 [cli_args.py:1] vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32K --max-num-seqs 64
(Worker_TP0 pid=107) INFO 07-06 22:52:09 [gpu_worker.py:508] Available KV cache memory: 5.98 GiB
(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2146] GPU KV cache size: 567,978 tokens
";
        let log = parse(text).unwrap();
        assert_eq!(log.max_model_len, Some(32_768), "32K, not 32");
        let decimal = parse(&text.replace("32K", "32k")).unwrap();
        assert_eq!(decimal.max_model_len, Some(32_000));
    }

    #[test]
    fn reads_kv_tokens_concurrency_and_settings() {
        let text = "\
(APIServer pid=1) INFO 07-06 22:50:34 [api_utils.py:273] non-default args: {'model': '~/m/qwen', 'max_model_len': 131072, 'kv_cache_dtype': 'fp8', 'gpu_memory_utilization': 0.79, 'tensor_parallel_size': 2}
(EngineCore pid=107) INFO 07-06 22:50:46 [core.py:114] Initializing a V1 LLM engine (v0.24.0) with config: model='~/m/qwen'
(Worker_TP0 pid=107) INFO 07-06 22:52:09 [gpu_worker.py:508] Available KV cache memory: 5.98 GiB
(Worker_TP1 pid=108) INFO 07-06 22:52:09 [gpu_worker.py:508] Available KV cache memory: 6.10 GiB
(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2146] GPU KV cache size: 567,978 tokens
(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 tokens per request: 4.33x
";
        let log = parse(text).unwrap();
        assert_eq!(log.available_kv_gib, Some(5.98), "the smallest worker");
        assert_eq!(log.kv_cache_tokens, Some(567_978));
        assert_eq!(log.max_concurrency, Some(4.33));
        assert_eq!(log.max_concurrency_context_tokens, Some(131_072));
        assert_eq!(log.max_model_len, Some(131_072));
        assert_eq!(log.gpu_memory_utilization, Some(0.79));
        assert_eq!(log.tensor_parallel_size, Some(2));
        assert_eq!(log.kv_cache_dtype.as_deref(), Some("fp8"));
        assert_eq!(log.vllm_version.as_deref(), Some("0.24.0"));
        assert_eq!(log.model.as_deref(), Some("~/m/qwen"));
    }

    #[test]
    fn reads_the_v0_profile() {
        let text = "\
INFO 05-30 16:23:22 model_runner.py:1115] Loading model weights took 2.8875 GB
INFO 05-30 16:23:28 worker.py:267] the current vLLM instance can use total_gpu_memory (14.56GiB) x gpu_memory_utilization (0.50) = 7.28GiB
INFO 05-30 16:23:28 worker.py:267] model weights take 2.89GiB; non_torch_memory takes 0.01GiB; PyTorch activation peak memory takes 2.02GiB; the rest of the memory reserved for KV Cache is 2.36GiB.
INFO 05-30 16:23:28 executor_base.py:110] # CUDA blocks: 5519, # CPU blocks: 9362
INFO 05-30 16:23:28 executor_base.py:115] Maximum concurrency for 32768 tokens per request: 2.69x
INFO 05-30 16:24:18 model_runner.py:1562] Graph capturing finished in 43 secs, took 0.17 GiB
";
        let log = parse(text).unwrap();
        assert_eq!(log.total_gpu_memory_gib, Some(14.56));
        assert_eq!(log.gpu_memory_utilization, Some(0.5));
        assert_eq!(log.requested_memory_gib, Some(7.28));
        assert_eq!(log.weights_gib, Some(2.89));
        assert_eq!(log.activation_gib, Some(2.02));
        assert_eq!(log.non_torch_gib, Some(0.01));
        assert_eq!(log.available_kv_gib, Some(2.36));
        assert_eq!(log.gpu_blocks, Some(5_519));
        assert_eq!(log.kv_tokens(), Some(88_304));
        assert_eq!(log.cuda_graph_gib, Some(0.17));
        let implied = log.implied_overhead_gib().unwrap();
        assert!((implied - 2.03).abs() < 1e-9, "{implied}");
    }

    #[test]
    fn reads_the_v1_free_memory_line() {
        let text = "INFO [gpu_worker.py:300] Free memory on device (94.41/94.97 GiB) on startup. Desired GPU memory utilization is (0.9, 85.47 GiB). Actual usage is 67.72 GiB for weight, 1.91 GiB for peak activation, 0.4 GiB for non-torch memory, and 0.52 GiB for CUDAGraph memory.";
        let log = parse(text).unwrap();
        assert_eq!(log.total_gpu_memory_gib, Some(94.97));
        assert_eq!(log.gpu_memory_utilization, Some(0.9));
        assert_eq!(log.requested_memory_gib, Some(85.47));
        assert_eq!(log.weights_gib, Some(67.72));
        assert_eq!(log.activation_gib, Some(1.91));
        assert_eq!(log.non_torch_gib, Some(0.4));
        assert_eq!(log.cuda_graph_gib, Some(0.52));
    }

    #[test]
    fn reads_the_v0_engine_config_line_and_a_refusal() {
        let text = "\
INFO 11-21 03:12:01 llm_engine.py:237] Initializing an LLM engine (v0.5.4) with config: model='/mnt/models/llama-3-1-70b', speculative_config=None, dtype=torch.float16, max_seq_len=131072, tensor_parallel_size=2, pipeline_parallel_size=1, kv_cache_dtype=auto
INFO 11-21 03:14:40 distributed_gpu_executor.py:56] # GPU blocks: 1381, # CPU blocks: 1638
ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (22096). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
";
        let log = parse(text).unwrap();
        assert_eq!(log.vllm_version.as_deref(), Some("0.5.4"));
        assert_eq!(log.model.as_deref(), Some("/mnt/models/llama-3-1-70b"));
        assert_eq!(log.tensor_parallel_size, Some(2));
        assert_eq!(log.pipeline_parallel_size, Some(1));
        assert_eq!(log.max_model_len, Some(131_072));
        assert_eq!(log.kv_cache_dtype.as_deref(), Some("auto"));
        assert_eq!(log.gpu_blocks, Some(1_381));
        assert!(
            log.refusal
                .as_deref()
                .unwrap()
                .starts_with("The model's max seq len (131072)")
        );
    }

    #[test]
    fn a_prediction_is_set_beside_the_log() {
        use crate::sizing::estimate::{SizingInput, size};
        use crate::sizing::{KvDtype, MemoryModel, Topology, WeightPrecision};
        let mut input = SizingInput::from_ids(
            "llama-3.1-8b",
            WeightPrecision::Bf16,
            KvDtype::Bits16,
            "h100-sxm",
            Topology::single(),
            8_192,
            MemoryModel::Vllm,
        )
        .unwrap();
        input.vllm_version = Some("0.6.6".into());
        let predicted = size(&input).unwrap();
        let log = parse(
            "model weights take 14.99GiB; non_torch_memory takes 0.12GiB; PyTorch activation peak memory takes 1.19GiB; the rest of the memory reserved for KV Cache is 54.93GiB.\n# GPU blocks: 28123, # CPU blocks: 2048",
        )
        .unwrap();
        let comparison = compare(&predicted, &log);
        let tokens = &comparison.rows[0];
        assert_eq!(tokens.quantity, "GPU KV cache size");
        assert_eq!(tokens.actual, 28_123.0 * 16.0);
        assert_eq!(
            tokens.difference,
            predicted.kv_cache_tokens as f64 - 449_968.0
        );
        assert!(
            tokens.difference < 0.0 && tokens.difference_pct > -2.0,
            "{tokens:?}"
        );
        assert_eq!(comparison.actually_started, Some(true));
        assert!(comparison.notes[0].starts_with("GPU KV cache size: predicted"));
    }

    #[test]
    fn a_text_without_key_lines_is_an_error() {
        let err = parse("INFO: Application startup complete.\nhello").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("start-up log: none of the key lines"),
            "{err}"
        );
    }
}
