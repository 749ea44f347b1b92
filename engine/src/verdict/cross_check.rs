//! Checks across the evidence that change how the verdict reads.
//!
//! * **Requests in flight, measured two ways** ([`log_in_flight_check`],
//!   [`server_in_flight_check`]). The gateway log gives the exact in-flight sweep; Little's law
//!   gives the same mean from the busiest hour's arrival rate × the mean time its requests spent
//!   in the system. The two differ only by requests straddling the hour's edges, so more than
//!   [`LOG_TOLERANCE`] (10 %) apart means the log is inconsistent (clocks, missing end times,
//!   records from another period). When two `/metrics` scrapes span the busiest hour, vLLM's own
//!   Δ`vllm:e2e_request_latency_seconds_sum` ÷ Δt is a third, independent figure for the same
//!   window; it leaves out the gateway's own time and cancelled requests, so it may sit a little
//!   below the log, and more than [`SERVER_TOLERANCE`] (20 %) apart means the scrapes and the log
//!   do not describe the same traffic (another server, another period, a gateway spreading load
//!   over several servers).
//! * **Pass marks written after the data** ([`first_approval_after_evidence`]): the plan's
//!   first approval came after the first evidence arrived, so the marks may have been fitted to
//!   the results. (Amendments after evidence are flagged separately, from the plan's history.)
//! * **Small evaluation sets** ([`small_eval_set`]): fewer than 50 questions (the guide: fifty to
//!   a hundred real questions).

use crate::demand::DemandProfile;
use crate::locale::Lang;
use crate::plan::PlanVersion;
use serde::{Deserialize, Serialize};

/// How far Little's law on the log may be from the log's own sweep, as a fraction.
pub const LOG_TOLERANCE: f64 = 0.10;
/// How far vLLM's mean in flight may be from the log's over the same window, as a fraction.
pub const SERVER_TOLERANCE: f64 = 0.20;

/// One comparison of two mean-in-flight figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InFlightCheck {
    /// What is compared, for people.
    pub label: String,
    /// The figure checked (Little's law, or vLLM's), requests.
    pub checked: f64,
    /// How it was computed.
    pub checked_definition: String,
    /// The reference (the log's sweep over the same window), requests.
    pub reference: f64,
    pub reference_definition: String,
    /// (checked − reference) ÷ reference; `None` when the reference is 0.
    pub relative_difference: Option<f64>,
    /// The tolerance applied, as a fraction.
    pub tolerance: f64,
    /// Within the tolerance.
    pub agrees: bool,
    /// One sentence for the verdict and the report.
    pub sentence: String,
}

fn relative(checked: f64, reference: f64) -> Option<f64> {
    (reference.is_finite() && reference > 0.0 && checked.is_finite())
        .then(|| (checked - reference) / reference)
}

/// What one check compares, in English and German (`[en, de]`).
struct Compared {
    label: [&'static str; 2],
    checked_definition: [String; 2],
    reference_definition: [&'static str; 2],
}

const LOG_LABEL: [&str; 2] = [
    "Requests in flight in the busiest hour, gateway log",
    "Gleichzeitige Anfragen in der Spitzenstunde, Gateway-Log",
];
const LOG_REFERENCE: [&str; 2] = [
    "the log's exact sweep over start and end times",
    "exakter Verlauf des Logs über Start- und Endzeiten",
];
const SERVER_LABEL: [&str; 2] = [
    "Requests in flight between the two /metrics scrapes",
    "Gleichzeitige Anfragen zwischen den beiden /metrics-Abfragen",
];
const SERVER_DEFINITION: [&str; 2] = [
    "vLLM: Δ vllm:e2e_request_latency_seconds_sum ÷ Δt, queued included, cancelled and gateway time not",
    "vLLM: Δ vllm:e2e_request_latency_seconds_sum ÷ Δt, Wartende eingeschlossen, abgebrochene Anfragen und Gateway-Zeit nicht",
];
const SERVER_REFERENCE: [&str; 2] = [
    "the gateway log's sweep over the same window",
    "Verlauf des Gateway-Logs über dasselbe Fenster",
];

fn index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::De => 1,
    }
}

