//! User text inside a `<textarea>`.
//!
//! Leptos treats `<textarea>` like `<script>`: during server rendering its children are written
//! *unescaped* (and never hydrated). A pilot description such as
//! `</textarea><img src=x onerror=…>` would close the element and become live markup on the edit
//! page. [`textarea_text`] is what a textarea's child must always be: escaped for the server's
//! HTML (the browser decodes the entities back into the field's value), unchanged in the browser,
//! where Leptos builds the text node through the DOM and nothing is parsed.

/// The text to put between `<textarea>` and `</textarea>`.
pub fn textarea_text(text: impl Into<String>) -> String {
    let text = text.into();
    if cfg!(feature = "ssr") {
        escape_text(&text)
    } else {
        text
    }
}

/// `&`, `<` and `>` as character references (enough inside an element's text).
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_text_cannot_close_the_textarea() {
        assert_eq!(
            escape_text("a </textarea><img src=x onerror=alert(1)> & b"),
            "a &lt;/textarea&gt;&lt;img src=x onerror=alert(1)&gt; &amp; b"
        );
    }
}
