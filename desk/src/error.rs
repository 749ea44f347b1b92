//! The one error every service answers with.
//!
//! Messages are safe to show: internal failures are logged on the server and reach the user as
//! [`ServiceError::Internal`] without details. Anything a user may not see is
//! [`ServiceError::NotFound`], exactly like something that does not exist, so a customer cannot
//! even learn whether another organisation's pilot exists.
//!
//! Each error knows its HTTP status ([`ServiceError::status_code`]) and a stable kind name
//! ([`ServiceError::kind`]), and travels as one JSON object, `{"error": "<the message>", "kind":
//! "<kind>"}` (plus `retry_after_s` or `limit_mib` where they apply): the REST routes answer with
//! it, and the UI's server-function error carries the same fields, so a script reads every
//! refusal the same way.
//!
//! A refusal a service wrote for one request (`Invalid`, `Conflict`, `NoSuch`, `Unavailable`,
//! `Duplicate`) can carry its German ([`ServiceError::invalid_in`] and its kin wrap it in
//! [`ServiceError::InGerman`]): `Display`, status, kind and the REST wire stay the English
//! refusal's, byte for byte; [`ServiceError::message_in`] gives a German reader the German, and
//! the server functions' wire adds it as `error_de` ([`ServiceError::to_wire_with_german`]) so
//! the browser, and the page a plain form post returns to, can show it.

use engine::locale::Lang;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A sentence for a person, before it becomes a refusal (a store's conflict, an importer's
/// refusal): the English every script and log reads (`Display`, the wire's `error`), and the
/// same sentence worded whole in German where the site that wrote it has one (`None`: shown in
/// English to every reader). [`ServiceError::invalid_said`] and its kin make the refusal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    pub en: String,
    pub de: Option<String>,
}

impl Said {
    /// A sentence in English (`en`) and German (`de`).
    pub fn new(en: impl Into<String>, de: impl Into<String>) -> Said {
        Said {
            en: en.into(),
            de: Some(de.into()),
        }
    }

    /// The sentence for a reader of `lang` (English where it has no German).
    pub fn in_lang(&self, lang: Lang) -> &str {
        match (lang, &self.de) {
            (Lang::De, Some(de)) if !de.is_empty() => de,
            _ => &self.en,
        }
    }

