//! The steps of a sort-key condition chain.
//!
//! `Order::sk().status(s).placed_lt(t)` walks structs the derive generates,
//! one per number of fixed fields, so each step offers only the next field.
//! Each generated step holds one of the types here and dereferences to it:
//! the comparisons on the next field ([`SortKeyNext`], or
//! [`SortKeyTextNext`] when it is text) and on a key with every field fixed
//! ([`SortKeyFull`]) are written once, and the derive generates only the
//! method that fixes each field by name. Every user compiles the derive's
//! output on every edit, so it stays small.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

use super::cond::{SortKeyCondition, SortKeyOp};
use super::template::KeyTemplate;
use super::typed::KeyKind;
use super::writer::KeyWriter;
use crate::error::KeyFormatError;

/// A condition, or the error writing one of its values.
pub type CondResult<E, K> = Result<SortKeyCondition<E, K>, KeyFormatError>;

/// Writes one field's value into a key.
type WriteFn<T> = fn(&mut KeyWriter, &T) -> Result<(), KeyFormatError>;

/// `Clone` and `Debug` of a step that wraps one field, without the bounds
/// on `E` and `K` a derive would add (entities need be neither).
macro_rules! wrapper_impls {
    ($ty:ident, $field:ident) => {
        impl<E, K> Clone for $ty<E, K> {
            fn clone(&self) -> Self {
                $ty {
                    $field: self.$field.clone(),
                }
            }
        }

        impl<E, K> fmt::Debug for $ty<E, K> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.$field.fmt(f)
            }
        }
    };
}

/// A comparison of the next field with the value the writer it is given
/// writes.
type CmpFn = fn(
    KeyWriter,
    &mut dyn FnMut(&mut KeyWriter) -> Result<(), KeyFormatError>,
) -> Result<SortKeyOp, KeyFormatError>;

/// A sort key of entity `E` with its leading fields fixed so far, or the
/// first error writing one (reported when the condition is taken).
struct Chain<E, K> {
    index: Option<&'static str>,
    attr: &'static str,
    w: Result<KeyWriter, KeyFormatError>,
    _marker: PhantomData<fn() -> (E, K)>,
}

impl<E, K> Clone for Chain<E, K> {
    fn clone(&self) -> Self {
        Chain {
            index: self.index,
            attr: self.attr,
            w: self.w.clone(),
            _marker: PhantomData,
        }
    }
}

impl<E, K> fmt::Debug for Chain<E, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("SortKeyChain");
        d.field("index", &self.index).field("attr", &self.attr);
        match &self.w {
            Ok(w) => d.field("fixed", &w.as_str()),
            Err(e) => d.field("error", e),
        };
        d.finish()
    }
}

impl<E, K: KeyKind> Chain<E, K> {
    /// This chain with one more field written (a copy: a step can be
    /// extended more than once).
    fn with<T: ?Sized>(&self, write: WriteFn<T>, v: &T) -> Self {
        Chain {
            index: self.index,
            attr: self.attr,
            w: write_next(&self.w, write, v),
            _marker: PhantomData,
        }
    }

    fn cond(
        &self,
        op: impl FnOnce(KeyWriter) -> Result<SortKeyOp, KeyFormatError>,
    ) -> CondResult<E, K> {
        let op = finish_op(&self.w, op)?;
        Ok(SortKeyCondition::__new(self.index, self.attr, op))
    }
}

/// The writer of a chain with one more field written. Not generic over
/// the entity (as `Chain` is only for its type), so one copy per field
/// type serves every entity.
fn write_next<T: ?Sized>(
    w: &Result<KeyWriter, KeyFormatError>,
    write: WriteFn<T>,
    v: &T,
) -> Result<KeyWriter, KeyFormatError> {
    let mut w = w.clone()?;
    write(&mut w, v)?;
    Ok(w)
}

/// The comparison `op` makes of a chain's writer, fitted to the sort
/// key's size limit (one copy per comparison, for every entity).
fn finish_op(
    w: &Result<KeyWriter, KeyFormatError>,
    op: impl FnOnce(KeyWriter) -> Result<SortKeyOp, KeyFormatError>,
) -> Result<SortKeyOp, KeyFormatError> {
    Ok(op(w.clone()?)?.fit(super::limit::MAX_SORT_KEY_BYTES))
}

/// Conditions on the next field (of type `T`) of a sort key whose leading
/// fields are fixed: what every step of a generated chain offers besides
/// the method that fixes the next field by name.
///
/// ```
/// use dynakey_runtime::key::{form, KeyTemplate, SortKeyNext, SortKeyOp, Table, PartFormat, TemplatePart::*};
/// static T: KeyTemplate = KeyTemplate::new("EMP", "EMP#<n:d4>",
///     &[Lit("EMP#"), Field { name: "n", format: PartFormat::Padded(4) }]);
/// let next: SortKeyNext<(), Table, u32> = SortKeyNext::__new(None, "sk", &T, form::padded::<u32>().writer());
/// assert_eq!(next.ge(7u32).unwrap().op(), &SortKeyOp::Between("EMP#0007".into(), "EMP#\u{10FFFF}".into()));
/// assert_eq!(next.begins_with().unwrap().op(), &SortKeyOp::BeginsWith("EMP#".into()));
/// ```
pub struct SortKeyNext<E, K, T: ?Sized> {
    chain: Chain<E, K>,
    write: WriteFn<T>,
}

