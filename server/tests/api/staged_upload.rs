//! The upload form without JavaScript checks before it stores: `step=check` keeps the file and
//! sends the browser to `?check=<token>`, where the page lists what will be recorded (each value
//! with its source) with "Store" and "Discard"; only "Store" writes evidence, once, and only for
//! the user who checked it. Real files from `testdata/`.

use crate::helpers::{TestApp, fixture, spawn_app};
use reqwest::multipart::{Form, Part};
use reqwest::{Client, StatusCode};

const BENCH: &str = "er0080-vllm-benchmarking/bench_serve_v0.25.1.json";

/// Posts the form as its button does (`step=check`, the run context typed); answers `Location`.
async fn check(app: &TestApp, who: &Client, pilot: i64, name: &'static str) -> String {
    post_form(app, who, pilot, name, Form::new().text("step", "check")).await
}

/// Posts the form's plain "Upload" (no check) as `who`; answers `Location`.
async fn upload(app: &TestApp, who: &Client, pilot: i64, name: &'static str) -> String {
    post_form(app, who, pilot, name, Form::new()).await
}

/// Posts `form` plus the run context typed and the file as `name`; answers `Location`.
async fn post_form(
    app: &TestApp,
    who: &Client,
    pilot: i64,
    name: &'static str,
    form: Form,
) -> String {
    let form = form
        .text("tp", "2")
        .text("gpu", "")
        .part("file", Part::bytes(fixture(BENCH)).file_name(name));
    let response = who
        .post(app.url(&format!("/pilots/{pilot}/evidence")))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    location(&response)
}

fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_string()
}

/// Posts one of the check's buttons (`""` = Store, `"/discard"`); answers `Location`.
async fn answer(app: &TestApp, who: &Client, pilot: i64, token: &str, verb: &str) -> String {
    let response = who
        .post(app.url(&format!("/pilots/{pilot}/evidence/staged/{token}{verb}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    location(&response)
}

/// The token of a `?check=` location.
fn token_of(pilot: i64, location: &str) -> String {
    let prefix = format!("/pilots/{pilot}/evidence?check=");
    let token = location
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("not a check: {location}"));
    assert_eq!(token.len(), 32, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    token.to_string()
}

/// The page at `path` as `who` sees it, without the hydration markers between text nodes.
async fn html(app: &TestApp, who: &Client, path: &str) -> String {
    app.page(who, path).await.replace("<!>", "")
}

async fn stored(app: &TestApp, pilot: i64) -> usize {
    app.store.list_evidence(pilot, None).await.unwrap().len()
}

#[tokio::test]
async fn a_checked_upload_is_listed_before_it_is_stored_and_stored_once() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let staff = app.staff_organisation().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let ada = app.user(&admin, "ada@vendor.io", "assessor", staff).await;
    let bob = app.user(&admin, "bob@vendor.io", "assessor", staff).await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let pilot = app.pilot(&ada, acme, "Acme chat").await;

    let token = token_of(pilot, &check(&app, &ada, pilot, "bench.json").await);
    assert_eq!(stored(&app, pilot).await, 0, "a check stores nothing");

    let page = html(
        &app,
        &ada,
        &format!("/pilots/{pilot}/evidence?check={token}"),
    )
    .await;
    assert!(page.contains("Check before storing: bench.json"), "{page}");
    assert!(page.contains("Tensor parallel"), "{page}");
    assert!(page.contains("source-form"), "the typed TP says so");
    assert!(
        page.contains("source-pilot_notes"),
        "the GPU comes from the pilot"
    );
    assert!(page.contains(&format!(
        "action=\"/pilots/{pilot}/evidence/staged/{token}\""
    )));
    assert!(page.contains("Store as evidence"));

    // Nobody else can see or use it: another assessor is told it is gone, a customer
    // cannot reach the route at all.
    let bobs = html(
        &app,
        &bob,
        &format!("/pilots/{pilot}/evidence?check={token}"),
    )
    .await;
    assert!(!bobs.contains("upload-recorded-table"), "{bobs}");
    assert!(bobs.contains("no longer waiting"), "{bobs}");
    let refused = answer(&app, &bob, pilot, &token, "").await;
    assert!(refused.contains("?notice="), "{refused}");
    assert!(
        html(&app, &bob, &refused)
            .await
            .contains("no longer waiting")
    );
    let refused = answer(&app, &carol, pilot, &token, "").await;
    assert!(refused.contains("?notice="), "{refused}");
    assert_eq!(stored(&app, pilot).await, 0);

    let done = answer(&app, &ada, pilot, &token, "").await;
    assert!(
        done.starts_with(&format!("/pilots/{pilot}/evidence?stored=")),
        "{done}"
    );
    let files = app.store.list_evidence(pilot, None).await.unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].0.file_name, "bench.json");
    let on_disk = app.data_dir().join("evidence").join(&files[0].0.sha256);
    assert!(
        on_disk.exists() || app.on_postgres(),
        "the raw file is kept"
    );

    // The same token again (a second click, the back button): refused, nothing doubled.
    let again = answer(&app, &ada, pilot, &token, "").await;
    assert!(html(&app, &ada, &again).await.contains("no longer waiting"));
    assert_eq!(stored(&app, pilot).await, 1);
    // A check of the same bytes now says they are evidence already.
    let duplicate = check(&app, &ada, pilot, "bench-copy.json").await;
    assert!(
        html(&app, &ada, &duplicate)
            .await
            .contains("already evidence")
    );
}

