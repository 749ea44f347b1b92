//! Hardening (issue #13): stored markup stays text, every response has a Content-Security-Policy,
//! bad arguments answer 400, the start-up log's larger body limit, API token expiry and
//! revocation, the configured public origin, and a PDF printer that reaches no network.

use crate::helpers::{TestApp, client, spawn_app, spawn_app_with};
use reqwest::StatusCode;
use serde_json::Value;

const PAYLOAD: &str = "Before </textarea><img src=x onerror=alert(1)> after";
const LIVE_MARKUP: &str = "<img src=x";

/// A pilot of the demo customer whose description, plan rationale and evaluation-set texts all
/// carry [`PAYLOAD`]; returns its id.
async fn booby_trapped_pilot(app: &TestApp, admin: &reqwest::Client) -> i64 {
    let org = app
        .store
        .organisation_by_name("Demo Customer")
        .await
        .unwrap()
        .unwrap()
        .0;
    let pilot = app.pilot(admin, org, "Trapped").await;
    let id = pilot.to_string();
    app.call_ok(
        admin,
        "update_pilot",
        &[
            ("id", &id),
            ("name", "Trapped"),
            ("description", PAYLOAD),
            ("status", "planning"),
            ("model", ""),
            ("gpu_type", ""),
            ("gpu_count", ""),
            ("engine", "vLLM"),
            ("engine_version", ""),
        ],
    )
    .await;
    app.call_ok(admin, "create_plan", &[("pilot_id", &id), ("template", "")])
        .await;
    app.call_ok(
        admin,
        "save_pass_mark",
        &[
            ("pilot_id", &id),
            ("version", "1"),
            ("revision", "1"),
            ("index", ""),
            ("metric", "ttft"),
            ("custom_name", ""),
            ("statistic", "p95"),
            ("comparator", "le"),
            ("threshold", "500"),
            ("unit", "ms"),
            ("point", "client"),
            ("definition", ""),
            ("scope", ""),
            ("rationale", PAYLOAD),
        ],
    )
    .await;
    app.call_ok(admin, "new_eval_set_version", &[("pilot_id", &id)])
        .await;
    app.call_ok(
        admin,
        "save_eval_item",
        &[
            ("pilot_id", &id),
            ("version", "1"),
            ("revision", "1"),
            ("index", ""),
            ("item_id", "q1"),
            ("question", PAYLOAD),
            ("accepted_answer", PAYLOAD),
            ("accepted_passages", ""),
        ],
    )
    .await;
    pilot
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_markup_stays_text_on_every_read_and_edit_page() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = booby_trapped_pilot(&app, &admin).await;
    for path in [
        format!("/pilots/{pilot}"),
        format!("/pilots/{pilot}/edit"),
        format!("/pilots/{pilot}/plan"),
        format!("/pilots/{pilot}/plan/edit"),
        format!("/pilots/{pilot}/quality/set"),
        format!("/pilots/{pilot}/report.html"),
    ] {
        let response = admin.get(app.url(&path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let page = response.text().await.unwrap();
        assert!(
            page.contains("Before ") && page.contains(" after"),
            "{path} does not show the text at all"
        );
        assert!(
            !page.contains(LIVE_MARKUP),
            "{path} has live markup from stored text"
        );
    }
    // The edit page keeps the text inside the field, escaped.
    let edit = admin
        .get(app.url(&format!("/pilots/{pilot}/edit")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        edit.contains(
            "Before &lt;/textarea&gt;&lt;img src=x onerror=alert(1)&gt; after</textarea>"
        ),
        "the description is not the textarea's escaped content"
    );
}

/// The `nonce="…"` values of a page's inline scripts.
fn script_nonces(page: &str) -> Vec<String> {
    page.split("<script")
        .skip(1)
        .filter_map(|tag| {
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            tag.split_once("nonce=\"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(nonce, _)| nonce.to_string())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_has_a_content_security_policy_and_page_scripts_carry_its_nonce() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let mut nonces_seen = Vec::new();
    for path in [
        "/",
        "/account",
        &format!("/pilots/{pilot}"),
        "/no/such/page",
    ] {
        let response = admin.get(app.url(path)).send().await.unwrap();
        let policy = response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        let page = response.text().await.unwrap();
        assert!(policy.contains("object-src 'none'"), "{path}: {policy}");
        assert!(policy.contains("base-uri 'none'"), "{path}: {policy}");
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy}"
        );
        assert!(!policy.contains("unsafe-inline"), "{path}: {policy}");
        let nonces = script_nonces(&page);
        assert!(!nonces.is_empty(), "{path} has no nonced inline script");
        let scripts = page.matches("<script").count();
        assert_eq!(nonces.len(), scripts, "{path}: a script without the nonce");
        for nonce in &nonces {
            assert!(
                policy.contains(&format!("'nonce-{nonce}'")),
                "{path}: script nonce {nonce} is not in {policy}"
            );
        }
        nonces_seen.push(nonces[0].clone());
    }
    nonces_seen.dedup();
    assert_eq!(nonces_seen.len(), 4, "a nonce was reused: {nonces_seen:?}");

    let login = client().get(app.url("/login")).send().await.unwrap();
    assert!(
        login.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("'nonce-")
    );
    let report = admin
        .get(app.url(&format!("/pilots/{pilot}/report.html")))
        .send()
        .await
        .unwrap();
    let policy = report.headers()["content-security-policy"]
        .to_str()
        .unwrap();
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    assert!(!policy.contains("script-src"), "{policy}");
    assert!(policy.contains("frame-ancestors 'self'"), "{policy}");
    assert_eq!(report.headers()["x-frame-options"], "SAMEORIGIN");
    let json = admin.get(app.url("/health")).send().await.unwrap();
    assert_eq!(
        json.headers()["content-security-policy"],
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
    );
    let gone = client()
        .get(app.url(&format!("/share/{}", "0".repeat(64))))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    assert!(
        gone.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .starts_with("default-src 'none'; style-src 'unsafe-inline'")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_or_ill_typed_arguments_answer_400_with_the_problem_never_500() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let missing = app.call(&admin, "pilot_verdict", &[]).await;
    assert_eq!(missing.status(), StatusCode::BAD_REQUEST);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["kind"], "bad_argument");
    assert_eq!(
        body["error"],
        "pilot_id: missing (this server function needs it)"
    );
    for (endpoint, form) in [
        ("pilot_verdict", vec![("pilot_id", "seven")]),
        ("get_pilot", vec![("id", "")]),
        ("revoke_api_token", vec![("id", "1.5")]),
        (
            "create_pilot",
            vec![("organisation_id", "x"), ("name", "n")],
        ),
    ] {
        let response = app.call(&admin, endpoint, &form).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{endpoint}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["kind"], "bad_argument", "{endpoint}");
        assert!(body["error"].is_string(), "{endpoint}");
    }
    // Anonymous callers with bad arguments get the same 400 (decoding comes first), not 500.
    let anonymous = app.call(&client(), "get_pilot", &[("id", "x")]).await;
    assert_eq!(anonymous.status(), StatusCode::BAD_REQUEST);
}

/// A vLLM start-up log of about `bytes` bytes: the lines the calibration reads, then noise.
fn startup_log(bytes: usize) -> String {
    let mut log = String::from(
        "INFO 05-01 10:00:00 [loader.py:458] Model loading took 14.25 GiB and 9.8 seconds\n\
         INFO 05-01 10:00:05 [gpu_worker.py:227] Available KV cache memory: 20.5 GiB\n\
         INFO 05-01 10:00:05 [kv_cache_utils.py:716] GPU KV cache size: 345,000 tokens\n\
         INFO 05-01 10:00:05 [kv_cache_utils.py:720] Maximum concurrency for 8,192 tokens per request: 42.1x\n",
    );
    let noise = "INFO 05-01 10:00:06 [metrics.py:1] Avg prompt throughput: 0.0 tokens/s, (idle)\n";
    while log.len() + noise.len() <= bytes {
        log.push_str(noise);
    }
    log
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_4_mib_start_up_log_is_accepted_while_other_functions_keep_the_small_limit() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap().to_string();
    let log = startup_log(4 * 1024 * 1024 - 1024);
    assert!(log.len() > 4_000_000);
    let response = app
        .call(
            &admin,
            "add_startup_log",
            &[
                ("pilot_id", &pilot),
                ("log_text", &log),
                ("model", "llama-3.1-8b"),
                ("weights", "bf16"),
                ("kv_dtype", "16bit"),
                ("gpu", "h100-sxm"),
                ("tp", "1"),
                ("context", "8192"),
            ],
        )
        .await;
    let status = response.status();
    assert!(
        status.is_success(),
        "{status}: {}",
        response.text().await.unwrap()
    );
    // The same 4 MiB anywhere else is refused: the server answers 413 from the declared length
    // without reading the body, then closes the connection. Whether the client reads that
    // answer or first fails to write the rest of its body (broken pipe, reset) is a race of the
    // two sockets, not of the server; either way the function must not have run. It goes
    // through a client of its own: the connection it was sent on is closed by the server, and a
    // client that kept it in its pool could send the next request on it and see that cut too.
    let oversized = app.admin().await;
    let refused = oversized
        .post(app.url("/api/create_api_token"))
        .form(&[("name", "too-big"), ("days", log.as_str())])
        .send()
        .await;
    match refused {
        Ok(response) => assert!(response.status().is_client_error(), "{}", response.status()),
        Err(error) => assert!(
            error.is_request() || error.is_body(),
            "the connection was cut while sending, nothing else: {error:?}"
        ),
    }
    let listed = app.call_ok(&admin, "list_api_tokens", &[]).await;
    assert!(
        !listed.to_string().contains("too-big"),
        "no token was made: {listed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_tokens_expire_and_die_with_a_password_change() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let issued = app
        .call_ok(&admin, "create_api_token", &[("name", "ci"), ("days", "7")])
        .await;
    let created = issued["token"]["created_ms"].as_i64().unwrap();
    let expires = issued["token"]["expires_ms"].as_i64().unwrap();
    assert_eq!(expires - created, 7 * 86_400_000);
    let default = app
        .call_ok(&admin, "create_api_token", &[("name", "default")])
        .await;
    let lifetime = default["token"]["expires_ms"].as_i64().unwrap()
        - default["token"]["created_ms"].as_i64().unwrap();
    assert_eq!(lifetime, 90 * 86_400_000);
    for days in ["0", "366", "ten"] {
        let response = app
            .call(&admin, "create_api_token", &[("name", "x"), ("days", days)])
            .await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{days}"
        );
    }
    let listed = app.call_ok(&admin, "list_api_tokens", &[]).await;
    assert!(listed[0]["expires_ms"].is_i64());

    let secret = issued["secret"].as_str().unwrap();
    let api = reqwest::Client::new();
    let call = |secret: String| {
        let api = api.clone();
        let url = app.url("/api/v1/pilots");
        async move {
            api.get(url)
                .bearer_auth(secret)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(call(secret.to_string()).await, StatusCode::OK);
    let id = issued["token"]["id"].as_i64().unwrap();
    app.store
        .set_api_token_expiry(id, desk::store::now_ms() - 1)
        .await
        .unwrap();
    assert_eq!(call(secret.to_string()).await, StatusCode::UNAUTHORIZED);

    let other = default["secret"].as_str().unwrap().to_string();
    assert_eq!(call(other.clone()).await, StatusCode::OK);
    let new_password = "another long passphrase";
    app.call_ok(
        &admin,
        "change_password",
        &[
            ("current_password", &app.admin_password),
            ("new_password", new_password),
            ("confirm_password", new_password),
        ],
    )
    .await;
    assert_eq!(
        call(other).await,
        StatusCode::UNAUTHORIZED,
        "a password change revokes tokens"
    );
    assert_eq!(
        app.call_ok(&admin, "list_api_tokens", &[]).await,
        serde_json::json!([])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_password_or_a_disabled_account_revokes_the_users_tokens() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let staff = app.staff_organisation().await;
    let ada = app.user(&admin, "ada@vendor.io", "assessor", staff).await;
    let bob = app.user(&admin, "bob@vendor.io", "assessor", staff).await;
    let ada_token = app.api_token(&ada).await;
    let bob_token = app.api_token(&bob).await;
    let ids: Vec<i64> = app
        .store
        .list_users()
        .await
        .unwrap()
        .iter()
        .filter(|u| u.email.starts_with("ada@") || u.email.starts_with("bob@"))
        .map(|u| u.id)
        .collect();
    let api = reqwest::Client::new();
    let status = |token: &str| api.get(app.url("/api/v1/pilots")).bearer_auth(token).send();
    assert_eq!(status(&ada_token).await.unwrap().status(), StatusCode::OK);
    app.call_ok(
        &admin,
        "reset_password",
        &[("user_id", &ids[0].to_string())],
    )
    .await;
    app.call_ok(
        &admin,
        "set_user_disabled",
        &[("user_id", &ids[1].to_string()), ("disabled", "true")],
    )
    .await;
    app.call_ok(
        &admin,
        "set_user_disabled",
        &[("user_id", &ids[1].to_string()), ("disabled", "false")],
    )
    .await;
    for token in [&ada_token, &bob_token] {
        assert_eq!(
            status(token).await.unwrap().status(),
            StatusCode::UNAUTHORIZED
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_must_come_from_the_configured_public_url() {
    let app = spawn_app_with(|config| {
        config.public_origin = Some("https://pilots.example.com".into());
    })
    .await;
    let admin = app.admin().await;
    let post = |origin: &str| {
        admin
            .post(app.url("/api/list_pilots"))
            .header("origin", origin)
            .send()
    };
    assert_eq!(
        post("https://pilots.example.com").await.unwrap().status(),
        StatusCode::OK
    );
    // The raw Host (what the proxy talks to) is no longer this site's origin.
    assert_eq!(
        post(&app.base).await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post("https://pilots.example.com.evil.example")
            .await
            .unwrap()
            .status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post("http://pilots.example.com").await.unwrap().status(),
        StatusCode::FORBIDDEN,
        "the scheme is part of the origin"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_forwarded_host_is_this_site() {
    let plain = spawn_app().await;
    let trusting = spawn_app_with(|config| config.trust_proxy = true).await;
    for (app, expected) in [(&plain, StatusCode::FORBIDDEN), (&trusting, StatusCode::OK)] {
        let admin = app.admin().await;
        let response = admin
            .post(app.url("/api/list_pilots"))
            .header("origin", "https://pilots.example.com")
            .header("x-forwarded-host", "pilots.example.com")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), expected);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printing_a_report_reaches_no_network_not_even_loopback() {
    let Some(chromium) = desk::report::pdf::find_chromium() else {
        eprintln!("skipped: no Chromium on this machine");
        return;
    };
    // A listener on loopback that records whether anything connects.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (touched, mut touched_rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((_, peer)) = listener.accept().await {
            let _ = touched.send(peer);
        }
    });
    let html = format!(
        "<!DOCTYPE html><html><head><title>t</title>\
         <link rel=stylesheet href=\"http://127.0.0.1:{port}/style.css\">\
         <script src=\"http://127.0.0.1:{port}/script.js\"></script>\
         <script>fetch('http://127.0.0.1:{port}/fetch');</script></head>\
         <body><h1>Report</h1><p id=p>static text</p>\
         <script>document.getElementById('p').textContent='SCRIPT RAN';</script>\
         <img src=\"http://127.0.0.1:{port}/img.png\">\
         <img src=\"http://localhost:{port}/img2.png\"><iframe src=\"file:///etc/passwd\"></iframe>\
         <object data=\"http://[::1]:{port}/o\"></object></body></html>"
    );
    let scratch = tempfile::tempdir().unwrap();
    let pdf = desk::report::pdf::html_to_pdf(&chromium, scratch.path(), &html)
        .await
        .expect("the PDF is still produced");
    assert!(pdf.starts_with(b"%PDF"));
    // What the PDF says, when pdftotext is here: the static text, no script's, no local file.
    let path = scratch.path().join("out.pdf");
    std::fs::write(&path, &pdf).unwrap();
    if let Ok(text) = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
    {
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains("static text"), "{text}");
        assert!(!text.contains("SCRIPT RAN"), "a script ran: {text}");
        assert!(!text.contains("root:"), "a local file was printed: {text}");
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        touched_rx.try_recv().is_err(),
        "Chromium connected to the local listener"
    );
}

/// Every response names its request (`X-Request-Id`): the caller's id when it sent one, a new
/// one otherwise, on pages, the API, refusals and static files alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_request_id() {
    let app = crate::helpers::spawn_app().await;
    let anonymous = crate::helpers::client();
    for path in ["/login", "/api/v1/pilots", "/health", "/pilots/1"] {
        let response = anonymous
            .get(app.url(path))
            .header("x-request-id", "support-ticket-4711")
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.headers()["x-request-id"],
            "support-ticket-4711",
            "{path}"
        );
        let fresh = anonymous.get(app.url(path)).send().await.unwrap();
        let id = fresh.headers()["x-request-id"].to_str().unwrap();
        assert_eq!(id.len(), 32, "{path}: {id}");
    }
}

/// `/pilots/2/`, `/sizing/`, `/account/` answered 500 for every signed-in role: a trailing slash
/// now redirects (308) to the page's one address, query kept, and the page answers there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trailing_slashes_redirect_to_the_page() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.expect("demo pilot");
    for (asked, canonical) in [
        (format!("/pilots/{pilot}/"), format!("/pilots/{pilot}")),
        (
            "/sizing/?model=qwen2.5-7b".to_string(),
            "/sizing?model=qwen2.5-7b".to_string(),
        ),
        ("/account/".to_string(), "/account".to_string()),
    ] {
        let response = admin.get(app.url(&asked)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT, "{asked}");
        assert_eq!(response.headers()["location"], canonical.as_str());
        let page = admin.get(app.url(&canonical)).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK, "{canonical}");
    }
}

/// Signed-in pages and JSON are never stored by a proxy or kept for the back button; the
/// bundle keeps its own long-lived caching.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signed_in_pages_and_json_are_not_cached() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.expect("demo pilot");
    let token = app.api_token(&admin).await;
    let page = admin
        .get(app.url(&format!("/pilots/{pilot}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.headers()["cache-control"], "no-store");
    let json = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/verdict")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), StatusCode::OK);
    assert_eq!(json.headers()["cache-control"], "no-store");
    let refused = client()
        .get(app.url("/api/v1/pilots"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.headers()["cache-control"], "no-store");
}

/// An upload that declares more than the limit is refused at once with 413 and the documented
/// JSON, before its body is read (here the body never comes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_declared_over_the_limit_is_refused_before_its_body() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let pilot = app.demo_pilot.expect("demo pilot");
    let token = app.api_token(&app.admin().await).await;
    let address = app.base.trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/v1/pilots/{pilot}/evidence HTTP/1.1\r\nHost: {address}\r\n\
         Authorization: Bearer {token}\r\nContent-Type: multipart/form-data; boundary=x\r\n\
         Content-Length: 1073741824\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 4096];
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut answer))
        .await
        .expect("answered without waiting for the body")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..read]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"kind\":\"too_large\""), "{answer}");
}

