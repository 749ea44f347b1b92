//! Per-stream speed calibrated on the pilot's own load tests.
//!
//! A decode ceiling is an upper bound no system reaches: the benchmark report's four V100s at
//! TP=4 have a ceiling of 255 tok/s for Qwen2.5-7B in FP16 and measured 31–38 tok/s per stream.
//! A plan asking ≥ 60 tok/s would pass on the ceiling alone. So the calibration sets the speed
//! the pilot measured against the ceiling of the configuration it measured, the **efficiency**:
//!
//! * per load-test file, the points at its **lowest tested concurrency** (per-stream speed at
//!   low batch is what the ceiling describes; batching lowers it a little, so a higher lowest
//!   concurrency only makes the factor conservative);
//! * per point, the measured per-stream speed = **1000 ÷ TPOT p50** (the median request's
//!   speed; the file's own per-stream figure when TPOT is missing);
//! * the **slowest scenario** at that concurrency speaks for the file (conservative);
//! * its configuration from the run context: GPU (matched to the catalog by name), tensor and
//!   pipeline parallelism (TP defaults to the GPU count, else 1) and the weight precision (else
//!   the pilot's serving precision); the ceiling of that configuration for the pilot's model
//!   comes from the sizing engine, so it is the very number candidates are sized with;
//! * factor = measured ÷ ceiling ([`EfficiencyFactor`]).
//!
//! Files whose configuration cannot be placed (GPU not in the catalog, no TPOT, unknown
//! precision) are left out with a note saying why.
//!
//! The capacity plan does not carry this factor to other cards: it transfers the pilot's twin
//! instead ([`super::capacity_plan`]), from the configuration the factors name.

use crate::sizing::decode::{
    EfficiencyFactor, MeasuredSpeed, SpeedCalibration, topology_decode_ceiling_tokens_per_s,
};
use crate::sizing::gpu::{GpuSpec, gpu_by_name};
use crate::sizing::weights::decode_read_gb_per_token;
use crate::sizing::{ModelSpec, Topology, WeightPrecision};
use serde::{Deserialize, Serialize};

/// One load-test operating point as the calibration reads it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasuredPoint {
    /// The file it comes from, for people (`vllm bench serve, run.jsonl`); points of one file
    /// share it.
    pub file: String,
    pub scenario: String,
    pub concurrency: Option<f64>,
    /// TPOT p50, ms.
    pub tpot_p50_ms: Option<f64>,
    /// The file's own per-stream output tokens/s, when it reports one.
    pub per_stream_tokens_per_s: Option<f64>,
    /// GPU as written in the run context.
    pub gpu: String,
    pub gpu_count: Option<u32>,
    pub tensor_parallel: Option<u32>,
    pub pipeline_parallel: Option<u32>,
    /// Weight precision as written (`fp16`, `awq`, …).
    pub precision: String,
}

impl MeasuredPoint {
    /// Per-stream tokens/s: 1000 ÷ TPOT p50, else the file's figure.
    pub fn per_stream_tokens_per_s(&self) -> Option<f64> {
        self.tpot_p50_ms
            .filter(|t| t.is_finite() && *t > 0.0)
            .map(|t| 1000.0 / t)
            .or(self.per_stream_tokens_per_s)
            .filter(|s| s.is_finite() && *s > 0.0)
    }
}

/// The calibration and why files were left out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub speed: SpeedCalibration,
    pub notes: Vec<String>,
}

