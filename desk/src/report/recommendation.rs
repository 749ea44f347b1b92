//! The report's production recommendation: the pilot's measured demand scaled to production,
//! the precisions that passed the quality gate and the plan's latency limits, through
//! [`engine::production::recommend_production`].
//!
//! Inputs and their defaults, and why:
//! * **Scale**: production users ÷ pilot users from the plan, else the plan's production
//!   arrival rate. Without either there is nothing to scale, and the section says so.
//! * **Context per session**: whole sessions, the longest prompt + answer in the gateway log or
//!   the plan's context per request, whichever is larger. It is also vLLM's `--max-model-len`,
//!   and vLLM refuses longer requests, so sizing at the p95 would turn the longest 5 % away; the
//!   section says how many requests the p95 leaves out.
//! * **Precisions**: the (weights, KV cache) pairs whose evaluation run passed; without a
//!   decision, the pilot's serving precision, flagged.
//! * **Speed**: each candidate's ceiling × the efficiency the pilot's own load tests measured
//!   (comparable runs only, [`engine::production::calibrate`]); without a load test, the
//!   ceiling alone, marked *not established*.
//! * **Peak ÷ mean**: the pilot's peak in flight ÷ its busiest-hour mean in flight, so production
//!   is sized for its peak, not its average (Little's law gives the mean).
//! * **Candidates**: every catalog GPU, up to 8 cards, the planning memory model of the guide;
//!   the pilot's own configuration is always listed (with its rank), since it is the one the
//!   capacity twin predicts for.
//! * **Prices** only in the internal edition ([`Edition::Internal`], staff): unit prices give
//!   each configuration's cost, prices per GPU-hour the cost per 1M tokens at the operating
//!   point the twin predicts. The customer edition passes no price to the engine at all.

use super::Edition;
use super::blocks::{Cell, Fact, Table};
use super::locale::Lang;
use crate::ServiceError;
use crate::Services;
use crate::model::{Pilot, SizingCatalog};
use crate::pilot_evidence::PilotEvidence;
use engine::demand::{ContextBasis, DemandScaling, production_demand_for};
use engine::production::{
    GpuHourPrice, MeasuredConfiguration, MeasuredPoint, PilotTwin, PredictedCompliance,
    ProductionInput, ProductionRecommendation, ProductionTargets, calibrate, recommend_production,
};
use engine::sizing::decode::SpeedBasis;
use engine::sizing::{GpuOffer, MemoryModel};

/// The production recommendation section (filled from `engine::production`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RecommendationSection {
    /// One sentence: the chosen configuration, or why there is none.
    pub headline: String,
    pub ranked: Table,
    pub arithmetic: Table,
    pub commands: Vec<Fact>,
    pub notes: Vec<String>,
    /// The context per session and what the measured distribution says about it.
    pub context_note: String,
    /// How per-stream speed was reached (Estimated from the pilot's load test, or ceiling only).
    pub speed_note: String,
    /// What must happen before go-live (re-run the load test on the production stack, with the
    /// command).
    pub caveats: Vec<String>,
    /// The capacity twin's predicted compliance per mark, for candidates it applies to.
    pub compliance: Table,
    /// Internal edition only (empty otherwise): the listed configurations' costs.
    pub costs: Table,
    /// Which candidates the twin speaks for, and its back-tested error.
    pub twin_note: String,
}

/// Most cards a recommended configuration may use.
pub const MAX_CARDS: u32 = 8;

