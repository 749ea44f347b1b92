//! Plan templates: reference targets an assessor can start a plan from.
//!
//! The numbers come from the reference-targets table of the domain notes and, for MLPerf, from
//! the pilot measurement guide. Every mark says where its number comes from: [`Provenance::Cited`]
//! when the number is the cited one, [`Provenance::PilotDeskDefault`] when the source gives none
//! (error, truncation and hit rates; batch throughput) and Pilot Desk chose a sensible starting
//! point that the assessor is expected to revisit. Pages show the template's `source` string and
//! mark defaults as such, so a customer never mistakes a default for a published figure.
//!
//! Measurement points follow where a pilot actually gets exact per-request numbers: interactive
//! templates measure at the gateway (its log has every request), MLPerf and batch templates at the
//! client (the load generator's clock, as MLPerf's LoadGen does).

use super::comparator::Comparator;
use super::content::{PlanContent, QualitySet};
use super::metric::Metric;
use super::pass_mark::PassMark;
use super::point::MeasurementPoint;
use super::scope::Scope;
use super::statistic::Statistic;
use super::unit::Unit;
use serde::{Deserialize, Serialize};

/// Where a template mark's number comes from. Serde names: `cited`, `pilot_desk_default`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// The number is the one the template's source gives.
    Cited,
    /// The source gives no number; Pilot Desk's starting point, to be revisited.
    PilotDeskDefault,
}

impl Provenance {
    /// A label for pages.
    pub fn label(self) -> &'static str {
        match self {
            Provenance::Cited => "cited",
            Provenance::PilotDeskDefault => "Pilot Desk default",
        }
    }
}

/// A pass mark of a template with the provenance of its number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TemplateMark {
    pub pass_mark: PassMark,
    pub provenance: Provenance,
}

/// A plan template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Template {
    /// Stable identifier, e.g. `mlperf-v6-llama2-70b-server`.
    pub id: String,
    pub title: String,
    /// When to use it, in a sentence or two.
    pub description: String,
    /// The citation shown on screen next to the template.
    pub source: String,
    pub marks: Vec<TemplateMark>,
    /// Quality-set settings the template implies (k for hit rate@k).
    pub quality: QualitySet,
}

impl Template {
    /// The template for a reader of `lang`: title, description, source and the marks'
    /// rationales in German ([`super::templates_de`]); English as it is. The marks' figures,
    /// the id and the quality settings never change with the language.
    pub fn in_lang(mut self, lang: crate::locale::Lang) -> Template {
        if lang == crate::locale::Lang::En {
            return self;
        }
        let Some(german) = super::templates_de::german(&self.id) else {
            return self;
        };
        self.title = german.title.into();
        self.description = german.description.into();
        self.source = german.source.concat();
        for (mark, rationale) in self.marks.iter_mut().zip(german.rationales) {
            mark.pass_mark.rationale = (*rationale).into();
        }
        self
    }

    /// A plan content holding the template's marks and quality settings.
    pub fn content(&self) -> PlanContent {
        PlanContent {
            pass_marks: self.marks.iter().map(|m| m.pass_mark.clone()).collect(),
            quality: self.quality.clone(),
            ..PlanContent::default()
        }
    }

    /// Adds the template's marks that `content` lacks (by mark key) and its k if none is set;
    /// returns how many marks were added. Marks already in the plan are left as they are.
    pub fn merge_into(&self, content: &mut PlanContent) -> usize {
        let mut added = 0;
        for mark in &self.marks {
            let key = mark.pass_mark.key();
            if !content.pass_marks.iter().any(|m| m.key().same_as(&key)) {
                content.pass_marks.push(mark.pass_mark.clone());
                added += 1;
            }
        }
        if content.quality.hit_k.is_none() {
            content.quality.hit_k = self.quality.hit_k;
        }
        added
    }

    /// Whether any mark carries a Pilot Desk default rather than a cited number.
    pub fn has_defaults(&self) -> bool {
        self.marks
            .iter()
            .any(|m| m.provenance == Provenance::PilotDeskDefault)
    }
}

struct Mark {
    metric: Metric,
    statistic: Statistic,
    comparator: Comparator,
    threshold: f64,
    unit: Unit,
    point: MeasurementPoint,
    rationale: &'static str,
}

