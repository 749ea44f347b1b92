use super::*;
use crate::demand::{ContextBasis, DemandScaling};
use crate::plan::templates;
use crate::sizing::{gpu_by_id, model_by_id};

fn target(metric: MetricKey, limit_ms: f64, label: &str) -> LatencyTarget {
    LatencyTarget {
        metric,
        statistic: "p99".to_string(),
        limit_ms,
        inclusive: true,
        scenario: None,
        label: label.to_string(),
        point: crate::plan::MeasurementPoint::Client,
    }
}

/// The guide's worked example as a pilot result: 0.3 req/s at the pilot's busiest hour, 50 pilot
/// users scaled to 500, answers of 241 tokens on average, TTFT p99 ≤ 400 ms and TPOT p99 ≤ 40 ms:
/// 3 req/s × (0.4 s + 240 × 0.04 s) = 3 × 10 s = 30 sessions of 8,192 tokens, Llama 3.3 70B.
fn worked_example() -> ProductionInput {
    ProductionInput {
        demand: ProductionDemand {
            scaling: DemandScaling::UserRatio {
                pilot_users: 50,
                production_users: 500,
            },
            pilot_arrival_rate_per_s: 0.3,
            arrival_rate_per_s: 3.0,
            scale_factor: Some(10.0),
            prompt_tokens_p50: 1_000.0,
            prompt_tokens_p95: 2_000.0,
            completion_tokens_p50: 200.0,
            completion_tokens_p95: 600.0,
            completion_tokens_mean: 241.0,
            context_basis: ContextBasis::P95,
            context_tokens_per_session: 8_192,
            measured_context: None,
        },
        model: model_by_id("llama-3.3-70b").unwrap(),
        passing_combinations: Vec::new(),
        passing_precisions: vec![WeightPrecision::Fp8],
        kv_dtypes: vec![KvDtype::Fp8],
        speed: Default::default(),
        allow_emulated: false,
        gpus: vec![GpuOffer {
            gpu: gpu_by_id("rtx-pro-6000-server").unwrap(),
            unit_price: None,
        }],
        max_cards: 4,
        memory_model: MemoryModel::Planning,
        targets: ProductionTargets {
            ttft: Some(target(MetricKey::TtftMs, 400.0, "TTFT p99 ≤ 400 ms")),
            tpot: Some(target(MetricKey::TpotMs, 40.0, "TPOT p99 ≤ 40 ms")),
        },
        pilot_serving: None,
        peak_to_mean: None,
        top: DEFAULT_TOP,
        allow_pipeline: true,
        gpu_memory_utilization: None,
        vllm_version: None,
        max_num_batched_tokens: None,
        load_test: LoadTestSettings::default(),
        twin: None,
        gpu_hour_prices: Vec::new(),
    }
}

fn line<'a>(rec: &'a ProductionRecommendation, label: &str) -> &'a ArithmeticLine {
    rec.arithmetic
        .iter()
        .find(|l| l.label == label)
        .unwrap_or_else(|| panic!("no line `{label}` in {:#?}", rec.arithmetic))
}

#[test]
fn the_worked_example_needs_30_sessions_from_rate_and_request_time() {
    let sessions = sessions_to_hold(&worked_example());
    assert_eq!(sessions.arrival_rate_per_s, 3.0);
    assert_eq!(sessions.ttft_ms, 400.0);
    assert_eq!(sessions.tpot_ms, 40.0);
    assert_eq!(sessions.request_time_s, 10.0);
    assert_eq!(sessions.mean_in_flight, 30.0);
    assert_eq!(sessions.peak_sessions, 30);
    assert_eq!(sessions.ttft_basis, BoundBasis::PlanTarget);
    assert!(sessions.warnings().is_empty());
}

#[test]
fn the_worked_example_recommends_one_copy_split_over_two_cards() {
    let rec = recommend_production(&worked_example());
    let chosen = rec.chosen.as_ref().expect("a feasible configuration");
    assert_eq!(chosen.gpu_id, "rtx-pro-6000-server");
    assert_eq!(chosen.topology, Topology::new(2, 1, 1));
    assert_eq!(chosen.cards, 2);
    assert_eq!(chosen.sessions, 78);
    assert_eq!(chosen.decode_tokens_per_s, 45.2);
    assert_eq!(rec.demand.peak_concurrent_sessions, 30);
    assert_eq!(rec.demand.min_decode_tokens_per_s, Some(25.0));
    assert_eq!(rec.options[0].rank, 1);
    assert_eq!(rec.options[0].topology_label, "TP=2");
    assert!(rec.options.len() <= DEFAULT_TOP);
    assert_eq!(rec.cost, None);

    // One card, two or three copies and a pipeline split fail on speed (22.6 < 25 tok/s).
    let speed = rec
        .infeasible
        .iter()
        .find(|r| r.kind == "decode speed")
        .unwrap();
    assert!(
        speed
            .example
            .starts_with("decode speed: the ceiling of 22.6")
    );
    assert!(rec.summary.starts_with(
        "Recommended: 2 × NVIDIA RTX PRO 6000 Blackwell Server Edition (TP=2), FP8 weights, FP8 KV cache. \
         It holds 78 sessions of 8,192 tokens against 30 needed at the busiest hour (3.00 req/s × 10.00 s per request)"
    ));
}