/// The recommendation for `pilot`, or why there is none (in plain words); with prices only in
/// the internal edition.
pub async fn production(
    services: &Services,
    catalog: &SizingCatalog,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    edition: Edition,
) -> Result<Result<ProductionRecommendation, String>, ServiceError> {
    let Some(plan) = &evidence.plan else {
        return Ok(Err("The plan is not approved yet: the recommendation needs its demand assumptions and latency limits.".into()));
    };
    let Some((profile, _)) = &evidence.profile else {
        return Ok(Err(
            "No gateway log yet: production demand is scaled from the pilot's measured traffic."
                .into(),
        ));
    };
    let demand = &plan.content.demand;
    let scaling = match (
        demand.pilot_users,
        demand.production_users,
        demand.peak_arrival_rate_req_s,
    ) {
        (Some(pilot_users), Some(production_users), _) => DemandScaling::UserRatio {
            pilot_users,
            production_users,
        },
        (_, _, Some(rate)) => DemandScaling::EnteredRate {
            arrival_rate_per_s: rate,
        },
        _ => {
            return Ok(Err("The plan states neither pilot and production users nor a production arrival rate, so there is nothing to scale the pilot's demand by.".into()));
        }
    };
    let production = match production_demand_for(
        profile,
        scaling,
        ContextBasis::WholeSession,
        demand.context_tokens_per_request,
    ) {
        Ok(p) => p,
        Err(e) => return Ok(Err(format!("Production demand: {e}."))),
    };
    let wanted = crate::catalog::guess_model_id(&pilot.model);
    let Some(model) = catalog
        .models
        .iter()
        .find(|m| Some(&m.spec.id) == wanted.as_ref() || m.spec.id == pilot.model.trim())
        .map(|m| m.spec.clone())
    else {
        return Ok(Err(format!(
            "The model “{}” is not in the sizing catalog: add its config.json on the sizing page.",
            pilot.model
        )));
    };
    // The pairs that passed together; a pair whose names are not recognised is not sized.
    let passing_combinations = evidence
        .decision
        .as_ref()
        .map(|d| {
            d.passing_combinations
                .iter()
                .filter_map(|pair| Some((pair.weights_precision?, pair.kv_dtype?)))
                .collect()
        })
        .unwrap_or_default();
    let serving_precision =
        engine::production::precision::parse_precision_name(&plan.content.serving.precision);
    let points: Vec<MeasuredPoint> = evidence
        .comparable_runs()
        .into_iter()
        .flat_map(|run| {
            let context = run.run_context.clone().unwrap_or_default();
            let gpu = context
                .gpu
                .clone()
                .filter(|g| !g.trim().is_empty())
                .unwrap_or_else(|| pilot.gpu_type.clone());
            run.points.iter().map(move |p| MeasuredPoint {
                file: format!("{}, {}", run.tool, run.evidence.file_name),
                scenario: p.scenario.clone(),
                concurrency: p.concurrency,
                tpot_p50_ms: p.tpot.p50,
                per_stream_tokens_per_s: p.per_stream_tokens_per_s,
                gpu: gpu.clone(),
                gpu_count: context.gpu_count,
                tensor_parallel: context.tensor_parallel,
                pipeline_parallel: context.pipeline_parallel,
                precision: context.precision.clone().unwrap_or_default(),
            })
        })
        .collect();
    let gpus: Vec<engine::sizing::GpuSpec> = catalog.gpus.iter().map(|g| g.spec.clone()).collect();
    let calibration = calibrate(&model, &gpus, serving_precision, &points);
    let peak_to_mean = (profile.mean_in_flight_busiest_hour > 0.0
        && profile.peak_in_flight as f64 > profile.mean_in_flight_busiest_hour)
        .then(|| profile.peak_in_flight as f64 / profile.mean_in_flight_busiest_hour);
    let twin = pilot_twin(services, pilot, &calibration.speed, &plan.content).await;
    let input = ProductionInput {
        demand: production,
        model,
        passing_combinations,
        passing_precisions: Vec::new(),
        kv_dtypes: Vec::new(),
        speed: calibration.speed,
        allow_emulated: false,
        gpus: catalog
            .gpus
            .iter()
            // Unit prices are staff-only: the customer edition ranks and shows configurations
            // without cost.
            .map(|g| GpuOffer {
                gpu: g.spec.clone(),
                unit_price: g.unit_price.filter(|_| edition.priced()),
            })
            .collect(),
        max_cards: MAX_CARDS,
        memory_model: MemoryModel::Planning,
        targets: ProductionTargets::from_plan(&plan.content),
        pilot_serving: Some(plan.content.serving.clone()),
        peak_to_mean,
        top: engine::production::DEFAULT_TOP,
        allow_pipeline: true,
        gpu_memory_utilization: None,
        vllm_version: None,
        max_num_batched_tokens: None,
        load_test: Default::default(),
        twin,
        // Staff-only, like the unit prices.
        gpu_hour_prices: catalog
            .gpus
            .iter()
            .filter(|_| edition.priced())
            .filter_map(|g| {
                Some(GpuHourPrice {
                    gpu_id: g.spec.id.clone(),
                    price_per_gpu_hour: g.hour_price?,
                    currency: catalog.currency.clone(),
                })
            })
            .collect(),
    };
    // Off the async runtime: the twin's compliance check simulates the production traffic.
    let mut rec = tokio::task::spawn_blocking(move || recommend_production(&input))
        .await
        .map_err(|error| {
            tracing::error!(%error, "the production recommendation failed");
            ServiceError::Internal
        })?;
    rec.warnings.extend(calibration.notes);
    Ok(Ok(rec))
}

