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
//! * **Candidates**: every catalog GPU (with this installation's prices), up to 8 cards, the
//!   planning memory model of the guide.

use super::locale::Lang;
use super::model::{Cell, Fact, RecommendationSection, Table};
use crate::api::verdict::ssr::PilotEvidence;
use crate::error::AppError;
use crate::model::Pilot;
use crate::server::Services;
use engine::demand::{ContextBasis, DemandScaling, production_demand_for};
use engine::production::{
    MeasuredPoint, ProductionInput, ProductionRecommendation, ProductionTargets, calibrate,
    recommend_production,
};
use engine::sizing::decode::SpeedBasis;
use engine::sizing::{GpuOffer, MemoryModel};

/// Most cards a recommended configuration may use.
pub const MAX_CARDS: u32 = 8;

/// The recommendation for `pilot`, or why there is none (in plain words).
pub async fn production(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
) -> Result<Result<ProductionRecommendation, String>, AppError> {
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
    let catalog = crate::server::catalog::effective_catalog(&services.store).await?;
    let wanted = crate::pages::sizing::guess_model_id(&pilot.model);
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
            // Unit prices are staff-only and the report is the customer's document: it ranks
            // and shows configurations without cost.
            .map(|g| GpuOffer {
                gpu: g.spec.clone(),
                unit_price: None,
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
    };
    let mut rec = recommend_production(&input);
    rec.warnings.extend(calibration.notes);
    Ok(Ok(rec))
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
) -> Result<RecommendationSection, AppError> {
    Ok(match production(services, pilot, evidence).await? {
        Ok(rec) => render(&rec, lang),
        Err(why) => RecommendationSection {
            headline: format!("{}: {why}", lang.labels().no_recommendation),
            ..RecommendationSection::default()
        },
    })
}

fn render(rec: &ProductionRecommendation, lang: Lang) -> RecommendationSection {
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
        ],
        rows: rec
            .options
            .iter()
            .map(|o| {
                vec![
                    cell(o.rank.to_string(), true),
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
    RecommendationSection {
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
