//! Demand-profile tests on a small hand-made log whose every number is worked out by hand below,
//! and on a synthetic pilot week.
//!
//! The log (seconds after T0 = 2026-03-02T09:00:00Z):
//!
//! | id | model | start | first token | end | prompt | answer | status |
//! |---|---|---|---|---|---|---|---|
//! | a | qwen | 0 | 0.5 | 10 | 100 | 20 | ok, stop |
//! | b | qwen | 2 | 2.2 | 5 | 300 | 10 | ok, length |
//! | c | qwen | 4 | 4.4 | 8 | 200 | 5 | ok, stop |
//! | d | qwen | 3598 | – | 3604 | – | – | error |
//! | e | llama | 3700 | 3700.1 | 3701.1 | 400 | 11 | ok, stop |
//! | f | qwen | 3700.5 | – | 3760.5 | – | – | timeout |
//! | g | qwen | 7300 | 7300.2 | 7301 | 10 | 3 | cancelled |

use super::*;
use crate::traffic::{GatewayRecord, RequestStatus, SyntheticConfig};
use std::io::Cursor;

const T0: i64 = 1_772_442_000_000;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

macro_rules! assert_close {
    ($a:expr, $b:expr) => {
        assert!(close($a, $b), "{} = {} ≠ {}", stringify!($a), $a, $b)
    };
}

/// A gateway record of request `id` to `model`: `(start, first token, end)` in seconds after
/// [`T0`] and `(prompt, answer)` tokens.
fn rec(
    id: &str,
    model: &str,
    (start_s, first_s, end_s): (f64, Option<f64>, f64),
    (prompt, answer): (u32, u32),
    status: RequestStatus,
    finish: Option<&str>,
) -> GatewayRecord {
    let ms = |s: f64| T0 + (s * 1000.0).round() as i64;
    GatewayRecord {
        request_id: id.into(),
        start_ms: ms(start_s),
        first_token_ms: first_s.map(ms),
        end_ms: ms(end_s),
        model: model.into(),
        prompt_tokens: prompt,
        completion_tokens: answer,
        status,
        finish_reason: finish.map(str::to_owned),
        detail: crate::traffic::LogDetail::default(),
    }
}

fn hand_log() -> Vec<GatewayRecord> {
    use RequestStatus::*;
    vec![
        rec(
            "a",
            "qwen",
            (0.0, Some(0.5), 10.0),
            (100, 20),
            Ok,
            Some("stop"),
        ),
        rec(
            "b",
            "qwen",
            (2.0, Some(2.2), 5.0),
            (300, 10),
            Ok,
            Some("length"),
        ),
        rec(
            "c",
            "qwen",
            (4.0, Some(4.4), 8.0),
            (200, 5),
            Ok,
            Some("stop"),
        ),
        rec("d", "qwen", (3598.0, None, 3604.0), (0, 0), Error, None),
        rec(
            "e",
            "llama",
            (3700.0, Some(3700.1), 3701.1),
            (400, 11),
            Ok,
            Some("stop"),
        ),
        rec("f", "qwen", (3700.5, None, 3760.5), (0, 0), Timeout, None),
        rec(
            "g",
            "qwen",
            (7300.0, Some(7300.2), 7301.0),
            (10, 3),
            Cancelled,
            None,
        ),
    ]
}

fn profile_of(records: &[GatewayRecord]) -> DemandProfile {
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    // order of arrival does not matter
    for record in records.iter().rev() {
        accumulator.add(record);
    }
    accumulator.finish().unwrap()
}

#[test]
fn busiest_hour_is_the_sliding_window_with_most_arrivals() {
    let p = profile_of(&hand_log());
    // [0, 3600) holds a, b, c, d; no other window holds more than 3.
    assert_eq!(p.busiest_hour_start.unix_ms, T0);
    assert_eq!(p.busiest_hour_start.rfc3339, "2026-03-02T09:00:00.000Z");
    assert_eq!(p.busiest_hour_arrivals, 4);
    assert_close!(p.busiest_hour_arrivals_per_s, 4.0 / 3600.0);
}

