//! The sizing what-if: model, precision, GPU, topology and context in; memory, sessions and the
//! decode ceiling out, with the arithmetic.
//!
//! Everything on this page is computed by the shared sizing engine (`engine::sizing`), which is
//! compiled into the browser's wasm: after hydration every change recomputes locally, with no
//! server round trip. The server renders the same computation for the first paint, so the page is
//! complete without JavaScript too (the form then submits as a GET and the server answers).
//! The query string holds the inputs, so a configuration can be linked (the pilot page links its
//! own hardware here, [`pilot_sizing_link`]). A linked model or GPU the catalog does not know is
//! never swapped for another: the page says "model X is not in the catalog: paste its
//! config.json below" and sizes nothing until one is chosen or added.

use crate::api::catalog::{AddModel, load_sizing_catalog};
use crate::components::{CurrentUser, ErrorNotice, PageHeader, lang};
use crate::model::{CatalogOrigin, SizingCatalog};
use engine::charts::{DecodeBar, decode_ceiling_chart_in, memory_bar_chart_in};
use engine::locale::Lang;
use engine::sizing::{
    Candidate, Demand, GpuOffer, GpuSpec, KvDtype, MemoryModel, RecommendOptions, SizingInput,
    SizingResult, Topology, WeightPrecision, recommend_in, size_in,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use std::str::FromStr;

/// The what-if inputs, kept as the text the user typed so errors can name the field.
#[derive(Clone, Copy)]
struct WhatIf {
    model: RwSignal<String>,
    weights: RwSignal<String>,
    kv: RwSignal<String>,
    gpu: RwSignal<String>,
    tp: RwSignal<String>,
    pp: RwSignal<String>,
    copies: RwSignal<String>,
    context: RwSignal<String>,
    memory_model: RwSignal<String>,
    vllm_version: RwSignal<String>,
    tpot_target_ms: RwSignal<String>,
    peak_sessions: RwSignal<String>,
    max_cards: RwSignal<String>,
    /// Comma-separated weight precisions the pilot's evaluation set passed (empty: all).
    precisions: RwSignal<String>,
    /// `1`: the recommendation also sizes formats a card only emulates (chosen explicitly).
    emulated: RwSignal<String>,
}

impl WhatIf {
    /// The precisions the pilot's quality evidence allows, when the link names them.
    fn allowed_precisions(&self) -> Option<Vec<WeightPrecision>> {
        let allowed: Vec<WeightPrecision> = self
            .precisions
            .get_untracked()
            .split(',')
            .filter_map(|p| WeightPrecision::from_str(p).ok())
            .collect();
        (!allowed.is_empty()).then_some(allowed)
    }
}

/// Defaults: the guide's worked example (Llama 3.3 70B in FP8 on one RTX PRO 6000 Server Edition).
const DEFAULTS: [(&str, &str); 13] = [
    ("model", "llama-3.3-70b"),
    ("weights", "fp8"),
    ("kv", "fp8"),
    ("gpu", "rtx-pro-6000-server"),
    ("tp", "1"),
    ("pp", "1"),
    ("copies", "1"),
    ("context", "8192"),
    ("memory_model", "planning"),
    ("vllm_version", ""),
    ("tpot", "40"),
    ("sessions", "30"),
    ("max_cards", "8"),
];

impl WhatIf {
    fn from_query() -> WhatIf {
        let query = use_query_map();
        let value = |key: &str| {
            query
                .with_untracked(|q| q.get(key))
                .filter(|v| !v.trim().is_empty() || key == "vllm_version")
                .unwrap_or_else(|| {
                    DEFAULTS
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, v)| v.to_string())
                        .unwrap_or_default()
                })
        };
        WhatIf {
            model: RwSignal::new(value("model")),
            weights: RwSignal::new(value("weights")),
            kv: RwSignal::new(value("kv")),
            gpu: RwSignal::new(value("gpu")),
            tp: RwSignal::new(value("tp")),
            pp: RwSignal::new(value("pp")),
            copies: RwSignal::new(value("copies")),
            context: RwSignal::new(value("context")),
            memory_model: RwSignal::new(value("memory_model")),
            vllm_version: RwSignal::new(value("vllm_version")),
            tpot_target_ms: RwSignal::new(value("tpot")),
            peak_sessions: RwSignal::new(value("sessions")),
            max_cards: RwSignal::new(value("max_cards")),
            precisions: RwSignal::new(value("precisions")),
            emulated: RwSignal::new(value("emulated")),
        }
    }

    /// The inputs as a query string: the model and GPU always, every other input where it
    /// differs from the default, in a fixed order (so the address of a what-if is stable).
    fn query(&self) -> String {
        let fields = [
            ("model", self.model),
            ("weights", self.weights),
            ("kv", self.kv),
            ("gpu", self.gpu),
            ("tp", self.tp),
            ("pp", self.pp),
            ("copies", self.copies),
            ("context", self.context),
            ("memory_model", self.memory_model),
            ("vllm_version", self.vllm_version),
            ("tpot", self.tpot_target_ms),
            ("sessions", self.peak_sessions),
            ("max_cards", self.max_cards),
            ("precisions", self.precisions),
            ("emulated", self.emulated),
        ];
        fields
            .into_iter()
            .filter_map(|(key, signal)| {
                let value = signal.get();
                let default = DEFAULTS.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
                let always = key == "model" || key == "gpu";
                (always || default.unwrap_or("") != value.trim())
                    .then(|| format!("{key}={}", encode(value.trim())))
            })
            .collect::<Vec<_>>()
            .join("&")
    }

    /// Keeps the page's address on the inputs (replacing the history entry, not adding one),
    /// so a reload or a copied link opens the same what-if. The router is not involved: the
    /// page recomputes from its own signals, and a navigation could take the focus from the
    /// field being typed in.
    fn keep_in_address(self) {
        Effect::new(move |previous: Option<String>| {
            let query = self.query();
            if previous.is_some_and(|p| p != query) {
                #[cfg(feature = "hydrate")]
                if let Ok(history) = window().history() {
                    let _ = history.replace_state_with_url(
                        &leptos::wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&format!("/sizing?{query}")),
                    );
                }
            }
            query
        });
    }

    /// Replaces a linked model or GPU name (`RedHatAI/Qwen2.5-7B-Instruct`, `Tesla V100-SXM2-16GB`)
    /// by the catalog id it means, when one does; an unknown one stays as linked, so the page can
    /// say so instead of sizing another.
    fn resolve(&self, catalog: &SizingCatalog) {
        let model = self.model.get_untracked();
        if catalog.model(&model).is_none()
            && let Some(id) = resolve_model(catalog, &model)
        {
            self.model.set(id);
        }
        let gpu = self.gpu.get_untracked();
        if catalog.gpu(&gpu).is_none()
            && let Some(id) = resolve_gpu(catalog, &gpu)
        {
            self.gpu.set(id);
        }
    }
}

