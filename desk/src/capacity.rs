//! The production recommendation of a pilot: one capacity plan
//! ([`engine::production::plan_capacity`]) built from the pilot's evidence, the same for the
//! report (both editions), the REST API (`GET /api/v1/pilots/{id}/recommendation`) and the
//! command line (`server recommend`).
//!
//! Why one function: the recommendation used to be computed per edition, and with prices set the
//! internal edition named other hardware than the customer's. Here the input is assembled once
//! and is the same for every caller; prices only add each candidate's cost and never reach the
//! ranking, so every edition, the API and the CLI name the same configuration.
//!
//! Inputs and their defaults, and why:
//! * **Demand**: the pilot's busiest hour grown by the plan (production users ÷ pilot users, else
//!   the plan's production arrival rate ÷ the pilot's), **replayed**: the hour's successful
//!   requests read again from the kept gateway logs, superposed and thinned to the growth, each
//!   with its own lengths and measured duration ([`engine::production::DemandProcess::replayed`]).
//!   When the logs cannot be read again, Poisson arrivals at the profile's rate with its length
//!   distributions ([`engine::production::DemandProcess::from_profile`]). Without a gateway log
//!   there is no demand to grow, and the recommendation says so.
//! * **Context per session**: whole sessions, the longest measured request or the plan's context
//!   per request, whichever is larger (it is also vLLM's `--max-model-len`).
//! * **Formats**: the (weights, KV cache) pairs whose evaluation run passed; without a decision,
//!   the plan's serving precision with a 16-bit KV cache, flagged.
//! * **Timing**: the capacity twin fitted on the pilot's load tests, transferred to every
//!   candidate by the physics of the work; without one, the documented prior per GPU family.
//! * **Candidates**: every catalog GPU that can still be ordered (the others are named in the
//!   plan's `left_out`; [`for_pilot_with`] weighs them too), up to [`MAX_CARDS`] cards, the
//!   planning memory model.

mod following;
pub use following::{FOLLOW_EVERY, Following};

use crate::ServiceError;
use crate::Services;
use crate::model::{Pilot, SizingCatalog};
use crate::pilot_evidence::PilotEvidence;
use crate::verdict::RecommendationHeadline;
use crate::verdict::SizingDemand;
use engine::demand::DemandProfile;
use engine::demand::{ContextBasis, DemandScaling, production_demand_for};
use engine::production::capacity_plan::{
    CapacityPlan, CapacityPlanInput, MeasuredTwin, PilotVerdict,
};
use engine::production::demand_process::{BusiestHour, DemandProcess, ServiceTimes};
use engine::production::{
    GpuHourPrice, MeasuredConfiguration, MeasuredPoint, PilotTwin, calibrate,
};
use engine::sizing::{KvDtype, MemoryModel, WeightPrecision};
use engine::verdict::comparability::FileCheck;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

/// Most cards a recommended configuration may use.
pub const MAX_CARDS: u32 = 8;

/// Why a pilot has no recommendation yet: what is missing, worded for either language.
#[derive(Clone, Debug, PartialEq)]
pub enum NoRecommendation {
    PlanNotApproved,
    NoGatewayLog,
    /// Neither pilot and production users nor a production arrival rate.
    NoDemandGrowth,
    /// The production demand could not be derived (the engine's reason, in English).
    ProductionDemand(String),
    NoArrivals,
    NoLengths,
    /// The pilot's model is not in the sizing catalog.
    ModelNotInCatalog(String),
    /// The gateway traffic in force is not the pilot's (another model): the verdict grades
    /// nothing from it, so no production demand may be grown from it either.
    GatewayLogNotComparable(FileCheck),
}

