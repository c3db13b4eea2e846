//! Key templates such as `SITE#<country>#<city>#EMP#<number:d6>` as the
//! derive's checks see them: the core's tokens (`dynakey_core::template`,
//! the grammar the runtime splits templates with too) turned into segments
//! and worded syntax errors. It keeps byte ranges so diagnostics can redraw
//! the template with a caret under the culprit (a span cannot point inside
//! a string literal on stable).

use std::ops::Range;

use dynakey_core::template::{is_field_name, parse_format, token, Token};

/// How a placeholder's value becomes text: the core's one definition,
/// under the name the derive's phases use.
pub use dynakey_core::template::PartFormat as Format;

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

/// Splits a template into literals and placeholders through the core's
/// tokenizer (the one the runtime splits it with), and words every syntax
/// error rather than the first.
pub fn scan(text: &str) -> (Vec<Segment>, Vec<SyntaxError>) {
    let mut segments = Vec::new();
    let mut errors = Vec::new();
    let mut lit = String::new();
    let mut at = 0;
    while let Some(t) = token(text, at) {
        at = t.end();
        let (span, name, fmt) = match t {
            Token::Lit(s) => {
                lit.push_str(s.of(text));
                continue;
            }
            Token::Unclosed(s) => {
                let to_end = s.end == text.len();
                errors.push(SyntaxError {
                    range: s.range(),
                    message: "unclosed `<`".into(),
                    help: Some(if to_end {
                        "close the placeholder with `>`".into()
                    } else {
                        "close the placeholder with `>` before the next `<`".into()
                    }),
                });
                continue;
            }
            Token::Field { span, name, format } => (span, name, format),
        };
        if !lit.is_empty() {
            segments.push(Segment::Lit(std::mem::take(&mut lit)));
        }
        let range = span.range();
        let name = name.of(text);
        let errors_before = errors.len();
        if name.is_empty() {
            errors.push(SyntaxError {
                range: range.clone(),
                message: "empty placeholder".into(),
                help: Some("name a field, as in `<user_id>`".into()),
            });
        } else if !is_field_name(name.as_bytes()) {
            errors.push(SyntaxError {
                range: span.start + 1..span.start + 1 + name.len(),
                message: format!("`{name}` is not a field name"),
                help: Some(match name.strip_prefix("r#") {
                    Some(plain) if is_field_name(plain.as_bytes()) => format!(
                        "write `<{plain}>`: a template names a raw-identifier field without `r#`, as serde names its attribute"
                    ),
                    _ => "a placeholder holds a Rust field name, optionally followed by `:format`"
                        .into(),
                }),
            });
        }
        let mut format = Format::Text;
        let mut format_range = None;
        if let Some((f_span, parsed)) = fmt {
            let f = f_span.of(text);
            match parsed {
                Ok(parsed) => format = parsed,
                Err(why) => errors.push(SyntaxError {
                    range: if f.is_empty() {
                        range.clone()
                    } else {
                        f_span.range()
                    },
                    message: format!("unknown format `{f}`{}", why.why()),
                    help: Some(format_help(f)),
                }),
            }
            format_range = Some(f_span.range());
        }
        segments.push(Segment::Field(Placeholder {
            name: name.to_owned(),
            format,
            range,
            format_range,
            valid: errors.len() == errors_before,
        }));
    }
    if !lit.is_empty() {
        segments.push(Segment::Lit(lit));
    }
    (segments, errors)
}

fn format_help(f: &str) -> String {
    let lower = f.to_ascii_lowercase();
    if lower != f && parse_format(lower.as_bytes()).is_ok() {
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
        assert_eq!(parse_format(b"n8.2"), Ok(Format::Decimal(8, 2)));
        assert_eq!(parse_format(b"n4"), Ok(Format::Signed(4)));
        assert!(parse_format(b"d0").is_err());
        assert!(format_help("D6").contains("did you mean `d6`"));
    }
}
