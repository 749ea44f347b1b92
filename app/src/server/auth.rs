//! The signed-in user of the request a server function runs in, checked against the one
//! authorisation policy of [`desk::auth`] (re-exported here, so server functions name one path).

pub use desk::auth::*;

use crate::error::AppError;
use crate::model::SessionUser;

/// The viewer of the current request (server functions and SSR), as the session guard resolved
/// it; anonymous when the request carries none.
pub fn viewer() -> Viewer {
    leptos::prelude::use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Viewer>().cloned())
        .unwrap_or_default()
}

/// The signed-in user of the current request, if allowed what `need` names.
pub fn require(need: Need) -> Result<SessionUser, AppError> {
    Ok(authorise(viewer().user.as_ref(), need)?)
}
