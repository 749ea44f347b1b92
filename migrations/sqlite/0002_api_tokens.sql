-- Personal API tokens for scripts and CI pipelines (`Authorization: Bearer …`). Only the SHA-256
-- of a token is stored; `prefix` (its first characters) lets a person tell their tokens apart.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    created_ms   INTEGER NOT NULL,
    last_used_ms INTEGER,
    revoked_ms   INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