impl Mark {
    fn build(self, provenance: Provenance) -> TemplateMark {
        let definition = self.metric.default_definition().to_string();
        TemplateMark {
            pass_mark: PassMark {
                metric: self.metric,
                statistic: self.statistic,
                comparator: self.comparator,
                threshold: self.threshold,
                unit: self.unit,
                point: self.point,
                definition,
                scope: Scope::AllTraffic,
                rationale: self.rationale.to_string(),
            },
            provenance,
        }
    }
    fn cited(self) -> TemplateMark {
        self.build(Provenance::Cited)
    }
    fn default(self) -> TemplateMark {
        self.build(Provenance::PilotDeskDefault)
    }
}

fn latency(
    metric: Metric,
    statistic: Statistic,
    comparator: Comparator,
    threshold: f64,
    unit: Unit,
    point: MeasurementPoint,
    rationale: &'static str,
) -> Mark {
    Mark {
        metric,
        statistic,
        comparator,
        threshold,
        unit,
        point,
        rationale,
    }
}

fn rate(
    metric: Metric,
    comparator: Comparator,
    threshold: f64,
    point: MeasurementPoint,
    rationale: &'static str,
) -> Mark {
    Mark {
        metric,
        statistic: Statistic::Rate,
        comparator,
        threshold,
        unit: Unit::Percent,
        point,
        rationale,
    }
}

fn reading_floor() -> TemplateMark {
    Mark {
        metric: Metric::OutputSpeedPerUser,
        statistic: Statistic::Mean,
        comparator: Comparator::Ge,
        threshold: 6.0,
        unit: Unit::TokensPerS,
        point: MeasurementPoint::Gateway,
        rationale: "Reading-speed floor: below about 6 tokens/s per stream the answer appears \
                    slower than people read.",
    }
    .cited()
}

fn error_rate_default(point: MeasurementPoint) -> TemplateMark {
    rate(
        Metric::ErrorRate,
        Comparator::Le,
        1.0,
        point,
        "Pilot Desk default: failed requests count against goodput; more than 1 in 100 is a \
         reliability problem to fix before sizing.",
    )
    .default()
}

const MLPERF_SOURCE_PREFIX: &str = "MLPerf® Inference v6.0 (MLCommons), Llama 2 70B";
const MLPERF_TRADEMARK: &str = "The MLPerf name and logo are registered and unregistered \
                                trademarks of MLCommons Association in the United States and \
                                other countries.";
const REFERENCE_TARGETS: &str = "Pilot Desk reference targets (domain notes, table of reference \
                                 targets)";

fn mlperf_server() -> Template {
    use MeasurementPoint::Client;
    Template {
        id: "mlperf-v6-llama2-70b-server".into(),
        title: "MLPerf Inference v6.0 · Llama 2 70B · Server".into(),
        description: "The benchmark's server scenario: a throughput-oriented service with \
                      relaxed latency. Use it to compare a pilot with published results."
            .into(),
        source: format!(
            "{MLPERF_SOURCE_PREFIX}, Server scenario: TTFT ≤ 2 s and TPOT ≤ 200 ms at the 99th \
             percentile, as quoted in the pilot measurement guide. {MLPERF_TRADEMARK}"
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P99,
                Comparator::Le,
                2.0,
                Unit::S,
                Client,
                "MLPerf v6.0 server limit for Llama 2 70B.",
            )
            .cited(),
            latency(
                Metric::Tpot,
                Statistic::P99,
                Comparator::Le,
                200.0,
                Unit::Ms,
                Client,
                "MLPerf v6.0 server limit for Llama 2 70B (5 tokens/s per user).",
            )
            .cited(),
        ],
        quality: QualitySet::default(),
    }
}

