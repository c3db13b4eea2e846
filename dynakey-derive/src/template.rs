//! A pure scanner for key templates such as `SITE#<country>#<city>#EMP#<number:d6>`.
//! It keeps byte ranges so diagnostics can redraw the template with a caret
//! under the culprit (a span cannot point inside a string literal on stable).

use std::ops::Range;

/// How a placeholder's value becomes text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// No format: the type's text form.
    Text,
    /// `d<w>`: zero-padded unsigned integer.
    Padded(u32),
    /// `n<w>`: signed integer.
    Signed(u32),
    /// `n<w>.<p>`: signed decimal.
    Decimal(u32, u32),
    /// `rev`: reverse timestamp.
    Reverse,
    /// `path`: a last field stored as it is, delimiters included.
    Path,
}

impl Format {
    /// Whether the format fixes the width of the text (so any delimiter can
    /// follow it).
    pub fn fixed_width(self) -> bool {
        matches!(
            self,
            Format::Padded(_) | Format::Signed(_) | Format::Decimal(..) | Format::Reverse
        )
    }
}

#[derive(Debug, Clone)]
pub struct Placeholder {
    pub name: String,
    pub format: Format,
    /// The whole `<...>`.
    pub range: Range<usize>,
    /// The format after `:`, if any.
    pub format_range: Option<Range<usize>>,
    /// False when the placeholder has a syntax error: later checks skip it,
    /// so one mistake gives one error.
    pub valid: bool,
}

#[derive(Debug, Clone)]
pub enum Segment {
    Lit(String),
    Field(Placeholder),
}

#[derive(Debug)]
pub struct SyntaxError {
    pub range: Range<usize>,
    pub message: String,
    pub help: Option<String>,
}

/// The formats a user can write, for "did you mean".
pub const KNOWN_FORMATS: &[&str] = &["d6", "n4", "n8.2", "rev", "path"];

/// Splits a template into literals and placeholders; reports every syntax
/// error rather than the first.
pub fn scan(text: &str) -> (Vec<Segment>, Vec<SyntaxError>) {
    let mut segments = Vec::new();
    let mut errors = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        if bytes[i] != b'<' {
            let ch = text[i..].chars().next().unwrap_or('\0');
            lit.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let Some(close) = text[i + 1..].find(['>', '<']).map(|j| i + 1 + j) else {
            errors.push(SyntaxError {
                range: i..text.len(),
                message: "unclosed `<`".into(),
                help: Some("close the placeholder with `>`".into()),
            });
            break;
        };
        if bytes[close] == b'<' {
            errors.push(SyntaxError {
                range: i..close,
                message: "unclosed `<`".into(),
                help: Some("close the placeholder with `>` before the next `<`".into()),
            });
            i = close;
            continue;
        }
        if !lit.is_empty() {
            segments.push(Segment::Lit(std::mem::take(&mut lit)));
        }
        let inner = &text[i + 1..close];
        let range = i..close + 1;
        let errors_before = errors.len();
        let (name, fmt) = match inner.split_once(':') {
            Some((n, f)) => (n, Some((f, i + 1 + n.len() + 1))),
            None => (inner, None),
        };
        if name.is_empty() {
            errors.push(SyntaxError {
                range: range.clone(),
                message: "empty placeholder".into(),
                help: Some("name a field, as in `<user_id>`".into()),
            });
        } else if !is_ident(name) {
            errors.push(SyntaxError {
                range: i + 1..i + 1 + name.len(),
                message: format!("`{name}` is not a field name"),
                help: Some(match name.strip_prefix("r#") {
                    Some(plain) if is_ident(plain) => format!(
                        "write `<{plain}>`: a template names a raw-identifier field without `r#`, as serde names its attribute"
                    ),
                    _ => "a placeholder holds a Rust field name, optionally followed by `:format`"
                        .into(),
                }),
            });
        }
        let mut format = Format::Text;
        let mut format_range = None;
        if let Some((f, start)) = fmt {
            let r = start..start + f.len();
            match parse_format(f) {
                Ok(parsed) => format = parsed,
                Err(why) => errors.push(SyntaxError {
                    range: if f.is_empty() {
                        range.clone()
                    } else {
                        r.clone()
                    },
                    message: format!("unknown format `{f}`{why}"),
                    help: Some(format_help(f)),
                }),
            }
            format_range = Some(r);
        }
        segments.push(Segment::Field(Placeholder {
            name: name.to_owned(),
            format,
            range,
            format_range,
            valid: errors.len() == errors_before,
        }));
        i = close + 1;
    }
    if !lit.is_empty() {
        segments.push(Segment::Lit(lit));
    }
    (segments, errors)
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn width(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_format(f: &str) -> Result<Format, String> {
    if f == "rev" {
        return Ok(Format::Reverse);
    }
    if f == "path" {
        return Ok(Format::Path);
    }
    if let Some(w) = f.strip_prefix('d').and_then(width) {
        return if (1..=38).contains(&w) {
            Ok(Format::Padded(w))
        } else {
            Err(": the width of `d<w>` is 1 to 38".into())
        };
    }
    if let Some(rest) = f.strip_prefix('n') {
        if let Some((w, p)) = rest.split_once('.') {
            if let (Some(w), Some(p)) = (width(w), width(p)) {
                return if w >= 1 && w + p <= 36 {
                    Ok(Format::Decimal(w, p))
                } else {
                    Err(": `n<w>.<p>` takes w >= 1 and w + p <= 36".into())
                };
            }
        } else if let Some(w) = width(rest) {
            return if (1..=37).contains(&w) {
                Ok(Format::Signed(w))
            } else {
                Err(": the width of `n<w>` is 1 to 37".into())
            };
        }
    }
    Err(String::new())
}

fn format_help(f: &str) -> String {
    let lower = f.to_ascii_lowercase();
    if lower != f && parse_format(&lower).is_ok() {
        return format!("did you mean `{lower}`?");
    }
    let best = KNOWN_FORMATS
        .iter()
        .map(|k| (strsim::levenshtein(k, f), *k))
        .min()
        .filter(|(d, _)| *d <= 1);
    let list = "formats are `d<w>` (zero-padded unsigned), `n<w>` (signed), `n<w>.<p>` (signed decimal), `rev` (reverse timestamp) and `path` (a last string field kept as it is)";
    match best {
        Some((_, k)) => format!("did you mean `{k}`? {list}"),
        None => list.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_composite() {
        let (segs, errs) = scan("SITE#<country>#<city>#EMP#<number:d6>");
        assert!(errs.is_empty());
        assert_eq!(segs.len(), 6);
        match &segs[5] {
            Segment::Field(p) => {
                assert_eq!(p.name, "number");
                assert_eq!(p.format, Format::Padded(6));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reports_every_error() {
        let (_, errs) = scan("A#<>#<x:q7>#<y");
        let msgs: Vec<_> = errs.iter().map(|e| e.message.clone()).collect();
        assert_eq!(
            msgs,
            ["empty placeholder", "unknown format `q7`", "unclosed `<`"]
        );
    }

    #[test]
    fn formats() {
        assert_eq!(parse_format("n8.2"), Ok(Format::Decimal(8, 2)));
        assert_eq!(parse_format("n4"), Ok(Format::Signed(4)));
        assert!(parse_format("d0").is_err());
        assert!(format_help("D6").contains("did you mean `d6`"));
    }
}
