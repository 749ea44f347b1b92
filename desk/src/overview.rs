//! The pilot page's overview: the pilot, its verdict, its plan card, the decided precision and
//! the production recommendation, made once per state of the pilot's inputs.
//!
//! Why kept: the overview is the most visited page, and making it means gathering every piece
//! of the pilot's evidence (each stored summary read back), grading the plan, and assembling the
//! capacity plan's input, which hashes the busiest hour's requests. That took about 7 ms of
//! server time per view in the optimised build, and the recommendation graded the plan a second
//! time (issue #38: p99 at 32 clients 285–318 ms). None of it changes between uploads, so it is
//! made once per state and kept: the state is the pilot row plus [`Store::pilot_revision`], one
//! query of counts and maxima over the pilot's evidence, events, derived rows, demand profile,
//! plan and evaluation-set versions and the sizing catalog. A new upload, a withdrawal, a plan
//! edit or a price change is a new state, so what is kept is never stale; two instances on one
//! database each keep their own and agree, since the state is read from the database.
//!
//! What depends on the viewer (whether they may edit, the plan versions their role sees) is
//! applied per view; the plan card is made once per role and kept with the rest.
//!
//! [`Store::pilot_revision`]: crate::store::Store::pilot_revision

use crate::ServiceError;
use crate::Services;
use crate::capacity::HeadlineBasis;
use crate::model::{Pilot, PilotView, SessionUser};
use crate::pilot_evidence::PilotEvidence;
use crate::plans::PlanView;
use crate::verdict::{PilotPageData, VerdictView};
use engine::account::Role;
use engine::locale::Lang;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many pilots' overviews an instance keeps (each holds the pilot's gathered evidence).
pub const KEPT_OVERVIEWS: usize = 32;

/// The overviews an instance keeps, by pilot and state; part of [`Services`].
#[derive(Clone, Default)]
pub struct KeptOverviews(
    Arc<Mutex<VecDeque<Arc<Basis>>>>,
    /// A background walk that makes the pilots list's missing overviews is under way.
    Arc<std::sync::atomic::AtomicBool>,
    /// How each pilot's recommendation follows its changing evidence.
    Arc<crate::capacity::Following>,
    /// The overview being made for each pilot, by state (see [`basis`]).
    Arc<Mutex<Vec<Making>>>,
);

/// An overview being made: views of the same pilot and state wait for it, or, when a roll of
/// the live feed made the state, take the overview kept from before the roll.
struct Making {
    pilot_id: i64,
    state: String,
    cell: Arc<tokio::sync::OnceCell<Arc<Basis>>>,
    /// Made after a roll of the live feed ([`refresh`] told so).
    live: bool,
}

impl std::fmt::Debug for KeptOverviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.0.lock().map(|kept| kept.len()).unwrap_or(0);
        write!(f, "KeptOverviews({kept} kept)")
    }
}

/// A pilot's verdict in one line, for the pilots list.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictLine {
    /// `None`: no approved plan, nothing to grade.
    pub outcome: Option<engine::verdict::PlanOutcome>,
    /// How the marks ended; the page words it in its language ([`VerdictLine::tally_in`]).
    pub tally: engine::verdict::Tally,
    /// Pass marks graded.
    pub marks: usize,
}

impl VerdictLine {
    /// `1 of 2 pass marks met, 1 missed` / `1 von 2 Zielwerten erreicht, 1 verfehlt`; empty
    /// without an approved plan.
    pub fn tally_in(&self, lang: engine::locale::Lang) -> String {
        match self.outcome {
            Some(_) => self.tally.summary_in(self.marks, lang),
            None => String::new(),
        }
    }
}

