//! Pilot Desk's pure domain logic.
//!
//! Everything here is plain data and arithmetic: no network, no clock, no database. That keeps it
//! fast to test, lets the browser run the same code compiled to wasm, and means the server, the
//! CLI and the report all share one definition of every number and every rule.
//!
//! * [`account`]: the roles people have and what each role may do.
//! * [`pilot`]: the pilot record's vocabulary (status life cycle, hardware notes) and its validation.
//! * [`clock`]: calendar formatting of Unix-millisecond timestamps (the clock itself lives at the edges).

pub mod account;
pub mod clock;
pub mod pilot;
