//! LiteLLM proxy logs: `LiteLLM_SpendLogs` rows and `StandardLoggingPayload` objects.
//!
//! **SpendLogs** (the proxy's spend table, exported as CSV from the database or as the JSON array
//! `GET /spend/logs` returns): `request_id`, `startTime`, `endTime`, `completionStartTime`,
//! `model`, `model_group`, `prompt_tokens`, `completion_tokens`, `status`, and `response` when
//! prompts are stored. **StandardLoggingPayload** (what LiteLLM's logging callbacks write to
//! S3, GCS, files or OTel; usually one JSON object per line): `id`, `startTime`, `endTime`,
//! `completionStartTime` (float Unix seconds), `stream`, `status`, `model`, `model_group`,
//! `prompt_tokens`, `completion_tokens`, `response`, `error_str`, `error_information`.
//!
//! Decisions (LiteLLM is read leniently, it is not our schema):
//! * Model: `model_group` (the public name the client asked for) when present, else `model` (the
//!   upstream deployment string such as `hosted_vllm/...`).
//! * First token: `completionStartTime`. For a non-streaming call LiteLLM sets it to `endTime`,
//!   which is no time to first token, so it is kept only when the payload says `stream: true`,
//!   or, where the log does not say (SpendLogs), when it lies strictly before `endTime`. A
//!   streamed payload whose `completionStartTime` equals `endTime` has no first-token time
//!   LiteLLM could tell (TTFT would be the whole request, TPOT 0 ms): it is unknown, flagged
//!   ([`LogDetail::first_token_unknown`]) and counted in the import's notes.
//! * Precision: the float-second instants give the record's whole milliseconds, and E2E and
//!   TTFT to the microsecond ([`LogDetail`]), computed from the float values themselves; TPOT
//!   uses those.
//! * Status: `success` (or absent, as older SpendLogs only held successes) is `ok`; `failure`
//!   is `timeout` when the error code is 408/504 or the error mentions a timeout, `cancelled`
//!   when the code is 499 or the error mentions a cancellation or a disconnected client, and
//!   `error` otherwise.
//! * **A `success` that carries an error is no success.** When the client hangs up mid-stream,
//!   LiteLLM (1.108.7, real payloads in `testdata/litellm-1.108.7-generic-api/`) still logs
//!   `status: "success"`, with `error_information.error_code: "499"`, `error_class:
//!   "ClientDisconnected"`, `error_str: "Client disconnected the request"`, the tokens streamed
//!   so far and an invented `finish_reason: "stop"`. Any non-empty `error_code`, `error_class` or
//!   `error_str` on a `success` is therefore classified like a failure (499 → `cancelled`), and
//!   the finish reason LiteLLM wrote is dropped: the partial answer is no completed one, and its
//!   tokens and latencies stay out of the successful figures.
//! * **Only the model's demand is read.** LiteLLM logs more than chat and text completions:
//!   its own `/health` probes (`request_tags: ["litellm-internal-health-check"]`, empty
//!   `model_group`; a probe refused by the proxy's auth is logged with `call_type: "/health"` and
//!   model `""`), embeddings, files, batches, and requests refused before routing (`call_type`
//!   is then the route, `/key/info`). Records whose `call_type` is not a text-generation call
//!   ([`GENERATION_CALL_TYPES`]) and health probes are left out of the records and counted
//!   separately in the import summary ([`super::LeftOut`]), with a note. Records without a
//!   `call_type` (older SpendLogs) are read as before.
//! * Finish reason: `response.choices[0].finish_reason`, also when `response` is a JSON string
//!   (a CSV dump of the `jsonb` column); absent when prompts and responses are not stored.
//! * Token counts: absent counts are 0 (LiteLLM writes 0 for failed calls).
//! * A `completionStartTime` after `endTime` is refused whatever `stream` says (a first token
//!   after the last byte, TTFT > E2E); equal to it is LiteLLM's "no first-token time" (above).
//! * Date-times without an offset are UTC (see [`super::timestamp`]).

use super::fields::{self, FieldError, ObjectFields, ResponseProbe, Scalar, field_error};
use super::generic::check_order;
use super::record::{GatewayRecord, LeftOut, LogDetail, RequestStatus};
use super::timestamp::OffsetRule;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

