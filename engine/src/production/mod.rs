//! Production: what the pilot's evidence says to buy, and the pieces that feed it.
//!
//! * [`capacity_plan`] ([`plan_capacity`]): the production recommendation. Every candidate goes
//!   through one model of production: the same demand, the pilot's twin transferred to the
//!   candidate, one copy simulated under its share of the arrivals with one copy down, and one
//!   ranking, with the uncertainty of the headline and the load test that settles it.
//! * [`demand_process`]: production demand as an arrival process, the pilot's busiest hour grown
//!   to production (Poisson without a log), and the sessions it puts in flight.
//! * [`calibration`] ([`calibrate`]): the pilot's load tests placed on a catalog configuration
//!   (GPU, split, precision), with the efficiency each measured against its decode ceiling.
//! * [`precision`]: reading the plan's and the evaluation runs' precision names.
//! * [`operating_cost`] ([`cost_at`]): what a million tokens cost at a given throughput.
//! * [`twin_check`]: [`PilotTwin`], the pilot's fitted twin with the configuration it was fitted
//!   on ([`MeasuredConfiguration`]), which [`capacity_plan::MeasuredTwin::from_pilot`] takes.
//!
//! # Why one model
//!
//! Each candidate is judged by the same model rather than by a stack of worst cases and ratios
//! carried from the pilot's hardware, so the pages, the report, the API and the CLI name the
//! same configuration for the same reasons (see [`capacity_plan`]'s docs). It replaced an older
//! recommender that stacked a session bound and carried the pilot's efficiency ratio to every
//! card (issue #19). Pure functions: no IO, no clock; the same input gives the same output.

pub mod calibration;
pub mod capacity_plan;
pub mod demand_process;
pub mod operating_cost;
pub mod precision;
pub mod twin_check;

#[cfg(test)]
mod tests;

pub use calibration::{Calibration, MeasuredPoint, calibrate};
pub use capacity_plan::{
    CandidateForecast, CapacityPlan, CapacityPlanInput, Configuration, MeasuredTwin, NextStep,
    plan_capacity,
};
pub use demand_process::{
    ArrivalBasis, BusiestHour, DemandProcess, LoggedRequest, ServiceTimes, SessionsInFlight,
    lengths_from_distribution, sessions_in_flight,
};
pub use operating_cost::{GpuHourPrice, OperatingCost, cost_at};
pub use twin_check::{MeasuredConfiguration, PilotTwin};
