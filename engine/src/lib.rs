//! Pilot Desk's pure domain logic.
//!
//! Everything here is plain data and arithmetic: no network, no clock, no database. That keeps it
//! fast to test, lets the browser run the same code compiled to wasm, and means the server, the
//! CLI and the report all share one definition of every number and every rule.
//!
//! * [`account`]: the roles people have and what each role may do.
//! * [`pilot`]: the pilot record's vocabulary (status life cycle, hardware notes) and its validation.
//! * [`charts`]: plotters SVG charts (memory bars, decode ceilings) shared by pages and reports.
//! * [`format`]: number formatting shared by pages, charts and the report.
//! * [`clock`]: calendar formatting of Unix-millisecond timestamps (the clock itself lives at the edges).
//! * [`ingest`]: load-test importers (vllm bench serve, AIPerf, GenAI-Perf, guidellm) into one
//!   vocabulary of operating points with defined, millisecond latency statistics.
//! * [`plan`]: the pilot plan: pass marks with exact definitions, scenarios, demand, quality set and
//!   serving; templates, forms, the draft → approved → amended life cycle and readable diffs.
//! * [`quality`]: quality evidence: evaluation sets and runs, answer quality and retrieval hit@k
//!   with confidence intervals, truncation, precision comparisons (McNemar) and lm-eval results.
//! * [`verdict`]: grading pass marks against evidence statistics: pass, fail, not measured or not
//!   comparable, always with the value used and a one-line explanation.
//! * [`stats`]: exact quantiles, histogram quantiles with error bounds, the in-flight sweep, the
//!   busiest window and Little's law.
//! * [`traffic`]: gateway per-request logs (LiteLLM, generic JSONL/CSV) streamed into
//!   [`traffic::GatewayRecord`]s, and a seeded synthetic log generator.
//! * [`demand`]: the demand profile from real traffic (busiest hour, token lengths, exact
//!   concurrency, failures) and its scaling to production.
//! * [`metrics`]: vLLM's Prometheus `/metrics`: the exposition parser, one-scrape snapshots and
//!   two-scrape windows with limit alarms.
//! * [`plausible`]: the one set of physical-plausibility rules every importer checks numbers
//!   against (latencies, counts, fractions, rates, memory, instants), with their bounds.
//! * [`sizing`]: the sizing engine: GPU and model catalogs, weights, KV cache, decode and prefill
//!   ceilings, the planning and vLLM memory models, recommendations and start-up log calibration.

pub mod account;
pub mod charts;
pub mod clock;
pub mod demand;
pub mod format;
pub mod ingest;
pub mod loadtest;
pub mod locale;
pub mod metrics;
pub mod pilot;
pub mod plan;
pub mod plausible;
pub mod production;
pub mod quality;
pub mod run_context;
pub mod sizing;
pub mod stats;
pub mod traffic;
pub mod twin;
pub mod verdict;
