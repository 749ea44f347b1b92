//! Whether a card can still be ordered: a shopping list must name parts one can buy.
//!
//! Every catalog row of `engine/data/gpus.json` carries an `availability`: its status
//! ([`AvailabilityStatus`]: current, end of sale, end of life), the date the status took effect
//! where one is published, the public sources it was read from, a note saying what the date
//! means (or why there is none), and whether the supplier of the pilot measurement guide offers
//! the card (`supplier_offers`: its line-up is DGX Spark, the RTX PRO 6000 Blackwell in all three
//! editions and the H200 NVL).
//!
//! The production recommendation considers only orderable (current) cards unless asked to weigh
//! the others too ([`crate::production::capacity_plan`]). A card without an availability (added
//! by hand on an installation, or a reviewed card whose figures an admin replaced) takes the
//! catalog row of the same id ([`availability_of`]); a card the catalog does not know is taken
//! as orderable, since an admin entered it for this installation.

use super::GpuSpec;
use crate::locale::Lang;
use serde::{Deserialize, Serialize};

/// Where a card stands in its vendor's life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AvailabilityStatus {
    /// Sold new by the vendor and its partners.
    Current,
    /// No longer sold new (what is left is remaining stock or used hardware); still supported.
    EndOfSale,
    /// Neither sold nor supported any more by the vendor's current software.
    EndOfLife,
}

impl AvailabilityStatus {
    /// `current`, `end_of_sale`, `end_of_life`.
    pub fn as_str(self) -> &'static str {
        match self {
            AvailabilityStatus::Current => "current",
            AvailabilityStatus::EndOfSale => "end_of_sale",
            AvailabilityStatus::EndOfLife => "end_of_life",
        }
    }

    /// The status in words, in `lang`.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (AvailabilityStatus::Current, Lang::En) => "current",
            (AvailabilityStatus::Current, Lang::De) => "lieferbar",
            (AvailabilityStatus::EndOfSale, Lang::En) => "end of sale",
            (AvailabilityStatus::EndOfSale, Lang::De) => "Verkauf eingestellt",
            (AvailabilityStatus::EndOfLife, Lang::En) => "end of life",
            (AvailabilityStatus::EndOfLife, Lang::De) => "abgekündigt",
        }
    }
}

/// Whether a card can be ordered, since when not, and where that was read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GpuAvailability {
    pub status: AvailabilityStatus,
    /// When the status took effect, ISO 8601 (`2025-10-31`, or `2024-10` where only the month
    /// is published); null where no date is published (the note says so).
    #[serde(default)]
    pub date: Option<String>,
    /// Public sources: vendor notices, product pages, the vendor's support answers.
    #[serde(default)]
    pub sources: Vec<String>,
    /// What the date means, or why there is none.
    #[serde(default)]
    pub note: Option<String>,
    /// The note in German, for the German interface (the sources are cited as published).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_de: Option<String>,
    /// The supplier of the pilot measurement guide offers the card.
    #[serde(default)]
    pub supplier_offers: bool,
}

impl GpuAvailability {
    /// Sold new: the recommendation considers it by default.
    pub fn orderable(&self) -> bool {
        self.status == AvailabilityStatus::Current
    }

    /// The status with its date, in `lang`: `end of life since 2025-10-31`, `end of sale, no
    /// date published`, `current`.
    pub fn status_in(&self, lang: Lang) -> String {
        let label = self.status.label_in(lang);
        match (&self.date, self.status, lang) {
            (_, AvailabilityStatus::Current, _) => label.to_string(),
            (Some(date), _, Lang::En) => format!("{label} since {date}"),
            (Some(date), _, Lang::De) => format!("{label} seit {date}"),
            (None, _, Lang::En) => format!("{label}, no date published"),
            (None, _, Lang::De) => format!("{label}, ohne veröffentlichtes Datum"),
        }
    }

    /// The note in `lang`; the English one where no German is written.
    pub fn note_in(&self, lang: Lang) -> Option<&str> {
        match lang {
            Lang::De => self.note_de.as_deref().or(self.note.as_deref()),
            Lang::En => self.note.as_deref(),
        }
    }

    /// Checks the record: a date of the form `YYYY-MM-DD` or `YYYY-MM`, at least one source,
    /// and a note for a card that is not current but has no date.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(date) = &self.date
            && !is_iso_date(date)
        {
            return Err(format!("date `{date}` is not YYYY-MM-DD or YYYY-MM"));
        }
        if self.sources.iter().all(|s| s.trim().is_empty()) {
            return Err("no source".into());
        }
        if self.status != AvailabilityStatus::Current
            && self.date.is_none()
            && self.note.as_deref().is_none_or(|n| n.trim().is_empty())
        {
            return Err("not current and no date: the note must say why".into());
        }
        Ok(())
    }
}

