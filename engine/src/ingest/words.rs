//! The importers' words for people: which layout of a format was read ([`Import::layout`]) and
//! where in the upload a point came from ([`OperatingPoint::source`]).
//!
//! Both are written in English when a file is imported and stored with the evidence, so rows
//! imported by earlier versions hold them too. They are translated when shown:
//! [`layout_in`] and [`point_source_in`] swap the importers' fixed words for the reader's
//! language and keep the file's own data (file names, versions, flags, key names) as stored;
//! a piece they do not know stays as it is.
//!
//! The importers write their phrases with the constants and functions here, so each phrase
//! has its German next to it.
//!
//! [`Import::layout`]: super::Import::layout
//! [`OperatingPoint::source`]: super::OperatingPoint::source

use crate::locale::Lang;

/// Between the pieces of one layout (`one result per line (--append-result); summary`).
pub(crate) const PIECES: &str = "; ";
/// Between the different layouts of the results of one file or folder (`summary / per-request
/// arrays (--save-detailed)`).
pub(crate) const VARIANTS: &str = " / ";

/// vLLM: a result with summary statistics only.
pub(crate) const SUMMARY: &str = "summary";
/// vLLM: a result with the per-request lists.
pub(crate) const SAVE_DETAILED: &str = "per-request arrays (--save-detailed)";
/// vLLM: a result of 2024's `benchmark_serving.py`.
pub(crate) const KEYS_2024: &str = "2024 key names (latency, best_of)";
/// vLLM: the goodput key with its stray colon.
pub(crate) const GOODPUT_COLON: &str =
    "key “request_goodput:” with its colon (late 2024 to mid 2025)";
/// vLLM: a `summary.json` of a sweep.
pub(crate) const SWEEP_SUMMARY: &str = "sweep summary list";
/// vLLM: `--append-result` JSON Lines.
pub(crate) const APPEND_RESULT: &str = "one result per line (--append-result)";
/// AIPerf JSON: the early `records` layout.
pub(crate) const AIPERF_EARLY_RECORDS: &str = "early records layout (Oct 2025)";
/// AIPerf JSON: the flat layout (see [`flat_layout_schema`]).
pub(crate) const AIPERF_FLAT: &str = "flat layout";
/// GenAI-Perf JSON.
pub(crate) const GENAI_PERF_SUMMARY: &str = "summary with input_config";
/// AIPerf per-request JSONL.
pub(crate) const AIPERF_RECORDS: &str = "per-request records";
/// AIPerf per-request JSONL of the early metadata.
pub(crate) const AIPERF_RECORDS_EARLY: &str =
    "per-request records, early metadata (timestamp_ns, credit_phase)";
/// AIPerf / GenAI-Perf summary CSV.
pub(crate) const SUMMARY_CSV: &str = "two-section summary CSV";
/// guidellm: the current report (see [`current_report_layout_version`]).
pub(crate) const GUIDELLM_CURRENT: &str = "current report layout";
/// guidellm v0.2 / v0.3.
pub(crate) const GUIDELLM_OLD: &str = "v0.2/v0.3 layout (args, run_stats)";
/// guidellm's YAML report, after the layout of the report it reads as.
pub(crate) const YAML_REPORT: &str = "YAML report (benchmarks.yaml)";

/// Every fixed phrase with its German.
const FIXED: &[(&str, &str)] = &[
    (SUMMARY, "Zusammenfassung"),
    (
        SAVE_DETAILED,
        "Werte je Anfrage als Listen (--save-detailed)",
    ),
    (KEYS_2024, "Schlüsselnamen von 2024 (latency, best_of)"),
    (
        GOODPUT_COLON,
        "Schlüssel „request_goodput:“ mit Doppelpunkt (Ende 2024 bis Mitte 2025)",
    ),
    (SWEEP_SUMMARY, "Sweep-Zusammenfassung als Liste"),
    (APPEND_RESULT, "ein Ergebnis je Zeile (--append-result)"),
    (AIPERF_EARLY_RECORDS, "frühes records-Layout (Okt. 2025)"),
    (AIPERF_FLAT, "flaches Layout"),
    (GENAI_PERF_SUMMARY, "Zusammenfassung mit input_config"),
    (AIPERF_RECORDS, "Datensätze je Anfrage"),
    (
        AIPERF_RECORDS_EARLY,
        "Datensätze je Anfrage, frühe Metadaten (timestamp_ns, credit_phase)",
    ),
    (SUMMARY_CSV, "Zusammenfassungs-CSV in zwei Abschnitten"),
    (GUIDELLM_CURRENT, "aktuelles Berichtslayout"),
    (GUIDELLM_OLD, "Layout v0.2/v0.3 (args, run_stats)"),
    (YAML_REPORT, "YAML-Bericht (benchmarks.yaml)"),
];

