//! What a plan version contains: pass marks, scenarios, demand assumptions, the quality set and
//! the pilot's serving configuration.
//!
//! The sections mirror what the domain says carries over from pilot to production and what does
//! not. Demand (users, peak arrival rate, context per request) and quality (the evaluation set)
//! carry over; latency and throughput belong to the serving configuration they are measured with,
//! so the plan records that configuration next to the marks.
//!
//! Values the assessor may not know yet while drafting are `Option`s rather than zeros, so "not
//! stated" and "zero" never get confused. [`PlanContent::validate`] reports every error at once
//! (a form shows them all); [`PlanContent::warnings`] lists what deserves a second look without
//! blocking, such as an evaluation set outside the recommended 50–100 questions.

use super::error::{PlanErrors, PlanFieldError, PlanSection, PlanWarning};
use super::metric::{Metric, MetricFamily};
use super::pass_mark::{MAX_CUSTOM_NAME_CHARS, PassMark, check_text, count_de};
use super::point::MeasurementPoint;
use super::scope::Scope;
use super::statistic::Statistic;
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest token count a range may state (well above any context window).
pub const MAX_TOKENS: u32 = 10_000_000;
/// Largest tensor-parallel degree accepted.
pub const MAX_TENSOR_PARALLEL: u32 = 1_024;
/// Largest k for retrieval hit rate@k.
pub const MAX_HIT_K: u32 = 1_000;
/// Recommended evaluation set size: 50–100 real questions.
pub const RECOMMENDED_QUESTIONS: std::ops::RangeInclusive<u32> = 50..=100;
/// Longest text of a serving field (engine, GPU, precision …).
pub const MAX_SERVING_TEXT_CHARS: usize = 120;

/// An inclusive range of token counts in the model's own tokens, e.g. 500–2,000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TokenRange {
    pub low_tokens: u32,
    pub high_tokens: u32,
}

impl fmt::Display for TokenRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::unit::format_number;
        if self.low_tokens == self.high_tokens {
            write!(f, "{} tokens", format_number(self.low_tokens.into()))
        } else {
            write!(
                f,
                "{}–{} tokens",
                format_number(self.low_tokens.into()),
                format_number(self.high_tokens.into())
            )
        }
    }
}

/// A kind of traffic the pilot expects, described by its prompt and answer lengths. Prompt shape
/// decides the ceiling (prefill-heavy RAG, balanced chat, decode-heavy generation), so results are
/// kept per scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub name: String,
    pub input_tokens: TokenRange,
    pub output_tokens: TokenRange,
}

impl Scenario {
    /// `RAG lookups: 2,000–6,000 tokens in, 100–400 tokens out`.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} in, {} out",
            self.name.trim(),
            self.input_tokens,
            self.output_tokens
        )
    }
}

/// What the plan expects of demand; production scaling starts from these.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DemandAssumptions {
    /// People using the pilot.
    pub pilot_users: Option<u32>,
    /// People expected in production.
    pub production_users: Option<u32>,
    /// Requests started per second at the busiest hour (production), req/s.
    pub peak_arrival_rate_req_s: Option<f64>,
    /// Context each request needs: prompt plus answer, in tokens.
    pub context_tokens_per_request: Option<u32>,
    /// Requests in flight the pilot is planned to carry at its peak: the load-test concurrency at
    /// which marks scoped to the planned peak (and the client's view of all traffic) are graded.
    #[serde(default)]
    pub planned_peak_concurrency: Option<u32>,
}

impl DemandAssumptions {
    /// Production users ÷ pilot users, when both are stated.
    pub fn user_scale_factor(&self) -> Option<f64> {
        match (self.pilot_users, self.production_users) {
            (Some(pilot), Some(production)) if pilot > 0 => {
                Some(f64::from(production) / f64::from(pilot))
            }
            _ => None,
        }
    }
}

