//! Arrival processes: when requests reach the engine.
//!
//! * **Poisson at a rate** — independent users, exponential gaps; the open-loop load of
//!   `vllm bench serve --request-rate R` and of production traffic from many people. Above the
//!   engine's saturation rate the queue grows for as long as the run lasts.
//! * **Closed loop at a concurrency** — N users, each sending the next request the moment the
//!   previous answer ends (`--max-concurrency N`, AIPerf `--concurrency N`). All N start at
//!   t = 0, as the load generators do; N requests are always in flight.
//! * **Burst** — every request at t = 0: `vllm bench serve --request-rate inf` without a
//!   concurrency limit, guidellm's `throughput` profile.
//! * **Replay** — the pilot's own gateway log, its inter-arrival times compressed by the ratio
//!   of the production rate to the log's rate, each request keeping its own prompt and answer
//!   lengths. [`replay_from_gateway`] picks the busiest stretch of the log (the shortest span
//!   holding the asked number of requests), because capacity is decided at the peak.
//!
//! [`mooncake_trace`] writes the same replay as a Mooncake trace (one JSON object per line:
//! `timestamp` in ms from the start, `input_length`, `output_length`; `hash_ids` is optional
//! and left out), which AIPerf replays with `--custom-dataset-type mooncake_trace
//! --fixed-schedule`.

use super::rng::Rng;
use super::workload::Workload;
use crate::locale::Lang;
use crate::traffic::{GatewayRecord, RequestStatus};
use serde::{Deserialize, Serialize};

/// One request at a known instant with known lengths.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedRequest {
    /// Milliseconds from the start of the run.
    pub at_ms: f64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
}

/// How requests arrive (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ArrivalProcess {
    /// Open loop, exponential gaps with mean 1 ÷ `rate_per_s`.
    Poisson { rate_per_s: f64 },
    /// `concurrency` users in a closed loop, all starting at t = 0.
    ClosedLoop { concurrency: u32 },
    /// Every request at t = 0.
    Burst,
    /// Requests at recorded instants, each with its own lengths (the workload is not drawn).
    Replay { requests: Vec<TimedRequest> },
}

impl ArrivalProcess {
    /// One line for people: `Poisson arrivals at 12.5 req/s`, `closed loop at concurrency 16`.
    pub fn describe(&self) -> String {
        self.summary().describe_in(Lang::En)
    }

    /// What [`ArrivalSummary::describe_in`] needs, without a replay's requests.
    pub fn summary(&self) -> ArrivalSummary {
        match self {
            ArrivalProcess::Poisson { rate_per_s } => ArrivalSummary::Poisson {
                rate_per_s: *rate_per_s,
            },
            ArrivalProcess::ClosedLoop { concurrency } => ArrivalSummary::ClosedLoop {
                concurrency: *concurrency,
            },
            ArrivalProcess::Burst => ArrivalSummary::Burst,
            ArrivalProcess::Replay { requests } => {
                let span_s = requests.last().map(|r| r.at_ms / 1000.0).unwrap_or(0.0);
                let rate = if span_s > 0.0 {
                    (requests.len() as f64 - 1.0) / span_s
                } else {
                    0.0
                };
                ArrivalSummary::Replay {
                    requests: requests.len(),
                    rate_per_s: rate,
                }
            }
        }
    }
}

/// An arrival process as a prediction keeps it: small (a replay's requests are counted, not
/// kept), so the sentence can be written again in the report's language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ArrivalSummary {
    Poisson {
        rate_per_s: f64,
    },
    ClosedLoop {
        concurrency: u32,
    },
    #[default]
    Burst,
    Replay {
        requests: usize,
        rate_per_s: f64,
    },
}

