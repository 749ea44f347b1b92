//! Speed of the capacity twin's simulation and fit.
//!
//! * `twin/simulate_10k_poisson_near_saturation`: 10,000 requests (ShareGPT-like lengths, about
//!   260 answer tokens) arriving at 90 % of the saturation rate of an engine that holds up to
//!   256 sequences: the batch runs near its limit the whole time.
//! * `twin/simulate_10k_closed_loop_256`: the same requests from 256 users in a closed loop.
//! * `twin/fit_and_backtest_demo`: fitting the demo pilot's twelve V100 points and the
//!   leave-one-out back-test (thirteen fits), what a pilot page costs.
//!
//! Run: `cargo bench -p engine --bench twin` (add `-- --quick` for a single short pass).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::twin::{
    ArrivalProcess, EngineLimits, LimitSource, PrefillScheduling, ServingLimits, SimulationOptions,
    StepCost, TimingModel, TokenLengths, Twin, Workload, simulate,
};
use std::hint::black_box;
use std::time::Duration;

fn model() -> TimingModel {
    TimingModel::new(
        StepCost {
            base_ms: 6.0,
            per_sequence_ms: 0.12,
            per_context_token_us: 0.05,
            per_prefill_token_us: 25.0,
            expert_fill_ms: 0.0,
            expert_share: 0.0,
        },
        10.0,
        EngineLimits {
            max_running: 256,
            max_running_source: LimitSource::Stated,
            kv_cache_tokens: None,
            max_batched_tokens: 8192,
            max_batched_tokens_source: LimitSource::Stated,
            prefill: PrefillScheduling::Chunked,
            prefill_source: LimitSource::Stated,
        },
    )
}

fn workload() -> Workload {
    Workload {
        prompt_tokens: TokenLengths::LogNormal {
            mean: 300.0,
            std: 250.0,
        },
        output_tokens: TokenLengths::Quantiles {
            knots: vec![
                (0.0, 3.0),
                (0.5, 249.0),
                (0.9, 480.0),
                (0.99, 769.0),
                (1.0, 1125.0),
            ],
        },
    }
}

fn twin(c: &mut Criterion) {
    let model = model();
    let workload = workload();
    let saturation = model.saturation_rate_for(&workload);
    let mut group = c.benchmark_group("twin");
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(10_000));
    let options = SimulationOptions {
        requests: 10_000,
        seed: 7,
    };
    group.bench_function("simulate_10k_poisson_near_saturation", |b| {
        let process = ArrivalProcess::Poisson {
            rate_per_s: 0.9 * saturation,
        };
        b.iter(|| black_box(simulate(&model, &process, &workload, &options)))
    });
    group.bench_function("simulate_10k_closed_loop_256", |b| {
        let process = ArrivalProcess::ClosedLoop { concurrency: 256 };
        b.iter(|| black_box(simulate(&model, &process, &workload, &options)))
    });
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    let demo = engine::ingest::import(
        engine::loadtest::demo::FILE_NAME,
        engine::loadtest::demo::v100_report_jsonl().as_bytes(),
    )
    .expect("the demo file imports");
    group.bench_function("fit_and_backtest_demo", |b| {
        b.iter(|| {
            black_box(
                Twin::build(&demo.points, &demo.requests, &ServingLimits::default())
                    .expect("the demo fits"),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, twin);
criterion_main!(benches);