/// The evaluation set that scores retrieval and answers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QualitySet {
    /// Number of real questions with accepted answers (50–100 recommended).
    pub questions: Option<u32>,
    /// k of retrieval hit rate@k: how many passages are retrieved per question.
    pub hit_k: Option<u32>,
}

/// The serving configuration the pilot measures with; latency figures belong to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PilotServing {
    /// Serving engine, e.g. `vLLM`.
    pub engine: String,
    /// Engine version, e.g. `0.30.0`.
    pub engine_version: String,
    /// GPU type as marketed, e.g. `RTX PRO 6000 Blackwell Server Edition`.
    pub gpu: String,
    /// Weight precision, e.g. `FP8`.
    pub precision: String,
    /// KV cache data type, e.g. `fp8` or `auto`.
    pub kv_cache_dtype: String,
    /// Tensor-parallel degree.
    pub tensor_parallel: Option<u32>,
    /// vLLM `max_num_batched_tokens`: smaller favours ITL, larger favours TTFT.
    pub max_num_batched_tokens: Option<u32>,
    /// Whether prefix caching is on.
    pub prefix_caching: Option<bool>,
    /// Whether CUDA graphs are on (off = `--enforce-eager`).
    pub cuda_graphs: Option<bool>,
}

/// The content of one plan version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanContent {
    #[serde(default)]
    pub pass_marks: Vec<PassMark>,
    #[serde(default)]
    pub scenarios: Vec<Scenario>,
    #[serde(default)]
    pub demand: DemandAssumptions,
    #[serde(default)]
    pub quality: QualitySet,
    #[serde(default)]
    pub serving: PilotServing,
}

/// An error of scenario `index`'s `field`, worded in English (`en`) and German (`de`).
fn scenario_error(
    index: usize,
    field: &'static str,
    en: impl Into<String>,
    de: impl Into<String>,
) -> PlanFieldError {
    PlanFieldError::new_in(PlanSection::Scenario, Some(index), field, en, de)
}

fn validate_range(
    index: usize,
    range: TokenRange,
    low_field: &'static str,
    high_field: &'static str,
) -> Result<(), PlanFieldError> {
    if range.low_tokens == 0 {
        return Err(scenario_error(
            index,
            low_field,
            "must be at least 1 token",
            "muss mindestens 1 Token betragen",
        ));
    }
    if range.high_tokens > MAX_TOKENS {
        return Err(scenario_error(
            index,
            high_field,
            format!("must be at most {MAX_TOKENS} tokens"),
            format!("darf höchstens {} Token betragen", count_de(MAX_TOKENS)),
        ));
    }
    if range.high_tokens < range.low_tokens {
        return Err(scenario_error(
            index,
            high_field,
            "must be at least the low end of the range",
            "darf nicht unter dem unteren Ende des Bereichs liegen",
        ));
    }
    Ok(())
}

impl Scenario {
    pub(crate) fn validate(&self, index: usize) -> Result<(), PlanFieldError> {
        if self.name.trim().is_empty() {
            return Err(scenario_error(
                index,
                "name",
                "a scenario needs a name",
                "ein Szenario braucht einen Namen",
            ));
        }
        check_text("name", &self.name, MAX_CUSTOM_NAME_CHARS)
            .map_err(|e| e.placed(PlanSection::Scenario, Some(index)))?;
        validate_range(
            index,
            self.input_tokens,
            "input_tokens_low",
            "input_tokens_high",
        )?;
        validate_range(
            index,
            self.output_tokens,
            "output_tokens_low",
            "output_tokens_high",
        )
    }
}

