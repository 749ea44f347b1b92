//! Where each recorded run-context value came from, and what a file states about its own run.
//!
//! An upload's run context is assembled from layers: what the result file itself states (a
//! `--metadata gpu=4xNVIDIA_L40S` key, a `framework` column), what the assessor typed for the
//! upload, a pasted `vllm serve …` line, and the pilot's notes. Before this module the layers
//! were merged silently, so a command pasted for one upload was stamped on every later file of
//! the session, whatever the file said. Now [`layer`] merges them *and* says, per field, which
//! layer gave the value ([`ContextField::source`]) and which stated values it set aside
//! ([`ContextConflict`]), so the upload can show what will be recorded before it is stored, and
//! the record keeps its provenance.
//!
//! Decisions:
//! * **The file first.** A value the file states about its own run is the closest witness to
//!   what ran; a typed or pasted value that disagrees is set aside and named, never silently
//!   used. The pilot's notes are fallbacks, not statements: a typed value that differs from them
//!   is no conflict, but a file that does is named (the run measured other hardware or
//!   settings than the pilot's).
//! * **Only agreed values are detected.** [`stated_by`] takes a key only when every operating
//!   point that states it agrees: a file that mixes vLLM and SGLang rows states no engine for
//!   the file, and each row keeps its own framework.
//! * Values compare loosely (case, punctuation and a vendor prefix do not count), so
//!   `NVIDIA L40S` typed against a file's `L40S` is the same GPU.

use super::RunContext;
use crate::ingest::OperatingPoint;
use serde::{Deserialize, Serialize};

/// Which layer a recorded value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ContextSource {
    /// The result file states it about its own run.
    File,
    /// Typed into the upload's fields.
    Form,
    /// Read from the pasted `vllm serve …` line or ServingRuntime YAML.
    ServeCommand,
    /// The pilot's notes (engine, version, GPU and count).
    PilotNotes,
}

impl ContextSource {
    /// The source as the API names it (its serde name), which the pages' `source-…` classes
    /// use too: `file`, `form`, `serve_command`, `pilot_notes`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContextSource::File => "file",
            ContextSource::Form => "form",
            ContextSource::ServeCommand => "serve_command",
            ContextSource::PilotNotes => "pilot_notes",
        }
    }

    /// How pages name the source: `from the file`, `typed`, …
    pub fn label(self) -> &'static str {
        match self {
            ContextSource::File => "from the file",
            ContextSource::Form => "typed",
            ContextSource::ServeCommand => "from the pasted command",
            ContextSource::PilotNotes => "from the pilot's notes",
        }
    }
}

/// One recorded run-context value and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContextField {
    /// The upload's form field name (`engine`, `gpu`, `tp`, …).
    pub field: String,
    /// As people read it (`Tensor parallel`).
    pub label: String,
    pub value: String,
    pub source: ContextSource,
}

/// A stated value that was not recorded because a layer before it said otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContextConflict {
    pub field: String,
    pub label: String,
    /// What is recorded, and from where.
    pub recorded: String,
    pub recorded_from: ContextSource,
    /// What was set aside, and from where.
    pub ignored: String,
    pub ignored_from: ContextSource,
}

impl ContextConflict {
    /// `GPU: the file states NVIDIA L40S; the typed Tesla V100 was not used.`
    pub fn sentence(&self) -> String {
        if self.ignored_from == ContextSource::PilotNotes {
            return format!(
                "{}: the file states {}; the pilot's notes say {}, so this run measured other \
                 hardware or settings than the pilot's.",
                self.label, self.recorded, self.ignored
            );
        }
        let from = match self.recorded_from {
            ContextSource::File => "the file states".to_string(),
            other => format!("{} says", source_noun(other)),
        };
        format!(
            "{}: {from} {}; {} {} was not used.",
            self.label,
            self.recorded,
            source_noun(self.ignored_from),
            self.ignored
        )
    }
}

fn source_noun(source: ContextSource) -> &'static str {
    match source {
        ContextSource::File => "the file",
        ContextSource::Form => "the typed",
        ContextSource::ServeCommand => "the pasted command's",
        ContextSource::PilotNotes => "the pilot's notes'",
    }
}

/// Each recorded value with its source, in the order of [`FIELDS`], and what was set aside.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Provenance {
    pub fields: Vec<ContextField>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<ContextConflict>,
}

