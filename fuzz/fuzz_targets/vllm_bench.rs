//! Load-test import (vllm_bench seeds) through content detection: any bytes either import or fail
//! with an error naming the file; never a panic, never an allocation beyond the input's size.
#![no_main]

use engine::ingest::{ImportOptions, detect, import_reader, import_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = detect("results.json", data);
    if let Ok(import) = import_with("results.json", data, &ImportOptions::default()) {
        let _ = format!("{import:?}");
    }
    let _ = import_reader("results.json", data, &ImportOptions::stats_only());
});
