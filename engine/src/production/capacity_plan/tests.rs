//! The capacity plan on the demo pilot: the V100 benchmark report's twin, Qwen2.5-7B, ten times
//! the pilot's busiest hour.

use super::*;
use crate::production::demand_process::DemandProcess;
use crate::sizing::{gpu_by_id, model_by_id};
use crate::twin::transfer::Execution;
use crate::twin::{ServingLimits, Workload};
use std::sync::OnceLock;

fn demo_twin() -> MeasuredTwin {
    let demo = crate::ingest::import(
        crate::loadtest::demo::FILE_NAME,
        crate::loadtest::demo::v100_report_jsonl().as_bytes(),
    )
    .unwrap();
    MeasuredTwin {
        twin: Twin::build(&demo.points, &demo.requests, &ServingLimits::default()).unwrap(),
        setup: ServingSetup {
            gpu: gpu_by_id("v100-sxm2-16gb").unwrap(),
            tp: 4,
            pp: 1,
            weights: WeightPrecision::Fp16,
            kv_dtype: KvDtype::Bits16,
            execution: Execution::Eager,
        },
    }
}

fn mark(metric: MetricKey, statistic: &str, limit_ms: f64, label: &str) -> LatencyTarget {
    LatencyTarget {
        metric,
        statistic: crate::plan::Statistic::parse(statistic).expect("a statistic"),
        limit_ms,
        inclusive: true,
        scenario: None,
        label: label.into(),
        point: crate::plan::MeasurementPoint::Client,
    }
}

/// Issue #19's demo: 0.09 req/s at the pilot's busiest hour × 10, balanced chat lengths, the
/// plan's TTFT p99 ≤ 2 s and TPOT p99 ≤ 50 ms, FP16 with a 16-bit cache passed.
fn demo_input() -> CapacityPlanInput {
    CapacityPlanInput {
        model: model_by_id("qwen2.5-7b").unwrap(),
        demand: DemandProcess::poisson(0.09, 10.0, Workload::fixed(558, 256), 5),
        pilot_service: crate::production::ServiceTimes::Fixed { seconds: 7.7 },
        context_tokens_per_session: 8192,
        twin: Some(demo_twin()),
        marks: vec![
            mark(MetricKey::TtftMs, "p99", 2000.0, "TTFT p99 ≤ 2000 ms"),
            mark(MetricKey::TpotMs, "p99", 50.0, "TPOT p99 ≤ 50 ms"),
        ],
        formats: vec![(WeightPrecision::Fp16, KvDtype::Bits16)],
        gpus: [
            "v100-sxm2-16gb",
            "h100-sxm",
            "h100-pcie",
            "l40s",
            "rtx-4090",
            "mi300x",
        ]
        .into_iter()
        .map(|id| gpu_by_id(id).unwrap())
        .collect(),
        max_cards: 8,
        execution: Execution::CudaGraphs,
        memory_model: MemoryModel::Planning,
        prices: Vec::new(),
        verdict: None,
        simulated_requests: 300,
        seed: 1,
        served_model: Some("Qwen/Qwen2.5-7B-Instruct".into()),
        trace_file: Some("pilot-7-trace.jsonl".into()),
        // Issue #19's demo weighs every card, the pilot's own V100 among them.
        include_unorderable: true,
        through_gateway: false,
    }
}

fn demo_plan() -> &'static CapacityPlan {
    static PLAN: OnceLock<CapacityPlan> = OnceLock::new();
    PLAN.get_or_init(|| plan_capacity(&demo_input()))
}

#[test]
fn the_demo_recommends_two_or_more_copies_that_hold_with_one_down() {
    let plan = demo_plan();
    let r = plan.recommended.as_ref().expect("a recommendation");
    eprintln!("{}", plan.story);
    assert!(r.configuration.copies >= 2, "{:?}", r.configuration);
    let chosen = plan.candidates.iter().find(|c| c.rank == Some(1)).unwrap();
    assert_eq!(chosen.configuration, r.configuration);
    assert_eq!(chosen.holds_n_plus_1, Some(true));
    assert!(
        chosen
            .predicted
            .iter()
            .all(|m| m.holds_n_plus_1 == Some(true))
    );
    assert!(r.cards.low <= r.cards.value && r.cards.value <= r.cards.high);
    assert!(r.sensitivity.sentence.contains("half the growth"));
    let s = &r.sensitivity;
    assert!(
        s.cards_at_half.is_some_and(|c| c <= r.configuration.cards),
        "{s:?}"
    );
    assert!(
        s.cards_at_twice.is_none_or(|c| c >= r.configuration.cards),
        "{s:?}"
    );
    assert_eq!(plan.basis, PlanBasis::LatencyAndMemory);
}

#[test]
fn the_demand_is_the_arrival_process_not_the_stacked_bound() {
    let d = &demo_plan().demand;
    assert!((d.rate - 0.9).abs() < 1e-9);
    assert_eq!(d.sessions.poisson_p99, 14);
    assert!((13..=15).contains(&d.sessions.p99), "{:?}", d.sessions);
}

