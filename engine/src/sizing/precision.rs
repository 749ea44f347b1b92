//! Weight precisions and KV-cache dtypes, with the bytes each one costs.
//!
//! Decisions:
//! * A precision's size applies to the *linear layers* (attention projections, MLP and expert
//!   matrices). Embeddings, `lm_head`, norms, biases and MoE routers stay 16-bit in every
//!   published quantised checkpoint the catalog was checked against (`sizing.md` §3.3).
//! * Block formats carry their scales: NVFP4 = 4 bits + one FP8 scale per 16 weights
//!   (0.5625 B/param), MXFP4 = 4 bits + one E8M0 scale per 32 (0.53125 B), INT4 AWQ/GPTQ
//!   = 4 bits + a 16-bit scale and a 4-bit zero point per group of 128 (0.5195 B). FP8 and INT8
//!   per-tensor or per-channel scales are negligible and not counted.
//! * MXFP4 checkpoints of MoE models (gpt-oss) quantise the experts only and keep attention in
//!   BF16; that rule lives in [`crate::sizing::weights`].
//! * `bf16` and `fp16` cost the same; a card without BF16 (Volta) runs a BF16 checkpoint as
//!   FP16, which [`crate::sizing::estimate`] notes as a warning.

use super::SizingError;
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The precision of the weights as served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum WeightPrecision {
    Bf16,
    Fp16,
    Fp8,
    Nvfp4,
    Mxfp4,
    /// 4-bit integer weights with group scales (AWQ or GPTQ, group size 128).
    Int4,
    /// 8-bit integer weights (W8A8 or W8A16).
    Int8,
}

impl WeightPrecision {
    /// All precisions, in the order forms list them.
    pub const ALL: [WeightPrecision; 7] = [
        WeightPrecision::Bf16,
        WeightPrecision::Fp16,
        WeightPrecision::Fp8,
        WeightPrecision::Int8,
        WeightPrecision::Nvfp4,
        WeightPrecision::Mxfp4,
        WeightPrecision::Int4,
    ];

    /// The typed name (`bf16`, `fp16`, `fp8`, `nvfp4`, `mxfp4`, `int4`, `int8`).
    pub fn as_str(self) -> &'static str {
        match self {
            WeightPrecision::Bf16 => "bf16",
            WeightPrecision::Fp16 => "fp16",
            WeightPrecision::Fp8 => "fp8",
            WeightPrecision::Nvfp4 => "nvfp4",
            WeightPrecision::Mxfp4 => "mxfp4",
            WeightPrecision::Int4 => "int4",
            WeightPrecision::Int8 => "int8",
        }
    }

    /// A human label for pages.
    pub fn label(self) -> &'static str {
        match self {
            WeightPrecision::Bf16 => "BF16",
            WeightPrecision::Fp16 => "FP16",
            WeightPrecision::Fp8 => "FP8",
            WeightPrecision::Nvfp4 => "NVFP4",
            WeightPrecision::Mxfp4 => "MXFP4",
            WeightPrecision::Int4 => "INT4 (AWQ/GPTQ)",
            WeightPrecision::Int8 => "INT8",
        }
    }

    /// Bytes per parameter of a linear layer in this precision, scales included.
    pub fn linear_bytes_per_param(self) -> f64 {
        match self {
            WeightPrecision::Bf16 | WeightPrecision::Fp16 => 2.0,
            WeightPrecision::Fp8 | WeightPrecision::Int8 => 1.0,
            WeightPrecision::Nvfp4 => 0.5 + 1.0 / 16.0,
            WeightPrecision::Mxfp4 => 0.5 + 1.0 / 32.0,
            WeightPrecision::Int4 => 0.5 + 2.5 / 128.0,
        }
    }

    /// True for the two 16-bit formats.
    pub fn is_16bit(self) -> bool {
        matches!(self, WeightPrecision::Bf16 | WeightPrecision::Fp16)
    }
}

