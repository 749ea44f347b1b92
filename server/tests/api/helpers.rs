//! `spawn_app()` and typed request helpers.

use desk::store::Store;
use rand::Rng;
use reqwest::{Client, Response, StatusCode};
use serde_json::Value;
use server::Application;
use server::config::Config;
use sqlx::{Connection, Executor};

pub struct TestApp {
    pub base: String,
    /// The database URL the app runs on.
    pub database_url: String,
    pub store: Store,
    /// The generated password of the first admin (`admin@pilotdesk.local`).
    pub admin_password: String,
    pub demo_pilot: Option<i64>,
    _data_dir: tempfile::TempDir,
    postgres: Option<(String, String)>,
}

pub const ADMIN: &str = "admin@pilotdesk.local";

/// The server's warnings and errors (a store failure behind a 500, say) go to the test's
/// captured output, so a failing test shows why the server failed, not only that it did.
/// `RUST_LOG` overrides the level.
fn log_server_errors_into_test_output() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_test_writer()
            .try_init();
    });
}

/// Starts the application with a fresh database.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the application with a fresh database and a configuration adjusted by `adjust`.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    start(adjust, false).await.0
}

/// Starts the application as `server serve` does, with its start-up warm-up, and returns once
/// the warm-up has finished, with how many capacity plans it kept.
pub async fn spawn_app_warmed() -> (TestApp, usize) {
    let (app, warm_up) = start(|_| {}, true).await;
    let kept = match warm_up {
        Some(handle) => handle.await.expect("the warm-up finishes"),
        None => 0,
    };
    (app, kept)
}

async fn start(
    adjust: impl FnOnce(&mut Config),
    warm: bool,
) -> (TestApp, Option<tokio::task::JoinHandle<usize>>) {
    log_server_errors_into_test_output();
    let data_dir = tempfile::tempdir().expect("temp dir");
    let (database_url, pg_schema) = match std::env::var("TEST_DATABASE_URL") {
        Ok(url) if !url.trim().is_empty() => {
            let schema = format!("pdtest_{:016x}", rand::thread_rng().r#gen::<u64>());
            sqlx::any::install_default_drivers();
            let mut conn = sqlx::AnyConnection::connect(&url)
                .await
                .expect("TEST_DATABASE_URL reachable");
            conn.execute(format!("CREATE SCHEMA {schema}").as_str())
                .await
                .expect("create test schema");
            (url, Some(schema))
        }
        _ => (
            format!(
                "sqlite://{}?mode=rwc",
                data_dir.path().join("test.db").display()
            ),
            None,
        ),
    };
    let mut config = test_config(&database_url, data_dir.path(), pg_schema.clone());
    adjust(&mut config);
    let application = Application::build(config)
        .await
        .expect("application builds");
    let first = application
        .first_start
        .clone()
        .expect("first start on a fresh database");
    let store = application.store.clone();
    let base = format!("http://{}", application.local_addr());
    let warm_up = warm.then(|| application.warm_up());
    tokio::spawn(application.run_until_stopped());
    let app = TestApp {
        base,
        database_url: database_url.clone(),
        store,
        admin_password: first.admin_password,
        demo_pilot: first.demo_pilot,
        _data_dir: data_dir,
        postgres: pg_schema.map(|schema| (database_url, schema)),
    };
    (app, warm_up)
}

/// The configuration tests start the application with (before their adjustments).
fn test_config(
    database_url: &str,
    data_dir: &std::path::Path,
    pg_schema: Option<String>,
) -> Config {
    Config {
        database_url: database_url.to_string(),
        data_dir: data_dir.to_path_buf(),
        site_addr: "127.0.0.1:0".parse().unwrap(),
        secure_cookies: false,
        max_upload_bytes: 10 * 1024 * 1024,
        intake: Default::default(),
        chromium_path: None,
        demo: true,
        session_ttl_ms: 3_600_000,
        public_origin: None,
        trust_proxy: false,
        slow_request: std::time::Duration::from_secs(60),
        login_backoff: Default::default(),
        pg_schema,
        metrics_allow_hosts: Default::default(),
    }
}

/// Another server instance on a [`TestApp`]'s database, with a `DATA_DIR` of its own (as a
/// second instance behind a load balancer has).
pub struct Instance {
    pub base: String,
    pub data_dir: tempfile::TempDir,
}

impl Instance {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl TestApp {
    /// Whether this app runs on PostgreSQL (`TEST_DATABASE_URL`).
    pub fn on_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// Starts a second instance on this app's database with an empty `DATA_DIR` of its own.
    pub async fn second_instance(&self) -> Instance {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let base = self.instance_on(data_dir.path()).await;
        Instance { base, data_dir }
    }

    /// Starts another instance on this app's database and `DATA_DIR` (two processes on one
    /// SQLite file share its folder too); answers its base URL.
    pub async fn instance_sharing_data_dir(&self) -> String {
        self.instance_on(self._data_dir.path()).await
    }

    async fn instance_on(&self, data_dir: &std::path::Path) -> String {
        let schema = self.postgres.as_ref().map(|(_, schema)| schema.clone());
        let config = test_config(&self.database_url, data_dir, schema);
        let application = Application::build(config)
            .await
            .expect("another instance builds");
        assert!(application.first_start.is_none(), "the database is not new");
        let base = format!("http://{}", application.local_addr());
        tokio::spawn(application.run_until_stopped());
        base
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some((url, schema)) = self.postgres.take() {
            let _ = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                runtime.block_on(async move {
                    if let Ok(mut conn) = sqlx::AnyConnection::connect(&url).await {
                        let _ = conn
                            .execute(format!("DROP SCHEMA IF EXISTS {schema} CASCADE").as_str())
                            .await;
                    }
                });
            })
            .join();
        }
    }
}

