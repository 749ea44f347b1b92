//! The server side of the load-test pages (also used by the upload routes).

use super::*;
use crate::ServiceError;
use crate::Services;
use crate::model::EvidenceKind;
use crate::store::evidence::DerivedWrites;
use engine::charts::{CurveChart, CurveSeries, Threshold, load_curve_chart};
use engine::ingest::{Import, ImportOptions, MetricKey, MetricStats, OperatingPoint};
use engine::loadtest::{
    PointGoodput, RequestSample, RequestSamples, capacity_by_scenario, classify_spread,
    grade_on_percentiles, grade_on_requests, latency_targets,
};
use engine::locale::Lang;
use engine::run_context::provenance::{ContextSource, Provenance, layer};
use std::collections::{BTreeMap, HashMap};

/// Load-test files up to this size keep their per-request records while being read, so the
/// figures exact goodput needs are taken once at import; larger ones are graded on their
/// reported percentiles (their statistics are exact either way).
pub const MAX_SAMPLED_BYTES: u64 = 256 * 1024 * 1024;

/// The derived row of a load test's per-request samples ([`RequestSamples`], binary).
pub const REQUEST_SAMPLES: &str = "request_samples";

/// The derived row of a load test's goodput against approved plan version `version` (one
/// [`PointGoodput`] per operating point, JSON).
pub fn goodput_row(version: u32) -> String {
    format!("goodput:v{version}")
}

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "load-test evidence unreadable");
    ServiceError::Internal
}

/// The run-context form fields of an upload, by name. Every field is optional.
pub const RUN_CONTEXT_FIELDS: [&str; 12] = [
    "engine",
    "engine_version",
    "gpu",
    "gpu_count",
    "precision",
    "kv_dtype",
    "tp",
    "max_num_batched_tokens",
    "max_num_seqs",
    "prefix_caching",
    "cuda_graphs",
    "serve_command",
];