impl NoRecommendation {
    /// The reason in `lang`, as one sentence.
    pub fn text_in(&self, lang: engine::locale::Lang) -> String {
        use engine::locale::Lang::{De, En};
        match (self, lang) {
            (NoRecommendation::PlanNotApproved, En) => "The plan is not approved yet: the recommendation needs its demand assumptions and latency limits.".into(),
            (NoRecommendation::PlanNotApproved, De) => "Der Plan ist noch nicht freigegeben: Die Empfehlung braucht seine Annahmen zur Nachfrage und seine Latenzgrenzen.".into(),
            (NoRecommendation::NoGatewayLog, En) => "No gateway log yet: production demand is grown from the pilot's measured traffic.".into(),
            (NoRecommendation::NoGatewayLog, De) => "Noch kein Gateway-Log: Die Nachfrage der Produktion wird aus dem gemessenen Verkehr des Piloten hochgerechnet.".into(),
            (NoRecommendation::NoDemandGrowth, En) => "The plan states neither pilot and production users nor a production arrival rate, so there is nothing to grow the pilot's demand by.".into(),
            (NoRecommendation::NoDemandGrowth, De) => "Der Plan nennt weder Nutzerzahlen von Pilot und Produktion noch eine Ankunftsrate der Produktion, daher gibt es nichts, womit die Nachfrage des Piloten hochgerechnet werden kann.".into(),
            (NoRecommendation::ProductionDemand(e), En) => format!("Production demand: {e}."),
            (NoRecommendation::ProductionDemand(e), De) => format!("Nachfrage der Produktion: {e}."),
            (NoRecommendation::NoArrivals, En) => "The gateway log's busiest hour has no arrivals to grow.".into(),
            (NoRecommendation::NoArrivals, De) => "Die Spitzenstunde des Gateway-Logs hat keine Ankünfte, die sich hochrechnen ließen.".into(),
            (NoRecommendation::NoLengths, En) => "The gateway log records no prompt and answer lengths: production requests cannot be simulated without them.".into(),
            (NoRecommendation::NoLengths, De) => "Das Gateway-Log verzeichnet keine Prompt- und Antwortlängen: Ohne sie lassen sich Anfragen der Produktion nicht simulieren.".into(),
            (NoRecommendation::ModelNotInCatalog(model), En) => format!("The model “{model}” is not in the sizing catalog: add its config.json on the sizing page."),
            (NoRecommendation::ModelNotInCatalog(model), De) => format!("Das Modell „{model}“ steht nicht im Sizing-Katalog: seine config.json auf der Sizing-Seite hinzufügen."),
            (NoRecommendation::GatewayLogNotComparable(check), En) => format!(
                "The gateway traffic is not this pilot's ({}): the verdict grades nothing from it, so no production demand is grown from it. Upload the pilot's own gateway log, or withdraw this one.",
                check.reason_in(En).unwrap_or_default()
            ),
            (NoRecommendation::GatewayLogNotComparable(check), De) => format!(
                "Der Gateway-Verkehr gehört nicht zu diesem Piloten ({}): Das Urteil bewertet nichts daraus, daher wird auch keine Nachfrage der Produktion daraus hochgerechnet. Das eigene Gateway-Log des Piloten hochladen oder dieses zurückziehen.",
                check.reason_in(De).unwrap_or_default()
            ),
        }
    }
}

impl std::fmt::Display for NoRecommendation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text_in(engine::locale::Lang::En))
    }
}

/// The plan of `pilot` (visibility checked by the caller), or why there is none, in words;
/// `priced`: add each candidate's cost (staff only).
pub async fn for_pilot(
    services: &Services,
    pilot: &Pilot,
    priced: bool,
) -> Result<Result<CapacityPlan, NoRecommendation>, ServiceError> {
    for_pilot_with(services, pilot, priced, false).await
}

/// [`for_pilot`], weighing cards that can no longer be ordered too when `include_unorderable`
/// (by default they are left out and named: [`CapacityPlan::left_out`]).
pub async fn for_pilot_with(
    services: &Services,
    pilot: &Pilot,
    priced: bool,
    include_unorderable: bool,
) -> Result<Result<CapacityPlan, NoRecommendation>, ServiceError> {
    let evidence = crate::pilot_evidence::gather(services, pilot.id).await?;
    let catalog = crate::catalog::service::effective_catalog(&services.store).await?;
    capacity_plan_with(
        services,
        pilot,
        &evidence,
        &catalog,
        priced,
        include_unorderable,
    )
    .await
}

