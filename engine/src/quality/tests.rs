//! Hand-computed tests of the quality engine (interval values checked to 4 decimals).

use super::*;

const SET_CSV: &str = "id,question,accepted_answer,accepted_passages
q1,Who?,Ada,p1
q2,What?,Tea,p2|p3
q3,When?,1999,p4
q4,Why?,Because,
";

const RUN_CSV: &str = "id,answer,correct,retrieved,finish_reason
q1,Ada,true,p1|p9,stop
q2,Coffee,false,p9|p2,length
q3,2001,no,p9,
q4,Because,1,p5,stop
";

fn set() -> EvalSet {
    parse_set_csv("set.csv", SET_CSV).unwrap()
}

fn run() -> EvalRun {
    parse_run_csv("run.csv", RUN_CSV, &set()).unwrap()
}

fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn bounds(e: &Estimate) -> (f64, f64) {
    (r4(e.low.unwrap()), r4(e.high.unwrap()))
}

#[test]
fn set_csv_parses_passages() {
    let set = set();
    assert_eq!(set.items.len(), 4);
    assert_eq!(set.items[1].accepted_passages, vec!["p2", "p3"]);
    assert!(set.items[3].accepted_passages.is_empty());
}

#[test]
fn set_and_run_jsonl_match_csv() {
    let jsonl = r#"{"id":"q1","question":"Who?","accepted_answer":"Ada","accepted_passages":["p1"]}

{"id":"q2","question":"What?","accepted_answer":"Tea","accepted_passages":"p2|p3"}
{"id":"q3","question":"When?","accepted_answer":"1999","accepted_passages":["p4"]}
{"id":"q4","question":"Why?","accepted_answer":"Because"}
"#;
    assert_eq!(parse_set_jsonl("set.jsonl", jsonl).unwrap(), set());
    let run_jsonl = r#"{"id":"q1","answer":"Ada","correct":true,"retrieved":["p1","p9"],"finish_reason":"stop"}
{"id":"q2","answer":"Coffee","correct":false,"retrieved":["p9","p2"],"finish_reason":"length"}
{"id":"q3","answer":"2001","correct":false,"retrieved":["p9"],"finish_reason":null}
{"id":"q4","answer":"Because","correct":true,"retrieved":["p5"],"finish_reason":"stop"}
"#;
    assert_eq!(
        parse_run_jsonl("run.jsonl", run_jsonl, &set()).unwrap(),
        run()
    );
}

#[test]
fn wilson_hand_values() {
    assert_eq!(bounds(&wilson(8, 10).unwrap()), (0.4902, 0.9433));
    assert_eq!(bounds(&wilson(0, 10).unwrap()), (0.0, 0.2775));
    assert_eq!(bounds(&wilson(10, 10).unwrap()), (0.7225, 1.0));
    assert_eq!(bounds(&wilson(2, 4).unwrap()), (0.15, 0.85));
    assert!(wilson(0, 0).is_none());
}

#[test]
fn t_quantiles() {
    assert_eq!(r4(t975(1)), 12.7062);
    assert_eq!(r4(t975(4)), 2.7764);
    assert_eq!(r4(t975(30)), 2.0423);
    assert_eq!(r4(t975(49)), 2.0096);
    assert_eq!(r4(t975(99)), 1.9842);
}

#[test]
fn answer_quality_right_wrong_is_wilson() {
    let q = answer_quality(&run()).unwrap();
    assert_eq!((q.n, q.successes, q.value), (4, Some(2), 0.5));
    assert_eq!(q.method, IntervalMethod::Wilson);
    assert_eq!(bounds(&q), (0.15, 0.85));
}

