//! Pilot Desk's user interface: a Leptos app rendered on the server and hydrated in the browser.
//!
//! * [`pages`]: one module per page; [`components`]: the widgets pages share.
//! * [`api`]: the server functions pages call (thin: authorise, call one service of the `desk`
//!   crate, map its error).
//! * [`model`]: what crosses the wire (the `desk` crate's types); [`error`]: the error of server
//!   functions.
//! * `server` (with the `ssr` feature only): the request's viewer and the Leptos-context glue.

#![recursion_limit = "256"]

pub mod api;
pub mod components;
pub mod error;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod server;

pub use desk::model;
#[cfg(feature = "ssr")]
pub use desk::report;

pub use pages::{App, shell};

/// Sets `window.__pilotDeskHydrated`, which the browser tests wait for before they type.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen(
    inline_js = "export function mark_hydrated() { window.__pilotDeskHydrated = true; }"
)]
extern "C" {
    fn mark_hydrated();
}

/// The browser entry point: attaches the app to the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
    mark_hydrated();
}