#[test]
fn the_arithmetic_reads_like_the_guide() {
    let rec = recommend_production(&worked_example());
    let pilot = line(&rec, "Pilot arrival rate, busiest hour");
    assert_eq!((pilot.value, pilot.source), (0.3, Source::GatewayLog));
    let scale = line(&rec, "Scale to production");
    assert_eq!(scale.formula, "500 production users ÷ 50 pilot users");
    assert_eq!((scale.value, scale.source), (10.0, Source::Plan));
    let rate = line(&rec, "Production arrival rate");
    assert_eq!(rate.formula, "0.3 req/s × 10");
    assert_eq!((rate.value, rate.unit.as_str()), (3.0, "req/s"));
    let ttft = line(&rec, "TTFT bound");
    assert_eq!(ttft.formula, "the plan's limit TTFT p99 ≤ 400 ms");
    assert_eq!(ttft.source, Source::Plan);
    let time = line(&rec, "Request time");
    assert!(
        time.formula
            .starts_with("TTFT + (answer − 1) × TPOT = 400 ms + (241 − 1) × 40 ms")
    );
    assert_eq!((time.value, time.unit.as_str()), (10.0, "s"));
    let little = line(&rec, "Requests in flight (Little's law)");
    assert!(
        little
            .formula
            .starts_with("arrival rate × request time = 3 req/s × 10 s")
    );
    assert_eq!(little.value, 30.0);
    assert_eq!(line(&rec, "Sessions to hold").value, 30.0);
    assert_eq!(line(&rec, "Context per session").value, 8_192.0);

    // The sizing engine's own steps, reused: 160 KiB per token, 1.25 GiB per session,
    // 67.7 GiB of weights, 2 × (0.9 × 95.6 − 3) − 67.7 = 98.38 GiB, 78 sessions, 45.2 tok/s.
    let per_token = line(&rec, "KV cache per token");
    assert_eq!(
        (per_token.value, per_token.source),
        (160.0, Source::Catalog)
    );
    assert_eq!(line(&rec, "One session").value, 1.25);
    assert_eq!(line(&rec, "Weights (checkpoint)").value, 67.7);
    assert_eq!(line(&rec, "Budget per card").source, Source::Assumption);
    assert_eq!(line(&rec, "KV pool of one copy").value, 98.38);
    assert_eq!(line(&rec, "Sessions per copy").value, 78.0);
    let target = line(&rec, "Decode target per stream");
    assert_eq!((target.value, target.source), (45.2, Source::Plan));
    assert!(
        target
            .formula
            .starts_with("ceiling 45.2 tok/s against ≥ 25.0 tok/s")
    );
    let cards = line(&rec, "Cards");
    assert_eq!(
        cards.formula,
        "TP 2 × PP 1 × 1 copy of NVIDIA RTX PRO 6000 Blackwell Server Edition"
    );
    assert_eq!(cards.value, 2.0);

    // At the 45.2 tok/s ceiling a request would take 282 ms + 240 × 22.12 ms ≈ 5.6 s: about 17
    // in flight, a lower bound below the 30 sized for.
    let ceiling = line(&rec, "In flight at this configuration's ceiling");
    assert!(ceiling.value > 16.0 && ceiling.value < 18.0, "{ceiling:?}");
    assert!(ceiling.formula.ends_with("sized for 30"));

    assert_eq!(rec.arithmetic.last().unwrap().label, "Load test");
    let labels: Vec<&str> = rec.arithmetic.iter().map(|l| l.label.as_str()).collect();
    let at = |label: &str| labels.iter().position(|l| *l == label).unwrap();
    assert!(at("Production arrival rate") < at("Request time"));
    assert!(at("Sessions to hold") < at("KV cache per token"));
    assert!(at("Sessions per copy") < at("Cards"));
}

#[test]
fn a_precision_that_failed_never_appears() {
    let mut nvfp4_passed = worked_example();
    nvfp4_passed.passing_precisions = vec![WeightPrecision::Fp8, WeightPrecision::Nvfp4];
    let rec = recommend_production(&nvfp4_passed);
    // NVFP4 on one card: 34 sessions at 39.3 tok/s, one card beats two.
    let chosen = rec.chosen.unwrap();
    assert_eq!(chosen.precision, WeightPrecision::Nvfp4);
    assert_eq!((chosen.cards, chosen.sessions), (1, 34));

    let rec = recommend_production(&worked_example());
    assert_eq!(rec.precision.basis, PrecisionBasis::QualityGate);
    assert_eq!(rec.precision.precisions, vec![WeightPrecision::Fp8]);
    assert!(
        rec.options
            .iter()
            .all(|o| o.precision == WeightPrecision::Fp8)
    );
    assert_eq!(rec.chosen.unwrap().precision, WeightPrecision::Fp8);
    let json = serde_json::to_string(&rec.infeasible).unwrap();
    assert!(!json.contains("NVFP4"));
}

