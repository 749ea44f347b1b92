//! Server-side quality evidence, shared by the upload route, the REST API and the demo.
use super::*;
use crate::ServiceError;
use crate::Services;
use crate::model::{EvidenceKind, Pilot};
use engine::plan::PassMark;
use engine::quality::{
    DEFAULT_PASS_SCORE, DecisionInput, QualityError, compare_runs, decide_precision, grade_quality,
    hit_at_k, parse_run_csv, parse_run_jsonl, parse_set_csv, parse_set_jsonl, score_run,
};
use engine::verdict::MarkGrade;

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "quality evidence failed");
    ServiceError::Internal
}

/// A quality file's refusal in English (its `Display`) and German: the file, line and field as
/// the reader named them, the kind of problem in German, and the reader's own detail (English:
/// it quotes the file's columns and values) after it.
fn invalid(error: QualityError) -> ServiceError {
    use engine::quality::QualityErrorKind as Kind;
    let kind = match error.kind {
        Kind::Empty => "die Datei hat keine Zeilen",
        Kind::Syntax => "kein wohlgeformtes CSV oder JSON",
        Kind::MissingField => "eine Pflichtspalte fehlt oder ist leer",
        Kind::WrongType => "ein Wert hat den falschen Typ",
        Kind::InvalidValue => "ein unmöglicher Wert",
        Kind::DuplicateId => "dieselbe ID steht in zwei Zeilen",
        Kind::UnknownId => "eine ID, die der Evaluationsdatensatz nicht hat",
    };
    ServiceError::invalid_in(
        error.to_string(),
        format!(
            "{}{kind} ({})",
            crate::error::file_place_de(&error.file, error.line, error.field.as_deref()),
            error.message
        ),
    )
}

/// Whether a file is JSON Lines rather than CSV: by its extension, else by its first
/// character.
fn is_jsonl(file_name: &str, text: &str) -> bool {
    let lower = file_name.to_ascii_lowercase();
    if lower.ends_with(".csv") {
        return false;
    }
    if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") || lower.ends_with(".json") {
        return true;
    }
    text.trim_start().starts_with('{')
}

/// Reads an evaluation set (CSV or JSON Lines).
pub fn parse_set(file_name: &str, text: &str) -> Result<EvalSet, ServiceError> {
    if is_jsonl(file_name, text) {
        parse_set_jsonl(file_name, text)
    } else {
        parse_set_csv(file_name, text)
    }
    .map_err(invalid)
}

/// Reads a run's rows (CSV or JSON Lines) against `set`; the configuration is left empty.
pub fn parse_run(file_name: &str, text: &str, set: &EvalSet) -> Result<EvalRun, ServiceError> {
    if is_jsonl(file_name, text) {
        parse_run_jsonl(file_name, text, set)
    } else {
        parse_run_csv(file_name, text, set)
    }
    .map_err(invalid)
}

/// Reads an lm-evaluation-harness result file.
pub fn parse_lm_eval(file_name: &str, text: &str) -> Result<LmEvalResults, ServiceError> {
    engine::quality::parse_lm_eval_results(file_name, text).map_err(invalid)
}

/// Whether a JSON text looks like an lm-evaluation-harness result file: an object with
/// `results` and `config` or `versions`.
pub fn looks_like_lm_eval(text: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(map)) => {
            map.get("results").is_some_and(|r| r.is_object())
                && (map.contains_key("config") || map.contains_key("versions"))
        }
        _ => false,
    }
}

