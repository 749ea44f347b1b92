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

/// Pilot `pilot`'s report as HTML, as of now, with the plan version it was graded against.
/// The caller has checked that its user may have `edition`.
pub async fn report_html(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    lang: Lang,
    edition: Edition,
) -> Result<(String, Option<u32>), crate::ServiceError> {
    let model = build_report(services, pilot, lang, edition, crate::store::now_ms()).await?;
    let html = render_html(&model).map_err(|e| {
        tracing::error!(error = %e, "report template failed");
        crate::ServiceError::Internal
    })?;
    Ok((html, model.plan_version_number))
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

/// Renders pilot `pilot`'s report as HTML (`pdf = false`) or PDF and records the export.
/// `exported_by` is the user (none for the CLI or a share link), `via` is `web`, `cli` or `share`.
pub async fn export(
    services: &crate::Services,
    pilot: crate::model::Pilot,
    lang: Lang,
    edition: Edition,
    pdf: bool,
    exported_by: Option<i64>,
    via: &str,
) -> Result<Rendered, crate::ServiceError> {
    use crate::ServiceError;
    use sha2::{Digest, Sha256};
    let pilot_id = pilot.id;
    let (html, plan_version) = report_html(services, pilot, lang, edition).await?;
    let bytes = if pdf {
        let Some(chromium) = &services.chromium else {
            return Err(ServiceError::Unavailable(
                "PDF export is off on this server: install Chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH, then restart. The HTML report prints to PDF from any browser meanwhile.".into(),
            ));
        };
        pdf::html_to_pdf(chromium, &services.data_dir.join("tmp"), &html)
            .await
            .map_err(|e| match e {
                pdf::PdfError::Busy => ServiceError::Busy(pdf::PRINT_QUEUE_WAIT.as_secs() / 2),
                e => {
                    tracing::error!(error = %e, "printing the report failed");
                    ServiceError::Unavailable(format!("The PDF could not be printed: {e}"))
                }
            })?
    } else {
        html.into_bytes()
    };
    let sha256 = hex::encode(Sha256::digest(&bytes));
    services
        .store
        .record_export(&crate::store::reports::NewExport {
            pilot_id,
            exported_by,
            via,
            format: if pdf { "pdf" } else { "html" },
            lang: lang.code(),
            edition: edition.code(),
            plan_version,
            sha256: &sha256,
            size_bytes: bytes.len() as i64,
        })
        .await?;
    Ok(Rendered {
        bytes,
        sha256,
        plan_version,
    })
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