#[test]
fn answer_quality_fractional_is_student_t() {
    let set = EvalSet {
        items: (1..=5)
            .map(|i| EvalItem {
                id: format!("q{i}"),
                question: String::new(),
                accepted_answer: String::new(),
                accepted_passages: vec![],
            })
            .collect(),
    };
    let csv = "id,score\nq1,0.2\nq2,0.4\nq3,0.6\nq4,0.8\nq5,1.0\n";
    let run = parse_run_csv("scores.csv", csv, &set).unwrap();
    let q = answer_quality(&run).unwrap();
    assert_eq!(q.method, IntervalMethod::StudentT);
    assert_eq!(r4(q.value), 0.6);
    assert_eq!(bounds(&q), (0.2074, 0.9926));
    // One item: a mean, no interval.
    let one = parse_run_csv("one.csv", "id,score\nq1,0.7\n", &set).unwrap();
    let q = answer_quality(&one).unwrap();
    assert_eq!((q.value, q.low, q.high), (0.7, None, None));
    // Fractional runs are not scored by retrieval: no retrieved column means not measured.
    assert!(retrieval_hit_rate(&set, &run, 5).is_none());
}

#[test]
fn hit_at_k_edge_cases() {
    let acc = vec!["b".to_string()];
    let list = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    // Duplicates count once and do not take a slot.
    assert!(hit_at_k(&acc, &list(&["a", "a", "b"]), 2));
    assert!(!hit_at_k(&acc, &list(&["a", "a", "b"]), 1));
    // k larger than the list looks at the whole list.
    assert!(hit_at_k(&acc, &list(&["a", "b"]), 50));
    // Nothing retrieved, or k = 0: a miss.
    assert!(!hit_at_k(&acc, &[], 5));
    assert!(!hit_at_k(&acc, &list(&["b"]), 0));
}

#[test]
fn retrieval_hit_rate_at_k() {
    let (set, run) = (set(), run());
    // q4 has no accepted passages: out of the denominator.
    let h1 = retrieval_hit_rate(&set, &run, 1).unwrap();
    assert_eq!((h1.n, h1.successes), (3, Some(1)));
    assert_eq!(bounds(&h1), (0.0615, 0.7923));
    let h2 = retrieval_hit_rate(&set, &run, 2).unwrap();
    assert_eq!((h2.n, h2.successes), (3, Some(2)));
    assert_eq!(bounds(&h2), (0.2077, 0.9385));
    assert_eq!(retrieval_hit_rate(&set, &run, 10), Some(h2));
    assert!(retrieval_hit_rate(&set, &run, 0).is_none());
    // A run that retrieved nothing did no retrieval: not measured, not 0 %.
    let mut none = run.clone();
    none.items.iter_mut().for_each(|i| i.retrieved.clear());
    assert!(retrieval_hit_rate(&set, &none, 5).is_none());
    // One row without retrieval while others have some: a miss.
    let mut partial = run.clone();
    partial.items[0].retrieved.clear();
    assert_eq!(
        retrieval_hit_rate(&set, &partial, 2).unwrap().successes,
        Some(1)
    );
}

#[test]
fn truncation_counts_length() {
    let t = truncation(&run()).unwrap();
    // q3 records no finish reason: 1 truncated of 3 recorded.
    assert_eq!((t.n, t.successes), (3, Some(1)));
    assert_eq!(bounds(&t), (0.0615, 0.7923));
    let mut none = run();
    none.items.iter_mut().for_each(|i| i.finish_reason = None);
    assert!(truncation(&none).is_none());
}

#[test]
fn crosstab_splits_model_and_search_problems() {
    let (set, run) = (set(), run());
    let tab = wrong_answer_crosstab(&set, &run, 2, DEFAULT_PASS_SCORE);
    assert_eq!(tab.right, 2);
    assert_eq!(tab.wrong_with_passage, vec!["q2"]);
    assert_eq!(tab.wrong_without_passage, vec!["q3"]);
    assert!(tab.wrong_unscorable.is_empty());
    let tab1 = wrong_answer_crosstab(&set, &run, 1, DEFAULT_PASS_SCORE);
    assert_eq!(tab1.wrong_without_passage, vec!["q2", "q3"]);
    let scores = score_run(&set, &run, 2, DEFAULT_PASS_SCORE);
    assert_eq!((scores.of_set, scores.answered), (4, 4));
    assert_eq!(scores.crosstab, tab);
}

