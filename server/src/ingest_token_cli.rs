//! `server ingest-token create --pilot N [--name NAME]`, `server ingest-token list [--pilot N]`,
//! `server ingest-token revoke ID`: the tokens a gateway posts a pilot's live records with
//! (`POST /api/v1/pilots/{id}/gateway/records`, see `desk::live`), from the database
//! `DATABASE_URL` / `DATA_DIR` name. The same service as the REST API; a token made here is
//! recorded without a creator.

use crate::outln;

/// What to do with ingest tokens.
#[derive(clap::Subcommand, Debug)]
pub enum IngestTokenCommand {
    /// Create a token for one pilot; the token is printed once, as the last line
    Create {
        /// The pilot's id (as in /pilots/<id>)
        #[arg(long)]
        pilot: i64,
        /// What the token is for (the gateway's name)
        #[arg(long, default_value = "gateway")]
        name: String,
    },
    /// The tokens (never their secrets), newest first
    List {
        /// Only this pilot's
        #[arg(long)]
        pilot: Option<i64>,
    },
    /// Revoke a token: its gateway's posts are refused from now on
    Revoke {
        /// The token's id (as `list` shows it)
        id: i64,
    },
}

pub async fn run(
    command: &IngestTokenCommand,
    config: &crate::config::Config,
) -> anyhow::Result<()> {
    let store = crate::open_store(config).await?;
    let fail = |e: desk::ServiceError| anyhow::anyhow!("{e}");
    match command {
        IngestTokenCommand::Create { pilot, name } => {
            let issued = desk::live::service::create_token(&store, *pilot, name, None)
                .await
                .map_err(|e| match e {
                    desk::ServiceError::NotFound => anyhow::anyhow!("--pilot: no pilot {pilot}"),
                    other => fail(other),
                })?;
            outln!(
                "Created ingest token #{} “{}” for pilot {}. The gateway sends it as “Authorization: Bearer <token>” to POST /api/v1/pilots/{}/gateway/records; it is shown only now:",
                issued.id,
                issued.name,
                issued.pilot_id,
                issued.pilot_id
            );
            outln!("{}", issued.token);
        }
        IngestTokenCommand::List { pilot } => {
            let tokens = store
                .ingest_tokens(*pilot)
                .await
                .map_err(|e| fail(e.into()))?;
            if tokens.is_empty() {
                outln!("No ingest tokens.");
            }
            for t in tokens {
                let state = match t.revoked_ms {
                    Some(ms) => format!("revoked {}", engine::clock::utc_minute(ms)),
                    None => match t.last_used_ms {
                        Some(ms) => format!("last used {}", engine::clock::utc_minute(ms)),
                        None => "never used".into(),
                    },
                };
                outln!(
                    "#{:<4} pilot {:<4} {:<24} {}…  created {}  {state}",
                    t.id,
                    t.pilot_id,
                    t.name,
                    t.prefix,
                    engine::clock::utc_minute(t.created_ms)
                );
            }
        }
        IngestTokenCommand::Revoke { id } => {
            let done = store
                .revoke_ingest_token(*id, None)
                .await
                .map_err(|e| fail(e.into()))?;
            if !done {
                anyhow::bail!("no working ingest token #{id}");
            }
            outln!("Revoked ingest token #{id}.");
        }
    }
    Ok(())
}