/// `YYYY-MM-DD` or `YYYY-MM` with a plausible month and day.
fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let number = |s: &str, len: usize| {
        (s.len() == len && s.chars().all(|c| c.is_ascii_digit())).then(|| s.parse::<u32>().ok())?
    };
    let (year, month) = match parts.as_slice() {
        [y, m] | [y, m, _] => (number(y, 4), number(m, 2)),
        _ => return false,
    };
    let day_ok = match parts.as_slice() {
        [_, _, d] => number(d, 2).is_some_and(|d| (1..=31).contains(&d)),
        _ => true,
    };
    year.is_some_and(|y| (1990..=2100).contains(&y))
        && month.is_some_and(|m| (1..=12).contains(&m))
        && day_ok
}

/// The availability of `gpu`: its own, else the catalog row of the same id (an admin-edited
/// reviewed card keeps the reviewed record); `None` for a card the catalog does not know.
pub fn availability_of(gpu: &GpuSpec) -> Option<GpuAvailability> {
    gpu.availability
        .clone()
        .or_else(|| super::gpu_by_id(&gpu.id).and_then(|row| row.availability))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::{gpu_by_id, gpus};

    #[test]
    fn an_availability_record_parses_and_checks_its_date() {
        let record: GpuAvailability = serde_json::from_str(
            r#"{"status": "end_of_life", "date": "2025-10-31",
                "sources": ["https://nvidia.custhelp.com/app/answers/detail/a_id/5676"],
                "supplier_offers": false}"#,
        )
        .unwrap();
        assert_eq!(record.status, AvailabilityStatus::EndOfLife);
        assert!(!record.orderable());
        assert_eq!(record.note, None);
        record.validate().unwrap();
        assert_eq!(record.status_in(Lang::En), "end of life since 2025-10-31");
        assert_eq!(record.status_in(Lang::De), "abgekündigt seit 2025-10-31");

        // No date: a note must say why.
        let undated: GpuAvailability = serde_json::from_str(
            r#"{"status": "end_of_sale", "date": null, "sources": ["a vendor page"]}"#,
        )
        .unwrap();
        assert!(!undated.supplier_offers);
        assert_eq!(
            undated.validate().unwrap_err(),
            "not current and no date: the note must say why"
        );
        assert_eq!(
            undated.status_in(Lang::En),
            "end of sale, no date published"
        );
        for bad in ["2025-13-01", "31.10.2025", "2025", "2025-10-32", "25-10-31"] {
            let record = GpuAvailability {
                date: Some(bad.into()),
                ..record.clone()
            };
            assert!(record.validate().is_err(), "{bad}");
        }
        let month = GpuAvailability {
            date: Some("2024-10".into()),
            ..record.clone()
        };
        month.validate().unwrap();
        assert!(
            serde_json::from_str::<GpuAvailability>(r#"{"status": "sold_out", "sources": []}"#)
                .is_err()
        );
    }

    #[test]
    fn every_catalog_card_states_its_availability_with_a_source() {
        for gpu in gpus() {
            let availability = gpu
                .availability
                .as_ref()
                .unwrap_or_else(|| panic!("{} has no availability", gpu.id));
            availability
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", gpu.id));
            // The German interface shows every shipped note in German.
            assert_eq!(
                availability.note.is_some(),
                availability.note_de.is_some(),
                "{}: a note and its German twin",
                gpu.id
            );
        }
        let status = |id: &str| gpu_by_id(id).unwrap().availability.unwrap().status;
        for id in ["v100-sxm2-16gb", "v100-sxm2-32gb"] {
            assert_eq!(status(id), AvailabilityStatus::EndOfLife, "{id}");
        }
        for id in ["a100-sxm4-80gb", "a100-pcie-80gb", "a100-sxm4-40gb"] {
            assert_eq!(status(id), AvailabilityStatus::EndOfSale, "{id}");
        }
        for id in [
            "rtx-pro-6000-server",
            "h200-nvl",
            "l40s",
            "h100-sxm",
            "b200",
        ] {
            assert_eq!(status(id), AvailabilityStatus::Current, "{id}");
        }
    }

    #[test]
    fn the_guides_supplier_offers_its_line_up_and_nothing_else() {
        let offered: Vec<String> = gpus()
            .into_iter()
            .filter(|g| g.availability.as_ref().is_some_and(|a| a.supplier_offers))
            .map(|g| g.id)
            .collect();
        assert_eq!(
            offered,
            [
                "dgx-spark",
                "rtx-pro-6000-workstation",
                "rtx-pro-6000-max-q",
                "rtx-pro-6000-server",
                "h200-nvl"
            ]
        );
    }

    #[test]
    fn an_edited_card_keeps_the_catalog_record_and_a_card_of_its_own_is_orderable() {
        let mut edited = gpu_by_id("v100-sxm2-16gb").unwrap();
        edited.availability = None;
        assert_eq!(
            availability_of(&edited).map(|a| a.status),
            Some(AvailabilityStatus::EndOfLife)
        );
        let own = GpuSpec::custom("lab card", 40.0, None, 1000.0, Some(100.0));
        assert_eq!(availability_of(&own), None);
    }
}
