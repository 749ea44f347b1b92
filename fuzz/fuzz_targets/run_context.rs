//! The run context: a pasted `vllm serve …` command line or a KServe ServingRuntime YAML.
#![no_main]

use engine::run_context::{parse, parse_command_line, parse_serving_runtime};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(context) = parse(&text) {
        let _ = context.summary();
    }
    let _ = parse_command_line(&text);
    let _ = parse_serving_runtime(&text);
});