/// A figure rounded to two decimals, as the sentence shows it.
fn shown(value: f64, lang: Lang) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    match lang {
        Lang::En => crate::plan::format_number(rounded),
        Lang::De => crate::plan::format_number(rounded)
            .replace(',', "\u{0}")
            .replace('.', ",")
            .replace('\u{0}', "."),
    }
}

fn check(
    compared: &Compared,
    checked: f64,
    reference: f64,
    tolerance: f64,
    lang: Lang,
) -> InFlightCheck {
    let difference = relative(checked, reference);
    let agrees = match difference {
        Some(d) => d.abs() <= tolerance,
        None => checked.abs() < 1e-9,
    };
    let i = index(lang);
    let sentence = sentence(
        compared, checked, reference, difference, agrees, tolerance, lang,
    );
    InFlightCheck {
        label: compared.label[i].to_string(),
        checked,
        checked_definition: compared.checked_definition[i].clone(),
        reference,
        reference_definition: compared.reference_definition[i].to_string(),
        relative_difference: difference,
        tolerance,
        agrees,
        sentence,
    }
}

fn sentence(
    compared: &Compared,
    checked: f64,
    reference: f64,
    difference: Option<f64>,
    agrees: bool,
    tolerance: f64,
    lang: Lang,
) -> String {
    let i = index(lang);
    let (label, checked_definition, reference_definition) = (
        compared.label[i],
        &compared.checked_definition[i],
        compared.reference_definition[i],
    );
    let (checked, reference) = (shown(checked, lang), shown(reference, lang));
    let tolerance = shown(tolerance * 100.0, lang);
    match lang {
        Lang::En => {
            let diff_words = difference
                .map(|d| {
                    if (d * 100.0).abs() < 0.05 {
                        "a difference of 0.0 %".to_string()
                    } else {
                        format!("a difference of {:+.1} %", d * 100.0)
                    }
                })
                .unwrap_or_else(|| "no reference".into());
            format!(
                "{label}: {checked} ({checked_definition}) against {reference} ({reference_definition}), {diff_words}; {} the ±{tolerance} % tolerance.",
                if agrees { "within" } else { "outside" },
            )
        }
        Lang::De => {
            let diff_words = difference
                .map(|d| {
                    let sign = if d > 0.0 && (d * 100.0).abs() >= 0.05 {
                        "+"
                    } else {
                        ""
                    };
                    format!("eine Abweichung von {sign}{} %", lang.number(d * 100.0, 1))
                })
                .unwrap_or_else(|| "kein Vergleichswert".into());
            format!(
                "{label}: {checked} ({checked_definition}) gegenüber {reference} ({reference_definition}), {diff_words}; {} der Toleranz von ±{tolerance} %.",
                if agrees { "innerhalb" } else { "außerhalb" },
            )
        }
    }
}

/// Little's law on the gateway log's busiest hour against its own sweep.
pub fn log_in_flight_check(profile: &DemandProfile) -> InFlightCheck {
    log_in_flight_check_in(profile, Lang::En)
}

/// [`log_in_flight_check`] with its label, definitions and sentence in `lang`.
pub fn log_in_flight_check_in(profile: &DemandProfile, lang: Lang) -> InFlightCheck {
    let little = &profile.littles_law;
    let rate = (little.arrival_rate_per_s * 1e4).round() / 1e4;
    let time = shown(little.mean_time_in_system_s, lang);
    let rate_de = crate::plan::format_number(rate)
        .replace(',', "\u{0}")
        .replace('.', ",")
        .replace('\u{0}', ".");
    let compared = Compared {
        label: LOG_LABEL,
        checked_definition: [
            format!(
                "Little's law: {} req/s × {} s mean time in system",
                crate::plan::format_number(rate),
                shown(little.mean_time_in_system_s, Lang::En)
            ),
            format!("Littles Gesetz: {rate_de} req/s × {time} s mittlere Verweildauer"),
        ],
        reference_definition: LOG_REFERENCE,
    };
    check(
        &compared,
        little.predicted_in_flight,
        little.measured_in_flight,
        LOG_TOLERANCE,
        lang,
    )
}

