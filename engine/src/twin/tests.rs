//! The twin on real load tests (testdata/, sources in testdata/SOURCES.md) and the demo pilot.

use super::*;
use crate::ingest::{Import, ImportOptions, import_sweep_with, import_with};
use std::path::PathBuf;

fn testdata(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(path)
}

fn import_file(path: &str) -> Import {
    let p = testdata(path);
    let bytes = std::fs::read(&p).unwrap();
    let options = ImportOptions {
        keep_requests: true,
        keep_itl_lists: false,
        exact_itl_percentiles: true,
    };
    import_with(p.file_name().unwrap().to_str().unwrap(), &bytes, &options).unwrap()
}

fn import_folder(path: &str) -> Import {
    let dir = testdata(path);
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.strip_prefix(&dir).unwrap().to_string_lossy().to_string();
                files.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    import_sweep_with(&files, &ImportOptions::stats_only()).unwrap()
}

/// The points (and their records) of one configuration of an import.
fn configuration(
    import: &Import,
    label: &str,
) -> (
    Vec<crate::ingest::OperatingPoint>,
    Vec<crate::ingest::RequestRecord>,
) {
    let group = configurations(&import.points)
        .into_iter()
        .find(|g| g.label == label)
        .unwrap_or_else(|| panic!("{label} not in {:?}", configurations(&import.points)));
    let points = group
        .points
        .iter()
        .map(|&i| import.points[i].clone())
        .collect();
    let requests = import
        .requests
        .iter()
        .filter_map(|r| {
            let at = group.points.iter().position(|&i| i == r.point)?;
            let mut r = r.clone();
            r.point = at;
            Some(r)
        })
        .collect();
    (points, requests)
}

fn v100_demo() -> Import {
    crate::ingest::import(
        crate::loadtest::demo::FILE_NAME,
        crate::loadtest::demo::v100_report_jsonl().as_bytes(),
    )
    .unwrap()
}

/// A small engine with round numbers: 10 ms per step, 0.1 ms per prompt token, nothing per
/// sequence or context token, 20 ms overhead, 8 sequences at most.
fn round_model() -> TimingModel {
    TimingModel::new(
        StepCost {
            base_ms: 10.0,
            per_sequence_ms: 0.0,
            per_context_token_us: 0.0,
            per_prefill_token_us: 100.0,
            expert_fill_ms: 0.0,
            expert_share: 0.0,
        },
        20.0,
        EngineLimits {
            max_running: 8,
            max_running_source: LimitSource::Stated,
            kv_cache_tokens: None,
            max_batched_tokens: 2048,
            max_batched_tokens_source: LimitSource::Stated,
            prefill: PrefillScheduling::Chunked,
            prefill_source: LimitSource::Stated,
        },
    )
}

/// A busier engine: batching costs something, KV reads too.
fn busy_model() -> TimingModel {
    let mut model = round_model();
    model.step = StepCost {
        base_ms: 6.0,
        per_sequence_ms: 0.12,
        per_context_token_us: 0.05,
        per_prefill_token_us: 25.0,
        expert_fill_ms: 0.0,
        expert_share: 0.0,
    };
    model.limits.max_running = 256;
    model.limits.max_batched_tokens = 8192;
    model
}

fn sharegpt_like() -> Workload {
    Workload {
        prompt_tokens: TokenLengths::LogNormal {
            mean: 300.0,
            std: 250.0,
        },
        output_tokens: TokenLengths::LogNormal {
            mean: 250.0,
            std: 180.0,
        },
    }
}

#[test]
fn a_request_alone_takes_one_prefill_step_then_one_step_per_token() {
    // 1,000 prompt tokens fit one 2,048-token step: 10 + 1000 × 0.1 = 110 ms, plus the 20 ms
    // overhead = TTFT 130 ms; then 10 more tokens at 10 ms each: E2E 230 ms, TPOT 10 ms.
    let sim = simulate(
        &round_model(),
        &ArrivalProcess::Burst,
        &Workload::fixed(1000, 11),
        &SimulationOptions {
            requests: 1,
            seed: 1,
        },
    );
    let r = sim.requests[0];
    assert_eq!((r.ttft_ms, r.e2e_ms, r.tpot_ms), (130.0, 230.0, Some(10.0)));
    assert_eq!(sim.itl_gaps.iter().map(|g| g.count).sum::<u32>(), 10);
}

