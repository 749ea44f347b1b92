//! Gateway logs, every reader (LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload, generic
//! JSONL/CSV): any bytes either read or fail with a located error; every record read keeps the
//! record's contract (instants within the accepted years, start ≤ first token ≤ end).
#![no_main]

use engine::traffic::{GatewayReader, ReadOptions};
use libfuzzer_sys::fuzz_target;

/// 2000-01-01 and 2100-01-01 in Unix ms: the instants the readers accept.
const FLOOR_MS: i64 = 946_684_800_000;
const CEILING_MS: i64 = 4_102_444_800_000;

fuzz_target!(|data: &[u8]| {
    for skip in [false, true] {
        let options = ReadOptions::new("fuzz.log").skip_bad_lines(skip);
        let Ok(reader) = GatewayReader::new(data, &options) else {
            continue;
        };
        for item in reader {
            let Ok(record) = item else { break };
            assert!(record.start_ms >= FLOOR_MS && record.end_ms <= CEILING_MS);
            assert!(record.start_ms <= record.end_ms);
            if let Some(first) = record.first_token_ms {
                assert!(record.start_ms <= first && first <= record.end_ms);
            }
            let _ = (record.e2e_ms(), record.ttft_ms(), record.tpot_ms());
        }
    }
});
