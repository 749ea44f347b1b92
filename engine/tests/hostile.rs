//! The hostile corpus (`testdata/hostile`, written by its `generate.py`): real files with one
//! value changed so that each breaks one plausibility rule (`engine/PLAUSIBILITY.md`). Every
//! file must be refused by the importer of its kind, with a message that names the file, the
//! line or field (`expected.tsv`, column `where`) and the rule (column `rule`). A file that is
//! accepted fails the test, and so does one refused for another reason than its rule.
//!
//! The importers are called as the server calls them (`desk/src/intake/recognise.rs`): load
//! tests through [`import_reader`] with the server's options, gateway logs through the streaming
//! reader, `/metrics` scrapes through [`VllmSnapshot::parse`], lm-eval results, evaluation runs
//! (against `bases/eval_set.csv`) and start-up logs through their parsers. The scrape and
//! start-up-log parsers take no file name; the server puts it before their message, and so does
//! [`read`] here.
//!
//! `HOSTILE_PRINT=1 cargo test -p engine --test hostile -- --nocapture` prints every message.

use engine::ingest::{ImportOptions, import_reader};
use engine::metrics::VllmSnapshot;
use engine::quality::{parse_lm_eval_results, parse_run_csv, parse_run_jsonl, parse_set_csv};
use engine::traffic::{ReadOptions, read_gateway_log};
use std::collections::BTreeSet;
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// The kinds (folders of the corpus), as the upload form names what each is read as.
const KINDS: [&str; 10] = [
    "vllm_bench",
    "aiperf_json",
    "aiperf_csv",
    "aiperf_jsonl",
    "guidellm",
    "metrics_scrape",
    "gateway_log",
    "lm_eval",
    "eval_run",
    "startup_log",
];

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

fn corpus() -> PathBuf {
    testdata().join("hostile")
}

/// One line of `expected.tsv`.
struct Case {
    /// `kind/name`, relative to the corpus.
    file: String,
    /// Words of the rule the message must contain.
    rule: String,
    /// The line and/or field the message must name.
    place: String,
}

fn expected() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus().join("expected.tsv")).expect("expected.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 3, "expected.tsv: {line:?}");
            Case {
                file: cells[0].to_string(),
                rule: cells[1].to_string(),
                place: cells[2].to_string(),
            }
        })
        .collect()
}

/// Reads `bytes` (the file `name`) as `kind`: `Ok` when accepted, else the message as the
/// server would show it.
fn read(kind: &str, name: &str, bytes: &[u8]) -> Result<(), String> {
    let text = || String::from_utf8(bytes.to_vec()).map_err(|e| format!("{name}: {e}"));
    match kind {
        "vllm_bench" | "aiperf_json" | "aiperf_csv" | "aiperf_jsonl" | "guidellm" => {
            let options = ImportOptions {
                keep_requests: true,
                ..ImportOptions::stats_only()
            };
            import_reader(name, Cursor::new(bytes), &options)
                .map(drop)
                .map_err(|e| e.to_string())
        }
        "metrics_scrape" => VllmSnapshot::parse(&text()?)
            .map(drop)
            .map_err(|e| format!("{name}: {e}")),
        "gateway_log" => read_gateway_log(Cursor::new(bytes), &ReadOptions::new(name), drop, drop)
            .map(drop)
            .map_err(|e| e.to_string()),
        "lm_eval" => parse_lm_eval_results(name, &text()?)
            .map(drop)
            .map_err(|e| e.to_string()),
        "eval_run" => {
            let set_text = std::fs::read_to_string(corpus().join("bases/eval_set.csv")).unwrap();
            let set = parse_set_csv("eval_set.csv", &set_text).expect("the evaluation set reads");
            let run = if name.ends_with(".jsonl") {
                parse_run_jsonl(name, &text()?, &set)
            } else {
                parse_run_csv(name, &text()?, &set)
            };
            run.map(drop).map_err(|e| e.to_string())
        }
        "startup_log" => engine::sizing::startup_log::parse(&text()?)
            .map(drop)
            .map_err(|e| format!("{name}: {e}")),
        other => panic!("unknown kind {other}"),
    }
}

/// What is wrong with the refusal of `case`, if anything.
fn check(case: &Case) -> Option<String> {
    let (kind, name) = case.file.split_once('/').expect("kind/name");
    let bytes = std::fs::read(corpus().join(&case.file)).expect("a listed file exists");
    let message = match read(kind, name, &bytes) {
        Ok(()) => return Some(format!("{}: ACCEPTED (must be refused)", case.file)),
        Err(message) => message,
    };
    if std::env::var_os("HOSTILE_PRINT").is_some() {
        println!("{message}");
    }
    let missing: Vec<&str> = [
        ("the file name", name),
        ("the place", case.place.as_str()),
        ("the rule", case.rule.as_str()),
    ]
    .into_iter()
    .filter(|(_, words)| !message.contains(words))
    .map(|(what, _)| what)
    .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{}: the message lacks {} ({:?} / {:?}): {message}",
            case.file,
            missing.join(" and "),
            case.place,
            case.rule
        )
    })
}

