-- Pilot plans (PostgreSQL): every version of a pilot's plan, kept for good. Keep in step with
-- ../sqlite/ (a test checks).
--
-- A version's content (pass marks, scenarios, demand, quality set, serving) is the JSON of the
-- engine's `PlanContent`, written and read only by the store. Version 1 starts as a draft; an
-- approved version is frozen (the trigger below refuses any change to what it says, whatever
-- the application does); an amendment is a new draft version with a reason. At most one draft
-- per pilot is open at a time. `revision` counts the saves of a draft, so a form loaded before
-- someone else's save cannot overwrite it.

CREATE TABLE plan_versions (
    id               BIGSERIAL PRIMARY KEY,
    pilot_id         BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    number           BIGINT NOT NULL CHECK (number >= 1),
    status           TEXT    NOT NULL CHECK (status IN ('draft', 'approved')),
    content          TEXT    NOT NULL,
    revision         BIGINT NOT NULL DEFAULT 1,
    created_by       BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_ms       BIGINT NOT NULL,
    updated_ms       BIGINT NOT NULL,
    amendment_reason TEXT,
    approved_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    approved_ms      BIGINT,
    UNIQUE (pilot_id, number),
    CHECK ((status = 'draft' AND approved_ms IS NULL AND approved_by IS NULL)
        OR (status = 'approved' AND approved_ms IS NOT NULL)),
    CHECK (number = 1 OR amendment_reason IS NOT NULL)
);
CREATE UNIQUE INDEX plan_versions_one_draft ON plan_versions (pilot_id) WHERE status = 'draft';

CREATE FUNCTION plan_versions_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'approved' AND (
           NEW.status IS DISTINCT FROM OLD.status
        OR NEW.content IS DISTINCT FROM OLD.content
        OR NEW.number IS DISTINCT FROM OLD.number
        OR NEW.pilot_id IS DISTINCT FROM OLD.pilot_id
        OR NEW.revision IS DISTINCT FROM OLD.revision
        OR NEW.amendment_reason IS DISTINCT FROM OLD.amendment_reason
        OR NEW.approved_ms IS DISTINCT FROM OLD.approved_ms) THEN
        RAISE EXCEPTION 'approved plan versions are frozen';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER plan_versions_frozen BEFORE UPDATE ON plan_versions
    FOR EACH ROW EXECUTE FUNCTION plan_versions_frozen();
