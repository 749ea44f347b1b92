-- vLLM metrics pulled on a schedule (issue #36). Keep in step with ../sqlite/.
--
-- One source per pilot: a vLLM `/metrics` URL (or a Prometheus `/federate` URL with its
-- selector), how often, and an optional bearer token (sent to the target, never shown again).
-- Every instance runs the scheduler; a scrape is taken by whoever first moves `lease_until_ms`
-- past now on a due row (one UPDATE, atomic on both databases), so two instances never scrape
-- the same target at once. `last_*` say how the latest attempt went and when one last
-- succeeded; the pilot page shows them.
CREATE TABLE metrics_sources (
    pilot_id         BIGINT PRIMARY KEY REFERENCES pilots (id) ON DELETE CASCADE,
    url              TEXT    NOT NULL,
    selector         TEXT,
    interval_s       BIGINT NOT NULL,
    bearer_token     TEXT,
    created_by       BIGINT REFERENCES users (id) ON DELETE SET NULL,
    updated_ms       BIGINT NOT NULL,
    next_due_ms      BIGINT NOT NULL,
    lease_owner      TEXT,
    lease_until_ms   BIGINT,
    last_attempt_ms  BIGINT,
    last_success_ms  BIGINT,
    last_error       TEXT,
    last_evidence_id BIGINT,
    scrapes          BIGINT NOT NULL DEFAULT 0,
    failures         BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX metrics_sources_due ON metrics_sources (next_due_ms);
