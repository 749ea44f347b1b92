-- Pilot plans (SQLite): every version of a pilot's plan, kept for good. Keep in step with
-- ../postgres/ (a test checks).
--
-- A version's content (pass marks, scenarios, demand, quality set, serving) is the JSON of the
-- engine's `PlanContent`, written and read only by the store. Version 1 starts as a draft; an
-- approved version is frozen (the trigger below refuses any change to what it says, whatever
-- the application does); an amendment is a new draft version with a reason. At most one draft
-- per pilot is open at a time. `revision` counts the saves of a draft, so a form loaded before
-- someone else's save cannot overwrite it.

CREATE TABLE plan_versions (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    pilot_id         INTEGER NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    number           INTEGER NOT NULL CHECK (number >= 1),
    status           TEXT    NOT NULL CHECK (status IN ('draft', 'approved')),
    content          TEXT    NOT NULL,
    revision         INTEGER NOT NULL DEFAULT 1,
    created_by       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_ms       INTEGER NOT NULL,
    updated_ms       INTEGER NOT NULL,
    amendment_reason TEXT,
    approved_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    approved_ms      INTEGER,
    UNIQUE (pilot_id, number),
    CHECK ((status = 'draft' AND approved_ms IS NULL AND approved_by IS NULL)
        OR (status = 'approved' AND approved_ms IS NOT NULL)),
    CHECK (number = 1 OR amendment_reason IS NOT NULL)
);
CREATE UNIQUE INDEX plan_versions_one_draft ON plan_versions (pilot_id) WHERE status = 'draft';

CREATE TRIGGER plan_versions_frozen BEFORE UPDATE ON plan_versions
WHEN OLD.status = 'approved' AND (
       NEW.status IS NOT OLD.status
    OR NEW.content IS NOT OLD.content
    OR NEW.number IS NOT OLD.number
    OR NEW.pilot_id IS NOT OLD.pilot_id
    OR NEW.revision IS NOT OLD.revision
    OR NEW.amendment_reason IS NOT OLD.amendment_reason
    OR NEW.approved_ms IS NOT OLD.approved_ms)
BEGIN
    SELECT RAISE(ABORT, 'approved plan versions are frozen');
END;
