//! The precision decision: which serving precisions are good enough, and which one to size for.
//!
//! Every run of the evaluation set is graded against the plan's **quality** pass marks (answer
//! score, retrieval hit rate@k, truncation rate; other marks are left to the load tests) with
//! [`crate::verdict::grade`], on the run's point estimate:
//!
//! * a run **passes** when every quality mark passes, **fails** when any mark fails, and is
//!   **not measured** otherwise (a mark without a figure, e.g. hit rate of a run that retrieved
//!   nothing);
//! * runs are grouped by weight precision (its name as written in the runs, compared without
//!   case) **and KV-cache dtype** (the guide: run the set "in the production precision of
//!   weights and KV cache"; a run without one counts as 16-bit, vLLM's `auto`); the **newest
//!   run** of a pair speaks for it, older runs of the same pair are shown but superseded (a
//!   re-run after a fix replaces the earlier result);
//! * a run of **another model** than the pilot's is not comparable ([`DecisionInput::not_comparable`]):
//!   shown with the reason, never graded;
//! * **only passing pairs are candidates** for the sizing recommendation
//!   ([`PrecisionDecision::passing_combinations`]): FP8 weights that passed with a 16-bit cache
//!   are not a candidate with an FP8 cache;
//! * **the decided precision is the cheapest in memory among the passing ones**: the fewest
//!   bytes per weight ([`precision_bytes_per_weight`]: BF16/FP16 2, FP8/INT8 1, NVFP4 0.5625,
//!   MXFP4 0.53, INT4/AWQ/GPTQ 0.52); a tie goes to the higher answer accuracy, then to the
//!   name; a precision whose name is not recognised ranks after every recognised one.
//!
//! Without runs, or without quality marks in the plan, nothing is decided and the reason says
//! so in plain words.

use super::score::{Estimate, RunScores};
use crate::locale::Lang;
use crate::plan::{Metric, PassMark, Unit};
use crate::production::precision::kv_dtype_of_run;
use crate::sizing::{KvDtype, WeightPrecision};
use crate::verdict::{EvidenceStatistic, MarkGrade, Verdict, grade};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// One run as the decision reads it (newest first in the list handed to [`decide_precision`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionInput {
    /// The run's evidence id.
    pub id: i64,
    pub model: String,
    pub precision: String,
    pub kv_precision: String,
    pub scores: RunScores,
    /// Set when the run is not the pilot's (another model): shown, never graded.
    pub not_comparable: Option<String>,
}

/// One precision and KV-cache pair whose newest run passed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PassingPair {
    /// Weight precision as written in the run (`AWQ-INT4`).
    pub weights: String,
    /// KV-cache precision as written (`auto`, `fp8`).
    pub kv_precision: String,
    /// The sizing precision it stands for, when recognised.
    pub weights_precision: Option<WeightPrecision>,
    /// The sizing KV dtype (blank and `auto` are 16-bit).
    pub kv_dtype: Option<KvDtype>,
}

/// One quality mark graded against one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MarkCheck {
    /// `answer score ≥ 70 %`.
    pub mark: String,
    /// The run's figure in the mark's unit with its interval: `75.0 % (95 % CI 46.8–91.1 %)`.
    pub figure: String,
    /// `pass`, `fail`, `not_measured`, `not_comparable`.
    pub verdict: String,
    pub explanation: String,
}

/// One run in the decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DecisionRow {
    pub evidence_id: i64,
    pub model: String,
    pub precision: String,
    pub kv_precision: String,
    /// Answer accuracy (share right, or mean score), 0–1, with its 95 % interval.
    pub accuracy: Option<f64>,
    pub accuracy_low: Option<f64>,
    pub accuracy_high: Option<f64>,
    /// Questions answered.
    pub answered: usize,
    /// Every quality mark passes (`Some(true)`), one fails (`Some(false)`), or not all could be
    /// measured / the plan has no quality mark (`None`).
    pub passed: Option<bool>,
    pub marks: Vec<MarkCheck>,
    /// Bytes per weight of the precision, when its name is recognised.
    pub bytes_per_weight: Option<f64>,
    /// False when a newer run of the same precision and KV cache supersedes this one, or the
    /// run is not comparable.
    pub counts: bool,
    /// The KV-cache dtype the run stands for (blank and `auto` are 16-bit).
    #[serde(default)]
    pub kv_dtype: Option<KvDtype>,
    /// Why the run is not the pilot's, when it is not.
    #[serde(default)]
    pub not_comparable: Option<String>,
}

impl DecisionRow {
    /// The precision in words, with its KV cache when that is not 16-bit: `FP8`, `FP8 with an
    /// FP8 KV cache`.
    pub fn label(&self) -> String {
        self.label_in(Lang::En)
    }

    /// [`DecisionRow::label`] in `lang`: `FP8 mit FP8-KV-Cache`.
    pub fn label_in(&self, lang: Lang) -> String {
        match (self.kv_dtype, lang) {
            (Some(KvDtype::Bits16), _) => self.precision.clone(),
            (Some(KvDtype::Fp8), Lang::En) => format!("{} with an FP8 KV cache", self.precision),
            (Some(KvDtype::Fp8), Lang::De) => format!("{} mit FP8-KV-Cache", self.precision),
            (None, _) => format!("{} (KV {})", self.precision, self.kv_precision.trim()),
        }
    }
}

