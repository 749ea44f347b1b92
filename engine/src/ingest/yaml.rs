//! A YAML reader for the reports load-test tools write with PyYAML (guidellm's
//! `benchmarks.yaml`), producing the same [`serde_json::Value`] the JSON report parses to, so
//! one importer reads both.
//!
//! Supported: block maps and lists (also lists at their key's indentation, as PyYAML writes
//! them, and `- key: value` items), plain scalars folded over several lines, single- and
//! double-quoted scalars (escapes, folding, `\` line continuations), block scalars (`|`, `>`
//! with chomping and indentation indicators), flow collections (`{}`, `[1, 2]`, `{a: 1}`),
//! `---` / `...` markers and `#` comments. Plain scalars resolve as PyYAML does: `null`/`~`/empty
//! → null, `true`/`false` (and YAML 1.1's `yes`/`no`/`on`/`off`) → booleans, integers and floats
//! → numbers (parsed to the nearest f64, like the JSON reader), `.inf`/`.nan` → null (read as
//! missing, as the JSON reader reads Python's `NaN`); quoted scalars always stay text.
//!
//! Refused with the line named: anchors and aliases, tags, several documents, tabs in the
//! indentation, and nesting deeper than [`MAX_DEPTH`].

use serde_json::{Map, Number, Value};

/// The deepest nesting of maps and lists read (the reader recurses once per level).
pub(crate) const MAX_DEPTH: usize = 64;

/// A parse failure: 1-based line and message.
#[derive(Debug, PartialEq)]
pub(crate) struct YamlError {
    pub line: u64,
    pub message: String,
}

type Res<T> = Result<T, YamlError>;

fn fail<T>(line: usize, message: impl Into<String>) -> Res<T> {
    Err(YamlError {
        line: line as u64,
        message: message.into(),
    })
}

#[derive(Clone, Copy)]
struct Line<'a> {
    number: usize,
    indent: usize,
    /// The line without its indentation (and without trailing whitespace).
    text: &'a str,
}

impl Line<'_> {
    /// Blank or a whole-line comment: no structure.
    fn is_blank(&self) -> bool {
        self.text.is_empty() || self.text.starts_with('#')
    }
}

/// True when `text` looks like a YAML document start: `---` on the first line, or a first
/// content line that is a `key:` of a block map. Used only to decide whether to try YAML.
pub(crate) fn looks_like_yaml(text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim_end)
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    match first {
        Some(l) if l == "---" || l.starts_with("--- ") || l.starts_with("%YAML") => true,
        Some(l) => {
            !l.starts_with(' ')
                && split_key(l).is_some_and(|(k, _)| {
                    let k = k.trim();
                    !k.is_empty() && !k.contains(',') && !k.starts_with('{')
                })
        }
        None => false,
    }
}

/// Parses one YAML document into a JSON value.
pub(crate) fn parse(text: &str) -> Res<Value> {
    let mut lines: Vec<Line> = Vec::new();
    let mut started = false;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let raw = raw.trim_end();
        let raw = if i == 0 {
            raw.strip_prefix('\u{feff}').unwrap_or(raw)
        } else {
            raw
        };
        let trimmed = raw.trim_start_matches(' ');
        if trimmed.starts_with('\t') {
            return fail(number, "YAML indentation must use spaces, not tabs");
        }
        let indent = raw.len() - trimmed.len();
        if indent == 0 {
            if trimmed.starts_with('%') {
                continue; // %YAML / %TAG directives
            }
            if trimmed == "---" || trimmed.starts_with("--- ") {
                if started || lines.iter().any(|l| !l.is_blank()) {
                    return fail(
                        number,
                        "several YAML documents in one file are not supported",
                    );
                }
                started = true;
                let rest = trimmed[3..].trim_start();
                if !rest.is_empty() {
                    lines.push(Line {
                        number,
                        indent: 4,
                        text: rest,
                    });
                }
                continue;
            }
            if trimmed == "..." {
                break;
            }
        }
        lines.push(Line {
            number,
            indent,
            text: trimmed,
        });
    }
    let mut p = Parser { lines, pos: 0 };
    p.skip_blank();
    if p.pos >= p.lines.len() {
        return Ok(Value::Null);
    }
    let indent = p.lines[p.pos].indent;
    let value = p.block(indent, 0)?;
    p.skip_blank();
    if let Some(line) = p.lines.get(p.pos) {
        return fail(
            line.number,
            format!("unexpected indentation (`{}`)", line.text),
        );
    }
    Ok(value)
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

