//! The rules that keep a key's text order equal to its value order, and
//! one key text to one reading: which characters delimit a field, which
//! one escapes, and which no key may hold. The derive checks templates
//! against them and the runtime writes and reads keys by them.

use std::borrow::Cow;

use super::grammar::TemplatePart;

/// The character every range condition uses as its upper bound
/// ("everything that starts with this prefix"): no key may hold it, so the
/// bound is exact.
pub const HIGH: char = '\u{10FFFF}';

/// The lowest escape character: with `#` (or any lower delimiter) a value
/// is escaped with `%`.
pub const MIN_ESCAPE: char = '%';

/// Whether `c` may delimit a field of varying width: it sorts below the
/// digit `0` (`#`, `-`, `.`, `/`, `!`, a space…), so below digits and
/// letters, and a shorter value sorts before a longer one it begins.
///
/// ```
/// use dynakey_core::template::is_delimiter;
/// assert!(is_delimiter('#') && is_delimiter('/'));
/// assert!(!is_delimiter('0') && !is_delimiter('_') && !is_delimiter('a'));
/// ```
pub const fn is_delimiter(c: char) -> bool {
    c < '0'
}

/// Whether text stored as it is (a bare `<field>` template, a `path`
/// field, a template's literal) may hold `c`: no control character and no
/// [`HIGH`].
pub const fn forbidden_raw(c: char) -> bool {
    c < ' ' || c == HIGH
}

/// The escape character of a template: one above the highest delimiter
/// (a character below `0` next to a placeholder), and at least
/// [`MIN_ESCAPE`].
///
/// ```
/// use dynakey_core::template::{escape_char, PartFormat, TemplatePart::*};
/// let f = Field { name: "a", format: PartFormat::Text };
/// assert_eq!(escape_char(&[Lit("A#"), f]), '%');
/// assert_eq!(escape_char(&[Lit("A-"), f, Lit("-B")]), '.');
/// assert_eq!(escape_char(&[f]), '%');
/// ```
pub const fn escape_char(parts: &[TemplatePart]) -> char {
    let mut high = MIN_ESCAPE as u8 - 1;
    let mut i = 0;
    while i < parts.len() {
        if let TemplatePart::Field { .. } = parts[i] {
            if i > 0 {
                if let TemplatePart::Lit(l) = parts[i - 1] {
                    if let Some(&last) = l.as_bytes().last() {
                        high = above(high, last);
                    }
                }
            }
            if i + 1 < parts.len() {
                if let TemplatePart::Lit(l) = parts[i + 1] {
                    if let Some(&first) = l.as_bytes().first() {
                        high = above(high, first);
                    }
                }
            }
        }
        i += 1;
    }
    (high + 1) as char
}

/// `b` when it is a delimiter higher than `high`, else `high`.
const fn above(high: u8, b: u8) -> u8 {
    if is_delimiter(b as char) && b > high {
        b
    } else {
        high
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `s` escaped with `esc`, a template's [`escape_char`]: every
/// character from U+0000 up to `esc` (inclusive) becomes `esc` and two
/// uppercase hex digits, so no character of a value sorts at or below its
/// delimiter. Refuses [`HIGH`] (the error is the character).
///
/// ```
/// use dynakey_core::template::escape_into;
/// let mut out = String::new();
/// escape_into(&mut out, "New York#1", '%').unwrap();
/// assert_eq!(out, "New%20York%231");
/// ```
pub fn escape_into(out: &mut String, s: &str, esc: char) -> Result<(), char> {
    if !s.chars().any(|c| c <= esc || c == HIGH) {
        out.push_str(s);
        return Ok(());
    }
    for c in s.chars() {
        if c == HIGH {
            return Err(c);
        }
        if c <= esc {
            let b = c as u32 as u8;
            out.push(esc);
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push(c);
        }
    }
    Ok(())
}

/// Reads back what [`escape_into`] wrote; `None` unless `s` is exactly the
/// escaped form of some text (so reading and writing round-trip).
pub fn unescape(s: &str, esc: char) -> Option<Cow<'_, str>> {
    if !s.chars().any(|c| c <= esc || c == HIGH) {
        return Some(Cow::Borrowed(s));
    }
    let hex = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    };
    let mut out = String::with_capacity(s.len());
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == esc {
            let b = s.as_bytes();
            let (h, l) = (hex(*b.get(i + 1)?)?, hex(*b.get(i + 2)?)?);
            let code = (h << 4) | l;
            if u32::from(code) > esc as u32 {
                return None;
            }
            out.push(code as char);
            chars.next();
            chars.next();
        } else if c < esc || c == HIGH {
            return None;
        } else {
            out.push(c);
        }
    }
    Some(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trips_and_is_canonical() {
        for s in ["New York", "a#b", "%", "plain", "a%23", "\u{1}x", "é#"] {
            let mut out = String::new();
            escape_into(&mut out, s, '%').unwrap();
            assert!(!out.contains('#') && !out.contains(' '), "{out}");
            assert_eq!(unescape(&out, '%').as_deref(), Some(s));
        }
        // Not what the writer writes: refused.
        for bad in ["a#b", "a%41", "a%2", "a%2g", "a%2a", "a b"] {
            assert_eq!(unescape(bad, '%'), None, "{bad}");
        }
    }
}
