//! The first start: an admin account and, unless turned off, a demo pilot.
//!
//! The demo pilot is the deployment of the benchmark report in `shared/seeds/` (Qwen2.5-7B-Instruct
//! served by vLLM 0.8.5 with tensor parallelism 4 on four Tesla V100-SXM2-16GB), so a newcomer
//! opens a populated app; the pilot gets an approved plan (the MLPerf v6.0 Interactive pass marks
//! on its serving configuration). It is created only together with the first admin, so deleting
//! it later does not bring it back.

use super::accounts::{create_account, staff_organisation};
use super::store::Store;
use crate::ServiceError;
use engine::account::{OrganisationKind, Role};
use engine::pilot::{PilotFields, PilotStatus};

/// E-mail address of the admin account created on first start.
pub const FIRST_ADMIN_EMAIL: &str = "admin@pilotdesk.local";
/// Name of the demo customer organisation.
pub const DEMO_ORGANISATION: &str = "Demo Customer";

/// What the first start created, for the console.
#[derive(Debug, Clone)]
pub struct FirstStart {
    pub admin_email: String,
    /// The generated admin password, printed once.
    pub admin_password: String,
    pub demo_pilot: Option<i64>,
    /// The first admin's user id.
    pub admin_id: i64,
}

/// Evidence files of the demo pilot that need the data folder (called once the services exist,
/// after [`first_start`]): a synthetic working week of gateway traffic, stored as a gateway-log
/// upload is, so the traffic page has a demand profile from the start.
pub async fn seed_demo_evidence(
    services: &super::Services,
    first: &FirstStart,
) -> Result<(), ServiceError> {
    if let Some(pilot) = first.demo_pilot {
        crate::traffic::service::seed_demo_traffic(services, pilot, first.admin_id).await?;
        crate::load_tests::service::seed_demo_load_test(services, pilot, first.admin_id).await?;
        crate::quality::service::seed_demo_quality(services, pilot, first.admin_id).await?;
    }
    Ok(())
}

/// The demo pilot's fields.
pub fn demo_pilot_fields() -> PilotFields {
    PilotFields {
        name: "Support assistant: Qwen2.5-7B on 4× V100".into(),
        description: "Interactive support chat on a private Qwen2.5-7B-Instruct, served by vLLM \
                      (KServe on OpenShift AI) with tensor parallelism 4, FP16 weights, prefix \
                      caching and CUDA graphs off, 8,192-token context. Load-tested with ShareGPT \
                      conversations; the question is how many concurrent users one replica \
                      serves within the pass marks, and what production needs."
            .into(),
        status: PilotStatus::Reporting,
        model: "RedHatAI/Qwen2.5-7B-Instruct".into(),
        gpu_type: "Tesla V100-SXM2-16GB".into(),
        gpu_count: 4,
        engine: "vLLM".into(),
        engine_version: "0.8.5".into(),
    }
}

/// The demo pilot's plan: the MLPerf Inference v6.0 Interactive limits (TTFT p99 ≤ 450 ms and
/// TPOT p99 ≤ 40 ms at the client, as a load generator measures them, graded at the planned peak
/// of 8 requests in flight; 40 pilot users, 400 in production) on the pilot's serving
/// configuration (vLLM 0.8.5, 4× Tesla V100-SXM2-16GB, FP16, tensor parallelism 4, prefix caching
/// and CUDA graphs off).
pub fn demo_plan_content() -> engine::plan::PlanContent {
    let mut content = engine::plan::templates::by_id("mlperf-v6-llama2-70b-interactive")
        .map(|t| t.content())
        .unwrap_or_default();
    content.demand = engine::plan::DemandAssumptions {
        pilot_users: Some(40),
        production_users: Some(400),
        peak_arrival_rate_req_s: None,
        context_tokens_per_request: None,
        planned_peak_concurrency: Some(8),
    };
    content.serving = engine::plan::PilotServing {
        engine: "vLLM".into(),
        engine_version: "0.8.5".into(),
        gpu: "Tesla V100-SXM2-16GB".into(),
        precision: "FP16".into(),
        kv_cache_dtype: "auto".into(),
        tensor_parallel: Some(4),
        max_num_batched_tokens: None,
        prefix_caching: Some(false),
        cuda_graphs: Some(false),
    };
    content
}

/// Gives the demo pilot its plan, approved by the first admin, so the plan pages, the pilot's
/// pass marks and `GET /api/v1/pilots/{id}/plan` have something to show from the start.
async fn demo_plan(
    store: &Store,
    pilot: i64,
    admin: i64,
    admin_name: &str,
) -> Result<(), ServiceError> {
    use super::store::now_ms;
    use engine::plan::{Approver, PlanVersion};
    let mut version = PlanVersion::first_draft(demo_plan_content(), now_ms());
    store
        .insert_plan_version(pilot, &version, Some(admin))
        .await?;
    let at = now_ms();
    version
        .approve(
            &Approver {
                user_id: admin,
                name: admin_name.to_string(),
                role: Role::Admin,
            },
            at,
        )
        .map_err(|e| {
            tracing::error!(error = %e, "the demo plan does not validate");
            ServiceError::Internal
        })?;
    store
        .approve_plan_version(pilot, version.number, 1, admin, at)
        .await?;
    Ok(())
}

/// Creates the staff organisation, and on an empty database the first admin (random password)
/// and, when `demo` is set, the demo customer and pilot. Returns what it created on a first
/// start, `None` otherwise.
pub async fn first_start(store: &Store, demo: bool) -> Result<Option<FirstStart>, ServiceError> {
    let staff = staff_organisation(store).await?;
    if store.count_users().await? > 0 {
        return Ok(None);
    }
    let admin = create_account(
        store,
        FIRST_ADMIN_EMAIL,
        "Administrator",
        Role::Admin,
        staff,
        None,
    )
    .await?;
    let demo_pilot = if demo {
        let customer = match store.organisation_by_name(DEMO_ORGANISATION).await? {
            Some((id, _)) => id,
            None => {
                store
                    .create_organisation(DEMO_ORGANISATION, OrganisationKind::Customer)
                    .await?
            }
        };
        let pilot = store
            .create_pilot(customer, &demo_pilot_fields(), Some(admin.user.id))
            .await?;
        demo_plan(store, pilot, admin.user.id, &admin.user.name).await?;
        Some(pilot)
    } else {
        None
    };
    Ok(Some(FirstStart {
        admin_email: admin.user.email,
        admin_password: admin.generated_password.unwrap_or_default(),
        demo_pilot,
        admin_id: admin.user.id,
    }))
}