impl Provenance {
    /// Labels of the fields nothing stated, in form order (`Weights precision`, …).
    /// [`Provenance::unstated`] in `lang`.
    pub fn unstated_in(&self, lang: crate::locale::Lang) -> Vec<&'static str> {
        FIELDS
            .iter()
            .filter(|(name, _)| !self.fields.iter().any(|f| f.field == *name))
            .map(|&(name, _)| field_label_in(name, lang))
            .collect()
    }

    pub fn unstated(&self) -> Vec<&'static str> {
        FIELDS
            .iter()
            .filter(|(name, _)| !self.fields.iter().any(|f| f.field == *name))
            .map(|(_, label)| *label)
            .collect()
    }
}

/// The label of run-context field `name` (see [`FIELDS`]) in `lang`: `Engine version` /
/// `Engine-Version`; a name not in [`FIELDS`] as it is.
pub fn field_label_in(name: &str, lang: crate::locale::Lang) -> &str {
    use crate::locale::Lang;
    let english = FIELDS
        .iter()
        .find(|(field, _)| *field == name)
        .map_or(name, |(_, label)| *label);
    match (lang, name) {
        (Lang::En, _) => english,
        (Lang::De, "engine_version") => "Engine-Version",
        (Lang::De, "gpu_count") => "Anzahl GPUs",
        (Lang::De, "precision") => "Präzision der Gewichte",
        (Lang::De, "kv_dtype") => "Datentyp des KV-Cache",
        (Lang::De, "prefix_caching") => "Prefix-Caching",
        (Lang::De, "cuda_graphs") => "CUDA-Graphen",
        (Lang::De, "tp") => "Tensorparallelität",
        // Engine, GPU and vLLM's own flag names read the same.
        (Lang::De, _) => english,
    }
}

/// The run-context fields an assessor can state, by form name and label.
pub const FIELDS: [(&str, &str); 11] = [
    ("engine", "Engine"),
    ("engine_version", "Engine version"),
    ("gpu", "GPU"),
    ("gpu_count", "GPU count"),
    ("precision", "Weights precision"),
    ("kv_dtype", "KV-cache dtype"),
    ("tp", "Tensor parallel"),
    ("max_num_batched_tokens", "max_num_batched_tokens"),
    ("max_num_seqs", "max_num_seqs"),
    ("prefix_caching", "Prefix caching"),
    ("cuda_graphs", "CUDA graphs"),
];

/// The value of form field `name` in `context`, as text; `None` when not stated.
pub fn field_text(context: &RunContext, name: &str) -> Option<String> {
    let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
    match name {
        "engine" => context.engine.clone(),
        "engine_version" => context.engine_version.clone(),
        "gpu" => context.gpu.clone(),
        "gpu_count" => context.gpu_count.map(|n| n.to_string()),
        "precision" => context.precision.clone(),
        "kv_dtype" => context.kv_cache_dtype.clone(),
        "tp" => context.tensor_parallel.map(|n| n.to_string()),
        "max_num_batched_tokens" => context.max_num_batched_tokens.map(|n| n.to_string()),
        "max_num_seqs" => context.max_num_seqs.map(|n| n.to_string()),
        "prefix_caching" => context.prefix_caching.map(on_off),
        "cuda_graphs" => context.cuda_graphs.map(on_off),
        _ => None,
    }
}

/// `NVIDIA_L40S` and `l40s` alike: lower case, letters and digits only, vendor dropped.
fn loose(value: &str) -> String {
    let lower = value.to_ascii_lowercase();
    let mut text: String = lower
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    for vendor in ["nvidia", "tesla", "amd"] {
        if let Some(rest) = text.strip_prefix(vendor) {
            text = rest.to_string();
        }
    }
    text
}

fn same(a: &str, b: &str) -> bool {
    let (a, b) = (loose(a), loose(b));
    // `V100-SXM2-16GB` is a `V100`; but `4` is not `40`, so numbers compare whole.
    let worded = |t: &str| t.len() >= 3 && t.chars().any(|c| c.is_ascii_alphabetic());
    a == b || (worded(&a) && worded(&b) && (a.contains(&b) || b.contains(&a)))
}