#[test]
fn sweep_gives_exact_concurrency() {
    let p = profile_of(&hand_log());
    // a, b, c overlap 4–5 s
    assert_eq!(p.peak_in_flight, 3);
    assert_eq!(p.peak_in_flight_at.unix_ms, T0 + 4_000);
    // area: a–c 17 request·s, d 6, e+f 0.5 + 2 × 0.6 + 59.4 = 61.1, g 1 → 85.1 over 7,301 s
    assert_close!(p.mean_in_flight, 85.1 / 7301.0);
    assert_close!(p.observed_span_s, 7301.0);
    // busiest hour: 17 + d's first 2 s = 19 request·s over 3,600 s
    assert_close!(p.mean_in_flight_busiest_hour, 19.0 / 3600.0);
    let levels = &p.in_flight_seconds_by_level;
    assert_eq!(levels.len(), 4);
    assert_close!(levels[1], 70.9);
    assert_close!(levels[2], 5.6);
    assert_close!(levels[3], 1.0);
    assert_close!(levels[0], 7301.0 - 77.5);
}

#[test]
fn littles_law_is_checked_over_the_busiest_hour() {
    let p = profile_of(&hand_log());
    let check = &p.littles_law;
    assert_close!(check.arrival_rate_per_s, 4.0 / 3600.0);
    // durations of a, b, c, d: 10 + 3 + 4 + 6 = 23 s over 4
    assert_close!(check.mean_time_in_system_s, 5.75);
    assert_close!(check.predicted_in_flight, 23.0 / 3600.0);
    assert_close!(check.measured_in_flight, 19.0 / 3600.0);
    // d runs 4 s past the hour's end
    assert_close!(check.relative_difference.unwrap(), 4.0 / 19.0);
}

#[test]
fn littles_law_holds_exactly_when_no_request_straddles_the_window() {
    let mut log = hand_log();
    log.truncate(3);
    let p = profile_of(&log);
    assert!(p.littles_law.relative_difference.unwrap().abs() < 1e-12);
}

#[test]
fn token_distributions_cover_successful_requests() {
    let p = profile_of(&hand_log());
    // prompts of a, b, c, e: 100, 200, 300, 400
    let prompt = p.prompt_tokens.as_ref().unwrap();
    assert_eq!((prompt.count, prompt.max), (4, 400));
    assert_close!(prompt.p50, 250.0);
    assert_close!(prompt.p95, 385.0); // h = 2.85 → 300 + 0.85 × 100
    assert_close!(prompt.mean, 250.0);
    // answers 5, 10, 11, 20
    let answer = p.completion_tokens.as_ref().unwrap();
    assert_close!(answer.p50, 10.5);
    assert_close!(answer.p95, 18.65);
    assert_eq!(answer.max, 20);
    // contexts 120, 205, 310, 411
    let context = p.context_tokens.as_ref().unwrap();
    assert_close!(context.p50, 257.5);
    assert_close!(context.p95, 395.85);
    assert_eq!(context.max, 411);
    assert_eq!(context.histogram.iter().map(|b| b.count).sum::<u64>(), 4);
}

#[test]
fn outcomes_are_counted_with_rates() {
    let p = profile_of(&hand_log());
    let o = &p.outcomes;
    assert_eq!(
        (
            o.requests,
            o.ok,
            o.failed,
            o.timed_out,
            o.cancelled,
            o.truncated
        ),
        (7, 4, 1, 1, 1, 1)
    );
    assert_close!(o.failure_rate, 1.0 / 7.0);
    assert_close!(o.cancellation_rate, 1.0 / 7.0);
    assert_close!(o.truncation_rate, 0.25);
    // (10 + 3 + 4 + 6 + 1.1 + 60 + 1) / 7
    assert_close!(p.mean_duration_s, 85.1 / 7.0);
}

