//! The `server` binary's command line, run as a separate process against a running app.

use crate::helpers::{client, spawn_app, spawn_app_with};
use std::process::Command;

/// The `server` binary with none of the configuration variables of the test's environment.
pub fn server_binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_server"));
    for variable in [
        "DATABASE_URL",
        "DATA_DIR",
        "DEMO",
        "LEPTOS_SITE_ADDR",
        "CHROMIUM_PATH",
    ] {
        command.env_remove(variable);
    }
    command
}

#[test]
fn help_lists_every_configuration_variable() {
    let output = server_binary().arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for variable in [
        "DATABASE_URL",
        "DATA_DIR",
        "LEPTOS_SITE_ADDR",
        "SECURE_COOKIES",
        "MAX_UPLOAD_MB",
        "CHROMIUM_PATH",
        "DEMO",
    ] {
        assert!(
            help.contains(variable),
            "--help does not mention {variable}"
        );
    }
}

#[test]
fn a_bad_setting_stops_the_binary_with_the_variable_named() {
    let output = server_binary()
        .args(["user", "list"])
        .env("MAX_UPLOAD_MB", "lots")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("MAX_UPLOAD_MB") || stderr.contains("max-upload-mb"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_add_works_on_the_database_of_a_running_server_and_prints_the_password() {
    let app = spawn_app().await;
    let output = server_binary()
        .args([
            "user",
            "add",
            "--email",
            "Ops@Acme.example",
            "--role",
            "customer",
            "--org",
            "Acme Ops",
        ])
        .env("DATABASE_URL", app.cli_database_url())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("Created ops@acme.example (customer) in Acme Ops."),
        "{stdout}"
    );
    let password = stdout
        .lines()
        .find_map(|line| line.strip_prefix("Password (shown once): "))
        .expect("generated password printed");
    let browser = client();
    app.login(&browser, "ops@acme.example", password).await;
    let me = app.call_ok(&browser, "whoami", &[]).await;
    assert_eq!(me["organisation_name"], "Acme Ops");

    let refused = server_binary()
        .args([
            "user",
            "add",
            "--email",
            "x@acme.example",
            "--role",
            "root",
            "--org",
            "Acme Ops",
        ])
        .env("DATABASE_URL", app.cli_database_url())
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("unknown role"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_demo_off_the_first_start_creates_only_the_admin() {
    let app = spawn_app_with(|config| config.demo = false).await;
    assert_eq!(app.demo_pilot, None);
    assert_eq!(app.store.count_pilots().await.unwrap(), 0);
    assert_eq!(app.store.count_users().await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_session_is_not_accepted() {
    let app = spawn_app().await;
    let admin = app
        .store
        .credentials(crate::helpers::ADMIN)
        .await
        .unwrap()
        .unwrap();
    let past = desk::store::now_ms() - 1;
    app.store
        .create_session("expired-hash", admin.user.id, past)
        .await
        .unwrap();
    assert!(app.store.session("expired-hash").await.unwrap().is_none());
    app.store
        .create_session("live-hash", admin.user.id, past + 60_000)
        .await
        .unwrap();
    assert!(app.store.session("live-hash").await.unwrap().is_some());
}
