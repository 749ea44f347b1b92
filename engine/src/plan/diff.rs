//! What changed between two plan versions, in plain words, and which pass marks changed after
//! evidence arrived.
//!
//! Pass marks are matched by their [`MarkKey`] (metric, statistic, point, scope).
//! A mark whose key changed but whose metric and scope stayed (p95 → p99, gateway → client) is
//! shown as one changed mark rather than a removal plus an addition, because that is how people
//! think of the edit. Scenarios are matched by name; demand, quality set and serving field by
//! field. Each [`Change`] carries before and after as sentences a customer can read.
//!
//! [`changed_after`] serves the report: evidence is graded against the version in force when it
//! was recorded, and every pass-mark change approved later is listed with its version, time and
//! reason, so a reader sees when a mark moved after the data was in. Evidence recorded before any
//! approval sees every mark as set afterwards, which is exactly what the report must say.

use super::content::{PlanContent, Scenario, same_name};
use super::error::PlanSection;
use super::pass_mark::{MarkKey, PassMark};
use super::unit::format_number;
use super::version::{PlanVersion, current_approved};
use crate::locale::Lang;
use serde::{Deserialize, Serialize};

/// What happened to an item. Serde names: `added`, `removed`, `changed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

/// One difference between two plan contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub section: PlanSection,
    pub kind: ChangeKind,
    /// What changed: `p95 TTFT at the gateway`, `scenario “RAG”`, `production users`.
    pub subject: String,
    /// The old state in plain words (the mark's sentence, a value); `None` when added.
    pub before: Option<String>,
    /// The new state in plain words; `None` when removed.
    pub after: Option<String>,
    /// For changed pass marks: each changed field as `field: old → new`.
    pub details: Vec<String>,
    /// For pass marks: the key of the mark after the change (before, when removed).
    pub mark: Option<MarkKey>,
}

impl Change {
    /// [`Change::describe`] in `lang`. Pass-mark changes have German words; the other
    /// sections (shown on the English plan history only) stay English.
    pub fn describe_in(&self, lang: Lang) -> String {
        let before = self.before.as_deref().unwrap_or("");
        let after = self.after.as_deref().unwrap_or("");
        match (lang, self.section, self.kind) {
            (Lang::De, PlanSection::PassMark, ChangeKind::Added) => {
                format!("Zielwert hinzugefügt: {after}")
            }
            (Lang::De, PlanSection::PassMark, ChangeKind::Removed) => {
                format!("Zielwert entfernt: {before}")
            }
            (Lang::De, PlanSection::PassMark, ChangeKind::Changed) if before == after => format!(
                "Zielwert {} geändert: {}",
                self.subject,
                self.details.join("; ")
            ),
            (Lang::De, PlanSection::PassMark, ChangeKind::Changed) => {
                format!("Zielwert geändert: {before} → {after}")
            }
            _ => self.describe(),
        }
    }

    /// One line for the page: `Pass mark changed: … → …`, `Demand: production users 400 → 800`.
    pub fn describe(&self) -> String {
        let before = self.before.as_deref().unwrap_or("");
        let after = self.after.as_deref().unwrap_or("");
        match (self.section, self.kind) {
            (PlanSection::PassMark, ChangeKind::Added) => format!("Pass mark added: {after}"),
            (PlanSection::PassMark, ChangeKind::Removed) => format!("Pass mark removed: {before}"),
            (PlanSection::PassMark, ChangeKind::Changed) if before == after => format!(
                "Pass mark on {} changed: {}",
                self.subject,
                self.details.join("; ")
            ),
            (PlanSection::PassMark, ChangeKind::Changed) => {
                format!("Pass mark changed: {before} → {after}")
            }
            (PlanSection::Scenario, ChangeKind::Added) => format!("Scenario added: {after}"),
            (PlanSection::Scenario, ChangeKind::Removed) => format!("Scenario removed: {before}"),
            (PlanSection::Scenario, ChangeKind::Changed) => {
                format!("Scenario changed: {before} → {after}")
            }
            (section, _) => {
                let label = section.label();
                let mut chars = label.chars();
                let label: String = chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default();
                format!("{label}: {} {before} → {after}", self.subject)
            }
        }
    }
}

