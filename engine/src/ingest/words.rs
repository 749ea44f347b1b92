//! The importers' words for people: which layout of a format was read ([`Import::layout`]),
//! where in the upload a point came from ([`OperatingPoint::source`]) and the warnings of an
//! import ([`Import::warnings`]).
//!
//! All are written in English when a file is imported and stored with the evidence, so rows
//! imported by earlier versions hold them too. They are translated when shown:
//! [`layout_in`], [`point_source_in`] and [`warning_in`] swap the importers' fixed words for
//! the reader's language and keep the file's own data (file names, paths, versions, flags, key
//! names, values) as stored; a piece they do not know stays as it is.
//!
//! The importers write their phrases with the constants and functions here, so each phrase
//! has its German next to it.
//!
//! [`Import::layout`]: super::Import::layout
//! [`Import::warnings`]: super::Import::warnings
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

// ---------------------------------------------------------------------------------------------
// Warnings
// ---------------------------------------------------------------------------------------------

/// What a hole `{n}` of a [`Phrase`] holds, and how it reads in German.
#[derive(Clone, Copy)]
enum Hole {
    /// The file's own data (a file name, a path, key names, a tag, a unit): kept as stored.
    Data,
    /// A point source (`results.jsonl line 3`, see [`point_source_in`]).
    Source,
    /// A count the importer wrote (digits only): German digit grouping.
    Count,
    /// Exactly one of these phrases.
    One(&'static [&'static Phrase]),
    /// One of these phrases, or (any other text, such as an older version's) kept as stored.
    Said(&'static [&'static Phrase]),
    /// These phrases in this order, each at most once; possibly none.
    Seq(&'static [&'static Phrase]),
}

/// A phrase of a warning (or a piece of one) with its German: `{0}`, `{1}`, … mark the holes,
/// in order in the English, in any order in the German.
pub(crate) struct Phrase {
    en: &'static str,
    de: &'static str,
    /// The German when the first [`Hole::Count`] is 1, where the plural would read wrong.
    de_one: Option<&'static str>,
    holes: &'static [Hole],
}

impl Phrase {
    /// The English of a phrase without holes (a hint, [`FILE_EMPTY`]).
    pub(crate) fn text(&self) -> &'static str {
        self.en
    }

    /// The English with `args` in its holes (a piece of a phrase already built for a
    /// [`Hole::One`], [`Hole::Said`] or [`Hole::Seq`]).
    fn with(&self, args: &[&str]) -> String {
        fill(self.en, args)
    }

    /// The German of `text` when it is this phrase's English; `None` otherwise.
    fn german(&self, text: &str, mode: Mode) -> Option<String> {
        let (lits, _) = split_template(self.en);
        let rest = text.strip_prefix(lits[0])?;
        let caps = holes_de(&lits[1..], self.holes, rest, mode)?;
        let one = self
            .holes
            .iter()
            .zip(&caps)
            .find(|(hole, _)| matches!(hole, Hole::Count))
            .is_some_and(|(_, (raw, _))| *raw == "1");
        let de = match self.de_one {
            #[cfg(test)]
            _ if mode == Mode::Skeleton => self.en,
            Some(de_one) if one => de_one,
            _ => self.de,
        };
        let german: Vec<&str> = caps.iter().map(|(_, de)| de.as_str()).collect();
        Some(fill(de, &german))
    }
}

/// `template` with `{n}` replaced by `args[n]`.
fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some((at, len, n)) = next_hole(rest) {
        out.push_str(&rest[..at]);
        out.push_str(args.get(n).copied().unwrap_or_default());
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// The first `{n}` in `text`: where, its length, and `n`.
fn next_hole(text: &str) -> Option<(usize, usize, usize)> {
    let mut from = 0;
    while let Some(at) = text[from..].find('{').map(|i| from + i) {
        let digits = text[at + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digits > 0 && text[at + 1 + digits..].starts_with('}') {
            let n = text[at + 1..at + 1 + digits].parse().ok()?;
            return Some((at, digits + 2, n));
        }
        from = at + 1;
    }
    None
}

/// The literal pieces of `template` around its holes (one more than holes) and the holes'
/// numbers in order.
fn split_template(template: &str) -> (Vec<&str>, Vec<usize>) {
    let (mut lits, mut numbers) = (Vec::new(), Vec::new());
    let mut rest = template;
    while let Some((at, len, n)) = next_hole(rest) {
        lits.push(&rest[..at]);
        numbers.push(n);
        rest = &rest[at + len..];
    }
    lits.push(rest);
    (lits, numbers)
}

/// Matches `rest` against holes each followed by its literal (`lits[i]` after `holes[i]`):
/// each hole's text as written and in German, or `None` when `rest` does not fit. Tries every
/// place the literal after a hole occurs, so file data holding a literal is no trouble.
fn holes_de(
    lits: &[&str],
    holes: &[Hole],
    rest: &str,
    mode: Mode,
) -> Option<Vec<(String, String)>> {
    let Some((hole, holes)) = holes.split_first() else {
        return rest.is_empty().then(Vec::new);
    };
    let (next, lits) = lits.split_first()?;
    let ends: Vec<usize> = if lits.is_empty() {
        rest.strip_suffix(next)
            .map(|content| content.len())
            .into_iter()
            .collect()
    } else if next.is_empty() {
        return None;
    } else {
        rest.match_indices(next).map(|(at, _)| at).collect()
    };
    ends.into_iter().find_map(|end| {
        let content = &rest[..end];
        let german = hole_de(*hole, content, mode)?;
        let mut more = holes_de(lits, holes, &rest[end + next.len()..], mode)?;
        more.insert(0, (content.to_string(), german));
        Some(more)
    })
}

/// How [`Phrase::german`] reads a text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// In German; a [`Hole::Said`] that is none of its phrases kept as stored.
    German,
    /// In German, every part known (for the tests).
    #[cfg(test)]
    Strict,
    /// The English without the file's data: the fixed words only (for the tests).
    #[cfg(test)]
    Skeleton,
}

/// One hole's text in German; `None` when it is not what the hole holds.
fn hole_de(hole: Hole, text: &str, mode: Mode) -> Option<String> {
    let data = match hole {
        Hole::Data => (!text.is_empty()).then(|| text.to_string()),
        Hole::Source => (!text.is_empty()).then(|| point_source_in(text, Lang::De)),
        Hole::Count => {
            let n: u64 = text
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| text.parse().ok())??;
            Some(Lang::De.number(n as f64, 0))
        }
        Hole::One(phrases) => return phrases.iter().find_map(|p| p.german(text, mode)),
        Hole::Said(phrases) => {
            let known = phrases.iter().find_map(|p| p.german(text, mode));
            return match mode {
                Mode::German => Some(known.unwrap_or_else(|| text.to_string())),
                #[cfg(test)]
                _ => known,
            };
        }
        Hole::Seq(phrases) => return seq_de(phrases, text, mode),
    };
    #[cfg(test)]
    if mode == Mode::Skeleton {
        return data.map(|_| " ".to_string());
    }
    data
}