#[test]
fn an_undecided_quality_gate_is_flagged_and_falls_back() {
    let mut input = worked_example();
    input.passing_precisions.clear();
    let rec = recommend_production(&input);
    assert_eq!(rec.precision.basis, PrecisionBasis::ModelNative);
    assert_eq!(rec.precision.precisions, vec![WeightPrecision::Bf16]);
    assert!(rec.warnings[0].starts_with("The quality gate has not decided"));

    input.pilot_serving = Some(PilotServing {
        precision: "AWQ-INT4".to_string(),
        kv_cache_dtype: "fp8".to_string(),
        ..PilotServing::default()
    });
    input.kv_dtypes.clear();
    let rec = recommend_production(&input);
    assert_eq!(rec.precision.basis, PrecisionBasis::PilotServing);
    assert_eq!(rec.precision.precisions, vec![WeightPrecision::Int4]);
    assert!(rec.precision.note.contains("INT4 (AWQ/GPTQ)"));
    assert_eq!(rec.kv_dtypes, vec![KvDtype::Fp8]);
    assert!(rec.warnings.iter().any(|w| w.contains("has not confirmed")));
    assert!(
        rec.warnings
            .iter()
            .any(|w| w == "No KV-cache dtype was chosen: sized with the pilot's FP8 cache.")
    );
}

#[test]
fn precision_names_from_the_plan_parse() {
    use super::precision::parse_precision_name;
    assert_eq!(parse_precision_name("FP8"), Some(WeightPrecision::Fp8));
    assert_eq!(
        parse_precision_name("AWQ-INT4"),
        Some(WeightPrecision::Int4)
    );
    assert_eq!(parse_precision_name("FP16"), Some(WeightPrecision::Fp16));
    assert_eq!(
        parse_precision_name("gptq int4"),
        Some(WeightPrecision::Int4)
    );
    assert_eq!(parse_precision_name("fp6"), None);
}

#[test]
fn a_price_gives_the_cost_of_the_cards() {
    let mut input = worked_example();
    input.gpus[0].unit_price = Some(9_000.0);
    let rec = recommend_production(&input);
    assert_eq!(rec.cost, Some(18_000.0));
    assert_eq!(rec.options[0].cost, Some(18_000.0));
    let cost = line(&rec, "Cost");
    assert_eq!(cost.formula, "2 cards × 9,000.00");
    assert_eq!((cost.value, cost.source), (18_000.0, Source::Assessor));
    assert!(rec.summary.contains("Cost: 18,000.00."));

    // A card without a price never gets a cost.
    input.gpus.push(GpuOffer {
        gpu: gpu_by_id("h200-nvl").unwrap(),
        unit_price: None,
    });
    let rec = recommend_production(&input);
    let chosen = rec.chosen.unwrap();
    assert_eq!((chosen.gpu_id.as_str(), chosen.cards), ("h200-nvl", 1));
    assert_eq!(rec.cost, None);
}

#[test]
fn nothing_fits_gives_a_clear_reason_without_panicking() {
    let mut input = worked_example();
    input.demand.arrival_rate_per_s = 30.0;
    input.max_cards = 2;
    let rec = recommend_production(&input);
    assert_eq!(rec.sessions.peak_sessions, 300);
    assert!(rec.chosen.is_none());
    assert!(rec.options.is_empty());
    assert!(rec.arithmetic.is_empty());
    assert!(rec.next_load_test.is_none());
    assert_eq!(rec.feasible_count, 0);
    let memory = rec.infeasible.iter().find(|r| r.kind == "memory").unwrap();
    assert_eq!(
        memory.example,
        "memory: 78 sessions fit in 2 cards, 300 are needed"
    );
    assert!(rec.summary.starts_with(
        "No configuration of up to 2 cards carries 300 sessions of 8,192 tokens at ≥ 25.0 tok/s per stream. Reasons: "
    ));
    assert!(rec.summary.contains("memory ("));

    let mut no_gpus = worked_example();
    no_gpus.gpus.clear();
    let rec = recommend_production(&no_gpus);
    assert!(rec.chosen.is_none());
    assert_eq!(
        rec.summary,
        "No GPU was offered, so nothing can carry 30 sessions of 8,192 tokens at ≥ 25.0 tok/s per stream."
    );
}

#[test]
fn missing_targets_are_assumed_and_flagged() {
    let mut input = worked_example();
    input.targets = ProductionTargets::default();
    let sessions = sessions_to_hold(&input);
    // 3 req/s × (0 + 240 × 1000/6 ms) = 3 × 40 s = 120 sessions.
    assert_eq!(sessions.tpot_basis, BoundBasis::Assumed);
    assert!((sessions.request_time_s - 40.0).abs() < 1e-9);
    assert_eq!(sessions.peak_sessions, 120);
    assert_eq!(sessions.warnings().len(), 2);
    let rec = recommend_production(&input);
    assert_eq!(rec.demand.min_decode_tokens_per_s, Some(6.0));
    assert_eq!(rec.demand.max_ttft_ms, None);
}

#[test]
fn a_peak_to_mean_factor_scales_the_sessions() {
    let mut input = worked_example();
    input.peak_to_mean = Some(1.5);
    let sessions = sessions_to_hold(&input);
    assert_eq!(sessions.peak_sessions, 45);
    input.peak_to_mean = Some(0.5);
    assert_eq!(sessions_to_hold(&input).peak_sessions, 30);
}

#[test]
fn the_plan_targets_come_from_its_tightest_all_traffic_marks() {
    let content = templates::by_id("mlperf-v6-llama2-70b-interactive")
        .unwrap()
        .content();
    let targets = ProductionTargets::from_plan(&content);
    assert_eq!(targets.ttft.as_ref().unwrap().label, "TTFT p99 ≤ 450 ms");
    assert_eq!(targets.tpot.as_ref().unwrap().limit_ms, 40.0);
}

