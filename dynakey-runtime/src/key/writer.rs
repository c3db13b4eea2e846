//! Writing a key: the one writer every key goes through, from a derived
//! entity's `to_item`, key functions and typed updates to `parse_*`'s
//! forms and the sort-key conditions (in `cond.rs`).
//!
//! [`KeyWriter`] takes one placeholder's value per call, in template order,
//! as a (form, value) pair ([`KeyForm`]; a string as it is), and keeps the
//! first error for the end, so a derived `key()`, `to_item` or typed update
//! writes each key as one chain of calls, with no branch and no function of
//! its own per template (what every user compiles on every edit stays
//! small). A value that is absent (an `Option` input of a sparse index, or
//! an empty `omit_empty` one) makes the whole key absent: the item is out
//! of the index. [`finish`](KeyWriter::finish) checks the key's size once,
//! against its template's role; nothing checks it again before it is sent.

use std::fmt;

use dynakey_core::template::escape_into;

use super::formats::{KeyDecimal, KeyPadded, KeyPartError, KeyReverse, KeySigned, KeyText};
use super::reader::KeyReader;
use super::template::{check_raw, field_value, mismatch, KeyTemplate, PartFormat, TemplatePart};
use super::typed::{Key, KeyKind, PartitionKey};
use crate::error::{KeyFormatError, KeyFormatReason, KeyRole};

/// A key being written: one placeholder's value per call, in template
/// order, as a (form, value) pair ([`KeyForm`]; a string as it is), the
/// first error kept for the end; an absent input (a sparse index's) makes
/// the whole key absent. [`finish`](Self::finish) checks the key's size
/// once, against its template's role: nothing checks it again before it
/// is sent. Sort-key conditions take a writer with the leading fields
/// written ([`begins_with`](Self::begins_with), [`lt`](Self::lt), ...).
///
/// ```
/// use dynakey_runtime::key::{form, parts, KeyTemplate, KeyWriter, TemplatePart};
/// const P: [TemplatePart; 4] = parts::<4>("SITE#<city>#<n:d6>");
/// static T: KeyTemplate = KeyTemplate::new("EMP", "SITE#<city>#<n:d6>", &P);
/// let n = form::padded::<u32>();
/// assert_eq!(KeyWriter::new(&T).str("Oslo").part(n, &7).finish().unwrap(), "SITE#Oslo#000007");
/// // The first error is the one reported.
/// assert!(KeyWriter::new(&T).str("").part(n, &7).finish().is_err());
/// // An absent input: no key at all.
/// assert!(KeyWriter::new(&T).opt_str(None::<&String>).part(n, &7).finish_opt().is_none());
/// // Field by field, each write answering for itself (as conditions do).
/// let mut w = KeyWriter::new(&T);
/// w.write_str("Oslo").unwrap();
/// assert!(w.write(n, &10_000_000).is_err());
/// ```
#[must_use = "a key does nothing until finished"]
#[derive(Debug, Clone)]
pub struct KeyWriter {
    pub(super) tpl: &'static KeyTemplate,
    pub(super) out: String,
    pub(super) at: usize,
    /// The field written so far whose text is the longest: its part
    /// index and where its text lies in `out` (what a key too long for
    /// its limit is blamed on).
    widest: Option<(usize, usize, usize)>,
    state: State,
    /// Whether a `slot_*` input was given (set or removed): a typed
    /// update rewrites the key then, and leaves it alone otherwise.
    touched: bool,
}

/// Where a chain of writes stands.
#[derive(Debug, Clone)]
enum State {
    Writing,
    /// The first error met: what follows is not written.
    Failed(KeyFormatError),
    /// An input is absent: so is the key.
    Absent,
}

/// A typed update's kept value of a field that feeds an index key:
/// whether the update touches the field (sets or removes it), and its
/// value if it has one. See [`slot`] and [`slot_opt`].
pub type Slot<'a, T> = (bool, Option<&'a T>);

/// The [`Slot`] of a field a typed update keeps as `Option<T>` (`None`
/// until a setter gives it).
pub fn slot<T>(v: &Option<T>) -> Slot<'_, T> {
    (v.is_some(), v.as_ref())
}

