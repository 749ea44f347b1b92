//! A pilot's vLLM start-up logs, each set against the sizing engine's vLLM memory model.
//!
//! The logs and their comparisons are a server-rendered fragment (see
//! [`crate::components::fragment`]), reloaded when the form beside it adds a log.

use crate::api::calibration::AddStartupLog;

use crate::components::Fragment;
#[cfg(feature = "ssr")]
use crate::components::PageHeader;
use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::model::Calibration;
use engine::sizing::{KvDtype, WeightPrecision, gpus, models};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
fn fmt_value(value: f64, unit: &str) -> String {
    if unit == "tokens" {
        let sign = if value < 0.0 { "-" } else { "" };
        format!(
            "{sign}{}",
            super::sizing::fmt_int(value.abs().round() as u64)
        )
    } else {
        format!("{value:.2}")
    }
}

#[cfg(feature = "ssr")]
#[component]
fn CalibrationCard(calibration: Calibration) -> impl IntoView {
    let s = calibration.summary.settings.clone();
    let log = calibration.summary.log.clone();
    let setting_line = format!(
        "{} · {} weights · {} KV cache · {} × {} (TP={}{}) · max_model_len {} · vLLM {} · utilisation {}",
        s.model_id,
        s.weights,
        s.kv_dtype,
        s.tp * s.pp,
        s.gpu_id,
        s.tp,
        if s.pp > 1 {
            format!(", PP={}", s.pp)
        } else {
            String::new()
        },
        s.context_tokens,
        s.vllm_version
            .clone()
            .unwrap_or_else(|| "version not in the log".into()),
        s.gpu_memory_utilization
            .map(|u| format!("{u:.2}"))
            .unwrap_or_else(|| "default".into()),
    );
    view! {
        <section class="card calibration">
            <h2>{calibration.evidence.file_name.clone()}</h2>
            <p class="muted small">
                {format!("Evidence #{} · uploaded {} by {} · SHA-256 {}…",
                    calibration.evidence.id,
                    engine::clock::utc_minute(calibration.evidence.uploaded_ms),
                    if calibration.evidence.uploaded_by.is_empty() { "a deleted account".to_string() } else { calibration.evidence.uploaded_by.clone() },
                    &calibration.evidence.sha256[..12])}
            </p>
            <p class="mono small">{setting_line}</p>
            {log.refusal.clone().map(|r| view! { <p class="notice notice-warn">{format!("vLLM refused to start: {r}")}</p> })}
            {match calibration.comparison {
                Err(error) => view! { <p class="notice notice-error">{format!("No prediction: {error}")}</p> }.into_any(),
                Ok(comparison) => view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Figure (engine, at start-up)"</th>
                            <th scope="col" class="num">"Predicted"</th>
                            <th scope="col" class="num">"vLLM printed"</th>
                            <th scope="col" class="num">"Difference"</th>
                        </tr></thead>
                        <tbody>
                            {comparison.rows.into_iter().map(|row| {
                                let class = if row.difference_pct.abs() <= 5.0 { "badge badge-pass" } else if row.difference > 0.0 { "badge badge-fail" } else { "badge badge-warn" };
                                view! {
                                    <tr>
                                        <td>{format!("{} ({})", row.quantity, row.unit)}</td>
                                        <td class="num">{fmt_value(row.predicted, &row.unit)}</td>
                                        <td class="num">{fmt_value(row.actual, &row.unit)}</td>
                                        <td class="num"><span class=class>{format!("{:+.1} %", row.difference_pct)}</span></td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <ul class="warnings">{comparison.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                }.into_any(),
            }}
        </section>
    }
}

#[component]
pub fn CalibrationPage() -> impl IntoView {
    let add = ServerAction::<AddStartupLog>::new();
    crate::components::pilot_fragment_with_editor(
        move || add.version().get() as u32,
        calibration_page,
        move |pilot_id| view! { <StartupLogForm add pilot_id/> },
    )
}

/// The calibration page's content: every start-up log against the vLLM memory model.
#[server(endpoint = "page_calibration")]
pub async fn calibration_page(pilot_id: i64) -> Result<Fragment, AppError> {
    let view = crate::api::pilots::get_pilot(pilot_id).await?;
    let (p, can_edit) = (view.pilot, view.can_edit);
    let list = crate::api::calibration::list_calibrations(pilot_id).await?;
    Ok(Fragment::render(
        format!("Calibration · {}", p.name),
        view! {
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / Calibration"
            </nav>
            <PageHeader title="vLLM start-up logs" subtitle="What vLLM printed when it started, set against what the sizing engine's vLLM memory model predicts for the same settings. Predictions are recomputed each time, so they improve with the engine."/>
            {if list.is_empty() {
                view! {
                    <div class="empty-state">
                        <h3>"No start-up log yet"</h3>
                        <p>{if can_edit {
                            "Paste the first lines vLLM prints (up to “Maximum concurrency for … tokens per request”) to check the sizing engine against this pilot's real deployment."
                        } else {
                            "When the assessment team adds the first lines vLLM printed at start-up, this page sets them against what the sizing engine predicts for the same settings."
                        }}</p>
                    </div>
                }.into_any()
            } else {
                list.into_iter().map(|c| view! { <CalibrationCard calibration=c/> }).collect_view().into_any()
            }}
        },
    ))
}

#[component]
fn StartupLogForm(add: ServerAction<AddStartupLog>, pilot_id: i64) -> impl IntoView {
    view! {
        <section class="card form-card">
            <h2>"Add a start-up log"</h2>
            {move || add.value().get().map(|result| match result {
                Ok(id) => view! { <div class="notice notice-ok" role="status">{format!("Stored as evidence #{id}.")}</div> }.into_any(),
                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
            })}
            <ActionForm action=add attr:class="form">
                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                <label for="log_text">"vLLM start-up log"</label>
                <textarea id="log_text" name="log_text" rows="10" class="mono" required
                    placeholder="INFO … Model loading took 14.25 GiB …\nINFO … Available KV cache memory: 20.5 GiB\nINFO … GPU KV cache size: 345,000 tokens\nINFO … Maximum concurrency for 8,192 tokens per request: 42.1x"></textarea>
                <p class="hint">"Settings left on “from the log” are read from it (TP, max_model_len, KV dtype, version, utilisation), then from the pilot's notes."</p>
                <div class="field-row">
                    <div class="grow">
                        <label for="cal-model">"Model"</label>
                        <select id="cal-model" name="model">
                            <option value="">"from the log / pilot"</option>
                            {models().into_iter().map(|m| view! { <option value=m.id>{m.name}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="grow">
                        <label for="cal-gpu">"GPU"</label>
                        <select id="cal-gpu" name="gpu">
                            <option value="">"from the pilot"</option>
                            {gpus().into_iter().map(|g| view! { <option value=g.id>{g.name}</option> }).collect_view()}
                        </select>
                    </div>
                </div>
                <div class="field-row">
                    <div class="grow">
                        <label for="cal-weights">"Weights"</label>
                        <select id="cal-weights" name="weights">
                            {WeightPrecision::ALL.into_iter().map(|w| view! { <option value=w.as_str() selected=w == WeightPrecision::Bf16>{w.label()}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="grow">
                        <label for="cal-kv">"KV cache"</label>
                        <select id="cal-kv" name="kv_dtype">
                            <option value="">"from the log"</option>
                            {KvDtype::ALL.into_iter().map(|k| view! { <option value=k.as_str()>{k.label()}</option> }).collect_view()}
                        </select>
                    </div>
                    <div>
                        <label for="cal-tp">"TP"</label>
                        <input id="cal-tp" name="tp" type="number" min="1" placeholder="log"/>
                    </div>
                    <div>
                        <label for="cal-context">"max_model_len"</label>
                        <input id="cal-context" name="context" type="number" min="1" placeholder="log"/>
                    </div>
                </div>
                <div class="form-actions">
                    <button type="submit" class="button button-primary" disabled=move || add.pending().get()>"Store and compare"</button>
                </div>
            </ActionForm>
        </section>
    }
}
