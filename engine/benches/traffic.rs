//! Import speed of a gateway log: one million requests of the synthetic pilot traffic
//! (generic JSON Lines, about 300 bytes per record), generated once in memory.
//!
//! * `gateway_log/read`: the streaming reader alone (detection, framing, field conversion).
//! * `gateway_log/profile`: reader + demand accumulator + profile (sorting, busiest hour,
//!   in-flight sweep, exact quantiles): what an upload costs end to end.
//!
//! Criterion reports records per second ("elem/s"). Before measuring, the bench prints the demand
//! accumulator's peak memory (its buffers, counters and kept latencies, sampled every 4,096
//! records) at one and at two million records, which should be nearly the same: the accumulator
//! keeps nothing per request (see `engine::demand::accumulator`). The whole process's peak
//! resident memory on a log file is measured with `examples/gateway_profile.rs` under
//! `/usr/bin/time -v`.
//! Run: `cargo bench -p engine --bench traffic` (add `-- --quick` for a single short pass).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::demand::{DemandAccumulator, DemandOptions, profile_gateway_log};
use engine::traffic::{GatewayReader, ReadOptions, SyntheticConfig, write_synthetic_jsonl};
use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

const RECORDS: u64 = 1_000_000;

/// Peak bytes held by the accumulator over `requests` synthetic records (no log text kept).
fn accumulator_peak_bytes(requests: u64) -> usize {
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    let mut peak = 0;
    for record in SyntheticConfig::with_requests(42, requests).records() {
        accumulator.add(&record);
        if accumulator.requests().is_multiple_of(4_096) {
            peak = accumulator.heap_bytes().max(peak);
        }
    }
    peak = accumulator.heap_bytes().max(peak);
    black_box(accumulator.finish().expect("records were added"));
    peak
}

fn gateway_log(c: &mut Criterion) {
    let one = accumulator_peak_bytes(RECORDS);
    let two = accumulator_peak_bytes(2 * RECORDS);
    eprintln!(
        "demand accumulator peak memory: {:.2} MB at {RECORDS} records, {:.2} MB at {} ({:+.1} %)",
        one as f64 / 1e6,
        two as f64 / 1e6,
        2 * RECORDS,
        (two as f64 / one as f64 - 1.0) * 100.0
    );

    let mut log = Vec::with_capacity(RECORDS as usize * 320);
    let written = write_synthetic_jsonl(&SyntheticConfig::with_requests(42, RECORDS), &mut log)
        .expect("writing to memory cannot fail");
    assert_eq!(written, RECORDS);
    eprintln!(
        "gateway log: {RECORDS} records, {:.1} MB ({:.0} bytes per record)",
        log.len() as f64 / 1e6,
        log.len() as f64 / RECORDS as f64
    );

    let mut group = c.benchmark_group("gateway_log");
    group.throughput(Throughput::Elements(RECORDS));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("read", |b| {
        b.iter(|| {
            let reader = GatewayReader::new(Cursor::new(&log), &ReadOptions::new("bench.jsonl"))
                .expect("the log is valid");
            let mut records = 0u64;
            for record in reader {
                black_box(record.expect("the log is valid"));
                records += 1;
            }
            assert_eq!(records, RECORDS);
        })
    });
    group.bench_function("profile", |b| {
        b.iter(|| {
            let (profile, summary) = profile_gateway_log(
                Cursor::new(&log),
                &ReadOptions::new("bench.jsonl"),
                DemandOptions::default(),
                |bytes| {
                    black_box(bytes);
                },
            )
            .expect("the log is valid");
            assert_eq!(summary.records, RECORDS);
            black_box(profile)
        })
    });
    group.finish();
}

criterion_group!(benches, gateway_log);
criterion_main!(benches);