/// The pilot's twin and its measured configuration, when the twin can be checked against
/// candidates: one configuration was load-tested and placed in the catalog by the calibration
/// (the same GPU, split and precision the candidates are described by), and it fits. Anything
/// else: no twin, and every candidate stays as the sizing engine ranked it.
async fn pilot_twin(
    services: &Services,
    pilot: &Pilot,
    speed: &engine::sizing::decode::SpeedCalibration,
    plan: &engine::plan::PlanContent,
) -> Option<PilotTwin> {
    let mut configurations: Vec<MeasuredConfiguration> = Vec::new();
    for f in &speed.factors {
        let c = MeasuredConfiguration {
            gpu_id: f.gpu_id.clone(),
            tp: f.tp,
            pp: f.pp,
            precision: f.precision,
        };
        if !configurations.contains(&c) {
            configurations.push(c);
        }
    }
    let [configuration] = <[MeasuredConfiguration; 1]>::try_from(configurations).ok()?;
    // From the twin cache: the report's twin section asked for the same fit.
    let fit = crate::predict::service::pilot_twin(services, pilot.id, None)
        .await
        .ok()?;
    Some(PilotTwin {
        configuration,
        twin: fit.twin.as_ref().clone(),
        marks: engine::loadtest::latency_targets(plan),
    })
}

fn cell(text: impl Into<String>, numeric: bool) -> Cell {
    Cell {
        text: text.into(),
        numeric,
    }
}

/// The report section of `pilot`'s recommendation.
pub async fn section(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    lang: Lang,
    edition: Edition,
) -> Result<RecommendationSection, ServiceError> {
    let catalog = crate::catalog::service::effective_catalog(&services.store).await?;
    Ok(
        match production(services, &catalog, pilot, evidence, edition).await? {
            Ok(rec) => render(&rec, lang, edition, catalog.currency.as_deref()),
            Err(why) => RecommendationSection {
                headline: format!("{}: {why}", lang.labels().no_recommendation),
                ..RecommendationSection::default()
            },
        },
    )
}

