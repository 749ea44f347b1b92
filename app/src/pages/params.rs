//! What pages read from their route: one place, so every pilot page reads its id the same way
//! (and the pilot and plan pages need not import each other for it).

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// The pilot id from the path, or -1 (which no pilot has) when it is not a number.
pub fn pilot_id_param() -> impl Fn() -> i64 + Copy + Send + Sync + 'static {
    let params = use_params_map();
    move || {
        params
            .read()
            .get("id")
            .and_then(|id| id.parse().ok())
            .unwrap_or(-1)
    }
}
