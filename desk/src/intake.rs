//! One intake for evidence files: recognise → parse → plausibility → comparability → what is
//! derived → (the caller keeps the raw bytes and stores the row with it in one transaction) →
//! after-store work.
//!
//! Why here and not in a route: the REST upload, its check (`…/evidence/preview`), the plain
//! form and a staged upload all read a file the same way and refuse it with the same words; the
//! live gateway feed ([`crate::live`]) and the scheduled `/metrics` pull
//! ([`crate::metrics_pull`]) read their records and scrapes with the same readers
//! ([`recognise`] and the traffic readers under it); a pulled scrape is taken in exactly as
//! its upload would be ([`take_in_fetched`]). The server's routes only stream the bytes to a
//! temporary file, call [`prepare`] and [`store`], and map errors.

pub mod recognise;

use crate::ServiceError;
use crate::Services;
use crate::evidence::{CalibrationForm, calibration_settings, duplicate};
use crate::model::{EvidenceKind, Pilot, StartupLogSummary};
use crate::quality;
use crate::recorded::RecordedLine;
use crate::store::evidence::DerivedWrites;
use recognise::{ReadSettings, Recognised, recognise_with};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// How many records one file may hold unless `MAX_RECORDS_PER_FILE` says otherwise: ten million
/// gateway requests is about a month of a busy pilot at 4 requests/s, far beyond any one export.
pub const DEFAULT_RECORDS_PER_FILE: u64 = 10_000_000;

/// The bounds every file passes through intake whatever its byte size (the byte limit is the
/// server's `MAX_UPLOAD_MB`): a file of many tiny records is small on disk yet heavy to read
/// back on every view that combines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Records (requests, items, series groups) one file may hold: `MAX_RECORDS_PER_FILE`.
    pub records_per_file: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            records_per_file: DEFAULT_RECORDS_PER_FILE,
        }
    }
}

/// A received file, on disk in a temporary place.
#[derive(Clone, Copy, Debug)]
pub struct Received<'a> {
    /// The name the client gave, without any folder part.
    pub file_name: &'a str,
    pub sha256: &'a str,
    pub temp_path: &'a Path,
}

/// A file read and made ready to store; nothing is written yet.
#[derive(Debug)]
pub struct Prepared {
    pub kind: EvidenceKind,
    /// What the importer read (the evidence row's summary).
    pub summary: serde_json::Value,
    /// What is written with the row, in its transaction.
    pub derived: DerivedWrites,
    /// An evaluation run's set version.
    pub eval_set: Option<quality::service::RunSet>,
    /// What would be recorded, line by line.
    pub recorded: Vec<RecordedLine>,
    /// The importer's warnings, typed values the file contradicts, comparability.
    pub warnings: Vec<String>,
}

fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value, ServiceError> {
    serde_json::to_value(value).map_err(|_| ServiceError::Internal)
}

