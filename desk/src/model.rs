//! Data the pages and server functions exchange.
//!
//! These types cross the wire between the server and the hydrated browser, so they hold only
//! what a page may show: no password hashes, no session tokens.

use engine::account::{OrganisationKind, Role};
use engine::pilot::PilotStatus;
use serde::{Deserialize, Serialize};

/// The signed-in user, as every page and server function sees them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionUser {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub organisation_id: i64,
    pub organisation_name: String,
}

impl SessionUser {
    /// The name to greet the user with: their name, or their e-mail address when they have none.
    pub fn display_name(&self) -> &str {
        if self.name.trim().is_empty() {
            &self.email
        } else {
            &self.name
        }
    }
}

/// An organisation with how many users and pilots hang on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Organisation {
    pub id: i64,
    pub name: String,
    pub kind: OrganisationKind,
    pub created_ms: i64,
    pub users: i64,
    pub pilots: i64,
}

/// A user account as the admin pages list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserSummary {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub organisation_id: i64,
    pub organisation_name: String,
    pub disabled: bool,
    pub created_ms: i64,
}

/// A user account just created or reset, with the generated password shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IssuedPassword {
    pub user: UserSummary,
    /// Present when the server generated the password; shown once and never stored in clear.
    pub generated_password: Option<String>,
}

/// A pilot with its owning organisation's name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Pilot {
    pub id: i64,
    pub organisation_id: i64,
    pub organisation_name: String,
    pub name: String,
    pub description: String,
    pub status: PilotStatus,
    pub model: String,
    pub gpu_type: String,
    pub gpu_count: i64,
    pub engine: String,
    pub engine_version: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// When an admin archived the pilot (read-only from then on); `None`: active.
    #[serde(default)]
    pub archived_ms: Option<i64>,
}

impl Pilot {
    /// `4 × Tesla V100-SXM2-16GB`, or empty when not noted.
    pub fn hardware(&self) -> String {
        engine::pilot::hardware_summary(self.gpu_count, &self.gpu_type)
    }

    /// `vLLM 0.8.5`, or empty when not noted.
    pub fn serving(&self) -> String {
        format!("{} {}", self.engine.trim(), self.engine_version.trim())
            .trim()
            .to_string()
    }
}

/// What the pilot page needs: the pilot and whether the viewer may edit it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotView {
    pub pilot: Pilot,
    /// The viewer may change the pilot (an editor's role, and the pilot is not archived).
    pub can_edit: bool,
    /// What the viewer must know before reading any figure (evidence that does not read).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The viewer may archive or delete the pilot (admins).
    #[serde(default)]
    pub can_administer: bool,
}

/// A personal API token as its owner sees it (never the token itself, except once at creation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiToken {
    pub id: i64,
    pub name: String,
    /// The first characters of the token, to tell tokens apart.
    pub prefix: String,
    pub created_ms: i64,
    pub last_used_ms: Option<i64>,
    /// When the token stops working (it is refused from then on).
    pub expires_ms: i64,
}

/// A token just created: the secret is shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IssuedToken {
    pub token: ApiToken,
    pub secret: String,
}

/// What an evidence file is: which importer read it and which summary type its row keeps.
///
/// One enum rather than a string per module, so a misspelt kind fails to compile instead of
/// matching nothing. The snake_case names are the wire's and the `evidence.kind` column's
/// (serde, [`EvidenceKind::as_str`] and [`FromStr`](std::str::FromStr) all use them), so REST
/// clients and stored rows read as before. A stored row whose kind is none of these is left
/// out of what the store answers (see `store::evidence`), never a page's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// Load-test results (vllm bench serve, AIPerf, GenAI-Perf, guidellm).
    LoadTest,
    /// A gateway's per-request log.
    GatewayLog,
    /// A vLLM `/metrics` scrape.
    MetricsScrape,
    /// A vLLM start-up log (calibrates the sizing engine).
    VllmStartupLog,
    /// An evaluation set.
    EvalSet,
    /// A run over the evaluation set.
    EvalRun,
    /// lm-evaluation-harness results.
    LmEvalResults,
}