/// [`for_pilot`] on evidence and a catalog already loaded (the report has both).
pub async fn capacity_plan(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    catalog: &SizingCatalog,
    priced: bool,
) -> Result<Result<CapacityPlan, NoRecommendation>, ServiceError> {
    capacity_plan_with(services, pilot, evidence, catalog, priced, false).await
}

async fn capacity_plan_with(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    catalog: &SizingCatalog,
    priced: bool,
    include_unorderable: bool,
) -> Result<Result<CapacityPlan, NoRecommendation>, ServiceError> {
    // Always with prices: they never change the ranking, so one plan serves every caller and
    // an unpriced caller gets it with the money taken out.
    let verdict = pilot_verdict(&crate::verdict::service::build(pilot.clone(), evidence));
    let (mut input, warnings) =
        match plan_input(services, pilot, evidence, catalog, verdict).await? {
            Ok(input) => input,
            Err(why) => return Ok(Err(why)),
        };
    input.include_unorderable = include_unorderable;
    let plan = kept_plan(input).await?;
    let mut plan = plan.as_ref().clone();
    plan.warnings.extend(warnings);
    if !priced {
        for candidate in &mut plan.candidates {
            candidate.cost = None;
        }
    }
    Ok(Ok(plan))
}

/// The verdict as the capacity plan weighs it: the outcome and tally of the plan in force.
pub fn pilot_verdict(verdict: &crate::verdict::VerdictView) -> Option<PilotVerdict> {
    verdict.outcome.map(|outcome| PilotVerdict {
        outcome,
        tally: verdict.tally,
    })
}

/// What the pilot page's recommendation is made from, for one state of the pilot's evidence:
/// the capacity plan's input with its key, or why there is none. Made once per state (see
/// [`crate::overview`]); [`headline`] then only looks the plan up.
#[derive(Clone, Debug)]
pub struct HeadlineBasis(Result<([u8; 32], Arc<CapacityPlanInput>), NoRecommendation>);

/// The [`HeadlineBasis`] of `pilot`, on its evidence already gathered and its verdict already
/// graded (so a view grades once).
pub async fn headline_basis(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    verdict: &crate::verdict::VerdictView,
) -> Result<HeadlineBasis, ServiceError> {
    let catalog = crate::catalog::service::effective_catalog(&services.store).await?;
    let verdict = pilot_verdict(verdict);
    Ok(HeadlineBasis(
        match plan_input(services, pilot, evidence, &catalog, verdict).await? {
            Ok((input, _)) => {
                let input = Arc::new(input);
                let keyed = input.clone();
                Ok((off_the_runtime(move || input_key(&keyed)).await??, input))
            }
            Err(reason) => Err(reason),
        },
    ))
}

/// Runs `work` on the blocking pool. For the CPU-heavy steps of making a pilot's overview: the
/// busiest hour replayed at production's rate took 40–60 ms and the plan input's key 4–7 ms on
/// a live pilot with 40,000 records in its hour (release build); on an async worker either
/// holds every request queued on that worker meanwhile.
async fn off_the_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(work).await.map_err(|error| {
        tracing::error!(%error, "a step of the capacity plan's input failed");
        ServiceError::Internal
    })
}

/// What the pilot page names: the kept plan's recommended configuration, or, when the plan is
/// not kept yet, the latest plan made for the pilot (saying from when) or
/// [`RecommendationHeadline::Computing`] while it is computed in the background (simulating
/// every candidate takes seconds, too long to hold a page for; the page fills it in on its next
/// load, and the report and the API find it kept). A pilot whose evidence keeps changing gets a
/// new plan at most once per [`FOLLOW_EVERY`] (see [`following`]).
pub fn headline(
    following: &Arc<Following>,
    pilot_id: i64,
    basis: &HeadlineBasis,
    lang: engine::locale::Lang,
) -> RecommendationHeadline {
    let (key, input) = match &basis.0 {
        Ok(kept_input) => kept_input,
        Err(reason) => {
            return RecommendationHeadline::Unavailable {
                reason: reason.text_in(lang),
            };
        }
    };
    if let Some(plan) = kept(key) {
        following.shown(pilot_id, &plan);
        return named(&plan, input, None, lang);
    }
    // Another caller making the same plan: the start ends at once (dropped), as failed.
    if let Some(started) = following.may_start(pilot_id)
        && let Some(claim) = claim(*key)
    {
        let input = input.as_ref().clone();
        tokio::spawn(async move {
            started.finished(compute_claimed(claim, input).await);
        });
    }
    match following.latest(pilot_id) {
        Some(latest) => named(&latest.plan, input, Some(latest.made_ms), lang),
        None => RecommendationHeadline::Computing,
    }
}

