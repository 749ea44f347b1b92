//! The command line: `server` (serve), `server user add …`, `server user list`.
//!
//! Every command works on the database `DATABASE_URL`/`DATA_DIR` name, also while a server is
//! running on it (SQLite runs in WAL mode with a busy timeout; PostgreSQL is concurrent anyway).

use crate::config::Settings;
use clap::{Parser, Subcommand};

const ENVIRONMENT_HELP: &str = "\
Environment variables (each also a flag; a .env file in the working folder is read too):
  DATABASE_URL      sqlite://… or postgres://… (default: SQLite file pilotdesk.db in DATA_DIR)
  DATA_DIR          folder for the embedded database and uploads (default: data)
  LEPTOS_SITE_ADDR  listen address (default: 127.0.0.1:3000)
  SECURE_COOKIES    mark the session cookie Secure, for HTTPS (default: false)
  MAX_UPLOAD_MB     largest accepted upload in MiB (default: 200)
  CHROMIUM_PATH     headless Chromium for PDF reports (default: /usr/bin/chromium if present)
  DEMO              demo customer and pilot on first start (default: true)
  SESSION_HOURS     idle hours before a session expires (default: 12)
  METRICS_ALLOW_HOSTS  link-local or metadata hosts scheduled /metrics scrapes may reach (default: none)
  RUST_LOG          log filter (default: info)";

/// Pilot Desk: plans, evidence and reports for private LLM pilots.
#[derive(Parser, Debug)]
#[command(name = "server", version, after_help = ENVIRONMENT_HELP)]
pub struct Cli {
    #[command(flatten)]
    pub settings: Settings,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the web application (the default when no command is given)
    Serve,
    /// Manage user accounts
    #[command(subcommand)]
    User(UserCommand),
    /// Manage personal API tokens
    #[command(subcommand)]
    Token(TokenCommand),
    /// Manage the tokens a gateway posts a pilot's live records with
    #[command(subcommand)]
    IngestToken(crate::ingest_token_cli::IngestTokenCommand),
    /// Size a deployment: weights, KV cache, sessions that fit, decode ceiling (no database)
    Size(Box<crate::sizing_cli::SizeArgs>),
    /// Read evidence files with the importers, without a database, and print what they hold
    Inspect(crate::inspect_cli::InspectArgs),
    /// The demand profile of gateway logs (arrivals, concurrency, token lengths), no database
    Demand(crate::demand_cli::DemandArgs),
    /// Predict TTFT/TPOT/ITL/E2E percentiles at a rate or concurrency from load tests (capacity
    /// twin: fitted timing model, simulation, back-test), no database
    Predict(Box<crate::predict_cli::PredictArgs>),
    /// Export a pilot's report as PDF or HTML from the database
    Report(crate::report_cli::ReportArgs),
    /// A pilot's production recommendation (the capacity plan) from the database
    Recommend(crate::recommend_cli::RecommendArgs),
    /// A pilot's evidence files with their history; withdraw or restore one
    #[command(subcommand)]
    Evidence(crate::evidence_cli::EvidenceCommand),
    /// Verify the store: every evidence row has its whole raw file, no file is orphaned, every
    /// summary reads; exits 1 on a fault
    Check(crate::check_cli::CheckArgs),
}

#[derive(Subcommand, Debug)]
pub enum TokenCommand {
    /// Create an API token for a user; the token is printed once, as the last line
    Create {
        /// The user's e-mail address
        #[arg(long)]
        email: String,
        /// What the token is for
        #[arg(long, default_value = "command line")]
        name: String,
        /// How many days the token lives (1–365)
        #[arg(long, default_value_t = desk::auth::API_TOKEN_DEFAULT_DAYS,
              value_parser = clap::value_parser!(u32).range(1..=desk::auth::API_TOKEN_MAX_DAYS as i64))]
        days: u32,
    },
}

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Create a user; the organisation is created if it does not exist, and without --password
    /// a random password is generated and printed once
    Add {
        /// Login e-mail address
        #[arg(long)]
        email: String,
        /// One of admin, assessor, sales, customer
        #[arg(long)]
        role: engine::account::Role,
        /// Organisation name (staff roles: the staff organisation, e.g. "Pilot Desk staff")
        #[arg(long)]
        org: String,
        /// Password (at least 10 characters); generated when omitted
        #[arg(long)]
        password: Option<String>,
        /// Display name
        #[arg(long, default_value = "")]
        name: String,
    },
    /// List all users
    List,
}

/// `println!` for the command line: a closed pipe (`server demand … | head`) ends the program
/// quietly, as other command-line tools do, instead of panicking with "failed printing to
/// stdout"; any other write failure is reported and exits 1.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(error) = writeln!(std::io::stdout(), $($arg)*) {
            $crate::cli::output_failed(error);
        }
    }};
}

/// `print!` with the same rule as [`outln!`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(error) = write!(std::io::stdout(), $($arg)*) {
            $crate::cli::output_failed(error);
        }
    }};
}

/// Ends the program after standard output failed: quietly (status 0) when the reader went away.
pub fn output_failed(error: std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: writing the output failed: {error}");
    std::process::exit(1);
}