fn binary_run(precision: &str, right: &[bool]) -> EvalRun {
    EvalRun {
        weights_precision: precision.into(),
        items: right
            .iter()
            .enumerate()
            .map(|(i, r)| RunItem {
                id: format!("q{i}"),
                correct: Some(*r),
                ..RunItem::default()
            })
            .collect(),
        ..EvalRun::default()
    }
}

#[test]
fn precision_comparison_mcnemar_and_flips() {
    // A: q0–q3 right. B: q0–q2, q4–q7 right. b = 1 (q3), c = 4 (q4–q7).
    let a = binary_run(
        "BF16",
        &[
            true, true, true, true, false, false, false, false, false, false,
        ],
    );
    let b = binary_run(
        "FP8",
        &[
            true, true, true, false, true, true, true, true, false, false,
        ],
    );
    let cmp = compare_runs(&a, &b, DEFAULT_PASS_SCORE);
    assert_eq!(cmp.right_to_wrong, vec!["q3"]);
    assert_eq!(cmp.wrong_to_right, vec!["q4", "q5", "q6", "q7"]);
    assert_eq!(cmp.a.unwrap().value, 0.4);
    assert_eq!(bounds(&cmp.a.unwrap()), (0.1682, 0.6873));
    assert_eq!(bounds(&cmp.b.unwrap()), (0.3968, 0.8922));
    let d = cmp.difference.unwrap();
    assert_eq!(d.method, IntervalMethod::PairedWald);
    assert_eq!(r4(d.value), 0.3);
    assert_eq!(bounds(&d), (-0.0969, 0.6969));
    // 2·(C(5,0) + C(5,1))/2⁵ = 12/32.
    assert_eq!(cmp.mcnemar_p, Some(0.375));
    assert_eq!(mcnemar_exact(0, 0), 1.0);
    assert_eq!(mcnemar_exact(0, 6), 2.0 / 64.0);
    assert!(cmp.only_in_a.is_empty() && cmp.only_in_b.is_empty());
}

#[test]
fn comparison_lists_unpaired_and_fractional_uses_t() {
    let mut a = binary_run("BF16", &[true, false]);
    a.items[0].correct = None;
    a.items[0].score = Some(0.9);
    let mut b = binary_run("FP8", &[true, false, true]);
    b.items[0].correct = None;
    b.items[0].score = Some(0.3);
    let cmp = compare_runs(&a, &b, 0.5);
    assert_eq!(cmp.only_in_b, vec!["q2"]);
    assert_eq!(cmp.right_to_wrong, vec!["q0"]);
    assert!(cmp.mcnemar_p.is_none());
    let d = cmp.difference.unwrap();
    assert_eq!(d.method, IntervalMethod::StudentT);
    assert_eq!(r4(d.value), -0.3);
}

fn err_of<T: std::fmt::Debug>(r: Result<T, QualityError>) -> QualityError {
    r.unwrap_err()
}

