//! The report as PDF: the same HTML printed by headless Chromium.
//!
//! Chromium runs with a fresh profile in a temporary folder, no GPU, no background services and
//! every host name resolving nowhere, so printing cannot reach the network (the report has no
//! external URL anyway; this makes it certain). It is killed when the time limit passes.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long Chromium may take to print one report.
pub const PRINT_TIME_LIMIT: Duration = Duration::from_secs(60);

/// Why no PDF came out.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("could not prepare the print folder: {0}")]
    Io(#[from] std::io::Error),
    #[error("Chromium did not finish within {0} s")]
    TimedOut(u64),
    #[error("Chromium failed ({status}): {stderr}")]
    Failed { status: String, stderr: String },
    #[error("Chromium wrote no PDF")]
    NoOutput,
}

/// Chromium where Debian puts it, when `CHROMIUM_PATH` is not set.
pub fn find_chromium() -> Option<PathBuf> {
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| p.is_file())
}

/// Prints `html` to PDF with the Chromium at `chromium`, working in a fresh folder under
/// `scratch`.
pub async fn html_to_pdf(chromium: &Path, scratch: &Path, html: &str) -> Result<Vec<u8>, PdfError> {
    use rand::RngCore;
    let mut id = [0u8; 8];
    rand::thread_rng().fill_bytes(&mut id);
    let folder = scratch.join(format!("print-{}", hex::encode(id)));
    tokio::fs::create_dir_all(&folder).await?;
    let result = print(chromium, &folder, html).await;
    let _ = tokio::fs::remove_dir_all(&folder).await;
    result
}

async fn print(chromium: &Path, folder: &Path, html: &str) -> Result<Vec<u8>, PdfError> {
    let page = folder.join("report.html");
    let out = folder.join("report.pdf");
    tokio::fs::write(&page, html).await?;
    let mut command = tokio::process::Command::new(chromium);
    command
        .arg("--headless")
        .arg("--no-sandbox")
        .arg("--disable-gpu")
        .arg("--disable-dev-shm-usage")
        .arg("--disable-background-networking")
        .arg("--disable-component-update")
        .arg("--disable-sync")
        .arg("--disable-extensions")
        .arg("--no-first-run")
        .arg("--no-default-browser-check")
        .arg("--host-resolver-rules=MAP * ~NOTFOUND")
        .arg("--proxy-server=http://127.0.0.1:9")
        .arg("--no-pdf-header-footer")
        .arg(format!(
            "--user-data-dir={}",
            folder.join("profile").display()
        ))
        .arg(format!("--print-to-pdf={}", out.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    let child = command.spawn()?;
    let output = match tokio::time::timeout(PRINT_TIME_LIMIT, child.wait_with_output()).await {
        Ok(output) => output?,
        Err(_) => return Err(PdfError::TimedOut(PRINT_TIME_LIMIT.as_secs())),
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: String = stderr.lines().rev().take(5).collect::<Vec<_>>().join(" | ");
        return Err(PdfError::Failed {
            status: output.status.to_string(),
            stderr: tail,
        });
    }
    let bytes = tokio::fs::read(&out)
        .await
        .map_err(|_| PdfError::NoOutput)?;
    if !bytes.starts_with(b"%PDF") {
        return Err(PdfError::NoOutput);
    }
    Ok(bytes)
}
