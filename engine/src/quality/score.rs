//! Scores of one run: answer quality, retrieval hit rate, truncation and the wrong-answer
//! cross-tab, each with its sample size and, for rates, a 95 % confidence interval.
//!
//! Interval methods (two-sided, 95 %):
//! * **Right/wrong** answers, hit@k and truncation rates: the **Wilson score interval**
//!   (z = 1.959964). Unlike p ± z·√(p(1−p)/n) it stays inside 0–1 and does not collapse to a
//!   point at 0 % or 100 %, which matters with 50–100 questions.
//! * **Fractional scores** (0–1): the **Student t interval** of the mean, mean ± t(0.975, n−1)·s/√n
//!   with the sample standard deviation (n − 1), clamped to 0–1. t quantiles are a table for
//!   1–29 degrees of freedom and the Cornish–Fisher expansion above (error < 1e-6 there). No
//!   bootstrap: results are deterministic. With one item the interval is not defined (`None`).
//!
//! Denominators, stated because each is a choice:
//! * Answer quality counts the run's rows (a partial run scores what it answered; `of_set`
//!   says how many questions the set has).
//! * Hit@k counts answered questions whose set item has accepted passages. If no row of the
//!   run retrieved anything the run did no retrieval and hit@k is `None` (not measured), not 0;
//!   otherwise a row with an empty list is a miss. Duplicate ids in a retrieved list count
//!   once (the first occurrence keeps its rank, later ones do not take a slot), and k larger
//!   than the list simply looks at the whole list.
//! * Truncation counts rows with a recorded finish reason; `None` when no row has one.

use super::model::{EvalRun, EvalSet, RunItem};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The score threshold at or above which a fractional score counts as a right answer in the
/// cross-tab and the flips (right/wrong rows use their own grade).
pub const DEFAULT_PASS_SCORE: f64 = 0.5;

/// How an [`Estimate`]'s interval was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum IntervalMethod {
    /// Wilson score interval of a proportion.
    Wilson,
    /// Student t interval of a mean.
    StudentT,
    /// Wald interval of a paired difference (see [`crate::quality::compare_runs`]).
    PairedWald,
}

/// A rate or mean with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Estimate {
    /// Items counted.
    pub n: usize,
    /// For proportions: how many were hits (right, truncated, …); for means: `None`.
    pub successes: Option<usize>,
    /// The proportion or mean, 0–1 (for differences −1–1).
    pub value: f64,
    /// Lower and upper 95 % bounds; `None` when the interval is not defined (n too small).
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub method: IntervalMethod,
}

/// The Wilson score interval of `successes` out of `n` (`None` when `n` is 0).
pub fn wilson(successes: usize, n: usize) -> Option<Estimate> {
    if n == 0 || successes > n {
        return None;
    }
    let nf = n as f64;
    let p = successes as f64 / nf;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    Some(Estimate {
        n,
        successes: Some(successes),
        value: p,
        low: Some((centre - half).max(0.0)),
        high: Some((centre + half).min(1.0)),
        method: IntervalMethod::Wilson,
    })
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (`df` ≥ 1).
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 29] = [
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
        2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
        2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
        2.048407, 2.045230,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if df <= TABLE.len() {
        return TABLE[df - 1];
    }
    let z = Z95;
    let v = df as f64;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * v.powi(4))
}

/// The mean of `values` with its Student t interval, clamped to `[lo, hi]`.
pub(crate) fn t_interval(values: &[f64], lo: f64, hi: f64) -> Option<Estimate> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean = values.iter().sum::<f64>() / nf;
    let (low, high) = if n < 2 {
        (None, None)
    } else {
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (nf - 1.0);
        let half = t975(n - 1) * (var / nf).sqrt();
        (Some((mean - half).max(lo)), Some((mean + half).min(hi)))
    };
    Some(Estimate {
        n,
        successes: None,
        value: mean,
        low,
        high,
        method: IntervalMethod::StudentT,
    })
}

/// Answer quality of a run: the share right (Wilson) when every row is graded right/wrong,
/// else the mean score (Student t). `None` for a run with no graded rows.
pub fn answer_quality(run: &EvalRun) -> Option<Estimate> {
    let graded: Vec<&RunItem> = run.items.iter().filter(|i| i.value().is_some()).collect();
    if graded.iter().all(|i| i.correct.is_some()) {
        let right = graded.iter().filter(|i| i.correct == Some(true)).count();
        wilson(right, graded.len())
    } else {
        let values: Vec<f64> = graded.iter().filter_map(|i| i.value()).collect();
        t_interval(&values, 0.0, 1.0)
    }
}

