//! Sort-key conditions. The generated builders compute the text bounds; this
//! module turns them into the one range DynamoDB accepts per query.
//!
//! A condition stays inside the template's literal prefix (`SITE#…`), so a
//! typed query reads only its own type: `ge(v)` under a prefix is
//! `BETWEEN prefix+v AND prefix+U+10FFFF`, never a bare `>=` that would run
//! into the next type's items. Key text never holds U+10FFFF, and escaped
//! text nothing at or below its delimiter, which makes these bounds exact.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use dynakey_core::template::escape_into;

use super::template::{check_raw, field_value, PartFormat, TemplatePart};
use super::typed::KeyKind;
use super::writer::KeyWriter;
use super::HIGH;
use crate::error::{KeyFormatError, KeyFormatReason, KeyRole, MAX_SORT_KEY_BYTES};

/// The comparison a [`SortKeyCondition`] sends.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SortKeyOp {
    /// `sk = :v`
    Eq(String),
    /// `sk < :v`
    Lt(String),
    /// `sk <= :v`
    Le(String),
    /// `sk > :v`
    Gt(String),
    /// `sk >= :v`
    Ge(String),
    /// `sk BETWEEN :a AND :b` (both inclusive)
    Between(String, String),
    /// `begins_with(sk, :p)`
    BeginsWith(String),
    /// Every sort key: the query sends no sort-key condition (a
    /// `begins_with()` of a template with no literal prefix).
    All,
    /// No sort key: the query returns nothing and sends no request
    /// (`between` with its bounds in the wrong order).
    Empty,
    /// A native index key's condition: a leading run of its sort
    /// attributes by equality, then at most one range on the next one.
    Native(NativeSortOp),
}

/// The condition on a native index's sort attributes (see
/// [`SortKeyOp::Native`]): `a = :v AND b = :w AND c < :x`.
#[derive(Debug, Clone, PartialEq)]
pub struct NativeSortOp {
    /// The leading attributes fixed, with their values, in key order.
    pub eq: Vec<(&'static str, AttributeValue)>,
    /// The one comparison on the attribute after them, if any.
    pub range: Option<(&'static str, NativeRange)>,
}

// Attribute values hold no floats: equality is an equivalence.
impl Eq for NativeSortOp {}

/// The one range of a [`NativeSortOp`].
#[derive(Debug, Clone, PartialEq)]
pub enum NativeRange {
    /// `a < :v`
    Lt(AttributeValue),
    /// `a <= :v`
    Le(AttributeValue),
    /// `a > :v`
    Gt(AttributeValue),
    /// `a >= :v`
    Ge(AttributeValue),
    /// `a BETWEEN :lo AND :hi` (`lo <= hi`)
    Between(AttributeValue, AttributeValue),
    /// `begins_with(a, :p)` (S and B attributes only)
    BeginsWith(AttributeValue),
}

impl Eq for NativeRange {}

impl SortKeyOp {
    /// Whether the sort key `sk` satisfies the comparison (DynamoDB
    /// compares strings by their UTF-8 bytes, as `str` orders).
    ///
    /// ```
    /// use dynakey_runtime::SortKeyOp;
    /// assert!(SortKeyOp::BeginsWith("NOTE#".into()).matches("NOTE#1"));
    /// assert!(SortKeyOp::Between("a".into(), "c".into()).matches("b"));
    /// assert!(!SortKeyOp::Lt("b".into()).matches("b"));
    /// assert!(SortKeyOp::All.matches("x") && !SortKeyOp::Empty.matches("x"));
    /// ```
    pub fn matches(&self, sk: &str) -> bool {
        match self {
            SortKeyOp::Eq(v) => sk == v,
            SortKeyOp::Lt(v) => sk < v.as_str(),
            SortKeyOp::Le(v) => sk <= v.as_str(),
            SortKeyOp::Gt(v) => sk > v.as_str(),
            SortKeyOp::Ge(v) => sk >= v.as_str(),
            SortKeyOp::Between(a, b) => a.as_str() <= sk && sk <= b.as_str(),
            SortKeyOp::BeginsWith(p) => sk.starts_with(p.as_str()),
            SortKeyOp::All => true,
            SortKeyOp::Empty => false,
            // Several typed attributes, not one text: checked by the index.
            SortKeyOp::Native(_) => true,
        }
    }

    /// The same comparison with every bound at most `limit` bytes long
    /// (DynamoDB's sort-key limit): a bound the conditions extend with
    /// U+10FFFF ("everything under this text") or with U+0001 ("just
    /// above this text") can pass the limit by those few bytes while the
    /// text itself fits. Such a bound is replaced by the one that selects
    /// the same keys among those that fit in `limit` bytes, so a condition
    /// on a key at the limit still reads exactly its keys.
    ///
    /// ```
    /// use dynakey_runtime::SortKeyOp;
    /// let p = "a".repeat(1022);
    /// let op = SortKeyOp::Between(p.clone(), format!("{p}\u{10FFFF}"));
    /// // 1,026 bytes: the highest text of 2 bytes, U+07FF, bounds the same keys.
    /// assert_eq!(op.fit(1024), SortKeyOp::Between(p.clone(), format!("{p}\u{7FF}")));
    /// let full = "a".repeat(1024);
    /// // Above a key at the limit: the next key that fits.
    /// let op = SortKeyOp::Between(format!("{full}\u{1}"), format!("{}\u{10FFFF}", "a".repeat(10)));
    /// assert_eq!(op.fit(1024), SortKeyOp::Between(format!("{}b", "a".repeat(1023)), format!("{}\u{10FFFF}", "a".repeat(10))));
    /// ```
    pub fn fit(self, limit: usize) -> SortKeyOp {
        match self {
            SortKeyOp::Le(b) => SortKeyOp::Le(bounds::fit_high(b, limit)),
            SortKeyOp::Gt(b) => SortKeyOp::Gt(bounds::fit_high(b, limit)),
            SortKeyOp::Between(a, b) => {
                let b = bounds::fit_high(b, limit);
                match bounds::fit_low(a, limit) {
                    Some(a) if a <= b => SortKeyOp::Between(a, b),
                    _ => SortKeyOp::Empty,
                }
            }
            op => op,
        }
    }
}

/// A typed condition on the sort key of entity `E` under key kind `K`.
pub struct SortKeyCondition<E, K: KeyKind> {
    pub(crate) index: Option<&'static str>,
    pub(crate) attr: &'static str,
    pub(crate) op: SortKeyOp,
    _marker: PhantomData<fn() -> (E, K)>,
}

impl<E, K: KeyKind> SortKeyCondition<E, K> {
    #[doc(hidden)]
    pub fn __new(index: Option<&'static str>, attr: &'static str, op: SortKeyOp) -> Self {
        Self {
            index,
            attr,
            op,
            _marker: PhantomData,
        }
    }

    /// The index this condition is for; `None` for the table.
    pub fn index(&self) -> Option<&'static str> {
        self.index
    }

    /// The sort key attribute's name; for a native index, its first sort
    /// attribute ([`SortKeyOp::Native`] names every attribute compared).
    pub fn attr(&self) -> &'static str {
        self.attr
    }