/// The verdict of each of the first [`KEPT_OVERVIEWS`] of `pilots` whose overview this
/// instance keeps for its current state: the pilots list's column, which never waits for a
/// grading. The others are made in the background, one after another and one walk at a time,
/// so the next view of the list has them.
pub async fn kept_verdicts(
    services: &Services,
    pilots: &[Pilot],
) -> Result<std::collections::HashMap<i64, VerdictLine>, ServiceError> {
    let mut found = std::collections::HashMap::new();
    let mut missing = Vec::new();
    for pilot in pilots.iter().take(KEPT_OVERVIEWS) {
        let state = state_of(services, pilot).await?;
        match services.overviews.find(pilot.id, &state) {
            Some(basis) => {
                found.insert(pilot.id, verdict_line(&basis.verdict));
            }
            None => missing.push(pilot.clone()),
        }
    }
    if !missing.is_empty() {
        make_in_background(services, missing);
    }
    Ok(found)
}

fn verdict_line(verdict: &VerdictView) -> VerdictLine {
    VerdictLine {
        outcome: verdict.outcome,
        tally: verdict.tally,
        marks: verdict.rows.len(),
    }
}

/// Makes the overviews of `pilots` one after another on a task of its own, unless a walk is
/// under way already.
fn make_in_background(services: &Services, pilots: Vec<Pilot>) {
    use std::sync::atomic::Ordering;
    let walking = services.overviews.1.clone();
    if walking.swap(true, Ordering::AcqRel) {
        return;
    }
    /// Ends the walk however the task ends (a panic too), so a later view starts another.
    struct Walk(Arc<std::sync::atomic::AtomicBool>);
    impl Drop for Walk {
        fn drop(&mut self) {
            self.0.store(false, Ordering::Release);
        }
    }
    let services = services.clone();
    tokio::spawn(async move {
        let _walk = Walk(walking);
        for pilot in pilots {
            if let Err(error) = basis(&services, &pilot).await {
                tracing::warn!(%error, pilot = pilot.id, "making a pilot's overview failed");
            }
        }
    });
}

/// What one state of a pilot gives every viewer.
pub struct Basis {
    pilot_id: i64,
    state: String,
    evidence: PilotEvidence,
    figures: Vec<engine::verdict::EvidenceStatistic>,
    grade: Option<(u32, engine::verdict::PlanGrade)>,
    verdict: VerdictView,
    headline: HeadlineBasis,
    /// The warning about files whose summaries do not read, if any.
    unreadable: Option<String>,
    /// Plan cards made so far, per role.
    plans: Mutex<Vec<(Role, PlanView)>>,
    /// The verdict worded in German, made at the first German view.
    german: std::sync::OnceLock<VerdictView>,
}

impl KeptOverviews {
    fn find(&self, pilot_id: i64, state: &str) -> Option<Arc<Basis>> {
        let kept = self.0.lock().ok()?;
        kept.iter()
            .find(|b| b.pilot_id == pilot_id && b.state == state)
            .cloned()
    }

    /// The making of `pilot_id`'s overview in `state`: the one under way, or a new one (which
    /// replaces a making of an older state); `true` with a new one.
    fn making(
        &self,
        pilot_id: i64,
        state: &str,
        live: bool,
    ) -> (Arc<tokio::sync::OnceCell<Arc<Basis>>>, bool) {
        let mut making = self
            .3
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(m) = making
            .iter()
            .find(|m| m.pilot_id == pilot_id && m.state == state)
        {
            return (m.cell.clone(), false);
        }
        making.retain(|m| m.pilot_id != pilot_id);
        let cell = Arc::new(tokio::sync::OnceCell::new());
        making.push(Making {
            pilot_id,
            state: state.to_string(),
            cell: cell.clone(),
            live,
        });
        (cell, true)
    }

    /// The overview kept for `pilot_id` from before a live roll, while the listener makes
    /// the one of `state` after it.
    fn before_live_roll(&self, pilot_id: i64, state: &str) -> Option<Arc<Basis>> {
        let live_making = self
            .3
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .iter()
            .any(|m| m.pilot_id == pilot_id && m.state == state && m.live);
        if !live_making {
            return None;
        }
        let kept = self.0.lock().ok()?;
        kept.iter().rev().find(|b| b.pilot_id == pilot_id).cloned()
    }

