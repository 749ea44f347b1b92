//! Import speed of the largest input the app sees: an AIPerf per-request `profile_export.jsonl`.
//!
//! One million records, generated in memory with the fields and layout of a real AIPerf 0.11
//! record (metadata, ten metric tags, 16 chunk gaps per request), streamed through
//! `import_reader`. Criterion reports records per second ("elem/s").
//!
//! Run: `cargo bench -p engine --bench ingest` (add `-- --quick` for a single short pass).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::ingest::{ImportOptions, import_reader};
use std::fmt::Write;
use std::hint::black_box;

const RECORDS: usize = 1_000_000;
const CHUNKS: usize = 16;

/// A deterministic pseudo-random stream (64-bit LCG), so every run parses the same bytes.
struct Lcg(u64);

impl Lcg {
    fn next_unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn synthetic_jsonl(records: usize) -> Vec<u8> {
    let mut rng = Lcg(42);
    let mut out = String::with_capacity(records * 1100);
    let mut start_ns: u64 = 1_790_000_000_000_000_000;
    for i in 0..records {
        let ttft = 20.0 + 80.0 * rng.next_unit();
        let gaps: Vec<f64> = (0..CHUNKS).map(|_| 6.0 + 4.0 * rng.next_unit()).collect();
        let e2e = ttft + gaps.iter().sum::<f64>();
        let osl = CHUNKS + 1;
        let itl = (e2e - ttft) / (osl - 1) as f64;
        let end_ns = start_ns + (e2e * 1e6) as u64;
        let _ = write!(
            out,
            r#"{{"metadata":{{"session_num":{i},"x_request_id":"req-{i:08}","x_correlation_id":"corr-{i:08}","conversation_id":"conv-{c:06}","turn_index":0,"request_start_ns":{start_ns},"request_ack_ns":{ack},"request_end_ns":{end_ns},"worker_id":"worker_{w}","record_processor_id":"record_processor_{rp}","benchmark_phase":"profiling","was_cancelled":false,"cancellation_time_ns":null}},"metrics":{{"input_sequence_length":{{"value":512,"unit":"tokens"}},"time_to_first_token":{{"value":{ttft},"unit":"ms"}},"request_count":{{"value":1,"unit":"requests"}},"request_latency":{{"value":{e2e},"unit":"ms"}},"time_to_second_token":{{"value":{g0},"unit":"ms"}},"inter_chunk_latency":{{"value":["#,
            c = i % 997,
            ack = start_ns + 500_000,
            w = i % 40,
            rp = i % 4,
            g0 = gaps[0],
        );
        for (j, g) in gaps.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(out, "{g}");
        }
        let _ = writeln!(
            out,
            r#"],"unit":"ms"}},"output_sequence_length":{{"value":{osl},"unit":"tokens"}},"output_token_count":{{"value":{osl},"unit":"tokens"}},"inter_token_latency":{{"value":{itl},"unit":"ms"}},"output_token_throughput_per_user":{{"value":{pu},"unit":"tokens/sec/user"}}}},"error":null}}"#,
            pu = 1000.0 / itl,
        );
        start_ns += 250_000;
    }
    out.into_bytes()
}

fn bench(c: &mut Criterion) {
    let data = synthetic_jsonl(RECORDS);
    eprintln!(
        "synthetic profile_export.jsonl: {RECORDS} records, {:.0} MB",
        data.len() as f64 / 1e6
    );
    let mut group = c.benchmark_group("aiperf_jsonl_1m");
    group.sample_size(10);
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.bench_function("stats_only", |b| {
        b.iter(|| {
            let imp = import_reader(
                "profile_export.jsonl",
                black_box(&data[..]),
                &ImportOptions::stats_only(),
            )
            .expect("synthetic file imports");
            assert_eq!(imp.points[0].completed, Some(RECORDS as u64));
            imp
        })
    });
    group.bench_function("keep_records", |b| {
        b.iter(|| {
            import_reader(
                "profile_export.jsonl",
                black_box(&data[..]),
                &ImportOptions::default(),
            )
            .expect("synthetic file imports")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
