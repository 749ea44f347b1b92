//! Issue #14, "a recommendation a customer can act on", over HTTP: whole sessions and calibrated
//! speed in the demo report, percentiles of too few requests and evidence of another model or
//! GPU that grade nothing, the lasting-queue alarm, pass marks written after the data, and
//! "Size this pilot" for a model the catalog does not know.

use crate::helpers::{TestApp, fixture, spawn_app};
use reqwest::Client;
use serde_json::Value;

async fn upload(
    app: &TestApp,
    token: &str,
    pilot: i64,
    name: &str,
    bytes: Vec<u8>,
    fields: &[(&str, &str)],
) -> Value {
    let response = app.upload_evidence(token, pilot, name, bytes, fields).await;
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert!(status.is_success(), "{name}: {status} {body}");
    body
}

/// A pilot of `model` on one `gpu`.
pub async fn pilot(app: &TestApp, admin: &Client, name: &str, model: &str, gpu: &str) -> i64 {
    let org = app.organisation(admin, &format!("{name} Corp")).await;
    let org = org.to_string();
    app.call_ok(
        admin,
        "create_pilot",
        &[
            ("organisation_id", &org),
            ("name", name),
            ("description", "fidelity test"),
            ("status", "running"),
            ("model", model),
            ("gpu_type", gpu),
            ("gpu_count", "1"),
            ("engine", "vLLM"),
            ("engine_version", "0.11.0"),
        ],
    )
    .await
    .as_i64()
    .expect("pilot id")
}

/// Creates the plan from `template`, sets the planned peak and approves it.
pub async fn approved_plan(app: &TestApp, admin: &Client, pilot: i64, template: &str, peak: &str) {
    let id = pilot.to_string();
    app.call_ok(
        admin,
        "create_plan",
        &[("pilot_id", &id), ("template", template)],
    )
    .await;
    let plan = app.call_ok(admin, "get_plan", &[("pilot_id", &id)]).await;
    let draft = plan["versions"].as_array().unwrap().last().unwrap().clone();
    let (version, revision) = (draft["number"].to_string(), draft["revision"].to_string());
    app.call_ok(
        admin,
        "save_plan_settings",
        &[
            ("pilot_id", &id),
            ("version", &version),
            ("revision", &revision),
            ("pilot_users", ""),
            ("production_users", ""),
            ("peak_arrival_rate_req_s", ""),
            ("context_tokens_per_request", ""),
            ("planned_peak_concurrency", peak),
            ("questions", ""),
            ("hit_k", ""),
            ("engine", "vLLM"),
            ("engine_version", ""),
            ("gpu", ""),
            ("precision", ""),
            ("kv_cache_dtype", ""),
            ("tensor_parallel", ""),
            ("max_num_batched_tokens", ""),
            ("prefix_caching", ""),
            ("cuda_graphs", ""),
        ],
    )
    .await;
    let plan = app.call_ok(admin, "get_plan", &[("pilot_id", &id)]).await;
    let draft = plan["versions"].as_array().unwrap().last().unwrap().clone();
    app.call_ok(
        admin,
        "approve_plan",
        &[
            ("pilot_id", &id),
            ("version", &draft["number"].to_string()),
            ("revision", &draft["revision"].to_string()),
        ],
    )
    .await;
}

async fn verdict(app: &TestApp, who: &Client, pilot: i64) -> Value {
    app.call_ok(who, "pilot_verdict", &[("pilot_id", &pilot.to_string())])
        .await
}

