//! The sizing catalog: reading it (everyone signed in; unit prices only for staff), GPUs and
//! prices (admins), models from a pasted Hugging Face config.json (assessors and admins).

use crate::ServiceError;
#[cfg(feature = "server")]
use crate::model::SizingCatalog;
use serde::{Deserialize, Serialize};

/// A form field that may be left out: `NotSent` (absent: keep what is stored) is not the same as
/// sent empty (`Sent("")`: clear it). A plain `Option<String>` cannot tell them apart, since an
/// empty form value reads as `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum FormField {
    #[default]
    NotSent,
    Sent(String),
}

impl Serialize for FormField {
    /// `NotSent` as none, which form encodings leave out: it comes back as `NotSent`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FormField::NotSent => serializer.serialize_none(),
            FormField::Sent(text) => serializer.serialize_some(text),
        }
    }
}

impl<'de> Deserialize<'de> for FormField {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(FormField::Sent(
            Option::<String>::deserialize(deserializer)?.unwrap_or_default(),
        ))
    }
}

#[cfg(feature = "server")]
pub fn optional_number(field: &str, text: &str) -> Result<Option<f64>, ServiceError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let value: f64 = text.parse().map_err(|_| {
        ServiceError::invalid_in(
            format!("{field}: `{text}` is not a number"),
            format!("{field}: `{text}` ist keine Zahl"),
        )
    })?;
    if !(value.is_finite() && value >= 0.0) {
        return Err(ServiceError::invalid_in(
            format!("{field}: must be zero or more"),
            format!("{field}: muss null oder mehr sein"),
        ));
    }
    Ok(Some(value))
}

/// The price per GPU-hour a form asks for: [`FormField::NotSent`] keeps the GPU's
/// current one, an empty field clears it, anything else must be a number of zero or more.
#[cfg(feature = "server")]
pub fn hour_price_or_kept(
    catalog: &SizingCatalog,
    id: &str,
    asked: &FormField,
) -> Result<Option<f64>, ServiceError> {
    match asked {
        FormField::Sent(text) => optional_number("hour_price", text),
        FormField::NotSent => Ok(catalog.gpu(id).and_then(|g| g.hour_price)),
    }
}

/// The currency a form asks for: three letters (ISO 4217, e.g. `EUR`, any case), or empty for
/// none.
pub fn parse_currency(text: &str) -> Result<Option<String>, ServiceError> {
    let code = text.trim().to_ascii_uppercase();
    if code.is_empty() {
        return Ok(None);
    }
    if code.len() != 3 || !code.chars().all(|c| c.is_ascii_uppercase()) {
        return Err(ServiceError::invalid_in(
            format!(
                "currency: `{}` is not a three-letter currency code such as EUR or USD",
                text.trim()
            ),
            format!(
                "currency: `{}` ist kein dreibuchstabiger Währungscode wie EUR oder USD",
                text.trim()
            ),
        ));
    }
    Ok(Some(code))
}

/// The pilot's model in the catalog (its id, or a name that matches one).
#[cfg(feature = "server")]
pub fn pilot_model(
    catalog: &SizingCatalog,
    pilot: &crate::model::Pilot,
) -> Option<engine::sizing::ModelSpec> {
    let wanted = guess_model_id(&pilot.model);
    catalog
        .models
        .iter()
        .find(|m| Some(&m.spec.id) == wanted.as_ref() || m.spec.id == pilot.model.trim())
        .map(|m| m.spec.clone())
}

/// A catalog model id for free text such as `RedHatAI/Qwen2.5-7B-Instruct`, if one matches.
pub fn guess_model_id(text: &str) -> Option<String> {
    let wanted = normalise(text.rsplit('/').next().unwrap_or(text));
    engine::sizing::models()
        .into_iter()
        .filter(|m| {
            let id = normalise(&m.id);
            wanted.starts_with(&id) || normalise(&m.name).starts_with(&wanted) && !wanted.is_empty()
        })
        .max_by_key(|m| m.id.len())
        .map(|m| m.id)
}

/// A catalog GPU id for free text such as `Tesla V100-SXM2-16GB`, if one matches.
pub fn guess_gpu_id(text: &str) -> Option<String> {
    let wanted = normalise(text);
    engine::sizing::gpus()
        .into_iter()
        .filter(|g| {
            wanted.contains(&normalise(&g.id))
                || normalise(&g.name).contains(&wanted) && !wanted.is_empty()
        })
        .max_by_key(|g| g.id.len())
        .map(|g| g.id)
}

fn normalise(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect()
}

#[cfg(test)]
mod guess_tests {
    use super::*;

    #[test]
    fn pilot_notes_map_to_catalog_ids() {
        assert_eq!(
            guess_model_id("RedHatAI/Qwen2.5-7B-Instruct").as_deref(),
            Some("qwen2.5-7b")
        );
        assert_eq!(
            guess_gpu_id("Tesla V100-SXM2-16GB").as_deref(),
            Some("v100-sxm2-16gb")
        );
        assert_eq!(guess_gpu_id("NVIDIA L40S").as_deref(), Some("l40s"));
        assert_eq!(guess_model_id("something else"), None);
        assert_eq!(guess_gpu_id(""), None);
    }
}

#[cfg(feature = "server")]
pub mod service;
