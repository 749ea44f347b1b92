//! The pilot report: one self-contained HTML document designed for print (A4), and its PDF.
//!
//! Why one HTML document: customers read it in a browser, sales engineers send it as PDF, and the
//! two must never disagree. So the report is rendered once, by an askama template, with inline
//! CSS and inline SVG charts, no scripts and no external URL (a test checks), and the PDF is that
//! same document printed by headless Chromium ([`pdf`]). askama escapes every value by default;
//! the only unescaped inserts are the chart SVGs, which plotters builds from numbers and escapes
//! its own text.
//!
//! [`model`] gathers and pre-formats everything (numbers per [`locale::Lang`]), so the template
//! holds layout only.

pub mod blocks;
pub mod locale;
pub mod model;
pub mod pdf;
pub mod recommendation;
pub mod share;
pub mod twin;

pub use locale::Lang;
pub use model::{ReportModel, build_report};

/// Who a report is for. Query and CLI names: `customer`, `internal`.
///
/// The customer edition (the default, and all a customer or a share link can get) carries no
/// price. The internal edition is for staff (sales engineers quoting hardware): the production
/// recommendation adds each configuration's cost (cards × unit price) and, where the capacity
/// twin predicts the operating point, the cost per 1M output and input tokens at the production
/// rate, with its working; its title page and running header say it is internal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Edition {
    #[default]
    Customer,
    Internal,
}

impl Edition {
    /// `customer` / `internal` (any case; empty is the customer edition); `None` otherwise.
    pub fn parse(text: &str) -> Option<Edition> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "customer" => Some(Edition::Customer),
            "internal" => Some(Edition::Internal),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Edition::Customer => "customer",
            Edition::Internal => "internal",
        }
    }

    /// Whether prices and costs are shown.
    pub fn priced(self) -> bool {
        self == Edition::Internal
    }
}

use askama::Template;
use locale::LangLabels;

#[derive(Template)]
#[template(path = "report.html")]
struct ReportTemplate<'a> {
    r: &'a ReportModel,
    t: &'static locale::Labels,
    running_header: String,
}

/// Renders the report's HTML.
pub fn render_html(report: &ReportModel) -> Result<String, askama::Error> {
    ReportTemplate {
        r: report,
        t: report.lang.labels(),
        running_header: css_string(&match &report.internal_note {
            Some(_) => format!(
                "{} · {} · {}",
                report.pilot_name,
                report.customer,
                report.lang.labels().internal_edition
            ),
            None => format!("{} · {}", report.pilot_name, report.customer),
        }),
    }
    .render()
}

/// `text` as the inside of a CSS string: everything but letters and digits as a hex escape, so
/// a pilot name can never end the string, the rule or the `<style>` element. Spaces are escaped
/// too: CSS swallows one white-space character after a hex escape, so a literal space after
/// `\00003a` would vanish (`Support assistant:Qwen…`).
pub fn css_string(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(120) {
        if c.is_alphanumeric() {
            out.push(c);
        } else {
            out.push_str(&format!("\\{:06x}", c as u32));
        }
    }
    out
}

/// Who reads a report: someone signed in (staff, or the pilot's customer), or anyone holding a
/// share link, who sees no staff address and no internal reason for a withdrawal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    SignedIn,
    ShareLink,
}

/// Pilot `pilot`'s report as HTML, as of now, with the plan version it was graded against.
/// The caller has checked that its user may have `edition`.
pub async fn report_html(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    lang: Lang,
    edition: Edition,
) -> Result<(String, Option<u32>), crate::ServiceError> {
    let document = Document {
        lang,
        edition,
        reader: Reader::SignedIn,
        pdf: false,
    };
    html_for(services, pilot, document).await
}

