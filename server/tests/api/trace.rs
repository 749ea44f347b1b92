//! The gateway traffic as a Mooncake trace: `GET /pilots/{id}/traffic/trace.jsonl` (content,
//! order, sign-in, other organisations' pilots), and the traffic page's link and commands.

use crate::helpers::{client, spawn_app};
use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};

/// Four requests logged out of order; the failed one carries no lengths and is left out.
const LOG: &str = concat!(
    r#"{"request_id": "b", "start_time": "2026-03-02T09:00:05Z", "end_time": "2026-03-02T09:00:20Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 200, "completion_tokens": 100}"#,
    "\n",
    r#"{"request_id": "a", "start_time": "2026-03-02T09:00:00Z", "end_time": "2026-03-02T09:00:10Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}"#,
    "\n",
    r#"{"request_id": "x", "start_time": "2026-03-02T09:00:07Z", "end_time": "2026-03-02T09:00:08Z", "model": "qwen2.5-7b-instruct", "status": "error"}"#,
    "\n",
    r#"{"request_id": "c", "start_time": "2026-03-02T09:00:15.250Z", "end_time": "2026-03-02T09:00:25Z", "model": "qwen2.5-7b-instruct", "status": "ok", "prompt_tokens": 300, "completion_tokens": 20}"#,
    "\n",
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_traffic_downloads_as_a_mooncake_trace_for_those_who_may_see_it() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Trace").await;
    let url = app.url(&format!("/pilots/{pilot}/traffic/trace.jsonl"));

    // No gateway log yet: 404 that says so.
    let response = admin.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(
        response
            .text()
            .await
            .unwrap()
            .contains("no gateway log yet")
    );

    let token = app.api_token(&admin).await;
    let form = Form::new().part(
        "file",
        Part::bytes(LOG.as_bytes().to_vec()).file_name("gateway.jsonl"),
    );
    let uploaded = client()
        .post(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.status(), StatusCode::CREATED);

    // The browser session: the three successful requests in arrival order, ms from the first
    // (no approved plan to grow them by: the busiest hour as logged, and the header says why).
    let response = admin.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let basis = response.headers()["x-trace-basis"].to_str().unwrap();
    assert!(basis.starts_with("busiest-hour; start_ms="), "{basis}");
    assert!(basis.contains("not approved"), "{basis}");
    assert_eq!(response.headers()["content-type"], "application/jsonl");
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert_eq!(
        response.headers()["content-disposition"],
        format!("attachment; filename=\"pilot-{pilot}-trace.jsonl\"").as_str()
    );
    assert_eq!(
        response.text().await.unwrap(),
        concat!(
            r#"{"timestamp": 0, "input_length": 100, "output_length": 50}"#,
            "\n",
            r#"{"timestamp": 5000, "input_length": 200, "output_length": 100}"#,
            "\n",
            r#"{"timestamp": 15250, "input_length": 300, "output_length": 20}"#,
            "\n",
        )
    );
    // An API token works too.
    let response = client().get(&url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);

    // The traffic page links it, with the commands that replay it.
    let page = admin
        .get(app.url(&format!("/pilots/{pilot}/traffic")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains(&format!(r#"href="/pilots/{pilot}/traffic/trace.jsonl""#)));
    assert!(page.contains(&format!(
        "aiperf profile --model qwen2.5-7b-instruct --url http://localhost:8000 --endpoint-type chat --streaming --input-file pilot-{pilot}-trace.jsonl --custom-dataset-type mooncake_trace --fixed-schedule"
    )));
    // Peak in flight 3 (a, b and the failed x overlap at 09:00:07): the sweep runs 1, 2, 3 and
    // on to twice the peak, at the median lengths of the successful requests.
    assert!(
        page.contains("for c in 1 2 3 6; do vllm bench serve"),
        "{page}"
    );
    assert!(page.contains("--random-input-len 200 --random-output-len 50"));

    // Anonymous: 401. A customer of the pilot's organisation: the trace; of another: 404, as for
    // a pilot that does not exist.
    let response = client().get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let own = app.user(&admin, "ann@acme.example", "customer", acme).await;
    assert_eq!(own.get(&url).send().await.unwrap().status(), StatusCode::OK);
    let other = app.organisation(&admin, "Other Ltd").await;
    let eve = app
        .user(&admin, "eve@other.example", "customer", other)
        .await;
    assert_eq!(
        eve.get(&url).send().await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    let missing = app.url("/pilots/999999/traffic/trace.jsonl");
    assert_eq!(
        admin.get(&missing).send().await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
}

/// The demo pilot's week of gateway traffic, downloaded whole (`scope=logged`): the body (several 64 KiB chunks
/// of the streamed response) is one Mooncake entry per line, in arrival order, one per
/// successful request, as many as the demand profile counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_pilots_trace_streams_one_entry_per_successful_request_in_arrival_order() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let response = client()
        .get(app.url(&format!("/pilots/{demo}/traffic/trace.jsonl?scope=logged")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["x-trace-basis"], "whole-log");
    assert_eq!(response.headers()["content-type"], "application/jsonl");
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert_eq!(
        response.headers()["content-disposition"],
        format!("attachment; filename=\"pilot-{demo}-trace.jsonl\"").as_str()
    );
    let body = response.text().await.unwrap();
    assert!(body.len() > 3 * 64 * 1024, "{} bytes", body.len());
    assert!(body.ends_with('\n'));
    let mut previous = 0;
    let mut lines = 0_u64;
    for (i, line) in body.lines().enumerate() {
        let entry: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {i}: {e}: {line}"));
        let entry = entry.as_object().expect("one JSON object per line");
        assert_eq!(entry.len(), 3, "{line}");
        let timestamp = entry["timestamp"].as_i64().expect(line);
        assert!(entry["input_length"].as_u64().expect(line) > 0, "{line}");
        assert!(entry["output_length"].as_u64().expect(line) > 0, "{line}");
        if i == 0 {
            assert_eq!(timestamp, 0, "timed from the first request");
        }
        assert!(timestamp >= previous, "line {i} goes back in time: {line}");
        previous = timestamp;
        lines += 1;
    }
    // As many entries as the demand profile has successful requests with token counts.
    let demand: serde_json::Value = client()
        .get(app.url(&format!("/api/v1/pilots/{demo}/demand")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(demand["ok"].as_u64(), Some(lines), "{}", demand["ok"]);
    assert_eq!(demand["prompt_tokens"]["count"].as_u64(), Some(lines));
}

/// The trace of the next step is production's busiest hour: the pilot's busiest hour grown to
/// the plan's production rate (the hour the recommendation simulated), one copy's share with
/// `?copies=N`; bad parameters are 422 naming them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trace_is_productions_busiest_hour_by_default() {
    let app = spawn_app().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let get = |query: &'static str| {
        let request = client()
            .get(app.url(&format!("/pilots/{demo}/traffic/trace.jsonl{query}")))
            .bearer_auth(&token);
        async move { request.send().await.unwrap() }
    };
    let response = get("").await;
    assert_eq!(response.status(), StatusCode::OK);
    let basis = response.headers()["x-trace-basis"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(basis.starts_with("production-hour; start_ms="), "{basis}");
    let field = |name: &str| -> f64 {
        basis
            .split("; ")
            .find_map(|part| part.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} in {basis}"))
    };
    let (growth, rate) = (field("growth"), field("rate_per_s"));
    assert!(growth > 1.0, "production grows the pilot: {basis}");
    let body = response.text().await.unwrap();
    let stamps: Vec<i64> = body
        .lines()
        .map(|line| {
            let entry: serde_json::Value = serde_json::from_str(line).unwrap();
            entry["timestamp"].as_i64().unwrap()
        })
        .collect();
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "in arrival order");
    assert!(
        stamps.iter().all(|t| (0..3_600_000).contains(t)),
        "one hour"
    );
    // Whole copies of the busiest hour's m requests plus a thinned one: floor(g)·m to ceil(g)·m.
    let busiest = rate * 3600.0 / growth;
    let n = stamps.len() as f64;
    assert!(
        n >= growth.floor() * busiest - 1.0 && n <= growth.ceil() * busiest + 1.0,
        "{n} requests for {busiest:.0} grown {growth:.2}-fold"
    );

    // One of three copies behind a load balancer gets about a third.
    let response = get("?copies=3").await;
    assert_eq!(response.status(), StatusCode::OK);
    let third = response.text().await.unwrap().lines().count() as f64;
    assert!(
        (third - n / 3.0).abs() <= 0.2 * n / 3.0 + 3.0,
        "{third} of {n} for one of three copies"
    );
    println!(
        "production hour: {n} requests ({busiest:.0} grown {growth:.2}-fold, {rate:.3}/s); one of three copies: {third}"
    );
    for (query, named) in [("?copies=0", "copies"), ("?scope=week", "scope")] {
        let response = get(query).await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}"
        );
        let text = response.text().await.unwrap();
        assert!(text.contains(named), "{query}: {text}");
    }
}