impl DemandAssumptions {
    pub(crate) fn validate(&self, errors: &mut Vec<PlanFieldError>) {
        let mut fail = |field: &'static str, en: &str, de: &str| {
            errors.push(PlanFieldError::new_in(
                PlanSection::Demand,
                None,
                field,
                en,
                de,
            ));
        };
        if self.pilot_users == Some(0) {
            fail(
                "pilot_users",
                "must be at least 1 (leave empty if not known)",
                "muss mindestens 1 sein (leer lassen, wenn unbekannt)",
            );
        }
        if self.production_users == Some(0) {
            fail(
                "production_users",
                "must be at least 1 (leave empty if not known)",
                "muss mindestens 1 sein (leer lassen, wenn unbekannt)",
            );
        }
        if let Some(rate) = self.peak_arrival_rate_req_s
            && !(rate.is_finite() && rate > 0.0)
        {
            fail(
                "peak_arrival_rate_req_s",
                "must be a number of requests per second above zero",
                "muss eine Zahl von Anfragen je Sekunde über null sein",
            );
        }
        if self.context_tokens_per_request == Some(0) {
            fail(
                "context_tokens_per_request",
                "must be at least 1 token",
                "muss mindestens 1 Token betragen",
            );
        }
        if self.planned_peak_concurrency == Some(0) {
            fail(
                "planned_peak_concurrency",
                "must be at least 1 request in flight (leave empty if not known)",
                "muss mindestens 1 gleichzeitige Anfrage sein (leer lassen, wenn unbekannt)",
            );
        }
        if self
            .context_tokens_per_request
            .is_some_and(|tokens| tokens > MAX_TOKENS)
        {
            fail(
                "context_tokens_per_request",
                "is larger than any context window",
                "ist größer als jedes Kontextfenster",
            );
        }
    }
}

impl QualitySet {
    pub(crate) fn validate(&self, errors: &mut Vec<PlanFieldError>) {
        if self.questions == Some(0) {
            errors.push(PlanFieldError::new_in(
                PlanSection::Quality,
                None,
                "questions",
                "must be at least 1 (leave empty if not known)",
                "muss mindestens 1 sein (leer lassen, wenn unbekannt)",
            ));
        }
        if let Some(k) = self.hit_k
            && !(1..=MAX_HIT_K).contains(&k)
        {
            errors.push(PlanFieldError::new_in(
                PlanSection::Quality,
                None,
                "hit_k",
                format!("must be between 1 and {MAX_HIT_K}"),
                format!("muss zwischen 1 und {} liegen", count_de(MAX_HIT_K)),
            ));
        }
    }
}