/// A run's serving configuration from the upload's form fields; blank fields are taken
/// from the pilot (`kv_precision`: `auto`); `weights_precision` is required.
pub fn run_config(
    field: impl Fn(&str) -> String,
    pilot: &Pilot,
    mut run: EvalRun,
) -> Result<EvalRun, ServiceError> {
    let pick = |name: &str, default: &str| {
        let value = field(name).trim().to_string();
        if value.is_empty() {
            default.trim().to_string()
        } else {
            value
        }
    };
    run.weights_precision = pick("weights_precision", "");
    if run.weights_precision.is_empty() {
        return Err(ServiceError::invalid_in(
            "weights_precision: say which precision the run served in (BF16, FP16, FP8, AWQ-INT4, …)",
            "weights_precision: Geben Sie an, in welcher Präzision der Lauf lief (BF16, FP16, FP8, AWQ-INT4, …)",
        ));
    }
    run.model = pick("model", &pilot.model);
    if run.model.is_empty() {
        return Err(ServiceError::invalid_in(
            "model: name the model the run used",
            "model: Nennen Sie das Modell, das der Lauf verwendet hat",
        ));
    }
    run.kv_precision = pick("kv_precision", "auto");
    run.engine = pick("engine", &pilot.engine);
    run.engine_version = pick("engine_version", &pilot.engine_version);
    run.gpu = pick("gpu", &pilot.gpu_type);
    Ok(run)
}

/// The set a run uploaded now is read against (see [`run_set_version`]).
#[derive(Clone, Debug)]
pub struct RunSet {
    /// `None`: a set stored before versions existed.
    pub version: Option<u32>,
    pub approved: bool,
    pub evidence_id: Option<i64>,
    pub set: EvalSet,
}

/// The version runs are read against: the latest approved one, else the open draft.
pub fn run_set_version(versions: &[EvalSetVersion]) -> Option<u32> {
    versions
        .iter()
        .filter(|v| v.approved)
        .map(|v| v.number)
        .max()
        .or_else(|| versions.iter().find(|v| !v.approved).map(|v| v.number))
}

/// The set a run uploaded now is read against: the latest approved version, else the open
/// draft (which the run's upload then approves), else a set file stored before versions.
pub async fn set_for_runs(
    services: &Services,
    pilot_id: i64,
) -> Result<Option<RunSet>, ServiceError> {
    let versions = services.store.eval_set_versions(pilot_id).await?;
    if let Some(number) = run_set_version(&versions) {
        let v = versions
            .into_iter()
            .find(|v| v.number == number)
            .ok_or(ServiceError::Internal)?;
        return Ok(Some(RunSet {
            version: Some(v.number),
            approved: v.approved,
            evidence_id: v.evidence_id,
            set: v.set,
        }));
    }
    Ok(latest_set(services, pilot_id)
        .await?
        .map(|(file, set)| RunSet {
            version: None,
            approved: true,
            evidence_id: Some(file.id),
            set,
        }))
}

/// The pilot's latest uploaded set file (sets stored before versions).
pub async fn latest_set(
    services: &Services,
    pilot_id: i64,
) -> Result<Option<(EvidenceFile, EvalSet)>, ServiceError> {
    let Some((file, summary)) =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::EvalSet))
            .await?
            .into_iter()
            .next()
    else {
        return Ok(None);
    };
    let set = serde_json::from_str(&summary).map_err(internal)?;
    Ok(Some((file, set)))
}

/// The stored form of a run read against `set`.
pub fn stored_run(set: Option<&RunSet>, run: EvalRun) -> StoredEvalRun {
    StoredEvalRun {
        set_evidence_id: set.and_then(|s| s.evidence_id).unwrap_or(0),
        set_version: set.and_then(|s| s.version),
        run,
    }
}

/// An evidence file just stored, as [`after_upload`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct QualityUpload<'a> {
    pub pilot_id: i64,
    pub kind: EvidenceKind,
    pub evidence_id: i64,
    pub file_name: &'a str,
    pub summary_json: &'a str,
    /// The set a run was read against.
    pub run_set: Option<&'a RunSet>,
    /// Who uploaded it.
    pub user_id: i64,
}