/// `text` as the phrases of `phrases` in order, each at most once, in German.
fn seq_de(phrases: &[&Phrase], text: &str, mode: Mode) -> Option<String> {
    if text.is_empty() {
        return Some(String::new());
    }
    let (first, others) = phrases.split_first()?;
    text.char_indices()
        .map(|(i, _)| i)
        .skip(1)
        .chain([text.len()])
        .find_map(|end| {
            let head = first.german(&text[..end], mode)?;
            Some(head + &seq_de(others, &text[end..], mode)?)
        })
        .or_else(|| seq_de(others, text, mode))
}

/// The source's data: `NaN` / `Infinity` read as missing values.
static NON_FINITE: Phrase = Phrase {
    en: "{0}: NaN/Infinity values (Python's non-standard JSON) were read as missing values",
    de: "{0}: NaN-/Infinity-Werte (nicht standardkonformes JSON von Python) wurden als fehlende Werte gelesen",
    de_one: None,
    holes: &[Hole::Data],
};
/// [`NON_FINITE`] with the number of lines it was needed on.
static NON_FINITE_LINES: Phrase = Phrase {
    en: "{0} ({1} lines)",
    de: "{0} ({1} Zeilen)",
    de_one: Some("{0} ({1} Zeile)"),
    holes: &[Hole::One(&[&NON_FINITE]), Hole::Count],
};

/// `bench.json: NaN/Infinity values (Python's non-standard JSON) were read as missing values`.
pub(crate) fn non_finite(file: &str) -> String {
    NON_FINITE.with(&[file])
}

/// [`non_finite`] of a line-based file, with the number of lines: `… (3 lines)`.
pub(crate) fn non_finite_lines(file: &str, lines: u64) -> String {
    NON_FINITE_LINES.with(&[&non_finite(file), &lines.to_string()])
}

static MISSING_KEYS: Phrase = Phrase {
    en: "{0}: the result has no {1} (an older or trimmed benchmark_serving.py result); the latency statistics are the file's own{2}; every other figure the missing keys carry is left absent",
    de: "{0}: das Ergebnis nennt {1} nicht (ein älteres oder gekürztes Ergebnis von benchmark_serving.py); die Latenzstatistiken sind die der Datei{2}; alle weiteren Werte der fehlenden Schlüssel bleiben leer",
    de_one: None,
    holes: &[
        Hole::Source,
        Hole::Data,
        Hole::Seq(&[&COUNTED_FROM_ARRAYS, &COMPUTED_FROM_TOTALS]),
    ],
};
static COUNTED_FROM_ARRAYS: Phrase = Phrase {
    en: ", `completed` was counted from the per-request arrays",
    de: ", `completed` wurde aus den Listen je Anfrage gezählt",
    de_one: None,
    holes: &[],
};
static COMPUTED_FROM_TOTALS: Phrase = Phrase {
    en: ", {0} computed from completed, duration and token totals",
    de: ", {0} aus Anzahl abgeschlossener Anfragen, Dauer und Token-Summen berechnet",
    de_one: None,
    holes: &[Hole::Data],
};

/// vLLM: a result without some keys (`keys` already quoted, `` `completed`, `duration` ``);
/// `from_arrays` when `completed` was counted from the per-request arrays, `computed` the
/// throughputs computed from the totals.
pub(crate) fn missing_keys(
    source: &str,
    keys: &str,
    from_arrays: bool,
    computed: &[&str],
) -> String {
    let mut clauses = String::new();
    if from_arrays {
        clauses.push_str(COUNTED_FROM_ARRAYS.en);
    }
    if !computed.is_empty() {
        clauses.push_str(&COMPUTED_FROM_TOTALS.with(&[&computed.join(", ")]));
    }
    MISSING_KEYS.with(&[source, keys, &clauses])
}

