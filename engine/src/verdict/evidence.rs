//! A figure of evidence, described as completely as a pass mark is.
//!
//! Grading needs to know exactly which number a figure is: metric, statistic, unit, definition,
//! measurement point and scope, plus what it was measured on (GPU, engine version) because latency
//! belongs to the hardware and software it was measured with. Importers and the store build
//! these from whatever they read; the verdict compares them field by field with the mark.
//!
//! A figure whose true value is only known to lie in an interval (a percentile read from a
//! Prometheus histogram is bounded by its bucket) carries that interval in
//! [`EvidenceStatistic::bounds`], so a mark inside the interval is not graded on the interpolated
//! value.

use crate::plan::{MarkKey, MeasurementPoint, Metric, Scope, Statistic, Unit, format_quantity};
use serde::{Deserialize, Serialize};

/// An interval the true value is known to lie in, in the figure's unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueBounds {
    pub low: f64,
    pub high: f64,
}

/// One statistic of evidence, e.g. "p95 TTFT at the gateway over all traffic: 480 ms".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceStatistic {
    pub metric: Metric,
    pub statistic: Statistic,
    /// The figure, in [`EvidenceStatistic::unit`]; `None` (or a non-finite number) when the
    /// source reports the statistic without a value.
    pub value: Option<f64>,
    pub unit: Unit,
    /// How the figure was computed, as the tool defines it; empty when the source does not say.
    #[serde(default)]
    pub definition: String,
    pub point: MeasurementPoint,
    #[serde(default)]
    pub scope: Scope,
    /// When the true value is only known to lie in an interval (histogram bucket).
    #[serde(default)]
    pub bounds: Option<ValueBounds>,
    /// Where the figure comes from, for people: `vllm bench serve, run 3`, `gateway log`.
    #[serde(default)]
    pub source: String,
    /// When the evidence was recorded (Unix milliseconds), if known.
    #[serde(default)]
    pub recorded_at_ms: Option<i64>,
    /// GPU the figure was measured on; empty when not stated.
    #[serde(default)]
    pub gpu: String,
    /// Serving engine version the figure was measured with; empty when not stated.
    #[serde(default)]
    pub engine_version: String,
    /// How many requests (or questions) the figure rests on, when known: a percentile needs
    /// enough of them ([`super::samples`]).
    #[serde(default)]
    pub samples: Option<u64>,
    /// Model the figure was measured with; empty when not stated.
    #[serde(default)]
    pub model: String,
    /// Set when the file is not the pilot's (another model or GPU, [`super::comparability`]):
    /// the figure grades nothing and this is why.
    #[serde(default)]
    pub not_comparable: Option<String>,
    /// The same reason as data, to be worded in the report's language.
    #[serde(default)]
    pub mismatch: Option<super::comparability::Mismatch>,
    /// What the file leaves unstated (`model not stated in the file`): graded, but flagged.
    #[serde(default)]
    pub caveats: Vec<String>,
}

impl EvidenceStatistic {
    /// A figure over all traffic with the metric's default definition and nothing else stated.
    /// A figure reported without a value is built with [`EvidenceStatistic::new`] and then
    /// `value: None`.
    pub fn new(
        metric: Metric,
        statistic: Statistic,
        value: f64,
        unit: Unit,
        point: MeasurementPoint,
    ) -> EvidenceStatistic {
        EvidenceStatistic {
            metric,
            statistic,
            value: Some(value),
            unit,
            definition: String::new(),
            point,
            scope: Scope::AllTraffic,
            bounds: None,
            source: String::new(),
            recorded_at_ms: None,
            gpu: String::new(),
            engine_version: String::new(),
            samples: None,
            model: String::new(),
            not_comparable: None,
            mismatch: None,
            caveats: Vec::new(),
        }
    }

    /// The same figure resting on `samples` requests or questions.
    pub fn with_samples(mut self, samples: u64) -> Self {
        self.samples = Some(samples);
        self
    }

    /// The same figure with the outcome of its file's comparability check.
    pub fn checked(mut self, check: &super::comparability::FileCheck) -> Self {
        self.not_comparable = check.not_comparable.clone();
        self.mismatch = check.mismatch.clone();
        for caveat in &check.caveats {
            if !self.caveats.contains(caveat) {
                self.caveats.push(caveat.clone());
            }
        }
        self
    }

    /// The same figure with this scope.
    pub fn with_scope(mut self, scope: Scope) -> Self {
        self.scope = scope;
        self
    }

    /// The same figure with this definition.
    pub fn with_definition(mut self, definition: impl Into<String>) -> Self {
        self.definition = definition.into();
        self
    }

    /// The same figure, known only to lie between `low` and `high`.
    pub fn with_bounds(mut self, low: f64, high: f64) -> Self {
        self.bounds = Some(ValueBounds { low, high });
        self
    }

    /// The same figure with its source and recording time.
    pub fn recorded(mut self, source: impl Into<String>, at_ms: i64) -> Self {
        self.source = source.into();
        self.recorded_at_ms = Some(at_ms);
        self
    }

    /// The same figure, measured on `gpu` with engine `engine_version`.
    pub fn measured_on(
        mut self,
        gpu: impl Into<String>,
        engine_version: impl Into<String>,
    ) -> Self {
        self.gpu = gpu.into();
        self.engine_version = engine_version.into();
        self
    }

    /// What the figure is: `p95 TTFT at the gateway`.
    pub fn label(&self) -> String {
        MarkKey {
            metric: self.metric.clone(),
            statistic: self.statistic,
            point: self.point,
            scope: self.scope.clone(),
        }
        .label()
    }

    /// The value if it is a finite number.
    pub fn finite_value(&self) -> Option<f64> {
        self.value.filter(|v| v.is_finite())
    }

    /// The value with its unit: `480 ms`, or `no value`.
    pub fn value_text(&self) -> String {
        match self.finite_value() {
            Some(value) => format_quantity(value, self.unit),
            None => "no value".into(),
        }
    }
}