/// Each field of a pass mark that changed, as `field: old → new` in `lang`.
fn mark_details(old: &PassMark, new: &PassMark, lang: Lang) -> Vec<String> {
    let mut details = Vec::new();
    let mut field = |name: (&str, &str), before: String, after: String| {
        if before != after {
            details.push(format!("{}: {before} → {after}", lang.pick(name.0, name.1)));
        }
    };
    field(
        ("metric", "Metrik"),
        old.metric.short_label_in(lang),
        new.metric.short_label_in(lang),
    );
    field(
        ("statistic", "Statistik"),
        old.statistic.to_string(),
        new.statistic.to_string(),
    );
    let limit = |mark: &PassMark| {
        let threshold = super::unit::Quantity {
            value: mark.threshold,
            unit: mark.unit,
        }
        .text_in(lang);
        format!("{} {threshold}", mark.comparator.symbol())
    };
    field(("limit", "Grenze"), limit(old), limit(new));
    let point = |mark: &PassMark| match lang {
        Lang::En => mark.point.to_string(),
        Lang::De => mark.point.german_at().to_string(),
    };
    field(("measured at", "gemessen"), point(old), point(new));
    let scope = |mark: &PassMark| mark.scope.text_in(lang);
    field(("scope", "Geltungsbereich"), scope(old), scope(new));
    let definition = |mark: &PassMark| match mark.effective_definition() {
        stated if stated.trim() == mark.metric.default_definition() => {
            mark.metric.default_definition_in(lang).to_string()
        }
        stated => stated.to_string(),
    };
    field(
        ("definition", "Definition"),
        definition(old),
        definition(new),
    );
    field(
        ("rationale", "Begründung"),
        old.rationale.trim().to_string(),
        new.rationale.trim().to_string(),
    );
    details
}

/// The pass-mark changes from `old` to `new`, worded in `lang`.
fn diff_marks(old: &[PassMark], new: &[PassMark], changes: &mut Vec<Change>, lang: Lang) {
    let mut old_taken = vec![false; old.len()];
    let mut partner: Vec<Option<usize>> = vec![None; new.len()];
    for (j, mark) in new.iter().enumerate() {
        let key = mark.key();
        if let Some(i) = (0..old.len()).find(|&i| !old_taken[i] && old[i].key().same_as(&key)) {
            old_taken[i] = true;
            partner[j] = Some(i);
        }
    }
    for (j, mark) in new.iter().enumerate() {
        if partner[j].is_some() {
            continue;
        }
        if let Some(i) = (0..old.len()).find(|&i| {
            !old_taken[i]
                && old[i].metric.same_as(&mark.metric)
                && old[i].scope.same_as(&mark.scope)
        }) {
            old_taken[i] = true;
            partner[j] = Some(i);
        }
    }
    let change =
        |kind, mark: &PassMark, before: Option<&PassMark>, after: Option<&PassMark>| Change {
            section: PlanSection::PassMark,
            kind,
            subject: mark.key().label_in(lang),
            before: before.map(|m| m.sentence_in(lang)),
            after: after.map(|m| m.sentence_in(lang)),
            details: Vec::new(),
            mark: Some(mark.key()),
        };
    for (j, mark) in new.iter().enumerate() {
        match partner[j] {
            Some(i) => {
                let details = mark_details(&old[i], mark, lang);
                if !details.is_empty() {
                    changes.push(Change {
                        details,
                        ..change(ChangeKind::Changed, mark, Some(&old[i]), Some(mark))
                    });
                }
            }
            None => changes.push(change(ChangeKind::Added, mark, None, Some(mark))),
        }
    }
    for (i, mark) in old.iter().enumerate() {
        if !old_taken[i] {
            changes.push(change(ChangeKind::Removed, mark, Some(mark), None));
        }
    }
}

fn scenario_change(kind: ChangeKind, old: Option<&Scenario>, new: Option<&Scenario>) -> Change {
    let name = new.or(old).map(|s| s.name.trim()).unwrap_or_default();
    Change {
        section: PlanSection::Scenario,
        kind,
        subject: format!("scenario “{name}”"),
        before: old.map(Scenario::summary),
        after: new.map(Scenario::summary),
        details: Vec::new(),
        mark: None,
    }
}

