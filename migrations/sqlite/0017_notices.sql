-- What a plain form's answer says on the page it redirects to (the evidence page without
-- JavaScript: an importer's refusal naming file, line and field, a discarded file's name). The
-- redirect carries only the random `token` (`?notice=<token>`), never the text, so nobody
-- can put words into the page's message box with a crafted link; only the user it was written
-- for sees it, on its pilot, for 10 minutes. Keep in step with ../postgres/.
CREATE TABLE notices (
    token      TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pilot_id   INTEGER NOT NULL REFERENCES pilots (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('error', 'done')),
    message    TEXT    NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX notices_created ON notices (created_ms);
