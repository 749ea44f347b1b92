//! `/metrics` tests on the real vLLM 0.25.1 scrapes (idle, then under load, from one server run)
//! and on small scrapes in older naming written here. Expected values are read from the files.

use super::*;
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    let path = dir.join("er0080-vllm-benchmarking").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("fixture {} unreadable: {e}", path.display()))
}

fn idle() -> VllmSnapshot {
    VllmSnapshot::parse(&fixture("metrics_vllm_0_25_1_idle.txt")).unwrap()
}

fn loaded() -> VllmSnapshot {
    VllmSnapshot::parse(&fixture("metrics_vllm_0_25_1_loaded.txt")).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

macro_rules! assert_close {
    ($a:expr, $b:expr) => {
        assert!(close($a, $b), "{} = {} ≠ {}", stringify!($a), $a, $b)
    };
}

fn bounds(q: &Option<crate::stats::BucketQuantile>) -> (Option<f64>, Option<f64>) {
    let q = q.as_ref().unwrap();
    (q.lower_bound, q.upper_bound)
}

#[test]
fn the_parser_reads_every_line_of_the_real_scrapes() {
    let scrape = parse_exposition(&fixture("metrics_vllm_0_25_1_loaded.txt")).unwrap();
    assert!(scrape.families().all(|f| !f.name.ends_with("_created")));
    let e2e = scrape.family("vllm:e2e_request_latency_seconds").unwrap();
    assert_eq!(e2e.kind, MetricType::Histogram);
    assert_eq!(e2e.samples_with_suffix("_bucket").count(), 22);
    let success = scrape.family("vllm:request_success").unwrap();
    assert_eq!(success.name, "vllm:request_success_total");
    assert_eq!(success.kind, MetricType::Counter);
    assert_eq!(success.value_samples().count(), 5);
    let http = scrape.family("http_request_size_bytes").unwrap();
    assert_eq!(http.kind, MetricType::Summary);
    assert_eq!(http.samples_with_suffix("_count").count(), 3);
}

#[test]
fn an_idle_scrape_gives_configuration_and_zero_totals() {
    let snapshot = idle();
    assert_eq!(snapshot.model_names, vec!["opt-125m-tp2"]);
    assert_eq!(snapshot.engines, vec!["0"]);
    assert_eq!(snapshot.timestamp_ms, None);
    assert_eq!(snapshot.process_start_time_s, Some(1.78692899276e9));
    assert_eq!(snapshot.totals.requests_finished, 0.0);
    let reasons: Vec<&str> = snapshot
        .totals
        .requests_by_finished_reason
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        reasons,
        vec!["abort", "error", "length", "repetition", "stop"]
    );
    assert_eq!(snapshot.gauges.requests_waiting, Some(0.0));
    assert_eq!(snapshot.histograms.len(), VllmHistogram::ALL.len());
    let config = snapshot.cache_config.as_ref().unwrap();
    assert_eq!(config.block_size, Some(16));
    assert_eq!(config.num_gpu_blocks, Some(25_028));
    assert_eq!(config.kv_cache_size_tokens, Some(400_448));
    assert_eq!(config.kv_cache_max_concurrency, Some(195.53125));
    assert_eq!(config.gpu_memory_utilization, Some(0.3));
    assert_eq!(config.enable_prefix_caching, Some(true));
    assert_eq!(config.cache_dtype.as_deref(), Some("auto"));
    let report = snapshot.report();
    assert!(report.alarms.is_empty());
    let e2e = report.distributions_since_start.e2e_ms.unwrap();
    assert_eq!((e2e.count, e2e.mean, e2e.p50), (0.0, None, None));
    assert!(
        report
            .needs_second_scrape
            .iter()
            .any(|what| what.contains("mean requests in flight"))
    );
}

