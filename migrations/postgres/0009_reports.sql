-- Report exports and share links (postgres). Keep in step with ../sqlite/ (a test checks).
--
-- Every PDF or HTML export is recorded: who, when, which plan version it was graded against,
-- and the SHA-256 of the bytes handed out, so a report a customer forwards can be matched to its
-- export. A share link lets a customer contact without an account read one pilot's report; only
-- the SHA-256 of its token is stored, it expires, and revoking it keeps the row for the record.
CREATE TABLE report_exports (
    id           BIGSERIAL PRIMARY KEY,
    pilot_id     BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    exported_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    via          TEXT NOT NULL,
    format       TEXT NOT NULL,
    lang         TEXT NOT NULL,
    plan_version BIGINT,
    sha256       TEXT NOT NULL,
    size_bytes   BIGINT NOT NULL,
    created_ms   BIGINT NOT NULL
);
CREATE INDEX report_exports_pilot ON report_exports (pilot_id, created_ms);

CREATE TABLE share_links (
    id          BIGSERIAL PRIMARY KEY,
    pilot_id    BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    contact     TEXT NOT NULL,
    lang        TEXT NOT NULL,
    created_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL,
    revoked_ms  BIGINT
);
CREATE INDEX share_links_pilot ON share_links (pilot_id);