/// Issue #38: some documents of impatient navigations (a new page before the last finished,
/// reloads) left with the fallback's plain policy, so their stylesheet, scripts and wasm were
/// blocked. Two signed-in users (staff and customer) load every page at once, three times
/// over, with every other request given up after a few milliseconds: each document that
/// arrives carries the page policy, and that policy's nonce is the one its scripts carry.
///
/// The runtime is shut down in the background at the end: once in the whole suite (2026-12-06)
/// a worker stayed blocked for good in a render this test had given up on (a reactive owner's
/// lock taken again while it was dropped, inside Leptos), and dropping the runtime waited on
/// it forever after every assertion had passed.
#[test]
fn pages_loaded_impatiently_by_two_users_all_carry_the_nonce_of_their_scripts() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(impatient_pages());
    runtime.shutdown_background();
}

async fn impatient_pages() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let demo_customer = app
        .store
        .organisation_by_name("Demo Customer")
        .await
        .unwrap()
        .unwrap()
        .0;
    let customer = app
        .user(&admin, "impatient@demo.example", "customer", demo_customer)
        .await;
    let pilot_pages = [
        "",
        "/plan",
        "/plan/history",
        "/evidence",
        "/load-tests",
        "/traffic",
        "/quality",
        "/report",
        "/calibration",
    ];
    let mut paths: Vec<String> = ["/", "/account", "/sizing", "/no/such/page"]
        .iter()
        .map(|p| p.to_string())
        .collect();
    paths.extend(
        pilot_pages
            .iter()
            .map(|tail| format!("/pilots/{pilot}{tail}")),
    );
    let staff_only = ["/admin/users", "/admin/gpus", "/pilots/new"];

    let mut requests = tokio::task::JoinSet::new();
    for round in 0..3u64 {
        for (who, user) in [("staff", &admin), ("customer", &customer)] {
            let extra: &[&str] = if who == "staff" { &staff_only } else { &[] };
            let all = paths
                .iter()
                .map(String::as_str)
                .chain(extra.iter().copied());
            for (index, path) in all.enumerate() {
                let request = user.get(app.url(path)).send();
                let path = format!("{who} {path}");
                // Every other request is abandoned after 1–4 ms, as a browser abandons a page
                // when its user clicks on before it arrived.
                let give_up_ms = (index as u64 + round)
                    .is_multiple_of(2)
                    .then_some(1 + (index as u64 % 4));
                requests.spawn(async move {
                    match give_up_ms {
                        Some(ms) => {
                            let _ =
                                tokio::time::timeout(std::time::Duration::from_millis(ms), request)
                                    .await;
                            None
                        }
                        None => {
                            let response = request.await.expect("page answered");
                            let policy = response
                                .headers()
                                .get("content-security-policy")
                                .map(|v| v.to_str().unwrap().to_string())
                                .unwrap_or_default();
                            Some((path, policy, response.text().await.unwrap()))
                        }
                    }
                });
            }
        }
    }
    let mut documents = 0;
    while let Some(result) = requests.join_next().await {
        let Some((path, policy, page)) = result.unwrap() else {
            continue;
        };
        documents += 1;
        assert!(
            policy.starts_with("default-src 'self'; script-src 'self' 'nonce-"),
            "{path} left without the page policy: {policy}"
        );
        let nonces = script_nonces(&page);
        assert!(!nonces.is_empty(), "{path} has no nonced inline script");
        for nonce in &nonces {
            assert!(
                policy.contains(&format!("'nonce-{nonce}'")),
                "{path}: script nonce {nonce} is not in {policy}"
            );
        }
    }
    assert!(documents >= 30, "only {documents} documents arrived");
}

