//! Problems found in a plan, named so a form can point at the field.
//!
//! Errors block saving (or approving); warnings are shown next to the field and do not. Both name
//! the section, the item's position (0-based `index`; people see `number()` = index + 1) and the
//! field, using the field names of the plan forms.
//!
//! `Display` is the English text (the REST API, logs and scripts read it). Each error carries its
//! message in German too (`message_de`), written whole at the site that finds the problem, like
//! the engine's other `_in(lang)` wording; [`PlanFieldError::text_in`] and
//! [`PlanErrors::text_in`] word the whole line for a reader of either language, naming the item
//! and the field as the plan editor labels them.

use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The part of a plan a problem or a change is in. Serde names: `pass_mark`, `scenario`,
/// `demand`, `quality`, `serving`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanSection {
    PassMark,
    Scenario,
    Demand,
    Quality,
    Serving,
}

impl PlanSection {
    /// The serde name.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanSection::PassMark => "pass_mark",
            PlanSection::Scenario => "scenario",
            PlanSection::Demand => "demand",
            PlanSection::Quality => "quality",
            PlanSection::Serving => "serving",
        }
    }

    /// `pass mark`, `scenario`, `demand`, `quality set`, `pilot serving`.
    pub fn label(self) -> &'static str {
        match self {
            PlanSection::PassMark => "pass mark",
            PlanSection::Scenario => "scenario",
            PlanSection::Demand => "demand",
            PlanSection::Quality => "quality set",
            PlanSection::Serving => "pilot serving",
        }
    }

    /// [`PlanSection::label`] in `lang`; German as the plan editor heads its sections:
    /// `Zielwert`, `Szenario`, `Lastannahmen`, `Qualitätsdatensatz`, `Pilot-Serving`.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, section) => section.label(),
            (Lang::De, PlanSection::PassMark) => "Zielwert",
            (Lang::De, PlanSection::Scenario) => "Szenario",
            (Lang::De, PlanSection::Demand) => "Lastannahmen",
            (Lang::De, PlanSection::Quality) => "Qualitätsdatensatz",
            (Lang::De, PlanSection::Serving) => "Pilot-Serving",
        }
    }
}

fn location(section: PlanSection, index: Option<usize>) -> String {
    location_in(section, index, Lang::En)
}

/// `pass mark 2` / `Zielwert 2`, `demand` / `Lastannahmen`.
fn location_in(section: PlanSection, index: Option<usize>, lang: Lang) -> String {
    match index {
        Some(index) => format!("{} {}", section.label_in(lang), index + 1),
        None => section.label_in(lang).to_string(),
    }
}

/// A plan form field as a reader of `lang` knows it: English keeps the form field's name
/// (`threshold`), German takes the label the plan editor shows (`Grenze`). Fields the editor
/// labels with their technical name (`GPU`, `max_num_batched_tokens`) stay as they are.
pub fn field_label_in(field: &str, lang: Lang) -> &str {
    if lang == Lang::En {
        return field;
    }
    match field {
        "metric" => "Metrik",
        "custom_name" => "Name der eigenen Metrik",
        "statistic" => "Statistik",
        "comparator" => "Vergleich",
        "threshold" => "Grenze",
        "unit" => "Einheit",
        "point" => "Messpunkt",
        "scope" => "Geltungsbereich",
        "definition" => "Definition",
        "rationale" => "Warum",
        "name" => "Name",
        "input_tokens_low" => "Prompt von (Token)",
        "input_tokens_high" => "Prompt bis (Token)",
        "output_tokens_low" => "Antwort von (Token)",
        "output_tokens_high" => "Antwort bis (Token)",
        "pilot_users" => "Pilotnutzer",
        "production_users" => "Nutzer in Produktion",
        "peak_arrival_rate_req_s" => "Spitzen-Ankunftsrate (Anfragen/s)",
        "context_tokens_per_request" => "Kontext je Anfrage (Token)",
        "planned_peak_concurrency" => "Geplante Spitzen-Parallelität",
        "questions" => "Evaluationsfragen",
        "hit_k" => "k der Trefferquote@k",
        "engine" => "Serving-Engine",
        "engine_version" => "Engine-Version",
        "gpu" => "GPU",
        "precision" => "Präzision der Gewichte",
        "kv_cache_dtype" => "Datentyp des KV-Cache",
        "tensor_parallel" => "Tensorparallelität",
        "prefix_caching" => "Prefix-Caching",
        "cuda_graphs" => "CUDA-Graphen",
        other => other,
    }
}