/// The [`Slot`] of an `Option` field kept as `Option<Option<T>>`
/// (`Some(None)` once removed).
pub fn slot_opt<T>(v: &Option<Option<T>>) -> Slot<'_, T> {
    (v.is_some(), v.as_ref().and_then(Option::as_ref))
}

impl KeyWriter {
    /// A writer at the start of `tpl` (its leading literal written).
    pub fn new(tpl: &'static KeyTemplate) -> Self {
        let mut w = KeyWriter {
            tpl,
            out: String::with_capacity(tpl.text.len() + 16),
            at: 0,
            widest: None,
            state: State::Writing,
            touched: false,
        };
        w.lits();
        w
    }

    /// One write of a chain: skipped once the chain failed or an input is
    /// absent; its error kept for the end.
    fn chain(mut self, f: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>) -> Self {
        if let State::Writing = self.state {
            if let Err(e) = f(&mut self) {
                self.state = State::Failed(e);
            }
        }
        self
    }

    /// The next placeholder, a string.
    pub fn str(self, v: &str) -> Self {
        self.chain(|w| w.write_str(v))
    }

    /// The next placeholder, in form `form` (how derived code writes every
    /// non-string placeholder; see [`KeyForm`]).
    pub fn part<T>(self, form: KeyForm<T>, v: &T) -> Self {
        self.chain(|w| w.write(form, v))
    }

    /// [`part`](Self::part) of an input that may be absent.
    pub fn opt_part<T>(self, form: KeyForm<T>, v: Option<&T>) -> Self {
        match v {
            Some(v) => self.part(form, v),
            None => self.absent_if(true),
        }
    }

    /// [`opt_part`](Self::opt_part) of a typed update's kept value (see [`Slot`]).
    pub fn slot_part<T>(mut self, form: KeyForm<T>, (touched, v): Slot<'_, T>) -> Self {
        self.touched |= touched;
        self.opt_part(form, v)
    }

    /// The key is absent when `absent` holds (an empty `omit_empty` input
    /// of a sparse index): what follows is not written.
    pub fn absent_if(mut self, absent: bool) -> Self {
        if absent && matches!(self.state, State::Writing) {
            self.state = State::Absent;
        }
        self
    }

    /// [`str`](Self::str) of an input that may be absent.
    pub fn opt_str<S: AsRef<str> + ?Sized>(self, v: Option<&S>) -> Self {
        match v {
            Some(v) => self.str(v.as_ref()),
            None => self.absent_if(true),
        }
    }

