//! Is this evidence file about the pilot at all? Its model and hardware against the pilot's.
//!
//! A load test of another model, a `/metrics` scrape of another server or an evaluation run of
//! another checkpoint can be uploaded to the wrong pilot, or kept as a reference, and its figures
//! then look exactly like the pilot's (an opt-125m scrape and a gpt-oss AIPerf run once graded a
//! Qwen3-4B pilot). So every file's model and GPU, where the file states them, are checked
//! against the pilot's before any of its figures grades a mark:
//!
//! * **the same model** ([`same_model`]): names compared without the organisation (`RedHatAI/`),
//!   case, punctuation and a quantisation suffix, either containing the other
//!   (`Qwen/Qwen2.5-7B-Instruct` = `qwen2.5-7b-instruct` = `redhataiqwen25-7b-instruct`, but
//!   `Qwen2.5-7B` ≠ `Qwen2.5-72B` ≠ `Qwen3-4B`). A path without a name (`/mnt/models`) states
//!   nothing;
//! * **the same GPU** ([`crate::sizing::gpu::same_gpu_name`]): the same chip (`V100`, `H200`)
//!   and no qualifier stated differently (form factor, edition, memory size); only for evidence
//!   whose figures belong to the hardware (load tests, scrapes, start-up logs), not for
//!   evaluation runs, whose answers carry over to any GPU running the same model and precision.
//!
//! A mismatch makes the file **not comparable** with its reason: its figures grade nothing and
//! the verdict lists it as a warning. A file that does not say is graded, flagged "model not
//! stated in the file".

use crate::sizing::gpu::same_gpu_name;
use serde::{Deserialize, Serialize};

/// What the pilot is: its model and GPU as recorded on the pilot.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PilotIdentity {
    pub model: String,
    pub gpu: String,
}

/// The outcome for one file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileCheck {
    /// Why the file's figures are not the pilot's; `None` when they may be graded.
    pub not_comparable: Option<String>,
    /// What the file leaves unstated (graded, but flagged): `model not stated in the file`.
    pub caveats: Vec<String>,
}

impl FileCheck {
    /// True when the figures may be graded.
    pub fn is_comparable(&self) -> bool {
        self.not_comparable.is_none()
    }
}

/// Words that name no model: what a path or a default leaves.
const NO_MODEL: [&str; 6] = ["", "model", "models", "mntmodels", "default", "llm"];

/// Suffixes of a checkpoint name that describe its precision, not the model.
const PRECISION_SUFFIXES: [&str; 12] = [
    "fp8dynamic",
    "w4a16",
    "w8a8",
    "w8a16",
    "nvfp4",
    "mxfp4",
    "gptq",
    "int4",
    "int8",
    "awq",
    "fp8",
    "bf16",
];