#[test]
fn gateway_latencies_are_exact_percentiles() {
    let p = profile_of(&hand_log());
    let ttft = p.gateway_latency.ttft_ms.as_ref().unwrap();
    // 100, 200, 400, 500
    assert_eq!((ttft.count, ttft.min, ttft.max), (4, 100.0, 500.0));
    assert_close!(ttft.p50, 300.0);
    let e2e = p.gateway_latency.e2e_ms.as_ref().unwrap();
    // 1100, 3000, 4000, 10000
    assert_close!(e2e.p50, 3500.0);
    let tpot = p.gateway_latency.tpot_ms.as_ref().unwrap();
    // a 9500/19 = 500, b 2800/9 = 311.1, c 3600/4 = 900, e 1000/10 = 100
    assert_close!(tpot.max, 900.0);
    assert!(
        (tpot.p50 - (500.0 + 2800.0 / 9.0) / 2.0).abs() < 1e-3,
        "{}",
        tpot.p50
    );
}

#[test]
fn the_mean_output_speed_is_the_mean_of_each_requests_speed() {
    let p = profile_of(&hand_log());
    // 1000 ÷ TPOT per request: 1000/500 = 2, 9000/2800 = 3.214, 1000/900 = 1.111, 1000/100 = 10;
    // their mean, not 1000 ÷ the mean TPOT (2.20).
    let mean = p.gateway_latency.output_speed_mean_tokens_per_s.unwrap();
    let expected = (2.0 + 9.0 / 2.8 + 1.0 / 0.9 + 10.0) / 4.0;
    assert!((mean - expected).abs() < 1e-3, "{mean} vs {expected}");
}

#[test]
fn models_are_broken_down_most_requests_first() {
    let p = profile_of(&hand_log());
    let names: Vec<&str> = p.models.iter().map(|m| m.model.as_str()).collect();
    assert_eq!(names, vec!["qwen", "llama"]);
    let qwen = &p.models[0];
    assert_eq!(
        (
            qwen.outcomes.requests,
            qwen.outcomes.ok,
            qwen.outcomes.truncated
        ),
        (6, 3, 1)
    );
    assert_close!(qwen.share_of_requests, 6.0 / 7.0);
    assert_eq!(qwen.prompt_tokens.as_ref().unwrap().max, 300);
    let llama = &p.models[1];
    assert_eq!(llama.gateway_latency.ttft_ms.as_ref().unwrap().p50, 100.0);
    assert_close!(llama.mean_duration_s, 1.1);
}

#[test]
fn arrivals_per_minute_and_curve_cover_the_log() {
    let p = profile_of(&hand_log());
    let series = &p.arrivals_per_minute;
    assert_eq!((series.start_ms, series.step_ms), (T0, 60_000));
    assert_eq!(series.counts.len(), 122); // minutes 0 ..= 121 (7300 s)
    assert_eq!(series.counts[0], 3);
    assert_eq!(series.counts[59], 1);
    assert_eq!(series.counts[61], 2);
    assert_eq!(series.counts[121], 1);
    assert_eq!(series.counts.iter().sum::<u32>(), 7);
    let curve = &p.in_flight_curve;
    assert!(curve.max.len() <= 720);
    assert_eq!(curve.max.iter().copied().max(), Some(3));
}

#[test]
fn profile_serialises_with_the_documented_field_names() {
    let p = profile_of(&hand_log());
    let json = serde_json::to_value(&p).unwrap();
    for key in [
        "busiest_hour_start",
        "busiest_hour_arrivals_per_s",
        "peak_in_flight",
        "mean_in_flight",
        "mean_in_flight_busiest_hour",
        "prompt_tokens",
        "completion_tokens",
        "context_tokens",
        "requests",
        "failed",
        "timed_out",
        "cancelled",
        "truncated",
        "models",
        "gateway_latency",
        "littles_law",
        "arrivals_per_minute",
        "in_flight_curve",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["busiest_hour_start"]["unix_ms"], T0);
    assert_eq!(json["prompt_tokens"]["p50"], 250.0);
    assert_eq!(json["models"][0]["requests"], 6);
    let back: DemandProfile = serde_json::from_value(json).unwrap();
    assert_eq!(back, p);
}

