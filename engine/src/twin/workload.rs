//! The token shape of the traffic: how long prompts and answers are.
//!
//! Prefill time grows with the prompt, decode time and KV-cache use with the answer, so a
//! prediction is only as good as the lengths it draws. Load tests rarely keep every length;
//! they report percentiles (AIPerf: p1 … p99, min, max), a mean and a standard deviation
//! (vLLM), or only the mean. [`TokenLengths`] keeps what there is and draws from it:
//!
//! * **Quantiles**: a piecewise-linear quantile function through the reported percentiles, the
//!   minimum (probability 0) and the maximum (probability 1). Drawing u ~ U(0, 1) and reading
//!   the function at u reproduces every reported percentile.
//! * **Log-normal** with the reported mean and standard deviation, when no percentiles exist
//!   (token counts are positive and right-skewed).
//! * **Fixed**: every request the same length (benchmarks with fixed `--input-len`, or a
//!   `--prompt-tokens` / `--output-tokens` asked on the command line).
//! * **Observed**: resampled from per-request values (gateway logs, per-request files).

use super::rng::Rng;
use crate::ingest::MetricStats;
use crate::locale::Lang;
use serde::{Deserialize, Serialize};

/// A distribution of token counts (at least 1 is ever drawn).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TokenLengths {
    /// Every request has `tokens`.
    Fixed { tokens: u32 },
    /// Piecewise-linear quantile function through `(probability, tokens)` knots, ascending in
    /// both, first at probability 0 and last at 1.
    Quantiles { knots: Vec<(f64, f64)> },
    /// Log-normal with this mean and standard deviation, in tokens.
    LogNormal { mean: f64, std: f64 },
    /// Drawn uniformly from these observed counts.
    Observed { tokens: Vec<u32> },
}

impl TokenLengths {
    /// `tokens` for every request.
    pub fn fixed(tokens: u32) -> Self {
        TokenLengths::Fixed {
            tokens: tokens.max(1),
        }
    }

    /// The distribution a load test's statistics describe (see the module docs); `None` when
    /// they hold no usable number.
    pub fn from_stats(stats: &MetricStats) -> Option<Self> {
        let mut knots: Vec<(f64, f64)> = stats
            .all_percentiles()
            .into_iter()
            .filter(|(p, v)| (0.0..=100.0).contains(p) && v.is_finite() && *v >= 0.0)
            .map(|(p, v)| (p / 100.0, v))
            .collect();
        if knots.len() >= 2 {
            if let Some(min) = stats.min.filter(|m| *m <= knots[0].1) {
                knots.insert(0, (0.0, min));
            }
            if let Some(max) = stats.max.filter(|m| *m >= knots[knots.len() - 1].1) {
                knots.push((1.0, max));
            }
            if knots[0].0 > 0.0 {
                knots.insert(0, (0.0, knots[0].1));
            }
            let last = knots[knots.len() - 1];
            if last.0 < 1.0 {
                let prev = knots[knots.len() - 2];
                let slope = if last.0 > prev.0 {
                    (last.1 - prev.1) / (last.0 - prev.0)
                } else {
                    0.0
                };
                knots.push((1.0, last.1 + slope * (1.0 - last.0)));
            }
            // Monotone: a file's rounding can make neighbours cross by a hair.
            for i in 1..knots.len() {
                if knots[i].1 < knots[i - 1].1 {
                    knots[i].1 = knots[i - 1].1;
                }
            }
            knots.dedup_by(|b, a| b.0 == a.0);
            return Some(TokenLengths::Quantiles { knots });
        }
        let mean = stats
            .mean
            .or(stats.p50)
            .filter(|m| m.is_finite() && *m > 0.0)?;
        match stats.std.filter(|s| s.is_finite() && *s > 0.0) {
            Some(std) => Some(TokenLengths::LogNormal { mean, std }),
            None => Some(TokenLengths::fixed(mean.round() as u32)),
        }
    }

    /// Drawn uniformly from observed counts; `None` when there are none.
    pub fn observed(tokens: Vec<u32>) -> Option<Self> {
        (!tokens.is_empty()).then_some(TokenLengths::Observed { tokens })
    }

