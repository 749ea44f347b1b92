//! AIPerf `profile_export_aiperf.csv` and GenAI-Perf `*_genai_perf.csv` summaries.
//!
//! Both are written by Python's `csv.writer` (CRLF line endings) in two sections separated by
//! a blank row: `Metric,avg,min,max,…` with one row per distribution metric, then
//! `Metric,Value` with one row per scalar. A metric is identified by its **header text**
//! (`Time to First Token (ms)`), which is turned back into the tag (`time_to_first_token`) and
//! unit (`ms`) and then handled exactly like the JSON blocks (see `aiperf.rs`).
//!
//! Decisions:
//! * Cells may be quoted and use thousands separators (GenAI-Perf writes `"1,234.56"`); both
//!   are accepted. Empty cells and `N/A` are missing values, anything else non-numeric is an
//!   error naming the line, the metric and the column.
//! * The CSV carries no run configuration (model, concurrency, scenario); the point says
//!   `observed mean …` for the scenario and a warning points to the JSON export.
//! * The tiny RFC 4180 reader here is enough for these exports (no field spans lines); no CSV
//!   crate is needed.
//! * **A cut-off file is refused**, never read as a shorter summary: both tools end every row
//!   with a line end and always write both sections, so a last row without its line end (its
//!   last value may be cut), a row with fewer cells than its section's header, a quoted cell
//!   still open at the end, or a file without the `Metric,Value` section is an error saying
//!   `the file ends mid-record`.

use super::across::{PointRules, check_point};
use super::aiperf::{Block, Tool, apply_blocks, canonical_tag};
use super::common::finish_point;
use super::error::{Ctx, ErrorKind};
use super::json::Result;
use super::model::{Format, Import, OperatingPoint};
use std::collections::BTreeMap;

/// Splits one CSV line into cells (quotes and doubled quotes handled).
pub(crate) fn split_cells(line: &str) -> std::result::Result<Vec<String>, &'static str> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    cell.push('"');
                    chars.next();
                }
                '"' => quoted = false,
                other => cell.push(other),
            }
        } else {
            match c {
                '"' if cell.is_empty() => quoted = true,
                ',' => cells.push(std::mem::take(&mut cell)),
                other => cell.push(other),
            }
        }
    }
    if quoted {
        return Err("unterminated quoted cell");
    }
    cells.push(cell);
    Ok(cells)
}

/// `Time to First Token (ms)` → (`time_to_first_token`, `Some("ms")`).
pub(crate) fn tag_from_header(header: &str) -> (String, Option<String>) {
    let header = header.trim();
    let (name, unit) = match (header.rfind(" ("), header.ends_with(')')) {
        (Some(open), true) => (
            &header[..open],
            Some(header[open + 2..header.len() - 1].to_string()),
        ),
        _ => (header, None),
    };
    let tag = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    (canonical_tag(&tag).to_string(), unit)
}

fn parse_cell(cell: &str) -> Option<std::result::Result<f64, ()>> {
    let t = cell.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("n/a") || t.eq_ignore_ascii_case("none") {
        return None;
    }
    let cleaned: String = t.chars().filter(|c| *c != ',').collect();
    Some(cleaned.parse::<f64>().map_err(|_| ()))
}

/// Reads the sections of a summary CSV into blocks.
fn read_blocks(text: &str, ctx: &Ctx, warnings: &mut Vec<String>) -> Result<Vec<Block>> {
    let mut blocks = Vec::new();
    let mut columns: Option<Vec<String>> = None; // current section's header, lower-case
    let mut skipping_unknown = false;
    let mut scalar_section = false;
    let last = text.split('\n').count() - 1;
    for (i, raw) in text.split('\n').enumerate() {
        let line_ctx = ctx.at_line(i as u64 + 1);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        // The last piece of a split is what follows the last line end: text there was cut off.
        let cut = i == last && !line.trim().is_empty();
        let cut_prefix = if cut { MID_RECORD } else { "" };
        let cells = split_cells(line).map_err(|m| {
            line_ctx.err(
                ErrorKind::Syntax,
                None,
                format!("{cut_prefix}invalid CSV: {m}"),
            )
        })?;
        if cells.iter().all(|c| c.trim().is_empty()) {
            columns = None;
            skipping_unknown = false;
            continue;
        }
        if cut {
            return Err(line_ctx.err(
                ErrorKind::Syntax,
                None,
                format!(
                    "{MID_RECORD}the last row has no line end (AIPerf and GenAI-Perf end every \
                     row with one), so its last value may be incomplete"
                ),
            ));
        }
        let Some(cols) = &columns else {
            if skipping_unknown {
                continue;
            }
            if cells[0].trim() != "Metric" {
                warnings.push(super::words::csv_section_skipped(
                    &super::words::at_line(&ctx.file, (i + 1) as u64),
                    cells[0].trim(),
                ));
                skipping_unknown = true;
                continue;
            }
            if cells.iter().any(|c| c.trim().eq_ignore_ascii_case("gpu")) {
                return Err(line_ctx.err(
                    ErrorKind::UnknownFormat,
                    None,
                    "this is a GPU telemetry CSV, not a load-test summary",
                ));
            }
            columns = Some(
                cells
                    .iter()
                    .map(|c| c.trim().to_ascii_lowercase())
                    .collect(),
            );
            scalar_section |= cells.len() == 2 && cells[1].trim().eq_ignore_ascii_case("value");
            continue;
        };
        if cells.len() < cols.len() {
            return Err(line_ctx.err(
                ErrorKind::Syntax,
                None,
                format!(
                    "row has {} cells but the section header has {} (a cut-off or damaged row?)",
                    cells.len(),
                    cols.len()
                ),
            ));
        }
        if cells.len() > cols.len() {
            return Err(line_ctx.err(
                ErrorKind::InvalidValue,
                None,
                format!(
                    "row has {} cells but the section header has {} (an unquoted thousands separator?)",
                    cells.len(),
                    cols.len()
                ),
            ));
        }
        let header = cells[0].trim();
        let (tag, unit) = tag_from_header(header);
        let mut block = Block {
            tag,
            unit,
            stats: BTreeMap::new(),
            field: header.to_string(),
            line: Some(i as u64 + 1),
        };
        for (col, cell) in cols.iter().zip(cells.iter()).skip(1) {
            let stat = if col == "value" { "avg" } else { col.as_str() };
            match parse_cell(cell) {
                None => {}
                Some(Ok(v)) => {
                    block.stats.insert(stat.to_string(), v);
                }
                Some(Err(())) => {
                    return Err(line_ctx.err(
                        ErrorKind::WrongType,
                        Some(&format!("{header}.{col}")),
                        format!("expected a number, found \"{}\"", cell.trim()),
                    ));
                }
            }
        }
        blocks.push(block);
    }
    if !blocks.is_empty() && !scalar_section {
        return Err(ctx.err(
            ErrorKind::Syntax,
            None,
            format!(
                "{MID_RECORD}the `Metric,Value` section (request count, throughput, duration) is \
                 missing; both tools always write it"
            ),
        ));
    }
    Ok(blocks)
}