fn mlperf_interactive() -> Template {
    use MeasurementPoint::Client;
    Template {
        id: "mlperf-v6-llama2-70b-interactive".into(),
        title: "MLPerf Inference v6.0 · Llama 2 70B · Interactive".into(),
        description: "The benchmark's interactive scenario: chat-grade latency. 40 ms per token \
                      is 25 tokens/s per user, above the decode ceiling of some single cards."
            .into(),
        source: format!(
            "{MLPERF_SOURCE_PREFIX}, Interactive scenario: TTFT ≤ 450 ms and TPOT ≤ 40 ms at the \
             99th percentile, as quoted in the pilot measurement guide. {MLPERF_TRADEMARK}"
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P99,
                Comparator::Le,
                450.0,
                Unit::Ms,
                Client,
                "MLPerf v6.0 interactive limit for Llama 2 70B.",
            )
            .cited(),
            latency(
                Metric::Tpot,
                Statistic::P99,
                Comparator::Le,
                40.0,
                Unit::Ms,
                Client,
                "MLPerf v6.0 interactive limit for Llama 2 70B (25 tokens/s per user).",
            )
            .cited(),
        ],
        quality: QualitySet::default(),
    }
}

fn interactive_chat() -> Template {
    use MeasurementPoint::Gateway;
    Template {
        id: "interactive-chat".into(),
        title: "Interactive chat".into(),
        description: "An assistant people chat with: the first words within half a second for \
                      most requests, and answers that stream at least as fast as people read."
            .into(),
        source: format!(
            "{REFERENCE_TARGETS}: interactive chat TTFT p95 < 500 ms; reading-speed floor ≥ 6 \
             tokens/s per stream. The error-rate limit is a Pilot Desk default."
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P95,
                Comparator::Lt,
                500.0,
                Unit::Ms,
                Gateway,
                "Interactive chat: users notice a wait beyond half a second.",
            )
            .cited(),
            reading_floor(),
            error_rate_default(Gateway),
        ],
        quality: QualitySet::default(),
    }
}

fn strict_chat() -> Template {
    use MeasurementPoint::Gateway;
    Template {
        id: "strict-chat".into(),
        title: "Strict chat (goodput SLO)".into(),
        description: "A chat service held to a strict service level: 95 % of chats see the first \
                      token in under 200 ms."
            .into(),
        source: format!(
            "{REFERENCE_TARGETS}: strict chat (goodput SLO), 95 % of chats TTFT < 200 ms. The \
             error-rate limit is a Pilot Desk default."
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P95,
                Comparator::Lt,
                200.0,
                Unit::Ms,
                Gateway,
                "Strict chat service level: 95 % of chats start in under 200 ms.",
            )
            .cited(),
            error_rate_default(Gateway),
        ],
        quality: QualitySet::default(),
    }
}

fn rag_assistant() -> Template {
    use MeasurementPoint::{EvaluationSet, Gateway};
    Template {
        id: "rag-assistant".into(),
        title: "RAG assistant".into(),
        description: "A chat assistant answering from retrieved documents: chat latency, plus \
                      retrieval scored separately from answers (a low hit rate is a search \
                      problem no GPU fixes) and a limit on answers cut off at their length."
            .into(),
        source: format!(
            "{REFERENCE_TARGETS}: interactive chat TTFT p95 < 500 ms; reading-speed floor ≥ 6 \
             tokens/s per stream. Retrieval hit rate@5, truncation-rate and error-rate limits \
             are Pilot Desk defaults."
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P95,
                Comparator::Lt,
                500.0,
                Unit::Ms,
                Gateway,
                "Interactive chat target; long RAG prompts raise TTFT, so measure it with real \
                 retrieved passages.",
            )
            .cited(),
            reading_floor(),
            rate(
                Metric::RetrievalHitRate,
                Comparator::Ge,
                80.0,
                EvaluationSet,
                "Pilot Desk default: the accepted passage should be among the 5 retrieved for at \
                 least 4 in 5 questions.",
            )
            .default(),
            rate(
                Metric::TruncationRate,
                Comparator::Le,
                2.0,
                Gateway,
                "Pilot Desk default: truncated answers read as wrong ones; more than 1 in 50 \
                 means the answer limit or the context is too small.",
            )
            .default(),
            error_rate_default(Gateway),
        ],
        quality: QualitySet {
            questions: None,
            hit_k: Some(5),
        },
    }
}