#[test]
fn every_hostile_file_is_refused_naming_the_file_the_place_and_the_rule() {
    let cases = expected();
    let failures: Vec<String> = cases.iter().filter_map(check).collect();
    assert!(
        failures.is_empty(),
        "{} of {} hostile files:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn the_corpus_has_every_kind_and_expected_tsv_lists_every_file() {
    let listed: BTreeSet<String> = expected().into_iter().map(|c| c.file).collect();
    let mut on_disk = BTreeSet::new();
    for kind in KINDS {
        let dir = corpus().join(kind);
        let files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        assert!(files.len() >= 10, "{kind}: only {} files", files.len());
        for path in files {
            let size = std::fs::metadata(&path).unwrap().len();
            assert!(size < 20 * 1024, "{}: {size} bytes", path.display());
            let name = path.file_name().unwrap().to_str().unwrap();
            on_disk.insert(format!("{kind}/{name}"));
        }
    }
    assert!(on_disk.len() >= 200, "{} hostile files", on_disk.len());
    assert_eq!(
        listed, on_disk,
        "expected.tsv and the corpus folders differ"
    );
}

/// What the hostile files start from is accepted: each refusal is the file's one change.
#[test]
fn the_bases_of_the_corpus_are_accepted() {
    let bases: [(&str, &Path); 15] = [
        (
            "vllm_bench",
            Path::new("er0080-vllm-benchmarking/bench_serve_v0.25.1.json"),
        ),
        (
            "vllm_bench",
            Path::new(
                "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=0.json",
            ),
        ),
        (
            "vllm_bench",
            Path::new(
                "er0080-vllm-benchmarking/sweep_v0.25.1/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/summary.json",
            ),
        ),
        (
            "vllm_bench",
            Path::new("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json"),
        ),
        (
            "vllm_bench",
            Path::new("nerdalert-vllm-benchmark-graphs/results.json"),
        ),
        (
            "aiperf_json",
            Path::new("akamaslabs-aiperf-sweep/concurrency_16/profile_export_aiperf.json"),
        ),
        (
            "aiperf_json",
            Path::new("aiperf-examples-run1/profile_export_aiperf.json"),
        ),
        (
            "aiperf_json",
            Path::new("aiperf-dev-smoke-100k/profile_export_aiperf.json"),
        ),
        (
            "aiperf_csv",
            Path::new("aiperf-examples-run1/profile_export_aiperf.csv"),
        ),
        (
            "aiperf_jsonl",
            Path::new("aiperf-examples-run1/profile_export.head12.jsonl"),
        ),
        ("guidellm", Path::new("hostile/bases/guidellm.json")),
        ("guidellm", Path::new("hostile/bases/guidellm.yaml")),
        (
            "metrics_scrape",
            Path::new("hostile/bases/metrics_scrape.txt"),
        ),
        ("gateway_log", Path::new("hostile/bases/gateway_log.jsonl")),
        ("eval_run", Path::new("hostile/bases/eval_run.csv")),
    ];
    let more: [(&str, &Path); 7] = [
        (
            "gateway_log",
            Path::new("litellm/standard_logging_payload.from_gcs_test.json"),
        ),
        (
            "lm_eval",
            Path::new("akamaslabs-lmeval/results_2026-10-08T12-45-17.743940.json"),
        ),
        (
            "startup_log",
            Path::new("vllm-startup-logs/03-t4-llama-3.2-3b-v0.8.2.log"),
        ),
        (
            "startup_log",
            Path::new("vllm-startup-logs/05-h200-tinyllama-1.1b-v0.6.4.log"),
        ),
        (
            "startup_log",
            Path::new("vllm-startup-logs/08-l40s-4x-qwen3-235b-fp8-tp4-v0.10.log"),
        ),
        (
            "startup_log",
            Path::new("vllm-startup-logs/09-dgx-spark-mistral-7b-gptq-v0.11.0.log"),
        ),
        (
            "startup_log",
            Path::new(
                "vllm-startup-logs/15-rtx4090-2x-deepseek-r1-distill-qwen-14b-refused-v0.7.2.log",
            ),
        ),
    ];
    let mut refused = Vec::new();
    for (kind, path) in bases.iter().chain(more.iter()) {
        let bytes = std::fs::read(testdata().join(path)).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        if let Err(message) = read(kind, name, &bytes) {
            refused.push(format!("{}: {message}", path.display()));
        }
    }
    assert!(refused.is_empty(), "bases refused:\n{}", refused.join("\n"));
}
