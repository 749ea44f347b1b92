//! Signing in and out, sessions, sign-in back-off, passwords, accounts.

use crate::helpers::{ADMIN, PASSWORD, TestApp, client, spawn_app, spawn_app_with};
use desk::accounts::create_account_in_named_organisation;
use desk::throttle::{BackoffPolicy, LoginBackoff};
use engine::account::Role;
use reqwest::{Client, Response, StatusCode};
use serde_json::Value;
use std::time::Instant;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_start_creates_an_admin_with_an_argon2id_hash_and_the_demo_pilot() {
    let app = spawn_app().await;
    let credentials = app.store.credentials(ADMIN).await.unwrap().unwrap();
    assert_eq!(credentials.user.role, Role::Admin);
    assert!(credentials.password_hash.starts_with("$argon2id$"));
    assert_eq!(app.admin_password.len(), 20);
    let demo = app
        .store
        .pilot(app.demo_pilot.unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(demo.model, "RedHatAI/Qwen2.5-7B-Instruct");
    assert_eq!(demo.gpu_count, 4);
    assert_eq!(demo.organisation_name, "Demo Customer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_sets_an_http_only_same_site_session_cookie_and_whoami_knows_the_user() {
    let app = spawn_app().await;
    let browser = client();
    let response = app
        .call(
            &browser,
            "login",
            &[
                ("email", " Admin@PilotDesk.local "),
                ("password", &app.admin_password),
            ],
        )
        .await;
    assert!(response.status().is_success(), "{}", response.status());
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("pilotdesk_session="))
        .expect("session cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let me = app.call_ok(&browser, "whoami", &[]).await;
    assert_eq!(me["email"], ADMIN);
    assert_eq!(me["role"], "admin");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_is_refused_with_401_and_no_session() {
    let app = spawn_app().await;
    let browser = client();
    let response = app
        .call(
            &browser,
            "login",
            &[("email", ADMIN), ("password", "not the password")],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.call_ok(&browser, "whoami", &[]).await, Value::Null);
}

/// A back-off for tests: `free` failures, then 60 s, 120 s, 240 s … (long enough that a slow,
/// busy test machine never outlasts a wait by accident; the tests move failures back in time
/// instead of sleeping).
fn test_backoff(free: i64, client_free: i64) -> LoginBackoff {
    let policy = |free_failures| BackoffPolicy {
        free_failures,
        base_delay_ms: 60_000,
        max_delay_ms: 900_000,
        window_ms: 3_600_000,
    };
    LoginBackoff {
        per_account: policy(free),
        per_client: policy(client_free),
    }
}

/// Moves every recorded sign-in failure `ms` into the past (as if time had passed).
async fn age_failures(app: &TestApp, ms: i64) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let mut db = sqlx::AnyConnection::connect(&app.cli_database_url())
        .await
        .unwrap();
    sqlx::query("UPDATE login_failures SET at_ms = at_ms - $1")
        .bind(ms)
        .execute(&mut db)
        .await
        .unwrap();
}

fn retry_after(response: &Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

async fn login_as(app: &TestApp, browser: &Client, email: &str, password: &str) -> Response {
    app.call(
        browser,
        "login",
        &[("email", email), ("password", password)],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_parallel_wrong_guesses_get_exactly_five_password_checks() {
    let app = spawn_app().await;
    let started = Instant::now();
    let mut guesses = tokio::task::JoinSet::new();
    for n in 0..40 {
        let url = app.url("/api/login");
        guesses.spawn(async move {
            let password = format!("wrong guess number {n}");
            client()
                .post(url)
                .form(&[("email", ADMIN), ("password", &password)])
                .send()
                .await
                .unwrap()
                .status()
        });
    }
    let statuses = guesses.join_all().await;
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    println!(
        "40 parallel guesses: {checked} checked, {refused} refused in {} ms",
        started.elapsed().as_millis()
    );
    assert_eq!(checked, 5, "{statuses:?}");
    assert_eq!(refused, 35, "{statuses:?}");
    assert_eq!(app.store.count_login_failures(ADMIN).await.unwrap(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_back_off_ever_longer_and_the_owner_signs_in_once_the_wait_is_over() {
    let app = spawn_app_with(|config| config.login_backoff = test_backoff(2, 100)).await;
    let browser = client();
    for _ in 0..2 {
        let response = login_as(&app, &browser, ADMIN, "guess guess guess").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    // After the free failures: wait 60 s, even with the right password (it is not checked).
    let response = login_as(&app, &browser, ADMIN, &app.admin_password).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = retry_after(&response);
    assert!((50..=60).contains(&wait), "{wait}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["kind"], "too_many_attempts");
    assert_eq!(body["retry_after_s"], wait);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Too many failed sign-in attempts. Try again in ")
    );
    age_failures(&app, 61_000).await;
    let response = login_as(&app, &browser, ADMIN, "guess guess guess").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "checked again");
    // One more failure: the wait doubles to 120 s.
    let response = login_as(&app, &browser, ADMIN, &app.admin_password).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = retry_after(&response);
    assert!((110..=120).contains(&wait), "{wait}");
    // Refused attempts leave no trace, so they never lengthen the owner's wait.
    assert_eq!(app.store.count_login_failures(ADMIN).await.unwrap(), 3);
    age_failures(&app, 121_000).await;
    app.login(&browser, ADMIN, &app.admin_password).await;
    assert_eq!(app.call_ok(&browser, "whoami", &[]).await["email"], ADMIN);
    assert_eq!(app.store.count_login_failures(ADMIN).await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_guessing_many_addresses_backs_off_too() {
    let app = spawn_app_with(|config| config.login_backoff = test_backoff(100, 3)).await;
    let browser = client();
    for n in 0..3 {
        let response = login_as(&app, &browser, &format!("user{n}@x.io"), "a wrong password").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let response = login_as(&app, &browser, "someone.else@x.io", "a wrong password").await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_sign_in_next_only_ever_leads_to_a_path_on_this_site() {
    let app = spawn_app().await;
    for (next, expected) in [
        ("/pilots/1", "/pilots/1"),
        ("//evil.example", "/"),
        ("/\t/evil.example", "/"),
        ("/\\evil.example", "/"),
        ("\\\\evil.example", "/"),
        ("/%09/evil.example", "/"),
        ("/%2F%2Fevil.example", "/"),
        ("/%5C%5Cevil.example", "/"),
        ("https://evil.example/", "/"),
        ("/\r\nLocation: https://evil.example", "/"),
    ] {
        let browser = client();
        let response = app
            .call(
                &browser,
                "login",
                &[
                    ("email", ADMIN),
                    ("password", &app.admin_password),
                    ("next", next),
                ],
            )
            .await;
        let location = response
            .headers()
            .get("location")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(location.as_deref(), Some(expected), "next = {next:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logout_ends_the_session_on_the_server() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.call_ok(&admin, "logout", &[]).await;
    assert_eq!(app.call_ok(&admin, "whoami", &[]).await, Value::Null);
    let response = app.call(&admin, "list_pilots", &[]).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changing_the_password_signs_out_other_sessions_and_keeps_this_one() {
    let app = spawn_app().await;
    let here = app.admin().await;
    let elsewhere = app.admin().await;
    let new_password = "a brand new passphrase";
    let response = app
        .call(
            &here,
            "change_password",
            &[
                ("current_password", "wrong"),
                ("new_password", new_password),
                ("confirm_password", new_password),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let response = app
        .call(
            &here,
            "change_password",
            &[
                ("current_password", &app.admin_password),
                ("new_password", "short"),
                ("confirm_password", "short"),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    app.call_ok(
        &here,
        "change_password",
        &[
            ("current_password", &app.admin_password),
            ("new_password", new_password),
            ("confirm_password", new_password),
        ],
    )
    .await;
    assert_eq!(app.call_ok(&here, "whoami", &[]).await["email"], ADMIN);
    assert_eq!(app.call_ok(&elsewhere, "whoami", &[]).await, Value::Null);
    let fresh = client();
    let old = app
        .call(
            &fresh,
            "login",
            &[("email", ADMIN), ("password", &app.admin_password)],
        )
        .await;
    assert_eq!(old.status(), StatusCode::UNAUTHORIZED);
    app.login(&fresh, ADMIN, new_password).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_creates_organisations_and_users_and_roles_must_fit_the_organisation() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let duplicate = app
        .call(&admin, "create_organisation", &[("name", "Acme Corp")])
        .await;
    assert_eq!(duplicate.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(duplicate.text().await.unwrap().contains("already exists"));

    let acme_s = acme.to_string();
    let staff_in_customer_org = app
        .call(
            &admin,
            "create_user",
            &[
                ("email", "a@acme.io"),
                ("name", ""),
                ("role", "assessor"),
                ("organisation_id", &acme_s),
                ("password", ""),
            ],
        )
        .await;
    assert_eq!(
        staff_in_customer_org.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let issued = app
        .call_ok(
            &admin,
            "create_user",
            &[
                ("email", "Carol@Acme.io"),
                ("name", "Carol"),
                ("role", "customer"),
                ("organisation_id", &acme_s),
                ("password", ""),
            ],
        )
        .await;
    assert_eq!(issued["user"]["email"], "carol@acme.io");
    let generated = issued["generated_password"]
        .as_str()
        .expect("generated password")
        .to_string();
    let carol = client();
    app.login(&carol, "carol@acme.io", &generated).await;
    assert_eq!(app.call_ok(&carol, "whoami", &[]).await["role"], "customer");

    let duplicate_user = app
        .call(
            &admin,
            "create_user",
            &[
                ("email", "carol@acme.io"),
                ("name", ""),
                ("role", "customer"),
                ("organisation_id", &acme_s),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(duplicate_user.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let users = app.call_ok(&admin, "list_users", &[]).await;
    assert_eq!(users.as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disabled_account_loses_its_sessions_and_cannot_sign_in() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let carol_id = app.call_ok(&carol, "whoami", &[]).await["id"]
        .as_i64()
        .unwrap()
        .to_string();
    app.call_ok(
        &admin,
        "set_user_disabled",
        &[("user_id", &carol_id), ("disabled", "true")],
    )
    .await;
    assert_eq!(app.call_ok(&carol, "whoami", &[]).await, Value::Null);
    let again = app
        .call(
            &client(),
            "login",
            &[("email", "carol@acme.io"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(again.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.text().await.unwrap().contains("disabled"));
    let admin_id = app.call_ok(&admin, "whoami", &[]).await["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let own = app
        .call(
            &admin,
            "set_user_disabled",
            &[("user_id", &admin_id), ("disabled", "true")],
        )
        .await;
    assert_eq!(own.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_password_issues_a_new_one_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let carol_id = app.call_ok(&carol, "whoami", &[]).await["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let issued = app
        .call_ok(&admin, "reset_password", &[("user_id", &carol_id)])
        .await;
    let new_password = issued["generated_password"].as_str().unwrap();
    assert_eq!(app.call_ok(&carol, "whoami", &[]).await, Value::Null);
    let old = app
        .call(
            &client(),
            "login",
            &[("email", "carol@acme.io"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(old.status(), StatusCode::UNAUTHORIZED);
    app.login(&client(), "carol@acme.io", new_password).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_path_creates_the_organisation_when_missing() {
    let app = spawn_app().await;
    let issued = create_account_in_named_organisation(
        &app.store,
        "dan@globex.io",
        "Dan",
        Role::Customer,
        "Globex",
        None,
    )
    .await
    .unwrap();
    assert_eq!(issued.user.organisation_name, "Globex");
    let password = issued.generated_password.unwrap();
    app.login(&client(), "dan@globex.io", &password).await;

    let wrong_kind = create_account_in_named_organisation(
        &app.store,
        "eve@globex.io",
        "",
        Role::Sales,
        "Globex",
        Some(PASSWORD.into()),
    )
    .await;
    assert!(wrong_kind.unwrap_err().to_string().contains("staff"));
    let weak = create_account_in_named_organisation(
        &app.store,
        "fay@globex.io",
        "",
        Role::Customer,
        "Globex",
        Some("short".into()),
    )
    .await;
    assert!(weak.unwrap_err().to_string().contains("password"));
}