fn batch_offline() -> Template {
    use MeasurementPoint::Client;
    Template {
        id: "batch-offline".into(),
        title: "Batch / offline".into(),
        description: "Documents processed without anyone waiting: throughput over the run \
                      matters, time to first token does not."
            .into(),
        source: "No published reference target: every limit here is a Pilot Desk default. \
                 Set the throughput floor to the batch volume (output tokens) ÷ the time window."
            .into(),
        marks: vec![
            Mark {
                metric: Metric::AggregateOutputThroughput,
                statistic: Statistic::Mean,
                comparator: Comparator::Ge,
                threshold: 1_000.0,
                unit: Unit::TokensPerS,
                point: Client,
                rationale: "Pilot Desk default placeholder: replace with the batch's output \
                            tokens ÷ the seconds available.",
            }
            .default(),
            error_rate_default(Client),
            rate(
                Metric::TruncationRate,
                Comparator::Le,
                1.0,
                Client,
                "Pilot Desk default: a cut-off summary or extraction is a wrong one.",
            )
            .default(),
        ],
        quality: QualitySet::default(),
    }
}

fn coding_agent() -> Template {
    use MeasurementPoint::Gateway;
    Template {
        id: "coding-agent".into(),
        title: "Coding agent".into(),
        description: "An agent that plans and writes code in many steps: each step should start \
                      within a second and stream fast, since the agent waits for every token."
            .into(),
        source: format!(
            "{REFERENCE_TARGETS}: coding agent TTFT < 1 s; 60–90 tokens/s per stream is typical, \
             400+ fast. The percentile (p95) and the error-rate limit are Pilot Desk defaults."
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P95,
                Comparator::Lt,
                1.0,
                Unit::S,
                Gateway,
                "Coding agent: each step starts within a second (cited); p95 is Pilot Desk's \
                 choice of percentile.",
            )
            .cited(),
            Mark {
                metric: Metric::OutputSpeedPerUser,
                statistic: Statistic::Mean,
                comparator: Comparator::Ge,
                threshold: 60.0,
                unit: Unit::TokensPerS,
                point: Gateway,
                rationale: "Lower end of the typical 60–90 tokens/s per stream; 400+ counts as \
                            fast.",
            }
            .cited(),
            error_rate_default(Gateway),
        ],
        quality: QualitySet::default(),
    }
}

fn inline_code_completion() -> Template {
    use MeasurementPoint::Gateway;
    Template {
        id: "inline-code-completion".into(),
        title: "Inline code completion".into(),
        description: "Suggestions while typing: they are useful only if they appear before the \
                      next keystroke."
            .into(),
        source: format!(
            "{REFERENCE_TARGETS}: inline code completion TTFT p95 < 100 ms. A gateway adds about \
             100 ms to engine TTFT, so this budget leaves almost nothing for one. The error-rate \
             limit is a Pilot Desk default."
        ),
        marks: vec![
            latency(
                Metric::Ttft,
                Statistic::P95,
                Comparator::Lt,
                100.0,
                Unit::Ms,
                Gateway,
                "Completions must appear before the next keystroke.",
            )
            .cited(),
            error_rate_default(Gateway),
        ],
        quality: QualitySet::default(),
    }
}

/// Every template, in the order pages list them.
pub fn all() -> Vec<Template> {
    vec![
        mlperf_server(),
        mlperf_interactive(),
        interactive_chat(),
        strict_chat(),
        rag_assistant(),
        batch_offline(),
        coding_agent(),
        inline_code_completion(),
    ]
}

