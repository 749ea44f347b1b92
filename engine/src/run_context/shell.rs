//! Splitting a command line into words the way a POSIX shell does (no expansion).

/// Splits `text` into words: whitespace separates words; `'…'` keeps everything literally;
/// `"…"` keeps everything but `\"`, `\\`, `\$` and `` \` `` escapes; a backslash outside quotes
/// escapes the next character, and a backslash before a newline joins the lines. Errors name an
/// unterminated quote.
pub fn shell_split(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('\r') if chars.peek() == Some(&'\n') => {
                    chars.next();
                }
                Some(next) => {
                    word.push(next);
                    in_word = true;
                }
                None => {}
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => {
                            return Err("unterminated single quote (') in the command line".into());
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => word.push(ch),
                            Some('\n') => {}
                            Some(ch) => {
                                word.push('\\');
                                word.push(ch);
                            }
                            None => {
                                return Err(
                                    "unterminated double quote (\") in the command line".into()
                                );
                            }
                        },
                        Some(ch) => word.push(ch),
                        None => {
                            return Err("unterminated double quote (\") in the command line".into());
                        }
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' if !in_word => {
                // A comment runs to the end of the line.
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}
