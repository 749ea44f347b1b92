//! No stored row can break a page (#21): every page, report and API of a pilot answers
//! without a 5xx (a) after any upload the importers accept, over mutated real files, and (b)
//! with stored rows that do not read (as an older release could have written them), which are
//! left out and named on the pilot's pages instead.

use crate::helpers::{TestApp, client, spawn_app};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::path::PathBuf;

fn fixture(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// xorshift64*: a fixed seed, so a failure names a case that can be run again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Numbers at and past the edges of what each field may hold.
const EXTREMES: [&str; 14] = [
    "0",
    "-12.5",
    "1e308",
    "-1e308",
    "1e-300",
    "9007199254740993",
    "1e18",
    "1e15",
    "7.5",
    "-1",
    "0.999999",
    "4294967296",
    "123456789.123",
    "2",
];

/// `text` with `mutations` of its numbers replaced by extremes.
fn mutate(text: &str, rng: &mut Rng, mutations: usize) -> String {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if starts {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || b".eE+-".contains(&bytes[i])) {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    let mut chosen: Vec<(usize, usize)> = (0..mutations.min(spans.len()))
        .map(|_| spans[rng.below(spans.len())])
        .collect();
    chosen.sort();
    chosen.dedup();
    let mut out = text.to_string();
    for (start, end) in chosen.into_iter().rev() {
        out.replace_range(start..end, EXTREMES[rng.below(EXTREMES.len())]);
    }
    out
}

fn gateway_line(rng: &mut Rng, i: usize) -> String {
    let start = 1_772_442_000 + 60 * i as i64;
    let numbers: Vec<String> = (0..3)
        .map(|_| EXTREMES[rng.below(EXTREMES.len())].to_string())
        .collect();
    let start_field = if rng.below(4) == 0 {
        numbers[0].clone()
    } else {
        start.to_string()
    };
    format!(
        r#"{{"request_id": "r{i}", "start_time": {start_field}, "end_time": {}, "model": "qwen3-8b", "status": "ok", "prompt_tokens": {}, "completion_tokens": {}}}"#,
        start + 5,
        numbers[1],
        numbers[2]
    )
}

/// Every page and API of `pilot`; each must answer below 500.
async fn visit_everything(app: &TestApp, who: &Client, pilot: i64, case: &str) -> usize {
    let paths = [
        format!("/pilots/{pilot}"),
        format!("/pilots/{pilot}/plan"),
        format!("/pilots/{pilot}/load-tests"),
        format!("/pilots/{pilot}/traffic"),
        format!("/pilots/{pilot}/quality"),
        format!("/pilots/{pilot}/evidence"),
        format!("/pilots/{pilot}/calibration"),
        format!("/pilots/{pilot}/report"),
        format!("/pilots/{pilot}/report.html"),
        format!("/pilots/{pilot}/traffic/trace.jsonl"),
        format!("/api/v1/pilots/{pilot}/verdict"),
        format!("/api/v1/pilots/{pilot}/plan"),
        format!("/api/v1/pilots/{pilot}/demand"),
        format!("/api/v1/pilots/{pilot}/operating-points"),
        format!("/api/v1/pilots/{pilot}/quality"),
        format!("/api/v1/pilots/{pilot}/evidence"),
        format!("/api/v1/pilots/{pilot}/recommendation"),
        format!("/api/v1/pilots/{pilot}/predict?concurrency=4"),
        "/api/v1/pilots".to_string(),
        "/".to_string(),
    ];
    for path in &paths {
        let response = who.get(app.url(path)).send().await.unwrap();
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        assert!(
            status.as_u16() < 500,
            "{case}: GET {path} answered {status}: {body:.400}"
        );
    }
    paths.len()
}

async fn upload(
    app: &TestApp,
    token: &str,
    pilot: i64,
    name: &str,
    body: String,
    kind: &str,
) -> (StatusCode, Value) {
    let fields: &[(&str, &str)] = if kind.is_empty() {
        &[]
    } else {
        &[("kind", kind)]
    };
    let response = app
        .upload_evidence(token, pilot, name, body.into_bytes(), fields)
        .await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Mutated files uploaded (a third each: vllm bench result, /metrics scrape, gateway log);
/// the test prints how many were accepted and refused and the requests made (README).
pub const CASES: usize = 120;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_accepted_upload_makes_any_page_of_its_pilot_answer_500() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let token = app.api_token(&admin).await;
    let org = app.organisation(&admin, "Fuzz Corp").await;
    let customer = app.user(&admin, "fay@fuzz.example", "customer", org).await;
    let pilot = app.pilot(&admin, org, "Fuzzed").await;
    let bench = fixture("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let scrape = fixture("er0080-vllm-benchmarking/metrics_vllm_0_25_1_loaded.txt");
    let mut rng = Rng(0x5EED_2026_1201);
    let (mut accepted, mut refused, mut requests) = (0, 0, 0);
    for case in 0..CASES {
        let (name, body, kind) = match case % 3 {
            0 => (
                format!("bench-{case}.json"),
                mutate(&bench, &mut rng, 1 + case % 4),
                "",
            ),
            1 => (
                format!("metrics-{case}.txt"),
                mutate(&scrape, &mut rng, 1 + case % 4),
                "metrics_scrape",
            ),
            _ => {
                let lines: Vec<String> = (0..4).map(|i| gateway_line(&mut rng, i)).collect();
                (
                    format!("gateway-{case}.jsonl"),
                    lines.join("\n") + "\n",
                    "gateway_log",
                )
            }
        };
        let (status, answer) = upload(&app, &token, pilot, &name, body, kind).await;
        assert!(
            status.as_u16() < 500,
            "case {case} ({name}): upload answered {status}: {answer}"
        );
        if status == StatusCode::CREATED {
            accepted += 1;
            let who = if case % 2 == 0 { &admin } else { &customer };
            requests += visit_everything(&app, who, pilot, &format!("case {case} ({name})")).await;
        } else {
            refused += 1;
            assert!(
                answer["error"].as_str().is_some_and(|e| !e.is_empty()),
                "case {case}: {status} without a message: {answer}"
            );
        }
    }
    eprintln!(
        "render fuzz: {CASES} cases, {accepted} accepted, {refused} refused, {requests} page/API requests, 0 failures"
    );
    assert!(
        accepted > 0 && refused > 0,
        "the cases exercise both paths: {accepted} accepted, {refused} refused"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_that_do_not_read_are_left_out_and_named_never_a_500() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let organisation = app
        .store
        .pilot(demo)
        .await
        .unwrap()
        .unwrap()
        .organisation_id;
    let customer = app
        .user(&admin, "cleo@demo.example", "customer", organisation)
        .await;
    // What an older release stored for a scrape summed past the largest float, and rows of
    // every other kind whose summary no longer reads.
    let admin_id = app.store.list_users().await.unwrap()[0].id;
    for (i, kind) in [
        "metrics_scrape",
        "load_test",
        "gateway_log",
        "vllm_startup_log",
        "eval_run",
        "lm_eval_results",
    ]
    .into_iter()
    .enumerate()
    {
        app.store
            .create_evidence(desk::store::evidence::NewEvidence {
                pilot_id: demo,
                kind: kind.parse().unwrap(),
                file_name: &format!("broken-{kind}.txt"),
                sha256: &format!("{i:064}"),
                size_bytes: 10,
                summary_json: r#"{"report": {"requests_succeeded": null}, "import": null, "points": [null]}"#,
                uploaded_by: admin_id,
            })
            .await
            .unwrap();
    }
    for who in [&admin, &customer] {
        visit_everything(&app, who, demo, "unreadable rows").await;
    }
    let page = app.page(&customer, &format!("/pilots/{demo}")).await;
    assert!(
        page.contains("could not be read and are left out"),
        "the pilot page names them"
    );
    assert!(page.contains("broken-metrics_scrape.txt"));
    // The remedy works: withdrawn, they are no longer named.
    let token = app.api_token(&admin).await;
    let (_, register) = {
        let response = client()
            .get(app.url(&format!("/api/v1/pilots/{demo}/evidence")))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        (response.status(), response.json::<Value>().await.unwrap())
    };
    for file in register["files"].as_array().unwrap() {
        if file["file_name"].as_str().unwrap().starts_with("broken-") {
            let id = file["id"].as_i64().unwrap();
            let response = client()
                .post(app.url(&format!("/api/v1/pilots/{demo}/evidence/{id}/withdraw")))
                .bearer_auth(&token)
                .json(&serde_json::json!({"reason": "unreadable summary"}))
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                StatusCode::OK,
                "{}",
                response.text().await.unwrap()
            );
        }
    }
    let page = app.page(&customer, &format!("/pilots/{demo}")).await;
    assert!(!page.contains("could not be read"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_of_an_unknown_kind_is_left_out_and_named_never_a_500() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let demo = app.demo_pilot.expect("demo pilot");
    let admin_id = app.store.list_users().await.unwrap()[0].id;
    let id = app
        .store
        .create_evidence(desk::store::evidence::NewEvidence {
            pilot_id: demo,
            kind: desk::model::EvidenceKind::LoadTest,
            file_name: "from-a-newer-release.bin",
            sha256: &format!("{:064}", 7),
            size_bytes: 10,
            summary_json: "{}",
            uploaded_by: admin_id,
        })
        .await
        .unwrap();
    // What a newer release could have stored: a kind this one does not know.
    {
        use sqlx::Connection;
        sqlx::any::install_default_drivers();
        let mut db = sqlx::AnyConnection::connect(&app.cli_database_url())
            .await
            .unwrap();
        sqlx::query("UPDATE evidence SET kind = 'sbom' WHERE id = $1")
            .bind(id)
            .execute(&mut db)
            .await
            .unwrap();
    }
    visit_everything(&app, &admin, demo, "unknown kind").await;
    let page = app.page(&admin, &format!("/pilots/{demo}")).await;
    assert!(
        page.contains("could not be read and are left out"),
        "the pilot page names it"
    );
    assert!(page.contains("from-a-newer-release.bin"));
}
