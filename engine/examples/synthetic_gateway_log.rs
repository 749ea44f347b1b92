//! Writes synthetic pilot traffic as generic gateway JSON Lines to standard output.
//!
//! `cargo run -p engine --release --example synthetic_gateway_log -- [REQUESTS] [SEED] > log.jsonl`
//!
//! Without REQUESTS: one working week of 40 users (about 6,000 requests). With it: a working week
//! scaled to exactly that many requests.

use engine::traffic::{SyntheticConfig, write_synthetic_jsonl};
use std::io;

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let requests: Option<u64> = args
        .next()
        .map(|a| a.parse().expect("REQUESTS: a whole number"));
    let seed: u64 = args
        .next()
        .map_or(42, |a| a.parse().expect("SEED: a whole number"));
    let config = match requests {
        Some(n) => SyntheticConfig::with_requests(seed, n),
        None => SyntheticConfig::pilot_week(seed),
    };
    let written = write_synthetic_jsonl(&config, io::stdout().lock())?;
    eprintln!("{written} requests written");
    Ok(())
}
