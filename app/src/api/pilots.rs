//! Pilots: list, view, create, edit. Staff see every pilot; customers only their organisation's,
//! read-only; only assessors and admins create and edit.

use crate::error::AppError;
use crate::model::{Organisation, Pilot, PilotView};
use leptos::prelude::*;

/// The pilots the signed-in user may see.
#[server(endpoint = "list_pilots")]
pub async fn list_pilots() -> Result<Vec<Pilot>, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let filter = (!user.role.is_staff()).then_some(user.organisation_id);
            Ok(services.store.list_pilots(filter).await?)
        }
        .await,
    )
}

/// One pilot, if the signed-in user may see it (404 otherwise).
#[server(endpoint = "get_pilot")]
pub async fn get_pilot(id: i64) -> Result<PilotView, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, id).await?;
            Ok(desk::readable::pilot_view(&services.store, &user, pilot).await?)
        }
        .await,
    )
}

/// The customer organisations a new pilot can belong to (those who create pilots only).
#[server(endpoint = "customer_organisations")]
pub async fn customer_organisations() -> Result<Vec<Organisation>, AppError> {
    use crate::server::auth::{Need, require};
    crate::server::respond(
        async move {
            require(Need::Editor)?;
            let services = crate::server::services()?;
            Ok(services
                .store
                .list_organisations()
                .await?
                .into_iter()
                .filter(|o| o.kind == engine::account::OrganisationKind::Customer)
                .collect())
        }
        .await,
    )
}

/// Creates a pilot for a customer organisation (assessors and admins) and opens it.
#[server(endpoint = "create_pilot")]
pub async fn create_pilot(
    organisation_id: i64,
    #[server(flatten)] form: engine::pilot::PilotForm,
) -> Result<i64, AppError> {
    use crate::server::auth::{Need, require};
    use engine::pilot::PilotFields;
    crate::server::respond(
        async move {
            let user = require(Need::Editor)?;
            let services = crate::server::services()?;
            let fields = PilotFields::parse(&form)?;
            match services.store.organisation_kind(organisation_id).await? {
                Some(engine::account::OrganisationKind::Customer) => {}
                _ => {
                    return Err(AppError::invalid_in(
                        "organisation_id: choose the customer organisation that owns the pilot",
                        "organisation_id: Wählen Sie die Kundenorganisation, der der Pilot gehört",
                    ));
                }
            }
            let id = services
                .store
                .create_pilot(organisation_id, &fields, Some(user.id))
                .await?;
            leptos_axum::redirect(&format!("/pilots/{id}"));
            Ok(id)
        }
        .await,
    )
}

/// Edits a pilot's name, description, status and hardware notes (assessors and admins).
#[server(endpoint = "update_pilot")]
pub async fn update_pilot(
    id: i64,
    #[server(flatten)] form: engine::pilot::PilotForm,
) -> Result<(), AppError> {
    use crate::server::auth::{Need, editable_pilot, require};
    use engine::pilot::PilotFields;
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            editable_pilot(&services.store, &user, id).await?;
            let fields = PilotFields::parse(&form)?;
            services.store.update_pilot(id, &fields).await?;
            leptos_axum::redirect(&format!("/pilots/{id}"));
            Ok(())
        }
        .await,
    )
}