impl ArrivalSummary {
    /// The process in `lang`: `closed loop at concurrency 16` / `geschlossene Schleife bei
    /// Parallelität 16`. English keeps Rust's shortest number form (`12.5`), as the API
    /// always wrote it; German formats numbers for its locale.
    pub fn describe_in(self, lang: Lang) -> String {
        match (self, lang) {
            (ArrivalSummary::Poisson { rate_per_s }, Lang::En) => {
                format!("Poisson arrivals at {rate_per_s} req/s")
            }
            (ArrivalSummary::Poisson { rate_per_s }, Lang::De) => {
                format!("Poisson-Ankünfte mit {} req/s", lang.figure(rate_per_s))
            }
            (ArrivalSummary::ClosedLoop { concurrency }, Lang::En) => {
                format!("closed loop at concurrency {concurrency}")
            }
            (ArrivalSummary::ClosedLoop { concurrency }, Lang::De) => {
                format!("geschlossene Schleife bei Parallelität {concurrency}")
            }
            (ArrivalSummary::Burst, Lang::En) => "every request at once (burst)".to_string(),
            (ArrivalSummary::Burst, Lang::De) => "alle Anfragen auf einmal (Burst)".to_string(),
            (
                ArrivalSummary::Replay {
                    requests,
                    rate_per_s,
                },
                Lang::En,
            ) => format!("replay of {requests} gateway requests at {rate_per_s:.3} req/s"),
            (
                ArrivalSummary::Replay {
                    requests,
                    rate_per_s,
                },
                Lang::De,
            ) => format!(
                "Wiedergabe von {} Gateway-Anfragen mit {} req/s",
                lang.number(requests as f64, 0),
                lang.number(rate_per_s, 3)
            ),
        }
    }
}

/// The first `count` requests of an open process, lengths drawn from `workload`; `None` for a
/// closed loop (its arrivals depend on completions and are made by the simulation).
pub fn open_arrivals(
    process: &ArrivalProcess,
    workload: &Workload,
    count: usize,
    rng: &mut Rng,
) -> Option<Vec<TimedRequest>> {
    let draw = |at_ms: f64, rng: &mut Rng| TimedRequest {
        at_ms,
        prompt_tokens: workload.prompt_tokens.sample(rng),
        output_tokens: workload.output_tokens.sample(rng),
    };
    match process {
        ArrivalProcess::Poisson { rate_per_s } => {
            let mean_gap_ms = 1000.0 / rate_per_s.max(1e-9);
            let mut t = 0.0;
            Some(
                (0..count)
                    .map(|i| {
                        if i > 0 {
                            t += rng.exponential(mean_gap_ms);
                        }
                        draw(t, rng)
                    })
                    .collect(),
            )
        }
        ArrivalProcess::Burst => Some((0..count).map(|_| draw(0.0, rng)).collect()),
        ArrivalProcess::Replay { requests } => Some(requests.iter().take(count).copied().collect()),
        ArrivalProcess::ClosedLoop { .. } => None,
    }
}

/// A replay built from a gateway log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GatewayReplay {
    /// The requests, time-compressed, first at 0 ms.
    pub requests: Vec<TimedRequest>,
    /// Mean arrival rate of the chosen stretch in the log, req/s.
    pub logged_rate_per_s: f64,
    /// Mean arrival rate after compression, req/s.
    pub replay_rate_per_s: f64,
    /// Time compression: logged gaps are divided by this.
    pub speed_up: f64,
    /// Records left out (failed, without token counts).
    pub skipped: usize,
}