/// A field of one part of a plan (a pass mark, a scenario, demand, quality set or serving) that
/// failed validation, before the plan names the part: the field, the English message and the
/// same message in German. `Display` is `field: message`, like [`crate::pilot::FieldError`],
/// which it converts into (English).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FormFieldError {
    /// The form field, e.g. `threshold`.
    pub field: &'static str,
    pub message: String,
    /// `message` in German.
    pub message_de: String,
}

impl FormFieldError {
    /// An error of `field` with its message in English (`en`) and German (`de`).
    pub(crate) fn new_in(
        field: &'static str,
        en: impl Into<String>,
        de: impl Into<String>,
    ) -> Self {
        FormFieldError {
            field,
            message: en.into(),
            message_de: de.into(),
        }
    }

    /// The message in `lang` (English: `message` exactly).
    pub fn message_in(&self, lang: Lang) -> &str {
        pick(lang, &self.message, &self.message_de)
    }

    /// `field: message` in `lang`; German names the field as the editor labels it
    /// (`Grenze: muss größer als null sein`). English is the `Display` text exactly.
    pub fn text_in(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        format!(
            "{}: {}",
            field_label_in(self.field, lang),
            self.message_in(lang)
        )
    }

    /// The same problem, placed in a plan: `section` and the item's 0-based `index`.
    pub(crate) fn placed(self, section: PlanSection, index: Option<usize>) -> PlanFieldError {
        PlanFieldError::new_in(section, index, self.field, self.message, self.message_de)
    }
}

impl From<FormFieldError> for crate::pilot::FieldError {
    fn from(error: FormFieldError) -> Self {
        crate::pilot::FieldError {
            field: error.field,
            message: error.message,
        }
    }
}

/// `en` for English; `de` for German unless it is empty (an error stored before German
/// existed), then `en`.
/// `Zielwert 2, Grenze: <message>`: an item and field as the plan editor labels them in `lang`.
fn line_in(
    section: PlanSection,
    index: Option<usize>,
    field: &str,
    message: &str,
    lang: Lang,
) -> String {
    format!(
        "{}, {}: {message}",
        location_in(section, index, lang),
        field_label_in(field, lang)
    )
}

fn pick<'a>(lang: Lang, en: &'a str, de: &'a str) -> &'a str {
    match lang {
        Lang::De if !de.is_empty() => de,
        _ => en,
    }
}

/// A field of a plan that failed validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{}, {field}: {message}", location(*section, *index))]
pub struct PlanFieldError {
    pub section: PlanSection,
    /// Position of the pass mark or scenario (0-based); `None` for demand, quality and serving.
    pub index: Option<usize>,
    /// The form field, e.g. `threshold`.
    pub field: String,
    pub message: String,
    /// `message` in German; empty in errors serialised before it existed.
    #[serde(default)]
    pub message_de: String,
}

impl PlanFieldError {
    /// An error of `field` of the item at `index` in `section`, with its message in English
    /// (`en`) and German (`de`).
    pub(crate) fn new_in(
        section: PlanSection,
        index: Option<usize>,
        field: &str,
        en: impl Into<String>,
        de: impl Into<String>,
    ) -> Self {
        PlanFieldError {
            section,
            index,
            field: field.to_string(),
            message: en.into(),
            message_de: de.into(),
        }
    }

    /// The message in `lang` (English: `message` exactly).
    pub fn message_in(&self, lang: Lang) -> &str {
        pick(lang, &self.message, &self.message_de)
    }