#[test]
fn an_empty_log_has_no_profile() {
    let accumulator = DemandAccumulator::new(DemandOptions::default());
    assert_eq!(accumulator.finish().unwrap_err(), DemandError::NoRequests);
}

#[test]
fn production_scales_the_rate_and_carries_token_lengths() {
    let p = profile_of(&hand_log());
    let scaling = DemandScaling::UserRatio {
        pilot_users: 10,
        production_users: 250,
    };
    let d = production_demand(&p, scaling, ContextBasis::P95).unwrap();
    assert_close!(d.arrival_rate_per_s, 25.0 * 4.0 / 3600.0);
    assert_close!(d.scale_factor.unwrap(), 25.0);
    assert_eq!(d.context_tokens_per_session, 396); // ⌈395.85⌉
    assert_close!(d.prompt_tokens_p95, 385.0);
    // a candidate answering in 5 s holds rate × 5 s in flight
    assert_close!(d.in_flight_on(5.0), 25.0 * 4.0 / 3600.0 * 5.0);
    let max = production_demand(&p, scaling, ContextBasis::Max).unwrap();
    assert_eq!(max.context_tokens_per_session, 411);
    let entered = production_demand(
        &p,
        DemandScaling::EnteredRate {
            arrival_rate_per_s: 2.0,
        },
        ContextBasis::P95,
    )
    .unwrap();
    assert_close!(entered.scale_factor.unwrap(), 1800.0);
    assert_eq!(
        production_demand(
            &p,
            DemandScaling::UserRatio {
                pilot_users: 0,
                production_users: 5
            },
            ContextBasis::P95
        ),
        Err(ProductionError::NoPilotUsers)
    );
    assert_close!(request_time_s(200.0, 30.0, 257.0), 7.88);
}

#[test]
fn a_synthetic_pilot_week_profiles_consistently() {
    let config = SyntheticConfig::pilot_week(42);
    let mut log = Vec::new();
    crate::traffic::write_synthetic_jsonl(&config, &mut log).unwrap();
    let mut reports = 0;
    let (p, summary) = profile_gateway_log(
        Cursor::new(&log),
        &ReadOptions::new("week.jsonl"),
        DemandOptions::default(),
        |_| reports += 1,
    )
    .unwrap();
    assert!(reports >= 1);
    assert_eq!(summary.records, p.outcomes.requests);
    let direct: Vec<_> = config.records().collect();
    assert_eq!(p, profile_of(&direct));
    // office-hours peak, a few dozen users: well under one request in flight on average
    let hour_of_day =
        (p.busiest_hour_start.unix_ms - T0 + 9 * 3_600_000).rem_euclid(86_400_000) / 3_600_000;
    assert!((8..17).contains(&hour_of_day), "{hour_of_day}");
    assert!(p.busiest_hour_arrivals_per_s > 0.03 && p.busiest_hour_arrivals_per_s < 0.1);
    assert!(
        p.littles_law.relative_difference.unwrap().abs() < 0.05,
        "{:?}",
        p.littles_law
    );
    let prompt = p.prompt_tokens.unwrap();
    assert!(prompt.p50 > 300.0 && prompt.p50 < 900.0, "{}", prompt.p50);
    assert!(p.peak_in_flight >= 2);
    assert!(p.outcomes.truncation_rate > 0.0 && p.outcomes.truncation_rate < 0.1);
}

