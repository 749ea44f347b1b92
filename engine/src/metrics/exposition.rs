//! A parser for the Prometheus text exposition format (what `/metrics` returns).
//!
//! Covers the format as `prometheus_client` (vLLM's exporter) and other exporters write it:
//! `# HELP` and `# TYPE` lines, other comments, samples `name{label="value",…} value [timestamp]`
//! with the label-value escapes `\\`, `\"` and `\n`, the special values `+Inf`, `-Inf` and
//! `NaN`, metric names with colons (`vllm:…`), and an OpenMetrics `# EOF` line or trailing
//! exemplar (`… # {trace_id="…"} 1.0`), which are ignored.
//!
//! Decisions:
//! * Samples are grouped into families by their `# TYPE` line: `<family>_bucket`, `_sum` and
//!   `_count` belong to a histogram or summary family, `<family>_total` to a counter family; a
//!   counter family may be declared with or without `_total` (prometheus_client writes it with,
//!   OpenMetrics without), and [`Scrape::family`] finds it under either name. Samples without a
//!   `# TYPE` form untyped families of their own name.
//! * `*_created` series and families (creation timestamps of counters and histograms) are dropped:
//!   they are not measurements.
//! * A timestamp written as an integer is milliseconds (text format 0.0.4); one with a decimal
//!   point or exponent is seconds (OpenMetrics).
//! * Duplicate label names and malformed lines are errors naming the line; the parser does not
//!   guess.
//! * Counter values and histogram/summary `_bucket`, `_count` and `_sum` values must be counts
//!   ([`crate::plausible`]: finite, ≥ 0, at most 2⁵³); `+Inf`, `NaN`, a negative or a 1e308
//!   counter is an error naming the line. Gauges may hold anything. vLLM's reader also refuses
//!   sample timestamps outside 2000–2099.
//! * **A cut-off scrape is refused**, never read as a smaller one: a last line without its line
//!   end (every line of the format ends with one; a sample's value or a `# TYPE` may be cut;
//!   `# EOF` may end the text as it is), and a
//!   histogram series whose `_bucket`s lack the `+Inf` bucket or whose `_count` or `_sum` is
//!   missing (an exporter writes all of them, so the text stopped in the middle) are errors
//!   saying `the scrape ends mid-…`. A cut exactly between two families cannot be seen.
//! * **Across samples** ([`crate::plausible::across`]): a series (name and label set) may appear
//!   only once (a repeated one would be summed with itself downstream), and every histogram
//!   series must be consistent: buckets cumulative in `le`, `+Inf` equal to `_count`, `_sum`
//!   within the bucket edges. Errors name the line of the sample at fault and the rule.

use crate::plausible::across::{self, Broken, Rule};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use thiserror::Error;

/// A metric family's type from its `# TYPE` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MetricType {
    Counter,
    Gauge,
    Histogram,
    Summary,
    Untyped,
}

impl MetricType {
    fn parse(word: &str) -> MetricType {
        match word {
            "counter" => MetricType::Counter,
            "gauge" => MetricType::Gauge,
            "histogram" | "gaugehistogram" => MetricType::Histogram,
            "summary" => MetricType::Summary,
            _ => MetricType::Untyped,
        }
    }
}

/// One sample line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The full sample name (`vllm:e2e_request_latency_seconds_bucket`).
    pub name: String,
    /// Labels sorted by name.
    pub labels: Vec<(String, String)>,
    pub value: f64,
    /// Unix milliseconds, when the line carries a timestamp.
    pub timestamp_ms: Option<i64>,
}

