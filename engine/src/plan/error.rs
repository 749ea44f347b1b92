//! Problems found in a plan, named so a form can point at the field.
//!
//! Errors block saving (or approving); warnings are shown next to the field and do not. Both name
//! the section, the item's position (0-based `index`; people see `number()` = index + 1) and the
//! field, using the field names of the plan forms.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The part of a plan a problem or a change is in. Serde names: `pass_mark`, `scenario`,
/// `demand`, `quality`, `serving`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanSection {
    PassMark,
    Scenario,
    Demand,
    Quality,
    Serving,
}

impl PlanSection {
    /// The serde name.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanSection::PassMark => "pass_mark",
            PlanSection::Scenario => "scenario",
            PlanSection::Demand => "demand",
            PlanSection::Quality => "quality",
            PlanSection::Serving => "serving",
        }
    }

    /// `pass mark`, `scenario`, `demand`, `quality set`, `pilot serving`.
    pub fn label(self) -> &'static str {
        match self {
            PlanSection::PassMark => "pass mark",
            PlanSection::Scenario => "scenario",
            PlanSection::Demand => "demand",
            PlanSection::Quality => "quality set",
            PlanSection::Serving => "pilot serving",
        }
    }
}

fn location(section: PlanSection, index: Option<usize>) -> String {
    match index {
        Some(index) => format!("{} {}", section.label(), index + 1),
        None => section.label().to_string(),
    }
}

/// A field of a plan that failed validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{}, {field}: {message}", location(*section, *index))]
pub struct PlanFieldError {
    pub section: PlanSection,
    /// Position of the pass mark or scenario (0-based); `None` for demand, quality and serving.
    pub index: Option<usize>,
    /// The form field, e.g. `threshold`.
    pub field: String,
    pub message: String,
}

impl PlanFieldError {
    pub(crate) fn new(
        section: PlanSection,
        index: Option<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> Self {
        PlanFieldError {
            section,
            index,
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// The item's number as people count (index + 1).
    pub fn number(&self) -> Option<usize> {
        self.index.map(|index| index + 1)
    }
}

/// Every error found in a plan, in form order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub struct PlanErrors {
    pub errors: Vec<PlanFieldError>,
}

impl fmt::Display for PlanErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.errors.as_slice() {
            [] => f.write_str("no errors"),
            [only] => write!(f, "{only}"),
            [first, rest @ ..] => write!(f, "{first} (and {} more)", rest.len()),
        }
    }
}

impl PlanErrors {
    /// The errors of one pass mark (by 0-based index).
    pub fn for_pass_mark(&self, index: usize) -> impl Iterator<Item = &PlanFieldError> {
        self.errors
            .iter()
            .filter(move |e| e.section == PlanSection::PassMark && e.index == Some(index))
    }
}

/// Something worth a second look that does not block saving or approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanWarning {
    pub section: PlanSection,
    pub index: Option<usize>,
    pub field: String,
    pub message: String,
}

impl PlanWarning {
    pub(crate) fn new(
        section: PlanSection,
        index: Option<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> Self {
        PlanWarning {
            section,
            index,
            field: field.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for PlanWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {}: {}",
            location(self.section, self.index),
            self.field,
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_item_by_number_and_field() {
        let error = PlanFieldError::new(PlanSection::PassMark, Some(1), "threshold", "too big");
        assert_eq!(error.to_string(), "pass mark 2, threshold: too big");
        assert_eq!(error.number(), Some(2));
        let demand = PlanFieldError::new(PlanSection::Demand, None, "pilot_users", "zero");
        let all = PlanErrors {
            errors: vec![error.clone(), demand],
        };
        assert_eq!(
            all.to_string(),
            "pass mark 2, threshold: too big (and 1 more)"
        );
        assert_eq!(all.for_pass_mark(1).count(), 1);
        assert_eq!(all.for_pass_mark(0).count(), 0);
    }
}
