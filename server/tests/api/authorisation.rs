//! Every server function tried as every role.
//!
//! The table below lists each server function with the roles it allows. A test fails if a server
//! function is registered that the table does not cover, so a new one cannot ship untested; the
//! others call every function as each role and assert the refusals (401 without a session, 404
//! for customers, 403 for staff lacking the privilege) and that allowed roles are not refused.

use crate::helpers::{TestApp, spawn_app};
use reqwest::{Client, StatusCode};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Need {
    Anyone,
    /// Every role, customers for their own organisation's pilots.
    SignedIn,
    /// Admins, assessors and sales engineers (reading, exports, share links).
    Staff,
    /// Assessors and admins: everything that changes a pilot, its plan, evidence, evaluation set
    /// or the model catalog. Customers get 404, sales engineers 403.
    Editor,
    /// Admins: accounts and the GPU catalog. Customers get 404, other staff 403.
    Admin,
}

impl Need {
    /// Whether `role` may call a function with this need.
    fn allows(self, role: &str) -> bool {
        match self {
            Need::Anyone | Need::SignedIn => true,
            Need::Staff => role != "customer",
            Need::Editor => role == "admin" || role == "assessor",
            Need::Admin => role == "admin",
        }
    }

    /// The status a signed-in `role` this need refuses gets.
    fn refusal(self, role: &str) -> StatusCode {
        if role == "customer" {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::FORBIDDEN
        }
    }
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
    ("customer_organisations", Need::Editor, &[]),
    ("sizing_catalog", Need::SignedIn, &[]),
    ("admin_gpu_catalog", Need::Admin, &[]),
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
    ("set_price_currency", Need::Admin, &[("currency", "EUR")]),
    (
        "add_model",
        Need::Editor,
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
        Need::Editor,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "save_eval_item",
        Need::Editor,
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
        Need::Editor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
        ],
    ),
    (
        "approve_eval_set",
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("version", "1"), ("revision", "1")],
    ),
    (
        "traffic_overview",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "pilot_live_feed",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "pilot_metrics_source",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    // Anyone who sees the pilot: `None` for those who may not manage its tokens.
    (
        "list_ingest_tokens",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "create_ingest_token",
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("name", "gateway")],
    ),
    (
        "revoke_ingest_token",
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("id", "1")],
    ),
    (
        "metrics_source_form",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "set_metrics_source",
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("url", "file:///etc/passwd")],
    ),
    (
        "remove_metrics_source",
        Need::Editor,
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
    // The server-rendered fragments of the read-only pages (app/src/components/fragment.rs):
    // each answers what its page's data functions answer.
    ("page_pilots", Need::SignedIn, &[]),
    ("page_pilot", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    ("page_plan", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    (
        "page_plan_history",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    ("page_quality", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    (
        "page_evidence_list",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "page_notice",
        Need::SignedIn,
        &[
            ("pilot_id", "{pilot}"),
            ("token", "00112233445566778899aabbccddeeff"),
        ],
    ),
    (
        "page_staged_upload",
        Need::Editor,
        &[
            ("pilot_id", "{pilot}"),
            ("token", "00112233445566778899aabbccddeeff"),
        ],
    ),
    (
        "page_load_tests",
        Need::SignedIn,
        &[
            ("pilot_id", "{pilot}"),
            ("twin", "concurrency"),
            ("load", "2"),
        ],
    ),
    (
        "page_compare_load_tests",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    ("page_traffic", Need::SignedIn, &[("pilot_id", "{pilot}")]),
    (
        "page_calibration",
        Need::SignedIn,
        &[("pilot_id", "{pilot}")],
    ),
    (
        "get_capacity_twin",
        Need::SignedIn,
        &[
            ("pilot_id", "{pilot}"),
            ("rate", ""),
            ("concurrency", "8"),
            ("price", ""),
        ],
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
        Need::Editor,
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
        Need::Editor,
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
        Need::Editor,
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
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("template", "interactive-chat")],
    ),
    (
        "apply_plan_template",
        Need::Editor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("template", "rag-assistant"),
        ],
    ),
    (
        "save_pass_mark",
        Need::Editor,
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
        Need::Editor,
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
        Need::Editor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
        ],
    ),
    (
        "save_scenario",
        Need::Editor,
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
        Need::Editor,
        &[
            ("pilot_id", "{pilot}"),
            ("version", "1"),
            ("revision", "1"),
            ("index", "0"),
        ],
    ),
    (
        "save_plan_settings",
        Need::Editor,
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
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("version", "1"), ("revision", "1")],
    ),
    (
        "submit_plan",
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("version", "1"), ("revision", "1")],
    ),
    (
        "amend_plan",
        Need::Editor,
        &[("pilot_id", "{pilot}"), ("reason", "intruder")],
    ),
    (
        "discard_plan_draft",
        Need::Editor,
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
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

/// Calls every function of the table as `role` (signed in on `client`): a function the role may
/// not call must answer the policy's refusal and change nothing; one it may call must not be
/// refused (it may still fail for its arguments, e.g. 404 for a share link that does not exist).
async fn every_function_as(world: &World, client: &Client, role: &str) {
    let before = snapshot(world).await;
    let mut refused = 0;
    for (endpoint, need, args) in SERVER_FUNCTIONS {
        if *endpoint == "logout" || need.allows(role) {
            continue;
        }
        let response = world
            .app
            .call(client, endpoint, &arguments(world, args))
            .await;
        assert_eq!(
            response.status(),
            need.refusal(role),
            "{endpoint} as {role}"
        );
        refused += 1;
    }
    assert_eq!(
        snapshot(world).await,
        before,
        "a refused call changed data ({role})"
    );
    let pilot = world.pilot.parse().unwrap();
    let store = &world.app.store;
    assert!(
        store.plan_versions(pilot).await.unwrap().is_empty(),
        "a refused call wrote a plan ({role})"
    );
    assert!(
        store.eval_set_versions(pilot).await.unwrap().is_empty(),
        "a refused call wrote an evaluation set ({role})"
    );
    for (endpoint, need, args) in SERVER_FUNCTIONS {
        // `login` with the table's made-up account answers 401 by design; `logout` would end
        // the session the rest of the loop needs.
        if matches!(*endpoint, "login" | "logout") || !need.allows(role) {
            continue;
        }
        let response = world
            .app
            .call(client, endpoint, &arguments(world, args))
            .await;
        let status = response.status();
        assert!(
            status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
            "{endpoint} refused {role}: {status} {}",
            response.text().await.unwrap()
        );
    }
    let expected = SERVER_FUNCTIONS
        .iter()
        .filter(|(endpoint, need, _)| *endpoint != "logout" && !need.allows(role))
        .count();
    assert_eq!(refused, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn customers_get_404_from_staff_editor_and_admin_functions_even_for_their_own_pilot() {
    let (world, customer, _) = world().await;
    every_function_as(&world, &customer, "customer").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sales_engineers_read_export_and_share_but_get_403_from_everything_that_changes_data() {
    let (world, _, sales) = world().await;
    every_function_as(&world, &sales, "sales").await;
    let refused: Vec<&str> = SERVER_FUNCTIONS
        .iter()
        .filter(|(_, need, _)| !need.allows("sales"))
        .map(|(endpoint, _, _)| *endpoint)
        .collect();
    for endpoint in [
        "create_pilot",
        "update_pilot",
        "add_startup_log",
        "new_eval_set_version",
        "save_eval_item",
        "approve_eval_set",
        "add_model",
        "delete_model",
        "save_gpu",
        "save_pass_mark",
        "approve_plan",
        "admin_gpu_catalog",
    ] {
        assert!(refused.contains(&endpoint), "{endpoint} is open to sales");
    }
    for endpoint in [
        "report_overview",
        "create_share_link",
        "get_plan",
        "pilot_verdict",
        "sizing_catalog",
    ] {
        assert!(
            !refused.contains(&endpoint),
            "{endpoint} is closed to sales"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assessors_edit_pilots_but_get_403_from_admin_functions() {
    let (world, _, _) = world().await;
    let admin = world.app.admin().await;
    let staff_org = world.app.staff_organisation().await;
    let assessor = world
        .app
        .user(&admin, "ada@vendor.io", "assessor", staff_org)
        .await;
    every_function_as(&world, &assessor, "assessor").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admins_are_refused_nothing() {
    let (world, _, _) = world().await;
    let admin = world.app.admin().await;
    every_function_as(&world, &admin, "admin").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn customers_get_404_and_sales_403_for_pages_they_may_not_use_and_anonymous_visitors_are_sent_to_sign_in()
 {
    let (world, customer, sales) = world().await;
    let app = &world.app;
    for path in [
        "/admin/users",
        "/admin/organisations",
        "/admin/gpus",
        "/pilots/new",
        &format!("/pilots/{}/edit", world.pilot),
    ] {
        let response = customer.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    for path in [
        "/admin/users",
        "/admin/organisations",
        "/admin/gpus",
        "/pilots/new",
        &format!("/pilots/{}/edit", world.pilot),
    ] {
        let response = sales.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{path}");
        let page = response.text().await.unwrap();
        for form in ["Add or edit a GPU", "Save changes", "Create pilot"] {
            assert!(!page.contains(form), "{path} rendered its form for sales");
        }
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
