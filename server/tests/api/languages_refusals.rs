//! Refusals in German: a German reader gets a service's refusal (the four-eyes rule of a plan's
//! approval, the pilot form, the user form) in German, on the page a plain form post returns to
//! and in the server function's answer (`error_de`, which the browser shows); the English the
//! JSON API and scripts read (`error`) is byte for byte what it was.

use crate::helpers::{TestApp, spawn_app};
use reqwest::{Client, StatusCode};
use serde_json::Value;

const FOUR_EYES_EN: &str =
    "you wrote this draft, so another assessor or an administrator approves it (four eyes)";
const FOUR_EYES_DE: &str = "Sie haben diesen Entwurf geschrieben, daher gibt ihn jemand anderes \
                            aus dem Bewertungsteam oder die Administration frei \
                            (Vier-Augen-Prinzip)";

/// A refused server function's status and JSON answer.
async fn refused(app: &TestApp, who: &Client, endpoint: &str, form: &[(&str, &str)]) -> Value {
    let response = app.call(who, endpoint, form).await;
    let status = response.status();
    let body = response.text().await.unwrap();
    assert!(
        status.is_client_error(),
        "{endpoint} answered {status}: {body}"
    );
    serde_json::from_str(&body).unwrap_or_else(|_| panic!("{endpoint}: not JSON: {body}"))
}

