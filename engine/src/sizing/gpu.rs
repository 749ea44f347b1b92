//! GPUs: the facts the sizing needs, and the reviewed catalog in `engine/data/gpus.json`.
//!
//! Memory is recorded three ways because three different numbers are in circulation:
//! * **as marketed** ("96 GB GDDR7"), which is what a quote says;
//! * **as the driver reports it**: `nvidia-smi`'s `memory.total` in MiB, converted to GiB and
//!   rounded to 0.1 (97,887 MiB → 95.6 GiB). The planning convention uses this figure;
//! * **as CUDA sees it** (`cudaMemGetInfo`, `torch.cuda.mem_get_info`), 0.45–0.75 GiB below the
//!   driver figure on recent drivers. vLLM's `gpu_memory_utilization` multiplies this one. When
//!   no measurement is known the catalog estimates it as driver − 0.6 GiB and says so
//!   (`memory_cuda_estimated`).
//!
//! Format support is what vLLM can do with the card, not what the silicon markets: FP8 on Ampere
//! runs weight-only through FP8-Marlin (1 byte per weight read, 16-bit compute), FP4 on Hopper
//! weight-only through Marlin, and Volta has no kernels for FP8 or 4-bit formats at all.
//!
//! What vLLM *can* run is not what a recommendation should offer: an emulated format (NVFP4 on an
//! H200 NVL, FP8 on an A100, BF16 on a V100) reads like the real thing in a memory table while it
//! loses the speed the format exists for. So every card also lists its **native formats**
//! ([`NativeFormats`]): the weight formats and KV-cache dtypes its hardware computes in (FP8 from
//! compute capability 8.9, FP4 on Blackwell only, BF16 from Ampere), each with its source in
//! `gpus.json`. The recommendation sizes a card only in these unless a format was chosen
//! explicitly ([`GpuSpec::is_native`], [`GpuSpec::kv_is_native`]). Cards without the list (added
//! by hand or edited before it existed) derive it from their support levels.
//!
//! The catalog is parsed once (`include_str!` + serde_json) and handed out as clones so the
//! browser can hold and edit a copy.

use super::availability::GpuAvailability;
use super::precision::{KvDtype, WeightPrecision};
use super::{SizingError, num_de};
use crate::locale::Lang;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// How vLLM can run a weight format on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FormatSupport {
    /// Tensor cores compute in the format.
    Native,
    /// A dequantising kernel (Marlin-class) reads the format and computes in 16-bit: memory and
    /// decode read are the format's, prefill compute is 16-bit.
    WeightOnly,
    /// vLLM cannot serve the format on this card.
    #[default]
    Unsupported,
}

impl FormatSupport {
    /// True unless unsupported.
    pub fn is_usable(self) -> bool {
        !matches!(self, FormatSupport::Unsupported)
    }
}

/// The weight formats and KV-cache dtypes a card runs without emulation, with where that was read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NativeFormats {
    pub weights: Vec<WeightPrecision>,
    pub kv_cache: Vec<KvDtype>,
    #[serde(default)]
    pub sources: Vec<String>,
}

