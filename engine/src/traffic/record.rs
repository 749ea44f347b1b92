//! The one record every gateway log becomes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How a request ended, as the gateway saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RequestStatus {
    /// An answer was delivered (possibly truncated: see `finish_reason`).
    Ok,
    /// The request failed (upstream error, rejected, gateway error).
    Error,
    /// The gateway or the client gave up waiting.
    Timeout,
    /// The client went away before the answer was complete. Such a request never reaches
    /// vLLM's success counter, which is why cancellations are counted at the gateway.
    Cancelled,
}

impl RequestStatus {
    pub const ALL: [RequestStatus; 4] = [
        RequestStatus::Ok,
        RequestStatus::Error,
        RequestStatus::Timeout,
        RequestStatus::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RequestStatus::Ok => "ok",
            RequestStatus::Error => "error",
            RequestStatus::Timeout => "timeout",
            RequestStatus::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for RequestStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RequestStatus {
    type Err = String;
    /// `ok`, `error`, `timeout`, `cancelled` (also the American `canceled`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "ok" => Ok(RequestStatus::Ok),
            "error" => Ok(RequestStatus::Error),
            "timeout" => Ok(RequestStatus::Timeout),
            "cancelled" | "canceled" => Ok(RequestStatus::Cancelled),
            other => Err(format!(
                "unknown status {other:?} (expected ok, error, timeout or cancelled)"
            )),
        }
    }
}

/// One request as logged by a gateway, normalised: instants in Unix milliseconds, token counts
/// in the model's own tokens.
///
/// Contract (enforced by the importers): `start_ms ≤ first_token_ms ≤ end_ms` when a first-token
/// time is present; token counts are 0 when a failed request did not report them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GatewayRecord {
    pub request_id: String,
    /// When the gateway received the request.
    pub start_ms: i64,
    /// When the first content token passed the gateway (streaming only).
    pub first_token_ms: Option<i64>,
    /// When the last byte of the answer (or the error) left the gateway.
    pub end_ms: i64,
    /// The model name the client asked for.
    pub model: String,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    pub status: RequestStatus,
    /// `stop`, `length` (truncated at `max_tokens`), `tool_calls`, … when the log has it.
    pub finish_reason: Option<String>,
}

impl GatewayRecord {
    /// End-to-end time at the gateway, ms.
    pub fn e2e_ms(&self) -> i64 {
        self.end_ms - self.start_ms
    }

    /// Time to first token at the gateway, ms (when the log has the first-token time).
    pub fn ttft_ms(&self) -> Option<i64> {
        self.first_token_ms.map(|t| t - self.start_ms)
    }

    /// Time per output token after the first, ms/token: (E2E − TTFT) ÷ (completion tokens − 1).
    /// Undefined (`None`) without a first-token time or for answers of fewer than 2 tokens.
    pub fn tpot_ms(&self) -> Option<f64> {
        let first = self.first_token_ms?;
        (self.completion_tokens >= 2)
            .then(|| (self.end_ms - first) as f64 / f64::from(self.completion_tokens - 1))
    }

    /// Prompt + answer tokens: what the request held in the KV cache at its end.
    pub fn context_tokens(&self) -> u32 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }

    /// Whether the answer was cut at the token limit (`finish_reason = length`).
    pub fn is_truncated(&self) -> bool {
        self.finish_reason.as_deref() == Some("length")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derives_latencies_from_instants() {
        let record = GatewayRecord {
            request_id: "r1".into(),
            start_ms: 1_000,
            first_token_ms: Some(1_250),
            end_ms: 3_250,
            model: "m".into(),
            prompt_tokens: 100,
            completion_tokens: 101,
            status: RequestStatus::Ok,
            finish_reason: Some("length".into()),
        };
        assert_eq!(record.e2e_ms(), 2_250);
        assert_eq!(record.ttft_ms(), Some(250));
        assert_eq!(record.tpot_ms(), Some(20.0));
        assert_eq!(record.context_tokens(), 201);
        assert!(record.is_truncated());
        let one_token = GatewayRecord {
            completion_tokens: 1,
            ..record
        };
        assert_eq!(one_token.tpot_ms(), None);
    }

    #[test]
    fn status_reads_and_writes_its_words() {
        for status in RequestStatus::ALL {
            assert_eq!(status.as_str().parse::<RequestStatus>(), Ok(status));
        }
        assert_eq!(
            "canceled".parse::<RequestStatus>(),
            Ok(RequestStatus::Cancelled)
        );
        assert!("fine".parse::<RequestStatus>().is_err());
    }
}