#[test]
fn malformed_uploads_have_clear_errors() {
    let set = set();
    let e = err_of(parse_set_csv(
        "set.csv",
        "question,accepted_answer\nWho?,Ada\n",
    ));
    assert_eq!(e.kind, QualityErrorKind::MissingField);
    assert_eq!(e.field.as_deref(), Some("id"));

    let e = err_of(parse_set_csv(
        "set.csv",
        "id,question,accepted_answer\nq1,a,b\n,c,d\n",
    ));
    assert_eq!((e.kind, e.line), (QualityErrorKind::MissingField, Some(3)));

    let e = err_of(parse_set_csv(
        "set.csv",
        "id,question,accepted_answer\nq1,a,b\nq1,c,d\n",
    ));
    assert_eq!(e.kind, QualityErrorKind::DuplicateId);
    assert_eq!(
        e.to_string(),
        "set.csv line 3: field \"id\": id \"q1\" already appears on line 2"
    );

    let e = err_of(parse_set_csv("set.csv", "  \n"));
    assert_eq!(e.kind, QualityErrorKind::Empty);
    let e = err_of(parse_set_csv("set.csv", "id,question,accepted_answer\n"));
    assert_eq!(e.kind, QualityErrorKind::Empty);

    let e = err_of(parse_run_csv("run.csv", "id,score\nq1,0.5\nq9,0.5\n", &set));
    assert_eq!((e.kind, e.line), (QualityErrorKind::UnknownId, Some(3)));

    let e = err_of(parse_run_csv("run.csv", "id,score\nq1,0.5\nq1,0.6\n", &set));
    assert_eq!((e.kind, e.line), (QualityErrorKind::DuplicateId, Some(3)));

    let e = err_of(parse_run_csv("run.csv", "id,score\nq1,1.5\n", &set));
    assert_eq!(
        e.to_string(),
        "run.csv line 2: field \"score\": 1.5 is outside 0–1"
    );
    let e = err_of(parse_run_csv("run.csv", "id,score\nq1,-0.1\n", &set));
    assert_eq!(e.kind, QualityErrorKind::InvalidValue);
    let e = err_of(parse_run_csv("run.csv", "id,score\nq1,NaN\n", &set));
    assert_eq!(e.kind, QualityErrorKind::InvalidValue);

    let e = err_of(parse_run_csv("run.csv", "id,score\nq1,good\n", &set));
    assert_eq!(
        (e.kind, e.field.as_deref()),
        (QualityErrorKind::WrongType, Some("score"))
    );

    let e = err_of(parse_run_csv("run.csv", "id,answer\nq1,Ada\n", &set));
    assert_eq!(
        (e.kind, e.field.as_deref()),
        (QualityErrorKind::MissingField, Some("score"))
    );

    let e = err_of(parse_run_csv(
        "run.csv",
        "id,score,correct\nq1,0.5,true\n",
        &set,
    ));
    assert_eq!(e.kind, QualityErrorKind::InvalidValue);

    let e = err_of(parse_run_csv(
        "run.csv",
        "id,score,correct\nq1,0.5,\nq2,,true\n",
        &set,
    ));
    assert_eq!((e.kind, e.line), (QualityErrorKind::InvalidValue, Some(3)));

    let e = err_of(parse_run_csv("run.csv", "id,score,correct\nq1,,\n", &set));
    assert_eq!((e.kind, e.line), (QualityErrorKind::MissingField, Some(2)));

    let e = err_of(parse_run_csv("run.csv", "id,correct\nq1,maybe\n", &set));
    assert_eq!(e.field.as_deref(), Some("correct"));

    let e = err_of(parse_run_jsonl(
        "run.jsonl",
        "{\"id\":\"q1\",\"score\":0.5}\n{\"id\":\"q2\",\"score\":\n",
        &set,
    ));
    assert_eq!((e.kind, e.line), (QualityErrorKind::Syntax, Some(2)));

    let e = err_of(parse_run_jsonl("run.jsonl", "{\"score\":0.5}\n", &set));
    assert_eq!(
        (e.kind, e.line, e.field.as_deref()),
        (QualityErrorKind::MissingField, Some(1), Some("id"))
    );

    let e = err_of(parse_run_jsonl(
        "run.jsonl",
        "{\"id\":\"q1\",\"score\":\"0.5\"}\n",
        &set,
    ));
    assert_eq!(e.kind, QualityErrorKind::WrongType);

    let e = err_of(parse_run_jsonl("run.jsonl", "[1,2]\n", &set));
    assert_eq!(e.kind, QualityErrorKind::WrongType);
}

/// The real lm-eval result from `testdata/`, like the other engine fixtures.
fn lm_eval_fixture_text() -> String {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    let path = dir
        .join("akamaslabs-lmeval")
        .join("results_2026-10-08T12-45-17.743940.json");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("fixture {} unreadable: {e}", path.display()))
}

