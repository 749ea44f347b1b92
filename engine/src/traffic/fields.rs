//! Field values as they come out of JSON or CSV, and their conversion into record fields.
//!
//! Both JSON objects and CSV rows are first reduced to [`Scalar`]s (a string, a number, a
//! boolean, or "something composite"), borrowed from the input where possible, so that the
//! per-format mapping is written once for both and every conversion error names its field.
//! Unknown fields are ignored; a field that is absent, JSON `null` or an empty CSV cell is
//! "missing".

use super::timestamp::{
    OffsetRule, UnixUnit, check_plausible, parse_rfc3339, unix_number_to_plausible_ms,
};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// One field value, borrowed from the input when it has no escapes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Scalar<'a> {
    Str(Cow<'a, str>),
    Num(f64),
    Bool(bool),
    /// An object or array where a plain value was expected.
    Composite,
}

impl<'de: 'a, 'a> Deserialize<'de> for Scalar<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ScalarVisitor;
        impl<'de> Visitor<'de> for ScalarVisitor {
            type Value = Scalar<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Scalar::Num(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Scalar::Num(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Scalar::Num(v as f64))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Composite)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Composite)
            }
        }
        deserializer.deserialize_any(ScalarVisitor)
    }
}

impl Scalar<'_> {
    /// How the value looks, for error messages: `"abc"`, `12.5`, `true`, `an object or array`.
    pub fn describe(&self) -> String {
        match self {
            Scalar::Str(s) if s.chars().count() > 40 => {
                let short: String = s.chars().take(40).collect();
                format!("{short:?}…")
            }
            Scalar::Str(s) => format!("{s:?}"),
            // 1e300, not three hundred digits
            Scalar::Num(n) if n.abs() >= 1e16 => format!("{n:e}"),
            Scalar::Num(n) => n.to_string(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Composite => "an object or array".to_owned(),
        }
    }
}

/// A CSV cell as a field value: empty (or one of `nulls`) is missing.
pub(crate) fn cell<'a>(text: Option<&'a str>, nulls: &[&str]) -> Option<Scalar<'a>> {
    let text = text?;
    if text.is_empty() || nulls.contains(&text) {
        None
    } else {
        Some(Scalar::Str(Cow::Borrowed(text)))
    }
}

/// A field that could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldError {
    pub field: String,
    pub message: String,
}

pub(crate) fn field_error(field: &str, message: impl Into<String>) -> FieldError {
    FieldError {
        field: field.to_owned(),
        message: message.into(),
    }
}

type FieldResult<T> = Result<T, FieldError>;

/// An instant: a Unix number (or numeric string) or an RFC 3339 string, in 2000–2099 (see
/// [`check_plausible`]); `None` when missing.
#[cfg(test)]
pub(crate) fn instant(
    field: &str,
    value: Option<&Scalar>,
    rule: OffsetRule,
) -> FieldResult<Option<i64>> {
    Ok(instant_with_unit(field, value, rule)?.map(|(ms, _)| ms))
}

/// [`instant`] with the unit a Unix number was read in (`None` for an RFC 3339 string), so a
/// record can refuse numeric instants in different units ([`same_unit`]).
pub(crate) fn instant_with_unit(
    field: &str,
    value: Option<&Scalar>,
    rule: OffsetRule,
) -> FieldResult<Option<(i64, Option<UnixUnit>)>> {
    let found = || value.map(Scalar::describe).unwrap_or_default();
    let number = |n: f64| {
        unix_number_to_plausible_ms(n)
            .map(|(ms, unit)| Some((ms, Some(unit))))
            .map_err(|why| field_error(field, format!("{}: {why}", found())))
    };
    let expected = "expected an RFC 3339 date-time or Unix seconds";
    match value {
        None => Ok(None),
        Some(Scalar::Num(n)) if !n.is_finite() || *n < 0.0 => {
            Err(field_error(field, format!("{expected}, found {n}")))
        }
        Some(Scalar::Num(n)) => number(*n),
        Some(Scalar::Str(s)) => {
            let s = s.trim();
            if let Ok(n) = s.parse::<f64>() {
                if !n.is_finite() || n < 0.0 {
                    return Err(field_error(field, format!("{expected}, found {s:?}")));
                }
                return number(n);
            }
            let ms = parse_rfc3339(s, rule).map_err(|why| {
                let looks_like_a_date = s.len() >= 10 && s.as_bytes()[4] == b'-';
                if looks_like_a_date {
                    field_error(field, why)
                } else {
                    field_error(field, format!("{expected}, found {s:?}"))
                }
            })?;
            check_plausible(ms)
                .map(|ms| Some((ms, None)))
                .map_err(|why| field_error(field, format!("{}: {why}", found())))
        }
        Some(other) => Err(field_error(
            field,
            format!("{expected}, found {}", other.describe()),
        )),
    }
}

