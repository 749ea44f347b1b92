//! How much text an evidence file may put into what is stored and shown of it.
//!
//! Why: importers check every number against what is possible ([`engine::plausible`]), but a
//! file's texts (a model name, a backend, a scenario label, a tool's version) were taken as they
//! came. One upload whose model name was 200 MB made its pilot's page 400 MB (19 s), its report
//! 29 s and its PDF fail (issue #38). A file's summary is what pages, reports and the API read
//! back on every view, so its texts are bounded here, before anything is kept: an identifier
//! (a name, a model, a GPU, a version) at [`MAX_IDENTIFIER_CHARS`], any other text at
//! [`MAX_TEXT_CHARS`], a field name at [`MAX_IDENTIFIER_CHARS`], nesting at [`MAX_DEPTH`] and
//! the whole summary at [`MAX_SUMMARY_BYTES`]. A file over a bound is refused naming the file,
//! the field and the bound; nothing is written.

use crate::ServiceError;
use serde_json::Value;

/// The longest identifier or label: model and GPU names, backends, versions, scenario names.
/// Hugging Face repository ids are at most 96 characters; 256 leaves room for paths and tags.
pub const MAX_IDENTIFIER_CHARS: usize = 256;

/// The longest other text a summary keeps (a command line, a note, a warning).
pub const MAX_TEXT_CHARS: usize = 16 * 1024;

/// The deepest nesting of a summary (the importers write at most five or six levels).
pub const MAX_DEPTH: usize = 32;

/// The largest summary kept for one file, bytes of JSON.
pub const MAX_SUMMARY_BYTES: usize = 32 * 1024 * 1024;

/// Field names whose values are identifiers or labels, held to [`MAX_IDENTIFIER_CHARS`].
const IDENTIFIER_FIELDS: &[&str] = &[
    "model",
    "model_id",
    "model_name",
    "served_model",
    "served_model_name",
    "tokenizer",
    "backend",
    "engine",
    "engine_version",
    "framework",
    "gpu",
    "gpu_name",
    "gpu_type",
    "version",
    "tool",
    "tool_version",
    "scenario",
    "label",
    "name",
    "dataset",
    "dataset_name",
    "endpoint",
    "task",
    "kind",
    "precision",
    "dtype",
    "kv_cache_dtype",
    "quantization",
];

/// Refuses a summary (its JSON text) with a text, a nesting or a size over the bounds.
pub fn check_summary_text(file_name: &str, summary_json: &str) -> Result<(), ServiceError> {
    if summary_json.len() > MAX_SUMMARY_BYTES {
        return Err(too_big(file_name, summary_json.len()));
    }
    let value: Value = serde_json::from_str(summary_json).map_err(|error| {
        ServiceError::invalid_in(
            format!("{file_name}: what was read does not keep: {error}"),
            format!("{file_name}: Das Gelesene lässt sich nicht speichern: {error}"),
        )
    })?;
    check(file_name, &value, "", 0)
}

/// [`check_summary_text`] on a summary already as a value.
pub fn check_summary(file_name: &str, summary: &Value) -> Result<(), ServiceError> {
    let size = serde_json::to_vec(summary).map(|v| v.len()).unwrap_or(0);
    if size > MAX_SUMMARY_BYTES {
        return Err(too_big(file_name, size));
    }
    check(file_name, summary, "", 0)
}

fn too_big(file_name: &str, size: usize) -> ServiceError {
    ServiceError::invalid_in(
        format!(
            "{file_name}: what was read from it takes {} MiB, more than the {} MiB one file may \
             keep (split the file)",
            size / (1024 * 1024),
            MAX_SUMMARY_BYTES / (1024 * 1024)
        ),
        format!(
            "{file_name}: Das daraus Gelesene belegt {} MiB, mehr als die {} MiB, die eine Datei \
             speichern darf (teilen Sie die Datei)",
            size / (1024 * 1024),
            MAX_SUMMARY_BYTES / (1024 * 1024)
        ),
    )
}

fn check(file_name: &str, value: &Value, path: &str, depth: usize) -> Result<(), ServiceError> {
    if depth > MAX_DEPTH {
        return Err(ServiceError::invalid_in(
            format!("{file_name}: field \"{path}\": nested deeper than {MAX_DEPTH} levels"),
            format!("{file_name}: Feld \"{path}\": tiefer verschachtelt als {MAX_DEPTH} Ebenen"),
        ));
    }
    match value {
        Value::String(text) => check_text(file_name, path, text),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check(file_name, item, &format!("{path}[{i}]"), depth + 1)),
        Value::Object(fields) => fields.iter().try_for_each(|(key, item)| {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            if key.chars().count() > MAX_IDENTIFIER_CHARS {
                let short: String = key.chars().take(40).collect();
                return Err(ServiceError::invalid_in(
                    format!(
                        "{file_name}: a field name of {} characters (“{short}…”) is longer than \
                         {MAX_IDENTIFIER_CHARS}",
                        key.chars().count()
                    ),
                    format!(
                        "{file_name}: ein Feldname mit {} Zeichen („{short}…“) ist länger als \
                         {MAX_IDENTIFIER_CHARS}",
                        key.chars().count()
                    ),
                ));
            }
            check(file_name, item, &at, depth + 1)
        }),
        _ => Ok(()),
    }
}

fn check_text(file_name: &str, path: &str, text: &str) -> Result<(), ServiceError> {
    let field = path.rsplit(['.', '[']).next().unwrap_or(path);
    let identifier = IDENTIFIER_FIELDS.contains(&field);
    let limit = if identifier {
        MAX_IDENTIFIER_CHARS
    } else {
        MAX_TEXT_CHARS
    };
    // Counting stops at the limit: a 200 MB name is refused without walking all of it.
    let over = text.chars().nth(limit).is_some();
    if !over {
        return Ok(());
    }
    let (what, what_de) = if identifier {
        ("a name or label", "ein Name oder eine Bezeichnung")
    } else {
        ("a text", "ein Text")
    };
    let count = text.chars().count();
    Err(ServiceError::invalid_in(
        format!(
            "{file_name}: field \"{path}\": {count} characters, more than {what} may have ({limit})"
        ),
        format!(
            "{file_name}: Feld \"{path}\": {count} Zeichen, mehr als {what_de} haben darf ({limit})"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_long_model_name_is_refused_naming_the_field_and_the_bound() {
        let summary = json!({"points": [{"model": "m".repeat(300), "tool": "vllm"}]});
        let error = check_summary("bench.json", &summary)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "bench.json: field \"points[0].model\": 300 characters, more than a name or label may have (256)"
        );
        let fine =
            json!({"points": [{"model": "Qwen/Qwen2.5-7B-Instruct", "note": "n".repeat(5000)}]});
        assert!(check_summary("bench.json", &fine).is_ok());
    }

    #[test]
    fn long_texts_deep_nesting_and_long_field_names_are_refused() {
        let long = json!({"warnings": ["w".repeat(MAX_TEXT_CHARS + 1)]});
        assert!(
            check_summary("a.json", &long)
                .unwrap_err()
                .to_string()
                .contains("warnings[0]")
        );
        let mut deep = json!(1);
        for _ in 0..40 {
            deep = json!({ "x": deep });
        }
        assert!(
            check_summary("a.json", &deep)
                .unwrap_err()
                .to_string()
                .contains("nested deeper")
        );
        let key = json!({ "k".repeat(300): 1 });
        assert!(
            check_summary_text("a.json", &key.to_string())
                .unwrap_err()
                .to_string()
                .contains("a field name of 300 characters")
        );
    }
}
