//! The run context of a load test: the hardware and serving settings it ran with.
//!
//! A load-test result says what the load generator saw; it rarely says what it was pointed at.
//! [`RunContext`] records that (engine and version, GPU and count, precision, KV-cache dtype,
//! tensor parallelism, `max_num_batched_tokens`, `max_num_seqs`, prefix caching, CUDA graphs), and
//! [`parse`] reads it from what an assessor has at hand: a `vllm serve …` command line (also the
//! older `python -m vllm.entrypoints.openai.api_server …`) or a KServe `ServingRuntime` YAML.
//!
//! Decisions:
//! * **Only what the text says.** A flag that is absent is `None` ("not stated"), never vLLM's
//!   default of the day: defaults change between versions (prefix caching became the default with
//!   the V1 engine).
//! * **The YAML reader is a small hand-written subset reader** ([`yaml`]): block maps and lists,
//!   flow lists (`["python", "-m", …]`), quoted and plain scalars, comments. That is what
//!   serving manifests use; anchors, multi-documents and block scalars are not read.
//! * Command lines are split like a POSIX shell would ([`shell_split`]): single and double quotes,
//!   backslash escapes and `\`-newline continuations.
//! * **Possible values only** ([`crate::plausible`]): parallel sizes, `max_num_seqs`, token
//!   budgets and `nvidia.com/gpu` are whole numbers ≥ 1 (`0` or `-1` is refused, naming the flag,
//!   not read as "not stated"), and `--max-num-batched-tokens` is at least `--max-num-seqs`, as
//!   vLLM itself requires.

mod flags;
pub mod provenance;
pub mod shell;
pub mod yaml;

pub use flags::{apply_vllm_args, human_readable_count};
pub use provenance::{ContextSource, Provenance, framework_label, stated_by};
pub use shell::shell_split;

use crate::locale::Lang;
use serde::{Deserialize, Serialize};

/// The hardware and serving settings a load test ran with. `None`: not stated.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunContext {
    /// Serving engine (`vLLM`).
    pub engine: Option<String>,
    pub engine_version: Option<String>,
    /// GPU model as written (`Tesla V100-SXM2-16GB`).
    pub gpu: Option<String>,
    pub gpu_count: Option<u32>,
    /// Weights precision: `fp16`, `bf16`, `fp32`, `fp8`, `awq`, … (vLLM `--dtype`/`--quantization`).
    pub precision: Option<String>,
    /// KV-cache dtype (`auto`, `fp8`, `fp8_e4m3`, …).
    pub kv_cache_dtype: Option<String>,
    pub tensor_parallel: Option<u32>,
    pub pipeline_parallel: Option<u32>,
    pub max_num_batched_tokens: Option<u64>,
    pub max_num_seqs: Option<u64>,
    pub prefix_caching: Option<bool>,
    /// CUDA graphs: `Some(false)` with `--enforce-eager`.
    pub cuda_graphs: Option<bool>,
    /// The model argument (path or Hugging Face id).
    pub model: Option<String>,
    pub served_model_name: Option<String>,
    pub max_model_len: Option<u64>,
    pub gpu_memory_utilization: Option<f64>,
    /// Speculative decoding as configured (`--speculative-config`, `--num-speculative-tokens`,
    /// `--speculative-model`): per-stream speed then depends on the draft's acceptance rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculative_decoding: Option<String>,
}

impl RunContext {
    /// True when nothing at all is stated.
    pub fn is_empty(&self) -> bool {
        *self == RunContext::default()
    }

    /// Fills every field `self` leaves unstated from `other` (`self` wins).
    pub fn or(mut self, other: &RunContext) -> RunContext {
        macro_rules! fill {
            ($($f:ident),*) => { $( if self.$f.is_none() { self.$f = other.$f.clone(); } )* };
        }
        fill!(
            engine,
            engine_version,
            gpu,
            gpu_count,
            precision,
            kv_cache_dtype,
            tensor_parallel,
            pipeline_parallel,
            max_num_batched_tokens,
            max_num_seqs,
            prefix_caching,
            cuda_graphs,
            model,
            served_model_name,
            max_model_len,
            gpu_memory_utilization,
            speculative_decoding
        );
        self
    }

    /// One line for pages: `vLLM 0.8.5 · 4 × Tesla V100 · fp16 · TP 4 · prefix caching off …`.
    pub fn summary(&self) -> String {
        self.summary_in(Lang::En)
    }

