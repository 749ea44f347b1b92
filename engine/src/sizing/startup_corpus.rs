//! The vLLM memory model against real start-up logs (test only).
//!
//! `testdata/vllm-startup-logs/` holds start-up logs people posted in public issues and notes,
//! cut to the lines that matter, each with a header naming its source and the settings the log
//! does not print (model shapes, weight format, card). Every log is sized again with the
//! settings it ran with, and the predicted "GPU KV cache size" set beside the one vLLM printed
//! (or the KV pool in GiB where the log has no token count). The test prints the table, keeps
//! the median error within 3 %, fails if a start vLLM refused is predicted to fit, and fails if
//! a start that succeeded is predicted refused unless the log's header explains why
//! (`predicted_refusal_reason`).
//!
//! Header keys (`key: value`, one a line, ended by `---`): `source`, `date`, `model` (catalog
//! id) or `config` (a Hugging Face `config.json` on one line), `weights`, `kv_dtype`, `gpu`
//! (catalog id) or `gpu_name`, `cuda_total_gib`, `compute_capability`, `tp`, `pp`, `version`,
//! `engine`, `max_model_len`, `gpu_memory_utilization`, `max_num_batched_tokens`,
//! `max_num_seqs`, `enforce_eager`, `flashinfer_sampler`, `custom_all_reduce`, `outcome`
//! (`started` or `refused`), `predicted_refusal_reason`, and free-text `*_note` keys. A setting
//! the log prints itself is taken from the log unless the header repeats it.

use super::estimate::{SizingInput, size};
use super::gpu::{GpuSpec, gpu_by_id};
use super::memory_model::{MemoryModel, VllmEngine};
use super::model::{ModelSpec, model_by_id};
use super::precision::{KvDtype, WeightPrecision};
use super::startup_log::{StartupLog, parse};
use super::topology::Topology;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/vllm-startup-logs")
}

struct Case {
    name: String,
    header: BTreeMap<String, String>,
    log: StartupLog,
}

fn read_case(path: &Path) -> Case {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (head, body) = text
        .split_once("\n---\n")
        .unwrap_or_else(|| panic!("{name}: no `---` line after the header"));
    let header = head
        .lines()
        .filter_map(|line| line.split_once(": "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let log = parse(body).unwrap_or_else(|e| panic!("{name}: {e}"));
    Case { name, header, log }
}

fn cases() -> Vec<Case> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("testdata/vllm-startup-logs exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    paths.sort();
    paths.iter().map(|p| read_case(p)).collect()
}

impl Case {
    fn get(&self, key: &str) -> Option<&str> {
        self.header.get(key).map(String::as_str)
    }

    fn number(&self, key: &str) -> Option<f64> {
        self.get(key).map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{}: `{key}` is not a number", self.name))
        })
    }

    fn refused(&self) -> bool {
        match self.get("outcome") {
            Some("refused") => true,
            Some("started") => false,
            other => panic!(
                "{}: outcome must be started or refused, got {other:?}",
                self.name
            ),
        }
    }

    fn model(&self) -> ModelSpec {
        match (self.get("model"), self.get("config")) {
            (Some(id), _) => model_by_id(id).unwrap_or_else(|| panic!("{}: model {id}", self.name)),
            (None, Some(json)) => ModelSpec::from_hf_config(json)
                .unwrap_or_else(|e| panic!("{}: config: {e}", self.name)),
            _ => panic!("{}: neither model nor config", self.name),
        }
    }

    fn gpu(&self) -> GpuSpec {
        let total = self
            .number("cuda_total_gib")
            .or(self.log.total_gpu_memory_gib);
        let mut gpu = match self.get("gpu") {
            Some(id) => gpu_by_id(id).unwrap_or_else(|| panic!("{}: gpu {id}", self.name)),
            None => {
                let total = total.unwrap_or_else(|| {
                    panic!(
                        "{}: a card outside the catalog needs its CUDA total",
                        self.name
                    )
                });
                let name = self.get("gpu_name").unwrap_or("custom");
                GpuSpec::custom(name, total + 0.5, Some(total), 1_000.0, None)
            }
        };
        if let Some(total) = total {
            gpu.memory_cuda_gib = total;
            gpu.memory_cuda_estimated = false;
        }
        if let Some(cc) = self.get("compute_capability") {
            gpu.compute_capability = Some(cc.to_string());
        }
        if gpu.name.contains("T4") && gpu.compute_capability.is_none() {
            gpu.compute_capability = Some("7.5".into());
        }
        gpu
    }

    fn input(&self) -> SizingInput {
        let log = &self.log;
        let weights = WeightPrecision::from_str(self.get("weights").expect("weights"))
            .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        let kv = match self.get("kv_dtype").or(log.kv_cache_dtype.as_deref()) {
            Some(d) if d.to_ascii_lowercase().starts_with("fp8") => KvDtype::Fp8,
            _ => KvDtype::Bits16,
        };
        let tp = self
            .number("tp")
            .map(|v| v as u32)
            .or(log.tensor_parallel_size)
            .unwrap_or(1);
        let pp = self
            .number("pp")
            .map(|v| v as u32)
            .or(log.pipeline_parallel_size)
            .unwrap_or(1);
        let context = self
            .number("max_model_len")
            .map(|v| v as u64)
            .or(log.max_model_len)
            .or(log.max_concurrency_context_tokens)
            .unwrap_or_else(|| panic!("{}: no max_model_len", self.name));
        let mut input = SizingInput::new(
            self.model(),
            weights,
            kv,
            self.gpu(),
            Topology::new(tp, pp, 1),
            context,
            MemoryModel::Vllm,
        );
        input.gpu_memory_utilization = self
            .number("gpu_memory_utilization")
            .or(log.gpu_memory_utilization);
        input.vllm_version = self
            .get("version")
            .map(str::to_string)
            .or(log.vllm_version.clone());
        input.max_num_batched_tokens = self
            .number("max_num_batched_tokens")
            .map(|v| v as u64)
            .or(log.max_num_batched_tokens);
        input.max_num_seqs = self
            .number("max_num_seqs")
            .map(|v| v as u64)
            .or(log.max_num_seqs);
        input.enforce_eager = self
            .get("enforce_eager")
            .map(|v| v == "true")
            .or(log.enforce_eager)
            .unwrap_or(false);
        input.vllm_engine = self
            .get("engine")
            .or(log.engine.as_deref())
            .map(|e| VllmEngine::from_str(e).unwrap());
        input.flashinfer_sampler = self
            .get("flashinfer_sampler")
            .map(|v| v == "true")
            .or(log.flashinfer_sampler);
        input.custom_all_reduce = self
            .get("custom_all_reduce")
            .map(|v| v == "true")
            .or(log.custom_all_reduce);
        input
    }
}