#[test]
fn lm_eval_fixture() {
    let r = parse_lm_eval_results("results.json", &lm_eval_fixture_text()).unwrap();
    assert_eq!(r.model_name.as_deref(), Some("gemma4-26b-l40s"));
    assert_eq!(r.lm_eval_version.as_deref(), Some("0.4.13"));
    assert_eq!(r.metrics.len(), 2);
    let m = &r.metrics[0];
    assert_eq!(m.task, "gsm8k_platinum_cot_llama");
    assert_eq!(
        (m.metric.as_str(), m.filter.as_str()),
        ("exact_match", "flexible-extract")
    );
    assert_eq!(m.value, 0.9520264681555004);
    assert_eq!(m.stderr, Some(0.006148821569571143));
    assert_eq!(m.samples, Some(1209));
    assert_eq!(m.higher_is_better, Some(true));
    assert_eq!(r.metrics[1].filter, "strict-match");
    assert_eq!(r.metrics[1].value, 0.9520264681555004);
}

#[test]
fn lm_eval_errors_and_na_stderr() {
    let e = err_of(parse_lm_eval_results("x.json", "{\"date\": 1}"));
    assert_eq!(e.field.as_deref(), Some("results"));
    let e = err_of(parse_lm_eval_results("x.json", "{\n\"results\": \n"));
    assert_eq!(e.kind, QualityErrorKind::Syntax);
    let r = parse_lm_eval_results(
        "x.json",
        r#"{"results":{"t":{"alias":"t","acc,none":0.5,"acc_stderr,none":"N/A"}}}"#,
    )
    .unwrap();
    assert_eq!(r.metrics[0].stderr, None);
    assert_eq!(r.metrics[0].samples, None);
}

#[test]
fn cut_off_sets_and_runs_are_refused_with_their_line() {
    let set = set();
    // every prefix of the set and run CSVs and of a JSONL set: an error, or (cut at a line end)
    // the leading rows
    let set_jsonl = "{\"id\":\"q1\",\"question\":\"Who?\",\"accepted_answer\":\"Ada\",\"accepted_passages\":[\"p1\"]}\n{\"id\":\"q2\",\"question\":\"What?\",\"accepted_answer\":\"Tea\"}\n";
    for cut in 1..SET_CSV.len() {
        let prefix = &SET_CSV[..cut];
        if let Ok(part) = parse_set_csv("set.csv", prefix) {
            assert!(prefix.ends_with('\n'), "cut at {cut}");
            assert_eq!(part.items[..], set.items[..part.items.len()]);
        }
    }
    let run = run();
    for cut in 1..RUN_CSV.len() {
        let prefix = &RUN_CSV[..cut];
        if let Ok(part) = parse_run_csv("run.csv", prefix, &set) {
            assert!(prefix.ends_with('\n'), "cut at {cut}");
            assert_eq!(part.items[..], run.items[..part.items.len()]);
        }
    }
    let whole = parse_set_jsonl("set.jsonl", set_jsonl).unwrap();
    for cut in 1..set_jsonl.len() {
        match parse_set_jsonl("set.jsonl", &set_jsonl[..cut]) {
            Ok(part) => assert_eq!(part.items[..], whole.items[..part.items.len()]),
            Err(e) if !set_jsonl[cut..].starts_with('\n') => {
                assert!(e.message.contains("cut off"), "cut at {cut}: {e}")
            }
            Err(_) => {}
        }
    }
    // the messages
    let e = err_of(parse_set_csv("set.csv", &SET_CSV[..SET_CSV.len() - 12]));
    assert_eq!(
        e.to_string(),
        "set.csv line 5: the file ends mid-record (cut off?): expected 4 fields like the header, \
         found 2"
    );
    let e = err_of(parse_run_csv("run.csv", RUN_CSV.trim_end(), &set));
    assert_eq!(
        e.to_string(),
        "run.csv line 5: the file ends mid-record (cut off?): the last row has no line end, so \
         its last field may be incomplete (end the file with a line break)"
    );
    let e = err_of(parse_set_csv(
        "set.csv",
        "id,question,accepted_answer\nq1,\"Who is\nthe",
    ));
    assert_eq!(
        e.to_string(),
        "set.csv line 2: the file ends mid-record (cut off?): the quoted field opened on this \
         line is not closed"
    );
    let e = err_of(parse_set_jsonl("set.jsonl", &set_jsonl[..120]));
    assert_eq!(e.line, Some(2));
    assert!(
        e.message
            .starts_with("the file ends mid-record (cut off?): invalid JSON"),
        "{e}"
    );
}

