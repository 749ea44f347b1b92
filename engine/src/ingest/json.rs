//! Typed, path-aware access to parsed JSON, so every wrong type or missing field becomes an
//! [`IngestError`] naming the field (`benchmarks[0].metrics.request_latency.successful.mean`).

use super::error::{Ctx, ErrorKind, IngestError};
use crate::plausible::{self, Quantity};
use serde_json::{Map, Value};

pub(crate) type Result<T> = std::result::Result<T, IngestError>;

/// A JSON object together with its path from the document root.
#[derive(Clone)]
pub(crate) struct Obj<'a> {
    pub map: &'a Map<String, Value>,
    path: String,
    pub ctx: &'a Ctx,
}

/// `parent.key`, or `key` at the root.
pub(crate) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// `parent[index]`.
pub(crate) fn index(parent: &str, i: usize) -> String {
    format!("{parent}[{i}]")
}

impl<'a> Obj<'a> {
    /// `value` as an object at `path` (empty path = document root).
    pub fn new(value: &'a Value, path: &str, ctx: &'a Ctx) -> Result<Self> {
        match value {
            Value::Object(map) => Ok(Obj {
                map,
                path: path.to_string(),
                ctx,
            }),
            other => Err(if path.is_empty() {
                ctx.err(
                    ErrorKind::WrongType,
                    None,
                    format!(
                        "expected a JSON object, found {}",
                        super::error::describe(other)
                    ),
                )
            } else {
                ctx.wrong_type(path, "an object", other)
            }),
        }
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn field(&self, key: &str) -> String {
        join(&self.path, key)
    }

    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// A number; absent or `null` → `None`.
    pub fn f64(&self, key: &str) -> Result<Option<f64>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => number(v, &self.field(key), self.ctx).map(Some),
        }
    }

    /// A number that must meet the rule of `quantity` ([`crate::plausible`]); absent or `null`
    /// → `None`.
    pub fn num(&self, key: &str, quantity: Quantity) -> Result<Option<f64>> {
        match self.f64(key)? {
            None => Ok(None),
            Some(v) => checked(v, quantity, &self.field(key), self.ctx).map(Some),
        }
    }

    /// A non-negative whole number (integers, or floats without a fraction such as `89.0`).
    pub fn u64(&self, key: &str) -> Result<Option<u64>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => count(v, &self.field(key), self.ctx).map(Some),
        }
    }

    /// A string; absent or `null` → `None`.
    pub fn str(&self, key: &str) -> Result<Option<&'a str>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.ctx.wrong_type(&self.field(key), "a string", v)),
        }
    }

    /// A boolean; absent or `null` → `None`.
    pub fn bool(&self, key: &str) -> Result<Option<bool>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.ctx.wrong_type(&self.field(key), "true or false", v)),
        }
    }

    /// A list; absent or `null` → `None`.
    pub fn arr(&self, key: &str) -> Result<Option<&'a Vec<Value>>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(v) => Err(self.ctx.wrong_type(&self.field(key), "a list", v)),
        }
    }
}

impl<'a> Obj<'a> {
    /// A nested object; absent or `null` → `None`.
    pub fn obj(&self, key: &str) -> Result<Option<Obj<'a>>> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(map)) => Ok(Some(Obj {
                map,
                path: self.field(key),
                ctx: self.ctx,
            })),
            Some(v) => Err(self.ctx.wrong_type(&self.field(key), "an object", v)),
        }
    }
}

/// `value` as a number, else a wrong-type error for `path`.
pub(crate) fn number(value: &Value, path: &str, ctx: &Ctx) -> Result<f64> {
    match value.as_f64() {
        Some(n) => Ok(n),
        None => Err(ctx.wrong_type(path, "a number", value)),
    }
}

/// `value` when it meets the rule of `quantity` ([`crate::plausible`]), else an
/// [`ErrorKind::InvalidValue`] error for `path` with the rule's message.
pub(crate) fn checked(value: f64, quantity: Quantity, path: &str, ctx: &Ctx) -> Result<f64> {
    plausible::check(quantity, value).map_err(|e| ctx.invalid(path, e.message))
}

/// `value` as a non-negative whole number of at most 2⁵³ ([`crate::plausible::COUNT_MAX`]),
/// else an error for `path`.
pub(crate) fn count(value: &Value, path: &str, ctx: &Ctx) -> Result<u64> {
    if let Some(n) = value.as_u64() {
        return plausible::count_u64(n).map_err(|e| ctx.invalid(path, e.message));
    }
    match value.as_f64() {
        Some(f) if f >= 0.0 && f.fract() == 0.0 => {
            plausible::whole_count(f).map_err(|e| ctx.invalid(path, e.message))
        }
        Some(f) => Err(ctx.invalid(
            path,
            format!("expected a non-negative whole number, found {f}"),
        )),
        None => Err(ctx.wrong_type(path, "a whole number", value)),
    }
}

/// A scalar as settings text: strings as they are, numbers and booleans as JSON writes them.
/// `null`, lists and objects → `None`.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A compact number for scenario texts: `512`, `0.5`.
pub(crate) fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Python's `json.dump` writes `NaN`, `Infinity` and `-Infinity`, which are not JSON. Returns
/// the text with those tokens (outside strings) replaced by `null`, or `None` when there are
/// none. Callers retry a failed parse with it and say so in a warning: a non-finite statistic
/// is read as missing, never as a number.
pub(crate) fn replace_non_finite(bytes: &[u8]) -> Option<Vec<u8>> {
    const TOKENS: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut changed = false;
    let mut in_string = false;
    let mut escaped = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            out.push(b);
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            out.push(b);
            i += 1;
            continue;
        }
        let boundary_before = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        let token = TOKENS.iter().find(|t| {
            bytes[i..].starts_with(t)
                && bytes
                    .get(i + t.len())
                    .is_none_or(|n| !n.is_ascii_alphanumeric())
        });
        match token {
            Some(t) if boundary_before => {
                out.extend_from_slice(b"null");
                i += t.len();
                changed = true;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    changed.then_some(out)
}

/// The warning added when [`replace_non_finite`] was needed.
pub(crate) fn non_finite_warning(file: &str) -> String {
    super::words::non_finite(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_tokens_become_null_outside_strings() {
        let text = br#"{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN Infinity", "NaNx": 1}"#;
        let out = replace_non_finite(text).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"a": null, "b": [null, null], "c": "NaN Infinity", "NaNx": 1}"#
        );
        assert!(replace_non_finite(br#"{"a": 1, "s": "NaN"}"#).is_none());
    }
}