#[test]
fn a_long_prompt_is_prefilled_in_chunks_of_the_step_budget() {
    // 5,000 tokens at 2,048 per step: three steps of 214.8, 214.8 and 100.4 ms.
    let sim = simulate(
        &round_model(),
        &ArrivalProcess::Burst,
        &Workload::fixed(5000, 2),
        &SimulationOptions {
            requests: 1,
            seed: 1,
        },
    );
    let ttft = sim.requests[0].ttft_ms;
    assert!((ttft - (20.0 + 3.0 * 10.0 + 500.0)).abs() < 1e-9, "{ttft}");
}

#[test]
fn separate_prefill_makes_decoding_requests_wait_for_a_new_prompt() {
    let mut model = round_model();
    model.limits.prefill = PrefillScheduling::Separate;
    let replay = ArrivalProcess::Replay {
        requests: vec![
            TimedRequest {
                at_ms: 0.0,
                prompt_tokens: 100,
                output_tokens: 50,
            },
            TimedRequest {
                at_ms: 100.0,
                prompt_tokens: 1000,
                output_tokens: 5,
            },
        ],
    };
    let sim = simulate(
        &model,
        &replay,
        &Workload::fixed(1, 1),
        &SimulationOptions {
            requests: 2,
            seed: 1,
        },
    );
    // The first request's tokens come every 10 ms except across the second one's 110 ms
    // prefill step, which its gap spans whole.
    let longest = sim.itl_gaps.iter().map(|g| g.gap_ms).fold(0.0, f64::max);
    assert_eq!(longest, 120.0);
}

#[test]
fn a_closed_loop_at_concurrency_n_keeps_n_requests_in_flight() {
    let sim = simulate(
        &busy_model(),
        &ArrivalProcess::ClosedLoop { concurrency: 16 },
        &sharegpt_like(),
        &SimulationOptions {
            requests: 4000,
            seed: 3,
        },
    );
    assert_eq!(sim.requests.len(), 4000);
    assert_eq!(sim.max_running, 16);
    // Only the drain at the end (the last 16 requests finishing) pulls the mean below 16.
    assert!(
        sim.mean_in_system > 15.8 && sim.mean_in_system <= 16.0,
        "{}",
        sim.mean_in_system
    );
}

#[test]
fn the_simulation_obeys_littles_law() {
    let model = busy_model();
    let workload = sharegpt_like();
    let rate = 0.7 * model.saturation_rate_for(&workload);
    let sim = simulate(
        &model,
        &ArrivalProcess::Poisson { rate_per_s: rate },
        &workload,
        &SimulationOptions {
            requests: 6000,
            seed: 5,
        },
    );
    // L (time-averaged over the steps) = λ × W (per request, arrival to last token).
    let throughput_per_ms = sim.requests.len() as f64 / sim.elapsed_ms;
    let mean_time_ms = sim
        .requests
        .iter()
        .map(|r| r.e2e_ms - model.request_overhead_ms)
        .sum::<f64>()
        / sim.requests.len() as f64;
    let little = throughput_per_ms * mean_time_ms;
    let difference = (sim.mean_in_system - little).abs() / little;
    assert!(difference < 0.01, "L {} vs λW {little}", sim.mean_in_system);
}

