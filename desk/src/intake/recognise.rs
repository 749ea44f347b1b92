//! Recognising an evidence file: which importer reads it, and what it found.
//!
//! Shared by every upload (REST, the plain form, a staged upload) and `server inspect`. Load-test results are tried first (their
//! importers stream, so a multi-gigabyte per-request JSONL is read in constant memory); a file
//! none of them recognises is tried as a vLLM start-up log. A file that *is* a load-test format
//! but is malformed gets the load-test importer's error (file, line, field), not a guess.
//!
//! Detection order: load-test results, then gateway per-request logs (`gateway_log`: recognised
//! from the first record or the CSV header, then streamed through the demand accumulator in
//! constant memory; a malformed line later rejects the file naming the line and field, unless
//! `skip_bad_lines`), then vLLM `/metrics` scrapes (`metrics_scrape`), then lm-evaluation-harness
//! result files (`lm_eval_results`: a JSON object with `results` and `config` or `versions`),
//! then start-up logs. Evaluation sets and runs (`eval_set`, `eval_run`) are read only when the
//! upload names the kind: a CSV is never guessed to be one, since load tests and gateway logs
//! come first. A run is read against [`ReadSettings::eval_set`].

use crate::error::Said;
use crate::evidence::MAX_STARTUP_LOG_BYTES;
use crate::model::EvidenceKind;
use crate::quality::service as quality;
use crate::traffic::{GatewayLogSummary, MetricsScrapeSummary, service as traffic};
use engine::ingest::{ErrorKind, Import, ImportOptions, import_reader};
use engine::quality::{EvalRun, EvalSet, LmEvalResults};
use engine::sizing::StartupLog;
use std::io::BufReader;
use std::path::Path;

/// Largest evaluation set, run or lm-eval result file read (they are KiB to a few MiB).
pub const MAX_QUALITY_BYTES: u64 = 64 * 1024 * 1024;

/// Upload settings some kinds read (form fields of the upload).
#[derive(Clone, Debug, Default)]
pub struct ReadSettings {
    /// Gateway logs: skip malformed lines and count them instead of rejecting the file.
    pub skip_bad_lines: bool,
    /// `/metrics` scrapes: when the scrape was taken (Unix ms).
    pub scraped_at_ms: Option<i64>,
    /// Evaluation runs: the set the run's ids refer to (the version runs are read against).
    pub eval_set: Option<EvalSet>,
}

use crate::load_tests::service::MAX_SAMPLED_BYTES;

/// What a file turned out to be.
#[derive(Debug)]
pub enum Recognised {
    /// Load-test results: operating points, and (for files up to [`MAX_SAMPLED_BYTES`] that
    /// have them) the per-request records without their chunk gaps.
    LoadTest(Import),
    StartupLog(Box<StartupLog>),
    /// A gateway per-request log: its demand profile (records are not kept in memory).
    GatewayLog(Box<GatewayLogSummary>),
    /// A vLLM `/metrics` scrape: what one scrape tells.
    MetricsScrape(Box<MetricsScrapeSummary>),
    /// An evaluation set.
    EvalSet(EvalSet),
    /// A run over the evaluation set; its serving configuration is left empty (form fields).
    EvalRun(EvalRun),
    /// lm-evaluation-harness results.
    LmEval(LmEvalResults),
}

impl Recognised {
    pub fn kind(&self) -> EvidenceKind {
        match self {
            Recognised::LoadTest(_) => EvidenceKind::LoadTest,
            Recognised::StartupLog(_) => EvidenceKind::VllmStartupLog,
            Recognised::GatewayLog(_) => EvidenceKind::GatewayLog,
            Recognised::MetricsScrape(_) => EvidenceKind::MetricsScrape,
            Recognised::EvalSet(_) => EvidenceKind::EvalSet,
            Recognised::EvalRun(_) => EvidenceKind::EvalRun,
            Recognised::LmEval(_) => EvidenceKind::LmEvalResults,
        }
    }

