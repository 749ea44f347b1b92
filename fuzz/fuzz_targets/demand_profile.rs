//! The demand profile streamed from a gateway log: any log either profiles or fails, in memory
//! bounded by the input (the accumulator's buffers are checked against the input's length).
#![no_main]

use engine::demand::{DemandAccumulator, DemandOptions};
use engine::traffic::ReadOptions;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The default options, and a tiny reorder buffer so that late records and releases happen.
    for options in [
        DemandOptions::default(),
        DemandOptions {
            reorder_buffer_records: 2,
            reorder_window_ms: 1_000,
            exact_latency_values: 4,
            ..DemandOptions::default()
        },
    ] {
        let mut accumulator = DemandAccumulator::new(options);
        let read = ReadOptions::new("fuzz.log").skip_bad_lines(true);
        if accumulator.add_log(data, &read, |_| {}).is_err() {
            continue;
        }
        // A fixed allowance plus a bounded amount per input byte: never the log's time span.
        let bound = (1 << 20) + 2_048 * data.len();
        assert!(
            accumulator.heap_bytes() <= bound,
            "{} bytes of buffers for {} bytes of input",
            accumulator.heap_bytes(),
            data.len()
        );
        if let Ok(profile) = accumulator.finish() {
            assert!(profile.arrivals_per_minute.counts.len() <= 1 << 16);
            assert!(profile.in_flight_curve.max.len() <= 2 * options.in_flight_curve_points);
            let _ = format!("{profile:?}");
        }
    }
});
