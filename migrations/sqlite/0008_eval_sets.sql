-- Evaluation sets (SQLite): every version of a pilot's evaluation set, kept for good. Keep in
-- step with ../postgres/ (a test checks).
--
-- Versioned like the plan (0003_plans.sql): a version starts as a draft (edited on the set page
-- or replaced by an uploaded file), is approved, and from then on is frozen (the trigger below
-- refuses any change to what it says, whatever the application does); a change is a new draft
-- version starting from the latest. At most one draft per pilot is open at a time. `items` is
-- the JSON of the engine's `EvalSet`; `evidence_id` the uploaded file it came from, if any.
-- Evaluation runs (evidence of kind `eval_run`) record the version number they were read
-- against.

CREATE TABLE eval_set_versions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    pilot_id    INTEGER NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number >= 1),
    status      TEXT    NOT NULL CHECK (status IN ('draft', 'approved')),
    items       TEXT    NOT NULL,
    revision    INTEGER NOT NULL DEFAULT 1,
    source      TEXT    NOT NULL DEFAULT '',
    evidence_id INTEGER REFERENCES evidence (id) ON DELETE SET NULL,
    created_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_ms  INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL,
    approved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    approved_ms INTEGER,
    UNIQUE (pilot_id, number),
    CHECK ((status = 'draft' AND approved_ms IS NULL AND approved_by IS NULL)
        OR (status = 'approved' AND approved_ms IS NOT NULL))
);
CREATE UNIQUE INDEX eval_set_versions_one_draft ON eval_set_versions (pilot_id) WHERE status = 'draft';

CREATE TRIGGER eval_set_versions_frozen BEFORE UPDATE ON eval_set_versions
WHEN OLD.status = 'approved' AND (
       NEW.status IS NOT OLD.status
    OR NEW.items IS NOT OLD.items
    OR NEW.number IS NOT OLD.number
    OR NEW.pilot_id IS NOT OLD.pilot_id
    OR NEW.revision IS NOT OLD.revision
    OR NEW.approved_ms IS NOT OLD.approved_ms)
BEGIN
    SELECT RAISE(ABORT, 'approved evaluation set versions are frozen');
END;
