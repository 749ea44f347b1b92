//! The store: every SQL statement of Pilot Desk lives in this module.
//!
//! One [`Store`] wraps an `AnyPool`, so the same binary runs on an embedded SQLite file (the
//! default) or on PostgreSQL (`DATABASE_URL=postgres://…`, for several server instances). The SQL
//! is the portable subset both accept: `$n` placeholders, `RETURNING`, integers for booleans and
//! Unix-millisecond timestamps. Rows are read by column name into the domain types of
//! [`crate::model`]; nothing outside this module builds a query.

pub mod blobs;
pub mod catalog;
pub mod evidence;
pub mod gradable;
pub mod live;
pub mod metrics_sources;
pub mod notices;
pub mod plans;
pub mod quality;
pub mod reports;
pub mod staged;
pub mod traffic;

use crate::model::{ApiToken, Organisation, Pilot, SessionUser, UserSummary};
use engine::account::{OrganisationKind, Role};
use engine::pilot::{PilotFields, PilotStatus};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Which database the store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a `DATABASE_URL` names, or `None` for an unsupported scheme.
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// A store failure. `Conflict` carries a message fit for the user (a name already taken);
/// everything else is an internal error to be logged.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    Conflict(crate::error::Said),
    /// The same evidence file is already stored on the pilot.
    #[error("{0}")]
    Duplicate(crate::error::Said),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("stored value out of range: {0}")]
    Corrupt(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// Maps a unique-constraint violation to a user-facing conflict message.
fn conflict(error: sqlx::Error, message: impl FnOnce() -> crate::error::Said) -> StoreError {
    let unique = error
        .as_database_error()
        .map(|db| db.is_unique_violation())
        .unwrap_or(false);
    if unique {
        StoreError::Conflict(message())
    } else {
        StoreError::Database(error)
    }
}

/// Milliseconds since the Unix epoch, the store's one time unit.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn parse_column<T: FromStr>(value: String, column: &str) -> StoreResult<T> {
    value
        .parse()
        .map_err(|_| StoreError::Corrupt(format!("{column} = `{value}`")))
}

/// A user row with the password hash, for sign-in only.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub user: UserSummary,
    pub password_hash: String,
    /// The interface language the user chose, if ever (see [`Store::set_user_language`]).
    pub language: Option<engine::locale::Lang>,
}

/// Failed sign-ins recorded before an attempt (see [`Store::login_failures_before`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailuresBefore {
    pub account_failures: i64,
    pub account_latest_ms: Option<i64>,
    pub client_failures: i64,
    pub client_latest_ms: Option<i64>,
}

/// A session row joined with its user.
#[derive(Debug, Clone)]
pub struct SessionRecord {
    pub user: SessionUser,
    pub expires_ms: i64,
}

#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

const USER_COLUMNS: &str = "u.id, u.email, u.name, u.role, u.organisation_id, o.name AS organisation_name, \
     u.disabled, u.created_ms";

const PILOT_COLUMNS: &str = "p.id, p.organisation_id, o.name AS organisation_name, p.name, p.description, \
     p.status, p.model, p.gpu_type, p.gpu_count, p.engine, p.engine_version, p.created_ms, p.updated_ms, \
     p.archived_ms";

fn user_from_row(row: &AnyRow) -> StoreResult<UserSummary> {
    Ok(UserSummary {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        role: parse_column(row.try_get("role")?, "users.role")?,
        organisation_id: row.try_get("organisation_id")?,
        organisation_name: row.try_get("organisation_name")?,
        disabled: row.try_get::<i64, _>("disabled")? != 0,
        created_ms: row.try_get("created_ms")?,
    })
}

/// The signed-in user of a session or API-token row (columns id, email, name, role,
/// organisation_id, organisation_name).
fn session_user_from_row(row: &AnyRow) -> StoreResult<SessionUser> {
    Ok(SessionUser {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        role: parse_column(row.try_get("role")?, "users.role")?,
        organisation_id: row.try_get("organisation_id")?,
        organisation_name: row.try_get("organisation_name")?,
    })
}

