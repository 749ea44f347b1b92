//! `server recommend --pilot <id> [--json]`: the pilot's production recommendation from the
//! database that `DATABASE_URL` / `DATA_DIR` name: the same object as
//! `GET /api/v1/pilots/{id}/recommendation` answers staff (with costs where the GPU catalog has
//! prices per GPU-hour), or, without `--json`, its story, the recommended configuration with
//! its predicted marks and ranges, the `vllm serve` line each copy starts with, the next steps
//! and the warnings. `--include-unorderable` weighs cards at end of sale or end of life too
//! (the API's `?include_unorderable=true`).

use crate::outln;
use engine::production::CapacityPlan;
use engine::production::capacity_plan::NextStep;

/// Which pilot, and how to print.
#[derive(clap::Args, Debug)]
pub struct RecommendArgs {
    /// The pilot's id (as in /pilots/<id>)
    #[arg(long)]
    pub pilot: i64,
    /// Print the whole plan as JSON (the REST API's object)
    #[arg(long)]
    pub json: bool,
    /// Weigh cards that can no longer be ordered (end of sale, end of life) too
    #[arg(long)]
    pub include_unorderable: bool,
}

/// Prints the recommendation of the configured database's pilot.
pub async fn run(args: &RecommendArgs, config: &crate::config::Config) -> anyhow::Result<()> {
    let store = crate::open_store(config).await?;
    let services = crate::services(config, store.clone());
    let pilot = store
        .pilot(args.pilot)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .ok_or_else(|| anyhow::anyhow!("--pilot: no pilot {}", args.pilot))?;
    let plan = desk::capacity::for_pilot_with(&services, &pilot, true, args.include_unorderable)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .map_err(|why| anyhow::anyhow!("pilot {}: {why}", args.pilot))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&plan)?);
    } else {
        print_plan(&plan);
    }
    Ok(())
}

fn print_plan(plan: &CapacityPlan) {
    outln!("{}\n", plan.story);
    match &plan.recommended {
        Some(r) => {
            outln!("Recommended: {}", r.configuration.label);
            outln!("  {}", r.why);
            for mark in &r.predicted {
                outln!(
                    "  {}: {} (range {}–{}), one copy down",
                    mark.mark,
                    ms(mark.value),
                    ms(mark.low),
                    ms(mark.high)
                );
            }
            outln!("  {}", r.sensitivity.sentence);
            outln!("\nStart each copy with:\n  {}", r.start_command);
        }
        None => outln!("No configuration holds every mark with one copy down."),
    }
    if !plan.next_steps.is_empty() {
        outln!("\nNext steps:");
        for step in &plan.next_steps {
            match step {
                NextStep::LoadTest {
                    sentence, commands, ..
                } => {
                    outln!("  - {sentence}");
                    for c in commands {
                        outln!("    # {}\n    {}", c.label, c.command);
                    }
                }
                NextStep::Evaluation { sentence, .. } => outln!("  - {sentence}"),
            }
        }
    }
    if !plan.warnings.is_empty() {
        outln!("\nWarnings:");
        for warning in &plan.warnings {
            outln!("  - {warning}");
        }
    }
}

fn ms(value: Option<f64>) -> String {
    value.map_or_else(|| "not predicted".into(), |v| format!("{v:.0} ms"))
}
