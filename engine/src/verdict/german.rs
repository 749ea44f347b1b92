//! The German words of the grading explanations: labels, numbers, points and scopes as the
//! German report writes them (`p99 TTFT am Client`, `2.000 ms`, `alle Anfragen`).
//!
//! Each English sentence of [`super::grade`], [`super::samples`] and [`super::plan_grade`] has a
//! whole German counterpart next to it; these are only the pieces they share.

use crate::locale::Lang;
use crate::plan::{MeasurementPoint, Scope, Statistic, Unit, format_number};

/// [`format_number`] with a decimal comma and dots between thousands (`2.000`, `43,5`).
pub(crate) fn number(value: f64) -> String {
    format_number(value)
        .chars()
        .map(|c| match c {
            ',' => '.',
            '.' => ',',
            c => c,
        })
        .collect()
}

/// [`crate::plan::format_quantity`] in `lang`: `2.000 ms`, `25 Token/s`.
pub(crate) fn quantity(value: f64, unit: Unit, lang: Lang) -> String {
    match (lang, unit) {
        (Lang::En, unit) => crate::plan::format_quantity(value, unit),
        (Lang::De, Unit::Score) => number(value),
        (Lang::De, unit) => format!("{} {}", number(value), unit_symbol(unit)),
    }
}

/// The unit's symbol as the German report writes it.
pub(crate) fn unit_symbol(unit: Unit) -> String {
    unit.symbol().replace("tokens/s", "Token/s")
}

/// A count of requests: `30 Anfragen`, `1 Anfrage`.
pub(crate) fn requests(count: u64) -> String {
    format!(
        "{} {}",
        Lang::De.number(count as f64, 0),
        if count == 1 { "Anfrage" } else { "Anfragen" }
    )
}

/// The statistic as a noun phrase: `das p99`, `der Mittelwert`.
pub(crate) fn statistic(statistic: Statistic) -> String {
    match statistic {
        Statistic::Mean => "der Mittelwert".into(),
        Statistic::Max => "das Maximum".into(),
        Statistic::Rate => "die Rate".into(),
        percentile => format!("das {percentile}"),
    }
}

/// `alle Anfragen`, `das Szenario „RAG“`, `die geplante Spitzen-Parallelität`.
pub(crate) fn scope(scope: &Scope) -> String {
    scope.text_in(Lang::De)
}

/// What a time measured at `point` includes, as a relative clause (`das Netz … einschließt`).
pub(crate) fn includes(point: MeasurementPoint) -> &'static str {
    match point {
        MeasurementPoint::Client => {
            "das Netz, ein etwaiges Gateway und die Warteschlange einschließt"
        }
        MeasurementPoint::Gateway => {
            "das Gateway und alles dahinter einschließt, nicht aber das Netz des Clients"
        }
        MeasurementPoint::Engine => "erst in der Engine beginnt und Netz und Gateway auslässt",
        MeasurementPoint::EvaluationSet => "auf dem Evaluationsdatensatz bewertet wird",
    }
}

/// `am Client`, `an der Engine`.
pub(crate) fn at(point: MeasurementPoint) -> &'static str {
    crate::plan::sentence::german_at(point)
}

/// [`crate::plan::MarkKey::label`] in German: `p99 TTFT am Client`,
/// `Fehlerrate am Gateway (Szenario „RAG“)`.
pub(crate) fn key_label(key: &crate::plan::MarkKey) -> String {
    key.label_in(Lang::De)
}

/// A mismatch's aspect, for "(auch … weichen ab)".
pub(crate) fn aspect(aspect: &str) -> &str {
    match aspect {
        "evidence" => "Nachweis",
        "measurement point" => "Messpunkt",
        "statistic" => "Statistik",
        "scope" => "Geltungsbereich",
        "definition" => "Definition",
        "unit" => "Einheit",
        "engine version" => "Engine-Version",
        "sample size" => "Stichprobengröße",
        other => other,
    }
}

