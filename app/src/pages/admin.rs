//! Administration: organisations and user accounts (admin only).

use crate::api::admin::{
    CreateOrganisation, CreateUser, ResetPassword, SetUserDisabled, list_organisations, list_users,
};
use crate::components::{ActionResult, ErrorNotice, PageHeader, lang};
use crate::model::IssuedPassword;
use engine::account::{OrganisationKind, Role};
use engine::locale::Lang;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn OrganisationsPage() -> impl IntoView {
    let create = ServerAction::<CreateOrganisation>::new();
    let organisations =
        crate::components::page_resource(move || create.version().get(), |_| list_organisations());
    let lang = lang();
    let title = lang.pick("Organisations", "Organisationen");
    view! {
        <Title text=title/>
        <PageHeader title=title subtitle=lang.pick(
            "The vendor's staff and the customer organisations pilots belong to.",
            "Die Mitarbeiter des Anbieters und die Kundenorganisationen, zu denen die Piloten gehören.",
        )/>
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading organisations…", "Organisationen werden geladen…")}</p> }>
            {move || Suspend::new(async move {
                let list = match organisations.await {
                    Ok(list) => list,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                view! {
                    <div class="grid-aside">
                        <div class="card table-card">
                            <table class="table" id="organisations">
                                <thead><tr>
                                    <th scope="col">"Organisation"</th><th scope="col">{lang.pick("Kind", "Art")}</th>
                                    <th scope="col" class="num">{lang.pick("Users", "Benutzer")}</th><th scope="col" class="num">{lang.pick("Pilots", "Piloten")}</th>
                                    <th scope="col">{lang.pick("Created", "Angelegt")}</th>
                                </tr></thead>
                                <tbody>
                                    {list.into_iter().map(move |o| view! {
                                        <tr>
                                            <td class="strong">{o.name}</td>
                                            <td>{match o.kind {
                                                OrganisationKind::Staff => view! { <span class="badge badge-staff">{lang.pick("Staff", "Mitarbeiter")}</span> },
                                                OrganisationKind::Customer => view! { <span class="badge">{lang.pick("Customer", "Kunde")}</span> },
                                            }}</td>
                                            <td class="num">{o.users}</td>
                                            <td class="num">{o.pilots}</td>
                                            <td class="nowrap">{lang.date(o.created_ms)}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                        <section class="card">
                            <h2>{lang.pick("New customer organisation", "Neue Kundenorganisation")}</h2>
                            <ActionResult value=create.value() success=move |_id: i64| lang.pick("Organisation created.", "Organisation angelegt.").to_string()/>
                            <ActionForm action=create attr:class="form">
                                <label for="org-name">"Name"</label>
                                <input id="org-name" name="name" required maxlength="120" placeholder=lang.pick("e.g. Example Manufacturing AG", "z. B. Beispiel Fertigung AG")/>
                                <div class="form-actions">
                                    <button type="submit" class="button button-primary">{lang.pick("Create organisation", "Organisation anlegen")}</button>
                                </div>
                            </ActionForm>
                        </section>
                    </div>
                }.into_any()
            })}
        </Suspense>
    }
}

/// Customer organisations first (the usual case for a new account), then staff.
fn customers_first(
    mut organisations: Vec<crate::model::Organisation>,
) -> Vec<crate::model::Organisation> {
    organisations.sort_by_key(|o| (o.kind == OrganisationKind::Staff, o.name.to_lowercase()));
    organisations
}

fn issued_message(issued: IssuedPassword, lang: Lang) -> String {
    let email = issued.user.email;
    match (issued.generated_password, lang) {
        (Some(password), Lang::En) => {
            format!("Password for {email}: {password} — shown once; pass it on securely.")
        }
        (Some(password), Lang::De) => format!(
            "Passwort für {email}: {password} — wird nur einmal gezeigt; geben Sie es sicher weiter."
        ),
        (None, Lang::En) => format!("Account {email} saved."),
        (None, Lang::De) => format!("Konto {email} gespeichert."),
    }
}

#[component]
pub fn UsersPage() -> impl IntoView {
    let create = ServerAction::<CreateUser>::new();
    let disable = ServerAction::<SetUserDisabled>::new();
    let reset = ServerAction::<ResetPassword>::new();
    let new_user_form = NodeRef::new();
    crate::components::action_forms::reset_after(create, new_user_form);
    let data = crate::components::page_resource(
        move || (create.version().get(), disable.version().get()),
        |_| async move {
            Ok::<_, crate::error::AppError>((list_users().await?, list_organisations().await?))
        },
    );
    let lang = lang();
    let title = lang.pick("Users", "Benutzer");
    view! {
        <Title text=title/>
        <PageHeader title=title subtitle=lang.pick(
            "Each account has one role. Staff roles belong to the staff organisation; customers to their own.",
            "Jedes Konto hat eine Rolle. Mitarbeiterrollen gehören zur Organisation der Mitarbeiter, Kunden zu ihrer eigenen.",
        )/>
        <ActionResult value=reset.value() success=move |issued| issued_message(issued, lang)/>
        <ActionResult value=disable.value() success=move |_: ()| lang.pick("Account updated.", "Konto geändert.").to_string()/>
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading users…", "Benutzer werden geladen…")}</p> }>
            {move || Suspend::new(async move {
                let (users, organisations) = match data.await {
                    Ok(data) => data,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                view! {
                    <div class="grid-aside">
                        <div class="card table-card">
                            <table class="table" id="users">
                                <thead><tr>
                                    <th scope="col">{lang.pick("User", "Benutzer")}</th><th scope="col">{lang.pick("Role", "Rolle")}</th><th scope="col">"Organisation"</th>
                                    <th scope="col">{lang.pick("State", "Status")}</th><th scope="col"><span class="visually-hidden">{lang.pick("Actions", "Aktionen")}</span></th>
                                </tr></thead>
                                <tbody>
                                    {users.into_iter().map(move |u| view! {
                                        <tr class:disabled=u.disabled>
                                            <td><div class="strong">{u.email.clone()}</div><div class="muted small">{u.name.clone()}</div></td>
                                            <td>{u.role.label_in(lang)}</td>
                                            <td>{u.organisation_name.clone()}</td>
                                            <td>{if u.disabled {
                                                view! { <span class="badge badge-fail">{lang.pick("Disabled", "Deaktiviert")}</span> }
                                            } else {
                                                view! { <span class="badge badge-pass">{lang.pick("Active", "Aktiv")}</span> }
                                            }}</td>
                                            <td class="row-actions">
                                                <ActionForm action=disable>
                                                    <input type="hidden" name="user_id" value=u.id.to_string()/>
                                                    <input type="hidden" name="disabled" value=(!u.disabled).to_string()/>
                                                    <button type="submit" class="button button-small button-quiet">
                                                        {if u.disabled { lang.pick("Enable", "Aktivieren") } else { lang.pick("Disable", "Deaktivieren") }}
                                                    </button>
                                                </ActionForm>
                                                <ResetPasswordForm reset user_id=u.id email=u.email.clone()/>
                                            </td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                        <section class="card">
                            <h2>{lang.pick("New user", "Neuer Benutzer")}</h2>
                            <ActionResult value=create.value() success=move |issued| issued_message(issued, lang)/>
                            <ActionForm action=create node_ref=new_user_form attr:class="form">
                                <label for="user-email">{lang.pick("E-mail address", "E-Mail-Adresse")}</label>
                                <input id="user-email" type="email" name="email" required autocomplete="off"/>
                                <label for="user-name">"Name"</label>
                                <input id="user-name" name="name" maxlength="120"/>
                                <label for="user-role">{lang.pick("Role", "Rolle")}</label>
                                <select id="user-role" name="role">
                                    {Role::ALL.into_iter().map(|r| view! {
                                        <option value=r.as_str() selected=r == Role::Customer>{r.label_in(lang)}</option>
                                    }).collect_view()}
                                </select>
                                <label for="user-org">"Organisation"</label>
                                <select id="user-org" name="organisation_id">
                                    {customers_first(organisations).into_iter().map(|o| {
                                        let label = match o.kind {
                                            OrganisationKind::Staff => format!("{} ({})", o.name, lang.pick("staff", "Mitarbeiter")),
                                            OrganisationKind::Customer => o.name.clone(),
                                        };
                                        view! { <option value=o.id.to_string()>{label}</option> }
                                    }).collect_view()}
                                </select>
                                <label for="user-password">{lang.pick("Password", "Passwort")}</label>
                                <input id="user-password" type="password" name="password" autocomplete="new-password"/>
                                <p class="hint">{lang.pick(
                                    "Leave empty to generate one; it is shown once.",
                                    "Leer lassen, um eines zu erzeugen; es wird nur einmal gezeigt.",
                                )}</p>
                                <div class="form-actions">
                                    <button type="submit" class="button button-primary">{lang.pick("Create user", "Benutzer anlegen")}</button>
                                </div>
                            </ActionForm>
                        </section>
                    </div>
                }.into_any()
            })}
        </Suspense>
    }
}

/// "Reset password", then a confirmation naming the account before anything changes: a reset
/// makes the old password stop working at once.
#[component]
fn ResetPasswordForm(
    reset: ServerAction<ResetPassword>,
    user_id: i64,
    email: String,
) -> impl IntoView {
    let confirming = RwSignal::new(false);
    // Back to the plain button once the reset went through.
    Effect::new(move |_| {
        if reset.value().get().is_some() {
            confirming.set(false);
        }
    });
    let lang = lang();
    let question = StoredValue::new(match lang {
        Lang::En => format!(
            "Reset the password of {email}? The old one stops working; the new one is shown once."
        ),
        Lang::De => format!(
            "Das Passwort von {email} zurücksetzen? Das alte gilt dann nicht mehr; das neue wird nur einmal gezeigt."
        ),
    });
    view! {
        <Show
            when=move || confirming.get()
            fallback=move || view! {
                <button type="button" class="button button-small button-quiet" on:click=move |_| confirming.set(true)>
                    {lang.pick("Reset password", "Passwort zurücksetzen")}
                </button>
            }
        >
            <ActionForm action=reset attr:class="confirm-reset">
                <input type="hidden" name="user_id" value=user_id.to_string()/>
                <span class="small" role="status">{question.get_value()}</span>
                <button type="submit" class="button button-small button-danger">{lang.pick("Reset", "Zurücksetzen")}</button>
                <button type="button" class="button button-small button-quiet" on:click=move |_| confirming.set(false)>{lang.pick("Cancel", "Abbrechen")}</button>
            </ActionForm>
        </Show>
    }
}
