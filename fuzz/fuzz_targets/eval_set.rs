//! Evaluation sets, CSV and JSON Lines: parsed or refused with file, line and field.
#![no_main]

use engine::quality::{parse_set_csv, parse_set_jsonl};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_set_csv("set.csv", text);
    let _ = parse_set_jsonl("set.jsonl", text);
});
