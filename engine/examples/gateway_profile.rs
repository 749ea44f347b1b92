//! Builds the demand profile of a gateway log and prints it as JSON (for measuring memory and
//! time on large logs, e.g. under `/usr/bin/time -v`).
//!
//! `cargo run -p engine --release --example gateway_profile -- LOG [--skip-bad-lines]`
//!
//! The log streams through a `BufReader`; progress goes to standard error every 64 MiB. The
//! summary line on standard error gives records per second, the accumulator's own peak bytes
//! (sampled every 4,096 records), the requests that came too late to be placed exactly and
//! whether the latency percentiles are exact.

use engine::demand::{DemandAccumulator, DemandOptions};
use engine::traffic::ReadOptions;
use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: gateway_profile LOG [--skip-bad-lines]");
    let skip = args.next().as_deref() == Some("--skip-bad-lines");
    let file = File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut options = ReadOptions::new(path.clone()).skip_bad_lines(skip);
    options.progress_every_bytes = 64 << 20;
    let started = Instant::now();
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    let mut peak_bytes = 0usize;
    let read = engine::traffic::read_gateway_log(
        BufReader::with_capacity(1 << 16, file),
        &options,
        |record| {
            accumulator.add(&record);
            if accumulator.requests().is_multiple_of(4_096) {
                peak_bytes = peak_bytes.max(accumulator.heap_bytes());
            }
        },
        |bytes| eprintln!("{:.0} MB read", bytes as f64 / 1e6),
    );
    peak_bytes = peak_bytes.max(accumulator.heap_bytes());
    let result = read.map_err(|e| e.to_string()).and_then(|summary| {
        accumulator
            .finish()
            .map(|profile| (profile, summary))
            .map_err(|e| format!("{path}: {e}"))
    });
    match result {
        Ok((profile, summary)) => {
            let seconds = started.elapsed().as_secs_f64();
            let error = profile.gateway_latency.relative_error;
            eprintln!(
                "{} records ({}) in {seconds:.2} s = {:.0} records/s; {}; accumulator peak {:.1} MB; \
                 {} late records; latency percentiles ± TTFT {} %, TPOT {} %, E2E {} %",
                summary.records,
                summary.format.label(),
                summary.records as f64 / seconds,
                summary.skipped,
                peak_bytes as f64 / 1e6,
                profile.late_records,
                error.ttft_ms * 100.0,
                error.tpot_ms * 100.0,
                error.e2e_ms * 100.0,
            );
            let mut brief = profile.clone();
            brief.arrivals_per_minute.counts.truncate(5);
            brief.in_flight_curve.max.truncate(5);
            brief.in_flight_curve.mean.truncate(5);
            println!(
                "{}",
                serde_json::to_string_pretty(&brief).expect("profiles serialise")
            );
        }
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    }
}