/// What an uploaded quality file does besides being evidence: a set file becomes the open
/// draft version (a new version, or replacing the open draft); a run read against a draft
/// approves (freezes) it. Returns a note for the uploader.
pub async fn after_upload(
    services: &Services,
    upload: &QualityUpload<'_>,
) -> Result<Option<String>, ServiceError> {
    let QualityUpload {
        pilot_id,
        kind,
        evidence_id,
        file_name,
        summary_json,
        run_set,
        user_id,
    } = *upload;
    match kind {
        EvidenceKind::EvalSet => {
            let set: EvalSet = serde_json::from_str(summary_json).map_err(internal)?;
            let number =
                record_set_upload(services, pilot_id, evidence_id, file_name, &set, user_id)
                    .await?;
            Ok(Some(format!(
                "stored as draft version {number} of the evaluation set: runs are read against it once it is approved, or right away if no version is approved yet"
            )))
        }
        EvidenceKind::EvalRun => {
            let Some(RunSet {
                version: Some(number),
                approved,
                ..
            }) = run_set
            else {
                return Ok(None);
            };
            if !approved {
                services
                    .store
                    .approve_eval_set_version(pilot_id, *number, None, user_id)
                    .await?;
                return Ok(Some(format!(
                    "read against evaluation set version {number}, which is now approved and frozen"
                )));
            }
            Ok(Some(format!(
                "read against evaluation set version {number}"
            )))
        }
        _ => Ok(None),
    }
}

/// Makes an uploaded set the open draft: replaces the open draft's items, or starts the next
/// version. Returns the version number.
pub async fn record_set_upload(
    services: &Services,
    pilot_id: i64,
    evidence_id: i64,
    file_name: &str,
    set: &EvalSet,
    user_id: i64,
) -> Result<u32, ServiceError> {
    use crate::store::plans::DraftWrite;
    let source = format!("upload of {file_name} (evidence #{evidence_id})");
    let versions = services.store.eval_set_versions(pilot_id).await?;
    if let Some(draft) = versions.iter().find(|v| !v.approved) {
        match services
            .store
            .update_eval_set_draft(
                pilot_id,
                draft.number,
                None,
                set,
                &source,
                Some(evidence_id),
            )
            .await?
        {
            DraftWrite::Done(_) => return Ok(draft.number),
            _ => {
                return Err(ServiceError::conflict_in(
                    "the evaluation set changed meanwhile; upload again",
                    "der Evaluationsdatensatz hat sich inzwischen geändert; laden Sie erneut hoch",
                ));
            }
        }
    }
    let number = versions.last().map_or(1, |v| v.number + 1);
    services
        .store
        .insert_eval_set_version(
            pilot_id,
            number,
            set,
            &source,
            Some(evidence_id),
            Some(user_id),
        )
        .await?;
    Ok(number)
}

/// Whether `user` may edit the pilot's evaluation set (staff who may edit the pilot; customers
/// get 404).
pub async fn set_editor(
    services: &Services,
    user: &crate::model::SessionUser,
    pilot_id: i64,
) -> Result<(), ServiceError> {
    crate::auth::editable_pilot(&services.store, user, pilot_id).await?;
    Ok(())
}

pub fn frozen(version: u32) -> ServiceError {
    ServiceError::conflict_in(
        format!(
            "Version {version} of the evaluation set is approved and frozen: start a new version to change it."
        ),
        format!(
            "Version {version} des Evaluationsdatensatzes ist freigegeben und eingefroren: Beginnen Sie eine neue Version, um ihn zu ändern."
        ),
    )
}

pub fn draft_write(
    result: crate::store::plans::DraftWrite,
    version: u32,
) -> Result<(), ServiceError> {
    use crate::store::plans::DraftWrite;
    match result {
        DraftWrite::Done(_) => Ok(()),
        DraftWrite::Frozen => Err(frozen(version)),
        DraftWrite::Stale => Err(ServiceError::conflict_in(
            "The draft was saved by someone else since this page was loaded; reload the page and make the change again.",
            "Der Entwurf wurde seit dem Laden dieser Seite von jemand anderem gespeichert; laden Sie die Seite neu und nehmen Sie die Änderung noch einmal vor.",
        )),
        DraftWrite::Missing => Err(ServiceError::NotFound),
    }
}

/// A refused row of the evaluation-set editor ([`EvalSet::with_item`]'s English, `row 3, id: …`)
/// in English and German.
pub fn row_refused(message: String) -> ServiceError {
    let de = message
        .replacen("row ", "Zeile ", 1)
        .replace(
            ": there is no such row; reload the page",
            ": Diese Zeile gibt es nicht; laden Sie die Seite neu",
        )
        .replace(", accepted answer: ", ", akzeptierte Antwort: ")
        .replace(", question: ", ", Frage: ")
        .replace(": the value is blank", ": Der Wert ist leer")
        .replace(
            ": at most 100 characters, without | or control characters",
            ": höchstens 100 Zeichen, ohne | oder Steuerzeichen",
        )
        .replace(
            "\" is already the id of row ",
            "\" ist bereits die ID von Zeile ",
        );
    ServiceError::invalid_in(message, de)
}

