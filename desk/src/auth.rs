//! Passwords, sessions, and the one authorisation policy every route and server function uses.
//!
//! * Passwords are hashed with Argon2id (the `argon2` crate's default parameters: 19 MiB, two
//!   passes), verified on a blocking thread so a sign-in never stalls the async runtime.
//! * A session is a random 256-bit token in an HttpOnly, SameSite=Lax cookie; the database keeps
//!   only its SHA-256, with an expiry that slides forward while the user is active. Because
//!   sessions live in the database, several server instances can share them.
//! * [`session_guard`] runs before every request: it refuses cross-site writes (the `Origin` of a
//!   POST must be this site: `PUBLIC_URL` when configured, else the `Host` the request names, or
//!   `X-Forwarded-Host` behind a trusted proxy; together with SameSite cookies this is the CSRF
//!   defence), resolves the session into a [`Viewer`] request extension (with the client address
//!   the sign-in back-off counts by), and sends anonymous page requests to the sign-in page.
//! * [`authorise`], [`visible_pilot`] and [`editable_pilot`] are the policy. Anything a user may
//!   not see answers 404 exactly like something missing; only a staff member lacking a privilege
//!   (a sales engineer asking to change something, a non-admin asking for administration) gets
//!   403.
//! * Failed sign-ins back off per e-mail address and per client address, and password checks are
//!   bounded: see [`crate::throttle`].
//! * API tokens expire (default [`API_TOKEN_DEFAULT_DAYS`] days, at most [`API_TOKEN_MAX_DAYS`])
//!   and are revoked when their owner's password changes or is reset, or the account is
//!   disabled.

use crate::ServiceError;
use crate::Services;
use crate::model::{Pilot, SessionUser};
use crate::store::{Store, now_ms};
use crate::throttle::{LoginBackoff, PasswordGate};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderValue, Method, StatusCode, header};
use rand::Rng;
use sha2::{Digest, Sha256};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "pilotdesk_session";
/// How long a new API token lives unless told otherwise, in days.
pub const API_TOKEN_DEFAULT_DAYS: u32 = 90;
/// The longest an API token may live, in days.
pub const API_TOKEN_MAX_DAYS: u32 = 365;

/// Session, cookie, origin and sign-in settings from the configuration.
#[derive(Clone, Debug)]
pub struct AuthSettings {
    /// Adds `Secure` to the cookie (set when served over HTTPS).
    pub secure_cookies: bool,
    /// Idle time after which a session expires.
    pub session_ttl_ms: i64,
    /// The origin of `PUBLIC_URL` (`https://pilots.example.com`), when configured: writes from a
    /// browser must come from exactly this origin.
    pub public_origin: Option<String>,
    /// `TRUST_PROXY`: believe the reverse proxy's `X-Forwarded-Host` (origin check, without
    /// `PUBLIC_URL`) and `X-Forwarded-For` (the client address sign-ins back off by).
    pub trust_proxy: bool,
    /// Sign-in back-off.
    pub login_backoff: LoginBackoff,
    /// The bound on concurrent password hashing.
    pub passwords: PasswordGate,
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings {
            secure_cookies: false,
            session_ttl_ms: 12 * 3600 * 1000,
            public_origin: None,
            trust_proxy: false,
            login_backoff: LoginBackoff::default(),
            passwords: PasswordGate::default(),
        }
    }
}

/// Who is making the current request, as resolved by [`session_guard`].
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub user: Option<SessionUser>,
    /// SHA-256 of the session token, when there is a live session.
    pub session_hash: Option<String>,
    /// The client's address (the peer, or behind a trusted proxy the last `X-Forwarded-For`
    /// entry); empty when unknown.
    pub client: String,
}

// ---- passwords: see [`crate::password`] --------------------------------------------------------

pub use crate::password::{
    generate_password, hash_password, hash_password_off_thread, verify_password,
    verify_password_off_thread,
};

// ---- API tokens --------------------------------------------------------------------------------

/// Prefix of every API token, so leaked tokens are recognisable (e.g. by secret scanners).
pub const API_TOKEN_PREFIX: &str = "pd_";

/// A new API token: `pd_` followed by 64 hex characters (256 random bits).
pub fn new_api_token() -> String {
    format!("{API_TOKEN_PREFIX}{}", new_token())
}