/// The efficiency factors of the pilot's load tests (see the module docs). `gpus` is the
/// catalog in use (edited rows included); names not found there are looked up in the bundled
/// catalog.
pub fn calibrate(
    model: &ModelSpec,
    gpus: &[GpuSpec],
    serving_precision: Option<WeightPrecision>,
    points: &[MeasuredPoint],
) -> Calibration {
    let mut out = Calibration::default();
    let mut files: Vec<&str> = Vec::new();
    for p in points {
        if !files.contains(&p.file.as_str()) {
            files.push(&p.file);
        }
    }
    for file in files {
        let of_file: Vec<&MeasuredPoint> = points.iter().filter(|p| p.file == file).collect();
        let lowest = of_file
            .iter()
            .filter(|p| p.per_stream_tokens_per_s().is_some())
            .filter_map(|p| p.concurrency)
            .fold(f64::INFINITY, f64::min);
        let at_lowest: Vec<&&MeasuredPoint> = of_file
            .iter()
            .filter(|p| {
                p.per_stream_tokens_per_s().is_some()
                    && (p.concurrency == Some(lowest) || !lowest.is_finite())
            })
            .collect();
        let Some(slowest) = at_lowest.iter().min_by(|a, b| {
            a.per_stream_tokens_per_s()
                .unwrap_or(f64::INFINITY)
                .total_cmp(&b.per_stream_tokens_per_s().unwrap_or(f64::INFINITY))
        }) else {
            out.notes.push(format!(
                "{file}: no TPOT or per-stream speed, so it calibrates nothing."
            ));
            continue;
        };
        let gpu = gpus
            .iter()
            .find(|g| {
                g.id.eq_ignore_ascii_case(slowest.gpu.trim())
                    || crate::sizing::gpu::same_gpu_name(&g.name, &slowest.gpu) == Some(true)
            })
            .cloned()
            .or_else(|| gpu_by_name(&slowest.gpu));
        let Some(gpu) = gpu else {
            out.notes.push(if slowest.gpu.trim().is_empty() {
                format!("{file}: the run context names no GPU, so its speed cannot be set against a ceiling.")
            } else {
                format!(
                    "{file}: GPU “{}” is not in the catalog, so its speed cannot be set against a ceiling.",
                    slowest.gpu.trim()
                )
            });
            continue;
        };
        let precision = crate::production::precision::parse_precision_name(&slowest.precision)
            .or(serving_precision);
        let Some(precision) = precision else {
            out.notes.push(format!(
                "{file}: the weight precision is not stated, so its ceiling is unknown."
            ));
            continue;
        };
        let tp = slowest
            .tensor_parallel
            .or(slowest.gpu_count)
            .unwrap_or(1)
            .max(1);
        let pp = slowest.pipeline_parallel.unwrap_or(1).max(1);
        let topology = Topology::new(tp, pp, 1);
        let ceiling = topology_decode_ceiling_tokens_per_s(
            gpu.bandwidth_gb_s,
            decode_read_gb_per_token(model, precision),
            &topology,
        );
        let measured = slowest.per_stream_tokens_per_s().unwrap_or(0.0);
        let concurrency = slowest.concurrency.unwrap_or(f64::NAN);
        let scenario = if slowest.scenario.trim().is_empty() {
            String::new()
        } else {
            format!(", scenario “{}”", slowest.scenario.trim())
        };
        let source = format!(
            "{file}{}{scenario}, 1000 ÷ TPOT p50",
            if concurrency.is_finite() {
                format!(", concurrency {}", crate::plan::format_number(concurrency))
            } else {
                String::new()
            }
        );
        match EfficiencyFactor::new(MeasuredSpeed {
            gpu_id: &gpu.id,
            gpu_name: &gpu.name,
            tp,
            pp,
            precision,
            measured_tokens_per_s: (measured * 10.0).round() / 10.0,
            ceiling_tokens_per_s: ceiling,
            concurrency,
            source: &source,
        }) {
            Some(factor) => out.speed.factors.push(factor),
            None => out
                .notes
                .push(format!("{file}: no ceiling could be computed for it.")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::gpu::gpu_by_id;
    use crate::sizing::model_by_id;

    fn point(scenario: &str, concurrency: f64, tpot_ms: f64) -> MeasuredPoint {
        MeasuredPoint {
            file: "vllm bench serve, v100.jsonl".into(),
            scenario: scenario.into(),
            concurrency: Some(concurrency),
            tpot_p50_ms: Some(tpot_ms),
            gpu: "Tesla V100-SXM2-16GB".into(),
            gpu_count: Some(4),
            tensor_parallel: Some(4),
            precision: "fp16".into(),
            ..MeasuredPoint::default()
        }
    }

    #[test]
    fn the_v100_report_calibrates_to_its_slowest_stream_at_concurrency_1() {
        // 38.4 tok/s (short prompt) and 34.5 tok/s (long prompt) at concurrency 1; 30.9 at 8.
        let points = [
            point("short prompt, long answer", 1.0, 1000.0 / 38.4),
            point("long prompt, short answer", 1.0, 1000.0 / 34.5),
            point("long prompt, short answer", 8.0, 1000.0 / 30.9),
        ];
        let model = model_by_id("qwen2.5-7b").unwrap();
        let gpus = vec![gpu_by_id("v100-sxm2-16gb").unwrap()];
        let calibration = calibrate(&model, &gpus, None, &points);
        assert!(calibration.notes.is_empty(), "{:?}", calibration.notes);
        let f = &calibration.speed.factors[0];
        assert_eq!((f.gpu_id.as_str(), f.tp, f.pp), ("v100-sxm2-16gb", 4, 1));
        assert_eq!(f.measured_tokens_per_s, 34.5);
        assert_eq!(f.ceiling_tokens_per_s, 255.3);
        assert!((f.factor - 0.1351).abs() < 1e-4, "{}", f.factor);
        assert_eq!(
            f.source,
            "vllm bench serve, v100.jsonl, concurrency 1, scenario “long prompt, short answer”, 1000 ÷ TPOT p50"
        );
    }

    #[test]
    fn files_that_cannot_be_placed_say_why() {
        let model = model_by_id("qwen2.5-7b").unwrap();
        let mut unknown = point("chat", 1.0, 25.0);
        unknown.gpu = "TPU v5e".into();
        unknown.file = "tpu.json".into();
        let mut silent = point("chat", 1.0, 25.0);
        silent.tpot_p50_ms = None;
        silent.file = "no-tpot.json".into();
        let calibration = calibrate(&model, &[], None, &[unknown, silent]);
        assert!(calibration.speed.is_empty());
        assert_eq!(
            calibration.notes,
            vec![
                "tpu.json: GPU “TPU v5e” is not in the catalog, so its speed cannot be set against a ceiling.",
                "no-tpot.json: no TPOT or per-stream speed, so it calibrates nothing."
            ]
        );
    }
}
