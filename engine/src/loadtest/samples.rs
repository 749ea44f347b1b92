//! What a load test's per-request records are kept as: the figures exact goodput and the
//! capacity twin need.
//!
//! A per-request file (AIPerf `profile_export.jsonl`, vLLM `--save-detailed`, guidellm) can be
//! hundreds of MB, mostly token texts and inter-chunk gaps. Goodput needs, per request, only
//! whether it failed and its TTFT, TPOT and E2E. The capacity twin (`crate::twin`) needs three
//! more: the request's start (seconds from the earliest start of its point) and its prompt and
//! answer lengths in tokens. Its per-request TPOT equations (a request's TPOT against the
//! prompt and context tokens of the requests decoding beside it) and its recorded-arrival
//! replays (re-simulating a measured run at the times its requests were sent) cannot be
//! written without them; without them it rests on the points' percentiles alone. All of these
//! are taken once at import and stored beside the evidence (53 bytes or fewer a request), so
//! grading a point against a new plan version or fitting the twin never reads the raw file
//! again, and a page view reads what was graded.
//!
//! The encoding is a small versioned binary layout (little-endian): the magic `PDRS`, a version
//! byte, the record count (u64), then per record the point index (u32), a flag byte and the
//! present values in flag order. Flag bits:
//!
//! | bit | set when                       | value written                           |
//! |-----|--------------------------------|-----------------------------------------|
//! | 0   | the request failed             | —                                       |
//! | 1   | TTFT is known                  | f64, ms                                 |
//! | 2   | TPOT is known                  | f64, ms                                 |
//! | 3   | E2E is known                   | f64, ms                                 |
//! | 4   | the start is known (v2)        | f64, s from the point's earliest start  |
//! | 5   | the prompt length is known (v2) | u64, input tokens                      |
//! | 6   | the answer length is known (v2) | u64, output tokens                     |
//!
//! Times are f64, exact, so a value that sits on a limit grades as it did in the file; token
//! counts are u64, exact as the importer read them (no saturation). Every record is at least 5
//! bytes (point and flags), which bounds the record count a header may claim.
//!
//! **Version 2** (written now) has all seven bits; bit 7 is unused and makes a blob corrupt.
//! **Version 1** (written before the twin needed starts and token counts) has bits 0–3 only; it
//! is still read, with the start and both token counts `None` (its unused bits are ignored, as
//! they always were). The load-test summary records which version its row holds
//! (`request_samples_format`), so start-up re-derives version-1 rows from their kept raw file
//! once.

use crate::ingest::RequestRecord;
use thiserror::Error;

/// One request as goodput and the capacity twin see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestSample {
    /// The operating point (index into the import's points) the request belongs to.
    pub point: u32,
    /// The request errored, was cancelled or timed out: it is never good.
    pub failed: bool,
    pub ttft_ms: Option<f64>,
    /// `None` for a one-token answer (TPOT is undefined there).
    pub tpot_ms: Option<f64>,
    pub e2e_ms: Option<f64>,
    /// Seconds from the earliest request start of the same point to this request's start
    /// ([`RequestRecord::start_s`]). `None` when the file has no start times, and on samples
    /// stored as version 1.
    pub start_s: Option<f64>,
    /// Prompt length in tokens. `None` when the file does not say, and on version-1 samples.
    pub input_tokens: Option<u64>,
    /// Answer length in tokens. `None` when the file does not say, and on version-1 samples.
    pub output_tokens: Option<u64>,
}

impl From<&RequestRecord> for RequestSample {
    fn from(record: &RequestRecord) -> Self {
        RequestSample {
            point: u32::try_from(record.point).unwrap_or(u32::MAX),
            failed: record.is_error(),
            ttft_ms: record.ttft_ms,
            tpot_ms: record.tpot_ms,
            e2e_ms: record.e2e_ms,
            start_s: record.start_s,
            input_tokens: record.input_tokens,
            output_tokens: record.output_tokens,
        }
    }
}

