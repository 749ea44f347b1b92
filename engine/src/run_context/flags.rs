//! vLLM's serving flags, as far as the run context needs them.

use super::RunContext;

fn normalise_dtype(value: &str) -> String {
    match value.trim().to_ascii_lowercase().as_str() {
        "half" | "float16" | "fp16" => "fp16".into(),
        "bfloat16" | "bf16" => "bf16".into(),
        "float" | "float32" | "fp32" => "fp32".into(),
        other => other.to_string(),
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .trim()
        .replace('_', "")
        .parse()
        .map_err(|_| format!("{flag}: `{value}` is not a number"))
}

/// A token count as vLLM's command line takes it (`human_readable_int`): `32768`, `32k`
/// (decimal, 32,000), `32K` or `32Ki` (binary, 32,768), `25.6k`; decimals only with a decimal
/// suffix. `None` for anything else.
pub fn human_readable_count(text: &str) -> Option<u64> {
    let text = text.trim().replace('_', "");
    let digits = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(digits);
    let decimal = match suffix {
        "" => 1,
        "k" => 1_000,
        "m" => 1_000_000,
        "g" => 1_000_000_000,
        "t" => 1_000_000_000_000,
        _ => 0,
    };
    let binary: u64 = match suffix {
        "K" | "Ki" => 1 << 10,
        "M" | "Mi" => 1 << 20,
        "G" | "Gi" => 1 << 30,
        "T" | "Ti" => 1 << 40,
        _ => 0,
    };
    let multiplier = if decimal > 0 { decimal } else { binary };
    if multiplier == 0 || number.is_empty() {
        return None;
    }
    if number.contains('.') {
        // As vLLM: decimals only with a decimal suffix, truncated.
        if binary > 0 || suffix.is_empty() {
            return None;
        }
        let value = number.parse::<f64>().ok()? * multiplier as f64;
        return (value.is_finite() && value < 9.0e15).then_some(value as u64);
    }
    number.parse::<u64>().ok()?.checked_mul(multiplier)
}

/// A token count flag (see [`human_readable_count`]), refused naming the flag; at least 1 (a
/// context or step of no tokens serves nothing) and at most 2⁵³
/// ([`crate::plausible::COUNT_MAX`]).
fn count(flag: &str, value: &str) -> Result<u64, String> {
    let n = human_readable_count(value).ok_or_else(|| {
        format!("{flag}: `{value}` is not a token count (a number such as 32768, 32k or 32K)")
    })?;
    crate::plausible::count_u64(n).map_err(|e| format!("{flag}: {e}"))?;
    size(flag, "token count", n as f64)
}

/// A size that must be a whole number ≥ 1 ([`crate::plausible::Rule::AtLeastOne`]): parallel
/// ranks, sequences, GPUs, tokens. `0` is refused, naming the flag.
pub(crate) fn size(flag: &str, noun: &str, n: f64) -> Result<u64, String> {
    crate::plausible::across::at_least_one(flag, noun, n)
        .map_err(|b| format!("{flag}: {}", b.message))
}

/// `--max-num-batched-tokens` at least `--max-num-seqs` when both are given
/// ([`crate::plausible::Rule::BatchHoldsSequences`]: vLLM refuses to start otherwise).
pub(crate) fn check_batch(context: &RunContext) -> Result<(), String> {
    let (Some(seqs), Some(batched)) = (context.max_num_seqs, context.max_num_batched_tokens) else {
        return Ok(());
    };
    let pair = [
        ("--max-num-seqs", seqs as f64),
        ("--max-num-batched-tokens", batched as f64),
    ];
    use crate::plausible::{Rule, Slack, across};
    across::non_decreasing(Rule::BatchHoldsSequences, &pair, "", Slack::EXACT)
        .map_err(|b| format!("{}: {}", b.field, b.message))
}

/// `--gpu-memory-utilization`: a fraction of the GPU's memory, above 0 and at most 1
/// ([`crate::plausible::Quantity::Fraction`]); `7.5`, `NaN` and `inf` are refused.
fn utilisation(flag: &str, value: &str) -> Result<f64, String> {
    let u: f64 = number(flag, value)?;
    let u = crate::plausible::check(crate::plausible::Quantity::Fraction, u)
        .map_err(|e| format!("{flag}: {e}"))?;
    if u == 0.0 {
        return Err(format!(
            "{flag}: 0 is not a possible utilisation (vLLM needs a fraction above 0)"
        ));
    }
    Ok(u)
}

fn boolean(flag: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(format!("{flag}: `{value}` is not true or false")),
    }
}

