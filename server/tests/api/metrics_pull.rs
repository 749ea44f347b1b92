//! vLLM `/metrics` pulled on a schedule (issue #36): a target of the test's own serves the real
//! vLLM 0.25.1 scrapes of `testdata/er0080-vllm-benchmarking/`; each scrape becomes evidence,
//! two instances on one database never scrape the same due time twice, failures are recorded
//! with the last success and shown on the pilot page, and scrapes never reach a metadata
//! address.

use crate::helpers::{TestApp, client, fixture, spawn_app};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A `/metrics` target: answers every request with the next of `bodies` (round robin) and
/// records when each arrived.
struct Target {
    url: String,
    hits: Arc<Mutex<Vec<Instant>>>,
}

async fn target(bodies: Vec<Vec<u8>>) -> Target {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/metrics", listener.local_addr().unwrap());
    let hits = Arc::new(Mutex::new(Vec::new()));
    let seen = hits.clone();
    tokio::spawn(async move {
        let mut next = 0;
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            // A comment line of its own: no two scrapes are the same bytes.
            let mut body = bodies[next % bodies.len()].clone();
            body.extend_from_slice(format!("# scrape {next}\n").as_bytes());
            next += 1;
            seen.lock().unwrap().push(Instant::now());
            tokio::spawn(async move {
                let mut request = [0_u8; 4096];
                let _ = socket.read(&mut request).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain; version=0.0.4\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&body).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    Target { url, hits }
}

fn scrapes() -> Vec<Vec<u8>> {
    ["idle", "loaded"]
        .iter()
        .map(|name| {
            fixture(&format!(
                "er0080-vllm-benchmarking/metrics_vllm_0_25_1_{name}.txt"
            ))
        })
        .collect()
}

async fn put_source(app: &TestApp, api: &str, pilot: i64, body: Value) -> (StatusCode, Value) {
    let response = client()
        .put(app.url(&format!("/api/v1/pilots/{pilot}/metrics-source")))
        .bearer_auth(api)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get_source(app: &TestApp, api: &str, pilot: i64) -> (StatusCode, Value) {
    let response = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/metrics-source")))
        .bearer_auth(api)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// `GET …/evidence`: the pilot's evidence register.
async fn evidence_register(app: &TestApp, api: &str, pilot: i64) -> Value {
    let response = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(api)
        .send()
        .await
        .unwrap();
    response.json().await.unwrap()
}

/// `GET …/metrics-source` until `done` holds (at most 30 s).
async fn wait_for(app: &TestApp, api: &str, pilot: i64, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..300 {
        let (status, source) = get_source(app, api, pilot).await;
        assert_eq!(status, StatusCode::OK, "{source}");
        if done(&source) {
            return source;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the metrics source did not get there within 30 s");
}

async fn setup() -> (TestApp, String, i64, i64) {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let api = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Scraped Corp").await;
    let pilot = app.pilot(&admin, org, "Scraped").await;
    (app, api, pilot, org)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduled_scrapes_become_evidence_and_failures_show_with_the_last_success() {
    let (app, api, pilot, org) = setup().await;
    let (status, none) = get_source(&app, &api, pilot).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{none}");

    let target = target(scrapes()).await;
    let (status, set) = put_source(
        &app,
        &api,
        pilot,
        json!({"url": target.url, "interval_s": 15, "bearer_token": "s3cret"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(set["has_bearer_token"], true);
    assert!(set.get("bearer_token").is_none(), "{set}");
    // The first scrape is due at once.
    let first = wait_for(&app, &api, pilot, |s| s["scrapes"] == 1).await;
    assert_eq!(first["last_error"], Value::Null, "{first}");
    assert!(first["last_scrape_at"].as_str().unwrap().ends_with('Z'));
    let evidence_id = first["last_evidence_id"].as_i64().unwrap();

    // Faster than the API allows, straight in the store: three more scrapes, one a second.
    app.store
        .put_metrics_source(pilot, &target.url, None, 1, None, None)
        .await
        .unwrap();
    wait_for(&app, &api, pilot, |s| s["scrapes"].as_i64() >= Some(3)).await;
    let register = evidence_register(&app, &api, pilot).await;
    let pulled: Vec<&Value> = register["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["file_name"]
                .as_str()
                .unwrap()
                .starts_with("pulled-scrape-")
        })
        .collect();
    assert!(pulled.len() >= 3, "{register}");
    assert!(pulled.iter().all(|f| f["kind"] == "metrics_scrape"));
    assert!(pulled.iter().any(|f| f["id"] == evidence_id));
    // The traffic page reads them like uploaded scrapes: the window between the latest two.
    let admin = app.admin().await;
    let page = app.page(&admin, &format!("/pilots/{pilot}/traffic")).await;
    assert!(page.contains("pulled-scrape-"), "the scrapes are listed");
    // The report's appendix names the routine pulls in one row, in either language.
    for (lang, row) in [
        ("en", "scrapes pulled from /metrics on schedule"),
        ("de", "automatisch abgerufene /metrics-Abzüge"),
    ] {
        let report = app
            .page(&admin, &format!("/pilots/{pilot}/report.html?lang={lang}"))
            .await;
        assert!(report.contains(row), "{lang}: one row for the pulls");
        // The pulls measured another model: one warning names them, at most three by name.
        let title = if lang == "en" {
            "Evidence not comparable."
        } else {
            "Nachweise nicht vergleichbar."
        };
        assert_eq!(report.matches(title).count(), 1, "{lang}: one warning");
        let named = report.matches("pulled-scrape-").count();
        assert!((2..=3).contains(&named), "{lang}: {named} scrapes named");
    }

    // The target goes away: the failure is recorded and shown with the last success; the page
    // still answers.
    let gone = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/metrics", listener.local_addr().unwrap())
    };
    app.store
        .put_metrics_source(pilot, &gone, None, 1, None, None)
        .await
        .unwrap();
    let failed = wait_for(&app, &api, pilot, |s| s["failures"].as_i64() >= Some(1)).await;
    let error = failed["last_error"].as_str().unwrap();
    assert!(error.contains("could not connect"), "{error}");
    let page = app.page(&admin, &format!("/pilots/{pilot}")).await;
    assert!(
        page.contains("could not connect"),
        "the pilot page names the failure"
    );

    // A customer of the pilot reads the source but cannot change it.
    let customer = app
        .user(&admin, "ops@scraped.example", "customer", org)
        .await;
    let response = customer
        .get(app.url(&format!("/api/v1/pilots/{pilot}/metrics-source")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let response = customer
        .delete(app.url(&format!("/api/v1/pilots/{pilot}/metrics-source")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = client()
        .delete(app.url(&format!("/api/v1/pilots/{pilot}/metrics-source")))
        .bearer_auth(&api)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
}

/// A pulled scrape is taken in exactly as its upload would be (`desk::intake`): a target that
/// answers an impossible histogram stores nothing, and the source's error names the line, the
/// series and the rule, as the upload's refusal does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_impossible_scrape_is_refused_like_its_upload_and_nothing_is_stored() {
    let (app, api, pilot, _) = setup().await;
    let target = target(vec![fixture("hostile/metrics_scrape/bucket_decreases.txt")]).await;
    let (status, set) = put_source(
        &app,
        &api,
        pilot,
        json!({"url": target.url, "interval_s": 15}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{set}");
    let failed = wait_for(&app, &api, pilot, |s| s["failures"].as_i64() >= Some(1)).await;
    let error = failed["last_error"].as_str().unwrap();
    assert!(
        error.contains("histogram buckets are cumulative") && error.contains("line 79"),
        "{error}"
    );
    assert_eq!(failed["scrapes"], 0, "{failed}");
    let register = evidence_register(&app, &api, pilot).await;
    assert_eq!(
        register["files"].as_array().map(Vec::len),
        Some(0),
        "{register}"
    );
    assert!(!target.hits.lock().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_never_goes_to_a_metadata_address_nor_twice_from_two_instances() {
    let (app, api, pilot, _) = setup().await;
    for (url, expect) in [
        (
            "http://169.254.169.254/latest/meta-data/",
            "METRICS_ALLOW_HOSTS",
        ),
        (
            "http://metadata.google.internal/computeMetadata/v1/",
            "metadata",
        ),
        ("http://[fe80::1]:8000/metrics", "link-local"),
        ("file:///etc/passwd", "not http or https"),
        ("http://vllm:8000/metrics", "does not resolve"),
    ] {
        let (status, body) = put_source(&app, &api, pilot, json!({"url": url})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{url}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(expect),
            "{url}: {body}"
        );
    }
    let (status, body) = put_source(
        &app,
        &api,
        pilot,
        json!({"url": "http://127.0.0.1:1/metrics", "interval_s": 5}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("interval_s"),
        "{body}"
    );

    // Two instances on one database, one source due every second: each due time is scraped
    // once (the requests arrive about a second apart, never two at once).
    let _second = app.second_instance().await;
    let target = target(scrapes()).await;
    app.store
        .put_metrics_source(pilot, &target.url, None, 1, None, None)
        .await
        .unwrap();
    wait_for(&app, &api, pilot, |s| s["scrapes"].as_i64() >= Some(5)).await;
    let hits = target.hits.lock().unwrap().clone();
    let (_, source) = get_source(&app, &api, pilot).await;
    assert_eq!(
        hits.len() as i64,
        source["scrapes"].as_i64().unwrap() + source["failures"].as_i64().unwrap(),
        "one request per recorded attempt"
    );
    for pair in hits.windows(2) {
        let gap = pair[1].duration_since(pair[0]);
        assert!(
            gap >= Duration::from_millis(700),
            "two scrapes {gap:?} apart"
        );
    }
}

/// The traffic page's form (#36 item 3): staff set the source, its interval and bearer token
/// through server functions; an empty token field keeps the token, the box removes it; a bad
/// interval names the field; customers see no form and cannot set one; stopping removes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_set_and_stop_the_metrics_source_from_the_traffic_page() {
    let (app, api, pilot, org) = setup().await;
    let admin = app.admin().await;
    let id = pilot.to_string();
    let target = target(scrapes()).await;
    let form = app
        .call_ok(&admin, "metrics_source_form", &[("pilot_id", &id)])
        .await;
    assert_eq!(form, json!({"source": null}), "no source yet");
    let set = |fields: Vec<(&'static str, String)>| {
        let mut all = vec![("pilot_id", id.clone())];
        all.extend(fields);
        let admin = &admin;
        let app = &app;
        async move {
            let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.call(admin, "set_metrics_source", &pairs).await
        }
    };
    let saved = set(vec![
        ("url", target.url.clone()),
        ("interval_s", "15".into()),
        ("bearer_token", "s3cret".into()),
    ])
    .await;
    assert!(saved.status().is_success(), "{}", saved.status());
    let first = wait_for(&app, &api, pilot, |s| s["scrapes"].as_i64() >= Some(1)).await;
    assert_eq!(first["interval_s"], 15);
    assert_eq!(first["has_bearer_token"], true);
    // Saved again with the token field empty: the token stays; with the box, it goes.
    let kept = set(vec![
        ("url", target.url.clone()),
        ("interval_s", "30".into()),
    ])
    .await;
    assert!(kept.status().is_success());
    let (_, source) = get_source(&app, &api, pilot).await;
    assert_eq!(
        (
            source["interval_s"].clone(),
            source["has_bearer_token"].clone()
        ),
        (json!(30), json!(true))
    );
    let cleared = set(vec![
        ("url", target.url.clone()),
        ("clear_token", "on".into()),
    ])
    .await;
    assert!(cleared.status().is_success());
    let (_, source) = get_source(&app, &api, pilot).await;
    assert_eq!(source["has_bearer_token"], false, "{source}");
    assert_eq!(source["interval_s"], 60, "an empty interval is the default");
    let bad = set(vec![
        ("url", target.url.clone()),
        ("interval_s", "5".into()),
    ])
    .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text().await.unwrap().contains("interval_s"));

    // The page shows the form to staff; a customer of the pilot gets neither form nor power.
    let page = app.page(&admin, &format!("/pilots/{pilot}/traffic")).await;
    assert!(
        page.contains("pulled on a schedule"),
        "the card is rendered"
    );
    let customer = app.user(&admin, "ops@form.example", "customer", org).await;
    let none = app
        .call_ok(&customer, "metrics_source_form", &[("pilot_id", &id)])
        .await;
    assert_eq!(none, Value::Null);
    let refused = app
        .call(
            &customer,
            "set_metrics_source",
            &[("pilot_id", &id), ("url", &target.url)],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);

    // Stop pulling: the source is gone, its scrapes stay evidence.
    let stopped = app
        .call(&admin, "remove_metrics_source", &[("pilot_id", &id)])
        .await;
    assert!(stopped.status().is_success());
    let (status, _) = get_source(&app, &api, pilot).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let again = app
        .call(&admin, "remove_metrics_source", &[("pilot_id", &id)])
        .await;
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
}