/// `""` → `None` (append, when `allow_new`); a number → that 0-based row, if it exists.
pub fn row_index(text: &str, len: usize, allow_new: bool) -> Result<Option<usize>, ServiceError> {
    match text.trim() {
        "" | "new" if allow_new => Ok(None),
        text => match text.parse::<usize>() {
            Ok(i) if i < len => Ok(Some(i)),
            _ => Err(ServiceError::invalid_in(
                format!("index: there is no row {text}; reload the page"),
                format!("index: Zeile {text} gibt es nicht; laden Sie die Seite neu"),
            )),
        },
    }
}

/// Changes draft `version` at `revision` through `change`.
pub async fn edit_set_draft(
    services: &Services,
    user: &crate::model::SessionUser,
    draft: (i64, u32, i64),
    change: impl FnOnce(&EvalSet) -> Result<EvalSet, ServiceError>,
) -> Result<(), ServiceError> {
    let (pilot_id, version, revision) = draft;
    set_editor(services, user, pilot_id).await?;
    let versions = services.store.eval_set_versions(pilot_id).await?;
    let record = versions
        .iter()
        .find(|v| v.number == version)
        .ok_or(ServiceError::NotFound)?;
    if record.approved {
        return Err(frozen(version));
    }
    if record.revision != revision {
        return draft_write(crate::store::plans::DraftWrite::Stale, version);
    }
    let set = change(&record.set)?;
    let source = if record.source.ends_with("edited on the page") {
        record.source.clone()
    } else if record.source.is_empty() {
        "edited on the page".to_string()
    } else {
        format!("{}, edited on the page", record.source)
    };
    draft_write(
        services
            .store
            .update_eval_set_draft(
                pilot_id,
                version,
                Some(revision),
                &set,
                &source,
                record.evidence_id,
            )
            .await?,
        version,
    )
}

/// Parses an empty or numeric run choice.
pub fn parse_run_choice(field: &str, text: &str) -> Result<Option<i64>, ServiceError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| {
        ServiceError::invalid_in(
            format!("{field}: `{text}` is not an evidence number"),
            format!("{field}: `{text}` ist keine Nachweisnummer"),
        )
    })
}

