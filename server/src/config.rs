//! Configuration: environment variables (and an optional `.env`) parsed into one typed struct.
//!
//! clap reads each setting from its environment variable (or the equivalent flag), so
//! `server --help` lists every variable with its default, and a bad value stops the server at
//! start-up with a message naming the variable. [`Settings::validate`] adds the checks clap cannot
//! express (the database URL's scheme, a Chromium path that exists).

use anyhow::{Context, bail};
use clap::builder::BoolishValueParser;
use clap::{ArgAction, Args};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The settings as given.
#[derive(Args, Debug, Clone)]
pub struct Settings {
    /// Database: `sqlite://path/to/file.db` or `postgres://user@host/db`
    /// [default: SQLite file `pilotdesk.db` in DATA_DIR]
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    pub database_url: Option<String>,

    /// Folder for the embedded database and uploaded evidence files (created if missing)
    #[arg(long, env = "DATA_DIR", default_value = "data", global = true)]
    pub data_dir: PathBuf,

    /// Address the web server listens on
    #[arg(
        long,
        env = "LEPTOS_SITE_ADDR",
        default_value = "127.0.0.1:3000",
        global = true
    )]
    pub site_addr: SocketAddr,

    /// Mark the session cookie `Secure` (set to true when served over HTTPS)
    #[arg(long, env = "SECURE_COOKIES", default_value = "false", value_parser = BoolishValueParser::new(), action = ArgAction::Set, global = true)]
    pub secure_cookies: bool,

    /// Largest accepted upload, in MiB (1–10240)
    #[arg(long, env = "MAX_UPLOAD_MB", default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10240), global = true)]
    pub max_upload_mb: u64,

    /// Most records one evidence file may hold (gateway requests, load-test requests, items);
    /// a file with more is refused whole
    #[arg(long, env = "MAX_RECORDS_PER_FILE", default_value_t = desk::intake::DEFAULT_RECORDS_PER_FILE, value_parser = clap::value_parser!(u64).range(1..), global = true)]
    pub max_records_per_file: u64,

    /// Headless Chromium used to print reports to PDF (default: Debian's /usr/bin/chromium when
    /// present; PDF export is off without one)
    #[arg(long, env = "CHROMIUM_PATH", global = true)]
    pub chromium_path: Option<PathBuf>,

    /// Create a demo customer and pilot on first start (1/0, true/false, on/off)
    #[arg(long, env = "DEMO", default_value = "true", value_parser = BoolishValueParser::new(), action = ArgAction::Set, global = true)]
    pub demo: bool,

    /// Idle time after which a session expires, in hours (1–720)
    #[arg(long, env = "SESSION_HOURS", default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=720), global = true)]
    pub session_hours: u64,

    /// The address users reach the server at, e.g. https://pilots.example.com (behind a reverse
    /// proxy); when set, browser writes must come from exactly this origin
    #[arg(long, env = "PUBLIC_URL", global = true)]
    pub public_url: Option<String>,

    /// Behind a reverse proxy: believe its X-Forwarded-Host (origin check without PUBLIC_URL) and
    /// X-Forwarded-For (the client address sign-ins back off by). Only with a proxy that sets them
    #[arg(long, env = "TRUST_PROXY", default_value = "false", value_parser = BoolishValueParser::new(), action = ArgAction::Set, global = true)]
    pub trust_proxy: bool,

    /// A request slower than this many milliseconds is logged as a warning (1–600000)
    #[arg(long, env = "SLOW_REQUEST_MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000), global = true)]
    pub slow_request_ms: u64,

    /// Log lines as plain text, or as one JSON object per line for a log collector
    /// Hosts scheduled `/metrics` scrapes may reach although they are link-local or a cloud
    /// metadata service (comma-separated names or addresses; default: none)
    #[arg(long, env = "METRICS_ALLOW_HOSTS", default_value = "", global = true)]
    pub metrics_allow_hosts: String,

    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,
}

/// How log lines are written (`LOG_FORMAT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// `2026-12-01T10:00:00Z  INFO request{id=… method=GET route=/pilots/{id}}: …`
    Text,
    /// One JSON object per line, with the request's span (`id`, `method`, `route`) in `span`.
    Json,
}

/// The validated configuration the server runs with.
#[derive(Debug, Clone)]
pub struct Config {
    pub database_url: String,
    pub data_dir: PathBuf,
    pub site_addr: SocketAddr,
    pub secure_cookies: bool,
    pub max_upload_bytes: u64,
    /// What one file may hold (`MAX_RECORDS_PER_FILE`).
    pub intake: desk::intake::Limits,
    pub chromium_path: Option<PathBuf>,
    pub demo: bool,
    pub session_ttl_ms: i64,
    /// The origin of `PUBLIC_URL` (`https://pilots.example.com`), lower-case, when set.
    pub public_origin: Option<String>,
    pub trust_proxy: bool,
    /// A request slower than this is logged as a warning (`SLOW_REQUEST_MS`).
    pub slow_request: std::time::Duration,
    /// Sign-in back-off (not a setting: the documented defaults; tests shorten it).
    pub login_backoff: desk::throttle::LoginBackoff,
    /// PostgreSQL schema to confine the connection to (tests only).
    pub pg_schema: Option<String>,
    /// `METRICS_ALLOW_HOSTS`: where scheduled scrapes may go although the address is refused.
    pub metrics_allow_hosts: desk::metrics_pull::service::AllowedHosts,
}

