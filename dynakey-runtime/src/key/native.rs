//! The values of native index keys: which field types can be a native key
//! attribute ([`NativeKeyAttr`]), what a comparison takes ([`NativeArg`]),
//! which types have a prefix search ([`NativePrefix`]), and the order
//! DynamoDB keeps such keys in ([`compare_key_values`]).
//!
//! A native key attribute *is* the item's attribute: the value a key
//! function or a condition sends is exactly what [`Attr::to_attr`] stores
//! for the field, so an item is found by the value it holds. Dates and
//! instants are stored in the fixed-width forms keys use (`YYYY-MM-DD`,
//! `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` in UTC), so their text order is time
//! order; numbers are numbers (DynamoDB orders them by value, negative
//! ones included), and binary is ordered bytewise.

use std::cmp::Ordering;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::formats::{KeyPartError, KeyText};
use super::native_attr::KeyAttrType;
use crate::codec::Attr;
use crate::error::{KeyFormatError, KeyFormatReason};

/// A field type that can be an attribute of a native index key: it is
/// stored as a string, a number or binary.
///
/// ```
/// use dynakey_runtime::{key::NativeKeyAttr, Attr, KeyAttrType, KeyFormatReason};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// assert_eq!(<i32 as NativeKeyAttr>::TYPE, KeyAttrType::N);
/// assert_eq!((-12i32).key_value().unwrap(), AttributeValue::N("-12".into()));
/// // The key value is the stored attribute.
/// let d = time::macros::date!(2026 - 07 - 16);
/// assert_eq!(d.key_value().unwrap(), d.to_attr().unwrap());
/// // DynamoDB refuses an empty string in a key attribute.
/// assert_eq!(String::new().key_value().unwrap_err().reason, KeyFormatReason::Empty);
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA121: `{Self}` has no S, N or B form and cannot be a native index key attribute",
    label = "a native index key attribute must be stored as a string, a number or binary",
    note = "native key attributes are String, integers, rust_decimal::Decimal, f32/f64, uuid::Uuid, time::Date, time::OffsetDateTime, Blob and unit enums with #[derive(DynamoValue)] (or an Option of one, for a sparse index); store the field as one of these, or key the index with a template (`pk = \"..<field>..\"`)"
)]
pub trait NativeKeyAttr: Attr {
    /// The attribute's DynamoDB type (`AttributeDefinition`).
    const TYPE: KeyAttrType;

    /// The key value: what [`Attr::to_attr`] stores, or why DynamoDB would
    /// refuse it in a key (an empty string or binary, a number it cannot
    /// hold, an instant outside the years 0000–9999, whose text would not
    /// sort as its time).
    fn key_value(&self) -> Result<AttributeValue, KeyPartError>;
}

/// What a native key comparison of an attribute of type `T` takes: a `T`
/// or a reference to one, and `&str` for a `String`, `&[u8]` or `Vec<u8>`
/// for a `Blob`.
///
/// ```
/// use dynakey_runtime::key::NativeArg;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// fn value<T, V: NativeArg<T>>(v: V) -> AttributeValue { v.native_value().unwrap() }
/// assert_eq!(value::<String, _>("EU"), AttributeValue::S("EU".into()));
/// assert_eq!(value::<u32, _>(7u32), AttributeValue::N("7".into()));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value of this native key attribute, of type `{T}`",
    label = "expected a `{T}` (or a reference to one)"
)]
pub trait NativeArg<T: ?Sized> {
    /// The key value (see [`NativeKeyAttr::key_value`]).
    fn native_value(&self) -> Result<AttributeValue, KeyPartError>;
}

impl<T: NativeKeyAttr> NativeArg<T> for T {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        self.key_value()
    }
}

impl<T: NativeKeyAttr> NativeArg<T> for &T {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        (**self).key_value()
    }
}

impl NativeArg<String> for str {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        text_value(self)
    }
}

