//! Key templates at run time: how the fields of one key become its text,
//! how the text is read back, and the sort-key conditions over it.
//!
//! The derive describes each template as a static [`KeyTemplate`] and
//! generated code writes a key with a [`KeyWriter`] and reads one with a
//! [`KeyReader`], so every rule below lives here, once, and the property
//! tests of this crate exercise exactly the code a derived entity runs.
//!
//! # The text of a field
//!
//! * A **fixed-width** field (`d<w>`, `n<w>`, `n<w>.<p>`, `rev`, and the
//!   text of a `Uuid`, `time::Date` or `time::OffsetDateTime`) is written as
//!   its format says. Its width alone tells where it ends.
//! * A **variable-width** field (a string, a unit enum, a `bool`, an
//!   unformatted number in a partition key) is *escaped*: every character
//!   from U+0000 up to the template's escape character (inclusive) is
//!   written as the escape character and two uppercase hex digits. The
//!   escape character is the one just above the template's highest
//!   delimiter, and at least `%`: with `#` it is `%`, so `New York` is
//!   written `New%20York` and `a#b` is written `a%23b`.
//!
//!   After escaping, no character of a value sorts at or below the
//!   delimiter, so the delimiter ends the field wherever it appears, one
//!   key text has one reading, and text order is value order for every
//!   value: `New` < `New York` < `Newark` as values and as keys
//!   (`New#` < `New%20York#` < `Newark#`).
//! * A template that is one bare placeholder (`<owner>`) holds the value as
//!   it is (the key equals the attribute), and so does a last field with the
//!   `path` format (`<folder:path>`), which may hold the delimiter so that a
//!   text prefix selects a subtree.
//!
//! U+10FFFF is refused everywhere (range conditions use it as their upper
//! bound), as is an empty field; raw text (bare and `path` fields) also
//! refuses control characters.

use std::borrow::Cow;

use super::cond::{bounds, SortKeyOp};
use super::formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
use super::HIGH;
use crate::error::{KeyFormatError, KeyFormatReason};

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

impl PartFormat {
    /// The width of the text when the format fixes it.
    ///
    /// ```
    /// use dynakey_runtime::key::PartFormat;
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

/// A key template, as the derive describes it to the runtime.
///
/// ```
/// use dynakey_runtime::key::{KeyTemplate, KeyWriter, PartFormat, TemplatePart::*};
/// static T: KeyTemplate = KeyTemplate::new(
///     "SITE",
///     "CITY#<city>#<zip>",
///     &[Lit("CITY#"), Field { name: "city", format: PartFormat::Text }, Lit("#"),
///       Field { name: "zip", format: PartFormat::Text }],
/// );
/// assert_eq!(T.escape(), '%');
/// let mut w = KeyWriter::new(&T);
/// w.str("New York").unwrap();
/// w.str("10001").unwrap();
/// assert_eq!(w.finish().unwrap(), "CITY#New%20York#10001");
/// ```
#[derive(Debug)]
pub struct KeyTemplate {
    entity: &'static str,
    text: &'static str,
    parts: &'static [TemplatePart],
    escape: char,
    raw: bool,
}

impl KeyTemplate {
    /// Describes a template of entity `entity` (its discriminator, for
    /// errors) written `text`, made of `parts`.
    pub const fn new(
        entity: &'static str,
        text: &'static str,
        parts: &'static [TemplatePart],
    ) -> Self {
        let raw = parts.len() == 1 && matches!(parts[0], TemplatePart::Field { .. });
        KeyTemplate {
            entity,
            text,
            parts,
            escape: escape_char(parts),
            raw,
        }
    }

    /// The entity's discriminator.
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// The template as written, e.g. `SITE#<country>#<city>`.
    pub fn text(&self) -> &'static str {
        self.text
    }

