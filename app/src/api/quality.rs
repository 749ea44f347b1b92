//! Quality evidence of a pilot: the evaluation set, runs of a model over it (one per serving
//! precision), and lm-evaluation-harness results.
//!
//! * `eval_set` evidence keeps the parsed [`EvalSet`] as its summary; `eval_run` evidence keeps
//!   the parsed [`EvalRun`] with its serving configuration and the id of the set it was read
//!   against ([`StoredEvalRun`]); `lm_eval_results` keeps [`LmEvalResults`].
//! * Scores are computed when shown ([`engine::quality::score_run`]), so an improved engine
//!   improves every stored run. Retrieval hit rate@k uses the plan's `hit_k` when the plan in
//!   force has one, else the run's own depth (the most passages retrieved for one question).
//! * The comparison of two runs (default: the latest two) is
//!   [`engine::quality::compare_runs`]: paired difference, McNemar's exact test, flips.

use crate::error::AppError;
use crate::model::EvidenceFile;
use engine::quality::{EvalRun, LmEvalResults, RunComparison, RunScores};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The evidence kind of an evaluation set.
pub const EVAL_SET: &str = "eval_set";
/// The evidence kind of one run of a model over the evaluation set.
pub const EVAL_RUN: &str = "eval_run";
/// The evidence kind of an lm-evaluation-harness result file.
pub const LM_EVAL_RESULTS: &str = "lm_eval_results";

/// The summary of `eval_run` evidence: the run and the set evidence it was read against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredEvalRun {
    pub set_evidence_id: i64,
    #[serde(flatten)]
    pub run: EvalRun,
}

/// The evaluation set the page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetView {
    pub evidence: EvidenceFile,
    pub questions: usize,
}

/// One run with its scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    pub evidence: EvidenceFile,
    pub set_evidence_id: i64,
    pub model: String,
    pub weights_precision: String,
    pub kv_precision: String,
    pub engine: String,
    pub engine_version: String,
    pub gpu: String,
    /// k of retrieval hit rate@k used for this run.
    pub k: usize,
    pub scores: RunScores,
}

impl RunView {
    /// `#12 FP8 (KV fp8)`.
    pub fn label(&self) -> String {
        format!(
            "#{} {} (KV {})",
            self.evidence.id, self.weights_precision, self.kv_precision
        )
    }
}

/// Two runs of the same set compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonView {
    pub a: i64,
    pub a_label: String,
    pub b: i64,
    pub b_label: String,
    /// Whether both runs were read against the same set evidence.
    pub same_set: bool,
    pub comparison: RunComparison,
}

/// One question of the drill-down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    pub id: String,
    pub question: String,
    pub accepted_answer: String,
    pub accepted_passages: Vec<String>,
    /// `None` when the run has no row for the question.
    pub answer: Option<String>,
    pub retrieved: Vec<String>,
    /// The grade: `correct` as 1/0, or the score (0–1).
    pub value: Option<f64>,
    pub right: Option<bool>,
    /// Whether an accepted passage is in the first k retrieved (`None`: nothing to score).
    pub hit: Option<bool>,
    pub truncated: bool,
}

/// lm-evaluation-harness results of one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LmEvalView {
    pub evidence: EvidenceFile,
    pub results: LmEvalResults,
}

/// Everything the quality page and the REST API show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityReport {
    /// The latest evaluation set.
    pub set: Option<SetView>,
    /// Score at or above which a graded answer counts as right (for right/wrong statistics).
    pub pass_score: f64,
    /// Where k comes from: the plan or the runs.
    pub k_source: String,
    /// Newest first.
    pub runs: Vec<RunView>,
    pub comparison: Option<ComparisonView>,
    /// The run of the drill-down (the comparison's second run, else the newest).
    pub drill_down_run: Option<i64>,
    pub items: Vec<ItemRow>,
    pub lm_eval: Vec<LmEvalView>,
}

