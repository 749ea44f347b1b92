//! The load-test pages and their server functions: the demo pilot's report curves, every fixture
//! uploaded with its run context and shown with the file's own numbers, the plain form upload
//! without JavaScript, exact goodput from per-request files, comparisons, and who may see what.

use crate::helpers::{TestApp, client, spawn_app};
use reqwest::multipart::{Form, Part};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::path::PathBuf;

/// The real files of `testdata/` (their sources in `testdata/SOURCES.md`).
fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every load-test fixture of a format the importers read, one per format and layout.
const FIXTURES: [&str; 10] = [
    "er0080-vllm-benchmarking/bench_serve_v0.25.1.json",
    "nerdalert-vllm-benchmark-graphs/results.json",
    "nerdalert-vllm-bench-automation/results.json",
    "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json",
    "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/summary.json",
    "aiperf-examples-run1/profile_export_aiperf.json",
    "aiperf-examples-run1/profile_export_aiperf.csv",
    "aiperf-examples-run1/profile_export.head12.jsonl",
    "aiperf-dev-smoke-100k/profile_export_aiperf.json",
    "graz-dev-guidellm/benchmarks.json",
];

async fn token(app: &TestApp, admin: &Client) -> String {
    app.api_token(admin).await
}

async fn upload(
    app: &TestApp,
    token: &str,
    pilot: i64,
    name: &str,
    bytes: Vec<u8>,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    app.upload_evidence(token, pilot, name, bytes, fields).await
}

async fn view(app: &TestApp, who: &Client, pilot: i64) -> Value {
    app.call_ok(
        who,
        "get_load_tests",
        &[("pilot_id", &pilot.to_string()), ("percentile", "p95")],
    )
    .await
}

fn run_of(view: &Value, evidence: &Value) -> Value {
    view["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["evidence"]["id"] == *evidence)
        .cloned()
        .expect("the run is listed")
}

#[tokio::test]
async fn the_demo_pilot_shows_the_reports_curves_goodput_and_capacity() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let view = view(&app, &admin, pilot).await;
    let runs = view["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(
        run["evidence"]["file_name"],
        "v100-qwen-benchmark-report.jsonl"
    );
    assert_eq!(run["run_context"]["engine_version"], "0.8.5");
    assert_eq!(run["run_context"]["tensor_parallel"], 4);
    assert_eq!(run["run_context"]["gpu_count"], 4);
    assert_eq!(run["run_context"]["prefix_caching"], false);
    let points = run["points"].as_array().unwrap();
    assert_eq!(points.len(), 12);
    // The report's long-prompt TTFT at C=8: p50 507, p95 572, p99 572 ms; saturated.
    let long8 = &points[3];
    assert_eq!(long8["concurrency"], 8.0);
    assert_eq!(long8["ttft"]["p50"], 507.0);
    assert_eq!(long8["ttft"]["p95"], 572.0);
    assert_eq!(long8["ttft"]["p99"], 572.0);
    assert_eq!(long8["e2e"]["p95"], 2600.0);
    assert_eq!(long8["spread"], "saturated");
    assert_eq!(points[0]["spread"], "idle");
    assert_eq!(points[2]["spread"], "queueing");
    // The demo plan (MLPerf Interactive: TTFT p99 ≤ 450 ms, TPOT p99 ≤ 40 ms).
    assert_eq!(long8["goodput"]["method"], "percentiles");
    assert_eq!(long8["goodput"]["all_met"], false);
    assert_eq!(long8["goodput"]["share_bound"], "< 99 %");
    assert_eq!(points[2]["goodput"]["all_met"], true);
    let capacity: Vec<(String, Value)> = view["capacity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["scenario"].as_str().unwrap().to_string(),
                c["concurrency"].clone(),
            )
        })
        .collect();
    assert_eq!(capacity.len(), 3);
    assert!(capacity[0].0.contains("long prompt"));
    assert_eq!(capacity[0].1, 4.0);
    assert_eq!(capacity[1].1, 8.0);
    assert_eq!(capacity[2].1, 8.0);
    // Each capacity also in requests per second: the throughput measured at that point.
    for row in view["capacity"].as_array().unwrap() {
        let at = view["runs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["points"].as_array().unwrap())
            .find(|p| p["scenario"] == row["scenario"] && p["concurrency"] == row["concurrency"])
            .expect("the capacity point");
        assert_eq!(row["requests_per_s"], at["request_throughput"], "{row}");
        assert!(row["requests_per_s"].as_f64().unwrap() > 0.0);
    }
    let chart_ids: Vec<&str> = view["charts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        chart_ids,
        vec!["ttft", "tpot", "e2e", "per-stream", "aggregate"]
    );

    let html = admin
        .get(app.url(&format!("/pilots/{pilot}/load-tests")))
        .send()
        .await
        .unwrap();
    assert_eq!(html.status(), StatusCode::OK);
    // Hydration markers (`<!>`, from the erased component views) sit between a cell's text and
    // its closing tag; they are not content.
    let html = html.text().await.unwrap().replace("<!>", "");
    // The demo plan's marks are on p99: the page opens on the p99 curves, where they are
    // graded; the p95 curves draw them for reference.
    assert!(
        html.contains("TTFT p99 vs concurrency (ms") && html.contains("target TTFT p99 ≤ 450 ms"),
        "the page opens on the plan's percentile"
    );
    assert!(!html.contains("for reference, target"));
    let html = app
        .page(&admin, &format!("/pilots/{pilot}/load-tests?p=p95"))
        .await
        .replace("<!>", "");
    assert!(
        html.contains("for reference, target TTFT p99 ≤ 450 ms"),
        "the p99 mark drawn for reference on the p95 chart"
    );
    for text in [
        "TTFT p95 vs concurrency (ms)",
        "every target holds up to concurrency 4; missed at 8",
        "Measured at the client (the load generator)",
        "<td class=\"num\">572</td>",
        "<td class=\"num\">2,600</td>",
        "saturated",
    ] {
        assert!(html.contains(text), "{text} missing from the page");
    }
}

