//! The grammar of a key template: literal text and placeholders, `<field>`
//! or `<field:format>`. One `const fn` tokenizer, [`token`], reads it for
//! both sides: the derive turns its tokens into diagnostics with a caret
//! under the culprit (so every token carries byte offsets), and the
//! runtime's [`parts`] into a template's parts at compile time. The
//! formats a placeholder can name after `:` (`d6`, `n4`, `n8.2`, `rev`,
//! `path`), their limits and widths, are part of it.

/// How one placeholder's value becomes text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartFormat {
    /// No format: the type's text form (escaped when its width varies).
    Text,
    /// `d<w>`: a zero-padded unsigned integer of `w` digits.
    Padded(u32),
    /// `n<w>`: a sign character and `w` digits.
    Signed(u32),
    /// `n<w>.<p>`: a sign, `w` digits, `.` and `p` digits.
    Decimal(u32, u32),
    /// `rev`: 13 digits of reversed epoch milliseconds.
    Reverse,
    /// `path`: the last field's text as it is, delimiters included.
    Path,
}

/// The widest `d<w>`: 38 digits, the most a DynamoDB number holds.
pub const MAX_PADDED_WIDTH: u32 = 38;
/// The widest `n<w>`: 37 digits (the stored number keeps one digit for the
/// offset that makes negative values sort first).
pub const MAX_SIGNED_WIDTH: u32 = 37;
/// The most digits of `n<w>.<p>`, `w + p`.
pub const MAX_DECIMAL_DIGITS: u32 = 36;

/// Why a format does not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatError {
    /// Not a format at all.
    Unknown,
    /// `d<w>` with a width outside 1 to [`MAX_PADDED_WIDTH`].
    PaddedWidth,
    /// `n<w>` with a width outside 1 to [`MAX_SIGNED_WIDTH`].
    SignedWidth,
    /// `n<w>.<p>` with `w` = 0 or `w + p` over [`MAX_DECIMAL_DIGITS`].
    DecimalDigits,
}

impl FormatError {
    /// What limit the format breaks, as the end of a sentence (empty for
    /// [`FormatError::Unknown`]).
    ///
    /// ```
    /// use dynakey_core::template::{parse_format, FormatError};
    /// assert_eq!(parse_format(b"d39"), Err(FormatError::PaddedWidth));
    /// assert_eq!(FormatError::PaddedWidth.why(), ": the width of `d<w>` is 1 to 38");
    /// ```
    pub const fn why(self) -> &'static str {
        match self {
            FormatError::Unknown => "",
            FormatError::PaddedWidth => ": the width of `d<w>` is 1 to 38",
            FormatError::SignedWidth => ": the width of `n<w>` is 1 to 37",
            FormatError::DecimalDigits => ": `n<w>.<p>` takes w >= 1 and w + p <= 36",
        }
    }
}

impl PartFormat {
    /// The width of the text when the format fixes it.
    ///
    /// ```
    /// use dynakey_core::template::PartFormat;
    /// assert_eq!(PartFormat::Signed(4).width(), Some(5));
    /// assert_eq!(PartFormat::Decimal(8, 2).width(), Some(12));
    /// assert_eq!(PartFormat::Text.width(), None);
    /// ```
    pub const fn width(self) -> Option<usize> {
        match self {
            PartFormat::Padded(w) => Some(w as usize),
            PartFormat::Signed(w) => Some(w as usize + 1),
            PartFormat::Decimal(w, p) => {
                Some(w as usize + 1 + if p > 0 { p as usize + 1 } else { 0 })
            }
            PartFormat::Reverse => Some(13),
            PartFormat::Text | PartFormat::Path => None,
        }
    }

    /// Whether the format fixes the width of the text, so its width alone
    /// ends the field and any character may follow it.
    pub const fn fixed_width(self) -> bool {
        self.width().is_some()
    }
}

/// The decimal number `s` (ASCII digits only, at least one), if it fits a
/// `u32`.
const fn width(s: &[u8]) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        if !s[i].is_ascii_digit() {
            return None;
        }
        n = match n.checked_mul(10) {
            Some(m) => match m.checked_add((s[i] - b'0') as u32) {
                Some(m) => m,
                None => return None,
            },
            None => return None,
        };
        i += 1;
    }
    Some(n)
}

