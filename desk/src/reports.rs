//! The report page's server functions: what can be exported, the export record, and share
//! links (sales and assessors create and revoke them; customers with accounts read the report
//! in their portal instead).

use crate::model::{Pilot, ReportExport, ShareLink};
use serde::{Deserialize, Serialize};

/// What the report page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportPageData {
    pub pilot: Pilot,
    /// Whether this server can print PDFs (Chromium found).
    pub pdf_available: bool,
    /// Staff may create share links and see the export record.
    pub can_share: bool,
    pub exports: Vec<ReportExport>,
    pub links: Vec<ShareLink>,
    pub now_ms: i64,
}

/// A share link just created: the path with its token, shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedShareLink {
    pub path: String,
    pub link: ShareLink,
}