/// No text from the address reaches a page (issue #38: `?error=` put any sentence into the
/// evidence page's error box). A crafted `?error=`, `?discarded=` or non-numeric `?stored=`
/// shows nothing, and a notice token shows its message only to the user it was written for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_text_from_the_address_reaches_the_evidence_page() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap();
    let phishing = "Your session expired, sign in again at evil.example";
    let encoded = phishing.replace(' ', "%20");
    for query in [
        format!("error={encoded}"),
        format!("discarded={encoded}"),
        format!("stored={encoded}"),
        format!("notice={encoded}"),
    ] {
        let page = app
            .page(&admin, &format!("/pilots/{pilot}/evidence?{query}"))
            .await;
        assert!(!page.contains("evil.example"), "{query} reached the page");
    }

    // A real notice: a refused upload's message, kept for the admin who posted it.
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(b"not a known format".to_vec()).file_name("odd.txt"),
    );
    let response = admin
        .post(app.url(&format!("/pilots/{pilot}/evidence")))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("?notice="), "{location}");
    let page = app.page(&admin, &location).await;
    assert!(page.contains("odd.txt"), "the uploader sees the refusal");
    let org = app.staff_organisation().await;
    let other = app
        .user(&admin, "assessor2@pilotdesk.local", "assessor", org)
        .await;
    let theirs = app.page(&other, &location).await;
    assert!(!theirs.contains("odd.txt"), "another user sees the notice");
}
