//! Little's law: mean number in the system L = arrival rate λ × mean time in the system W.
//!
//! It holds for any stable system over a long enough window, whatever the distributions, which
//! makes it a cross-check between two independent measurements of load: the gateway log's
//! exact in-flight sweep against its own arrival rate and durations, or vLLM's
//! Δ`e2e_request_latency_seconds_sum` ÷ Δt against the log. Over a window that contains whole
//! requests only, the two agree exactly; requests straddling the window's edges make them
//! differ, and a large difference means the window is too short or the data are inconsistent
//! (clocks, missing requests, a log from another period).

use serde::{Deserialize, Serialize};

/// Mean number in the system predicted by Little's law: `arrival_rate_per_s × mean_time_in_system_s`.
pub fn mean_in_flight(arrival_rate_per_s: f64, mean_time_in_system_s: f64) -> f64 {
    arrival_rate_per_s * mean_time_in_system_s
}

/// `(value − reference) ÷ reference`; `None` when the reference is 0 (or not finite).
pub fn relative_difference(value: f64, reference: f64) -> Option<f64> {
    (reference != 0.0 && reference.is_finite()).then(|| (value - reference) / reference)
}

/// A prediction by Little's law set against a measured mean in flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LittleCheck {
    pub arrival_rate_per_s: f64,
    pub mean_time_in_system_s: f64,
    /// λ × W.
    pub predicted_in_flight: f64,
    /// The mean in flight measured another way (sweep, or Δ latency sum ÷ Δt).
    pub measured_in_flight: f64,
    /// (predicted − measured) ÷ measured; `None` when nothing was measured in flight.
    pub relative_difference: Option<f64>,
}

impl LittleCheck {
    pub fn new(
        arrival_rate_per_s: f64,
        mean_time_in_system_s: f64,
        measured_in_flight: f64,
    ) -> Self {
        let predicted_in_flight = mean_in_flight(arrival_rate_per_s, mean_time_in_system_s);
        LittleCheck {
            arrival_rate_per_s,
            mean_time_in_system_s,
            predicted_in_flight,
            measured_in_flight,
            relative_difference: relative_difference(predicted_in_flight, measured_in_flight),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_prediction_with_measurement() {
        let check = LittleCheck::new(0.5, 4.0, 2.5);
        assert_eq!(check.predicted_in_flight, 2.0);
        assert!((check.relative_difference.unwrap() + 0.2).abs() < 1e-12);
        assert_eq!(LittleCheck::new(1.0, 1.0, 0.0).relative_difference, None);
    }
}