/// The pilot's quality evidence, scored; `a` and `b` choose the runs compared (evidence ids,
/// empty = the latest two, the older as `a`).
#[server(endpoint = "quality_overview")]
pub async fn quality_overview(
    pilot_id: i64,
    a: String,
    b: String,
) -> Result<QualityReport, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            let a = ssr::parse_run_choice("a", &a)?;
            let b = ssr::parse_run_choice("b", &b)?;
            ssr::overview(&services, pilot_id, a, b).await
        }
        .await,
    )
}

/// Server-side quality evidence, shared by the upload route, the REST API and the demo.
#[cfg(feature = "ssr")]
pub mod ssr {
    use super::*;
    use crate::model::Pilot;
    use crate::server::Services;
    use engine::plan::{Metric, PassMark, Unit};
    use engine::quality::{
        DEFAULT_PASS_SCORE, Estimate, EvalSet, QualityError, compare_runs, hit_at_k, parse_run_csv,
        parse_run_jsonl, parse_set_csv, parse_set_jsonl, score_run,
    };
    use engine::verdict::{EvidenceStatistic, MarkGrade, grade};

    fn internal(error: impl std::fmt::Display) -> AppError {
        tracing::error!(%error, "quality evidence failed");
        AppError::Internal
    }

    fn invalid(error: QualityError) -> AppError {
        AppError::invalid(error.to_string())
    }

