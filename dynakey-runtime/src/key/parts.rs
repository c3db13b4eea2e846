//! The parts of a key template, read from its text at compile time: the
//! derive checks a template and then writes only its text, and this
//! `const fn` splits it into [`TemplatePart`]s where the runtime needs them.

use super::template::{PartFormat, TemplatePart};

/// The `N` parts of a template the derive has checked (literals and
/// `<field>` / `<field:format>` placeholders), evaluated at compile time.
///
/// ```
/// use dynakey_runtime::key::{parts, PartFormat, TemplatePart::*};
/// const P: [dynakey_runtime::key::TemplatePart; 4] = parts::<4>("SITE#<city>#<n:d6>");
/// assert_eq!(P, [Lit("SITE#"), Field { name: "city", format: PartFormat::Text }, Lit("#"),
///     Field { name: "n", format: PartFormat::Padded(6) }]);
/// ```
///
/// # Panics
///
/// At compile time, when the template does not have `N` parts or a
/// placeholder is malformed (the derive never writes such a call).
pub const fn parts<const N: usize>(text: &'static str) -> [TemplatePart; N] {
    let mut out = [TemplatePart::Lit(""); N];
    let b = text.as_bytes();
    let (mut i, mut n, mut lit) = (0, 0, 0);
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        if i > lit {
            out[n] = TemplatePart::Lit(sub(text, lit, i));
            n += 1;
        }
        let mut close = i + 1;
        while close < b.len() && b[close] != b'>' {
            close += 1;
        }
        assert!(close < b.len(), "an unclosed placeholder");
        let mut colon = i + 1;
        while colon < close && b[colon] != b':' {
            colon += 1;
        }
        let format = if colon < close {
            format(text, colon + 1, close)
        } else {
            PartFormat::Text
        };
        out[n] = TemplatePart::Field {
            name: sub(text, i + 1, colon),
            format,
        };
        n += 1;
        i = close + 1;
        lit = i;
    }
    if lit < b.len() {
        out[n] = TemplatePart::Lit(sub(text, lit, b.len()));
        n += 1;
    }
    assert!(n == N, "the template has another number of parts");
    out
}

/// `s[a..b]`, in a const context.
const fn sub(s: &'static str, a: usize, b: usize) -> &'static str {
    let (_, rest) = s.as_bytes().split_at(a);
    let (mid, _) = rest.split_at(b - a);
    match core::str::from_utf8(mid) {
        Ok(s) => s,
        Err(_) => panic!("a template split inside a character"),
    }
}

/// The decimal number in `b[from..to]`.
const fn number(b: &[u8], mut from: usize, to: usize) -> u32 {
    let mut n = 0;
    while from < to {
        assert!(
            b[from].is_ascii_digit(),
            "a format width that is not a number"
        );
        n = n * 10 + (b[from] - b'0') as u32;
        from += 1;
    }
    n
}

/// The format written in `s[from..to]` (`d6`, `n4`, `n8.2`, `rev`, `path`).
const fn format(s: &str, from: usize, to: usize) -> PartFormat {
    let b = s.as_bytes();
    assert!(from < to, "an empty format");
    match b[from] {
        b'd' => PartFormat::Padded(number(b, from + 1, to)),
        b'r' => PartFormat::Reverse,
        b'p' => PartFormat::Path,
        b'n' => {
            let mut dot = from + 1;
            while dot < to && b[dot] != b'.' {
                dot += 1;
            }
            if dot == to {
                PartFormat::Signed(number(b, from + 1, to))
            } else {
                PartFormat::Decimal(number(b, from + 1, dot), number(b, dot + 1, to))
            }
        }
        _ => panic!("an unknown format"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TemplatePart::*;

    #[test]
    fn every_format_and_literal() {
        const P: [TemplatePart; 11] = parts::<11>("<a>-<b:d3>#<c:n4>.<d:n8.2>é<e:rev>/<f:path>");
        assert_eq!(
            P[0],
            Field {
                name: "a",
                format: PartFormat::Text
            }
        );
        assert_eq!(
            P[2],
            Field {
                name: "b",
                format: PartFormat::Padded(3)
            }
        );
        assert_eq!(
            P[4],
            Field {
                name: "c",
                format: PartFormat::Signed(4)
            }
        );
        assert_eq!(P[5], Lit("."));
        assert_eq!(
            P[6],
            Field {
                name: "d",
                format: PartFormat::Decimal(8, 2)
            }
        );
        assert_eq!(P[7], Lit("é"));
        assert_eq!(
            P[8],
            Field {
                name: "e",
                format: PartFormat::Reverse
            }
        );
        assert_eq!(
            P[10],
            Field {
                name: "f",
                format: PartFormat::Path
            }
        );
        const Q: [TemplatePart; 1] = parts::<1>("PROFILE");
        assert_eq!(Q, [Lit("PROFILE")]);
    }
}