fn diff_scenarios(old: &[Scenario], new: &[Scenario], changes: &mut Vec<Change>) {
    for scenario in new {
        match old.iter().find(|o| same_name(&o.name, &scenario.name)) {
            Some(before) if before != scenario => changes.push(scenario_change(
                ChangeKind::Changed,
                Some(before),
                Some(scenario),
            )),
            Some(_) => {}
            None => changes.push(scenario_change(ChangeKind::Added, None, Some(scenario))),
        }
    }
    for scenario in old {
        if !new.iter().any(|n| same_name(&n.name, &scenario.name)) {
            changes.push(scenario_change(ChangeKind::Removed, Some(scenario), None));
        }
    }
}

const NOT_STATED: &str = "not stated";

fn count(value: Option<u32>, unit: &str) -> String {
    match value {
        Some(value) => format!("{} {unit}", format_number(value.into()))
            .trim_end()
            .to_string(),
        None => NOT_STATED.into(),
    }
}

fn text(value: &str) -> String {
    match value.trim() {
        "" => NOT_STATED.into(),
        value => value.to_string(),
    }
}

fn switch(value: Option<bool>) -> String {
    match value {
        Some(true) => "on".into(),
        Some(false) => "off".into(),
        None => NOT_STATED.into(),
    }
}

fn field_changes(section: PlanSection, fields: Vec<(&str, String, String)>) -> Vec<Change> {
    fields
        .into_iter()
        .filter(|(_, before, after)| before != after)
        .map(|(subject, before, after)| Change {
            section,
            kind: ChangeKind::Changed,
            subject: subject.to_string(),
            before: Some(before),
            after: Some(after),
            details: Vec::new(),
            mark: None,
        })
        .collect()
}

/// Every difference from `old` to `new`: pass marks (in the new plan's order, removals last),
/// scenarios, then demand, quality set and serving field by field.
pub fn diff(old: &PlanContent, new: &PlanContent) -> Vec<Change> {
    let mut changes = Vec::new();
    diff_marks(&old.pass_marks, &new.pass_marks, &mut changes, Lang::En);
    diff_scenarios(&old.scenarios, &new.scenarios, &mut changes);
    let rate = |r: Option<f64>| match r {
        Some(r) => format!("{} req/s", format_number(r)),
        None => NOT_STATED.into(),
    };
    let (a, b) = (&old.demand, &new.demand);
    changes.extend(field_changes(
        PlanSection::Demand,
        vec![
            (
                "pilot users",
                count(a.pilot_users, ""),
                count(b.pilot_users, ""),
            ),
            (
                "production users",
                count(a.production_users, ""),
                count(b.production_users, ""),
            ),
            (
                "peak arrival rate",
                rate(a.peak_arrival_rate_req_s),
                rate(b.peak_arrival_rate_req_s),
            ),
            (
                "context per request",
                count(a.context_tokens_per_request, "tokens"),
                count(b.context_tokens_per_request, "tokens"),
            ),
            (
                "planned peak concurrency",
                count(a.planned_peak_concurrency, "requests in flight"),
                count(b.planned_peak_concurrency, "requests in flight"),
            ),
        ],
    ));
    let (a, b) = (&old.quality, &new.quality);
    changes.extend(field_changes(
        PlanSection::Quality,
        vec![
            (
                "evaluation questions",
                count(a.questions, ""),
                count(b.questions, ""),
            ),
            ("k of hit rate@k", count(a.hit_k, ""), count(b.hit_k, "")),
        ],
    ));
    let (a, b) = (&old.serving, &new.serving);
    changes.extend(field_changes(
        PlanSection::Serving,
        vec![
            ("engine", text(&a.engine), text(&b.engine)),
            (
                "engine version",
                text(&a.engine_version),
                text(&b.engine_version),
            ),
            ("GPU", text(&a.gpu), text(&b.gpu)),
            ("precision", text(&a.precision), text(&b.precision)),
            (
                "KV cache dtype",
                text(&a.kv_cache_dtype),
                text(&b.kv_cache_dtype),
            ),
            (
                "tensor parallel",
                count(a.tensor_parallel, ""),
                count(b.tensor_parallel, ""),
            ),
            (
                "max_num_batched_tokens",
                count(a.max_num_batched_tokens, ""),
                count(b.max_num_batched_tokens, ""),
            ),
            (
                "prefix caching",
                switch(a.prefix_caching),
                switch(b.prefix_caching),
            ),
            ("CUDA graphs", switch(a.cuda_graphs), switch(b.cuda_graphs)),
        ],
    ));
    changes
}

