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
    let lang = crate::components::lang();
    Ok(Fragment::render(
        format!("{} · {}", lang.pick("Quality", "Qualität"), pilot.name),
        render::page(pilot, overview),
    ))
}

#[cfg(feature = "ssr")]
mod render {
    use crate::api::quality::{ComparisonView, ItemRow, PrecisionDecision, QualityReport, RunView};
    use crate::components::{PageHeader, lang};
    use crate::model::Pilot;
    use engine::locale::Lang;
    use engine::quality::{Estimate, IntervalMethod};
    use leptos::prelude::*;

    pub fn page(p: Pilot, overview: QualityReport) -> impl IntoView + use<> {
        let pilot_id = p.id;
        let lang = lang();
        view! {
            <nav class="breadcrumbs" aria-label=lang.pick("Breadcrumb", "Brotkrumen")>
                <a href="/">{lang.pick("Pilots", "Piloten")}</a>" / "<a href=format!("/pilots/{}", p.id)>{p.name.clone()}</a>{lang.pick(" / Quality", " / Qualität")}
            </nav>
            <PageHeader
                title=lang.pick("Answer quality", "Antwortqualität")
                subtitle=lang.pick(
                    "Does the model, in the precision it will serve in, answer the pilot's evaluation set well, and does the search find the passages it needs?",
                    "Beantwortet das Modell in der Präzision, in der es produktiv laufen wird, den Evaluationsdatensatz des Piloten gut, und findet die Suche die Passagen, die es dafür braucht?",
                )
            />
            {overview_view(overview, pilot_id)}
        }
    }

