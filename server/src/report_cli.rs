//! `server report --pilot <id> [--lang de] [--edition internal] (--pdf out.pdf | --html out.html)`:
//! the pilot report
//! exported from the database that `DATABASE_URL` / `DATA_DIR` name, for scripted exports.
//! The export is recorded like one from the web (via `cli`, no user).

use crate::outln;
use anyhow::Context;
use desk::report::{Edition, Lang};
use std::path::PathBuf;

/// What to export.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("output").required(true).args(["pdf", "html"])))]
pub struct ReportArgs {
    /// The pilot's id (as in /pilots/<id>)
    #[arg(long)]
    pub pilot: i64,
    /// Report language: en or de
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// customer (no prices) or internal (the recommendation with unit and operating-point
    /// costs, for staff)
    #[arg(long, default_value = "customer")]
    pub edition: String,
    /// Write the PDF here (needs Chromium: CHROMIUM_PATH or Debian's chromium)
    #[arg(long, value_name = "FILE")]
    pub pdf: Option<PathBuf>,
    /// Write the self-contained HTML here
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Runs the export against the configured database.
pub async fn run(args: &ReportArgs, config: &crate::config::Config) -> anyhow::Result<()> {
    let lang = Lang::parse(&args.lang).ok_or_else(|| {
        anyhow::anyhow!("--lang: `{}` is not a report language (en, de)", args.lang)
    })?;
    let edition = Edition::parse(&args.edition).ok_or_else(|| {
        anyhow::anyhow!(
            "--edition: `{}` is not a report edition (customer, internal)",
            args.edition
        )
    })?;
    let store = crate::open_store(config).await?;
    let services = crate::services(config, store.clone());
    let pilot = store
        .pilot(args.pilot)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .ok_or_else(|| anyhow::anyhow!("--pilot: no pilot {}", args.pilot))?;
    let name = pilot.name.clone();
    let (pdf, path) = match (&args.pdf, &args.html) {
        (Some(path), _) => (true, path),
        (None, Some(path)) => (false, path),
        (None, None) => unreachable!("clap requires --pdf or --html"),
    };
    let document = desk::report::Document {
        lang,
        edition,
        reader: desk::report::Reader::SignedIn,
        pdf,
    };
    let rendered = desk::report::export(&services, pilot, document, None, "cli")
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::write(path, &rendered.bytes).with_context(|| format!("writing {}", path.display()))?;
    outln!(
        "Wrote the {} report of “{name}” ({} bytes, plan version {}, SHA-256 {}) to {}.",
        if pdf { "PDF" } else { "HTML" },
        rendered.bytes.len(),
        rendered
            .plan_version
            .map(|v| v.to_string())
            .unwrap_or_else(|| "none approved".into()),
        rendered.sha256,
        path.display()
    );
    Ok(())
}