/// Reads a received file for `pilot` with the form's `fields` (`kind`, run context,
/// `skip_bad_lines`, `scraped_at`, …): refuses the same bytes twice on the pilot, recognises
/// and reads the file, checks its values against each other and the pilot, and prepares what
/// is derived from it. Nothing is written. What would be recorded is worded in `lang` (the
/// uploader's).
pub async fn prepare(
    services: &Services,
    pilot: &Pilot,
    file: Received<'_>,
    fields: &BTreeMap<String, String>,
    lang: engine::locale::Lang,
) -> Result<Prepared, ServiceError> {
    let pilot_id = pilot.id;
    if let Some(existing) = services
        .store
        .evidence_by_hash(pilot_id, file.sha256)
        .await?
    {
        return Err(duplicate(file.file_name, &existing));
    }
    let kind = match fields.get("kind").filter(|k| !k.is_empty()) {
        Some(name) => Some(
            name.parse::<EvidenceKind>()
                .map_err(|e| ServiceError::invalid(format!("kind: {e}")))?,
        ),
        None => None,
    };
    let eval_set = if kind == Some(EvidenceKind::EvalRun) {
        Some(
            quality::service::set_for_runs(services, pilot_id)
                .await?
                .ok_or_else(|| ServiceError::invalid_said(quality::service::no_set()))?,
        )
    } else {
        None
    };
    let field = |name: &str| fields.get(name).cloned().unwrap_or_default();
    let settings = ReadSettings {
        skip_bad_lines: crate::traffic::service::parse_skip_bad_lines(
            fields.get("skip_bad_lines").map(String::as_str),
        )?,
        scraped_at_ms: crate::traffic::service::parse_scraped_at(&field("scraped_at"))?,
        eval_set: eval_set.as_ref().map(|run_set| run_set.set.clone()),
    };
    let (name, path) = (file.file_name.to_string(), file.temp_path.to_path_buf());
    let recognised =
        tokio::task::spawn_blocking(move || recognise_with(&name, &path, kind, &settings))
            .await
            .map_err(|_| ServiceError::Internal)?
            .map_err(|e| ServiceError::invalid_said(e.said()))?;
    let kind = recognised.kind();
    let records = recognised.records();
    if records > services.intake.records_per_file {
        return Err(ServiceError::invalid_in(
            format!(
                "{}: {records} records, more than the {} one file may hold \
                 (MAX_RECORDS_PER_FILE); split the file and upload the parts",
                file.file_name, services.intake.records_per_file
            ),
            format!(
                "{}: {records} Datensätze, mehr als eine Datei enthalten darf ({}, \
                 MAX_RECORDS_PER_FILE); teilen Sie die Datei und laden Sie die Teile hoch",
                file.file_name, services.intake.records_per_file
            ),
        ));
    }
    // What is derived from the file is computed now and written in the same transaction as its
    // row: a failure (or a crash) before the commit leaves the database as it was.
    let mut derived = DerivedWrites::default();
    let mut warnings = Vec::new();
    let (summary, recorded) = match recognised {
        Recognised::LoadTest(import) => {
            let load_tests = crate::load_tests::service::recorded_run_context;
            let context = load_tests(fields, pilot, &import.points)?;
            warnings.extend(import.warnings.iter().cloned());
            if let Some(provenance) = &context.provenance {
                warnings.extend(provenance.conflicts.iter().map(|c| c.sentence()));
            }
            let recorded = crate::recorded::load_test(&import, &context, lang);
            let (value, writes) =
                crate::load_tests::service::prepare(services, pilot_id, import, context).await?;
            derived = writes;
            (value, recorded)
        }
        Recognised::GatewayLog(log) => {
            let value = to_json(&log)?;
            let recorded = crate::recorded::gateway_log(&log, lang);
            derived.traffic_profile = crate::traffic::service::combined_profile(
                services,
                pilot_id,
                Some((
                    file.file_name.to_string(),
                    file.temp_path.to_path_buf(),
                    *log,
                )),
            )
            .await?;
            (value, recorded)
        }
        Recognised::MetricsScrape(scrape) => (
            to_json(&scrape)?,
            crate::recorded::metrics_scrape(&scrape, lang),
        ),
        Recognised::EvalSet(set) => (to_json(&set)?, crate::recorded::eval_set(&set, lang)),
        Recognised::EvalRun(run) => {
            let run = quality::service::run_config(field, pilot, run)?;
            let recorded = crate::recorded::eval_run(&run, lang);
            let stored = quality::service::stored_run(eval_set.as_ref(), run);
            (to_json(&stored)?, recorded)
        }
        Recognised::LmEval(results) => {
            (to_json(&results)?, crate::recorded::lm_eval(&results, lang))
        }
        Recognised::StartupLog(log) => {
            let form = CalibrationForm {
                model: field("model"),
                weights: field("weights"),
                kv_dtype: field("kv_dtype"),
                gpu: field("gpu"),
                tp: field("tp"),
                context: field("context"),
            };
            let settings = calibration_settings(&form, &log, pilot)?;
            let recorded = crate::recorded::startup_log(&settings, lang);
            let summary = StartupLogSummary {
                log: *log,
                settings,
            };
            (to_json(&summary)?, recorded)
        }
    };
    crate::evidence::bounds::check_summary(file.file_name, &summary)?;
    let check = crate::evidence::comparable::check_summary(pilot, kind, file.file_name, &summary);
    warnings.extend(
        check
            .as_ref()
            .and_then(crate::evidence::comparable::warning),
    );
    Ok(Prepared {
        kind,
        summary,
        derived,
        eval_set,
        recorded,
        warnings,
    })
}

