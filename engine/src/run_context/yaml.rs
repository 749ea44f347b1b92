//! A small reader for the YAML subset serving manifests use: block maps and lists (also a map
//! starting on a list item's line, `- name: x`), flow lists (`["a", "b"]`), single- and
//! double-quoted and plain scalars, and `#` comments. Everything is read as text; anchors,
//! several documents and block scalars (`|`, `>`) are not supported and read as plain text.
//! Nesting deeper than [`MAX_DEPTH`] levels is refused: manifests nest a dozen levels, and the
//! reader recurses once per level, so a pasted staircase of indents must not exhaust the stack.

/// The deepest nesting of maps and lists read.
pub const MAX_DEPTH: usize = 64;

/// A YAML value: every scalar stays text.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Scalar(String),
    List(Vec<Node>),
    /// Entries in document order.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The entry `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&Vec<Node>> {
        match self {
            Node::List(items) => Some(items),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
struct Line {
    number: usize,
    indent: usize,
    text: String,
}

/// Removes a `#` comment (one preceded by whitespace or at the start, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// Parses the document.
pub fn parse(text: &str) -> Result<Node, String> {
    let mut lines: Vec<Line> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.contains('\t') && raw.trim_start().len() < raw.len() && raw.starts_with('\t') {
            return Err(format!(
                "line {}: YAML indentation must use spaces, not tabs",
                i + 1
            ));
        }
        let content = strip_comment(raw).trim_end();
        let trimmed = content.trim_start();
        if trimmed.is_empty() || trimmed == "---" || trimmed == "..." {
            continue;
        }
        lines.push(Line {
            number: i + 1,
            indent: content.len() - trimmed.len(),
            text: trimmed.to_string(),
        });
    }
    if lines.is_empty() {
        return Ok(Node::Map(Vec::new()));
    }
    let mut pos = 0;
    let indent = lines[0].indent;
    let node = block(&mut lines, &mut pos, indent, 0)?;
    if let Some(line) = lines.get(pos) {
        return Err(format!(
            "line {}: unexpected indentation (`{}`)",
            line.number, line.text
        ));
    }
    Ok(node)
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

fn block(lines: &mut [Line], pos: &mut usize, indent: usize, depth: usize) -> Result<Node, String> {
    if depth >= MAX_DEPTH {
        return Err(format!(
            "line {}: nested more than {MAX_DEPTH} levels deep",
            lines[*pos].number
        ));
    }
    if is_item(&lines[*pos].text) {
        list(lines, pos, indent, depth)
    } else {
        map(lines, pos, indent, depth)
    }
}

fn list(lines: &mut [Line], pos: &mut usize, indent: usize, depth: usize) -> Result<Node, String> {
    let mut items = Vec::new();
    while *pos < lines.len() && lines[*pos].indent == indent && is_item(&lines[*pos].text) {
        let text = lines[*pos].text.clone();
        let rest = text[1..].trim_start();
        if rest.is_empty() {
            *pos += 1;
            match lines.get(*pos) {
                Some(next) if next.indent > indent => {
                    let child = next.indent;
                    items.push(block(lines, pos, child, depth + 1)?);
                }
                _ => items.push(Node::Scalar(String::new())),
            }
        } else if split_key(rest).is_some() && !rest.starts_with('[') && !rest.starts_with('"') {
            // `- key: value` opens a map whose entries sit at the key's column.
            let column = indent + (text.len() - rest.len());
            lines[*pos].indent = column;
            lines[*pos].text = rest.to_string();
            items.push(map(lines, pos, column, depth + 1)?);
        } else {
            let number = lines[*pos].number;
            items.push(value(rest, number)?);
            *pos += 1;
        }
    }
    Ok(Node::List(items))
}

fn map(lines: &mut [Line], pos: &mut usize, indent: usize, depth: usize) -> Result<Node, String> {
    let mut entries = Vec::new();
    while *pos < lines.len() && lines[*pos].indent == indent && !is_item(&lines[*pos].text) {
        let line = lines[*pos].clone();
        let Some((key, rest)) = split_key(&line.text) else {
            return Err(format!(
                "line {}: expected `key: value`, found `{}`",
                line.number, line.text
            ));
        };
        let key = unquote(key.trim(), line.number)?;
        *pos += 1;
        let node = if rest.trim().is_empty() {
            match lines.get(*pos) {
                Some(next)
                    if next.indent > indent || (next.indent == indent && is_item(&next.text)) =>
                {
                    let child = next.indent;
                    block(lines, pos, child, depth + 1)?
                }
                _ => Node::Scalar(String::new()),
            }
        } else {
            value(rest.trim(), line.number)?
        };
        entries.push((key, node));
    }
    Ok(Node::Map(entries))
}

/// Splits `key: value` at the first `:` followed by a space or the end, outside quotes.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let mut quote: Option<char> = None;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (n, &(i, c)) in bytes.iter().enumerate() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == '"' || c == '\'') && n == 0 => quote = Some(c),
            None if c == '[' || c == '{' => return None,
            None if c == ':' => {
                let next = bytes.get(n + 1).map(|&(_, ch)| ch);
                if next.is_none() || next.is_some_and(char::is_whitespace) {
                    return Some((&text[..i], &text[i + 1..]));
                }
            }
            None => {}
        }
    }
    None
}

fn value(text: &str, number: usize) -> Result<Node, String> {
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or_else(|| {
            format!("line {number}: a flow list `[…]` must close on the same line")
        })?;
        let mut items = Vec::new();
        let mut current = String::new();
        let mut quote: Option<char> = None;
        for c in inner.chars() {
            match quote {
                Some(q) if c == q => {
                    quote = None;
                    current.push(c);
                }
                Some(_) => current.push(c),
                None if c == '"' || c == '\'' => {
                    quote = Some(c);
                    current.push(c);
                }
                None if c == ',' => {
                    items.push(Node::Scalar(unquote(current.trim(), number)?));
                    current.clear();
                }
                None => current.push(c),
            }
        }
        if quote.is_some() {
            return Err(format!("line {number}: unterminated quote"));
        }
        if !current.trim().is_empty() {
            items.push(Node::Scalar(unquote(current.trim(), number)?));
        }
        return Ok(Node::List(items));
    }
    Ok(Node::Scalar(unquote(text, number)?))
}

fn unquote(text: &str, number: usize) -> Result<String, String> {
    if let Some(inner) = text.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .ok_or_else(|| format!("line {number}: unterminated double quote"))?;
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(other) => out.push(other),
                    None => {}
                }
            } else {
                out.push(c);
            }
        }
        Ok(out)
    } else if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner
            .strip_suffix('\'')
            .ok_or_else(|| format!("line {number}: unterminated single quote"))?;
        Ok(inner.replace("''", "'"))
    } else {
        Ok(text.to_string())
    }
}
