//! The back-test of the capacity twin on public runs of two GPUs (issue #39, item 4):
//! `engine/src/twin/VALIDATION.md` and the figures `engine::twin::validation::summary` serves
//! must be what the harness computes from `testdata/gpu-validation/runs.json`, and the errors
//! must stay under the bounds held here.
//!
//! `UPDATE_VALIDATION=1 cargo test -p engine --test gpu_validation` rewrites both files.

use engine::twin::validation::{ValidatedMetric, ValidationReport, back_test, summary};
use std::path::PathBuf;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The back-test, run once for every test of this file.
fn report() -> &'static ValidationReport {
    static REPORT: OnceLock<ValidationReport> = OnceLock::new();
    REPORT.get_or_init(|| {
        let runs = root().join("../testdata/gpu-validation/runs.json");
        let text = std::fs::read_to_string(&runs).expect("testdata/gpu-validation/runs.json");
        back_test(&text).expect("runs.json parses")
    })
}

/// Writes `text` to `path` under UPDATE_VALIDATION=1, else fails when the file differs.
fn check_or_write(path: &str, text: &str) {
    let path = root().join(path);
    if std::env::var_os("UPDATE_VALIDATION").is_some() {
        std::fs::write(&path, text).expect("write");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{} is stale: run `UPDATE_VALIDATION=1 cargo test -p engine --test gpu_validation`",
        path.display()
    );
}

#[test]
fn the_document_and_the_served_figures_are_what_the_back_test_computes() {
    let report = report();
    check_or_write("src/twin/VALIDATION.md", &report.markdown());
    check_or_write("src/twin/validation_figures.rs", &report.figures_source());
    if std::env::var_os("UPDATE_VALIDATION").is_none() {
        assert_eq!(summary(), report.summary());
    }
}

/// Upper bounds on the overall back-tested errors, % (median, worst), and the lowest share of
/// measured values inside the stated (calibrated) range and inside the range calibrated on the
/// other half of the GPU pairs only, %: what the back-test measured when they were set,
/// loosened by 5 points. Issue #39's aims are tighter (TTFT p50 within 40 %, TPOT p50 within
/// 25 %, 80 % inside the range); VALIDATION.md says which are missed. A model change that makes
/// a figure worse than its bound fails here; one that improves it should tighten the bound.
const BOUNDS: [(ValidatedMetric, f64, f64, f64, f64); 4] = [
    (ValidatedMetric::TtftP50, 44.6, 41977.6, 76.5, 68.4),
    (ValidatedMetric::TtftP99, 54.4, 3078.8, 75.6, 61.1),
    (ValidatedMetric::TpotP50, 38.6, 782.2, 80.5, 75.6),
    (ValidatedMetric::TpotP99, 43.2, 770.3, 80.0, 64.0),
];

#[test]
fn the_back_tested_errors_stay_under_their_bounds() {
    let overall = report().overall();
    assert_eq!(overall.len(), BOUNDS.len());
    for (metric, median, worst, inside, held_out) in BOUNDS {
        let m = overall.iter().find(|m| m.metric == metric).unwrap();
        assert!(m.points >= 100 && m.pairs >= 3, "{m:?}");
        assert!(m.median_error_pct <= median, "{m:?} above {median}");
        assert!(m.worst_error_pct <= worst, "{m:?} above {worst}");
        assert!(m.range_contains_pct >= inside, "{m:?} below {inside}");
        assert!(
            m.held_out_range_contains_pct >= held_out,
            "{m:?} held out below {held_out}"
        );
    }
}