#[test]
fn a_bad_record_yields_no_profile() {
    let text = "{\"request_id\":\"a\",\"start_time\":1772442001,\"end_time\":1772442000,\"model\":\"m\",\"status\":\"error\"}\n";
    let error = profile_gateway_log(
        Cursor::new(text),
        &ReadOptions::new("g.jsonl"),
        DemandOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.jsonl line 1: field \"end_time\": 1000 ms before start_time"
    );
    let skipping = ReadOptions::new("g.jsonl").skip_bad_lines(true);
    let error = profile_gateway_log(
        Cursor::new(text),
        &skipping,
        DemandOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "g.jsonl: the log holds no requests");
}

#[test]
fn the_server_mean_in_flight_is_cross_checked_against_the_log() {
    let p = profile_of(&hand_log());
    // the busiest hour, exact: 19 request·s over 3,600 s
    let check = cross_check_in_flight(&p, T0, T0 + 3_600_000, 0.0057).unwrap();
    assert!(check.gateway_exact);
    assert_close!(check.gateway_mean_in_flight, 19.0 / 3600.0);
    assert_close!(
        check.relative_difference.unwrap(),
        (0.0057 - 19.0 / 3600.0) / (19.0 / 3600.0)
    );
    // the whole log from the curve: 85.1 request·s over the curve's span
    let step = p.in_flight_curve.step_ms;
    let end = p.in_flight_curve.start_ms + step * p.in_flight_curve.mean.len() as i64;
    let whole = cross_check_in_flight(&p, T0, end, 0.01).unwrap();
    assert!(!whole.gateway_exact);
    assert_close!(
        whole.gateway_mean_in_flight,
        85.1 / ((end - T0) as f64 / 1000.0)
    );
}

#[test]
fn several_files_feed_one_profile() {
    let mut config = SyntheticConfig::pilot_week(5);
    config.max_requests = Some(3_000);
    let records: Vec<GatewayRecord> = config.records().collect();
    let mut halves = [Vec::new(), Vec::new()];
    for (i, record) in records.iter().enumerate() {
        crate::traffic::generic::write_jsonl_line(record, &mut halves[i % 2]).unwrap();
    }
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    for half in &halves {
        accumulator
            .add_log(Cursor::new(half), &ReadOptions::new("day.jsonl"), |_| {})
            .unwrap();
    }
    assert_eq!(accumulator.finish().unwrap(), profile_of(&records));
}

/// Options that release every request to the sweep as soon as the order allows: the streaming
/// path, not the "whole log fits the reorder buffer" one.
fn streaming(reorder_window_ms: i64) -> DemandOptions {
    DemandOptions {
        reorder_window_ms,
        reorder_buffer_records: 0,
        ..DemandOptions::default()
    }
}

fn profile_with(records: &[GatewayRecord], options: DemandOptions) -> DemandProfile {
    let mut accumulator = DemandAccumulator::new(options);
    for record in records {
        accumulator.add(record);
    }
    accumulator.finish().unwrap()
}

#[test]
fn streaming_in_start_order_gives_the_hand_computed_busiest_hour_and_littles_law() {
    let p = profile_with(&hand_log(), streaming(0));
    assert_eq!(p.late_records, 0);
    assert_eq!(p.busiest_hour_start.unix_ms, T0);
    assert_eq!(p.busiest_hour_arrivals, 4);
    // 17 request·s of a, b, c + d's first 2 s, over the hour
    assert_close!(p.mean_in_flight_busiest_hour, 19.0 / 3600.0);
    assert_close!(p.littles_law.mean_time_in_system_s, 5.75);
    assert_close!(p.littles_law.predicted_in_flight, 23.0 / 3600.0);
    assert_close!(p.littles_law.relative_difference.unwrap(), 4.0 / 19.0);
    assert_eq!(p.peak_in_flight, 3);
    assert_close!(p.mean_in_flight, 85.1 / 7301.0);
    assert_eq!(p, profile_of(&hand_log()));
}

