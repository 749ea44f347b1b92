//! Which load-test points make one line of a curve, what the line is called and its colour.
//!
//! Why a module of its own: a sweep is often uploaded as one file per concurrency (AIPerf
//! writes a folder per level). Drawn per file, such a sweep was three unconnected dots with
//! three identical legend entries naming a dataset path. Here a line is **one serving
//! configuration running one scenario**, however many files its points came in; it is named
//! by what differs between the lines of the chart (the serving configuration, the scenario,
//! or, in a comparison, the run), never by a path; and its colour follows from the sorted set
//! of lines, so the page and the report's PDF colour the same line the same way whatever
//! order the runs arrive in.

use super::{LoadTestRun, PointRow};
use engine::locale::Lang;
use engine::run_context::RunContext;

/// What a line is: its serving configuration, scenario and (in a comparison, where each
/// picked file is compared on its own) the run.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineKey {
    pub configuration: String,
    pub scenario: String,
    /// The evidence id, when runs are kept apart (a comparison); `None`: joined.
    pub run: Option<i64>,
    /// Another model's or GPU's run: never joined with the pilot's own, and named so.
    pub not_comparable: bool,
}

/// One line: its points in ascending concurrency (one per level).
#[derive(Clone, Debug, PartialEq)]
pub struct Line<'a> {
    pub key: LineKey,
    pub name: String,
    pub colour: usize,
    /// The comparison's baseline (drawn dashed).
    pub baseline: bool,
    pub points: Vec<&'a PointRow>,
}

/// The serving configuration as a line names it: engine and version, cards, TP, precisions.
/// Empty when the run states none.
pub fn configuration_label(context: Option<&RunContext>) -> String {
    let Some(c) = context else {
        return String::new();
    };
    let mut parts = Vec::new();
    let serving = format!(
        "{} {}",
        c.engine.as_deref().unwrap_or(""),
        c.engine_version.as_deref().unwrap_or("")
    );
    if !serving.trim().is_empty() {
        parts.push(serving.trim().to_string());
    }
    match (c.gpu_count, c.gpu.as_deref()) {
        (Some(n), Some(g)) => parts.push(format!("{n} × {}", short_gpu(g))),
        (None, Some(g)) => parts.push(short_gpu(g)),
        (Some(n), None) => parts.push(format!("{n} GPU")),
        (None, None) => {}
    }
    if let Some(tp) = c.tensor_parallel.filter(|&tp| tp > 1) {
        parts.push(format!("TP {tp}"));
    }
    if let Some(p) = &c.precision {
        parts.push(p.clone());
    }
    if let Some(kv) = c.kv_cache_dtype.as_deref().filter(|k| *k != "auto") {
        parts.push(format!("KV {kv}"));
    }
    parts.join(" · ")
}

pub use engine::run_context::framework_label;

/// `context` served by `framework`: a different engine drops the recorded version, which
/// belonged to the other one.
fn with_engine(context: Option<&RunContext>, framework: &str) -> RunContext {
    let mut context = context.cloned().unwrap_or_default();
    let same = context
        .engine
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case(framework));
    if !same {
        context.engine = Some(framework.to_string());
        context.engine_version = None;
    }
    context
}

/// `NVIDIA L40S` → `L40S`; `Tesla V100-SXM2-16GB` → `V100-SXM2-16GB`.
fn short_gpu(gpu: &str) -> String {
    let gpu = gpu.trim();
    for prefix in ["NVIDIA ", "Tesla ", "AMD "] {
        if let Some(rest) = gpu.strip_prefix(prefix) {
            return rest.to_string();
        }
    }
    gpu.to_string()
}

pub use engine::loadtest::scenario_label;

/// [`scenario_label`] for a reader of `lang`. The words the importers write when a file
/// names no scenario of its own (`input 512 / output 128 tokens`, `observed mean input …`,
/// `unspecified`; [`scenario_label`] already drops the `dataset` prefix) are translated with their numbers; a scenario the
/// file named stays as named.
pub fn scenario_label_in(scenario: &str, lang: Lang) -> String {
    let label = scenario_label(scenario);
    if lang == Lang::En {
        return label;
    }
    if let Some(lengths) = german_lengths(&label) {
        return lengths;
    }
    match label.split_once(", ") {
        Some((dataset, lengths)) => match german_lengths(lengths) {
            Some(lengths) => format!("{dataset}, {lengths}"),
            None => label,
        },
        None => label,
    }
}