/// How every message about a cut-off summary CSV begins.
const MID_RECORD: &str = "the file ends mid-record (cut off?): ";

/// An AIPerf or GenAI-Perf summary CSV (the caller decided which by its header order).
pub(crate) fn import_summary_csv(bytes: &[u8], format: Format, ctx: &Ctx) -> Result<Import> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ctx.err(
            ErrorKind::Read,
            None,
            format!("the file is not UTF-8 text: {e}"),
        )
    })?;
    let tool = if format == Format::GenaiPerfCsv {
        Tool::GenaiPerf
    } else {
        Tool::Aiperf
    };
    let mut import = Import::new(format, super::words::SUMMARY_CSV);
    let blocks = read_blocks(text, ctx, &mut import.warnings)?;
    if blocks.is_empty() {
        return Err(ctx.err(ErrorKind::MissingField, None, "the CSV has no metric rows"));
    }
    let mut point = OperatingPoint::new(ctx.file.clone());
    let fields = apply_blocks(&blocks, tool, &mut point, ctx, &mut import.warnings)?;
    let rules = PointRules {
        total: None,
        rates_are_count_over_duration: true,
    };
    check_point(&point, &fields, rules, ctx)?;
    finish_point(&mut point);
    import.warnings.push(super::words::csv_no_config(&ctx.file));
    import.points.push(point);
    Ok(import)
}

/// Which tool wrote a summary CSV, from its first header row: AIPerf lists percentiles
/// ascending from p1 (and adds std), GenAI-Perf descending from p99. `None` when the text is not
/// such a CSV.
pub(crate) fn classify_header(first_line: &str) -> Option<Format> {
    let cells = split_cells(
        first_line
            .trim_end_matches('\r')
            .trim_start_matches('\u{feff}'),
    )
    .ok()?;
    if cells.first().map(|c| c.trim()) != Some("Metric") || cells.len() < 2 {
        return None;
    }
    let cols: Vec<String> = cells
        .iter()
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let pos = |name: &str| cols.iter().position(|c| c == name);
    match (pos("p99"), pos("p50"), pos("p1")) {
        (Some(p99), Some(p50), _) if p99 < p50 => Some(Format::GenaiPerfCsv),
        (_, _, Some(_)) => Some(Format::AiperfCsv),
        _ if cols.contains(&"std".to_string()) => Some(Format::AiperfCsv),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_handle_quotes_and_separators() {
        assert_eq!(
            split_cells("Request Latency (ms),\"1,234.56\",\"a \"\"b\"\"\",").unwrap(),
            vec!["Request Latency (ms)", "1,234.56", "a \"b\"", ""]
        );
        assert!(split_cells("\"open").is_err());
    }

    #[test]
    fn headers_become_tags_and_units() {
        assert_eq!(
            tag_from_header("Time to First Token (ms)"),
            ("time_to_first_token".to_string(), Some("ms".to_string()))
        );
        assert_eq!(
            tag_from_header("Output Token Throughput Per User (tokens/sec/user)"),
            (
                "output_token_throughput_per_user".to_string(),
                Some("tokens/sec/user".to_string())
            )
        );
        assert_eq!(
            tag_from_header("Output Sequence Length"),
            ("output_sequence_length".to_string(), None)
        );
        assert_eq!(
            tag_from_header("Total Output Sequence Length (tokens)").0,
            "total_osl".to_string()
        );
    }

    #[test]
    fn header_order_tells_the_tool() {
        assert_eq!(
            classify_header("Metric,avg,min,max,p1,p5,p25,p50,p75,p90,p95,p99,std\r"),
            Some(Format::AiperfCsv)
        );
        assert_eq!(
            classify_header("Metric,avg,min,max,p99,p95,p90,p75,p50,p25"),
            Some(Format::GenaiPerfCsv)
        );
        assert_eq!(classify_header("a,b,c"), None);
    }
}
