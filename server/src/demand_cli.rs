//! `server demand <log>… [--json] [--skip-bad-lines]`: the demand profile of gateway logs,
//! straight from the files, without a database.
//!
//! Several files combine into one profile (one accumulator over all of them), as on a pilot.
//! `--json` prints the same profile `GET /api/v1/pilots/{id}/demand` answers (plus `files` and
//! `skipped_lines`). Files of 16 MiB and more report their progress on stderr.

use crate::outln;
use clap::Args;
use engine::demand::{DemandAccumulator, DemandOptions, DemandProfile, TokenDistribution};
use engine::traffic::ReadOptions;
use serde_json::{Value, json};
use std::io::{BufReader, IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct DemandArgs {
    /// Gateway logs (generic JSONL/CSV, LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload JSONL)
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the profile as JSON
    #[arg(long)]
    pub json: bool,
    /// Skip malformed lines and count them instead of stopping at the first
    #[arg(long)]
    pub skip_bad_lines: bool,
}

/// Files at least this large report progress on stderr.
const PROGRESS_FROM_BYTES: u64 = 16 << 20;

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// Runs `server demand`; fails (naming file and line) when a log cannot be read.
pub fn run(args: &DemandArgs) -> anyhow::Result<()> {
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    let mut files = Vec::new();
    let mut skipped_lines = 0;
    let terminal = std::io::stderr().is_terminal();
    for path in &args.files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| path.display().to_string());
        let file = std::fs::File::open(path)
            .map_err(|e| anyhow::anyhow!("{}: could not read: {e}", path.display()))?;
        let total = file.metadata().map(|m| m.len()).unwrap_or(0);
        let show = total >= PROGRESS_FROM_BYTES;
        let mut last_percent = u64::MAX;
        let progress = |bytes: u64| {
            if !show {
                return;
            }
            let percent = bytes.saturating_mul(100) / total.max(1);
            let step = if terminal { 1 } else { 10 };
            if percent / step == last_percent / step && last_percent != u64::MAX {
                return;
            }
            last_percent = percent;
            let line = format!(
                "{name}: {:.0} of {:.0} MiB ({percent} %)",
                mib(bytes),
                mib(total)
            );
            let mut err = std::io::stderr().lock();
            let _ = if terminal {
                write!(err, "\r{line}")
            } else {
                writeln!(err, "{line}")
            };
        };
        let options = ReadOptions::new(name.clone()).skip_bad_lines(args.skip_bad_lines);
        let summary =
            accumulator.add_log(BufReader::with_capacity(1 << 16, file), &options, progress);
        if show && terminal {
            eprintln!();
        }
        let summary = summary.map_err(|e| {
            if args.skip_bad_lines {
                anyhow::anyhow!("{e}")
            } else {
                anyhow::anyhow!("{e} (--skip-bad-lines skips malformed lines and counts them)")
            }
        })?;
        skipped_lines += summary.skipped.count;
        if summary.skipped.count > 0 {
            eprintln!("{name}: {}", summary.skipped);
        }
        files.push(json!({
            "file": path.display().to_string(),
            "format": summary.format.label(),
            "records": summary.records,
            "skipped_lines": summary.skipped.count,
            "bytes_read": summary.bytes_read,
        }));
    }
    let profile = accumulator
        .finish()
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.files[0].display()))?;
    if args.json {
        let mut value = serde_json::to_value(&profile)?;
        if let Some(object) = value.as_object_mut() {
            object.insert("files".into(), Value::Array(files));
            object.insert("skipped_lines".into(), json!(skipped_lines));
        }
        outln!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print_text(&profile, &files, skipped_lines);
    }
    Ok(())
}

fn tokens_line(label: &str, distribution: &Option<TokenDistribution>) -> String {
    match distribution {
        Some(d) => format!(
            "  {label:<18} p50 {:>8.0}   p95 {:>8.0}   p99 {:>8.0}   max {:>8}   mean {:>8.1}",
            d.p50, d.p95, d.p99, d.max, d.mean
        ),
        None => format!("  {label:<18} no successful requests"),
    }
}

fn print_text(profile: &DemandProfile, files: &[Value], skipped_lines: u64) {
    for file in files {
        outln!(
            "{} · {} · {} requests",
            file["file"].as_str().unwrap_or_default(),
            file["format"].as_str().unwrap_or_default(),
            file["records"]
        );
    }
    let o = &profile.outcomes;
    outln!(
        "requests {} · ok {} · failed {} · timed out {} · cancelled {} · truncated {}{}",
        o.requests,
        o.ok,
        o.failed,
        o.timed_out,
        o.cancelled,
        o.truncated,
        if skipped_lines > 0 {
            format!(" · {skipped_lines} malformed lines skipped")
        } else {
            String::new()
        }
    );
    outln!(
        "span {} → {} ({:.1} h)",
        profile.first_start.rfc3339,
        profile.last_end.rfc3339,
        profile.observed_span_s / 3600.0
    );
    outln!(
        "busiest hour from {}: {} arrivals = {:.4} req/s",
        profile.busiest_hour_start.rfc3339,
        profile.busiest_hour_arrivals,
        profile.busiest_hour_arrivals_per_s
    );
    outln!(
        "in flight: peak {} at {} · mean {:.3} (whole log) · {:.3} (busiest hour)",
        profile.peak_in_flight,
        profile.peak_in_flight_at.rfc3339,
        profile.mean_in_flight,
        profile.mean_in_flight_busiest_hour
    );
    outln!("tokens (successful requests):");
    outln!("{}", tokens_line("prompt", &profile.prompt_tokens));
    outln!("{}", tokens_line("answer", &profile.completion_tokens));
    outln!(
        "{}",
        tokens_line("context (p + a)", &profile.context_tokens)
    );
}