/// A pass-mark change approved after some evidence was recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LateChange {
    /// The version that brought the change.
    pub version: u32,
    /// When that version came into force (Unix milliseconds).
    pub approved_at_ms: i64,
    /// The amendment reason of that version.
    pub reason: Option<String>,
    pub change: Change,
}

/// Pass-mark changes approved after `evidence_time_ms`, oldest first: each approved version
/// after the one in force at that time, compared with its approved predecessor. Evidence recorded
/// before any approval sees every mark of the first approved version as added afterwards.
pub fn changed_after(evidence_time_ms: i64, versions: &[PlanVersion]) -> Vec<LateChange> {
    changed_after_in(evidence_time_ms, versions, Lang::En)
}

/// [`changed_after`] with each change worded in `lang` ([`Change::describe_in`]).
pub fn changed_after_in(
    evidence_time_ms: i64,
    versions: &[PlanVersion],
    lang: Lang,
) -> Vec<LateChange> {
    let mut approved: Vec<(&PlanVersion, i64)> = versions
        .iter()
        .filter_map(|v| v.in_force_since_ms().map(|at| (v, at)))
        .collect();
    approved.sort_by_key(|(v, at)| (*at, v.number));
    let empty = PlanContent::default();
    let mut previous = &empty;
    let mut late = Vec::new();
    for (version, at) in approved {
        if at > evidence_time_ms {
            let mut changes = Vec::new();
            diff_marks(
                &previous.pass_marks,
                &version.content.pass_marks,
                &mut changes,
                lang,
            );
            late.extend(changes.into_iter().map(|change| LateChange {
                version: version.number,
                approved_at_ms: at,
                reason: version.amendment_reason.clone(),
                change,
            }));
        }
        previous = &version.content;
    }
    late
}

