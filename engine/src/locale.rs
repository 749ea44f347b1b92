//! The product's languages (English, German) and their number and date formats.
//!
//! The interface and the report render in either language; the interface takes the one a
//! person chose, else their browser's ([`Lang::from_accept_language`]). Some sentences are
//! phrased here in the engine. Generators that have a German phrasing take a [`Lang`]
//! (`PassMark::sentence_in`, `Metric::default_definition_in`, `Configuration::label_in`), so
//! each sentence is written whole in each language instead of being patched word by word
//! afterwards. The report's fixed words live with its template in `desk`.

use serde::{Deserialize, Serialize};

/// A language of the product. Serde / query names: `en`, `de`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    De,
}

impl Lang {
    /// Reads `en` / `de` (any case, also `english`, `deutsch`); `None` otherwise.
    pub fn parse(text: &str) -> Option<Lang> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "en" | "english" => Some(Lang::En),
            "de" | "german" | "deutsch" => Some(Lang::De),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }

    /// `value` with `decimals` decimals and thousands separators: `12,345.6` / `12.345,6`.
    pub fn number(self, value: f64, decimals: usize) -> String {
        if !value.is_finite() {
            return "—".into();
        }
        let text = format!("{:.*}", decimals, value.abs());
        let (whole, fraction) = match text.split_once('.') {
            Some((w, f)) => (w.to_string(), Some(f.to_string())),
            None => (text, None),
        };
        let (group, point) = match self {
            Lang::En => (',', '.'),
            Lang::De => ('.', ','),
        };
        let mut grouped = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(group);
            }
            grouped.push(digit);
        }
        let negative = value < 0.0 && text_is_nonzero(&grouped, fraction.as_deref());
        let mut out = String::new();
        if negative {
            out.push('−');
        }
        out.push_str(&grouped);
        if let Some(fraction) = fraction {
            out.push(point);
            out.push_str(&fraction);
        }
        out
    }

    /// `text`, a number written the English way (`1,234.5`), with this language's separators
    /// (`1.234,5`): for figures an English formatter already wrote.
    pub fn separators(self, text: &str) -> String {
        match self {
            Lang::En => text.to_string(),
            Lang::De => text
                .chars()
                .map(|c| match c {
                    ',' => '.',
                    '.' => ',',
                    other => other,
                })
                .collect(),
        }
    }

    /// A number with as many decimals as its size deserves (3 significant digits below 100).
    pub fn figure(self, value: f64) -> String {
        let magnitude = value.abs();
        let decimals = if magnitude >= 100.0 || magnitude == 0.0 {
            0
        } else if magnitude >= 10.0 {
            1
        } else if magnitude >= 1.0 {
            2
        } else {
            3
        };
        self.number(value, decimals)
    }

    /// A share 0–1 as a percentage: `12.5 %` / `12,5 %`.
    pub fn percent(self, share: f64) -> String {
        format!("{} %", self.number(share * 100.0, 1))
    }

    /// A UTC date and time: `2026-11-30 09:18 UTC` / `30.11.2026 09:18 UTC`.
    pub fn date_time(self, unix_ms: i64) -> String {
        let iso = crate::clock::utc_minute(unix_ms);
        match self {
            Lang::En => iso,
            Lang::De => {
                // `YYYY-MM-DD HH:MM UTC` → `DD.MM.YYYY HH:MM UTC`
                let (date, rest) = iso.split_once(' ').unwrap_or((iso.as_str(), ""));
                let parts: Vec<&str> = date.split('-').collect();
                if parts.len() == 3 {
                    format!("{}.{}.{} {rest}", parts[2], parts[1], parts[0])
                } else {
                    iso.clone()
                }
            }
        }
    }

    /// A UTC date: `2026-11-30` / `30.11.2026`.
    pub fn date(self, unix_ms: i64) -> String {
        let iso = crate::clock::utc_date(unix_ms);
        match (self, iso.split('-').collect::<Vec<_>>().as_slice()) {
            (Lang::De, [y, m, d]) => format!("{d}.{m}.{y}"),
            _ => iso.clone(),
        }
    }

    /// `en` or `de`, whichever is this language: the report's one-off words, written next to
    /// the code that places them so both languages stay side by side.
    pub fn pick<'a>(self, en: &'a str, de: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::De => de,
        }
    }
}

