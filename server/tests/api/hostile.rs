//! The hostile corpus over HTTP (`testdata/hostile`, see its README): every file is uploaded
//! through `POST /api/v1/pilots/{id}/evidence` as its kind, and each must be refused with 422 and
//! a message naming the file, the line or field and the rule (`expected.tsv`). Afterwards the
//! pilot has no evidence and `server check` finds the store consistent, with the rows, staged
//! uploads and files it had before: a refused upload leaves nothing behind.
//!
//! The evaluation runs are left out here: a run is read against an evaluation set stored as
//! evidence first, so "no evidence afterwards" would not hold; the engine test
//! (`engine/tests/hostile.rs`) reads them against the same set.

use crate::helpers::{TestApp, client, spawn_app, spawn_app_with};
use crate::upload_races::store_check;
use reqwest::StatusCode;
use serde_json::Value;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/hostile")
}

/// The upload form's `kind` for a corpus folder; `None` for the folders left out.
fn upload_kind(folder: &str) -> Option<&'static str> {
    Some(match folder {
        "vllm_bench" | "aiperf_json" | "aiperf_csv" | "aiperf_jsonl" | "guidellm" => "load_test",
        "metrics_scrape" => "metrics_scrape",
        "gateway_log" => "gateway_log",
        "lm_eval" => "lm_eval_results",
        "startup_log" => "vllm_startup_log",
        _ => return None,
    })
}

/// The pilot's evidence register as the REST API lists it.
async fn register(app: &TestApp, token: &str, pilot: i64) -> Value {
    client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// What is wrong with the answer to one upload, if anything.
async fn refusal_problem(app: &TestApp, token: &str, pilot: i64, line: &str) -> Option<String> {
    let cells: Vec<&str> = line.split('\t').collect();
    let [file, rule, place] = cells[..] else {
        return Some(format!("expected.tsv: {line:?}"));
    };
    let (folder, name) = file.split_once('/')?;
    let kind = upload_kind(folder)?;
    let bytes = std::fs::read(corpus().join(file)).unwrap();
    let response = app
        .upload_evidence(token, pilot, name, bytes, &[("kind", kind)])
        .await;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    let message = body["error"].as_str().unwrap_or_default();
    let named = message.contains(name) && message.contains(place) && message.contains(rule);
    (status != StatusCode::UNPROCESSABLE_ENTITY || !named)
        .then(|| format!("{file}: {status} {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_hostile_upload_is_refused_naming_file_place_and_rule_and_nothing_is_stored() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Hostile Files Ltd").await;
    let pilot = app.pilot(&admin, org, "Refuses them all").await;
    // The app starts with the demo's evidence: what is stored must not change.
    let (before, _) = store_check(&app);
    let expected = std::fs::read_to_string(corpus().join("expected.tsv")).unwrap();
    let mut sent = 0;
    let mut problems = Vec::new();
    for line in expected.lines().skip(1).filter(|l| !l.is_empty()) {
        let folder = line.split('/').next().unwrap_or_default();
        if upload_kind(folder).is_none() {
            continue;
        }
        sent += 1;
        if let Some(problem) = refusal_problem(&app, &token, pilot, line).await {
            problems.push(problem);
        }
    }
    assert!(sent >= 190, "only {sent} hostile files uploaded");
    assert!(
        problems.is_empty(),
        "{} of {sent} uploads:\n{}",
        problems.len(),
        problems.join("\n")
    );

    let register = register(&app, &token, pilot).await;
    assert_eq!(register["files"], Value::Array(Vec::new()), "{register}");
    let (check, clean) = store_check(&app);
    assert!(clean, "{check:#}");
    assert_eq!(check["ok"], true, "{check:#}");
    for count in ["evidence_rows", "staged_uploads", "files"] {
        assert_eq!(
            check[count], before[count],
            "{count}: {before:#} → {check:#}"
        );
    }
}

/// A file of many small records passes the byte limit; `MAX_RECORDS_PER_FILE` still refuses it
/// whole, naming the file, its count and the setting, and the pilot keeps nothing of it.
#[tokio::test]
async fn a_file_past_the_records_per_file_limit_is_refused_whole() {
    let app = spawn_app_with(|config| config.intake.records_per_file = 3).await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Many Records Ltd").await;
    let pilot = app.pilot(&admin, org, "Four requests").await;
    let line = |id: u32| {
        format!(
            r#"{{"request_id": "r{id}", "start_time": "2026-03-02T09:00:0{id}Z", "end_time": "2026-03-02T09:00:1{id}Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}}"#
        ) + "\n"
    };
    let four: String = (1..=4).map(line).collect();
    let response = app
        .upload_evidence(&token, pilot, "four.jsonl", four.into_bytes(), &[])
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = response.json().await.unwrap();
    let message = body["error"].as_str().unwrap_or_default();
    for part in ["four.jsonl", "4 records", "MAX_RECORDS_PER_FILE"] {
        assert!(message.contains(part), "{part}: {body}");
    }
    let three: String = (1..=3).map(line).collect();
    let response = app
        .upload_evidence(&token, pilot, "three.jsonl", three.into_bytes(), &[])
        .await;
    assert_eq!(
        response.status(),
        StatusCode::CREATED,
        "at the limit is taken"
    );
    let register = register(&app, &token, pilot).await;
    let files = register["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{register}");
    assert_eq!(files[0]["file_name"], "three.jsonl");
}