/// The customer edition of `pilot`'s report as the share link `token` shows it: with a link to
/// its PDF at `/share/{token}/report.pdf`.
pub async fn shared_report_html(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    lang: Lang,
    token: &str,
) -> Result<String, crate::ServiceError> {
    let mut model = build_report(
        services,
        pilot,
        lang,
        Edition::Customer,
        Reader::ShareLink,
        crate::store::now_ms(),
    )
    .await?;
    model.pdf_link = Some(format!("/share/{token}/report.pdf"));
    render_html(&model).map_err(|e| {
        tracing::error!(error = %e, "report template failed");
        crate::ServiceError::Internal
    })
}

/// A rendered report, as exported.
pub struct Rendered {
    pub bytes: Vec<u8>,
    pub sha256: String,
    pub plan_version: Option<u32>,
}

/// Which document: its language, edition and reader, and HTML or PDF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Document {
    pub lang: Lang,
    pub edition: Edition,
    pub reader: Reader,
    pub pdf: bool,
}

/// Renders pilot `pilot`'s report as `document` and records the export: who (`exported_by`,
/// none for the CLI or a share link), how (`via`: `web`, `cli` or `share`), the plan version
/// and the file's SHA-256. The PDF comes from [`printed`], so an unchanged pilot is printed once.
pub async fn export(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    document: Document,
    exported_by: Option<i64>,
    via: &str,
) -> Result<Rendered, crate::ServiceError> {
    let pilot_id = pilot.id;
    let rendered = if document.pdf {
        printed(services, pilot, document).await?
    } else {
        let (html, plan_version) = html_for(services, pilot, document).await?;
        rendered(html.into_bytes(), plan_version)
    };
    services
        .store
        .record_export(&crate::store::reports::NewExport {
            pilot_id,
            exported_by,
            via,
            format: if document.pdf { "pdf" } else { "html" },
            lang: document.lang.code(),
            edition: document.edition.code(),
            plan_version: rendered.plan_version,
            sha256: &rendered.sha256,
            size_bytes: rendered.bytes.len() as i64,
        })
        .await?;
    Ok(rendered)
}

/// The report's HTML for `document` (its `pdf` ignored), with the plan version it graded.
async fn html_for(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    document: Document,
) -> Result<(String, Option<u32>), crate::ServiceError> {
    let model = build_report(
        services,
        pilot,
        document.lang,
        document.edition,
        document.reader,
        crate::store::now_ms(),
    )
    .await?;
    let html = render_html(&model).map_err(|e| {
        tracing::error!(error = %e, "report template failed");
        crate::ServiceError::Internal
    })?;
    Ok((html, model.plan_version_number))
}

fn rendered(bytes: Vec<u8>, plan_version: Option<u32>) -> Rendered {
    use sha2::{Digest, Sha256};
    Rendered {
        sha256: hex::encode(Sha256::digest(&bytes)),
        bytes,
        plan_version,
    }
}

/// How many printed PDFs an instance keeps under `DATA_DIR/exports/`.
pub const KEPT_PDFS: usize = 64;

