-- Uploads checked and waiting for the uploader's confirmation: the evidence page's form without
-- JavaScript reads the file, keeps it as a blob and lists what would be recorded; only
-- "Store" turns it into an evidence row. A row lives 30 minutes at most (older ones are
-- removed, with their blob when nothing else uses it). `token` is random and only the user who
-- staged it may use it. Keep in step with ../sqlite/.
CREATE TABLE staged_uploads (
    token        TEXT    PRIMARY KEY,
    pilot_id     BIGINT  NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    user_id      BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file_name    TEXT    NOT NULL,
    sha256       TEXT    NOT NULL,
    size_bytes   BIGINT  NOT NULL,
    fields_json  TEXT    NOT NULL,
    preview_json TEXT    NOT NULL,
    staged_ms    BIGINT  NOT NULL
);
CREATE INDEX staged_uploads_staged ON staged_uploads (staged_ms);
CREATE INDEX staged_uploads_sha ON staged_uploads (sha256);
