//! [`Attr`] for standard, time, uuid, decimal and collection types.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::{Attr, AttrPath, DecodeError, SetMember};
use crate::key::KeyText;

impl Attr for String {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::S(self.clone()))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::S(s) => Ok(s.clone()),
            other => Err(DecodeError::mismatch(path, "S (string)", other)),
        }
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl Attr for bool {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::Bool(*self))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::Bool(b) => Ok(*b),
            other => Err(DecodeError::mismatch(path, "BOOL", other)),
        }
    }
}

/// `()` is DynamoDB's NULL.
impl Attr for () {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::Null(true))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::Null(_) => Ok(()),
            other => Err(DecodeError::mismatch(path, "NULL", other)),
        }
    }
}

/// A raw attribute value passes through unchanged.
impl Attr for AttributeValue {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(self.clone())
    }
    fn from_attr(value: &AttributeValue, _path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        Ok(value.clone())
    }
}

fn number<T: std::str::FromStr>(
    value: &AttributeValue,
    path: &AttrPath<'_>,
    what: &str,
) -> Result<T, DecodeError> {
    match value {
        AttributeValue::N(n) => n
            .parse()
            .map_err(|_| DecodeError::new(path, format!("N fitting {what}"), format!("N {n:?}"))),
        other => Err(DecodeError::mismatch(path, "N (number)", other)),
    }
}

/// Integer text without the formatting machinery: the codec's hot path
/// (`to_string` goes through `Formatter` and costs several times more).
fn int_text(negative: bool, magnitude: u64) -> String {
    let mut buf = [0u8; 21];
    let mut i = buf.len();
    let mut n = magnitude;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    // Only ASCII digits and '-' were written.
    String::from_utf8_lossy(&buf[i..]).into_owned()
}

macro_rules! small_integers {
    ($($t:ty),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                let v = *self as i128;
                Some(AttributeValue::N(int_text(v < 0, v.unsigned_abs() as u64)))
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                number(value, path, stringify!($t))
            }
        }
    )*};
}

small_integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                Some(AttributeValue::N(self.to_string()))
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                number(value, path, stringify!($t))
            }
        }

    )*};
}

numbers!(i128, u128, Decimal);

macro_rules! number_sets {
    ($($t:ty),*) => {$(
        impl SetMember for $t {
            fn to_set(members: Vec<&Self>) -> AttributeValue {
                AttributeValue::Ns(members.into_iter().map(|m| m.to_string()).collect())
            }
            fn from_set(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Vec<Self>, DecodeError> {
                match value {
                    AttributeValue::Ns(ns) => ns
                        .iter()
                        .enumerate()
                        .map(|(i, n)| number(&AttributeValue::N(n.clone()), &path.index(i), stringify!($t)))
                        .collect(),
                    other => Err(DecodeError::mismatch(path, "NS (number set)", other)),
                }
            }
        }
    )*};
}

number_sets!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, Decimal);

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                Some(AttributeValue::N(self.to_string()))
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                number(value, path, stringify!($t))
            }
        }
    )*};
}

floats!(f32, f64);

impl Attr for Blob {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::B(self.clone()))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::B(b) => Ok(b.clone()),
            other => Err(DecodeError::mismatch(path, "B (binary)", other)),
        }
    }
    fn is_empty_value(&self) -> bool {
        self.as_ref().is_empty()
    }
}

impl SetMember for String {
    fn to_set(members: Vec<&Self>) -> AttributeValue {
        AttributeValue::Ss(members.into_iter().cloned().collect())
    }
    fn from_set(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Vec<Self>, DecodeError> {
        match value {
            AttributeValue::Ss(ss) => Ok(ss.clone()),
            other => Err(DecodeError::mismatch(path, "SS (string set)", other)),
        }
    }
}

impl SetMember for Vec<u8> {
    fn to_set(members: Vec<&Self>) -> AttributeValue {
        AttributeValue::Bs(members.into_iter().map(|m| Blob::new(m.clone())).collect())
    }
    fn from_set(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Vec<Self>, DecodeError> {
        match value {
            AttributeValue::Bs(bs) => Ok(bs.iter().map(|b| b.as_ref().to_vec()).collect()),
            other => Err(DecodeError::mismatch(path, "BS (binary set)", other)),
        }
    }
}

/// Key-text types (uuid, date, instant) are stored as their key text, so an
/// attribute and a key hold the same string.
macro_rules! as_key_text {
    ($($t:ty => $what:literal),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                let mut s = String::new();
                // These types always have a text form (dates out of 0000-9999 fall back to Display).
                if self.write_text(&mut s).is_err() {
                    s = self.to_string();
                }
                Some(AttributeValue::S(s))
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                match value {
                    AttributeValue::S(s) => <$t as KeyText>::parse_text(s)
                        .map_err(|_| DecodeError::new(path, $what, format!("S {s:?}"))),
                    other => Err(DecodeError::mismatch(path, $what, other)),
                }
            }
        }
    )*};
}

