//! The signed-in user's own account: who they are, and changing their password.

use crate::api::session::ChangePassword;
use crate::components::{ActionResult, CurrentUser, ErrorNotice, PageHeader};
use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn AccountPage() -> impl IntoView {
    let user = expect_context::<CurrentUser>().0;
    let change = ServerAction::<ChangePassword>::new();
    view! {
        <Title text="Your account"/>
        <PageHeader title="Your account"/>
        <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let user = match user.await {
                    Ok(Some(user)) => user,
                    Ok(None) => return view! { <ErrorNotice error=AppError::Unauthenticated/> }.into_any(),
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                view! {
                    <div class="grid-2">
                        <section class="card">
                            <h2>"Signed in as"</h2>
                            <dl class="facts">
                                <dt>"Name"</dt><dd>{user.display_name().to_string()}</dd>
                                <dt>"E-mail address"</dt><dd>{user.email.clone()}</dd>
                                <dt>"Role"</dt><dd>{user.role.label()}</dd>
                                <dt>"Organisation"</dt><dd>{user.organisation_name.clone()}</dd>
                            </dl>
                        </section>
                        <section class="card">
                            <h2>"Change password"</h2>
                            <ActionResult value=change.value() success=|message: String| message/>
                            <ActionForm action=change attr:class="form">
                                <label for="current_password">"Current password"</label>
                                <input id="current_password" type="password" name="current_password" autocomplete="current-password" required/>
                                <label for="new_password">"New password"</label>
                                <input id="new_password" type="password" name="new_password" autocomplete="new-password" required minlength=engine::account::MIN_PASSWORD_CHARS.to_string()/>
                                <p class="hint">{format!("At least {} characters.", engine::account::MIN_PASSWORD_CHARS)}</p>
                                <label for="confirm_password">"New password again"</label>
                                <input id="confirm_password" type="password" name="confirm_password" autocomplete="new-password" required/>
                                <div class="form-actions">
                                    <button type="submit" class="button button-primary" disabled=move || change.pending().get()>"Change password"</button>
                                </div>
                            </ActionForm>
                        </section>
                    </div>
                }.into_any()
            })}
        </Suspense>
    }
}
