//! The demo pilot's load-test evidence: the V100 benchmark report's published percentiles
//! (`shared/seeds/v100-qwen-benchmark-report.en.txt`: Qwen2.5-7B-Instruct, vLLM 0.8.5, TP 4 on
//! 4× Tesla V100-SXM2-16GB; three ShareGPT buckets × concurrency 1, 2, 4, 8; 30 measured
//! requests per cell, none failed) written as a `vllm bench serve` JSON Lines file, one result
//! object per cell, so it goes through the normal import path.
//!
//! The report publishes the summary percentiles, not a full table. Figures it states are used
//! as stated: long-prompt TTFT p50/p95/p99 95/116/121 ms (C=1), 240/281/309 ms (C=4),
//! 507/572/572 ms (C=8); short-prompt TTFT p95 73 ms (C=1) and 165 ms (C=8), p50 63 ms (C=1);
//! per-stream decode 34.5 → 30.9 tok/s (long prompt) and 38.4 → 33.1 tok/s (short prompt);
//! E2E p95 2.0 s → 2.6 s (long prompt) and 13.8 s → 16.5 s (short prompt). The cells it states
//! only as bounds ("p95 under 200 ms for all shapes at C ≤ 2", "under 100 ms for short prompts at
//! C ≤ 2", balanced "between the two") are filled in within those bounds, and E2E where not stated
//! is TTFT + output tokens × TPOT, the report's own consistency check. Every record says so in
//! its `pilotdesk_note`.

/// One cell of the report: scenario, concurrency, TTFT p50/p95/p99 (ms), per-stream decode
/// (tok/s), output tokens, stated E2E p95 (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DemoCell {
    pub scenario: &'static str,
    pub concurrency: u32,
    pub ttft: (f64, f64, f64),
    pub tokens_per_s: f64,
    pub output_tokens: u32,
    pub e2e_p95_stated: Option<f64>,
}

/// The scenario names (the report's buckets), in the report's order.
pub const SCENARIOS: [&str; 3] = [
    "ShareGPT long prompt → short answer",
    "ShareGPT balanced chat",
    "ShareGPT short prompt → long answer",
];

/// Requests measured per cell (after 5 warm-up requests).
pub const REQUESTS_PER_CELL: u32 = 30;

/// The twelve cells.
pub fn cells() -> Vec<DemoCell> {
    let cell =
        |s: usize, c: u32, ttft: (f64, f64, f64), tps: f64, out: u32, e2e: Option<f64>| DemoCell {
            scenario: SCENARIOS[s],
            concurrency: c,
            ttft,
            tokens_per_s: tps,
            output_tokens: out,
            e2e_p95_stated: e2e,
        };
    vec![
        cell(0, 1, (95.0, 116.0, 121.0), 34.5, 64, Some(2000.0)),
        cell(0, 2, (130.0, 170.0, 180.0), 33.5, 64, None),
        cell(0, 4, (240.0, 281.0, 309.0), 32.3, 64, None),
        cell(0, 8, (507.0, 572.0, 572.0), 30.9, 64, Some(2600.0)),
        cell(1, 1, (80.0, 94.0, 99.0), 36.5, 256, None),
        cell(1, 2, (100.0, 130.0, 140.0), 35.6, 256, None),
        cell(1, 4, (170.0, 210.0, 230.0), 34.2, 256, None),
        cell(1, 8, (300.0, 360.0, 380.0), 32.0, 256, None),
        cell(2, 1, (63.0, 73.0, 77.0), 38.4, 512, Some(13800.0)),
        cell(2, 2, (70.0, 85.0, 90.0), 37.6, 512, None),
        cell(2, 4, (95.0, 120.0, 130.0), 35.9, 512, None),
        cell(2, 8, (140.0, 165.0, 172.0), 33.1, 512, Some(16500.0)),
    ]
}

