use super::*;
use crate::sizing::WeightPrecision;

#[test]
fn precision_names_from_the_plan_parse() {
    use super::precision::parse_precision_name;
    assert_eq!(parse_precision_name("FP8"), Some(WeightPrecision::Fp8));
    assert_eq!(
        parse_precision_name("AWQ-INT4"),
        Some(WeightPrecision::Int4)
    );
    assert_eq!(parse_precision_name("FP16"), Some(WeightPrecision::Fp16));
    assert_eq!(
        parse_precision_name("gptq int4"),
        Some(WeightPrecision::Int4)
    );
    assert_eq!(parse_precision_name("fp6"), None);
}

#[test]
fn the_operating_cost_is_the_hourly_price_over_the_tokens_with_its_working() {
    // The arithmetic by hand: $2.50/h × 4 GPUs at 200 output tok/s = $10 per 720,000 tokens.
    let cost = cost_at(2.5, 4, 200.0, 2_000.0, None).unwrap();
    assert!((cost.per_million_output_tokens - 13.888_888_888_888_89).abs() < 1e-9);
    assert!((cost.per_million_input_tokens - 1.388_888_888_888_889).abs() < 1e-9);
    assert_eq!(
        cost.output_working,
        "2.50 per GPU-hour × 4 GPUs ÷ (200.0 tok/s × 3,600 s/h) × 1,000,000 = 13.89"
    );
    assert_eq!(cost.basis, "Estimated");
    assert_eq!(cost.currency, None);
    // With the installation's currency, the price, the result and the figure name it.
    let cost = cost_at(2.5, 4, 200.0, 2_000.0, Some("EUR")).unwrap();
    assert_eq!(
        cost.output_working,
        "2.50 EUR per GPU-hour × 4 GPUs ÷ (200.0 tok/s × 3,600 s/h) × 1,000,000 = 13.89 EUR"
    );
    assert_eq!(cost.currency.as_deref(), Some("EUR"));
    assert!(cost_at(0.0, 4, 200.0, 2_000.0, None).is_none());
}
