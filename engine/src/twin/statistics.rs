//! A simulated run summarised the way a load test reports it: TTFT, TPOT, ITL and E2E
//! percentiles, request and output-token throughput.
//!
//! Percentiles use the project's one method (linear interpolation between closest ranks, what
//! vLLM bench and AIPerf report: [`crate::stats::quantile`]); the pooled ITL gaps are weighted
//! values, and their percentiles equal those of the expanded list.
//!
//! Which requests count: a load generator reports every request of its run ([`Window::All`]), a
//! closed-loop run stops counting at its duration ([`Window::FirstCompleted`]), and a
//! steady-state prediction leaves out the warm-up ([`Window::ArrivedFrom`]).

use super::simulate::Simulation;
use crate::plan::Statistic;
use crate::stats::quantile_sorted;
use serde::{Deserialize, Serialize};

/// p50, p90, p95 and p99 of one metric, in the unit of the field holding them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = LatencyPercentiles))]
pub struct Percentiles {
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
}

impl Percentiles {
    /// The four percentiles of `values` (sorted here); zeros when empty.
    pub fn of(values: &mut [f64]) -> Self {
        values.sort_unstable_by(f64::total_cmp);
        let at = |q: f64| quantile_sorted(values, q).unwrap_or(0.0);
        Percentiles {
            p50: at(0.50),
            p90: at(0.90),
            p95: at(0.95),
            p99: at(0.99),
        }
    }

    /// The four percentiles of weighted values `(value, count)` (sorted here), equal to those
    /// of the list with every value repeated `count` times.
    pub fn of_weighted(values: &mut [(f64, u32)]) -> Self {
        values.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let total: u64 = values.iter().map(|v| u64::from(v.1)).sum();
        if total == 0 {
            return Percentiles::default();
        }
        let value_at_rank = |rank: u64| -> f64 {
            let mut seen = 0u64;
            for &(v, n) in values.iter() {
                seen += u64::from(n);
                if rank < seen {
                    return v;
                }
            }
            values[values.len() - 1].0
        };
        let at = |q: f64| {
            let h = (total - 1) as f64 * q;
            let lo = h.floor() as u64;
            let frac = h - lo as f64;
            let a = value_at_rank(lo);
            let b = value_at_rank((lo + 1).min(total - 1));
            a + frac * (b - a)
        };
        Percentiles {
            p50: at(0.50),
            p90: at(0.90),
            p95: at(0.95),
            p99: at(0.99),
        }
    }

    /// The value at percentile `statistic`; `None` for mean, max and rate, which this does not
    /// hold.
    pub fn get(&self, statistic: Statistic) -> Option<f64> {
        match statistic {
            Statistic::P50 => Some(self.p50),
            Statistic::P90 => Some(self.p90),
            Statistic::P95 => Some(self.p95),
            Statistic::P99 => Some(self.p99),
            Statistic::Mean | Statistic::Max | Statistic::Rate => None,
        }
    }

    /// Sets the value at percentile `statistic`; mean, max and rate change nothing.
    pub fn set(&mut self, statistic: Statistic, value: f64) {
        match statistic {
            Statistic::P50 => self.p50 = value,
            Statistic::P90 => self.p90 = value,
            Statistic::P95 => self.p95 = value,
            Statistic::P99 => self.p99 = value,
            Statistic::Mean | Statistic::Max | Statistic::Rate => {}
        }
    }
}

/// Which completed requests a summary counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Window {
    /// Every completed request.
    All,
    /// The first `n` to complete (a closed-loop run that stopped at its duration).
    FirstCompleted(usize),
    /// Requests arriving at or after this instant, ms (leaves out the warm-up).
    ArrivedFrom(f64),
}

/// A simulated run in a load test's statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunStatistics {
    pub ttft_ms: Percentiles,
    pub tpot_ms: Percentiles,
    pub itl_ms: Percentiles,
    pub e2e_ms: Percentiles,
    pub ttft_mean_ms: f64,
    pub tpot_mean_ms: f64,
    pub e2e_mean_ms: f64,
    pub request_throughput_per_s: f64,
    pub output_tokens_per_s: f64,
    /// Requests counted.
    pub completed: usize,
    pub prompt_tokens_mean: f64,
    pub output_tokens_mean: f64,
    /// Mean step terms of TTFT and of TPOT ([`super::simulate::StepTerms`]).
    pub ttft_terms_mean: super::simulate::StepTerms,
    pub tpot_terms_mean: super::simulate::StepTerms,
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

impl RunStatistics {
    /// The same run with `overhead_ms` more on every TTFT and E2E (the request overhead is a
    /// constant added outside the engine, so it shifts without re-simulating).
    pub fn add_overhead(&mut self, overhead_ms: f64) {
        for p in [&mut self.ttft_ms, &mut self.e2e_ms] {
            p.p50 += overhead_ms;
            p.p90 += overhead_ms;
            p.p95 += overhead_ms;
            p.p99 += overhead_ms;
        }
        self.ttft_mean_ms += overhead_ms;
        self.e2e_mean_ms += overhead_ms;
    }