impl InFlightCheck {
    /// The sentence in `lang`. A check of the log on itself names Little's law's own figures,
    /// which only [`log_in_flight_check_in`] has; this keeps its English sentence.
    pub fn sentence_in(&self, lang: Lang) -> String {
        if lang == Lang::En || self.label != SERVER_LABEL[0] {
            return self.sentence.clone();
        }
        let compared = Compared {
            label: SERVER_LABEL,
            checked_definition: SERVER_DEFINITION.map(String::from),
            reference_definition: SERVER_REFERENCE,
        };
        sentence(
            &compared,
            self.checked,
            self.reference,
            self.relative_difference,
            self.agrees,
            self.tolerance,
            lang,
        )
    }
}

/// The busiest hour's start and end, Unix ms.
pub fn busiest_hour_ms(profile: &DemandProfile) -> (i64, i64) {
    let start = profile.busiest_hour_start.unix_ms;
    (start, start + 3_600_000)
}

/// vLLM's mean in flight between two scrapes (Δ latency sum ÷ Δt) against the log's mean over
/// the same window; `None` when the scrapes do not span the busiest hour (then there is no
/// like-for-like window to compare), or a figure is missing.
pub fn server_in_flight_check(
    profile: &DemandProfile,
    server_mean_in_flight: Option<f64>,
    from_ms: Option<i64>,
    to_ms: Option<i64>,
) -> Option<InFlightCheck> {
    let server = server_mean_in_flight.filter(|v| v.is_finite())?;
    let (from, to) = (from_ms?, to_ms?);
    let (hour_from, hour_to) = busiest_hour_ms(profile);
    if from > hour_from || to < hour_to {
        return None;
    }
    let log = profile.in_flight_curve.mean_between(from, to)?;
    let compared = Compared {
        label: SERVER_LABEL,
        checked_definition: SERVER_DEFINITION.map(String::from),
        reference_definition: SERVER_REFERENCE,
    };
    Some(check(&compared, server, log, SERVER_TOLERANCE, Lang::En))
}

/// Why no server-side cross-check was made, when scrapes exist but do not span the busiest hour.
pub fn server_check_gap(
    profile: &DemandProfile,
    from_ms: Option<i64>,
    to_ms: Option<i64>,
) -> Option<String> {
    server_check_gap_in(profile, from_ms, to_ms, Lang::En)
}

/// [`server_check_gap`] in `lang`.
pub fn server_check_gap_in(
    profile: &DemandProfile,
    from_ms: Option<i64>,
    to_ms: Option<i64>,
    lang: Lang,
) -> Option<String> {
    let (hour_from, hour_to) = busiest_hour_ms(profile);
    let at = |ms: i64| match lang {
        Lang::En => crate::traffic::timestamp::format_rfc3339_ms(ms) + " UTC",
        Lang::De => lang.date_time(ms),
    };
    match (from_ms, to_ms) {
        (Some(from), Some(to)) if from <= hour_from && to >= hour_to => None,
        (Some(_), Some(_)) => Some(match lang {
            Lang::En => format!(
                "The /metrics scrapes do not span the busiest hour ({} to {}), so vLLM's mean in flight cannot be set against the log's: scrape before and after it.",
                at(hour_from),
                at(hour_to)
            ),
            Lang::De => format!(
                "Die /metrics-Scrapes umfassen die Spitzenstunde ({} bis {}) nicht, daher lässt sich vLLMs Mittel gleichzeitiger Anfragen nicht dem des Logs gegenüberstellen: vor und nach ihr abfragen.",
                at(hour_from),
                at(hour_to)
            ),
        }),
        _ => Some(
            lang.pick(
                "The /metrics scrapes carry no times, so vLLM's mean in flight cannot be placed against the log's busiest hour.",
                "Die /metrics-Scrapes tragen keine Zeiten, daher lässt sich vLLMs Mittel gleichzeitiger Anfragen nicht der Spitzenstunde des Logs zuordnen.",
            )
            .into(),
        ),
    }
}

/// A plan whose first approval came after the first evidence arrived: the marks may have been
/// written knowing the results. `first_evidence` is the earliest upload (Unix ms, file name).
pub fn first_approval_after_evidence(
    versions: &[PlanVersion],
    first_evidence: Option<(i64, &str)>,
) -> Option<String> {
    first_approval_after_evidence_in(versions, first_evidence, Lang::En)
}

