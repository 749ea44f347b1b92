//! Pilot Desk's user interface: a Leptos app rendered on the server and hydrated in the browser.
//!
//! * [`pages`]: one module per page; [`components`]: the widgets pages share.
//! * [`api`]: the server functions pages call (thin: authorise, validate, store).
//! * [`model`]: what crosses the wire; [`error`]: the one error type.
//! * `server` (with the `ssr` feature only): the store (all SQL), sessions and authorisation.

#![recursion_limit = "256"]

pub mod api;
pub mod components;
pub mod error;
pub mod model;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod report;
#[cfg(feature = "ssr")]
pub mod server;

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
