//! Quality evidence: evaluation sets, runs per precision and lm-eval results uploaded through
//! the REST API, scored on the page, the server function and `GET /api/v1/pilots/{id}/quality`.

use crate::helpers::{TestApp, client, spawn_app};
use reqwest::StatusCode;
use serde_json::Value;

/// Four questions; `d` has no accepted passage (its retrieval cannot be scored).
const SET: &str = "\
id,question,accepted_answer,accepted_passages
a,How do I reset my password?,Use Forgot password,p1
b,How long are invoices kept?,Seven years,p2
c,What is the attachment limit?,25 MB,p3
d,Say hello,Hello,
";

/// BF16: a, b, d right; c wrong; d stopped at the token limit. Retrieval (k = 2): a and b hit,
/// c misses.
const RUN_BF16: &str = "\
id,answer,correct,retrieved,finish_reason
a,Use Forgot password,true,p1|x,stop
b,Seven years,true,x|p2,stop
c,250 MB,false,x|y,stop
d,Hello,true,,length
";

/// FP8: b flips right → wrong, c wrong → right.
const RUN_FP8: &str = "\
id,answer,correct,retrieved,finish_reason
a,Use Forgot password,true,p1|x,stop
b,Ten years,false,x|p2,stop
c,25 MB,true,x|y,stop
d,Hello,true,,stop
";

const LM_EVAL: &str = r#"{
  "results": {"gsm8k": {"alias": "gsm8k", "exact_match,strict-match": 0.75, "exact_match_stderr,strict-match": 0.0119}},
  "versions": {"gsm8k": 3},
  "config": {"model": "vllm"},
  "model_name": "Qwen/Qwen3-8B"
}"#;

struct Setup {
    app: TestApp,
    admin: reqwest::Client,
    token: String,
    pilot: i64,
    http: reqwest::Client,
}

async fn setup() -> Setup {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let acme = app.organisation(&admin, "Acme Corp").await;
    let pilot = app.pilot(&admin, acme, "Acme quality").await;
    let token = app.api_token(&admin).await;
    Setup {
        app,
        admin,
        token,
        pilot,
        http: client(),
    }
}

impl Setup {
    async fn upload(&self, name: &str, body: &str, fields: &[(&str, &str)]) -> (StatusCode, Value) {
        let response = self
            .app
            .upload_evidence(
                &self.token,
                self.pilot,
                name,
                body.as_bytes().to_vec(),
                fields,
            )
            .await;
        let status = response.status();
        (status, response.json().await.unwrap())
    }