impl Lang {
    /// The language an HTTP `Accept-Language` header prefers among those the product speaks:
    /// the highest `q` wins, ties go to the earlier entry, `q=0` means "not this one", and a
    /// region (`de-AT`, `en-GB`) counts as its language. `None` when it names neither (or
    /// only `*`), so the caller's default applies. `de-DE,de;q=0.9,en;q=0.8` → German.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f64, Lang)> = None;
        for entry in header.split(',') {
            let mut parts = entry.split(';');
            let tag = parts.next().unwrap_or("").trim();
            let primary = tag.split(['-', '_']).next().unwrap_or("");
            let lang = match primary.to_ascii_lowercase().as_str() {
                "en" => Lang::En,
                "de" => Lang::De,
                _ => continue,
            };
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .filter_map(|q| q.trim().parse::<f64>().ok())
                .next()
                .unwrap_or(1.0);
            if !(q > 0.0 && q <= 1.0) {
                continue;
            }
            if best.is_none_or(|(top, _)| q > top) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, lang)| lang)
    }

    /// The other language, for a switch that offers it.
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::De,
            Lang::De => Lang::En,
        }
    }

    /// The language's own name, as a switch shows it: `English`, `Deutsch`.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
        }
    }
}

fn text_is_nonzero(whole: &str, fraction: Option<&str>) -> bool {
    whole
        .chars()
        .chain(fraction.unwrap_or("").chars())
        .any(|c| c.is_ascii_digit() && c != '0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browsers_preferred_language_is_read_with_its_weights() {
        assert_eq!(
            Lang::from_accept_language("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7"),
            Some(Lang::De)
        );
        assert_eq!(Lang::from_accept_language("en-GB,en;q=0.9"), Some(Lang::En));
        // The weight decides, not the order; q=0 refuses a language.
        assert_eq!(
            Lang::from_accept_language("fr-FR, en;q=0.5, de-AT;q=0.8"),
            Some(Lang::De)
        );
        assert_eq!(
            Lang::from_accept_language("de;q=0, en;q=0.1"),
            Some(Lang::En)
        );
        assert_eq!(Lang::from_accept_language("DE"), Some(Lang::De));
        // Neither language, a wildcard, garbage: the caller's default.
        assert_eq!(Lang::from_accept_language("fr-FR,fr;q=0.9"), None);
        assert_eq!(Lang::from_accept_language("*"), None);
        assert_eq!(Lang::from_accept_language(""), None);
        assert_eq!(Lang::from_accept_language("de;q=abc"), Some(Lang::De));
        assert_eq!(Lang::from_accept_language("de;q=7"), None);
        assert_eq!(Lang::De.other(), Lang::En);
        let day = 1_764_494_280_000; // 2025-11-30 09:18 UTC
        assert_eq!(Lang::En.date(day), crate::clock::utc_date(day));
        assert_eq!(Lang::De.date(day), "30.11.2025");
        assert_eq!(Lang::En.other().own_name(), "Deutsch");
    }

    #[test]
    fn numbers_follow_the_locale() {
        assert_eq!(Lang::En.number(12_345.678, 1), "12,345.7");
        assert_eq!(Lang::De.number(12_345.678, 1), "12.345,7");
        assert_eq!(Lang::De.number(999.0, 0), "999");
        assert_eq!(Lang::En.number(1_000_000.0, 0), "1,000,000");
        assert_eq!(Lang::En.number(-0.04, 1), "0.0");
        assert_eq!(Lang::En.number(-2.5, 1), "−2.5");
        assert_eq!(Lang::De.percent(0.125), "12,5 %");
        assert_eq!(Lang::En.figure(0.4567), "0.457");
        assert_eq!(Lang::De.figure(45.67), "45,7");
    }

    #[test]
    fn dates_follow_the_locale() {
        // 2026-11-30 09:18 UTC
        let at = 1_796_030_280_000;
        assert_eq!(Lang::En.date_time(at), crate::clock::utc_minute(at));
        assert!(
            Lang::De.date_time(at).starts_with("30.11.2026"),
            "{}",
            Lang::De.date_time(at)
        );
    }

    #[test]
    fn languages_parse() {
        assert_eq!(Lang::parse("DE"), Some(Lang::De));
        assert_eq!(Lang::parse(""), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
    }
}
