//! The report page's server functions: what can be exported, the export record, and share
//! links (sales and assessors create and revoke them; customers with accounts read the report
//! in their portal instead).

use crate::error::AppError;

pub use desk::reports::*;
use leptos::prelude::*;

/// The report page of pilot `pilot_id`.
#[server(endpoint = "report_overview")]
pub async fn report_overview(pilot_id: i64) -> Result<ReportPageData, AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::SignedIn)?;
            let services = crate::server::services()?;
            let pilot = visible_pilot(&services.store, &user, pilot_id).await?;
            let staff = user.role.is_staff();
            let (exports, links) = if staff {
                (
                    services.store.report_exports(pilot_id).await?,
                    services.store.share_links(pilot_id).await?,
                )
            } else {
                (Vec::new(), Vec::new())
            };
            Ok(ReportPageData {
                pilot,
                pdf_available: services.chromium.is_some(),
                can_share: staff,
                exports,
                links,
                now_ms: crate::server::store::now_ms(),
            })
        }
        .await,
    )
}

/// Creates a read-only link to pilot `pilot_id`'s report for `contact`, valid `days` days
/// (1–90, default 14), in `lang` (`en`, `de`).
#[server(endpoint = "create_share_link")]
pub async fn create_share_link(
    pilot_id: i64,
    contact: String,
    days: String,
    lang: String,
) -> Result<CreatedShareLink, AppError> {
    use crate::report::{Lang, share};
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::Staff)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            let contact = contact.trim();
            if contact.is_empty() {
                return Err(AppError::invalid_in(
                    "contact: say who the link is for (name or e-mail address)",
                    "contact: Geben Sie an, für wen der Link ist (Name oder E-Mail-Adresse)",
                ));
            }
            if contact.chars().count() > 200 {
                return Err(AppError::invalid_in(
                    "contact: at most 200 characters",
                    "contact: höchstens 200 Zeichen",
                ));
            }
            let days = match days.trim() {
                "" => share::DEFAULT_DAYS,
                text => text
                    .parse::<u32>()
                    .ok()
                    .filter(|d| (1..=share::MAX_DAYS).contains(d))
                    .ok_or_else(|| {
                        AppError::invalid_in(
                            format!("days: a whole number of days from 1 to {}", share::MAX_DAYS),
                            format!(
                                "days: eine ganze Zahl von Tagen von 1 bis {}",
                                share::MAX_DAYS
                            ),
                        )
                    })?,
            };
            let lang = Lang::parse(&lang)
                .ok_or_else(|| AppError::invalid_in("lang: en or de", "lang: en oder de"))?;
            let (token, hash) = share::new_token();
            let now = crate::server::store::now_ms();
            let expires = now + i64::from(days) * 86_400_000;
            let id = services
                .store
                .create_share_link(pilot_id, &hash, contact, lang.code(), user.id, expires)
                .await?;
            let link = services
                .store
                .share_links(pilot_id)
                .await?
                .into_iter()
                .find(|l| l.id == id)
                .ok_or(AppError::Internal)?;
            Ok(CreatedShareLink {
                path: format!("/share/{token}"),
                link,
            })
        }
        .await,
    )
}

/// Revokes share link `link_id` of pilot `pilot_id`.
#[server(endpoint = "revoke_share_link")]
pub async fn revoke_share_link(pilot_id: i64, link_id: i64) -> Result<(), AppError> {
    use crate::server::auth::{Need, require, visible_pilot};
    crate::server::respond(
        async move {
            let user = require(Need::Staff)?;
            let services = crate::server::services()?;
            visible_pilot(&services.store, &user, pilot_id).await?;
            if services.store.revoke_share_link(pilot_id, link_id).await? {
                Ok(())
            } else {
                Err(AppError::NotFound)
            }
        }
        .await,
    )
}
