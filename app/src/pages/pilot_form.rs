//! Creating and editing a pilot (assessors and admins; sales engineers get 403, customers 404).

use super::params::pilot_id_param;
use crate::api::pilots::{CreatePilot, UpdatePilot, customer_organisations, get_pilot};
use crate::components::{CurrentUser, ErrorNotice, PageHeader, lang, textarea_text};
use crate::error::AppError;
use crate::model::Pilot;
use engine::locale::Lang;
use engine::pilot::PilotStatus;
use leptos::prelude::*;
use leptos_meta::Title;

/// The editable fields with their current values.
#[component]
fn PilotFields(initial: Option<Pilot>) -> impl IntoView {
    let lang = lang();
    let p = initial.unwrap_or_else(|| Pilot {
        id: 0,
        organisation_id: 0,
        organisation_name: String::new(),
        name: String::new(),
        description: String::new(),
        status: PilotStatus::Planning,
        model: String::new(),
        gpu_type: String::new(),
        gpu_count: 0,
        engine: "vLLM".into(),
        engine_version: String::new(),
        created_ms: 0,
        updated_ms: 0,
        archived_ms: None,
    });
    let gpu_count = if p.gpu_count > 0 {
        p.gpu_count.to_string()
    } else {
        String::new()
    };
    view! {
        <label for="name">"Name" <span class="req" title=lang.pick("required", "Pflichtfeld")>"*"</span></label>
        <input id="name" name="name" required maxlength="120" value=p.name placeholder=lang.pick("e.g. Support assistant on 4× L40S", "z. B. Support-Assistent auf 4× L40S")/>
        <label for="status">"Status"</label>
        <select id="status" name="status">
            {PilotStatus::ALL.into_iter().map(|s| view! {
                <option value=s.as_str() selected=s == p.status>{format!("{} — {}", s.label_in(lang), s.meaning_in(lang))}</option>
            }).collect_view()}
        </select>
        <label for="model">{lang.pick("Model", "Modell")}</label>
        <input id="model" name="model" value=p.model placeholder=lang.pick("e.g. Qwen/Qwen2.5-7B-Instruct", "z. B. Qwen/Qwen2.5-7B-Instruct") class="mono"/>
        <div class="field-row">
            <div>
                <label for="gpu_count">{lang.pick("GPU count", "Anzahl GPUs")}</label>
                <input id="gpu_count" name="gpu_count" type="number" min="1" max="4096" step="1" value=gpu_count inputmode="numeric"/>
            </div>
            <div class="grow">
                <label for="gpu_type">{lang.pick("GPU type", "GPU-Typ")}</label>
                <input id="gpu_type" name="gpu_type" value=p.gpu_type placeholder=lang.pick("e.g. NVIDIA L40S", "z. B. NVIDIA L40S")/>
            </div>
        </div>
        <div class="field-row">
            <div class="grow">
                <label for="engine">{lang.pick("Serving engine", "Serving-Engine")}</label>
                <input id="engine" name="engine" value=p.engine placeholder="vLLM"/>
            </div>
            <div>
                <label for="engine_version">{lang.pick("Engine version", "Engine-Version")}</label>
                <input id="engine_version" name="engine_version" value=p.engine_version placeholder=lang.pick("e.g. 0.11.0", "z. B. 0.11.0")/>
            </div>
        </div>
        <label for="description">{lang.pick("Description", "Beschreibung")}</label>
        <textarea id="description" name="description" rows="5" maxlength="4000"
            placeholder=lang.pick(
                "What the pilot tries to answer, for whom, and what happens after it.",
                "Welche Frage der Pilot beantworten soll, für wen und was danach geschieht.",
            )>{textarea_text(p.description)}</textarea>
    }
}

fn error_of<T>(value: Option<Result<T, AppError>>) -> Option<impl IntoView> {
    match value {
        Some(Err(error)) => {
            Some(view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> })
        }
        _ => None,
    }
}