/// A stored sample set that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("stored request samples unreadable: {0}")]
pub struct SamplesError(&'static str);

const MAGIC: &[u8; 4] = b"PDRS";
/// The version before start times and token counts were kept (still read).
const VERSION_1: u8 = 1;
const FAILED: u8 = 1;
const HAS_TTFT: u8 = 2;
const HAS_TPOT: u8 = 4;
const HAS_E2E: u8 = 8;
const HAS_START: u8 = 16;
const HAS_INPUT_TOKENS: u8 = 32;
const HAS_OUTPUT_TOKENS: u8 = 64;
/// The flag bits version 1 defined; any others in a version-1 blob are ignored.
const V1_FLAGS: u8 = FAILED | HAS_TTFT | HAS_TPOT | HAS_E2E;
/// The flag bits version 2 defines; any other makes a version-2 blob corrupt.
const V2_FLAGS: u8 = V1_FLAGS | HAS_START | HAS_INPUT_TOKENS | HAS_OUTPUT_TOKENS;
/// Header: magic, version, count.
const HEADER_BYTES: usize = 4 + 1 + 8;
/// The smallest record: point and flags.
const MIN_RECORD_BYTES: u64 = 5;
/// The largest version-2 record: point, flags, four f64 and two u64.
const MAX_RECORD_BYTES: usize = 5 + 4 * 8 + 2 * 8;

/// Every request of a load-test file, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RequestSamples {
    pub samples: Vec<RequestSample>,
}

impl RequestSamples {
    /// The version [`RequestSamples::encode`] writes (see the module documentation).
    pub const VERSION: u8 = 2;