static PLACEHOLDERS: Phrase = Phrase {
    en: "{0}: {1}; the latency statistics in the file are 0.0 placeholders and were dropped",
    de: "{0}: {1}; die Latenzstatistiken der Datei sind Platzhalter (0.0) und wurden verworfen",
    de_one: None,
    holes: &[Hole::Source, Hole::One(&[&ALL_FAILED, &NONE_COMPLETED])],
};
static ALL_FAILED: Phrase = Phrase {
    en: "all {0} requests failed",
    de: "alle {0} Anfragen sind fehlgeschlagen",
    de_one: Some("die eine Anfrage ist fehlgeschlagen"),
    holes: &[Hole::Count],
};
static NONE_COMPLETED: Phrase = Phrase {
    en: "no request completed",
    de: "keine Anfrage wurde abgeschlossen",
    de_one: None,
    holes: &[],
};

/// vLLM: no request completed (`failed` of them failed, when the file says); the latency
/// statistics are placeholders.
pub(crate) fn placeholders_dropped(source: &str, failed: Option<u64>) -> String {
    let what = match failed {
        Some(f) => ALL_FAILED.with(&[&f.to_string()]),
        None => NONE_COMPLETED.en.to_string(),
    };
    PLACEHOLDERS.with(&[source, &what])
}

static ZERO_STATISTIC: Phrase = Phrase {
    en: "{0}: every {1} statistic is 0.0, vLLM's value for an empty sample; dropped",
    de: "{0}: jede Statistik von {1} ist 0.0, der Wert, den vLLM für eine leere Stichprobe schreibt; verworfen",
    de_one: None,
    holes: &[Hole::Source, Hole::Data],
};

/// vLLM: every statistic of `key` is 0.0.
pub(crate) fn zero_statistic(source: &str, key: &str) -> String {
    ZERO_STATISTIC.with(&[source, key])
}

static SKIPPED: Phrase = Phrase {
    en: "{0}: skipped ({1})",
    de: "{0}: übersprungen ({1})",
    de_one: None,
    holes: &[Hole::Data, Hole::Said(&[&FILE_EMPTY, &UNRECOGNISED])],
};

/// A folder's file that is no result: `notes.txt: skipped (the file is empty)`, with the
/// message of the error that said so.
pub(crate) fn skipped(path: &str, message: &str) -> String {
    SKIPPED.with(&[path, message])
}

static SAME_RUNS: Phrase = Phrase {
    en: "{0}: skipped; the same runs are read from the other files in its folder",
    de: "{0}: übersprungen; dieselben Läufe werden aus den anderen Dateien im selben Ordner gelesen",
    de_one: None,
    holes: &[Hole::Data],
};

/// A folder's summary file that repeats the runs of the other files in its folder.
pub(crate) fn skipped_same_runs(path: &str) -> String {
    SAME_RUNS.with(&[path])
}

/// Detection: an empty file.
pub(crate) static FILE_EMPTY: Phrase = Phrase {
    en: "the file is empty",
    de: "die Datei ist leer",
    de_one: None,
    holes: &[],
};

static UNRECOGNISED: Phrase = Phrase {
    en: "unrecognised format: {0} (supported: vllm bench serve JSON / JSON Lines / sweep folders, AIPerf JSON / CSV / per-request JSONL, GenAI-Perf JSON / CSV, guidellm benchmarks.json / benchmarks.yaml)",
    de: "unbekanntes Format: {0} (unterstützt: vllm bench serve JSON / JSON Lines / Sweep-Ordner, AIPerf JSON / CSV / JSONL je Anfrage, GenAI-Perf JSON / CSV, guidellm benchmarks.json / benchmarks.yaml)",
    de_one: None,
    holes: &[Hole::Said(HINTS)],
};

/// Detection: the message of a file of no supported format, with what it looks like instead
/// (one of the hints below).
pub(crate) fn unrecognised(hint: &str) -> String {
    UNRECOGNISED.with(&[hint])
}

/// Detection's hints: what a file of no supported format looks like instead.
static HINTS: &[&Phrase] = &[
    &NOT_TEXT,
    &PROMETHEUS,
    &GUIDELLM_CSV,
    &CSV_HEADER,
    &NOT_JSON,
    &LM_EVAL,
    &LITELLM_LOG,
    &AIPERF_AGGREGATE,
    &PERF_ANALYZER,
    &OTHER_OBJECT,
    &EMPTY_LIST,
    &OTHER_LIST,
    &BARE_VALUE,
    &OTHER_LINES,
];

/// A hint without data.
const fn hint(en: &'static str, de: &'static str) -> Phrase {
    Phrase {
        en,
        de,
        de_one: None,
        holes: &[],
    }
}

