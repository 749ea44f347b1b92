use super::*;

/// The ServingRuntime of the V100 benchmark report (shared/seeds), verbatim.
const SEED_RUNTIME: &str = r#"apiVersion: serving.kserve.io/v1alpha1
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
      env:
        - name: HF_HUB_OFFLINE
          value: "1"
        - name: TRANSFORMERS_OFFLINE
          value: "1"
      resources:
        limits:
          cpu: "8"
          memory: 48Gi
          nvidia.com/gpu: "4"
        requests:
          cpu: "4"
          memory: 32Gi
          nvidia.com/gpu: "4"
"#;

/// The equivalent command line of the same report, verbatim.
const SEED_COMMAND: &str = "vllm serve /mnt/models \\
  --served-model-name redhataiqwen25-7b-instruct \\
  --tensor-parallel-size 4 \\
  --dtype half \\
  --max-model-len 8192 \\
  --gpu-memory-utilization 0.92 \\
  --no-enable-prefix-caching \\
  --enforce-eager";

#[test]
fn the_seed_serving_runtime_reads_as_vllm_0_8_5_on_four_gpus() {
    let context = parse(SEED_RUNTIME).unwrap();
    assert_eq!(context.engine.as_deref(), Some("vLLM"));
    assert_eq!(context.engine_version.as_deref(), Some("0.8.5"));
    assert_eq!(context.gpu_count, Some(4));
    assert_eq!(context.tensor_parallel, Some(4));
    assert_eq!(context.precision.as_deref(), Some("fp16"));
    assert_eq!(context.prefix_caching, Some(false));
    assert_eq!(context.cuda_graphs, Some(false));
    assert_eq!(context.max_model_len, Some(8192));
    assert_eq!(context.gpu_memory_utilization, Some(0.92));
    assert_eq!(context.model.as_deref(), Some("/mnt/models"));
    assert_eq!(
        context.max_num_seqs, None,
        "not stated is not vLLM's default"
    );
    assert_eq!(context.max_num_batched_tokens, None);
}

#[test]
fn the_seed_command_line_reads_the_same_settings() {
    let context = parse(SEED_COMMAND).unwrap();
    assert_eq!(context.engine.as_deref(), Some("vLLM"));
    assert_eq!(
        context.engine_version, None,
        "a command line has no version"
    );
    assert_eq!(context.model.as_deref(), Some("/mnt/models"));
    assert_eq!(
        context.served_model_name.as_deref(),
        Some("redhataiqwen25-7b-instruct")
    );
    assert_eq!(context.tensor_parallel, Some(4));
    assert_eq!(context.precision.as_deref(), Some("fp16"));
    assert_eq!(context.max_model_len, Some(8192));
    assert_eq!(context.gpu_memory_utilization, Some(0.92));
    assert_eq!(context.prefix_caching, Some(false));
    assert_eq!(context.cuda_graphs, Some(false));
    let from_yaml = parse(SEED_RUNTIME).unwrap();
    assert_eq!(context.tensor_parallel, from_yaml.tensor_parallel);
    assert_eq!(context.precision, from_yaml.precision);
}

#[test]
fn summaries_name_every_stated_setting() {
    let context = parse(SEED_RUNTIME).unwrap();
    assert_eq!(
        context.summary(),
        "vLLM 0.8.5 · 4 GPU(s) · weights fp16 · TP 4 · prefix caching off · CUDA graphs off · max_model_len 8192"
    );
    assert_eq!(
        context.summary_in(crate::locale::Lang::De),
        "vLLM 0.8.5 · 4 GPU(s) · Gewichte fp16 · TP 4 · Prefix-Caching aus · CUDA-Graphen aus · max_model_len 8192"
    );
}

#[test]
fn shell_splitting_handles_quotes_escapes_and_continuations() {
    assert_eq!(
        shell_split("vllm serve 'my model' --x \"a \\\"b\\\"\" c\\ d \\\n --y=1").unwrap(),
        vec![
            "vllm", "serve", "my model", "--x", "a \"b\"", "c d", "--y=1"
        ]
    );
    assert!(
        shell_split("vllm serve 'open")
            .unwrap_err()
            .contains("single quote")
    );
}

