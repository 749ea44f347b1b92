//! Grading a whole plan against the evidence collected so far.
//!
//! For each pass mark the figures of its metric are the candidates. Among those that are exactly
//! the mark's number (same point, statistic, scope, definition, convertible unit, and — for
//! latency and throughput — measured on the plan's GPU and engine version when both sides state
//! them) the most recently recorded one is graded; the others are counted so the report can say
//! "latest of 3". When candidates exist but none matches, the closest one (fewest differences;
//! a figure of the mark's kind that rests on too few samples or on another model's file counts
//! as closer than one measured elsewhere)
//! explains why the mark is not comparable, so the reader learns what evidence is missing (e.g.
//! "only engine TTFT exists"). No candidate at all means not measured.
//!
//! Which plan version to grade against (the one in force when the evidence was recorded) is the
//! caller's choice; see [`crate::plan::in_force_at`].

use super::evidence::EvidenceStatistic;
use super::german;
use super::grade::{
    MarkGrade, Verdict, combined_reason_in, evaluate_in, mismatches_in, not_comparable_in,
    not_measured,
};
use crate::locale::Lang;
use crate::plan::{PassMark, PlanContent};
use serde::{Deserialize, Serialize};

/// One pass mark of the plan with its grade.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradedMark {
    /// Position of the mark in the plan (0-based).
    pub mark_index: usize,
    pub pass_mark: PassMark,
    /// The mark in plain words.
    pub sentence: String,
    /// Index into the evidence list of the figure graded (or, when not comparable, of the
    /// closest figure that explains why).
    pub evidence_index: Option<usize>,
    /// Further figures that matched as well as the one graded.
    pub other_matches: usize,
    pub grade: MarkGrade,
}

/// How many marks ended in each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub not_measured: usize,
    pub not_comparable: usize,
}

impl Tally {
    /// `0 of 2 pass marks met, 1 missed, 1 not comparable` (`total` marks; the counts that are
    /// zero left out after the first): the one wording of the pilot page, the pilots list, the
    /// report and the recommendation's story.
    pub fn summary_in(&self, total: usize, lang: Lang) -> String {
        let (of, met, missed, not_measured, not_comparable) = match lang {
            Lang::En => (
                "of",
                "pass marks met",
                "missed",
                "not measured",
                "not comparable",
            ),
            Lang::De => (
                "von",
                "Zielwerten erreicht",
                "verfehlt",
                "nicht gemessen",
                "nicht vergleichbar",
            ),
        };
        let mut parts = vec![format!("{} {of} {total} {met}", self.passed)];
        for (count, word) in [
            (self.failed, missed),
            (self.not_measured, not_measured),
            (self.not_comparable, not_comparable),
        ] {
            if count > 0 {
                parts.push(format!("{count} {word}"));
            }
        }
        parts.join(", ")
    }
}

/// The plan's overall state. Serde names: `passed`, `failed`, `incomplete`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanOutcome {
    /// Every mark passed.
    Passed,
    /// At least one mark failed.
    Failed,
    /// No mark failed, but some are not measured or not comparable (or the plan has no marks).
    Incomplete,
}

impl PlanOutcome {
    /// A label for pages.
    pub fn label(self) -> &'static str {
        match self {
            PlanOutcome::Passed => "All pass marks met",
            PlanOutcome::Failed => "Pass marks missed",
            PlanOutcome::Incomplete => "Incomplete",
        }
    }

    /// [`PlanOutcome::label`] in `lang` (the report's words).
    pub fn label_in(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.label(),
            Lang::De => match self {
                PlanOutcome::Passed => "Alle Zielwerte erreicht",
                PlanOutcome::Failed => "Zielwerte verfehlt",
                PlanOutcome::Incomplete => "Unvollständig",
            },
        }
    }
}

/// Every mark of a plan, graded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanGrade {
    pub marks: Vec<GradedMark>,
    pub tally: Tally,
    pub outcome: PlanOutcome,
}

fn choose_latest(matching: &[usize], evidence: &[EvidenceStatistic]) -> usize {
    let mut best = matching[0];
    for &index in &matching[1..] {
        if evidence[index].recorded_at_ms > evidence[best].recorded_at_ms {
            best = index;
        }
    }
    best
}