pub(crate) static NOT_TEXT: Phrase = hint(
    "it is not text (a binary file?)",
    "es ist kein Text (eine Binärdatei?)",
);
pub(crate) static PROMETHEUS: Phrase = hint(
    "it looks like a Prometheus /metrics scrape, not a load-test result",
    "es sieht nach einem Abruf von Prometheus-/metrics aus, nicht nach einem Lasttest-Ergebnis",
);
pub(crate) static GUIDELLM_CSV: Phrase = hint(
    "it is guidellm's benchmarks.csv, whose percentiles carry no labels; import the benchmarks.json (or .yaml) guidellm wrote with it",
    "es ist die benchmarks.csv von guidellm, deren Perzentile keine Beschriftung tragen; importieren Sie die benchmarks.json (oder .yaml), die guidellm dazu geschrieben hat",
);
static CSV_HEADER: Phrase = Phrase {
    en: "the CSV header \"{0}\" is neither an AIPerf nor a GenAI-Perf summary",
    de: "die CSV-Kopfzeile „{0}“ ist weder eine Zusammenfassung von AIPerf noch eine von GenAI-Perf",
    de_one: None,
    holes: &[Hole::Data],
};
pub(crate) static NOT_JSON: Phrase = hint(
    "it is not JSON, JSON Lines or a summary CSV",
    "es ist weder JSON noch JSON Lines noch eine Zusammenfassungs-CSV",
);
pub(crate) static LM_EVAL: Phrase = hint(
    "it is an lm-evaluation-harness result (evaluation scores), not a load-test result",
    "es ist ein Ergebnis von lm-evaluation-harness (Bewertungspunkte), kein Lasttest-Ergebnis",
);
pub(crate) static LITELLM_LOG: Phrase = hint(
    "it is a LiteLLM request log entry, not a load-test result",
    "es ist ein Eintrag aus dem Anfrageprotokoll von LiteLLM, kein Lasttest-Ergebnis",
);
pub(crate) static AIPERF_AGGREGATE: Phrase = hint(
    "it is an AIPerf aggregate over several runs (aggregate/ or sweep_aggregate/); import the per-run profile_export_aiperf.json files, or the whole sweep folder, instead",
    "es ist eine Zusammenfassung von AIPerf über mehrere Läufe (aggregate/ oder sweep_aggregate/); importieren Sie stattdessen die Dateien profile_export_aiperf.json der einzelnen Läufe oder den ganzen Sweep-Ordner",
);
pub(crate) static PERF_ANALYZER: Phrase = hint(
    "it is a raw perf_analyzer profile export; import the *_genai_perf.json summary instead",
    "es ist ein roher Profil-Export von perf_analyzer; importieren Sie stattdessen die Zusammenfassung *_genai_perf.json",
);
pub(crate) static OTHER_OBJECT: Phrase = hint(
    "a JSON object without the keys of any supported tool",
    "ein JSON-Objekt ohne die Schlüssel eines unterstützten Werkzeugs",
);
pub(crate) static EMPTY_LIST: Phrase = hint("an empty JSON list", "eine leere JSON-Liste");
pub(crate) static OTHER_LIST: Phrase = hint(
    "a JSON list whose items are not vllm bench serve results",
    "eine JSON-Liste, deren Einträge keine Ergebnisse von vllm bench serve sind",
);
pub(crate) static BARE_VALUE: Phrase = hint("a bare JSON value", "ein einzelner JSON-Wert");
pub(crate) static OTHER_LINES: Phrase = hint(
    "JSON Lines whose first record is neither an AIPerf per-request record nor a vllm bench serve result",
    "JSON Lines, deren erster Datensatz weder ein Datensatz je Anfrage von AIPerf noch ein Ergebnis von vllm bench serve ist",
);

/// Detection's hint for a CSV whose header is no summary's.
pub(crate) fn csv_header_hint(header: &str) -> String {
    CSV_HEADER.with(&[header])
}

static PER_REQUEST_EXPORT: Phrase = Phrase {
    en: "{0}: per-request export; statistics were computed from {1} records (exact percentiles); the run configuration (model, concurrency, workload) is not in this file",
    de: "{0}: Export je Anfrage; die Statistiken wurden aus {1} Datensätzen berechnet (exakte Perzentile); die Konfiguration des Laufs (Modell, Parallelität, Arbeitslast) steht nicht in dieser Datei",
    de_one: Some(
        "{0}: Export je Anfrage; die Statistiken wurden aus {1} Datensatz berechnet (exakte Perzentile); die Konfiguration des Laufs (Modell, Parallelität, Arbeitslast) steht nicht in dieser Datei",
    ),
    holes: &[Hole::Data, Hole::Count],
};

/// AIPerf per-request JSONL: the statistics are computed from `records` records.
pub(crate) fn per_request_export(file: &str, records: u64) -> String {
    PER_REQUEST_EXPORT.with(&[file, &records.to_string()])
}

static WARMUP_SKIPPED: Phrase = Phrase {
    en: "{0}: {1} warm-up records skipped",
    de: "{0}: {1} Aufwärm-Datensätze übersprungen",
    de_one: Some("{0}: {1} Aufwärm-Datensatz übersprungen"),
    holes: &[Hole::Data, Hole::Count],
};

/// AIPerf per-request JSONL: `skipped` warm-up records.
pub(crate) fn warmup_skipped(file: &str, skipped: u64) -> String {
    WARMUP_SKIPPED.with(&[file, &skipped.to_string()])
}

static ITL_NOT_COMPUTED: Phrase = Phrase {
    en: "{0}: ITL percentiles not computed (exact_itl_percentiles is off); count, mean, std, min and max are exact",
    de: "{0}: ITL-Perzentile nicht berechnet (exact_itl_percentiles ist aus); Anzahl, Mittelwert, Standardabweichung, Minimum und Maximum sind exakt",
    de_one: None,
    holes: &[Hole::Data],
};

/// AIPerf per-request JSONL: the ITL percentiles were not computed.
pub(crate) fn itl_not_computed(file: &str) -> String {
    ITL_NOT_COMPUTED.with(&[file])
}

static NOT_GENERATIVE: Phrase = Phrase {
    en: "{0}: type \"{1}\" is not a generative benchmark; skipped",
    de: "{0}: Typ „{1}“ ist kein generativer Messlauf; übersprungen",
    de_one: None,
    holes: &[Hole::Data, Hole::Data],
};

/// guidellm: a benchmark of another type than `generative_benchmark` (`at`: file and path).
pub(crate) fn not_generative(at: &str, kind: &str) -> String {
    NOT_GENERATIVE.with(&[at, kind])
}