    /// The latest overview kept for `pilot_id` when `state` differs from its state only by a
    /// roll of the live feed ([`crate::store::evidence::live_roll_only`]; the pilot row, the
    /// part after the stamp, unchanged).
    fn behind_by_a_roll(&self, pilot_id: i64, state: &str) -> Option<Arc<Basis>> {
        let kept = self.0.lock().ok()?;
        let latest = kept.iter().rev().find(|b| b.pilot_id == pilot_id)?;
        let (old_stamp, old_row) = split_state(&latest.state)?;
        let (new_stamp, new_row) = split_state(state)?;
        (old_row == new_row && crate::store::evidence::live_roll_only(old_stamp, new_stamp))
            .then(|| latest.clone())
    }

    /// Ends `cell`'s making (the basis is kept by then, or the making failed).
    fn made(&self, pilot_id: i64, cell: &Arc<tokio::sync::OnceCell<Arc<Basis>>>) {
        let mut making = self
            .3
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        making.retain(|m| m.pilot_id != pilot_id || !Arc::ptr_eq(&m.cell, cell));
    }

    fn keep(&self, basis: Arc<Basis>) {
        if let Ok(mut kept) = self.0.lock() {
            kept.retain(|b| b.pilot_id != basis.pilot_id);
            kept.push_back(basis);
            while kept.len() > KEPT_OVERVIEWS {
                kept.pop_front();
            }
        }
    }
}

/// The overview of `pilot` (visibility checked by the caller) as `user` sees it, the verdict
/// worded in `lang`.
pub async fn overview(
    services: &Services,
    user: &SessionUser,
    pilot: Pilot,
    lang: Lang,
) -> Result<PilotPageData, ServiceError> {
    let basis = basis_for(services, &pilot, false, Fresh::OrBeforeARoll).await?;
    let mut verdict = basis.verdict_in(lang).clone();
    verdict.can_edit = user.role.is_staff();
    Ok(PilotPageData {
        pilot: PilotView {
            can_edit: user.role.can_edit_pilots() && pilot.archived_ms.is_none(),
            can_administer: user.role.can_manage_accounts(),
            warnings: basis.unreadable.iter().cloned().collect(),
            pilot,
        },
        verdict,
        plan: basis.plan_for(user.role).for_viewer(user.id, user.role),
        decision: basis.evidence.quality.as_ref().map(|q| q.decision.clone()),
        recommendation: crate::capacity::headline(
            &services.overviews.2,
            basis.pilot_id,
            &basis.headline,
            lang,
        ),
    })
}

/// The kept verdict of `pilot` (visibility checked by the caller), without starting the
/// recommendation's computation (the live API asks often; the recommendation is not part of it).
pub async fn verdict(services: &Services, pilot: &Pilot) -> Result<VerdictView, ServiceError> {
    Ok(basis(services, pilot).await?.verdict.clone())
}

/// The kept basis of the pilot's current state, made when there is none: once, however many
/// views ask while it is made. (A live feed changes the state every few seconds, and every
/// open page asked at once: each view made the same basis again, the page's p99 under ingest
/// 11× its idle one.) A making that fails or is dropped leaves the next waiter to try.
///
/// While the listener makes the overview of a state a live roll brought ([`refresh`] with
/// `live`), views take the overview kept from the state before, a roll behind (issue #36: at
/// 2,000 records a second the feed rolls every second or two, and each view that waited for
/// the new overview put the page's p99 at 2.6× its idle one). Any other change is waited for:
/// a view after an upload always shows the upload.
///
/// Only the pilot page's view takes the overview from before a roll ([`Fresh::OrBeforeARoll`]);
/// the live API, the background walk and the listener wait for the current one.
async fn basis(services: &Services, pilot: &Pilot) -> Result<Arc<Basis>, ServiceError> {
    basis_for(services, pilot, false, Fresh::Current).await
}

/// How current a basis a caller needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fresh {
    /// The pilot's current state.
    Current,
    /// The current state, or the one before a live roll while its overview is being made.
    OrBeforeARoll,
}

