//! A pilot's vLLM start-up logs, each set against the sizing engine's vLLM memory model.
//!
//! The logs and their comparisons are a server-rendered fragment (see
//! [`crate::components::fragment`]), reloaded when the form beside it adds a log. The fixed
//! words follow the reader's language ([`crate::components::lang`]); the engine's notes under
//! each comparison and the reason a prediction failed stay in English (the engine words them).

use crate::api::calibration::AddStartupLog;

use crate::components::Fragment;
#[cfg(feature = "ssr")]
use crate::components::PageHeader;
use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::model::Calibration;
use engine::locale::Lang;
use engine::sizing::{KvDtype, WeightPrecision, gpus, models};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
fn fmt_value(value: f64, unit: &str, lang: Lang) -> String {
    match (lang, unit == "tokens") {
        (Lang::En, true) => {
            let sign = if value < 0.0 { "-" } else { "" };
            format!(
                "{sign}{}",
                super::sizing::fmt_int(value.abs().round() as u64)
            )
        }
        (Lang::En, false) => format!("{value:.2}"),
        (Lang::De, true) => lang.number(value.round(), 0),
        (Lang::De, false) => lang.number(value, 2),
    }
}

/// A compared figure with its unit: `GPU KV cache size (tokens)` / `GPU-KV-Cache-Größe (Token)`.
/// The engine names its four figures in English; a name it adds later shows as it is.
#[cfg(feature = "ssr")]
fn quantity_words(quantity: &str, unit: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return format!("{quantity} ({unit})");
    }
    let quantity = match quantity {
        "GPU KV cache size" => "Größe des GPU-KV-Cache",
        "Maximum concurrency" => "Maximale Parallelität",
        "Available KV cache memory" => "Verfügbarer KV-Cache-Speicher",
        "Weights per card" => "Gewichte pro Karte",
        other => other,
    };
    let unit = if unit == "tokens" { "Token" } else { unit };
    format!("{quantity} ({unit})")
}

/// The difference in percent with its sign: `+3.2 %` / `+3,2 %`.
#[cfg(feature = "ssr")]
fn fmt_pct(pct: f64, lang: Lang) -> String {
    let text = format!("{pct:+.1} %");
    match lang {
        Lang::En => text,
        Lang::De => text.replace('.', ","),
    }
}

