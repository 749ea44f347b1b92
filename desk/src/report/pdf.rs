//! The report as PDF: the same HTML printed by headless Chromium.
//!
//! The report has no script and no external URL (a test checks); printing must not depend on
//! that staying true, because a report shows text customers and staff typed. So Chromium:
//!
//! * runs with a fresh profile in a private temporary folder, no GPU, no background services;
//! * runs no JavaScript and loads nothing but the page: the page is a file in that folder (a
//!   command-line `data:` URL is limited to 128 KiB, less than a report with charts), written
//!   with a Content-Security-Policy `<meta>` right after its doctype, before anything else, that
//!   allows inline style and `data:` images only ([`PRINT_POLICY`]). Without it a
//!   `<script>` would run and `<iframe src="file:///etc/passwd">` would print that file into
//!   the PDF (both tried); with it neither happens. (`--blink-settings=scriptEnabled=false`
//!   would be the switch, but Chromium's headless printing then writes no PDF at all.)
//! * reaches no network: every host name resolves nowhere, every request goes to a proxy on a
//!   closed port, and `<-loopback>` takes loopback addresses (127.0.0.1, localhost, [::1]) off
//!   Chromium's implicit proxy bypass, so they go to the dead proxy too;
//! * is killed when [`PRINT_TIME_LIMIT`] passes.
//!
//! At most [`PRINT_SLOTS`] prints run at once (each Chromium takes about 200 MB); a print that
//! cannot start within [`PRINT_QUEUE_WAIT`] is refused as busy, so share links cannot pile up
//! Chromium processes.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long Chromium may take to print one report.
pub const PRINT_TIME_LIMIT: Duration = Duration::from_secs(60);

/// Prints running at once, in this server process.
pub const PRINT_SLOTS: usize = 2;

/// How long a print waits for a free slot before it is refused as busy.
pub const PRINT_QUEUE_WAIT: Duration = Duration::from_secs(20);

static PRINTS: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(PRINT_SLOTS));

/// What the printed page may load: its own inline style and `data:` images, nothing else.
pub const PRINT_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

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
    #[error("{PRINT_SLOTS} reports are being printed already")]
    Busy,
}

/// `html` with [`PRINT_POLICY`] as its first element: right after the doctype (before it would
/// switch the page into quirks mode), so it applies before any markup of the report is parsed.
/// The parser opens the `<head>` for it; the report's own `<html>` and `<head>` tags then merge
/// into those.
pub fn with_print_policy(html: &str) -> String {
    let meta = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{PRINT_POLICY}\">");
    let doctype_end = html
        .get(..9)
        .filter(|start| start.eq_ignore_ascii_case("<!doctype"))
        .and_then(|_| html.find('>'))
        .map_or(0, |end| end + 1);
    format!("{}{meta}{}", &html[..doctype_end], &html[doctype_end..])
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
    let _slot = tokio::time::timeout(PRINT_QUEUE_WAIT, PRINTS.acquire())
        .await
        .map_err(|_| PdfError::Busy)?
        .map_err(|_| PdfError::Busy)?;
    let mut id = [0u8; 8];
    rand::thread_rng().fill_bytes(&mut id);
    let folder = scratch.join(format!("print-{}", hex::encode(id)));
    tokio::fs::create_dir_all(&folder).await?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tokio::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).await?;
    }
    let result = print(chromium, &folder, html).await;
    let _ = tokio::fs::remove_dir_all(&folder).await;
    result
}

async fn print(chromium: &Path, folder: &Path, html: &str) -> Result<Vec<u8>, PdfError> {
    let page = folder.join("report.html");
    let out = folder.join("report.pdf");
    tokio::fs::write(&page, with_print_policy(html)).await?;
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
        .arg("--proxy-bypass-list=<-loopback>")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_print_policy_comes_right_after_the_doctype() {
        let html = with_print_policy("<!DOCTYPE html><html><head><title>x</title></head></html>");
        assert!(html.starts_with(
            "<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
        ));
        assert!(html.ends_with("><html><head><title>x</title></head></html>"));
        assert!(with_print_policy("<script>x</script>").starts_with("<meta http-equiv"));
    }
}
