//! Builds the demand profile of a gateway log and prints it as JSON (for measuring memory and
//! time on large logs, e.g. under `/usr/bin/time -v`).
//!
//! `cargo run -p engine --release --example gateway_profile -- LOG [--skip-bad-lines]`
//!
//! The log streams through a `BufReader`; progress goes to standard error every 64 MiB.

use engine::demand::{DemandOptions, profile_gateway_log};
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
    let result = profile_gateway_log(
        BufReader::with_capacity(1 << 16, file),
        &options,
        DemandOptions::default(),
        |bytes| eprintln!("{:.0} MB read", bytes as f64 / 1e6),
    );
    match result {
        Ok((profile, summary)) => {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "{} records ({}) in {seconds:.2} s = {:.0} records/s; {}",
                summary.records,
                summary.format.label(),
                summary.records as f64 / seconds,
                summary.skipped
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