/// The importers' token-length scenario in German (`Eingabe 1.000 / Ausgabe 500 Token`);
/// `None` for any other text.
fn german_lengths(text: &str) -> Option<String> {
    if text == "unspecified" {
        return Some("nicht angegeben".into());
    }
    let (observed, text) = match text.strip_prefix("observed mean ") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let number = |t: &str| {
        let digits = t.trim();
        digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
            .then(|| {
                digits
                    .replace(',', "\u{0}")
                    .replace('.', ",")
                    .replace('\u{0}', ".")
            })
    };
    let body = text.strip_suffix(" tokens")?;
    let words = match body.split_once(" / ") {
        Some((input, output)) => format!(
            "Eingabe {} / Ausgabe {} Token",
            number(input.strip_prefix("input ")?)?,
            number(output.strip_prefix("output ")?)?
        ),
        None => match (body.strip_prefix("input "), body.strip_prefix("output ")) {
            (Some(n), _) => format!("Eingabe {} Token", number(n)?),
            (_, Some(n)) => format!("Ausgabe {} Token", number(n)?),
            _ => return None,
        },
    };
    Some(if observed {
        format!("beobachtetes Mittel: {words}")
    } else {
        words
    })
}

/// The lines of `runs` (and of a comparison's `baseline`, dashed). `separate_runs` keeps each
/// run a line of its own (a comparison); otherwise the points of one configuration and
/// scenario join into one line, and where two files measured the same concurrency the later
/// upload's point is drawn. The words a name adds (`baseline`, `configuration not stated`)
/// are in `lang`; the recorded parts (scenario, GPU, framework) stay as recorded.
pub fn lines<'a>(
    runs: &'a [LoadTestRun],
    baseline: &'a [LoadTestRun],
    separate_runs: bool,
    lang: Lang,
) -> Vec<Line<'a>> {
    let mut lines: Vec<Line<'a>> = Vec::new();
    for (is_baseline, group) in [(false, runs), (true, baseline)] {
        for run in group {
            let configuration = configuration_label(run.run_context.as_ref());
            for point in run.points.iter().filter(|p| p.concurrency.is_some()) {
                // A row's own framework (a file mixing vLLM and SGLang) is its configuration's
                // engine, in place of the one the upload recorded for the file.
                let configuration = match &point.framework {
                    Some(framework) => {
                        configuration_label(Some(&with_engine(run.run_context.as_ref(), framework)))
                    }
                    None => configuration.clone(),
                };
                let key = LineKey {
                    configuration,
                    scenario: scenario_label_in(&point.scenario, lang),
                    run: (separate_runs || is_baseline).then_some(run.evidence.id),
                    not_comparable: run.not_comparable.is_some(),
                };
                let line = match lines
                    .iter_mut()
                    .position(|l| l.key == key && l.baseline == is_baseline)
                {
                    Some(i) => &mut lines[i],
                    None => {
                        lines.push(Line {
                            key,
                            name: String::new(),
                            colour: 0,
                            baseline: is_baseline,
                            points: Vec::new(),
                        });
                        lines.last_mut().expect("just pushed")
                    }
                };
                add_point(&mut line.points, point);
            }
        }
    }
    for line in &mut lines {
        line.points.sort_by(|a, b| {
            a.concurrency
                .unwrap_or(0.0)
                .total_cmp(&b.concurrency.unwrap_or(0.0))
        });
    }
    name_and_colour(&mut lines, lang);
    lines
}

/// Adds `point`, replacing an earlier upload's point at the same concurrency.
fn add_point<'a>(points: &mut Vec<&'a PointRow>, point: &'a PointRow) {
    match points
        .iter_mut()
        .find(|p| p.concurrency == point.concurrency)
    {
        Some(existing) if existing.evidence_id < point.evidence_id => *existing = point,
        Some(_) => {}
        None => points.push(point),
    }
}

