//! Importer tests: every real fixture in `testdata/` of a supported format imports and
//! reproduces the file's own numbers; malformed variants fail with errors that name the file,
//! line and field; formats without a real sample (GenAI-Perf, current guidellm) are tested on
//! small files written here from the documented schema.
//!
//! Fixtures are the real files in `<workspace>/testdata` (sources in `testdata/SOURCES.md`); a
//! missing file fails the tests rather than skipping them.

use super::*;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

fn read(rel: &str) -> Vec<u8> {
    let path = fixtures().join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {} unreadable: {e}", path.display()))
}

fn load(rel: &str) -> Import {
    let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
    import(name, &read(rel)).unwrap_or_else(|e| panic!("{rel} failed to import: {e}"))
}

/// Every file under a fixture folder as (relative path, bytes).
fn folder(rel: &str) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .replace('\\', "/");
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    let root = fixtures().join(rel);
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    assert!(
        !out.is_empty(),
        "fixture folder {} is empty",
        root.display()
    );
    out
}

/// Every piece of the import's layout is one the German reading knows (`words`), and every
/// point source reads in German without `line`.
fn layout_has_german(imp: &Import) {
    assert_eq!(
        super::words::unknown_pieces(&imp.layout),
        Vec::<&str>::new(),
        "layout `{}`",
        imp.layout
    );
    let german = layout_in(&imp.layout, crate::locale::Lang::De);
    assert_ne!(german, imp.layout);
    for p in &imp.points {
        let source = point_source_in(&p.source, crate::locale::Lang::De);
        assert!(!source.contains(" line "), "`{}` → `{source}`", p.source);
    }
}

fn close(actual: Option<f64>, expected: f64) {
    let a = actual.unwrap_or_else(|| panic!("expected {expected}, found None"));
    let tol = 1e-9 * expected.abs().max(1.0);
    assert!(
        (a - expected).abs() <= tol,
        "expected {expected}, found {a}"
    );
}

fn m(point: &OperatingPoint, key: MetricKey) -> &MetricStats {
    point
        .metric(key)
        .unwrap_or_else(|| panic!("{} has no {key}", point.source))
}

fn err(name: &str, bytes: &[u8]) -> IngestError {
    match import(name, bytes) {
        Ok(i) => panic!("{name} imported but should fail: {} points", i.points.len()),
        Err(e) => e,
    }
}

fn replace_once(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(text.contains(from), "fixture no longer contains {from:?}");
    text.replacen(from, to, 1).into_bytes()
}

// ---------------------------------------------------------------------------------------------
// vllm bench serve

#[test]
fn vllm_v0_25_1_single_result() {
    let imp = load("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    assert_eq!(imp.format, Format::VllmBench);
    assert_eq!(imp.tool, "vllm bench serve");
    assert_eq!(imp.tool_version, None);
    assert!(imp.requests.is_empty());
    assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
    let [p] = imp.points.as_slice() else {
        panic!("one point")
    };
    assert_eq!(p.completed, Some(8));
    assert_eq!(p.failed, Some(0));
    assert_eq!(p.concurrency, Some(2.0));
    assert_eq!(p.request_rate, None, "request_rate \"inf\" is unlimited");
    assert_eq!(p.settings["request_rate"], "inf");
    assert_eq!(p.model.as_deref(), Some("facebook/opt-125m"));
    assert_eq!(p.duration_s, Some(1.5441598830002476));
    assert_eq!(p.input_tokens_total, Some(256));
    assert_eq!(p.output_tokens_total, Some(128));
    assert_eq!(p.request_throughput, Some(5.180810671273421));
    assert_eq!(p.output_tokens_per_s, Some(82.89297074037474));
    assert_eq!(p.total_tokens_per_s, Some(248.6789122211242));
    assert_eq!(p.request_goodput, None);
    assert_eq!(p.scenario, "observed mean input 32 / output 16 tokens");
    assert_eq!(p.settings["backend"], "vllm");
    assert_eq!(p.settings["max_concurrent_requests"], "6");

    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(215.53594200008774));
    assert_eq!(ttft.p50, Some(55.68139649994919));
    assert_eq!(ttft.p99, Some(734.4049174101428));
    assert_eq!(ttft.std, Some(292.06819504885306));
    assert_eq!(ttft.std_kind, Some(StdKind::Population));
    assert_eq!(ttft.p90, None);
    assert_eq!(ttft.unit, "ms");
    assert_eq!(ttft.source, "ttft");
    assert!(!ttft.computed_from_requests);

    let tpot = m(p, MetricKey::TpotMs);
    assert_eq!(tpot.mean, Some(11.265828258331112));
    assert_eq!(tpot.p50, Some(11.20450286665194));
    assert_eq!(tpot.p99, Some(11.979541883350674));
    assert!(tpot.definition.contains("(output tokens − 1)"));
    assert!(tpot.definition.contains("inter_token_latency"));

    let itl = m(p, MetricKey::ItlMs);
    assert_eq!(itl.mean, Some(11.265836941667354));
    assert_eq!(itl.p50, Some(10.492878499917424));
    assert_eq!(itl.p99, Some(29.815922519960626));
    assert!(itl.definition.contains("inter_chunk_latency"));
    assert!(
        p.metric(MetricKey::E2eMs).is_none(),
        "e2el was not selected in this run"
    );
}

#[test]
fn vllm_all_failed_run_has_no_latency_data() {
    let imp = load("er0080-vllm-benchmarking/bench_serve_all_requests_failed_v0.25.1.json");
    assert_eq!(imp.format, Format::VllmBench);
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(0));
    assert_eq!(p.failed, Some(8));
    assert_eq!(p.concurrency, None, "max_concurrency null");
    assert_eq!(p.duration_s, Some(0.00503263997961767));
    assert_eq!(p.request_throughput, Some(0.0));
    assert!(
        p.metrics.is_empty(),
        "0.0 placeholders must not read as 0 ms"
    );
    assert_eq!(p.scenario, "unspecified");
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("all 8 requests failed")),
        "{:?}",
        imp.warnings
    );
}

#[test]
fn vllm_json_lines_request_rate_sweep() {
    let imp = load("nerdalert-vllm-benchmark-graphs/results.json");
    assert_eq!(imp.format, Format::VllmBenchJsonLines);
    assert_eq!(imp.points.len(), 12);
    let p0 = &imp.points[0];
    assert_eq!(p0.source, "results.json line 1");
    assert_eq!(p0.request_rate, Some(1.0));
    assert_eq!(p0.concurrency, None);
    assert_eq!(p0.completed, Some(120));
    assert_eq!(p0.failed, None, "2025-04 files have no failed count");
    assert_eq!(p0.request_goodput, None, "\"request_goodput:\": null");
    assert_eq!(p0.settings["framework"], "vllm");
    assert_eq!(p0.scenario, "observed mean input 1000 / output 100 tokens");
    assert_eq!(m(p0, MetricKey::TtftMs).mean, Some(45.037437366166465));
    assert_eq!(m(p0, MetricKey::TtftMs).p99, Some(54.841249948367484));
    assert_eq!(m(p0, MetricKey::TpotMs).mean, Some(8.564716330980287));
    assert_eq!(m(p0, MetricKey::ItlMs).p99, Some(11.664469018578353));

    let inf = &imp.points[5];
    assert_eq!(inf.request_rate, None);
    assert_eq!(inf.completed, Some(1015));
    assert_eq!(m(inf, MetricKey::TtftMs).mean, Some(18107.31514309088));
    assert_eq!(m(inf, MetricKey::TtftMs).p99, Some(34829.0987819992));

    let sgl = &imp.points[6];
    assert_eq!(sgl.source, "results.json line 7");
    assert_eq!(sgl.settings["framework"], "sgl");
    assert_eq!(m(sgl, MetricKey::TtftMs).mean, Some(64.87519526272081));
    assert_eq!(m(sgl, MetricKey::TtftMs).p99, Some(628.9258978795276));
    let rates: Vec<Option<f64>> = imp.points.iter().map(|p| p.request_rate).collect();
    assert_eq!(
        rates[..6],
        [
            Some(1.0),
            Some(10.0),
            Some(20.0),
            Some(30.0),
            Some(35.0),
            None
        ]
    );
}

#[test]
fn vllm_json_lines_with_metadata_keys() {
    let imp = load("nerdalert-vllm-bench-automation/results.json");
    assert_eq!(imp.format, Format::VllmBenchJsonLines);
    assert_eq!(imp.points.len(), 9);
    let p0 = &imp.points[0];
    assert_eq!(
        p0.scenario, "input 1000 / output 500 tokens",
        "from --metadata input_len/output_len"
    );
    assert_eq!(p0.settings["deployment"], "no-features");
    assert_eq!(p0.settings["gpu"], "4xNVIDIA_L40S");
    assert_eq!(p0.settings["decode_replicas"], "4");
    assert_eq!(p0.request_rate, Some(10.0));
    assert_eq!(p0.completed, Some(300));
    assert_eq!(p0.input_tokens_total, Some(299700));
    assert_eq!(p0.output_tokens_total, Some(80945));
    assert_eq!(m(p0, MetricKey::TtftMs).mean, Some(54.59561144333596));
    assert_eq!(m(p0, MetricKey::TtftMs).p99, Some(98.69780922984769));
    let last = &imp.points[8];
    assert_eq!(last.settings["deployment"], "kvcache");
    assert_eq!(last.request_rate, None);
    assert_eq!(m(last, MetricKey::TtftMs).mean, Some(884.9588357166714));
    assert_eq!(m(last, MetricKey::TtftMs).p99, Some(1249.6421772296253));
}

#[test]
fn vllm_2024_detailed_arrays() {
    let imp = load("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json");
    assert_eq!(imp.format, Format::VllmBench);
    assert!(imp.layout.contains("--save-detailed"), "{}", imp.layout);
    assert!(imp.layout.contains("2024"), "{}", imp.layout);
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(10));
    assert_eq!(p.failed, None);
    assert_eq!(p.concurrency, None);
    assert_eq!(p.input_tokens_total, Some(1369));
    assert_eq!(p.output_tokens_total, Some(1867));
    assert_eq!(p.settings["best_of"], "1");
    assert_eq!(p.settings["input_throughput"], "255.09589282277642");
    assert_eq!(m(p, MetricKey::TtftMs).mean, Some(62.426355000934564));
    assert_eq!(m(p, MetricKey::TtftMs).p99, Some(63.362654292432126));
    assert_eq!(m(p, MetricKey::TpotMs).mean, Some(11.105466039313557));
    assert_eq!(m(p, MetricKey::ItlMs).mean, Some(72.39887336495076));
    let e2e = m(p, MetricKey::E2eMs);
    assert_eq!(e2e.source, "latency", "2024 name of e2el");
    assert_eq!(e2e.mean, Some(1431.7765221989248));
    assert_eq!(e2e.p99, Some(5167.98242930352));
    assert!(!e2e.computed_from_requests);

    assert_eq!(imp.requests.len(), 10);
    let r0 = &imp.requests[0];
    assert_eq!(r0.point, 0);
    assert_eq!((r0.input_tokens, r0.output_tokens), (Some(13), Some(120)));
    close(r0.ttft_ms, 63.38946700270753);
    assert_eq!(
        r0.itl_ms.len(),
        12,
        "~10 tokens per chunk: 12 gaps for 120 tokens"
    );
    assert_eq!(r0.e2e_ms, None, "2024 files have no per-request latency");
    assert_eq!(r0.tpot_ms, None);
    assert!(imp.requests.iter().all(|r| r.error.is_none()));
}

const VLLM_STATS_ONLY: &str =
    "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.stats-only.handmade.json";