const VLLM_AT_30: &str = "vllm bench serve --backend openai-chat --base-url http://localhost:8000 \
--endpoint /v1/chat/completions --model meta-llama/Llama-3.3-70B-Instruct --dataset-name random \
--random-input-len 1000 --random-output-len 200 --ignore-eos --max-concurrency 30 --num-prompts 300 \
--percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,95,99 --goodput ttft:400 tpot:40 \
--metadata gpu=rtx-pro-6000-server weights=fp8 kv_cache_dtype=fp8 tensor_parallel=2 \
pipeline_parallel=1 --save-result --result-filename pilot-desk-rtx-pro-6000-server-fp8-kv-fp8-tp2-pp1-c30.json";

const AIPERF_AT_30: &str = "aiperf profile --model meta-llama/Llama-3.3-70B-Instruct \
--url http://localhost:8000 --endpoint-type chat --streaming --synthetic-input-tokens-mean 1000 \
--synthetic-input-tokens-stddev 0 --output-tokens-mean 200 --output-tokens-stddev 0 \
--extra-inputs ignore_eos:true --concurrency 30 --request-count 300 \
--goodput 'time_to_first_token:400 inter_token_latency:40' \
--output-artifact-dir artifacts/pilot-desk-rtx-pro-6000-server-fp8-kv-fp8-tp2-pp1-c30";

#[test]
fn the_next_load_test_has_exact_command_lines() {
    let rec = recommend_production(&worked_example());
    let test = rec.next_load_test.unwrap();
    assert_eq!(test.peak_concurrency_per_copy, 30);
    assert_eq!((test.prompt_tokens, test.answer_tokens), (1_000, 200));
    let sweep: Vec<(f64, u32, u32)> = test
        .points
        .iter()
        .map(|p| (p.share_of_peak, p.concurrency, p.num_prompts))
        .collect();
    assert_eq!(
        sweep,
        vec![
            (0.5, 15, 200),
            (1.0, 30, 300),
            (1.5, 45, 450),
            (2.0, 60, 600)
        ]
    );
    let at_peak = &test.points[1];
    assert_eq!(at_peak.vllm_bench.line, VLLM_AT_30);
    assert_eq!(at_peak.aiperf.line, AIPERF_AT_30);
    let goodput_at = at_peak
        .vllm_bench
        .argv
        .iter()
        .position(|a| a == "--goodput")
        .unwrap();
    assert_eq!(
        at_peak.vllm_bench.argv[goodput_at + 1..goodput_at + 3],
        ["ttft:400", "tpot:40"]
    );
    assert!(
        at_peak
            .aiperf
            .argv
            .contains(&"time_to_first_token:400 inter_token_latency:40".to_string())
    );
    assert!(test.notes[0].starts_with(
        "Start the server as sized: vllm serve with --tensor-parallel-size 2 --pipeline-parallel-size 1 --kv-cache-dtype fp8 --max-model-len 8192"
    ));
    // Deterministic: the same input gives the same commands.
    let again = recommend_production(&worked_example())
        .next_load_test
        .unwrap();
    assert_eq!(again, test);
}

#[test]
fn copies_are_tested_per_copy_and_settings_reach_the_commands() {
    let mut input = worked_example();
    input.targets.tpot = Some(target(MetricKey::TpotMs, 200.0, "TPOT p99 ≤ 200 ms"));
    input.targets.ttft = Some(LatencyTarget {
        statistic: "p90".to_string(),
        inclusive: false,
        ..target(MetricKey::TtftMs, 2_000.0, "TTFT p90 < 2000 ms")
    });
    input.demand.completion_tokens_mean = 51.0;
    input.demand.arrival_rate_per_s = 2.5;
    // 2.5 req/s × (2 s + 50 × 0.2 s) = 2.5 × 12 s = 30 sessions.
    input.load_test = LoadTestSettings {
        base_url: "http://gpu-node:8000".to_string(),
        served_model_name: Some("llama-70b-fp8".to_string()),
        tokenizer: None,
    };
    let rec = recommend_production(&input);
    assert_eq!(rec.sessions.peak_sessions, 30);
    // Rank 1 is TP=2 (2 cards); the load test can be asked for any feasible row, here the
    // three single-card copies (12 sessions each).
    let rows = recommend(
        &rec.demand,
        &recommend_options(&input, &rec.precision, &rec.kv_dtypes, &rec.combinations),
    );
    let copies = rows
        .iter()
        .find(|c| c.topology == Topology::new(1, 1, 3))
        .unwrap();
    assert!(copies.feasible, "{:?}", copies.reasons);
    let test = next_load_test(&input, copies);
    assert_eq!(test.peak_concurrency_per_copy, 10);
    assert_eq!(
        test.points
            .iter()
            .map(|p| p.concurrency)
            .collect::<Vec<_>>(),
        vec![5, 10, 15, 20]
    );
    let argv = &test.points[1].vllm_bench.argv;
    let after = |flag: &str| &argv[argv.iter().position(|a| a == flag).unwrap() + 1];
    assert_eq!(after("--model"), "llama-70b-fp8");
    assert_eq!(after("--tokenizer"), "meta-llama/Llama-3.3-70B-Instruct");
    assert_eq!(after("--base-url"), "http://gpu-node:8000");
    assert_eq!(after("--metric-percentiles"), "50,90,95,99");
    assert_eq!(after("--goodput"), "ttft:2000");
    assert!(test.notes[0].starts_with("Concurrency is per copy: 3 copies share the 30 sessions"));
    assert!(test.notes.iter().any(|n| n.contains("strict (<)")));
}

