//! The upload's check before it stores (`POST /api/v1/pilots/{id}/evidence/preview`): it reads
//! the file as the upload would, lists what will be recorded with each run-context value's
//! source, names typed values the file contradicts, refuses what the upload would refuse, and
//! writes nothing. Real files from `testdata/`.

use crate::helpers::{TestApp, client, spawn_app};
use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};
use serde_json::Value;

fn fixture(path: &str) -> Vec<u8> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    std::fs::read(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const BENCH: &str = "er0080-vllm-benchmarking/bench_serve_v0.25.1.json";
/// `benchmark_serving.py --metadata gpu=4xNVIDIA_L40S …` (nerdalert/vllm-bench-automation).
const L40S_METADATA: &str = "nerdalert-vllm-bench-automation/results.json";

/// Sends `path` to `endpoint` (`evidence` or `evidence/preview`) with `fields`.
async fn send(
    app: &TestApp,
    token: &str,
    pilot: i64,
    endpoint: &str,
    path: &str,
    fields: &[(&str, &str)],
) -> (StatusCode, Value) {
    let mut form = Form::new();
    for (k, v) in fields {
        form = form.text(k.to_string(), v.to_string());
    }
    let name = path.rsplit('/').next().unwrap().to_string();
    form = form.part("file", Part::bytes(fixture(path)).file_name(name));
    let response = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/{endpoint}")))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The recorded line labelled `label`: (value, source).
fn line(answer: &Value, label: &str) -> (String, String) {
    let line = answer["recorded"]
        .as_array()
        .expect("recorded lines")
        .iter()
        .find(|l| l["label"] == label)
        .unwrap_or_else(|| panic!("no line {label} in {answer}"));
    (
        line["value"].as_str().unwrap().to_string(),
        line["source"].as_str().unwrap_or("").to_string(),
    )
}

async fn files_stored(app: &TestApp, token: &str, pilot: i64) -> usize {
    let list: Value = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["files"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn a_checked_file_lists_what_will_be_recorded_with_sources_and_stores_nothing() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let fields = [
        ("tp", "2"),
        (
            "serve_command",
            "vllm serve /mnt/models --dtype half --max-num-seqs 64",
        ),
    ];

    let (status, preview) = send(&app, &token, pilot, "evidence/preview", BENCH, &fields).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(preview["kind"], "load_test");
    assert_eq!(preview["file_name"], "bench_serve_v0.25.1.json");
    assert_eq!(
        line(&preview, "Tensor parallel"),
        ("2".into(), "form".into())
    );
    assert_eq!(
        line(&preview, "Weights precision"),
        ("fp16".into(), "serve_command".into())
    );
    assert_eq!(
        line(&preview, "max_num_seqs"),
        ("64".into(), "serve_command".into())
    );
    // The pasted command says vLLM first; the pilot's notes give the version and the GPU.
    assert_eq!(
        line(&preview, "Engine"),
        ("vLLM".into(), "serve_command".into())
    );
    assert_eq!(
        line(&preview, "Engine version"),
        ("0.11.0".into(), "pilot_notes".into())
    );
    assert_eq!(
        line(&preview, "GPU"),
        ("NVIDIA L40S".into(), "pilot_notes".into())
    );
    assert!(line(&preview, "Not stated").0.contains("KV-cache dtype"));
    let model = line(&preview, "Model (as the tool reports it)").0;
    assert!(!model.is_empty() && model != "not stated", "{model}");
    assert_eq!(
        files_stored(&app, &token, pilot).await,
        0,
        "a check stores nothing"
    );

    // Stored with the same fields, the file records exactly what the check listed.
    let (status, stored) = send(&app, &token, pilot, "evidence", BENCH, &fields).await;
    assert_eq!(status, StatusCode::CREATED, "{stored}");
    assert_eq!(stored["recorded"], preview["recorded"]);
    let provenance = &stored["summary"]["run_context_provenance"]["fields"];
    assert!(
        provenance
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["field"] == "tp" && f["source"] == "form"),
        "{provenance}"
    );
    assert_eq!(files_stored(&app, &token, pilot).await, 1);

    // What the upload refuses, the check refuses: the same file again.
    let (status, duplicate) = send(&app, &token, pilot, "evidence/preview", BENCH, &[]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{duplicate}");
    assert_eq!(files_stored(&app, &token, pilot).await, 1);
}

#[tokio::test]
async fn the_files_own_gpu_is_recorded_and_the_typed_one_it_contradicts_is_named() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let typed = [("gpu", "Tesla V100-SXM2-16GB")];

    let (status, preview) = send(
        &app,
        &token,
        pilot,
        "evidence/preview",
        L40S_METADATA,
        &typed,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(line(&preview, "GPU"), ("NVIDIA L40S".into(), "file".into()));
    assert_eq!(line(&preview, "GPU count"), ("4".into(), "file".into()));
    let warnings: Vec<&str> = preview["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        warnings.contains(
            &"GPU: the file states NVIDIA L40S; the typed Tesla V100-SXM2-16GB was not used."
        ),
        "{warnings:?}"
    );
    // The pilot runs 2 cards; the file measured 4: said before it is stored.
    assert!(
        warnings.contains(
            &"GPU count: the file states 4; the pilot's notes say 2, so this run measured other \
              hardware or settings than the pilot's."
        ),
        "{warnings:?}"
    );

    let (status, stored) = send(&app, &token, pilot, "evidence", L40S_METADATA, &typed).await;
    assert_eq!(status, StatusCode::CREATED, "{stored}");
    assert_eq!(stored["summary"]["run_context"]["gpu"], "NVIDIA L40S");
    assert_eq!(stored["summary"]["run_context"]["gpu_count"], 4);
    assert_eq!(stored["warnings"], preview["warnings"]);
}

/// The check's warnings that say the file is not about the pilot.
fn not_comparable(answer: &Value) -> Vec<String> {
    answer["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|w| w.starts_with("Not comparable:"))
        .map(String::from)
        .collect()
}

#[tokio::test]
async fn a_file_of_another_model_is_named_not_comparable_before_it_is_stored() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    // The helper's pilot serves Qwen/Qwen3-8B; the file measured facebook/opt-125m.
    let qwen = app.pilot(&admin, acme, "Acme chat").await;
    let (status, preview) = send(&app, &token, qwen, "evidence/preview", BENCH, &[]).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(
        not_comparable(&preview),
        [
            "Not comparable: The load test bench_serve_v0.25.1.json was measured with model \
          “facebook/opt-125m”, but the pilot serves “Qwen/Qwen3-8B”: its figures are another \
          model's. It can be stored, but its figures grade nothing and every page marks it as \
          not comparable; check that it belongs to this pilot."
        ]
    );
    // Stored anyway, the load-test page marks it as the check said.
    let (status, stored) = send(&app, &token, qwen, "evidence", BENCH, &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{stored}");
    assert_eq!(not_comparable(&stored), not_comparable(&preview));
    let page = app
        .call_ok(
            &admin,
            "page_load_tests",
            &[("pilot_id", &qwen.to_string())],
        )
        .await
        .to_string();
    assert!(page.contains("another model"), "{page}");

    // A /metrics scrape is checked the same way, by its served model name.
    let scrape = "er0080-vllm-benchmarking/metrics_vllm_0_25_1_loaded.txt";
    let at = [("scraped_at", "2026-03-02T09:01:00Z")];
    let (status, preview) = send(&app, &token, qwen, "evidence/preview", scrape, &at).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    let warned = not_comparable(&preview);
    assert_eq!(warned.len(), 1, "{preview}");
    assert!(
        warned[0].starts_with(
            "Not comparable: The /metrics scrape metrics_vllm_0_25_1_loaded.txt was measured \
             with model “opt-125m-tp2”"
        ),
        "{warned:?}"
    );

    // On a pilot of that model the same file is the pilot's own: no such warning.
    let opt = app
        .pilot_serving(&admin, acme, "Small model", "facebook/opt-125m")
        .await;
    let (status, preview) = send(&app, &token, opt, "evidence/preview", BENCH, &[]).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert!(not_comparable(&preview).is_empty(), "{preview}");
}

#[tokio::test]
async fn a_file_that_cannot_be_read_is_refused_at_the_check_naming_it() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let mut form = Form::new();
    form = form.part(
        "file",
        Part::bytes(b"{\"date\": \"20250101\", \"mean_ttft_ms\": ".to_vec())
            .file_name("truncated.json"),
    );
    let response = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence/preview")))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("truncated.json"),
        "{body}"
    );
    assert_eq!(files_stored(&app, &token, pilot).await, 0);
}

#[tokio::test]
async fn only_editors_may_check_a_file_and_a_customer_learns_nothing() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let customer = app
        .user(&admin, "carol@acme.example", "customer", acme)
        .await;
    let staff = app.staff_organisation().await;
    let sales = app.user(&admin, "sam@vendor.example", "sales", staff).await;
    for (who, expected) in [
        (&customer, StatusCode::NOT_FOUND),
        (&sales, StatusCode::FORBIDDEN),
    ] {
        let form = Form::new().part("file", Part::bytes(fixture(BENCH)).file_name("b.json"));
        let response = who
            .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence/preview")))
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), expected);
    }
}