    /// The samples of an import's per-request records.
    pub fn of_records(records: &[RequestRecord]) -> Self {
        RequestSamples {
            samples: records.iter().map(RequestSample::from).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The samples of operating point `point`, in file order.
    pub fn of_point(&self, point: usize) -> Vec<RequestSample> {
        self.samples
            .iter()
            .filter(|s| s.point as usize == point)
            .copied()
            .collect()
    }

    /// The stored form, version [`Self::VERSION`] (see the module documentation).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.samples.len() * MAX_RECORD_BYTES);
        out.extend_from_slice(MAGIC);
        out.push(Self::VERSION);
        out.extend_from_slice(&(self.samples.len() as u64).to_le_bytes());
        for s in &self.samples {
            out.extend_from_slice(&s.point.to_le_bytes());
            let times = [
                (HAS_TTFT, s.ttft_ms),
                (HAS_TPOT, s.tpot_ms),
                (HAS_E2E, s.e2e_ms),
                (HAS_START, s.start_s),
            ];
            let counts = [
                (HAS_INPUT_TOKENS, s.input_tokens),
                (HAS_OUTPUT_TOKENS, s.output_tokens),
            ];
            let mut flags = if s.failed { FAILED } else { 0 };
            for (bit, _) in times.iter().filter(|(_, v)| v.is_some()) {
                flags |= bit;
            }
            for (bit, _) in counts.iter().filter(|(_, v)| v.is_some()) {
                flags |= bit;
            }
            out.push(flags);
            for value in times.iter().filter_map(|(_, v)| *v) {
                out.extend_from_slice(&value.to_le_bytes());
            }
            for value in counts.iter().filter_map(|(_, v)| *v) {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    /// Reads [`RequestSamples::encode`]'s output back, and the version-1 blobs stored before
    /// it (start and token counts `None`); a short, foreign or corrupt blob is an error, never
    /// a panic or an allocation larger than the blob.
    pub fn decode(bytes: &[u8]) -> Result<Self, SamplesError> {
        Self::decode_versioned(bytes).map(|(samples, _)| samples)
    }

    /// [`RequestSamples::decode`], also saying which version the blob was.
    pub fn decode_versioned(bytes: &[u8]) -> Result<(Self, u8), SamplesError> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(4)? != MAGIC {
            return Err(SamplesError("not a sample set"));
        }
        let version = reader.take(1)?[0];
        if version != VERSION_1 && version != Self::VERSION {
            return Err(SamplesError("unknown version"));
        }
        let count = reader.u64()?;
        // Every record is at least 5 bytes: a count beyond that is a corrupt header.
        let remaining = (bytes.len() - reader.at) as u64;
        if count > remaining / MIN_RECORD_BYTES {
            return Err(SamplesError("record count larger than the data"));
        }
        let mut samples = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let point = u32::from_le_bytes(reader.take(4)?.try_into().expect("4 bytes"));
            let mut flags = reader.take(1)?[0];
            if version == VERSION_1 {
                flags &= V1_FLAGS;
            } else if flags & !V2_FLAGS != 0 {
                return Err(SamplesError("unknown flag"));
            }
            let mut time = |bit: u8| -> Result<Option<f64>, SamplesError> {
                if flags & bit == 0 {
                    return Ok(None);
                }
                Ok(Some(f64::from_le_bytes(
                    reader.take(8)?.try_into().expect("8 bytes"),
                )))
            };
            let ttft_ms = time(HAS_TTFT)?;
            let tpot_ms = time(HAS_TPOT)?;
            let e2e_ms = time(HAS_E2E)?;
            let start_s = time(HAS_START)?;
            let mut count = |bit: u8| -> Result<Option<u64>, SamplesError> {
                if flags & bit == 0 {
                    return Ok(None);
                }
                reader.u64().map(Some)
            };
            let input_tokens = count(HAS_INPUT_TOKENS)?;
            let output_tokens = count(HAS_OUTPUT_TOKENS)?;
            samples.push(RequestSample {
                point,
                failed: flags & FAILED != 0,
                ttft_ms,
                tpot_ms,
                e2e_ms,
                start_s,
                input_tokens,
                output_tokens,
            });
        }
        if reader.at != bytes.len() {
            return Err(SamplesError("trailing bytes"));
        }
        Ok((RequestSamples { samples }, version))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SamplesError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len())
            .ok_or(SamplesError("ends early"))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u64(&mut self) -> Result<u64, SamplesError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(point: u32, failed: bool, ttft: Option<f64>, tpot: Option<f64>) -> RequestSample {
        RequestSample {
            point,
            failed,
            ttft_ms: ttft,
            tpot_ms: tpot,
            e2e_ms: ttft.map(|t| t + 1000.0),
            start_s: None,
            input_tokens: None,
            output_tokens: None,
        }
    }

    /// A sample with every field present.
    fn full(point: u32, start_s: f64, input: u64, output: u64) -> RequestSample {
        RequestSample {
            start_s: Some(start_s),
            input_tokens: Some(input),
            output_tokens: Some(output),
            ..sample(point, false, Some(450.0), Some(0.1 + 0.2))
        }
    }

    /// Two figures are the same bits (`PartialEq` on f64 would let -0.0 equal 0.0).
    fn same_bits(a: Option<f64>, b: Option<f64>) -> bool {
        a.map(f64::to_bits) == b.map(f64::to_bits)
    }

    #[test]
    fn samples_survive_the_round_trip_bit_for_bit() {
        let set = RequestSamples {
            samples: vec![
                sample(0, false, Some(450.0), Some(0.1 + 0.2)),
                sample(0, true, None, None),
                sample(3, false, Some(f64::MIN_POSITIVE), None),
            ],
        };
        let bytes = set.encode();
        assert_eq!(bytes[4], RequestSamples::VERSION);
        assert_eq!(bytes.len(), 13 + (5 + 24) + 5 + (5 + 16));
        let back = RequestSamples::decode(&bytes).unwrap();
        assert_eq!(back, set);
        assert_eq!(back.of_point(0).len(), 2);
        assert_eq!(back.of_point(3)[0].tpot_ms, None);
    }

    #[test]
    fn version_2_keeps_start_and_token_counts_bit_for_bit() {
        let set = RequestSamples {
            samples: vec![
                full(0, 0.0, 1024, 128),
                full(0, 0.1 + 0.2, u64::MAX, 1),
                // -0.0 and the smallest subnormal keep their bits.
                full(1, -0.0, 0, u64::from(u32::MAX) + 1),
                full(1, f64::from_bits(1), 7, 0),
                // Some present, some not.
                RequestSample {
                    input_tokens: None,
                    ..full(2, 12.5, 3, 4)
                },
                RequestSample {
                    start_s: None,
                    output_tokens: None,
                    failed: true,
                    ..full(2, 1.0, 300, 5)
                },
            ],
        };
        let bytes = set.encode();
        assert_eq!(bytes[4], 2);
        assert_eq!(
            bytes.len(),
            13 + 4 * (5 + 32 + 16) + (5 + 32 + 8) + (5 + 24 + 8)
        );
        let (back, version) = RequestSamples::decode_versioned(&bytes).unwrap();
        assert_eq!(version, 2);
        assert_eq!(back, set);
        for (a, b) in back.samples.iter().zip(&set.samples) {
            for (x, y) in [
                (a.ttft_ms, b.ttft_ms),
                (a.tpot_ms, b.tpot_ms),
                (a.e2e_ms, b.e2e_ms),
                (a.start_s, b.start_s),
            ] {
                assert!(same_bits(x, y), "{x:?} vs {y:?}");
            }
        }
        assert_eq!(
            back.samples[2].start_s.unwrap().to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(back.samples[1].input_tokens, Some(u64::MAX));
        // Re-encoding what was read gives the same bytes.
        assert_eq!(back.encode(), bytes);
    }

    #[test]
    fn samples_of_records_keep_start_and_token_counts() {
        let mut record = RequestRecord::new(2);
        record.start_s = Some(1.25);
        record.ttft_ms = Some(80.0);
        record.input_tokens = Some(512);
        record.output_tokens = Some(64);
        let s = RequestSample::from(&record);
        assert_eq!(
            (s.point, s.start_s, s.input_tokens, s.output_tokens),
            (2, Some(1.25), Some(512), Some(64))
        );
        assert!(!s.failed);
    }

    /// A version-1 blob as the version-1 encoder wrote it, built by hand.
    fn v1_blob() -> Vec<u8> {
        let mut bytes = b"PDRS".to_vec();
        bytes.push(1);
        bytes.extend_from_slice(&3u64.to_le_bytes());
        // point 0, TTFT/TPOT/E2E present
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.push(2 | 4 | 8);
        for v in [450.0f64, 0.1 + 0.2, 1450.0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        // point 0, failed, nothing else
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.push(1);
        // point 3, TTFT and E2E
        bytes.extend_from_slice(&3u32.to_le_bytes());
        bytes.push(2 | 8);
        for v in [f64::MIN_POSITIVE, 1000.0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn a_version_1_blob_still_decodes_without_start_or_token_counts() {
        let bytes = v1_blob();
        let (back, version) = RequestSamples::decode_versioned(&bytes).unwrap();
        assert_eq!(version, 1);
        assert_eq!(
            back.samples,
            vec![
                RequestSample {
                    e2e_ms: Some(1450.0),
                    ..sample(0, false, Some(450.0), Some(0.1 + 0.2))
                },
                sample(0, true, None, None),
                sample(3, false, Some(f64::MIN_POSITIVE), None),
            ]
        );
        assert!(
            back.samples.iter().all(|s| s.start_s.is_none()
                && s.input_tokens.is_none()
                && s.output_tokens.is_none())
        );
        // Re-encoded, it is version 2 and reads back the same.
        let again = back.encode();
        assert_eq!(again[4], 2);
        assert_eq!(RequestSamples::decode(&again).unwrap(), back);
        // Cut anywhere, it is an error.
        for cut in 0..bytes.len() {
            assert!(
                RequestSamples::decode(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn a_cut_or_foreign_blob_is_an_error_not_a_panic() {
        let bytes = RequestSamples {
            samples: vec![sample(1, false, Some(1.0), Some(2.0))],
        }
        .encode();
        for cut in 0..bytes.len() {
            assert!(
                RequestSamples::decode(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut huge = bytes.clone();
        huge[5..13].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(
            RequestSamples::decode(&huge),
            Err(SamplesError("record count larger than the data"))
        );
        assert!(RequestSamples::decode(b"{\"json\": true}").is_err());
        let mut trailing = bytes;
        trailing.push(0);
        assert!(RequestSamples::decode(&trailing).is_err());
    }

    #[test]
    fn a_corrupt_version_2_blob_is_an_error_not_a_panic() {
        let set = RequestSamples {
            samples: vec![full(0, 0.5, 100, 20), full(1, 2.0, 200, 40)],
        };
        let bytes = set.encode();
        // Cut anywhere: an error.
        for cut in 0..bytes.len() {
            assert!(
                RequestSamples::decode(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        // A count the data cannot hold (at least 5 bytes a record).
        let record_bytes = (bytes.len() - 13) as u64;
        let mut inflated = bytes.clone();
        inflated[5..13].copy_from_slice(&(record_bytes / 5 + 1).to_le_bytes());
        assert_eq!(
            RequestSamples::decode(&inflated),
            Err(SamplesError("record count larger than the data"))
        );
        // A count the data could hold by size but whose records run out: ends early.
        let mut more = bytes.clone();
        more[5..13].copy_from_slice(&3u64.to_le_bytes());
        assert_eq!(
            RequestSamples::decode(&more),
            Err(SamplesError("ends early"))
        );
        // The unused flag bit.
        let mut flagged = bytes.clone();
        flagged[13 + 4] |= 0x80;
        assert_eq!(
            RequestSamples::decode(&flagged),
            Err(SamplesError("unknown flag"))
        );
        // A flag claiming a value that is not there shifts everything: never a panic.
        let mut shifted = bytes.clone();
        shifted[13 + 4] &= !HAS_OUTPUT_TOKENS;
        assert!(RequestSamples::decode(&shifted).is_err());
        // A later version.
        let mut later = bytes.clone();
        later[4] = 3;
        assert_eq!(
            RequestSamples::decode(&later),
            Err(SamplesError("unknown version"))
        );
        // Every single-byte flip either decodes to something or is an error; none panics.
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[at] ^= 1 << bit;
                let _ = RequestSamples::decode(&flipped);
            }
        }
    }
}