/// An older/trimmed benchmark_serving.py result with only the latency statistics (no
/// `completed`, `duration`, totals or throughputs) is read: the statistics are the file's own,
/// the missing figures stay absent and a note names the missing keys.
#[test]
fn vllm_stats_only_result_is_read_with_a_note() {
    let imp = load(VLLM_STATS_ONLY);
    assert_eq!(imp.format, Format::VllmBench);
    assert_eq!(imp.points.len(), 1);
    let p = &imp.points[0];
    assert_eq!(p.completed, None);
    assert_eq!(p.duration_s, None);
    assert_eq!(p.request_throughput, None);
    assert_eq!(p.output_tokens_per_s, None);
    assert_eq!(p.total_tokens_per_s, None);
    assert_eq!(p.input_tokens_mean, None);
    assert_eq!(
        p.model.as_deref(),
        Some("meta-llama/Meta-Llama-3-8B-Instruct")
    );
    assert_eq!(p.request_rate, None, "\"inf\"");
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(62.426355000934564));
    assert_eq!(ttft.p50, Some(62.1947320032632));
    assert_eq!(ttft.std, Some(0.4923805647450151));
    assert_eq!(ttft.p99, Some(63.362654292432126));
    assert_eq!(ttft.count, None, "no `completed`: the count is unknown");
    assert_eq!(m(p, MetricKey::TpotMs).mean, Some(11.105466039313557));
    assert_eq!(m(p, MetricKey::TpotMs).p99, Some(33.804889221253696));
    assert_eq!(m(p, MetricKey::ItlMs).p50, Some(72.3023679893231));
    assert_eq!(m(p, MetricKey::E2eMs).mean, Some(1431.7765221989248));
    assert_eq!(m(p, MetricKey::E2eMs).p99, Some(5167.98242930352));
    assert!(imp.requests.is_empty());
    assert_eq!(
        imp.warnings,
        vec![format!(
            "{}: the result has no `completed`, `duration`, `request_throughput`, `output_throughput` (an older or trimmed benchmark_serving.py result); the latency statistics are the file's own; every other figure the missing keys carry is left absent",
            "Meta-Llama-3-8B-Instruct_tp1_len2048.stats-only.handmade.json"
        )]
    );

    // In a folder beside a complete result, both are read (the folder is no longer refused).
    let files = vec![
        (
            "a/full.json".to_string(),
            read("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json"),
        ),
        ("b/stats-only.json".to_string(), read(VLLM_STATS_ONLY)),
    ];
    let folder = import_sweep(&files).unwrap();
    assert_eq!(folder.points.len(), 2);
    assert_eq!(folder.points[0].completed, Some(10));
    assert_eq!(folder.points[1].completed, None);
    assert_eq!(
        m(&folder.points[1], MetricKey::TtftMs).mean,
        Some(62.426355000934564)
    );
    assert!(
        folder
            .warnings
            .iter()
            .any(|w| w.contains("b/stats-only.json") && w.contains("no `completed`")),
        "{:?}",
        folder.warnings
    );
}

/// Without `completed` and the throughputs but with `--save-detailed` arrays, the successful
/// requests are counted from the `errors` list and the throughputs from duration and totals.
#[test]
fn vllm_missing_totals_are_computed_from_what_the_file_has() {
    let bytes = read("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json");
    let mut trimmed = replace_once(&bytes, "\"completed\": 10, ", "");
    for key in ["request_throughput", "output_throughput"] {
        let text = String::from_utf8(trimmed).unwrap();
        let start = text.find(&format!("\"{key}\": ")).unwrap();
        let end = start + text[start..].find(", ").unwrap() + 2;
        trimmed = format!("{}{}", &text[..start], &text[end..]).into_bytes();
    }
    let imp = import("old.json", &trimmed).unwrap();
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(10), "10 requests, none with an error");
    assert_eq!(m(p, MetricKey::TtftMs).count, Some(10));
    // The file's own figures: request_throughput 1.8633739431904777 and output_throughput
    // 347.8919151936622 (= 10 and 1867 tokens over 5.3666093360079685 s).
    close(p.request_throughput, 1.8633739431904777);
    close(p.output_tokens_per_s, 347.8919151936622);
    close(p.total_tokens_per_s, (1369.0 + 1867.0) / 5.3666093360079685);
    let note = imp.warnings.last().unwrap();
    assert!(
        note.contains("no `completed`, `request_throughput`, `output_throughput`"),
        "{note}"
    );
    assert!(
        note.contains("counted from the per-request arrays"),
        "{note}"
    );
    assert!(
        note.contains("request_throughput, output_throughput, total_token_throughput computed"),
        "{note}"
    );
}

/// The file's own TTFT and ITL statistics are reproduced from its per-request arrays: this pins
/// the percentile method (linear between closest ranks) and the population std.
#[test]
fn vllm_detailed_arrays_reproduce_the_files_statistics() {
    let imp = load("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json");
    let p = &imp.points[0];
    let ttfts: Vec<f64> = imp.requests.iter().filter_map(|r| r.ttft_ms).collect();
    let s = stats::summarize(&ttfts).unwrap();
    let file = m(p, MetricKey::TtftMs);
    close(Some(s.mean), file.mean.unwrap());
    close(s.percentile(50.0), file.p50.unwrap());
    close(s.percentile(99.0), file.p99.unwrap());
    close(Some(s.std), file.std.unwrap());

    let gaps: Vec<f64> = imp
        .requests
        .iter()
        .flat_map(|r| r.itl_ms.iter().copied())
        .collect();
    assert_eq!(gaps.len(), 189);
    let s = stats::summarize(&gaps).unwrap();
    let file = m(p, MetricKey::ItlMs);
    close(Some(s.mean), file.mean.unwrap());
    close(s.percentile(50.0), file.p50.unwrap());
    close(s.percentile(99.0), file.p99.unwrap());
    close(Some(s.std), file.std.unwrap());
}

#[test]
fn vllm_sweep_folder() {
    let files = folder("er0080-vllm-benchmarking/sweep_v0.25.1");
    assert_eq!(files.len(), 6);
    let imp = import_sweep(&files).unwrap();
    assert_eq!(imp.format, Format::VllmSweep);
    assert_eq!(
        imp.points.len(),
        4,
        "run=0/run=1 per folder; summary.json repeats them"
    );
    assert_eq!(
        imp.warnings
            .iter()
            .filter(|w| w.contains("summary.json: skipped"))
            .count(),
        2,
        "{:?}",
        imp.warnings
    );
    let p0 = &imp.points[0];
    assert!(
        p0.source
            .ends_with("max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=0.json")
    );
    assert_eq!(p0.settings["sweep.serve.max_num_seqs"], "4");
    assert_eq!(p0.settings["sweep.bench.max_concurrency"], "2");
    assert_eq!(p0.settings["sweep.bench.num_prompts"], "8");
    assert_eq!(p0.settings["run_number"], "0");
    assert_eq!(p0.settings["max_num_seqs"], "4");
    assert_eq!(p0.concurrency, Some(2.0));
    assert_eq!(p0.completed, Some(8));
    let e2e = m(p0, MetricKey::E2eMs);
    assert_eq!(e2e.source, "e2el");
    assert_eq!(e2e.mean, Some(340.3411977451469));
    assert_eq!(e2e.p99, Some(876.8009717071254));
    assert_eq!(m(p0, MetricKey::TtftMs).mean, Some(217.27289337468392));
    assert_eq!(
        m(&imp.points[1], MetricKey::TtftMs).mean,
        Some(39.30731637592544)
    );
    let p2 = &imp.points[2];
    assert_eq!(p2.settings["sweep.serve.max_num_seqs"], "8");
    assert_eq!(m(p2, MetricKey::TtftMs).mean, Some(46.89306787258829));
    assert_eq!(
        m(&imp.points[3], MetricKey::E2eMs).p99,
        Some(211.8921066443727)
    );
}

#[test]
fn vllm_sweep_summary_alone() {
    let rel = "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8/summary.json";
    let imp = load(rel);
    assert_eq!(imp.format, Format::VllmSweepSummary);
    assert_eq!(imp.points.len(), 2);
    assert_eq!(imp.points[0].source, "summary.json[0]");
    assert_eq!(
        m(&imp.points[0], MetricKey::TtftMs).mean,
        Some(46.89306787258829)
    );
    assert_eq!(
        m(&imp.points[1], MetricKey::TtftMs).mean,
        Some(36.80464224999014)
    );
    assert_eq!(
        m(&imp.points[1], MetricKey::TpotMs).p99,
        Some(12.104329406419614)
    );
}

#[test]
fn vllm_detailed_latencies_fill_missing_e2e_statistics() {
    // A newer detailed file: `latencies` present, e2el not in --percentile-metrics.
    let doc = r#"{"backend":"vllm","model_id":"m","num_prompts":4,"request_rate":"inf",
        "max_concurrency":4,"duration":2.0,"completed":3,"failed":1,
        "total_input_tokens":30,"total_output_tokens":13,"request_throughput":1.5,
        "mean_ttft_ms":20.0,"median_ttft_ms":20.0,"std_ttft_ms":8.16496580927726,"p99_ttft_ms":29.8,
        "input_lens":[10,10,10,10],"output_lens":[5,0,4,4],
        "ttfts":[0.010,0.0,0.020,0.030],"itls":[[0.01,0.01,0.01,0.01],[],[0.02,0.02,0.02],[0.01,0.01,0.01]],
        "latencies":[0.050,0.0,0.080,0.060],"start_times":[100.5,100.0,100.25,101.0],
        "errors":["","Bad Gateway","",""]}"#;
    let imp = import("detailed.json", doc.as_bytes()).unwrap();
    let p = &imp.points[0];
    let e2e = m(p, MetricKey::E2eMs);
    assert!(e2e.computed_from_requests);
    assert_eq!(
        e2e.count,
        Some(3),
        "the failed request is not a latency sample"
    );
    close(e2e.mean, (50.0 + 80.0 + 60.0) / 3.0);
    close(e2e.p50, 60.0);
    close(e2e.max, 80.0);
    assert!(
        !m(p, MetricKey::TtftMs).computed_from_requests,
        "the file's own TTFT wins"
    );
    // TPOT and ITL were not in the summary either: computed from the arrays.
    let tpot = m(p, MetricKey::TpotMs);
    assert!(tpot.computed_from_requests);
    close(tpot.p50, 10.0); // (50−10)/4 = 10, (80−20)/3 = 20, (60−30)/3 = 10
    assert_eq!(m(p, MetricKey::ItlMs).count, Some(10));
    assert_eq!(imp.requests.len(), 4);
    let failed = &imp.requests[1];
    assert_eq!(failed.error.as_deref(), Some("Bad Gateway"));
    assert_eq!(
        failed.ttft_ms, None,
        "vLLM writes 0.0 for failed requests; not a latency"
    );
    assert_eq!(imp.requests[0].start_s, Some(0.5));
    close(imp.requests[0].tpot_ms, 10.0);

    // Without records, the statistics are the same.
    let lean = import_with(
        "detailed.json",
        doc.as_bytes(),
        &ImportOptions::stats_only(),
    )
    .unwrap();
    assert!(lean.requests.is_empty());
    assert_eq!(lean.points, imp.points);
}

// ---------------------------------------------------------------------------------------------
// AIPerf

#[test]
fn aiperf_early_records_layout() {
    let imp = load("aiperf-examples-run1/profile_export_aiperf.json");
    assert_eq!(imp.format, Format::AiperfJson);
    assert_eq!(imp.tool, "aiperf");
    assert!(imp.layout.contains("early records"), "{}", imp.layout);
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(89));
    assert_eq!(p.failed, Some(11));
    assert_eq!(p.concurrency, Some(100.0));
    assert_eq!(p.model.as_deref(), Some("openai/gpt-oss-20b"));
    assert_eq!(p.scenario, "output 250 tokens");
    assert_eq!(p.duration_s, Some(9.317788951));
    assert_eq!(p.request_throughput, Some(9.551622221540914));
    assert_eq!(p.output_tokens_per_s, Some(2320.7222350404572));
    assert_eq!(p.input_tokens_total, Some(48950));
    assert_eq!(p.output_tokens_total, Some(21624));
    assert_eq!(p.output_tokens_per_s_per_user, Some(36.68434853220158));
    assert_eq!(p.settings["errors"], "RequestCancellationError ×11");
    assert_eq!(p.settings["loadgen.request_cancellation_rate"], "10.0");

    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.source, "ttft");
    assert_eq!(ttft.mean, Some(2343.219436988764));
    assert_eq!(ttft.p50, Some(2369.317693));
    assert_eq!(ttft.p90, Some(3796.9311679999996));
    assert_eq!(ttft.p99, Some(3833.3894000399996));
    assert_eq!(ttft.min, Some(464.66410099999996));
    assert_eq!(ttft.percentiles["p25"], 1413.835049);
    assert_eq!(ttft.count, Some(89));
    assert_eq!(ttft.std_kind, Some(StdKind::Sample));
    assert_eq!(m(p, MetricKey::TtstMs).mean, Some(120.16625153932584));
    let tpot = m(p, MetricKey::TpotMs);
    assert_eq!(tpot.source, "inter_token_latency");
    assert_eq!(tpot.mean, Some(27.763065454471807));
    let itl = m(p, MetricKey::ItlMs);
    assert_eq!(itl.source, "inter_chunk_latency");
    assert_eq!(itl.mean, Some(27.755153106189347));
    assert_eq!(itl.count, Some(21537));
    assert_eq!(m(p, MetricKey::E2eMs).p99, Some(9297.609933759999));
    assert_eq!(m(p, MetricKey::InputTokens).mean, Some(550.0));
    assert_eq!(m(p, MetricKey::OutputTokens).mean, Some(242.96629213483146));
}