/// Merges `layers` in order (the first that states a field wins) and records where each value
/// came from. A later layer stating something else is a [`ContextConflict`], unless it is
/// the pilot's notes (a fallback, not a statement).
pub fn layer(layers: &[(ContextSource, &RunContext)]) -> (RunContext, Provenance) {
    let mut merged = RunContext::default();
    for (_, context) in layers {
        merged = merged.or(context);
    }
    let mut provenance = Provenance::default();
    for (name, label) in FIELDS {
        let stated: Vec<(ContextSource, String)> = layers
            .iter()
            .filter_map(|(source, c)| field_text(c, name).map(|v| (*source, v)))
            .collect();
        let Some((source, value)) = stated.first().cloned() else {
            continue;
        };
        for (other, ignored) in &stated[1..] {
            // The notes are a fallback: only the file contradicting them is worth saying.
            let stated = *other != ContextSource::PilotNotes || source == ContextSource::File;
            if stated && !same(&value, ignored) {
                provenance.conflicts.push(ContextConflict {
                    field: name.into(),
                    label: label.into(),
                    recorded: value.clone(),
                    recorded_from: source,
                    ignored: ignored.clone(),
                    ignored_from: *other,
                });
            }
        }
        provenance.fields.push(ContextField {
            field: name.into(),
            label: label.into(),
            value,
            source,
        });
    }
    (merged, provenance)
}

/// A framework as files write it (`sgl`, `vllm`, `trt`) as people name it.
pub fn framework_label(written: &str) -> String {
    match written.trim().to_ascii_lowercase().as_str() {
        "sgl" | "sglang" => "SGLang".into(),
        "vllm" => "vLLM".into(),
        "trt" | "trtllm" | "trt-llm" | "tensorrt-llm" => "TensorRT-LLM".into(),
        "tgi" => "TGI".into(),
        _ => written.trim().to_string(),
    }
}

/// The settings keys (whole, or the last dotted segment) a file may state each field under.
const KEYS: [(&str, &[&str]); 9] = [
    ("engine", &["framework", "engine", "serving_engine"]),
    (
        "engine_version",
        &["engine_version", "vllm_version", "framework_version"],
    ),
    ("gpu", &["gpu", "gpu_type", "gpu_model", "gpu_name"]),
    ("gpu_count", &["gpu_count", "num_gpus", "n_gpus"]),
    ("precision", &["dtype", "precision", "quantization"]),
    ("kv_dtype", &["kv_cache_dtype", "kv_dtype"]),
    (
        "tp",
        &["tp", "tensor_parallel_size", "tensor_parallel", "tp_size"],
    ),
    ("max_num_seqs", &["max_num_seqs"]),
    ("max_num_batched_tokens", &["max_num_batched_tokens"]),
];

/// The value every point of `points` that states field `name` agrees on; `None` when none
/// states it or two disagree.
fn agreed(points: &[OperatingPoint], name: &str) -> Option<String> {
    let keys = KEYS.iter().find(|(field, _)| *field == name)?.1;
    let mut value: Option<String> = None;
    for point in points {
        let stated = point.settings.iter().find_map(|(key, v)| {
            let last = key.rsplit('.').next().unwrap_or(key);
            (keys.contains(&key.as_str()) || keys.contains(&last))
                .then(|| v.trim())
                .filter(|v| !v.is_empty() && *v != "null" && *v != "None")
        });
        match (stated, &value) {
            (None, _) => {}
            (Some(v), None) => value = Some(v.to_string()),
            (Some(v), Some(seen)) if v == seen => {}
            (Some(_), Some(_)) => return None,
        }
    }
    value
}

/// `4xNVIDIA_L40S` → (4, `NVIDIA L40S`); `H100` → (None, `H100`).
fn count_and_gpu(text: &str) -> (Option<u32>, String) {
    let spaced = text.replace('_', " ");
    let split = spaced
        .split_once(['x', 'X', '×'])
        .and_then(|(n, gpu)| Some((n.trim().parse::<u32>().ok()?, gpu.trim().to_string())))
        .filter(|(n, gpu)| *n > 0 && !gpu.is_empty());
    match split {
        Some((n, gpu)) => (Some(n), gpu),
        None => (None, spaced.trim().to_string()),
    }
}