#[test]
fn a_loaded_scrape_gives_totals_since_start_gauges_and_an_alarm() {
    let snapshot = loaded();
    let totals = &snapshot.totals;
    assert_eq!(totals.requests_by_finished_reason["length"], 600.0);
    assert_eq!(totals.requests_by_finished_reason["stop"], 0.0);
    assert_eq!(totals.requests_finished, 600.0);
    assert_eq!(totals.prompt_tokens, Some(339_968.0));
    assert_eq!(totals.generation_tokens, Some(165_293.0));
    assert_eq!(totals.preemptions, Some(0.0));
    assert_eq!(totals.prefix_cache_queries, Some(339_968.0));
    assert_eq!(totals.prefix_cache_hits, Some(2_480.0));
    assert_eq!(
        totals.prefix_cache_metric.as_deref(),
        Some("vllm:prefix_cache_queries")
    );
    let gauges = &snapshot.gauges;
    assert_eq!(gauges.requests_running, Some(64.0));
    assert_eq!(gauges.requests_waiting, Some(64.0));
    assert_eq!(gauges.kv_cache_usage, Some(0.11223878211531546));
    assert_eq!(
        gauges.kv_cache_usage_metric.as_deref(),
        Some("vllm:kv_cache_usage_perc")
    );
    let itl = snapshot
        .histogram(VllmHistogram::InterTokenLatency)
        .unwrap();
    assert_eq!(itl.metric, "vllm:inter_token_latency_seconds");
    assert_eq!((itl.count, itl.sum), (164_629.0, 998.1225105317717));

    // 64 waiting at one scrape: a note, not the alarm (a queue must last, see vllm.rs).
    let report = snapshot.report();
    assert!(report.alarms.is_empty());
    assert_eq!(report.limit_notes.len(), 1);
    assert!(report.limit_notes[0].starts_with("64 requests were waiting"));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["limit_notes"].as_array().unwrap().len(), 1);
}

#[test]
fn two_scrapes_give_the_window_deltas_rates_and_mean_in_flight() {
    let window = vllm_window(&idle(), &loaded(), Some(60.0)).unwrap();
    assert_eq!(
        (window.elapsed_s, window.elapsed_from),
        (Some(60.0), ElapsedSource::Caller)
    );
    assert_eq!(window.totals.requests_by_finished_reason["length"], 600.0);
    assert_eq!(window.totals.requests_finished, 600.0);
    assert_close!(window.request_rate_per_s.unwrap(), 10.0);
    assert_close!(window.generation_tokens_per_s.unwrap(), 165_293.0 / 60.0);
    assert_close!(window.prompt_tokens_per_s.unwrap(), 339_968.0 / 60.0);
    assert_close!(window.prefix_cache_hit_rate.unwrap(), 2_480.0 / 339_968.0);
    // Δ vllm:e2e_request_latency_seconds_sum ÷ Δt
    assert_close!(window.mean_in_flight.unwrap(), 999.2306158542633 / 60.0);
    assert_eq!(window.gauges_at_end.requests_running, Some(64.0));
    // Waiting at the second scrape only, 18.5 s of queueing over 60 s (0.31 on average): a
    // note, not a lasting queue.
    assert!(window.alarms.is_empty());
    assert_close!(window.mean_waiting.unwrap(), 18.513516283710487 / 60.0);
    assert_eq!(window.limit_notes.len(), 2);
    assert!(window.notes.is_empty(), "{:?}", window.notes);
}