fn grade_mark(
    plan: &PlanContent,
    mark_index: usize,
    mark: &PassMark,
    evidence: &[EvidenceStatistic],
    lang: Lang,
) -> GradedMark {
    let graded = |evidence_index, other_matches, grade| GradedMark {
        mark_index,
        pass_mark: mark.clone(),
        sentence: mark.sentence_in(lang),
        evidence_index,
        other_matches,
        grade,
    };
    let de = lang == Lang::De;
    let label = match lang {
        Lang::En => mark.key().label(),
        Lang::De => german::key_label(&mark.key()),
    };
    let metric = mark.metric.short_label_in(lang);
    let same_metric: Vec<usize> = (0..evidence.len())
        .filter(|&i| evidence[i].metric.same_as(&mark.metric))
        .collect();
    if same_metric.is_empty() {
        return graded(
            None,
            0,
            not_measured(if de {
                format!("Für {label} wurde kein {metric}-Wert erfasst.")
            } else {
                format!("No {metric} figure has been recorded for {label}.")
            }),
        );
    }
    let with_value: Vec<usize> = same_metric
        .iter()
        .copied()
        .filter(|&i| evidence[i].finite_value().is_some())
        .collect();
    if with_value.is_empty() {
        return graded(
            Some(same_metric[0]),
            0,
            not_measured(if de {
                format!("Die erfassten {metric}-Werte haben keinen Zahlenwert.")
            } else {
                format!("The {metric} figures recorded have no value.")
            }),
        );
    }
    let differences: Vec<(usize, Vec<_>)> = with_value
        .iter()
        .map(|&i| {
            (
                i,
                mismatches_in(mark, &evidence[i], Some(&plan.serving), lang),
            )
        })
        .collect();
    let matching: Vec<usize> = differences
        .iter()
        .filter(|(_, found)| found.is_empty())
        .map(|(i, _)| *i)
        .collect();
    if !matching.is_empty() {
        let chosen = choose_latest(&matching, evidence);
        let mut grade = evaluate_in(mark, &evidence[chosen], lang);
        if matching.len() > 1 && !matches!(grade.verdict, Verdict::NotComparable { .. }) {
            grade.explanation = if de {
                format!(
                    "{} Der jüngste von {} passenden Werten.",
                    grade.explanation,
                    Lang::De.number(matching.len() as f64, 0)
                )
            } else {
                format!(
                    "{} Latest of {} matching figures.",
                    grade.explanation,
                    matching.len()
                )
            };
        }
        return graded(Some(chosen), matching.len() - 1, grade);
    }
    // The closest figure explains best: a figure that is the mark's number but rests on too
    // few samples, or on a file of another model or GPU, is closer than one measured elsewhere.
    let weight = |found: &Vec<super::grade::Mismatch>| -> usize {
        found
            .iter()
            .map(|m| match m.aspect {
                "sample size" | "evidence" | "GPU" | "engine version" => 1,
                _ => 2,
            })
            .sum()
    };
    let (closest, found) = differences
        .iter()
        .min_by_key(|(_, found)| weight(found))
        .expect("at least one candidate");
    let mut reason = combined_reason_in(found, lang);
    if with_value.len() > 1 {
        reason = if de {
            format!(
                "keiner der {} {metric}-Werte ist {label}; der nächstliegende: {reason}",
                Lang::De.number(with_value.len() as f64, 0)
            )
        } else {
            format!(
                "none of the {} {metric} figures is {label}; the closest: {reason}",
                with_value.len()
            )
        };
    }
    graded(Some(*closest), 0, not_comparable_in(reason, lang))
}

/// Grades every mark of `plan` against `evidence`, picking for each mark the best matching figure.
pub fn grade_plan(plan: &PlanContent, evidence: &[EvidenceStatistic]) -> PlanGrade {
    grade_plan_in(plan, evidence, Lang::En)
}

