//! GPU catalog administration: prices, edited figures and added cards (admins).

use crate::api::catalog::{
    DeleteModel, ResetGpu, SaveGpu, SetGpuPrice, SetPriceCurrency, admin_gpu_catalog,
};
use crate::components::{ActionResult, ErrorNotice, PageHeader, lang};
use crate::model::{CatalogGpu, CatalogOrigin};
use engine::locale::Lang;
use engine::sizing::FormatSupport;
use leptos::prelude::*;
use leptos_meta::Title;

fn support(format: FormatSupport, lang: Lang) -> &'static str {
    match format {
        FormatSupport::Native => lang.pick("native", "nativ"),
        FormatSupport::WeightOnly => lang.pick("weight-only", "nur Gewichte"),
        FormatSupport::Unsupported => lang.pick("no", "nein"),
    }
}

/// A figure of the table: `1234.5` in English (as it always read), `1.234,5` in German.
fn figure(value: f64, decimals: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{value:.decimals$}"),
        Lang::De => lang.number(value, decimals),
    }
}

/// Whether the card can still be ordered (with its date), and whether the guide's supplier
/// offers it; the sources as the cell's title.
fn availability(spec: &engine::sizing::GpuSpec, lang: Lang) -> impl IntoView + use<> {
    let record = engine::sizing::availability_of(spec);
    let title = record
        .as_ref()
        .map(|a| {
            // Our note in the reader's language, then the sources cited as published.
            let mut lines: Vec<String> = a.note_in(lang).map(str::to_string).into_iter().collect();
            lines.push(lang.pick("Sources:", "Quellen:").to_string());
            lines.extend(a.sources.iter().cloned());
            lines.join("\n")
        })
        .unwrap_or_else(|| {
            lang.pick(
                "not stated: a card added here counts as orderable",
                "nicht angegeben: Eine hier hinzugefügte Karte gilt als bestellbar",
            )
            .to_string()
        });
    let status = record.as_ref().map_or_else(
        || lang.pick("not stated", "nicht angegeben").to_string(),
        |a| a.status_in(lang),
    );
    let offered = record.as_ref().is_some_and(|a| a.supplier_offers);
    view! {
        <span title=title>{status}</span>
        {offered.then(|| view! { " " <span class="badge">{lang.pick("guide's supplier", "Lieferant des Leitfadens")}</span> })}
    }
}

fn origin_badge(origin: CatalogOrigin, lang: Lang) -> impl IntoView {
    match origin {
        CatalogOrigin::Reviewed => {
            view! { <span class="badge">{lang.pick("reviewed", "geprüft")}</span> }
        }
        CatalogOrigin::Edited => {
            view! { <span class="badge badge-warn">{lang.pick("edited here", "hier geändert")}</span> }
        }
        CatalogOrigin::Added => {
            view! { <span class="badge badge-staff">{lang.pick("added here", "hier hinzugefügt")}</span> }
        }
    }
}