impl NativeArg<String> for &str {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        text_value(self)
    }
}

impl NativeArg<Blob> for [u8] {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        bytes_value(self)
    }
}

impl NativeArg<Blob> for &[u8] {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        bytes_value(self)
    }
}

impl NativeArg<Blob> for Vec<u8> {
    fn native_value(&self) -> Result<AttributeValue, KeyPartError> {
        bytes_value(self)
    }
}

/// A native key attribute stored as text or binary, whose sort condition
/// has `begins_with`: a prefix of the stored text (a date's `2026-07`) or
/// bytes. Numbers have none (DynamoDB has no prefix of a number).
///
/// ```
/// use dynakey_runtime::key::NativePrefix;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// assert_eq!(time::Date::prefix_value("2026-07"), Some(AttributeValue::S("2026-07".into())));
/// assert_eq!(String::prefix_value(""), None); // every value starts with ""
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is stored as a number, and `begins_with` applies to string and binary key attributes only",
    label = "no prefix search on a number",
    note = "compare numbers with lt/le/gt/ge/between"
)]
pub trait NativePrefix: NativeKeyAttr {
    /// What a prefix is: `str` for the types stored as text, `[u8]` for
    /// binary.
    type Prefix: ?Sized;

    /// The prefix as the value `begins_with` sends; `None` for an empty
    /// prefix, which every value has (the condition then leaves the
    /// attribute free).
    fn prefix_value(prefix: &Self::Prefix) -> Option<AttributeValue>;
}

/// A string key value; DynamoDB refuses an empty one.
fn text_value(s: &str) -> Result<AttributeValue, KeyPartError> {
    if s.is_empty() {
        return Err(KeyPartError::new("", KeyFormatReason::Empty));
    }
    Ok(AttributeValue::S(s.to_owned()))
}

/// A binary key value; DynamoDB refuses an empty one.
fn bytes_value(b: &[u8]) -> Result<AttributeValue, KeyPartError> {
    if b.is_empty() {
        return Err(KeyPartError::new("", KeyFormatReason::Empty));
    }
    Ok(AttributeValue::B(Blob::new(b.to_vec())))
}

/// A number key value: the stored text, unless DynamoDB cannot hold it.
fn number_value(text: String) -> Result<AttributeValue, KeyPartError> {
    match crate::number::number_problem(&text) {
        Some(problem) => Err(KeyPartError::new(
            text,
            KeyFormatReason::BadNumber { problem },
        )),
        None => Ok(AttributeValue::N(text)),
    }
}

/// The stored attribute of a value whose `to_attr` always gives one.
fn stored<T: Attr>(v: &T) -> AttributeValue {
    v.to_attr().unwrap_or(AttributeValue::Null(true))
}

/// A unit enum variant's stored name as a native key value: what
/// `#[derive(DynamoValue)]`'s `NativeKeyAttr::key_value` returns.
#[doc(hidden)]
pub fn native_str(name: &str) -> Result<AttributeValue, KeyPartError> {
    text_value(name)
}

/// A text prefix as `begins_with` sends it (`None` when empty): what
/// `#[derive(DynamoValue)]`'s `NativePrefix::prefix_value` returns.
#[doc(hidden)]
pub fn native_str_prefix(prefix: &str) -> Option<AttributeValue> {
    (!prefix.is_empty()).then(|| AttributeValue::S(prefix.to_owned()))
}

#[diagnostic::do_not_recommend]
impl NativeKeyAttr for String {
    const TYPE: KeyAttrType = KeyAttrType::S;
    fn key_value(&self) -> Result<AttributeValue, KeyPartError> {
        text_value(self)
    }
}

#[diagnostic::do_not_recommend]
impl NativePrefix for String {
    type Prefix = str;
    fn prefix_value(prefix: &str) -> Option<AttributeValue> {
        native_str_prefix(prefix)
    }
}