/// [`first_approval_after_evidence`] in `lang`.
pub fn first_approval_after_evidence_in(
    versions: &[PlanVersion],
    first_evidence: Option<(i64, &str)>,
    lang: Lang,
) -> Option<String> {
    let (evidence_ms, file) = first_evidence?;
    let first = versions
        .iter()
        .filter_map(|v| v.in_force_since_ms().map(|at| (at, v.number)))
        .min()?;
    let at = |ms: i64| crate::traffic::timestamp::format_rfc3339_ms(ms);
    (first.0 > evidence_ms).then(|| match lang {
        Lang::En => format!(
            "Pass marks written after the data: plan version {} was first approved at {} UTC, after the first evidence ({file}, uploaded {} UTC). The marks may have been set knowing the results.",
            first.1,
            at(first.0),
            at(evidence_ms)
        ),
        Lang::De => format!(
            "Zielwerte nach den Daten geschrieben: Planversion {} wurde erstmals am {} freigegeben, nach dem ersten Nachweis ({file}, hochgeladen am {}). Die Zielwerte wurden womöglich in Kenntnis der Ergebnisse gesetzt.",
            first.1,
            lang.date_time(first.0),
            lang.date_time(evidence_ms)
        ),
    })
}

/// A warning for an evaluation set of fewer than [`super::samples::EVAL_SET_MINIMUM`] questions.
pub fn small_eval_set(questions: usize) -> Option<String> {
    small_eval_set_in(questions, Lang::En)
}