/// What the points of one result file state about the run they measured (their metadata
/// keys), where they all agree. See the module docs.
pub fn stated_by(points: &[OperatingPoint]) -> RunContext {
    let whole = |name: &str| agreed(points, name).and_then(|v| v.parse::<u64>().ok());
    let (gpu_count, gpu) = match agreed(points, "gpu").map(|g| count_and_gpu(&g)) {
        Some((count, gpu)) => (count, Some(gpu)),
        None => (None, None),
    };
    RunContext {
        engine: agreed(points, "engine").map(|f| framework_label(&f)),
        engine_version: agreed(points, "engine_version"),
        gpu,
        gpu_count: gpu_count.or_else(|| whole("gpu_count").and_then(|n| u32::try_from(n).ok())),
        precision: agreed(points, "precision"),
        kv_cache_dtype: agreed(points, "kv_dtype"),
        tensor_parallel: whole("tp").and_then(|n| u32::try_from(n).ok()),
        max_num_seqs: whole("max_num_seqs"),
        max_num_batched_tokens: whole("max_num_batched_tokens"),
        ..RunContext::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sources_name_is_its_serde_name() {
        use ContextSource::*;
        for source in [File, Form, ServeCommand, PilotNotes] {
            assert_eq!(serde_json::to_value(source).unwrap(), source.as_str());
        }
    }

    fn point(settings: &[(&str, &str)]) -> OperatingPoint {
        let mut p = OperatingPoint::new("test");
        for (k, v) in settings {
            p.settings.insert(k.to_string(), v.to_string());
        }
        p
    }

    #[test]
    fn a_metadata_gpu_gives_the_card_and_its_count() {
        let stated = stated_by(&[point(&[("gpu", "4xNVIDIA_L40S"), ("backend", "vllm")])]);
        assert_eq!(stated.gpu.as_deref(), Some("NVIDIA L40S"));
        assert_eq!(stated.gpu_count, Some(4));
        // `backend` is the client's protocol, not the serving engine.
        assert_eq!(stated.engine, None);
    }

    #[test]
    fn rows_of_two_frameworks_state_no_engine_for_the_file() {
        let mixed = [
            point(&[("framework", "vllm"), ("tp", "2")]),
            point(&[("framework", "sgl"), ("tp", "2")]),
        ];
        let stated = stated_by(&mixed);
        assert_eq!(stated.engine, None);
        assert_eq!(stated.tensor_parallel, Some(2));
        let one = stated_by(&[point(&[("framework", "sgl")])]);
        assert_eq!(one.engine.as_deref(), Some("SGLang"));
    }

    #[test]
    fn the_file_wins_and_a_differing_typed_value_is_named() {
        let file = RunContext {
            gpu: Some("NVIDIA L40S".into()),
            gpu_count: Some(4),
            ..RunContext::default()
        };
        let typed = RunContext {
            gpu: Some("Tesla V100-SXM2-16GB".into()),
            tensor_parallel: Some(2),
            ..RunContext::default()
        };
        let notes = RunContext {
            engine: Some("vLLM".into()),
            gpu_count: Some(8),
            ..RunContext::default()
        };
        let (merged, provenance) = layer(&[
            (ContextSource::File, &file),
            (ContextSource::Form, &typed),
            (ContextSource::PilotNotes, &notes),
        ]);
        assert_eq!(merged.gpu.as_deref(), Some("NVIDIA L40S"));
        assert_eq!(merged.gpu_count, Some(4));
        assert_eq!(merged.tensor_parallel, Some(2));
        assert_eq!(merged.engine.as_deref(), Some("vLLM"));
        let source = |name: &str| {
            provenance
                .fields
                .iter()
                .find(|f| f.field == name)
                .map(|f| f.source)
        };
        assert_eq!(source("gpu"), Some(ContextSource::File));
        assert_eq!(source("tp"), Some(ContextSource::Form));
        assert_eq!(source("engine"), Some(ContextSource::PilotNotes));
        assert_eq!(source("precision"), None);
        // The notes' 8 GPUs are a fallback: recorded from the file, and the difference named.
        let sentences: Vec<String> = provenance.conflicts.iter().map(|c| c.sentence()).collect();
        assert_eq!(
            sentences,
            [
                "GPU: the file states NVIDIA L40S; the typed Tesla V100-SXM2-16GB was not used.",
                "GPU count: the file states 4; the pilot's notes say 8, so this run measured \
                 other hardware or settings than the pilot's."
            ]
        );
        // A typed value differing from the notes is the person's choice: nothing to say.
        let (_, typed_over_notes) = layer(&[
            (ContextSource::Form, &typed),
            (ContextSource::PilotNotes, &file),
        ]);
        assert!(typed_over_notes.conflicts.is_empty());
        assert!(provenance.unstated().contains(&"Weights precision"));
    }

    #[test]
    fn the_same_gpu_written_two_ways_is_no_conflict() {
        let file = RunContext {
            gpu: Some("L40S".into()),
            ..RunContext::default()
        };
        let typed = RunContext {
            gpu: Some("NVIDIA_L40S".into()),
            ..RunContext::default()
        };
        let (_, provenance) = layer(&[(ContextSource::File, &file), (ContextSource::Form, &typed)]);
        assert!(provenance.conflicts.is_empty());
    }
}
