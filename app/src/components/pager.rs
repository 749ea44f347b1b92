//! Links between the pages of a long list (server-rendered, inside a fragment): which rows are
//! shown, and first / previous / next / last as plain links, so the keyboard, the back button
//! and a shared address all work without script. Its words follow the reader's language
//! ([`crate::components::lang`]).

use desk::paging::ListPage;
use engine::locale::Lang;
use leptos::prelude::*;

/// "Files 51–100 of 154, newest first · Page 2 of 4" with links to `{base}?page=N`; nothing
/// when the list fits on one page. `noun` is the English plural (`files`); `noun_de` the
/// German one (`Dateien`), by default the German of the nouns the pages use, else `Einträge`.
#[component]
pub fn Pager(
    page: ListPage,
    base: String,
    noun: &'static str,
    #[prop(optional)] noun_de: Option<&'static str>,
) -> impl IntoView {
    if !page.is_split() {
        return ().into_any();
    }
    let lang = crate::components::lang();
    let (first, last_row) = page.rows();
    let last = page.last();
    let link = move |number: u32, label: &'static str, rel: &'static str| {
        let href = format!("{base}?page={number}");
        let here = number == page.number;
        view! {
            <a class="button button-small pager-link" class:disabled=here
               aria-disabled=here.then_some("true") rel=rel href=href>{label}</a>
        }
    };
    let (label, rows, at) = match lang {
        Lang::En => (
            format!("Pages of {noun}"),
            format!(
                "{} {first}–{last_row} of {}, newest first",
                capitalise(noun),
                page.total
            ),
            format!("Page {} of {last}", page.number),
        ),
        Lang::De => {
            let noun = noun_de.unwrap_or_else(|| german_noun(noun));
            (
                format!("Seiten der {noun}"),
                format!(
                    "{noun} {}–{} von {}, neueste zuerst",
                    lang.number(first as f64, 0),
                    lang.number(last_row as f64, 0),
                    lang.number(page.total as f64, 0)
                ),
                format!("Seite {} von {last}", page.number),
            )
        }
    };
    view! {
        <nav class="pager" aria-label=label>
            <span class="pager-rows">{rows}</span>
            <span class="pager-links">
                {link(1, lang.pick("« First", "« Erste"), "first")}
                {link(page.number.saturating_sub(1).max(1), lang.pick("‹ Previous", "‹ Zurück"), "prev")}
                <span class="pager-at" aria-current="page">{at}</span>
                {link((page.number + 1).min(last), lang.pick("Next ›", "Weiter ›"), "next")}
                {link(last, lang.pick("Last »", "Letzte »"), "last")}
            </span>
        </nav>
    }
    .into_any()
}

/// The German plural of a noun the pages pass in English (capitalised, as German nouns are).
fn german_noun(noun: &str) -> &'static str {
    match noun {
        "files" => "Dateien",
        "runs" => "Läufe",
        "pilots" => "Piloten",
        "versions" => "Versionen",
        _ => "Einträge",
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