/// The pilot's quality evidence, scored.
pub async fn overview(
    services: &Services,
    pilot_id: i64,
    a: Option<i64>,
    b: Option<i64>,
) -> Result<QualityReport, ServiceError> {
    let sets: Vec<(EvidenceFile, EvalSet)> =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::EvalSet))
            .await?
            .into_iter()
            .map(|(file, summary)| Ok((file, serde_json::from_str(&summary).map_err(internal)?)))
            .collect::<Result<_, ServiceError>>()?;
    let stored: Vec<(EvidenceFile, StoredEvalRun)> =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::EvalRun))
            .await?
            .into_iter()
            .map(|(file, summary)| Ok((file, serde_json::from_str(&summary).map_err(internal)?)))
            .collect::<Result<_, ServiceError>>()?;
    let identity = match services.store.pilot(pilot_id).await? {
        Some(pilot) => crate::traffic::service::identity(&pilot),
        None => Default::default(),
    };
    let lm_eval =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::LmEvalResults))
            .await?
            .into_iter()
            .map(|(evidence, summary)| {
                let results: LmEvalResults = serde_json::from_str(&summary).map_err(internal)?;
                let check = lm_eval_check(&identity, &evidence.file_name, &results);
                Ok(LmEvalView {
                    evidence,
                    results,
                    check,
                })
            })
            .collect::<Result<Vec<_>, ServiceError>>()?;
    let plan = services.store.plan_in_force(pilot_id).await?;
    let plan_k = plan
        .as_ref()
        .and_then(|plan| plan.content.quality.hit_k)
        .filter(|k| *k > 0)
        .map(|k| k as usize);
    let marks = plan.map(|plan| plan.content.pass_marks).unwrap_or_default();
    let versions = services.store.eval_set_versions(pilot_id).await?;
    let current = run_set_version(&versions);
    let version_set = |n: u32| versions.iter().find(|v| v.number == n).map(|v| &v.set);
    let set_of = |run: &StoredEvalRun| {
        run.set_version
            .and_then(version_set)
            .or_else(|| {
                sets.iter()
                    .find(|(file, _)| file.id == run.set_evidence_id)
                    .map(|(_, set)| set)
            })
            .or_else(|| current.and_then(version_set))
            .or(sets.first().map(|(_, set)| set))
    };
    let empty = EvalSet::default();
    let pass_score = DEFAULT_PASS_SCORE;
    let runs: Vec<RunView> = stored
        .iter()
        .map(|(file, s)| {
            let set = set_of(s).unwrap_or(&empty);
            let k = plan_k.unwrap_or_else(|| run_depth(&s.run));
            RunView {
                evidence: file.clone(),
                set_evidence_id: s.set_evidence_id,
                set_version: s.set_version,
                model: s.run.model.clone(),
                weights_precision: s.run.weights_precision.clone(),
                kv_precision: s.run.kv_precision.clone(),
                engine: s.run.engine.clone(),
                engine_version: s.run.engine_version.clone(),
                gpu: s.run.gpu.clone(),
                k,
                scores: score_run(set, &s.run, k, pass_score),
            }
        })
        .collect();
    let find = |field: &str, id: i64| {
        stored
            .iter()
            .position(|(file, _)| file.id == id)
            .ok_or_else(|| {
                ServiceError::invalid_in(
                    format!("{field}: no evaluation run #{id} on this pilot"),
                    format!("{field}: kein Evaluationslauf #{id} auf diesem Piloten"),
                )
            })
    };
    let chosen = match (a, b) {
        (Some(a), Some(b)) => Some((find("a", a)?, find("b", b)?)),
        (Some(a), None) => {
            let a = find("a", a)?;
            (0..stored.len()).find(|i| *i != a).map(|b| (a, b))
        }
        (None, Some(b)) => {
            let b = find("b", b)?;
            (0..stored.len()).find(|i| *i != b).map(|a| (a, b))
        }
        (None, None) if stored.len() >= 2 => Some((1, 0)),
        (None, None) => None,
    };
    let comparison = chosen.map(|(ia, ib)| {
        let (ra, rb) = (&stored[ia], &stored[ib]);
        ComparisonView {
            a: ra.0.id,
            a_label: runs[ia].label(),
            b: rb.0.id,
            b_label: runs[ib].label(),
            same_set: ra.1.set_version == rb.1.set_version
                && (ra.1.set_version.is_some() || ra.1.set_evidence_id == rb.1.set_evidence_id),
            comparison: compare_runs(&ra.1.run, &rb.1.run, pass_score),
        }
    });
    let drill = chosen
        .map(|(_, ib)| ib)
        .or((!stored.is_empty()).then_some(0));
    let items = drill
        .map(|i| {
            let (_, s) = &stored[i];
            let set = set_of(s).unwrap_or(&empty);
            item_rows(set, &s.run, runs[i].k, pass_score)
        })
        .unwrap_or_default();
    let set = match current.and_then(|n| versions.iter().find(|v| v.number == n)) {
        Some(v) => Some(SetView {
            version: Some(v.number),
            approved: v.approved,
            evidence: sets
                .iter()
                .find(|(file, _)| Some(file.id) == v.evidence_id)
                .map(|(file, _)| file.clone()),
            source: v.source.clone(),
            questions: v.set.items.len(),
        }),
        None => sets.first().map(|(evidence, set)| SetView {
            version: None,
            approved: true,
            evidence: Some(evidence.clone()),
            source: format!("upload of {}", evidence.file_name),
            questions: set.items.len(),
        }),
    };
    // Runs of another model than the pilot's are shown, never graded.
    let decision_runs: Vec<DecisionInput> = runs
        .iter()
        .filter(|r| current.is_none() || r.set_version == current)
        .map(|r| DecisionInput {
            id: r.evidence.id,
            model: r.model.clone(),
            precision: r.weights_precision.clone(),
            kv_precision: r.kv_precision.clone(),
            scores: r.scores.clone(),
            not_comparable: eval_run_check(&identity, r).not_comparable,
        })
        .collect();
    let decision = decide_precision(&decision_runs, &marks);
    Ok(QualityReport {
        set,
        decision,
        draft_version: versions.iter().find(|v| !v.approved).map(|v| v.number),
        can_edit: false,
        pass_score,
        k_source: if plan_k.is_some() {
            "the plan's hit_k".into()
        } else {
            "the run's depth: the most passages retrieved for one question".into()
        },
        runs,
        comparison,
        drill_down_run: drill.map(|i| stored[i].0.id),
        items,
        lm_eval,
    })
}

