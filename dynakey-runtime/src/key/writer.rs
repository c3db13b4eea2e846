//! Writing a key, and the sort-key conditions over a partly written one.

use super::cond::{bounds, SortKeyOp};
use super::formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
use super::limit::{too_long_reason, KeyRole, MAX_SORT_KEY_BYTES};
use super::template::{
    check_raw, escape_into, field_value, mismatch, KeyTemplate, PartFormat, TemplatePart,
};
use crate::error::{KeyFormatError, KeyFormatReason};

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
    /// The field written so far whose text is the longest: its part
    /// index and where its text lies in `out` (what a key too long for
    /// its limit is blamed on).
    widest: Option<(usize, usize, usize)>,
}

impl KeyWriter {
    /// A writer at the start of `tpl` (its leading literal written).
    pub fn new(tpl: &'static KeyTemplate) -> Self {
        let mut w = KeyWriter {
            tpl,
            out: String::with_capacity(tpl.text.len() + 16),
            at: 0,
            widest: None,
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

    /// Past the field whose text starts at `start`, and the literals
    /// after it.
    fn advance(&mut self, start: usize) {
        let end = self.out.len();
        if self.widest.is_none_or(|(_, s, e)| end - start > e - s) {
            self.widest = Some((self.at, start, end));
        }
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
        let start = self.out.len();
        self.push_text(name, format, v)?;
        self.advance(start);
        Ok(())
    }

    /// Writes an unformatted field through its [`KeyText`] form.
    pub fn text<T: KeyText>(&mut self, v: &T) -> Result<(), KeyFormatError> {
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
        self.advance(start);
        Ok(())
    }

    fn fixed(
        &mut self,
        write: impl FnOnce(PartFormat, &mut String) -> Result<(), KeyPartError>,
    ) -> Result<(), KeyFormatError> {
        let (name, format) = self.field();
        let start = self.out.len();
        write(format, &mut self.out).map_err(|e| self.tpl.err(name, e))?;
        self.advance(start);
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

    /// The key text; refuses a key that came out empty, or longer than
    /// its template's role allows: [`finish_as`](Self::finish_as) with
    /// [`KeyTemplate::role`] (2,048 bytes for a partition key or a
    /// template made by hand, 1,024 for a sort key).
    pub fn finish(self) -> Result<String, KeyFormatError> {
        let role = self.tpl.role();
        self.finish_as(role)
    }

    /// The key text of a key of `role`; refuses a key that came out empty,
    /// or longer than `role` allows (counted after escaping), naming the
    /// field whose text is the longest.
    ///
    /// ```
    /// use dynakey_runtime::key::{KeyRole, KeyTemplate, KeyWriter, PartFormat, TemplatePart::*};
    /// use dynakey_runtime::KeyFormatReason;
    /// static T: KeyTemplate = KeyTemplate::new("DOC", "D#<id>",
    ///     &[Lit("D#"), Field { name: "id", format: PartFormat::Text }]);
    /// let mut w = KeyWriter::new(&T);
    /// w.str(&"#".repeat(341)).unwrap(); // 341 x "%23": 1,023 bytes, 1,025 with "D#"
    /// let err = w.clone().finish_as(KeyRole::Sort).unwrap_err();
    /// assert_eq!(err.field, "id");
    /// assert_eq!(err.reason, KeyFormatReason::TooLong { role: KeyRole::Sort, size: 1025 });
    /// assert_eq!(w.finish_as(KeyRole::Partition).unwrap().len(), 1025);
    /// ```
    pub fn finish_as(self, role: KeyRole) -> Result<String, KeyFormatError> {
        if self.out.is_empty() {
            return Err(self.fail("", "", KeyFormatReason::Empty));
        }
        self.check_len(role, self.out.len())?;
        Ok(self.out)
    }

    /// Refuses a key (or a key prefix, of a condition) of `size` bytes
    /// when `role` holds fewer, blamed on the longest field written.
    fn check_len(&self, role: KeyRole, size: usize) -> Result<(), KeyFormatError> {
        if size <= role.limit() {
            return Ok(());
        }
        let reason = too_long_reason(role, size);
        Err(match self.widest {
            Some((at, start, end)) => {
                let (name, format) = match self.tpl.parts.get(at) {
                    Some(TemplatePart::Field { name, format }) => (*name, *format),
                    _ => ("", PartFormat::Text),
                };
                let value = field_value(self.tpl, format, &self.out[start..end]);
                self.fail(name, &value, reason)
            }
            None => self.fail("", &self.out, reason),
        })
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
    pub fn begins_with(self) -> Result<SortKeyOp, KeyFormatError> {
        self.check_len(KeyRole::Sort, self.out.len())?;
        Ok(if self.is_complete() {
            SortKeyOp::Eq(self.out)
        } else if self.out.is_empty() {
            SortKeyOp::All
        } else {
            SortKeyOp::BeginsWith(self.out)
        })
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
        if self.out.len() > MAX_SORT_KEY_BYTES {
            let size = self.out.len();
            return Err(self.fail(name, text, too_long_reason(KeyRole::Sort, size)));
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
        let (name, format) = self.field();
        let reversed = format == PartFormat::Reverse;
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
        // The key text up to the field and the literal after it: what every
        // key holding this value starts with. Longer than a sort key holds,
        // no stored key can hold the value.
        if self.out.len() > MAX_SORT_KEY_BYTES {
            let size = self.out.len();
            let value = field_value(self.tpl, format, &self.out[start..end]);
            return Err(self.fail(name, &value, too_long_reason(KeyRole::Sort, size)));
        }
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
