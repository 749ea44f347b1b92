//! Where a figure is measured, and what that point includes.
//!
//! The same request has a different TTFT at the client (network, gateway, queue, tokenisation
//! and prefill), at the gateway (everything behind the gateway) and in the engine (vLLM's
//! histogram starts at tokenisation). A pass mark therefore names its point, and a figure from
//! another point is not graded against it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a figure is measured. Serde names: `client`, `gateway`, `engine`, `evaluation_set`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeasurementPoint {
    /// The caller's clock: a load-test tool or the user's application.
    #[default]
    Client,
    /// The API gateway's request log.
    Gateway,
    /// The serving engine's own metrics (e.g. vLLM's `/metrics`).
    Engine,
    /// The evaluation-set run that scores retrieval and answers.
    EvaluationSet,
}

impl MeasurementPoint {
    /// All points, in the order forms list them.
    pub const ALL: [MeasurementPoint; 4] = [
        MeasurementPoint::Client,
        MeasurementPoint::Gateway,
        MeasurementPoint::Engine,
        MeasurementPoint::EvaluationSet,
    ];

    /// The serde and form name.
    pub fn as_str(self) -> &'static str {
        match self {
            MeasurementPoint::Client => "client",
            MeasurementPoint::Gateway => "gateway",
            MeasurementPoint::Engine => "engine",
            MeasurementPoint::EvaluationSet => "evaluation_set",
        }
    }

    /// A label for form options.
    pub fn label(self) -> &'static str {
        match self {
            MeasurementPoint::Client => "Client",
            MeasurementPoint::Gateway => "Gateway",
            MeasurementPoint::Engine => "Engine",
            MeasurementPoint::EvaluationSet => "Evaluation set",
        }
    }

    /// Where, in German: `am Client`, `am Gateway`, `an der Engine`.
    pub fn german_at(self) -> &'static str {
        match self {
            MeasurementPoint::Client => "am Client",
            MeasurementPoint::Gateway => "am Gateway",
            MeasurementPoint::Engine => "an der Engine",
            MeasurementPoint::EvaluationSet => "auf dem Evaluationsdatensatz",
        }
    }

    /// `the client`, `the gateway`, `the engine`, `the evaluation set`.
    pub fn noun(self) -> &'static str {
        match self {
            MeasurementPoint::Client => "the client",
            MeasurementPoint::Gateway => "the gateway",
            MeasurementPoint::Engine => "the engine",
            MeasurementPoint::EvaluationSet => "the evaluation set",
        }
    }

    /// What a time measured here includes, for explanations.
    pub fn includes(self) -> &'static str {
        match self {
            MeasurementPoint::Client => "includes the network, any gateway and the queue",
            MeasurementPoint::Gateway => {
                "includes the gateway and everything behind it, not the client's network"
            }
            MeasurementPoint::Engine => {
                "starts inside the engine and leaves out the network and any gateway"
            }
            MeasurementPoint::EvaluationSet => "is scored on the evaluation set",
        }
    }

    /// Parses a form or API name.
    pub fn parse(text: &str) -> Option<MeasurementPoint> {
        let text = text.trim().to_ascii_lowercase();
        let alias = match text.as_str() {
            "server" | "vllm" => "engine",
            "evaluation" | "eval" | "eval_set" => "evaluation_set",
            other => other,
        };
        MeasurementPoint::ALL
            .into_iter()
            .find(|point| point.as_str() == alias)
    }
}

impl fmt::Display for MeasurementPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for point in MeasurementPoint::ALL {
            assert_eq!(MeasurementPoint::parse(point.as_str()), Some(point));
            assert_eq!(
                serde_json::to_string(&point).unwrap(),
                format!("\"{}\"", point.as_str())
            );
        }
        assert_eq!(
            MeasurementPoint::parse("vLLM"),
            Some(MeasurementPoint::Engine)
        );
        assert_eq!(MeasurementPoint::parse("browser"), None);
    }
}