/// The page's words for `plan` (`as_of_ms`: made for an earlier state of the evidence).
/// The headline of `plan`, worded in `lang` (the plan keeps its English; the engine words the
/// rest).
fn named(
    plan: &CapacityPlan,
    input: &CapacityPlanInput,
    as_of_ms: Option<i64>,
    lang: engine::locale::Lang,
) -> RecommendationHeadline {
    let demand = SizingDemand {
        context_tokens_per_session: plan.demand.context_tokens_per_session,
        sessions: plan.demand.sessions.p99.max(1),
    };
    match &plan.recommended {
        Some(r) => RecommendationHeadline::Recommended {
            label: match lang {
                engine::locale::Lang::En => r.configuration.label.clone(),
                _ => r.configuration.label_in(lang),
            },
            why: match lang {
                engine::locale::Lang::En => r.why.clone(),
                _ => plan.why_in(lang).unwrap_or_else(|| r.why.clone()),
            },
            cards: format!("{} ({}–{})", r.cards.value, r.cards.low, r.cards.high),
            unsettled: match lang {
                engine::locale::Lang::En => r.unsettled.clone(),
                _ => r.unsettled_in(lang),
            },
            sizing_query: sizing_query(&input.model.id, &r.configuration, &demand),
            demand,
            as_of_ms,
        },
        None => RecommendationHeadline::NothingHolds {
            reason: match lang {
                engine::locale::Lang::En => plan.warnings.last().cloned().unwrap_or_default(),
                _ => engine::production::capacity_plan::nothing_holds_in(
                    input,
                    &plan.candidates,
                    lang,
                ),
            },
            demand,
            as_of_ms,
        },
    }
}

/// The sizing page's query for `configuration` of `model_id` at `demand`.
fn sizing_query(
    model_id: &str,
    configuration: &engine::production::capacity_plan::Configuration,
    demand: &SizingDemand,
) -> String {
    format!(
        "model={model_id}&weights={}&kv={}&gpu={}&tp={}&pp={}&copies={}&{}",
        configuration.weights.as_str(),
        configuration.kv_dtype.as_str(),
        configuration.gpu_id,
        configuration.tp,
        configuration.pp,
        configuration.copies,
        demand.query()
    )
}

/// Computes and keeps the capacity plan of every pilot that is not archived, one after another,
/// and answers how many have one kept or being computed. Start-up runs it in the background: without it the
/// first visit to a pilot page after a start read the catalog and the evidence cold (600 ms
/// against 100 ms warm, debug build) and showed "Being computed" instead of the
/// recommendation. A pilot whose plan cannot be made yet is skipped; errors are logged.
pub async fn warm_up(services: &Services) -> usize {
    let pilots = match services.store.list_pilots(None).await {
        Ok(pilots) => pilots,
        Err(error) => {
            tracing::warn!(%error, "warming up the capacity plans: pilots unreadable");
            return 0;
        }
    };
    let catalog = match crate::catalog::service::effective_catalog(&services.store).await {
        Ok(catalog) => catalog,
        Err(error) => {
            tracing::warn!(%error, "warming up the capacity plans: catalog unreadable");
            return 0;
        }
    };
    let mut kept_plans = 0;
    for pilot in pilots.into_iter().filter(|p| p.archived_ms.is_none()) {
        match warm_pilot(services, &pilot, &catalog).await {
            Ok(true) => kept_plans += 1,
            Ok(false) => {}
            Err(error) => {
                tracing::warn!(%error, pilot = pilot.id, "warming up a capacity plan failed")
            }
        }
    }
    kept_plans
}