    /// The whole line in `lang`: `Zielwert 2, Grenze: muss größer als null sein`. English is
    /// the `Display` text exactly.
    pub fn text_in(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        line_in(
            self.section,
            self.index,
            &self.field,
            self.message_in(lang),
            lang,
        )
    }

    /// The item's number as people count (index + 1).
    pub fn number(&self) -> Option<usize> {
        self.index.map(|index| index + 1)
    }
}

/// Every error found in a plan, in form order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub struct PlanErrors {
    pub errors: Vec<PlanFieldError>,
}

impl fmt::Display for PlanErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.errors.as_slice() {
            [] => f.write_str("no errors"),
            [only] => write!(f, "{only}"),
            [first, rest @ ..] => write!(f, "{first} (and {} more)", rest.len()),
        }
    }
}

impl PlanErrors {
    /// [`PlanErrors`]' `Display` in `lang`: the first error and how many more
    /// (`… (und 2 weitere)`). English is the `Display` text exactly.
    pub fn text_in(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self.errors.as_slice() {
            [] => "keine Fehler".into(),
            [only] => only.text_in(lang),
            [first, rest @ ..] => format!("{} (und {} weitere)", first.text_in(lang), rest.len()),
        }
    }

    /// Every error in `lang`, one after another (`; `), as a refusal lists them.
    pub fn joined_in(&self, lang: Lang) -> String {
        self.errors
            .iter()
            .map(|e| e.text_in(lang))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The errors of one pass mark (by 0-based index).
    pub fn for_pass_mark(&self, index: usize) -> impl Iterator<Item = &PlanFieldError> {
        self.errors
            .iter()
            .filter(move |e| e.section == PlanSection::PassMark && e.index == Some(index))
    }
}

/// Something worth a second look that does not block saving or approval. `Display` is the
/// English line; [`PlanWarning::text_in`] words it for a reader of either language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanWarning {
    pub section: PlanSection,
    pub index: Option<usize>,
    pub field: String,
    pub message: String,
    /// `message` in German; empty in warnings serialised before it existed.
    #[serde(default)]
    pub message_de: String,
}

impl PlanWarning {
    /// A warning on `field` of the item at `index` in `section`, with its message in English
    /// (`en`) and German (`de`).
    pub(crate) fn new_in(
        section: PlanSection,
        index: Option<usize>,
        field: &str,
        en: impl Into<String>,
        de: impl Into<String>,
    ) -> Self {
        PlanWarning {
            section,
            index,
            field: field.to_string(),
            message: en.into(),
            message_de: de.into(),
        }
    }

    /// The message in `lang` (English: `message` exactly).
    pub fn message_in(&self, lang: Lang) -> &str {
        pick(lang, &self.message, &self.message_de)
    }

    /// The whole line in `lang`, named as the plan editor labels the item and the field:
    /// `Zielwert 1, Statistik: …`. English is the `Display` text exactly.
    pub fn text_in(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        line_in(
            self.section,
            self.index,
            &self.field,
            self.message_in(lang),
            lang,
        )
    }
}