    /// The English sentence.
    pub fn as_str(&self) -> &str {
        &self.en
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

impl From<String> for Said {
    fn from(en: String) -> Said {
        Said { en, de: None }
    }
}

impl From<&str> for Said {
    fn from(en: &str) -> Said {
        Said {
            en: en.to_string(),
            de: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ServiceError {
    #[error("Please sign in to continue.")]
    Unauthenticated,
    #[error("Page not found.")]
    NotFound,
    /// Something a request names does not exist (404, kind `not_found`), said with what: an
    /// organisation named in a body, say. Never for what a caller may not see ([`ServiceError::NotFound`]).
    #[error("{0}")]
    NoSuch(String),
    #[error("Your role does not allow this.")]
    Forbidden,
    #[error("{0}")]
    Invalid(String),
    /// A request's arguments could not be decoded: `field: problem`.
    #[error("{0}")]
    BadArgument(String),
    #[error("E-mail address or password is wrong.")]
    BadCredentials,
    /// Sign-ins are backing off (too many recent failures): retry after this many seconds.
    #[error("Too many failed sign-in attempts. Try again in {}.", wait_text(*.0))]
    TooManyAttempts(u64),
    /// Bounded work (password checks, PDF printing) is busy: retry after this many seconds.
    #[error("The server is busy with other requests of this kind. Try again in {}.", wait_text(*.0))]
    Busy(u64),
    #[error("The file is larger than the upload limit of {0} MiB (MAX_UPLOAD_MB).")]
    TooLarge(u64),
    /// A request body over its route's own limit (413, kind `too_large`), said with the limit.
    #[error("{0}")]
    BodyTooLarge(String),
    /// A caller sending faster than its route allows: retry after this many seconds (429).
    #[error("Too many requests with this token. Try again in {}.", wait_text(*.0))]
    RateLimited(u64),
    #[error("{0}")]
    Conflict(String),
    /// The same evidence file is already stored on the pilot (409, kind `duplicate`).
    #[error("{0}")]
    Duplicate(String),
    #[error("Something went wrong on the server. It has been logged; please try again.")]
    Internal,
    /// A service the request needs is not available here (e.g. Chromium for PDF export).
    #[error("{0}")]
    Unavailable(String),
    /// A refusal a service worded in German too: the English refusal beneath (its message,
    /// status and kind are this one's; [`ServiceError::plain`]) and its German, which
    /// [`ServiceError::message_in`] gives a German reader.
    #[error("{}", .0.error)]
    InGerman(Box<InGerman>),
}

/// The refusal and its German (see [`ServiceError::InGerman`]).
#[derive(Clone, Debug, PartialEq)]
pub struct InGerman {
    pub error: ServiceError,
    pub de: String,
}

/// Where in a file a reader's problem is, in German, as the importers name it in English:
/// `results.csv Zeile 3: Feld "score": ` (line and field where known).
#[cfg(feature = "server")]
pub(crate) fn file_place_de(file: &str, line: Option<u64>, field: Option<&str>) -> String {
    let line = line.map(|l| format!(" Zeile {l}")).unwrap_or_default();
    let field = field.map(|f| format!("Feld \"{f}\": ")).unwrap_or_default();
    format!("{file}{line}: {field}")
}

/// "12 seconds", "1 minute", "3 minutes".
fn wait_text(seconds: u64) -> String {
    match seconds {
        0..=1 => "a second".into(),
        2..=90 => format!("{seconds} seconds"),
        _ => {
            let minutes = seconds.div_ceil(60);
            if minutes == 1 {
                "1 minute".into()
            } else {
                format!("{minutes} minutes")
            }
        }
    }
}

/// [`wait_text`] in German: "12 Sekunden", "1 Minute", "3 Minuten".
fn wait_text_de(seconds: u64) -> String {
    match seconds {
        0..=1 => "einer Sekunde".into(),
        2..=90 => format!("{seconds} Sekunden"),
        _ => {
            let minutes = seconds.div_ceil(60);
            if minutes == 1 {
                "einer Minute".into()
            } else {
                format!("{minutes} Minuten")
            }
        }
    }
}

impl ServiceError {
    /// The message for a reader of `lang`. The fixed messages are worded in both languages;
    /// a message a service wrote for one request (`Invalid`, `Conflict`, `NoSuch`,
    /// `Unavailable`, `Duplicate`) in the German the service wrote with it
    /// ([`ServiceError::InGerman`]), else as written.
    /// The wire (`{"error": …}`) always carries the English one: scripts read it.
    pub fn message_in(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            ServiceError::InGerman(worded) => worded.de.clone(),
            ServiceError::Unauthenticated => "Bitte melden Sie sich an, um fortzufahren.".into(),
            ServiceError::NotFound => "Seite nicht gefunden.".into(),
            ServiceError::Forbidden => "Ihre Rolle erlaubt das nicht.".into(),
            ServiceError::BadCredentials => "E-Mail-Adresse oder Passwort ist falsch.".into(),
            ServiceError::TooManyAttempts(s) => format!(
                "Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in {} erneut.",
                wait_text_de(*s)
            ),
            ServiceError::Busy(s) => format!(
                "Der Server ist mit anderen Anfragen dieser Art beschäftigt. Versuchen Sie es in \
                 {} erneut.",
                wait_text_de(*s)
            ),
            ServiceError::TooLarge(mib) => {
                format!("Die Datei ist größer als die Upload-Grenze von {mib} MiB (MAX_UPLOAD_MB).")
            }
            ServiceError::RateLimited(s) => format!(
                "Zu viele Anfragen mit diesem Token. Versuchen Sie es in {} erneut.",
                wait_text_de(*s)
            ),
            ServiceError::Internal => "Auf dem Server ist etwas schiefgegangen. Der Fehler wurde \
                                       protokolliert; bitte versuchen Sie es erneut."
                .into(),
            other => other.to_string(),
        }
    }

    /// The HTTP status this error is answered with.
    pub fn status_code(&self) -> u16 {
        match self {
            ServiceError::InGerman(worded) => worded.error.status_code(),
            ServiceError::Unauthenticated | ServiceError::BadCredentials => 401,
            ServiceError::NotFound | ServiceError::NoSuch(_) => 404,
            ServiceError::Forbidden => 403,
            ServiceError::Invalid(_) => 422,
            ServiceError::BadArgument(_) => 400,
            ServiceError::TooManyAttempts(_) => 429,
            ServiceError::Busy(_) => 503,
            ServiceError::TooLarge(_) | ServiceError::BodyTooLarge(_) => 413,
            ServiceError::RateLimited(_) => 429,
            ServiceError::Conflict(_) | ServiceError::Duplicate(_) => 409,
            ServiceError::Internal => 500,
            ServiceError::Unavailable(_) => 503,
        }
    }

    /// Seconds after which the same request may succeed (`Retry-After`), where that is known.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self.plain() {
            ServiceError::TooManyAttempts(seconds)
            | ServiceError::Busy(seconds)
            | ServiceError::RateLimited(seconds) => Some(*seconds),
            _ => None,
        }
    }

    /// The upload limit an upload was refused for, in MiB.
    pub fn limit_mib(&self) -> Option<u64> {
        match self.plain() {
            ServiceError::TooLarge(mib) => Some(*mib),
            _ => None,
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        ServiceError::Invalid(message.into())
    }

    /// This refusal with its German `de` ([`ServiceError::InGerman`]).
    pub fn with_german(self, de: impl Into<String>) -> Self {
        ServiceError::InGerman(Box::new(InGerman {
            error: self.plain().clone(),
            de: de.into(),
        }))
    }

    /// The English refusal beneath [`ServiceError::InGerman`]; any other error itself. Match
    /// on this to tell refusals apart by variant.
    pub fn plain(&self) -> &ServiceError {
        match self {
            ServiceError::InGerman(worded) => worded.error.plain(),
            other => other,
        }
    }

    /// `error` with the German of `said`, where it has one.
    fn from_said(error: impl FnOnce(String) -> ServiceError, said: Said) -> Self {
        match said.de {
            Some(de) => error(said.en).with_german(de),
            None => error(said.en),
        }
    }

    /// [`ServiceError::Invalid`] of a [`Said`], in German too where it is worded.
    pub fn invalid_said(said: Said) -> Self {
        ServiceError::from_said(ServiceError::Invalid, said)
    }

    /// [`ServiceError::Conflict`] of a [`Said`], in German too where it is worded.
    pub fn conflict_said(said: Said) -> Self {
        ServiceError::from_said(ServiceError::Conflict, said)
    }

    /// [`ServiceError::Duplicate`] of a [`Said`], in German too where it is worded.
    pub fn duplicate_said(said: Said) -> Self {
        ServiceError::from_said(ServiceError::Duplicate, said)
    }

    /// [`ServiceError::Invalid`] said in English (`en`) and German (`de`).
    pub fn invalid_in(en: impl Into<String>, de: impl Into<String>) -> Self {
        ServiceError::Invalid(en.into()).with_german(de)
    }

    /// [`ServiceError::Conflict`] said in English (`en`) and German (`de`).
    pub fn conflict_in(en: impl Into<String>, de: impl Into<String>) -> Self {
        ServiceError::Conflict(en.into()).with_german(de)
    }

    /// [`ServiceError::NoSuch`] said in English (`en`) and German (`de`).
    pub fn no_such_in(en: impl Into<String>, de: impl Into<String>) -> Self {
        ServiceError::NoSuch(en.into()).with_german(de)
    }

    /// [`ServiceError::Unavailable`] said in English (`en`) and German (`de`).
    pub fn unavailable_in(en: impl Into<String>, de: impl Into<String>) -> Self {
        ServiceError::Unavailable(en.into()).with_german(de)
    }

    /// The refusal's sentence in English and, where it has one, German.
    pub fn said(&self) -> Said {
        Said {
            en: self.to_string(),
            de: self.german().map(str::to_string),
        }
    }

    /// The German a service wrote with its refusal, where it wrote one.
    pub fn german(&self) -> Option<&str> {
        match self {
            ServiceError::InGerman(worded) => Some(&worded.de),
            _ => None,
        }
    }

    /// The stable name of the kind of error, as `kind` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            ServiceError::InGerman(worded) => worded.error.kind(),
            ServiceError::Unauthenticated => "unauthenticated",
            ServiceError::NotFound | ServiceError::NoSuch(_) => "not_found",
            ServiceError::Forbidden => "forbidden",
            ServiceError::Invalid(_) => "invalid",
            ServiceError::BadArgument(_) => "bad_argument",
            ServiceError::BadCredentials => "bad_credentials",
            ServiceError::TooManyAttempts(_) => "too_many_attempts",
            ServiceError::Busy(_) => "busy",
            ServiceError::TooLarge(_) | ServiceError::BodyTooLarge(_) => "too_large",
            ServiceError::RateLimited(_) => "rate_limited",
            ServiceError::Conflict(_) => "conflict",
            ServiceError::Duplicate(_) => "duplicate",
            ServiceError::Internal => "internal",
            ServiceError::Unavailable(_) => "unavailable",
        }
    }

    /// The wire form: `{"error", "kind", "retry_after_s"?, "limit_mib"?}`, as the REST API
    /// answers it: English only.
    pub fn to_wire(&self) -> WireError {
        WireError {
            error: self.to_string(),
            kind: self.kind().to_string(),
            retry_after_s: self.retry_after_s(),
            limit_mib: self.limit_mib(),
            error_de: None,
        }
    }

    /// [`ServiceError::to_wire`] plus `error_de`, the German of a service's own sentence where
    /// it has one: the form the interface's server functions answer with, so a page (in the
    /// browser, or a plain form post's return) shows a German reader the German. `error` is the
    /// same English either way.
    pub fn to_wire_with_german(&self) -> WireError {
        WireError {
            error_de: self.german().map(str::to_string),
            ..self.to_wire()
        }
    }

    /// The error a wire form names (`None` for a kind this build does not know).
    pub fn from_wire(wire: WireError) -> Option<ServiceError> {
        let de = wire.error_de.clone();
        let error = match wire.kind.as_str() {
            "unauthenticated" => ServiceError::Unauthenticated,
            "not_found" => ServiceError::NotFound,
            "forbidden" => ServiceError::Forbidden,
            "invalid" => ServiceError::Invalid(wire.error),
            "bad_argument" => ServiceError::BadArgument(wire.error),
            "bad_credentials" => ServiceError::BadCredentials,
            "too_many_attempts" => ServiceError::TooManyAttempts(wire.retry_after_s.unwrap_or(60)),
            "busy" => ServiceError::Busy(wire.retry_after_s.unwrap_or(5)),
            "too_large" => ServiceError::TooLarge(wire.limit_mib.unwrap_or(0)),
            "rate_limited" => ServiceError::RateLimited(wire.retry_after_s.unwrap_or(1)),
            "conflict" => ServiceError::Conflict(wire.error),
            "duplicate" => ServiceError::Duplicate(wire.error),
            "internal" => ServiceError::Internal,
            "unavailable" => ServiceError::Unavailable(wire.error),
            _ => return None,
        };
        Some(match (de, &error) {
            (
                Some(de),
                ServiceError::Invalid(_)
                | ServiceError::Conflict(_)
                | ServiceError::Duplicate(_)
                | ServiceError::Unavailable(_),
            ) => error.with_german(de),
            _ => error,
        })
    }
}

/// The wire form of an error (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireError {
    pub error: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_s: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_mib: Option<u64>,
    /// `error` in German, where the service worded it (server functions only; the REST API
    /// answers English alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_de: Option<String>,
}