#[test]
fn new_flags_and_spellings_are_read() {
    let context = parse(
        "python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct \
         -tp 2 --quantization fp8 --kv-cache-dtype fp8 --max-num-batched-tokens 8192 \
         --max_num_seqs 256 --enable-prefix-caching",
    )
    .unwrap();
    assert_eq!(context.tensor_parallel, Some(2));
    assert_eq!(context.precision.as_deref(), Some("fp8"));
    assert_eq!(context.kv_cache_dtype.as_deref(), Some("fp8"));
    assert_eq!(context.max_num_batched_tokens, Some(8192));
    assert_eq!(context.max_num_seqs, Some(256));
    assert_eq!(context.prefix_caching, Some(true));
    assert_eq!(context.cuda_graphs, None);
}

#[test]
fn bad_input_is_named() {
    assert!(parse("").is_err());
    assert!(
        parse("docker run nginx")
            .unwrap_err()
            .0
            .contains("not a vLLM command line")
    );
    assert!(
        parse("vllm serve m --tensor-parallel-size four")
            .unwrap_err()
            .0
            .contains("--tensor-parallel-size: `four`")
    );
    assert!(
        parse("apiVersion: v1\nkind: ConfigMap\ndata:\n  a: b\n")
            .unwrap_err()
            .0
            .contains("containers")
    );
    assert!(
        parse("spec:\n  containers:\n    - image: \"vllm/vllm-openai:v0.9\n")
            .unwrap_err()
            .0
            .contains("line 3")
    );
}

#[test]
fn the_yaml_subset_reads_nested_maps_lists_and_flow_lists() {
    let doc =
        yaml::parse("a:\n  b: [1, 'two', \"3\"]  # comment\n  c:\n  - x: 1\n    y: z\n  - plain\n")
            .unwrap();
    let b = doc.get("a").unwrap().get("b").unwrap().as_list().unwrap();
    assert_eq!(b.len(), 3);
    assert_eq!(b[1].as_str(), Some("two"));
    let c = doc.get("a").unwrap().get("c").unwrap().as_list().unwrap();
    assert_eq!(c[0].get("y").unwrap().as_str(), Some("z"));
    assert_eq!(c[1].as_str(), Some("plain"));
}

#[test]
fn or_fills_only_what_is_not_stated() {
    let form = RunContext {
        gpu: Some("Tesla V100-SXM2-16GB".into()),
        tensor_parallel: Some(2),
        ..RunContext::default()
    };
    let merged = form.or(&parse(SEED_RUNTIME).unwrap());
    assert_eq!(merged.tensor_parallel, Some(2));
    assert_eq!(merged.gpu_count, Some(4));
    assert_eq!(merged.gpu.as_deref(), Some("Tesla V100-SXM2-16GB"));
}

#[test]
fn a_staircase_of_indents_is_refused_before_it_exhausts_the_stack() {
    let mut text = String::from("spec:\n");
    for level in 1..=10_000 {
        text.push_str(&" ".repeat(level));
        text.push_str("a:\n");
    }
    let error = yaml::parse(&text).unwrap_err();
    assert_eq!(error, "line 65: nested more than 64 levels deep");
    let mut items = String::from("containers:\n");
    for level in 1..=10_000 {
        items.push_str(&" ".repeat(level));
        items.push_str("-\n");
    }
    assert!(
        yaml::parse(&items)
            .unwrap_err()
            .contains("nested more than 64 levels")
    );
    // a real manifest's dozen levels read as before
    let mut ok = String::from("spec:\n");
    for level in 1..=20 {
        ok.push_str(&" ".repeat(level));
        ok.push_str("a:\n");
    }
    assert!(yaml::parse(&ok).is_ok());
}

#[test]
fn speculative_decoding_is_noted() {
    let context = parse(
        r#"vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "eagle3", "model": "Tengyunw/qwen3_8b_eagle3", "num_speculative_tokens": 4}'"#,
    )
    .unwrap();
    assert!(
        context
            .speculative_decoding
            .as_deref()
            .unwrap()
            .contains("num_speculative_tokens")
    );
    assert!(context.summary().contains("speculative decoding"));
    let plain = parse("vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2").unwrap();
    assert_eq!(plain.speculative_decoding, None);
}

