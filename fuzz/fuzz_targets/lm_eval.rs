//! lm-evaluation-harness results JSON: parsed or refused, never a panic.
#![no_main]

use engine::quality::parse_lm_eval_results;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_lm_eval_results("results.json", &text);
});