/// The catalog model a free-text name means: by id, the built-in matcher, then the same model
/// by name (organisation, case and punctuation aside); `None` when there is none.
pub fn resolve_model(catalog: &SizingCatalog, text: &str) -> Option<String> {
    if text.trim().is_empty() {
        return None;
    }
    if let Some(id) = guess_model_id(text).filter(|id| catalog.model(id).is_some()) {
        return Some(id);
    }
    catalog
        .models
        .iter()
        .find(|m| {
            engine::verdict::comparability::same_model(&m.spec.name, text) == Some(true)
                && engine::verdict::comparability::same_model(&m.spec.id, text) == Some(true)
        })
        .map(|m| m.spec.id.clone())
}

/// The catalog GPU a free-text name means (edited and added cards included).
pub fn resolve_gpu(catalog: &SizingCatalog, text: &str) -> Option<String> {
    if text.trim().is_empty() {
        return None;
    }
    if let Some(id) = guess_gpu_id(text).filter(|id| catalog.gpu(id).is_some()) {
        return Some(id);
    }
    catalog
        .gpus
        .iter()
        .find(|g| engine::sizing::gpu::same_gpu_name(&g.spec.name, text) == Some(true))
        .map(|g| g.spec.id.clone())
}

/// `text` for a query string (unreserved characters as they are, the rest percent-encoded).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The pilot's "Size this pilot" link, and what the catalog lacks for it (in words). The model
/// and GPU are always named in the link, as ids when the built-in catalog knows them, else as
/// written, so the sizing page never silently sizes another model or card.
pub fn pilot_sizing_link(
    pilot: &crate::model::Pilot,
    decision: Option<&crate::api::quality::PrecisionDecision>,
) -> (String, Vec<String>) {
    let lang = lang();
    let mut query = vec![];
    let mut missing = Vec::new();
    match guess_model_id(&pilot.model) {
        Some(model) => query.push(format!("model={model}")),
        None if pilot.model.trim().is_empty() => {}
        None => {
            query.push(format!("model={}", encode(pilot.model.trim())));
            missing.push(match lang {
                Lang::En => format!(
                    "Model “{}” is not in the sizing catalog: the sizing page asks for its config.json instead of sizing another model.",
                    pilot.model.trim()
                ),
                Lang::De => format!(
                    "Modell „{}“ ist nicht im Dimensionierungskatalog: Die Dimensionierungsseite fragt nach seiner config.json, statt ein anderes Modell zu dimensionieren.",
                    pilot.model.trim()
                ),
            });
        }
    }
    match guess_gpu_id(&pilot.gpu_type) {
        Some(gpu) => {
            query.push(format!("gpu={gpu}"));
            if pilot.gpu_count > 1 {
                query.push(format!("tp={}", pilot.gpu_count));
            }
        }
        None if pilot.gpu_type.trim().is_empty() => {}
        None => {
            query.push(format!("gpu={}", encode(pilot.gpu_type.trim())));
            missing.push(match lang {
                Lang::En => format!(
                    "GPU “{}” is not in the GPU catalog: an administrator adds it under GPUs.",
                    pilot.gpu_type.trim()
                ),
                Lang::De => format!(
                    "GPU „{}“ ist nicht im GPU-Katalog: Ein Administrator fügt sie unter GPUs hinzu.",
                    pilot.gpu_type.trim()
                ),
            });
        }
    }
    match decision.filter(|d| d.exists()) {
        Some(d) => {
            let sizing = |name: &str| engine::quality::sizing_precision(name).map(|p| p.as_str());
            let mut passing: Vec<&str> = d.passing.iter().filter_map(|p| sizing(p)).collect();
            passing.dedup();
            let decided = d.decided.as_deref().and_then(sizing).unwrap_or("fp16");
            let kv = d
                .decided_kv
                .as_deref()
                .and_then(engine::production::precision::kv_dtype_of_run)
                .unwrap_or(KvDtype::Bits16);
            query.push(format!("weights={decided}&kv={}", kv.as_str()));
            if !passing.is_empty() {
                query.push(format!("precisions={}", passing.join(",")));
            }
        }
        None if query.iter().any(|q| q.starts_with("model=")) => {
            query.push("weights=fp16&kv=16bit".into());
        }
        None => {}
    }
    let href = if query.is_empty() {
        "/sizing".into()
    } else {
        format!("/sizing?{}", query.join("&"))
    };
    (href, missing)
}

fn number<T: FromStr>(field: &str, text: &str, lang: Lang) -> Result<T, String> {
    text.trim().parse().map_err(|_| match lang {
        Lang::En => format!("{field}: `{}` is not a whole number", text.trim()),
        Lang::De => format!("{field}: „{}“ ist keine ganze Zahl", text.trim()),
    })
}

fn target_tokens_per_s(form: &WhatIf) -> Option<f64> {
    form.tpot_target_ms
        .get()
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|ms| *ms > 0.0)
        .map(|ms| 1000.0 / ms)
}

/// The catalog the page works with (shared by every computation on it).
type Catalog = StoredValue<SizingCatalog>;

