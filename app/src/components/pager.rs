//! Links between the pages of a long list (server-rendered, inside a fragment): which rows are
//! shown, and first / previous / next / last as plain links, so the keyboard, the back button
//! and a shared address all work without script.

use desk::paging::ListPage;
use leptos::prelude::*;

/// "Files 51–100 of 154, newest first · Page 2 of 4" with links to `{base}?page=N`; nothing
/// when the list fits on one page.
#[component]
pub fn Pager(page: ListPage, base: String, noun: &'static str) -> impl IntoView {
    if !page.is_split() {
        return ().into_any();
    }
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
    view! {
        <nav class="pager" aria-label=format!("Pages of {noun}")>
            <span class="pager-rows">
                {format!("{} {first}–{last_row} of {}, newest first", capitalise(noun), page.total)}
            </span>
            <span class="pager-links">
                {link(1, "« First", "first")}
                {link(page.number.saturating_sub(1).max(1), "‹ Previous", "prev")}
                <span class="pager-at" aria-current="page">{format!("Page {} of {last}", page.number)}</span>
                {link((page.number + 1).min(last), "Next ›", "next")}
                {link(last, "Last »", "last")}
            </span>
        </nav>
    }
    .into_any()
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
