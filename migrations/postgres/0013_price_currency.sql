-- Installation settings, one row a setting; the first is the currency the GPU catalog's prices
-- are entered in (key `price_currency`, an ISO 4217 code such as `EUR`), which every cost
-- then names. No row: prices are plain numbers. Keep in step with ../sqlite/ (a test checks).
CREATE TABLE settings (
    key         TEXT    PRIMARY KEY,
    value       TEXT    NOT NULL,
    updated_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    updated_ms  BIGINT NOT NULL
);