/// Builds the engine's question from the form; errors name the field.
fn question(
    form: &WhatIf,
    catalog: Catalog,
    gpu: Option<GpuSpec>,
    lang: Lang,
) -> Result<SizingInput, String> {
    let model = catalog
        .with_value(|c| c.model(&form.model.get()).map(|m| m.spec.clone()))
        .ok_or_else(|| not_in_catalog("model", &form.model.get(), lang))?;
    let gpu = match gpu {
        Some(gpu) => gpu,
        None => catalog
            .with_value(|c| c.gpu(&form.gpu.get()).map(|g| g.spec.clone()))
            .ok_or_else(|| not_in_catalog("GPU", &form.gpu.get(), lang))?,
    };
    let weights = WeightPrecision::from_str(&form.weights.get()).map_err(|e| e.message_in(lang))?;
    let kv = KvDtype::from_str(&form.kv.get()).map_err(|e| e.message_in(lang))?;
    let memory_model =
        MemoryModel::from_str(&form.memory_model.get()).map_err(|e| e.message_in(lang))?;
    let topology = Topology::new(
        number("TP", &form.tp.get(), lang)?,
        number("PP", &form.pp.get(), lang)?,
        number(lang.pick("copies", "Kopien"), &form.copies.get(), lang)?,
    );
    let context: u64 = number(lang.pick("context", "Kontext"), &form.context.get(), lang)?;
    let mut input = SizingInput::new(model, weights, kv, gpu, topology, context, memory_model);
    let version = form.vllm_version.get();
    input.vllm_version = (!version.trim().is_empty()).then(|| version.trim().to_string());
    Ok(input)
}

/// `model “X” is not in the catalog: paste its config.json below`.
fn not_in_catalog(what: &str, value: &str, lang: Lang) -> String {
    match (what, value.trim(), lang) {
        ("model", "", lang) => lang
            .pick(
                "model: choose a model from the catalog",
                "Modell: Wählen Sie ein Modell aus dem Katalog",
            )
            .into(),
        ("model", name, Lang::En) => format!(
            "Model “{name}” is not in the catalog: paste its config.json below (staff), or choose a model from the list; nothing is sized for another model."
        ),
        ("model", name, Lang::De) => format!(
            "Modell „{name}“ ist nicht im Katalog: Fügen Sie unten seine config.json ein (Mitarbeitende), oder wählen Sie ein Modell aus der Liste; für ein anderes Modell wird nichts dimensioniert."
        ),
        (_, "", lang) => lang
            .pick(
                "GPU: choose a GPU from the catalog",
                "GPU: Wählen Sie eine GPU aus dem Katalog",
            )
            .into(),
        (_, name, Lang::En) => format!(
            "GPU “{name}” is not in the catalog: an administrator adds it under GPUs, or choose a card from the list; nothing is sized on another card."
        ),
        (_, name, Lang::De) => format!(
            "GPU „{name}“ ist nicht im Katalog: Ein Administrator fügt sie unter GPUs hinzu, oder wählen Sie eine Karte aus der Liste; auf einer anderen Karte wird nichts dimensioniert."
        ),
    }
}

fn sized(
    form: &WhatIf,
    catalog: Catalog,
    gpu: Option<GpuSpec>,
    lang: Lang,
) -> Result<(SizingInput, SizingResult), String> {
    let input = question(form, catalog, gpu, lang)?;
    let result = size_in(&input, lang).map_err(|e| e.message_in(lang))?;
    Ok((input, result))
}

fn fmt_gib(value: f64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{value:.1} GiB"),
        Lang::De => format!("{} GiB", lang.number(value, 1)),
    }
}

/// [`fmt_int`] in `lang`: `443,328` / `443.328`.
fn int_in(value: u64, lang: Lang) -> String {
    match lang {
        Lang::En => fmt_int(value),
        Lang::De => lang.number(value as f64, 0),
    }
}

/// `value` with `decimals` decimals: as always in English (`1234.5`), `1.234,5` in German.
fn decimals_in(value: f64, decimals: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{value:.decimals$}"),
        Lang::De => lang.number(value, decimals),
    }
}

/// `443328` → `443,328`.
pub(crate) fn fmt_int(value: u64) -> String {
    engine::format::thousands(value)
}

fn fmt_step_value(value: f64, lang: Lang) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        int_in(value.abs() as u64, lang)
    } else if value.abs() >= 100.0 {
        decimals_in(value, 1, lang)
    } else {
        decimals_in(value, 2, lang)
    }
}

