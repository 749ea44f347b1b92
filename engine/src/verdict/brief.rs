//! A grade's explanation in two parts: what a reader needs at a glance (the verdict's reason)
//! and the details behind it (the sample-size argument, the closest figure that did not
//! qualify), which pages put behind a "details" switch.
//!
//! The explanations are written as one sentence in both languages with the same shape: the
//! reason first, then either a bracketed note (`… by 122 ms [30 requests: too few to show …]`)
//! or, after a semicolon, what else was considered (`none of the 21 TPOT figures is p99 TPOT
//! at the client; the closest: …`). Splitting there keeps every word, in order.

/// `explanation` as (reason, details); `None` details when it is already short.
pub fn brief(explanation: &str) -> (String, Option<String>) {
    let text = explanation.trim();
    let body = text.strip_suffix('.').unwrap_or(text);
    if let Some(open) = body.find(" [")
        && body.ends_with(']')
    {
        let reason = &body[..open];
        let details = &body[open + 2..body.len() - 1];
        return (format!("{reason}."), Some(sentence(details)));
    }
    if let Some(at) = body.find("; ") {
        let (reason, details) = (&body[..at], &body[at + 2..]);
        return (format!("{reason}."), Some(sentence(details)));
    }
    (text.to_string(), None)
}

/// `details` as a sentence of its own: first letter capital, a full stop at the end.
fn sentence(details: &str) -> String {
    let mut chars = details.trim().chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::brief;

    #[test]
    fn a_bracketed_note_and_a_second_clause_become_details() {
        let (reason, details) = brief(
            "p99 TTFT at the client: 572 ms misses ≤ 450 ms by 122 ms [30 requests: too few to \
             show a p99 is met (it needs 100), enough to show it is missed].",
        );
        assert_eq!(
            reason,
            "p99 TTFT at the client: 572 ms misses ≤ 450 ms by 122 ms."
        );
        assert_eq!(
            details.as_deref(),
            Some(
                "30 requests: too few to show a p99 is met (it needs 100), enough to show it is missed."
            )
        );
        let (reason, details) = brief(
            "Nicht vergleichbar: keiner der 21 TPOT-Werte ist p99 TPOT am Client; der \
             nächstliegende: zu kleine Stichprobe.",
        );
        assert_eq!(
            reason,
            "Nicht vergleichbar: keiner der 21 TPOT-Werte ist p99 TPOT am Client."
        );
        assert_eq!(
            details.as_deref(),
            Some("Der nächstliegende: zu kleine Stichprobe.")
        );
        let short = "Latency and throughput belong to the configuration they are measured with.";
        assert_eq!(brief(short), (short.to_string(), None));
    }
}
