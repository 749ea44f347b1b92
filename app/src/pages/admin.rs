//! Administration: organisations and user accounts (admin only).

use crate::api::admin::{
    CreateOrganisation, CreateUser, ResetPassword, SetUserDisabled, list_organisations, list_users,
};
use crate::components::{ActionResult, ErrorNotice, PageHeader};
use crate::model::IssuedPassword;
use engine::account::{OrganisationKind, Role};
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn OrganisationsPage() -> impl IntoView {
    let create = ServerAction::<CreateOrganisation>::new();
    let organisations =
        crate::components::page_resource(move || create.version().get(), |_| list_organisations());
    view! {
        <Title text="Organisations"/>
        <PageHeader title="Organisations" subtitle="The vendor's staff and the customer organisations pilots belong to."/>
        <Suspense fallback=|| view! { <p class="loading">"Loading organisations…"</p> }>
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
                                    <th scope="col">"Organisation"</th><th scope="col">"Kind"</th>
                                    <th scope="col" class="num">"Users"</th><th scope="col" class="num">"Pilots"</th>
                                    <th scope="col">"Created"</th>
                                </tr></thead>
                                <tbody>
                                    {list.into_iter().map(|o| view! {
                                        <tr>
                                            <td class="strong">{o.name}</td>
                                            <td>{match o.kind {
                                                OrganisationKind::Staff => view! { <span class="badge badge-staff">"Staff"</span> },
                                                OrganisationKind::Customer => view! { <span class="badge">"Customer"</span> },
                                            }}</td>
                                            <td class="num">{o.users}</td>
                                            <td class="num">{o.pilots}</td>
                                            <td class="nowrap">{engine::clock::utc_date(o.created_ms)}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                        <section class="card">
                            <h2>"New customer organisation"</h2>
                            <ActionResult value=create.value() success=|_id: i64| "Organisation created.".to_string()/>
                            <ActionForm action=create attr:class="form">
                                <label for="org-name">"Name"</label>
                                <input id="org-name" name="name" required maxlength="120" placeholder="e.g. Example Manufacturing AG"/>
                                <div class="form-actions">
                                    <button type="submit" class="button button-primary">"Create organisation"</button>
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

fn issued_message(issued: IssuedPassword) -> String {
    match issued.generated_password {
        Some(password) => format!(
            "Password for {}: {password} — shown once; pass it on securely.",
            issued.user.email
        ),
        None => format!("Account {} saved.", issued.user.email),
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
    view! {
        <Title text="Users"/>
        <PageHeader title="Users" subtitle="Each account has one role. Staff roles belong to the staff organisation; customers to their own."/>
        <ActionResult value=reset.value() success=issued_message/>
        <ActionResult value=disable.value() success=|_: ()| "Account updated.".to_string()/>
        <Suspense fallback=|| view! { <p class="loading">"Loading users…"</p> }>
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
                                    <th scope="col">"User"</th><th scope="col">"Role"</th><th scope="col">"Organisation"</th>
                                    <th scope="col">"State"</th><th scope="col"><span class="visually-hidden">"Actions"</span></th>
                                </tr></thead>
                                <tbody>
                                    {users.into_iter().map(|u| view! {
                                        <tr class:disabled=u.disabled>
                                            <td><div class="strong">{u.email.clone()}</div><div class="muted small">{u.name.clone()}</div></td>
                                            <td>{u.role.label()}</td>
                                            <td>{u.organisation_name.clone()}</td>
                                            <td>{if u.disabled {
                                                view! { <span class="badge badge-fail">"Disabled"</span> }
                                            } else {
                                                view! { <span class="badge badge-pass">"Active"</span> }
                                            }}</td>
                                            <td class="row-actions">
                                                <ActionForm action=disable>
                                                    <input type="hidden" name="user_id" value=u.id.to_string()/>
                                                    <input type="hidden" name="disabled" value=(!u.disabled).to_string()/>
                                                    <button type="submit" class="button button-small button-quiet">
                                                        {if u.disabled { "Enable" } else { "Disable" }}
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
                            <h2>"New user"</h2>
                            <ActionResult value=create.value() success=issued_message/>
                            <ActionForm action=create node_ref=new_user_form attr:class="form">
                                <label for="user-email">"E-mail address"</label>
                                <input id="user-email" type="email" name="email" required autocomplete="off"/>
                                <label for="user-name">"Name"</label>
                                <input id="user-name" name="name" maxlength="120"/>
                                <label for="user-role">"Role"</label>
                                <select id="user-role" name="role">
                                    {Role::ALL.into_iter().map(|r| view! {
                                        <option value=r.as_str() selected=r == Role::Customer>{r.label()}</option>
                                    }).collect_view()}
                                </select>
                                <label for="user-org">"Organisation"</label>
                                <select id="user-org" name="organisation_id">
                                    {customers_first(organisations).into_iter().map(|o| {
                                        let label = match o.kind {
                                            OrganisationKind::Staff => format!("{} (staff)", o.name),
                                            OrganisationKind::Customer => o.name.clone(),
                                        };
                                        view! { <option value=o.id.to_string()>{label}</option> }
                                    }).collect_view()}
                                </select>
                                <label for="user-password">"Password"</label>
                                <input id="user-password" type="password" name="password" autocomplete="new-password"/>
                                <p class="hint">"Leave empty to generate one; it is shown once."</p>
                                <div class="form-actions">
                                    <button type="submit" class="button button-primary">"Create user"</button>
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
    let question = StoredValue::new(format!(
        "Reset the password of {email}? The old one stops working; the new one is shown once."
    ));
    view! {
        <Show
            when=move || confirming.get()
            fallback=move || view! {
                <button type="button" class="button button-small button-quiet" on:click=move |_| confirming.set(true)>
                    "Reset password"
                </button>
            }
        >
            <ActionForm action=reset attr:class="confirm-reset">
                <input type="hidden" name="user_id" value=user_id.to_string()/>
                <span class="small" role="status">{question.get_value()}</span>
                <button type="submit" class="button button-small button-danger">"Reset"</button>
                <button type="button" class="button button-small button-quiet" on:click=move |_| confirming.set(false)>"Cancel"</button>
            </ActionForm>
        </Show>
    }
}