#[diagnostic::do_not_recommend]
impl NativeKeyAttr for Blob {
    const TYPE: KeyAttrType = KeyAttrType::B;
    fn key_value(&self) -> Result<AttributeValue, KeyPartError> {
        bytes_value(self.as_ref())
    }
}

#[diagnostic::do_not_recommend]
impl NativePrefix for Blob {
    type Prefix = [u8];
    fn prefix_value(prefix: &[u8]) -> Option<AttributeValue> {
        (!prefix.is_empty()).then(|| AttributeValue::B(Blob::new(prefix.to_vec())))
    }
}

/// Integers, decimals and floats: the stored number. Every integer up to
/// 64 bits fits DynamoDB's 38 digits; a 128-bit one or a float may not.
macro_rules! native_numbers {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl NativeKeyAttr for $t {
            const TYPE: KeyAttrType = KeyAttrType::N;
            fn key_value(&self) -> Result<AttributeValue, KeyPartError> {
                match stored(self) {
                    AttributeValue::N(n) => number_value(n),
                    other => Ok(other),
                }
            }
        }
    )*};
}

native_numbers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, Decimal);

macro_rules! native_floats {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl NativeKeyAttr for $t {
            const TYPE: KeyAttrType = KeyAttrType::N;
            fn key_value(&self) -> Result<AttributeValue, KeyPartError> {
                if !self.is_finite() {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::NotFinite));
                }
                match stored(self) {
                    AttributeValue::N(n) => number_value(n),
                    other => Ok(other),
                }
            }
        }
    )*};
}

native_floats!(f32, f64);

/// Uuids, dates and instants are stored as their key text (fixed width,
/// text order is value order): the key value is that text, and one out of
/// the years 0000–9999 is refused (its text would not sort as its time).
macro_rules! native_key_text {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl NativeKeyAttr for $t {
            const TYPE: KeyAttrType = KeyAttrType::S;
            fn key_value(&self) -> Result<AttributeValue, KeyPartError> {
                let mut s = String::new();
                self.write_text(&mut s)?;
                Ok(AttributeValue::S(s))
            }
        }

        #[diagnostic::do_not_recommend]
        impl NativePrefix for $t {
            type Prefix = str;
            fn prefix_value(prefix: &str) -> Option<AttributeValue> {
                native_str_prefix(prefix)
            }
        }
    )*};
}

native_key_text!(Uuid, Date, OffsetDateTime);

/// Two values of one key attribute in the order DynamoDB keeps them:
/// strings by their UTF-8 bytes, numbers by value (exactly, at any
/// precision; negative ones below positive ones), binary bytewise. Values
/// of different types (which one attribute of an index cannot hold) order
/// S < N < B.
///
/// ```
/// use dynakey_runtime::key::compare_key_values;
/// use aws_sdk_dynamodb::types::AttributeValue::N;
/// use std::cmp::Ordering::*;
/// assert_eq!(compare_key_values(&N("-10".into()), &N("-2".into())), Less);
/// assert_eq!(compare_key_values(&N("10".into()), &N("9".into())), Greater);
/// assert_eq!(compare_key_values(&N("1E+2".into()), &N("100".into())), Equal);
/// ```
pub fn compare_key_values(a: &AttributeValue, b: &AttributeValue) -> Ordering {
    match (a, b) {
        (AttributeValue::S(a), AttributeValue::S(b)) => a.as_bytes().cmp(b.as_bytes()),
        (AttributeValue::N(a), AttributeValue::N(b)) => {
            crate::number::compare(a, b).unwrap_or_else(|| a.cmp(b))
        }
        (AttributeValue::B(a), AttributeValue::B(b)) => a.as_ref().cmp(b.as_ref()),
        (a, b) => rank(a).cmp(&rank(b)),
    }
}

