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

use crate::locale::Lang;
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
    /// Why the file's figures are not the pilot's, in English; `None` when they may be graded.
    pub not_comparable: Option<String>,
    /// The same reason as data, to be worded in any language ([`Mismatch::reason_in`]).
    /// Absent on checks stored before it existed: their English reason then stands.
    #[serde(default)]
    pub mismatch: Option<Mismatch>,
    /// What the file leaves unstated (graded, but flagged): `model not stated in the file`.
    pub caveats: Vec<String>,
}

impl FileCheck {
    /// True when the figures may be graded.
    pub fn is_comparable(&self) -> bool {
        self.not_comparable.is_none()
    }

    /// Why the file's figures are not the pilot's, in `lang`; `None` when they may be graded.
    pub fn reason_in(&self, lang: Lang) -> Option<String> {
        reason_in(&self.not_comparable, &self.mismatch, lang)
    }
}

/// A stored English `reason` or its `mismatch` worded in `lang`.
pub fn reason_in(
    reason: &Option<String>,
    mismatch: &Option<Mismatch>,
    lang: Lang,
) -> Option<String> {
    match mismatch {
        Some(m) => Some(m.reason_in(lang)),
        None => reason.clone(),
    }
}

/// A figure's caveat in `lang`: the ones this module and [`super::collect`] write are
/// translated, any other stays as written.
pub fn caveat_in(caveat: &str, lang: Lang) -> String {
    let german = match caveat {
        "model not stated in the file" => "Modell in der Datei nicht angegeben",
        "GPU not stated in the file" => "GPU in der Datei nicht angegeben",
        "sample count not stated in the file" => "Zahl der Anfragen in der Datei nicht angegeben",
        _ => caveat,
    };
    lang.pick(caveat, german).to_string()
}

/// Which kind of evidence file a check is about: the reason names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    LoadTest,
    Scrape,
    GatewayLog,
    StartupLog,
    EvaluationRun,
    LmEvalResults,
}

impl FileKind {
    /// The kind as a label: `load test` / `Lasttest`.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (FileKind::LoadTest, Lang::En) => "load test",
            (FileKind::Scrape, Lang::En) => "/metrics scrape",
            (FileKind::GatewayLog, Lang::En) => "gateway log",
            (FileKind::StartupLog, Lang::En) => "start-up log",
            (FileKind::EvaluationRun, Lang::En) => "evaluation run",
            (FileKind::LmEvalResults, Lang::En) => "lm-eval results",
            (FileKind::LoadTest, Lang::De) => "Lasttest",
            (FileKind::Scrape, Lang::De) => "/metrics-Scrape",
            (FileKind::GatewayLog, Lang::De) => "Gateway-Log",
            (FileKind::StartupLog, Lang::De) => "Start-Log",
            (FileKind::EvaluationRun, Lang::De) => "Evaluationslauf",
            (FileKind::LmEvalResults, Lang::De) => "lm-eval-Ergebnisse",
        }
    }

    /// The kind in the plural: `load tests` / `Lasttests`.
    pub fn plural_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (FileKind::LoadTest, Lang::En) => "load tests",
            (FileKind::Scrape, Lang::En) => "/metrics scrapes",
            (FileKind::GatewayLog, Lang::En) => "gateway logs",
            (FileKind::StartupLog, Lang::En) => "start-up logs",
            (FileKind::EvaluationRun, Lang::En) => "evaluation runs",
            (FileKind::LmEvalResults, Lang::En) => "lm-eval results",
            (FileKind::LoadTest, Lang::De) => "Lasttests",
            (FileKind::Scrape, Lang::De) => "/metrics-Scrapes",
            (FileKind::GatewayLog, Lang::De) => "Gateway-Logs",
            (FileKind::StartupLog, Lang::De) => "Start-Logs",
            (FileKind::EvaluationRun, Lang::De) => "Evaluationsläufe",
            (FileKind::LmEvalResults, Lang::De) => "lm-eval-Ergebnisse",
        }
    }

    /// The kind as a reason's subject: `the load test` / `Lasttest` (German names the kind as
    /// a label, which needs no grammatical gender).
    fn name_in(self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("the {}", self.label_in(lang)),
            Lang::De => self.label_in(lang).to_string(),
        }
    }
}

