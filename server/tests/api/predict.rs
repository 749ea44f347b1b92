//! The capacity twin over REST: `GET /api/v1/pilots/{id}/predict`, fitted on the pilot's
//! stored load tests, answering what `server predict --json` answers on the same files.

use crate::cli::server_binary;
use crate::helpers::{TestApp, client, spawn_app};
use reqwest::StatusCode;
use serde_json::Value;

const METRICS: [&str; 4] = ["ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"];

async fn get(app: &TestApp, token: Option<&str>, path: &str) -> (StatusCode, Value) {
    let mut request = client().get(app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path}: not JSON: {text}"));
    (status, body)
}

/// Finite, positive, ordered percentiles; a basis; a back-test that states its error.
fn assert_sound(prediction: &Value) {
    for metric in METRICS {
        let p = |name: &str| {
            let v = prediction[metric][name]
                .as_f64()
                .unwrap_or_else(|| panic!("{metric}.{name} missing: {prediction}"));
            assert!(v.is_finite() && v > 0.0, "{metric}.{name} = {v}");
            v
        };
        let (p50, p90, p95, p99) = (p("p50"), p("p90"), p("p95"), p("p99"));
        assert!(
            p50 <= p90 && p90 <= p95 && p95 <= p99,
            "{metric}: {p50} {p90} {p95} {p99}"
        );
    }
    assert!(
        ["measured", "simulated", "estimated"].contains(&prediction["basis"].as_str().unwrap()),
        "{}",
        prediction["basis"]
    );
    let backtest = &prediction["backtest"];
    let median = backtest["median_abs_error_pct"]
        .as_f64()
        .expect("back-test error");
    let max = backtest["max_abs_error_pct"]
        .as_f64()
        .expect("back-test worst");
    assert!(
        median.is_finite() && (0.0..=max).contains(&median),
        "{backtest}"
    );
    // The V100 demo back-tests within 7 % median (engine::twin tests).
    assert!(median < 7.0, "back-test median {median} %");
    assert!(backtest["compared"].as_u64().unwrap() > 0);
    assert!(
        backtest["method"]
            .as_str()
            .unwrap()
            .contains("leave-one-out")
    );
    assert!(prediction["saturation_rate_per_s"].as_f64().unwrap() > 0.0);
    assert!(prediction["request_throughput_per_s"].as_f64().unwrap() > 0.0);
    assert!(prediction["output_tokens_per_s"].as_f64().unwrap() > 0.0);
    assert!(prediction["warnings"].is_array());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_pilot_predicts_at_a_concurrency_and_a_rate_as_the_command_line_does() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let token = app.api_token(&app.admin().await).await;

    let (status, at_8) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?concurrency=8"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{at_8}");
    assert_sound(&at_8);
    assert_eq!(at_8["concurrency"], 8);
    assert!(at_8["rate_per_s"].is_null());
    // A closed loop of 8 users: Little's law, 8 = throughput × (mean E2E), and the mean E2E
    // lies between the p50 and the p99 of a right-skewed latency.
    let throughput = at_8["request_throughput_per_s"].as_f64().unwrap();
    let in_system_s = 8.0 / throughput;
    assert!(
        in_system_s * 1000.0 > 0.5 * at_8["e2e_ms"]["p50"].as_f64().unwrap()
            && in_system_s * 1000.0 < at_8["e2e_ms"]["p99"].as_f64().unwrap() * 1.5,
        "8 users at {throughput} req/s against E2E {}",
        at_8["e2e_ms"]
    );

    // Half the saturation rate: the queue is stable, so what arrives is served.
    let saturation = at_8["saturation_rate_per_s"].as_f64().unwrap();
    let rate = (saturation / 2.0 * 1000.0).round() / 1000.0;
    let (status, at_rate) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?rate={rate}&output_tokens=200"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{at_rate}");
    assert_sound(&at_rate);
    assert_eq!(at_rate["rate_per_s"].as_f64(), Some(rate));
    assert!(at_rate["concurrency"].is_null());
    let served = at_rate["request_throughput_per_s"].as_f64().unwrap();
    assert!(
        (served - rate).abs() / rate < 0.1,
        "{served} req/s served at {rate} req/s asked"
    );
    assert!(at_rate["output_tokens"].as_str().unwrap().contains("200"));
    let tokens_per_s = at_rate["output_tokens_per_s"].as_f64().unwrap();
    assert!(
        (tokens_per_s / served - 200.0).abs() < 20.0,
        "{tokens_per_s} tokens/s at {served} req/s of 200-token answers"
    );

    // The same question of `server predict --json` on the same file and run context: the same
    // object, number for number.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(engine::loadtest::demo::FILE_NAME);
    std::fs::write(&file, engine::loadtest::demo::v100_report_jsonl()).unwrap();
    let runtime = dir.path().join("runtime.yaml");
    std::fs::write(&runtime, engine::loadtest::demo::SERVING_RUNTIME).unwrap();
    let cli = predict_cli(&[
        file.as_os_str(),
        "--concurrency".as_ref(),
        "8".as_ref(),
        "--json".as_ref(),
        "--run-context".as_ref(),
        runtime.as_os_str(),
    ]);
    assert_eq!(cli, at_8, "the API and the CLI differ");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_missing_or_doubled_parameters_are_400_naming_the_parameter() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let token = app.api_token(&app.admin().await).await;
    for (query, names) in [
        ("", "rate, concurrency"),
        ("?rate=2&concurrency=8", "rate, concurrency"),
        ("?rate=fast", "rate"),
        ("?rate=-1", "rate"),
        ("?rate=NaN", "rate"),
        ("?concurrency=0", "concurrency"),
        ("?concurrency=2.5", "concurrency"),
        ("?rate=1&prompt_tokens=many", "prompt_tokens"),
        ("?rate=1&output_tokens=0", "output_tokens"),
        ("?rate=1&rate=2", "rate"),
        ("?rate=1&users=3", "users"),
    ] {
        let (status, body) = get(
            &app,
            Some(&token),
            &format!("/api/v1/pilots/{demo}/predict{query}"),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["kind"], "bad_argument", "{query}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.starts_with(&format!("{names}:")), "{query}: {error}");
    }
    let (status, body) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?rate=1&configuration=framework%3Dsgl"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("configuration:"),
        "{body}"
    );
    // One request longer than the model's context window (Qwen2.5-7B: 32,768 tokens) is
    // refused at once: vLLM would refuse it, and simulating a million-token answer step by step
    // took a minute (the contract test's fuzzer found it). Up to the window it is answered.
    let (status, body) = get(
        &app,
        Some(&token),
        &format!(
            "/api/v1/pilots/{demo}/predict?rate=1&prompt_tokens=1000000&output_tokens=1000000"
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("prompt_tokens + output_tokens: 2,000,000 tokens")
            && error.contains("context window")
            && error.contains("32,768 tokens"),
        "{error}"
    );
    let (status, body) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?rate=1&prompt_tokens=30000&output_tokens=2768"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_organisations_customer_gets_404_and_nobody_401() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin = app.admin().await;
    let globex = app.organisation(&admin, "Globex").await;
    let outsider = app.user(&admin, "dan@globex.io", "customer", globex).await;
    let token = app.api_token(&outsider).await;
    let path = format!("/api/v1/pilots/{demo}/predict?concurrency=8");
    let (status, body) = get(&app, Some(&token), &path).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["kind"], "not_found");
    assert!(body.get("ttft_ms").is_none());
    // Not even a bad query tells an outsider that the pilot exists.
    let (status, _) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?rate=x"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&app, Some(&token), "/api/v1/pilots/nine/predict?rate=1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let response = client().get(app.url(&path)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert!(response.headers().contains_key("www-authenticate"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["kind"], "unauthenticated");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pilot_without_load_tests_is_422() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "No tests yet").await;
    let customer = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let token = app.api_token(&customer).await;
    let (status, body) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{pilot}/predict?rate=1"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["kind"], "invalid");
    assert!(
        body["error"].as_str().unwrap().contains("no load test"),
        "{body}"
    );
}