#[test]
fn window_quantiles_follow_histogram_quantile_with_bucket_bounds() {
    let d = vllm_window(&idle(), &loaded(), Some(60.0))
        .unwrap()
        .distributions;
    // E2E buckets (s): ≤1.5: 24, ≤2.0: 591, ≤2.5: 600 of 600.
    let e2e = d.e2e_ms.unwrap();
    assert_close!(e2e.mean.unwrap(), 999.2306158542633 / 600.0 * 1000.0);
    // p50: rank 300 in (1.5, 2.0]: 1.5 + 0.5 × 276/567 s
    assert_close!(
        e2e.p50.as_ref().unwrap().value,
        1500.0 + 500.0 * 276.0 / 567.0
    );
    assert_eq!(bounds(&e2e.p50), (Some(1500.0), Some(2000.0)));
    // p95: rank 570 → 1.5 + 0.5 × 546/567 s
    assert_close!(
        e2e.p95.as_ref().unwrap().value,
        1500.0 + 500.0 * 546.0 / 567.0
    );
    // p99: rank 594 in (2.0, 2.5]: 2.0 + 0.5 × 3/9 s
    assert_close!(e2e.p99.as_ref().unwrap().value, 2000.0 + 500.0 / 3.0);
    assert_eq!(bounds(&e2e.p99), (Some(2000.0), Some(2500.0)));
    assert_eq!(e2e.p99.as_ref().unwrap().error_bound(), Some(500.0));

    // TTFT (664 observations, running requests included): ≤0.1: 166, ≤0.25: 593.
    let ttft = d.ttft_ms.unwrap();
    assert_eq!(ttft.count, 664.0);
    assert_close!(
        ttft.p50.as_ref().unwrap().value,
        100.0 + 150.0 * 166.0 / 427.0
    );
    assert_eq!(bounds(&ttft.p50), (Some(100.0), Some(250.0)));

    // Inter-token latency: 155,912 of 164,629 gaps ≤ 10 ms, the first bucket: "below 10 ms".
    let itl = d.inter_token_latency_ms.unwrap();
    assert_eq!(itl.metric, "vllm:inter_token_latency_seconds");
    assert_close!(itl.p50.as_ref().unwrap().value, 10.0 * 82_314.5 / 155_912.0);
    assert_eq!(bounds(&itl.p50), (Some(0.0), Some(10.0)));
    // p99: rank 162,982.71 in (25, 50] ms: 25 + 25 × (162,982.71 − 157,981)/6,648
    assert_close!(
        itl.p99.as_ref().unwrap().value,
        25.0 + 25.0 * (0.99 * 164_629.0 - 157_981.0) / 6_648.0
    );

    // Token histograms (1-2-5 buckets): all 600 prompts in (500, 1000], mean 512.
    let prompt = d.prompt_tokens.unwrap();
    assert_eq!(prompt.unit, "tokens");
    assert_close!(prompt.mean.unwrap(), 512.0);
    assert_close!(prompt.p50.as_ref().unwrap().value, 750.0);
    assert_eq!(bounds(&prompt.p50), (Some(500.0), Some(1000.0)));
    let generation = d.generation_tokens.unwrap();
    assert_close!(generation.mean.unwrap(), 256.0);
    assert_close!(generation.p50.as_ref().unwrap().value, 350.0);
    assert_eq!(bounds(&generation.p50), (Some(200.0), Some(500.0)));
}