/// One GPU as the sizing sees it. Catalog rows and custom cards share this type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuSpec {
    /// Stable id, e.g. `rtx-pro-6000-server`, `h200-nvl`, `v100-sxm2-16gb`; `custom` for a card
    /// typed in by hand.
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub vendor: String,
    #[serde(default)]
    pub architecture: String,
    /// CUDA compute capability (`9.0`), when the card is NVIDIA's.
    #[serde(default)]
    pub compute_capability: Option<String>,
    /// Memory as the vendor markets it, in words ("141 GB HBM3e").
    #[serde(default)]
    pub memory_marketed: String,
    /// The marketed figure as a number (vendor "GB").
    #[serde(default)]
    pub memory_marketed_gb: f64,
    /// `nvidia-smi` `memory.total` in MiB, when known.
    #[serde(default)]
    pub memory_driver_mib: Option<f64>,
    /// Memory the driver reports, GiB (MiB ÷ 1024 rounded to 0.1 for catalog rows).
    pub memory_driver_gib: f64,
    /// Memory CUDA reports as total, GiB: vLLM's denominator.
    pub memory_cuda_gib: f64,
    /// True when `memory_cuda_gib` is an estimate (driver − 0.6 GiB or a sibling card's figure).
    #[serde(default)]
    pub memory_cuda_estimated: bool,
    /// CPU and GPU share the memory (DGX Spark): less of it is free when vLLM starts.
    #[serde(default)]
    pub unified_memory: bool,
    /// Highest `gpu_memory_utilization` at which vLLM is expected to start on this card, when
    /// lower than what the driver total suggests (unified memory).
    #[serde(default)]
    pub max_startup_utilization: Option<f64>,
    /// Memory bandwidth, decimal GB/s as the vendor states it.
    pub bandwidth_gb_s: f64,
    /// Dense BF16 (FP16 on Volta) tensor TFLOPS.
    #[serde(default)]
    pub bf16_dense_tflops: Option<f64>,
    /// Dense FP8 tensor TFLOPS, when the card has FP8 tensor cores.
    #[serde(default)]
    pub fp8_dense_tflops: Option<f64>,
    /// Dense FP4 tensor TFLOPS, when the card has FP4 tensor cores.
    #[serde(default)]
    pub fp4_dense_tflops: Option<f64>,
    /// Native BF16 (false on Volta, which runs BF16 checkpoints as FP16).
    #[serde(default = "yes")]
    pub bf16: bool,
    #[serde(default)]
    pub fp8: FormatSupport,
    #[serde(default)]
    pub nvfp4: FormatSupport,
    #[serde(default)]
    pub mxfp4: FormatSupport,
    /// INT4 AWQ/GPTQ (and, by the same kernels' requirements, INT8).
    #[serde(default)]
    pub int4: FormatSupport,
    /// The formats the hardware computes in, with sources; `None` derives them from the
    /// support levels above ([`GpuSpec::native_formats`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_formats: Option<NativeFormats>,
    #[serde(default)]
    pub interconnect: String,
    /// Cards can be joined by NVLink (tensor parallelism pays less for its all-reduces).
    #[serde(default)]
    pub nvlink: bool,
    /// Board power, W.
    #[serde(default)]
    pub power_w: Option<f64>,
    /// Where each figure was read.
    #[serde(default)]
    pub sources: Vec<String>,
    #[serde(default)]
    pub notes: Option<String>,
    /// Whether the card can still be ordered, with date and sources, and whether the guide's
    /// supplier offers it ([`super::availability`]); `None` for a card typed in by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub availability: Option<GpuAvailability>,
}

fn yes() -> bool {
    true
}

/// How much below the driver total CUDA's total is assumed to be when it was never measured.
pub const CUDA_BELOW_DRIVER_ESTIMATE_GIB: f64 = 0.6;

impl GpuSpec {
    /// A card typed in by hand. `memory_cuda_gib` defaults to driver − 0.6 GiB (marked as an
    /// estimate); formats default to what a current NVIDIA data-centre card does (FP8 native,
    /// FP4 weight-only) unless the caller changes the fields.
    pub fn custom(
        name: &str,
        memory_driver_gib: f64,
        memory_cuda_gib: Option<f64>,
        bandwidth_gb_s: f64,
        bf16_dense_tflops: Option<f64>,
    ) -> GpuSpec {
        let estimated = memory_cuda_gib.is_none();
        GpuSpec {
            id: "custom".into(),
            name: name.into(),
            vendor: String::new(),
            architecture: String::new(),
            compute_capability: None,
            memory_marketed: String::new(),
            memory_marketed_gb: memory_driver_gib,
            memory_driver_mib: None,
            memory_driver_gib,
            memory_cuda_gib: memory_cuda_gib
                .unwrap_or(memory_driver_gib - CUDA_BELOW_DRIVER_ESTIMATE_GIB),
            memory_cuda_estimated: estimated,
            unified_memory: false,
            max_startup_utilization: None,
            bandwidth_gb_s,
            bf16_dense_tflops,
            fp8_dense_tflops: bf16_dense_tflops.map(|t| 2.0 * t),
            fp4_dense_tflops: None,
            bf16: true,
            fp8: FormatSupport::Native,
            nvfp4: FormatSupport::WeightOnly,
            mxfp4: FormatSupport::WeightOnly,
            int4: FormatSupport::Native,
            native_formats: None,
            interconnect: String::new(),
            nvlink: false,
            power_w: None,
            sources: vec!["entered by hand".into()],
            notes: None,
            availability: None,
        }
    }