#[test]
fn the_recommendation_survives_json() {
    let mut input = worked_example();
    input.gpus[0].unit_price = Some(9_000.0);
    let json = serde_json::to_string(&input).unwrap();
    let back: ProductionInput = serde_json::from_str(&json).unwrap();
    assert_eq!(back, input);
    let rec = recommend_production(&input);
    let json = serde_json::to_string(&rec).unwrap();
    let back: ProductionRecommendation = serde_json::from_str(&json).unwrap();
    assert_eq!(back, rec);
}

/// The demo pilot's shape: Qwen2.5-7B in FP16 on V100s, sessions sized whole.
fn qwen_on_v100() -> ProductionInput {
    let mut input = worked_example();
    input.model = model_by_id("qwen2.5-7b").unwrap();
    input.passing_combinations = vec![(WeightPrecision::Fp16, KvDtype::Bits16)];
    input.passing_precisions.clear();
    input.kv_dtypes.clear();
    input.gpus = vec![GpuOffer {
        gpu: gpu_by_id("v100-sxm2-16gb").unwrap(),
        unit_price: None,
    }];
    input.demand.arrival_rate_per_s = 0.48;
    input.demand.completion_tokens_mean = 274.0;
    input.demand.context_basis = ContextBasis::WholeSession;
    input.demand.context_tokens_per_session = 5_845;
    input.demand.measured_context = Some(crate::demand::MeasuredContext {
        requests: 5_870,
        p95_tokens: 1_910.0,
        max_tokens: 5_845,
        longer_than_p95: Some(294),
        plan_tokens: None,
    });
    input
}

#[test]
fn whole_sessions_start_vllm_with_the_longest_request_and_say_what_the_p95_leaves_out() {
    let rec = recommend_production(&qwen_on_v100());
    let context = line(&rec, "Context per session");
    assert_eq!(context.value, 5_845.0);
    assert!(
        context
            .formula
            .contains("p95 1,910 tokens; 5.0 % of requests (294) are longer; the longest 5,845"),
        "{}",
        context.formula
    );
    let test = rec.next_load_test.as_ref().unwrap();
    assert!(
        test.notes
            .iter()
            .any(|n| n.contains("--max-model-len 5845"))
    );
    assert_eq!(rec.demand.context_tokens, 5_845);
    // Sized at the p95 instead, the recommendation says how many requests vLLM would refuse.
    let mut p95 = qwen_on_v100();
    p95.demand.context_basis = ContextBasis::P95;
    p95.demand.context_tokens_per_session = 1_910;
    let rec = recommend_production(&p95);
    assert!(rec.warnings.iter().any(|w| w.starts_with(
        "Sessions are sized at the p95 (1,910 tokens), which is also vLLM's --max-model-len: it refuses longer requests outright (p95 1,910 tokens; 5.0 % of requests (294) are longer; the longest 5,845)."
    )), "{:#?}", rec.warnings);
}

#[test]
fn a_60_tok_s_target_is_graded_on_the_calibrated_speed_not_the_ceiling() {
    use crate::sizing::decode::{EfficiencyFactor, SpeedBasis, SpeedCalibration};
    let mut input = qwen_on_v100();
    input.targets.tpot = Some(target(
        MetricKey::TpotMs,
        1000.0 / 60.0,
        "TPOT p99 ≤ 16.7 ms",
    ));
    // Ceiling only: 2 × V100 at TP=2 reach 127.7 tok/s on paper (4 at TP=4: 255.3), so the
    // plan passes on the ceiling alone, flagged.
    let rec = recommend_production(&input);
    let chosen = rec.chosen.as_ref().expect("feasible on the ceiling alone");
    assert_eq!((chosen.topology.tp, chosen.decode_tokens_per_s), (2, 127.7));
    assert_eq!(rec.options[0].speed_basis, SpeedBasis::CeilingOnly);
    assert!(
        rec.warnings
            .iter()
            .any(|w| w.starts_with("Per-stream speed is not established"))
    );
    assert!(
        rec.summary
            .contains("per-stream speed not established: ceiling only")
    );
    // Calibrated on the pilot's load test (34.5 tok/s at concurrency 1): nothing reaches 60.
    input.speed = SpeedCalibration {
        factors: vec![
            EfficiencyFactor::new(
                "v100-sxm2-16gb",
                "Tesla V100-SXM2-16GB",
                4,
                1,
                WeightPrecision::Fp16,
                34.5,
                255.3,
                1.0,
                "vllm bench serve, v100.jsonl, concurrency 1",
            )
            .unwrap(),
        ],
    };
    let rec = recommend_production(&input);
    assert!(rec.chosen.is_none(), "{:?}", rec.chosen.map(|c| c.topology));
    let speed = rec
        .infeasible
        .iter()
        .find(|r| r.kind == "decode speed")
        .unwrap();
    assert!(
        speed
            .example
            .contains("the expected 34.5 tok/s (ceiling 255.3 × efficiency 0.135)"),
        "{}",
        speed.example
    );
    // At the pilot's own 25 tok/s (TPOT ≤ 40 ms) the calibrated V100 passes, marked measured.
    input.targets.tpot = Some(target(MetricKey::TpotMs, 40.0, "TPOT p99 ≤ 40 ms"));
    let rec = recommend_production(&input);
    let option = &rec.options[0];
    assert_eq!(option.speed_basis, SpeedBasis::Measured);
    assert_eq!(option.expected_tokens_per_s, 34.5);
    assert!(
        rec.summary
            .contains("an expected 34.5 tok/s per stream (Estimated"),
        "{}",
        rec.summary
    );
    assert_eq!(
        line(&rec, "Expected speed per stream (estimate)").source,
        Source::LoadTest
    );
}