    /// `v` with `decimals` decimals: `0.83` / `0,83`.
    fn num(v: f64, decimals: usize, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{v:.decimals$}"),
            Lang::De => lang.number(v, decimals),
        }
    }

    /// `+1.5` / `+1,5`, `-8.3` / `−8,3`: a signed difference with one decimal.
    fn signed(v: f64, lang: Lang) -> String {
        let text = format!("{v:+.1}");
        match lang {
            Lang::En => text,
            Lang::De => text.replace('.', ",").replace('-', "−"),
        }
    }

    /// `83.3 %` / `83,3 %`.
    fn pct(share: f64, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{:.1} %", share * 100.0),
            Lang::De => lang.percent(share),
        }
    }

    /// `95 % CI 55.2–95.3 %` / `95-%-Intervall 55,2–95,3 %`.
    fn interval_text(low: f64, high: f64, lang: Lang) -> String {
        match lang {
            Lang::En => format!("95 % CI {:.1}–{:.1} %", low * 100.0, high * 100.0),
            Lang::De => format!(
                "95-%-Intervall {}–{} %",
                lang.number(low * 100.0, 1),
                lang.number(high * 100.0, 1)
            ),
        }
    }

    /// `83.3 % (95 % CI 55.2–95.3 %)`, or a dash.
    fn estimate_text(estimate: Option<&Estimate>, lang: Lang) -> String {
        match estimate {
            None => "—".into(),
            Some(e) => match (e.low, e.high) {
                (Some(low), Some(high)) => format!(
                    "{} ({})",
                    pct(e.value, lang),
                    interval_text(low, high, lang)
                ),
                _ => format!(
                    "{} ({})",
                    pct(e.value, lang),
                    lang.pick("no interval", "kein Intervall")
                ),
            },
        }
    }

    /// An estimate in a table cell: the figure, then its interval and `detail` on lines of their
    /// own, so the column is as wide as its widest part rather than the three in one line.
    fn estimate_cell(
        estimate: Option<&Estimate>,
        detail: String,
        lang: Lang,
    ) -> impl IntoView + use<> {
        let (figure, interval) = match estimate {
            None => ("—".to_string(), None),
            Some(e) => match (e.low, e.high) {
                (Some(low), Some(high)) => {
                    (pct(e.value, lang), Some(interval_text(low, high, lang)))
                }
                _ => (
                    pct(e.value, lang),
                    Some(lang.pick("no interval", "kein Intervall").to_string()),
                ),
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
    fn count_text(estimate: Option<&Estimate>, lang: Lang) -> String {
        match estimate {
            Some(Estimate {
                successes: Some(s),
                n,
                ..
            }) => format!("{s} {} {n}", lang.pick("of", "von")),
            Some(e) => format!("n = {}", e.n),
            None => "—".into(),
        }
    }

    fn method_text(estimate: Option<&Estimate>, lang: Lang) -> &'static str {
        match estimate.map(|e| e.method) {
            Some(IntervalMethod::Wilson) => {
                lang.pick("Wilson score interval", "Wilson-Score-Intervall")
            }
            Some(_) => lang.pick(
                "Student t interval of the mean score",
                "Student-t-Intervall der mittleren Bewertung",
            ),
            None => "",
        }
    }

    /// Where k comes from, in `lang` (desk words it in English; an unknown source stays so).
    fn k_source_in(k_source: &str, lang: Lang) -> String {
        let german = match k_source {
            "the plan's hit_k" => "dem hit_k des Plans",
            "the run's depth: the most passages retrieved for one question" => {
                "der Tiefe des Laufs: den meisten für eine Frage gefundenen Passagen"
            }
            other => other,
        };
        lang.pick(k_source, german).to_string()
    }

    #[component]
    fn RunsTable(runs: Vec<RunView>, k_source: String) -> impl IntoView {
        let lang = lang();
        let hit_rate_note = match lang {
            Lang::En => format!(
                "Retrieval hit rate@k: share of questions with accepted passages where one of them is among the first k retrieved (k from {k_source}); scored separately from the answers. "
            ),
            Lang::De => format!(
                "Trefferquote der Suche@k: Anteil der Fragen mit anerkannten Passagen, bei denen eine davon unter den ersten k gefundenen ist (k nach {}); getrennt von den Antworten bewertet. ",
                k_source_in(&k_source, lang)
            ),
        };
        view! {
            <section class="card">
                <h2>{lang.pick("Evaluation runs", "Evaluationsläufe")}</h2>
                <p class="muted small">
                    {lang.pick(
                        "Accuracy: share of answered questions graded right (or the mean score when graded 0–1), 95 % interval. ",
                        "Genauigkeit: Anteil der beantworteten Fragen, die als richtig bewertet wurden (oder die mittlere Bewertung bei Bewertungen von 0–1), 95-%-Intervall. ",
                    )}
                    {hit_rate_note}
                    {lang.pick(
                        "Truncated: answers the engine stopped at its token limit (finish_reason = length), share of answered questions.",
                        "Abgeschnitten: Antworten, die die Engine an ihrem Token-Limit abbrach (finish_reason = length), Anteil der beantworteten Fragen.",
                    )}
                </p>
                <div class="table-scroll">
                <table class="table">
                    <thead><tr>
                        <th scope="col">{lang.pick("Run", "Lauf")}</th>
                        <th scope="col">{lang.pick("Model", "Modell")}</th>
                        <th scope="col">{lang.pick("Weights / KV cache", "Gewichte / KV-Cache")}</th>
                        <th scope="col" class="num">{lang.pick("Questions answered", "Beantwortete Fragen")}</th>
                        <th scope="col" class="num">{lang.pick("Accuracy (%)", "Genauigkeit (%)")}</th>
                        <th scope="col" class="num">{lang.pick("Retrieval hit rate@k (%)", "Trefferquote der Suche@k (%)")}</th>
                        <th scope="col" class="num">{lang.pick("Truncated (answers, %)", "Abgeschnitten (Antworten, %)")}</th>
                        <th scope="col">{lang.pick("Wrong answers: search vs model", "Falsche Antworten: Suche oder Modell")}</th>
                    </tr></thead>
                    <tbody>
                        {runs.into_iter().map(|run| {
                            let s = run.scores.clone();
                            let unscorable = s.crosstab.wrong_unscorable.len();
                            let crosstab = match lang {
                                Lang::En => format!(
                                    "{} with the passage retrieved (model problem), {} without it (search problem){}",
                                    s.crosstab.wrong_with_passage.len(),
                                    s.crosstab.wrong_without_passage.len(),
                                    if unscorable == 0 { String::new() } else { format!(", {unscorable} unscorable") },
                                ),
                                Lang::De => format!(
                                    "{} mit gefundener Passage (Problem des Modells), {} ohne sie (Problem der Suche){}",
                                    s.crosstab.wrong_with_passage.len(),
                                    s.crosstab.wrong_without_passage.len(),
                                    if unscorable == 0 { String::new() } else { format!(", {unscorable} nicht bewertbar") },
                                ),
                            };
                            view! {
                                <tr>
                                    <td>{format!("#{} {}", run.evidence.id, run.evidence.file_name)}</td>
                                    <td class="mono">{run.model.clone()}<br/><span class="muted small">{format!("{} {} · {}", run.engine, run.engine_version, run.gpu)}</span></td>
                                    <td>{format!("{} / {}", run.weights_precision, run.kv_precision)}</td>
                                    <td class="num">{format!("{} {} {}", s.answered, lang.pick("of", "von"), s.of_set)}</td>
                                    {estimate_cell(s.answer_quality.as_ref(), format!("{} · {}", count_text(s.answer_quality.as_ref(), lang), method_text(s.answer_quality.as_ref(), lang)), lang)}
                                    {estimate_cell(s.hit_rate.as_ref(), format!("{} · k = {}", count_text(s.hit_rate.as_ref(), lang), run.k), lang)}
                                    <td class="num">{format!("{} ({})", s.truncation.as_ref().and_then(|t| t.successes).unwrap_or(0), s.truncation.as_ref().map(|t| pct(t.value, lang)).unwrap_or_else(|| "—".into()))}</td>
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
        let lang = lang();
        let c = comparison.comparison.clone();
        let points = lang.pick("percentage points", "Prozentpunkte");
        let diff = c.difference.as_ref().map(|d| match (d.low, d.high) {
            (Some(low), Some(high)) => format!(
                "{} {points} ({} {} {} {})",
                signed(d.value * 100.0, lang),
                lang.pick("95 % CI", "95-%-Intervall"),
                signed(low * 100.0, lang),
                lang.pick("to", "bis"),
                signed(high * 100.0, lang)
            ),
            _ => format!("{} {points}", signed(d.value * 100.0, lang)),
        });
        view! {
            <section class="card">
                <h2>{format!("{}: {} → {}", lang.pick("Precision comparison", "Vergleich der Präzisionen"), comparison.a_label, comparison.b_label)}</h2>
                <p class="muted small">{lang.pick(
                    "The same questions answered by both runs. Difference: accuracy of the second run minus the first over the questions both answered, paired Wald interval. McNemar's exact test: the probability of flips at least this lopsided if the precision made no difference.",
                    "Dieselben Fragen, von beiden Läufen beantwortet. Differenz: Genauigkeit des zweiten Laufs minus die des ersten über die Fragen, die beide beantwortet haben, gepaartes Wald-Intervall. Exakter Test nach McNemar: die Wahrscheinlichkeit von Wechseln, die mindestens so einseitig sind, wenn die Präzision keinen Unterschied machte.",
                )}</p>
                {(!comparison.same_set).then(|| view! { <p class="notice notice-warn">{lang.pick("The two runs were read against different evaluation sets.", "Die beiden Läufe wurden gegen verschiedene Evaluationsdatensätze gelesen.")}</p> })}
                <table class="table">
                    <tbody>
                        <tr><th scope="row">{lang.pick("Accuracy, first run (%)", "Genauigkeit, erster Lauf (%)")}</th><td class="num">{estimate_text(c.a.as_ref(), lang)}</td></tr>
                        <tr><th scope="row">{lang.pick("Accuracy, second run (%)", "Genauigkeit, zweiter Lauf (%)")}</th><td class="num">{estimate_text(c.b.as_ref(), lang)}</td></tr>
                        <tr><th scope="row">{lang.pick("Difference (percentage points)", "Differenz (Prozentpunkte)")}</th><td class="num">{diff.unwrap_or_else(|| "—".into())}</td></tr>
                        <tr><th scope="row">{lang.pick("McNemar exact p (two-sided)", "Exakter p-Wert nach McNemar (zweiseitig)")}</th><td class="num">{c.mcnemar_p.map(|p| num(p, 3, lang)).unwrap_or_else(|| "—".into())}</td></tr>
                        <tr><th scope="row">{lang.pick("Right → wrong (questions)", "Richtig → falsch (Fragen)")}</th><td>{format!("{}: {}", c.right_to_wrong.len(), c.right_to_wrong.join(", "))}</td></tr>
                        <tr><th scope="row">{lang.pick("Wrong → right (questions)", "Falsch → richtig (Fragen)")}</th><td>{format!("{}: {}", c.wrong_to_right.len(), c.wrong_to_right.join(", "))}</td></tr>
                    </tbody>
                </table>
            </section>
        }
    }

    #[component]
    fn ItemsTable(items: Vec<ItemRow>, run: i64) -> impl IntoView {
        let lang = lang();
        view! {
            <section class="card">
                <h2>{match lang {
                    Lang::En => format!("Questions of run #{run}"),
                    Lang::De => format!("Fragen des Laufs #{run}"),
                }}</h2>
                <p class="muted small">{lang.pick(
                    "Score: 1/0 for right/wrong, else the graded score (0–1). Retrieved: passage ids in rank order; “hit” when an accepted passage is among the first k.",
                    "Bewertung: 1/0 für richtig/falsch, sonst die abgestufte Bewertung (0–1). Gefunden: Passagen-IDs in Rangfolge; „Treffer“, wenn eine anerkannte Passage unter den ersten k ist.",
                )}</p>
                <div class="table-scroll">
                <table class="table">
                    <thead><tr>
                        <th scope="col">{lang.pick("Id", "ID")}</th>
                        <th scope="col">{lang.pick("Question", "Frage")}</th>
                        <th scope="col">{lang.pick("Accepted answer", "Anerkannte Antwort")}</th>
                        <th scope="col">{lang.pick("Given answer", "Gegebene Antwort")}</th>
                        <th scope="col">{lang.pick("Retrieved passages", "Gefundene Passagen")}</th>
                        <th scope="col" class="num">{lang.pick("Score", "Bewertung")}</th>
                    </tr></thead>
                    <tbody>
                        {items.into_iter().map(|item| {
                            let badge = match item.right {
                                Some(true) => "badge badge-pass",
                                Some(false) => "badge badge-fail",
                                None => "badge",
                            };
                            let hit = match item.hit {
                                Some(true) => lang.pick("hit", "Treffer"),
                                Some(false) => lang.pick("miss", "kein Treffer"),
                                None => lang.pick("not scorable", "nicht bewertbar"),
                            };
                            view! {
                                <tr>
                                    <td class="mono">{item.id.clone()}</td>
                                    <td>{item.question.clone()}</td>
                                    <td>{item.accepted_answer.clone()}<br/><span class="muted small mono">{item.accepted_passages.join(" | ")}</span></td>
                                    <td>{item.answer.clone().unwrap_or_else(|| lang.pick("not answered", "nicht beantwortet").into())}
                                        {item.truncated.then(|| view! { <br/><span class="badge badge-warn">{lang.pick("truncated", "abgeschnitten")}</span> })}</td>
                                    <td class="mono small">{format!("{} ({hit})", item.retrieved.join(" | "))}</td>
                                    <td class="num"><span class=badge>{item.value.map(|v| num(v, 2, lang)).unwrap_or_else(|| "—".into())}</span></td>
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
        let lang = lang();
        view! {
            <div class="empty-state">
                <h3>{lang.pick("No evaluation run yet", "Noch kein Evaluationslauf")}</h3>
                <p>{lang.pick(
                    "Upload the evaluation set (50–100 real questions), then one run per serving precision. CSV or JSON Lines:",
                    "Laden Sie den Evaluationsdatensatz (50–100 echte Fragen) hoch, dann einen Lauf je Präzision, in der produktiv gearbeitet wird. CSV oder JSON Lines:",
                )}</p>
                <ul>
                    <li><b>{lang.pick("Set: ", "Datensatz: ")}</b><code>"id, question, accepted_answer, accepted_passages"</code>{lang.pick(" (passage ids separated by |)", " (Passagen-IDs durch | getrennt)")}</li>
                    <li><b>{lang.pick("Run: ", "Lauf: ")}</b><code>"id, answer, score | correct, retrieved, finish_reason"</code>{lang.pick(
                        " (score 0–1 or correct true/false; retrieved ids in rank order separated by |)",
                        " (score 0–1 oder correct true/false; gefundene IDs in Rangfolge, durch | getrennt)",
                    )}</li>
                    <li><b>"lm-evaluation-harness: "</b>{lang.pick("its results JSON (detected without a kind)", "sein Ergebnis-JSON (ohne Angabe von kind erkannt)")}</li>
                </ul>
                <pre class="mono small">{curl}</pre>
            </div>
        }
    }

    /// A verdict badge: pass, fail or not measured.
    fn passed_badge(passed: Option<bool>, lang: Lang) -> AnyView {
        match passed {
            Some(true) => {
                view! { <span class="badge badge-pass">{lang.pick("Pass", "Erreicht")}</span> }
                    .into_any()
            }
            Some(false) => {
                view! { <span class="badge badge-fail">{lang.pick("Fail", "Verfehlt")}</span> }
                    .into_any()
            }
            None => {
                view! { <span class="badge">{lang.pick("Not graded", "Nicht bewertet")}</span> }
                    .into_any()
            }
        }
    }

    /// A mark's verdict word (`pass`, `fail`, `not measured`, `not comparable`) in `lang`.
    fn verdict_word(verdict: &str, lang: Lang) -> String {
        let german = match verdict {
            "pass" => "erreicht",
            "fail" => "verfehlt",
            "not_measured" => "nicht gemessen",
            "not_comparable" => "nicht vergleichbar",
            _ => "",
        };
        match lang {
            Lang::De if !german.is_empty() => german.to_string(),
            _ => verdict.replace('_', " "),
        }
    }

    /// Which precisions passed the plan's quality marks, which one is decided, and why.
    #[component]
    pub fn DecisionCard(decision: PrecisionDecision, pilot_id: i64) -> impl IntoView {
        let lang = lang();
        let headline = match (&decision.decided, &decision.decided_kv, lang) {
            (Some(p), Some(kv), Lang::En) => format!("Decided: {p} weights, KV cache {kv}"),
            (Some(p), Some(kv), Lang::De) => format!("Entschieden: Gewichte {p}, KV-Cache {kv}"),
            (Some(p), None, _) => format!("{}: {p}", lang.pick("Decided", "Entschieden")),
            (None, _, _) => lang
                .pick("No precision decided", "Keine Präzision entschieden")
                .into(),
        };
        let candidates = if decision.passing_combinations.is_empty() {
            lang.pick("none", "keine").to_string()
        } else {
            decision
                .passing_combinations
                .iter()
                .map(|pair| match lang {
                    Lang::En => format!(
                        "{} weights with KV cache {}",
                        pair.weights, pair.kv_precision
                    ),
                    Lang::De => format!(
                        "Gewichte {} mit KV-Cache {}",
                        pair.weights, pair.kv_precision
                    ),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let reason = match lang {
            Lang::En => decision.reason.clone(),
            Lang::De => decision.reason_in(lang),
        };
        let rows = decision
            .runs
            .iter()
            .map(|r| {
                let accuracy = match (r.accuracy, r.accuracy_low, r.accuracy_high) {
                    (Some(v), Some(lo), Some(hi)) => {
                        format!("{} ({})", pct(v, lang), interval_text(lo, hi, lang))
                    }
                    (Some(v), _, _) => pct(v, lang),
                    _ => "—".into(),
                };
                let marks = if r.marks.is_empty() {
                    lang.pick("no quality mark in the plan", "kein Qualitäts-Zielwert im Plan")
                        .to_string()
                } else {
                    r.marks
                        .iter()
                        .map(|m| format!("{}: {} ({})", m.mark, m.figure, verdict_word(&m.verdict, lang)))
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
                                Some(reason) => view! { <br/><span class="notice notice-warn small not-comparable">{format!("{}: {reason}.", lang.pick("Not comparable", "Nicht vergleichbar"))}</span> }.into_any(),
                                None if !r.counts => view! { <br/><span class="muted small">{lang.pick("superseded by a newer run of this precision and KV cache", "abgelöst durch einen neueren Lauf mit dieser Präzision und diesem KV-Cache")}</span> }.into_any(),
                                None => ().into_any(),
                            }}</td>
                        <td class="mono small">{r.model.clone()}</td>
                        <td class="num">{accuracy}</td>
                        <td class="num">{r.bytes_per_weight.map(|b| num(b, 2, lang)).unwrap_or_else(|| lang.pick("unknown", "unbekannt").into())}</td>
                        <td class="small">{marks}</td>
                        <td>{passed_badge(r.passed, lang)}</td>
                    </tr>
                }
            })
            .collect_view();
        let show_table = !decision.runs.is_empty();
        view! {
            <section class="card decision-card" id="precision-decision">
                <h2>{lang.pick("Precision decision", "Entscheidung zur Präzision")}</h2>
                <p class="decision-headline"><strong>{headline}</strong></p>
                <p class="decision-reason" role="status">{reason}</p>
                <p class="small">{match lang {
                    Lang::En => format!("Candidates for the sizing recommendation: {candidates}."),
                    Lang::De => format!("Kandidaten für die Dimensionierungsempfehlung: {candidates}."),
                }}</p>
                <p class="muted small">{lang.pick(
                    "Rule: each run is graded on the plan's quality marks (answer score, retrieval hit rate@k, truncation rate) using its point estimate; the newest run of a precision and KV cache speaks for it (a run that states no KV cache counts as 16-bit). Only passing pairs are sizing candidates: an FP8 KV cache needs its own passing run with an FP8 KV cache. The one decided needs the least memory per weight, a tie going to the higher accuracy. Runs of another model than the pilot's are shown, never graded.",
                    "Regel: Jeder Lauf wird mit seinem Punktschätzer an den Qualitäts-Zielwerten des Plans gemessen (Antwortbewertung, Trefferquote der Suche@k, Anteil abgeschnittener Antworten); für eine Kombination aus Präzision und KV-Cache zählt ihr neuester Lauf (ein Lauf ohne Angabe des KV-Cache gilt als 16-Bit). Nur bestandene Kombinationen sind Kandidaten für die Dimensionierung: Ein FP8-KV-Cache braucht einen eigenen bestandenen Lauf mit FP8-KV-Cache. Entschieden wird die Präzision mit dem geringsten Speicherbedarf je Gewicht, bei Gleichstand die genauere. Läufe eines anderen Modells als das des Piloten werden gezeigt, aber nie bewertet.",
                )}</p>
                {show_table.then(|| view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">{lang.pick("Run", "Lauf")}</th>
                            <th scope="col">{lang.pick("Weights / KV cache", "Gewichte / KV-Cache")}</th>
                            <th scope="col">{lang.pick("Model", "Modell")}</th>
                            <th scope="col" class="num">{lang.pick("Accuracy", "Genauigkeit")}</th>
                            <th scope="col" class="num">{lang.pick("Bytes per weight", "Bytes je Gewicht")}</th>
                            <th scope="col">{lang.pick("Quality marks", "Qualitäts-Zielwerte")}</th>
                            <th scope="col">{lang.pick("Verdict", "Ergebnis")}</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                })}
                {(!decision.passing.is_empty()).then(|| view! {
                    <p><a href=format!("/pilots/{pilot_id}")>{lang.pick("Size this pilot with the passing precisions (pilot page)", "Diesen Piloten mit den bestandenen Präzisionen dimensionieren (Pilotseite)")}</a></p>
                })}
            </section>
        }
    }

    pub fn overview_view(overview: QualityReport, pilot_id: i64) -> AnyView {
        let lang = lang();
        let set_line = overview.set.as_ref().map(|s| {
            let version = match (s.version, s.approved, lang) {
                (Some(n), true, Lang::En) => format!("version {n} (approved)"),
                (Some(n), true, Lang::De) => format!("Version {n} (freigegeben)"),
                (Some(n), false, Lang::En) => {
                    format!("draft version {n} (approved by the first run read against it)")
                }
                (Some(n), false, Lang::De) => format!(
                    "Entwurfsversion {n} (freigegeben durch den ersten Lauf, der gegen sie gelesen wird)"
                ),
                (None, _, _) => lang.pick("unversioned", "ohne Version").into(),
            };
            let file = s
                .evidence
                .as_ref()
                .map(|e| format!(" · {} #{} {}", lang.pick("from", "aus"), e.id, e.file_name))
                .unwrap_or_default();
            match lang {
                Lang::En => format!(
                    "Evaluation set {version}: {} questions{file} · pass score for graded answers {:.2}",
                    s.questions, overview.pass_score
                ),
                Lang::De => format!(
                    "Evaluationsdatensatz {version}: {} Fragen{file} · Mindestbewertung für abgestufte Antworten {}",
                    s.questions,
                    lang.number(overview.pass_score, 2)
                ),
            }
        });
        let draft_note = overview
            .draft_version
            .filter(|d| overview.set.as_ref().and_then(|s| s.version) != Some(*d))
            .map(|d| match lang {
                Lang::En => format!("Draft version {d} of the set is open; runs are read against it once it is approved."),
                Lang::De => format!("Entwurfsversion {d} des Datensatzes ist offen; Läufe werden gegen sie gelesen, sobald sie freigegeben ist."),
            });
        let set_link_text = if overview.can_edit {
            lang.pick(
                "View and edit the evaluation set",
                "Evaluationsdatensatz ansehen und bearbeiten",
            )
        } else {
            lang.pick("View the evaluation set", "Evaluationsdatensatz ansehen")
        };
        let small_set = overview
            .set
            .as_ref()
            .and_then(|s| engine::verdict::cross_check::small_eval_set_in(s.questions, lang));
        view! {
            {set_line.map(|l| view! { <p class="muted" id="set-line">{l}</p> })}
            {small_set.map(|w| view! { <p class="notice notice-warn" id="small-set">{w}</p> })}
            {draft_note.map(|n| view! { <p class="notice notice-warn">{n}</p> })}
            <p><a href=format!("/pilots/{pilot_id}/quality/set")>{set_link_text}</a>
                {overview.can_edit.then(|| view! { " · " <a href=format!("/pilots/{pilot_id}/evidence")>{lang.pick("Upload a set or runs", "Datensatz oder Läufe hochladen")}</a> })}</p>
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
                    <h2>{lang.pick("lm-evaluation-harness tasks", "Aufgaben des lm-evaluation-harness")}</h2>
                    {overview.lm_eval.iter().filter_map(|l| match lang {
                        Lang::En => l.check.not_comparable.clone(),
                        Lang::De => l.check.reason_in(lang),
                    }.map(|why| view! {
                        <div class="notice notice-warn" role="note">{match lang {
                            Lang::En => format!("Not comparable: {why}. Its scores are shown for reference only."),
                            Lang::De => format!("Nicht vergleichbar: {why}. Die Werte werden nur zur Orientierung gezeigt."),
                        }}</div>
                    })).collect_view()}
                    <table class="table">
                        <thead><tr>
                            <th scope="col">{lang.pick("File", "Datei")}</th>
                            <th scope="col">{lang.pick("Model", "Modell")}</th>
                            <th scope="col">{lang.pick("Task", "Aufgabe")}</th>
                            <th scope="col">{lang.pick("Metric (filter)", "Metrik (Filter)")}</th>
                            <th scope="col" class="num">{lang.pick("Value", "Wert")}</th>
                            <th scope="col" class="num">{lang.pick("Standard error", "Standardfehler")}</th>
                            <th scope="col" class="num">{lang.pick("Samples", "Stichproben")}</th>
                        </tr></thead>
                        <tbody>
                            {overview.lm_eval.iter().flat_map(|l| l.results.metrics.iter().map(move |m| view! {
                                <tr class=if l.check.is_comparable() { "" } else { "not-comparable" }>
                                    <td>{format!("#{} {}", l.evidence.id, l.evidence.file_name)}</td>
                                    <td class="mono">{match (&l.results.model_name, l.check.is_comparable()) {
                                        (Some(model), true) => model.clone(),
                                        (Some(model), false) => format!("{model} {}", lang.pick("(not the pilot's)", "(nicht das des Piloten)")),
                                        (None, _) => lang.pick("not stated in the file", "in der Datei nicht angegeben").to_string(),
                                    }}</td>
                                    <td class="mono">{m.task.clone()}</td>
                                    <td class="mono">{format!("{} ({})", m.metric, m.filter)}</td>
                                    <td class="num">{num(m.value, 4, lang)}</td>
                                    <td class="num">{m.stderr.map(|s| format!("±{}", num(s, 4, lang))).unwrap_or_else(|| "—".into())}</td>
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