impl Serialize for ServiceError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_wire().serialize(serializer)
    }
}

/// A pilot form's field error (`field: message`, English as the engine writes it), with its
/// German where the message is one the pilot form gives: the field as the form labels it.
fn pilot_field_said(error: &engine::pilot::FieldError) -> Said {
    let en = error.to_string();
    let message = error.message.as_str();
    let quoted = |prefix: &str| {
        message
            .strip_prefix(prefix)
            .and_then(|rest| rest.split_once('`'))
            .map(|(value, rest)| (value.to_string(), rest.to_string()))
    };
    let de = if message == "a pilot needs a name" {
        Some("ein Pilot braucht einen Namen".to_string())
    } else if message == "must not contain control characters" {
        Some("darf keine Steuerzeichen enthalten".to_string())
    } else if let Some(max) = message
        .strip_prefix("must be at most ")
        .and_then(|rest| rest.strip_suffix(" characters"))
        .and_then(|n| n.parse::<f64>().ok())
    {
        Some(format!(
            "darf höchstens {} Zeichen lang sein",
            Lang::De.number(max, 0)
        ))
    } else if let Some((low, high)) = message
        .strip_prefix("must be between ")
        .and_then(|rest| rest.split_once(" and "))
        .and_then(|(low, high)| Some((low.parse::<f64>().ok()?, high.parse::<f64>().ok()?)))
    {
        Some(format!(
            "muss zwischen {} und {} liegen",
            Lang::De.number(low, 0),
            Lang::De.number(high, 0)
        ))
    } else if let Some((value, " is not a whole number")) = quoted("`")
        .as_ref()
        .map(|(v, rest)| (v.as_str(), rest.as_str()))
    {
        Some(format!("`{value}` ist keine ganze Zahl"))
    } else if let Some((value, _)) = quoted("unknown status `") {
        Some(format!(
            "unbekannter Status `{value}` (erwartet: planning, running, reporting oder closed)"
        ))
    } else {
        None
    };
    let field = match error.field {
        "description" => "Beschreibung",
        "model" => "Modell",
        "gpu_type" => "GPU-Typ",
        "gpu_count" => "Anzahl GPUs",
        "engine" => "Serving-Engine",
        "engine_version" => "Engine-Version",
        other => other,
    };
    Said {
        en,
        de: de.map(|de| format!("{field}: {de}")),
    }
}