/// `server predict <args>`: it must succeed; its JSON answer.
fn predict_cli(args: &[&std::ffi::OsStr]) -> Value {
    let output = server_binary().arg("predict").args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The text of the page, tags dropped (a figure and its unit may sit in different elements).
fn text_of(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("<!---->", "")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tests_page_shows_the_capacity_twin_card() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin = app.admin().await;

    // Default: the demo plan's planned peak of 8 requests in flight.
    let html = app
        .page(&admin, &format!("/pilots/{demo}/load-tests"))
        .await;
    let text = text_of(&html);
    assert!(html.contains(r#"id="capacity-twin""#), "no card");
    assert!(text.contains("Capacity twin"));
    assert!(
        text.contains("planned peak concurrency of plan version"),
        "{text}"
    );
    assert!(html.contains(r#"name="load""#) && html.contains(r#"value="8""#));
    for label in [
        "TTFT (ms)",
        "TPOT (ms/token)",
        "ITL (ms)",
        "E2E (ms)",
        "p50",
        "p90",
        "p95",
        "p99",
    ] {
        assert!(text.contains(label), "{label} missing");
    }
    // 16 percentiles, the throughput, the output rate and the saturation rate: each labelled.
    let labels: usize = ["Measured", "Simulated", "Estimated"]
        .iter()
        .map(|b| html.matches(&format!(r#"">{b}<"#)).count())
        .sum();
    assert!(labels >= 19, "{labels} figures labelled with their basis");
    assert!(text.contains("Saturation rate:") && text.contains("req/s"));
    assert!(text.contains("tokens/s"));
    // The back-test's figures, as the API states them.
    let token = app.api_token(&admin).await;
    let (_, prediction) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?concurrency=8"),
    )
    .await;
    let median = prediction["backtest"]["median_abs_error_pct"]
        .as_f64()
        .unwrap();
    let worst = prediction["backtest"]["max_abs_error_pct"]
        .as_f64()
        .unwrap();
    let line = format!("median error {median:.1} %, worst {worst:.1} %");
    assert!(text.contains(&line), "{line} not on the page");
    // TPOT p99 (under 1,000 ms: no thousands separator), two decimals at most as the page writes.
    let p99 = prediction["tpot_ms"]["p99"].as_f64().unwrap();
    assert!(p99 < 1000.0);
    let shown = format!("{p99:.2}");
    let shown = shown.trim_end_matches('0').trim_end_matches('.');
    assert!(text.contains(shown), "TPOT p99 {shown} ms not on the page");

    // A rate asked on the form.
    let text = text_of(
        &app.page(
            &admin,
            &format!("/pilots/{demo}/load-tests?twin=rate&load=0.25"),
        )
        .await,
    );
    assert!(text.contains("0.25"), "asked rate not shown");
    assert!(text.contains("Request throughput:"));
    // A bad value: said on the card, the page still answers.
    let text = text_of(
        &app.page(
            &admin,
            &format!("/pilots/{demo}/load-tests?twin=concurrency&load=lots"),
        )
        .await,
    );
    assert!(
        text.contains("concurrency: `lots` is not a whole number of users"),
        "{text}"
    );

    // A pilot without load tests: the card's empty state.
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "No tests yet").await;
    let text = text_of(
        &app.page(&admin, &format!("/pilots/{pilot}/load-tests"))
            .await,
    );
    assert!(text.contains("No load test to fit the twin on"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_see_the_operating_point_cost_on_the_pilots_own_gpus_and_customers_never() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin = app.admin().await;
    let pilot = app.store.pilot(demo).await.unwrap().unwrap();
    let gpus = pilot.gpu_count as f64;

    let text = text_of(
        &app.page(&admin, &format!("/pilots/{demo}/load-tests?price=2.5"))
            .await,
    );
    assert!(text.contains("Price per GPU-hour (staff only)"));
    assert!(
        text.contains("Operating-point cost (staff only) Estimated"),
        "{text}"
    );
    // The arithmetic at the default load (the plan's peak of 8), from the API's prediction.
    let token = app.api_token(&admin).await;
    let (_, prediction) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{demo}/predict?concurrency=8"),
    )
    .await;
    let output = prediction["output_tokens_per_s"].as_f64().unwrap();
    assert!(output < 1000.0, "{output}");
    let cost = 2.5 * gpus / (output * 3600.0) * 1e6;
    let working = format!(
        "2.50 per GPU-hour × {gpus} GPUs ÷ ({output:.1} tok/s × 3,600 s/h) × 1,000,000 = {cost:.2}"
    );
    assert!(text.contains(&working), "{working} not in {text}");
    assert!(text.contains("per 1M input tokens: 2.50 per GPU-hour"));
    // A bad price is said on the card.
    let text = text_of(
        &app.page(&admin, &format!("/pilots/{demo}/load-tests?price=cheap"))
            .await,
    );
    assert!(text.contains("price: `cheap` is not a positive price per GPU-hour"));
    // Without a price asked, the GPU catalog's price per GPU-hour of the pilot's GPU is used,
    // and the card says where it came from.
    let text = text_of(
        &app.page(&admin, &format!("/pilots/{demo}/load-tests"))
            .await,
    );
    assert!(
        !text.contains("Operating-point cost"),
        "no price anywhere yet"
    );
    app.call_ok(
        &admin,
        "set_gpu_price",
        &[
            ("id", "v100-sxm2-16gb"),
            ("unit_price", ""),
            ("hour_price", "1.2"),
        ],
    )
    .await;
    let text = text_of(
        &app.page(&admin, &format!("/pilots/{demo}/load-tests"))
            .await,
    );
    assert!(
        text.contains(
            "Price: the GPU catalog's price per GPU-hour of NVIDIA Tesla V100 SXM2 16GB (enter another to compare)."
        ),
        "{text}"
    );
    assert!(text.contains(&format!(
        "1.20 per GPU-hour × {gpus} GPUs ÷ ({output:.1} tok/s"
    )));
    // With the installation's currency, the price field, the working and both costs name it.
    app.call_ok(&admin, "set_price_currency", &[("currency", "eur")])
        .await;
    let text = text_of(
        &app.page(&admin, &format!("/pilots/{demo}/load-tests"))
            .await,
    );
    assert!(
        text.contains("Price per GPU-hour, EUR (staff only)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "1.20 EUR per GPU-hour × {gpus} GPUs ÷ ({output:.1} tok/s"
        )),
        "{text}"
    );
    assert!(text.contains(" EUR per 1M output tokens: "), "{text}");

    // A customer of the demo's organisation: neither the field nor a cost, whatever is asked.
    let customer = app
        .user(
            &admin,
            "cory@demo.example",
            "customer",
            pilot.organisation_id,
        )
        .await;
    let html = app
        .page(&customer, &format!("/pilots/{demo}/load-tests?price=2.5"))
        .await;
    assert!(html.contains(r#"id="capacity-twin""#));
    assert!(!html.contains("twin-price"));
    assert!(!html.contains("Operating-point cost"));
    assert!(!html.contains("per GPU-hour"));
    // Not the catalog's price either.
    let html = app
        .page(&customer, &format!("/pilots/{demo}/load-tests"))
        .await;
    assert!(!html.contains("per GPU-hour") && !html.contains("Operating-point cost"));
}

/// A pilot's twin rests on what was stored at import, never on the raw file: per-request
/// samples keep each request's start and token counts (samples version 2), so a pilot with a
/// per-request load test gets, number for number, the prediction `server predict --json`
/// makes from the file itself (which reads every record).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_per_request_load_test_gives_the_pilot_the_twin_the_command_line_fits_on_the_file() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    // The run is of Qwen2.5-7B-Instruct (its processor): the pilot's own model, or the twin
    // would leave it out as another model's.
    let pilot = crate::fidelity::pilot(
        &app,
        &admin,
        "Per-request guidellm run",
        "Qwen/Qwen2.5-7B-Instruct",
        "NVIDIA L40S",
    )
    .await;
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/graz-dev-guidellm/benchmarks.json");
    let bytes = std::fs::read(&file).unwrap();
    let response = app
        .upload_evidence(&token, pilot, "benchmarks.json", bytes, &[])
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let stored: Value = response.json().await.unwrap();
    assert_eq!(stored["summary"]["request_samples"], 1000);
    assert_eq!(stored["summary"]["request_samples_format"], 2);

    let (status, api) = get(
        &app,
        Some(&token),
        &format!("/api/v1/pilots/{pilot}/predict?concurrency=8"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{api}");
    // One load level (a throughput run of 1,000 requests): the per-request records are all the
    // twin has beyond that point, and there is nothing to leave out in a back-test.
    assert!(api["ttft_ms"]["p50"].as_f64().unwrap() > 0.0, "{api}");
    assert!(api["tpot_ms"]["p99"].as_f64().unwrap() > 0.0, "{api}");
    assert!(
        api["backtest"]["method"]
            .as_str()
            .unwrap()
            .contains("at least two measured points")
    );
    let cli = predict_cli(&[
        file.as_os_str(),
        "--concurrency".as_ref(),
        "8".as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(cli, api, "the pilot's twin and the file's twin differ");
}

/// `server predict … --gpu`: the same load on another configuration, from the measured one
/// (the demo's 4 × V100 TP=4, eager, FP16). Every percentile carries its range and the
/// Estimated basis; one H100 SXM streams a 7B model faster than the pilot's four V100s.
#[test]
fn the_command_line_predicts_the_same_load_on_another_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(engine::loadtest::demo::FILE_NAME);
    std::fs::write(&file, engine::loadtest::demo::v100_report_jsonl()).unwrap();
    let runtime = dir.path().join("runtime.yaml");
    std::fs::write(&runtime, engine::loadtest::demo::SERVING_RUNTIME).unwrap();
    let measured = predict_cli(&[
        file.as_os_str(),
        "--rate".as_ref(),
        "0.5".as_ref(),
        "--json".as_ref(),
        "--run-context".as_ref(),
        runtime.as_os_str(),
    ]);
    let elsewhere = predict_cli(&[
        file.as_os_str(),
        "--rate".as_ref(),
        "0.5".as_ref(),
        "--json".as_ref(),
        "--run-context".as_ref(),
        runtime.as_os_str(),
        "--gpu".as_ref(),
        "h100-sxm".as_ref(),
        "--model".as_ref(),
        "qwen2.5-7b".as_ref(),
        "--measured-gpu".as_ref(),
        "v100-sxm2-16gb".as_ref(),
        "--measured-tp".as_ref(),
        "4".as_ref(),
    ]);
    assert_eq!(elsewhere["cards"], 1, "{elsewhere}");
    let p = &elsewhere["prediction"];
    assert_eq!(p["basis"], "estimated", "{p}");
    for metric in ["ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"] {
        for percentile in ["p50", "p90", "p95", "p99"] {
            let r = &p[metric][percentile];
            let (low, value, high) = (
                r["low"].as_f64().unwrap(),
                r["value"].as_f64().unwrap(),
                r["high"].as_f64().unwrap(),
            );
            assert!(low <= value && value <= high, "{metric} {percentile}: {r}");
        }
    }
    let h100_tpot = p["tpot_ms"]["p50"]["value"].as_f64().unwrap();
    let v100_tpot = measured["tpot_ms"]["p50"].as_f64().unwrap();
    assert!(
        h100_tpot < v100_tpot,
        "H100 {h100_tpot} ms vs V100 {v100_tpot} ms"
    );

    // Bad input names the flag; --gpu needs what the transfer weighs.
    let refused = server_binary()
        .arg("predict")
        .arg(&file)
        .args(["--rate", "0.5", "--gpu", "h100-sxm"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("--model") && stderr.contains("--measured-gpu"),
        "{stderr}"
    );
    let unknown = server_binary()
        .arg("predict")
        .arg(&file)
        .args(["--rate", "0.5", "--gpu", "tpu-v9", "--model", "qwen2.5-7b"])
        .args(["--measured-gpu", "v100-sxm2-16gb"])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--gpu: no GPU `tpu-v9`"));
    // A load test of another model is no evidence for this one (issue #39).
    let other_model = server_binary()
        .arg("predict")
        .arg(&file)
        .args([
            "--rate",
            "0.5",
            "--gpu",
            "h200-nvl",
            "--model",
            "llama-3.3-70b",
        ])
        .args(["--measured-gpu", "v100-sxm2-16gb", "--measured-tp", "4"])
        .output()
        .unwrap();
    assert!(!other_model.status.success());
    let stderr = String::from_utf8_lossy(&other_model.stderr);
    assert!(
        stderr
            .contains("--model llama-3.3-70b: the load tests are of RedHatAI/Qwen2.5-7B-Instruct")
            && stderr.contains("give --model qwen2.5-7b"),
        "{stderr}"
    );
}
