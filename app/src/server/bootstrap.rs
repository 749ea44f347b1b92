//! The first start: an admin account and, unless turned off, a demo pilot.
//!
//! The demo pilot is the deployment of the benchmark report in `shared/seeds/` (Qwen2.5-7B-Instruct
//! served by vLLM 0.8.5 with tensor parallelism 4 on four Tesla V100-SXM2-16GB), so a newcomer
//! opens a populated app. It is created only together with the first admin, so deleting it later
//! does not bring it back.

use super::accounts::{create_account, staff_organisation};
use super::store::Store;
use crate::error::AppError;
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

/// Creates the staff organisation, and on an empty database the first admin (random password)
/// and, when `demo` is set, the demo customer and pilot. Returns what it created on a first
/// start, `None` otherwise.
pub async fn first_start(store: &Store, demo: bool) -> Result<Option<FirstStart>, AppError> {
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
        Some(
            store
                .create_pilot(customer, &demo_pilot_fields(), Some(admin.user.id))
                .await?,
        )
    } else {
        None
    };
    Ok(Some(FirstStart {
        admin_email: admin.user.email,
        admin_password: admin.generated_password.unwrap_or_default(),
        demo_pilot,
    }))
}
