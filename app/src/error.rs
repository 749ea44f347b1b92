//! The one error type of server functions and pages.
//!
//! Messages are safe to show: internal failures are logged on the server and reach the browser as
//! [`AppError::Internal`] without details. Anything a user may not see is [`AppError::NotFound`],
//! exactly like something that does not exist, so a customer cannot even learn whether another
//! organisation's pilot exists.
//!
//! On the wire every error is one JSON object, `{"error": "<the message>", "kind": "<kind>"}`
//! (plus `retry_after_s` or `limit_mib` where they apply), the same `error` key the REST API
//! answers with, so a script reads every refusal the same way. Arguments a server function cannot
//! decode (missing, or not of their type) are [`AppError::BadArgument`], answered 400 with the
//! field named, never 500.

use leptos::server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AppError {
    #[error("Please sign in to continue.")]
    Unauthenticated,
    #[error("Page not found.")]
    NotFound,
    #[error("Your role does not allow this.")]
    Forbidden,
    #[error("{0}")]
    Invalid(String),
    /// A server function's arguments could not be decoded: `field: problem`.
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
    #[error("{0}")]
    Conflict(String),
    #[error("Something went wrong on the server. It has been logged; please try again.")]
    Internal,
    /// A service the request needs is not available here (e.g. Chromium for PDF export).
    #[error("{0}")]
    Unavailable(String),
    #[error("{0}")]
    ServerFn(ServerFnErrorErr),
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

impl AppError {
    /// The HTTP status this error is answered with.
    pub fn status_code(&self) -> u16 {
        match self {
            AppError::Unauthenticated | AppError::BadCredentials => 401,
            AppError::NotFound => 404,
            AppError::Forbidden => 403,
            AppError::Invalid(_) => 422,
            AppError::BadArgument(_) => 400,
            AppError::TooManyAttempts(_) => 429,
            AppError::Busy(_) => 503,
            AppError::TooLarge(_) => 413,
            AppError::Conflict(_) => 409,
            AppError::Internal => 500,
            AppError::Unavailable(_) => 503,
            AppError::ServerFn(_) => 400,
        }
    }

    /// Seconds after which the same request may succeed (`Retry-After`), where that is known.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            AppError::TooManyAttempts(seconds) | AppError::Busy(seconds) => Some(*seconds),
            _ => None,
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        AppError::Invalid(message.into())
    }

    /// The stable name of the kind of error, as `kind` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            AppError::Unauthenticated => "unauthenticated",
            AppError::NotFound => "not_found",
            AppError::Forbidden => "forbidden",
            AppError::Invalid(_) => "invalid",
            AppError::BadArgument(_) => "bad_argument",
            AppError::BadCredentials => "bad_credentials",
            AppError::TooManyAttempts(_) => "too_many_attempts",
            AppError::Busy(_) => "busy",
            AppError::TooLarge(_) => "too_large",
            AppError::Conflict(_) => "conflict",
            AppError::Internal => "internal",
            AppError::Unavailable(_) => "unavailable",
            AppError::ServerFn(_) => "server_fn",
        }
    }
}

/// The wire form of [`AppError`].
#[derive(Serialize, Deserialize)]
struct WireError {
    error: String,
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_after_s: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limit_mib: Option<u64>,
}

impl Serialize for AppError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WireError {
            error: self.to_string(),
            kind: self.kind().to_string(),
            retry_after_s: self.retry_after_s(),
            limit_mib: match self {
                AppError::TooLarge(mib) => Some(*mib),
                _ => None,
            },
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for AppError {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireError::deserialize(deserializer)?;
        Ok(match wire.kind.as_str() {
            "unauthenticated" => AppError::Unauthenticated,
            "not_found" => AppError::NotFound,
            "forbidden" => AppError::Forbidden,
            "invalid" => AppError::Invalid(wire.error),
            "bad_argument" => AppError::BadArgument(wire.error),
            "bad_credentials" => AppError::BadCredentials,
            "too_many_attempts" => AppError::TooManyAttempts(wire.retry_after_s.unwrap_or(60)),
            "busy" => AppError::Busy(wire.retry_after_s.unwrap_or(5)),
            "too_large" => AppError::TooLarge(wire.limit_mib.unwrap_or(0)),
            "conflict" => AppError::Conflict(wire.error),
            "internal" => AppError::Internal,
            // Unavailable, server_fn and anything newer: the message is what matters.
            _ => AppError::Unavailable(wire.error),
        })
    }
}

/// `field: problem` from the argument decoder's message (`missing field `pilot_id``, …).
fn argument_message(message: &str) -> String {
    let field = message
        .split_once("field `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(field, _)| field);
    match field {
        Some(field) if message.contains("missing field") => {
            format!("{field}: missing (this server function needs it)")
        }
        Some(field) => format!("{field}: {message}"),
        None => format!(
            "arguments: {message} (a field that takes a number, such as an id, version or revision, got something else)"
        ),
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        let error = match value {
            ServerFnErrorErr::Args(message) => AppError::BadArgument(argument_message(&message)),
            ServerFnErrorErr::MissingArg(field) => {
                AppError::BadArgument(format!("{field}: missing (this server function needs it)"))
            }
            ServerFnErrorErr::Deserialization(message) if message.contains("length limit") => {
                AppError::BadArgument(
                    "request body: larger than this server function accepts".into(),
                )
            }
            other => AppError::ServerFn(other),
        };
        // On the server this runs while the request is decoded, before the function's body (and
        // its `respond`): set the status here, or the framework answers 500.
        #[cfg(feature = "ssr")]
        if matches!(error, AppError::BadArgument(_)) {
            let _ = crate::server::respond::<()>(Err(error.clone()));
        }
        error
    }
}

impl From<engine::pilot::FieldError> for AppError {
    fn from(error: engine::pilot::FieldError) -> Self {
        AppError::Invalid(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_travels_as_an_error_message_with_its_kind_and_comes_back_equal() {
        for error in [
            AppError::NotFound,
            AppError::Invalid("name: too long".into()),
            AppError::BadArgument("pilot_id: missing (this server function needs it)".into()),
            AppError::TooManyAttempts(120),
            AppError::Busy(3),
            AppError::TooLarge(200),
            AppError::Conflict("taken".into()),
        ] {
            let json = serde_json::to_value(&error).unwrap();
            assert_eq!(json["error"], error.to_string());
            assert_eq!(json["kind"], error.kind());
            assert_eq!(serde_json::from_value::<AppError>(json).unwrap(), error);
        }
        let json = serde_json::to_value(AppError::TooManyAttempts(120)).unwrap();
        assert_eq!(json["retry_after_s"], 120);
        assert_eq!(
            json["error"],
            "Too many failed sign-in attempts. Try again in 2 minutes."
        );
    }

    #[test]
    fn argument_errors_name_the_field() {
        assert_eq!(
            argument_message("missing field `pilot_id`"),
            "pilot_id: missing (this server function needs it)"
        );
        assert!(argument_message("invalid digit found in string").starts_with("arguments: "));
    }
}
