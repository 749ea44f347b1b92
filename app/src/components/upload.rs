//! The evidence upload form: a drop zone for several files at once with a progress bar per file,
//! and the run-context fields (or a pasted `vllm serve …` line / ServingRuntime YAML).
//!
//! Without JavaScript it is a plain multipart form posting one file to `POST /pilots/{id}/evidence`
//! with `step=check`: the server keeps the file and redirects back to the evidence page, which
//! lists what will be recorded with "Store" and "Discard" (see [`crate::pages::evidence`]).
//! Once hydrated, a small script takes over, in two steps, because a run context stamped on the
//! wrong file is a mislabelled measurement:
//!
//! 1. **Check.** Files dropped on the zone or chosen in the picker are each sent to `POST
//!    /api/v1/pilots/{id}/evidence/preview` with a snapshot of the form's fields. The server
//!    reads the file as the upload would and writes nothing; the file's row then lists what
//!    will be recorded, each run-context value with its source (from the file, typed, the
//!    pasted command, the pilot's notes), the importer's warnings and any typed value the file
//!    contradicts. A load test's row can change its own run context and be checked again.
//!    Refusals (the importer's error naming file, line and field; a duplicate's 409) show here,
//!    before anything is stored.
//! 2. **Confirm.** "Store N files" sends each checked file with the fields it was checked with to
//!    `POST /api/v1/pilots/{id}/evidence`, with progress from XMLHttpRequest upload events, and
//!    each row ends with its outcome and what was recorded. Then the shared run-context fields
//!    empty, so nothing typed for one batch is stamped silently on the next.
//!
//! "What is it?" names the kind: detected (load tests, start-up logs, gateway logs, `/metrics`
//! scrapes, lm-evaluation-harness results), or an evaluation set or run (CSV or JSON Lines,
//! never guessed). An evaluation run takes its serving configuration from the "Evaluation run"
//! fields (model, weight and KV-cache precision) and the run-context fields (engine, version,
//! GPU); that fieldset is switched off for other kinds once hydrated.