impl<'a> Parser<'a> {
    fn skip_blank(&mut self) {
        while self.pos < self.lines.len() && self.lines[self.pos].is_blank() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<Line<'a>> {
        self.skip_blank();
        self.lines.get(self.pos).copied()
    }

    fn block(&mut self, indent: usize, depth: usize) -> Res<Value> {
        let Some(line) = self.peek() else {
            return Ok(Value::Null);
        };
        if depth >= MAX_DEPTH {
            return fail(
                line.number,
                format!("nested more than {MAX_DEPTH} levels deep"),
            );
        }
        if is_item(line.text) {
            self.list(indent, depth)
        } else if split_key(line.text).is_some() {
            self.map(indent, depth)
        } else {
            // A lone scalar (document or list item body).
            self.pos += 1;
            self.inline(line.text, line.number, indent.saturating_sub(1), depth)
        }
    }

    fn list(&mut self, indent: usize, depth: usize) -> Res<Value> {
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_item(line.text) {
                break;
            }
            let rest = line.text[1..].trim_start_matches(' ');
            if rest.is_empty() || rest.starts_with('#') {
                self.pos += 1;
                match self.peek() {
                    Some(next) if next.indent > indent => {
                        items.push(self.block(next.indent, depth + 1)?);
                    }
                    _ => items.push(Value::Null),
                }
                continue;
            }
            let column = indent + (line.text.len() - rest.len());
            if is_item(rest) || opens_map(rest) {
                // `- key: value` / `- - x`: the item's body starts at the text's column.
                self.lines[self.pos] = Line {
                    number: line.number,
                    indent: column,
                    text: rest,
                };
                items.push(self.block(column, depth + 1)?);
            } else {
                self.pos += 1;
                items.push(self.inline(rest, line.number, indent, depth + 1)?);
            }
        }
        Ok(Value::Array(items))
    }

    fn map(&mut self, indent: usize, depth: usize) -> Res<Value> {
        let mut entries = Map::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || is_item(line.text) {
                break;
            }
            let Some((raw_key, rest)) = split_key(line.text) else {
                return fail(
                    line.number,
                    format!("expected `key: value`, found `{}`", line.text),
                );
            };
            let key = key_text(raw_key.trim(), line.number)?;
            self.pos += 1;
            let rest = rest.trim_start_matches(' ');
            let value = if rest.is_empty() || rest.starts_with('#') {
                match self.peek() {
                    Some(next)
                        if next.indent > indent
                            || (next.indent == indent && is_item(next.text)) =>
                    {
                        self.block(next.indent, depth + 1)?
                    }
                    _ => Value::Null,
                }
            } else {
                self.inline(rest, line.number, indent, depth + 1)?
            };
            entries.insert(key, value);
        }
        Ok(Value::Object(entries))
    }

    /// The lines after the current one that continue a scalar started at a line of `indent`
    /// (more indented, or blank), as (number, text with its indentation removed).
    fn continuation(&mut self, indent: usize) -> Vec<(usize, &'a str)> {
        let mut out = Vec::new();
        let mut end = self.pos;
        let mut scan = self.pos;
        while let Some(line) = self.lines.get(scan) {
            if line.text.is_empty() {
                scan += 1;
                continue;
            }
            if line.indent <= indent {
                break;
            }
            end = scan + 1;
            scan += 1;
        }
        for line in &self.lines[self.pos..end] {
            out.push((line.number, line.text));
        }
        self.pos = end;
        out
    }

    /// A value that starts on a line after `key:` or `- `; the line's own indentation is
    /// `indent`, so continuation lines are those indented further.
    fn inline(&mut self, text: &'a str, number: usize, indent: usize, depth: usize) -> Res<Value> {
        if depth >= MAX_DEPTH {
            return fail(number, format!("nested more than {MAX_DEPTH} levels deep"));
        }
        let first = text.chars().next().unwrap_or(' ');
        match first {
            '&' | '*' => fail(number, "YAML anchors and aliases are not supported"),
            '!' => fail(number, "YAML tags are not supported"),
            '"' | '\'' => {
                let more = self.continuation(indent);
                let mut parts = vec![(number, text)];
                parts.extend(more);
                let (s, used) = quoted(&parts, first)?;
                if used < parts.len() {
                    // A multi-line quoted scalar ends where its closing quote is.
                    let (n, t) = parts[used];
                    return fail(n, format!("unexpected text after a quoted scalar: `{t}`"));
                }
                Ok(Value::String(s))
            }
            '|' | '>' => {
                let header = strip_comment(text).trim_end();
                let block = self.block_scalar_lines(indent);
                block_scalar(header, &block, number).map(Value::String)
            }
            '[' | '{' => {
                let more = self.continuation(indent);
                let mut joined = text.to_string();
                for (_, t) in more {
                    joined.push(' ');
                    joined.push_str(t);
                }
                let mut flow = Flow {
                    chars: joined.chars().collect(),
                    i: 0,
                    number,
                };
                let v = flow.value(depth)?;
                flow.space();
                if flow.i < flow.chars.len() && flow.chars[flow.i] != '#' {
                    return fail(number, "unexpected text after a flow collection");
                }
                Ok(v)
            }
            _ => {
                let more = self.continuation(indent);
                let mut parts = vec![strip_comment(text).trim_end()];
                parts.extend(more.iter().map(|(_, t)| strip_comment(t).trim_end()));
                Ok(resolve_plain(&fold_lines(&parts)))
            }
        }
    }

    /// The raw lines of a block scalar (keeping indentation), after the current line.
    fn block_scalar_lines(&mut self, indent: usize) -> Vec<(usize, usize, &'a str)> {
        let mut out = Vec::new();
        let mut end = self.pos;
        let mut scan = self.pos;
        while let Some(line) = self.lines.get(scan) {
            if line.text.is_empty() {
                scan += 1;
                continue;
            }
            if line.indent <= indent {
                break;
            }
            end = scan + 1;
            scan += 1;
        }
        for line in &self.lines[self.pos..end] {
            out.push((line.number, line.indent, line.text));
        }
        self.pos = end;
        out
    }
}