fn r2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The JSON object of one cell, as `vllm bench serve --save-result` writes it.
pub fn cell_record(cell: &DemoCell) -> serde_json::Value {
    let tpot50 = 1000.0 / cell.tokens_per_s;
    let (tpot95, tpot99) = (tpot50 * 1.03, tpot50 * 1.05);
    let out = f64::from(cell.output_tokens);
    let e2e50 = cell.ttft.0 + out * tpot50;
    let e2e95 = cell.e2e_p95_stated.unwrap_or(cell.ttft.1 + out * tpot95);
    let e2e99 = (cell.ttft.2 + out * tpot99).max(e2e95 * 1.01);
    let n = f64::from(REQUESTS_PER_CELL);
    let duration = n * e2e50 / 1000.0 / f64::from(cell.concurrency);
    serde_json::json!({
        "date": "20250601-120000",
        "backend": "openai-chat",
        "model_id": "RedHatAI/Qwen2.5-7B-Instruct",
        "dataset_name": cell.scenario,
        "num_prompts": REQUESTS_PER_CELL,
        "request_rate": "inf",
        "max_concurrency": cell.concurrency,
        "duration": r2(duration),
        "completed": REQUESTS_PER_CELL,
        "failed": 0,
        "total_output_tokens": REQUESTS_PER_CELL * cell.output_tokens,
        "request_throughput": r2(n / duration),
        "output_throughput": r2(n * out / duration),
        "median_ttft_ms": cell.ttft.0,
        "p95_ttft_ms": cell.ttft.1,
        "p99_ttft_ms": cell.ttft.2,
        "median_tpot_ms": r2(tpot50),
        "p95_tpot_ms": r2(tpot95),
        "p99_tpot_ms": r2(tpot99),
        "median_e2el_ms": r2(e2e50),
        "p95_e2el_ms": r2(e2e95),
        "p99_e2el_ms": r2(e2e99),
        "pilotdesk_note": "Generated from the published percentiles of the benchmark report of Qwen2.5-7B on 4 × V100 (the pilot measurement guide's worked example); cells it states only as bounds are filled within them, E2E where unstated = TTFT + output tokens × TPOT; duration and throughput derived from 30 requests × E2E p50 ÷ concurrency.",
    })
}

/// The KServe ServingRuntime the report's benchmark ran on, verbatim: the demo evidence's run
/// context is read from it.
pub const SERVING_RUNTIME: &str = r#"apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: vllm-v100-tp4
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.8.5
      command: ["python", "-m", "vllm.entrypoints.openai.api_server"]
      args:
        - "--port=8080"
        - "--model=/mnt/models"
        - "--tensor-parallel-size=4"
        - "--dtype=half"
        - "--enforce-eager"
        - "--no-enable-prefix-caching"
        - "--max-model-len=8192"
        - "--gpu-memory-utilization=0.92"
      resources:
        limits:
          nvidia.com/gpu: "4"
"#;

/// The file name the demo evidence is stored under.
pub const FILE_NAME: &str = "v100-qwen-benchmark-report.jsonl";

/// The whole file: one JSON object per line, in the report's order.
pub fn v100_report_jsonl() -> String {
    cells()
        .iter()
        .map(|c| cell_record(c).to_string() + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{MetricKey, import};

    #[test]
    fn the_demo_file_imports_as_twelve_points_with_the_reports_numbers() {
        let imported = import(FILE_NAME, v100_report_jsonl().as_bytes()).unwrap();
        assert_eq!(imported.tool, "vllm bench serve");
        assert_eq!(imported.points.len(), 12);
        let long8 = &imported.points[3];
        assert_eq!(long8.scenario, format!("dataset {}", SCENARIOS[0]));
        assert_eq!(long8.concurrency, Some(8.0));
        let ttft = long8.metric(MetricKey::TtftMs).unwrap();
        assert_eq!(
            (ttft.p50, ttft.p95, ttft.p99),
            (Some(507.0), Some(572.0), Some(572.0))
        );
        assert_eq!(long8.metric(MetricKey::E2eMs).unwrap().p95, Some(2600.0));
        let short1 = &imported.points[8];
        assert_eq!(short1.metric(MetricKey::TtftMs).unwrap().p95, Some(73.0));
        assert_eq!(short1.metric(MetricKey::TpotMs).unwrap().p50, Some(26.04));
        assert!(imported.points.iter().all(|p| p.failed == Some(0)));
    }
}
