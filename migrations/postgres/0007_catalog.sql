-- The sizing catalog's additions (PostgreSQL). Keep in step with ../sqlite/ (a test checks).
--
-- The reviewed GPU and model catalogs ship with the engine (engine/data/*.json). Here live what
-- an installation adds: GPUs added or edited by an admin (`spec`: the engine's GpuSpec as JSON;
-- NULL when only a price is set for a built-in card), unit prices, and models added by pasting a
-- Hugging Face config.json (`spec`: the engine's ModelSpec as JSON; `config`: the pasted text).
CREATE TABLE catalog_gpus (
    id          TEXT    PRIMARY KEY,
    spec        TEXT,
    unit_price  DOUBLE PRECISION,
    updated_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    updated_ms  BIGINT NOT NULL
);

CREATE TABLE catalog_models (
    id          TEXT    PRIMARY KEY,
    spec        TEXT    NOT NULL,
    config      TEXT    NOT NULL,
    created_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_ms  BIGINT NOT NULL
);
