//! GPU catalog administration: prices, edited figures and added cards (admins).

use crate::api::catalog::{
    DeleteModel, ResetGpu, SaveGpu, SetGpuPrice, SetPriceCurrency, admin_gpu_catalog,
};
use crate::components::{ActionResult, ErrorNotice, PageHeader};
use crate::model::{CatalogGpu, CatalogOrigin};
use engine::sizing::FormatSupport;
use leptos::prelude::*;
use leptos_meta::Title;

fn support(format: FormatSupport) -> &'static str {
    match format {
        FormatSupport::Native => "native",
        FormatSupport::WeightOnly => "weight-only",
        FormatSupport::Unsupported => "no",
    }
}

/// Whether the card can still be ordered (with its date), and whether the guide's supplier
/// offers it; the sources as the cell's title.
fn availability(spec: &engine::sizing::GpuSpec) -> impl IntoView + use<> {
    let record = engine::sizing::availability_of(spec);
    let title = record
        .as_ref()
        .map(|a| {
            let mut lines = a.sources.clone();
            lines.extend(a.note.clone());
            lines.join("\n")
        })
        .unwrap_or_else(|| "not stated: a card added here counts as orderable".to_string());
    let status = record.as_ref().map_or_else(
        || "not stated".to_string(),
        |a| a.status_in(engine::locale::Lang::En),
    );
    let offered = record.as_ref().is_some_and(|a| a.supplier_offers);
    view! {
        <span title=title>{status}</span>
        {offered.then(|| view! { " " <span class="badge">"guide's supplier"</span> })}
    }
}

fn origin_badge(origin: CatalogOrigin) -> impl IntoView {
    match origin {
        CatalogOrigin::Reviewed => view! { <span class="badge">"reviewed"</span> },
        CatalogOrigin::Edited => view! { <span class="badge badge-warn">"edited here"</span> },
        CatalogOrigin::Added => view! { <span class="badge badge-staff">"added here"</span> },
    }
}

#[component]
fn GpuRow(
    gpu: CatalogGpu,
    price: ServerAction<SetGpuPrice>,
    reset: ServerAction<ResetGpu>,
) -> impl IntoView {
    let spec = gpu.spec.clone();
    let fp4 = match (spec.nvfp4, spec.mxfp4) {
        (FormatSupport::Native, FormatSupport::Native) => "NVFP4 + MXFP4".to_string(),
        (FormatSupport::Native, _) => "NVFP4".to_string(),
        (_, FormatSupport::Native) => "MXFP4".to_string(),
        (a, _) => support(a).to_string(),
    };
    let resettable = gpu.origin != CatalogOrigin::Reviewed
        || gpu.unit_price.is_some()
        || gpu.hour_price.is_some();
    let reset_id = spec.id.clone();
    view! {
        <tr>
            <td>
                <div class="strong">{spec.name.clone()}</div>
                <div class="muted small mono">{spec.id.clone()}</div>
            </td>
            <td>{origin_badge(gpu.origin)}</td>
            <td class="num">{format!("{:.1}", spec.memory_driver_gib)}</td>
            <td class="num">{format!("{:.2}{}", spec.memory_cuda_gib, if spec.memory_cuda_estimated { " (est.)" } else { "" })}</td>
            <td class="num">{format!("{:.0}", spec.bandwidth_gb_s)}</td>
            <td>{support(spec.fp8)}</td>
            <td>{fp4}</td>
            <td class="small">{availability(&spec)}</td>
            <td>
                <ActionForm action=price attr:class="inline-row price-form">
                    <input type="hidden" name="id" value=spec.id.clone()/>
                    <input name="unit_price" inputmode="decimal" aria-label=format!("Unit price of {}", spec.name)
                        value=gpu.unit_price.map(|p| format!("{p}")).unwrap_or_default() placeholder="per card"/>
                    <input name="hour_price" inputmode="decimal" aria-label=format!("Price per GPU-hour of {}", spec.name)
                        value=gpu.hour_price.map(|p| format!("{p}")).unwrap_or_default() placeholder="per hour"/>
                    <button type="submit" class="button button-small button-quiet">"Set"</button>
                </ActionForm>
            </td>
            <td class="row-actions">
                {resettable.then(|| view! {
                    <ActionForm action=reset>
                        <input type="hidden" name="id" value=reset_id/>
                        <button type="submit" class="button button-small button-quiet"
                            title="Back to the reviewed figures (or remove an added card); both prices are cleared">
                            {if gpu.origin == CatalogOrigin::Added { "Remove" } else { "Reset" }}
                        </button>
                    </ActionForm>
                })}
            </td>
        </tr>
    }
}

