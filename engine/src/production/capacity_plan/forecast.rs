//! One copy of a candidate under its share of the production arrivals: the twin's simulation
//! summarised as latency percentiles and the count in flight.
//!
//! Copies sit behind a load balancer; each production request goes to a copy drawn at random
//! ([`share`]), which spreads the load evenly on average and keeps the arrivals' randomness (a
//! round-robin balancer is smoother, so this errs on the safe side). By symmetry one copy is
//! simulated. The first tenth of its arrivals is left out as warm-up, as the twin does for a
//! steady-state prediction.

use crate::twin::rng::Rng;
use crate::twin::{
    ArrivalProcess, RunStatistics, SimulationOptions, TimedRequest, TimingModel, Window, Workload,
    simulate,
};

/// What one copy does under its share of the load.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadForecast {
    pub stats: RunStatistics,
    /// Requests in flight on the copy (waiting or running), time-weighted p50 and p99.
    pub in_flight_p50: u32,
    pub in_flight_p99: u32,
    /// The copy's arrival rate, req/s.
    pub rate_per_s: f64,
    /// The rate beyond which the copy's queue grows without bound, req/s.
    pub saturation_rate_per_s: f64,
}

impl LoadForecast {
    /// True when arrivals outrun the copy: its latencies grow with how long the hour lasts.
    pub fn overloaded(&self) -> bool {
        self.rate_per_s >= self.saturation_rate_per_s
    }
}

/// The arrivals copy 0 of `copies` receives (module docs), at most `limit` of them.
pub fn share(arrivals: &[TimedRequest], copies: u32, seed: u64, limit: usize) -> Vec<TimedRequest> {
    let copies = copies.max(1);
    let mut rng = Rng::seeded(seed ^ u64::from(copies).wrapping_mul(0xA24B_AED4_963E_E407));
    arrivals
        .iter()
        .filter(|_| copies == 1 || (rng.unit() * f64::from(copies)) < 1.0)
        .take(limit)
        .copied()
        .collect()
}

/// Simulates `model` under `arrivals` (one copy's share) and summarises it.
pub fn forecast(model: &TimingModel, arrivals: &[TimedRequest], seed: u64) -> LoadForecast {
    let simulation = simulate(
        model,
        &ArrivalProcess::Replay {
            requests: arrivals.to_vec(),
        },
        &Workload::fixed(1, 1),
        &SimulationOptions {
            requests: arrivals.len().max(1),
            seed,
        },
    );
    let warm_up = arrivals.get(arrivals.len() / 10).map_or(0.0, |r| r.at_ms);
    let window = if arrivals.len() >= 20 {
        Window::ArrivedFrom(warm_up)
    } else {
        Window::All
    };
    let stats = RunStatistics::of(&simulation, window);
    let last = arrivals.last().map_or(0.0, |r| r.at_ms);
    let spans: Vec<(f64, f64)> = simulation
        .requests
        .iter()
        .map(|r| (r.arrival_ms, r.completed_ms))
        .collect();
    let (in_flight_p50, in_flight_p99) = in_flight_quantiles(&spans, warm_up, last);
    let rate_per_s = if last > warm_up {
        arrivals.iter().filter(|r| r.at_ms >= warm_up).count() as f64 / ((last - warm_up) / 1000.0)
    } else {
        0.0
    };
    let mean = |pick: fn(&TimedRequest) -> u32| {
        arrivals.iter().map(|r| f64::from(pick(r))).sum::<f64>() / arrivals.len().max(1) as f64
    };
    LoadForecast {
        stats,
        in_flight_p50,
        in_flight_p99,
        rate_per_s,
        saturation_rate_per_s: model
            .saturation_rate_per_s(mean(|r| r.prompt_tokens), mean(|r| r.output_tokens)),
    }
}

/// Time-weighted p50 and p99 of the count of `[start, end)` spans covering an instant of
/// `[from, to)`.
fn in_flight_quantiles(spans: &[(f64, f64)], from: f64, to: f64) -> (u32, u32) {
    if to <= from {
        return (0, 0);
    }
    let mut events: Vec<(f64, i64)> = Vec::with_capacity(spans.len() * 2);
    let mut level: i64 = 0;
    for &(start, end) in spans {
        if end <= from || start >= to {
            continue;
        }
        if start <= from {
            level += 1;
        } else {
            events.push((start, 1));
        }
        if end < to {
            events.push((end, -1));
        }
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut time: Vec<f64> = Vec::new();
    let mut at = from;
    let add = |n: i64, dt: f64, time: &mut Vec<f64>| {
        let n = n.max(0) as usize;
        if n >= time.len() {
            time.resize(n + 1, 0.0);
        }
        time[n] += dt;
    };
    for (t, delta) in events {
        add(level, t - at, &mut time);
        at = t;
        level += delta;
    }
    add(level, to - at, &mut time);
    let total: f64 = time.iter().sum();
    let quantile = |q: f64| {
        let mut seen = 0.0;
        for (n, t) in time.iter().enumerate() {
            seen += t;
            if seen >= q * total - 1e-9 {
                return n as u32;
            }
        }
        time.len().saturating_sub(1) as u32
    };
    (quantile(0.5), quantile(0.99))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_of_four_receives_about_a_quarter_of_the_requests() {
        let arrivals: Vec<TimedRequest> = (0..4000)
            .map(|i| TimedRequest {
                at_ms: f64::from(i) * 100.0,
                prompt_tokens: 100,
                output_tokens: 10,
            })
            .collect();
        let one = share(&arrivals, 4, 1, usize::MAX);
        assert!((one.len() as f64 - 1000.0).abs() < 100.0, "{}", one.len());
        assert_eq!(share(&arrivals, 1, 1, 10).len(), 10);
    }

    #[test]
    fn the_in_flight_count_is_time_weighted() {
        // One request all the time, a second for the last 2 % of the window.
        let spans = [(0.0, 100.0), (98.0, 100.0)];
        assert_eq!(in_flight_quantiles(&spans, 0.0, 100.0), (1, 2));
        assert_eq!(in_flight_quantiles(&[(0.0, 100.0)], 0.0, 100.0), (1, 1));
    }
}
