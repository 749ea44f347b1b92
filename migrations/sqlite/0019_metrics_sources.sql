-- vLLM metrics pulled on a schedule (issue #36). Keep in step with ../postgres/.
--
-- One source per pilot: a vLLM `/metrics` URL (or a Prometheus `/federate` URL with its
-- selector), how often, and an optional bearer token (sent to the target, never shown again).
-- Every instance runs the scheduler; a scrape is taken by whoever first moves `lease_until_ms`
-- past now on a due row (one UPDATE, atomic on both databases), so two instances never scrape
-- the same target at once. `last_*` say how the latest attempt went and when one last
-- succeeded; the pilot page shows them.
CREATE TABLE metrics_sources (
    pilot_id         INTEGER PRIMARY KEY REFERENCES pilots (id) ON DELETE CASCADE,
    url              TEXT    NOT NULL,
    selector         TEXT,
    interval_s       INTEGER NOT NULL,
    bearer_token     TEXT,
    created_by       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    updated_ms       INTEGER NOT NULL,
    next_due_ms      INTEGER NOT NULL,
    lease_owner      TEXT,
    lease_until_ms   INTEGER,
    last_attempt_ms  INTEGER,
    last_success_ms  INTEGER,
    last_error       TEXT,
    last_evidence_id INTEGER,
    scrapes          INTEGER NOT NULL DEFAULT 0,
    failures         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX metrics_sources_due ON metrics_sources (next_due_ms);