    /// The template the key is written by.
    pub fn template(&self) -> &'static KeyTemplate {
        self.tpl
    }

    /// Whether a `slot_*` input was touched.
    pub fn touched(&self) -> bool {
        self.touched
    }

    /// [`opt_str`](Self::opt_str) of a typed update's kept value (see [`Slot`]).
    pub fn slot_str<S: AsRef<str>>(mut self, (touched, v): Slot<'_, S>) -> Self {
        self.touched |= touched;
        self.opt_str(v)
    }

    /// Writes the next placeholder, `v` in form `form`, answering for it
    /// at once (what a sort-key condition writes a field with).
    pub fn write<T>(&mut self, form: KeyForm<T>, v: &T) -> Result<(), KeyFormatError> {
        (form.write)(self, v)
    }

    /// Writes the next placeholder, a string, answering for it at once.
    pub fn write_str(&mut self, v: &str) -> Result<(), KeyFormatError> {
        let (name, format) = self.field();
        let start = self.out.len();
        self.push_text(name, format, v)?;
        self.advance(start);
        Ok(())
    }

    fn lits(&mut self) {
        while let Some(TemplatePart::Lit(l)) = self.tpl.parts.get(self.at) {
            self.out.push_str(l);
            self.at += 1;
        }
    }

    /// The placeholder to write next.
    pub(super) fn field(&self) -> (&'static str, PartFormat) {
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

    pub(super) fn fail(
        &self,
        field: &'static str,
        value: &str,
        reason: KeyFormatReason,
    ) -> KeyFormatError {
        self.tpl.err(field, KeyPartError::new(value, reason))
    }

    /// Appends variable-width text under the template's rules.
    pub(super) fn push_text(
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
            escape_into(&mut self.out, v, esc)
                .map_err(|found| self.fail(name, v, KeyFormatReason::ForbiddenChar { found }))
        }
    }

    /// Writes an unformatted field through its [`KeyText`] form.
    fn text<T: KeyText>(&mut self, v: &T) -> Result<(), KeyFormatError> {
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
    fn padded<T: KeyPadded>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Padded(w) => v.write_padded(w, out),
            _ => Err(mismatch()),
        })
    }

    /// Writes an `n<w>` field.
    fn signed<T: KeySigned>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Signed(w) => v.write_signed(w, out),
            _ => Err(mismatch()),
        })
    }

    /// Writes an `n<w>.<p>` field.
    fn decimal<T: KeyDecimal>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Decimal(w, p) => v.write_decimal(w, p, out),
            _ => Err(mismatch()),
        })
    }

    /// Writes a `rev` field.
    fn reverse<T: KeyReverse>(&mut self, v: &T) -> Result<(), KeyFormatError> {
        self.fixed(|f, out| match f {
            PartFormat::Reverse => v.write_reverse(out),
            _ => Err(mismatch()),
        })
    }

    /// The key text, or `None` when an input is absent. The one check of
    /// its size: held to the limit of its template's role
    /// ([`KeyTemplate::role`]: 2,048 bytes for a partition key or a
    /// template made by hand, 1,024 for a sort key) after escaping, the
    /// field whose text is the longest named when it is over. What is sent
    /// is not checked again.
    ///
    /// ```
    /// use dynakey_runtime::key::{parts, KeyRole, KeyTemplate, KeyWriter, TemplatePart};
    /// use dynakey_runtime::KeyFormatReason;
    /// const P: [TemplatePart; 2] = parts::<2>("D#<id>");
    /// static PK: KeyTemplate = KeyTemplate::new("DOC", "D#<id>", &P).of_role(KeyRole::Partition);
    /// static SK: KeyTemplate = KeyTemplate::new("DOC", "D#<id>", &P).of_role(KeyRole::Sort);
    /// let id = "#".repeat(341); // 341 x "%23": 1,023 bytes, 1,025 with "D#"
    /// assert_eq!(KeyWriter::new(&PK).str(&id).finish_opt().unwrap().unwrap().len(), 1025);
    /// let err = KeyWriter::new(&SK).str(&id).finish_opt().unwrap().unwrap_err();
    /// assert_eq!(err.field, "id");
    /// assert_eq!(err.reason, KeyFormatReason::TooLong { role: KeyRole::Sort, size: 1025 });
    /// assert!(err.to_string().contains("sort key 1025 bytes"), "{err}");
    /// ```
    pub fn finish_opt(mut self) -> Option<Result<String, KeyFormatError>> {
        match std::mem::replace(&mut self.state, State::Writing) {
            State::Failed(e) => Some(Err(e)),
            State::Absent => None,
            State::Writing if self.out.is_empty() => {
                Some(Err(self.fail("", "", KeyFormatReason::Empty)))
            }
            State::Writing => Some(
                self.check_len(self.tpl.role(), self.out.len())
                    .map(|()| self.out),
            ),
        }
    }

    /// The key text (an absent input is refused as an empty one: only a
    /// sparse index's keys can be absent), held to the limit of its
    /// template's role ([`finish_opt`](Self::finish_opt)).
    pub fn finish(self) -> Result<String, KeyFormatError> {
        let tpl = self.tpl;
        self.finish_opt()
            .unwrap_or_else(|| Err(tpl.err("", KeyPartError::new("", KeyFormatReason::Empty))))
    }

    /// Refuses a key (or a key prefix, of a condition) of `size` bytes
    /// when `role` holds fewer, blamed on the longest field written.
    pub(super) fn check_len(&self, role: KeyRole, size: usize) -> Result<(), KeyFormatError> {
        if size <= role.limit() {
            return Ok(());
        }
        let reason = KeyFormatReason::TooLong { role, size };
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

    /// A typed partition key of the template's attribute and index.
    pub fn partition<E, K: KeyKind>(self) -> Result<PartitionKey<E, K>, KeyFormatError> {
        let (index, attr, value) = self.partition_parts()?;
        Ok(PartitionKey::__new(index, attr, value))
    }

    /// What [`partition`](Self::partition) makes a key of: the template's
    /// index and attribute, and the text (not generic, so one copy serves
    /// every entity).
    fn partition_parts(
        self,
    ) -> Result<(Option<&'static str>, &'static str, String), KeyFormatError> {
        let tpl = self.tpl;
        Ok((tpl.index(), tpl.attr(), self.finish()?))
    }

    /// The table key of one item: this partition key, and the sort key
    /// `sk` when the table has one.
    pub fn table_key<E>(self, sk: Option<KeyWriter>) -> Result<Key<E>, KeyFormatError> {
        self.untyped_table_key(sk).map(Key::retype)
    }

    /// [`table_key`](Self::table_key) without the entity (not generic, so
    /// one copy serves every entity).
    fn untyped_table_key(self, sk: Option<KeyWriter>) -> Result<Key<()>, KeyFormatError> {
        let pk_attr = self.tpl.attr();
        let pk = self.finish()?;
        let sk = match sk {
            Some(b) => Some((b.tpl.attr(), b.finish()?)),
            None => None,
        };
        Ok(Key::__new(pk_attr, pk, sk))
    }

    /// The key texts an item gets in an index: this partition key, and the
    /// sort key `sk` when the index has one.
    pub fn index_key(
        self,
        sk: Option<KeyWriter>,
    ) -> Result<(String, Option<String>), KeyFormatError> {
        let pk = self.finish()?;
        let sk = sk.map(KeyWriter::finish).transpose()?;
        Ok((pk, sk))
    }
}

