//! The snapshot's words: names in double quotes with `"` and `\` escaped,
//! everything else split at whitespace.

/// A name in double quotes, `"` and `\\` escaped: how the snapshot writes
/// attribute names, templates and stored values.
///
/// ```
/// assert_eq!(dynakey_core::snapshot::quote(r#"a"b\c"#), r#""a\"b\\c""#);
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Splits a line into words; `"…"` is one word, with `\"` and `\\`
/// (what [`quote`] writes).
///
/// ```
/// use dynakey_core::snapshot::words;
/// assert_eq!(words(r##"key pk "A B\"#<x>""##).unwrap(), ["key", "pk", "A B\"#<x>"]);
/// assert!(words(r#"key pk "open"#).is_err());
/// ```
pub fn words(line: &str) -> Result<Vec<String>, String> {
    Ok(tokens(line)?.into_iter().map(|t| t.text).collect())
}

/// A word of a line, and whether it was quoted: a line whose lists of
/// names end at a keyword (a vector index's) tells a name from a keyword
/// by its quotes.
pub(super) struct Token {
    pub(super) text: String,
    pub(super) quoted: bool,
}

/// The words of a line, each with whether it was quoted (see [`words`]).
pub(super) fn tokens(line: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut w = String::new();
        let quoted = c == '"';
        if quoted {
            chars.next();
            loop {
                match chars.next() {
                    Some('\\') => w.push(chars.next().ok_or("a `\\` ends the line")?),
                    Some('"') => break,
                    Some(c) => w.push(c),
                    None => return Err("an unclosed `\"`".into()),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
        }
        out.push(Token { text: w, quoted });
    }
    Ok(out)
}
