//! The twin on real load tests (testdata/, sources in testdata/SOURCES.md) and the demo pilot.

use super::*;
use crate::ingest::{Import, ImportOptions, import_sweep_with, import_with};
use std::path::PathBuf;

fn testdata(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(path)
}

fn import_file(path: &str) -> Import {
    let p = testdata(path);
    let bytes = std::fs::read(&p).unwrap();
    let options = ImportOptions {
        keep_requests: true,
        keep_itl_lists: false,
        exact_itl_percentiles: true,
    };
    import_with(p.file_name().unwrap().to_str().unwrap(), &bytes, &options).unwrap()
}

fn import_folder(path: &str) -> Import {
    let dir = testdata(path);
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.strip_prefix(&dir).unwrap().to_string_lossy().to_string();
                files.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    import_sweep_with(&files, &ImportOptions::stats_only()).unwrap()
}

/// The points (and their records) of one configuration of an import.
fn configuration(
    import: &Import,
    label: &str,
) -> (
    Vec<crate::ingest::OperatingPoint>,
    Vec<crate::ingest::RequestRecord>,
) {
    let group = configurations(&import.points)
        .into_iter()
        .find(|g| g.label == label)
        .unwrap_or_else(|| panic!("{label} not in {:?}", configurations(&import.points)));
    let points = group
        .points
        .iter()
        .map(|&i| import.points[i].clone())
        .collect();
    let requests = import
        .requests
        .iter()
        .filter_map(|r| {
            let at = group.points.iter().position(|&i| i == r.point)?;
            let mut r = r.clone();
            r.point = at;
            Some(r)
        })
        .collect();
    (points, requests)
}

fn report(name: &str, twin: &Twin) {
    let m = &twin.model;
    eprintln!("== {name}");
    eprintln!(
        "   step {:?} overhead {:.1} ms",
        m.step, m.request_overhead_ms
    );
    eprintln!("   limits {:?}", m.limits);
    eprintln!("   fit error {:?}", m.fit_error_pct);
    for n in &m.notes {
        eprintln!("   note: {n}");
    }
    for mp in &m.measured {
        let run = fit::rerun(m, mp, 2000, 1);
        eprintln!(
            "   in-sample {} {}: ttft p50/p95/p99 {:.0}/{:.0}/{:.0} vs {:?}/{:?}/{:?}; tpot {:.1}/{:.1}/{:.1} vs {:?}/{:?}/{:?}; X {:.2} vs {:.2}",
            mp.scenario.chars().take(20).collect::<String>(),
            mp.load_label(),
            run.ttft_ms.p50,
            run.ttft_ms.p95,
            run.ttft_ms.p99,
            mp.ttft_ms.p50.map(|v| v.round()),
            mp.ttft_ms.p95.map(|v| v.round()),
            mp.ttft_ms.p99.map(|v| v.round()),
            run.tpot_ms.p50,
            run.tpot_ms.p95,
            run.tpot_ms.p99,
            mp.tpot_ms.p50.map(|v| (v * 10.0).round() / 10.0),
            mp.tpot_ms.p95.map(|v| (v * 10.0).round() / 10.0),
            mp.tpot_ms.p99.map(|v| (v * 10.0).round() / 10.0),
            run.request_throughput_per_s,
            mp.request_throughput_per_s
        );
    }
    let b = &twin.backtest;
    eprintln!(
        "   backtest median {:?} max {:?} ttft {:?} tpot {:?} ({} compared) skipped {:?}",
        b.median_abs_error_pct,
        b.max_abs_error_pct,
        b.ttft_median_abs_error_pct,
        b.tpot_median_abs_error_pct,
        b.compared,
        b.skipped
    );
    for p in &b.points {
        let cs: Vec<String> = p
            .comparisons
            .iter()
            .map(|c| {
                format!(
                    "{}.{} {:.0}/{:.0} ({:+.0}%)",
                    c.metric, c.percentile, c.predicted, c.measured, c.error_pct
                )
            })
            .collect();
        eprintln!(
            "   {} {}: {}",
            p.scenario.chars().take(30).collect::<String>(),
            p.load,
            cs.join(", ")
        );
    }
}

#[test]
#[ignore]
fn explore_real_sweeps() {
    let limits = ServingLimits::default();
    let cases: Vec<(&str, Import, Vec<String>)> = vec![
        (
            "akamas",
            import_folder("akamaslabs-aiperf-sweep"),
            vec!["all points".into()],
        ),
        (
            "nerdalert-graphs",
            import_file("nerdalert-vllm-benchmark-graphs/results.json"),
            vec!["framework=vllm".into(), "framework=sgl".into()],
        ),
        (
            "nerdalert-automation",
            import_file("nerdalert-vllm-bench-automation/results.json"),
            vec![
                "deployment=no-features".into(),
                "deployment=base".into(),
                "deployment=kvcache".into(),
            ],
        ),
        (
            "er0080",
            import_folder("er0080-vllm-benchmarking/sweep_v0.25.1"),
            vec!["max_num_seqs=4".into(), "max_num_seqs=8".into()],
        ),
        (
            "lambdalabs",
            import_file("lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.json"),
            vec!["all points".into()],
        ),
        (
            "graz",
            import_file("graz-dev-guidellm/benchmarks.json"),
            vec!["all points".into()],
        ),
        (
            "demo",
            crate::ingest::import(
                crate::loadtest::demo::FILE_NAME,
                crate::loadtest::demo::v100_report_jsonl().as_bytes(),
            )
            .unwrap(),
            vec!["all points".into()],
        ),
    ];
    let only = std::env::var("TWIN_ONLY").ok();
    for (name, import, labels) in cases {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        eprintln!(
            "{name}: configurations {:?}",
            configurations(&import.points)
                .iter()
                .map(|c| &c.label)
                .collect::<Vec<_>>()
        );
        for label in labels {
            let (points, requests) = configuration(&import, &label);
            let started = std::time::Instant::now();
            let built = if std::env::var("TWIN_NO_BACKTEST").is_ok() {
                fit(&points, &requests, &limits).map(|model| Twin {
                    model,
                    backtest: Backtest::default(),
                })
            } else {
                Twin::build(&points, &requests, &limits)
            };
            match built {
                Ok(twin) => {
                    report(
                        &format!("{name} {label} ({:.2} s)", started.elapsed().as_secs_f64()),
                        &twin,
                    );
                }
                Err(e) => eprintln!("{name} {label}: {e}"),
            }
        }
    }
}
