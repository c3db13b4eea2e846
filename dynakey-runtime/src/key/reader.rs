//! Reading a key back into its fields.

use std::borrow::Cow;

use super::formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
use dynakey_core::template::unescape;

use super::template::{check_raw, mismatch, KeyTemplate, PartFormat, TemplatePart};
use crate::error::{KeyFormatError, KeyFormatReason};

/// Reads a key back, field by field, as generated `parse_*` functions do.
/// Every field must be in the exact form a [`KeyWriter`](super::KeyWriter) writes, so a key
/// that reads back writes back to the same text; and a key longer than
/// its template's role holds ([`KeyTemplate::role`]: 2,048 bytes for a
/// partition key, 1,024 for a sort key), which the writer refuses, is
/// refused by the same check before anything is read.
///
/// ```
/// use dynakey_runtime::key::{KeyReader, KeyTemplate, PartFormat, TemplatePart::*};
/// static T: KeyTemplate = KeyTemplate::new("T", "T-<delta:n4>-<note>", &[
///     Lit("T-"), Field { name: "delta", format: PartFormat::Signed(4) },
///     Lit("-"), Field { name: "note", format: PartFormat::Text }]);
/// let mut r = KeyReader::new(&T, "T--9995-fee").unwrap();
/// assert_eq!(r.signed::<i32>().unwrap(), -5);
/// assert_eq!(r.str().unwrap(), "fee");
/// r.end().unwrap();
/// ```
#[derive(Debug)]
pub struct KeyReader<'a> {
    tpl: &'static KeyTemplate,
    rest: &'a str,
    at: usize,
}

impl<'a> KeyReader<'a> {
    /// A reader of `key` under `tpl` (its leading literal checked).
    pub fn new(tpl: &'static KeyTemplate, key: &'a str) -> Result<Self, KeyFormatError> {
        super::limit::check_key_size(tpl, tpl.role(), key)?;
        let mut r = KeyReader {
            tpl,
            rest: key,
            at: 0,
        };
        r.lits()?;
        Ok(r)
    }

    fn malformed(
        &self,
        field: &'static str,
        value: &str,
        expected: impl Into<String>,
    ) -> KeyFormatError {
        self.tpl.err(
            field,
            KeyPartError::new(
                value,
                KeyFormatReason::Malformed {
                    expected: expected.into(),
                },
            ),
        )
    }

    fn lits(&mut self) -> Result<(), KeyFormatError> {
        while let Some(TemplatePart::Lit(l)) = self.tpl.parts.get(self.at) {
            match self.rest.strip_prefix(l) {
                Some(r) => self.rest = r,
                None => return Err(self.malformed("", self.rest, format!("{l:?}"))),
            }
            self.at += 1;
        }
        Ok(())
    }

    fn field(&self) -> (&'static str, PartFormat) {
        match self.tpl.parts.get(self.at) {
            Some(TemplatePart::Field { name, format }) => (name, *format),
            _ => ("", PartFormat::Text),
        }
    }