/// Writes one placeholder's value.
pub type WriteFn<T> = fn(&mut KeyWriter, &T) -> Result<(), KeyFormatError>;

/// Reads one placeholder's value.
pub type ReadFn<T> = fn(&mut KeyReader<'_>) -> Result<T, KeyFormatError>;

/// How a field of type `T` is written into a key and read back (see
/// [`form`](super::form)).
///
/// ```
/// use dynakey_runtime::key::{form, parts, KeyReader, KeyTemplate, KeyWriter, TemplatePart};
/// const P: [TemplatePart; 2] = parts::<2>("N#<n:d4>");
/// static T: KeyTemplate = KeyTemplate::new("E", "N#<n:d4>", &P);
/// let key = KeyWriter::new(&T).part(form::padded::<u16>(), &42).finish().unwrap();
/// assert_eq!(key, "N#0042");
/// let mut r = KeyReader::new(&T, &key).unwrap();
/// assert_eq!(form::padded::<u16>().read(&mut r).unwrap(), 42);
/// ```
pub struct KeyForm<T> {
    write: WriteFn<T>,
    read: ReadFn<T>,
}

impl<T> Clone for KeyForm<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for KeyForm<T> {}

impl<T> fmt::Debug for KeyForm<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KeyForm")
    }
}

impl<T> KeyForm<T> {
    /// Reads the reader's next placeholder.
    pub fn read(self, r: &mut KeyReader<'_>) -> Result<T, KeyFormatError> {
        (self.read)(r)
    }

    /// The writing half, as a function.
    pub fn writer(self) -> WriteFn<T> {
        self.write
    }
}

/// An unformatted placeholder, through the type's [`KeyText`] form.
#[inline]
pub fn text<T: KeyText>() -> KeyForm<T> {
    KeyForm {
        write: KeyWriter::text::<T>,
        read: |r| r.text(),
    }
}

/// A `d<w>` placeholder.
#[inline]
pub fn padded<T: KeyPadded>() -> KeyForm<T> {
    KeyForm {
        write: KeyWriter::padded::<T>,
        read: |r| r.padded(),
    }
}

/// An `n<w>` placeholder.
#[inline]
pub fn signed<T: KeySigned>() -> KeyForm<T> {
    KeyForm {
        write: KeyWriter::signed::<T>,
        read: |r| r.signed(),
    }
}

/// An `n<w>.<p>` placeholder.
#[inline]
pub fn decimal<T: KeyDecimal>() -> KeyForm<T> {
    KeyForm {
        write: KeyWriter::decimal::<T>,
        read: |r| r.decimal(),
    }
}

/// A `rev` placeholder.
#[inline]
pub fn reverse<T: KeyReverse>() -> KeyForm<T> {
    KeyForm {
        write: KeyWriter::reverse::<T>,
        read: |r| r.reverse(),
    }
}