const RULE: OffsetRule = OffsetRule::DefaultsToUtc;

/// The `call_type`s that generate text for a client: what the demand profile is made of. Any
/// other call type (embeddings, images, files, batches, a route such as `/health`) is left out.
pub const GENERATION_CALL_TYPES: [&str; 12] = [
    "completion",
    "acompletion",
    "text_completion",
    "atext_completion",
    "responses",
    "aresponses",
    "anthropic_messages",
    "aanthropic_messages",
    "generate_content",
    "agenerate_content",
    "generate_content_stream",
    "agenerate_content_stream",
];

/// The tag LiteLLM puts on the calls of its own health checks (`request_tags`).
pub const HEALTH_CHECK_TAG: &str = "litellm-internal-health-check";

/// CSV columns of a SpendLogs export, in the order [`SpendLogFields::from_columns`] expects.
/// Header names are matched without regard to case (database dumps may fold them).
pub const SPEND_LOG_COLUMNS: [&str; 12] = [
    "request_id",
    "startTime",
    "endTime",
    "completionStartTime",
    "model",
    "model_group",
    "prompt_tokens",
    "completion_tokens",
    "status",
    "response",
    "call_type",
    "request_tags",
];

/// The keys of a `StandardLoggingPayload` the reader reads ([`PayloadFields`]), plus
/// `litellm_call_id` (LiteLLM's own id of the call, for tracing one back).
pub const PAYLOAD_FIELDS: [&str; 17] = [
    "id",
    "litellm_call_id",
    "call_type",
    "stream",
    "status",
    "startTime",
    "endTime",
    "completionStartTime",
    "model",
    "model_group",
    "prompt_tokens",
    "completion_tokens",
    "response",
    "error_str",
    "error_information",
    "request_tags",
    "custom_llm_provider",
];

/// A LiteLLM record as kept from a gateway's live feed: only what the reader reads, and of the
/// response only its first choice's finish reason. The prompt and the answer (`messages`,
/// `response` content), the API-key metadata, costs and hidden parameters are left out: the
/// pilot's figures never need them, a pilot's users' words stay with the customer, and a real
/// payload shrinks from about 13 KB to under 1 KB. The result reads to the same record
/// (tested on LiteLLM 1.108.7's real posts). `None`: not a LiteLLM record (kept whole).
pub fn without_content(value: &serde_json::Value) -> Option<serde_json::Value> {
    let object = value.as_object()?;
    if !object.contains_key("startTime") {
        return None;
    }
    let keys: &[&str] = if object.contains_key("request_id") {
        &SPEND_LOG_COLUMNS
    } else if object.contains_key("id") {
        &PAYLOAD_FIELDS
    } else {
        return None;
    };
    let kept = keys
        .iter()
        .filter_map(|key| {
            let value = object.get(*key)?;
            let value = match *key {
                "response" => finish_reason_only(value)?,
                _ => value.clone(),
            };
            Some((key.to_string(), value))
        })
        .collect();
    Some(serde_json::Value::Object(kept))
}

/// `{"choices": [{"finish_reason": …}]}` of a response (an object, or JSON text of one), or
/// `None` when it names no finish reason.
fn finish_reason_only(response: &serde_json::Value) -> Option<serde_json::Value> {
    let probe: ResponseProbe = serde_json::from_value(response.clone()).ok()?;
    let reason = probe.finish_reason?;
    Some(serde_json::json!({ "choices": [{ "finish_reason": reason }] }))
}

/// Cell texts that mean "no value" in database dumps.
pub(crate) const CSV_NULLS: [&str; 5] = ["NULL", "null", "None", "\\N", "none"];

/// One `LiteLLM_SpendLogs` row, before conversion.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SpendLogFields<'a> {
    #[serde(borrow, default)]
    request_id: Option<Scalar<'a>>,
    #[serde(borrow, default, rename = "startTime")]
    start_time: Option<Scalar<'a>>,
    #[serde(borrow, default, rename = "endTime")]
    end_time: Option<Scalar<'a>>,
    #[serde(borrow, default, rename = "completionStartTime")]
    completion_start_time: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    model: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    model_group: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    prompt_tokens: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    completion_tokens: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    status: Option<Scalar<'a>>,
    #[serde(default)]
    response: Option<ResponseProbe>,
    #[serde(borrow, default)]
    call_type: Option<Scalar<'a>>,
    #[serde(default)]
    request_tags: HealthCheckTag,
}