#[cfg(feature = "ssr")]
#[component]
fn CalibrationCard(calibration: Calibration) -> impl IntoView {
    let lang = crate::components::lang();
    let s = calibration.summary.settings.clone();
    let log = calibration.summary.log.clone();
    let parallel = if s.pp > 1 {
        format!(", PP={}", s.pp)
    } else {
        String::new()
    };
    let setting_line = match lang {
        Lang::En => format!(
            "{} · {} weights · {} KV cache · {} × {} (TP={}{}) · max_model_len {} · vLLM {} · utilisation {}",
            s.model_id,
            s.weights,
            s.kv_dtype,
            s.tp * s.pp,
            s.gpu_id,
            s.tp,
            parallel,
            s.context_tokens,
            s.vllm_version
                .clone()
                .unwrap_or_else(|| "version not in the log".into()),
            s.gpu_memory_utilization
                .map(|u| format!("{u:.2}"))
                .unwrap_or_else(|| "default".into()),
        ),
        Lang::De => format!(
            "{} · Gewichte {} · KV-Cache {} · {} × {} (TP={}{}) · max_model_len {} · vLLM {} · Auslastung {}",
            s.model_id,
            s.weights,
            s.kv_dtype,
            s.tp * s.pp,
            s.gpu_id,
            s.tp,
            parallel,
            s.context_tokens,
            s.vllm_version
                .clone()
                .unwrap_or_else(|| "Version nicht im Log".into()),
            s.gpu_memory_utilization
                .map(|u| lang.number(u, 2))
                .unwrap_or_else(|| "Standard".into()),
        ),
    };
    let evidence = &calibration.evidence;
    let uploaded_by = if evidence.uploaded_by.is_empty() {
        lang.pick("a deleted account", "ein gelöschtes Konto")
            .to_string()
    } else {
        evidence.uploaded_by.clone()
    };
    let sha = super::evidence::sha256_prefix(&evidence.sha256);
    let uploaded = match lang {
        Lang::En => format!(
            "Evidence #{} · uploaded {} by {} · SHA-256 {}…",
            evidence.id,
            engine::clock::utc_minute(evidence.uploaded_ms),
            uploaded_by,
            sha
        ),
        Lang::De => format!(
            "Nachweis #{} · hochgeladen am {} von {} · SHA-256 {}…",
            evidence.id,
            lang.date_time(evidence.uploaded_ms),
            uploaded_by,
            sha
        ),
    };
    view! {
        <section class="card calibration">
            <h2>{calibration.evidence.file_name.clone()}</h2>
            <p class="muted small">{uploaded}</p>
            <p class="mono small">{setting_line}</p>
            {log.refusal.clone().map(|r| view! { <p class="notice notice-warn">{match lang {
                Lang::En => format!("vLLM refused to start: {r}"),
                Lang::De => format!("vLLM hat den Start verweigert: {r}"),
            }}</p> })}
            {match calibration.comparison {
                Err(error) => view! { <p class="notice notice-error">{match lang {
                    Lang::En => format!("No prediction: {error}"),
                    Lang::De => format!("Keine Vorhersage: {error}"),
                }}</p> }.into_any(),
                Ok(comparison) => view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">{lang.pick("Figure (engine, at start-up)", "Kennzahl (Engine, beim Start)")}</th>
                            <th scope="col" class="num">{lang.pick("Predicted", "Vorhergesagt")}</th>
                            <th scope="col" class="num">{lang.pick("vLLM printed", "Von vLLM ausgegeben")}</th>
                            <th scope="col" class="num">{lang.pick("Difference", "Abweichung")}</th>
                        </tr></thead>
                        <tbody>
                            {comparison.rows.into_iter().map(|row| {
                                let class = if row.difference_pct.abs() <= 5.0 { "badge badge-pass" } else if row.difference > 0.0 { "badge badge-fail" } else { "badge badge-warn" };
                                view! {
                                    <tr>
                                        <td>{quantity_words(&row.quantity, &row.unit, lang)}</td>
                                        <td class="num">{fmt_value(row.predicted, &row.unit, lang)}</td>
                                        <td class="num">{fmt_value(row.actual, &row.unit, lang)}</td>
                                        <td class="num"><span class=class>{fmt_pct(row.difference_pct, lang)}</span></td>
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
    let lang = crate::components::lang();
    Ok(Fragment::render(
        format!("{} · {}", lang.pick("Calibration", "Kalibrierung"), p.name),
        view! {
            <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>
                {lang.pick(" / Calibration", " / Kalibrierung")}
            </nav>
            <PageHeader
                title=lang.pick("vLLM start-up logs", "vLLM-Start-Logs")
                subtitle=lang.pick(
                    "What vLLM printed when it started, set against what the sizing engine's vLLM memory model predicts for the same settings. Predictions are recomputed each time, so they improve with the engine.",
                    "Was vLLM beim Start ausgegeben hat, verglichen mit dem, was das vLLM-Speichermodell der Dimensionierung für dieselben Einstellungen vorhersagt. Die Vorhersagen werden jedes Mal neu berechnet und werden so mit der Engine besser.",
                )/>
            {if list.is_empty() {
                view! {
                    <div class="empty-state">
                        <h3>{lang.pick("No start-up log yet", "Noch kein Start-Log")}</h3>
                        <p>{if can_edit {
                            lang.pick(
                                "Paste the first lines vLLM prints (up to “Maximum concurrency for … tokens per request”) to check the sizing engine against this pilot's real deployment.",
                                "Fügen Sie die ersten Zeilen ein, die vLLM ausgibt (bis „Maximum concurrency for … tokens per request“), um die Dimensionierung mit dem realen Deployment dieses Piloten abzugleichen.",
                            )
                        } else {
                            lang.pick(
                                "When the assessment team adds the first lines vLLM printed at start-up, this page sets them against what the sizing engine predicts for the same settings.",
                                "Sobald das Assessment-Team die ersten Zeilen hinzufügt, die vLLM beim Start ausgegeben hat, stellt diese Seite sie der Vorhersage der Dimensionierung für dieselben Einstellungen gegenüber.",
                            )
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
    let lang = crate::components::lang();
    view! {
        <section class="card form-card">
            <h2>{lang.pick("Add a start-up log", "Start-Log hinzufügen")}</h2>
            {move || add.value().get().map(|result| match result {
                Ok(id) => view! { <div class="notice notice-ok" role="status">{match lang {
                    Lang::En => format!("Stored as evidence #{id}."),
                    Lang::De => format!("Als Nachweis #{id} gespeichert."),
                }}</div> }.into_any(),
                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
            })}
            <ActionForm action=add attr:class="form">
                <input type="hidden" name="pilot_id" value=pilot_id.to_string()/>
                <label for="log_text">{lang.pick("vLLM start-up log", "vLLM-Start-Log")}</label>
                <textarea id="log_text" name="log_text" rows="10" class="mono" required
                    placeholder="INFO … Model loading took 14.25 GiB …\nINFO … Available KV cache memory: 20.5 GiB\nINFO … GPU KV cache size: 345,000 tokens\nINFO … Maximum concurrency for 8,192 tokens per request: 42.1x"></textarea>
                <p class="hint">{lang.pick(
                    "Settings left on “from the log” are read from it (TP, max_model_len, KV dtype, version, utilisation), then from the pilot's notes.",
                    "Einstellungen auf „aus dem Log“ werden daraus gelesen (TP, max_model_len, KV-Datentyp, Version, Auslastung), sonst aus den Notizen des Piloten.",
                )}</p>
                <div class="field-row">
                    <div class="grow">
                        <label for="cal-model">{lang.pick("Model", "Modell")}</label>
                        <select id="cal-model" name="model">
                            <option value="">{lang.pick("from the log / pilot", "aus dem Log / Piloten")}</option>
                            {models().into_iter().map(|m| view! { <option value=m.id>{m.name}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="grow">
                        <label for="cal-gpu">"GPU"</label>
                        <select id="cal-gpu" name="gpu">
                            <option value="">{lang.pick("from the pilot", "aus dem Piloten")}</option>
                            {gpus().into_iter().map(|g| view! { <option value=g.id>{g.name}</option> }).collect_view()}
                        </select>
                    </div>
                </div>
                <div class="field-row">
                    <div class="grow">
                        <label for="cal-weights">{lang.pick("Weights", "Gewichte")}</label>
                        <select id="cal-weights" name="weights">
                            {WeightPrecision::ALL.into_iter().map(|w| view! { <option value=w.as_str() selected=w == WeightPrecision::Bf16>{w.label()}</option> }).collect_view()}
                        </select>
                    </div>
                    <div class="grow">
                        <label for="cal-kv">{lang.pick("KV cache", "KV-Cache")}</label>
                        <select id="cal-kv" name="kv_dtype">
                            <option value="">{lang.pick("from the log", "aus dem Log")}</option>
                            {KvDtype::ALL.into_iter().map(|k| view! { <option value=k.as_str()>{k.label()}</option> }).collect_view()}
                        </select>
                    </div>
                    <div>
                        <label for="cal-tp">"TP"</label>
                        <input id="cal-tp" name="tp" type="number" min="1" placeholder=lang.pick("log", "Log")/>
                    </div>
                    <div>
                        <label for="cal-context">"max_model_len"</label>
                        <input id="cal-context" name="context" type="number" min="1" placeholder=lang.pick("log", "Log")/>
                    </div>
                </div>
                <div class="form-actions">
                    <button type="submit" class="button button-primary" disabled=move || add.pending().get()>{lang.pick("Store and compare", "Speichern und vergleichen")}</button>
                </div>
            </ActionForm>
        </section>
    }
}
