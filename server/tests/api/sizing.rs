//! `server size`: the guide's worked example through the command line, and bad arguments.

use serde_json::Value;
use std::process::Command;

fn size(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_server"))
        .arg("size")
        .args(args)
        .output()
        .expect("server runs")
}

fn size_json(args: &[&str]) -> Value {
    let output = size(&[args, &["--json"]].concat());
    assert!(
        output.status.success(),
        "server size {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

const LLAMA_FP8: [&str; 8] = [
    "--model",
    "llama-3.3-70b",
    "--weights",
    "fp8",
    "--kv-dtype",
    "fp8",
    "--context",
    "8192",
];

#[test]
fn the_worked_example_reproduces_through_the_command_line() {
    let cases: [(&[&str], u64, f64); 6] = [
        (&["--gpu", "rtx-pro-6000-server"], 12, 22.6),
        (&["--gpu", "rtx-pro-6000-server", "--cards", "2"], 24, 22.6),
        (&["--gpu", "rtx-pro-6000-server", "--tp", "2"], 78, 45.2),
        (&["--gpu", "h200-nvl"], 44, 68.0),
        (&["--gpu", "dgx-spark"], 0, 3.9),
        (&["--gpu", "rtx-pro-6000-server", "--pp", "2"], 78, 22.6),
    ];
    for (extra, sessions, decode) in cases {
        let result = size_json(&[&LLAMA_FP8[..], extra, &["--memory-model", "planning"]].concat());
        if *extra != ["--gpu", "dgx-spark"] {
            assert_eq!(result["sessions"], sessions, "{extra:?}");
            assert_eq!(result["fits"], true, "{extra:?}");
        }
        assert_eq!(
            result["decode_tokens_per_s"].as_f64().unwrap(),
            decode,
            "{extra:?}"
        );
    }
    let bits16 = size_json(&[
        "--model",
        "llama-3.3-70b",
        "--weights",
        "fp8",
        "--kv-dtype",
        "16bit",
        "--context",
        "8192",
        "--gpu",
        "rtx-pro-6000-server",
    ]);
    assert_eq!(bits16["sessions"], 6);
    let nvfp4 = size_json(&[
        "--model",
        "llama-3.3-70b",
        "--weights",
        "nvfp4",
        "--kv-dtype",
        "fp8",
        "--context",
        "8192",
        "--gpu",
        "rtx-pro-6000-server",
    ]);
    assert_eq!(nvfp4["sessions"], 34);
    let one = size_json(&[&LLAMA_FP8[..], &["--gpu", "rtx-pro-6000-server"]].concat());
    for field in [
        "weights_gib_per_card",
        "kv_bytes_per_token_per_card",
        "kv_pool_gib_per_card",
        "kv_cache_tokens",
        "max_concurrency",
        "sessions",
        "fits",
        "decode_tokens_per_s",
        "warnings",
    ] {
        assert!(!one[field].is_null(), "{field} missing from --json output");
    }
    assert_eq!(one["kv_bytes_per_token_per_card"], 163_840.0);
    assert_eq!(one["weights_gib_per_card"], 67.7);
}

#[test]
fn a_custom_gpu_and_the_vllm_model_answer_too() {
    let result = size_json(&[
        "--model",
        "qwen2.5-7b",
        "--weights",
        "fp16",
        "--kv-dtype",
        "16bit",
        "--context",
        "8192",
        "--gpu-memory-gib",
        "15.5",
        "--gpu-bandwidth-gb-s",
        "900",
        "--tp",
        "4",
        "--memory-model",
        "vllm",
        "--vllm-version",
        "0.8.5",
    ]);
    assert_eq!(result["fits"], true);
    assert!(result["kv_cache_tokens"].as_u64().unwrap() > 100_000);
    let one_card = size_json(&[
        "--model",
        "qwen2.5-7b",
        "--weights",
        "fp16",
        "--kv-dtype",
        "16bit",
        "--context",
        "8192",
        "--gpu",
        "v100-sxm2-16gb",
        "--memory-model",
        "vllm",
    ]);
    assert_eq!(
        one_card["fits"], false,
        "FP16 Qwen2.5-7B does not fit one 16 GB card with a cache"
    );
}

#[test]
fn bad_arguments_exit_non_zero_with_a_message_naming_them() {
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "--model",
                "gpt-5",
                "--weights",
                "fp8",
                "--context",
                "8192",
                "--gpu",
                "h200-nvl",
            ],
            "--model",
        ),
        (
            &[
                "--model",
                "llama-3.3-70b",
                "--weights",
                "fp3",
                "--context",
                "8192",
                "--gpu",
                "h200-nvl",
            ],
            "fp3",
        ),
        (
            &[
                "--model",
                "llama-3.3-70b",
                "--weights",
                "fp8",
                "--context",
                "8192",
                "--gpu",
                "tpu-v9",
            ],
            "--gpu",
        ),
        (
            &[
                "--model",
                "llama-3.3-70b",
                "--weights",
                "fp8",
                "--context",
                "8192",
                "--gpu",
                "h200-nvl",
                "--cards",
                "3",
                "--tp",
                "2",
            ],
            "--cards",
        ),
        (
            &[
                "--model",
                "llama-3.3-70b",
                "--weights",
                "fp8",
                "--context",
                "8192",
                "--gpu",
                "h200-nvl",
                "--tp",
                "3",
            ],
            "TP",
        ),
        (
            &[
                "--model",
                "llama-3.3-70b",
                "--weights",
                "fp8",
                "--gpu",
                "h200-nvl",
            ],
            "--context",
        ),
    ];
    for (args, needle) in cases {
        let output = size(args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// `server size --list-gpus` says which cards can still be ordered and which the guide's
/// supplier offers; with `--json`, the catalog's records with their sources.
#[test]
fn the_gpu_list_shows_availability() {
    let output = size(&["--list-gpus"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let line = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("no {id} in {text}"))
            .to_string()
    };
    assert!(line("v100-sxm2-16gb").ends_with("end of life since 2025-10-31"));
    assert!(line("a100-pcie-80gb").ends_with("end of sale, no date published"));
    assert!(line("h200-nvl").ends_with("current · offered by the guide's supplier"));
    assert!(line("l40s").ends_with(" current"));
    let json = size_json(&["--list-gpus"]);
    let rows = json.as_array().unwrap();
    let v100 = rows.iter().find(|r| r["id"] == "v100-sxm2-16gb").unwrap();
    assert_eq!(v100["availability"]["status"], "end_of_life");
    assert_eq!(v100["availability"]["supplier_offers"], false);
    assert!(
        v100["availability"]["sources"][0]
            .as_str()
            .unwrap()
            .contains("nvidia")
    );
    assert!(rows.iter().all(|r| r["availability"]["status"].is_string()));
}

/// `server size --explain-step` prints one configuration's step terms and its floor. Qwen2.5-7B
/// in BF16 on one H200 SXM: the 14.1 GB a decode step reads (15.2 GB of weights less the
/// embedding table, of which a step reads one row per token) at 4.8 TB/s is 2.9 ms, so no
/// stream decodes faster than about 340 tokens/s; eager execution adds launches CUDA graphs
/// save.
#[test]
fn explain_step_prints_the_terms_and_the_floor_of_one_configuration() {
    let args = [
        "--model",
        "qwen2.5-7b",
        "--weights",
        "bf16",
        "--gpu",
        "h200-sxm",
        "--context",
        "4096",
        "--explain-step",
    ];
    let output = size(&args);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("Step model of 1 × "), "{text}");
    for term in [
        "weights read per step",
        "KV read per context token",
        "launches + engine per step",
        "Floor (100 % of published bandwidth and compute, nothing else): TPOT ≥ 2.9",
    ] {
        assert!(text.contains(term), "{term} missing: {text}");
    }
    let graphs = size_json(&args);
    let weights_ms = graphs["floor"]["weights_ms"].as_f64().unwrap();
    assert!((2.8..3.2).contains(&weights_ms), "{weights_ms}");
    let ends = graphs["ends"].as_array().unwrap();
    assert_eq!(ends.len(), 3, "fast, central, slow");
    let eager = size_json(&[&args[..], &["--eager"]].concat());
    let host = |v: &Value| v["ends"][1][2].as_f64().unwrap();
    assert!(host(&eager) > host(&graphs), "{eager} vs {graphs}");
    let refused = size(&["--list-models", "--eager"]);
    assert!(!refused.status.success(), "--eager needs --explain-step");
}