async fn basis_for(
    services: &Services,
    pilot: &Pilot,
    live: bool,
    fresh: Fresh,
) -> Result<Arc<Basis>, ServiceError> {
    let state = state_of(services, pilot).await?;
    if let Some(basis) = services.overviews.find(pilot.id, &state) {
        return Ok(basis);
    }
    if fresh == Fresh::OrBeforeARoll {
        if let Some(before) = services.overviews.before_live_roll(pilot.id, &state) {
            return Ok(before);
        }
        if let Some(before) = services.overviews.behind_by_a_roll(pilot.id, &state) {
            start_making(services, pilot, state);
            return Ok(before);
        }
    }
    let (cell, _) = services.overviews.making(pilot.id, &state, live);
    let made = cell
        .get_or_try_init(|| make_basis(services, pilot, state))
        .await
        .cloned();
    services.overviews.made(pilot.id, &cell);
    made
}

/// Starts making `pilot`'s overview in `state` on a task of its own, as a live roll's, unless
/// a making of that state is under way. For a view that found the state changed by a roll
/// before the listener began its making (or by another instance's roll, which this instance's
/// listener never hears of): the view takes the overview from before the roll instead of making
/// the new one itself (tens of milliseconds on a live pilot: the page's p99 under ingest was
/// 3–4× its idle one).
fn start_making(services: &Services, pilot: &Pilot, state: String) {
    let (cell, new) = services.overviews.making(pilot.id, &state, true);
    if !new {
        return;
    }
    /// Ends the making however its task ends (a panic, a runtime shut down mid-way): a making
    /// left registered would have views take the overview from before the roll for good.
    struct Ending(Services, i64, Arc<tokio::sync::OnceCell<Arc<Basis>>>);
    impl Drop for Ending {
        fn drop(&mut self) {
            self.0.overviews.made(self.1, &self.2);
        }
    }
    let (services, pilot) = (services.clone(), pilot.clone());
    tokio::spawn(async move {
        let _ending = Ending(services.clone(), pilot.id, cell.clone());
        if let Err(error) = cell
            .get_or_try_init(|| make_basis(&services, &pilot, state))
            .await
        {
            tracing::warn!(%error, pilot = pilot.id, "making a pilot's overview after a roll failed");
        }
    });
}

/// Gathers, grades and keeps the basis of `pilot` in `state`.
async fn make_basis(
    services: &Services,
    pilot: &Pilot,
    state: String,
) -> Result<Arc<Basis>, ServiceError> {
    let evidence = crate::pilot_evidence::gather(services, pilot.id).await?;
    let figures = evidence.figures();
    let (mut verdict, grade) =
        crate::verdict::service::build_graded(pilot.clone(), &evidence, &figures);
    note_gradable(services, &mut verdict).await;
    let headline = crate::capacity::headline_basis(services, pilot, &evidence, &verdict).await?;
    let unreadable =
        crate::readable::warning(&crate::readable::unreadable(&services.store, pilot.id).await?);
    let basis = Arc::new(Basis {
        pilot_id: pilot.id,
        state,
        evidence,
        figures,
        grade,
        verdict,
        headline,
        unreadable,
        plans: Mutex::new(Vec::new()),
        german: std::sync::OnceLock::new(),
    });
    services.overviews.keep(basis.clone());
    Ok(basis)
}

/// Makes and keeps the overview of pilot `pilot_id`'s current state, noting the marks that
/// grade in it: run after each change of its evidence (a roll of the live feed, a scrape, an
/// upload, a plan approved; see [`refresh_on_changes`]) so the moment a mark became gradable is the moment its evidence arrived, not the
/// moment someone next looked, and the next view finds the overview made. A failure is logged:
/// the next view makes it instead.
pub async fn refresh(services: &Services, pilot_id: i64, live: bool) {
    let made = async {
        match services.store.pilot(pilot_id).await? {
            Some(pilot) => basis_for(services, &pilot, live, Fresh::Current)
                .await
                .map(|_| ()),
            None => Ok(()),
        }
    };
    if let Err(error) = made.await {
        tracing::warn!(pilot_id, %error, "making a pilot's overview after a change failed");
    }
}

