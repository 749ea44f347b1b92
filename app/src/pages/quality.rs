//! A pilot's quality evidence: evaluation runs per serving precision, their comparison, the
//! questions one by one, and lm-evaluation-harness task metrics.
//!
//! The page's content is a server-rendered fragment (see [`crate::components::fragment`]); the
//! upload widget beside it is interactive and reloads the fragment after an upload.

use crate::components::Fragment;
use crate::components::upload::EvidenceUpload;
use crate::error::AppError;
use leptos::prelude::*;

#[component]
pub fn QualityPage() -> impl IntoView {
    let refresh = RwSignal::new(0_u32);
    crate::components::pilot_fragment_with_editor(
        move || refresh.get(),
        quality_page,
        move |pilot_id| view! { <EvidenceUpload pilot_id on_uploaded=move |_| refresh.update(|n| *n += 1)/> },
    )
}

/// The quality page's content: runs, comparison, decision, items and lm-eval metrics.
#[server(endpoint = "page_quality")]
pub async fn quality_page(pilot_id: i64) -> Result<Fragment, AppError> {
    let pilot = crate::api::pilots::get_pilot(pilot_id).await?.pilot;
    let overview =
        crate::api::quality::quality_overview(pilot_id, String::new(), String::new()).await?;
    Ok(Fragment::render(
        format!("Quality · {}", pilot.name),
        render::page(pilot, overview),
    ))
}

#[cfg(feature = "ssr")]
mod render {
    use crate::api::quality::{ComparisonView, ItemRow, PrecisionDecision, QualityReport, RunView};
    use crate::components::PageHeader;
    use crate::model::Pilot;
    use engine::quality::{Estimate, IntervalMethod};
    use leptos::prelude::*;

    pub fn page(p: Pilot, overview: QualityReport) -> impl IntoView + use<> {
        let pilot_id = p.id;
        view! {
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/">"Pilots"</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>" / Quality"
            </nav>
            <PageHeader title="Answer quality" subtitle="Does the model, in the precision it will serve in, answer the pilot's evaluation set well, and does the search find the passages it needs?"/>
            {overview_view(overview, pilot_id)}
        }
    }

    /// `83.3 %`.
    fn pct(share: f64) -> String {
        format!("{:.1} %", share * 100.0)
    }

    /// `83.3 % (95 % CI 55.2–95.3 %)`, or a dash.
    fn estimate_text(estimate: Option<&Estimate>) -> String {
        match estimate {
            None => "—".into(),
            Some(e) => match (e.low, e.high) {
                (Some(low), Some(high)) => format!(
                    "{} (95 % CI {:.1}–{:.1} %)",
                    pct(e.value),
                    low * 100.0,
                    high * 100.0
                ),
                _ => format!("{} (no interval)", pct(e.value)),
            },
        }
    }

    /// An estimate in a table cell: the figure, then its interval and `detail` on lines of their
    /// own, so the column is as wide as its widest part rather than the three in one line.
    fn estimate_cell(estimate: Option<&Estimate>, detail: String) -> impl IntoView + use<> {
        let (figure, interval) = match estimate {
            None => ("—".to_string(), None),
            Some(e) => match (e.low, e.high) {
                (Some(low), Some(high)) => (
                    pct(e.value),
                    Some(format!("95 % CI {:.1}–{:.1} %", low * 100.0, high * 100.0)),
                ),
                _ => (pct(e.value), Some("no interval".to_string())),
            },
        };
        view! {
            <td class="num">
                {figure}
                {interval.map(|i| view! { <br/><span class="muted small">{i}</span> })}
                <br/><span class="muted small">{detail}</span>
            </td>
        }
    }

    /// `10 of 12`, the count behind an estimate.
    fn count_text(estimate: Option<&Estimate>) -> String {
        match estimate {
            Some(Estimate {
                successes: Some(s),
                n,
                ..
            }) => format!("{s} of {n}"),
            Some(e) => format!("n = {}", e.n),
            None => "—".into(),
        }
    }

