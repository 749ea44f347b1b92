//! A folder of load-test results (a `vllm bench sweep` or AIPerf sweep upload). The input is
//! split at NUL bytes into files; each file's first line is its path in the folder.
#![no_main]

use engine::ingest::import_sweep;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files: Vec<(String, Vec<u8>)> = data
        .split(|&b| b == 0)
        .take(64)
        .map(|chunk| {
            let cut = chunk.iter().position(|&b| b == b'\n').unwrap_or(chunk.len());
            let path = String::from_utf8_lossy(&chunk[..cut]).into_owned();
            let body = chunk.get(cut + 1..).unwrap_or(&[]).to_vec();
            (path, body)
        })
        .collect();
    let _ = import_sweep(&files);
});
