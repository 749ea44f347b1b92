//! The Pilot Desk server: configuration, start-up, plain HTTP routes and the command line.
//!
//! `main.rs` only parses the command line; [`Application::build`] does the rest (open and migrate
//! the database, first-start bootstrap, router, listener), so the integration tests start the real
//! application on port 0 with a fresh database exactly as `server` does.

pub mod api_errors;
pub mod canonical;
pub mod check_cli;
pub mod cli;
pub mod config;
pub mod demand_cli;
pub mod evidence_cli;
pub mod ingest_token_cli;
pub mod inspect_cli;
pub mod predict_cli;
pub mod recommend_cli;
pub mod report_cli;
pub mod request_trace;
pub mod routes;
pub mod security_headers;
pub mod sizing_cli;
pub mod static_files;
pub mod upload;

use anyhow::Context;
use app::{App, shell};
use axum::Router;
use axum::extract::FromRef;
use config::Config;
use desk::Services;
use desk::auth::{AuthSettings, session_guard};
use desk::bootstrap::{FirstStart, first_start};
use desk::store::Store;
use http::{HeaderName, HeaderValue};
use leptos::prelude::*;
use leptos_axum::{LeptosRoutes, generate_route_list};
use std::net::SocketAddr;
use std::sync::Arc;
use tower_http::set_header::SetResponseHeaderLayer;

/// Shared state of the axum router.
#[derive(Clone, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub services: Services,
    pub config: Arc<Config>,
}

/// Opens the database named by the configuration and applies migrations.
pub async fn open_store(config: &Config) -> anyhow::Result<Store> {
    Store::open(&config.database_url, config.pg_schema.as_deref())
        .await
        .with_context(|| {
            format!(
                "cannot open the database {}",
                redact_url(&config.database_url)
            )
        })
}

/// The URL without its password, for messages.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The app's routes, generated once per process.
///
/// Generating them runs the whole app with resource loading suppressed *process-wide*
/// (leptos_router's `SuppressResourceLoad` sets a global flag): a resource whose future is first
/// polled anywhere in the process during that window waits forever (leptos #4773). A server
/// builds its router once, before it serves, so that never meets a request; but the store/HTTP
/// tests start a server per test in one process while other tests' servers answer requests, and
/// a page of another test then hung now and then (issue #12: the compare page, the pilot page).
/// With one generation per process, no server serves before the routes exist, so none can.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    ROUTES
        .get_or_init(|| {
            ROUTE_GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            generate_route_list(App)
        })
        .clone()
}

static ROUTE_GENERATIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many times this process generated the app's routes (see [`route_list`]): 1 once a
/// router exists, whatever the number of routers. The tests hold it there.
pub fn route_generations() -> usize {
    ROUTE_GENERATIONS.load(std::sync::atomic::Ordering::SeqCst)
}

