//! The server side: assembling the evidence, fitting, asking.

use super::*;
use crate::ServiceError;
use crate::Services;
use crate::load_tests::LoadTestSummary;
use crate::load_tests::service::REQUEST_SAMPLES;
use crate::model::{EvidenceFile, EvidenceKind, StartupLogSummary};
use crate::traffic::MetricsScrapeSummary;
use engine::ingest::{OperatingPoint, RequestRecord};
use engine::loadtest::RequestSamples;
use engine::locale::Lang;
use engine::metrics::CacheConfig;
use engine::run_context::RunContext;
use engine::sizing::StartupLog;
use engine::twin::{
    Backtest, Configuration, FitOptions, Question, ServingLimits, Twin, configurations,
};

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "capacity twin evidence unreadable");
    ServiceError::Internal
}

/// One load test as the twin reads it: its operating points and its per-request records
/// (their `point` indexes this load test's own points).
#[derive(Clone, Debug, Default)]
pub struct LoadTestInput {
    pub points: Vec<OperatingPoint>,
    pub requests: Vec<RequestRecord>,
}

/// Everything the twin is fitted from: load tests and what states the engine's limits.
#[derive(Clone, Debug, Default)]
pub struct TwinEvidence {
    pub load_tests: Vec<LoadTestInput>,
    /// `vllm serve` command lines / ServingRuntimes: `max_num_seqs`, `max_num_batched_tokens`.
    pub run_contexts: Vec<RunContext>,
    /// vLLM start-up logs: the KV-cache size.
    pub startup_logs: Vec<StartupLog>,
    /// `/metrics` scrapes' `vllm:cache_config_info`: the KV-cache size.
    pub cache_configs: Vec<CacheConfig>,
}

pub use super::refusal::{FitRefusal, TwinInputError};

impl From<crate::twin_cache::FitFailure> for ServiceError {
    fn from(failure: crate::twin_cache::FitFailure) -> Self {
        match failure {
            crate::twin_cache::FitFailure::Refused(why) => {
                ServiceError::invalid_in(why.text_in(Lang::En), why.text_in(Lang::De))
            }
            crate::twin_cache::FitFailure::Service(e) => e,
        }
    }
}

/// The points of one serving configuration, ready to fit.
#[derive(Clone, Debug)]
pub struct Assembled {
    /// `all points`, `framework=vllm`, …
    pub label: String,
    pub points: Vec<OperatingPoint>,
    pub requests: Vec<RequestRecord>,
    pub limits: ServingLimits,
}

impl TwinEvidence {
    /// What the limit evidence states, combined: the run contexts first, then start-up
    /// logs, then scrapes (the first source stating a value wins: [`ServingLimits::or`]).
    pub fn stated_limits(&self) -> ServingLimits {
        let mut limits = ServingLimits::default();
        for context in &self.run_contexts {
            limits = limits.or(ServingLimits::from_run_context(context));
        }
        for log in &self.startup_logs {
            limits = limits.or(ServingLimits::from_startup_log(log));
        }
        for config in &self.cache_configs {
            limits = limits.or(ServingLimits::from_cache_config(config));
        }
        limits
    }

    /// Every point of every load test, one serving configuration picked (`configuration`:
    /// its label, or a part of it; `None`: the only one), record indices moved to the
    /// combined list of that configuration's points.
    pub fn assemble(&self, configuration: Option<&str>) -> Result<Assembled, TwinInputError> {
        let mut points = Vec::new();
        let mut requests = Vec::new();
        for load_test in &self.load_tests {
            let offset = points.len();
            points.extend(load_test.points.iter().cloned());
            requests.extend(load_test.requests.iter().cloned().map(|mut r| {
                r.point += offset;
                r
            }));
        }
        if points.is_empty() {
            return Err(TwinInputError::NoPoints);
        }
        let groups = configurations(&points);
        let chosen = match configuration {
            Some(label) => groups
                .iter()
                .find(|g| g.label == label)
                .or_else(|| groups.iter().find(|g| g.label.contains(label)))
                .ok_or_else(|| TwinInputError::NoSuchConfiguration {
                    asked: label.to_string(),
                    available: describe_groups(&groups),
                })?,
            None => match groups.as_slice() {
                [only] => only,
                _ => {
                    return Err(TwinInputError::SeveralConfigurations {
                        count: groups.len(),
                        available: describe_groups(&groups),
                    });
                }
            },
        };
        let mine = chosen.points.iter().map(|&i| points[i].clone()).collect();
        let requests = requests
            .into_iter()
            .filter_map(|mut r| {
                r.point = chosen.points.iter().position(|&i| i == r.point)?;
                Some(r)
            })
            .collect();
        Ok(Assembled {
            label: chosen.label.clone(),
            points: mine,
            requests,
            limits: self.stated_limits(),
        })
    }

