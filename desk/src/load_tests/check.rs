//! A stored load test checked against the pilot's model and GPU, from its stored summary.
//!
//! Grading ([`crate::pilot_evidence`]), the load-test pages ([`super::service`]) and the
//! capacity twin ([`crate::predict::service`]) all leave out or mark another model's or GPU's
//! run, so the check lives here, below all three.

use engine::verdict::comparability::{FileCheck, FileKind, PilotIdentity, check_file};

/// What a load-test file says about its model: the points' models (read from the stored
/// import), else the run context's served model name or model argument.
#[derive(serde::Deserialize, Default)]
pub(crate) struct StoredPoints {
    #[serde(default)]
    pub points: Vec<StoredPoint>,
}

#[derive(serde::Deserialize, Default)]
pub(crate) struct StoredPoint {
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub settings: std::collections::BTreeMap<String, String>,
}

/// The models a load-test file states: its points' models, else the run context's served
/// model name or model argument.
pub(crate) fn models_of(
    points: &StoredPoints,
    context: &engine::run_context::RunContext,
) -> Vec<String> {
    let mut models: Vec<String> = Vec::new();
    for m in points.points.iter().filter_map(|p| p.model.clone()) {
        if !models.contains(&m) {
            models.push(m);
        }
    }
    if models.is_empty() {
        models.extend(context.served_model_name.clone());
        models.extend(context.model.clone());
    }
    models
}

/// A stored load test (its file and summary JSON) checked against the pilot, as
/// [`crate::pilot_evidence::gather`] checks it: for readers that fit on the stored rows (the capacity twin), which must leave
/// out another model's or GPU's runs just as grading does.
pub(crate) fn load_test_check(
    identity: &PilotIdentity,
    file_name: &str,
    summary: &str,
) -> FileCheck {
    let points: StoredPoints = serde_json::from_str(summary).unwrap_or_default();
    let context = serde_json::from_str::<crate::load_tests::LoadTestSummary>(summary)
        .ok()
        .and_then(|s| s.run_context)
        .unwrap_or_default();
    checked(identity, file_name, &points, &context)
}

/// [`load_test_check`] of a summary about to be stored, still a JSON value (the upload's check).
pub(crate) fn load_test_value_check(
    identity: &PilotIdentity,
    file_name: &str,
    summary: &serde_json::Value,
) -> FileCheck {
    use serde::Deserialize;
    let points = StoredPoints::deserialize(summary).unwrap_or_default();
    let context = crate::load_tests::LoadTestSummary::deserialize(summary)
        .ok()
        .and_then(|s| s.run_context)
        .unwrap_or_default();
    checked(identity, file_name, &points, &context)
}

fn checked(
    identity: &PilotIdentity,
    file_name: &str,
    points: &StoredPoints,
    context: &engine::run_context::RunContext,
) -> FileCheck {
    check_file(
        identity,
        FileKind::LoadTest,
        file_name,
        &models_of(points, context),
        context.gpu.as_deref(),
        true,
    )
}
