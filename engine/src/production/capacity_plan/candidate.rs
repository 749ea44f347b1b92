//! Evaluating one candidate: memory, timing, the copies it needs with one copy down, and its
//! marks with their ranges; then the one ranking.

use super::forecast::{LoadForecast, forecast, share};
use super::start_command::StartLine;
use super::{
    BacktestedError, CandidateCost, CandidateForecast, CandidatePhysics, CandidateStatus,
    CapacityPlanInput, Configuration, MarkForecast, PilotAtProduction, PlanBasis, Recommendation,
    Sensitivity, SessionFit,
};
use crate::ingest::MetricKey;
use crate::loadtest::LatencyTarget;
use crate::locale::Lang;
use crate::plan::MeasurementPoint;
use crate::production::operating_cost::cost_at;
use crate::sizing::estimate::num;
use crate::sizing::{
    FormFactor, GpuSpec, KvDtype, SizingInput, Topology, WeightPrecision, availability_of,
    form_factor, size,
};
use crate::twin::candidate_engine::{MeasuredTwin, candidate_twin};
use crate::twin::transfer::{ServingSetup, TransferBasis, TransferredTwin};
use crate::twin::validation::ValidationSummary;
use crate::twin::{Basis, Percentiles, Ranged, RunStatistics, TimedRequest, TimingModel};

/// Tensor-parallel sizes tried (vLLM needs them to divide the heads; the split check decides).
const TP_SIZES: [u32; 4] = [1, 2, 4, 8];

/// Hours averaged in a month for the monthly cost: 8,760 ÷ 12.
pub const HOURS_PER_MONTH: f64 = 730.0;

/// A candidate's fixed parts: its copy's setup, memory and timing model.
struct Prepared {
    setup: ServingSetup,
    form: FormFactor,
    sessions_per_copy: u64,
    twin: TransferredTwin,
}

/// What the three ends of the range predict for one state (a number of copies running).
struct State {
    copies_up: u32,
    ends: [LoadForecast; 3],
}

impl State {
    fn central(&self) -> &LoadForecast {
        &self.ends[1]
    }
}

/// The shared inputs of every evaluation.
pub(super) struct Context<'a> {
    input: &'a CapacityPlanInput,
    /// The cards considered: the input's, less those left out as not orderable.
    gpus: Vec<GpuSpec>,
    arrivals: Vec<TimedRequest>,
    rate: f64,
    /// The GPU back-test, read once for every mark of every candidate.
    validation: ValidationSummary,
}

impl<'a> Context<'a> {
    /// The GPU back-test the plan's Estimated figures carry.
    pub(super) fn validation(&self) -> &ValidationSummary {
        &self.validation
    }

    pub(super) fn new(input: &'a CapacityPlanInput, gpus: Vec<GpuSpec>) -> Self {
        let rate = input.demand.rate_per_s();
        Context {
            input,
            gpus,
            arrivals: production_arrivals(input, &input.demand),
            rate,
            validation: crate::twin::validation::summary(),
        }
    }

    pub(super) fn basis(&self) -> PlanBasis {
        if self.predictable_marks().next().is_some() {
            PlanBasis::LatencyAndMemory
        } else {
            PlanBasis::MemoryOnly
        }
    }

    fn predictable_marks(&self) -> impl Iterator<Item = &LatencyTarget> {
        self.input.marks.iter().filter(|m| predictable(m).is_ok())
    }