async fn warm_pilot(
    services: &Services,
    pilot: &Pilot,
    catalog: &SizingCatalog,
) -> Result<bool, ServiceError> {
    let evidence = crate::pilot_evidence::gather(services, pilot.id).await?;
    let verdict = pilot_verdict(&crate::verdict::service::build(pilot.clone(), &evidence));
    let Ok((input, _)) = plan_input(services, pilot, &evidence, catalog, verdict).await? else {
        return Ok(false);
    };
    // Through the same claim as a page visit's background plan, so a visit during the
    // warm-up does not simulate the same plan a second time; when another caller makes it,
    // the warm-up waits for it (or makes it, should that caller give up), so what it counts is
    // kept when it answers.
    let key = input_key(&input)?;
    while kept(&key).is_none() {
        if let Some(claim) = claim(key) {
            compute_claimed(claim, input).await;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    Ok(true)
}

/// The plans being computed in the background, by key.
fn under_way() -> &'static Mutex<Vec<[u8; 32]>> {
    static UNDER_WAY: OnceLock<Mutex<Vec<[u8; 32]>>> = OnceLock::new();
    UNDER_WAY.get_or_init(|| Mutex::new(Vec::new()))
}

/// The mark that the plan of a key is being computed: released when dropped, also when the
/// task computing it is cancelled (a runtime shut down mid-plan), so no key stays marked for
/// good and nobody waits on a plan that never comes.
struct Claim([u8; 32]);

impl Drop for Claim {
    fn drop(&mut self) {
        if let Ok(mut keys) = under_way().lock() {
            keys.retain(|k| *k != self.0);
        }
    }
}

/// Marks the plan of `key` as being computed; `None` when it already is.
fn claim(key: [u8; 32]) -> Option<Claim> {
    match under_way().lock() {
        Ok(mut keys) if !keys.contains(&key) => {
            keys.push(key);
            Some(Claim(key))
        }
        _ => None,
    }
}

/// Computes and keeps the plan of a claimed key, then releases the claim.
async fn compute_claimed(claim: Claim, input: CapacityPlanInput) -> Option<Arc<CapacityPlan>> {
    let plan = kept_plan(input).await;
    if plan.is_err() {
        tracing::warn!("the background capacity plan failed");
    }
    drop(claim);
    plan.ok()
}

/// The SHA-256 of the input's JSON: the key plans are kept by.
fn input_key(input: &CapacityPlanInput) -> Result<[u8; 32], ServiceError> {
    use sha2::{Digest, Sha256};
    let json = serde_json::to_vec(input).map_err(|error| {
        tracing::error!(%error, "the capacity plan's input does not serialise");
        ServiceError::Internal
    })?;
    Ok(Sha256::digest(&json).into())
}

fn kept(key: &[u8; 32]) -> Option<Arc<CapacityPlan>> {
    plans().lock().ok().and_then(|kept| {
        kept.iter()
            .find(|(k, _)| k == key)
            .map(|(_, plan)| plan.clone())
    })
}

/// Plans kept by the content of their input (SHA-256 of its JSON): the report's preview, its
/// HTML and PDF, the API and the CLI ask for the same plan, and simulating every candidate
/// takes seconds. A changed input (new evidence, prices, catalog rows) is a new key, so a kept
/// plan is never stale; the oldest of [`KEPT_PLANS`] goes first.
async fn kept_plan(input: CapacityPlanInput) -> Result<Arc<CapacityPlan>, ServiceError> {
    let key = input_key(&input)?;
    if let Some(plan) = kept(&key) {
        return Ok(plan);
    }
    // Off the async runtime: every candidate is simulated under the production arrivals.
    let plan = tokio::task::spawn_blocking(move || engine::production::plan_capacity(&input))
        .await
        .map_err(|error| {
            tracing::error!(%error, "the capacity plan failed");
            ServiceError::Internal
        })?;
    let plan = Arc::new(plan);
    if let Ok(mut kept) = plans().lock() {
        kept.retain(|(k, _)| *k != key);
        kept.push_back((key, plan.clone()));
        while kept.len() > KEPT_PLANS {
            kept.pop_front();
        }
    }
    Ok(plan)
}

/// How many plans are kept (a plan is a few hundred KiB).
pub const KEPT_PLANS: usize = 16;

type KeptPlans = Mutex<VecDeque<([u8; 32], Arc<CapacityPlan>)>>;

fn plans() -> &'static KeptPlans {
    static PLANS: OnceLock<KeptPlans> = OnceLock::new();
    PLANS.get_or_init(|| Mutex::new(VecDeque::new()))
}

