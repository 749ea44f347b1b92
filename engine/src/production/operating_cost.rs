//! Operating-point cost, Estimated: what one million tokens cost on a candidate at a given
//! throughput.
//!
//! cost per 1M tokens = price per GPU-hour × GPUs ÷ (tokens/s × 3,600 s/h) × 1,000,000
//!
//! The throughput is what the caller predicts the GPUs serve (the capacity plan: the production
//! rate × the mean lengths; the load-tests page: the pilot's twin at the asked rate), never a
//! decode ceiling, which no system reaches. The output and input figures each charge the whole GPU-hour to one
//! token stream (the way per-token price lists quote each side), so they are not to be added.
//! The result is Estimated: it carries the prediction's error and the assumption that the GPUs
//! are paid by the hour whether busy or not.
//!
//! Prices are staff-only: the customer's report never shows any.
//!
//! A price carries the installation's currency (an ISO 4217 code such as `EUR`) when one is
//! set; the working and the figures then name it, and without one they are plain numbers in
//! whatever currency the prices were entered in.

use serde::{Deserialize, Serialize};

/// A price per GPU-hour for one catalog GPU (staff-only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuHourPrice {
    pub gpu_id: String,
    /// Currency units per GPU per hour.
    pub price_per_gpu_hour: f64,
    /// The currency of the price (ISO 4217), when the installation has set one.
    #[serde(default)]
    pub currency: Option<String>,
}

/// The cost of a million tokens at the predicted operating point, with its working.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatingCost {
    pub price_per_gpu_hour: f64,
    pub gpus: u32,
    /// The predicted throughput, all GPUs together.
    pub output_tokens_per_s: f64,
    pub input_tokens_per_s: f64,
    pub per_million_output_tokens: f64,
    pub per_million_input_tokens: f64,
    /// `2.5 × 4 GPUs ÷ (199 tok/s × 3,600 s/h) × 1,000,000 = 13.96`.
    pub output_working: String,
    pub input_working: String,
    /// Always `Estimated`.
    pub basis: String,
    /// The currency of the price and of both costs (ISO 4217), when one is set.
    #[serde(default)]
    pub currency: Option<String>,
}

fn per_million(price: f64, gpus: u32, tokens_per_s: f64) -> f64 {
    price * f64::from(gpus) / (tokens_per_s * 3600.0) * 1e6
}

fn working(
    price: f64,
    gpus: u32,
    tokens_per_s: f64,
    result: f64,
    currency: Option<&str>,
) -> String {
    let unit = currency.map(|c| format!(" {c}")).unwrap_or_default();
    format!(
        "{}{unit} per GPU-hour × {gpus} GPUs ÷ ({} tok/s × 3,600 s/h) × 1,000,000 = {}{unit}",
        crate::sizing::estimate::num(price, 2),
        crate::sizing::estimate::num(tokens_per_s, 1),
        crate::sizing::estimate::num(result, 2)
    )
}

/// The cost on `gpus` GPUs at `price_per_gpu_hour` for predicted output and input tokens per
/// second (all GPUs together), the price in `currency` when one is set; `None` unless all are
/// positive.
pub fn cost_at(
    price_per_gpu_hour: f64,
    gpus: u32,
    output_tokens_per_s: f64,
    input_tokens_per_s: f64,
    currency: Option<&str>,
) -> Option<OperatingCost> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    if !positive(price_per_gpu_hour)
        || gpus == 0
        || !positive(output_tokens_per_s)
        || !positive(input_tokens_per_s)
    {
        return None;
    }
    let output = per_million(price_per_gpu_hour, gpus, output_tokens_per_s);
    let input = per_million(price_per_gpu_hour, gpus, input_tokens_per_s);
    Some(OperatingCost {
        price_per_gpu_hour,
        gpus,
        output_tokens_per_s,
        input_tokens_per_s,
        per_million_output_tokens: output,
        per_million_input_tokens: input,
        output_working: working(
            price_per_gpu_hour,
            gpus,
            output_tokens_per_s,
            output,
            currency,
        ),
        input_working: working(
            price_per_gpu_hour,
            gpus,
            input_tokens_per_s,
            input,
            currency,
        ),
        basis: "Estimated".into(),
        currency: currency.map(str::to_string),
    })
}
