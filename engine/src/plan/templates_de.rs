//! The plan templates in German: a German assessor starts a plan whose rationales read in
//! German, and the template cards of the German plan editor say what each template is for.
//!
//! Kept by template id, with the rationales in the order of the template's marks, so the
//! English texts in [`super::templates`] stay the one place their numbers live; a test checks
//! that every template has its German and one rationale per mark. Citations keep the cited
//! names (MLPerf®, the scenario names) as published.

/// A template's words in German.
pub(super) struct GermanTemplate {
    pub title: &'static str,
    pub description: &'static str,
    /// The citation, in pieces (the trademark notice is shared).
    pub source: &'static [&'static str],
    /// One per mark, in the template's order.
    pub rationales: &'static [&'static str],
}

const MLPERF_TRADEMARK: &str = "MLPerf und das MLPerf-Logo sind eingetragene und nicht \
                                eingetragene Marken der MLCommons Association in den USA und \
                                anderen Ländern.";

const READING_FLOOR: &str = "Untergrenze Lesegeschwindigkeit: Unter etwa 6 Token/s je Stream \
                             erscheint die Antwort langsamer, als Menschen lesen.";

const ERROR_RATE_DEFAULT: &str = "Vorgabe von Pilot Desk: Fehlgeschlagene Anfragen zählen gegen \
                                  den Goodput; mehr als 1 von 100 ist ein Zuverlässigkeitsproblem, \
                                  das vor der Dimensionierung zu beheben ist.";