impl<E, K, T: ?Sized> Clone for SortKeyNext<E, K, T> {
    fn clone(&self) -> Self {
        SortKeyNext {
            chain: self.chain.clone(),
            write: self.write,
        }
    }
}

impl<E, K, T: ?Sized> fmt::Debug for SortKeyNext<E, K, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.chain.fmt(f)
    }
}

impl<E, K: KeyKind, T: ?Sized> SortKeyNext<E, K, T> {
    /// The first step of the chain of key attribute `attr` (of `index`,
    /// if any) filled by `tpl`, whose first field `write` writes.
    #[doc(hidden)]
    pub fn __new(
        index: Option<&'static str>,
        attr: &'static str,
        tpl: &'static KeyTemplate,
        write: WriteFn<T>,
    ) -> Self {
        let chain = Chain {
            index,
            attr,
            w: Ok(KeyWriter::new(tpl)),
            _marker: PhantomData,
        };
        SortKeyNext { chain, write }
    }

    /// The first step of the chain of the key `tpl` fills, whose first
    /// field `write` writes (its index and attribute come from `tpl`).
    #[doc(hidden)]
    pub fn __of(tpl: &'static KeyTemplate, write: WriteFn<T>) -> Self {
        Self::__new(tpl.index(), tpl.attr(), tpl, write)
    }

    /// Fixes this field to `v`; the next one is written by `write`.
    #[doc(hidden)]
    pub fn __then<U: ?Sized>(&self, v: &T, write: WriteFn<U>) -> SortKeyNext<E, K, U> {
        SortKeyNext {
            chain: self.chain.with(self.write, v),
            write,
        }
    }

    /// Fixes this field, the key's last, to `v`.
    #[doc(hidden)]
    pub fn __end(&self, v: &T) -> SortKeyFull<E, K> {
        SortKeyFull {
            chain: self.chain.with(self.write, v),
        }
    }

    /// Keys whose fixed fields equal the values given: at depth zero, every
    /// item of this type (its literal prefix).
    pub fn begins_with(&self) -> CondResult<E, K> {
        self.chain.cond(KeyWriter::begins_with)
    }

    fn cmp(&self, v: &T, op: CmpFn) -> CondResult<E, K> {
        let write = self.write;
        self.chain.cond(|w| op(w, &mut |w| write(w, v)))
    }

    /// The next field below `v` (within the fields fixed so far).
    pub fn lt(&self, v: impl Borrow<T>) -> CondResult<E, K> {
        self.cmp(v.borrow(), |w, f| w.lt(f))
    }

    /// The next field at or below `v`.
    pub fn le(&self, v: impl Borrow<T>) -> CondResult<E, K> {
        self.cmp(v.borrow(), |w, f| w.le(f))
    }

    /// The next field above `v`.
    pub fn gt(&self, v: impl Borrow<T>) -> CondResult<E, K> {
        self.cmp(v.borrow(), |w, f| w.gt(f))
    }

    /// The next field at or above `v`.
    pub fn ge(&self, v: impl Borrow<T>) -> CondResult<E, K> {
        self.cmp(v.borrow(), |w, f| w.ge(f))
    }

    /// The next field between `lo` and `hi`, both included (nothing when
    /// `lo > hi`).
    pub fn between(&self, lo: impl Borrow<T>, hi: impl Borrow<T>) -> CondResult<E, K> {
        let write = self.write;
        let (lo, hi) = (lo.borrow(), hi.borrow());
        self.chain
            .cond(|w| w.between(|w| write(w, lo), |w| write(w, hi)))
    }
}

/// [`SortKeyNext`] for a text field: values by `AsRef<str>` (so `&String`
/// works too), and a prefix search on the text.
///
/// ```
/// use dynakey_runtime::key::{KeyTemplate, SortKeyTextNext, SortKeyOp, Table, PartFormat, TemplatePart::*};
/// static T: KeyTemplate = KeyTemplate::new("CITY", "CITY#<name>",
///     &[Lit("CITY#"), Field { name: "name", format: PartFormat::Text }]);
/// let next: SortKeyTextNext<(), Table> = SortKeyTextNext::__new(None, "sk", &T);
/// let name = String::from("Oslo");
/// assert_eq!(next.starts_with("Os").unwrap().op(), &SortKeyOp::BeginsWith("CITY#Os".into()));
/// assert!(next.lt(&name).is_ok());
/// ```
pub struct SortKeyTextNext<E, K> {
    next: SortKeyNext<E, K, str>,
}