#[component]
pub fn NewPilotPage() -> impl IntoView {
    let create = ServerAction::<CreatePilot>::new();
    let organisations = crate::components::page_resource(|| (), |_| customer_organisations());
    let lang = lang();
    let title = lang.pick("New pilot", "Neuer Pilot");
    view! {
        <Title text=title/>
        <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")><a href="/">{lang.pick("Pilots", "Piloten")}</a>{lang.pick(" / New pilot", " / Neuer Pilot")}</nav>
        <PageHeader title=title subtitle=lang.pick(
            "A pilot belongs to one customer organisation; its people see it read-only.",
            "Ein Pilot gehört zu einer Kundenorganisation; deren Benutzer sehen ihn nur lesend.",
        )/>
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading…", "Wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                let organisations = match organisations.await {
                    Ok(list) => list,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                if organisations.is_empty() {
                    return view! {
                        <div class="empty-state">
                            <h3>{lang.pick("No customer organisation yet", "Noch keine Kundenorganisation")}</h3>
                            <p>{lang.pick(
                                "A pilot belongs to a customer organisation. An administrator creates one under ",
                                "Ein Pilot gehört zu einer Kundenorganisation. Ein Administrator legt sie unter ",
                            )}
                               <a href="/admin/organisations">{lang.pick("Organisations", "Organisationen")}</a>{lang.pick(".", " an.")}</p>
                        </div>
                    }.into_any();
                }
                view! {
                    <section class="card form-card">
                        {move || error_of(create.value().get())}
                        <ActionForm action=create attr:class="form">
                            <label for="organisation_id">{lang.pick("Customer organisation", "Kundenorganisation")} <span class="req" title=lang.pick("required", "Pflichtfeld")>"*"</span></label>
                            <select id="organisation_id" name="organisation_id" required>
                                {organisations.into_iter().map(|o| view! { <option value=o.id.to_string()>{o.name}</option> }).collect_view()}
                            </select>
                            <PilotFields initial=None/>
                            <div class="form-actions">
                                <button type="submit" class="button button-primary" disabled=move || create.pending().get()>{lang.pick("Create pilot", "Pilot anlegen")}</button>
                                <a class="button button-quiet" href="/">{lang.pick("Cancel", "Abbrechen")}</a>
                            </div>
                        </ActionForm>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}

#[component]
pub fn EditPilotPage() -> impl IntoView {
    let id = pilot_id_param();
    let pilot = crate::components::page_resource(id, get_pilot);
    let update = ServerAction::<UpdatePilot>::new();
    let user = expect_context::<CurrentUser>().0;
    let lang = lang();
    view! {
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading pilot…", "Pilot wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                let staff = user.await.ok().flatten().is_some_and(|u| u.role.is_staff());
                let view = match pilot.await {
                    Ok(view) if view.can_edit => view,
                    // Staff who may not edit (sales engineers) learn why; customers see a 404.
                    Ok(_) if staff => return view! { <ErrorNotice error=AppError::Forbidden/> }.into_any(),
                    Ok(_) => return view! { <ErrorNotice error=AppError::NotFound/> }.into_any(),
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                let p = view.pilot;
                let title = match lang {
                    Lang::En => format!("Edit {}", p.name),
                    Lang::De => format!("{} bearbeiten", p.name),
                };
                let subtitle = match lang {
                    Lang::En => format!("Pilot for {}", p.organisation_name),
                    Lang::De => format!("Pilot für {}", p.organisation_name),
                };
                view! {
                    <Title text=title.clone()/>
                    <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                        <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>{lang.pick(" / Edit", " / Bearbeiten")}
                    </nav>
                    <PageHeader title=title subtitle=subtitle/>
                    <section class="card form-card">
                        {move || error_of(update.value().get())}
                        <ActionForm action=update attr:class="form">
                            <input type="hidden" name="id" value=p.id.to_string()/>
                            <PilotFields initial=Some(p.clone())/>
                            <div class="form-actions">
                                <button type="submit" class="button button-primary" disabled=move || update.pending().get()>{lang.pick("Save changes", "Änderungen speichern")}</button>
                                <a class="button button-quiet" href=format!("/pilots/{}", p.id)>{lang.pick("Cancel", "Abbrechen")}</a>
                            </div>
                        </ActionForm>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}
