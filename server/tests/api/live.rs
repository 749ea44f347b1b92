//! The live gateway feed (issue #36): a gateway posts what LiteLLM 1.108.7's `generic_api`
//! callback really sent (`testdata/litellm-1.108.7-generic-api/posts.json`, seven posts of 16
//! payloads) with a pilot's ingest token; the records roll into the pilot's gateway-log
//! evidence and its demand, replays count once, bad records are refused by index and field,
//! and the token writes one pilot and reads nothing.

use crate::cli::server_binary;
use crate::helpers::{TestApp, client, fixture, spawn_app};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::io::Write;

async fn new_pilot(app: &TestApp, admin: &reqwest::Client, name: &str) -> (i64, i64) {
    let org = app.organisation(admin, &format!("{name} Corp")).await;
    (app.pilot(admin, org, name).await, org)
}

async fn ingest_token(app: &TestApp, api: &str, pilot: i64) -> (i64, String) {
    let response = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/ingest-tokens")))
        .bearer_auth(api)
        .json(&json!({"name": "litellm-pilot"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    let token = body["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("pdi_") && token.len() == 68, "{token}");
    (body["id"].as_i64().unwrap(), token)
}

async fn post(
    app: &TestApp,
    pilot: i64,
    token: &str,
    body: Vec<u8>,
    gzip: bool,
) -> (StatusCode, Value) {
    let mut request = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/gateway/records")))
        .header("content-type", "application/json")
        .bearer_auth(token);
    if gzip {
        request = request.header("content-encoding", "gzip");
    }
    let response = request.body(body).send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

async fn get_json(app: &TestApp, token: &str, path: &str) -> (StatusCode, Value) {
    let response = client()
        .get(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// `GET /live` until the day files hold every record received (the roll runs in the
/// background after each batch).
async fn rolled(app: &TestApp, api: &str, pilot: i64) -> Value {
    rolled_to(app, api, pilot, None).await
}

/// [`rolled`] once `records` (any number above 0 when `None`) have arrived.
async fn rolled_to(app: &TestApp, api: &str, pilot: i64, records: Option<i64>) -> Value {
    for _ in 0..300 {
        let (status, live) = get_json(app, api, &format!("/api/v1/pilots/{pilot}/live")).await;
        assert_eq!(status, StatusCode::OK, "{live}");
        let arrived = match records {
            Some(n) => live["records"] == n,
            None => live["records"].as_i64() > Some(0),
        };
        if arrived && live["records"] == live["rolled"] {
            return live;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the live records were not rolled within 30 s");
}

/// The answer to a batch post that declares 9 MiB and sends none of it.
async fn declared_over_the_limit(app: &TestApp, pilot: i64, token: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = app.base.trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/v1/pilots/{pilot}/gateway/records HTTP/1.1\r\nHost: {address}\r\n\
         Authorization: Bearer {token}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        9 << 20
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 4096];
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut answer))
        .await
        .expect("answered without waiting for the body")
        .unwrap();
    String::from_utf8_lossy(&answer[..read]).into_owned()
}

/// The graded marks of a `/live` answer with the moment each became gradable.
fn gradable_moments(live: &Value) -> Vec<(String, i64)> {
    live["marks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["grade"] == "pass" || m["grade"] == "fail")
        .map(|m| {
            let at = m["gradable_since_ms"].as_i64();
            let at = at.unwrap_or_else(|| panic!("a graded mark without its moment: {m}"));
            (m["notation"].as_str().unwrap().to_string(), at)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn litellm_posts_fill_the_pilots_demand_once_however_often_they_are_sent() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let api = app.api_token(&admin).await;
    // Serving the model the gateway's records name, so its marks grade them.
    let org = app.organisation(&admin, "Live Corp").await;
    let pilot = app.pilot_serving(&admin, org, "Live", "pilot-chat").await;
    crate::fidelity::approved_plan(&app, &admin, pilot, "interactive-chat", "8").await;
    let (_, token) = ingest_token(&app, &api, pilot).await;
    let (_, before) = get_json(&app, &api, &format!("/api/v1/pilots/{pilot}/live")).await;
    assert!(
        before["marks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["gradable_since_ms"].is_null() && m["grade"] == "not_measured"),
        "{before}"
    );
    let started_ms = before["now_ms"].as_i64().unwrap();

    let posts = fixture("litellm-1.108.7-generic-api/posts.json");
    let posts: Vec<&[u8]> = posts
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .collect();
    assert_eq!(posts.len(), 7);
    let (mut accepted, mut left_out) = (0, 0);
    for (i, body) in posts.iter().enumerate() {
        // Every other post compressed, as a gateway configured for gzip sends it.
        let body = if i % 2 == 1 {
            gzipped(body)
        } else {
            body.to_vec()
        };
        let (status, answer) = post(&app, pilot, &token, body, i % 2 == 1).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["duplicates"], 0, "{answer}");
        assert_eq!(answer["rejected"], json!([]), "{answer}");
        accepted += answer["accepted"].as_i64().unwrap();
        left_out += answer["left_out"].as_i64().unwrap();
    }
    // 16 payloads: 13 of the model's demand, 2 health probes and 1 embedding kept but left out.
    assert_eq!((accepted, left_out), (16, 3));

    // LiteLLM retries a post it got no answer to; a replay of the whole run counts nothing.
    let all = posts.join(&b'\n');
    let (status, replay) = post(&app, pilot, &token, all, false).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(
        (replay["accepted"].as_i64(), replay["duplicates"].as_i64()),
        (Some(0), Some(16))
    );

    let live = rolled(&app, &api, pilot).await;
    assert_eq!(live["records"], 16);
    assert_eq!(live["active_tokens"], 1);
    assert_eq!(live["days"].as_array().unwrap().len(), 1, "{live}");
    let day = &live["days"][0];
    assert_eq!(day["stream"], "litellm_standard_payload");
    assert!(live["last_record_age_s"].as_i64().unwrap() < 60, "{live}");
    // The gateway marks grade from the records, each noted with the moment it became gradable
    // (on the roll, not on this request).
    // Of the three: the output speed (4 answers); the TTFT p95 needs 20 requests, the error
    // rate 100, so neither grades yet.
    let graded = gradable_moments(&live);
    assert_eq!(graded.len(), 1, "{live}");
    assert!(graded[0].0.starts_with("output speed"), "{live}");
    for (_, at) in &graded {
        assert!(
            (started_ms..=live["now_ms"].as_i64().unwrap()).contains(at),
            "{live}"
        );
    }
    // The REST verdict carries the same moments, and none on a mark that does not grade.
    let (_, verdict) = get_json(&app, &api, &format!("/api/v1/pilots/{pilot}/verdict")).await;
    for mark in verdict["pass_marks"].as_array().unwrap() {
        let at = mark["gradable_since_ms"].as_i64();
        if mark["status"] == "pass" || mark["status"] == "fail" {
            assert_eq!(at, Some(graded[0].1), "{verdict}");
        } else {
            assert_eq!(at, None, "{verdict}");
        }
    }

    // The day file is the pilot's gateway log: the tool's own figures, as the importer test
    // reads them from the same payloads (4 complete, 8 the client hung up on, 1 refused).
    let (status, demand) = get_json(&app, &api, &format!("/api/v1/pilots/{pilot}/demand")).await;
    assert_eq!(status, StatusCode::OK, "{demand}");
    assert_eq!(demand["requests"], 13, "{demand}");
    assert_eq!(demand["ok"], 4);
    assert_eq!(demand["cancelled"], 8);
    let (_, register) = get_json(&app, &api, &format!("/api/v1/pilots/{pilot}/evidence")).await;
    let file = register["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == day["evidence_id"])
        .unwrap_or_else(|| panic!("{register}"));
    let name = file["file_name"].as_str().unwrap();
    assert!(
        name.starts_with("live-gateway-") && name.ends_with("-litellm.jsonl"),
        "{name}"
    );
    assert_eq!(file["kind"], "gateway_log");

    // A later record of the same day replaces the day file in place (same evidence id) and
    // the demand counts it; a malformed record is refused by index and field while the rest
    // of its batch is kept.
    let first: Vec<Value> = serde_json::from_slice(posts[0]).unwrap();
    let mut later = first[0].clone();
    later["id"] = json!("chatcmpl-later-one");
    let mut broken = first[0].clone();
    broken["id"] = json!("chatcmpl-broken");
    broken["prompt_tokens"] = json!(-5);
    let batch = serde_json::to_vec(&json!([later, broken, 7])).unwrap();
    let stamp_before = app.store.pilot_revision(pilot).await.unwrap();
    let (status, answer) = post(&app, pilot, &token, batch, false).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["accepted"], 1, "{answer}");
    let rejected = answer["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 2, "{answer}");
    assert_eq!(rejected[0]["index"], 1);
    assert_eq!(rejected[0]["field"], "prompt_tokens", "{answer}");
    assert_eq!(rejected[1]["index"], 2);
    assert_eq!(rejected[1]["error"], "not a JSON object");
    let live = rolled_to(&app, &api, pilot, Some(17)).await;
    assert_eq!(live["records"], 17, "{live}");
    assert_eq!(live["days"][0]["evidence_id"], day["evidence_id"]);
    // Such a roll is one the pilot page may show a roll behind (it does not wait for the new
    // overview): the pilot's revision stamp says so. An upload is not.
    let stamp_rolled = app.store.pilot_revision(pilot).await.unwrap();
    assert!(
        desk::store::evidence::live_roll_only(&stamp_before, &stamp_rolled),
        "{stamp_before} → {stamp_rolled}"
    );
    let (_, demand) = get_json(&app, &api, &format!("/api/v1/pilots/{pilot}/demand")).await;
    assert_eq!(demand["requests"], 14, "{demand}");
    assert_eq!(demand["ok"], 5);
    // A later record moves no mark's moment.
    assert_eq!(gradable_moments(&live), graded, "{live}");

    // Fifteen more answers make 20: the TTFT p95 becomes gradable then, the other keeps its
    // moment, and the page names both.
    let more: Vec<Value> = (0..15)
        .map(|i| {
            let mut record = first[0].clone();
            record["id"] = json!(format!("chatcmpl-more-{i}"));
            record
        })
        .collect();
    let body = gzipped(&serde_json::to_vec(&more).unwrap());
    let (status, answer) = post(&app, pilot, &token, body, true).await;
    assert_eq!((status, &answer["accepted"]), (StatusCode::OK, &json!(15)));
    let live = rolled_to(&app, &api, pilot, Some(32)).await;
    let now_graded = gradable_moments(&live);
    assert_eq!(now_graded.len(), 2, "{live}");
    assert!(now_graded.contains(&graded[0]), "{live}");
    let ttft = now_graded
        .iter()
        .find(|(n, _)| n.starts_with("TTFT p95"))
        .unwrap();
    assert!(ttft.1 > graded[0].1, "{live}");
    let page = app.page(&admin, &format!("/pilots/{pilot}")).await;
    for (_, at) in &now_graded {
        let since = format!("graded since {}", engine::clock::utc_minute(*at));
        assert!(
            page.contains(&since),
            "the pilot page names each moment: {since}"
        );
    }

    let stamp_live = app.store.pilot_revision(pilot).await.unwrap();
    let uploaded = app
        .upload_evidence(
            &api,
            pilot,
            "profile_export_aiperf.json",
            fixture("aiperf-examples-run1/profile_export_aiperf.json"),
            &[],
        )
        .await;
    assert_eq!(uploaded.status(), StatusCode::CREATED);
    let stamp_uploaded = app.store.pilot_revision(pilot).await.unwrap();
    assert!(!desk::store::evidence::live_roll_only(
        &stamp_live,
        &stamp_uploaded
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ingest_token_writes_its_own_pilot_and_nothing_else() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let api = app.api_token(&admin).await;
    let (pilot, org) = new_pilot(&app, &admin, "Mine").await;
    let (other, _) = new_pilot(&app, &admin, "Theirs").await;
    let (token_id, token) = ingest_token(&app, &api, pilot).await;
    let record = br#"{"request_id": "g1", "start_time": "2026-03-02T09:00:00Z", "end_time": "2026-03-02T09:00:10Z", "model": "Qwen/Qwen3-8B", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}"#;

    let (status, answer) = post(&app, pilot, &token, record.to_vec(), false).await;
    assert_eq!(
        (status, answer["accepted"].as_i64()),
        (StatusCode::OK, Some(1)),
        "{answer}"
    );
    // Another pilot, a pilot that does not exist, a wrong token, none: the same 401.
    for (target, secret) in [
        (other, token.as_str()),
        (99_999, token.as_str()),
        (
            pilot,
            "pdi_0000000000000000000000000000000000000000000000000000000000000000",
        ),
        (pilot, api.as_str()),
    ] {
        let (status, body) = post(&app, target, secret, record.to_vec(), false).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        assert_eq!(body["kind"], "unauthenticated");
    }
    // The ingest token reads nothing.
    for path in [
        "/api/v1/pilots".to_string(),
        format!("/api/v1/pilots/{pilot}/live"),
    ] {
        let (status, _) = get_json(&app, &token, &path).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
    }
    // Over 8 MiB: 413 before the body is read. Declared on a raw connection and the answer
    // read without sending the body: a client writing 9 MiB may meet the closed connection
    // (broken pipe) before it reads the 413, as the whole suite's load showed once.
    let answer = declared_over_the_limit(&app, pilot, &token).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"kind\":\"too_large\""), "{answer}");

    // A customer of the pilot's organisation watches it live but does not see its tokens (404,
    // as anything a customer may not see); another organisation's pilot is 404 too.
    let customer = app
        .user(&admin, "watcher@mine.example", "customer", org)
        .await;
    let response = customer
        .get(app.url(&format!("/api/v1/pilots/{pilot}/live")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let live: Value = response.json().await.unwrap();
    assert_eq!(live["records"], 1);
    let response = customer
        .get(app.url(&format!("/api/v1/pilots/{other}/live")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = customer
        .get(app.url(&format!("/api/v1/pilots/{pilot}/ingest-tokens")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    // Listed without its secret; revoked, it is refused like a wrong one.
    let (_, tokens) = get_json(&app, &api, &format!("/api/v1/pilots/{pilot}/ingest-tokens")).await;
    assert_eq!(tokens[0]["name"], "litellm-pilot");
    assert!(
        tokens[0].get("token").is_none() && tokens[0]["last_used_ms"].is_i64(),
        "{tokens}"
    );
    let response = client()
        .delete(app.url(&format!("/api/v1/pilots/{pilot}/ingest-tokens/{token_id}")))
        .bearer_auth(&api)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (status, _) = post(&app, pilot, &token, record.to_vec(), false).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The command line makes one too, printed last.
    let output = server_binary()
        .args([
            "ingest-token",
            "create",
            "--pilot",
            &pilot.to_string(),
            "--name",
            "cli",
        ])
        .env("DATABASE_URL", app.cli_database_url())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let cli_token = stdout.lines().last().unwrap().trim().to_string();
    let (status, answer) = post(&app, pilot, &cli_token, record.to_vec(), false).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["duplicates"], 1, "the same request id again");
}

#[tokio::test]
async fn a_large_batch_counts_each_request_once_even_when_it_repeats_one() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let api = app.api_token(&admin).await;
    let (pilot, _) = new_pilot(&app, &admin, "Chunks").await;
    let (_, token) = ingest_token(&app, &api, pilot).await;
    // 1,200 records (inserted 500 a statement), the request at index 3 sent again at 1,100.
    let record = |n: usize| {
        json!({"request_id": format!("big-{n}"), "start_time": "2026-03-02T10:00:00Z",
               "end_time": "2026-03-02T10:00:02Z", "model": "m", "status": "ok",
               "prompt_tokens": 100 + n, "completion_tokens": 50})
    };
    let mut batch: Vec<Value> = (0..1_200).map(record).collect();
    batch[1_100] = record(3);
    let body = serde_json::to_vec(&batch).unwrap();
    let (status, answer) = post(&app, pilot, &token, body.clone(), false).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (answer["accepted"].as_i64(), answer["duplicates"].as_i64()),
        (Some(1_199), Some(1))
    );
    let (status, replay) = post(&app, pilot, &token, body, false).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(
        (replay["accepted"].as_i64(), replay["duplicates"].as_i64()),
        (Some(0), Some(1_200))
    );
    let live = rolled(&app, &api, pilot).await;
    assert_eq!(live["records"], 1_199, "{live}");
    assert_eq!(live["rolled"], 1_199, "{live}");
}