/// True when the text of a list item opens a map (`key: value` or `key:`), not a scalar.
fn opens_map(text: &str) -> bool {
    !text.starts_with('[') && !text.starts_with('{') && split_key(text).is_some()
}

/// Removes a ` #` comment from a plain scalar or header (outside quotes).
fn strip_comment(text: &str) -> &str {
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        if c == '#' && previous == ' ' && i > 0 {
            return &text[..i];
        }
        previous = c;
    }
    if text.starts_with('#') { "" } else { text }
}

/// Splits `key: value` at the first `: ` (or a final `:`) outside quotes and flow brackets.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    if let Some(&q) = bytes.first().filter(|b| **b == b'"' || **b == b'\'') {
        // A quoted key: skip to its closing quote.
        i = 1;
        while i < bytes.len() {
            if bytes[i] == b'\\' && q == b'"' {
                i += 2;
                continue;
            }
            if bytes[i] == q {
                if q == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                    i += 2;
                    continue;
                }
                break;
            }
            i += 1;
        }
        i += 1;
    } else if matches!(
        bytes.first(),
        Some(b'[' | b'{' | b'&' | b'*' | b'!' | b'|' | b'>')
    ) {
        return None;
    }
    while i < bytes.len() {
        if bytes[i] == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ') {
            return Some((&text[..i], &text[i + 1..]));
        }
        if bytes[i] == b'#' && i > 0 && bytes[i - 1] == b' ' {
            return None;
        }
        i += 1;
    }
    None
}

fn key_text(key: &str, number: usize) -> Res<String> {
    match key.chars().next() {
        Some(q @ ('"' | '\'')) => {
            let (s, used) = quoted(&[(number, key)], q)?;
            debug_assert_eq!(used, 1);
            Ok(s)
        }
        Some('?') => fail(number, "complex YAML keys (`? key`) are not supported"),
        _ => Ok(key.to_string()),
    }
}

/// Folds the lines of a multi-line plain or quoted scalar: a single line break becomes a space,
/// each empty line a newline.
fn fold_lines(parts: &[&str]) -> String {
    let mut out = String::new();
    let mut pending_newlines = 0usize;
    let mut first = true;
    for part in parts {
        let t = part.trim();
        if t.is_empty() {
            pending_newlines += 1;
            continue;
        }
        if !first {
            if pending_newlines > 0 {
                out.extend(std::iter::repeat_n('\n', pending_newlines));
            } else {
                out.push(' ');
            }
        }
        pending_newlines = 0;
        out.push_str(t);
        first = false;
    }
    out
}

