//! Recognising an evidence file: which importer reads it, and what it found.
//!
//! Shared by the upload route and `server inspect`. Load-test results are tried first (their
//! importers stream, so a multi-gigabyte per-request JSONL is read in constant memory); a file
//! none of them recognises is tried as a vLLM start-up log. A file that *is* a load-test format
//! but is malformed gets the load-test importer's error (file, line, field), not a guess.

use app::server::evidence::{MAX_STARTUP_LOG_BYTES, STARTUP_LOG};
use engine::ingest::{ErrorKind, Import, ImportOptions, import_reader};
use engine::sizing::StartupLog;
use std::io::BufReader;
use std::path::Path;

/// The evidence kind of load-test results.
pub const LOAD_TEST: &str = "load_test";

/// Evidence kinds the importers read.
pub const KINDS: [&str; 2] = [LOAD_TEST, STARTUP_LOG];

/// What a file turned out to be.
#[derive(Debug)]
pub enum Recognised {
    /// Load-test results: operating points (per-request records are not kept in memory; the raw
    /// file is kept on disk for re-analysis).
    LoadTest(Import),
    StartupLog(StartupLog),
}

impl Recognised {
    pub fn kind(&self) -> &'static str {
        match self {
            Recognised::LoadTest(_) => LOAD_TEST,
            Recognised::StartupLog(_) => STARTUP_LOG,
        }
    }
}

/// Why a file was not taken, fit for the person who sent it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotRecognised(pub String);

fn read_load_test(file_name: &str, path: &Path) -> Result<Import, engine::ingest::IngestError> {
    let file = std::fs::File::open(path).map_err(|e| engine::ingest::IngestError {
        file: file_name.to_string(),
        line: None,
        field: None,
        kind: ErrorKind::Read,
        message: format!("could not read: {e}"),
    })?;
    import_reader(
        file_name,
        BufReader::new(file),
        &ImportOptions::stats_only(),
    )
}

fn read_startup_log(file_name: &str, path: &Path) -> Result<StartupLog, NotRecognised> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(u64::MAX);
    if size > MAX_STARTUP_LOG_BYTES as u64 {
        return Err(NotRecognised(format!(
            "{file_name}: not a load-test result this server reads, and too large for a vLLM start-up log (at most 4 MiB)"
        )));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| NotRecognised(format!("{file_name}: could not read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        NotRecognised(format!(
            "{file_name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    engine::sizing::startup_log::parse(&text)
        .map_err(|e| NotRecognised(format!("{file_name}: {e}")))
}

/// Reads the file at `path` (sent as `file_name`) as `kind`, or detects the kind.
pub fn recognise(
    file_name: &str,
    path: &Path,
    kind: Option<&str>,
) -> Result<Recognised, NotRecognised> {
    match kind {
        Some(LOAD_TEST) => read_load_test(file_name, path)
            .map(Recognised::LoadTest)
            .map_err(|e| NotRecognised(e.to_string())),
        Some(STARTUP_LOG) => read_startup_log(file_name, path).map(Recognised::StartupLog),
        Some(other) => Err(NotRecognised(format!(
            "kind: unknown evidence kind `{other}` (this server reads: {})",
            KINDS.join(", ")
        ))),
        None => match read_load_test(file_name, path) {
            Ok(import) => Ok(Recognised::LoadTest(import)),
            Err(error) if matches!(error.kind, ErrorKind::UnknownFormat | ErrorKind::Syntax) => {
                match read_startup_log(file_name, path) {
                    Ok(log) => Ok(Recognised::StartupLog(log)),
                    Err(_) if error.kind == ErrorKind::Syntax => {
                        Err(NotRecognised(error.to_string()))
                    }
                    Err(_) => Err(NotRecognised(format!(
                        "{file_name}: not a file this server reads. Load-test results: vllm bench serve JSON/JSON Lines, \
                         AIPerf JSON/CSV/JSONL, GenAI-Perf JSON/CSV, guidellm JSON; or a vLLM start-up log. ({error})"
                    ))),
                }
            }
            Err(error) => Err(NotRecognised(error.to_string())),
        },
    }
}
