-- What running a GPU costs, and which edition of the report was exported (issue #15). Keep in
-- step with ../postgres/ (a test checks).
--
-- `hour_price`: the price of one GPU for one hour (cloud rate or amortised own hardware), beside
-- the purchase `unit_price`. With it the production recommendation shows what a million tokens
-- cost at the operating point the capacity twin predicts. Staff-only, like the unit price.
ALTER TABLE catalog_gpus ADD COLUMN hour_price REAL;

-- `edition`: `customer` (no prices: what customers and share links get) or `internal` (staff:
-- the recommendation with unit and operating-point costs).
ALTER TABLE report_exports ADD COLUMN edition TEXT NOT NULL DEFAULT 'customer';