/// Keys of the marks of the plan now in force that were added or changed after
/// `evidence_time_ms` (each once), for flagging marks on the report.
pub fn marks_changed_after(evidence_time_ms: i64, versions: &[PlanVersion]) -> Vec<MarkKey> {
    let Some(current) = current_approved(versions) else {
        return Vec::new();
    };
    let in_current = |key: &MarkKey| {
        current
            .content
            .pass_marks
            .iter()
            .any(|mark| mark.key().same_as(key))
    };
    let mut keys: Vec<MarkKey> = Vec::new();
    for late in changed_after(evidence_time_ms, versions) {
        if late.change.kind == ChangeKind::Removed {
            continue;
        }
        if let Some(key) = late.change.mark
            && in_current(&key)
            && !keys.iter().any(|k| k.same_as(&key))
        {
            keys.push(key);
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::content::tests::{error_rate_mark, plan, rag_scenario};
    use crate::plan::metric::Metric;
    use crate::plan::point::MeasurementPoint;
    use crate::plan::statistic::Statistic;
    use crate::plan::version::tests::{approved_v1, assessor};

    #[test]
    fn identical_plans_have_no_changes() {
        assert_eq!(diff(&plan(), &plan()), vec![]);
    }

    #[test]
    fn a_changed_threshold_reads_before_and_after() {
        let old = plan();
        let mut new = plan();
        new.pass_marks[0].threshold = 400.0;
        let changes = diff(&old, &new);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].kind, ChangeKind::Changed);
        assert_eq!(changes[0].details, vec!["limit: ≤ 500 ms → ≤ 400 ms"]);
        assert_eq!(
            changes[0].describe(),
            "Pass mark changed: 95 % of requests see their first token within 500 ms, measured \
             at the gateway → 95 % of requests see their first token within 400 ms, measured at \
             the gateway"
        );
    }

    #[test]
    fn added_removed_and_restated_marks() {
        let old = plan();
        let mut new = plan();
        new.pass_marks[0].statistic = Statistic::P99;
        new.pass_marks.remove(1);
        new.pass_marks.push(PassMark {
            metric: Metric::TimeoutRate,
            ..error_rate_mark()
        });
        let changes = diff(&old, &new);
        let summary: Vec<(ChangeKind, String)> = changes
            .iter()
            .map(|c| (c.kind, c.subject.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (ChangeKind::Changed, "p99 TTFT at the gateway".to_string()),
                (ChangeKind::Added, "timeout rate at the gateway".to_string()),
                (ChangeKind::Removed, "error rate at the gateway".to_string()),
            ]
        );
        assert_eq!(changes[0].details, vec!["statistic: p95 → p99"]);
        assert_eq!(
            changes[2].describe(),
            "Pass mark removed: Error rate stays at or below 1 %, counted at the gateway"
        );
    }

    #[test]
    fn a_change_of_wording_only_lists_the_fields() {
        let old = plan();
        let mut new = plan();
        new.pass_marks[0].rationale = "New reason.".into();
        let changes = diff(&old, &new);
        assert_eq!(
            changes[0].describe(),
            "Pass mark on p95 TTFT at the gateway changed: rationale: Chat users notice a wait \
             beyond half a second. → New reason."
        );
    }

    #[test]
    fn scenarios_demand_quality_and_serving_changes() {
        let old = plan();
        let mut new = plan();
        new.scenarios[0].output_tokens.high_tokens = 800;
        new.scenarios.push(Scenario {
            name: "Chat".into(),
            ..rag_scenario()
        });
        new.demand.production_users = Some(800);
        new.demand.peak_arrival_rate_req_s = None;
        new.quality.hit_k = Some(10);
        new.serving.gpu = "H200 NVL".into();
        new.serving.prefix_caching = Some(false);
        let described: Vec<String> = diff(&old, &new).iter().map(Change::describe).collect();
        assert_eq!(
            described,
            vec![
                "Scenario changed: RAG lookups: 2,000–6,000 tokens in, 100–400 tokens out → RAG \
                 lookups: 2,000–6,000 tokens in, 100–800 tokens out",
                "Scenario added: Chat: 2,000–6,000 tokens in, 100–400 tokens out",
                "Demand: production users 400 → 800",
                "Demand: peak arrival rate 2.5 req/s → not stated",
                "Quality set: k of hit rate@k 5 → 10",
                "Pilot serving: GPU RTX PRO 6000 Blackwell Server Edition → H200 NVL",
                "Pilot serving: prefix caching on → off",
            ]
        );
    }

    #[test]
    fn marks_changed_after_the_evidence_are_flagged_with_version_and_reason() {
        let v1 = approved_v1(2_000);
        let mut v2 = v1.amend("Customer tightened chat latency", 3_000).unwrap();
        v2.content.pass_marks[0].threshold = 400.0;
        v2.content.pass_marks[0].point = MeasurementPoint::Client;
        v2.approve(&assessor(), 5_000).unwrap();
        let mut v3 = v2.amend("not yet approved", 6_000).unwrap();
        v3.content.pass_marks.clear();
        let versions = vec![v1, v2, v3];

        let late = changed_after(4_000, &versions);
        assert_eq!(late.len(), 1);
        assert_eq!(late[0].version, 2);
        assert_eq!(late[0].approved_at_ms, 5_000);
        assert_eq!(
            late[0].reason.as_deref(),
            Some("Customer tightened chat latency")
        );
        assert_eq!(
            late[0].change.details,
            vec![
                "limit: ≤ 500 ms → ≤ 400 ms",
                "measured at: gateway → client"
            ]
        );
        let flagged = marks_changed_after(4_000, &versions);
        assert_eq!(flagged.len(), 1);
        assert_eq!(flagged[0].label(), "p95 TTFT at the client");

        assert_eq!(changed_after(5_000, &versions), vec![]);
        let before_any_approval = changed_after(1_000, &versions);
        assert_eq!(
            before_any_approval
                .iter()
                .filter(|l| l.version == 1 && l.change.kind == ChangeKind::Added)
                .count(),
            2
        );
        assert_eq!(marks_changed_after(1_000, &versions).len(), 2);
    }
}