/// A browser-like client: keeps cookies, does not follow redirects (tests look at them).
pub fn client() -> Client {
    Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        // A request the app never answers fails its test instead of hanging the suite. (A page
        // once hung here when the tests ran the server on a single-threaded runtime, leptos
        // #4647: the tests now run on two worker threads like the server's own minimum, and no
        // page creates a resource inside a Suspense child, leptos #4866.)
        .timeout(std::time::Duration::from_secs(120))
        .build()
        .unwrap()
}

impl TestApp {
    /// A `DATABASE_URL` with which another process (the CLI) reaches this app's database.
    pub fn cli_database_url(&self) -> String {
        match &self.postgres {
            Some((url, schema)) => {
                let separator = if url.contains('?') { '&' } else { '?' };
                format!("{url}{separator}options=-c%20search_path%3D{schema}")
            }
            None => self.database_url.clone(),
        }
    }

    /// The app's `DATA_DIR` (uploaded files live under `evidence/`).
    pub fn data_dir(&self) -> &std::path::Path {
        self._data_dir.path()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The HTML of the page at `path` as `who` gets it; the page must answer 200.
    pub async fn page(&self, who: &Client, path: &str) -> String {
        let response = who.get(self.url(path)).send().await.expect("request sent");
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        response.text().await.unwrap()
    }

    /// Chooses the interface language `lang` (`en`, `de`) for `who`, as the header's switch
    /// does: the server answers 303 and remembers it in a cookie.
    pub async fn choose_language(&self, who: &Client, lang: &str) {
        let response = who
            .post(self.url("/language"))
            .form(&[("lang", lang), ("back", "/")])
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "language {lang}");
    }

    /// Calls a server function with form-encoded arguments.
    pub async fn call(&self, client: &Client, endpoint: &str, form: &[(&str, &str)]) -> Response {
        client
            .post(self.url(&format!("/api/{endpoint}")))
            .form(form)
            .send()
            .await
            .expect("request sent")
    }

    /// Calls a server function and expects success; returns its JSON result.
    pub async fn call_ok(&self, client: &Client, endpoint: &str, form: &[(&str, &str)]) -> Value {
        let response = self.call(client, endpoint, form).await;
        let status = response.status();
        let body = response.text().await.unwrap();
        assert!(status.is_success(), "{endpoint} answered {status}: {body}");
        serde_json::from_str(&body).unwrap_or(Value::Null)
    }