/// [`grade_plan`] with each mark's sentence and explanation phrased in `lang`, for the report;
/// the verdicts, values and figures chosen are the same in every language.
pub fn grade_plan_in(plan: &PlanContent, evidence: &[EvidenceStatistic], lang: Lang) -> PlanGrade {
    let marks: Vec<GradedMark> = plan
        .pass_marks
        .iter()
        .enumerate()
        .map(|(index, mark)| grade_mark(plan, index, mark, evidence, lang))
        .collect();
    let mut tally = Tally::default();
    for mark in &marks {
        match mark.grade.verdict {
            Verdict::Pass => tally.passed += 1,
            Verdict::Fail => tally.failed += 1,
            Verdict::NotMeasured => tally.not_measured += 1,
            Verdict::NotComparable { .. } => tally.not_comparable += 1,
        }
    }
    let outcome = if tally.failed > 0 {
        PlanOutcome::Failed
    } else if !marks.is_empty() && tally.passed == marks.len() {
        PlanOutcome::Passed
    } else {
        PlanOutcome::Incomplete
    };
    PlanGrade {
        marks,
        tally,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::templates;
    use crate::plan::{MeasurementPoint, Metric, PilotServing, Scope, Statistic, Unit};

    fn interactive() -> PlanContent {
        let mut plan = templates::by_id("mlperf-v6-llama2-70b-interactive")
            .unwrap()
            .content();
        plan.serving = PilotServing {
            gpu: "H200 NVL".into(),
            engine_version: "0.30.0".into(),
            ..PilotServing::default()
        };
        plan
    }

    fn client(metric: Metric, statistic: Statistic, value: f64, unit: Unit) -> EvidenceStatistic {
        EvidenceStatistic::new(metric, statistic, value, unit, MeasurementPoint::Client)
    }

    #[test]
    fn each_mark_takes_its_matching_figure() {
        let evidence = vec![
            client(Metric::Tpot, Statistic::Mean, 20.0, Unit::Ms),
            client(Metric::Ttft, Statistic::P99, 0.31, Unit::S),
            client(Metric::Tpot, Statistic::P99, 43.5, Unit::Ms),
            client(Metric::Itl, Statistic::P99, 12.0, Unit::Ms),
        ];
        let graded = grade_plan(&interactive(), &evidence);
        assert_eq!(graded.marks[0].evidence_index, Some(1));
        assert_eq!(graded.marks[0].grade.verdict, Verdict::Pass);
        assert_eq!(graded.marks[0].grade.value_used.unwrap().value, 310.0);
        assert_eq!(graded.marks[1].evidence_index, Some(2));
        assert_eq!(graded.marks[1].grade.verdict, Verdict::Fail);
        assert_eq!(
            graded.marks[1].grade.explanation,
            "p99 TPOT at the client: 43.5 ms misses ≤ 40 ms by 3.5 ms."
        );
        assert_eq!(
            graded.tally,
            Tally {
                passed: 1,
                failed: 1,
                not_measured: 0,
                not_comparable: 0
            }
        );
        assert_eq!(graded.outcome, PlanOutcome::Failed);
        assert_eq!(
            graded.marks[0].sentence,
            "99 % of requests see their first token within 450 ms, measured at the client"
        );
    }

    #[test]
    fn the_latest_of_several_matching_figures_is_graded() {
        let evidence = vec![
            client(Metric::Ttft, Statistic::P99, 600.0, Unit::Ms).recorded("run 1", 1_000),
            client(Metric::Ttft, Statistic::P99, 400.0, Unit::Ms).recorded("run 3", 3_000),
            client(Metric::Ttft, Statistic::P99, 500.0, Unit::Ms).recorded("run 2", 2_000),
            client(Metric::Tpot, Statistic::P99, 30.0, Unit::Ms),
        ];
        let graded = grade_plan(&interactive(), &evidence);
        let ttft = &graded.marks[0];
        assert_eq!(ttft.evidence_index, Some(1));
        assert_eq!(ttft.other_matches, 2);
        assert_eq!(
            ttft.grade.explanation,
            "p99 TTFT at the client: 400 ms meets ≤ 450 ms (run 3). Latest of 3 matching figures."
        );
        assert_eq!(graded.outcome, PlanOutcome::Passed);
    }

    #[test]
    fn a_german_plan_grade_reads_german_and_english_is_unchanged() {
        let latest = vec![
            client(Metric::Ttft, Statistic::P99, 600.0, Unit::Ms).recorded("run 1", 1_000),
            client(Metric::Ttft, Statistic::P99, 1_400.5, Unit::Ms).recorded("run 3", 3_000),
            client(Metric::Ttft, Statistic::P99, 500.0, Unit::Ms).recorded("run 2", 2_000),
            client(Metric::Tpot, Statistic::P99, 30.0, Unit::Ms),
        ];
        let german = grade_plan_in(&interactive(), &latest, Lang::De);
        assert_eq!(
            german.marks[0].grade.explanation,
            "p99 TTFT am Client: 1.400,5 ms verfehlt ≤ 450 ms um 950,5 ms. Der jüngste von 3 \
             passenden Werten."
        );
        let closest = vec![
            EvidenceStatistic::new(
                Metric::Ttft,
                Statistic::P50,
                300.0,
                Unit::Ms,
                MeasurementPoint::Engine,
            ),
            client(Metric::Ttft, Statistic::P95, 300.0, Unit::Ms),
        ];
        let german = grade_plan_in(&interactive(), &closest, Lang::De);
        assert_eq!(
            german.marks[0].grade.explanation,
            "Nicht vergleichbar: keiner der 2 TTFT-Werte ist p99 TTFT am Client; der \
             nächstliegende: der Zielwert gilt dem p99; dieser Wert ist das p95, ein anderes \
             Perzentil."
        );
        assert_eq!(
            german.marks[1].grade.explanation,
            "Für p99 TPOT am Client wurde kein TPOT-Wert erfasst."
        );
        for evidence in [latest, closest] {
            assert_eq!(
                grade_plan_in(&interactive(), &evidence, Lang::En),
                grade_plan(&interactive(), &evidence)
            );
        }
    }

    #[test]
    fn missing_and_mismatched_evidence_is_explained() {
        let evidence = vec![
            EvidenceStatistic::new(
                Metric::Ttft,
                Statistic::P99,
                300.0,
                Unit::Ms,
                MeasurementPoint::Engine,
            ),
            client(Metric::Itl, Statistic::P99, 12.0, Unit::Ms),
        ];
        let graded = grade_plan(&interactive(), &evidence);
        let Verdict::NotComparable { reason } = &graded.marks[0].grade.verdict else {
            panic!("{:?}", graded.marks[0].grade);
        };
        assert!(
            reason.starts_with("the mark is measured at the client"),
            "{reason}"
        );
        assert!(reason.contains("this figure was measured at the engine"));
        assert_eq!(graded.marks[0].evidence_index, Some(0));
        assert_eq!(graded.marks[1].grade.verdict, Verdict::NotMeasured);
        assert_eq!(
            graded.marks[1].grade.explanation,
            "No TPOT figure has been recorded for p99 TPOT at the client."
        );
        assert_eq!(graded.outcome, PlanOutcome::Incomplete);
        assert_eq!(graded.tally.not_comparable, 1);
        assert_eq!(graded.tally.not_measured, 1);
    }

    #[test]
    fn the_closest_candidate_explains_when_none_matches() {
        let evidence = vec![
            EvidenceStatistic::new(
                Metric::Ttft,
                Statistic::P50,
                300.0,
                Unit::Ms,
                MeasurementPoint::Engine,
            ),
            client(Metric::Ttft, Statistic::P95, 300.0, Unit::Ms),
        ];
        let graded = grade_plan(&interactive(), &evidence);
        let Verdict::NotComparable { reason } = &graded.marks[0].grade.verdict else {
            panic!();
        };
        assert_eq!(
            reason,
            "none of the 2 TTFT figures is p99 TTFT at the client; the closest: the mark is on \
             p99; this figure is p95, a different percentile"
        );
        assert_eq!(graded.marks[0].evidence_index, Some(1));
    }

    #[test]
    fn latency_from_another_gpu_or_engine_version_is_not_the_pilots() {
        let other_gpu = client(Metric::Ttft, Statistic::P99, 300.0, Unit::Ms)
            .measured_on("RTX PRO 6000 Blackwell Server Edition", "0.30.0");
        let same_gpu =
            client(Metric::Tpot, Statistic::P99, 30.0, Unit::Ms).measured_on("h200 nvl", "");
        let graded = grade_plan(&interactive(), &[other_gpu, same_gpu]);
        let Verdict::NotComparable { reason } = &graded.marks[0].grade.verdict else {
            panic!();
        };
        assert!(reason.starts_with(
            "this figure was measured on RTX PRO 6000 Blackwell Server Edition, but the pilot \
             serves on H200 NVL"
        ));
        assert_eq!(graded.marks[1].grade.verdict, Verdict::Pass);

        let mut plan = interactive();
        plan.pass_marks.push(crate::plan::PassMark {
            metric: Metric::ErrorRate,
            statistic: Statistic::Rate,
            comparator: crate::plan::Comparator::Le,
            threshold: 1.0,
            unit: Unit::Percent,
            point: MeasurementPoint::Gateway,
            definition: String::new(),
            scope: Scope::AllTraffic,
            rationale: String::new(),
        });
        let errors = EvidenceStatistic::new(
            Metric::ErrorRate,
            Statistic::Rate,
            0.2,
            Unit::Percent,
            MeasurementPoint::Gateway,
        )
        .measured_on("A100", "0.6.3");
        let graded = grade_plan(&plan, &[errors]);
        assert_eq!(graded.marks[2].grade.verdict, Verdict::Pass);
    }

    #[test]
    fn figures_without_values_are_not_measured_and_empty_plans_are_incomplete() {
        let evidence = vec![client(Metric::Ttft, Statistic::P99, f64::NAN, Unit::Ms)];
        let graded = grade_plan(&interactive(), &evidence);
        assert_eq!(graded.marks[0].grade.verdict, Verdict::NotMeasured);
        assert_eq!(
            grade_plan(&PlanContent::default(), &evidence).outcome,
            PlanOutcome::Incomplete
        );
    }

    #[test]
    fn a_plan_grade_and_evidence_serialise() {
        let evidence = EvidenceStatistic {
            value: None,
            ..client(Metric::Ttft, Statistic::P99, 0.0, Unit::Ms)
        };
        let json = serde_json::to_string(&evidence).unwrap();
        assert_eq!(
            serde_json::from_str::<EvidenceStatistic>(&json).unwrap(),
            evidence
        );
        let graded = grade_plan(&interactive(), &[]);
        let json = serde_json::to_value(&graded).unwrap();
        assert_eq!(json["outcome"], "incomplete");
        assert_eq!(
            json["marks"][0]["grade"]["verdict"]["outcome"],
            "not_measured"
        );
    }

    #[test]
    fn too_few_samples_or_another_models_file_grade_nothing_and_say_why() {
        use crate::verdict::comparability::FileCheck;
        // 30 requests per point under a p99 mark it meets: too few to show it is met.
        let thin = client(Metric::Ttft, Statistic::P99, 400.0, Unit::Ms).with_samples(30);
        let gateway = EvidenceStatistic::new(
            Metric::Ttft,
            Statistic::P99,
            335.0,
            Unit::Ms,
            MeasurementPoint::Gateway,
        )
        .with_samples(5_870);
        let graded = grade_plan(&interactive(), &[gateway, thin]);
        let Verdict::NotComparable { reason } = &graded.marks[0].grade.verdict else {
            panic!("{:?}", graded.marks[0].grade);
        };
        assert!(
            reason.contains("the closest: too few samples: this figure rests on 30 requests, and a p99 needs at least 100 requests"),
            "{reason}"
        );
        assert_eq!(graded.marks[0].evidence_index, Some(1));

        let other_model = client(Metric::Tpot, Statistic::P99, 20.0, Unit::Ms).checked(&FileCheck {
            not_comparable: Some("the load test gpt-oss.json was measured with model “openai/gpt-oss-20b”, but the pilot serves “Qwen/Qwen3-4B”: its figures are another model's".into()),
            mismatch: None,
            caveats: Vec::new(),
        });
        let graded = grade_plan(&interactive(), &[other_model]);
        let Verdict::NotComparable { reason } = &graded.marks[1].grade.verdict else {
            panic!("{:?}", graded.marks[1].grade);
        };
        assert!(
            reason.starts_with(
                "the load test gpt-oss.json was measured with model “openai/gpt-oss-20b”"
            ),
            "{reason}"
        );

        let unstated = client(Metric::Tpot, Statistic::P99, 30.0, Unit::Ms)
            .with_samples(200)
            .checked(&FileCheck {
                not_comparable: None,
                mismatch: None,
                caveats: vec!["model not stated in the file".into()],
            })
            .recorded("vllm bench serve, run.json", 1);
        let graded = grade_plan(&interactive(), &[unstated]);
        assert_eq!(graded.marks[1].grade.verdict, Verdict::Pass);
        assert_eq!(
            graded.marks[1].grade.explanation,
            "p99 TPOT at the client: 30 ms meets ≤ 40 ms (vllm bench serve, run.json) [model not stated in the file]."
        );
    }
}