#[test]
fn aiperf_flat_schema_1_0() {
    let imp = load("aiperf-dev-smoke-100k/profile_export_aiperf.json");
    assert_eq!(imp.format, Format::AiperfJson);
    assert_eq!(imp.tool_version.as_deref(), Some("0.8.0"));
    assert_eq!(imp.layout, "flat layout, schema 1.0");
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(481414));
    assert_eq!(p.failed, Some(18586));
    assert_eq!(p.concurrency, Some(100000.0));
    assert_eq!(p.model.as_deref(), Some("mock"));
    assert_eq!(p.scenario, "input 128 / output 128 tokens");
    assert_eq!(p.duration_s, Some(141.58332399600002));
    assert_eq!(p.total_tokens_per_s, Some(778649.6522931937));
    assert_eq!(p.settings["errors"], "ClientConnectorError ×18586");
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(11205.91161602855));
    assert_eq!(ttft.p99, Some(36193.81841633999));
    assert_eq!(ttft.percentiles["p10"], 595.6656786);
    assert_eq!(ttft.count, None, "schema 1.0 has no count");
    assert_eq!(m(p, MetricKey::TpotMs).mean, Some(65.79105226882206));
    assert_eq!(m(p, MetricKey::ItlMs).p99, Some(54.688316235362805));
    assert_eq!(m(p, MetricKey::E2eMs).max, Some(119465.648676));
    assert!(p.settings.contains_key("osl_mismatch_count"));
}

#[test]
fn aiperf_sweep_folder() {
    let files = folder("akamaslabs-aiperf-sweep");
    let imp = import_sweep(&files).unwrap();
    assert_eq!(imp.format, Format::AiperfSweep);
    assert_eq!(imp.tool_version.as_deref(), Some("0.11.0"));
    let conc: Vec<Option<f64>> = imp.points.iter().map(|p| p.concurrency).collect();
    assert_eq!(
        conc,
        [Some(16.0), Some(128.0), Some(768.0)],
        "natural path order"
    );
    let p = &imp.points[0];
    assert_eq!(p.settings["folder"], "concurrency_16");
    assert_eq!(p.completed, Some(2044));
    assert_eq!(p.failed, Some(0), "empty error_summary");
    assert_eq!(p.model.as_deref(), Some("qwen3-4b"));
    assert_eq!(
        p.scenario,
        "dataset /benchmarks/sharegpt-cache/inputs-qwen3-4b.json"
    );
    assert_eq!(p.request_goodput, Some(6.814794988917071));
    assert_eq!(p.settings["slo.time_to_first_token"], "1500.0");
    assert_eq!(
        p.settings["run_info.variation_label"],
        "phases.profiling.concurrency=16"
    );
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(28.736161119863013));
    assert_eq!(ttft.p50, Some(26.7700945));
    assert_eq!(ttft.p99, Some(66.76023583999999));
    assert_eq!(ttft.count, Some(2044));
    assert_eq!(m(p, MetricKey::TpotMs).p50, Some(8.731694873219372));
    let p128 = &imp.points[1];
    assert_eq!(p128.completed, Some(5429));
    assert_eq!(m(p128, MetricKey::TtftMs).mean, Some(92.80964871468042));
    assert_eq!(m(p128, MetricKey::TtftMs).p99, Some(380.53333152000005));
    assert_eq!(p128.request_goodput, Some(18.09238330494874));
    let p768 = &imp.points[2];
    assert_eq!(p768.completed, Some(5097));
    assert_eq!(m(p768, MetricKey::TtftMs).mean, Some(27198.160197975474));
    assert_eq!(m(p768, MetricKey::TpotMs).p50, Some(53.7641742173913));
    assert_eq!(p768.request_throughput, Some(16.993505477408057));
}

#[test]
fn aiperf_csv_summary() {
    let imp = load("aiperf-examples-run1/profile_export_aiperf.csv");
    assert_eq!(imp.format, Format::AiperfCsv);
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(89));
    assert_eq!(p.failed, Some(11));
    assert_eq!(p.duration_s, Some(9.32));
    assert_eq!(p.request_throughput, Some(9.55));
    assert_eq!(p.output_tokens_per_s, Some(2320.72));
    assert_eq!(p.input_tokens_total, Some(48950));
    assert_eq!(p.output_tokens_total, Some(21624));
    assert_eq!(p.concurrency, None);
    assert_eq!(p.scenario, "observed mean input 550 / output 243 tokens");
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(2343.22));
    assert_eq!(ttft.p99, Some(3833.39));
    assert_eq!(ttft.percentiles["p25"], 1413.84);
    assert_eq!(ttft.std, Some(1049.82));
    assert_eq!(m(p, MetricKey::ItlMs).mean, Some(27.76));
    assert_eq!(m(p, MetricKey::ItlMs).p99, Some(140.53));
    assert_eq!(m(p, MetricKey::TpotMs).p99, Some(33.73));
    assert_eq!(m(p, MetricKey::E2eMs).p50, Some(9097.35));
    assert_eq!(m(p, MetricKey::TtstMs).max, Some(143.25));
    assert_eq!(p.output_tokens_per_s_per_user, Some(36.68));
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("no run configuration"))
    );
}

#[test]
fn aiperf_per_request_jsonl() {
    let imp = load("aiperf-examples-run1/profile_export.head12.jsonl");
    assert_eq!(imp.format, Format::AiperfJsonl);
    assert!(imp.layout.contains("early metadata"), "{}", imp.layout);
    assert_eq!(imp.requests.len(), 12);
    let errors: Vec<&RequestRecord> = imp.requests.iter().filter(|r| r.is_error()).collect();
    assert_eq!(errors.len(), 11);
    assert_eq!(
        errors[0].error.as_deref(),
        Some("499 RequestCancellationError: Request was cancelled after 0.000 seconds")
    );
    assert_eq!(
        errors[0].id.as_deref(),
        Some("c087da26-5552-4785-958a-cad75c7b22de")
    );
    let ok = &imp.requests[11];
    assert_eq!(ok.ttft_ms, Some(1680.543782));
    assert_eq!(ok.e2e_ms, Some(7936.968269));
    assert_eq!(ok.tpot_ms, Some(32.585544203124996));
    assert_eq!((ok.input_tokens, ok.output_tokens), (Some(550), Some(193)));
    assert_eq!(ok.itl_ms.len(), 192);
    let sum: f64 = ok.itl_ms.iter().sum::<f64>() + ok.ttft_ms.unwrap();
    assert!(
        (sum - ok.e2e_ms.unwrap()).abs() < 1e-6,
        "TTFT + Σ chunk gaps = E2E"
    );

    let p = &imp.points[0];
    assert_eq!(p.completed, Some(1));
    assert_eq!(p.failed, Some(11));
    close(
        p.duration_s,
        (1759522427096160677u64 - 1759522419159192408u64) as f64 / 1e9,
    );
    assert_eq!(p.input_tokens_total, Some(550));
    assert_eq!(p.output_tokens_total, Some(193));
    assert_eq!(p.output_tokens_per_s_per_user, Some(30.68845478738693));
    let ttft = m(p, MetricKey::TtftMs);
    assert!(ttft.computed_from_requests);
    assert_eq!(ttft.count, Some(1));
    assert_eq!(ttft.mean, Some(1680.543782));
    assert_eq!(ttft.p99, Some(1680.543782));
    let itl = m(p, MetricKey::ItlMs);
    assert_eq!(itl.count, Some(192));
    close(itl.mean, ok.itl_ms.iter().sum::<f64>() / 192.0);
    assert_eq!(
        itl.max,
        Some(ok.itl_ms.iter().copied().fold(f64::MIN, f64::max))
    );
    assert_eq!(m(p, MetricKey::TtstMs).mean, Some(134.440792));
    assert_eq!(m(p, MetricKey::TpotMs).mean, Some(32.585544203124996));
}

#[test]
fn aiperf_jsonl_streams_from_a_reader_with_or_without_records() {
    let bytes = read("aiperf-examples-run1/profile_export.head12.jsonl");
    let from_bytes = import("profile_export.jsonl", &bytes).unwrap();
    let streamed = import_reader(
        "profile_export.jsonl",
        &bytes[..],
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(streamed, from_bytes);
    let lean = import_reader(
        "profile_export.jsonl",
        &bytes[..],
        &ImportOptions::stats_only(),
    )
    .unwrap();
    assert!(lean.requests.is_empty());
    assert_eq!(
        lean.points, from_bytes.points,
        "same exact statistics without records"
    );
    let bounded = ImportOptions {
        keep_requests: true,
        keep_itl_lists: false,
        exact_itl_percentiles: false,
    };
    let b = import_reader("profile_export.jsonl", &bytes[..], &bounded).unwrap();
    assert!(b.requests.iter().all(|r| r.itl_ms.is_empty()));
    let itl = m(&b.points[0], MetricKey::ItlMs);
    assert_eq!(itl.count, Some(192));
    close(
        itl.mean,
        m(&from_bytes.points[0], MetricKey::ItlMs).mean.unwrap(),
    );
    assert_eq!(itl.p50, None, "no per-chunk values kept, no percentiles");
}

/// A synthetic current-layout per-request file: warm-up skipped, percentiles exact.
#[test]
fn aiperf_jsonl_current_layout_exact_percentiles() {
    let mut text = String::new();
    text.push_str(r#"{"metadata":{"x_request_id":"w","request_start_ns":1,"request_end_ns":2,"benchmark_phase":"warmup"},"metrics":{"time_to_first_token":{"value":9999.0,"unit":"ms"}},"error":null}"#);
    text.push('\n');
    for i in 0..1000u64 {
        // 2025-10-03 (Unix ns): instants must lie in 2000–2099.
        let start = 1_759_522_419_000_000_000 + i * 1_000_000;
        let ttft = (i + 1) as f64; // 1..=1000 ms
        let e2e = ttft + 99.0;
        text.push_str(&format!(
            r#"{{"metadata":{{"x_request_id":"r{i}","request_start_ns":{start},"request_end_ns":{end},"benchmark_phase":"profiling"}},"metrics":{{"time_to_first_token":{{"value":{ttft},"unit":"ms"}},"request_latency":{{"value":{e2e},"unit":"ms"}},"inter_chunk_latency":{{"value":[33.0,33.0,33.0],"unit":"ms"}},"input_sequence_length":{{"value":100,"unit":"tokens"}},"output_sequence_length":{{"value":4,"unit":"tokens"}}}},"error":null}}"#,
            end = start + (e2e * 1e6) as u64
        ));
        text.push_str("\r\n");
    }
    let imp = import("profile_export.jsonl", text.as_bytes()).unwrap();
    let p = &imp.points[0];
    assert_eq!(p.completed, Some(1000));
    assert_eq!(p.failed, Some(0));
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("1 warm-up records skipped"))
    );
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.count, Some(1000));
    close(ttft.mean, 500.5);
    close(ttft.p50, 500.5);
    close(ttft.p99, 990.01); // h = 999 · 0.99 = 989.01 → 990 + 0.01
    close(ttft.percentiles.get("p99.9").copied(), 999.001);
    close(ttft.min, 1.0);
    close(ttft.max, 1000.0);
    // TPOT is not in the records: (E2E − TTFT) ÷ (4 − 1) = 33 ms for every request.
    close(m(p, MetricKey::TpotMs).p99, 33.0);
    assert_eq!(m(p, MetricKey::ItlMs).count, Some(3000));
    assert_eq!(p.input_tokens_total, Some(100_000));
    assert_eq!(p.output_tokens_total, Some(4000));
    // Duration: first start to last end.
    close(p.duration_s, (999.0 * 1e6 + 1099.0 * 1e6) / 1e9);
    assert_eq!(imp.requests[0].start_s, Some(0.0));
    close(imp.requests[999].start_s, 0.999);
}

// ---------------------------------------------------------------------------------------------
// guidellm

