//! Number formatting shared by pages, charts and the report, so a figure reads the same
//! everywhere (`443,328 tokens`, not `443328` on one page and `443 328` on another).

/// `443328` → `443,328`.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A whole number of a float, rounded, with thousands separators and its sign (`-1,234`).
pub fn thousands_rounded(value: f64) -> String {
    let sign = if value < 0.0 && value.round() != 0.0 {
        "-"
    } else {
        ""
    };
    format!("{sign}{}", thousands(value.abs().round() as u64))
}

/// A number with thousands separators and `decimals` places: 97887 → "97,887".
pub fn num(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let text = format!("{:.*}", decimals, value.abs());
    let (int_part, frac) = match text.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (text.clone(), None),
    };
    let mut grouped = String::new();
    for (i, c) in int_part.chars().enumerate() {
        if i > 0 && (int_part.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if value < 0.0 && text.chars().any(|c| c != '0' && c != '.') {
        "-"
    } else {
        ""
    };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// [`num`] in `lang`: English keeps `num`'s own format, German takes the locale's
/// (`97.887,5`), so engine sentences that gained a German phrasing read as before in English.
pub fn num_in(value: f64, decimals: usize, lang: crate::locale::Lang) -> String {
    match lang {
        crate::locale::Lang::En => num(value, decimals),
        crate::locale::Lang::De => lang.number(value, decimals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_of_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(443_328), "443,328");
        assert_eq!(thousands(12_345_678), "12,345,678");
        assert_eq!(thousands_rounded(-1234.6), "-1,235");
        assert_eq!(thousands_rounded(-0.2), "0");
    }
}
