//! The pilot page: the kept overview, the live gateway feed and the scheduled metrics source,
//! gathered with the one pilot lookup the page makes.
//!
//! Why its own module: the live service reads the overview's kept verdict, so the overview
//! cannot also read the live feed without the two importing each other; the page sits above
//! both.

use crate::ServiceError;
use crate::Services;
use crate::model::{Pilot, SessionUser};
use crate::verdict::PilotPageData;

/// Everything the pilot page shows: the overview, the live gateway feed and the scheduled
/// metrics source.
pub struct PilotPage {
    pub overview: PilotPageData,
    pub feed: crate::live::LiveFeed,
    pub source: Option<crate::metrics_pull::MetricsSourceView>,
}

/// The pilot page of `pilot` (visibility checked by the caller, with the one pilot lookup the
/// page makes), the verdict worded in `lang`: a feed or source that cannot be read is left out,
/// never breaking the page.
pub async fn pilot_page(
    services: &Services,
    user: &SessionUser,
    pilot: Pilot,
    lang: engine::locale::Lang,
) -> Result<PilotPage, ServiceError> {
    let pilot_id = pilot.id;
    let overview = crate::overview::overview(services, user, pilot, lang).await?;
    let feed = crate::live::service::feed(&services.store, pilot_id)
        .await
        .unwrap_or_default();
    let source = crate::metrics_pull::service::source_view(services, pilot_id)
        .await
        .ok()
        .flatten();
    Ok(PilotPage {
        overview,
        feed,
        source,
    })
}