impl<'a> SpendLogFields<'a> {
    /// From a CSV row: `column(i)` is the cell under [`SPEND_LOG_COLUMNS`]`[i]`.
    pub fn from_columns(mut column: impl FnMut(usize) -> Option<Scalar<'a>>) -> Self {
        SpendLogFields {
            request_id: column(0),
            start_time: column(1),
            end_time: column(2),
            completion_start_time: column(3),
            model: column(4),
            model_group: column(5),
            prompt_tokens: column(6),
            completion_tokens: column(7),
            status: column(8),
            response: match column(9) {
                Some(Scalar::Str(text)) => Some(ResponseProbe::from_text(&text)),
                _ => None,
            },
            call_type: column(10),
            request_tags: HealthCheckTag(matches!(
                column(11),
                Some(Scalar::Str(text)) if text.contains(HEALTH_CHECK_TAG)
            )),
        }
    }

    /// The record, or why the row is not the model's demand (see the module docs).
    pub fn into_outcome(self) -> Result<Result<GatewayRecord, LeftOut>, FieldError> {
        if let Some(left_out) = left_out(self.call_type.as_ref(), self.request_tags)? {
            return Ok(Err(left_out));
        }
        self.into_record().map(Ok)
    }

    fn into_record(self) -> Result<GatewayRecord, FieldError> {
        let status = match fields::text("status", self.status.as_ref())?.as_deref() {
            None | Some("success") => RequestStatus::Ok,
            Some("failure") => RequestStatus::Error,
            Some(other) => {
                return Err(field_error(
                    "status",
                    format!("expected success or failure, found {other:?}"),
                ));
            }
        };
        let common = Common {
            id_field: "request_id",
            id: self.request_id,
            start_time: self.start_time,
            end_time: self.end_time,
            completion_start_time: self.completion_start_time,
            stream: None,
            model: self.model,
            model_group: self.model_group,
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
        };
        common.into_record(status, self.response.and_then(|r| r.finish_reason))
    }
}

/// One `StandardLoggingPayload`, before conversion.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PayloadFields<'a> {
    #[serde(borrow, default)]
    id: Option<Scalar<'a>>,
    #[serde(borrow, default, rename = "startTime")]
    start_time: Option<Scalar<'a>>,
    #[serde(borrow, default, rename = "endTime")]
    end_time: Option<Scalar<'a>>,
    #[serde(borrow, default, rename = "completionStartTime")]
    completion_start_time: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    stream: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    model: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    model_group: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    prompt_tokens: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    completion_tokens: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    status: Option<Scalar<'a>>,
    #[serde(default)]
    response: Option<ResponseProbe>,
    #[serde(borrow, default)]
    error_str: Option<Scalar<'a>>,
    #[serde(default)]
    error_information: Option<ObjectFields>,
    #[serde(borrow, default)]
    call_type: Option<Scalar<'a>>,
    #[serde(default)]
    request_tags: HealthCheckTag,
}

impl PayloadFields<'_> {
    /// The record, or why the payload is not the model's demand (see the module docs).
    pub fn into_outcome(self) -> Result<Result<GatewayRecord, LeftOut>, FieldError> {
        if let Some(left_out) = left_out(self.call_type.as_ref(), self.request_tags)? {
            return Ok(Err(left_out));
        }
        self.into_record().map(Ok)
    }

    fn into_record(self) -> Result<GatewayRecord, FieldError> {
        let info = self.error_information.unwrap_or_default();
        let error_str = match &self.error_str {
            Some(Scalar::Str(s)) => s.trim(),
            _ => "",
        };
        let (code, class) = (
            info.error_code.as_deref().unwrap_or("").trim(),
            info.error_class.as_deref().unwrap_or("").trim(),
        );
        let has_error = !(code.is_empty() && class.is_empty() && error_str.is_empty());
        let status = match fields::text("status", self.status.as_ref())?.as_deref() {
            // A success with an error: a stream the client (or something else) cut short.
            None | Some("success") if has_error => classify_failure(code, class, error_str),
            None | Some("success") => RequestStatus::Ok,
            Some("failure") => classify_failure(code, class, error_str),
            Some(other) => {
                return Err(field_error(
                    "status",
                    format!("expected success or failure, found {other:?}"),
                ));
            }
        };
        // LiteLLM invents `finish_reason: "stop"` for an answer cut short: a record with an
        // error keeps no finish reason.
        let finish_reason = match has_error {
            true => None,
            false => self.response.and_then(|r| r.finish_reason),
        };
        let common = Common {
            id_field: "id",
            id: self.id,
            start_time: self.start_time,
            end_time: self.end_time,
            completion_start_time: self.completion_start_time,
            stream: fields::boolean("stream", self.stream.as_ref())?,
            model: self.model,
            model_group: self.model_group,
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
        };
        common.into_record(status, finish_reason)
    }
}

