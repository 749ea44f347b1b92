//! Several instances on one PostgreSQL database (the deployment of the README: two instances
//! behind nginx): a file uploaded through one is listed, graded, combined into the demand
//! profile, exported as a trace and re-derived by the other, which has none of the first one's
//! `DATA_DIR`; sessions and the sign-in back-off hold across both.
//!
//! On SQLite (the embedded default, one instance by design) there is nothing to share and the
//! test says so; CI runs it on PostgreSQL.

use crate::helpers::{ADMIN, Instance, TestApp, client, spawn_app, upload_evidence_to};
use reqwest::StatusCode;
use serde_json::Value;

const LOG: &str = concat!(
    r#"{"request_id": "a", "start_time": "2026-03-02T09:00:00Z", "end_time": "2026-03-02T09:00:10Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}"#,
    "\n",
    r#"{"request_id": "b", "start_time": "2026-03-02T09:00:05Z", "end_time": "2026-03-02T09:00:20Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 200, "completion_tokens": 100}"#,
    "\n",
);

const LATER_LOG: &str = concat!(
    r#"{"request_id": "c", "start_time": "2026-03-02T10:00:00Z", "end_time": "2026-03-02T10:00:04Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 300, "completion_tokens": 20}"#,
    "\n",
);

async fn upload(base: &str, token: &str, pilot: i64, name: &str, text: &str) -> StatusCode {
    upload_evidence_to(base, token, pilot, name, text.as_bytes().to_vec(), &[])
        .await
        .status()
}

async fn json(request: reqwest::RequestBuilder) -> Value {
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_instance_serves_what_the_first_received() {
    let first = spawn_app().await;
    if !first.on_postgres() {
        println!("one instance on SQLite by design: set TEST_DATABASE_URL to run this test");
        return;
    }
    let second = first.second_instance().await;
    let admin = first.admin().await;
    let token = first.api_token(&admin).await;
    let org = first.organisation(&admin, "Two Instances Corp").await;
    let pilot = first.pilot(&admin, org, "Behind a load balancer").await;
    let base = first.url("");
    assert_eq!(
        upload(&base, &token, pilot, "gateway.jsonl", LOG).await,
        StatusCode::CREATED
    );

    // The second instance lists the file, and the combined profile of a second log (uploaded
    // there) reads the first one's raw file, which only the database gives it.
    let files = admin
        .get(second.url(&format!("/pilots/{pilot}/evidence")))
        .send()
        .await
        .unwrap();
    assert_eq!(
        files.status(),
        StatusCode::OK,
        "the browser session holds on both"
    );
    assert!(files.text().await.unwrap().contains("gateway.jsonl"));
    assert_eq!(
        upload(&second.base, &token, pilot, "later.jsonl", LATER_LOG).await,
        StatusCode::CREATED
    );
    let demand = json(
        client()
            .get(first.url(&format!("/api/v1/pilots/{pilot}/demand")))
            .bearer_auth(&token),
    )
    .await;
    assert_eq!(demand["requests"], 3, "{demand}");

    // The trace export of the first instance reads the log it never received.
    let trace = admin
        .get(first.url(&format!("/pilots/{pilot}/traffic/trace.jsonl?scope=logged")))
        .send()
        .await
        .unwrap();
    assert_eq!(trace.status(), StatusCode::OK);
    assert_eq!(trace.text().await.unwrap().lines().count(), 3);
    let trace = admin
        .get(second.url(&format!("/pilots/{pilot}/traffic/trace.jsonl?scope=logged")))
        .send()
        .await
        .unwrap();
    assert_eq!(trace.status(), StatusCode::OK);
    assert_eq!(trace.text().await.unwrap().lines().count(), 3);

    // The demo's load test, graded on the second instance as on the first.
    let demo = first.demo_pilot.expect("demo pilot");
    let verdict = |instance_base: String| {
        let token = token.clone();
        async move {
            json(
                client()
                    .get(format!("{instance_base}/api/v1/pilots/{demo}/verdict"))
                    .bearer_auth(&token),
            )
            .await
        }
    };
    assert_eq!(
        verdict(first.url("")).await,
        verdict(second.base.clone()).await
    );
    has_no_copy_of_what_it_did_not_receive(&second, &first);
    sign_in_back_off_counts_on_both(&first, &second).await;
}

/// The second instance keeps its own copies only of what it read or received.
fn has_no_copy_of_what_it_did_not_receive(second: &Instance, first: &TestApp) {
    let copies = |dir: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(dir.join("evidence"))
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().file_name().into_string().unwrap())
                    .filter(|name| !name.ends_with(".part"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mine = copies(second.data_dir.path());
    let theirs = copies(first.data_dir());
    assert!(mine.len() < theirs.len(), "{mine:?} vs {theirs:?}");
}

async fn sign_in_back_off_counts_on_both(first: &TestApp, second: &Instance) {
    // A guess the server was too busy to check (503: the password gate's wait passed while the
    // whole suite hashes passwords) does not count; it is sent again, as a browser user would.
    let guess = |base: String| async move {
        for _ in 0..20 {
            let status = client()
                .post(format!("{base}/api/login"))
                .form(&[("email", ADMIN), ("password", "not the password at all")])
                .send()
                .await
                .unwrap()
                .status();
            if status != StatusCode::SERVICE_UNAVAILABLE {
                return status;
            }
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
        StatusCode::SERVICE_UNAVAILABLE
    };
    for n in 0..5 {
        let base = if n % 2 == 0 {
            first.url("")
        } else {
            second.base.clone()
        };
        assert_eq!(guess(base).await, StatusCode::UNAUTHORIZED, "guess {n}");
    }
    assert_eq!(
        guess(second.base.clone()).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(guess(first.url("")).await, StatusCode::TOO_MANY_REQUESTS);
}
