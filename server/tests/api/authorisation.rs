//! Every server function tried as the wrong user.
//!
//! The table below lists each server function with what it needs. A test fails if a server
//! function is registered that the table does not cover, so a new one cannot ship untested.

use crate::helpers::{TestApp, spawn_app};
use reqwest::{Client, StatusCode};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Need {
    Anyone,
    SignedIn,
    Staff,
    Admin,
    /// Assessors and admins (plan editing): customers get 404, sales engineers 403.
    PlanEditor,
}

/// (endpoint, need, arguments). `{pilot}` is replaced by a pilot of the customer's own
/// organisation, `{user}` by the customer's user id, `{org}` by a customer organisation.
/// Form arguments of one call.
type Arguments = &'static [(&'static str, &'static str)];

const SERVER_FUNCTIONS: &[(&str, Need, Arguments)] = &[
    ("whoami", Need::Anyone, &[]),
    (
        "login",
        Need::Anyone,
        &[("email", "nobody@x.io"), ("password", "nothing at all")],
    ),
    ("logout", Need::Anyone, &[]),
    (
        "change_password",
        Need::SignedIn,
        &[
            ("current_password", "x"),
            ("new_password", "y"),
            ("confirm_password", "y"),
        ],
    ),
    ("list_pilots", Need::SignedIn, &[]),
    ("list_api_tokens", Need::SignedIn, &[]),
    ("create_api_token", Need::SignedIn, &[("name", "ci")]),
    ("revoke_api_token", Need::SignedIn, &[("id", "1")]),
    ("get_pilot", Need::SignedIn, &[("id", "{pilot}")]),
    ("customer_organisations", Need::Staff, &[]),
    ("sizing_catalog", Need::SignedIn, &[]),
    (
        "save_gpu",
        Need::Admin,
        &[
            ("id", "intruder-gpu"),
            ("name", "Intruder"),
            ("memory_driver_gib", "80"),
            ("memory_cuda_gib", ""),
            ("bandwidth_gb_s", "2000"),
            ("bf16_dense_tflops", ""),
            ("fp8", "native"),
            ("fp4", "none"),
            ("unit_price", "1"),
        ],
    ),
    (
        "set_gpu_price",
        Need::Admin,
        &[("id", "h200-nvl"), ("unit_price", "1")],
    ),
    ("reset_gpu", Need::Admin, &[("id", "h200-nvl")]),
    (
        "add_model",
        Need::Staff,
        &[("id", "intruder"), ("name", ""), ("config_json", "{}")],
    ),
    ("delete_model", Need::Admin, &[("id", "intruder")]),
    (
        "list_calibrations",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "quality_overview",
        Need::SignedIn,
        &[("pilot_id", "{pilot}"), ("a", ""), ("b", "")],
    ),
    (
        "quality_decision",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    ("pilot_verdict", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    ("pilot_overview", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    (
        "report_overview",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "create_share_link",
        Need::Staff,
        &[
            ("pilot_id", "{pilot}"),
            ("contact", "intruder"),
            ("days", "1"),
            ("lang", "en"),
        ],
    ),
    (
        "revoke_share_link",
        Need::Staff,
        &[("pilot_id", "{pilot}"), ("link_id", "1")],
    ),
    (
        "get_eval_set",
        Need::SignedIn,
        &[("pilot_id", "{pilot}"), ("version", "")],
    ),
    (
        "new_eval_set_version",
        Need::Staff,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "save_eval_item",
        Need::Staff,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", ""),
            ("item_id", "intruder"),
            ("question", "Q"),
            ("accepted_answer", "A"),
            ("accepted_passages", ""),
        ],
    ),
    (
        "remove_eval_item",
        Need::Staff,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
        ],
    ),
    (
        "approve_eval_set",
        Need::Staff,
        &[("pilot_id", "{pilot}"), ("version", "1"), ("revision", "1")],
    ),
    (
        "traffic_overview",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "metrics_window",
        Need::SignedIn,
        &[
            ("pilot_id", "{pilot}"),
            ("before", ""),
            ("after", ""),
            ("elapsed_s", ""),
        ],
    ),
    (
        "list_evidence_files",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "get_load_tests",
        Need::SignedIn,
        &[("pilot_id", "{pilot}"), ("percentile", "p95")],
    ),
    (
        "compare_load_tests",
        Need::SignedIn,
        &[
            ("pilot_id", "{pilot}"),
            ("baseline", "1"),
            ("runs", "1"),
            ("percentile", "p95"),
        ],
    ),
    (
        "add_startup_log",
        Need::Staff,
        &[
            ("pilot_id", "{pilot}"),
            ("log_text", "INFO GPU KV cache size: 1,000 tokens"),
            ("model", "llama-3.1-8b"),
            ("weights", "bf16"),
            ("kv_dtype", "16bit"),
            ("gpu", "h100-sxm"),
            ("tp", "1"),
            ("context", "8192"),
        ],
    ),
    (
        "create_pilot",
        Need::Staff,
        &[
            ("organisation_id", "{org}"),
            ("name", "intruder"),
            ("description", ""),
            ("status", "planning"),
            ("model", ""),
            ("gpu_type", ""),
            ("gpu_count", ""),
            ("engine", ""),
            ("engine_version", ""),
        ],
    ),
    (
        "update_pilot",
        Need::Staff,
        &[
            ("id", "{pilot}"),
            ("name", "renamed by intruder"),
            ("description", ""),
            ("status", "closed"),
            ("model", ""),
            ("gpu_type", ""),
            ("gpu_count", ""),
            ("engine", ""),
            ("engine_version", ""),
        ],
    ),
    ("list_organisations", Need::Admin, &[]),
    (
        "create_organisation",
        Need::Admin,
        &[("name", "Intruder Inc")],
    ),
    ("list_users", Need::Admin, &[]),
    (
        "create_user",
        Need::Admin,
        &[
            ("email", "intruder@x.io"),
            ("name", ""),
            ("role", "admin"),
            ("organisation_id", "{org}"),
            ("password", ""),
        ],
    ),
    (
        "set_user_disabled",
        Need::Admin,
        &[("user_id", "{user}"), ("disabled", "true")],
    ),
    ("reset_password", Need::Admin, &[("user_id", "{user}")]),
    ("get_plan", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    (
        "create_plan",
        Need::PlanEditor,
        &[("pilot_id", "{pilot}"), ("template", "interactive-chat")],
    ),
    (
        "apply_plan_template",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("template", "rag-assistant"),
        ],
    ),
    (
        "save_pass_mark",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", ""),
            ("metric", "ttft"),
            ("custom_name", ""),
            ("statistic", "p95"),
            ("comparator", "le"),
            ("threshold", "500"),
            ("unit", "ms"),
            ("point", "gateway"),
            ("definition", ""),
            ("scope", ""),
            ("rationale", ""),
        ],
    ),
    (
        "move_pass_mark",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
            ("direction", "down"),
        ],
    ),
    (
        "remove_pass_mark",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
        ],
    ),
    (
        "save_scenario",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", ""),
            ("name", "Chat"),
            ("input_tokens_low", "100"),
            ("input_tokens_high", "2000"),
            ("output_tokens_low", "50"),
            ("output_tokens_high", "500"),
        ],
    ),
    (
        "remove_scenario",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
        ],
    ),
    (
        "save_plan_settings",
        Need::PlanEditor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("pilot_users", "5"),
            ("production_users", ""),
            ("peak_arrival_rate_req_s", ""),
            ("context_tokens_per_request", ""),
            ("questions", ""),
            ("hit_k", ""),
            ("engine", ""),
            ("engine_version", ""),
            ("gpu", ""),
            ("precision", ""),
            ("kv_cache_dtype", ""),
            ("tensor_parallel", ""),
            ("max_num_batched_tokens", ""),
            ("prefix_caching", ""),
            ("cuda_graphs", ""),
        ],
    ),
    (
        "approve_plan",
        Need::PlanEditor,
        &[("pilot_id", "{pilot}"), ("version", "1"), ("revision", "1")],
    ),
    (
        "amend_plan",
        Need::PlanEditor,
        &[("pilot_id", "{pilot}"), ("reason", "intruder")],
    ),
    (
        "discard_plan_draft",
        Need::PlanEditor,
        &[("pilot_id", "{pilot}"), ("version", "1")],
    ),
];

