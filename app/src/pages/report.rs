//! `/pilots/:id/report`: the report as customers read it and sales engineers send it — a preview
//! of the print document, HTML and PDF in English or German, the export record, and share links.

use super::params::pilot_id_param;
use crate::api::reports::{CreateShareLink, ReportPageData, RevokeShareLink, report_overview};
use crate::components::{ErrorNotice, PageHeader, lang as ui_lang};
use engine::locale::Lang;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_navigate, use_query_map};

/// The language and edition chosen, as the page's query carries them (`?lang=de&edition=internal`):
/// a reload, a bookmark or a link a colleague sends opens the same choice. Without one, the
/// report speaks the reader's language.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    lang: &'static str,
    internal: bool,
}

impl Choice {
    fn from_query() -> Choice {
        let query = use_query_map();
        let value = |key: &str| query.with_untracked(|q| q.get(key));
        Choice {
            lang: match value("lang").as_deref() {
                Some("de") => "de",
                Some("en") => "en",
                _ => ui_lang().code(),
            },
            internal: value("edition").as_deref() == Some("internal"),
        }
    }
}

#[component]
pub fn ReportPage() -> impl IntoView {
    let id = pilot_id_param();
    let create = ServerAction::<CreateShareLink>::new();
    let revoke = ServerAction::<RevokeShareLink>::new();
    let choice = Choice::from_query();
    let overview = crate::components::page_resource(
        move || (id(), create.version().get(), revoke.version().get()),
        |(id, _, _)| report_overview(id),
    );
    let ui = ui_lang();
    view! {
        <Suspense fallback=move || view! { <p class="loading">{ui.pick("Loading the report…", "Bericht wird geladen…")}</p> }>
            {move || Suspend::new(async move {
                match overview.await {
                    Ok(view) => report_page(view, choice, create, revoke).into_any(),
                    Err(error) => view! { <Title text=ui.pick("Not found", "Nicht gefunden")/><ErrorNotice error/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

fn report_page(
    view: ReportPageData,
    choice: Choice,
    create: ServerAction<CreateShareLink>,
    revoke: ServerAction<RevokeShareLink>,
) -> impl IntoView {
    let p = view.pilot.clone();
    let id = p.id;
    let can_share = view.can_share;
    let ui = ui_lang();
    let lang = RwSignal::new(choice.lang.to_string());
    // Staff choose the edition: the customer's (no prices) or the internal one (costs); anyone
    // else always gets the customer's, whatever the address asks for.
    let edition = RwSignal::new(if can_share && choice.internal {
        "internal".to_string()
    } else {
        "customer".to_string()
    });
    let query = move || {
        if edition.get() == "internal" {
            format!("lang={}&edition=internal", lang.get())
        } else {
            format!("lang={}", lang.get())
        }
    };
    // A selector's change handler: the choice, then the page's own address follows it
    // (replacing, not adding, a history entry).
    let navigate = use_navigate();
    let choose = move |choice: RwSignal<String>| {
        let navigate = navigate.clone();
        move |ev| {
            choice.set(event_target_value(&ev));
            navigate(
                &format!("/pilots/{id}/report?{}", query()),
                NavigateOptions {
                    replace: true,
                    scroll: false,
                    ..Default::default()
                },
            );
        }
    };
    let on_lang = choose(lang);
    let on_edition = choose(edition);
    let html_href = move || format!("/pilots/{id}/report.html?{}", query());
    // The download posts (it records an export); printing takes Chromium a few seconds the
    // first time for a pilot's current state, and the button says so while the browser waits.
    let printing = RwSignal::new(false);
    let on_pdf = move |_| {
        printing.set(true);
        set_timeout(
            move || printing.set(false),
            std::time::Duration::from_secs(8),
        );
    };
    let pdf = if view.pdf_available {
        view! {
            <form method="post" action=format!("/pilots/{id}/report.pdf") class="inline-form" on:submit=on_pdf>
                <input type="hidden" name="lang" value=move || lang.get()/>
                <input type="hidden" name="edition" value=move || edition.get()/>
                <button type="submit" class="button button-primary" id="download-pdf"
                        aria-busy=move || printing.get().to_string()>
                    {move || if printing.get() { ui.pick("Printing the PDF…", "PDF wird gedruckt…") } else { ui.pick("Download PDF", "PDF herunterladen") }}
                </button>
            </form>
            <span class="small muted pdf-progress" role="status" aria-live="polite">
                {move || printing.get().then_some(ui.pick("Chromium is printing the report; the download starts in a few seconds.", "Chromium druckt den Bericht; der Download beginnt in einigen Sekunden."))}
            </span>
        }
        .into_any()
    } else {
        view! {
            <div class="notice notice-info" role="note">
                <strong>{ui.pick("PDF export is off on this server.", "Der PDF-Export ist auf diesem Server aus.")}</strong>
                {match ui {
                    Lang::En => view! {
                        <p>"Install Chromium (Debian: "<code>"apt-get install chromium"</code>") or set "<code>"CHROMIUM_PATH"</code>
                           " and restart the server. Meanwhile, open the print view and use your browser's Print → Save as PDF: it is the same document."</p>
                    }.into_any(),
                    Lang::De => view! {
                        <p>"Chromium installieren (Debian: "<code>"apt-get install chromium"</code>") oder "<code>"CHROMIUM_PATH"</code>
                           " setzen und den Server neu starten. Bis dahin die Druckansicht öffnen und im Browser Drucken → Als PDF speichern wählen: Es ist dasselbe Dokument."</p>
                    }.into_any(),
                }}
            </div>
        }
        .into_any()
    };
    view! {
        <Title text=format!("{} · {}", ui.pick("Report", "Bericht"), p.name)/>
        <nav class="breadcrumbs" aria-label=ui.pick("Breadcrumb", "Brotkrumen")>
            <a href="/">{ui.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{id}")>{p.name.clone()}</a>" / "<span>{ui.pick("Report", "Bericht")}</span>
        </nav>
        <PageHeader title=ui.pick("Pilot report", "Pilotbericht").to_string() subtitle=format!("{} · {}", p.name, p.organisation_name)/>
        <section class="card">
            <div class="report-actions">
                <div>
                    <label for="report-lang">{ui.pick("Language", "Sprache")}</label>
                    <select id="report-lang" name="lang" on:change=on_lang>
                        <option value="en" selected=move || lang.get() == "en">"English"</option>
                        <option value="de" selected=move || lang.get() == "de">"Deutsch"</option>
                    </select>
                </div>
                {can_share.then(|| view! {
                    <div>
                        <label for="report-edition">{ui.pick("Edition", "Ausgabe")}</label>
                        <select id="report-edition" name="edition" on:change=on_edition>
                            <option value="customer" selected=move || edition.get() == "customer">{ui.pick("Customer (no prices)", "Kunde (ohne Preise)")}</option>
                            <option value="internal" selected=move || edition.get() == "internal">{ui.pick("Internal (with costs)", "Intern (mit Kosten)")}</option>
                        </select>
                    </div>
                })}
                <a class="button" id="open-html" href=html_href target="_blank" rel="noopener">{ui.pick("Open print view (HTML)", "Druckansicht öffnen (HTML)")}</a>
                {pdf}
            </div>
            <p class="small muted">{ui.pick(
                "One self-contained A4 document: verdict, plan and pass marks, demand, load tests, quality and the precision decision, the production recommendation with its arithmetic, caveats and every evidence file with its SHA-256. Every PDF export is recorded.",
                "Ein in sich geschlossenes A4-Dokument: Ergebnis, Plan und Zielwerte, Last, Lasttests, Qualität und die Entscheidung über die Präzision, die Produktionsempfehlung mit ihrer Rechnung, Vorbehalte und jede Nachweisdatei mit ihrem SHA-256. Jeder PDF-Export wird festgehalten.",
            )}</p>
            {can_share.then(|| view! {
                <p class="small muted" id="edition-hint">{ui.pick(
                    "The internal edition adds each configuration's cost (cards × unit price) and, where the capacity twin predicts the operating point, the cost per 1M tokens at the production rate (prices per GPU-hour from the GPU catalog). Share links always give the customer edition.",
                    "Die interne Ausgabe ergänzt die Kosten jeder Konfiguration (Karten × Stückpreis) und, wo der Kapazitäts-Zwilling den Betriebspunkt vorhersagt, die Kosten je 1 Mio. Token bei der Produktionsrate (Preise je GPU-Stunde aus dem GPU-Katalog). Freigabelinks geben immer die Kundenausgabe.",
                )}</p>
            })}
            <iframe class="report-preview" title=ui.pick("Report preview", "Vorschau des Berichts") src=html_href sandbox=""></iframe>
        </section>
        {can_share.then(|| share_card(&view, create, revoke))}
        {can_share.then(|| exports_card(&view))}
    }
}

fn share_card(
    view: &ReportPageData,
    create: ServerAction<CreateShareLink>,
    revoke: ServerAction<RevokeShareLink>,
) -> impl IntoView + use<> {
    let id = view.pilot.id;
    let now = view.now_ms;
    let ui = ui_lang();
    let links = view
        .links
        .iter()
        .map(|l| {
            let state = if l.revoked_ms.is_some() {
                "revoked"
            } else if l.is_active(now) {
                "active"
            } else {
                "expired"
            };
            let state_label = match state {
                "revoked" => ui.pick("revoked", "widerrufen"),
                "active" => ui.pick("active", "aktiv"),
                _ => ui.pick("expired", "abgelaufen"),
            };
            let active = l.is_active(now);
            let link_id = l.id.to_string();
            view! {
                <tr data-state=state>
                    <td>{l.contact.clone()}</td>
                    <td>{l.lang.to_uppercase()}</td>
                    <td class="nowrap">{ui.date_time(l.created_ms)}<span class="small muted">{format!(" {} {}", ui.pick("by", "von"), l.created_by)}</span></td>
                    <td class="nowrap">{ui.date_time(l.expires_ms)}</td>
                    <td><span class=if active { "badge badge-pass" } else { "badge" }>{state_label}</span></td>
                    <td class="row-actions">
                        {active.then(|| view! {
                            <ActionForm action=revoke>
                                <input type="hidden" name="pilot_id" value=id.to_string()/>
                                <input type="hidden" name="link_id" value=link_id.clone()/>
                                <button type="submit" class="button button-small button-quiet">{ui.pick("Revoke", "Widerrufen")}</button>
                            </ActionForm>
                        })}
                    </td>
                </tr>
            }
        })
        .collect_view();
    let has_links = !view.links.is_empty();
    let share_form = NodeRef::new();
    crate::components::action_forms::reset_after(create, share_form);
    view! {
        <section class="card" id="share-links">
            <h2>{ui.pick("Share links", "Freigabelinks")}</h2>
            <p class="muted">{ui.pick(
                "A read-only link to this pilot's report for a customer contact without an account. It shows only this report, expires, and can be revoked at any time.",
                "Ein Link nur zum Lesen auf den Bericht dieses Piloten, für eine Ansprechperson des Kunden ohne Konto. Er zeigt nur diesen Bericht, läuft ab und lässt sich jederzeit widerrufen.",
            )}</p>
            {move || create.value().get().map(|result| match result {
                Ok(created) => {
                    let origin = window_origin();
                    view! {
                        <div class="notice notice-ok" role="status">
                            <strong>{match ui {
                                Lang::En => format!("Link for {} created. Copy it now; it is not shown again.", created.link.contact),
                                Lang::De => format!("Link für {} angelegt. Jetzt kopieren; er wird nicht noch einmal gezeigt.", created.link.contact),
                            }}</strong>
                            <code class="secret share-url" id="new-share-link">{format!("{origin}{}", created.path)}</code>
                        </div>
                    }.into_any()
                }
                Err(error) => view! { <div class="notice notice-error" role="alert">{error.to_string()}</div> }.into_any(),
            })}
            {has_links.then(|| view! {
                <table class="table" id="share-link-list">
                    <thead><tr>
                        <th scope="col">{ui.pick("For", "Für")}</th><th scope="col">{ui.pick("Language", "Sprache")}</th><th scope="col">{ui.pick("Created", "Angelegt")}</th>
                        <th scope="col">{ui.pick("Expires", "Läuft ab")}</th><th scope="col">{ui.pick("State", "Stand")}</th>
                        <th scope="col"><span class="visually-hidden">{ui.pick("Actions", "Aktionen")}</span></th>
                    </tr></thead>
                    <tbody>{links}</tbody>
                </table>
            })}
            <ActionForm action=create node_ref=share_form attr:class="form">
                <input type="hidden" name="pilot_id" value=id.to_string()/>
                <div class="field-row">
                    <div class="grow">
                        <label for="share-contact">{ui.pick("For", "Für")}</label>
                        <input id="share-contact" name="contact" required maxlength="200" placeholder=ui.pick("Name or e-mail of the customer contact", "Name oder E-Mail der Ansprechperson beim Kunden")/>
                    </div>
                    <div>
                        <label for="share-days">{ui.pick("Valid for (days)", "Gültig für (Tage)")}</label>
                        <input id="share-days" name="days" type="number" min="1" max="90" value="14" inputmode="numeric"/>
                    </div>
                    <div>
                        <label for="share-lang">{ui.pick("Language", "Sprache")}</label>
                        <select id="share-lang" name="lang">
                            <option value="en" selected=ui == Lang::En>"English"</option>
                            <option value="de" selected=ui == Lang::De>"Deutsch"</option>
                        </select>
                    </div>
                </div>
                <div class="form-actions">
                    <button type="submit" class="button button-primary">{ui.pick("Create share link", "Freigabelink anlegen")}</button>
                </div>
            </ActionForm>
        </section>
    }
}

/// The page's origin for showing a full link (empty during server rendering).
fn window_origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        leptos::prelude::window()
            .location()
            .origin()
            .unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new()
    }
}

fn exports_card(view: &ReportPageData) -> impl IntoView + use<> {
    let ui = ui_lang();
    let rows = view
        .exports
        .iter()
        .map(|x| {
            view! {
                <tr>
                    <td class="nowrap">{ui.date_time(x.created_ms)}</td>
                    <td>{if x.exported_by.is_empty() { x.via.clone() } else { x.exported_by.clone() }}</td>
                    <td>{format!("{} · {}{}", x.format.to_uppercase(), x.lang.to_uppercase(), if x.edition == "internal" { ui.pick(" · internal", " · intern") } else { "" })}</td>
                    <td class="num">{x.plan_version.map(|v| v.to_string()).unwrap_or_else(|| "—".into())}</td>
                    <td class="mono small">{x.sha256.clone()}</td>
                </tr>
            }
        })
        .collect_view();
    let empty = view.exports.is_empty();
    view! {
        <section class="card" id="exports">
            <h2>{ui.pick("Exports", "Exporte")}</h2>
            {if empty {
                view! { <p class="muted">{ui.pick("No export yet.", "Noch kein Export.")}</p> }.into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="table">
                            <thead><tr>
                                <th scope="col">{ui.pick("When", "Wann")}</th><th scope="col">{ui.pick("Who", "Wer")}</th><th scope="col">"Format"</th>
                                <th scope="col" class="num">{ui.pick("Plan version", "Planversion")}</th><th scope="col">{ui.pick("SHA-256 of the file", "SHA-256 der Datei")}</th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </section>
    }
}
