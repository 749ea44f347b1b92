//! A pasted vLLM start-up log: parsed or refused, never a panic.
#![no_main]

use engine::sizing::startup_log;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(log) = startup_log::parse(&text) {
        let _ = (log.implied_overhead_gib(), log.kv_tokens());
    }
});