#[test]
fn guidellm_v0_3_layout() {
    let imp = load("graz-dev-guidellm/benchmarks.json");
    assert_eq!(imp.format, Format::GuidellmJson);
    assert!(imp.layout.starts_with("v0.2/v0.3"), "{}", imp.layout);
    let [p] = imp.points.as_slice() else {
        panic!("one benchmark")
    };
    assert_eq!(p.scenario, "prompt_tokens=512,output_tokens=128");
    assert_eq!(p.model.as_deref(), Some("qwen2.5-7b"));
    assert_eq!(p.settings["strategy"], "throughput");
    assert_eq!(
        p.settings["backend_target"],
        "http://vllm.llm-serving.svc.cluster.local:8000"
    );
    assert_eq!(
        p.concurrency, None,
        "throughput strategy: no configured concurrency"
    );
    assert_eq!(
        p.settings["measured_concurrency_mean"],
        "423.39378226527344"
    );
    assert_eq!(p.completed, Some(1000));
    assert_eq!(p.failed, Some(0));
    assert_eq!(p.duration_s, Some(198.60006022453308));
    assert_eq!(p.request_throughput, Some(5.035245200174767));
    assert_eq!(p.output_tokens_per_s, Some(644.5063503771702));
    assert_eq!(p.input_tokens_total, Some(512063));
    assert_eq!(p.output_tokens_total, Some(128000));

    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(60957.415367126465));
    assert_eq!(ttft.p50, Some(73964.50424194336), "median");
    assert_eq!(ttft.p99, Some(91623.366355896));
    assert_eq!(ttft.percentiles["p99.9"], 104042.86813735962);
    assert_eq!(ttft.percentiles["p0.1"], 243.2703971862793);
    assert_eq!(ttft.percentiles["p1"], 1473.6886024475098);
    let ps: Vec<f64> = ttft.all_percentiles().iter().map(|(p, _)| *p).collect();
    assert_eq!(
        ps,
        [
            0.1, 1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9
        ]
    );
    assert_eq!(ttft.percentile(99.9), Some(104042.86813735962));
    assert_eq!(ttft.count, Some(1000));
    let tpot = m(p, MetricKey::TpotMs);
    assert_eq!(tpot.source, "inter_token_latency_ms");
    assert_eq!(tpot.mean, Some(182.11426856949572));
    let per_n = m(p, MetricKey::TpotOverAllTokensMs);
    assert_eq!(per_n.source, "time_per_output_token_ms");
    assert_eq!(per_n.mean, Some(180.69150084629655));
    assert!(per_n.definition.contains("divides by n, not n − 1"));
    let e2e = m(p, MetricKey::E2eMs);
    close(e2e.mean, 84.08603065657616 * 1000.0);
    close(e2e.p99, 115.54972219467163 * 1000.0);
    assert!(p.metric(MetricKey::ItlMs).is_none());

    assert_eq!(imp.requests.len(), 1000);
    let r = &imp.requests[0];
    assert_eq!(
        r.id.as_deref(),
        Some("8ea23959-2826-41a4-b3b5-5e30fe56fd7f")
    );
    assert_eq!(r.ttft_ms, Some(243.2703971862793));
    close(r.e2e_ms, 23370.878219604492);
    assert_eq!(r.tpot_ms, Some(182.1063071723998));
    assert_eq!((r.input_tokens, r.output_tokens), (Some(512), Some(128)));
    let earliest = imp
        .requests
        .iter()
        .filter_map(|r| r.start_s)
        .fold(f64::MAX, f64::min);
    assert_eq!(earliest, 0.0);
    // The report's TTFT mean is reproduced from its own records.
    let ttfts: Vec<f64> = imp.requests.iter().filter_map(|r| r.ttft_ms).collect();
    close(
        Some(stats::summarize(&ttfts).unwrap().mean),
        60957.415367126465,
    );
}

#[test]
fn guidellm_current_layout() {
    let doc = r#"{
      "metadata": {"version": 2, "guidellm_version": "0.6.0"},
      "config": {"data": ["prompt_tokens=256,output_tokens=128"], "model": "Qwen/Qwen3-8B"},
      "benchmarks": [
        {"type_": "generative_benchmark",
         "config": {"id_": "b1", "run_id": "r", "run_index": 0,
                    "strategy": {"type_": "concurrent", "streams": 4},
                    "backend": {"target": "http://localhost:8000"}},
         "duration": 60.0,
         "metrics": {
           "request_totals": {"successful": 2, "errored": 1, "incomplete": 1, "total": 4},
           "requests_per_second": {"successful": {"mean": 0.5, "count": 10}},
           "output_tokens_per_second": {"successful": {"mean": 64.0, "count": 10}},
           "time_to_first_token_ms": {"successful": {"mean": 100.0, "median": 90.0, "std_dev": 10.0,
               "min": 80.0, "max": 120.0, "count": 2, "total_sum": 200.0,
               "percentiles": {"p50": 90.0, "p90": 110.0, "p95": 115.0, "p99": 119.0, "p999": 119.9}},
               "errored": {"mean": 0.0, "count": 0}},
           "time_per_output_token_ms": {"successful": {"mean": 20.0, "median": 20.0, "count": 2}},
           "inter_token_latency_ms": {"successful": {"mean": 19.0, "median": 19.0, "count": 2}},
           "request_latency": {"successful": {"mean": 2.5, "median": 2.5, "count": 2,
               "percentiles": {"p99": 2.9}}},
           "prompt_token_count": {"successful": {"mean": 256.0, "count": 2, "total_sum": 512.0}},
           "output_token_count": {"successful": {"mean": 128.0, "count": 2, "total_sum": 256.0}}
         },
         "requests": {"successful": [
             {"request_id": "a", "request_start_time": 1772442000.0, "prompt_tokens": 256, "output_tokens": 128,
              "time_to_first_token_ms": 80.0, "inter_token_latency_ms": 19.0, "request_latency": 2.4}],
           "errored": [{"request_id": "b", "info": {"error": "HTTP 500", "timings": {"request_start": 1772442001.0}}}],
           "incomplete": [], "total": null}
        }
      ]
    }"#;
    let imp = import("benchmarks.json", doc.as_bytes()).unwrap();
    assert_eq!(imp.format, Format::GuidellmJson);
    assert_eq!(imp.tool_version.as_deref(), Some("0.6.0"));
    assert_eq!(imp.layout, "current report layout (version 2)");
    layout_has_german(&imp);
    let p = &imp.points[0];
    assert_eq!(p.concurrency, Some(4.0));
    assert_eq!(p.settings["strategy"], "concurrent");
    assert_eq!(p.model.as_deref(), Some("Qwen/Qwen3-8B"));
    assert_eq!(p.scenario, "prompt_tokens=256,output_tokens=128");
    assert_eq!(p.completed, Some(2));
    assert_eq!(p.failed, Some(2), "errored + incomplete");
    assert_eq!(p.settings["requests_incomplete"], "1");
    assert_eq!(p.input_tokens_total, Some(512));
    assert_eq!(p.request_throughput, Some(0.5));
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(
        (ttft.p50, ttft.p90, ttft.p99),
        (Some(90.0), Some(110.0), Some(119.0))
    );
    assert_eq!(ttft.percentiles["p99.9"], 119.9);
    close(m(p, MetricKey::E2eMs).p99, 2900.0);
    assert!(
        m(p, MetricKey::TpotOverAllTokensMs)
            .definition
            .contains("includes the time to first token")
    );
    assert_eq!(imp.requests.len(), 2);
    assert_eq!(imp.requests[1].error.as_deref(), Some("HTTP 500"));
    assert_eq!(imp.requests[1].start_s, Some(1.0));
    close(imp.requests[0].e2e_ms, 2400.0);
    assert!(
        imp.warnings.iter().any(|w| w
            == "benchmarks.json benchmarks[0]: the report keeps per-request samples of 2 of its 4 requests; statistics are the tool's own, over all 4 requests"),
        "{:?}",
        imp.warnings
    );

    // A report that keeps no request at all says so plainly (not "a sample of 0").
    let start = doc.find("\"requests\": {").unwrap();
    let end = start + doc[start..].find("\"total\": null}").unwrap() + "\"total\": null}".len();
    let bare = format!(
        "{}\"requests\": {{\"successful\": [], \"errored\": [], \"incomplete\": [], \"total\": null}}{}",
        &doc[..start],
        &doc[end..]
    );
    let imp = import("benchmarks.json", bare.as_bytes()).unwrap();
    assert!(imp.requests.is_empty());
    assert!(
        imp.warnings.iter().any(|w| w
            == "benchmarks.json benchmarks[0]: the report keeps no per-request samples; statistics are the tool's own, over all 4 requests"),
        "{:?}",
        imp.warnings
    );
    assert!(imp.warnings.iter().all(|w| !w.contains("sample of 0")));
}

// ---------------------------------------------------------------------------------------------
// GenAI-Perf (no real sample available: files written from the exporter's documented shape)

#[test]
fn genai_perf_json() {
    let doc = r#"{
      "request_throughput": {"unit": "requests/sec", "avg": 12.5},
      "request_latency": {"unit": "ms", "avg": 1500.0, "p25": 1400.0, "p50": 1490.0, "p75": 1600.0,
                          "p90": 1700.0, "p95": 1750.0, "p99": 1900.0, "min": 1200.0, "max": 2000.0, "std": 120.0},
      "time_to_first_token": {"unit": "ms", "avg": 45.0, "p50": 40.0, "p99": 90.0, "min": 30.0, "max": 95.0},
      "inter_token_latency": {"unit": "ms", "avg": 14.5, "p50": 14.0, "p99": 20.0},
      "output_token_throughput": {"unit": "tokens/sec", "avg": 1250.0},
      "output_token_throughput_per_user": {"unit": "tokens/sec/user", "avg": 68.9, "p50": 71.4},
      "output_sequence_length": {"unit": "tokens", "avg": 100.0, "p50": 100.0},
      "input_sequence_length": {"unit": "tokens", "avg": 200.0, "p50": 200.0},
      "request_count": {"unit": "count", "avg": 250},
      "input_config": {"model": ["meta-llama/Llama-3.1-8B-Instruct"], "concurrency": 8, "request_rate": null,
                       "synthetic_input_tokens_mean": 200, "output_tokens_mean": 100,
                       "endpoint_type": "chat", "streaming": true, "profile_export_file": "artifacts/profile_export.json"}
    }"#;
    assert_eq!(
        detect("profile_export_genai_perf.json", doc.as_bytes()).unwrap(),
        Format::GenaiPerfJson
    );
    let imp = import("profile_export_genai_perf.json", doc.as_bytes()).unwrap();
    assert_eq!(imp.tool, "genai-perf");
    layout_has_german(&imp);
    let p = &imp.points[0];
    assert_eq!(p.model.as_deref(), Some("meta-llama/Llama-3.1-8B-Instruct"));
    assert_eq!(p.concurrency, Some(8.0));
    assert_eq!(p.request_rate, None);
    assert_eq!(p.scenario, "input 200 / output 100 tokens");
    assert_eq!(p.completed, Some(250));
    assert_eq!(p.request_throughput, Some(12.5));
    assert_eq!(p.output_tokens_per_s, Some(1250.0));
    assert_eq!(p.output_tokens_per_s_per_user, Some(68.9));
    assert_eq!(m(p, MetricKey::E2eMs).p99, Some(1900.0));
    assert_eq!(m(p, MetricKey::E2eMs).percentiles["p25"], 1400.0);
    assert_eq!(m(p, MetricKey::E2eMs).std_kind, None);
    let tpot = m(p, MetricKey::TpotMs);
    assert_eq!(tpot.mean, Some(14.5));
    assert!(tpot.definition.contains("GenAI-Perf `inter_token_latency`"));
    assert_eq!(p.settings["input_config.endpoint_type"], "chat");
}

/// A GenAI-Perf run with `streaming: false` in its input config (written from the exporter's
/// documented shape; no real non-streaming export was found): its `time_to_first_token` is the
/// whole request (equal to `request_latency` here) and `inter_token_latency` is 0, so neither
/// may stand as TTFT or TPOT. Both are kept under settings, E2E stays, and a note says why.
pub(crate) const GENAI_PERF_NON_STREAMING: &str = r#"{
  "request_throughput": {"unit": "requests/sec", "avg": 3.2},
  "request_latency": {"unit": "ms", "avg": 2480.5, "p50": 2470.25, "p90": 2600.0, "p95": 2650.0, "p99": 2710.75, "min": 2300.0, "max": 2750.0, "std": 80.5},
  "time_to_first_token": {"unit": "ms", "avg": 2480.5, "p50": 2470.25, "p99": 2710.75, "min": 2300.0, "max": 2750.0},
  "inter_token_latency": {"unit": "ms", "avg": 0.0, "p50": 0.0, "p99": 0.0},
  "output_token_throughput": {"unit": "tokens/sec", "avg": 409.6},
  "output_sequence_length": {"unit": "tokens", "avg": 128.0, "p50": 128.0},
  "input_sequence_length": {"unit": "tokens", "avg": 512.0, "p50": 512.0},
  "request_count": {"unit": "count", "avg": 96},
  "input_config": {"model": ["meta-llama/Llama-3.1-8B-Instruct"], "concurrency": 8,
                   "synthetic_input_tokens_mean": 512, "output_tokens_mean": 128,
                   "endpoint_type": "chat", "streaming": false}
}"#;