/// Refuses a record whose numeric instants were read in different units (see
/// [`crate::plausible`]): `start_time: 1e18` would be nanoseconds (2001-09-09) beside an
/// `end_time` in seconds, and reading one of them in another unit than the other is a guess.
/// `instants` = (field, value as read, unit); RFC 3339 strings (unit `None`) never conflict.
pub(crate) fn same_unit(instants: &[(&str, Option<&Scalar>, Option<UnixUnit>)]) -> FieldResult<()> {
    let numeric: Vec<&(&str, Option<&Scalar>, Option<UnixUnit>)> =
        instants.iter().filter(|(_, _, u)| u.is_some()).collect();
    let Some(&&(_, _, Some(first_unit))) = numeric.first() else {
        return Ok(());
    };
    // The odd one out is the field whose unit is not Unix seconds, the schemas' own unit.
    if let Some(&&(field, value, Some(unit))) =
        numeric.iter().find(|(_, _, u)| *u != Some(first_unit))
    {
        let (odd_field, odd_value, odd_unit, other_field, other_unit) = if unit == UnixUnit::Seconds
        {
            let (f, v, _) = numeric[0];
            (*f, *v, first_unit, field, unit)
        } else {
            (field, value, unit, numeric[0].0, first_unit)
        };
        return Err(field_error(
            odd_field,
            format!(
                "{} would be Unix {} while {other_field} is in {}: the unit is ambiguous; \
                 write every instant of a record in one unit (Unix seconds)",
                odd_value.map(Scalar::describe).unwrap_or_default(),
                odd_unit.name(),
                other_unit.name()
            ),
        ));
    }
    Ok(())
}

/// A required instant.
#[cfg(test)]
pub(crate) fn required_instant(
    field: &str,
    value: Option<&Scalar>,
    rule: OffsetRule,
) -> FieldResult<i64> {
    instant(field, value, rule)?.ok_or_else(|| field_error(field, "missing"))
}

/// A token count: a non-negative whole number (or numeric string); `None` when missing.
pub(crate) fn tokens(field: &str, value: Option<&Scalar>) -> FieldResult<Option<u32>> {
    let number = match value {
        None => return Ok(None),
        Some(Scalar::Num(n)) => Some(*n),
        Some(Scalar::Str(s)) => s.trim().parse::<f64>().ok(),
        Some(_) => None,
    };
    match number {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(Some(n as u32)),
        _ => Err(field_error(
            field,
            format!(
                "expected a whole number of tokens ≥ 0, found {}",
                value.map(Scalar::describe).unwrap_or_default()
            ),
        )),
    }
}

/// A text field (numbers are accepted and written without a trailing `.0`); `None` when missing.
pub(crate) fn text(field: &str, value: Option<&Scalar>) -> FieldResult<Option<String>> {
    match value {
        None => Ok(None),
        Some(Scalar::Str(s)) => Ok(Some(s.to_string())),
        Some(Scalar::Num(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(field_error(
            field,
            format!("expected text, found {}", other.describe()),
        )),
    }
}

/// A boolean (`true`/`false`, also as text); `None` when missing.
pub(crate) fn boolean(field: &str, value: Option<&Scalar>) -> FieldResult<Option<bool>> {
    match value {
        None => Ok(None),
        Some(Scalar::Bool(b)) => Ok(Some(*b)),
        Some(Scalar::Str(s)) if s.eq_ignore_ascii_case("true") => Ok(Some(true)),
        Some(Scalar::Str(s)) if s.eq_ignore_ascii_case("false") => Ok(Some(false)),
        Some(other) => Err(field_error(
            field,
            format!("expected true or false, found {}", other.describe()),
        )),
    }
}

/// The top-level keys of a JSON object (used once, to recognise a format).
pub(crate) struct KeyList(pub Vec<String>);

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeysVisitor;
        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = KeyList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, _)) = map.next_entry::<String, IgnoredAny>()? {
                    keys.push(key);
                }
                Ok(KeyList(keys))
            }
        }
        deserializer.deserialize_map(KeysVisitor)
    }
}

/// A map key, borrowed when possible.
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Scalar::deserialize(deserializer)? {
            Scalar::Str(s) => Ok(Key(s)),
            _ => Ok(Key(Cow::Borrowed(""))),
        }
    }
}

/// `choices[0].finish_reason` of an OpenAI-style response object, found without building the
/// whole response (which may hold the full answer text). Accepts any JSON value: a response that
/// is a string holding JSON (a CSV dump of a `jsonb` column) is parsed; anything else yields no
/// finish reason.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ResponseProbe {
    pub finish_reason: Option<String>,
}

impl ResponseProbe {
    /// Probes a response stored as text (a CSV cell).
    pub fn from_text(text: &str) -> Self {
        if text.trim_start().starts_with('{') {
            serde_json::from_str(text).unwrap_or_default()
        } else {
            ResponseProbe::default()
        }
    }
}