impl fmt::Display for PlanWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {}: {}",
            location(self.section, self.index),
            self.field,
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::comparator::Comparator;
    use crate::plan::content::tests::{error_rate_mark, plan, rag_scenario};
    use crate::plan::content::{PlanContent, TokenRange};
    use crate::plan::form::PlanForm;
    use crate::plan::metric::Metric;
    use crate::plan::pass_mark::PassMark;
    use crate::plan::pass_mark::tests::ttft_p95;
    use crate::plan::point::MeasurementPoint;
    use crate::plan::scope::Scope;
    use crate::plan::statistic::Statistic;
    use crate::plan::unit::Unit;

    /// Words that give an English sentence away.
    const ENGLISH: [&str; 9] = [
        " the ", " must ", " is ", " not ", " and ", " of ", " be ", " or ", "unknown",
    ];

    #[test]
    fn errors_name_the_item_by_number_and_field() {
        let error = PlanFieldError::new_in(
            PlanSection::PassMark,
            Some(1),
            "threshold",
            "too big",
            "zu groß",
        );
        assert_eq!(error.to_string(), "pass mark 2, threshold: too big");
        assert_eq!(error.text_in(Lang::De), "Zielwert 2, Grenze: zu groß");
        assert_eq!(error.number(), Some(2));
        let demand =
            PlanFieldError::new_in(PlanSection::Demand, None, "pilot_users", "zero", "null");
        let all = PlanErrors {
            errors: vec![error.clone(), demand],
        };
        assert_eq!(
            all.to_string(),
            "pass mark 2, threshold: too big (and 1 more)"
        );
        assert_eq!(
            all.text_in(Lang::De),
            "Zielwert 2, Grenze: zu groß (und 1 weitere)"
        );
        assert_eq!(
            all.joined_in(Lang::De),
            "Zielwert 2, Grenze: zu groß; Lastannahmen, Pilotnutzer: null"
        );
        assert_eq!(all.for_pass_mark(1).count(), 1);
        assert_eq!(all.for_pass_mark(0).count(), 0);
    }

    #[test]
    fn errors_stored_before_german_existed_read_in_english() {
        let json = r#"{"section":"quality","index":null,"field":"hit_k","message":"too big"}"#;
        let error: PlanFieldError = serde_json::from_str(json).unwrap();
        assert_eq!(error.message_de, "");
        assert_eq!(error.message_in(Lang::De), "too big");
        assert_eq!(
            error.text_in(Lang::De),
            "Qualitätsdatensatz, k der Trefferquote@k: too big"
        );
    }

    /// The errors of the sound test plan with `change` applied.
    fn bad_plan(change: impl FnOnce(&mut PlanContent)) -> Vec<PlanFieldError> {
        let mut content = plan();
        change(&mut content);
        content.validate().unwrap_err().errors
    }

    /// The errors of the sound test plan with its one pass mark replaced by `mark`.
    fn bad_mark(mark: PassMark) -> Vec<PlanFieldError> {
        bad_plan(|p| p.pass_marks = vec![mark])
    }

    /// The errors of the sound test plan's form with `change` applied.
    fn bad_form(change: impl FnOnce(&mut PlanForm)) -> Vec<PlanFieldError> {
        let mut form = PlanForm::from(&plan());
        change(&mut form);
        PlanContent::parse(&form).unwrap_err().errors
    }

    fn custom(name: &str, unit: Unit) -> PassMark {
        PassMark {
            metric: Metric::Custom {
                name: name.into(),
                unit,
            },
            statistic: Statistic::Mean,
            comparator: Comparator::Ge,
            threshold: 2.0,
            unit,
            definition: "Quellen je Antwort gezählt".into(),
            rationale: String::new(),
            ..ttft_p95()
        }
    }

    fn speed(statistic: Statistic, comparator: Comparator) -> PassMark {
        PassMark {
            metric: Metric::OutputSpeedPerUser,
            statistic,
            comparator,
            threshold: 25.0,
            unit: Unit::TokensPerS,
            definition: String::new(),
            ..ttft_p95()
        }
    }

    fn error_rate(comparator: Comparator, threshold: f64) -> PassMark {
        PassMark {
            comparator,
            threshold,
            ..error_rate_mark()
        }
    }

    /// Every error a bad plan can produce, each with a piece of the English it must show (so
    /// each place that words an error is reached): marks, scenarios, demand, quality set and
    /// serving as the engine checks them, then the form fields as the editor posts them.
    fn every_bad_plan() -> Vec<(&'static str, Vec<PlanFieldError>)> {
        vec![
            // A pass mark on its own.
            (
                "must be at most 80 characters",
                bad_mark(custom(&"x".repeat(81), Unit::Score)),
            ),
            (
                "must not contain control characters",
                bad_mark(PassMark {
                    rationale: "Zeile\u{7}".into(),
                    ..ttft_p95()
                }),
            ),
            (
                "a custom metric needs a name",
                bad_mark(custom("  ", Unit::Score)),
            ),
            (
                "a custom metric needs its definition",
                bad_mark(PassMark {
                    definition: " ".into(),
                    ..custom("Quellen", Unit::Score)
                }),
            ),
            (
                "name the scenario this mark applies to",
                bad_mark(PassMark {
                    scope: Scope::Scenario(" ".into()),
                    ..ttft_p95()
                }),
            ),
            (
                "of per-user speed describes the fastest requests",
                bad_mark(speed(Statistic::P95, Comparator::Ge)),
            ),
            (
                "`rate` is for shares of requests",
                bad_mark(PassMark {
                    statistic: Statistic::Rate,
                    ..ttft_p95()
                }),
            ),
            (
                "percentiles are for latency",
                bad_mark(PassMark {
                    metric: Metric::AggregateOutputThroughput,
                    ..speed(Statistic::P99, Comparator::Ge)
                }),
            ),
            (
                "error rate cannot be graded on its mean; use rate",
                bad_mark(PassMark {
                    statistic: Statistic::Mean,
                    ..error_rate_mark()
                }),
            ),
            (
                "TTFT is measured in ms or s, not tokens/s",
                bad_mark(PassMark {
                    unit: Unit::TokensPerS,
                    ..ttft_p95()
                }),
            ),
            (
                "a rate is a share of requests, written in %, not req/s",
                bad_mark(PassMark {
                    metric: Metric::Goodput,
                    statistic: Statistic::Rate,
                    comparator: Comparator::Ge,
                    threshold: 2.0,
                    unit: Unit::ReqPerS,
                    ..ttft_p95()
                }),
            ),
            (
                "answer score in % is a share of requests: use `rate`, not mean",
                bad_mark(PassMark {
                    metric: Metric::AnswerScore,
                    statistic: Statistic::Mean,
                    comparator: Comparator::Ge,
                    threshold: 80.0,
                    unit: Unit::Percent,
                    point: MeasurementPoint::EvaluationSet,
                    ..ttft_p95()
                }),
            ),
            (
                "less TTFT is better",
                bad_mark(PassMark {
                    comparator: Comparator::Ge,
                    ..ttft_p95()
                }),
            ),
            (
                "more output speed per user is better",
                bad_mark(speed(Statistic::Mean, Comparator::Le)),
            ),
            (
                "is measured on live traffic or a load test",
                bad_mark(PassMark {
                    point: MeasurementPoint::EvaluationSet,
                    ..ttft_p95()
                }),
            ),
            (
                "is scored on the evaluation set, not at the gateway",
                bad_mark(PassMark {
                    metric: Metric::RetrievalHitRate,
                    comparator: Comparator::Ge,
                    threshold: 80.0,
                    ..error_rate_mark()
                }),
            ),
            (
                "threshold: must be a number",
                bad_mark(PassMark {
                    threshold: f64::NAN,
                    ..ttft_p95()
                }),
            ),
            (
                "a share must lie between 0 and 100 %",
                bad_mark(error_rate(Comparator::Le, 101.0)),
            ),
            (
                "≤ 100 % can never fail",
                bad_mark(error_rate(Comparator::Le, 100.0)),
            ),
            (
                "< 0 % can never pass",
                bad_mark(error_rate(Comparator::Lt, 0.0)),
            ),
            (
                "must be greater than zero",
                bad_mark(PassMark {
                    threshold: 0.0,
                    ..ttft_p95()
                }),
            ),
            // Across marks and scenarios.
            (
                "pass mark 1 already sets a limit on p95 TTFT at the gateway",
                bad_plan(|p| p.pass_marks.push(ttft_p95())),
            ),
            (
                "the plan has no scenario named “Batch”",
                bad_plan(|p| {
                    p.pass_marks[0].scope = Scope::Scenario("Batch".into());
                }),
            ),
            (
                "scenario 1 already has this name",
                bad_plan(|p| p.scenarios.push(rag_scenario())),
            ),
            // Scenarios.
            (
                "a scenario needs a name",
                bad_plan(|p| p.scenarios[0].name = " ".into()),
            ),
            (
                "name: must be at most 80 characters",
                bad_plan(|p| p.scenarios[0].name = "y".repeat(81)),
            ),
            (
                "input_tokens_low: must be at least 1 token",
                bad_plan(|p| p.scenarios[0].input_tokens.low_tokens = 0),
            ),
            (
                "must be at most 10000000 tokens",
                bad_plan(|p| {
                    p.scenarios[0].output_tokens = TokenRange {
                        low_tokens: 1,
                        high_tokens: 10_000_001,
                    }
                }),
            ),
            (
                "must be at least the low end of the range",
                bad_plan(|p| p.scenarios[0].input_tokens.high_tokens = 10),
            ),
            // Demand.
            (
                "pilot_users: must be at least 1 (leave empty if not known)",
                bad_plan(|p| p.demand.pilot_users = Some(0)),
            ),
            (
                "production_users: must be at least 1",
                bad_plan(|p| p.demand.production_users = Some(0)),
            ),
            (
                "must be a number of requests per second above zero",
                bad_plan(|p| p.demand.peak_arrival_rate_req_s = Some(-1.0)),
            ),
            (
                "context_tokens_per_request: must be at least 1 token",
                bad_plan(|p| p.demand.context_tokens_per_request = Some(0)),
            ),
            (
                "must be at least 1 request in flight",
                bad_plan(|p| p.demand.planned_peak_concurrency = Some(0)),
            ),
            (
                "is larger than any context window",
                bad_plan(|p| p.demand.context_tokens_per_request = Some(20_000_000)),
            ),
            // Quality set.
            (
                "questions: must be at least 1",
                bad_plan(|p| p.quality.questions = Some(0)),
            ),
            (
                "must be between 1 and 1000",
                bad_plan(|p| p.quality.hit_k = Some(1_001)),
            ),
            // Serving.
            (
                "gpu: must not contain control characters",
                bad_plan(|p| p.serving.gpu = "H200\u{0}".into()),
            ),
            (
                "engine: must be at most 120 characters",
                bad_plan(|p| p.serving.engine = "v".repeat(121)),
            ),
            (
                "must be between 1 and 1024",
                bad_plan(|p| p.serving.tensor_parallel = Some(0)),
            ),
            (
                "max_num_batched_tokens: must be at least 1 token",
                bad_plan(|p| p.serving.max_num_batched_tokens = Some(0)),
            ),
            // The plan's form, field by field.
            (
                "metric: choose a metric",
                bad_form(|f| f.pass_marks[0].metric.clear()),
            ),
            (
                "unknown metric `speed`",
                bad_form(|f| f.pass_marks[0].metric = "speed".into()),
            ),
            ("choose a unit", bad_form(|f| f.pass_marks[0].unit.clear())),
            (
                "unknown unit `furlongs`",
                bad_form(|f| f.pass_marks[0].unit = "furlongs".into()),
            ),
            (
                "choose a statistic",
                bad_form(|f| f.pass_marks[0].statistic.clear()),
            ),
            (
                "unknown statistic `p42`",
                bad_form(|f| f.pass_marks[0].statistic = "p42".into()),
            ),
            (
                "choose ≤, <, ≥ or >",
                bad_form(|f| f.pass_marks[0].comparator.clear()),
            ),
            (
                "unknown comparator `~`",
                bad_form(|f| f.pass_marks[0].comparator = "~".into()),
            ),
            (
                "threshold: required",
                bad_form(|f| f.pass_marks[0].threshold.clear()),
            ),
            (
                "write decimals with a point",
                bad_form(|f| f.pass_marks[0].threshold = "0,5".into()),
            ),
            (
                "`fast` is not a number",
                bad_form(|f| f.pass_marks[0].threshold = "fast".into()),
            ),
            (
                "say where the figure is measured",
                bad_form(|f| f.pass_marks[0].point.clear()),
            ),
            (
                "unknown measurement point `moon`",
                bad_form(|f| f.pass_marks[0].point = "moon".into()),
            ),
            (
                "expected all traffic, the planned peak or a scenario",
                bad_form(|f| f.pass_marks[0].scope = "weekends".into()),
            ),
            (
                "input_tokens_low: required",
                bad_form(|f| f.scenarios[0].input_tokens_low.clear()),
            ),
            (
                "`2.5` is not a whole number",
                bad_form(|f| f.demand.pilot_users = "2.5".into()),
            ),
            (
                "`maybe`: expected on or off",
                bad_form(|f| f.serving.cuda_graphs = "maybe".into()),
            ),
        ]
    }

    #[test]
    fn every_plan_error_is_worded_in_german() {
        let cases = every_bad_plan();
        let mut count = 0;
        for (expected, errors) in &cases {
            assert!(
                errors.iter().any(|e| e.to_string().contains(expected)),
                "no error reads “{expected}”: {errors:?}"
            );
            for error in errors {
                count += 1;
                let en = error.to_string();
                let de = error.text_in(Lang::De);
                assert!(!error.message_de.is_empty(), "no German: {en}");
                assert_ne!(
                    error.message_in(Lang::De),
                    error.message,
                    "not translated: {en}"
                );
                assert_ne!(de, en, "not translated: {en}");
                for word in ENGLISH {
                    assert!(
                        !de.contains(word),
                        "{word:?} in German: {de} (English: {en})"
                    );
                }
            }
            let all = PlanErrors {
                errors: errors.clone(),
            };
            assert_ne!(all.text_in(Lang::De), all.to_string());
        }
        assert!(count >= cases.len());
    }

    #[test]
    fn english_is_the_display_text_exactly() {
        for (_, errors) in every_bad_plan() {
            for error in &errors {
                assert_eq!(error.text_in(Lang::En), error.to_string());
                assert_eq!(error.message_in(Lang::En), error.message);
            }
            let all = PlanErrors { errors };
            assert_eq!(all.text_in(Lang::En), all.to_string());
            let joined: Vec<String> = all.errors.iter().map(ToString::to_string).collect();
            assert_eq!(all.joined_in(Lang::En), joined.join("; "));
        }
    }

    #[test]
    fn german_names_the_item_and_the_field_as_the_editor_does() {
        let errors = bad_plan(|p| {
            p.pass_marks.push(PassMark {
                threshold: -5.0,
                ..error_rate_mark()
            });
            p.pass_marks.push(ttft_p95());
            p.quality.hit_k = Some(0);
        });
        let lines: Vec<String> = errors.iter().map(|e| e.text_in(Lang::De)).collect();
        assert_eq!(
            lines,
            vec![
                "Zielwert 3, Grenze: ein Anteil muss zwischen 0 und 100 % liegen",
                "Zielwert 4, Metrik: Zielwert 1 setzt bereits eine Grenze für p95 TTFT am \
                 Gateway; ein Zielwert je Kennzahl",
                "Qualitätsdatensatz, k der Trefferquote@k: muss zwischen 1 und 1.000 liegen",
            ]
        );
        assert_eq!(
            PlanErrors { errors }.text_in(Lang::De),
            "Zielwert 3, Grenze: ein Anteil muss zwischen 0 und 100 % liegen (und 2 weitere)"
        );
        let mark = PassMark::parse(&crate::plan::PassMarkForm {
            unit: "tokens/s".into(),
            ..crate::plan::PassMarkForm::from(&ttft_p95())
        })
        .unwrap_err();
        assert_eq!(
            mark.to_string(),
            "unit: TTFT is measured in ms or s, not tokens/s"
        );
        assert_eq!(
            mark.text_in(Lang::De),
            "Einheit: TTFT wird in ms oder s gemessen, nicht in Token/s"
        );
        let english: crate::pilot::FieldError = mark.into();
        assert_eq!(english.message, "TTFT is measured in ms or s, not tokens/s");
    }
}
