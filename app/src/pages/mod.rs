//! The pages and the routes that lead to them.
//!
//! Every route renders with `SsrMode::Async`: the server waits for the page's data before it
//! answers, so a pilot another organisation owns answers with a real HTTP 404 and the page arrives
//! complete (also without JavaScript). Pages are small; the app is used by a handful of people per
//! pilot, so the extra milliseconds of waiting buy correctness.

mod account;
mod admin;
mod admin_gpus;
mod calibration;
mod evidence;
mod load_tests;
mod login;
mod not_found;
mod params;
mod pilot;
mod pilot_form;
mod pilots;
mod plan;
mod plan_edit;
mod plan_history;
mod quality;
mod quality_set;
mod report;
pub mod sizing;
mod traffic;
// The verdict card is drawn inside the pilot page's server-rendered fragment only.
#[cfg(feature = "ssr")]
mod verdict;

use crate::components::Frame;
use leptos::prelude::*;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{ParentRoute, Route, Router, Routes};
use leptos_router::{SsrMode, path};

pub use not_found::NotFound;
pub use params::pilot_id_param;

/// The HTML document around the app (server side only).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang=crate::components::lang().code()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light"/>
                <link rel="icon" type="image/svg+xml" href="/favicon.svg"/>
                // The build's stylesheet, beside its wasm and JavaScript (a content-addressed
                // folder in release builds, see server/src/static_files.rs).
                <link rel="stylesheet" id="leptos" href=format!("/{}/{}.css", options.site_pkg_dir, options.output_name)/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The document title for a page. Angle brackets are replaced by look-alikes because
/// leptos_meta writes `<title>` text unescaped during server rendering, and a pilot name like
/// `</title><script>…` must not become markup.
fn page_title(page: String) -> String {
    let page = page.replace('<', "‹").replace('>', "›");
    if page.is_empty() {
        "Pilot Desk".to_string()
    } else {
        format!("{page} · Pilot Desk")
    }
}

/// The application: routes inside the signed-in frame, and the sign-in page outside it.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    crate::components::i18n::provide_ui_lang();
    view! {
        <Title formatter=page_title/>
        <Router>
            <Routes fallback=NotFound>
                <Route path=path!("/login") view=login::LoginPage ssr=SsrMode::Async/>
                <ParentRoute path=path!("") view=Frame ssr=SsrMode::Async>
                    <Route path=path!("") view=pilots::PilotsPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/new") view=pilot_form::NewPilotPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id") view=pilot::PilotPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/edit") view=pilot_form::EditPilotPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/plan") view=plan::PlanPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/plan/edit") view=plan_edit::PlanEditPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/plan/history") view=plan_history::PlanHistoryPage ssr=SsrMode::Async/>
                    <Route path=path!("/admin/organisations") view=admin::OrganisationsPage ssr=SsrMode::Async/>
                    <Route path=path!("/admin/users") view=admin::UsersPage ssr=SsrMode::Async/>
                    <Route path=path!("/admin/gpus") view=admin_gpus::GpuCatalogPage ssr=SsrMode::Async/>
                    <Route path=path!("/account") view=account::AccountPage ssr=SsrMode::Async/>
                    <Route path=path!("/sizing") view=sizing::SizingPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/calibration") view=calibration::CalibrationPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/quality") view=quality::QualityPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/quality/set") view=quality_set::EvalSetPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/evidence") view=evidence::EvidencePage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/load-tests") view=load_tests::LoadTestsPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/load-tests/compare") view=load_tests::CompareLoadTestsPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/traffic") view=traffic::TrafficPage ssr=SsrMode::Async/>
                    <Route path=path!("/pilots/:id/report") view=report::ReportPage ssr=SsrMode::Async/>
                </ParentRoute>
            </Routes>
        </Router>
    }
}
