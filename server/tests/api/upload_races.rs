//! Uploads that cannot race (issue #38): the same file uploaded many times at once through two
//! instances is stored once, every other upload answers 409 `duplicate` and nothing 5xx, and
//! the stored row keeps its raw file on every instance; a pilot deleted while its file is
//! uploaded to another pilot takes nothing the other pilot's row names. `server check` runs on
//! the store afterwards and must find no fault.
//!
//! On SQLite the second instance shares the first one's database file and `DATA_DIR` (two
//! processes on one embedded database); on PostgreSQL (`TEST_DATABASE_URL`) it has a `DATA_DIR`
//! of its own, as behind a load balancer.

use crate::cli::server_binary;
use crate::helpers::{TestApp, client, spawn_app, upload_evidence_to};
use reqwest::StatusCode;
use serde_json::Value;

/// A gateway log of `requests` requests whose bytes differ with `tag`.
fn gateway_log(tag: &str, requests: usize) -> Vec<u8> {
    let mut log = String::new();
    for i in 0..requests {
        log.push_str(&format!(
            "{{\"request_id\": \"{tag}-{i}\", \"start_time\": \"2026-03-02T09:{:02}:00Z\", \
             \"end_time\": \"2026-03-02T09:{:02}:10Z\", \"model\": \"Qwen/Qwen3-8B\", \
             \"status\": \"ok\", \"prompt_tokens\": {}, \"completion_tokens\": 50}}\n",
            i % 60,
            i % 60,
            100 + i
        ));
    }
    log.into_bytes()
}

/// The base URL of another instance: its own `DATA_DIR` on PostgreSQL, the same one on SQLite.
async fn other_instance(app: &TestApp) -> (String, Option<crate::helpers::Instance>) {
    if app.on_postgres() {
        let instance = app.second_instance().await;
        (instance.base.clone(), Some(instance))
    } else {
        (app.instance_sharing_data_dir().await, None)
    }
}