/// A prepared file stored as evidence.
#[derive(Debug)]
pub struct Stored {
    /// The evidence row's id.
    pub id: i64,
    /// What happened beside it (quality evidence: which set version a run was read against).
    pub note: Option<String>,
}

/// Stores a prepared file of `pilot_id` as evidence uploaded by `uploaded_by`: the received
/// file becomes its raw file and the row is written with what was derived from it, in one
/// transaction (see [`crate::blobs::Blobs::record`]: the temporary file is moved into the
/// store or removed, whatever happens), then the after-store work runs ([`after_store`]).
/// `prepared.derived` is written with the row and left empty. Nothing can fail before the
/// record, so the temporary file is never left behind.
pub async fn store(
    services: &Services,
    pilot_id: i64,
    uploaded_by: i64,
    file: Received<'_>,
    size_bytes: u64,
    prepared: &mut Prepared,
) -> Result<Stored, ServiceError> {
    let summary_json = prepared.summary.to_string();
    let new = crate::store::evidence::NewEvidence {
        pilot_id,
        kind: prepared.kind,
        file_name: file.file_name,
        sha256: file.sha256,
        size_bytes: size_bytes as i64,
        summary_json: &summary_json,
        uploaded_by,
    };
    let derived = std::mem::take(&mut prepared.derived);
    let id = services
        .blobs
        .record(
            file.temp_path,
            file.sha256,
            crate::store::blobs::FileRow::Evidence(new, derived),
        )
        .await?;
    let note = after_store(
        services,
        pilot_id,
        id,
        file.file_name,
        &StoredPrepared {
            kind: prepared.kind,
            summary_json: &summary_json,
            eval_set: prepared.eval_set.as_ref(),
        },
        uploaded_by,
    )
    .await?;
    Ok(Stored { id, note })
}

/// Takes in bytes the server fetched itself (a scheduled `/metrics` pull) exactly as an upload
/// of them with `fields` would be: the same duplicate check, reader, plausibility and
/// comparability ([`prepare`]), then [`store`]. Answers the evidence id and the importer's
/// warnings.
pub async fn take_in_fetched(
    services: &Services,
    pilot: &Pilot,
    file_name: &str,
    bytes: &[u8],
    fields: &BTreeMap<String, String>,
    uploaded_by: i64,
) -> Result<(i64, Vec<String>), ServiceError> {
    let sha256 = crate::evidence::sha256_hex(bytes);
    let temp = crate::evidence::temp_file(services, "fetched", bytes).await?;
    let file = Received {
        file_name,
        sha256: &sha256,
        temp_path: &temp,
    };
    // Nobody reads what it would record: English, like the API's.
    let lang = engine::locale::Lang::En;
    let mut prepared = match prepare(services, pilot, file, fields, lang).await {
        Ok(prepared) => prepared,
        Err(error) => {
            let _ = tokio::fs::remove_file(&temp).await;
            return Err(error);
        }
    };
    let stored = store(
        services,
        pilot.id,
        uploaded_by,
        file,
        bytes.len() as u64,
        &mut prepared,
    )
    .await?;
    Ok((stored.id, prepared.warnings))
}

/// What follows once a prepared file is stored as evidence `evidence_id`: a quality set
/// becomes the open draft, a run is filed against its set version. Answers the note for the
/// person (which version a run was read against).
pub async fn after_store(
    services: &Services,
    pilot_id: i64,
    evidence_id: i64,
    file_name: &str,
    prepared: &StoredPrepared<'_>,
    user_id: i64,
) -> Result<Option<String>, ServiceError> {
    let note = quality::service::after_upload(
        services,
        &quality::service::QualityUpload {
            pilot_id,
            kind: prepared.kind,
            evidence_id,
            file_name,
            summary_json: prepared.summary_json,
            run_set: prepared.eval_set,
            user_id,
        },
    )
    .await?;
    services.changes.tell(pilot_id);
    Ok(note)
}

/// What [`after_store`] needs of a stored [`Prepared`].
#[derive(Clone, Copy, Debug)]
pub struct StoredPrepared<'a> {
    pub kind: EvidenceKind,
    pub summary_json: &'a str,
    pub eval_set: Option<&'a quality::service::RunSet>,
}