#[test]
fn only_the_kv_cache_an_evaluation_run_passed_with_is_sized() {
    let mut input = worked_example();
    input.passing_precisions.clear();
    input.kv_dtypes.clear();
    input.passing_combinations = vec![(WeightPrecision::Fp8, KvDtype::Bits16)];
    let rec = recommend_production(&input);
    assert!(rec.options.iter().all(|o| o.kv_dtype == KvDtype::Bits16));
    // TP=2 with a 16-bit cache: 98.38 GiB ÷ 2.5 GiB = 39 sessions.
    let chosen = rec.chosen.unwrap();
    assert_eq!(
        (chosen.kv_dtype, chosen.cards, chosen.sessions),
        (KvDtype::Bits16, 2, 39)
    );
    assert!(
        rec.precision
            .note
            .contains("FP8 weights with a 16-bit KV cache")
    );
    input.passing_combinations = vec![(WeightPrecision::Fp8, KvDtype::Fp8)];
    assert_eq!(recommend_production(&input).chosen.unwrap().sessions, 78);
}

#[test]
fn the_h200_nvl_is_not_sized_in_nvfp4_it_cannot_compute() {
    let mut input = worked_example();
    input.passing_precisions = vec![WeightPrecision::Fp8, WeightPrecision::Nvfp4];
    input.gpus = vec![GpuOffer {
        gpu: gpu_by_id("h200-nvl").unwrap(),
        unit_price: None,
    }];
    let rec = recommend_production(&input);
    assert!(
        rec.options
            .iter()
            .all(|o| o.precision == WeightPrecision::Fp8)
    );
    let chosen = rec.chosen.unwrap();
    assert_eq!(
        (chosen.precision, chosen.cards, chosen.sessions),
        (WeightPrecision::Fp8, 1, 44)
    );
    let format = rec.infeasible.iter().find(|r| r.kind == "format").unwrap();
    assert!(
        format
            .example
            .contains("NVIDIA H200 NVL has no native NVFP4 weights")
    );
    // Chosen explicitly, it is sized, flagged.
    input.allow_emulated = true;
    input.passing_precisions = vec![WeightPrecision::Nvfp4];
    let rec = recommend_production(&input);
    assert!(rec.chosen.is_some());
    assert!(
        rec.warnings
            .iter()
            .any(|w| w.starts_with("Emulated format, sized because it was chosen"))
    );
}

#[test]
fn the_caveats_say_to_rerun_the_load_test_on_the_production_stack_with_its_command() {
    let rec = recommend_production(&worked_example());
    assert_eq!(rec.caveats.len(), 1);
    assert!(
        rec.caveats[0].starts_with("Re-run the load test on the production stack before go-live")
    );
    assert!(rec.caveats[0].ends_with(VLLM_AT_30), "{}", rec.caveats[0]);
}

