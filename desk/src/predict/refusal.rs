//! Why the pilot's evidence gives no capacity twin, as data worded in either language.
//!
//! Its own module so that the twin cache ([`crate::twin_cache`]), which keeps a refusal beside
//! each fit, and the fit itself ([`super::service`]) both use it without importing each other.

use engine::locale::Lang;
use engine::twin::TwinError;

/// Why no twin could be built from the evidence.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TwinInputError {
    #[error("there are no load-test operating points to fit the capacity twin on")]
    NoPoints,
    /// The asked configuration is not among those of the load tests.
    #[error(
        "configuration {asked}: no such serving configuration; the load tests hold: {available}"
    )]
    NoSuchConfiguration { asked: String, available: String },
    /// The load tests hold several configurations and none was asked for.
    #[error("the load tests hold {count} serving configurations; choose one: {available}")]
    SeveralConfigurations { count: usize, available: String },
    #[error("{0}")]
    Fit(#[from] TwinError),
}

impl TwinInputError {
    /// Why no twin could be built, in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        match (self, lang) {
            (TwinInputError::Fit(e), lang) => e.text_in(lang),
            (other, Lang::En) => other.to_string(),
            (TwinInputError::NoPoints, Lang::De) => {
                "es gibt keine Betriebspunkte aus Lasttests, an die sich der Kapazitäts-Zwilling anpassen ließe".into()
            }
            (TwinInputError::NoSuchConfiguration { asked, available }, Lang::De) => format!(
                "Konfiguration {asked}: keine solche Serving-Konfiguration; die Lasttests enthalten: {available}"
            ),
            (TwinInputError::SeveralConfigurations { count, available }, Lang::De) => format!(
                "die Lasttests enthalten {count} Serving-Konfigurationen; eine wählen: {available}"
            ),
        }
    }
}

/// Why the pilot's evidence gives no twin: worded for either language, and kept by
/// [`crate::twin_cache`] since the same evidence fails the same way.
#[derive(Clone, Debug, PartialEq)]
pub enum FitRefusal {
    /// The pilot has no load test of its own model and GPU.
    NoLoadTest,
    Input(TwinInputError),
}

impl FitRefusal {
    /// The reason in `lang` on its own, for a page that already says it is about the twin.
    pub fn reason_in(&self, lang: Lang) -> String {
        match self {
            FitRefusal::Input(e) => e.text_in(lang),
            FitRefusal::NoLoadTest => self.text_in(lang),
        }
    }

    /// The reason in `lang`, naming what to change (`configuration: …`, `capacity twin: …`).
    pub fn text_in(&self, lang: Lang) -> String {
        match (self, lang) {
            (FitRefusal::NoLoadTest, Lang::En) => "the pilot has no load test to fit the capacity twin on: upload vllm bench serve, AIPerf, GenAI-Perf or guidellm results first".into(),
            (FitRefusal::NoLoadTest, Lang::De) => "der Pilot hat keinen Lasttest, an den sich der Kapazitäts-Zwilling anpassen ließe: zuerst Ergebnisse von vllm bench serve, AIPerf, GenAI-Perf oder guidellm hochladen".into(),
            (
                FitRefusal::Input(
                    e @ (TwinInputError::NoSuchConfiguration { .. }
                    | TwinInputError::SeveralConfigurations { .. }),
                ),
                lang,
            ) => format!("{}: {}", lang.pick("configuration", "Konfiguration"), e.text_in(lang)),
            (FitRefusal::Input(e), lang) => format!(
                "{}: {}",
                lang.pick("capacity twin", "Kapazitäts-Zwilling"),
                e.text_in(lang)
            ),
        }
    }
}
