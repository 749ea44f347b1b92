//! The evidence upload form: a drop zone for several files at once with a progress bar per file,
//! and the run-context fields (or a pasted `vllm serve …` line / ServingRuntime YAML).
//!
//! Without JavaScript it is a plain multipart form posting one file to `POST /pilots/{id}/evidence`,
//! which redirects back with the outcome. Once hydrated, a small script takes over: files dropped
//! on the zone or chosen in the picker are each POSTed to `POST /api/v1/pilots/{id}/evidence` with
//! the session cookie and the form's run-context fields, progress comes from XMLHttpRequest upload
//! events, and each file ends with its outcome (stored as #…, or the importer's error naming file,
//! line and field; a duplicate answers 409).
//!
//! "What is it?" names the kind: detected (load tests, start-up logs, gateway logs, `/metrics`
//! scrapes, lm-evaluation-harness results), or an evaluation set or run (CSV or JSON Lines,
//! never guessed). An evaluation run takes its serving configuration from the "Evaluation run"
//! fields (model, weight and KV-cache precision) and the run-context fields (engine, version,
//! GPU); that fieldset is switched off for other kinds once hydrated.

use engine::run_context::RunContext;
use leptos::prelude::*;

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r##"
export function init_dropzone(formId, url, onDone) {
  window.__pdUpload = { formId, url, onDone };
  const fmtSize = (n) => n < 1024 ? n + " B" : n < 1048576 ? (n / 1024).toFixed(1) + " KiB" : (n / 1048576).toFixed(1) + " MiB";
  const enhance = (tries) => {
    const form = document.getElementById(formId);
    if (!form) { if (tries > 0) setTimeout(() => enhance(tries - 1), 100); return; }
    const input = form.querySelector("input[type=file]");
    input.multiple = true;
    input.required = false;
    form.classList.add("enhanced");
  };
  enhance(50);
  if (window.__pdUploadBound) return;
  window.__pdUploadBound = true;
  let pending = 0;
  const send = (form, file) => {
    const cfg = window.__pdUpload;
    const list = form.querySelector(".upload-list");
    const item = document.createElement("li");
    item.className = "upload-item";
    const name = document.createElement("span");
    name.className = "upload-name";
    name.textContent = file.name + " (" + fmtSize(file.size) + ")";
    const bar = document.createElement("progress");
    bar.max = 100; bar.value = 0;
    const status = document.createElement("span");
    status.className = "upload-status";
    status.textContent = "waiting…";
    item.append(name, bar, status);
    list.append(item);
    const data = new FormData(form);
    data.delete("file");
    for (const [k, v] of Array.from(data.entries())) { if (v === "") data.delete(k); }
    data.append("file", file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", cfg.url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) { bar.value = Math.round(e.loaded * 100 / e.total); status.textContent = bar.value + " %"; }
    };
    pending += 1;
    const finish = (ok, text) => {
      bar.value = 100;
      item.classList.add(ok ? "upload-ok" : "upload-error");
      status.textContent = text;
      status.setAttribute("role", ok ? "status" : "alert");
      pending -= 1;
      if (pending === 0) window.__pdUpload.onDone();
    };
    xhr.onload = () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (_) {}
      if (xhr.status === 201) {
        const points = body.summary && body.summary.points ? ", " + body.summary.points.length + " operating point(s)" : "";
        const note = body.note ? " — " + body.note : "";
        finish(true, "Stored as evidence #" + body.id + " (" + body.kind + points + ")" + note);
      } else if (xhr.status === 409) {
        finish(false, "Duplicate: " + (body.error || "already stored"));
      } else {
        finish(false, "Refused (" + xhr.status + "): " + (body.error || xhr.statusText));
      }
    };
    xhr.onerror = () => finish(false, "Network error: the upload did not reach the server");
    xhr.send(data);
  };
  const formOf = (target) => target && target.closest ? target.closest("#" + window.__pdUpload.formId) : null;
  const sendAll = (form, files) => { for (const f of Array.from(files)) send(form, f); };
  document.addEventListener("change", (e) => {
    const form = formOf(e.target);
    if (form && e.target.type === "file" && e.target.files.length) { sendAll(form, e.target.files); e.target.value = ""; }
  });
  document.addEventListener("submit", (e) => {
    const form = formOf(e.target);
    if (!form) return;
    e.preventDefault();
    const input = form.querySelector("input[type=file]");
    if (input.files.length) { sendAll(form, input.files); input.value = ""; } else { input.click(); }
  }, true);
  for (const ev of ["dragenter", "dragover"]) document.addEventListener(ev, (e) => {
    const zone = e.target.closest && e.target.closest(".dropzone");
    if (zone && formOf(zone)) { e.preventDefault(); zone.classList.add("dragging"); }
  });
  document.addEventListener("dragleave", (e) => {
    const zone = e.target.closest && e.target.closest(".dropzone");
    if (zone) zone.classList.remove("dragging");
  });
  document.addEventListener("drop", (e) => {
    const zone = e.target.closest && e.target.closest(".dropzone");
    const form = formOf(zone);
    if (!form) return;
    e.preventDefault();
    zone.classList.remove("dragging");
    if (e.dataTransfer && e.dataTransfer.files.length) sendAll(form, e.dataTransfer.files);
  });
}
"##)]
extern "C" {
    fn init_dropzone(form_id: &str, url: &str, on_done: wasm_bindgen::JsValue);
}