    /// How vLLM can run weights of `precision` on this card.
    pub fn support_for(&self, precision: WeightPrecision) -> FormatSupport {
        match precision {
            WeightPrecision::Bf16 | WeightPrecision::Fp16 => FormatSupport::Native,
            WeightPrecision::Fp8 => self.fp8,
            WeightPrecision::Nvfp4 => self.nvfp4,
            WeightPrecision::Mxfp4 => self.mxfp4,
            WeightPrecision::Int4 | WeightPrecision::Int8 => self.int4,
        }
    }

    /// The formats this card runs natively: the catalog's list, or, for a card without one,
    /// every format whose support level is native plus the 16-bit ones (BF16 only where the card
    /// has it) and an FP8 KV cache where FP8 weights are native.
    pub fn native_formats(&self) -> NativeFormats {
        if let Some(formats) = &self.native_formats {
            return formats.clone();
        }
        let mut weights = vec![WeightPrecision::Fp16];
        if self.bf16 {
            weights.insert(0, WeightPrecision::Bf16);
        }
        for precision in [
            WeightPrecision::Fp8,
            WeightPrecision::Int8,
            WeightPrecision::Int4,
            WeightPrecision::Nvfp4,
            WeightPrecision::Mxfp4,
        ] {
            if self.support_for(precision) == FormatSupport::Native {
                weights.push(precision);
            }
        }
        let mut kv_cache = vec![KvDtype::Bits16];
        if self.fp8 == FormatSupport::Native {
            kv_cache.push(KvDtype::Fp8);
        }
        NativeFormats {
            weights,
            kv_cache,
            sources: vec!["derived from the card's support levels".into()],
        }
    }

    /// True when the card computes in `precision` without emulation.
    pub fn is_native(&self, precision: WeightPrecision) -> bool {
        self.native_formats().weights.contains(&precision)
    }

    /// True when the card keeps a KV cache of `kv` without emulation.
    pub fn kv_is_native(&self, kv: KvDtype) -> bool {
        self.native_formats().kv_cache.contains(&kv)
    }

    /// Why `precision` weights with a `kv` cache are not native on this card, in words; `None`
    /// when both are.
    pub fn emulation_reason(&self, precision: WeightPrecision, kv: KvDtype) -> Option<String> {
        self.emulation_reason_in(precision, kv, Lang::En)
    }

