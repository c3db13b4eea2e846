//! A key as one expression: what derived code writes a key with.
//!
//! [`KeyBuilder`] takes one placeholder's value per call, in template order,
//! and keeps the first error for the end, so a derived `key()`, `to_item`
//! or typed update writes each key as one chain of calls, with no branch
//! and no function of its own per template (what every user compiles on
//! every edit stays small). A value that is absent (an `Option` input of a
//! sparse index, or an empty `omit_empty` one) makes the whole key absent:
//! the item is out of the index.

use super::formats::{KeyDecimal, KeyPadded, KeyReverse, KeySigned, KeyText};
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
}

#[derive(Debug, Clone)]
enum State {
    Writing(KeyWriter),
    Failed(KeyFormatError),
    Absent,
}

impl KeyBuilder {
    /// A key of template `tpl`.
    pub fn new(tpl: &'static KeyTemplate) -> Self {
        KeyBuilder {
            tpl,
            state: State::Writing(KeyWriter::new(tpl)),
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
        self.write(|w| w.text(v))
    }

    /// The next placeholder, `d<w>`.
    pub fn padded<T: KeyPadded>(self, v: &T) -> Self {
        self.write(|w| w.padded(v))
    }

    /// The next placeholder, `n<w>`.
    pub fn signed<T: KeySigned>(self, v: &T) -> Self {
        self.write(|w| w.signed(v))
    }

    /// The next placeholder, `n<w>.<p>`.
    pub fn decimal<T: KeyDecimal>(self, v: &T) -> Self {
        self.write(|w| w.decimal(v))
    }

    /// The next placeholder, `rev`.
    pub fn reverse<T: KeyReverse>(self, v: &T) -> Self {
        self.write(|w| w.reverse(v))
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

    /// [`text`](Self::text) of an input that may be absent.
    pub fn opt_text<T: KeyText>(self, v: Option<&T>) -> Self {
        match v {
            Some(v) => self.text(v),
            None => self.absent_if(true),
        }
    }

    /// [`padded`](Self::padded) of an input that may be absent.
    pub fn opt_padded<T: KeyPadded>(self, v: Option<&T>) -> Self {
        match v {
            Some(v) => self.padded(v),
            None => self.absent_if(true),
        }
    }

    /// [`signed`](Self::signed) of an input that may be absent.
    pub fn opt_signed<T: KeySigned>(self, v: Option<&T>) -> Self {
        match v {
            Some(v) => self.signed(v),
            None => self.absent_if(true),
        }
    }

    /// [`decimal`](Self::decimal) of an input that may be absent.
    pub fn opt_decimal<T: KeyDecimal>(self, v: Option<&T>) -> Self {
        match v {
            Some(v) => self.decimal(v),
            None => self.absent_if(true),
        }
    }

    /// [`reverse`](Self::reverse) of an input that may be absent.
    pub fn opt_reverse<T: KeyReverse>(self, v: Option<&T>) -> Self {
        match v {
            Some(v) => self.reverse(v),
            None => self.absent_if(true),
        }
    }

    /// The key text, or `None` when an input is absent.
    pub fn finish_opt(self) -> Option<Result<String, KeyFormatError>> {
        match self.state {
            State::Writing(w) => Some(w.finish()),
            State::Failed(e) => Some(Err(e)),
            State::Absent => None,
        }
    }

    /// The key text (an absent input is refused as an empty one: only a
    /// sparse index's keys can be absent).
    pub fn finish(self) -> Result<String, KeyFormatError> {
        let tpl = self.tpl;
        self.finish_opt().unwrap_or_else(|| {
            Err(tpl.err(
                "",
                super::formats::KeyPartError::new("", crate::error::KeyFormatReason::Empty),
            ))
        })
    }

    /// A typed partition key of the template's attribute and index.
    pub fn partition<E, K: KeyKind>(self) -> Result<PartitionKey<E, K>, KeyFormatError> {
        let tpl = self.tpl;
        Ok(PartitionKey::__new(tpl.index(), tpl.attr(), self.finish()?))
    }

    /// The table key of one item: this partition key, and the sort key
    /// `sk` when the table has one.
    pub fn table_key<E>(self, sk: Option<KeyBuilder>) -> Result<Key<E>, KeyFormatError> {
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
        sk: Option<KeyBuilder>,
    ) -> Result<(String, Option<String>), KeyFormatError> {
        let pk = self.finish()?;
        let sk = sk.map(KeyBuilder::finish).transpose()?;
        Ok((pk, sk))
    }
}