    /// Whether a file is JSON Lines rather than CSV: by its extension, else by its first
    /// character.
    fn is_jsonl(file_name: &str, text: &str) -> bool {
        let lower = file_name.to_ascii_lowercase();
        if lower.ends_with(".csv") {
            return false;
        }
        if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") || lower.ends_with(".json") {
            return true;
        }
        text.trim_start().starts_with('{')
    }

    /// Reads an evaluation set (CSV or JSON Lines).
    pub fn parse_set(file_name: &str, text: &str) -> Result<EvalSet, AppError> {
        if is_jsonl(file_name, text) {
            parse_set_jsonl(file_name, text)
        } else {
            parse_set_csv(file_name, text)
        }
        .map_err(invalid)
    }

    /// Reads a run's rows (CSV or JSON Lines) against `set`; the configuration is left empty.
    pub fn parse_run(file_name: &str, text: &str, set: &EvalSet) -> Result<EvalRun, AppError> {
        if is_jsonl(file_name, text) {
            parse_run_jsonl(file_name, text, set)
        } else {
            parse_run_csv(file_name, text, set)
        }
        .map_err(invalid)
    }

    /// Reads an lm-evaluation-harness result file.
    pub fn parse_lm_eval(file_name: &str, text: &str) -> Result<LmEvalResults, AppError> {
        engine::quality::parse_lm_eval_results(file_name, text).map_err(invalid)
    }

    /// Whether a JSON text looks like an lm-evaluation-harness result file: an object with
    /// `results` and `config` or `versions`.
    pub fn looks_like_lm_eval(text: &str) -> bool {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(map)) => {
                map.get("results").is_some_and(|r| r.is_object())
                    && (map.contains_key("config") || map.contains_key("versions"))
            }
            _ => false,
        }
    }

    /// A run's serving configuration from the upload's form fields; blank fields are taken
    /// from the pilot (`kv_precision`: `auto`); `weights_precision` is required.
    pub fn run_config(
        field: impl Fn(&str) -> String,
        pilot: &Pilot,
        mut run: EvalRun,
    ) -> Result<EvalRun, AppError> {
        let pick = |name: &str, default: &str| {
            let value = field(name).trim().to_string();
            if value.is_empty() {
                default.trim().to_string()
            } else {
                value
            }
        };
        run.weights_precision = pick("weights_precision", "");
        if run.weights_precision.is_empty() {
            return Err(AppError::invalid(
                "weights_precision: say which precision the run served in (BF16, FP16, FP8, AWQ-INT4, …)",
            ));
        }
        run.model = pick("model", &pilot.model);
        if run.model.is_empty() {
            return Err(AppError::invalid("model: name the model the run used"));
        }
        run.kv_precision = pick("kv_precision", "auto");
        run.engine = pick("engine", &pilot.engine);
        run.engine_version = pick("engine_version", &pilot.engine_version);
        run.gpu = pick("gpu", &pilot.gpu_type);
        Ok(run)
    }

    /// The pilot's latest evaluation set.
    pub async fn latest_set(
        services: &Services,
        pilot_id: i64,
    ) -> Result<Option<(EvidenceFile, EvalSet)>, AppError> {
        let Some((file, summary)) = services
            .store
            .list_evidence(pilot_id, Some(EVAL_SET))
            .await?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let set = serde_json::from_str(&summary).map_err(internal)?;
        Ok(Some((file, set)))
    }

    /// Parses an empty or numeric run choice.
    pub fn parse_run_choice(field: &str, text: &str) -> Result<Option<i64>, AppError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        text.parse()
            .map(Some)
            .map_err(|_| AppError::invalid(format!("{field}: `{text}` is not an evidence number")))
    }

    /// The pilot's quality evidence, scored.
    pub async fn overview(
        services: &Services,
        pilot_id: i64,
        a: Option<i64>,
        b: Option<i64>,
    ) -> Result<QualityReport, AppError> {
        let sets: Vec<(EvidenceFile, EvalSet)> = services
            .store
            .list_evidence(pilot_id, Some(EVAL_SET))
            .await?
            .into_iter()
            .map(|(file, summary)| Ok((file, serde_json::from_str(&summary).map_err(internal)?)))
            .collect::<Result<_, AppError>>()?;
        let stored: Vec<(EvidenceFile, StoredEvalRun)> = services
            .store
            .list_evidence(pilot_id, Some(EVAL_RUN))
            .await?
            .into_iter()
            .map(|(file, summary)| Ok((file, serde_json::from_str(&summary).map_err(internal)?)))
            .collect::<Result<_, AppError>>()?;
        let lm_eval = services
            .store
            .list_evidence(pilot_id, Some(LM_EVAL_RESULTS))
            .await?
            .into_iter()
            .map(|(evidence, summary)| {
                Ok(LmEvalView {
                    evidence,
                    results: serde_json::from_str(&summary).map_err(internal)?,
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        let plan_k = services
            .store
            .plan_in_force(pilot_id)
            .await?
            .and_then(|plan| plan.content.quality.hit_k)
            .filter(|k| *k > 0)
            .map(|k| k as usize);
        let set_of = |id: i64| {
            sets.iter()
                .find(|(file, _)| file.id == id)
                .or(sets.first())
                .map(|(_, set)| set)
        };
        let empty = EvalSet::default();
        let pass_score = DEFAULT_PASS_SCORE;
        let runs: Vec<RunView> = stored
            .iter()
            .map(|(file, s)| {
                let set = set_of(s.set_evidence_id).unwrap_or(&empty);
                let k = plan_k.unwrap_or_else(|| run_depth(&s.run));
                RunView {
                    evidence: file.clone(),
                    set_evidence_id: s.set_evidence_id,
                    model: s.run.model.clone(),
                    weights_precision: s.run.weights_precision.clone(),
                    kv_precision: s.run.kv_precision.clone(),
                    engine: s.run.engine.clone(),
                    engine_version: s.run.engine_version.clone(),
                    gpu: s.run.gpu.clone(),
                    k,
                    scores: score_run(set, &s.run, k, pass_score),
                }
            })
            .collect();
        let find = |field: &str, id: i64| {
            stored
                .iter()
                .position(|(file, _)| file.id == id)
                .ok_or_else(|| {
                    AppError::invalid(format!("{field}: no evaluation run #{id} on this pilot"))
                })
        };
        let chosen = match (a, b) {
            (Some(a), Some(b)) => Some((find("a", a)?, find("b", b)?)),
            (Some(a), None) => {
                let a = find("a", a)?;
                (0..stored.len()).find(|i| *i != a).map(|b| (a, b))
            }
            (None, Some(b)) => {
                let b = find("b", b)?;
                (0..stored.len()).find(|i| *i != b).map(|a| (a, b))
            }
            (None, None) if stored.len() >= 2 => Some((1, 0)),
            (None, None) => None,
        };
        let comparison = chosen.map(|(ia, ib)| {
            let (ra, rb) = (&stored[ia], &stored[ib]);
            ComparisonView {
                a: ra.0.id,
                a_label: runs[ia].label(),
                b: rb.0.id,
                b_label: runs[ib].label(),
                same_set: ra.1.set_evidence_id == rb.1.set_evidence_id,
                comparison: compare_runs(&ra.1.run, &rb.1.run, pass_score),
            }
        });
        let drill = chosen
            .map(|(_, ib)| ib)
            .or((!stored.is_empty()).then_some(0));
        let items = drill
            .map(|i| {
                let (_, s) = &stored[i];
                let set = set_of(s.set_evidence_id).unwrap_or(&empty);
                item_rows(set, &s.run, runs[i].k, pass_score)
            })
            .unwrap_or_default();
        Ok(QualityReport {
            set: sets.first().map(|(evidence, set)| SetView {
                evidence: evidence.clone(),
                questions: set.items.len(),
            }),
            pass_score,
            k_source: if plan_k.is_some() {
                "the plan's hit_k".into()
            } else {
                "the run's depth: the most passages retrieved for one question".into()
            },
            runs,
            comparison,
            drill_down_run: drill.map(|i| stored[i].0.id),
            items,
            lm_eval,
        })
    }

    /// The most passages the run retrieved for one question (at least 1).
    fn run_depth(run: &EvalRun) -> usize {
        run.items
            .iter()
            .map(|item| item.retrieved.len())
            .max()
            .unwrap_or(0)
            .max(1)
    }

    /// The drill-down rows of a run, in the set's order.
    pub fn item_rows(set: &EvalSet, run: &EvalRun, k: usize, pass_score: f64) -> Vec<ItemRow> {
        set.items
            .iter()
            .map(|item| {
                let row = run.get(&item.id);
                ItemRow {
                    id: item.id.clone(),
                    question: item.question.clone(),
                    accepted_answer: item.accepted_answer.clone(),
                    accepted_passages: item.accepted_passages.clone(),
                    answer: row.map(|r| r.answer.clone()),
                    retrieved: row.map(|r| r.retrieved.clone()).unwrap_or_default(),
                    value: row.and_then(|r| r.value()),
                    right: row.and_then(|r| r.is_right(pass_score)),
                    hit: row.and_then(|r| {
                        (!item.accepted_passages.is_empty())
                            .then(|| hit_at_k(&item.accepted_passages, &r.retrieved, k))
                    }),
                    truncated: row.is_some_and(|r| r.truncated()),
                }
            })
            .collect()
    }

    /// The figure of a quality mark for a run, stated as the mark's number (the run's estimate
    /// in the mark's unit: percent ×100, score as 0–1), or `None` when the run has none.
    fn figure(mark: &PassMark, estimate: Option<&Estimate>) -> Option<EvidenceStatistic> {
        let estimate = estimate?;
        let scale = if mark.unit == Unit::Percent {
            100.0
        } else {
            1.0
        };
        let mut figure = EvidenceStatistic::new(
            mark.metric.clone(),
            mark.statistic,
            estimate.value * scale,
            mark.unit,
            mark.point,
        )
        .with_scope(mark.scope.clone())
        .with_definition(mark.definition.clone());
        figure.source = "evaluation run".into();
        Some(figure)
    }

    /// The quality marks of `marks` (answer score, retrieval hit rate, truncation rate) graded
    /// against a run; empty when there are none.
    pub fn grade_run(marks: &[PassMark], run: &RunView) -> Vec<(PassMark, MarkGrade)> {
        marks
            .iter()
            .filter_map(|mark| {
                let estimate = match mark.metric {
                    Metric::AnswerScore => run.scores.answer_quality.as_ref(),
                    Metric::RetrievalHitRate => run.scores.hit_rate.as_ref(),
                    Metric::TruncationRate => run.scores.truncation.as_ref(),
                    _ => return None,
                };
                let graded = grade(mark, figure(mark, estimate).as_ref());
                Some((mark.clone(), graded))
            })
            .collect()
    }

    /// Parses and stores an evaluation set as evidence (the demo; uploads go through the REST
    /// route).
    pub async fn store_set(
        services: &Services,
        pilot_id: i64,
        file_name: &str,
        text: &str,
        uploaded_by: i64,
    ) -> Result<i64, AppError> {
        let set = parse_set(file_name, text)?;
        let summary = serde_json::to_string(&set).map_err(internal)?;
        crate::server::evidence::keep_bytes(
            services,
            pilot_id,
            EVAL_SET,
            file_name,
            text.as_bytes(),
            &summary,
            uploaded_by,
        )
        .await
    }

    /// Parses a run against the pilot's latest set and stores it as evidence.
    pub async fn store_run(
        services: &Services,
        pilot_id: i64,
        file_name: &str,
        text: &str,
        config: EvalRun,
        uploaded_by: i64,
    ) -> Result<i64, AppError> {
        let (set_file, set) = latest_set(services, pilot_id)
            .await?
            .ok_or_else(|| AppError::invalid(NO_SET))?;
        let parsed = parse_run(file_name, text, &set)?;
        let stored = StoredEvalRun {
            set_evidence_id: set_file.id,
            run: EvalRun {
                items: parsed.items,
                ..config
            },
        };
        let summary = serde_json::to_string(&stored).map_err(internal)?;
        crate::server::evidence::keep_bytes(
            services,
            pilot_id,
            EVAL_RUN,
            file_name,
            text.as_bytes(),
            &summary,
            uploaded_by,
        )
        .await
    }

    /// The refusal of a run on a pilot without an evaluation set.
    pub const NO_SET: &str = "eval_run: this pilot has no evaluation set yet; upload it first (kind=eval_set), then its runs";

    const DEMO_SET: &str = include_str!("quality_demo/set.csv");
    const DEMO_FP16: &str = include_str!("quality_demo/run-fp16.csv");
    const DEMO_AWQ: &str = include_str!("quality_demo/run-awq-int4.csv");

    /// The demo pilot's evaluation set and two runs (FP16 and AWQ-INT4), written for the demo.
    pub async fn seed_demo_quality(
        services: &Services,
        pilot_id: i64,
        admin_id: i64,
    ) -> Result<(), AppError> {
        store_set(
            services,
            pilot_id,
            "support-eval-set.csv",
            DEMO_SET,
            admin_id,
        )
        .await?;
        let config = |precision: &str, kv: &str| EvalRun {
            model: "RedHatAI/Qwen2.5-7B-Instruct".into(),
            weights_precision: precision.into(),
            kv_precision: kv.into(),
            engine: "vLLM".into(),
            engine_version: "0.8.5".into(),
            gpu: "Tesla V100-SXM2-16GB".into(),
            items: Vec::new(),
        };
        store_run(
            services,
            pilot_id,
            "support-eval-run-fp16.csv",
            DEMO_FP16,
            config("FP16", "auto"),
            admin_id,
        )
        .await?;
        store_run(
            services,
            pilot_id,
            "support-eval-run-awq-int4.csv",
            DEMO_AWQ,
            config("AWQ-INT4", "auto"),
            admin_id,
        )
        .await?;
        Ok(())
    }
}
