//! How a card is sold: singly (PCIe), only on multi-GPU boards (SXM, OAM), or not for servers
//! at all (GeForce, a desktop system).
//!
//! A shopping list must be orderable: nobody sells one H100 SXM, only HGX boards of four or
//! eight, and an MI300X comes as eight OAM modules on one baseboard. So a configuration on such
//! a card is offered in its board sizes ([`FormFactor::cards_to_buy`]), the spare cards serving
//! as further copies. GeForce cards are not licensed for data-centre deployment, a DGX Spark
//! is a desktop system, and a workstation card (RTX PRO 6000 Workstation and Max-Q) is built for
//! a tower's airflow, its server edition being the data-centre product of the same chip
//! (NVIDIA's RTX PRO 6000 Blackwell Server Edition datasheet: passive, for server chassis); so
//! none of them is recommended for production ([`FormFactor::production_use`]).
//!
//! The figures live in `engine/data/gpus.json` as each row's `form_factor` (`kind`,
//! `board_sizes`, `sources`), read here on their own so [`super::GpuSpec`] is unchanged.
//! A card without the field (typed in by hand) is taken as a single PCIe card.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The kind of product a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormFactorKind {
    /// NVIDIA SXM module, sold on HGX/DGX boards.
    Sxm,
    /// OCP accelerator module, sold on universal baseboards (AMD Instinct).
    Oam,
    /// A PCIe server card, sold singly.
    Pcie,
    /// A PCIe workstation card, sold singly.
    Workstation,
    /// A GeForce card: not licensed for data-centre use.
    Consumer,
    /// A complete desktop system (DGX Spark).
    Desktop,
}

/// How a card is sold, with where that was read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormFactor {
    pub kind: FormFactorKind,
    /// The numbers of cards one can buy together (`[4, 8]` for HGX); `[1]` when sold singly.
    pub board_sizes: Vec<u32>,
    #[serde(default)]
    pub sources: Vec<String>,
}

impl FormFactor {
    /// A single PCIe card: the assumption for a card the catalog does not describe.
    pub fn single_pcie() -> Self {
        FormFactor {
            kind: FormFactorKind::Pcie,
            board_sizes: vec![1],
            sources: vec!["not in the catalog: taken as a single PCIe card".into()],
        }
    }

    /// Sold only as multi-GPU boards.
    pub fn sold_in_boards(&self) -> bool {
        matches!(self.kind, FormFactorKind::Sxm | FormFactorKind::Oam)
    }

    /// The fewest cards at or above `needed` that whole boards make up (any mix of the board
    /// sizes); `needed` when the card is sold singly.
    pub fn cards_to_buy(&self, needed: u32) -> u32 {
        let sizes: Vec<u32> = self
            .board_sizes
            .iter()
            .copied()
            .filter(|s| *s > 0)
            .collect();
        let Some(&largest) = sizes.iter().max() else {
            return needed;
        };
        let limit = (needed + largest) as usize;
        let mut reachable = vec![false; limit + 1];
        reachable[0] = true;
        for n in 1..=limit {
            reachable[n] = sizes
                .iter()
                .any(|&s| s as usize <= n && reachable[n - s as usize]);
        }
        (needed as usize..=limit)
            .find(|&n| reachable[n] && n > 0)
            .unwrap_or(limit) as u32
    }

    /// Why the card is not offered for production, if it is not.
    pub fn production_use(&self) -> Result<(), &'static str> {
        match self.kind {
            FormFactorKind::Consumer => Err(
                "a GeForce card: NVIDIA's GeForce driver licence does not permit data-centre deployment",
            ),
            FormFactorKind::Desktop => Err("a desktop development system, not a server"),
            FormFactorKind::Workstation => Err(
                "a workstation card (cooled for a tower, not a server's front-to-back airflow); offer its server edition instead",
            ),
            _ => Ok(()),
        }
    }
}

#[derive(Deserialize)]
struct Row {
    id: String,
    #[serde(default)]
    form_factor: Option<FormFactor>,
}

#[derive(Deserialize)]
struct Catalog {
    gpus: Vec<Row>,
}

fn catalog() -> &'static [(String, FormFactor)] {
    static FORM_FACTORS: OnceLock<Vec<(String, FormFactor)>> = OnceLock::new();
    FORM_FACTORS.get_or_init(|| {
        let file: Catalog = serde_json::from_str(include_str!("../../data/gpus.json"))
            .expect("gpus.json parses (checked by the catalog tests)");
        file.gpus
            .into_iter()
            .filter_map(|row| Some((row.id, row.form_factor?)))
            .collect()
    })
}

/// How the catalog card `gpu_id` is sold; a single PCIe card when the catalog does not say.
pub fn form_factor(gpu_id: &str) -> FormFactor {
    catalog()
        .iter()
        .find(|(id, _)| id.eq_ignore_ascii_case(gpu_id))
        .map(|(_, f)| f.clone())
        .unwrap_or_else(FormFactor::single_pcie)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_card_states_how_it_is_sold_with_a_source() {
        for gpu in super::super::gpus() {
            let found = catalog().iter().find(|(id, _)| *id == gpu.id);
            let (_, f) = found.unwrap_or_else(|| panic!("{} has no form_factor", gpu.id));
            assert!(
                !f.board_sizes.is_empty() && !f.sources.is_empty(),
                "{}",
                gpu.id
            );
        }
    }

    #[test]
    fn an_sxm_card_is_bought_by_the_board() {
        let h100 = form_factor("h100-sxm");
        assert!(h100.sold_in_boards());
        assert_eq!(h100.cards_to_buy(1), 4);
        assert_eq!(h100.cards_to_buy(5), 8);
        assert_eq!(h100.cards_to_buy(9), 12);
        assert_eq!(form_factor("mi300x").cards_to_buy(2), 8);
        assert_eq!(form_factor("l40s").cards_to_buy(3), 3);
        assert_eq!(form_factor("custom").kind, FormFactorKind::Pcie);
    }

    #[test]
    fn geforce_desktop_and_workstation_cards_are_not_for_production() {
        assert!(form_factor("rtx-4090").production_use().is_err());
        assert!(form_factor("dgx-spark").production_use().is_err());
        let max_q = form_factor("rtx-pro-6000-max-q").production_use();
        assert!(max_q.unwrap_err().contains("server edition"));
        assert!(form_factor("rtx-pro-6000-server").production_use().is_ok());
        assert!(form_factor("h100-pcie").production_use().is_ok());
    }
}
