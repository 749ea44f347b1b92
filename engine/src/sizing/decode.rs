//! The single-stream decode ceiling: bandwidth ÷ bytes read per token.
//!
//! Decode at low batch streams the weights once per token, so one card's ceiling is its
//! bandwidth (decimal GB/s, as the vendor states it) divided by the decimal GB a step reads
//! ([`super::weights::decode_read_gb_per_token`]). With the guide's rounding (`sizing.md` §1.2),
//! the read is rounded to 0.1 GB and the ceiling to 0.1 tok/s: 1,597 / 70.6 → 22.6.
//!
//! * **Tensor parallelism** lets `tp` cards stream their shares at once: up to `tp ×` the
//!   single-card ceiling (45.2 on two Server Editions) before all-reduce latency, which the
//!   result warns about on PCIe-only cards.
//! * **Pipeline parallelism** does not raise it: stages run one after another for one token.
//! * **Copies** do not raise it either: each stream still runs on one copy.
//! * **MoE** single streams read the routed experts at top-k; at moderate batch nearly every
//!   expert is touched, so the MoE ceiling holds for one stream only.
//!
//! Ceilings are upper bounds no system reaches; the last step is always a load test.
//!
//! # Calibrated speed
//!
//! A ceiling alone says nothing about the speed a stream gets: the V100 benchmark report's four
//! cards at TP=4 have a ceiling of 255 tok/s for Qwen2.5-7B in FP16 and deliver 31–38 tok/s per
//! stream. So a per-stream target is graded on the **expected speed**: the ceiling × the
//! **efficiency** the pilot's own load tests measured (per-stream tokens/s at low concurrency ÷
//! the ceiling of the configuration they ran on, [`EfficiencyFactor`]). A candidate of the
//! measured configuration takes its own factor; any other takes the lowest factor measured
//! (the conservative transfer: it carries the pilot stack's overheads to hardware that may have
//! fewer), labelled as transferred, until a load test on the candidate replaces it. Without a
//! load test there is no factor and the speed is *not established: ceiling only*.

use super::precision::WeightPrecision;
use super::{round1, topology::Topology};
use crate::locale::Lang;
use serde::{Deserialize, Serialize};

/// One card's (or one TP group's) single-stream ceiling in tokens per second, from bandwidth
/// and the bytes read per token, with the guide's rounding: read GB to 0.1, result to 0.1.
/// `tp` multiplies the bandwidth; pipeline stages and copies do not.
pub fn decode_ceiling_tokens_per_s(bandwidth_gb_s: f64, read_gb_per_token: f64, tp: u32) -> f64 {
    let read = round1(read_gb_per_token);
    if read <= 0.0 {
        return 0.0;
    }
    round1(tp.max(1) as f64 * bandwidth_gb_s / read)
}

/// The ceiling of a topology: tensor parallelism counts, pipeline stages and copies do not.
pub fn topology_decode_ceiling_tokens_per_s(
    bandwidth_gb_s: f64,
    read_gb_per_token: f64,
    topology: &Topology,
) -> f64 {
    decode_ceiling_tokens_per_s(bandwidth_gb_s, read_gb_per_token, topology.tp)
}

/// Time per output token at a ceiling, ms (40 ms TPOT = 25 tok/s).
pub fn tpot_ms(tokens_per_s: f64) -> f64 {
    if tokens_per_s > 0.0 {
        1000.0 / tokens_per_s
    } else {
        f64::INFINITY
    }
}

/// Measured per-stream speed ÷ the ceiling of the configuration it was measured on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EfficiencyFactor {
    /// Catalog id of the GPU measured on.
    pub gpu_id: String,
    pub gpu_name: String,
    pub tp: u32,
    pub pp: u32,
    pub precision: WeightPrecision,
    /// Per-stream output tokens/s measured (1000 ÷ TPOT p50), tok/s.
    pub measured_tokens_per_s: f64,
    /// The configuration's decode ceiling, tok/s.
    pub ceiling_tokens_per_s: f64,
    /// measured ÷ ceiling.
    pub factor: f64,
    /// Concurrency of the point measured.
    pub concurrency: f64,
    /// Where it was measured, for people: `vllm bench serve, run.jsonl, concurrency 1, …`.
    pub source: String,
}

