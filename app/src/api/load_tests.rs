//! Load-test evidence of a pilot: the evidence list, curves against concurrency, goodput per
//! operating point against the plan in force, capacity per scenario, and comparisons.
//!
//! Uploads themselves go through `POST /api/v1/pilots/{id}/evidence` (the page's drag-and-drop
//! posts each file there with the session cookie) or, without JavaScript, the plain form route
//! `POST /pilots/{id}/evidence`; both store the [`RunContext`] with the import in the evidence
//! row's summary ([`LoadTestSummary`]).

use crate::error::AppError;

#[cfg(feature = "ssr")]
pub use desk::load_tests::service as ssr;
pub use desk::load_tests::*;
use leptos::prelude::*;

/// One page (`page`, from 1; absent: the first) of the pilot's evidence files (every kind, in
/// force or withdrawn), newest first, 50 a page.
#[server(endpoint = "list_evidence_files")]
pub async fn list_evidence_files(
    pilot_id: i64,
    page: Option<u32>,
) -> Result<EvidenceView, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let (files, page) = ssr::evidence_rows(&services, pilot_id, page).await?;
            Ok(EvidenceView {
                can_edit: user.role.can_edit_pilots() && pilot.archived_ms.is_none(),
                pilot,
                files,
                page,
            })
        }
        .await,
    )
}

/// The load-test page: runs, curves at `percentile` against `axis` (`concurrency` or `rate`;
/// empty: the one that suits the runs, see [`desk::load_tests::CurveAxis::chosen`]), goodput
/// and capacity against the plan.
#[server(endpoint = "get_load_tests")]
pub async fn get_load_tests(
    pilot_id: i64,
    percentile: String,
    #[server(default)] axis: String,
) -> Result<LoadTestView, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let plan = ssr::plan_targets(&services, pilot_id).await?;
            let percentile = normalise_percentile(&percentile, &plan);
            let runs = ssr::load_runs(&services, pilot_id, &plan).await?;
            let axis = desk::load_tests::CurveAxis::chosen(&axis, &runs);
            let lang = engine::locale::Lang::En;
            let charts = ssr::charts(&runs, &[], &plan, percentile, axis, lang);
            let capacity = ssr::capacity(&runs);
            Ok(LoadTestView {
                pilot,
                can_edit: user.role.can_edit_pilots(),
                runs,
                plan,
                percentile: percentile.as_str().to_string(),
                axis,
                charts,
                capacity,
            })
        }
        .await,
    )
}

/// Compares runs against a baseline. `baseline` and `runs` name evidence files (`12`) or single
/// operating points (`12:3`); `runs` is a comma-separated list.
#[server(endpoint = "compare_load_tests")]
pub async fn compare_load_tests(
    pilot_id: i64,
    baseline: String,
    runs: String,
    percentile: String,
) -> Result<Comparison, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            let plan = ssr::plan_targets(&services, pilot_id).await?;
            let percentile = normalise_percentile(&percentile, &plan);
            let all = ssr::load_runs(&services, pilot_id, &plan).await?;
            Ok(ssr::compare(&all, &baseline, &runs, &plan, percentile)?)
        }
        .await,
    )
}