const FLAT_SCHEMA: &str = "flat layout, schema ";
const CURRENT_VERSION: (&str, &str) = ("current report layout (version ", ")");
const FOLDER: (&str, &str) = ("folder of ", " result files");

/// AIPerf JSON of the flat layout with its schema version: `flat layout, schema 1.0`.
pub(crate) fn flat_layout_schema(version: &str) -> String {
    format!("{FLAT_SCHEMA}{version}")
}

/// guidellm's current report with its version: `current report layout (version 2)`.
pub(crate) fn current_report_layout_version(version: &str) -> String {
    format!("{}{version}{}", CURRENT_VERSION.0, CURRENT_VERSION.1)
}

/// A folder's first piece: `folder of 12 result files`.
pub(crate) fn folder_of(count: usize) -> String {
    format!("{}{count}{}", FOLDER.0, FOLDER.1)
}

/// Between a file and the line a point was read from.
const LINE: &str = " line ";

/// A point read from one line of a file: `results.jsonl line 3`.
pub(crate) fn at_line(file: &str, line: u64) -> String {
    format!("{file}{LINE}{line}")
}

/// A stored layout ([`super::Import::layout`]) in `lang`: each piece between `; ` and ` / `
/// that an importer writes is translated (with its version or count where it has one); any
/// other piece stays as stored. English returns `stored` unchanged.
pub fn layout_in(stored: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return stored.to_string();
    }
    stored
        .split(PIECES)
        .map(|part| {
            part.split(VARIANTS)
                .map(|piece| piece_in(piece, lang).unwrap_or_else(|| piece.to_string()))
                .collect::<Vec<_>>()
                .join(VARIANTS)
        })
        .collect::<Vec<_>>()
        .join(PIECES)
}

/// One piece of a layout in `lang`; `None` when no importer writes it.
fn piece_in(piece: &str, lang: Lang) -> Option<String> {
    if let Some((_, german)) = FIXED.iter().find(|(english, _)| *english == piece) {
        return Some(lang.pick(piece, german).to_string());
    }
    if let Some(version) = piece.strip_prefix(FLAT_SCHEMA) {
        return Some(match lang {
            Lang::En => piece.to_string(),
            Lang::De => format!("flaches Layout, Schema {version}"),
        });
    }
    if let Some(version) = piece
        .strip_prefix(CURRENT_VERSION.0)
        .and_then(|rest| rest.strip_suffix(CURRENT_VERSION.1))
    {
        return Some(match lang {
            Lang::En => piece.to_string(),
            Lang::De => format!("aktuelles Berichtslayout (Version {version})"),
        });
    }
    if let Some(count) = piece
        .strip_prefix(FOLDER.0)
        .and_then(|rest| rest.strip_suffix(FOLDER.1))
        .and_then(|count| count.parse::<u64>().ok())
    {
        return Some(match lang {
            Lang::En => piece.to_string(),
            Lang::De => format!(
                "Ordner mit {} {}",
                lang.number(count as f64, 0),
                if count == 1 {
                    "Ergebnisdatei"
                } else {
                    "Ergebnisdateien"
                }
            ),
        });
    }
    None
}

/// The pieces of `layout` that no importer writes (for tests).
#[cfg(test)]
pub(crate) fn unknown_pieces(layout: &str) -> Vec<&str> {
    layout
        .split(PIECES)
        .flat_map(|part| part.split(VARIANTS))
        .filter(|piece| piece_in(piece, Lang::De).is_none())
        .collect()
}

/// A stored point source ([`super::OperatingPoint::source`]) in `lang`: `results.jsonl line 3`
/// → `results.jsonl Zeile 3`. The other sources the importers write name only the file and
/// JSON paths (`summary.json[2]`, `benchmarks.json benchmarks[0]`,
/// `concurrency_16/profile_export_aiperf.json`) and stay as stored, as does anything else.
/// English returns `stored` unchanged.
pub fn point_source_in(stored: &str, lang: Lang) -> String {
    match (lang, stored.rsplit_once(LINE)) {
        (Lang::De, Some((file, line)))
            if !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("{file} Zeile {line}")
        }
        _ => stored.to_string(),
    }
}

