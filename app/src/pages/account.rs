//! The signed-in user's own account: who they are, and changing their password.

use crate::api::session::ChangePassword;
use crate::api::tokens::{CreateApiToken, RevokeApiToken, list_api_tokens};
use crate::components::{ActionResult, CurrentUser, ErrorNotice, PageHeader};
use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn AccountPage() -> impl IntoView {
    let user = expect_context::<CurrentUser>().0;
    let change = ServerAction::<ChangePassword>::new();
    // The token list's resource lives here, not in `ApiTokens`: a resource created inside a
    // Suspense child is re-created on every pass of that child while the server streams, which
    // can keep a page from ever finishing (leptos #4866).
    let create = ServerAction::<CreateApiToken>::new();
    let revoke = ServerAction::<RevokeApiToken>::new();
    let tokens = crate::components::page_resource(
        move || (create.version().get(), revoke.version().get()),
        |_| list_api_tokens(),
    );
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
                    <ApiTokens create revoke tokens/>
                }.into_any()
            })}
        </Suspense>
    }
}

/// The user's API tokens: list, revoke, create (the secret is shown once).
#[component]
fn ApiTokens(
    create: ServerAction<CreateApiToken>,
    revoke: ServerAction<RevokeApiToken>,
    tokens: crate::components::PageResource<Result<Vec<crate::model::ApiToken>, AppError>>,
) -> impl IntoView {
    view! {
        <section class="card">
            <h2>"API tokens"</h2>
            <p class="muted">
                "For scripts and CI pipelines: send a token as "<code>"Authorization: Bearer pd_…"</code>
                " to the REST API under "<code>"/api/v1"</code>" ("
                <a href="/api/v1/openapi.json">"OpenAPI description"</a>"). A token acts with your role, expires after the days you choose (90 unless you say otherwise, at most 365), and is revoked when your password changes."
            </p>
            {move || create.value().get().map(|result| match result {
                Ok(issued) => view! {
                    <div class="notice notice-ok" role="status">
                        <strong>{format!("Token “{}” created, valid until {}. Copy it now; it is not shown again.", issued.token.name, engine::clock::utc_date(issued.token.expires_ms))}</strong>
                        <code class="secret" id="new-token">{issued.secret}</code>
                    </div>
                }.into_any(),
                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
            })}
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match tokens.await {
                        Ok(list) if list.is_empty() => view! { <p class="muted">"No tokens yet."</p> }.into_any(),
                        Ok(list) => view! {
                            <table class="table" id="api-tokens">
                                <thead><tr>
                                    <th scope="col">"Name"</th><th scope="col">"Starts with"</th>
                                    <th scope="col">"Created"</th><th scope="col">"Last used"</th><th scope="col">"Expires"</th>
                                    <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                                </tr></thead>
                                <tbody>
                                    {list.into_iter().map(|t| view! {
                                        <tr>
                                            <td class="strong">{t.name}</td>
                                            <td class="mono">{format!("{}…", t.prefix)}</td>
                                            <td class="nowrap">{engine::clock::utc_minute(t.created_ms)}</td>
                                            <td class="nowrap">{t.last_used_ms.map(engine::clock::utc_minute).unwrap_or_else(|| "never".into())}</td>
                                            <td class="nowrap">{engine::clock::utc_date(t.expires_ms)}</td>
                                            <td class="row-actions">
                                                <ActionForm action=revoke>
                                                    <input type="hidden" name="id" value=t.id.to_string()/>
                                                    <button type="submit" class="button button-small button-quiet">"Revoke"</button>
                                                </ActionForm>
                                            </td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        }.into_any(),
                        Err(error) => view! { <div class="notice notice-error">{error.to_string()}</div> }.into_any(),
                    }
                })}
            </Suspense>
            <ActionForm action=create attr:class="form form-inline">
                <label for="token-name">"New token"</label>
                <div class="inline-row">
                    <input id="token-name" name="name" required maxlength="80" placeholder="What it is for, e.g. “GitLab CI”"/>
                    <label for="token-days" class="visually-hidden">"Valid for (days)"</label>
                    <input id="token-days" name="days" type="number" min="1" max="365" step="1" value="90" inputmode="numeric" title="Days until the token expires (1–365)"/>
                    <button type="submit" class="button button-primary">"Create token"</button>
                </div>
            </ActionForm>
        </section>
    }
}