/// The most passages the run retrieved for one question (at least 1).
fn run_depth(run: &EvalRun) -> usize {
    run.items
        .iter()
        .map(|item| item.retrieved.len())
        .max()
        .unwrap_or(0)
        .max(1)
}

/// The drill-down rows of a run, in the set's order.
pub fn item_rows(set: &EvalSet, run: &EvalRun, k: usize, pass_score: f64) -> Vec<ItemRow> {
    set.items
        .iter()
        .map(|item| {
            let row = run.get(&item.id);
            ItemRow {
                id: item.id.clone(),
                question: item.question.clone(),
                accepted_answer: item.accepted_answer.clone(),
                accepted_passages: item.accepted_passages.clone(),
                answer: row.map(|r| r.answer.clone()),
                retrieved: row.map(|r| r.retrieved.clone()).unwrap_or_default(),
                value: row.and_then(|r| r.value()),
                right: row.and_then(|r| r.is_right(pass_score)),
                hit: row.and_then(|r| {
                    (!item.accepted_passages.is_empty())
                        .then(|| hit_at_k(&item.accepted_passages, &r.retrieved, k))
                }),
                truncated: row.is_some_and(|r| r.truncated()),
            }
        })
        .collect()
}

/// The quality marks of `marks` (answer score, retrieval hit rate, truncation rate) graded
/// against a run; empty when there are none.
pub fn grade_run(marks: &[PassMark], run: &RunView) -> Vec<(PassMark, MarkGrade)> {
    grade_quality(marks, &run.scores)
}

/// The pilot's precision decision: the runs of the set version runs are read against,
/// graded against the quality marks of the plan in force (see
/// [`engine::quality::decide_precision`] for the rule).
pub async fn precision_decision(
    services: &Services,
    pilot_id: i64,
) -> Result<PrecisionDecision, ServiceError> {
    Ok(overview(services, pilot_id, None, None).await?.decision)
}

/// Parses and stores an evaluation set as evidence (the demo; uploads go through the REST
/// route).
pub async fn store_set(
    services: &Services,
    pilot_id: i64,
    file_name: &str,
    text: &str,
    uploaded_by: i64,
) -> Result<i64, ServiceError> {
    let set = parse_set(file_name, text)?;
    let summary = serde_json::to_string(&set).map_err(internal)?;
    let id = crate::evidence::keep_bytes(
        services,
        crate::evidence::EvidenceBytes {
            pilot_id,
            kind: EvidenceKind::EvalSet,
            file_name,
            bytes: text.as_bytes(),
            summary_json: &summary,
            uploaded_by,
        },
    )
    .await?;
    after_upload(
        services,
        &QualityUpload {
            pilot_id,
            kind: EvidenceKind::EvalSet,
            evidence_id: id,
            file_name,
            summary_json: &summary,
            run_set: None,
            user_id: uploaded_by,
        },
    )
    .await?;
    Ok(id)
}