impl Sample {
    /// The value of label `name`, if present.
    pub fn label(&self, name: &str) -> Option<&str> {
        self.labels
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A metric family: its declared name, type, help text and samples in file order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricFamily {
    pub name: String,
    pub kind: MetricType,
    pub help: Option<String>,
    pub samples: Vec<Sample>,
}

impl MetricFamily {
    /// The value samples of a counter, gauge or untyped family: those named like the family, or
    /// like it plus `_total` (a counter declared without the suffix).
    pub fn value_samples(&self) -> impl Iterator<Item = &Sample> {
        self.samples_with_suffix("")
            .chain(self.samples_with_suffix("_total"))
    }

    /// Samples whose name is the family name plus `suffix` (`""`, `"_bucket"`, `"_total"`, …).
    pub fn samples_with_suffix<'a>(&'a self, suffix: &'a str) -> impl Iterator<Item = &'a Sample> {
        self.samples.iter().filter(move |s| {
            s.name.len() == self.name.len() + suffix.len()
                && s.name.starts_with(&self.name)
                && s.name.ends_with(suffix)
        })
    }
}

/// A parsed scrape.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scrape {
    families: BTreeMap<String, MetricFamily>,
}

impl Scrape {
    /// The family called `name`; counters are also found by their name with or without `_total`.
    pub fn family(&self, name: &str) -> Option<&MetricFamily> {
        self.families
            .get(name)
            .or_else(|| self.families.get(&format!("{name}_total")))
            .or_else(|| {
                name.strip_suffix("_total")
                    .and_then(|base| self.families.get(base))
            })
    }

    /// Every family, ordered by name.
    pub fn families(&self) -> impl Iterator<Item = &MetricFamily> {
        self.families.values()
    }

    /// The latest sample timestamp in the scrape, if any sample carries one.
    pub fn latest_timestamp_ms(&self) -> Option<i64> {
        self.families
            .values()
            .flat_map(|f| f.samples.iter())
            .filter_map(|s| s.timestamp_ms)
            .max()
    }
}

/// A line of the exposition that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct ExpositionError {
    pub line: u64,
    pub message: String,
}

const SAMPLE_SUFFIXES: [(&str, &[MetricType]); 4] = [
    ("_bucket", &[MetricType::Histogram]),
    ("_count", &[MetricType::Histogram, MetricType::Summary]),
    ("_sum", &[MetricType::Histogram, MetricType::Summary]),
    ("_total", &[MetricType::Counter]),
];

/// Histogram series seen (family, labels without `le`) → the line of their last sample.
type HistogramSeries = BTreeMap<(String, Vec<(String, String)>), u64>;

/// Every series seen (sample name, sorted labels) → its line.
type SeriesLines = HashMap<(String, Vec<(String, String)>), u64>;

/// How every message about a scrape cut off in a line begins.
const MID_LINE: &str = "the scrape ends mid-line (cut off?)";

/// Parses a whole exposition text (see the module docs).
pub fn parse_exposition(text: &str) -> Result<Scrape, ExpositionError> {
    parse_exposition_with(text, false)
}