fn priced(ids: &[&str], prices: &[f64]) -> Vec<crate::production::GpuHourPrice> {
    ids.iter()
        .zip(prices)
        .map(|(id, price)| crate::production::GpuHourPrice {
            gpu_id: (*id).into(),
            price_per_gpu_hour: *price,
            currency: Some("EUR".into()),
        })
        .collect()
}

#[test]
fn with_prices_the_cheapest_configuration_that_holds_is_recommended() {
    let mut input = demo_input();
    // L40S made very cheap: more cards, yet less money per month than any H100.
    input.prices = priced(
        &["v100-sxm2-16gb", "h100-sxm", "h100-pcie", "l40s", "mi300x"],
        &[0.5, 4.0, 2.5, 0.1, 3.5],
    );
    let plan = plan_capacity(&input);
    let ranked: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.rank.is_some())
        .collect();
    assert!(ranked.len() > 1);
    let months: Vec<f64> = ranked
        .iter()
        .map(|c| c.cost.as_ref().unwrap().per_month)
        .collect();
    assert!(months.windows(2).all(|w| w[0] <= w[1]), "{months:?}");
    let chosen = ranked[0];
    assert_eq!(chosen.rank, Some(1));
    assert_eq!(
        plan.recommended.as_ref().map(|r| &r.configuration),
        Some(&chosen.configuration)
    );
    let cost = chosen.cost.as_ref().unwrap();
    assert!(
        (cost.per_month - cost.price_per_gpu_hour * f64::from(cost.cards) * 730.0).abs() < 1e-6
    );
    assert!(
        plan.recommended
            .as_ref()
            .unwrap()
            .why
            .contains("lowest monthly cost")
    );
    // Without prices the same evidence ranks by cards, and nothing carries money.
    let unpriced = demo_plan();
    assert!(unpriced.candidates.iter().all(|c| c.cost.is_none()));
    let fewest = unpriced
        .candidates
        .iter()
        .find(|c| c.rank == Some(1))
        .unwrap();
    assert!(
        ranked
            .iter()
            .all(|c| c.cards >= fewest.cards || c.cost.is_some())
    );
    assert!(
        unpriced
            .recommended
            .as_ref()
            .unwrap()
            .why
            .contains("fewest cards")
    );
}

#[test]
fn gpus_without_a_price_rank_after_the_priced_ones_and_are_named() {
    let mut input = demo_input();
    input.prices = priced(&["l40s"], &[1.2]);
    let plan = plan_capacity(&input);
    let ranked: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.rank.is_some())
        .collect();
    let first_unpriced = ranked.iter().position(|c| c.cost.is_none()).unwrap();
    assert!(
        ranked[..first_unpriced]
            .iter()
            .all(|c| c.configuration.gpu_id == "l40s")
    );
    assert!(ranked[first_unpriced..].iter().all(|c| c.cost.is_none()));
    let warning = plan
        .warnings
        .iter()
        .find(|w| w.contains("no price"))
        .expect("a warning");
    assert!(warning.contains("H100"), "{warning}");
}

#[test]
fn a_gateway_or_client_mark_carries_the_gateways_own_time() {
    let mut direct = demo_input();
    direct.marks = vec![mark(MetricKey::TtftMs, "p99", 2000.0, "TTFT p99 ≤ 2000 ms")];
    direct.gpus = vec![gpu_by_id("l40s").unwrap()];
    let mut gateway = direct.clone();
    gateway.marks[0].point = crate::plan::MeasurementPoint::Gateway;
    let (a, b) = (plan_capacity(&direct), plan_capacity(&gateway));
    let pair = a
        .candidates
        .iter()
        .zip(&b.candidates)
        .find(|(x, _)| x.status == CandidateStatus::Evaluated && x.configuration.copies >= 2);
    let (x, y) = pair.expect("an evaluated L40S configuration");
    assert_eq!(x.configuration, y.configuration);
    let (mx, my) = (&x.predicted[0], &y.predicted[0]);
    assert_eq!(mx.gateway_budget_ms, None);
    assert_eq!(
        my.gateway_budget_ms,
        Some(super::candidate::GATEWAY_BUDGET_MS)
    );
    let up = |m: &MarkForecast| m.all_copies_up.unwrap();
    assert!((up(my).value - up(mx).value - 100.0).abs() < 1e-6);
    assert!(
        up(my).low >= up(mx).low + 73.0 * 0.5,
        "{:?} {:?}",
        up(my),
        up(mx)
    );
    assert!((my.p99.unwrap() - mx.p99.unwrap() - 100.0).abs() < 1e-6);
    // TPOT holds through the proxy: a gateway TPOT mark is unchanged.
    let mut tpot = direct.clone();
    tpot.marks = vec![mark(MetricKey::TpotMs, "p99", 50.0, "TPOT p99 ≤ 50 ms")];
    let mut tpot_gateway = tpot.clone();
    tpot_gateway.marks[0].point = crate::plan::MeasurementPoint::Gateway;
    let (c, d) = (plan_capacity(&tpot), plan_capacity(&tpot_gateway));
    assert_eq!(c.candidates[0].predicted, d.candidates[0].predicted);
    // Production through a gateway: the client's clock runs across it too; the engine's not.
    let mut through = direct.clone();
    through.through_gateway = true;
    let z = plan_capacity(&through);
    let mz = &z
        .candidates
        .iter()
        .find(|c| c.configuration == x.configuration)
        .expect("the same configuration")
        .predicted[0];
    assert_eq!(
        mz.gateway_budget_ms,
        Some(super::candidate::GATEWAY_BUDGET_MS)
    );
    assert!((up(mz).value - up(mx).value - 100.0).abs() < 1e-6);
    let mut engine_mark = through.clone();
    engine_mark.marks[0].point = crate::plan::MeasurementPoint::Engine;
    let w = plan_capacity(&engine_mark);
    let mw = &w
        .candidates
        .iter()
        .find(|c| c.configuration == x.configuration)
        .expect("the same configuration")
        .predicted[0];
    assert_eq!(mw.gateway_budget_ms, None);
    assert!((up(mw).value - up(mx).value).abs() < 1e-6);
}