    /// [`GpuSpec::emulation_reason`] in `lang`.
    pub fn emulation_reason_in(
        &self,
        precision: WeightPrecision,
        kv: KvDtype,
        lang: Lang,
    ) -> Option<String> {
        let mut missing = Vec::new();
        if !self.is_native(precision) {
            missing.push(match lang {
                Lang::En => format!("{} weights", precision.label()),
                Lang::De => format!("Gewichte in {}", precision.label()),
            });
        }
        if !self.kv_is_native(kv) {
            missing.push(match lang {
                Lang::En => format!("{} KV cache", kv.label()),
                Lang::De => format!("KV-Cache in {}", kv.label_in(lang)),
            });
        }
        if missing.is_empty() {
            return None;
        }
        let why = match (precision, self.support_for(precision)) {
            (WeightPrecision::Nvfp4 | WeightPrecision::Mxfp4, _) if !self.is_native(precision) => {
                lang.pick(
                    "FP4 tensor cores are Blackwell-only; elsewhere vLLM runs FP4 weight-only (Marlin) or not at all",
                    "FP4-Tensor-Cores gibt es nur bei Blackwell; anderswo führt vLLM FP4 nur als Weight-only-Kernel (Marlin) oder gar nicht aus",
                )
            }
            (WeightPrecision::Fp8, _) if !self.is_native(precision) => lang.pick(
                "FP8 arithmetic needs compute capability 8.9 or newer (Ada, Hopper, Blackwell); older cards run FP8 weight-only (Marlin) or not at all",
                "FP8-Arithmetik braucht Compute Capability 8.9 oder neuer (Ada, Hopper, Blackwell); ältere Karten führen FP8 nur als Weight-only-Kernel (Marlin) oder gar nicht aus",
            ),
            (WeightPrecision::Bf16, _) if !self.is_native(precision) => lang.pick(
                "the card has no BF16 and runs the checkpoint as FP16",
                "die Karte hat kein BF16 und führt den Checkpoint als FP16 aus",
            ),
            _ if !self.kv_is_native(kv) => lang.pick(
                "FP8 arithmetic needs compute capability 8.9 or newer (Ada, Hopper, Blackwell)",
                "FP8-Arithmetik braucht Compute Capability 8.9 oder neuer (Ada, Hopper, Blackwell)",
            ),
            _ => lang.pick(
                "the card has no kernels that compute in this format",
                "die Karte hat keine Kernel, die in diesem Format rechnen",
            ),
        };
        Some(match lang {
            Lang::En => format!(
                "{} has no native {} ({why})",
                self.name,
                missing.join(" or ")
            ),
            Lang::De => format!(
                "{} unterstützt {} nicht nativ ({why})",
                self.name,
                missing.join(" oder ")
            ),
        })
    }

    /// Dense TFLOPS the prefill of a `precision` checkpoint runs at: the FP8 or FP4 rate where
    /// the format is native, the 16-bit rate otherwise (weight-only kernels compute in 16-bit).
    pub fn dense_tflops_for(&self, precision: WeightPrecision) -> Option<f64> {
        let support = self.support_for(precision);
        let native_rate = match precision {
            WeightPrecision::Fp8 => self.fp8_dense_tflops,
            WeightPrecision::Nvfp4 | WeightPrecision::Mxfp4 => self.fp4_dense_tflops,
            _ => None,
        };
        match (support, native_rate) {
            (FormatSupport::Native, Some(rate)) => Some(rate),
            _ => self.bf16_dense_tflops,
        }
    }

