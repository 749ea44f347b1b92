-- What is derived from an evidence file, computed once (SQLite). Keep in step with ../postgres/.
--
-- A page view must not re-read raw files: what the pages need from a file beyond its summary is
-- computed when the file is imported (or once per plan version it is graded against) and kept
-- here, written in the same transaction as the evidence row. `name` says what the row holds:
-- `request_samples` (the per-request figures exact goodput needs, binary) or
-- `goodput:v<plan version>` (the goodput of every operating point against that approved plan
-- version, JSON).
CREATE TABLE evidence_derived (
    evidence_id INTEGER NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    data        BLOB    NOT NULL,
    computed_ms INTEGER NOT NULL,
    PRIMARY KEY (evidence_id, name)
);
