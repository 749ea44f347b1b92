//! Real traffic as evidence: gateway logs uploaded through the REST API become the pilot's
//! demand profile (`GET /api/v1/pilots/{id}/demand`, numbers computed by hand below), malformed
//! lines are refused or skipped, the real vLLM `/metrics` scrapes give their values, the window
//! and the alarm, and `server demand` prints the same profile from files.

use crate::helpers::{TestApp, client, spawn_app};
use reqwest::StatusCode;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

fn scrape(name: &str) -> Vec<u8> {
    let path = fixtures().join("er0080-vllm-benchmarking").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Six requests between 09:00 and 09:31 UTC on 2 March 2026:
///
/// | id | start | end | status | prompt | answer |
/// |---|---|---|---|---|---|
/// | r1 | 09:00:00 | 09:00:10 | ok (stop) | 100 | 50 |
/// | r2 | 09:00:05 | 09:00:20 | ok (length) | 200 | 100 |
/// | r3 | 09:00:15 | 09:00:25 | ok | 300 | 20 |
/// | r4 | 09:10:00 | 09:10:30 | error | | |
/// | r5 | 09:20:00 | 09:20:05 | timeout | | |
/// | r6 | 09:30:00 | 09:30:04 | cancelled | | |
fn hand_made_log() -> Vec<String> {
    let line = |id: &str,
                start: &str,
                end: &str,
                status: &str,
                tokens: Option<(u32, u32)>,
                finish: &str| {
        let tokens = tokens
            .map(|(p, c)| format!(r#", "prompt_tokens": {p}, "completion_tokens": {c}"#))
            .unwrap_or_default();
        let finish = if finish.is_empty() {
            String::new()
        } else {
            format!(r#", "finish_reason": "{finish}""#)
        };
        format!(
            r#"{{"request_id": "{id}", "start_time": "2026-03-02T09:{start}Z", "end_time": "2026-03-02T09:{end}Z", "model": "qwen2.5-7b-instruct", "status": "{status}"{tokens}{finish}}}"#
        )
    };
    vec![
        line("r1", "00:00", "00:10", "ok", Some((100, 50)), "stop"),
        line("r2", "00:05", "00:20", "ok", Some((200, 100)), "length"),
        line("r3", "00:15", "00:25", "ok", Some((300, 20)), "stop"),
        line("r4", "10:00", "10:30", "error", None, ""),
        line("r5", "20:00", "20:05", "timeout", None, ""),
        line("r6", "30:00", "30:04", "cancelled", None, ""),
    ]
}

async fn token(app: &TestApp) -> String {
    let admin = app.admin().await;
    app.api_token(&admin).await
}

async fn new_pilot(app: &TestApp, name: &str) -> i64 {
    let admin = app.admin().await;
    let org = app.organisation(&admin, &format!("{name} Corp")).await;
    app.pilot(&admin, org, name).await
}

async fn upload(
    app: &TestApp,
    token: &str,
    pilot: i64,
    file_name: &str,
    bytes: Vec<u8>,
    fields: &[(&str, &str)],
) -> (StatusCode, Value) {
    let response = app
        .upload_evidence(token, pilot, file_name, bytes, fields)
        .await;
    let status = response.status();
    let body = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

async fn demand(app: &TestApp, token: Option<&str>, pilot: i64) -> (StatusCode, Value) {
    let mut request = client().get(app.url(&format!("/api/v1/pilots/{pilot}/demand")));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn close(value: &Value, expected: f64) -> bool {
    value
        .as_f64()
        .map(|v| (v - expected).abs() <= 1e-9 * expected.abs().max(1.0))
        .unwrap_or(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_made_gateway_log_gives_the_hand_computed_demand() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "Traffic").await;

    let (status, body) = demand(&app, Some(&token), pilot).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("no gateway log yet"),
        "{body}"
    );

    let log = hand_made_log().join("\n") + "\n";
    let (status, body) = upload(&app, &token, pilot, "gateway.jsonl", log.into_bytes(), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["kind"], "gateway_log");
    assert_eq!(body["summary"]["records"], 6);
    assert_eq!(body["summary"]["format"], "generic JSON Lines");

    let (status, d) = demand(&app, Some(&token), pilot).await;
    assert_eq!(status, StatusCode::OK, "{d}");
    assert_eq!(d["requests"], 6);
    assert_eq!(d["ok"], 3);
    assert_eq!(d["failed"], 1);
    assert_eq!(d["timed_out"], 1);
    assert_eq!(d["cancelled"], 1);
    assert_eq!(d["truncated"], 1);
    // All six start within one hour; the earliest busiest window starts at the first request.
    assert_eq!(
        d["busiest_hour_start"]["rfc3339"],
        "2026-03-02T09:00:00.000Z"
    );
    assert_eq!(d["busiest_hour_arrivals"], 6);
    assert!(
        close(&d["busiest_hour_arrivals_per_s"], 6.0 / 3600.0),
        "{}",
        d["busiest_hour_arrivals_per_s"]
    );
    // r1 and r2 overlap 09:00:05–10, r2 and r3 09:00:15–20: two at once, first at 09:00:05.
    assert_eq!(d["peak_in_flight"], 2);
    assert_eq!(
        d["peak_in_flight_at"]["rfc3339"],
        "2026-03-02T09:00:05.000Z"
    );
    // Busy time 10 + 15 + 10 + 30 + 5 + 4 = 74 s over 09:00:00 → 09:30:04 (1,804 s).
    assert!(
        close(&d["mean_in_flight"], 74.0 / 1804.0),
        "{}",
        d["mean_in_flight"]
    );
    // …and over the busiest hour's 3,600 s.
    assert!(
        close(&d["mean_in_flight_busiest_hour"], 74.0 / 3600.0),
        "{}",
        d["mean_in_flight_busiest_hour"]
    );
    // Successful requests: prompts 100, 200, 300; answers 50, 100, 20; contexts 150, 300, 320.
    // p95 interpolates between the closest ranks: rank 0.95 × 2 = 1.9.
    let tokens = |name: &str| {
        (
            d[name]["p50"].clone(),
            d[name]["p95"].clone(),
            d[name]["max"].clone(),
        )
    };
    let (p50, p95, max) = tokens("prompt_tokens");
    assert!(
        close(&p50, 200.0) && close(&p95, 290.0) && max == 300,
        "{p50} {p95} {max}"
    );
    let (p50, p95, max) = tokens("completion_tokens");
    assert!(
        close(&p50, 50.0) && close(&p95, 95.0) && max == 100,
        "{p50} {p95} {max}"
    );
    let (p50, p95, max) = tokens("context_tokens");
    assert!(
        close(&p50, 300.0) && close(&p95, 318.0) && max == 320,
        "{p50} {p95} {max}"
    );
    assert_eq!(d["evidence_ids"].as_array().unwrap().len(), 1);

    // A second file of the same pilot joins the profile: r7 at 11:00 alone.
    let second = r#"{"request_id": "r7", "start_time": "2026-03-02T11:00:00Z", "end_time": "2026-03-02T11:00:02Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 1000, "completion_tokens": 10}"#;
    let (status, body) = upload(
        &app,
        &token,
        pilot,
        "gateway-2.jsonl",
        second.as_bytes().to_vec(),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, d) = demand(&app, Some(&token), pilot).await;
    assert_eq!(d["requests"], 7);
    assert_eq!(d["ok"], 4);
    assert_eq!(d["prompt_tokens"]["max"], 1000);
    assert_eq!(d["busiest_hour_arrivals"], 6);
    assert_eq!(d["evidence_ids"].as_array().unwrap().len(), 2);

    // The page shows the profile.
    let admin = app.admin().await;
    let page = admin
        .get(app.url(&format!("/pilots/{pilot}/traffic")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("id=\"profile-table\""));
    assert!(html.contains("chart-arrivals") && html.contains("<svg"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_line_names_its_line_and_writes_nothing_unless_skipped() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "Broken").await;
    let mut lines = hand_made_log();
    lines[3] = lines[3].replace(
        r#""status": "error""#,
        r#""status": "error", "prompt_tokens": "many""#,
    );
    let bytes = (lines.join("\n") + "\n").into_bytes();

    for skip in [None, Some("false")] {
        let fields: Vec<(&str, &str)> = skip
            .map(|s| vec![("skip_bad_lines", s)])
            .unwrap_or_default();
        let (status, body) =
            upload(&app, &token, pilot, "broken.jsonl", bytes.clone(), &fields).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains("broken.jsonl line 4"), "{error}");
        assert!(error.contains("prompt_tokens"), "{error}");
        assert!(error.contains("skip_bad_lines"), "{error}");
    }
    let (status, _) = demand(&app, Some(&token), pilot).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "nothing was written");
    let admin = app.admin().await;
    let overview = app
        .call_ok(
            &admin,
            "traffic_overview",
            &[("pilot_id", &pilot.to_string())],
        )
        .await;
    assert_eq!(overview["files"].as_array().unwrap().len(), 0);
    assert!(overview["profile"].is_null());

    let (status, body) = upload(
        &app,
        &token,
        pilot,
        "broken.jsonl",
        bytes,
        &[("skip_bad_lines", "true")],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["summary"]["records"], 5);
    assert_eq!(body["summary"]["skipped"]["count"], 1);
    assert_eq!(body["summary"]["skipped"]["first"][0]["line"], 4);
    let (_, d) = demand(&app, Some(&token), pilot).await;
    assert_eq!(d["requests"], 5);
    assert_eq!(d["failed"], 0);
    assert_eq!(d["skipped_lines"], 1);

    let (status, body) = upload(
        &app,
        &token,
        pilot,
        "x.jsonl",
        b"{\"start_time\": 1}\n".to_vec(),
        &[("skip_bad_lines", "perhaps")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["error"].as_str().unwrap().contains("skip_bad_lines"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_metrics_scrapes_give_their_values_the_window_and_a_note_not_the_alarm() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "Scrapes").await;
    let (status, idle) = upload(
        &app,
        &token,
        pilot,
        "metrics_vllm_0_25_1_idle.txt",
        scrape("metrics_vllm_0_25_1_idle.txt"),
        &[("scraped_at", "2026-03-02T09:00:00Z")],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{idle}");
    assert_eq!(idle["kind"], "metrics_scrape");
    let report = &idle["summary"]["report"];
    assert_eq!(report["cache_config"]["kv_cache_size_tokens"], 400_448);
    assert_eq!(report["gauges"]["requests_waiting"], 0.0);
    assert_eq!(report["alarms"].as_array().unwrap().len(), 0);

    let (status, loaded) = upload(
        &app,
        &token,
        pilot,
        "metrics_vllm_0_25_1_loaded.txt",
        scrape("metrics_vllm_0_25_1_loaded.txt"),
        &[("scraped_at", "2026-03-02T09:01:00Z")],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{loaded}");
    let report = &loaded["summary"]["report"];
    assert_eq!(report["totals_since_start"]["requests_finished"], 600.0);
    assert_eq!(report["gauges"]["requests_running"], 64.0);
    assert_eq!(report["gauges"]["requests_waiting"], 64.0);
    // One scrape with 64 requests waiting is a burst caught at that instant: a note, not the
    // alarm (a queue must last over consecutive scrapes).
    assert_eq!(report["alarms"].as_array().unwrap().len(), 0);
    assert!(
        report["limit_notes"][0]
            .as_str()
            .unwrap()
            .starts_with("64 requests were waiting in vLLM's queue at this scrape")
    );

    // The window of the two most recent scrapes, Δt from their scrape times (60 s).
    let admin = app.admin().await;
    let p = pilot.to_string();
    let window = app
        .call_ok(
            &admin,
            "metrics_window",
            &[
                ("pilot_id", &p),
                ("before", ""),
                ("after", ""),
                ("elapsed_s", ""),
            ],
        )
        .await;
    let w = &window["window"];
    assert_eq!(w["elapsed_s"], 60.0);
    assert_eq!(w["elapsed_from"], "caller");
    assert_eq!(w["totals"]["requests_finished"], 600.0);
    assert!(
        close(&w["mean_in_flight"], 999.2306158542633 / 60.0),
        "{}",
        w["mean_in_flight"]
    );
    let e2e_p99 = &w["distributions"]["e2e_ms"]["p99"];
    assert!(close(&e2e_p99["value"], 2000.0 + 500.0 / 3.0));
    assert_eq!(
        (
            e2e_p99["lower_bound"].as_f64(),
            e2e_p99["upper_bound"].as_f64()
        ),
        (Some(2000.0), Some(2500.0))
    );
    // Waiting at the second scrape only, 18.5 s of queueing in 60 s (0.31 waiting on average):
    // not a lasting queue.
    assert_eq!(w["alarms"].as_array().unwrap().len(), 0);
    assert!(close(&w["mean_waiting"], 18.513516283710487 / 60.0));
    assert_eq!(w["limit_notes"].as_array().unwrap().len(), 2);

    // Chosen explicitly, with Δt given; in the wrong order they are a counter reset.
    let (idle_id, loaded_id) = (idle["id"].to_string(), loaded["id"].to_string());
    let window = app
        .call_ok(
            &admin,
            "metrics_window",
            &[
                ("pilot_id", &p),
                ("before", &idle_id),
                ("after", &loaded_id),
                ("elapsed_s", "120"),
            ],
        )
        .await;
    assert!(close(
        &window["window"]["mean_in_flight"],
        999.2306158542633 / 120.0
    ));
    let reversed = app
        .call(
            &admin,
            "metrics_window",
            &[
                ("pilot_id", &p),
                ("before", &loaded_id),
                ("after", &idle_id),
                ("elapsed_s", ""),
            ],
        )
        .await;
    assert_eq!(reversed.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reversed.text().await.unwrap().contains("restarted"));

    // The page shows the values; the scrapes are of opt-125m, not the pilot's Qwen3-8B, so they
    // are marked not comparable and raise nothing for the pilot.
    let html = admin
        .get(app.url(&format!("/pilots/{pilot}/traffic")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!html.contains("the pilot hit its own limit: measured latencies understate demand"));
    assert!(
        html.contains("Not comparable: the /metrics scrape"),
        "scrapes of another model are marked"
    );
    assert!(html.contains("opt-125m-tp2"));
    assert!(html.contains("id=\"metrics-window\""));
    // E2E p99 2,166.7 ms within its bucket (2,000, 2,500] ms.
    assert!(html.contains("2,167 [2,000, 2,500]"), "p99 with its bounds");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demand_needs_a_token_and_hides_other_organisations_pilots() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.unwrap();
    let (status, _) = demand(&app, None, demo).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = demand(&app, Some("pd_not_a_token"), demo).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let admin = app.admin().await;
    let other = app.organisation(&admin, "Other Corp").await;
    let customer = app
        .user(&admin, "carol@other.example", "customer", other)
        .await;
    let customer_token = app.api_token(&customer).await;
    let (status, body) = demand(&app, Some(&customer_token), demo).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        !body["error"]
            .as_str()
            .unwrap_or_default()
            .contains("gateway"),
        "{body}"
    );
    let (status, _) = demand(&app, Some(&customer_token), 999_999).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let page = customer
        .get(app.url(&format!("/pilots/{demo}/traffic")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_pilot_has_a_week_of_gateway_traffic_from_the_start() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let (status, d) = demand(&app, Some(&token), app.demo_pilot.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{d}");
    let requests = d["requests"].as_u64().unwrap();
    assert!((4_000..9_000).contains(&requests), "{requests}");
    assert!(d["peak_in_flight"].as_u64().unwrap() >= 2);
    assert!(d["busiest_hour_arrivals_per_s"].as_f64().unwrap() > 0.0);
    assert!(d["context_tokens"]["max"].as_u64().unwrap() <= 8_192);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_demand_prints_the_profile_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("gateway.jsonl");
    std::fs::write(&log, hand_made_log().join("\n")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["demand", log.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let d: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(d["requests"], 6);
    assert_eq!(d["peak_in_flight"], 2);
    assert!(close(&d["context_tokens"]["p95"], 318.0));
    assert_eq!(d["files"][0]["records"], 6);

    let mut lines = hand_made_log();
    lines[2] = lines[2].replace(r#""prompt_tokens": 300"#, r#""prompt_tokens": -3"#);
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["demand", broken.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken.jsonl line 3"), "{stderr}");
    let output = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["demand", broken.to_str().unwrap(), "--skip-bad-lines"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("requests 5"), "{text}");
    assert!(text.contains("busiest hour"), "{text}");
}

/// End-to-end measurement (not a timed test): a generated one-million-request gateway log
/// (`SyntheticConfig::with_requests`, ~250 MB of JSON Lines) uploaded with curl to a real
/// `server` process; prints records/s of the upload (receive + hash + profile + store) and the
/// server's peak resident memory (`VmHWM`). Run with
/// `cargo test -p server --test api upload_of_a_million -- --ignored --nocapture`
/// (add `--release` for representative numbers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "measurement: generates a 1M-request log and runs the server binary"]
async fn upload_of_a_million_request_log_measured_end_to_end() {
    let requests: u64 = std::env::var("TRAFFIC_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("gateway-1m.jsonl");
    let config = engine::traffic::SyntheticConfig::with_requests(7, requests);
    engine::traffic::write_synthetic_jsonl(&config, std::fs::File::create(&log).unwrap()).unwrap();
    let size = std::fs::metadata(&log).unwrap().len();
    let data = dir.path().join("data");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let bin = env!("CARGO_BIN_EXE_server");
    let env = [
        ("DATA_DIR", data.to_str().unwrap().to_string()),
        ("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}")),
        ("MAX_UPLOAD_MB", "2048".to_string()),
        ("DEMO", "1".to_string()),
        ("RUST_LOG", "warn".to_string()),
    ];
    let mut server = Command::new(bin)
        .envs(env.iter().cloned())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    for _ in 0..300 {
        if client().get(format!("{base}/health")).send().await.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let hwm = |pid: u32| -> u64 {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or(0)
    };
    let before_kib = hwm(server.id());
    let created = Command::new(bin)
        .envs(env.iter().cloned())
        .args([
            "token",
            "create",
            "--email",
            "admin@pilotdesk.local",
            "--name",
            "bench",
        ])
        .output()
        .unwrap();
    let token = String::from_utf8_lossy(&created.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    let started = std::time::Instant::now();
    let output = Command::new("curl")
        .args([
            "-s",
            "-H",
            &format!("Authorization: Bearer {token}"),
            "-F",
            &format!("file=@{}", log.display()),
        ])
        .arg(format!("{base}/api/v1/pilots/1/evidence"))
        .output()
        .unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    let after_kib = hwm(server.id());
    let _ = server.kill();
    let _ = server.wait();
    let body: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    assert_eq!(
        body["kind"],
        "gateway_log",
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(body["summary"]["records"], requests);
    println!(
        "upload of {requests} requests ({:.0} MB) through the server: {elapsed:.1} s, {:.0} records/s; \
         server peak RSS {:.0} MB (after start-up {:.0} MB)",
        size as f64 / 1e6,
        requests as f64 / elapsed,
        after_kib as f64 / 1024.0,
        before_kib as f64 / 1024.0,
    );
}

/// `server demand … | head`: the reader goes away before the profile is printed, and the
/// command ends quietly (status 0, nothing on standard error) instead of panicking.
#[test]
fn server_demand_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("gateway.jsonl");
    std::fs::write(&log, hand_made_log().join("\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["demand", log.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
}

/// "Size for production" opens the sizing page on the pilot's own model, GPU and precision with
/// the production demand (context per session, sessions to hold), not another model's defaults.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn size_for_production_carries_the_pilots_model_hardware_and_demand() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let html = app
        .page(
            &admin,
            &format!("/pilots/{demo}/traffic?users=40&production_users=400"),
        )
        .await;
    let link = html
        .split("id=\"size-production\" href=\"")
        .nth(1)
        .expect("the link")
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    assert!(
        link.starts_with("/sizing?model=qwen2.5-7b&gpu=v100-sxm2-16gb&tp=4&weights="),
        "{link}"
    );
    let context = html
        .split("id=\"production-context\">")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .replace(',', "");
    assert!(
        link.contains(&format!("&context={context}&sessions=")),
        "{link}"
    );
    let sessions: u32 = link.rsplit("sessions=").next().unwrap().parse().unwrap();
    assert!((1..100).contains(&sessions), "{link}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_time_outside_this_century_is_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "Scrape times").await;
    for (when, expected) in [
        ("5138-11-16T09:46:40Z", "5138-11-16"),
        ("0", "1970-01-01"),
        ("1970-01-01T00:00:01Z", "1970-01-01"),
    ] {
        let (status, body) = upload(
            &app,
            &token,
            pilot,
            "metrics.txt",
            scrape("metrics_vllm_0_25_1_idle.txt"),
            &[("kind", "metrics_scrape"), ("scraped_at", when)],
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{when}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("scraped_at:") && error.contains(expected),
            "{when}: {error}"
        );
    }
    assert!(
        app.store
            .list_evidence(pilot, None)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_litellm_payload_without_a_first_token_time_says_so_on_the_traffic_page() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "LiteLLM notes").await;
    let payload =
        std::fs::read(fixtures().join("litellm/standard_logging_payload.from_gcs_test.json"))
            .unwrap();
    let (status, body) = upload(
        &app,
        &token,
        pilot,
        "payload.json",
        payload,
        &[("kind", "gateway_log")],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let note = "completionStartTime equals endTime: their first-token time is unknown";
    assert!(
        body["summary"]["notes"][0].as_str().unwrap().contains(note),
        "{body}"
    );
    let admin = app.admin().await;
    let page = app.page(&admin, &format!("/pilots/{pilot}/traffic")).await;
    assert!(
        page.contains(note),
        "the traffic page shows the reader's note"
    );
}

/// A pilot scraped every hour for more than a day: the traffic page lists and offers the
/// latest 24 scrapes, says how many there are, and links to the evidence page for the rest.
#[tokio::test]
async fn the_traffic_page_lists_the_latest_day_of_scrapes() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "Hourly scrapes").await;
    let idle = scrape("metrics_vllm_0_25_1_idle.txt");
    for hour in 0..26 {
        let mut bytes = idle.clone();
        bytes.extend_from_slice(format!("# hour {hour}\n").as_bytes());
        let name = format!("scrape-h{hour:02}.txt");
        let at = format!("2026-03-{:02}T{:02}:00:00Z", 2 + hour / 24, hour % 24);
        let (status, body) =
            upload(&app, &token, pilot, &name, bytes, &[("scraped_at", &at)]).await;
        assert_eq!(status, StatusCode::CREATED, "{name}: {body}");
    }
    let admin = app.admin().await;
    let page = app.page(&admin, &format!("/pilots/{pilot}/traffic")).await;
    assert!(page.contains("The latest 24 of 26 scrapes"), "{page}");
    assert!(page.contains("scrape-h25.txt") && page.contains("scrape-h02.txt"));
    assert!(
        !page.contains("scrape-h00.txt") && !page.contains("scrape-h01.txt"),
        "the two oldest are left to the evidence page"
    );
    assert!(page.contains(&format!("/pilots/{pilot}/evidence")));
}

/// The latest two scrapes forming no window (here the later one has lower counters: a restart
/// between them) is a fact about the stored files: the traffic page says so and answers 200,
/// not 422 as a bad request would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn latest_scrapes_that_form_no_window_leave_the_traffic_page_whole() {
    let app = spawn_app().await;
    let token = token(&app).await;
    let pilot = new_pilot(&app, "Restart").await;
    for (name, at) in [
        ("metrics_vllm_0_25_1_loaded.txt", "2026-03-02T09:00:00Z"),
        ("metrics_vllm_0_25_1_idle.txt", "2026-03-02T09:01:00Z"),
    ] {
        let (status, body) = upload(
            &app,
            &token,
            pilot,
            name,
            scrape(name),
            &[("scraped_at", at)],
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let admin = app.admin().await;
    let page = app.page(&admin, &format!("/pilots/{pilot}/traffic")).await;
    assert!(
        page.contains("notice-error"),
        "the window's refusal is shown"
    );
    assert!(page.contains("metrics_vllm_0_25_1_loaded.txt → metrics_vllm_0_25_1_idle.txt"));
    // A window the reader chose that cannot be formed is still the request's error.
    let response = admin
        .get(app.url(&format!("/pilots/{pilot}/traffic?before=999999&after=1")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
}