    /// The literal after the current field, if any.
    fn next_lit(&self) -> Option<&'static str> {
        match self.tpl.parts.get(self.at + 1) {
            Some(TemplatePart::Lit(l)) => Some(l),
            _ => None,
        }
    }

    /// Splits off the current field's text: `width` characters, or up to
    /// the delimiter that follows it.
    fn take(&mut self, width: Option<usize>) -> Result<&'a str, KeyFormatError> {
        let (name, format) = self.field();
        let end = match width {
            Some(w) => {
                if self.rest.len() < w || !self.rest.is_char_boundary(w) {
                    return Err(self.malformed(name, self.rest, format!("{w} characters")));
                }
                w
            }
            None if self.tpl.raw || format == PartFormat::Path => self.rest.len(),
            None => match self.next_lit().and_then(|l| l.chars().next()) {
                Some(d) => self.rest.find(d).unwrap_or(self.rest.len()),
                None => self.rest.len(),
            },
        };
        let (part, rest) = self.rest.split_at(end);
        self.rest = rest;
        Ok(part)
    }

    fn advance(&mut self) -> Result<(), KeyFormatError> {
        self.at += 1;
        self.lits()
    }

    /// Reads variable-width text: unescaped, or checked raw text.
    fn text_part(&mut self) -> Result<Cow<'a, str>, KeyFormatError> {
        let (name, format) = self.field();
        let part = self.take(None)?;
        if part.is_empty() {
            return Err(self
                .tpl
                .err(name, KeyPartError::new("", KeyFormatReason::Empty)));
        }
        if self.tpl.raw || format == PartFormat::Path {
            check_raw(part).map_err(|r| self.tpl.err(name, KeyPartError::new(part, r)))?;
            return Ok(Cow::Borrowed(part));
        }
        let esc = self.tpl.escape;
        unescape(part, esc).ok_or_else(|| {
            self.malformed(
                name,
                part,
                format!("text escaped with {esc:?} (every character up to {esc:?} as {esc}XX)"),
            )
        })
    }

    /// Reads a string field.
    pub fn str(&mut self) -> Result<String, KeyFormatError> {
        let s = self.text_part()?.into_owned();
        self.advance()?;
        Ok(s)
    }

    /// Reads an unformatted field through its [`KeyText`] form.
    pub fn text<T: KeyText>(&mut self) -> Result<T, KeyFormatError> {
        let (name, _) = self.field();
        let text: Cow<'a, str> = match T::WIDTH {
            Some(w) => Cow::Borrowed(self.take(Some(w))?),
            None => self.text_part()?,
        };
        let v = T::parse_text(&text).map_err(|e| self.tpl.err(name, e))?;
        let mut again = String::with_capacity(text.len());
        if v.write_text(&mut again).is_err() || again != *text {
            return Err(self.malformed(name, &text, format!("the canonical form {again:?}")));
        }
        self.advance()?;
        Ok(v)
    }

    fn fixed<T>(
        &mut self,
        read: impl FnOnce(PartFormat, &str) -> Result<T, KeyPartError>,
        write: impl FnOnce(&T, PartFormat, &mut String) -> Result<(), KeyPartError>,
    ) -> Result<T, KeyFormatError> {
        let (name, format) = self.field();
        let part = self.take(format.width())?;
        let v = read(format, part).map_err(|e| self.tpl.err(name, e))?;
        let mut again = String::with_capacity(part.len());
        if write(&v, format, &mut again).is_err() || again != part {
            return Err(self.malformed(name, part, format!("the canonical form {again:?}")));
        }
        self.advance()?;
        Ok(v)
    }

    /// Reads a `d<w>` field.
    pub fn padded<T: KeyPadded>(&mut self) -> Result<T, KeyFormatError> {
        self.fixed(
            |f, s| match f {
                PartFormat::Padded(w) => T::parse_padded(s, w),
                _ => Err(mismatch()),
            },
            |v, f, out| match f {
                PartFormat::Padded(w) => v.write_padded(w, out),
                _ => Err(mismatch()),
            },
        )
    }

    /// Reads an `n<w>` field.
    pub fn signed<T: KeySigned>(&mut self) -> Result<T, KeyFormatError> {
        self.fixed(
            |f, s| match f {
                PartFormat::Signed(w) => T::parse_signed(s, w),
                _ => Err(mismatch()),
            },
            |v, f, out| match f {
                PartFormat::Signed(w) => v.write_signed(w, out),
                _ => Err(mismatch()),
            },
        )
    }

    /// Reads an `n<w>.<p>` field.
    pub fn decimal<T: KeyDecimal>(&mut self) -> Result<T, KeyFormatError> {
        self.fixed(
            |f, s| match f {
                PartFormat::Decimal(w, p) => T::parse_decimal(s, w, p),
                _ => Err(mismatch()),
            },
            |v, f, out| match f {
                PartFormat::Decimal(w, p) => v.write_decimal(w, p, out),
                _ => Err(mismatch()),
            },
        )
    }

    /// Reads a `rev` field.
    pub fn reverse<T: KeyReverse>(&mut self) -> Result<T, KeyFormatError> {
        self.fixed(|_, s| T::parse_reverse(s), |v, _, out| v.write_reverse(out))
    }

    /// Nothing may follow the last part.
    pub fn end(self) -> Result<(), KeyFormatError> {
        if self.rest.is_empty() && self.at >= self.tpl.parts.len() {
            Ok(())
        } else {
            Err(self.malformed("", self.rest, "the end of the key"))
        }
    }
}

/// Reads a stored key of `tpl` with `read` (one reader call per
/// placeholder, in template order) and checks that nothing is left: what
/// a derived `parse_*` function is.
///
/// ```
/// use dynakey_runtime::key::{parse, parts, KeyTemplate, TemplatePart};
/// const P: [TemplatePart; 4] = parts::<4>("SITE#<city>#<n:d6>");
/// static T: KeyTemplate = KeyTemplate::new("EMP", "SITE#<city>#<n:d6>", &P);
/// let (city, n): (String, u32) = parse(&T, "SITE#Oslo#000007", |r| Ok((r.str()?, r.padded()?))).unwrap();
/// assert_eq!((city.as_str(), n), ("Oslo", 7));
/// assert!(parse(&T, "SITE#Oslo#7", |r| Ok((r.str()?, r.padded::<u32>()?))).is_err());
/// ```
pub fn parse<T>(
    tpl: &'static KeyTemplate,
    key: &str,
    read: impl FnOnce(&mut KeyReader<'_>) -> Result<T, KeyFormatError>,
) -> Result<T, KeyFormatError> {
    let mut r = KeyReader::new(tpl, key)?;
    let v = read(&mut r)?;
    r.end()?;
    Ok(v)
}