impl EvidenceKind {
    /// Every kind, in the order the importers try and the errors list them.
    pub const ALL: [EvidenceKind; 7] = [
        EvidenceKind::LoadTest,
        EvidenceKind::GatewayLog,
        EvidenceKind::MetricsScrape,
        EvidenceKind::VllmStartupLog,
        EvidenceKind::EvalSet,
        EvidenceKind::EvalRun,
        EvidenceKind::LmEvalResults,
    ];

    /// The wire and database name: `load_test`, `vllm_startup_log`, …
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::LoadTest => "load_test",
            EvidenceKind::GatewayLog => "gateway_log",
            EvidenceKind::MetricsScrape => "metrics_scrape",
            EvidenceKind::VllmStartupLog => "vllm_startup_log",
            EvidenceKind::EvalSet => "eval_set",
            EvidenceKind::EvalRun => "eval_run",
            EvidenceKind::LmEvalResults => "lm_eval_results",
        }
    }
}

impl std::fmt::Display for EvidenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`EvidenceKind`]; says which names are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEvidenceKind(pub String);

impl std::fmt::Display for UnknownEvidenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown evidence kind `{}` (this server reads: ", self.0)?;
        for (i, kind) in EvidenceKind::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(kind.as_str())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownEvidenceKind {}

impl std::str::FromStr for EvidenceKind {
    type Err = UnknownEvidenceKind;

    /// The exact wire name (`load_test`); anything else is refused naming the valid ones.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EvidenceKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == s)
            .ok_or_else(|| UnknownEvidenceKind(s.to_string()))
    }
}

/// An evidence file of a pilot (the raw bytes are kept on disk under its SHA-256).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceFile {
    pub id: i64,
    pub pilot_id: i64,
    /// What the file is.
    pub kind: EvidenceKind,
    pub file_name: String,
    pub sha256: String,
    pub size_bytes: i64,
    /// E-mail address of the uploader (empty when the account was deleted).
    pub uploaded_by: String,
    pub uploaded_ms: i64,
    /// When the file was withdrawn (it grades nothing until restored); `None`: in force.
    #[serde(default)]
    pub withdrawn_ms: Option<i64>,
}

/// The settings a vLLM start-up log is predicted with: what the log does not say itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalibrationSettings {
    pub model_id: String,
    pub weights: String,
    pub kv_dtype: String,
    pub gpu_id: String,
    pub tp: u32,
    pub pp: u32,
    pub context_tokens: u64,
    pub vllm_version: Option<String>,
    pub gpu_memory_utilization: Option<f64>,
}

/// What is stored for a start-up log: the figures read from it and the settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartupLogSummary {
    pub log: engine::sizing::StartupLog,
    pub settings: CalibrationSettings,
}

/// A stored start-up log with the vLLM memory model's prediction set against it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub evidence: EvidenceFile,
    pub summary: StartupLogSummary,
    /// The prediction compared with the log, or why no prediction could be made.
    pub comparison: Result<engine::sizing::Comparison, String>,
}

/// Where a catalog entry comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CatalogOrigin {
    /// The reviewed, sourced table shipped with Pilot Desk.
    Reviewed,
    /// A reviewed GPU whose figures an admin changed here.
    Edited,
    /// Added on this installation (a GPU by an admin, a model from a pasted config.json).
    Added,
}

/// A GPU of the sizing catalog with its prices, when set (staff-only: a customer's copy has
/// neither).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogGpu {
    pub spec: engine::sizing::GpuSpec,
    /// Price of one card (recommendations show cards × this).
    pub unit_price: Option<f64>,
    /// Price of running one card for an hour (cloud rate, or amortised): the production
    /// recommendation's cost per 1M tokens at the predicted operating point.
    #[serde(default)]
    pub hour_price: Option<f64>,
    pub origin: CatalogOrigin,
}

