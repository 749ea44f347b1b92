-- When each pass mark first became gradable (issue #36). Keep in step with ../sqlite/.
--
-- A mark is gradable once the evidence gives it a figure it can pass or fail on. The moment is
-- noted the first time the pilot's overview is made for a state in which the mark grades
-- (after every roll of the live feed, scrape, upload and plan approval, and on a view), and
-- never moved after: withdrawing the evidence and uploading it again keeps the first moment.
-- Keyed by plan version and notation, since a new version's marks are new marks.
CREATE TABLE gradable_marks (
    pilot_id      BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    plan_version  BIGINT NOT NULL,
    notation      TEXT    NOT NULL,
    first_ms      BIGINT NOT NULL,
    PRIMARY KEY (pilot_id, plan_version, notation)
);