#[test]
fn end_order_and_shuffled_logs_give_the_start_order_profile() {
    let sorted = profile_with(&hand_log(), DemandOptions::default());
    // written when each request ended: starts late by at most 60 s, inside a 1-hour window
    let mut by_end = hand_log();
    by_end.sort_by_key(|r| r.end_ms);
    assert_ne!(
        by_end.iter().map(|r| &r.request_id).collect::<Vec<_>>(),
        hand_log().iter().map(|r| &r.request_id).collect::<Vec<_>>()
    );
    let p = profile_with(&by_end, streaming(3_600_000));
    assert_eq!(p.late_records, 0);
    assert_eq!(p, sorted);
    // any order while the whole log fits the reorder buffer (the default holds 65,536)
    let mut shuffled = hand_log();
    shuffled.swap(0, 6);
    shuffled.swap(1, 4);
    shuffled.swap(2, 5);
    assert_eq!(profile_with(&shuffled, DemandOptions::default()), sorted);
    // and on a synthetic day in end order, released as it goes
    let mut config = SyntheticConfig::pilot_week(9);
    config.max_requests = Some(2_000);
    let mut records: Vec<GatewayRecord> = config.records().collect();
    let expected = profile_with(&records, streaming(0));
    records.sort_by_key(|r| r.end_ms);
    let p = profile_with(&records, streaming(3_600_000));
    assert_eq!(p.late_records, 0);
    assert_eq!(p, expected);
}

#[test]
fn a_log_more_out_of_order_than_the_window_is_flagged_and_counts_stay_exact() {
    // released on arrival (no window, no buffer): c, then b starts before c did
    let mut log = hand_log();
    log.swap(1, 2);
    let mut accumulator = DemandAccumulator::new(streaming(0));
    for record in &log {
        accumulator.add(record);
    }
    assert_eq!(accumulator.late_records(), 1);
    let p = accumulator.finish().unwrap();
    assert_eq!(p.late_records, 1);
    let exact = profile_of(&hand_log());
    // b is swept as starting at 4 s (c's start), ending at 5 s: a, b, c still overlap 4–5 s
    assert_eq!(p.peak_in_flight, 3);
    assert_eq!(p.peak_in_flight_at.unix_ms, T0 + 4_000);
    assert_close!(p.mean_in_flight, (85.1 - 2.0) / 7301.0);
    // what does not depend on the order is exact
    assert_eq!(p.outcomes, exact.outcomes);
    assert_eq!(p.busiest_hour_arrivals, exact.busiest_hour_arrivals);
    assert_eq!(p.prompt_tokens, exact.prompt_tokens);
    assert_eq!(p.gateway_latency, exact.gateway_latency);
    assert_close!(p.mean_duration_s, exact.mean_duration_s);
    assert_eq!(p.arrivals_per_minute, exact.arrivals_per_minute);
    // a one-hour window absorbs the same disorder exactly
    assert_eq!(profile_with(&log, streaming(3_600_000)), exact);
}

#[test]
fn latencies_beyond_the_exact_limit_are_sketched_and_say_so() {
    let exact = profile_of(&hand_log());
    assert_eq!(
        exact.gateway_latency.relative_error,
        LatencyRelativeError::default()
    );
    let options = DemandOptions {
        exact_latency_values: 3,
        ..DemandOptions::default()
    };
    let p = profile_with(&hand_log(), options);
    let error = p.gateway_latency.relative_error;
    assert_eq!(
        (error.ttft_ms, error.tpot_ms, error.e2e_ms),
        (0.005, 0.005, 0.005)
    );
    // qwen has three successful requests (exact), llama one
    assert_eq!(
        p.models[0].gateway_latency.relative_error,
        LatencyRelativeError::default()
    );
    assert_eq!(p.models[0].gateway_latency, exact.models[0].gateway_latency);
    for (sketched, exact) in [
        (&p.gateway_latency.ttft_ms, &exact.gateway_latency.ttft_ms),
        (&p.gateway_latency.tpot_ms, &exact.gateway_latency.tpot_ms),
        (&p.gateway_latency.e2e_ms, &exact.gateway_latency.e2e_ms),
    ] {
        let (s, e) = (sketched.as_ref().unwrap(), exact.as_ref().unwrap());
        assert_eq!((s.count, s.min, s.max), (e.count, e.min, e.max));
        assert_close!(s.mean, e.mean);
        for (a, b) in [
            (s.p50, e.p50),
            (s.p90, e.p90),
            (s.p95, e.p95),
            (s.p99, e.p99),
        ] {
            assert!((a - b).abs() <= 0.005 * b + 1e-9, "{a} vs {b}");
        }
    }
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["gateway_latency"]["relative_error"]["e2e_ms"], 0.005);
}

