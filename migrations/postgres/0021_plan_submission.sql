-- A draft submitted for approval (issue #37). Keep in step with ../sqlite/.
--
-- The workflow is draft → submitted for approval → approved (frozen) → amended. Submission is
-- a mark on the draft (who, when), not a status of its own: the draft stays the one open
-- version, and a save of its content takes it back to a plain draft, so an approver always
-- approves what was submitted. The approval inbox lists the submitted drafts.
ALTER TABLE plan_versions ADD COLUMN submitted_ms BIGINT;
ALTER TABLE plan_versions ADD COLUMN submitted_by BIGINT REFERENCES users (id) ON DELETE SET NULL;