    /// Checks that the numbers can describe a card.
    pub fn validate(&self) -> Result<(), SizingError> {
        let positive = |field: &str, value: f64| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(SizingError::input_in(
                    field,
                    format!("must be a positive number, got {value} (GPU `{}`)", self.id),
                    format!(
                        "muss eine positive Zahl sein, erhalten: {} (GPU `{}`)",
                        num_de(value),
                        self.id
                    ),
                ))
            }
        };
        positive("memory_driver_gib", self.memory_driver_gib)?;
        positive("memory_cuda_gib", self.memory_cuda_gib)?;
        positive("bandwidth_gb_s", self.bandwidth_gb_s)?;
        for (field, value) in [
            ("bf16_dense_tflops", self.bf16_dense_tflops),
            ("fp8_dense_tflops", self.fp8_dense_tflops),
            ("fp4_dense_tflops", self.fp4_dense_tflops),
        ] {
            if let Some(value) = value {
                positive(field, value)?;
            }
        }
        if let Some(max) = self.max_startup_utilization
            && !(max > 0.0 && max <= 1.0)
        {
            return Err(SizingError::input_in(
                "max_startup_utilization",
                format!("must be in (0, 1], got {max}"),
                format!("muss in (0; 1] liegen, erhalten: {}", num_de(max)),
            ));
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct GpuFile {
    gpus: Vec<serde_json::Map<String, serde_json::Value>>,
}

/// Driver GiB from `nvidia-smi` MiB, rounded to 0.1 (the guide's rule: 97,887 MiB → 95.6).
pub fn driver_gib_from_mib(mib: f64) -> f64 {
    super::round1(mib / 1024.0)
}

fn parse_catalog(text: &str) -> Result<Vec<GpuSpec>, String> {
    let file: GpuFile = serde_json::from_str(text).map_err(|e| format!("gpus.json: {e}"))?;
    let mut out = Vec::with_capacity(file.gpus.len());
    for mut fields in file.gpus {
        let id = fields
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or("?")
            .to_string();
        let mib = fields.get("memory_driver_mib").and_then(|v| v.as_f64());
        let given_gib = fields.get("memory_driver_gib").and_then(|v| v.as_f64());
        let driver_gib = match (mib, given_gib) {
            (Some(mib), _) => driver_gib_from_mib(mib),
            (None, Some(gib)) => gib,
            (None, None) => {
                return Err(format!(
                    "gpus.json: `{id}` has neither memory_driver_mib nor memory_driver_gib"
                ));
            }
        };
        fields.insert("memory_driver_gib".into(), serde_json::json!(driver_gib));
        let spec: GpuSpec = serde_json::from_value(serde_json::Value::Object(fields))
            .map_err(|e| format!("gpus.json: `{id}`: {e}"))?;
        out.push(spec);
    }
    Ok(out)
}

fn catalog() -> &'static [GpuSpec] {
    static CATALOG: OnceLock<Vec<GpuSpec>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        parse_catalog(include_str!("../../data/gpus.json"))
            .unwrap_or_else(|e| panic!("the bundled GPU catalog is invalid: {e}"))
    })
}

/// Every catalog GPU, in catalog order.
pub fn gpus() -> Vec<GpuSpec> {
    catalog().to_vec()
}

/// The catalog GPU with this id (case-insensitive), if any.
pub fn gpu_by_id(id: &str) -> Option<GpuSpec> {
    let id = id.trim();
    catalog()
        .iter()
        .find(|gpu| gpu.id.eq_ignore_ascii_case(id))
        .cloned()
}

/// The words of a GPU name that identify it: lowercase, vendor words dropped, `16 GB` joined to
/// `16gb`, `Max-Q` to `maxq`, `SXM2`/`SXM4`/`SXM5` to `sxm`.
fn gpu_words(text: &str) -> Vec<String> {
    let lower = text.to_lowercase().replace("max-q", "maxq");
    let mut words: Vec<String> = Vec::new();
    for word in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.is_empty() || matches!(word, "nvidia" | "tesla" | "geforce" | "amd" | "instinct") {
            continue;
        }
        if word == "gb"
            && let Some(last) = words.last_mut()
            && last.chars().all(|c| c.is_ascii_digit())
        {
            last.push_str("gb");
            continue;
        }
        let word = if word.starts_with("sxm") { "sxm" } else { word };
        words.push(word.to_string());
    }
    words
}