/// [`parse_exposition`], and with `check_instants` every sample timestamp must also lie in
/// 2000–2099 ([`crate::plausible::instant_ms`]): a pilot's scrape is from this century, and a
/// timestamp in the year 5138 or 1970 is a unit mistake that would make every rate wrong.
pub(crate) fn parse_exposition_with(
    text: &str,
    check_instants: bool,
) -> Result<Scrape, ExpositionError> {
    let mut scrape = Scrape::default();
    let last_line = text.lines().count() as u64;
    let unterminated = !text.ends_with('\n');
    let mut series = HistogramSeries::new();
    let mut seen = SeriesLines::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index as u64 + 1;
        let line = raw.trim();
        let cut = unterminated && line_no == last_line && line != "# EOF";
        let fail = |message: String| ExpositionError {
            line: line_no,
            message: if cut {
                format!("{MID_LINE}: {message}")
            } else {
                message
            },
        };
        if line.is_empty() {
            continue;
        }
        if cut && !line.is_empty() {
            // A cut `# TYPE` line would change a family's type, a cut sample its value.
            let what = if line.starts_with('#') {
                "comment"
            } else {
                "sample"
            };
            let error = parse_sample(line)
                .err()
                .map_or_else(String::new, |e| format!(" ({e})"));
            return Err(fail(format!(
                "the last line, a {what}, has no line end (every line of a scrape ends with \
                 one){error}"
            )));
        }
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim_start();
            let (keyword, rest) = split_word(comment);
            if keyword != "HELP" && keyword != "TYPE" {
                continue;
            }
            let (name, rest) = split_word(rest);
            if name.is_empty() || !is_metric_name(name) {
                return Err(fail(format!(
                    "`# {keyword}` needs a metric name, found {name:?}"
                )));
            }
            if name.ends_with("_created") {
                continue;
            }
            let family = scrape
                .families
                .entry(name.to_owned())
                .or_insert_with(|| MetricFamily {
                    name: name.to_owned(),
                    kind: MetricType::Untyped,
                    help: None,
                    samples: Vec::new(),
                });
            if keyword == "HELP" {
                family.help = Some(unescape_help(rest));
            } else {
                family.kind = MetricType::parse(rest.trim());
            }
            continue;
        }
        let sample = parse_sample(line).map_err(&fail)?;
        if sample.name.ends_with("_created") {
            continue;
        }
        if let Some(first) = seen.insert((sample.name.clone(), sample.labels.clone()), line_no) {
            let broken = Broken::new(
                Rule::SeriesUnique,
                &series_text(&sample),
                format!("appears again (first on line {first})"),
            );
            return Err(fail(broken.to_string()));
        }
        if check_instants && let Some(ms) = sample.timestamp_ms {
            crate::plausible::instant_ms(ms)
                .map_err(|why| fail(format!("{}: the sample's timestamp: {why}", sample.name)))?;
        }
        let family_name = family_of(&scrape, &sample.name);
        let family = scrape
            .families
            .entry(family_name.clone())
            .or_insert_with(|| MetricFamily {
                name: family_name,
                kind: MetricType::Untyped,
                help: None,
                samples: Vec::new(),
            });
        if is_count_sample(family, &sample.name) {
            crate::plausible::check(crate::plausible::Quantity::Count, sample.value)
                .map_err(|e| fail(format!("{}: {e}", sample.name)))?;
        }
        if family.kind == MetricType::Histogram {
            let labels = sample.labels.iter().filter(|(k, _)| k != "le").cloned();
            series.insert((family.name.clone(), labels.collect()), line_no);
        }
        family.samples.push(sample);
    }
    check_histograms(&scrape, &series, &seen)?;
    Ok(scrape)
}

/// `name{label="value",…}` as the scrape writes the series (labels sorted).
fn series_text(sample: &Sample) -> String {
    if sample.labels.is_empty() {
        return sample.name.clone();
    }
    let labels: Vec<String> = sample
        .labels
        .iter()
        .map(|(k, v)| format!("{k}={v:?}"))
        .collect();
    format!("{}{{{}}}", sample.name, labels.join(","))
}

/// True for a sample that counts ([`crate::plausible::Quantity::Count`]: finite, ≥ 0, ≤ 2⁵³): a
/// counter's value, a histogram's `_bucket`, `_count` and `_sum`, a summary's `_count` and
/// `_sum`. Gauges and untyped samples may be anything (`NaN` included).
fn is_count_sample(family: &MetricFamily, sample_name: &str) -> bool {
    let suffix = sample_name.strip_prefix(family.name.as_str());
    match family.kind {
        MetricType::Counter => matches!(suffix, Some("" | "_total")),
        MetricType::Histogram => matches!(suffix, Some("_bucket" | "_count" | "_sum")),
        MetricType::Summary => matches!(suffix, Some("_count" | "_sum")),
        MetricType::Gauge | MetricType::Untyped => false,
    }
}