fn warnings_titled<'a>(verdict: &'a Value, title: &str) -> Vec<&'a str> {
    verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["title"] == title)
        .map(|w| w["detail"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_report_sizes_whole_sessions_on_calibrated_speed_and_grades_honestly() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin = app.admin().await;
    let html = app
        .page(&admin, &format!("/pilots/{demo}/report.html"))
        .await;

    // 30 requests per load-test point cannot show a p99 met, only one missed.
    assert!(html.contains("Pass marks missed: 0 of 2 pass marks met, 1 missed, 1 not comparable."));
    assert!(html.contains(
        "too few samples: this figure rests on 30 requests, and a p99 needs at least 100 requests"
    ));
    // Whole sessions: the longest of the 5,870 successful requests sizes each session.
    assert!(html.contains("5,845 tokens"), "context per session");
    // Speed is the twin's, transferred to each candidate, Estimated with its range.
    assert!(html.contains("Output tok/s per stream, p50 (range)"));
    assert!(html.contains("Headroom ×"));
    assert!(html.contains("Estimated"));
    // Requests in flight cross-checked on the log; the caveats close the report.
    assert!(html.contains("Requests in flight in the busiest hour, gateway log:"));
    assert!(html.contains("within the ±10 % tolerance"));
    let caveats = &html[html.find("id=\"caveats\"").expect("caveats")..];
    assert!(caveats.contains("Re-run the load test on the production stack before go-live"));
    // The next steps: the load test on the recommended configuration, the evaluation set again.
    assert!(html.contains("Load test on "));
    assert!(html.contains("Evaluation set on "));
    // The 12-question evaluation set is warned about.
    assert!(html.contains("The evaluation set has 12 questions, fewer than the 50 to 100"));

    let v = verdict(&app, &admin, demo).await;
    assert_eq!(v["tally"]["not_comparable"], 1);
    assert_eq!(v["tally"]["failed"], 1);
    assert_eq!(v["rows"][0]["verdict"]["outcome"], "fail");
    assert_eq!(v["rows"][0]["samples"], 30);
    assert_eq!(v["rows"][1]["verdict"]["outcome"], "not_comparable");
    assert!(
        v["caveats"][0]
            .as_str()
            .unwrap()
            .starts_with("Re-run the load test on the production stack before go-live")
    );
    assert!(warnings_titled(&v, "Evidence not comparable").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evidence_of_another_model_grades_nothing_and_is_listed_as_a_warning() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let pilot = pilot(
        &app,
        &admin,
        "Qwen3-4B assistant",
        "Qwen/Qwen3-4B",
        "NVIDIA L40S",
    )
    .await;
    approved_plan(
        &app,
        &admin,
        pilot,
        "mlperf-v6-llama2-70b-interactive",
        "100",
    )
    .await;

    // An AIPerf run of gpt-oss-20b and an opt-125m /metrics scrape, uploaded to this pilot.
    upload(
        &app,
        &token,
        pilot,
        "gpt-oss.json",
        fixture("aiperf-examples-run1/profile_export_aiperf.json"),
        &[("gpu", "NVIDIA L40S")],
    )
    .await;
    upload(
        &app,
        &token,
        pilot,
        "opt.txt",
        fixture("er0080-vllm-benchmarking/metrics_vllm_0_25_1_loaded.txt"),
        &[("scraped_at", "2026-03-02T09:01:00Z")],
    )
    .await;
    let v = verdict(&app, &admin, pilot).await;
    let not_comparable = warnings_titled(&v, "Evidence not comparable");
    assert_eq!(not_comparable.len(), 2, "{not_comparable:?}");
    assert!(not_comparable.iter().any(|w| w.starts_with(
        "the load test gpt-oss.json was measured with model “openai/gpt-oss-20b”, but the pilot serves “Qwen/Qwen3-4B”"
    )));
    assert!(not_comparable.iter().any(|w| w.contains("opt-125m-tp2")));
    // The load-tests page says so on the run's card.
    let html = app
        .page(&admin, &format!("/pilots/{pilot}/load-tests"))
        .await;
    assert!(
        html.contains("Not comparable: the load test gpt-oss.json was measured with model"),
        "the run card flags another model's run"
    );
    for row in v["rows"].as_array().unwrap() {
        assert_eq!(row["verdict"]["outcome"], "not_comparable", "{row}");
        assert!(
            row["verdict"]["reason"]
                .as_str()
                .unwrap()
                .contains("gpt-oss-20b"),
            "{row}"
        );
    }

    // The pilot's own model at concurrency 128 (AIPerf, qwen3-4b, 5,429 requests) is graded.
    upload(
        &app,
        &token,
        pilot,
        "concurrency_128.json",
        fixture("akamaslabs-aiperf-sweep/concurrency_128/profile_export_aiperf.json"),
        &[("gpu", "NVIDIA L40S")],
    )
    .await;
    let v = verdict(&app, &admin, pilot).await;
    let ttft = &v["rows"][0];
    assert!(
        ["pass", "fail"].contains(&ttft["verdict"]["outcome"].as_str().unwrap()),
        "{ttft}"
    );
    assert!(
        ttft["source"]
            .as_str()
            .unwrap()
            .contains("concurrency_128.json")
    );
    assert_eq!(ttft["samples"], 5_429);
    assert_eq!(warnings_titled(&v, "Evidence not comparable").len(), 2);
}

/// A `/metrics` scrape of model `m` with `waiting` requests queued.
fn queued_scrape(waiting: u32, finished: u32) -> Vec<u8> {
    format!(
        "# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{{model_name=\"Qwen/Qwen3-4B\"}} {waiting}.0
# TYPE vllm:request_success_total counter
vllm:request_success_total{{finished_reason=\"stop\",model_name=\"Qwen/Qwen3-4B\"}} {finished}.0
"
    )
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queue_at_one_scrape_is_a_note_and_at_two_in_a_row_the_alarm() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let pilot = pilot(&app, &admin, "Queue", "Qwen/Qwen3-4B", "NVIDIA L40S").await;
    upload(
        &app,
        &token,
        pilot,
        "m1.txt",
        queued_scrape(5, 10),
        &[("scraped_at", "2026-03-02T09:00:00Z")],
    )
    .await;
    upload(
        &app,
        &token,
        pilot,
        "m2.txt",
        queued_scrape(0, 20),
        &[("scraped_at", "2026-03-02T09:05:00Z")],
    )
    .await;
    let v = verdict(&app, &admin, pilot).await;
    assert!(warnings_titled(&v, "The pilot hit its own limit").is_empty());
    let notes = warnings_titled(&v, "Requests waited at one scrape (a note, not the alarm)");
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("5 requests were waiting in vLLM's queue at #"));

    upload(
        &app,
        &token,
        pilot,
        "m3.txt",
        queued_scrape(7, 30),
        &[("scraped_at", "2026-03-02T09:10:00Z")],
    )
    .await;
    upload(
        &app,
        &token,
        pilot,
        "m4.txt",
        queued_scrape(9, 40),
        &[("scraped_at", "2026-03-02T09:15:00Z")],
    )
    .await;
    let v = verdict(&app, &admin, pilot).await;
    let alarms = warnings_titled(&v, "The pilot hit its own limit");
    assert!(!alarms.is_empty(), "{}", v["warnings"]);
    assert!(
        alarms.iter().any(|a| a.contains("a lasting queue")),
        "{alarms:?}"
    );
    let html = app.page(&admin, &format!("/pilots/{pilot}/traffic")).await;
    assert!(html.contains("the pilot hit its own limit: measured latencies understate demand"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_request_log_never_passes_and_marks_written_after_the_data_are_flagged() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let pilot = pilot(&app, &admin, "Tiny", "Qwen/Qwen3-4B", "NVIDIA L40S").await;
    let log = r#"{"request_id": "r1", "start_time": "2026-03-02T09:00:00Z", "first_token_time": "2026-03-02T09:00:00.2Z", "end_time": "2026-03-02T09:00:05Z", "model": "qwen3-4b", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50, "finish_reason": "stop"}"#;
    upload(
        &app,
        &token,
        pilot,
        "one.jsonl",
        log.as_bytes().to_vec(),
        &[],
    )
    .await;

    // The plan is written after the log arrived: error rate ≤ 1 % and TTFT p50 at the gateway.
    let id = pilot.to_string();
    app.call_ok(
        &admin,
        "create_plan",
        &[("pilot_id", &id), ("template", "empty")],
    )
    .await;
    for (metric, statistic, threshold, unit) in [
        ("error_rate", "rate", "1", "percent"),
        ("ttft", "p50", "500", "ms"),
    ] {
        let plan = app.call_ok(&admin, "get_plan", &[("pilot_id", &id)]).await;
        let draft = plan["versions"].as_array().unwrap().last().unwrap().clone();
        app.call_ok(
            &admin,
            "save_pass_mark",
            &[
                ("pilot_id", &id),
                ("version", &draft["number"].to_string()),
                ("revision", &draft["revision"].to_string()),
                ("index", ""),
                ("metric", metric),
                ("custom_name", ""),
                ("statistic", statistic),
                ("comparator", "le"),
                ("threshold", threshold),
                ("unit", unit),
                ("point", "gateway"),
                ("definition", ""),
                ("scope", "all_traffic"),
                ("rationale", ""),
            ],
        )
        .await;
    }
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

    let v = verdict(&app, &admin, pilot).await;
    let errors = &v["rows"][0];
    assert_eq!(errors["verdict"]["outcome"], "not_comparable", "{errors}");
    assert!(
        errors["verdict"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("too few samples: this figure rests on 1 request, and a rate limit of 1 % needs at least 100 requests"),
        "{errors}"
    );
    let ttft = &v["rows"][1];
    assert_eq!(
        ttft["verdict"]["outcome"], "not_comparable",
        "p50 of one request"
    );
    let late = warnings_titled(&v, "Pass marks written after the data");
    assert_eq!(late.len(), 1);
    assert!(
        late[0]
            .starts_with("Pass marks written after the data: plan version 1 was first approved at")
    );
    assert!(late[0].contains("after the first evidence (one.jsonl, uploaded"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn size_this_pilot_never_sizes_another_model_than_the_pilots() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = pilot(&app, &admin, "Secret", "acme/secret-13b", "Acme NPU 9").await;
    let html = app.page(&admin, &format!("/pilots/{pilot}")).await;
    assert!(html.contains("id=\"sizing-gaps\""));
    assert!(html.contains(
        "Model “acme/secret-13b” is not in the sizing catalog: the sizing page asks for its config.json instead of sizing another model."
    ));
    assert!(html.contains("GPU “Acme NPU 9” is not in the GPU catalog"));
    assert!(html.contains("/sizing?model=acme%2Fsecret-13b&amp;gpu=Acme%20NPU%209"));
    let sizing = app
        .page(
            &admin,
            "/sizing?model=acme%2Fsecret-13b&gpu=Acme%20NPU%209&weights=fp16&kv=16bit",
        )
        .await;
    assert!(sizing.contains("id=\"catalog-gaps\""));
    assert!(
        sizing
            .contains("Model “acme/secret-13b” is not in the catalog: paste its config.json below")
    );
    assert!(!sizing.contains("id=\"sizing-fits\""), "nothing is sized");
    // A linked name the catalog knows resolves to its row.
    let known = app.page(
        &admin,
        "/sizing?model=RedHatAI%2FQwen2.5-7B-Instruct&gpu=Tesla%20V100-SXM2-16GB&tp=4&weights=fp16&kv=16bit",
    )
    .await;
    assert!(!known.contains("id=\"catalog-gaps\""));
    assert!(known.contains("id=\"sizing-fits\""));
    // The demo pilot's link names its catalog rows.
    let demo = app.demo_pilot.unwrap();
    let html = app.page(&admin, &format!("/pilots/{demo}")).await;
    assert!(!html.contains("id=\"sizing-gaps\""));
    assert!(html.contains("/sizing?model=qwen2.5-7b&amp;gpu=v100-sxm2-16gb&amp;tp=4"));
}