/// The whole HTTP application: pages, server functions, plain routes, session guard, headers.
pub fn router(state: AppState) -> Router {
    let routes = route_list();
    let services = state.services.clone();
    let leptos_options = state.leptos_options.clone();
    let site_root = std::path::PathBuf::from(leptos_options.site_root.as_ref());
    let page_context = {
        let services = services.clone();
        move || {
            provide_context(services.clone());
            app::server::csp::provide_page_nonce();
        }
    };
    // The pages and their not-found fallback, inside the layer that owns their policy.
    let pages = Router::new()
        .leptos_routes_with_context(&state, routes, page_context.clone(), move || {
            shell(leptos_options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler_with_context::<
            AppState,
            _,
        >(page_context, shell))
        .layer(axum::middleware::from_fn(security_headers::page_policy));
    Router::new()
        .merge(routes::router(state.config.max_upload_bytes))
        .merge(static_files::router(&site_root))
        .merge(pages)
        .layer(axum::middleware::from_fn_with_state(
            services,
            session_guard,
        ))
        // Around the guard and every extractor: API refusals are JSON whoever answers them.
        .layer(axum::middleware::from_fn(api_errors::json_errors))
        .layer(axum::middleware::from_fn(
            security_headers::security_headers,
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("x-content-type-options"),
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("x-frame-options"),
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("referrer-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        // Pages and JSON are compressed as they stream; the bundle is served precompressed
        // (responses that already carry a Content-Encoding are left alone). Level 4, not the
        // codecs' defaults: Brotli's default is its slowest level (11), paid on every answer
        // (the load-test page's p99 at 32 clients went from 117 to 93 ms).
        .layer(tower_http::compression::CompressionLayer::new().quality(
            tower_http::CompressionLevel::Precise(DYNAMIC_COMPRESSION_LEVEL),
        ))
        // Before the session guard: `/pilots/2/` redirects to `/pilots/2` for everyone, and
        // every answer, the guard's too, says how it may be cached.
        .layer(axum::middleware::from_fn(canonical::canonical))
        // Outermost: the request's id and span cover everything below, the session guard too.
        .layer(axum::middleware::from_fn_with_state(
            request_trace::SlowRequest(state.config.slow_request),
            request_trace::trace_request,
        ))
        .with_state(state)
}

/// A built application, bound to its port and ready to serve.
pub struct Application {
    listener: tokio::net::TcpListener,
    router: Router,
    services: desk::Services,
    metrics_allow_hosts: desk::metrics_pull::service::AllowedHosts,
    /// What the first start created (printed once by `main`).
    pub first_start: Option<FirstStart>,
    pub store: Store,
}

/// What server functions, routes and database commands share, from the configuration.
/// The Brotli and gzip level of pages and JSON compressed as they are sent (0–11 / 0–9).
pub const DYNAMIC_COMPRESSION_LEVEL: i32 = 4;

pub fn services(config: &Config, store: Store) -> Services {
    Services {
        blobs: desk::blobs::Blobs::new(&config.data_dir, store.clone()),
        store,
        auth: AuthSettings {
            secure_cookies: config.secure_cookies,
            session_ttl_ms: config.session_ttl_ms,
            public_origin: config.public_origin.clone(),
            trust_proxy: config.trust_proxy,
            login_backoff: config.login_backoff,
            ..AuthSettings::default()
        },
        data_dir: config.data_dir.clone(),
        chromium: config
            .chromium_path
            .clone()
            .or_else(desk::report::pdf::find_chromium),
        overviews: Default::default(),
        changes: Default::default(),
        intake: config.intake,
        metrics_allow_hosts: config.metrics_allow_hosts.clone(),
    }
}

/// Removes what an instance killed mid-upload left behind: `DATA_DIR/uploads/*.part` (up to the
/// upload limit each) and unfinished copies `DATA_DIR/evidence/*.part`. Only this instance
/// writes there (each instance has a `DATA_DIR` of its own), and it has not started serving.
pub async fn remove_unfinished_files(data_dir: &std::path::Path) -> usize {
    let mut removed = 0;
    for folder in ["uploads", "evidence"] {
        let Ok(mut entries) = tokio::fs::read_dir(data_dir.join(folder)).await else {
            continue;
        };
        while let Ok(Some(entry)) = entries.next_entry().await {
            let unfinished = entry.file_name().to_string_lossy().ends_with(".part");
            if unfinished && tokio::fs::remove_file(entry.path()).await.is_ok() {
                removed += 1;
            }
        }
    }
    if removed > 0 {
        tracing::info!(removed, "removed unfinished upload files of an earlier run");
    }
    removed
}

impl Application {
    /// Opens the database, bootstraps it on first start, and binds the listener.
    pub async fn build(config: Config) -> anyhow::Result<Application> {
        let store = open_store(&config).await?;
        remove_unfinished_files(&config.data_dir).await;
        let first_start = first_start(&store, config.demo)
            .await
            .map_err(|e| anyhow::anyhow!("first-start set-up failed: {e}"))?;
        let mut leptos_options = get_configuration(None)
            .context("reading the Leptos configuration (LEPTOS_* variables)")?
            .leptos_options;
        leptos_options.site_addr = config.site_addr;
        // The build's content-addressed bundle folder (see `static_files`): pages link it.
        if let Some(dir) =
            static_files::bundle_dir(std::path::Path::new(leptos_options.site_root.as_ref()))
        {
            leptos_options.site_pkg_dir = dir.into();
        }
        let listener = tokio::net::TcpListener::bind(config.site_addr)
            .await
            .with_context(|| format!("LEPTOS_SITE_ADDR: cannot listen on {}", config.site_addr))?;
        let services = services(&config, store.clone());
        if let Some(first) = &first_start {
            desk::bootstrap::seed_demo_evidence(&services, first)
                .await
                .map_err(|e| anyhow::anyhow!("first-start demo evidence failed: {e}"))?;
        }
        match desk::load_tests::service::backfill_request_samples(&services).await {
            Ok(0) => {}
            Ok(filled) => tracing::info!(
                filled,
                "load tests stored before this version: per-request samples taken"
            ),
            Err(error) => {
                tracing::warn!(%error, "taking per-request samples of older load tests failed")
            }
        }
        let state = AppState {
            leptos_options,
            services,
            config: Arc::new(config),
        };
        let services = state.services.clone();
        let metrics_allow_hosts = state.config.metrics_allow_hosts.clone();
        Ok(Application {
            listener,
            router: router(state),
            services,
            metrics_allow_hosts,
            first_start,
            store,
        })
    }

    /// Computes every open pilot's capacity plan in the background (see
    /// `desk::capacity::warm_up`), so the first pilot page after a start is served warm and
    /// names its recommendation. The handle answers how many plans were kept.
    pub fn warm_up(&self) -> tokio::task::JoinHandle<usize> {
        let services = self.services.clone();
        tokio::spawn(async move {
            let kept = desk::capacity::warm_up(&services).await;
            tracing::info!(kept, "capacity plans computed at start-up");
            kept
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until Ctrl-C / SIGTERM; expired sessions are purged hourly meanwhile.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        // Live gateway records not yet in their day file (a roll after a batch failed, or
        // another instance received them) roll within two seconds.
        tokio::spawn(desk::live::service::roll_on_a_timer(
            self.services.clone(),
            std::time::Duration::from_secs(2),
        ));
        // Each pilot whose evidence changed is graded at once (when a mark became gradable).
        tokio::spawn(desk::overview::refresh_on_changes(self.services.clone()));
        // Scheduled /metrics pulls: each due source is leased by one instance in the database.
        tokio::spawn(desk::metrics_pull::service::run_scheduler(
            self.services.clone(),
            self.metrics_allow_hosts.clone(),
            format!("{}-{:08x}", std::process::id(), rand::random::<u32>()),
        ));
        let store = self.store.clone();
        let failure_window_ms = desk::throttle::LoginBackoff::default().longest_window_ms();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
            loop {
                tick.tick().await;
                if let Err(error) = store.purge_expired(failure_window_ms).await {
                    tracing::warn!(%error, "purging expired sessions failed");
                }
            }
        });
        // `TCP_NODELAY` on every accepted connection: a response written in two parts (headers,
        // then a small body) otherwise waits for the client's delayed ACK, 18-44 ms per static
        // asset on a kept-alive connection (issue #38).
        use axum::serve::ListenerExt;
        let listener = self.listener.tap_io(|connection| {
            if let Err(error) = connection.set_nodelay(true) {
                tracing::debug!(%error, "could not set TCP_NODELAY");
            }
        });
        // With the peer address: sign-ins back off per client address too.
        axum::serve(
            listener,
            self.router
                .into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await
        .context("server stopped with an error")
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::{redact_url, remove_unfinished_files};

    #[tokio::test]
    async fn unfinished_upload_files_of_an_earlier_run_are_removed_and_nothing_else() {
        let data = tempfile::tempdir().unwrap();
        for folder in ["uploads", "evidence"] {
            std::fs::create_dir_all(data.path().join(folder)).unwrap();
        }
        let uploads = data.path().join("uploads");
        let evidence = data.path().join("evidence");
        std::fs::write(uploads.join("upload-00ff.part"), b"half").unwrap();
        std::fs::write(evidence.join("ab12.part"), b"half").unwrap();
        std::fs::write(evidence.join("ab12"), b"whole").unwrap();
        assert_eq!(remove_unfinished_files(data.path()).await, 2);
        assert!(evidence.join("ab12").exists());
        assert!(!uploads.join("upload-00ff.part").exists());
        assert_eq!(remove_unfinished_files(data.path()).await, 0);
        assert_eq!(remove_unfinished_files(&data.path().join("none")).await, 0);
    }

    #[test]
    fn passwords_are_redacted_from_database_urls() {
        assert_eq!(
            redact_url("postgres://pd:secret@db:5432/pd"),
            "postgres://pd:***@db:5432/pd"
        );
        assert_eq!(
            redact_url("postgres://postgres@127.0.0.1/test"),
            "postgres://postgres@127.0.0.1/test"
        );
        assert_eq!(redact_url("sqlite://data/x.db"), "sqlite://data/x.db");
    }
}
