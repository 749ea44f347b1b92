//! Real traffic of a pilot: gateway logs (the exact demand) and vLLM `/metrics` scrapes (what
//! the server saw), as evidence.
//!
//! * Each gateway-log evidence row keeps its own file's [`GatewayLogSummary`] (format, records,
//!   skipped lines and that file's `DemandProfile`) as its summary.
//! * A pilot's logs combine into **one** profile: whenever a gateway log is added, every kept raw
//!   file of the pilot (`DATA_DIR/evidence/<sha256>`) is streamed again through one
//!   `DemandAccumulator` (each with the `skip_bad_lines` choice it was uploaded with) and the
//!   result is cached in `traffic_profiles`. Re-reading costs about a second per million
//!   requests, only at upload time; accumulators are not stored because the exact concurrency
//!   sweep and latency percentiles need every request's interval, which is the file again.
//! * A `/metrics` scrape keeps its single-scrape report; two of them (chosen on the page, with
//!   Δt given or taken from their scrape times) give the window: deltas, rates, mean in flight,
//!   quantiles with error bounds and the limit alarms. The window is recomputed from the kept
//!   raw scrapes on request (they are tens of KiB).
//! * Every scrape is checked against the pilot's model (its `model_name` labels,
//!   [`engine::verdict::comparability`]); a scrape of another model raises no alarm and grades
//!   nothing. The queue alarm needs a **lasting** queue: requests waiting in two consecutive
//!   scrapes (or on average over a window); a single scrape with requests waiting is a note.
//! * **In flight, cross-checked** ([`ssr::in_flight_cross_check`]): Little's law on the log's
//!   busiest hour against its sweep, and, when two scrapes span the busiest hour, vLLM's
//!   Δ latency sum ÷ Δt against the log over the same window, each with its tolerance
//!   ([`engine::verdict::cross_check`]).

use crate::error::AppError;

#[cfg(feature = "ssr")]
pub use desk::traffic::service as ssr;
pub use desk::traffic::*;
use leptos::prelude::*;

/// The pilot's traffic: combined demand profile, gateway files, scrapes, plan assumptions.
#[server(endpoint = "traffic_overview")]
pub async fn traffic_overview(pilot_id: i64) -> Result<TrafficData, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            Ok(ssr::overview(&services, &pilot).await?)
        }
        .await,
    )
}

/// The window between two `/metrics` scrapes of the pilot. `before`/`after` are evidence ids
/// (empty: the two most recent scrapes, older first); `elapsed_s` is Δt in seconds (empty: from
/// the scrape times). `None` when the pilot has fewer than two scrapes.
#[server(endpoint = "metrics_window")]
pub async fn metrics_window(
    pilot_id: i64,
    before: String,
    after: String,
    elapsed_s: String,
) -> Result<Option<MetricsWindowView>, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    // With nothing chosen, the window is the latest two scrapes: when those form none (a
    // counter reset between them, no time between them), that is a fact about the stored
    // scrapes, which the page shows as a notice, not an error of the request: the page still
    // answers 200.
    let automatic = [&before, &after, &elapsed_s]
        .iter()
        .all(|field| field.trim().is_empty());
    let result: Result<Option<MetricsWindowView>, AppError> = async move {
        let user = require(Need::SignedIn)?;
        let services = crate::server::services()?;
        visible_pilot(&services.store, &user, pilot_id).await?;
        Ok(ssr::window(&services, pilot_id, &before, &after, &elapsed_s).await?)
    }
    .await;
    match result {
        Err(ref error) if automatic && error.status_code() == 422 => result,
        _ => crate::server::respond(result),
    }
}
