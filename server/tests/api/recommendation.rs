//! The production recommendation (#19): one capacity plan, the same configuration for every
//! caller and every edition, with its ranges, story and next steps; prices only for staff.

use crate::cli::server_binary;
use crate::helpers::{TestApp, client, spawn_app, spawn_app_warmed};
use reqwest::StatusCode;
use serde_json::Value;

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

/// Every `cost` anywhere in `value`.
fn costs(value: &Value) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(map.get("cost").is_some_and(|c| !c.is_null()))
                + map.values().map(costs).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(costs).sum(),
        _ => 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_customers_and_the_command_line_get_the_same_recommendation() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    // Prices that once turned the internal edition to other hardware than the customer's.
    for (gpu, price) in [
        ("v100-sxm2-16gb", "1.20"),
        ("h100-sxm", "2.50"),
        ("l40s", "0.90"),
    ] {
        app.call_ok(
            &admin,
            "set_gpu_price",
            &[("id", gpu), ("unit_price", ""), ("hour_price", price)],
        )
        .await;
    }
    let staff_token = app.api_token(&admin).await;
    let organisation = app
        .store
        .pilot(demo)
        .await
        .unwrap()
        .unwrap()
        .organisation_id;
    let customer = app
        .user(&admin, "carol@demo.example", "customer", organisation)
        .await;
    let customer_token = app.api_token(&customer).await;
    let path = format!("/api/v1/pilots/{demo}/recommendation");

    let (status, staff) = get(&app, &staff_token, &path).await;
    assert_eq!(status, StatusCode::OK, "{staff}");
    let (status, theirs) = get(&app, &customer_token, &path).await;
    assert_eq!(status, StatusCode::OK, "{theirs}");
    let recommended = &staff["recommended"]["configuration"];
    assert!(recommended["label"].is_string(), "{}", staff["warnings"]);
    assert_eq!(recommended, &theirs["recommended"]["configuration"]);
    assert!(costs(&staff) > 0, "staff see the money");
    assert_eq!(costs(&theirs), 0, "customers never do");

    // The headline carries its uncertainty and names the load test that settles it.
    let headline = &staff["recommended"];
    assert!(headline["sessions"]["low"].as_f64() <= headline["sessions"]["value"].as_f64());
    assert!(
        headline["sensitivity"]["sentence"]
            .as_str()
            .unwrap()
            .contains("growth")
    );
    for mark in headline["predicted"].as_array().unwrap() {
        assert!(mark["low"].as_f64() <= mark["high"].as_f64(), "{mark}");
        assert_eq!(mark["basis"], "estimated", "{mark}");
    }
    // The demo's production keeps its gateway: the client TTFT mark carries the gateway's own
    // time (the benchmark report's 100 ms, 73–134 ms); TPOT holds through the proxy.
    for mark in headline["predicted"].as_array().unwrap() {
        let name = mark["mark"].as_str().unwrap();
        if mark["metric"] == "ttft_ms" {
            assert_eq!(mark["gateway_budget_ms"]["value"], 100.0, "{mark}");
            assert_eq!(mark["gateway_budget_ms"]["low"], 73.0, "{mark}");
        } else {
            assert!(mark.get("gateway_budget_ms").is_none(), "{name}");
        }
    }
    let report = app
        .page(&admin, &format!("/pilots/{demo}/report.html"))
        .await;
    assert!(
        report.contains("includes the gateway&#39;s 100 ms, 73–134 ms)"),
        "the report says what the TTFT figures include"
    );
    let demand = &staff["demand"];
    assert!(demand["rate"].as_f64().unwrap() > 0.0);
    assert!(
        demand["sessions"]["p99"].as_f64().unwrap() >= demand["sessions"]["p50"].as_f64().unwrap()
    );
    assert!(!staff["story"].as_str().unwrap().is_empty());
    let steps = staff["next_steps"].to_string();
    assert!(
        steps.contains("load_test") && steps.contains("evaluation"),
        "{steps}"
    );
    // The demand replays the demo's gateway log, and the load test replays its trace.
    assert_eq!(demand["arrivals"], "replayed", "{demand}");
    let load_test = &staff["next_steps"][0];
    assert_eq!(load_test["replay_pilot_trace"], true);
    let aiperf = load_test["commands"][0]["command"].as_str().unwrap();
    assert!(
        aiperf.contains(&format!("--input-file pilot-{demo}-trace.jsonl")),
        "{aiperf}"
    );
    let candidates = staff["candidates"].as_array().unwrap();
    assert!(candidates.iter().all(|c| c["configuration"].is_object()
        && c.get("holds").is_some()
        && c.get("holds_n_plus_1").is_some()
        && c["cards"].is_u64()));

    // Both editions of the report name the same configuration as the API.
    let label = recommended["label"].as_str().unwrap();
    for (who, query) in [(&customer, ""), (&admin, "?edition=internal")] {
        let html = who
            .get(app.url(&format!("/pilots/{demo}/report.html{query}")))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let headline = html
            .split("id=\"recommendation-headline\">")
            .nth(1)
            .unwrap();
        assert!(
            headline.starts_with(&format!("Recommended: {label}.")),
            "{query}: {headline}"
        );
        assert!(
            html.contains("the pilot's busiest hour replayed")
                || html.contains("the pilot&#39;s busiest hour replayed"),
            "the demand table names its basis"
        );
    }
    // The pilot page names it too (the plan is kept now), for the customer as for staff.
    let fragment = app
        .call_ok(&customer, "page_pilot", &[("pilot_id", &demo.to_string())])
        .await;
    let page = fragment["html"].as_str().unwrap();
    let named = page
        .split("id=\"pilot-recommended\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no recommendation in {page}"));
    assert!(
        named[..named.len().min(400)].contains(&format!("<strong>{label}")),
        "{}",
        &named[..named.len().min(400)]
    );
    assert!(
        !page.contains("per month"),
        "no money on the customer's page"
    );
    // Both links into sizing carry the production demand the plan sized for: the pilot's own
    // hardware ("Size this pilot") and the recommended configuration.
    let demand_query = format!(
        "context={}&amp;sessions={}",
        demand["context_tokens_per_session"], demand["sessions"]["p99"]
    );
    let gpu = recommended["gpu_id"].as_str().unwrap();
    let recommended_link = page
        .split("id=\"recommended-sizing\" href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no sizing link for the recommendation in {page}"));
    assert!(
        recommended_link.starts_with("/sizing?model=qwen2.5-7b")
            && recommended_link.contains(&format!("gpu={gpu}"))
            && recommended_link.ends_with(&demand_query),
        "{recommended_link} ({demand_query})"
    );
    let own = page
        .split("\" title=\"The sizing what-if with this pilot")
        .next()
        .and_then(|before| before.rsplit("href=\"").next())
        .unwrap();
    assert!(
        own.starts_with("/sizing?model=qwen2.5-7b") && own.ends_with(&demand_query),
        "{own}"
    );
    let openapi = get(&app, &staff_token, "/api/v1/openapi.json").await.1;
    assert!(openapi["paths"]["/api/v1/pilots/{id}/recommendation"]["get"].is_object());

    // `server recommend --json` answers the object staff get.
    // The server's DATA_DIR: on SQLite the kept gateway log the demand replays is there.
    let output = server_binary()
        .args(["recommend", "--pilot", &demo.to_string(), "--json"])
        .env("DATABASE_URL", app.cli_database_url())
        .env("DATA_DIR", app.data_dir())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed, staff);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pilot_without_an_approved_plan_is_422_and_another_organisations_404() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Just started").await;
    let token = app.api_token(&admin).await;
    let (status, body) = get(
        &app,
        &token,
        &format!("/api/v1/pilots/{pilot}/recommendation"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("not approved"),
        "{body}"
    );
    let globex = app.organisation(&admin, "Globex").await;
    let outsider = app.user(&admin, "dan@globex.io", "customer", globex).await;
    let theirs = app.api_token(&outsider).await;
    let (status, _) = get(
        &app,
        &theirs,
        &format!("/api/v1/pilots/{pilot}/recommendation"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn after_the_start_up_warm_up_the_first_pilot_page_names_the_recommendation() {
    let (app, kept) = spawn_app_warmed().await;
    assert_eq!(kept, 1, "the demo pilot's plan is computed at start-up");
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let fragment = app
        .call_ok(&admin, "page_pilot", &[("pilot_id", &demo.to_string())])
        .await;
    let page = fragment["html"].as_str().unwrap();
    let named = page
        .split("id=\"pilot-recommended\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no recommendation in {page}"));
    assert!(
        named[..named.len().min(80)].contains("<strong>") && !page.contains("Being computed"),
        "{}",
        &named[..named.len().min(300)]
    );
}

/// Whether the pilot page's recommendation card names a configuration.
fn names_a_plan(page: &str) -> bool {
    page.split("id=\"pilot-recommended\"")
        .nth(1)
        .is_some_and(|named| named[..named.len().min(80)].contains("<strong>"))
}

async fn pilot_page_html(app: &TestApp, who: &reqwest::Client, pilot: &str) -> String {
    let fragment = app.call_ok(who, "page_pilot", &[("pilot_id", pilot)]).await;
    fragment["html"].as_str().unwrap().to_string()
}

/// Issue #36: a pilot whose evidence keeps changing (a running feed rolls records in every
/// second) keeps showing its latest recommendation, saying from when, while the new one is
/// simulated, instead of "Being computed" for every new state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changing_pilot_shows_its_latest_plan_saying_from_when() {
    let (app, kept) = spawn_app_warmed().await;
    assert_eq!(kept, 1);
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot").to_string();
    let first = pilot_page_html(&app, &admin, &demo).await;
    assert!(names_a_plan(&first), "{first}");
    assert!(!first.contains("as-of"));
    // A price is part of the plan's input: a new state, a new plan to simulate.
    for price in ["2.50", "2.60"] {
        app.call_ok(
            &admin,
            "set_gpu_price",
            &[
                ("id", "h100-sxm"),
                ("unit_price", ""),
                ("hour_price", price),
            ],
        )
        .await;
        let changed = pilot_page_html(&app, &admin, &demo).await;
        assert!(
            names_a_plan(&changed),
            "the latest plan stays named: {changed}"
        );
        assert!(
            changed.contains("From the evidence as it stood at"),
            "{changed}"
        );
        assert!(!changed.contains("Being computed"));
    }
}

/// Issue #39: the recommendation names only cards that can still be ordered, says which it
/// left out and why, brings them back on request, and carries the production start line,
/// the same in the API, the report and `server recommend`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_orderable_cards_are_recommended_with_the_start_line_to_run() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let token = app.api_token(&admin).await;
    let path = format!("/api/v1/pilots/{demo}/recommendation");

    let (status, plan) = get(&app, &token, &path).await;
    assert_eq!(status, StatusCode::OK, "{plan}");
    let recommended = &plan["recommended"];
    let gpu = recommended["configuration"]["gpu_id"].as_str().unwrap();
    assert_eq!(recommended["availability"]["status"], "current", "{gpu}");
    let left_out: Vec<&str> = plan["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["gpu_id"].as_str().unwrap())
        .collect();
    for id in [
        "v100-sxm2-16gb",
        "v100-sxm2-32gb",
        "a100-pcie-80gb",
        "a100-sxm4-80gb",
    ] {
        assert!(left_out.contains(&id), "{id} not in {left_out:?}");
    }
    assert!(
        plan["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| !left_out.contains(&c["configuration"]["gpu_id"].as_str().unwrap())),
        "a left-out card was simulated"
    );
    let v100 = plan["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["gpu_id"] == "v100-sxm2-16gb")
        .unwrap();
    assert_eq!(v100["reason"], "end of life since 2025-10-31");
    assert_eq!(v100["availability"]["status"], "end_of_life");
    let story = plan["story"].as_str().unwrap();
    assert!(
        story.contains(" Left out as no longer orderable: "),
        "{story}"
    );
    assert!(
        story.contains("NVIDIA Tesla V100 SXM2 16GB and NVIDIA Tesla V100 SXM2 32GB (end of life since 2025-10-31)"),
        "{story}"
    );
    // Issue #39's interface: the back-test, each candidate's physics, each estimate's error.
    let validation = plan["validation"]["metrics"].as_array().unwrap();
    assert_eq!(validation.len(), 4, "{}", plan["validation"]);
    assert!(validation.iter().all(|m| m["pairs"].as_u64() >= Some(3)));
    let chosen = plan["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rank"] == 1)
        .unwrap();
    let physics = &chosen["physics"];
    let floor = physics["tpot_floor_ms"].as_f64().unwrap();
    let ceiling = physics["decode_ceiling_tok_s"].as_f64().unwrap();
    assert!(
        floor > 0.0 && (floor * ceiling - 1000.0).abs() < 1e-6,
        "{physics}"
    );
    assert!(
        physics["ttft_floor_ms"].as_f64().unwrap() > 0.0,
        "{physics}"
    );
    let tpot = chosen["predicted"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "tpot_ms" && m["basis"] == "estimated");
    if let Some(tpot) = tpot {
        assert!(tpot["low"].as_f64().unwrap() >= floor - 1e-9, "{tpot}");
        assert!(
            tpot["backtested_error"]["median_error_pct"].as_f64() > Some(0.0),
            "{tpot}"
        );
    }
    let start = recommended["start_command"].as_str().unwrap();
    eprintln!(
        "default: {} — {start}",
        recommended["configuration"]["label"]
    );
    let context = plan["demand"]["context_tokens_per_session"]
        .as_u64()
        .unwrap();
    assert!(
        start.starts_with(
            "vllm serve Qwen/Qwen2.5-7B-Instruct --served-model-name RedHatAI/Qwen2.5-7B-Instruct "
        ) && start.contains(&format!("--max-model-len {context} "))
            && start.contains("--gpu-memory-utilization 0.9 ")
            && start.contains(&format!(
                "--tensor-parallel-size {} ",
                recommended["configuration"]["tp"]
            ))
            && start.contains(" --max-num-seqs "),
        "{start}"
    );

    // The option brings them back; a bad value is refused, naming the parameter.
    let (status, all) = get(&app, &token, &format!("{path}?include_unorderable=true")).await;
    assert_eq!(status, StatusCode::OK, "{all}");
    assert_eq!(all["left_out"], serde_json::json!([]));
    assert!(
        all["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["configuration"]["gpu_id"] == "v100-sxm2-16gb"),
        "the V100 is weighed again"
    );
    eprintln!(
        "with include_unorderable: {}",
        all["recommended"]["configuration"]["label"]
    );
    for query in ["include_unorderable=maybe", "include_all=true"] {
        let (status, body) = get(&app, &token, &format!("{path}?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with(query.split('=').next().unwrap()),
            "{body}"
        );
    }

    // The report shows the line in both languages, as a command block.
    for lang in ["en", "de"] {
        let html = admin
            .get(app.url(&format!("/pilots/{demo}/report.html?lang={lang}")))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let block = html
            .split("id=\"start-command\">")
            .nth(1)
            .unwrap_or_else(|| panic!("{lang}: no start command"));
        assert!(
            block.contains(&format!("<pre>{start}</pre>")),
            "{lang}: {block:.600}"
        );
        let label = if lang == "en" {
            "Production start command"
        } else {
            "Startbefehl der Produktion"
        };
        assert!(block.contains(label), "{lang}: {block:.300}");
    }

    // `server recommend` prints it; with --include-unorderable it weighs the V100 again.
    let recommend = |extra: &[&str]| {
        let output = server_binary()
            .args(["recommend", "--pilot", &demo.to_string()])
            .args(extra)
            .env("DATABASE_URL", app.cli_database_url())
            .env("DATA_DIR", app.data_dir())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    let printed = recommend(&[]);
    assert!(
        printed.contains(&format!("Start each copy with:\n  {start}\n")),
        "{printed}"
    );
    let printed: Value =
        serde_json::from_str(&recommend(&["--include-unorderable", "--json"])).unwrap();
    assert_eq!(printed["left_out"], serde_json::json!([]));
    assert_eq!(
        printed["recommended"]["configuration"],
        all["recommended"]["configuration"]
    );
}

/// Issue #37: the recommendation rests only on evidence the verdict accepts. The demo pilot's
/// own gateway logs withdrawn and one of another model in their place: the verdict marks the
/// traffic not comparable, and the recommendation, instead of sizing production from it, is
/// 422 saying which evidence it lacks; the pilot's logs restored, it is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traffic_the_verdict_rejects_sizes_nothing() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let token = app.api_token(&admin).await;
    let path = format!("/api/v1/pilots/{demo}/recommendation");
    let (status, before) = get(&app, &token, &path).await;
    assert_eq!(status, StatusCode::OK, "{before}");
    let post = |path: String, reason: &'static str| {
        client()
            .post(app.url(&path))
            .bearer_auth(&token)
            .json(&serde_json::json!({ "reason": reason }))
            .send()
    };

    let (_, register) = get(&app, &token, &format!("/api/v1/pilots/{demo}/evidence")).await;
    let own: Vec<i64> = register["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "gateway_log")
        .map(|f| f["id"].as_i64().unwrap())
        .collect();
    assert!(!own.is_empty(), "{register}");
    for id in &own {
        let path = format!("/api/v1/pilots/{demo}/evidence/{id}/withdraw");
        let response = post(path, "replaced for the test").await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
    let foreign = r#"{"request_id": "x1", "start_time": "2026-03-02T09:00:00Z", "end_time": "2026-03-02T09:00:10Z", "model": "other-vendor/another-model-70b", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}"#;
    let response = app
        .upload_evidence(
            &token,
            demo,
            "other-model.jsonl",
            format!("{foreign}\n").into_bytes(),
            &[],
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let uploaded: Value = response.json().await.unwrap();
    let (status, refused) = get(&app, &token, &path).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.contains("The gateway traffic is not this pilot's")
            && error.contains("other-vendor/another-model-70b")
            && error.contains("Upload the pilot's own gateway log, or withdraw this one."),
        "{error}"
    );

    let id = uploaded["id"].as_i64().unwrap();
    let path_withdraw = format!("/api/v1/pilots/{demo}/evidence/{id}/withdraw");
    let response = post(path_withdraw, "another model's traffic")
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    for id in &own {
        let path = format!("/api/v1/pilots/{demo}/evidence/{id}/restore");
        let response = post(path, "the pilot's own traffic").await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
    let (status, after) = get(&app, &token, &path).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["recommended"], before["recommended"]);
}
