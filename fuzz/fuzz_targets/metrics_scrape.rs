//! vLLM's Prometheus `/metrics`: the exposition parser, a snapshot and its report, and the
//! window between two scrapes (the input split at the first NUL byte; the same scrape twice
//! when there is none).
#![no_main]

use engine::metrics::{VllmSnapshot, parse_exposition, vllm_window};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (first, second) = match data.iter().position(|&b| b == 0) {
        Some(cut) => (&data[..cut], &data[cut + 1..]),
        None => (data, data),
    };
    let before = String::from_utf8_lossy(first);
    let after = String::from_utf8_lossy(second);
    let _ = parse_exposition(&before);
    let (Ok(a), Ok(b)) = (VllmSnapshot::parse(&before), VllmSnapshot::parse(&after)) else {
        return;
    };
    let _ = a.report();
    for elapsed in [None, Some(60.0)] {
        if let Ok(window) = vllm_window(&a, &b, elapsed) {
            let _ = format!("{window:?}");
        }
    }
});
