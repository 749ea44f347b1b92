//! Folders of runs: a `vllm bench sweep serve` output directory or an AIPerf sweep
//! (`concurrency_16/profile_export_aiperf.json`, …), uploaded as (relative path, bytes) pairs.
//!
//! Decisions:
//! * Every file is detected on its own; each recognised result adds its points. Files that are
//!   not load-test results (logs, `/metrics` scrapes, AIPerf's `sweep_aggregate`) are skipped
//!   with a warning, but a recognised file that is broken fails the whole import: a sweep with
//!   a silently missing point would misstate the capacity.
//! * Duplicates are avoided: a vLLM `summary.json` repeats its folder's `run=k.json` files and is
//!   used only when they are absent; an AIPerf `profile_export.jsonl` or CSV is used only when
//!   the same folder has no `profile_export_aiperf.json`.
//! * Points are ordered by natural path order (`concurrency_16` before `concurrency_128`).
//! * vLLM sweep folder names (`SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8`)
//!   become settings `sweep.serve.max_num_seqs = 4`, `sweep.bench.max_concurrency = 2`, …
//! * One folder holds one tool's results; a mix is an error.

use super::ImportOptions;
use super::error::{Ctx, ErrorKind};
use super::json::Result;
use super::model::{Format, Import};
use std::cmp::Ordering;
use std::collections::BTreeSet;

fn split_path(path: &str) -> (&str, &str) {
    let path = path.trim_start_matches("./");
    match path.rfind(['/', '\\']) {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("", path),
    }
}