    /// [`TwinEvidence::assemble`], then fit and (unless `backtest` is false) back-test.
    pub fn build(
        &self,
        configuration: Option<&str>,
        backtest: bool,
    ) -> Result<(String, Twin), TwinInputError> {
        let a = self.assemble(configuration)?;
        let options = FitOptions::default();
        let twin = if backtest {
            Twin::build_with(&a.points, &a.requests, &a.limits, &options)?
        } else {
            Twin {
                model: engine::twin::fit_with(&a.points, &a.requests, &a.limits, &options)?,
                backtest: Backtest::not_run("not run (--no-backtest)"),
            }
        };
        Ok((a.label, twin))
    }
}

fn describe_groups(groups: &[Configuration]) -> String {
    groups
        .iter()
        .map(|g| format!("{} ({} points)", g.label, g.points.len()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A stored sample as a record: TTFT, TPOT, E2E, failure and, from samples of version 2
/// on, the request's start and token counts, so the fit's per-request TPOT equations and
/// recorded-arrival replays use them as they use the raw file's records. Samples of version
/// 1 (stored before, until start-up re-derives them) have neither, and the fit then rests
/// on the points.
fn record_of(sample: &engine::loadtest::RequestSample) -> RequestRecord {
    let mut record = RequestRecord::new(sample.point as usize);
    record.start_s = sample.start_s;
    record.ttft_ms = sample.ttft_ms;
    record.tpot_ms = sample.tpot_ms;
    record.e2e_ms = sample.e2e_ms;
    record.input_tokens = sample.input_tokens;
    record.output_tokens = sample.output_tokens;
    if sample.failed {
        record.error = Some("failed".into());
    }
    record
}

/// The stored rows the pilot's twin is fitted from, as stored: load tests (oldest first),
/// vLLM start-up logs and `/metrics` scrapes (newest first), each with its summary.
pub struct StoredRows {
    load_tests: Vec<(EvidenceFile, String)>,
    startup_logs: Vec<(EvidenceFile, String)>,
    scrapes: Vec<(EvidenceFile, String)>,
}

impl StoredRows {
    pub async fn of_pilot(services: &Services, pilot_id: i64) -> Result<Self, ServiceError> {
        let store = &services.store;
        let mut load_tests =
            crate::readable::in_force(store, pilot_id, Some(EvidenceKind::LoadTest)).await?;
        // Another model's or GPU's run grades nothing, and it fits nothing either: it would
        // join the fit as a second serving configuration (or skew the only one).
        if let Some(pilot) = store.pilot(pilot_id).await? {
            let identity = crate::traffic::service::identity(&pilot);
            load_tests.retain(|(file, summary)| {
                crate::load_tests::check::load_test_check(&identity, &file.file_name, summary)
                    .is_comparable()
            });
        }
        load_tests.sort_by_key(|(file, _)| file.id);
        Ok(StoredRows {
            load_tests,
            startup_logs: crate::readable::in_force(
                store,
                pilot_id,
                Some(EvidenceKind::VllmStartupLog),
            )
            .await?,
            scrapes: crate::readable::in_force(store, pilot_id, Some(EvidenceKind::MetricsScrape))
                .await?,
        })
    }

    /// What the twin cache keys a fit on these rows by ([`crate::twin_cache`]).
    fn key(&self, configuration: Option<&str>) -> crate::twin_cache::FitKey {
        let files = self
            .load_tests
            .iter()
            .chain(&self.startup_logs)
            .chain(&self.scrapes)
            .map(|(file, summary)| (file.kind.as_str(), file.sha256.as_str(), summary.as_str()));
        crate::twin_cache::key_of(files, configuration)
    }

    /// The load tests' operating points (from their summaries; no samples are read).
    pub fn points(&self) -> Result<Vec<OperatingPoint>, ServiceError> {
        let mut points = Vec::new();
        for (_, summary) in &self.load_tests {
            let summary: LoadTestSummary = serde_json::from_str(summary).map_err(internal)?;
            points.extend(summary.import.points);
        }
        Ok(points)
    }

    /// The evidence as the twin reads it: summaries, and the stored request samples. No
    /// raw file is read.
    pub async fn evidence(&self, services: &Services) -> Result<TwinEvidence, ServiceError> {
        let store = &services.store;
        let mut evidence = TwinEvidence::default();
        for (file, summary) in &self.load_tests {
            let summary: LoadTestSummary = serde_json::from_str(summary).map_err(internal)?;
            let requests = if summary.request_samples.unwrap_or(0) > 0 {
                match store.derived(file.id, REQUEST_SAMPLES).await? {
                    Some(data) => RequestSamples::decode(&data)
                        .map_err(internal)?
                        .samples
                        .iter()
                        .map(record_of)
                        .collect(),
                    None => Vec::new(),
                }
            } else {
                Vec::new()
            };
            if let Some(context) = summary.run_context {
                evidence.run_contexts.push(context);
            }
            evidence.load_tests.push(LoadTestInput {
                points: summary.import.points,
                requests,
            });
        }
        for (_, summary) in &self.startup_logs {
            let summary: StartupLogSummary = serde_json::from_str(summary).map_err(internal)?;
            if summary.log.kv_tokens().is_some() {
                evidence.startup_logs.push(summary.log);
            }
        }
        for (_, summary) in &self.scrapes {
            let summary: MetricsScrapeSummary = serde_json::from_str(summary).map_err(internal)?;
            if let Some(config) = summary.report.cache_config {
                evidence.cache_configs.push(config);
            }
        }
        Ok(evidence)
    }
}

/// A pilot's fitted twin: the configuration it was fitted on, the model, and its place in
/// the twin cache (which keeps its answers).
#[derive(Clone)]
pub struct PilotFit {
    pub label: String,
    pub twin: std::sync::Arc<Twin>,
    cached: crate::twin_cache::Fitted,
}

impl PilotFit {
    /// The twin's answer to `question` (kept answers are reused; a new one is simulated
    /// off the async runtime: it simulates thousands of requests). A request longer than one
    /// request can be ([`longest_request`]) is refused (422): vLLM would refuse it, and
    /// simulating a million-token answer step by step took a minute (the contract test's
    /// fuzzer found it).
    pub async fn ask(
        &self,
        question: Question,
        longest: Option<LongestRequest>,
    ) -> Result<Prediction, ServiceError> {
        let asked = u64::from(question.prompt_tokens.unwrap_or(0))
            + u64::from(question.output_tokens.unwrap_or(0));
        let kv = self.twin.model.limits.kv_cache_tokens;
        let limit = match (kv, longest) {
            (Some(tokens), _) => Some((
                tokens,
                "the measured configuration's KV cache".to_string(),
                "der gemessene KV-Cache der Konfiguration".to_string(),
            )),
            // The longest request's reason is the engine's English words.
            (None, Some(l)) => Some((l.tokens, l.why.clone(), l.why)),
            (None, None) => None,
        };
        if let Some((tokens, why, why_de)) = limit
            && asked > tokens
        {
            return Err(ServiceError::invalid(format!(
                "prompt_tokens + output_tokens: {} tokens in one request is more than {why} \
                 holds ({} tokens); vLLM refuses such a request",
                engine::format::thousands(asked),
                engine::format::thousands(tokens)
            ))
            .with_german(format!(
                "prompt_tokens + output_tokens: {} Token in einer Anfrage sind mehr, als {} \
                 fasst ({} Token); vLLM lehnt eine solche Anfrage ab",
                Lang::De.number(asked as f64, 0),
                why_de,
                Lang::De.number(tokens as f64, 0)
            )));
        }
        self.cached.ask(self.twin.clone(), question).await
    }
}

/// The most tokens (prompt and answer) one request may have, and why.
#[derive(Clone, Debug)]
pub struct LongestRequest {
    pub tokens: u64,
    pub why: String,
}

/// [`LongestRequest`] of `pilot`: its model's context window, when the catalog knows the
/// model (the measured KV cache, when known, bounds it more tightly in [`PilotFit::ask`]).
pub async fn longest_request(
    services: &Services,
    pilot: &crate::model::Pilot,
) -> Result<Option<LongestRequest>, ServiceError> {
    let catalog = crate::catalog::service::effective_catalog(&services.store).await?;
    Ok(
        crate::catalog::pilot_model(&catalog, pilot).map(|model| LongestRequest {
            tokens: model.max_context_tokens,
            why: format!("the context window of {}", model.name),
        }),
    )
}

/// The twin of `rows` (fitted and back-tested) from the twin cache, or fitted now off the
/// async runtime: a fit re-simulates every measured run several times. 422 when there is
/// nothing to fit.
pub async fn fit_rows(
    services: &Services,
    rows: &StoredRows,
    configuration: Option<String>,
) -> Result<PilotFit, ServiceError> {
    Ok(fit_rows_or_refusal(services, rows, configuration).await?)
}

/// [`fit_rows`] with the evidence's refusal kept as data ([`FitRefusal`]), for a reader that
/// words it in its own language (the report).
pub async fn fit_rows_or_refusal(
    services: &Services,
    rows: &StoredRows,
    configuration: Option<String>,
) -> Result<PilotFit, crate::twin_cache::FitFailure> {
    use crate::twin_cache::FitFailure;
    let key = rows.key(configuration.as_deref());
    let (cached, fit) = crate::twin_cache::fitted(key, || async {
        let evidence = rows.evidence(services).await.map_err(FitFailure::Service)?;
        if evidence.load_tests.iter().all(|l| l.points.is_empty()) {
            return Err(FitFailure::Refused(FitRefusal::NoLoadTest));
        }
        tokio::task::spawn_blocking(move || evidence.build(configuration.as_deref(), true))
            .await
            .map_err(|e| FitFailure::Service(internal(e)))?
            .map(|(label, twin)| (label, std::sync::Arc::new(twin)))
            .map_err(|e| FitFailure::Refused(FitRefusal::Input(e)))
    })
    .await;
    let (label, twin) = fit?;
    Ok(PilotFit {
        label,
        twin,
        cached,
    })
}

/// The pilot's twin (see [`fit_rows`]).
pub async fn pilot_twin(
    services: &Services,
    pilot_id: i64,
    configuration: Option<String>,
) -> Result<PilotFit, ServiceError> {
    let rows = StoredRows::of_pilot(services, pilot_id).await?;
    fit_rows(services, &rows, configuration).await
}

fn bad(name: &str, problem: impl std::fmt::Display) -> ServiceError {
    ServiceError::BadArgument(format!("{name}: {problem}"))
}

/// A positive rate in requests per second.
fn rate_of(text: &str) -> Result<f64, ServiceError> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err(bad(
            "rate",
            "must be a positive number of requests per second",
        )),
        Err(_) => Err(bad(
            "rate",
            format!("`{text}` is not a number of requests per second"),
        )),
    }
}

/// A whole number from 1 to `most`.
fn count_of(name: &str, text: &str, unit: &str, most: u32) -> Result<u32, ServiceError> {
    match text.trim().parse::<u64>() {
        Ok(v) if (1..=u64::from(most)).contains(&v) => Ok(v as u32),
        Ok(_) => Err(bad(name, format!("must be from 1 to {most} {unit}"))),
        Err(_) => Err(bad(
            name,
            format!("`{text}` is not a whole number of {unit}"),
        )),
    }
}

/// The question of a request: exactly one of `rate` (req/s, Poisson arrivals) and
/// `concurrency` (users in a closed loop), optional fixed prompt and answer lengths
/// (tokens). Errors are 400 and name the parameter.
pub fn question(
    rate: Option<&str>,
    concurrency: Option<&str>,
    prompt_tokens: Option<&str>,
    output_tokens: Option<&str>,
) -> Result<Question, ServiceError> {
    let mut question = match (rate, concurrency) {
        (Some(_), Some(_)) => {
            return Err(bad(
                "rate, concurrency",
                "give one of rate (requests per second) or concurrency (users), not both",
            ));
        }
        (None, None) => {
            return Err(bad(
                "rate, concurrency",
                "give rate (requests per second) or concurrency (users)",
            ));
        }
        (Some(rate), None) => Question::rate(rate_of(rate)?),
        (None, Some(n)) => Question::concurrency(count_of("concurrency", n, "users", 100_000)?),
    };
    question.prompt_tokens = prompt_tokens
        .map(|t| count_of("prompt_tokens", t, "tokens", 10_000_000))
        .transpose()?;
    question.output_tokens = output_tokens
        .map(|t| count_of("output_tokens", t, "tokens", 10_000_000))
        .transpose()?;
    Ok(question)
}

/// The load to ask about when the form is empty: the plan's peak arrival rate, else its
/// planned peak concurrency, else the heaviest concurrency the load tests measured.
pub async fn default_load(
    services: &Services,
    pilot_id: i64,
    points: &[OperatingPoint],
) -> Result<DefaultLoad, ServiceError> {
    if let Some(plan) = services.store.plan_in_force(pilot_id).await? {
        let demand = &plan.content.demand;
        if let Some(rate) = demand.peak_arrival_rate_req_s.filter(|r| *r > 0.0) {
            let chosen_by = LoadSource::PlanPeakRate { plan: plan.number };
            return Ok(DefaultLoad::new(Some(rate), None, chosen_by));
        }
        if let Some(n) = demand.planned_peak_concurrency.filter(|n| *n > 0) {
            let chosen_by = LoadSource::PlanPeakConcurrency { plan: plan.number };
            return Ok(DefaultLoad::new(None, Some(n), chosen_by));
        }
    }
    let heaviest = points
        .iter()
        .filter_map(|p| p.concurrency)
        .filter(|c| c.is_finite() && *c >= 1.0)
        .fold(0.0_f64, f64::max);
    Ok(if heaviest >= 1.0 {
        let n = heaviest.round().min(f64::from(u32::MAX)) as u32;
        DefaultLoad::new(None, Some(n), LoadSource::HeaviestMeasured)
    } else {
        DefaultLoad::new(Some(1.0), None, LoadSource::Fallback)
    })
}

/// The GPU catalog's price per GPU-hour of the pilot's GPU, and where it comes from, when an
/// admin has set one (staff-only: the caller checks the role).
pub fn catalog_hour_price(
    catalog: &crate::model::SizingCatalog,
    pilot: &Pilot,
) -> Option<(f64, String)> {
    let gpu_id = crate::catalog::guess_gpu_id(&pilot.gpu_type)?;
    let gpu = catalog.gpu(&gpu_id)?;
    let price = gpu.hour_price.filter(|p| *p > 0.0)?;
    Some((
        price,
        format!("the GPU catalog's price per GPU-hour of {}", gpu.spec.name),
    ))
}

/// The operating-point cost of `view`'s prediction at `price` per GPU-hour on the pilot's
/// own GPUs (the hardware the twin measured, so its throughput applies); a bad price is
/// said on the card.
pub fn price_view(view: &mut TwinView, price: &str) {
    let price = price.trim();
    view.price = price.to_string();
    if price.is_empty() {
        return;
    }
    let Some(p) = &view.prediction else {
        return;
    };
    let value = match price.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => v,
        _ => {
            view.problem = Some(format!(
                "price: `{price}` is not a positive price per GPU-hour"
            ));
            return;
        }
    };
    let gpus = u32::try_from(view.pilot.gpu_count.max(1)).unwrap_or(1);
    view.operating_cost = engine::production::cost_at(
        value,
        gpus,
        p.output_tokens_per_s,
        p.request_throughput_per_s * p.prompt_tokens_mean,
        view.currency.as_deref(),
    );
}