    /// Summarises the requests of `simulation` inside `window`.
    pub fn of(simulation: &Simulation, window: Window) -> Self {
        let chosen: Vec<&super::simulate::RequestOutcome> = match window {
            Window::All => simulation.requests.iter().collect(),
            Window::FirstCompleted(n) => simulation.requests.iter().take(n).collect(),
            Window::ArrivedFrom(from) => simulation
                .requests
                .iter()
                .filter(|r| r.arrival_ms >= from)
                .collect(),
        };
        let mut ttft: Vec<f64> = chosen.iter().map(|r| r.ttft_ms).collect();
        let mut tpot: Vec<f64> = chosen.iter().filter_map(|r| r.tpot_ms).collect();
        let mut e2e: Vec<f64> = chosen.iter().map(|r| r.e2e_ms).collect();
        let start = chosen
            .iter()
            .map(|r| r.arrival_ms)
            .fold(f64::INFINITY, f64::min);
        let end = chosen
            .iter()
            .map(|r| r.completed_ms)
            .fold(f64::NEG_INFINITY, f64::max);
        let mut gaps: Vec<(f64, u32)> = simulation
            .itl_gaps
            .iter()
            .filter(|g| g.at_ms >= start && g.at_ms <= end)
            .map(|g| (g.gap_ms, g.count))
            .collect();
        let span_s = (end - start) / 1000.0;
        let output_tokens: f64 = chosen.iter().map(|r| f64::from(r.output_tokens)).sum();
        let n = chosen.len();
        let mut ttft_terms_mean = [0.0; super::simulate::TERMS];
        let mut tpot_terms_mean = [0.0; super::simulate::TERMS];
        let decoded = chosen.iter().filter(|r| r.tpot_ms.is_some()).count().max(1) as f64;
        for r in &chosen {
            for k in 0..super::simulate::TERMS {
                ttft_terms_mean[k] += r.ttft_terms[k] / n.max(1) as f64;
                if r.tpot_ms.is_some() {
                    tpot_terms_mean[k] += r.tpot_terms[k] / decoded;
                }
            }
        }
        RunStatistics {
            ttft_terms_mean,
            tpot_terms_mean,
            ttft_mean_ms: mean(&ttft),
            tpot_mean_ms: mean(&tpot),
            e2e_mean_ms: mean(&e2e),
            ttft_ms: Percentiles::of(&mut ttft),
            tpot_ms: Percentiles::of(&mut tpot),
            itl_ms: Percentiles::of_weighted(&mut gaps),
            e2e_ms: Percentiles::of(&mut e2e),
            request_throughput_per_s: if span_s > 0.0 { n as f64 / span_s } else { 0.0 },
            output_tokens_per_s: if span_s > 0.0 {
                output_tokens / span_s
            } else {
                0.0
            },
            completed: n,
            prompt_tokens_mean: if n > 0 {
                chosen
                    .iter()
                    .map(|r| f64::from(r.prompt_tokens))
                    .sum::<f64>()
                    / n as f64
            } else {
                0.0
            },
            output_tokens_mean: if n > 0 { output_tokens / n as f64 } else { 0.0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_percentile_statistic_reads_and_writes_its_own_field() {
        let p = Percentiles {
            p50: 1.0,
            p90: 2.0,
            p95: 3.0,
            p99: 4.0,
        };
        let field = |p: &Percentiles, statistic: Statistic| match statistic {
            Statistic::P50 => Some(p.p50),
            Statistic::P90 => Some(p.p90),
            Statistic::P95 => Some(p.p95),
            Statistic::P99 => Some(p.p99),
            _ => None,
        };
        for statistic in Statistic::ALL {
            assert_eq!(p.get(statistic), field(&p, statistic), "{statistic}");
            let mut written = Percentiles::default();
            written.set(statistic, 7.0);
            match field(&written, statistic) {
                Some(v) => {
                    assert_eq!(v, 7.0, "{statistic}");
                    let others = [written.p50, written.p90, written.p95, written.p99];
                    assert_eq!(others.iter().filter(|&&v| v == 7.0).count(), 1);
                }
                None => assert_eq!(written, Percentiles::default(), "{statistic}"),
            }
        }
        assert_eq!(p.get(Statistic::P95), Some(3.0));
        assert_eq!(p.get(Statistic::P99), Some(4.0));
    }

    #[test]
    fn weighted_percentiles_equal_those_of_the_expanded_list() {
        let mut weighted = vec![(30.0, 2), (10.0, 3), (20.0, 1), (50.0, 4)];
        let mut expanded: Vec<f64> = weighted
            .iter()
            .flat_map(|&(v, n)| std::iter::repeat_n(v, n as usize))
            .collect();
        assert_eq!(
            Percentiles::of_weighted(&mut weighted),
            Percentiles::of(&mut expanded)
        );
    }
}