/// The busiest stretch of `count` successful requests of a gateway log, compressed in time so
/// its mean arrival rate is `rate_per_s` (or as logged when `None`). Only successful requests
/// with token counts are replayed: the others say nothing about lengths. `None` when fewer than
/// two such requests exist or they all start at the same millisecond.
pub fn replay_from_gateway(
    records: &[GatewayRecord],
    count: usize,
    rate_per_s: Option<f64>,
) -> Option<GatewayReplay> {
    let mut usable: Vec<&GatewayRecord> = records
        .iter()
        .filter(|r| r.status == RequestStatus::Ok && r.prompt_tokens > 0)
        .collect();
    let skipped = records.len() - usable.len();
    usable.sort_by_key(|r| r.start_ms);
    let n = count.clamp(2, usable.len().max(2));
    if usable.len() < 2 {
        return None;
    }
    let n = n.min(usable.len());
    let mut best = 0;
    let mut best_span = i64::MAX;
    for i in 0..=usable.len() - n {
        let span = usable[i + n - 1].start_ms - usable[i].start_ms;
        if span < best_span {
            best_span = span;
            best = i;
        }
    }
    if best_span <= 0 {
        return None;
    }
    let window = &usable[best..best + n];
    let logged_rate_per_s = (n as f64 - 1.0) / (best_span as f64 / 1000.0);
    let replay_rate_per_s = rate_per_s.unwrap_or(logged_rate_per_s);
    let speed_up = replay_rate_per_s / logged_rate_per_s;
    let t0 = window[0].start_ms;
    let requests = window
        .iter()
        .map(|r| TimedRequest {
            at_ms: (r.start_ms - t0) as f64 / speed_up,
            prompt_tokens: r.prompt_tokens,
            output_tokens: r.completion_tokens.max(1),
        })
        .collect();
    Some(GatewayReplay {
        requests,
        logged_rate_per_s,
        replay_rate_per_s,
        speed_up,
        skipped,
    })
}

/// The requests as Mooncake trace lines (`{"timestamp":…,"input_length":…,"output_length":…}`,
/// timestamps in whole milliseconds from the first request), ready for
/// `aiperf profile --custom-dataset-type mooncake_trace --fixed-schedule`.
pub fn mooncake_trace(requests: &[TimedRequest]) -> impl Iterator<Item = String> + '_ {
    requests.iter().map(|r| {
        format!(
            r#"{{"timestamp": {}, "input_length": {}, "output_length": {}}}"#,
            r.at_ms.round() as i64,
            r.prompt_tokens,
            r.output_tokens
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(start_ms: i64, prompt: u32, completion: u32) -> GatewayRecord {
        GatewayRecord {
            request_id: format!("r{start_ms}"),
            start_ms,
            first_token_ms: Some(start_ms + 100),
            end_ms: start_ms + 2_000,
            model: "m".into(),
            prompt_tokens: prompt,
            completion_tokens: completion,
            status: RequestStatus::Ok,
            finish_reason: Some("stop".into()),
            detail: crate::traffic::LogDetail::default(),
        }
    }

    #[test]
    fn poisson_arrivals_come_at_the_asked_rate() {
        let mut rng = Rng::seeded(11);
        let arrivals = open_arrivals(
            &ArrivalProcess::Poisson { rate_per_s: 4.0 },
            &Workload::fixed(100, 50),
            20_001,
            &mut rng,
        )
        .unwrap();
        let rate = 20_000.0 / (arrivals.last().unwrap().at_ms / 1000.0);
        assert!((rate - 4.0).abs() < 0.1, "{rate}");
    }

    #[test]
    fn a_gateway_replay_takes_the_busiest_stretch_and_compresses_it_to_the_asked_rate() {
        // Quiet: one request a minute; busy: one every 2 s for 5 requests.
        let mut records: Vec<GatewayRecord> = (0..5).map(|i| record(i * 60_000, 300, 40)).collect();
        records.extend((0..5).map(|i| record(1_000_000 + i * 2_000, 800 + i as u32, 90)));
        let replay = replay_from_gateway(&records, 5, Some(2.0)).unwrap();
        assert_eq!(replay.requests.len(), 5);
        assert_eq!(replay.requests[0].prompt_tokens, 800);
        assert!((replay.logged_rate_per_s - 0.5).abs() < 1e-9);
        assert!((replay.speed_up - 4.0).abs() < 1e-9);
        assert_eq!(replay.requests[1].at_ms, 500.0);
        let lines: Vec<String> = mooncake_trace(&replay.requests).collect();
        assert_eq!(
            lines[1],
            r#"{"timestamp": 500, "input_length": 801, "output_length": 90}"#
        );
    }
}