/// A per-stream speed measured on one configuration, with that configuration's ceiling: what
/// an [`EfficiencyFactor`] is made from.
#[derive(Clone, Copy, Debug)]
pub struct MeasuredSpeed<'a> {
    /// Catalog id of the GPU measured on.
    pub gpu_id: &'a str,
    pub gpu_name: &'a str,
    pub tp: u32,
    pub pp: u32,
    pub precision: WeightPrecision,
    /// Per-stream output tokens/s measured, tok/s.
    pub measured_tokens_per_s: f64,
    /// The configuration's decode ceiling, tok/s.
    pub ceiling_tokens_per_s: f64,
    /// Concurrency of the point measured.
    pub concurrency: f64,
    /// Where it was measured, for people.
    pub source: &'a str,
}

impl EfficiencyFactor {
    /// A factor from a measured speed and the configuration's ceiling; `None` unless both are
    /// positive and finite.
    pub fn new(speed: MeasuredSpeed<'_>) -> Option<EfficiencyFactor> {
        let MeasuredSpeed {
            gpu_id,
            gpu_name,
            tp,
            pp,
            precision,
            measured_tokens_per_s,
            ceiling_tokens_per_s,
            concurrency,
            source,
        } = speed;
        let valid = |v: f64| v.is_finite() && v > 0.0;
        (valid(measured_tokens_per_s) && valid(ceiling_tokens_per_s)).then(|| EfficiencyFactor {
            gpu_id: gpu_id.to_string(),
            gpu_name: gpu_name.to_string(),
            tp: tp.max(1),
            pp: pp.max(1),
            precision,
            measured_tokens_per_s,
            ceiling_tokens_per_s,
            factor: measured_tokens_per_s / ceiling_tokens_per_s,
            concurrency,
            source: source.to_string(),
        })
    }

    /// `4 × Tesla V100 (TP=4), FP16`.
    pub fn configuration(&self) -> String {
        let cards = self.tp * self.pp;
        let split = match (self.tp, self.pp) {
            (1, 1) => String::new(),
            (tp, 1) => format!(" (TP={tp})"),
            (1, pp) => format!(" (PP={pp})"),
            (tp, pp) => format!(" (TP={tp}, PP={pp})"),
        };
        format!(
            "{cards} × {}{split}, {}",
            self.gpu_name,
            self.precision.label()
        )
    }
}

/// The efficiency factors the pilot's load tests measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SpeedCalibration {
    pub factors: Vec<EfficiencyFactor>,
}

/// How an expected per-stream speed was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpeedBasis {
    /// The candidate's own configuration was load-tested.
    Measured,
    /// Another configuration's efficiency, carried over.
    Transferred,
    /// No load test: only the ceiling, an upper bound.
    CeilingOnly,
}

impl SpeedBasis {
    /// Words for tables.
    pub fn label(self) -> &'static str {
        match self {
            SpeedBasis::Measured => "Estimated: efficiency measured on this configuration",
            SpeedBasis::Transferred => "Estimated: efficiency transferred from the pilot",
            SpeedBasis::CeilingOnly => "not established: ceiling only",
        }
    }
}

/// A configuration's expected per-stream speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectedSpeed {
    /// Ceiling × factor, tok/s (the ceiling itself when `basis` is ceiling only).
    pub tokens_per_s: f64,
    pub ceiling_tokens_per_s: f64,
    pub basis: SpeedBasis,
    /// The factor applied (none for ceiling only).
    pub factor: Option<EfficiencyFactor>,
}

impl ExpectedSpeed {
    /// The speed a per-stream target is graded on: the estimate, or the ceiling when there is
    /// none.
    pub fn graded_tokens_per_s(&self) -> f64 {
        self.tokens_per_s
    }

    /// `estimated 34.5 tok/s = ceiling 255 × efficiency 0.135 (measured 34.5 tok/s on 4 × V100
    /// (TP=4), FP16: vllm bench serve, …)`, or `ceiling 45.2 tok/s (upper bound; not
    /// established: ceiling only)`.
    pub fn describe(&self) -> String {
        self.describe_in(Lang::En)
    }