/// One log sized again.
struct Row {
    name: String,
    unit: &'static str,
    predicted: f64,
    actual: f64,
    error_pct: Option<f64>,
    refused: bool,
    predicted_fits: bool,
}

fn rows() -> Vec<Row> {
    cases()
        .into_iter()
        .map(|case| {
            let result = size(&case.input()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let (unit, predicted, actual) = match case.log.kv_tokens() {
                Some(tokens) => ("tokens", result.kv_cache_tokens as f64, tokens as f64),
                None => (
                    "GiB",
                    result.kv_pool_gib_per_card,
                    case.log.available_kv_gib.unwrap_or(f64::NAN),
                ),
            };
            let error_pct =
                (actual.is_finite() && actual > 0.0).then(|| (predicted - actual) / actual * 100.0);
            Row {
                refused: case.refused(),
                name: case.name,
                unit,
                predicted,
                actual,
                error_pct,
                predicted_fits: result.fits,
            }
        })
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

#[test]
fn the_vllm_model_lands_within_three_per_cent_of_real_startup_logs_and_never_fits_a_refused_start()
{
    let rows = rows();
    println!(
        "{:<58} {:>7} {:>12} {:>12} {:>8}  outcome (predicted)",
        "log", "unit", "predicted", "actual", "error"
    );
    for r in &rows {
        println!(
            "{:<58} {:>7} {:>12.2} {:>12.2} {:>8}  {} ({})",
            r.name,
            r.unit,
            r.predicted,
            r.actual,
            r.error_pct
                .map(|e| format!("{e:+.1}%"))
                .unwrap_or_else(|| "-".into()),
            if r.refused { "refused" } else { "started" },
            if r.predicted_fits { "fits" } else { "refused" }
        );
    }
    let errors: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.error_pct.map(f64::abs))
        .collect();
    let median_abs = median(errors.clone());
    let worst = errors.iter().cloned().fold(0.0, f64::max);
    let started = rows.iter().filter(|r| !r.refused).count();
    println!(
        "{} logs ({} started, {} refused), {} with a capacity figure: median |error| {:.2} %, worst {:.1} %",
        rows.len(),
        started,
        rows.len() - started,
        errors.len(),
        median_abs,
        worst
    );
    let wrongly_fits: Vec<&str> = rows
        .iter()
        .filter(|r| r.refused && r.predicted_fits)
        .map(|r| r.name.as_str())
        .collect();
    let wrongly_refused: Vec<&str> = rows
        .iter()
        .filter(|r| !r.refused && !r.predicted_fits)
        .map(|r| r.name.as_str())
        .collect();
    println!("started but predicted refused: {wrongly_refused:?}");
    assert!(
        wrongly_fits.is_empty(),
        "predicted to fit where vLLM refused: {wrongly_fits:?}"
    );
    // A started log may be predicted refused only where its header explains why, with evidence,
    // and an explanation must not outlive the disagreement it explains.
    let cases = cases();
    let explained = |name: &str| {
        cases
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.get("predicted_refusal_reason"))
            .is_some()
    };
    let unexplained: Vec<&str> = wrongly_refused
        .iter()
        .copied()
        .filter(|name| !explained(name))
        .collect();
    assert!(
        unexplained.is_empty(),
        "started but predicted refused without a `predicted_refusal_reason`: {unexplained:?}"
    );
    let stale: Vec<&str> = rows
        .iter()
        .filter(|r| explained(&r.name) && !wrongly_refused.contains(&r.name.as_str()))
        .map(|r| r.name.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "`predicted_refusal_reason` on logs the model no longer refuses: {stale:?}"
    );
    assert!(median_abs <= 3.0, "median |error| {median_abs:.2} % > 3 %");
}

#[test]
fn every_corpus_log_names_its_source_and_outcome() {
    let cases = cases();
    assert!(cases.len() >= 30, "{}", cases.len());
    for case in &cases {
        assert!(case.get("source").is_some(), "{} has no source", case.name);
        let _ = case.refused();
    }
    let sources = std::fs::read_to_string(corpus_dir().join("SOURCES.md")).unwrap();
    for case in &cases {
        assert!(
            sources.contains(&case.name),
            "SOURCES.md does not list {}",
            case.name
        );
    }
}
