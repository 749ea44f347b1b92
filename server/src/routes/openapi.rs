//! The REST API's OpenAPI 3.1 document, generated from the handlers and their wire types.
//!
//! Why generated: the document used to be written by hand beside the code and drifted from it
//! (served fields missing, 403s undocumented, a required parameter not marked). Now each
//! handler carries its own `#[utoipa::path]` (method, path, parameters, every status it can
//! answer) and each request and response type derives its schema, down to the engine's types
//! (under their `openapi` feature, so the browser's wasm stays as small as it was). The document
//! is built once, served at `GET /api/v1/openapi.json`, and kept in the repository as
//! `server/openapi.json`: a test fails when the two differ, so a change to the API shows up in
//! review as a change to that file (`UPDATE_OPENAPI=1 cargo test -p server --test api openapi`
//! rewrites it). `make test` also runs schemathesis against the running server with it.

use super::{
    api_v1, api_v1_evidence, api_v1_plan, api_v1_predict, api_v1_recommendation, demand, evidence,
    live, metrics_source, quality,
};
use axum::response::{IntoResponse, Response};
use std::sync::OnceLock;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The document's root: paths, shared schemas, the bearer scheme.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Pilot Desk API",
        version = "1",
        description = "For scripts and CI pipelines. Authenticate with a personal API token \
            (Account page, or `server token create --email …`) sent as `Authorization: Bearer \
            pd_…`. Customers see only their own organisation's pilots; anything else answers \
            404. Every refusal is a JSON object `{\"error\": …, \"kind\": …}`, also when the \
            request is refused before a handler runs (a path id that is not an integer, a \
            broken body, an unknown path or method). Every request gets an `X-Request-Id` \
            (the caller's when it sends a valid one) in the response."
    ),
    paths(
        api_v1::list_pilots,
        api_v1::create_pilot,
        api_v1_plan::plan,
        api_v1_plan::verdict,
        api_v1_predict::predict,
        api_v1_recommendation::recommendation,
        evidence::upload_evidence,
        evidence::preview_evidence,
        api_v1_evidence::list,
        api_v1_evidence::withdraw,
        api_v1_evidence::restore,
        api_v1_evidence::archive,
        api_v1_evidence::delete_pilot,
        evidence::operating_points,
        demand::demand,
        quality::quality_api,
        live::post_records,
        live::create_token,
        live::list_tokens,
        live::revoke_token,
        live::live_view,
        metrics_source::set_source,
        metrics_source::get_source,
        metrics_source::delete_source,
        openapi,
    ),
    components(schemas(api_v1::ErrorBody)),
    modifiers(&BearerToken),
    security(("bearer" = [])),
    tags((name = "pilots", description = "Pilots, their plan and verdict"),
         (name = "evidence", description = "Evidence files and what was read from them"),
         (name = "capacity", description = "The capacity twin and the production recommendation"),
         (name = "live", description = "The live pilot: a gateway's records as they happen, \
            the ingest tokens it sends them with, every pass mark as it stands"))
)]
pub struct ApiDoc;

/// Adds the `bearer` security scheme every operation names.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut scheme = Http::new(HttpAuthScheme::Bearer);
        scheme.description = Some(
            "A personal API token, `pd_` followed by 64 hex characters; a signed-in browser \
             session's cookie works too."
                .into(),
        );
        components.add_security_scheme("bearer", SecurityScheme::Http(scheme));
        let mut ingest = Http::new(HttpAuthScheme::Bearer);
        ingest.description = Some(
            "A pilot's ingest token, `pdi_` followed by 64 hex characters (`server ingest-token \
             create`, or `POST /api/v1/pilots/{id}/ingest-tokens`): it posts that pilot's \
             gateway records and nothing else."
                .into(),
        );
        components.add_security_scheme("ingest_token", SecurityScheme::Http(ingest));
    }
}

/// The document as pretty JSON, built once.
pub fn document() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut json = ApiDoc::openapi()
            .to_pretty_json()
            .expect("the OpenAPI document serialises");
        json.push('\n');
        json
    })
}

/// `GET /api/v1/openapi.json`: this API's OpenAPI 3.1 description.
#[utoipa::path(
    get,
    path = "/api/v1/openapi.json",
    tag = "pilots",
    security(()),
    responses((status = 200, description = "This document.", content_type = "application/json"))
)]
pub async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        document(),
    )
        .into_response()
}