/// The run context recorded with an upload of `points`, and where each value came from:
/// what the file states about its own run, else the form fields where filled in, else what
/// the pasted `serve_command` (a `vllm serve …` line or a ServingRuntime YAML) says, else the
/// pilot's notes (engine, version, GPU and count); see `engine::run_context::provenance`.
/// Errors name the field.
pub fn recorded_run_context(
    fields: &BTreeMap<String, String>,
    pilot: &Pilot,
    points: &[OperatingPoint],
) -> Result<RecordedRunContext, ServiceError> {
    let text = |name: &str| {
        fields
            .get(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    fn whole<T: std::str::FromStr>(
        name: &str,
        value: Option<String>,
    ) -> Result<Option<T>, ServiceError> {
        value
            .map(|v| {
                v.parse::<T>().map_err(|_| {
                    ServiceError::invalid_in(
                        format!("{name}: `{v}` is not a whole number"),
                        format!("{name}: `{v}` ist keine ganze Zahl"),
                    )
                })
            })
            .transpose()
    }
    fn flag(name: &str, value: Option<String>) -> Result<Option<bool>, ServiceError> {
        value
            .map(|v| match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "yes" | "1" => Ok(true),
                "off" | "false" | "no" | "0" => Ok(false),
                _ => Err(ServiceError::invalid_in(
                    format!("{name}: `{v}` is not on or off"),
                    format!("{name}: `{v}` ist weder on noch off"),
                )),
            })
            .transpose()
    }
    let form = RunContext {
        engine: text("engine"),
        engine_version: text("engine_version"),
        gpu: text("gpu"),
        gpu_count: whole("gpu_count", text("gpu_count"))?,
        precision: text("precision"),
        kv_cache_dtype: text("kv_dtype"),
        tensor_parallel: whole("tp", text("tp"))?,
        max_num_batched_tokens: whole("max_num_batched_tokens", text("max_num_batched_tokens"))?,
        max_num_seqs: whole("max_num_seqs", text("max_num_seqs"))?,
        prefix_caching: flag("prefix_caching", text("prefix_caching"))?,
        cuda_graphs: flag("cuda_graphs", text("cuda_graphs"))?,
        ..RunContext::default()
    };
    let pasted = match text("serve_command") {
        Some(t) => engine::run_context::parse(&t)
            .map_err(|e| ServiceError::invalid(format!("serve_command: {e}")))?,
        None => RunContext::default(),
    };
    let from_pilot = RunContext {
        engine: Some(pilot.engine.trim().to_string()).filter(|s| !s.is_empty()),
        engine_version: Some(pilot.engine_version.trim().to_string()).filter(|s| !s.is_empty()),
        gpu: Some(pilot.gpu_type.trim().to_string()).filter(|s| !s.is_empty()),
        gpu_count: u32::try_from(pilot.gpu_count).ok().filter(|n| *n > 0),
        ..RunContext::default()
    };
    let file = engine::run_context::stated_by(points);
    let (context, provenance) = layer(&[
        (ContextSource::File, &file),
        (ContextSource::Form, &form),
        (ContextSource::ServeCommand, &pasted),
        (ContextSource::PilotNotes, &from_pilot),
    ]);
    Ok(RecordedRunContext {
        context,
        provenance: Some(provenance),
    })
}

/// A load test's run context as it is recorded, with its provenance (`None` on rows from
/// before it was kept).
#[derive(Clone, Debug, Default)]
pub struct RecordedRunContext {
    pub context: RunContext,
    pub provenance: Option<Provenance>,
}

/// Stores the V100 benchmark report's published percentiles as the demo pilot's load-test
/// evidence (first start only): a vLLM-bench-style JSON Lines file read by the normal
/// importer, with the report's ServingRuntime as its run context.
pub async fn seed_demo_load_test(
    services: &Services,
    pilot_id: i64,
    uploaded_by: i64,
) -> Result<i64, ServiceError> {
    use engine::loadtest::demo;
    let bytes = demo::v100_report_jsonl().into_bytes();
    let import = engine::ingest::import_reader(
        demo::FILE_NAME,
        std::io::BufReader::new(bytes.as_slice()),
        &ImportOptions::stats_only(),
    )
    .map_err(internal)?;
    let runtime = engine::run_context::parse(demo::SERVING_RUNTIME).map_err(internal)?;
    let notes = RunContext {
        gpu: Some("Tesla V100-SXM2-16GB".into()),
        ..RunContext::default()
    };
    let (context, provenance) = layer(&[
        (ContextSource::ServeCommand, &runtime),
        (ContextSource::PilotNotes, &notes),
    ]);
    let recorded = RecordedRunContext {
        context,
        provenance: Some(provenance),
    };
    let (summary, derived) = prepare(services, pilot_id, import, recorded).await?;
    crate::evidence::keep_bytes_with(
        services,
        crate::evidence::EvidenceBytes {
            pilot_id,
            kind: EvidenceKind::LoadTest,
            file_name: demo::FILE_NAME,
            bytes: &bytes,
            summary_json: &summary.to_string(),
            uploaded_by,
        },
        derived,
    )
    .await
}

/// A read load test made ready to store: its summary JSON (the import without its
/// per-request records, the run context, the sample count) and what is derived from it,
/// written with the row — the per-request samples, and the goodput against the plan in
/// force — so no page view reads the raw file again.
pub async fn prepare(
    services: &Services,
    pilot_id: i64,
    mut import: Import,
    recorded: RecordedRunContext,
) -> Result<(serde_json::Value, DerivedWrites), ServiceError> {
    let run_context = recorded.context;
    let samples = RequestSamples::of_records(&std::mem::take(&mut import.requests));
    let plan = plan_targets(services, pilot_id).await?;
    let mut derived = DerivedWrites::default();
    if let Some(version) = plan.version.filter(|_| !plan.targets.is_empty()) {
        let goodput = grade_points(&import.points, Some(&samples), &plan.targets);
        derived.rows.push((
            goodput_row(version),
            serde_json::to_vec(&goodput).map_err(internal)?,
        ));
    }
    if !samples.is_empty() {
        derived
            .rows
            .push((REQUEST_SAMPLES.to_string(), samples.encode()));
    }
    let summary = serde_json::to_value(LoadTestSummary {
        import,
        run_context_provenance: recorded.provenance.filter(|_| !run_context.is_empty()),
        run_context: (!run_context.is_empty()).then_some(run_context),
        request_samples: Some(samples.len() as u64),
        request_samples_format: (!samples.is_empty()).then_some(RequestSamples::VERSION),
    })
    .map_err(internal)?;
    Ok((summary, derived))
}

/// Goodput of every point: exact from the samples of the point when there are any, else
/// on the point's reported percentiles.
pub fn grade_points(
    points: &[OperatingPoint],
    samples: Option<&RequestSamples>,
    targets: &[LatencyTarget],
) -> Vec<PointGoodput> {
    let mut by_point: Vec<Vec<RequestSample>> = vec![Vec::new(); points.len()];
    for sample in samples.map(|s| s.samples.as_slice()).unwrap_or_default() {
        if let Some(bucket) = by_point.get_mut(sample.point as usize) {
            bucket.push(*sample);
        }
    }
    points
        .iter()
        .zip(&by_point)
        .map(|(point, samples)| {
            if samples.is_empty() {
                grade_on_percentiles(point, targets)
            } else {
                grade_on_requests(point, samples, targets)
            }
        })
        .collect()
}

pub fn list_row(file: EvidenceFile, summary: &str) -> EvidenceListRow {
    if file.kind == EvidenceKind::LoadTest
        && let Ok(s) = serde_json::from_str::<LoadTestSummary>(summary)
    {
        let tool = match &s.import.tool_version {
            Some(v) => format!("{} {v}", s.import.tool),
            None => s.import.tool.clone(),
        };
        return EvidenceListRow {
            file,
            tool,
            points: s.import.points.len(),
            run_context: s.run_context,
            history: Vec::new(),
        };
    }
    let tool = match file.kind {
        EvidenceKind::VllmStartupLog => "vLLM start-up log".to_string(),
        other => other.as_str().replace('_', " "),
    };
    EvidenceListRow {
        file,
        tool,
        points: 0,
        run_context: None,
        history: Vec::new(),
    }
}

/// Files the evidence page lists at once: a page stays bounded whatever the pilot holds.
pub const EVIDENCE_PER_PAGE: u32 = 50;

/// One page (`asked`, from 1) of the pilot's evidence files, in force or withdrawn, newest
/// first, each with its history (the evidence page's list), and which page it is.
pub async fn evidence_rows(
    services: &Services,
    pilot_id: i64,
    asked: Option<u32>,
) -> Result<(Vec<EvidenceListRow>, crate::paging::ListPage), ServiceError> {
    let total = services.store.evidence_count(pilot_id).await?;
    let page = crate::paging::ListPage::of(asked, EVIDENCE_PER_PAGE, total);
    let files = services
        .store
        .evidence_register_page(pilot_id, page.per_page, page.offset())
        .await?;
    let events = services.store.evidence_events(pilot_id).await?;
    let rows = files
        .into_iter()
        .map(|(file, summary)| {
            let history = crate::evidence_history::service::entry(&file, &events).history;
            EvidenceListRow {
                history,
                ..list_row(file, &summary)
            }
        })
        .collect();
    Ok((rows, page))
}

/// The targets of the approved plan in force, or a note saying why there are none.
pub async fn plan_targets(services: &Services, pilot_id: i64) -> Result<PlanTargets, ServiceError> {
    Ok(match services.store.plan_in_force(pilot_id).await? {
        Some(version) => {
            let targets = latency_targets(&version.content);
            let number = version.number;
            let note = if targets.is_empty() {
                format!(
                    "Plan version {} (approved) has no latency percentile or maximum marks, so nothing is graded.",
                    version.number
                )
            } else {
                format!(
                    "Targets: the latency marks of plan version {} (approved): {}.",
                    version.number,
                    targets
                        .iter()
                        .map(|t| t.label.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            PlanTargets {
                version: Some(number),
                targets,
                note,
            }
        }
        None => PlanTargets {
            version: None,
            targets: Vec::new(),
            note: "No approved plan yet: curves are drawn without targets and nothing is graded."
                .into(),
        },
    })
}

fn stat3(stats: Option<&MetricStats>) -> Stat3 {
    stats
        .map(|s| Stat3 {
            p50: s.p50,
            p95: s.p95,
            p99: s.p99,
        })
        .unwrap_or_default()
}

fn row(evidence: &EvidenceFile, index: usize, point: &OperatingPoint) -> PointRow {
    let tpot = stat3(point.metric(MetricKey::TpotMs));
    let (per_stream, derived) = match point.output_tokens_per_s_per_user {
        Some(v) => (Some(v), false),
        None => (tpot.p50.filter(|t| *t > 0.0).map(|t| 1000.0 / t), true),
    };
    let in_flight = engine::loadtest::in_flight(point);
    PointRow {
        key: format!("{}:{index}", evidence.id),
        evidence_id: evidence.id,
        file_name: evidence.file_name.clone(),
        scenario: if point.scenario.is_empty() {
            "unspecified".into()
        } else {
            point.scenario.clone()
        },
        source: point.source.clone(),
        framework: point
            .settings
            .get("framework")
            .map(|f| super::curves::framework_label(f)),
        concurrency: in_flight.map(|f| f.requests),
        concurrency_basis: in_flight.map(|f| f.basis).unwrap_or_default(),
        request_rate: point.request_rate,
        completed: point.completed,
        failed: point.failed,
        duration_s: point.duration_s,
        request_throughput: point.request_throughput,
        output_tokens_per_s: point.output_tokens_per_s,
        per_stream_tokens_per_s: per_stream,
        per_stream_derived: derived && per_stream.is_some(),
        ttft: stat3(point.metric(MetricKey::TtftMs)),
        tpot,
        itl: stat3(point.metric(MetricKey::ItlMs)),
        e2e: stat3(point.metric(MetricKey::E2eMs)),
        goodput: None,
        spread: None,
    }
}

/// The stored goodput rows of the pilot for plan version `version`, by evidence id.
async fn stored_goodput(
    services: &Services,
    pilot_id: i64,
    version: u32,
) -> Result<HashMap<i64, Vec<PointGoodput>>, ServiceError> {
    Ok(services
        .store
        .derived_of_pilot(pilot_id, &goodput_row(version))
        .await?
        .into_iter()
        .filter_map(|(id, data)| Some((id, serde_json::from_slice(&data).ok()?)))
        .collect())
}

/// Grades a file against a plan version it was not graded against yet (the plan was
/// approved or amended after the import): from its stored samples, once, then kept.
async fn grade_later(
    services: &Services,
    file: &EvidenceFile,
    summary: &LoadTestSummary,
    plan: &PlanTargets,
) -> Result<Vec<PointGoodput>, ServiceError> {
    let samples = if summary.request_samples.unwrap_or(0) > 0 {
        match services.store.derived(file.id, REQUEST_SAMPLES).await? {
            Some(data) => Some(RequestSamples::decode(&data).map_err(internal)?),
            None => None,
        }
    } else {
        None
    };
    let goodput = grade_points(&summary.import.points, samples.as_ref(), &plan.targets);
    if let Some(version) = plan.version {
        let data = serde_json::to_vec(&goodput).map_err(internal)?;
        services
            .store
            .put_derived(file.id, &goodput_row(version), &data)
            .await?;
    }
    Ok(goodput)
}

/// Every load-test run of the pilot, newest first, graded against the plan's targets.
///
/// A view reads the evidence rows and, with targets, the goodput stored for the plan
/// version in force: it never opens a raw file, so its cost does not grow with the size of
/// the evidence. Only the first view after a new plan version grades each file once more,
/// from its stored samples.
pub async fn load_runs(
    services: &Services,
    pilot_id: i64,
    plan: &PlanTargets,
) -> Result<Vec<LoadTestRun>, ServiceError> {
    let graded = !plan.targets.is_empty();
    let mut stored = match plan.version {
        Some(version) if graded => stored_goodput(services, pilot_id, version).await?,
        _ => HashMap::new(),
    };
    let identity = services
        .store
        .pilot(pilot_id)
        .await?
        .map(|pilot| crate::traffic::service::identity(&pilot))
        .unwrap_or_default();
    let mut runs = Vec::new();
    for (file, stored_summary) in
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::LoadTest)).await?
    {
        let not_comparable =
            crate::load_tests::check::load_test_check(&identity, &file.file_name, &stored_summary)
                .not_comparable;
        let summary: LoadTestSummary = serde_json::from_str(&stored_summary).map_err(internal)?;
        let goodput = if graded {
            match stored.remove(&file.id) {
                Some(goodput) if goodput.len() == summary.import.points.len() => Some(goodput),
                _ => Some(grade_later(services, &file, &summary, plan).await?),
            }
        } else {
            None
        };
        let per_request = summary.request_samples.unwrap_or(0) > 0;
        let import = summary.import;
        let mut points: Vec<PointRow> = import
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| row(&file, i, p))
            .collect();
        if let Some(goodput) = goodput {
            for (point, graded) in points.iter_mut().zip(goodput) {
                point.goodput = Some(graded);
            }
        }
        annotate_spread(&mut points);
        runs.push(LoadTestRun {
            per_request,
            tool: import.tool,
            tool_version: import.tool_version,
            layout: import.layout,
            run_context: summary.run_context,
            warnings: import.warnings,
            points,
            evidence: file,
            not_comparable,
        });
    }
    Ok(runs)
}

/// Load tests stored before samples were taken at import, or whose samples are an older
/// version (version 1: no request starts or token counts, which the capacity twin needs):
/// read each kept raw file once more, store its samples (current version) and record their
/// count and version in the summary, in one write. Runs at start-up; does nothing but one
/// query once every row has its count and every row with samples is at the current
/// version (rows already there are skipped without reading anything).
pub async fn backfill_request_samples(services: &Services) -> Result<usize, ServiceError> {
    let mut filled = 0;
    for (file, stored) in services
        .store
        .evidence_of_kind(EvidenceKind::LoadTest)
        .await?
    {
        let Ok(mut summary) = serde_json::from_str::<LoadTestSummary>(&stored) else {
            continue;
        };
        let upgrade = match summary.request_samples {
            None => false,
            Some(0) => continue,
            Some(_)
                if summary
                    .request_samples_format
                    .is_some_and(|v| v >= RequestSamples::VERSION) =>
            {
                continue;
            }
            Some(_) => true,
        };
        let path = services.blobs.local_path(&file.sha256).await?;
        let name = file.file_name.clone();
        let size = file.size_bytes;
        let samples = tokio::task::spawn_blocking(move || {
            let options = ImportOptions {
                keep_requests: u64::try_from(size).is_ok_and(|s| s <= MAX_SAMPLED_BYTES),
                ..ImportOptions::stats_only()
            };
            std::fs::File::open(&path)
                .ok()
                .and_then(|handle| {
                    engine::ingest::import_reader(&name, std::io::BufReader::new(handle), &options)
                        .ok()
                })
                .map(|import| RequestSamples::of_records(&import.requests))
                .unwrap_or_default()
        })
        .await
        .map_err(internal)?;
        if upgrade && samples.is_empty() {
            // The raw file is gone or no longer reads: keep the older samples as they are.
            tracing::warn!(
                evidence = file.id,
                "older request samples kept: the raw file gives none to re-derive them from"
            );
            continue;
        }
        summary.request_samples = Some(samples.len() as u64);
        summary.request_samples_format = (!samples.is_empty()).then_some(RequestSamples::VERSION);
        let json = serde_json::to_string(&summary).map_err(internal)?;
        let rows = if samples.is_empty() {
            Vec::new()
        } else {
            vec![(REQUEST_SAMPLES.to_string(), samples.encode())]
        };
        services
            .store
            .set_evidence_summary(file.id, &json, &rows)
            .await?;
        filled += 1;
    }
    Ok(filled)
}

/// Sets each point's TTFT spread state, per scenario in ascending concurrency.
fn annotate_spread(points: &mut [PointRow]) {
    let mut by_scenario: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in points.iter().enumerate() {
        if p.concurrency.is_some()
            && p.ttft.p50.is_some()
            && p.ttft.p95.is_some()
            && p.ttft.p99.is_some()
        {
            by_scenario.entry(p.scenario.clone()).or_default().push(i);
        }
    }
    for (_, mut indices) in by_scenario {
        indices.sort_by(|a, b| {
            points[*a]
                .concurrency
                .unwrap_or(0.0)
                .total_cmp(&points[*b].concurrency.unwrap_or(0.0))
        });
        let series: Vec<(f64, f64, f64)> = indices
            .iter()
            .map(|&i| {
                let t = points[i].ttft;
                (
                    t.p50.unwrap_or(0.0),
                    t.p95.unwrap_or(0.0),
                    t.p99.unwrap_or(0.0),
                )
            })
            .collect();
        for (state, &i) in classify_spread(&series).into_iter().zip(&indices) {
            points[i].spread = Some(state);
        }
    }
}

/// Capacity per scenario over every run.
pub fn capacity(runs: &[LoadTestRun]) -> Vec<Capacity> {
    let triples: Vec<(String, f64, Option<bool>)> = runs
        .iter()
        .flat_map(|r| r.points.iter())
        .filter_map(|p| {
            Some((
                p.scenario.clone(),
                p.concurrency?,
                p.goodput.as_ref().and_then(|g| g.all_met),
            ))
        })
        .collect();
    let mut capacity = capacity_by_scenario(&triples);
    for row in &mut capacity {
        row.requests_per_s = row.concurrency.and_then(|c| {
            runs.iter()
                .flat_map(|r| r.points.iter())
                .find(|p| p.scenario == row.scenario && p.concurrency == Some(c))
                .and_then(|p| p.request_throughput)
        });
    }
    capacity
}

/// What each chart draws.
/// Each text is `(English, German)`.
struct Figure {
    id: &'static str,
    title: (&'static str, &'static str),
    unit: (&'static str, &'static str),
    footnote: (&'static str, &'static str),
    metric: Option<MetricKey>,
    higher_is_better: bool,
    value: fn(&PointRow, Statistic) -> Option<f64>,
}

fn figures() -> Vec<Figure> {
    vec![
        Figure {
            id: "ttft",
            title: ("TTFT", "TTFT"),
            unit: ("ms", "ms"),
            footnote: (
                "TTFT: request sent → first content token. Measured at the client (the load generator), per request; percentile over requests.",
                "TTFT: Anfrage gesendet → erstes Inhalts-Token. Gemessen am Client (dem Lastgenerator), je Anfrage; Perzentil über die Anfragen.",
            ),
            metric: Some(MetricKey::TtftMs),
            higher_is_better: false,
            value: |p, pc| p.ttft.get(pc),
        },
        Figure {
            id: "tpot",
            title: ("TPOT", "TPOT"),
            unit: ("ms", "ms"),
            footnote: (
                "TPOT: (E2E − TTFT) ÷ (output tokens − 1), one value per request. Measured at the client (the load generator); percentile over requests.",
                "TPOT: (E2E − TTFT) ÷ (Ausgabe-Token − 1), ein Wert je Anfrage. Gemessen am Client (dem Lastgenerator); Perzentil über die Anfragen.",
            ),
            metric: Some(MetricKey::TpotMs),
            higher_is_better: false,
            value: |p, pc| p.tpot.get(pc),
        },
        Figure {
            id: "itl",
            title: ("ITL", "ITL"),
            unit: ("ms", "ms"),
            footnote: (
                "ITL: every gap between consecutive streamed chunks, pooled over requests. Measured at the client (the load generator).",
                "ITL: jede Lücke zwischen aufeinanderfolgenden gestreamten Blöcken, über alle Anfragen gepoolt. Gemessen am Client (dem Lastgenerator).",
            ),
            metric: Some(MetricKey::ItlMs),
            higher_is_better: false,
            value: |p, pc| p.itl.get(pc),
        },
        Figure {
            id: "e2e",
            title: ("E2E latency", "E2E-Latenz"),
            unit: ("ms", "ms"),
            footnote: (
                "E2E: request sent → last token received. Measured at the client (the load generator), per request; percentile over requests.",
                "E2E: Anfrage gesendet → letztes Token empfangen. Gemessen am Client (dem Lastgenerator), je Anfrage; Perzentil über die Anfragen.",
            ),
            metric: Some(MetricKey::E2eMs),
            higher_is_better: false,
            value: |p, pc| p.e2e.get(pc),
        },
        Figure {
            id: "per-stream",
            title: ("Output tokens/s per stream", "Ausgabe-Token/s je Stream"),
            unit: ("tokens/s", "Token/s"),
            footnote: (
                "Per stream: one user's decode speed — the file's mean per-user figure, else 1000 ÷ TPOT p50. Measured at the client (the load generator).",
                "Je Stream: die Decode-Geschwindigkeit eines Nutzers — der mittlere Wert je Nutzer aus der Datei, sonst 1000 ÷ TPOT p50. Gemessen am Client (dem Lastgenerator).",
            ),
            metric: None,
            higher_is_better: true,
            value: |p, _| p.per_stream_tokens_per_s,
        },
        Figure {
            id: "aggregate",
            title: ("Output tokens/s, aggregate", "Ausgabe-Token/s, gesamt"),
            unit: ("tokens/s", "Token/s"),
            footnote: (
                "Aggregate: output tokens of successful requests ÷ run duration, all streams together. Measured at the client (the load generator).",
                "Gesamt: Ausgabe-Token erfolgreicher Anfragen ÷ Laufdauer, alle Streams zusammen. Gemessen am Client (dem Lastgenerator).",
            ),
            metric: None,
            higher_is_better: true,
            value: |p, _| p.output_tokens_per_s,
        },
    ]
}

/// The curves of `runs` (solid) and a comparison's `baseline` (dashed): one line per serving
/// configuration and scenario, however many files it came in (see [`super::curves`]); in a
/// comparison each picked run is a line of its own. Each chart shows the plan's marks on its
/// own metric: those at its percentile as targets, the others for reference.
pub fn charts(
    runs: &[LoadTestRun],
    baseline: &[LoadTestRun],
    plan: &PlanTargets,
    percentile: Statistic,
    axis: CurveAxis,
    lang: Lang,
) -> Vec<Chart> {
    let lines = super::curves::lines(runs, baseline, !baseline.is_empty(), lang);
    let word = |pair: (&'static str, &'static str)| lang.pick(pair.0, pair.1);
    let mut out = Vec::new();
    for figure in figures() {
        let series: Vec<CurveSeries> = lines
            .iter()
            .map(|line| CurveSeries {
                name: line.name.clone(),
                points: line
                    .points
                    .iter()
                    .filter_map(|p| Some((axis.of(p)?, (figure.value)(p, percentile)?)))
                    .collect(),
                dashed: line.baseline,
                colour: line.colour,
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        if series.is_empty() {
            continue;
        }
        // Every mark on the chart's metric: graded here when at its percentile, else drawn for
        // reference (a p95 curve above a p99 mark already misses it) and said so.
        let thresholds = match figure.metric {
            Some(metric) => plan
                .targets
                .iter()
                .filter(|t| t.metric == metric)
                .map(|t| Threshold {
                    reference: t.statistic != percentile,
                    label: if t.statistic == percentile {
                        format!("{} {}", word(("target", "Ziel")), t.label_in(lang))
                    } else {
                        let reference = ("for reference, target", "zum Vergleich, Ziel");
                        format!("{} {}", word(reference), t.label_in(lang))
                    },
                    value: t.limit_ms,
                })
                .collect(),
            None => Vec::new(),
        };
        let versus = match axis {
            CurveAxis::Concurrency => word((" vs concurrency", " über der Parallelität")),
            CurveAxis::Rate => word((" vs request rate", " über der Anfragerate")),
        };
        let title = match figure.metric {
            Some(_) => format!("{} {percentile}{versus}", word(figure.title)),
            None => format!("{}{versus}", word(figure.title)),
        };
        let chart = CurveChart {
            title: title.clone(),
            y_unit: word(figure.unit).into(),
            x_label: match axis {
                CurveAxis::Concurrency => word((
                    "concurrency (requests in flight)",
                    "Parallelität (laufende Anfragen)",
                )),
                CurveAxis::Rate => word((
                    "request rate (completed requests/s)",
                    "Anfragerate (abgeschlossene Anfragen/s)",
                )),
            }
            .into(),
            footnote: word(figure.footnote).into(),
            series,
            thresholds,
            lang,
        };
        match load_curve_chart(&chart) {
            Ok(svg) => out.push(Chart {
                id: figure.id.into(),
                title,
                svg,
            }),
            Err(error) => tracing::error!(%error, "load curve not drawn"),
        }
    }
    out
}

/// Picks runs by token: `12` is evidence 12 whole, `12:3` its point 3 alone.
fn pick(all: &[LoadTestRun], token: &str) -> Result<LoadTestRun, ServiceError> {
    let token = token.trim();
    let (id, point) = match token.split_once(':') {
        Some((id, p)) => (id, Some(p)),
        None => (token, None),
    };
    let id: i64 = id.parse().map_err(|_| {
        ServiceError::invalid_in(
            format!("runs: `{token}` is not an evidence number"),
            format!("runs: `{token}` ist keine Nachweisnummer"),
        )
    })?;
    let run = all.iter().find(|r| r.evidence.id == id).ok_or_else(|| {
        ServiceError::invalid_in(
            format!("runs: no load test #{id} on this pilot"),
            format!("runs: kein Lasttest #{id} auf diesem Piloten"),
        )
    })?;
    let mut run = run.clone();
    if let Some(p) = point {
        let key = format!("{id}:{p}");
        run.points.retain(|row| row.key == key);
        if run.points.is_empty() {
            return Err(ServiceError::invalid_in(
                format!("runs: no operating point {key}"),
                format!("runs: kein Betriebspunkt {key}"),
            ));
        }
    }
    Ok(run)
}

fn label(run: &LoadTestRun) -> String {
    match run.points.as_slice() {
        [one] if run.points.len() == 1 => format!(
            "#{} {} · {} at concurrency {}",
            run.evidence.id,
            run.evidence.file_name,
            super::curves::scenario_label(&one.scenario),
            one.concurrency
                .map(|c| format!("{c}"))
                .unwrap_or_else(|| "–".into())
        ),
        _ => format!("#{} {}", run.evidence.id, run.evidence.file_name),
    }
}

fn pct(baseline: Option<f64>, value: Option<f64>) -> Option<f64> {
    match (baseline, value) {
        (Some(b), Some(v)) if b != 0.0 => Some((v - b) / b * 100.0),
        _ => None,
    }
}

/// Rows comparing `run` with `baseline`: points matched by scenario and concurrency (a
/// single point on either side matches the other side's single point).
fn compare_rows(
    baseline: &LoadTestRun,
    run: &LoadTestRun,
    percentile: Statistic,
) -> Vec<CompareRow> {
    let mut rows = Vec::new();
    let single = baseline.points.len() == 1 && run.points.len() == 1;
    for p in &run.points {
        let b = if single {
            baseline.points.first()
        } else {
            baseline
                .points
                .iter()
                .find(|b| b.scenario == p.scenario && b.concurrency == p.concurrency)
        };
        let Some(b) = b else { continue };
        for figure in figures() {
            let (bv, v) = ((figure.value)(b, percentile), (figure.value)(p, percentile));
            if bv.is_none() && v.is_none() {
                continue;
            }
            rows.push(CompareRow {
                scenario: super::curves::scenario_label(&p.scenario),
                concurrency: p.concurrency,
                figure: match figure.metric {
                    Some(_) => format!("{} {percentile}", figure.title.0),
                    None => figure.title.0.to_string(),
                },
                unit: figure.unit.0.into(),
                baseline: bv,
                value: v,
                difference_pct: pct(bv, v),
                higher_is_better: figure.higher_is_better,
            });
        }
    }
    rows
}

pub fn compare(
    all: &[LoadTestRun],
    baseline: &str,
    runs: &str,
    plan: &PlanTargets,
    percentile: Statistic,
) -> Result<Comparison, ServiceError> {
    if baseline.trim().is_empty() {
        return Err(ServiceError::invalid_in(
            "baseline: choose the run to compare against",
            "baseline: Wählen Sie den Lauf, mit dem verglichen wird",
        ));
    }
    let base = pick(all, baseline).map_err(|e| match e.plain() {
        ServiceError::Invalid(_) => {
            let said = e.said();
            let en = said.en.replacen("runs:", "baseline:", 1);
            match said.de {
                Some(de) => ServiceError::invalid_in(en, de.replacen("runs:", "baseline:", 1)),
                None => ServiceError::Invalid(en),
            }
        }
        _ => e,
    })?;
    let picked: Vec<LoadTestRun> = runs
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| pick(all, t))
        .collect::<Result<_, _>>()?;
    if picked.is_empty() {
        return Err(ServiceError::invalid_in(
            "runs: choose at least one run to compare",
            "runs: Wählen Sie mindestens einen Lauf zum Vergleich",
        ));
    }
    let blocks = picked
        .iter()
        .map(|r| (label(r), compare_rows(&base, r, percentile)))
        .collect();
    Ok(Comparison {
        baseline_label: label(&base),
        runs: blocks,
        charts: charts(
            &picked,
            std::slice::from_ref(&base),
            plan,
            percentile,
            CurveAxis::chosen("", &picked),
            Lang::En,
        ),
        percentile: percentile.as_str().to_string(),
    })
}
