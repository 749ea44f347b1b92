-- Accounts, sessions and pilots (PostgreSQL). Portable types only, because the store reads both
-- backends through sqlx's Any driver: BIGINT for ids, booleans (0/1) and Unix-millisecond
-- timestamps; TEXT for everything else. Keep in step with ../sqlite/ (a test checks).

CREATE TABLE organisations (
    id          BIGSERIAL PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN ('staff', 'customer')),
    created_ms  BIGINT NOT NULL
);

CREATE TABLE users (
    id              BIGSERIAL PRIMARY KEY,
    email           TEXT    NOT NULL UNIQUE,
    name            TEXT    NOT NULL DEFAULT '',
    role            TEXT    NOT NULL CHECK (role IN ('admin', 'assessor', 'sales', 'customer')),
    organisation_id BIGINT NOT NULL REFERENCES organisations (id),
    password_hash   TEXT    NOT NULL,
    disabled        BIGINT NOT NULL DEFAULT 0,
    created_ms      BIGINT NOT NULL,
    password_changed_ms BIGINT NOT NULL
);
CREATE INDEX users_organisation ON users (organisation_id);

-- A session row is keyed by the SHA-256 of the cookie's token, so a leaked table cannot be
-- replayed as cookies.
CREATE TABLE sessions (
    id_hash     TEXT    PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_ms);

-- Failed logins, counted per e-mail address over a sliding window to slow down guessing.
CREATE TABLE login_failures (
    id          BIGSERIAL PRIMARY KEY,
    email       TEXT    NOT NULL,
    at_ms       BIGINT NOT NULL
);
CREATE INDEX login_failures_email ON login_failures (email, at_ms);

CREATE TABLE pilots (
    id              BIGSERIAL PRIMARY KEY,
    organisation_id BIGINT NOT NULL REFERENCES organisations (id),
    name            TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    status          TEXT    NOT NULL CHECK (status IN ('planning', 'running', 'reporting', 'closed')),
    model           TEXT    NOT NULL DEFAULT '',
    gpu_type        TEXT    NOT NULL DEFAULT '',
    gpu_count       BIGINT NOT NULL DEFAULT 0,
    engine          TEXT    NOT NULL DEFAULT '',
    engine_version  TEXT    NOT NULL DEFAULT '',
    created_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_ms      BIGINT NOT NULL,
    updated_ms      BIGINT NOT NULL
);
CREATE INDEX pilots_organisation ON pilots (organisation_id);