    pub(super) fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.basis() == PlanBasis::MemoryOnly {
            out.push(
                "The plan sets no latency mark the twin predicts: the recommendation rests on \
                 memory only (whole sessions against the p99 in flight, one copy down)."
                    .to_string(),
            );
        }
        if self.input.twin.is_none() {
            out.push(format!(
                "No load test of the pilot: every candidate's timing is the documented prior per \
                 GPU family (±{:.0} % on top of its spread).",
                crate::twin::transfer::PRIOR_ERROR_PCT
            ));
        }
        if self.input.formats.is_empty() {
            out.push(
                "No weight precision and KV-cache pair passed the evaluation yet: the pilot's \
                 (or BF16 with a 16-bit cache) is sized, and the evaluation must pass in it."
                    .to_string(),
            );
        }
        if self.rate <= 0.0 {
            out.push("The production arrival rate is zero: nothing to simulate.".to_string());
        }
        out
    }

    fn formats(&self) -> Vec<(WeightPrecision, KvDtype)> {
        if !self.input.formats.is_empty() {
            return self.input.formats.clone();
        }
        match &self.input.twin {
            Some(t) => vec![(t.setup.weights, t.setup.kv_dtype)],
            None => vec![(WeightPrecision::Bf16, KvDtype::Bits16)],
        }
    }

    /// Every GPU × format × split, evaluated (see the module docs of the plan).
    /// Every candidate, in catalog order. Each (GPU, format) pair is simulated on its own, so
    /// the pairs are spread over the machine's cores ([`in_parallel`]); the result is the same
    /// as one after the other, in the same order.
    pub(super) fn evaluate_all(&self) -> Vec<CandidateForecast> {
        let mut jobs: Vec<(&GpuSpec, Option<(WeightPrecision, KvDtype)>)> = Vec::new();
        for gpu in &self.gpus {
            if form_factor(&gpu.id).production_use().is_err() {
                jobs.push((gpu, None));
                continue;
            }
            jobs.extend(self.formats().into_iter().map(|f| (gpu, Some(f))));
        }
        in_parallel(&jobs, |&(gpu, format)| {
            let form = form_factor(&gpu.id);
            let mut out = Vec::new();
            match (format, form.production_use()) {
                (Some(format), Ok(())) => self.evaluate_gpu_format(gpu, &form, format, &mut out),
                (_, why) => out.push(unevaluated(
                    gpu,
                    self.formats()[0],
                    1,
                    self.input.execution,
                    CandidateStatus::NotForProduction(format!(
                        "{}: {}",
                        gpu.name,
                        why.err().unwrap_or("not for production")
                    )),
                )),
            }
            out
        })
        .into_iter()
        .flatten()
        .collect()
    }

    fn evaluate_gpu_format(
        &self,
        gpu: &GpuSpec,
        form: &FormFactor,
        (weights, kv): (WeightPrecision, KvDtype),
        out: &mut Vec<CandidateForecast>,
    ) {
        if let Some(why) = gpu.emulation_reason(weights, kv) {
            out.push(unevaluated(
                gpu,
                (weights, kv),
                1,
                self.input.execution,
                CandidateStatus::NoEvidence(format!(
                    "{why}: an emulated format says nothing about the format's speed"
                )),
            ));
            return;
        }
        for tp in TP_SIZES
            .into_iter()
            .filter(|tp| *tp <= self.input.max_cards.max(1))
        {
            // A pipeline split only adds memory: tried only where one stage is short of it.
            let mut skip_pipeline = false;
            for pp in [1, 2] {
                if tp * pp > self.input.max_cards.max(1) || (pp > 1 && skip_pipeline) {
                    continue;
                }
                let setup = self.setup(gpu, tp, pp, weights, kv);
                match self.evaluate(setup, form.clone()) {
                    Some(c) => {
                        skip_pipeline = !matches!(c.status, CandidateStatus::MemoryShort(_));
                        out.push(c);
                    }
                    None => skip_pipeline = true,
                }
            }
        }
    }

    fn setup(
        &self,
        gpu: &GpuSpec,
        tp: u32,
        pp: u32,
        weights: WeightPrecision,
        kv_dtype: KvDtype,
    ) -> ServingSetup {
        ServingSetup {
            gpu: gpu.clone(),
            tp,
            pp,
            weights,
            kv_dtype,
            execution: self.input.execution,
        }
    }

    /// Memory and timing of one copy; `Err` with the status when it cannot be evaluated,
    /// `Ok(None)` when the model cannot be split this way at all.
    fn prepare(
        &self,
        setup: ServingSetup,
        form: FormFactor,
    ) -> Result<Option<Prepared>, CandidateStatus> {
        let topology = Topology::new(setup.tp, setup.pp, 1);
        if topology.validate(&self.input.model).is_err() {
            return Ok(None);
        }
        let context = u64::from(self.input.context_tokens_per_session.max(1));
        let sizing = SizingInput::new(
            self.input.model.clone(),
            setup.weights,
            setup.kv_dtype,
            setup.gpu.clone(),
            topology,
            context,
            self.input.memory_model,
        );
        let Ok(sized) = size(&sizing) else {
            return Ok(None);
        };
        if !sized.fits {
            return Err(CandidateStatus::MemoryShort(format!(
                "not one {}-token session fits next to the weights on {}",
                num(context as f64, 0),
                topology.label()
            )));
        }
        let kv_tokens = Some(sized.kv_cache_tokens);
        // The candidate's own vLLM scheduler limits and KV cache (`candidate_engine`).
        let measured = self.input.twin.as_ref().map(|t| MeasuredTwin {
            twin: &t.twin,
            setup: &t.setup,
        });
        let twin = candidate_twin(measured, &self.input.model, &setup, kv_tokens, context)
            .map_err(|e| CandidateStatus::NoEvidence(e.to_string()))?;
        Ok(Some(Prepared {
            setup,
            form,
            sessions_per_copy: sized.sessions,
            twin,
        }))
    }

    fn evaluate(&self, setup: ServingSetup, form: FormFactor) -> Option<CandidateForecast> {
        let (gpu, format, execution) = (
            setup.gpu.clone(),
            (setup.weights, setup.kv_dtype),
            setup.execution,
        );
        let per_copy = setup.tp * setup.pp;
        let prepared = match self.prepare(setup, form) {
            Ok(Some(p)) => p,
            Ok(None) => return None,
            Err(status) => return Some(unevaluated(&gpu, format, per_copy, execution, status)),
        };
        let copies = self.min_copies(&prepared, &prepared.twin.central, &self.arrivals);
        let within_limit = copies.is_some();
        let copies = copies.unwrap_or_else(|| self.largest_copies(&prepared).max(1));
        let mut candidate = self.forecast_candidate(&prepared, copies);
        if !within_limit {
            candidate.status = CandidateStatus::BeyondCardLimit(format!(
                "no count of up to {} cards holds every mark with one copy down",
                self.input.max_cards
            ));
        }
        Some(candidate)
    }

    /// Copy counts one can buy (whole boards, every card a copy's), ascending.
    fn copy_counts(&self, prepared: &Prepared) -> Vec<u32> {
        let per_copy = prepared.setup.tp * prepared.setup.pp;
        let mut counts: Vec<u32> = (1..=self.input.max_cards.max(1))
            .filter(|cards| prepared.form.cards_to_buy(*cards) == *cards && cards % per_copy == 0)
            .map(|cards| cards / per_copy)
            .collect();
        counts.dedup();
        counts
    }

    fn largest_copies(&self, prepared: &Prepared) -> u32 {
        self.copy_counts(prepared).last().copied().unwrap_or(0)
    }

    /// The fewest copies that hold with one copy down under `model` and `arrivals`.
    fn min_copies(
        &self,
        prepared: &Prepared,
        model: &TimingModel,
        arrivals: &[TimedRequest],
    ) -> Option<u32> {
        let saturation = model.saturation_rate_for(&self.input.demand.workload);
        let rate = match arrival_rate(arrivals) {
            r if r > 0.0 => r,
            _ => self.rate,
        };
        self.copy_counts(prepared)
            .into_iter()
            .filter(|n| *n >= 2 && f64::from(n - 1) * saturation > rate)
            .find(|&n| {
                let up = n - 1;
                let f = forecast(
                    model,
                    &share(arrivals, up, self.input.seed, self.input.simulated_requests),
                    self.input.seed,
                );
                self.state_holds(&f, prepared.sessions_per_copy)
            })
    }

    fn state_holds(&self, f: &LoadForecast, sessions_per_copy: u64) -> bool {
        let memory = u64::from(f.in_flight_p99) <= sessions_per_copy && !f.overloaded();
        memory
            && self.predictable_marks().all(|m| {
                value_of(&f.stats, m, End::Central, self.input.through_gateway)
                    .is_some_and(|v| m.admits(v))
            })
    }

    fn state(&self, prepared: &Prepared, copies_up: u32, arrivals: &[TimedRequest]) -> State {
        let share = share(
            arrivals,
            copies_up.max(1),
            self.input.seed,
            self.input.simulated_requests,
        );
        let t = &prepared.twin;
        let ends = [&t.low, &t.central, &t.high].map(|m| forecast(m, &share, self.input.seed));
        State { copies_up, ends }
    }

    fn forecast_candidate(&self, prepared: &Prepared, copies: u32) -> CandidateForecast {
        let up = self.state(prepared, copies, &self.arrivals);
        let down = (copies >= 2).then(|| self.state(prepared, copies - 1, &self.arrivals));
        let per_copy_sessions = prepared.sessions_per_copy;
        let holds = self.state_holds(up.central(), per_copy_sessions);
        let holds_n1 = down
            .as_ref()
            .is_some_and(|d| self.state_holds(d.central(), per_copy_sessions));
        let predicted = self.mark_forecasts(prepared, &up, down.as_ref());
        let configuration = Configuration::new(&prepared.setup, copies);
        let ceiling = prepared
            .twin
            .floor
            .map_or(f64::INFINITY, |f| f.decode_ceiling_tok_s());
        let speed = down.as_ref().map(|d| {
            let at = |f: &LoadForecast| tokens_per_s(f.stats.tpot_ms.p50);
            let [fast, central, slow] = [&d.ends[0], &d.ends[1], &d.ends[2]].map(at);
            let spread = Ranged::spanning(central, &[fast, slow], 0.0);
            let e = prepared.twin.error_pct / 100.0;
            // Never faster than the card's decode ceiling (one read of the weights per token).
            Ranged {
                value: central.min(ceiling),
                low: (spread.low / (1.0 + e)).min(ceiling),
                high: (spread.high / (1.0 - e).max(0.05)).min(ceiling),
            }
        });
        CandidateForecast {
            cost: self.cost(&configuration, &prepared.setup.gpu),
            cards: configuration.cards,
            board_power_w: prepared
                .setup
                .gpu
                .power_w
                .map(|w| w * f64::from(configuration.cards)),
            configuration,
            status: CandidateStatus::Evaluated,
            holds: Some(holds),
            holds_n_plus_1: Some(holds_n1),
            predicted,
            sessions: SessionFit {
                per_copy: per_copy_sessions,
                in_flight_p99_n_plus_1: down.as_ref().map_or(0, |d| d.central().in_flight_p99),
                in_flight_p99: up.central().in_flight_p99,
                total_in_flight_p99: up.central().in_flight_p99 * copies,
            },
            headroom: down.as_ref().map(|d| {
                f64::from(d.copies_up) * d.central().saturation_rate_per_s / self.rate.max(1e-9)
            }),
            tokens_per_s_per_stream: speed,
            transfer: Some(prepared.twin.basis),
            rank: None,
            physics: physics_of(prepared, &self.arrivals),
        }
    }

    fn basis_of(&self, prepared: &Prepared) -> Basis {
        match prepared.twin.basis {
            TransferBasis::Identity => Basis::Simulated,
            _ => Basis::Estimated,
        }
    }

    fn mark_forecasts(
        &self,
        prepared: &Prepared,
        up: &State,
        down: Option<&State>,
    ) -> Vec<MarkForecast> {
        let e = prepared.twin.error_pct;
        let through = self.input.through_gateway;
        self.input
            .marks
            .iter()
            .map(|mark| {
                let mut out = MarkForecast::empty(mark);
                if let Err(why) = predictable(mark) {
                    out.note = Some(why.to_string());
                    return out;
                }
                let floor = physical_floor(&prepared.twin, mark);
                let ranged = |s: &State| {
                    let v = |end: End| value_of(&s.ends[end as usize].stats, mark, end, through);
                    let v = |end| v(end).unwrap_or(f64::NAN);
                    let spread = Ranged::spanning_floored(
                        v(End::Central),
                        &[v(End::Fast), v(End::Slow)],
                        e,
                        floor,
                    );
                    // At least the interval that held 80 % of the back-tested transfers.
                    let twin = &prepared.twin;
                    twin.calibrated(mark.metric, mark.statistic, spread, floor)
                };
                let all_up = ranged(up);
                out.all_copies_up = Some(all_up);
                out.gateway_budget_ms = gateway_budget(mark, through);
                out.holds = Some(mark.admits(all_up.value));
                out.basis = Some(self.basis_of(prepared));
                if out.basis == Some(Basis::Estimated) {
                    out.backtested_error = backtested_error(mark, &self.validation);
                }
                match down {
                    Some(d) => {
                        let r = ranged(d);
                        let metric = percentiles_of(&d.central().stats, mark.metric);
                        let budget = gateway_budget(mark, through).map_or(0.0, |b| b.value);
                        out.p50 = metric.map(|p| p.p50 + budget);
                        out.p99 = metric.map(|p| p.p99 + budget);
                        (out.value, out.low, out.high) = (Some(r.value), Some(r.low), Some(r.high));
                        out.holds_n_plus_1 = Some(mark.admits(r.value));
                        out.range_crosses = r.crosses(|v| mark.admits(v));
                    }
                    None => {
                        out.holds_n_plus_1 = Some(false);
                        out.note = Some("one copy: nothing serves while it is down".to_string());
                    }
                }
                out
            })
            .collect()
    }

    fn cost(&self, configuration: &Configuration, gpu: &GpuSpec) -> Option<CandidateCost> {
        let price = self
            .input
            .prices
            .iter()
            .find(|p| p.gpu_id.eq_ignore_ascii_case(&gpu.id))?;
        let workload = &self.input.demand.workload;
        let per_million_tokens = cost_at(
            price.price_per_gpu_hour,
            configuration.cards,
            self.rate * workload.output_tokens.mean(),
            self.rate * workload.prompt_tokens.mean(),
            price.currency.as_deref(),
        );
        Some(CandidateCost {
            price_per_gpu_hour: price.price_per_gpu_hour,
            cards: configuration.cards,
            per_month: price.price_per_gpu_hour * f64::from(configuration.cards) * HOURS_PER_MONTH,
            per_million_tokens,
            currency: price.currency.clone(),
        })
    }

    /// The twin on the pilot's own hardware (as measured, one copy) at the production load.
    pub(super) fn pilot_at_production(&self) -> Option<PilotAtProduction> {
        let measured = self.input.twin.as_ref()?;
        let prepared = self
            .prepare(measured.setup.clone(), form_factor(&measured.setup.gpu.id))
            .ok()
            .flatten()?;
        let up = self.state(&prepared, 1, &self.arrivals);
        let predicted = self.mark_forecasts(&prepared, &up, None);
        let verdicts: Vec<bool> = predicted.iter().filter_map(|m| m.holds).collect();
        Some(PilotAtProduction {
            configuration: Configuration::new(&prepared.setup, 1),
            holds: (!verdicts.is_empty()).then(|| verdicts.iter().all(|h| *h)),
            predicted: predicted
                .into_iter()
                .map(|m| MarkForecast {
                    holds_n_plus_1: None,
                    note: None,
                    ..m
                })
                .collect(),
            in_flight_p99: up.central().in_flight_p99,
            overloaded: up.central().overloaded(),
        })
    }

    /// The recommended configuration's uncertainty and sensitivity.
    pub(super) fn recommendation(&self, chosen: &CandidateForecast) -> Recommendation {
        let c = &chosen.configuration;
        let gpu = self
            .gpus
            .iter()
            .find(|g| g.id == c.gpu_id)
            .expect("the chosen GPU was offered");
        let setup = self.setup(gpu, c.tp, c.pp, c.weights, c.kv_dtype);
        let prepared = self
            .prepare(setup, form_factor(&gpu.id))
            .ok()
            .flatten()
            .expect("the chosen configuration was prepared before");
        let cards_for = |model: &TimingModel, arrivals: &[TimedRequest]| {
            self.min_copies(&prepared, model, arrivals)
                .map(|n| n * c.tp * c.pp)
        };
        let fast = cards_for(&prepared.twin.low, &self.arrivals).unwrap_or(c.cards);
        let slow = cards_for(&prepared.twin.high, &self.arrivals).unwrap_or(self.input.max_cards);
        let up = self.state(&prepared, c.copies, &self.arrivals);
        let total = |f: &LoadForecast| f64::from(f.in_flight_p99 * c.copies);
        let sessions = Ranged::spanning(
            total(up.central()),
            &[total(&up.ends[0]), total(&up.ends[2])],
            0.0,
        );
        let sensitivity = self.sensitivity(&prepared, &cards_for);
        let mut recommendation = Recommendation {
            configuration: c.clone(),
            predicted: chosen.predicted.clone(),
            sessions,
            cards: Ranged {
                value: f64::from(c.cards),
                low: f64::from(fast.min(c.cards)),
                high: f64::from(slow.max(c.cards)),
            },
            sensitivity,
            unsettled: Vec::new(),
            why: super::story::why(chosen, self.basis()),
            start_command: super::start_command::start_command(&StartLine {
                model: &self.input.model,
                served_model: self.input.served_model.as_deref(),
                pilot_weights: self.input.twin.as_ref().map(|t| t.setup.weights),
                configuration: c,
                context_tokens: self.input.context_tokens_per_session,
                sessions_to_hold: chosen
                    .sessions
                    .in_flight_p99_n_plus_1
                    .max(chosen.sessions.in_flight_p99),
                whole_sessions: chosen.sessions.per_copy,
                max_startup_utilization: gpu.max_startup_utilization,
            }),
            availability: availability_of(gpu),
        };
        recommendation.unsettled = recommendation.unsettled_in(Lang::En);
        recommendation
    }

    fn sensitivity(
        &self,
        prepared: &Prepared,
        cards_for: &dyn Fn(&TimingModel, &[TimedRequest]) -> Option<u32>,
    ) -> Sensitivity {
        let growth = self.input.demand.growth;
        let at = |g: f64| {
            let demand = self.input.demand.with_growth(g);
            cards_for(
                &prepared.twin.central,
                &production_arrivals(self.input, &demand),
            )
        };
        let (half, twice) = (growth / 2.0, growth * 2.0);
        let (cards_at_half, cards_at_twice) = (at(half), at(twice));
        let mut sensitivity = Sensitivity {
            half_growth: half,
            cards_at_half,
            twice_growth: twice,
            cards_at_twice,
            sentence: String::new(),
        };
        sensitivity.sentence =
            sensitivity.sentence_in(&prepared.setup.gpu.name, self.input.max_cards, Lang::En);
        sensitivity
    }
}