#[test]
fn workstation_cards_are_listed_but_the_server_edition_is_offered() {
    let mut input = demo_input();
    input.gpus = vec![
        gpu_by_id("rtx-pro-6000-max-q").unwrap(),
        gpu_by_id("rtx-pro-6000-server").unwrap(),
    ];
    let plan = plan_capacity(&input);
    let max_q: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.configuration.gpu_id == "rtx-pro-6000-max-q")
        .collect();
    assert!(!max_q.is_empty());
    assert!(max_q.iter().all(|c| matches!(&c.status, CandidateStatus::NotForProduction(why) if why.contains("workstation")) && c.rank.is_none()));
    let r = plan.recommended.as_ref().expect("the server edition holds");
    assert_eq!(r.configuration.gpu_id, "rtx-pro-6000-server");
}

#[test]
fn sxm_and_oam_cards_are_offered_in_their_board_sizes() {
    for c in &demo_plan().candidates {
        if c.status != CandidateStatus::Evaluated {
            continue;
        }
        match c.configuration.gpu_id.as_str() {
            "h100-sxm" | "v100-sxm2-16gb" => {
                assert!([4, 8].contains(&c.cards), "{:?}", c.configuration)
            }
            "mi300x" => assert_eq!(c.cards, 8, "{:?}", c.configuration),
            _ => {}
        }
        assert_eq!(
            c.cards,
            c.configuration.copies * c.configuration.tp * c.configuration.pp
        );
    }
}

#[test]
fn geforce_is_listed_but_never_recommended() {
    let plan = demo_plan();
    let rtx: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.configuration.gpu_id == "rtx-4090")
        .collect();
    assert_eq!(rtx.len(), 1);
    assert!(matches!(
        rtx[0].status,
        CandidateStatus::NotForProduction(_)
    ));
    assert_eq!(rtx[0].rank, None);
}

#[test]
fn an_h100_streams_faster_than_the_pilots_v100s_in_the_plan() {
    let plan = demo_plan();
    let speed = |gpu: &str, tp: u32| {
        plan.candidates
            .iter()
            .find(|c| c.configuration.gpu_id == gpu && c.configuration.tp == tp)
            .and_then(|c| c.tokens_per_s_per_stream)
            .map(|r| r.value)
    };
    let (h100, v100) = (
        speed("h100-sxm", 1).unwrap(),
        speed("v100-sxm2-16gb", 4).unwrap(),
    );
    eprintln!("per stream, one copy down: H100 SXM {h100:.1} tok/s, V100 TP=4 {v100:.1} tok/s");
    assert!(h100 > v100, "{h100} vs {v100}");
}

