//! The live gateway feed of a pilot (see `desk::live`): its numbers for the pilot page, and the
//! ingest tokens a gateway posts records with (assessors and admins).

use crate::error::AppError;
pub use desk::live::*;
use leptos::prelude::*;

/// The pilot's feed: records received, when the latest arrived, its day files.
#[server(endpoint = "pilot_live_feed")]
pub async fn pilot_live_feed(pilot_id: i64) -> Result<LiveFeed, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            Ok(desk::live::service::feed(&services.store, pilot_id).await?)
        }
        .await,
    )
}

/// The pilot's ingest tokens, newest first, never their secrets; `None` for someone who may
/// see the pilot but not manage its tokens (a customer, a sales engineer), so that a page
/// showing them stays whole for everyone.
#[server(endpoint = "list_ingest_tokens")]
pub async fn list_ingest_tokens(pilot_id: i64) -> Result<Option<Vec<IngestTokenRow>>, AppError> {
    crate::server::respond(
        async move {
            let user = crate::server::auth::require(crate::server::auth::Need::SignedIn)?;
            let services = crate::server::services()?;
            crate::server::auth::visible_pilot(&services.store, &user, pilot_id).await?;
            let editor = crate::server::auth::Need::Editor;
            if crate::server::auth::authorise(Some(&user), editor).is_err() {
                return Ok(None);
            }
            Ok(Some(services.store.ingest_tokens(Some(pilot_id)).await?))
        }
        .await,
    )
}

/// A new ingest token for the pilot; the secret is in the answer, once.
#[server(endpoint = "create_ingest_token")]
pub async fn create_ingest_token(
    pilot_id: i64,
    #[server(default)] name: String,
) -> Result<IssuedIngestToken, AppError> {
    crate::server::respond(
        async move {
            let user = crate::server::auth::require(crate::server::auth::Need::SignedIn)?;
            let services = crate::server::services()?;
            let user =
                desk::live::service::authorise_tokens(&services, Some(&user), pilot_id).await?;
            Ok(
                desk::live::service::create_token(&services.store, pilot_id, &name, Some(user.id))
                    .await?,
            )
        }
        .await,
    )
}

/// Revokes one of the pilot's ingest tokens (404 for another pilot's).
#[server(endpoint = "revoke_ingest_token")]
pub async fn revoke_ingest_token(pilot_id: i64, id: i64) -> Result<(), AppError> {
    crate::server::respond(
        async move {
            let user = crate::server::auth::require(crate::server::auth::Need::SignedIn)?;
            let services = crate::server::services()?;
            desk::live::service::authorise_tokens(&services, Some(&user), pilot_id).await?;
            if services
                .store
                .revoke_ingest_token(id, Some(pilot_id))
                .await?
            {
                Ok(())
            } else {
                Err(AppError::NotFound)
            }
        }
        .await,
    )
}

/// The pilot's scheduled `/metrics` source and how its scrapes went; `None` without one.
#[server(endpoint = "pilot_metrics_source")]
pub async fn pilot_metrics_source(
    pilot_id: i64,
) -> Result<Option<desk::metrics_pull::MetricsSourceView>, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            Ok(desk::metrics_pull::service::source_view(&services, pilot_id).await?)
        }
        .await,
    )
}

/// The pilot's metrics source for its form on the traffic page: `None` for someone who may
/// see the pilot but not set its source (a customer, a sales engineer), so the page stays
/// whole for everyone; a form without `source` when there is none yet.
#[server(endpoint = "metrics_source_form")]
pub async fn metrics_source_form(
    pilot_id: i64,
) -> Result<Option<desk::metrics_pull::MetricsSourceForm>, AppError> {
    use crate::server::auth::{Need, authorise, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            if authorise(Some(&user), Need::Editor).is_err() || pilot.archived_ms.is_some() {
                return Ok(None);
            }
            Ok(Some(desk::metrics_pull::MetricsSourceForm {
                source: desk::metrics_pull::service::source_view(&services, pilot_id).await?,
            }))
        }
        .await,
    )
}

/// Sets (replaces) the pilot's metrics source from the traffic page's form: the first scrape
/// is due at once. An empty `bearer_token` keeps the current one; `clear_token` removes it.
#[server(endpoint = "set_metrics_source")]
pub async fn set_metrics_source(
    pilot_id: i64,
    url: String,
    #[server(default)] interval_s: String,
    #[server(default)] selector: String,
    #[server(default)] bearer_token: String,
    #[server(default)] clear_token: Option<String>,
) -> Result<desk::metrics_pull::MetricsSourceView, AppError> {
    crate::server::respond(
        async move {
            let user = crate::server::auth::require(crate::server::auth::Need::SignedIn)?;
            let services = crate::server::services()?;
            let form = desk::metrics_pull::service::SourceForm {
                url,
                interval_s,
                selector,
                bearer_token,
                clear_token: clear_token.is_some_and(|v| !v.is_empty() && v != "false"),
            };
            Ok(
                desk::metrics_pull::service::set_from_form(&services, &user, pilot_id, &form)
                    .await?,
            )
        }
        .await,
    )
}

/// Stops the pilot's scheduled pulls; the scrapes already kept stay evidence.
#[server(endpoint = "remove_metrics_source")]
pub async fn remove_metrics_source(pilot_id: i64) -> Result<(), AppError> {
    crate::server::respond(
        async move {
            let user = crate::server::auth::require(crate::server::auth::Need::SignedIn)?;
            let services = crate::server::services()?;
            if desk::metrics_pull::service::remove_source(&services, &user, pilot_id).await? {
                Ok(())
            } else {
                Err(AppError::NotFound)
            }
        }
        .await,
    )
}
