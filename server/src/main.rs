//! `server`: parses the command line and hands over to the library.

use anyhow::Context;
use clap::Parser;
use desk::accounts::create_account_in_named_organisation;
use server::cli::{Cli, Command, TokenCommand, UserCommand};
use server::{Application, open_store, outln};
use std::process::ExitCode;

/// At least two worker threads, whatever the machine: Leptos' streaming renderer has been seen
/// to stall a page for good on a single-threaded runtime (leptos #4647), and the first report of
/// a hanging page here came from tests that ran the server on one thread.
fn main() -> ExitCode {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(start()),
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn start() -> ExitCode {
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn,tower_http=info".into());
    let logs = tracing_subscriber::fmt().with_env_filter(filter);
    match cli.settings.log_format {
        server::config::LogFormat::Json => logs.json().init(),
        server::config::LogFormat::Text => logs.init(),
    }
    match run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match &cli.command {
        Some(Command::Size(args)) => return server::sizing_cli::run(args),
        Some(Command::Inspect(args)) => return server::inspect_cli::run(args),
        Some(Command::Demand(args)) => return server::demand_cli::run(args),
        Some(Command::Predict(args)) => return server::predict_cli::run(args),
        _ => {}
    }
    let config = cli.settings.validate()?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config).await,
        Command::Report(args) => server::report_cli::run(&args, &config).await,
        Command::Recommend(args) => server::recommend_cli::run(&args, &config).await,
        Command::Evidence(command) => server::evidence_cli::run(&command, &config).await,
        Command::Check(args) => server::check_cli::run(&args, &config).await,
        Command::IngestToken(command) => server::ingest_token_cli::run(&command, &config).await,
        Command::Size(_) | Command::Inspect(_) | Command::Demand(_) | Command::Predict(_) => {
            unreachable!("handled before the configuration is read")
        }
        Command::User(UserCommand::Add {
            email,
            role,
            org,
            password,
            name,
        }) => {
            let store = open_store(&config).await?;
            let issued =
                create_account_in_named_organisation(&store, &email, &name, role, &org, password)
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))
                    .context("user add")?;
            outln!(
                "Created {} ({}) in {}.",
                issued.user.email,
                issued.user.role,
                issued.user.organisation_name
            );
            if let Some(password) = issued.generated_password {
                outln!("Password (shown once): {password}");
            }
            Ok(())
        }
        Command::Token(TokenCommand::Create { email, name, days }) => {
            let store = open_store(&config).await?;
            let email = engine::account::normalise_email(&email)
                .map_err(|e| anyhow::anyhow!("--email: {e}"))?;
            let user = store
                .credentials(&email)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .ok_or_else(|| anyhow::anyhow!("--email: no user {email}"))?
                .user;
            let issued = desk::auth::issue_api_token(&store, user.id, &name, days)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            outln!(
                "Created API token “{}” for {email} (starts {}, expires {}). Send it as “Authorization: Bearer <token>”; it is shown only now:",
                issued.token.name,
                issued.token.prefix,
                engine::clock::utc_date(issued.token.expires_ms)
            );
            outln!("{}", issued.secret);
            Ok(())
        }
        Command::User(UserCommand::List) => {
            let store = open_store(&config).await?;
            let users = store
                .list_users()
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            outln!(
                "{:<36} {:<9} {:<30} state",
                "e-mail",
                "role",
                "organisation"
            );
            for user in users {
                outln!(
                    "{:<36} {:<9} {:<30} {}",
                    user.email,
                    user.role,
                    user.organisation_name,
                    if user.disabled { "disabled" } else { "active" }
                );
            }
            Ok(())
        }
    }
}

async fn serve(config: server::config::Config) -> anyhow::Result<()> {
    let app = Application::build(config).await?;
    if let Some(first) = &app.first_start {
        outln!();
        outln!("  ┌──────────────────────────────────────────────────────────────┐");
        outln!("  │ First start: an administrator account was created.           │");
        outln!("  │   e-mail:   {:<49}│", first.admin_email);
        outln!("  │   password: {:<49}│", first.admin_password);
        outln!("  │ This password is shown only now. Change it under “Account”.  │");
        if first.demo_pilot.is_some() {
            outln!("  │ A demo customer and pilot were created (DEMO=0 to skip).     │");
        }
        outln!("  └──────────────────────────────────────────────────────────────┘");
        outln!();
    }
    let addr = app.local_addr();
    app.warm_up();
    tracing::info!("Pilot Desk listening on http://{addr}");
    outln!("Pilot Desk is running on http://{addr}");
    app.run_until_stopped().await
}