#[test]
fn every_ttft_and_tpot_is_the_sum_of_its_step_terms() {
    // A dense engine, and one reading routed experts (MoE: 4 of 128 per token).
    let mut moe = busy_model();
    moe.step.expert_fill_ms = 9.0;
    moe.step.expert_share = 4.0 / 128.0;
    for model in [busy_model(), moe] {
        let sim = simulate(
            &model,
            &ArrivalProcess::Poisson { rate_per_s: 12.0 },
            &sharegpt_like(),
            &SimulationOptions {
                requests: 500,
                seed: 9,
            },
        );
        let cost = |t: &crate::twin::simulate::StepTerms| {
            model.step.base_ms * t[0]
                + model.step.per_sequence_ms * t[1]
                + (model.step.per_context_token_us * t[2] + model.step.per_prefill_token_us * t[3])
                    / 1000.0
                + model.step.expert_fill_ms * t[4]
        };
        for r in &sim.requests {
            assert!((cost(&r.ttft_terms) + model.request_overhead_ms - r.ttft_ms).abs() < 1e-6);
            if let Some(tpot) = r.tpot_ms {
                assert!((cost(&r.tpot_terms) - tpot).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn routed_expert_reads_grow_with_the_batch_and_saturate() {
    let mut step = busy_model().step;
    assert_eq!(step.experts_touched(64.0), 0.0, "dense: no term");
    step.expert_fill_ms = 10.0;
    step.expert_share = 4.0 / 128.0;
    assert_eq!(
        step.experts_touched(1.0),
        0.0,
        "one token's top-k are in the base"
    );
    let at = |n: f64| step.experts_touched(n);
    assert!(at(2.0) > 0.0 && at(16.0) < at(64.0) && at(64.0) < at(256.0));
    // 1 − (31/32)^255 ≈ 0.9997: an A100's 256 sequences read every expert; 1,024 add nothing.
    assert!(at(256.0) > 0.999 && at(1024.0) - at(256.0) < 1e-3);
    let dense = busy_model().step;
    let extra = step.step_ms(1024, 0.0, 0.0) - dense.step_ms(1024, 0.0, 0.0);
    assert!((extra - 10.0).abs() < 1e-6, "{extra}");
}

#[test]
fn a_full_kv_cache_preempts_and_still_completes_every_request() {
    let mut model = busy_model();
    model.limits.kv_cache_tokens = Some(20_000);
    let sim = simulate(
        &model,
        &ArrivalProcess::Burst,
        &Workload::fixed(400, 400),
        &SimulationOptions {
            requests: 200,
            seed: 1,
        },
    );
    assert_eq!(sim.requests.len(), 200);
    assert!(sim.preemptions > 0);
    // 20,000 tokens hold at most 50 sequences at 400 tokens each, 25 at their full 800.
    assert!(sim.max_running <= 50, "{}", sim.max_running);
}

#[test]
fn the_same_seed_gives_the_same_prediction_to_the_last_digit() {
    let model = busy_model();
    let mut question = Question::rate(10.0);
    let a = predict(&model, &question);
    let b = predict(&model, &question);
    assert_eq!(a, b);
    question.seed = 2;
    let c = predict(&model, &question);
    assert_ne!(a.ttft_ms, c.ttft_ms);
}

#[test]
fn a_rate_above_saturation_is_estimated_and_says_why() {
    let demo = v100_demo();
    let model = fit(&demo.points, &demo.requests, &ServingLimits::default()).unwrap();
    let saturation = predict(&model, &Question::rate(1.0)).saturation_rate_per_s;
    let over = predict(&model, &Question::rate(saturation * 1.2));
    assert_eq!(over.basis, Basis::Estimated);
    assert!(
        over.warnings.iter().any(|w| w.contains("saturation rate")),
        "{:?}",
        over.warnings
    );
    let under = predict(&model, &Question::rate(saturation * 0.2));
    assert_eq!(under.basis, Basis::Simulated, "{:?}", under.warnings);
}

#[test]
fn the_twins_notes_read_german_and_english_stays_as_stored() {
    use crate::locale::Lang;
    let mut p = predict(&busy_model(), &Question::concurrency(4));
    p.filled_by_simulation = vec!["ttft_ms.p90".into(), "itl_ms.p50".into()];
    let scenario = "dataset ShareGPT long prompt → short answer";
    p.warnings = vec![
        "the file does not report ttft_ms.p90, itl_ms.p50; those are simulated".into(),
        format!("the load tests hold 12 scenarios; the lengths of \"{scenario}\" are used"),
        format!(
            "the load tests state no prompt lengths for \"{scenario}\": its prompts are 1814 \
             effective tokens (the length whose prefill cost matches the measured TTFT)"
        ),
        "a warning the twin words elsewhere".into(),
    ];
    assert_eq!(p.warnings_in(Lang::En), p.warnings);
    assert_eq!(
        p.warnings_in(Lang::De),
        [
            "die Datei nennt ttft_ms.p90, itl_ms.p50 nicht; diese Werte sind simuliert".to_string(),
            format!(
                "die Lasttests enthalten 12 Szenarien; verwendet werden die Längen von „{scenario}“"
            ),
            format!(
                "die Lasttests nennen für „{scenario}“ keine Prompt-Längen: Seine Prompts zählen \
                 1.814 effektive Token (die Länge, deren Prefill-Kosten zur gemessenen TTFT \
                 passen)"
            ),
            "a warning the twin words elsewhere".to_string(),
        ]
    );
}

#[test]
fn the_prediction_serialises_with_the_field_names_of_the_issue() {
    let value = serde_json::to_value(predict(&busy_model(), &Question::concurrency(4))).unwrap();
    for field in [
        "ttft_ms",
        "tpot_ms",
        "itl_ms",
        "e2e_ms",
        "request_throughput_per_s",
        "output_tokens_per_s",
        "saturation_rate_per_s",
        "basis",
        "backtest",
        "warnings",
    ] {
        assert!(value.get(field).is_some(), "{field} missing");
    }
    for p in ["p50", "p90", "p95", "p99"] {
        assert!(value["ttft_ms"][p].is_number());
    }
    assert!(["measured", "simulated", "estimated"].contains(&value["basis"].as_str().unwrap()));
}

#[test]
fn the_v100_demo_back_tests_within_seven_percent_median() {
    let demo = v100_demo();
    let twin = Twin::build(&demo.points, &demo.requests, &ServingLimits::default()).unwrap();
    let b = &twin.backtest;
    assert_eq!(b.points.len(), 12);
    assert_eq!(b.compared, 72);
    let median = b.median_abs_error_pct.unwrap();
    let max = b.max_abs_error_pct.unwrap();
    assert!(median < 7.0, "median {median}");
    assert!(max < 35.0, "max {max}");
    assert!(b.tpot_median_abs_error_pct.unwrap() < 5.0);
    // The prompts were never stated: three effective lengths, long > balanced > short.
    let prompts: Vec<f64> = twin
        .model
        .scenarios
        .iter()
        .map(|s| s.prompt_tokens_mean)
        .collect();
    assert!(
        prompts[0] > prompts[1] && prompts[1] > prompts[2],
        "{prompts:?}"
    );
    // Asked at a measured level, the twin returns the report's own percentiles.
    let at4 = twin.predict(&Question::concurrency(4));
    assert_eq!(at4.basis, Basis::Measured);
    assert_eq!(
        (at4.ttft_ms.p50, at4.ttft_ms.p95, at4.ttft_ms.p99),
        (240.0, 281.0, 309.0)
    );
    assert!(
        at4.filled_by_simulation
            .contains(&"ttft_ms.p90".to_string())
    );
    assert_eq!(at4.ttft_ms.p90, 281.0);
    // Between measured levels it simulates; far beyond them it estimates.
    assert_eq!(
        twin.predict(&Question::concurrency(6)).basis,
        Basis::Simulated
    );
    let far = twin.predict(&Question::concurrency(64));
    assert_eq!(far.basis, Basis::Estimated);
    assert!(far.ttft_ms.p50 > 1000.0);
}

#[test]
fn the_akamas_concurrency_sweep_back_tests_within_seventeen_percent_median() {
    let import = import_folder("akamaslabs-aiperf-sweep");
    let twin = Twin::build(&import.points, &import.requests, &ServingLimits::default()).unwrap();
    let m = &twin.model;
    // Concurrency 768 held 243 sequences decoding and queued the rest: about 255 running.
    assert_eq!(m.limits.max_running, 255);
    assert_eq!(m.limits.max_running_source, LimitSource::Inferred);
    assert!(m.fit_error_pct.unwrap() < 7.0);
    let b = &twin.backtest;
    assert_eq!(b.compared, 18);
    let median = b.median_abs_error_pct.unwrap();
    assert!(median < 17.0, "median {median}");
    // Held out, concurrency 768 is predicted within 20 % at every TTFT and TPOT percentile.
    let top = b
        .points
        .iter()
        .find(|p| p.load == "concurrency 768")
        .unwrap();
    assert!(top.max_abs_error_pct.unwrap() < 21.0, "{top:?}");
    // 64 users lie between measured levels; 2,000 queue far beyond any.
    let mid = twin.predict(&Question::concurrency(64));
    assert_eq!(mid.basis, Basis::Simulated);
    assert!(
        mid.tpot_ms.p50 > 8.7 && mid.tpot_ms.p50 < 25.8,
        "{}",
        mid.tpot_ms.p50
    );
    assert_eq!(
        twin.predict(&Question::concurrency(2000)).basis,
        Basis::Estimated
    );
}

#[test]
fn the_nerdalert_rate_sweep_back_tests_within_ten_percent_median() {
    let import = import_file("nerdalert-vllm-benchmark-graphs/results.json");
    // vLLM and SGLang runs share the file: fitting both at once is refused.
    assert!(matches!(
        fit(&import.points, &import.requests, &ServingLimits::default()),
        Err(TwinError::SeveralConfigurations { .. })
    ));
    let (points, requests) = configuration(&import, "framework=vllm");
    let twin = Twin::build(&points, &requests, &ServingLimits::default()).unwrap();
    let b = &twin.backtest;
    assert_eq!(b.compared, 24);
    let median = b.median_abs_error_pct.unwrap();
    assert!(median < 10.0, "median {median}");
    assert!(b.tpot_median_abs_error_pct.unwrap() < 7.0);
    let light = b.points.iter().find(|p| p.load == "rate 1 req/s").unwrap();
    assert!(light.max_abs_error_pct.unwrap() < 5.0, "{light:?}");
    // The knee lies between 20 and 35 req/s: the twin puts saturation there.
    let at20 = twin.predict(&Question::rate(20.0));
    assert_eq!(at20.basis, Basis::Measured);
    assert_eq!(
        at20.ttft_ms.p50,
        points[2]
            .metric(crate::ingest::MetricKey::TtftMs)
            .unwrap()
            .p50
            .unwrap()
    );
    assert!(at20.saturation_rate_per_s > 25.0 && at20.saturation_rate_per_s < 31.0);
    assert_eq!(twin.predict(&Question::rate(25.0)).basis, Basis::Simulated);
    assert_eq!(twin.predict(&Question::rate(40.0)).basis, Basis::Estimated);
}

#[test]
fn the_er0080_sweep_is_two_configurations_with_their_stated_max_num_seqs() {
    let import = import_folder("er0080-vllm-benchmarking/sweep_v0.25.1");
    let labels: Vec<String> = configurations(&import.points)
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert_eq!(labels, ["max_num_seqs=4", "max_num_seqs=8"]);
    for (label, seqs) in [("max_num_seqs=4", 4), ("max_num_seqs=8", 8)] {
        let (points, requests) = configuration(&import, label);
        let twin = Twin::build(&points, &requests, &ServingLimits::default()).unwrap();
        assert_eq!(twin.model.limits.max_running, seqs);
        assert_eq!(twin.model.limits.max_running_source, LimitSource::Stated);
        // Two runs of eight requests at concurrency 2: each predicts the other's TPOT within 10 %.
        assert!(twin.backtest.tpot_median_abs_error_pct.unwrap() < 10.0);
    }
}

#[test]
fn the_guidellm_run_is_fitted_from_its_thousand_request_records() {
    let import = import_file("graz-dev-guidellm/benchmarks.json");
    assert_eq!(import.requests.len(), 1000);
    let twin = Twin::build(&import.points, &import.requests, &ServingLimits::default()).unwrap();
    // Replaying the recorded start times and lengths reproduces the run within 6 % (median).
    assert!(
        twin.model.fit_error_pct.unwrap() < 6.0,
        "{:?}",
        twin.model.fit_error_pct
    );
    assert!(
        twin.model.measured[0]
            .recorded_arrivals
            .as_ref()
            .unwrap()
            .len()
            == 1000
    );
    // A single load level cannot be back-tested, and everything else is an extrapolation.
    assert!(twin.backtest.method.starts_with("not run"));
    let p = twin.predict(&Question::concurrency(100));
    assert_eq!(p.basis, Basis::Estimated);
    assert!(p.warnings.iter().any(|w| w.contains("only one load level")));
}

#[test]
fn the_lambdalabs_burst_is_fitted_from_its_per_request_arrays() {
    let import = import_file("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json");
    let model = fit(&import.points, &import.requests, &ServingLimits::default()).unwrap();
    // Ten prompts of 4 to 399 tokens, all at once: one prefill step, TTFT 62 ms for all.
    let run = fit::rerun(&model, &model.measured[0], 2000, 1);
    assert!((run.ttft_ms.p50 - 62.2).abs() < 3.0, "{}", run.ttft_ms.p50);
}

#[test]
fn stated_limits_win_over_inferred_ones() {
    let import = import_folder("akamaslabs-aiperf-sweep");
    let limits = ServingLimits {
        max_num_seqs: Some(512),
        kv_cache_tokens: Some(400_448),
        ..Default::default()
    };
    let model = fit(&import.points, &import.requests, &limits).unwrap();
    assert_eq!(model.limits.max_running, 512);
    assert_eq!(model.limits.kv_cache_tokens, Some(400_448));
    assert_eq!(model.limits.max_running_source, LimitSource::Stated);
}

#[test]
fn serving_limits_read_the_kv_cache_of_a_real_metrics_scrape() {
    let text = std::fs::read_to_string(testdata(
        "er0080-vllm-benchmarking/metrics_vllm_0_25_1_loaded.txt",
    ))
    .unwrap();
    let snapshot = crate::metrics::VllmSnapshot::parse(&text).unwrap();
    let limits = ServingLimits::from_cache_config(snapshot.cache_config.as_ref().unwrap());
    assert_eq!(limits.kv_cache_tokens, Some(400_448));
    let context = crate::run_context::parse(crate::loadtest::demo::SERVING_RUNTIME).unwrap();
    let combined = ServingLimits::from_run_context(&context).or(limits);
    assert_eq!(combined.kv_cache_tokens, Some(400_448));
}

#[test]
fn a_gateway_log_replays_at_production_speed_and_as_a_mooncake_trace() {
    let records: Vec<crate::traffic::GatewayRecord> =
        crate::traffic::SyntheticConfig::with_requests(42, 3000)
            .records()
            .collect();
    let replay = replay_from_gateway(&records, 1000, Some(5.0)).unwrap();
    assert_eq!(replay.requests.len(), 1000);
    assert!((replay.replay_rate_per_s - 5.0).abs() < 1e-9);
    let span_s = replay.requests.last().unwrap().at_ms / 1000.0;
    assert!((999.0 / span_s - 5.0).abs() < 1e-6);
    let lines: Vec<String> = mooncake_trace(&replay.requests).collect();
    assert_eq!(lines.len(), 1000);
    let first: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(first["timestamp"], 0);
    assert!(first["input_length"].as_u64().unwrap() > 0);
    let p = predict(
        &busy_model(),
        &Question::new(ArrivalProcess::Replay {
            requests: replay.requests.clone(),
        }),
    );
    assert_eq!(p.requests_simulated, 1000);
    assert!(p.prompt_tokens.starts_with("as logged"));
}

/// Prints what a twin found (the explore tools below).
fn report(name: &str, twin: &Twin) {
    let m = &twin.model;
    eprintln!("== {name}");
    eprintln!(
        "   step {:?} overhead {:.1} ms",
        m.step, m.request_overhead_ms
    );
    eprintln!("   limits {:?}", m.limits);
    eprintln!("   fit error {:?}", m.fit_error_pct);
    for n in &m.notes {
        eprintln!("   note: {n}");
    }
    for mp in &m.measured {
        let run = fit::rerun(m, mp, 2000, 1);
        eprintln!(
            "   in-sample {} {}: ttft p50/p95/p99 {:.0}/{:.0}/{:.0} vs {:?}/{:?}/{:?}; tpot {:.1}/{:.1}/{:.1} vs {:?}/{:?}/{:?}; X {:.2} vs {:.2}",
            mp.scenario.chars().take(20).collect::<String>(),
            mp.load_label(),
            run.ttft_ms.p50,
            run.ttft_ms.p95,
            run.ttft_ms.p99,
            mp.ttft_ms.p50.map(|v| v.round()),
            mp.ttft_ms.p95.map(|v| v.round()),
            mp.ttft_ms.p99.map(|v| v.round()),
            run.tpot_ms.p50,
            run.tpot_ms.p95,
            run.tpot_ms.p99,
            mp.tpot_ms.p50.map(|v| (v * 10.0).round() / 10.0),
            mp.tpot_ms.p95.map(|v| (v * 10.0).round() / 10.0),
            mp.tpot_ms.p99.map(|v| (v * 10.0).round() / 10.0),
            run.request_throughput_per_s,
            mp.request_throughput_per_s
        );
    }
    let b = &twin.backtest;
    eprintln!(
        "   backtest median {:?} max {:?} ttft {:?} tpot {:?} ({} compared) skipped {:?}",
        b.median_abs_error_pct,
        b.max_abs_error_pct,
        b.ttft_median_abs_error_pct,
        b.tpot_median_abs_error_pct,
        b.compared,
        b.skipped
    );
    for p in &b.points {
        let cs: Vec<String> = p
            .comparisons
            .iter()
            .map(|c| {
                format!(
                    "{}.{} {:.0}/{:.0} ({:+.0}%)",
                    c.metric, c.percentile, c.predicted, c.measured, c.error_pct
                )
            })
            .collect();
        eprintln!(
            "   {} {}: {}",
            p.scenario.chars().take(30).collect::<String>(),
            p.load,
            cs.join(", ")
        );
    }
}

/// Not a check: prints the fit and back-test of every real sweep, the source of the README's
/// figures. `cargo test --release -p engine twin::tests::explore -- --ignored --nocapture`
/// (`TWIN_ONLY=<name>` for one, `TWIN_NO_BACKTEST=1` to skip the back-tests).
#[test]
#[ignore]
fn explore_real_sweeps() {
    let limits = ServingLimits::default();
    let cases: Vec<(&str, Import, Vec<String>)> = vec![
        (
            "akamas",
            import_folder("akamaslabs-aiperf-sweep"),
            vec!["all points".into()],
        ),
        (
            "nerdalert-graphs",
            import_file("nerdalert-vllm-benchmark-graphs/results.json"),
            vec!["framework=vllm".into(), "framework=sgl".into()],
        ),
        (
            "nerdalert-automation",
            import_file("nerdalert-vllm-bench-automation/results.json"),
            vec![
                "deployment=no-features".into(),
                "deployment=base".into(),
                "deployment=kvcache".into(),
            ],
        ),
        (
            "er0080",
            import_folder("er0080-vllm-benchmarking/sweep_v0.25.1"),
            vec!["max_num_seqs=4".into(), "max_num_seqs=8".into()],
        ),
        (
            "lambdalabs",
            import_file("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json"),
            vec!["all points".into()],
        ),
        (
            "graz",
            import_file("graz-dev-guidellm/benchmarks.json"),
            vec!["all points".into()],
        ),
        (
            "demo",
            crate::ingest::import(
                crate::loadtest::demo::FILE_NAME,
                crate::loadtest::demo::v100_report_jsonl().as_bytes(),
            )
            .unwrap(),
            vec!["all points".into()],
        ),
    ];
    let only = std::env::var("TWIN_ONLY").ok();
    for (name, import, labels) in cases {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        eprintln!(
            "{name}: configurations {:?}",
            configurations(&import.points)
                .iter()
                .map(|c| &c.label)
                .collect::<Vec<_>>()
        );
        for label in labels {
            let (points, requests) = configuration(&import, &label);
            let started = std::time::Instant::now();
            let built = if std::env::var("TWIN_NO_BACKTEST").is_ok() {
                fit(&points, &requests, &limits).map(|model| Twin {
                    model,
                    backtest: Backtest::default(),
                })
            } else {
                Twin::build(&points, &requests, &limits)
            };
            match built {
                Ok(twin) => {
                    report(
                        &format!("{name} {label} ({:.2} s)", started.elapsed().as_secs_f64()),
                        &twin,
                    );
                }
                Err(e) => eprintln!("{name} {label}: {e}"),
            }
        }
    }
}

/// Not a check: prints predictions at measured, interpolated and extrapolated points.
#[test]
#[ignore]
fn explore_predictions() {
    let limits = ServingLimits::default();
    let show = |name: &str, twin: &Twin, q: Question| {
        let started = std::time::Instant::now();
        let p = twin.predict(&q);
        eprintln!(
            "{name} {}: {:?} ttft {:.0}/{:.0}/{:.0}/{:.0} tpot {:.1}/{:.1} itl {:.1}/{:.1} e2e {:.0}/{:.0} X {:.2} out/s {:.0} sat {:.2} in-flight {:.1} batch {:.1} ({:.2}s)\n   warnings: {:?}",
            p.arrivals,
            p.basis,
            p.ttft_ms.p50,
            p.ttft_ms.p90,
            p.ttft_ms.p95,
            p.ttft_ms.p99,
            p.tpot_ms.p50,
            p.tpot_ms.p99,
            p.itl_ms.p50,
            p.itl_ms.p99,
            p.e2e_ms.p50,
            p.e2e_ms.p99,
            p.request_throughput_per_s,
            p.output_tokens_per_s,
            p.saturation_rate_per_s,
            p.mean_in_flight,
            p.mean_decoding_batch,
            started.elapsed().as_secs_f64(),
            p.warnings
        );
    };
    let nerd = import_file("nerdalert-vllm-benchmark-graphs/results.json");
    let (points, requests) = configuration(&nerd, "framework=vllm");
    let twin = Twin::build(&points, &requests, &limits).unwrap();
    for q in [
        Question::rate(20.0),
        Question::rate(25.0),
        Question::rate(40.0),
        Question::concurrency(64),
    ] {
        show("nerdalert vllm", &twin, q);
    }
    let ak = import_folder("akamaslabs-aiperf-sweep");
    let twin = Twin::build(&ak.points, &ak.requests, &limits).unwrap();
    for q in [
        Question::concurrency(16),
        Question::concurrency(64),
        Question::concurrency(2000),
        Question::rate(10.0),
    ] {
        show("akamas", &twin, q);
    }
    let demo = crate::ingest::import(
        crate::loadtest::demo::FILE_NAME,
        crate::loadtest::demo::v100_report_jsonl().as_bytes(),
    )
    .unwrap();
    let twin = Twin::build(&demo.points, &demo.requests, &limits).unwrap();
    for q in [
        Question::concurrency(4),
        Question::concurrency(6),
        Question::concurrency(64),
        Question::rate(1.0),
    ] {
        show("demo", &twin, q);
    }
    let mut q = Question::concurrency(4);
    q.prompt_tokens = Some(2000);
    q.output_tokens = Some(200);
    show("demo 2000/200", &twin, q);
}
