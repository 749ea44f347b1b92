-- Personal API tokens for scripts and CI pipelines (`Authorization: Bearer …`). Only the SHA-256
-- of a token is stored; `prefix` (its first characters) lets a person tell their tokens apart.
CREATE TABLE api_tokens (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    created_ms   BIGINT NOT NULL,
    last_used_ms BIGINT,
    revoked_ms   BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