    /// [`ExpectedSpeed::describe`] in `lang`.
    pub fn describe_in(&self, lang: Lang) -> String {
        let num = |value: f64, decimals: usize| crate::format::num_in(value, decimals, lang);
        match (&self.factor, lang) {
            (Some(f), Lang::En) => format!(
                "estimated {} tok/s = ceiling {} tok/s (upper bound) × efficiency {} ({} {} tok/s ÷ ceiling {} tok/s on {}: {})",
                num(self.tokens_per_s, 1),
                num(self.ceiling_tokens_per_s, 1),
                num(f.factor, 3),
                if self.basis == SpeedBasis::Measured {
                    "measured"
                } else {
                    "transferred from the pilot:"
                },
                num(f.measured_tokens_per_s, 1),
                num(f.ceiling_tokens_per_s, 1),
                f.configuration(),
                f.source
            ),
            (Some(f), Lang::De) => format!(
                "geschätzt {} tok/s = Obergrenze {} tok/s (obere Schranke) × Effizienz {} ({} {} tok/s ÷ Obergrenze {} tok/s auf {}: {})",
                num(self.tokens_per_s, 1),
                num(self.ceiling_tokens_per_s, 1),
                num(f.factor, 3),
                if self.basis == SpeedBasis::Measured {
                    "gemessen"
                } else {
                    "aus dem Pilot übertragen:"
                },
                num(f.measured_tokens_per_s, 1),
                num(f.ceiling_tokens_per_s, 1),
                f.configuration(),
                f.source
            ),
            (None, Lang::En) => format!(
                "ceiling {} tok/s (upper bound; not established: ceiling only, no load test calibrates it)",
                num(self.ceiling_tokens_per_s, 1)
            ),
            (None, Lang::De) => format!(
                "Obergrenze {} tok/s (obere Schranke; nicht belegt: nur Obergrenze, kein Lasttest kalibriert sie)",
                num(self.ceiling_tokens_per_s, 1)
            ),
        }
    }
}

impl SpeedCalibration {
    /// True when no factor was measured.
    pub fn is_empty(&self) -> bool {
        self.factors.is_empty()
    }

    /// The factor that applies to a configuration: its own (same GPU, TP, PP and precision),
    /// else the lowest measured, as a transfer.
    pub fn factor_for(
        &self,
        gpu_id: &str,
        topology: &Topology,
        precision: WeightPrecision,
    ) -> Option<(&EfficiencyFactor, SpeedBasis)> {
        let own = self.factors.iter().find(|f| {
            f.gpu_id.eq_ignore_ascii_case(gpu_id)
                && f.tp == topology.tp.max(1)
                && f.pp == topology.pp.max(1)
                && f.precision == precision
        });
        if let Some(own) = own {
            return Some((own, SpeedBasis::Measured));
        }
        self.factors
            .iter()
            .min_by(|a, b| a.factor.total_cmp(&b.factor))
            .map(|f| (f, SpeedBasis::Transferred))
    }