/// The German of template `id`; `None` for a template without (the English stays).
pub(super) fn german(id: &str) -> Option<GermanTemplate> {
    Some(match id {
        "mlperf-v6-llama2-70b-server" => GermanTemplate {
            title: "MLPerf Inference v6.0 · Llama 2 70B · Server",
            description: "Das Server-Szenario des Benchmarks: ein auf Durchsatz ausgelegter \
                          Dienst mit großzügiger Latenz. Damit lässt sich ein Pilot mit \
                          veröffentlichten Ergebnissen vergleichen.",
            source: &[
                "MLPerf® Inference v6.0 (MLCommons), Llama 2 70B, Server-Szenario: TTFT ≤ 2 s \
                 und TPOT ≤ 200 ms beim 99. Perzentil, wie im Leitfaden zur Pilotmessung \
                 zitiert. ",
                MLPERF_TRADEMARK,
            ],
            rationales: &[
                "MLPerf-v6.0-Grenze des Server-Szenarios für Llama 2 70B.",
                "MLPerf-v6.0-Grenze des Server-Szenarios für Llama 2 70B (5 Token/s je Nutzer).",
            ],
        },
        "mlperf-v6-llama2-70b-interactive" => GermanTemplate {
            title: "MLPerf Inference v6.0 · Llama 2 70B · Interactive",
            description: "Das interaktive Szenario des Benchmarks: Latenz wie im Chat. 40 ms je \
                          Token sind 25 Token/s je Nutzer, mehr als die Decode-Obergrenze \
                          mancher einzelnen Karte.",
            source: &[
                "MLPerf® Inference v6.0 (MLCommons), Llama 2 70B, Interactive-Szenario: TTFT ≤ \
                 450 ms und TPOT ≤ 40 ms beim 99. Perzentil, wie im Leitfaden zur Pilotmessung \
                 zitiert. ",
                MLPERF_TRADEMARK,
            ],
            rationales: &[
                "MLPerf-v6.0-Grenze des Interactive-Szenarios für Llama 2 70B.",
                "MLPerf-v6.0-Grenze des Interactive-Szenarios für Llama 2 70B (25 Token/s je \
                 Nutzer).",
            ],
        },
        "interactive-chat" => GermanTemplate {
            title: "Interaktiver Chat",
            description: "Ein Assistent, mit dem Menschen chatten: die ersten Worte bei den \
                          meisten Anfragen binnen einer halben Sekunde, und Antworten, die \
                          mindestens so schnell erscheinen, wie Menschen lesen.",
            source: &[
                "Referenzwerte von Pilot Desk (Fachnotizen, Tabelle der Referenzwerte): \
                     interaktiver Chat TTFT p95 < 500 ms; Untergrenze Lesegeschwindigkeit ≥ 6 \
                     Token/s je Stream. Der Zielwert der Fehlerrate ist eine Vorgabe von Pilot \
                     Desk.",
            ],
            rationales: &[
                "Interaktiver Chat: Nutzer bemerken eine Wartezeit ab einer halben Sekunde.",
                READING_FLOOR,
                ERROR_RATE_DEFAULT,
            ],
        },
        "strict-chat" => GermanTemplate {
            title: "Strenger Chat (Goodput-SLO)",
            description: "Ein Chat-Dienst mit strenger Dienstgüte: 95 % der Chats sehen das \
                          erste Token in weniger als 200 ms.",
            source: &[
                "Referenzwerte von Pilot Desk (Fachnotizen, Tabelle der Referenzwerte): \
                     strenger Chat (Goodput-SLO), 95 % der Chats TTFT < 200 ms. Der Zielwert \
                     der Fehlerrate ist eine Vorgabe von Pilot Desk.",
            ],
            rationales: &[
                "Dienstgüte des strengen Chats: 95 % der Chats beginnen in weniger als 200 ms.",
                ERROR_RATE_DEFAULT,
            ],
        },
        "rag-assistant" => GermanTemplate {
            title: "RAG-Assistent",
            description: "Ein Chat-Assistent, der aus abgerufenen Dokumenten antwortet: \
                          Chat-Latenz, dazu der Abruf getrennt von den Antworten bewertet (eine \
                          niedrige Trefferquote ist ein Suchproblem, das keine GPU behebt) und \
                          ein Zielwert für Antworten, die an ihrer Längengrenze abbrechen.",
            source: &[
                "Referenzwerte von Pilot Desk (Fachnotizen, Tabelle der Referenzwerte): \
                     interaktiver Chat TTFT p95 < 500 ms; Untergrenze Lesegeschwindigkeit ≥ 6 \
                     Token/s je Stream. Die Zielwerte für Retrieval-Trefferquote@5, Kürzungsrate \
                     und Fehlerrate sind Vorgaben von Pilot Desk.",
            ],
            rationales: &[
                "Zielwert für interaktiven Chat; lange RAG-Prompts erhöhen die TTFT, daher mit \
                 echten abgerufenen Passagen messen.",
                READING_FLOOR,
                "Vorgabe von Pilot Desk: Die akzeptierte Passage sollte bei mindestens 4 von 5 \
                 Fragen unter den 5 abgerufenen sein.",
                "Vorgabe von Pilot Desk: Gekürzte Antworten lesen sich wie falsche; mehr als 1 \
                 von 50 heißt, dass die Antwortgrenze oder der Kontext zu klein ist.",
                ERROR_RATE_DEFAULT,
            ],
        },
        "batch-offline" => GermanTemplate {
            title: "Batch / offline",
            description: "Dokumente, die verarbeitet werden, ohne dass jemand wartet: Es zählt \
                          der Durchsatz über den Lauf, nicht die Zeit bis zum ersten Token.",
            source: &[
                "Kein veröffentlichter Referenzwert: Jeder Zielwert hier ist eine Vorgabe \
                     von Pilot Desk. Die Durchsatz-Untergrenze auf das Batch-Volumen \
                     (Ausgabe-Token) ÷ das Zeitfenster setzen.",
            ],
            rationales: &[
                "Platzhalter-Vorgabe von Pilot Desk: durch die Ausgabe-Token des Batches ÷ die \
                 verfügbaren Sekunden ersetzen.",
                ERROR_RATE_DEFAULT,
                "Vorgabe von Pilot Desk: Eine abgebrochene Zusammenfassung oder Extraktion ist \
                 eine falsche.",
            ],
        },
        "coding-agent" => GermanTemplate {
            title: "Coding-Agent",
            description: "Ein Agent, der in vielen Schritten plant und Code schreibt: Jeder \
                          Schritt sollte binnen einer Sekunde beginnen und schnell streamen, da \
                          der Agent auf jedes Token wartet.",
            source: &[
                "Referenzwerte von Pilot Desk (Fachnotizen, Tabelle der Referenzwerte): \
                     Coding-Agent TTFT < 1 s; 60–90 Token/s je Stream sind üblich, 400+ schnell. \
                     Das Perzentil (p95) und der Zielwert der Fehlerrate sind Vorgaben von Pilot \
                     Desk.",
            ],
            rationales: &[
                "Coding-Agent: Jeder Schritt beginnt binnen einer Sekunde (zitiert); p95 ist \
                 die Wahl des Perzentils durch Pilot Desk.",
                "Unteres Ende der üblichen 60–90 Token/s je Stream; 400+ gilt als schnell.",
                ERROR_RATE_DEFAULT,
            ],
        },
        "inline-code-completion" => GermanTemplate {
            title: "Code-Vervollständigung beim Tippen",
            description: "Vorschläge beim Tippen: Sie nützen nur, wenn sie vor dem nächsten \
                          Tastendruck erscheinen.",
            source: &[
                "Referenzwerte von Pilot Desk (Fachnotizen, Tabelle der Referenzwerte): \
                     Code-Vervollständigung beim Tippen TTFT p95 < 100 ms. Ein Gateway fügt der \
                     TTFT der Engine etwa 100 ms hinzu, daher bleibt in diesem Budget fast nichts \
                     für eines. Der Zielwert der Fehlerrate ist eine Vorgabe von Pilot Desk.",
            ],
            rationales: &[
                "Vervollständigungen müssen vor dem nächsten Tastendruck erscheinen.",
                ERROR_RATE_DEFAULT,
            ],
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::templates::all;
    use crate::locale::Lang;

    #[test]
    fn every_template_has_its_german_with_one_rationale_per_mark() {
        for template in all() {
            let german = super::german(&template.id)
                .unwrap_or_else(|| panic!("{} has no German", template.id));
            assert_eq!(
                german.rationales.len(),
                template.marks.len(),
                "{}: one rationale per mark",
                template.id
            );
            let english = template.clone();
            let translated = template.in_lang(Lang::De);
            assert_eq!(translated.id, english.id);
            assert_eq!(translated.content().pass_marks.len(), english.marks.len());
            for (de, en) in translated.marks.iter().zip(&english.marks) {
                assert_ne!(
                    de.pass_mark.rationale, en.pass_mark.rationale,
                    "{}",
                    english.id
                );
                // Only the words change: the figures are the template's.
                let mut de = de.pass_mark.clone();
                de.rationale = en.pass_mark.rationale.clone();
                assert_eq!(de, en.pass_mark);
            }
            assert_ne!(translated.description, english.description);
            assert_ne!(translated.source, english.source);
            assert_eq!(english.clone().in_lang(Lang::En), english);
        }
    }
}
