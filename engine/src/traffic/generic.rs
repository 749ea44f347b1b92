//! The generic gateway-log schema: what any gateway can be configured (or scripted) to write.
//!
//! One record per JSON line, or one CSV row under a header with the same names:
//!
//! | field | type | required |
//! |---|---|---|
//! | `request_id` | text | yes |
//! | `start_time` | RFC 3339 with offset, or Unix seconds as a number | yes |
//! | `first_token_time` | same | no (streaming only) |
//! | `end_time` | same | yes |
//! | `model` | text | yes |
//! | `prompt_tokens`, `completion_tokens` | whole numbers | when `status` is `ok` |
//! | `status` | `ok`, `error`, `timeout`, `cancelled` | yes |
//! | `finish_reason` | `stop`, `length`, … | no |
//!
//! Other fields are ignored. A missing value is an absent key, JSON `null` or an empty CSV cell.
//! The schema is ours, so it is read strictly: an offset is required on date-times (a local time
//! without one would shift the busiest hour silently), `end_time` may not precede `start_time`,
//! and `first_token_time` must lie between them. Every instant must lie in 2000–2099 and a
//! request may last at most a day ([`MAX_REQUEST_MS`]), whatever the schema.

use super::fields::{self, FieldError, Scalar, field_error};
use super::record::{GatewayRecord, RequestStatus};
use super::timestamp::OffsetRule;
use serde::Deserialize;

/// Column names, in the order [`GenericFields::from_columns`] expects them.
pub(crate) const COLUMNS: [&str; 9] = [
    "request_id",
    "start_time",
    "first_token_time",
    "end_time",
    "model",
    "prompt_tokens",
    "completion_tokens",
    "status",
    "finish_reason",
];

/// The fields of one generic record, before conversion.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct GenericFields<'a> {
    #[serde(borrow, default)]
    request_id: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    start_time: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    first_token_time: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    end_time: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    model: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    prompt_tokens: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    completion_tokens: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    status: Option<Scalar<'a>>,
    #[serde(borrow, default)]
    finish_reason: Option<Scalar<'a>>,
}

impl<'a> GenericFields<'a> {
    /// From a CSV row: `column(i)` is the cell under [`COLUMNS`]`[i]`.
    pub fn from_columns(mut column: impl FnMut(usize) -> Option<Scalar<'a>>) -> Self {
        GenericFields {
            request_id: column(0),
            start_time: column(1),
            first_token_time: column(2),
            end_time: column(3),
            model: column(4),
            prompt_tokens: column(5),
            completion_tokens: column(6),
            status: column(7),
            finish_reason: column(8),
        }
    }

    /// Converts and checks the record (see the module docs).
    pub fn into_record(self) -> Result<GatewayRecord, FieldError> {
        let rule = OffsetRule::Required;
        let request_id = fields::text("request_id", self.request_id.as_ref())?
            .ok_or_else(|| field_error("request_id", "missing"))?;
        let start = fields::instant_with_unit("start_time", self.start_time.as_ref(), rule)?
            .ok_or_else(|| field_error("start_time", "missing"))?;
        let first_token =
            fields::instant_with_unit("first_token_time", self.first_token_time.as_ref(), rule)?;
        let end = fields::instant_with_unit("end_time", self.end_time.as_ref(), rule)?
            .ok_or_else(|| field_error("end_time", "missing"))?;
        fields::same_unit(&[
            ("start_time", self.start_time.as_ref(), start.1),
            (
                "first_token_time",
                self.first_token_time.as_ref(),
                first_token.and_then(|t| t.1),
            ),
            ("end_time", self.end_time.as_ref(), end.1),
        ])?;
        let (start_ms, first_token_ms, end_ms) = (start.0, first_token.map(|t| t.0), end.0);
        let model = fields::text("model", self.model.as_ref())?
            .ok_or_else(|| field_error("model", "missing"))?;
        let status = match fields::text("status", self.status.as_ref())? {
            None => return Err(field_error("status", "missing")),
            Some(word) => word
                .trim()
                .parse::<RequestStatus>()
                .map_err(|why| field_error("status", why))?,
        };
        let token_count = |field: &str, value: Option<&Scalar>| -> Result<u32, FieldError> {
            match (fields::tokens(field, value)?, status) {
                (Some(n), _) => Ok(n),
                (None, RequestStatus::Ok) => {
                    Err(field_error(field, "missing (required when status is ok)"))
                }
                (None, _) => Ok(0),
            }
        };
        let prompt_tokens = token_count("prompt_tokens", self.prompt_tokens.as_ref())?;
        let completion_tokens = token_count("completion_tokens", self.completion_tokens.as_ref())?;
        let finish_reason = fields::text("finish_reason", self.finish_reason.as_ref())?;
        check_order(
            start_ms,
            first_token_ms,
            end_ms,
            ["start_time", "first_token_time", "end_time"],
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
            detail: crate::traffic::LogDetail::default(),
        })
    }
}

/// The longest a request may last: a day. Gateways time requests out after minutes; a longer
/// "request" is a unit or clock mistake (and would distort the concurrency sweep).
pub const MAX_REQUEST_MS: i64 = 86_400_000;

/// `start ≤ first token ≤ end` and at most [`MAX_REQUEST_MS`] from start to end, naming the
/// field that breaks it (`names` = start, first, end).
pub(crate) fn check_order(
    start_ms: i64,
    first_token_ms: Option<i64>,
    end_ms: i64,
    names: [&str; 3],
) -> Result<(), FieldError> {
    if end_ms < start_ms {
        return Err(field_error(
            names[2],
            format!("{} ms before {}", start_ms - end_ms, names[0]),
        ));
    }
    if end_ms - start_ms > MAX_REQUEST_MS {
        return Err(field_error(
            names[2],
            format!(
                "{:.1} days after {}: a request lasting more than a day is a unit or clock \
                 mistake",
                (end_ms - start_ms) as f64 / MAX_REQUEST_MS as f64,
                names[0]
            ),
        ));
    }
    if let Some(first) = first_token_ms {
        if first < start_ms {
            return Err(field_error(
                names[1],
                format!("{} ms before {}", start_ms - first, names[0]),
            ));
        }
        if first > end_ms {
            return Err(field_error(
                names[1],
                format!("{} ms after {}", first - end_ms, names[2]),
            ));
        }
    }
    Ok(())
}

/// One record in the generic schema's JSON form, as written by [`write_jsonl_line`].
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    request_id: &'a str,
    start_time: String,
    first_token_time: Option<String>,
    end_time: String,
    model: &'a str,
    prompt_tokens: u32,
    completion_tokens: u32,
    status: RequestStatus,
    finish_reason: Option<&'a str>,
}

/// Writes `record` as one line of generic JSON Lines (instants as RFC 3339 UTC with
/// milliseconds), newline included. Reading the line back gives the same record.
pub fn write_jsonl_line<W: std::io::Write>(
    record: &GatewayRecord,
    out: &mut W,
) -> std::io::Result<()> {
    use super::timestamp::format_rfc3339_ms;
    let line = JsonLine {
        request_id: &record.request_id,
        start_time: format_rfc3339_ms(record.start_ms),
        first_token_time: record.first_token_ms.map(format_rfc3339_ms),
        end_time: format_rfc3339_ms(record.end_ms),
        model: &record.model,
        prompt_tokens: record.prompt_tokens,
        completion_tokens: record.completion_tokens,
        status: record.status,
        finish_reason: record.finish_reason.as_deref(),
    };
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}