/// Reads a quoted scalar starting at `parts[0]` (which begins with `quote`), possibly running
/// over the following parts. Returns the text and how many parts it used.
fn quoted(parts: &[(usize, &str)], quote: char) -> Res<(String, usize)> {
    let mut out = String::new();
    // Whitespace at the end of a line is dropped when the line is folded, so it is held back.
    let mut held = String::new();
    let mut blank_lines = 0usize;
    // A `\` at the end of a line joins the next one without a folding space.
    let mut continued = false;
    for (k, (number, text)) in parts.iter().enumerate() {
        let chars: Vec<char> = if k == 0 {
            text.chars().skip(1).collect()
        } else {
            text.trim_start().chars().collect()
        };
        if k > 0 {
            if chars.is_empty() {
                blank_lines += 1;
                continue;
            }
            if continued {
                continued = false;
            } else if blank_lines > 0 {
                out.extend(std::iter::repeat_n('\n', blank_lines));
            } else {
                out.push(' ');
            }
            blank_lines = 0;
            held.clear();
        }
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == quote {
                if quote == '\'' && chars.get(i + 1) == Some(&'\'') {
                    out.push_str(&held);
                    held.clear();
                    out.push('\'');
                    i += 2;
                    continue;
                }
                out.push_str(&held);
                let rest: String = chars[i + 1..].iter().collect();
                let rest = rest.trim();
                if !rest.is_empty() && !rest.starts_with('#') {
                    return fail(
                        *number,
                        format!("unexpected text after a quoted scalar: `{rest}`"),
                    );
                }
                return Ok((out, k + 1));
            }
            if c == ' ' {
                held.push(c);
                i += 1;
                continue;
            }
            out.push_str(&held);
            held.clear();
            if c == '\\' && quote == '"' {
                i += 1;
                let Some(&e) = chars.get(i) else {
                    continued = true;
                    break;
                };
                let mut hex = |n: usize| -> Res<char> {
                    let digits: String =
                        chars.get(i + 1..i + 1 + n).unwrap_or(&[]).iter().collect();
                    let code = u32::from_str_radix(&digits, 16)
                        .ok()
                        .filter(|_| digits.len() == n)
                        .and_then(char::from_u32);
                    i += n;
                    code.ok_or_else(|| YamlError {
                        line: *number as u64,
                        message: format!("invalid escape \\{e}{digits}"),
                    })
                };
                let decoded = match e {
                    '0' => '\u{0}',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    't' | '\t' => '\t',
                    'n' => '\n',
                    'v' => '\u{b}',
                    'f' => '\u{c}',
                    'r' => '\r',
                    'e' => '\u{1b}',
                    ' ' => ' ',
                    '"' => '"',
                    '/' => '/',
                    '\\' => '\\',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    'x' => hex(2)?,
                    'u' => hex(4)?,
                    'U' => hex(8)?,
                    other => return fail(*number, format!("invalid escape \\{other}")),
                };
                out.push(decoded);
                i += 1;
                continue;
            }
            out.push(c);
            i += 1;
        }
        held.clear();
    }
    let number = parts.last().map(|p| p.0).unwrap_or(0);
    fail(number, "unterminated quoted scalar")
}

/// A `|` / `>` block scalar with its header (`|-`, `>+`, `|2`).
fn block_scalar(header: &str, lines: &[(usize, usize, &str)], number: usize) -> Res<String> {
    let literal = header.starts_with('|');
    let mut chomp = 'c';
    let mut explicit: Option<usize> = None;
    for c in header[1..].chars() {
        match c {
            '-' | '+' => chomp = c,
            d if d.is_ascii_digit() && d != '0' => explicit = d.to_digit(10).map(|d| d as usize),
            _ => return fail(number, format!("invalid block scalar header `{header}`")),
        }
    }
    let content_indent = match explicit {
        Some(n) => lines.first().map(|l| l.1.min(n)).unwrap_or(n),
        None => lines
            .iter()
            .find(|l| !l.2.is_empty())
            .map(|l| l.1)
            .unwrap_or(0),
    };
    let texts: Vec<String> = lines
        .iter()
        .map(|(_, indent, text)| {
            if text.is_empty() {
                String::new()
            } else {
                format!(
                    "{}{}",
                    " ".repeat(indent.saturating_sub(content_indent)),
                    text
                )
            }
        })
        .collect();
    let mut out = String::new();
    if literal {
        for t in &texts {
            out.push_str(t);
            out.push('\n');
        }
    } else {
        let mut previous_more_indented = false;
        let mut at_start = true;
        let mut newlines = 0usize;
        for t in &texts {
            if t.is_empty() {
                newlines += 1;
                continue;
            }
            let more_indented = t.starts_with(' ');
            if !at_start {
                if newlines == 0 && !more_indented && !previous_more_indented {
                    out.push(' ');
                } else {
                    let extra = usize::from(more_indented || previous_more_indented);
                    out.extend(std::iter::repeat_n('\n', newlines + extra));
                }
            } else {
                out.extend(std::iter::repeat_n('\n', newlines));
            }
            out.push_str(t);
            newlines = 0;
            at_start = false;
            previous_more_indented = more_indented;
        }
        if !at_start {
            out.push('\n');
        }
        out.extend(std::iter::repeat_n('\n', newlines));
    }
    match chomp {
        '-' => Ok(out.trim_end_matches('\n').to_string()),
        '+' => Ok(out),
        _ => {
            let trimmed = out.trim_end_matches('\n');
            if trimmed.is_empty() {
                Ok(String::new())
            } else {
                Ok(format!("{trimmed}\n"))
            }
        }
    }
}