/// Every histogram series has its `+Inf` bucket, `_count` and `_sum` (see the module docs), and
/// they are consistent ([`check_series`]).
fn check_histograms(
    scrape: &Scrape,
    series: &HistogramSeries,
    seen: &SeriesLines,
) -> Result<(), ExpositionError> {
    for ((name, labels), &line) in series {
        let Some(family) = scrape.families.get(name) else {
            continue;
        };
        let same_series =
            |s: &&Sample| s.labels.iter().filter(|(k, _)| k != "le").eq(labels.iter());
        let mut buckets = family
            .samples_with_suffix("_bucket")
            .filter(same_series)
            .peekable();
        if buckets.peek().is_none() {
            continue;
        }
        let has_inf = buckets.any(|s| s.label("le").and_then(parse_value) == Some(f64::INFINITY));
        let has = |suffix| family.samples_with_suffix(suffix).any(|s| same_series(&s));
        let missing = match (has_inf, has("_count"), has("_sum")) {
            (false, _, _) => "its `le=\"+Inf\"` bucket",
            (_, false, _) => "its `_count`",
            (_, _, false) => "its `_sum`",
            _ => {
                check_series(family, labels, seen)?;
                continue;
            }
        };
        let shown: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
        return Err(ExpositionError {
            line,
            message: format!(
                "the scrape ends mid-histogram (cut off?): {name}{{{}}} lacks {missing}",
                shown.join(",")
            ),
        });
    }
    Ok(())
}

/// One complete histogram series against the rules across its samples
/// ([`crate::plausible::across`]): buckets cumulative in `le`, the `+Inf` bucket equal to
/// `_count`, and `_sum` within what the buckets allow (observations are ≥ 0: a histogram's
/// `_sum` is a count here, see [`is_count_sample`]). Prometheus' own `histogram_quantile`
/// assumes the first two; a scrape that breaks them is damaged or hand-edited, and its quantiles
/// would be wrong (a p99 below the mean). The error names the line of the sample at fault.
fn check_series(
    family: &MetricFamily,
    labels: &[(String, String)],
    seen: &SeriesLines,
) -> Result<(), ExpositionError> {
    let same_series = |s: &&Sample| s.labels.iter().filter(|(k, _)| k != "le").eq(labels.iter());
    let line_of = |s: &Sample| {
        seen.get(&(s.name.clone(), s.labels.clone()))
            .copied()
            .unwrap_or(0)
    };
    let mut buckets: Vec<(String, f64, f64, u64)> = family
        .samples_with_suffix("_bucket")
        .filter(same_series)
        .filter_map(|s| {
            let le = s.label("le").and_then(parse_value)?;
            Some((series_text(s), le, s.value, line_of(s)))
        })
        .collect();
    buckets.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (Some(count), Some(sum)) = (
        family.samples_with_suffix("_count").find(same_series),
        family.samples_with_suffix("_sum").find(same_series),
    ) else {
        return Ok(());
    };
    let (count_text, sum_text) = (series_text(count), series_text(sum));
    let at = |broken: Broken| {
        let line = if broken.field == count_text {
            line_of(count)
        } else if broken.field == sum_text {
            line_of(sum)
        } else {
            buckets
                .iter()
                .find(|b| b.0 == broken.field)
                .map_or(0, |b| b.3)
        };
        ExpositionError {
            line,
            message: broken.to_string(),
        }
    };
    let named: Vec<(&str, f64, f64)> = buckets.iter().map(|b| (b.0.as_str(), b.1, b.2)).collect();
    across::histogram_cumulative(&named, (&count_text, count.value)).map_err(at)?;
    let edges: Vec<(f64, f64)> = buckets.iter().map(|b| (b.1, b.2)).collect();
    across::histogram_sum_within((&sum_text, sum.value), &edges).map_err(at)
}

/// The family a sample name belongs to (see the module docs).
fn family_of(scrape: &Scrape, sample_name: &str) -> String {
    if scrape.families.contains_key(sample_name) {
        return sample_name.to_owned();
    }
    for (suffix, kinds) in SAMPLE_SUFFIXES {
        if let Some(base) = sample_name.strip_suffix(suffix)
            && scrape
                .families
                .get(base)
                .is_some_and(|f| kinds.contains(&f.kind))
        {
            return base.to_owned();
        }
    }
    sample_name.to_owned()
}

fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find([' ', '\t']) {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text, ""),
    }
}

fn is_metric_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

fn unescape_help(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out.trim_end().to_owned()
}