fn render(
    rec: &ProductionRecommendation,
    lang: Lang,
    edition: Edition,
    currency: Option<&str>,
) -> RecommendationSection {
    let t = lang.labels();
    let ranked = Table {
        caption: format!(
            "{} ({} of {} sized configurations feasible)",
            t.configuration,
            lang.number(rec.feasible_count as f64, 0),
            lang.number(rec.configurations_sized as f64, 0)
        ),
        headers: vec![
            cell("#", true),
            cell("GPU", false),
            cell(t.precision, false),
            cell("KV", false),
            cell(t.configuration, false),
            cell(t.cards, true),
            cell("Sessions", true),
            cell("Headroom ×", true),
            cell("Expected tok/s per stream", true),
            cell("Decode ceiling, tok/s (upper bound)", true),
            cell(
                "Plan's latency marks at the production rate (capacity twin)",
                false,
            ),
        ],
        rows: rec
            .options
            .iter()
            .map(|o| {
                vec![
                    cell(
                        if o.pilot_configuration {
                            format!("{} · {}", o.rank, t.pilot_configuration)
                        } else {
                            o.rank.to_string()
                        },
                        true,
                    ),
                    cell(o.gpu_name.clone(), false),
                    cell(o.precision.label(), false),
                    cell(o.kv_dtype.label(), false),
                    cell(o.topology_label.clone(), false),
                    cell(o.cards.to_string(), true),
                    cell(lang.number(o.sessions as f64, 0), true),
                    cell(format!("{}×", lang.number(o.headroom, 2)), true),
                    cell(
                        match o.speed_basis {
                            SpeedBasis::CeilingOnly => "not established: ceiling only".to_string(),
                            SpeedBasis::Measured => format!(
                                "{} (Estimated, measured here)",
                                lang.figure(o.expected_tokens_per_s)
                            ),
                            SpeedBasis::Transferred => {
                                format!("{} (Estimated)", lang.figure(o.expected_tokens_per_s))
                            }
                        },
                        true,
                    ),
                    cell(lang.figure(o.decode_tokens_per_s), true),
                    cell(
                        match o.predicted.as_ref().map(|p| p.holds) {
                            None => "not predicted: hardware the twin never measured".to_string(),
                            Some(Some(true)) => "predicted to hold".to_string(),
                            Some(Some(false)) => "predicted to miss".to_string(),
                            Some(None) => "no mark the twin predicts".to_string(),
                        },
                        false,
                    ),
                ]
            })
            .collect(),
    };
    let arithmetic = Table {
        caption: t.arithmetic.into(),
        headers: vec![
            cell("Step", false),
            cell("Working", false),
            cell(t.value, true),
            cell("Source", false),
        ],
        rows: rec
            .arithmetic
            .iter()
            .map(|line| {
                vec![
                    cell(line.label.clone(), false),
                    cell(line.formula.clone(), false),
                    cell(
                        format!("{} {}", lang.figure(line.value), line.unit)
                            .trim()
                            .to_string(),
                        true,
                    ),
                    cell(line.source.label(), false),
                ]
            })
            .collect(),
    };
    let mut commands = Vec::new();
    let mut notes: Vec<String> = rec.warnings.clone();
    if edition.priced() {
        notes.extend(rec.options.iter().filter_map(|o| {
            let c = o.operating_cost.as_ref()?;
            Some(format!(
                "Cost per 1M tokens of #{} {} ({}), {} at the production rate: output {}; input {}. Each side charges the whole GPU-hour, so the two are not to be added; the throughput carries the capacity twin's error.",
                o.rank, o.gpu_name, o.topology_label, c.basis, c.output_working, c.input_working
            ))
        }));
    }
    notes.extend(rec.infeasible.iter().map(|r| {
        format!(
            "{} configurations fail on {}: e.g. {}",
            lang.number(r.configurations as f64, 0),
            r.kind,
            r.example
        )
    }));
    if let Some(next) = &rec.next_load_test {
        for point in &next.points {
            commands.push(Fact {
                label: format!(
                    "vllm bench serve — concurrency {} ({} % of the peak)",
                    point.concurrency,
                    lang.number(point.share_of_peak * 100.0, 0)
                ),
                value: point.vllm_bench.line.clone(),
                note: String::new(),
            });
        }
        if let Some(point) = next
            .points
            .iter()
            .find(|p| (p.share_of_peak - 1.0).abs() < 1e-9)
        {
            commands.push(Fact {
                label: format!("aiperf profile — concurrency {}", point.concurrency),
                value: point.aiperf.line.clone(),
                note: String::new(),
            });
        }
        notes.extend(next.notes.iter().cloned());
    }
    let context_note = rec
        .context
        .as_ref()
        .map(|m| {
            format!(
                "Context per session: {} tokens, whole sessions (also vLLM's --max-model-len); measured {}.",
                lang.number(rec.demand.context_tokens as f64, 0),
                m.tail_sentence()
            )
        })
        .unwrap_or_default();
    let speed_note = match rec.speed.factors.first() {
        Some(_) => format!(
            "Expected speed per stream = decode ceiling (an upper bound) × the efficiency measured in the pilot's load test: {}. Labelled Estimated; the load test on the candidate replaces it.",
            rec.speed
                .factors
                .iter()
                .map(|f| format!(
                    "{} measured {} tok/s ÷ ceiling {} tok/s = {} ({})",
                    f.configuration(),
                    lang.figure(f.measured_tokens_per_s),
                    lang.figure(f.ceiling_tokens_per_s),
                    lang.number(f.factor, 3),
                    f.source
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        None => "Per-stream speed: not established, ceiling only. No load test of the pilot calibrates the decode ceilings, which are upper bounds no system reaches.".to_string(),
    };
    let (compliance, twin_note) = compliance(rec, lang);
    RecommendationSection {
        costs: if edition.priced() {
            costs(rec, lang, currency)
        } else {
            Table::default()
        },
        compliance,
        twin_note,
        headline: rec.summary.clone(),
        ranked,
        arithmetic,
        commands,
        notes,
        context_note,
        speed_note,
        caveats: rec.caveats.clone(),
    }
}

/// The internal edition's costs of the listed configurations: cards × unit price, and per 1M
/// output and input tokens at the production rate where the twin predicts the operating point
/// (the working is in the notes). Without a price or a prediction, it says which is missing.
/// The money columns name the prices' currency when one is set.
fn costs(rec: &ProductionRecommendation, lang: Lang, currency: Option<&str>) -> Table {
    let t = lang.labels();
    let money = |label: &str| crate::model::with_currency(label, currency);
    let per_million = |value: Option<f64>, predicted: bool| match value {
        Some(v) => lang.number(v, 2),
        None if predicted => t.cost_not_priced.to_string(),
        None => t.cost_no_prediction.to_string(),
    };
    Table {
        caption: t.costs_caption.into(),
        headers: vec![
            cell("#", true),
            cell(t.configuration, false),
            cell(t.cards, true),
            cell(money(t.cost_cards), true),
            cell(money(t.cost_per_million_output), true),
            cell(money(t.cost_per_million_input), true),
        ],
        rows: rec
            .options
            .iter()
            .map(|o| {
                let predicted = o.predicted.is_some();
                let cost = o.operating_cost.as_ref();
                vec![
                    cell(o.rank.to_string(), true),
                    cell(
                        format!(
                            "{} · {} · {} / {}",
                            o.gpu_name,
                            o.topology_label,
                            o.precision.label(),
                            o.kv_dtype.label()
                        ),
                        false,
                    ),
                    cell(o.cards.to_string(), true),
                    cell(
                        o.cost
                            .map(|c| lang.number(c, 0))
                            .unwrap_or_else(|| t.cost_not_priced.to_string()),
                        true,
                    ),
                    cell(
                        per_million(cost.map(|c| c.per_million_output_tokens), predicted),
                        true,
                    ),
                    cell(
                        per_million(cost.map(|c| c.per_million_input_tokens), predicted),
                        true,
                    ),
                ]
            })
            .collect(),
    }
}

/// The predicted compliance of the candidates the twin applies to: per mark, the predicted
/// value (ms, its percentile in the mark, its basis) and whether it holds; and the sentence
/// that says which candidates the twin cannot speak for.
fn compliance(rec: &ProductionRecommendation, lang: Lang) -> (Table, String) {
    let predicted: Vec<(&engine::production::ProductionOption, &PredictedCompliance)> = rec
        .options
        .iter()
        .filter_map(|o| o.predicted.as_ref().map(|p| (o, p)))
        .collect();
    let Some(measured) = &rec.twin_configuration else {
        return (Table::default(), String::new());
    };
    let measured = format!(
        "{} {} ({} weights)",
        measured.gpu_id,
        engine::sizing::Topology::new(measured.tp, measured.pp, 1).label(),
        measured.precision.label()
    );
    let Some((_, first)) = predicted.first() else {
        return (
            Table::default(),
            format!(
                "The capacity twin is fitted on the pilot's own load tests ({measured}), and none of the listed candidates is that configuration: it cannot speak for hardware it never measured, so no candidate here carries a predicted compliance."
            ),
        );
    };
    let rows = predicted
        .iter()
        .flat_map(|(o, p)| {
            p.marks.iter().map(move |m| {
                vec![
                    cell(
                        format!("#{} {} · {}", o.rank, o.gpu_name, o.topology_label),
                        false,
                    ),
                    cell(
                        format!(
                            "{} req/s ÷ {} = {} req/s",
                            lang.figure(p.rate_per_s),
                            p.copies,
                            lang.figure(p.rate_per_copy_per_s)
                        ),
                        true,
                    ),
                    cell(m.mark.clone(), false),
                    cell(
                        match (m.predicted_ms, m.basis) {
                            (Some(v), Some(b)) => format!("{} ms ({})", lang.figure(v), b.label()),
                            _ => "—".into(),
                        },
                        true,
                    ),
                    cell(
                        match m.holds {
                            Some(true) => "pass".to_string(),
                            Some(false) => "miss".to_string(),
                            None => {
                                format!("not predicted: {}", m.note.clone().unwrap_or_default())
                            }
                        },
                        false,
                    ),
                ]
            })
        })
        .collect();
    let table = Table {
        caption: "Predicted compliance at the production arrival rate (capacity twin, Poisson arrivals, the rate shared by the copies)".into(),
        headers: vec![
            cell("Configuration", false),
            cell("Rate per copy", true),
            cell("Pass mark", false),
            cell("Predicted", true),
            cell("Predicted outcome", false),
        ],
        rows,
    };
    let error = match (first.backtest_median_pct, first.backtest_worst_pct) {
        (Some(median), Some(worst)) => format!(
            " Its back-test: median error {} %, worst {} %.",
            lang.number(median, 1),
            lang.number(worst, 1)
        ),
        _ => " It states no back-tested error.".into(),
    };
    let note = format!(
        "The capacity twin is fitted on the pilot's own load tests ({measured}), so it predicts only for candidates of that configuration; it cannot speak for hardware it never measured, and those candidates keep the sizing engine's order. A candidate predicted to miss a mark ranks below those not predicted to miss.{error}"
    );
    (table, note)
}