fn text(value: &Option<String>) -> String {
    value.clone().unwrap_or_default()
}

fn number<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

fn on_off(value: Option<bool>) -> String {
    match value {
        Some(true) => "on".into(),
        Some(false) => "off".into(),
        None => String::new(),
    }
}

/// What an empty run-context field becomes: the pilot's note for it, else nothing. Shown as
/// the field's placeholder, so an example never reads like a recorded value.
fn fallback(note: &str) -> String {
    match note.trim() {
        "" | "0" => "not stated".into(),
        value => format!("{value} (pilot's notes)"),
    }
}

/// The upload form of a pilot. `on_uploaded` runs when a batch of JavaScript uploads ends;
/// `pilot` (when the page has it) gives the placeholders of the fields its notes fill.
#[component]
pub fn EvidenceUpload(
    pilot_id: i64,
    #[prop(into)] on_uploaded: Callback<()>,
    #[prop(optional)] pilot: Option<crate::model::Pilot>,
) -> impl IntoView {
    let form_id = "evidence-upload";
    let note = |f: fn(&crate::model::Pilot) -> String| {
        pilot
            .as_ref()
            .map(|p| fallback(&f(p)))
            .unwrap_or_else(|| "the pilot's notes".into())
    };
    let unstated = || "not stated".to_string();
    let fields: [(&'static str, &'static str, String, RwSignal<String>); 11] = [
        (
            "engine",
            "Engine",
            note(|p| p.engine.clone()),
            RwSignal::new(String::new()),
        ),
        (
            "engine_version",
            "Engine version",
            note(|p| p.engine_version.clone()),
            RwSignal::new(String::new()),
        ),
        (
            "gpu",
            "GPU",
            note(|p| p.gpu_type.clone()),
            RwSignal::new(String::new()),
        ),
        (
            "gpu_count",
            "GPU count",
            note(|p| p.gpu_count.to_string()),
            RwSignal::new(String::new()),
        ),
        (
            "precision",
            "Precision",
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "kv_dtype",
            "KV-cache dtype",
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "tp",
            "Tensor parallel",
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "max_num_batched_tokens",
            "max_num_batched_tokens",
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "max_num_seqs",
            "max_num_seqs",
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "prefix_caching",
            "Prefix caching",
            String::new(),
            RwSignal::new(String::new()),
        ),
        (
            "cuda_graphs",
            "CUDA graphs",
            String::new(),
            RwSignal::new(String::new()),
        ),
    ];
    let kind = RwSignal::new(String::new());
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let eval_off = move || hydrated.get() && kind.get() != "eval_run";
    let paste = RwSignal::new(String::new());
    let parsed = RwSignal::new(None::<Result<String, String>>);
    let signals: [RwSignal<String>; 11] = std::array::from_fn(|i| fields[i].3);
    let apply = move |_| {
        let result = engine::run_context::parse(&paste.get_untracked());
        parsed.set(Some(match result {
            Ok(context) => {
                let values: [String; 11] = fill_values(&context);
                for (signal, value) in signals.iter().zip(values) {
                    if !value.is_empty() {
                        signal.set(value);
                    }
                }
                Ok(context.summary())
            }
            Err(e) => Err(e.to_string()),
        }));
    };
    Effect::new(move |_| {
        #[cfg(feature = "hydrate")]
        {
            let done = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
                on_uploaded.run(());
            });
            init_dropzone(
                form_id,
                &format!("/api/v1/pilots/{pilot_id}/evidence"),
                done.into_js_value(),
            );
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (form_id, on_uploaded);
    });
    view! {
        <section class="card upload-card">
            <h2>"Upload evidence"</h2>
            <form id=form_id class="form upload-form" method="post" enctype="multipart/form-data"
                action=format!("/pilots/{pilot_id}/evidence")>
                <div class="field-row upload-kind">
                    <div>
                        <label for="evidence-kind">"What is it?"</label>
                        <select id="evidence-kind" name="kind"
                            prop:value=move || kind.get()
                            on:change=move |ev| kind.set(event_target_value(&ev))>
                            <option value="">"Detect: load test, start-up log, gateway log, /metrics, lm-eval results"</option>
                            <option value="eval_set">"Evaluation set (CSV or JSON Lines)"</option>
                            <option value="eval_run">"Evaluation run over the set (CSV or JSON Lines)"</option>
                        </select>
                    </div>
                    <p class="hint grow">"Evaluation set: id, question, accepted_answer, accepted_passages (ids separated by |). Run: id, answer, score (0–1) or correct (true/false), retrieved (ids in rank order, |), finish_reason. Upload the set first; each run is read against its latest approved version."</p>
                </div>
                <fieldset class="eval-run-fields" disabled=eval_off>
                    <legend>"Evaluation run: what served it"</legend>
                    <p class="hint">"Only for an evaluation run. Weight precision is required; an empty model is taken from the pilot; engine, version and GPU come from the run-context fields below (or the pilot)."</p>
                    <div class="run-context-grid">
                        <div><label for="ev-model">"Model"</label>
                            <input id="ev-model" name="model" type="text" placeholder="Qwen/Qwen2.5-7B-Instruct"/></div>
                        <div><label for="ev-weights_precision">"Weight precision"</label>
                            <input id="ev-weights_precision" name="weights_precision" type="text" placeholder="BF16, FP8, AWQ-INT4, NVFP4…"/></div>
                        <div><label for="ev-kv_precision">"KV-cache precision"</label>
                            <input id="ev-kv_precision" name="kv_precision" type="text" placeholder="auto, fp8"/></div>
                    </div>
                </fieldset>
                <div class="dropzone">
                    <p class="dropzone-title">"Drop evidence files here"</p>
                    <p class="hint">"vllm bench serve JSON / JSON Lines, AIPerf JSON / CSV / per-request JSONL, GenAI-Perf JSON / CSV, guidellm JSON / YAML, a vLLM start-up log, gateway logs, /metrics scrapes, lm-eval results — or, with the kind chosen above, an evaluation set or run. Several files at once."</p>
                    <label for="evidence-file" class="button">"Choose files…"</label>
                    <input id="evidence-file" type="file" name="file" required class="file-input"/>
                    <ul class="upload-list" aria-live="polite"></ul>
                </div>
                <details class="run-context" open>
                    <summary>"Run context: hardware and serving settings of these runs"</summary>
                    <p class="hint">"Empty fields are taken from the pasted command line or YAML, then from the pilot's notes (engine, version, GPU, count). Stored with each file."</p>
                    <label for="serve_command">"Paste a " <code>"vllm serve …"</code> " command line or a KServe ServingRuntime YAML"</label>
                    <textarea id="serve_command" name="serve_command" rows="5" class="mono"
                        placeholder="vllm serve /mnt/models --tensor-parallel-size 4 --dtype half --enforce-eager …"
                        prop:value=move || paste.get()
                        on:input=move |ev| paste.set(event_target_value(&ev))></textarea>
                    <div class="form-actions">
                        <button type="button" class="button" on:click=apply>"Read settings from it"</button>
                    </div>
                    {move || parsed.get().map(|r| match r {
                        Ok(summary) => view! { <p class="notice notice-ok" role="status">{format!("Read: {summary}")}</p> }.into_any(),
                        Err(e) => view! { <p class="notice notice-error" role="alert">{e}</p> }.into_any(),
                    })}
                    <div class="run-context-grid">
                        {fields.into_iter().map(|(name, label, placeholder, signal)| {
                            let input = if name == "prefix_caching" || name == "cuda_graphs" {
                                view! {
                                    <select id=format!("rc-{name}") name=name
                                        prop:value=move || signal.get()
                                        on:change=move |ev| signal.set(event_target_value(&ev))>
                                        <option value="">"not stated"</option>
                                        <option value="on">"on"</option>
                                        <option value="off">"off"</option>
                                    </select>
                                }.into_any()
                            } else {
                                view! {
                                    <input id=format!("rc-{name}") name=name type="text" placeholder=placeholder
                                        prop:value=move || signal.get()
                                        on:input=move |ev| signal.set(event_target_value(&ev))/>
                                }.into_any()
                            };
                            view! { <div><label for=format!("rc-{name}")>{label}</label>{input}</div> }
                        }).collect_view()}
                    </div>
                </details>
                <div class="form-actions">
                    <button type="submit" class="button button-primary">"Upload"</button>
                </div>
            </form>
        </section>
    }
}

/// The form values of a parsed context, in the order of the form's fields.
fn fill_values(c: &RunContext) -> [String; 11] {
    [
        text(&c.engine),
        text(&c.engine_version),
        text(&c.gpu),
        number(c.gpu_count),
        text(&c.precision),
        text(&c.kv_cache_dtype),
        number(c.tensor_parallel),
        number(c.max_num_batched_tokens),
        number(c.max_num_seqs),
        on_off(c.prefix_caching),
        on_off(c.cuda_graphs),
    ]
}
