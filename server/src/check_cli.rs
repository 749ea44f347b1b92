//! `server check [--json]`: verifies the store of `DATABASE_URL` / `DATA_DIR` (see
//! [`desk::store_check`]): every evidence row and staged upload has its whole raw file, no raw
//! file is left that nothing names, every summary reads. Prints what it found; exits 1 when
//! there is a fault, so scripts and the race tests can rely on it.

use crate::outln;
use desk::store_check::{self, StoreCheck};

/// The options of `server check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Print the result as JSON (`ok`, `evidence_rows`, `staged_uploads`, `files`, `faults`)
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: &CheckArgs, config: &crate::config::Config) -> anyhow::Result<()> {
    let store = crate::open_store(config).await?;
    let services = crate::services(config, store);
    let check = store_check::check(&services)
        .await
        .map_err(|e| anyhow::anyhow!("the store could not be checked: {e}"))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&check)?);
    } else {
        print_check(&check);
    }
    if check.ok {
        Ok(())
    } else {
        anyhow::bail!("{} fault(s) in the store", check.faults.len())
    }
}

fn print_check(check: &StoreCheck) {
    let files_in = match check.files_in {
        "database" => "in the database",
        _ => "under DATA_DIR/evidence",
    };
    outln!(
        "{} evidence row(s), {} staged upload(s), {} raw file(s) {files_in}",
        check.evidence_rows,
        check.staged_uploads,
        check.files
    );
    if check.ok {
        outln!("OK: every row has its whole raw file, every file is named, every summary reads.");
        return;
    }
    for fault in &check.faults {
        let kind = serde_json::to_value(fault.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        outln!("FAULT {kind}: {}: {}", fault.subject, fault.detail);
    }
}