    /// The comparison.
    pub fn op(&self) -> &SortKeyOp {
        &self.op
    }

    /// The same condition for another entity that shares the key.
    pub fn cast<F>(self) -> SortKeyCondition<F, K> {
        SortKeyCondition::__new(self.index, self.attr, self.op)
    }
}

impl<E, K: KeyKind> Clone for SortKeyCondition<E, K> {
    fn clone(&self) -> Self {
        Self::__new(self.index, self.attr, self.op.clone())
    }
}

impl<E, K: KeyKind> PartialEq for SortKeyCondition<E, K> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.attr == other.attr && self.op == other.op
    }
}

impl<E, K: KeyKind> fmt::Debug for SortKeyCondition<E, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SortKeyCondition({}: {:?})", self.attr, self.op)
    }
}

/// Text bounds of one field at a given depth of a template.
///
/// `prefix` is the key text before the field (literals and the fields fixed
/// so far); `value` is the field's text; `next` is the literal that follows
/// the field in the template (it starts with the field's delimiter), or `""`
/// when nothing follows it.
///
/// `next` is what makes the bounds exact for a field of variable width: a
/// city `York` must not select `Yorkshire`, so "the field is `York`" is
/// `begins_with(prefix + "York#")`, not `begins_with(prefix + "York")`. The
/// bounds assume, like the order of composite keys itself, that the
/// delimiter sorts below every character of the field's text, which the
/// escaping of [`KeyWriter`](super::KeyWriter) makes true for every value.
#[doc(hidden)]
pub mod bounds {
    use super::*;

    fn upper(prefix: &str) -> String {
        let mut s = String::with_capacity(prefix.len() + 4);
        s.push_str(prefix);
        s.push(HIGH);
        s
    }

    /// The highest key whose field text is `value` (trailing parts included).
    fn through(prefix: &str, value: &str, next: &str) -> String {
        let mut s = String::with_capacity(prefix.len() + value.len() + next.len() + 4);
        s.push_str(prefix);
        s.push_str(value);
        if !next.is_empty() {
            s.push_str(next);
            s.push(HIGH);
        }
        s
    }

    /// The largest key text below `prefix+value` that still starts with
    /// `prefix`: the last character lowered by one, then U+10FFFF.
    fn below(prefix: &str, value: &str) -> Option<String> {
        let mut s = String::with_capacity(prefix.len() + value.len() + 4);
        s.push_str(prefix);
        s.push_str(value);
        let last = s.pop()?;
        let mut c = last as u32;
        loop {
            if c == 0 {
                return Some(s);
            }
            c -= 1;
            if let Some(ch) = char::from_u32(c) {
                s.push(ch);
                s.push(HIGH);
                return Some(s);
            }
        }
    }

    /// `field == value`: equality for the last field, otherwise
    /// `begins_with` of the field and the literal after it.
    pub fn eq(prefix: &str, value: &str, next: &str) -> SortKeyOp {
        if next.is_empty() {
            SortKeyOp::Eq(format!("{prefix}{value}"))
        } else {
            SortKeyOp::BeginsWith(format!("{prefix}{value}{next}"))
        }
    }

