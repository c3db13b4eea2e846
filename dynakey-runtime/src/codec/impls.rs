//! [`Attr`] for standard, time, uuid, decimal and collection types.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;
use uuid::Uuid;

use super::depth::enter;
use super::number_text::{decimal, f64_text, int, int_text};
use super::{first_in_list, first_in_map, Attr, AttrPath, DecodeError, SetMember, Unwritable};

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

/// A raw attribute value passes through unchanged; one nested past the
/// levels DynamoDB stores is refused before it is copied (the copy
/// recurses).
impl Attr for AttributeValue {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(self.clone())
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        if let Some(below) = super::too_deep(value, path.depth()) {
            return Err(DecodeError::too_deep(path, &below));
        }
        Ok(value.clone())
    }
}

/// A number attribute through `read`, which gets its text.
fn number<T>(
    value: &AttributeValue,
    path: &AttrPath<'_>,
    what: &str,
    read: impl FnOnce(&str) -> Option<T>,
) -> Result<T, DecodeError> {
    match value {
        AttributeValue::N(n) => read(n).ok_or_else(|| {
            DecodeError::new(
                path,
                format!("N fitting {what}"),
                super::describe_value(value),
            )
        }),
        other => Err(DecodeError::mismatch(path, "N (number)", other)),
    }
}

macro_rules! small_integers {
    ($($t:ty),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                Some(AttributeValue::N(int_text(*self)))
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                number(value, path, stringify!($t), int)
            }
        }
    )*};
}

small_integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! numbers {
    ($($t:ty => $read:expr),*) => {$(
        impl Attr for $t {
            fn to_attr(&self) -> Option<AttributeValue> {
                Some(AttributeValue::N(self.to_string()))
            }
            fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
                number(value, path, stringify!($t), $read)
            }
        }

    )*};
}

numbers!(i128 => int, u128 => int, Decimal => decimal);

macro_rules! number_sets {
    ($($t:ty => $read:expr),*) => {$(
        impl SetMember for $t {
            fn to_set(members: Vec<&Self>) -> AttributeValue {
                AttributeValue::Ns(members.into_iter().map(|m| m.to_string()).collect())
            }
            fn from_set(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Vec<Self>, DecodeError> {
                match value {
                    AttributeValue::Ns(ns) => ns
                        .iter()
                        .enumerate()
                        .map(|(i, n)| number(&AttributeValue::N(n.clone()), &path.index(i), stringify!($t), $read))
                        .collect(),
                    other => Err(DecodeError::mismatch(path, "NS (number set)", other)),
                }
            }
        }
    )*};
}

number_sets!(
    i8 => int, i16 => int, i32 => int, i64 => int, i128 => int, isize => int,
    u8 => int, u16 => int, u32 => int, u64 => int, u128 => int, usize => int,
    Decimal => decimal
);

impl Attr for f32 {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::N(self.to_string()))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        number(value, path, "f32", |n| n.parse().ok())
    }
}

impl Attr for f64 {
    fn to_attr(&self) -> Option<AttributeValue> {
        Some(AttributeValue::N(f64_text(*self)))
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        number(value, path, "f64", |n| n.parse().ok())
    }
}

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
                    Uuid::try_parse(s).map_err(|_| {
                        DecodeError::new(
                            &path.index(i),
                            "a uuid",
                            crate::shown::shown(s).to_string(),
                        )
                    })
                })
                .collect(),
            other => Err(DecodeError::mismatch(path, "SS (string set)", other)),
        }
    }
}

/// `None` leaves the attribute out; an absent attribute or NULL reads as `None`.
impl<T: Attr> Attr for Option<T> {
    fn __shape(shape: &mut super::Shape) {
        T::__shape(shape)
    }

    fn to_attr(&self) -> Option<AttributeValue> {
        self.as_ref().and_then(T::to_attr)
    }
    fn unwritable(&self) -> Option<Unwritable> {
        self.as_ref().and_then(T::unwritable)
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
    fn __shape(shape: &mut super::Shape) {
        T::__shape(shape)
    }

    fn to_attr(&self) -> Option<AttributeValue> {
        (**self).to_attr()
    }
    fn unwritable(&self) -> Option<Unwritable> {
        (**self).unwritable()
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

/// `items` as a list (L): an element that encodes to nothing (`None`) is
/// stored as NULL, so positions are kept.
pub(crate) fn list_attr<'a, T: Attr + 'a>(
    items: impl IntoIterator<Item = &'a T>,
) -> AttributeValue {
    AttributeValue::L(
        items
            .into_iter()
            .map(|v| v.to_attr().unwrap_or(AttributeValue::Null(true)))
            .collect(),
    )
}

/// A list (L): an element that encodes to nothing (`None`) is stored as
/// NULL, so positions are kept.
impl<T: Attr> Attr for Vec<T> {
    fn __shape(shape: &mut super::Shape) {
        T::__shape(shape)
    }

    fn to_attr(&self) -> Option<AttributeValue> {
        Some(list_attr(self))
    }
    fn unwritable(&self) -> Option<Unwritable> {
        first_in_list(self)
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        match value {
            AttributeValue::L(l) => {
                enter(path)?;
                l.iter()
                    .enumerate()
                    .map(|(i, v)| T::from_attr(v, &path.index(i)))
                    .collect()
            }
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
        AttributeValue::M(m) => {
            enter(path)?;
            m.iter()
                .map(|(k, v)| T::from_attr(v, &path.field(k)).map(|t| (k.clone(), t)))
                .collect()
        }
        other => Err(DecodeError::mismatch(path, "M (map)", other)),
    }
}

/// The entries of a map attribute, 0 for anything else.
fn map_len(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::M(m) => m.len(),
        _ => 0,
    }
}

/// Each entry of a map attribute decoded and handed to `put`.
fn for_each_entry<T: Attr>(
    value: &AttributeValue,
    path: &AttrPath<'_>,
    mut put: impl FnMut(String, T),
) -> Result<(), DecodeError> {
    match value {
        AttributeValue::M(m) => {
            enter(path)?;
            for (k, v) in m {
                let t = T::from_attr(v, &path.field(k))?;
                put(k.clone(), t);
            }
            Ok(())
        }
        other => Err(DecodeError::mismatch(path, "M (map)", other)),
    }
}

/// A map (M) with string keys.
impl<T: Attr, S: BuildHasher + Default> Attr for HashMap<String, T, S> {
    fn __shape(shape: &mut super::Shape) {
        T::__shape(shape)
    }

    fn to_attr(&self) -> Option<AttributeValue> {
        Some(map_to_attr(self.iter()))
    }
    fn unwritable(&self) -> Option<Unwritable> {
        first_in_map(self)
    }
    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        // Sized once: collecting through `Result` would grow the table.
        let mut out = HashMap::with_capacity_and_hasher(map_len(value), S::default());
        for_each_entry(value, path, |k, v| {
            out.insert(k, v);
        })?;
        Ok(out)
    }
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// A map (M) with string keys.
impl<T: Attr> Attr for BTreeMap<String, T> {
    fn __shape(shape: &mut super::Shape) {
        T::__shape(shape)
    }

    fn to_attr(&self) -> Option<AttributeValue> {
        Some(map_to_attr(self.iter()))
    }
    fn unwritable(&self) -> Option<Unwritable> {
        first_in_map(self)
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
