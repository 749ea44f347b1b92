//! Comparing two runs of the same set, e.g. BF16 against FP8 weights.
//!
//! The runs are **paired**: the same questions, so the comparison uses the per-question
//! differences, which is far more sensitive than comparing two independent intervals.
//!
//! * Right/wrong runs: the difference B − A in share right is (c − b)/n, where b counts the
//!   questions right in A and wrong in B and c the reverse. Its interval is the **paired Wald
//!   interval**, (c − b)/n ± z·√(b + c − (c − b)²/n)/n, clamped to −1–1, and its significance
//!   is **McNemar's exact test**: the two-sided binomial p-value of min(b, c) in b + c trials
//!   with p = ½ (p = 1 when nothing flipped).
//! * Fractional runs (either run graded by score): the **paired Student t interval** of the
//!   per-question score differences; no p-value is given.
//! * Only questions answered in both runs count; the others are listed.

use super::model::EvalRun;
use super::score::{Estimate, IntervalMethod, Z95, answer_quality, t_interval};
use serde::{Deserialize, Serialize};

/// Two runs of one set compared question by question (B − A).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunComparison {
    /// Each run's own answer quality, over the questions both answered.
    pub a: Option<Estimate>,
    pub b: Option<Estimate>,
    /// B − A with its paired 95 % interval.
    pub difference: Option<Estimate>,
    /// McNemar's exact two-sided p-value (right/wrong runs only).
    pub mcnemar_p: Option<f64>,
    /// Right in A, wrong in B.
    pub right_to_wrong: Vec<String>,
    /// Wrong in A, right in B.
    pub wrong_to_right: Vec<String>,
    /// Questions answered in only one run (left out of everything above).
    pub only_in_a: Vec<String>,
    pub only_in_b: Vec<String>,
}

/// Compares run `b` against run `a`; a fractional score is right at `pass_score` or above
/// for the flips.
pub fn compare_runs(a: &EvalRun, b: &EvalRun, pass_score: f64) -> RunComparison {
    let mut paired_a = EvalRun::default();
    let mut paired_b = EvalRun::default();
    let mut only_in_a = Vec::new();
    for item in &a.items {
        match b.get(&item.id) {
            Some(other) if item.value().is_some() && other.value().is_some() => {
                paired_a.items.push(item.clone());
                paired_b.items.push(other.clone());
            }
            _ => only_in_a.push(item.id.clone()),
        }
    }
    let only_in_b = b
        .items
        .iter()
        .filter(|i| !paired_b.items.iter().any(|p| p.id == i.id))
        .map(|i| i.id.clone())
        .collect();

    let mut right_to_wrong = Vec::new();
    let mut wrong_to_right = Vec::new();
    for (x, y) in paired_a.items.iter().zip(&paired_b.items) {
        match (x.is_right(pass_score), y.is_right(pass_score)) {
            (Some(true), Some(false)) => right_to_wrong.push(x.id.clone()),
            (Some(false), Some(true)) => wrong_to_right.push(x.id.clone()),
            _ => {}
        }
    }

    let n = paired_a.items.len();
    let binary = paired_a
        .items
        .iter()
        .chain(&paired_b.items)
        .all(|i| i.correct.is_some());
    let (difference, mcnemar_p) = if n == 0 {
        (None, None)
    } else if binary {
        let (nb, nc) = (right_to_wrong.len(), wrong_to_right.len());
        (Some(paired_wald(nb, nc, n)), Some(mcnemar_exact(nb, nc)))
    } else {
        let diffs: Vec<f64> = paired_a
            .items
            .iter()
            .zip(&paired_b.items)
            .filter_map(|(x, y)| Some(y.value()? - x.value()?))
            .collect();
        (t_interval(&diffs, -1.0, 1.0), None)
    };

    RunComparison {
        a: answer_quality(&paired_a),
        b: answer_quality(&paired_b),
        difference,
        mcnemar_p,
        right_to_wrong,
        wrong_to_right,
        only_in_a,
        only_in_b,
    }
}

/// The paired Wald interval of (c − b)/n.
pub fn paired_wald(b: usize, c: usize, n: usize) -> Estimate {
    let nf = n as f64;
    let (bf, cf) = (b as f64, c as f64);
    let d = (cf - bf) / nf;
    let half = Z95 * (bf + cf - (cf - bf).powi(2) / nf).max(0.0).sqrt() / nf;
    Estimate {
        n,
        successes: None,
        value: d,
        low: Some((d - half).max(-1.0)),
        high: Some((d + half).min(1.0)),
        method: IntervalMethod::PairedWald,
    }
}

/// McNemar's exact two-sided p-value for `b` and `c` discordant pairs.
pub fn mcnemar_exact(b: usize, c: usize) -> f64 {
    let m = b + c;
    if m == 0 {
        return 1.0;
    }
    // Binomial(m, ½) probabilities by the recurrence P(i+1) = P(i)·(m − i)/(i + 1).
    let mut p = 0.5f64.powi(m as i32);
    let mut tail = 0.0;
    for i in 0..=b.min(c) {
        tail += p;
        p *= (m - i) as f64 / (i + 1) as f64;
    }
    (2.0 * tail).min(1.0)
}