/// Production as the plan states it, from the pilot's traffic: the grown demand, its arrival
/// process (the pilot's busiest hour replayed at the production rate, else Poisson) and how
/// the pilot's requests kept their time; with the warnings its making raised.
pub struct ProductionProcess {
    pub production: engine::demand::ProductionDemand,
    pub demand: DemandProcess,
    pub pilot_service: ServiceTimes,
    pub warnings: Vec<String>,
}

/// The [`ProductionProcess`] of the pilot's approved plan and traffic in force, or why there
/// is none. Shared by the capacity plan and the trace of the next step
/// ([`crate::traffic::trace`]), so both speak of the same production hour.
pub async fn production_process(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
) -> Result<Result<ProductionProcess, NoRecommendation>, ServiceError> {
    let Some(plan) = &evidence.plan else {
        return Ok(Err(NoRecommendation::PlanNotApproved));
    };
    let Some((profile, _)) = &evidence.profile else {
        return Ok(Err(NoRecommendation::NoGatewayLog));
    };
    // Only evidence the verdict accepts (issue #37): traffic of another model sizes nothing.
    if !evidence.profile_check.is_comparable() {
        return Ok(Err(NoRecommendation::GatewayLogNotComparable(
            evidence.profile_check.clone(),
        )));
    }
    let assumptions = &plan.content.demand;
    let scaling = match (
        assumptions.pilot_users,
        assumptions.production_users,
        assumptions.peak_arrival_rate_req_s,
    ) {
        (Some(pilot_users), Some(production_users), _) => DemandScaling::UserRatio {
            pilot_users,
            production_users,
        },
        (_, _, Some(rate)) => DemandScaling::EnteredRate {
            arrival_rate_per_s: rate,
        },
        _ => {
            return Ok(Err(NoRecommendation::NoDemandGrowth));
        }
    };
    let production = match production_demand_for(
        profile,
        scaling,
        ContextBasis::WholeSession,
        assumptions.context_tokens_per_request,
    ) {
        Ok(p) => p,
        Err(e) => return Ok(Err(NoRecommendation::ProductionDemand(e.to_string()))),
    };
    let growth = if production.pilot_arrival_rate_per_s > 0.0 {
        production.arrival_rate_per_s / production.pilot_arrival_rate_per_s
    } else {
        return Ok(Err(NoRecommendation::NoArrivals));
    };
    let mut warnings = Vec::new();
    let hour = match busiest_hour(services, pilot.id, profile).await? {
        Ok(hour) if !hour.requests.is_empty() => Some(hour),
        Ok(_) => None,
        Err(why) => {
            warnings.push(format!(
                "{why}: production demand is Poisson at the log's busiest-hour rate instead of \
                 the replayed hour."
            ));
            None
        }
    };
    let (demand, pilot_service) = match hour {
        Some(hour) => (
            off_the_runtime(move || DemandProcess::replayed(hour.as_ref().clone(), growth, 0))
                .await?,
            ServiceTimes::AsLogged,
        ),
        None => match DemandProcess::from_profile(profile, growth, 0) {
            Some(demand) => (demand, ServiceTimes::from_profile(profile)),
            None => return Ok(Err(NoRecommendation::NoLengths)),
        },
    };
    Ok(Ok(ProductionProcess {
        production,
        demand,
        pilot_service,
        warnings,
    }))
}