wrapper_impls!(SortKeyTextNext, next);

fn write_str(w: &mut KeyWriter, v: &str) -> Result<(), KeyFormatError> {
    w.write_str(v)
}

impl<E, K: KeyKind> SortKeyTextNext<E, K> {
    /// The first step of a chain whose first field is text.
    #[doc(hidden)]
    pub fn __new(
        index: Option<&'static str>,
        attr: &'static str,
        tpl: &'static KeyTemplate,
    ) -> Self {
        SortKeyTextNext {
            next: SortKeyNext::__new(index, attr, tpl, write_str),
        }
    }

    /// The first step of the chain of the key `tpl` fills, whose first
    /// field is text.
    #[doc(hidden)]
    pub fn __of(tpl: &'static KeyTemplate) -> Self {
        Self::__new(tpl.index(), tpl.attr(), tpl)
    }

    /// A step whose next field is text.
    #[doc(hidden)]
    pub fn __from<T: ?Sized>(prev: &SortKeyNext<E, K, T>, v: &T) -> Self {
        SortKeyTextNext {
            next: prev.__then(v, write_str),
        }
    }

    /// Fixes this field to `v`; the next one is written by `write`.
    #[doc(hidden)]
    pub fn __then<U: ?Sized>(&self, v: &str, write: WriteFn<U>) -> SortKeyNext<E, K, U> {
        self.next.__then(v, write)
    }

    /// Fixes this field to `v`, the next being text too.
    #[doc(hidden)]
    pub fn __then_text(&self, v: &str) -> SortKeyTextNext<E, K> {
        SortKeyTextNext {
            next: self.next.__then(v, write_str),
        }
    }

    /// Fixes this field, the key's last, to `v`.
    #[doc(hidden)]
    pub fn __end(&self, v: &str) -> SortKeyFull<E, K> {
        self.next.__end(v)
    }

    /// Keys whose fixed fields equal the values given: at depth zero, every
    /// item of this type (its literal prefix).
    pub fn begins_with(&self) -> CondResult<E, K> {
        self.next.begins_with()
    }

    /// Keys whose next field's text starts with `text`: a prefix search on
    /// the text, unlike fixing the field, which fixes the value.
    pub fn starts_with(&self, text: impl AsRef<str>) -> CondResult<E, K> {
        self.next.chain.cond(|w| w.starts_with(text.as_ref()))
    }

    /// The next field below `v` (within the fields fixed so far).
    pub fn lt(&self, v: impl AsRef<str>) -> CondResult<E, K> {
        self.next.lt(v.as_ref())
    }

    /// The next field at or below `v`.
    pub fn le(&self, v: impl AsRef<str>) -> CondResult<E, K> {
        self.next.le(v.as_ref())
    }

    /// The next field above `v`.
    pub fn gt(&self, v: impl AsRef<str>) -> CondResult<E, K> {
        self.next.gt(v.as_ref())
    }

    /// The next field at or above `v`.
    pub fn ge(&self, v: impl AsRef<str>) -> CondResult<E, K> {
        self.next.ge(v.as_ref())
    }

    /// The next field between `lo` and `hi`, both included (nothing when
    /// `lo > hi`).
    pub fn between(&self, lo: impl AsRef<str>, hi: impl AsRef<str>) -> CondResult<E, K> {
        self.next.between(lo.as_ref(), hi.as_ref())
    }
}

/// A sort key with every field fixed: the one key. The last step of every
/// generated chain.
#[must_use = "a sort-key step does nothing until a condition is taken from it"]
pub struct SortKeyFull<E, K> {
    chain: Chain<E, K>,
}

wrapper_impls!(SortKeyFull, chain);

impl<E, K: KeyKind> SortKeyFull<E, K> {
    /// A key template without fields: the one key it writes.
    #[doc(hidden)]
    pub fn __new(
        index: Option<&'static str>,
        attr: &'static str,
        tpl: &'static KeyTemplate,
    ) -> Self {
        SortKeyFull {
            chain: Chain {
                index,
                attr,
                w: Ok(KeyWriter::new(tpl)),
                _marker: PhantomData,
            },
        }
    }

    /// The key `tpl` fills, which has no field.
    #[doc(hidden)]
    pub fn __of(tpl: &'static KeyTemplate) -> Self {
        Self::__new(tpl.index(), tpl.attr(), tpl)
    }

    /// The one key with every field fixed.
    pub fn eq(&self) -> CondResult<E, K> {
        self.begins_with()
    }

    /// The one key with every field fixed (a field that is fixed means that
    /// value, so this is `eq()`).
    pub fn begins_with(&self) -> CondResult<E, K> {
        self.chain.cond(KeyWriter::begins_with)
    }
}