impl<'de> Deserialize<'de> for ResponseProbe {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ResponseVisitor;
        impl<'de> Visitor<'de> for ResponseVisitor {
            type Value = ResponseProbe;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a response object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut probe = ResponseProbe::default();
                while let Some(key) = map.next_key::<Key>()? {
                    if key.0 == "choices" {
                        probe.finish_reason = map.next_value::<FirstChoice>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(probe)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(ResponseProbe::from_text(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ResponseProbe::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(ResponseProbe::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(ResponseProbe::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(ResponseProbe::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(ResponseProbe::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(ResponseProbe::default())
            }
        }
        deserializer.deserialize_any(ResponseVisitor)
    }
}

/// The `finish_reason` of the first element of `choices`.
struct FirstChoice(Option<String>);

impl<'de> Deserialize<'de> for FirstChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ChoicesVisitor;
        impl<'de> Visitor<'de> for ChoicesVisitor {
            type Value = FirstChoice;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of choices")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let first = seq
                    .next_element::<ObjectFields>()?
                    .and_then(|fields| fields.finish_reason);
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(FirstChoice(first))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(FirstChoice(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(FirstChoice(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(FirstChoice(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(FirstChoice(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(FirstChoice(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(FirstChoice(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(FirstChoice(None))
            }
        }
        deserializer.deserialize_any(ChoicesVisitor)
    }
}

/// A few text fields of an object that may be anything (`finish_reason` of a choice,
/// `error_code` / `error_class` of LiteLLM's `error_information`); non-objects give nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ObjectFields {
    pub finish_reason: Option<String>,
    pub error_code: Option<String>,
    pub error_class: Option<String>,
}

impl<'de> Deserialize<'de> for ObjectFields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = ObjectFields;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut fields = ObjectFields::default();
                while let Some(key) = map.next_key::<Key>()? {
                    let slot = match key.0.as_ref() {
                        "finish_reason" => &mut fields.finish_reason,
                        "error_code" => &mut fields.error_code,
                        "error_class" => &mut fields.error_class,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    *slot = match map.next_value::<Option<Scalar>>()? {
                        Some(Scalar::Str(s)) if !s.is_empty() => Some(s.into_owned()),
                        Some(Scalar::Num(n)) => Some(n.to_string()),
                        _ => None,
                    };
                }
                Ok(fields)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ObjectFields::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(ObjectFields::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(ObjectFields::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(ObjectFields::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(ObjectFields::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(ObjectFields::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(ObjectFields::default())
            }
        }
        deserializer.deserialize_any(FieldsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_the_first_choice_without_caring_about_the_rest() {
        let json = r#"{"id":"x","choices":[{"finish_reason":"length","message":{"content":"hi"}},
            {"finish_reason":"stop"}],"usage":{"prompt_tokens":3}}"#;
        let probe: ResponseProbe = serde_json::from_str(json).unwrap();
        assert_eq!(probe.finish_reason.as_deref(), Some("length"));
        let as_text: ResponseProbe =
            serde_json::from_str(&serde_json::to_string(json).unwrap()).unwrap();
        assert_eq!(as_text.finish_reason.as_deref(), Some("length"));
        for other in [
            "null",
            "\"oops\"",
            "[1,2]",
            "{\"choices\":null}",
            "{\"choices\":[]}",
            "3",
        ] {
            let probe: ResponseProbe = serde_json::from_str(other).unwrap();
            assert_eq!(probe.finish_reason, None, "{other}");
        }
    }

    #[test]
    fn converts_fields_with_named_errors() {
        let rule = OffsetRule::Required;
        let soon = Scalar::Str(Cow::Borrowed("soon"));
        let err = required_instant("end_time", Some(&soon), rule).unwrap_err();
        assert_eq!(err.field, "end_time");
        assert!(err.message.contains("found \"soon\""), "{}", err.message);
        assert_eq!(
            required_instant("t", Some(&Scalar::Str(Cow::Borrowed("1700000000.5"))), rule),
            Ok(1_700_000_000_500)
        );
        let far = required_instant("start_time", Some(&Scalar::Num(1e300)), rule).unwrap_err();
        assert_eq!(far.field, "start_time");
        assert!(
            far.message
                .starts_with("1e300: the instant is not between 2000-01-01")
        );
        let future = Scalar::Str(Cow::Borrowed("9999-01-01T00:00:00Z"));
        let far = required_instant("end_time", Some(&future), rule).unwrap_err();
        assert_eq!(
            far.message,
            "\"9999-01-01T00:00:00Z\": the instant (9999-01-01T00:00:00.000Z) is not between \
             2000-01-01 and 2100-01-01: a wrong unit or a placeholder date?"
        );
        assert_eq!(tokens("n", Some(&Scalar::Num(12.0))), Ok(Some(12)));
        assert!(tokens("n", Some(&Scalar::Num(-1.0))).is_err());
        assert!(tokens("n", Some(&Scalar::Num(1.5))).is_err());
        assert_eq!(
            tokens("n", Some(&Scalar::Str(Cow::Borrowed(" 7 ")))),
            Ok(Some(7))
        );
        assert_eq!(text("id", Some(&Scalar::Num(42.0))), Ok(Some("42".into())));
        assert!(text("id", Some(&Scalar::Composite)).is_err());
        assert_eq!(
            boolean("stream", Some(&Scalar::Str(Cow::Borrowed("True")))),
            Ok(Some(true))
        );
    }
}