use engine::locale::Lang;
use engine::run_context::RunContext;
use leptos::prelude::*;

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r##"
export function init_dropzone(formId, url, fieldsJson, textsJson, onDone) {
  window.__pdUpload = { formId, url, fields: JSON.parse(fieldsJson), t: JSON.parse(textsJson), onDone };
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
  // The words in the page's language (see `upload_texts`); `{name}` marks a value.
  const t = () => window.__pdUpload.t;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => k in values ? String(values[k]) : m);
  const fmtSize = (n) => n < 1024 ? n + " B" : n < 1048576 ? (n / 1024).toFixed(1).replace(".", t().point) + " KiB" : (n / 1048576).toFixed(1).replace(".", t().point) + " MiB";
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  // Files checked and waiting for the person's confirmation: { file, data, item }.
  let staged = [];
  let storing = 0;
  const snapshot = (form) => {
    const data = new FormData(form);
    data.delete("file");
    for (const [k, v] of Array.from(data.entries())) { if (v === "") data.delete(k); }
    return data;
  };
  const post = (url, data, file, item, onLoad) => {
    const bar = item.querySelector("progress");
    const status = item.querySelector(".upload-status");
    const body = new FormData();
    for (const [k, v] of data.entries()) body.append(k, v);
    body.append("file", file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    bar.value = 0;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) { bar.value = Math.round(e.loaded * 100 / e.total); status.textContent = bar.value + " %"; }
    };
    xhr.onload = () => {
      let answer = {};
      try { answer = JSON.parse(xhr.responseText); } catch (_) {}
      bar.value = 100;
      onLoad(xhr.status, answer);
    };
    xhr.onerror = () => onLoad(0, { error: t().unreached });
    xhr.send(body);
  };
  // The API's `error` is English; `error_de` is the same refusal in German where it has one.
  const said = (answer) => (document.documentElement.lang === "de" && answer.error_de) || answer.error;
  const refusal = (code, answer) => code === 409 ? t().duplicate + (said(answer) || t().alreadyStored)
    : code === 0 ? t().network + answer.error : fill(t().refused, { code }) + (said(answer) || "");
  const finish = (item, ok, text) => {
    item.classList.remove("upload-ready");
    item.classList.add(ok ? "upload-ok" : "upload-error");
    const status = item.querySelector(".upload-status");
    status.textContent = text;
    status.setAttribute("role", ok ? "status" : "alert");
  };
  const showRecorded = (item, answer, heading) => {
    for (const old of item.querySelectorAll(".upload-recorded, .upload-warnings")) old.remove();
    const box = el("div", "upload-recorded");
    box.append(el("p", "upload-recorded-title", heading));
    const table = el("table", "upload-recorded-table");
    for (const line of answer.recorded || []) {
      const row = el("tr");
      row.append(el("th", "", line.label));
      const cell = el("td", "", line.value);
      if (line.source) { cell.append(" ", el("span", "source source-" + line.source, "(" + t().sources[line.source] + ")")); }
      row.append(cell);
      table.append(row);
    }
    box.append(table);
    item.append(box);
    if ((answer.warnings || []).length) {
      const list = el("ul", "upload-warnings notice notice-warn");
      list.setAttribute("role", "note");
      for (const w of answer.warnings) list.append(el("li", "", w));
      item.append(list);
    }
  };
  const updateBar = (form) => {
    const bar = form.querySelector(".upload-confirm");
    const ready = staged.length;
    bar.hidden = ready === 0;
    bar.querySelector(".upload-confirm-text").textContent = ready === 1
      ? t().checkedOne
      : fill(t().checkedMany, { n: ready });
    bar.querySelector("[data-action=store]").textContent = ready === 1 ? t().storeOne : fill(t().storeMany, { n: ready });
  };
  const unstage = (form, entry) => { staged = staged.filter((s) => s !== entry); updateBar(form); };
  // The per-file fields: typed here, they override the form's for this file only.
  const overrides = (form, entry) => {
    const box = el("details", "upload-override");
    box.append(el("summary", "", t().override));
    const grid = el("div", "run-context-grid");
    for (const [name, label] of window.__pdUpload.fields) {
      const id = "ov-" + Math.random().toString(36).slice(2) + "-" + name;
      const cell = el("div");
      const lab = el("label", "", label); lab.htmlFor = id;
      const input = el("input"); input.id = id; input.name = name; input.type = "text";
      input.value = entry.data.get(name) || "";
      input.placeholder = t().asListed;
      cell.append(lab, input); grid.append(cell);
    }
    const again = el("button", "button", t().checkAgain); again.type = "button";
    again.addEventListener("click", () => {
      for (const input of grid.querySelectorAll("input")) {
        if (input.value.trim() === "") entry.data.delete(input.name); else entry.data.set(input.name, input.value.trim());
      }
      unstage(form, entry);
      check(form, entry);
    });
    box.append(grid, again);
    return box;
  };
  const check = (form, entry) => {
    const item = entry.item;
    item.className = "upload-item";
    item.querySelector(".upload-status").textContent = t().checking;
    post(window.__pdUpload.url + "/preview", entry.data, entry.file, item, (code, answer) => {
      if (code !== 200) { finish(item, false, refusal(code, answer)); return; }
      item.classList.add("upload-ready");
      item.querySelector(".upload-status").textContent = fill(t().checked, { kind: t().kinds[answer.kind] || answer.kind.replace(/_/g, " ") });
      showRecorded(item, answer, t().willRecord);
      if (answer.kind === "load_test" && !item.querySelector(".upload-override")) item.append(overrides(form, entry));
      staged.push(entry);
      updateBar(form);
    });
  };
  const stage = (form, file) => {
    const item = el("li", "upload-item");
    const head = el("div", "upload-head");
    head.append(el("span", "upload-name", file.name + " (" + fmtSize(file.size) + ")"));
    const bar = el("progress"); bar.max = 100; bar.value = 0;
    head.append(bar, el("span", "upload-status", t().waiting));
    const drop = el("button", "button button-small upload-drop", t().dontStore); drop.type = "button";
    head.append(drop);
    item.append(head);
    form.querySelector(".upload-list").append(item);
    const entry = { file, data: snapshot(form), item };
    drop.addEventListener("click", () => { unstage(form, entry); item.remove(); });
    check(form, entry);
  };
  const storeAll = (form) => {
    const batch = staged;
    staged = [];
    updateBar(form);
    for (const entry of batch) {
      const item = entry.item;
      for (const b of item.querySelectorAll(".upload-drop, .upload-override")) b.remove();
      item.querySelector(".upload-status").textContent = t().storing;
      storing += 1;
      post(window.__pdUpload.url, entry.data, entry.file, item, (code, answer) => {
        if (code === 201) {
          const note = answer.note ? " — " + answer.note : "";
          finish(item, true, fill(t().stored, { id: answer.id, kind: t().kinds[answer.kind] || answer.kind }) + note);
          showRecorded(item, answer, t().recorded);
        } else {
          finish(item, false, refusal(code, answer));
        }
        storing -= 1;
        if (storing === 0) window.__pdUpload.onDone();
      });
    }
  };
  const formOf = (target) => target && target.closest ? target.closest("#" + window.__pdUpload.formId) : null;
  const stageAll = (form, files) => { for (const f of Array.from(files)) stage(form, f); };
  document.addEventListener("change", (e) => {
    const form = formOf(e.target);
    if (form && e.target.type === "file" && e.target.files.length) { stageAll(form, e.target.files); e.target.value = ""; }
  });
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest(".upload-confirm button");
    const form = formOf(button);
    if (!form) return;
    if (button.dataset.action === "store") storeAll(form);
    if (button.dataset.action === "discard") { for (const s of staged) s.item.remove(); staged = []; updateBar(form); }
  });
  document.addEventListener("submit", (e) => {
    const form = formOf(e.target);
    if (!form) return;
    e.preventDefault();
    const input = form.querySelector("input[type=file]");
    if (input.files.length) { stageAll(form, input.files); input.value = ""; }
    else if (staged.length) storeAll(form);
    else input.click();
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
    if (e.dataTransfer && e.dataTransfer.files.length) stageAll(form, e.dataTransfer.files);
  });
}
"##)]
extern "C" {
    fn init_dropzone(
        form_id: &str,
        url: &str,
        fields_json: &str,
        texts_json: &str,
        on_done: wasm_bindgen::JsValue,
    );
}

