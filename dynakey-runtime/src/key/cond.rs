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

use super::typed::KeyKind;
use super::HIGH;

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