/// A file that is not about the pilot: which file, and what it was measured with instead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    pub kind: FileKind,
    /// The file's name as uploaded; empty when the kind alone names it (the gateway log).
    pub file: String,
    pub other: Other,
}

/// What a file was measured with instead of the pilot's own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Other {
    /// The models the file states, none of them the pilot's.
    Model { stated: Vec<String>, pilot: String },
    /// The GPU the file states, not the pilot's.
    Gpu { stated: String, pilot: String },
}

impl Mismatch {
    /// The reason in `lang`: `the load test a.json was measured with model “m”, but the pilot
    /// serves “p”: its figures are another model's`.
    pub fn reason_in(&self, lang: Lang) -> String {
        let file = match self.file.trim() {
            "" => self.kind.name_in(lang),
            name => format!("{} {name}", self.kind.name_in(lang)),
        };
        worded(&file, false, &self.other, lang)
    }

    /// One reason for several files of `kind` measured with the same `other` model or GPU:
    /// up to three are named (`the /metrics scrapes a, b and c were measured …`), more are
    /// counted with the first and the last (`42 /metrics scrapes (from a to z) were …`), so a
    /// pilot pulled every minute from the wrong server gets one warning, not thousands.
    pub fn reason_for_files_in(
        kind: FileKind,
        files: &[&str],
        other: &Other,
        lang: Lang,
    ) -> String {
        let (and, from, to) = match lang {
            Lang::En => ("and", "from", "to"),
            Lang::De => ("und", "von", "bis"),
        };
        let subject = match files {
            [] => kind.name_in(lang),
            [one] => return worded(&format!("{} {one}", kind.name_in(lang)), false, other, lang),
            [rest @ .., last] if files.len() <= 3 => {
                let listed = format!("{} {and} {last}", rest.join(", "));
                match lang {
                    Lang::En => format!("the {} {listed}", kind.plural_in(lang)),
                    Lang::De => format!("{} {listed}", kind.plural_in(lang)),
                }
            }
            [first, .., last] => format!(
                "{} {} ({from} {first} {to} {last})",
                files.len(),
                kind.plural_in(lang)
            ),
        };
        worded(&subject, true, other, lang)
    }
}

