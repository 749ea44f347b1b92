//! The OpenAPI document is generated from the handlers and wire types
//! (`server/src/routes/openapi.rs`); these tests keep it honest:
//!
//! * the generated document is the committed `server/openapi.json`, so any change to the API
//!   shows in review as a change to that file (`UPDATE_OPENAPI=1` rewrites it);
//! * every `/api/v1` route the router registers is in the document with its methods, and the
//!   document names no route that does not exist;
//! * the server serves exactly that document;
//! * every operation documents its refusals as the `ErrorBody` JSON.
//!
//! That answers match their schemas (and statuses are documented) is checked against the
//! running server by schemathesis in `make test` (`scripts/api-contract.sh`).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi.json")
}

#[test]
fn the_generated_document_is_the_committed_snapshot() {
    let generated = server::routes::openapi::document();
    let path = snapshot_path();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "the API changed: its OpenAPI document differs from {} \
         (review the change, then `UPDATE_OPENAPI=1 cargo test -p server --test api openapi`)",
        path.display()
    );
}

/// `(METHOD, /api/v1/path)` of every route registered in `server/src/routes/*.rs`, read from
/// the `.route("/api/v1/…", get(…).post(…))` calls.
fn registered_routes() -> BTreeSet<(String, String)> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/routes");
    let mut routes = BTreeSet::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        for call in source.split(".route(").skip(1) {
            let Some(rest) = call.trim_start().strip_prefix('"') else {
                continue;
            };
            let (route, rest) = rest.split_once('"').unwrap();
            if !route.starts_with("/api/v1/") {
                continue;
            }
            // The methods are the routing calls up to the route's closing parenthesis.
            let mut depth = 1;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(rest.len(), |(i, _)| i);
            let handlers = &rest[..end];
            for method in ["get", "post", "put", "patch", "delete"] {
                let called = handlers
                    .match_indices(&format!("{method}("))
                    .any(|(i, _)| i == 0 || !handlers.as_bytes()[i - 1].is_ascii_alphanumeric());
                if called {
                    routes.insert((method.to_uppercase(), route.to_string()));
                }
            }
        }
    }
    routes
}

fn documented_routes(document: &Value) -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            routes.insert((method.to_uppercase(), path.clone()));
        }
    }
    routes
}

#[test]
fn every_api_route_is_documented_and_nothing_else() {
    let document: Value = serde_json::from_str(server::routes::openapi::document()).unwrap();
    let registered = registered_routes();
    assert!(registered.len() >= 15, "{registered:?}");
    let documented = documented_routes(&document);
    let undocumented: Vec<_> = registered.difference(&documented).collect();
    let phantom: Vec<_> = documented.difference(&registered).collect();
    assert!(
        undocumented.is_empty(),
        "routes missing from the document: {undocumented:?}"
    );
    assert!(
        phantom.is_empty(),
        "documented routes that do not exist: {phantom:?}"
    );
}

#[test]
fn every_refusal_is_documented_as_the_error_body() {
    let document: Value = serde_json::from_str(server::routes::openapi::document()).unwrap();
    let error = &document["components"]["schemas"]["ErrorBody"];
    assert_eq!(error["required"], serde_json::json!(["error", "kind"]));
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2')),
                "{method} {path}: no success"
            );
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    let schema = &response["content"]["application/json"]["schema"]["$ref"];
                    assert_eq!(
                        schema, "#/components/schemas/ErrorBody",
                        "{method} {path} {status}"
                    );
                }
            }
            let secured = path == "/api/v1/openapi.json" || operation["security"].is_null();
            assert!(
                secured || operation["security"].is_array(),
                "{method} {path}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_serves_the_generated_document() {
    let app = crate::helpers::spawn_app().await;
    let response = crate::helpers::client()
        .get(app.url("/api/v1/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let served: Value = response.json().await.unwrap();
    let generated: Value = serde_json::from_str(server::routes::openapi::document()).unwrap();
    assert_eq!(served, generated);
    assert_eq!(served["openapi"], "3.1.0");
}