impl PilotServing {
    pub(crate) fn validate(&self, errors: &mut Vec<PlanFieldError>) {
        let texts: [(&'static str, &str); 5] = [
            ("engine", &self.engine),
            ("engine_version", &self.engine_version),
            ("gpu", &self.gpu),
            ("precision", &self.precision),
            ("kv_cache_dtype", &self.kv_cache_dtype),
        ];
        for (field, value) in texts {
            if let Err(e) = check_text(field, value, MAX_SERVING_TEXT_CHARS) {
                errors.push(e.placed(PlanSection::Serving, None));
            }
        }
        if let Some(tp) = self.tensor_parallel
            && !(1..=MAX_TENSOR_PARALLEL).contains(&tp)
        {
            errors.push(PlanFieldError::new_in(
                PlanSection::Serving,
                None,
                "tensor_parallel",
                format!("must be between 1 and {MAX_TENSOR_PARALLEL}"),
                format!(
                    "muss zwischen 1 und {} liegen",
                    count_de(MAX_TENSOR_PARALLEL)
                ),
            ));
        }
        if self.max_num_batched_tokens == Some(0) {
            errors.push(PlanFieldError::new_in(
                PlanSection::Serving,
                None,
                "max_num_batched_tokens",
                "must be at least 1 token",
                "muss mindestens 1 Token betragen",
            ));
        }
    }

    /// `vLLM 0.30.0 on RTX PRO 6000, FP8, KV fp8, TP=2`: the parts that are stated.
    pub fn summary(&self) -> String {
        let engine = [self.engine.trim(), self.engine_version.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let mut parts = Vec::new();
        match (engine.is_empty(), self.gpu.trim()) {
            (false, "") => parts.push(engine),
            (true, "") => {}
            (true, gpu) => parts.push(gpu.to_string()),
            (false, gpu) => parts.push(format!("{engine} on {gpu}")),
        }
        if !self.precision.trim().is_empty() {
            parts.push(self.precision.trim().to_string());
        }
        if !self.kv_cache_dtype.trim().is_empty() {
            parts.push(format!("KV {}", self.kv_cache_dtype.trim()));
        }
        if let Some(tp) = self.tensor_parallel {
            parts.push(format!("TP={tp}"));
        }
        parts.join(", ")
    }
}

impl PlanContent {
    /// Checks the whole plan and reports every error found, in form order: each pass mark on its
    /// own, marks that duplicate another's figure, scopes naming a scenario the plan lacks, the
    /// scenarios (named, unique, sensible token ranges), demand, quality set and serving.
    pub fn validate(&self) -> Result<(), PlanErrors> {
        let mut errors = Vec::new();
        for (index, mark) in self.pass_marks.iter().enumerate() {
            if let Err(e) = mark.validate() {
                errors.push(e.placed(PlanSection::PassMark, Some(index)));
                continue;
            }
            let key = mark.key();
            if let Some(first) = self.pass_marks[..index]
                .iter()
                .position(|earlier| earlier.key().same_as(&key))
            {
                errors.push(PlanFieldError::new_in(
                    PlanSection::PassMark,
                    Some(index),
                    "metric",
                    format!(
                        "pass mark {} already sets a limit on {}; one mark per figure",
                        first + 1,
                        key.label()
                    ),
                    format!(
                        "Zielwert {} setzt bereits eine Grenze für {}; ein Zielwert je Kennzahl",
                        first + 1,
                        key.label_in(Lang::De)
                    ),
                ));
            }
            if let Scope::Scenario(name) = &mark.scope
                && !self.has_scenario(name)
            {
                errors.push(PlanFieldError::new_in(
                    PlanSection::PassMark,
                    Some(index),
                    "scope",
                    format!("the plan has no scenario named “{}”", name.trim()),
                    format!("der Plan hat kein Szenario namens „{}“", name.trim()),
                ));
            }
        }
        for (index, scenario) in self.scenarios.iter().enumerate() {
            if let Err(e) = scenario.validate(index) {
                errors.push(e);
                continue;
            }
            if let Some(first) = self.scenarios[..index]
                .iter()
                .position(|earlier| same_name(&earlier.name, &scenario.name))
            {
                errors.push(scenario_error(
                    index,
                    "name",
                    format!("scenario {} already has this name", first + 1),
                    format!("Szenario {} trägt diesen Namen bereits", first + 1),
                ));
            }
        }
        self.demand.validate(&mut errors);
        self.quality.validate(&mut errors);
        self.serving.validate(&mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(PlanErrors { errors })
        }
    }

    /// Whether the plan has a scenario of this name (ignoring case and outer spaces).
    pub fn has_scenario(&self, name: &str) -> bool {
        self.scenarios.iter().any(|s| same_name(&s.name, name))
    }

    /// Points worth a second look that do not block saving or approval.
    pub fn warnings(&self) -> Vec<PlanWarning> {
        let mut warnings = Vec::new();
        let marks = &self.pass_marks;
        if marks.is_empty() {
            warnings.push(PlanWarning::new_in(
                PlanSection::PassMark,
                None,
                "metric",
                "the plan has no pass marks yet; it cannot be approved without at least one",
                "der Plan hat noch keine Zielwerte; ohne mindestens einen kann er nicht \
                 freigegeben werden",
            ));
        }
        for (index, mark) in marks.iter().enumerate() {
            let latency = mark.metric.family() == MetricFamily::Latency;
            if latency && mark.statistic == Statistic::Mean {
                warnings.push(PlanWarning::new_in(
                    PlanSection::PassMark,
                    Some(index),
                    "statistic",
                    "percentiles, not means, summarise latency: a mean hides the slow tail",
                    "Latenz fassen Perzentile zusammen, keine Mittelwerte: Ein Mittelwert \
                     verdeckt die langsamen Ausreißer",
                ));
            }
            if matches!(mark.metric, Metric::Ttft | Metric::E2e)
                && mark.point == MeasurementPoint::Engine
            {
                warnings.push(PlanWarning::new_in(
                    PlanSection::PassMark,
                    Some(index),
                    "point",
                    "the engine's clock leaves out the network and the gateway: users see \
                     about 100 ms more when traffic goes through a gateway",
                    "die Uhr der Engine lässt Netzwerk und Gateway aus: Nutzer sehen etwa \
                     100 ms mehr, wenn der Verkehr über ein Gateway läuft",
                ));
            }
        }
        let has = |metric: &Metric| marks.iter().any(|m| &m.metric == metric);
        if has(&Metric::RetrievalHitRate) && self.quality.hit_k.is_none() {
            warnings.push(PlanWarning::new_in(
                PlanSection::Quality,
                None,
                "hit_k",
                "a retrieval hit-rate mark needs k: how many passages count as retrieved",
                "ein Zielwert zur Trefferquote der Suche braucht k: wie viele Passagen als \
                 gefunden zählen",
            ));
        }
        let quality_marks = marks
            .iter()
            .any(|m| m.point == MeasurementPoint::EvaluationSet);
        match self.quality.questions {
            None if quality_marks => warnings.push(PlanWarning::new_in(
                PlanSection::Quality,
                None,
                "questions",
                "quality marks need an evaluation set: state how many real questions it has \
                 (50–100 recommended)",
                "Qualitäts-Zielwerte brauchen einen Evaluationsdatensatz: Geben Sie an, wie \
                 viele echte Fragen er enthält (50–100 empfohlen)",
            )),
            Some(n) if n > 0 && !RECOMMENDED_QUESTIONS.contains(&n) => {
                let (advice, advice_de) = if n < *RECOMMENDED_QUESTIONS.start() {
                    (
                        "too few to tell a good model from a lucky one",
                        "zu wenige, um ein gutes Modell von einem glücklichen zu unterscheiden",
                    )
                } else {
                    (
                        "more than needed; each question needs an accepted answer someone checked",
                        "mehr als nötig; jede Frage braucht eine geprüfte, akzeptierte Antwort",
                    )
                };
                warnings.push(PlanWarning::new_in(
                    PlanSection::Quality,
                    None,
                    "questions",
                    format!("{n} questions: 50–100 real questions are recommended ({advice})"),
                    format!(
                        "{} Fragen: 50–100 echte Fragen werden empfohlen ({advice_de})",
                        count_de(n)
                    ),
                ));
            }
            _ => {}
        }
        if quality_marks && self.serving.precision.trim().is_empty() {
            warnings.push(PlanWarning::new_in(
                PlanSection::Serving,
                None,
                "precision",
                "answer quality carries over only at the same precision: state the precision \
                 the evaluation set runs in",
                "Antwortqualität überträgt sich nur bei gleicher Präzision: Geben Sie die \
                 Präzision an, in der der Evaluationsdatensatz läuft",
            ));
        }
        if let (Some(pilot), Some(production)) =
            (self.demand.pilot_users, self.demand.production_users)
            && production < pilot
        {
            warnings.push(PlanWarning::new_in(
                PlanSection::Demand,
                None,
                "production_users",
                format!("fewer production users ({production}) than pilot users ({pilot})"),
                format!(
                    "weniger Nutzer in Produktion ({}) als Pilotnutzer ({})",
                    count_de(production),
                    count_de(pilot)
                ),
            ));
        }
        if let Some(context) = self.demand.context_tokens_per_request
            && let Some(widest) = self.scenarios.iter().max_by_key(|s| {
                u64::from(s.input_tokens.high_tokens) + u64::from(s.output_tokens.high_tokens)
            })
        {
            let needed = u64::from(widest.input_tokens.high_tokens)
                + u64::from(widest.output_tokens.high_tokens);
            if needed > u64::from(context) {
                warnings.push(PlanWarning::new_in(
                    PlanSection::Demand,
                    None,
                    "context_tokens_per_request",
                    format!(
                        "scenario “{}” needs up to {needed} tokens of context (prompt plus \
                         answer), more than the {context} assumed per request",
                        widest.name.trim()
                    ),
                    format!(
                        "Szenario „{}“ braucht bis zu {} Token Kontext (Prompt plus Antwort), \
                         mehr als die {} je Anfrage angenommenen",
                        widest.name.trim(),
                        count_de(needed as f64),
                        count_de(context)
                    ),
                ));
            }
        }
        if marks.iter().any(|m| m.metric.depends_on_serving()) {
            for (field, value, why, why_de) in [
                ("gpu", &self.serving.gpu, "the GPU", "der GPU"),
                (
                    "engine_version",
                    &self.serving.engine_version,
                    "the engine version",
                    "der Engine-Version",
                ),
            ] {
                if value.trim().is_empty() {
                    warnings.push(PlanWarning::new_in(
                        PlanSection::Serving,
                        None,
                        field,
                        format!(
                            "latency and throughput belong to {why} they are measured with: \
                             state it"
                        ),
                        format!(
                            "Latenz und Durchsatz gehören zu {why_de}, mit der sie gemessen \
                             werden: Geben Sie sie an"
                        ),
                    ));
                }
            }
        }
        warnings
    }
}

pub(crate) fn same_name(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::plan::comparator::Comparator;
    use crate::plan::pass_mark::tests::ttft_p95;
    use crate::plan::unit::Unit;

    pub(crate) fn rag_scenario() -> Scenario {
        Scenario {
            name: "RAG lookups".into(),
            input_tokens: TokenRange {
                low_tokens: 2_000,
                high_tokens: 6_000,
            },
            output_tokens: TokenRange {
                low_tokens: 100,
                high_tokens: 400,
            },
        }
    }

    pub(crate) fn error_rate_mark() -> PassMark {
        PassMark {
            metric: Metric::ErrorRate,
            statistic: Statistic::Rate,
            comparator: Comparator::Le,
            threshold: 1.0,
            unit: Unit::Percent,
            definition: Metric::ErrorRate.default_definition().into(),
            rationale: String::new(),
            ..ttft_p95()
        }
    }

    /// A sound plan: TTFT p95 ≤ 500 ms and error rate ≤ 1 % at the gateway, one scenario.
    pub(crate) fn plan() -> PlanContent {
        PlanContent {
            pass_marks: vec![ttft_p95(), error_rate_mark()],
            scenarios: vec![rag_scenario()],
            demand: DemandAssumptions {
                pilot_users: Some(20),
                production_users: Some(400),
                peak_arrival_rate_req_s: Some(2.5),
                context_tokens_per_request: Some(8_192),
                planned_peak_concurrency: Some(16),
            },
            quality: QualitySet {
                questions: Some(80),
                hit_k: Some(5),
            },
            serving: PilotServing {
                engine: "vLLM".into(),
                engine_version: "0.30.0".into(),
                gpu: "RTX PRO 6000 Blackwell Server Edition".into(),
                precision: "FP8".into(),
                kv_cache_dtype: "fp8".into(),
                tensor_parallel: Some(1),
                max_num_batched_tokens: Some(8_192),
                prefix_caching: Some(true),
                cuda_graphs: Some(true),
            },
        }
    }

    #[test]
    fn a_sound_plan_validates_without_warnings() {
        let plan = plan();
        plan.validate().unwrap();
        assert_eq!(plan.warnings(), vec![]);
        assert_eq!(plan.demand.user_scale_factor(), Some(20.0));
        assert_eq!(
            plan.serving.summary(),
            "vLLM 0.30.0 on RTX PRO 6000 Blackwell Server Edition, FP8, KV fp8, TP=1"
        );
        assert_eq!(
            plan.scenarios[0].summary(),
            "RAG lookups: 2,000–6,000 tokens in, 100–400 tokens out"
        );
    }

    #[test]
    fn every_error_is_reported_with_its_mark_number_and_field() {
        let mut plan = plan();
        plan.pass_marks[1].threshold = 150.0;
        plan.pass_marks.push(PassMark {
            threshold: 400.0,
            ..ttft_p95()
        });
        plan.pass_marks.push(PassMark {
            scope: Scope::Scenario("Batch".into()),
            ..ttft_p95()
        });
        plan.demand.pilot_users = Some(0);
        let errors = plan.validate().unwrap_err().errors;
        let found: Vec<(PlanSection, Option<usize>, &str)> = errors
            .iter()
            .map(|e| (e.section, e.index, e.field.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                (PlanSection::PassMark, Some(1), "threshold"),
                (PlanSection::PassMark, Some(2), "metric"),
                (PlanSection::PassMark, Some(3), "scope"),
                (PlanSection::Demand, None, "pilot_users"),
            ]
        );
        assert_eq!(
            errors[1].to_string(),
            "pass mark 3, metric: pass mark 1 already sets a limit on p95 TTFT at the gateway; \
             one mark per figure"
        );
    }

    #[test]
    fn scenarios_need_unique_names_and_sensible_ranges() {
        let mut plan = plan();
        let mut inverted = rag_scenario();
        inverted.name = "Chat".into();
        inverted.output_tokens = TokenRange {
            low_tokens: 500,
            high_tokens: 100,
        };
        let mut duplicate = rag_scenario();
        duplicate.name = " rag LOOKUPS ".into();
        plan.scenarios.extend([inverted, duplicate]);
        let errors = plan.validate().unwrap_err().errors;
        let found: Vec<(Option<usize>, &str)> =
            errors.iter().map(|e| (e.index, e.field.as_str())).collect();
        assert_eq!(
            found,
            vec![(Some(1), "output_tokens_high"), (Some(2), "name")]
        );
    }

    #[test]
    fn demand_quality_and_serving_are_checked() {
        let mut plan = plan();
        plan.demand.peak_arrival_rate_req_s = Some(f64::NAN);
        plan.quality.hit_k = Some(0);
        plan.serving.tensor_parallel = Some(0);
        plan.serving.gpu = "H200\u{0}".into();
        let errors = plan.validate().unwrap_err().errors;
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            vec!["peak_arrival_rate_req_s", "hit_k", "gpu", "tensor_parallel"]
        );
    }

    #[test]
    fn an_evaluation_set_outside_50_to_100_questions_is_a_warning() {
        let mut plan = plan();
        for (questions, warned) in [(49, true), (50, false), (100, false), (101, true)] {
            plan.quality.questions = Some(questions);
            let warnings = plan.warnings();
            assert_eq!(
                warnings.iter().any(|w| w.field == "questions"),
                warned,
                "{questions}"
            );
        }
        plan.validate().unwrap();
    }

    #[test]
    fn warnings_point_at_means_engine_clocks_missing_k_and_missing_serving() {
        let mut plan = plan();
        plan.pass_marks[0].statistic = Statistic::Mean;
        plan.pass_marks[0].point = MeasurementPoint::Engine;
        plan.pass_marks.push(PassMark {
            metric: Metric::RetrievalHitRate,
            comparator: Comparator::Ge,
            threshold: 80.0,
            point: MeasurementPoint::EvaluationSet,
            ..error_rate_mark()
        });
        plan.quality.hit_k = None;
        plan.serving.gpu.clear();
        plan.demand.production_users = Some(10);
        plan.demand.context_tokens_per_request = Some(4_096);
        let warnings = plan.warnings();
        let found: Vec<(PlanSection, &str)> = warnings
            .iter()
            .map(|w| (w.section, w.field.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                (PlanSection::PassMark, "statistic"),
                (PlanSection::PassMark, "point"),
                (PlanSection::Quality, "hit_k"),
                (PlanSection::Demand, "production_users"),
                (PlanSection::Demand, "context_tokens_per_request"),
                (PlanSection::Serving, "gpu"),
            ]
        );
        assert!(
            PlanContent::default().warnings()[0]
                .message
                .contains("no pass marks")
        );
    }

    /// Every warning a plan can give, each at least once.
    fn every_warning() -> Vec<PlanWarning> {
        let mut warnings = PlanContent::default().warnings();
        let mut plan = plan();
        plan.pass_marks[0].statistic = Statistic::Mean;
        plan.pass_marks[0].point = MeasurementPoint::Engine;
        plan.pass_marks.push(PassMark {
            metric: Metric::RetrievalHitRate,
            comparator: Comparator::Ge,
            threshold: 80.0,
            point: MeasurementPoint::EvaluationSet,
            ..error_rate_mark()
        });
        plan.quality.hit_k = None;
        plan.serving.gpu.clear();
        plan.serving.engine_version.clear();
        plan.serving.precision.clear();
        plan.demand.production_users = Some(10);
        plan.demand.context_tokens_per_request = Some(4_096);
        for questions in [None, Some(49), Some(1_000)] {
            plan.quality.questions = questions;
            warnings.extend(plan.warnings());
        }
        warnings
    }

    #[test]
    fn every_warning_reads_in_german_and_english_is_the_display_text() {
        use crate::locale::Lang;
        const ENGLISH: [&str; 12] = [
            " the ",
            " must ",
            " is ",
            " not ",
            " and ",
            " of ",
            " be ",
            " or ",
            " needs ",
            "pass mark",
            "state ",
            "recommended",
        ];
        let warnings = every_warning();
        let mut fields: Vec<&str> = warnings.iter().map(|w| w.field.as_str()).collect();
        fields.sort_unstable();
        fields.dedup();
        assert_eq!(
            fields,
            vec![
                "context_tokens_per_request",
                "engine_version",
                "gpu",
                "hit_k",
                "metric",
                "point",
                "precision",
                "production_users",
                "questions",
                "statistic",
            ],
            "a warning is missing from the cases"
        );
        for warning in &warnings {
            let en = warning.to_string();
            let de = warning.text_in(Lang::De);
            assert_eq!(warning.text_in(Lang::En), en);
            assert!(!warning.message_de.is_empty(), "no German: {en}");
            assert_ne!(warning.message_in(Lang::De), warning.message, "{en}");
            for word in ENGLISH {
                assert!(
                    !de.contains(word),
                    "{word:?} in German: {de} (English: {en})"
                );
            }
        }
        let questions: Vec<String> = warnings
            .iter()
            .filter(|w| w.field == "questions")
            .map(|w| w.text_in(Lang::De))
            .collect();
        assert!(
            questions.iter().any(|q| q
                == "Qualitätsdatensatz, Evaluationsfragen: 1.000 Fragen: 50–100 echte Fragen \
                    werden empfohlen (mehr als nötig; jede Frage braucht eine geprüfte, \
                    akzeptierte Antwort)"),
            "{questions:?}"
        );
    }

    #[test]
    fn plan_content_round_trips_through_json() {
        let plan = plan();
        let json = serde_json::to_string(&plan).unwrap();
        assert_eq!(serde_json::from_str::<PlanContent>(&json).unwrap(), plan);
        let minimal: PlanContent = serde_json::from_str(r#"{"pass_marks":[]}"#).unwrap();
        assert_eq!(minimal, PlanContent::default());
    }
}