/// The user behind an `Authorization: Bearer` header value, if it names a live token.
pub async fn bearer_user(
    store: &Store,
    authorization: Option<&str>,
) -> Result<Option<SessionUser>, ServiceError> {
    let Some(value) = authorization else {
        return Ok(None);
    };
    let Some(token) = value.strip_prefix("Bearer ").map(str::trim) else {
        return Err(ServiceError::Unauthenticated);
    };
    if !token.starts_with(API_TOKEN_PREFIX) {
        return Err(ServiceError::Unauthenticated);
    }
    Ok(store.api_token_user(&token_hash(token)).await?)
}

/// The lifetime asked for a token: empty means [`API_TOKEN_DEFAULT_DAYS`]; otherwise a whole
/// number of days from 1 to [`API_TOKEN_MAX_DAYS`].
pub fn token_days(text: &str) -> Result<u32, ServiceError> {
    match text.trim() {
        "" => Ok(API_TOKEN_DEFAULT_DAYS),
        text => text
            .parse::<u32>()
            .ok()
            .filter(|days| (1..=API_TOKEN_MAX_DAYS).contains(days))
            .ok_or_else(|| {
                ServiceError::invalid_in(
                    format!("days: a whole number of days from 1 to {API_TOKEN_MAX_DAYS}"),
                    format!("days: eine ganze Zahl von Tagen von 1 bis {API_TOKEN_MAX_DAYS}"),
                )
            }),
    }
}

/// Creates an API token named `name` for `user_id`, valid `days` days; the secret is returned
/// once.
pub async fn issue_api_token(
    store: &Store,
    user_id: i64,
    name: &str,
    days: u32,
) -> Result<crate::model::IssuedToken, ServiceError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 80 || name.chars().any(char::is_control) {
        return Err(ServiceError::invalid_in(
            "name: give the token a name of 1–80 characters (e.g. “CI pipeline”)",
            "name: Geben Sie dem Token einen Namen mit 1–80 Zeichen (z. B. „CI-Pipeline“)",
        ));
    }
    if !(1..=API_TOKEN_MAX_DAYS).contains(&days) {
        return Err(ServiceError::invalid_in(
            format!("days: a whole number of days from 1 to {API_TOKEN_MAX_DAYS}"),
            format!("days: eine ganze Zahl von Tagen von 1 bis {API_TOKEN_MAX_DAYS}"),
        ));
    }
    let secret = new_api_token();
    let token = store
        .create_api_token(
            user_id,
            name,
            &token_hash(&secret),
            &secret[..API_TOKEN_PREFIX.len() + 6],
            i64::from(days) * 86_400_000,
        )
        .await?;
    Ok(crate::model::IssuedToken { token, secret })
}

// ---- sessions ----------------------------------------------------------------------------------

fn new_token() -> String {
    new_secret_hex()
}

/// 256 random bits as 64 hex characters (session ids, API and ingest tokens).
pub fn new_secret_hex() -> String {
    let bytes: [u8; 32] = rand::thread_rng().r#gen();
    hex::encode(bytes)
}

/// The SHA-256 (hex) under which a session token is stored.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The `Set-Cookie` value for a session token.
pub fn session_cookie(token: &str, settings: &AuthSettings) -> String {
    let secure = if settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        settings.session_ttl_ms / 1000
    )
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn expired_cookie(settings: &AuthSettings) -> String {
    let secure = if settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}")
}

/// Starts a session for `user_id`; returns the cookie value to set.
pub async fn start_session(
    services: &Services,
    user_id: i64,
) -> Result<(String, String), ServiceError> {
    let token = new_token();
    let hash = token_hash(&token);
    services
        .store
        .create_session(&hash, user_id, now_ms() + services.auth.session_ttl_ms)
        .await?;
    Ok((session_cookie(&token, &services.auth), hash))
}

fn cookie_token(request: &Request) -> Option<String> {
    request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|token| token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `scheme://host[:port]` of a URL (lower-case), or `None` when it has none.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if scheme.is_empty() || authority.is_empty() {
        return None;
    }
    Some(format!("{scheme}://{authority}").to_ascii_lowercase())
}

fn header_text<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request.headers().get(name).and_then(|h| h.to_str().ok())
}