#[component]
pub fn GpuCatalogPage() -> impl IntoView {
    let save = ServerAction::<SaveGpu>::new();
    let price = ServerAction::<SetGpuPrice>::new();
    let reset = ServerAction::<ResetGpu>::new();
    let delete_model = ServerAction::<DeleteModel>::new();
    let currency = ServerAction::<SetPriceCurrency>::new();
    let catalog = crate::components::page_resource(
        move || {
            (
                save.version().get(),
                price.version().get(),
                reset.version().get(),
                delete_model.version().get(),
                currency.version().get(),
            )
        },
        |_| admin_gpu_catalog(),
    );
    view! {
        <Title text="GPU catalog"/>
        <PageHeader title="GPU catalog" subtitle="The reviewed GPU table, with this installation's prices, edited figures and added cards. Prices are staff-only: a unit price makes recommendations show cost (unit price × cards); a price per GPU-hour shows what 1M tokens cost at the operating point the capacity twin predicts (internal report edition)."/>
        // Everything below renders only once the admin-only catalog has loaded: anyone else gets
        // the 403/404 notice and nothing of the page.
        <ActionResult value=price.value() success=|_: ()| "Price saved.".to_string()/>
        <ActionResult value=reset.value() success=|_: ()| "Back to the reviewed figures.".to_string()/>
        <ActionResult value=currency.value() success=|_: ()| "Currency saved.".to_string()/>
        <Suspense fallback=|| view! { <p class="loading">"Loading the catalog…"</p> }>
            {move || Suspend::new(async move {
                let catalog = match catalog.await {
                    Ok(catalog) => catalog,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                let added_models: Vec<_> = catalog.models.iter().filter(|m| m.origin == CatalogOrigin::Added).cloned().collect();
                let prices_header = match &catalog.currency {
                    Some(code) => format!("Prices ({code}): per card · per GPU-hour"),
                    None => "Prices: per card · per GPU-hour".to_string(),
                };
                view! {
                    <section class="card" id="price-currency">
                        <ActionForm action=currency attr:class="inline-row">
                            <div>
                                <label for="currency">"Currency of the prices"</label>
                                <input id="currency" name="currency" maxlength="3" size="5" autocomplete="off"
                                    pattern="[A-Za-z]{3}" title="three letters, e.g. EUR or USD" placeholder="e.g. EUR"
                                    value=catalog.currency.clone().unwrap_or_default()/>
                            </div>
                            <button type="submit" class="button">"Save currency"</button>
                        </ActionForm>
                        <p class="hint small">"An ISO 4217 code. Every price below and every cost staff see (sizing, the capacity twin, the report's internal edition) names it; empty: plain numbers."</p>
                    </section>
                    <div class="card table-card">
                        <table class="table" id="gpu-catalog">
                            <thead><tr>
                                <th scope="col">"GPU"</th><th scope="col">"Source"</th>
                                <th scope="col" class="num" title="as nvidia-smi reports it">"Driver GiB"</th>
                                <th scope="col" class="num" title="what CUDA (and vLLM) sees">"CUDA GiB"</th>
                                <th scope="col" class="num">"GB/s"</th>
                                <th scope="col">"FP8"</th><th scope="col">"FP4"</th>
                                <th scope="col" title="whether the card can still be ordered; the recommendation leaves out the others unless asked">"Availability"</th>
                                <th scope="col" title="per card bought; and per GPU-hour run (cloud rate or amortised)">{prices_header}</th>
                                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                            </tr></thead>
                            <tbody>
                                {catalog.gpus.into_iter().map(|gpu| view! { <GpuRow gpu price reset/> }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                    <section class="card">
                        <h2>"Models added here"</h2>
                        {if added_models.is_empty() {
                            view! { <p class="muted">"None yet. Staff add models on the "<a href="/sizing#add-model">"sizing page"</a>" by pasting a config.json."</p> }.into_any()
                        } else {
                            view! {
                                <table class="table">
                                    <thead><tr><th scope="col">"Model"</th><th scope="col" class="num">"Layers"</th><th scope="col" class="num">"KV heads"</th><th scope="col"><span class="visually-hidden">"Actions"</span></th></tr></thead>
                                    <tbody>
                                        {added_models.into_iter().map(|m| view! {
                                            <tr>
                                                <td><div class="strong">{m.spec.name.clone()}</div><div class="muted small mono">{m.spec.id.clone()}</div></td>
                                                <td class="num">{m.spec.layers}</td>
                                                <td class="num">{m.spec.kv_heads}</td>
                                                <td class="row-actions">
                                                    <ActionForm action=delete_model>
                                                        <input type="hidden" name="id" value=m.spec.id.clone()/>
                                                        <button type="submit" class="button button-small button-quiet">"Remove"</button>
                                                    </ActionForm>
                                                </td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            }.into_any()
                        }}
                    </section>
                    <section class="card form-card">
                        <h2>"Add or edit a GPU"</h2>
                        <p class="muted">"Give a new id to add a card, or a catalog id (e.g. "<code>"l40s"</code>") to replace its figures on this installation. Memory as the driver ("<code>"nvidia-smi"</code>") reports it."</p>
                        <ActionResult value=save.value() success=|id: String| format!("Saved GPU `{id}`.")/>
                        <ActionForm action=save attr:class="form">
                            <div class="field-row">
                                <div class="grow"><label for="g-name">"Name"</label><input id="g-name" name="name" required maxlength="100" placeholder="e.g. NVIDIA H20"/></div>
                                <div class="grow"><label for="g-id">"Id"</label><input id="g-id" name="id" maxlength="60" placeholder="from the name when empty"/></div>
                            </div>
                            <div class="field-row">
                                <div class="grow"><label for="g-driver">"Memory, driver GiB"</label><input id="g-driver" name="memory_driver_gib" required inputmode="decimal"/></div>
                                <div class="grow"><label for="g-cuda">"Memory, CUDA GiB"</label><input id="g-cuda" name="memory_cuda_gib" inputmode="decimal" placeholder="driver − 0.6 when empty"/></div>
                                <div class="grow"><label for="g-bw">"Bandwidth, GB/s"</label><input id="g-bw" name="bandwidth_gb_s" required inputmode="decimal"/></div>
                            </div>
                            <div class="field-row">
                                <div class="grow"><label for="g-tflops">"Dense BF16 TFLOPS"</label><input id="g-tflops" name="bf16_dense_tflops" inputmode="decimal"/></div>
                                <div class="grow">
                                    <label for="g-fp8">"FP8"</label>
                                    <select id="g-fp8" name="fp8"><option value="native">"native"</option><option value="weight_only">"weight-only"</option><option value="unsupported">"no"</option></select>
                                </div>
                                <div class="grow">
                                    <label for="g-fp4">"FP4 tensor cores"</label>
                                    <select id="g-fp4" name="fp4"><option value="none">"none (weight-only)"</option><option value="nvfp4">"NVFP4"</option><option value="mxfp4">"MXFP4"</option><option value="both">"both"</option></select>
                                </div>
                            </div>
                            <div class="field-row">
                                <div class="grow"><label for="g-price">"Unit price"</label><input id="g-price" name="unit_price" inputmode="decimal" placeholder="per card"/></div>
                                <div class="grow"><label for="g-hour-price">"Price per GPU-hour"</label><input id="g-hour-price" name="hour_price" inputmode="decimal" placeholder="cloud rate or amortised"/></div>
                            </div>
                            <div class="form-actions"><button type="submit" class="button button-primary">"Save GPU"</button></div>
                        </ActionForm>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}