/// `{subject} was measured with model …` (`were` for several files), in `lang`.
fn worded(subject: &str, several: bool, other: &Other, lang: Lang) -> String {
    let quoted = |names: &[String]| {
        names
            .iter()
            .map(|m| match lang {
                Lang::En => format!("“{}”", m.trim()),
                Lang::De => format!("„{}“", m.trim()),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (was, its) = if several {
        ("were", "their")
    } else {
        ("was", "its")
    };
    match (other, lang) {
        (Other::Model { stated, pilot }, Lang::En) => format!(
            "{subject} {was} measured with model {}, but the pilot serves “{}”: {its} figures are another model's",
            quoted(stated),
            pilot.trim()
        ),
        (Other::Model { stated, pilot }, Lang::De) => format!(
            "{subject}: mit dem Modell {} gemessen, der Pilot betreibt aber „{}“; die Zahlen gehören zu einem anderen Modell",
            quoted(stated),
            pilot.trim()
        ),
        (Other::Gpu { stated, pilot }, Lang::En) => format!(
            "{subject} {was} measured on {}, but the pilot runs on {}: latency and throughput belong to the GPU they were measured on",
            stated.trim(),
            pilot.trim()
        ),
        (Other::Gpu { stated, pilot }, Lang::De) => format!(
            "{subject}: auf {} gemessen, der Pilot läuft aber auf {}; Latenz und Durchsatz gehören zu der GPU, auf der sie gemessen wurden",
            stated.trim(),
            pilot.trim()
        ),
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

/// Checks the file `file` of `kind` stating `models` (any of them may be the pilot's: a
/// gateway log can carry several) and `gpu` against the pilot; `hardware_bound` says whether
/// its figures belong to the GPU.
pub fn check_file(
    pilot: &PilotIdentity,
    kind: FileKind,
    file: &str,
    models: &[String],
    gpu: Option<&str>,
    hardware_bound: bool,
) -> FileCheck {
    let mut out = FileCheck::default();
    let stated: Vec<String> = models
        .iter()
        .filter(|m| !model_forms(m).is_empty())
        .map(|m| m.trim().to_string())
        .collect();
    let mismatch = |other: Other| Mismatch {
        kind,
        file: file.trim().to_string(),
        other,
    };
    if stated.is_empty() {
        out.caveats.push("model not stated in the file".into());
    } else if !pilot.model.trim().is_empty()
        && !stated
            .iter()
            .any(|m| same_model(m, &pilot.model) == Some(true))
    {
        out.mismatch = Some(mismatch(Other::Model {
            stated,
            pilot: pilot.model.trim().to_string(),
        }));
    }
    if hardware_bound && out.mismatch.is_none() {
        match gpu.map(str::trim).filter(|g| !g.is_empty()) {
            None => out.caveats.push("GPU not stated in the file".into()),
            Some(gpu) if same_gpu_name(gpu, &pilot.gpu) == Some(false) => {
                out.mismatch = Some(mismatch(Other::Gpu {
                    stated: gpu.to_string(),
                    pilot: pilot.gpu.trim().to_string(),
                }));
            }
            Some(_) => {}
        }
    }
    out.not_comparable = out.mismatch.as_ref().map(|m| m.reason_in(Lang::En));
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
    fn files_of_the_same_other_model_are_one_reason() {
        let other = Other::Model {
            stated: vec!["opt-125m".into()],
            pilot: "Qwen/Qwen3-8B".into(),
        };
        let one = Mismatch::reason_for_files_in(FileKind::Scrape, &["a.prom"], &other, Lang::En);
        let single = Mismatch {
            kind: FileKind::Scrape,
            file: "a.prom".into(),
            other: other.clone(),
        };
        assert_eq!(one, single.reason_in(Lang::En), "one file reads as before");
        let three = Mismatch::reason_for_files_in(
            FileKind::Scrape,
            &["a.prom", "b.prom", "c.prom"],
            &other,
            Lang::En,
        );
        assert!(
            three.starts_with(
                "the /metrics scrapes a.prom, b.prom and c.prom were measured with model “opt-125m”"
            ),
            "{three}"
        );
        assert!(
            three.ends_with("their figures are another model's"),
            "{three}"
        );
        let names: Vec<String> = (0..42).map(|i| format!("s{i:02}.prom")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let many = Mismatch::reason_for_files_in(FileKind::Scrape, &names, &other, Lang::De);
        assert!(
            many.starts_with(
                "42 /metrics-Scrapes (von s00.prom bis s41.prom): mit dem Modell „opt-125m“"
            ),
            "{many}"
        );
        assert!(
            !many.contains("s20.prom"),
            "the middle ones are counted, not named"
        );
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
            FileKind::Scrape,
            "opt.txt",
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
        assert_eq!(
            scrape.reason_in(Lang::De).as_deref(),
            Some(
                "/metrics-Scrape opt.txt: mit dem Modell „facebook/opt-125m“ gemessen, der Pilot betreibt aber „RedHatAI/Qwen2.5-7B-Instruct“; die Zahlen gehören zu einem anderen Modell"
            )
        );
        let other_gpu = check_file(
            &pilot(),
            FileKind::LoadTest,
            "h100.json",
            &["Qwen/Qwen2.5-7B-Instruct".into()],
            Some("NVIDIA H100 80GB HBM3"),
            true,
        );
        assert!(
            other_gpu
                .reason_in(Lang::De)
                .unwrap()
                .starts_with("Lasttest h100.json: auf NVIDIA H100 80GB HBM3 gemessen, der Pilot läuft aber auf Tesla V100-SXM2-16GB;")
        );
        assert!(
            other_gpu
                .not_comparable
                .unwrap()
                .starts_with("the load test h100.json was measured on NVIDIA H100 80GB HBM3, but the pilot runs on Tesla V100-SXM2-16GB")
        );
        let same = check_file(
            &pilot(),
            FileKind::LoadTest,
            "v100.json",
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
            FileKind::LoadTest,
            "x.json",
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
            FileKind::EvaluationRun,
            "",
            &["Qwen2.5-7B-Instruct".into()],
            Some("H100"),
            false,
        );
        assert!(eval.is_comparable() && eval.caveats.is_empty());
    }
}
