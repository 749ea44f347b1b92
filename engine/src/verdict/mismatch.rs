//! One way a figure differs from the mark it would grade: what grading reports when a figure
//! cannot be compared, and what the sample-size rules report too (a leaf, so both use it
//! without needing each other).

/// One way a figure differs from the mark's number.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mismatch {
    /// Short name of the aspect: `measurement point`, `statistic`, `GPU` …
    pub aspect: &'static str,
    pub reason: String,
}
