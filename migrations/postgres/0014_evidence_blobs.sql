-- Raw evidence files kept in the database, so every server instance on this database reads the
-- same files (several instances behind a load balancer). One row per 1 MiB chunk of a file,
-- keyed by the file's SHA-256 (the evidence rows' `sha256`); a file's chunks are written in one
-- transaction, so a file is there whole or not at all. On SQLite (one instance) the files stay
-- under DATA_DIR/evidence/ and this table stays empty. Keep in step with ../sqlite/.
CREATE TABLE evidence_blobs (
    sha256  TEXT    NOT NULL,
    chunk   INTEGER NOT NULL,
    bytes   BYTEA   NOT NULL,
    PRIMARY KEY (sha256, chunk)
);