/// Grades each pilot [`crate::changes::Changes`] is told of ([`refresh`]), one after another;
/// tidings that queued up meanwhile for the same pilot are taken as one. The server runs one
/// per instance; without it a change is graded on the next view.
pub async fn refresh_on_changes(services: Services) {
    let Some(mut changed) = services.changes.listen() else {
        return;
    };
    while let Some(first) = changed.recv().await {
        // Per pilot: live when every tiding of it was a live roll.
        let mut pilots = std::collections::BTreeMap::from([(first.pilot_id, first.live)]);
        let mut last = first.number;
        while let Ok(more) = changed.try_recv() {
            *pilots.entry(more.pilot_id).or_insert(true) &= more.live;
            last = last.max(more.number);
        }
        for (pilot_id, live) in pilots {
            refresh(&services, pilot_id, live).await;
        }
        services.changes.done_up_to(last);
    }
}

/// Notes the moment each mark that grades (pass or fail) in `verdict` first did so, and writes
/// each graded row's moment into it ([`crate::store::Store::note_gradable`]). A failure leaves
/// the moments out and the page whole.
async fn note_gradable(services: &Services, verdict: &mut VerdictView) {
    let Some(version) = verdict.plan_version else {
        return;
    };
    let graded = |row: &crate::verdict::VerdictRow| {
        matches!(
            row.verdict,
            engine::verdict::Verdict::Pass | engine::verdict::Verdict::Fail
        )
    };
    let notations: Vec<&str> = verdict
        .rows
        .iter()
        .filter(|row| graded(row))
        .map(|row| row.notation.as_str())
        .collect();
    let since = services
        .store
        .note_gradable(
            verdict.pilot.id,
            version,
            &notations,
            crate::store::now_ms(),
        )
        .await;
    match since {
        Ok(since) => {
            for row in verdict.rows.iter_mut().filter(|row| graded(row)) {
                row.gradable_since_ms = since.get(&row.notation).copied();
            }
        }
        Err(error) => tracing::warn!(%error, "noting when marks became gradable failed"),
    }
}

/// The pilot's state: its row and [`crate::store::Store::pilot_revision`].
/// A state's revision stamp and its pilot row (the stamp is digits and colons, the row JSON).
fn split_state(state: &str) -> Option<(&str, &str)> {
    state.find('{').map(|at| state.split_at(at))
}

async fn state_of(services: &Services, pilot: &Pilot) -> Result<String, ServiceError> {
    let row = serde_json::to_string(pilot).map_err(|error| {
        tracing::error!(%error, "a pilot does not serialise");
        ServiceError::Internal
    })?;
    let revision = services.store.pilot_revision(pilot.id).await?;
    Ok(format!("{revision}{row}"))
}

impl Basis {
    /// The verdict worded in `lang`: the kept one in English; in German the same grades worded
    /// again from the kept figures (once per state), with the moments each mark became gradable
    /// taken from the English one.
    fn verdict_in(&self, lang: Lang) -> &VerdictView {
        match lang {
            Lang::En => &self.verdict,
            Lang::De => self.german.get_or_init(|| {
                let (mut german, _) = crate::verdict::service::build_graded_in(
                    self.verdict.pilot.clone(),
                    &self.evidence,
                    &self.figures,
                    lang,
                );
                for (row, english) in german.rows.iter_mut().zip(&self.verdict.rows) {
                    row.gradable_since_ms = english.gradable_since_ms;
                }
                german
            }),
        }
    }

    /// The plan card as `role` sees it, made once per role.
    fn plan_for(&self, role: Role) -> PlanView {
        let mut plans = match self.plans.lock() {
            Ok(plans) => plans,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((_, plan)) = plans.iter().find(|(r, _)| *r == role) {
            return plan.clone();
        }
        let plan = crate::plans::plan_view(
            role,
            self.verdict.pilot.clone(),
            self.evidence.records.clone(),
            &self.figures,
            self.grade.clone(),
            Lang::En,
        );
        plans.push((role, plan.clone()));
        plan
    }
}