/// Flags that take no value (so the next word is not theirs).
const SWITCHES: [&str; 8] = [
    "--enforce-eager",
    "--enable-prefix-caching",
    "--no-enable-prefix-caching",
    "--trust-remote-code",
    "--disable-log-requests",
    "--disable-log-stats",
    "--enable-chunked-prefill",
    "--no-enable-chunked-prefill",
];

/// Applies vLLM engine arguments (`--flag value`, `--flag=value`, switches) to `context`;
/// flags that do not describe the run context are skipped.
pub fn apply_vllm_args(context: &mut RunContext, args: &[String]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if !arg.starts_with('-') {
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.replace('_', "-"), Some(v.to_string())),
            None => (arg.replace('_', "-"), None),
        };
        let flag = flag.as_str();
        if SWITCHES.contains(&flag) || (inline.is_none() && flag.starts_with("--no-")) {
            match flag {
                "--enforce-eager" => context.cuda_graphs = Some(false),
                "--enable-prefix-caching" => context.prefix_caching = Some(true),
                "--no-enable-prefix-caching" => context.prefix_caching = Some(false),
                _ => {}
            }
            continue;
        }
        let takes_value = inline.is_none()
            && args
                .get(i)
                .is_some_and(|next| !next.starts_with("--") || next.parse::<f64>().is_ok());
        let value = match inline {
            Some(v) => v,
            None if takes_value => {
                i += 1;
                args[i - 1].clone()
            }
            None => {
                // A bare switch we do not know, e.g. `--enable-prefix-caching` spelt otherwise.
                if flag == "--enforce-eager" {
                    context.cuda_graphs = Some(false);
                }
                continue;
            }
        };
        match flag {
            "--model" => context.model = Some(value),
            "--served-model-name" => context.served_model_name = Some(value),
            "--tensor-parallel-size" | "-tp" => {
                let n: u32 = number(flag, &value)?;
                size(flag, "tensor-parallel size", f64::from(n))?;
                context.tensor_parallel = Some(n)
            }
            "--pipeline-parallel-size" | "-pp" => {
                let n: u32 = number(flag, &value)?;
                size(flag, "pipeline-parallel size", f64::from(n))?;
                context.pipeline_parallel = Some(n)
            }
            "--dtype" => context.precision = Some(normalise_dtype(&value)),
            "--quantization" | "-q" => context.precision = Some(value.trim().to_ascii_lowercase()),
            "--kv-cache-dtype" => context.kv_cache_dtype = Some(value.trim().to_string()),
            "--max-num-batched-tokens" => {
                context.max_num_batched_tokens = Some(count(flag, &value)?)
            }
            "--max-num-seqs" => {
                let n: u64 = number(flag, &value)?;
                crate::plausible::count_u64(n).map_err(|e| format!("{flag}: {e}"))?;
                context.max_num_seqs = Some(size(flag, "number of sequences", n as f64)?)
            }
            "--max-model-len" => context.max_model_len = Some(count(flag, &value)?),
            "--gpu-memory-utilization" => {
                context.gpu_memory_utilization = Some(utilisation(flag, &value)?)
            }
            "--enable-prefix-caching" => context.prefix_caching = Some(boolean(flag, &value)?),
            "--enforce-eager" => context.cuda_graphs = Some(!boolean(flag, &value)?),
            "--speculative-config" | "--speculative-model" => {
                context.speculative_decoding = Some(value.trim().to_string())
            }
            "--num-speculative-tokens" => {
                let tokens = format!("num_speculative_tokens={}", value.trim());
                context.speculative_decoding = Some(match context.speculative_decoding.take() {
                    Some(s) if !s.is_empty() => format!("{s}, {tokens}"),
                    _ => tokens,
                });
            }
            _ => {}
        }
    }
    check_batch(context)
}