/// The template with this id.
pub fn by_id(id: &str) -> Option<Template> {
    all().into_iter().find(|t| t.id == id.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark<'a>(template: &'a Template, metric: &Metric) -> &'a TemplateMark {
        template
            .marks
            .iter()
            .find(|m| &m.pass_mark.metric == metric)
            .unwrap_or_else(|| panic!("{} has no {metric} mark", template.id))
    }

    #[test]
    fn every_template_is_a_valid_plan_with_a_source() {
        let templates = all();
        assert_eq!(templates.len(), 8);
        for (i, template) in templates.iter().enumerate() {
            template
                .content()
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", template.id));
            assert!(!template.marks.is_empty());
            assert!(!template.source.is_empty() && !template.title.is_empty());
            assert!(
                templates[..i].iter().all(|t| t.id != template.id),
                "duplicate id"
            );
            assert_eq!(by_id(&template.id).as_ref(), Some(template));
            for m in &template.marks {
                assert!(!m.pass_mark.rationale.is_empty(), "{}", template.id);
                if m.provenance == Provenance::PilotDeskDefault {
                    assert!(
                        template.source.contains("Pilot Desk default"),
                        "{} hides its defaults",
                        template.id
                    );
                }
            }
        }
        assert_eq!(by_id("nope"), None);
    }

    #[test]
    fn mlperf_templates_carry_the_published_limits() {
        let server = by_id("mlperf-v6-llama2-70b-server").unwrap();
        assert_eq!(
            server
                .marks
                .iter()
                .map(|m| m.pass_mark.notation())
                .collect::<Vec<_>>(),
            vec!["TTFT p99 ≤ 2 s @ client", "TPOT p99 ≤ 200 ms @ client"]
        );
        let interactive = by_id("mlperf-v6-llama2-70b-interactive").unwrap();
        assert_eq!(
            interactive
                .marks
                .iter()
                .map(|m| m.pass_mark.notation())
                .collect::<Vec<_>>(),
            vec!["TTFT p99 ≤ 450 ms @ client", "TPOT p99 ≤ 40 ms @ client"]
        );
        assert!(!server.has_defaults() && !interactive.has_defaults());
        assert_eq!(
            mark(&interactive, &Metric::Tpot).pass_mark.definition,
            "per request: (E2E − TTFT) ÷ (output tokens − 1)"
        );
    }

    #[test]
    fn chat_templates_carry_the_reference_targets() {
        let chat = by_id("interactive-chat").unwrap();
        assert_eq!(
            mark(&chat, &Metric::Ttft).pass_mark.notation(),
            "TTFT p95 < 500 ms @ gateway"
        );
        assert_eq!(
            mark(&chat, &Metric::OutputSpeedPerUser)
                .pass_mark
                .notation(),
            "output speed per user mean ≥ 6 tokens/s @ gateway"
        );
        assert_eq!(
            mark(&chat, &Metric::ErrorRate).provenance,
            Provenance::PilotDeskDefault
        );
        let strict = by_id("strict-chat").unwrap();
        assert_eq!(
            mark(&strict, &Metric::Ttft).pass_mark.notation(),
            "TTFT p95 < 200 ms @ gateway"
        );
        let completion = by_id("inline-code-completion").unwrap();
        assert_eq!(
            mark(&completion, &Metric::Ttft).pass_mark.notation(),
            "TTFT p95 < 100 ms @ gateway"
        );
        let agent = by_id("coding-agent").unwrap();
        assert_eq!(
            mark(&agent, &Metric::Ttft).pass_mark.notation(),
            "TTFT p95 < 1 s @ gateway"
        );
        assert_eq!(
            mark(&agent, &Metric::OutputSpeedPerUser)
                .pass_mark
                .threshold,
            60.0
        );
    }

    #[test]
    fn rag_adds_retrieval_and_truncation_as_defaults_and_batch_has_no_ttft() {
        let rag = by_id("rag-assistant").unwrap();
        let hit = mark(&rag, &Metric::RetrievalHitRate);
        assert_eq!(hit.provenance, Provenance::PilotDeskDefault);
        assert_eq!(hit.pass_mark.point, MeasurementPoint::EvaluationSet);
        assert_eq!(
            mark(&rag, &Metric::TruncationRate).provenance,
            Provenance::PilotDeskDefault
        );
        assert_eq!(rag.quality.hit_k, Some(5));
        let batch = by_id("batch-offline").unwrap();
        assert!(
            batch
                .marks
                .iter()
                .all(|m| m.pass_mark.metric != Metric::Ttft)
        );
        assert_eq!(
            mark(&batch, &Metric::AggregateOutputThroughput).provenance,
            Provenance::PilotDeskDefault
        );
    }

    #[test]
    fn merging_adds_only_missing_marks() {
        let mut content = by_id("interactive-chat").unwrap().content();
        let rag = by_id("rag-assistant").unwrap();
        assert_eq!(rag.merge_into(&mut content), 2);
        assert_eq!(content.pass_marks.len(), 5);
        assert_eq!(content.quality.hit_k, Some(5));
        assert_eq!(rag.merge_into(&mut content), 0);
        content.validate().unwrap();
    }

    #[test]
    fn templates_serialise_with_provenance_names() {
        let json = serde_json::to_value(by_id("rag-assistant").unwrap()).unwrap();
        assert_eq!(json["marks"][2]["provenance"], "pilot_desk_default");
        assert_eq!(json["marks"][0]["provenance"], "cited");
    }
}