#[tokio::test]
async fn every_fixture_uploads_with_its_run_context_and_shows_the_files_own_numbers() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = token(&app, &admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let mut ids = Vec::new();
    for path in FIXTURES {
        let name = path.rsplit('/').next().unwrap();
        let response = upload(
            &app,
            &token,
            pilot,
            name,
            fixture(path),
            &[
                ("gpu", "NVIDIA H100 80GB HBM3"),
                ("gpu_count", "1"),
                ("serve_command", "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-seqs 256 --kv-cache-dtype fp8"),
            ],
        )
        .await;
        let status = response.status();
        let body: Value = response.json().await.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{path}: {body}");
        // The sweep's summary states the server's own `max_num_seqs=4`, which wins over the
        // pasted 256.
        let max_num_seqs = if path.contains("SERVE--max_num_seqs=4") {
            4
        } else {
            256
        };
        assert_eq!(
            body["summary"]["run_context"]["max_num_seqs"], max_num_seqs,
            "{path}"
        );
        ids.push((path, body["id"].clone()));
    }
    let view = view(&app, &admin, pilot).await;
    assert_eq!(view["runs"].as_array().unwrap().len(), FIXTURES.len());
    for (path, id) in &ids {
        let run = run_of(&view, id);
        let expected = engine::ingest::import(path, &fixture(path)).unwrap();
        let points = run["points"].as_array().unwrap();
        assert_eq!(points.len(), expected.points.len(), "{path}");
        for (shown, file) in points.iter().zip(&expected.points) {
            let stat = |key: engine::ingest::MetricKey| {
                file.metric(key)
                    .map(|s| (s.p50, s.p95, s.p99))
                    .unwrap_or_default()
            };
            let get = |v: &Value| v.as_f64();
            for (field, key) in [
                ("ttft", engine::ingest::MetricKey::TtftMs),
                ("tpot", engine::ingest::MetricKey::TpotMs),
                ("e2e", engine::ingest::MetricKey::E2eMs),
            ] {
                let (p50, p95, p99) = stat(key);
                assert_eq!(get(&shown[field]["p50"]), p50, "{path} {field} p50");
                assert_eq!(get(&shown[field]["p95"]), p95, "{path} {field} p95");
                assert_eq!(get(&shown[field]["p99"]), p99, "{path} {field} p99");
            }
            assert_eq!(
                get(&shown["output_tokens_per_s"]),
                file.output_tokens_per_s,
                "{path}"
            );
            assert_eq!(shown["completed"].as_u64(), file.completed, "{path}");
            // The file's concurrency, else the run's mean in flight by Little's law (a
            // request-rate sweep states none).
            let in_flight = engine::loadtest::in_flight(file);
            assert_eq!(
                get(&shown["concurrency"]),
                in_flight.map(|f| f.requests),
                "{path}"
            );
            if file.concurrency.is_some() {
                assert_eq!(shown["concurrency_basis"], "stated", "{path}");
            }
        }
        let context = &run["run_context"];
        // A file that states its own GPU (`--metadata gpu=4xNVIDIA_L40S`) keeps it; the typed
        // one is set aside and named (see `upload_check`).
        let gpu = if path.starts_with("nerdalert-vllm-bench-automation") {
            "NVIDIA L40S"
        } else {
            "NVIDIA H100 80GB HBM3"
        };
        assert_eq!(context["gpu"], gpu, "{path}");
        assert_eq!(context["kv_cache_dtype"], "fp8");
        assert_eq!(context["model"], "meta-llama/Llama-3.1-8B-Instruct");
    }
    // The evidence list names every file with tool, SHA-256 and size.
    let list = app
        .call_ok(
            &admin,
            "list_evidence_files",
            &[("pilot_id", &pilot.to_string())],
        )
        .await;
    let files = list["files"].as_array().unwrap();
    assert_eq!(files.len(), FIXTURES.len());
    let bench = files
        .iter()
        .find(|f| f["file"]["file_name"] == "bench_serve_v0.25.1.json")
        .unwrap();
    assert_eq!(bench["tool"], "vllm bench serve");
    assert_eq!(
        bench["file"]["size_bytes"].as_u64().unwrap() as usize,
        fixture(FIXTURES[0]).len()
    );
    assert_eq!(bench["file"]["sha256"].as_str().unwrap().len(), 64);
    let html = admin
        .get(app.url(&format!("/pilots/{pilot}/evidence")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("bench_serve_v0.25.1.json"));
    assert!(html.contains("max_num_seqs 256"));
}

#[tokio::test]
async fn per_request_files_get_exact_goodput() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = token(&app, &admin).await;
    let pilot = app.demo_pilot.unwrap();
    let path = "aiperf-examples-run1/profile_export.head12.jsonl";
    let response = upload(
        &app,
        &token,
        pilot,
        "profile_export.jsonl",
        fixture(path),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let id: Value = response.json::<Value>().await.unwrap()["id"].clone();
    let view = view(&app, &admin, pilot).await;
    let run = run_of(&view, &id);
    assert_eq!(run["per_request"], true);
    let goodput = &run["points"][0]["goodput"];
    assert_eq!(goodput["method"], "per_request");
    // Count by hand from the importer's records against TTFT ≤ 450 ms and TPOT ≤ 40 ms.
    let full = engine::ingest::import("profile_export.jsonl", &fixture(path)).unwrap();
    let good = full
        .requests
        .iter()
        .filter(|r| r.error.is_none())
        .filter(|r| r.ttft_ms.is_some_and(|t| t <= 450.0))
        .filter(|r| r.tpot_ms.is_none_or(|t| t <= 40.0))
        .filter(|r| r.e2e_ms.is_some())
        .count();
    assert_eq!(goodput["good_requests"].as_u64().unwrap() as usize, good);
    assert_eq!(
        goodput["share_pct"].as_f64().unwrap(),
        good as f64 * 100.0 / full.requests.len() as f64
    );
}

/// The AIPerf per-request fixture both per-request tests upload.
const PER_REQUEST_FILE: &str = "aiperf-examples-run1/profile_export.head12.jsonl";

/// A new pilot of a new customer named `name` with [`PER_REQUEST_FILE`] uploaded (201): the
/// pilot's id and the upload's answer.
async fn per_request_pilot(app: &TestApp, admin: &Client, name: &str) -> (i64, Value) {
    let token = token(app, admin).await;
    let acme = app.organisation(admin, "Acme Corp").await;
    let pilot = app.pilot(admin, acme, name).await;
    let response = upload(
        app,
        &token,
        pilot,
        "profile_export.jsonl",
        fixture(PER_REQUEST_FILE),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    (pilot, response.json().await.unwrap())
}

/// A page view never opens a raw file: goodput is stored at import, and a plan approved later
/// is graded once from the per-request samples stored with the file — here after the raw
/// file is gone from disk.
#[tokio::test]
async fn goodput_comes_from_what_was_stored_at_import_never_from_the_raw_file() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let (pilot, body) = per_request_pilot(&app, &admin, "No plan yet").await;
    assert_eq!(body["summary"]["request_samples"], 12);
    // Stored as version 2: with each answered request's start and token counts.
    assert_eq!(body["summary"]["request_samples_format"], 2);
    let stored = app
        .store
        .derived(body["id"].as_i64().unwrap(), "request_samples")
        .await
        .unwrap()
        .expect("samples stored with the row");
    let (samples, version) = engine::loadtest::RequestSamples::decode_versioned(&stored).unwrap();
    assert_eq!(version, 2);
    let full = engine::ingest::import("profile_export.jsonl", &fixture(PER_REQUEST_FILE)).unwrap();
    assert_eq!(
        samples,
        engine::loadtest::RequestSamples::of_records(&full.requests)
    );
    let answered: Vec<_> = samples.samples.iter().filter(|s| !s.failed).collect();
    assert!(!answered.is_empty());
    assert!(
        answered
            .iter()
            .all(|s| s.start_s.is_some() && s.input_tokens.is_some() && s.output_tokens.is_some())
    );
    let sha = body["sha256"].as_str().unwrap().to_string();
    let before = view(&app, &admin, pilot).await;
    let run = run_of(&before, &body["id"]);
    assert_eq!(run["per_request"], true);
    assert!(run["points"][0]["goodput"].is_null(), "no plan, no goodput");

    // The raw file disappears; the plan is written and approved afterwards.
    let raw = app.data_dir().join("evidence").join(&sha);
    std::fs::remove_file(&raw).unwrap();
    let id = pilot.to_string();
    app.call_ok(
        &admin,
        "create_plan",
        &[
            ("pilot_id", &id),
            ("template", "mlperf-v6-llama2-70b-interactive"),
        ],
    )
    .await;
    let plan = app.call_ok(&admin, "get_plan", &[("pilot_id", &id)]).await;
    let draft = plan["versions"].as_array().unwrap().last().unwrap().clone();
    app.call_ok(
        &admin,
        "approve_plan",
        &[
            ("pilot_id", &id),
            ("version", &draft["number"].to_string()),
            ("revision", &draft["revision"].to_string()),
        ],
    )
    .await;
    for _ in 0..2 {
        let after = view(&app, &admin, pilot).await;
        let goodput = &run_of(&after, &body["id"])["points"][0]["goodput"];
        assert_eq!(goodput["method"], "per_request", "{goodput}");
        let full =
            engine::ingest::import("profile_export.jsonl", &fixture(PER_REQUEST_FILE)).unwrap();
        let good = full
            .requests
            .iter()
            .filter(|r| r.error.is_none())
            .filter(|r| r.ttft_ms.is_some_and(|t| t <= 450.0))
            .filter(|r| r.tpot_ms.is_none_or(|t| t <= 40.0))
            .filter(|r| r.e2e_ms.is_some())
            .count();
        assert_eq!(goodput["good_requests"].as_u64().unwrap() as usize, good);
    }
    let stored = app
        .store
        .derived_of_pilot(pilot, "goodput:v1")
        .await
        .unwrap();
    assert_eq!(stored.len(), 1, "graded once and kept");
}

#[tokio::test]
async fn the_plain_form_upload_redirects_back_with_the_outcome_and_malformed_files_write_nothing() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let post = |bytes: Vec<u8>, name: &'static str| {
        let form = Form::new()
            .text("tp", "2")
            .text("prefix_caching", "on")
            .part("file", Part::bytes(bytes).file_name(name));
        admin
            .post(app.url(&format!("/pilots/{pilot}/evidence")))
            .multipart(form)
            .send()
    };
    let bytes = fixture("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let stored = post(bytes.clone(), "bench.json").await.unwrap();
    assert_eq!(stored.status(), StatusCode::SEE_OTHER);
    let location = stored.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.starts_with(&format!("/pilots/{pilot}/evidence?stored=")),
        "{location}"
    );
    let again = post(bytes, "bench-copy.json").await.unwrap();
    let location = again.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("?notice="), "{location}");
    let page = app.page(&admin, &location).await;
    assert!(
        page.contains("bench-copy.json: "),
        "the notice names the file"
    );
    assert!(page.contains("already evidence"));
    // A malformed variant: the error names file, line and field, and nothing is written.
    let mut lines: Vec<String> =
        String::from_utf8(fixture("nerdalert-vllm-benchmark-graphs/results.json"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(String::from)
            .collect();
    lines[1] = lines[1].replacen("\"completed\": ", "\"completed\": \"many\", \"x\": ", 1);
    let bad = post(lines.join("\n").into_bytes(), "broken.jsonl")
        .await
        .unwrap();
    let location = bad.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("?notice="), "{location}");
    let notice = app.page(&admin, &location).await;
    assert!(notice.contains("broken.jsonl"), "{notice}");
    assert!(notice.contains("line 2"));
    assert!(notice.contains("completed"));
    let page = admin
        .get(app.url(&location))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("broken.jsonl"));
    let files = app.store.list_evidence(pilot, None).await.unwrap();
    assert_eq!(files.len(), 1, "only the first upload was stored");
    let view = view(&app, &admin, pilot).await;
    assert_eq!(view["runs"][0]["run_context"]["tensor_parallel"], 2);
    assert_eq!(view["runs"][0]["run_context"]["prefix_caching"], true);
    // A bad run-context field is refused by name.
    let form = Form::new().text("tp", "four").part(
        "file",
        Part::bytes(fixture("aiperf-examples-run1/profile_export_aiperf.json"))
            .file_name("aiperf.json"),
    );
    let refused = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(token(&app, &admin).await)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.text().await.unwrap().contains("tp: `four`"));
    assert_eq!(app.store.list_evidence(pilot, None).await.unwrap().len(), 1);
}