    /// The expected speed of a configuration with this ceiling.
    pub fn expected(
        &self,
        gpu_id: &str,
        topology: &Topology,
        precision: WeightPrecision,
        ceiling_tokens_per_s: f64,
    ) -> ExpectedSpeed {
        match self.factor_for(gpu_id, topology, precision) {
            Some((factor, basis)) => ExpectedSpeed {
                tokens_per_s: round1(ceiling_tokens_per_s * factor.factor),
                ceiling_tokens_per_s,
                basis,
                factor: Some(factor.clone()),
            },
            None => ExpectedSpeed {
                tokens_per_s: ceiling_tokens_per_s,
                ceiling_tokens_per_s,
                basis: SpeedBasis::CeilingOnly,
                factor: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_ceilings() {
        assert_eq!(decode_ceiling_tokens_per_s(273.0, 70.56, 1), 3.9);
        assert_eq!(decode_ceiling_tokens_per_s(1597.0, 70.56, 1), 22.6);
        assert_eq!(decode_ceiling_tokens_per_s(4800.0, 70.56, 1), 68.0);
        assert_eq!(decode_ceiling_tokens_per_s(1597.0, 70.56, 2), 45.2);
        assert_eq!(decode_ceiling_tokens_per_s(1597.0, 40.61, 1), 39.3);
        assert_eq!(decode_ceiling_tokens_per_s(4800.0, 40.61, 1), 118.2);
    }

    #[test]
    fn pipeline_stages_and_copies_do_not_raise_it() {
        let pp = topology_decode_ceiling_tokens_per_s(1597.0, 70.56, &Topology::new(1, 2, 1));
        let copies = topology_decode_ceiling_tokens_per_s(1597.0, 70.56, &Topology::new(1, 1, 2));
        assert_eq!(pp, 22.6);
        assert_eq!(copies, 22.6);
        assert_eq!(tpot_ms(25.0), 40.0);
    }

    fn v100_tp4() -> EfficiencyFactor {
        // The benchmark report: 4 × V100 at TP=4, Qwen2.5-7B FP16 (14.1 GB read per token):
        // ceiling 4 × 900 ÷ 14.1 = 255.3 tok/s; 34.5 tok/s per stream at concurrency 1.
        let ceiling = decode_ceiling_tokens_per_s(900.0, 14.1, 4);
        assert_eq!(ceiling, 255.3);
        EfficiencyFactor::new(MeasuredSpeed {
            gpu_id: "v100-sxm2-16gb",
            gpu_name: "Tesla V100-SXM2-16GB",
            tp: 4,
            pp: 1,
            precision: WeightPrecision::Fp16,
            measured_tokens_per_s: 34.5,
            ceiling_tokens_per_s: ceiling,
            concurrency: 1.0,
            source: "vllm bench serve, run.jsonl, concurrency 1",
        })
        .unwrap()
    }

    #[test]
    fn the_v100_report_runs_at_an_eighth_of_its_ceiling() {
        let f = v100_tp4();
        assert!((f.factor - 0.1351).abs() < 1e-4, "{}", f.factor);
        assert_eq!(f.configuration(), "4 × Tesla V100-SXM2-16GB (TP=4), FP16");
        assert!(
            EfficiencyFactor::new(MeasuredSpeed {
                gpu_id: "x",
                gpu_name: "x",
                tp: 1,
                pp: 1,
                precision: WeightPrecision::Fp16,
                measured_tokens_per_s: 0.0,
                ceiling_tokens_per_s: 10.0,
                concurrency: 1.0,
                source: "",
            })
            .is_none()
        );
    }

    #[test]
    fn the_measured_configuration_uses_its_own_factor_others_the_lowest() {
        let mut slower = v100_tp4();
        slower.gpu_id = "a100-sxm4-80gb".into();
        slower.tp = 1;
        slower.factor = 0.5;
        let calibration = SpeedCalibration {
            factors: vec![slower, v100_tp4()],
        };
        let own = calibration.expected(
            "v100-sxm2-16gb",
            &Topology::new(4, 1, 1),
            WeightPrecision::Fp16,
            255.3,
        );
        assert_eq!(own.basis, SpeedBasis::Measured);
        assert_eq!(own.tokens_per_s, 34.5);
        // An H100 SXM (3,350 GB/s ÷ 14.1 GB = 237.6 tok/s) gets the V100's 0.135, the lower.
        let h100 = calibration.expected(
            "h100-sxm",
            &Topology::new(1, 1, 1),
            WeightPrecision::Fp16,
            237.6,
        );
        assert_eq!(h100.basis, SpeedBasis::Transferred);
        assert_eq!(h100.tokens_per_s, 32.1);
        assert!(h100.describe().starts_with(
            "estimated 32.1 tok/s = ceiling 237.6 tok/s (upper bound) × efficiency 0.135 (transferred from the pilot: 34.5 tok/s ÷ ceiling 255.3 tok/s on 4 × Tesla V100-SXM2-16GB (TP=4), FP16"
        ), "{}", h100.describe());
        let none = SpeedCalibration::default().expected(
            "h100-sxm",
            &Topology::new(1, 1, 1),
            WeightPrecision::Fp16,
            237.6,
        );
        assert_eq!(none.basis, SpeedBasis::CeilingOnly);
        assert_eq!(none.tokens_per_s, 237.6);
        assert!(none.describe().contains("not established: ceiling only"));
    }
}
