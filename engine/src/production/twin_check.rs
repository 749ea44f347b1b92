//! The pilot's capacity twin ([`crate::twin`]) with the serving configuration it was fitted on.
//!
//! The twin is a timing model fitted on the pilot's load tests: step costs of one GPU type, one
//! tensor/pipeline split and one weight precision. [`PilotTwin`] keeps it together with that
//! configuration, so the capacity plan can transfer it to other cards from where it was measured
//! ([`super::capacity_plan::MeasuredTwin::from_pilot`]).

use crate::loadtest::LatencyTarget;
use crate::sizing::WeightPrecision;
use crate::twin::Twin;
use serde::{Deserialize, Serialize};

/// The serving configuration the pilot's load tests measured, as candidates describe theirs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredConfiguration {
    /// Catalog id of the GPU.
    pub gpu_id: String,
    /// Tensor-parallel size of one copy.
    pub tp: u32,
    /// Pipeline stages of one copy.
    pub pp: u32,
    pub precision: WeightPrecision,
}

/// The pilot's fitted twin, the configuration it was fitted on and the plan's marks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PilotTwin {
    pub configuration: MeasuredConfiguration,
    pub twin: Twin,
    /// The plan's latency pass marks (all of them, scenario marks included).
    pub marks: Vec<LatencyTarget>,
}