fn rank(v: &AttributeValue) -> u8 {
    match KeyAttrType::of(v) {
        Some(KeyAttrType::S) => 0,
        Some(KeyAttrType::N) => 1,
        Some(KeyAttrType::B) => 2,
        None => 3,
    }
}

/// A native key value's refusal with its context: the entity, the index
/// and the field (a native key has no template).
pub(crate) fn native_error(
    entity: &'static str,
    index: &'static str,
    field: &'static str,
    e: KeyPartError,
) -> KeyFormatError {
    KeyFormatError {
        discriminator: entity,
        index: Some(index),
        template: "",
        field,
        value: e.value,
        reason: e.reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_values_are_the_stored_attributes() {
        let t = time::macros::datetime!(2026-07-16 10:00:00.5 +02:00);
        assert_eq!(t.key_value().unwrap(), t.to_attr().unwrap());
        assert_eq!(
            t.key_value().unwrap(),
            AttributeValue::S("2026-07-16T08:00:00.500000000Z".into())
        );
        let u = Uuid::from_u128(0xAB);
        assert_eq!(u.key_value().unwrap(), u.to_attr().unwrap());
        let d = Decimal::new(-1550, 2);
        assert_eq!(d.key_value().unwrap(), d.to_attr().unwrap());
        assert_eq!(i64::MIN.key_value().unwrap(), i64::MIN.to_attr().unwrap());
        assert_eq!(0.1f64.key_value().unwrap(), 0.1f64.to_attr().unwrap());
        let b = Blob::new(vec![0, 255]);
        assert_eq!(b.key_value().unwrap(), b.to_attr().unwrap());
    }

    #[test]
    fn values_dynamodb_refuses_in_a_key_are_refused() {
        let reason = |r: Result<AttributeValue, KeyPartError>| r.unwrap_err().reason;
        assert_eq!(reason(String::new().key_value()), KeyFormatReason::Empty);
        assert_eq!(
            reason(Blob::new(vec![]).key_value()),
            KeyFormatReason::Empty
        );
        assert_eq!(reason(f64::NAN.key_value()), KeyFormatReason::NotFinite);
        assert_eq!(
            reason(f32::INFINITY.key_value()),
            KeyFormatReason::NotFinite
        );
        assert!(matches!(
            reason(u128::MAX.key_value()),
            KeyFormatReason::BadNumber { .. }
        ));
        assert!(matches!(
            reason(1e300f64.key_value()),
            KeyFormatReason::BadNumber { .. }
        ));
        // 38 digits fit.
        assert!((10u128.pow(37)).key_value().is_ok());
        assert_eq!(reason(native_str("")), KeyFormatReason::Empty);
        assert_eq!(
            reason(NativeArg::<String>::native_value("")),
            KeyFormatReason::Empty
        );
    }

    #[test]
    fn numbers_compare_by_value() {
        let n = |s: &str| AttributeValue::N(s.into());
        let mut v: Vec<AttributeValue> = ["10", "-2", "9", "-10", "0", "1.5", "-0.5", "1E+1"]
            .iter()
            .map(|s| n(s))
            .collect();
        v.sort_by(compare_key_values);
        let texts: Vec<&str> = v.iter().map(|a| a.as_n().unwrap().as_str()).collect();
        assert_eq!(texts, ["-10", "-2", "-0.5", "0", "1.5", "9", "10", "1E+1"]);
        let b = |x: &[u8]| AttributeValue::B(Blob::new(x.to_vec()));
        assert_eq!(compare_key_values(&b(&[1]), &b(&[1, 0])), Ordering::Less);
        assert_eq!(
            compare_key_values(&b(&[0x80]), &b(&[0x7f])),
            Ordering::Greater
        );
        // Strings by UTF-8 bytes (U+FFFF sorts below an astral character,
        // unlike UTF-16 order).
        let s = |x: &str| AttributeValue::S(x.into());
        assert_eq!(compare_key_values(&s("\u{ffff}"), &s("😀")), Ordering::Less);
    }
}