#[tokio::test]
async fn a_discarded_check_stores_nothing_and_a_pilot_with_one_waiting_can_be_deleted() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;

    let token = token_of(pilot, &check(&app, &admin, pilot, "bench.json").await);
    let gone = answer(&app, &admin, pilot, &token, "/discard").await;
    assert!(
        gone.starts_with(&format!("/pilots/{pilot}/evidence?notice=")),
        "{gone}"
    );
    let page = html(&app, &admin, &gone).await;
    assert!(page.contains("bench.json was discarded: nothing was stored."));
    let after = answer(&app, &admin, pilot, &token, "").await;
    assert!(
        html(&app, &admin, &after)
            .await
            .contains("no longer waiting")
    );
    assert_eq!(stored(&app, pilot).await, 0);
    // A made-up token is the same answer, not an error page.
    let page = html(
        &app,
        &admin,
        &format!("/pilots/{pilot}/evidence?check=../../etc"),
    )
    .await;
    assert!(page.contains("no longer waiting"));

    // One still waiting does not stop the pilot's deletion, and its kept file goes with it.
    let token = token_of(pilot, &check(&app, &admin, pilot, "bench.json").await);
    let kept = app.store.staged_upload(&token).await.unwrap().unwrap();
    let blob = app.data_dir().join("evidence").join(&kept.sha256);
    assert!(blob.exists() || app.on_postgres(), "staging keeps the file");
    let deleted = admin
        .post(app.url(&format!("/pilots/{pilot}/delete")))
        .form(&[("confirm", "yes")])
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::SEE_OTHER);
    assert!(app.store.pilot(pilot).await.unwrap().is_none());
    assert!(app.store.staged_upload(&token).await.unwrap().is_none());
    assert!(!blob.exists(), "the kept file is removed with the pilot");
}

/// A German uploader's check lists what will be recorded in German, and switching the language
/// before "Store" is no change of what was checked: the file is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_check_reads_in_german_and_survives_a_language_switch() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    app.choose_language(&admin, "de").await;

    let token = token_of(pilot, &check(&app, &admin, pilot, "bench.json").await);
    let page = html(
        &app,
        &admin,
        &format!("/pilots/{pilot}/evidence?check={token}"),
    )
    .await;
    for german in [
        "Gelesen als",
        "Betriebspunkte",
        "Modell (wie das Werkzeug es meldet)",
        "Tensorparallelität",
        "Nicht angegeben",
        "Datentyp des KV-Cache",
    ] {
        assert!(
            page.contains(german),
            "`{german}` missing from the German check"
        );
    }
    for english in [
        "Read as",
        "Operating points",
        "Not stated",
        ">Tensor parallel<",
    ] {
        assert!(
            !page.contains(english),
            "`{english}` left in the German check"
        );
    }

    app.choose_language(&admin, "en").await;
    let done = answer(&app, &admin, pilot, &token, "").await;
    assert!(done.contains("stored="), "{done}");
    assert_eq!(stored(&app, pilot).await, 1);
}

/// A German uploader is told in German why a file was refused (here: the same file again) and
/// that a discarded check stored nothing; an English one as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_upload_and_a_discard_are_said_in_the_readers_language() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;

    app.choose_language(&admin, "de").await;
    let token = token_of(pilot, &check(&app, &admin, pilot, "bench.json").await);
    let gone = answer(&app, &admin, pilot, &token, "/discard").await;
    let page = html(&app, &admin, &gone).await;
    assert!(page.contains("bench.json wurde verworfen: nichts wurde gespeichert."));
    assert!(!page.contains("was discarded"));

    let first = upload(&app, &admin, pilot, "bench.json").await;
    assert!(first.contains("stored="), "{first}");
    let again = upload(&app, &admin, pilot, "bench.json").await;
    let page = html(&app, &admin, &again).await;
    assert!(
        page.contains("bench.json: dieselbe Datei ist bereits Nachweis #"),
        "{again}"
    );
    assert!(!page.contains("the same file is already evidence"));

    app.choose_language(&admin, "en").await;
    let again = upload(&app, &admin, pilot, "bench.json").await;
    let page = html(&app, &admin, &again).await;
    assert!(
        page.contains("bench.json: the same file is already evidence #"),
        "{again}"
    );
    assert_eq!(stored(&app, pilot).await, 1);
}