#[test]
fn genai_perf_non_streaming_run_is_flagged_and_its_ttft_set_aside() {
    let imp = import(
        "profile_export_genai_perf.json",
        GENAI_PERF_NON_STREAMING.as_bytes(),
    )
    .unwrap();
    let p = &imp.points[0];
    assert_eq!(p.settings["streaming"], "false");
    assert_eq!(p.settings["input_config.streaming"], "false");
    assert!(
        p.metric(MetricKey::TtftMs).is_none(),
        "TTFT is the whole request"
    );
    assert!(
        p.metric(MetricKey::TpotMs).is_none(),
        "TPOT 0 ms is no TPOT"
    );
    assert_eq!(
        p.settings["non_streaming.time_to_first_token"],
        "avg 2480.5 ms, p50 2470.25 ms, p99 2710.75 ms, min 2300 ms, max 2750 ms"
    );
    assert_eq!(
        p.settings["non_streaming.inter_token_latency"],
        "avg 0 ms, p50 0 ms, p99 0 ms"
    );
    let e2e = m(p, MetricKey::E2eMs);
    assert_eq!((e2e.mean, e2e.p99), (Some(2480.5), Some(2710.75)));
    assert_eq!(p.completed, Some(96));
    assert_eq!(
        imp.warnings,
        vec![
            "profile_export_genai_perf.json: non-streaming run (streaming: false): TTFT is the whole request; it grades no TTFT mark. The file's `time_to_first_token`, `inter_token_latency` are kept under settings non_streaming.*, not as TTFT, TTST, TPOT or ITL; the whole request is E2E"
                .to_string()
        ]
    );
    // A streaming run is untouched.
    let streaming = GENAI_PERF_NON_STREAMING.replace("\"streaming\": false", "\"streaming\": true");
    let imp = import("profile_export_genai_perf.json", streaming.as_bytes()).unwrap();
    assert_eq!(m(&imp.points[0], MetricKey::TtftMs).mean, Some(2480.5));
    assert!(!imp.points[0].settings.contains_key("streaming"));
    assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
}

/// The same flag from AIPerf's `input_config.endpoint.streaming`, on the real akamaslabs run
/// with that one value switched to false: the tool's TTFT figures move to settings.
#[test]
fn aiperf_non_streaming_endpoint_is_flagged() {
    let rel = "akamaslabs-aiperf-sweep/concurrency_16/profile_export_aiperf.json";
    let real = load(rel);
    let ttft = m(&real.points[0], MetricKey::TtftMs).clone();
    let bytes = replace_once(&read(rel), "\"streaming\": true", "\"streaming\": false");
    let imp = import("profile_export_aiperf.json", &bytes).unwrap();
    let p = &imp.points[0];
    assert_eq!(p.settings["streaming"], "false");
    assert_eq!(p.settings["endpoint.streaming"], "false");
    assert!(p.metric(MetricKey::TtftMs).is_none());
    assert!(p.metric(MetricKey::TpotMs).is_none());
    let kept = &p.settings[&format!("non_streaming.{}", ttft.source)];
    assert!(
        kept.starts_with(&format!("avg {} ms, ", ttft.mean.unwrap())),
        "{kept}"
    );
    assert!(
        kept.contains(&format!("p99 {} ms", ttft.p99.unwrap())),
        "{kept}"
    );
    assert!(p.metric(MetricKey::E2eMs).is_some());
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("non-streaming run (streaming: false): TTFT is the whole request; it grades no TTFT mark")),
        "{:?}",
        imp.warnings
    );
}

#[test]
fn genai_perf_csv_with_thousands_separators() {
    let csv = "Metric,avg,min,max,p99,p95,p90,p75,p50,p25\r\n\
Time To First Token (ms),45.00,30.00,95.00,90.00,80.00,70.00,50.00,40.00,35.00\r\n\
Inter Token Latency (ms),14.50,10.00,25.00,20.00,19.00,18.00,15.00,14.00,13.00\r\n\
Request Latency (ms),\"1,500.00\",\"1,200.00\",\"2,000.00\",\"1,900.00\",\"1,750.00\",\"1,700.00\",\"1,600.00\",\"1,490.00\",\"1,400.00\"\r\n\
Output Sequence Length,100.00,90.00,110.00,110.00,108.00,105.00,102.00,100.00,98.00\r\n\
Input Sequence Length,200.00,200.00,200.00,200.00,200.00,200.00,200.00,200.00,200.00\r\n\
\r\n\
Metric,Value\r\n\
Output Token Throughput (per sec),\"1,250.00\"\r\n\
Request Throughput (per sec),12.50\r\n";
    assert_eq!(
        detect("profile_export_genai_perf.csv", csv.as_bytes()).unwrap(),
        Format::GenaiPerfCsv
    );
    let imp = import("profile_export_genai_perf.csv", csv.as_bytes()).unwrap();
    assert_eq!(imp.format, Format::GenaiPerfCsv);
    layout_has_german(&imp);
    let p = &imp.points[0];
    assert_eq!(m(p, MetricKey::E2eMs).mean, Some(1500.0));
    assert_eq!(m(p, MetricKey::E2eMs).p99, Some(1900.0));
    assert_eq!(m(p, MetricKey::TtftMs).p50, Some(40.0));
    assert_eq!(m(p, MetricKey::TpotMs).p90, Some(18.0));
    assert_eq!(m(p, MetricKey::OutputTokens).mean, Some(100.0));
    assert_eq!(p.output_tokens_per_s, Some(1250.0));
    assert_eq!(p.request_throughput, Some(12.5));
    assert_eq!(p.scenario, "observed mean input 200 / output 100 tokens");
}