/// True when the request is a write coming from another site: its `Origin` (or, lacking that,
/// `Referer`) is not this site. This site is `PUBLIC_URL`'s origin when configured (scheme, host
/// and port must match); otherwise the host the request was sent to: `Host`, or the proxy's
/// `X-Forwarded-Host` with `TRUST_PROXY`. Requests without either header (scripts, the CLI,
/// curl) are not browsers acting on someone's behalf and pass.
fn is_cross_site_write(request: &Request, settings: &AuthSettings) -> bool {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return false;
    }
    let source = header_text(request, "origin").or_else(|| header_text(request, "referer"));
    let source = match source {
        None => return false,
        Some("null") => return true,
        Some(source) => source,
    };
    let Some(source_origin) = origin_of(source) else {
        return true;
    };
    if let Some(public) = &settings.public_origin {
        return source_origin != *public;
    }
    let host = settings
        .trust_proxy
        .then(|| header_text(request, "x-forwarded-host"))
        .flatten()
        .and_then(|forwarded| forwarded.split(',').next())
        .or_else(|| header_text(request, "host"))
        .unwrap_or_default()
        .trim();
    let authority = source_origin
        .split_once("://")
        .map(|(_, authority)| authority)
        .unwrap_or_default();
    host.is_empty() || !authority.eq_ignore_ascii_case(host)
}

/// The client address sign-in back-off counts by: the TCP peer, or with `TRUST_PROXY` the last
/// `X-Forwarded-For` entry (the one the trusted proxy appended).
fn client_address(request: &Request, settings: &AuthSettings) -> String {
    if settings.trust_proxy
        && let Some(forwarded) = header_text(request, "x-forwarded-for")
        && let Some(last) = forwarded.rsplit(',').next()
        && !last.trim().is_empty()
    {
        return last.trim().chars().take(64).collect();
    }
    request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|info| info.0.ip().to_string())
        .unwrap_or_default()
}

/// Paths anyone may request without a session: the sign-in page, built assets, the health check,
/// server functions and the REST API (those authorise themselves and answer 401).
fn is_public_path(path: &str) -> bool {
    path == "/login"
        || path == "/health"
        || path.starts_with("/pkg/")
        || path.starts_with("/api/")
        || path.starts_with("/share/")
        || path
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains('.'))
}

/// `next` when it is a path on this site, else `/` (no open redirects).
///
/// Browsers drop tabs and newlines from URLs and read `\\` as `/`, so `/\t/evil.example` or
/// `/\\evil.example` would leave the site. Accepted: `/` followed by URL path and query
/// characters only, where neither the text nor its percent-decoded forms start with `//` or
/// `/\\`, or contain a backslash, white space or a control character.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(path) if is_local_path(path) => path.to_string(),
        _ => "/".to_string(),
    }
}

