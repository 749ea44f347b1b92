//! An upload checked against the pilot's model and GPU before it is stored.
//!
//! Why: grading leaves out a file of another model or GPU and every page marks it "not
//! comparable" ([`engine::verdict::comparability`]). The upload's check says so first, so a
//! reference run or a file meant for another pilot is seen before it is stored. It runs the
//! check the pages run on the stored row, on the summary about to be stored, so what the check
//! warns and what the pages later mark cannot differ.

use crate::model::{EvidenceKind, Pilot, StartupLogSummary};
use crate::quality::StoredEvalRun;
use crate::traffic::{GatewayLogSummary, MetricsScrapeSummary};
use engine::locale::Lang;
use engine::quality::LmEvalResults;
use engine::verdict::comparability::{FileCheck, FileKind, PilotIdentity, check_file};
use serde::Deserialize;

/// A start-up log's model and GPU against the pilot's (its memory figures belong to the GPU).
pub fn startup_log_check(
    identity: &PilotIdentity,
    file_name: &str,
    summary: &StartupLogSummary,
) -> FileCheck {
    let models: Vec<String> = summary.log.model.iter().cloned().collect();
    let gpu = engine::sizing::gpu_by_id(&summary.settings.gpu_id)
        .map(|g| g.name)
        .unwrap_or_else(|| summary.settings.gpu_id.clone());
    check_file(
        identity,
        FileKind::StartupLog,
        file_name,
        &models,
        Some(gpu.as_str()),
        true,
    )
}

/// The file `file_name` of `kind`, whose summary about to be stored is `summary`, checked
/// against the pilot with the check its kind's pages run; `None` for kinds that belong to no
/// model (an evaluation set) or a summary of another shape.
pub fn check_summary(
    pilot: &Pilot,
    kind: EvidenceKind,
    file_name: &str,
    summary: &serde_json::Value,
) -> Option<FileCheck> {
    let identity = crate::traffic::service::identity(pilot);
    let id = &identity;
    Some(match kind {
        EvidenceKind::LoadTest => {
            crate::load_tests::check::load_test_value_check(id, file_name, summary)
        }
        EvidenceKind::MetricsScrape => {
            let scrape = MetricsScrapeSummary::deserialize(summary).ok()?;
            crate::traffic::service::scrape_check(id, file_name, &scrape)
        }
        EvidenceKind::GatewayLog => {
            let log = GatewayLogSummary::deserialize(summary).ok()?;
            crate::traffic::service::gateway_check(id, file_name, &log.profile)
        }
        EvidenceKind::VllmStartupLog => startup_log_check(
            id,
            file_name,
            &StartupLogSummary::deserialize(summary).ok()?,
        ),
        EvidenceKind::LmEvalResults => {
            let results = LmEvalResults::deserialize(summary).ok()?;
            crate::quality::service::lm_eval_check(id, file_name, &results)
        }
        EvidenceKind::EvalRun => {
            let stored = StoredEvalRun::deserialize(summary).ok()?;
            crate::quality::service::eval_model_check(id, file_name, &stored.run.model)
        }
        EvidenceKind::EvalSet => return None,
    })
}

/// The upload check's warning for a file that is not about the pilot, in English like the
/// check's other warnings.
pub fn warning(check: &FileCheck) -> Option<String> {
    let reason = check.reason_in(Lang::En)?;
    let mut chars = reason.chars();
    let first = chars.next()?.to_uppercase().collect::<String>();
    Some(format!(
        "Not comparable: {first}{}. It can be stored, but its figures grade nothing and every \
         page marks it as not comparable; check that it belongs to this pilot.",
        chars.as_str()
    ))
}

#[cfg(test)]
mod tests {
    use engine::verdict::comparability::{FileKind, PilotIdentity, check_file};

    #[test]
    fn another_models_file_is_a_warning_and_the_pilots_own_is_none() {
        let pilot = PilotIdentity {
            model: "Qwen/Qwen2.5-7B-Instruct".into(),
            gpu: "Tesla V100-SXM2-16GB".into(),
        };
        let other = check_file(
            &pilot,
            FileKind::LoadTest,
            "bench.json",
            &["facebook/opt-125m".into()],
            None,
            true,
        );
        let warning = super::warning(&other).expect("another model");
        assert!(
            warning.starts_with("Not comparable: The load test bench.json"),
            "{warning}"
        );
        assert!(warning.contains("“facebook/opt-125m”"), "{warning}");
        let own = check_file(
            &pilot,
            FileKind::LoadTest,
            "bench.json",
            &["qwen2.5-7b-instruct".into()],
            None,
            true,
        );
        assert_eq!(super::warning(&own), None);
    }
}