#[test]
fn the_story_and_the_next_steps_name_the_recommended_configuration() {
    let plan = demo_plan();
    let r = plan.recommended.as_ref().unwrap();
    assert!(
        plan.story.contains(&r.configuration.label),
        "{}",
        plan.story
    );
    assert!(
        plan.story.contains("0.9 req/s") || plan.story.contains("0.90 req/s"),
        "{}",
        plan.story
    );
    assert!(plan.story.contains("Twin: the pilot's"), "{}", plan.story);
    match &plan.next_steps[0] {
        NextStep::LoadTest {
            configuration,
            concurrency,
            ..
        } => {
            assert_eq!(configuration, &r.configuration.label);
            assert_eq!(concurrency[0], 1);
            let peak = concurrency[concurrency.len() - 2];
            assert_eq!(*concurrency.last().unwrap(), 2 * peak);
            // Poisson demand: no trace to replay, so only the sweep's command line.
            let NextStep::LoadTest { commands, .. } = &plan.next_steps[0] else {
                unreachable!()
            };
            assert_eq!(commands.len(), 1, "{commands:?}");
            let levels: Vec<String> = concurrency.iter().map(u32::to_string).collect();
            let sweep = &commands[0].command;
            assert!(
                sweep.starts_with(&format!(
                    "for c in {}; do vllm bench serve",
                    levels.join(" ")
                )),
                "{sweep}"
            );
            assert!(
                sweep.contains("--model Qwen/Qwen2.5-7B-Instruct"),
                "{sweep}"
            );
            assert!(
                sweep.contains("--random-input-len 558 --random-output-len 256"),
                "{sweep}"
            );
            assert!(sweep.contains(super::PRODUCTION_URL), "{sweep}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(plan.next_steps[1], NextStep::Evaluation { .. }));
}

#[test]
fn the_plan_serialises_with_the_field_names_of_the_issue() {
    let value = serde_json::to_value(demo_plan()).unwrap();
    for path in [
        "/demand/rate",
        "/demand/growth",
        "/demand/sessions/p50",
        "/demand/sessions/p99",
        "/demand/sessions/basis",
        "/candidates/0/configuration",
        "/candidates/0/holds",
        "/candidates/0/holds_n_plus_1",
        "/candidates/0/cards",
        "/candidates/0/predicted/0/p50",
        "/candidates/0/predicted/0/p99",
        "/candidates/0/predicted/0/low",
        "/candidates/0/predicted/0/high",
        "/candidates/0/predicted/0/basis",
        "/recommended/configuration",
        "/story",
        "/next_steps",
        "/warnings",
    ] {
        assert!(value.pointer(path).is_some(), "{path} missing");
    }
    assert_eq!(
        value.pointer("/candidates/0/predicted/0/basis"),
        Some(&"estimated".into())
    );
    let back: CapacityPlan = serde_json::from_value(value).unwrap();
    assert_eq!(&back, demo_plan());
}

#[test]
fn a_plan_without_latency_marks_is_recommended_on_memory_only() {
    let mut input = demo_input();
    input.marks.clear();
    input.gpus = vec![gpu_by_id("l40s").unwrap(), gpu_by_id("h100-pcie").unwrap()];
    let plan = plan_capacity(&input);
    assert_eq!(plan.basis, PlanBasis::MemoryOnly);
    assert!(plan.warnings.iter().any(|w| w.contains("memory only")));
    assert!(plan.story.contains("memory only"));
    let r = plan.recommended.as_ref().expect("memory alone recommends");
    assert!(r.configuration.copies >= 2);
}

#[test]
fn without_a_load_test_every_candidate_rests_on_the_prior() {
    let mut input = demo_input();
    input.twin = None;
    input.gpus = vec![gpu_by_id("h100-pcie").unwrap()];
    let plan = plan_capacity(&input);
    assert!(plan.pilot_at_production.is_none());
    assert!(plan.warnings.iter().any(|w| w.contains("prior")));
    let evaluated: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.status == CandidateStatus::Evaluated)
        .collect();
    assert!(!evaluated.is_empty());
    assert!(
        evaluated
            .iter()
            .all(|c| c.transfer == Some(TransferBasis::Prior))
    );
}

#[test]
fn a_format_the_card_only_emulates_says_so_instead_of_guessing() {
    let mut input = demo_input();
    input.formats = vec![(WeightPrecision::Bf16, KvDtype::Bits16)];
    input.gpus = vec![gpu_by_id("v100-sxm2-16gb").unwrap()];
    let plan = plan_capacity(&input);
    assert!(plan.recommended.is_none());
    assert!(
        plan.candidates
            .iter()
            .all(|c| matches!(c.status, CandidateStatus::NoEvidence(_))),
        "{:?}",
        plan.candidates
    );
    // Why nothing holds: the plan's last warning in English, the same figures in German.
    let english = super::nothing_holds_in(&input, &plan.candidates, crate::locale::Lang::En);
    assert_eq!(plan.warnings.last(), Some(&english));
    let german = super::nothing_holds_in(&input, &plan.candidates, crate::locale::Lang::De);
    assert!(
        german.starts_with(&format!(
            "Keine Konfiguration mit bis zu {} Karten hält jeden Zielwert",
            input.max_cards
        )),
        "{german}"
    );
    assert!(german.contains(&format!("0 von {} Kandidaten", plan.candidates.len())));
}

/// The demo on one H100 PCIe with a TPOT p99 mark set inside the predicted range (with one
/// copy down), so that the range crosses it whatever the priors predict; the mark's label.
fn input_with_a_crossed_tpot_mark() -> (CapacityPlanInput, String) {
    let mut input = demo_input();
    input.gpus = vec![gpu_by_id("h100-pcie").unwrap()];
    input.marks[1] = mark(MetricKey::TpotMs, "p99", 1_000.0, "TPOT p99 ≤ 1000 ms");
    let plan = plan_capacity(&input);
    let r = plan.recommended.as_ref().expect("a recommendation");
    let tpot = r
        .predicted
        .iter()
        .find(|m| m.metric == MetricKey::TpotMs)
        .unwrap();
    let (low, high) = (tpot.low.unwrap(), tpot.high.unwrap());
    assert!(low < high, "{tpot:?}");
    let limit = ((low + high) / 2.0).round().clamp(low.ceil(), high.floor());
    let label = format!("TPOT p99 ≤ {limit} ms");
    input.marks[1] = mark(MetricKey::TpotMs, "p99", limit, &label);
    (input, label)
}

#[test]
fn a_mark_whose_range_crosses_its_limit_names_the_load_test_that_settles_it() {
    let (input, label) = input_with_a_crossed_tpot_mark();
    let plan = plan_capacity(&input);
    let r = plan.recommended.as_ref().expect("a recommendation");
    let tpot = r
        .predicted
        .iter()
        .find(|m| m.metric == MetricKey::TpotMs)
        .unwrap();
    assert!(tpot.range_crosses, "{tpot:?}");
    assert!(r.unsettled[0].starts_with(&label), "{:?}", r.unsettled);
    assert!(
        plan.warnings.iter().any(|w| w.contains("settles it")),
        "{:?}",
        plan.warnings
    );
    match &plan.next_steps[0] {
        NextStep::LoadTest { settles, .. } => assert_eq!(settles, &r.unsettled),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_replayed_gateway_log_is_the_demand_and_the_load_test_replays_it() {
    let records: Vec<crate::traffic::GatewayRecord> =
        crate::traffic::SyntheticConfig::pilot_week(7)
            .records()
            .collect();
    let hour = crate::production::BusiestHour::from_gateway(&records).unwrap();
    let mut input = demo_input();
    input.demand = DemandProcess::replayed(hour, 10.0, 5);
    input.pilot_service = crate::production::ServiceTimes::AsLogged;
    input.gpus = vec![gpu_by_id("h100-pcie").unwrap(), gpu_by_id("l40s").unwrap()];
    let plan = plan_capacity(&input);
    assert_eq!(plan.demand.arrivals, ArrivalBasis::Replayed);
    assert_eq!(plan.demand.sessions.basis, ArrivalBasis::Replayed);
    assert!(
        plan.story.contains("busiest hour superposed"),
        "{}",
        plan.story
    );
    assert!(plan.recommended.is_some());
    let NextStep::LoadTest {
        replay_pilot_trace,
        commands,
        ..
    } = &plan.next_steps[0]
    else {
        panic!("{:?}", plan.next_steps)
    };
    assert!(*replay_pilot_trace);
    assert!(
        commands[0].command.starts_with("aiperf profile"),
        "{commands:?}"
    );
    assert!(
        commands[0].command.contains(
            "--input-file pilot-7-trace.jsonl --custom-dataset-type mooncake_trace --fixed-schedule"
        ),
        "{commands:?}"
    );
    assert!(commands[1].command.contains("vllm bench serve"));
}

#[test]
fn the_profiles_busiest_hour_is_read_back_request_by_request() {
    let records: Vec<crate::traffic::GatewayRecord> =
        crate::traffic::SyntheticConfig::pilot_week(7)
            .records()
            .collect();
    let sliding = crate::production::BusiestHour::from_gateway(&records).unwrap();
    let again = crate::production::BusiestHour::starting_at(&records, sliding.start_ms);
    assert_eq!(again, sliding);
    let later = crate::production::BusiestHour::starting_at(&records, sliding.start_ms + 60_000);
    assert!(
        later
            .requests
            .iter()
            .all(|r| r.offset_ms >= 0.0 && r.offset_ms < 3_600_000.0)
    );
    assert!(
        later
            .requests
            .windows(2)
            .all(|w| w[0].offset_ms <= w[1].offset_ms)
    );
}

#[test]
fn the_recommendations_pilot_twin_becomes_the_measured_twin() {
    let measured = demo_twin();
    let pilot = crate::production::PilotTwin {
        configuration: crate::production::MeasuredConfiguration {
            gpu_id: "v100-sxm2-16gb".into(),
            tp: 4,
            pp: 1,
            precision: WeightPrecision::Fp16,
        },
        twin: measured.twin.clone(),
        marks: Vec::new(),
    };
    let gpu = gpu_by_id("v100-sxm2-16gb").unwrap();
    let twin = MeasuredTwin::from_pilot(&pilot, gpu, KvDtype::Bits16, Some(false));
    assert_eq!(twin, measured);
}

#[test]
fn candidates_simulated_on_several_cores_give_the_same_plan_in_the_same_order() {
    let again = plan_capacity(&demo_input());
    assert_eq!(&again, demo_plan());
    let jobs: Vec<u32> = (0..37).collect();
    assert_eq!(
        super::candidate::in_parallel(&jobs, |j| j * j),
        jobs.iter().map(|j| j * j).collect::<Vec<_>>()
    );
}

#[test]
fn the_story_reads_in_german_with_german_numbers() {
    use crate::locale::Lang;
    let plan = demo_plan();
    let verdict = PilotVerdict {
        outcome: crate::verdict::PlanOutcome::Incomplete,
        tally: crate::verdict::Tally {
            passed: 2,
            failed: 0,
            not_measured: 1,
            not_comparable: 1,
        },
    };
    assert_eq!(plan.story_in(Some(&verdict), 8, Lang::En), plan.story);
    let story = plan.story_in(Some(&verdict), 8, Lang::De);
    assert!(
        story.starts_with(
            "Ergebnis: Die Bewertung des Piloten ist unvollständig (2 von 4 Zielwerten erreicht, 1 nicht gemessen, 1 nicht vergleichbar). Nachfrage: "
        ),
        "{story}"
    );
    assert!(
        story.contains("0,9 req/s") || story.contains("0,90 req/s"),
        "{story}"
    );
    assert!(
        story.contains("Zwilling: Die Konfiguration des Piloten ("),
        "{story}"
    );
    let r = plan.recommended.as_ref().unwrap();
    assert!(
        story.contains(&format!(
            "Empfohlen: {}. Sie hält",
            r.configuration.label_in(Lang::De)
        )),
        "{story}"
    );
    assert!(story.contains("Bei halbem Wachstum (×"), "{story}");
    assert!(!story.contains(" the "), "{story}");
    assert_eq!(plan.why_in(Lang::En).as_deref(), Some(r.why.as_str()));
}

#[test]
fn the_sensitivity_and_the_unsettled_ranges_read_in_german() {
    use crate::locale::Lang;
    let sensitivity = Sensitivity {
        half_growth: 0.75,
        cards_at_half: Some(1),
        twice_growth: 3.0,
        cards_at_twice: None,
        sentence: String::new(),
    };
    assert_eq!(
        sensitivity.sentence_in("Tesla V100", 8, Lang::De),
        "Bei halbem Wachstum (×0,75) bräuchte Tesla V100 1 Karte, bei doppeltem (×3,00) mehr als 8 Karten."
    );
    assert_eq!(
        sensitivity.sentence_in("Tesla V100", 8, Lang::En),
        "At half the growth (×0.75) Tesla V100 would need 1 cards; at twice it (×3.00) more than 8 cards."
    );
    let (input, label) = input_with_a_crossed_tpot_mark();
    let plan = plan_capacity(&input);
    let r = plan.recommended.as_ref().expect("a recommendation");
    assert_eq!(r.unsettled_in(Lang::En), r.unsettled);
    let german = r.unsettled_in(Lang::De);
    assert!(
        german[0].starts_with(&format!("{label} (vorhergesagt "))
            && german[0].ends_with(" ms mit einer ausgefallenen Kopie)"),
        "{german:?}"
    );
    assert!(
        r.unsettled_warnings_in(Lang::De)[0].contains("; der Lasttest auf "),
        "{:?}",
        r.unsettled_warnings_in(Lang::De)
    );
    let sentence = r.load_test_sentence_in(false, Lang::De);
    assert!(
        sentence.starts_with("Lasttest einer Kopie von ")
            && sentence.contains(" Er klärt TPOT p99"),
        "{sentence}"
    );
    let NextStep::LoadTest { sentence, .. } = &plan.next_steps[0] else {
        unreachable!()
    };
    assert_eq!(&r.load_test_sentence_in(false, Lang::En), sentence);
}

/// The demo on cards the pilot might be offered today: its own V100 (end of life), an A100
/// PCIe 80GB (end of sale), and current H100 PCIe and L40S cards.
fn input_with_unorderable_cards(include_unorderable: bool) -> CapacityPlanInput {
    let mut input = demo_input();
    input.gpus = ["v100-sxm2-16gb", "a100-pcie-80gb", "h100-pcie", "l40s"]
        .into_iter()
        .map(|id| gpu_by_id(id).unwrap())
        .collect();
    input.include_unorderable = include_unorderable;
    input
}

#[test]
fn cards_that_can_no_longer_be_ordered_are_left_out_by_default_and_named() {
    use crate::locale::Lang;
    use crate::sizing::AvailabilityStatus;
    let plan = plan_capacity(&input_with_unorderable_cards(false));
    let considered: Vec<&str> = plan
        .candidates
        .iter()
        .map(|c| c.configuration.gpu_id.as_str())
        .collect();
    assert!(
        considered
            .iter()
            .all(|id| ["h100-pcie", "l40s"].contains(id)),
        "{considered:?}"
    );
    let named: Vec<(&str, &str, AvailabilityStatus)> = plan
        .left_out
        .iter()
        .map(|l| (l.gpu_id.as_str(), l.reason.as_str(), l.availability.status))
        .collect();
    assert_eq!(
        named,
        [
            (
                "v100-sxm2-16gb",
                "end of life since 2025-10-31",
                AvailabilityStatus::EndOfLife
            ),
            (
                "a100-pcie-80gb",
                "end of sale, no date published",
                AvailabilityStatus::EndOfSale
            ),
        ]
    );
    assert!(
        plan.left_out
            .iter()
            .all(|l| !l.availability.sources.is_empty())
    );
    let r = plan.recommended.as_ref().expect("a current card holds");
    assert!(["h100-pcie", "l40s"].contains(&r.configuration.gpu_id.as_str()));
    assert!(r.availability.as_ref().is_some_and(|a| a.orderable()));
    assert!(
        plan.story.ends_with(
            "Left out as no longer orderable: NVIDIA Tesla V100 SXM2 16GB (end of life since \
             2025-10-31), NVIDIA A100 PCIe 80GB (end of sale, no date published); \
             include_unorderable weighs them too."
        ),
        "{}",
        plan.story
    );
    let german = plan.story_in(None, 8, Lang::De);
    assert!(
        german.ends_with(
            "Nicht berücksichtigt, weil nicht mehr bestellbar: NVIDIA Tesla V100 SXM2 16GB \
             (abgekündigt seit 2025-10-31), NVIDIA A100 PCIe 80GB (Verkauf eingestellt, ohne \
             veröffentlichtes Datum); include_unorderable bezieht sie mit ein."
        ),
        "{german}"
    );
    // The plan says so in its JSON, and reads back.
    let value = serde_json::to_value(&plan).unwrap();
    assert_eq!(value["left_out"][0]["gpu_id"], "v100-sxm2-16gb");
    assert_eq!(
        value["left_out"][0]["availability"]["status"],
        "end_of_life"
    );
    let back: CapacityPlan = serde_json::from_value(value).unwrap();
    assert_eq!(back, plan);
}

#[test]
fn the_option_brings_the_unorderable_cards_back() {
    let plan = plan_capacity(&input_with_unorderable_cards(true));
    assert!(plan.left_out.is_empty());
    for id in ["v100-sxm2-16gb", "a100-pcie-80gb"] {
        assert!(
            plan.candidates
                .iter()
                .any(|c| c.configuration.gpu_id == id && c.status == CandidateStatus::Evaluated),
            "{id} is weighed again"
        );
    }
    assert!(!plan.story.contains("Left out"), "{}", plan.story);
    // Were the recommended card one that cannot be ordered, the story would say so.
    let mut r = plan.recommended.clone().expect("a recommendation");
    r.configuration.gpu_name = "NVIDIA A100 PCIe 80GB".into();
    r.availability = gpu_by_id("a100-pcie-80gb").unwrap().availability;
    let sentence =
        super::availability::sentence_in(&[], Some(&r), crate::locale::Lang::En).unwrap();
    assert_eq!(
        sentence,
        "The recommended NVIDIA A100 PCIe 80GB can no longer be ordered new (end of sale, no \
         date published): confirm that a supplier can deliver it before quoting it."
    );
}

#[test]
fn the_recommendation_carries_the_start_line_it_was_sized_for() {
    let plan = demo_plan();
    let r = plan.recommended.as_ref().unwrap();
    let chosen = plan.candidates.iter().find(|c| c.rank == Some(1)).unwrap();
    let seqs = super::start_command::max_num_seqs(
        chosen
            .sessions
            .in_flight_p99_n_plus_1
            .max(chosen.sessions.in_flight_p99),
        chosen.sessions.per_copy,
    );
    eprintln!("{}", r.start_command);
    assert_eq!(
        r.start_command,
        format!(
            "vllm serve Qwen/Qwen2.5-7B-Instruct --dtype float16 --max-model-len 8192 \
             --gpu-memory-utilization 0.9 --tensor-parallel-size {}{} --max-num-seqs {seqs}",
            r.configuration.tp,
            if r.configuration.pp > 1 {
                format!(" --pipeline-parallel-size {}", r.configuration.pp)
            } else {
                String::new()
            }
        )
    );
    assert!(seqs >= chosen.sessions.in_flight_p99_n_plus_1);
    let value = serde_json::to_value(plan).unwrap();
    assert_eq!(
        value.pointer("/recommended/start_command"),
        Some(&r.start_command.clone().into())
    );
}

/// Issue #39's interface: every evaluated candidate states the physics of its card
/// (`physics`), no figure of it goes beyond them, every Estimated TTFT/TPOT/ITL figure at p50 or
/// p99 carries the GPU back-test's error for its metric, and the plan carries the back-test.
#[test]
fn every_candidate_states_its_physics_and_every_estimate_its_backtested_error() {
    let plan = demo_plan();
    let summary = crate::twin::validation::summary();
    assert_eq!(plan.validation, summary);
    assert_eq!(plan.validation.metrics.len(), 4);
    let evaluated: Vec<&CandidateForecast> = plan
        .candidates
        .iter()
        .filter(|c| c.status == CandidateStatus::Evaluated)
        .collect();
    assert!(evaluated.len() > 10);
    let mut estimated_with_error = 0;
    for c in &evaluated {
        let physics = c.physics.unwrap_or_else(|| panic!("{:?}", c.configuration));
        assert!(physics.tpot_floor_ms > 0.0 && physics.ttft_floor_ms > 0.0);
        assert!((physics.decode_ceiling_tok_s * physics.tpot_floor_ms - 1000.0).abs() < 1e-6);
        assert!(physics.prompt_tokens >= 1.0);
        if let Some(speed) = c.tokens_per_s_per_stream {
            assert!(speed.high <= physics.decode_ceiling_tok_s + 1e-9, "{c:?}");
        }
        for m in &c.predicted {
            let floor = match m.metric {
                MetricKey::TpotMs | MetricKey::ItlMs => physics.tpot_floor_ms,
                _ => 0.0,
            };
            if let Some(low) = m.low {
                assert!(low >= floor - 1e-9, "{} below {floor}: {m:?}", m.mark);
            }
            let covered = matches!(
                m.metric,
                MetricKey::TtftMs | MetricKey::TpotMs | MetricKey::ItlMs
            ) && matches!(m.statistic, Statistic::P50 | Statistic::P99);
            match (m.basis, covered) {
                (Some(Basis::Estimated), true) => {
                    let e = m.backtested_error.unwrap_or_else(|| panic!("{m:?}"));
                    let field = if m.metric == MetricKey::TtftMs {
                        "ttft_ms"
                    } else {
                        "tpot_ms"
                    };
                    let want = summary.metric(field, m.statistic).unwrap();
                    assert_eq!(e.median_error_pct, want.median_error_pct);
                    assert_eq!(e.pairs, want.pairs);
                    estimated_with_error += 1;
                }
                _ => assert_eq!(m.backtested_error, None, "{m:?}"),
            }
        }
    }
    assert!(estimated_with_error > 0, "the demo has Estimated marks");
}

#[test]
fn a_missed_verdict_the_twin_would_hold_is_explained_by_the_load() {
    use crate::locale::Lang;
    let missed = PilotVerdict {
        outcome: crate::verdict::PlanOutcome::Failed,
        tally: crate::verdict::Tally {
            passed: 0,
            failed: 1,
            not_measured: 0,
            not_comparable: 1,
        },
    };
    let mut input = demo_input();
    input.verdict = Some(missed);
    let plan = plan_capacity(&input);
    let story = &plan.story;
    assert!(
        story.starts_with(
            "Verdict: the pilot missed pass marks (0 of 2 pass marks met, 1 missed, 1 not comparable)."
        ),
        "{story}"
    );
    let pilot = plan
        .pilot_at_production
        .as_ref()
        .expect("the pilot's configuration");
    assert_eq!(pilot.holds, Some(true), "the demo's V100s hold production");
    assert!(story.contains("The two differ in load"), "{story}");
    let german = plan.story_in(Some(&missed), input.max_cards, Lang::De);
    assert!(
        german.contains("Beide beziehen sich auf eine andere Last"),
        "{german}"
    );
    // A verdict that agrees with the twin needs no such sentence.
    let passed = PilotVerdict {
        outcome: crate::verdict::PlanOutcome::Passed,
        tally: crate::verdict::Tally {
            passed: 2,
            failed: 0,
            not_measured: 0,
            not_comparable: 0,
        },
    };
    let agreeing = plan.story_in(Some(&passed), input.max_cards, Lang::De);
    assert!(!agreeing.contains("andere Last"), "{agreeing}");
}

#[test]
fn the_story_says_why_not_the_other_cards() {
    use crate::locale::Lang;
    let plan = demo_plan();
    let story = &plan.story;
    let why_not = story
        .split("Why not the others: ")
        .nth(1)
        .unwrap_or_else(|| panic!("{story}"));
    // A runner-up on another card that holds too, named with its rank and cards.
    let runner = plan
        .candidates
        .iter()
        .filter(|c| c.rank.is_some_and(|r| r > 1))
        .filter(|c| {
            plan.recommended
                .as_ref()
                .is_some_and(|r| r.configuration.gpu_id != c.configuration.gpu_id)
        })
        .min_by_key(|c| c.rank)
        .expect("another card holds too");
    assert!(
        why_not.starts_with(&format!(
            "{} holds too but ranks {}",
            runner.configuration.label,
            runner.rank.unwrap()
        )),
        "{why_not}"
    );
    // Every card named as short holds nowhere with one copy down.
    for part in why_not.split("; ").filter(|p| p.starts_with("on ")) {
        let name = part
            .trim_start_matches("on ")
            .split(" nothing holds")
            .next()
            .unwrap();
        assert!(
            plan.candidates
                .iter()
                .filter(|c| c.configuration.gpu_name == name)
                .all(|c| c.holds_n_plus_1 != Some(true)),
            "{name}: {why_not}"
        );
    }
    let german = plan.story_in(None, 8, Lang::De);
    assert!(german.contains("Warum nicht die anderen: "), "{german}");
    println!("{why_not}");
}
