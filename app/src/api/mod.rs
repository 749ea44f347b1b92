//! Server functions, grouped by what they act on.
//!
//! Each one is thin: authorise through [`crate::server::auth`], validate through the engine, call
//! the store, and pass the result through [`crate::server::respond`] so errors carry their HTTP
//! status. Endpoints are named explicitly (`/api/<name>`) so scripts and tests can rely on them.

pub mod admin;
pub mod calibration;
pub mod catalog;
pub mod live;
pub mod load_tests;
pub mod pilots;
pub mod plans;
pub mod predict;
pub mod quality;
pub mod reports;
pub mod session;
pub mod tokens;
pub mod traffic;
pub mod verdict;