/// The origin of a `PUBLIC_URL`: `http(s)://host[:port]` with nothing after it but `/`.
pub fn public_origin(url: &str) -> anyhow::Result<String> {
    let url = url.trim();
    let origin = desk::auth::origin_of(url)
        .filter(|origin| origin.starts_with("https://") || origin.starts_with("http://"))
        .ok_or_else(|| {
            anyhow::anyhow!("PUBLIC_URL must look like https://pilots.example.com (got `{url}`)")
        })?;
    let rest = &url[origin.len()..];
    if !(rest.is_empty() || rest == "/") {
        bail!(
            "PUBLIC_URL: the server must be at the root of its address, without a path (got `{url}`)"
        );
    }
    Ok(origin)
}

impl Settings {
    /// Checks the settings and fills in defaults that depend on others.
    pub fn validate(self) -> anyhow::Result<Config> {
        let database_url = match self.database_url.filter(|u| !u.trim().is_empty()) {
            Some(url) => {
                if desk::store::Backend::of_url(&url).is_none() {
                    bail!(
                        "DATABASE_URL must start with sqlite: or postgres:// (got `{}`)",
                        url.split(':').next().unwrap_or_default()
                    );
                }
                url
            }
            None => {
                std::fs::create_dir_all(&self.data_dir).with_context(|| {
                    format!("DATA_DIR: cannot create folder {}", self.data_dir.display())
                })?;
                format!(
                    "sqlite://{}?mode=rwc",
                    self.data_dir.join("pilotdesk.db").display()
                )
            }
        };
        if let Some(path) = &self.chromium_path
            && !path.is_file()
        {
            bail!(
                "CHROMIUM_PATH: no file at {} (install Debian's chromium package or unset it)",
                path.display()
            );
        }
        let public_origin = match self.public_url.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(url) => Some(public_origin(url)?),
        };
        Ok(Config {
            public_origin,
            trust_proxy: self.trust_proxy,
            slow_request: std::time::Duration::from_millis(self.slow_request_ms),
            login_backoff: Default::default(),
            database_url,
            data_dir: self.data_dir,
            site_addr: self.site_addr,
            secure_cookies: self.secure_cookies,
            max_upload_bytes: self.max_upload_mb * 1024 * 1024,
            intake: desk::intake::Limits {
                records_per_file: self.max_records_per_file,
            },
            chromium_path: self.chromium_path,
            demo: self.demo,
            session_ttl_ms: (self.session_hours * 3600 * 1000) as i64,
            pg_schema: None,
            metrics_allow_hosts: desk::metrics_pull::service::AllowedHosts::parse(
                &self.metrics_allow_hosts,
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Probe {
        #[command(flatten)]
        settings: Settings,
    }

    fn parse(args: &[&str]) -> Result<Probe, clap::Error> {
        Probe::try_parse_from(std::iter::once("server").chain(args.iter().copied()))
    }

    #[test]
    fn defaults_give_sqlite_in_the_data_dir() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("d");
        let probe = parse(&["--data-dir", data.to_str().unwrap()]).unwrap();
        let config = probe.settings.validate().unwrap();
        assert!(config.database_url.starts_with("sqlite://"));
        assert!(config.database_url.ends_with("d/pilotdesk.db?mode=rwc"));
        assert!(data.is_dir());
        assert!(config.demo);
        assert_eq!(config.max_upload_bytes, 200 * 1024 * 1024);
    }

    #[test]
    fn bad_values_are_refused_with_the_setting_named() {
        assert!(parse(&["--max-upload-mb", "0"]).is_err());
        assert!(parse(&["--site-addr", "localhost"]).is_err());
        assert!(parse(&["--demo", "maybe"]).is_err());
        let wrong_scheme = parse(&["--database-url", "mysql://x"])
            .unwrap()
            .settings
            .validate();
        assert!(
            wrong_scheme
                .unwrap_err()
                .to_string()
                .contains("DATABASE_URL")
        );
        let no_chromium = parse(&["--chromium-path", "/nonexistent/chromium"])
            .unwrap()
            .settings
            .validate();
        assert!(
            no_chromium
                .unwrap_err()
                .to_string()
                .contains("CHROMIUM_PATH")
        );
    }

    #[test]
    fn the_public_url_must_be_an_origin_at_the_root() {
        let config = parse(&[
            "--public-url",
            "https://Pilots.Example.com/",
            "--trust-proxy",
            "1",
        ])
        .unwrap()
        .settings
        .validate()
        .unwrap();
        assert_eq!(
            config.public_origin.as_deref(),
            Some("https://pilots.example.com")
        );
        assert!(config.trust_proxy);
        for bad in ["pilots.example.com", "ftp://x.io", "https://x.io/desk"] {
            let error = parse(&["--public-url", bad])
                .unwrap()
                .settings
                .validate()
                .unwrap_err();
            assert!(error.to_string().contains("PUBLIC_URL"), "{bad}: {error}");
        }
        let unset = parse(&[]).unwrap().settings.validate().unwrap();
        assert_eq!(unset.public_origin, None);
        assert!(!unset.trust_proxy);
    }

    #[test]
    fn booleans_accept_the_usual_spellings() {
        assert!(!parse(&["--demo", "0"]).unwrap().settings.demo);
        assert!(
            parse(&["--secure-cookies", "on"])
                .unwrap()
                .settings
                .secure_cookies
        );
    }
}