/// An assessor who started a plan on a new pilot; the pilot's id and the draft's revision.
async fn assessor_with_a_draft(app: &TestApp) -> (Client, i64, String) {
    let admin = app.admin().await;
    let staff = app.staff_organisation().await;
    let assessor = app
        .user(&admin, "ada@pilotdesk.test", "assessor", staff)
        .await;
    let customer = app.organisation(&admin, "Kunde GmbH").await;
    let pilot = app.pilot(&assessor, customer, "Support-Assistent").await;
    let id = pilot.to_string();
    app.call_ok(
        &assessor,
        "create_plan",
        &[("pilot_id", &id), ("template", "")],
    )
    .await;
    let plan = app
        .call_ok(&assessor, "get_plan", &[("pilot_id", &id)])
        .await;
    let revision = plan["versions"][0]["revision"].to_string();
    (assessor, pilot, revision)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_is_told_the_four_eyes_rule_in_german() {
    let app = spawn_app().await;
    let (assessor, pilot, revision) = assessor_with_a_draft(&app).await;
    let id = pilot.to_string();
    let approve = [
        ("pilot_id", id.as_str()),
        ("version", "1"),
        ("revision", revision.as_str()),
    ];

    // English: the refusal as it always was.
    let english = refused(&app, &assessor, "approve_plan", &approve).await;
    assert_eq!(english["error"], FOUR_EYES_EN);
    assert_eq!(english["kind"], "conflict");

    // German: the same English `error` for scripts, and the German beside it.
    app.choose_language(&assessor, "de").await;
    let german = refused(&app, &assessor, "approve_plan", &approve).await;
    assert_eq!(german["error"], FOUR_EYES_EN, "the wire's English changed");
    assert_eq!(german["kind"], "conflict");
    assert_eq!(german["error_de"], FOUR_EYES_DE);

    // A plain form post comes back to the editor, which says it in German.
    let editor = app.url(&format!("/pilots/{pilot}/plan/edit"));
    let response = assessor
        .post(app.url("/api/approve_plan"))
        .header("Accept", "text/html,application/xhtml+xml")
        .header("Referer", editor.clone())
        .form(&approve)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FOUND);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("__err="), "{location}");
    let html = assessor
        .get(if location.starts_with("http") {
            location.clone()
        } else {
            app.url(&location)
        })
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<html lang=\"de\""));
    assert!(
        html.contains("Die Änderung wurde nicht gespeichert"),
        "the returned error's heading in German"
    );
    assert!(html.contains(FOUR_EYES_DE), "the refusal in German");
    assert!(!html.contains(FOUR_EYES_EN), "the refusal in English");
    assert!(!html.contains("The change was not saved"));

    // Submitting an empty plan: refused in German too, the English unchanged.
    let submit = refused(&app, &assessor, "submit_plan", &approve).await;
    assert_eq!(
        submit["error"],
        "pass marks: a plan needs at least one pass mark before it is submitted for approval"
    );
    assert_eq!(
        submit["error_de"],
        "Zielwerte: Ein Plan braucht mindestens einen Zielwert, bevor er zur Freigabe \
         eingereicht wird"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_is_told_what_is_wrong_with_the_pilot_and_user_forms_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let customer = app.organisation(&admin, "Kunde GmbH").await;
    let org = customer.to_string();
    let staff = app.staff_organisation().await.to_string();
    app.choose_language(&admin, "de").await;

    // The pilot form: a pilot without a name, a GPU count that is not a number.
    let cases = [
        (
            "",
            "2",
            "name: a pilot needs a name",
            "name: ein Pilot braucht einen Namen",
        ),
        (
            "Chat",
            "vier",
            "gpu_count: `vier` is not a whole number",
            "Anzahl GPUs: `vier` ist keine ganze Zahl",
        ),
    ];
    for (name, gpus, en, de) in cases {
        let answer = refused(
            &app,
            &admin,
            "create_pilot",
            &[
                ("organisation_id", &org),
                ("name", name),
                ("description", ""),
                ("status", ""),
                ("model", ""),
                ("gpu_type", ""),
                ("gpu_count", gpus),
                ("engine", ""),
                ("engine_version", ""),
            ],
        )
        .await;
        assert_eq!(answer["error"], en);
        assert_eq!(answer["kind"], "invalid");
        assert_eq!(answer["error_de"], de);
    }
    // A pilot for the staff organisation: refused by the server function itself.
    let answer = refused(
        &app,
        &admin,
        "create_pilot",
        &[
            ("organisation_id", &staff),
            ("name", "Chat"),
            ("description", ""),
            ("status", ""),
            ("model", ""),
            ("gpu_type", ""),
            ("gpu_count", ""),
            ("engine", ""),
            ("engine_version", ""),
        ],
    )
    .await;
    assert_eq!(
        answer["error"],
        "organisation_id: choose the customer organisation that owns the pilot"
    );
    assert_eq!(
        answer["error_de"],
        "organisation_id: Wählen Sie die Kundenorganisation, der der Pilot gehört"
    );

    // The user form: an address that is none, an address already taken.
    let user = |email: &'static str| {
        [
            ("email", email),
            ("name", ""),
            ("role", "customer"),
            ("organisation_id", org.as_str()),
            ("password", "ein langes Passwort"),
        ]
    };
    let answer = refused(&app, &admin, "create_user", &user("kein-at-zeichen")).await;
    assert_eq!(
        answer["error"],
        "email: `kein-at-zeichen` is not an e-mail address (expected name@domain)"
    );
    assert_eq!(
        answer["error_de"],
        "email: `kein-at-zeichen` ist keine E-Mail-Adresse (erwartet name@domain)"
    );
    app.call_ok(&admin, "create_user", &user("kunde@kunde.test"))
        .await;
    let answer = refused(&app, &admin, "create_user", &user("kunde@kunde.test")).await;
    assert_eq!(
        answer["error"],
        "a user with the e-mail address kunde@kunde.test already exists"
    );
    assert_eq!(
        answer["error_de"],
        "ein Konto mit der E-Mail-Adresse kunde@kunde.test gibt es bereits"
    );
    // An organisation whose name is taken.
    let answer = refused(
        &app,
        &admin,
        "create_organisation",
        &[("name", "Kunde GmbH")],
    )
    .await;
    assert_eq!(
        answer["error"],
        "an organisation named “Kunde GmbH” already exists"
    );
    assert_eq!(
        answer["error_de"],
        "eine Organisation namens „Kunde GmbH“ gibt es bereits"
    );
}

/// The JSON API answers a German reader's refusal in English, exactly as before: `error` and
/// `kind`, nothing added.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_json_api_refuses_a_german_reader_in_english_as_before() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.organisation(&admin, "Kunde GmbH").await;
    let token = app.api_token(&admin).await;
    let response = crate::helpers::client()
        .post(app.url("/api/v1/pilots"))
        .bearer_auth(&token)
        .header("Accept-Language", "de-DE,de;q=0.9")
        .header("Cookie", "pilotdesk_lang=de")
        .json(&serde_json::json!({ "organisation": "Kunde GmbH", "name": "" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // The English `error` and `kind` as before; the German beside them for the pages.
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "name: a pilot needs a name");
    assert_eq!(body["kind"], "invalid");
    assert_eq!(body["error_de"], "name: ein Pilot braucht einen Namen");
}
