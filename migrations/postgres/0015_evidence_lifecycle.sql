-- Evidence that can be corrected: a file is withdrawn (with a reason) and grades nothing, or
-- restored; every such step is kept as an event, so the file's history (uploaded, withdrawn,
-- restored, by whom, why) stays visible to everyone who can see the pilot and in the report.
-- The upload itself is the evidence row (uploaded_by, uploaded_ms). A pilot can be archived
-- (read-only). Keep in step with ../sqlite/.
ALTER TABLE evidence ADD COLUMN withdrawn_ms BIGINT;

CREATE TABLE evidence_events (
    id          BIGSERIAL PRIMARY KEY,
    evidence_id BIGINT NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    action      TEXT    NOT NULL CHECK (action IN ('withdrawn', 'restored')),
    reason      TEXT    NOT NULL,
    by_user     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    by_label    TEXT    NOT NULL,
    at_ms       BIGINT NOT NULL
);
CREATE INDEX evidence_events_evidence ON evidence_events (evidence_id, id);

ALTER TABLE pilots ADD COLUMN archived_ms BIGINT;