    /// One draw, at least 1 token.
    pub fn sample(&self, rng: &mut Rng) -> u32 {
        let v = match self {
            TokenLengths::Fixed { tokens } => return (*tokens).max(1),
            TokenLengths::Quantiles { knots } => quantile_at(knots, rng.unit()),
            TokenLengths::LogNormal { mean, std } => {
                let sigma2 = (1.0 + (std / mean).powi(2)).ln();
                let mu = mean.ln() - sigma2 / 2.0;
                (mu + sigma2.sqrt() * rng.normal()).exp()
            }
            TokenLengths::Observed { tokens } => {
                let i = (rng.unit() * tokens.len() as f64) as usize;
                return tokens[i.min(tokens.len() - 1)].max(1);
            }
        };
        (v.round() as u32).max(1)
    }

    /// The mean of the distribution, tokens.
    pub fn mean(&self) -> f64 {
        match self {
            TokenLengths::Fixed { tokens } => f64::from(*tokens),
            TokenLengths::Quantiles { knots } => knots
                .windows(2)
                .map(|w| (w[1].0 - w[0].0) * (w[0].1 + w[1].1) / 2.0)
                .sum(),
            TokenLengths::LogNormal { mean, .. } => *mean,
            TokenLengths::Observed { tokens } => {
                tokens.iter().map(|&t| f64::from(t)).sum::<f64>() / tokens.len().max(1) as f64
            }
        }
    }

    /// The median of the distribution, tokens.
    pub fn median(&self) -> f64 {
        match self {
            TokenLengths::Fixed { tokens } => f64::from(*tokens),
            TokenLengths::Quantiles { knots } => quantile_at(knots, 0.5),
            // A log-normal's median is its mean ÷ √(1 + cv²).
            TokenLengths::LogNormal { mean, std } => mean / (1.0 + (std / mean).powi(2)).sqrt(),
            TokenLengths::Observed { tokens } => {
                let mut sorted = tokens.clone();
                sorted.sort_unstable();
                sorted.get(sorted.len() / 2).map_or(1.0, |t| f64::from(*t))
            }
        }
    }

    /// The mean of the squared length, tokens² (how long a long answer stays in the batch
    /// matters more than how many there are: the batch holds answers in proportion to their
    /// length).
    pub fn second_moment(&self) -> f64 {
        match self {
            TokenLengths::Fixed { tokens } => f64::from(*tokens).powi(2),
            TokenLengths::Quantiles { knots } => knots
                .windows(2)
                .map(|w| {
                    let (h, a, b) = (w[1].0 - w[0].0, w[0].1, w[1].1);
                    h * (a * a + a * b + b * b) / 3.0
                })
                .sum(),
            TokenLengths::LogNormal { mean, std } => mean * mean + std * std,
            TokenLengths::Observed { tokens } => {
                tokens.iter().map(|&t| f64::from(t).powi(2)).sum::<f64>()
                    / tokens.len().max(1) as f64
            }
        }
    }

    /// One line for people: `fixed 512`, `mean 250, p50 249, p99 769 (from the reported
    /// percentiles)`.
    pub fn describe(&self) -> String {
        self.summary().describe_in(Lang::En)
    }

    /// What [`LengthSummary::describe_in`] needs, without the knots or observed counts.
    pub fn summary(&self) -> LengthSummary {
        match self {
            TokenLengths::Fixed { tokens } => LengthSummary::Fixed { tokens: *tokens },
            TokenLengths::Quantiles { knots } => LengthSummary::Quantiles {
                mean: self.mean(),
                p50: quantile_at(knots, 0.5),
                p99: quantile_at(knots, 0.99),
            },
            TokenLengths::LogNormal { mean, std } => LengthSummary::LogNormal {
                mean: *mean,
                std: *std,
            },
            TokenLengths::Observed { tokens } => LengthSummary::Observed {
                mean: self.mean(),
                requests: tokens.len(),
            },
        }
    }
}

/// A token shape as a prediction keeps it, so its sentence can be written again in the
/// report's language. `AsLogged` is a replay's: every request keeps its logged lengths.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LengthSummary {
    Fixed { tokens: u32 },
    Quantiles { mean: f64, p50: f64, p99: f64 },
    LogNormal { mean: f64, std: f64 },
    Observed { mean: f64, requests: usize },
    AsLogged { mean: f64 },
}

impl Default for LengthSummary {
    fn default() -> Self {
        LengthSummary::Fixed { tokens: 1 }
    }
}