static SAMPLES: Phrase = Phrase {
    en: "{0}: {1}; statistics are the tool's own, over all {2} requests",
    de: "{0}: {1}; die Statistiken sind die des Werkzeugs, über alle {2} Anfragen",
    de_one: None,
    holes: &[
        Hole::Data,
        Hole::One(&[&NO_SAMPLES, &SOME_SAMPLES]),
        Hole::Count,
    ],
};
static NO_SAMPLES: Phrase = Phrase {
    en: "the report keeps no per-request samples",
    de: "der Bericht enthält keine Stichproben je Anfrage",
    de_one: None,
    holes: &[],
};
static SOME_SAMPLES: Phrase = Phrase {
    en: "the report keeps per-request samples of {0} of its {1} requests",
    de: "der Bericht enthält Stichproben je Anfrage von {0} seiner {1} Anfragen",
    de_one: None,
    holes: &[Hole::Count, Hole::Count],
};

/// guidellm: the report keeps per-request samples of `kept` of its `total` requests (`at`:
/// file and path).
pub(crate) fn samples_kept(at: &str, kept: u64, total: u64) -> String {
    let what = if kept == 0 {
        NO_SAMPLES.en.to_string()
    } else {
        SOME_SAMPLES.with(&[&kept.to_string(), &total.to_string()])
    };
    SAMPLES.with(&[at, &what, &total.to_string()])
}

static CSV_SECTION: Phrase = Phrase {
    en: "{0}: section starting with \"{1}\" is not a metric summary; skipped",
    de: "{0}: Abschnitt, der mit „{1}“ beginnt, ist keine Zusammenfassung von Metriken; übersprungen",
    de_one: None,
    holes: &[Hole::Source, Hole::Data],
};

/// Summary CSV: a section that is no metric summary (`at`: [`at_line`]).
pub(crate) fn csv_section_skipped(at: &str, first_cell: &str) -> String {
    CSV_SECTION.with(&[at, first_cell])
}

static CSV_NO_CONFIG: Phrase = Phrase {
    en: "{0}: the CSV summary has no run configuration (model, concurrency, workload); import the JSON export for those",
    de: "{0}: die CSV-Zusammenfassung enthält keine Konfiguration des Laufs (Modell, Parallelität, Arbeitslast); importieren Sie dafür den JSON-Export",
    de_one: None,
    holes: &[Hole::Data],
};

/// Summary CSV: no run configuration.
pub(crate) fn csv_no_config(file: &str) -> String {
    CSV_NO_CONFIG.with(&[file])
}

static NOT_TIME_UNIT: Phrase = Phrase {
    en: "{0} has unit \"{1}\", which is not a time unit; skipped",
    de: "{0} hat die Einheit „{1}“, die keine Zeiteinheit ist; übersprungen",
    de_one: None,
    holes: &[Hole::Data, Hole::Data],
};

/// AIPerf / GenAI-Perf: a latency block with a unit that is no time unit.
pub(crate) fn not_time_unit(file: &str, tag: &str, unit: &str) -> String {
    NOT_TIME_UNIT.with(&[&format!("{file}: {tag}"), unit])
}

static NO_SUCCESS: Phrase = Phrase {
    en: "{0}: no request succeeded ({1} failed); there is no latency data",
    de: "{0}: keine Anfrage war erfolgreich ({1} fehlgeschlagen); es gibt keine Latenzdaten",
    de_one: None,
    holes: &[Hole::Data, Hole::Count],
};

/// AIPerf: no request succeeded.
pub(crate) fn no_success(file: &str, failed: u64) -> String {
    NO_SUCCESS.with(&[file, &failed.to_string()])
}

static CANCELLED: Phrase = Phrase {
    en: "{0}: the run was cancelled before it finished (was_cancelled = true)",
    de: "{0}: der Lauf wurde vor seinem Ende abgebrochen (was_cancelled = true)",
    de_one: None,
    holes: &[Hole::Data],
};

/// AIPerf: the run was cancelled.
pub(crate) fn cancelled(file: &str) -> String {
    CANCELLED.with(&[file])
}

static NO_REQUEST_COUNT: Phrase = Phrase {
    en: "{0}: no request_count in the file; completed is unknown",
    de: "{0}: kein request_count in der Datei; die Zahl der abgeschlossenen Anfragen ist unbekannt",
    de_one: None,
    holes: &[Hole::Data],
};

/// GenAI-Perf: no `request_count`.
pub(crate) fn no_request_count(file: &str) -> String {
    NO_REQUEST_COUNT.with(&[file])
}

static NON_STREAMING: Phrase = Phrase {
    en: "{0}: non-streaming run (streaming: false): TTFT is the whole request; it grades no TTFT mark{1}; the whole request is E2E",
    de: "{0}: Lauf ohne Streaming (streaming: false): TTFT ist die ganze Anfrage; sie bewertet keinen TTFT-Zielwert{1}; die ganze Anfrage ist E2E",
    de_one: None,
    holes: &[Hole::Source, Hole::Seq(&[&MOVED])],
};
static MOVED: Phrase = Phrase {
    en: ". The file's {0} are kept under settings non_streaming.*, not as TTFT, TTST, TPOT or ITL",
    de: ". Die Werte {0} der Datei stehen unter den Einstellungen non_streaming.*, nicht als TTFT, TTST, TPOT oder ITL",
    de_one: None,
    holes: &[Hole::Data],
};

/// A non-streaming run; `moved`: the file's statistics set aside (already quoted).
pub(crate) fn non_streaming(source: &str, moved: &[String]) -> String {
    let clause = if moved.is_empty() {
        String::new()
    } else {
        MOVED.with(&[&moved.join(", ")])
    };
    NON_STREAMING.with(&[source, &clause])
}

