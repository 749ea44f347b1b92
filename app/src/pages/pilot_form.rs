//! Creating and editing a pilot (assessors and admins; sales engineers get 403, customers 404).

use super::params::pilot_id_param;
use crate::api::pilots::{CreatePilot, UpdatePilot, customer_organisations, get_pilot};
use crate::components::{CurrentUser, ErrorNotice, PageHeader, textarea_text};
use crate::error::AppError;
use crate::model::Pilot;
use engine::pilot::PilotStatus;
use leptos::prelude::*;
use leptos_meta::Title;

/// The editable fields with their current values.
#[component]
fn PilotFields(initial: Option<Pilot>) -> impl IntoView {
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
        <label for="name">"Name" <span class="req" title="required">"*"</span></label>
        <input id="name" name="name" required maxlength="120" value=p.name placeholder="e.g. Support assistant on 4× L40S"/>
        <label for="status">"Status"</label>
        <select id="status" name="status">
            {PilotStatus::ALL.into_iter().map(|s| view! {
                <option value=s.as_str() selected=s == p.status>{format!("{} — {}", s.label(), s.meaning())}</option>
            }).collect_view()}
        </select>
        <label for="model">"Model"</label>
        <input id="model" name="model" value=p.model placeholder="e.g. Qwen/Qwen2.5-7B-Instruct" class="mono"/>
        <div class="field-row">
            <div>
                <label for="gpu_count">"GPU count"</label>
                <input id="gpu_count" name="gpu_count" type="number" min="1" max="4096" step="1" value=gpu_count inputmode="numeric"/>
            </div>
            <div class="grow">
                <label for="gpu_type">"GPU type"</label>
                <input id="gpu_type" name="gpu_type" value=p.gpu_type placeholder="e.g. NVIDIA L40S"/>
            </div>
        </div>
        <div class="field-row">
            <div class="grow">
                <label for="engine">"Serving engine"</label>
                <input id="engine" name="engine" value=p.engine placeholder="vLLM"/>
            </div>
            <div>
                <label for="engine_version">"Engine version"</label>
                <input id="engine_version" name="engine_version" value=p.engine_version placeholder="e.g. 0.11.0"/>
            </div>
        </div>
        <label for="description">"Description"</label>
        <textarea id="description" name="description" rows="5" maxlength="4000"
            placeholder="What the pilot tries to answer, for whom, and what happens after it.">{textarea_text(p.description)}</textarea>
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
    view! {
        <Title text="New pilot"/>
        <nav class="breadcrumbs" aria-label="Breadcrumb"><a href="/">"Pilots"</a>" / New pilot"</nav>
        <PageHeader title="New pilot" subtitle="A pilot belongs to one customer organisation; its people see it read-only."/>
        <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let organisations = match organisations.await {
                    Ok(list) => list,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                if organisations.is_empty() {
                    return view! {
                        <div class="empty-state">
                            <h3>"No customer organisation yet"</h3>
                            <p>"A pilot belongs to a customer organisation. An administrator creates one under "
                               <a href="/admin/organisations">"Organisations"</a>"."</p>
                        </div>
                    }.into_any();
                }
                view! {
                    <section class="card form-card">
                        {move || error_of(create.value().get())}
                        <ActionForm action=create attr:class="form">
                            <label for="organisation_id">"Customer organisation" <span class="req" title="required">"*"</span></label>
                            <select id="organisation_id" name="organisation_id" required>
                                {organisations.into_iter().map(|o| view! { <option value=o.id.to_string()>{o.name}</option> }).collect_view()}
                            </select>
                            <PilotFields initial=None/>
                            <div class="form-actions">
                                <button type="submit" class="button button-primary" disabled=move || create.pending().get()>"Create pilot"</button>
                                <a class="button button-quiet" href="/">"Cancel"</a>
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
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Loading pilot…"</p> }>
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
                view! {
                    <Title text=format!("Edit {}", p.name)/>
                    <nav class="breadcrumbs" aria-label="Breadcrumb">
                        <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / Edit"
                    </nav>
                    <PageHeader title=format!("Edit {}", p.name) subtitle=format!("Pilot for {}", p.organisation_name)/>
                    <section class="card form-card">
                        {move || error_of(update.value().get())}
                        <ActionForm action=update attr:class="form">
                            <input type="hidden" name="id" value=p.id.to_string()/>
                            <PilotFields initial=Some(p.clone())/>
                            <div class="form-actions">
                                <button type="submit" class="button button-primary" disabled=move || update.pending().get()>"Save changes"</button>
                                <a class="button button-quiet" href=format!("/pilots/{}", p.id)>"Cancel"</a>
                            </div>
                        </ActionForm>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}