#[test]
fn a_cut_off_lm_eval_result_is_refused() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/akamaslabs-lmeval/results_2026-10-08T12-45-17.743940.json");
    let text = std::fs::read_to_string(path).unwrap();
    let whole = parse_lm_eval_results("r.json", &text).unwrap();
    for cut in (1..text.len()).step_by(37) {
        if !text.is_char_boundary(cut) {
            continue;
        }
        match parse_lm_eval_results("r.json", &text[..cut]) {
            Ok(part) => panic!("cut at {cut} read {} metrics", part.metrics.len()),
            Err(e) => assert!(e.message.contains("cut off") && e.line.is_some(), "{e}"),
        }
    }
    assert!(!whole.metrics.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Plausibility (crate::plausible): the real lm-eval result with one impossible value.

#[test]
fn lm_eval_refuses_an_accuracy_of_7_5_and_a_negative_stderr() {
    let text = lm_eval_fixture_text();
    let key = "\"exact_match,strict-match\": 0.9520264681555004";
    assert!(text.contains(key));
    let bad = text.replacen(key, "\"exact_match,strict-match\": 7.5", 1);
    let e = parse_lm_eval_results("results.json", &bad).unwrap_err();
    assert_eq!(e.kind, QualityErrorKind::InvalidValue);
    assert_eq!(
        e.to_string(),
        "results.json: field \"results.gsm8k_platinum_cot_llama.exact_match,strict-match\": 7.5 \
         is not a possible fraction (must be between 0 and 1)"
    );
    let key = "\"exact_match_stderr,strict-match\": 0.006148821569571143";
    assert!(text.contains(key));
    let bad = text.replacen(key, "\"exact_match_stderr,strict-match\": -1", 1);
    let e = parse_lm_eval_results("results.json", &bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "results.json: field \"results.gsm8k_platinum_cot_llama.exact_match_stderr,strict-match\": \
         -1 is not a possible standard error (must be finite and ≥ 0)"
    );
    // Metrics that are not fractions (perplexity, BLEU 0–100) may exceed 1.
    let ppl = text.replacen(
        "\"exact_match,strict-match\": 0.9520264681555004",
        "\"word_perplexity,none\": 12.5",
        1,
    );
    assert!(parse_lm_eval_results("results.json", &ppl).is_ok());
    assert!(lmeval::is_fraction_metric("acc_norm"));
    assert!(lmeval::is_fraction_metric("prompt_level_strict_acc"));
    assert!(lmeval::is_fraction_metric("pass@1"));
    assert!(!lmeval::is_fraction_metric("f1"));
    assert!(!lmeval::is_fraction_metric("bleu"));
}

#[test]
fn an_evaluation_run_score_of_nan_or_infinity_is_refused_with_its_line() {
    let set = parse_set_csv(
        "set.csv",
        "id,question,accepted_answer\nq1,What?,a\nq2,Why?,b\n",
    )
    .unwrap();
    let e = parse_run_csv("run.csv", "id,score\nq1,0.5\nq2,inf\n", &set).unwrap_err();
    assert_eq!(
        e.to_string(),
        "run.csv line 3: field \"score\": inf is not a possible fraction (must be between 0 and 1)"
    );
    let e = parse_run_csv("run.csv", "id,score\nq1,NaN\n", &set).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(
        e.message.starts_with("NaN is not a possible fraction"),
        "{e}"
    );
}