#[component]
pub fn SizingPage() -> impl IntoView {
    let form = WhatIf::from_query();
    let add_model = ServerAction::<AddModel>::new();
    let catalog = crate::components::page_resource(
        move || add_model.version().get(),
        |_| load_sizing_catalog(),
    );
    let user = expect_context::<CurrentUser>().0;
    let lang = lang();
    view! {
        <Title text=lang.pick("Sizing", "Dimensionierung")/>
        <PageHeader
            title=lang.pick("Sizing what-if", "Dimensionierung: Was-wäre-wenn")
            subtitle=lang.pick(
                "Memory per card, KV cache, sessions that fit and the single-stream decode ceiling, from the shared sizing engine. Recomputed in your browser as you type.",
                "Speicher je Karte, KV-Cache, passende Sitzungen und die Decode-Obergrenze eines einzelnen Streams, aus der gemeinsamen Dimensionierungs-Engine. Wird beim Tippen in Ihrem Browser neu berechnet.",
            )
        />
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading the catalog…", "Katalog wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                let can_add = user.await.ok().flatten().is_some_and(|u| u.role.can_edit_pilots());
                match catalog.await {
                    Ok(catalog) => {
                        form.resolve(&catalog);
                        view! { <CatalogGaps form catalog=StoredValue::new(catalog.clone())/> <Workbench form catalog=StoredValue::new(catalog)/> {can_add.then(|| view! { <AddModelForm add_model/> })} }.into_any()
                    }
                    Err(error) => view! { <ErrorNotice error/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Workbench(form: WhatIf, catalog: Catalog) -> impl IntoView {
    form.keep_in_address();
    let lang = lang();
    let outcome = Memo::new(move |_| sized(&form, catalog, None, lang));
    view! {
        <div class="sizing">
            <WhatIfForm form catalog/>
            <div class="sizing-results" id="sizing-results">
                {move || match outcome.get() {
                    Ok((input, result)) => view! { <SizingSummary input result form/> }.into_any(),
                    Err(error) => view! { <div class="notice notice-error" role="alert">{error}</div> }.into_any(),
                }}
            </div>
        </div>
        <GpuComparison form catalog/>
        <Recommendation form catalog/>
    }
}

/// What a linked model or GPU lacks in the catalog, said at the top of the page.
#[component]
fn CatalogGaps(form: WhatIf, catalog: Catalog) -> impl IntoView {
    let lang = lang();
    move || {
        let mut gaps = Vec::new();
        let model = form.model.get();
        if catalog.with_value(|c| c.model(&model).is_none()) {
            gaps.push(not_in_catalog("model", &model, lang));
        }
        let gpu = form.gpu.get();
        if catalog.with_value(|c| c.gpu(&gpu).is_none()) {
            gaps.push(not_in_catalog("GPU", &gpu, lang));
        }
        (!gaps.is_empty()).then(|| {
            view! {
                <div class="notice notice-warn" role="alert" id="catalog-gaps">
                    {gaps.into_iter().map(|g| view! { <p>{g}</p> }).collect_view()}
                    <p><a href="#add-model">{lang.pick("Add a model from its config.json", "Ein Modell aus seiner config.json hinzufügen")}</a></p>
                </div>
            }
        })
    }
}

/// Staff add a model by pasting its Hugging Face config.json.
#[component]
fn AddModelForm(add_model: ServerAction<AddModel>) -> impl IntoView {
    let lang = lang();
    view! {
        <section class="card form-card" id="add-model">
            <h2>{lang.pick("Add a model from its config.json", "Ein Modell aus seiner config.json hinzufügen")}</h2>
            <p class="muted">
                {lang.pick("Paste the model's Hugging Face ", "Fügen Sie die Hugging-Face-")}<code>"config.json"</code>
                {lang.pick(
                    ": layers, heads, KV heads, head size, experts, MLA and sliding-window settings are read from it. Checkpoint sizes are then computed from the shapes.",
                    " des Modells ein: Schichten, Heads, KV-Heads, Head-Größe, Experten sowie MLA- und Sliding-Window-Einstellungen werden daraus gelesen. Die Checkpoint-Größen werden dann aus den Formen berechnet.",
                )}
            </p>
            {move || add_model.value().get().map(|result| match result {
                Ok(id) => view! { <div class="notice notice-ok" role="status">{match lang {
                    Lang::En => format!("Added as `{id}`; it is in the model list above."),
                    Lang::De => format!("Hinzugefügt als `{id}`; es steht oben in der Modellliste."),
                }}</div> }.into_any(),
                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
            })}
            <ActionForm action=add_model attr:class="form">
                <div class="field-row">
                    <div class="grow">
                        <label for="am-name">"Name"</label>
                        <input id="am-name" name="name" maxlength="100" placeholder=lang.pick("from the config when empty", "aus der config.json, wenn leer")/>
                    </div>
                    <div class="grow">
                        <label for="am-id">{lang.pick("Id", "ID")}</label>
                        <input id="am-id" name="id" maxlength="60" placeholder=lang.pick("from the name when empty", "aus dem Namen, wenn leer")/>
                    </div>
                </div>
                <label for="am-config">"config.json"</label>
                <textarea id="am-config" name="config_json" rows="8" class="mono" required placeholder="{ \"architectures\": [\"LlamaForCausalLM\"], \"num_hidden_layers\": 32, … }"></textarea>
                <div class="form-actions">
                    <button type="submit" class="button button-primary" disabled=move || add_model.pending().get()>{lang.pick("Add model", "Modell hinzufügen")}</button>
                </div>
            </ActionForm>
        </section>
    }
}

#[component]
fn WhatIfForm(form: WhatIf, catalog: Catalog) -> impl IntoView {
    let lang = lang();
    let select = move |signal: RwSignal<String>, options: Vec<(String, String)>| {
        let values: Vec<String> = options.iter().map(|(v, _)| v.clone()).collect();
        let unknown = move || !values.contains(&signal.get());
        let placeholder = view! {
            <option value="" selected=unknown.clone() disabled=true hidden=move || !unknown()>{move || match lang {
                Lang::En => format!("“{}”: not in the catalog", signal.get()),
                Lang::De => format!("„{}“: nicht im Katalog", signal.get()),
            }}</option>
        };
        let rest = options
            .into_iter()
            .map(|(value, label)| {
                let selected_value = value.clone();
                view! { <option value=value selected=move || signal.get() == selected_value>{label}</option> }
            })
            .collect_view();
        (placeholder, rest)
    };
    let mark = |name: &str, origin: CatalogOrigin| match origin {
        CatalogOrigin::Reviewed => name.to_string(),
        CatalogOrigin::Edited => {
            format!("{name} {}", lang.pick("(edited here)", "(hier bearbeitet)"))
        }
        CatalogOrigin::Added => {
            format!("{name} {}", lang.pick("(added here)", "(hier hinzugefügt)"))
        }
    };
    let model_options: Vec<(String, String)> = catalog.with_value(|c| {
        c.models
            .iter()
            .map(|m| (m.spec.id.clone(), mark(&m.spec.name, m.origin)))
            .collect()
    });
    let gpu_options: Vec<(String, String)> = catalog.with_value(|c| {
        c.gpus
            .iter()
            .map(|g| (g.spec.id.clone(), mark(&g.spec.name, g.origin)))
            .collect()
    });
    let allowed = form.allowed_precisions();
    let weight_options: Vec<(String, String)> = WeightPrecision::ALL
        .into_iter()
        .filter(|p| allowed.as_ref().is_none_or(|a| a.contains(p)))
        .map(|p| (p.as_str().to_string(), p.label().to_string()))
        .collect();
    let kv_options: Vec<(String, String)> = KvDtype::ALL
        .into_iter()
        .map(|k| (k.as_str().to_string(), k.label_in(lang).to_string()))
        .collect();
    let memory_options: Vec<(String, String)> = MemoryModel::ALL
        .into_iter()
        .map(|m| (m.as_str().to_string(), m.label_in(lang).to_string()))
        .collect();
    view! {
        <form class="card form sizing-form" method="get" action="/sizing" aria-label=lang.pick("What-if", "Was-wäre-wenn")>
            <label for="sz-model">{lang.pick("Model", "Modell")}</label>
            <select id="sz-model" name="model" on:change=move |ev| form.model.set(event_target_value(&ev))>
                {select(form.model, model_options)}
            </select>
            <div class="field-row">
                <div class="grow">
                    <label for="sz-weights">{lang.pick("Weights", "Gewichte")}</label>
                    <select id="sz-weights" name="weights" on:change=move |ev| form.weights.set(event_target_value(&ev))>
                        {select(form.weights, weight_options)}
                    </select>
                </div>
                <div class="grow">
                    <label for="sz-kv">{lang.pick("KV cache", "KV-Cache")}</label>
                    <select id="sz-kv" name="kv" on:change=move |ev| form.kv.set(event_target_value(&ev))>
                        {select(form.kv, kv_options)}
                    </select>
                </div>
            </div>
            <label for="sz-gpu">"GPU"</label>
            <select id="sz-gpu" name="gpu" on:change=move |ev| form.gpu.set(event_target_value(&ev))>
                {select(form.gpu, gpu_options)}
            </select>
            <div class="field-row">
                <div>
                    <label for="sz-tp" title=lang.pick("tensor parallel: one copy split across cards", "Tensor-Parallel: eine Kopie auf mehrere Karten verteilt")>"TP"</label>
                    <input id="sz-tp" name="tp" type="number" min="1" max="64" inputmode="numeric"
                        prop:value=move || form.tp.get() value=form.tp.get_untracked()
                        on:input=move |ev| form.tp.set(event_target_value(&ev))/>
                </div>
                <div>
                    <label for="sz-pp" title=lang.pick("pipeline stages of one copy", "Pipeline-Stufen einer Kopie")>"PP"</label>
                    <input id="sz-pp" name="pp" type="number" min="1" max="64" inputmode="numeric"
                        prop:value=move || form.pp.get() value=form.pp.get_untracked()
                        on:input=move |ev| form.pp.set(event_target_value(&ev))/>
                </div>
                <div>
                    <label for="sz-copies" title=lang.pick("independent copies, each with its own weights", "unabhängige Kopien, jede mit eigenen Gewichten")>{lang.pick("Copies", "Kopien")}</label>
                    <input id="sz-copies" name="copies" type="number" min="1" max="512" inputmode="numeric"
                        prop:value=move || form.copies.get() value=form.copies.get_untracked()
                        on:input=move |ev| form.copies.set(event_target_value(&ev))/>
                </div>
            </div>
            <label for="sz-context">{lang.pick("Context per session (tokens)", "Kontext je Sitzung (Token)")}</label>
            <input id="sz-context" name="context" type="number" min="1" inputmode="numeric"
                prop:value=move || form.context.get() value=form.context.get_untracked()
                on:input=move |ev| form.context.set(event_target_value(&ev))/>
            <p class="hint">{lang.pick("Prompt + answer of one request, e.g. the p95 from the traffic profile.", "Prompt + Antwort einer Anfrage, z. B. das p95 aus dem Verkehrsprofil.")}</p>
            <label for="sz-memory-model">{lang.pick("Memory model", "Speichermodell")}</label>
            <select id="sz-memory-model" name="memory_model" on:change=move |ev| form.memory_model.set(event_target_value(&ev))>
                {select(form.memory_model, memory_options)}
            </select>
            <p class="hint">
                {move || if form.memory_model.get() == "vllm" {
                    lang.pick(
                        "vLLM: CUDA-visible memory, the version's default utilisation, activation, non-torch and CUDA-graph memory, block rounding — what vLLM will print at start-up.",
                        "vLLM: für CUDA sichtbarer Speicher, die Standardauslastung der Version, Aktivierungs-, Nicht-Torch- und CUDA-Graph-Speicher, Block-Rundung – was vLLM beim Start ausgibt.",
                    )
                } else {
                    lang.pick(
                        "Planning: the guide's convention, 0.9 × memory the driver reports − 3 GiB per card − weights.",
                        "Planung: die Konvention des Leitfadens, 0,9 × vom Treiber gemeldeter Speicher − 3 GiB je Karte − Gewichte.",
                    )
                }}
            </p>
            <label for="sz-vllm-version">{lang.pick("vLLM version (optional)", "vLLM-Version (optional)")}</label>
            <input id="sz-vllm-version" name="vllm_version" placeholder=lang.pick("e.g. 0.11.0", "z. B. 0.11.0")
                prop:value=move || form.vllm_version.get() value=form.vllm_version.get_untracked()
                on:input=move |ev| form.vllm_version.set(event_target_value(&ev))/>
            <label for="sz-tpot">{lang.pick("Per-stream target: TPOT ≤ (ms)", "Ziel je Stream: TPOT ≤ (ms)")}</label>
            <input id="sz-tpot" name="tpot" type="number" min="1" step="any" inputmode="decimal"
                prop:value=move || form.tpot_target_ms.get() value=form.tpot_target_ms.get_untracked()
                on:input=move |ev| form.tpot_target_ms.set(event_target_value(&ev))/>
            <noscript>
                <div class="form-actions"><button type="submit" class="button button-primary">{lang.pick("Recompute", "Neu berechnen")}</button></div>
            </noscript>
        </form>
    }
}

#[component]
fn SizingSummary(input: SizingInput, result: SizingResult, form: WhatIf) -> impl IntoView {
    let lang = lang();
    let target = target_tokens_per_s(&form);
    let meets = target.map(|t| result.decode_tokens_per_s >= t);
    let memory_model = input.memory_model.label_in(lang);
    let memory_svg = memory_bar_chart_in(
        &result.per_card,
        &match lang {
            Lang::En => format!("One {} ({memory_model})", input.gpu.name),
            Lang::De => format!("Eine {} ({memory_model})", input.gpu.name),
        },
        lang,
    )
    .unwrap_or_default();
    let tpot_ms = if result.decode_tokens_per_s > 0.0 {
        1000.0 / result.decode_tokens_per_s
    } else {
        f64::INFINITY
    };
    view! {
        <section class="card">
            <div class="sizing-headline">
                <span class=if result.fits { "badge badge-pass" } else { "badge badge-fail" } id="sizing-fits">
                    {if result.fits { lang.pick("Fits", "Passt") } else { lang.pick("Does not fit", "Passt nicht") }}
                </span>
                <span class="muted">{format!(
                    "{} · {memory_model} · {} {}",
                    input.topology.label_in(lang),
                    result.cards,
                    lang.pick("card(s)", "Karte(n)"),
                )}</span>
            </div>
            <dl class="figures">
                <div>
                    <dt>{lang.pick("Whole sessions", "Ganze Sitzungen")}</dt>
                    <dd id="sizing-sessions">{int_in(result.sessions, lang)}</dd>
                    <p>{match lang {
                        Lang::En => format!("of {} tokens, all copies (floor)", fmt_int(input.context_tokens)),
                        Lang::De => format!("zu je {} Token, alle Kopien (abgerundet)", int_in(input.context_tokens, lang)),
                    }}</p>
                </div>
                <div>
                    <dt>{lang.pick("KV cache", "KV-Cache")}</dt>
                    <dd id="sizing-kv-tokens">{int_in(result.kv_cache_tokens, lang)}</dd>
                    <p>{match lang {
                        Lang::En => format!("tokens per copy · {} per card", fmt_gib(result.kv_pool_gib_per_card, lang)),
                        Lang::De => format!("Token je Kopie · {} je Karte", fmt_gib(result.kv_pool_gib_per_card, lang)),
                    }}</p>
                </div>
                <div>
                    <dt>{lang.pick("Max concurrency", "Max. Parallelität")}</dt>
                    <dd>{format!("{}×", decimals_in(result.max_concurrency, 2, lang))}</dd>
                    <p>{lang.pick("per copy, at full context (vLLM's start-up line)", "je Kopie, bei vollem Kontext (die Startzeile von vLLM)")}</p>
                </div>
                <div>
                    <dt>{lang.pick("Decode ceiling", "Decode-Obergrenze")}</dt>
                    <dd id="sizing-decode">{decimals_in(result.decode_tokens_per_s, 1, lang)}</dd>
                    <p>{match lang {
                        Lang::En => format!("tok/s, one stream (TPOT ≥ {tpot_ms:.1} ms); an upper bound"),
                        Lang::De => format!("tok/s, ein Stream (TPOT ≥ {} ms); eine Obergrenze", decimals_in(tpot_ms, 1, lang)),
                    }}</p>
                </div>
            </dl>
            {meets.map(|ok| {
                let target = target.unwrap_or_default();
                let text = match (ok, lang) {
                    (true, Lang::En) => format!("The ceiling is above the target of {target:.1} tok/s; a load test on this configuration decides."),
                    (false, Lang::En) => format!("The ceiling is below the target of {target:.1} tok/s: this configuration fails on speed before any load."),
                    (true, Lang::De) => format!("Die Obergrenze liegt über dem Ziel von {} tok/s; ein Lasttest auf dieser Konfiguration entscheidet.", decimals_in(target, 1, lang)),
                    (false, Lang::De) => format!("Die Obergrenze liegt unter dem Ziel von {} tok/s: Diese Konfiguration scheitert an der Geschwindigkeit, noch bevor Last anliegt.", decimals_in(target, 1, lang)),
                };
                view! { <p class=if ok { "notice notice-ok" } else { "notice notice-error" }>{text}</p> }
            })}
            <figure class="chart chart-wide" inner_html=memory_svg></figure>
            {(!result.warnings.is_empty()).then(|| view! {
                <ul class="warnings">
                    {result.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}
                </ul>
            })}
        </section>
        <section class="card">
            <h2>{lang.pick("The arithmetic", "Die Rechnung")}</h2>
            <table class="table steps" id="sizing-steps">
                <thead><tr>
                    <th scope="col">{lang.pick("Step", "Schritt")}</th>
                    <th scope="col" class="num">{lang.pick("Value", "Wert")}</th>
                    <th scope="col">{lang.pick("Unit", "Einheit")}</th>
                    <th scope="col">{lang.pick("How", "Wie")}</th>
                </tr></thead>
                <tbody>
                    {result.steps.iter().map(|s| view! {
                        <tr>
                            <td>{s.label.clone()}</td>
                            <td class="num">{fmt_step_value(s.value, lang)}</td>
                            <td>{s.unit.clone()}</td>
                            <td class="muted">{s.formula.clone()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

#[component]
fn GpuComparison(form: WhatIf, catalog: Catalog) -> impl IntoView {
    let lang = lang();
    let rows = Memo::new(move |_| {
        catalog
            .with_value(|c| c.gpus.iter().map(|g| g.spec.clone()).collect::<Vec<_>>())
            .into_iter()
            .map(|gpu| {
                let id = gpu.id.clone();
                let name = gpu.name.clone();
                let memory = gpu.memory_driver_gib;
                let bandwidth = gpu.bandwidth_gb_s;
                (
                    id,
                    name,
                    memory,
                    bandwidth,
                    sized(&form, catalog, Some(gpu), lang).map(|(_, r)| r),
                )
            })
            .collect::<Vec<_>>()
    });
    let chart = move || {
        let selected = form.gpu.get();
        let mut bars: Vec<DecodeBar> = rows
            .get()
            .into_iter()
            .filter_map(|(id, name, _, _, result)| {
                result.ok().map(|r| DecodeBar {
                    label: name,
                    tokens_per_s: r.decode_tokens_per_s,
                    highlighted: id == selected,
                })
            })
            .collect();
        bars.sort_by(|a, b| b.tokens_per_s.total_cmp(&a.tokens_per_s));
        decode_ceiling_chart_in(&bars, target_tokens_per_s(&form), lang).unwrap_or_default()
    };
    view! {
        <section class="card">
            <h2>{lang.pick("Every GPU in the catalog, same model, precision and topology", "Jede GPU im Katalog, gleiches Modell, gleiche Präzision und Topologie")}</h2>
            <figure class="chart chart-wide" inner_html=chart></figure>
            <div class="table-scroll">
                <table class="table" id="gpu-comparison">
                    <thead><tr>
                        <th scope="col">"GPU"</th>
                        <th scope="col" class="num" title=lang.pick("as the driver (nvidia-smi) reports it", "wie der Treiber (nvidia-smi) ihn meldet")>{lang.pick("Memory, GiB", "Speicher, GiB")}</th>
                        <th scope="col" class="num">{lang.pick("Bandwidth, GB/s", "Bandbreite, GB/s")}</th>
                        <th scope="col">{lang.pick("Fits", "Passt")}</th>
                        <th scope="col" class="num">{lang.pick("Sessions", "Sitzungen")}</th>
                        <th scope="col" class="num">{lang.pick("KV cache, tokens", "KV-Cache, Token")}</th>
                        <th scope="col" class="num">{lang.pick("Decode ceiling, tok/s", "Decode-Obergrenze, tok/s")}</th>
                    </tr></thead>
                    <tbody>
                        {move || {
                            let selected = form.gpu.get();
                            rows.get().into_iter().map(|(id, name, memory, bandwidth, result)| {
                                let class = if id == selected { "selected" } else { "" };
                                match result {
                                    Ok(r) => view! {
                                        <tr class=class>
                                            <td>{name}</td>
                                            <td class="num">{decimals_in(memory, 1, lang)}</td>
                                            <td class="num">{int_in(bandwidth.round() as u64, lang)}</td>
                                            <td>{if r.fits { view! { <span class="badge badge-pass">{lang.pick("fits", "passt")}</span> } } else { view! { <span class="badge badge-fail">{lang.pick("no", "nein")}</span> } }}</td>
                                            <td class="num">{int_in(r.sessions, lang)}</td>
                                            <td class="num">{int_in(r.kv_cache_tokens, lang)}</td>
                                            <td class="num">{decimals_in(r.decode_tokens_per_s, 1, lang)}</td>
                                        </tr>
                                    }.into_any(),
                                    Err(error) => view! {
                                        <tr class=class>
                                            <td>{name}</td>
                                            <td class="num">{decimals_in(memory, 1, lang)}</td>
                                            <td class="num">{int_in(bandwidth.round() as u64, lang)}</td>
                                            <td colspan="4" class="muted">{error}</td>
                                        </tr>
                                    }.into_any(),
                                }
                            }).collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

fn recommendation(form: &WhatIf, catalog: Catalog, lang: Lang) -> Result<Vec<Candidate>, String> {
    let model = catalog
        .with_value(|c| c.model(&form.model.get()).map(|m| m.spec.clone()))
        .ok_or_else(|| not_in_catalog("model", "", lang))?;
    let memory_model =
        MemoryModel::from_str(&form.memory_model.get()).map_err(|e| e.message_in(lang))?;
    let kv = KvDtype::from_str(&form.kv.get()).map_err(|e| e.message_in(lang))?;
    let sessions: u64 = number(
        lang.pick("peak sessions", "Spitzenzahl der Sitzungen"),
        &form.peak_sessions.get(),
        lang,
    )?;
    let max_cards: u32 = number(
        lang.pick("card limit", "Kartenlimit"),
        &form.max_cards.get(),
        lang,
    )?;
    if !(1..=16).contains(&max_cards) {
        return Err(lang
            .pick(
                "card limit: between 1 and 16",
                "Kartenlimit: zwischen 1 und 16",
            )
            .into());
    }
    let mut demand = Demand {
        peak_concurrent_sessions: sessions,
        context_tokens: number(lang.pick("context", "Kontext"), &form.context.get(), lang)?,
        min_decode_tokens_per_s: None,
        max_ttft_ms: None,
        prompt_tokens: None,
    };
    demand.min_decode_tokens_per_s = target_tokens_per_s(form);
    let version = form.vllm_version.get();
    let options = RecommendOptions {
        model,
        precisions: form.allowed_precisions().unwrap_or_else(|| {
            vec![
                WeightPrecision::Bf16,
                WeightPrecision::Fp8,
                WeightPrecision::Nvfp4,
                WeightPrecision::Int4,
            ]
        }),
        kv_dtypes: vec![kv],
        gpus: catalog.with_value(|c| {
            c.gpus
                .iter()
                .map(|g| GpuOffer {
                    gpu: g.spec.clone(),
                    unit_price: g.unit_price,
                })
                .collect()
        }),
        max_cards,
        memory_model,
        allow_pipeline: false,
        gpu_memory_utilization: None,
        vllm_version: (!version.trim().is_empty()).then(|| version.trim().to_string()),
        max_num_batched_tokens: None,
        combinations: Vec::new(),
        allow_emulated: form.emulated.get() == "1",
        speed: Default::default(),
    };
    Ok(recommend_in(&demand, &options, lang))
}

#[component]
fn Recommendation(form: WhatIf, catalog: Catalog) -> impl IntoView {
    let lang = lang();
    let candidates = Memo::new(move |_| recommendation(&form, catalog, lang));
    let priced = catalog.with_value(|c| c.gpus.iter().any(|g| g.unit_price.is_some()));
    let cost_header = catalog.with_value(|c| c.with_currency(lang.pick("Cost", "Kosten")));
    view! {
        <section class="card">
            <h2>{lang.pick("Recommendation for a demand", "Empfehlung für einen Bedarf")}</h2>
            <p class="muted">{lang.pick(
                "Every configuration of every catalog GPU up to the card limit (BF16, FP8, NVFP4 and INT4 weights; the KV cache above), \
                 in the formats each card computes natively, ranked by fit to the demand and cost: by cost when every card has a price, else by fewest cards, then the headroom closest above 1× (a flagship with 25× headroom is not a better fit). \
                 Speed is the decode ceiling here, an upper bound (not established: ceiling only); the pilot's report calibrates it on the pilot's own load tests. Only precisions that passed the pilot's evaluation set belong in a real recommendation.",
                "Jede Konfiguration jeder Katalog-GPU bis zum Kartenlimit (Gewichte in BF16, FP8, NVFP4 und INT4; der KV-Cache wie oben), \
                 in den Formaten, die jede Karte nativ berechnet, geordnet nach Eignung für den Bedarf und nach Kosten: nach Kosten, wenn jede Karte einen Preis hat, sonst nach den wenigsten Karten, dann nach der Reserve, die am knappsten über 1× liegt (ein Flaggschiff mit 25× Reserve passt nicht besser). \
                 Die Geschwindigkeit ist hier die Decode-Obergrenze, eine obere Schranke (nicht belegt: nur Obergrenze); der Bericht des Pilots kalibriert sie an den eigenen Lasttests des Pilots. Nur Präzisionen, die den Evaluationsdatensatz des Pilots bestanden haben, gehören in eine echte Empfehlung.",
            )}</p>
            {form.allowed_precisions().map(|allowed| view! {
                <p class="notice notice-info" id="passing-precisions">{format!(
                    "{} {}.",
                    lang.pick(
                        "Only the precisions that passed the pilot's evaluation set:",
                        "Nur die Präzisionen, die den Evaluationsdatensatz des Pilots bestanden haben:",
                    ),
                    allowed.iter().map(|p| p.label()).collect::<Vec<_>>().join(", ")
                )}</p>
            })}
            <div class="field-row recommend-inputs">
                <div>
                    <label for="rc-sessions">{lang.pick("Peak concurrent sessions", "Gleichzeitige Sitzungen zur Spitze")}</label>
                    <input id="rc-sessions" type="number" min="1" inputmode="numeric"
                        prop:value=move || form.peak_sessions.get() value=form.peak_sessions.get_untracked()
                        on:input=move |ev| form.peak_sessions.set(event_target_value(&ev))/>
                </div>
                <div>
                    <label for="rc-cards">{lang.pick("Card limit", "Kartenlimit")}</label>
                    <input id="rc-cards" type="number" min="1" max="16" inputmode="numeric"
                        prop:value=move || form.max_cards.get() value=form.max_cards.get_untracked()
                        on:input=move |ev| form.max_cards.set(event_target_value(&ev))/>
                </div>
                <div>
                    <label for="rc-emulated" title=lang.pick("NVFP4 on Hopper, FP8 on Ampere, BF16 on Volta: the card runs them through emulation", "NVFP4 auf Hopper, FP8 auf Ampere, BF16 auf Volta: Die Karte emuliert sie")>
                        <input id="rc-emulated" type="checkbox" prop:checked=move || form.emulated.get() == "1"
                            on:change=move |ev| form.emulated.set(if event_target_checked(&ev) { "1".into() } else { String::new() })/>
                        {lang.pick(" Also size formats a card only emulates", " Auch Formate dimensionieren, die eine Karte nur emuliert")}
                    </label>
                </div>
                <p class="hint grow">{move || {
                    let target = target_tokens_per_s(&form)
                        .map(|t| format!("≥ {} tok/s (TPOT ≤ {} ms)", decimals_in(t, 1, lang), form.tpot_target_ms.get()))
                        .unwrap_or_else(|| lang.pick("none", "keines").into());
                    match lang {
                        Lang::En => format!("Context {} tokens per session; per-stream target {target}.", form.context.get()),
                        Lang::De => format!("Kontext {} Token je Sitzung; Ziel je Stream {target}.", form.context.get()),
                    }
                }}</p>
            </div>
            {move || match candidates.get() {
                Err(error) => view! { <div class="notice notice-error" role="alert">{error}</div> }.into_any(),
                Ok(all) => {
                    let feasible: Vec<Candidate> = all.iter().filter(|c| c.feasible).take(12).cloned().collect();
                    let rejected = all.iter().filter(|c| !c.feasible).count();
                    if feasible.is_empty() {
                        return view! {
                            <div class="empty-state">
                                <h3>{lang.pick("No configuration meets this demand", "Keine Konfiguration erfüllt diesen Bedarf")}</h3>
                                <p>{match lang {
                                    Lang::En => format!("All {rejected} configurations fail on memory, speed or format support. Raise the card limit, allow a smaller precision, or lower the target."),
                                    Lang::De => format!("Alle {rejected} Konfigurationen scheitern an Speicher, Geschwindigkeit oder Formatunterstützung. Erhöhen Sie das Kartenlimit, lassen Sie eine kleinere Präzision zu oder senken Sie das Ziel."),
                                }}</p>
                            </div>
                        }.into_any();
                    }
                    view! {
                        <div class="table-scroll">
                            <table class="table" id="recommendation">
                                <thead><tr>
                                    <th scope="col" class="num">{lang.pick("Rank", "Rang")}</th><th scope="col">"GPU"</th><th scope="col">{lang.pick("Weights", "Gewichte")}</th>
                                    <th scope="col">{lang.pick("Topology", "Topologie")}</th><th scope="col" class="num">{lang.pick("Cards", "Karten")}</th>
                                    <th scope="col" class="num">{lang.pick("Sessions", "Sitzungen")}</th>
                                    <th scope="col" class="num" title=lang.pick("sessions that fit ÷ sessions needed", "passende Sitzungen ÷ benötigte Sitzungen")>{lang.pick("Headroom ×", "Reserve ×")}</th>
                                    <th scope="col" class="num" title=lang.pick("bandwidth ÷ bytes read per token: an upper bound no system reaches", "Bandbreite ÷ je Token gelesene Bytes: eine obere Schranke, die kein System erreicht")>
                                        {lang.pick("Decode ceiling, tok/s (upper bound)", "Decode-Obergrenze, tok/s (obere Schranke)")}
                                    </th>
                                    {priced.then(|| view! { <th scope="col" class="num" title=lang.pick("unit price × cards, where prices are set", "Stückpreis × Karten, wo Preise gesetzt sind")>{cost_header.clone()}</th> })}
                                    <th scope="col">{lang.pick("Arithmetic", "Rechnung")}</th>
                                </tr></thead>
                                <tbody>
                                    {feasible.into_iter().map(|c| view! {
                                        <tr>
                                            <td class="num">{c.rank.map(|r| r.to_string()).unwrap_or_default()}</td>
                                            <td>{c.gpu_name.clone()}</td>
                                            <td>{c.precision.label()}{c.format_note.clone().map(|n| view! { <span class="small muted" title=n>{lang.pick(" (emulated)", " (emuliert)")}</span> })}</td>
                                            <td>{c.topology.label_in(lang)}</td>
                                            <td class="num">{c.cards}</td>
                                            <td class="num">{int_in(c.sessions, lang)}</td>
                                            <td class="num">{format!("{}×", decimals_in(c.headroom, 2, lang))}</td>
                                            <td class="num">{decimals_in(c.decode_tokens_per_s, 1, lang)}</td>
                                            {priced.then(|| view! { <td class="num">{c.cost.map(|cost| int_in(cost.round() as u64, lang)).unwrap_or_else(|| lang.pick("no price", "kein Preis").into())}</td> })}
                                            <td>
                                                <details>
                                                    <summary>{lang.pick("show", "anzeigen")}</summary>
                                                    <ol class="arithmetic">
                                                        {c.steps.iter().map(|s| view! { <li><strong>{s.label.clone()}</strong>": "{s.formula.clone()}</li> }).collect_view()}
                                                    </ol>
                                                </details>
                                            </td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                        <p class="muted small">{match lang {
                            Lang::En => format!("{rejected} other configurations do not fit, miss the target, or need a format the card lacks. Ceilings are upper bounds; the last step is always a load test on the candidate."),
                            Lang::De => format!("{rejected} weitere Konfigurationen passen nicht, verfehlen das Ziel oder brauchen ein Format, das der Karte fehlt. Obergrenzen sind obere Schranken; der letzte Schritt ist immer ein Lasttest auf dem Kandidaten."),
                        }}</p>
                    }.into_any()
                }
            }}
        </section>
    }
}

pub use desk::catalog::{guess_gpu_id, guess_model_id};
