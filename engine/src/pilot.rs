//! The pilot: the unit every plan, piece of evidence and report hangs on.
//!
//! A pilot belongs to one customer organisation and records what is being tried: the model, the
//! pilot hardware (GPU type and count) and the serving engine with its version. Its status follows
//! the pilot's life: `planning` (writing the plan), `running` (pilot users are on it),
//! `reporting` (evidence is in, the report is being written) and `closed`.
//!
//! [`PilotFields::parse`] turns what a form or API sent into a validated value, so the store never
//! sees an empty name or a GPU count of zero.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Where a pilot is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum PilotStatus {
    #[default]
    Planning,
    Running,
    Reporting,
    Closed,
}

impl PilotStatus {
    pub const ALL: [PilotStatus; 4] = [
        PilotStatus::Planning,
        PilotStatus::Running,
        PilotStatus::Reporting,
        PilotStatus::Closed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PilotStatus::Planning => "planning",
            PilotStatus::Running => "running",
            PilotStatus::Reporting => "reporting",
            PilotStatus::Closed => "closed",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            PilotStatus::Planning => "Planning",
            PilotStatus::Running => "Running",
            PilotStatus::Reporting => "Reporting",
            PilotStatus::Closed => "Closed",
        }
    }

    /// The label in `lang` (the report's words: Planung, Laufend, Berichterstellung,
    /// Abgeschlossen).
    pub fn label_in(self, lang: crate::locale::Lang) -> &'static str {
        match self {
            PilotStatus::Planning => lang.pick("Planning", "Planung"),
            PilotStatus::Running => lang.pick("Running", "Laufend"),
            PilotStatus::Reporting => lang.pick("Reporting", "Berichterstellung"),
            PilotStatus::Closed => lang.pick("Closed", "Abgeschlossen"),
        }
    }

    /// [`PilotStatus::meaning`] in `lang`.
    pub fn meaning_in(self, lang: crate::locale::Lang) -> &'static str {
        match lang {
            crate::locale::Lang::En => self.meaning(),
            crate::locale::Lang::De => match self {
                PilotStatus::Planning => "Der Plan und seine Zielwerte werden geschrieben.",
                PilotStatus::Running => {
                    "Pilotnutzer arbeiten mit dem System; Nachweise werden gesammelt."
                }
                PilotStatus::Reporting => {
                    "Die Nachweise liegen vor; Ergebnis und Bericht werden geschrieben."
                }
                PilotStatus::Closed => "Der Pilot ist abgeschlossen.",
            },
        }
    }

    /// One sentence for people who do not know the life cycle yet.
    pub fn meaning(self) -> &'static str {
        match self {
            PilotStatus::Planning => "The plan and its pass marks are being written.",
            PilotStatus::Running => "Pilot users are on the system; evidence is being collected.",
            PilotStatus::Reporting => {
                "Evidence is in; the verdict and the report are being written."
            }
            PilotStatus::Closed => "The pilot is finished.",
        }
    }
}

impl fmt::Display for PilotStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PilotStatus {
    type Err = FieldError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PilotStatus::ALL
            .into_iter()
            .find(|status| status.as_str() == s.trim())
            .ok_or_else(|| FieldError {
                field: "status",
                message: format!(
                    "unknown status `{}` (expected planning, running, reporting or closed)",
                    s.trim()
                ),
            })
    }
}

/// A field of a submitted form that failed validation, named so the form can point at it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{field}: {message}")]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

fn field_error(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// Longest pilot name accepted.
pub const MAX_NAME_CHARS: usize = 120;
/// Longest description accepted.
pub const MAX_DESCRIPTION_CHARS: usize = 4_000;
/// Largest GPU count a pilot can note (a rack of eight-way nodes is far below this).
pub const MAX_GPU_COUNT: i64 = 4_096;

/// The editable fields of a pilot, validated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotFields {
    pub name: String,
    pub description: String,
    pub status: PilotStatus,
    /// The model under test, e.g. `Qwen/Qwen2.5-7B-Instruct`.
    pub model: String,
    /// The pilot GPU type as marketed, e.g. `Tesla V100-SXM2-32GB`.
    pub gpu_type: String,
    /// Number of GPUs the pilot serves on.
    pub gpu_count: i64,
    /// Serving engine, e.g. `vLLM`.
    pub engine: String,
    /// Engine version, e.g. `0.6.3`.
    pub engine_version: String,
}

/// Raw strings as a form posts them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PilotForm {
    pub name: String,
    pub description: String,
    pub status: String,
    pub model: String,
    pub gpu_type: String,
    pub gpu_count: String,
    pub engine: String,
    pub engine_version: String,
}