/// Which precisions passed and which one the sizing is for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PrecisionDecision {
    /// Whether the plan has quality marks to grade runs with.
    pub has_quality_marks: bool,
    /// Weight precisions with a passing pair, cheapest in memory first (names as in the runs).
    pub passing: Vec<String>,
    /// The (weights, KV cache) pairs whose newest run passes, cheapest first: the sizing
    /// candidates.
    #[serde(default)]
    pub passing_combinations: Vec<PassingPair>,
    /// Precisions whose newest run fails a mark.
    pub failing: Vec<String>,
    /// Precisions whose newest run could not be graded on every mark.
    pub not_measured: Vec<String>,
    /// The precision decided: the cheapest-memory passing one.
    pub decided: Option<String>,
    /// The KV-cache precision of the decided pair, as written in its run.
    #[serde(default)]
    pub decided_kv: Option<String>,
    /// The decision in a sentence, with the numbers.
    pub reason: String,
    /// Every run, newest first.
    pub runs: Vec<DecisionRow>,
}

impl PrecisionDecision {
    /// Whether a precision was decided (only then are the candidates restricted).
    pub fn exists(&self) -> bool {
        self.decided.is_some()
    }
}

/// The sizing precision a run's precision name stands for: `BF16`, `FP16`, `FP8`, `FP8-dynamic`,
/// `W8A8`, `INT8`, `NVFP4`, `MXFP4`, `AWQ-INT4`, `GPTQ`, `W4A16`, … (`None` when unknown).
pub fn sizing_precision(name: &str) -> Option<WeightPrecision> {
    if let Ok(precision) = WeightPrecision::from_str(name) {
        return Some(precision);
    }
    let lower = name.trim().to_ascii_lowercase();
    let has = |token: &str| lower.contains(token);
    if has("nvfp4") {
        Some(WeightPrecision::Nvfp4)
    } else if has("mxfp4") {
        Some(WeightPrecision::Mxfp4)
    } else if has("int4") || has("awq") || has("gptq") || has("w4a") || has("4bit") {
        Some(WeightPrecision::Int4)
    } else if has("fp8") {
        Some(WeightPrecision::Fp8)
    } else if has("int8") || has("w8a") || has("8bit") {
        Some(WeightPrecision::Int8)
    } else if has("bf16") || has("bfloat16") {
        Some(WeightPrecision::Bf16)
    } else if has("fp16") || has("float16") || has("half") {
        Some(WeightPrecision::Fp16)
    } else {
        None
    }
}

/// Bytes per weight of a run's precision name (scales included), `None` when not recognised.
pub fn precision_bytes_per_weight(name: &str) -> Option<f64> {
    sizing_precision(name).map(WeightPrecision::linear_bytes_per_param)
}

/// Whether a mark is graded by evaluation runs.
pub fn is_quality_mark(mark: &PassMark) -> bool {
    matches!(
        mark.metric,
        Metric::AnswerScore | Metric::RetrievalHitRate | Metric::TruncationRate
    )
}

/// The run's estimate a quality mark is about.
fn estimate_for<'a>(mark: &PassMark, scores: &'a RunScores) -> Option<&'a Estimate> {
    match mark.metric {
        Metric::AnswerScore => scores.answer_quality.as_ref(),
        Metric::RetrievalHitRate => scores.hit_rate.as_ref(),
        Metric::TruncationRate => scores.truncation.as_ref(),
        _ => None,
    }
}

fn scale(unit: Unit) -> f64 {
    if unit == Unit::Percent { 100.0 } else { 1.0 }
}

/// The figure of a quality mark for a run, in the mark's unit (percent ×100, score 0–1).
pub fn mark_figure(mark: &PassMark, estimate: Option<&Estimate>) -> Option<EvidenceStatistic> {
    let estimate = estimate?;
    let mut figure = EvidenceStatistic::new(
        mark.metric.clone(),
        mark.statistic,
        estimate.value * scale(mark.unit),
        mark.unit,
        mark.point,
    )
    .with_scope(mark.scope.clone())
    .with_definition(mark.definition.clone());
    figure.source = "evaluation run".into();
    Some(figure)
}

/// Every quality mark of `marks` graded against a run's scores (other marks are skipped).
pub fn grade_quality(marks: &[PassMark], scores: &RunScores) -> Vec<(PassMark, MarkGrade)> {
    marks
        .iter()
        .filter(|mark| is_quality_mark(mark))
        .map(|mark| {
            let figure = mark_figure(mark, estimate_for(mark, scores));
            (mark.clone(), grade(mark, figure.as_ref()))
        })
        .collect()
}

