//! The one error type of server functions and pages.
//!
//! Messages are safe to show: internal failures are logged on the server and reach the browser as
//! [`AppError::Internal`] without details. Anything a user may not see is [`AppError::NotFound`],
//! exactly like something that does not exist, so a customer cannot even learn whether another
//! organisation's pilot exists.

use leptos::server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum AppError {
    #[error("Please sign in to continue.")]
    Unauthenticated,
    #[error("Page not found.")]
    NotFound,
    #[error("Your role does not allow this.")]
    Forbidden,
    #[error("{0}")]
    Invalid(String),
    #[error("E-mail address or password is wrong.")]
    BadCredentials,
    #[error("Too many failed sign-in attempts for this account. Try again in {0} minute(s).")]
    TooManyAttempts(i64),
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

impl AppError {
    /// The HTTP status this error is answered with.
    pub fn status_code(&self) -> u16 {
        match self {
            AppError::Unauthenticated | AppError::BadCredentials => 401,
            AppError::NotFound => 404,
            AppError::Forbidden => 403,
            AppError::Invalid(_) => 422,
            AppError::TooManyAttempts(_) => 429,
            AppError::TooLarge(_) => 413,
            AppError::Conflict(_) => 409,
            AppError::Internal => 500,
            AppError::Unavailable(_) => 503,
            AppError::ServerFn(_) => 400,
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        AppError::Invalid(message.into())
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        AppError::ServerFn(value)
    }
}

impl From<engine::pilot::FieldError> for AppError {
    fn from(error: engine::pilot::FieldError) -> Self {
        AppError::Invalid(error.to_string())
    }
}