impl MarkForecast {
    fn empty(mark: &LatencyTarget) -> Self {
        MarkForecast {
            mark: mark.label.clone(),
            metric: mark.metric,
            statistic: mark.statistic,
            limit_ms: mark.limit_ms,
            p50: None,
            p99: None,
            value: None,
            low: None,
            high: None,
            all_copies_up: None,
            basis: None,
            holds: None,
            holds_n_plus_1: None,
            range_crosses: false,
            note: None,
            gateway_budget_ms: None,
            backtested_error: None,
        }
    }
}

/// The GPU back-test's error for `mark`'s metric and percentile (TTFT; TPOT, ITL taking TPOT's;
/// p50 and p99), `None` for what was not back-tested.
fn backtested_error(mark: &LatencyTarget, summary: &ValidationSummary) -> Option<BacktestedError> {
    let field = match mark.metric {
        MetricKey::TtftMs => "ttft_ms",
        MetricKey::TpotMs | MetricKey::ItlMs => "tpot_ms",
        _ => return None,
    };
    let m = summary.metric(field, mark.statistic)?;
    Some(BacktestedError {
        median_error_pct: m.median_error_pct,
        worst_error_pct: m.worst_error_pct,
        pairs: m.pairs,
        points: m.points,
    })
}

/// What the card physically allows one copy of `prepared` ([`CandidatePhysics`]), the TTFT
/// floor at the median prompt of `arrivals`; `None` without a floor.
fn physics_of(prepared: &Prepared, arrivals: &[TimedRequest]) -> Option<CandidatePhysics> {
    let floor = prepared.twin.floor?;
    if floor.weights_ms.is_nan() || floor.weights_ms <= 0.0 {
        return None;
    }
    let mut prompts: Vec<u32> = arrivals.iter().map(|a| a.prompt_tokens).collect();
    prompts.sort_unstable();
    let prompt_tokens = prompts
        .get(prompts.len() / 2)
        .map_or(1.0, |&p| f64::from(p));
    Some(CandidatePhysics {
        tpot_floor_ms: floor.tpot_ms(),
        ttft_floor_ms: floor.ttft_ms(prompt_tokens),
        prompt_tokens,
        decode_ceiling_tok_s: floor.decode_ceiling_tok_s(),
    })
}