/// Parses a run against the set runs are read against and stores it as evidence.
pub async fn store_run(
    services: &Services,
    pilot_id: i64,
    file_name: &str,
    text: &str,
    config: EvalRun,
    uploaded_by: i64,
) -> Result<i64, ServiceError> {
    let run_set = set_for_runs(services, pilot_id)
        .await?
        .ok_or_else(|| ServiceError::invalid_said(no_set()))?;
    let parsed = parse_run(file_name, text, &run_set.set)?;
    let stored = stored_run(
        Some(&run_set),
        EvalRun {
            items: parsed.items,
            ..config
        },
    );
    let summary = serde_json::to_string(&stored).map_err(internal)?;
    let id = crate::evidence::keep_bytes(
        services,
        crate::evidence::EvidenceBytes {
            pilot_id,
            kind: EvidenceKind::EvalRun,
            file_name,
            bytes: text.as_bytes(),
            summary_json: &summary,
            uploaded_by,
        },
    )
    .await?;
    after_upload(
        services,
        &QualityUpload {
            pilot_id,
            kind: EvidenceKind::EvalRun,
            evidence_id: id,
            file_name,
            summary_json: &summary,
            run_set: Some(&run_set),
            user_id: uploaded_by,
        },
    )
    .await?;
    Ok(id)
}

/// The refusal of a run on a pilot without an evaluation set.
pub const NO_SET: &str = "eval_run: this pilot has no evaluation set yet; upload it first (kind=eval_set), then its runs";

/// [`NO_SET`] in English and German.
pub fn no_set() -> crate::error::Said {
    crate::error::Said::new(
        NO_SET,
        "eval_run: Dieser Pilot hat noch keinen Evaluationsdatensatz; laden Sie zuerst ihn hoch \
         (kind=eval_set), dann seine Läufe",
    )
}

const DEMO_SET: &str = include_str!("quality_demo/set.csv");
const DEMO_FP16: &str = include_str!("quality_demo/run-fp16.csv");
const DEMO_AWQ: &str = include_str!("quality_demo/run-awq-int4.csv");

/// The demo pilot's evaluation set and two runs (FP16 and AWQ-INT4), written for the demo.
pub async fn seed_demo_quality(
    services: &Services,
    pilot_id: i64,
    admin_id: i64,
) -> Result<(), ServiceError> {
    store_set(
        services,
        pilot_id,
        "support-eval-set.csv",
        DEMO_SET,
        admin_id,
    )
    .await?;
    let config = |precision: &str, kv: &str| EvalRun {
        model: "RedHatAI/Qwen2.5-7B-Instruct".into(),
        weights_precision: precision.into(),
        kv_precision: kv.into(),
        engine: "vLLM".into(),
        engine_version: "0.8.5".into(),
        gpu: "Tesla V100-SXM2-16GB".into(),
        items: Vec::new(),
    };
    store_run(
        services,
        pilot_id,
        "support-eval-run-fp16.csv",
        DEMO_FP16,
        config("FP16", "auto"),
        admin_id,
    )
    .await?;
    store_run(
        services,
        pilot_id,
        "support-eval-run-awq-int4.csv",
        DEMO_AWQ,
        config("AWQ-INT4", "auto"),
        admin_id,
    )
    .await?;
    Ok(())
}

/// An lm-evaluation-harness file's model (`model_name`, from its `pretrained=` argument)
/// against the pilot's, the same check as every other kind of evidence.
pub fn lm_eval_check(
    identity: &engine::verdict::comparability::PilotIdentity,
    file_name: &str,
    results: &LmEvalResults,
) -> engine::verdict::comparability::FileCheck {
    let models: Vec<String> = results.model_name.iter().cloned().collect();
    engine::verdict::comparability::check_file(
        identity,
        engine::verdict::comparability::FileKind::LmEvalResults,
        file_name,
        &models,
        None,
        false,
    )
}

/// An evaluation run's model against the pilot's (its GPU does not matter for answers).
pub fn eval_run_check(
    identity: &engine::verdict::comparability::PilotIdentity,
    run: &RunView,
) -> engine::verdict::comparability::FileCheck {
    eval_model_check(identity, &run.evidence.file_name, &run.model)
}

/// The evaluation run in `file_name`, served by `model`, against the pilot.
pub fn eval_model_check(
    identity: &engine::verdict::comparability::PilotIdentity,
    file_name: &str,
    model: &str,
) -> engine::verdict::comparability::FileCheck {
    engine::verdict::comparability::check_file(
        identity,
        engine::verdict::comparability::FileKind::EvaluationRun,
        file_name,
        &[model.to_string()],
        None,
        false,
    )
}