/// The card's content: the prediction at the asked load (the default load when none).
pub async fn twin_view(
    services: &Services,
    pilot: Pilot,
    rate: String,
    concurrency: String,
    configuration: Option<String>,
) -> Result<TwinView, ServiceError> {
    let rows = StoredRows::of_pilot(services, pilot.id).await?;
    let points = rows.points()?;
    // A file mixing configurations (vLLM and SGLang rows, two TP sizes) fits one at a time:
    // the card offers the choice the refusal asks for.
    let configurations: Vec<String> = match engine::twin::configurations(&points) {
        groups if groups.len() > 1 => groups.into_iter().map(|g| g.label).collect(),
        _ => Vec::new(),
    };
    let configuration = configuration
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty());
    let default_load = default_load(services, pilot.id, &points).await?;
    let has_load_tests = !points.is_empty();
    let given = |t: &str| Some(t.trim().to_string()).filter(|t| !t.is_empty());
    let (rate, concurrency) = match (given(&rate), given(&concurrency)) {
        (None, None) => (
            default_load.rate_per_s.map(|r| r.to_string()),
            default_load.concurrency.map(|n| n.to_string()),
        ),
        asked => asked,
    };
    let mut view = TwinView {
        pilot,
        has_load_tests,
        rate: rate.clone().unwrap_or_default(),
        concurrency: concurrency.clone().unwrap_or_default(),
        default_load,
        configuration: configuration.clone(),
        configurations,
        prediction: None,
        problem: None,
        refusal: None,
        staff: false,
        price: String::new(),
        price_source: None,
        currency: None,
        operating_cost: None,
    };
    if !has_load_tests {
        return Ok(view);
    }
    let question = match question(rate.as_deref(), concurrency.as_deref(), None, None) {
        Ok(q) => q,
        Err(e) => {
            view.problem = Some(e.to_string());
            return Ok(view);
        }
    };
    match fit_rows_or_refusal(services, &rows, configuration).await {
        Ok(fit) => {
            view.configuration = Some(fit.label.clone());
            let longest = longest_request(services, &view.pilot).await?;
            view.prediction = Some(fit.ask(question, longest).await?);
        }
        Err(crate::twin_cache::FitFailure::Refused(why)) => {
            view.problem = Some(format!("No prediction: {}", why.text_in(Lang::En)));
            view.refusal = Some(why);
        }
        Err(crate::twin_cache::FitFailure::Service(e)) => return Err(e),
    }
    Ok(view)
}
