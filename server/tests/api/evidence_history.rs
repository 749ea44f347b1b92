//! Evidence that can be corrected (#21): a file withdrawn with a reason grades nothing (the
//! demand profile, operating points, pages and report follow at once), stays listed with its
//! history for everyone who can see the pilot, and can be restored; an admin archives a pilot
//! (read-only) or deletes it with its raw files. Through the REST API, the evidence page's
//! forms and `server evidence`.

use crate::cli::server_binary;
use crate::helpers::{TestApp, client, spawn_app};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A gateway log of `n` successful requests, one a minute from 09:00 UTC on 2 March 2026,
/// each 10 s long (`tag` keeps the files' contents apart).
fn gateway_log(tag: &str, n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"request_id": "{tag}{i}", "start_time": "2026-03-02T09:{i:02}:00Z", "end_time": "2026-03-02T09:{i:02}:10Z", "model": "qwen3-8b", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}}"#
            ) + "\n"
        })
        .collect::<String>()
        .into_bytes()
}

async fn upload(
    app: &TestApp,
    token: &str,
    pilot: i64,
    name: &str,
    bytes: Vec<u8>,
) -> (StatusCode, Value) {
    let response = app.upload_evidence(token, pilot, name, bytes, &[]).await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(app: &TestApp, token: &str, path: &str) -> (StatusCode, Value) {
    let response = client()
        .get(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
    let response = client()
        .post(app.url(path))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn requests_in_demand(app: &TestApp, token: &str, pilot: i64) -> Option<i64> {
    let (status, demand) = get(app, token, &format!("/api/v1/pilots/{pilot}/demand")).await;
    (status == StatusCode::OK).then(|| demand["requests"].as_i64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_withdrawn_file_grades_nothing_keeps_its_history_and_can_be_restored() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Withdrawal Corp").await;
    let pilot = app.pilot(&admin, org, "Corrections").await;
    let (status, first) = upload(&app, &token, pilot, "week1.jsonl", gateway_log("a", 3)).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, second) = upload(&app, &token, pilot, "week2.jsonl", gateway_log("b", 5)).await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    let (first, second) = (
        first["id"].as_i64().unwrap(),
        second["id"].as_i64().unwrap(),
    );
    assert_eq!(requests_in_demand(&app, &token, pilot).await, Some(8));

    let evidence = format!("/api/v1/pilots/{pilot}/evidence");
    let (status, register) = get(&app, &token, &evidence).await;
    assert_eq!(status, StatusCode::OK, "{register}");
    let files = register["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for file in files {
        assert_eq!(file["status"], "in_force");
        assert_eq!(file["kind"], "gateway_log");
        assert_eq!(file["history"][0]["action"], "uploaded");
        assert_eq!(file["history"][0]["by"], "admin@pilotdesk.local");
    }
    assert_eq!(files[1]["file_name"], "week2.jsonl");

    // Withdrawn: the combined demand profile is rebuilt without it, in the same step.
    let withdraw = format!("{evidence}/{second}/withdraw");
    let (status, entry) = post(
        &app,
        &token,
        &withdraw,
        json!({"reason": "wrong gateway: staging traffic"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{entry}");
    assert_eq!(entry["status"], "withdrawn");
    assert_eq!(entry["history"][1]["action"], "withdrawn");
    assert_eq!(
        entry["history"][1]["reason"],
        "wrong gateway: staging traffic"
    );
    assert_eq!(entry["history"][1]["by"], "admin@pilotdesk.local");
    assert_eq!(requests_in_demand(&app, &token, pilot).await, Some(3));
    let (status, again) = post(&app, &token, &withdraw, json!({"reason": "twice"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert!(
        again["error"]
            .as_str()
            .unwrap()
            .contains("already withdrawn"),
        "{again}"
    );
    let (status, blank) = post(
        &app,
        &token,
        &format!("{evidence}/{first}/withdraw"),
        json!({"reason": "  "}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{blank}");
    assert!(
        blank["error"].as_str().unwrap().starts_with("reason:"),
        "{blank}"
    );
    let (status, missing) = post(
        &app,
        &token,
        &format!("{evidence}/999999/withdraw"),
        json!({"reason": "x"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    let (status, bad_id) = post(
        &app,
        &token,
        &format!("{evidence}/abc/withdraw"),
        json!({"reason": "x"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{bad_id}");
    assert!(bad_id["error"].is_string());

    // The same file again is refused while it is withdrawn evidence: restore it instead.
    let (status, duplicate) = upload(&app, &token, pilot, "again.jsonl", gateway_log("b", 5)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{duplicate}");

    // The customer sees the history, cannot change it; another organisation sees nothing.
    let customer = app
        .user(&admin, "cara@withdrawal.example", "customer", org)
        .await;
    let customer_token = app.api_token(&customer).await;
    let (status, theirs) = get(&app, &customer_token, &evidence).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(theirs["files"][1]["status"], "withdrawn");
    assert_eq!(theirs["can_change"], false);
    let restore = format!("{evidence}/{second}/restore");
    let (status, _) = post(&app, &customer_token, &restore, json!({"reason": "mine"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let other_org = app.organisation(&admin, "Other Corp").await;
    let other = app
        .user(&admin, "olaf@other.example", "customer", other_org)
        .await;
    let other_token = app.api_token(&other).await;
    assert_eq!(
        get(&app, &other_token, &evidence).await.0,
        StatusCode::NOT_FOUND
    );
    let staff = app.staff_organisation().await;
    let sales = app
        .user(&admin, "sam@pilotdesk.local", "sales", staff)
        .await;
    let sales_token = app.api_token(&sales).await;
    assert_eq!(
        post(&app, &sales_token, &restore, json!({"reason": "x"}))
            .await
            .0,
        StatusCode::FORBIDDEN
    );

    // Pages still answer, and show the withdrawal; the report lists it with its reason.
    let page = app
        .page(&customer, &format!("/pilots/{pilot}/evidence"))
        .await;
    assert!(page.contains("Withdrawn"), "evidence page");
    assert!(page.contains("wrong gateway: staging traffic"));
    assert!(
        !page.contains("Withdraw…"),
        "customers get no withdraw form"
    );
    let staff_page = app.page(&admin, &format!("/pilots/{pilot}/evidence")).await;
    assert!(staff_page.contains(&format!("/pilots/{pilot}/evidence/{first}/withdraw")));
    assert!(staff_page.contains(&format!("/pilots/{pilot}/evidence/{second}/restore")));
    app.page(&customer, &format!("/pilots/{pilot}/traffic"))
        .await;
    let report = app
        .page(&admin, &format!("/pilots/{pilot}/report.html"))
        .await;
    assert!(
        report.contains("wrong gateway: staging traffic"),
        "report lists the withdrawal"
    );

    // Withdrawing the last log leaves no demand profile; restoring brings it back.
    let (status, _) = post(
        &app,
        &token,
        &format!("{evidence}/{first}/withdraw"),
        json!({"reason": "re-export pending"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(requests_in_demand(&app, &token, pilot).await, None);
    app.page(&customer, &format!("/pilots/{pilot}/traffic"))
        .await;
    app.page(&customer, &format!("/pilots/{pilot}")).await;
    let (status, entry) = post(
        &app,
        &token,
        &restore,
        json!({"reason": "was production after all"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{entry}");
    assert_eq!(entry["status"], "in_force");
    assert_eq!(entry["history"].as_array().unwrap().len(), 3);
    assert_eq!(entry["history"][2]["action"], "restored");
    assert_eq!(requests_in_demand(&app, &token, pilot).await, Some(5));
    let (status, _) = post(&app, &token, &restore, json!({"reason": "again"})).await;
    assert_eq!(status, StatusCode::CONFLICT);

    // The evidence page's form does the same for a signed-in browser.
    let response = admin
        .post(app.url(&format!("/pilots/{pilot}/evidence/{first}/restore")))
        .header("Origin", app.url(""))
        .form(&[("reason", "re-exported file checked")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(
        location,
        format!("/pilots/{pilot}/evidence?restored={first}")
    );
    assert_eq!(requests_in_demand(&app, &token, pilot).await, Some(8));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_evidence_lists_withdraws_and_restores_from_the_command_line() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Cli Corp").await;
    let pilot = app.pilot(&admin, org, "Command line").await;
    let (_, file) = upload(&app, &token, pilot, "week1.jsonl", gateway_log("c", 4)).await;
    let id = file["id"].as_i64().unwrap().to_string();
    let folder = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        server_binary()
            .arg("evidence")
            .args(args)
            .env("DATABASE_URL", app.cli_database_url())
            .env("DATA_DIR", folder.path())
            .output()
            .unwrap()
    };
    let pilot_arg = pilot.to_string();
    let out = run(&["withdraw", "--pilot", &pilot_arg, "--id", &id]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("reason"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&[
        "withdraw",
        "--pilot",
        &pilot_arg,
        "--id",
        &id,
        "--reason",
        "clock skew",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("WITHDRAWN") && text.contains("by command line: clock skew"),
        "{text}"
    );
    assert_eq!(requests_in_demand(&app, &token, pilot).await, None);

    let out = run(&["list", "--pilot", &pilot_arg, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (_, api) = get(&app, &token, &format!("/api/v1/pilots/{pilot}/evidence")).await;
    assert_eq!(
        listed["files"], api["files"],
        "the CLI lists what the API answers"
    );
    assert_eq!(listed["files"][0]["history"][1]["by"], "command line");

    let out = run(&[
        "restore", "--pilot", &pilot_arg, "--id", "424242", "--reason", "x",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no evidence #424242"));
    let out = run(&[
        "restore",
        "--pilot",
        &pilot_arg,
        "--id",
        &id,
        "--reason",
        "skew fixed upstream",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(requests_in_demand(&app, &token, pilot).await, Some(4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_archives_a_pilot_read_only_and_deletes_one_with_its_files() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Archive Corp").await;
    let pilot = app.pilot(&admin, org, "To archive").await;
    let (_, file) = upload(&app, &token, pilot, "w.jsonl", gateway_log("d", 2)).await;
    let id = file["id"].as_i64().unwrap();
    let staff = app.staff_organisation().await;
    let assessor = app
        .user(&admin, "ada@pilotdesk.local", "assessor", staff)
        .await;
    let assessor_token = app.api_token(&assessor).await;
    let archive = format!("/api/v1/pilots/{pilot}/archive");
    assert_eq!(
        post(&app, &assessor_token, &archive, json!({"archived": true}))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let (status, archived) = post(&app, &token, &archive, json!({"archived": true})).await;
    assert_eq!(status, StatusCode::OK, "{archived}");
    assert!(archived["archived_ms"].is_i64());

    // Read-only: no upload, no withdrawal; every page still reads.
    let (status, refused) =
        upload(&app, &assessor_token, pilot, "x.jsonl", gateway_log("e", 2)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("archived"),
        "{refused}"
    );
    let withdraw = format!("/api/v1/pilots/{pilot}/evidence/{id}/withdraw");
    assert_eq!(
        post(&app, &token, &withdraw, json!({"reason": "x"}))
            .await
            .0,
        StatusCode::CONFLICT
    );
    let (_, register) = get(&app, &token, &format!("/api/v1/pilots/{pilot}/evidence")).await;
    assert_eq!(register["can_change"], false);
    app.page(&admin, &format!("/pilots/{pilot}/evidence")).await;
    let (status, _) = post(&app, &token, &archive, json!({"archived": false})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        post(&app, &token, &withdraw, json!({"reason": "x"}))
            .await
            .0,
        StatusCode::OK
    );
    let (status, bad) = post(&app, &token, &archive, json!({"archived": "yes"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad["error"].as_str().unwrap().starts_with("request body:"),
        "{bad}"
    );

    // Deleted: the pilot and its raw file are gone; a file another pilot shares stays.
    let other = app.pilot(&admin, org, "Keeps a shared file").await;
    let (status, _) = upload(&app, &token, other, "shared.jsonl", gateway_log("d", 2)).await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, own) = upload(&app, &token, pilot, "own.jsonl", gateway_log("f", 3)).await;
    let own_sha = own["sha256"].as_str().map(str::to_string);
    let delete = |who: String| {
        let url = app.url(&format!("/api/v1/pilots/{pilot}"));
        async move { client().delete(url).bearer_auth(who).send().await.unwrap() }
    };
    assert_eq!(
        delete(assessor_token.clone()).await.status(),
        StatusCode::FORBIDDEN
    );
    let response = delete(token.clone()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["raw_files_removed"], 1, "{body}");
    assert!(app.store.pilot(pilot).await.unwrap().is_none());
    assert_eq!(
        get(&app, &token, &format!("/api/v1/pilots/{pilot}/evidence"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.store.evidence_register(other).await.unwrap().len(), 1);
    if let Some(sha) = own_sha {
        assert!(!app.data_dir().join("evidence").join(sha).exists());
    }
    app.page(&admin, &format!("/pilots/{other}/traffic")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pilot_page_offers_admins_archive_and_delete_and_no_one_else() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let org = app.organisation(&admin, "Forms Corp").await;
    let pilot = app.pilot(&admin, org, "Form pilot").await;
    let staff = app.staff_organisation().await;
    let assessor = app
        .user(&admin, "asa@pilotdesk.local", "assessor", staff)
        .await;
    let page = app.page(&admin, &format!("/pilots/{pilot}")).await;
    assert!(page.contains(r#"id="administration""#));
    assert!(page.contains(&format!(r#"action="/pilots/{pilot}/archive""#)));
    assert!(
        page.contains(r##"<a href="#content" class="skip-link">Skip to content"##),
        "a skip link to the page's main content"
    );
    assert!(page.contains(r#"id="content""#) && page.contains("<main"));
    let theirs = app.page(&assessor, &format!("/pilots/{pilot}")).await;
    assert!(!theirs.contains(r#"id="administration""#));
    let form =
        |who: &reqwest::Client, path: String, fields: &'static [(&'static str, &'static str)]| {
            let request = who
                .post(app.url(&path))
                .header("Origin", app.url(""))
                .form(fields);
            async move { request.send().await.unwrap() }
        };
    let refused = form(
        &assessor,
        format!("/pilots/{pilot}/archive"),
        &[("archived", "true")],
    )
    .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let done = form(
        &admin,
        format!("/pilots/{pilot}/archive"),
        &[("archived", "true")],
    )
    .await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    let page = app.page(&assessor, &format!("/pilots/{pilot}")).await;
    assert!(
        page.contains(r#"id="archived""#),
        "the page says it is archived"
    );
    assert!(
        !page.contains(&format!(r#"href="/pilots/{pilot}/edit""#)),
        "no edit button"
    );
    let unticked = form(&admin, format!("/pilots/{pilot}/delete"), &[]).await;
    assert_eq!(unticked.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(app.store.pilot(pilot).await.unwrap().is_some());
    let deleted = form(
        &admin,
        format!("/pilots/{pilot}/delete"),
        &[("confirm", "yes")],
    )
    .await;
    assert_eq!(deleted.status(), StatusCode::SEE_OTHER);
    assert_eq!(deleted.headers()["location"], "/");
    assert!(app.store.pilot(pilot).await.unwrap().is_none());
}

/// A pilot of 54 files: the evidence page shows the newest 50 with a pager naming the rows,
/// `?page=2` the oldest 4, and the server function answers the same slices.
#[tokio::test]
async fn the_evidence_page_lists_fifty_files_a_page_newest_first() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Many Files Ltd").await;
    let pilot = app.pilot(&admin, org, "Fifty-four logs").await;
    for n in 1..=54 {
        let name = format!("day-{n:02}.jsonl");
        let (status, body) = upload(&app, &token, pilot, &name, gateway_log(&name, 1)).await;
        assert_eq!(status, StatusCode::CREATED, "{name}: {body}");
    }
    let first = app.page(&admin, &format!("/pilots/{pilot}/evidence")).await;
    assert!(first.contains("Files 1–50 of 54, newest first"), "{first}");
    assert!(first.contains("Page 1 of 2"));
    assert!(first.contains("day-54.jsonl") && first.contains("day-05.jsonl"));
    assert!(
        !first.contains("day-04.jsonl"),
        "the oldest four wait on page 2"
    );
    assert!(first.contains(&format!("/pilots/{pilot}/evidence?page=2")));
    let second = app
        .page(&admin, &format!("/pilots/{pilot}/evidence?page=2"))
        .await;
    assert!(
        second.contains("Files 51–54 of 54, newest first"),
        "{second}"
    );
    assert!(second.contains("day-01.jsonl") && second.contains("day-04.jsonl"));
    assert!(!second.contains("day-05.jsonl"));
    // A page past the end is the last one, never an empty list.
    let pilot_id = pilot.to_string();
    let listed = app
        .call_ok(
            &admin,
            "list_evidence_files",
            &[("pilot_id", &pilot_id), ("page", "9")],
        )
        .await;
    let names: Vec<&str> = listed["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"]["file_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "day-04.jsonl",
            "day-03.jsonl",
            "day-02.jsonl",
            "day-01.jsonl"
        ]
    );
    assert_eq!(listed["page"]["number"], 2);
    assert_eq!(listed["page"]["total"], 54);
}
