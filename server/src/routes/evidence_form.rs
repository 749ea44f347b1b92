//! `POST /pilots/{id}/evidence`: the evidence upload form without JavaScript.
//!
//! The evidence page's form posts here as plain `multipart/form-data` (one file and the
//! run-context fields); the file goes through exactly the same path as the REST upload
//! ([`super::evidence::upload_evidence`]) and the browser is redirected back to the evidence page
//! with the outcome: `?stored=<id>` or `?error=<message>` (the importer's error naming file, line
//! and field; a duplicate names the earlier upload).

use super::api_v1::ApiCaller;
use super::evidence::upload_evidence;
use crate::AppState;
use axum::extract::{Multipart, Path, State};
use axum::response::Redirect;

/// Percent-encodes a query value.
pub fn encode_query_value(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

pub async fn upload_evidence_form(
    state: State<AppState>,
    caller: ApiCaller,
    Path(pilot_id): Path<i64>,
    multipart: Multipart,
) -> Redirect {
    let outcome = upload_evidence(state, caller, Path(pilot_id), multipart).await;
    let query = match outcome {
        Ok((_, axum::Json(body))) => format!("stored={}", body["id"]),
        Err(error) => format!("error={}", encode_query_value(&error.0.to_string())),
    };
    Redirect::to(&format!("/pilots/{pilot_id}/evidence?{query}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(
            super::encode_query_value("a b/é&x=1"),
            "a%20b%2F%C3%A9%26x%3D1"
        );
    }
}
