//! Report languages (English, German) and their number and date formats.
//!
//! The report renders in either language, and some of its sentences are phrased here in the
//! engine. Generators that have a German phrasing take a [`Lang`]
//! (`PassMark::sentence_in`, `Metric::default_definition_in`, `Configuration::label_in`), so
//! each sentence is written whole in each language instead of being patched word by word
//! afterwards. The report's fixed words live with its template in `desk`.

use serde::{Deserialize, Serialize};

/// A report language. Serde / query names: `en`, `de`.
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

    /// `en` or `de`, whichever is this language: the report's one-off words, written next to
    /// the code that places them so both languages stay side by side.
    pub fn pick<'a>(self, en: &'a str, de: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::De => de,
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