/// `server check --json` on the app's store: its JSON and whether it exited 0.
pub fn store_check(app: &TestApp) -> (Value, bool) {
    let output = server_binary()
        .args(["check", "--json"])
        .env("DATABASE_URL", app.cli_database_url())
        .env("DATA_DIR", app.data_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let check: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "server check --json: {e}: {stdout} {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (check, output.status.success())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn identical_uploads_at_once_through_two_instances_store_one_row_and_its_file() {
    let app = spawn_app().await;
    let (second, _instance) = other_instance(&app).await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Racing Uploads Ltd").await;
    let pilot = app.pilot(&admin, org, "Eight at once").await;
    let log = gateway_log("same", 40);

    let mut uploads = tokio::task::JoinSet::new();
    for i in 0..8 {
        let base = if i % 2 == 0 {
            app.url("")
        } else {
            second.clone()
        };
        let (token, log) = (token.clone(), log.clone());
        uploads.spawn(async move {
            let response =
                upload_evidence_to(&base, &token, pilot, "gateway.jsonl", log, &[]).await;
            let status = response.status();
            (
                status,
                response.json::<Value>().await.unwrap_or(Value::Null),
            )
        });
    }
    let (mut created, mut duplicates) = (0, 0);
    while let Some(result) = uploads.join_next().await {
        let (status, body) = result.unwrap();
        match status {
            StatusCode::CREATED => created += 1,
            StatusCode::CONFLICT => {
                assert_eq!(body["kind"], "duplicate", "{body}");
                assert!(
                    body["error"]
                        .as_str()
                        .unwrap()
                        .starts_with("gateway.jsonl: "),
                    "{body}"
                );
                duplicates += 1;
            }
            other => panic!("an identical upload answered {other}: {body}"),
        }
    }
    assert_eq!((created, duplicates), (1, 7));

    let register: Value = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(register["files"].as_array().unwrap().len(), 1, "{register}");
    // Both instances read the raw file (the trace export replays it line by line).
    for base in [app.url(""), second.clone()] {
        let trace = admin
            .get(format!(
                "{base}/pilots/{pilot}/traffic/trace.jsonl?scope=logged"
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(trace.status(), StatusCode::OK, "{base}");
        assert_eq!(trace.text().await.unwrap().lines().count(), 40, "{base}");
    }
    let (check, clean) = store_check(&app);
    assert!(clean, "{check:#}");
    assert_eq!(check["ok"], true);
    assert!(check["evidence_rows"].as_u64().unwrap() >= 1, "{check}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn deleting_a_pilot_while_its_file_goes_to_another_loses_no_named_file() {
    let app = spawn_app().await;
    let (second, _instance) = other_instance(&app).await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Shared Files GmbH").await;
    for round in 0..4 {
        let log = gateway_log(&format!("round-{round}"), 5);
        let leaving = app.pilot(&admin, org, &format!("Leaving {round}")).await;
        let staying = app.pilot(&admin, org, &format!("Staying {round}")).await;
        let first =
            upload_evidence_to(&app.url(""), &token, leaving, "g.jsonl", log.clone(), &[]).await;
        assert_eq!(first.status(), StatusCode::CREATED);
        // The last copy's owner goes while the same bytes arrive for another pilot.
        let delete = client()
            .delete(app.url(&format!("/api/v1/pilots/{leaving}")))
            .bearer_auth(&token)
            .send();
        let upload = upload_evidence_to(&second, &token, staying, "g.jsonl", log, &[]);
        let (deleted, uploaded) = tokio::join!(delete, upload);
        assert!(deleted.unwrap().status().is_success());
        assert_eq!(uploaded.status(), StatusCode::CREATED, "round {round}");
        let trace = admin
            .get(app.url(&format!("/pilots/{staying}/traffic/trace.jsonl")))
            .send()
            .await
            .unwrap();
        assert_eq!(trace.status(), StatusCode::OK, "round {round}");
    }
    let (check, clean) = store_check(&app);
    assert!(clean, "{check:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_check_names_a_row_without_its_file_and_a_file_nothing_names() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Damaged Store plc").await;
    let pilot = app.pilot(&admin, org, "Damaged").await;
    let upload = app
        .upload_evidence(&token, pilot, "gateway.jsonl", gateway_log("kept", 3), &[])
        .await;
    assert_eq!(upload.status(), StatusCode::CREATED);
    let sha256 = upload.json::<Value>().await.unwrap()["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    let (check, clean) = store_check(&app);
    assert!(clean, "{check:#}");

    // Take the raw file away (from the database too) and leave a stray one.
    if app.on_postgres() {
        use sqlx::{Connection, Executor};
        let mut db = sqlx::AnyConnection::connect(&app.cli_database_url())
            .await
            .unwrap();
        db.execute(format!("DELETE FROM evidence_blobs WHERE sha256 = '{sha256}'").as_str())
            .await
            .unwrap();
        db.execute("INSERT INTO evidence_blobs (sha256, chunk, bytes) VALUES ('stray', 0, 'x')")
            .await
            .unwrap();
    } else {
        std::fs::remove_file(app.data_dir().join("evidence").join(&sha256)).unwrap();
        std::fs::write(app.data_dir().join("evidence").join("stray"), b"x").unwrap();
    }
    let (check, clean) = store_check(&app);
    assert!(!clean, "a damaged store passed: {check:#}");
    let faults = check["faults"].as_array().unwrap();
    let of_kind = |kind: &str| {
        faults
            .iter()
            .filter(|f| f["kind"] == kind)
            .map(|f| f["subject"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(of_kind("missing_file").len(), 1, "{check:#}");
    assert!(of_kind("missing_file")[0].starts_with("evidence #"));
    assert_eq!(of_kind("orphan_file"), ["file stray"], "{check:#}");
}