#[component]
fn GpuRow(
    gpu: CatalogGpu,
    price: ServerAction<SetGpuPrice>,
    reset: ServerAction<ResetGpu>,
) -> impl IntoView {
    let lang = lang();
    let spec = gpu.spec.clone();
    let fp4 = match (spec.nvfp4, spec.mxfp4) {
        (FormatSupport::Native, FormatSupport::Native) => "NVFP4 + MXFP4".to_string(),
        (FormatSupport::Native, _) => "NVFP4".to_string(),
        (_, FormatSupport::Native) => "MXFP4".to_string(),
        (a, _) => support(a, lang).to_string(),
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
            <td>{origin_badge(gpu.origin, lang)}</td>
            <td class="num">{figure(spec.memory_driver_gib, 1, lang)}</td>
            <td class="num">{format!("{}{}", figure(spec.memory_cuda_gib, 2, lang), if spec.memory_cuda_estimated { lang.pick(" (est.)", " (geschätzt)") } else { "" })}</td>
            <td class="num">{figure(spec.bandwidth_gb_s, 0, lang)}</td>
            <td>{support(spec.fp8, lang)}</td>
            <td>{fp4}</td>
            <td class="small">{availability(&spec, lang)}</td>
            <td>
                <ActionForm action=price attr:class="inline-row price-form">
                    <input type="hidden" name="id" value=spec.id.clone()/>
                    <input name="unit_price" inputmode="decimal" aria-label=match lang {
                        Lang::En => format!("Unit price of {}", spec.name),
                        Lang::De => format!("Stückpreis von {}", spec.name),
                    }
                        value=gpu.unit_price.map(|p| format!("{p}")).unwrap_or_default() placeholder=lang.pick("per card", "je Karte")/>
                    <input name="hour_price" inputmode="decimal" aria-label=match lang {
                        Lang::En => format!("Price per GPU-hour of {}", spec.name),
                        Lang::De => format!("Preis je GPU-Stunde von {}", spec.name),
                    }
                        value=gpu.hour_price.map(|p| format!("{p}")).unwrap_or_default() placeholder=lang.pick("per hour", "je Stunde")/>
                    <button type="submit" class="button button-small button-quiet">{lang.pick("Set", "Setzen")}</button>
                </ActionForm>
            </td>
            <td class="row-actions">
                {resettable.then(|| view! {
                    <ActionForm action=reset>
                        <input type="hidden" name="id" value=reset_id/>
                        <button type="submit" class="button button-small button-quiet"
                            title=lang.pick(
                                "Back to the reviewed figures (or remove an added card); both prices are cleared",
                                "Zurück zu den geprüften Werten (oder eine hinzugefügte Karte entfernen); beide Preise werden gelöscht",
                            )>
                            {if gpu.origin == CatalogOrigin::Added { lang.pick("Remove", "Entfernen") } else { lang.pick("Reset", "Zurücksetzen") }}
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
    let lang = lang();
    let title = lang.pick("GPU catalog", "GPU-Katalog");
    view! {
        <Title text=title/>
        <PageHeader title=title subtitle=lang.pick(
            "The reviewed GPU table, with this installation's prices, edited figures and added cards. Prices are staff-only: a unit price makes recommendations show cost (unit price × cards); a price per GPU-hour shows what 1M tokens cost at the operating point the capacity twin predicts (internal report edition).",
            "Die geprüfte GPU-Tabelle mit den Preisen, geänderten Werten und hinzugefügten Karten dieser Installation. Preise sehen nur Mitarbeiter: Ein Stückpreis lässt Empfehlungen die Kosten zeigen (Stückpreis × Karten); ein Preis je GPU-Stunde zeigt, was 1 Mio. Token an dem Betriebspunkt kosten, den der Kapazitäts-Zwilling vorhersagt (interne Ausgabe des Berichts).",
        )/>
        // Everything below renders only once the admin-only catalog has loaded: anyone else gets
        // the 403/404 notice and nothing of the page.
        <ActionResult value=price.value() success=move |_: ()| lang.pick("Price saved.", "Preis gespeichert.").to_string()/>
        <ActionResult value=reset.value() success=move |_: ()| lang.pick("Back to the reviewed figures.", "Zurück zu den geprüften Werten.").to_string()/>
        <ActionResult value=currency.value() success=move |_: ()| lang.pick("Currency saved.", "Währung gespeichert.").to_string()/>
        <Suspense fallback=move || view! { <p class="loading">{lang.pick("Loading the catalog…", "Katalog wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                let catalog = match catalog.await {
                    Ok(catalog) => catalog,
                    Err(error) => return view! { <ErrorNotice error/> }.into_any(),
                };
                let added_models: Vec<_> = catalog.models.iter().filter(|m| m.origin == CatalogOrigin::Added).cloned().collect();
                let prices_header = match (&catalog.currency, lang) {
                    (Some(code), Lang::En) => format!("Prices ({code}): per card · per GPU-hour"),
                    (Some(code), Lang::De) => format!("Preise ({code}): je Karte · je GPU-Stunde"),
                    (None, _) => lang.pick("Prices: per card · per GPU-hour", "Preise: je Karte · je GPU-Stunde").to_string(),
                };
                view! {
                    <section class="card" id="price-currency">
                        <ActionForm action=currency attr:class="inline-row">
                            <div>
                                <label for="currency">{lang.pick("Currency of the prices", "Währung der Preise")}</label>
                                <input id="currency" name="currency" maxlength="3" size="5" autocomplete="off"
                                    pattern="[A-Za-z]{3}" title=lang.pick("three letters, e.g. EUR or USD", "drei Buchstaben, z. B. EUR oder USD") placeholder=lang.pick("e.g. EUR", "z. B. EUR")
                                    value=catalog.currency.clone().unwrap_or_default()/>
                            </div>
                            <button type="submit" class="button">{lang.pick("Save currency", "Währung speichern")}</button>
                        </ActionForm>
                        <p class="hint small">{lang.pick(
                            "An ISO 4217 code. Every price below and every cost staff see (sizing, the capacity twin, the report's internal edition) names it; empty: plain numbers.",
                            "Ein Code nach ISO 4217. Jeder Preis unten und alle Kosten, die Mitarbeiter sehen (Dimensionierung, Kapazitäts-Zwilling, interne Ausgabe des Berichts), nennen ihn; leer: reine Zahlen.",
                        )}</p>
                    </section>
                    <div class="card table-card">
                        <table class="table" id="gpu-catalog">
                            <thead><tr>
                                <th scope="col">"GPU"</th><th scope="col">{lang.pick("Source", "Quelle")}</th>
                                <th scope="col" class="num" title=lang.pick("as nvidia-smi reports it", "wie nvidia-smi ihn meldet")>{lang.pick("Driver GiB", "Treiber-GiB")}</th>
                                <th scope="col" class="num" title=lang.pick("what CUDA (and vLLM) sees", "was CUDA (und vLLM) sieht")>{lang.pick("CUDA GiB", "CUDA-GiB")}</th>
                                <th scope="col" class="num">"GB/s"</th>
                                <th scope="col">"FP8"</th><th scope="col">"FP4"</th>
                                <th scope="col" title=lang.pick(
                                    "whether the card can still be ordered; the recommendation leaves out the others unless asked",
                                    "ob die Karte noch bestellbar ist; die Empfehlung lässt die übrigen weg, wenn nicht anders gewünscht",
                                )>{lang.pick("Availability", "Verfügbarkeit")}</th>
                                <th scope="col" title=lang.pick(
                                    "per card bought; and per GPU-hour run (cloud rate or amortised)",
                                    "je gekaufter Karte und je betriebener GPU-Stunde (Cloud-Preis oder abgeschrieben)",
                                )>{prices_header}</th>
                                <th scope="col"><span class="visually-hidden">{lang.pick("Actions", "Aktionen")}</span></th>
                            </tr></thead>
                            <tbody>
                                {catalog.gpus.into_iter().map(|gpu| view! { <GpuRow gpu price reset/> }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                    <section class="card">
                        <h2>{lang.pick("Models added here", "Hier hinzugefügte Modelle")}</h2>
                        {if added_models.is_empty() {
                            match lang {
                                Lang::En => view! { <p class="muted">"None yet. Staff add models on the "<a href="/sizing#add-model">"sizing page"</a>" by pasting a config.json."</p> }.into_any(),
                                Lang::De => view! { <p class="muted">"Noch keine. Mitarbeiter fügen Modelle auf der "<a href="/sizing#add-model">"Dimensionierungsseite"</a>" hinzu, indem sie eine config.json einfügen."</p> }.into_any(),
                            }
                        } else {
                            view! {
                                <table class="table">
                                    <thead><tr><th scope="col">{lang.pick("Model", "Modell")}</th><th scope="col" class="num">{lang.pick("Layers", "Schichten")}</th><th scope="col" class="num">{lang.pick("KV heads", "KV-Köpfe")}</th><th scope="col"><span class="visually-hidden">{lang.pick("Actions", "Aktionen")}</span></th></tr></thead>
                                    <tbody>
                                        {added_models.into_iter().map(move |m| view! {
                                            <tr>
                                                <td><div class="strong">{m.spec.name.clone()}</div><div class="muted small mono">{m.spec.id.clone()}</div></td>
                                                <td class="num">{m.spec.layers}</td>
                                                <td class="num">{m.spec.kv_heads}</td>
                                                <td class="row-actions">
                                                    <ActionForm action=delete_model>
                                                        <input type="hidden" name="id" value=m.spec.id.clone()/>
                                                        <button type="submit" class="button button-small button-quiet">{lang.pick("Remove", "Entfernen")}</button>
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
                        <h2>{lang.pick("Add or edit a GPU", "GPU hinzufügen oder ändern")}</h2>
                        {match lang {
                            Lang::En => view! { <p class="muted">"Give a new id to add a card, or a catalog id (e.g. "<code>"l40s"</code>") to replace its figures on this installation. Memory as the driver ("<code>"nvidia-smi"</code>") reports it."</p> }.into_any(),
                            Lang::De => view! { <p class="muted">"Eine neue Id fügt eine Karte hinzu, eine Id aus dem Katalog (z. B. "<code>"l40s"</code>") ersetzt deren Werte in dieser Installation. Speicher so, wie der Treiber ("<code>"nvidia-smi"</code>") ihn meldet."</p> }.into_any(),
                        }}
                        <ActionResult value=save.value() success=move |id: String| match lang {
                            Lang::En => format!("Saved GPU `{id}`."),
                            Lang::De => format!("GPU `{id}` gespeichert."),
                        }/>
                        <ActionForm action=save attr:class="form">
                            <div class="field-row">
                                <div class="grow"><label for="g-name">"Name"</label><input id="g-name" name="name" required maxlength="100" placeholder=lang.pick("e.g. NVIDIA H20", "z. B. NVIDIA H20")/></div>
                                <div class="grow"><label for="g-id">"Id"</label><input id="g-id" name="id" maxlength="60" placeholder=lang.pick("from the name when empty", "aus dem Namen, wenn leer")/></div>
                            </div>
                            <div class="field-row">
                                <div class="grow"><label for="g-driver">{lang.pick("Memory, driver GiB", "Speicher, Treiber-GiB")}</label><input id="g-driver" name="memory_driver_gib" required inputmode="decimal"/></div>
                                <div class="grow"><label for="g-cuda">{lang.pick("Memory, CUDA GiB", "Speicher, CUDA-GiB")}</label><input id="g-cuda" name="memory_cuda_gib" inputmode="decimal" placeholder=lang.pick("driver − 0.6 when empty", "Treiber − 0,6, wenn leer")/></div>
                                <div class="grow"><label for="g-bw">{lang.pick("Bandwidth, GB/s", "Bandbreite, GB/s")}</label><input id="g-bw" name="bandwidth_gb_s" required inputmode="decimal"/></div>
                            </div>
                            <div class="field-row">
                                <div class="grow"><label for="g-tflops">{lang.pick("Dense BF16 TFLOPS", "BF16-TFLOPS (dicht)")}</label><input id="g-tflops" name="bf16_dense_tflops" inputmode="decimal"/></div>
                                <div class="grow">
                                    <label for="g-fp8">"FP8"</label>
                                    <select id="g-fp8" name="fp8">
                                        <option value="native">{support(FormatSupport::Native, lang)}</option>
                                        <option value="weight_only">{support(FormatSupport::WeightOnly, lang)}</option>
                                        <option value="unsupported">{support(FormatSupport::Unsupported, lang)}</option>
                                    </select>
                                </div>
                                <div class="grow">
                                    <label for="g-fp4">{lang.pick("FP4 tensor cores", "FP4-Tensorkerne")}</label>
                                    <select id="g-fp4" name="fp4">
                                        <option value="none">{lang.pick("none (weight-only)", "keine (nur Gewichte)")}</option>
                                        <option value="nvfp4">"NVFP4"</option><option value="mxfp4">"MXFP4"</option>
                                        <option value="both">{lang.pick("both", "beide")}</option>
                                    </select>
                                </div>
                            </div>
                            <div class="field-row">
                                <div class="grow"><label for="g-price">{lang.pick("Unit price", "Stückpreis")}</label><input id="g-price" name="unit_price" inputmode="decimal" placeholder=lang.pick("per card", "je Karte")/></div>
                                <div class="grow"><label for="g-hour-price">{lang.pick("Price per GPU-hour", "Preis je GPU-Stunde")}</label><input id="g-hour-price" name="hour_price" inputmode="decimal" placeholder=lang.pick("cloud rate or amortised", "Cloud-Preis oder abgeschrieben")/></div>
                            </div>
                            <div class="form-actions"><button type="submit" class="button button-primary">{lang.pick("Save GPU", "GPU speichern")}</button></div>
                        </ActionForm>
                    </section>
                }.into_any()
            })}
        </Suspense>
    }
}
