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

/// Why a log record is not part of the model's demand (LiteLLM; see [`super::litellm`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LeftOut {
    /// A health probe of the gateway (LiteLLM's `/health` checks, or a probe its auth refused).
    HealthProbe,
    /// A call that generates no text for a client: its `call_type` (`aembedding`, `/key/info`).
    NotGeneration(String),
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
    /// What the log says beyond whole milliseconds (LiteLLM's float-second instants); empty for
    /// logs in milliseconds.
    #[serde(default, skip_serializing_if = "LogDetail::is_empty")]
    pub detail: LogDetail,
}

/// Latencies finer than the record's whole-millisecond instants, and first-token times the log
/// has but that cannot be one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogDetail {
    /// E2E in microseconds, computed from the log's own (sub-millisecond) instants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e2e_us: Option<i64>,
    /// TTFT in microseconds, likewise; only with a first-token time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_us: Option<i64>,
    /// The log's first-token time was set aside as no first token (LiteLLM's
    /// `completionStartTime` equal to `endTime` on a streamed call): TTFT and TPOT are unknown.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first_token_unknown: bool,
}

impl LogDetail {
    pub fn is_empty(&self) -> bool {
        *self == LogDetail::default()
    }
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

    /// End-to-end time at the gateway, ms, at the log's own precision (sub-millisecond when
    /// [`LogDetail::e2e_us`] is known).
    pub fn e2e_ms_exact(&self) -> f64 {
        match self.detail.e2e_us {
            Some(us) => us as f64 / 1000.0,
            None => self.e2e_ms() as f64,
        }
    }

    /// Time to first token at the gateway, ms, at the log's own precision.
    pub fn ttft_ms_exact(&self) -> Option<f64> {
        let ttft = self.ttft_ms()?;
        Some(match self.detail.ttft_us {
            Some(us) => us as f64 / 1000.0,
            None => ttft as f64,
        })
    }

    /// Time per output token after the first, ms/token: (E2E − TTFT) ÷ (completion tokens − 1),
    /// from the log's sub-millisecond latencies when it has them. Undefined (`None`) without a
    /// first-token time or for answers of fewer than 2 tokens.
    pub fn tpot_ms(&self) -> Option<f64> {
        let first = self.first_token_ms?;
        let after_first_ms = match (self.detail.e2e_us, self.detail.ttft_us) {
            (Some(e2e), Some(ttft)) => (e2e - ttft) as f64 / 1000.0,
            _ => (self.end_ms - first) as f64,
        };
        (self.completion_tokens >= 2)
            .then(|| after_first_ms / f64::from(self.completion_tokens - 1))
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
            detail: LogDetail::default(),
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