fn is_local_path(path: &str) -> bool {
    const EXTRA: &str = "/-._~?=&%+,:;@!$'()*#";
    let shape_ok = |text: &str| {
        text.starts_with('/')
            && !text[1..].starts_with(['/', '\\'])
            && !text
                .chars()
                .any(|c| c == '\\' || c.is_whitespace() || c.is_control())
    };
    if path.len() > 2000
        || !path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || EXTRA.contains(c))
    {
        return false;
    }
    let mut form = path.to_string();
    for _ in 0..4 {
        if !shape_ok(&form) {
            return false;
        }
        let decoded = percent_decode(&form);
        if decoded == form {
            return true;
        }
        form = decoded;
    }
    false
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(hex) = std::str::from_utf8(&bytes[i + 1..i + 3])
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn percent_encode_path(path: &str) -> String {
    path.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// Axum middleware applied to the whole router. See the module documentation.
pub async fn session_guard(
    State(services): State<Services>,
    mut request: Request,
    next: Next,
) -> Response {
    if is_cross_site_write(&request, &services.auth) {
        return (StatusCode::FORBIDDEN, "Cross-site request refused.").into_response();
    }
    let mut viewer = Viewer {
        client: client_address(&request, &services.auth),
        ..Viewer::default()
    };
    let mut refreshed_cookie = None;
    if let Some(token) = cookie_token(&request) {
        let hash = token_hash(&token);
        match services.store.session(&hash).await {
            Ok(Some(record)) => {
                let now = now_ms();
                let ttl = services.auth.session_ttl_ms;
                if record.expires_ms - now < ttl / 2 {
                    if let Err(error) = services.store.extend_session(&hash, now + ttl).await {
                        tracing::warn!(%error, "could not extend a session");
                    } else {
                        refreshed_cookie = Some(session_cookie(&token, &services.auth));
                    }
                }
                viewer.user = Some(record.user);
                viewer.session_hash = Some(hash);
            }
            Ok(None) => {}
            Err(error) => {
                tracing::error!(%error, "session lookup failed");
                return (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "The database is unavailable; please try again shortly.",
                )
                    .into_response();
            }
        }
    }
    let path = request.uri().path().to_string();
    if request.method() == Method::GET {
        if viewer.user.is_none() && !is_public_path(&path) {
            let target = match request.uri().query() {
                Some(query) => format!("{path}?{query}"),
                None => path.clone(),
            };
            let location = if target == "/" {
                "/login".to_string()
            } else {
                format!(
                    "/login?next={}",
                    percent_encode_path(&target).replace('?', "%3F")
                )
            };
            return Redirect::to(&location).into_response();
        }
        if viewer.user.is_some() && path == "/login" {
            return Redirect::to("/").into_response();
        }
    }
    request.extensions_mut().insert(viewer);
    let lang = crate::ui_language::request_language(request.headers());
    let mut response = crate::ui_language::with_language(lang, next.run(request)).await;
    if let Some(cookie) = refreshed_cookie
        && let Ok(value) = HeaderValue::from_str(&cookie)
    {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

// ---- policy ------------------------------------------------------------------------------------

/// What an operation needs of the person asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Any signed-in user.
    SignedIn,
    /// A staff role (admin, assessor, sales): reading every pilot, exports, share links.
    Staff,
    /// A role that changes pilots and what belongs to them (admin, assessor; see
    /// [`engine::account::Role::can_edit_pilots`]).
    Editor,
    /// The admin role.
    Admin,
}

/// The authorisation policy: is `user` allowed what `need` names?
pub fn authorise(user: Option<&SessionUser>, need: Need) -> Result<SessionUser, ServiceError> {
    let user = user.ok_or(ServiceError::Unauthenticated)?;
    match need {
        Need::SignedIn => {}
        Need::Staff if !user.role.is_staff() => return Err(ServiceError::NotFound),
        Need::Staff => {}
        Need::Editor if !user.role.is_staff() => return Err(ServiceError::NotFound),
        Need::Editor if !user.role.can_edit_pilots() => return Err(ServiceError::Forbidden),
        Need::Editor => {}
        Need::Admin if !user.role.is_staff() => return Err(ServiceError::NotFound),
        Need::Admin if !user.role.can_manage_accounts() => return Err(ServiceError::Forbidden),
        Need::Admin => {}
    }
    Ok(user.clone())
}

/// Pilot `id` if `user` may see it: staff see every pilot, a customer only their own
/// organisation's. Anything else is [`ServiceError::NotFound`].
pub async fn visible_pilot(
    store: &Store,
    user: &SessionUser,
    id: i64,
) -> Result<Pilot, ServiceError> {
    match store.pilot(id).await? {
        Some(pilot) if user.role.is_staff() || pilot.organisation_id == user.organisation_id => {
            Ok(pilot)
        }
        _ => Err(ServiceError::NotFound),
    }
}

/// The pilot `id` if `user` may edit it (an archived pilot is read-only: 409): customers get 404 (as for anything they may not
/// change), staff without the privilege (sales engineers) 403.
pub async fn editable_pilot(
    store: &Store,
    user: &SessionUser,
    id: i64,
) -> Result<Pilot, ServiceError> {
    let pilot = visible_pilot(store, user, id).await?;
    authorise(Some(user), Need::Editor)?;
    crate::evidence_history::service::refuse_archived(&pilot)?;
    Ok(pilot)
}

/// The page to return to after a switch: the path and query of the `Referer` the browser sent
/// with the switch's form (the page itself carries no copy of its address, so no text from an
/// address ever reaches a page), when it is a path on this site; else `/`.
pub fn return_path(referer: Option<&str>) -> String {
    let path = referer.and_then(|url| {
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))?;
        let start = rest.find('/')?;
        let path = &rest[start..];
        Some(path.split('#').next().unwrap_or(path))
    });
    safe_next(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::account::Role;

    fn user(role: Role) -> SessionUser {
        SessionUser {
            id: 1,
            email: "a@b.io".into(),
            name: String::new(),
            role,
            organisation_id: 7,
            organisation_name: "Org".into(),
        }
    }

    #[test]
    fn the_policy_answers_404_to_customers_and_403_to_staff_without_the_privilege() {
        assert_eq!(
            authorise(None, Need::SignedIn),
            Err(ServiceError::Unauthenticated)
        );
        assert!(authorise(Some(&user(Role::Customer)), Need::SignedIn).is_ok());
        assert_eq!(
            authorise(Some(&user(Role::Customer)), Need::Staff),
            Err(ServiceError::NotFound)
        );
        assert_eq!(
            authorise(Some(&user(Role::Customer)), Need::Admin),
            Err(ServiceError::NotFound)
        );
        assert_eq!(
            authorise(Some(&user(Role::Sales)), Need::Admin),
            Err(ServiceError::Forbidden)
        );
        assert!(authorise(Some(&user(Role::Sales)), Need::Staff).is_ok());
        assert_eq!(
            authorise(Some(&user(Role::Sales)), Need::Editor),
            Err(ServiceError::Forbidden)
        );
        assert_eq!(
            authorise(Some(&user(Role::Customer)), Need::Editor),
            Err(ServiceError::NotFound)
        );
        assert!(authorise(Some(&user(Role::Assessor)), Need::Editor).is_ok());
        assert!(authorise(Some(&user(Role::Assessor)), Need::Admin).is_err());
        assert!(authorise(Some(&user(Role::Admin)), Need::Admin).is_ok());
    }

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("wrong horse battery", &hash));
        assert!(!verify_password("anything", "not a hash"));
    }

    #[test]
    fn generated_passwords_are_long_and_distinct() {
        let a = generate_password();
        assert_eq!(a.len(), 20);
        assert_ne!(a, generate_password());
    }

    #[test]
    fn next_must_stay_on_this_site() {
        assert_eq!(safe_next(Some("/pilots/3")), "/pilots/3");
        assert_eq!(
            safe_next(Some("/pilots/3/plan?tab=edit#marks")),
            "/pilots/3/plan?tab=edit#marks"
        );
        for evil in [
            "//evil.example",
            "https://evil.example",
            "/\\evil",
            "\\/evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/ /evil.example",
            "/%09/evil.example",
            "/%2F/evil.example",
            "/%2f%2fevil.example",
            "/%5Cevil.example",
            "/%252F/evil.example",
            "/%0d%0aSet-Cookie:x=1",
            "evil.example",
            "",
            "javascript:alert(1)",
            "/\u{3000}/evil.example",
        ] {
            assert_eq!(safe_next(Some(evil)), "/", "{evil:?}");
        }
        assert_eq!(safe_next(None), "/");
    }

    #[test]
    fn origins_are_scheme_host_and_port() {
        assert_eq!(
            origin_of("https://Pilots.Example.com/a/b?c").as_deref(),
            Some("https://pilots.example.com")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:3000").as_deref(),
            Some("http://127.0.0.1:3000")
        );
        assert_eq!(origin_of("/relative"), None);
    }

    #[test]
    fn cookies_are_http_only_and_same_site() {
        let settings = AuthSettings {
            secure_cookies: true,
            session_ttl_ms: 3_600_000,
            ..AuthSettings::default()
        };
        let cookie = session_cookie("abc", &settings);
        assert!(cookie.contains("HttpOnly"));
        assert!(cookie.contains("SameSite=Lax"));
        assert!(cookie.contains("Secure"));
        assert!(cookie.contains("Max-Age=3600"));
    }

    #[test]
    fn public_paths_are_only_assets_sign_in_and_apis() {
        for path in [
            "/login",
            "/health",
            "/pkg/pilot-desk.wasm",
            "/favicon.svg",
            "/api/login",
        ] {
            assert!(is_public_path(path), "{path}");
        }
        for path in ["/", "/pilots/1", "/admin/users", "/account"] {
            assert!(!is_public_path(path), "{path}");
        }
    }

    #[test]
    fn the_switch_returns_to_the_page_it_was_on_and_nowhere_else() {
        let back = |r: &str| return_path(Some(r));
        assert_eq!(
            back("http://127.0.0.1:3000/pilots/1/load-tests?p=p95#chart"),
            "/pilots/1/load-tests?p=p95"
        );
        assert_eq!(back("https://pilots.example.com/"), "/");
        assert_eq!(back("https://pilots.example.com"), "/");
        assert_eq!(back("https://pilots.example.com//evil.example/x"), "/");
        assert_eq!(back("javascript:alert(1)"), "/");
        assert_eq!(return_path(None), "/");
    }
}