/// A figure's source ([`super::EvidenceStatistic::source`]) in `lang`. The source is the
/// evidence's name (a file name, a tool: data, kept as recorded) joined with the words
/// [`super::collect`] and the pilot's evidence add around it: the kind of file
/// (`gateway log`, `evaluation run`, `/metrics scrape`), `, concurrency N`,
/// `, scenario “X”` and `(worst of N scenarios)`, and a point's source the file name may carry
/// (`run.jsonl line 3`, see [`crate::ingest::point_source_in`]). Those words are swapped for
/// their German; anything else stays as recorded.
pub fn source_in(source: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return source.to_string();
    }
    let mut text = crate::ingest::words::point_sources_within_in(source, lang);
    for (en, de) in [
        ("gateway log", "Gateway-Log"),
        ("evaluation run ", "Evaluationslauf "),
        ("/metrics scrape ", "/metrics-Scrape "),
        ("upload of ", "Upload von "),
    ] {
        if let Some(rest) = text.strip_prefix(en) {
            text = format!("{de}{rest}");
            break;
        }
    }
    if let Some(at) = text.rfind(" (worst of ")
        && let Some(count) = text[at..]
            .strip_prefix(" (worst of ")
            .and_then(|r| r.strip_suffix(" scenarios)"))
            .filter(|c| c.chars().all(|ch| ch.is_ascii_digit()))
    {
        text = format!("{} (das schlechteste von {count} Szenarien)", &text[..at]);
    }
    if let Some(at) = text.find(", scenario “")
        && let Some(end) = text[at..].find('”')
    {
        let name = &text[at + ", scenario “".len()..at + end];
        text = format!(
            "{}, Szenario „{name}“{}",
            &text[..at],
            &text[at + end + '”'.len_utf8()..]
        );
    }
    if let Some(at) = text.find(", concurrency ") {
        let digits = grouped_number(&text[at + ", concurrency ".len()..]);
        let value = digits.replace(',', ".");
        text = format!(
            "{}, Parallelität {value}{}",
            &text[..at],
            &text[at + ", concurrency ".len() + digits.len()..]
        );
    }
    // A rate sweep's point placed by Little's law (see `loadtest::in_flight`).
    for (en, de) in [
        (
            " in flight by Little's law at ",
            " gleichzeitig nach Littles Gesetz bei ",
        ),
        (
            " in flight by Little's law, all sent at once",
            " gleichzeitig nach Littles Gesetz, alle zugleich gesendet",
        ),
        (" req/s", " Anfr./s"),
    ] {
        text = text.replace(en, de);
    }
    text
}

/// The leading number of `text` with its thousands separators ("1,024"),
/// stopping before a comma that ends the clause (", scenario").
fn grouped_number(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    while bytes.get(end) == Some(&b',')
        && bytes.len() >= end + 4
        && bytes[end + 1..end + 4].iter().all(u8::is_ascii_digit)
        && !bytes.get(end + 4).is_some_and(u8::is_ascii_digit)
    {
        end += 4;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_keep_their_data_and_change_their_words() {
        let source = "vllm bench serve, run.jsonl, concurrency 1,024, scenario “long → short” \
                      (worst of 3 scenarios)";
        assert_eq!(
            source_in(source, Lang::De),
            "vllm bench serve, run.jsonl, Parallelität 1.024, Szenario „long → short“ \
             (das schlechteste von 3 Szenarien)"
        );
        assert_eq!(source_in(source, Lang::En), source);
        assert_eq!(
            source_in("gateway log", Lang::De),
            "Gateway-Log",
            "the kind alone"
        );
        assert_eq!(
            source_in("evaluation run q.jsonl (m, fp16)", Lang::De),
            "Evaluationslauf q.jsonl (m, fp16)"
        );
        assert_eq!(source_in("lab notes", Lang::De), "lab notes");
        assert_eq!(
            source_in(
                "v100-qwen-benchmark-report.jsonl line 12, concurrency 8, scenario “chat”",
                Lang::De
            ),
            "v100-qwen-benchmark-report.jsonl Zeile 12, Parallelität 8, Szenario „chat“",
            "a point read from one line of a file"
        );
        assert_eq!(
            source_in("run.jsonl line 3", Lang::De),
            "run.jsonl Zeile 3",
            "a point's source alone (the capacity twin's notes)"
        );
    }
}