/// Names each line by the parts of its key that differ between the lines, and colours it by
/// its key's place among the sorted keys.
fn name_and_colour(lines: &mut [Line<'_>], lang: Lang) {
    let varies = |part: fn(&LineKey) -> String| {
        let mut values: Vec<String> = lines.iter().map(|l| part(&l.key)).collect();
        values.sort();
        values.dedup();
        values.len() > 1
    };
    let configuration_varies = varies(|k| k.configuration.clone());
    let scenario_varies = varies(|k| k.scenario.clone());
    let run_varies = varies(|k| k.run.map(|r| r.to_string()).unwrap_or_default());
    let mut keys: Vec<LineKey> = lines.iter().map(|l| l.key.clone()).collect();
    keys.sort();
    keys.dedup();
    for line in lines.iter_mut() {
        let key = &line.key;
        let mut parts: Vec<String> = Vec::new();
        if let Some(run) = key.run.filter(|_| run_varies) {
            parts.push(format!("#{run}"));
        }
        if configuration_varies {
            parts.push(if key.configuration.is_empty() {
                lang.pick("configuration not stated", "Konfiguration nicht angegeben")
                    .into()
            } else {
                key.configuration.clone()
            });
        }
        if scenario_varies || parts.is_empty() {
            parts.push(key.scenario.clone());
        }
        if key.not_comparable {
            parts.push(lang.pick("not comparable", "nicht vergleichbar").into());
        }
        let name = parts.join(" · ");
        line.name = if line.baseline {
            format!("{} {name}", lang.pick("baseline", "Vergleichsbasis"))
        } else {
            name
        };
        line.colour = keys.iter().position(|k| k == key).unwrap_or(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load_tests::Stat3;
    use crate::model::{EvidenceFile, EvidenceKind};

    fn point(evidence_id: i64, scenario: &str, concurrency: f64, ttft: f64) -> PointRow {
        PointRow {
            key: format!("{evidence_id}:0"),
            evidence_id,
            file_name: "profile_export_aiperf.json".into(),
            scenario: scenario.into(),
            source: "profile_export_aiperf.json".into(),
            framework: None,
            concurrency: Some(concurrency),
            concurrency_basis: Default::default(),
            request_rate: None,
            completed: Some(100),
            failed: Some(0),
            duration_s: Some(300.0),
            request_throughput: None,
            output_tokens_per_s: None,
            per_stream_tokens_per_s: None,
            per_stream_derived: false,
            ttft: Stat3 {
                p50: Some(ttft),
                p95: Some(ttft),
                p99: Some(ttft),
            },
            tpot: Stat3::default(),
            itl: Stat3::default(),
            e2e: Stat3::default(),
            goodput: None,
            spread: None,
        }
    }

    fn run(id: i64, context: Option<RunContext>, points: Vec<PointRow>) -> LoadTestRun {
        LoadTestRun {
            evidence: EvidenceFile {
                id,
                pilot_id: 1,
                kind: EvidenceKind::LoadTest,
                file_name: "profile_export_aiperf.json".into(),
                sha256: String::new(),
                size_bytes: 0,
                uploaded_by: String::new(),
                uploaded_ms: 0,
                withdrawn_ms: None,
            },
            tool: "aiperf".into(),
            tool_version: None,
            layout: String::new(),
            run_context: context,
            points,
            warnings: Vec::new(),
            per_request: false,
            not_comparable: None,
        }
    }

    fn l40s() -> RunContext {
        RunContext {
            engine: Some("vLLM".into()),
            engine_version: Some("0.11.0".into()),
            gpu: Some("NVIDIA L40S".into()),
            gpu_count: Some(2),
            tensor_parallel: Some(2),
            ..RunContext::default()
        }
    }

    const SHAREGPT: &str = "dataset /benchmarks/sharegpt-cache/inputs-qwen3-4b.json";

    #[test]
    fn a_sweep_in_one_file_per_concurrency_is_one_line_named_without_a_path() {
        let runs = vec![
            run(9, Some(l40s()), vec![point(9, SHAREGPT, 768.0, 40_000.0)]),
            run(8, Some(l40s()), vec![point(8, SHAREGPT, 128.0, 900.0)]),
            run(7, Some(l40s()), vec![point(7, SHAREGPT, 16.0, 120.0)]),
        ];
        let lines = lines(&runs, &[], false, Lang::En);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].name, "inputs-qwen3-4b");
        let levels: Vec<f64> = lines[0]
            .points
            .iter()
            .map(|p| p.concurrency.unwrap())
            .collect();
        assert_eq!(levels, [16.0, 128.0, 768.0]);
    }

    #[test]
    fn lines_are_named_by_what_differs_and_coloured_by_key_not_order() {
        let mut h100 = l40s();
        h100.gpu = Some("NVIDIA H100 80GB HBM3".into());
        h100.gpu_count = Some(1);
        h100.tensor_parallel = Some(1);
        let a = run(1, Some(l40s()), vec![point(1, "chat", 1.0, 100.0)]);
        let b = run(2, Some(h100), vec![point(2, "chat", 1.0, 60.0)]);
        let (in_order, reversed) = (vec![a.clone(), b.clone()], vec![b, a]);
        let forward = lines(&in_order, &[], false, Lang::En);
        let backward = lines(&reversed, &[], false, Lang::En);
        let names: Vec<&str> = forward.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "vLLM 0.11.0 · 2 × L40S · TP 2",
                "vLLM 0.11.0 · 1 × H100 80GB HBM3"
            ]
        );
        for line in &forward {
            let same = backward.iter().find(|l| l.key == line.key).unwrap();
            assert_eq!(line.colour, same.colour, "{}", line.name);
        }
        assert_ne!(forward[0].colour, forward[1].colour);
    }

    #[test]
    fn another_models_run_is_never_joined_with_the_pilots_and_says_so() {
        let mut other = run(4, Some(l40s()), vec![point(4, SHAREGPT, 100.0, 3_000.0)]);
        other.not_comparable = Some("the load test gpt-oss.json was measured with …".into());
        let runs = vec![
            run(2, Some(l40s()), vec![point(2, SHAREGPT, 16.0, 120.0)]),
            other,
            run(3, Some(l40s()), vec![point(3, SHAREGPT, 128.0, 380.0)]),
        ];
        let lines = lines(&runs, &[], false, Lang::De);
        let named: Vec<(&str, usize)> = lines
            .iter()
            .map(|l| (l.name.as_str(), l.points.len()))
            .collect();
        assert_eq!(
            named,
            [
                ("inputs-qwen3-4b", 2),
                ("inputs-qwen3-4b · nicht vergleichbar", 1)
            ]
        );
    }

    #[test]
    fn a_later_upload_at_the_same_concurrency_replaces_the_earlier_point() {
        let runs = vec![
            run(3, None, vec![point(3, "chat", 8.0, 200.0)]),
            run(5, None, vec![point(5, "chat", 8.0, 180.0)]),
        ];
        let lines = lines(&runs, &[], false, Lang::En);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].points.len(), 1);
        assert_eq!(lines[0].points[0].evidence_id, 5);
    }

    #[test]
    fn a_comparison_keeps_runs_apart_and_its_baseline_dashed() {
        let picked = vec![
            run(4, Some(l40s()), vec![point(4, "chat", 1.0, 90.0)]),
            run(6, Some(l40s()), vec![point(6, "chat", 1.0, 95.0)]),
        ];
        let base = vec![run(2, Some(l40s()), vec![point(2, "chat", 1.0, 80.0)])];
        let lines = lines(&picked, &base, true, Lang::En);
        let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["#4", "#6", "baseline #2"]);
        assert!(lines[2].baseline);
    }

    #[test]
    fn rows_of_two_frameworks_in_one_file_are_two_lines_named_by_framework() {
        let mut sgl = point(1, "chat", 8.0, 150.0);
        sgl.framework = Some(framework_label("sgl"));
        let mut vllm = point(1, "chat", 8.0, 120.0);
        vllm.framework = Some(framework_label("vllm"));
        let runs = vec![run(1, None, vec![vllm, sgl])];
        let lines = lines(&runs, &[], false, Lang::En);
        let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["vLLM", "SGLang"]);
    }

    #[test]
    fn a_row_s_framework_replaces_the_engine_recorded_for_its_file() {
        let context = RunContext {
            engine: Some("vLLM".into()),
            engine_version: Some("0.11.0".into()),
            gpu: Some("NVIDIA L40S".into()),
            gpu_count: Some(2),
            ..RunContext::default()
        };
        let mut sgl = point(1, "chat", 8.0, 150.0);
        sgl.framework = Some(framework_label("sgl"));
        let mut vllm = point(1, "chat", 8.0, 120.0);
        vllm.framework = Some(framework_label("vllm"));
        let runs = vec![run(1, Some(context), vec![vllm, sgl])];
        let lines = lines(&runs, &[], false, Lang::En);
        let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
        // Never "SGLang · vLLM 0.11.0 …": the vLLM version is not SGLang's.
        assert_eq!(names, ["vLLM 0.11.0 · 2 × L40S", "SGLang · 2 × L40S"]);
    }

    #[test]
    fn scenario_labels_drop_paths_and_extensions_only() {
        assert_eq!(scenario_label(SHAREGPT), "inputs-qwen3-4b");
        assert_eq!(scenario_label("dataset sharegpt"), "sharegpt");
        assert_eq!(
            scenario_label("input 1000 / output 500 tokens"),
            "input 1000 / output 500 tokens"
        );
        assert_eq!(
            scenario_label("prompt_tokens=512,output_tokens=128"),
            "prompt_tokens=512,output_tokens=128"
        );
    }

    #[test]
    fn the_importers_own_scenario_words_are_german_and_named_scenarios_stay() {
        let de = |s: &str| scenario_label_in(s, Lang::De);
        assert_eq!(de("output 250 tokens"), "Ausgabe 250 Token");
        assert_eq!(
            de("input 1,000 / output 500 tokens"),
            "Eingabe 1.000 / Ausgabe 500 Token"
        );
        assert_eq!(
            de("observed mean input 12.5 / output 3 tokens"),
            "beobachtetes Mittel: Eingabe 12,5 / Ausgabe 3 Token"
        );
        assert_eq!(de("unspecified"), "nicht angegeben");
        assert_eq!(
            de("dataset sharegpt, input 512 / output 128 tokens"),
            "sharegpt, Eingabe 512 / Ausgabe 128 Token"
        );
        assert_eq!(de(SHAREGPT), "inputs-qwen3-4b");
        assert_eq!(de("ShareGPT balanced chat"), "ShareGPT balanced chat");
        assert_eq!(de("input lots of tokens"), "input lots of tokens");
        assert_eq!(
            scenario_label_in("output 250 tokens", Lang::En),
            "output 250 tokens"
        );
    }
}