#[test]
fn token_counts_read_as_vllm_reads_them() {
    // vLLM's human_readable_int: lowercase suffixes are decimal, uppercase (and Ki) binary.
    for (text, tokens) in [
        ("32768", Some(32_768)),
        ("32k", Some(32_000)),
        ("32K", Some(32_768)),
        ("32Ki", Some(32_768)),
        ("25.6k", Some(25_600)),
        ("1M", Some(1_048_576)),
        ("1m", Some(1_000_000)),
        ("1.5K", None),
        ("1.5", None),
        ("32 tokens", None),
        ("", None),
        ("k", None),
    ] {
        assert_eq!(human_readable_count(text), tokens, "{text}");
    }
    let context =
        parse("vllm serve Qwen/Qwen2.5-7B --max-model-len 32K --max-num-batched-tokens 8k")
            .unwrap();
    assert_eq!(context.max_model_len, Some(32_768));
    assert_eq!(context.max_num_batched_tokens, Some(8_000));
    let refused = parse("vllm serve Qwen/Qwen2.5-7B --max-model-len lots").unwrap_err();
    assert!(refused.0.contains("--max-model-len"), "{}", refused.0);
}

// Plausibility (crate::plausible): impossible flag values are refused naming the flag.
#[test]
fn an_impossible_utilisation_or_count_is_refused() {
    for (value, words) in [
        (
            "7.5",
            "7.5 is not a possible fraction (must be between 0 and 1)",
        ),
        ("NaN", "NaN is not a possible fraction"),
        ("-0.5", "-0.5 is not a possible fraction"),
        ("0", "0 is not a possible utilisation"),
    ] {
        let e = parse(&format!("vllm serve m --gpu-memory-utilization {value}")).unwrap_err();
        assert!(
            e.0.starts_with("--gpu-memory-utilization: ") && e.0.contains(words),
            "{value}: {e}"
        );
    }
    let e = parse("vllm serve m --max-num-seqs 18446744073709551615").unwrap_err();
    assert!(
        e.0.starts_with("--max-num-seqs: 18446744073709551615 is not a possible count"),
        "{e}"
    );
    let e = parse("vllm serve m --max-model-len 16384T").unwrap_err();
    assert!(e.0.starts_with("--max-model-len: "), "{e}");
    // Real values still read.
    let c = parse("vllm serve m --gpu-memory-utilization 0.9 --max-model-len 32K").unwrap();
    assert_eq!(
        (c.gpu_memory_utilization, c.max_model_len),
        (Some(0.9), Some(32_768))
    );
}

#[test]
fn sizes_below_one_and_a_batch_smaller_than_its_sequences_are_refused() {
    for (command, words) in [
        (
            "vllm serve m --tensor-parallel-size 0",
            "--tensor-parallel-size: 0 is not a possible tensor-parallel size (must be a whole number ≥ 1)",
        ),
        (
            "vllm serve m -pp 0",
            "-pp: 0 is not a possible pipeline-parallel size",
        ),
        (
            "vllm serve m --max-num-seqs 0",
            "--max-num-seqs: 0 is not a possible number of sequences",
        ),
        (
            "vllm serve m --max-model-len 0",
            "--max-model-len: 0 is not a possible token count",
        ),
        (
            "vllm serve m --max-num-seqs 512 --max-num-batched-tokens 256",
            "--max-num-seqs: 512 is above --max-num-batched-tokens = 256 (vLLM refuses",
        ),
    ] {
        let error = parse(command).unwrap_err().to_string();
        assert!(error.contains(words), "{command}: {error}");
    }
    let yaml = SEED_RUNTIME.replace("nvidia.com/gpu: \"4\"", "nvidia.com/gpu: \"0\"");
    assert_ne!(yaml, SEED_RUNTIME, "the seed names its GPUs");
    let error = parse(&yaml).unwrap_err().to_string();
    assert!(
        error.contains("resources.limits.nvidia.com/gpu: 0 is not a possible number of GPUs"),
        "{error}"
    );
    let context = parse("vllm serve m --max-num-seqs 256 --max-num-batched-tokens 256").unwrap();
    assert_eq!(context.max_num_batched_tokens, Some(256));
}
