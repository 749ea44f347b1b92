-- Raw evidence files kept in the database for several instances on PostgreSQL (see
-- ../postgres/0014_evidence_blobs.sql). On SQLite (one instance) the files stay under
-- DATA_DIR/evidence/ and this table stays empty; it exists so both backends have one schema.
CREATE TABLE evidence_blobs (
    sha256  TEXT    NOT NULL,
    chunk   INTEGER NOT NULL,
    bytes   BLOB    NOT NULL,
    PRIMARY KEY (sha256, chunk)
);