    /// `field >= value`.
    pub fn ge(prefix: &str, value: &str, _next: &str) -> SortKeyOp {
        if prefix.is_empty() {
            SortKeyOp::Ge(value.to_owned())
        } else {
            SortKeyOp::Between(format!("{prefix}{value}"), upper(prefix))
        }
    }

    /// `field > value`.
    pub fn gt(prefix: &str, value: &str, next: &str) -> SortKeyOp {
        let from = through(prefix, value, next);
        if prefix.is_empty() {
            SortKeyOp::Gt(from)
        } else if next.is_empty() {
            // The smallest text above `from`: control characters are not
            // allowed in key values, so `from` + U+0001 starts the range.
            SortKeyOp::Between(format!("{from}\u{1}"), upper(prefix))
        } else {
            SortKeyOp::Between(from, upper(prefix))
        }
    }

    /// `field <= value`.
    pub fn le(prefix: &str, value: &str, next: &str) -> SortKeyOp {
        let to = through(prefix, value, next);
        if prefix.is_empty() {
            SortKeyOp::Le(to)
        } else {
            SortKeyOp::Between(prefix.to_owned(), to)
        }
    }

    /// `field < value`.
    pub fn lt(prefix: &str, value: &str, _next: &str) -> SortKeyOp {
        if prefix.is_empty() {
            return SortKeyOp::Lt(value.to_owned());
        }
        match below(prefix, value) {
            Some(to) if to.as_str() >= prefix => SortKeyOp::Between(prefix.to_owned(), to),
            // Nothing under the prefix is below an empty value.
            _ => SortKeyOp::Empty,
        }
    }

    /// `lo <= field <= hi`; nothing when `lo > hi`.
    pub fn between(prefix: &str, lo: &str, hi: &str, next: &str) -> SortKeyOp {
        if lo > hi {
            return SortKeyOp::Empty;
        }
        SortKeyOp::Between(format!("{prefix}{lo}"), through(prefix, hi, next))
    }

    /// The highest character whose UTF-8 takes at most `bytes` bytes.
    fn highest_of(bytes: usize) -> Option<char> {
        match bytes {
            0 => None,
            1 => Some('\u{7F}'),
            2 => Some('\u{7FF}'),
            3 => Some('\u{FFFF}'),
            _ => Some(HIGH),
        }
    }

    /// An upper bound `text + U+10FFFF` longer than `limit` bytes, as the
    /// bound that orders the same among keys of at most `limit` bytes:
    /// such a key that starts with `text` has at most `limit - text.len()`
    /// bytes after it, and the highest character of that many bytes is
    /// at or above all of them (UTF-8 orders as its code points).
    pub fn fit_high(b: String, limit: usize) -> String {
        if b.len() <= limit || !b.ends_with(HIGH) {
            return b;
        }
        let mut s = b;
        s.pop();
        if s.len() > limit {
            return s;
        }
        if let Some(c) = highest_of(limit - s.len()) {
            s.push(c);
        }
        s
    }

    /// A lower bound `text + U+0001` ("above `text`": key text holds no
    /// control character) longer than `limit` bytes: the smallest text of
    /// at most `limit` bytes above `text`, or `None` when there is none.
    pub fn fit_low(a: String, limit: usize) -> Option<String> {
        if a.len() <= limit || !a.ends_with('\u{1}') {
            return Some(a);
        }
        let mut s = a;
        s.pop();
        // `s` fills the limit, so a key above it differs from it at some
        // character, which is higher there; the last one that can be raised
        // within the limit gives the smallest such key.
        while let Some(c) = s.pop() {
            let next = match c {
                '\u{D7FF}' => Some('\u{E000}'),
                c => char::from_u32(c as u32 + 1),
            };
            if let Some(n) = next.filter(|n| s.len() + n.len_utf8() <= limit) {
                s.push(n);
                return Some(s);
            }
        }
        None
    }

    /// `begins_with(prefix)`; every key when the prefix is empty.
    pub fn begins_with(prefix: &str) -> SortKeyOp {
        if prefix.is_empty() {
            SortKeyOp::All
        } else {
            SortKeyOp::BeginsWith(prefix.to_owned())
        }
    }
}

/// The sort-key conditions over a partly written key: the fields written
/// so far fix a prefix, and the next field is compared.
impl KeyWriter {
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
                escape_into(&mut self.out, text, esc).map_err(|found| {
                    self.fail(name, text, KeyFormatReason::ForbiddenChar { found })
                })?;
            }
        }
        if self.out.len() > MAX_SORT_KEY_BYTES {
            let size = self.out.len();
            return Err(self.fail(
                name,
                text,
                KeyFormatReason::TooLong {
                    role: KeyRole::Sort,
                    size,
                },
            ));
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
            return Err(self.fail(
                name,
                &value,
                KeyFormatReason::TooLong {
                    role: KeyRole::Sort,
                    size,
                },
            ));
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
