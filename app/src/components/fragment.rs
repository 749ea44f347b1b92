//! Server-rendered fragments: the read-only part of a page, rendered to HTML on the server and
//! handed to the browser as one string.
//!
//! # Why
//!
//! Most pages only show what the evidence says: verdicts, tables of percentiles, charts. Hydrated
//! the usual Leptos way, each such page ships its view code and a JSON reader for every type of
//! its data in the browser bundle, for markup that never changes once it is drawn. As fragments,
//! the rendering code of those pages stays on the server (it is compiled only with the `ssr`
//! feature) and the browser receives a string: on the first load the server's markup is kept as
//! it is (hydration does not touch an element's inner HTML), on an in-app navigation the string
//! from the page's server function is inserted. Links inside a fragment still navigate within the
//! app (the router listens on the whole document) and GET forms inside are plain forms. What
//! reacts to input (uploads, forms that post, the sizing what-if) stays an ordinary component
//! beside the fragment.
//!
//! # Escaping
//!
//! A fragment is produced by Leptos' server renderer ([`Fragment::render`]), which escapes every
//! text node and attribute value exactly as a server-rendered page does; the only unescaped
//! inserts are the ones a view asks for itself (`inner_html`, used for the chart SVGs plotters
//! draws from numbers). The string is inserted as it was rendered.

use super::{ErrorNotice, page_resource};
use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// A page's read-only content rendered on the server, with the document title.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fragment {
    /// The page title (the document title adds " · Pilot Desk").
    pub title: String,
    /// The rendered markup.
    pub html: String,
}

#[cfg(feature = "ssr")]
impl Fragment {
    /// Renders `view` to HTML (server only). The view is static: no suspense, no resources.
    pub fn render(title: impl Into<String>, view: impl IntoView + 'static) -> Fragment {
        let html = Owner::new().with(move || view.into_view().to_html());
        Fragment {
            title: title.into(),
            html,
        }
    }
}

/// The fragment `fetch` loads whenever `source` changes, under its title; while it loads,
/// `loading` (the caller's words in the reader's language, `tr("Loading…", "Wird geladen…")`);
/// an error (404, 401, …) as the usual notice, with its HTTP status.
pub fn fragment_view<S, Fut>(
    loading: &'static str,
    source: impl Fn() -> S + Send + Sync + 'static,
    fetch: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> impl IntoView
where
    S: PartialEq + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Fragment, AppError>> + Send + 'static,
{
    let fragment = page_resource(source, fetch);
    view! {
        <Suspense fallback=move || view! { <p class="loading">{loading}</p> }>
            {move || Suspend::new(async move { fragment_or_error(fragment.await) })}
        </Suspense>
    }
}

/// [`fragment_view`] that keeps the content on the screen while it loads again (a page that
/// follows a live pilot reloads on a timer; the old content stays until the new arrives).
pub fn refreshing_fragment_view<S, Fut>(
    loading: &'static str,
    source: impl Fn() -> S + Send + Sync + 'static,
    fetch: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> impl IntoView
where
    S: PartialEq + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Fragment, AppError>> + Send + 'static,
{
    let fragment = page_resource(source, fetch);
    view! {
        <Transition fallback=move || view! { <p class="loading">{loading}</p> }>
            {move || Suspend::new(async move { fragment_or_error(fragment.await) })}
        </Transition>
    }
}

/// A pilot page whose content is a fragment (`fetch` of the pilot's id), loaded again whenever
/// `version` changes, with `editor(pilot_id)` below it for those who may edit the pilot (an
/// upload widget, a form that posts): the interactive part stays a component, the rest is
/// server-rendered. 404 and 401 as for any pilot page.
pub fn pilot_fragment_with_editor<Fut, E, V>(
    version: impl Fn() -> u32 + Send + Sync + 'static,
    fetch: impl Fn(i64) -> Fut + Send + Sync + 'static,
    editor: E,
) -> impl IntoView
where
    Fut: std::future::Future<Output = Result<Fragment, AppError>> + Send + 'static,
    E: Fn(i64) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let lang = super::lang();
    let id = crate::pages::pilot_id_param();
    let pilot = page_resource(id, crate::api::pilots::get_pilot);
    let content = page_resource(move || (id(), version()), move |(id, _)| fetch(id));
    view! {
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading…", "Wird geladen…")}</p> }>
            {move || {
                let editor = editor.clone();
                Suspend::new(async move {
                    let view = match pilot.await {
                        Ok(view) => view,
                        Err(error) => return view! { <Title text=lang.pick("Not found", "Nicht gefunden")/><ErrorNotice error/> }.into_any(),
                    };
                    let pilot_id = view.pilot.id;
                    view! {
                        <Transition fallback=move || view! { <p class="loading">{lang.pick("Loading…", "Wird geladen…")}</p> }>
                            {move || Suspend::new(async move { fragment_or_error(content.await) })}
                        </Transition>
                        {view.can_edit.then(|| editor(pilot_id))}
                    }
                    .into_any()
                })
            }}
        </Suspense>
    }
}

/// A loaded fragment (its title and markup), or the error's notice.
pub fn fragment_or_error(loaded: Result<Fragment, AppError>) -> AnyView {
    match loaded {
        Ok(Fragment { title, html }) => view! {
            <Title text=title/>
            <div class="fragment" inner_html=html></div>
        }
        .into_any(),
        Err(error) => {
            let title = super::lang().pick("Not found", "Nicht gefunden");
            view! { <Title text=title/><ErrorNotice error/> }.into_any()
        }
    }
}