/// Every warning the importers write.
static WARNINGS: &[&Phrase] = &[
    &NON_FINITE,
    &NON_FINITE_LINES,
    &MISSING_KEYS,
    &PLACEHOLDERS,
    &ZERO_STATISTIC,
    &SKIPPED,
    &SAME_RUNS,
    &PER_REQUEST_EXPORT,
    &WARMUP_SKIPPED,
    &ITL_NOT_COMPUTED,
    &NOT_GENERATIVE,
    &SAMPLES,
    &CSV_SECTION,
    &CSV_NO_CONFIG,
    &NOT_TIME_UNIT,
    &NO_SUCCESS,
    &CANCELLED,
    &NO_REQUEST_COUNT,
    &NON_STREAMING,
];

/// The German of a stored warning; `None` when no importer writes it.
fn warning_de(text: &str, mode: Mode) -> Option<String> {
    WARNINGS.iter().find_map(|p| p.german(text, mode))
}

/// A stored import warning ([`super::Import::warnings`]) in `lang`: the importers' fixed words
/// are translated, the file's data (file names, paths, key names, values, versions) stays as
/// stored and the counts the importer wrote take the language's digit grouping. A text no
/// importer writes (an older version's, say) stays as it is, as does a part of one the
/// German does not know (an error message inside `skipped (…)`). English returns `text`
/// unchanged.
pub fn warning_in(text: &str, lang: Lang) -> String {
    match lang {
        Lang::En => text.to_string(),
        Lang::De => warning_de(text, Mode::German).unwrap_or_else(|| text.to_string()),
    }
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

    /// Tokens of a text: words of letters, digits, `_` and `-` (a hyphen at either end cut).
    fn tokens(text: &str) -> Vec<&str> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .map(|t| t.trim_matches('-'))
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// Names, keys and values the English and the German both write as they are.
    const KEPT: &[&str] = &[
        "NaN",
        "Infinity",
        "Python",
        "vLLM",
        "benchmark_serving",
        "completed",
        "exact_itl_percentiles",
        "was_cancelled",
        "true",
        "false",
        "streaming",
        "non_streaming",
        "request_count",
        "Lines",
        "vllm",
        "bench",
        "serve",
        "AIPerf",
        "GenAI-Perf",
        "guidellm",
        "benchmarks",
        "json",
        "yaml",
        "csv",
        "LiteLLM",
        "lm-evaluation-harness",
        "aggregate",
        "sweep_aggregate",
        "profile_export_aiperf",
        "perf_analyzer",
        "_genai_perf",
        "Prometheus",
        "metrics",
    ];

    /// The German of `english`, a warning an importer writes, with each check: English
    /// unchanged, every part known, and no English word of the phrase left in the German
    /// (the words of its fixed text, less names, keys and acronyms such as `TTFT`).
    fn german_checked(english: &str) -> String {
        assert_eq!(warning_in(english, Lang::En), english);
        let german =
            warning_de(english, Mode::Strict).unwrap_or_else(|| panic!("no German: `{english}`"));
        assert_eq!(warning_in(english, Lang::De), german);
        assert_ne!(german, english);
        // A word may stay as often as the file's data holds it (a key `duration`, say).
        let fixed = warning_de(english, Mode::Skeleton).unwrap();
        let count = |text: &str, word: &str| tokens(text).iter().filter(|t| **t == word).count();
        for word in tokens(&fixed)
            .into_iter()
            .filter(|t| t.chars().count() >= 3)
            .filter(|t| {
                !t.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            })
            .filter(|t| !KEPT.contains(t))
        {
            let in_data = count(english, word) - count(&fixed, word);
            assert!(
                count(&german, word) <= in_data,
                "`{german}` keeps `{word}` of `{english}`"
            );
        }
        german
    }

    /// Each warning phrase (and every variant: counts of one, the optional clauses, each
    /// hint of a skipped file) built as the importers build it: English as written, German
    /// with no English word of the phrase, the file's data kept.
    #[test]
    fn every_warning_phrase_has_german() {
        let src = "results.jsonl line 3";
        let keys = "`completed`, `duration`";
        let computed = ["request_throughput", "output_throughput"];
        let mut cases: Vec<String> = vec![
            non_finite("bench.json"),
            non_finite_lines("profile_export.jsonl", 1),
            non_finite_lines("profile_export.jsonl", 1024),
            missing_keys(src, "`completed`", false, &[]),
            missing_keys(src, keys, true, &computed),
            missing_keys(src, keys, true, &[]),
            missing_keys(src, keys, false, &computed),
            placeholders_dropped(src, Some(8)),
            placeholders_dropped(src, Some(1)),
            placeholders_dropped(src, None),
            zero_statistic(src, "ttft_ms"),
            skipped("notes.txt", FILE_EMPTY.text()),
            skipped_same_runs("run=0/summary.json"),
            per_request_export("profile_export.jsonl", 1000),
            per_request_export("profile_export.jsonl", 1),
            warmup_skipped("profile_export.jsonl", 1),
            warmup_skipped("profile_export.jsonl", 12),
            itl_not_computed("profile_export.jsonl"),
            not_generative("benchmarks.json benchmarks[0]", "synchronous_benchmark"),
            samples_kept("benchmarks.json benchmarks[0]", 0, 4),
            samples_kept("benchmarks.json benchmarks[0]", 2, 4),
            csv_section_skipped(&at_line("profile_export_aiperf.csv", 12), "Run Info"),
            csv_no_config("profile_export_aiperf.csv"),
            not_time_unit("profile_export_aiperf.json", "request_latency", "tokens"),
            no_success("profile_export_aiperf.json", 50),
            cancelled("profile_export_aiperf.json"),
            no_request_count("profile_export_genai_perf.csv"),
            non_streaming("profile_export_genai_perf.json", &[]),
            non_streaming(
                src,
                &[
                    "`time_to_first_token`".to_string(),
                    "`inter_token_latency`".to_string(),
                ],
            ),
        ];
        for hint in HINTS.iter().filter(|h| h.holes.is_empty()) {
            cases.push(skipped("x/run.json", &unrecognised(hint.text())));
        }
        let header = "Metric,avg,p50";
        cases.push(skipped(
            "x/run.csv",
            &unrecognised(&csv_header_hint(header)),
        ));

        // Every phrase numbers its holes in order in the English and fills each in the German.
        fn holes_in_order(p: &Phrase) {
            let (_, en) = split_template(p.en);
            assert_eq!(en, (0..p.holes.len()).collect::<Vec<_>>(), "`{}`", p.en);
            let (_, mut numbers) = split_template(p.de);
            numbers.sort();
            assert_eq!(numbers, en, "`{}`", p.de);
            // The German for a count of one may say "one" in words instead.
            if let Some(de_one) = p.de_one {
                let (_, numbers) = split_template(de_one);
                assert!(numbers.iter().all(|n| en.contains(n)), "`{de_one}`");
            }
            for hole in p.holes {
                if let Hole::One(ps) | Hole::Said(ps) | Hole::Seq(ps) = hole {
                    ps.iter().for_each(|q| holes_in_order(q));
                }
            }
        }
        WARNINGS.iter().for_each(|p| holes_in_order(p));

        // Each top-level phrase is among the cases.
        for phrase in WARNINGS {
            assert!(
                cases
                    .iter()
                    .any(|w| phrase.german(w, Mode::Strict).is_some()),
                "no case of `{}`",
                phrase.en
            );
        }
        for english in &cases {
            let german = german_checked(english);
            for kept in [
                "results.jsonl",
                "profile_export.jsonl",
                "`completed`, `duration`",
                "request_throughput, output_throughput",
                "ttft_ms",
                "run=0/summary.json",
                "benchmarks.json benchmarks[0]",
                "„synchronous_benchmark“",
                "„Run Info“",
                "„tokens“",
                "profile_export_aiperf.json: request_latency",
                "`time_to_first_token`, `inter_token_latency`",
                "non_streaming.*",
                "was_cancelled = true",
                "exact_itl_percentiles",
                "„Metric,avg,p50“",
            ] {
                let english_form = kept.replace(['„', '“'], "\"");
                if english.contains(&english_form) {
                    assert!(german.contains(kept), "`{german}` lost `{kept}`");
                }
            }
        }

        // The whole sentences, to read them once.
        assert_eq!(
            warning_in(&placeholders_dropped(src, Some(1_024)), Lang::De),
            "results.jsonl Zeile 3: alle 1.024 Anfragen sind fehlgeschlagen; die \
             Latenzstatistiken der Datei sind Platzhalter (0.0) und wurden verworfen"
        );
        assert_eq!(
            warning_in(&placeholders_dropped(src, Some(1)), Lang::De),
            "results.jsonl Zeile 3: die eine Anfrage ist fehlgeschlagen; die \
             Latenzstatistiken der Datei sind Platzhalter (0.0) und wurden verworfen"
        );
        assert_eq!(
            warning_in(&missing_keys(src, keys, true, &computed), Lang::De),
            "results.jsonl Zeile 3: das Ergebnis nennt `completed`, `duration` nicht (ein \
             älteres oder gekürztes Ergebnis von benchmark_serving.py); die Latenzstatistiken \
             sind die der Datei, `completed` wurde aus den Listen je Anfrage gezählt, \
             request_throughput, output_throughput aus Anzahl abgeschlossener Anfragen, Dauer \
             und Token-Summen berechnet; alle weiteren Werte der fehlenden Schlüssel bleiben leer"
        );
        assert_eq!(
            warning_in(
                &csv_section_skipped(&at_line("a.csv", 7), "Run \"x\""),
                Lang::De
            ),
            "a.csv Zeile 7: Abschnitt, der mit „Run \"x\"“ beginnt, ist keine Zusammenfassung \
             von Metriken; übersprungen"
        );
        assert_eq!(
            warning_in(&non_finite_lines("p.jsonl", 1), Lang::De),
            "p.jsonl: NaN-/Infinity-Werte (nicht standardkonformes JSON von Python) wurden als \
             fehlende Werte gelesen (1 Zeile)"
        );
        assert_eq!(
            warning_in(
                &skipped("notes.txt", &unrecognised(NOT_JSON.text())),
                Lang::De
            ),
            "notes.txt: übersprungen (unbekanntes Format: es ist weder JSON noch JSON Lines \
             noch eine Zusammenfassungs-CSV (unterstützt: vllm bench serve JSON / JSON Lines / \
             Sweep-Ordner, AIPerf JSON / CSV / JSONL je Anfrage, GenAI-Perf JSON / CSV, \
             guidellm benchmarks.json / benchmarks.yaml))"
        );
    }

    /// The English warnings are the ones the importers wrote before the words moved here.
    #[test]
    fn warnings_read_as_before_in_english() {
        assert_eq!(
            non_finite_lines("p.jsonl", 2),
            "p.jsonl: NaN/Infinity values (Python's non-standard JSON) were read as missing values (2 lines)"
        );
        assert_eq!(
            placeholders_dropped("a.json", None),
            "a.json: no request completed; the latency statistics in the file are 0.0 placeholders and were dropped"
        );
        assert_eq!(
            missing_keys("a.json", "`completed`", true, &["request_throughput"]),
            "a.json: the result has no `completed` (an older or trimmed benchmark_serving.py result); the latency statistics are the file's own, `completed` was counted from the per-request arrays, request_throughput computed from completed, duration and token totals; every other figure the missing keys carry is left absent"
        );
        assert_eq!(
            not_time_unit("a.json", "request_latency", "tokens"),
            "a.json: request_latency has unit \"tokens\", which is not a time unit; skipped"
        );
        assert_eq!(
            csv_section_skipped(&at_line("a.csv", 7), "Run Info"),
            "a.csv line 7: section starting with \"Run Info\" is not a metric summary; skipped"
        );
        assert_eq!(
            skipped("x.txt", &unrecognised(&csv_header_hint("Metric,x"))),
            "x.txt: skipped (unrecognised format: the CSV header \"Metric,x\" is neither an AIPerf nor a GenAI-Perf summary (supported: vllm bench serve JSON / JSON Lines / sweep folders, AIPerf JSON / CSV / per-request JSONL, GenAI-Perf JSON / CSV, guidellm benchmarks.json / benchmarks.yaml))"
        );
        assert_eq!(
            non_streaming("r.json", &[]),
            "r.json: non-streaming run (streaming: false): TTFT is the whole request; it grades no TTFT mark; the whole request is E2E"
        );
    }

    /// Real warnings, from importing the fixtures in `testdata/` (the files and folders the
    /// importer tests read them from, then every file and folder there), read wholly in German.
    #[test]
    fn real_import_warnings_read_in_german() {
        fn fixtures() -> std::path::PathBuf {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata")
        }
        fn file(rel: &str) -> Vec<String> {
            let bytes = std::fs::read(fixtures().join(rel)).unwrap();
            let name = rel.rsplit('/').next().unwrap();
            super::super::import(name, &bytes).unwrap().warnings
        }
        fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    walk(root, &path, out);
                } else {
                    let rel = path.strip_prefix(root).unwrap().to_str().unwrap();
                    out.push((rel.replace('\\', "/"), std::fs::read(&path).unwrap()));
                }
            }
        }
        fn folder(rel: &str, extra: &[(&str, &[u8])]) -> Vec<String> {
            let root = fixtures().join(rel);
            let mut files = Vec::new();
            walk(&root, &root, &mut files);
            files.extend(extra.iter().map(|(n, b)| (n.to_string(), b.to_vec())));
            super::super::import_sweep(&files).unwrap().warnings
        }
        let mut warnings = Vec::new();
        warnings.extend(file(
            "er0080-vllm-benchmarking/bench_serve_all_requests_failed_v0.25.1.json",
        ));
        warnings.extend(file(
            "lambdalabs-vllm-benchmark/Meta-Llama-3-8B-Instruct_tp1_len2048.stats-only.handmade.json",
        ));
        warnings.extend(file("aiperf-examples-run1/profile_export_aiperf.csv"));
        warnings.extend(file("aiperf-examples-run1/profile_export.head12.jsonl"));
        warnings.extend(folder("er0080-vllm-benchmarking/sweep_v0.25.1", &[]));
        warnings.extend(folder("aiperf-0.13.0-sweep", &[]));
        warnings.extend(folder(
            "akamaslabs-aiperf-sweep",
            &[("notes.txt", b"ran on Tuesday"), ("blank.json", b" \n")],
        ));
        // And whatever else the fixtures give: every file, and every folder as a folder upload.
        let root = fixtures();
        let mut all = Vec::new();
        walk(&root, &root, &mut all);
        for (rel, bytes) in &all {
            if let Ok(imp) = super::super::import(rel, bytes) {
                warnings.extend(imp.warnings);
            }
        }
        let mut dirs: Vec<String> = all
            .iter()
            .filter_map(|(rel, _)| rel.rsplit_once('/').map(|(dir, _)| dir))
            .flat_map(|dir| {
                dir.match_indices('/')
                    .map(|(at, _)| &dir[..at])
                    .chain([dir])
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        dirs.sort();
        dirs.dedup();
        for dir in &dirs {
            let prefix = format!("{dir}/");
            let inside: Vec<(String, Vec<u8>)> = all
                .iter()
                .filter_map(|(rel, bytes)| {
                    let rel = rel.strip_prefix(&prefix)?;
                    Some((rel.to_string(), bytes.clone()))
                })
                .collect();
            if let Ok(imp) = super::super::import_sweep(&inside) {
                warnings.extend(imp.warnings);
            }
        }
        for (phrase, expected) in [
            (&PLACEHOLDERS, 1),
            (&MISSING_KEYS, 1),
            (&CSV_NO_CONFIG, 1),
            (&PER_REQUEST_EXPORT, 1),
            (&SAME_RUNS, 2),
            (&SKIPPED, 4),
        ] {
            let found = warnings
                .iter()
                .filter(|w| phrase.german(w, Mode::Strict).is_some())
                .count();
            assert!(
                found >= expected,
                "{found} of `{}` in {warnings:#?}",
                phrase.en
            );
        }
        for w in &warnings {
            german_checked(w);
        }
    }

    #[test]
    fn an_unknown_warning_stays_as_it_is() {
        for text in [
            "",
            "something an older version wrote",
            "bench.json: a warning of a future version",
            // Almost a phrase: another ending, a count that is no number.
            "bench.json: NaN/Infinity values (Python's non-standard JSON) were read as missing",
            "p.jsonl: x warm-up records skipped",
        ] {
            assert_eq!(warning_in(text, Lang::De), text);
            assert_eq!(warning_in(text, Lang::En), text);
        }
        // A skipped file whose error no phrase here writes keeps that error as it is.
        let other = skipped("a.json", "the file has no records");
        assert_eq!(
            warning_in(&other, Lang::De),
            "a.json: übersprungen (the file has no records)"
        );
        assert_eq!(warning_de(&other, Mode::Strict), None);
    }
}