#[test]
fn every_registered_server_function_is_in_the_table() {
    let registered: BTreeSet<String> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, _)| path.to_string())
        .collect();
    let covered: BTreeSet<String> = SERVER_FUNCTIONS
        .iter()
        .map(|(endpoint, _, _)| format!("/api/{endpoint}"))
        .collect();
    assert_eq!(
        registered, covered,
        "server functions and the authorisation table differ"
    );
}

struct World {
    app: TestApp,
    pilot: String,
    org: String,
    user: String,
}

async fn world() -> (World, Client, Client) {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme chat").await;
    let customer = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let staff_org = app.staff_organisation().await;
    let sales = app.user(&admin, "sam@vendor.io", "sales", staff_org).await;
    let user = app.call_ok(&customer, "whoami", &[]).await["id"]
        .as_i64()
        .unwrap();
    let world = World {
        app,
        pilot: pilot.to_string(),
        org: acme.to_string(),
        user: user.to_string(),
    };
    (world, customer, sales)
}

fn arguments<'a>(world: &'a World, args: &'a [(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    args.iter()
        .map(|&(name, value)| {
            let value = match value {
                "{pilot}" => world.pilot.as_str(),
                "{org}" => world.org.as_str(),
                "{user}" => world.user.as_str(),
                other => other,
            };
            (name, value)
        })
        .collect()
}