/// guidellm's YAML report (`benchmarks.yaml`, v0.2/0.3) is read with the JSON report's code:
/// the file is guidellm's own test asset, next to its JSON twin from the same run.
#[test]
fn guidellm_yaml_report_reads_like_the_json_report() {
    let yaml = load("guidellm-repo-tests/benchmarks_stripped.yaml");
    assert_eq!(yaml.format, Format::GuidellmJson);
    assert!(yaml.layout.contains("YAML report"), "{}", yaml.layout);
    assert!(yaml.layout.contains("v0.2/v0.3"), "{}", yaml.layout);
    assert_eq!(yaml.points.len(), 1);
    let p = &yaml.points[0];
    assert_eq!(p.model.as_deref(), Some("example_model"));
    assert_eq!(p.scenario, "prompt_tokens=256,output_tokens=128");
    let ttft = m(p, MetricKey::TtftMs);
    assert_eq!(ttft.mean, Some(16.792535781860348));
    assert_eq!(ttft.p50, Some(16.38054847717285));
    assert_eq!(ttft.p90, Some(18.505334854125977));
    assert_eq!(ttft.p99, Some(21.281957626342773));
    assert_eq!(ttft.std, Some(1.1303385708366516));
    assert_eq!(ttft.count, Some(46));
    let e2e = m(p, MetricKey::E2eMs);
    close(e2e.mean, 0.6444743664368339 * 1000.0);
    close(e2e.p99, 0.6891846656799316 * 1000.0);
    assert_eq!(
        m(p, MetricKey::TpotOverAllTokensMs).mean,
        Some(4.90300272307966)
    );

    // The JSON twin (same run, stripped separately by guidellm's authors): same statistics.
    let json = load("guidellm-repo-tests/benchmarks_stripped.json");
    assert_eq!(json.points.len(), 1);
    assert_eq!(json.points[0].metrics, p.metrics);
    assert_eq!(json.points[0].scenario, p.scenario);
    assert_eq!(json.points[0].concurrency, p.concurrency);
    assert_eq!(json.points[0].request_rate, p.request_rate);

    // A broken YAML report names the line.
    let text = String::from_utf8(read("guidellm-repo-tests/benchmarks_stripped.yaml")).unwrap();
    let bad = text.replacen("    strategy_index: 0", "    strategy_index: &anchor 0", 1);
    let e = err("benchmarks.yaml", bad.as_bytes());
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.line, Some(23));
    assert!(e.message.contains("anchors"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Detection and rejection

#[test]
fn detection_of_every_fixture() {
    let cases = [
        (
            "er0080-vllm-benchmarking/bench_serve_v0.25.1.json",
            Format::VllmBench,
        ),
        (
            "er0080-vllm-benchmarking/bench_serve_all_requests_failed_v0.25.1.json",
            Format::VllmBench,
        ),
        (
            "nerdalert-vllm-benchmark-graphs/results.json",
            Format::VllmBenchJsonLines,
        ),
        (
            "nerdalert-vllm-bench-automation/results.json",
            Format::VllmBenchJsonLines,
        ),
        (
            "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json",
            Format::VllmBench,
        ),
        (VLLM_STATS_ONLY, Format::VllmBench),
        (
            "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/summary.json",
            Format::VllmSweepSummary,
        ),
        (
            "aiperf-examples-run1/profile_export_aiperf.json",
            Format::AiperfJson,
        ),
        (
            "aiperf-examples-run1/profile_export_aiperf.csv",
            Format::AiperfCsv,
        ),
        (
            "aiperf-examples-run1/profile_export.head12.jsonl",
            Format::AiperfJsonl,
        ),
        (
            "aiperf-dev-smoke-100k/profile_export_aiperf.json",
            Format::AiperfJson,
        ),
        (
            "akamaslabs-aiperf-sweep/concurrency_768/profile_export_aiperf.json",
            Format::AiperfJson,
        ),
        ("graz-dev-guidellm/benchmarks.json", Format::GuidellmJson),
        (
            "guidellm-repo-tests/benchmarks_stripped.yaml",
            Format::GuidellmJson,
        ),
    ];
    for (rel, expected) in cases {
        // Names are irrelevant to detection: use a neutral one.
        assert_eq!(detect("upload", &read(rel)).unwrap(), expected, "{rel}");
    }
}

#[test]
fn non_load_test_fixtures_are_rejected_with_what_they_are() {
    let lm = err(
        "results.json",
        &read("akamaslabs-lmeval/results_2026-10-08T12-45-17.743940.json"),
    );
    assert_eq!(lm.kind, ErrorKind::UnknownFormat);
    assert!(lm.message.contains("lm-evaluation-harness"), "{lm}");
    let litellm = err(
        "payload.json",
        &read("litellm/standard_logging_payload.from_gcs_test.json"),
    );
    assert_eq!(litellm.kind, ErrorKind::UnknownFormat);
    assert!(litellm.message.contains("LiteLLM"), "{litellm}");
    let prom = err(
        "metrics.txt",
        &read("er0080-vllm-benchmarking/metrics_vllm_0_25_1_idle.txt"),
    );
    assert_eq!(prom.kind, ErrorKind::UnknownFormat);
    assert!(prom.message.contains("Prometheus"), "{prom}");
    assert!(
        prom.to_string()
            .starts_with("metrics.txt: unrecognised format"),
        "{prom}"
    );
}

#[test]
fn unknown_and_empty_inputs() {
    let e = err("x.json", b"");
    assert_eq!(e.kind, ErrorKind::Empty);
    assert_eq!(e.to_string(), "x.json: the file is empty");
    assert_eq!(err("x.json", b" \r\n\n").kind, ErrorKind::Empty);
    assert_eq!(err("x.txt", b"hello world").kind, ErrorKind::UnknownFormat);
    let e = err("x.json", br#"{"foo": 1}"#);
    assert_eq!(e.kind, ErrorKind::UnknownFormat);
    assert!(e.message.contains("supported:"), "{e}");
    assert_eq!(err("x.json", b"[]").kind, ErrorKind::UnknownFormat);
    assert_eq!(err("x.json", b"[1, 2]").kind, ErrorKind::UnknownFormat);
    assert_eq!(
        err("x.csv", b"Metric,foo,bar\n1,2,3\n").kind,
        ErrorKind::UnknownFormat
    );
    assert_eq!(
        err("x.bin", &[0xff, 0xfe, 0x00, 0x01]).kind,
        ErrorKind::UnknownFormat
    );
    assert_eq!(
        import_reader("x.jsonl", &b""[..], &ImportOptions::default())
            .unwrap_err()
            .kind,
        ErrorKind::Empty
    );
}

// ---------------------------------------------------------------------------------------------
// Malformed variants of real files

#[test]
fn truncated_json_names_the_position() {
    let bytes = read("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let e = err("bench.json", &bytes[..300]);
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.line.is_some());
    assert!(
        e.message
            .starts_with("the file ends mid-document (cut off?): invalid JSON at column"),
        "{e}"
    );
    let guide = read("graz-dev-guidellm/benchmarks.json");
    let e = err("benchmarks.json", &guide[..guide.len() / 2]);
    assert_eq!(e.kind, ErrorKind::Syntax);
}

#[test]
fn wrong_type_names_the_field() {
    let bytes = read("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let bad = replace_once(
        &bytes,
        "\"mean_ttft_ms\": 215.53594200008774",
        "\"mean_ttft_ms\": \"abc\"",
    );
    let e = err("bench.json", &bad);
    assert_eq!(e.kind, ErrorKind::WrongType);
    assert_eq!(
        e.to_string(),
        "bench.json: field \"mean_ttft_ms\": expected a number, found \"abc\""
    );
    let bad = replace_once(&bytes, "\"completed\": 8", "\"completed\": -8");
    assert_eq!(err("bench.json", &bad).kind, ErrorKind::InvalidValue);
    let bad = replace_once(
        &bytes,
        "\"request_rate\": \"inf\"",
        "\"request_rate\": \"fast\"",
    );
    assert_eq!(
        err("bench.json", &bad).to_string(),
        "bench.json: field \"request_rate\": expected a number or \"inf\", found \"fast\""
    );
}

#[test]
fn missing_required_field_is_named() {
    // A vLLM result without `completed` is read (older benchmark_serving.py results), with a
    // note naming the key; see `vllm_stats_only_result_is_read_with_a_note`.
    let bytes = read("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let trimmed = replace_once(&bytes, "\"completed\": 8,", "");
    let imp = import("bench.json", &trimmed).unwrap();
    assert_eq!(imp.points[0].completed, None);
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("the result has no `completed`")),
        "{:?}",
        imp.warnings
    );

    let aiperf = read("akamaslabs-aiperf-sweep/concurrency_16/profile_export_aiperf.json");
    let text = String::from_utf8(aiperf).unwrap();
    let start = text.find("\"request_count\": {").unwrap();
    let end = start + text[start..].find('}').unwrap() + 2;
    let bad = format!("{}{}", &text[..start], &text[end..]);
    let e = err("profile_export_aiperf.json", bad.as_bytes());
    assert_eq!(e.kind, ErrorKind::MissingField);
    assert_eq!(e.field.as_deref(), Some("request_count"));
}

#[test]
fn json_lines_errors_name_the_line() {
    let bytes = read("nerdalert-vllm-benchmark-graphs/results.json");
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = lines[2].replacen(
        "\"mean_ttft_ms\": 88.14482067061665",
        "\"mean_ttft_ms\": \"abc\"",
        1,
    );
    let e = err("results.json", lines.join("\n").as_bytes());
    assert_eq!(
        e.to_string(),
        "results.json line 3: field \"mean_ttft_ms\": expected a number, found \"abc\""
    );
    // A truncated line in the middle.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[4].truncate(100);
    let e = err("results.json", lines.join("\n").as_bytes());
    assert_eq!((e.kind, e.line), (ErrorKind::Syntax, Some(5)));
}

#[test]
fn aiperf_jsonl_errors_name_line_and_field() {
    let bytes = read("aiperf-examples-run1/profile_export.head12.jsonl");
    let bad = replace_once(
        &bytes,
        "\"ttft\":{\"value\":1680.543782",
        "\"ttft\":{\"value\":\"abc\"",
    );
    let e = err("profile_export.jsonl", &bad);
    assert_eq!(
        e.to_string(),
        "profile_export.jsonl line 12: field \"metrics.ttft.value\": expected a number, found \"abc\""
    );
    let bad = replace_once(&bytes, "[134.440792,141.307763", "[134.440792,null");
    let e = err("profile_export.jsonl", &bad);
    assert_eq!(
        e.field.as_deref(),
        Some("metrics.inter_chunk_latency.value[1]")
    );
    assert_eq!(e.line, Some(12));
    // Truncated last line (a file cut during copy).
    let e = err("profile_export.jsonl", &bytes[..bytes.len() - 50]);
    assert_eq!((e.kind, e.line), (ErrorKind::Syntax, Some(12)));
    // A record with neither metrics nor error.
    let e = err("p.jsonl", b"{\"metadata\": {\"x_request_id\": \"a\"}, \"error\": null}\n{\"metadata\": {}, \"metrics\": null}\n");
    assert_eq!(e.kind, ErrorKind::MissingField);
    // Streaming reports the same.
    let bad = replace_once(
        &bytes,
        "\"ttft\":{\"value\":1680.543782",
        "\"ttft\":{\"value\":\"abc\"",
    );
    let e = import_reader("profile_export.jsonl", &bad[..], &ImportOptions::default()).unwrap_err();
    assert_eq!(e.line, Some(12));
}

#[test]
fn csv_errors_name_line_and_cell() {
    let bytes = read("aiperf-examples-run1/profile_export_aiperf.csv");
    let bad = replace_once(&bytes, "3796.93,3825.28,3833.39", "3796.93,3825.28,abc");
    let e = err("profile_export_aiperf.csv", &bad);
    assert_eq!(
        e.to_string(),
        "profile_export_aiperf.csv line 10: field \"Time to First Token (ms).p99\": expected a number, found \"abc\""
    );
}

#[test]
fn guidellm_errors_name_the_path() {
    let bytes = read("graz-dev-guidellm/benchmarks.json");
    let bad = replace_once(&bytes, "\"mean\": 60957.415367126465", "\"mean\": \"slow\"");
    let e = err("benchmarks.json", &bad);
    assert_eq!(e.kind, ErrorKind::WrongType);
    assert_eq!(
        e.field.as_deref(),
        Some("benchmarks[0].metrics.time_to_first_token_ms.successful.mean")
    );
    let e = err("benchmarks.json", br#"{"benchmarks": []}"#);
    assert_eq!(e.kind, ErrorKind::InvalidValue);
}

#[test]
fn detailed_arrays_of_different_lengths_are_rejected() {
    let doc = r#"{"completed":2,"duration":1.0,"num_prompts":2,"mean_ttft_ms":1.0,
        "ttfts":[0.1,0.2],"output_lens":[3],"input_lens":[1,1]}"#;
    let e = err("d.json", doc.as_bytes());
    assert_eq!(e.kind, ErrorKind::InvalidValue);
    assert_eq!(e.field.as_deref(), Some("output_lens"));
    assert!(e.message.contains("has 1 entries"), "{e}");
}

#[test]
fn folder_rules() {
    let mut files = folder("akamaslabs-aiperf-sweep");
    files.push(("notes.txt".to_string(), b"ran on Tuesday".to_vec()));
    let imp = import_sweep(&files).unwrap();
    assert_eq!(imp.points.len(), 3);
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.starts_with("notes.txt: skipped"))
    );
    files.push((
        "vllm/run=0.json".to_string(),
        read("er0080-vllm-benchmarking/bench_serve_v0.25.1.json"),
    ));
    let e = import_sweep(&files).unwrap_err();
    assert!(e.message.contains("mixes results"), "{e}");
    assert_eq!(import_sweep(&[]).unwrap_err().kind, ErrorKind::Empty);
    let only_notes = vec![("a.txt".to_string(), b"x".to_vec())];
    assert_eq!(
        import_sweep(&only_notes).unwrap_err().kind,
        ErrorKind::UnknownFormat
    );
    // A broken result fails the folder: a silently missing point would misstate capacity.
    let mut broken = folder("akamaslabs-aiperf-sweep");
    broken[0].1.truncate(500);
    assert_eq!(import_sweep(&broken).unwrap_err().kind, ErrorKind::Syntax);
}

// ---------------------------------------------------------------------------------------------
// Serialisation contract of the REST API

#[test]
fn serialised_names_are_the_api_vocabulary() {
    let imp = load("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let json = serde_json::to_value(&imp).unwrap();
    assert_eq!(json["format"], "vllm_bench");
    let p = &json["points"][0];
    for key in [
        "scenario",
        "concurrency",
        "request_rate",
        "completed",
        "failed",
        "output_tokens_per_s",
        "metrics",
    ] {
        assert!(p.get(key).is_some(), "point lacks {key}");
    }
    assert_eq!(p["concurrency"], 2.0);
    assert_eq!(p["request_rate"], serde_json::Value::Null);
    let ttft = &p["metrics"]["ttft_ms"];
    assert_eq!(ttft["mean"], 215.53594200008774);
    assert_eq!(ttft["p50"], 55.68139649994919);
    assert_eq!(ttft["p99"], 734.4049174101428);
    assert_eq!(ttft["unit"], "ms");
    assert!(
        ttft["definition"]
            .as_str()
            .unwrap()
            .contains("first streamed chunk")
    );
    assert!(p["metrics"].get("tpot_ms").is_some() && p["metrics"].get("itl_ms").is_some());
    let back: Import = serde_json::from_value(json).unwrap();
    assert_eq!(back, imp);

    let guide = load("graz-dev-guidellm/benchmarks.json");
    let json = serde_json::to_value(&guide.points[0]).unwrap();
    assert_eq!(
        json["metrics"]["ttft_ms"]["percentiles"]["p99.9"],
        104042.86813735962
    );
    let back: OperatingPoint = serde_json::from_value(json).unwrap();
    assert_eq!(back, guide.points[0]);
    assert_eq!(
        serde_json::to_string(&MetricKey::E2eMs).unwrap(),
        "\"e2e_ms\""
    );
    assert_eq!(MetricKey::ALL.len(), 11);
    assert!(Format::ALL.iter().all(|f| !f.label().is_empty()));
}

// ---------------------------------------------------------------------------------------------
// Tolerance for what the tools really write

#[test]
fn python_nan_and_infinity_are_read_as_missing() {
    let bytes = read("er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
    let bad = replace_once(
        &bytes,
        "\"std_ttft_ms\": 292.06819504885306",
        "\"std_ttft_ms\": NaN",
    );
    let imp = import("bench.json", &bad).unwrap();
    let ttft = m(&imp.points[0], MetricKey::TtftMs);
    assert_eq!(ttft.std, None);
    assert_eq!(ttft.mean, Some(215.53594200008774));
    assert!(
        imp.warnings[0].contains("NaN/Infinity"),
        "{:?}",
        imp.warnings
    );
    assert_eq!(detect("bench.json", &bad).unwrap(), Format::VllmBench);
    let bad = replace_once(
        &bytes,
        "\"request_rate\": \"inf\"",
        "\"request_rate\": Infinity",
    );
    assert_eq!(
        import("bench.json", &bad).unwrap().points[0].request_rate,
        None
    );

    let lines = read("nerdalert-vllm-benchmark-graphs/results.json");
    let bad = replace_once(
        &lines,
        "\"std_ttft_ms\": 17.205090521660775",
        "\"std_ttft_ms\": NaN",
    );
    let imp = import("results.json", &bad).unwrap();
    assert_eq!(m(&imp.points[1], MetricKey::TtftMs).std, None);
    assert!(imp.warnings.iter().any(|w| w.contains("NaN/Infinity")));

    let jsonl = read("aiperf-examples-run1/profile_export.head12.jsonl");
    let bad = replace_once(
        &jsonl,
        "\"inter_token_latency\":{\"value\":32.585544203124996",
        "\"inter_token_latency\":{\"value\":NaN",
    );
    let imp = import("profile_export.jsonl", &bad).unwrap();
    // TPOT then falls back to (E2E − TTFT) ÷ (OSL − 1).
    close(
        imp.requests[11].tpot_ms,
        (7936.968269 - 1680.543782) / 192.0,
    );
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("NaN/Infinity") && w.contains("(1 lines)"))
    );
}