/// Whether a record is left out of the demand: a LiteLLM health probe, or a call that
/// generates no text (see the module docs). `call_type` must be text when present.
fn left_out(
    call_type: Option<&Scalar>,
    health_tag: HealthCheckTag,
) -> Result<Option<LeftOut>, FieldError> {
    let call_type = fields::text("call_type", call_type)?;
    let call_type = call_type.as_deref().map(str::trim).unwrap_or("");
    if health_tag.0 || call_type == "/health" || call_type.starts_with("/health/") {
        return Ok(Some(LeftOut::HealthProbe));
    }
    if call_type.is_empty() || GENERATION_CALL_TYPES.contains(&call_type) {
        return Ok(None);
    }
    Ok(Some(LeftOut::NotGeneration(call_type.to_owned())))
}

/// Whether `request_tags` (a JSON list, or the list's text in a CSV cell) holds
/// [`HEALTH_CHECK_TAG`]; anything else (absent, `null`, another shape) is no tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HealthCheckTag(pub bool);

impl<'de> Deserialize<'de> for HealthCheckTag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TagsVisitor;
        impl<'de> Visitor<'de> for TagsVisitor {
            type Value = HealthCheckTag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of tags")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut found = false;
                while let Some(tag) = seq.next_element::<Option<Scalar>>()? {
                    found |= matches!(tag, Some(Scalar::Str(t)) if t == HEALTH_CHECK_TAG);
                }
                Ok(HealthCheckTag(found))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(HealthCheckTag(v.contains(HEALTH_CHECK_TAG)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(HealthCheckTag(false))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(HealthCheckTag(false))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(HealthCheckTag(false))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(HealthCheckTag(false))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(HealthCheckTag(false))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(HealthCheckTag(false))
            }
        }
        deserializer.deserialize_any(TagsVisitor)
    }
}

/// Timeout, cancellation or plain error, from LiteLLM's error fields (see the module docs).
fn classify_failure(error_code: &str, error_class: &str, error_str: &str) -> RequestStatus {
    let words = format!("{error_class} {error_str}").to_ascii_lowercase();
    let code = error_code.trim().trim_end_matches(".0");
    if code == "408" || code == "504" || words.contains("timeout") || words.contains("timed out") {
        RequestStatus::Timeout
    } else if code == "499" || words.contains("cancel") || words.contains("client disconnected") {
        RequestStatus::Cancelled
    } else {
        RequestStatus::Error
    }
}

/// What both LiteLLM shapes share.
struct Common<'a> {
    id_field: &'static str,
    id: Option<Scalar<'a>>,
    start_time: Option<Scalar<'a>>,
    end_time: Option<Scalar<'a>>,
    completion_start_time: Option<Scalar<'a>>,
    stream: Option<bool>,
    model: Option<Scalar<'a>>,
    model_group: Option<Scalar<'a>>,
    prompt_tokens: Option<Scalar<'a>>,
    completion_tokens: Option<Scalar<'a>>,
}