impl From<engine::pilot::FieldError> for ServiceError {
    fn from(error: engine::pilot::FieldError) -> Self {
        ServiceError::invalid_said(pilot_field_said(&error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_travels_as_its_message_with_its_kind_and_comes_back_equal() {
        for error in [
            ServiceError::NotFound,
            ServiceError::Invalid("name: too long".into()),
            ServiceError::BadArgument("pilot_id: missing".into()),
            ServiceError::TooManyAttempts(120),
            ServiceError::Busy(3),
            ServiceError::TooLarge(200),
            ServiceError::RateLimited(2),
            ServiceError::Conflict("taken".into()),
            ServiceError::Duplicate("already evidence #3".into()),
            ServiceError::Unavailable("no Chromium".into()),
        ] {
            let wire = error.to_wire();
            assert_eq!(wire.error, error.to_string());
            assert_eq!(wire.kind, error.kind());
            assert_eq!(ServiceError::from_wire(wire), Some(error));
        }
        let json = serde_json::to_value(ServiceError::TooManyAttempts(120)).unwrap();
        assert_eq!(json["retry_after_s"], 120);
        assert_eq!(
            json["error"],
            "Too many failed sign-in attempts. Try again in 2 minutes."
        );
    }

    #[test]
    fn fixed_messages_read_in_german_and_the_wire_stays_english() {
        use engine::locale::Lang;
        let error = ServiceError::TooManyAttempts(120);
        assert_eq!(
            error.message_in(Lang::De),
            "Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in 2 Minuten erneut."
        );
        assert_eq!(error.message_in(Lang::En), error.to_string());
        assert_eq!(
            ServiceError::BadCredentials.message_in(Lang::De),
            "E-Mail-Adresse oder Passwort ist falsch."
        );
        // A service's own sentence is shown as written.
        let invalid = ServiceError::invalid("name: too long");
        assert_eq!(invalid.message_in(Lang::De), "name: too long");
        for error in [
            ServiceError::Unauthenticated,
            ServiceError::NotFound,
            ServiceError::Forbidden,
            ServiceError::Busy(5),
            ServiceError::TooLarge(64),
            ServiceError::RateLimited(1),
            ServiceError::Internal,
        ] {
            assert_ne!(error.message_in(Lang::De), error.to_string(), "{error:?}");
        }
    }

    #[test]
    fn a_refusal_in_german_keeps_its_english_status_kind_and_wire() {
        use engine::locale::Lang;
        let english = ServiceError::Conflict("version 2 is already approved".into());
        let worded = ServiceError::conflict_in(
            "version 2 is already approved",
            "Version 2 ist bereits freigegeben",
        );
        assert_eq!(worded.to_string(), english.to_string());
        assert_eq!(worded.status_code(), 409);
        assert_eq!(worded.kind(), "conflict");
        assert_eq!(worded.plain(), &english);
        assert_eq!(worded.message_in(Lang::En), "version 2 is already approved");
        assert_eq!(
            worded.message_in(Lang::De),
            "Version 2 ist bereits freigegeben"
        );
        // The REST wire is English alone, byte for byte the plain refusal's.
        assert_eq!(
            serde_json::to_string(&worded).unwrap(),
            serde_json::to_string(&english).unwrap()
        );
        assert_eq!(worded.to_wire(), english.to_wire());
        // The interface's wire adds the German, and reads back equal.
        let wire = worded.to_wire_with_german();
        assert_eq!(wire.error, "version 2 is already approved");
        assert_eq!(
            wire.error_de.as_deref(),
            Some("Version 2 ist bereits freigegeben")
        );
        assert_eq!(ServiceError::from_wire(wire), Some(worded.clone()));
        assert_eq!(english.to_wire_with_german().error_de, None);
        // Worded twice: the last German wins, the English stays one refusal.
        let again = worded.with_german("anders");
        assert_eq!(again.plain(), &english);
        assert_eq!(again.message_in(Lang::De), "anders");
        let said = ServiceError::invalid_said(Said::from("only English"));
        assert_eq!(said, ServiceError::Invalid("only English".into()));
    }

    #[test]
    fn the_pilot_forms_field_errors_read_in_german() {
        use engine::locale::Lang;
        use engine::pilot::{PilotFields, PilotForm};
        let refused = |form: PilotForm| ServiceError::from(PilotFields::parse(&form).unwrap_err());
        let cases = [
            (
                PilotForm::default(),
                "name: a pilot needs a name",
                "name: ein Pilot braucht einen Namen",
            ),
            (
                PilotForm {
                    name: "x".repeat(121),
                    ..PilotForm::default()
                },
                "name: must be at most 120 characters",
                "name: darf höchstens 120 Zeichen lang sein",
            ),
            (
                PilotForm {
                    name: "Pilot".into(),
                    gpu_count: "vier".into(),
                    ..PilotForm::default()
                },
                "gpu_count: `vier` is not a whole number",
                "Anzahl GPUs: `vier` ist keine ganze Zahl",
            ),
            (
                PilotForm {
                    name: "Pilot".into(),
                    gpu_count: "5000".into(),
                    ..PilotForm::default()
                },
                "gpu_count: must be between 1 and 4096",
                "Anzahl GPUs: muss zwischen 1 und 4.096 liegen",
            ),
            (
                PilotForm {
                    name: "Pilot".into(),
                    description: "a\u{7}b".into(),
                    ..PilotForm::default()
                },
                "description: must not contain control characters",
                "Beschreibung: darf keine Steuerzeichen enthalten",
            ),
        ];
        for (form, en, de) in cases {
            let error = refused(form);
            assert_eq!(error.to_string(), en);
            assert_eq!(error.to_wire().error, en);
            assert_eq!(error.message_in(Lang::De), de);
        }
    }
}