#[test]
fn aiperf_summary_without_successes() {
    let doc = r#"{"schema_version": "1.3", "aiperf_version": "0.11.0",
        "error_request_count": {"unit": "requests", "avg": 50.0},
        "benchmark_duration": {"unit": "sec", "avg": 3.0},
        "error_summary": [{"error_details": {"code": 503, "type": "HTTPError", "message": "Service Unavailable"}, "count": 50}],
        "input_config": {"phases": [{"name": "profiling", "type": "concurrency", "concurrency": 8}]}}"#;
    let imp = import("profile_export_aiperf.json", doc.as_bytes()).unwrap();
    let p = &imp.points[0];
    assert_eq!((p.completed, p.failed), (Some(0), Some(50)));
    assert!(p.metrics.is_empty());
    assert_eq!(p.settings["errors"], "HTTPError ×50");
    assert!(
        imp.warnings
            .iter()
            .any(|w| w.contains("no request succeeded"))
    );
}

#[test]
fn reader_import_of_summaries_matches_byte_import() {
    for rel in [
        "er0080-vllm-benchmarking/bench_serve_all_requests_failed_v0.25.1.json",
        "nerdalert-vllm-bench-automation/results.json",
        "aiperf-examples-run1/profile_export_aiperf.csv",
        "aiperf-dev-smoke-100k/profile_export_aiperf.json",
    ] {
        let bytes = read(rel);
        let a = import("f", &bytes).unwrap();
        let b = import_reader("f", &bytes[..], &ImportOptions::default()).unwrap();
        assert_eq!(a, b, "{rel}");
    }
}

// ---------------------------------------------------------------------------------------------
// Cut-off files (issue #13): every prefix of every fixture either fails, naming a line and
// saying the file was cut off when the cut falls inside a record, or (cut exactly at a line
// end) reads as the leading part of the whole file. Never a panic, never silently less data
// from a record cut in two.

/// About `n` cut positions spread over `len`, each also moved back to just after the line end
/// before it (cuts at record boundaries are the ones a reader could mistake for a whole file).
fn cut_points(bytes: &[u8], n: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    for k in 0..n {
        let cut = 1 + k * (bytes.len() - 1) / n;
        cuts.push(cut);
        if let Some(nl) = bytes[..cut].iter().rposition(|&b| b == b'\n') {
            cuts.push(nl + 1);
        }
    }
    cuts.push(bytes.len() - 1);
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// The cut falls at a line end (just after it, or with only blanks before it): it ends a whole
/// record of a line-based file.
fn ends_a_line(bytes: &[u8], cut: usize) -> bool {
    bytes[..cut].ends_with(b"\n")
        || bytes[cut..]
            .iter()
            .take_while(|&&b| b != b'\n')
            .all(u8::is_ascii_whitespace)
}

fn check_prefixes(rel: &str, cuts: usize) {
    let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
    let bytes = read(rel);
    let whole = import(name, &bytes).unwrap();
    for cut in cut_points(&bytes, cuts) {
        let prefix = &bytes[..cut];
        let first_line = !prefix.contains(&b'\n');
        match import(name, prefix) {
            Err(e) => {
                let expected_kind = matches!(e.kind, ErrorKind::Syntax)
                    || (first_line
                        && matches!(e.kind, ErrorKind::Empty | ErrorKind::UnknownFormat));
                if !ends_a_line(&bytes, cut) && !first_line {
                    assert!(
                        e.message.contains("cut off") && e.line.is_some() && expected_kind,
                        "{rel} cut at {cut}: {e}"
                    );
                }
            }
            Ok(part) => {
                assert!(
                    ends_a_line(&bytes, cut),
                    "{rel} cut at {cut} mid-record imported"
                );
                match part.format {
                    Format::AiperfJsonl => {
                        // start times count from the earliest request read, so leave them out
                        let unstarted = |records: &[RequestRecord]| -> Vec<RequestRecord> {
                            records
                                .iter()
                                .map(|r| RequestRecord {
                                    start_s: None,
                                    ..r.clone()
                                })
                                .collect()
                        };
                        assert_eq!(
                            unstarted(&part.requests),
                            unstarted(&whole.requests[..part.requests.len()])
                        )
                    }
                    Format::AiperfCsv | Format::GenaiPerfCsv => {
                        for (key, stats) in &part.points[0].metrics {
                            assert_eq!(
                                Some(stats),
                                whole.points[0].metrics.get(key),
                                "{rel} {cut}"
                            );
                        }
                    }
                    _ => {
                        // A JSON Lines file cut after its first line reads as one JSON document:
                        // the same point, named by the file instead of its line.
                        let unnamed = |points: &[OperatingPoint]| -> Vec<OperatingPoint> {
                            points
                                .iter()
                                .map(|p| OperatingPoint {
                                    source: String::new(),
                                    ..p.clone()
                                })
                                .collect()
                        };
                        assert_eq!(
                            unnamed(&part.points),
                            unnamed(&whole.points[..part.points.len()]),
                            "{rel} cut at {cut}"
                        )
                    }
                }
            }
        }
    }
}

#[test]
fn every_prefix_of_every_load_test_fixture_fails_or_is_a_leading_part() {
    for rel in [
        "er0080-vllm-benchmarking/bench_serve_v0.25.1.json",
        "er0080-vllm-benchmarking/bench_serve_all_requests_failed_v0.25.1.json",
        "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/summary.json",
        "nerdalert-vllm-benchmark-graphs/results.json",
        "nerdalert-vllm-bench-automation/results.json",
        "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json",
        "aiperf-examples-run1/profile_export_aiperf.json",
        "aiperf-examples-run1/profile_export_aiperf.csv",
        "aiperf-examples-run1/profile_export.head12.jsonl",
        "aiperf-dev-smoke-100k/profile_export_aiperf.json",
        "akamaslabs-aiperf-sweep/concurrency_16/profile_export_aiperf.json",
    ] {
        check_prefixes(rel, 60);
    }
    check_prefixes("graz-dev-guidellm/benchmarks.json", 4);
}

#[test]
fn a_cut_off_summary_csv_says_so_with_its_line() {
    let bytes = read("aiperf-examples-run1/profile_export_aiperf.csv");
    let text = String::from_utf8(bytes).unwrap();
    // cut inside the third row: fewer cells than the header, and no line end
    let third = text.match_indices('\n').nth(1).unwrap().0 + 1;
    let e = err("profile_export_aiperf.csv", &text.as_bytes()[..third + 40]);
    assert_eq!(e.line, Some(3));
    assert_eq!(
        e.message,
        "the file ends mid-record (cut off?): the last row has no line end (AIPerf and \
         GenAI-Perf end every row with one), so its last value may be incomplete"
    );
    // cut at the blank row between the sections: the second section is missing
    let blank = text.find("\r\n\r\n").unwrap() + 2;
    let e = err("profile_export_aiperf.csv", &text.as_bytes()[..blank]);
    assert!(e.message.contains("`Metric,Value` section"), "{e}");
    // a short row in the middle is an error too
    let short = text.replacen(",550.00,550.00,550.00,550.00", "", 1);
    let e = err("profile_export_aiperf.csv", short.as_bytes());
    assert_eq!(e.line, Some(2));
    assert_eq!(
        e.message,
        "row has 9 cells but the section header has 13 (a cut-off or damaged row?)"
    );
}

#[test]
fn a_cut_off_json_lines_file_names_the_cut_line() {
    let bytes = read("nerdalert-vllm-benchmark-graphs/results.json");
    let third_line = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .unwrap()
        .0
        + 1;
    let e = err("results.json", &bytes[..third_line + 100]);
    assert_eq!(e.line, Some(3));
    assert!(
        e.message.starts_with(
            "the line ends mid-record (a file cut off, or a record broken over lines?)"
        ),
        "{e}"
    );
}

#[test]
fn percentile_names_outside_0_to_100_or_not_ascii_are_no_percentiles() {
    // "pé" once sliced a character in two; "p1e300" was a percentile of 10^300.
    let doc = r#"{"request_latency": {"unit": "ms", "avg": 1.0, "pé": 2.0, "p1e300": 3.0, "p99.9": 4.0},
                  "request_throughput": {"unit": "requests/sec", "avg": 1.0}}"#;
    let imp = import("profile_export_genai_perf.json", doc.as_bytes()).unwrap();
    let e2e = m(&imp.points[0], MetricKey::E2eMs);
    assert_eq!(e2e.percentiles.len(), 1);
    assert_eq!(e2e.percentile(99.9), Some(4.0));
}

// ---------------------------------------------------------------------------------------------
// Plausibility (crate::plausible): each real fixture with one impossible value is refused,
// naming the file, the line (line-based formats) and the field.

/// `rel`'s text with the first `from` replaced by `to` (which must be present).
fn with(rel: &str, from: &str, to: &str) -> String {
    let text = String::from_utf8(read(rel)).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    text.replacen(from, to, 1)
}

fn refused(name: &str, text: &str) -> IngestError {
    let err = import(name, text.as_bytes()).expect_err("an impossible value must be refused");
    assert_eq!(err.kind, ErrorKind::InvalidValue, "{err}");
    err
}

#[test]
fn vllm_bench_refuses_a_negative_and_an_absurd_ttft() {
    let rel = "er0080-vllm-benchmarking/bench_serve_v0.25.1.json";
    let err = refused(
        "results.json",
        &with(
            rel,
            "\"mean_ttft_ms\": 215.53594200008774",
            "\"mean_ttft_ms\": -12.5",
        ),
    );
    assert_eq!(
        err.to_string(),
        "results.json: field \"mean_ttft_ms\": -12.5 ms is not a possible latency (must be finite and ≥ 0)"
    );
    let err = refused(
        "results.json",
        &with(
            rel,
            "\"mean_ttft_ms\": 215.53594200008774",
            "\"mean_ttft_ms\": 1e308",
        ),
    );
    assert_eq!(
        err.to_string(),
        "results.json: field \"mean_ttft_ms\": 1e308 ms is not a possible latency (must be at most 1e9 ms ≈ 11.6 days)"
    );
}

