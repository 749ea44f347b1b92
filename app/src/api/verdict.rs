//! The pilot's verdict: every pass mark of the plan in force against the evidence, with what
//! changes the reading.
//!
//! Which figure grades which mark is decided once, in [`engine::verdict::collect`]; this module
//! gathers the pilot's evidence for it (gateway profile, load-test points, the decided
//! precision's evaluation run), grades the plan, and adds the warnings a reader needs before
//! trusting a pass: the pilot hit its own limit (vLLM preempted requests, or a queue lasted over
//! consecutive scrapes), answers were truncated, p95 and p99 converged at the graded load
//! (saturation), pass marks were first approved or amended after evidence arrived, load tests
//! could not be placed at the planned peak, evidence of another model or GPU (checked per file
//! against the pilot, [`engine::verdict::comparability`]), requests in flight that do not add
//! up (the cross-check of [`engine::verdict::cross_check`]), an evaluation set under 50
//! questions. Caveats close it: re-run the load test on the production stack before go-live,
//! and, when a run used speculative decoding, that per-stream speed depends on its acceptance
//! rate.

use crate::error::AppError;

#[cfg(feature = "ssr")]
pub use desk::verdict::service as ssr;
pub use desk::verdict::*;
use leptos::prelude::*;

/// The verdict of pilot `pilot_id` against its plan in force.
#[server(endpoint = "pilot_verdict")]
pub async fn pilot_verdict(pilot_id: i64) -> Result<VerdictView, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let mut view = ssr::verdict(&services, pilot).await?;
            view.can_edit = user.role.can_edit_pilots();
            Ok(view)
        }
        .await,
    )
}

/// The pilot page's data (see [`PilotPageData`]).
#[server(endpoint = "pilot_overview")]
pub async fn pilot_overview(pilot_id: i64) -> Result<PilotPageData, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            Ok(
                desk::overview::overview(&services, &user, pilot, crate::components::lang())
                    .await?,
            )
        }
        .await,
    )
}
