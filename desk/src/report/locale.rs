//! Report languages: English and German headings and fixed text, numbers formatted per locale.
//!
//! The methodology seeds exist in both languages, so the report's own words do too. Figures the
//! engine phrases (pass-mark sentences, grading explanations, sizing steps) stay in English in
//! both languages: they are generated from the domain's definitions and translating them
//! piecemeal would risk a German sentence that says something subtly different.

use serde::{Deserialize, Serialize};

/// A report language. Serde / query names: `en`, `de`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    De,
}

impl Lang {
    /// Reads `en` / `de` (any case, also `english`, `deutsch`); `None` otherwise.
    pub fn parse(text: &str) -> Option<Lang> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "en" | "english" => Some(Lang::En),
            "de" | "german" | "deutsch" => Some(Lang::De),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }

    /// `value` with `decimals` decimals and thousands separators: `12,345.6` / `12.345,6`.
    pub fn number(self, value: f64, decimals: usize) -> String {
        if !value.is_finite() {
            return "—".into();
        }
        let text = format!("{:.*}", decimals, value.abs());
        let (whole, fraction) = match text.split_once('.') {
            Some((w, f)) => (w.to_string(), Some(f.to_string())),
            None => (text, None),
        };
        let (group, point) = match self {
            Lang::En => (',', '.'),
            Lang::De => ('.', ','),
        };
        let mut grouped = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(group);
            }
            grouped.push(digit);
        }
        let negative = value < 0.0 && text_is_nonzero(&grouped, fraction.as_deref());
        let mut out = String::new();
        if negative {
            out.push('−');
        }
        out.push_str(&grouped);
        if let Some(fraction) = fraction {
            out.push(point);
            out.push_str(&fraction);
        }
        out
    }

    /// A number with as many decimals as its size deserves (3 significant digits below 100).
    pub fn figure(self, value: f64) -> String {
        let magnitude = value.abs();
        let decimals = if magnitude >= 100.0 || magnitude == 0.0 {
            0
        } else if magnitude >= 10.0 {
            1
        } else if magnitude >= 1.0 {
            2
        } else {
            3
        };
        self.number(value, decimals)
    }

    /// A share 0–1 as a percentage: `12.5 %` / `12,5 %`.
    pub fn percent(self, share: f64) -> String {
        format!("{} %", self.number(share * 100.0, 1))
    }

    /// A UTC date and time: `2026-11-30 09:18 UTC` / `30.11.2026 09:18 UTC`.
    pub fn date_time(self, unix_ms: i64) -> String {
        let iso = engine::clock::utc_minute(unix_ms);
        match self {
            Lang::En => iso,
            Lang::De => {
                // `YYYY-MM-DD HH:MM UTC` → `DD.MM.YYYY HH:MM UTC`
                let (date, rest) = iso.split_once(' ').unwrap_or((iso.as_str(), ""));
                let parts: Vec<&str> = date.split('-').collect();
                if parts.len() == 3 {
                    format!("{}.{}.{} {rest}", parts[2], parts[1], parts[0])
                } else {
                    iso.clone()
                }
            }
        }
    }

    /// `en` or `de`, whichever is this language: the report's one-off words, written next to
    /// the code that places them so both languages stay side by side.
    pub fn pick<'a>(self, en: &'a str, de: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::De => de,
        }
    }

    pub fn labels(self) -> &'static Labels {
        match self {
            Lang::En => &EN,
            Lang::De => &DE,
        }
    }
}

fn text_is_nonzero(whole: &str, fraction: Option<&str>) -> bool {
    whole
        .chars()
        .chain(fraction.unwrap_or("").chars())
        .any(|c| c.is_ascii_digit() && c != '0')
}

