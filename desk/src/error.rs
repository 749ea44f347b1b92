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

use serde::{Deserialize, Serialize};

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
    /// a message a service wrote for one request (`Invalid`, `Conflict`, …) is shown as written.
    /// The wire (`{"error": …}`) always carries the English one: scripts read it.
    pub fn message_in(&self, lang: engine::locale::Lang) -> String {
        use engine::locale::Lang;
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
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
        match self {
            ServiceError::TooManyAttempts(seconds)
            | ServiceError::Busy(seconds)
            | ServiceError::RateLimited(seconds) => Some(*seconds),
            _ => None,
        }
    }

    /// The upload limit an upload was refused for, in MiB.
    pub fn limit_mib(&self) -> Option<u64> {
        match self {
            ServiceError::TooLarge(mib) => Some(*mib),
            _ => None,
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        ServiceError::Invalid(message.into())
    }

    /// The stable name of the kind of error, as `kind` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
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

    /// The wire form: `{"error", "kind", "retry_after_s"?, "limit_mib"?}`.
    pub fn to_wire(&self) -> WireError {
        WireError {
            error: self.to_string(),
            kind: self.kind().to_string(),
            retry_after_s: self.retry_after_s(),
            limit_mib: self.limit_mib(),
        }
    }

    /// The error a wire form names (`None` for a kind this build does not know).
    pub fn from_wire(wire: WireError) -> Option<ServiceError> {
        Some(match wire.kind.as_str() {
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
}

impl Serialize for ServiceError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_wire().serialize(serializer)
    }
}

impl From<engine::pilot::FieldError> for ServiceError {
    fn from(error: engine::pilot::FieldError) -> Self {
        ServiceError::Invalid(error.to_string())
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
}
