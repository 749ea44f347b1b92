//! `server inspect <file>… [--json]`: runs the importers on files without a database, so a user
//! can check a file before uploading it. A folder is read as a sweep (every file in it).

use crate::outln;
use clap::Args;
use desk::intake::recognise::{Recognised, recognise};
use serde_json::{Value, json};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct InspectArgs {
    /// Files (or sweep folders) to read
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON (one object per file)
    #[arg(long)]
    pub json: bool,
}

/// Every file under `dir` as (path relative to `dir`, bytes), in path order.
pub(crate) fn folder_files(dir: &std::path::Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .to_string();
                out.push((name, std::fs::read(&path)?));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// What `inspect` reports for one path.
pub fn inspect(path: &std::path::Path) -> Value {
    let name = path.display().to_string();
    if path.is_dir() {
        return match folder_files(path) {
            Err(e) => {
                json!({ "file": name, "error": format!("{name}: could not read the folder: {e}") })
            }
            Ok(files) => match engine::ingest::import_sweep_with(
                &files,
                &engine::ingest::ImportOptions::stats_only(),
            ) {
                Ok(import) => json!({ "file": name, "kind": "load_test", "import": import }),
                Err(e) => json!({ "file": name, "error": e.to_string() }),
            },
        };
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or(name.clone());
    match recognise(&file_name, path, None) {
        Ok(Recognised::LoadTest(mut import)) => {
            // What the file says, not each request of it.
            import.requests.clear();
            json!({ "file": name, "kind": "load_test", "import": import })
        }
        Ok(Recognised::StartupLog(log)) => {
            json!({ "file": name, "kind": "vllm_startup_log", "startup_log": log })
        }
        Ok(Recognised::GatewayLog(log)) => {
            json!({ "file": name, "kind": "gateway_log", "gateway_log": log })
        }
        Ok(Recognised::MetricsScrape(scrape)) => {
            json!({ "file": name, "kind": "metrics_scrape", "metrics_scrape": scrape })
        }
        Ok(Recognised::EvalSet(set)) => {
            json!({ "file": name, "kind": "eval_set", "eval_set": set })
        }
        Ok(Recognised::EvalRun(run)) => {
            json!({ "file": name, "kind": "eval_run", "eval_run": run })
        }
        Ok(Recognised::LmEval(results)) => {
            json!({ "file": name, "kind": "lm_eval_results", "lm_eval_results": results })
        }
        Err(e) => json!({ "file": name, "error": e.0 }),
    }
}

/// Runs `server inspect`; fails when any file could not be read.
pub fn run(args: &InspectArgs) -> anyhow::Result<()> {
    let reports: Vec<Value> = args.files.iter().map(|p| inspect(p)).collect();
    let failed = reports.iter().filter(|r| r.get("error").is_some()).count();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        for report in &reports {
            outln!("{}", report["file"].as_str().unwrap_or_default());
            if let Some(error) = report.get("error") {
                outln!("  error: {}", error.as_str().unwrap_or_default());
            } else if let Some(import) = report.get("import") {
                outln!(
                    "  load test · {} {} · {} · {} operating point(s)",
                    import["tool"].as_str().unwrap_or_default(),
                    import["tool_version"].as_str().unwrap_or(""),
                    import["layout"].as_str().unwrap_or_default(),
                    import["points"].as_array().map(Vec::len).unwrap_or(0)
                );
                for point in import["points"].as_array().into_iter().flatten() {
                    let ttft = &point["metrics"]["ttft_ms"];
                    outln!(
                        "    {} · concurrency {} · rate {} · completed {} · TTFT p50 {} ms, p99 {} ms · output {} tok/s",
                        point["scenario"].as_str().unwrap_or("-"),
                        point["concurrency"],
                        point["request_rate"],
                        point["completed"],
                        ttft["p50"],
                        ttft["p99"],
                        point["output_tokens_per_s"],
                    );
                }
                for warning in import["warnings"].as_array().into_iter().flatten() {
                    outln!("  warning: {}", warning.as_str().unwrap_or_default());
                }
            } else if let Some(log) = report.get("startup_log") {
                outln!(
                    "  vLLM start-up log · KV cache {} tokens · max concurrency {} · weights {} GiB",
                    log["kv_cache_tokens"],
                    log["max_concurrency"],
                    log["weights_gib"]
                );
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} file(s) could not be read", reports.len());
    }
    Ok(())
}