/// The plan's input (see the module docs) with the warnings its making raised, or why it
/// cannot be made.
async fn plan_input(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    catalog: &SizingCatalog,
    verdict: Option<PilotVerdict>,
) -> Result<Result<(CapacityPlanInput, Vec<String>), NoRecommendation>, ServiceError> {
    let ProductionProcess {
        production,
        demand,
        pilot_service,
        warnings,
    } = match production_process(services, pilot, evidence).await? {
        Ok(process) => process,
        Err(why) => return Ok(Err(why)),
    };
    let Some(plan) = &evidence.plan else {
        return Ok(Err(NoRecommendation::PlanNotApproved));
    };
    let Some(model) = crate::catalog::pilot_model(catalog, pilot) else {
        return Ok(Err(NoRecommendation::ModelNotInCatalog(
            pilot.model.clone(),
        )));
    };
    let serving =
        engine::production::precision::parse_precision_name(&plan.content.serving.precision);
    let twin = measured_twin(
        services,
        pilot,
        evidence,
        catalog,
        &model,
        serving,
        &plan.content,
    )
    .await;
    let input = CapacityPlanInput {
        model,
        demand,
        pilot_service,
        context_tokens_per_session: production.context_tokens_per_session,
        twin,
        marks: engine::loadtest::latency_targets(&plan.content),
        formats: formats(evidence, serving),
        gpus: catalog.gpus.iter().map(|g| g.spec.clone()).collect(),
        max_cards: MAX_CARDS,
        execution: engine::twin::transfer::Execution::CudaGraphs,
        memory_model: MemoryModel::Planning,
        prices: hour_prices(catalog),
        verdict,
        simulated_requests: engine::production::capacity_plan::DEFAULT_SIMULATED_REQUESTS,
        seed: 0,
        served_model: Some(pilot.model.clone()),
        trace_file: Some(crate::traffic::trace_file_name(pilot.id)),
        include_unorderable: false,
        // The pilot has a gateway log (no plan is made without one): production keeps it.
        through_gateway: true,
    };
    Ok(Ok((input, warnings)))
}

/// The pilot's busiest hour as its gateway logs recorded it, request by request: the hour the
/// combined profile found ([`DemandProfile::busiest_hour_start`]), read again from the kept raw
/// logs, since the profile keeps figures, not requests. `Err`: why the logs in force could not
/// be read again (the plan then falls back to Poisson arrivals at the profile's rate, and says
/// so).
///
/// Kept per set of logs (their SHA-256s): reading a week of traffic takes a while, and the
/// report, the API and the pilot page ask for it in turn. Only one hour's requests are held.
pub(crate) async fn busiest_hour(
    services: &Services,
    pilot_id: i64,
    profile: &DemandProfile,
) -> Result<Result<Arc<BusiestHour>, String>, ServiceError> {
    let start_ms = profile.busiest_hour_start.unix_ms;
    let end_ms = start_ms + engine::production::demand_process::HOUR_MS as i64;
    let logs =
        crate::traffic::service::gateway_sources_spanning(services, pilot_id, start_ms, end_ms)
            .await?;
    let key = format!(
        "{start_ms}:{}",
        logs.iter()
            .map(|(f, _, _)| f.sha256.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(hour) = hours().lock().ok().and_then(|kept| {
        kept.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, hour)| hour.clone())
    }) {
        return Ok(Ok(hour));
    }
    let sources: Vec<(String, std::path::PathBuf, bool)> = logs
        .into_iter()
        .map(|(file, path, skip)| (file.file_name, path, skip))
        .collect();
    let read = tokio::task::spawn_blocking(move || read_hour(&sources, start_ms))
        .await
        .map_err(|error| {
            tracing::error!(%error, "reading the busiest hour failed");
            ServiceError::Internal
        })?;
    let hour = match read {
        Ok(hour) => Arc::new(hour),
        Err(why) => {
            tracing::warn!(%why, pilot_id, "the busiest hour could not be read again");
            return Ok(Err(why));
        }
    };
    if let Ok(mut kept) = hours().lock() {
        kept.retain(|(k, _)| *k != key);
        kept.push_back((key, hour.clone()));
        while kept.len() > KEPT_PLANS {
            kept.pop_front();
        }
    }
    Ok(Ok(hour))
}