impl fmt::Display for WeightPrecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for WeightPrecision {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bf16" | "bfloat16" => Ok(WeightPrecision::Bf16),
            "fp16" | "float16" | "half" => Ok(WeightPrecision::Fp16),
            "fp8" => Ok(WeightPrecision::Fp8),
            "nvfp4" => Ok(WeightPrecision::Nvfp4),
            "mxfp4" => Ok(WeightPrecision::Mxfp4),
            "int4" | "awq" | "gptq" => Ok(WeightPrecision::Int4),
            "int8" => Ok(WeightPrecision::Int8),
            _ => Err(SizingError::UnknownName(
                format!(
                    "unknown weight precision `{}` (expected bf16, fp16, fp8, nvfp4, mxfp4, int4 or int8)",
                    s.trim()
                ),
                format!(
                    "unbekannte Gewichtspräzision `{}` (erwartet: bf16, fp16, fp8, nvfp4, mxfp4, int4 oder int8)",
                    s.trim()
                ),
            )),
        }
    }
}

/// The dtype of the KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum KvDtype {
    /// BF16 or FP16 (vLLM's `auto` for a 16-bit model): 2 bytes per element.
    #[serde(rename = "16bit")]
    Bits16,
    /// FP8 (E4M3 or E5M2): 1 byte per element.
    #[serde(rename = "fp8")]
    Fp8,
}

impl KvDtype {
    /// Both dtypes, 16-bit first.
    pub const ALL: [KvDtype; 2] = [KvDtype::Bits16, KvDtype::Fp8];

    /// Bytes per cached element.
    pub fn bytes_per_element(self) -> f64 {
        match self {
            KvDtype::Bits16 => 2.0,
            KvDtype::Fp8 => 1.0,
        }
    }

    /// The typed name (`16bit`, `fp8`).
    pub fn as_str(self) -> &'static str {
        match self {
            KvDtype::Bits16 => "16bit",
            KvDtype::Fp8 => "fp8",
        }
    }

    /// A human label for pages.
    pub fn label(self) -> &'static str {
        match self {
            KvDtype::Bits16 => "16-bit",
            KvDtype::Fp8 => "FP8",
        }
    }

    /// [`KvDtype::label`] in `lang` (`16-bit` / `16 Bit`).
    pub fn label_in(self, lang: Lang) -> &'static str {
        match self {
            KvDtype::Bits16 => lang.pick("16-bit", "16 Bit"),
            KvDtype::Fp8 => "FP8",
        }
    }
}

impl fmt::Display for KvDtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for KvDtype {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "16bit" | "16-bit" | "auto" | "bf16" | "fp16" | "bfloat16" | "float16" => {
                Ok(KvDtype::Bits16)
            }
            "fp8" | "fp8_e4m3" | "fp8_e5m2" => Ok(KvDtype::Fp8),
            _ => Err(SizingError::UnknownName(
                format!(
                    "unknown KV-cache dtype `{}` (expected 16bit, auto, bf16, fp16 or fp8)",
                    s.trim()
                ),
                format!(
                    "unbekannter KV-Cache-Datentyp `{}` (erwartet: 16bit, auto, bf16, fp16 oder fp8)",
                    s.trim()
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_precision_round_trips_through_its_name() {
        for precision in WeightPrecision::ALL {
            assert_eq!(
                precision.as_str().parse::<WeightPrecision>().unwrap(),
                precision
            );
        }
        assert_eq!(
            " AWQ ".parse::<WeightPrecision>().unwrap(),
            WeightPrecision::Int4
        );
        let err = "fp6".parse::<WeightPrecision>().unwrap_err();
        assert!(err.to_string().contains("fp6"));
    }

    #[test]
    fn kv_dtypes_accept_vllm_spellings() {
        for name in ["16bit", "auto", "bf16", "fp16"] {
            assert_eq!(name.parse::<KvDtype>().unwrap(), KvDtype::Bits16);
        }
        assert_eq!("fp8_e4m3".parse::<KvDtype>().unwrap(), KvDtype::Fp8);
        assert!("int4".parse::<KvDtype>().is_err());
    }

    #[test]
    fn block_formats_carry_their_scales() {
        assert_eq!(WeightPrecision::Nvfp4.linear_bytes_per_param(), 0.5625);
        assert_eq!(WeightPrecision::Mxfp4.linear_bytes_per_param(), 0.53125);
        assert!(WeightPrecision::Int4.linear_bytes_per_param() > 0.5);
        assert_eq!(WeightPrecision::Fp8.linear_bytes_per_param(), 1.0);
    }
}