/// The script's words in `lang`, as JSON; `{n}`, `{kind}`, `{id}`, `{code}` mark values. The
/// English ones make exactly the sentences the script always wrote.
#[cfg(feature = "hydrate")]
fn upload_texts(lang: Lang) -> String {
    let pick = |en: &'static str, de: &'static str| lang.pick(en, de);
    // Kinds as the server names them (`load_test`): English writes the name itself.
    let kinds = match lang {
        Lang::En => serde_json::json!({}),
        Lang::De => serde_json::json!({
            "load_test": "Lasttest",
            "gateway_log": "Gateway-Log",
            "metrics_scrape": "/metrics-Scrape",
            "vllm_startup_log": "vLLM-Start-Log",
            "eval_set": "Evaluationsdatensatz",
            "eval_run": "Evaluationslauf",
            "lm_eval_results": "lm-eval-Ergebnisse",
        }),
    };
    serde_json::json!({
        "point": pick(".", ","),
        "sources": {
            "file": pick("from the file", "aus der Datei"),
            "form": pick("typed", "eingegeben"),
            "serve_command": pick("from the pasted command", "aus dem eingefügten Befehl"),
            "pilot_notes": pick("from the pilot's notes", "aus den Notizen des Piloten"),
        },
        "kinds": kinds,
        "unreached": pick("the upload did not reach the server", "der Upload hat den Server nicht erreicht"),
        "duplicate": pick("Duplicate: ", "Duplikat: "),
        "alreadyStored": pick("already stored", "bereits gespeichert"),
        "network": pick("Network error: ", "Netzwerkfehler: "),
        "refused": pick("Refused ({code}): ", "Abgelehnt ({code}): "),
        "checkedOne": pick(
            "1 file checked. Nothing is stored until you confirm: store it with what is listed?",
            "1 Datei geprüft. Nichts wird gespeichert, bevor Sie bestätigen: mit den aufgeführten Angaben speichern?",
        ),
        "checkedMany": pick(
            "{n} files checked. Nothing is stored until you confirm: store them with what is listed?",
            "{n} Dateien geprüft. Nichts wird gespeichert, bevor Sie bestätigen: mit den aufgeführten Angaben speichern?",
        ),
        "storeOne": pick("Store 1 file", "1 Datei speichern"),
        "storeMany": pick("Store {n} files", "{n} Dateien speichern"),
        "override": pick("Change the run context of this file", "Laufkontext dieser Datei ändern"),
        "asListed": pick("as listed above", "wie oben aufgeführt"),
        "checkAgain": pick("Check again with these values", "Mit diesen Werten erneut prüfen"),
        "checking": pick("checking…", "wird geprüft…"),
        "checked": pick("Checked: {kind}, not stored yet", "Geprüft: {kind}, noch nicht gespeichert"),
        "willRecord": pick("Will be recorded", "Wird erfasst"),
        "waiting": pick("waiting…", "wartet…"),
        "dontStore": pick("Don't store", "Nicht speichern"),
        "storing": pick("storing…", "wird gespeichert…"),
        "stored": pick("Stored as evidence #{id} ({kind})", "Als Nachweis #{id} gespeichert ({kind})"),
        "recorded": pick("Recorded", "Erfasst"),
    })
    .to_string()
}

