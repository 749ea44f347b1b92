//! Non-negative linear least squares for the timing model's handful of parameters.
//!
//! Every cost in the step model is a time and cannot be negative, and the measured points are
//! few, so an unconstrained fit happily trades a negative per-sequence cost for a larger KV
//! cost. The problem is tiny (at most a dozen unknowns), so the exact non-negative optimum is
//! found by trying every support set: the optimum is the unconstrained optimum on its own
//! support, and it is feasible. Columns are scaled to unit length first and a small ridge keeps
//! nearly collinear columns (batch size and context grow together in one sweep) solvable; it
//! splits their effect instead of picking one at random.

/// One equation: coefficients, target value and weight (the residual is multiplied by it).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub x: Vec<f64>,
    pub y: f64,
    pub weight: f64,
}

/// Largest number of unknowns solved exactly (2ⁿ support sets); beyond it, coordinate descent.
const EXACT_UP_TO: usize = 12;

fn solve_dense(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-14 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (offset, row) in lower.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[col + 1 + offset] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// θ ≥ 0 minimising Σ (weight·(x·θ − y))² + ridge·Σ (‖column‖·θ)². Unknowns whose column is all
/// zero come out 0.
pub fn nonnegative_least_squares(rows: &[Row], unknowns: usize, ridge: f64) -> Vec<f64> {
    let mut scale = vec![0.0; unknowns];
    for r in rows {
        for (j, v) in r.x.iter().enumerate().take(unknowns) {
            scale[j] += (v * r.weight).powi(2);
        }
    }
    for s in &mut scale {
        *s = s.sqrt();
    }
    let active: Vec<usize> = (0..unknowns).filter(|&j| scale[j] > 0.0).collect();
    let n = active.len();
    let mut h = vec![vec![0.0; n]; n];
    let mut g = vec![0.0; n];
    for r in rows {
        let w2 = r.weight * r.weight;
        for (p, &j) in active.iter().enumerate() {
            let xj = r.x[j] / scale[j];
            g[p] += w2 * xj * r.y;
            for (q, &k) in active.iter().enumerate() {
                h[p][q] += w2 * xj * r.x[k] / scale[k];
            }
        }
    }
    for (p, row) in h.iter_mut().enumerate() {
        row[p] += ridge;
    }
    let phi = if n <= EXACT_UP_TO {
        exact(&h, &g)
    } else {
        coordinate_descent(&h, &g)
    };
    let mut theta = vec![0.0; unknowns];
    for (p, &j) in active.iter().enumerate() {
        theta[j] = phi[p] / scale[j];
    }
    theta
}

fn objective(h: &[Vec<f64>], g: &[f64], phi: &[f64]) -> f64 {
    let n = g.len();
    let mut v = 0.0;
    for p in 0..n {
        let hp: f64 = (0..n).map(|q| h[p][q] * phi[q]).sum();
        v += phi[p] * hp - 2.0 * g[p] * phi[p];
    }
    v
}

fn exact(h: &[Vec<f64>], g: &[f64]) -> Vec<f64> {
    let n = g.len();
    let mut best = vec![0.0; n];
    let mut best_value = 0.0;
    for mask in 1u32..(1u32 << n) {
        let support: Vec<usize> = (0..n).filter(|&j| mask & (1 << j) != 0).collect();
        let a: Vec<Vec<f64>> = support
            .iter()
            .map(|&p| support.iter().map(|&q| h[p][q]).collect())
            .collect();
        let b: Vec<f64> = support.iter().map(|&p| g[p]).collect();
        let Some(x) = solve_dense(a, b) else { continue };
        if x.iter().any(|v| *v < 0.0 || !v.is_finite()) {
            continue;
        }
        let mut phi = vec![0.0; n];
        for (i, &p) in support.iter().enumerate() {
            phi[p] = x[i];
        }
        let value = objective(h, g, &phi);
        if value < best_value {
            best_value = value;
            best = phi;
        }
    }
    best
}

fn coordinate_descent(h: &[Vec<f64>], g: &[f64]) -> Vec<f64> {
    let n = g.len();
    let mut phi = vec![0.0; n];
    for _ in 0..20_000 {
        let mut change: f64 = 0.0;
        for p in 0..n {
            let grad: f64 = (0..n).map(|q| h[p][q] * phi[q]).sum::<f64>() - g[p];
            let next = (phi[p] - grad / h[p][p]).max(0.0);
            change = change.max((next - phi[p]).abs());
            phi[p] = next;
        }
        if change < 1e-13 {
            break;
        }
    }
    phi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_exact_non_negative_coefficients() {
        // y = 2 + 0.5·x1 + 0·x2
        let rows: Vec<Row> = [(1.0, 3.0), (4.0, 1.0), (10.0, 7.0), (2.0, 9.0)]
            .iter()
            .map(|&(x1, x2)| Row {
                x: vec![1.0, x1, x2],
                y: 2.0 + 0.5 * x1,
                weight: 1.0,
            })
            .collect();
        let theta = nonnegative_least_squares(&rows, 3, 1e-12);
        assert!((theta[0] - 2.0).abs() < 1e-6, "{theta:?}");
        assert!((theta[1] - 0.5).abs() < 1e-6, "{theta:?}");
        assert!(theta[2].abs() < 1e-6, "{theta:?}");
    }

    #[test]
    fn a_coefficient_that_would_be_negative_is_held_at_zero() {
        // y = 10 − 1·x: the best non-negative slope is 0, intercept the mean.
        let rows: Vec<Row> = [0.0, 1.0, 2.0, 3.0]
            .iter()
            .map(|&x| Row {
                x: vec![1.0, x],
                y: 10.0 - x,
                weight: 1.0,
            })
            .collect();
        let theta = nonnegative_least_squares(&rows, 2, 1e-12);
        assert_eq!(theta[1], 0.0);
        assert!((theta[0] - 8.5).abs() < 1e-6, "{theta:?}");
    }
}
