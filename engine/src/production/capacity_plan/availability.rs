//! Which cards the plan considers: a shopping list must be orderable, so cards at end of sale
//! or end of life ([`crate::sizing::availability`]) are left out unless the input asks for
//! them, and every one left out is named with why, in the plan and in one sentence of its story.

use super::{LeftOutGpu, Recommendation};
use crate::locale::Lang;
use crate::sizing::{GpuSpec, availability_of};

/// The cards to consider and those left out: every card that is not current, unless
/// `include_unorderable`. A card without an availability record anywhere (added by hand) is
/// considered.
pub(super) fn split(
    gpus: &[GpuSpec],
    include_unorderable: bool,
) -> (Vec<GpuSpec>, Vec<LeftOutGpu>) {
    let mut offered = Vec::new();
    let mut left_out = Vec::new();
    for gpu in gpus {
        match availability_of(gpu) {
            Some(availability) if !include_unorderable && !availability.orderable() => left_out
                .push(LeftOutGpu {
                    gpu_id: gpu.id.clone(),
                    gpu_name: gpu.name.clone(),
                    reason: availability.status_in(Lang::En),
                    availability,
                }),
            _ => offered.push(gpu.clone()),
        }
    }
    (offered, left_out)
}

impl LeftOutGpu {
    /// Why, in `lang`.
    pub fn reason_in(&self, lang: Lang) -> String {
        self.availability.status_in(lang)
    }
}

/// `a`, `a and b`, `a, b and c` (`und` in German).
fn joined(names: &[&str], lang: Lang) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} {} {last}", rest.join(", "), lang.pick("and", "und")),
    }
}

/// The story's sentence on availability, in `lang`: which cards were left out and why (grouped
/// by reason), and, when the recommended card is not current (the input included such cards),
/// that its delivery must be confirmed. `None` when there is nothing to say.
pub(super) fn sentence_in(
    left_out: &[LeftOutGpu],
    recommended: Option<&Recommendation>,
    lang: Lang,
) -> Option<String> {
    let mut sentences = Vec::new();
    if !left_out.is_empty() {
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        for gpu in left_out {
            let reason = gpu.reason_in(lang);
            match groups.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, names)) => names.push(&gpu.gpu_name),
                None => groups.push((reason, vec![&gpu.gpu_name])),
            }
        }
        let listed = groups
            .iter()
            .map(|(reason, names)| format!("{} ({reason})", joined(names, lang)))
            .collect::<Vec<_>>()
            .join(", ");
        sentences.push(match lang {
            Lang::En => format!(
                "Left out as no longer orderable: {listed}; include_unorderable weighs them too."
            ),
            Lang::De => format!(
                "Nicht berücksichtigt, weil nicht mehr bestellbar: {listed}; include_unorderable \
                 bezieht sie mit ein."
            ),
        });
    }
    if let Some(r) = recommended
        && let Some(availability) = r.availability.as_ref().filter(|a| !a.orderable())
    {
        let (name, status) = (&r.configuration.gpu_name, availability.status_in(lang));
        sentences.push(match lang {
            Lang::En => format!(
                "The recommended {name} can no longer be ordered new ({status}): confirm that a \
                 supplier can deliver it before quoting it."
            ),
            Lang::De => format!(
                "Die empfohlene {name} ist nicht mehr neu bestellbar ({status}): vor dem Angebot \
                 bei einem Lieferanten bestätigen, dass sie lieferbar ist."
            ),
        });
    }
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

impl super::CapacityPlan {
    /// The story's sentence on the cards left out (and on a recommended card that is not
    /// current), in `lang`; `None` when there is none.
    pub fn availability_sentence_in(&self, lang: Lang) -> Option<String> {
        sentence_in(&self.left_out, self.recommended.as_ref(), lang)
    }
}