/// `work` over `jobs`, spread over the available cores (scoped threads, no pool; job `i` on
/// thread `i mod threads`, so the heavy and the light candidates mix), results in job order.
/// One thread on wasm, where there are none to spawn.
pub(super) fn in_parallel<J: Sync, R: Send>(jobs: &[J], work: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let threads = if cfg!(target_arch = "wasm32") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    if threads < 2 || jobs.len() < 2 {
        return jobs.iter().map(&work).collect();
    }
    let work = &work;
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.min(jobs.len()))
            .map(|t| {
                scope.spawn(move || {
                    (t..jobs.len())
                        .step_by(threads)
                        .map(|i| (i, work(&jobs[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a candidate's simulation panicked"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Production arrivals enough for the largest copy count's share.
fn production_arrivals(
    input: &CapacityPlanInput,
    demand: &crate::production::DemandProcess,
) -> Vec<TimedRequest> {
    let wanted = input.simulated_requests.max(1) * input.max_cards.max(1) as usize;
    let per_hour = (demand.rate_per_s() * 3600.0).max(1.0);
    let hours = (wanted as f64 / per_hour).ceil().clamp(1.0, 24.0) as u32;
    demand.arrivals(hours, wanted)
}

fn arrival_rate(arrivals: &[TimedRequest]) -> f64 {
    match (arrivals.first(), arrivals.last()) {
        (Some(a), Some(b)) if b.at_ms > a.at_ms => {
            (arrivals.len() as f64 - 1.0) / ((b.at_ms - a.at_ms) / 1000.0)
        }
        _ => 0.0,
    }
}

fn tokens_per_s(tpot_ms: f64) -> f64 {
    if tpot_ms > 0.0 { 1000.0 / tpot_ms } else { 0.0 }
}

/// Whether the twin predicts this mark's statistic.
fn predictable(mark: &LatencyTarget) -> Result<(), &'static str> {
    if mark.scenario.is_some() {
        return Err("scoped to a scenario; production is all traffic");
    }
    if !matches!(
        mark.metric,
        MetricKey::TtftMs | MetricKey::TpotMs | MetricKey::ItlMs | MetricKey::E2eMs
    ) || !mark.statistic.is_percentile()
    {
        return Err("the twin predicts TTFT, TPOT, ITL and E2E at p50–p99 only");
    }
    Ok(())
}

/// The least a mark's metric can be on the candidate ([`crate::twin::step_model::StepFloor`]):
/// one read of the weights per token for TPOT and ITL, one prompt token's prefill for TTFT
/// and E2E; nothing without a floor.
fn physical_floor(twin: &crate::twin::TransferredTwin, mark: &LatencyTarget) -> f64 {
    let Some(floor) = twin.floor else {
        return 0.0;
    };
    match mark.metric {
        MetricKey::TpotMs | MetricKey::ItlMs => floor.tpot_ms(),
        MetricKey::TtftMs | MetricKey::E2eMs => floor.ttft_ms(1.0),
        _ => 0.0,
    }
}

fn percentiles_of(stats: &RunStatistics, metric: MetricKey) -> Option<&Percentiles> {
    match metric {
        MetricKey::TtftMs => Some(&stats.ttft_ms),
        MetricKey::TpotMs => Some(&stats.tpot_ms),
        MetricKey::ItlMs => Some(&stats.itl_ms),
        MetricKey::E2eMs => Some(&stats.e2e_ms),
        _ => None,
    }
}

/// The ends of a candidate's range: the transfer's fast prior, its central figure, its slow
/// prior (the order of [`State::ends`]).
#[derive(Clone, Copy)]
enum End {
    Fast = 0,
    Central = 1,
    Slow = 2,
}

/// The mark's statistic at one end of the range, with the gateway's time added where the
/// mark's clock sees the gateway ([`gateway_budget`]).
fn value_of(
    stats: &RunStatistics,
    mark: &LatencyTarget,
    end: End,
    through_gateway: bool,
) -> Option<f64> {
    let engine = percentiles_of(stats, mark.metric)?
        .get(mark.statistic)
        .filter(|v| v.is_finite())?;
    let budget = gateway_budget(mark, through_gateway).map_or(0.0, |b| match end {
        End::Fast => b.low,
        End::Central => b.value,
        End::Slow => b.high,
    });
    Some(engine + budget)
}

/// What the gateway adds to a mark whose clock sees it: a mark measured at the gateway always,
/// and a mark measured at the client when production's requests pass through a gateway
/// (`through_gateway`: the client's clock then runs across the proxy too); an engine mark never.
/// TTFT and E2E only (the proxy delays the first byte; TPOT and ITL hold through it). The twin
/// is fitted on load tests sent straight to the engine, as the benchmark report's were, so
/// without this such a mark would be graded on engine time.
///
/// Source: the V100/Qwen benchmark report ("The gateway adds roughly 100 ms to first-token
/// latency and essentially nothing to everything after it"): median TTFT through LiteLLM
/// 168–197 ms against 63–95 ms direct, so 73–134 ms, central 100 ms. Its own caveat: an order of
/// magnitude from two runs, not a calibrated constant; hence the range.
pub fn gateway_budget(mark: &LatencyTarget, through_gateway: bool) -> Option<Ranged> {
    let adds = matches!(mark.metric, MetricKey::TtftMs | MetricKey::E2eMs);
    let sees = match mark.point {
        MeasurementPoint::Gateway => true,
        MeasurementPoint::Client => through_gateway,
        _ => false,
    };
    (sees && adds).then_some(GATEWAY_BUDGET_MS)
}

/// The gateway's time to first token, ms ([`gateway_budget`]).
pub const GATEWAY_BUDGET_MS: Ranged = Ranged {
    value: 100.0,
    low: 73.0,
    high: 134.0,
};

fn unevaluated(
    gpu: &GpuSpec,
    (weights, kv_dtype): (WeightPrecision, KvDtype),
    cards: u32,
    execution: crate::twin::transfer::Execution,
    status: CandidateStatus,
) -> CandidateForecast {
    let tp = cards.max(1);
    let setup = ServingSetup {
        gpu: gpu.clone(),
        tp,
        pp: 1,
        weights,
        kv_dtype,
        execution,
    };
    let configuration = Configuration::new(&setup, 1);
    CandidateForecast {
        cards: configuration.cards,
        board_power_w: gpu.power_w.map(|w| w * f64::from(configuration.cards)),
        configuration,
        status,
        holds: None,
        holds_n_plus_1: None,
        predicted: Vec::new(),
        sessions: SessionFit::default(),
        headroom: None,
        tokens_per_s_per_stream: None,
        transfer: None,
        rank: None,
        cost: None,
        physics: None,
    }
}

/// The one ranking: holds with one copy down → lowest monthly cost when priced → fewest cards →
/// lowest board power → least headroom above the need. Ranked candidates first, in rank order.
///
/// With prices for some GPUs only, the priced candidates come first (they can be quoted) and
/// the unpriced follow by cards; the warning returned names the GPUs without a price. The
/// plan is always ranked with every price the catalog holds, so every edition names the same
/// configuration; the customer's only lacks the money.
pub(super) fn rank(candidates: &mut [CandidateForecast]) -> Option<String> {
    let eligible = |c: &CandidateForecast| {
        c.status == CandidateStatus::Evaluated && c.holds_n_plus_1 == Some(true)
    };
    let month = |c: &CandidateForecast| c.cost.as_ref().map(|cost| cost.per_month);
    let key = |c: &CandidateForecast| {
        (
            !eligible(c),
            month(c).is_none(),
            month(c).unwrap_or(0.0),
            c.cards,
            c.board_power_w.unwrap_or(f64::MAX),
            c.headroom.unwrap_or(f64::MAX),
        )
    };
    candidates.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.cmp(&kb.1))
            .then(ka.2.total_cmp(&kb.2))
            .then(ka.3.cmp(&kb.3))
            .then(ka.4.total_cmp(&kb.4))
            .then(ka.5.total_cmp(&kb.5))
            .then_with(|| a.configuration.label.cmp(&b.configuration.label))
    });
    let mut next = 1;
    for c in candidates.iter_mut() {
        if eligible(c) {
            c.rank = Some(next);
            next += 1;
        }
    }
    let held: Vec<&CandidateForecast> = candidates.iter().filter(|c| eligible(c)).collect();
    if held.iter().all(|c| c.cost.is_none()) || held.iter().all(|c| c.cost.is_some()) {
        return None;
    }
    let mut unpriced: Vec<&str> = held
        .iter()
        .filter(|c| c.cost.is_none())
        .map(|c| c.configuration.gpu_name.as_str())
        .collect();
    unpriced.dedup();
    Some(format!(
        "Ranked by monthly cost among the GPUs with a price; {} hold the marks too but have no \
         price in the catalog, so they are ranked after them, by cards.",
        unpriced.join(", ")
    ))
}