/// [`small_eval_set`] in `lang`.
pub fn small_eval_set_in(questions: usize, lang: Lang) -> Option<String> {
    let minimum = super::samples::EVAL_SET_MINIMUM;
    let step = if questions == 0 {
        100.0
    } else {
        100.0 / questions as f64
    };
    (questions < minimum).then(|| match lang {
        Lang::En => format!(
            "The evaluation set has {questions} questions, fewer than the {minimum} to 100 real questions the guide asks for: its accuracy intervals are wide and one question moves the score by {step:.1} percentage points."
        ),
        Lang::De => format!(
            "Der Evaluationsdatensatz hat {questions} Fragen, weniger als die {minimum} bis 100 echten Fragen, die der Leitfaden verlangt: Die Intervalle seiner Genauigkeit sind breit, und eine Frage verschiebt die Bewertung um {} Prozentpunkte.",
            lang.number(step, 1)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demand::{DemandOptions, profile_gateway_log};
    use crate::traffic::ReadOptions;

    /// Two hours of one request every 10 s, each 5 s long: λ = 0.1 req/s, W = 5 s, L = 0.5.
    fn steady_log() -> DemandProfile {
        let mut log = String::new();
        for i in 0..720 {
            let start = 1_700_000_000.0 + f64::from(i) * 10.0;
            log.push_str(&format!(
                r#"{{"request_id":"r{i}","start_time":{start},"first_token_time":{},"end_time":{},"model":"m","prompt_tokens":100,"completion_tokens":50,"status":"ok","finish_reason":"stop"}}"#,
                start + 0.5,
                start + 5.0
            ));
            log.push('\n');
        }
        profile_gateway_log(
            log.as_bytes(),
            &ReadOptions::new("steady.jsonl"),
            DemandOptions::default(),
            |_| {},
        )
        .unwrap()
        .0
    }

    #[test]
    fn littles_law_on_a_steady_log_agrees_with_its_sweep() {
        let profile = steady_log();
        let check = log_in_flight_check(&profile);
        assert!((check.checked - 0.5).abs() < 0.01, "{}", check.checked);
        assert!((check.reference - 0.5).abs() < 0.01, "{}", check.reference);
        assert!(check.agrees);
        assert!(check.sentence.starts_with(
            "Requests in flight in the busiest hour, gateway log: 0.5 (Little's law: 0.1 req/s × 5 s mean time in system) against 0.5"
        ), "{}", check.sentence);
        assert!(check.sentence.ends_with("within the ±10 % tolerance."));
    }

    #[test]
    fn the_german_check_says_the_same_with_decimal_commas() {
        let profile = steady_log();
        let check = log_in_flight_check_in(&profile, Lang::De);
        assert_eq!(
            check.label,
            "Gleichzeitige Anfragen in der Spitzenstunde, Gateway-Log"
        );
        assert!(check.sentence.starts_with(
            "Gleichzeitige Anfragen in der Spitzenstunde, Gateway-Log: 0,5 (Littles Gesetz: 0,1 req/s × 5 s mittlere Verweildauer) gegenüber 0,5 (exakter Verlauf des Logs"
        ), "{}", check.sentence);
        assert!(
            check
                .sentence
                .ends_with("; innerhalb der Toleranz von ±10 %."),
            "{}",
            check.sentence
        );
        assert_eq!(
            log_in_flight_check(&profile),
            log_in_flight_check_in(&profile, Lang::En)
        );
    }

    #[test]
    fn the_server_check_is_phrased_in_german_from_its_figures() {
        let profile = steady_log();
        let (from, to) = busiest_hour_ms(&profile);
        let check = server_in_flight_check(&profile, Some(0.75), Some(from), Some(to)).unwrap();
        let german = check.sentence_in(Lang::De);
        assert!(
            german.starts_with(
                "Gleichzeitige Anfragen zwischen den beiden /metrics-Abfragen: 0,75 (vLLM:"
            ),
            "{german}"
        );
        assert!(
            german.contains("eine Abweichung von +50,0 %; außerhalb der Toleranz von ±20 %."),
            "{german}"
        );
        assert_eq!(check.sentence_in(Lang::En), check.sentence);
    }

    #[test]
    fn the_server_figure_is_checked_only_over_the_busiest_hour_and_flagged_when_far_off() {
        let profile = steady_log();
        let (from, to) = busiest_hour_ms(&profile);
        assert!(server_in_flight_check(&profile, Some(0.5), Some(from + 1), Some(to)).is_none());
        assert!(
            server_check_gap(&profile, Some(from + 1), Some(to))
                .unwrap()
                .starts_with("The /metrics scrapes do not span the busiest hour")
        );
        let close = server_in_flight_check(&profile, Some(0.45), Some(from), Some(to)).unwrap();
        assert!(close.agrees, "{}", close.sentence);
        assert!((close.relative_difference.unwrap() + 0.1).abs() < 0.02);
        // vLLM saw three times the log's load: the scrapes are of another server or period.
        let far = server_in_flight_check(&profile, Some(1.5), Some(from), Some(to)).unwrap();
        assert!(!far.agrees);
        assert!(
            far.sentence.contains("outside the ±20 % tolerance"),
            "{}",
            far.sentence
        );
        assert_eq!(server_check_gap(&profile, Some(from), Some(to)), None);
    }

    #[test]
    fn a_plan_first_approved_after_the_data_is_flagged() {
        use crate::account::Role;
        use crate::plan::{Approver, PlanContent, templates};
        let content: PlanContent = templates::by_id("mlperf-v6-llama2-70b-interactive")
            .unwrap()
            .content();
        let mut version = PlanVersion::first_draft(content, 1_000);
        version
            .approve(
                &Approver {
                    user_id: 1,
                    name: "A".into(),
                    role: Role::Admin,
                },
                5_000,
            )
            .unwrap();
        let versions = vec![version];
        assert_eq!(
            first_approval_after_evidence(&versions, Some((6_000, "gw.jsonl"))),
            None
        );
        let late = first_approval_after_evidence(&versions, Some((2_000, "gw.jsonl"))).unwrap();
        assert!(late.starts_with(
            "Pass marks written after the data: plan version 1 was first approved at 1970-01-01T00:00:05"
        ), "{late}");
        assert!(late.contains("after the first evidence (gw.jsonl, uploaded 1970-01-01T00:00:02"));
        assert_eq!(first_approval_after_evidence(&versions, None), None);
    }

    #[test]
    fn sets_under_fifty_questions_are_warned_about() {
        assert_eq!(small_eval_set(50), None);
        assert_eq!(
            small_eval_set(12).unwrap(),
            "The evaluation set has 12 questions, fewer than the 50 to 100 real questions the guide asks for: its accuracy intervals are wide and one question moves the score by 8.3 percentage points."
        );
    }
}