fn pilot_from_row(row: &AnyRow) -> StoreResult<Pilot> {
    Ok(Pilot {
        id: row.try_get("id")?,
        organisation_id: row.try_get("organisation_id")?,
        organisation_name: row.try_get("organisation_name")?,
        name: row.try_get("name")?,
        description: row.try_get("description")?,
        status: parse_column::<PilotStatus>(row.try_get("status")?, "pilots.status")?,
        model: row.try_get("model")?,
        gpu_type: row.try_get("gpu_type")?,
        gpu_count: row.try_get("gpu_count")?,
        engine: row.try_get("engine")?,
        engine_version: row.try_get("engine_version")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        archived_ms: row.try_get("archived_ms")?,
    })
}

impl Store {
    /// Opens the database `url` names and applies the migrations.
    ///
    /// SQLite files (and their folder) are created on first use and switched to WAL mode, so the
    /// command line can write while a server is running on the same file. `pg_schema`, for tests,
    /// confines every PostgreSQL connection to one existing schema.
    pub async fn open(url: &str, pg_schema: Option<&str>) -> StoreResult<Store> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of_url(url).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "unsupported database URL `{url}` (expected sqlite:… or postgres://…)"
            ))
        })?;
        let mut options = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 8 } else { 16 })
            .acquire_timeout(Duration::from_secs(10));
        if let Some(schema) = pg_schema {
            let schema = schema.to_string();
            if !schema
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Err(StoreError::Corrupt(format!("bad schema name `{schema}`")));
            }
            options = options.after_connect(move |conn, _meta| {
                let sql = format!("SET search_path TO {schema}");
                Box::pin(async move {
                    conn.execute(sql.as_str()).await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(url).await?;
        let store = Store { pool, backend };
        if backend == Backend::Sqlite {
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(&store.pool)
                .await?;
        }
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> StoreResult<()> {
        match self.backend {
            Backend::Sqlite => {
                sqlx::migrate!("../migrations/sqlite")
                    .run(&self.pool)
                    .await?
            }
            Backend::Postgres => {
                sqlx::migrate!("../migrations/postgres")
                    .run(&self.pool)
                    .await?
            }
        }
        Ok(())
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The SQLite journal mode (`wal` after [`Store::open`]); `None` on PostgreSQL.
    pub async fn sqlite_journal_mode(&self) -> StoreResult<Option<String>> {
        if self.backend != Backend::Sqlite {
            return Ok(None);
        }
        let row = sqlx::query("PRAGMA journal_mode")
            .fetch_one(&self.pool)
            .await?;
        Ok(Some(row.try_get::<String, _>(0)?))
    }

    /// A trivial query, for the health check.
    pub async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        Ok(())
    }

    /// Closes the pool (tests drop their schema afterwards).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    // ---- organisations -------------------------------------------------------------------

    /// Creates an organisation; a taken name is a [`StoreError::Conflict`].
    pub async fn create_organisation(
        &self,
        name: &str,
        kind: OrganisationKind,
    ) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO organisations (name, kind, created_ms) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(name)
        .bind(kind.as_str())
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await
        .map_err(|e| {
            conflict(e, || {
                crate::error::Said::new(
                    format!("an organisation named “{name}” already exists"),
                    format!("eine Organisation namens „{name}“ gibt es bereits"),
                )
            })
        })?;
        Ok(row.try_get("id")?)
    }

    /// The organisation with this exact name, as (id, kind).
    pub async fn organisation_by_name(
        &self,
        name: &str,
    ) -> StoreResult<Option<(i64, OrganisationKind)>> {
        let row = sqlx::query("SELECT id, kind FROM organisations WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok((
                row.try_get("id")?,
                parse_column(row.try_get("kind")?, "organisations.kind")?,
            ))
        })
        .transpose()
    }

    /// The kind of organisation `id`, or `None` when it does not exist.
    pub async fn organisation_kind(&self, id: i64) -> StoreResult<Option<OrganisationKind>> {
        let row = sqlx::query("SELECT kind FROM organisations WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| parse_column(row.try_get("kind")?, "organisations.kind"))
            .transpose()
    }

    /// Every organisation, staff first, then by name, with user and pilot counts.
    pub async fn list_organisations(&self) -> StoreResult<Vec<Organisation>> {
        let rows = sqlx::query(
            "SELECT o.id, o.name, o.kind, o.created_ms, \
                    (SELECT COUNT(*) FROM users u WHERE u.organisation_id = o.id) AS users, \
                    (SELECT COUNT(*) FROM pilots p WHERE p.organisation_id = o.id) AS pilots \
             FROM organisations o ORDER BY CASE o.kind WHEN 'staff' THEN 0 ELSE 1 END, o.name",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Organisation {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
                    kind: parse_column(row.try_get("kind")?, "organisations.kind")?,
                    created_ms: row.try_get("created_ms")?,
                    users: row.try_get("users")?,
                    pilots: row.try_get("pilots")?,
                })
            })
            .collect()
    }

    // ---- users -----------------------------------------------------------------------------

    pub async fn count_users(&self) -> StoreResult<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM users")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Creates a user; a taken e-mail address is a [`StoreError::Conflict`].
    pub async fn create_user(
        &self,
        email: &str,
        name: &str,
        role: Role,
        organisation_id: i64,
        password_hash: &str,
    ) -> StoreResult<UserSummary> {
        let now = now_ms();
        let row = sqlx::query(
            "INSERT INTO users (email, name, role, organisation_id, password_hash, disabled, created_ms, password_changed_ms) \
             VALUES ($1, $2, $3, $4, $5, 0, $6, $6) RETURNING id",
        )
        .bind(email)
        .bind(name)
        .bind(role.as_str())
        .bind(organisation_id)
        .bind(password_hash)
        .bind(now)
        .fetch_one(&self.pool)
        .await
        .map_err(|e| {
            conflict(e, || {
                crate::error::Said::new(
                    format!("a user with the e-mail address {email} already exists"),
                    format!("ein Konto mit der E-Mail-Adresse {email} gibt es bereits"),
                )
            })
        })?;
        let id: i64 = row.try_get("id")?;
        self.user(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("user {id} vanished after insert")))
    }

    pub async fn user(&self, id: i64) -> StoreResult<Option<UserSummary>> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id WHERE u.id = $1"
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// The user with this (normalised) e-mail address and their password hash.
    pub async fn credentials(&self, email: &str) -> StoreResult<Option<Credentials>> {
        let sql = format!(
            "SELECT {USER_COLUMNS}, u.password_hash, u.language FROM users u \
             JOIN organisations o ON o.id = u.organisation_id WHERE u.email = $1"
        );
        let row = sqlx::query(&sql)
            .bind(email)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(Credentials {
                user: user_from_row(&row)?,
                password_hash: row.try_get("password_hash")?,
                // A code this build does not speak (a later version's) counts as no choice.
                language: row
                    .try_get::<Option<String>, _>("language")?
                    .as_deref()
                    .and_then(engine::locale::Lang::parse),
            })
        })
        .transpose()
    }

    /// Remembers the interface language user `id` chose.
    pub async fn set_user_language(
        &self,
        user_id: i64,
        language: engine::locale::Lang,
    ) -> StoreResult<()> {
        sqlx::query("UPDATE users SET language = $1 WHERE id = $2")
            .bind(language.code())
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The password hash of user `id`.
    pub async fn password_hash(&self, id: i64) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT password_hash FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| row.try_get("password_hash").map_err(StoreError::from))
            .transpose()
    }

    /// Every user, by organisation then e-mail address.
    pub async fn list_users(&self) -> StoreResult<Vec<UserSummary>> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users u JOIN organisations o ON o.id = u.organisation_id \
             ORDER BY CASE o.kind WHEN 'staff' THEN 0 ELSE 1 END, o.name, u.email"
        );
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(user_from_row).collect()
    }

    /// Replaces a user's password hash, ends all their sessions and revokes their API tokens, in
    /// one transaction (a changed or reset password means the old credentials may be known).
    pub async fn set_password_hash(&self, user_id: i64, password_hash: &str) -> StoreResult<()> {
        let now = now_ms();
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE users SET password_hash = $1, password_changed_ms = $2 WHERE id = $3")
            .bind(password_hash)
            .bind(now)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE api_tokens SET revoked_ms = $1 WHERE user_id = $2 AND revoked_ms IS NULL",
        )
        .bind(now)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Disables or re-enables an account; disabling ends its sessions and revokes its API tokens
    /// (re-enabling does not bring them back). Returns false when the user does not exist.
    pub async fn set_disabled(&self, user_id: i64, disabled: bool) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query("UPDATE users SET disabled = $1 WHERE id = $2")
            .bind(i64::from(disabled))
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        if disabled {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "UPDATE api_tokens SET revoked_ms = $1 WHERE user_id = $2 AND revoked_ms IS NULL",
            )
            .bind(now_ms())
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(done)
    }

    /// How many enabled admins there are (the last one may not be disabled).
    pub async fn count_active_admins(&self) -> StoreResult<i64> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled = 0")
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get("n")?)
    }

    // ---- sessions --------------------------------------------------------------------------

    pub async fn create_session(
        &self,
        id_hash: &str,
        user_id: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query("INSERT INTO sessions (id_hash, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
            .bind(id_hash)
            .bind(user_id)
            .bind(now_ms())
            .bind(expires_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The live session with this token hash: unexpired, of an enabled user.
    pub async fn session(&self, id_hash: &str) -> StoreResult<Option<SessionRecord>> {
        let row = sqlx::query(
            "SELECT u.id, u.email, u.name, u.role, u.organisation_id, o.name AS organisation_name, s.expires_ms \
             FROM sessions s JOIN users u ON u.id = s.user_id JOIN organisations o ON o.id = u.organisation_id \
             WHERE s.id_hash = $1 AND s.expires_ms > $2 AND u.disabled = 0",
        )
        .bind(id_hash)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(SessionRecord {
                user: session_user_from_row(&row)?,
                expires_ms: row.try_get("expires_ms")?,
            })
        })
        .transpose()
    }

    pub async fn extend_session(&self, id_hash: &str, expires_ms: i64) -> StoreResult<()> {
        sqlx::query("UPDATE sessions SET expires_ms = $1 WHERE id_hash = $2")
            .bind(expires_ms)
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn delete_session(&self, id_hash: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of a user except the one whose hash is `keep`.
    pub async fn delete_other_sessions(&self, user_id: i64, keep: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2")
            .bind(user_id)
            .bind(keep)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Removes expired sessions and login failures older than `failure_window_ms`.
    pub async fn purge_expired(&self, failure_window_ms: i64) -> StoreResult<()> {
        let now = now_ms();
        sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM login_failures WHERE at_ms <= $1")
            .bind(now - failure_window_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // ---- API tokens ------------------------------------------------------------------------

    /// Records a token that lives `lifetime_ms` from now (its creation and expiry are read
    /// from one clock reading, so the lifetime is exact).
    pub async fn create_api_token(
        &self,
        user_id: i64,
        name: &str,
        token_hash: &str,
        prefix: &str,
        lifetime_ms: i64,
    ) -> StoreResult<ApiToken> {
        let now = now_ms();
        let expires_ms = now + lifetime_ms;
        let row = sqlx::query(
            "INSERT INTO api_tokens (user_id, name, token_hash, prefix, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(user_id)
        .bind(name)
        .bind(token_hash)
        .bind(prefix)
        .bind(now)
        .bind(expires_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(ApiToken {
            id: row.try_get("id")?,
            name: name.to_string(),
            prefix: prefix.to_string(),
            created_ms: now,
            last_used_ms: None,
            expires_ms,
        })
    }

    /// The user a live (unrevoked, unexpired) token of an enabled account belongs to; records
    /// the use.
    pub async fn api_token_user(&self, token_hash: &str) -> StoreResult<Option<SessionUser>> {
        let row = sqlx::query(
            "SELECT t.id AS token_id, u.id, u.email, u.name, u.role, u.organisation_id, o.name AS organisation_name \
             FROM api_tokens t JOIN users u ON u.id = t.user_id JOIN organisations o ON o.id = u.organisation_id \
             WHERE t.token_hash = $1 AND t.revoked_ms IS NULL AND t.expires_ms > $2 AND u.disabled = 0",
        )
        .bind(token_hash)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        sqlx::query("UPDATE api_tokens SET last_used_ms = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(row.try_get::<i64, _>("token_id")?)
            .execute(&self.pool)
            .await?;
        Ok(Some(session_user_from_row(&row)?))
    }

    /// A user's live (unrevoked, unexpired) tokens, newest first.
    pub async fn list_api_tokens(&self, user_id: i64) -> StoreResult<Vec<ApiToken>> {
        let rows = sqlx::query(
            "SELECT id, name, prefix, created_ms, last_used_ms, expires_ms FROM api_tokens \
             WHERE user_id = $1 AND revoked_ms IS NULL AND expires_ms > $2 \
             ORDER BY created_ms DESC, id DESC",
        )
        .bind(user_id)
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ApiToken {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
                    prefix: row.try_get("prefix")?,
                    created_ms: row.try_get("created_ms")?,
                    last_used_ms: row.try_get("last_used_ms")?,
                    expires_ms: row.try_get("expires_ms")?,
                })
            })
            .collect()
    }

    /// Moves token `id`'s expiry (tests, and an administrator shortening a leaked token's life).
    pub async fn set_api_token_expiry(&self, id: i64, expires_ms: i64) -> StoreResult<()> {
        sqlx::query("UPDATE api_tokens SET expires_ms = $1 WHERE id = $2")
            .bind(expires_ms)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Revokes token `id` of `user_id`; false when there is no such live token.
    pub async fn revoke_api_token(&self, user_id: i64, id: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE api_tokens SET revoked_ms = $1 WHERE id = $2 AND user_id = $3 AND revoked_ms IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .bind(user_id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(done > 0)
    }

    // ---- login failures (see `crate::throttle`) ------------------------------------

    /// Records a sign-in attempt as a failure before its password is checked; returns its id.
    pub async fn insert_login_failure(
        &self,
        email: &str,
        client: &str,
        at_ms: i64,
    ) -> StoreResult<i64> {
        let row = sqlx::query(
            "INSERT INTO login_failures (email, client, at_ms) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(email)
        .bind(client)
        .bind(at_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    /// The failures recorded before row `id`: for `email` since `account_since_ms` and from
    /// `client` since `client_since_ms`, each with the time of the latest.
    pub async fn login_failures_before(
        &self,
        id: i64,
        email: &str,
        client: &str,
        account_since_ms: i64,
        client_since_ms: i64,
    ) -> StoreResult<FailuresBefore> {
        let row = sqlx::query(
            "SELECT \
               (SELECT COUNT(*) FROM login_failures WHERE email = $2 AND id < $1 AND at_ms > $4) AS account_n, \
               (SELECT MAX(at_ms) FROM login_failures WHERE email = $2 AND id < $1 AND at_ms > $4) AS account_latest, \
               (SELECT COUNT(*) FROM login_failures WHERE client = $3 AND id < $1 AND at_ms > $5) AS client_n, \
               (SELECT MAX(at_ms) FROM login_failures WHERE client = $3 AND id < $1 AND at_ms > $5) AS client_latest",
        )
        .bind(id)
        .bind(email)
        .bind(client)
        .bind(account_since_ms)
        .bind(client_since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(FailuresBefore {
            account_failures: row.try_get("account_n")?,
            account_latest_ms: row.try_get::<Option<i64>, _>("account_latest")?,
            client_failures: row.try_get("client_n")?,
            client_latest_ms: row.try_get::<Option<i64>, _>("client_latest")?,
        })
    }

    /// Removes one attempt's row (refused, abandoned or successful).
    pub async fn delete_login_failure(&self, id: i64) -> StoreResult<()> {
        sqlx::query("DELETE FROM login_failures WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets an address's failures (after it signed in).
    pub async fn clear_login_failures(&self, email: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM login_failures WHERE email = $1")
            .bind(email)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// How many failures are recorded for `email` (tests and diagnostics).
    pub async fn count_login_failures(&self, email: &str) -> StoreResult<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM login_failures WHERE email = $1")
            .bind(email)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    // ---- pilots ----------------------------------------------------------------------------

    pub async fn count_pilots(&self) -> StoreResult<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM pilots")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn create_pilot(
        &self,
        organisation_id: i64,
        fields: &PilotFields,
        created_by: Option<i64>,
    ) -> StoreResult<i64> {
        let now = now_ms();
        let row = sqlx::query(
            "INSERT INTO pilots (organisation_id, name, description, status, model, gpu_type, gpu_count, \
                                 engine, engine_version, created_by, created_ms, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
        )
        .bind(organisation_id)
        .bind(&fields.name)
        .bind(&fields.description)
        .bind(fields.status.as_str())
        .bind(&fields.model)
        .bind(&fields.gpu_type)
        .bind(fields.gpu_count)
        .bind(&fields.engine)
        .bind(&fields.engine_version)
        .bind(created_by)
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    /// Updates a pilot's editable fields; false when it does not exist.
    pub async fn update_pilot(&self, id: i64, fields: &PilotFields) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE pilots SET name = $1, description = $2, status = $3, model = $4, gpu_type = $5, \
                               gpu_count = $6, engine = $7, engine_version = $8, updated_ms = $9 WHERE id = $10",
        )
        .bind(&fields.name)
        .bind(&fields.description)
        .bind(fields.status.as_str())
        .bind(&fields.model)
        .bind(&fields.gpu_type)
        .bind(fields.gpu_count)
        .bind(&fields.engine)
        .bind(&fields.engine_version)
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(done > 0)
    }

    /// Archives a pilot (read-only from now on) or makes it active again; false when it does
    /// not exist.
    pub async fn set_pilot_archived(&self, id: i64, archived: bool) -> StoreResult<bool> {
        let at = archived.then(now_ms);
        let done = sqlx::query("UPDATE pilots SET archived_ms = $1 WHERE id = $2")
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(done > 0)
    }

    /// A transaction that writes. On SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`): a deferred transaction that reads first and then writes cannot wait for
    /// another writer that got in between (it holds a read snapshot, so SQLite answers
    /// "database is locked" at once instead of honouring the busy timeout). Found by the
    /// upload-race test: a pilot deleted while another pilot's upload committed.
    pub(crate) async fn begin_write(&self) -> StoreResult<sqlx::Transaction<'static, sqlx::Any>> {
        match self.backend {
            Backend::Sqlite => Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?),
            Backend::Postgres => Ok(self.pool.begin().await?),
        }
    }

    /// A transaction that reads one snapshot of the database without taking the write lock:
    /// SQLite's deferred `BEGIN` (in WAL mode a reader never waits for a writer, nor a writer
    /// for it), PostgreSQL's `REPEATABLE READ READ ONLY` (every statement sees the same
    /// snapshot, unlike the default `READ COMMITTED`). Rows written by one transaction are then
    /// seen all together or not at all.
    pub(crate) async fn begin_snapshot(
        &self,
    ) -> StoreResult<sqlx::Transaction<'static, sqlx::Any>> {
        match self.backend {
            Backend::Sqlite => Ok(self.pool.begin().await?),
            Backend::Postgres => Ok(self
                .pool
                .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .await?),
        }
    }

    /// Deletes a pilot with everything recorded for it (plans, evidence rows and what was
    /// derived from them, reports, share links, uploads waiting for confirmation) in one
    /// transaction. Answers the SHA-256 of each raw file no other pilot's evidence or staged
    /// upload names any more (the caller removes those blobs), or `None` when there is no such
    /// pilot.
    pub async fn delete_pilot(&self, id: i64) -> StoreResult<Option<Vec<String>>> {
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(
            "SELECT mine.sha256 FROM (SELECT sha256 FROM evidence WHERE pilot_id = $1 \
             UNION SELECT sha256 FROM staged_uploads WHERE pilot_id = $1) mine \
             WHERE NOT EXISTS (SELECT 1 FROM evidence o \
               WHERE o.sha256 = mine.sha256 AND o.pilot_id <> $1) \
             AND NOT EXISTS (SELECT 1 FROM staged_uploads t \
               WHERE t.sha256 = mine.sha256 AND t.pilot_id <> $1)",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let orphans = rows
            .iter()
            .map(|row| row.try_get::<String, _>("sha256"))
            .collect::<Result<Vec<_>, _>>()?;
        for table in [
            "DELETE FROM gradable_marks WHERE pilot_id = $1",
            "DELETE FROM metrics_sources WHERE pilot_id = $1",
            "DELETE FROM live_gateway_days WHERE pilot_id = $1",
            "DELETE FROM live_gateway_records WHERE pilot_id = $1",
            "DELETE FROM ingest_tokens WHERE pilot_id = $1",
            "DELETE FROM evidence_derived WHERE evidence_id IN (SELECT id FROM evidence WHERE pilot_id = $1)",
            "DELETE FROM evidence_events WHERE evidence_id IN (SELECT id FROM evidence WHERE pilot_id = $1)",
            "DELETE FROM eval_set_versions WHERE pilot_id = $1",
            "DELETE FROM evidence WHERE pilot_id = $1",
            "DELETE FROM traffic_profiles WHERE pilot_id = $1",
            "DELETE FROM plan_versions WHERE pilot_id = $1",
            "DELETE FROM report_exports WHERE pilot_id = $1",
            "DELETE FROM share_links WHERE pilot_id = $1",
            "DELETE FROM staged_uploads WHERE pilot_id = $1",
            "DELETE FROM notices WHERE pilot_id = $1",
        ] {
            sqlx::query(table).bind(id).execute(&mut *tx).await?;
        }
        let done = sqlx::query("DELETE FROM pilots WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 0 {
            return Ok(None);
        }
        tx.commit().await?;
        Ok(Some(orphans))
    }

    pub async fn pilot(&self, id: i64) -> StoreResult<Option<Pilot>> {
        let sql = format!(
            "SELECT {PILOT_COLUMNS} FROM pilots p JOIN organisations o ON o.id = p.organisation_id WHERE p.id = $1"
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(pilot_from_row).transpose()
    }

    /// Pilots, most recently updated first; only `organisation_id`'s when given.
    pub async fn list_pilots(&self, organisation_id: Option<i64>) -> StoreResult<Vec<Pilot>> {
        let filter = if organisation_id.is_some() {
            "WHERE p.organisation_id = $1"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {PILOT_COLUMNS} FROM pilots p JOIN organisations o ON o.id = p.organisation_id \
             {filter} ORDER BY p.updated_ms DESC, p.id DESC"
        );
        let mut query = sqlx::query(&sql);
        if let Some(org) = organisation_id {
            query = query.bind(org);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(pilot_from_row).collect()
    }
}