impl LengthSummary {
    /// The shape in `lang`, counts rounded to whole tokens.
    pub fn describe_in(self, lang: Lang) -> String {
        let n = |v: f64| lang.number(v, 0);
        match (self, lang) {
            (LengthSummary::Fixed { tokens }, Lang::En) => format!("fixed {tokens}"),
            (LengthSummary::Fixed { tokens }, Lang::De) => format!("fest {tokens}"),
            (LengthSummary::Quantiles { mean, p50, p99 }, Lang::En) => format!(
                "mean {mean:.0}, p50 {p50:.0}, p99 {p99:.0} (from the reported percentiles)"
            ),
            (LengthSummary::Quantiles { mean, p50, p99 }, Lang::De) => format!(
                "Mittel {}, p50 {}, p99 {} (aus den berichteten Perzentilen)",
                n(mean),
                n(p50),
                n(p99)
            ),
            (LengthSummary::LogNormal { mean, std }, Lang::En) => {
                format!("mean {mean:.0}, std {std:.0} (log-normal)")
            }
            (LengthSummary::LogNormal { mean, std }, Lang::De) => format!(
                "Mittel {}, Standardabweichung {} (log-normal)",
                n(mean),
                n(std)
            ),
            (LengthSummary::Observed { mean, requests }, Lang::En) => {
                format!("mean {mean:.0} over {requests} observed requests")
            }
            (LengthSummary::Observed { mean, requests }, Lang::De) => format!(
                "Mittel {} über {} beobachtete Anfragen",
                n(mean),
                n(requests as f64)
            ),
            (LengthSummary::AsLogged { mean }, Lang::En) => format!("as logged, mean {mean:.0}"),
            (LengthSummary::AsLogged { mean }, Lang::De) => {
                format!("wie protokolliert, Mittel {}", n(mean))
            }
        }
    }
}

/// The quantile function through `knots` at probability `u`.
fn quantile_at(knots: &[(f64, f64)], u: f64) -> f64 {
    let i = knots.partition_point(|k| k.0 <= u);
    if i == 0 {
        return knots[0].1;
    }
    if i >= knots.len() {
        return knots[knots.len() - 1].1;
    }
    let (a, b) = (knots[i - 1], knots[i]);
    if b.0 <= a.0 {
        return b.1;
    }
    a.1 + (u - a.0) / (b.0 - a.0) * (b.1 - a.1)
}

/// The token shape of the traffic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    pub prompt_tokens: TokenLengths,
    pub output_tokens: TokenLengths,
}

impl Workload {
    /// Every request `prompt` tokens in and `output` tokens out.
    pub fn fixed(prompt: u32, output: u32) -> Self {
        Workload {
            prompt_tokens: TokenLengths::fixed(prompt),
            output_tokens: TokenLengths::fixed(output),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::MetricKey;

    #[test]
    fn draws_from_reported_percentiles_reproduce_them() {
        let mut stats = MetricStats::new(MetricKey::OutputTokens, "", "");
        stats.min = Some(3.0);
        stats.p50 = Some(249.0);
        stats.p90 = Some(480.0);
        stats.p99 = Some(768.6);
        stats.max = Some(1125.0);
        let lengths = TokenLengths::from_stats(&stats).unwrap();
        let mut rng = Rng::seeded(1);
        let mut draws: Vec<u32> = (0..50_000).map(|_| lengths.sample(&mut rng)).collect();
        draws.sort_unstable();
        let at = |q: f64| f64::from(draws[(q * (draws.len() - 1) as f64) as usize]);
        assert!((at(0.5) - 249.0).abs() <= 4.0, "{}", at(0.5));
        assert!((at(0.9) - 480.0).abs() <= 8.0, "{}", at(0.9));
        assert!((at(0.99) - 768.6).abs() <= 15.0, "{}", at(0.99));
    }

    #[test]
    fn a_mean_and_a_deviation_give_a_log_normal_with_that_mean() {
        let lengths = TokenLengths::LogNormal {
            mean: 200.0,
            std: 150.0,
        };
        let mut rng = Rng::seeded(3);
        let n = 40_000;
        let mean = (0..n)
            .map(|_| f64::from(lengths.sample(&mut rng)))
            .sum::<f64>()
            / n as f64;
        assert!((mean - 200.0).abs() < 4.0, "{mean}");
    }
}
