//! vLLM start-up logs as pilot evidence: pasted through the UI's server function, uploaded
//! through the REST API, and predicted again by the sizing engine.

use crate::helpers::{client, spawn_app};
use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};
use serde_json::Value;

/// A start-up log written for these tests in the shape vLLM V1 prints (Llama 3.1 8B, one H100).
const LOG: &str = "\
INFO 10-02 09:00:01 [api_server.py:1234] vLLM API server version 0.10.2
INFO 10-02 09:00:01 [utils.py:326] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, 'tensor_parallel_size': 1}
INFO 10-02 09:00:40 [gpu_model_runner.py:1953] Model loading took 14.9889 GiB and 20.5 seconds
INFO 10-02 09:00:55 [gpu_worker.py:276] Available KV cache memory: 54.12 GiB
INFO 10-02 09:00:55 [kv_cache_utils.py:849] GPU KV cache size: 443,328 tokens
INFO 10-02 09:00:55 [kv_cache_utils.py:853] Maximum concurrency for 8,192 tokens per request: 54.12x
";

async fn pilot_on_h100(app: &crate::helpers::TestApp, admin: &reqwest::Client) -> i64 {
    let acme = app.organisation(admin, "Acme Corp").await;
    let org = acme.to_string();
    app.call_ok(
        admin,
        "create_pilot",
        &[
            ("organisation_id", &org),
            ("name", "Acme 8B"),
            ("description", ""),
            ("status", "running"),
            ("model", "meta-llama/Llama-3.1-8B-Instruct"),
            ("gpu_type", "NVIDIA H100 SXM 80GB"),
            ("gpu_count", "1"),
            ("engine", "vLLM"),
            ("engine_version", "0.10.2"),
        ],
    )
    .await
    .as_i64()
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_start_up_log_is_stored_and_set_against_the_prediction() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = pilot_on_h100(&app, &admin).await.to_string();
    let add = |text: &'static str| {
        let pilot = pilot.clone();
        let app = &app;
        let admin = &admin;
        async move {
            app.call(
                admin,
                "add_startup_log",
                &[
                    ("pilot_id", pilot.as_str()),
                    ("log_text", text),
                    ("model", ""),
                    ("weights", "bf16"),
                    ("kv_dtype", ""),
                    ("gpu", ""),
                    ("tp", ""),
                    ("context", ""),
                ],
            )
            .await
        }
    };
    let stored = add(LOG).await;
    assert_eq!(
        stored.status(),
        StatusCode::OK,
        "{}",
        stored.text().await.unwrap()
    );
    let again = add(LOG).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    assert!(again.text().await.unwrap().contains("already evidence"));
    let garbage = add("this is not a vLLM log").await;
    assert_eq!(garbage.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        garbage.text().await.unwrap().contains("GPU KV cache size"),
        "the error says which lines are expected"
    );

    let list = app
        .call_ok(&admin, "list_calibrations", &[("pilot_id", &pilot)])
        .await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1);
    let log = &list[0]["summary"]["log"];
    assert_eq!(log["kv_cache_tokens"], 443_328);
    assert_eq!(log["available_kv_gib"], 54.12);
    assert_eq!(log["weights_gib"], 14.9889);
    let settings = &list[0]["summary"]["settings"];
    assert_eq!(
        settings["model_id"], "llama-3.1-8b",
        "model guessed from the log"
    );
    assert_eq!(settings["gpu_id"], "h100-sxm", "GPU from the pilot's notes");
    assert_eq!(settings["context_tokens"], 8192);
    let rows = list[0]["comparison"]["Ok"]["rows"]
        .as_array()
        .expect("a prediction");
    let kv = rows
        .iter()
        .find(|r| r["quantity"] == "GPU KV cache size")
        .unwrap();
    assert_eq!(kv["actual"], 443_328.0);
    assert!(kv["difference_pct"].as_f64().unwrap().abs() < 25.0, "{kv}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_logs_upload_through_the_rest_api_and_customers_cannot() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = pilot_on_h100(&app, &admin).await;
    let token = app.api_token(&admin).await;
    let http = client();
    let url = app.url(&format!("/api/v1/pilots/{pilot}/evidence"));
    let form = || {
        Form::new()
            .part(
                "file",
                Part::bytes(LOG.as_bytes().to_vec()).file_name("startup.log"),
            )
            .text("weights", "bf16")
    };
    let created = http
        .post(&url)
        .bearer_auth(&token)
        .multipart(form())
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let body: Value = created.json().await.unwrap();
    assert_eq!(body["kind"], "vllm_startup_log");
    assert_eq!(body["file_name"], "startup.log");
    assert_eq!(body["summary"]["log"]["max_concurrency"], 54.12);
    let sha = body["sha256"].as_str().unwrap();
    assert_eq!(sha.len(), 64);

    let duplicate = http
        .post(&url)
        .bearer_auth(&token)
        .multipart(form())
        .send()
        .await
        .unwrap();
    assert_eq!(duplicate.status(), StatusCode::CONFLICT);

    let bad = http
        .post(&url)
        .bearer_auth(&token)
        .multipart(Form::new().part(
            "file",
            Part::bytes(b"hello".to_vec()).file_name("notes.txt"),
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.json::<Value>().await.unwrap()["error"]
            .as_str()
            .unwrap()
            .contains("notes.txt")
    );
    assert_eq!(
        app.call_ok(
            &admin,
            "list_calibrations",
            &[("pilot_id", &pilot.to_string())]
        )
        .await
        .as_array()
        .unwrap()
        .len(),
        1,
        "a refused file writes nothing"
    );

    let no_token = http.post(&url).multipart(form()).send().await.unwrap();
    assert_eq!(no_token.status(), StatusCode::UNAUTHORIZED);

    let acme = app
        .store
        .organisation_by_name("Acme Corp")
        .await
        .unwrap()
        .unwrap()
        .0;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let carol_token = app.api_token(&carol).await;
    let refused = http
        .post(&url)
        .bearer_auth(&carol_token)
        .multipart(form())
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);
    let seen = app
        .call_ok(
            &carol,
            "list_calibrations",
            &[("pilot_id", &pilot.to_string())],
        )
        .await;
    assert_eq!(
        seen.as_array().unwrap().len(),
        1,
        "customers read their pilot's calibration"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_over_the_limit_are_refused_with_413() {
    let app = crate::helpers::spawn_app_with(|config| config.max_upload_bytes = 1024).await;
    let admin = app.admin().await;
    let pilot = pilot_on_h100(&app, &admin).await;
    let token = app.api_token(&admin).await;
    let big = vec![b'x'; 4096];
    let response = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .multipart(Form::new().part("file", Part::bytes(big).file_name("big.log")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
}