/// The report's fixed words.
#[derive(Debug)]
pub struct Labels {
    pub report_title: &'static str,
    pub customer: &'static str,
    pub pilot: &'static str,
    pub model: &'static str,
    pub hardware: &'static str,
    pub serving: &'static str,
    pub pilot_status: &'static str,
    pub plan_version: &'static str,
    pub not_approved: &'static str,
    pub pilot_started: &'static str,
    pub report_date: &'static str,
    pub page: &'static str,
    pub contents: &'static str,
    pub summary: &'static str,
    pub verdict: &'static str,
    pub warnings: &'static str,
    pub plan: &'static str,
    pub plan_intro: &'static str,
    pub pass_mark: &'static str,
    pub measured: &'static str,
    pub status: &'static str,
    pub measured_at: &'static str,
    pub definition: &'static str,
    pub evidence: &'static str,
    pub scenarios: &'static str,
    pub demand_assumptions: &'static str,
    pub demand: &'static str,
    pub demand_intro: &'static str,
    pub no_traffic: &'static str,
    pub figure: &'static str,
    pub value: &'static str,
    pub load_tests: &'static str,
    pub load_tests_intro: &'static str,
    pub no_load_tests: &'static str,
    pub capacity_twin: &'static str,
    pub capacity_twin_intro: &'static str,
    /// The internal edition (prices shown): its name in the running header and the sentence on
    /// its title page.
    pub internal_edition: &'static str,
    pub internal_edition_note: &'static str,
    /// The verdict's headline: outcomes, tally words, no plan yet.
    pub outcome_passed: &'static str,
    pub outcome_failed: &'static str,
    pub outcome_incomplete: &'static str,
    pub pass_marks_met: &'static str,
    pub missed: &'static str,
    pub not_measured: &'static str,
    pub not_comparable: &'static str,
    pub grade_pass: &'static str,
    pub grade_fail: &'static str,
    pub nothing_to_grade: &'static str,
    /// Pilot statuses: planning, running, reporting, closed.
    pub statuses: [&'static str; 4],
    /// The shared page's link to its PDF.
    pub download_pdf: &'static str,
    /// The recommendation's cost columns (internal edition) and the marker of the pilot's own
    /// configuration.
    pub costs_caption: &'static str,
    pub cost_cards: &'static str,
    pub cost_per_million_output: &'static str,
    pub cost_per_million_input: &'static str,
    pub cost_not_priced: &'static str,
    pub cost_no_prediction: &'static str,
    pub pilot_configuration: &'static str,
    /// The capacity twin's basis words ([`engine::twin::Basis`]): how a figure was obtained.
    pub basis_measured: &'static str,
    pub basis_simulated: &'static str,
    pub basis_estimated: &'static str,
    /// The capacity-twin section when the pilot has no load test.
    pub twin_no_load_test: &'static str,
    /// The capacity-twin section when the twin makes no prediction and says no reason.
    pub twin_no_prediction: &'static str,
    /// The load line's words: `prompts …`, `answers …`, `configuration …`, `overall basis …`,
    /// `(read from …)`.
    pub twin_prompts: &'static str,
    pub twin_answers: &'static str,
    pub twin_configuration: &'static str,
    pub twin_overall_basis: &'static str,
    pub twin_read_from: &'static str,
    pub twin_caption: &'static str,
    pub twin_request_throughput: &'static str,
    pub twin_request_throughput_note: &'static str,
    pub twin_output: &'static str,
    pub twin_output_note: &'static str,
    pub twin_saturation_rate: &'static str,
    pub twin_saturation_rate_note: &'static str,
    /// The back-test sentence; `{method}`, `{median}`, `{worst}` and `{compared}` are filled in.
    pub twin_backtest: &'static str,
    /// The back-test sentence without an error; `{method}` is filled in.
    pub twin_backtest_without_error: &'static str,
    pub concurrency: &'static str,
    pub goodput: &'static str,
    pub quality: &'static str,
    pub quality_intro: &'static str,
    pub no_quality: &'static str,
    pub precision_decision: &'static str,
    pub run: &'static str,
    pub precision: &'static str,
    pub accuracy: &'static str,
    pub hit_rate: &'static str,
    pub truncated: &'static str,
    pub passed: &'static str,
    pub recommendation: &'static str,
    pub recommendation_intro: &'static str,
    pub no_recommendation: &'static str,
    pub arithmetic: &'static str,
    pub next_step: &'static str,
    pub cards: &'static str,
    pub cost: &'static str,
    pub configuration: &'static str,
    pub caveats: &'static str,
    pub appendix: &'static str,
    pub appendix_intro: &'static str,
    pub file: &'static str,
    pub kind: &'static str,
    pub tool: &'static str,
    pub settings: &'static str,
    pub uploaded: &'static str,
    /// The evidence list's status column and its values.
    pub evidence_status: &'static str,
    pub in_force: &'static str,
    pub withdrawn: &'static str,
    pub restored: &'static str,
    pub by: &'static str,
    pub size: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    pub not_graded: &'static str,
    pub caveat_latency: &'static str,
    pub caveat_ceiling: &'static str,
    pub caveat_pilot_concurrency: &'static str,
    pub caveat_small_set: &'static str,
    pub generated_by: &'static str,
}

pub static EN: Labels = Labels {
    report_title: "Pilot report",
    customer: "Customer",
    pilot: "Pilot",
    model: "Model",
    hardware: "Pilot hardware",
    serving: "Serving engine",
    pilot_status: "Pilot status",
    plan_version: "Plan version",
    not_approved: "no approved plan yet",
    pilot_started: "Pilot created",
    report_date: "Report date",
    page: "Page",
    contents: "Contents",
    summary: "Executive summary",
    verdict: "Verdict",
    warnings: "Read the verdict with these in mind",
    plan: "The plan and its pass marks",
    plan_intro: "The pass marks were written and approved before the pilot's users logged in; each is graded only against a figure of exactly its kind (metric, statistic, measurement point, scope, hardware).",
    pass_mark: "Pass mark",
    measured: "Measured",
    status: "Status",
    measured_at: "Measured at",
    definition: "Definition",
    evidence: "Evidence",
    scenarios: "Scenarios",
    demand_assumptions: "Demand assumptions",
    demand: "Demand profile",
    demand_intro: "Measured from the gateway log: what the pilot's users asked for. Demand, not the pilot's concurrency, carries over to production.",
    no_traffic: "No gateway log has been uploaded yet, so demand is not measured.",
    figure: "Figure",
    value: "Value",
    load_tests: "Load tests",
    load_tests_intro: "Latency against concurrency as the load generator measured it (client side). Each curve is one scenario of one run.",
    no_load_tests: "No load test has been uploaded yet.",
    capacity_twin: "Capacity twin",
    internal_edition: "Internal edition",
    outcome_passed: "All pass marks met",
    outcome_failed: "Pass marks missed",
    outcome_incomplete: "Incomplete",
    pass_marks_met: "pass marks met",
    missed: "missed",
    not_measured: "not measured",
    not_comparable: "not comparable",
    grade_pass: "Pass",
    grade_fail: "Fail",
    nothing_to_grade: "No approved plan yet: nothing to grade.",
    statuses: ["Planning", "Running", "Reporting", "Closed"],
    download_pdf: "Download the report as PDF",
    internal_edition_note: "Internal edition, with prices: for the vendor's staff, not for the customer. The customer edition of this report carries no price.",
    costs_caption: "Costs of the listed configurations (internal edition): per 1M tokens at the production rate as the capacity twin predicts it (Estimated)",
    cost_cards: "Cost (cards × unit price)",
    cost_per_million_output: "Per 1M output tokens",
    cost_per_million_input: "Per 1M input tokens",
    cost_not_priced: "no price set",
    cost_no_prediction: "not predicted",
    pilot_configuration: "the pilot's configuration",
    capacity_twin_intro: "Latency percentiles at the plan's production load, from a model of vLLM's continuous batching fitted on this pilot's load tests. Each figure says how it was obtained — Measured: read from a load test at that very point; Simulated: inside the range the load tests cover; Estimated: beyond it.",
    basis_measured: "Measured",
    basis_simulated: "Simulated",
    basis_estimated: "Estimated",
    twin_no_load_test: "No load test yet: the capacity twin is fitted on the pilot's own load tests, so it makes no prediction.",
    twin_no_prediction: "The capacity twin makes no prediction.",
    twin_prompts: "prompts",
    twin_answers: "answers",
    twin_configuration: "configuration",
    twin_overall_basis: "overall basis",
    twin_read_from: "read from",
    twin_caption: "Predicted latency percentiles (client side, per request)",
    twin_request_throughput: "Request throughput",
    twin_request_throughput_note: "completed requests per second at this load",
    twin_output: "Output",
    twin_output_note: "generated tokens per second, all streams together",
    twin_saturation_rate: "Saturation rate",
    twin_saturation_rate_note: "closed form of the fitted model: beyond it the queue grows without bound",
    twin_backtest: "Back-test ({method}): median error {median} %, worst {worst} % over {compared} comparisons of measured TTFT and TPOT percentiles.",
    twin_backtest_without_error: "Back-test: {method}. The prediction states no error.",
    concurrency: "Concurrency",
    goodput: "Goodput",
    quality: "Quality and the precision decision",
    quality_intro: "Scored on the pilot's evaluation set. The set is small, so every figure carries its 95 % interval.",
    no_quality: "No evaluation run has been uploaded yet.",
    precision_decision: "Precision decision",
    run: "Run",
    precision: "Precision",
    accuracy: "Answer accuracy",
    hit_rate: "Retrieval hit rate",
    truncated: "Truncated",
    passed: "Passed the plan",
    recommendation: "Production hardware recommendation",
    recommendation_intro: "One model of production for every candidate: the pilot's demand grown to production as an arrival process, the capacity twin transferred to each card by the physics of the work, and every candidate simulated with all copies up and with one copy down. Figures are Estimated, with their range.",
    no_recommendation: "No recommendation yet",
    arithmetic: "The arithmetic",
    next_step: "Next step: the load test on the candidate",
    cards: "Cards",
    cost: "Cost",
    configuration: "Configuration",
    caveats: "Caveats",
    appendix: "Appendix: evidence files",
    appendix_intro: "Every file this report rests on, with its SHA-256 so it can be checked against the original.",
    file: "File",
    kind: "Kind",
    tool: "Tool",
    settings: "Settings",
    uploaded: "Uploaded",
    evidence_status: "Status",
    in_force: "In force",
    withdrawn: "Withdrawn",
    restored: "Restored",
    by: "by",
    size: "Size",
    yes: "yes",
    no: "no",
    not_graded: "not graded",
    caveat_latency: "Latency does not carry across GPU types, engine versions or settings: the pilot's latencies belong to the pilot's hardware. The recommendation must be confirmed by a load test on the candidate.",
    caveat_ceiling: "Decode ceilings and KV-cache capacities are upper bounds from memory bandwidth and memory size; real throughput is lower.",
    caveat_pilot_concurrency: "The pilot's concurrency is not production's: concurrency on a candidate is the production arrival rate × that candidate's request time (Little's law).",
    caveat_small_set: "Quality figures come from a small evaluation set: read the intervals, not only the point values.",
    generated_by: "Generated by Pilot Desk",
};

pub static DE: Labels = Labels {
    report_title: "Pilotbericht",
    customer: "Kunde",
    pilot: "Pilot",
    model: "Modell",
    hardware: "Pilot-Hardware",
    serving: "Serving-Engine",
    pilot_status: "Status des Piloten",
    plan_version: "Planversion",
    not_approved: "noch kein freigegebener Plan",
    pilot_started: "Pilot angelegt",
    report_date: "Berichtsdatum",
    page: "Seite",
    contents: "Inhalt",
    summary: "Zusammenfassung",
    verdict: "Ergebnis",
    warnings: "Beim Lesen des Ergebnisses zu beachten",
    plan: "Der Plan und seine Abnahmekriterien",
    plan_intro: "Die Abnahmekriterien wurden geschrieben und freigegeben, bevor sich die ersten Pilotnutzer anmeldeten; jedes wird nur gegen einen Messwert genau seiner Art bewertet (Metrik, Statistik, Messpunkt, Geltungsbereich, Hardware).",
    pass_mark: "Abnahmekriterium",
    measured: "Gemessen",
    status: "Status",
    measured_at: "Messpunkt",
    definition: "Definition",
    evidence: "Nachweis",
    scenarios: "Szenarien",
    demand_assumptions: "Annahmen zur Nachfrage",
    demand: "Nachfrageprofil",
    demand_intro: "Aus dem Gateway-Log gemessen: was die Pilotnutzer angefragt haben. In die Produktion übertragen wird die Nachfrage, nicht die Parallelität des Piloten.",
    no_traffic: "Es wurde noch kein Gateway-Log hochgeladen; die Nachfrage ist nicht gemessen.",
    figure: "Kennzahl",
    value: "Wert",
    load_tests: "Lasttests",
    load_tests_intro: "Latenz über der Parallelität, wie der Lastgenerator sie gemessen hat (Client-Seite). Jede Kurve ist ein Szenario eines Laufs.",
    no_load_tests: "Es wurde noch kein Lasttest hochgeladen.",
    capacity_twin: "Kapazitäts-Zwilling",
    internal_edition: "Interne Ausgabe",
    outcome_passed: "Alle Zielwerte erreicht",
    outcome_failed: "Zielwerte verfehlt",
    outcome_incomplete: "Unvollständig",
    pass_marks_met: "Zielwerten erreicht",
    missed: "verfehlt",
    not_measured: "nicht gemessen",
    not_comparable: "nicht vergleichbar",
    grade_pass: "Erreicht",
    grade_fail: "Verfehlt",
    nothing_to_grade: "Noch kein freigegebener Plan: nichts zu bewerten.",
    statuses: ["Planung", "Laufend", "Berichterstellung", "Abgeschlossen"],
    download_pdf: "Bericht als PDF herunterladen",
    internal_edition_note: "Interne Ausgabe mit Preisen: für die Mitarbeiter des Anbieters, nicht für den Kunden. Die Kundenausgabe dieses Berichts enthält keine Preise.",
    costs_caption: "Kosten der aufgeführten Konfigurationen (interne Ausgabe): je 1 Mio. Token bei der Produktionsrate, wie der Kapazitäts-Zwilling sie vorhersagt (Geschätzt)",
    cost_cards: "Kosten (Karten × Stückpreis)",
    cost_per_million_output: "Je 1 Mio. Ausgabe-Token",
    cost_per_million_input: "Je 1 Mio. Eingabe-Token",
    cost_not_priced: "kein Preis hinterlegt",
    cost_no_prediction: "nicht vorhergesagt",
    pilot_configuration: "die Konfiguration des Piloten",
    capacity_twin_intro: "Latenz-Perzentile bei der Produktionslast des Plans, aus einem Modell des Continuous Batching von vLLM, angepasst an die Lasttests dieses Pilots. Jede Zahl sagt, wie sie entstand — Gemessen: aus einem Lasttest an genau diesem Punkt gelesen; Simuliert: innerhalb des gemessenen Bereichs; Geschätzt: darüber hinaus.",
    basis_measured: "Gemessen",
    basis_simulated: "Simuliert",
    basis_estimated: "Geschätzt",
    twin_no_load_test: "Noch kein Lasttest: Der Kapazitäts-Zwilling wird an den eigenen Lasttests des Piloten angepasst und macht daher keine Vorhersage.",
    twin_no_prediction: "Der Kapazitäts-Zwilling macht keine Vorhersage.",
    twin_prompts: "Prompts",
    twin_answers: "Antworten",
    twin_configuration: "Konfiguration",
    twin_overall_basis: "Grundlage insgesamt",
    twin_read_from: "gelesen aus",
    twin_caption: "Vorhergesagte Latenz-Perzentile (Client-Seite, je Anfrage)",
    twin_request_throughput: "Anfragedurchsatz",
    twin_request_throughput_note: "abgeschlossene Anfragen pro Sekunde bei dieser Last",
    twin_output: "Ausgabe",
    twin_output_note: "erzeugte Tokens pro Sekunde, alle Streams zusammen",
    twin_saturation_rate: "Sättigungsrate",
    twin_saturation_rate_note: "geschlossene Form des angepassten Modells: darüber wächst die Warteschlange ohne Grenze",
    twin_backtest: "Backtest ({method}): Fehler im Median {median} %, höchstens {worst} % über {compared} Vergleiche gemessener TTFT- und TPOT-Perzentile.",
    twin_backtest_without_error: "Backtest: {method}. Die Vorhersage nennt keinen Fehler.",
    concurrency: "Parallelität",
    goodput: "Goodput",
    quality: "Qualität und Entscheidung zur Präzision",
    quality_intro: "Auf dem Evaluationsdatensatz des Piloten bewertet. Der Datensatz ist klein, daher trägt jede Zahl ihr 95-%-Intervall.",
    no_quality: "Es wurde noch kein Evaluationslauf hochgeladen.",
    precision_decision: "Entscheidung zur Präzision",
    run: "Lauf",
    precision: "Präzision",
    accuracy: "Antwortgenauigkeit",
    hit_rate: "Trefferquote der Suche",
    truncated: "Abgeschnitten",
    passed: "Plan erfüllt",
    recommendation: "Hardware-Empfehlung für die Produktion",
    recommendation_intro: "Ein Modell der Produktion für jeden Kandidaten: die Nachfrage des Piloten als Ankunftsprozess auf die Produktion hochgerechnet, der Kapazitätszwilling nach der Physik der Arbeit auf jede Karte übertragen und jeder Kandidat mit allen Kopien und mit einer ausgefallenen Kopie simuliert. Die Werte sind geschätzt, mit ihrer Spanne.",
    no_recommendation: "Noch keine Empfehlung",
    arithmetic: "Die Rechnung",
    next_step: "Nächster Schritt: der Lasttest auf dem Kandidaten",
    cards: "Karten",
    cost: "Kosten",
    configuration: "Konfiguration",
    caveats: "Einschränkungen",
    appendix: "Anhang: Nachweisdateien",
    appendix_intro: "Jede Datei, auf der dieser Bericht beruht, mit ihrem SHA-256, damit sie mit dem Original abgeglichen werden kann.",
    file: "Datei",
    kind: "Art",
    tool: "Werkzeug",
    settings: "Einstellungen",
    uploaded: "Hochgeladen",
    evidence_status: "Status",
    in_force: "Gültig",
    withdrawn: "Zurückgezogen",
    restored: "Wiederhergestellt",
    by: "von",
    size: "Größe",
    yes: "ja",
    no: "nein",
    not_graded: "nicht bewertet",
    caveat_latency: "Latenz lässt sich nicht zwischen GPU-Typen, Engine-Versionen oder Einstellungen übertragen: Die Latenzen des Piloten gehören zur Hardware des Piloten. Die Empfehlung muss durch einen Lasttest auf dem Kandidaten bestätigt werden.",
    caveat_ceiling: "Decode-Obergrenzen und KV-Cache-Kapazitäten sind obere Schranken aus Speicherbandbreite und Speichergröße; der reale Durchsatz liegt darunter.",
    caveat_pilot_concurrency: "Die Parallelität des Piloten ist nicht die der Produktion: Die Parallelität auf einem Kandidaten ist die Ankunftsrate der Produktion × die Anfragedauer auf diesem Kandidaten (Littles Gesetz).",
    caveat_small_set: "Qualitätszahlen stammen aus einem kleinen Evaluationsdatensatz: Maßgeblich sind die Intervalle, nicht nur die Punktwerte.",
    generated_by: "Erstellt mit Pilot Desk",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_locale() {
        assert_eq!(Lang::En.number(12_345.678, 1), "12,345.7");
        assert_eq!(Lang::De.number(12_345.678, 1), "12.345,7");
        assert_eq!(Lang::De.number(999.0, 0), "999");
        assert_eq!(Lang::En.number(1_000_000.0, 0), "1,000,000");
        assert_eq!(Lang::En.number(-0.04, 1), "0.0");
        assert_eq!(Lang::En.number(-2.5, 1), "−2.5");
        assert_eq!(Lang::De.percent(0.125), "12,5 %");
        assert_eq!(Lang::En.figure(0.4567), "0.457");
        assert_eq!(Lang::De.figure(45.67), "45,7");
    }

    #[test]
    fn dates_follow_the_locale() {
        // 2026-11-30 09:18 UTC
        let at = 1_796_030_280_000;
        assert_eq!(Lang::En.date_time(at), engine::clock::utc_minute(at));
        assert!(
            Lang::De.date_time(at).starts_with("30.11.2026"),
            "{}",
            Lang::De.date_time(at)
        );
    }

    #[test]
    fn the_twin_sentences_keep_their_placeholders_in_both_languages() {
        for t in [&EN, &DE] {
            for placeholder in ["{method}", "{median}", "{worst}", "{compared}"] {
                assert_eq!(
                    t.twin_backtest.matches(placeholder).count(),
                    1,
                    "{placeholder} in {}",
                    t.twin_backtest
                );
            }
            assert_eq!(t.twin_backtest_without_error.matches("{method}").count(), 1);
        }
        assert_eq!(
            [DE.basis_measured, DE.basis_simulated, DE.basis_estimated],
            ["Gemessen", "Simuliert", "Geschätzt"]
        );
    }

    #[test]
    fn languages_parse() {
        assert_eq!(Lang::parse("DE"), Some(Lang::De));
        assert_eq!(Lang::parse(""), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
    }
}