    fn method_text(estimate: Option<&Estimate>) -> &'static str {
        match estimate.map(|e| e.method) {
            Some(IntervalMethod::Wilson) => "Wilson score interval",
            Some(_) => "Student t interval of the mean score",
            None => "",
        }
    }

    #[component]
    fn RunsTable(runs: Vec<RunView>, k_source: String) -> impl IntoView {
        view! {
            <section class="card">
                <h2>"Evaluation runs"</h2>
                <p class="muted small">
                    "Accuracy: share of answered questions graded right (or the mean score when graded 0–1), 95 % interval. "
                    {format!("Retrieval hit rate@k: share of questions with accepted passages where one of them is among the first k retrieved (k from {k_source}); scored separately from the answers. ")}
                    "Truncated: answers the engine stopped at its token limit (finish_reason = length), share of answered questions."
                </p>
                <div class="table-scroll">
                <table class="table">
                    <thead><tr>
                        <th scope="col">"Run"</th>
                        <th scope="col">"Model"</th>
                        <th scope="col">"Weights / KV cache"</th>
                        <th scope="col" class="num">"Questions answered"</th>
                        <th scope="col" class="num">"Accuracy (%)"</th>
                        <th scope="col" class="num">"Retrieval hit rate@k (%)"</th>
                        <th scope="col" class="num">"Truncated (answers, %)"</th>
                        <th scope="col">"Wrong answers: search vs model"</th>
                    </tr></thead>
                    <tbody>
                        {runs.into_iter().map(|run| {
                            let s = run.scores.clone();
                            let crosstab = format!(
                                "{} with the passage retrieved (model problem), {} without it (search problem){}",
                                s.crosstab.wrong_with_passage.len(),
                                s.crosstab.wrong_without_passage.len(),
                                if s.crosstab.wrong_unscorable.is_empty() { String::new() } else { format!(", {} unscorable", s.crosstab.wrong_unscorable.len()) },
                            );
                            view! {
                                <tr>
                                    <td>{format!("#{} {}", run.evidence.id, run.evidence.file_name)}</td>
                                    <td class="mono">{run.model.clone()}<br/><span class="muted small">{format!("{} {} · {}", run.engine, run.engine_version, run.gpu)}</span></td>
                                    <td>{format!("{} / {}", run.weights_precision, run.kv_precision)}</td>
                                    <td class="num">{format!("{} of {}", s.answered, s.of_set)}</td>
                                    {estimate_cell(s.answer_quality.as_ref(), format!("{} · {}", count_text(s.answer_quality.as_ref()), method_text(s.answer_quality.as_ref())))}
                                    {estimate_cell(s.hit_rate.as_ref(), format!("{} · k = {}", count_text(s.hit_rate.as_ref()), run.k))}
                                    <td class="num">{format!("{} ({})", s.truncation.as_ref().and_then(|t| t.successes).unwrap_or(0), s.truncation.as_ref().map(|t| pct(t.value)).unwrap_or_else(|| "—".into()))}</td>
                                    <td class="small">{crosstab}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            </section>
        }
    }

    #[component]
    fn ComparisonCard(comparison: ComparisonView) -> impl IntoView {
        let c = comparison.comparison.clone();
        let diff = c.difference.as_ref().map(|d| match (d.low, d.high) {
            (Some(low), Some(high)) => format!(
                "{:+.1} percentage points (95 % CI {:+.1} to {:+.1})",
                d.value * 100.0,
                low * 100.0,
                high * 100.0
            ),
            _ => format!("{:+.1} percentage points", d.value * 100.0),
        });
        view! {
            <section class="card">
                <h2>{format!("Precision comparison: {} → {}", comparison.a_label, comparison.b_label)}</h2>
                <p class="muted small">"The same questions answered by both runs. Difference: accuracy of the second run minus the first over the questions both answered, paired Wald interval. McNemar's exact test: the probability of flips at least this lopsided if the precision made no difference."</p>
                {(!comparison.same_set).then(|| view! { <p class="notice notice-warn">"The two runs were read against different evaluation sets."</p> })}
                <table class="table">
                    <tbody>
                        <tr><th scope="row">"Accuracy, first run (%)"</th><td class="num">{estimate_text(c.a.as_ref())}</td></tr>
                        <tr><th scope="row">"Accuracy, second run (%)"</th><td class="num">{estimate_text(c.b.as_ref())}</td></tr>
                        <tr><th scope="row">"Difference (percentage points)"</th><td class="num">{diff.unwrap_or_else(|| "—".into())}</td></tr>
                        <tr><th scope="row">"McNemar exact p (two-sided)"</th><td class="num">{c.mcnemar_p.map(|p| format!("{p:.3}")).unwrap_or_else(|| "—".into())}</td></tr>
                        <tr><th scope="row">"Right → wrong (questions)"</th><td>{format!("{}: {}", c.right_to_wrong.len(), c.right_to_wrong.join(", "))}</td></tr>
                        <tr><th scope="row">"Wrong → right (questions)"</th><td>{format!("{}: {}", c.wrong_to_right.len(), c.wrong_to_right.join(", "))}</td></tr>
                    </tbody>
                </table>
            </section>
        }
    }

    #[component]
    fn ItemsTable(items: Vec<ItemRow>, run: i64) -> impl IntoView {
        view! {
            <section class="card">
                <h2>{format!("Questions of run #{run}")}</h2>
                <p class="muted small">"Score: 1/0 for right/wrong, else the graded score (0–1). Retrieved: passage ids in rank order; “hit” when an accepted passage is among the first k."</p>
                <div class="table-scroll">
                <table class="table">
                    <thead><tr>
                        <th scope="col">"Id"</th>
                        <th scope="col">"Question"</th>
                        <th scope="col">"Accepted answer"</th>
                        <th scope="col">"Given answer"</th>
                        <th scope="col">"Retrieved passages"</th>
                        <th scope="col" class="num">"Score"</th>
                    </tr></thead>
                    <tbody>
                        {items.into_iter().map(|item| {
                            let badge = match item.right {
                                Some(true) => "badge badge-pass",
                                Some(false) => "badge badge-fail",
                                None => "badge",
                            };
                            let hit = match item.hit {
                                Some(true) => "hit",
                                Some(false) => "miss",
                                None => "not scorable",
                            };
                            view! {
                                <tr>
                                    <td class="mono">{item.id.clone()}</td>
                                    <td>{item.question.clone()}</td>
                                    <td>{item.accepted_answer.clone()}<br/><span class="muted small mono">{item.accepted_passages.join(" | ")}</span></td>
                                    <td>{item.answer.clone().unwrap_or_else(|| "not answered".into())}
                                        {item.truncated.then(|| view! { <br/><span class="badge badge-warn">"truncated"</span> })}</td>
                                    <td class="mono small">{format!("{} ({hit})", item.retrieved.join(" | "))}</td>
                                    <td class="num"><span class=badge>{item.value.map(|v| format!("{v:.2}")).unwrap_or_else(|| "—".into())}</span></td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            </section>
        }
    }

    #[component]
    fn EmptyState(pilot_id: i64) -> impl IntoView {
        let curl = format!(
            "curl -H \"Authorization: Bearer $TOKEN\" -F kind=eval_set -F file=@set.csv \\\n  http://127.0.0.1:3000/api/v1/pilots/{pilot_id}/evidence\n\
             curl -H \"Authorization: Bearer $TOKEN\" -F kind=eval_run -F weights_precision=FP8 -F kv_precision=fp8 \\\n  -F file=@run-fp8.csv http://127.0.0.1:3000/api/v1/pilots/{pilot_id}/evidence"
        );
        view! {
            <div class="empty-state">
                <h3>"No evaluation run yet"</h3>
                <p>"Upload the evaluation set (50–100 real questions), then one run per serving precision. CSV or JSON Lines:"</p>
                <ul>
                    <li><b>"Set: "</b><code>"id, question, accepted_answer, accepted_passages"</code>" (passage ids separated by |)"</li>
                    <li><b>"Run: "</b><code>"id, answer, score | correct, retrieved, finish_reason"</code>" (score 0–1 or correct true/false; retrieved ids in rank order separated by |)"</li>
                    <li><b>"lm-evaluation-harness: "</b>"its results JSON (detected without a kind)"</li>
                </ul>
                <pre class="mono small">{curl}</pre>
            </div>
        }
    }

    /// A verdict badge: pass, fail or not measured.
    fn passed_badge(passed: Option<bool>) -> AnyView {
        match passed {
            Some(true) => view! { <span class="badge badge-pass">"Pass"</span> }.into_any(),
            Some(false) => view! { <span class="badge badge-fail">"Fail"</span> }.into_any(),
            None => view! { <span class="badge">"Not graded"</span> }.into_any(),
        }
    }

    /// Which precisions passed the plan's quality marks, which one is decided, and why.
    #[component]
    pub fn DecisionCard(decision: PrecisionDecision, pilot_id: i64) -> impl IntoView {
        let headline = match (&decision.decided, &decision.decided_kv) {
            (Some(p), Some(kv)) => format!("Decided: {p} weights, KV cache {kv}"),
            (Some(p), None) => format!("Decided: {p}"),
            (None, _) => "No precision decided".into(),
        };
        let candidates = if decision.passing_combinations.is_empty() {
            "none".to_string()
        } else {
            decision
                .passing_combinations
                .iter()
                .map(|pair| {
                    format!(
                        "{} weights with KV cache {}",
                        pair.weights, pair.kv_precision
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let rows = decision
            .runs
            .iter()
            .map(|r| {
                let accuracy = match (r.accuracy, r.accuracy_low, r.accuracy_high) {
                    (Some(v), Some(lo), Some(hi)) => format!(
                        "{:.1} % (95 % CI {:.1}–{:.1} %)",
                        v * 100.0,
                        lo * 100.0,
                        hi * 100.0
                    ),
                    (Some(v), _, _) => format!("{:.1} %", v * 100.0),
                    _ => "—".into(),
                };
                let marks = if r.marks.is_empty() {
                    "no quality mark in the plan".to_string()
                } else {
                    r.marks
                        .iter()
                        .map(|m| format!("{}: {} ({})", m.mark, m.figure, m.verdict.replace('_', " ")))
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                let chosen = decision.decided.as_deref() == Some(r.precision.as_str())
                    && decision.decided_kv.as_deref() == Some(r.kv_precision.as_str())
                    && r.counts;
                view! {
                    <tr class:decided=chosen>
                        <td>{format!("#{}", r.evidence_id)}</td>
                        <td><strong>{r.precision.clone()}</strong>" / "{r.kv_precision.clone()}
                            {match &r.not_comparable {
                                Some(reason) => view! { <br/><span class="notice notice-warn small not-comparable">{format!("Not comparable: {reason}.")}</span> }.into_any(),
                                None if !r.counts => view! { <br/><span class="muted small">"superseded by a newer run of this precision and KV cache"</span> }.into_any(),
                                None => ().into_any(),
                            }}</td>
                        <td class="mono small">{r.model.clone()}</td>
                        <td class="num">{accuracy}</td>
                        <td class="num">{r.bytes_per_weight.map(|b| format!("{b:.2}")).unwrap_or_else(|| "unknown".into())}</td>
                        <td class="small">{marks}</td>
                        <td>{passed_badge(r.passed)}</td>
                    </tr>
                }
            })
            .collect_view();
        let show_table = !decision.runs.is_empty();
        view! {
            <section class="card decision-card" id="precision-decision">
                <h2>"Precision decision"</h2>
                <p class="decision-headline"><strong>{headline}</strong></p>
                <p class="decision-reason" role="status">{decision.reason.clone()}</p>
                <p class="small">{format!("Candidates for the sizing recommendation: {candidates}.")}</p>
                <p class="muted small">"Rule: each run is graded on the plan's quality marks (answer score, retrieval hit rate@k, truncation rate) using its point estimate; the newest run of a precision and KV cache speaks for it (a run that states no KV cache counts as 16-bit). Only passing pairs are sizing candidates: an FP8 KV cache needs its own passing run with an FP8 KV cache. The one decided needs the least memory per weight, a tie going to the higher accuracy. Runs of another model than the pilot's are shown, never graded."</p>
                {show_table.then(|| view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Run"</th>
                            <th scope="col">"Weights / KV cache"</th>
                            <th scope="col">"Model"</th>
                            <th scope="col" class="num">"Accuracy"</th>
                            <th scope="col" class="num">"Bytes per weight"</th>
                            <th scope="col">"Quality marks"</th>
                            <th scope="col">"Verdict"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                })}
                {(!decision.passing.is_empty()).then(|| view! {
                    <p><a href=format!("/pilots/{pilot_id}")>"Size this pilot with the passing precisions (pilot page)"</a></p>
                })}
            </section>
        }
    }

    pub fn overview_view(overview: QualityReport, pilot_id: i64) -> AnyView {
        let set_line = overview.set.as_ref().map(|s| {
            let version = match (s.version, s.approved) {
                (Some(n), true) => format!("version {n} (approved)"),
                (Some(n), false) => {
                    format!("draft version {n} (approved by the first run read against it)")
                }
                (None, _) => "unversioned".into(),
            };
            let file = s
                .evidence
                .as_ref()
                .map(|e| format!(" · from #{} {}", e.id, e.file_name))
                .unwrap_or_default();
            format!(
                "Evaluation set {version}: {} questions{file} · pass score for graded answers {:.2}",
                s.questions, overview.pass_score
            )
        });
        let draft_note = overview
            .draft_version
            .filter(|d| overview.set.as_ref().and_then(|s| s.version) != Some(*d))
            .map(|d| format!("Draft version {d} of the set is open; runs are read against it once it is approved."));
        let set_link_text = if overview.can_edit {
            "View and edit the evaluation set"
        } else {
            "View the evaluation set"
        };
        let small_set = overview
            .set
            .as_ref()
            .and_then(|s| engine::verdict::cross_check::small_eval_set(s.questions));
        view! {
            {set_line.map(|l| view! { <p class="muted" id="set-line">{l}</p> })}
            {small_set.map(|w| view! { <p class="notice notice-warn" id="small-set">{w}</p> })}
            {draft_note.map(|n| view! { <p class="notice notice-warn">{n}</p> })}
            <p><a href=format!("/pilots/{pilot_id}/quality/set")>{set_link_text}</a>
                {overview.can_edit.then(|| view! { " · " <a href=format!("/pilots/{pilot_id}/evidence")>"Upload a set or runs"</a> })}</p>
            <DecisionCard decision=overview.decision.clone() pilot_id/>
            {if overview.runs.is_empty() {
                view! { <EmptyState pilot_id/> }.into_any()
            } else {
                view! { <RunsTable runs=overview.runs.clone() k_source=overview.k_source.clone()/> }.into_any()
            }}
            {overview.comparison.clone().map(|comparison| view! { <ComparisonCard comparison/> })}
            {overview.drill_down_run.map(|run| view! { <ItemsTable items=overview.items.clone() run/> })}
            {(!overview.lm_eval.is_empty()).then(|| view! {
                <section class="card" id="lm-eval">
                    <h2>"lm-evaluation-harness tasks"</h2>
                    {overview.lm_eval.iter().filter_map(|l| l.check.not_comparable.clone().map(|why| view! {
                        <div class="notice notice-warn" role="note">{format!("Not comparable: {why}. Its scores are shown for reference only.")}</div>
                    })).collect_view()}
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"File"</th>
                            <th scope="col">"Model"</th>
                            <th scope="col">"Task"</th>
                            <th scope="col">"Metric (filter)"</th>
                            <th scope="col" class="num">"Value"</th>
                            <th scope="col" class="num">"Standard error"</th>
                            <th scope="col" class="num">"Samples"</th>
                        </tr></thead>
                        <tbody>
                            {overview.lm_eval.iter().flat_map(|l| l.results.metrics.iter().map(move |m| view! {
                                <tr class=if l.check.is_comparable() { "" } else { "not-comparable" }>
                                    <td>{format!("#{} {}", l.evidence.id, l.evidence.file_name)}</td>
                                    <td class="mono">{match (&l.results.model_name, l.check.is_comparable()) {
                                        (Some(model), true) => model.clone(),
                                        (Some(model), false) => format!("{model} (not the pilot's)"),
                                        (None, _) => "not stated in the file".to_string(),
                                    }}</td>
                                    <td class="mono">{m.task.clone()}</td>
                                    <td class="mono">{format!("{} ({})", m.metric, m.filter)}</td>
                                    <td class="num">{format!("{:.4}", m.value)}</td>
                                    <td class="num">{m.stderr.map(|s| format!("±{s:.4}")).unwrap_or_else(|| "—".into())}</td>
                                    <td class="num">{m.samples.map(|s| s.to_string()).unwrap_or_else(|| "—".into())}</td>
                                </tr>
                            })).collect_view()}
                        </tbody>
                    </table>
                </section>
            })}
        }
        .into_any()
    }
}
