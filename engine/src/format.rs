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