/// Pass only when every mark passes, fail when one fails, else not measured; `None` without
/// marks.
pub fn run_passed(graded: &[(PassMark, MarkGrade)]) -> Option<bool> {
    if graded.is_empty() {
        return None;
    }
    if graded.iter().any(|(_, g)| g.verdict == Verdict::Fail) {
        return Some(false);
    }
    graded
        .iter()
        .all(|(_, g)| g.verdict == Verdict::Pass)
        .then_some(true)
}

/// A number without needless decimals: `70`, `0.7`, `91.1`.
fn short(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// `75 % (95 % CI 47–91 %)` in percent, `0.75 (95 % CI 0.47–0.91)` as a score.
pub fn estimate_words(estimate: &Estimate, unit: Unit) -> String {
    let percent = unit != Unit::Score;
    let (factor, decimals) = if percent { (100.0, 1) } else { (1.0, 2) };
    let value = short(estimate.value * factor, decimals);
    let interval = match (estimate.low, estimate.high) {
        (Some(low), Some(high)) => {
            let (low, high) = (
                short(low * factor, decimals),
                short(high * factor, decimals),
            );
            if percent {
                format!(" (95 % CI {low}–{high} %)")
            } else {
                format!(" (95 % CI {low}–{high})")
            }
        }
        _ => String::new(),
    };
    if percent {
        format!("{value} %{interval}")
    } else {
        format!("{value}{interval}")
    }
}

/// `answer score ≥ 70 %`.
fn mark_words(mark: &PassMark) -> String {
    format!(
        "{} {} {}",
        mark.metric.short_label(),
        mark.comparator.symbol(),
        mark.threshold_text()
    )
}

fn checks(marks: &[PassMark], scores: &RunScores) -> Vec<MarkCheck> {
    grade_quality(marks, scores)
        .into_iter()
        .map(|(mark, graded)| MarkCheck {
            mark: mark_words(&mark),
            figure: estimate_for(&mark, scores)
                .map(|e| estimate_words(e, mark.unit))
                .unwrap_or_else(|| "not measured".into()),
            verdict: graded.verdict.as_str().to_string(),
            explanation: graded.explanation,
        })
        .collect()
}

/// `answer score 75 % (95 % CI 47–91 %) meets ≥ 70 %` for each mark of a run, joined.
fn checks_words(row: &DecisionRow) -> String {
    row.marks
        .iter()
        .map(|check| {
            let (metric, limit) = split_mark(&check.mark);
            let verb = match check.verdict.as_str() {
                "pass" => "meets",
                "fail" => "misses",
                _ => "cannot be graded against",
            };
            format!("{metric} {} {verb} {limit}", check.figure)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `answer score ≥ 70 %` → (`answer score`, `≥ 70 %`).
fn split_mark(mark: &str) -> (&str, &str) {
    for symbol in ["≤", "≥", "<", ">", "="] {
        if let Some(at) = mark.find(symbol) {
            return (mark[..at].trim_end(), &mark[at..]);
        }
    }
    (mark, "")
}

fn list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn same_precision(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

fn same_kv(a: &str, b: &str) -> bool {
    match (kv_dtype_of_run(a), kv_dtype_of_run(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.trim().eq_ignore_ascii_case(b.trim()),
    }
}

/// Decides the precision from the runs of the set (newest first) and the plan's pass marks.
/// See the module documentation for the rule.
pub fn decide_precision(runs: &[DecisionInput], marks: &[PassMark]) -> PrecisionDecision {
    let has_quality_marks = marks.iter().any(is_quality_mark);
    let mut rows: Vec<DecisionRow> = Vec::new();
    for run in runs {
        let marks = if run.not_comparable.is_some() {
            Vec::new()
        } else {
            checks(marks, &run.scores)
        };
        let passed = if marks.is_empty() {
            None
        } else if marks.iter().any(|c| c.verdict == "fail") {
            Some(false)
        } else if marks.iter().all(|c| c.verdict == "pass") {
            Some(true)
        } else {
            None
        };
        let counts = run.not_comparable.is_none()
            && !rows.iter().any(|r| {
                r.not_comparable.is_none()
                    && same_precision(&r.precision, &run.precision)
                    && same_kv(&r.kv_precision, &run.kv_precision)
            });
        let quality = run.scores.answer_quality.as_ref();
        rows.push(DecisionRow {
            evidence_id: run.id,
            model: run.model.clone(),
            precision: run.precision.trim().to_string(),
            kv_precision: run.kv_precision.clone(),
            accuracy: quality.map(|e| e.value),
            accuracy_low: quality.and_then(|e| e.low),
            accuracy_high: quality.and_then(|e| e.high),
            answered: run.scores.answered,
            passed,
            marks,
            bytes_per_weight: precision_bytes_per_weight(&run.precision),
            counts,
            kv_dtype: kv_dtype_of_run(&run.kv_precision),
            not_comparable: run.not_comparable.clone(),
        });
    }
    let counted: Vec<&DecisionRow> = rows.iter().filter(|r| r.counts).collect();
    let mut passing: Vec<&DecisionRow> = counted
        .iter()
        .copied()
        .filter(|r| r.passed == Some(true))
        .collect();
    passing.sort_by(|a, b| cheapest_first(a, b));
    let names = |filter: &dyn Fn(&DecisionRow) -> bool| -> Vec<String> {
        counted
            .iter()
            .filter(|r| filter(r))
            .map(|r| r.label())
            .collect()
    };
    let failing = names(&|r| r.passed == Some(false));
    let not_measured = if has_quality_marks {
        names(&|r| r.passed.is_none())
    } else {
        Vec::new()
    };
    let decided = passing.first().map(|r| r.precision.clone());
    let decided_kv = passing.first().map(|r| r.kv_precision.clone());
    let passing_combinations: Vec<PassingPair> = passing
        .iter()
        .map(|r| PassingPair {
            weights: r.precision.clone(),
            kv_precision: r.kv_precision.clone(),
            weights_precision: sizing_precision(&r.precision),
            kv_dtype: r.kv_dtype,
        })
        .collect();
    let mut passing_names: Vec<String> = Vec::new();
    for r in &passing {
        if !passing_names
            .iter()
            .any(|n| same_precision(n, &r.precision))
        {
            passing_names.push(r.precision.clone());
        }
    }
    let mut decision = PrecisionDecision {
        has_quality_marks,
        passing: passing_names,
        passing_combinations,
        failing,
        not_measured,
        decided,
        decided_kv,
        reason: String::new(),
        runs: rows,
    };
    decision.reason = decision.reason_in(Lang::En);
    decision
}

fn accuracy_words(row: &DecisionRow) -> String {
    match row.accuracy {
        Some(value) => {
            let estimate = Estimate {
                n: row.answered,
                successes: None,
                value,
                low: row.accuracy_low,
                high: row.accuracy_high,
                method: super::score::IntervalMethod::Wilson,
            };
            estimate_words(&estimate, Unit::Percent)
        }
        None => "no accuracy".into(),
    }
}

/// Passing rows in the order the decision takes them: least memory per weight, then the
/// smaller KV cache, then the more accurate, then by name.
fn cheapest_first(a: &DecisionRow, b: &DecisionRow) -> std::cmp::Ordering {
    let bytes = |r: &DecisionRow| r.bytes_per_weight.unwrap_or(f64::INFINITY);
    let kv_bytes = |r: &DecisionRow| r.kv_dtype.map_or(2.0, KvDtype::bytes_per_element);
    bytes(a)
        .total_cmp(&bytes(b))
        .then_with(|| kv_bytes(a).total_cmp(&kv_bytes(b)))
        .then_with(|| {
            b.accuracy
                .unwrap_or(f64::NEG_INFINITY)
                .total_cmp(&a.accuracy.unwrap_or(f64::NEG_INFINITY))
        })
        .then_with(|| a.precision.cmp(&b.precision))
}

impl PrecisionDecision {
    /// [`PrecisionDecision::reason`] in `lang`, from the decision's own rows.
    pub fn reason_in(&self, lang: Lang) -> String {
        let counted: Vec<&DecisionRow> = self.runs.iter().filter(|r| r.counts).collect();
        if counted.is_empty() && !self.runs.is_empty() {
            let why = self
                .runs
                .iter()
                .filter_map(|r| r.not_comparable.clone())
                .collect::<Vec<_>>()
                .join("; ");
            return match lang {
                Lang::En => format!(
                    "No comparable evaluation run, so no precision can be decided: {why}. Upload a run of the pilot's model."
                ),
                Lang::De => format!(
                    "Kein vergleichbarer Evaluationslauf, daher lässt sich keine Präzision entscheiden: {why}. Laden Sie einen Lauf mit dem Modell des Piloten hoch."
                ),
            };
        }
        let mut passing: Vec<&DecisionRow> = counted
            .iter()
            .copied()
            .filter(|r| r.passed == Some(true))
            .collect();
        passing.sort_by(|a, b| cheapest_first(a, b));
        let names = |filter: &dyn Fn(&DecisionRow) -> bool| -> Vec<String> {
            counted
                .iter()
                .filter(|r| filter(r))
                .map(|r| r.label_in(lang))
                .collect()
        };
        let failing = names(&|r| r.passed == Some(false));
        let not_measured = if self.has_quality_marks {
            names(&|r| r.passed.is_none())
        } else {
            Vec::new()
        };
        let rows = Rows {
            counted: &counted,
            passing: &passing,
            failing: &failing,
            not_measured: &not_measured,
        };
        match lang {
            Lang::En => reason(self.has_quality_marks, &rows),
            Lang::De => reason_de(self.has_quality_marks, &rows),
        }
    }
}

/// The rows a reason speaks of, their labels already in the reason's language.
struct Rows<'a> {
    counted: &'a [&'a DecisionRow],
    passing: &'a [&'a DecisionRow],
    failing: &'a [String],
    not_measured: &'a [String],
}

fn reason(has_quality_marks: bool, rows: &Rows) -> String {
    let Rows {
        counted,
        passing,
        failing,
        not_measured,
    } = rows;
    if counted.is_empty() {
        return "No evaluation run yet, so no precision can be decided: upload the evaluation set and one run per serving precision.".into();
    }
    if !has_quality_marks {
        let tried = counted
            .iter()
            .map(|r| format!("{} {}", r.label(), accuracy_words(r)))
            .collect::<Vec<_>>();
        return format!(
            "No precision decided: the plan has no quality pass mark (answer score, retrieval hit rate@k or truncation rate) to grade the runs against. Measured: {}. Add a quality mark to the plan.",
            list(&tried)
        );
    }
    let Some(chosen) = passing.first() else {
        let mut parts = Vec::new();
        for row in counted.iter() {
            let state = match row.passed {
                Some(false) => "failed",
                _ => "could not be graded",
            };
            parts.push(format!("{} {state} ({})", row.label(), checks_words(row)));
        }
        return format!(
            "No precision passed the plan's quality marks: {}. None of them is a candidate for sizing until a run passes.",
            parts.join("; ")
        );
    };
    let mut text = format!("{} chosen: {}", chosen.label(), checks_words(chosen));
    if passing.len() == 1 {
        text.push_str("; it is the only precision that passed.");
    } else {
        let bytes = chosen
            .bytes_per_weight
            .map(|b| format!(" ({} bytes per weight)", short(b, 2)))
            .unwrap_or_default();
        let same_memory = passing[1].bytes_per_weight == chosen.bytes_per_weight;
        if same_memory {
            text.push_str(&format!(
                "; it needs the least memory of the passing precisions{bytes} and, of those as small, answers best."
            ));
        } else {
            text.push_str(&format!(
                "; it needs the least memory of the passing precisions{bytes}."
            ));
        }
        let others = passing[1..]
            .iter()
            .map(|r| format!("{} ({})", r.label(), accuracy_words(r)))
            .collect::<Vec<_>>();
        text.push_str(&format!(" {} also passed.", list(&others)));
    }
    if !failing.is_empty() {
        text.push_str(&format!(
            " {} failed and {} not a candidate.",
            list(failing),
            if failing.len() == 1 { "is" } else { "are" }
        ));
    }
    if !not_measured.is_empty() {
        text.push_str(&format!(
            " {} could not be graded on every mark.",
            list(not_measured)
        ));
    }
    text
}

/// The German [`reason`]: the same cases, phrased as German sentences.
fn reason_de(has_quality_marks: bool, rows: &Rows) -> String {
    let lang = Lang::De;
    let Rows {
        counted,
        passing,
        failing,
        not_measured,
    } = rows;
    if counted.is_empty() {
        return "Noch kein Evaluationslauf, daher lässt sich keine Präzision entscheiden: Laden Sie den Evaluationsdatensatz und einen Lauf je Serving-Präzision hoch.".into();
    }
    if !has_quality_marks {
        let tried = counted
            .iter()
            .map(|r| format!("{} {}", r.label_in(lang), accuracy_words_in(r, lang)))
            .collect::<Vec<_>>();
        return format!(
            "Keine Präzision entschieden: Der Plan hat keinen Qualitäts-Zielwert (Antwortbewertung, Trefferquote der Suche@k oder Anteil abgeschnittener Antworten), gegen das die Läufe bewertet werden könnten. Gemessen: {}. Nehmen Sie einen Qualitäts-Zielwert in den Plan auf.",
            list_in(&tried, lang)
        );
    }
    let Some(chosen) = passing.first() else {
        let parts: Vec<String> = counted
            .iter()
            .map(|row| {
                let state = match row.passed {
                    Some(false) => "verfehlt",
                    _ => "nicht bewertbar",
                };
                format!(
                    "{} {state} ({})",
                    row.label_in(lang),
                    checks_words_in(row, lang)
                )
            })
            .collect();
        return format!(
            "Keine Präzision hat die Qualitäts-Zielwerte des Plans erreicht: {}. Keine davon kommt für die Dimensionierung in Frage, bis ein Lauf sie erreicht.",
            parts.join("; ")
        );
    };
    let mut text = format!(
        "{} gewählt: {}",
        chosen.label_in(lang),
        checks_words_in(chosen, lang)
    );
    if passing.len() == 1 {
        text.push_str("; sie ist die einzige Präzision, die bestanden hat.");
    } else {
        let bytes = chosen
            .bytes_per_weight
            .map(|b| format!(" ({} Byte je Gewicht)", lang.number(b, 2)))
            .unwrap_or_default();
        if passing[1].bytes_per_weight == chosen.bytes_per_weight {
            text.push_str(&format!(
                "; sie braucht von den bestandenen Präzisionen den wenigsten Speicher{bytes} und antwortet von den gleich kleinen am besten."
            ));
        } else {
            text.push_str(&format!(
                "; sie braucht von den bestandenen Präzisionen den wenigsten Speicher{bytes}."
            ));
        }
        let others: Vec<String> = passing[1..]
            .iter()
            .map(|r| format!("{} ({})", r.label_in(lang), accuracy_words_in(r, lang)))
            .collect();
        text.push_str(&format!(
            " Ebenfalls bestanden: {}.",
            list_in(&others, lang)
        ));
    }
    if !failing.is_empty() {
        text.push_str(&format!(
            " {} {}",
            list_in(failing, lang),
            if failing.len() == 1 {
                "hat die Zielwerte verfehlt und ist kein Kandidat."
            } else {
                "haben die Zielwerte verfehlt und sind keine Kandidaten."
            }
        ));
    }
    if !not_measured.is_empty() {
        text.push_str(&format!(
            " {} ließ sich nicht gegen jeden Zielwert bewerten.",
            list_in(not_measured, lang)
        ));
    }
    text
}

/// [`accuracy_words`] in `lang`: `75,0 % (95-%-Intervall 47,0–91,0 %)`.
fn accuracy_words_in(row: &DecisionRow, lang: Lang) -> String {
    let Some(value) = row.accuracy else {
        return lang.pick("no accuracy", "keine Genauigkeit").into();
    };
    let interval = match (row.accuracy_low, row.accuracy_high) {
        (Some(low), Some(high)) => format!(
            " (95-%-Intervall {}–{} %)",
            lang.number(low * 100.0, 1),
            lang.number(high * 100.0, 1)
        ),
        _ => String::new(),
    };
    format!("{}{interval}", lang.percent(value))
}

/// [`checks_words`] in `lang`; the mark stays in its notation.
fn checks_words_in(row: &DecisionRow, lang: Lang) -> String {
    row.marks
        .iter()
        .map(|check| {
            let verb = match check.verdict.as_str() {
                "pass" => lang.pick("meets", "erfüllt"),
                "fail" => lang.pick("misses", "verfehlt"),
                _ => lang.pick("cannot be graded against", "nicht bewertbar gegen"),
            };
            format!("{}: {} {verb}", check.mark, check.figure)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_in(names: &[String], lang: Lang) -> String {
    match names {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} {} {last}", init.join(", "), lang.pick("and", "und")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Comparator, MeasurementPoint, Scope, Statistic};
    use crate::quality::{WrongAnswerCrossTab, wilson};

    fn mark(metric: Metric, comparator: Comparator, percent: f64) -> PassMark {
        PassMark {
            metric,
            statistic: Statistic::Rate,
            comparator,
            threshold: percent,
            unit: Unit::Percent,
            point: MeasurementPoint::EvaluationSet,
            definition: String::new(),
            scope: Scope::AllTraffic,
            rationale: String::new(),
        }
    }

    fn answer_at_least(percent: f64) -> PassMark {
        mark(Metric::AnswerScore, Comparator::Ge, percent)
    }

    /// A run of `right` right answers out of `n`, retrieval not measured.
    fn run(id: i64, precision: &str, right: usize, n: usize) -> DecisionInput {
        DecisionInput {
            id,
            model: "m".into(),
            precision: precision.into(),
            kv_precision: "auto".into(),
            not_comparable: None,
            scores: RunScores {
                of_set: n,
                answered: n,
                answer_quality: wilson(right, n),
                hit_rate: None,
                truncation: None,
                crosstab: WrongAnswerCrossTab::default(),
            },
        }
    }

    #[test]
    fn bytes_per_weight_follow_the_precision_names_runs_use() {
        assert_eq!(precision_bytes_per_weight("FP16"), Some(2.0));
        assert_eq!(precision_bytes_per_weight("bf16"), Some(2.0));
        assert_eq!(precision_bytes_per_weight("FP8-dynamic"), Some(1.0));
        assert_eq!(precision_bytes_per_weight("W8A8-INT8"), Some(1.0));
        assert_eq!(precision_bytes_per_weight("NVFP4"), Some(0.5625));
        let int4 = 0.5 + 2.5 / 128.0;
        assert_eq!(precision_bytes_per_weight("AWQ-INT4"), Some(int4));
        assert_eq!(precision_bytes_per_weight("GPTQ"), Some(int4));
        assert_eq!(precision_bytes_per_weight("w4a16"), Some(int4));
        assert_eq!(precision_bytes_per_weight("mystery"), None);
    }

    #[test]
    fn the_cheapest_passing_precision_is_decided_and_the_others_are_named() {
        // FP16 10/12 = 83.3 %, AWQ-INT4 9/12 = 75 %: both meet ≥ 70 %; INT4 needs less memory.
        let runs = [run(2, "AWQ-INT4", 9, 12), run(1, "FP16", 10, 12)];
        let d = decide_precision(&runs, &[answer_at_least(70.0)]);
        assert!(d.has_quality_marks);
        assert_eq!(d.passing, vec!["AWQ-INT4", "FP16"]);
        assert_eq!(d.decided.as_deref(), Some("AWQ-INT4"));
        assert!(d.failing.is_empty() && d.not_measured.is_empty());
        assert_eq!(d.runs.len(), 2);
        assert_eq!(d.runs[0].passed, Some(true));
        assert_eq!(d.runs[0].accuracy, Some(0.75));
        // Wilson 9/12: 46.8–91.1 %.
        assert!((d.runs[0].accuracy_low.unwrap() - 0.4677).abs() < 1e-3);
        assert!((d.runs[0].accuracy_high.unwrap() - 0.9111).abs() < 1e-3);
        assert_eq!(
            d.reason,
            "AWQ-INT4 chosen: answer score 75 % (95 % CI 46.8–91.1 %) meets ≥ 70 %; it needs \
             the least memory of the passing precisions (0.52 bytes per weight). FP16 (83.3 % \
             (95 % CI 55.2–95.3 %)) also passed."
        );
    }

    #[test]
    fn a_precision_that_misses_a_mark_is_not_a_candidate() {
        // ≥ 80 %: FP16 (83.3 %) passes, AWQ-INT4 (75 %) fails.
        let runs = [run(2, "AWQ-INT4", 9, 12), run(1, "FP16", 10, 12)];
        let d = decide_precision(&runs, &[answer_at_least(80.0)]);
        assert_eq!(d.passing, vec!["FP16"]);
        assert_eq!(d.failing, vec!["AWQ-INT4"]);
        assert_eq!(d.decided.as_deref(), Some("FP16"));
        assert_eq!(d.runs[0].passed, Some(false));
        assert_eq!(d.runs[0].marks[0].verdict, "fail");
        assert!(
            d.reason.starts_with(
                "FP16 chosen: answer score 83.3 % (95 % CI 55.2–95.3 %) meets ≥ 80 %; it is the only precision that passed."
            ),
            "{}",
            d.reason
        );
        assert!(d.reason.contains("AWQ-INT4 failed"), "{}", d.reason);
    }

    #[test]
    fn nothing_passing_and_no_marks_decide_nothing_and_say_so() {
        let runs = [run(2, "AWQ-INT4", 9, 12), run(1, "FP16", 10, 12)];
        let d = decide_precision(&runs, &[answer_at_least(90.0)]);
        assert!(d.passing.is_empty() && d.decided.is_none());
        assert_eq!(d.failing, vec!["AWQ-INT4", "FP16"]);
        assert!(
            d.reason.starts_with("No precision passed the plan's quality marks: AWQ-INT4 failed (answer score 75 % (95 % CI 46.8–91.1 %) misses ≥ 90 %)"),
            "{}",
            d.reason
        );

        // Latency marks are not quality marks.
        let ttft = PassMark {
            metric: Metric::Ttft,
            statistic: Statistic::P95,
            unit: Unit::Ms,
            point: MeasurementPoint::Gateway,
            ..mark(Metric::Ttft, Comparator::Le, 500.0)
        };
        let d = decide_precision(&runs, &[ttft]);
        assert!(!d.has_quality_marks);
        assert!(d.decided.is_none() && d.passing.is_empty() && d.not_measured.is_empty());
        assert_eq!(d.runs[0].passed, None);
        assert!(d.runs[0].marks.is_empty());
        assert!(
            d.reason
                .starts_with("No precision decided: the plan has no quality pass mark"),
            "{}",
            d.reason
        );
        assert!(d.reason.contains("AWQ-INT4 75 %"), "{}", d.reason);

        let d = decide_precision(&[], &[answer_at_least(70.0)]);
        assert!(d.decided.is_none() && d.runs.is_empty());
        assert!(d.reason.starts_with("No evaluation run yet"));
    }

    #[test]
    fn the_decision_reads_in_german_with_german_numbers() {
        let runs = [run(2, "AWQ-INT4", 9, 12), run(1, "FP16", 10, 12)];
        let ttft = PassMark {
            metric: Metric::Ttft,
            statistic: Statistic::P95,
            unit: Unit::Ms,
            point: MeasurementPoint::Gateway,
            ..mark(Metric::Ttft, Comparator::Le, 500.0)
        };
        let d = decide_precision(&runs, &[ttft]);
        assert_eq!(d.reason_in(Lang::En), d.reason);
        let german = d.reason_in(Lang::De);
        assert!(
            german
                .starts_with("Keine Präzision entschieden: Der Plan hat keinen Qualitäts-Zielwert"),
            "{german}"
        );
        assert!(
            german.contains("Gemessen: AWQ-INT4 75,0 % (95-%-Intervall 46,8–91,1 %) und FP16 "),
            "{german}"
        );

        let d = decide_precision(&runs, &[answer_at_least(70.0)]);
        assert_eq!(d.reason_in(Lang::En), d.reason);
        let german = d.reason_in(Lang::De);
        assert!(german.starts_with("AWQ-INT4 gewählt: "), "{german}");
        assert!(
            german.contains("Ebenfalls bestanden: FP16 (83,3 %"),
            "{german}"
        );
        assert!(
            decide_precision(&[], &[])
                .reason_in(Lang::De)
                .starts_with("Noch kein Evaluationslauf"),
        );
    }

    #[test]
    fn equal_memory_goes_to_the_more_accurate_and_unknown_names_rank_last() {
        let runs = [
            run(3, "mystery-format", 12, 12),
            run(2, "INT8", 8, 10),
            run(1, "FP8", 9, 10),
        ];
        let d = decide_precision(&runs, &[answer_at_least(70.0)]);
        assert_eq!(d.passing, vec!["FP8", "INT8", "mystery-format"]);
        assert_eq!(d.decided.as_deref(), Some("FP8"));
        assert!(d.reason.contains("answers best"), "{}", d.reason);
    }

    #[test]
    fn the_newest_run_of_a_precision_speaks_for_it() {
        // FP8 re-run (newest) fails; the older FP8 run that passed is superseded.
        let runs = [
            run(3, "fp8", 6, 10),
            run(2, "BF16", 9, 10),
            run(1, "FP8", 9, 10),
        ];
        let d = decide_precision(&runs, &[answer_at_least(70.0)]);
        assert_eq!(d.passing, vec!["BF16"]);
        assert_eq!(d.failing, vec!["fp8"]);
        assert!(d.runs[0].counts && d.runs[1].counts && !d.runs[2].counts);
    }

    #[test]
    fn a_mark_without_a_figure_is_not_measured_and_does_not_pass() {
        // Hit rate ≥ 80 % but the runs did no retrieval.
        let marks = [
            answer_at_least(70.0),
            mark(Metric::RetrievalHitRate, Comparator::Ge, 80.0),
        ];
        let runs = [run(1, "FP16", 10, 12)];
        let d = decide_precision(&runs, &marks);
        assert_eq!(d.runs[0].passed, None);
        assert_eq!(d.not_measured, vec!["FP16"]);
        assert!(d.decided.is_none());
        assert_eq!(d.runs[0].marks[1].figure, "not measured");
        assert!(
            d.reason.contains("FP16 could not be graded"),
            "{}",
            d.reason
        );
    }

    #[test]
    fn scores_on_the_0_to_1_scale_read_as_scores() {
        let e = wilson(9, 12).unwrap();
        assert_eq!(estimate_words(&e, Unit::Score), "0.75 (95 % CI 0.47–0.91)");
        assert_eq!(
            estimate_words(&e, Unit::Percent),
            "75 % (95 % CI 46.8–91.1 %)"
        );
    }

    #[test]
    fn an_fp8_kv_cache_needs_its_own_passing_run() {
        // FP8 weights passed with a 16-bit cache (9/10); with an FP8 cache they fail (6/10).
        let mut fp8_kv = run(2, "FP8", 6, 10);
        fp8_kv.kv_precision = "fp8_e4m3".into();
        let runs = [fp8_kv, run(1, "FP8", 9, 10)];
        let d = decide_precision(&runs, &[answer_at_least(70.0)]);
        assert!(
            d.runs[0].counts && d.runs[1].counts,
            "different pairs both count"
        );
        assert_eq!(d.passing, vec!["FP8"]);
        assert_eq!(d.passing_combinations.len(), 1);
        let pair = &d.passing_combinations[0];
        assert_eq!(
            (pair.weights_precision, pair.kv_dtype),
            (Some(WeightPrecision::Fp8), Some(KvDtype::Bits16))
        );
        assert_eq!(d.failing, vec!["FP8 with an FP8 KV cache"]);
        assert_eq!(d.decided_kv.as_deref(), Some("auto"));
        // Both passing: the FP8 cache is the cheaper pair and decides.
        let mut fp8_kv = run(3, "FP8", 9, 10);
        fp8_kv.kv_precision = "fp8".into();
        let d = decide_precision(&[fp8_kv, run(1, "FP8", 9, 10)], &[answer_at_least(70.0)]);
        assert_eq!(d.passing_combinations.len(), 2);
        assert_eq!(d.passing_combinations[0].kv_dtype, Some(KvDtype::Fp8));
        assert!(
            d.reason.starts_with("FP8 with an FP8 KV cache chosen"),
            "{}",
            d.reason
        );
        // A run that states no KV cache counts as 16-bit.
        let mut blank = run(4, "FP16", 9, 10);
        blank.kv_precision = String::new();
        let d = decide_precision(&[blank], &[answer_at_least(70.0)]);
        assert_eq!(d.passing_combinations[0].kv_dtype, Some(KvDtype::Bits16));
    }

    #[test]
    fn a_run_of_another_model_is_shown_but_never_graded() {
        let mut other = run(2, "FP8", 10, 10);
        other.model = "openai/gpt-oss-20b".into();
        other.not_comparable = Some("the evaluation run #2 was measured with model “openai/gpt-oss-20b”, but the pilot serves “Qwen/Qwen3-4B”".into());
        let d = decide_precision(
            &[other.clone(), run(1, "FP16", 9, 10)],
            &[answer_at_least(70.0)],
        );
        assert_eq!(d.passing, vec!["FP16"]);
        assert!(!d.runs[0].counts && d.runs[0].marks.is_empty());
        assert!(d.runs[0].not_comparable.is_some());
        let d = decide_precision(&[other], &[answer_at_least(70.0)]);
        assert!(d.decided.is_none());
        assert!(d.reason.starts_with("No comparable evaluation run, so no precision can be decided: the evaluation run #2 was measured with model “openai/gpt-oss-20b”"), "{}", d.reason);
    }
}
