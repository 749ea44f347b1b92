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

use super::{round1, topology::Topology};

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
}