as_key_text!(
    Uuid => "S holding a lowercase uuid",
    Date => "S holding a date YYYY-MM-DD",
    OffsetDateTime => "S holding a UTC instant YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ"
);

impl SetMember for Uuid {
    fn to_set(members: Vec<&Self>) -> AttributeValue {
        AttributeValue::Ss(
            members
                .into_iter()
                .map(|m| m.hyphenated().to_string())
                .collect(),
        )
    }
    fn from_set(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Vec<Self>, DecodeError> {
        match value {
            AttributeValue::Ss(ss) => ss
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    Uuid::try_parse(s)
                        .map_err(|_| DecodeError::new(&path.index(i), "a uuid", format!("{s:?}")))
                })
                .collect(),
            other => Err(DecodeError::mismatch(path, "SS (string set)", other)),
        }
    }
}

/// `None` leaves the attribute out; an absent attribute or NULL reads as `None`.
impl<T: Attr> Attr for Option<T> {
    fn to_attr(&self) -> Option<AttributeValue> {
        self.as_ref().and_then(T::to_attr)
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::Null(_) => Ok(None),
            v => T::from_attr(v, path).map(Some),
        }
    }
    fn from_missing(_path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        Ok(None)
    }
    fn is_empty_value(&self) -> bool {
        self.as_ref().is_none_or(T::is_empty_value)
    }
}

impl<T: Attr> Attr for Box<T> {
    fn to_attr(&self) -> Option<AttributeValue> {
        (**self).to_attr()
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        T::from_attr(value, path).map(Box::new)
    }
    fn from_missing(path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        T::from_missing(path).map(Box::new)
    }
    fn is_empty_value(&self) -> bool {
        (**self).is_empty_value()
    }
}

/// A list (L). Elements that encode to nothing (`None`) are stored as NULL so
/// positions are kept.
impl<T: Attr> Attr for Vec<T> {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::L(
            self.iter()
                .map(|v| v.to_attr().unwrap_or(AttributeValue::Null(true)))
                .collect(),
        ))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::L(l) => l
                .iter()
                .enumerate()
                .map(|(i, v)| T::from_attr(v, &path.index(i)))
                .collect(),
            other => Err(DecodeError::mismatch(path, "L (list)", other)),
        }
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// Like a list, a map keeps its entries: a value that encodes to nothing
/// (`None`, an empty set) is stored as NULL, so the key survives.
fn map_to_attr<'a, T: Attr + 'a>(
    entries: impl Iterator<Item = (&'a String, &'a T)>,
) -> AttributeValue {
    AttributeValue::M(
        entries
            .map(|(k, v)| (k.clone(), v.to_attr().unwrap_or(AttributeValue::Null(true))))
            .collect(),
    )
}

fn map_from_attr<T: Attr, C: FromIterator<(String, T)>>(
    value: &AttributeValue,
    path: &AttrPath<'_>,
) -> Result<C, DecodeError> {
    match value {
        AttributeValue::M(m) => m
            .iter()
            .map(|(k, v)| T::from_attr(v, &path.field(k)).map(|t| (k.clone(), t)))
            .collect(),
        other => Err(DecodeError::mismatch(path, "M (map)", other)),
    }
}

/// A map (M) with string keys.
impl<T: Attr, S: BuildHasher + Default> Attr for HashMap<String, T, S> {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(map_to_attr(self.iter()))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        map_from_attr(value, path)
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// A map (M) with string keys.
impl<T: Attr> Attr for BTreeMap<String, T> {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(map_to_attr(self.iter()))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        map_from_attr(value, path)
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// A set (SS, NS or BS). DynamoDB cannot store an empty set: an empty set is
/// left out (NULL inside a list or map), and an absent attribute or NULL
/// reads as an empty set.
impl<T: SetMember + Hash, S: BuildHasher + Default> Attr for HashSet<T, S> {
    fn to_attr(&self) -> Option<AttributeValue> {
        if self.is_empty() {
            return None;
        }
        // Sorted, so the same set always encodes the same way.
        let mut members: Vec<&T> = self.iter().collect();
        members.sort();
        Some(T::to_set(members))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::Null(_) => Ok(Self::default()),
            v => T::from_set(v, path).map(|v| v.into_iter().collect()),
        }
    }
    fn from_missing(_path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        Ok(Self::default())
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// A set (SS, NS or BS); see the `HashSet` impl.
impl<T: SetMember> Attr for BTreeSet<T> {
    fn to_attr(&self) -> Option<AttributeValue> {
        if self.is_empty() {
            return None;
        }
        Some(T::to_set(self.iter().collect()))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::Null(_) => Ok(Self::default()),
            v => T::from_set(v, path).map(|v| v.into_iter().collect()),
        }
    }
    fn from_missing(_path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        Ok(Self::default())
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}
