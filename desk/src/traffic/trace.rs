//! The Mooncake trace of the next step: what AIPerf replays on the stack to be bought.
//!
//! Why production's busiest hour and not the whole log: the recommendation is sized for the
//! production hour (the pilot's busiest hour superposed and thinned to the plan's production
//! rate, [`DemandProcess::hour`]); replaying days of pilot traffic at the pilot's own rate
//! tests a load the stack will never see and takes days. So the default trace is exactly that
//! production hour, the same requests the capacity plan simulated (seed 0). `?copies=N` gives
//! the share one of N copies behind a load balancer receives ([`share`]), so a single replica
//! can be tested at its own load. `scope=logged` keeps the whole log as it was logged, for
//! those who want the pilot's traffic itself.
//!
//! When no production hour can be made (no approved plan, nothing to grow the demand by, the
//! logs not readable again), the trace is the pilot's busiest hour as logged, and the basis
//! says why; the `x-trace-basis` header names which trace was given.

use crate::ServiceError;
use crate::Services;
use crate::model::Pilot;
use engine::production::capacity_plan::forecast::share;
use engine::production::demand_process::ServiceTimes;
use engine::twin::TimedRequest;
use engine::twin::trace::{as_logged, trace_entry};

/// The most copies a trace may be shared between (`?copies=`).
pub const MAX_COPIES: u32 = 1024;

/// Which traffic the trace holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceScope {
    /// Production's busiest hour at the plan's production rate (the default).
    ProductionHour,
    /// Every successful request of the logs in force, at the times they were logged.
    AsLogged,
}

impl TraceScope {
    /// From the `scope` query parameter: absent, empty or `production-hour`; or `logged`.
    pub fn parse(value: Option<&str>) -> Result<TraceScope, ServiceError> {
        match value.map(str::trim) {
            None | Some("") | Some("production-hour") => Ok(TraceScope::ProductionHour),
            Some("logged") => Ok(TraceScope::AsLogged),
            Some(other) => Err(ServiceError::invalid(format!(
                "scope: `{other}` is neither `production-hour` nor `logged`"
            ))),
        }
    }
}

/// The `copies` query parameter: 1 (absent) to [`MAX_COPIES`].
pub fn parse_copies(value: Option<&str>) -> Result<u32, ServiceError> {
    match value.map(str::trim) {
        None | Some("") => Ok(1),
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_COPIES).contains(n))
            .ok_or_else(|| {
                ServiceError::invalid(format!(
                    "copies: `{text}` is not a whole number from 1 to {MAX_COPIES}"
                ))
            }),
    }
}

/// What a trace was made from (the `x-trace-basis` header).
#[derive(Clone, Debug, PartialEq)]
pub enum TraceBasis {
    /// The production hour: the busiest hour from `start_ms`, grown `growth`-fold to
    /// `rate_per_s`.
    ProductionHour {
        start_ms: i64,
        growth: f64,
        rate_per_s: f64,
    },
    /// The busiest hour as logged; `reason`: why not the production hour.
    BusiestHour { start_ms: i64, reason: String },
    /// Every logged request.
    WholeLog,
}

impl TraceBasis {
    /// `production-hour; start_ms=…; growth=…; rate_per_s=…`, `busiest-hour; start_ms=…;
    /// reason=…` or `whole-log` (ASCII, fit for a header).
    pub fn header(&self) -> String {
        let text = match self {
            TraceBasis::ProductionHour {
                start_ms,
                growth,
                rate_per_s,
            } => format!(
                "production-hour; start_ms={start_ms}; growth={growth:.4}; rate_per_s={rate_per_s:.4}"
            ),
            TraceBasis::BusiestHour { start_ms, reason } => {
                format!("busiest-hour; start_ms={start_ms}; reason={reason}")
            }
            TraceBasis::WholeLog => "whole-log".to_string(),
        };
        text.chars()
            .map(|c| {
                if c.is_ascii_graphic() || c == ' ' {
                    c
                } else {
                    '?'
                }
            })
            .collect()
    }
}

/// A trace ready to stream: its requests in arrival order, ms from the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub basis: TraceBasis,
    pub copies: u32,
    pub requests: Vec<TimedRequest>,
}

impl Trace {
    /// The share of one of `copies` copies (the same draw the capacity plan makes, seed 0).
    fn shared(mut self, copies: u32) -> Trace {
        if copies > 1 {
            self.requests = share(&self.requests, copies, 0, usize::MAX);
        }
        self.copies = copies;
        self
    }
}

