//! The capacity twin of a pilot ([`engine::twin`]): predicted TTFT, TPOT, ITL and E2E
//! percentiles at a rate or a concurrency, fitted on the pilot's stored load tests, with the
//! leave-one-out back-test that states its error.
//!
//! Three callers ask the same question of the same evidence: the load-tests page (the server
//! function here), `GET /api/v1/pilots/{id}/predict` and `server predict` (files on disk). The
//! step from "load tests and limit evidence" to a fitted [`Twin`] is [`ssr::TwinEvidence`] and
//! [`ssr::TwinEvidence::build`], shared by all three, so a prediction on the page, from the API
//! and from the command line on the same files agree.
//!
//! A pilot's twin is fitted once per state of its evidence and shared by every caller, with its
//! answers ([`crate::api::twin_cache`]). It never re-reads raw files: the operating points come
//! from the stored import summaries, the per-request records from the stored `request_samples`
//! rows, the KV-cache size from the stored start-up logs and `/metrics` scrapes, `max_num_seqs`
//! and `max_num_batched_tokens` from the run context stored with each load test.

use crate::error::AppError;

#[cfg(feature = "ssr")]
pub use desk::predict::service as ssr;
pub use desk::predict::*;
use leptos::prelude::*;

/// The capacity twin's prediction for the load-tests page. `rate` and `concurrency` are the
/// form's text (empty: not given; both empty: the default load); a bad value is reported on the
/// card, not as a failed page. `price` is a price per GPU-hour: staff get the operating-point
/// cost on the pilot's own GPUs; for anyone else it is ignored (prices are staff-only).
#[server(endpoint = "get_capacity_twin")]
pub async fn get_capacity_twin(
    pilot_id: i64,
    rate: String,
    concurrency: String,
    price: String,
    #[server(default)] configuration: String,
) -> Result<TwinView, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let mut view =
                ssr::twin_view(&services, pilot, rate, concurrency, Some(configuration)).await?;
            if user.role.is_staff() {
                view.staff = true;
                let catalog = crate::server::catalog::effective_catalog(&services.store).await?;
                let price = match price.trim() {
                    "" => match ssr::catalog_hour_price(&catalog, &view.pilot) {
                        Some((value, source)) => {
                            view.price_source = Some(source);
                            value.to_string()
                        }
                        None => String::new(),
                    },
                    asked => asked.to_string(),
                };
                view.currency = catalog.currency;
                ssr::price_view(&mut view, &price);
            }
            Ok(view)
        }
        .await,
    )
}