    /// How many records the file held: requests (or load levels when it kept none), items,
    /// task metrics; a start-up log and a scrape are one record each.
    pub fn records(&self) -> u64 {
        match self {
            Recognised::LoadTest(import) => import.requests.len().max(import.points.len()) as u64,
            Recognised::StartupLog(_) | Recognised::MetricsScrape(_) => 1,
            Recognised::GatewayLog(log) => log.records,
            Recognised::EvalSet(set) => set.items.len() as u64,
            Recognised::EvalRun(run) => run.items.len() as u64,
            Recognised::LmEval(results) => results.metrics.len() as u64,
        }
    }
}

/// Why a file was not taken, fit for the person who sent it: English, and German where it is
/// worded.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotRecognised(pub String, pub Option<String>);

impl NotRecognised {
    fn new(en: impl Into<String>, de: impl Into<String>) -> NotRecognised {
        NotRecognised::from(Said::new(en, de))
    }

    /// A load-test importer's refusal ([`ingest_error_said`]).
    fn import(error: &engine::ingest::IngestError) -> NotRecognised {
        NotRecognised::from(ingest_error_said(error))
    }

    /// The refusal in English and, where worded, German.
    pub fn said(self) -> Said {
        Said {
            en: self.0,
            de: self.1,
        }
    }
}

impl From<Said> for NotRecognised {
    fn from(said: Said) -> NotRecognised {
        NotRecognised(said.en, said.de)
    }
}

/// What kind of problem stopped an import, in German.
fn ingest_kind_de(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Empty => "die Datei ist leer",
        ErrorKind::UnknownFormat => "keines der unterstützten Formate",
        ErrorKind::Syntax => "kein wohlgeformtes JSON oder CSV",
        ErrorKind::WrongType => "ein Wert hat den falschen Typ",
        ErrorKind::MissingField => "ein Pflichtfeld fehlt",
        ErrorKind::InvalidValue => "ein unmöglicher Wert",
        ErrorKind::Read => "die Datei ließ sich nicht lesen",
    }
}

/// An importer's error in English (its `Display`) and German: the file, line and field as the
/// importer named them, what kind of problem it is in German, and the importer's own detail
/// (English: it quotes the file's keys and values) after it.
pub fn ingest_error_said(error: &engine::ingest::IngestError) -> Said {
    Said::new(
        error.to_string(),
        format!(
            "{}{} ({})",
            crate::error::file_place_de(&error.file, error.line, error.field.as_deref()),
            ingest_kind_de(error.kind),
            error.message
        ),
    )
}

fn read_load_test(file_name: &str, path: &Path) -> Result<Import, engine::ingest::IngestError> {
    let file = std::fs::File::open(path).map_err(|e| engine::ingest::IngestError {
        file: file_name.to_string(),
        line: None,
        field: None,
        kind: ErrorKind::Read,
        message: format!("could not read: {e}"),
    })?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
    let options = ImportOptions {
        keep_requests: size <= MAX_SAMPLED_BYTES,
        ..ImportOptions::stats_only()
    };
    import_reader(file_name, BufReader::new(file), &options)
}