#[test]
fn profiles_stored_before_streaming_still_read_as_exact() {
    let p = profile_of(&hand_log());
    let mut json = serde_json::to_value(&p).unwrap();
    let object = json.as_object_mut().unwrap();
    assert_eq!(object.remove("late_records"), Some(0.into()));
    object["gateway_latency"]
        .as_object_mut()
        .unwrap()
        .remove("relative_error");
    for model in object["models"].as_array_mut().unwrap() {
        model["gateway_latency"]
            .as_object_mut()
            .unwrap()
            .remove("relative_error");
    }
    let back: DemandProfile = serde_json::from_value(json).unwrap();
    assert_eq!(back, p);
}

// ---------------------------------------------------------------------------------------------
// Hostile logs (issue #13): memory bounded by the input, never by the time span

fn one_request(id: &str, start_ms: i64, model: &str, prompt: u32) -> GatewayRecord {
    GatewayRecord {
        request_id: id.into(),
        start_ms,
        first_token_ms: None,
        end_ms: start_ms + 1_000,
        model: model.into(),
        prompt_tokens: prompt,
        completion_tokens: 1,
        status: RequestStatus::Ok,
        finish_reason: None,
        detail: crate::traffic::LogDetail::default(),
    }
}

#[test]
fn a_log_of_two_requests_in_1970_and_9999_is_refused_by_the_reader() {
    // This two-line log once made the server lay out 4.2 billion minutes (16.9 GB) and abort.
    let text = "{\"request_id\":\"a\",\"start_time\":\"1970-01-01T00:00:00Z\",\"end_time\":\"1970-01-01T00:00:01Z\",\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n\
        {\"request_id\":\"b\",\"start_time\":\"9999-12-31T00:00:00Z\",\"end_time\":\"9999-12-31T00:00:01Z\",\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n";
    let error = profile_gateway_log(
        Cursor::new(text),
        &ReadOptions::new("g.jsonl"),
        DemandOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.jsonl line 1: field \"start_time\": \"1970-01-01T00:00:00Z\": the instant \
         (1970-01-01T00:00:00.000Z) is not between 2000-01-01 and 2100-01-01: a wrong unit or a \
         placeholder date?"
    );
    // skipping bad lines: both are skipped, nothing is profiled
    let error = profile_gateway_log(
        Cursor::new(text),
        &ReadOptions::new("g.jsonl").skip_bad_lines(true),
        DemandOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "g.jsonl: the log holds no requests");
}

#[test]
fn a_start_time_of_1e300_is_refused_with_its_line_and_field() {
    let text = "{\"request_id\":\"a\",\"start_time\":1772442000,\"end_time\":1772442001,\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n\
        {\"request_id\":\"b\",\"start_time\":1e300,\"end_time\":1e300,\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n";
    let error = profile_gateway_log(
        Cursor::new(text),
        &ReadOptions::new("g.jsonl"),
        DemandOptions::default(),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.jsonl line 2: field \"start_time\": 1e300: the instant is not between 2000-01-01 and \
         2100-01-01: a wrong unit or a placeholder date?"
    );
}

