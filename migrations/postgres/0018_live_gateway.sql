-- The live gateway feed (issue #36). Keep in step with ../sqlite/.
--
-- A gateway (LiteLLM's `generic_api` callback) posts each finished request to
-- `POST /api/v1/pilots/{id}/gateway/records` with a per-pilot ingest token: write-only, one
-- pilot, named, revocable, shown once; only its SHA-256 is kept (`prefix` lets people tell
-- tokens apart). It is never a user's token: `created_by` is who made it, for the record.
CREATE TABLE ingest_tokens (
    id           BIGSERIAL PRIMARY KEY,
    pilot_id     BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    created_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_ms   BIGINT NOT NULL,
    last_used_ms BIGINT,
    revoked_ms   BIGINT
);
CREATE INDEX ingest_tokens_pilot ON ingest_tokens (pilot_id);

-- Every record received, as one JSON line in the form it was sent. `request_key` (the
-- request's id, else a hash of the record) is unique per pilot, so a retried or replayed post
-- never counts twice. `day` (UTC date of the request's start) and `stream` (the record's
-- format: `litellm_standard_payload`, `generic_jsonl`, …) say which day file it rolls into.
CREATE TABLE live_gateway_records (
    id          BIGSERIAL PRIMARY KEY,
    pilot_id    BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    request_key TEXT    NOT NULL,
    day         TEXT    NOT NULL,
    stream      TEXT    NOT NULL,
    start_ms    BIGINT NOT NULL,
    line        TEXT    NOT NULL,
    token_id    BIGINT REFERENCES ingest_tokens (id) ON DELETE SET NULL,
    received_ms BIGINT NOT NULL,
    UNIQUE (pilot_id, request_key)
);
CREATE INDEX live_gateway_records_day ON live_gateway_records (pilot_id, day, stream, start_ms);

-- One gateway-log evidence file per pilot, day and stream, rolled from its records: `received`
-- counts the records accepted (raised in the transaction that inserts them), `rolled` how many
-- the day's evidence file holds; a day with received > rolled is rolled again. The evidence row
-- is listed and withdrawable like any file; a roll replaces its raw file and summary in place.
CREATE TABLE live_gateway_days (
    pilot_id         BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    day              TEXT    NOT NULL,
    stream           TEXT    NOT NULL,
    received         BIGINT NOT NULL,
    rolled           BIGINT NOT NULL DEFAULT 0,
    evidence_id      BIGINT REFERENCES evidence (id) ON DELETE SET NULL,
    last_received_ms BIGINT NOT NULL,
    PRIMARY KEY (pilot_id, day, stream)
);
