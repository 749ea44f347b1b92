//! What a load test's per-request records are kept as: the four figures exact goodput needs.
//!
//! A per-request file (AIPerf `profile_export.jsonl`, vLLM `--save-detailed`, guidellm) can be
//! hundreds of MB, mostly token texts and inter-chunk gaps. Goodput needs, per request, only
//! whether it failed and its TTFT, TPOT and E2E. Those are taken once at import and stored
//! beside the evidence (29 bytes or fewer a request), so grading a point against a new plan
//! version never reads the raw file again, and a page view reads what was graded.
//!
//! The encoding is a small versioned binary layout (little-endian): the magic `PDRS`, a version
//! byte, the record count (u64), then per record the point index (u32), a flag byte (bit 0
//! failed, bits 1–3 TTFT/TPOT/E2E present) and the present figures as f64 — exact, so a value
//! that sits on a limit grades as it did in the file.

use crate::ingest::RequestRecord;
use thiserror::Error;

/// One request as goodput sees it.
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
}

impl From<&RequestRecord> for RequestSample {
    fn from(record: &RequestRecord) -> Self {
        RequestSample {
            point: u32::try_from(record.point).unwrap_or(u32::MAX),
            failed: record.is_error(),
            ttft_ms: record.ttft_ms,
            tpot_ms: record.tpot_ms,
            e2e_ms: record.e2e_ms,
        }
    }
}

/// A stored sample set that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("stored request samples unreadable: {0}")]
pub struct SamplesError(&'static str);

const MAGIC: &[u8; 4] = b"PDRS";
const VERSION: u8 = 1;
const FAILED: u8 = 1;
const HAS_TTFT: u8 = 2;
const HAS_TPOT: u8 = 4;
const HAS_E2E: u8 = 8;

/// Every request of a load-test file, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RequestSamples {
    pub samples: Vec<RequestSample>,
}

impl RequestSamples {
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

    /// The stored form (see the module documentation).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(13 + self.samples.len() * 29);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&(self.samples.len() as u64).to_le_bytes());
        for s in &self.samples {
            out.extend_from_slice(&s.point.to_le_bytes());
            let mut flags = 0;
            if s.failed {
                flags |= FAILED;
            }
            for (bit, value) in [
                (HAS_TTFT, s.ttft_ms),
                (HAS_TPOT, s.tpot_ms),
                (HAS_E2E, s.e2e_ms),
            ] {
                if value.is_some() {
                    flags |= bit;
                }
            }
            out.push(flags);
            for value in [s.ttft_ms, s.tpot_ms, s.e2e_ms].into_iter().flatten() {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    /// Reads [`RequestSamples::encode`]'s output back; a short, foreign or corrupt blob is an
    /// error, never a panic or an allocation larger than the blob.
    pub fn decode(bytes: &[u8]) -> Result<Self, SamplesError> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(4)? != MAGIC {
            return Err(SamplesError("not a sample set"));
        }
        if reader.take(1)?[0] != VERSION {
            return Err(SamplesError("unknown version"));
        }
        let count = reader.u64()?;
        // Every record is at least 5 bytes: a count beyond that is a corrupt header.
        let remaining = (bytes.len() - reader.at) as u64;
        if count > remaining / 5 {
            return Err(SamplesError("record count larger than the data"));
        }
        let mut samples = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let point = u32::from_le_bytes(reader.take(4)?.try_into().expect("4 bytes"));
            let flags = reader.take(1)?[0];
            let mut figure = |bit: u8| -> Result<Option<f64>, SamplesError> {
                if flags & bit == 0 {
                    return Ok(None);
                }
                Ok(Some(f64::from_le_bytes(
                    reader.take(8)?.try_into().expect("8 bytes"),
                )))
            };
            let ttft_ms = figure(HAS_TTFT)?;
            let tpot_ms = figure(HAS_TPOT)?;
            let e2e_ms = figure(HAS_E2E)?;
            samples.push(RequestSample {
                point,
                failed: flags & FAILED != 0,
                ttft_ms,
                tpot_ms,
                e2e_ms,
            });
        }
        if reader.at != bytes.len() {
            return Err(SamplesError("trailing bytes"));
        }
        Ok(RequestSamples { samples })
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
        }
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
        assert_eq!(bytes.len(), 13 + (5 + 24) + 5 + (5 + 16));
        let back = RequestSamples::decode(&bytes).unwrap();
        assert_eq!(back, set);
        assert_eq!(back.of_point(0).len(), 2);
        assert_eq!(back.of_point(3)[0].tpot_ms, None);
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
}
