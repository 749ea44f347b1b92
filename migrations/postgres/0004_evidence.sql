-- Evidence files of a pilot (PostgreSQL). Keep in step with ../sqlite/ (a test checks).
--
-- One row per uploaded or pasted file. The raw bytes stay on disk under DATA_DIR/evidence/<sha256>
-- so evidence can be re-analysed and audited; `summary` is the JSON of what the importer read
-- (for a vLLM start-up log: the parsed figures and the settings to predict them with). The same
-- content twice on one pilot is refused by the unique key.
CREATE TABLE evidence (
    id          BIGSERIAL PRIMARY KEY,
    pilot_id    BIGINT NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    file_name   TEXT    NOT NULL,
    sha256      TEXT    NOT NULL,
    size_bytes  BIGINT NOT NULL,
    summary     TEXT    NOT NULL,
    uploaded_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    uploaded_ms BIGINT NOT NULL,
    UNIQUE (pilot_id, sha256)
);
CREATE INDEX evidence_pilot ON evidence (pilot_id, kind);