#[tokio::test]
async fn runs_compare_against_a_baseline_with_percent_differences() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let view = view(&app, &admin, pilot).await;
    let id = view["runs"][0]["evidence"]["id"].as_i64().unwrap();
    // Long prompt at C=1 (point 0) against short prompt at C=1 (point 8).
    let comparison = app
        .call_ok(
            &admin,
            "compare_load_tests",
            &[
                ("pilot_id", &pilot.to_string()),
                ("baseline", &format!("{id}:0")),
                ("runs", &format!("{id}:8")),
                ("percentile", "p95"),
            ],
        )
        .await;
    let rows = comparison["runs"][0][1].as_array().unwrap();
    let ttft = rows.iter().find(|r| r["figure"] == "TTFT p95").unwrap();
    assert_eq!(ttft["baseline"], 116.0);
    assert_eq!(ttft["value"], 73.0);
    let diff = ttft["difference_pct"].as_f64().unwrap();
    assert!((diff - (73.0 - 116.0) / 116.0 * 100.0).abs() < 1e-9);
    assert!(!comparison["charts"].as_array().unwrap().is_empty());
    let html = admin
        .get(app.url(&format!(
            "/pilots/{pilot}/load-tests/compare?baseline={id}:0&run={id}:8&p=p95"
        )))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("-37.1 %"), "the difference is shown");
    let bad = app
        .call(
            &admin,
            "compare_load_tests",
            &[
                ("pilot_id", &pilot.to_string()),
                ("baseline", "999"),
                ("runs", &id.to_string()),
                ("percentile", "p95"),
            ],
        )
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn load_test_pages_answer_401_redirect_and_404_like_the_rest() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let acme = app.organisation(&admin, "Acme Corp").await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let anonymous = client();
    for path in ["load-tests", "evidence", "load-tests/compare"] {
        let response = anonymous
            .get(app.url(&format!("/pilots/{pilot}/{path}")))
            .send()
            .await
            .unwrap();
        assert!(response.status().is_redirection(), "{path}");
        let response = carol
            .get(app.url(&format!("/pilots/{pilot}/{path}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let response = app
        .call(
            &anonymous,
            "get_load_tests",
            &[("pilot_id", &pilot.to_string()), ("percentile", "")],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let response = app
        .call(
            &carol,
            "get_load_tests",
            &[("pilot_id", &pilot.to_string()), ("percentile", "")],
        )
        .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    // A customer may not upload, with or without JavaScript.
    let form = Form::new().part("file", Part::bytes(b"{}".to_vec()).file_name("x.json"));
    let response = carol
        .post(app.url(&format!("/pilots/{pilot}/evidence")))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("?notice="), "{location}");
    let load_tests = app
        .store
        .list_evidence(pilot, Some(desk::model::EvidenceKind::LoadTest))
        .await
        .unwrap();
    assert_eq!(load_tests.len(), 1, "only the demo evidence");
}

/// Samples stored before version 2 (no request starts or token counts, which the capacity twin
/// needs) are re-derived from the kept raw file once at start-up: the summary and the blob are
/// replaced together, and a second start reads nothing.
#[tokio::test]
async fn version_one_samples_are_re_derived_from_the_raw_file_once() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let (pilot, body) = per_request_pilot(&app, &admin, "Stored before samples v2").await;
    let id = body["id"].as_i64().unwrap();

    // Make the row what an older release stored: a version-1 blob (point, flags, TTFT, TPOT,
    // E2E) and a summary without the format.
    let full = engine::ingest::import("profile_export.jsonl", &fixture(PER_REQUEST_FILE)).unwrap();
    let mut v1 = b"PDRS".to_vec();
    v1.push(1);
    v1.extend_from_slice(&(full.requests.len() as u64).to_le_bytes());
    for r in &full.requests {
        v1.extend_from_slice(&(r.point as u32).to_le_bytes());
        let figures = [r.ttft_ms, r.tpot_ms, r.e2e_ms];
        let mut flags = u8::from(r.error.is_some());
        for (bit, figure) in [2, 4, 8].into_iter().zip(figures) {
            if figure.is_some() {
                flags |= bit;
            }
        }
        v1.push(flags);
        for figure in figures.into_iter().flatten() {
            v1.extend_from_slice(&figure.to_le_bytes());
        }
    }
    let (_, summary) = app
        .store
        .list_evidence(pilot, Some(desk::model::EvidenceKind::LoadTest))
        .await
        .unwrap()
        .remove(0);
    let mut old: Value = serde_json::from_str(&summary).unwrap();
    old.as_object_mut()
        .unwrap()
        .remove("request_samples_format");
    app.store
        .set_evidence_summary(id, &old.to_string(), &[("request_samples".to_string(), v1)])
        .await
        .unwrap();
    let (_, version) = engine::loadtest::RequestSamples::decode_versioned(
        &app.store
            .derived(id, "request_samples")
            .await
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(version, 1, "the row now looks like an older release's");

    // On PostgreSQL another instance re-derives it, with a DATA_DIR that never saw the file.
    let other = tempfile::tempdir().unwrap();
    let data_dir = if app.on_postgres() {
        other.path()
    } else {
        app.data_dir()
    };
    let services = desk::Services {
        blobs: desk::blobs::Blobs::new(data_dir, app.store.clone()),
        store: app.store.clone(),
        auth: Default::default(),
        data_dir: data_dir.to_path_buf(),
        chromium: None,
        overviews: Default::default(),
        changes: Default::default(),
        intake: Default::default(),
        metrics_allow_hosts: Default::default(),
    };
    let filled = desk::load_tests::service::backfill_request_samples(&services)
        .await
        .unwrap();
    assert_eq!(filled, 1);
    let (samples, version) = engine::loadtest::RequestSamples::decode_versioned(
        &app.store
            .derived(id, "request_samples")
            .await
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(version, 2);
    assert_eq!(
        samples,
        engine::loadtest::RequestSamples::of_records(&full.requests)
    );
    let (_, summary) = app
        .store
        .list_evidence(pilot, Some(desk::model::EvidenceKind::LoadTest))
        .await
        .unwrap()
        .remove(0);
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["request_samples_format"], 2);
    // Once upgraded, a start reads no raw file (here: it is gone) and changes nothing.
    std::fs::remove_file(
        app.data_dir()
            .join("evidence")
            .join(body["sha256"].as_str().unwrap()),
    )
    .unwrap();
    let filled = desk::load_tests::service::backfill_request_samples(&services)
        .await
        .unwrap();
    assert_eq!(filled, 0);
}

/// A sweep uploaded as one file per concurrency (AIPerf writes a folder per level) is one curve,
/// named by its scenario rather than a dataset path; each percentile's chart shows only the
/// marks on that percentile; a curve running far past its target gets a log axis that keeps the
/// target in view; and the report draws the very same chart, colours included.
#[tokio::test]
async fn a_sweep_in_one_file_per_concurrency_is_one_curve_and_the_report_draws_it_alike() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = token(&app, &admin).await;
    let pilot = app.demo_pilot.unwrap();
    // Withdraw the demo's own load test, so the sweep is the pilot's only one.
    let register: Value = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for file in register["files"].as_array().unwrap() {
        if file["kind"] == "load_test" {
            let response = client()
                .post(app.url(&format!(
                    "/api/v1/pilots/{pilot}/evidence/{}/withdraw",
                    file["id"]
                )))
                .bearer_auth(&token)
                .json(&serde_json::json!({ "reason": "only the sweep" }))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
        }
    }
    let context = [
        ("engine", "vLLM"),
        ("engine_version", "0.11.0"),
        ("gpu", "NVIDIA L40S"),
        ("gpu_count", "2"),
        ("tp", "2"),
    ];
    for level in [16, 128, 768] {
        let path =
            format!("akamaslabs-aiperf-sweep/concurrency_{level}/profile_export_aiperf.json");
        let response = upload(
            &app,
            &token,
            pilot,
            "profile_export_aiperf.json",
            fixture(&path),
            &context,
        )
        .await;
        assert_eq!(response.status(), StatusCode::CREATED, "{path}");
    }
    let chart = |view: &Value, id: &str| -> String {
        view["charts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .and_then(|c| c["svg"].as_str())
            .unwrap_or_else(|| panic!("no {id} chart"))
            .to_string()
    };
    let p95 = view(&app, &admin, pilot).await;
    let ttft95 = chart(&p95, "ttft");
    assert_eq!(
        ttft95.matches("inputs-qwen3-4b").count(),
        1,
        "one line, one legend entry"
    );
    assert!(!ttft95.contains("/benchmarks"), "no dataset path");
    assert_eq!(
        ttft95.matches("<circle").count(),
        3,
        "three levels on one line"
    );
    assert!(
        ttft95.contains("for reference, target TTFT p99 ≤ 450 ms") && !ttft95.contains(">target"),
        "the demo plan's marks are on p99: drawn on p95 for reference only"
    );
    let p99 = app
        .call_ok(
            &admin,
            "get_load_tests",
            &[("pilot_id", &pilot.to_string()), ("percentile", "p99")],
        )
        .await;
    let ttft99 = chart(&p99, "ttft");
    assert!(
        ttft99.contains("target TTFT p99 ≤ 450 ms"),
        "the p99 mark on the p99 chart"
    );
    assert!(
        ttft99.contains("(ms, log scale)"),
        "40 s at 768 against 450 ms"
    );
    let report = admin
        .get(app.url(&format!("/pilots/{pilot}/report.html")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        report.contains(&ttft99),
        "the report draws the page's p99 chart alike"
    );
}

/// A results file mixing serving frameworks (vLLM and SGLang rows of one benchmark) names each
/// row's framework, so rows with the same scenario are not shown under identical labels.
#[tokio::test]
async fn rows_of_a_file_mixing_frameworks_name_their_framework() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = token(&app, &admin).await;
    let pilot = app.demo_pilot.unwrap();
    let response = upload(
        &app,
        &token,
        pilot,
        "results.json",
        fixture("nerdalert-vllm-benchmark-graphs/results.json"),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let evidence: Value = response.json().await.unwrap();
    let view = view(&app, &admin, pilot).await;
    let run = run_of(&view, &evidence["id"]);
    let mut frameworks: Vec<String> = run["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["framework"].as_str().unwrap_or("none").to_string())
        .collect();
    frameworks.sort();
    frameworks.dedup();
    assert_eq!(frameworks, ["SGLang", "vLLM"]);
}

/// Issue #37: a `vllm bench serve` request-rate sweep (no `--max-concurrency`: rates 10, 30 and
/// unlimited) states no concurrency. Little's law places each point (8.37 req/s × 3.74 s mean
/// E2E ≈ 31 in flight at 10 req/s), so the sweep is drawn, graded at the planned peak and
/// reported one row per rate, every derived figure marked as such.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_rate_sweep_is_placed_by_littles_law_and_grades_the_plan() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = token(&app, &admin).await;
    let model = "meta-llama/Llama-3.2-3B-Instruct";
    let pilot = crate::fidelity::pilot(&app, &admin, "Rate sweep", model, "NVIDIA L40S").await;
    crate::fidelity::approved_plan(&app, &admin, pilot, "interactive-chat", "24").await;
    let path = "nerdalert-vllm-bench-automation/results.json";
    let response = upload(&app, &token, pilot, "results.json", fixture(path), &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);

    let view = view(&app, &admin, pilot).await;
    let points = view["runs"][0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 9);
    for point in points {
        assert_eq!(point["concurrency_basis"], "littles_law", "{point}");
    }
    let first = points[0]["concurrency"].as_f64().unwrap();
    assert!((first - 31.30).abs() < 0.01, "{first}");
    assert_eq!(points[0]["request_rate"], 10.0);
    // The capacity table has a row (it was empty: no point had a concurrency).
    assert!(!view["capacity"].as_array().unwrap().is_empty(), "{view}");
    // A sweep of rates only is drawn against the completed request rate: the
    // latency–throughput curve, one marker per point (at p99: the file reports p50 and p99).
    assert_eq!(view["axis"], "rate", "{}", view["axis"]);
    let p99 = app
        .call_ok(
            &admin,
            "get_load_tests",
            &[("pilot_id", &pilot.to_string()), ("percentile", "p99")],
        )
        .await;
    let ttft = p99["charts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "ttft")
        .and_then(|c| c["svg"].as_str())
        .unwrap();
    assert!(
        ttft.contains("TTFT p99 vs request rate (ms"),
        "the title says the axis"
    );
    assert!(ttft.contains("request rate (completed requests/s)"));
    let with_rate = points
        .iter()
        .filter(|p| p["request_throughput"].as_f64().is_some())
        .count();
    assert_eq!(with_rate, 9);
    assert_eq!(
        ttft.matches("<circle").count(),
        with_rate,
        "every point drawn"
    );
    // Asked, the same curves against requests in flight (Little's law).
    let against = app
        .page(
            &admin,
            &format!("/pilots/{pilot}/load-tests?x=concurrency&p=p99"),
        )
        .await;
    assert!(against.contains("TTFT p99 vs concurrency (ms"));
    assert!(against.contains("x=rate"), "the axis tab to go back");

    let verdict = app
        .call_ok(&admin, "pilot_verdict", &[("pilot_id", &pilot.to_string())])
        .await
        .to_string();
    assert!(
        !verdict.contains("do not state their concurrency"),
        "{verdict}"
    );
    assert!(
        verdict.contains("≈31 in flight by Little's law at 10 req/s"),
        "the graded point names how it was placed: {verdict}"
    );

    let page = app
        .page(&admin, &format!("/pilots/{pilot}/load-tests"))
        .await;
    assert!(page.contains("≈31"), "the table marks the derived figure");
    assert!(page.contains(" at 10 req/s"));
    assert!(page.contains("little-law-note"));
    let report = app
        .page(&admin, &format!("/pilots/{pilot}/report.html"))
        .await;
    for row in ["≈31 (10 req/s)", "(30 req/s)", "(all at once)"] {
        assert!(report.contains(row), "report row {row}");
    }
    let caption = report.find("≈: mean requests in flight by Little");
    assert!(caption.is_some(), "the table's caption says what ≈ means");
}

/// Issue #37: the capacity twin of a file mixing vLLM and SGLang rows refuses to fit both at
/// once and asks for one configuration; the card offers exactly that choice, and choosing one
/// fits it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_twin_offers_the_configuration_choice_it_asks_for() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = token(&app, &admin).await;
    let model = "meta-llama/Llama-3.1-8B-Instruct";
    let gpu = "NVIDIA H100 80GB HBM3";
    let pilot = crate::fidelity::pilot(&app, &admin, "Two frameworks", model, gpu).await;
    let path = "nerdalert-vllm-benchmark-graphs/results.json";
    let response = upload(&app, &token, pilot, "results.json", fixture(path), &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let id = pilot.to_string();
    let ask = |configuration: &str| {
        vec![
            ("pilot_id", id.clone()),
            ("rate", "5".to_string()),
            ("concurrency", String::new()),
            ("price", String::new()),
            ("configuration", configuration.to_string()),
        ]
    };
    let call = |pairs: Vec<(&'static str, String)>| {
        let app = &app;
        let admin = &admin;
        async move {
            let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.call_ok(admin, "get_capacity_twin", &borrowed).await
        }
    };
    let twin = call(ask("")).await;
    let configurations: Vec<String> = twin["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(configurations.len(), 2, "{twin}");
    assert!(configurations.iter().all(|c| c.contains("framework=")));
    assert!(twin["prediction"].is_null());
    assert!(
        twin["problem"].as_str().unwrap().contains("choose one"),
        "{twin}"
    );
    let page = app
        .page(&admin, &format!("/pilots/{pilot}/load-tests"))
        .await;
    assert!(
        page.contains("id=\"twin-config\""),
        "the card offers the choice"
    );
    for c in &configurations {
        assert!(page.contains(&format!("value=\"{c}\"")), "option {c}");
    }

    let chosen = configurations[1].clone();
    let twin = call(ask(&chosen)).await;
    assert_eq!(twin["configuration"], chosen.as_str(), "{twin}");
    assert!(twin["problem"].is_null(), "{twin}");
    assert!(!twin["prediction"].is_null(), "{twin}");
    let query = chosen
        .replace('=', "%3D")
        .replace(',', "%2C")
        .replace(' ', "+");
    let page = app
        .page(
            &admin,
            &format!("/pilots/{pilot}/load-tests?twin=rate&load=5&config={query}"),
        )
        .await;
    assert!(
        page.contains(&format!("<option value=\"{chosen}\" selected")),
        "chosen kept"
    );
}