    /// Signs `client` in; panics on failure.
    pub async fn login(&self, client: &Client, email: &str, password: &str) {
        let response = self
            .call(client, "login", &[("email", email), ("password", password)])
            .await;
        assert!(
            response.status().is_success() || response.status() == StatusCode::FOUND,
            "login as {email} failed: {}",
            response.status()
        );
    }

    /// A client signed in as the first admin.
    pub async fn admin(&self) -> Client {
        let client = client();
        self.login(&client, ADMIN, &self.admin_password).await;
        client
    }

    /// A new API token (the secret) of the user signed in on `client`.
    pub async fn api_token(&self, client: &Client) -> String {
        self.call_ok(client, "create_api_token", &[("name", "ci")])
            .await["secret"]
            .as_str()
            .expect("token secret")
            .to_string()
    }

    /// Creates a customer organisation through the admin API; returns its id.
    pub async fn organisation(&self, admin: &Client, name: &str) -> i64 {
        self.call_ok(admin, "create_organisation", &[("name", name)])
            .await
            .as_i64()
            .expect("organisation id")
    }

    /// Creates a user with a known password through the admin API.
    pub async fn user(
        &self,
        admin: &Client,
        email: &str,
        role: &str,
        organisation_id: i64,
    ) -> Client {
        let org = organisation_id.to_string();
        self.call_ok(
            admin,
            "create_user",
            &[
                ("email", email),
                ("name", ""),
                ("role", role),
                ("organisation_id", &org),
                ("password", PASSWORD),
            ],
        )
        .await;
        let client = client();
        self.login(&client, email, PASSWORD).await;
        client
    }

    /// The staff organisation's id.
    pub async fn staff_organisation(&self) -> i64 {
        self.store
            .organisation_by_name(desk::accounts::STAFF_ORGANISATION)
            .await
            .unwrap()
            .unwrap()
            .0
    }

    /// Creates a pilot of Qwen/Qwen3-8B on 2 × L40S for `organisation_id` as `staff`; returns
    /// its id.
    pub async fn pilot(&self, staff: &Client, organisation_id: i64, name: &str) -> i64 {
        self.pilot_serving(staff, organisation_id, name, "Qwen/Qwen3-8B")
            .await
    }

    /// [`TestApp::pilot`] serving `model`.
    pub async fn pilot_serving(
        &self,
        staff: &Client,
        organisation_id: i64,
        name: &str,
        model: &str,
    ) -> i64 {
        let org = organisation_id.to_string();
        self.call_ok(
            staff,
            "create_pilot",
            &[
                ("organisation_id", &org),
                ("name", name),
                ("description", "test pilot"),
                ("status", "planning"),
                ("model", model),
                ("gpu_type", "NVIDIA L40S"),
                ("gpu_count", "2"),
                ("engine", "vLLM"),
                ("engine_version", "0.11.0"),
            ],
        )
        .await
        .as_i64()
        .expect("pilot id")
    }
}

/// The password test users get.
pub const PASSWORD: &str = "a long test password";

/// The bytes of `path` under the repository's `testdata/` (real files, sources in its
/// `SOURCES.md`).
pub fn fixture(path: &str) -> Vec<u8> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Uploads `bytes` as the evidence file `name` of `pilot` on the instance at `base`, with the
/// upload form's other `fields` (`kind`, `gpu`, `scraped_at` …), as the holder of `token`.
pub async fn upload_evidence_to(
    base: &str,
    token: &str,
    pilot: i64,
    name: &str,
    bytes: Vec<u8>,
    fields: &[(&str, &str)],
) -> Response {
    use reqwest::multipart::{Form, Part};
    let mut form = Form::new();
    for (key, value) in fields {
        form = form.text(key.to_string(), value.to_string());
    }
    form = form.part("file", Part::bytes(bytes).file_name(name.to_string()));
    client()
        .post(format!("{base}/api/v1/pilots/{pilot}/evidence"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("upload sent")
}

impl TestApp {
    /// [`upload_evidence_to`] this app.
    pub async fn upload_evidence(
        &self,
        token: &str,
        pilot: i64,
        name: &str,
        bytes: Vec<u8>,
        fields: &[(&str, &str)],
    ) -> Response {
        upload_evidence_to(&self.base, token, pilot, name, bytes, fields).await
    }
}