#[test]
fn two_requests_eight_millennia_apart_profile_in_a_few_tens_of_kilobytes() {
    // The accumulator is also safe on its own, should records bypass the readers' check.
    let mut accumulator = DemandAccumulator::default();
    let year_9999 = 253_370_764_800_000; // 9999-01-01
    accumulator.add(&one_request("a", 0, "m", 10));
    accumulator.add(&one_request("b", year_9999, "m", 10));
    let bytes = accumulator.heap_bytes();
    assert!(bytes < 16 * 1024, "{bytes} bytes of buffers");
    let p = accumulator.finish().unwrap();
    assert_eq!(p.outcomes.requests, 2);
    let series = &p.arrivals_per_minute;
    // the step: weeks doubled until 8,000 years fit the floor of 1,440 points: 512 weeks
    assert_eq!(series.step_ms, 604_800_000 * 512);
    assert_eq!(series.counts.len(), 819);
    assert_eq!(series.counts.iter().sum::<u32>(), 2);
    assert!(p.in_flight_curve.max.len() <= 720);
    assert_eq!(p.peak_in_flight, 1);
    assert_eq!(p.busiest_hour_arrivals, 1);
}

#[test]
fn instants_at_the_ends_of_i64_neither_overflow_nor_allocate() {
    let mut accumulator = DemandAccumulator::default();
    for (i, start) in [i64::MIN, -1, 0, i64::MAX - 10].into_iter().enumerate() {
        accumulator.add(&GatewayRecord {
            start_ms: start,
            end_ms: start.saturating_add(5),
            ..one_request(&i.to_string(), 0, "m", 1)
        });
    }
    assert!(accumulator.heap_bytes() < 16 * 1024);
    let p = accumulator.finish().unwrap();
    assert_eq!(p.arrivals_per_minute.counts.iter().sum::<u32>(), 4);
    assert!(p.arrivals_per_minute.counts.len() <= 1_440);
}

#[test]
fn a_sparse_month_is_coarsened_and_a_busy_week_keeps_its_minutes() {
    // 100 requests over 30 days: minutes would be 432 points per request; 16 per request (1,600
    // points) are allowed, so the step becomes the first of 5, 15, 30 minutes that fits: 30.
    let day = 86_400_000;
    let sparse: Vec<GatewayRecord> = (0..100)
        .map(|i| one_request(&i.to_string(), T0 + i * 30 * day / 100, "m", 5))
        .collect();
    let p = profile_of(&sparse);
    let series = &p.arrivals_per_minute;
    assert_eq!(series.step_ms, 30 * 60_000);
    // the last start is 99 × 0.3 days = 42,768 minutes in: half-hours 0 ..= 1,425
    assert_eq!(series.counts.len(), 1_426);
    assert_eq!(series.counts.iter().sum::<u32>(), 100);
    // a week of a request every 10 s keeps one point per minute
    let busy: Vec<GatewayRecord> = (0..60_480)
        .map(|i| one_request(&i.to_string(), T0 + i * 10_000, "m", 5))
        .collect();
    let p = profile_of(&busy);
    assert_eq!(p.arrivals_per_minute.step_ms, 60_000);
    assert_eq!(p.arrivals_per_minute.counts.len(), 10_080);
    assert!(p.arrivals_per_minute.counts.iter().all(|&n| n == 6));
}

#[test]
fn a_thousand_models_of_one_long_prompt_each_need_no_dense_token_arrays() {
    // Each model's token counts would once reserve up to 128 KiB per distribution on their first
    // long value: 1,000 models × 3 distributions × 120 KB ≈ 360 MB from a 200 KB log.
    let mut accumulator = DemandAccumulator::default();
    for i in 0..1_000 {
        accumulator.add(&one_request(
            &i.to_string(),
            T0 + i64::from(i) * 1_000,
            &format!("model-{i}"),
            30_000,
        ));
    }
    let bytes = accumulator.heap_bytes();
    assert!(bytes < 2 << 20, "{bytes} bytes");
    let p = accumulator.finish().unwrap();
    assert_eq!(p.prompt_tokens.as_ref().unwrap().max, 30_000);
    assert_eq!(p.models.len(), 1_000);
}