/// `s` without its first byte when that byte is `b`.
const fn after(s: &[u8], b: u8) -> Option<&[u8]> {
    match s.split_first() {
        Some((first, rest)) if *first == b => Some(rest),
        _ => None,
    }
}

/// Where the first `b` in `s` is.
const fn find(s: &[u8], from: usize, b: u8) -> Option<usize> {
    let mut i = from;
    while i < s.len() {
        if s[i] == b {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The format written after a placeholder's `:`.
///
/// ```
/// use dynakey_core::template::{parse_format, FormatError, PartFormat};
/// assert_eq!(parse_format(b"n8.2"), Ok(PartFormat::Decimal(8, 2)));
/// assert_eq!(parse_format(b"d0"), Err(FormatError::PaddedWidth));
/// assert_eq!(parse_format(b"q7"), Err(FormatError::Unknown));
/// ```
pub const fn parse_format(f: &[u8]) -> Result<PartFormat, FormatError> {
    if f.len() == 3 && f[0] == b'r' && f[1] == b'e' && f[2] == b'v' {
        return Ok(PartFormat::Reverse);
    }
    if f.len() == 4 && f[0] == b'p' && f[1] == b'a' && f[2] == b't' && f[3] == b'h' {
        return Ok(PartFormat::Path);
    }
    if let Some(rest) = after(f, b'd') {
        if let Some(w) = width(rest) {
            return if w >= 1 && w <= MAX_PADDED_WIDTH {
                Ok(PartFormat::Padded(w))
            } else {
                Err(FormatError::PaddedWidth)
            };
        }
    }
    if let Some(rest) = after(f, b'n') {
        match find(rest, 0, b'.') {
            Some(dot) => {
                let (w, p) = rest.split_at(dot);
                if let (Some(w), Some(p)) = (width(w), width(p.split_at(1).1)) {
                    return if w >= 1 && w.saturating_add(p) <= MAX_DECIMAL_DIGITS {
                        Ok(PartFormat::Decimal(w, p))
                    } else {
                        Err(FormatError::DecimalDigits)
                    };
                }
            }
            None => {
                if let Some(w) = width(rest) {
                    return if w >= 1 && w <= MAX_SIGNED_WIDTH {
                        Ok(PartFormat::Signed(w))
                    } else {
                        Err(FormatError::SignedWidth)
                    };
                }
            }
        }
    }
    Err(FormatError::Unknown)
}

/// Byte offsets `start..end` into a template's text (a `Range` that is
/// `Copy`, for `const fn`s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The text at this span of `s`, in a `const` context too.
    ///
    /// # Panics
    ///
    /// When the span is out of `s` or splits a character.
    pub const fn of(self, s: &str) -> &str {
        let (_, rest) = s.as_bytes().split_at(self.start);
        let (mid, _) = rest.split_at(self.end - self.start);
        match core::str::from_utf8(mid) {
            Ok(s) => s,
            Err(_) => panic!("a template split inside a character"),
        }
    }

    /// As a `Range`.
    pub const fn range(self) -> core::ops::Range<usize> {
        self.start..self.end
    }
}

/// One token of a template: what [`token`] finds at an offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// Literal text, up to the next `<` or the end.
    Lit(Span),
    /// A placeholder `<name>` or `<name:format>`.
    Field {
        /// The whole `<...>`.
        span: Span,
        /// The name, between `<` and `:` (or `>`); [`is_field_name`]
        /// says whether it is one.
        name: Span,
        /// The format after `:`, and what it parses to.
        format: Option<(Span, Result<PartFormat, FormatError>)>,
    },
    /// A `<` with no `>` before the next `<` (then `span` ends there and
    /// the next token starts at that `<`) or before the end.
    Unclosed(Span),
}

impl Token {
    /// Where the next token starts.
    pub const fn end(self) -> usize {
        match self {
            Token::Lit(s) | Token::Unclosed(s) | Token::Field { span: s, .. } => s.end,
        }
    }

    /// The format of a placeholder: [`PartFormat::Text`] without `:`.
    pub const fn part_format(self) -> Option<Result<PartFormat, FormatError>> {
        match self {
            Token::Field {
                format: Some((_, f)),
                ..
            } => Some(f),
            Token::Field { format: None, .. } => Some(Ok(PartFormat::Text)),
            Token::Lit(_) | Token::Unclosed(_) => None,
        }
    }
}

/// The token of `text` starting at byte `at`; `None` at the end.
///
/// ```
/// use dynakey_core::template::{token, PartFormat, Token};
/// let t = "SITE#<n:d6>";
/// let Some(Token::Lit(lit)) = token(t, 0) else { panic!() };
/// assert_eq!(lit.of(t), "SITE#");
/// let Some(Token::Field { name, format: Some((_, f)), .. }) = token(t, lit.end) else { panic!() };
/// assert_eq!((name.of(t), f), ("n", Ok(PartFormat::Padded(6))));
/// assert_eq!(token(t, t.len()), None);
/// ```
pub const fn token(text: &str, at: usize) -> Option<Token> {
    let b = text.as_bytes();
    if at >= b.len() {
        return None;
    }
    if b[at] != b'<' {
        let end = match find(b, at, b'<') {
            Some(end) => end,
            None => b.len(),
        };
        return Some(Token::Lit(Span::new(at, end)));
    }
    let mut close = at + 1;
    while close < b.len() && b[close] != b'>' && b[close] != b'<' {
        close += 1;
    }
    if close == b.len() || b[close] == b'<' {
        return Some(Token::Unclosed(Span::new(at, close)));
    }
    let colon = match find(b, at + 1, b':') {
        Some(c) if c < close => Some(c),
        _ => None,
    };
    let (name, format) = match colon {
        Some(c) => {
            let f = Span::new(c + 1, close);
            let (_, rest) = b.split_at(f.start);
            let (fb, _) = rest.split_at(f.end - f.start);
            (Span::new(at + 1, c), Some((f, parse_format(fb))))
        }
        None => (Span::new(at + 1, close), None),
    };
    Some(Token::Field {
        span: Span::new(at, close + 1),
        name,
        format,
    })
}

/// Whether `s` names a field in a placeholder: a Rust identifier, ASCII,
/// without `r#` (a template names a raw-identifier field as serde does).
pub const fn is_field_name(s: &[u8]) -> bool {
    if s.is_empty() || !(s[0] == b'_' || s[0].is_ascii_alphabetic()) {
        return false;
    }
    let mut i = 1;
    while i < s.len() {
        if !(s[i] == b'_' || s[i].is_ascii_alphanumeric()) {
            return false;
        }
        i += 1;
    }
    true
}

/// One part of a template: literal text or a placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// Literal text, copied into the key.
    Lit(&'static str),
    /// A placeholder.
    Field {
        /// The field's name.
        name: &'static str,
        /// Its format.
        format: PartFormat,
    },
}

/// The `N` parts of a template the derive has checked (literals and
/// placeholders), evaluated at compile time through the same [`token`]
/// the derive checked the template with.
///
/// ```
/// use dynakey_core::template::{parts, PartFormat, TemplatePart::{self, *}};
/// const P: [TemplatePart; 4] = parts::<4>("SITE#<city>#<n:d6>");
/// assert_eq!(P, [Lit("SITE#"), Field { name: "city", format: PartFormat::Text }, Lit("#"),
///     Field { name: "n", format: PartFormat::Padded(6) }]);
/// ```
///
/// # Panics
///
/// At compile time, when the template does not have `N` parts or does not
/// parse (the derive never writes such a call: it reports the template).
pub const fn parts<const N: usize>(text: &'static str) -> [TemplatePart; N] {
    let mut out = [TemplatePart::Lit(""); N];
    let (mut at, mut n) = (0, 0);
    while let Some(t) = token(text, at) {
        assert!(n < N, "the template has more parts");
        out[n] = match t {
            Token::Lit(s) => TemplatePart::Lit(s.of(text)),
            Token::Field { name, .. } => {
                let name = name.of(text);
                assert!(
                    is_field_name(name.as_bytes()),
                    "a placeholder names no field"
                );
                match t.part_format() {
                    Some(Ok(format)) => TemplatePart::Field { name, format },
                    _ => panic!("an unknown format"),
                }
            }
            Token::Unclosed(_) => panic!("an unclosed placeholder"),
        };
        n += 1;
        at = t.end();
    }
    assert!(n == N, "the template has another number of parts");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use TemplatePart::*;

    #[test]
    fn every_format_and_literal() {
        const P: [TemplatePart; 11] = parts::<11>("<a>-<b:d3>#<c:n4>.<d:n8.2>é<e:rev>/<f:path>");
        let f = |name, format| Field { name, format };
        assert_eq!(
            P,
            [
                f("a", PartFormat::Text),
                Lit("-"),
                f("b", PartFormat::Padded(3)),
                Lit("#"),
                f("c", PartFormat::Signed(4)),
                Lit("."),
                f("d", PartFormat::Decimal(8, 2)),
                Lit("é"),
                f("e", PartFormat::Reverse),
                Lit("/"),
                f("f", PartFormat::Path),
            ]
        );
        const Q: [TemplatePart; 1] = parts::<1>("PROFILE");
        assert_eq!(Q, [Lit("PROFILE")]);
    }

    #[test]
    fn tokens_carry_byte_offsets_and_errors() {
        let t = "A#<>#<x:q7>#<y<z>";
        let mut at = 0;
        let mut got = Vec::new();
        while let Some(tok) = token(t, at) {
            got.push(tok);
            at = tok.end();
        }
        let s = Span::new;
        assert_eq!(
            got,
            [
                Token::Lit(s(0, 2)),
                Token::Field {
                    span: s(2, 4),
                    name: s(3, 3),
                    format: None
                },
                Token::Lit(s(4, 5)),
                Token::Field {
                    span: s(5, 11),
                    name: s(6, 7),
                    format: Some((s(8, 10), Err(FormatError::Unknown)))
                },
                Token::Lit(s(11, 12)),
                Token::Unclosed(s(12, 14)),
                Token::Field {
                    span: s(14, 17),
                    name: s(15, 16),
                    format: None
                },
            ]
        );
        assert_eq!(token("a<b", 1), Some(Token::Unclosed(s(1, 3))));
    }

    /// The runtime's parts come from the grammar the derive checks with:
    /// what the derive refuses, `parts` refuses too (it used to read
    /// `<n:d39>` as `Padded(39)`, `<n:q>` as a panic of its own, and took
    /// `<a<b>` as one placeholder named `a<b`).
    #[test]
    fn parts_refuses_what_the_derive_refuses() {
        // Each a single placeholder, were it one.
        for bad in [
            "<n:d39>",
            "<n:d0>",
            "<n:n38>",
            "<n:n30.7>",
            "<>",
            "<1a>",
            "<a<b>",
        ] {
            let parsed = std::panic::catch_unwind(|| parts::<1>(bad));
            assert!(parsed.is_err(), "{bad} was split into {parsed:?}");
        }
        assert!(std::panic::catch_unwind(|| parts::<2>("A#<a")).is_err());
    }

    #[test]
    fn field_names() {
        assert!(is_field_name(b"user_id") && is_field_name(b"_x1"));
        for bad in [&b""[..], b"1a", b"r#type", b"a-b", b"caf\xc3\xa9"] {
            assert!(!is_field_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn every_format_and_its_limits() {
        assert_eq!(parse_format(b"rev"), Ok(PartFormat::Reverse));
        assert_eq!(parse_format(b"path"), Ok(PartFormat::Path));
        assert_eq!(parse_format(b"d38"), Ok(PartFormat::Padded(38)));
        assert_eq!(parse_format(b"d39"), Err(FormatError::PaddedWidth));
        assert_eq!(parse_format(b"n37"), Ok(PartFormat::Signed(37)));
        assert_eq!(parse_format(b"n0"), Err(FormatError::SignedWidth));
        assert_eq!(parse_format(b"n30.6"), Ok(PartFormat::Decimal(30, 6)));
        assert_eq!(parse_format(b"n0.2"), Err(FormatError::DecimalDigits));
        assert_eq!(parse_format(b"n30.7"), Err(FormatError::DecimalDigits));
        // A width too large for a number is no format; so is anything else.
        for bad in [
            &b""[..],
            b"d",
            b"dx",
            b"d99999999999",
            b"n4.",
            b"n.2",
            b"n4.2.1",
            b"D6",
            b"revs",
        ] {
            assert_eq!(parse_format(bad), Err(FormatError::Unknown), "{bad:?}");
        }
        // `w + p` past `u32` is out of the limit, not an overflow.
        assert_eq!(
            parse_format(b"n4000000000.4000000000"),
            Err(FormatError::DecimalDigits)
        );
    }
}
