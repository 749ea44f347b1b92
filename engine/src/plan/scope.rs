//! Which traffic a pass mark (or a figure) is about.
//!
//! Prompt shape decides the ceiling, so load-test results are kept per scenario and a mark can be
//! written for one scenario; a mark can also be written for the load test at the planned peak
//! concurrency. A figure is graded only against a mark of the same scope.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The traffic a mark or figure covers.
///
/// Serde: `"all_traffic"`, `{"scenario": "<name>"}`, `"planned_peak"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Every request of the pilot.
    #[default]
    AllTraffic,
    /// The requests of one named scenario of the plan.
    Scenario(String),
    /// A load test at the planned peak concurrency.
    PlannedPeak,
}

impl Scope {
    /// Whether two scopes are the same (scenario names compare ignoring case and outer spaces).
    pub fn same_as(&self, other: &Scope) -> bool {
        match (self, other) {
            (Scope::Scenario(a), Scope::Scenario(b)) => a.trim().eq_ignore_ascii_case(b.trim()),
            _ => self == other,
        }
    }

    /// The form value: `all_traffic`, `scenario:<name>`, `planned_peak`.
    pub fn form_value(&self) -> String {
        match self {
            Scope::AllTraffic => "all_traffic".into(),
            Scope::Scenario(name) => format!("scenario:{name}"),
            Scope::PlannedPeak => "planned_peak".into(),
        }
    }

    /// Parses a form value; empty means all traffic.
    pub fn parse(text: &str) -> Option<Scope> {
        let text = text.trim();
        if let Some((kind, name)) = text.split_once(':')
            && kind.trim().eq_ignore_ascii_case("scenario")
        {
            let name = name.trim();
            return (!name.is_empty()).then(|| Scope::Scenario(name.to_string()));
        }
        match text.to_ascii_lowercase().as_str() {
            "" | "all" | "all_traffic" => Some(Scope::AllTraffic),
            "peak" | "planned_peak" => Some(Scope::PlannedPeak),
            _ => None,
        }
    }

    /// A phrase to append to a sentence: empty, `, in the “RAG” scenario`,
    /// `, at the planned peak concurrency`.
    pub fn sentence_suffix(&self) -> String {
        match self {
            Scope::AllTraffic => String::new(),
            Scope::Scenario(name) => format!(", in the “{}” scenario", name.trim()),
            Scope::PlannedPeak => ", at the planned peak concurrency".into(),
        }
    }
}

impl Scope {
    /// The scope as a noun phrase in `lang`: `all traffic` / `alle Anfragen`,
    /// `das Szenario „RAG“`, `die geplante Spitzen-Parallelität`.
    pub fn text_in(&self, lang: crate::locale::Lang) -> String {
        match (self, lang) {
            (scope, crate::locale::Lang::En) => scope.to_string(),
            (Scope::AllTraffic, _) => "alle Anfragen".into(),
            (Scope::Scenario(name), _) => format!("das Szenario „{}“", name.trim()),
            (Scope::PlannedPeak, _) => "die geplante Spitzen-Parallelität".into(),
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::AllTraffic => f.write_str("all traffic"),
            Scope::Scenario(name) => write!(f, "scenario “{}”", name.trim()),
            Scope::PlannedPeak => f.write_str("the planned peak concurrency"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_values_round_trip() {
        for scope in [
            Scope::AllTraffic,
            Scope::Scenario("RAG lookups".into()),
            Scope::PlannedPeak,
        ] {
            assert_eq!(Scope::parse(&scope.form_value()), Some(scope));
        }
        assert_eq!(Scope::parse(""), Some(Scope::AllTraffic));
        assert_eq!(Scope::parse("scenario: "), None);
        assert_eq!(Scope::parse("somewhere"), None);
    }

    #[test]
    fn serde_shape_is_stable() {
        assert_eq!(
            serde_json::to_string(&Scope::AllTraffic).unwrap(),
            "\"all_traffic\""
        );
        assert_eq!(
            serde_json::to_string(&Scope::Scenario("RAG".into())).unwrap(),
            r#"{"scenario":"RAG"}"#
        );
        assert_eq!(
            serde_json::to_string(&Scope::PlannedPeak).unwrap(),
            "\"planned_peak\""
        );
    }

    #[test]
    fn scenario_names_compare_loosely() {
        assert!(Scope::Scenario("RAG".into()).same_as(&Scope::Scenario(" rag ".into())));
        assert!(!Scope::Scenario("RAG".into()).same_as(&Scope::AllTraffic));
    }
}