/// Parses `name{labels} value [timestamp]`.
fn parse_sample(line: &str) -> Result<Sample, String> {
    let bytes = line.as_bytes();
    let name_end = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b':'))
        .unwrap_or(bytes.len());
    let name = &line[..name_end];
    if !is_metric_name(name) {
        return Err(format!("expected a metric name at the start of {line:?}"));
    }
    let mut i = name_end;
    let mut labels: Vec<(String, String)> = Vec::new();
    if bytes.get(i) == Some(&b'{') {
        i += 1;
        loop {
            i = skip_spaces(bytes, i);
            match bytes.get(i) {
                Some(b'}') => {
                    i += 1;
                    break;
                }
                None => return Err(format!("labels of {name} are not closed with `}}`")),
                _ => {}
            }
            let label_start = i;
            while bytes
                .get(i)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                i += 1;
            }
            let label = &line[label_start..i];
            if label.is_empty() || label.as_bytes()[0].is_ascii_digit() {
                return Err(format!("expected a label name in the labels of {name}"));
            }
            i = skip_spaces(bytes, i);
            if bytes.get(i) != Some(&b'=') {
                return Err(format!("expected `=` after label {label} of {name}"));
            }
            i = skip_spaces(bytes, i + 1);
            if bytes.get(i) != Some(&b'"') {
                return Err(format!(
                    "expected a quoted value for label {label} of {name}"
                ));
            }
            i += 1;
            let mut value = String::new();
            loop {
                match bytes.get(i) {
                    None => {
                        return Err(format!(
                            "the value of label {label} of {name} is not closed"
                        ));
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') => {
                        match bytes.get(i + 1) {
                            Some(b'n') => value.push('\n'),
                            Some(b'\\') => value.push('\\'),
                            Some(b'"') => value.push('"'),
                            _ => {
                                return Err(format!(
                                    "unknown escape in the value of label {label} of {name}"
                                ));
                            }
                        }
                        i += 2;
                    }
                    Some(_) => {
                        let run_end = line[i..]
                            .find(['"', '\\'])
                            .map_or(line.len(), |offset| i + offset);
                        value.push_str(&line[i..run_end]);
                        i = run_end;
                    }
                }
            }
            if labels.iter().any(|(k, _)| k == label) {
                return Err(format!("label {label} appears twice on {name}"));
            }
            labels.push((label.to_owned(), value));
            i = skip_spaces(bytes, i);
            match bytes.get(i) {
                Some(b',') => i += 1,
                Some(b'}') => {}
                _ => {
                    return Err(format!(
                        "expected `,` or `}}` after label {label} of {name}"
                    ));
                }
            }
        }
    }
    let rest = &line[i..];
    let rest = match rest.find(" # ") {
        Some(exemplar) => &rest[..exemplar],
        None => rest,
    };
    let mut words = rest.split_ascii_whitespace();
    let value_text = words.next().ok_or_else(|| format!("{name} has no value"))?;
    let value = parse_value(value_text)
        .ok_or_else(|| format!("{name}: value {value_text:?} is not a number"))?;
    let timestamp_ms = match words.next() {
        None => None,
        Some(t) if t.contains(['.', 'e', 'E']) => Some(
            t.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite())
                .map(|s| (s * 1000.0).round() as i64)
                .ok_or_else(|| format!("{name}: timestamp {t:?} is not a number"))?,
        ),
        Some(t) => Some(
            t.parse::<i64>()
                .map_err(|_| format!("{name}: timestamp {t:?} is not a number"))?,
        ),
    };
    if let Some(extra) = words.next() {
        return Err(format!(
            "{name}: unexpected {extra:?} after the value and timestamp"
        ));
    }
    labels.sort();
    Ok(Sample {
        name: name.to_owned(),
        labels,
        value,
        timestamp_ms,
    })
}

fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
        i += 1;
    }
    i
}