/// `text` with each point source `<file> line N` in it that ends the text or a clause (before
/// a comma) in German, for sentences that carry a point's source (the grading's figure
/// sources: `run.jsonl line 3, concurrency 8`).
pub(crate) fn point_sources_within_in(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(LINE) {
        let after = &rest[at + LINE.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let whole = digits > 0 && matches!(after[digits..].chars().next(), None | Some(','));
        out.push_str(&rest[..at]);
        out.push_str(if whole && at > 0 { " Zeile " } else { LINE });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece an importer writes, with a version or count where it takes one.
    fn every_piece() -> Vec<String> {
        let mut all: Vec<String> = FIXED.iter().map(|(en, _)| en.to_string()).collect();
        all.push(flat_layout_schema("1.0"));
        all.push(current_report_layout_version("2"));
        all.push(folder_of(1));
        all.push(folder_of(12));
        all.push(folder_of(1_024));
        all
    }

    /// Every piece has German, the German never holds the English phrase, and the data in
    /// the piece (flags, key names, versions, file names) stays.
    #[test]
    fn every_piece_the_importers_write_has_german() {
        for piece in every_piece() {
            let german = piece_in(&piece, Lang::De).unwrap_or_else(|| panic!("`{piece}`"));
            assert_ne!(german, piece);
            assert!(!german.contains(&piece), "`{german}` holds `{piece}`");
            assert_eq!(piece_in(&piece, Lang::En).as_deref(), Some(piece.as_str()));
            assert_eq!(layout_in(&piece, Lang::En), piece);
            for kept in [
                "--append-result",
                "--save-detailed",
                "latency, best_of",
                "request_goodput:",
                "input_config",
                "timestamp_ns, credit_phase",
                "args, run_stats",
                "benchmarks.yaml",
                "v0.2/v0.3",
                "CSV",
                "YAML",
            ] {
                if piece.contains(kept) {
                    assert!(german.contains(kept), "`{german}` lost `{kept}`");
                }
            }
        }
        let english: Vec<&str> = FIXED.iter().map(|(en, _)| *en).collect();
        for (_, german) in FIXED {
            for en in &english {
                assert!(!german.contains(en), "`{german}` holds `{en}`");
            }
        }
    }

    #[test]
    fn layouts_are_translated_piece_by_piece() {
        let stored = format!(
            "{}{PIECES}{APPEND_RESULT}{PIECES}{SUMMARY}{PIECES}{KEYS_2024}{VARIANTS}{SAVE_DETAILED}{VARIANTS}{AIPERF_FLAT}",
            folder_of(3)
        );
        assert_eq!(
            layout_in(&stored, Lang::De),
            "Ordner mit 3 Ergebnisdateien; ein Ergebnis je Zeile (--append-result); \
             Zusammenfassung; Schlüsselnamen von 2024 (latency, best_of) / Werte je Anfrage \
             als Listen (--save-detailed) / flaches Layout"
        );
        assert_eq!(layout_in(&stored, Lang::En), stored);
        assert_eq!(
            layout_in("flat layout, schema 1.0", Lang::De),
            "flaches Layout, Schema 1.0"
        );
        assert_eq!(
            layout_in(
                "v0.2/v0.3 layout (args, run_stats); YAML report (benchmarks.yaml)",
                Lang::De
            ),
            "Layout v0.2/v0.3 (args, run_stats); YAML-Bericht (benchmarks.yaml)"
        );
        assert_eq!(
            layout_in("current report layout (version 0.4)", Lang::De),
            "aktuelles Berichtslayout (Version 0.4)"
        );
        assert_eq!(
            layout_in("folder of 1 result files", Lang::De),
            "Ordner mit 1 Ergebnisdatei"
        );
        assert_eq!(
            layout_in("folder of 2048 result files", Lang::De),
            "Ordner mit 2.048 Ergebnisdateien"
        );
        // A piece no importer writes (an older version's, say) stays as stored.
        assert_eq!(
            layout_in("something older; summary", Lang::De),
            "something older; Zusammenfassung"
        );
        assert_eq!(layout_in("", Lang::De), "");
    }

    #[test]
    fn point_sources_name_the_line_in_german() {
        let stored = at_line("v100-qwen-benchmark-report.jsonl", 1);
        assert_eq!(stored, "v100-qwen-benchmark-report.jsonl line 1");
        assert_eq!(
            point_source_in(&stored, Lang::De),
            "v100-qwen-benchmark-report.jsonl Zeile 1"
        );
        assert_eq!(point_source_in(&stored, Lang::En), stored);
        assert_eq!(
            point_source_in("sweep/c 8/run line 2.jsonl line 12", Lang::De),
            "sweep/c 8/run line 2.jsonl Zeile 12",
            "only the last, the one the importer wrote"
        );
        for kept in [
            "summary.json[2]",
            "benchmarks.json benchmarks[0]",
            "concurrency_16/profile_export_aiperf.json",
            "notes line x",
            " line 3",
        ] {
            assert_eq!(point_source_in(kept, Lang::De), kept);
        }
        assert_eq!(
            point_sources_within_in("run.jsonl line 3, concurrency 8", Lang::De),
            "run.jsonl Zeile 3, concurrency 8"
        );
        assert_eq!(
            point_sources_within_in("a line 3b.jsonl line 4", Lang::De),
            "a line 3b.jsonl Zeile 4"
        );
        assert_eq!(
            point_sources_within_in("run.jsonl line 3, x", Lang::En),
            "run.jsonl line 3, x"
        );
    }
}
