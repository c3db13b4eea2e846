//! A placeholder's form as one value: how a field of type `T` is written
//! into a key and read back from one.
//!
//! One function per format ([`text`], [`padded`], [`signed`], [`decimal`],
//! [`reverse`]) gives a field's form. Derived code reaches them through
//! the format traits (`<u32 as KeyPadded>::padded_form()`), wherever the
//! field is written (key functions, `to_item`, typed updates, sort-key
//! chains) or read (`parse_*`): a field type without the format's trait
//! then fails the same trait, at the same span, in every place, and rustc
//! reports identical errors once: one mistake, one error (DYNA102,
//! DYNA107), not one per place that writes the key. Through the trait, not
//! through the bounded function, because rustc adds to an unmet bound of a
//! function a note redrawing where the bound was declared.

use std::fmt;

use super::formats::{KeyDecimal, KeyPadded, KeyReverse, KeySigned, KeyText};
use super::reader::KeyReader;
use super::writer::KeyWriter;
use crate::error::KeyFormatError;

/// Writes one placeholder's value.
pub type WriteFn<T> = fn(&mut KeyWriter, &T) -> Result<(), KeyFormatError>;

/// Reads one placeholder's value.
pub type ReadFn<T> = fn(&mut KeyReader<'_>) -> Result<T, KeyFormatError>;

/// How a field of type `T` is written into a key and read back (see the
/// module docs).
///
/// ```
/// use dynakey_runtime::key::{form, parts, KeyBuilder, KeyReader, KeyTemplate, TemplatePart};
/// const P: [TemplatePart; 2] = parts::<2>("N#<n:d4>");
/// static T: KeyTemplate = KeyTemplate::new("E", "N#<n:d4>", &P);
/// let key = KeyBuilder::new(&T).part(form::padded::<u16>(), &42).finish().unwrap();
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
    /// Writes `v` as the writer's next placeholder.
    pub fn write(self, w: &mut KeyWriter, v: &T) -> Result<(), KeyFormatError> {
        (self.write)(w, v)
    }

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
