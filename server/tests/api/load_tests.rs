//! Load-test results as evidence: uploaded through the REST API, listed as operating points, and
//! checked on the command line with `server inspect` — on the real fixture files.

use crate::helpers::{client, spawn_app};
use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The real files of `testdata/` (their sources in `testdata/SOURCES.md`).
fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn expected(path: &str) -> Value {
    serde_json::from_slice(&fixture(path)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vllm_bench_result_uploads_and_its_numbers_come_back_as_operating_points() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let token = app.api_token(&admin).await;
    let http = client();
    let path = "er0080-vllm-benchmarking/bench_serve_v0.25.1.json";
    let form = Form::new().part(
        "file",
        Part::bytes(fixture(path)).file_name("bench_serve_v0.25.1.json"),
    );
    let created = http
        .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        created.status(),
        StatusCode::CREATED,
        "{}",
        created.text().await.unwrap()
    );

    let points: Value = http
        .get(app.url(&format!("/api/v1/pilots/{pilot}/operating-points")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created.json::<Value>().await.unwrap()["id"].clone();
    // The demo pilot also has the benchmark report's twelve points.
    let points: Vec<&Value> = points
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["evidence_id"] == id)
        .collect();
    assert_eq!(points.len(), 1);
    let file = expected(path);
    let point = points[0];
    assert_eq!(point["completed"], file["completed"]);
    assert_eq!(
        point["concurrency"].as_f64(),
        file["max_concurrency"].as_f64()
    );
    assert_eq!(point["output_tokens_per_s"], file["output_throughput"]);
    assert_eq!(point["metrics"]["ttft_ms"]["mean"], file["mean_ttft_ms"]);
    assert_eq!(point["metrics"]["ttft_ms"]["p99"], file["p99_ttft_ms"]);
    assert_eq!(point["metrics"]["tpot_ms"]["p50"], file["median_tpot_ms"]);
    assert_eq!(point["tool"], "vllm bench serve");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_load_test_names_the_line_and_writes_nothing() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let token = app.api_token(&admin).await;
    let mut lines: Vec<String> =
        String::from_utf8(fixture("nerdalert-vllm-benchmark-graphs/results.json"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(String::from)
            .collect();
    let before = app.store.list_evidence(pilot, None).await.unwrap().len();
    lines[2] = lines[2].replacen(
        "\"mean_ttft_ms\": ",
        "\"mean_ttft_ms\": \"abc\", \"x\": ",
        1,
    );
    let response = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .multipart(Form::new().part(
            "file",
            Part::bytes(lines.join("\n").into_bytes()).file_name("results.jsonl"),
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let error = response.json::<Value>().await.unwrap()["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        error.contains("results.jsonl") && error.contains("line 3"),
        "{error}"
    );
    // Nothing beyond the demo pilot's first-start evidence.
    assert_eq!(
        app.store.list_evidence(pilot, None).await.unwrap().len(),
        before
    );
}

#[test]
fn inspect_reads_fixtures_without_a_database() {
    let dir = fixtures();
    let output = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["inspect", "--json"])
        .arg(dir.join("aiperf-examples-run1/profile_export_aiperf.json"))
        .arg(dir.join("er0080-vllm-benchmarking/sweep_v0.25.1"))
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reports: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(reports[0]["kind"], "load_test");
    assert_eq!(reports[0]["import"]["tool"], "aiperf");
    assert_eq!(reports[0]["import"]["points"][0]["completed"], 89);
    assert_eq!(
        reports[1]["import"]["points"].as_array().unwrap().len(),
        4,
        "a sweep folder"
    );

    let bad = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["inspect"])
        .arg(dir.join("SOURCES.md"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stdout).contains("not a file this server reads"));
}
