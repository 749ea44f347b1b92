//! The REST API (`/api/v1`) with personal API tokens.

use crate::helpers::{client, spawn_app};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_made_on_the_command_line_lists_and_creates_pilots() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.organisation(&admin, "Acme Corp").await;
    let output = Command::new(env!("CARGO_BIN_EXE_server"))
        .args([
            "token",
            "create",
            "--email",
            crate::helpers::ADMIN,
            "--name",
            "CI",
        ])
        .env("DATABASE_URL", app.cli_database_url())
        .env_remove("DATA_DIR")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let token = stdout.lines().last().unwrap().trim().to_string();
    assert!(token.starts_with("pd_") && token.len() == 67, "{token}");

    let http = client();
    let created = http
        .post(app.url("/api/v1/pilots"))
        .bearer_auth(&token)
        .json(&json!({ "name": "CI pilot", "organisation": "Acme Corp", "gpu_count": 8, "gpu_type": "H100 SXM" }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let id = created.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();

    let list: Value = http
        .get(app.url("/api/v1/pilots"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ours = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .expect("new pilot listed");
    assert_eq!(ours["name"], "CI pilot");
    assert_eq!(ours["organisation"], "Acme Corp");
    assert_eq!(ours["gpu_count"], 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_a_bad_token_or_a_revoked_token_gets_401() {
    let app = spawn_app().await;
    let http = client();
    let none = http.get(app.url("/api/v1/pilots")).send().await.unwrap();
    assert_eq!(none.status(), StatusCode::UNAUTHORIZED);
    assert!(none.headers().contains_key("www-authenticate"));
    assert!(none.json::<Value>().await.unwrap()["error"].is_string());
    let bad = http
        .get(app.url("/api/v1/pilots"))
        .bearer_auth("pd_0000")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::UNAUTHORIZED);
    let garbage = http
        .get(app.url("/api/v1/pilots"))
        .header("Authorization", "Basic YWRtaW46YWRtaW4=")
        .send()
        .await
        .unwrap();
    assert_eq!(garbage.status(), StatusCode::UNAUTHORIZED);

    let admin = app.admin().await;
    let issued = app
        .call_ok(&admin, "create_api_token", &[("name", "laptop")])
        .await;
    let secret = issued["secret"].as_str().unwrap().to_string();
    let ok = http
        .get(app.url("/api/v1/pilots"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    let id = issued["token"]["id"].as_i64().unwrap().to_string();
    let listed = app.call_ok(&admin, "list_api_tokens", &[]).await;
    assert!(
        listed[0]["last_used_ms"].is_i64(),
        "use is recorded: {listed}"
    );
    assert!(
        !listed.to_string().contains(&secret),
        "the secret is never listed"
    );
    app.call_ok(&admin, "revoke_api_token", &[("id", &id)])
        .await;
    let revoked = http
        .get(app.url("/api/v1/pilots"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_token_sees_only_its_organisation_and_cannot_create_pilots() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let globex = app.organisation(&admin, "Globex").await;
    app.pilot(&admin, acme, "Acme chat").await;
    app.pilot(&admin, globex, "Globex RAG").await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let secret = app.api_token(&carol).await;
    let http = client();
    let list: Value = http
        .get(app.url("/api/v1/pilots"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Acme chat"]);
    let create = http
        .post(app.url("/api/v1/pilots"))
        .bearer_auth(&secret)
        .json(&json!({ "name": "x", "organisation": "Acme Corp" }))
        .send()
        .await
        .unwrap();
    assert_eq!(create.status(), StatusCode::NOT_FOUND);

    let other_token_id = app
        .call_ok(&admin, "create_api_token", &[("name", "admin's")])
        .await["token"]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let steal = app
        .call(&carol, "revoke_api_token", &[("id", &other_token_id)])
        .await;
    assert_eq!(steal.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_are_refused_with_the_field_named() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.organisation(&admin, "Acme Corp").await;
    let secret = app.api_token(&admin).await;
    let http = client();
    // An organisation that does not exist is a thing the body names that is not there: 404,
    // with the name (issue #38: schema-valid bodies answer 2xx or 404, never 422).
    let nobody = http
        .post(app.url("/api/v1/pilots"))
        .bearer_auth(&secret)
        .json(&json!({ "name": "x", "organisation": "Nobody Ltd" }))
        .send()
        .await
        .unwrap();
    assert_eq!(nobody.status(), StatusCode::NOT_FOUND);
    let body: Value = nobody.json().await.unwrap();
    assert_eq!(body["kind"], "not_found");
    assert_eq!(
        body["error"],
        "organisation: no customer organisation named “Nobody Ltd”"
    );
    // A whole number written with a fraction of zero is a whole number.
    let eight = http
        .post(app.url("/api/v1/pilots"))
        .bearer_auth(&secret)
        .json(&json!({ "name": "Eight cards", "organisation": "Acme Corp", "gpu_count": 8.0 }))
        .send()
        .await
        .unwrap();
    assert_eq!(eight.status(), StatusCode::CREATED);
    for (body, field) in [
        (json!({ "name": "", "organisation": "Acme Corp" }), "name"),
        (
            json!({ "name": "x", "organisation": "Acme Corp", "gpu_count": 8.5 }),
            "gpu_count",
        ),
        (
            json!({ "name": "x", "organisation": "Acme Corp", "gpu_count": 0 }),
            "gpu_count",
        ),
        (json!({ "organisation": "Acme Corp" }), "name"),
    ] {
        let response = http
            .post(app.url("/api/v1/pilots"))
            .bearer_auth(&secret)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}"
        );
        let error = response.json::<Value>().await.unwrap()["error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(error.contains(field), "{body}: {error}");
    }
    let openapi: Value = http
        .get(app.url("/api/v1/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(openapi["openapi"], "3.1.0");
    assert!(openapi["paths"]["/api/v1/pilots"]["post"].is_object());
}

/// Refusals before any handler runs (extractors, unknown paths, methods) are JSON too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_api_refusal_is_json_with_a_message() {
    let app = crate::helpers::spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let http = crate::helpers::client();
    let cases = [
        (
            http.post(app.url("/api/v1/pilots/abc/evidence"))
                .bearer_auth(&token)
                .body("x"),
            400,
        ),
        (
            http.get(app.url("/api/v1/no-such-thing"))
                .bearer_auth(&token),
            404,
        ),
        (http.put(app.url("/api/v1/pilots")).bearer_auth(&token), 405),
        (
            http.post(app.url("/api/v1/pilots"))
                .bearer_auth(&token)
                .header("content-type", "text/plain")
                .body("{}"),
            422,
        ),
        (
            http.post(app.url(&format!(
                "/api/v1/pilots/{}/evidence",
                app.demo_pilot.unwrap()
            )))
            .bearer_auth(&token)
            .header("content-type", "multipart/form-data; boundary=X")
            .body("--X\r\nnot a part"),
            422,
        ),
    ];
    for (request, expected) in cases {
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        let body: serde_json::Value = response.json().await.unwrap_or_default();
        assert_eq!(status, expected, "{body}");
        assert_eq!(content_type, "application/json", "{expected}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()) && body["kind"].is_string(),
            "{expected}: {body}"
        );
    }
}