    /// [`RunContext::summary`] in `lang`: the flags' names (`TP`, `max_model_len`) stay as
    /// vLLM spells them, the words around them change.
    pub fn summary_in(&self, lang: Lang) -> String {
        let pick = |en, de| lang.pick(en, de);
        let on_off = |b: bool| {
            if b {
                pick("on", "an")
            } else {
                pick("off", "aus")
            }
        };
        let mut parts: Vec<String> = Vec::new();
        let serving = format!(
            "{} {}",
            self.engine.as_deref().unwrap_or(""),
            self.engine_version.as_deref().unwrap_or("")
        );
        if !serving.trim().is_empty() {
            parts.push(serving.trim().to_string());
        }
        match (self.gpu_count, self.gpu.as_deref()) {
            (Some(n), Some(g)) => parts.push(format!("{n} × {g}")),
            (Some(n), None) => parts.push(format!("{n} GPU(s)")),
            (None, Some(g)) => parts.push(g.to_string()),
            (None, None) => {}
        }
        if let Some(p) = &self.precision {
            parts.push(format!("{} {p}", pick("weights", "Gewichte")));
        }
        if let Some(k) = &self.kv_cache_dtype {
            parts.push(format!("KV {k}"));
        }
        if let Some(tp) = self.tensor_parallel {
            parts.push(format!("TP {tp}"));
        }
        if let Some(pp) = self.pipeline_parallel.filter(|&p| p > 1) {
            parts.push(format!("PP {pp}"));
        }
        if let Some(n) = self.max_num_batched_tokens {
            parts.push(format!("max_num_batched_tokens {n}"));
        }
        if let Some(n) = self.max_num_seqs {
            parts.push(format!("max_num_seqs {n}"));
        }
        if let Some(b) = self.prefix_caching {
            parts.push(format!(
                "{} {}",
                pick("prefix caching", "Prefix-Caching"),
                on_off(b)
            ));
        }
        if let Some(b) = self.cuda_graphs {
            parts.push(format!(
                "{} {}",
                pick("CUDA graphs", "CUDA-Graphen"),
                on_off(b)
            ));
        }
        if let Some(n) = self.max_model_len {
            parts.push(format!("max_model_len {n}"));
        }
        if let Some(s) = &self.speculative_decoding {
            parts.push(format!(
                "{} {s}",
                pick("speculative decoding", "spekulatives Decoding")
            ));
        }
        parts.join(" · ")
    }
}

/// Why a pasted text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RunContextError(pub String);

/// Reads a `vllm serve …` command line or a KServe `ServingRuntime` (or `InferenceService`) YAML.
pub fn parse(text: &str) -> Result<RunContext, RunContextError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(RunContextError(
            "paste a `vllm serve …` command line or a KServe ServingRuntime YAML".into(),
        ));
    }
    let looks_yaml = trimmed.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("apiVersion:")
            || l.starts_with("kind:")
            || l.starts_with("containers:")
            || l.starts_with("spec:")
    });
    if looks_yaml {
        parse_serving_runtime(trimmed)
    } else {
        parse_command_line(trimmed)
    }
}

/// Reads a command line that starts vLLM.
pub fn parse_command_line(text: &str) -> Result<RunContext, RunContextError> {
    let words = shell_split(text).map_err(RunContextError)?;
    let start = words
        .iter()
        .position(|w| w == "serve" || w.ends_with("vllm.entrypoints.openai.api_server"));
    let Some(start) = start else {
        return Err(RunContextError(
            "not a vLLM command line: expected `vllm serve <model> …` or `python -m vllm.entrypoints.openai.api_server …`"
                .into(),
        ));
    };
    let mut context = RunContext {
        engine: Some("vLLM".into()),
        ..RunContext::default()
    };
    let rest = &words[start + 1..];
    let args = if words[start] == "serve" {
        match rest.first() {
            Some(model) if !model.starts_with('-') => {
                context.model = Some(model.clone());
                &rest[1..]
            }
            _ => rest,
        }
    } else {
        rest
    };
    apply_vllm_args(&mut context, args).map_err(RunContextError)?;
    Ok(context)
}