/// The pilot's trace (the caller has checked who may see it); `None` without a gateway log in
/// force.
pub async fn trace(
    services: &Services,
    pilot: &Pilot,
    scope: TraceScope,
    copies: u32,
) -> Result<Option<Trace>, ServiceError> {
    let sources: Vec<(String, std::path::PathBuf, bool)> =
        super::service::gateway_sources(services, pilot.id)
            .await?
            .into_iter()
            .map(|(file, path, skip)| (file.file_name, path, skip))
            .collect();
    if sources.is_empty() {
        return Ok(None);
    }
    let trace = match scope {
        TraceScope::AsLogged => whole_log(sources).await?,
        TraceScope::ProductionHour => match production_hour(services, pilot).await? {
            Some(trace) => trace,
            None => whole_log(sources).await?,
        },
    };
    Ok(Some(trace.shared(copies)))
}

/// The production hour, else the busiest hour as logged with the reason; `None` when neither
/// can be made (no profile, or the logs cannot be read again).
async fn production_hour(
    services: &Services,
    pilot: &Pilot,
) -> Result<Option<Trace>, ServiceError> {
    let evidence = crate::pilot_evidence::gather(services, pilot.id).await?;
    let reason = match crate::capacity::production_process(services, pilot, &evidence).await? {
        Ok(process) => match &process.demand.busiest_hour {
            Some(hour) if !hour.requests.is_empty() => {
                let requests = process
                    .demand
                    .hour(0, &ServiceTimes::AsLogged)
                    .into_iter()
                    .map(|(request, _)| request)
                    .collect();
                return Ok(Some(Trace {
                    basis: TraceBasis::ProductionHour {
                        start_ms: hour.start_ms,
                        growth: process.demand.growth,
                        rate_per_s: process.demand.rate_per_s(),
                    },
                    copies: 1,
                    requests,
                }));
            }
            _ => process
                .warnings
                .first()
                .cloned()
                .unwrap_or_else(|| "the busiest hour has no request".to_string()),
        },
        Err(why) => why.to_string(),
    };
    let Some((profile, _)) = &evidence.profile else {
        return Ok(None);
    };
    let Ok(hour) = crate::capacity::busiest_hour(services, pilot.id, profile).await? else {
        return Ok(None);
    };
    let requests = hour
        .requests
        .iter()
        .map(|r| TimedRequest {
            at_ms: r.offset_ms,
            prompt_tokens: r.prompt_tokens,
            output_tokens: r.output_tokens,
        })
        .collect();
    Ok(Some(Trace {
        basis: TraceBasis::BusiestHour {
            start_ms: hour.start_ms,
            reason,
        },
        copies: 1,
        requests,
    }))
}

/// Every successful request of the logs, read again off the async runtime; three numbers
/// per request are held, so a million requests need some 16 MB.
async fn whole_log(
    sources: Vec<(String, std::path::PathBuf, bool)>,
) -> Result<Trace, ServiceError> {
    let internal = |error: String| {
        tracing::error!(%error, "gateway trace export failed");
        ServiceError::Internal
    };
    let entries = tokio::task::spawn_blocking(move || {
        let mut entries = Vec::new();
        super::service::read_logs_again(&sources, |r| entries.extend(trace_entry(&r)))?;
        Ok::<_, String>(entries)
    })
    .await
    .map_err(|e| internal(e.to_string()))?
    .map_err(internal)?;
    Ok(Trace {
        basis: TraceBasis::WholeLog,
        copies: 1,
        requests: as_logged(entries),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_and_copies_read_the_query_or_name_the_parameter() {
        assert_eq!(TraceScope::parse(None).unwrap(), TraceScope::ProductionHour);
        assert_eq!(
            TraceScope::parse(Some("logged")).unwrap(),
            TraceScope::AsLogged
        );
        assert!(
            TraceScope::parse(Some("week"))
                .unwrap_err()
                .to_string()
                .contains("scope")
        );
        assert_eq!(parse_copies(None).unwrap(), 1);
        assert_eq!(parse_copies(Some("3")).unwrap(), 3);
        for bad in ["0", "1025", "two", "-1"] {
            assert!(parse_copies(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_basis_header_is_ascii() {
        let basis = TraceBasis::BusiestHour {
            start_ms: 1,
            reason: "plan not approved — yet".into(),
        };
        assert!(basis.header().is_ascii());
        assert!(
            basis
                .header()
                .starts_with("busiest-hour; start_ms=1; reason=")
        );
    }
}