/// Compares paths so that runs of digits compare by value.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let xl = x.iter().take_while(|b| b.is_ascii_digit()).count();
                let yl = y.iter().take_while(|b| b.is_ascii_digit()).count();
                let xs = std::str::from_utf8(&x[..xl])
                    .unwrap_or("0")
                    .trim_start_matches('0');
                let ys = std::str::from_utf8(&y[..yl])
                    .unwrap_or("0")
                    .trim_start_matches('0');
                let ord = xs.len().cmp(&ys.len()).then_with(|| xs.cmp(ys));
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[xl..];
                y = &y[yl..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

/// `SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8` →
/// `[("serve.max_num_seqs","4"), ("bench.max_concurrency","2"), ("bench.num_prompts","8")]`.
pub(crate) fn sweep_params(dir_name: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(rest) = dir_name.strip_prefix("SERVE--") else {
        return out;
    };
    let (serve, bench) = match rest.find("-BENCH--") {
        Some(i) => (&rest[..i], Some(&rest[i + "-BENCH--".len()..])),
        None => (rest, None),
    };
    for (side, part) in [("serve", Some(serve)), ("bench", bench)] {
        let Some(part) = part else { continue };
        let mut pieces: Vec<String> = Vec::new();
        for piece in part.split('-') {
            match pieces.last_mut() {
                Some(last) if !piece.contains('=') => {
                    last.push('-');
                    last.push_str(piece);
                }
                _ => pieces.push(piece.to_string()),
            }
        }
        for piece in pieces {
            if let Some((k, v)) = piece.split_once('=') {
                out.push((format!("{side}.{k}"), v.to_string()));
            }
        }
    }
    out
}

/// Imports every result in a folder upload (see the module docs).
pub(crate) fn import_folder(files: &[(String, Vec<u8>)], opts: &ImportOptions) -> Result<Import> {
    let folder_ctx = Ctx::new("(folder)");
    if files.is_empty() {
        return Err(folder_ctx.err(ErrorKind::Empty, None, "the folder has no files"));
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| natural_cmp(&files[a].0, &files[b].0));

    // First pass: what is in each directory.
    let mut detected: Vec<Option<Format>> = vec![None; files.len()];
    let mut warnings: Vec<String> = Vec::new();
    for &i in &order {
        let (path, bytes) = &files[i];
        match super::detect(path, bytes) {
            Ok(f) => detected[i] = Some(f),
            Err(e) if matches!(e.kind, ErrorKind::UnknownFormat | ErrorKind::Empty) => {
                warnings.push(super::words::skipped(path, &e.message));
            }
            Err(e) => return Err(e),
        }
    }
    let dirs_with = |wanted: &dyn Fn(Format, &str) -> bool| -> BTreeSet<String> {
        order
            .iter()
            .filter_map(|&i| {
                let (dir, name) = split_path(&files[i].0);
                detected[i]
                    .filter(|f| wanted(*f, name))
                    .map(|_| dir.to_string())
            })
            .collect()
    };
    let vllm_run_dirs = dirs_with(&|f, _| f == Format::VllmBench);
    let aiperf_summary_dirs = dirs_with(&|f, _| f == Format::AiperfJson);

    let mut out: Option<Import> = None;
    let mut tools: BTreeSet<&'static str> = BTreeSet::new();
    let mut versions: BTreeSet<Option<String>> = BTreeSet::new();
    let mut layouts: Vec<String> = Vec::new();
    for &i in &order {
        let Some(format) = detected[i] else { continue };
        let (path, bytes) = &files[i];
        let (dir, _) = split_path(path);
        let duplicate = match format {
            Format::VllmSweepSummary => vllm_run_dirs.contains(dir),
            Format::AiperfJsonl | Format::AiperfCsv => aiperf_summary_dirs.contains(dir),
            _ => false,
        };
        if duplicate {
            warnings.push(super::words::skipped_same_runs(path));
            continue;
        }
        let mut part = super::import_with(path, bytes, opts)?;
        tools.insert(format.tool());
        versions.insert(part.tool_version.clone());
        if !layouts.contains(&part.layout) {
            layouts.push(part.layout.clone());
        }
        let dir_name = split_path(dir).1;
        for point in &mut part.points {
            if !dir.is_empty() {
                point.settings.insert("folder".to_string(), dir.to_string());
            }
            for (k, v) in sweep_params(dir_name) {
                point.settings.insert(format!("sweep.{k}"), v);
            }
        }
        match &mut out {
            None => out = Some(part),
            Some(acc) => {
                let offset = acc.points.len();
                for r in &mut part.requests {
                    r.point += offset;
                }
                acc.points.append(&mut part.points);
                acc.requests.append(&mut part.requests);
                acc.warnings.append(&mut part.warnings);
            }
        }
    }
    if tools.len() > 1 {
        let list: Vec<&str> = tools.into_iter().collect();
        return Err(folder_ctx.err(
            ErrorKind::InvalidValue,
            None,
            format!(
                "the folder mixes results of {}; upload each tool's results separately",
                list.join(" and ")
            ),
        ));
    }
    let Some(mut import) = out else {
        return Err(folder_ctx.err(
            ErrorKind::UnknownFormat,
            None,
            format!(
                "no load-test result found among {} files ({})",
                files.len(),
                warnings.join("; ")
            ),
        ));
    };
    import.format = match import.format.tool() {
        t if t == Format::VllmBench.tool() => Format::VllmSweep,
        t if t == Format::AiperfJson.tool() => Format::AiperfSweep,
        _ => import.format,
    };
    import.tool_version = if versions.len() == 1 {
        versions.into_iter().next().flatten()
    } else {
        None
    };
    import.layout = format!(
        "{}{}{}",
        super::words::folder_of(import.points.len()),
        super::words::PIECES,
        layouts.join(super::words::VARIANTS)
    );
    warnings.append(&mut import.warnings);
    import.warnings = warnings;
    Ok(import)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_compares_numbers_by_value() {
        let mut v = vec![
            "concurrency_768/x",
            "concurrency_16/x",
            "concurrency_128/x",
            "run=10.json",
            "run=9.json",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            vec![
                "concurrency_16/x",
                "concurrency_128/x",
                "concurrency_768/x",
                "run=9.json",
                "run=10.json"
            ]
        );
    }

    #[test]
    fn sweep_folder_names_become_parameters() {
        assert_eq!(
            sweep_params("SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8"),
            vec![
                ("serve.max_num_seqs".to_string(), "4".to_string()),
                ("bench.max_concurrency".to_string(), "2".to_string()),
                ("bench.num_prompts".to_string(), "8".to_string()),
            ]
        );
        assert_eq!(
            sweep_params("SERVE--model=org/m-7b-BENCH--request_rate=-1"),
            vec![
                ("serve.model".to_string(), "org/m-7b".to_string()),
                ("bench.request_rate".to_string(), "-1".to_string()),
            ]
        );
        assert!(sweep_params("concurrency_16").is_empty());
    }
}