fn alnum(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn strip_precision(mut name: String) -> String {
    loop {
        let before = name.len();
        for suffix in PRECISION_SUFFIXES {
            if name.len() > suffix.len() + 3 && name.ends_with(suffix) {
                name.truncate(name.len() - suffix.len());
            }
        }
        if name.len() == before {
            return name;
        }
    }
}

/// The forms of a model name compared: the whole name and the part after the last `/`, both
/// reduced to lowercase letters and digits without a precision suffix. Empty when the name
/// names no model.
fn model_forms(name: &str) -> Vec<String> {
    let trimmed = name.trim().trim_end_matches('/');
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    let base = strip_precision(alnum(base));
    if NO_MODEL.contains(&base.as_str()) {
        return Vec::new();
    }
    let whole = strip_precision(alnum(trimmed));
    if whole == base || trimmed.starts_with('/') {
        vec![base]
    } else {
        vec![base, whole]
    }
}

/// Whether two model names mean the same model; `None` when either names none.
pub fn same_model(a: &str, b: &str) -> Option<bool> {
    let (fa, fb) = (model_forms(a), model_forms(b));
    if fa.is_empty() || fb.is_empty() {
        return None;
    }
    let contains = |long: &str, short: &str| short.len() >= 3 && long.contains(short);
    Some(fa.iter().any(|x| {
        fb.iter()
            .any(|y| x == y || contains(x, y) || contains(y, x))
    }))
}

/// Checks a file stating `models` (any of them may be the pilot's: a gateway log can carry
/// several) and `gpu` against the pilot. `kind` names the file for the reason (`the load test
/// run.json`); `hardware_bound` says whether its figures belong to the GPU.
pub fn check_file(
    pilot: &PilotIdentity,
    kind: &str,
    models: &[String],
    gpu: Option<&str>,
    hardware_bound: bool,
) -> FileCheck {
    let mut out = FileCheck::default();
    let stated: Vec<&String> = models
        .iter()
        .filter(|m| !model_forms(m).is_empty())
        .collect();
    if stated.is_empty() {
        out.caveats.push("model not stated in the file".into());
    } else if !pilot.model.trim().is_empty()
        && !stated
            .iter()
            .any(|m| same_model(m, &pilot.model) == Some(true))
    {
        let names = stated
            .iter()
            .map(|m| format!("“{}”", m.trim()))
            .collect::<Vec<_>>()
            .join(", ");
        out.not_comparable = Some(format!(
            "{kind} was measured with model {names}, but the pilot serves “{}”: its figures are another model's",
            pilot.model.trim()
        ));
        return out;
    }
    if hardware_bound {
        match gpu.map(str::trim).filter(|g| !g.is_empty()) {
            None => out.caveats.push("GPU not stated in the file".into()),
            Some(gpu) => {
                if same_gpu_name(gpu, &pilot.gpu) == Some(false) {
                    out.not_comparable = Some(format!(
                        "{kind} was measured on {gpu}, but the pilot runs on {}: latency and throughput belong to the GPU they were measured on",
                        pilot.gpu.trim()
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pilot() -> PilotIdentity {
        PilotIdentity {
            model: "RedHatAI/Qwen2.5-7B-Instruct".into(),
            gpu: "Tesla V100-SXM2-16GB".into(),
        }
    }

    #[test]
    fn model_names_match_across_organisation_case_and_punctuation() {
        let same = |a: &str, b: &str| same_model(a, b);
        assert_eq!(
            same("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b-instruct"),
            Some(true)
        );
        assert_eq!(
            same("RedHatAI/Qwen2.5-7B-Instruct", "redhataiqwen25-7b-instruct"),
            Some(true)
        );
        assert_eq!(
            same("Qwen2.5-7B-Instruct-AWQ", "Qwen/Qwen2.5-7B-Instruct"),
            Some(true)
        );
        assert_eq!(same("Qwen2.5-7B", "Qwen2.5-72B"), Some(false));
        assert_eq!(same("facebook/opt-125m", "Qwen/Qwen3-4B"), Some(false));
        assert_eq!(same("openai/gpt-oss-20b", "Qwen3-4B"), Some(false));
        assert_eq!(same("/mnt/models", "Qwen3-4B"), None);
        assert_eq!(same("", "Qwen3-4B"), None);
    }

    #[test]
    fn another_models_file_is_not_comparable_and_says_why() {
        let scrape = check_file(
            &pilot(),
            "the /metrics scrape opt.txt",
            &["facebook/opt-125m".into()],
            None,
            false,
        );
        assert_eq!(
            scrape.not_comparable.as_deref(),
            Some(
                "the /metrics scrape opt.txt was measured with model “facebook/opt-125m”, but the pilot serves “RedHatAI/Qwen2.5-7B-Instruct”: its figures are another model's"
            )
        );
        let other_gpu = check_file(
            &pilot(),
            "the load test h100.json",
            &["Qwen/Qwen2.5-7B-Instruct".into()],
            Some("NVIDIA H100 80GB HBM3"),
            true,
        );
        assert!(
            other_gpu
                .not_comparable
                .unwrap()
                .starts_with("the load test h100.json was measured on NVIDIA H100 80GB HBM3, but the pilot runs on Tesla V100-SXM2-16GB")
        );
        let same = check_file(
            &pilot(),
            "the load test v100.json",
            &["redhataiqwen25-7b-instruct".into()],
            Some("V100"),
            true,
        );
        assert!(same.is_comparable() && same.caveats.is_empty());
    }

    #[test]
    fn a_file_that_does_not_say_is_graded_but_flagged() {
        let silent = check_file(
            &pilot(),
            "the load test x.json",
            &["/mnt/models".into()],
            None,
            true,
        );
        assert!(silent.is_comparable());
        assert_eq!(
            silent.caveats,
            vec!["model not stated in the file", "GPU not stated in the file"]
        );
        // An evaluation run's answers do not belong to a GPU.
        let eval = check_file(
            &pilot(),
            "the evaluation run",
            &["Qwen2.5-7B-Instruct".into()],
            Some("H100"),
            false,
        );
        assert!(eval.is_comparable() && eval.caveats.is_empty());
    }
}
