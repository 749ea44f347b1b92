//! The frame around every signed-in page: navigation, the user menu and the page header.

use crate::api::session::{Logout, whoami};
use crate::components::i18n::{LanguageSwitch, lang, tr};
use crate::error::AppError;
use crate::model::SessionUser;
use leptos::prelude::*;
use leptos_router::components::{A, Outlet};
use leptos_router::hooks::use_location;

/// The signed-in user, refetched on every navigation; pages read it from the context.
#[derive(Clone, Copy)]
pub struct CurrentUser(pub crate::components::PageResource<Result<Option<SessionUser>, AppError>>);

/// The navigation bar and the outlet for the page.
#[component]
pub fn Frame() -> impl IntoView {
    let location = use_location();
    let user = crate::components::page_resource(move || location.pathname.get(), |_| whoami());
    provide_context(CurrentUser(user));
    let logout = ServerAction::<Logout>::new();
    // The router takes over in-page links, so the skip link moves the focus itself.
    let content = NodeRef::<leptos::html::Main>::new();
    let skip = move |ev: leptos::ev::MouseEvent| {
        if let Some(main) = content.get() {
            ev.prevent_default();
            let _ = main.focus();
        }
    };
    view! {
        <a class="skip-link" href="#content" on:click=skip>{tr("Skip to content", "Zum Inhalt springen")}</a>
        <header class="topbar">
            <a class="brand" href="/">
                <span class="brand-mark" aria-hidden="true">"PD"</span>
                "Pilot Desk"
            </a>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    let user = user.await.ok().flatten();
                    user.map(|user| {
                        let admin = user.role.can_manage_accounts();
                        view! {
                            <nav class="mainnav" aria-label=tr("Main", "Hauptnavigation")>
                                <A href="/" exact=true>{tr("Pilots", "Piloten")}</A>
                                <A href="/sizing">{tr("Sizing", "Dimensionierung")}</A>
                                {admin.then(|| view! {
                                    <A href="/admin/organisations">{tr("Organisations", "Organisationen")}</A>
                                    <A href="/admin/users">{tr("Users", "Benutzer")}</A>
                                    <A href="/admin/gpus">{tr("GPUs", "GPUs")}</A>
                                })}
                            </nav>
                            <div class="usermenu">
                                <a href="/account" class="user-link" title=tr("Your account", "Ihr Konto")>
                                    <span class="user-name">{user.display_name().to_string()}</span>
                                    <span class="user-meta">
                                        {user.role.label_in(lang())} " · " {user.organisation_name.clone()}
                                    </span>
                                </a>
                                <ActionForm action=logout>
                                    <button type="submit" class="button button-quiet">{tr("Sign out", "Abmelden")}</button>
                                </ActionForm>
                            </div>
                        }
                    })
                })}
            </Transition>
            <LanguageSwitch/>
        </header>
        <main class="page" id="content" tabindex="-1" node_ref=content>
            <Outlet/>
        </main>
        <footer class="footer">
            {tr("Pilot Desk · plans, evidence and reports for private LLM pilots", "Pilot Desk · Pläne, Nachweise und Berichte für Piloten privater LLMs")}
        </footer>
    }
}

/// A page's title row: heading, optional subtitle and actions on the right.
#[component]
pub fn PageHeader(
    #[prop(into)] title: String,
    #[prop(optional, into)] subtitle: Option<String>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    view! {
        <div class="page-header">
            <div>
                <h1>{title}</h1>
                {subtitle.map(|s| view! { <p class="subtitle">{s}</p> })}
            </div>
            <div class="page-actions">{children.map(|c| c())}</div>
        </div>
    }
}
