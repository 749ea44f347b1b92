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

use desk::ServiceError;
use desk::error::{InGerman, WireError};
use leptos::server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};
use serde::{Deserialize, Serialize};

/// A service's refusal (its variants, so pages match on them), or a server function whose request
/// the framework could not decode or send ([`AppError::ServerFn`]). Messages, statuses and kinds
/// are the services' own ([`ServiceError`]): this type only adds the transport's failures.
#[derive(Clone, Debug, PartialEq)]
pub enum AppError {
    Unauthenticated,
    NotFound,
    Forbidden,
    Invalid(String),
    /// A server function's arguments could not be decoded: `field: problem`.
    BadArgument(String),
    BadCredentials,
    TooManyAttempts(u64),
    Busy(u64),
    TooLarge(u64),
    Conflict(String),
    Duplicate(String),
    NoSuch(String),
    Internal,
    Unavailable(String),
    /// A refusal worded in German too ([`ServiceError::InGerman`]).
    InGerman(Box<InGerman>),
    ServerFn(ServerFnErrorErr),
}

impl From<ServiceError> for AppError {
    fn from(error: ServiceError) -> Self {
        match error {
            ServiceError::Unauthenticated => AppError::Unauthenticated,
            ServiceError::NotFound => AppError::NotFound,
            ServiceError::Forbidden => AppError::Forbidden,
            ServiceError::Invalid(m) => AppError::Invalid(m),
            ServiceError::BadArgument(m) => AppError::BadArgument(m),
            ServiceError::BadCredentials => AppError::BadCredentials,
            ServiceError::TooManyAttempts(s) => AppError::TooManyAttempts(s),
            ServiceError::Busy(s) => AppError::Busy(s),
            ServiceError::TooLarge(mib) => AppError::TooLarge(mib),
            // Only the live feed's route answers these; pages never meet them.
            ServiceError::BodyTooLarge(m) => AppError::Invalid(m),
            ServiceError::RateLimited(s) => AppError::Busy(s),
            ServiceError::Conflict(m) => AppError::Conflict(m),
            ServiceError::Duplicate(m) => AppError::Duplicate(m),
            ServiceError::NoSuch(m) => AppError::NoSuch(m),
            ServiceError::Internal => AppError::Internal,
            ServiceError::Unavailable(m) => AppError::Unavailable(m),
            ServiceError::InGerman(worded) => AppError::InGerman(worded),
        }
    }
}

#[cfg(feature = "ssr")]
impl From<desk::store::StoreError> for AppError {
    fn from(error: desk::store::StoreError) -> Self {
        ServiceError::from(error).into()
    }
}

impl AppError {
    /// The service error this is, `None` for a transport failure.
    fn service(&self) -> Option<ServiceError> {
        Some(match self {
            AppError::Unauthenticated => ServiceError::Unauthenticated,
            AppError::NotFound => ServiceError::NotFound,
            AppError::Forbidden => ServiceError::Forbidden,
            AppError::Invalid(m) => ServiceError::Invalid(m.clone()),
            AppError::BadArgument(m) => ServiceError::BadArgument(m.clone()),
            AppError::BadCredentials => ServiceError::BadCredentials,
            AppError::TooManyAttempts(s) => ServiceError::TooManyAttempts(*s),
            AppError::Busy(s) => ServiceError::Busy(*s),
            AppError::TooLarge(mib) => ServiceError::TooLarge(*mib),
            AppError::Conflict(m) => ServiceError::Conflict(m.clone()),
            AppError::Duplicate(m) => ServiceError::Duplicate(m.clone()),
            AppError::NoSuch(m) => ServiceError::NoSuch(m.clone()),
            AppError::Internal => ServiceError::Internal,
            AppError::Unavailable(m) => ServiceError::Unavailable(m.clone()),
            AppError::InGerman(worded) => ServiceError::InGerman(worded.clone()),
            AppError::ServerFn(_) => return None,
        })
    }

    /// The HTTP status this error is answered with.
    pub fn status_code(&self) -> u16 {
        self.service().map_or(400, |e| e.status_code())
    }

    /// Seconds after which the same request may succeed (`Retry-After`), where that is known.
    pub fn retry_after_s(&self) -> Option<u64> {
        self.service().and_then(|e| e.retry_after_s())
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        AppError::Invalid(message.into())
    }

    /// [`AppError::Invalid`] said in English (`en`) and German (`de`).
    pub fn invalid_in(en: impl Into<String>, de: impl Into<String>) -> Self {
        ServiceError::invalid_in(en, de).into()
    }

    /// [`AppError::Conflict`] said in English (`en`) and German (`de`).
    pub fn conflict_in(en: impl Into<String>, de: impl Into<String>) -> Self {
        ServiceError::conflict_in(en, de).into()
    }

    /// The stable name of the kind of error, as `kind` on the wire.
    pub fn kind(&self) -> &'static str {
        self.service().map_or("server_fn", |e| e.kind())
    }
}

/// The message in the language of what is being rendered ([`crate::components::lang`]): pages
/// and notices write errors with `to_string()`, so each reads in the page's language. The wire
/// carries the service's English message as `error`, and its German as `error_de` where the
/// service wrote one (see the `Serialize` impl), so the browser shows a German reader the German.
impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self, self.service()) {
            (AppError::ServerFn(error), _) => error.fmt(f),
            (_, Some(error)) => f.write_str(&error.message_in(crate::components::lang())),
            (_, None) => Ok(()),
        }
    }
}

impl std::error::Error for AppError {}

impl Serialize for AppError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.service() {
            Some(error) => error.to_wire_with_german(),
            None => WireError {
                error: self.to_string(),
                kind: self.kind().to_string(),
                retry_after_s: None,
                limit_mib: None,
                error_de: None,
            },
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for AppError {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireError::deserialize(deserializer)?;
        let message = wire.error.clone();
        // server_fn and anything newer: the message is what matters.
        Ok(ServiceError::from_wire(wire).map_or(AppError::Unavailable(message), AppError::from))
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
            crate::server::status::set_error_status(error.status_code(), None);
        }
        error
    }
}

impl From<engine::pilot::FieldError> for AppError {
    fn from(error: engine::pilot::FieldError) -> Self {
        ServiceError::from(error).into()
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
            AppError::Duplicate("already evidence #3".into()),
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

    #[test]
    fn a_refusal_in_german_travels_with_its_german_and_keeps_the_english_error() {
        use engine::locale::Lang;
        let error = AppError::conflict_in(
            "version 2 is already approved",
            "Version 2 ist bereits freigegeben",
        );
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(json["error"], "version 2 is already approved");
        assert_eq!(json["kind"], "conflict");
        assert_eq!(json["error_de"], "Version 2 ist bereits freigegeben");
        let back: AppError = serde_json::from_value(json).unwrap();
        assert_eq!(back, error);
        let service = back.service().unwrap();
        assert_eq!(
            service.message_in(Lang::De),
            "Version 2 ist bereits freigegeben"
        );
        assert_eq!(
            service.message_in(Lang::En),
            "version 2 is already approved"
        );
        assert_eq!(back.status_code(), 409);
        // An answer from before German existed still reads (in English).
        let old: AppError = serde_json::from_str(r#"{"error":"taken","kind":"conflict"}"#).unwrap();
        assert_eq!(old, AppError::Conflict("taken".into()));
    }
}