/// Whether one accepted passage is among the first `k` distinct ids of `retrieved`.
pub fn hit_at_k(accepted: &[String], retrieved: &[String], k: usize) -> bool {
    let mut seen: HashSet<&str> = HashSet::new();
    retrieved
        .iter()
        .filter(|id| seen.insert(id.as_str()))
        .take(k)
        .any(|id| accepted.contains(id))
}

/// Retrieval hit rate @k with its Wilson interval; see the module docs for the denominator.
/// `None` when the run did no retrieval, no answered question has accepted passages, or k is 0.
pub fn retrieval_hit_rate(set: &EvalSet, run: &EvalRun, k: usize) -> Option<Estimate> {
    if k == 0 || run.items.iter().all(|i| i.retrieved.is_empty()) {
        return None;
    }
    let mut n = 0;
    let mut hits = 0;
    for item in &run.items {
        let Some(question) = set.get(&item.id) else {
            continue;
        };
        if question.accepted_passages.is_empty() {
            continue;
        }
        n += 1;
        if hit_at_k(&question.accepted_passages, &item.retrieved, k) {
            hits += 1;
        }
    }
    wilson(hits, n)
}

/// Truncated answers (`finish_reason = length`) over rows with a recorded finish reason,
/// with the Wilson interval; `None` when no row records one.
pub fn truncation(run: &EvalRun) -> Option<Estimate> {
    let recorded: Vec<&RunItem> = run
        .items
        .iter()
        .filter(|i| i.finish_reason.is_some())
        .collect();
    wilson(
        recorded.iter().filter(|i| i.truncated()).count(),
        recorded.len(),
    )
}

/// Wrong answers split by whether the search found an accepted passage: found means the model
/// failed with the evidence in hand (a model problem), not found means it never had it (a
/// search problem no GPU fixes). Ids are in run order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrongAnswerCrossTab {
    /// k used for "retrieved".
    pub k: usize,
    /// Right answers (for context).
    pub right: usize,
    /// Wrong, with an accepted passage in the top k: a model problem.
    pub wrong_with_passage: Vec<String>,
    /// Wrong, with no accepted passage in the top k: a search problem.
    pub wrong_without_passage: Vec<String>,
    /// Wrong, but the question has no accepted passages, so retrieval cannot be judged.
    pub wrong_unscorable: Vec<String>,
}

/// The cross-tab of wrong answers; a fractional score is right at `pass_score` or above.
pub fn wrong_answer_crosstab(
    set: &EvalSet,
    run: &EvalRun,
    k: usize,
    pass_score: f64,
) -> WrongAnswerCrossTab {
    let mut tab = WrongAnswerCrossTab {
        k,
        ..WrongAnswerCrossTab::default()
    };
    for item in &run.items {
        match item.is_right(pass_score) {
            Some(true) => tab.right += 1,
            Some(false) => {
                let accepted = set.get(&item.id).map(|q| q.accepted_passages.as_slice());
                let bucket = match accepted {
                    None | Some([]) => &mut tab.wrong_unscorable,
                    Some(accepted) if hit_at_k(accepted, &item.retrieved, k) => {
                        &mut tab.wrong_with_passage
                    }
                    Some(_) => &mut tab.wrong_without_passage,
                };
                bucket.push(item.id.clone());
            }
            None => {}
        }
    }
    tab
}

/// Every score of one run at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunScores {
    /// Questions in the set.
    pub of_set: usize,
    /// Rows in the run.
    pub answered: usize,
    pub answer_quality: Option<Estimate>,
    pub hit_rate: Option<Estimate>,
    pub truncation: Option<Estimate>,
    pub crosstab: WrongAnswerCrossTab,
}

/// Computes [`RunScores`] at hit@`k`, with `pass_score` for the cross-tab.
pub fn score_run(set: &EvalSet, run: &EvalRun, k: usize, pass_score: f64) -> RunScores {
    RunScores {
        of_set: set.items.len(),
        answered: run.items.len(),
        answer_quality: answer_quality(run),
        hit_rate: retrieval_hit_rate(set, run, k),
        truncation: truncation(run),
        crosstab: wrong_answer_crosstab(set, run, k, pass_score),
    }
}
