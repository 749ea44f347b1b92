//! Pilots: staff create and edit; customers see only their own organisation's, read-only.

use crate::helpers::spawn_app;
use reqwest::StatusCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_create_and_edit_pilots_and_bad_fields_are_named() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let staff_org = app.staff_organisation().await;
    let assessor = app
        .user(&admin, "ann@vendor.io", "assessor", staff_org)
        .await;
    let id = app.pilot(&assessor, acme, "Acme chat").await;

    let view = app
        .call_ok(&assessor, "get_pilot", &[("id", &id.to_string())])
        .await;
    assert_eq!(view["pilot"]["name"], "Acme chat");
    assert_eq!(view["pilot"]["organisation_name"], "Acme Corp");
    assert_eq!(view["pilot"]["gpu_count"], 2);
    assert_eq!(view["can_edit"], true);

    let id_s = id.to_string();
    let mut update = vec![
        ("id", id_s.as_str()),
        ("name", "Acme chat v2"),
        ("description", ""),
        ("status", "running"),
        ("model", "Qwen/Qwen3-8B"),
        ("gpu_type", "NVIDIA L40S"),
        ("gpu_count", "4"),
        ("engine", "vLLM"),
        ("engine_version", "0.11.0"),
    ];
    app.call_ok(&assessor, "update_pilot", &update).await;
    let view = app.call_ok(&assessor, "get_pilot", &[("id", &id_s)]).await;
    assert_eq!(view["pilot"]["status"], "running");
    assert_eq!(view["pilot"]["gpu_count"], 4);

    update[6] = ("gpu_count", "zero");
    let bad = app.call(&assessor, "update_pilot", &update).await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text().await.unwrap().contains("gpu_count"));

    let staff_owned = app
        .call(
            &assessor,
            "create_pilot",
            &[
                ("organisation_id", &staff_org.to_string()),
                ("name", "x"),
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
    assert_eq!(staff_owned.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_sees_only_their_organisations_pilots_and_gets_404_for_others() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let globex = app.organisation(&admin, "Globex").await;
    let acme_pilot = app.pilot(&admin, acme, "Acme chat").await;
    let globex_pilot = app.pilot(&admin, globex, "Globex RAG").await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;

    let list = app.call_ok(&carol, "list_pilots", &[]).await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Acme chat"]);

    let own = app
        .call_ok(&carol, "get_pilot", &[("id", &acme_pilot.to_string())])
        .await;
    assert_eq!(own["can_edit"], false);
    let other = app
        .call(&carol, "get_pilot", &[("id", &globex_pilot.to_string())])
        .await;
    assert_eq!(other.status(), StatusCode::NOT_FOUND);
    let missing = app.call(&carol, "get_pilot", &[("id", "999999")]).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(other.text().await.unwrap(), missing.text().await.unwrap());

    let own_page = carol
        .get(app.url(&format!("/pilots/{acme_pilot}")))
        .send()
        .await
        .unwrap();
    assert_eq!(own_page.status(), StatusCode::OK);
    let html = own_page.text().await.unwrap();
    assert!(html.contains("Acme chat"));
    assert!(!html.contains("Edit pilot"));
    let other_page = carol
        .get(app.url(&format!("/pilots/{globex_pilot}")))
        .send()
        .await
        .unwrap();
    assert_eq!(other_page.status(), StatusCode::NOT_FOUND);
    assert!(!other_page.text().await.unwrap().contains("Globex RAG"));

    let staff_list = app.call_ok(&admin, "list_pilots", &[]).await;
    assert_eq!(
        staff_list.as_array().unwrap().len(),
        3,
        "two pilots plus the demo pilot"
    );
}

/// The pilots list has a verdict column (#37): each pilot's verdict once this instance has
/// graded its current state (in the background: the list never waits for a grading), and "no
/// approved plan" for a pilot without one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pilots_list_shows_each_pilots_verdict() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let org = app.organisation(&admin, "Verdict Corp").await;
    app.pilot(&admin, org, "Without a plan").await;
    let mut html = String::new();
    for _ in 0..150 {
        html = app.page(&admin, "/").await;
        if !html.contains("being graded") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(!html.contains("being graded"), "graded within 30 s");
    assert!(html.contains("no approved plan"), "{html}");
    // The demo pilot misses its TTFT mark (p99 572 ms against 450 ms).
    assert!(html.contains(">Missed<"), "{html}");
    assert!(html.contains("0 of 2 pass marks met, 1 missed"), "{html}");
}