fn is_memory_word(word: &str) -> bool {
    word.strip_suffix("gb")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The chip word of a name: the first word with a digit that is not a memory size (`v100`,
/// `h200`, `6000`, `l40s`, `gb10`, `mi300x`).
fn chip_word(words: &[String]) -> Option<&str> {
    words
        .iter()
        .find(|w| w.chars().any(|c| c.is_ascii_digit()) && !is_memory_word(w))
        .map(String::as_str)
}

const QUALIFIERS: [&[&str]; 3] = [
    &["sxm", "pcie", "nvl"],
    &["server", "workstation", "maxq"],
    &["volta", "ampere", "ada", "hopper", "blackwell"],
];

/// Whether two GPU names (as written: `Tesla V100-SXM2-16GB`, `v100-sxm2-16gb`, `NVIDIA V100`)
/// mean the same card: the same chip word (`v100`, `h200`, `6000`), and no qualifier both state
/// differently (form factor, edition, architecture, memory size). `None` when either names no
/// card.
pub fn same_gpu_name(a: &str, b: &str) -> Option<bool> {
    let (wa, wb) = (gpu_words(a), gpu_words(b));
    if wa.is_empty() || wb.is_empty() {
        return None;
    }
    let same_chip = match (chip_word(&wa), chip_word(&wb)) {
        (Some(x), Some(y)) => x == y,
        _ => {
            let (short, long) = if wa.len() <= wb.len() {
                (&wa, &wb)
            } else {
                (&wb, &wa)
            };
            short.iter().all(|w| long.contains(w))
        }
    };
    if !same_chip {
        return Some(false);
    }
    let stated = |words: &[String], set: &[&str]| -> Vec<String> {
        words
            .iter()
            .filter(|w| set.contains(&w.as_str()))
            .cloned()
            .collect()
    };
    for set in QUALIFIERS {
        let (x, y) = (stated(&wa, set), stated(&wb, set));
        if !x.is_empty() && !y.is_empty() && !x.iter().any(|w| y.contains(w)) {
            return Some(false);
        }
    }
    let memory = |words: &[String]| -> Vec<String> {
        words
            .iter()
            .filter(|w| is_memory_word(w))
            .cloned()
            .collect()
    };
    let (ma, mb) = (memory(&wa), memory(&wb));
    if !ma.is_empty() && !mb.is_empty() && !ma.iter().any(|m| mb.contains(m)) {
        return Some(false);
    }
    Some(true)
}

/// The catalog GPU a free-text name means (`Tesla V100-SXM2-16GB` → `v100-sxm2-16gb`): the rows
/// [`same_gpu_name`] accepts by id or name, the one sharing the most words first (catalog order
/// on ties). `None` when no row matches.
pub fn gpu_by_name(text: &str) -> Option<GpuSpec> {
    if let Some(gpu) = gpu_by_id(text) {
        return Some(gpu);
    }
    let wanted = gpu_words(text);
    let mut best: Option<(usize, &GpuSpec)> = None;
    for gpu in catalog() {
        let matches = [gpu.id.as_str(), gpu.name.as_str()]
            .iter()
            .any(|name| same_gpu_name(text, name) == Some(true));
        if !matches {
            continue;
        }
        let mut words = gpu_words(&gpu.id);
        words.extend(gpu_words(&gpu.name));
        let shared = wanted.iter().filter(|w| words.contains(w)).count();
        if best.is_none_or(|(n, _)| shared > n) {
            best = Some((shared, gpu));
        }
    }
    best.map(|(_, gpu)| gpu.clone())
}

/// Like [`gpu_by_id`], with an error naming the unknown id.
pub fn require_gpu(id: &str) -> Result<GpuSpec, SizingError> {
    gpu_by_id(id).ok_or_else(|| SizingError::UnknownGpu(id.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REQUIRED: [&str; 21] = [
        "dgx-spark",
        "rtx-pro-6000-workstation",
        "rtx-pro-6000-max-q",
        "rtx-pro-6000-server",
        "h200-nvl",
        "h200-sxm",
        "h100-sxm",
        "h100-pcie",
        "h100-nvl",
        "a100-sxm4-40gb",
        "a100-sxm4-80gb",
        "a100-pcie-80gb",
        "l40s",
        "l4",
        "a10",
        "v100-sxm2-16gb",
        "v100-sxm2-32gb",
        "b200",
        "rtx-4090",
        "rtx-5090",
        "mi300x",
    ];

    /// Catalog texts reach users (the GPU catalog API, the sizing page): they cite public
    /// sources, never a folder of this machine or the project's internal notes.
    #[test]
    fn catalog_texts_cite_public_sources_only() {
        for (name, text) in [
            ("gpus.json", include_str!("../../data/gpus.json")),
            ("models.json", include_str!("../../data/models.json")),
        ] {
            for private in ["/work/", "shared/", "sizing.md", "stored id", "docs/"] {
                let hits: Vec<&str> = text
                    .lines()
                    .filter(|line| line.contains(private) && !line.contains("huggingface.co/docs/"))
                    .collect();
                assert!(hits.is_empty(), "{name} names `{private}`: {hits:?}");
            }
        }
    }

    #[test]
    fn every_catalog_row_parses_and_is_sane() {
        let all = gpus();
        assert!(all.len() >= REQUIRED.len());
        let mut ids = std::collections::HashSet::new();
        for gpu in &all {
            assert!(ids.insert(gpu.id.clone()), "duplicate id {}", gpu.id);
            gpu.validate().unwrap();
            assert!(
                !gpu.name.is_empty() && !gpu.sources.is_empty(),
                "{}",
                gpu.id
            );
            assert!(
                gpu.memory_cuda_gib <= gpu.memory_driver_gib + 0.05,
                "{}: CUDA total above the driver total",
                gpu.id
            );
            assert!(
                gpu.memory_driver_gib <= gpu.memory_marketed_gb * 1.01,
                "{}: driver total above the marketed memory",
                gpu.id
            );
            assert!(
                (100.0..=10_000.0).contains(&gpu.bandwidth_gb_s),
                "{}",
                gpu.id
            );
            assert!(gpu.bf16_dense_tflops.is_some(), "{}", gpu.id);
            if gpu.memory_cuda_estimated {
                assert!(gpu.notes.is_some(), "{}: an estimate must say so", gpu.id);
            }
            if gpu.fp8 == FormatSupport::Native {
                assert!(gpu.fp8_dense_tflops.is_some(), "{}", gpu.id);
            }
            if gpu.nvfp4 == FormatSupport::Native {
                assert!(gpu.fp4_dense_tflops.is_some(), "{}", gpu.id);
            }
        }
        for id in REQUIRED {
            assert!(gpu_by_id(id).is_some(), "missing {id}");
        }
    }

    #[test]
    fn native_formats_follow_the_hardware_with_sources() {
        for gpu in gpus() {
            let native = gpu
                .native_formats
                .as_ref()
                .unwrap_or_else(|| panic!("{}", gpu.id));
            assert!(!native.sources.is_empty(), "{}", gpu.id);
            assert!(
                native.weights.contains(&WeightPrecision::Fp16),
                "{}",
                gpu.id
            );
            assert!(native.kv_cache.contains(&KvDtype::Bits16), "{}", gpu.id);
            for precision in &native.weights {
                assert!(
                    gpu.support_for(*precision).is_usable(),
                    "{} {precision}",
                    gpu.id
                );
            }
        }
        let h200 = gpu_by_id("h200-nvl").unwrap();
        assert!(h200.support_for(WeightPrecision::Nvfp4).is_usable());
        assert!(!h200.is_native(WeightPrecision::Nvfp4));
        assert!(h200.is_native(WeightPrecision::Fp8) && h200.kv_is_native(KvDtype::Fp8));
        let ampere = gpu_by_id("a100-sxm4-80gb").unwrap();
        assert!(!ampere.is_native(WeightPrecision::Fp8));
        assert!(!ampere.kv_is_native(KvDtype::Fp8));
        assert!(ampere.is_native(WeightPrecision::Bf16));
        let volta = gpu_by_id("v100-sxm2-16gb").unwrap();
        assert!(!volta.is_native(WeightPrecision::Bf16));
        assert!(volta.is_native(WeightPrecision::Fp16));
        assert_eq!(
            volta
                .emulation_reason(WeightPrecision::Bf16, KvDtype::Bits16)
                .unwrap(),
            "NVIDIA Tesla V100 SXM2 16GB has no native BF16 weights (the card has no BF16 and runs the checkpoint as FP16)"
        );
        let blackwell = gpu_by_id("rtx-pro-6000-server").unwrap();
        assert!(blackwell.is_native(WeightPrecision::Nvfp4));
        assert_eq!(
            blackwell.emulation_reason(WeightPrecision::Nvfp4, KvDtype::Fp8),
            None
        );
        // A card typed in by hand derives its list from its support levels.
        let custom = GpuSpec::custom("lab card", 40.0, None, 1000.0, Some(100.0));
        assert!(
            custom.is_native(WeightPrecision::Fp8) && !custom.is_native(WeightPrecision::Nvfp4)
        );
    }

    #[test]
    fn gpu_names_as_people_write_them_find_the_catalog_row() {
        let id = |text: &str| gpu_by_name(text).map(|g| g.id);
        assert_eq!(
            id("Tesla V100-SXM2-16GB").as_deref(),
            Some("v100-sxm2-16gb")
        );
        assert_eq!(
            id("NVIDIA V100 SXM2 32 GB").as_deref(),
            Some("v100-sxm2-32gb")
        );
        assert_eq!(id("H200 NVL").as_deref(), Some("h200-nvl"));
        assert_eq!(
            id("RTX PRO 6000 Blackwell Server Edition").as_deref(),
            Some("rtx-pro-6000-server")
        );
        assert_eq!(id("NVIDIA L4").as_deref(), Some("l4"));
        assert_eq!(id("NVIDIA L40S").as_deref(), Some("l40s"));
        assert_eq!(id("TPU v5e"), None);
        assert_eq!(same_gpu_name("Tesla V100-SXM2-16GB", "V100"), Some(true));
        assert_eq!(same_gpu_name("L4", "L40S"), Some(false));
        assert_eq!(same_gpu_name("H100 SXM", "H100 PCIe"), Some(false));
        assert_eq!(same_gpu_name("A100 40GB", "A100-SXM4-80GB"), Some(false));
        assert_eq!(same_gpu_name("", "H100"), None);
    }

    #[test]
    fn driver_memory_is_rounded_from_smi_mib() {
        assert_eq!(
            gpu_by_id("rtx-pro-6000-server").unwrap().memory_driver_gib,
            95.6
        );
        assert_eq!(gpu_by_id("h200-nvl").unwrap().memory_driver_gib, 140.4);
        assert_eq!(gpu_by_id("v100-sxm2-16gb").unwrap().memory_driver_gib, 15.8);
        assert_eq!(gpu_by_id("H100-SXM").unwrap().id, "h100-sxm");
        assert!(gpu_by_id("tpu-v5").is_none());
        assert_eq!(
            require_gpu("tpu-v5").unwrap_err().to_string(),
            "unknown GPU `tpu-v5` (see the GPU catalog for the ids, e.g. `h200-nvl`)"
        );
    }

    #[test]
    fn support_follows_the_vllm_kernels() {
        let hopper = gpu_by_id("h100-sxm").unwrap();
        assert_eq!(
            hopper.support_for(WeightPrecision::Nvfp4),
            FormatSupport::WeightOnly
        );
        assert_eq!(hopper.dense_tflops_for(WeightPrecision::Fp8), Some(1979.0));
        assert_eq!(hopper.dense_tflops_for(WeightPrecision::Nvfp4), Some(989.0));
        let volta = gpu_by_id("v100-sxm2-16gb").unwrap();
        assert!(!volta.support_for(WeightPrecision::Fp8).is_usable());
        assert!(volta.support_for(WeightPrecision::Fp16).is_usable());
        let ampere = gpu_by_id("a100-sxm4-80gb").unwrap();
        assert_eq!(
            ampere.support_for(WeightPrecision::Fp8),
            FormatSupport::WeightOnly
        );
    }

    #[test]
    fn custom_cards_estimate_the_cuda_total_and_refuse_nonsense() {
        let card = GpuSpec::custom("lab card", 48.0, None, 960.0, Some(180.0));
        assert!(card.memory_cuda_estimated);
        assert!((card.memory_cuda_gib - 47.4).abs() < 1e-9);
        card.validate().unwrap();
        let broken = GpuSpec::custom("broken", -4.0, None, 960.0, None);
        let err = broken.validate().unwrap_err().to_string();
        assert!(
            err.starts_with("memory_driver_gib: must be a positive number"),
            "{err}"
        );
    }
}