/// A plain scalar as PyYAML resolves it (YAML 1.1 core types).
fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
            return Value::Bool(true);
        }
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            return Value::Bool(false);
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return Value::Null,
        _ => {}
    }
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i64>() {
            return Value::Number(i.into());
        }
        if let Ok(u) = text.parse::<u64>() {
            return Value::Number(u.into());
        }
    }
    if is_float(body)
        && let Ok(f) = text.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(text.to_string())
}

/// `1.5`, `.5`, `1.`, `1e-06`, `3.7e-06`: digits with a point and/or an exponent.
fn is_float(body: &str) -> bool {
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let mut parts = mantissa.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let fraction = parts.next();
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = digits(whole)
        && fraction.is_none_or(digits)
        && (!whole.is_empty() || fraction.is_some_and(|f| !f.is_empty()));
    let exponent_ok = match exponent {
        None => fraction.is_some(),
        Some(e) => {
            let e = e.strip_prefix(['-', '+']).unwrap_or(e);
            !e.is_empty() && digits(e)
        }
    };
    mantissa_ok && exponent_ok
}

/// A flow collection (`[…]`, `{…}`) or scalar inside one.
struct Flow {
    chars: Vec<char>,
    i: usize,
    number: usize,
}

impl Flow {
    fn space(&mut self) {
        while self.chars.get(self.i).is_some_and(|c| c.is_whitespace()) {
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Res<Value> {
        if depth >= MAX_DEPTH {
            return fail(
                self.number,
                format!("nested more than {MAX_DEPTH} levels deep"),
            );
        }
        self.space();
        match self.chars.get(self.i) {
            Some('[') => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.space();
                    match self.chars.get(self.i) {
                        Some(']') => {
                            self.i += 1;
                            return Ok(Value::Array(items));
                        }
                        None => return fail(self.number, "unterminated flow list"),
                        _ => {}
                    }
                    items.push(self.value(depth + 1)?);
                    self.space();
                    match self.chars.get(self.i) {
                        Some(',') => self.i += 1,
                        Some(']') => {}
                        _ => return fail(self.number, "expected `,` or `]` in a flow list"),
                    }
                }
            }
            Some('{') => {
                self.i += 1;
                let mut map = Map::new();
                loop {
                    self.space();
                    match self.chars.get(self.i) {
                        Some('}') => {
                            self.i += 1;
                            return Ok(Value::Object(map));
                        }
                        None => return fail(self.number, "unterminated flow map"),
                        _ => {}
                    }
                    let key = match self.scalar(true)? {
                        Value::String(s) => s,
                        Value::Null => String::new(),
                        other => other.to_string(),
                    };
                    self.space();
                    let value = if self.chars.get(self.i) == Some(&':') {
                        self.i += 1;
                        self.value(depth + 1)?
                    } else {
                        Value::Null
                    };
                    map.insert(key, value);
                    self.space();
                    match self.chars.get(self.i) {
                        Some(',') => self.i += 1,
                        Some('}') => {}
                        _ => return fail(self.number, "expected `,` or `}` in a flow map"),
                    }
                }
            }
            _ => self.scalar(false),
        }
    }