#[test]
fn vllm_json_lines_name_the_line_of_an_impossible_value() {
    let rel = "nerdalert-vllm-benchmark-graphs/results.json";
    let text = String::from_utf8(read(rel)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = lines[2].replacen(
        "\"p99_ttft_ms\": 233.33655538037414",
        "\"p99_ttft_ms\": -12.5",
        1,
    );
    let err = refused("results.json", &(lines.join("\n") + "\n"));
    assert_eq!(err.line, Some(3));
    assert_eq!(err.field.as_deref(), Some("p99_ttft_ms"));
    assert!(err.to_string().starts_with(
        "results.json line 3: field \"p99_ttft_ms\": -12.5 ms is not a possible latency"
    ));
}

#[test]
fn vllm_per_request_arrays_and_throughputs_are_checked() {
    let rel = "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json";
    let err = refused(
        "run.json",
        &with(
            rel,
            "\"ttfts\": [0.06338946700270753",
            "\"ttfts\": [-0.0125",
        ),
    );
    assert_eq!(err.field.as_deref(), Some("ttfts[0]"));
    assert!(
        err.message.contains("-12.5 ms is not a possible latency"),
        "{err}"
    );
    let rel = "er0080-vllm-benchmarking/bench_serve_v0.25.1.json";
    let text = String::from_utf8(read(rel)).unwrap();
    let throughput = text
        .lines()
        .find(|l| l.contains("\"request_throughput\""))
        .unwrap()
        .trim()
        .trim_end_matches(',')
        .to_string();
    let err = refused(
        "results.json",
        &text.replacen(&throughput, "\"request_throughput\": -1", 1),
    );
    assert_eq!(
        err.to_string(),
        "results.json: field \"request_throughput\": -1 is not a possible rate (must be finite and ≥ 0)"
    );
    // A count beyond 2^53 is not a count a float can hold.
    let completed = text
        .lines()
        .find(|l| l.contains("\"completed\""))
        .unwrap()
        .trim()
        .trim_end_matches(',')
        .to_string();
    let err = refused(
        "results.json",
        &text.replacen(&completed, "\"completed\": 1e300", 1),
    );
    assert_eq!(err.field.as_deref(), Some("completed"));
    assert!(err.message.contains("at most 2^53"), "{err}");
}

#[test]
fn aiperf_json_refuses_an_absurd_latency_and_a_fraction_above_one() {
    let rel = "akamaslabs-aiperf-sweep/concurrency_16/profile_export_aiperf.json";
    let doc: serde_json::Value = serde_json::from_slice(&read(rel)).unwrap();
    let mut bad = doc.clone();
    bad["time_to_first_token"]["avg"] = serde_json::json!(1e308);
    let err = refused(
        "profile_export_aiperf.json",
        &serde_json::to_string(&bad).unwrap(),
    );
    assert_eq!(
        err.to_string(),
        "profile_export_aiperf.json: field \"time_to_first_token.avg\": 1e308 ms is not a possible latency (must be at most 1e9 ms ≈ 11.6 days)"
    );
    let mut bad = doc.clone();
    bad["good_request_fraction"]["avg"] = serde_json::json!(7.5);
    let err = refused(
        "profile_export_aiperf.json",
        &serde_json::to_string(&bad).unwrap(),
    );
    assert_eq!(
        err.to_string(),
        "profile_export_aiperf.json: field \"good_request_fraction.avg\": 7.5 is not a possible fraction (must be between 0 and 1)"
    );
    // A duration in seconds of 1e300 is refused in its own unit.
    let mut bad = doc;
    bad["benchmark_duration"]["avg"] = serde_json::json!(1e300);
    let err = refused(
        "profile_export_aiperf.json",
        &serde_json::to_string(&bad).unwrap(),
    );
    assert_eq!(err.field.as_deref(), Some("benchmark_duration.avg"));
    assert!(
        err.message.contains("1e300 s is not a possible duration"),
        "{err}"
    );
}

#[test]
fn aiperf_csv_names_the_line_and_cell() {
    let rel = "aiperf-examples-run1/profile_export_aiperf.csv";
    let err = refused(
        "profile_export_aiperf.csv",
        &with(
            rel,
            "Time to First Token (ms),2343.22",
            "Time to First Token (ms),-12.50",
        ),
    );
    assert_eq!(
        err.to_string(),
        "profile_export_aiperf.csv line 10: field \"Time to First Token (ms).avg\": -12.5 ms is not a possible latency (must be finite and ≥ 0)"
    );
    // `NaN` and `inf` parse as numbers in a CSV cell; they are not statistics.
    let err = refused(
        "profile_export_aiperf.csv",
        &with(
            rel,
            "Request Throughput (requests/sec),9.55",
            "Request Throughput (requests/sec),inf",
        ),
    );
    assert_eq!(
        err.field.as_deref(),
        Some("Request Throughput (requests/sec).avg")
    );
    assert!(
        err.message.starts_with("inf is not a possible rate"),
        "{err}"
    );
}

#[test]
fn aiperf_jsonl_names_the_record_line() {
    let rel = "aiperf-examples-run1/profile_export.head12.jsonl";
    let err = refused(
        "profile_export.jsonl",
        &with(
            rel,
            "\"ttft\":{\"value\":1680.543782,\"unit\":\"ms\"}",
            "\"ttft\":{\"value\":-12.5,\"unit\":\"ms\"}",
        ),
    );
    assert_eq!(err.line, Some(12));
    assert_eq!(
        err.to_string(),
        "profile_export.jsonl line 12: field \"metrics.ttft.value\": -12.5 ms is not a possible latency (must be finite and ≥ 0)"
    );
    let err = refused(
        "profile_export.jsonl",
        &with(
            rel,
            "\"input_sequence_length\":{\"value\":550,",
            "\"input_sequence_length\":{\"value\":-550,",
        ),
    );
    assert_eq!(err.line, Some(12));
    assert_eq!(
        err.field.as_deref(),
        Some("metrics.input_sequence_length.value")
    );
}

#[test]
fn guidellm_refuses_an_absurd_statistic_and_a_negative_request_latency() {
    let rel = "graz-dev-guidellm/benchmarks.json";
    let doc: serde_json::Value = serde_json::from_slice(&read(rel)).unwrap();
    let mut bad = doc.clone();
    bad["benchmarks"][0]["metrics"]["time_to_first_token_ms"]["successful"]["mean"] =
        serde_json::json!(1e308);
    let err = refused("benchmarks.json", &serde_json::to_string(&bad).unwrap());
    assert_eq!(
        err.field.as_deref(),
        Some("benchmarks[0].metrics.time_to_first_token_ms.successful.mean")
    );
    assert!(
        err.message
            .starts_with("1e308 ms is not a possible latency"),
        "{err}"
    );
    let mut bad = doc;
    bad["benchmarks"][0]["requests"]["successful"][0]["request_latency"] =
        serde_json::json!(-0.0125);
    let err = refused("benchmarks.json", &serde_json::to_string(&bad).unwrap());
    assert_eq!(
        err.field.as_deref(),
        Some("benchmarks[0].requests.successful[0].request_latency")
    );
    assert!(
        err.message
            .starts_with("-12.5 ms is not a possible latency"),
        "{err}"
    );
}

#[test]
fn genai_perf_refuses_a_negative_throughput() {
    let doc = r#"{
      "request_throughput": {"unit": "requests/sec", "avg": -12.5},
      "time_to_first_token": {"unit": "ms", "avg": 45.0, "p50": 40.0},
      "request_count": {"unit": "count", "avg": 250},
      "input_config": {"model": ["m"], "concurrency": 8}
    }"#;
    let err = refused("profile_export_genai_perf.json", doc);
    assert_eq!(
        err.to_string(),
        "profile_export_genai_perf.json: field \"request_throughput.avg\": -12.5 is not a possible rate (must be finite and ≥ 0)"
    );
}

#[test]
fn an_import_never_holds_a_non_finite_number() {
    // Every real fixture: all numbers finite, so the stored JSON reads back.
    for rel in [
        "er0080-vllm-benchmarking/bench_serve_v0.25.1.json",
        "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json",
        "aiperf-examples-run1/profile_export.head12.jsonl",
        "akamaslabs-aiperf-sweep/concurrency_768/profile_export_aiperf.json",
    ] {
        let imp = load(rel);
        let json = serde_json::to_string(&imp).unwrap();
        let back: Import = serde_json::from_str(&json).unwrap();
        assert_eq!(back, imp, "{rel}");
    }
}

/// AIPerf 0.13.0's sweep folder exactly as `aiperf profile --concurrency 1,2,4` wrote it
/// (`testdata/aiperf-0.13.0-sweep`, made by `testdata/tools/run_all.sh` through a real LiteLLM
/// proxy): per-run folders, `aggregate/concurrency_1/profile_export_aiperf_aggregate.json`
/// (shaped like a per-request record: `metadata` and `metrics`), `sweep_aggregate/`,
/// `inputs.json`, `run_config.json`. Before, the aggregate was taken for per-request records and
/// the whole folder refused as "the line ends mid-record".
#[test]
fn aiperf_0_13_sweep_folder_as_aiperf_writes_it() {
    let files = folder("aiperf-0.13.0-sweep");
    let imp = import_sweep(&files).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imp.format, Format::AiperfSweep);
    assert_eq!(imp.tool_version.as_deref(), Some("0.13.0"));
    let conc: Vec<Option<f64>> = imp.points.iter().map(|p| p.concurrency).collect();
    assert_eq!(conc, [Some(1.0), Some(2.0), Some(4.0)]);
    // The tool's own figures (profile_export_aiperf.json of each run), to the last digit.
    let ttft: Vec<(Option<f64>, Option<f64>)> = imp
        .points
        .iter()
        .map(|p| (m(p, MetricKey::TtftMs).mean, m(p, MetricKey::TtftMs).p99))
        .collect();
    assert_eq!(
        ttft,
        [
            (Some(76.254448), Some(89.17574221999999)),
            (Some(93.318497125), Some(125.92372712)),
            (Some(120.14467499999999), Some(153.96706978999998)),
        ]
    );
    assert_eq!(imp.points[1].request_throughput, Some(6.124233975072928));
    // AIPerf's inter_token_latency is a per-request TPOT; inter_chunk_latency the ITL.
    assert_eq!(m(&imp.points[2], MetricKey::TpotMs).p50, Some(36.0178315));
    assert_eq!(
        m(&imp.points[2], MetricKey::ItlMs).p50,
        Some(4.6423024999999996)
    );
    assert!(imp.points.iter().all(|p| p.completed == Some(8)));
    let skipped = |name: &str| imp.warnings.iter().any(|w| w.contains(name));
    assert!(
        skipped("profile_export_aiperf_aggregate.json") && skipped("profile_export_aiperf_sweep"),
        "{:#?}",
        imp.warnings
    );

    // Uploaded alone, the aggregate says what it is and what to upload instead.
    let agg = "aiperf-0.13.0-sweep/aggregate/concurrency_1/profile_export_aiperf_aggregate.json";
    let e = import("profile_export_aiperf_aggregate.json", &read(agg)).unwrap_err();
    assert!(
        e.to_string().contains("AIPerf aggregate over several runs"),
        "{e}"
    );
}

/// guidellm 0.8.1's `benchmarks.csv` (`testdata/guidellm-0.8.1-concurrent`, made by
/// `testdata/tools/run_all.sh`) is refused with what to import instead, and the JSON guidellm
/// wrote with it reads its figures exactly.
#[test]
fn guidellm_0_8_csv_points_to_its_json() {
    let e = import(
        "benchmarks.csv",
        &read("guidellm-0.8.1-concurrent/benchmarks.csv"),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("it is guidellm's benchmarks.csv, whose percentiles carry no labels"),
        "{e}"
    );
    let imp = load("guidellm-0.8.1-concurrent/benchmarks.json");
    assert_eq!(imp.format, Format::GuidellmJson);
    let conc: Vec<Option<f64>> = imp.points.iter().map(|p| p.concurrency).collect();
    assert_eq!(conc, [Some(1.0), Some(2.0), Some(4.0)]);
    // benchmarks.csv row 1 states the same run: TTFT mean 50.071924924850464 ms, median
    // 45.8836555480957 ms; Inter Token Latency mean 8.525519267372463 ms (guidellm's
    // inter_token_latency_ms is a per-request TPOT).
    let p = &imp.points[0];
    assert_eq!(m(p, MetricKey::TtftMs).mean, Some(50.071924924850464));
    assert_eq!(m(p, MetricKey::TtftMs).p50, Some(45.8836555480957));
    assert_eq!(m(p, MetricKey::TpotMs).mean, Some(8.525519267372463));
}

/// Every file and folder under `testdata/` that imports has a layout whose every piece reads
/// in German, and point sources whose `line` does (the page shows both translated, see
/// `words`); together with the small files above written for the formats without a real
/// sample (current guidellm, GenAI-Perf) this covers each phrase the importers write.
#[test]
fn every_fixture_layout_and_point_source_reads_in_german() {
    fn files_in(dir: &Path, out: &mut Vec<PathBuf>, dirs: &mut Vec<PathBuf>) {
        dirs.push(dir.to_path_buf());
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                files_in(&path, out, dirs);
            } else {
                out.push(path);
            }
        }
    }
    let root = fixtures();
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    files_in(&root, &mut files, &mut dirs);
    let mut imports = Vec::new();
    for path in &files {
        let name = path.strip_prefix(&root).unwrap().to_str().unwrap();
        if let Ok(imp) = import(name, &std::fs::read(path).unwrap()) {
            imports.push(imp);
        }
    }
    for dir in dirs.iter().skip(1) {
        let mut inside = Vec::new();
        files_in(dir, &mut inside, &mut Vec::new());
        let parts: Vec<(String, Vec<u8>)> = inside
            .iter()
            .map(|p| {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .replace('\\', "/");
                (rel, std::fs::read(p).unwrap())
            })
            .collect();
        if let Ok(imp) = import_sweep(&parts) {
            imports.push(imp);
        }
    }
    let mut pieces = std::collections::BTreeSet::new();
    let mut lines = 0;
    for imp in &imports {
        layout_has_german(imp);
        for part in imp.layout.split(super::words::PIECES) {
            pieces.extend(part.split(super::words::VARIANTS).map(str::to_string));
        }
        lines += imp
            .points
            .iter()
            .filter(|p| p.source.contains(" line "))
            .count();
    }
    // The fixtures hold these (a guard that the walk found them).
    for piece in [
        "summary",
        "per-request arrays (--save-detailed)",
        "2024 key names (latency, best_of)",
        "key “request_goodput:” with its colon (late 2024 to mid 2025)",
        "one result per line (--append-result)",
        "per-request records",
        "two-section summary CSV",
        "v0.2/v0.3 layout (args, run_stats)",
        "YAML report (benchmarks.yaml)",
        "early records layout (Oct 2025)",
        "per-request records, early metadata (timestamp_ns, credit_phase)",
        "sweep summary list",
        "flat layout, schema 1.0",
        "current report layout (version 2)",
        "folder of 12 result files",
    ] {
        assert!(pieces.contains(piece), "`{piece}` not among {pieces:?}");
    }
    assert!(lines > 0, "no point read from a line");
}
