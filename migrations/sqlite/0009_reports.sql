-- Report exports and share links (sqlite). Keep in step with ../postgres/ (a test checks).
--
-- Every PDF or HTML export is recorded: who, when, which plan version it was graded against,
-- and the SHA-256 of the bytes handed out, so a report a customer forwards can be matched to its
-- export. A share link lets a customer contact without an account read one pilot's report; only
-- the SHA-256 of its token is stored, it expires, and revoking it keeps the row for the record.
CREATE TABLE report_exports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    pilot_id     INTEGER NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    exported_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    via          TEXT NOT NULL,
    format       TEXT NOT NULL,
    lang         TEXT NOT NULL,
    plan_version INTEGER,
    sha256       TEXT NOT NULL,
    size_bytes   INTEGER NOT NULL,
    created_ms   INTEGER NOT NULL
);
CREATE INDEX report_exports_pilot ON report_exports (pilot_id, created_ms);

CREATE TABLE share_links (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    pilot_id    INTEGER NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    contact     TEXT NOT NULL,
    lang        TEXT NOT NULL,
    created_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_ms  INTEGER NOT NULL,
    expires_ms  INTEGER NOT NULL,
    revoked_ms  INTEGER
);
CREATE INDEX share_links_pilot ON share_links (pilot_id);