/// Reads a KServe `ServingRuntime`: the first container's image tag (`vllm/vllm-openai:v0.8.5` →
/// vLLM 0.8.5), its `command` and `args`, and `resources` `nvidia.com/gpu` (limits, else
/// requests).
pub fn parse_serving_runtime(text: &str) -> Result<RunContext, RunContextError> {
    let doc = yaml::parse(text).map_err(RunContextError)?;
    let containers = find_key(&doc, "containers")
        .and_then(yaml::Node::as_list)
        .filter(|l| !l.is_empty())
        .ok_or_else(|| {
            RunContextError(
                "the YAML has no `containers:` list (expected a KServe ServingRuntime)".into(),
            )
        })?;
    let container = containers
        .iter()
        .find(|c| {
            c.get("image")
                .and_then(yaml::Node::as_str)
                .is_some_and(|i| i.contains("vllm"))
        })
        .unwrap_or(&containers[0]);
    let mut context = RunContext::default();
    if let Some(image) = container.get("image").and_then(yaml::Node::as_str) {
        let (name, tag) = split_image(image);
        if name.to_ascii_lowercase().contains("vllm") {
            context.engine = Some("vLLM".into());
        }
        if let Some(tag) = tag {
            let version = tag.strip_prefix('v').unwrap_or(tag);
            if version.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                context.engine_version = Some(version.to_string());
            }
        }
    }
    let words = |key: &str| -> Vec<String> {
        container
            .get(key)
            .and_then(yaml::Node::as_list)
            .map(|items| {
                items
                    .iter()
                    .filter_map(yaml::Node::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let command = words("command");
    if command.iter().any(|w| w.contains("vllm")) {
        context.engine = Some("vLLM".into());
    }
    let mut args: Vec<String> = Vec::new();
    // `command: ["vllm", "serve", "model"]` carries arguments too.
    if let Some(pos) = command.iter().position(|w| w == "serve") {
        args.extend(command[pos + 1..].iter().cloned());
    }
    for item in words("args") {
        // An item "--max-model-len 8192" is two words; "--port=8080" stays one.
        if item.starts_with('-') && item.contains(' ') && !item.contains('=') {
            args.extend(shell_split(&item).map_err(RunContextError)?);
        } else {
            args.push(item);
        }
    }
    if args.first().is_some_and(|a| !a.starts_with('-')) {
        context.model = Some(args.remove(0));
    }
    apply_vllm_args(&mut context, &args).map_err(RunContextError)?;
    if let Some(resources) = container.get("resources") {
        context.gpu_count = gpu_count(resources)?;
    }
    if context.is_empty() {
        return Err(RunContextError(
            "the YAML names no vLLM image, arguments or GPUs".into(),
        ));
    }
    Ok(context)
}

/// `resources` `nvidia.com/gpu` (limits, else requests): a whole number ≥ 1
/// ([`crate::plausible::Rule::AtLeastOne`]); `0`, `-1` or `two` are refused, not read as "not
/// stated" (a GPU pilot on no GPU is a typo).
fn gpu_count(resources: &yaml::Node) -> Result<Option<u32>, RunContextError> {
    for section in ["limits", "requests"] {
        let Some(text) = resources
            .get(section)
            .and_then(|s| s.get("nvidia.com/gpu"))
            .and_then(yaml::Node::as_str)
        else {
            continue;
        };
        let field = format!("resources.{section}.nvidia.com/gpu");
        let n = text
            .trim()
            .parse::<f64>()
            .map_err(|_| RunContextError(format!("{field}: `{text}` is not a number of GPUs")))?;
        let n = flags::size(&field, "number of GPUs", n).map_err(RunContextError)?;
        return Ok(Some(u32::try_from(n).map_err(|_| {
            RunContextError(format!("{field}: {n} is not a possible number of GPUs"))
        })?));
    }
    Ok(None)
}

fn split_image(image: &str) -> (&str, Option<&str>) {
    let image = image.split('@').next().unwrap_or(image);
    match image.rsplit_once(':') {
        Some((name, tag)) if !tag.contains('/') => (name, Some(tag)),
        _ => (image, None),
    }
}

/// Depth-first search for the first map entry `key`.
fn find_key<'a>(node: &'a yaml::Node, key: &str) -> Option<&'a yaml::Node> {
    match node {
        yaml::Node::Map(entries) => entries
            .iter()
            .find_map(|(k, v)| if k == key { Some(v) } else { find_key(v, key) }),
        yaml::Node::List(items) => items.iter().find_map(|i| find_key(i, key)),
        yaml::Node::Scalar(_) => None,
    }
}

#[cfg(test)]
mod tests;