/// A twin with round numbers (10 ms per step, 0.1 ms per prompt token, 20 ms overhead, 8
/// sequences): answers of 256 tokens take about 2.6 s alone, far below saturation at 0.48 req/s.
fn round_twin() -> crate::twin::Twin {
    use crate::twin::{
        Backtest, EngineLimits, LimitSource, PrefillScheduling, StepCost, TimingModel, Twin,
    };
    Twin {
        model: TimingModel::new(
            StepCost {
                base_ms: 10.0,
                per_sequence_ms: 0.0,
                per_context_token_us: 0.0,
                per_prefill_token_us: 100.0,
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
        ),
        backtest: Backtest::not_run("not run"),
    }
}

/// The first option's configuration, as if the pilot had measured it.
fn measured_as(option: &ProductionOption) -> MeasuredConfiguration {
    MeasuredConfiguration {
        gpu_id: option.gpu_id.clone(),
        tp: option.topology.tp,
        pp: option.topology.pp,
        precision: option.precision,
    }
}

#[test]
fn each_mark_is_checked_against_the_predicted_percentile_with_its_basis() {
    let twin = round_twin();
    let prediction = twin.predict(&crate::twin::Question::rate(0.48));
    let p99 = prediction.tpot_ms.p99;
    let mut scoped = target(MetricKey::TtftMs, 450.0, "TTFT p99 ≤ 450 ms (chat)");
    scoped.scenario = Some("chat".into());
    let mut max = target(MetricKey::E2eMs, 60_000.0, "E2E max ≤ 60 s");
    max.statistic = "max".into();
    let marks = [
        target(MetricKey::TpotMs, p99, "TPOT p99 ≤ predicted"),
        target(MetricKey::TpotMs, p99 * 0.99, "TPOT p99 ≤ 1 % below"),
        scoped,
        max,
    ];
    let checked = twin_check::check_marks(&prediction, &marks);
    // At the limit (inclusive) holds; 1 % below it misses; the value is the prediction's own.
    assert_eq!(checked[0].predicted_ms, Some(p99));
    assert_eq!(checked[0].holds, Some(true));
    assert_eq!(checked[0].basis, Some(prediction.basis));
    assert_eq!(checked[1].holds, Some(false));
    // A scenario mark and a maximum are listed, not judged.
    assert_eq!((checked[2].holds, checked[2].predicted_ms), (None, None));
    assert_eq!((checked[3].holds, checked[3].predicted_ms), (None, None));
    // Each TPOT step is 10 ms here, so p99 TPOT is at least that.
    assert!(p99 >= 10.0, "{p99}");

    let compliance = twin_check::predict_compliance(&twin, &marks, 0.96, 2);
    // Two copies: each asked at half the rate; the throughput is both copies'.
    assert_eq!(compliance.rate_per_copy_per_s, 0.48);
    assert_eq!(compliance.holds, Some(false));
    let one = twin.predict(&crate::twin::Question::rate(0.48));
    assert_eq!(
        compliance.output_tokens_per_s,
        one.output_tokens_per_s * 2.0
    );
    assert_eq!(
        compliance.input_tokens_per_s,
        one.request_throughput_per_s * one.prompt_tokens_mean * 2.0
    );
}

#[test]
fn a_predicted_miss_ranks_below_configurations_not_predicted_to_miss() {
    let mut input = qwen_on_v100();
    input.gpus.push(GpuOffer {
        gpu: gpu_by_id("a100-sxm4-80gb").unwrap(),
        unit_price: None,
    });
    input.top = 500;
    let plain = recommend_production(&input);
    assert!(plain.options.len() >= 2, "{:#?}", plain.options);
    assert!(plain.options.iter().all(|o| o.predicted.is_none()));
    let first = plain.options[0].clone();
    let measured = measured_as(&first);

    // Marks the twin predicts to hold: the order is kept, the pilot's configuration says so.
    input.twin = Some(PilotTwin {
        configuration: measured.clone(),
        twin: round_twin(),
        marks: vec![target(MetricKey::TpotMs, 1_000.0, "TPOT p99 ≤ 1,000 ms")],
    });
    let holds = recommend_production(&input);
    let order = |rec: &ProductionRecommendation| {
        rec.options
            .iter()
            .map(|o| (o.gpu_id.clone(), o.topology, o.precision, o.kv_dtype))
            .collect::<Vec<_>>()
    };
    assert_eq!(order(&holds), order(&plain));
    let predicted = holds.options[0].predicted.as_ref().expect("twin applies");
    assert_eq!(predicted.holds, Some(true));
    assert_eq!(predicted.rate_per_s, 0.48);
    assert_eq!(predicted.marks[0].holds, Some(true));
    // Other hardware: the twin does not speak for it.
    for o in &holds.options {
        let same = o.gpu_id == measured.gpu_id
            && o.topology.tp == measured.tp
            && o.topology.pp == measured.pp
            && o.precision == measured.precision;
        assert_eq!(o.predicted.is_some(), same, "{}", o.gpu_id);
    }

    // A mark the twin predicts to miss: every candidate of that configuration moves below the
    // rest, the others keep their order, ranks are renumbered, and the summary follows.
    input.twin.as_mut().unwrap().marks = vec![target(MetricKey::TpotMs, 1.0, "TPOT p99 ≤ 1 ms")];
    let misses = recommend_production(&input);
    let missed: Vec<bool> = misses
        .options
        .iter()
        .map(|o| o.predicted.as_ref().and_then(|p| p.holds) == Some(false))
        .collect();
    assert!(missed.iter().any(|m| *m), "{missed:?}");
    let first_miss = missed.iter().position(|m| *m).unwrap();
    assert!(missed[first_miss..].iter().all(|m| *m), "{missed:?}");
    assert!(first_miss > 0, "something is not predicted to miss");
    assert_ne!(order(&misses)[0], order(&plain)[0]);
    let not_missed: Vec<_> = order(&plain)
        .into_iter()
        .filter(|o| {
            o.0 != measured.gpu_id
                || o.1.tp != measured.tp
                || o.1.pp != measured.pp
                || o.2 != measured.precision
        })
        .collect();
    assert_eq!(&order(&misses)[..first_miss], &not_missed[..first_miss]);
    assert_eq!(
        misses.options.iter().map(|o| o.rank).collect::<Vec<_>>(),
        (1..=misses.options.len() as u32).collect::<Vec<_>>()
    );
    let chosen = misses.chosen.as_ref().unwrap();
    assert_eq!(chosen.gpu_id, misses.options[0].gpu_id);
    assert_eq!(chosen.rank, Some(1));
    assert!(
        misses
            .warnings
            .iter()
            .any(|w| w.contains("misses a latency pass mark at the production rate of 0.48 req/s")),
        "{:#?}",
        misses.warnings
    );
}

#[test]
fn the_operating_cost_is_the_hourly_price_over_the_predicted_tokens_and_only_where_the_twin_applies()
 {
    let mut input = qwen_on_v100();
    input.gpus.push(GpuOffer {
        gpu: gpu_by_id("a100-sxm4-80gb").unwrap(),
        unit_price: None,
    });
    input.top = 500;
    let plain = recommend_production(&input);
    let measured = measured_as(&plain.options[0]);
    input.twin = Some(PilotTwin {
        configuration: measured.clone(),
        twin: round_twin(),
        marks: vec![target(MetricKey::TpotMs, 1_000.0, "TPOT p99 ≤ 1,000 ms")],
    });
    // No price: no cost, the prediction stands alone.
    let rec = recommend_production(&input);
    assert!(rec.options.iter().all(|o| o.operating_cost.is_none()));
    // Prices for both GPUs: only the measured configuration gets a cost.
    input.gpu_hour_prices = vec![
        GpuHourPrice {
            gpu_id: measured.gpu_id.clone(),
            price_per_gpu_hour: 2.5,
            currency: None,
        },
        GpuHourPrice {
            gpu_id: "a100-sxm4-80gb".into(),
            price_per_gpu_hour: 4.0,
            currency: None,
        },
    ];
    let rec = recommend_production(&input);
    let mut costed = 0;
    for o in &rec.options {
        match (&o.predicted, &o.operating_cost) {
            (Some(p), Some(cost)) => {
                costed += 1;
                let gpus = f64::from(o.cards);
                assert_eq!(
                    cost.per_million_output_tokens,
                    2.5 * gpus / (p.output_tokens_per_s * 3600.0) * 1e6
                );
                assert_eq!(
                    cost.per_million_input_tokens,
                    2.5 * gpus / (p.input_tokens_per_s * 3600.0) * 1e6
                );
                assert_eq!(cost.basis, "Estimated");
                assert!(
                    cost.output_working
                        .starts_with(&format!("2.50 per GPU-hour × {} GPUs ÷ (", o.cards))
                );
                assert!(
                    cost.output_working
                        .contains("tok/s × 3,600 s/h) × 1,000,000 = ")
                );
            }
            (None, cost) => assert!(
                cost.is_none(),
                "{} has a cost without a prediction",
                o.gpu_id
            ),
            (Some(_), None) => panic!("{}: predicted and priced, but no cost", o.gpu_id),
        }
    }
    assert!(costed > 0);
    // The arithmetic by hand: $2.50/h × 4 GPUs at 200 output tok/s = $10 per 720,000 tokens.
    let p = rec
        .options
        .iter()
        .find_map(|o| o.predicted.clone())
        .unwrap();
    let fixed = PredictedCompliance {
        output_tokens_per_s: 200.0,
        input_tokens_per_s: 2_000.0,
        ..p
    };
    let price = |price_per_gpu_hour: f64, currency: Option<&str>| GpuHourPrice {
        gpu_id: "h100-sxm".into(),
        price_per_gpu_hour,
        currency: currency.map(str::to_string),
    };
    let cost = operating_cost(&price(2.5, None), 4, &fixed).unwrap();
    assert!((cost.per_million_output_tokens - 13.888_888_888_888_89).abs() < 1e-9);
    assert!((cost.per_million_input_tokens - 1.388_888_888_888_889).abs() < 1e-9);
    assert_eq!(
        cost.output_working,
        "2.50 per GPU-hour × 4 GPUs ÷ (200.0 tok/s × 3,600 s/h) × 1,000,000 = 13.89"
    );
    assert_eq!(cost.currency, None);
    // With the installation's currency, the price, the result and the figure name it.
    let cost = operating_cost(&price(2.5, Some("EUR")), 4, &fixed).unwrap();
    assert_eq!(
        cost.output_working,
        "2.50 EUR per GPU-hour × 4 GPUs ÷ (200.0 tok/s × 3,600 s/h) × 1,000,000 = 13.89 EUR"
    );
    assert_eq!(cost.currency.as_deref(), Some("EUR"));
    assert!(operating_cost(&price(0.0, None), 4, &fixed).is_none());
}

#[test]
fn the_pilots_own_configuration_is_listed_with_its_rank_when_it_is_not_among_the_best() {
    let mut input = qwen_on_v100();
    input.gpus.push(GpuOffer {
        gpu: gpu_by_id("a100-sxm4-80gb").unwrap(),
        unit_price: None,
    });
    input.top = 500;
    let all = recommend_production(&input);
    assert!(all.options.len() >= 3, "{:#?}", all.options);
    // The measured configuration is the last feasible one: far below the best.
    let last = all.options.last().unwrap().clone();
    let measured = measured_as(&last);
    input.twin = Some(PilotTwin {
        configuration: measured.clone(),
        twin: round_twin(),
        marks: vec![target(MetricKey::TpotMs, 1_000.0, "TPOT p99 ≤ 1,000 ms")],
    });
    input.top = 1;
    let rec = recommend_production(&input);
    assert_eq!(rec.options.len(), 2, "the best one and the pilot's own");
    assert!(!rec.options[0].pilot_configuration);
    let own = &rec.options[1];
    assert!(own.pilot_configuration && own.predicted.is_some());
    assert_eq!(
        (
            own.gpu_id.as_str(),
            own.topology.tp,
            own.topology.pp,
            own.precision
        ),
        (
            measured.gpu_id.as_str(),
            measured.tp,
            measured.pp,
            measured.precision
        )
    );
    // Its rank among all feasible configurations: the first of its kind in the full list.
    let expected = all
        .options
        .iter()
        .find(|o| {
            o.gpu_id == measured.gpu_id
                && o.topology.tp == measured.tp
                && o.topology.pp == measured.pp
                && o.precision == measured.precision
        })
        .unwrap();
    assert_eq!(own.rank, expected.rank);
    assert!(own.rank > 1);
    assert_eq!(rec.feasible_count, all.feasible_count);
    // Already among the best: not listed twice.
    input.top = 500;
    let rec = recommend_production(&input);
    assert_eq!(rec.options.len(), all.options.len());
}