/// Issue #38: one file whose model name was 200 MB made its pilot's page 400 MB. Every text a
/// file puts into what is kept is bounded: a model name of a million characters is refused by
/// the check and by the upload, naming the file, the field and the bound, and nothing is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_name_of_a_million_characters_is_refused_and_nothing_is_kept() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Long Names Inc").await;
    let pilot = app.pilot(&admin, org, "Bounded").await;
    let huge = "x".repeat(1_000_000);
    let file = String::from_utf8(fixture(BENCH))
        .unwrap()
        .replace("\"facebook/opt-125m\"", &format!("\"{huge}\""));
    for endpoint in ["evidence/preview", "evidence"] {
        let form = Form::new().part(
            "file",
            Part::bytes(file.clone().into_bytes()).file_name("long.json"),
        );
        let response = client()
            .post(app.url(&format!("/api/v1/pilots/{pilot}/{endpoint}")))
            .bearer_auth(&token)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{endpoint}"
        );
        let body: Value = response.json().await.unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(error.starts_with("long.json: field \""), "{error:.300}");
        assert!(
            error.contains("1000000 characters, more than a name or label may have (256)"),
            "{error:.300}"
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

/// Issue #36: an AIPerf summary with one impossible value, uploaded without a kind, was taken for
/// a gateway log (it has `start_time` and `end_time`) and refused with `field "request_id":
/// missing`. The load-test importer's own refusal names the value; nothing is stored.
#[tokio::test]
async fn an_aiperf_summary_with_one_bad_value_is_refused_as_what_it_is() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let mut summary: Value = serde_json::from_slice(&fixture(
        "aiperf-0.13.0-sweep/concurrency_1/profile_export_aiperf.json",
    ))
    .unwrap();
    summary["time_to_first_token"]["avg"] = serde_json::json!(-1.0);
    for endpoint in ["evidence/preview", "evidence"] {
        let form = Form::new().part(
            "file",
            Part::bytes(serde_json::to_vec(&summary).unwrap())
                .file_name("profile_export_aiperf.json"),
        );
        let response = client()
            .post(app.url(&format!("/api/v1/pilots/{pilot}/{endpoint}")))
            .bearer_auth(&token)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = response.json().await.unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(
            error.contains("profile_export_aiperf.json")
                && error.contains("time_to_first_token")
                && !error.contains("request_id"),
            "{endpoint}: {error}"
        );
    }
    assert_eq!(files_stored(&app, &token, pilot).await, 0);
}

/// The check answers in the uploader's language (the browser sends it; a script without one
/// gets English): the same lines and sources, German labels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_check_answers_in_the_uploaders_language() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let form = || {
        Form::new().text("tp", "2").part(
            "file",
            Part::bytes(fixture(BENCH)).file_name("bench_serve_v0.25.1.json"),
        )
    };
    let url = app.url(&format!("/api/v1/pilots/{pilot}/evidence/preview"));
    let english: Value = client()
        .post(&url)
        .bearer_auth(&token)
        .multipart(form())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let german: Value = client()
        .post(&url)
        .bearer_auth(&token)
        .header("accept-language", "de-DE,de;q=0.9")
        .multipart(form())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        line(&english, "Tensor parallel"),
        ("2".into(), "form".into())
    );
    assert_eq!(
        line(&german, "Tensorparallelität"),
        ("2".into(), "form".into())
    );
    assert!(
        line(&german, "Gelesen als")
            .0
            .starts_with("vllm bench serve")
    );
    assert!(
        line(&german, "Nicht angegeben")
            .0
            .contains("Datentyp des KV-Cache")
    );
    assert_eq!(
        english["recorded"].as_array().unwrap().len(),
        german["recorded"].as_array().unwrap().len(),
        "the same lines"
    );
}