fn text(value: &Option<String>) -> String {
    value.clone().unwrap_or_default()
}

fn number<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The form's value of a switch: `on` / `off` whatever the language (the option's words change).
fn on_off(value: Option<bool>) -> String {
    match value {
        Some(true) => "on".into(),
        Some(false) => "off".into(),
        None => String::new(),
    }
}

/// What an empty run-context field becomes: the pilot's note for it, else nothing. Shown as
/// the field's placeholder, so an example never reads like a recorded value.
fn fallback(note: &str, lang: Lang) -> String {
    match (note.trim(), lang) {
        ("" | "0", _) => lang.pick("not stated", "nicht angegeben").into(),
        (value, Lang::En) => format!("{value} (pilot's notes)"),
        (value, Lang::De) => format!("{value} (Notizen des Piloten)"),
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
    let lang = crate::components::lang();
    let note = |f: fn(&crate::model::Pilot) -> String| {
        pilot
            .as_ref()
            .map(|p| fallback(&f(p), lang))
            .unwrap_or_else(|| {
                lang.pick("the pilot's notes", "die Notizen des Piloten")
                    .into()
            })
    };
    let unstated = || lang.pick("not stated", "nicht angegeben").to_string();
    let fields: [(&'static str, &'static str, String, RwSignal<String>); 11] = [
        (
            "engine",
            "Engine",
            note(|p| p.engine.clone()),
            RwSignal::new(String::new()),
        ),
        (
            "engine_version",
            lang.pick("Engine version", "Engine-Version"),
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
            lang.pick("GPU count", "Anzahl GPUs"),
            note(|p| p.gpu_count.to_string()),
            RwSignal::new(String::new()),
        ),
        (
            "precision",
            lang.pick("Precision", "Präzision"),
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "kv_dtype",
            lang.pick("KV-cache dtype", "Datentyp des KV-Cache"),
            unstated(),
            RwSignal::new(String::new()),
        ),
        (
            "tp",
            lang.pick("Tensor parallel", "Tensorparallelität"),
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
            lang.pick("Prefix caching", "Prefix-Caching"),
            String::new(),
            RwSignal::new(String::new()),
        ),
        (
            "cuda_graphs",
            lang.pick("CUDA graphs", "CUDA-Graphen"),
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
                Ok(context.summary_in(lang))
            }
            Err(e) => Err(e.to_string()),
        }));
    };
    // Once a batch is stored, the shared run-context fields empty: nothing typed or pasted for
    // one batch is stamped on the next without being seen.
    let clear = move || {
        for signal in signals {
            signal.set(String::new());
        }
        paste.set(String::new());
        parsed.set(None);
    };
    Effect::new(move |_| {
        #[cfg(feature = "hydrate")]
        {
            let done = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
                clear();
                on_uploaded.run(());
            });
            let fields: Vec<(&str, &str)> = engine::run_context::provenance::FIELDS
                .iter()
                .map(|&(name, _)| {
                    (
                        name,
                        engine::run_context::provenance::field_label_in(name, lang),
                    )
                })
                .collect();
            let fields = serde_json::to_string(&fields).unwrap_or_else(|_| "[]".into());
            init_dropzone(
                form_id,
                &format!("/api/v1/pilots/{pilot_id}/evidence"),
                &fields,
                &upload_texts(lang),
                done.into_js_value(),
            );
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (form_id, on_uploaded, clear);
    });
    view! {
        <section class="card upload-card">
            <h2>{lang.pick("Upload evidence", "Nachweise hochladen")}</h2>
            <form id=form_id class="form upload-form" method="post" enctype="multipart/form-data"
                action=format!("/pilots/{pilot_id}/evidence")>
                <div class="field-row upload-kind">
                    <div>
                        <label for="evidence-kind">{lang.pick("What is it?", "Was ist es?")}</label>
                        <select id="evidence-kind" name="kind"
                            prop:value=move || kind.get()
                            on:change=move |ev| kind.set(event_target_value(&ev))>
                            <option value="">{lang.pick("Detect: load test, start-up log, gateway log, /metrics, lm-eval results", "Erkennen: Lasttest, Start-Log, Gateway-Log, /metrics, lm-eval-Ergebnisse")}</option>
                            <option value="eval_set">{lang.pick("Evaluation set (CSV or JSON Lines)", "Evaluationsdatensatz (CSV oder JSON Lines)")}</option>
                            <option value="eval_run">{lang.pick("Evaluation run over the set (CSV or JSON Lines)", "Evaluationslauf über den Datensatz (CSV oder JSON Lines)")}</option>
                        </select>
                    </div>
                    <p class="hint grow">{lang.pick("Evaluation set: id, question, accepted_answer, accepted_passages (ids separated by |). Run: id, answer, score (0–1) or correct (true/false), retrieved (ids in rank order, |), finish_reason. Upload the set first; each run is read against its latest approved version.", "Evaluationsdatensatz: id, question, accepted_answer, accepted_passages (IDs durch | getrennt). Lauf: id, answer, score (0–1) oder correct (true/false), retrieved (IDs in Rangfolge, |), finish_reason. Laden Sie zuerst den Datensatz hoch; jeder Lauf wird gegen dessen zuletzt freigegebene Version gelesen.")}</p>
                </div>
                <fieldset class="eval-run-fields" disabled=eval_off>
                    <legend>{lang.pick("Evaluation run: what served it", "Evaluationslauf: womit er bedient wurde")}</legend>
                    <p class="hint">{lang.pick("Only for an evaluation run. Weight precision is required; an empty model is taken from the pilot; engine, version and GPU come from the run-context fields below (or the pilot).", "Nur für einen Evaluationslauf. Die Präzision der Gewichte ist Pflicht; ein leeres Modell wird vom Piloten übernommen; Engine, Version und GPU kommen aus den Laufkontext-Feldern unten (oder vom Piloten).")}</p>
                    <div class="run-context-grid">
                        <div><label for="ev-model">{lang.pick("Model", "Modell")}</label>
                            <input id="ev-model" name="model" type="text" placeholder="Qwen/Qwen2.5-7B-Instruct"/></div>
                        <div><label for="ev-weights_precision">{lang.pick("Weight precision", "Präzision der Gewichte")}</label>
                            <input id="ev-weights_precision" name="weights_precision" type="text" placeholder="BF16, FP8, AWQ-INT4, NVFP4…"/></div>
                        <div><label for="ev-kv_precision">{lang.pick("KV-cache precision", "Präzision des KV-Cache")}</label>
                            <input id="ev-kv_precision" name="kv_precision" type="text" placeholder="auto, fp8"/></div>
                    </div>
                </fieldset>
                <div class="dropzone">
                    <p class="dropzone-title">{lang.pick("Drop evidence files here", "Nachweisdateien hier ablegen")}</p>
                    <p class="hint">{lang.pick("vllm bench serve JSON / JSON Lines, AIPerf JSON / CSV / per-request JSONL, GenAI-Perf JSON / CSV, guidellm JSON / YAML, a vLLM start-up log, gateway logs, /metrics scrapes, lm-eval results — or, with the kind chosen above, an evaluation set or run. Several files at once. Each file is checked first and listed with what will be recorded; nothing is stored until you confirm.", "vllm bench serve JSON / JSON Lines, AIPerf JSON / CSV / JSONL je Anfrage, GenAI-Perf JSON / CSV, guidellm JSON / YAML, ein vLLM-Start-Log, Gateway-Logs, /metrics-Scrapes, lm-eval-Ergebnisse – oder, mit der oben gewählten Art, ein Evaluationsdatensatz oder -lauf. Mehrere Dateien auf einmal. Jede Datei wird zuerst geprüft und mit dem aufgeführt, was erfasst wird; nichts wird gespeichert, bevor Sie bestätigen.")}</p>
                    <label for="evidence-file" class="button">{lang.pick("Choose files…", "Dateien auswählen…")}</label>
                    <input id="evidence-file" type="file" name="file" required class="file-input"/>
                    <ul class="upload-list" aria-live="polite"></ul>
                    <div class="upload-confirm" hidden>
                        <p class="upload-confirm-text"></p>
                        <button type="button" class="button button-primary" data-action="store">{lang.pick("Store", "Speichern")}</button>
                        <button type="button" class="button" data-action="discard">{lang.pick("Discard all", "Alle verwerfen")}</button>
                    </div>
                </div>
                <details class="run-context" open>
                    <summary>{lang.pick("Run context: hardware and serving settings of these runs", "Laufkontext: Hardware und Serving-Einstellungen dieser Läufe")}</summary>
                    <p class="hint">{lang.pick("What a result file states about its own run (a GPU or framework in its metadata) is recorded first; empty fields are taken from the pasted command line or YAML, then from the pilot's notes (engine, version, GPU, count). Each file keeps the values it was checked with, and can be changed on its own before you store it; the fields empty once a batch is stored.", "Was eine Ergebnisdatei über ihren eigenen Lauf angibt (eine GPU oder ein Framework in ihren Metadaten), wird zuerst erfasst; leere Felder werden aus der eingefügten Befehlszeile oder dem YAML übernommen, dann aus den Notizen des Piloten (Engine, Version, GPU, Anzahl). Jede Datei behält die Werte, mit denen sie geprüft wurde, und kann vor dem Speichern einzeln geändert werden; die Felder werden geleert, sobald ein Stapel gespeichert ist.")}</p>
                    <label for="serve_command">{lang.pick("Paste a ", "Fügen Sie eine ")}<code>"vllm serve …"</code>{lang.pick(" command line or a KServe ServingRuntime YAML", "-Befehlszeile oder ein KServe-ServingRuntime-YAML ein")}</label>
                    <textarea id="serve_command" name="serve_command" rows="5" class="mono"
                        placeholder="vllm serve /mnt/models --tensor-parallel-size 4 --dtype half --enforce-eager …"
                        prop:value=move || paste.get()
                        on:input=move |ev| paste.set(event_target_value(&ev))></textarea>
                    <div class="form-actions">
                        <button type="button" class="button" on:click=apply>{lang.pick("Read settings from it", "Einstellungen daraus lesen")}</button>
                    </div>
                    {move || parsed.get().map(|r| match r {
                        Ok(summary) => view! { <p class="notice notice-ok" role="status">{format!("{}{summary}", lang.pick("Read: ", "Gelesen: "))}</p> }.into_any(),
                        Err(e) => view! { <p class="notice notice-error" role="alert">{e}</p> }.into_any(),
                    })}
                    <div class="run-context-grid">
                        {fields.into_iter().map(|(name, label, placeholder, signal)| {
                            let input = if name == "prefix_caching" || name == "cuda_graphs" {
                                view! {
                                    <select id=format!("rc-{name}") name=name
                                        prop:value=move || signal.get()
                                        on:change=move |ev| signal.set(event_target_value(&ev))>
                                        <option value="">{lang.pick("not stated", "nicht angegeben")}</option>
                                        <option value="on">{lang.pick("on", "an")}</option>
                                        <option value="off">{lang.pick("off", "aus")}</option>
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
                <div class="form-actions upload-submit">
                    <button type="submit" name="step" value="check" class="button button-primary">{lang.pick("Check before storing", "Vor dem Speichern prüfen")}</button>
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
