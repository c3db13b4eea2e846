//! A key as one expression: what derived code writes a key with.
//!
//! [`KeyBuilder`] takes one placeholder's value per call, in template order,
//! and keeps the first error for the end, so a derived `key()`, `to_item`
//! or typed update writes each key as one chain of calls, with no branch
//! and no function of its own per template (what every user compiles on
//! every edit stays small). A value that is absent (an `Option` input of a
//! sparse index, or an empty `omit_empty` one) makes the whole key absent:
//! the item is out of the index.

use super::form::{self, KeyForm};
use super::formats::{KeyDecimal, KeyPadded, KeyReverse, KeySigned, KeyText};
use super::limit::KeyRole;
use super::template::KeyTemplate;
use super::typed::{Key, KeyKind, PartitionKey};
use super::writer::KeyWriter;
use crate::error::KeyFormatError;

/// A key being written (see the module docs).
///
/// ```
/// use dynakey_runtime::key::{parts, KeyBuilder, KeyTemplate, TemplatePart};
/// const P: [TemplatePart; 4] = parts::<4>("SITE#<city>#<n:d6>");
/// static T: KeyTemplate = KeyTemplate::new("EMP", "SITE#<city>#<n:d6>", &P);
/// assert_eq!(KeyBuilder::new(&T).str("Oslo").padded(&7u32).finish().unwrap(), "SITE#Oslo#000007");
/// // The first error is the one reported.
/// assert!(KeyBuilder::new(&T).str("").padded(&7u32).finish().is_err());
/// // An absent input: no key at all.
/// assert!(KeyBuilder::new(&T).opt_str(None::<&String>).padded(&7u32).finish_opt().is_none());
/// ```
#[must_use = "a key does nothing until finished"]
#[derive(Debug, Clone)]
pub struct KeyBuilder {
    tpl: &'static KeyTemplate,
    state: State,
    /// Whether a `slot_*` input was given (set or removed): a typed
    /// update rewrites the key then, and leaves it alone otherwise.
    touched: bool,
}

#[derive(Debug, Clone)]
enum State {
    Writing(KeyWriter),
    Failed(KeyFormatError),
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

impl KeyBuilder {
    /// A key of template `tpl`.
    pub fn new(tpl: &'static KeyTemplate) -> Self {
        KeyBuilder {
            tpl,
            state: State::Writing(KeyWriter::new(tpl)),
            touched: false,
        }
    }

    fn write(mut self, f: impl FnOnce(&mut KeyWriter) -> Result<(), KeyFormatError>) -> Self {
        if let State::Writing(w) = &mut self.state {
            if let Err(e) = f(w) {
                self.state = State::Failed(e);
            }
        }
        self
    }

    /// The next placeholder, a string.
    pub fn str(self, v: &str) -> Self {
        self.write(|w| w.str(v))
    }

    /// The next placeholder, through its [`KeyText`] form.
    pub fn text<T: KeyText>(self, v: &T) -> Self {
        self.part(form::text(), v)
    }

    /// The next placeholder, `d<w>`.
    pub fn padded<T: KeyPadded>(self, v: &T) -> Self {
        self.part(form::padded(), v)
    }

    /// The next placeholder, `n<w>`.
    pub fn signed<T: KeySigned>(self, v: &T) -> Self {
        self.part(form::signed(), v)
    }

    /// The next placeholder, `n<w>.<p>`.
    pub fn decimal<T: KeyDecimal>(self, v: &T) -> Self {
        self.part(form::decimal(), v)
    }

    /// The next placeholder, `rev`.
    pub fn reverse<T: KeyReverse>(self, v: &T) -> Self {
        self.part(form::reverse(), v)
    }

    /// The next placeholder, in form `form` (how derived code writes every
    /// non-string placeholder; see [`KeyForm`]).
    pub fn part<T>(self, form: KeyForm<T>, v: &T) -> Self {
        self.write(|w| form.write(w, v))
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
        if absent && matches!(self.state, State::Writing(_)) {
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

    /// The key text, or `None` when an input is absent; held to the limit
    /// of its template's role ([`KeyTemplate::role`]; see
    /// [`finish_opt_as`](Self::finish_opt_as)).
    pub fn finish_opt(self) -> Option<Result<String, KeyFormatError>> {
        let role = self.tpl.role();
        self.finish_opt_as(role)
    }

    /// The text of a key of `role` (its size limit checked after escaping,
    /// the longest field named when it is over), or `None` when an input
    /// is absent.
    ///
    /// ```
    /// use dynakey_runtime::key::{parts, KeyBuilder, KeyRole, KeyTemplate, TemplatePart};
    /// const P: [TemplatePart; 2] = parts::<2>("DOC#<id>");
    /// static T: KeyTemplate = KeyTemplate::new("DOC", "DOC#<id>", &P);
    /// let long = "x".repeat(1021); // 1,025 bytes with "DOC#"
    /// assert!(KeyBuilder::new(&T).str(&long).finish_opt_as(KeyRole::Partition).unwrap().is_ok());
    /// let err = KeyBuilder::new(&T).str(&long).finish_opt_as(KeyRole::Sort).unwrap().unwrap_err();
    /// assert_eq!(err.field, "id");
    /// assert!(err.to_string().contains("sort key 1025 bytes"), "{err}");
    /// ```
    pub fn finish_opt_as(self, role: KeyRole) -> Option<Result<String, KeyFormatError>> {
        match self.state {
            State::Writing(w) => Some(w.finish_as(role)),
            State::Failed(e) => Some(Err(e)),
            State::Absent => None,
        }
    }

    /// The key text (an absent input is refused as an empty one: only a
    /// sparse index's keys can be absent), held to the limit of its
    /// template's role ([`KeyTemplate::role`]).
    pub fn finish(self) -> Result<String, KeyFormatError> {
        let role = self.tpl.role();
        self.finish_as(role)
    }

    /// [`finish`](Self::finish) of a key of `role`.
    pub fn finish_as(self, role: KeyRole) -> Result<String, KeyFormatError> {
        let tpl = self.tpl;
        self.finish_opt_as(role).unwrap_or_else(|| {
            Err(tpl.err(
                "",
                super::formats::KeyPartError::new("", crate::error::KeyFormatReason::Empty),
            ))
        })
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
        Ok((tpl.index(), tpl.attr(), self.finish_as(KeyRole::Partition)?))
    }

    /// The table key of one item: this partition key, and the sort key
    /// `sk` when the table has one.
    pub fn table_key<E>(self, sk: Option<KeyBuilder>) -> Result<Key<E>, KeyFormatError> {
        self.untyped_table_key(sk).map(Key::retype)
    }

    /// [`table_key`](Self::table_key) without the entity (not generic, so
    /// one copy serves every entity).
    fn untyped_table_key(self, sk: Option<KeyBuilder>) -> Result<Key<()>, KeyFormatError> {
        let pk_attr = self.tpl.attr();
        let pk = self.finish_as(KeyRole::Partition)?;
        let sk = match sk {
            Some(b) => Some((b.tpl.attr(), b.finish_as(KeyRole::Sort)?)),
            None => None,
        };
        Ok(Key::__new(pk_attr, pk, sk))
    }

    /// The key texts an item gets in an index: this partition key, and the
    /// sort key `sk` when the index has one.
    pub fn index_key(
        self,
        sk: Option<KeyBuilder>,
    ) -> Result<(String, Option<String>), KeyFormatError> {
        let pk = self.finish_as(KeyRole::Partition)?;
        let sk = sk.map(|b| b.finish_as(KeyRole::Sort)).transpose()?;
        Ok((pk, sk))
    }
}
