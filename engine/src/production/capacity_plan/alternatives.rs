//! Why not the others, in a sentence: the question a sales engineer is asked when quoting the
//! recommendation ("why not the H200 NVL?"). The candidates table holds every answer; this
//! says the ones that matter in words: the best configuration of up to two other cards that
//! also hold (ranked lower, on more cards or more power, or at a higher cost), and for up to
//! two of the fastest cards where nothing holds with one copy down, the largest configuration
//! tried and the first mark it misses.

use super::{CandidateForecast, CandidateStatus};
use crate::format::num_in;
use crate::locale::Lang;

/// Cards of each kind the sentence names at most.
const NAMED: usize = 2;

/// The sentence in `lang`; `None` without a recommendation or anything to compare it with.
pub(super) fn sentence_in(candidates: &[CandidateForecast], lang: Lang) -> Option<String> {
    let chosen = candidates.iter().find(|c| c.rank == Some(1))?;
    let mut named = vec![chosen.configuration.gpu_id.as_str()];
    let mut ranked: Vec<&CandidateForecast> = candidates
        .iter()
        .filter(|c| c.rank.is_some_and(|r| r > 1))
        .collect();
    ranked.sort_by_key(|c| c.rank);
    let mut runners = Vec::new();
    for c in ranked {
        if runners.len() == NAMED {
            break;
        }
        if !named.contains(&c.configuration.gpu_id.as_str()) {
            named.push(&c.configuration.gpu_id);
            runners.push(c);
        }
    }
    let short = short_cards(candidates, &named);
    if runners.is_empty() && short.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    for c in runners {
        let label = c.configuration.label_in(lang);
        let power = c
            .board_power_w
            .map(|w| format!(", {} W", num_in(w, 0, lang)))
            .unwrap_or_default();
        let rank = c.rank.unwrap_or_default();
        parts.push(match lang {
            Lang::En => format!(
                "{label} holds too but ranks {rank} ({} cards{power})",
                c.cards
            ),
            Lang::De => format!(
                "{label} hält ebenfalls, steht aber auf Rang {rank} ({} Karten{power})",
                c.cards
            ),
        });
    }
    for c in short {
        let label = c.configuration.label_in(lang);
        let missed = c
            .predicted
            .iter()
            .find(|m| m.holds_n_plus_1 == Some(false) && m.value.is_some());
        parts.push(match (missed, lang) {
            (Some(m), Lang::En) => format!(
                "on {} nothing holds with one copy down: even {label} misses {} (predicted {} ms)",
                c.configuration.gpu_name,
                m.mark,
                num_in(m.value.unwrap_or_default(), 0, lang)
            ),
            (Some(m), Lang::De) => format!(
                "auf {} hält nichts mit einer ausgefallenen Kopie: selbst {label} verfehlt {} \
                 (vorhergesagt {} ms)",
                c.configuration.gpu_name,
                m.mark,
                num_in(m.value.unwrap_or_default(), 0, lang)
            ),
            (None, Lang::En) => format!(
                "on {} nothing holds with one copy down: even {label} cannot hold its sessions",
                c.configuration.gpu_name
            ),
            (None, Lang::De) => format!(
                "auf {} hält nichts mit einer ausgefallenen Kopie: selbst {label} hält ihre \
                 Sitzungen nicht",
                c.configuration.gpu_name
            ),
        });
    }
    Some(match lang {
        Lang::En => format!("Why not the others: {}.", parts.join("; ")),
        Lang::De => format!("Warum nicht die anderen: {}.", parts.join("; ")),
    })
}

/// Up to [`NAMED`] cards not in `named`, fastest first (decode ceiling), that were simulated
/// but hold nowhere with one copy down: each with its largest configuration tried.
fn short_cards<'a>(
    candidates: &'a [CandidateForecast],
    named: &[&str],
) -> Vec<&'a CandidateForecast> {
    let mut best: Vec<&CandidateForecast> = Vec::new();
    for c in candidates
        .iter()
        .filter(|c| c.status == CandidateStatus::Evaluated)
    {
        let gpu = c.configuration.gpu_id.as_str();
        if named.contains(&gpu) {
            continue;
        }
        match best.iter_mut().find(|b| b.configuration.gpu_id == gpu) {
            Some(b) if c.cards > b.cards => *b = c,
            Some(_) => {}
            None => best.push(c),
        }
    }
    let holds_somewhere = |gpu: &str| {
        candidates
            .iter()
            .any(|c| c.configuration.gpu_id == gpu && c.holds_n_plus_1 == Some(true))
    };
    best.retain(|c| !holds_somewhere(&c.configuration.gpu_id));
    let speed = |c: &CandidateForecast| c.physics.map_or(0.0, |p| p.decode_ceiling_tok_s);
    best.sort_by(|a, b| speed(b).total_cmp(&speed(a)));
    best.truncate(NAMED);
    best
}
