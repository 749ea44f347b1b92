//! The signed-in user's own account: who they are, the language of the interface, their
//! password and their API tokens.

use crate::api::session::ChangePassword;
use crate::api::tokens::{CreateApiToken, RevokeApiToken, list_api_tokens};
use crate::components::{ActionResult, CurrentUser, ErrorNotice, PageHeader, lang};
use crate::error::AppError;
use engine::locale::Lang;
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
    let lang = lang();
    let title = lang.pick("Your account", "Ihr Konto");
    view! {
        <Title text=title/>
        <PageHeader title=title/>
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading…", "Wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                let user = match user.await {
                    Ok(Some(user)) => user,
                    Ok(None) => return view! { <ErrorNotice error=AppError::Unauthenticated/> }.into_any(),
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                view! {
                    <div class="grid-2">
                        <section class="card">
                            <h2>{lang.pick("Signed in as", "Angemeldet als")}</h2>
                            <dl class="facts">
                                <dt>"Name"</dt><dd>{user.display_name().to_string()}</dd>
                                <dt>{lang.pick("E-mail address", "E-Mail-Adresse")}</dt><dd>{user.email.clone()}</dd>
                                <dt>{lang.pick("Role", "Rolle")}</dt><dd>{user.role.label_in(lang)}</dd>
                                <dt>"Organisation"</dt><dd>{user.organisation_name.clone()}</dd>
                            </dl>
                            <LanguageChoice/>
                        </section>
                        <section class="card">
                            <h2>{lang.pick("Change password", "Passwort ändern")}</h2>
                            <ActionResult value=change.value() success=|message: String| message/>
                            <ActionForm action=change attr:class="form">
                                <label for="current_password">{lang.pick("Current password", "Aktuelles Passwort")}</label>
                                <input id="current_password" type="password" name="current_password" autocomplete="current-password" required/>
                                <label for="new_password">{lang.pick("New password", "Neues Passwort")}</label>
                                <input id="new_password" type="password" name="new_password" autocomplete="new-password" required minlength=engine::account::MIN_PASSWORD_CHARS.to_string()/>
                                <p class="hint">{match lang {
                                    Lang::En => format!("At least {} characters.", engine::account::MIN_PASSWORD_CHARS),
                                    Lang::De => format!("Mindestens {} Zeichen.", engine::account::MIN_PASSWORD_CHARS),
                                }}</p>
                                <label for="confirm_password">{lang.pick("New password again", "Neues Passwort wiederholen")}</label>
                                <input id="confirm_password" type="password" name="confirm_password" autocomplete="new-password" required/>
                                <div class="form-actions">
                                    <button type="submit" class="button button-primary" disabled=move || change.pending().get()>{lang.pick("Change password", "Passwort ändern")}</button>
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

/// The language of the interface: both languages named in their own words, the current one
/// chosen; saving posts to `/language`, which remembers it with the account and in this browser
/// (a year) and comes back here. A plain form: it works before the page is interactive.
#[component]
fn LanguageChoice() -> impl IntoView {
    let current = lang();
    view! {
        <form method="post" action="/language" class="form language-choice" id="language-choice">
            <input type="hidden" name="back" value="/account"/>
            <label for="ui-language">{current.pick("Language of the interface", "Sprache der Oberfläche")}</label>
            <div class="inline-row">
                <select id="ui-language" name="lang">
                    {[Lang::En, Lang::De].into_iter().map(|l| view! {
                        <option value=l.code() lang=l.code() selected=l == current>{l.own_name()}</option>
                    }).collect_view()}
                </select>
                <button type="submit" class="button">{current.pick("Save", "Speichern")}</button>
            </div>
            <p class="hint">{current.pick(
                "Kept with your account: signing in on another browser brings it along. Reports choose their own language when exported.",
                "Wird mit Ihrem Konto gespeichert und gilt nach der Anmeldung auch in anderen Browsern. Berichte wählen ihre Sprache beim Export selbst.",
            )}</p>
        </form>
    }
}

/// The user's API tokens: list, revoke, create (the secret is shown once).
#[component]
fn ApiTokens(
    create: ServerAction<CreateApiToken>,
    revoke: ServerAction<RevokeApiToken>,
    tokens: crate::components::PageResource<Result<Vec<crate::model::ApiToken>, AppError>>,
) -> impl IntoView {
    let lang = lang();
    let intro = match lang {
        Lang::En => view! {
            "For scripts and CI pipelines: send a token as "<code>"Authorization: Bearer pd_…"</code>
            " to the REST API under "<code>"/api/v1"</code>" ("
            <a href="/api/v1/openapi.json">"OpenAPI description"</a>"). A token acts with your role, expires after the days you choose (90 unless you say otherwise, at most 365), and is revoked when your password changes."
        }.into_any(),
        Lang::De => view! {
            "Für Skripte und CI-Pipelines: ein Token als "<code>"Authorization: Bearer pd_…"</code>
            " an die REST-API unter "<code>"/api/v1"</code>" senden ("
            <a href="/api/v1/openapi.json">"OpenAPI-Beschreibung"</a>"). Ein Token handelt mit Ihrer Rolle, läuft nach den gewählten Tagen ab (90, wenn nichts anderes angegeben ist, höchstens 365) und wird widerrufen, wenn sich Ihr Passwort ändert."
        }.into_any(),
    };
    view! {
        <section class="card">
            <h2>{lang.pick("API tokens", "API-Tokens")}</h2>
            <p class="muted">{intro}</p>
            {move || create.value().get().map(|result| match result {
                Ok(issued) => view! {
                    <div class="notice notice-ok" role="status">
                        <strong>{match lang {
                            Lang::En => format!("Token “{}” created, valid until {}. Copy it now; it is not shown again.", issued.token.name, lang.date(issued.token.expires_ms)),
                            Lang::De => format!("Token „{}“ angelegt, gültig bis {}. Jetzt kopieren; es wird nicht noch einmal gezeigt.", issued.token.name, lang.date(issued.token.expires_ms)),
                        }}</strong>
                        <code class="secret" id="new-token">{issued.secret}</code>
                    </div>
                }.into_any(),
                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
            })}
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match tokens.await {
                        Ok(list) if list.is_empty() => view! { <p class="muted">{lang.pick("No tokens yet.", "Noch keine Tokens.")}</p> }.into_any(),
                        Ok(list) => view! {
                            <table class="table" id="api-tokens">
                                <thead><tr>
                                    <th scope="col">"Name"</th><th scope="col">{lang.pick("Starts with", "Beginnt mit")}</th>
                                    <th scope="col">{lang.pick("Created", "Angelegt")}</th><th scope="col">{lang.pick("Last used", "Zuletzt benutzt")}</th><th scope="col">{lang.pick("Expires", "Läuft ab")}</th>
                                    <th scope="col"><span class="visually-hidden">{lang.pick("Actions", "Aktionen")}</span></th>
                                </tr></thead>
                                <tbody>
                                    {list.into_iter().map(|t| view! {
                                        <tr>
                                            <td class="strong">{t.name}</td>
                                            <td class="mono">{format!("{}…", t.prefix)}</td>
                                            <td class="nowrap">{lang.date_time(t.created_ms)}</td>
                                            <td class="nowrap">{t.last_used_ms.map(|at| lang.date_time(at)).unwrap_or_else(|| lang.pick("never", "nie").into())}</td>
                                            <td class="nowrap">{lang.date(t.expires_ms)}</td>
                                            <td class="row-actions">
                                                <ActionForm action=revoke>
                                                    <input type="hidden" name="id" value=t.id.to_string()/>
                                                    <button type="submit" class="button button-small button-quiet">{lang.pick("Revoke", "Widerrufen")}</button>
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
                <label for="token-name">{lang.pick("New token", "Neues Token")}</label>
                <div class="inline-row">
                    <input id="token-name" name="name" required maxlength="80" placeholder=lang.pick("What it is for, e.g. “GitLab CI”", "Wofür es ist, z. B. „GitLab CI“")/>
                    <label for="token-days" class="visually-hidden">{lang.pick("Valid for (days)", "Gültig für (Tage)")}</label>
                    <input id="token-days" name="days" type="number" min="1" max="365" step="1" value="90" inputmode="numeric" title=lang.pick("Days until the token expires (1–365)", "Tage bis zum Ablauf des Tokens (1–365)")/>
                    <button type="submit" class="button button-primary">{lang.pick("Create token", "Token anlegen")}</button>
                </div>
            </ActionForm>
        </section>
    }
}
