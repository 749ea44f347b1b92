//! `server evidence list|withdraw|restore --pilot N [--id E] [--reason TEXT]`: the evidence
//! register of a pilot from the database `DATABASE_URL` / `DATA_DIR` name, and withdrawing or
//! restoring one file, exactly as the evidence page and the REST API do (the same service,
//! the same checks; the history records `command line` as who did it).

use crate::outln;
use desk::evidence_history::service::{self as history, Actor, StatusStep};
use desk::evidence_history::{EvidenceEntry, EvidenceStatus};

/// What to do with a pilot's evidence.
#[derive(clap::Subcommand, Debug)]
pub enum EvidenceCommand {
    /// Every file of the pilot with its status and history
    List(Target),
    /// Withdraw a file: it grades nothing until restored (--id and --reason required)
    Withdraw(Target),
    /// Restore a withdrawn file (--id and --reason required)
    Restore(Target),
}

/// Which pilot and file.
#[derive(clap::Args, Debug)]
pub struct Target {
    /// The pilot's id (as in /pilots/<id>)
    #[arg(long)]
    pub pilot: i64,
    /// The evidence file's id (as `server evidence list` shows it)
    #[arg(long)]
    pub id: Option<i64>,
    /// Why (kept in the file's history and shown in the report)
    #[arg(long)]
    pub reason: Option<String>,
    /// Print JSON (the REST API's objects)
    #[arg(long)]
    pub json: bool,
}

pub async fn run(command: &EvidenceCommand, config: &crate::config::Config) -> anyhow::Result<()> {
    let store = crate::open_store(config).await?;
    let services = crate::services(config, store.clone());
    let target = match command {
        EvidenceCommand::List(t) | EvidenceCommand::Withdraw(t) | EvidenceCommand::Restore(t) => t,
    };
    let pilot = store
        .pilot(target.pilot)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .ok_or_else(|| anyhow::anyhow!("--pilot: no pilot {}", target.pilot))?;
    if let EvidenceCommand::List(_) = command {
        let register = history::register(&services, &pilot, true)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        if target.json {
            outln!("{}", serde_json::to_string_pretty(&register)?);
        } else if register.files.is_empty() {
            outln!("Pilot {} has no evidence yet.", pilot.id);
        } else {
            register.files.iter().for_each(print_entry);
        }
        return Ok(());
    }
    let id = target
        .id
        .ok_or_else(|| anyhow::anyhow!("--id: which evidence file (see `server evidence list`)"))?;
    let reason = target.reason.as_deref().unwrap_or_default();
    let actor = Actor::command_line();
    let step = match command {
        EvidenceCommand::Withdraw(_) => StatusStep::Withdraw,
        _ => StatusStep::Restore,
    };
    let entry = history::change(&services, &pilot, id, reason, &actor, step)
        .await
        .map_err(|e| match e {
            desk::ServiceError::NotFound => {
                anyhow::anyhow!("--id: pilot {} has no evidence #{id}", pilot.id)
            }
            other => anyhow::anyhow!("{other}"),
        })?;
    if target.json {
        outln!("{}", serde_json::to_string_pretty(&entry)?);
    } else {
        print_entry(&entry);
    }
    Ok(())
}

fn print_entry(entry: &EvidenceEntry) {
    let status = match entry.status {
        EvidenceStatus::InForce => "in force",
        EvidenceStatus::Withdrawn => "WITHDRAWN",
    };
    outln!(
        "#{} {} ({}, {} bytes): {status}",
        entry.id,
        entry.file_name,
        entry.kind,
        entry.size_bytes
    );
    for step in &entry.history {
        let by = if step.by.is_empty() {
            "a deleted account"
        } else {
            &step.by
        };
        let why = step
            .reason
            .as_ref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        outln!(
            "    {} {} by {by}{why}",
            engine::clock::utc_minute(step.at_ms),
            step.action.label().to_lowercase()
        );
    }
}