impl Common<'_> {
    fn into_record(
        self,
        status: RequestStatus,
        finish_reason: Option<String>,
    ) -> Result<GatewayRecord, FieldError> {
        let request_id = fields::text(self.id_field, self.id.as_ref())?
            .ok_or_else(|| field_error(self.id_field, "missing"))?;
        let start = fields::instant_with_unit("startTime", self.start_time.as_ref(), RULE)?
            .ok_or_else(|| field_error("startTime", "missing"))?;
        let end = fields::instant_with_unit("endTime", self.end_time.as_ref(), RULE)?
            .ok_or_else(|| field_error("endTime", "missing"))?;
        let completion = fields::instant_with_unit(
            "completionStartTime",
            self.completion_start_time.as_ref(),
            RULE,
        )?;
        fields::same_unit(&[
            ("startTime", self.start_time.as_ref(), start.1),
            (
                "completionStartTime",
                self.completion_start_time.as_ref(),
                completion.and_then(|c| c.1),
            ),
            ("endTime", self.end_time.as_ref(), end.1),
        ])?;
        let (start_ms, end_ms) = (start.0, end.0);
        let completion_start = completion.map(|c| c.0);
        // The instants as the log writes them (float Unix seconds): latencies are computed from
        // these, to the microsecond, not from the whole milliseconds of the record.
        let exact = match (
            unix_number(self.start_time.as_ref()),
            unix_number(self.end_time.as_ref()),
            start.1,
        ) {
            (Some(s), Some(e), Some(unit)) => Some((s, e, unit.per_second())),
            _ => None,
        };
        let exact_completion = unix_number(self.completion_start_time.as_ref());
        let before_end = match (exact, exact_completion) {
            (Some((_, e, _)), Some(c)) => c < e,
            _ => completion_start.is_some_and(|t| t < end_ms),
        };
        // Equal to endTime is LiteLLM's "no first-token time"; after it is impossible (the first
        // token would come after the last byte: TTFT > E2E), whatever `stream` says.
        if let Some(c) = completion_start.filter(|&c| c > end_ms) {
            check_order(
                start.0,
                Some(c),
                end_ms,
                ["startTime", "completionStartTime", "endTime"],
            )?;
        }
        let mut detail = LogDetail::default();
        let first_token_ms = match self.stream {
            // A streamed call whose first chunk is logged at the very end has no first-token
            // time LiteLLM could tell: TTFT would be the whole request and TPOT 0 ms.
            Some(true) if completion_start.is_some() && !before_end => {
                detail.first_token_unknown = true;
                None
            }
            Some(true) => completion_start,
            Some(false) => None,
            None => completion_start.filter(|_| before_end),
        };
        if let Some((s, e, per_second)) = exact {
            let us = |from: f64, to: f64| ((to - from) / per_second * 1e6).round() as i64;
            detail.e2e_us = Some(us(s, e));
            if first_token_ms.is_some() {
                detail.ttft_us = exact_completion.map(|c| us(s, c));
            }
        }
        let model_group =
            fields::text("model_group", self.model_group.as_ref())?.filter(|m| !m.is_empty());
        let model = match model_group {
            Some(group) => group,
            None => fields::text("model", self.model.as_ref())?
                .ok_or_else(|| field_error("model", "missing (and no model_group)"))?,
        };
        let prompt_tokens =
            fields::tokens("prompt_tokens", self.prompt_tokens.as_ref())?.unwrap_or(0);
        let completion_tokens =
            fields::tokens("completion_tokens", self.completion_tokens.as_ref())?.unwrap_or(0);
        check_order(
            start_ms,
            first_token_ms,
            end_ms,
            ["startTime", "completionStartTime", "endTime"],
        )?;
        Ok(GatewayRecord {
            request_id,
            start_ms,
            first_token_ms,
            end_ms,
            model,
            prompt_tokens,
            completion_tokens,
            status,
            finish_reason,
            detail,
        })
    }
}

/// A Unix instant written as a number (or a numeric string), as the log writes it.
fn unix_number(value: Option<&Scalar>) -> Option<f64> {
    match value? {
        Scalar::Num(n) => Some(*n),
        Scalar::Str(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_failures() {
        assert_eq!(classify_failure("408", "", ""), RequestStatus::Timeout);
        assert_eq!(
            classify_failure("", "Timeout", "Request timed out"),
            RequestStatus::Timeout
        );
        assert_eq!(classify_failure("499", "", ""), RequestStatus::Cancelled);
        assert_eq!(
            classify_failure("", "", "asyncio.CancelledError: client disconnected"),
            RequestStatus::Cancelled
        );
        assert_eq!(
            classify_failure("500", "APIError", "boom"),
            RequestStatus::Error
        );
    }
}
