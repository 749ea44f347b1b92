-- Real traffic (PostgreSQL). Keep in step with ../sqlite/ (a test checks).
--
-- The pilot's demand profile, combined over all of its gateway-log evidence. Each gateway-log
-- evidence row keeps its own file's profile in `evidence.summary`; several files of one pilot are
-- combined by re-reading their kept raw files (DATA_DIR/evidence/<sha256>) through one
-- accumulator whenever a gateway log is added, and the result is cached here, so pages and
-- `GET /api/v1/pilots/{id}/demand` never re-read gigabytes. `evidence_ids` lists the files
-- the profile covers (JSON array), `requests` and `skipped_lines` what was read.
CREATE TABLE traffic_profiles (
    pilot_id      BIGINT PRIMARY KEY REFERENCES pilots (id) ON DELETE CASCADE,
    profile       TEXT    NOT NULL,
    evidence_ids  TEXT    NOT NULL,
    requests      BIGINT  NOT NULL,
    skipped_lines BIGINT  NOT NULL,
    computed_ms   BIGINT  NOT NULL
);