    /// Its parts.
    pub fn parts(&self) -> &'static [TemplatePart] {
        self.parts
    }

    /// The escape character of its variable-width fields.
    pub fn escape(&self) -> char {
        self.escape
    }

    /// Whether the template is one bare placeholder, whose value is the
    /// key as it is.
    pub fn is_raw(&self) -> bool {
        self.raw
    }

    /// The literal text before the first placeholder.
    pub fn prefix(&self) -> &'static str {
        match self.parts.first() {
            Some(TemplatePart::Lit(l)) => l,
            _ => "",
        }
    }

    /// The placeholders, in order.
    pub fn fields(&self) -> impl Iterator<Item = (&'static str, PartFormat)> + '_ {
        self.parts.iter().filter_map(|p| match *p {
            TemplatePart::Field { name, format } => Some((name, format)),
            TemplatePart::Lit(_) => None,
        })
    }

    fn err(&self, field: &'static str, e: KeyPartError) -> KeyFormatError {
        KeyFormatError {
            entity: self.entity,
            template: self.text,
            field,
            value: e.value,
            reason: e.reason,
        }
    }
}

/// The escape character of a template: one above the highest delimiter
/// (a character below `0` next to a placeholder), and at least `%`.
///
/// ```
/// use dynakey_runtime::key::{escape_char, PartFormat, TemplatePart::*};
/// let f = Field { name: "a", format: PartFormat::Text };
/// assert_eq!(escape_char(&[Lit("A#"), f]), '%');
/// assert_eq!(escape_char(&[Lit("A-"), f, Lit("-B")]), '.');
/// assert_eq!(escape_char(&[f]), '%');
/// ```
pub const fn escape_char(parts: &[TemplatePart]) -> char {
    let mut high = b'%' - 1;
    let mut i = 0;
    while i < parts.len() {
        if let TemplatePart::Field { .. } = parts[i] {
            if i > 0 {
                if let TemplatePart::Lit(l) = parts[i - 1] {
                    let b = l.as_bytes();
                    if !b.is_empty() && b[b.len() - 1] < b'0' && b[b.len() - 1] > high {
                        high = b[b.len() - 1];
                    }
                }
            }
            if i + 1 < parts.len() {
                if let TemplatePart::Lit(l) = parts[i + 1] {
                    let b = l.as_bytes();
                    if !b.is_empty() && b[0] < b'0' && b[0] > high {
                        high = b[0];
                    }
                }
            }
        }
        i += 1;
    }
    (high + 1) as char
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `s` escaped with `esc` (see the module docs).
fn escape_into(out: &mut String, s: &str, esc: char) -> Result<(), KeyFormatReason> {
    if !s.chars().any(|c| c <= esc || c == HIGH) {
        out.push_str(s);
        return Ok(());
    }
    for c in s.chars() {
        if c == HIGH {
            return Err(KeyFormatReason::ForbiddenChar { found: c });
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
fn unescape(s: &str, esc: char) -> Option<Cow<'_, str>> {
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

/// Checks raw text (a bare or `path` field): no control characters, no
/// U+10FFFF.
fn check_raw(s: &str) -> Result<(), KeyFormatReason> {
    match s.chars().find(|c| *c < ' ' || *c == HIGH) {
        Some(found) => Err(KeyFormatReason::ForbiddenChar { found }),
        None => Ok(()),
    }
}

/// Writes the text of one key, field by field, as generated code does:
/// each call writes the next placeholder and the literal text after it.
///
/// ```
/// use dynakey_runtime::key::{KeyTemplate, KeyWriter, PartFormat, TemplatePart::*};
/// static T: KeyTemplate = KeyTemplate::new("EMP", "EMP#<number:d6>",
///     &[Lit("EMP#"), Field { name: "number", format: PartFormat::Padded(6) }]);
/// let mut w = KeyWriter::new(&T);
/// w.padded(&42u32).unwrap();
/// assert_eq!(w.finish().unwrap(), "EMP#000042");
/// ```
#[derive(Debug, Clone)]
pub struct KeyWriter {
    tpl: &'static KeyTemplate,
    out: String,
    at: usize,
}

impl KeyWriter {
    /// A writer at the start of `tpl` (its leading literal written).
    pub fn new(tpl: &'static KeyTemplate) -> Self {
        let mut w = KeyWriter {
            tpl,
            out: String::with_capacity(tpl.text.len() + 16),
            at: 0,
        };
        w.lits();
        w
    }

    fn lits(&mut self) {
        while let Some(TemplatePart::Lit(l)) = self.tpl.parts.get(self.at) {
            self.out.push_str(l);
            self.at += 1;
        }
    }

    /// The placeholder to write next.
    fn field(&self) -> (&'static str, PartFormat) {
        match self.tpl.parts.get(self.at) {
            Some(TemplatePart::Field { name, format }) => (name, *format),
            _ => ("", PartFormat::Text),
        }
    }

    fn advance(&mut self) {
        self.at += 1;
        self.lits();
    }

    fn fail(&self, field: &'static str, value: &str, reason: KeyFormatReason) -> KeyFormatError {
        self.tpl.err(field, KeyPartError::new(value, reason))
    }

    /// Appends variable-width text under the template's rules.
    fn push_text(
        &mut self,
        name: &'static str,
        format: PartFormat,
        v: &str,
    ) -> Result<(), KeyFormatError> {
        if v.is_empty() {
            return Err(self.fail(name, v, KeyFormatReason::Empty));
        }
        if self.tpl.raw || format == PartFormat::Path {
            check_raw(v).map_err(|r| self.fail(name, v, r))?;
            self.out.push_str(v);
            Ok(())
        } else {
            let esc = self.tpl.escape;
            escape_into(&mut self.out, v, esc).map_err(|r| self.fail(name, v, r))
        }
    }

    /// Writes a string field.
    pub fn str(&mut self, v: &str) -> Result<(), KeyFormatError> {
        let (name, format) = self.field();
        self.push_text(name, format, v)?;
        self.advance();
        Ok(())
    }

    /// Writes an unformatted field through its [`KeyText`] form.
    pub fn text<T: KeyText + ?Sized>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        let (name, format) = self.field();
        let start = self.out.len();
        v.write_text(&mut self.out)
            .map_err(|e| self.tpl.err(name, e))?;
        match T::WIDTH {
            Some(w) => {
                let written = &self.out[start..];
                if written.len() != w || !written.is_ascii() {
                    let written = written.to_owned();
                    return Err(self.fail(
                        name,
                        &written,
                        KeyFormatReason::Malformed {
                            expected: format!("{w} ASCII characters"),
                        },
                    ));
                }
            }
            None => {
                let written = self.out.split_off(start);
                self.push_text(name, format, &written)?;
            }
        }
        self.advance();
        Ok(())
    }

    fn fixed(
        &mut self,
        write: impl FnOnce(PartFormat, &mut String) -> Result<(), KeyPartError>,
    ) -> Result<(), KeyFormatError> {
        let (name, format) = self.field();
        write(format, &mut self.out).map_err(|e| self.tpl.err(name, e))?;
        self.advance();
        Ok(())
    }

    /// Writes a `d<w>` field.
    pub fn padded<T: KeyPadded>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Padded(w) => v.write_padded(w, out),
            _ => Err(mismatch()),
        })
    }

    /// Writes an `n<w>` field.
    pub fn signed<T: KeySigned>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Signed(w) => v.write_signed(w, out),
            _ => Err(mismatch()),
        })
    }

    /// Writes an `n<w>.<p>` field.
    pub fn decimal<T: KeyDecimal>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Decimal(w, p) => v.write_decimal(w, p, out),
            _ => Err(mismatch()),
        })
    }

    /// Writes a `rev` field.
    pub fn reverse<T: KeyReverse>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Reverse => v.write_reverse(out),
            _ => Err(mismatch()),
        })
    }

    /// The key text; refuses a key that came out empty.
    pub fn finish(self) -> Result<String, KeyFormatError> {
        if self.out.is_empty() {
            return Err(self.fail("", "", KeyFormatReason::Empty));
        }
        Ok(self.out)
    }

    /// Whether every placeholder is written.
    pub fn is_complete(&self) -> bool {
        self.at >= self.tpl.parts.len()
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    // ---- sort-key conditions ------------------------------------------

    /// Keys whose fields written so far equal theirs: `begins_with` of the
    /// text so far (which ends with the delimiter after the last field
    /// written, so `York` does not select `Yorkshire`). With every field
    /// written it is the one key (`=`); with nothing written and no literal
    /// prefix, every key.
    pub fn begins_with(self) -> SortKeyOp {
        if self.is_complete() {
            SortKeyOp::Eq(self.out)
        } else if self.out.is_empty() {
            SortKeyOp::All
        } else {
            SortKeyOp::BeginsWith(self.out)
        }
    }

    /// Keys whose next field's *text* starts with `text` (a string field):
    /// a prefix search that says so, unlike fixing the field, which means
    /// equality.
    pub fn starts_with(mut self, text: &str) -> Result<SortKeyOp, KeyFormatError> {
        let (name, format) = self.field();
        if !text.is_empty() {
            if self.tpl.raw || format == PartFormat::Path {
                check_raw(text).map_err(|r| self.fail(name, text, r))?;
                self.out.push_str(text);
            } else {
                let esc = self.tpl.escape;
                escape_into(&mut self.out, text, esc).map_err(|r| self.fail(name, text, r))?;
            }
        }
        Ok(if self.out.is_empty() {
            SortKeyOp::All
        } else {
            SortKeyOp::BeginsWith(self.out)
        })
    }

    /// Writes the next field with `write` and splits the text into what
    /// came before it, the field's text and the literal after it; also
    /// whether it is the last field and whether its text runs opposite to
    /// its values (`rev`).
    fn split(
        mut self,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<Split, KeyFormatError> {
        let start = self.out.len();
        let field_at = self.at;
        let reversed = self.field().1 == PartFormat::Reverse;
        write(&mut self)?;
        let next_len: usize = self.tpl.parts[field_at + 1..]
            .iter()
            .map_while(|p| match p {
                TemplatePart::Lit(l) => Some(l.len()),
                TemplatePart::Field { .. } => None,
            })
            .sum();
        let last = self.is_complete();
        let end = self.out.len() - next_len;
        let next = self.out[end..].to_owned();
        let value = self.out[start..end].to_owned();
        self.out.truncate(start);
        Ok(Split {
            prefix: self.out,
            value,
            next,
            last,
            reversed,
        })
    }

    /// The next field equals the value `write` writes.
    pub fn eq(
        self,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        let s = self.split(write)?;
        Ok(if s.last {
            SortKeyOp::Eq(format!("{}{}{}", s.prefix, s.value, s.next))
        } else {
            bounds::eq(&s.prefix, &s.value, &s.next)
        })
    }

    /// Compares the next field with a value. Values compare as values: a
    /// `rev` field's text runs the other way, so its bounds are flipped.
    fn compare(
        self,
        op: Cmp,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        let s = self.split(write)?;
        let op = if s.reversed { op.flip() } else { op };
        let (p, v, n) = (&s.prefix, &s.value, &s.next);
        Ok(match op {
            Cmp::Lt => bounds::lt(p, v, n),
            Cmp::Le => bounds::le(p, v, n),
            Cmp::Gt => bounds::gt(p, v, n),
            Cmp::Ge => bounds::ge(p, v, n),
        })
    }

    /// The next field below the value.
    pub fn lt(
        self,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        self.compare(Cmp::Lt, write)
    }

    /// The next field at or below the value.
    pub fn le(
        self,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        self.compare(Cmp::Le, write)
    }

    /// The next field above the value.
    pub fn gt(
        self,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        self.compare(Cmp::Gt, write)
    }

    /// The next field at or above the value.
    pub fn ge(
        self,
        write: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        self.compare(Cmp::Ge, write)
    }

    /// The next field between two values, both included. Bounds in the
    /// wrong order select nothing ([`SortKeyOp::Empty`]), as SQL's
    /// `BETWEEN` does; DynamoDB would refuse the request.
    pub fn between(
        self,
        lo: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
        hi: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>,
    ) -> Result<SortKeyOp, KeyFormatError> {
        let other = self.clone();
        let lo = self.split(lo)?;
        let hi = other.split(hi)?;
        let (lo, hi) = if lo.reversed { (hi, lo) } else { (lo, hi) };
        Ok(bounds::between(&lo.prefix, &lo.value, &hi.value, &lo.next))
    }
}

/// A field written for a condition, split from its surroundings.
struct Split {
    prefix: String,
    value: String,
    next: String,
    last: bool,
    reversed: bool,
}

#[derive(Clone, Copy)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn flip(self) -> Self {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
        }
    }
}

fn mismatch() -> KeyPartError {
    KeyPartError::new(
        "",
        KeyFormatReason::Malformed {
            expected: "the format of the template".into(),
        },
    )
}

/// Reads a key back, field by field, as generated `parse_*` functions do.
/// Every field must be in the exact form a [`KeyWriter`] writes, so a key
/// that reads back writes back to the same text.
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