/// The report of `pilot` as a PDF (`document.pdf` is taken as set), without recording an
/// export: printed by Chromium, or the copy printed earlier for the same state of the pilot.
///
/// Why kept: printing takes Chromium seconds (tens of seconds for a pilot with about 90 files),
/// and the report only changes with the pilot's inputs. The copy is named by the pilot row,
/// [`crate::store::Store::pilot_revision`] (evidence, plan, evaluation sets, catalog) and the
/// document's language, edition and reader, so a copy is never stale; it shows the time it was
/// printed. A `GET` of the PDF reads or fills this cache and changes nothing else; recording
/// an export is [`export`]'s, for a `POST`.
pub async fn printed(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    document: Document,
) -> Result<Rendered, crate::ServiceError> {
    use crate::ServiceError;
    let Some(chromium) = services.chromium.clone() else {
        return Err(ServiceError::unavailable_in(
            "PDF export is off on this server: install Chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH, then restart. The HTML report prints to PDF from any browser meanwhile.",
            "Der PDF-Export ist auf diesem Server aus: Installieren Sie Chromium (Debian: apt-get install chromium) oder setzen Sie CHROMIUM_PATH, dann starten Sie neu. Der HTML-Bericht lässt sich bis dahin aus jedem Browser als PDF drucken.",
        ));
    };
    let folder = services.data_dir.join("exports");
    let key = pdf_key(services, &pilot, document).await?;
    let path = folder.join(format!("{key}.pdf"));
    let plan_version = services
        .store
        .plan_in_force(pilot.id)
        .await?
        .map(|record| record.number);
    if let Ok(bytes) = tokio::fs::read(&path).await {
        return Ok(rendered(bytes, plan_version));
    }
    let (html, plan_version) = html_for(services, pilot, document).await?;
    let bytes = pdf::html_to_pdf(&chromium, &services.data_dir.join("tmp"), &html)
        .await
        .map_err(|e| match e {
            pdf::PdfError::Busy => ServiceError::Busy(pdf::PRINT_QUEUE_WAIT.as_secs() / 2),
            e => {
                tracing::error!(error = %e, "printing the report failed");
                ServiceError::unavailable_in(
                    format!("The PDF could not be printed: {e}"),
                    format!("Das PDF ließ sich nicht drucken: {e}"),
                )
            }
        })?;
    keep_pdf(&folder, &path, &bytes).await;
    Ok(rendered(bytes, plan_version))
}

/// The name a printed PDF is kept under: SHA-256 of the pilot's state and the document.
async fn pdf_key(
    services: &crate::Services,
    pilot: &crate::model::Pilot,
    document: Document,
) -> Result<String, crate::ServiceError> {
    use sha2::{Digest, Sha256};
    let revision = services.store.pilot_revision(pilot.id).await?;
    let row = serde_json::to_string(pilot).map_err(|_| crate::ServiceError::Internal)?;
    let name = format!(
        "{}|{revision}|{row}|{}|{}|{:?}",
        env!("CARGO_PKG_VERSION"),
        document.lang.code(),
        document.edition.code(),
        document.reader
    );
    Ok(hex::encode(Sha256::digest(name.as_bytes())))
}

/// Keeps a printed PDF (written whole, then renamed), and removes the oldest beyond
/// [`KEPT_PDFS`]. Failures only cost a later print, so they are logged.
async fn keep_pdf(folder: &std::path::Path, path: &std::path::Path, bytes: &[u8]) {
    let temp = path.with_extension(format!("{:016x}.part", rand::random::<u64>()));
    let kept = async {
        tokio::fs::create_dir_all(folder).await?;
        tokio::fs::write(&temp, bytes).await?;
        tokio::fs::rename(&temp, path).await
    }
    .await;
    if let Err(error) = kept {
        let _ = tokio::fs::remove_file(&temp).await;
        tracing::warn!(%error, "a printed report was not kept");
        return;
    }
    let Ok(mut entries) = tokio::fs::read_dir(folder).await else {
        return;
    };
    let mut pdfs = Vec::new();
    while let Ok(Some(entry)) = entries.next_entry().await {
        let modified = entry.metadata().await.and_then(|m| m.modified());
        if let Ok(modified) = modified
            && entry.file_name().to_string_lossy().ends_with(".pdf")
        {
            pdfs.push((modified, entry.path()));
        }
    }
    pdfs.sort();
    let excess = pdfs.len().saturating_sub(KEPT_PDFS);
    for (_, old) in pdfs.into_iter().take(excess) {
        let _ = tokio::fs::remove_file(old).await;
    }
}

#[cfg(test)]
mod tests {
    use super::css_string;

    #[test]
    fn a_css_string_keeps_its_spaces_and_cannot_end_the_string() {
        assert_eq!(css_string("a: b"), "a\\00003a\\000020b");
        assert_eq!(
            css_string("x\";}</style>"),
            "x\\000022\\00003b\\00007d\\00003c\\00002fstyle\\00003e"
        );
    }
}