    fn scalar(&mut self, is_key: bool) -> Res<Value> {
        self.space();
        match self.chars.get(self.i).copied() {
            Some(q @ ('"' | '\'')) => {
                let start = self.i;
                self.i += 1;
                while let Some(&c) = self.chars.get(self.i) {
                    if c == '\\' && q == '"' {
                        self.i += 2;
                        continue;
                    }
                    if c == q {
                        if q == '\'' && self.chars.get(self.i + 1) == Some(&'\'') {
                            self.i += 2;
                            continue;
                        }
                        break;
                    }
                    self.i += 1;
                }
                if self.i >= self.chars.len() {
                    return fail(self.number, "unterminated quoted scalar");
                }
                self.i += 1;
                let text: String = self.chars[start..self.i].iter().collect();
                let (s, _) = quoted(&[(self.number, &text)], q)?;
                Ok(Value::String(s))
            }
            Some('&' | '*') => fail(self.number, "YAML anchors and aliases are not supported"),
            Some('!') => fail(self.number, "YAML tags are not supported"),
            _ => {
                let start = self.i;
                while let Some(&c) = self.chars.get(self.i) {
                    let ends = matches!(c, ',' | ']' | '}')
                        || (c == ':'
                            && (is_key
                                || self
                                    .chars
                                    .get(self.i + 1)
                                    .is_none_or(|n| n.is_whitespace() || ",]}".contains(*n))));
                    if ends {
                        break;
                    }
                    self.i += 1;
                }
                let text: String = self.chars[start..self.i].iter().collect();
                Ok(resolve_plain(text.trim()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pyyaml_report_shapes() {
        let doc = "---\nbenchmarks:\n- type_: generative_benchmark\n  args:\n    rates:\n    - 1.5\n    - -2\n    max: \n    strategy:\n      type_: synchronous\n  extras: {}\n  list: []\n  flow: [1, 'a', {b: 2}]\n  path: \"/v1/completions\"\n  small: 3.784260851271609e-06\n  big: 1749157168.054225\n  flag: true\n  text: such a sacrifice to her\n    advantage as years\n\n    of gratitude\n  quoted: \", said Jane. The\n    letter was read,\"\n  escaped: \"a\\tb\\\n    \\ c\\u00e9\"\n  single: 'it''s\n    here'\n  lit: |-\n    line one\n      indented\n    line three\n  folded: >\n    a\n    b\n\n    c\n  inf: .inf\n  num_text: '42'\n";
        let v = parse(doc).unwrap();
        let b = &v["benchmarks"][0];
        assert_eq!(b["type_"], "generative_benchmark");
        assert_eq!(b["args"]["rates"], json!([1.5, -2]));
        assert_eq!(b["args"]["max"], Value::Null);
        assert_eq!(b["args"]["strategy"]["type_"], "synchronous");
        assert_eq!(b["extras"], json!({}));
        assert_eq!(b["list"], json!([]));
        assert_eq!(b["flow"], json!([1, "a", {"b": 2}]));
        assert_eq!(b["path"], "/v1/completions");
        assert_eq!(b["small"], json!(3.784260851271609e-06));
        assert_eq!(b["big"], json!(1749157168.054225));
        assert_eq!(b["flag"], true);
        assert_eq!(
            b["text"],
            "such a sacrifice to her advantage as years\nof gratitude"
        );
        assert_eq!(b["quoted"], ", said Jane. The letter was read,");
        assert_eq!(b["escaped"], "a\tb cé");
        assert_eq!(b["single"], "it's here");
        assert_eq!(b["lit"], "line one\n  indented\nline three");
        assert_eq!(b["folded"], "a b\nc\n");
        assert_eq!(b["inf"], Value::Null);
        assert_eq!(b["num_text"], "42", "quoted scalars stay text");
    }

    #[test]
    fn refusals_name_the_line() {
        let e = parse("a: 1\nb: &x 2\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("anchors"), "{}", e.message);
        let e = parse("---\na: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("a:\n\t- 1\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("a: \"open\n").unwrap_err();
        assert!(e.message.contains("unterminated"), "{}", e.message);
        let deep: String = (0..100).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        assert!(parse(&deep).unwrap_err().message.contains("levels deep"));
    }

    #[test]
    fn yaml_is_told_from_other_text() {
        assert!(looks_like_yaml("---\nbenchmarks:\n"));
        assert!(looks_like_yaml("# c\nbenchmarks:\n- a: 1\n"));
        assert!(!looks_like_yaml("Metric,avg,min\n"));
        assert!(!looks_like_yaml(
            "# HELP vllm:x y\n# TYPE vllm:x gauge\nvllm:x 1\n"
        ));
    }
}