    async fn quality(&self) -> Value {
        let response = self
            .http
            .get(
                self.app
                    .url(&format!("/api/v1/pilots/{}/quality", self.pilot)),
            )
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    async fn evidence_count(&self) -> usize {
        self.app
            .store
            .list_evidence(self.pilot, None)
            .await
            .unwrap()
            .len()
    }
}

fn close(value: &Value, expected: f64) {
    let got = value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"));
    assert!((got - expected).abs() < 1e-9, "{got} ≠ {expected}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_and_two_runs_are_scored_and_compared() {
    let s = setup().await;
    let (status, body) = s.upload("set.csv", SET, &[("kind", "eval_set")]).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["kind"], "eval_set");
    assert_eq!(body["summary"]["items"].as_array().unwrap().len(), 4);
    let set_id = body["id"].as_i64().unwrap();

    let run = |name: &'static str, text: &'static str, precision: &'static str| {
        let s = &s;
        async move {
            s.upload(
                name,
                text,
                &[
                    ("kind", "eval_run"),
                    ("weights_precision", precision),
                    ("kv_precision", "fp8"),
                    ("engine_version", "0.10.2"),
                ],
            )
            .await
        }
    };
    let (status, body) = run("run-bf16.csv", RUN_BF16, "BF16").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["kind"], "eval_run");
    assert_eq!(body["summary"]["set_evidence_id"], set_id);
    assert_eq!(body["summary"]["model"], "Qwen/Qwen3-8B", "from the pilot");
    assert_eq!(body["summary"]["engine_version"], "0.10.2", "from the form");
    let bf16 = body["id"].as_i64().unwrap();
    let (status, body) = run("run-fp8.csv", RUN_FP8, "FP8").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let fp8 = body["id"].as_i64().unwrap();

    let (status, body) = s.upload("results.json", LM_EVAL, &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["kind"], "lm_eval_results", "detected without a kind");

    let api = s.quality().await;
    assert_eq!(api["set"]["questions"], 4);
    let runs = api["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    let first = &runs[1];
    assert_eq!(first["evidence_id"], bf16);
    assert_eq!(first["precision"], "BF16");
    assert_eq!(first["items"], 4);
    close(&first["accuracy"]["value"], 0.75);
    let (low, high) = (
        first["accuracy"]["low"].as_f64().unwrap(),
        first["accuracy"]["high"].as_f64().unwrap(),
    );
    assert!(
        low < 0.75 && 0.75 < high && low > 0.0 && high <= 1.0,
        "{low}–{high}"
    );
    assert_eq!(first["k"], 2, "the run's depth without a plan");
    close(&first["retrieval_hit_rate"]["value"], 2.0 / 3.0);
    assert_eq!(first["retrieval_hit_rate"]["n"], 3, "d has no passage");
    assert_eq!(first["truncated"], 1);
    close(&first["truncation_rate"], 0.25);
    assert_eq!(first["wrong_without_passage"], serde_json::json!(["c"]));
    assert!(first["passed"].is_null(), "no plan, no verdict");
    assert_eq!(runs[0]["evidence_id"], fp8);
    close(&runs[0]["accuracy"]["value"], 0.75);
    assert_eq!(runs[0]["truncated"], 0);

    let comparison = &api["comparison"];
    assert_eq!(comparison["a"], bf16);
    assert_eq!(comparison["b"], fp8);
    assert_eq!(comparison["right_to_wrong"], serde_json::json!(["b"]));
    assert_eq!(comparison["wrong_to_right"], serde_json::json!(["c"]));
    close(&comparison["difference"]["value"], 0.0);
    close(&comparison["mcnemar_p"], 1.0);
    let lm = &api["lm_eval"][0]["metrics"][0];
    assert_eq!(lm["task"], "gsm8k");
    close(&lm["value"], 0.75);
    assert!(
        api["lm_eval"][0]["not_comparable"].is_null(),
        "the pilot's model"
    );
    // Another model's lm-eval results: shown with their model, marked not comparable.
    let other = LM_EVAL.replace("Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct");
    let (status, body) = s.upload("llama-results.json", &other, &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let api = s.quality().await;
    let llama = api["lm_eval"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["file_name"] == "llama-results.json")
        .unwrap();
    assert!(
        llama["not_comparable"]
            .as_str()
            .unwrap()
            .contains("Llama-3.1-8B-Instruct"),
        "{llama}"
    );
    let page = s
        .app
        .call_ok(
            &s.admin,
            "page_quality",
            &[("pilot_id", &s.pilot.to_string())],
        )
        .await;
    let html = page["html"].as_str().unwrap();
    assert!(
        html.contains("meta-llama/Llama-3.1-8B-Instruct (not the pilot&#x27;s)")
            || html.contains("meta-llama/Llama-3.1-8B-Instruct (not the pilot's)"),
        "{html}"
    );
    assert!(html.contains("Not comparable: the lm-eval results llama-results.json"));

    // The server function, with the runs chosen the other way round.
    let overview = s
        .app
        .call_ok(
            &s.admin,
            "quality_overview",
            &[
                ("pilot_id", &s.pilot.to_string()),
                ("a", &fp8.to_string()),
                ("b", &bf16.to_string()),
            ],
        )
        .await;
    assert_eq!(
        overview["comparison"]["comparison"]["right_to_wrong"],
        serde_json::json!(["c"])
    );
    assert_eq!(overview["drill_down_run"], bf16);
    let items = overview["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[2]["answer"], "250 MB");
    assert_eq!(items[2]["hit"], false);
    assert!(items[3]["hit"].is_null());
    assert_eq!(items[3]["truncated"], true);

    // The page.
    let page = s
        .admin
        .get(s.app.url(&format!("/pilots/{}/quality", s.pilot)))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    for expected in [
        "75.0 %",
        "66.7 %",
        "25.0 %",
        "Right → wrong",
        "What is the attachment limit?",
        "Ten years",
        "gsm8k",
        "BF16 / fp8",
    ] {
        assert!(html.contains(expected), "page lacks {expected}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_quality_uploads_are_refused_and_write_nothing() {
    let s = setup().await;
    let (status, body) = s
        .upload(
            "run.csv",
            RUN_BF16,
            &[("kind", "eval_run"), ("weights_precision", "BF16")],
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("no evaluation set"),
        "{body}"
    );

    let refused = [
        (
            "set.csv",
            "id,question,accepted_answer\na,Q,A\n,Q2,A2\n",
            "eval_set",
            &["set.csv line 3", "id"][..],
        ),
        (
            "set.csv",
            "id,question,accepted_answer\na,Q,A\na,Q2,A2\n",
            "eval_set",
            &["set.csv line 3", "a"][..],
        ),
        ("set.csv", "", "eval_set", &["set.csv"][..]),
    ];
    for (name, text, kind, needles) in refused {
        let (status, body) = s.upload(name, text, &[("kind", kind)]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let error = body["error"].as_str().unwrap();
        for needle in needles {
            assert!(error.contains(needle), "{error} lacks {needle}");
        }
    }
    assert_eq!(s.evidence_count().await, 0);

    let (status, _) = s.upload("set.csv", SET, &[("kind", "eval_set")]).await;
    assert_eq!(status, StatusCode::CREATED);
    let runs = [
        (
            "id,answer,score\na,x,0.5\nz,y,1\n",
            &["run.csv line 3", "z"][..],
        ),
        (
            "id,answer,score\na,x,1.5\n",
            &["run.csv line 2", "score"][..],
        ),
        ("id,answer,score\na,x,1\na,y,0\n", &["run.csv line 3"][..]),
        ("answer,score\nx,1\n", &["run.csv", "id"][..]),
    ];
    for (text, needles) in runs {
        let (status, body) = s
            .upload(
                "run.csv",
                text,
                &[("kind", "eval_run"), ("weights_precision", "FP8")],
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let error = body["error"].as_str().unwrap();
        for needle in needles {
            assert!(error.contains(needle), "{error} lacks {needle}");
        }
    }
    let (status, body) = s.upload("run.csv", RUN_BF16, &[("kind", "eval_run")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("weights_precision")
    );
    assert_eq!(s.evidence_count().await, 1, "only the set");
    assert_eq!(s.quality().await["runs"].as_array().unwrap().len(), 0);

    // A CSV without a kind is never taken for an evaluation file.
    let (status, _) = s
        .upload("set2.csv", "id,question,accepted_answer\nx,Q,A\n", &[])
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(s.evidence_count().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quality_api_needs_a_token_and_a_visible_pilot() {
    let s = setup().await;
    let url = s.app.url(&format!("/api/v1/pilots/{}/quality", s.pilot));
    let anonymous = s.http.get(&url).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);

    let other = s.app.organisation(&s.admin, "Other Corp").await;
    let carol = s
        .app
        .user(&s.admin, "carol@other.example", "customer", other)
        .await;
    let carol_token = s.app.api_token(&carol).await;
    let hidden = s
        .http
        .get(&url)
        .bearer_auth(&carol_token)
        .send()
        .await
        .unwrap();
    assert_eq!(hidden.status(), StatusCode::NOT_FOUND);
    let missing = s
        .http
        .get(s.app.url("/api/v1/pilots/999999/quality"))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let empty = s.quality().await;
    assert_eq!(empty["runs"], serde_json::json!([]));
    let page = s
        .admin
        .get(s.app.url(&format!("/pilots/{}/quality", s.pilot)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("No evaluation run yet"));
    assert!(page.contains("kind=eval_set"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_pilot_has_an_evaluation_set_and_two_precision_runs() {
    let s = setup().await;
    let demo = s.app.demo_pilot.expect("a demo pilot");
    let response = s
        .http
        .get(s.app.url(&format!("/api/v1/pilots/{demo}/quality")))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let api: Value = response.json().await.unwrap();
    assert_eq!(api["set"]["questions"], 12);
    let runs = api["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["precision"], "AWQ-INT4");
    assert_eq!(runs[1]["precision"], "FP16");
    close(&runs[1]["accuracy"]["value"], 10.0 / 12.0);
    close(&runs[0]["accuracy"]["value"], 9.0 / 12.0);
    close(&runs[0]["retrieval_hit_rate"]["value"], 11.0 / 12.0);
    assert_eq!(runs[0]["truncated"], 1);
    assert_eq!(
        api["comparison"]["right_to_wrong"],
        serde_json::json!(["q04", "q09"])
    );
    assert_eq!(
        api["comparison"]["wrong_to_right"],
        serde_json::json!(["q11"])
    );
    assert!(
        runs[0]["passed"].is_null(),
        "the demo plan has no quality marks"
    );
}

/// FP8 with two answers wrong: 50 %, below a 70 % answer-score mark that BF16 (75 %) meets.
const RUN_FP8_WORSE: &str = "\
id,answer,correct,retrieved,finish_reason
a,Use Forgot password,true,p1|x,stop
b,Ten years,false,x|p2,stop
c,250 MB,false,x|y,stop
d,Hello,true,,stop
";

impl Setup {
    fn id(&self) -> String {
        self.pilot.to_string()
    }

    async fn eval_set(&self, who: &reqwest::Client, version: &str) -> reqwest::Response {
        self.app
            .call(
                who,
                "get_eval_set",
                &[("pilot_id", &self.id()), ("version", version)],
            )
            .await
    }

    async fn save_row(
        &self,
        version: u32,
        revision: i64,
        index: &str,
        row: [&str; 4],
    ) -> reqwest::Response {
        let (version, revision) = (version.to_string(), revision.to_string());
        self.app
            .call(
                &self.admin,
                "save_eval_item",
                &[
                    ("pilot_id", &self.id()),
                    ("version", &version),
                    ("revision", &revision),
                    ("index", index),
                    ("item_id", row[0]),
                    ("question", row[1]),
                    ("accepted_answer", row[2]),
                    ("accepted_passages", row[3]),
                ],
            )
            .await
    }

    /// (number, approved, revision, questions) of every version, oldest first.
    async fn versions(&self) -> Vec<(u32, bool, i64, usize)> {
        let page: Value = self.eval_set(&self.admin, "").await.json().await.unwrap();
        page["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["number"].as_u64().unwrap() as u32,
                    v["approved"].as_bool().unwrap(),
                    v["revision"].as_i64().unwrap(),
                    v["set"]["items"].as_array().unwrap().len(),
                )
            })
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_versions_are_edited_as_drafts_frozen_on_approval_and_runs_record_their_version() {
    use sqlx::Connection;
    let s = setup().await;
    let (status, body) = s.upload("set.csv", SET, &[("kind", "eval_set")]).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert!(
        body["note"].as_str().unwrap().contains("draft version 1"),
        "{body}"
    );
    assert_eq!(s.versions().await, vec![(1, false, 1, 4)]);

    // The draft is edited row by row; errors name the row and the field.
    let added = s
        .save_row(
            1,
            1,
            "",
            ["e", "Where is the VPN guide?", "On the wiki", "p5 | p6"],
        )
        .await;
    assert_eq!(added.status(), StatusCode::OK);
    assert_eq!(s.versions().await, vec![(1, false, 2, 5)]);
    let duplicate = s.save_row(1, 2, "4", ["a", "Q", "A", ""]).await;
    assert_eq!(duplicate.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let error = duplicate.text().await.unwrap();
    assert!(
        error.contains("row 5, id: \\\"a\\\" is already the id of row 1"),
        "{error}"
    );
    let blank = s.save_row(1, 2, "", ["f", " ", "A", ""]).await;
    assert!(blank.text().await.unwrap().contains("row 6, question"));
    let stale = s.save_row(1, 1, "0", ["a", "Q", "A", ""]).await;
    assert_eq!(stale.status(), StatusCode::CONFLICT, "an old revision");

    // The first run is read against the draft and approves it.
    let (status, body) = s
        .upload(
            "run-bf16.csv",
            RUN_BF16,
            &[("kind", "eval_run"), ("weights_precision", "BF16")],
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["summary"]["set_version"], 1);
    assert!(
        body["note"].as_str().unwrap().contains("now approved"),
        "{body}"
    );
    assert_eq!(s.versions().await, vec![(1, true, 2, 5)]);

    // Approved means frozen: the server function, the store and the database refuse.
    let frozen = s.save_row(1, 2, "0", ["a", "Q", "A", ""]).await;
    assert_eq!(frozen.status(), StatusCode::CONFLICT);
    assert!(frozen.text().await.unwrap().contains("frozen"));
    let mut conn = sqlx::AnyConnection::connect(&s.app.cli_database_url())
        .await
        .unwrap();
    for sql in [
        "UPDATE eval_set_versions SET items = '{\"items\":[]}' WHERE number = 1",
        "UPDATE eval_set_versions SET status = 'draft', approved_ms = NULL, approved_by = NULL WHERE number = 1",
    ] {
        let refused = sqlx::Executor::execute(&mut conn, sql).await;
        assert!(refused.is_err(), "{sql} was accepted");
        assert!(refused.unwrap_err().to_string().contains("frozen"), "{sql}");
    }
    conn.close().await.unwrap();
    assert_eq!(s.versions().await, vec![(1, true, 2, 5)]);

    // A change is a new version from the latest; runs stay on the approved one until it is
    // approved.
    let started = s
        .app
        .call_ok(&s.admin, "new_eval_set_version", &[("pilot_id", &s.id())])
        .await;
    assert_eq!(started, 2);
    let again = s
        .app
        .call(&s.admin, "new_eval_set_version", &[("pilot_id", &s.id())])
        .await;
    assert_eq!(again.status(), StatusCode::CONFLICT, "one draft at a time");
    let removed = s
        .app
        .call(
            &s.admin,
            "remove_eval_item",
            &[
                ("pilot_id", &s.id()),
                ("version", "2"),
                ("revision", "1"),
                ("index", "4"),
            ],
        )
        .await;
    assert_eq!(removed.status(), StatusCode::OK);
    assert_eq!(s.versions().await, vec![(1, true, 2, 5), (2, false, 2, 4)]);
    let (status, body) = s
        .upload(
            "run-fp8.csv",
            RUN_FP8,
            &[("kind", "eval_run"), ("weights_precision", "FP8")],
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["summary"]["set_version"], 1, "the latest approved");
    let approved = s
        .app
        .call(
            &s.admin,
            "approve_eval_set",
            &[("pilot_id", &s.id()), ("version", "2"), ("revision", "2")],
        )
        .await;
    assert!(approved.status().is_success(), "{}", approved.status());
    let api = s.quality().await;
    assert_eq!(api["set"]["version"], 2);
    assert_eq!(api["set"]["questions"], 4);
    assert_eq!(api["runs"][0]["set_version"], 1);
    assert_eq!(api["runs"][1]["set_version"], 1);
    close(&api["runs"][1]["accuracy"]["value"], 0.75);

    // Customers see approved versions of their own organisation's pilots only.
    let acme = s
        .app
        .store
        .pilot(s.pilot)
        .await
        .unwrap()
        .unwrap()
        .organisation_id;
    let carol = s
        .app
        .user(&s.admin, "carol@acme.example", "customer", acme)
        .await;
    let page: Value = s.eval_set(&carol, "").await.json().await.unwrap();
    assert_eq!(page["versions"].as_array().unwrap().len(), 2);
    assert_eq!(page["can_edit"], false);
    let other = s.app.organisation(&s.admin, "Other Corp").await;
    let dave = s
        .app
        .user(&s.admin, "dave@other.example", "customer", other)
        .await;
    assert_eq!(s.eval_set(&dave, "").await.status(), StatusCode::NOT_FOUND);
    for endpoint in ["quality_decision"] {
        let hidden = s.app.call(&dave, endpoint, &[("pilot_id", &s.id())]).await;
        assert_eq!(hidden.status(), StatusCode::NOT_FOUND, "{endpoint}");
    }
    let edit = s
        .app
        .call(
            &carol,
            "save_eval_item",
            &[
                ("pilot_id", &s.id()),
                ("version", "2"),
                ("revision", "2"),
                ("index", ""),
                ("item_id", "x"),
                ("question", "Q"),
                ("accepted_answer", "A"),
                ("accepted_passages", ""),
            ],
        )
        .await;
    assert_eq!(
        edit.status(),
        StatusCode::NOT_FOUND,
        "customers do not edit"
    );

    // The set page.
    let html = s
        .admin
        .get(
            s.app
                .url(&format!("/pilots/{}/quality/set?version=1", s.pilot)),
        )
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("Where is the VPN guide?"),
        "version 1 has row e"
    );
    assert!(html.contains("Approved"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plan_s_answer_score_mark_passes_one_precision_and_fails_the_other() {
    let s = setup().await;
    s.upload("set.csv", SET, &[("kind", "eval_set")]).await;
    for (name, text, precision) in [
        ("run-bf16.csv", RUN_BF16, "BF16"),
        ("run-fp8.csv", RUN_FP8_WORSE, "FP8"),
    ] {
        let (status, body) = s
            .upload(
                name,
                text,
                &[("kind", "eval_run"), ("weights_precision", precision)],
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let api = s.quality().await;
    assert!(api["runs"][0]["passed"].is_null(), "no plan yet");
    assert!(api["decision"]["decided"].is_null());
    assert!(
        api["decision"]["reason"]
            .as_str()
            .unwrap()
            .contains("no quality pass mark"),
        "{}",
        api["decision"]["reason"]
    );

    // A plan with answer score ≥ 70 % on the evaluation set.
    let id = s.id();
    s.app
        .call_ok(
            &s.admin,
            "create_plan",
            &[("pilot_id", &id), ("template", "empty")],
        )
        .await;
    s.app
        .call_ok(
            &s.admin,
            "save_pass_mark",
            &[
                ("pilot_id", &id),
                ("version", "1"),
                ("revision", "1"),
                ("index", ""),
                ("metric", "answer_score"),
                ("custom_name", ""),
                ("statistic", "rate"),
                ("comparator", "ge"),
                ("threshold", "70"),
                ("unit", "percent"),
                ("point", "evaluation_set"),
                ("definition", ""),
                ("scope", "all_traffic"),
                ("rationale", ""),
            ],
        )
        .await;
    let approved = s
        .app
        .call(
            &s.admin,
            "approve_plan",
            &[("pilot_id", &id), ("version", "1"), ("revision", "2")],
        )
        .await;
    assert!(approved.status().is_success(), "{}", approved.status());

    let api = s.quality().await;
    let runs = api["runs"].as_array().unwrap();
    assert_eq!(runs[0]["precision"], "FP8");
    assert_eq!(runs[0]["passed"], false, "50 % misses ≥ 70 %");
    assert_eq!(runs[1]["precision"], "BF16");
    assert_eq!(runs[1]["passed"], true, "75 % meets ≥ 70 %");
    assert_eq!(runs[1]["marks"][0]["verdict"], "pass");
    let decision = &api["decision"];
    assert_eq!(decision["passing"], serde_json::json!(["BF16"]));
    assert_eq!(decision["failing"], serde_json::json!(["FP8"]));
    assert_eq!(decision["decided"], "BF16");
    let reason = decision["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("BF16 chosen: answer score 75 % (95 % CI "),
        "{reason}"
    );
    assert!(reason.contains("meets ≥ 70 %"), "{reason}");
    assert!(reason.contains("FP8 failed"), "{reason}");

    // The server function the pilot page uses, and the sizing link it builds.
    let decision = s
        .app
        .call_ok(&s.admin, "quality_decision", &[("pilot_id", &id)])
        .await;
    assert_eq!(decision["decided"], "BF16");
    let html = s
        .admin
        .get(s.app.url(&format!("/pilots/{}", s.pilot)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("precisions=bf16"), "the sizing link");
    let quality = s
        .admin
        .get(s.app.url(&format!("/pilots/{}/quality", s.pilot)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(quality.contains("Decided: BF16"));
}