/// A model of the sizing catalog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogModel {
    pub spec: engine::sizing::ModelSpec,
    pub origin: CatalogOrigin,
}

/// A label for money: `Cost, EUR` with a currency, else `Cost` (prices are plain numbers until
/// an admin sets the currency).
pub fn with_currency(label: &str, currency: Option<&str>) -> String {
    match currency {
        Some(code) => format!("{label}, {code}"),
        None => label.to_string(),
    }
}

/// The catalogs the sizing pages work with: the reviewed tables plus this installation's
/// additions, edits and prices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct SizingCatalog {
    pub gpus: Vec<CatalogGpu>,
    pub models: Vec<CatalogModel>,
    /// The currency the prices are entered in (ISO 4217, e.g. `EUR`), when an admin has set
    /// one on the GPU catalog page; every cost shown names it.
    #[serde(default)]
    pub currency: Option<String>,
}

impl SizingCatalog {
    /// The reviewed tables alone (no prices).
    pub fn reviewed() -> SizingCatalog {
        SizingCatalog {
            gpus: engine::sizing::gpus()
                .into_iter()
                .map(|spec| CatalogGpu {
                    spec,
                    unit_price: None,
                    hour_price: None,
                    origin: CatalogOrigin::Reviewed,
                })
                .collect(),
            models: engine::sizing::models()
                .into_iter()
                .map(|spec| CatalogModel {
                    spec,
                    origin: CatalogOrigin::Reviewed,
                })
                .collect(),
            currency: None,
        }
    }

    /// A label for money in this catalog's currency: `Cost, EUR` (see [`with_currency`]).
    pub fn with_currency(&self, label: &str) -> String {
        with_currency(label, self.currency.as_deref())
    }

    pub fn gpu(&self, id: &str) -> Option<&CatalogGpu> {
        self.gpus.iter().find(|g| g.spec.id == id)
    }

    pub fn model(&self, id: &str) -> Option<&CatalogModel> {
        self.models.iter().find(|m| m.spec.id == id)
    }
}

/// One recorded report export.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportExport {
    pub id: i64,
    /// `web`, `cli` or `share`.
    pub via: String,
    /// `pdf` or `html`.
    pub format: String,
    pub lang: String,
    /// `customer` or `internal` (with prices, staff only).
    #[serde(default)]
    pub edition: String,
    pub plan_version: Option<i64>,
    pub sha256: String,
    pub size_bytes: i64,
    pub created_ms: i64,
    /// E-mail of who exported it (empty for the CLI, a share link or a deleted account).
    pub exported_by: String,
}

/// A read-only link to one pilot's report for a customer contact without an account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShareLink {
    pub id: i64,
    pub pilot_id: i64,
    /// Who it was made for (name or e-mail, free text).
    pub contact: String,
    pub lang: String,
    pub created_by: String,
    pub created_ms: i64,
    pub expires_ms: i64,
    pub revoked_ms: Option<i64>,
}

impl ShareLink {
    /// Whether the link opens the report at `now_ms`.
    pub fn is_active(&self, now_ms: i64) -> bool {
        self.revoked_ms.is_none() && now_ms < self.expires_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_kinds_keep_their_wire_names() {
        let names = [
            "load_test",
            "gateway_log",
            "metrics_scrape",
            "vllm_startup_log",
            "eval_set",
            "eval_run",
            "lm_eval_results",
        ];
        for (kind, name) in EvidenceKind::ALL.into_iter().zip(names) {
            assert_eq!(kind.as_str(), name);
            assert_eq!(kind.to_string(), name);
            assert_eq!(name.parse::<EvidenceKind>(), Ok(kind));
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<EvidenceKind>(&format!("\"{name}\"")).unwrap(),
                kind
            );
        }
        assert_eq!(
            "csv".parse::<EvidenceKind>().unwrap_err().to_string(),
            "unknown evidence kind `csv` (this server reads: load_test, gateway_log, \
             metrics_scrape, vllm_startup_log, eval_set, eval_run, lm_eval_results)"
        );
    }
}