fn parse_value(text: &str) -> Option<f64> {
    match text {
        "+Inf" | "Inf" | "+inf" | "inf" => Some(f64::INFINITY),
        "-Inf" | "-inf" => Some(f64::NEG_INFINITY),
        "NaN" | "nan" => Some(f64::NAN),
        other => other.parse::<f64>().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"# HELP http_requests_total The total number of HTTP requests.\nSecond line with a \\ backslash.
# TYPE http_requests_total counter
http_requests_total{method="post",code="200"} 1027 1395066363000
http_requests_total{code="400" , method="post",} 3 1395066363000
http_requests_created{method="post",code="200"} 1.7e9
# A free comment
msdos_file_access_time_seconds{path="C:\\DIR\\FILE.TXT",error="Cannot find file:\n\"FILE.TXT\""} 1.458255915e9
# TYPE rpc_duration_seconds histogram
rpc_duration_seconds_bucket{le="0.05"} 24054
rpc_duration_seconds_bucket{le="+Inf"} 144320
rpc_duration_seconds_sum 5.3e+04
rpc_duration_seconds_count 144320
# TYPE vllm:num_preemptions counter
vllm:num_preemptions_total{engine="0"} 2.0 # {trace_id="abc"} 1.0
weird_value NaN
neg -Inf 1.5
# EOF
"#;

    #[test]
    fn parses_families_labels_escapes_and_timestamps() {
        let scrape = parse_exposition(TEXT).unwrap();
        let http = scrape.family("http_requests").unwrap();
        assert_eq!(http.name, "http_requests_total");
        assert_eq!(http.kind, MetricType::Counter);
        assert_eq!(
            http.help.as_deref(),
            Some("The total number of HTTP requests.\nSecond line with a \\ backslash.")
        );
        assert_eq!(http.samples.len(), 2);
        assert_eq!(http.samples[1].label("code"), Some("400"));
        assert_eq!(http.samples[1].value, 3.0);
        assert_eq!(http.samples[0].timestamp_ms, Some(1_395_066_363_000));
        assert!(scrape.family("http_requests_created").is_none());

        let file = scrape.family("msdos_file_access_time_seconds").unwrap();
        assert_eq!(file.kind, MetricType::Untyped);
        assert_eq!(file.samples[0].label("path"), Some("C:\\DIR\\FILE.TXT"));
        assert_eq!(
            file.samples[0].label("error"),
            Some("Cannot find file:\n\"FILE.TXT\"")
        );

        let rpc = scrape.family("rpc_duration_seconds").unwrap();
        assert_eq!(rpc.kind, MetricType::Histogram);
        let buckets: Vec<f64> = rpc
            .samples_with_suffix("_bucket")
            .map(|s| s.value)
            .collect();
        assert_eq!(buckets, vec![24054.0, 144320.0]);
        assert_eq!(
            rpc.samples_with_suffix("_bucket")
                .nth(1)
                .unwrap()
                .label("le"),
            Some("+Inf")
        );
        assert_eq!(
            rpc.samples_with_suffix("_sum").next().unwrap().value,
            53_000.0
        );

        let preemptions = scrape.family("vllm:num_preemptions_total").unwrap();
        assert_eq!(preemptions.name, "vllm:num_preemptions");
        assert_eq!(
            preemptions
                .samples_with_suffix("_total")
                .next()
                .unwrap()
                .value,
            2.0
        );

        assert!(
            scrape.family("weird_value").unwrap().samples[0]
                .value
                .is_nan()
        );
        let neg = &scrape.family("neg").unwrap().samples[0];
        assert_eq!(
            (neg.value, neg.timestamp_ms),
            (f64::NEG_INFINITY, Some(1_500))
        );
        assert_eq!(scrape.latest_timestamp_ms(), Some(1_395_066_363_000));
    }

    #[test]
    fn malformed_lines_are_errors_with_their_line() {
        for (text, line, words) in [
            ("ok 1\nbroken{a=\"1\" 2\n", 2, "expected `,` or `}`"),
            ("x{a=\"1\",a=\"2\"} 1", 1, "appears twice"),
            ("x{a=\"\\t\"} 1", 1, "unknown escape"),
            ("x abc", 1, "not a number"),
            ("x", 1, "has no value"),
            ("\n\n1x 2", 3, "expected a metric name"),
            ("x 1 2 3", 1, "unexpected"),
            ("x{a=\"1} 1", 1, "not closed"),
        ] {
            let error = parse_exposition(text).unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
            assert!(error.message.contains(words), "{text:?}: {error}");
        }
    }
}