async fn snapshot(world: &World) -> (usize, usize, String) {
    let store = &world.app.store;
    let pilot = store
        .pilot(world.pilot.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    (
        store.list_organisations().await.unwrap().len(),
        store
            .list_users()
            .await
            .unwrap()
            .iter()
            .filter(|u| !u.disabled)
            .count(),
        format!("{}|{}", pilot.name, pilot.status),
    )
}

#[tokio::test]
async fn anonymous_callers_get_401_from_everything_that_needs_a_session() {
    let (world, _, _) = world().await;
    let before = snapshot(&world).await;
    let anonymous = crate::helpers::client();
    for (endpoint, need, args) in SERVER_FUNCTIONS {
        if *need == Need::Anyone {
            continue;
        }
        let response = world
            .app
            .call(&anonymous, endpoint, &arguments(&world, args))
            .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{endpoint}");
    }
    assert_eq!(
        snapshot(&world).await,
        before,
        "a refused call changed data"
    );
}

#[tokio::test]
async fn customers_get_404_from_staff_and_admin_functions_even_for_their_own_pilot() {
    let (world, customer, _) = world().await;
    let before = snapshot(&world).await;
    for (endpoint, need, args) in SERVER_FUNCTIONS {
        if matches!(need, Need::Staff | Need::Admin | Need::PlanEditor) {
            let response = world
                .app
                .call(&customer, endpoint, &arguments(&world, args))
                .await;
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{endpoint}");
        }
    }
    assert_eq!(
        snapshot(&world).await,
        before,
        "a refused call changed data"
    );
}

#[tokio::test]
async fn staff_without_the_admin_role_get_403_from_admin_functions() {
    let (world, _, sales) = world().await;
    let before = snapshot(&world).await;
    for (endpoint, need, args) in SERVER_FUNCTIONS {
        if *need == Need::Admin {
            let response = world
                .app
                .call(&sales, endpoint, &arguments(&world, args))
                .await;
            assert_eq!(response.status(), StatusCode::FORBIDDEN, "{endpoint}");
        }
    }
    assert_eq!(
        snapshot(&world).await,
        before,
        "a refused call changed data"
    );
}

#[tokio::test]
async fn sales_engineers_get_403_from_plan_editing_functions() {
    let (world, _, sales) = world().await;
    let before = snapshot(&world).await;
    for (endpoint, need, args) in SERVER_FUNCTIONS {
        if *need == Need::PlanEditor {
            let response = world
                .app
                .call(&sales, endpoint, &arguments(&world, args))
                .await;
            assert_eq!(response.status(), StatusCode::FORBIDDEN, "{endpoint}");
        }
    }
    assert_eq!(
        snapshot(&world).await,
        before,
        "a refused call changed data"
    );
    let pilot = world.pilot.parse().unwrap();
    assert!(
        world
            .app
            .store
            .plan_versions(pilot)
            .await
            .unwrap()
            .is_empty(),
        "a refused call wrote a plan"
    );
}

#[tokio::test]
async fn customers_get_404_for_pages_they_may_not_see_and_anonymous_visitors_are_sent_to_sign_in() {
    let (world, customer, sales) = world().await;
    let app = &world.app;
    for path in [
        "/admin/users",
        "/admin/organisations",
        "/pilots/new",
        &format!("/pilots/{}/edit", world.pilot),
    ] {
        let response = customer.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    for path in ["/admin/users", "/admin/organisations"] {
        let response = sales.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{path}");
    }
    let anonymous = crate::helpers::client();
    for path in [
        "/",
        "/account",
        "/admin/users",
        &format!("/pilots/{}", world.pilot),
    ] {
        let response = anonymous.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{path}");
        let location = response.headers()["location"].to_str().unwrap();
        assert!(location.starts_with("/login"), "{path} → {location}");
    }
}
