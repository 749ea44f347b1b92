//! Pilot Desk's application services: everything between the engine's pure domain logic and the
//! two front doors (the Leptos pages with their server functions in `app`, the REST routes and
//! the command line in `server`).
//!
//! Why a crate of its own: a route, a CLI command and a server function that do the same thing
//! call the same service here, and none of them reaches into another front door's code. The
//! dependencies run one way, `engine` ← `desk` ← `app` ← `server`, which the compiler enforces.
//!
//! Two halves:
//!
//! * Always compiled (also into the browser's wasm): the types that cross the wire ([`model`],
//!   and the view types at the top of each area module such as [`load_tests`] or [`verdict`]),
//!   and [`ServiceError`], the error every service answers with.
//! * With the `server` feature (the default; `app`'s browser build turns it off): the store
//!   ([`store`], all SQL), passwords, sessions and the one authorisation policy ([`auth`]),
//!   accounts, the first start ([`bootstrap`]), evidence intake ([`evidence`] and each area's
//!   `service` module: grading, demand, quality, the capacity twin), the report with its PDF
//!   ([`report`]) and the twin's cache ([`twin_cache`]).

#![recursion_limit = "256"]

pub mod catalog;
pub mod error;
pub mod evidence_history;
pub mod live;
pub mod load_tests;
pub mod metrics_pull;
pub mod model;
pub mod notices;
pub mod paging;
pub mod plans;
pub mod predict;
pub mod quality;
#[cfg(feature = "server")]
pub mod readable;
pub mod reports;
pub mod traffic;
pub mod verdict;

#[cfg(feature = "server")]
pub mod accounts;
#[cfg(feature = "server")]
pub mod auth;
#[cfg(feature = "server")]
pub mod blobs;
#[cfg(feature = "server")]
pub mod bootstrap;
#[cfg(feature = "server")]
pub mod capacity;
#[cfg(feature = "server")]
pub mod changes;
#[cfg(feature = "server")]
pub mod evidence;
#[cfg(feature = "server")]
pub mod intake;
#[cfg(feature = "server")]
pub mod overview;
#[cfg(feature = "server")]
pub mod password;
#[cfg(feature = "server")]
pub mod pilot_evidence;
#[cfg(feature = "server")]
pub mod pilot_page;
#[cfg(feature = "server")]
pub mod recorded;
#[cfg(feature = "server")]
pub mod report;
#[cfg(feature = "server")]
pub mod store;
#[cfg(feature = "server")]
pub mod store_check;
#[cfg(feature = "server")]
pub mod throttle;
#[cfg(feature = "server")]
pub mod twin_cache;
#[cfg(feature = "server")]
pub mod ui_language;

pub use error::ServiceError;

/// What every service needs: the store, the session settings, where files live, and the PDF
/// printer. Built once at start-up and shared by the router, the server functions and the CLI.
#[cfg(feature = "server")]
#[derive(Clone, Debug)]
pub struct Services {
    pub store: store::Store,
    pub auth: auth::AuthSettings,
    /// `DATA_DIR`: evidence files are kept under `evidence/`, uploads in progress under `uploads/`.
    pub data_dir: std::path::PathBuf,
    /// The raw evidence files, reachable from every instance (see [`blobs`]).
    pub blobs: blobs::Blobs,
    /// Headless Chromium that prints reports to PDF (`CHROMIUM_PATH`, else found on the
    /// system); `None`: PDF export is off and the report page says how to enable it.
    pub chromium: Option<std::path::PathBuf>,
    /// The pilot pages' overviews this instance keeps (see [`overview`]).
    pub overviews: overview::KeptOverviews,
    /// Pilots whose evidence just changed, for the overview's listener (see [`changes`]).
    pub changes: changes::Changes,
    /// Bounds on what one file may hold (`MAX_RECORDS_PER_FILE`).
    pub intake: intake::Limits,
    /// `METRICS_ALLOW_HOSTS`: where a pilot's metrics source may point although the address is
    /// refused otherwise (checked when a source is set from a page or the API).
    pub metrics_allow_hosts: metrics_pull::service::AllowedHosts,
}

#[cfg(feature = "server")]
impl From<store::StoreError> for ServiceError {
    fn from(error: store::StoreError) -> Self {
        match error {
            store::StoreError::Conflict(said) => ServiceError::invalid_said(said),
            store::StoreError::Duplicate(said) => ServiceError::duplicate_said(said),
            other => {
                tracing::error!(error = %other, "store failure");
                ServiceError::Internal
            }
        }
    }
}