#[test]
fn scrapes_in_the_wrong_order_are_a_counter_reset() {
    let error = vllm_window(&loaded(), &idle(), Some(60.0)).unwrap_err();
    assert!(
        matches!(error, MetricsError::CounterReset { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("restarted"));
    assert_eq!(
        vllm_window(&idle(), &loaded(), Some(0.0)).unwrap_err(),
        MetricsError::InvalidElapsed
    );
}

#[test]
fn without_elapsed_time_the_window_says_what_it_cannot_compute() {
    let window = vllm_window(&idle(), &loaded(), None).unwrap();
    assert_eq!(window.elapsed_from, ElapsedSource::Unknown);
    assert_eq!(
        (window.mean_in_flight, window.request_rate_per_s),
        (None, None)
    );
    assert_eq!(window.totals.requests_finished, 600.0);
    assert_eq!(window.notes.len(), 1);
}

/// A pre-0.9 style scrape: old metric names, only `model_name`, two engines' worth of series
/// written as two models, and sample timestamps.
fn old_style(t_ms: i64, preemptions: u32, itl_counts: [u32; 3], waiting: u32) -> String {
    let [a, b, c] = itl_counts;
    // A sum the buckets allow: 5 ms per gap up to 10 ms, 20 ms up to 25 ms, 50 ms beyond.
    let sum = 0.005 * f64::from(a) + 0.02 * f64::from(b - a) + 0.05 * f64::from(c - b);
    format!(
        "# HELP vllm:num_requests_running Number of requests currently running on GPU.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{{model_name=\"llama\"}} 3.0 {t_ms}
vllm:num_requests_running{{model_name=\"llama-b\"}} 4.0 {t_ms}
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{{model_name=\"llama\"}} {waiting}.0 {t_ms}
# TYPE vllm:gpu_cache_usage_perc gauge
vllm:gpu_cache_usage_perc{{model_name=\"llama\"}} 0.25 {t_ms}
vllm:gpu_cache_usage_perc{{model_name=\"llama-b\"}} 0.5 {t_ms}
# TYPE vllm:num_preemptions_total counter
vllm:num_preemptions_total{{model_name=\"llama\"}} {preemptions}.0 {t_ms}
# TYPE vllm:request_success_total counter
vllm:request_success_total{{finished_reason=\"stop\",model_name=\"llama\"}} {a}.0 {t_ms}
# TYPE vllm:time_per_output_token_seconds histogram
vllm:time_per_output_token_seconds_bucket{{le=\"0.01\",model_name=\"llama\"}} {a}.0 {t_ms}
vllm:time_per_output_token_seconds_bucket{{le=\"0.025\",model_name=\"llama\"}} {b}.0 {t_ms}
vllm:time_per_output_token_seconds_bucket{{le=\"+Inf\",model_name=\"llama\"}} {c}.0 {t_ms}
vllm:time_per_output_token_seconds_count{{model_name=\"llama\"}} {c}.0 {t_ms}
vllm:time_per_output_token_seconds_sum{{model_name=\"llama\"}} {sum} {t_ms}
"
    )
}

#[test]
fn old_metric_names_and_timestamps_are_understood() {
    let before = VllmSnapshot::parse(&old_style(1_700_000_000_000, 1, [10, 20, 20], 0)).unwrap();
    let after = VllmSnapshot::parse(&old_style(1_700_000_030_000, 3, [30, 60, 80], 2)).unwrap();
    assert_eq!(after.engines, Vec::<String>::new());
    assert_eq!(after.model_names, vec!["llama", "llama-b"]);
    assert_eq!(after.gauges.requests_running, Some(7.0));
    assert_eq!(after.gauges.kv_cache_usage, Some(0.5));
    assert_eq!(
        after.gauges.kv_cache_usage_metric.as_deref(),
        Some("vllm:gpu_cache_usage_perc")
    );
    let report = before.report();
    assert_eq!(report.alarms.len(), 1);
    assert_eq!(report.alarms[0].kind, AlarmKind::Preemptions);
    assert!(
        report.alarms[0]
            .message
            .contains("since the server started")
    );

    let window = vllm_window(&before, &after, None).unwrap();
    assert_eq!(
        (window.elapsed_s, window.elapsed_from),
        (Some(30.0), ElapsedSource::Timestamps)
    );
    assert_close!(window.request_rate_per_s.unwrap(), 20.0 / 30.0);
    let kinds: Vec<AlarmKind> = window.alarms.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, vec![AlarmKind::Preemptions]);
    assert_eq!(window.alarms[0].value, 2.0);
    // Δ buckets: ≤10 ms 20, ≤25 ms 40, +Inf 60 → p50 rank 30 in (10, 25]: 10 + 15 × 10/20
    let itl = window.distributions.inter_token_latency_ms.unwrap();
    assert_eq!(itl.metric, "vllm:time_per_output_token_seconds");
    assert_close!(itl.p50.as_ref().unwrap().value, 17.5);
    // p90: rank 54 in +Inf → the last finite edge, unbounded above
    assert_eq!(itl.p90.as_ref().unwrap().value, 25.0);
    assert_eq!(bounds(&itl.p90), (Some(25.0), None));
    assert!(
        window
            .notes
            .iter()
            .any(|n| n.contains("e2e_request_latency"))
    );
}

#[test]
fn a_scrape_without_vllm_metrics_is_refused() {
    assert_eq!(
        VllmSnapshot::parse("# TYPE up gauge\nup 1\n"),
        Err(MetricsError::NotVllm)
    );
    let error = VllmSnapshot::parse("vllm:x{a=\"1\" 2\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1: expected `,` or `}` after label a of vllm:x"
    );
}

#[test]
fn snapshots_round_trip_through_json() {
    let snapshot = loaded();
    let json = serde_json::to_string(&snapshot).unwrap();
    let back: VllmSnapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(back, snapshot);
}

// ---------------------------------------------------------------------------------------------
// Cut-off scrapes (issue #13)

#[test]
fn every_prefix_of_the_real_scrapes_fails_or_is_a_leading_part() {
    for name in [
        "metrics_vllm_0_25_1_idle.txt",
        "metrics_vllm_0_25_1_loaded.txt",
    ] {
        let text = fixture(name);
        let whole = parse_exposition(&text).unwrap();
        let step = text.len() / 400;
        for cut in (1..text.len()).step_by(step) {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let prefix = &text[..cut];
            match parse_exposition(prefix) {
                Ok(part) => {
                    // only at a line end, and then every family is the leading part of its own
                    assert!(prefix.ends_with('\n'), "{name} cut at {cut} parsed");
                    for family in part.families() {
                        let full = whole.family(&family.name).unwrap();
                        assert_eq!(family.samples[..], full.samples[..family.samples.len()]);
                    }
                }
                Err(e) => {
                    let last = prefix.lines().count() as u64;
                    assert!(e.line <= last, "{name} cut at {cut}: {e}");
                    if !prefix.ends_with('\n') {
                        assert!(e.message.contains("cut off"), "{name} cut at {cut}: {e}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_histogram_cut_before_its_inf_bucket_count_or_sum_is_refused() {
    let text = fixture("metrics_vllm_0_25_1_loaded.txt");
    let inf = "vllm:e2e_request_latency_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"opt-125m-tp2\"}";
    let at = text.find(inf).unwrap();
    let e = parse_exposition(&text[..at]).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "line {}: the scrape ends mid-histogram (cut off?): \
             vllm:e2e_request_latency_seconds{{engine=\"0\",model_name=\"opt-125m-tp2\"}} lacks \
             its `le=\"+Inf\"` bucket",
            text[..at].lines().count()
        )
    );
    let count = text.find("vllm:e2e_request_latency_seconds_count").unwrap();
    let e = parse_exposition(&text[..count]).unwrap_err();
    assert!(e.message.ends_with("lacks its `_count`"), "{e}");
    // a sample cut in its value: the last line has no line end
    let e = parse_exposition(&text[..count + 80]).unwrap_err();
    assert_eq!(
        e.message,
        "the scrape ends mid-line (cut off?): the last line, a sample, has no line end (every \
         line of a scrape ends with one)"
    );
}

// ---------------------------------------------------------------------------------------------
// Plausibility (crate::plausible): the real loaded scrape with one impossible value.

/// The loaded scrape with the line containing `from` replaced by `to` (one or more lines).
fn loaded_with(from: &str, to: &str) -> String {
    let text = fixture("metrics_vllm_0_25_1_loaded.txt");
    let line = text
        .lines()
        .find(|l| l.starts_with(from))
        .unwrap_or_else(|| panic!("no line starts with {from:?}"))
        .to_string();
    text.replacen(&line, to, 1)
}

fn line_of(text: &str, start: &str) -> u64 {
    text.lines().position(|l| l.starts_with(start)).unwrap() as u64 + 1
}

#[test]
fn a_counter_of_1e308_in_two_series_is_refused_naming_line_and_family() {
    let text = loaded_with(
        "vllm:prompt_tokens_total{",
        "vllm:prompt_tokens_total{engine=\"0\",model_name=\"opt-125m-tp2\"} 1e308\n\
         vllm:prompt_tokens_total{engine=\"1\",model_name=\"opt-125m-tp2\"} 1e308",
    );
    let line = line_of(&text, "vllm:prompt_tokens_total{");
    let err = VllmSnapshot::parse(&text).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "line {line}: vllm:prompt_tokens_total: 1e308 is not a possible count (must be at \
             most 2^53 = 9,007,199,254,740,992)"
        )
    );
    // Two series that are each a count but whose sum is not: refused naming the family.
    let text = loaded_with(
        "vllm:prompt_tokens_total{",
        "vllm:prompt_tokens_total{engine=\"0\",model_name=\"opt-125m-tp2\"} 9007199254740992\n\
         vllm:prompt_tokens_total{engine=\"1\",model_name=\"opt-125m-tp2\"} 9007199254740992",
    );
    let err = VllmSnapshot::parse(&text).unwrap_err();
    assert!(matches!(err, MetricsError::Implausible(_)), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("vllm:prompt_tokens: the sum over 2 series is 1.8014398509481984e16"),
        "{err}"
    );
}

#[test]
fn an_infinite_or_negative_counter_and_histogram_value_are_refused() {
    let text = loaded_with(
        "vllm:num_preemptions_total{",
        "vllm:num_preemptions_total{engine=\"0\",model_name=\"opt-125m-tp2\"} +Inf",
    );
    let line = line_of(&text, "vllm:num_preemptions_total{");
    let err = VllmSnapshot::parse(&text).unwrap_err();
    assert!(
        err.to_string().starts_with(&format!(
            "line {line}: vllm:num_preemptions_total: inf is not a possible count"
        )),
        "{err}"
    );
    let text = loaded_with(
        "vllm:e2e_request_latency_seconds_sum{",
        "vllm:e2e_request_latency_seconds_sum{engine=\"0\",model_name=\"opt-125m-tp2\"} -12.5",
    );
    let err = VllmSnapshot::parse(&text).unwrap_err();
    assert!(
        err.to_string().contains(
            "vllm:e2e_request_latency_seconds_sum: -12.5 is not a possible count (must be finite and ≥ 0)"
        ),
        "{err}"
    );
    let text = loaded_with(
        "vllm:kv_cache_usage_perc{",
        "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"opt-125m-tp2\"} 7.5",
    );
    let err = VllmSnapshot::parse(&text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "vllm:kv_cache_usage_perc: 7.5 is not a possible fraction (must be between 0 and 1)"
    );
}

#[test]
fn sample_timestamps_in_5138_or_1970_are_refused() {
    let sample = "vllm:num_requests_running{engine=\"0\",model_name=\"opt-125m-tp2\"}";
    // 1e14 ms is the year 5138; 1000 ms is 1970-01-01T00:00:01Z.
    for (stamp, year) in [("100000000000000", "5138"), ("1000", "1970")] {
        let text = loaded_with(sample, &format!("{sample} 64.0 {stamp}"));
        let line = line_of(&text, sample);
        let err = VllmSnapshot::parse(&text).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "line {line}: vllm:num_requests_running: the sample's timestamp: the instant ({year}-"
            )),
            "{err}"
        );
        assert!(
            err.ends_with(
                "is not between 2000-01-01 and 2100-01-01: a wrong unit or a placeholder date?"
            ),
            "{err}"
        );
    }
    // A timestamp of this century is kept.
    let text = loaded_with(sample, &format!("{sample} 64.0 1772442000000"));
    assert_eq!(
        VllmSnapshot::parse(&text).unwrap().timestamp_ms,
        Some(1_772_442_000_000)
    );
}

#[test]
fn scrapes_years_apart_or_a_microsecond_apart_have_no_rates() {
    let (idle, loaded) = (idle(), loaded());
    // scraped_at in 1970 and 2026: 56 years.
    let err = vllm_window(&idle, &loaded, Some(1.772e9)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the time between the scrapes: 1772000000 s is not a possible window"),
        "{err}"
    );
    assert!(vllm_window(&idle, &loaded, Some(1e-6)).is_err());
    let window = vllm_window(&idle, &loaded, Some(60.0)).unwrap();
    assert!(window.request_rate_per_s.unwrap().is_finite());
    // Every figure is finite, so the stored window reads back as it was.
    let json = serde_json::to_string(&window).unwrap();
    let back: VllmWindow = serde_json::from_str(&json).unwrap();
    assert_eq!(back, window);
}
