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
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many pilots' overviews an instance keeps (each holds the pilot's gathered evidence).
pub const KEPT_OVERVIEWS: usize = 32;

/// The overviews an instance keeps, by pilot and state; part of [`Services`].
#[derive(Clone, Default)]
pub struct KeptOverviews(Arc<Mutex<VecDeque<Arc<Basis>>>>);

impl std::fmt::Debug for KeptOverviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.0.lock().map(|kept| kept.len()).unwrap_or(0);
        write!(f, "KeptOverviews({kept} kept)")
    }
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
}

impl KeptOverviews {
    fn find(&self, pilot_id: i64, state: &str) -> Option<Arc<Basis>> {
        let kept = self.0.lock().ok()?;
        kept.iter()
            .find(|b| b.pilot_id == pilot_id && b.state == state)
            .cloned()
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

/// The overview of `pilot` (visibility checked by the caller) as `user` sees it.
pub async fn overview(
    services: &Services,
    user: &SessionUser,
    pilot: Pilot,
) -> Result<PilotPageData, ServiceError> {
    let basis = basis(services, &pilot).await?;
    let mut verdict = basis.verdict.clone();
    verdict.can_edit = user.role.is_staff();
    Ok(PilotPageData {
        pilot: PilotView {
            can_edit: user.role.can_edit_pilots() && pilot.archived_ms.is_none(),
            can_administer: user.role.can_manage_accounts(),
            warnings: basis.unreadable.iter().cloned().collect(),
            pilot,
        },
        verdict,
        plan: basis.plan_for(user.role),
        decision: basis.evidence.quality.as_ref().map(|q| q.decision.clone()),
        recommendation: crate::capacity::headline(&basis.headline),
    })
}

/// The kept basis of the pilot's current state, made when there is none.
async fn basis(services: &Services, pilot: &Pilot) -> Result<Arc<Basis>, ServiceError> {
    let state = state_of(services, pilot).await?;
    if let Some(basis) = services.overviews.find(pilot.id, &state) {
        return Ok(basis);
    }
    let evidence = crate::pilot_evidence::gather(services, pilot.id).await?;
    let figures = evidence.figures();
    let (verdict, grade) =
        crate::verdict::service::build_graded(pilot.clone(), &evidence, &figures);
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
    });
    services.overviews.keep(basis.clone());
    Ok(basis)
}

/// The pilot's state: its row and [`crate::store::Store::pilot_revision`].
async fn state_of(services: &Services, pilot: &Pilot) -> Result<String, ServiceError> {
    let row = serde_json::to_string(pilot).map_err(|error| {
        tracing::error!(%error, "a pilot does not serialise");
        ServiceError::Internal
    })?;
    let revision = services.store.pilot_revision(pilot.id).await?;
    Ok(format!("{revision}{row}"))
}

impl Basis {
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
        );
        plans.push((role, plan.clone()));
        plan
    }
}
