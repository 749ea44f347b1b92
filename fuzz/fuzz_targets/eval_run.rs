//! Evaluation runs, CSV and JSON Lines, against a set, then scored and compared. The input is
//! `set NUL run`; without a NUL the run is read against a fixed five-question set.
#![no_main]

use engine::quality::{
    EvalSet, compare_runs, parse_run_csv, parse_run_jsonl, parse_set_csv, parse_set_jsonl,
    score_run,
};
use libfuzzer_sys::fuzz_target;

const SET: &str = "id,question,accepted_answer,accepted_passages\n\
    q1,a?,x,p1|p2\nq2,b?,y,p3\nq3,c?,z,\n4,d?,w,p4\nq5,e?,v,p5|p6|p7\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (set, run_text): (EvalSet, &str) = match text.split_once('\0') {
        Some((set_text, run_text)) => {
            match parse_set_csv("set.csv", set_text).or_else(|_| parse_set_jsonl("set.jsonl", set_text)) {
                Ok(set) => (set, run_text),
                Err(_) => return,
            }
        }
        None => (parse_set_csv("set.csv", SET).expect("the fixed set parses"), text),
    };
    for run in [
        parse_run_csv("run.csv", run_text, &set),
        parse_run_jsonl("run.jsonl", run_text, &set),
    ]
    .into_iter()
    .flatten()
    {
        for k in [1, 3] {
            let _ = score_run(&set, &run, k, 0.5);
        }
        let _ = compare_runs(&run, &run, 0.5);
    }
});