/// The requests of the hour from `start_ms` over the logs (name, path, skip_bad_lines).
fn read_hour(
    sources: &[(String, std::path::PathBuf, bool)],
    start_ms: i64,
) -> Result<BusiestHour, String> {
    let end_ms = start_ms + engine::production::demand_process::HOUR_MS as i64;
    let mut records = Vec::new();
    crate::traffic::service::read_logs_again(sources, |r| {
        if r.start_ms >= start_ms && r.start_ms < end_ms {
            records.push(r);
        }
    })?;
    Ok(BusiestHour::starting_at(&records, start_ms))
}

type KeptHours = Mutex<VecDeque<(String, Arc<BusiestHour>)>>;

fn hours() -> &'static KeptHours {
    static HOURS: OnceLock<KeptHours> = OnceLock::new();
    HOURS.get_or_init(|| Mutex::new(VecDeque::new()))
}

/// The pairs that passed the evaluation together; without a decision, the serving precision
/// with a 16-bit KV cache.
fn formats(
    evidence: &PilotEvidence,
    serving: Option<WeightPrecision>,
) -> Vec<(WeightPrecision, KvDtype)> {
    let passed: Vec<(WeightPrecision, KvDtype)> = evidence
        .decision
        .as_ref()
        .map(|d| {
            d.passing_combinations
                .iter()
                .filter_map(|pair| Some((pair.weights_precision?, pair.kv_dtype?)))
                .collect()
        })
        .unwrap_or_default();
    if passed.is_empty() {
        serving
            .map(|p| vec![(p, KvDtype::Bits16)])
            .unwrap_or_default()
    } else {
        passed
    }
}

/// Prices per GPU-hour of the catalog (staff only).
fn hour_prices(catalog: &SizingCatalog) -> Vec<GpuHourPrice> {
    catalog
        .gpus
        .iter()
        .filter_map(|g| {
            Some(GpuHourPrice {
                gpu_id: g.spec.id.clone(),
                price_per_gpu_hour: g.hour_price?,
                currency: catalog.currency.clone(),
            })
        })
        .collect()
}

/// The pilot's fitted twin on its one load-tested configuration, placed in the catalog by the
/// calibration (the GPU, split and precision the candidates are described by); `None` when the
/// load tests span several configurations, name no catalog GPU, or do not fit.
async fn measured_twin(
    services: &Services,
    pilot: &Pilot,
    evidence: &PilotEvidence,
    catalog: &SizingCatalog,
    model: &engine::sizing::ModelSpec,
    serving: Option<WeightPrecision>,
    plan: &engine::plan::PlanContent,
) -> Option<MeasuredTwin> {
    let runs = evidence.comparable_runs();
    let points: Vec<MeasuredPoint> = runs
        .iter()
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
    let speed = calibrate(model, &gpus, serving, &points).speed;
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
    let gpu = gpus.iter().find(|g| g.id == configuration.gpu_id)?.clone();
    // From the twin cache: the load-tests page and the report's twin section ask for this fit.
    let fit = crate::predict::service::pilot_twin(services, pilot.id, None)
        .await
        .ok()?;
    let context = runs
        .first()
        .and_then(|run| run.run_context.clone())
        .unwrap_or_default();
    let kv_dtype = context
        .kv_cache_dtype
        .as_deref()
        .and_then(engine::production::precision::kv_dtype_of_run)
        .unwrap_or(KvDtype::Bits16);
    let pilot_twin = PilotTwin {
        configuration,
        twin: fit.twin.as_ref().clone(),
        marks: engine::loadtest::latency_targets(plan),
    };
    Some(MeasuredTwin::from_pilot(
        &pilot_twin,
        gpu,
        kv_dtype,
        context.cuda_graphs,
    ))
}