fn read_startup_log(file_name: &str, path: &Path) -> Result<StartupLog, NotRecognised> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(u64::MAX);
    if size > MAX_STARTUP_LOG_BYTES as u64 {
        return Err(NotRecognised::new(
            format!(
                "{file_name}: not a load-test result this server reads, and too large for a vLLM start-up log (at most 4 MiB)"
            ),
            format!(
                "{file_name}: kein Lasttest-Ergebnis, das dieser Server liest, und zu groß für ein Start-up-Log von vLLM (höchstens 4 MiB)"
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| could_not_read(file_name, &e))?;
    let text = String::from_utf8(bytes).map_err(|e| not_utf8(file_name, &e))?;
    engine::sizing::startup_log::parse(&text).map_err(|e| {
        NotRecognised::new(
            format!("{file_name}: {e}"),
            format!("{file_name}: {}", e.message_in(engine::locale::Lang::De)),
        )
    })
}

fn could_not_read(file_name: &str, error: &std::io::Error) -> NotRecognised {
    NotRecognised::new(
        format!("{file_name}: could not read: {error}"),
        format!("{file_name}: ließ sich nicht lesen: {error}"),
    )
}

fn not_utf8(file_name: &str, error: &std::string::FromUtf8Error) -> NotRecognised {
    let offset = error.utf8_error().valid_up_to();
    NotRecognised::new(
        format!("{file_name}: not UTF-8 text (invalid byte at offset {offset})"),
        format!("{file_name}: kein UTF-8-Text (ungültiges Byte an Position {offset})"),
    )
}

fn read_gateway_log(
    file_name: &str,
    path: &Path,
    settings: &ReadSettings,
) -> Result<Recognised, NotRecognised> {
    traffic::read_gateway_file(file_name, path, settings.skip_bad_lines, |_| {})
        .map(|summary| Recognised::GatewayLog(Box::new(summary)))
        .map_err(|message| NotRecognised(message, None))
}

fn read_scrape(
    file_name: &str,
    path: &Path,
    settings: &ReadSettings,
) -> Option<Result<Recognised, NotRecognised>> {
    match traffic::read_scrape_file(file_name, path, settings.scraped_at_ms) {
        Ok(Some(summary)) => Some(Ok(Recognised::MetricsScrape(Box::new(summary)))),
        Ok(None) => None,
        Err(message) => Some(Err(NotRecognised(message, None))),
    }
}

/// The whole file as UTF-8 text, refused when larger than `limit`.
fn read_text(file_name: &str, path: &Path, limit: u64) -> Result<String, NotRecognised> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(u64::MAX);
    if size > limit {
        return Err(NotRecognised::new(
            format!(
                "{file_name}: too large ({size} bytes; at most {} MiB)",
                limit / (1024 * 1024)
            ),
            format!(
                "{file_name}: zu groß ({} Bytes; höchstens {} MiB)",
                engine::locale::Lang::De.number(size as f64, 0),
                limit / (1024 * 1024)
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| could_not_read(file_name, &e))?;
    String::from_utf8(bytes).map_err(|e| not_utf8(file_name, &e))
}

fn read_quality(
    file_name: &str,
    path: &Path,
    kind: EvidenceKind,
    settings: &ReadSettings,
) -> Result<Recognised, NotRecognised> {
    let text = read_text(file_name, path, MAX_QUALITY_BYTES)?;
    let refused = |e: crate::ServiceError| NotRecognised::from(e.said());
    match kind {
        EvidenceKind::EvalSet => quality::parse_set(file_name, &text)
            .map(Recognised::EvalSet)
            .map_err(refused),
        EvidenceKind::EvalRun => {
            let set = settings
                .eval_set
                .as_ref()
                .ok_or_else(|| NotRecognised::from(quality::no_set()))?;
            quality::parse_run(file_name, &text, set)
                .map(Recognised::EvalRun)
                .map_err(refused)
        }
        _ => quality::parse_lm_eval(file_name, &text)
            .map(Recognised::LmEval)
            .map_err(refused),
    }
}

/// Whether the file is a JSON object of lm-evaluation-harness results (small files only).
fn looks_like_lm_eval(path: &Path) -> bool {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(u64::MAX);
    size <= MAX_QUALITY_BYTES
        && std::fs::read_to_string(path).is_ok_and(|text| quality::looks_like_lm_eval(&text))
}

/// Whether the first 256 KiB of the file are load-test results: they read as one, or a load-test
/// importer recognised them and refused a value (an AIPerf summary with one impossible figure
/// is still an AIPerf summary: its own error is the one to show, not a gateway log's "field
/// `request_id` missing").
fn load_test_head(file_name: &str, path: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    match import_reader(
        file_name,
        BufReader::new(file.take(256 * 1024)),
        &ImportOptions::stats_only(),
    ) {
        Ok(_) => true,
        Err(error) => !matches!(
            error.kind,
            ErrorKind::UnknownFormat | ErrorKind::Syntax | ErrorKind::Empty
        ),
    }
}

/// Reads the file at `path` (sent as `file_name`) as `kind`, or detects the kind.
pub fn recognise(
    file_name: &str,
    path: &Path,
    kind: Option<EvidenceKind>,
) -> Result<Recognised, NotRecognised> {
    recognise_with(file_name, path, kind, &ReadSettings::default())
}

/// [`recognise`] with the upload's settings.
pub fn recognise_with(
    file_name: &str,
    path: &Path,
    kind: Option<EvidenceKind>,
    settings: &ReadSettings,
) -> Result<Recognised, NotRecognised> {
    match kind {
        Some(EvidenceKind::GatewayLog) => read_gateway_log(file_name, path, settings),
        Some(EvidenceKind::MetricsScrape) => {
            read_scrape(file_name, path, settings).unwrap_or_else(|| {
                Err(NotRecognised::new(
                    format!("{file_name}: not a vLLM /metrics scrape (no vllm: metrics)"),
                    format!("{file_name}: kein /metrics-Abzug von vLLM (keine vllm:-Metriken)"),
                ))
            })
        }
        Some(EvidenceKind::LoadTest) => read_load_test(file_name, path)
            .map(Recognised::LoadTest)
            .map_err(|e| NotRecognised::import(&e)),
        Some(EvidenceKind::VllmStartupLog) => {
            read_startup_log(file_name, path).map(|log| Recognised::StartupLog(Box::new(log)))
        }
        Some(
            kind @ (EvidenceKind::EvalSet | EvidenceKind::EvalRun | EvidenceKind::LmEvalResults),
        ) => read_quality(file_name, path, kind, settings),
        // A file whose first record is a gateway log's is tried as a load test on its first
        // 256 KiB only: the load-test importers buffer non-JSONL files whole, and a gateway log
        // may be several GB. Load tests still win when the head reads as one.
        None if traffic::looks_like_gateway_log(file_name, path)
            && !load_test_head(file_name, path) =>
        {
            read_gateway_log(file_name, path, settings)
        }
        None => match read_load_test(file_name, path) {
            Ok(import) => Ok(Recognised::LoadTest(import)),
            Err(error) if matches!(error.kind, ErrorKind::UnknownFormat | ErrorKind::Syntax) => {
                if traffic::looks_like_gateway_log(file_name, path) {
                    return read_gateway_log(file_name, path, settings);
                }
                if let Some(result) = read_scrape(file_name, path, settings) {
                    return result;
                }
                if looks_like_lm_eval(path) {
                    return read_quality(file_name, path, EvidenceKind::LmEvalResults, settings);
                }
                match read_startup_log(file_name, path) {
                    Ok(log) => Ok(Recognised::StartupLog(Box::new(log))),
                    Err(_) if error.kind == ErrorKind::Syntax => Err(NotRecognised::import(&error)),
                    Err(_) => Err(NotRecognised::new(
                        format!(
                            "{file_name}: not a file this server reads. Load-test results: vllm bench serve JSON/JSON Lines, \
                             AIPerf JSON/CSV/JSONL, GenAI-Perf JSON/CSV, guidellm JSON; gateway logs: generic JSONL/CSV, \
                             LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload JSONL; a vLLM /metrics scrape; or a vLLM start-up log. ({error})"
                        ),
                        format!(
                            "{file_name}: keine Datei, die dieser Server liest. Lasttest-Ergebnisse: vllm bench serve JSON/JSON Lines, \
                             AIPerf JSON/CSV/JSONL, GenAI-Perf JSON/CSV, guidellm JSON; Gateway-Logs: generisches JSONL/CSV, \
                             LiteLLM SpendLogs CSV/JSON, StandardLoggingPayload JSONL; ein /metrics-Abzug von vLLM; oder ein Start-up-Log von vLLM. ({})",
                            ingest_error_said(&error).in_lang(engine::locale::Lang::De)
                        ),
                    )),
                }
            }
            Err(error) => Err(NotRecognised::import(&error)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_importers_refusal_names_file_line_and_field_in_german_too() {
        let error = engine::ingest::IngestError {
            file: "results.jsonl".into(),
            line: Some(3),
            field: Some("mean_ttft_ms".into()),
            kind: engine::ingest::ErrorKind::WrongType,
            message: "expected a number, found \"abc\"".into(),
        };
        let said = ingest_error_said(&error);
        assert_eq!(said.en, error.to_string());
        let de = said.de.expect("German");
        assert!(
            de.starts_with("results.jsonl Zeile 3: Feld \"mean_ttft_ms\": "),
            "{de}"
        );
        assert!(de.ends_with("(expected a number, found \"abc\")"), "{de}");
        let whole_file = engine::ingest::IngestError {
            line: None,
            field: None,
            ..error
        };
        let de = ingest_error_said(&whole_file).de.unwrap();
        assert!(de.starts_with("results.jsonl: "), "{de}");
    }
}
