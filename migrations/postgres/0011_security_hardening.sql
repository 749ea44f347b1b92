-- Sign-in back-off per client address as well as per e-mail address (issue #13): each attempt
-- records the address it came from.
ALTER TABLE login_failures ADD COLUMN client TEXT NOT NULL DEFAULT '';
CREATE INDEX login_failures_client ON login_failures (client, at_ms);

-- API tokens expire (default 90 days, at most 365, chosen at creation). Tokens issued before
-- this migration never expired: they get 90 days from now.
ALTER TABLE api_tokens ADD COLUMN expires_ms BIGINT;
UPDATE api_tokens SET expires_ms = CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT) + CAST(90 AS BIGINT) * 86400000
    WHERE expires_ms IS NULL;