fn short_text(field: &'static str, value: &str, max: usize) -> Result<String, FieldError> {
    let value = value.trim();
    if value.chars().count() > max {
        return Err(field_error(
            field,
            format!("must be at most {max} characters"),
        ));
    }
    if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err(field_error(field, "must not contain control characters"));
    }
    Ok(value.to_string())
}

impl PilotFields {
    /// Validates a submitted form. Hardware notes may be empty while the pilot is being planned;
    /// a GPU count, when given, is a whole number from 1 to [`MAX_GPU_COUNT`].
    pub fn parse(form: &PilotForm) -> Result<Self, FieldError> {
        let name = short_text("name", &form.name, MAX_NAME_CHARS)?;
        if name.is_empty() {
            return Err(field_error("name", "a pilot needs a name"));
        }
        let status = if form.status.trim().is_empty() {
            PilotStatus::default()
        } else {
            form.status.parse()?
        };
        let gpu_count = match form.gpu_count.trim() {
            "" => 0,
            text => {
                let count: i64 = text.parse().map_err(|_| {
                    field_error("gpu_count", format!("`{text}` is not a whole number"))
                })?;
                if !(1..=MAX_GPU_COUNT).contains(&count) {
                    return Err(field_error(
                        "gpu_count",
                        format!("must be between 1 and {MAX_GPU_COUNT}"),
                    ));
                }
                count
            }
        };
        Ok(PilotFields {
            name,
            description: short_text("description", &form.description, MAX_DESCRIPTION_CHARS)?,
            status,
            model: short_text("model", &form.model, 200)?,
            gpu_type: short_text("gpu_type", &form.gpu_type, 120)?,
            gpu_count,
            engine: short_text("engine", &form.engine, 60)?,
            engine_version: short_text("engine_version", &form.engine_version, 60)?,
        })
    }

    /// `4 × Tesla V100-SXM2-32GB`, or an empty string when no hardware is noted.
    pub fn hardware_summary(&self) -> String {
        hardware_summary(self.gpu_count, &self.gpu_type)
    }
}

/// `4 × Tesla V100-SXM2-32GB`; empty when neither count nor type is known.
pub fn hardware_summary(gpu_count: i64, gpu_type: &str) -> String {
    match (gpu_count, gpu_type.trim()) {
        (0, "") => String::new(),
        (0, gpu) => gpu.to_string(),
        (n, "") => format!("{n} × GPU (type not noted)"),
        (n, gpu) => format!("{n} × {gpu}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> PilotForm {
        PilotForm {
            name: "  Support assistant  ".into(),
            status: "running".into(),
            gpu_count: "4".into(),
            gpu_type: "Tesla V100-SXM2-32GB".into(),
            ..PilotForm::default()
        }
    }

    #[test]
    fn a_valid_form_parses_and_trims() {
        let pilot = PilotFields::parse(&form()).unwrap();
        assert_eq!(pilot.name, "Support assistant");
        assert_eq!(pilot.status, PilotStatus::Running);
        assert_eq!(pilot.gpu_count, 4);
        assert_eq!(pilot.hardware_summary(), "4 × Tesla V100-SXM2-32GB");
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases = [
            (
                PilotForm {
                    name: " ".into(),
                    ..form()
                },
                "name",
            ),
            (
                PilotForm {
                    name: "x".repeat(121),
                    ..form()
                },
                "name",
            ),
            (
                PilotForm {
                    status: "done".into(),
                    ..form()
                },
                "status",
            ),
            (
                PilotForm {
                    gpu_count: "four".into(),
                    ..form()
                },
                "gpu_count",
            ),
            (
                PilotForm {
                    gpu_count: "0".into(),
                    ..form()
                },
                "gpu_count",
            ),
            (
                PilotForm {
                    gpu_count: "5000".into(),
                    ..form()
                },
                "gpu_count",
            ),
            (
                PilotForm {
                    model: "a\u{0}b".into(),
                    ..form()
                },
                "model",
            ),
        ];
        for (bad, field) in cases {
            assert_eq!(
                PilotFields::parse(&bad).unwrap_err().field,
                field,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn empty_status_and_gpu_count_take_defaults() {
        let pilot = PilotFields::parse(&PilotForm {
            status: String::new(),
            gpu_count: String::new(),
            gpu_type: String::new(),
            ..form()
        })
        .unwrap();
        assert_eq!(pilot.status, PilotStatus::Planning);
        assert_eq!(pilot.hardware_summary(), "");
    }
}
