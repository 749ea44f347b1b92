//! Server-rendered pages, the request guard and response headers.

use crate::helpers::{client, spawn_app};
use reqwest::StatusCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_health_check_names_the_database() {
    let app = spawn_app().await;
    let response = client().get(app.url("/health")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    let expected = if std::env::var("TEST_DATABASE_URL").is_ok_and(|u| !u.is_empty()) {
        "postgres"
    } else {
        "sqlite"
    };
    assert_eq!(body["database"], expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_database_runs_in_wal_mode() {
    let app = spawn_app().await;
    match app.store.sqlite_journal_mode().await.unwrap() {
        Some(mode) => assert_eq!(mode, "wal"),
        None => assert_eq!(app.store.backend(), desk::store::Backend::Postgres),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_visitors_are_sent_to_sign_in_with_the_page_they_wanted() {
    let app = spawn_app().await;
    let response = client()
        .get(app.url("/pilots/7?tab=plan"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()["location"],
        "/login?next=/pilots/7%3Ftab%3Dplan"
    );
    let login = client().get(app.url("/login")).send().await.unwrap();
    assert_eq!(login.status(), StatusCode::OK);
    let html = login.text().await.unwrap();
    assert!(html.contains("Sign in"));
    assert!(html.contains("/pkg/pilot-desk.wasm") || html.contains("/pkg/pilot-desk.js"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signed_in_users_see_the_pilot_list_and_404_for_unknown_pages() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let home = admin.get(app.url("/")).send().await.unwrap();
    assert_eq!(home.status(), StatusCode::OK);
    let html = home.text().await.unwrap();
    assert!(
        html.contains("Support assistant: Qwen2.5-7B on 4× V100"),
        "demo pilot listed"
    );
    assert!(html.contains("4 × Tesla V100-SXM2-16GB"));
    let login = admin.get(app.url("/login")).send().await.unwrap();
    assert_eq!(login.status(), StatusCode::SEE_OTHER);
    for path in ["/no/such/page", "/pilots/999999", "/pilots/not-a-number"] {
        let response = admin.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        // Every 404 keeps the way back: the main navigation and a link to the pilots.
        let html = response.text().await.unwrap();
        assert!(
            html.contains("aria-label=\"Main\""),
            "{path}: no navigation"
        );
        assert!(html.contains("href=\"/sizing\""), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_supplied_text_is_escaped_in_pages() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "<b>Acme</b>").await;
    let id = app.pilot(&admin, acme, "<script>alert(1)</script>").await;
    let breakout = app
        .pilot(&admin, acme, "</title><script>alert(2)</script>")
        .await;
    let html = admin
        .get(app.url(&format!("/pilots/{breakout}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !html.contains("<script>alert(2)"),
        "the page title let markup through"
    );
    for path in ["/".to_string(), format!("/pilots/{id}")] {
        let html = admin
            .get(app.url(&path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            !html.contains("<script>alert(1)</script>"),
            "{path} not escaped"
        );
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{path}"
        );
        assert!(!html.contains("<b>Acme</b>"), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_site_writes_are_refused_and_security_headers_are_set() {
    let app = spawn_app().await;
    let response = client()
        .post(app.url("/api/login"))
        .header("Origin", "https://evil.example")
        .form(&[
            ("email", crate::helpers::ADMIN),
            ("password", app.admin_password.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let same_site = client()
        .post(app.url("/api/login"))
        .header("Origin", app.base.clone())
        .form(&[
            ("email", crate::helpers::ADMIN),
            ("password", app.admin_password.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert!(same_site.status().is_success(), "{}", same_site.status());
    let page = client().get(app.url("/login")).send().await.unwrap();
    assert_eq!(page.headers()["x-content-type-options"], "nosniff");
    assert_eq!(page.headers()["x-frame-options"], "DENY");
}

/// The read-only pages are server-rendered fragments (app/src/components/fragment.rs): the
/// first load carries the markup in the page, and an in-app navigation asks the page's
/// `page_*` server function for the same markup. Both must be one and the same, also when the
/// fragment contains what users wrote (escaped once, by the server's renderer), and the page's
/// wasm must not be needed to see it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fragment_page_carries_the_markup_its_server_function_answers() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let pilot = app.demo_pilot.unwrap().to_string();
    for (path, endpoint, args) in [
        ("/".to_string(), "page_pilots", vec![]),
        (
            format!("/pilots/{pilot}"),
            "page_pilot",
            vec![("pilot_id", pilot.as_str())],
        ),
        (
            format!("/pilots/{pilot}/load-tests?p=p99"),
            "page_load_tests",
            vec![("pilot_id", pilot.as_str()), ("percentile", "p99")],
        ),
    ] {
        let page = admin
            .get(app.url(&path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let fragment = app.call_ok(&admin, endpoint, &args).await;
        let html = fragment["html"].as_str().unwrap();
        assert!(html.len() > 500, "{endpoint}: {html}");
        // The page embeds the fragment verbatim inside its wrapper.
        assert!(
            page.contains(&format!("<div class=\"fragment\">{html}</div>")),
            "{path} does not carry what {endpoint} answers"
        );
        assert!(page.contains(&format!(
            "<title>{} · Pilot Desk</title>",
            fragment["title"].as_str().unwrap()
        )));
    }
    // The pilot page's fragment is the page: name, verdict, plan card.
    let fragment = app
        .call_ok(&admin, "page_pilot", &[("pilot_id", &pilot)])
        .await;
    let html = fragment["html"].as_str().unwrap();
    assert!(html.contains("id=\"verdict\""));
    assert!(html.contains("Pass marks missed: 0 of 2 pass marks met, 1 missed, 1 not comparable."));
    assert!(html.contains("Pilot plan"));
    assert_eq!(
        fragment["title"],
        "Support assistant: Qwen2.5-7B on 4× V100"
    );
}

/// Generating the app's routes suppresses resource loading in the whole process for a moment
/// (leptos_router's global `SuppressResourceLoad`); a page whose resource was first polled in
/// that moment, in any server of the process, waited forever (leptos #4773: the test suite's
/// occasional hanging page, issue #12). So the routes are generated once per process, before
/// any server serves, however many servers start: here two more, beside the other tests'.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_routes_are_generated_once_per_process_however_many_servers_start() {
    let first = spawn_app().await;
    let second = spawn_app().await;
    assert_eq!(server::route_generations(), 1);
    for app in [&first, &second] {
        let admin = app.admin().await;
        let page = admin.get(app.url("/")).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK);
        assert!(page.text().await.unwrap().contains("Support assistant"));
    }
    assert_eq!(server::route_generations(), 1);
}

/// The pilot page's overview is kept per state of the pilot (issue #38: made once, not per
/// view); every change of its inputs is a new state, so a view never shows a stale one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kept_pilot_overview_follows_every_change_of_its_inputs() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let pilot = app.demo_pilot.unwrap();
    let overview = || async {
        app.call_ok(
            &admin,
            "pilot_overview",
            &[("pilot_id", &pilot.to_string())],
        )
        .await
    };
    let before = overview().await;
    let again = overview().await;
    // (The recommendation may move from "computing" to its plan between two views.)
    for part in ["pilot", "verdict", "plan", "decision"] {
        assert_eq!(again[part], before[part], "a second view's {part}");
    }

    let files: serde_json::Value = client()
        .get(app.url(&format!("/api/v1/pilots/{pilot}/evidence")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let load_test = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "load_test")
        .expect("the demo has a load test")["id"]
        .clone();
    let change = |action: &'static str| {
        let url = app.url(&format!(
            "/api/v1/pilots/{pilot}/evidence/{load_test}/{action}"
        ));
        let token = token.clone();
        async move {
            let response = client()
                .post(url)
                .bearer_auth(token)
                .json(&serde_json::json!({"reason": "checking the kept overview"}))
                .send()
                .await
                .unwrap();
            assert!(response.status().is_success(), "{action}");
        }
    };
    change("withdraw").await;
    let withdrawn = overview().await;
    assert_ne!(
        withdrawn["verdict"]["figures"], before["verdict"]["figures"],
        "the withdrawn load test still grades"
    );
    change("restore").await;
    assert_eq!(
        overview().await["verdict"]["figures"],
        before["verdict"]["figures"]
    );

    // The pilot row is part of the state: a new name shows at once.
    let row = app.store.pilot(pilot).await.unwrap().unwrap();
    let status = serde_json::to_value(row.status).unwrap();
    app.call_ok(
        &admin,
        "update_pilot",
        &[
            ("id", &pilot.to_string()),
            ("name", "Renamed while kept"),
            ("description", &row.description),
            ("status", status.as_str().unwrap()),
            ("model", &row.model),
            ("gpu_type", &row.gpu_type),
            ("gpu_count", &row.gpu_count.to_string()),
            ("engine", &row.engine),
            ("engine_version", &row.engine_version),
        ],
    )
    .await;
    let after = overview().await;
    assert_eq!(after["pilot"]["pilot"]["name"], "Renamed while kept");
    assert_eq!(after["verdict"]["pilot"]["name"], "Renamed while kept");
}
